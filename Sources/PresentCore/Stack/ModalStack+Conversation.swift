// The conversation with an entry: its content changed in place (`update`), its actions
// activated, keys, the field that has focus, and the auto-dismiss countdown. The stack
// says what an activation or a key means; whether the dismissal it asks for may happen
// (the owner's veto) is the caller's business, as for taps.

/// What an `update` changes; a nil member keeps what the entry has. The doubly optional
/// members can also be cleared: `.some(nil)`.
public struct EntryUpdate: Hashable, Sendable {
    public var content: Content??
    public var style: PresentationStyle?
    public var background: Background?
    public var cornerRadius: Double?
    public var shadow: Shadow??
    public var preferredContentSize: PreferredContentSize??
    public var autoDismiss: AutoDismiss??
    /// How a change of geometry animates; nil = the container-change defaults.
    public var duration: Double?
    public var timing: TimingCurve?
    /// A sheet's detent to move to (one of its detents; other entries refuse it).
    public var selectedDetent: String?

    public init(content: Content?? = nil, style: PresentationStyle? = nil, background: Background? = nil,
                cornerRadius: Double? = nil, shadow: Shadow?? = nil, preferredContentSize: PreferredContentSize?? = nil,
        autoDismiss: AutoDismiss?? = nil, selectedDetent: String? = nil, duration: Double? = nil,
        timing: TimingCurve? = nil
    ) {
        self.content = content; self.style = style; self.background = background; self.cornerRadius = cornerRadius
        self.shadow = shadow; self.preferredContentSize = preferredContentSize; self.autoDismiss = autoDismiss
        self.selectedDetent = selectedDetent; self.duration = duration; self.timing = timing
    }

    /// The presentation with these changes.
    func applied(to p: Presentation) -> Presentation {
        var p = p
        if let content { p.content = content }
        if let style {
            p.style = style
            if cornerRadius == nil { p.cornerRadius = Presentation.defaultCornerRadius(for: style) }
        }
        if let background { p.background = background }
        if let cornerRadius { p.cornerRadius = cornerRadius }
        if let shadow { p.shadow = shadow }
        if let preferredContentSize { p.preferredContentSize = preferredContentSize }
        if let autoDismiss { p.autoDismiss = autoDismiss }
        if let selectedDetent, var sheet = p.style.sheet {   // checked by `update`
            sheet.selectedDetent = selectedDetent
            p.style = .sheet(sheet)
        }
        return p
    }
}

/// The keys a shell or renderer forwards to the entry that takes input.
public enum Key: String, Sendable, CaseIterable {
    case escape, enter, back
}

/// What a key means for the topmost entry.
public enum KeyOutcome: Hashable, Sendable {
    /// Activate this action (Escape and back: the cancel action; Enter: the default one).
    case activate(id: String, action: ContentAction)
    /// Dismiss the entry (Escape or back with no cancel action, when it dismisses on Escape).
    case dismiss(id: String)
    /// Nothing answers to it; `id` is the entry that had the key, if any.
    case unhandled(id: String?)

    /// The entry that has the key.
    public var entryID: String? {
        switch self {
        case .activate(let id, _), .dismiss(let id): return id
        case .unhandled(let id): return id
        }
    }
}

extension ModalStack {
    // MARK: Updating in place

    /// Changes entry `id` in place. On screen, a change of geometry animates from where
    /// the entry is now (a transition keeps its end time, as a rotation would); a queued
    /// entry just changes what it will show. Returns the entry as updated.
    @discardableResult
    public mutating func update(id: String, _ change: EntryUpdate, at t: Double) throws(StackError) -> Entry {
        let entry = try updating(id: id, change, at: t)
        pictureChanged()   // even a queued entry's: conservative
        return entry
    }

