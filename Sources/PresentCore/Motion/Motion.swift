// The motion in force for one entry, in Core Animation's additive model: a base value
// (where the entry ends up) plus segments of offsets that each animate towards zero.
// A retarget never restarts anything: the old segments keep running, and the difference
// between the old target and the new one animates to zero on top of them, starting at
// rest. Position and every property's velocity are continuous at the retarget instant.

/// How an entry moves: `base` plus the sum of its segments' offsets.
///
/// Each segment is an `Animation` whose `from` and `to` are *offsets* from `base` (a
/// VisualState read as a vector of differences), so at time t the entry is drawn at
/// `base + Σ (from + p(t)·(to − from))`, each segment with its own progress p. Every
/// segment the stack makes ends at offset zero, so once they have all run the entry is
/// exactly at `base`.
public struct Motion: Hashable, Sendable {
    /// Where the motion ends once every segment has run: the target (the model value).
    public internal(set) var base: VisualState
    /// The offsets animating on top of `base`, oldest first (at most `maxSegments`).
    public internal(set) var segments: [Animation]
    /// The motion as it was last announced: from the value at its last change of course
    /// to `base`, until the motion ends, with the curve of its newest segment. Exact for a
    /// motion of one segment; for more, the picture a renderer gets without the segments.
    public internal(set) var announced: Animation

    /// Segments kept per entry. Past it, the two oldest merge into one: the position stays
    /// continuous, the velocity is the merged pair's projected on their joint offset.
    public static let maxSegments = 8

    /// A motion of one segment: `a` itself, written as an offset from its end.
    public init(_ a: Animation) {
        base = a.to
        segments = [
            Animation(from: a.from - a.to, to: .zeroOffset, start: a.start, duration: a.duration, curve: a.curve)
        ]
        announced = a
    }

    /// At rest at `state` from time `t`: no segments, finished at once.
    public init(at state: VisualState, time t: Double) {
        base = state
        segments = []
        announced = Animation(from: state, to: state, start: t, duration: 0, curve: .linear)
    }

    /// The target: where the entry is once the motion has ended.
    public var to: VisualState { base }
    /// When the motion in force began (its last change of course).
    public var start: Double { announced.start }
    /// When the last segment ends: from then on the entry is at `base`.
    public var end: Double { segments.reduce(announced.start) { max($0, $1.end) } }
    /// From the last change of course to the end.
    public var duration: Double {
        let end = self.end
        return end == announced.end ? announced.duration : end - start
    }
    /// The newest segment's curve.
    public var curve: TimingCurve { announced.curve }

    public func isFinished(at t: Double) -> Bool { t >= end }

    public func value(at t: Double) -> VisualState { base.adding(segments, at: t) }

    public func velocity(at t: Double) -> VisualVelocity {
        var c = VisualVelocity.zero.components
        for s in segments { add(s.velocity(at: t).components, to: &c) }
        return VisualVelocity(components: c)
    }

    /// This motion with its target moved to `target` at time t: the difference between the
    /// old target and the new one animates to zero over `duration` with `curve` on top of
    /// the segments in force (made to start at rest when there are any, see
    /// `TimingCurve.startingAtRest`).
    /// Segments that would outlast the new one, or stop while still moving (a linear or
    /// ease-in curve), are retimed to end with it on its curve, keeping their offset and
    /// velocity at t: the whole motion ends when the new segment does, without a kink on
    /// the way (a segment stopping abruptly under an eased one would push the sum past
    /// the target, alpha below 0 on a reversal).
    /// Finished segments are folded into the base first. A target that does not move
    /// leaves the motion as it is.
    public func retargeted(to target: VisualState, at t: Double, duration: Double, curve: TimingCurve) -> Motion {
        var m = folded(at: t)
        let delta = m.base - target
        guard delta != .zeroOffset else { return m }
        // Something moves: the new segment starts at rest, so the velocity stays the old
        // one. From rest, the curve is the caller's, as for any motion that starts now.
        let rest = m.segments.isEmpty ? curve : curve.startingAtRest
        let added = Animation(from: delta, to: .zeroOffset, start: t, duration: duration, curve: rest)
        let current = value(at: t)
        m.segments = m.segments.map {
            $0.end > added.end || $0.curve.endsMoving ? $0.retimed(at: t, over: added.duration, curve: rest) : $0
        }
        m.segments.append(added)
        while m.segments.count > Self.maxSegments { m.mergeOldest(at: t, within: added.duration, curve: rest) }
        m.base = target
        m.announced = Animation(from: current, to: target, start: t, duration: added.duration, curve: rest)
        return m
    }

