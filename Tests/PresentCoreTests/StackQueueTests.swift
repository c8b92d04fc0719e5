// Presenting onto the stack: pushing on top, queueing while a transition runs (none
// dropped, each started at the exact end of the one before), priority order with FIFO
// among equals, override preemption, dedupe, ids and the errors that change nothing.

import Testing
import PresentCore

@Suite struct StackQueueTests {
    @Test func presentPushesOnTopWhenIdle() {
        var stack = ModalStack()
        let a = stack.show(sheet("a"), at: 0)
        #expect(a?.state == .presenting && a?.deduplicated == false)
        stack.advance(to: 1)
        let b = stack.show(sheet("b", style: .alert), at: 1)
        #expect(b?.state == .presenting)
        #expect(stack.ids == ["a", "b"])
        #expect(stack.scene(at: 1).entryIDs == ["a", "b"])
        let events = stack.drainEvents().notices
        #expect(events.map(\.event) == [.willPresent, .didPresent, .willPresent])
        #expect(events.map(\.time) == [0, 0.4, 1])
    }

    @Test func requestsDuringATransitionWaitAndStartAtTheExactEndOfThePreviousOne() throws {
        var stack = ModalStack()
        stack.show(sheet("a", duration: 0.3), at: 0)
        #expect(stack.show(sheet("b", duration: 0.7), at: 0.1)?.state == .queued)
        #expect(stack.show(sheet("c", duration: 0.5), at: 0.2)?.state == .queued)
        #expect(stack.queuedIDs == ["b", "c"])
        #expect(stack.ids == ["a"])
        let aEnd = try #require(stack.entry(id: "a")?.animation?.end)

        stack.advance(to: 5)  // one long step: every hand-over happens at its own time
        let events = stack.drainEvents().notices
        let willB = try #require(events.first { $0.id == "b" && $0.event == .willPresent })
        #expect(willB.time == aEnd)
        #expect(willB.animation?.start == aEnd)
        let bEnd = try #require(willB.animation?.end)
        let willC = try #require(events.first { $0.id == "c" && $0.event == .willPresent })
        #expect(willC.time == bEnd)
        #expect(events.filter { $0.event == .didPresent }.map(\.id) == ["a", "b", "c"])
        #expect(events.filter { $0.event == .queued }.map(\.time) == [0.1, 0.2])
        #expect(stack.ids == ["a", "b", "c"])
        #expect(stack.entries.allSatisfy { $0.state == .presented })
    }

