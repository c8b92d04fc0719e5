// The conversation in the core, on its injected clock: what an update moves and what it
// only relabels, what a key means, when a countdown runs out and what holds it.

@testable import PresentCore
import Testing

@Suite struct ConversationCoreTests {
    static let dialog = Content(title: "Delete?", actions: [
        ContentAction(id: "delete", title: "Delete", role: .destructive),
        ContentAction(id: "keep", title: "Keep", role: .cancel),
        ContentAction(id: "more", title: "More…", role: .default, dismisses: false),
    ], fields: [ContentField(id: "note", kind: .text)])

    func presented(_ p: Presentation) -> ModalStack {
        var stack = ModalStack(container: phone)
        stack.show(p, at: 0)
        stack.advance(to: 1)
        return stack
    }

    @Test func aContentOnlyUpdateRelabelsWithoutMoving() throws {
        var stack = presented(Presentation(id: "a", content: Self.dialog, style: .alert))
        _ = stack.drainEvents()
        let before = stack.scene(at: 1)
        try stack.update(id: "a", EntryUpdate(content: .some("done")), at: 1)
        let notice = try #require(stack.drainEvents().notices(.updated).first)
        #expect(notice.animation == nil && notice.content?.content == "done" && notice.content?.revision == 2)
        #expect(stack.scene(at: 1).content("a")?.frame == before.content("a")?.frame)
        #expect(stack.scene(at: 1).content("a")?.contentRevision == 2)
        // The same content again is no new revision.
        try stack.update(id: "a", EntryUpdate(content: .some("done")), at: 1)
        #expect(stack.entry(id: "a")?.contentRevision == 2)
    }

