#if canImport(Glibc)
import Glibc
#endif

// A damped spring pulling progress from 0 to 1, solved in closed form:
//   m·x'' + c·x' + k·(x − 1) = 0,  x(0) = 0,  x'(0) = v0.
// Core Animation's conventions throughout: velocity in progress per second, and an
// overdamped spring behaves as a critically damped one.

/// A spring timing curve (CASpringAnimation, UISpringTimingParameters, SwiftUI's Spring).
///
/// Parameters are physical: `mass` (m), `stiffness` (k), `damping` (c) and `initialVelocity`
/// (v0, in progress per second: 1 covers the whole distance in one second, as Apple's APIs).
/// Callers validate them: m > 0, k > 0, c ≥ 0, all finite.
///
/// The animation runs for `duration` seconds; at and after that the position is exactly 1.
/// The duration is either *fixed* (UIKit's requested duration, the system spring's 0.5 s)
/// or the spring's *settling time* (see `settlingDuration`).
///
/// Overdamping (ζ > 1) is not honoured: such a spring moves as a critically damped one with
/// the same ω0 = √(k/m), as Core Animation does. That is what makes UIKit's system spring
/// (ζ ≈ 4.56) finish in its 0.5 s; solved literally it would be only 63 % of the way there.
public struct Spring: Hashable, Sendable {
    public let mass: Double
    public let stiffness: Double
    public let damping: Double
    /// Progress per second at t = 0.
    public let initialVelocity: Double
    /// Seconds the animation runs; the position is exactly 1 from then on.
    public let duration: Double
    /// Whether `duration` was given rather than derived from settling. A fixed duration is
    /// kept when the initial velocity changes; a settling time is recomputed.
    public let hasFixedDuration: Bool

    /// Settled means |1 − x| below this: a thousandth of the distance (UIKit's own criterion
    /// when it turns a duration into a spring), i.e. under a point for most on-screen moves.
    public static let settlingTolerance = 0.001
    /// …and |x'| below this, in progress per second: a thousandth of the distance per 60 Hz
    /// frame, so that stopping the animation there is no visible change of speed.
    public static let settlingSpeed = 0.06

    /// A spring that runs until it settles: `duration` is `settlingDuration`.
    public init(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0) {
        let u = Self.displacement(mass: mass, stiffness: stiffness, damping: damping, v0: initialVelocity)
        self.init(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
                  duration: Self.settlingTime(of: u), fixed: false)
    }

    /// A spring that runs for exactly `duration` seconds, settled or not, then shows 1.
    public init(mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0,
                duration: Double) {
        self.init(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
                  duration: max(0, duration), fixed: true)
    }

