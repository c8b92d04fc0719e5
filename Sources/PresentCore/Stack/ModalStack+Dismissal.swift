// Dismissing: an entry and everything above it on its level (UIKit's rule: only the top
// one animates, the others are removed at once), a whole owner's entries, or everything.
// A dismissal never waits for a running transition: it interrupts it, reversing from
// the current state.

extension ModalStack {
    /// Dismisses `id` and every entry above it; returns their ids, the named one first.
    /// A queued entry is simply withdrawn.
    /// `action`: with reason `action`, the action that was activated (the events name it).
    public mutating func dismiss(id: String, animated: Bool = true, transition: Transition? = nil,
                                 reason: DismissReason = .request, action: String? = nil,
                                 at t: Double) throws(StackError) -> [String] {
        let ids = try dismissing(
            id: id, animated: animated, transition: transition, reason: reason, action: action, at: t)
        pictureChanged()   // even a queued one, or one already leaving: conservative
        return ids
    }

    /// `dismiss` but for the revision, which it bumps once whichever way this returns.
    private mutating func dismissing(id: String, animated: Bool, transition: Transition?, reason: DismissReason,
                                     action: String?, at t: Double) throws(StackError) -> [String] {
        advance(to: t)
        if let action {
            if let q = queue.firstIndex(where: { $0.id == id }) { queue[q].dismissAction = action }
            if let i = entries.firstIndex(where: { $0.id == id }) { entries[i].dismissAction = action }
        }
        if let q = queue.firstIndex(where: { $0.id == id }) {
            withdraw(at: q, reason: reason)
            return [id]
        }
        guard entries.contains(where: { $0.id == id }) else { throw .notFound(id: id) }
        let above = onScreenEntriesTakenAlong(byDismissing: id)
        let ids = above.map(\.id)
        // UIKit's rule: the topmost one animates, those under it are removed at once. Entries
        // already leaving go on leaving, so the topmost of those staying is the one that
        // animates (the others are hidden under it). Other levels are not above it.
        let staying = above.filter { $0.state != .dismissing }.map(\.id)
        guard let animating = staying.last else { return ids }
        let exit = beginDismissing(id: animating, reason: reason, transition: transition, animated: animated)
        for other in staying.dropLast().reversed() { removeImmediately(id: other, reason: reason) }
        settle()
        resolveStatusBar(duration: exit?.duration ?? 0)
        return ids
    }

    /// What a dismissal of `id` takes along, as `dismiss(id:)` does: a queued entry alone;
    /// an overlay alone (overlays are independent of each other); on a modal level, the
    /// entry and every entry above it on that level. Empty when there is no such entry.
    /// Who may dismiss is decided over exactly these (the server's dismiss policy).
    public func entriesTakenAlong(byDismissing id: String) -> [Entry] {
        if let queued = queue.first(where: { $0.id == id }) { return [queued] }
        return onScreenEntriesTakenAlong(byDismissing: id)
    }

