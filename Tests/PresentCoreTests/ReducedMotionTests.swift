// Reduced motion: while it holds, every transition that starts is a cross-fade over no
// more than its time, no curve overshoots, motions already running keep their course, and
// a finger still moves what it drags.

import Testing
@testable import PresentCore

@Suite("Reduced motion")
struct ReducedMotionTests {
    static func content(_ stack: ModalStack, at t: Double) -> Layer? {
        stack.scene(at: t).layers.first { $0.role == .content }
    }

    @Test func aSlideBecomesACrossFadeOverTheSameTime() throws {
        var stack = ModalStack(container: phone, reducedMotion: true)
        stack.show(sheet("a", style: .alert, transition: .coverVertical, duration: 0.4), at: 0)
        let rest = stack.entries[0].restState(in: phone).frame
        for t in stride(from: 0.0, through: 0.4, by: 0.05) {
            let layer = try #require(Self.content(stack, at: t))
            #expect(layer.frame == rest, "at \(t) it stays where it rests")
            #expect(abs(layer.alpha - t / 0.4) < 1e-12, "at \(t) it fades in linearly: \(layer.alpha)")
        }
        stack.advance(to: 0.4)
        #expect(stack.entries[0].state == .presented)
        // Leaving, too.
        _ = try stack.dismiss(id: "a", at: 1)
        #expect(abs((Self.content(stack, at: 1.2)?.alpha ?? -1) - 0.5) < 1e-12)
        #expect(Self.content(stack, at: 1.2)?.frame == rest)
    }

    @Test func springsAndBeziersNeverOvershoot() {
        let bouncy = TimingCurve.spring(.swiftUI(response: 0.4, dampingFraction: 0.3))
        guard case .spring(let calm) = bouncy.withoutOvershoot, case .spring(let original) = bouncy else {
            Issue.record("a spring stays a spring"); return
        }
        #expect(calm.duration == original.duration, "over the same time")
        #expect(abs(calm.dampingRatio - 1) < 1e-12)
        #expect(stride(from: 0.0, through: calm.duration, by: 0.001).allSatisfy { calm.position(at: $0) <= 1 })
        #expect(
            stride(from: 0.0, through: original.duration, by: 0.001).contains { original.position(at: $0) > 1 },
            "it did overshoot")
        let back = TimingCurve.bezier(CubicBezier(x1: 0.3, y1: -0.5, x2: 0.6, y2: 1.6)).withoutOvershoot
        #expect(back == .bezier(CubicBezier(x1: 0.3, y1: 0, x2: 0.6, y2: 1)))
        #expect(TimingCurve.system.withoutOvershoot == .system, "UIKit's system spring never overshoots")
    }

    @Test func aMotionRunningWhenItTurnsOnKeepsItsCourseAndTheNextOneFades() throws {
        var stack = ModalStack(container: phone)
        stack.show(sheet("a", style: .alert, transition: .coverVertical, duration: 0.4), at: 0)
        let before = try #require(Self.content(stack, at: 0.3))
        stack.setReducedMotion(true, at: 0.1)
        #expect(stack.drainEvents().contains(.stackChanged))
        #expect(Self.content(stack, at: 0.3) == before, "the slide in flight is not changed")
        stack.advance(to: 1)
        stack.show(sheet("b", style: .alert, transition: .coverVertical, duration: 0.4), at: 1)
        #expect(stack.entries.last?.animation?.base.frame == stack.entries.last?.restState(in: phone).frame)
        #expect(stack.scene(at: 1.2).layers.last { $0.role == .content }.map { $0.alpha < 1 } == true, "b fades in")
        stack.setReducedMotion(false, at: 2)
        stack.show(sheet("c", style: .alert, transition: .coverVertical, duration: 0.4), at: 2)
        #expect(stack.scene(at: 2.2).layers.last { $0.role == .content }?.frame.minY ?? 0 > 400, "off again: it slides")
    }

    @Test func aFingerStillMovesWhatItDrags() {
        var stack = ModalStack(container: phone, reducedMotion: true)
        stack.show(sheet("s", style: .bottomHalf, dismissOnSwipe: true), at: 0)
        stack.advance(to: 1)
        _ = stack.swipe(.began, translation: .zero, at: 1)
        _ = stack.swipe(.changed, translation: Point(x: 0, y: 100), at: 1.1)
        #expect(abs((Self.content(stack, at: 1.1)?.frame.minY ?? 0) - (422 + 100)) < 1e-9)
    }
}
