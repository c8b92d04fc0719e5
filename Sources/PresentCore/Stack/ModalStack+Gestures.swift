// Touches: a tap resolves to the entry it lands on (content or dimming) and says
// whether that dismisses it; a swipe drags the top entry out interactively (linear
// while dragging, rubber-banded against the way out) and, on release, completes or
// cancels by distance and velocity. Whether a dismissal may happen (the owner's veto)
// is the caller's business: the stack reports the decision, the caller confirms it.

#if canImport(Glibc)
import Glibc
#endif

/// What a tap landed on.
public struct HitTestResult: Hashable, Sendable {
    public enum Part: String, Sendable { case content, dimming, none }
    public var id: String?
    public var part: Part
    /// A tap there dismisses the entry (its dimming with interaction `dismiss`).
    public var dismisses: Bool
    /// The level of the entry hit.
    public var level: Level?
    /// No entry took it: it falls through to the app underneath.
    public var forwarded: Bool { part == .none }
    public init(id: String?, part: Part, dismisses: Bool, level: Level? = nil) {
        self.id = id; self.part = part; self.dismisses = dismisses; self.level = level
    }
    public static let forwarded = HitTestResult(id: nil, part: .none, dismisses: false)
}

/// The phases of a swipe gesture.
public enum SwipePhase: String, Sendable, CaseIterable {
    case began, changed, ended, cancelled
}

/// What a swipe step did.
public struct SwipeResult: Hashable, Sendable {
    public enum Outcome: String, Sendable {
        /// No entry takes swipes (none on top, or it does not dismiss on swipe).
        case ignored
        /// The entry follows the finger.
        case tracking
        /// Released past the threshold: call `completeSwipe` (or `cancelSwipe` on a veto).
        case wantsDismiss
        /// Released short of the threshold, or cancelled: the entry springs back.
        case cancelled
        /// A sheet released short of leaving: it springs to the detent named in `detent`.
        case settled
    }
    public var id: String?
    /// Fraction of the way out, 0…1.
    public var progress: Double
    public var outcome: Outcome
    /// `settled`: the detent the sheet settles at.
    public var detent: String?
    public init(id: String?, progress: Double, outcome: Outcome, detent: String? = nil) {
        self.id = id; self.progress = progress; self.outcome = outcome; self.detent = detent
    }
}

extension SwipeInteraction {
    /// UIScrollView's rubber band: resistance grows with the overshoot, never passing `dimension`.
    static func rubberBand(_ overshoot: Double, dimension: Double) -> Double {
        (1 - 1 / (overshoot * 0.55 / dimension + 1)) * dimension
    }

    var progress: Double {
        if let sheet { return sheet.progress(displacement) }
        return min(1, max(0, displacement / distance))
    }

    /// How far the entry is drawn along the way out: the finger's displacement, or the
    /// rubber-banded offset against it (negative).
    var travel: Double {
        displacement >= 0 ? displacement : -Self.rubberBand(-displacement, dimension: distance)
    }

    /// The entry as dragged: moved along the way out (or rubber-banded against it),
    /// its dimming fading with the progress.
    var visual: VisualState {
        if let sheet { return sheet.visual(displacement) }
        var s = base
        switch edge {
        case .bottom: s.frame.origin.y += travel
        case .top: s.frame.origin.y -= travel
        case .right: s.frame.origin.x += travel
        case .left: s.frame.origin.x -= travel
        }
        s.dimming = base.dimming * (1 - progress)
        return s
    }
}

extension ModalStack {
    // MARK: Taps

    /// The entry a tap at `point` hits at time t, from the top of the drawing order down:
    /// a tap inside an entry's visible frame hits its content; outside, a modal entry's
    /// dimming (which covers its context, else the container) takes it — absorbed, or
    /// dismissing with `dismiss` — unless the entry forwards it to what lies below.
    /// Overlays never take taps outside themselves. A tap nobody takes falls through to
    /// the app underneath (`forwarded`).
    public func hitTest(_ point: Point, at t: Double) -> HitTestResult {
        let now = caughtUp(to: t)
        for e in now.entries.reversed() where e.state != .dismissing {
            let inArea = e.area?.contains(point) ?? true   // a context clips its entries
            if inArea && e.visual(at: max(t, time), in: container).visibleFrame.contains(point) {
                return HitTestResult(id: e.id, part: .content, dismisses: false, level: e.level)
            }
            guard e.level.isModal, inArea else { continue }
            switch e.effectiveInteraction(in: container) {
            case .absorb: return HitTestResult(id: e.id, part: .dimming, dismisses: false, level: e.level)
            case .dismiss: return HitTestResult(id: e.id, part: .dimming, dismisses: true, level: e.level)
            case .forward: continue
            }
        }
        return .forwarded
    }

    // MARK: Swipes