    private init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double,
                 duration: Double, fixed: Bool) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.duration = duration
        self.hasFixedDuration = fixed
    }

    /// UIKit's system spring: modal presentation, the keyboard's curve 7 and
    /// UISpringTimingParameters() (mass 3, stiffness 1000, damping 500, 0.5 s).
    public static let system = Spring(mass: 3, stiffness: 1000, damping: 500, duration: 0.5)

    /// SwiftUI's spring(response:dampingFraction:): mass 1, k = (2π/response)²,
    /// c = 4π·fraction/response; runs until settled. `response` must be > 0.
    public static func swiftUI(response: Double, dampingFraction: Double,
                               initialVelocity: Double = 0) -> Spring {
        Spring(mass: 1, stiffness: (2 * .pi / response) * (2 * .pi / response),
               damping: 4 * .pi * dampingFraction / response, initialVelocity: initialVelocity)
    }

    /// The damping ratio ζ = c / (2√(km)) as given; 1 is critical damping. Values above 1
    /// move as 1 (see `effectiveDampingRatio`).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// The damping ratio the motion actually has: ζ capped at 1.
    public var effectiveDampingRatio: Double { min(dampingRatio, 1) }

    /// Progress at `t` seconds: 0 up to t = 0, exactly 1 from `duration` on.
    public func position(at t: Double) -> Double {
        if t >= duration { return 1 }
        if t <= 0 { return 0 }
        return 1 + displacement.value(at: t)
    }

    /// Progress per second at `t`: `initialVelocity` at 0, and 0 before 0 and from `duration` on.
    public func velocity(at t: Double) -> Double {
        if t >= duration || t < 0 { return 0 }
        return displacement.derivative.value(at: t)
    }

    /// The same spring (mass, stiffness, damping) starting at velocity `v`, for retargeting
    /// an animation in flight without a change of speed. A settling duration is recomputed
    /// for the new start; a fixed duration is kept, because it is the caller's contract
    /// (UIKit runs its spring for exactly the duration asked), even if the spring is then
    /// further from 1 when it ends.
    public func withInitialVelocity(_ v: Double) -> Spring {
        hasFixedDuration
            ? Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: v, duration: duration)
            : Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: v)
    }

    /// The first time after which |1 − x| stays below `settlingTolerance` and |x'| below
    /// `settlingSpeed`, found exactly on the closed form (see `DecayingTerm.settleTime`);
    /// infinite for an undamped spring.
    public var settlingDuration: Double { Self.settlingTime(of: displacement) }

    private static func settlingTime(of u: DecayingTerm) -> Double {
        max(u.settleTime(below: settlingTolerance), u.derivative.settleTime(below: settlingSpeed))
    }

    /// The unclamped closed form x(t), ignoring `duration` (for tests and diagnostics).
    func rawPosition(at t: Double) -> Double { 1 + displacement.value(at: t) }

    /// x(t) − 1 as a decaying term: e^(−βt)·(−cos ωd·t + B·sin ωd·t) when underdamped,
    /// e^(−βt)·(−1 + B·t) when critically damped (or overdamped, which moves as critical).
    var displacement: DecayingTerm {
        Self.displacement(mass: mass, stiffness: stiffness, damping: damping, v0: initialVelocity)
    }

    private static func displacement(mass: Double, stiffness: Double, damping: Double,
                                     v0: Double) -> DecayingTerm {
        let omega0 = (stiffness / mass).squareRoot()
        let beta = damping / (2 * mass)
        // Within rounding of critical, the underdamped form would divide by a ωd of noise.
        if beta >= omega0 * (1 - 1e-12) {
            return DecayingTerm(beta: omega0, omega: 0, p: -1, q: v0 - omega0)
        }
        let omegaD = ((omega0 - beta) * (omega0 + beta)).squareRoot()
        return DecayingTerm(beta: beta, omega: omegaD, p: -1, q: (v0 - beta) / omegaD)
    }
}

// MARK: - UIKit: duration + damping ratio → spring

extension Spring {
    /// UIKit's mapping from (duration T, damping ratio ζ, initial velocity v) to a spring, as
    /// UIView.animate(withDuration:…usingSpringWithDamping:initialSpringVelocity:) and
    /// UIViewPropertyAnimator(duration:dampingRatio:) do it: mass 1; ζ clamped to
    /// [1.19e-7, 1] and T to [0.01, 10]; ω from 12 Newton steps starting at 5/T on the
    /// equation "the envelope is 0.001 at T"; stiffness ω², damping 2ζω. The animation runs
    /// for the clamped T, then shows 1 (`hasFixedDuration`).
    ///
    /// Where UIKit's Newton steps do not converge to a positive root (a large initial
    /// velocity, or ζ below about 0.001 where the equation has no root), presentd takes the
    /// largest root found by a scan instead, then the root for v = 0, then ω = 5/T.
    public static func uikit(duration: Double, dampingRatio: Double,
                             initialVelocity: Double = 0) -> Spring {
        let zeta = min(max(dampingRatio, 1.19e-7), 1)
        let T = min(max(duration, 0.01), 10)
        let omega = UIKitSolve(zeta: zeta, duration: T, velocity: initialVelocity).omega
        return Spring(mass: 1, stiffness: omega * omega, damping: 2 * zeta * omega,
                      initialVelocity: initialVelocity, duration: T)
    }
}

