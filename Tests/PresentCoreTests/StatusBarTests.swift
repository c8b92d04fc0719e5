// Status-bar arbitration: the topmost staying entry that captures the status bar decides,
// else the base; the change is reported once, when the transition causing it starts,
// with that transition's duration; whatever takes the capturing entry away restores it.

import Testing
import PresentCore

let light = StatusBarAppearance(style: .lightContent)
let dark = StatusBarAppearance(style: .darkContent)
let hidden = StatusBarAppearance(style: .default, hidden: true)
let base = StatusBarAppearance()

@Suite struct StatusBarTests {
    @Test func nothingCapturesByDefault() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        #expect(stack.statusBar == base && stack.resolvedStatusBar == base)
        #expect(stack.drainEvents().statusBarChanges.isEmpty)
    }

    @Test func aCapturingEntryChangesItWhenItsPresentationStarts() throws {
        var stack = ModalStack()
        stack.show(sheet("a", duration: 0.25, statusBar: hidden), at: 3)
        #expect(stack.statusBar == hidden)
        #expect(stack.scene(at: 3).statusBar == hidden)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1)
        #expect(changes.first?.appearance == hidden && changes.first?.duration == 0.25 && changes.first?.time == 3)
    }

    @Test func aQueuedCapturingEntryChangesItOnlyWhenItStarts() throws {
        var stack = ModalStack()
        stack.show(sheet("a", duration: 0.25), at: 0)
        stack.show(sheet("b", duration: 0.5, statusBar: light), at: 0.1)
        #expect(stack.statusBar == base)
        #expect(stack.drainEvents().statusBarChanges.isEmpty)
        stack.advance(to: 2)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1)
        #expect(changes.first?.appearance == light && changes.first?.time == 0.25 && changes.first?.duration == 0.5)
    }

    @Test func aWithdrawnQueuedEntryNeverTouchesIt() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("b", statusBar: light), at: 0.1)
        _ = try stack.dismiss(id: "b", at: 0.2)
        stack.advance(to: 2)
        #expect(stack.drainEvents().statusBarChanges.isEmpty)
    }

    @Test func itIsRestoredWhenTheCapturingEntryStartsLeaving() throws {
        var stack = ModalStack()
        stack.show(sheet("a", dismissTransition: linear(.crossDissolve, 0.125), statusBar: light), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", at: 1)
        #expect(stack.statusBar == base)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1)
        #expect(changes.first?.appearance == base && changes.first?.duration == 0.125 && changes.first?.time == 1)
    }

    @Test func aReversedPresentationRestoresItOverTheWayBack() throws {
        var stack = ModalStack()
        stack.show(sheet("a", duration: 0.5, statusBar: light), at: 0)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", at: 0.125)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1)
        #expect(changes.first?.appearance == base && changes.first?.time == 0.125)
        #expect(changes.first?.duration == stack.entry(id: "a")?.animation?.duration)
        #expect(changes.first?.duration == 0.125)  // it had used a quarter of 0.5 s
    }

    @Test func theTopmostCapturingEntryWins() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.show(sheet("b"), at: 1)
        #expect(stack.statusBar == light)  // b does not capture: a still decides
        stack.show(sheet("c", statusBar: dark), at: 2)
        #expect(stack.statusBar == dark)
        stack.advance(to: 3)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "c", at: 3)
        #expect(stack.statusBar == light)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1 && changes.first?.appearance == light && changes.first?.duration == 0.4)
    }

    @Test func aNonCapturingEntryLeavingChangesNothing() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.show(sheet("b"), at: 1)
        stack.advance(to: 2)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "b", at: 2)
        stack.advance(to: 3)
        #expect(stack.drainEvents().statusBarChanges.isEmpty)
        #expect(stack.statusBar == light)
    }

    /// a (light) under b (not capturing): dismissing a takes b with it; b's dismissal is
    /// the transition that restores the base, so the one change has b's duration.
    @Test func aMidStackDismissalRestoresItOnceWithTheTopsDuration() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.show(sheet("b", dismissTransition: linear(.coverVertical, 0.25)), at: 1)
        stack.advance(to: 2)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", at: 2)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1)
        #expect(changes.first?.appearance == base && changes.first?.duration == 0.25 && changes.first?.time == 2)
    }

    @Test func aMidStackDismissalOfTwoCapturingEntriesGoesStraightToTheBase() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.show(sheet("b", dismissTransition: linear(.coverVertical, 0.25), statusBar: dark), at: 1)
        stack.advance(to: 2)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", at: 2)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.map(\.appearance) == [base])  // never via a's light
        #expect(changes.first?.duration == 0.25)
    }

    @Test func aPreemptionChangesItOnceToTheNewcomers() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        stack.show(sheet("b", duration: 0.25, statusBar: dark, precedence: .override), at: 1)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.map(\.appearance) == [dark])  // never via the base
        #expect(changes.first?.duration == 0.25 && changes.first?.time == 1)
    }

    @Test func aPreemptionByANonCapturingEntryRestoresTheBase() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        stack.show(sheet("b", precedence: .override), at: 1)
        #expect(stack.statusBar == base)
        #expect(stack.drainEvents().statusBarChanges.map(\.appearance) == [base])
    }

    @Test func aNonAnimatedDismissalRestoresItAtOnce() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", animated: false, at: 1)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1 && changes.first?.appearance == base && changes.first?.duration == 0)
    }

    @Test func itIsRestoredWhenTheOwnerGoes() {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), owner: 7, at: 0)
        stack.show(sheet("b"), owner: 8, at: 1)
        stack.advance(to: 2)
        _ = stack.drainEvents()
        _ = stack.removeAll(ownedBy: 7, at: 2)
        #expect(stack.statusBar == base)
        #expect(stack.drainEvents().statusBarChanges.map(\.appearance) == [base])
    }

    @Test func anOwnersCapturingEntryTakenWithItsAnimatedTopRestoresItWithThatDuration() {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), owner: 7, at: 0)
        stack.show(sheet("b", dismissTransition: linear(.zoom, 0.25)), owner: 7, at: 1)
        stack.advance(to: 2)
        _ = stack.drainEvents()
        _ = stack.removeAll(ownedBy: 7, at: 2)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1 && changes.first?.appearance == base && changes.first?.duration == 0.25)
    }

    @Test func itIsRestoredByDismissAll() {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.show(sheet("b", statusBar: dark), at: 1)
        stack.show(sheet("c", statusBar: hidden), at: 1.1)  // queued behind b
        _ = stack.dismissAll(at: 1.2)
        stack.advance(to: 5)
        #expect(stack.statusBar == base)
        #expect(stack.drainEvents().statusBarChanges.last?.appearance == base)
    }

    @Test func aConfiguredBaseIsWhatIsRestored() throws {
        var config = StackConfiguration()
        config.baseStatusBar = StatusBarAppearance(style: .darkContent)
        var stack = ModalStack(configuration: config)
        #expect(stack.statusBar == config.baseStatusBar)
        stack.show(sheet("a", statusBar: light), at: 0)
        stack.advance(to: 1)
        _ = try stack.dismiss(id: "a", at: 1)
        #expect(stack.statusBar == config.baseStatusBar)
    }
}
