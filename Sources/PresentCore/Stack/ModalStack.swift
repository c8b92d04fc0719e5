// The shared modal stack: an ordered stack of entries plus a queue, driven by requests
// and by time. Every operation takes the time it happens at; nothing here reads a
// clock. Operations first catch up with time (finishing transitions, starting queued
// entries at the exact moment the previous transition ended), then apply themselves.

/// Errors an operation can refuse with; the stack is unchanged when one is thrown.
public enum StackError: Error, Hashable, Sendable {
    case notFound(id: String)
    case duplicateID(id: String)
    /// The entry has no action with this id.
    case unknownAction(id: String, action: String)
    /// The entry has no field with this id.
    case unknownField(id: String, field: String)
    /// The entry is queued or already leaving: nobody can be answering it.
    case notShown(id: String, state: EntryState)
    /// The entry is no sheet, or the sheet has no detent with this id (`update`).
    case unknownDetent(id: String, detent: String)
    /// No presentation context has this name.
    case unknownContext(name: String)
    /// A `droppable` presentation that a mode would hold (ModalStack+DoNotDisturb).
    case dropped(by: HoldReason)
}

/// The answer to a present request.
public struct PresentOutcome: Hashable, Sendable {
    public var id: String
    public var state: EntryState
    /// The request matched the top entry's kind and returned it (the guard against
    /// presenting the same thing twice).
    public var deduplicated: Bool
}

/// The modal stack of one screen.
public struct ModalStack: Sendable {
    public internal(set) var configuration: StackConfiguration
    public internal(set) var container: Container
    /// The latest time the stack has caught up with.
    public internal(set) var time: Double
    /// On screen, bottom to top in drawing order: by level, then in the order they came.
    public internal(set) var entries: [Entry] = []
    /// Waiting, in the order they will be presented.
    public internal(set) var queue: [Entry] = []
    /// The status bar as last reported.
    public internal(set) var statusBar: StatusBarAppearance
    /// The presentation contexts: named rectangles entries can be confined to.
    public internal(set) var contexts: [String: Rect] = [:]
    /// Do not disturb, while it is on (ModalStack+DoNotDisturb).
    public internal(set) var doNotDisturb: DoNotDisturb?
    /// Reduced motion, while it is on (ModalStack+ReducedMotion).
    public internal(set) var reducedMotion = false
    /// Grows with every mutation that may change the picture, not with time (ModalStack+Revision).
    public internal(set) var sceneRevision: UInt64 = 0
    /// Grows with every change at all, time included (ModalStack+Revision).
    public internal(set) var stateRevision: UInt64 = 0
    var events: [StackEvent] = []
    /// Entries whose motion changed course since the last `drainRetargets`.
    var retargets: [RetargetNotice] = []
    var nextSequence = 1
    /// Names the entries presented without an id. A daemon of several screens names them
    /// itself, from one generator across its screens (ids are the daemon's, not a screen's).
    var generatedIDs = EntryIDGenerator()

    public init(container: Container = .phonePortrait, configuration: StackConfiguration = .standard, time: Double = 0,
                reducedMotion: Bool = false) {
        self.container = container
        self.configuration = configuration
        self.time = time
        self.reducedMotion = reducedMotion
        self.statusBar = configuration.baseStatusBar
    }

    /// Events or retargets wait for `drainEvents` or `drainRetargets`.
    public var hasUndrainedNotices: Bool { !events.isEmpty || !retargets.isEmpty }

