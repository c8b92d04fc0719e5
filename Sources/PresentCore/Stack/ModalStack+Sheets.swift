// Sheets between their detents (UISheetPresentationController). A finger drags the sheet's
// top edge: between the smallest and the largest detent the sheet grows and shrinks with
// it, past the largest it rubber-bands, below the smallest it slides down whole (or
// rubber-bands, when it may not be swiped away). On release, UIKit's projection of where
// the motion would come to rest picks the nearest detent — or dismissal, below the
// smallest — and the system spring settles it there from the finger's speed. Each change
// of detent, by a swipe or an `update`, is a `detentChanged` event.

/// A sheet under a finger: what its drag needs to draw it at any displacement.
struct SheetDrag: Hashable, Sendable {
    var style: SheetStyle
    /// Its layout container, and where that sits in the stack's container.
    var container: Container
    var origin: Point
    var preferred: PreferredContentSize?
    /// The background's opacity: the dimming at a fully dimmed detent.
    var opacity: Double
    /// Active detents, lowest first.
    var detents: [ActiveDetent]
    /// The sheet's height when the finger came down.
    var baseHeight: Double
    /// Dragging below the smallest detent takes it away (else it rubber-bands there).
    var dismissible: Bool

    /// UIScrollView's normal deceleration rate, whose projection UIKit's sheets use: a
    /// release at v points/s comes to rest v·r/(1000·(1 − r)) points further on.
    static let decelerationRate = 0.998
    static func projection(of velocity: Double) -> Double {
        velocity / 1000 * decelerationRate / (1 - decelerationRate)
    }

    var smallest: Double { detents[0].height }
    var largest: Double { detents[detents.count - 1].height }

    /// The height the finger asks for: the base height less the downward displacement.
    func fingerHeight(_ displacement: Double) -> Double { baseHeight - displacement }

    /// The height drawn: the finger's between the detents, rubber-banded past the largest
    /// (and below the smallest when it may not leave).
    func drawnHeight(_ displacement: Double) -> Double {
        let h = fingerHeight(displacement)
        if h > largest { return largest + SwipeInteraction.rubberBand(h - largest, dimension: container.size.height) }
        if h < smallest && !dismissible {
            return smallest - SwipeInteraction.rubberBand(smallest - h, dimension: smallest)
        }
        return h
    }

    /// How far it is on its way out below the smallest detent, 0…1.
    func progress(_ displacement: Double) -> Double {
        guard dismissible, smallest > 0 else { return 0 }
        return min(1, max(0, (smallest - fingerHeight(displacement)) / smallest))
    }

    /// The sheet as dragged: resized between its detents, slid down below the smallest,
    /// its dimming following its height.
    func visual(_ displacement: Double) -> VisualState {
        let h = drawnHeight(displacement)
        var frame = style.frame(height: max(h, smallest), in: container)
        if h < smallest { frame.origin.y = container.size.height - h }   // slides down whole
        let share = style.dimmingShare(atHeight: max(h, smallest), in: container, preferred: preferred)
        let leaving = h < smallest ? max(0, h) / smallest : 1
        return VisualState(frame: frame.offsetBy(dx: origin.x, dy: origin.y), dimming: opacity * share * leaving)
    }

    /// Where a release at `velocity` (points/s, downwards) comes to rest: the detent nearest
    /// the projected height, or nil for dismissal (nearer to nothing than to the smallest).
    func target(releasedAt displacement: Double, velocity: Double) -> ActiveDetent? {
        let projected = fingerHeight(displacement) - Self.projection(of: velocity)
        if dismissible && projected < smallest / 2 { return nil }
        return detents.min { abs($0.height - projected) < abs($1.height - projected) }!
    }
}

extension ModalStack {
    /// The drag a sheet's swipe carries; nil for other entries.
    func sheetDrag(for e: Entry, from base: VisualState) -> SheetDrag? {
        guard let style = e.effectiveStyle.sheet else { return nil }
        let (inner, origin) = e.layoutContainer(in: container)
        let preferred = e.presentation.preferredContentSize
        return SheetDrag(style: style, container: inner, origin: origin, preferred: preferred,
                         opacity: e.level == .overlay ? 0 : e.presentation.background.opacity,
                         detents: style.activeDetents(in: inner, preferred: preferred), baseHeight: base.frame.height,
                         dismissible: e.presentation.dismissOnSwipe)
    }

