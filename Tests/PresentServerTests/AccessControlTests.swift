// Access control as clients see it: connection limits (total and per uid, with
// throttled refusal logs) and the dismiss policy across uids and groups. The policy
// tests need other uids: they run when the tests run as root (setpriv switches the
// presentctl children to other uids and groups) and are skipped otherwise.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Access control")
struct AccessControlTests {
    // MARK: Connection limits

    /// Connects and returns the first line the daemon sends, if any.
    static func refusal(_ daemon: DaemonHarness) throws -> JSONValue? {
        let c = try RawConnection(path: daemon.socketPath)
        guard c.waitReadable(timeout: generousTimeout), let line = c.read()?.first else { return nil }
        return try JSONValue.parse(line)
    }

    /// A daemon at log level info, once the harness's readiness probe has left (it would
    /// otherwise hold one of the few slots these tests allow).
    static func limitedDaemon(_ arguments: [String]) throws -> DaemonHarness {
        let daemon = try DaemonHarness(arguments + ["--log-level", "info"])
        try waitUntil("presentd to log that the readiness probe disconnected", context: { daemon.stderrText }) {
            daemon.stderrText.contains("disconnected")
        }
        return daemon
    }

    @Test func connectionsPerUIDAreLimited() throws {
        let daemon = try Self.limitedDaemon(["--max-connections-per-uid", "3"])
        var held = try (0..<3).map { _ in try daemon.connect() }
        #expect(try held[0].call("hello")["limits"]?["maxConnectionsPerUid"] == 3)
        let refused = try #require(try Self.refusal(daemon))
        #expect(refused["method"] == "closing")
        #expect(refused["params"] == ["reason": "tooManyConnectionsForUser", "limit": 3])
        // A slot freed is a slot taken, once the daemon has seen it freed (until then a
        // newcomer is refused, and its ping fails at once).
        held.removeLast()
        try waitUntil("a new connection to be served after one of three left") {
            (try? daemon.connect().call("ping", timeout: generousTimeout)) != nil
        }
        #expect(daemon.stderrText.contains("uid \(getuid()) has 3 connections already"))
    }

