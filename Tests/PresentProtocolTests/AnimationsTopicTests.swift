// The proof that a renderer can draw from the animations topic alone, at the core and
// protocol level on an injected clock: a renderer that only gets the motion in force — after every change and at every
// boundary, encoded, serialised, parsed back — computes at every 1/120 s tick the same
// layers as the frames of the same session, to 1e-9 in every property. The daemon's
// `animations` topic will publish exactly these payloads.

import Testing
import PresentCore
import PresentJSON
import PresentProtocol

private let tick = 1.0 / 120
private let landscape = Container(size: Size(width: 844, height: 390), scale: 3)
private let tolerance = 1e-9

/// A change at a time: the script of a session.
private struct Step: Sendable {
    var time: Double
    var name: String
    var run: @Sendable (inout ModalStack, Double) throws -> Void
}

/// The snapshot a renderer receives: encoded, serialised and parsed again.
private func received(_ stack: ModalStack, at t: Double, seq: Int) throws -> (AnimationInterpolator, bytes: Int) {
    var params = AnimationEncoding.animations(stack.animations(at: t))
    if case .object(var o) = params { o["seq"] = .int(Int64(seq)); params = .object(o) }
    let line = RPCEncoding.notification(method: "animations", params: params).serializedLine()
    let parsed = try JSONValue.parse(Array(line.dropLast()))
    return (try AnimationInterpolator(try #require(parsed["params"])), line.count)
}

/// The largest difference between two JSON values in any number; infinity when they
/// differ in anything else (keys, strings, flags, shape).
private func largestDifference(_ a: JSONValue, _ b: JSONValue) -> Double {
    switch (a, b) {
    case (.object(let x), .object(let y)):
        guard x.keys == y.keys else { return .infinity }
        return zip(x.values, y.values).map(largestDifference).max() ?? 0
    case (.array(let x), .array(let y)):
        guard x.count == y.count else { return .infinity }
        return zip(x, y).map(largestDifference).max() ?? 0
    default:
        if let p = a.doubleValue, let q = b.doubleValue { return abs(p - q) }
        return a == b ? 0 : .infinity
    }
}

private let custom = PresentationStyle.custom(CustomLayout(width: .points(260), height: .content))

private func transition(_ kind: TransitionKind, _ timing: TimingCurve, _ duration: Double = 0.4) -> Transition {
    Transition(kind: kind, duration: duration, timing: timing)
}

/// Swipes (track, release, spring-back, swipe-dismiss), rotations mid-transition,
/// springs, the keyboard, updates and interrupted dismissals, with queued entries,
/// an overlay and a full-screen entry hiding what is beneath it.
private let session: [Step] = [
    Step(time: 0, name: "present sheet (system spring, swipeable)") { s, t in
        var p = Presentation(id: "sheet", style: .bottomHalf, transition: transition(.coverVertical, .system),
                             dismissOnSwipe: true, keyboard: .moveUp)
        p.statusBar = StatusBarAppearance(style: .lightContent)
        _ = try s.present(p, owner: 1, at: t)
    },
    Step(time: 0.1, name: "rotate mid-spring") { s, t in s.setContainer(landscape, at: t) },
    Step(time: 0.17, name: "keyboard mid-spring") { s, t in s.setKeyboard(height: 200, at: t) },
    Step(time: 0.2, name: "queue an alert (crossDissolve, linear)") { s, t in
        _ = try s.present(
            Presentation(id: "alert", style: .alert, transition: transition(.crossDissolve, .linear)), owner: 1, at: t)
    },
    Step(time: 0.31, name: "rotate back mid-relayout") { s, t in s.setContainer(.phonePortrait, at: t) },
    Step(time: 0.9, name: "dismiss the alert while it presents") { s, t in _ = try s.dismiss(id: "alert", at: t) },
    Step(time: 1.0, name: "rotate mid-dismissal") { s, t in s.setContainer(landscape, at: t) },
    Step(time: 1.6, name: "keyboard down") { s, t in s.setKeyboard(height: 0, duration: 0.3, curve: .system, at: t) },
    Step(time: 1.7, name: "rotate back") { s, t in s.setContainer(.phonePortrait, at: t) },
    Step(time: 2.5, name: "swipe begins") { s, t in _ = s.swipe(.began, translation: .zero, at: t) },
    Step(time: 2.52, name: "swipe tracks") { s, t in
        #expect(s.swipe(.changed, translation: Point(x: 0, y: 40), at: t).outcome == .tracking)
    },
    Step(time: 2.55, name: "swipe tracks") { s, t in _ = s.swipe(.changed, translation: Point(x: 0, y: 120), at: t) },
    Step(time: 2.58, name: "swipe released short: spring-back") { s, t in
        #expect(
            s.swipe(.ended, translation: Point(x: 0, y: 120), velocity: Point(x: 0, y: 20), at: t).outcome == .cancelled
        )
    },
    Step(time: 2.6, name: "rotate mid-spring-back") { s, t in s.setContainer(landscape, at: t) },
    Step(time: 3.0, name: "rotate back") { s, t in s.setContainer(.phonePortrait, at: t) },
    Step(time: 3.1, name: "present a sized popup over the sheet (default ease)") { s, t in
        var p = Presentation(id: "card", preferredContentSize: PreferredContentSize(height: 120), style: custom,
                             transition: transition(.coverVertical, .easeInEaseOut, 0.5))
        p.shadow = Shadow()
        _ = try s.present(p, owner: 2, at: t)
    },
    Step(time: 3.25, name: "update its size mid-presentation") { s, t in
        _ = try s.update(id: "card", EntryUpdate(preferredContentSize: .some(PreferredContentSize(height: 300))), at: t)
    },
    Step(time: 3.3, name: "an overlay toast (zoom, SwiftUI spring)") { s, t in
        var p = Presentation(id: "toast", style: .custom(CustomLayout(width: .points(300), height: .points(60))),
                             transition: transition(.zoom, .spring(.swiftUI(response: 0.4, dampingFraction: 0.7))))
        p.level = .overlay
        _ = try s.present(p, owner: 2, at: t)
    },
    Step(time: 3.4, name: "update the card again, linear 0.3 s") { s, t in
        _ = try s.update(id: "card", EntryUpdate(preferredContentSize: .some(PreferredContentSize(height: 200)),
                                                 duration: 0.3, timing: .linear), at: t)
    },
    Step(time: 3.45, name: "interrupted dismissal of the card") { s, t in _ = try s.dismiss(id: "card", at: t) },
    Step(time: 4.0, name: "swipe begins again") { s, t in _ = s.swipe(.began, translation: .zero, at: t) },
    Step(time: 4.03, name: "swipe tracks far") { s, t in _ = s.swipe(.changed, translation: Point(x: 0, y: 300), at: t)
    },
    Step(time: 4.06, name: "swipe released past the threshold") { s, t in
        #expect(
            s.swipe(.ended, translation: Point(x: 0, y: 320), velocity: Point(x: 0, y: 900), at: t).outcome
                == .wantsDismiss)
    },
    Step(time: 4.07, name: "swipe-dismiss") { s, t in s.completeSwipe(at: t) },
    Step(time: 4.12, name: "keyboard while it leaves") { s, t in s.setKeyboard(height: 300, at: t) },
    Step(time: 4.15, name: "a full-screen entry (easeOut)") { s, t in
        _ = try s.present(
            Presentation(id: "full", style: .fullScreen, transition: transition(.coverHorizontalFromRight, .easeOut)),
                          owner: 3, at: t)
    },
    Step(time: 4.3, name: "rotate while it presents") { s, t in s.setContainer(landscape, at: t) },
    Step(time: 4.4, name: "rotate back") { s, t in s.setContainer(.phonePortrait, at: t) },
    Step(time: 4.45, name: "a sheet with detents and a grabber (system spring), queued behind it") { s, t in
        let style = SheetStyle(detents: [.medium, .large], largestUndimmedDetent: "medium", grabber: true)
        _ = try s.present(
            Presentation(
                id: "detents", style: .sheet(style), transition: transition(.coverVertical, .system),
                                       dismissOnSwipe: true), owner: 4, at: t)
    },
    Step(time: 5.08, name: "drag the sheet up") { s, t in
        _ = s.swipe(.began, translation: .zero, at: t)
        _ = s.swipe(.changed, translation: Point(x: 0, y: -100), at: t)
    },
    Step(time: 5.1, name: "flick it to large: the detent spring") { s, t in
        #expect(
            s.swipe(.ended, translation: Point(x: 0, y: -120), velocity: Point(x: 0, y: -900), at: t).detent == "large")
    },
    Step(time: 5.15, name: "update it back to medium mid-spring, linear") { s, t in
        _ = try s.update(id: "detents", EntryUpdate(selectedDetent: "medium", duration: 0.2, timing: .linear), at: t)
    },
    Step(time: 5.2, name: "rotate: the sheet covers the container, no grabber") { s, t in
        s.setContainer(landscape, at: t)
    },
    Step(time: 5.25, name: "dismiss everything") { s, t in _ = s.dismissAll(at: t) },
]