    @Test func aQueuedEntryStartsWhenALeavingEntryIsGone() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        _ = try stack.dismiss(id: "a", at: 1)
        #expect(stack.show(sheet("b"), at: 1.1)?.state == .queued)
        let end = try #require(stack.entry(id: "a")?.animation?.end)
        stack.advance(to: 2)
        let will = try #require(stack.drainEvents().notices(for: "b").first { $0.event == .willPresent })
        #expect(will.time == end)
    }

    @Test func noRequestIsEverDropped() {
        var stack = ModalStack()
        for i in 0..<25 {
            stack.show(sheet("e\(i)", duration: 0.1, priority: [0, 250, 500, 750, 1000][i % 5]), at: Double(i) * 0.01)
        }
        #expect(stack.ids.count + stack.queue.count == 25)
        stack.advance(to: 100)
        #expect(stack.queue.isEmpty)
        #expect(Set(stack.ids) == Set((0..<25).map { "e\($0)" }))
        #expect(stack.drainEvents().notices(.didPresent).count == 25)
    }

    @Test func theQueueIsOrderedByPriorityThenArrival() {
        var stack = ModalStack()
        stack.show(sheet("running"), at: 0)
        let requests: [(String, Int)] = [("low", 250), ("high1", 750), ("normal1", 500),
                                         ("high2", 750), ("normal2", 500), ("min", 0), ("max", 1000)]
        for (i, (id, priority)) in requests.enumerated() {
            stack.show(sheet(id, priority: priority), at: 0.01 * Double(i + 1))
        }
        let order = ["max", "high1", "high2", "normal1", "normal2", "low", "min"]
        #expect(stack.queuedIDs == order)
        stack.advance(to: 10)
        #expect(stack.ids == ["running"] + order)
        #expect(stack.drainEvents().notices(.willPresent).map(\.id) == ["running"] + order)
    }

    @Test func aLaterHigherPriorityRequestOvertakesTheQueue() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("b", priority: 250), at: 0.1)
        stack.advance(to: 0.4)  // a ends, b starts presenting
        stack.show(sheet("c", priority: 250), at: 0.5)
        stack.show(sheet("d", priority: 750), at: 0.6)
        #expect(stack.queuedIDs == ["d", "c"])
    }

    // MARK: Override

    @Test func anOverridePreemptsTheTopEntryAtOnce() throws {
        var stack = ModalStack()
        stack.show(sheet("a", priority: 500), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        let outcome = stack.show(sheet("b", priority: 500, precedence: .override), at: 1)
        #expect(outcome?.state == .presenting)
        #expect(stack.entry(id: "a")?.state == .dismissing)
        #expect(stack.entry(id: "a")?.dismissReason == .preempted)
        let events = stack.drainEvents().notices
        let leave = try #require(events.first { $0.id == "a" && $0.event == .willDismiss })
        #expect(leave.reason == .preempted && leave.time == 1)
        #expect(events.contains { $0.id == "b" && $0.event == .willPresent && $0.time == 1 })
        stack.advance(to: 2)
        let gone = try #require(stack.drainEvents().notices(for: "a").first)
        #expect(gone.event == .didDismiss && gone.reason == .preempted)
        #expect(stack.ids == ["b"])
    }

    @Test func anOverridePreemptsEvenWhileATransitionRuns() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        let outcome = stack.show(sheet("b", priority: 1000, precedence: .override), at: 0.2)
        #expect(outcome?.state == .presenting)
        #expect(stack.queue.isEmpty)
        #expect(stack.entry(id: "a")?.state == .dismissing)
        #expect(stack.entry(id: "a")?.dismissReason == .preempted)
    }

    @Test func aLowerOverrideWaitsInsteadOfBeingDropped() throws {
        var stack = ModalStack()
        stack.show(sheet("a", priority: 750), at: 0)
        let outcome = stack.show(sheet("b", priority: 500, precedence: .override), at: 0.1)
        #expect(outcome?.state == .queued)
        #expect(stack.queuedIDs == ["b"])
        #expect(stack.entry(id: "a")?.state == .presenting)
        stack.advance(to: 1)
        #expect(stack.ids == ["a", "b"])
        let events = stack.drainEvents().notices
        #expect(!events.contains { $0.id == "a" && $0.event == .willDismiss })
        #expect(events.contains { $0.id == "b" && $0.event == .didPresent })
    }

    @Test func aLowerOverrideOnAnIdleStackPresentsWithoutPreempting() {
        var stack = ModalStack()
        stack.show(sheet("a", priority: 750), at: 0)
        stack.advance(to: 1)
        #expect(stack.show(sheet("b", priority: 250, precedence: .override), at: 1)?.state == .presenting)
        #expect(stack.entry(id: "a")?.state == .presented)
    }

    @Test func anEnqueueRequestNeverPreempts() {
        var stack = ModalStack()
        stack.show(sheet("a", priority: 0), at: 0)
        stack.advance(to: 1)
        stack.show(sheet("b", priority: 1000, precedence: .enqueue), at: 1)
        #expect(stack.entry(id: "a")?.state == .presented)
        #expect(stack.ids == ["a", "b"])
    }

    // MARK: Dedupe

    @Test func aPresentOfTheTopEntrysKindReturnsIt() {
        var stack = ModalStack()
        stack.show(sheet("a", kind: "menu"), at: 0)
        _ = stack.drainEvents()
        let before = stack.snapshot
        let again = stack.show(sheet(kind: "menu"), at: 0.1)
        #expect(again?.id == "a" && again?.deduplicated == true && again?.state == .presenting)
        #expect(stack.ids == ["a"] && stack.queue.isEmpty)
        #expect(stack.drainEvents().notices.isEmpty)
        #expect(stack.snapshot.entries == before.entries)
    }

    @Test func aPresentOfAQueuedEntrysKindReturnsIt() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("q", kind: "toast"), at: 0.1)
        let again = stack.show(sheet(kind: "toast"), at: 0.2)
        #expect(again?.id == "q" && again?.deduplicated == true && again?.state == .queued)
        #expect(stack.queuedIDs == ["q"])
    }

    @Test func dedupeCanBeTurnedOff() {
        var stack = ModalStack()
        stack.show(sheet("a", kind: "menu"), at: 0)
        let again = stack.show(sheet("b", kind: "menu", deduplicate: false), at: 1)
        #expect(again?.id == "b" && again?.deduplicated == false)
        #expect(stack.ids == ["a", "b"])
    }

    @Test func onlyTheTopEntrysKindCounts() {
        var stack = ModalStack()
        stack.show(sheet("a", kind: "menu"), at: 0)
        stack.show(sheet("b", kind: "other"), at: 1)
        stack.advance(to: 2)
        #expect(stack.show(sheet("c", kind: "menu"), at: 2)?.deduplicated == false)
        #expect(stack.ids == ["a", "b", "c"])
    }

    @Test func aLeavingEntryIsNotReturned() throws {
        var stack = ModalStack()
        stack.show(sheet("a", kind: "menu"), at: 0)
        stack.advance(to: 1)
        _ = try stack.dismiss(id: "a", at: 1)
        let again = stack.show(sheet("b", kind: "menu"), at: 1.1)
        #expect(again?.id == "b" && again?.deduplicated == false)
    }

    @Test func entriesWithoutAKindAreNeverDeduplicated() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        #expect(stack.show(sheet(), at: 1)?.deduplicated == false)
    }

    // MARK: Ids and errors

    @Test func idsAreGeneratedAndNeverReused() {
        var stack = ModalStack()
        stack.show(sheet("p1"), at: 0)
        let generated = stack.show(sheet(), at: 0.1)
        #expect(generated?.id == "p2")
        #expect(stack.show(sheet(), at: 0.2)?.id == "p3")
    }

    @Test func aDuplicateIDIsRefusedAndChangesNothing() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: StatusBarAppearance(style: .lightContent)), at: 0)
        stack.show(sheet("q"), at: 0.1)
        _ = stack.drainEvents()
        let before = stack.snapshot
        #expect(throws: StackError.duplicateID(id: "a")) {
            try stack.present(sheet("a", priority: 1000, precedence: .override), owner: 2, at: 0.1)
        }
        #expect(throws: StackError.duplicateID(id: "q")) { try stack.present(sheet("q"), owner: 2, at: 0.1) }
        #expect(stack.snapshot == before)
        #expect(stack.drainEvents().isEmpty)
    }

    @Test func anUnknownIDIsRefusedAndChangesNothing() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("q"), at: 0.1)
        _ = stack.drainEvents()
        let before = stack.snapshot
        #expect(throws: StackError.notFound(id: "zzz")) { try stack.dismiss(id: "zzz", at: 0.1) }
        #expect(stack.snapshot == before)
        #expect(stack.drainEvents().isEmpty)
    }

    @Test func aRefusedRequestLaterInTimeOnlyLetsTimePass() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("q"), at: 0.1)
        _ = stack.drainEvents()
        var onlyTime = stack.advanced(to: 0.5)
        #expect(throws: StackError.notFound(id: "zzz")) { try stack.dismiss(id: "zzz", at: 0.5) }
        #expect(stack.snapshot == onlyTime.snapshot)
        #expect(stack.drainEvents() == onlyTime.drainEvents())
    }

    @Test func anIDFreesUpOnceItsEntryIsGone() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        _ = try stack.dismiss(id: "a", at: 1)
        #expect(throws: StackError.duplicateID(id: "a")) { try stack.present(sheet("a"), owner: 1, at: 1.2) }
        // Leaving ends at 1.4: the same id may be presented again afterwards.
        #expect(try stack.present(sheet("a"), owner: 1, at: 2).state == .presenting)
    }
}
