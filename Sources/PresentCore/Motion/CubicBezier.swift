#if canImport(Glibc)
import Glibc
#endif

// A CSS / Core Animation cubic Bézier timing function: the curve from (0, 0) to (1, 1)
// through two control points, read as "progress y after fraction x of the duration".

/// A cubic Bézier timing function (CAMediaTimingFunction, UICubicTimingParameters).
///
/// The curve runs from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2). The x
/// control values must lie in [0, 1] so that x grows monotonically along the curve and every
/// x has exactly one y; callers validate that (see `isValid`), this type does not trap. The
/// y values are free: y outside [0, 1] gives an overshooting curve.
///
/// x → y is solved as WebKit's UnitBezier does it (an 11-point spline guess, Newton steps,
/// then bisection), but to a tighter tolerance: the curve parameter is found to 1e-14, so y is
/// within about 1e-13 of the exact value (WebKit stops at 1e-7 in x). The one exception is
/// a vertical tangent inside the curve (x1 = 1 and x2 = 0): there y grows like the cube root
/// of x, so x's own rounding (1e-16) already moves y by about 1e-5.
public struct CubicBezier: Hashable, Sendable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    /// A curve with control points (x1, y1) and (x2, y2); x1 and x2 must be in [0, 1].
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
    }

    /// Whether the control points are finite and both x values lie in [0, 1].
    public var isValid: Bool {
        [x1, y1, x2, y2].allSatisfy(\.isFinite) && (0...1).contains(x1) && (0...1).contains(x2)
    }

    /// The progress y at time fraction `x` (clamped to [0, 1]); 0 at 0 and 1 at 1.
    public func value(at x: Double) -> Double {
        let x = Self.clampUnit(x)
        return yCurve.value(at: parameter(for: x))
    }

    /// The curve's slope dy/dx at time fraction `x` (clamped to [0, 1]).
    ///
    /// Where dx/dt vanishes (an end point with x1 = 0 or x2 = 1, or the middle of a curve
    /// with x1 = 1 and x2 = 0) the slope is the limit of the ratio of higher derivatives; it
    /// is ±infinity only where the curve really is vertical.
    public func slope(at x: Double) -> Double {
        let t = parameter(for: Self.clampUnit(x))
        let (xs, ys) = (Bernstein(p1: x1, p2: x2), Bernstein(p1: y1, p2: y2))
        // L'Hôpital: the first pair of derivatives that is not 0/0 gives the limit. The
        // Bernstein form makes them exactly 0 where they should be (at t = 0 and 1).
        let pairs = [(xs.derivative(at: t), ys.derivative(at: t)),
                     (xs.secondDerivative(at: t), ys.secondDerivative(at: t)),
                     (xs.thirdDerivative, ys.thirdDerivative)]
        for (dx, dy) in pairs where dx != 0 || dy != 0 {
            return dy / dx
        }
        return 1  // no derivative of x or y is nonzero here: a degenerate curve, read as linear
    }

    // MARK: Solving x → t

    /// The solve stops when t is known to this. The precision is asked of t, not of x,
    /// because y's error is t's error times dy/dt, which is bounded, whereas x's residual
    /// says little about t where the curve is steep (dx/dt small).
    static let parameterTolerance = 1e-14
    static let splineSamples = 11
    static let newtonSteps = 8

    /// The curve parameter t whose x(t) equals `x` (x in [0, 1]).
    func parameter(for x: Double) -> Double {
        // The end points are exact by construction; solving for them would only add rounding
        // (and a 0/0 slope there must be taken at exactly t = 0 or 1).
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let curve = xCurve
        var (lo, hi) = bracket(x, on: curve)
        // Newton from the linear interpolation inside the bracket: quadratic convergence
        // whenever the slope is healthy, which is almost everywhere. Each iterate also
        // narrows the bracket, so a failed Newton run still leaves bisection less to do.
        let xlo = curve.value(at: lo), xhi = curve.value(at: hi)
        var t = xhi > xlo ? min(max(lo + (hi - lo) * (x - xlo) / (xhi - xlo), lo), hi) : lo
        for _ in 0..<Self.newtonSteps {
            let error = curve.value(at: t) - x
            if error == 0 { return t }
            if error < 0 { lo = t } else { hi = t }
            let slope = curve.derivative(at: t)
            guard slope > 0 else { break }  // x never decreases on a valid curve
            let next = t - error / slope
            guard next >= lo && next <= hi else { break }  // left the bracket: bisect instead
            if abs(next - t) < Self.parameterTolerance { return next }
            t = next
        }
        // Bisection is slow but certain: x(t) is monotonic when x1, x2 ∈ [0, 1].
        while hi - lo > Self.parameterTolerance {
            let mid = (lo + hi) / 2
            if curve.value(at: mid) < x { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// The interval [i/10, (i+1)/10] of t whose sampled x values enclose `x`.
    private func bracket(_ x: Double, on curve: Polynomial) -> (Double, Double) {
        let step = 1.0 / Double(Self.splineSamples - 1)
        for i in 1..<Self.splineSamples where x <= curve.value(at: Double(i) * step) {
            return (Double(i - 1) * step, Double(i) * step)
        }
        return (1 - step, 1)
    }

    private static func clampUnit(_ x: Double) -> Double { min(max(x, 0), 1) }

    private var xCurve: Polynomial { Polynomial(p1: x1, p2: x2) }
    private var yCurve: Polynomial { Polynomial(p1: y1, p2: y2) }
}

/// Derivatives of one coordinate from the Bernstein form (end points 0 and 1): written in the
/// differences of the control values, they are exact at t = 0 and t = 1, where the Horner
/// form leaves rounding noise in place of a true zero.
private struct Bernstein {
    let p1: Double, p2: Double

    func derivative(at t: Double) -> Double {
        let s = 1 - t
        return 3 * (s * s * p1 + 2 * s * t * (p2 - p1) + t * t * (1 - p2))
    }
    func secondDerivative(at t: Double) -> Double {
        6 * ((1 - t) * (p2 - 2 * p1) + t * (1 - 2 * p2 + p1))
    }
    var thirdDerivative: Double { 6 * (1 - 3 * p2 + 3 * p1) }
}

/// One coordinate of the Bézier as a polynomial in t: ((a·t + b)·t + c)·t, for end points
/// 0 and 1 and control values p1, p2 (Horner form, as UnitBezier).
private struct Polynomial {
    let a: Double, b: Double, c: Double

    init(p1: Double, p2: Double) {
        c = 3 * p1
        b = 3 * (p2 - p1) - c
        a = 1 - c - b
    }

    func value(at t: Double) -> Double { ((a * t + b) * t + c) * t }
    func derivative(at t: Double) -> Double { (3 * a * t + 2 * b) * t + c }
}
