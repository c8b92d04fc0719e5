// Levels, taps that pass through and presentation contexts against the real daemon, on
// the manual clock: a toast comes and goes while a modal moves, toasts stack, an alert
// blocks what is below it, a context confines its sheet and takes it along.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Levels and contexts")
struct LevelsTests {
    static let toast: JSONValue = ["type": "custom", "width": ["points": 300], "height": ["points": 50]]

    /// The content layer of `id` in a frame notification, if drawn.
    static func layer(_ frame: JSONValue?, _ id: String, _ role: String = "content") -> JSONValue? {
        frame?["params"]?["layers"]?.arrayValue?.first { $0["id"] == .string(id) && $0["role"] == .string(role) }
    }

    @Test func aToastComesAndGoesWhileAModalIsMidTransitionAndNeitherWaits() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let app = try daemon.connect(), watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        try app.call("present", ["id": "sheet", "style": "bottomHalf", "transition": ["duration": 1]])
        try app.call("advance", ["seconds": 0.2])
        let toast = try app.call("present", ["id": "saved", "level": "overlay", "style": Self.toast, "content": "Saved",
                                             "transition": ["type": "crossDissolve", "duration": 0.2]])
        #expect(toast["state"] == "presenting", "an overlay does not wait for the normal level's transition")
        try app.call("advance", ["seconds": 0.2])
        // And the modal does not wait for the toast: queued behind nothing, it goes on moving.
        #expect(try app.call("dismiss", ["id": "saved"])["dismissed"] == ["saved"])
        try app.call("advance", ["seconds": 0.3])
        try watcher.call("sync", ["nonce": 0])
        let events = watcher.notifications.compactMap(\.["params"]).map {
            "\($0["id"]!.stringValue!) \($0["event"]!.stringValue!) \(($0["time"]!.double! * 1e6).rounded() / 1e6)"
        }
        #expect(events.contains("saved didPresent 0.4"))
        #expect(events.contains("saved didDismiss 0.6"))
        #expect(!events.contains { $0.hasPrefix("sheet didPresent") }, "the sheet is still coming in")
        try app.call("advance", ["seconds": 0.5])
        try watcher.call("sync", ["nonce": 1])
        #expect(
            watcher.notifications.contains {
                $0["params"]?["id"] == "sheet" && $0["params"]?["event"] == "didPresent"
            && $0["params"]?["time"]?.double == 1 })
    }

    @Test func twoToastsStackNewestAtTheEdgeAndTheOlderMovesAside() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let app = try daemon.connect(), renderer = try daemon.connect()
        let quick: JSONValue = ["type": "crossDissolve", "duration": 0]
        try app.call(
            "present", ["id": "first", "level": "overlay", "position": "top", "style": Self.toast, "transition": quick])
        try app.call("advance", ["seconds": 0.1])
        // The safe area's top is 47: the first toast sits 8 below it, centred.
        #expect(
            try app.call("stack")["entries"]?[0]?["frame"] == ["x": 45.0, "y": 55.0, "width": 300.0, "height": 50.0])
        try renderer.call("subscribe", ["topics": ["frames"]])
        try app.call(
            "present", ["id": "second", "level": "overlay", "position": "top", "style": Self.toast, "transition": quick]
        )
        try app.call("advance", ["seconds": 0.5])
        try renderer.call("sync", ["nonce": 1])
        let frames = renderer.notifications.filter { $0["method"] == "frame" }
        let firstYs = frames.compactMap { Self.layer($0, "first")?["frame"]?["y"]?.double }
        // It glides from 55 down to 55 + 50 + 8 over the re-layout's 0.3 s; never jumps.
        #expect(firstYs.first.map { $0 > 55 && $0 < 113 } == true, "\(firstYs)")
        #expect(firstYs.last == 113)
        for (a, b) in zip(firstYs, firstYs.dropFirst()) { #expect(b >= a && b - a < 40, "\(firstYs)") }
        #expect(frames.last.flatMap { Self.layer($0, "second")?["frame"]?["y"]?.double } == 55)
        // Overlays never dim: no dimming layer.
        #expect(frames.allSatisfy { Self.layer($0, "first", "dimming") == nil })
        #expect(Self.layer(frames.last, "first")?["level"] == "overlay")
        // The newer one leaves: the older one moves back to the edge.
        try app.call("dismiss", ["id": "second", "transition": quick])
        try app.call("advance", ["seconds": 0.5])
        #expect(try app.call("stack")["entries"]?[0]?["frame"]?["y"]?.double == 55)
    }

    @Test func aForwardingDimmingLetsTheTapThroughAndAnOverlayNeverTakesTapsOutsideItself() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        try app.call("present", ["id": "toast", "level": "overlay", "style": Self.toast, "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 0.1])
        #expect(try app.call("tap", ["x": 10, "y": 700]) == ["part": "none", "dismissed": false, "forwarded": true])
        #expect(try app.call("tap", ["x": 195, "y": 80]) == ["part": "content", "dismissed": false, "id": "toast",
                                                              "role": "content", "level": "overlay"])
        try app.call(
            "present", ["id": "hint", "style": "bottomHalf", "interaction": "forward", "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 0.1])
        // Above the sheet, on its dimming: the tap falls through to the app underneath.
        #expect(try app.call("tap", ["x": 10, "y": 300]) == ["part": "none", "dismissed": false, "forwarded": true])
        let entries = try app.call("stack")["entries"]?.arrayValue ?? []
        #expect(entries.count == 2)
        // The entry says its dimming forwards, so that a renderer leaves it out of its input region;
        // an overlay has no dimming, and says nothing.
        #expect(entries.first { $0["id"] == "hint" }?["interaction"] == "forward")
        #expect(entries.first { $0["id"] == "toast" }?["interaction"] == nil)
        // absorb swallows it; the dimming still draws either way.
        try app.call(
            "present", ["id": "modal", "style": "alert", "interaction": "absorb", "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 0.1])
        #expect(try app.call("tap", ["x": 10, "y": 300]) == ["part": "dimming", "dismissed": false, "id": "modal",
                                                              "role": "dimming", "level": "normal"])
        #expect(
            app.expectError("present", ["style": "alert", "level": "overlay", "interaction": "absorb"])?.data?["field"]
                == "interaction")
        #expect(app.expectError("present", ["style": "alert", "position": "top"])?.data?["field"] == "position")
        #expect(app.expectError("present", ["style": "alert", "level": "top"])?.data?["field"] == "level")
    }

    @Test func anAlertLevelEntryBlocksTapsAndKeysToTheNormalLevel() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect(), system = try daemon.connect()
        try app.call(
            "present",
            [
                "id": "sheet", "style": "bottomHalf", "dismissOnTap": true, "transition": ["duration": 0],
                                 "content": ["actions": [["id": "close", "title": "Close", "role": "cancel"]]]])
        try system.call(
            "present",
            [
                "id": "battery", "level": "alert", "style": "alert", "dismissOnTap": false, "dismissOnEscape": false,
                                    "statusBar": ["style": "lightContent"], "transition": ["duration": 0],
                "content": ["title": "Battery low", "actions": [["id": "ok", "title": "OK", "role": "default"]]]
            ])
        try app.call("advance", ["seconds": 0.1])
        // A tap on the sheet's own content is taken by the alert's dimming, above it.
        #expect(try app.call("tap", ["x": 195, "y": 700]) == ["part": "dimming", "dismissed": false, "id": "battery",
                                                               "role": "dimming", "level": "alert"])
        #expect(try app.call("key", ["key": "escape"]) == ["handled": false, "id": "battery"])
        #expect(try app.call("stack")["entries"]?.arrayValue?.map { $0["level"] } == ["normal", "alert"])
        // The status bar is the alert's, the topmost capturing entry over all levels.
        let snapshot = try app.call("subscribe", ["topics": ["statusBar"]])["snapshot"]
        #expect(snapshot?["statusBar"]?["style"] == "lightContent")
        try app.call("key", ["key": "enter"])   // the alert's OK
        try app.call("advance", ["seconds": 1])
        #expect(
            try app.call("key", ["key": "escape"]) == [
                "handled": true, "id": "sheet", "action": "close", "dismissed": true
            ])
    }

    /// A dismissal takes along what is above on its own level only, and the dismiss policy
    /// is judged over exactly that: another client's toast or alert above does not stop
    /// an owner from dismissing its sheet, and stays.
    @Test func anOwnerDismissesItsSheetUnderAnotherClientsToastAndAlert() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--dismiss-policy", "owner"])
        let mine = try daemon.connect(), theirs = try daemon.connect()
        let instant: JSONValue = ["duration": 0]
        try mine.call("present", ["id": "sheet", "style": "bottomHalf", "transition": instant])
        try mine.call("present", ["id": "picker", "style": "topHalf", "transition": instant])
        try theirs.call("present", ["id": "toast", "level": "overlay", "style": Self.toast, "transition": instant])
        try theirs.call("present", ["id": "battery", "level": "alert", "style": "alert", "transition": instant])
        try mine.call("advance", ["seconds": 0.1])
        #expect(try mine.call("dismiss", ["id": "sheet"])["dismissed"] == ["sheet", "picker"])
        try mine.call("advance", ["seconds": 1])
        #expect(try mine.call("stack")["entries"]?.arrayValue?.map(\.["id"]) == ["toast", "battery"])
        // Theirs are still theirs.
        #expect(mine.expectError("dismiss", ["id": "toast"])?.code == -32002)
    }

    @Test func aSheetInAContextIsClippedToItAndFollowsItWithoutAJump() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let shell = try daemon.connect(), app = try daemon.connect()
        #expect(app.expectError("present", ["style": "bottomHalf", "context": "mail"])?.data?["field"] == "context")
        try shell.call("defineContext", ["name": "mail", "frame": ["x": 0, "y": 100, "width": 390, "height": 600]])
        try app.call("present", ["id": "compose", "style": "bottomHalf", "context": "mail", "interaction": "absorb",
                                 "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 0.1])
        #expect(
            try app.call("stack")["entries"]?[0]?["frame"] == ["x": 0.0, "y": 400.0, "width": 390.0, "height": 300.0])
        try shell.call("subscribe", ["topics": ["frames"]])
        // A tap outside the context falls through: its dimming covers only the context.
        #expect(try shell.call("tap", ["x": 10, "y": 50])["forwarded"] == true)
        #expect(try shell.call("tap", ["x": 10, "y": 150])["id"] == "compose")

        try shell.call(
            "defineContext", ["name": "mail", "frame": ["x": 0, "y": 200, "width": 390, "height": 400], "duration": 0.4]
        )
        try app.call("advance", ["seconds": 0.5])
        try shell.call("sync", ["nonce": 1])
        let frames = shell.notifications.filter { $0["method"] == "frame" }
        // The bottom half of 100…700, then of 200…600: 300 high, then 200, gliding.
        let heights = frames.compactMap { Self.layer($0, "compose")?["frame"]?["height"]?.double }
        #expect(heights.first.map { $0 < 300 && $0 > 260 } == true, "starts from where it was: \(heights)")
        #expect(heights.last == 200)
        for (a, b) in zip(heights, heights.dropFirst()) { #expect(b <= a, "\(heights)") }
        let last = try #require(frames.last)
        #expect(Self.layer(last, "compose")?["clip"] == ["x": 0.0, "y": 200.0, "width": 390.0, "height": 400.0])
        #expect(
            Self.layer(last, "compose", "dimming")?["frame"] == ["x": 0.0, "y": 200.0, "width": 390.0, "height": 400.0])
        #expect(
            try shell.call("stack")["contexts"] == ["mail": ["x": 0.0, "y": 200.0, "width": 390.0, "height": 400.0]])
    }

    @Test func removingAContextTakesItsEntriesWithIt() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let shell = try daemon.connect(), app = try daemon.connect()
        try app.call("subscribe", ["topics": ["lifecycle"]])
        try shell.call("defineContext", ["name": "left", "frame": ["x": 0, "y": 0, "width": 195, "height": 844]])
        try app.call("present", ["id": "a", "style": "popup", "context": "left"])
        try app.call("present", ["id": "b", "style": "alert"])   // the whole screen: it stays
        try app.call("advance", ["seconds": 1])
        #expect(try shell.call("removeContext", ["name": "left"]) == ["dismissed": ["a"]])
        let gone = try #require(
            try app.awaitNotification("lifecycle") { $0["id"] == "a" && $0["event"] == "willDismiss" })
        #expect(gone["reason"] == "contextGone")
        try app.call("advance", ["seconds": 1])
        #expect(try app.call("stack")["entries"]?.arrayValue?.map { $0["id"] } == ["b"])
        #expect(shell.expectError("removeContext", ["name": "left"])?.data?["field"] == "context")
        #expect(shell.expectError("defineContext", ["name": "x", "frame": ["x": 0, "y": 0, "width": 1, "height": 1],
                                                    "output": "cluster"])?.data?["field"] == "output")
    }

    @Test func contextsAndCountdownsComeBackAfterACrash() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--resume-grace", "30"])
        let shell = try daemon.connect(), app = try daemon.connect()
        try shell.call("defineContext", ["name": "mail", "frame": ["x": 0, "y": 100, "width": 390, "height": 600]])
        try app.call(
            "present", ["id": "compose", "style": "bottomHalf", "context": "mail", "transition": ["duration": 0]])
        try app.call("present", ["id": "saved", "level": "overlay", "style": Self.toast, "autoDismiss": ["after": 5],
                                 "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 4])
        let stateFile = daemon.directory + "/presentd-state.json"
        try waitUntil("the state file to hold the context and both entries") {
            let text = (try? String(contentsOfFile: stateFile)) ?? ""
            return text.contains("\"mail\"") && text.contains("\"saved\"") && text.contains("\"compose\"")
        }
        daemon.stop(signal: SIGKILL)
        try daemon.restart()
        let back = try daemon.connect()
        let listing = try back.call("stack")
        #expect(listing["contexts"] == ["mail": ["x": 0.0, "y": 100.0, "width": 390.0, "height": 600.0]])
        #expect(listing["entries"]?.arrayValue?.map { $0["id"] } == ["compose", "saved"])
        #expect(listing["entries"]?[0]?["frame"] == ["x": 0.0, "y": 400.0, "width": 390.0, "height": 300.0])
        // The toast had 1 s left; it comes back with its whole 5 s.
        try back.call("advance", ["seconds": 4.9])
        #expect(try back.call("stack")["entries"]?.arrayValue?.count == 2)
        try back.call("advance", ["seconds": 0.2])
        #expect(
            try back.call("stack")["entries"]?.arrayValue?.map { $0["id"] } == ["compose"], "timed out (a 0 s exit)")
    }
}