    private func onScreenEntriesTakenAlong(byDismissing id: String) -> [Entry] {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return [] }
        let level = entries[index].level
        return level.isModal ? entries[index...].filter { $0.level == level } : [entries[index]]
    }

    /// Dismisses every entry of every level and withdraws every queued one.
    public mutating func dismissAll(animated: Bool = true, reason: DismissReason = .request, at t: Double) -> [String] {
        advance(to: t)
        pictureChanged()   // even on an empty stack: conservative
        let withdrawn = queue.map(\.id)
        while !queue.isEmpty { withdraw(at: queue.count - 1, reason: reason) }
        var dismissed: [String] = []
        for level in Level.allCases.reversed() {
            // A modal level goes with its bottom entry; overlays go one by one.
            let ids = entries.filter { $0.level == level }.map(\.id)
            for id in level.isModal ? Array(ids.prefix(1)) : ids {
                dismissed += (try? dismiss(id: id, animated: animated, reason: reason, at: t)) ?? []
            }
        }
        return dismissed + withdrawn
    }

    /// Removes everything `owner` presented (its connection went away). Only the owner's
    /// entries leave — others' entries above or below stay; the topmost animates out.
    /// An owner with nothing on the stack changes nothing, the stack's time included:
    /// most connections never present, and each one's leaving must not cost a publish.
    public mutating func removeAll(ownedBy owner: OwnerID, reason: DismissReason = .ownerGone,
                                   at t: Double) -> [String] {
        guard entries.contains(where: { $0.owner == owner }) || queue.contains(where: { $0.owner == owner }) else {
            return []
        }
        advance(to: t)
        return removeAll(where: { $0.owner == owner }, reason: reason)
    }

    /// Withdraws the queued entries `leaves` picks and takes its on-screen ones off: the
    /// topmost of each level animates out, the others go at once; others' entries stay.
    mutating func removeAll(where leaves: (Entry) -> Bool, reason: DismissReason) -> [String] {
        var removed: [String] = []
        while let q = queue.lastIndex(where: leaves) {
            removed.append(queue[q].id)
            withdraw(at: q, reason: reason)
        }
        if !removed.isEmpty { stateChanged() }   // the queue is not drawn (yet)
        var exit: Motion?
        var tookOffScreen = false
        for e in entries.reversed() where leaves(e) {
            tookOffScreen = true
            removed.append(e.id)
            if e.id == entries.last(where: { $0.level == e.level })?.id {
                exit = beginDismissing(id: e.id, reason: reason, transition: nil, animated: true)
            } else {
                removeImmediately(id: e.id, reason: reason)
            }
        }
        settle()
        resolveStatusBar(duration: exit?.duration ?? 0)
        if tookOffScreen { pictureChanged() }
        return removed
    }

    // MARK: Mechanics

    /// Takes a queued entry out of the queue; it never appeared, so it only gets didDismiss.
    mutating func withdraw(at index: Int, reason: DismissReason) {
        let e = queue.remove(at: index)
        emit(e, .didDismiss, at: time, reason: reason)
        events.append(.stackChanged)
    }

    /// Removes an on-screen entry without animation. The caller resolves the status bar
    /// once its whole operation is done.
    mutating func removeImmediately(id: String, reason: DismissReason) {
        guard let i = entries.firstIndex(where: { $0.id == id }) else { return }
        let e = entries.remove(at: i)
        if e.state != .dismissing { emit(e, .willDismiss, at: time, reason: reason) }
        emit(e, .didDismiss, at: time, reason: e.dismissReason ?? reason)
        events.append(.stackChanged)
        layOutOverlays()
        restackSheets()   // a sheet it covered comes back at once
    }

    /// Starts an entry's way out from wherever it is now. An entry still presenting
    /// reverses: the way back takes the share of the duration it had used. Returns the
    /// motion started (nil when it was already leaving or went at once); the caller
    /// resolves the status bar with it once its whole operation is done, so an operation
    /// that changes several entries reports one change, timed with the top's transition.
    @discardableResult
    mutating func beginDismissing(id: String, reason: DismissReason, transition override: Transition?,
                                  animated: Bool) -> Motion? {
        guard let i = entries.firstIndex(where: { $0.id == id }), entries[i].state != .dismissing else { return nil }
        guard animated else { removeImmediately(id: id, reason: reason); return nil }
        var e = entries[i]
        let transition = moving(override ?? e.presentation.effectiveDismissTransition)   // ModalStack+ReducedMotion
        e.exitTransition = transition
        let target = dismissTarget(of: e)
        let duration = transition.duration * e.presentationShareUsed(at: time)
        startLeaving(&e, towards: target, duration: duration, curve: transition.timing, reason: reason)
        entries[i] = e
        layOutOverlays()   // a leaving overlay makes room
        restackSheets()    // a sheet it covered grows back as it leaves
        return e.animation
    }

    /// Puts `e` into the dismissing state, animating from its current visual state.
    /// The caller stores `e` back and then resolves the status bar.
    mutating func startLeaving(_ e: inout Entry, towards target: VisualState, duration: Double,
                               curve: TimingCurve, reason: DismissReason) {
        // A dragged entry starts from under the finger, at rest; anything else keeps moving
        // as it was, the way out added on top.
        let running = e.swipe == nil ? e.animation : nil
        let next = (running ?? Motion(at: e.visual(at: time, in: container), time: time))
            .retargeted(to: target, at: time, duration: duration, curve: curve)
        e.animation = next
        noteRetarget(e)
        e.swipe = nil
        e.state = .dismissing
        e.dismissReason = reason
        emit(e, .willDismiss, at: time, reason: reason, animation: next.announced)
        events.append(.stackChanged)
    }
}
