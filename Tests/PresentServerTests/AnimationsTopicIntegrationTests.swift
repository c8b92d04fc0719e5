// Core Animation's render-server model against the real daemon: a renderer subscribed to
// `animations` computes every frame itself. On the manual clock, interpolating the last
// `animations` notification received before each `frame` gives that frame, to 1e-9 in
// every layer property, through swipes, rotations mid-transition, springs, the keyboard,
// updates and interrupted dismissals; and each change of course is a `retargeted` event.

import PresentClient
import PresentJSON
import PresentProtocol
@testable import PresentTestSupport
import Testing

@Suite("The animations topic")
struct AnimationsTopicIntegrationTests {
    /// The largest difference in any number between two JSON values; infinity when they
    /// differ in anything else.
    static func difference(_ a: JSONValue, _ b: JSONValue) -> Double {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            guard Set(x.keys) == Set(y.keys) else { return .infinity }
            return x.keys.map { difference(x[$0]!, y[$0]!) }.max() ?? 0
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return .infinity }
            return zip(x, y).map(difference).max() ?? 0
        default:
            if let p = a.double, let q = b.double { return abs(p - q) }
            return a == b ? 0 : .infinity
        }
    }

    @Test func aRendererThatInterpolatesTheAnimationsTopicDrawsEveryFrame() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "120"])
        let app = try daemon.connect(), shell = try daemon.connect(), renderer = try daemon.connect()
        let snapshot = try renderer.call("subscribe", ["topics": ["frames", "animations", "lifecycle"]])
        #expect(snapshot["snapshot"]?["animations"]?["layers"] == [])
        let spring: JSONValue = ["spring": ["response": 0.5, "dampingFraction": 0.7]]
        try app.call("present", ["id": "sheet", "style": "bottomHalf", "dismissOnSwipe": true,
                                 "transition": ["duration": 0.5, "timing": spring]])
        try app.call("advance", ["seconds": 0.15])
        // A rotation mid-spring, then the keyboard while it settles.
        try shell.call("setContainer", ["width": 844, "height": 390, "duration": 0.3])
        try app.call("advance", ["seconds": 0.1])
        try shell.call("keyboard", ["height": 200, "duration": 0.25])
        try app.call("advance", ["seconds": 0.8])
        // A swipe that springs back, then one that dismisses.
        try shell.call("swipe", ["phase": "began", "dx": 0, "dy": 0])
        try shell.call("swipe", ["phase": "changed", "dx": 0, "dy": 40])
        try app.call("advance", ["seconds": 0.05])
        try shell.call("swipe", ["phase": "ended", "dx": 0, "dy": 40, "vx": 0, "vy": 10])
        try app.call("advance", ["seconds": 0.1])
        try app.call("update", ["id": "sheet", "preferredContentSize": ["height": 300]])
        try app.call("advance", ["seconds": 0.6])
        // An alert presented and dismissed mid-way (interrupted), then rotated back.
        try app.call("present", ["id": "ask", "style": "alert", "transition": ["type": "zoom", "duration": 0.4]])
        try app.call("advance", ["seconds": 0.2])
        try app.call("dismiss", ["id": "ask"])
        try app.call("advance", ["seconds": 0.05])
        try shell.call("setContainer", ["width": 390, "height": 844, "duration": 0.3])
        try app.call("advance", ["seconds": 0.5])
        try shell.call("swipe", ["phase": "began", "dx": 0, "dy": 0])
        try shell.call("swipe", ["phase": "ended", "dx": 0, "dy": 300, "vx": 0, "vy": 2000])
        try app.call("advance", ["seconds": 1])
        try renderer.call("sync", ["nonce": 1])

        var motion: AnimationInterpolator?
        var frames = 0, worst = 0.0, retargets = 0, announcements = 0
        for message in renderer.notifications {
            let params = message["params"] ?? .null
            switch message["method"]?.stringValue {
            case "animations":
                motion = try AnimationInterpolator(params)
                announcements += 1
            case "lifecycle" where params["event"] == "retargeted":
                retargets += 1
                #expect(params["layers"]?.arrayValue?.isEmpty == false, "a retarget carries the entry's motion")
            case "frame":
                let time = try #require(params["time"]?.double)
                let computed = try #require(motion, "a frame before any animations notification").frame(at: time)
                let gap = Self.difference(computed["layers"]!, params["layers"]!)
                #expect(gap <= 1e-9, "frame \(params["seq"]!) at \(time): off by \(gap)")
                #expect(computed["animating"] == params["animating"], "animating at \(time)")
                worst = max(worst, gap)
                frames += 1
            default:
                break
            }
        }
        // (Fewer than the 120 per second it ticks: a renderer reading late gets the newest frame.)
        #expect(frames > 100, "the session drew \(frames) frames")
        #expect(
            retargets >= 5, "rotations, keyboard, swipe release, update and the dismissal changed course (\(retargets))"
        )
        #expect(announcements < frames / 4, "\(announcements) announcements for \(frames) frames")
        print(
            "animations topic: \(frames) frames matched by \(announcements) animations notifications, worst difference "
            + "\(worst)"
        )
    }

    @Test func nothingIsAnnouncedWhileNothingChanges() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["animations"]])
        try app.call("present", ["id": "a", "style": "alert", "transition": ["duration": 0.3]])
        try app.call("advance", ["seconds": 2])
        try app.call("ping")
        try app.call("advance", ["seconds": 2])
        try renderer.call("sync", ["nonce": 1])
        let times = renderer.notifications.filter { $0["method"] == "animations" }.compactMap {
            $0["params"]?["time"]?.double
        }
        // One when it starts, one when it comes to rest at 0.3; none after.
        #expect(times.count == 2, "\(times)")
        #expect(times.last.map { abs($0 - 0.3) < 1e-9 } == true, "\(times)")
    }
}
