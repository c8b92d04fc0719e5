// The listener's first read, as clients see it: a connection that closed before it was
// accepted is counted and leaves no other trace; bytes written before the daemon accepted
// are served, in order, within the limits and the admission rules a later read meets.
//
// To have a client connect (and write, or close) before the daemon accepts, the daemon is
// stopped (SIGSTOP) meanwhile: the kernel completes the connect into the listening
// socket's backlog and keeps what the client writes, and the daemon, continued, finds it
// all there at its accept.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Early reads")
struct EarlyReadTests {
    /// Runs `body` with the daemon's process stopped (as the kernel reports it), then
    /// continues it.
    static func whileStopped<T>(_ daemon: DaemonHarness, _ body: () throws -> T) throws -> T {
        #expect(kill(daemon.pid, SIGSTOP) == 0)
        defer { kill(daemon.pid, SIGCONT) }
        try waitUntil("presentd (pid \(daemon.pid)) to be stopped") { processState(daemon.pid) == "T" }
        return try body()
    }

    /// The state letter of /proc/PID/stat (R, S, T…).
    static func processState(_ pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[close...].dropFirst(2).first
    }

    /// Reads `connection` until it has `count` lines, or it ends; the lines as JSON.
    static func lines(from connection: RawConnection, count: Int) throws -> (lines: [JSONValue], ended: Bool) {
        var lines: [JSONValue] = []
        let deadline = monotonicNow() + generousTimeout
        while lines.count < count && monotonicNow() < deadline {
            guard connection.waitReadable(timeout: 0.1) else { continue }
            guard let read = connection.read() else { return (lines, true) }
            lines += try read.map { try JSONValue.parse($0) }
        }
        return (lines, false)
    }

    /// Reads until the daemon closes the connection; the lines it sent before.
    static func linesUntilClosed(_ connection: RawConnection) throws -> [JSONValue] {
        var lines: [JSONValue] = []
        let deadline = monotonicNow() + generousTimeout
        while monotonicNow() < deadline {
            guard connection.waitReadable(timeout: 0.1) else { continue }
            guard let read = connection.read() else { return lines }
            lines += try read.map { try JSONValue.parse($0) }
        }
        Issue.record("the daemon did not close the connection within \(generousTimeout) s; it sent \(lines)")
        return lines
    }