@Suite struct AnimationsTopicTests {
    @Test func aRendererInterpolatingTheSegmentsMatchesEveryFrame() throws {
        var stack = ModalStack()
        var seq = 0
        var (renderer, _) = try received(stack, at: 0, seq: seq)
        var pending = session[...]
        var worst = 0.0, ticks = 0, snapshots = 1, boundaries = 0
        var mostSegments = 0, springs = 0, carried = 0   // what the payloads had to describe
        var k = 0
        while Double(k) * tick <= 6 {
            let now = Double(k) * tick
            // The changes up to this tick, each followed by the payload it publishes; and
            // the boundaries a payload said it would expire at.
            while true {
                let nextStep = pending.first.map(\.time) ?? .infinity
                let nextBoundary = renderer.until ?? .infinity
                guard min(nextStep, nextBoundary) <= now else { break }
                let t: Double
                if nextStep <= nextBoundary {
                    let step = pending.removeFirst()
                    try step.run(&stack, step.time)
                    t = step.time
                } else {
                    t = nextBoundary
                    boundaries += 1
                }
                seq += 1
                snapshots += 1
                renderer = try received(stack, at: t, seq: seq).0
                #expect(renderer.time == t)
                let segments = stack.animations(at: t).layers.flatMap(\.segments)
                mostSegments = max(mostSegments, stack.animations(at: t).layers.map(\.segments.count).max() ?? 0)
                springs += segments.filter(\.curve.isSpring).count
                carried += segments.filter { if case .bezier = $0.curve { return true } else { return false } }.count
            }
            let frame = CoreEncoding.frame(stack.scene(at: now), seq: 0)
            var expected = try #require(frame.objectValue)
            expected["seq"] = nil
            let difference = largestDifference(.object(expected), renderer.frame(at: now))
            #expect(difference <= tolerance, "at t = \(now): \(renderer.frame(at: now)) vs \(frame)")
            worst = max(worst, difference)
            ticks += 1
            k += 1
        }
        #expect(pending.isEmpty)
        #expect(stack.scene(at: 6).layers.isEmpty)
        #expect(ticks == 721 && boundaries >= 5)
        #expect(mostSegments >= 3 && springs > 0 && carried > 0)
        print("animations topic: \(ticks) ticks, \(snapshots) payloads (\(boundaries) at boundaries), at most "
              + "\(mostSegments) segments on a layer, worst difference \(worst)")
    }

