// presentctl as a newcomer meets it: a command for every method the daemon has,
// `--version`, usage errors that name what was typed and exit 2 — including values the
// daemon refuses for a flag — a cannot-connect message that says how to point it elsewhere,
// and `present --wait --print-id`.

#if canImport(Glibc)
import Glibc
#endif
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("presentctl commands")
struct PresentctlCommandTests {
    /// `presentctl ARGS` (with the daemon's socket): exit status and stdout and stderr together.
    static func presentctl(_ daemon: DaemonHarness, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try PresentctlToastTests.run(daemon, arguments)
    }

    /// Every method in the daemon's own rpc.discover is in `presentctl --commands`, with a
    /// command that `presentctl --help` lists and presentctl accepts, or a reason it has none.
    @Test func everyMethodOfTheDaemonHasACommand() throws {
        let daemon = try DaemonHarness()
        let discovered = try daemon.connect().call("rpc.discover")["methods"]?.arrayValue ?? []
        let methods = discovered.compactMap { $0["name"]?.stringValue }
        #expect(methods.count > 20, "rpc.discover listed \(methods.count) methods: \(methods)")
        let (status, listing) = try Self.presentctl(daemon, ["--commands"])
        #expect(status == 0, "presentctl --commands: \(listing)")
        var reach: [String: [String]] = [:]
        for line in listing.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            reach[columns[0]] = Array(columns.dropFirst())
        }
        #expect(Set(reach.keys) == Set(methods), "presentctl --commands against rpc.discover")
        let (_, help) = try Self.presentctl(daemon, ["--help"])
        for method in methods {
            guard let how = reach[method], let first = how.first else { continue }
            if first == "-" {
                #expect(how.count == 2 && !how[1].isEmpty, "\(method) has no command and no reason: \(how)")
                continue
            }
            for command in how {   // setMode has one command per mode
                #expect(help.contains("\n  \(command)"), "presentctl --help does not list \"\(command)\" (\(method))")
                // Accepted as a command: whatever else it says (missing arguments, the daemon's
                // answer), it is not "unknown command". `watch` would print events until killed:
                // a topic the daemon refuses ends it.
                let words =
                    command.split(separator: " ").map(String.init) + (command == "watch" ? ["no-such-topic"] : [])
                let (_, output) = try Self.presentctl(daemon, words)
                #expect(!output.contains("unknown command"), "presentctl \(command): \(output)")
            }
        }
        #expect(reach["setMode"] == ["dnd", "mode reduced-motion"], "setMode's commands: \(reach["setMode"] ?? [])")
    }

    @Test func versionIsTheDaemons() throws {
        let daemon = try DaemonHarness()
        let version = try #require(try daemon.connect().call("hello")["version"]?.stringValue)
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentctlPath, ["--version"])
        #expect(status == 0 && output == "presentctl \(version)\n", "presentctl --version: \(output)")
    }

    @Test func theNewCommandsReachTheirMethods() throws {
        let daemon = try DaemonHarness()
        let (s1, stats) = try Self.presentctl(daemon, ["stats"])
        let statsReply = try JSONValue.parse(stats)
        #expect(s1 == 0 && statsReply["uptime"] != nil, "presentctl stats: \(stats)")
        let (s2, discover) = try Self.presentctl(daemon, ["discover"])
        let document = try JSONValue.parse(discover)
        #expect(s2 == 0 && document["openrpc"] != nil, "presentctl discover: \(discover.prefix(200))")
        let owner = try daemon.connect()
        try owner.call(
            "present", ["id": "d", "style": "alert", "content": ["fields": [["id": "name", "kind": "text"]]]])
        let (s3, focus) = try Self.presentctl(daemon, ["focus", "d", "name"])
        #expect(s3 == 0, "presentctl focus d name: \(focus)")
        let (s4, unknown) = try Self.presentctl(daemon, ["focus", "d", "nope"])
        #expect(s4 == 2 && unknown.contains("FIELD"), "presentctl focus d nope: \(unknown)")
    }

    /// Missing or wrong words exit 2 and name what was typed, not protocol fields.
    @Test(arguments: [
        (["tap"], "tap X Y: X is missing"),
        (["tap", "10"], "tap X Y: Y is missing"),
        (["tap", "ten", "10"], "tap X Y: X must be a number, not \"ten\""),
        (["present", "--style", "slidein-left"], "presentctl: --style: "),
        (["present", "--transition", "wobble"], "presentctl: --transition: "),
            (
                ["present", "--title", "T", "--action", "ok:OK:default", "--action", "ok:Again"],
                "presentctl: --action: content.actions[1]"
            ),
        (["present", "--level", "sideways", "--wait"], "presentctl: --level: "),
        (["key", "space"], "presentctl: key escape|enter|back: "),
        (["swipe", "sideways", "1", "1"], "presentctl: PHASE (swipe PHASE DX DY): "),
        (["present", "--json", #"{"style":"nope"}"#], "presentctl: --json: style: "),
    ] as [([String], String)])
    func usageErrorsNameWhatWasTyped(arguments: [String], message: String) throws {
        let daemon = try DaemonHarness()
        let (status, output) = try Self.presentctl(daemon, arguments)
        #expect(status == 2, "presentctl \(arguments) exited \(status): \(output)")
        #expect(output.contains(message), "presentctl \(arguments): \(output)")
    }

    @Test func cannotConnectSaysHowToPointItElsewhere() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentctlPath, ["hello"],
                                                     environment: ["XDG_RUNTIME_DIR": directory.path])
        #expect(status == 3, "presentctl hello with no daemon: \(output)")
        #expect(output.contains("\(directory.path)/presentd/presentd.sock is $XDG_RUNTIME_DIR"), "\(output)")
        #expect(output.contains("--socket PATH") && output.contains("PRESENTD_SOCKET=PATH"), "\(output)")
    }

    /// `--print-id` puts the entry's id on stderr once it is presented, before any answer,
    /// so a script (or a person) can answer it without asking for the stack first.
    @Test func presentWaitPrintsTheIdOnStderr() throws {
        let daemon = try DaemonHarness()
        let errors = daemon.directory + "/wait.err", out = daemon.directory + "/wait.out"
        let pid = try DaemonHarness.spawn(DaemonHarness.presentctlPath,
                                          ["--socket", daemon.socketPath, "present", "--title", "Go?",
                                           "--action", "ok:OK:default", "--wait", "--print-id"],
                                          stdout: out, stderr: errors, environment: [:])
        let id = try waitFor("presentctl --print-id to print an id on stderr",
                             context: { (try? String(contentsOfFile: errors)) ?? "" }) { () -> String? in
            let text = (try? String(contentsOfFile: errors)) ?? ""
            return text.hasSuffix("\n") ? String(text.dropLast()) : nil
        }
        let (status, reply) = try Self.presentctl(daemon, ["activate", id, "ok"])
        #expect(status == 0, "presentctl activate \(id) ok: \(reply)")
        let exit = try waitFor("the waiting presentctl to exit after activate") { () -> Int32? in
            var s: Int32 = 0
            return waitpid(pid, &s, WNOHANG) == pid ? DaemonHarness.exitStatus(s) : nil
        }
        let printed = try String(contentsOfFile: out)
        #expect(exit == 0 && printed == "ok\n", "exit \(exit), stdout \(printed)")
    }

    /// `present --hold` returns once presented and a background presentctl holds the entry:
    /// it stays on the stack after the command returned (a plain present's would leave with
    /// its connection, ownerGone), so a script can update it; dismissing it ends the holder.
    @Test func presentHoldKeepsTheEntryAfterReturning() throws {
        let daemon = try DaemonHarness()
        let (status, reply) = try Self.presentctl(
            daemon, ["present", "--id", "held", "--title", "Backing up…", "--hold"])
        #expect(status == 0 && reply.contains(#""id":"held""#), "presentctl present --hold: \(reply)")
        let observer = try daemon.connect()
        try observer.call("subscribe", ["topics": ["lifecycle"]])
        let (updated, answer) = try Self.presentctl(daemon, ["update", "held", "--title", "Backed up"])
        #expect(updated == 0 && answer.contains(#""contentRevision":2"#), "presentctl update held: \(answer)")
        let (_, stack) = try Self.presentctl(daemon, ["stack"])
        #expect(stack.contains(#""id":"held""#), "held is still on the stack: \(stack)")
        let (wrong, usage) = try Self.presentctl(daemon, ["present", "--hold", "--wait"])
        #expect(wrong == 2 && usage.contains("--wait and --hold exclude each other"), "\(usage)")
        #expect(try Self.presentctl(daemon, ["dismiss", "held"]).status == 0)
        _ = try #require(
            try observer.awaitNotification("lifecycle") { $0["id"] == "held" && $0["event"] == "didDismiss" })
    }

    /// A dialog (an entry with actions) is not dismissed by a tap on its dimming unless it
    /// asked for dismissOnTap: a stray tap would answer a confirmation with exit 4.
    @Test func aTapBesideADialogLeavesIt() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let owner = try daemon.connect()
        try owner.call("present", ["id": "q", "style": "alert", "transition": ["duration": 0],
                                   "content": ["title": "Delete?", "actions": [["id": "ok", "title": "Delete"]]]])
        try owner.call("present", ["id": "plain", "style": "alert", "transition": ["duration": 0], "dismissOnTap": true,
                                   "content": ["title": "Also", "actions": [["id": "ok", "title": "OK"]]]])
        let shell = try daemon.connect()
        try shell.call("advance", ["seconds": 1])
        let explicit = try shell.call("tap", ["x": 2, "y": 2])
        #expect(explicit["dismissed"] == true, "a tap beside an entry with dismissOnTap: true: \(explicit)")
        try shell.call("advance", ["seconds": 1])
        let beside = try shell.call("tap", ["x": 2, "y": 2])
        #expect(beside["part"] == "dimming" && beside["dismissed"] == false, "a tap beside the dialog: \(beside)")
        let explained = try owner.call("explain", ["id": "q"])
        #expect(explained["dismissal"]?["onTap"] == false, "explain q: \(explained)")
    }
}