/// The equation UIKit solves for ω: the size of the spring's oscillating term at T is 0.001.
///   ζ < 1: |(ζω − v) / (√(1−ζ²)·ω)|·e^(−ζTω) = 0.001
///   ζ = 1: ((ω − v)·T + 1)·e^(−Tω) = 0.001
private struct UIKitSolve {
    let zeta: Double, duration: Double, velocity: Double

    static let target = 0.001
    static let newtonSteps = 12

    var omega: Double {
        if let w = newton() { return w }
        if let w = largestRoot() { return w }
        if velocity != 0 { return UIKitSolve(zeta: zeta, duration: duration, velocity: 0).omega }
        return 5 / duration
    }

    /// f(ω) = envelope − 0.001 and f'(ω).
    func residual(_ w: Double) -> (f: Double, df: Double) {
        let T = duration, v = velocity
        if zeta < 1 {
            let s = (1 - zeta * zeta).squareRoot()
            let a = zeta * w - v
            let e = exp(-zeta * T * w)
            let f = abs(a) / (s * w) * e - Self.target
            let df = (a < 0 ? -1 : 1) * e / (s * w * w) * (v + zeta * T * w * v - zeta * zeta * T * w * w)
            return (f, df)
        }
        let e = exp(-T * w)
        return (((w - v) * T + 1) * e - Self.target, (v - w) * T * T * e)
    }

    /// UIKit's recipe: 12 Newton steps from 5/T. nil unless it lands on a positive root.
    func newton() -> Double? {
        var w = 5 / duration
        for _ in 0..<Self.newtonSteps {
            let (f, df) = residual(w)
            guard df != 0 else { break }
            w -= f / df
            guard w.isFinite && w > 0 else { return nil }
        }
        return abs(residual(w).f) <= 1e-9 ? w : nil
    }

    /// The largest ω with f(ω) = 0: scan down geometrically from a very stiff spring (where
    /// the envelope is far below 0.001) to the first sign change, then bisect. Only used
    /// when Newton fails, so its cost (a few hundred evaluations) does not matter.
    func largestRoot() -> Double? {
        var hi = 1e4 / duration
        guard residual(hi).f < 0 else { return nil }
        while hi > 1e-3 / duration {
            let lo = hi / 1.05
            if residual(lo).f >= 0 { return bisect(lo, hi) }
            hi = lo
        }
        return nil
    }

