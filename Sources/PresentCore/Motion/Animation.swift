// A property animator: moves a VisualState from one value to another along a timing
// curve, starting at a given time. An entry's motion (Motion) is a sum of these, read as
// offsets from its target; a retarget adds one rather than replacing what runs.

/// One animation of a visual state (or of an offset from one: see Motion).
public struct Animation: Hashable, Sendable {
    public var from: VisualState
    public var to: VisualState
    /// Time the animation starts, seconds.
    public var start: Double
    /// How long it runs (for springs, the spring's own duration).
    public var duration: Double
    public var curve: TimingCurve

    /// An animation whose duration for springs is the spring's own.
    public init(from: VisualState, to: VisualState, start: Double, duration: Double, curve: TimingCurve) {
        self.from = from; self.to = to; self.start = start
        self.curve = curve
        self.duration = max(0, curve.effectiveDuration(duration))
    }

    public var end: Double { start + duration }

    public func isFinished(at t: Double) -> Bool { t >= end }

    /// Progress along the curve at time t (0 before the start, 1 after the end).
    public func progress(at t: Double) -> Double {
        guard duration > 0 else { return t >= start ? 1 : 0 }
        if t >= end { return 1 }
        return curve.progress(at: max(0, t - start), duration: duration)
    }

    public func value(at t: Double) -> VisualState {
        if t >= end { return to }
        return VisualState.interpolate(from, to, progress(at: t))
    }

    public func velocity(at t: Double) -> VisualVelocity {
        guard duration > 0, t >= start, t < end else { return .zero }
        let v = curve.velocity(at: t - start, duration: duration)
        return VisualVelocity(components: zip(to.components, from.components).map { ($0 - $1) * v })
    }
}
