// Coming back after a restart: the entries that were on screen when the daemon stopped
// are put back where they were, at rest, in their order. The server reads and validates
// the state file; which state an entry comes back in is decided here, with the same rules
// as for every other entry (levels, contexts, adaptivity, overlay stacking, status bar).

extension ModalStack {
    /// Puts back an entry that was on screen: at rest at once, above the entries of its
    /// level restored before it — no transition, no queue, no dedupe against the entry
    /// below, no preemption, whatever do not disturb says (it was already showing). Its
    /// auto-dismiss countdown starts over at `t`, with its whole time. Call it bottom to
    /// top; entries that were queued come back through `present` afterwards.
    ///
    /// Emits `willPresent` and `didPresent` at `t`, so that anyone listening learns of
    /// the entry as of any other.
    ///
    /// Throws as `present` does for an id already on the stack or an unknown context.
    @discardableResult
    public mutating func restore(_ presentation: Presentation, owner: OwnerID,
                                 at t: Double) throws(StackError) -> String {
        advance(to: t)
        let id = try newID(presentation.id)
        var e = Entry(id: id, owner: owner, presentation: presentation, state: .presented, sequence: nextSequence)
        nextSequence += 1
        if let name = presentation.context {
            guard let area = contexts[name] else { throw .unknownContext(name: name) }
            e.area = area
        }
        e.isAdapted = e.wantsAdaptation(in: container)
        if e.level == .overlay { e.overlayOffset = 0 }   // laid out below, with the others
        if let auto = presentation.autoDismiss { e.countdown = Countdown(remaining: auto.after, runningSince: time) }
        entries.insert(e, at: (entries.lastIndex { $0.level <= e.level } ?? -1) + 1)
        emit(e, .willPresent, at: time, content: true)
        emit(e, .didPresent, at: time)
        events.append(.stackChanged)
        layOutOverlays(duration: 0)
        restackSheets(instantly: true)
        resolveStatusBar(duration: 0)
        pictureChanged()
        return id
    }
}