    static func connectRecords(_ admin: PresentClient) throws -> [Substring] {
        let recording = try #require(try admin.call("recordDump")["recording"]?.stringValue)
        return recording.split(separator: "\n").filter { $0.contains(#""event":"connect""#) }
    }

    @Test func aConnectionClosedBeforeItWasAcceptedIsOnlyCounted() throws {
        let daemon = try DaemonHarness(["--log-level", "info"])
        let admin = try daemon.connect()
        let before = try admin.call("stats")
        let connectsBefore = try Self.connectRecords(admin)
        let silentBefore = try #require(before["connections"]?["silent"]?.int64Value)
        let acceptedBefore = try #require(before["connections"]?["accepted"]?.int64Value)
        try Self.whileStopped(daemon) {
            for _ in 0..<3 { try RawConnection(path: daemon.socketPath).close() }
        }
        try waitUntil(
            "stats to count the three connections that closed before a word",
            context: { (try? admin.call("stats")).map { "\($0)" } ?? "no stats" }
        ) {
            try admin.call("stats")["connections"]?["silent"]?.int64Value == silentBefore + 3
        }
        let after = try admin.call("stats")
        #expect(after["connections"]?["accepted"]?.int64Value == acceptedBefore + 3)
        #expect(after["clients"]?.arrayValue?.count == 1, "only the admin is a client: \(after["clients"] ?? .null)")
        #expect(try Self.connectRecords(admin) == connectsBefore, "the silent connections were recorded")
        // The next connection that speaks is numbered next after the admin: the silent
        // ones took no number, so the recording has no gap to explain.
        let next = try daemon.connect()
        #expect(try next.call("ping") == [:])
        let adminID = try #require(after["clients"]?[0]?["id"]?.int64Value)
        let ids = try #require(try admin.call("stats")["clients"]?.arrayValue).compactMap { $0["id"]?.int64Value }
        #expect(ids == [adminID, adminID + 1])
        #expect(!daemon.stderrText.contains("client \(adminID + 2) "), "a silent connection was logged")
    }

    @Test func requestsWrittenBeforeTheAcceptAreAnsweredInOrder() throws {
        let daemon = try DaemonHarness()
        let connection = try Self.whileStopped(daemon) {
            let connection = try RawConnection(path: daemon.socketPath)
            connection.send(raw: Array(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hello\",\"params\":{\"client\":\"early\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"stack\"}\r\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n").utf8))
            #expect(!connection.hasPendingOutput)
            return connection
        }
        let (lines, ended) = try Self.lines(from: connection, count: 4)
        #expect(!ended)
        #expect(lines.map { $0["id"] } == [1, 2, 3, 4], "\(lines)")
        #expect(lines.allSatisfy { $0["result"] != nil }, "\(lines)")
        #expect(lines.count > 1 && lines[1]["result"]?["limits"] != nil)
        // The connection goes on like any other.
        connection.send("ping", id: 5)
        #expect(try connection.awaitReply(5)["result"] == [:])
    }

    /// A client that writes its request and shuts its writing side before the accept
    /// still gets its answer before the daemon lets it go.
    @Test func aRequestAndItsEndBeforeTheAcceptAreAnswered() throws {
        let daemon = try DaemonHarness()
        let connection = try Self.whileStopped(daemon) {
            let connection = try RawConnection(path: daemon.socketPath)
            connection.send("ping", id: 1)
            #expect(shutdown(connection.fd, Int32(SHUT_WR)) == 0)
            return connection
        }
        let lines = try Self.linesUntilClosed(connection)
        #expect(lines == [["jsonrpc": "2.0", "id": 1, "result": [:]]])
    }

    @Test func anOverlongFirstLineIsRefusedAsAnyOther() throws {
        let daemon = try DaemonHarness(configuration: #"{"limits": {"maxLineBytes": 1024}}"#)
        let connection = try Self.whileStopped(daemon) {
            let connection = try RawConnection(path: daemon.socketPath)
            connection.send("ping", id: 1)
            connection.send(raw: [UInt8](repeating: UInt8(ascii: "x"), count: 3000) + [10])
            connection.send("ping", id: 2)
            #expect(!connection.hasPendingOutput)
            return connection
        }
        let lines = try Self.linesUntilClosed(connection)
        try #require(lines.count == 2, "\(lines)")
        #expect(lines[0] == ["jsonrpc": "2.0", "id": 1, "result": [:]])
        #expect(lines[1]["id"] == .null && lines[1]["error"]?["code"] == -32600)
        #expect(lines[1]["error"]?["message"]?.stringValue?.contains("line exceeds 1024 bytes") == true, "\(lines[1])")
    }

    @Test func aRefusedConnectionsEarlyRequestIsNotServed() throws {
        let daemon = try AccessControlTests.limitedDaemon(["--max-connections-per-uid", "1"])
        let held = try daemon.connect()
        #expect(try held.call("ping") == [:])
        let connection = try Self.whileStopped(daemon) {
            let connection = try RawConnection(path: daemon.socketPath)
            connection.send("ping", id: 7)
            connection.send("present", id: 8, ["id": "sneaked", "content": ["title": "in"]])
            return connection
        }
        let lines = try Self.linesUntilClosed(connection)
        #expect(lines == [["jsonrpc": "2.0", "method": "closing",
                           "params": ["reason": "tooManyConnectionsForUser", "limit": 1]]])
        #expect(try held.call("stack")["entries"]?.arrayValue?.isEmpty == true)
    }
}
