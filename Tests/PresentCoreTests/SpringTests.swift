#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PresentCore

/// Springs covering every regime, with and without an initial velocity.
private let regimes: [(name: String, spring: Spring)] = [
    ("underdamped", Spring(mass: 1, stiffness: 100, damping: 10)),
    ("underdamped, moving", Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 3)),
    ("light", Spring(mass: 0.5, stiffness: 300, damping: 2, initialVelocity: -2)),
    ("critical", Spring(mass: 2, stiffness: 200, damping: 40, initialVelocity: -1)),
    ("overdamped (system)", .system),
    ("overdamped, moving", Spring(mass: 3, stiffness: 1000, damping: 500, initialVelocity: 2)),
]

/// Bisection for the root of a decreasing function on [lo, hi].
private func root(_ lo: Double, _ hi: Double, _ f: (Double) -> Double) -> Double {
    var (lo, hi) = (lo, hi)
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if f(mid) > 0 { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
}

@Suite("Springs")
struct SpringTests {
    @Test("Closed forms solve m·x'' + c·x' + k·(x − 1) = 0", arguments: regimes.map(\.spring))
    func closedFormSolvesODE(spring: Spring) {
        // Overdamped springs move as critically damped ones (Core Animation), so the damping
        // in the equation they satisfy is the effective one, 2·min(ζ, 1)·√(km).
        let c = 2 * spring.effectiveDampingRatio * (spring.stiffness * spring.mass).squareRoot()
        let (m, k, h) = (spring.mass, spring.stiffness, 1e-4)
        for i in 1...200 {
            let t = Double(i) * 0.01
            let x = spring.rawPosition(at: t)
            let (before, after) = (spring.rawPosition(at: t - h), spring.rawPosition(at: t + h))
            let dx = (after - before) / (2 * h)
            let ddx = (after - 2 * x + before) / (h * h)
            // Scaled by k: the size of each term when the spring is stretched by the whole way.
            #expect(abs(m * ddx + c * dx + k * (x - 1)) / k < 1e-5, "t = \(t)")
            let v = spring.displacement.derivative.value(at: t)
            #expect(abs(v - dx) < 1e-5 * max(1, abs(v)), "velocity at t = \(t)")
        }
    }

    @Test("Starts at 0 with the initial velocity", arguments: regimes.map(\.spring))
    func initialConditions(spring: Spring) {
        #expect(spring.position(at: 0) == 0)
        #expect(spring.position(at: -1) == 0)
        #expect(abs(spring.velocity(at: 0) - spring.initialVelocity) < 1e-12)
        #expect(spring.velocity(at: -0.1) == 0)
    }

    @Test("Exactly 1 and at rest from the duration on", arguments: regimes.map(\.spring) + [
        Spring.uikit(duration: 0.3, dampingRatio: 0.4),
        Spring.swiftUI(response: 0.55, dampingFraction: 0.825),
    ])
    func finishesAtDuration(spring: Spring) {
        for t in [spring.duration, spring.duration + 1e-9, spring.duration + 1, 1e9] {
            #expect(spring.position(at: t) == 1)
            #expect(spring.velocity(at: t) == 0)
        }
        // Just before the end it is close to 1 but still running.
        #expect(abs(spring.position(at: spring.duration * 0.999_999) - 1) < 0.005)
    }

    @Test("System spring: critically damped, within 0.1 % at 0.506 s")
    func systemSpring() {
        let spring = Spring.system
        #expect(spring.mass == 3 && spring.stiffness == 1000 && spring.damping == 500)
        #expect(spring.duration == 0.5 && spring.hasFixedDuration)
        #expect(abs(spring.dampingRatio - 4.564) < 1e-3)
        #expect(spring.rawPosition(at: 0.506) >= 0.999)
        #expect(spring.rawPosition(at: 0.5) < 0.999)  // "≈ 0.506", not before
        #expect(spring.rawPosition(at: 0.5) > 0.998)
        #expect(spring.position(at: 0.5) == 1)
        // Solved literally as overdamped it would be only 63 % there at 0.5 s.
        let beta = 500.0 / 6, omega0 = (1000.0 / 3).squareRoot()
        let r = (beta * beta - omega0 * omega0).squareRoot()
        let (r1, r2) = (-beta + r, -beta - r)
        let literal = 1 - (r2 * exp(r1 * 0.5) - r1 * exp(r2 * 0.5)) / (r2 - r1)
        #expect(abs(literal - 0.63) < 0.005)
        // Core Animation's critical stand-in, from its own closed form.
        let w = 18.2574
        #expect(abs(spring.rawPosition(at: 0.3) - (1 - exp(-w * 0.3) * (1 + w * 0.3))) < 1e-5)
    }

    @Test("UIKit, ζ = 1: the envelope ((ω − v)·T + 1)·e^(−ωT) is 0.001 at T", arguments: [0.0, 1, -5])
    func uikitCritical(velocity: Double) {
        let spring = Spring.uikit(duration: 0.5, dampingRatio: 1, initialVelocity: velocity)
        let w = spring.stiffness.squareRoot(), T = 0.5
        #expect(spring.mass == 1 && spring.duration == T && spring.hasFixedDuration)
        #expect(abs(spring.damping - 2 * w) < 1e-12)
        #expect(spring.initialVelocity == velocity)
        #expect(abs(((w - velocity) * T + 1) * exp(-w * T) - 0.001) < 1e-12)
        if velocity == 0 {
            // The envelope is the displacement itself here.
            #expect(abs(w - 18.466_826_952_9) < 1e-8)
            #expect(abs(1 - spring.rawPosition(at: T) - 0.001) < 1e-12)
        }
    }

    @Test("UIKit, ζ = 0.5: |(ζω − v)/(√(1−ζ²)·ω)|·e^(−ζωT) is 0.001 at T", arguments: [0.0, 1, 20])
    func uikitUnderdamped(velocity: Double) {
        let spring = Spring.uikit(duration: 0.5, dampingRatio: 0.5, initialVelocity: velocity)
        let w = spring.stiffness.squareRoot(), T = 0.5, zeta = 0.5
        #expect(abs(spring.dampingRatio - zeta) < 1e-12)
        let envelope = abs((zeta * w - velocity) / ((1 - zeta * zeta).squareRoot() * w)) * exp(-zeta * w * T)
        #expect(abs(envelope - 0.001) < 1e-12)
        // The full oscillation's envelope (cosine term included) bounds the displacement at T.
        let beta = zeta * w, wd = w * (1 - zeta * zeta).squareRoot()
        let full = (1 + pow((velocity - beta) / wd, 2)).squareRoot() * exp(-beta * T)
        #expect(abs(1 - spring.rawPosition(at: T)) <= full + 1e-12)
        if velocity == 0 { #expect(abs(w - 25.433_796_538_6) < 1e-8) }
    }

    @Test("UIKit clamps ζ to [1.19e-7, 1] and T to [0.01, 10]")
    func uikitClamps() {
        #expect(Spring.uikit(duration: 0.5, dampingRatio: 3) == Spring.uikit(duration: 0.5, dampingRatio: 1))
        #expect(Spring.uikit(duration: 20, dampingRatio: 1) == Spring.uikit(duration: 10, dampingRatio: 1))
        #expect(Spring.uikit(duration: 0, dampingRatio: 1).duration == 0.01)
        #expect(Spring.uikit(duration: -1, dampingRatio: 0).dampingRatio > 0)
    }

    @Test("UIKit's Newton steps failing still gives a well-formed spring", arguments: [
        (1.0, 20.0), (1, 10), (0.001, 0), (0, 0), (1.19e-7, 3),
    ])
    func uikitFallback(zeta: Double, velocity: Double) {
        let spring = Spring.uikit(duration: 0.5, dampingRatio: zeta, initialVelocity: velocity)
        #expect(spring.stiffness.isFinite && spring.stiffness > 0)
        #expect(spring.damping.isFinite && spring.damping > 0)
        #expect(spring.position(at: 0.25).isFinite)
    }

    @Test("UIKit ζ = 1, v = 10: the largest root, found by scan when Newton stalls")
    func uikitFallbackRoot() {
        // Newton starts at ω = 5/T = 10 = v, where the derivative vanishes.
        let spring = Spring.uikit(duration: 0.5, dampingRatio: 1, initialVelocity: 10)
        let w = spring.stiffness.squareRoot()
        #expect(abs(((w - 10) * 0.5 + 1) * exp(-w * 0.5) - 0.001) < 1e-12)
        #expect(w > 10)
    }

    @Test("SwiftUI: response 0.5, fraction 0.7 → k 157.9, c 17.6 (Apple's example)")
    func swiftUI() {
        let spring = Spring.swiftUI(response: 0.5, dampingFraction: 0.7)
        #expect(spring.mass == 1)
        #expect(abs(spring.stiffness - 157.91) < 0.01)
        #expect(abs(spring.damping - 17.59) < 0.01)
        #expect(abs(spring.dampingRatio - 0.7) < 1e-12)
        #expect(!spring.hasFixedDuration)
        #expect(spring.duration == spring.settlingDuration)
    }

    @Test("Settling: critically damped at rest settles where e^(−y)·(1 + y) = 0.001")
    func settlingCritical() {
        let y = root(1, 20) { exp(-$0) * (1 + $0) - 0.001 }
        let spring = Spring(mass: 1, stiffness: 100, damping: 20)
        #expect(abs(spring.duration - y / 10) < 1e-9)
        #expect(abs(spring.duration - 0.923_35) < 1e-4)
    }

    @Test("Settling: the first time after which |1 − x| < 0.001 and |v| < 0.06 hold", arguments: [
        Spring(mass: 1, stiffness: 100, damping: 10),                       // ζ 0.5
        Spring(mass: 1, stiffness: 100, damping: 5),                        // ζ 0.25
        Spring(mass: 1, stiffness: 10_000, damping: 100),                   // stiff: speed decides
        Spring(mass: 1, stiffness: 100, damping: 20, initialVelocity: 30),  // critical, overshoots
        Spring(mass: 1, stiffness: 170, damping: 26, initialVelocity: -4),  // ζ ≈ 1, underdamped
        Spring(mass: 3, stiffness: 1000, damping: 500),                     // overdamped
        Spring(mass: 1, stiffness: 100, damping: 0.001),                    // ζ 5e-5: hours
    ])
    func settling(spring: Spring) {
        let d = spring.duration
        func settled(_ t: Double) -> Bool {
            abs(1 - spring.rawPosition(at: t)) < Spring.settlingTolerance
                && abs(spring.displacement.derivative.value(at: t)) < Spring.settlingSpeed
        }
        #expect(d > 0 && d.isFinite)
        // Settled at every sample of the next two seconds (many periods for these springs),
        // starting a hair after d: at d itself |1 − x| is the tolerance up to rounding…
        for i in 0...20_000 {
            let t = d * (1 + 1e-12) + Double(i) * 1e-4
            #expect(settled(t), "t = d + \(t - d)")
        }
        // …and not settled at some moment of the last 10 % before it (or just before it).
        let before = (0...1000).map { d * (0.9 + 0.1 * Double($0) / 1000) } + [d * (1 - 1e-12)]
        #expect(before.contains { !settled($0) })
    }

    @Test("CASpringAnimation's example, damping 5: about 2.85 s by Apple, 2.69 s here")
    func settlingNearApple() {
        // ζ = 0.25: the last swing larger than 0.001 peaks just before 2.69 s. Apple's own
        // criterion is undocumented; the envelope e^(−βt)/√(1−ζ²) would say 2.78 s.
        let spring = Spring(mass: 1, stiffness: 100, damping: 5)
        #expect(abs(spring.duration - 2.688) < 0.001)
    }

    @Test func undampedNeverSettles() {
        #expect(Spring(mass: 1, stiffness: 100, damping: 0).duration == .infinity)
    }

    @Test("A new initial velocity keeps the spring; only a settling duration is recomputed")
    func withInitialVelocity() {
        let settling = Spring(mass: 1, stiffness: 100, damping: 10)
        let moving = settling.withInitialVelocity(5)
        #expect(moving.initialVelocity == 5 && moving.velocity(at: 0) == 5)
        #expect(moving.stiffness == 100 && moving.damping == 10 && moving.mass == 1)
        #expect(moving == Spring(mass: 1, stiffness: 100, damping: 10, initialVelocity: 5))
        #expect(moving.duration != settling.duration)

        let fixed = Spring.uikit(duration: 0.4, dampingRatio: 0.7).withInitialVelocity(-3)
        #expect(fixed.duration == 0.4 && fixed.hasFixedDuration)
        #expect(fixed.stiffness == Spring.uikit(duration: 0.4, dampingRatio: 0.7).stiffness)
        #expect(Spring.system.withInitialVelocity(2).duration == 0.5)
    }
}
