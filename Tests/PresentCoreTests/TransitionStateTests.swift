// Where each transition starts and ends, presenting and dismissing, with the dimming
// layer fading alongside. Timing is linear so the halfway state is exact.

import Testing
import PresentCore

/// The popup's frame on the phone: ⌊390 − 60⌋ × ⌊0.66 · 844⌋, centred.
let popupFrame = Rect(x: 30, y: (844 - 557) / 2, width: 330, height: 557)

/// What a transition's off-screen state is, spelled out per kind for the popup on the phone.
func expectedOffscreen(_ kind: TransitionKind,
                       phase: TransitionPhase) -> (frame: Rect, alpha: Double, scale: Double, rotation: Double) {
    let f = popupFrame
    switch kind {
    case .coverVertical, .slide: return (f.offsetBy(dx: 0, dy: 844 - f.minY), 1, 1, 0)  // top edge at the bottom
    case .coverVerticalFromTop: return (f.offsetBy(dx: 0, dy: -f.maxY), 1, 1, 0)       // bottom edge at the top
    case .coverHorizontalFromLeft: return (f.offsetBy(dx: -f.maxX, dy: 0), 1, 1, 0)    // right edge at the left
    case .coverHorizontalFromRight: return (f.offsetBy(dx: 390 - f.minX, dy: 0), 1, 1, 0)
    case .crossDissolve: return (f, 0, 1, 0)
    case .flipHorizontal: return (f, 1, 1, .pi)
    case .zoom: return (f, 1, phase == .presenting ? 0.1 : 0.001, 0)
    }
}

func expectState(_ layer: Layer?, frame: Rect, alpha: Double, scale: Double, rotation: Double,
                 tolerance: Double = 1e-9, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let layer else { Issue.record("no layer", sourceLocation: sourceLocation); return }
    #expect(near(layer.frame, frame, tolerance), "frame \(layer.frame) ≠ \(frame)", sourceLocation: sourceLocation)
    #expect(near(layer.alpha, alpha, tolerance), "alpha \(layer.alpha) ≠ \(alpha)", sourceLocation: sourceLocation)
    #expect(near(layer.scale, scale, tolerance), "scale \(layer.scale) ≠ \(scale)", sourceLocation: sourceLocation)
    #expect(
        near(layer.rotation, rotation, tolerance), "rotation \(layer.rotation) ≠ \(rotation)",
        sourceLocation: sourceLocation)
}

@Suite struct TransitionStateTests {
    @Test(arguments: TransitionKind.allCases)
    func presentingStartsOffscreenAndEndsAtTheLayoutFrame(kind: TransitionKind) {
        var stack = ModalStack()
        stack.show(sheet("a", transition: kind), at: 1)
        let start = expectedOffscreen(kind, phase: .presenting)

        let first = stack.scene(at: 1)
        expectState(
            first.content("a"), frame: start.frame, alpha: start.alpha, scale: start.scale, rotation: start.rotation)
        #expect(first.dimming("a")?.alpha == 0)

        let half = stack.scene(at: 1.2)
        let mid = half.content("a")!
        #expect(near(mid.frame.minX, (start.frame.minX + popupFrame.minX) / 2))
        #expect(near(mid.frame.minY, (start.frame.minY + popupFrame.minY) / 2))
        #expect(near(mid.alpha, (start.alpha + 1) / 2))
        #expect(near(mid.scale, (start.scale + 1) / 2))
        #expect(near(mid.rotation, start.rotation / 2))
        #expect(near(half.dimming("a")!.alpha, 0.35))

        stack.advance(to: 1.4)
        #expect(stack.entry(id: "a")?.state == .presented)
        let end = stack.scene(at: 1.4)
        expectState(end.content("a"), frame: popupFrame, alpha: 1, scale: 1, rotation: 0)
        #expect(near(end.dimming("a")!.alpha, 0.7))
        #expect(!end.isAnimating)
    }