    /// A released sheet's swipe: settles at the detent its motion projects to, or asks to
    /// be dismissed.
    mutating func releaseSheet(_ i: Int, _ s: SwipeInteraction, drag: SheetDrag, velocity: Double) -> SwipeResult {
        let id = entries[i].id
        guard let detent = drag.target(releasedAt: s.displacement, velocity: velocity) else {
            entries[i].swipe?.released = true
            return SwipeResult(id: id, progress: s.progress, outcome: .wantsDismiss)
        }
        settleSheet(i, at: detent.id, velocity: velocity)
        return SwipeResult(id: id, progress: s.progress, outcome: .settled, detent: detent.id)
    }

    /// Ends the drag on sheet `entries[i]`: it selects `detent` and the system spring takes
    /// it there from where the finger left it, at the finger's speed (points/s, downwards).
    mutating func settleSheet(_ i: Int, at detent: String, velocity: Double) {
        guard let s = entries[i].swipe else { return }
        let from = s.visual
        entries[i].swipe = nil
        select(detent, forEntryAt: i)
        let rest = entries[i].restState(in: container)
        let distance = rest.frame.minY - from.frame.minY
        let v0 = distance == 0 ? 0 : velocity / distance   // progress per second along from → rest
        entries[i].animation = Motion(Animation(from: from, to: rest, start: time, duration: 0,
                                                curve: .spring(SheetStyle.spring.withInitialVelocity(v0))))
        noteRetarget(entries[i])
        syncCountdowns()
    }

    /// iOS 13's form-sheet stack: a sheet with another sheet on it (same level and area, not
    /// leaving) rests shrunk with its top showing (Entry.restState), and grows back when that
    /// sheet leaves — each change moving with the transition of the sheet that causes it
    /// (what remains of it, on its curve), as a re-layout does, so frames and the animations
    /// topic carry it alike; when nothing moves (a sheet that came or went at once), as a
    /// change of container would, since nothing on screen jumps. Called once entries start
    /// presenting, leaving or are removed; `instantly` (a restored stack) settles them at once.
    mutating func restackSheets(instantly: Bool = false) {
        for i in entries.indices where entries[i].effectiveStyle.sheet != nil && entries[i].state != .dismissing {
            let e = entries[i]
            let above = entries[(i + 1)...].filter {
                $0.level == e.level && $0.area == e.area && $0.effectiveStyle.sheet != nil
            }
            let covered = above.contains { $0.state != .dismissing }
            guard covered != e.coveredBySheet else { continue }
            let now = e.visual(at: time, in: container)
            // The sheet coming in, or the one leaving: the newest of them that still moves.
            let motion = above.reversed().lazy.compactMap(\.animation).first { !$0.isFinished(at: self.time) }
            var next = e
            next.coveredBySheet = covered
            let duration = instantly ? 0 : motion.map { $0.end - time } ?? configuration.containerChangeDuration
            store(retargeted(next, from: now, duration: duration,
                             curve: motion?.curve ?? moving(configuration.containerChangeTiming)), at: i)
        }
    }

    /// Makes `detent` the sheet's selected one; a change of the detent it rests at is
    /// announced (detentChanged). The caller moves it there.
    mutating func select(_ detent: String, forEntryAt i: Int) {
        guard var sheet = entries[i].presentation.style.sheet else { return }
        let before = entries[i].restingDetent(in: container)?.id
        sheet.selectedDetent = detent
        entries[i].presentation.style = .sheet(sheet)
        announceDetentChange(of: entries[i], from: before)
    }

    /// `detentChanged` when `e` now rests at another detent than `before`.
    mutating func announceDetentChange(of e: Entry, from before: String?) {
        guard let now = e.restingDetent(in: container)?.id, now != before else { return }
        emit(e, .detentChanged, at: time, detent: now)
        events.append(.stackChanged)   // listings name the detent
    }
}
