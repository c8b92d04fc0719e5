// Sheets with detents against the real daemon, on the manual clock: the sheet rests at its
// smallest detent, a swipe flicks it to another (its owner and subscribers hear
// detentChanged, the stack names the detent, the animations topic carries the spring), an
// undimmed detent lets taps through, `update {selectedDetent}` moves it, frames carry the
// grabber, and bad detents are refused naming the field.

import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Sheets with detents, against the daemon")
struct SheetIntegrationTests {
    static let sheet: JSONValue = ["type": "sheet", "detents": ["medium", "large"], "largestUndimmedDetent": "medium",
                                   "grabber": true]

    @Test func aFlickMovesASheetBetweenDetentsAndEveryoneHearsIt() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect(), shell = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["lifecycle", "animations", "frames"]])
        try app.call("present", ["id": "s", "style": Self.sheet, "transition": ["duration": 0.2]])
        try app.call("advance", ["seconds": 1])
        let entry = try shell.call("stack")["entries"]?[0]
        #expect(entry?["detent"] == "medium")
        let container = try #require(try shell.call("hello")["container"])
        let height = try #require(container["height"]?.double)
        let medium = try #require(entry?["frame"]?["height"]?.double)
        #expect(entry?["frame"]?["y"]?.double == height - medium, "attached to the bottom edge")
        // At the undimmed detent a tap above the sheet reaches the app below, and the stack
        // says so (a renderer leaves the dimming out of its input region).
        #expect(try shell.call("tap", ["x": 5, "y": 5])["forwarded"] == true)
        #expect(entry?["interaction"] == "forward")

        try shell.call("swipe", ["phase": "began", "dx": 0, "dy": 0])
        try shell.call("swipe", ["phase": "changed", "dx": 0, "dy": -80])
        let released = try shell.call("swipe", ["phase": "ended", "dx": 0, "dy": -80, "vy": -900])
        #expect(released["outcome"] == "settled" && released["detent"] == "large" && released["id"] == "s")
        let changed = try renderer.awaitNotification("lifecycle") { $0["event"] == "detentChanged" }
        #expect(changed?["id"] == "s" && changed?["detent"] == "large")
        let spring = try renderer.awaitNotification("animations") { $0.serializedString.contains(#""spring""#) }
        #expect(spring?["layers"]?.arrayValue?.map(\.["role"]) == ["dimming", "content", "grabber"],
                "the animations topic carries the spring, for every layer a frame has")
        try app.call("advance", ["seconds": 1])
        #expect(try shell.call("stack")["entries"]?[0]?["detent"] == "large")
        #expect(try shell.call("stack")["entries"]?[0]?["interaction"] == nil, "modal above its undimmed detent")
        #expect(try shell.call("tap", ["x": 5, "y": 5])["part"] == "dimming", "above the undimmed detent it is modal")
        try renderer.call("sync", ["nonce": 1])
        let frame = renderer.notifications.last { $0["method"] == "frame" }?["params"]
        #expect(frame?["layers"]?.arrayValue?.map(\.["role"]) == ["dimming", "content", "grabber"])

        // update moves it back, animated; a detent it does not have is refused, naming the field.
        try app.call("update", ["id": "s", "selectedDetent": "medium"])
        #expect(try renderer.awaitNotification("lifecycle") { $0["event"] == "detentChanged" }?["detent"] == "medium")
        let refused = app.expectError("update", ["id": "s", "selectedDetent": "tiny"])
        #expect(refused?.data?["field"] == "selectedDetent")
        #expect(refused?.message.contains(#"its detents: "medium", "large""#) == true, "\(refused?.message ?? "")")
    }

    @Test func badSheetsAreRefusedNamingTheField() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        func field(_ style: JSONValue) -> JSONValue? { app.expectError("present", ["style": style])?.data?["field"] }
        #expect(field(["type": "sheet", "detents": []]) == "style.detents")
        #expect(field(["type": "sheet", "detents": ["small"]]) == "style.detents[0]")
        #expect(field(["type": "sheet", "detents": [["id": "a", "height": "140%"]]]) == "style.detents[0].height")
        #expect(field(["type": "sheet", "detents": [["id": "a", "height": 0]]]) == "style.detents[0].height")
        #expect(field(["type": "sheet", "detents": ["large", ["id": "large", "height": 100]]]) == "style.detents[1]")
        #expect(field(["type": "sheet", "detents": ["medium"], "selectedDetent": "large"]) == "style.selectedDetent")
        #expect(field(["type": "sheet", "largestUndimmedDetent": "medium"]) == "style.largestUndimmedDetent")
        #expect(field(["type": "sheet", "grabber": "yes"]) == "style.grabber")
        #expect(try app.call("stack")["entries"]?.arrayValue?.isEmpty == true, "nothing was presented")
        try app.call("present", ["id": "a", "style": "alert"])
        #expect(
            app.expectError("update", ["id": "a", "selectedDetent": "large"])?.message.contains("is not a sheet")
                == true)
    }

    /// A sheet on a sheet: the one under it shrinks to 0.9 with its top showing, in frames and
    /// in the animations topic, and is whole again once the top one has gone.
    @Test func aSheetUnderAnotherShrinksAndComesBack() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames", "animations"]])
        let style: JSONValue = ["type": "sheet", "detents": ["medium", "large"]]
        try app.call("present", ["id": "under", "style": style, "transition": ["duration": 0.2]])
        try app.call("advance", ["seconds": 1])
        try app.call("present", ["id": "over", "style": style, "transition": ["duration": 0.2]])
        let shrinking = try #require(try renderer.awaitNotification("animations") { payload in
            let layers = payload["layers"]?.arrayValue ?? []   // the payload of over's arrival (not under's own)
            return layers.contains { $0["id"] == "over" }
                && layers.contains { $0["id"] == "under" && $0["segments"]?.arrayValue?.isEmpty == false }
        })
        #expect(
            shrinking["layers"]?.arrayValue?.first { $0["id"] == "under" && $0["role"] == "content" }?["scale"] == 0.9,
                "the animations topic moves it to 0.9: \(shrinking)")
        try app.call("advance", ["seconds": 1])
        try renderer.call("sync", ["nonce": 1])
        func under() -> JSONValue? {
            renderer.notifications.last { $0["method"] == "frame" }?["params"]?["layers"]?.arrayValue?
                .first { $0["id"] == "under" && $0["role"] == "content" }
        }
        let medium = 393.0, top = 844 - medium
        #expect(
            under()?["scale"] == 0.9 && under()?["frame"]?["y"]?.double == top - medium * 0.1 / 2 - 10,
            "\(under() ?? nil)")
        try app.call("dismiss", ["id": "over"])
        try app.call("advance", ["seconds": 1])
        try renderer.call("sync", ["nonce": 2])
        #expect(under()?["scale"] == 1.0 && under()?["frame"]?["y"]?.double == top, "\(under() ?? nil)")
    }

    /// A dry run and explain say which detents apply, where the sheet rests and whether taps
    /// pass it; other styles have no `sheet` member.
    @Test func aDryRunAndExplainKnowTheDetents() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        let style: JSONValue = ["type": "sheet", "detents": ["medium", "large", ["id": "huge", "height": 2000]],
                                "largestUndimmedDetent": "medium"]
        let forecast = try app.call("present", ["id": "s", "style": style, "dryRun": true])
        let expected: JSONValue = [
            "detent": "medium", "detents": [["id": "medium", "height": 393.0], ["id": "large", "height": 787.0]],
            "inactive": ["huge"], "maximumHeight": 787.0, "largestUndimmedDetent": "medium",
            "passesTapsThrough": true, "takesSwipes": true]
        #expect(forecast["outcome"] == "presenting" && forecast["sheet"] == expected, "\(forecast)")
        #expect(try app.call("stack")["entries"]?.arrayValue?.isEmpty == true, "a dry run presents nothing")
        try app.call("present", ["id": "s", "style": style])
        try app.call("update", ["id": "s", "selectedDetent": "large", "duration": 0])
        let explained = try app.call("explain", ["id": "s"])
        #expect(
            explained["sheet"]?["detent"] == "large" && explained["sheet"]?["passesTapsThrough"] == false,
            "\(explained)")
        #expect(try app.call("present", ["style": "popup", "dryRun": true])["sheet"] == nil)
    }
}

