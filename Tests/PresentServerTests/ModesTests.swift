// Do not disturb, dry runs and explain against the real daemon on the manual clock:
// held presentations and the order they drain in (lifecycle), a droppable toast refused,
// `until` ending the mode through `advance`, the `mode` notification, dry runs and
// explanations that agree with what then happens, and errors that name their field.

import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Do not disturb, dryRun and explain")
struct ModesTests {
    static let toast: JSONValue = ["type": "custom", "width": ["points": 300], "height": ["points": 50]]

    /// "id event time" of every lifecycle notification received so far.
    static func lifecycle(_ client: PresentClient) -> [String] {
        client.notifications.filter { $0["method"] == "lifecycle" }.compactMap(\.["params"]).map {
            "\($0["id"]!.stringValue!) \($0["event"]!.stringValue!) \(($0["time"]!.double! * 1e6).rounded() / 1e6)"
        }
    }

    @Test func heldPresentationsDrainInPriorityOrderWhenTurnedOff() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let admin = try daemon.connect(), app = try daemon.connect(), watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle", "modes"]])
        let on = try admin.call("setMode", ["doNotDisturb": ["allowPriorityAbove": 500]])
        #expect(on["doNotDisturb"]?["until"] == .null && on["doNotDisturb"]?["allowPriorityAbove"] == 500)
        let quick: JSONValue = ["duration": 0.5]
        #expect(
            try app.call("present", ["id": "low", "style": "popup", "priority": 100, "transition": quick])["state"]
                == "queued")
        #expect(
            try app.call("present", ["id": "mid", "style": "popup", "priority": 300, "transition": quick])["state"]
                == "queued")
        #expect(
            try app.call("present", ["id": "alarm", "style": "alert", "priority": 900, "transition": quick])["state"]
                == "presenting")
        try app.call("advance", ["seconds": 1])
        #expect(try app.call("stack")["entries"]?.arrayValue?.compactMap { $0["heldBy"]?.stringValue }
                == ["doNotDisturb", "doNotDisturb"], "the stack listing says it too")
        let held = try admin.call("explain", ["id": "low"])
        #expect(held["blockers"]?["heldBy"] == "doNotDisturb" && held["startsAt"] == .null)
        #expect(held["blockers"]?["queuedAhead"] == ["mid"])
        try admin.call("dismiss", ["id": "alarm", "animated": false])
        let off = try admin.call("setMode", ["doNotDisturb": .null])
        #expect(off["doNotDisturb"] == .null)
        try app.call("advance", ["seconds": 2])
        try watcher.call("sync", ["nonce": 1])
        let events = Self.lifecycle(watcher)
        #expect(Array(events.prefix(2)) == ["low queued 0.0", "mid queued 0.0"], "\(events)")
        #expect(events.filter { $0.contains("willPresent") } == ["alarm willPresent 0.0", "mid willPresent 1.0",
                                                                "low willPresent 1.5"], "\(events)")
        let queued = watcher.notifications.first { $0["params"]?["event"] == "queued" }
        #expect(queued?["params"]?["heldBy"] == "doNotDisturb")
        let modes = watcher.notifications.filter { $0["method"] == "mode" }.compactMap(\.["params"])
        #expect(modes.count == 2)
        #expect(modes.last?["doNotDisturb"] == .null && modes.last?["reason"] == "request")
        #expect(modes.last?["released"] == ["mid", "low"] && modes.last?["output"] == "main")
    }

    @Test func aDroppableOverlayIsRefusedNamingTheField() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        try app.call("setMode", ["doNotDisturb": [:]])
        let params: JSONValue = ["level": "overlay", "style": Self.toast, "content": "Saved", "droppable": true]
        let error = app.expectError("present", params)
        #expect(error?.code == -32006)
        #expect(error?.data?["field"] == "droppable" && error?.data?["reason"] == "doNotDisturb")
        #expect(try app.call("stack")["entries"] == [], "nothing queued, no id used")
        // The dry run says the same, with the same error object.
        let dry = try app.call("present", params.merging(["dryRun": true]))
        #expect(dry["outcome"] == "refused" && dry["error"]?["code"] == -32006)
        // Not droppable: held instead; a priority above the threshold: shown.
        #expect(try app.call("present", ["level": "overlay", "style": Self.toast])["state"] == "queued")
        #expect(try app.call("present", ["level": "overlay", "style": Self.toast, "droppable": true,
                                         "priority": 501])["state"] == "presenting")
    }

    @Test func untilEndsItOnTheManualClockAndTheHeldEntryStartsThen() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let app = try daemon.connect(), watcher = try daemon.connect()
        let snapshot = try watcher.call("subscribe", ["topics": ["lifecycle", "modes"]])["snapshot"]
        #expect(snapshot?["doNotDisturb"] == .null && snapshot?["outputs"]?[0]?["doNotDisturb"] == .null)
        try app.call("advance", ["seconds": 1])
        try app.call("setMode", ["doNotDisturb": ["duration": 2]])   // until 3
        #expect(
            try app.call("present", ["id": "later", "style": "popup", "transition": ["duration": 0.5]])["state"]
                == "queued")
        let dry = try app.call("present", ["id": "other", "style": "popup", "dryRun": true])
        #expect(dry["outcome"] == "queued" && dry["startsAt"] == 3.5 && dry["queuedBehind"] == ["later"],
                "held until 3, then after later's 0.5 s: \(dry)")
        #expect(try app.call("explain", ["id": "later"])["startsAt"] == 3.0)
        try app.call("advance", ["seconds": 5])
        try watcher.call("sync", ["nonce": 1])
        #expect(Self.lifecycle(watcher).contains("later willPresent 3.0"), "\(Self.lifecycle(watcher))")
        let ended = watcher.notifications.last { $0["method"] == "mode" }?["params"]
        #expect(ended?["reason"] == "until" && ended?["time"] == 3.0 && ended?["doNotDisturb"] == .null)
        #expect(try app.call("explain", ["id": "later"])["doNotDisturb"] == .null)
    }

    @Test func aDryRunChangesNothingAndAgreesWithThePresentThatFollows() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let app = try daemon.connect(), watcher = try daemon.connect()
        try app.call("present", ["id": "a", "style": "popup", "kind": "k", "transition": ["duration": 0.4]])
        try app.call("advance", ["seconds": 0.1])
        try watcher.call("subscribe", ["topics": ["lifecycle", "stack"]])
        let before = try app.call("stack")
        let params: JSONValue = ["style": "alert", "kind": "k2", "transition": ["duration": 0.3]]
        let dry = try app.call("present", params.merging(["dryRun": true]))
        #expect(dry["dryRun"] == true && dry["outcome"] == "queued" && dry["id"] == "p1" && dry["output"] == "main")
        #expect(dry["queuedBehind"] == ["a"] && dry["blockers"]?["transitions"]?[0]?["until"]?.double == 0.4)
        #expect(try app.call("stack") == before)
        try watcher.call("sync", ["nonce": 0])
        #expect(watcher.notifications.isEmpty, "no event for a dry run")
        let real = try app.call("present", params)
        #expect(real["id"] == dry["id"] && real["state"] == dry["state"])
        try app.call("advance", ["seconds": 1])
        try watcher.call("sync", ["nonce": 1])
        let start = try #require(dry["startsAt"]?.double)
        #expect(
            Self.lifecycle(watcher).contains("p1 willPresent \((start * 1e6).rounded() / 1e6)"),
            "\(Self.lifecycle(watcher))")
        // Deduplicated and preempting, likewise.
        let dedupe = try app.call("present", ["style": "popup", "kind": "k2", "dryRun": true])
        #expect(dedupe["outcome"] == "deduplicated" && dedupe["deduplicatedWith"] == "p1")
        #expect(try app.call("present", ["style": "popup", "kind": "k2"])["deduplicated"] == true)
        let preempt = try app.call(
            "present", ["style": "popup", "priority": 900, "precedence": "override", "dryRun": true])
        #expect(preempt["outcome"] == "preempting" && preempt["preempting"] == ["p1"])
        let id = try app.call("present", ["style": "popup", "priority": 900, "precedence": "override"])["id"]
        try watcher.call("sync", ["nonce": 2])
        #expect(
            watcher.notifications.contains { $0["params"]?["id"] == "p1" && $0["params"]?["reason"] == "preempted" })
        #expect(id == preempt["id"])
    }

    @Test func explainSaysTheDismissPolicyTheOwnerAndTheAdaptation() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--dismiss-policy", "owner",
                                        "--container", "844x390"])
        let app = try daemon.connect(), other = try daemon.connect()
        try app.call("hello", ["client": "mail"])
        try app.call("present", ["id": "s", "style": "bottomHalf", "adaptive": "fullScreen"])
        let x = try other.call("explain", ["id": "s"])
        #expect(x["state"] == "presenting" && x["output"] == "main" && x["level"] == "normal")
        #expect(x["owner"]?["name"] == "mail" && x["owner"]?["you"] == false)
        #expect(x["dismissal"]?["policy"] == "owner" && x["dismissal"]?["youMay"] == false)
        #expect(x["adaptation"]?["active"] == true && x["adaptation"]?["policy"] == "fullScreen")
        #expect(x["adaptation"]?["verticalSizeClass"] == "compact")
        #expect(other.expectError("dismiss", ["id": "s"])?.code == -32002, "what explain said")
        #expect(try app.call("explain", ["id": "s"])["dismissal"]?["youMay"] == true)
    }

    @Test func badParamsNameTheirField() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        try app.call("advance", ["seconds": 10])
        let cases: [(String, JSONValue, String)] = [
            ("setMode", ["reducedMotion": "yes"], "reducedMotion"),
            ("setMode", ["doNotDisturb": 3], "doNotDisturb"),
            ("setMode", ["doNotDisturb": ["until": 5]], "doNotDisturb.until"),
            ("setMode", ["doNotDisturb": ["until": 20, "duration": 1]], "doNotDisturb.duration"),
            ("setMode", ["doNotDisturb": ["allowPriorityAbove": 2000]], "doNotDisturb.allowPriorityAbove"),
            ("setMode", ["doNotDisturb": ["whenever": 1]], "doNotDisturb.whenever"),
            ("present", ["style": "popup", "dryRun": "yes"], "dryRun"),
            ("present", ["style": "popup", "droppable": 1], "droppable"),
            ("explain", [:], "id"),
        ]
        for (method, params, field) in cases {
            let error = app.expectError(method, params)
            #expect(
                error?.code == -32602 && error?.data?["field"] == .string(field),
                "\(method) \(params): \(String(describing: error))")
        }
        #expect(app.expectError("explain", ["id": "nope"])?.code == -32001)
        #expect(app.expectError("setMode", ["doNotDisturb": .null, "output": "nope"])?.data?["field"] == "output")
    }

    @Test func onTheMonotonicClockTheDaemonWakesForUntil() throws {
        let daemon = try DaemonHarness(["--clock", "monotonic"])
        let app = try daemon.connect(), watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["modes", "lifecycle"]])
        let until = try #require(
            try app.call("setMode", ["doNotDisturb": ["duration": 0.3]])["doNotDisturb"]?["until"]?.double)
        #expect(try app.call("present", ["id": "a", "style": "popup", "priority": 1])["state"] == "queued")
        // Nothing moves meanwhile: only the deadline timer can end it.
        let ended = try watcher.awaitNotification("mode") { $0["reason"] == "until" }
        #expect(ended?["time"]?.double == until)
        let start = try watcher.awaitNotification("lifecycle") { $0["id"] == "a" && $0["event"] == "willPresent" }
        #expect(start?["time"]?.double == until, "it starts at exactly until, however late the timer fired")
    }

    @Test func aRestartKeepsDoNotDisturbAndWhatItHolds() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--resume-grace", "30"])
        let app = try daemon.connect()
        try app.call("present", ["id": "shown", "style": "popup", "transition": ["duration": 0]])
        try app.call("setMode", ["doNotDisturb": ["duration": 50, "allowPriorityAbove": 300]])
        try app.call("advance", ["seconds": 10])
        #expect(try app.call("present", ["id": "held", "style": "popup", "priority": 300])["state"] == "queued")
        #expect(daemon.stop() == 0)
        try daemon.restart()
        let again = try daemon.connect()
        let x = try again.call("explain", ["id": "held"])
        #expect(x["state"] == "queued" && x["blockers"]?["heldBy"] == "doNotDisturb", "\(x.serializedString)")
        #expect(x["doNotDisturb"]?["until"] == 40.0 && x["doNotDisturb"]?["allowPriorityAbove"] == 300,
                "the 40 s it had left, on the new daemon's clock")
        #expect(try again.call("explain", ["id": "shown"])["state"] == "presented", "what was on screen stays")
        try again.call("advance", ["seconds": 41])
        #expect(try again.call("explain", ["id": "held"])["state"] != "queued")
    }

    @Test func presentctlDndOnAndOffAndExplain() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        let run = { (arguments: [String]) throws -> (status: Int32, output: String) in
            try DaemonHarness.run(DaemonHarness.presentctlPath, ["--socket", daemon.socketPath] + arguments)
        }
        let on = try run(["dnd", "on", "--for", "5", "--allow-above", "100"])
        #expect(on.status == 0)
        let mode = try JSONValue.parse(on.output.split(separator: "\n").first.map(String.init) ?? "")
        #expect(mode["doNotDisturb"]?["until"] == 5.0 && mode["doNotDisturb"]?["allowPriorityAbove"] == 100)
        #expect(try app.call("present", ["id": "a", "style": "popup", "priority": 100])["state"] == "queued")
        let dry = try run(["present", "--style", "alert", "--priority", "101", "--dry-run"])
        #expect(dry.status == 0 && dry.output.contains("\"outcome\":\"presenting\""), "\(dry.output)")
        let explained = try run(["explain", "a"])
        #expect(
            explained.status == 0 && explained.output.contains("\"heldBy\":\"doNotDisturb\""), "\(explained.output)")
        #expect(try run(["dnd", "off"]).status == 0)
        #expect(try app.call("stack")["entries"]?[0]?["state"] == "presenting")
        #expect(try run(["dnd", "maybe"]).status == 2)
        #expect(try run(["dnd", "on", "--until", "9", "--for", "1"]).status == 2)
    }
}