    private func bisect(_ lo: Double, _ hi: Double) -> Double {
        var (lo, hi) = (lo, hi)  // f(lo) ≥ 0 > f(hi)
        while hi - lo > 1e-15 * hi {
            let mid = (lo + hi) / 2
            guard mid > lo && mid < hi else { break }
            if residual(mid).f >= 0 { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}

// MARK: - Closed-form terms

/// g(t) = e^(−βt)·(p·cos ωt + q·sin ωt) when ω > 0, or e^(−βt)·(p + q·t) when ω = 0: the
/// shape of a damped spring's displacement and of all its derivatives.
struct DecayingTerm: Hashable, Sendable {
    var beta: Double
    var omega: Double
    var p: Double
    var q: Double

    func value(at t: Double) -> Double {
        let decay = exp(-beta * t)
        if decay == 0 { return 0 }  // avoids 0 · ∞ for absurdly large t
        return omega > 0 ? decay * (p * cos(omega * t) + q * sin(omega * t)) : decay * (p + q * t)
    }

    /// g'(t), which has the same shape.
    var derivative: DecayingTerm {
        omega > 0
            ? DecayingTerm(beta: beta, omega: omega, p: -beta * p + omega * q, q: -beta * q - omega * p)
            : DecayingTerm(beta: beta, omega: 0, p: q - beta * p, q: -beta * q)
    }

    /// The first time after which |g| stays below `tolerance`.
    ///
    /// The zeros of g and g' cut the time line into pieces on which |g| is monotonic. The
    /// answer lies on the piece that starts at the last of those points (or 0) where |g| is
    /// still ≥ tolerance, and is found there by bisection. For an oscillation the extrema
    /// decay as e^(−βt) times a constant, so the last one above tolerance is solved for
    /// directly rather than by walking through every swing.
    func settleTime(below tolerance: Double) -> Double {
        if p == 0 && q == 0 { return 0 }
        guard beta > 0 else { return .infinity }
        guard let start = lastBreakpoint(atLeast: tolerance) else { return 0 }
        let end = nextBreakpoint(after: start) ?? beyond(start, below: tolerance)
        return crossing(from: start, to: end, level: tolerance)
    }

    // MARK: Breakpoints (zeros of g and g')

    /// The phase in [0, π) at which p·cos θ + q·sin θ = 0; zeros are (phase + kπ)/ω.
    private static func zeroPhase(p: Double, q: Double) -> Double {
        let phase = atan2(-p, q)
        return phase < 0 ? phase + .pi : (phase >= .pi ? phase - .pi : phase)
    }

    /// The last zero of g' (an extremum of g), or 0, where |g| ≥ level.
    private func lastBreakpoint(atLeast level: Double) -> Double? {
        let initial: Double? = abs(p) >= level ? 0 : nil
        if omega == 0 {
            let points = criticalBreakpoints.filter { abs(value(at: $0)) >= level }
            return points.last ?? initial
        }
        let d = derivative
        let phase = Self.zeroPhase(p: d.p, q: d.q)
        // |g| at every extremum is e^(−βt) times this same amplitude.
        let amplitude = abs(p * cos(phase) + q * sin(phase))
        guard amplitude >= level else { return initial }
        var k = ((log(amplitude / level) / beta * omega - phase) / .pi).rounded(.down) + 1
        while k >= 0 {
            let t = (phase + k * .pi) / omega
            if abs(value(at: t)) >= level { return t }
            k -= 1
        }
        return initial
    }

    /// The next zero of g or g' after `t`; nil when there is none (critical damping).
    private func nextBreakpoint(after t: Double) -> Double? {
        if omega == 0 { return criticalBreakpoints.first { $0 > t } }
        let d = derivative
        return min(nextZero(ofPhase: Self.zeroPhase(p: p, q: q), after: t),
                   nextZero(ofPhase: Self.zeroPhase(p: d.p, q: d.q), after: t))
    }

    private func nextZero(ofPhase phase: Double, after t: Double) -> Double {
        var k = max(0, ((t * omega - phase) / .pi).rounded(.down) + 1)
        while (phase + k * .pi) / omega <= t { k += 1 }  // rounding
        return (phase + k * .pi) / omega
    }

    /// For ω = 0: the zero of g and of g' in (0, ∞), sorted (at most one each).
    private var criticalBreakpoints: [Double] {
        let d = derivative
        return [q != 0 ? -p / q : -1, d.q != 0 ? -d.p / d.q : -1].filter { $0 > 0 }.sorted()
    }

    /// A time after `t`, past every breakpoint, where |g| < level (doubling).
    private func beyond(_ t: Double, below level: Double) -> Double {
        var end = max(t, 1 / beta) * 2
        while abs(value(at: end)) >= level { end *= 2 }
        return end
    }

    /// Bisection for |g| = level on [start, end], where |g| falls monotonically from ≥ level.
    private func crossing(from start: Double, to end: Double, level: Double) -> Double {
        var (lo, hi) = (start, end)
        while hi - lo > 1e-15 * hi {
            let mid = (lo + hi) / 2
            guard mid > lo && mid < hi else { break }
            if abs(value(at: mid)) >= level { lo = mid } else { hi = mid }
        }
        return hi
    }
}
