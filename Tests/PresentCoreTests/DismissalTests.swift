// Taking entries away: the top one animates out; dismissing one lower down takes every
// entry above it with it (only the top animates, the others go at once), each with its
// own willDismiss/didDismiss and reason; queued entries are withdrawn; a client's
// entries go when it disconnects, and nobody else's.

import Testing
import PresentCore

/// A stack with a (popup), b (alert), c (bottom half) presented, bottom to top, at rest
/// at t = 2 with the events drained.
func threeUp(owners: [OwnerID] = [1, 1, 1]) -> ModalStack {
    var stack = ModalStack()
    for (i, id) in ["a", "b", "c"].enumerated() {
        stack.show(sheet(id, style: [.popup, .alert, .bottomHalf][i]), owner: owners[i], at: Double(i) * 0.4)
    }
    stack.advance(to: 2)
    _ = stack.drainEvents()
    return stack
}

@Suite struct DismissalTests {
    @Test func dismissingTheTopAnimatesItOut() throws {
        var stack = threeUp()
        #expect(try stack.dismiss(id: "c", at: 2) == ["c"])
        #expect(stack.entry(id: "c")?.state == .dismissing)
        #expect(stack.scene(at: 2.2).isAnimating)
        stack.advance(to: 3)
        let events = stack.drainEvents().notices
        #expect(events.map(\.event) == [.willDismiss, .didDismiss])
        #expect(events.map(\.time) == [2, 2.4])
        #expect(events.allSatisfy { $0.id == "c" && $0.reason == .request })
        #expect(stack.ids == ["a", "b"])
    }

    @Test(arguments: [DismissReason.request, .tap, .swipe, .ownerGone, .preempted])
    func dismissingMidStackTakesEverythingAboveWithItsOwnEvents(reason: DismissReason) throws {
        var stack = threeUp()
        let removed = try stack.dismiss(id: "a", reason: reason, at: 2)
        #expect(removed == ["a", "b", "c"])
        // Only the top animates; those below it are gone at once.
        #expect(stack.ids == ["c"])
        #expect(stack.entry(id: "c")?.state == .dismissing)
        #expect(stack.scene(at: 2).entryIDs == ["c"])
        let now = stack.drainEvents().notices
        for id in ["a", "b"] {
            #expect(now.notices(for: id).map(\.event) == [.willDismiss, .didDismiss])
            #expect(now.notices(for: id).allSatisfy { $0.time == 2 && $0.reason == reason })
        }
        #expect(now.notices(for: "c").map(\.event) == [.willDismiss])
        #expect(now.notices(for: "c").first?.reason == reason)
        #expect(now.notices(for: "c").first?.animation != nil)

        stack.advance(to: 3)
        let later = stack.drainEvents().notices
        #expect(later.map(\.id) == ["c"])
        #expect(later.first?.event == .didDismiss && later.first?.reason == reason && later.first?.time == 2.4)
        #expect(stack.entries.isEmpty)
    }

    @Test func dismissingTheMiddleLeavesWhatIsBelow() throws {
        var stack = threeUp()
        #expect(try stack.dismiss(id: "b", at: 2) == ["b", "c"])
        #expect(stack.ids == ["a", "c"])
        #expect(stack.entry(id: "a")?.state == .presented)
        stack.advance(to: 3)
        #expect(stack.ids == ["a"])
    }

    @Test func aDismissWithoutAnimationRemovesAtOnce() throws {
        var stack = threeUp()
        #expect(try stack.dismiss(id: "b", animated: false, at: 2) == ["b", "c"])
        #expect(stack.ids == ["a"])
        let events = stack.drainEvents().notices
        #expect(events.filter { $0.event == .didDismiss }.map(\.id).sorted() == ["b", "c"])
        #expect(events.allSatisfy { $0.time == 2 })
    }

    @Test func dismissingALeavingEntryAgainChangesNothing() throws {
        var stack = threeUp()
        _ = try stack.dismiss(id: "c", at: 2)
        _ = stack.drainEvents()
        let before = stack.snapshot
        #expect(try stack.dismiss(id: "c", reason: .tap, at: 2) == ["c"])
        #expect(stack.snapshot == before)
        #expect(stack.drainEvents().notices.isEmpty)
        #expect(stack.entry(id: "c")?.dismissReason == .request)
    }