    @Test(arguments: TransitionKind.allCases)
    func dismissingStartsAtRestAndEndsOffscreen(kind: TransitionKind) throws {
        var stack = ModalStack()
        stack.show(sheet("a", transition: kind), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", at: 1)
        let end = expectedOffscreen(kind, phase: .dismissing)

        let start = stack.scene(at: 1)
        expectState(start.content("a"), frame: popupFrame, alpha: 1, scale: 1, rotation: 0)
        #expect(near(start.dimming("a")!.alpha, 0.7))

        let late = stack.scene(at: 1.4 - 1e-12)
        expectState(late.content("a"), frame: end.frame, alpha: end.alpha, scale: end.scale, rotation: end.rotation,
                    tolerance: 1e-6)
        #expect(near(late.dimming("a")!.alpha, 0, 1e-6))

        let will = try #require(stack.drainEvents().notices(.willDismiss).first)
        #expect(will.animation?.to.frame == end.frame)
        #expect(will.animation?.to.scale == end.scale)
        #expect(will.animation?.to.dimming == 0)

        stack.advance(to: 1.4)
        #expect(stack.entries.isEmpty)
        #expect(stack.scene(at: 1.4).layers.isEmpty)
    }

    @Test func zoomGrowsFromATenthAndShrinksToAThousandth() throws {
        var stack = ModalStack()
        stack.show(sheet("z", transition: .zoom, duration: 0.3), at: 0)
        let will = try #require(stack.drainEvents().notices(.willPresent).first?.animation)
        #expect(will.from.scale == 0.1 && will.to.scale == 1 && will.duration == 0.3)
        stack.advance(to: 0.3)
        _ = try stack.dismiss(id: "z", at: 0.3)
        let leave = try #require(stack.drainEvents().notices(.willDismiss).first?.animation)
        #expect(leave.from.scale == 1 && leave.to.scale == 0.001)
        // Scaling is about the centre: the drawn frame shrinks around the same midpoint.
        let drawn = leave.to.visibleFrame
        #expect(near(drawn.midX, popupFrame.midX) && near(drawn.midY, popupFrame.midY))
        #expect(near(drawn.width, popupFrame.width * 0.001))
    }

    @Test(arguments: Edge.allCases)
    func slideEntersThroughTheSlideInEdge(edge: Edge) {
        var stack = ModalStack()
        let style = PresentationStyle.slideIn(edge: edge, fraction: 2.0 / 3.0)
        stack.show(sheet("s", style: style, transition: .slide), at: 0)
        let rest = style.frame(in: phone)
        let start = stack.scene(at: 0).content("s")!.frame
        switch edge {
        case .left: #expect(near(start, rest.offsetBy(dx: -rest.maxX, dy: 0)) && near(start.maxX, 0))
        case .right: #expect(near(start, rest.offsetBy(dx: 390 - rest.minX, dy: 0)) && near(start.minX, 390))
        case .top: #expect(near(start, rest.offsetBy(dx: 0, dy: -rest.maxY)) && near(start.maxY, 0))
        case .bottom: #expect(near(start, rest.offsetBy(dx: 0, dy: 844 - rest.minY)) && near(start.minY, 844))
        }
        #expect(near(stack.scene(at: 0.4).content("s")!.frame, rest))
    }

    @Test func slideInFramesCoverTwoThirdsFromTheirEdge() {
        let left = PresentationStyle.slideIn(edge: .left, fraction: 2.0 / 3.0).frame(in: phone)
        #expect(near(left, Rect(x: 0, y: 0, width: 260, height: 844)))
        let right = PresentationStyle.slideIn(edge: .right, fraction: 2.0 / 3.0).frame(in: phone)
        #expect(near(right, Rect(x: 130, y: 0, width: 260, height: 844)))
    }

    @Test func dimmingFadesToTheBackgroundOpacity() {
        #expect(Background.standard.opacity == 0.7)
        var stack = ModalStack()
        stack.show(sheet("a", background: Background(color: .black, opacity: 1)), at: 0)
        #expect(near(stack.scene(at: 0.1).dimming("a")!.alpha, 0.25))
        #expect(near(stack.scene(at: 0.4).dimming("a")!.alpha, 1))
    }

    @Test func dismissUsesItsOwnTransition() throws {
        var stack = ModalStack()
        stack.show(sheet("a", transition: .coverVertical, dismissTransition: linear(.crossDissolve, 0.2)), at: 0)
        stack.advance(to: 0.4)
        _ = try stack.dismiss(id: "a", at: 0.4)
        let mid = stack.scene(at: 0.5).content("a")!
        #expect(near(mid.alpha, 0.5))
        #expect(near(mid.frame, popupFrame))  // a cross-dissolve does not move
        stack.advance(to: 0.61)
        #expect(stack.entries.isEmpty)
    }

    @Test func aTransitionPassedToDismissWins() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 0.4)
        _ = try stack.dismiss(id: "a", transition: linear(.coverHorizontalFromRight, 0.1), at: 0.4)
        let late = stack.scene(at: 0.5 - 1e-12).content("a")!
        #expect(near(late.frame.minX, 390, 1e-6))
        stack.advance(to: 0.5)
        #expect(stack.entries.isEmpty)
    }

    @Test func defaultTransitionsFollowPresentr() {
        let config = StackConfiguration.standard
        #expect(config.defaultTransition(for: .topHalf).kind == .coverVerticalFromTop)
        #expect(config.defaultTransition(for: .slideIn(edge: .left, fraction: 0.5)).kind == .slide)
        #expect(config.defaultTransition(for: .popup).kind == .coverVertical)
        #expect(config.defaultTransition(for: .alert).duration == 0.4)
    }
}
