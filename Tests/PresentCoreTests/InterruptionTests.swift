// Continuity at interruption: an operation that redirects motion (a dismissal while
// presenting, a container change, a keyboard, a preemption, a swipe's release) never
// moves anything by itself — the scene just before and just after it, at the same
// instant, differs by less than 1e-9 in every layer property — and the new motion then
// heads where it should.

import Testing
import PresentCore

let jumpTolerance = 1e-9

/// Instants in the middle of a 0.4 s presentation started at 0.
let midFlight: [Double] = [0.05, 0.1375, 0.2, 0.31]

@Suite struct InterruptionTests {
    @Test(arguments: TransitionKind.allCases, midFlight)
    func dismissingWhilePresentingReversesWithoutAJump(kind: TransitionKind, t: Double) throws {
        var stack = ModalStack()
        stack.show(sheet("a", transition: kind), at: 0)
        let (before, after) = try aroundOperation(&stack, at: t) { _ = try $0.dismiss(id: "a", at: t) }
        #expect(largestJump(before, after) < jumpTolerance)
        #expect(stack.entry(id: "a")?.state == .dismissing)

        // It heads back: the way back takes the share of the duration it had used.
        let back = try #require(stack.entry(id: "a")?.animation)
        #expect(near(back.end, 2 * t))
        #expect(back.to.dimming == 0)
        let later = stack.scene(at: t + 0.5 * t)
        let start = expectedOffscreen(kind, phase: .dismissing)
        let c0 = after.content("a")!, c1 = later.content("a")!
        #expect(abs(c1.frame.minY - start.frame.minY) <= abs(c0.frame.minY - start.frame.minY))
        #expect(abs(c1.frame.minX - start.frame.minX) <= abs(c0.frame.minX - start.frame.minX))
        #expect(later.dimming("a")!.alpha < after.dimming("a")!.alpha)
        stack.advance(to: 2 * t + 1e-9)
        #expect(stack.entries.isEmpty)
    }

    /// A retarget keeps the presentation's end time; the way back still takes the share
    /// of the whole presentation that had been used, not of the retargeted remainder.
    @Test func aReversalAfterARetargetTakesTheShareItHadUsed() throws {
        var stack = ModalStack()
        stack.show(sheet("a", style: .alert, duration: 0.4), at: 0)
        stack.setContainer(tablet, at: 0.25)
        let (before, after) = try aroundOperation(&stack, at: 0.3) { _ = try $0.dismiss(id: "a", at: 0.3) }
        #expect(largestJump(before, after) < jumpTolerance)
        let back = try #require(stack.entry(id: "a")?.animation)
        #expect(near(back.duration, 0.3))  // 0.3 of 0.4 s used
    }

    @Test(arguments: midFlight)
    func aPreemptedPresentationReversesWithoutAJump(t: Double) throws {
        var stack = ModalStack()
        stack.show(sheet("a", transition: .zoom), at: 0)
        let (before, after) = aroundOperation(&stack, at: t) {
            $0.show(sheet("b", priority: 1000, precedence: .override), at: t)
        }
        // b's layers are new on top; a's are untouched by the preemption itself.
        let a = { (s: Scene) in s.layers.filter { $0.entryID == "a" } }
        #expect(largestJump(a(before), a(after)) < jumpTolerance)
        #expect(after.entryIDs == ["a", "b"])
    }