    @Test func sizingToContentFollowsThePreferredSizeAndFallsBackToDefault() throws {
        let style = PresentationStyle.custom(CustomLayout(width: .content, height: .content))
        var stack = presented(Presentation(id: "a", style: style, transition: linear(.crossDissolve, 0)))
        #expect(stack.entry(id: "a")?.restState(in: phone).frame.size == PresentationStyle.popup.frame(in: phone).size)
        try stack.update(
            id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(width: 2000, height: 120))), at: 1)
        #expect(stack.entry(id: "a")?.restState(in: phone).frame == Rect(x: 0, y: 362, width: 390, height: 120),
                "clamped to the container's width")
    }

    @Test func anAlertIsAsTallAsItsContentBetweenOneButtonAndTheScreenLessItsMargins() throws {
        var stack = presented(
            Presentation(id: "a", content: Self.dialog, style: .alert, transition: linear(.crossDissolve, 0)))
        #expect(stack.entry(id: "a")?.restState(in: phone).frame == Rect(x: 60, y: 332, width: 270, height: 180),
                "180 until a renderer measured it")
        // A measured height (and a width, which an alert does not take): centred at it.
        try stack.update(
            id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(width: 400, height: 151))), at: 1)
        #expect(stack.entry(id: "a")?.restState(in: phone).frame == Rect(x: 60, y: 346.5, width: 270, height: 151))
        // Too tall: the screen less 20 above and below; too short: one button's 44.
        try stack.update(id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(height: 5000))), at: 2)
        #expect(stack.entry(id: "a")?.restState(in: phone).frame == Rect(x: 60, y: 20, width: 270, height: 804))
        try stack.update(id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(height: 3))), at: 3)
        #expect(stack.entry(id: "a")?.restState(in: phone).frame.height == 44)
        // Cleared: back to the default.
        try stack.update(id: "a", EntryUpdate(preferredContentSize: .some(nil)), at: 4)
        #expect(stack.entry(id: "a")?.restState(in: phone).frame.height == 180)
    }

    @Test func aResizeAtRestGlidesFromWhereTheEntryIsAndOneDuringPresentingKeepsItsEndTime() throws {
        let style = PresentationStyle.custom(CustomLayout(width: .points(200), height: .content))
        var stack = ModalStack(container: phone)
        stack.show(Presentation(id: "a", preferredContentSize: PreferredContentSize(height: 100), style: style,
                                transition: linear(.coverVertical, 0.4)), at: 0)
        // Mid-presentation: retargeted, same end.
        let before = stack.scene(at: 0.2)
        try stack.update(id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(height: 300))), at: 0.2)
        #expect(largestJump(before, stack.scene(at: 0.2)) < 1e-9, "no jump at the update's instant")
        #expect(stack.entry(id: "a")?.animation?.end == 0.4)
        stack.advance(to: 0.4)
        #expect(stack.scene(at: 0.4).content("a")?.frame.height == 300)

        // At rest: from the current frame over the update's duration.
        try stack.update(id: "a", EntryUpdate(preferredContentSize: .some(PreferredContentSize(height: 100)),
                                             duration: 1, timing: .linear), at: 2)
        #expect(stack.scene(at: 2).content("a")?.frame.height == 300)
        #expect(abs((stack.scene(at: 2.5).content("a")?.frame.height ?? 0) - 200) < 1e-9)
        #expect(stack.scene(at: 3).content("a")?.frame.height == 100)
        #expect(!stack.isAnimating(at: 3.01))
    }

    @Test func keysFindTheTopmostEntrysCancelAndDefaultActions() {
        let stack = presented(Presentation(id: "a", content: Self.dialog, style: .alert))
        #expect(stack.resolve(.escape, at: 1) == .activate(id: "a", action: Self.dialog.actions[1]))
        #expect(stack.resolve(.back, at: 1) == .activate(id: "a", action: Self.dialog.actions[1]))
        #expect(stack.resolve(.enter, at: 1) == .activate(id: "a", action: Self.dialog.actions[2]))
        let plain = presented(Presentation(id: "s", content: "label", style: .bottomHalf))
        #expect(plain.resolve(.escape, at: 1) == .unhandled(id: "s"))
        let ok = presented(
            Presentation(id: "i", content: Content(actions: [ContentAction(id: "ok", title: "OK")]), style: .alert))
        #expect(ok.resolve(.escape, at: 1) == .dismiss(id: "i"))
        #expect(ok.resolve(.enter, at: 1) == .unhandled(id: "i"))
        #expect(ModalStack(container: phone).resolve(.enter, at: 0) == .unhandled(id: nil))
    }

    @Test func onlyAnEntryOnScreenWithThatActionCanBeAnswered() throws {
        var stack = presented(Presentation(id: "a", content: Self.dialog, style: .alert))
        stack.show(Presentation(id: "b", content: Self.dialog, style: .alert), at: 1)
        stack.show(Presentation(id: "c", content: Self.dialog, style: .alert), at: 1)   // queued behind b
        #expect(throws: StackError.unknownAction(id: "a", action: "nope")) {
            try stack.activation(id: "a", action: "nope", at: 1)
        }
        #expect(throws: StackError.notShown(id: "c", state: .queued)) {
            try stack.activation(id: "c", action: "keep", at: 1)
        }
        #expect(throws: StackError.notFound(id: "z")) { try stack.activation(id: "z", action: "keep", at: 1) }
        #expect(throws: StackError.unknownField(id: "a", field: "zip")) {
            try stack.focus(id: "a", field: "zip", at: 1)
        }
        #expect(try stack.activation(id: "a", action: "more", at: 1).dismisses == false)
    }

    @Test func aCountdownRunsFromTheEndOfPresentingAndHoldsWhileAFieldHasFocus() throws {
        var stack = ModalStack(container: phone)
        stack.show(Presentation(id: "a", content: Self.dialog, autoDismiss: AutoDismiss(after: 2), style: .alert,
                                transition: linear(.crossDissolve, 0.5)), at: 0)
        #expect(stack.nextDeadline == nil, "not while presenting")
        stack.advance(to: 1)
        #expect(stack.nextDeadline == 2.5)
        try stack.focus(id: "a", field: "note", at: 1.5)
        #expect(stack.nextDeadline == nil)
        stack.advance(to: 10)
        #expect(stack.entry(id: "a")?.state == .presented)
        try stack.focus(id: "a", field: nil, at: 10)
        #expect(stack.nextDeadline == 11)
        _ = stack.drainEvents()
        stack.advance(to: 11.2)
        let out = try #require(stack.drainEvents().notices(.willDismiss).first)
        #expect(out.reason == .timeout && out.time == 11)
    }

    @Test func aCountdownThatIgnoresInteractionKeepsRunning() throws {
        var stack = presented(Presentation(id: "a", content: Self.dialog,
                autoDismiss: AutoDismiss(after: 2, pauseWhileInteracting: false), style: .alert))
        try stack.focus(id: "a", field: "note", at: 1)
        #expect(stack.nextDeadline == 2.4)
    }

    @Test func aCoveredEntryThatTimesOutGoesAloneAndAtOnce() throws {
        var stack = ModalStack(container: phone)
        stack.show(Presentation(id: "toast", autoDismiss: AutoDismiss(after: 1), style: .alert,
                                transition: linear(.crossDissolve, 0)), at: 0)
        stack.show(Presentation(id: "alert", style: .alert, transition: linear(.crossDissolve, 0)), at: 0.5)
        _ = stack.drainEvents()
        stack.advance(to: 2)
        let events = stack.drainEvents()
        #expect(events.notices(.willDismiss).map(\.id) == ["toast"])
        #expect(events.notices(.didDismiss).first?.time == 1)
        #expect(stack.ids == ["alert"])
    }

    @Test func anUpdatedCountdownStartsAgainAndNullStopsIt() throws {
        var stack = presented(Presentation(id: "a", autoDismiss: AutoDismiss(after: 5), style: .alert))
        try stack.update(id: "a", EntryUpdate(autoDismiss: .some(AutoDismiss(after: 1))), at: 2)
        #expect(stack.nextDeadline == 3)
        try stack.update(id: "a", EntryUpdate(autoDismiss: .some(nil)), at: 2.5)
        #expect(stack.nextDeadline == nil)
        stack.advance(to: 100)
        #expect(stack.ids == ["a"])
    }

    @Test func aDismissalByActionNamesItsAction() throws {
        var stack = presented(Presentation(id: "a", content: Self.dialog, style: .alert))
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", reason: .action, action: "delete", at: 1)
        stack.advance(to: 2)
        let events = stack.drainEvents()
        #expect(events.notices(.willDismiss).first?.action == "delete")
        #expect(events.notices(.didDismiss).first?.action == "delete")
    }
}
