// Re-layout: the container changed (rotation, resize, traits) or the keyboard moved.
// Every on-screen entry adapts to the new traits and retargets its motion to the new
// frames; an animation in flight keeps its end time, and the change is added on top of
// what runs (Motion), so neither a position nor a velocity jumps. A swipe in progress
// ends there: the entry glides from where it is to its new layout.

extension ModalStack {
    /// Replaces the container (the keyboard stays as it is) and re-lays out every entry.
    /// `duration` nil = the configured default; 0 = at once.
    public mutating func setContainer(_ new: Container, duration: Double? = nil, at t: Double) {
        advance(to: t)
        let current = visuals()
        var next = new
        next.keyboardHeight = container.keyboardHeight
        container = next
        adaptEntries()
        relayout(from: current, duration: duration ?? configuration.containerChangeDuration,
                 curve: moving(configuration.containerChangeTiming))
        layOutOverlays()
        syncCountdowns()   // a drag that was in progress ended
        pictureChanged()   // even to the same container: conservative
    }

    /// The keyboard rose to `height` (0 = hidden); entries avoid it by their keyboard mode.
    public mutating func setKeyboard(height: Double, duration: Double? = nil, curve: TimingCurve? = nil, at t: Double) {
        advance(to: t)
        let current = visuals()
        container.keyboardHeight = max(0, height)
        relayout(from: current, duration: duration ?? configuration.keyboardDuration,
                 curve: moving(curve ?? configuration.keyboardTiming))
        events.append(.stackChanged)  // the entries' laid-out frames moved
        pictureChanged()
    }

    /// Where every on-screen entry is drawn now. Taken before the container changes: an
    /// entry at rest is drawn at its layout in the *current* container, which is where
    /// its re-layout must start from.
    private func visuals() -> [VisualState] {
        entries.map { $0.visual(at: time, in: container) }
    }

    /// Applies or reverts each entry's compact-height policy, reporting each change.
    private mutating func adaptEntries() {
        for i in entries.indices {
            let wants = entries[i].wantsAdaptation(in: container)
            guard wants != entries[i].isAdapted else { continue }
            let before = entries[i].effectiveContent
            entries[i].isAdapted = wants
            if entries[i].effectiveContent != before { entries[i].contentRevision += 1 }
            let e = entries[i]
            emit(
                e, .adapted, at: time,
                adaptation: .init(active: wants, style: e.effectiveStyle, content: e.effectiveContent),
                 content: true)
        }
        for i in queue.indices { queue[i].isAdapted = queue[i].wantsAdaptation(in: container) }
        events.append(.stackChanged)
    }

    /// Moves every entry from `current` (its visual state before the change, by index)
    /// towards its new target.
    private mutating func relayout(from current: [VisualState], duration: Double, curve: TimingCurve) {
        for i in entries.indices {
            store(retargeted(entries[i], from: current[i], duration: duration, curve: curve), at: i)
        }
    }

    /// `e` aimed at its target in the current layout, from `now` (where it is drawn
    /// before the change): transitions keep their end time, entries at rest animate over
    /// `duration`. Re-layouts and in-place updates share it.
    func retargeted(_ entry: Entry, from now: VisualState, duration: Double, curve: TimingCurve) -> Entry {
        var e = entry
        let rest = e.restState(in: container)
        switch e.state {
        case .presenting:
            e.animation = retarget(e.animation, to: rest)
        case .dismissing:
            e.animation = retarget(e.animation, to: dismissTarget(of: e))
        case .presented:
            // A drag in progress ends: the new layout is no place to finish it, and
            // moving its base under the finger would make the entry jump.
            e.swipe = nil
            e.animation = duration > 0 && now != rest
                ? (e.animation ?? Motion(at: now, time: time)).retargeted(
                    to: rest, at: time, duration: duration, curve: curve)
                : nil
        case .queued:
            break
        }
        return e
    }

    /// The same motion aimed at a new target, ending when it would have ended (a spring
    /// runs for its own duration).
    private func retarget(_ m: Motion?, to target: VisualState) -> Motion {
        guard let m, !m.isFinished(at: time) else { return Motion(at: target, time: time) }
        return m.retargeted(to: target, at: time, duration: m.end - time, curve: m.curve)
    }

    /// Where a leaving entry is headed, recomputed for the current layout.
    func dismissTarget(of e: Entry) -> VisualState {
        let rest = e.restState(in: container)
        if let edge = e.exitEdge { return swipeExitState(from: rest, through: edge) }
        return offscreen(e, from: rest, transition: e.exitTransition ?? e.presentation.effectiveDismissTransition,
                         phase: .dismissing)
    }

    /// Where `transition` takes `e` off screen from `rest`: beyond the edges of its
    /// context when it has one (its layers are clipped there), else of the container.
    func offscreen(_ e: Entry, from rest: VisualState, transition: Transition, phase: TransitionPhase) -> VisualState {
        let (inner, origin) = e.layoutContainer(in: container)
        var local = rest
        local.frame = rest.frame.offsetBy(dx: -origin.x, dy: -origin.y)
        var off = transition.offscreenState(
            from: local, container: inner.size, slideEdge: e.effectiveStyle.slideEdge(in: inner.layoutDirection),
            phase: phase)
        off.frame = off.frame.offsetBy(dx: origin.x, dy: origin.y)
        return off
    }
}