    @Test(arguments: [0.0, 0.1, 0.25])
    func dismissingDuringARelayoutStartsFromWhereItIs(t: Double) throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.setContainer(tablet, at: 1)
        let (before, after) = try aroundOperation(&stack, at: 1 + t) { _ = try $0.dismiss(id: "a", at: 1 + t) }
        #expect(largestJump(before, after) < jumpTolerance)
    }

    // MARK: Container changes

    @Test(arguments: [Container.phonePortrait, tablet, landscape], midFlight)
    func aContainerChangeMidPresentationRetargetsWithoutAJump(to new: Container, t: Double) throws {
        var stack = ModalStack(container: landscape == new ? tablet : landscape)
        stack.show(sheet("a", style: .alert), at: 0)
        let (before, after) = aroundOperation(&stack, at: t) { $0.setContainer(new, at: t) }
        #expect(largestJump(before, after, ignoringDimmingFrames: true) < jumpTolerance)
        #expect(after.dimming("a")?.frame == new.bounds)
        // Still ending when it would have, at the new layout.
        let end = try #require(stack.entry(id: "a")?.animation?.end)
        #expect(near(end, 0.4))
        stack.advance(to: 0.4)
        #expect(stack.entry(id: "a")?.state == .presented)
        #expect(near(stack.scene(at: 0.4).content("a")!.frame, PresentationStyle.alert.frame(in: new)))
    }

    @Test(arguments: midFlight)
    func aContainerChangeMidDismissalRetargetsWithoutAJump(t: Double) throws {
        var stack = ModalStack()
        stack.show(sheet("a", style: .bottomHalf), at: 0)
        stack.advance(to: 1)
        _ = try stack.dismiss(id: "a", at: 1)
        let (before, after) = aroundOperation(&stack, at: 1 + t) { $0.setContainer(tablet, at: 1 + t) }
        #expect(largestJump(before, after, ignoringDimmingFrames: true) < jumpTolerance)
        // It now leaves through the new container's bottom edge, ending on time.
        let exit = try #require(stack.entry(id: "a")?.animation)
        #expect(near(exit.end, 1.4))
        #expect(near(exit.to.frame.minY, tablet.size.height))
        #expect(near(exit.to.frame.width, tablet.size.width))
    }

    @Test func aContainerChangeAtRestAnimatesEveryEntryToItsNewLayout() throws {
        var stack = ModalStack()
        stack.show(sheet("a", style: .popup), at: 0)
        stack.show(sheet("b", style: .bottomHalf), at: 1)
        stack.advance(to: 2)
        let (before, after) = aroundOperation(&stack, at: 2) { $0.setContainer(tablet, at: 2) }
        #expect(largestJump(before, after, ignoringDimmingFrames: true) < jumpTolerance)
        #expect(after.isAnimating)
        // The configured re-layout duration (0.3 s by default), then the new frames.
        let end = 2 + StackConfiguration.standard.containerChangeDuration
        #expect(stack.scene(at: end - 0.01).isAnimating)
        stack.advance(to: end)
        let settled = stack.scene(at: end)
        #expect(!settled.isAnimating)
        #expect(settled.content("a")?.frame == PresentationStyle.popup.frame(in: tablet))
        #expect(settled.content("b")?.frame == PresentationStyle.bottomHalf.frame(in: tablet))
        #expect(stack.entries.allSatisfy { $0.state == .presented })
    }

    @Test func aContainerChangeWithoutDurationMovesAtOnce() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        stack.setContainer(tablet, duration: 0, at: 1)
        let scene = stack.scene(at: 1)
        #expect(!scene.isAnimating)
        #expect(scene.content("a")?.frame == PresentationStyle.popup.frame(in: tablet))
    }

    @Test(arguments: [0.0, 0.1, 0.2])
    func aSecondContainerChangeDuringARelayoutRetargetsWithoutAJump(t: Double) {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.setContainer(tablet, at: 1)
        let (before, after) = aroundOperation(&stack, at: 1 + t) { $0.setContainer(landscape, at: 1 + t) }
        #expect(largestJump(before, after, ignoringDimmingFrames: true) < jumpTolerance)
        stack.advance(to: 2)
        #expect(stack.scene(at: 2).content("a")?.frame == PresentationStyle.popup.frame(in: landscape))
    }

    // MARK: Keyboard

    @Test(arguments: KeyboardAvoidance.allCases, midFlight)
    func aKeyboardMidPresentationRetargetsWithoutAJump(mode: KeyboardAvoidance, t: Double) throws {
        var stack = ModalStack()
        var p = sheet("a", style: .bottomHalf)
        p.keyboard = mode
        stack.show(p, at: 0)
        let (before, after) = aroundOperation(&stack, at: t) { $0.setKeyboard(height: 300, at: t) }
        #expect(largestJump(before, after) < jumpTolerance)
        #expect(near(try #require(stack.entry(id: "a")?.animation?.end), 0.4))
        let (b2, a2) = aroundOperation(&stack, at: 0.5) { $0.setKeyboard(height: 0, at: 0.5) }
        #expect(largestJump(b2, a2) < jumpTolerance)
        stack.advance(to: 2)
        #expect(near(stack.scene(at: 2).content("a")!.frame, PresentationStyle.bottomHalf.frame(in: phone)))
    }

    @Test(arguments: KeyboardAvoidance.allCases)
    func aKeyboardAtRestMovesWithoutAJump(mode: KeyboardAvoidance) {
        var stack = ModalStack()
        var p = sheet("a", style: .popup)
        p.keyboard = mode
        stack.show(p, at: 0)
        stack.advance(to: 1)
        let (before, after) = aroundOperation(&stack, at: 1) { $0.setKeyboard(height: 336, at: 1) }
        #expect(largestJump(before, after) < jumpTolerance)
        #expect(stack.container.keyboardHeight == 336)
    }

    @Test func theKeyboardSurvivesAContainerChange() {
        var stack = ModalStack()
        stack.setKeyboard(height: 300, at: 0)
        stack.setContainer(tablet, at: 1)
        #expect(stack.container.keyboardHeight == 300)
        #expect(stack.container.size == tablet.size)
    }
}
