// Sheets with detents (UISheetPresentationController): which detents apply, where the
// sheet rests, its dimming and taps at each detent, swipes between detents with UIKit's
// projection and the system spring, dismissal below the smallest, `update` of the
// selected detent, and the grabber layer.

import Testing
@testable import PresentCore

@Suite("Sheets with detents")
struct SheetTests {
    /// On the phone: 844 − 47 (safe area) − 10 = 787 points at most; medium ⌊787/2⌋.
    static let maximum = 787.0, medium = 393.0
    static let small = Detent(id: "small", height: .points(200))

    static func sheetStyle(_ detents: [Detent] = [.medium, .large], selected: String? = nil, undimmed: String? = nil,
                           grabber: Bool = false) -> PresentationStyle {
        .sheet(
            SheetStyle(detents: detents, selectedDetent: selected, largestUndimmedDetent: undimmed, grabber: grabber))
    }

    /// A presented sheet on the phone, at rest at t = 1.
    static func presented(_ style: PresentationStyle, dismissOnSwipe: Bool = true) -> ModalStack {
        var stack = ModalStack(container: phone)
        stack.show(sheet("s", style: style, dismissOnSwipe: dismissOnSwipe), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        return stack
    }

    static func frame(_ stack: ModalStack, at t: Double) -> Rect? {
        stack.scene(at: t).layers.first { $0.role == .content }?.frame
    }

    // MARK: Geometry

    @Test func detentsResolveAgainstTheSheetsMaximumAndInactiveOnesDropOut() {
        let style = SheetStyle(detents: [.large, Self.small, .medium, Detent(id: "forty", height: .fraction(0.4)),
                                         Detent(id: "huge", height: .points(900)), Detent(id: "fit", height: .content)])
        #expect(style.maximumHeight(in: phone) == Self.maximum)
        #expect(
            style.activeDetents(in: phone) == [
                ActiveDetent(id: "small", height: 200), ActiveDetent(id: "forty", height: 314),
                ActiveDetent(id: "medium", height: Self.medium), ActiveDetent(id: "large", height: 787)
            ],
                "huge is taller than the maximum; content has no preferred height")
        #expect(style.activeDetents(in: phone, preferred: PreferredContentSize(height: 500)).map(\.id)
                == ["small", "forty", "medium", "fit", "large"])
        // Compact height: full screen, medium inactive (UIKit).
        #expect(style.isFullScreen(in: landscape) && style.maximumHeight(in: landscape) == 390)
        #expect(!style.activeDetents(in: landscape).contains { $0.id == "medium" })
        // None active leaves large.
        #expect(SheetStyle(detents: [Detent(id: "huge", height: .points(2000))]).activeDetents(in: phone)
                == [ActiveDetent(id: "large", height: Self.maximum)])
    }

    @Test func aSheetRestsAtItsSelectedDetentElseTheSmallestAttachedToTheBottomEdge() {
        #expect(Self.sheetStyle().frame(in: phone) == Rect(x: 0, y: 844 - Self.medium, width: 390, height: Self.medium))
        #expect(
            Self.sheetStyle(selected: "large").frame(in: phone) == Rect(x: 0, y: 57, width: 390, height: Self.maximum))
        // Regular width: as wide as a form sheet, centred.
        let wide = Self.sheetStyle(selected: "large").frame(in: tablet)
        #expect(wide == Rect(x: (820 - 704) / 2, y: 10, width: 704, height: 1170))
    }

    // MARK: Dimming and taps

    @Test func atOrBelowTheLargestUndimmedDetentTheSheetDoesNotDimAndTapsPassThrough() {
        var stack = Self.presented(Self.sheetStyle([Self.small, .medium, .large], undimmed: "small"))
        #expect(stack.entries[0].restState(in: phone).dimming == 0)
        #expect(stack.hitTest(Point(x: 10, y: 10), at: 1).forwarded, "a tap above the sheet reaches the app")
        #expect(stack.hitTest(Point(x: 10, y: 800), at: 1).part == .content)
        // Between small (200) and medium (393) the dimming follows the height.
        let style = Self.sheetStyle([Self.small, .medium, .large], undimmed: "small").sheet!
        #expect(style.dimmingShare(atHeight: 200, in: phone) == 0)
        #expect(abs(style.dimmingShare(atHeight: 296.5, in: phone) - 0.5) < 1e-12)
        #expect(style.dimmingShare(atHeight: 393, in: phone) == 1 && style.dimmingShare(atHeight: 700, in: phone) == 1)
        // Above it the sheet dims and is modal.
        _ = try? stack.update(id: "s", EntryUpdate(selectedDetent: "medium", duration: 0), at: 1)
        #expect(stack.entries[0].restState(in: phone).dimming == Background.standard.opacity)
        #expect(stack.hitTest(Point(x: 10, y: 10), at: 1).part == .dimming)
    }

    // MARK: Swipes

    @Test func aFlickUpProjectsPastMediumToLargeAndTheSystemSpringSettlesItThereFromTheFingersSpeed() throws {
        var stack = Self.presented(Self.sheetStyle())
        _ = stack.swipe(.began, translation: .zero, at: 1)
        _ = stack.swipe(.changed, translation: Point(x: 0, y: -100), at: 1.1)
        #expect(
            Self.frame(stack, at: 1.1) == Rect(x: 0, y: 844 - Self.medium - 100, width: 390, height: Self.medium + 100),
                "between detents the sheet's top follows the finger")
        // 493 points tall, released at 600 points/s upwards: projected 493 + 299.4 → large (787).
        let result = stack.swipe(.ended, translation: Point(x: 0, y: -100), velocity: Point(x: 0, y: -600), at: 1.1)
        #expect(result.outcome == .settled && result.detent == "large")
        let changed = stack.drainEvents().notices(.detentChanged)
        #expect(changed.map(\.detent) == ["large"] && changed.map(\.id) == ["s"])
        // The frames are the system spring's closed form from the finger's speed (progress/s).
        let from = 844 - Self.medium - 100, to = 57.0
        let spring = Spring.system.withInitialVelocity(-600 / (to - from))
        for t in stride(from: 1.1, through: 1.6, by: 1.0 / 60) {
            let y = try #require(Self.frame(stack, at: t)?.minY)
            let expected = from + (to - from) * spring.position(at: t - 1.1)
            #expect(abs(y - expected) < 1e-9, "at \(t): \(y) vs \(expected)")
        }
        stack.advance(to: 2)
        #expect(Self.frame(stack, at: 2) == Rect(x: 0, y: 57, width: 390, height: Self.maximum))
        #expect(stack.entries[0].restingDetent(in: phone)?.id == "large")
    }

    @Test func aSlowDragSettlesAtTheNearestDetentAndPastTheLargestItRubberBands() {
        var stack = Self.presented(Self.sheetStyle(selected: "large"))
        _ = stack.swipe(.began, translation: .zero, at: 1)
        _ = stack.swipe(.changed, translation: Point(x: 0, y: -200), at: 1.1)
        let banded = Self.frame(stack, at: 1.1)!.height
        #expect(banded > Self.maximum && banded < Self.maximum + 200, "resisted: \(banded)")
        // Dragged down to 500 points tall, released still: nearest is medium (393), not large.
        _ = stack.swipe(.changed, translation: Point(x: 0, y: Self.maximum - 500), at: 1.2)
        let result = stack.swipe(.ended, translation: Point(x: 0, y: Self.maximum - 500), at: 1.2)
        #expect(result.outcome == .settled && result.detent == "medium")
        stack.advance(to: 2)
        #expect(Self.frame(stack, at: 2)?.height == Self.medium)
    }

    @Test func belowTheSmallestDetentASwipeDismissesOnlyWhenTheSheetMayBeSwipedAway() {
        var stack = Self.presented(Self.sheetStyle())
        _ = stack.swipe(.began, translation: .zero, at: 1)
        _ = stack.swipe(.changed, translation: Point(x: 0, y: 150), at: 1.1)
        #expect(Self.frame(stack, at: 1.1) == Rect(x: 0, y: 844 - Self.medium + 150, width: 390, height: Self.medium),
                "below the smallest detent it slides down whole")
        let result = stack.swipe(.ended, translation: Point(x: 0, y: 150), velocity: Point(x: 0, y: 500), at: 1.1)
        #expect(result.outcome == .wantsDismiss)
        stack.completeSwipe(at: 1.1)
        stack.advance(to: 3)
        #expect(stack.entries.isEmpty)

        var kept = Self.presented(Self.sheetStyle(), dismissOnSwipe: false)
        _ = kept.swipe(.began, translation: .zero, at: 1)
        _ = kept.swipe(.changed, translation: Point(x: 0, y: 300), at: 1.1)
        #expect(Self.frame(kept, at: 1.1)!.minY < 844 - Self.medium + 300, "it resists instead")
        let held = kept.swipe(.ended, translation: Point(x: 0, y: 300), velocity: Point(x: 0, y: 2000), at: 1.1)
        #expect(held.outcome == .settled && held.detent == "medium")
        #expect(kept.drainEvents().notices(.detentChanged).isEmpty, "it stays at the detent it rested at")
    }

    @Test func aSheetWithOneDetentThatMayNotBeSwipedAwayTakesNoSwipe() {
        var stack = Self.presented(Self.sheetStyle([.large]), dismissOnSwipe: false)
        #expect(stack.swipe(.began, translation: .zero, at: 1).outcome == .ignored)
    }

    // MARK: update

    @Test func updateMovesTheSheetToAnotherDetentAnimatedAndRefusesOneItDoesNotHave() throws {
        var stack = Self.presented(Self.sheetStyle())
        let updated = try stack.update(
            id: "s", EntryUpdate(selectedDetent: "large", duration: 0.3, timing: .linear), at: 1)
        #expect(updated.restingDetent(in: phone)?.id == "large")
        #expect(stack.drainEvents().notices(.detentChanged).map(\.detent) == ["large"])
        let halfway = try #require(Self.frame(stack, at: 1.15))
        #expect(abs(halfway.minY - (844 - Self.medium + 57) / 2) < 1e-9, "linear over 0.3 s: halfway at 0.15 s")
        let before = stack.snapshot
        #expect(throws: StackError.unknownDetent(id: "s", detent: "tiny")) {
            try stack.update(id: "s", EntryUpdate(selectedDetent: "tiny"), at: 1.2)
        }
        #expect(stack.snapshot.entries == before.entries)
        var alert = ModalStack(container: phone)
        alert.show(sheet("a", style: .alert), at: 0)
        #expect(throws: StackError.unknownDetent(id: "a", detent: "large")) {
            try alert.update(id: "a", EntryUpdate(selectedDetent: "large"), at: 0.1)
        }
    }

    @Test func anUpdateOfTheDetentMovesWithTheSystemSpringUnlessItSaysOtherwise() throws {
        var stack = Self.presented(Self.sheetStyle())
        _ = try stack.update(id: "s", EntryUpdate(selectedDetent: "large"), at: 1)
        let from = 844 - Self.medium, to = 57.0
        for t in stride(from: 1.0, through: 1.5, by: 1.0 / 60) {
            let y = try #require(Self.frame(stack, at: t)?.minY)
            let expected = from + (to - from) * Spring.system.position(at: t - 1)
            #expect(abs(y - expected) < 1e-9, "at \(t): \(y) vs \(expected)")
        }
    }

    // MARK: Grabber

    @Test func theGrabberIsALayerOnTheSheetsTopEdgeHiddenWhenTheSheetCoversTheContainer() {
        let stack = Self.presented(Self.sheetStyle(grabber: true))
        let layers = stack.scene(at: 1).layers
        #expect(layers.map(\.role) == [.dimming, .content, .grabber])
        #expect(layers[2].frame == Rect(x: 195 - 18, y: 844 - Self.medium + 5, width: 36, height: 5))
        var compact = ModalStack(container: landscape)
        compact.show(sheet("s", style: Self.sheetStyle(grabber: true)), at: 0)
        #expect(!compact.scene(at: 1).layers.contains { $0.role == .grabber })
    }

    // MARK: A sheet on a sheet

    /// iOS 13's form-sheet stack: under a second sheet the first shrinks to 0.9 with its top
    /// 10 points above where it was, moving with the second's transition; it grows back as
    /// the second leaves. The animations topic carries the same motion as the frames.
    @Test func aSheetUnderAnotherShrinksWithItsTopShowingAndGrowsBackWhenItLeaves() throws {
        var stack = Self.presented(Self.sheetStyle())   // "s" at medium: 0,451 390×393
        let atRest = try #require(stack.scene(at: 1).layers.first { $0.entryID == "s" && $0.role == .content })
        #expect(atRest.scale == 1 && atRest.frame.minY == 844 - Self.medium)
        stack.show(sheet("t", style: Self.sheetStyle(), duration: 0.4), at: 1)   // linear, 0.4 s
        func s(at t: Double) throws -> Layer {
            try #require(stack.scene(at: t).layers.first { $0.entryID == "s" && $0.role == .content })
        }
        let covered = Rect(
            x: 0, y: 844 - Self.medium - Self.medium * (1 - 0.9) / 2 - 10, width: 390, height: Self.medium)
        let half = try s(at: 1.2)
        #expect(abs(half.scale - 0.95) < 1e-9 && abs(half.frame.minY - (844 - Self.medium + covered.minY) / 2) < 1e-9,
                "halfway through t's transition, s is halfway shrunk: \(half)")
        let shrunk = try s(at: 1.4)
        #expect(shrunk.scale == SheetStyle.coveredScale && shrunk.frame == covered)
        let visibleTop = shrunk.frame.minY + shrunk.frame.height * (1 - shrunk.scale) / 2   // scaled about its centre
        #expect(abs(visibleTop - (844 - Self.medium - 10)) < 1e-9,
                "its visible top is the sheet gap above where it was, above t's top")
        for t in [1.1, 1.25, 1.39] {
            let fromAnimations = stack.animations(at: 1).layers(at: t).first {
                $0.entryID == "s" && $0.role == .content
            }
            #expect(fromAnimations == (try s(at: t)), "the animations topic at \(t)")
        }
        #expect(stack.explanation(of: "s", at: 1.5)?.coveredBy == ["t"])

        // t leaves over 0.4 s: s grows back with it; at the end it rests as before.
        stack.advance(to: 2)
        _ = try stack.dismiss(id: "t", at: 2)
        let growing = try s(at: 2.2)
        #expect(growing.scale > 0.9 && growing.scale < 1, "\(growing)")
        stack.advance(to: 3)
        #expect(try s(at: 3) == atRest)
        #expect(!stack.entries[0].coveredBySheet)

        // A popup on a sheet is no sheet: nothing shrinks.
        stack.show(sheet("p"), at: 3)
        #expect(try s(at: 4) == atRest)
    }

    // MARK: explain and dry runs

    @Test func explainAndADryRunNameTheDetentsThatApplyAndWhereTheSheetRests() throws {
        let huge = Detent(id: "huge", height: .points(900))
        var stack = Self.presented(Self.sheetStyle([Self.small, .medium, .large, huge], undimmed: "small"))
        let x = try #require(stack.explanation(of: "s", at: 1)?.sheet)
        #expect(x == SheetExplanation(detent: "small", detents: [ActiveDetent(id: "small", height: 200),
                                                                 ActiveDetent(id: "medium", height: Self.medium),
                                                                 ActiveDetent(id: "large", height: Self.maximum)],
                                      inactive: ["huge"], maximumHeight: Self.maximum, largestUndimmedDetent: "small",
                                      passesTapsThrough: true, takesSwipes: true))
        _ = try stack.update(id: "s", EntryUpdate(selectedDetent: "large", duration: 0), at: 1)
        let moved = try #require(stack.explanation(of: "s", at: 1)?.sheet)
        #expect(moved.detent == "large" && !moved.passesTapsThrough)

        // A dry run of a second sheet, in landscape (compact height): medium does not apply,
        // and it would rest at large, the only one left; one detent and no swipe-away: no swipes.
        var compact = ModalStack(container: landscape)
        let forecast = compact.forecast(sheet("t", style: Self.sheetStyle([.medium, .large])), owner: 1, at: 0)
        #expect(forecast.outcome == .presenting)
        #expect(forecast.sheet == SheetExplanation(detent: "large", detents: [ActiveDetent(id: "large", height: 390)],
                                                   inactive: ["medium"], maximumHeight: 390, largestUndimmedDetent: nil,
                                                   passesTapsThrough: false, takesSwipes: false))
        #expect(compact.entries.isEmpty, "a dry run changes nothing")
        #expect(
            compact.forecast(sheet("p"), owner: 1, at: 0).sheet == nil && stack.explanation(of: "nope", at: 1) == nil)
        compact.show(sheet("p"), at: 0)
        #expect(compact.explanation(of: "p", at: 0)?.sheet == nil, "not a sheet")
    }
}
