import Testing
@testable import PresentCore

/// An independent Bézier evaluation: the Bernstein form (not the library's Horner
/// polynomial), with t found by plain bisection to the last bit (no spline table, no Newton).
private struct ReferenceBezier {
    let x1: Double, y1: Double, x2: Double, y2: Double

    init(_ c: CubicBezier) { (x1, y1, x2, y2) = (c.x1, c.y1, c.x2, c.y2) }

    static func bernstein(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
        let s = 1 - t
        return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t
    }

    func value(at x: Double) -> Double {
        var (lo, hi) = (0.0, 1.0)
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if mid == lo || mid == hi { break }
            if Self.bernstein(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return Self.bernstein(y1, y2, (lo + hi) / 2)
    }
}

private let namedCurves: [TimingCurve] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]

@Suite("Cubic Bézier timing curves")
struct TimingCurveTests {
    @Test func easeInEaseOutIsSymmetricAtHalf() {
        #expect(abs(TimingCurve.easeInEaseOut.progress(at: 0.5, duration: 1) - 0.5) < 1e-12)
        #expect(abs(TimingCurve.easeInEaseOut.progress(at: 1.5, duration: 3) - 0.5) < 1e-12)
    }

    @Test("Named control points are Core Animation's")
    func namedControlPoints() {
        #expect(TimingCurve.linear.controlPoints == CubicBezier(x1: 0, y1: 0, x2: 1, y2: 1))
        #expect(TimingCurve.easeIn.controlPoints == CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1))
        #expect(TimingCurve.easeOut.controlPoints == CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1))
        #expect(TimingCurve.easeInEaseOut.controlPoints == CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1))
        #expect(TimingCurve.default.controlPoints == CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1))
        #expect(TimingCurve.system.controlPoints == nil)
    }

