// Do not disturb: a mode of one screen's stack. While it is on, a presentation whose
// priority is at or below the threshold (`priority <= allowPriorityAbove`) is held in
// the queue instead of shown — or refused when it is `droppable` — and so is every
// queued entry at or below it, whenever it was queued. Presentations above the threshold
// arbitrate as always. When the mode ends (a request, or its `until` time reached while
// the stack catches up, at exactly that time), the held entries start as the queue
// always does: per level, the highest priority first (FIFO among equals), each once the
// level's transitions have finished.

/// Why a queued entry waits although its level may be idle.
public enum HoldReason: String, Sendable, CaseIterable {
    case doNotDisturb
}

/// The do-not-disturb mode.
public struct DoNotDisturb: Hashable, Sendable {
    /// When it ends by itself, on the stack's clock; nil: until it is turned off.
    public var until: Double?
    /// Presentations with a priority above this one still show; the others are held.
    public var allowPriorityAbove: Int
    /// When it was turned on (or last changed).
    public var since: Double

    /// The default threshold: the `app` role's priority ceiling, so system alerts
    /// (priority 501…1000) still show.
    public static let defaultAllowPriorityAbove = 500

    public init(until: Double? = nil, allowPriorityAbove: Int = DoNotDisturb.defaultAllowPriorityAbove,
                since: Double = 0) {
        self.until = until; self.allowPriorityAbove = allowPriorityAbove; self.since = since
    }

    /// Whether the mode holds a presentation of this priority.
    public func holds(priority: Int) -> Bool { priority <= allowPriorityAbove }
}

/// A change of mode, as the stack reports it.
public struct ModeChange: Hashable, Sendable {
    public enum Reason: String, Sendable, CaseIterable {
        /// A `setMode` request.
        case request
        /// Its `until` time was reached.
        case until
    }
    /// The mode from now on; nil: off.
    public var doNotDisturb: DoNotDisturb?
    public var time: Double
    public var reason: Reason
    /// The entries the change releases (they start as the queue allows).
    public var released: [String]
    /// Reduced motion from now on (ModalStack+ReducedMotion): a change of either mode
    /// reports both.
    public var reducedMotion: Bool

    public init(doNotDisturb: DoNotDisturb?, time: Double, reason: Reason, released: [String],
                reducedMotion: Bool = false) {
        self.doNotDisturb = doNotDisturb; self.time = time; self.reason = reason; self.released = released
        self.reducedMotion = reducedMotion
    }
}

extension ModalStack {
    /// What holds a presentation of this kind back now, if anything.
    func holdReason(for p: Presentation) -> HoldReason? {
        guard let mode = doNotDisturb, mode.holds(priority: p.priority) else { return nil }
        return .doNotDisturb
    }

    /// A queued entry the mode holds (it does not start even when its level is idle).
    public func isHeld(_ e: Entry) -> Bool { e.state == .queued && holdReason(for: e.presentation) != nil }

    /// Turns do not disturb on (or changes it) or, with nil, off. An `until` at or before
    /// the time ends it at once. The held entries the change releases start as the queue
    /// allows.
    public mutating func setDoNotDisturb(_ mode: DoNotDisturb?, at t: Double) {
        advance(to: t)
        let held = Set(queue.filter(isHeld).map(\.id))
        if var mode {
            mode.since = time
            if let until = mode.until { mode.until = max(until, time) }
            doNotDisturb = mode
        } else {
            doNotDisturb = nil
        }
        let released = queue.filter { held.contains($0.id) && !isHeld($0) }.map(\.id)
        events.append(.mode(ModeChange(doNotDisturb: doNotDisturb, time: time, reason: .request, released: released,
                                       reducedMotion: reducedMotion)))
        events.append(.stackChanged)
        settle()   // an `until` already reached ends it here, at that time
        pictureChanged()   // released entries start presenting; conservative when none does
    }

    /// The end of do not disturb, if it comes at or before `t`.
    func doNotDisturbEnd(by t: Double) -> Double? {
        guard let end = doNotDisturb?.until, end <= t else { return nil }
        return end
    }

    /// Ends the mode at the stack's current time (the caller starts the queue).
    mutating func endDoNotDisturb(reason: ModeChange.Reason) {
        let released = queue.filter(isHeld).map(\.id)
        doNotDisturb = nil
        events.append(.mode(ModeChange(doNotDisturb: nil, time: time, reason: reason, released: released,
                                       reducedMotion: reducedMotion)))
        events.append(.stackChanged)
    }
}
