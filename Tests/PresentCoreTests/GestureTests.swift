// Touches. A tap resolves to the entry it lands on — content or dimming — and says
// whether it dismisses; the topmost entry that is not leaving takes every tap. A swipe
// drags the top entry out (linear while dragging, rubber-banded against the way out)
// and on release completes or cancels by distance and velocity.

import Testing
import PresentCore

/// The bottom half on the phone: (0, 422, 390, 422); a swipe has 422 pt to go.
let bottomHalfFrame = Rect(x: 0, y: 422, width: 390, height: 422)

/// A stack with a swipeable bottom half presented and at rest at t = 1.
func swipeable(style: PresentationStyle = .bottomHalf, transition: TransitionKind = .coverVertical,
               dismissOnSwipe: Bool = true) -> ModalStack {
    var stack = ModalStack()
    stack.show(sheet("s", style: style, transition: transition, dismissOnSwipe: dismissOnSwipe), at: 0)
    stack.advance(to: 1)
    _ = stack.drainEvents()
    return stack
}

extension ModalStack {
    @discardableResult
    mutating func drag(_ phase: SwipePhase, _ dx: Double, _ dy: Double, vx: Double = 0, vy: Double = 0,
                       at t: Double) -> SwipeResult {
        swipe(phase, translation: Point(x: dx, y: dy), velocity: Point(x: vx, y: vy), at: t)
    }
}

@Suite struct HitTestTests {
    @Test(arguments: [true, false])
    func aTapOnTheDimmingDismissesOnlyWhenAsked(dismissOnTap: Bool) {
        var stack = ModalStack()
        stack.show(sheet("a", style: .alert, dismissOnTap: dismissOnTap), at: 0)
        stack.advance(to: 1)
        let outside = stack.hitTest(Point(x: 10, y: 10), at: 1)
        #expect(outside.summary == "a dimming dismisses=\(dismissOnTap)")
        let inside = stack.hitTest(Point(x: 195, y: 422), at: 1)
        #expect(inside.summary == "a content dismisses=false")
    }

    /// A dialog is answered by one of its actions: a tap beside it leaves it alone unless the
    /// presenter asked for dismissOnTap; an entry without actions is tapped away by default.
    @Test(
        arguments: [(nil, true, false), (nil, false, true), (true, true, true), (false, false, false)]
            as [(Bool?, Bool, Bool)])
    func whetherATapDismissesByDefaultDependsOnActions(dismissOnTap: Bool?, withActions: Bool, dismisses: Bool) {
        var stack = ModalStack()
        let content = withActions ? Content(title: "Delete?", actions: [ContentAction(id: "ok", title: "OK")]) : nil
        stack.show(sheet("a", style: .alert, dismissOnTap: dismissOnTap, content: content), at: 0)
        stack.advance(to: 1)
        #expect(stack.hitTest(Point(x: 10, y: 10), at: 1).summary == "a dimming dismisses=\(dismisses)")
    }

    /// The default follows the content in force: an update that adds actions stops taps
    /// dismissing the entry, and one that takes them away lets them again.
    @Test func theDefaultFollowsAnUpdatesActions() throws {
        var stack = ModalStack()
        stack.show(sheet("a", style: .alert), at: 0)
        stack.advance(to: 1)
        #expect(stack.hitTest(Point(x: 10, y: 10), at: 1).summary == "a dimming dismisses=true")
        try stack.update(
            id: "a", EntryUpdate(content: .some(Content(actions: [ContentAction(id: "ok", title: "OK")]))), at: 1)
        #expect(stack.hitTest(Point(x: 10, y: 10), at: 1).summary == "a dimming dismisses=false")
        try stack.update(id: "a", EntryUpdate(content: .some(nil)), at: 1)
        #expect(stack.hitTest(Point(x: 10, y: 10), at: 1).summary == "a dimming dismisses=true")
    }