extension SheetIntegrationTests {
    /// Compact height, against the daemon: medium is inactive, the sheet covers the container
    /// and shows no grabber; the daemon's explain names the inactive detent.
    @Test func inCompactHeightMediumIsInactiveAndTheSheetCoversTheScreen() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect(), renderer = try daemon.connect()
        try app.call("setContainer", ["width": 844, "height": 390, "duration": 0])
        try renderer.call("subscribe", ["topics": ["frames"]])
        try app.call("present", ["id": "s", "style": Self.sheet, "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 0.1])
        try renderer.call("sync", ["nonce": 1])
        let entry = try app.call("stack")["entries"]?[0]
        #expect(entry?["detent"] == "large", "medium is inactive in compact height")
        #expect(entry?["frame"]?["height"]?.double == 390 && entry?["frame"]?["width"]?.double == 844)
        let frame = renderer.notifications.last { $0["method"] == "frame" }?["params"]
        #expect(
            frame?["layers"]?.arrayValue?.map(\.["role"]) == ["dimming", "content"], "no grabber on a full-screen sheet"
        )
    }

    /// Overlays in the trailing corner, against the daemon: the right one, then the left one
    /// once the screen turns right to left.
    @Test func aTrailingToastSitsInTheCornerOfItsSide() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        try app.call("present", ["id": "t", "level": "overlay", "position": "trailing", "transition": ["duration": 0],
                                 "style": ["type": "custom", "width": ["points": 200], "height": ["points": 50]]])
        try app.call("advance", ["seconds": 0.1])
        let ltr = try app.call("stack")["entries"]?[0]
        #expect(ltr?["frame"]?["x"]?.double == 390 - 8 - 200 && ltr?["position"] == "trailing")
        try app.call("setContainer", ["width": 390, "height": 844, "layoutDirection": "rightToLeft", "duration": 0])
        #expect(try app.call("stack")["entries"]?[0]?["frame"]?["x"]?.double == 8)
        #expect(
            app.expectError("present", ["style": "alert", "level": "overlay", "position": "sideways"])?.data?["field"]
                == "position")
    }
}

