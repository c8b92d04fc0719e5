// A connection that yields after every line (what the daemon's fairness does to a busy
// client) must not keep reading meanwhile: found by the blast flood, where the daemon
// grew by 47 MiB buffering a sender it only served 64 requests per turn. A turn is the
// loop's: only a client that has its whole share of requests handled in one turn yields.

import Glibc
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing
@testable import PresentServer

@Suite("Fairness")
struct FairnessTests {
    @Test func aConnectionThatKeepsYieldingDoesNotBufferWithoutBound() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
        let (ours, theirs) = (fds[0], fds[1])
        defer { close(theirs) }
        _ = fcntl(theirs, F_SETFL, fcntl(theirs, F_GETFL) | O_NONBLOCK)
        let connection = try Connection(loop: loop, fd: ours)
        var delivered = 0
        connection.onLine = { _ in
            delivered += 1
            connection.pauseReading()
            loop.post { connection.resumeReading() }   // one line per turn
        }
        // The peer writes as fast as the kernel lets it while the loop turns 300 times.
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 99) + [10]
        let chunk = Array((0..<100).map { _ in line }.joined())
        var written = 0
        for _ in 0..<300 {
            while true {
                let n = chunk.withUnsafeBytes { send(theirs, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 { break }
                written += n
            }
            loop.runOnce()
        }
        // Only what the kernel holds plus about one read is outstanding; before, every
        // turn read 64 KiB more into the line buffer (≈ 19 MiB here).
        let outstanding = written - delivered * line.count
        #expect(delivered > 0)
        #expect(outstanding < 2 << 20, "\(outstanding) bytes written but not yet delivered")
        connection.close()
        #expect(loop.run(until: { connection.state == .closed }))
        #expect(loop.close() == 0)
    }

    @Test func theLoopCountsItsTurns() throws {
        let loop = try EventLoop()
        let timer = try Timer(loop: loop)   // something to wait for: a loop with nothing to do does not turn
        timer.start(after: 60)
        let before = loop.turn
        for _ in 0..<3 { loop.runOnce() }
        #expect(loop.turn == before + 3, "one turn per iteration")
        timer.close()
        loop.runOnce()   // the timer's close callback
        #expect(!loop.runOnce(), "with the timer gone nothing keeps the loop running: the counter is unreferenced")
        #expect(loop.close() == 0)
    }

    /// A client that waits for each reply has one request per turn, however many it sends;
    /// one that sends a thousand at once has them all read in one turn, and yields.
    @Test func onlyAClientThatUsesUpItsTurnYields() throws {
        let daemon = try DaemonHarness()
        let steady = try daemon.connect()
        try steady.call("hello", ["client": "steady"])
        for _ in 0..<(3 * Daemon.requestsPerTurn) { try steady.call("ping") }
        let burst = try daemon.connect()
        try burst.call("hello", ["client": "burst"])
        let ping = #"{"jsonrpc":"2.0","id":7,"method":"ping"}"# + "\n"
        try burst.sendRaw(Array(String(repeating: ping, count: 1000).utf8))
        for index in 0..<1000 {
            let line = try burst.readLine()
            #expect(line.map { String(decoding: $0, as: UTF8.self).contains(#""id":7"#) } == true, "reply \(index)")
        }
        let clients = try #require(try daemon.connect().call("stats")["clients"]?.arrayValue)
        let yields = { (name: JSONValue) in clients.first { $0["name"] == name }?["yields"]?.int64Value }
        #expect(yields("steady") == 0, "\(3 * Daemon.requestsPerTurn) requests, one per turn: never paused")
        #expect((yields("burst") ?? 0) >= 1, "1000 requests read in one turn: paused after its share")
    }
}