    /// `update` but for the revision, which it bumps once whichever way this returns.
    private mutating func updating(id: String, _ change: EntryUpdate, at t: Double) throws(StackError) -> Entry {
        advance(to: t)
        if let detent = change.selectedDetent, let p = entry(id: id)?.presentation {
            guard let sheet = (change.style ?? p.style).sheet, sheet.detents.contains(where: { $0.id == detent }) else {
                throw .unknownDetent(id: id, detent: detent)
            }
        }
        if let q = queue.firstIndex(where: { $0.id == id }) {
            let before = queue[q].effectiveContent
            queue[q].presentation = change.applied(to: queue[q].presentation)
            if queue[q].effectiveContent != before { queue[q].contentRevision += 1 }
            emit(queue[q], .updated, at: time, content: true)
            events.append(.stackChanged)
            return queue[q]
        }
        guard let i = entries.firstIndex(where: { $0.id == id }) else { throw .notFound(id: id) }
        var e = entries[i]
        let now = e.visual(at: time, in: container)
        let contentBefore = e.effectiveContent
        let restBefore = e.restState(in: container)
        let detentBefore = e.restingDetent(in: container)?.id
        e.presentation = change.applied(to: e.presentation)
        if e.effectiveContent != contentBefore { e.contentRevision += 1 }
        if let auto = change.autoDismiss {
            // A new countdown starts now (or when it finishes presenting); none stops it.
            e.countdown = e.state == .presented ? auto.map { Countdown(remaining: $0.after, runningSince: time) } : nil
        }
        var moved: Animation?
        if e.restState(in: container) != restBefore {
            // A sheet going to another detent moves as its swipes settle: the system spring.
            let toDetent = detentBefore != nil && e.restingDetent(in: container)?.id != detentBefore
            e = retargeted(e, from: now,
                duration: change.duration
                    ?? (toDetent ? SheetStyle.spring.duration : configuration.containerChangeDuration),
                curve: moving(
                    change.timing ?? (toDetent ? .spring(SheetStyle.spring) : configuration.containerChangeTiming)))
            moved = e.animation?.announced
        }
        store(e, at: i)
        emit(e, .updated, at: time, animation: moved, content: true)
        if detentBefore != nil { announceDetentChange(of: e, from: detentBefore) }   // ModalStack+Sheets
        events.append(.stackChanged)
        settle()
        return entries.first { $0.id == id } ?? e
    }

    // MARK: Answers

    /// The action `action` of on-screen entry `id`, checked: it exists and the entry can
    /// be answered (not queued, not already leaving).
    public func activation(id: String, action: String, at t: Double) throws(StackError) -> ContentAction {
        let now = caughtUp(to: t)
        guard let e = now.entry(id: id) else { throw .notFound(id: id) }
        guard e.state == .presenting || e.state == .presented else { throw .notShown(id: id, state: e.state) }
        guard let found = e.effectiveContent?.action(id: action) else { throw .unknownAction(id: id, action: action) }
        return found
    }

    /// What `key` does: it goes to the entry that takes input (the top of the alert level,
    /// else of the normal one, else the newest overlay).
    public func resolve(_ key: Key, at t: Double) -> KeyOutcome {
        guard let top = caughtUp(to: t).inputTarget else { return .unhandled(id: nil) }
        let content = top.effectiveContent
        switch key {
        case .escape, .back:
            if let cancel = content?.action(role: .cancel) { return .activate(id: top.id, action: cancel) }
            return top.presentation.effectiveDismissOnEscape ? .dismiss(id: top.id) : .unhandled(id: top.id)
        case .enter:
            if let preferred = content?.action(role: .default) { return .activate(id: top.id, action: preferred) }
            return .unhandled(id: top.id)
        }
    }

    /// A renderer says field `field` of entry `id` has focus (nil: none of its fields).
    /// While it has, a countdown that pauses while interacting stands still.
    public mutating func focus(id: String, field: String?, at t: Double) throws(StackError) {
        advance(to: t)
        guard let i = entries.firstIndex(where: { $0.id == id }) else {
            if let q = queue.first(where: { $0.id == id }) { throw .notShown(id: id, state: q.state) }
            throw .notFound(id: id)
        }
        if let field, entries[i].effectiveContent?.field(id: field) == nil { throw .unknownField(id: id, field: field) }
        entries[i].focusedField = field
        syncCountdowns()
        stateChanged()   // a countdown may pause or resume; nothing drawn changes
    }

    // MARK: The countdown

    /// Pauses the countdowns of entries someone is working with and resumes the others,
    /// at the stack's time. Every operation that starts or ends a drag or a focus ends here.
    mutating func syncCountdowns() {
        for i in entries.indices where entries[i].countdown != nil {
            let pauses = entries[i].presentation.autoDismiss?.pauseWhileInteracting ?? false
            if pauses && entries[i].isInteracting {
                entries[i].countdown?.pause(at: time)
            } else {
                entries[i].countdown?.resume(at: time)
            }
        }
    }

    /// Entry `index`'s countdown ran out: it leaves with reason `timeout` — animated when
    /// on top, at once when covered (what covers it stays: it did not time out).
    mutating func timeOut(at index: Int) {
        let e = entries[index]
        entries[index].countdown = nil
        guard e.id == topStaying(in: e.level)?.id else {
            removeImmediately(id: e.id, reason: .timeout)
            return resolveStatusBar(duration: 0)
        }
        let exit = beginDismissing(id: e.id, reason: .timeout, transition: nil, animated: true)
        resolveStatusBar(duration: exit?.duration ?? 0)
    }
}
