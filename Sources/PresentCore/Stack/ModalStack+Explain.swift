// Decisions the stack can explain. Arbitration is deterministic and the stack is a value,
// so "what would this present do?" is answered by making it on a copy, and "when will
// this queued entry start?" by letting a copy's time run, event by event, until it
// does — assuming nothing else happens first (no request, tap or clock change). Nothing
// here changes the stack itself: no event, no sequence number, no generated id.

/// A transition in flight that a queued entry waits for.
public struct TransitionAhead: Hashable, Sendable {
    public var id: String
    /// presenting or dismissing.
    public var state: EntryState
    /// When it ends; nil while a finger holds it (a swipe in progress).
    public var until: Double?
}

/// What keeps a queued entry from showing.
public struct QueueBlockers: Hashable, Sendable {
    /// The transitions running on its level: it starts once they have all ended.
    public var transitions: [TransitionAhead] = []
    /// The entries of its level queued before it (higher priority, or equal and earlier).
    public var queuedAhead: [String] = []
    /// A mode that holds it, and when that mode ends (nil: when it is turned off).
    public var heldBy: HoldReason?
    public var heldUntil: Double?
}

/// A sheet's detents as `explain` and a dry run tell them: what the container allows now.
public struct SheetExplanation: Hashable, Sendable {
    /// The detent it rests at (or would).
    public var detent: String
    /// Its active detents, lowest first, with their heights in points.
    public var detents: [ActiveDetent]
    /// The detents it was given that do not apply now: taller than `maximumHeight`,
    /// `medium` in compact height, `content` without a preferred height.
    public var inactive: [String]
    /// UIKit's maximumDetentValue in its container: the tallest a detent may be.
    public var maximumHeight: Double
    public var largestUndimmedDetent: String?
    /// At rest at `detent`, a tap outside it passes through (at or below the largest undimmed detent).
    public var passesTapsThrough: Bool
    /// A finger can drag it: between detents, or away.
    public var takesSwipes: Bool
}

extension Entry {
    /// Its sheet's detents in `container` (nil for other styles).
    func sheetExplanation(in container: Container) -> SheetExplanation? {
        guard let sheet = effectiveStyle.sheet, let resting = restingDetent(in: container) else { return nil }
        let inner = layoutContainer(in: container).container, preferred = presentation.preferredContentSize
        let active = sheet.activeDetents(in: inner, preferred: preferred)
        return SheetExplanation(detent: resting.id, detents: active,
                                inactive: sheet.detents.map(\.id).filter { id in !active.contains { $0.id == id } },
                                maximumHeight: sheet.maximumHeight(in: inner),
                                largestUndimmedDetent: sheet.largestUndimmedDetent,
            passesTapsThrough: sheet.passesTapsThrough(at: resting, in: inner, preferred: preferred),
                                takesSwipes: takesSwipes(in: container))
    }
}

/// What a present would do (`present {dryRun: true}`).
public struct PresentForecast: Hashable, Sendable {
    public enum Outcome: String, Sendable, CaseIterable {
        /// Starts presenting at once.
        case presenting
        /// Waits in the queue (`blockers` says behind what).
        case queued
        /// Starts presenting at once and replaces `preempting` (precedence override).
        case preempting
        /// Returns an entry already there (`id`) instead.
        case deduplicated
        /// Refused: `error` is why.
        case refused
    }
    public var outcome: Outcome
    /// The id the entry would get (a generated one is the next the stack would give), or
    /// the duplicate's id.
    public var id: String?
    /// Its state right after the request.
    public var state: EntryState?
    public var level: Level
    /// Entries that would leave with reason `preempted`.
    public var preempting: [String] = []
    /// For `queued` (and a deduplicated queued entry): what it would wait for.
    public var blockers: QueueBlockers?
    /// When it would start presenting (its willPresent time); nil when that depends on
    /// something the stack cannot know (do not disturb turned off by hand, a swipe).
    public var startsAt: Double?
    public var error: StackError?
    /// The time the forecast is for.
    public var time: Double
    /// A sheet's detents, laid out in the container as it is now (nil for other styles, a refusal or a duplicate).
    public var sheet: SheetExplanation?
}

/// Why an entry is where it is (`explain`).
public struct Explanation: Hashable, Sendable {
    public var id: String
    public var state: EntryState
    public var level: Level
    public var priority: Int
    public var precedence: Precedence
    /// Its presentation context and the rectangle it is laid out in (nil: the container).
    public var context: String?
    public var area: Rect?
    /// On screen: its place in drawing order, 0 = bottom. Queued: its place in its
    /// level's queue, 0 = next.
    public var position: Int
    /// Queued: what it waits for, and when it would start if nothing else happens.
    public var blockers: QueueBlockers?
    public var startsAt: Double?
    /// Presenting or dismissing: when that transition ends.
    public var transitionEndsAt: Double?
    /// On screen: the staying entries drawn above it that cover it (its own level and the
    /// modal levels above; overlays cover nothing).
    public var coveredBy: [String] = []
    /// It takes keys and swipes now.
    public var isInputTarget: Bool
    /// Its auto-dismiss countdown runs out then (nil: none running).
    public var autoDismissAt: Double?
    public var dismissReason: DismissReason?
    /// The adaptation: requested style, the one in force, the policy and the trait that decides.
    public var requestedStyle: PresentationStyle
    public var effectiveStyle: PresentationStyle
    public var adaptive: AdaptivePolicy
    public var isAdapted: Bool
    public var verticalSizeClass: SizeClass
    public var time: Double
    /// A sheet's detents (nil for other styles).
    public var sheet: SheetExplanation?
}