    /// Hands over the events that happened since the last call, oldest first.
    public mutating func drainEvents() -> [StackEvent] {
        // Asked at every publish, mostly of no events: the storage handed out is shared, so
        // emptying it would allocate a new one each time.
        guard !events.isEmpty else { return [] }
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    // MARK: Queries

    public func entry(id: String) -> Entry? {
        entries.first { $0.id == id } ?? queue.first { $0.id == id }
    }

    /// On-screen entries bottom to top, then queued ones in the order they will come.
    public var allEntries: [Entry] { entries + queue }

    /// A present or dismiss animation is running on some level.
    public var isTransitionRunning: Bool { entries.contains { $0.isInTransition } }

    /// A present or dismiss animation is running on `level` (its new presentations wait for it).
    func isTransitionRunning(in level: Level) -> Bool {
        for i in entries.indices where entries[i].presentation.level == level && entries[i].state.isTransition {
            return true
        }
        return false
    }

    // The walks every frame tick makes (here, earliestDue, nextDeadline, the scene's) read an
    // entry by index and stored field, through these: an element bound by `for e in`, given
    // to a closure or asked for one of Entry's computed properties is copied whole first
    // (every reference in it retained, then released), several times a tick.

    /// `entries[i].autoDismissDeadline`, without a copy of the entry.
    func autoDismissDeadline(ofEntryAt i: Int) -> Double? {
        Entry.autoDismissDeadline(state: entries[i].state, countdown: entries[i].countdown)
    }

    /// `entries[i].isAnimating(at: t)`, without a copy of the entry.
    func isAnimating(entryAt i: Int, at t: Double) -> Bool {
        Entry.isMoving(entries[i].animation, at: t)
    }

    /// Anything moves at time t (transitions, re-layouts): frames are needed. At the
    /// stack's own time, `isMoving` says the same without a copy.
    public func isAnimating(at t: Double) -> Bool { caughtUp(to: t).entries.contains { $0.isAnimating(at: t) } }

    /// The stack as it will be at t if nothing else happens first; the queries that take
    /// a time (scene, hit test, isAnimating) answer from it, so they agree with `advance`.
    func caughtUp(to t: Double) -> ModalStack {
        guard t > time else { return self }
        var later = self
        later.advance(to: t)
        return later
    }

    /// The topmost entry of `level` that is not leaving.
    func topStaying(in level: Level) -> Entry? { entries.last { $0.level == level && $0.state != .dismissing } }

    /// The entry that takes keys and swipes: the top of the alert level, else of the
    /// normal one, else the newest overlay.
    var inputTarget: Entry? { topStaying(in: .alert) ?? topStaying(in: .normal) ?? topStaying(in: .overlay) }

    // MARK: Presenting

    /// Presents, queues, or returns the matching top entry (dedupe).
    public mutating func present(_ presentation: Presentation, owner: OwnerID,
                                 at t: Double) throws(StackError) -> PresentOutcome {
        let outcome = try presenting(presentation, owner: owner, at: t)
        pictureChanged()   // even queued or deduplicated: conservative, as the daemon's frames always were
        return outcome
    }

    /// `present` but for the revision, which it bumps once whichever way this returns.
    private mutating func presenting(_ presentation: Presentation, owner: OwnerID,
                                     at t: Double) throws(StackError) -> PresentOutcome {
        advance(to: t)
        if let existing = duplicate(of: presentation) {
            return PresentOutcome(id: existing.id, state: existing.state, deduplicated: true)
        }
        let id = try newID(presentation.id)
        var entry = Entry(id: id, owner: owner, presentation: presentation, state: .queued, sequence: nextSequence)
        if let name = presentation.context {
            guard let area = contexts[name] else { throw .unknownContext(name: name) }
            entry.area = area
        }
        if let hold = holdReason(for: presentation) {   // ModalStack+DoNotDisturb
            guard !presentation.droppable else { throw .dropped(by: hold) }
            nextSequence += 1
            enqueue(entry)
            settle()
            return PresentOutcome(id: id, state: .queued, deduplicated: false)
        }
        nextSequence += 1
        let level = presentation.level
        if presentation.precedence == .override, let top = topStaying(in: level),
           presentation.priority >= top.priority {
            // One status-bar change, with the newcomer's transition (beginPresenting resolves it).
            beginDismissing(id: top.id, reason: .preempted, transition: nil, animated: true)
            beginPresenting(entry)
        } else if isTransitionRunning(in: level) {
            enqueue(entry)
        } else {
            entry.state = .queued
            beginPresenting(entry)
        }
        settle()
        let state = self.entry(id: id)?.state ?? .presented
        return PresentOutcome(id: id, state: state, deduplicated: false)
    }

    /// Seed 000's guard: an entry of the same kind on top of its level (or waiting for
    /// it) is returned instead.
    private func duplicate(of p: Presentation) -> Entry? {
        guard p.deduplicate, let kind = p.kind else { return nil }
        if let top = topStaying(in: p.level), top.presentation.kind == kind { return top }
        return queue.first { $0.level == p.level && $0.presentation.kind == kind }
    }

    mutating func newID(_ requested: String?) throws(StackError) -> String {
        if let requested {
            guard entry(id: requested) == nil else { throw .duplicateID(id: requested) }
            return requested
        }
        var ids = generatedIDs   // a copy: the closure reads the stack while the generator changes
        defer { generatedIDs = ids }
        return ids.next { entry(id: $0) != nil }
    }

    /// Inserts after every entry of equal or higher priority (FIFO among equals).
    private mutating func enqueue(_ entry: Entry) {
        let index = queue.firstIndex { $0.presentation.priority < entry.presentation.priority } ?? queue.count
        queue.insert(entry, at: index)
        emit(entry, .queued, at: time, heldBy: holdReason(for: entry.presentation))
        events.append(.stackChanged)
    }

    mutating func beginPresenting(_ entry: Entry) {
        // What is covered can no longer be dragged out: a swipe in progress springs back
        // (an overlay covers nothing).
        if entry.level.isModal, let swiped = entries.lastIndex(where: { $0.swipe != nil && $0.level <= entry.level }) {
            springBack(swiped)
        }
        var e = entry
        e.state = .presenting
        e.isAdapted = e.wantsAdaptation(in: container)
        if e.level == .overlay { e.overlayOffset = 0 }   // the newest sits at the edge
        let rest = e.restState(in: container)
        let transition = moving(e.presentation.transition)   // ModalStack+ReducedMotion
        let from = offscreen(e, from: rest, transition: transition, phase: .presenting)
        e.animation = Motion(
            Animation(from: from, to: rest, start: time, duration: transition.duration, curve: transition.timing))
        // Drawing order: after everything of its level and below.
        entries.insert(e, at: (entries.lastIndex { $0.level <= e.level } ?? -1) + 1)
        emit(e, .willPresent, at: time, animation: e.animation?.announced, content: true)
        restackSheets()   // ModalStack+Sheets: a sheet under it shrinks
        if e.isAdapted {
            // Presented straight into compact traits: say so, as a rotation would have.
            emit(
                e, .adapted, at: time,
                adaptation: .init(active: true, style: e.effectiveStyle, content: e.effectiveContent),
                 content: true)
        }
        events.append(.stackChanged)
        layOutOverlays()
        resolveStatusBar(duration: e.animation?.duration ?? 0)
    }

    // MARK: Time

    /// Catches up with time t: finishes transitions that ended by then (each at its own
    /// end time) and starts queued entries as soon as the stack is idle.
    public mutating func advance(to t: Double) {
        if t > time {
            time = t
            stateChanged()   // not the picture: `scene(at:)` already answered for t
        }
        settle()
    }

    /// Completes every transition that has ended by `time` and runs out every auto-dismiss
    /// countdown due by then, each at its own time, in time order.
    mutating func settle() {
        let now = time
        while true {
            let next = earliestDue(by: now)
            if let end = doNotDisturbEnd(by: next?.time ?? now) {   // first on a tie
                time = end
                endDoNotDisturb(reason: .until)
                startQueuedIfIdle()
                continue
            }
            if let due = next {
                time = due.time
                switch due.kind {
                case .transitionEnd: complete(at: due.index)
                case .timeout: timeOut(at: due.index)
                }
                startQueuedIfIdle()
                continue
            }
            time = now
            startQueuedIfIdle()
            // What starts now with no duration is done now too, and may start the next.
            if earliestDue(by: now) == nil { break }
        }
        dropFinishedRelayouts()
        syncCountdowns()
    }

    private enum DueKind { case transitionEnd, timeout }

    /// The first transition end or countdown deadline at or before t (transition ends
    /// first on a tie: an entry finishes presenting before anything times out).
    private func earliestDue(by t: Double) -> (index: Int, time: Double, kind: DueKind)? {
        var best: (index: Int, time: Double, kind: DueKind)?
        for i in entries.indices {
            if entries[i].state.isTransition && entries[i].swipe == nil {
                let end = entries[i].animation?.end ?? time
                if end <= t, best == nil || end < best!.time { best = (i, end, .transitionEnd) }
            }
            if let deadline = autoDismissDeadline(ofEntryAt: i), deadline <= t, best == nil || deadline < best!.time {
                best = (i, deadline, .timeout)
            }
        }
        return best
    }

    /// When the next auto-dismiss countdown runs out if nothing else happens: the daemon
    /// wakes then even when nothing moves.
    public var nextDeadline: Double? {
        var countdown: Double?   // asked after every publish: no array
        for i in entries.indices {
            if let deadline = autoDismissDeadline(ofEntryAt: i), countdown.map({ deadline < $0 }) ?? true {
                countdown = deadline
            }
        }
        guard let end = doNotDisturb?.until else { return countdown }   // the mode's end wakes it too
        return min(end, countdown ?? end)
    }

    private mutating func complete(at index: Int) {
        var e = entries[index]
        switch e.state {
        case .presenting:
            e.state = .presented
            e.animation = nil
            if let auto = e.presentation.autoDismiss {
                e.countdown = Countdown(remaining: auto.after, runningSince: time)
            }
            entries[index] = e
            emit(e, .didPresent, at: time)
        case .dismissing:
            entries.remove(at: index)
            emit(e, .didDismiss, at: time, reason: e.dismissReason)
        case .queued, .presented:
            return
        }
        events.append(.stackChanged)
    }

    /// Each level presents its first queued entry once nothing moves in or out on it.
    mutating func startQueuedIfIdle() {
        for level in Level.allCases {
            while !isTransitionRunning(in: level),
                  let next = queue.firstIndex(where: { $0.level == level && !isHeld($0) }) {
                beginPresenting(queue.remove(at: next))
            }
        }
    }

    /// A finished re-layout animation leaves the entry at rest.
    private mutating func dropFinishedRelayouts() {
        for i in entries.indices where entries[i].state == .presented {
            if let a = entries[i].animation, a.isFinished(at: time) { entries[i].animation = nil }
        }
    }

    // MARK: Status bar

    /// The appearance the stack shows: the topmost staying entry that captures it, else the base.
    public var resolvedStatusBar: StatusBarAppearance {
        entries.last { $0.state != .dismissing && $0.presentation.statusBar != nil }?.presentation.statusBar
            ?? configuration.baseStatusBar
    }

    /// Reports a change of the effective status bar, timed with the transition that caused it.
    mutating func resolveStatusBar(duration: Double) {
        let resolved = resolvedStatusBar
        guard resolved != statusBar else { return }
        statusBar = resolved
        events.append(.statusBar(resolved, duration: duration, time: time))
    }

    // MARK: Events

    /// `content`: the notice carries the entry's content and revision (willPresent, updated).
    mutating func emit(_ e: Entry, _ event: LifecycleEvent, at t: Double, reason: DismissReason? = nil,
        animation: Animation? = nil, adaptation: LifecycleNotice.Adaptation? = nil, content: Bool = false,
                       heldBy: HoldReason? = nil, detent: String? = nil) {
        var notice = LifecycleNotice(id: e.id, owner: e.owner, event: event, time: t, reason: reason,
                                     animation: animation, adaptation: adaptation)
        notice.heldBy = heldBy
        notice.detent = detent
        if reason == .action { notice.action = e.dismissAction }
        if content { notice.content = .init(content: e.effectiveContent, revision: e.contentRevision) }
        events.append(.lifecycle(notice))
    }
}

extension Entry {
    var priority: Int { presentation.priority }
}
