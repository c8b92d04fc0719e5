// Velocity continuity at every retarget: a retarget adds a segment on top of
// the motion in force instead of replacing it, so neither the position nor any
// property's own velocity jumps at the retarget instant, and the motion still ends
// exactly at its target.
//
// Velocities are measured on the injected clock, from the scenes alone: one-sided
// second-order differences, (3f(t) − 4f(t−h) + f(t−2h)) / 2h from the stack before the
// operation and (−3f(t) + 4f(t+h) − f(t+2h)) / 2h after it, with h = 50 µs. Their error
// is about h²/3 times the third derivative (under 0.005 /s for the stiffest spring here)
// plus rounding (about 1e-5 /s), so `velocityTolerance` is 0.01 per second in every
// property (points/s for frames, 1/s for alpha and scale, rad/s for rotation). The
// projection the stack used before made jumps of tens to thousands of points/s.

import Testing
@testable import PresentCore

let velocityTolerance = 0.01
private let h = 5e-5

/// Every animated property of a scene, layer by layer: a content layer's frame (x, y,
/// width, height), alpha, scale and rotation; a dimming layer's alpha (its frame is the
/// container's or its context's, not animated).
func animatedProperties(_ s: Scene) -> [Double] {
    s.layers.flatMap { l in
        l.role == .dimming ? [l.alpha]
            : [l.frame.minX, l.frame.minY, l.frame.width, l.frame.height, l.alpha, l.scale, l.rotation]
    }
}

/// Each property's velocity just before t, from a stack that has not caught up past t − 2h.
func velocityBefore(_ stack: ModalStack, at t: Double) -> [Double] {
    let (a, b, c) = (animatedProperties(stack.scene(at: t)), animatedProperties(stack.scene(at: t - h)),
                     animatedProperties(stack.scene(at: t - 2 * h)))
    return a.indices.map { (3 * a[$0] - 4 * b[$0] + c[$0]) / (2 * h) }
}

/// Each property's velocity just after t.
func velocityAfter(_ stack: ModalStack, at t: Double) -> [Double] {
    let (a, b, c) = (animatedProperties(stack.scene(at: t)), animatedProperties(stack.scene(at: t + h)),
                     animatedProperties(stack.scene(at: t + 2 * h)))
    return a.indices.map { (-3 * a[$0] + 4 * b[$0] - c[$0]) / (2 * h) }
}

/// What `operation` at t does to the picture: the largest jump of any property's value
/// (dimming frames, which follow the container at once, left out) and of its velocity;
/// and the fastest any property moved just before it, to show the case is not trivial.
struct RetargetJumps {
    var valueJump: Double
    var velocityJump: Double
    var speedBefore: Double
}

func retarget(_ stack: inout ModalStack, at t: Double,
              _ operation: (inout ModalStack) throws -> Void) rethrows -> RetargetJumps {
    let vBefore = velocityBefore(stack, at: t)
    let (before, after) = try aroundOperation(&stack, at: t, operation)
    let vAfter = velocityAfter(stack, at: t)
    guard vBefore.count == vAfter.count else {
        return RetargetJumps(valueJump: .infinity, velocityJump: .infinity, speedBefore: 0)
    }
    return RetargetJumps(valueJump: largestJump(before, after, ignoringDimmingFrames: true),
                    velocityJump: zip(vBefore, vAfter).map { abs($0 - $1) }.max() ?? 0,
                    speedBefore: vBefore.map(abs).max() ?? 0)
}

/// The entry's motion ends exactly at its target, and the target is where it belongs.
func expectEndsExactlyAtTarget(_ stack: ModalStack, _ id: String, at target: VisualState,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
    let m = try #require(stack.entry(id: id)?.animation, sourceLocation: sourceLocation)
    #expect(m.value(at: m.end) == m.to, sourceLocation: sourceLocation)
    #expect(m.to == target, sourceLocation: sourceLocation)
    #expect(m.segments.allSatisfy { $0.to == VisualState.zeroOffset }, sourceLocation: sourceLocation)
}

