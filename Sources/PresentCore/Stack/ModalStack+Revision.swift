// Revisions: how a caller learns that the stack changed without comparing it. Two
// counters, bumped by the stack itself where it changes, never by a caller:
//
// - `sceneRevision`, the picture's: it changes with every mutation that may change the
//   picture as it stands, `scene(at: time)` — every public mutating operation but
//   `advance`, `focus`, `transferOwnership` and the drains, and `removeAll` or
//   `reconfigure` only when they take an entry off the screen or change the status bar —
//   and never through time passing (`advance`). What the picture does later on its own
//   is not in it: it moves while `isMoving`, and otherwise holds still until
//   `nextDeadline` (a countdown or the end of a mode). So a frame is owed when the
//   revision is not the one last drawn, or while the stack moves. It is conservative: a
//   request that leaves the picture as it was (a queued or deduplicated present, a swipe
//   that caught nothing, a container set to what it was) bumps it all the same.
//
// - `stateRevision`, the whole value's: it changes whenever anything any query answers
//   may have changed — every mutation, the picture's included, and `advance` to a later
//   time — and not otherwise (the queries and the drains leave it). Whatever a caller
//   derived from the stack (what it last published, the deadline it woke up for) is
//   still right while it holds.
//
// Both only grow (wrapping after 2⁶⁴ bumps).

extension ModalStack {
    /// The picture changes on its own from `time` on: some motion is in force at the
    /// stack's time (a transition, a re-layout, a spring-back). While false, `scene(at:)`
    /// draws the same layers for every t before `nextDeadline` (a countdown running out
    /// or a mode ending, which the caller wakes for), until a mutation.
    public var isMoving: Bool { entries.contains { $0.isAnimating(at: time) } }

    /// The picture may have changed: bumps both revisions.
    mutating func pictureChanged() {
        sceneRevision &+= 1
        stateRevision &+= 1
    }

    /// Something a query answers may have changed, but nothing drawn.
    mutating func stateChanged() {
        stateRevision &+= 1
    }
}
