// `presentctl present --wait` as a shell script's question: it presents a dialog (content
// built from --title, --action, --field …), waits for the answer, prints it and says it in
// its exit status — 0 an action, 5 the cancel action, 4 gone without an action. The
// answers come from a test client acting as the renderer (`activate`, `key`), or from
// presentctl's own `activate`, `key` and `update`.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

/// `presentctl … present … --wait` running in the background, its output in files.
private final class WaitingPresentctl {
    private let child: Child
    let id: String
    private let stdoutPath: String, stderrPath: String

    /// Starts it and returns once its entry `id` is on the daemon's stack.
    init(_ daemon: DaemonHarness, id: String, _ arguments: [String]) throws {
        self.id = id
        stdoutPath = daemon.directory + "/presentctl-\(id).out"
        stderrPath = daemon.directory + "/presentctl-\(id).err"
        child = Child(try DaemonHarness.spawn(DaemonHarness.presentctlPath,
                ["--socket", daemon.socketPath, "present", "--id", id] + arguments + ["--wait"],
                                              stdout: stdoutPath, stderr: stderrPath, environment: [:]))
        let observer = try daemon.connect()
        try waitUntil("presentctl's \"\(id)\" to be on the stack", context: { self.report }) {
            if self.reap() != nil {
                throw HarnessError.setup("presentctl exited before \(id) was on the stack: \(self.report)")
            }
            return try observer.call("stack")["entries"]?.arrayValue?.contains { $0["id"] == .string(id) } == true
        }
    }

    deinit {
        unlink(stdoutPath)
        unlink(stderrPath)
    }

    private func reap() -> Int32? { child.reap() }

    /// Whether it is still waiting.
    var isRunning: Bool { reap() == nil }

    var stdout: String { (try? String(contentsOfFile: stdoutPath)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath)) ?? "" }
    var report: String { "stdout \"\(stdout)\", stderr \"\(stderr)\"" }

    /// Waits for it to exit after `what`, expects `status`, and returns its standard output.
    func stdout(exiting status: Int32, after what: String,
                sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let actual = try waitFor("presentctl (\(id)) to exit after \(what)", context: { self.report }) { self.reap() }
        #expect(actual == status, "exit status after \(what): \(report)", sourceLocation: sourceLocation)
        return stdout
    }
}

@Suite("presentctl dialogs")
struct PresentctlDialogTests {
    static let question = ["--title", "Delete the file?", "--message", "It cannot be brought back.",
                           "--action", "ok:Delete:destructive", "--action", "no:Cancel:cancel"]

    /// `presentctl ARGS` run to its end: expects exit 0 and returns the reply it printed.
    static func presentctl(_ daemon: DaemonHarness, _ arguments: [String],
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        let (status, output) = try DaemonHarness.run(
            DaemonHarness.presentctlPath, ["--socket", daemon.socketPath] + arguments)
        #expect(status == 0, "presentctl \(arguments): \(output)", sourceLocation: sourceLocation)
        return try JSONValue.parse(output)
    }

    @Test func anActivatedActionIsPrintedAndExitsZero() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let ctl = try WaitingPresentctl(daemon, id: "ask", Self.question)
        // The renderer sees the dialog as presentctl built it (an alert, by default).
        let entry = try #require(try watcher.call("stack")["entries"]?.arrayValue?.first)
        #expect(entry["style"] == "alert")
        #expect(entry["content"]?["title"] == "Delete the file?")
        #expect(entry["content"]?["actions"]?.arrayValue?.map { $0["role"] } == ["destructive", "cancel"])

