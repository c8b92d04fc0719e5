// How an animation's progress runs over time: Core Animation's named curves, any cubic
// Bézier, or a spring. Every animation in presentd asks one of these for its progress.

/// The curves a name gives (`"timing": "easeOut"`), the one list of them: the decoder,
/// its error text and the clients' lists follow it.
public enum TimingName: String, Sendable, CaseIterable {
    case linear, easeIn, easeOut, easeInEaseOut, `default`, system

    public var curve: TimingCurve {
        switch self {
        case .linear: return .linear
        case .easeIn: return .easeIn
        case .easeOut: return .easeOut
        case .easeInEaseOut: return .easeInEaseOut
        case .default: return .default
        case .system: return .system
        }
    }
}

/// A timing curve: maps elapsed time to progress (0 at the start, 1 at the end).
///
/// Bézier curves are stretched over the animation's duration. A spring has its own
/// duration and ignores the one requested (UIKit does the same for its system spring).
public enum TimingCurve: Hashable, Sendable {
    /// Constant speed.
    case linear
    /// Slow start (0.42, 0, 1, 1).
    case easeIn
    /// Slow end (0, 0, 0.58, 1).
    case easeOut
    /// Slow start and end (0.42, 0, 0.58, 1): UIKit's default for most animations.
    case easeInEaseOut
    /// Core Animation's default curve (0.25, 0.1, 0.25, 1), UICubicTimingParameters().
    case `default`
    /// A custom cubic Bézier (its x control values in [0, 1]).
    case bezier(CubicBezier)
    /// A spring, which runs for its own duration.
    case spring(Spring)

    /// UIKit's modal presentation curve: the system spring (0.5 s).
    public static var system: TimingCurve { .spring(.system) }

    /// The name used on the wire and in logs.
    public var name: String {
        switch self {
        case .linear: return "linear"
        case .easeIn: return "easeIn"
        case .easeOut: return "easeOut"
        case .easeInEaseOut: return "easeInEaseOut"
        case .default: return "default"
        case .bezier: return "bezier"
        case .spring: return "spring"
        }
    }

    /// The Bézier control points (CAMediaTimingFunctionName's for the named curves);
    /// nil for a spring.
    public var controlPoints: CubicBezier? {
        switch self {
        case .linear: return CubicBezier(x1: 0, y1: 0, x2: 1, y2: 1)
        case .easeIn: return CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
        case .easeOut: return CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
        case .easeInEaseOut: return CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        case .default: return CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
        case .bezier(let curve): return curve
        case .spring: return nil
        }
    }

    /// Whether this is a spring, which runs for its own duration whatever is requested.
    public var isSpring: Bool {
        if case .spring = self { return true }
        return false
    }

    /// How long the animation really runs: a spring's own duration, else `requested`.
    public func effectiveDuration(_ requested: Double) -> Double {
        if case .spring(let spring) = self { return spring.duration }
        return requested
    }

    /// Progress `elapsed` seconds into an animation of `duration` seconds: 0 up to the
    /// start, 1 from the end on. The end wins at a zero duration, so an instant animation is
    /// complete at its first tick. Springs use their own duration.
    public func progress(at elapsed: Double, duration: Double) -> Double {
        if case .spring(let spring) = self { return spring.position(at: elapsed) }
        if elapsed >= duration { return 1 }
        if elapsed <= 0 { return 0 }
        let x = elapsed / duration
        if case .linear = self { return x }  // exact, without solving a Bézier
        return controlPoints?.value(at: x) ?? x
    }

    /// Progress per second at `elapsed`: 0 before the start and from the end on.
    public func velocity(at elapsed: Double, duration: Double) -> Double {
        if case .spring(let spring) = self { return spring.velocity(at: elapsed) }
        if elapsed >= duration || elapsed < 0 { return 0 }
        if case .linear = self { return 1 / duration }
        // dy/dt = dy/dx · dx/dt, and x = elapsed / duration.
        return (controlPoints?.slope(at: elapsed / duration) ?? 1) / duration
    }

    /// The same curve starting at velocity `v` (progress per second). Only springs have an
    /// initial velocity; other curves come back unchanged.
    /// The same curve, never past its end value: an underdamped spring becomes critically
    /// damped (same mass and stiffness) over the time it took, and a Bézier's control
    /// points are kept within 0…1 (a cubic stays inside the hull of its control points).
    public var withoutOvershoot: TimingCurve {
        switch self {
        case .spring(let s) where s.dampingRatio < 1:
            return .spring(
                Spring(
                    mass: s.mass, stiffness: s.stiffness, damping: 2 * (s.stiffness * s.mass).squareRoot(),
                                  initialVelocity: s.initialVelocity, duration: s.duration))
        case .bezier(let c):
            func clamped(_ y: Double) -> Double { min(1, max(0, y)) }
            return .bezier(CubicBezier(x1: c.x1, y1: clamped(c.y1), x2: c.x2, y2: clamped(c.y2)))
        default:
            return self
        }
    }

    public func withInitialVelocity(_ v: Double) -> TimingCurve {
        if case .spring(let spring) = self { return .spring(spring.withInitialVelocity(v)) }
        return self
    }
}