extension ModalStack {
    /// What `present` would do at t, without doing it.
    public func forecast(_ presentation: Presentation, owner: OwnerID, at t: Double) -> PresentForecast {
        var copy = caughtUp(to: t)
        _ = copy.drainEvents()
        var forecast = PresentForecast(outcome: .presenting, level: presentation.level, time: copy.time)
        let outcome: PresentOutcome
        do {
            outcome = try copy.present(presentation, owner: owner, at: copy.time)
        } catch {
            forecast.outcome = .refused
            forecast.error = error
            return forecast
        }
        forecast.id = outcome.id
        forecast.state = outcome.state
        for case .lifecycle(let n) in copy.drainEvents() where n.event == .willDismiss && n.reason == .preempted {
            forecast.preempting.append(n.id)
        }
        if outcome.deduplicated {
            forecast.outcome = .deduplicated
        } else if outcome.state == .queued {
            forecast.outcome = .queued
        } else if !forecast.preempting.isEmpty {
            forecast.outcome = .preempting
        }
        if outcome.state == .queued {
            forecast.blockers = copy.blockers(of: outcome.id)
            forecast.startsAt = copy.presentationStart(of: outcome.id)
        } else if !outcome.deduplicated {
            forecast.startsAt = copy.time
        }
        if !outcome.deduplicated { forecast.sheet = copy.entry(id: outcome.id)?.sheetExplanation(in: copy.container) }
        return forecast
    }

    /// Why entry `id` is where it is at t; nil when no entry has that id.
    public func explanation(of id: String, at t: Double) -> Explanation? {
        let now = caughtUp(to: t)
        guard let e = now.entry(id: id) else { return nil }
        var x = Explanation(id: e.id, state: e.state, level: e.level, priority: e.priority,
                            precedence: e.presentation.precedence, context: e.presentation.context, area: e.area,
                            position: 0, isInputTarget: now.inputTarget?.id == e.id,
                            autoDismissAt: e.autoDismissDeadline, dismissReason: e.dismissReason,
                            requestedStyle: e.presentation.style, effectiveStyle: e.effectiveStyle,
                            adaptive: e.presentation.adaptive, isAdapted: e.isAdapted,
                            verticalSizeClass: now.container.verticalSizeClass, time: now.time,
                            sheet: e.sheetExplanation(in: now.container))
        if e.state == .queued {
            x.position = now.queue.filter { $0.level == e.level }.firstIndex { $0.id == id } ?? 0
            x.blockers = now.blockers(of: id)
            x.startsAt = now.presentationStart(of: id)
        } else {
            let index = now.entries.firstIndex { $0.id == id } ?? 0
            x.position = index
            if e.isInTransition, e.swipe == nil { x.transitionEndsAt = e.animation?.end }
            x.coveredBy = now.entries[(index + 1)...]
                .filter { $0.state != .dismissing && $0.level.isModal && ($0.level > e.level || e.level.isModal) }
                .map(\.id)
        }
        return x
    }

    /// What the queued entry `id` waits for.
    func blockers(of id: String) -> QueueBlockers {
        guard let e = queue.first(where: { $0.id == id }) else { return QueueBlockers() }
        var b = QueueBlockers()
        b.transitions = entries.filter { $0.level == e.level && $0.isInTransition }.map {
            TransitionAhead(id: $0.id, state: $0.state, until: $0.swipe == nil ? $0.animation?.end : nil)
        }
        b.queuedAhead = Array(queue.filter { $0.level == e.level }.prefix { $0.id != id }.map(\.id))
        if isHeld(e) {
            b.heldBy = holdReason(for: e.presentation)
            b.heldUntil = doNotDisturb?.until
        }
        return b
    }

    /// When queued entry `id` starts presenting if nothing else happens: the time of its
    /// willPresent, found by letting a copy run from one event to the next (bounded).
    /// Nil when it never would on its own (held until turned off, a swipe in progress).
    func presentationStart(of id: String, maxSteps: Int = 10_000) -> Double? {
        var copy = self
        _ = copy.drainEvents()
        for _ in 0..<maxSteps {
            guard copy.entry(id: id)?.state == .queued else { return nil }
            guard let next = copy.nextEventTime else { return nil }
            copy.advance(to: next)
            for case .lifecycle(let n) in copy.drainEvents() where n.id == id && n.event == .willPresent {
                return n.time
            }
        }
        return nil
    }

    /// The next time something happens on its own: a transition ends (not one a finger
    /// holds), a countdown runs out, do not disturb ends.
    var nextEventTime: Double? {
        var next: Double?
        func consider(_ t: Double?) {
            guard let t, t > time else { return }
            if next == nil || t < next! { next = t }
        }
        for e in entries {
            if e.isInTransition && e.swipe == nil { consider(e.animation?.end) }
            consider(e.autoDismissDeadline)
        }
        consider(doNotDisturb?.until)
        return next
    }
}
