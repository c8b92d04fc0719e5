// The motion in force for every drawn layer, as analytic segments: what a renderer needs
// to compute every frame itself until the next boundary (a request, a transition's end, a
// countdown running out). It is the scene with each layer at its base value, plus the
// segments whose offsets add up to the scene at any time in that span.

/// One layer and the motion in force on it.
public struct AnimatedLayer: Hashable, Sendable {
    /// The layer with its animated properties (frame, alpha, scale, rotation) at their base
    /// values: where they are once every segment has run. Everything else is as drawn.
    public var base: Layer
    /// Offsets added to the base, oldest first: each an Animation whose `from` and `to`
    /// are offsets of the layer's own properties (frame, alpha, scale, rotation; `dimming`
    /// unused). A dimming layer's alpha offset is its entry's dimming offset. Segments that
    /// move none of the layer's properties are left out.
    public var segments: [Animation]

    /// The layer at time t (t within the snapshot's span): base + Σ segment offsets.
    public func layer(at t: Double) -> Layer {
        let v = VisualState(frame: base.frame, alpha: base.alpha, scale: base.scale, rotation: base.rotation)
            .adding(segments, at: t)
        var l = base
        l.frame = v.frame
        l.alpha = v.alpha
        l.scale = v.scale
        l.rotation = v.rotation
        return l
    }
}

/// Everything drawn from `time` until `validUntil`, as motion rather than frames.
public struct AnimationSnapshot: Hashable, Sendable {
    /// The stack's time when it was taken.
    public var time: Double
    /// The next boundary if nothing else happens: a transition or re-layout ends, or a
    /// countdown runs out, and the stack changes on its own (an entry leaves or comes to
    /// rest, a queued one starts). The snapshot holds for t in [time, validUntil); nil =
    /// until the next request.
    public var validUntil: Double?
    /// Something moves while t < end (a frame's `animating`).
    public var end: Double
    /// Bottom to top, as in the scene.
    public var layers: [AnimatedLayer]

    /// The layers at t, as `scene(at: t).layers` has them (t within the span).
    public func layers(at t: Double) -> [Layer] { layers.map { $0.layer(at: t) } }

    public func isAnimating(at t: Double) -> Bool { t < end }

    /// Whether a renderer that has `other` computes the same frames from it as from this
    /// one: the same layers and segments, the same boundary, and the same end of motion
    /// — or both at rest, whatever time each was taken at.
    public func describesTheSameMotion(as other: AnimationSnapshot) -> Bool {
        guard layers == other.layers, validUntil == other.validUntil else { return false }
        return end == other.end || (end <= time && other.end <= other.time)
    }
}

/// An entry whose motion changed course: the payload of a `retargeted` lifecycle event
/// is its layers in `animations(at: time)`.
public struct RetargetNotice: Hashable, Sendable {
    public var id: String
    public var owner: OwnerID
    /// When it changed course.
    public var time: Double
}

extension ModalStack {
    /// Hands over the entries whose motion changed course since the last call, once each
    /// (at the first time it did), oldest first, leaving out those no longer on screen. A change of course is any new
    /// motion but the one `willPresent` starts: a re-layout (`setContainer`, `keyboard`,
    /// contexts, overlays making room), an `update` that moves it, the start of a dismissal
    /// (a reversal included), a spring-back, a finger catching an entry in flight.
    public mutating func drainRetargets() -> [RetargetNotice] {
        guard !retargets.isEmpty else { return [] }   // asked at every publish, mostly of none
        defer { retargets.removeAll(keepingCapacity: true) }
        return retargets.filter { r in entries.contains { $0.id == r.id } }
    }

    /// Stores `e` as entry i, noting a retarget when its motion changed.
    mutating func store(_ e: Entry, at i: Int) {
        if e.animation != entries[i].animation || e.swipe != entries[i].swipe { noteRetarget(e) }
        entries[i] = e
    }

    /// Notes that `e` changed course, once per entry until the next drain. Bounded for a
    /// caller that never drains: past 64 pending, those no longer on screen are dropped.
    mutating func noteRetarget(_ e: Entry) {
        guard !retargets.contains(where: { $0.id == e.id }) else { return }
        if retargets.count >= 64 { retargets.removeAll { r in !entries.contains { $0.id == r.id } } }
        retargets.append(RetargetNotice(id: e.id, owner: e.owner, time: time))
    }

    /// The motion in force at t (t ≥ the stack's time; earlier is the stack's time): the
    /// stack caught up with t, every drawn layer at its base with its segments.
    public func animations(at t: Double) -> AnimationSnapshot {
        caughtUp(to: t).snapshot(at: max(t, time))
    }

    /// A value that changes whenever the motion in force does (segments, bases, layers
    /// drawn or their other properties) and not with time alone: publish a new snapshot
    /// when it differs from the one last published. It is a hash, seeded per process.
    public var animationsSignature: Int {
        let s = snapshot(at: time)
        var h = Hasher()
        h.combine(s.layers)
        h.combine(s.validUntil)
        h.combine(s.end)
        return h.finalize()
    }

    private func snapshot(at t: Double) -> AnimationSnapshot {
        var layers: [AnimatedLayer] = []
        for index in entries.indices.dropFirst(firstVisibleIndex(at: t)) {
            let e = entries[index]
            let base = e.animation?.base ?? e.visual(at: t, in: container)
            let segments = e.animation?.segments ?? []
            for layer in self.layers(of: e, showing: base, tintDimmed: isTintDimmed(below: index)) {
                let own: [Animation]
                switch layer.role {
                case .content: own = segments
                case .dimming: own = segments.map(\.dimmingAsAlpha)
                case .grabber: own = segments.map(\.riddenByGrabber)
                }
                layers.append(AnimatedLayer(base: layer, segments: own.filter { $0.movesLayer }))
            }
        }
        let ends = entries.compactMap { $0.animation?.end }
        let boundaries = (ends + [nextDeadline].compactMap { $0 }).filter { $0 > t }
        return AnimationSnapshot(time: t, validUntil: boundaries.min(), end: ends.max() ?? t, layers: layers)
    }
}

extension Animation {
    /// The same segment moving only a dimming layer's alpha: the entry's dimming offset.
    var dimmingAsAlpha: Animation {
        var a = self
        a.from = VisualState.zeroOffset.with(alpha: from.dimming)
        a.to = VisualState.zeroOffset.with(alpha: to.dimming)
        return a
    }

    /// The same segment moving a sheet's grabber, which rides the middle of its content's
    /// top edge at the content's alpha, its own size and scale fixed (Scene.layers(of:)).
    var riddenByGrabber: Animation {
        func ride(_ o: VisualState) -> VisualState {
            VisualState(frame: Rect(x: o.frame.minX + o.frame.width / 2, y: o.frame.minY, width: 0, height: 0),
                        alpha: o.alpha, scale: 0, rotation: 0, dimming: 0)
        }
        var a = self
        (a.from, a.to) = (ride(from), ride(to))
        return a
    }

    /// Whether any of a layer's animated properties has a nonzero offset.
    var movesLayer: Bool {
        [from, to].contains { o in
            [o.frame.minX, o.frame.minY, o.frame.width, o.frame.height, o.alpha, o.scale, o.rotation]
            .contains { $0 != 0 } }
    }
}

extension VisualState {
    func with(alpha: Double) -> VisualState {
        var s = self
        s.alpha = alpha
        return s
    }
}