    @Test func contentEdgesAreHalfOpen() {
        var stack = ModalStack()
        stack.show(sheet("a", style: .alert), at: 0)
        let f = PresentationStyle.alert.frame(in: phone)  // (60, 332, 270, 180)
        #expect(stack.hitTest(Point(x: f.minX, y: f.minY), at: 1).part == .content)
        #expect(stack.hitTest(Point(x: f.maxX, y: f.midY), at: 1).part == .dimming)
        #expect(stack.hitTest(Point(x: f.midX, y: f.maxY), at: 1).part == .dimming)
        #expect(stack.hitTest(Point(x: f.minX - 0.001, y: f.midY), at: 1).part == .dimming)
    }

    @Test func theTopmostEntryTakesEveryTapEvenOverAnotherEntrysContent() throws {
        var stack = ModalStack()
        stack.show(sheet("a", style: .popup), at: 0)
        stack.show(sheet("b", style: .alert, dismissOnTap: false), at: 1)
        stack.advance(to: 2)
        let onA = Point(x: 40, y: 160)  // inside the popup, outside the alert
        #expect(stack.hitTest(onA, at: 2).summary == "b dimming dismisses=false")
        _ = try stack.dismiss(id: "b", at: 2)
        // A leaving entry takes no taps: the one below does, while b is still on screen.
        #expect(stack.hitTest(onA, at: 2.1).summary == "a content dismisses=false")
        #expect(stack.hitTest(Point(x: 5, y: 5), at: 2.1).summary == "a dimming dismisses=true")
    }

    @Test func nothingIsHitOnAnEmptyOrLeavingStack() throws {
        var stack = ModalStack()
        #expect(stack.hitTest(Point(x: 100, y: 100), at: 0) == .forwarded)
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        _ = try stack.dismiss(id: "a", at: 1)
        #expect(stack.hitTest(Point(x: 195, y: 422), at: 1.1) == .forwarded)
    }

    @Test func aTapFollowsTheContentWhileItMoves() {
        var stack = ModalStack()
        stack.show(sheet("a", style: .popup), at: 0)
        let centre = Point(x: popupFrame.midX, y: popupFrame.midY)
        #expect(stack.hitTest(centre, at: 0).part == .dimming)  // still below the screen
        #expect(stack.hitTest(centre, at: 0.4).part == .content)
    }

    @Test func aTapUsesTheDrawnFrameOfAZoom() {
        var stack = ModalStack()
        stack.show(sheet("z", style: .popup, transition: .zoom), at: 0)
        // At t = 0 the popup is drawn at a tenth of its size about its centre.
        let nearCorner = Point(x: popupFrame.minX + 10, y: popupFrame.minY + 10)
        #expect(stack.hitTest(nearCorner, at: 0).part == .dimming)
        #expect(stack.hitTest(Point(x: popupFrame.midX, y: popupFrame.midY), at: 0).part == .content)
        #expect(stack.hitTest(nearCorner, at: 0.4).part == .content)
    }
}

@Suite struct GestureTests {
    @Test func aSwipeIsIgnoredUnlessTheTopEntryTakesSwipesAndIsPresented() {
        var off = swipeable(dismissOnSwipe: false)
        #expect(off.drag(.began, 0, 0, at: 1).outcome == .ignored)
        #expect(off.drag(.changed, 0, 100, at: 1.1).outcome == .ignored)
        #expect(off.scene(at: 1.1).content("s")?.frame == bottomHalfFrame)

        var empty = ModalStack()
        #expect(empty.drag(.began, 0, 0, at: 0).outcome == .ignored)

        var presenting = ModalStack()
        presenting.show(sheet("s", style: .bottomHalf, dismissOnSwipe: true), at: 0)
        #expect(presenting.drag(.began, 0, 0, at: 0.1).outcome == .ignored)
    }

    @Test func theEntryFollowsTheFingerLinearlyAlongTheWayOut() {
        var stack = swipeable()
        #expect(stack.drag(.began, 0, 0, at: 1).summary == "s 0.0 tracking")
        for dy in [50.0, 100, 211, 300] {
            let r = stack.drag(.changed, 35, dy, at: 1.1)  // the sideways part is ignored
            #expect(r.outcome == .tracking && near(r.progress, dy / 422))
            let scene = stack.scene(at: 1.1)
            #expect(scene.content("s")?.frame == bottomHalfFrame.offsetBy(dx: 0, dy: dy))
            #expect(near(scene.dimming("s")!.alpha, 0.7 * (1 - dy / 422)))
            #expect(!scene.isAnimating)
        }
    }

