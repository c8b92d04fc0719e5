// Do not disturb on the core's injected clock: what it holds and what it lets through,
// droppable refusals that change nothing, the held queue draining in priority order
// (FIFO among equals) when it is turned off or its `until` comes, at exactly that time.

import Testing
import PresentCore

@Suite struct DoNotDisturbTests {
    @Test func holdsAtOrBelowTheThresholdAndLetsHigherPrioritiesThrough() {
        var stack = ModalStack()
        stack.setDoNotDisturb(DoNotDisturb(allowPriorityAbove: 500), at: 0)
        #expect(stack.show(sheet("low", priority: 100), at: 0)?.state == .queued)
        #expect(stack.show(sheet("edge", priority: 500), at: 0)?.state == .queued, "≤ the threshold is held")
        #expect(stack.show(sheet("system", priority: 501), at: 0)?.state == .presenting)
        stack.advance(to: 10)
        #expect(stack.ids == ["system"], "held entries never start while it is on, however idle the level")
        #expect(stack.queuedIDs == ["edge", "low"])
        #expect(stack.queue.allSatisfy(stack.isHeld))
        #expect(stack.invariantViolations().isEmpty)
        let queued = stack.drainEvents().notices(.queued)
        #expect(queued.map(\.heldBy) == [.doNotDisturb, .doNotDisturb])
    }

    @Test func aDroppablePresentationIsRefusedAndNothingChanges() {
        var stack = ModalStack()
        stack.setDoNotDisturb(DoNotDisturb(), at: 0)
        _ = stack.drainEvents()
        var toast = sheet("toast")
        toast.level = .overlay
        toast.droppable = true
        let before = stack.snapshot
        #expect(throws: StackError.dropped(by: .doNotDisturb)) { try stack.present(toast, owner: 1, at: 0) }
        #expect(stack.snapshot == before)
        #expect(stack.drainEvents().isEmpty)
        stack.setDoNotDisturb(nil, at: 1)
        #expect(stack.show(toast, at: 1)?.state == .presenting, "off: droppable means nothing")
    }

    @Test func turnedOffTheHeldQueueDrainsInPriorityOrderFIFOAmongEquals() throws {
        var stack = ModalStack()
        stack.setDoNotDisturb(DoNotDisturb(), at: 0)
        stack.show(sheet("a", duration: 0.5, priority: 100), at: 0.1)
        stack.show(sheet("b", duration: 0.5, priority: 300), at: 0.2)
        stack.show(sheet("c", duration: 0.5, priority: 100), at: 0.3)
        stack.show(sheet("d", duration: 0.5, priority: 300), at: 0.4)
        _ = stack.drainEvents()
        stack.setDoNotDisturb(nil, at: 2)
        stack.advance(to: 10)
        let events = stack.drainEvents()
        let modes = events.compactMap { if case .mode(let m) = $0 { return m } else { return nil } }
        #expect(modes == [ModeChange(doNotDisturb: nil, time: 2, reason: .request, released: ["b", "d", "a", "c"])])
        let starts = events.notices(.willPresent)
        #expect(starts.map(\.id) == ["b", "d", "a", "c"])
        #expect(starts.map(\.time) == [2, 2.5, 3, 3.5], "each at the exact end of the one before")
    }

    @Test func untilEndsItAtExactlyThatTimeInOneLongStep() throws {
        var stack = ModalStack()
        stack.setDoNotDisturb(DoNotDisturb(until: 5), at: 0)
        #expect(stack.nextDeadline == 5, "the daemon's timer wakes for it")
        stack.show(sheet("a", priority: 10), at: 1)
        _ = stack.drainEvents()
        stack.advance(to: 60)
        let events = stack.drainEvents()
        #expect(stack.doNotDisturb == nil)
        #expect(events.notices(.willPresent).first?.time == 5)
        let mode = events.compactMap { if case .mode(let m) = $0 { return m } else { return nil } }.first
        #expect(mode?.reason == .until && mode?.time == 5 && mode?.released == ["a"])
        #expect(stack.nextDeadline == nil)
    }

    @Test func heldEntriesQueuedBeforeItBeganAreHeldTooAndARaisedThresholdReleases() {
        var stack = ModalStack()
        stack.show(sheet("top", duration: 1), at: 0)
        stack.show(sheet("waiting", priority: 200), at: 0.1)
        stack.setDoNotDisturb(DoNotDisturb(allowPriorityAbove: 500), at: 0.2)
        stack.advance(to: 2)
        #expect(stack.ids == ["top"] && stack.queuedIDs == ["waiting"])
        stack.setDoNotDisturb(DoNotDisturb(allowPriorityAbove: 100), at: 3)
        #expect(stack.ids == ["top", "waiting"], "priority 200 is above the new threshold")
    }

    @Test func anOverrideThatIsHeldPreemptsNothing() {
        var stack = ModalStack()
        stack.show(sheet("top", duration: 0), at: 0)
        stack.setDoNotDisturb(DoNotDisturb(), at: 1)
        #expect(stack.show(sheet("loud", priority: 400, precedence: .override), at: 1)?.state == .queued)
        #expect(stack.ids == ["top"])
    }
}