    /// With the top already leaving, the topmost of the rest animates out (it is what the
    /// user sees); what lies under it is removed at once.
    @Test func dismissingBelowALeavingTopKeepsItsMotionAndReason() throws {
        var stack = threeUp()
        _ = try stack.dismiss(id: "c", at: 2)
        let motion = stack.entry(id: "c")?.animation
        _ = stack.drainEvents()
        _ = try stack.dismiss(id: "a", reason: .tap, at: 2.1)
        #expect(stack.entry(id: "c")?.animation == motion)
        #expect(stack.ids == ["b", "c"])
        #expect(stack.entry(id: "b")?.state == .dismissing)
        #expect(stack.entry(id: "b")?.dismissReason == .tap)
        let events = stack.drainEvents().notices
        #expect(events.notices(for: "c").isEmpty)
        #expect(events.filter { $0.event == .didDismiss }.allSatisfy { $0.reason == .tap })
        stack.advance(to: 3)
        #expect(stack.drainEvents().notices(for: "c").first?.reason == .request)
    }

    @Test func dismissingAQueuedEntryWithdrawsIt() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("q1"), at: 0.1)
        stack.show(sheet("q2"), at: 0.1)
        _ = stack.drainEvents()
        #expect(try stack.dismiss(id: "q1", at: 0.2) == ["q1"])
        #expect(stack.queuedIDs == ["q2"])
        #expect(stack.entry(id: "a")?.state == .presenting)
        let events = stack.drainEvents().notices
        #expect(events.map(\.event) == [.didDismiss])  // it never appeared: no willDismiss
        #expect(events.first?.id == "q1" && events.first?.reason == .request && events.first?.time == 0.2)
        stack.advance(to: 5)
        #expect(stack.ids == ["a", "q2"])
    }

    @Test func dismissAllTakesEverythingAndEmptiesTheQueue() throws {
        var stack = threeUp()
        stack.show(sheet("d"), at: 2)
        stack.show(sheet("q"), at: 2.1)
        _ = stack.drainEvents()
        let removed = stack.dismissAll(at: 2.2)
        #expect(Set(removed) == ["a", "b", "c", "d", "q"])
        #expect(stack.queue.isEmpty)
        #expect(stack.ids == ["d"])  // the top one animates out (reversing)
        stack.advance(to: 5)
        #expect(stack.entries.isEmpty)
        let gone = stack.drainEvents().notices(.didDismiss)
        #expect(gone.map(\.id).sorted() == ["a", "b", "c", "d", "q"])
        #expect(gone.allSatisfy { $0.reason == .request })
    }

    @Test func dismissAllOnAnEmptyStackDoesNothing() {
        var stack = ModalStack()
        #expect(stack.dismissAll(at: 1).isEmpty)
        #expect(stack.drainEvents().isEmpty)
    }

    // MARK: Owner removal

    @Test func removingAnOwnerTakesOnlyItsEntries() throws {
        var stack = threeUp(owners: [1, 2, 1])
        let bFrame = stack.scene(at: 2).content("b")?.frame
        stack.show(sheet("d"), owner: 2, at: 2)
        stack.show(sheet("q1"), owner: 1, at: 2.1)
        stack.show(sheet("q2"), owner: 2, at: 2.1)
        _ = stack.drainEvents()

        let removed = stack.removeAll(ownedBy: 1, at: 2.2)
        #expect(Set(removed) == ["a", "c", "q1"])
        #expect(stack.ids == ["b", "d"])
        #expect(stack.queuedIDs == ["q2"])
        #expect(stack.scene(at: 2.2).content("b")?.frame == bFrame)
        let events = stack.drainEvents().notices
        #expect(Set(events.map(\.id)) == ["a", "c", "q1"])
        #expect(events.allSatisfy { $0.reason == .ownerGone })
        #expect(events.filter { $0.event == .didDismiss }.count == 3)
        stack.advance(to: 5)
        #expect(stack.ids == ["b", "d", "q2"])
    }

    @Test func theOwnersTopEntryAnimatesOutTheOthersGoAtOnce() {
        var stack = threeUp(owners: [2, 1, 1])
        _ = stack.removeAll(ownedBy: 1, at: 2)
        #expect(stack.ids == ["a", "c"])
        #expect(stack.entry(id: "c")?.state == .dismissing)
        #expect(stack.entry(id: "c")?.dismissReason == .ownerGone)
        let b = stack.drainEvents().notices(for: "b")
        #expect(b.map(\.event) == [.willDismiss, .didDismiss])
        stack.advance(to: 3)
        #expect(stack.ids == ["a"])
    }

    @Test func anOwnersEntryBelowAnotherClientsStaysCovered() {
        var stack = threeUp(owners: [1, 1, 2])
        _ = stack.removeAll(ownedBy: 1, at: 2)
        #expect(stack.ids == ["c"])
        #expect(stack.entry(id: "c")?.state == .presented)
    }

    @Test func removingAnOwnerWithNothingChangesNothing() {
        var stack = threeUp()
        let before = stack.snapshot
        #expect(stack.removeAll(ownedBy: 9, at: 2).isEmpty)
        #expect(stack.snapshot == before)
        #expect(stack.drainEvents().notices.isEmpty)
    }
}