    @Test func theTotalLimitComesFirst() throws {
        let daemon = try Self.limitedDaemon(["--max-connections", "2", "--max-connections-per-uid", "10"])
        let held = try (0..<2).map { _ in try daemon.connect() }
        for c in held { #expect(try c.call("ping") == [:]) }
        let refused = try #require(try Self.refusal(daemon))
        #expect(refused["params"] == ["reason": "tooManyConnections", "limit": 2])
    }

    /// Fifty refusals in a burst make one log line; the next one, a second later, says
    /// how many were not logged.
    @Test func refusalsAreLoggedAtMostOnceASecond() throws {
        let daemon = try Self.limitedDaemon(["--max-connections", "1"])
        let held = try daemon.connect()
        #expect(try held.call("ping") == [:])
        let start = monotonicNow()
        for _ in 0..<50 { _ = try Self.refusal(daemon) }
        let burst = monotonicNow() - start
        func refusals() -> [Substring] { daemon.stderrText.split(separator: "\n").filter { $0.contains("refusing") } }
        // A burst takes a few milliseconds; one that a loaded machine stretched past a
        // second may have logged a line for each second it took, never more.
        let inBurst = refusals().count
        #expect(inBurst == 1 || (burst >= 1 && inBurst <= 1 + Int(burst)), "\(inBurst) lines in \(burst) s")
        usleep(1_100_000)   // the feature is elapsed time: a second after the last line, the next is logged
        _ = try Self.refusal(daemon)
        let lines = refusals()
        #expect(lines.count == inBurst + 1)
        if burst < 1 { #expect(lines.last?.contains("(49 more refusals not logged)") == true) }
    }

    // MARK: The dismiss policy

    /// Dismissing an entry takes what is above it, so the policy covers those too — but not
    /// an entry that is already leaving: two owners dismissing one after the other must not race.
    @Test func entriesAlreadyLeavingDoNotBlockADismissal() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--dismiss-policy", "owner"])
        let a = try daemon.connect(), b = try daemon.connect()
        try a.call("present", ["id": "a1", "style": "fullScreen"])
        try a.call("advance", ["seconds": 1])
        try b.call("present", ["id": "b1", "style": "alert"])
        try a.call("advance", ["seconds": 1])
        #expect(a.expectError("dismiss", ["id": "a1"])?.code == -32002)   // b1 is above, and b's
        try b.call("dismiss", ["id": "b1", "transition": ["type": "crossDissolve", "duration": 2]])
        try a.call("advance", ["seconds": 0.5])   // b1 is still leaving
        #expect(try a.call("dismiss", ["id": "a1"])["dismissed"] == ["a1", "b1"])
    }

    /// presentctl as another user: `uid`, primary `gid`, supplementary `groups`.
    struct Identity {
        var uid: Int, gid: Int = 65534, groups: [Int] = []
        var setpriv: [String] {
            [
                "--reuid=\(uid)", "--regid=\(gid)",
                groups.isEmpty ? "--clear-groups" : "--groups=" + groups.map(String.init).joined(separator: ",")
            ]
        }
        static let nobody = Identity(uid: 65534)
        static let stranger = Identity(uid: 12345)
    }

    /// A daemon whose socket other uids can reach (group nogroup, 0660).
    static func sharedDaemon(_ arguments: [String]) throws -> DaemonHarness {
        let daemon = try DaemonHarness(["--clock", "manual", "--group", "nogroup"] + arguments)
        chmod(daemon.directory, 0o711)
        return daemon
    }

    /// `presentctl ARGS` run as `who`; returns its exit status and output.
    static func presentctl(_ daemon: DaemonHarness, as who: Identity, _ arguments: [String]) throws -> (Int32, String) {
        try DaemonHarness.run(
            "/usr/bin/setpriv", who.setpriv + [DaemonHarness.presentctlPath, "--socket", daemon.socketPath] + arguments)
    }

    /// `presentctl present --id ID --wait` as `who`, in the background, until it is on the stack.
    static func present(_ id: String, on daemon: DaemonHarness, as who: Identity) throws -> pid_t {
        let log = daemon.directory + "/present-\(id).out"
        let pid = try DaemonHarness.spawn("/usr/bin/setpriv",
                                          who.setpriv + [DaemonHarness.presentctlPath, "--socket", daemon.socketPath,
                                                         "present", "--id", id, "--style", "alert", "--wait"],
                                          stdout: log, stderr: log, environment: [:])
        let observer = try daemon.connect()
        try waitUntil("presentctl to put \(id) on the stack", context: { (try? String(contentsOfFile: log)) ?? "" }) {
            try observer.call("stack")["entries"]?.arrayValue?.contains(where: { $0["id"] == .string(id) }) == true
        }
        return pid
    }

    static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// `dismiss ID` as `who`: nil when allowed, else the error code presentctl printed.
    static func dismiss(_ id: String, on daemon: DaemonHarness, as who: Identity) throws -> String? {
        let (status, output) = try presentctl(daemon, as: who, ["dismiss", id])
        if status == 0 { return nil }
        return output.contains("-32002") ? "-32002" : "status \(status): \(output)"
    }

    static var asRoot: Bool { getuid() == 0 }

    @Test(.enabled(if: asRoot, "needs root to act as other uids"))
    func userPolicyAllowsTheSameUIDAndRoot() throws {
        let daemon = try Self.sharedDaemon([])
        let app = try Self.present("nb", on: daemon, as: .nobody)
        defer { Self.stop(app) }
        #expect(try Self.dismiss("nb", on: daemon, as: .stranger) == "-32002")
        #expect(try Self.dismiss("nb", on: daemon, as: Identity(uid: 65534)) == nil)   // same uid, another connection
        let again = try Self.present("nb2", on: daemon, as: .nobody)
        defer { Self.stop(again) }
        #expect(try daemon.connect().call("dismiss", ["id": "nb2"])["dismissed"] == ["nb2"])   // root
    }

    @Test(.enabled(if: asRoot, "needs root to act as other uids"))
    func theAdminGroupInsteadOfRoot() throws {
        let daemon = try Self.sharedDaemon(["--admin-group", "users", "--no-root-admin"])
        let app = try Self.present("nb", on: daemon, as: .nobody)
        defer { Self.stop(app) }
        let denied = try daemon.connect().expectError("dismiss", ["id": "nb"])
        #expect(denied?.code == -32002)
        #expect(denied?.data?["policy"] == "user")
        #expect(try Self.dismiss("nb", on: daemon, as: .stranger) == "-32002")
        // A supplementary member of `users` (100)…
        #expect(try Self.dismiss("nb", on: daemon, as: Identity(uid: 12345, groups: [65534, 100])) == nil)
        // …and a process whose primary group it is.
        let again = try Self.present("nb2", on: daemon, as: .nobody)
        defer { Self.stop(again) }
        #expect(try Self.dismiss("nb2", on: daemon, as: Identity(uid: 12345, gid: 100, groups: [65534])) == nil)
    }

    @Test(.enabled(if: asRoot, "needs root to act as other uids"))
    func ownerPolicyIsStrictAndAnyoneIsNot() throws {
        let strict = try Self.sharedDaemon(["--dismiss-policy", "owner", "--admin-group", "users"])
        let app = try Self.present("nb", on: strict, as: .nobody)
        defer { Self.stop(app) }
        #expect(try Self.dismiss("nb", on: strict, as: .nobody) == "-32002")
        #expect(try Self.dismiss("nb", on: strict, as: Identity(uid: 12345, groups: [65534, 100])) == "-32002")
        #expect(try strict.connect().expectError("dismiss", ["id": "nb"])?.code == -32002)

        let open = try Self.sharedDaemon(["--dismiss-policy", "anyone"])
        let root = try open.connect()
        try root.call("present", ["id": "mine", "style": "alert"])
        #expect(try Self.dismiss("mine", on: open, as: .stranger) == nil)
    }
}
