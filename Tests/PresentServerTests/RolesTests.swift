// Roles against the real daemon: a method outside one's roles refused (−32005, in order
// with the other replies), subscriptions by topic, an app hearing only its own entries'
// lifecycle, the priority ceiling, grants by systemd unit (through the test-only cgroup
// hook, and under `systemd-run --scope` where that works), the defaults, and the
// configuration's errors. Tests that configure roles set rootIsAdmin false, so they mean
// the same when the tests run as root.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing
@testable import PresentServer

@Suite("Roles")
struct RolesTests {
    static var uid: UInt32 { getuid() }

    /// A manual-clock daemon with `roles` (JSON text) and root not an administrator.
    static func daemon(roles: String, environment: [String: String] = [:]) throws -> DaemonHarness {
        try DaemonHarness(["--clock", "manual"], configuration: #"{"rootIsAdmin": false, "roles": \#(roles)}"#,
                          environment: environment)
    }

    static func roles(_ client: PresentClient) throws -> [String] {
        try client.call("hello")["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    // MARK: Refusals

    @Test func aMethodOutsideTheRolesIsRefusedInOrder() throws {
        let daemon = try Self.daemon(roles: #"{"app": {"uids": [\#(Self.uid)]}}"#)
        let app = try daemon.connect()
        let hello = try app.call("hello")
        #expect(hello["roles"] == ["app"])
        #expect(hello["maxPriority"] == 500)
        // Three lines in one write: the refusal is a normal reply, between the other two.
        try app.sendRaw(Array("""
            {"jsonrpc":"2.0","id":1,"method":"ping"}
            {"jsonrpc":"2.0","id":2,"method":"tap","params":{"x":1,"y":1}}
            {"jsonrpc":"2.0","id":3,"method":"sync","params":{"nonce":"after"}}

            """.utf8))
        var replies: [JSONValue] = []
        for _ in 0..<3 { replies.append(try JSONValue.parse(try #require(try app.readLine(timeout: generousTimeout)))) }
        #expect(replies.map { $0["id"] } == [1, 2, 3])
        #expect(replies[0]["result"] == [:])
        #expect(replies[1]["error"]?["code"] == -32005)
        #expect(
            replies[1]["error"]?["data"] == ["field": "method", "reason": "needs role shell or admin", "role": "shell"])
        #expect(replies[2]["result"]?["nonce"] == "after")
        // In a batch too, in place; and refused params are not even looked at.
        let batch = try #require(try app.rawExchange("""
            [{"jsonrpc":"2.0","id":"a","method":"setContainer","params":{"nonsense":true}},\
            {"jsonrpc":"2.0","id":"b","method":"present","params":{"id":"x","style":"alert"}},\
            {"jsonrpc":"2.0","id":"c","method":"advance","params":{"seconds":1}}]
            """)).arrayValue
        #expect(batch?.map { $0["id"] } == ["a", "b", "c"])
        #expect(batch?[0]["error"]?["data"]?["role"] == "shell")
        #expect(batch?[1]["result"]?["id"] == "x")
        #expect(batch?[2]["error"]?["data"]?["role"] == "admin")
        // Nothing changed: no tap, no clock.
        #expect(try app.call("stack")["entries"]?.arrayValue?.count == 1)
        #expect(try app.call("sync", ["nonce": 1])["nonce"] == 1)
    }

    @Test func methodsNotHereYetAreGatedAndUnknownOnesStayUnknown() throws {
        let daemon = try Self.daemon(
            roles: #"{"app": {"uids": [\#(Self.uid)]}, "admin": {"units": ["nobody-has-this.service"]}}"#)
        let app = try daemon.connect()
        for method in ["stats", "recordDump"] {
            let error = app.expectError(method)
            #expect(error?.code == -32005)
            #expect(error?.data?["role"] == "admin")
        }
        #expect(app.expectError("setMode")?.data?["role"] == "shell")
        #expect(app.expectError("teleport")?.code == -32601)
    }

    @Test func anAppSubscribesToLifecycleAndHearsOnlyItsOwnEntries() throws {
        let daemon = try Self.daemon(roles: #"{"app": {"uids": [\#(Self.uid)]}}"#)
        let mine = try daemon.connect(), other = try daemon.connect()
        let refused = mine.expectError("subscribe", ["topics": ["lifecycle", "stack"]])
        #expect(refused?.code == -32005)
        #expect(refused?.data == ["field": "topics[1]", "reason": "needs role renderer or admin", "role": "renderer"])
        #expect(mine.expectError("subscribe", ["topics": ["frames"]])?.data?["role"] == "renderer")
        _ = try mine.call("subscribe", ["topics": ["lifecycle"]])
        _ = try other.call("present", ["id": "theirs", "style": "alert"])
        _ = try mine.call("present", ["id": "mine", "style": "alert"])
        _ = try other.call("dismiss", ["id": "theirs", "animated": false])
        _ = try mine.call("sync", ["nonce": 1])   // every event so far was written before its reply
        var heard: [JSONValue] = []
        while let n = try mine.nextNotification(timeout: 0.2), n["method"] == "lifecycle" {
            heard.append(n["params"]?["id"] ?? .null)
        }
        #expect(!heard.isEmpty)
        #expect(heard.allSatisfy { $0 == "mine" }, "heard \(heard)")
    }

    // MARK: The priority ceiling

    @Test func aPriorityAboveTheCeilingIsClamped() throws {
        let daemon = try Self.daemon(roles: #"{"app": {"uids": [\#(Self.uid)], "maxPriority": 200}}"#)
        let app = try daemon.connect()
        #expect(try app.call("hello")["maxPriority"] == 200)
        let high = try app.call("present", ["id": "high", "style": "alert", "priority": 900])
        #expect(high == ["id": "high", "state": "presenting", "deduplicated": false, "priority": 200, "clamped": true])
        let low = try app.call("present", ["id": "low", "style": "alert", "priority": 150])
        #expect(low["clamped"] == nil && low["priority"] == nil)
        let entries = try #require(try app.call("stack")["entries"]?.arrayValue)
        #expect(entries.first { $0["id"] == "high" }?["priority"] == 200)
    }

    @Test func theDefaultAppCeilingIs500AndAdminsHaveNone() throws {
        let daemon = try Self.daemon(roles: #"{"app": {"anyone": true}, "admin": {"uids": [\#(Self.uid)]}}"#)
        let admin = try daemon.connect()
        #expect(try admin.call("hello")["maxPriority"] == 1000)
        #expect(try admin.call("present", ["style": "alert", "priority": 1000])["clamped"] == nil)
        let appsOnly = try Self.daemon(roles: #"{"app": {"anyone": true}}"#)
        let other = try appsOnly.connect()
        #expect(try other.call("present", ["style": "alert", "priority": 501])["priority"] == 500)
    }

    // MARK: Grants by unit

    @Test func aUnitGrantThroughTheFakedCgroup() throws {
        // The stand-in for /proc need not exist before the first connection.
        let proc = "/tmp/presentd-roles-cgroup-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let file = proc + "/\(getpid())/cgroup"
        defer { unlink(file); rmdir(proc + "/\(getpid())"); rmdir(proc) }
        let daemon = try Self.daemon(roles: #"{"shell": {"units": ["kiosk-shell.service"]}, "app": {"anyone": true}}"#,
                                     environment: [Daemon.testCgroupRootVariable: proc])
        // No cgroup file for this pid yet: the unit is unknown, the grant does not apply.
        let before = try daemon.connect()
        #expect(try Self.roles(before) == ["app"])
        #expect(before.expectError("tap", ["x": 1, "y": 1])?.data?["role"] == "shell")
        // The cgroup is read at connect(): the next connection is in the unit.
        mkdir(proc, 0o700)
        mkdir(proc + "/\(getpid())", 0o700)
        try writeFile(file,
                      "0::/user.slice/user-1000.slice/user@1000.service/app.slice/kiosk-shell.service\n")
        let shell = try daemon.connect()
        #expect(try Self.roles(shell) == ["shell", "app"])
        #expect(try shell.call("tap", ["x": 1, "y": 1])["part"] == "none")
        #expect(try Self.roles(before) == ["app"])   // fixed when it connected
        // The flight recorder's connect record names the unit it was granted by.
        let dump = daemon.directory + "/presentd-recording.ndjson"
        kill(daemon.pid, SIGUSR1)
        let recording = try waitFor("SIGUSR1's dump at \(dump)") { () -> String? in
            let text = (try? String(contentsOfFile: dump)) ?? ""
            return text.hasSuffix("\n") ? text : nil
        }
        let connects = try recording.split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
            .filter { $0["event"] == "connect" }
        #expect(connects.last?["unit"] == "kiosk-shell.service", "\(connects)")
        #expect(connects.last?["roles"] == ["shell", "app"])
        #expect(connects.last?["uid"]?.int64Value == Int64(getuid()))
        #expect(connects.last?["pid"]?.int64Value == Int64(getpid()))
    }

    /// Whether `systemd-run --scope` can put a process in a scope here (it needs systemd
    /// as init and a bus).
    static let systemdRunScopeWorks: Bool = {
        (try? DaemonHarness.run("/usr/bin/systemd-run", ["--scope", "--quiet", "true"]).0) == 0
    }()

    @Test(.enabled(if: systemdRunScopeWorks, """
        systemd-run --scope does not work on this machine (no systemd as init); the faked cgroup test \
        covers grants by unit
        """))
    func aUnitGrantUnderSystemdRunScope() throws {
        let unit = "presentd-roles-test-\(getpid()).scope"
        let daemon = try Self.daemon(roles: #"{"shell": {"units": ["\#(unit)"]}}"#)
        let (status, output) = try DaemonHarness.run("/usr/bin/systemd-run",
            [
                "--scope", "--quiet", "--unit", unit, DaemonHarness.presentctlPath,
                                                      "--socket", daemon.socketPath, "hello"])
        #expect(status == 0, "\(output)")
        #expect(try JSONValue.parse(Array(output.utf8))["roles"] == ["shell"])
        #expect(try Self.roles(try daemon.connect()) == [])
    }

    @Test func cgroupFilesAreRead() {
        #expect(Daemon.unit(inCgroupFile: "0::/system.slice/kiosk-shell.service\n") == "kiosk-shell.service")
        #expect(
            Daemon.unit(
                inCgroupFile: "0::/user.slice/user-1000.slice/user@1000.service/app.slice/run-r1.scope/payload\n")
                == "run-r1.scope")
        // A hybrid hierarchy: the unified line is only "/", the systemd one has the path.
        #expect(Daemon.unit(inCgroupFile: "9:name=systemd:/system.slice/renderer.service\n4:memory:/x\n0::/\n")
                == "renderer.service")
        #expect(Daemon.unit(inCgroupFile: "0::/\n") == nil)
        #expect(Daemon.unit(inCgroupFile: "0::/user.slice/user-1000.slice\n") == nil)
    }

    // MARK: Defaults

    @Test func withoutRolesTheSocketOwnerHasEveryRole() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let owner = try daemon.connect()
        let hello = try owner.call("hello")
        #expect(hello["roles"] == ["shell", "renderer", "app", "admin"])
        #expect(hello["maxPriority"] == 1000)
        #expect(try owner.call("present", ["style": "alert", "priority": 1000])["clamped"] == nil)
    }

    @Test(.enabled(if: AccessControlTests.asRoot, "needs root to act as another uid"))
    func withoutRolesAnotherUIDGetsAppRendererAndShell() throws {
        let daemon = try AccessControlTests.sharedDaemon([])
        let (status, output) = try AccessControlTests.presentctl(daemon, as: .stranger, ["hello"])
        #expect(status == 0, "\(output)")
        let hello = try JSONValue.parse(Array(output.utf8))
        #expect(hello["roles"] == ["shell", "renderer", "app"])
        #expect(hello["maxPriority"] == 500)
    }

    // MARK: The configuration

    private func issues(_ text: String) throws -> [String] {
        var configuration = ServerConfiguration()
        var reader = ConfigurationFileReader()
        reader.read(try JSONValue.parse(text), into: &configuration)
        return reader.issues.map(\.description)
    }

    @Test func configurationErrorsNameTheField() throws {
        let found = try issues("""
            {"roles": {"sheel": {}, "shell": {"units": ["kiosk-shell"], "maxPriority": 10},
                       "app": {"uids": [1000, "alice"], "maxPriority": 5000, "anyone": "yes"},
                       "renderer": {"gids": [-1], "uid": [1]}, "admin": []}}
            """)
        for expected in ["roles.sheel: unknown setting; known here: admin, app, renderer, shell",
            "roles.shell.units[0]: expected a systemd unit ending in .service or .scope, got \"kiosk-shell\"",
                         "roles.shell.maxPriority: shell may not present; only app and admin have a ceiling",
                         "roles.app.uids[1]: expected an integer, got string",
                         "roles.app.maxPriority: must be between 0 and 1000",
                         "roles.app.anyone: expected a boolean, got string",
                         "roles.renderer.gids[0]: must be between 0 and 4294967294",
                         "roles.renderer.uid: unknown setting; known here: anyone, gids, maxPriority, uids, units",
                         "roles.admin: expected an object, got array"] {
            #expect(found.contains { $0.hasPrefix(expected) }, "missing \(expected) in \(found)")
        }
        #expect(try issues(#"{"roles": null}"#).isEmpty)
        #expect(try issues(#"{"roles": {"app": {"anyone": true}}}"#).isEmpty)
    }

    @Test func printConfigShowsTheRolesAndReadsBack() throws {
        let file = "/tmp/presentd-roles-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json",
            printedFile = file + ".printed"
        defer { unlink(file); unlink(printedFile) }
        try writeFile(
            file,
            #"{"roles": {"shell": {"units": ["kiosk-shell.service"]}, "app": {"gids": [100], "maxPriority": 300}}}"#)
        let (status, printed) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--config", file, "--print-config"])
        #expect(status == 0)
        let roles = try JSONValue.parse(Array(printed.utf8))["roles"]
        #expect(roles?["shell"]?["units"] == ["kiosk-shell.service"])
        #expect(roles?["app"]?["maxPriority"] == 300)
        #expect(roles?["admin"]?["maxPriority"] == 1000)
        #expect(roles?["renderer"] == ["uids": [], "gids": [], "units": [], "anyone": false])
        try writeFile(printedFile, printed)
        #expect(
            try DaemonHarness.run(DaemonHarness.presentdPath, ["--config", printedFile, "--print-config"]).1 == printed)
    }
}