    @Test("Named curves at 0.25 and 0.75 match a bisection reference", arguments: namedCurves)
    func namedCurvesMatchReference(curve: TimingCurve) throws {
        let reference = ReferenceBezier(try #require(curve.controlPoints))
        for x in [0.25, 0.75] {
            #expect(abs(curve.progress(at: x * 0.4, duration: 0.4) - reference.value(at: x)) < 1e-6)
        }
    }

    @Test("Solved to 1e-7 everywhere, also for steep and overshooting curves", arguments: [
        CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1),
        CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1),
        CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1),
        CubicBezier(x1: 0.34, y1: 1.56, x2: 0.64, y2: 1),   // overshoots past 1
        CubicBezier(x1: 0.6, y1: -0.28, x2: 0.735, y2: 0.045), // dips below 0
        CubicBezier(x1: 0.95, y1: 0, x2: 0.05, y2: 1),     // nearly vertical at x = 0.5
        CubicBezier(x1: 0, y1: 1, x2: 1, y2: 0),           // flat at x = 0.5
        CubicBezier(x1: 0, y1: 0, x2: 0, y2: 0),           // x = t³, y = t³: identity
    ])
    func solverPrecision(bezier: CubicBezier) {
        let reference = ReferenceBezier(bezier)
        var worst = 0.0
        for i in 0...1000 {
            let x = Double(i) / 1000
            worst = max(worst, abs(bezier.value(at: x) - reference.value(at: x)))
        }
        #expect(worst < 1e-7)
    }

    @Test("A vertical tangent inside the curve: as good as x's rounding allows")
    func verticalTangent() {
        // x1 = 1, x2 = 0: dx/dt = 0 at t = 0.5, so y − 0.5 ∝ ∛(x − 0.5) there and a rounding
        // of 1e-16 in x is worth ~1e-5 in y, for any solver (the reference included).
        let bezier = CubicBezier(x1: 1, y1: 0, x2: 0, y2: 1)
        let reference = ReferenceBezier(bezier)
        for i in 0...1000 {
            let x = Double(i) / 1000
            let tolerance = abs(x - 0.5) < 0.01 ? 1e-4 : 1e-7
            #expect(abs(bezier.value(at: x) - reference.value(at: x)) < tolerance, "x = \(x)")
        }
        #expect(bezier.slope(at: 0.5) == .infinity)
    }

    @Test("Monotonic between the end points", arguments: namedCurves)
    func monotonic(curve: TimingCurve) {
        var previous = 0.0
        for i in 0...2000 {
            let p = curve.progress(at: Double(i) / 2000, duration: 1)
            #expect(p >= previous)
            previous = p
        }
    }

    @Test(
        "0 up to the start, 1 from the end",
        arguments: namedCurves + [.bezier(CubicBezier(x1: 0.34, y1: 1.56, x2: 0.64, y2: 1))])
    func endpoints(curve: TimingCurve) {
        #expect(curve.progress(at: -1, duration: 0.3) == 0)
        #expect(curve.progress(at: 0, duration: 0.3) == 0)
        #expect(curve.progress(at: 0.3, duration: 0.3) == 1)
        #expect(curve.progress(at: 7, duration: 0.3) == 1)
        #expect(curve.velocity(at: -1, duration: 0.3) == 0)
        #expect(curve.velocity(at: 0.3, duration: 0.3) == 0)
        // An instant animation is complete at once.
        #expect(curve.progress(at: 0, duration: 0) == 1)
        #expect(curve.effectiveDuration(0.3) == 0.3)
    }

    @Test(
        "Velocity is the derivative of progress",
        arguments: namedCurves + [.bezier(CubicBezier(x1: 0.34, y1: 1.56, x2: 0.64, y2: 1))])
    func velocityMatchesFiniteDifference(curve: TimingCurve) {
        let duration = 0.4, h = 1e-6
        for i in 1..<40 {
            let t = duration * Double(i) / 40
            let numeric = (curve.progress(at: t + h, duration: duration)
                - curve.progress(at: t - h, duration: duration)) / (2 * h)
            let analytic = curve.velocity(at: t, duration: duration)
            #expect(abs(numeric - analytic) < 1e-5 * max(1, abs(analytic)), "t = \(t)")
        }
    }

    @Test("Slopes at the end points are the limits of the tangents")
    func endpointSlopes() {
        // With x1 = y1 = 0 the curve leaves (0, 0) along the second control point: y2/x2.
        #expect(abs(CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1).slope(at: 0) - 1 / 0.58) < 1e-12)
        // With x2 = y2 = 1 it arrives along the first: (1 − y1)/(1 − x1).
        #expect(abs(CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1).slope(at: 1) - 1 / 0.58) < 1e-12)
        #expect(abs(CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1).slope(at: 0) - 0.4) < 1e-12)
        #expect(abs(CubicBezier(x1: 0, y1: 0, x2: 1, y2: 1).slope(at: 0) - 1) < 1e-12)
        #expect(CubicBezier(x1: 0, y1: 0.5, x2: 1, y2: 1).slope(at: 0) == .infinity)
        #expect(abs(TimingCurve.linear.velocity(at: 0.1, duration: 0.5) - 2) < 1e-15)
    }

    @Test func clampsTimeFraction() {
        let curve = CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
        #expect(curve.value(at: -3) == 0)
        #expect(curve.value(at: 4) == 1)
        #expect(curve.isValid)
        #expect(!CubicBezier(x1: 1.2, y1: 0, x2: 0.5, y2: 1).isValid)
        #expect(!CubicBezier(x1: 0.2, y1: .nan, x2: 0.5, y2: 1).isValid)
    }

    @Test func namesAndSprings() {
        #expect(namedCurves.map(\.name) == ["linear", "easeIn", "easeOut", "easeInEaseOut", "default"])
        #expect(TimingCurve.bezier(CubicBezier(x1: 0, y1: 0, x2: 1, y2: 1)).name == "bezier")
        #expect(TimingCurve.system.name == "spring")
        #expect(TimingCurve.system.isSpring && !TimingCurve.easeIn.isSpring)
        // A spring ignores the requested duration and runs its own.
        #expect(TimingCurve.system.effectiveDuration(0.3) == 0.5)
        #expect(TimingCurve.system.progress(at: 0.45, duration: 0.3) < 1)
        #expect(TimingCurve.system.progress(at: 0.5, duration: 10) == 1)
        let spring = Spring.uikit(duration: 0.4, dampingRatio: 0.8)
        #expect(TimingCurve.spring(spring).progress(at: 0.1, duration: 1) == spring.position(at: 0.1))
        #expect(TimingCurve.spring(spring).velocity(at: 0.1, duration: 1) == spring.velocity(at: 0.1))
    }

    @Test func initialVelocityOnlyChangesSprings() {
        #expect(TimingCurve.easeOut.withInitialVelocity(3) == .easeOut)
        let moving = TimingCurve.system.withInitialVelocity(2)
        #expect(moving.velocity(at: 0, duration: 1) == 2)
        #expect(moving == .spring(Spring.system.withInitialVelocity(2)))
    }
}