    @Test(arguments: [
        (PresentationStyle.slideIn(edge: .left, fraction: 0.5), TransitionKind.slide, -60.0, 0.0),
        (.slideIn(edge: .right, fraction: 0.5), .slide, 60, 0),
        (.topHalf, .coverVerticalFromTop, 0, -60),
        (.popup, .coverHorizontalFromLeft, -60, 0),
        (.popup, .coverHorizontalFromRight, 60, 0),
    ])
    func aSwipeLeavesThroughTheTransitionsEdge(style: PresentationStyle, kind: TransitionKind, dx: Double, dy: Double) {
        var stack = swipeable(style: style, transition: kind)
        let rest = style.frame(in: phone)
        stack.drag(.began, 0, 0, at: 1)
        let r = stack.drag(.changed, dx, dy, at: 1.1)
        #expect(r.outcome == .tracking && r.progress > 0)
        #expect(stack.scene(at: 1.1).content("s")?.frame == rest.offsetBy(dx: dx, dy: dy))
        // The other way is against it: rubber-banded, no progress.
        let back = stack.drag(.changed, -dx, -dy, at: 1.2)
        #expect(back.progress == 0)
        let moved = stack.scene(at: 1.2).content("s")!.frame
        let travel = abs(moved.minX - rest.minX) + abs(moved.minY - rest.minY)
        #expect(travel > 0 && travel < 60)
    }

