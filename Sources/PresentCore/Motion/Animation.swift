// A property animator for one entry: moves a VisualState from one value to another
// along a timing curve, starting at a given time. Interrupting one (reverse, retarget)
// starts a new animation from the current value and, for springs, the current velocity.

/// One running animation of an entry's visual state.
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

    /// A new animation from this one's value at `t` towards `target`, keeping a spring's
    /// velocity (projected onto the new path). Position is continuous by construction.
    public func redirected(to target: VisualState, at t: Double, duration: Double, curve: TimingCurve) -> Animation {
        let current = value(at: t)
        let v0 = velocity(at: t).projected(from: current, to: target)
        return Animation(from: current, to: target, start: t, duration: duration,
                         curve: curve.isSpring ? curve.withInitialVelocity(v0) : curve)
    }
}