        let renderer = try daemon.connect()
        let reply = try renderer.call("activate", ["id": "ask", "action": "ok"])
        #expect(reply["dismissed"] == true)
        #expect(try ctl.stdout(exiting: 0, after: "activate ok") == "ok\n")
        // It left because of the action, not because presentctl hung up.
        let leaving = try #require(try watcher.awaitNotification("lifecycle") {
            $0["id"] == "ask" && $0["event"] == "willDismiss"
        })
        #expect(leaving["reason"] == "action")
        #expect(leaving["action"] == "ok")
    }

    @Test func jsonPrintsTheActionAndEveryFieldsValue() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = try WaitingPresentctl(daemon, id: "form", [
            "--title", "Who are you?", "--field", "name:text:Your name", "--field", "age:number",
            "--field", "pin:secure", "--value", "pin=1234", "--action", "go:Continue:default", "--json"])
        let renderer = try daemon.connect()
        try renderer.call("activate", ["id": "form", "action": "go", "fields": ["name": "Ada: Countess", "age": "36"]])
        let answer = try JSONValue.parse(ctl.stdout(exiting: 0, after: "activate go with fields"))
        #expect(answer["action"] == "go")
        // Every field: the values sent, else the field's own value.
        #expect(answer["fields"] == ["name": "Ada: Countess", "age": "36", "pin": "1234"])
    }

    /// A confirmDismiss owner is asked right behind the action: presentctl answers before it
    /// exits, so the dismissal is allowed by it, not by its hanging up.
    @Test func aConfirmDismissQuestionIsAnsweredBeforeExiting() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = try WaitingPresentctl(daemon, id: "ask", Self.question + ["--json", #"{"confirmDismiss":true}"#])
        let reply = try daemon.connect().call("activate", ["id": "ask", "action": "ok"])
        #expect(reply["dismissed"] == true)
        #expect(reply["confirmation"] == "allowed")
        #expect(try ctl.stdout(exiting: 0, after: "activate ok, confirmed") == "ok\n")
    }

    @Test func escapeChoosesTheCancelActionAndExitsFive() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = try WaitingPresentctl(daemon, id: "ask", Self.question)
        let renderer = try daemon.connect()
        let reply = try renderer.call("key", ["key": "escape"])
        #expect(reply["handled"] == true)
        #expect(reply["action"] == "no")
        #expect(try ctl.stdout(exiting: 5, after: "key escape") == "no\n")
    }

    @Test func presentctlsOwnKeyEnterChoosesTheDefaultAction() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = try WaitingPresentctl(
            daemon, id: "ask", ["--action", "ok:OK:default", "--action", "no:Cancel:cancel"])
        #expect(try Self.presentctl(daemon, ["key", "enter", "--id", "ask"])["action"] == "ok")
        #expect(try ctl.stdout(exiting: 0, after: "presentctl key enter") == "ok\n")
    }

    @Test func presentctlsOwnActivateSendsFieldValues() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = try WaitingPresentctl(daemon, id: "name", ["--field", "who:text", "--action", "ok:OK", "--json"])
        #expect(try Self.presentctl(daemon, ["activate", "name", "ok", "--field", "who=Grace"])["dismissed"] == true)
        let answer = try JSONValue.parse(ctl.stdout(exiting: 0, after: "presentctl activate name ok"))
        #expect(answer == ["action": "ok", "fields": ["who": "Grace"]])
    }

    @Test func aDismissalWithoutAnActionExitsFour() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let plain = try WaitingPresentctl(daemon, id: "ask", Self.question)
        try daemon.connect().call("dismiss", ["id": "ask"])
        #expect(try plain.stdout(exiting: 4, after: "dismiss") == "", "nothing on stdout when nothing was chosen")

        // With --json it says why.
        let json = try WaitingPresentctl(daemon, id: "again", Self.question + ["--json"])
        try daemon.connect().call("dismiss", ["id": "again", "animated": false])
        let answer = try JSONValue.parse(json.stdout(exiting: 4, after: "dismiss, with --json"))
        #expect(answer == ["action": nil, "reason": "request"])
    }

    @Test func anAutoDismissTimeoutExitsFour() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = try WaitingPresentctl(daemon, id: "toast", [
            "--title", "Saved", "--auto-dismiss", "2", "--transition", "crossDissolve", "--duration", "0.5", "--json"])
        let clock = try daemon.connect()
        // Presented at 0.5 s; it leaves at 2.5 s, not before.
        try clock.call("advance", ["seconds": 2.25])
        #expect(try clock.call("stack")["entries"]?.arrayValue?.first?["state"] == "presented")
        #expect(ctl.isRunning, "still waiting before the deadline: \(ctl.report)")
        try clock.call("advance", ["seconds": 0.25])
        let answer = try JSONValue.parse(ctl.stdout(exiting: 4, after: "the auto-dismiss deadline (advance to 2.5 s)"))
        #expect(answer == ["action": nil, "reason": "timeout"])
    }

    /// A progress sheet becomes a question: the cancel action it gains counts as the cancel
    /// one (the roles are those of the content in force).
    @Test func updateChangesTheDialogInPlace() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = try WaitingPresentctl(daemon, id: "job", ["--title", "Copying…", "--progress", "indeterminate"])
        let updated = try Self.presentctl(daemon, ["update", "job", "--title", "Overwrite?", "--progress", "0.5",
                                                   "--action", "yes:Overwrite:default", "--action", "stop:Stop:cancel"])
        #expect(updated["contentRevision"] == 2)
        let entry = try #require(try daemon.connect().call("stack")["entries"]?.arrayValue?.first)
        #expect(entry["content"]?["title"] == "Overwrite?")
        #expect(entry["content"]?["progress"] == 0.5)
        #expect(try daemon.connect().call("key", ["key": "escape"])["action"] == "stop")
        #expect(try ctl.stdout(exiting: 5, after: "key escape on the updated dialog") == "stop\n")
    }

    @Test func badDialogFlagsAreUsageErrors() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        for arguments in [["present", "--action", "ok"], ["present", "--field", "x:colour"],
                          ["present", "--content", "label", "--title", "T"], ["present", "--progress", "2"],
                          ["present", "--value", "nofield=1"], ["activate", "x"], ["key"]] {
            let (status, output) = try DaemonHarness.run(DaemonHarness.presentctlPath,
                                                         ["--socket", daemon.socketPath] + arguments)
            #expect(status == 2, "\(arguments): \(output)")
        }
        #expect(try daemon.connect().call("stack")["entries"] == [])
    }
}