    @Test func draggingAgainstTheWayOutIsRubberBanded() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        var last = 0.0
        for dy in [-10.0, -100, -400, -5000] {
            let r = stack.drag(.changed, 0, dy, at: 1.1)
            #expect(r.progress == 0)
            let scene = stack.scene(at: 1.1)
            let lift = bottomHalfFrame.minY - scene.content("s")!.frame.minY
            #expect(lift > last && lift < -dy)  // resists more the further it goes
            #expect(lift < 422)                 // and never past the distance out
            #expect(near(scene.dimming("s")!.alpha, 0.7))
            last = lift
        }
    }

    @Test func releasedPastHalfWayItAsksToDismissAndCompletes() throws {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, 253.2, at: 1.1)
        let released = stack.drag(.ended, 0, 253.2, at: 1.2)
        #expect(released.outcome == .wantsDismiss && near(released.progress, 0.6))
        #expect(stack.entry(id: "s")?.state == .presented)  // the caller decides (veto)
        #expect(stack.drag(.changed, 0, 300, at: 1.25).outcome == .ignored)

        let (before, after) = aroundOperation(&stack, at: 1.3) { $0.completeSwipe(at: 1.3) }
        #expect(largestJump(before, after) < jumpTolerance)
        let will = try #require(stack.drainEvents().notices(.willDismiss).first)
        #expect(will.id == "s" && will.reason == .swipe && will.time == 1.3)
        let exit = try #require(will.animation)
        #expect(near(exit.to.frame.minY, 844) && exit.to.dimming == 0)
        #expect(near(exit.end, 1.3 + 0.4 * 0.4))  // the rest of the way: (1 − 0.6) × 0.4 s
        stack.advance(to: 2)
        let gone = try #require(stack.drainEvents().notices(.didDismiss).first)
        #expect(gone.reason == .swipe && near(gone.time, 1.46))
        #expect(stack.entries.isEmpty)
    }

    @Test func aFastFlickCompletesFromAShortDistance() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        #expect(stack.drag(.ended, 0, 30, vy: 400, at: 1.05).outcome == .wantsDismiss)
    }

    @Test func aFlickBackCancelsEvenPastHalfWay() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        #expect(stack.drag(.ended, 0, 300, vy: -400, at: 1.05).outcome == .cancelled)
    }

    @Test func aShortSlowReleaseCancelsAndSpringsBack() throws {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, 100, at: 1.1)
        let before = stack.scene(at: 1.2)
        let r = stack.drag(.ended, 0, 100, vy: 50, at: 1.2)
        #expect(r.outcome == .cancelled && near(r.progress, 100 / 422))
        let after = stack.scene(at: 1.2)
        #expect(largestJump(before, after) < jumpTolerance)
        #expect(after.isAnimating)
        stack.advance(to: 2)
        #expect(stack.scene(at: 2).content("s")?.frame == bottomHalfFrame)
        #expect(near(stack.scene(at: 2).dimming("s")!.alpha, 0.7))
        #expect(stack.entry(id: "s")?.state == .presented)
        #expect(stack.drainEvents().notices.isEmpty)
    }

    @Test func aCancelledGestureSpringsBack() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, 300, at: 1.1)
        let r = stack.drag(.cancelled, 0, 300, at: 1.2)
        #expect(r.outcome == .cancelled)
        stack.advance(to: 2)
        #expect(stack.scene(at: 2).content("s")?.frame == bottomHalfFrame)
    }

    @Test func aVetoedSwipeIsCancelledByTheCaller() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        #expect(stack.drag(.ended, 0, 300, at: 1.1).outcome == .wantsDismiss)
        let (before, after) = aroundOperation(&stack, at: 1.15) { $0.cancelSwipe(at: 1.15) }
        #expect(largestJump(before, after) < jumpTolerance)
        stack.advance(to: 2)
        #expect(stack.scene(at: 2).content("s")?.frame == bottomHalfFrame)
        #expect(stack.drainEvents().notices.isEmpty)
        // The gesture is over: completing now does nothing.
        stack.completeSwipe(at: 2)
        #expect(stack.entry(id: "s")?.state == .presented)
    }

    @Test func releasingARubberBandedDragReturnsWithoutAJump() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, -150, at: 1.1)
        let before = stack.scene(at: 1.2)
        #expect(stack.drag(.ended, 0, -150, at: 1.2).outcome == .cancelled)
        let after = stack.scene(at: 1.2)
        #expect(largestJump(before, after) < jumpTolerance)
        stack.advance(to: 3)
        #expect(stack.scene(at: 3).content("s")?.frame == bottomHalfFrame)
    }

    @Test func aSwipeStartsFromWhereARelayoutHadGot() {
        var stack = swipeable()
        stack.setContainer(Container(size: Size(width: 390, height: 700)), at: 1)
        let before = stack.scene(at: 1.1)
        stack.drag(.began, 0, 0, at: 1.1)
        #expect(largestJump(before, stack.scene(at: 1.1)) < jumpTolerance)
    }

    @Test func aContainerChangeDuringASwipeMovesNothingByItself() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, 120, at: 1.1)
        let (before, after) = aroundOperation(&stack, at: 1.2) { $0.setContainer(tablet, at: 1.2) }
        #expect(largestJump(before, after, ignoringDimmingFrames: true) < jumpTolerance)
        stack.advance(to: 3)
        stack.drag(.ended, 0, 120, at: 3)
        stack.advance(to: 4)
        #expect(stack.scene(at: 4).content("s")?.frame == PresentationStyle.bottomHalf.frame(in: tablet))
    }

    @Test func anEntryPresentedOverASwipeEndsTheSwipe() {
        var stack = swipeable()
        stack.drag(.began, 0, 0, at: 1)
        stack.drag(.changed, 0, 300, at: 1.1)
        stack.show(sheet("b", style: .alert), at: 1.2)
        // The finger's release no longer reaches s, which is covered now.
        #expect(stack.drag(.ended, 0, 300, at: 1.3).outcome == .ignored)
        stack.completeSwipe(at: 1.3)
        #expect(stack.ids == ["s", "b"])
        #expect(stack.entries.allSatisfy { $0.state != .dismissing })
        stack.advance(to: 3)
        #expect(stack.scene(at: 3).content("s")?.frame == bottomHalfFrame)
    }
}