    /// Feeds one step of a swipe: translation (dx, dy) since it began, velocity in points/s.
    public mutating func swipe(_ phase: SwipePhase, translation: Point, velocity: Point = .zero,
                               at t: Double) -> SwipeResult {
        advance(to: t)
        defer {
            syncCountdowns()   // a drag holds an auto-dismiss countdown while it lasts
            pictureChanged()   // every step, even one that catches nothing: conservative
        }
        if phase == .began { beginSwipe() }
        guard let i = entries.lastIndex(where: { $0.swipe != nil }), var s = entries[i].swipe, !s.released else {
            return SwipeResult(id: nil, progress: 0, outcome: .ignored)
        }
        let id = entries[i].id
        s.displacement = Self.outward(translation, through: s.edge)
        entries[i].swipe = s
        switch phase {
        case .began, .changed:
            return SwipeResult(id: id, progress: s.progress, outcome: .tracking)
        case .cancelled:
            cancelSwipe(at: t)
            return SwipeResult(id: id, progress: s.progress, outcome: .cancelled)
        case .ended:
            let v = Self.outward(velocity, through: s.edge)
            if let drag = s.sheet { return releaseSheet(i, s, drag: drag, velocity: v) }   // ModalStack+Sheets
            let completes = v > configuration.swipeVelocityThreshold
                || (s.progress >= configuration.swipeCompletionFraction && v > -configuration.swipeVelocityThreshold)
            guard completes else {
                cancelSwipe(at: t)
                return SwipeResult(id: id, progress: s.progress, outcome: .cancelled)
            }
            entries[i].swipe?.released = true
            return SwipeResult(id: id, progress: s.progress, outcome: .wantsDismiss)
        }
    }

    /// Finishes a released swipe: the entry leaves through its edge, taking the rest of
    /// its dismiss duration ((1 − progress) × duration, ease-in-out, as UIKit).
    public mutating func completeSwipe(at t: Double) {
        advance(to: t)
        pictureChanged()   // even with no swipe to complete: conservative
        guard let i = entries.lastIndex(where: { $0.swipe != nil }), let s = entries[i].swipe else { return }
        var e = entries[i]
        e.exitEdge = s.edge
        let duration = e.presentation.effectiveDismissTransition.duration * (1 - s.progress)
        startLeaving(&e, towards: dismissTarget(of: e), duration: duration, curve: .easeInEaseOut, reason: .swipe)
        entries[i] = e
        layOutOverlays()
        restackSheets()   // a sheet it covered grows back as it leaves
        resolveStatusBar(duration: duration)
        settle()
    }

    /// Abandons a swipe: the entry returns to rest.
    public mutating func cancelSwipe(at t: Double) {
        advance(to: t)
        pictureChanged()   // even with no swipe to cancel: conservative
        guard let i = entries.lastIndex(where: { $0.swipe != nil }) else { return }
        springBack(i)
    }

    /// Ends the swipe on `entries[i]`: it returns to rest over the share of its dismiss
    /// duration it is away from it — either way, so a rubber-banded entry glides back too.
    mutating func springBack(_ i: Int) {
        guard let s = entries[i].swipe else { return }
        if s.sheet != nil, let detent = entries[i].restingDetent(in: container) {   // to the detent it rests at
            return settleSheet(i, at: detent.id, velocity: 0)
        }
        let away = min(1, abs(s.travel) / s.distance)
        let duration = entries[i].presentation.effectiveDismissTransition.duration * away
        entries[i].swipe = nil
        entries[i].animation = Motion(Animation(from: s.visual, to: entries[i].restState(in: container),
                                                start: time, duration: duration, curve: .easeInEaseOut))
        noteRetarget(entries[i])
        syncCountdowns()
    }

    /// The entry that takes input starts following the finger, if it may.
    private mutating func beginSwipe() {
        guard let target = inputTarget, let i = entries.firstIndex(where: { $0.id == target.id }),
            entries[i].state == .presented,
              entries[i].takesSwipes(in: container), entries[i].swipe == nil else { return }
        let e = entries[i]
        let base = e.visual(at: time, in: container)
        let edge = e.presentation.effectiveDismissTransition.swipeEdge(
            slideEdge: e.effectiveStyle.slideEdge(in: container.layoutDirection))
        let distance = max(1, Self.distanceOut(of: base.frame, through: edge, container: container.size))
        if e.isAnimating(at: time) { noteRetarget(e) }   // the finger stops a motion in flight
        entries[i].animation = nil
        entries[i].swipe = SwipeInteraction(
            edge: edge, base: base, distance: distance, sheet: sheetDrag(for: e, from: base))
    }

    /// The component of `v` pointing out through `edge`.
    static func outward(_ v: Point, through edge: Edge) -> Double {
        switch edge {
        case .bottom: return v.y
        case .top: return -v.y
        case .right: return v.x
        case .left: return -v.x
        }
    }

    /// How far `frame` must travel through `edge` to be fully outside the container.
    static func distanceOut(of frame: Rect, through edge: Edge, container: Size) -> Double {
        switch edge {
        case .bottom: return container.height - frame.minY
        case .top: return frame.maxY
        case .right: return container.width - frame.minX
        case .left: return frame.maxX
        }
    }

    /// The rest state moved just outside the container through `edge`, dimming cleared.
    func swipeExitState(from rest: VisualState, through edge: Edge) -> VisualState {
        var s = rest
        s.frame = Transition.offscreen(rest.frame, beyond: edge, of: container.size)
        s.dimming = 0
        return s
    }
}
