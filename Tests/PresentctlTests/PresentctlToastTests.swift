// `presentctl toast TEXT` against a manual-clock daemon: one line puts an overlay toast on
// the stack that leaves by itself. With --wait it stays until then and exits 4 (gone
// without an action, as `present --wait` says it); without, it returns at once and a
// background presentctl holds the toast until its time runs out. And `present`'s level
// flags and the `context` commands.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("presentctl toast and contexts")
struct PresentctlToastTests {
    /// `presentctl ARGS` run to its end: its exit status and what it printed.
    static func run(_ daemon: DaemonHarness, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try DaemonHarness.run(DaemonHarness.presentctlPath, ["--socket", daemon.socketPath] + arguments)
    }

    /// The only entry on the stack, once there is one.
    static func onlyEntry(_ client: PresentClient, _ what: String) throws -> JSONValue {
        try waitFor("\(what) on the stack") {
            let entries = try client.call("stack")["entries"]?.arrayValue ?? []
            return entries.count == 1 ? entries.first : nil   // (not entries[0]: a bare nil would be JSON null)
        }
    }

    static func checkIsTheToast(_ entry: JSONValue, position: String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(entry["level"] == "overlay", sourceLocation: sourceLocation)
        #expect(entry["position"] == .string(position), sourceLocation: sourceLocation)
        #expect(entry["content"]?["title"] == "Saved", sourceLocation: sourceLocation)
        #expect(entry["autoDismiss"]?["after"] == 2.0, sourceLocation: sourceLocation)
        // As wide and tall as its text: a renderer measures it (preferredContentSize).
        #expect(entry["style"]?["width"] == "content" && entry["style"]?["height"] == "content",
                "\(entry.serializedString)", sourceLocation: sourceLocation)
        // Until then a one-line pill, not two thirds of the screen.
        #expect(entry["preferredContentSize"] == ["width": 300.0, "height": 36.0] && entry["frame"]?["width"] == 300.0,
                "\(entry.serializedString)", sourceLocation: sourceLocation)
    }

    @Test func toastWaitPutsAnOverlayOnTheStackAndExitsFourWhenItsTimeRunsOut() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let out = daemon.directory + "/toast-wait.out", err = daemon.directory + "/toast-wait.err"
        defer { unlink(out); unlink(err) }
        let pid = try DaemonHarness.spawn(DaemonHarness.presentctlPath,
                                          ["--socket", daemon.socketPath, "toast", "Saved", "--after", "2", "--wait"],
                                          stdout: out, stderr: err, environment: [:])
        var status: Int32?
        func exited() -> Int32? {
            if status == nil {
                var s: Int32 = 0
                if waitpid(pid, &s, WNOHANG) == pid { status = DaemonHarness.exitStatus(s) }
            }
            return status
        }
        defer { if exited() == nil { kill(pid, SIGKILL); waitpid(pid, nil, 0) } }
        let report = {
            "presentctl stdout \"\((try? String(contentsOfFile: out)) ?? "")\", stderr "
            + "\"\((try? String(contentsOfFile: err)) ?? "")\""
        }

        Self.checkIsTheToast(try Self.onlyEntry(watcher, "presentctl's toast"), position: "top")
        // It comes in over 0.25 s and stays 2 s after that: at 2 s it is still there.
        try watcher.call("advance", ["seconds": 2])
        try watcher.call("sync", ["nonce": 1])
        #expect(exited() == nil, "still waiting before its time is up: \(report())")
        #expect(try watcher.call("stack")["entries"]?[0]?["state"] == "presented")
        try watcher.call("advance", ["seconds": 0.5])
        let code = try waitFor("presentctl toast --wait to exit after its auto-dismiss ran out", context: report) {
            exited()
        }
        #expect(code == 4, "left without an action: \(report())")
        #expect((try? String(contentsOfFile: out)) == "", "nothing chosen, nothing printed: \(report())")
        let leaving = try #require(try watcher.awaitNotification("lifecycle") { $0["event"] == "willDismiss" })
        #expect(leaving["reason"] == "timeout")
        #expect(leaving["time"]?.double == 2.25)
    }

    /// Without --wait the command returns at once; the toast outlives it, and leaves when
    /// its time runs out rather than when presentctl exits.
    @Test func toastWithoutWaitReturnsAndTheToastStaysItsTime() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let (status, output) = try Self.run(daemon, ["toast", "Saved", "--position", "bottom", "--id", "saved"])
        #expect(status == 0, "\(output)")
        #expect(try JSONValue.parse(output) == ["id": "saved", "state": "presenting", "deduplicated": false])
        let entry = try Self.onlyEntry(watcher, "the toast, after presentctl returned")
        Self.checkIsTheToast(entry, position: "bottom")
        // A renderer measures its text; the safe area ends 34 above the bottom, and the toast,
        // as big as measured, sits 8 above that.
        try watcher.call("update", ["id": "saved", "preferredContentSize": ["width": 120, "height": 36]])
        let measured = try #require(try watcher.call("stack")["entries"]?[0])
        #expect(
            measured["frame"]?["width"] == 120.0 && measured["frame"]?["height"] == 36.0, "\(measured.serializedString)"
        )
        #expect(measured["frame"]?["y"] == .double(844 - 34 - 8 - 36))
        try watcher.call("advance", ["seconds": 1])
        try watcher.call("sync", ["nonce": 1])
        #expect(try watcher.call("stack")["entries"]?[0]?["state"] == "presented", "still there after a second")
        try watcher.call("advance", ["seconds": 1.5])
        let leaving = try #require(try watcher.awaitNotification("lifecycle") {
            $0["id"] == "saved" && $0["event"] == "willDismiss"
        })
        #expect(leaving["reason"] == "timeout", "its time ran out; nobody hung up on it")
    }

    @Test func presentTakesLevelFlagsAndContextCommandsNameAndRemoveAreas() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let defined = try Self.run(daemon, ["context", "define", "mail", "0", "100", "390", "600"])
        #expect(defined.status == 0)
        let mail: JSONValue = ["x": 0.0, "y": 100.0, "width": 390.0, "height": 600.0]
        #expect(try JSONValue.parse(defined.output) == ["contexts": ["mail": mail]])
        #expect(try JSONValue.parse(try Self.run(daemon, ["context", "list"]).output) == ["contexts": ["mail": mail]])
        // A context's entry belongs to its connection: a client of the test's presents it
        // with the params presentctl builds, which `present --json` would send.
        let owner = try daemon.connect()
        try owner.call("present", ["id": "compose", "style": "bottomHalf", "context": "mail",
                                   "interaction": "forward", "transition": ["duration": 0]])
        try owner.call("advance", ["seconds": 0.1])
        let tap = try Self.run(daemon, ["tap", "10", "300"])
        #expect(try JSONValue.parse(tap.output) == ["part": "none", "dismissed": false, "forwarded": true])
        let removed = try Self.run(daemon, ["context", "remove", "mail"])
        #expect(try JSONValue.parse(removed.output) == ["dismissed": ["compose"]])
        let gone = try #require(try watcher.awaitNotification("lifecycle") {
            $0["id"] == "compose" && $0["event"] == "willDismiss"
        })
        #expect(gone["reason"] == "contextGone")

        // present's level flags reach the daemon (an alert-level popup, an overlay at the
        // centre): presentctl exits after the reply, so the entries then leave with it.
        let alert = try Self.run(daemon, ["present", "--id", "up", "--level", "alert", "--interaction", "absorb"])
        #expect(alert.status == 0, "\(alert.output)")
        let banner = try Self.run(daemon, ["present", "--id", "banner", "--level", "overlay", "--position", "center",
                "--margin", "20", "--json",
                #"{"style":{"type":"custom","width":{"points":200},"height":{"points":40}}}"#
            ])
        #expect(banner.status == 0, "\(banner.output)")
        let presented = try #require(try watcher.awaitNotification("lifecycle") {
            $0["id"] == "banner" && $0["event"] == "willPresent"
        })
        // Centred in the safe area (47 to 810), 20 below the middle.
        #expect(presented["animation"]?["to"]?["frame"]?["y"] == .double(47 + (763 - 40) / 2 + 20))
        let wrong = try Self.run(daemon, ["present", "--position", "top"])
        // The daemon refuses it, and presentctl reports it as the flag's usage error.
        #expect(wrong.status == 2 && wrong.output.contains("--position: only for level"),
                "a position for a normal-level entry is a usage error of --position: \(wrong.output)")

        // --output names the screen: "main" is always there; another is the daemon's to refuse or take.
        let onMain = try Self.run(daemon, ["context", "define", "side", "0", "0", "100", "844", "--output", "main"])
        #expect(onMain.status == 0, "\(onMain.output)")
        #expect(try JSONValue.parse(onMain.output)["contexts"]?["side"] != nil)

        for arguments in [["toast"], ["toast", "--after", "2"], ["toast", "Hi", "--after", "soon"],
                          ["tap", "1", "1", "--output"], ["output"], ["output", "add", "x", "100"],
                          ["output", "add", "x", "100", "100", "--fps", "0"],
                          ["output", "add", "x", "100", "100", "--safe-area", "1,2,3"], ["output", "remove"],
                          ["toast", "Hi", "--margin", "-1"], ["context"], ["context", "move", "x"],
                          ["context", "define", "x", "1", "2"], ["context", "remove"]] {
            let (status, output) = try Self.run(daemon, arguments)
            #expect(status == 2, "\(arguments): \(output)")
        }
    }
    /// Several screens: a toast on a second output lands on its stack, and leaves with it.
    /// (Returns at once while the daemon has no `outputs` method: several screens are on their way.)
    @Test func aToastOnASecondOutput() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let watcher = try daemon.connect()
        let added = try Self.run(daemon, ["output", "add", "cluster", "1280", "480", "--fps", "30"])
        #expect(added.status == 0, "\(added.output)")
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let toast = try Self.run(daemon, ["toast", "Saved", "--output", "cluster", "--id", "saved"])
        #expect(toast.status == 0, "\(toast.output)")
        let entries = try watcher.call("stack", ["output": "cluster"])["entries"]?.arrayValue ?? []
        let entry = try #require(entries.first { $0["id"] == "saved" })
        #expect(entry["output"] == "cluster")
        #expect(entry["style"]?["width"] == "content", "as wide as a renderer measures it: \(entry.serializedString)")
        #expect(try Self.run(daemon, ["output", "remove", "cluster"]).status == 0)
        let gone = try #require(try watcher.awaitNotification("lifecycle") {
            $0["id"] == "saved" && $0["event"] == "willDismiss"
        })
        #expect(gone["reason"] == "outputGone")
    }
}
