// Putting back what was on screen after a restart: each entry at rest where presenting
// it and letting it finish would have left it, in order, with nothing moving, its
// countdown whole, do not disturb ignored (it was already showing), and the errors of
// `present` changing nothing.

import Testing
import PresentCore

@Suite struct RestoreTests {
    /// Two modal entries, two toasts at the top and one in context "panel".
    static func presentations() -> [Presentation] {
        var toasts = (0..<2).map { i -> Presentation in
            var toast = sheet("toast\(i)", style: .popup, statusBar: i == 1 ? .init(style: .lightContent) : nil)
            toast.level = .overlay
            return toast
        }
        var inPanel = sheet("panel", style: .alert)
        inPanel.context = "panel"
        toasts.append(inPanel)
        return [sheet("a", style: .bottomHalf), sheet("b", style: .alert)] + toasts
    }

    static func withPanel(at t: Double) -> ModalStack {
        var stack = ModalStack(container: phone, time: t)
        stack.defineContext("panel", frame: Rect(x: 20, y: 100, width: 300, height: 400), duration: 0, at: t)
        return stack
    }

    @Test func restoredEntriesRestWhereFinishedPresentationsWould() throws {
        var presented = Self.withPanel(at: 0)
        var t = 0.0
        for p in Self.presentations() {
            presented.show(p, at: t)
            t += 10
            presented.advance(to: t)
        }
        var restored = Self.withPanel(at: 100)
        for p in Self.presentations() { try restored.restore(p, owner: 1, at: 100) }

        let scene = restored.scene(at: 100)
        #expect(!scene.isAnimating, "nothing moves after a restore")
        #expect(restored.ids == presented.ids)
        #expect(restored.entries.allSatisfy { $0.state == .presented })
        #expect(scene.layers == presented.scene(at: t).layers)
        #expect(restored.statusBar == presented.statusBar && restored.statusBar.style == .lightContent)
        #expect(restored.scene(at: 130) == restored.advanced(to: 130).scene(at: 130), "and nothing starts later")
    }

    @Test func aRestoredCountdownStartsOverWithItsWholeTime() throws {
        var stack = ModalStack(container: phone, time: 50)
        var toast = sheet("toast")
        toast.autoDismiss = AutoDismiss(after: 4)
        try stack.restore(toast, owner: 1, at: 50)
        #expect(stack.nextDeadline == 54)
        stack.advance(to: 54)
        let leaving = stack.drainEvents().notices(.willDismiss)
        #expect(leaving.map(\.reason) == [.timeout] && leaving.map(\.time) == [54])
    }

    @Test func doNotDisturbDoesNotHoldWhatWasAlreadyShowing() throws {
        var stack = ModalStack()
        stack.setDoNotDisturb(DoNotDisturb(), at: 0)
        try stack.restore(sheet("a"), owner: 1, at: 1)
        #expect(stack.ids == ["a"] && stack.queuedIDs.isEmpty)
        #expect(stack.show(sheet("b"), at: 1)?.state == .queued, "what comes after is held")
    }

    @Test func theEventsSayTheEntryIsPresentedAtTheRestoreTime() throws {
        var stack = ModalStack()
        let revision = stack.sceneRevision
        try stack.restore(sheet("a"), owner: 7, at: 3)
        #expect(stack.sceneRevision != revision, "the picture changed")
        let notices = stack.drainEvents().notices
        #expect(notices.map(\.event) == [.willPresent, .didPresent])
        #expect(notices.allSatisfy { $0.time == 3 && $0.owner == 7 && $0.animation == nil })
    }

    @Test func itsErrorsArePresentsAndChangeNothing() throws {
        var stack = ModalStack()
        try stack.restore(sheet("a"), owner: 1, at: 0)
        _ = stack.drainEvents()
        let before = stack.snapshot, revisions = (stack.sceneRevision, stack.stateRevision)
        #expect(throws: StackError.duplicateID(id: "a")) { try stack.restore(sheet("a"), owner: 1, at: 0) }
        var lost = sheet("b")
        lost.context = "gone"
        #expect(throws: StackError.unknownContext(name: "gone")) { try stack.restore(lost, owner: 1, at: 0) }
        #expect(stack.snapshot == before)
        #expect(stack.sceneRevision == revisions.0 && stack.stateRevision == revisions.1)
        #expect(stack.drainEvents().isEmpty)
    }
}
