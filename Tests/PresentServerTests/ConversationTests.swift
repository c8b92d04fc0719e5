// Content and conversation against the real daemon: what a presentation shows reaches
// renderers (willPresent, updated, stack, the snapshot; frames only name the revision),
// and the answer reaches the owner (activate, key, autoDismiss, update). Timing runs on
// the manual clock, so every instant is exact.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Content and conversation")
struct ConversationTests {
    /// A question with two buttons and a text field.
    static let question: JSONValue = [
        "title": "Save changes?", "message": "Your edits will be lost otherwise.",
        "icon": ["name": "document-save"],
        "actions": [["id": "save", "title": "Save", "role": "default"],
                    ["id": "discard", "title": "Discard", "role": "destructive"],
                    ["id": "cancel", "title": "Cancel", "role": "cancel"]],
        "fields": [["id": "name", "kind": "text", "placeholder": "File name", "value": "untitled"],
                   ["id": "copies", "kind": "number"]],
    ]

    /// A daemon on the manual clock, an owner that presented `params` (at rest after 1 s)
    /// and a renderer subscribed to `topics`.
    static func scene(_ params: JSONValue, topics: [JSONValue] = ["lifecycle"], arguments: [String] = [])
        throws -> (DaemonHarness, owner: PresentClient, renderer: PresentClient) {
        let daemon = try DaemonHarness(["--clock", "manual"] + arguments)
        let owner = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": .array(topics)])
        try owner.call("present", params)
        try owner.call("advance", ["seconds": 1])
        return (daemon, owner, renderer)
    }

    // MARK: What renderers learn

    /// A covered entry whose countdown runs out leaves at once: nothing moves, yet the
    /// picture changed, so a frame says so (on the manual clock at the next tick, 1/60 s on).
    @Test func aCoveredEntryThatTimesOutLeavesTheNextFrame() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let owner = try daemon.connect(), renderer = try daemon.connect()
        let quick: JSONValue = ["type": "crossDissolve", "duration": 0.1]
        try owner.call(
            "present", ["id": "below", "style": "popup", "transition": quick, "autoDismiss": ["after": 1.005]])
        try owner.call("advance", ["seconds": 0.2])
        try owner.call("present", ["id": "above", "style": "alert", "transition": quick])
        try owner.call("advance", ["seconds": 0.3])
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"]])
        try owner.call("advance", ["seconds": 1])   // the countdown, from didPresent at 0.1, ran out at 1.105
        let gone = try #require(try renderer.awaitNotification("lifecycle") { $0["event"] == "didDismiss" })
        #expect(gone["id"] == "below" && gone["reason"] == "timeout")
        #expect(abs((gone["time"]?.doubleValue ?? 0) - 1.105) < 1e-9)
        let frame = try #require(try renderer.awaitNotification("frame"), "no frame after the covered entry left")
        let drawn = Set(frame["layers"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? [])
        #expect(drawn == ["above"])
        #expect(abs((frame["time"]?.doubleValue ?? 0) - 67.0 / 60) < 1e-9, "the first tick after the deadline")
    }