    /// The same motion without the segments that have finished by t (each leaves its final
    /// offset, zero for the stack's own, in the base).
    public func folded(at t: Double) -> Motion {
        var m = self
        var c = base.components
        m.segments = segments.filter { s in
            guard s.isFinished(at: t) else { return true }
            add(s.to.components, to: &c)
            return false
        }
        m.base = VisualState(components: c)
        return m
    }

    /// Replaces the two oldest segments by one from t: their joint offset, ending when the
    /// later of them ends (at most `limit` after t), carrying their joint velocity
    /// projected on the joint offset.
    private mutating func mergeOldest(at t: Double, within limit: Double, curve: TimingCurve) {
        let a = segments.removeFirst(), b = segments.removeFirst()
        let from = a.value(at: t) + b.value(at: t), to = a.to + b.to
        var w = a.velocity(at: t)
        add(b.velocity(at: t).components, to: &w.components)
        let d = min(max(a.end, b.end) - t, limit)
        let merged = Animation(from: from, to: to, start: t, duration: d,
                               curve: curve.carrying(velocity: w.projected(from: from, to: to), over: d))
        segments.insert(merged, at: 0)
    }
}

private func add(_ x: [Double], to c: inout [Double]) {
    for k in c.indices { c[k] += x[k] }
}

extension Animation {
    /// This segment from t on, lasting `d` seconds instead: the same offset and velocity at t,
    /// then `curve` (carrying that velocity) to the same final offset.
    ///
    /// The offset and the velocity of one segment are both multiples of (to − from), so
    /// one scalar initial velocity carries the velocity exactly: v = p′/(1 − p). Where
    /// 1 − p vanishes (a spring or Bézier crossing its end value mid-flight) the velocity
    /// cannot be carried and is dropped.
    func retimed(at t: Double, over d: Double, curve: TimingCurve) -> Animation {
        let p = progress(at: t)
        let rate =
            t >= start && t < self.end && duration > 0 ? self.curve.velocity(at: t - start, duration: duration) : 0
        let v = abs(1 - p) > 1e-9 ? rate / (1 - p) : 0
        return Animation(from: value(at: t), to: to, start: t, duration: d, curve: curve.carrying(velocity: v, over: d))
    }
}

extension TimingCurve {
    /// The curve a retarget's segment uses: starting with zero velocity, so that the
    /// segments already in force keep the velocity alone. A spring loses its initial
    /// velocity; a Bézier curve whose slope at 0 is not zero (linear, easeOut, default, a
    /// custom one with y1 ≠ 0) is replaced by easeInEaseOut; the others are kept.
    public var startingAtRest: TimingCurve {
        if case .spring(let s) = self { return .spring(s.withInitialVelocity(0)) }
        return velocity(at: 0, duration: 1) == 0 ? self : .easeInEaseOut
    }

    /// Whether it still moves when it ends (a Bézier curve with a slope at 1: linear,
    /// easeIn). A spring ends settled, or as its caller asked.
    var endsMoving: Bool { controlPoints.map { $0.slope(at: 1) != 0 } ?? false }

    /// This curve's shape over `d` seconds, starting at `v` progress per second: a spring
    /// with that initial velocity and exactly that duration; a Bézier curve with its first
    /// control point raised to the slope v·d (its x kept, 0.42 where it was 0).
    func carrying(velocity v: Double, over d: Double) -> TimingCurve {
        if case .spring(let s) = self {
            return .spring(
                Spring(mass: s.mass, stiffness: s.stiffness, damping: s.damping, initialVelocity: v, duration: d))
        }
        guard v != 0, d > 0, let b = controlPoints else { return self }
        let x1 = b.x1 > 0 ? b.x1 : 0.42
        return .bezier(CubicBezier(x1: x1, y1: v * d * x1, x2: b.x2, y2: b.y2))
    }
}

extension VisualState {
    /// This state as a base with the offsets of `segments` at t added, in order, component
    /// by component: base + Σ (from + p·(to − from)). Motions, animated layers and the
    /// protocol's reference interpolator all sum with this one function.
    public func adding(_ segments: [Animation], at t: Double) -> VisualState {
        var c = components
        for s in segments { add(s.value(at: t).components, to: &c) }
        return VisualState(components: c)
    }

    /// All components zero: an offset that moves nothing.
    static let zeroOffset = VisualState(components: Array(repeating: 0, count: 8))

    static func - (a: VisualState, b: VisualState) -> VisualState {
        VisualState(components: zip(a.components, b.components).map { $0 - $1 })
    }

    static func + (a: VisualState, b: VisualState) -> VisualState {
        VisualState(components: zip(a.components, b.components).map { $0 + $1 })
    }
}