/// The curves a transition runs with here: a Bézier with a velocity of its own at the
/// start (linear), the default ease, UIKit's system spring and a bouncy SwiftUI spring.
let retargetCurves: [TimingCurve] = [
    .linear, .easeInEaseOut, .system, .spring(.swiftUI(response: 0.45, dampingFraction: 0.6))
]

func presentation(_ id: String, style: PresentationStyle = .alert, kind: TransitionKind = .coverVertical,
                  timing: TimingCurve, keyboard: KeyboardAvoidance = .none) -> Presentation {
    var p = Presentation(id: id, style: style, transition: Transition(kind: kind, duration: 0.4, timing: timing))
    p.keyboard = keyboard
    return p
}

@Suite struct VelocityContinuityTests {
    // MARK: Rotations

    @Test(arguments: retargetCurves, midFlight)
    func aRotationMidPresentationKeepsEveryVelocity(curve: TimingCurve, t: Double) throws {
        var stack = ModalStack()
        stack.show(presentation("a", style: .bottomHalf, timing: curve), at: 0)
        let r = retarget(&stack, at: t) { $0.setContainer(landscape, at: t) }
        #expect(r.valueJump < jumpTolerance)
        #expect(r.velocityJump < velocityTolerance, "speed before \(r.speedBefore)")
        #expect(r.speedBefore > 10)
        let a = try #require(stack.entry(id: "a"))
        try expectEndsExactlyAtTarget(stack, "a", at: a.restState(in: landscape))
        let end = try #require(a.animation?.end)
        stack.advance(to: end)
        #expect(stack.entry(id: "a")?.state == .presented)
        #expect(stack.scene(at: end).content("a")?.frame == a.restState(in: landscape).frame)
    }

    /// The issue's own case: a rotation hits the system spring mid-flight. The projected
    /// velocity made y jump from about −1265 to −239 pt/s and width from 0 to +443 pt/s.
    @Test func theIssuesRotationHittingASpring() throws {
        var stack = ModalStack()
        stack.show(presentation("a", style: .popup, timing: .system), at: 0)
        let vy = velocityBefore(stack, at: 0.1)[2]   // dimming alpha, then content x, y
        #expect(abs(vy) > 100)
        // What the projection made of it: one spring from here to the new target, its
        // initial velocity the old velocity projected on the way there.
        let old = try #require(stack.entry(id: "a")?.animation)
        let target = try #require(stack.entry(id: "a")).restState(in: landscape)
        let here = old.value(at: 0.1)
        let v0 = old.velocity(at: 0.1).projected(from: here, to: target)
        let projected = zip(target.components, here.components).map { ($0 - $1) * v0 }
        #expect(abs(projected[1] - vy) > 100)   // y jumped
        let r = retarget(&stack, at: 0.1) { $0.setContainer(landscape, at: 0.1) }
        #expect(r.valueJump < jumpTolerance && r.velocityJump < velocityTolerance)
        let after = velocityAfter(stack, at: 0.1)
        #expect(abs(after[2] - vy) < velocityTolerance)
        print("a rotation at 0.1 s into the system spring: y \(vy) → \(after[2]) pt/s, width 0 → \(after[3]) pt/s "
              + "(the projection: y → \(projected[1]), width → \(projected[2]))")
    }