extension SheetIntegrationTests {
    /// The remaining rules against the daemon: a drag below the smallest detent dismisses a
    /// sheet that may be swiped away; between an undimmed and a dimmed detent the dimming
    /// follows the height; under reduced motion a bouncy spring does not overshoot; on a
    /// right-to-left screen a leading panel is swiped out towards the right.
    @Test func belowTheSmallestDetentItLeavesAndTheDimmingFollowsTheHeight() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "60"])
        let app = try daemon.connect(), shell = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"]])
        try app.call("present", ["id": "s", "style": Self.sheet, "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 0.1])
        // Dragged up halfway between medium (undimmed) and large: the dimming is half the background's.
        let medium = try #require(try shell.call("stack")["entries"]?[0]?["frame"]?["height"]?.double)
        let large = 844 - 47 - 10.0
        try shell.call("swipe", ["phase": "began", "dx": 0, "dy": 0])
        try shell.call("swipe", ["phase": "changed", "dx": 0, "dy": .double(-(large - medium) / 2)])
        try app.call("advance", ["seconds": .double(1.0 / 60)])   // the next tick draws it where the finger holds it
        try renderer.call("sync", ["nonce": 1])
        let dimming = renderer.notifications.last { $0["method"] == "frame" }?["params"]?["layers"]?[0]
        #expect(dimming?["role"] == "dimming" && abs((dimming?["alpha"]?.double ?? 0) - 0.35) < 1e-9,
                "half of the background's 0.7: \(dimming?.serializedString ?? "none")")
        // Down past half the smallest detent, thrown downwards: it leaves (reason swipe).
        try shell.call("swipe", ["phase": "changed", "dx": 0, "dy": .double(medium * 0.6)])
        #expect(
            try shell.call("swipe", ["phase": "ended", "dx": 0, "dy": .double(medium * 0.6), "vy": 400])["outcome"]
                == "dismissed")
        #expect(try renderer.awaitNotification("lifecycle") { $0["event"] == "willDismiss" }?["reason"] == "swipe")
    }

    @Test func underReducedMotionABouncySpringDoesNotOvershoot() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "120", "--reduced-motion", "on"])
        let app = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames"]])
        try app.call("present", ["id": "a", "style": "alert", "transition": [
            "type": "zoom", "timing": ["spring": ["mass": 1, "stiffness": 300, "damping": 5]]]])
        try app.call("advance", ["seconds": 3])
        try renderer.call("sync", ["nonce": 1])
        let contents = renderer.notifications.filter { $0["method"] == "frame" }.compactMap {
            $0["params"]?["layers"]?.arrayValue?.last
        }
        let alphas = contents.compactMap { $0["alpha"]?.double }
        #expect(contents.allSatisfy { $0["scale"]?.double == 1 }, "no zoom: a cross-fade")
        #expect(alphas.count > 10 && alphas[0] < 0.5 && alphas.last == 1, "it fades in: \(alphas.prefix(3))")
        #expect(
            alphas.allSatisfy { $0 <= 1 },
            "the bouncy spring (damping ratio 0.14) never passes 1: \(alphas.max() ?? -1)")
    }
}
