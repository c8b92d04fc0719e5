// The daemon as a client sees it: the real presentd on a temporary socket.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentCore
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Daemon protocol")
struct DaemonProtocolTests {
    @Test func helloReportsVersionLimitsAndContainer() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        let hello = try c.call("hello", ["client": "test", "protocol": 1])
        #expect(hello["server"] == "presentd")
        #expect(hello["protocol"] == 1)
        #expect(hello["clock"] == "manual")
        #expect(hello["limits"]?["maxLineBytes"] == .int(1 << 20))
        #expect(hello["container"]?["width"]?.double == 390)
        #expect(try c.call("ping") == [:])
        let wrong = c.expectError("hello", ["client": "test", "protocol": 2])
        #expect(wrong?.code == -32602)
        #expect(wrong?.data?["field"] == "protocol")
    }

    @Test func presentRepliesAtOnceAndEventsComeFirst() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        try c.call("subscribe", ["topics": ["lifecycle", "stack"]])
        try c.sendRaw(
            Array(#"{"jsonrpc":"2.0","id":7,"method":"present","params":{"style":"alert","kind":"k"}}"#.utf8) + [10])
        // The events the request causes are written before its reply.
        let first = try JSONValue.parse(try #require(try c.readLine()))
        #expect(first["method"] == "lifecycle")
        #expect(first["params"]?["event"] == "willPresent")
        #expect(first["params"]?["animation"]?["from"]?["frame"]?["y"]?.double == 844)
        let second = try JSONValue.parse(try #require(try c.readLine()))
        #expect(second["method"] == "stack")
        let reply = try JSONValue.parse(try #require(try c.readLine()))
        #expect(reply["id"] == 7)
        #expect(reply["result"]?["state"] == "presenting")
        let id = try #require(reply["result"]?["id"])
        // Seed 000's guard: the same kind on top returns that entry.
        let again = try c.call("present", ["style": "alert", "kind": "k"])
        #expect(again["id"] == id)
        #expect(again["deduplicated"] == true)
        let forced = try c.call("present", ["style": "alert", "kind": "k", "deduplicate": false])
        #expect(forced["id"] != id)
        #expect(forced["state"] == "queued")
    }

    @Test func requestsWhileATransitionRunsAreQueuedAndNoneDropped() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let a = try daemon.connect(), b = try daemon.connect()
        let first = try a.call("present", ["style": "popup", "transition": ["type": "crossDissolve", "duration": 0.5]])
        let second = try b.call("present", ["style": "alert"])
        let third = try a.call("present", ["style": "bottomHalf"])
        #expect(first["state"] == "presenting")
        #expect(second["state"] == "queued")
        #expect(third["state"] == "queued")
        try a.call("advance", ["seconds": 5])
        let entries = try #require(try b.call("stack")["entries"]?.arrayValue)
        #expect(entries.map { $0["id"] } == [first["id"], second["id"], third["id"]])
        #expect(entries.allSatisfy { $0["state"] == "presented" })
        // Dismissing the bottom one takes everything above it.
        let dismissed = try b.call("dismiss", ["id": try #require(first["id"])])
        #expect(dismissed["dismissed"]?.arrayValue?.count == 3)
    }

    @Test func framesMatchTheCore() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let renderer = try daemon.connect(), app = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames"]])
        try app.call(
            "present", ["style": "alert", "transition": ["type": "coverVertical", "duration": 1, "timing": "easeOut"]])
        try app.call("advance", ["seconds": 0.5])
        var core = ModalStack()
        _ = try core.present(
            Presentation(style: .alert, transition: Transition(kind: .coverVertical, duration: 1, timing: .easeOut)),
                             owner: 1, at: 0)
        for k in 1...5 {
            let frame = try #require(try renderer.awaitNotification("frame"))
            let t = Double(k) / 10
            #expect(frame["time"]?.double == t)
            let expected = core.scene(at: t).layers
            let layers = try #require(frame["layers"]?.arrayValue)
            #expect(layers.count == expected.count)
            for (got, want) in zip(layers, expected) {
                #expect(abs((got["frame"]?["y"]?.double ?? .nan) - want.frame.minY) < 1e-9)
                #expect(abs((got["alpha"]?.double ?? .nan) - want.alpha) < 1e-9)
                #expect(got["role"]?.stringValue == want.role.rawValue)
            }
        }
    }

    /// On the monotonic clock a moving screen's next tick is made ahead of its deadline
    /// (Screen's "The next tick, made ahead"), and a request between two ticks must show in
    /// the very next frame: every frame is the core's picture at its own time, given the
    /// requests at the times the lifecycle events say they took effect.
    @Test func monotonicFramesFollowARequestMadeBetweenTicks() throws {
        let daemon = try DaemonHarness(["--fps", "60"])
        let renderer = try daemon.connect(), app = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"]])
        let id = try #require(
            try app.call(
                "present",
                [
                    "style": "alert",
                    "transition": [
                        "type": "coverVertical", "duration": 2,
                                                                                         "timing": "easeOut"]])["id"])
        var frames: [JSONValue] = [], presentedAt: Double?, dismissedAt: Double?
        reading: while true {
            guard let message = try renderer.nextNotification(timeout: generousTimeout),
                  let params = message["params"] else {
                Issue.record("""
                    waited \(Int(generousTimeout)) s for the frames of an alert dismissed mid-motion \
                    (\(frames.count) came)
                    """)
                return
            }
            switch message["method"]?.stringValue {
            case "lifecycle" where params["event"] == "willPresent": presentedAt = params["time"]?.double
            case "lifecycle" where params["event"] == "willDismiss": dismissedAt = params["time"]?.double
            case "frame":
                frames.append(params)
                // By now each tick is made ahead: the next one is made already.
                if frames.count == 6 { try app.call("dismiss", ["id": id]) }
                if dismissedAt != nil, params["animating"] == false { break reading }
            default: break
            }
        }
        let shown = try #require(presentedAt), gone = try #require(dismissedAt)
        var core = ModalStack()
        let coreID = try core.present(
            Presentation(
                style: .alert,
                transition: Transition(
                    kind: .coverVertical, duration: 2,
                                                                                         timing: .easeOut)),
                                      owner: 1, at: shown).id
        var dismissed = false, framesAfter = 0
        for frame in frames {
            let t = try #require(frame["time"]?.double)
            if !dismissed, t >= gone {
                core.advance(to: gone)
                _ = try core.dismiss(id: coreID, at: gone)
                dismissed = true
            }
            if dismissed { framesAfter += 1 }
            core.advance(to: t)
            let expected = core.scene(at: t).layers
            let layers = try #require(frame["layers"]?.arrayValue)
            #expect(layers.count == expected.count, "frame at \(t), dismissed at \(gone)")
            for (got, want) in zip(layers, expected) {
                #expect(
                    abs((got["frame"]?["y"]?.double ?? .nan) - want.frame.minY) < 1e-9,
                    "frame at \(t), dismissed at \(gone)")
                #expect(abs((got["alpha"]?.double ?? .nan) - want.alpha) < 1e-9, "frame at \(t), dismissed at \(gone)")
            }
        }
        #expect(framesAfter >= 2, "frames after the dismissal: \(framesAfter)")
    }

    /// A tick publishes what happened on the way to it before its frame: a renderer hears
    /// `didPresent` before the first frame that shows the entry at rest. (A tick whose
    /// publish has nothing to send sends its frame first; this one has an event.)
    @Test func aTicksEventsComeBeforeItsFrame() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let renderer = try daemon.connect(), app = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"]])
        try app.call("present", ["style": "alert", "transition": ["type": "crossDissolve", "duration": 0.25]])
        try app.call("advance", ["seconds": 1])
        var heard: [String] = []
        while !heard.contains("frame at rest") {
            guard let message = try renderer.nextNotification(timeout: generousTimeout),
                  let params = message["params"] else {
                Issue.record("waited \(Int(generousTimeout)) s for the frame at rest; heard \(heard)")
                return
            }
            switch message["method"]?.stringValue {
            case "lifecycle": heard.append(params["event"]?.stringValue ?? "?")
            case "frame": heard.append(params["animating"] == false ? "frame at rest" : "frame")
            default: break
            }
        }
        #expect(heard.firstIndex(of: "didPresent").map { $0 < heard.count - 1 } == true, "heard \(heard)")
    }

    @Test func aDisconnectedOwnersPresentationsLeaveWithOwnerGone() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        var app: PresentClient? = try daemon.connect()
        let id = try #require(try app?.call("present", ["style": "popup"])["id"])
        try watcher.call("advance", ["seconds": 1])
        app = nil  // closes the connection
        let gone = try watcher.awaitNotification("lifecycle") { $0["event"] == "willDismiss" }
        #expect(gone?["id"] == id)
        #expect(gone?["reason"] == "ownerGone")
        try watcher.call("advance", ["seconds": 1])
        let done = try watcher.awaitNotification("lifecycle") { $0["event"] == "didDismiss" }
        #expect(done?["reason"] == "ownerGone")
        #expect(try watcher.call("stack")["entries"] == [])
    }

    /// Most connections present nothing (a `presentctl ping`, a renderer that reconnects):
    /// their leaving is nothing a subscriber hears of. The stack keeps its time and state
    /// (RevisionTests), so the daemon has nothing to publish.
    @Test func aConnectionThatPresentedNothingLeavesWithoutAWord() throws {
        let daemon = try DaemonHarness([])
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle", "stack", "statusBar", "animations", "frames"]])
        let app = try daemon.connect()
        try app.call("present", ["style": "popup", "transition": ["duration": 0.05]])
        _ = try watcher.awaitNotification("lifecycle") { $0["event"] == "didPresent" }
        _ = try watcher.awaitNotification("frame") { $0["animating"] == false }   // the last until something changes
        watcher.clearNotifications()
        for kind in ["hello", "subscribe", "ping"] {
            let passer = try daemon.connect()
            switch kind {
            case "hello": try passer.call("hello", ["client": "passer-by"])
            case "subscribe": try passer.call("subscribe", ["topics": ["lifecycle", "frames"]])
            default: try passer.call("ping")
            }
        }   // each closes as it goes out of scope
        try waitUntil("the three passers-by to be gone from stats") {
            try watcher.call("stats")["clients"]?.arrayValue?.count == 2
        }
        let heard = try watcher.messagesBeforeSync(after: Array(#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#.utf8),
                                                   marker: "s")
        #expect(heard == [["jsonrpc": "2.0", "id": "p", "result": [:]]], "heard \(heard)")
        #expect(watcher.notifications.isEmpty, "notifications while they left: \(watcher.notifications)")
    }

    @Test func everyErrorCode() throws {
        let daemon = try DaemonHarness(["--dismiss-policy", "owner"])
        let c = try daemon.connect(), other = try daemon.connect()
        #expect(try c.rawExchange("{nope")?["error"]?["code"] == -32700)
        #expect(try c.rawExchange(#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#)?["error"]?["code"] == -32600)
        #expect(c.expectError("teleport")?.code == -32601)
        let bad = c.expectError(
            "present", ["style": "popup", "transition": ["type": "zoom", "timing": ["bezier": [0.1, "x", 0.2, 1]]]])
        #expect(bad?.code == -32602)
        #expect(bad?.data?["field"] == "transition.timing.bezier[1]")
        #expect(c.expectError("dismiss", ["id": "missing"])?.code == -32001)
        let id = try #require(try c.call("present", ["style": "popup"])["id"])
        #expect(other.expectError("dismiss", ["id": id])?.code == -32002)
        #expect(c.expectError("advance", ["seconds": 1])?.code == -32004)
        let tooLong = c.expectError("present", ["style": "popup", "transition": ["type": "zoom", "duration": 61]])
        #expect(tooLong?.data?["field"] == "transition.duration")
        // After every error the connection keeps working.
        #expect(try c.call("ping") == [:])
        #expect(try c.call("stack")["entries"]?.arrayValue?.count == 1)
    }

    @Test func limitExceeded() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        let batch =
            "[" + (0..<65).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"ping"}"# }.joined(separator: ",") + "]"
        #expect(try c.rawExchange(batch)?["error"]?["code"] == -32003)
        for _ in 0..<64 { try c.call("present", ["style": "alert", "deduplicate": false]) }
        #expect(c.expectError("present", ["style": "alert"])?.code == -32003)
    }

    @Test func aMalformedLineThenAGoodRequest() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        let reply = try c.rawExchange("\u{01}garbage")
        #expect(reply?["error"]?["code"] == -32700)
        #expect(reply?["id"] == .null)
        #expect(try c.call("ping") == [:])
    }

    @Test func batchesAnswerInOneArray() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        let replies = try c.rawExchange(
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"ping"},{"jsonrpc":"2.0","id":2,"#
            + #""method":"nope"}]"#
        )
        let items = try #require(replies?.arrayValue)
        #expect(items.count == 2)
        #expect(items[0]["id"] == 1)
        #expect(items[1]["error"]?["code"] == -32601)
        #expect(try c.rawExchange("[]")?["error"]?["code"] == -32600)
    }

    @Test func anOversizedLineIsRefusedAndTheConnectionClosed() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        let huge =
            #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""#
            + String(repeating: "x", count: (1 << 20) + 10) + "\"}}"
        let reply = try c.rawExchange(huge)
        #expect(reply?["error"]?["code"] == -32600)
        #expect(throws: ClientError.self) { try c.call("ping") }
        // Others are unaffected.
        #expect(try daemon.connect().call("ping") == [:])
    }

    @Test func syncOrdersEventsCausedBeforeIt() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let watcher = try daemon.connect(), app = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let id = try app.call("present", ["style": "popup"])["id"]
        #expect(try watcher.call("sync", ["nonce": "n1"]) == ["nonce": "n1"])
        // The willPresent caused before the sync was kept while waiting for its reply.
        let kept = watcher.notifications.compactMap { $0["params"] }
        #expect(kept.contains { $0["id"] == id && $0["event"] == "willPresent" })
    }

    @Test func manualClockIsDeterministic() throws {
        func record() throws -> [[UInt8]] {
            let daemon = try DaemonHarness(["--clock", "manual", "--fps", "30"])
            let renderer = try daemon.connect(), app = try daemon.connect()
            try renderer.call("subscribe", ["topics": ["frames", "lifecycle", "statusBar"]])
            try app.call(
                "present",
                [
                    "style": ["type": "slideIn", "direction": "left"], "statusBar": ["style": "lightContent"],
                                     "transition": ["type": "slide", "duration": 0.4, "timing": "system"]])
            try app.call("advance", ["seconds": 0.25])
            let id = try #require(try app.call("stack")["entries"]?.arrayValue?.first?["id"])
            try app.call("dismiss", ["id": id])
            try app.call("advance", ["seconds": 1])
            try app.call("sync", ["nonce": 1])
            try renderer.call("sync", ["nonce": 1])
            var lines: [[UInt8]] = []
            while let line = try renderer.readLine(timeout: 0.2) { lines.append(line) }
            return renderer.notifications.map { $0.serializedLine() } + lines
        }
        let one = try record(), two = try record()
        #expect(one.count > 20)
        #expect(one == two)
    }

    @Test func shouldDismissLetsTheOwnerVeto() throws {
        let daemon = try DaemonHarness(["--clock", "manual"], configuration: DaemonHarness.patientOwners)
        let owner = try daemon.connect(), screen = try daemon.connect()
        var allow = false
        var asked: [JSONValue] = []
        owner.answerRequest = { method, params in
            asked.append(params ?? .null)
            return ["allow": .bool(allow)]
        }
        let id = try owner.call("present", ["style": "alert", "confirmDismiss": true])["id"]
        try owner.call("advance", ["seconds": 1])
        // The owner answers requests whenever it reads: ping until it has been asked.
        try screen.sendRaw(Array(#"{"jsonrpc":"2.0","id":1,"method":"tap","params":{"x":5,"y":5}}"#.utf8) + [10])
        try waitUntil("the owner to be asked shouldDismiss") { try owner.call("ping"); return !asked.isEmpty }
        let vetoed = try JSONValue.parse(try #require(try screen.readLine()))
        #expect(vetoed["result"]?["dismissed"] == false)
        #expect(vetoed["result"]?["confirmation"] == "vetoed")
        #expect(asked.first?["id"] == id)
        #expect(asked.first?["reason"] == "tap")
        allow = true
        try screen.sendRaw(Array(#"{"jsonrpc":"2.0","id":2,"method":"tap","params":{"x":5,"y":5}}"#.utf8) + [10])
        try waitUntil("the owner to be asked again") { try owner.call("ping"); return asked.count == 2 }
        let allowed = try JSONValue.parse(try #require(try screen.readLine()))
        #expect(allowed["result"]?["dismissed"] == true)
    }

    @Test func anUnansweredShouldDismissTimesOutAndAllows() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let owner = try daemon.connect(), screen = try daemon.connect()
        try owner.call("present", ["style": "alert", "confirmDismiss": true])
        try owner.call("advance", ["seconds": 1])
        // The owner never reads, so it never answers.
        let result = try screen.call("tap", ["x": 5, "y": 5])
        #expect(result["dismissed"] == true)
        #expect(result["confirmation"] == "timeout")
    }

    @Test func aTapperThatLeavesBeforeTheOwnerAnswersIsHarmless() throws {
        let daemon = try DaemonHarness(["--clock", "manual"], configuration: DaemonHarness.patientOwners)
        let owner = try daemon.connect()
        var asked = 0
        owner.answerRequest = { _, _ in asked += 1; return ["allow": false] }
        try owner.call("present", ["style": "alert", "confirmDismiss": true])
        try owner.call("advance", ["seconds": 1])
        do {
            let screen = try daemon.connect()
            try screen.sendRaw(Array(#"{"jsonrpc":"2.0","id":1,"method":"tap","params":{"x":5,"y":5}}"#.utf8) + [10])
            try screen.sendRaw(Array(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#.utf8) + [10])
            _ = try screen.readLine()  // the ping's reply: the tap has been seen
        }  // the screen disconnects with its tap unanswered
        try waitUntil("the owner to be asked shouldDismiss") { try owner.call("ping"); return asked > 0 }
        #expect(try owner.call("stack")["entries"]?.arrayValue?.count == 1, "the owner vetoed")
        #expect(try daemon.connect().call("ping") == [:])
    }

    @Test func gesturesWaitingForAnswersAreBounded() throws {
        let daemon = try DaemonHarness(["--clock", "manual"], configuration: DaemonHarness.patientOwners)
        let owner = try daemon.connect(), screen = try daemon.connect()
        try owner.call("present", ["style": "alert", "confirmDismiss": true])
        try owner.call("advance", ["seconds": 1])
        let tap = Array(#"{"jsonrpc":"2.0","id":1,"method":"tap","params":{"x":5,"y":5}}"#.utf8) + [10]
        try screen.sendRaw(Array(repeating: tap, count: 17).flatMap { $0 })
        // The owner never reads: 16 taps wait (a minute), the 17th is refused at once, so its
        // refusal is the first line.
        let refused = try JSONValue.parse(try #require(try screen.readLine(timeout: generousTimeout)))
        #expect(refused["error"]?["code"] == -32003)
    }

    @Test func theOwnerPolicyCoversEverythingADismissalTakesAlong() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--dismiss-policy", "owner"])
        let mine = try daemon.connect(), theirs = try daemon.connect()
        let myID = try #require(try mine.call("present", ["style": "popup", "transition": ["duration": 0]])["id"])
        try theirs.call("present", ["style": "alert", "transition": ["duration": 0]])
        // Dismissing my own entry would take theirs (above it) along: refused.
        #expect(mine.expectError("dismiss", ["id": myID])?.code == -32002)
        #expect(mine.expectError("dismissAll")?.code == -32002)
        #expect(try mine.call("stack")["entries"]?.arrayValue?.count == 2, "nothing changed")
    }

    @Test func aSubscribeSnapshotAndItsSeqAgree() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect(), late = try daemon.connect()
        try app.call("present", ["style": "popup", "transition": ["duration": 0.2]])
        try app.call("advance", ["seconds": 1])
        let reply = try late.call("subscribe", ["topics": ["lifecycle", "stack"]])
        let seq = try #require(reply["seq"]?.int64Value)
        #expect(reply["snapshot"]?["entries"]?.arrayValue?.first?["state"] == "presented")
        try app.call("dismissAll")
        let next = try #require(try late.nextNotification(timeout: generousTimeout))
        #expect(next["params"]?["seq"]?.int64Value ?? 0 > seq)
    }

    @Test func aTimingTheDaemonWroteCanBeSentBack() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        try c.call("subscribe", ["topics": ["lifecycle"]])
        try c.call(
            "present",
            [
                "style": "alert",
                "transition": ["type": "zoom", "timing": ["spring": ["duration": 0.5, "dampingRatio": 0.6]]]
            ])
        let will = try #require(try c.awaitNotification("lifecycle") { $0["event"] == "willPresent" })
        let timing = try #require(will["animation"]?["timing"])
        let echoed = try c.call(
            "present", ["style": "popup", "kind": "echo", "transition": ["type": "zoom", "timing": timing]])
        #expect(echoed["state"] == "queued")
        try c.call("present", ["style": "popup", "kind": "sys", "transition": ["timing": "system"]])
        try c.call("advance", ["seconds": 3])
        let sys = try #require(
            try c.awaitNotification("lifecycle") {
                $0["event"] == "willPresent" && $0["animation"]?["timing"] == "system"
            })
        #expect(sys["animation"]?["duration"]?.doubleValue == 0.5)
    }

    @Test func aDismissTransitionWithoutATypeKeepsTheEntrysOwn() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        try c.call("subscribe", ["topics": ["lifecycle"]])
        let id = try #require(try c.call("present", ["style": "topHalf"])["id"])
        try c.call("advance", ["seconds": 1])
        try c.call("dismiss", ["id": id, "transition": ["duration": 0.2]])
        let will = try #require(try c.awaitNotification("lifecycle") { $0["event"] == "willDismiss" })
        // A top half leaves upwards (coverVerticalFromTop): its bottom edge ends at y = 0.
        let to = try #require(will["animation"]?["to"]?["frame"])
        #expect((to["y"]?.doubleValue ?? 0) + (to["height"]?.doubleValue ?? 0) == 0)
        #expect(will["animation"]?["duration"]?.doubleValue == 0.2)
    }

    @Test func aMotionEndingBetweenTicksStillGetsItsRestingFrame() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "30"])
        let renderer = try daemon.connect(), app = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames"]])
        try app.call("present", ["style": "alert", "transition": ["type": "zoom", "duration": 0.61]])
        try app.call("advance", ["seconds": 0.6])   // the last tick before the end: still moving
        try app.call("advance", ["seconds": 0.02])  // the end (0.61) falls inside, before the next tick
        try app.call("advance", ["seconds": 0.1])   // the next tick owes the resting frame
        try renderer.call("sync", ["nonce": 1])
        let frames = renderer.notifications.compactMap { $0["params"] }
        #expect(frames.last?["animating"] == false)
        #expect(frames.last?["layers"]?.arrayValue?.last?["scale"]?.doubleValue == 1)
    }
}