    @Test(arguments: [0.05, 0.15, 0.25])
    func aRotationMidRelayoutAndMidDismissalKeepsEveryVelocity(t: Double) throws {
        var stack = ModalStack()
        stack.show(presentation("a", style: .bottomHalf, timing: .easeInEaseOut), at: 0)
        stack.setContainer(tablet, at: 1)
        let relayout = retarget(&stack, at: 1 + t) { $0.setContainer(landscape, at: 1 + t) }
        #expect(relayout.valueJump < jumpTolerance && relayout.velocityJump < velocityTolerance)
        #expect(relayout.speedBefore > 10)
        try expectEndsExactlyAtTarget(stack, "a", at: try #require(stack.entry(id: "a")).restState(in: landscape))

        _ = try stack.dismiss(id: "a", at: 3)
        let leaving = retarget(&stack, at: 3 + t) { $0.setContainer(phone, at: 3 + t) }
        #expect(leaving.valueJump < jumpTolerance && leaving.velocityJump < velocityTolerance)
        let m = try #require(stack.entry(id: "a")?.animation)
        #expect(near(m.end, 3.4))
        #expect(m.value(at: m.end) == m.to && near(m.to.frame.minY, phone.size.height))
    }

    // MARK: Keyboard

    @Test(arguments: [KeyboardAvoidance.moveUp, .stickToTop, .compress], midFlight)
    func aKeyboardMidTransitionKeepsEveryVelocity(mode: KeyboardAvoidance, t: Double) throws {
        var stack = ModalStack()
        stack.show(presentation("a", style: .bottomHalf, timing: .linear, keyboard: mode), at: 0)
        let up = retarget(&stack, at: t) { $0.setKeyboard(height: 300, at: t) }
        #expect(up.valueJump < jumpTolerance && up.velocityJump < velocityTolerance)
        try expectEndsExactlyAtTarget(stack, "a", at: try #require(stack.entry(id: "a")).restState(in: stack.container))
        #expect(near(try #require(stack.entry(id: "a")?.animation?.end), 0.4))

        // The keyboard goes down while the entry leaves.
        _ = try stack.dismiss(id: "a", at: 2)
        let down = retarget(&stack, at: 2 + t) { $0.setKeyboard(height: 0, duration: 0.25, curve: .system, at: 2 + t) }
        #expect(down.valueJump < jumpTolerance && down.velocityJump < velocityTolerance)
        #expect(down.speedBefore > 10)
    }

    /// A keyboard bouncing up and down faster than anything settles: the segments stay
    /// bounded, nothing jumps, and the entry still ends at its place.
    @Test func aKeyboardTogglingFastKeepsTheSegmentsBounded() throws {
        var stack = ModalStack()
        stack.show(presentation("a", style: .popup, timing: .system, keyboard: .moveUp), at: 0)
        var t = 0.01
        for k in 0..<60 {
            let r = retarget(&stack, at: t) { $0.setKeyboard(height: k % 2 == 0 ? 300 : 120, duration: 0.3, at: t) }
            #expect(r.valueJump < jumpTolerance)
            #expect(try #require(stack.entry(id: "a")?.animation).segments.count <= Motion.maxSegments)
            t += 0.007
        }
        let a = try #require(stack.entry(id: "a"))
        try expectEndsExactlyAtTarget(stack, "a", at: a.restState(in: stack.container))
        stack.advance(to: t + 1)
        #expect(stack.scene(at: t + 1).content("a")?.frame == a.restState(in: stack.container).frame)
    }

    /// Retargets wait for the daemon to drain them, once per entry, however many happen.
    @Test func pendingRetargetsStayBoundedWithoutADrain() throws {
        var stack = ModalStack()
        stack.show(presentation("a", style: .popup, timing: .easeInEaseOut, keyboard: .moveUp), at: 0)
        for k in 0..<500 { stack.setKeyboard(height: Double(100 + k % 300), at: 1 + Double(k) / 100) }
        #expect(stack.retargets.count == 1)
        #expect(stack.drainRetargets().map(\.id) == ["a"] && stack.retargets.isEmpty)
    }

    // MARK: Update

    @Test(arguments: retargetCurves, midFlight)
    func anUpdateMidPresentationKeepsEveryVelocity(curve: TimingCurve, t: Double) throws {
        let style = PresentationStyle.custom(CustomLayout(width: .points(200), height: .content))
        var stack = ModalStack()
        var p = presentation("a", style: style, timing: curve)
        p.preferredContentSize = PreferredContentSize(height: 100)
        stack.show(p, at: 0)
        let r = try retarget(&stack, at: t) {
            try $0.update(
                id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(width: 300, height: 320))), at: t)
        }
        #expect(r.valueJump < jumpTolerance && r.velocityJump < velocityTolerance)
        let a = try #require(stack.entry(id: "a"))
        try expectEndsExactlyAtTarget(stack, "a", at: a.restState(in: phone))
        #expect(a.restState(in: phone).frame.height == 320)
    }