    /// The traffic of one 0.4 s transition at 120 Hz: every frame notification the frames
    /// topic sends (49: t = 0, 1/120, …, 0.4, the last one at rest), against the
    /// animations topic's two payloads (when it starts, and the boundary at its end).
    @Test func trafficOfOneTransition() throws {
        var stack = ModalStack()
        _ = try stack.present(Presentation(id: "a", style: .popup), owner: 1, at: 0)
        #expect(stack.entry(id: "a")?.animation?.end == 0.4)
        var frameBytes = 0, frames = 0
        for k in 0...48 {
            let t = Double(k) / 120
            frameBytes +=
                RPCEncoding.notification(
                    method: "frame", params: CoreEncoding.frame(stack.scene(at: t), seq: UInt64(k + 1))
                )
                .serializedLine().count
            frames += 1
        }
        let (first, startBytes) = try received(stack, at: 0, seq: 1)
        let (last, endBytes) = try received(stack, at: try #require(first.until), seq: 2)
        #expect(first.until == 0.4 && last.until == nil)
        let animationBytes = startBytes + endBytes
        print("traffic of a 0.4 s transition at 120 Hz: frames \(frames) notifications, \(frameBytes) bytes; "
              + "animations 2 notifications, \(animationBytes) bytes (\(startBytes) + \(endBytes))")
        #expect(frames == 49 && animationBytes * 10 < frameBytes)
    }

    /// What the daemon needs to know when to publish: retargets name the entries that
    /// changed course (not those that just started presenting), and the signature changes
    /// with the motion in force, not with time alone.
    @Test func retargetsAndTheSignature() throws {
        var stack = ModalStack()
        _ = try stack.present(
            Presentation(id: "a", style: .bottomHalf, transition: transition(.coverVertical, .system)),
                              owner: 7, at: 0)
        #expect(stack.drainRetargets().isEmpty)
        let signature = stack.animationsSignature
        stack.advance(to: 0.05)
        #expect(stack.animationsSignature == signature)
        stack.setContainer(landscape, at: 0.1)
        #expect(stack.animationsSignature != signature)
        let retargets = stack.drainRetargets()
        #expect(retargets.map { "\($0.id) \($0.owner) \($0.time)" } == ["a 7 0.1"])
        #expect(stack.drainRetargets().isEmpty)

        // The retargeted payload carries the entry's layers as the animations topic does.
        let snapshot = stack.animations(at: 0.1)
        let payload = AnimationEncoding.retargeted(retargets[0], in: snapshot)
        #expect(payload["event"] == "retargeted" && payload["id"] == "a" && payload["owner"] == 7)
        #expect(payload["layers"] == AnimationEncoding.animations(snapshot)["layers"])
        let renderer = try AnimationInterpolator(try JSONValue.parse(payload.serializedString))
        let until = try #require(renderer.until)
        for k in 0...60 {
            let t = 0.1 + Double(k) / 120
            guard t < until else { break }
            let frame = try #require(CoreEncoding.frame(stack.scene(at: t), seq: 0)["layers"])
            #expect(largestDifference(frame, .array(renderer.layers(at: t))) <= tolerance)
        }

        // A dismissal reverses it: a retarget too.
        _ = try stack.dismiss(id: "a", at: 0.2)
        #expect(stack.drainRetargets().map(\.id) == ["a"])
    }

    /// docs/PROTOCOL.md's worked example ("animations topic"), to the byte and the sum.
    @Test func theDocumentedExample() throws {
        var stack = ModalStack()
        _ = try stack.present(Presentation(id: "a", style: .alert), owner: 1, at: 0)
        stack.setContainer(landscape, at: 0.1)
        let json = AnimationEncoding.animations(stack.animations(at: 0.1))
        #expect(json.serializedString == #"{"time":0.1,"until":0.4,"end":0.4,"layers":["#
            + #"{"id":"a","role":"dimming","level":"normal","frame":{"x":0.0,"y":0.0,"width":844.0,"height":390.0},"#
            + ##""alpha":0.7,"scale":1.0,"rotation":0.0,"cornerRadius":0.0,"color":"#000000","##
            + #""segments":[{"start":0.0,"duration":0.4,"timing":"easeInEaseOut","from":{"alpha":-0.7}}]},"#
                + #"{"id":"a","role":"content","level":"normal","frame":{"x":287.0,"y":105.0,"width":270.0,"#
                + #""height":180.0},"#
            + #""alpha":1.0,"scale":1.0,"rotation":0.0,"cornerRadius":4.0,"contentRevision":1,"#
            + #""segments":[{"start":0.0,"duration":0.4,"timing":"easeInEaseOut","from":{"frame":{"y":512.0}}},"#
                + #"{"start":0.1,"duration":0.30000000000000004,"timing":"easeInEaseOut","from":{"frame":{"x":-227.0,"#
                + #""y":227.0}}}]}]}"#
        )
        let p1 = TimingCurve.easeInEaseOut.progress(at: 0.25, duration: 0.4)
        let p2 = TimingCurve.easeInEaseOut.progress(at: 0.25 - 0.1, duration: 0.30000000000000004)
        #expect(p1 == 0.7072291976232149 && p2 == 0.4999999999999998)
        #expect(512 + p1 * (0 - 512) == 149.89865081691397 && -227 + p2 * (0 - -227) == -113.50000000000006)
        let layers = try AnimationInterpolator(try JSONValue.parse(json.serializedString)).layers(at: 0.25)
        #expect(layers[1]["frame"] == ["x": 173.49999999999994, "y": 368.398650816914, "width": 270.0, "height": 180.0])
        #expect(layers[0]["alpha"] == 0.4950604383362504)
        #expect(JSONValue.array(layers) == CoreEncoding.frame(stack.scene(at: 0.25), seq: 0)["layers"])
    }

    @Test func theEncodingOfASegment() throws {
        var stack = ModalStack()
        _ = try stack.present(Presentation(id: "a", style: .alert), owner: 1, at: 0)
        let json = AnimationEncoding.animations(stack.animations(at: 0))
        let layers = try #require(json["layers"]?.arrayValue)
        #expect(json["until"] == 0.4 && json["end"] == 0.4 && layers.count == 2)
        #expect(
            layers[0]["segments"] == [
                ["start": 0.0, "duration": 0.4, "timing": "easeInEaseOut", "from": ["alpha": -0.7]]
            ])
        #expect(layers[1]["segments"] == [["start": 0.0, "duration": 0.4, "timing": "easeInEaseOut",
                                            "from": ["frame": ["y": 512.0]]]])
        #expect(layers[1]["frame"] == CoreEncoding.rect(PresentationStyle.alert.frame(in: .phonePortrait)))
    }
}