    @Test func contentReachesRenderersWhereTheyLearnAboutAnEntryAndFramesOnlyNameItsRevision() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let owner = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["lifecycle", "frames"]])
        try owner.call("present", ["id": "q", "style": "alert", "content": Self.question])
        let willPresent = try #require(try renderer.awaitNotification("lifecycle") { $0["event"] == "willPresent" })
        #expect(willPresent["content"]?["title"] == "Save changes?")
        #expect(
            willPresent["content"]?["actions"]?[0] == [
                "id": "save", "title": "Save", "dismisses": true, "role": "default"
            ])
        #expect(willPresent["contentRevision"] == 1)
        try owner.call("advance", ["seconds": 0.5])
        let frame = try #require(try renderer.awaitNotification("frame"))
        let layer = try #require(frame["layers"]?.arrayValue?.first { $0["role"] == "content" })
        #expect(layer["contentRevision"] == 1)
        #expect(layer["content"] == nil, "frames never repeat the content")
        #expect(!frame.serializedString.contains("Save changes?"))

        // The stack and a late subscriber's snapshot carry it whole.
        let listed = try #require(try owner.call("stack")["entries"]?[0])
        #expect(listed["content"] == willPresent["content"])
        #expect(listed["contentRevision"] == 1)
        let late = try daemon.connect()
        let snapshot = try late.call("subscribe", ["topics": ["frames"]])["snapshot"]
        #expect(snapshot?["entries"]?[0]?["content"] == willPresent["content"])
        #expect(snapshot?["layers"]?.arrayValue?.last?["contentRevision"] == 1)

        // A string content is still a label.
        try owner.call("present", ["id": "t", "style": "alert", "content": "saved"])
        #expect(try owner.call("stack")["entries"]?[1]?["content"] == "saved")
    }

    // MARK: Actions

    @Test func anAlertWithTwoActionsIsAnsweredByActivateAndTheOwnerHearsItFirst() throws {
        let (daemon, owner, renderer) = try Self.scene(["id": "q", "style": "alert", "content": Self.question])
        defer { withExtendedLifetime(daemon) {} }   // it serves until the test ends
        // The renderer presses Save with what was typed; the owner's notification is queued
        // before the renderer's reply is written.
        let reply = try renderer.call(
            "activate", ["id": "q", "action": "save", "fields": ["name": "report.txt", "copies": 2]])
        #expect(reply == ["id": "q", "action": "save", "dismissed": true])
        let action = try #require(try owner.nextNotification(timeout: generousTimeout))
        #expect(action["method"] == "action")
        #expect(action["params"]?["id"] == "q" && action["params"]?["action"] == "save")
        #expect(action["params"]?["fields"] == ["name": "report.txt", "copies": "2"])
        #expect(action["params"]?["seq"]?.int64Value != nil)
        let leaving = try #require(try renderer.awaitNotification("lifecycle") { $0["event"] == "willDismiss" })
        #expect(leaving["reason"] == "action" && leaving["action"] == "save")
        try owner.call("advance", ["seconds": 1])
        let gone = try #require(try renderer.awaitNotification("lifecycle") { $0["event"] == "didDismiss" })
        #expect(gone["reason"] == "action" && gone["action"] == "save")
    }

    /// The compositor's xdg-activation token for the press goes to the owner with the action
    /// (the bridge's ActivationToken signal); one that is not a 1...256-character string is
    /// refused, naming the field, and nothing happens.
    @Test func anActivationTokenReachesTheOwnerWithTheAction() throws {
        let (daemon, owner, renderer) = try Self.scene(["id": "q", "style": "alert", "content": Self.question])
        defer { withExtendedLifetime(daemon) {} }   // it serves until the test ends
        let before = try renderer.call("stack")
        for bad: JSONValue in [7, "", .string(String(repeating: "t", count: 257)), ["token": "x"]] {
            let error = renderer.expectError("activate", ["id": "q", "action": "save", "activationToken": bad])
            #expect(
                error?.code == -32602 && error?.data?["field"] == "activationToken",
                "activationToken \(bad): \(String(describing: error))")
        }
        #expect(try renderer.call("stack") == before)
        try owner.call("ping")   // anything sent to the owner for the refusals has been read by its reply
        #expect(
            owner.notifications.allSatisfy { $0["method"] != "action" }, "a refused activate tells the owner nothing")
        let token = "sway-" + String(repeating: "0123456789abcdef", count: 2)
        try renderer.call("activate", ["id": "q", "action": "save", "activationToken": .string(token)])
        let heard = try #require(try owner.awaitNotification("action"))
        #expect(heard["activationToken"] == .string(token) && heard["action"] == "save")
    }

    @Test func theActionNotificationPrecedesTheReplyOnTheOwnersOwnConnection() throws {
        let (daemon, owner, _) = try Self.scene(["id": "q", "style": "alert", "content": Self.question])
        defer { withExtendedLifetime(daemon) {} }   // it serves until the test ends
        owner.clearNotifications()
        let reply = try owner.call("activate", ["id": "q", "action": "discard"])
        #expect(reply["dismissed"] == true)
        // `call` keeps the notifications read before its reply, in order.
        #expect(owner.notifications.first?["method"] == "action")
        #expect(owner.notifications.first?["params"]?["fields"] == ["name": "untitled", "copies": ""])
    }

    @Test func anActionThatDoesNotDismissLeavesTheEntryAndAConfirmDismissOwnerMayVeto() throws {
        let content: JSONValue = ["title": "Form", "fields": [["id": "name", "kind": "text"]],
                                  "actions": [["id": "check", "title": "Check", "dismisses": false],
                                              ["id": "ok", "title": "OK", "role": "default"]]]
        let (daemon, owner, screen) = try Self.scene([
            "id": "form", "style": "alert", "content": content, "confirmDismiss": true
        ])
        defer { withExtendedLifetime(daemon) {} }   // it serves until the test ends
        #expect(
            try screen.call("activate", ["id": "form", "action": "check"]) == [
                "id": "form", "action": "check", "dismissed": false
            ])
        // OK dismisses, so the owner is asked, after it has heard the action: it vetoes.
        var asked: [JSONValue] = []
        owner.answerRequest = { method, params in
            asked.append(["method": .string(method), "params": params ?? .null])
            return ["allow": false]
        }
        // The owner answers only while it reads, on this thread: so `ok` goes out as a
        // notification, and the veto shows on the stack.
        try screen.notify("activate", ["id": "form", "action": "ok"])
        var heard: [String] = []
        try waitUntil("the owner to be asked whether OK may dismiss \"form\"") {
            if let n = try owner.nextNotification(timeout: 0.05), let action = n["params"]?["action"]?.stringValue {
                heard.append(action)
                #expect(asked.isEmpty, "the action comes before the question")
            }
            return !asked.isEmpty
        }
        #expect(asked.first?["method"] == "shouldDismiss")
        #expect(asked.first?["params"]?["reason"] == "action" && asked.first?["params"]?["action"] == "ok")
        #expect(heard == ["check", "ok"])
        #expect(try screen.call("stack")["entries"]?[0]?["state"] == "presented", "the veto kept it")
    }

    // MARK: Keys

    @Test func escapeActivatesTheCancelActionAndEnterTheDefaultOne() throws {
        let (daemon, owner, screen) = try Self.scene(["id": "q", "style": "alert", "content": Self.question])
        defer { withExtendedLifetime(daemon) {} }   // it serves until the test ends
        #expect(
            try screen.call("key", ["key": "escape"]) == [
                "handled": true, "id": "q", "action": "cancel", "dismissed": true
            ])
        let cancel = try #require(try owner.awaitNotification("action"))
        #expect(cancel["action"] == "cancel" && cancel["role"] == "cancel")
        try owner.call("advance", ["seconds": 1])

        try owner.call("present", ["id": "r", "style": "alert", "content": Self.question])
        try owner.call("advance", ["seconds": 1])
        let enter = try screen.call("key", ["key": "enter", "fields": ["name": "typed"]])
        #expect(enter == ["handled": true, "id": "r", "action": "save", "dismissed": true])
        let heard = try #require(try owner.awaitNotification("action"))
        #expect(heard["action"] == "save" && heard["fields"]?["name"] == "typed")
        try owner.call("advance", ["seconds": 1])

        // A renderer names the entry whose fields it sends: another one that has the key meanwhile gets nothing.
        try owner.call("present", ["id": "s", "style": "alert", "content": Self.question])
        try owner.call(
            "present",
            [
                "id": "newcomer", "style": "alert",
                "content": ["actions": [["id": "ok", "title": "OK", "role": "default"]]]
            ])
        try owner.call("advance", ["seconds": 1])
        #expect(
            try screen.call("key", ["key": "enter", "id": "s", "fields": ["name": "typed"]]) == [
                "handled": false, "id": "newcomer"
            ])
        #expect(try screen.call("stack")["entries"]?.arrayValue?.count == 2)
    }

    @Test func escapeDismissesADialogWithoutCancelButNotAPlainSheet() throws {
        let (daemon, owner, screen) = try Self.scene(["id": "sheet", "style": "bottomHalf", "content": "filters"])
        defer { withExtendedLifetime(daemon) {} }   // it serves until the test ends
        #expect(try screen.call("key", ["key": "escape"]) == ["handled": false, "id": "sheet"])
        #expect(try screen.call("key", ["key": "enter"]) == ["handled": false, "id": "sheet"])
        try owner.call("present", ["id": "info", "style": "alert",
                                   "content": ["title": "Done", "actions": [["id": "ok", "title": "OK"]]]])
        try owner.call("advance", ["seconds": 1])
        #expect(try screen.call("key", ["key": "back"]) == ["handled": true, "id": "info", "dismissed": true])
        let gone = try #require(try screen.awaitNotification("lifecycle") { $0["event"] == "willDismiss" })
        #expect(gone["reason"] == "key" && gone["action"] == nil)
        try owner.call("advance", ["seconds": 1])
        // The sheet opts in.
        try owner.call("dismiss", ["id": "sheet", "animated": false])
        try owner.call("present", ["id": "s2", "style": "bottomHalf", "dismissOnEscape": true])
        try owner.call("advance", ["seconds": 1])
        #expect(try screen.call("key", ["key": "escape"])["dismissed"] == true)
        #expect(try screen.call("key", ["key": "escape"]) == ["handled": false])   // nothing left to take it
    }

    // MARK: Fields

    @Test func fieldsRoundTripAndBadValuesChangeNothing() throws {
        let (daemon, owner, screen) = try Self.scene(["id": "q", "style": "alert", "content": Self.question])
        defer { withExtendedLifetime(daemon) {} }   // it serves until the test ends
        let before = try screen.call("stack")
        #expect(
            screen.expectError("activate", ["id": "q", "action": "save", "fields": ["copies": "many"]])?.data?["field"]
                == "fields.copies")
        #expect(
            screen.expectError("activate", ["id": "q", "action": "save", "fields": ["age": "3"]])?.data?["field"]
                == "fields.age")
        #expect(screen.expectError("activate", ["id": "q", "action": "print"])?.data?["field"] == "action")
        #expect(screen.expectError("activate", ["id": "nope", "action": "save"])?.code == -32001)
        #expect(screen.expectError("focus", ["id": "q", "field": "zip"])?.data?["field"] == "field")
        #expect(try screen.call("stack") == before)
        #expect(owner.notifications.allSatisfy { $0["method"] != "action" }, "a refused answer tells the owner nothing")
        let secret = String(repeating: "x", count: 4096)
        try screen.call("activate", ["id": "q", "action": "save", "fields": ["name": .string(secret), "copies": "3.5"]])
        let heard = try #require(try owner.awaitNotification("action"))
        #expect(heard["fields"] == ["name": .string(secret), "copies": "3.5"])
    }

    // MARK: Auto-dismiss

    @Test func autoDismissLeavesExactlyOnTheManualClockAndPausesWhileAFieldHasFocus() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let owner = try daemon.connect(), screen = try daemon.connect()
        try screen.call("subscribe", ["topics": ["lifecycle"]])
        try owner.call("present", ["id": "toast", "style": "alert", "content": "saved",
                                   "transition": ["duration": 0.25], "autoDismiss": ["after": 2]])
        try owner.call("advance", ["seconds": 2.2])   // presented at 0.25; due at 2.25
        #expect(try owner.call("stack")["entries"]?[0]?["state"] == "presented")
        try owner.call("advance", ["seconds": 0.05])
        let leaving = try #require(try screen.awaitNotification("lifecycle") { $0["event"] == "willDismiss" })
        #expect(leaving["reason"] == "timeout")
        #expect(leaving["time"]?.double == 2.25)
        try owner.call("advance", ["seconds": 1])   // the toast is gone: the next one is not queued behind it

        // Focus holds the countdown: 1 s before focus, 5 s focused, 1 s after.
        try owner.call("present", ["id": "form", "style": "alert", "content": Self.question,
                                   "transition": ["duration": 0], "autoDismiss": ["after": 2]])
        let start = try #require(try owner.call("advance", ["seconds": 1])["time"]?.double)
        try screen.call("focus", ["id": "form", "field": "name"])
        try owner.call("advance", ["seconds": 5])
        try screen.call("focus", ["id": "form"])
        try owner.call("advance", ["seconds": 0.9])
        #expect(try owner.call("stack")["entries"]?.arrayValue?.contains { $0["id"] == "form" } == true)
        try owner.call("advance", ["seconds": 0.2])
        let out = try #require(
            try screen.awaitNotification("lifecycle") { $0["id"] == "form" && $0["event"] == "willDismiss" })
        #expect(out["reason"] == "timeout")
        #expect(abs((out["time"]?.double ?? 0) - (start + 6)) < 1e-9)
    }

    @Test func autoDismissPausesWhileASwipeDragsTheEntry() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let owner = try daemon.connect(), screen = try daemon.connect()
        try screen.call("subscribe", ["topics": ["lifecycle"]])
        try owner.call("present", ["id": "s", "style": "bottomHalf", "dismissOnSwipe": true,
                                   "transition": ["duration": 0], "autoDismiss": ["after": 1]])
        try owner.call("advance", ["seconds": 0.5])
        try screen.call("swipe", ["phase": "began", "dx": 0, "dy": 10])
        try owner.call("advance", ["seconds": 3])
        #expect(try owner.call("stack")["entries"]?[0]?["state"] == "presented", "held while dragged")
        #expect(try screen.call("swipe", ["phase": "ended", "dx": 0, "dy": 10])["outcome"] == "cancelled")
        try owner.call("advance", ["seconds": 0.6])
        let out = try #require(try screen.awaitNotification("lifecycle") { $0["event"] == "willDismiss" })
        #expect(out["reason"] == "timeout" && abs((out["time"]?.double ?? 0) - 4) < 1e-9)
    }

    @Test func autoDismissFiresOnTheRealClockWithNothingMoving() throws {
        let daemon = try DaemonHarness()
        let owner = try daemon.connect()
        try owner.call("subscribe", ["topics": ["lifecycle"]])
        try owner.call(
            "present", ["id": "t", "style": "alert", "transition": ["duration": 0], "autoDismiss": ["after": 0.2]])
        let presented = try #require(try owner.awaitNotification("lifecycle") { $0["event"] == "didPresent" })
        let gone = try waitFor("\"t\" to time out on the daemon's own timer") {
            try owner.nextNotification(timeout: 1).flatMap {
                $0["params"]?["event"] == "willDismiss" ? $0["params"] : nil
            }
        }
        #expect(gone["reason"] == "timeout")
        // The stack places it at the deadline, however late the timer woke.
        #expect(abs((gone["time"]?.double ?? 0) - (presented["time"]?.double ?? 0) - 0.2) < 1e-9)
    }

    // MARK: Update

    @Test func anUpdateThatResizesAnimatesFromWhereTheEntryIsWithoutAJump() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let owner = try daemon.connect(), renderer = try daemon.connect()
        let style: JSONValue = ["type": "custom", "width": "content", "height": "content"]
        try owner.call("present", ["id": "card", "style": style, "preferredContentSize": ["width": 200, "height": 100],
                "transition": ["type": "crossDissolve", "duration": 0],
                "content": ["title": "Saving…", "progress": .null]
            ])
        try owner.call("advance", ["seconds": 1])
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"]])
        var rest = try #require(try owner.call("stack")["entries"]?[0]?["frame"])
        #expect(rest == ["x": 95.0, "y": 372.0, "width": 200.0, "height": 100.0])

        // A renderer measured the text: taller. The owner changes the text too.
        let result = try owner.call("update", ["id": "card", "preferredContentSize": ["width": 200, "height": 300],
                                               "content": ["title": "Saved"], "duration": 0.4, "timing": "linear"])
        #expect(result == ["id": "card", "state": "presented", "contentRevision": 2])
        let updated = try #require(try renderer.awaitNotification("lifecycle") { $0["event"] == "updated" })
        #expect(updated["content"] == ["title": "Saved"] && updated["contentRevision"] == 2)
        #expect(updated["animation"]?["from"]?["frame"]?["height"]?.double == 100)
        #expect(updated["animation"]?["to"]?["frame"]?["height"]?.double == 300)
        rest = try #require(try owner.call("stack")["entries"]?[0]?["frame"])
        #expect(rest["height"]?.double == 300 && rest["y"]?.double == 272)

        try owner.call("advance", ["seconds": 0.5])
        try renderer.call("sync", ["nonce": 1])
        let heights = renderer.notifications.filter { $0["method"] == "frame" }.compactMap { frame in
            frame["params"]?["layers"]?.arrayValue?.first { $0["role"] == "content" }?["frame"]?["height"]?.double
        }
        // 0.1 s ticks over a 0.4 s linear change: 150, 200, 250, 300 (and the resting frame).
        #expect(heights.prefix(4).map { ($0 * 1e6).rounded() / 1e6 } == [150, 200, 250, 300])
        let revisions = Set(renderer.notifications.filter { $0["method"] == "frame" }.compactMap {
            $0["params"]?["layers"]?.arrayValue?.first { $0["role"] == "content" }?["contentRevision"]
        })
        #expect(revisions == [2])
    }

    @Test func onlyTheOwnerMayUpdateUnderTheOwnerPolicyAndAQueuedEntryJustChangesWhatItWillShow() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--dismiss-policy", "owner"])
        let owner = try daemon.connect(), other = try daemon.connect()
        try owner.call("present", ["id": "a", "style": "alert"])
        try owner.call("present", ["id": "b", "style": "alert", "content": "first"])   // queued behind a's transition
        #expect(other.expectError("update", ["id": "a", "content": "mine"])?.code == -32002)
        #expect(
            try owner.call("update", ["id": "b", "content": "second"]) == [
                "id": "b", "state": "queued", "contentRevision": 2
            ])
        #expect(try owner.call("stack")["entries"]?[1]?["content"] == "second")
        #expect(owner.expectError("update", ["id": "a"])?.data?["field"] == "params")
        #expect(owner.expectError("update", ["id": "a", "colour": 1])?.data?["field"] == "colour")
        // null clears.
        try owner.call("update", ["id": "b", "content": .null])
        #expect(try owner.call("stack")["entries"]?[1]?["content"] == nil)
    }

    @Test func anUpdatedEntryComesBackAsUpdatedAfterACrash() throws {
        let daemon = try DaemonHarness(["--resume-grace", "30"])
        let owner = try daemon.connect()
        let token = try #require(try owner.call("hello")["resumeToken"]?.stringValue)
        try owner.call("present", ["id": "job", "style": "alert", "content": ["title": "Copying…", "progress": 0.1],
                                   "transition": ["duration": 0]])
        try owner.call(
            "update", ["id": "job", "content": ["title": "Copying…", "progress": 0.9], "autoDismiss": ["after": 600]])
        let stateFile = daemon.directory + "/presentd-state.json"
        try waitUntil("the state file to hold the updated progress") {
            ((try? String(contentsOfFile: stateFile)) ?? "").contains("0.9")
        }
        daemon.stop(signal: SIGKILL)
        try daemon.restart()
        let back = try daemon.connect()
        #expect(try back.call("hello", ["resume": .string(token)])["resumed"] == ["job"])
        let entry = try #require(try back.call("stack")["entries"]?[0])
        #expect(entry["content"] == ["title": "Copying…", "progress": 0.9])
        #expect(entry["autoDismiss"]?["after"]?.double == 600 && entry["autoDismiss"]?["pauseWhileInteracting"] == true)
    }

    // MARK: Bad values

    @Test(arguments: [
        ("content.title", #"{"title": ""}"#),
        ("content.title", "{\"title\": \"\(String(repeating: "t", count: 257))\"}"),
        ("content.message", "{\"message\": \"\(String(repeating: "m", count: 4097))\"}"),
        ("content.actions", #"{"actions": [1,2,3,4,5,6,7,8,9]}"#),
        ("content.actions[0].id", #"{"actions": [{"id": "", "title": "A"}]}"#),
        (
            "content.actions[0].id",
            "{\"actions\": [{\"id\": \"\(String(repeating: "i", count: 65))\", \"title\": \"A\"}]}"
        ),
        ("content.actions[0].title", #"{"actions": [{"id": "a"}]}"#),
        ("content.actions[0].role", #"{"actions": [{"id": "a", "title": "A", "role": "primary"}]}"#),
        (
            "content.actions[1].role",
            #"{"actions": [{"id": "a", "title": "A", "role": "default"}, {"id": "b", "title": "B", "role": "default"}"#
            + #"]}"#
        ),
        ("content.actions[1].id", #"{"actions": [{"id": "a", "title": "A"}, {"id": "a", "title": "B"}]}"#),
        ("content.actions[0].dismisses", #"{"actions": [{"id": "a", "title": "A", "dismisses": "yes"}]}"#),
        (
            "content.fields",
            #"{"fields": [{"id":"a","kind":"text"},{"id":"b","kind":"text"},{"id":"c","kind":"text"},{"id":"d","#
            + #""kind":"text"},{"id":"e","kind":"text"}]}"#
        ),
        ("content.fields[0].kind", #"{"fields": [{"id": "a", "kind": "date"}]}"#),
        ("content.fields[1].id", #"{"fields": [{"id": "a", "kind": "text"}, {"id": "a", "kind": "secure"}]}"#),
        ("content.fields[0].value", #"{"fields": [{"id": "a", "kind": "number", "value": "ten"}]}"#),
        ("content.progress", #"{"progress": 1.5}"#),
        ("content.icon", #"{"icon": {"name": "a", "path": "/a.png"}}"#),
        ("content.icon.path", #"{"icon": {"path": "icons/a.png"}}"#),
        ("content.icon.path", #"{"icon": {"path": "/a.gif"}}"#),
        ("content.surface", #"{"surface": {}}"#),
        ("content.accessibility.announce", #"{"accessibility": {"announce": "loud"}}"#),
        ("content.colour", #"{"colour": "red"}"#),
    ])
    func everyBadContentValueIsRefusedNamingItsField(field: String, content: String) throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        let reply = try #require(
            try c.rawExchange(
                #"{"jsonrpc":"2.0","id":1,"method":"present","params":{"style":"alert","content":\#(content)}}"#))
        #expect(reply["error"]?["code"] == -32602)
        #expect(reply["error"]?["data"]?["field"] == .string(field), "\(reply)")
        #expect(try c.call("stack")["entries"] == [])
    }

    @Test func badSizesAndCountdownsAreRefusedNamingTheirField() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        let cases: [(String, JSONValue)] = [
            ("preferredContentSize.width", ["style": "alert", "preferredContentSize": ["width": -1]]),
            ("preferredContentSize.depth", ["style": "alert", "preferredContentSize": ["depth": 1]]),
            ("autoDismiss.after", ["style": "alert", "autoDismiss": ["after": -1]]),
            ("autoDismiss.after", ["style": "alert", "autoDismiss": [:]]),
            (
                "autoDismiss.pauseWhileInteracting",
                ["style": "alert", "autoDismiss": ["after": 1, "pauseWhileInteracting": 1]]
            ),
            ("style.width", ["style": ["type": "custom", "width": "contents"]]),
        ]
        for (field, params) in cases {
            #expect(c.expectError("present", params)?.data?["field"] == .string(field), "\(params)")
        }
        #expect(c.expectError("key", ["key": "tab"])?.data?["field"] == "key")
        #expect(try c.call("stack")["entries"] == [])
    }
}
