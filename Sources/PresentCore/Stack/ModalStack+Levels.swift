// Overlays stacking at their edge, and presentation contexts: named rectangles of the
// container that entries are laid out in, clipped to and dimmed within.

extension ModalStack {
    // MARK: Overlays

    /// Gives every overlay its place: at each position, the newest sits at the edge and
    /// each older one is moved aside by the heights of the newer ones, `overlaySpacing`
    /// apart. An overlay whose place changed glides there from where it is (presenting:
    /// its transition is retargeted and keeps its end time). Leaving overlays make room
    /// and keep their place. Cheap and idempotent: every operation that adds, removes or
    /// resizes an overlay ends here.
    /// `duration`: how long the overlays that move take (nil: a container change's; 0:
    /// they are put in place at once).
    mutating func layOutOverlays(duration: Double? = nil) {
        var taken: [OverlayPlacementKey: Double] = [:]
        for i in entries.indices.reversed() where entries[i].level == .overlay && entries[i].state != .dismissing {
            let e = entries[i]
            let key = OverlayPlacementKey(position: e.presentation.overlay.position, area: e.area)
            let offset = taken[key] ?? 0
            taken[key] = offset + e.restState(in: container).frame.height + configuration.overlaySpacing
            guard offset != e.overlayOffset else { continue }
            let now = e.visual(at: time, in: container)
            var moved = e
            moved.overlayOffset = offset
            store(retargeted(moved, from: now, duration: duration ?? configuration.containerChangeDuration,
                             curve: moving(configuration.containerChangeTiming)), at: i)
        }
    }

    // MARK: Contexts

    /// Defines presentation context `name` (or moves it): its entries are laid out in
    /// `frame` and animate to their new layout from where they are.
    public mutating func defineContext(_ name: String, frame: Rect, duration: Double? = nil, at t: Double) {
        advance(to: t)
        contexts[name] = frame
        for i in queue.indices where queue[i].presentation.context == name { queue[i].area = frame }
        var moved = false
        for i in entries.indices where entries[i].presentation.context == name {
            let now = entries[i].visual(at: time, in: container)
            var e = entries[i]
            e.area = frame
            store(retargeted(e, from: now, duration: duration ?? configuration.containerChangeDuration,
                             curve: moving(configuration.containerChangeTiming)), at: i)
            moved = true
        }
        if moved { layOutOverlays() }
        events.append(.stackChanged)   // the contexts are part of what `stack` notifications say
        pictureChanged()
    }

    /// Removes context `name`; its entries leave with reason `contextGone` (the topmost of
    /// each level animating). Returns their ids; throws when there is no such context.
    @discardableResult
    public mutating func removeContext(_ name: String, at t: Double) throws(StackError) -> [String] {
        advance(to: t)
        guard contexts.removeValue(forKey: name) != nil else { throw .unknownContext(name: name) }
        events.append(.stackChanged)
        pictureChanged()   // even with no entry in it: conservative
        return removeAll(where: { $0.presentation.context == name }, reason: .contextGone)
    }
}

/// Overlays stack with those at the same position in the same area.
private struct OverlayPlacementKey: Hashable {
    var position: OverlayPosition
    var area: Rect?
}