    @Test func anUpdateMidRelayoutKeepsEveryVelocity() throws {
        let style = PresentationStyle.custom(CustomLayout(width: .points(200), height: .content))
        var stack = ModalStack()
        var p = presentation("a", style: style, timing: .linear)
        p.preferredContentSize = PreferredContentSize(height: 100)
        stack.show(p, at: 0)
        stack.setContainer(tablet, at: 1)
        let r = try retarget(&stack, at: 1.1) {
            try $0.update(id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(height: 400)),
                                               duration: 0.5, timing: .linear), at: 1.1)
        }
        #expect(r.valueJump < jumpTolerance && r.velocityJump < velocityTolerance)
        #expect(r.speedBefore > 10)
        try expectEndsExactlyAtTarget(stack, "a", at: try #require(stack.entry(id: "a")).restState(in: tablet))
    }

    // MARK: Swipes

    @Test(arguments: [0.0, 80.0, -60.0])
    func aReleaseIntoSpringBackKeepsEveryVelocity(dy: Double) throws {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, dy, at: 1.05)
        let r = retarget(&stack, at: 1.1) { #expect($0.drag(.ended, 0, dy, vy: 10, at: 1.1).outcome == .cancelled) }
        #expect(r.valueJump < jumpTolerance && r.velocityJump < velocityTolerance)
        try expectEndsExactlyAtTarget(stack, "s", at: try #require(stack.entry(id: "s")).restState(in: phone))

        // A rotation during the spring-back retargets it.
        guard dy != 0 else { return }
        let rotated = retarget(&stack, at: 1.11) { $0.setContainer(tablet, at: 1.11) }
        #expect(rotated.valueJump < jumpTolerance && rotated.velocityJump < velocityTolerance)
        #expect(rotated.speedBefore > 10)
        try expectEndsExactlyAtTarget(stack, "s", at: try #require(stack.entry(id: "s")).restState(in: tablet))
    }

    @Test func aReleaseIntoDismissalKeepsEveryVelocity() throws {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, 250, at: 1.05)
        let released = retarget(&stack, at: 1.1) {
            #expect($0.drag(.ended, 0, 250, vy: 50, at: 1.1).outcome == .wantsDismiss)
        }
        #expect(released.valueJump < jumpTolerance && released.velocityJump < velocityTolerance)
        let leaving = retarget(&stack, at: 1.12) { $0.completeSwipe(at: 1.12) }
        #expect(leaving.valueJump < jumpTolerance && leaving.velocityJump < velocityTolerance)
        let m = try #require(stack.entry(id: "s")?.animation)
        #expect(m.value(at: m.end) == m.to && m.to.frame.minY == phone.size.height && m.to.dimming == 0)

        // A keyboard while it leaves: nothing to avoid, the exit goes on untouched.
        let keyboard = retarget(&stack, at: 1.2) { $0.setKeyboard(height: 300, at: 1.2) }
        #expect(keyboard.valueJump < jumpTolerance && keyboard.velocityJump < velocityTolerance)
    }

    // MARK: Interrupted dismissals

    @Test(arguments: TransitionKind.allCases, [TimingCurve.linear, .easeInEaseOut, .system])
    func aDismissalWhilePresentingKeepsEveryVelocity(kind: TransitionKind, curve: TimingCurve) throws {
        for t in midFlight {
            var stack = ModalStack()
            stack.show(presentation("a", style: .popup, kind: kind, timing: curve), at: 0)
            let r = try retarget(&stack, at: t) { _ = try $0.dismiss(id: "a", at: t) }
            #expect(r.valueJump < jumpTolerance && r.velocityJump < velocityTolerance, "\(kind) \(curve.name) at \(t)")
            let m = try #require(stack.entry(id: "a")?.animation)
            #expect(m.value(at: m.end) == m.to)
            // It still takes the share of its dismissal it had used, and no segment runs longer.
            let whole = curve.effectiveDuration(0.4)
            #expect(near(m.end, t + curve.effectiveDuration(0.4 * (1 - (whole - t) / whole)), 1e-12))
            // On the way back nothing leaves its range: alpha in 0…1, scale positive.
            for k in 0...50 {
                let s = stack.scene(at: t + (m.end - t) * Double(k) / 50)
                guard let c = s.content("a") else { continue }
                #expect(c.alpha >= -1e-12 && c.alpha <= 1 + 1e-12 && c.scale > 0, "\(kind) \(curve.name) at \(t): \(c)")
                #expect((s.dimming("a")?.alpha ?? 0) >= -1e-12)
            }
        }
    }

    @Test(arguments: [0.05, 0.2])
    func aDismissalMidRelayoutKeepsEveryVelocity(t: Double) throws {
        var stack = ModalStack()
        stack.show(presentation("a", style: .bottomHalf, timing: .easeInEaseOut), at: 0)
        stack.setContainer(tablet, at: 1)
        let r = try retarget(&stack, at: 1 + t) { _ = try $0.dismiss(id: "a", at: 1 + t) }
        #expect(r.valueJump < jumpTolerance && r.velocityJump < velocityTolerance)
        #expect(r.speedBefore > 10)
        let m = try #require(stack.entry(id: "a")?.animation)
        #expect(m.value(at: m.end) == m.to && m.to.frame.minY == tablet.size.height)
    }

    // MARK: The arithmetic

    /// A retarget adds one segment (the old target minus the new one, animating to zero)
    /// and keeps the old segment as it was.
    @Test func aRetargetAddsTheDifferenceOfTheTargetsOnTop() throws {
        let from = VisualState(frame: Rect(x: 0, y: 844, width: 390, height: 422))
        let old = VisualState(frame: Rect(x: 0, y: 422, width: 390, height: 422))
        let new = VisualState(frame: Rect(x: 0, y: 195, width: 844, height: 195))
        let m = Motion(Animation(from: from, to: old, start: 0, duration: 0.4, curve: .easeInEaseOut))
        let r = m.retargeted(to: new, at: 0.1, duration: 0.3, curve: .easeInEaseOut)
        #expect(r.segments.count == 2 && r.segments[0] == m.segments[0])
        #expect(r.segments[1].from == old - new && r.segments[1].to == .zeroOffset && r.segments[1].start == 0.1)
        #expect(r.base == new && r.end == 0.4)
        #expect(r.value(at: 0.1).distance(to: m.value(at: 0.1)) < 1e-12)
        #expect(r.velocity(at: 0.1) == m.velocity(at: 0.1))   // the new segment starts at rest
        #expect(r.value(at: 0.4) == new)
        // A second, shorter retarget retimes what would outlast it.
        let s = r.retargeted(to: old, at: 0.2, duration: 0.1, curve: .easeInEaseOut)
        #expect(near(s.end, 0.3))
        #expect(s.value(at: 0.2).distance(to: r.value(at: 0.2)) < 1e-9)
        #expect(s.segments.allSatisfy { $0.end <= s.end })
    }

    @Test func curvesStartingAtRest() {
        #expect(TimingCurve.linear.startingAtRest == .easeInEaseOut)
        #expect(TimingCurve.easeOut.startingAtRest == .easeInEaseOut)
        #expect(TimingCurve.easeIn.startingAtRest == .easeIn)
        #expect(TimingCurve.easeInEaseOut.startingAtRest == .easeInEaseOut)
        let moving = Spring(mass: 1, stiffness: 200, damping: 20, initialVelocity: 3, duration: 0.6)
        #expect(TimingCurve.spring(moving).startingAtRest == .spring(moving.withInitialVelocity(0)))
        let carried = TimingCurve.easeInEaseOut.carrying(velocity: 2, over: 0.5)
        #expect(abs(carried.velocity(at: 0, duration: 0.5) - 2) < 1e-12)
        #expect(carried.progress(at: 0.5, duration: 0.5) == 1)
    }
}