extension JSONValue {
    /// An object with `other`'s members added.
    func merging(_ other: JSONObject) -> JSONValue {
        var o = objectValue ?? [:]
        for (key, value) in other { o[key] = value }
        return .object(o)
    }
}

/// Reduced motion against the daemon: setMode turns it on and off per screen, a
/// presentation that starts meanwhile cross-fades where it rests, and `--reduced-motion on`
/// starts every screen with it.
@Suite("Reduced motion, against the daemon")
struct ReducedMotionIntegrationTests {
    /// The motion of the next willPresent: (from, to) of its animation.
    static func presented(_ id: String, by app: PresentClient, watched renderer: PresentClient,
                          output: String? = nil) throws -> (from: JSONValue?, to: JSONValue?) {
        var params: JSONObject = [
            "id": .string(id), "style": "alert", "transition": ["type": "coverVertical", "duration": 0.3]
        ]
        if let output { params["output"] = .string(output) }
        try app.call("present", .object(params))
        let notice = try renderer.awaitNotification("lifecycle") {
            $0["id"] == .string(id) && $0["event"] == "willPresent"
        }
        return (notice?["animation"]?["from"], notice?["animation"]?["to"])
    }

    @Test func setModeTurnsItOnAndOffPerScreenAndAPresentationThenCrossFadesWhereItRests() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--output", "cluster=800x400@30"])
        let shell = try daemon.connect(), app = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["lifecycle"]])
        #expect(try shell.call("setMode", [:])["reducedMotion"] == false, "setMode {} reports the modes")
        let on = try shell.call("setMode", ["reducedMotion": true])
        #expect(on["reducedMotion"] == true && on["doNotDisturb"] == .null && on["output"] == "main")

        let faded = try Self.presented("a", by: app, watched: renderer)
        #expect(
            faded.from?["frame"] == faded.to?["frame"] && faded.from?["alpha"]?.double == 0
                && faded.to?["alpha"]?.double == 1,
            "a cross-fade where it rests: \(faded.from?.serializedString ?? "-") → \(faded.to?.serializedString ?? "-")"
        )
        let slid = try Self.presented("b", by: app, watched: renderer, output: "cluster")
        #expect(
            slid.from?["frame"]?["y"] != slid.to?["frame"]?["y"],
            "the cluster still slides: \(String(describing: slid))")

        try app.call("advance", ["seconds": 1])
        try app.call("dismissAll", ["animated": false])
        #expect(try shell.call("setMode", ["reducedMotion": false])["reducedMotion"] == false)
        let again = try Self.presented("c", by: app, watched: renderer)
        #expect(again.from?["frame"]?["y"] != again.to?["frame"]?["y"], "off again: it slides")
    }

    @Test func theSettingStartsEveryScreenWithIt() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--reduced-motion", "on"])
        let shell = try daemon.connect()
        #expect(try shell.call("setMode", [:])["reducedMotion"] == true)
        try shell.call("addOutput", ["name": "rear", "width": 600, "height": 400])
        #expect(try shell.call("setMode", ["output": "rear"])["reducedMotion"] == true)
        let printed = try DaemonHarness.run(DaemonHarness.presentdPath, ["--reduced-motion", "on", "--print-config"]).1
        #expect(printed.contains(#""reducedMotion":true"#) || printed.contains(#""reducedMotion": true"#), "\(printed)")
    }
}

extension ReducedMotionIntegrationTests {
    /// A shell watching `modes` hears reduced motion change, and a new subscriber's snapshot says it.
    @Test func aModesSubscriberHearsReducedMotionChange() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let shell = try daemon.connect(), watcher = try daemon.connect()
        #expect(try watcher.call("subscribe", ["topics": ["modes"]])["snapshot"]?["reducedMotion"] == false)
        try shell.call("setMode", ["reducedMotion": true])
        let heard = try watcher.awaitNotification("mode") { $0["reducedMotion"] == true }
        #expect(heard?["output"] == "main" && heard?["doNotDisturb"] == .null && heard?["reason"] == "request")
        try shell.call("setMode", ["reducedMotion": true])   // no change, no notification
        try shell.call("setMode", ["doNotDisturb": ["allowPriorityAbove": 500]])
        let dnd = try watcher.awaitNotification("mode") { $0["doNotDisturb"] != .null }
        #expect(dnd?["reducedMotion"] == true, "a change of either mode reports both")
        let late = try daemon.connect()
        #expect(try late.call("subscribe", ["topics": ["modes"]])["snapshot"]?["reducedMotion"] == true)
    }
}
