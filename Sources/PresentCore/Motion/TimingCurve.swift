// TEMPORARY stub so the stack compiles while the real timing lands (branch motion).
public struct CubicBezier: Hashable, Sendable {
    public var x1, y1, x2, y2: Double
    public init(x1: Double, y1: Double, x2: Double, y2: Double) { self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2 }
    public func value(at x: Double) -> Double { x }
    public func slope(at x: Double) -> Double { 1 }
}
public struct Spring: Hashable, Sendable {
    public var mass, stiffness, damping, initialVelocity, duration: Double
    public init(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double) {
        self.mass = mass; self.stiffness = stiffness; self.damping = damping; self.initialVelocity = initialVelocity; self.duration = 1 }
    public static let system = Spring(mass: 3, stiffness: 1000, damping: 500, initialVelocity: 0)
    public static func uikit(duration: Double, dampingRatio: Double, initialVelocity: Double) -> Spring { system }
    public static func swiftUI(response: Double, dampingFraction: Double, initialVelocity: Double) -> Spring { system }
    public var dampingRatio: Double { 1 }
    public func position(at t: Double) -> Double { min(1, t / duration) }
    public func velocity(at t: Double) -> Double { 1 / duration }
    public func withInitialVelocity(_ v: Double) -> Spring { self }
}
public enum TimingCurve: Hashable, Sendable {
    case linear, easeIn, easeOut, easeInEaseOut, `default`, bezier(CubicBezier), spring(Spring)
    public static var system: TimingCurve { .spring(.system) }
    public var name: String { "linear" }
    public var isSpring: Bool { if case .spring = self { return true }; return false }
    public func progress(at elapsed: Double, duration: Double) -> Double { duration <= 0 ? 1 : min(1, max(0, elapsed / duration)) }
    public func velocity(at elapsed: Double, duration: Double) -> Double { duration <= 0 ? 0 : 1 / duration }
    public func effectiveDuration(_ requested: Double) -> Double { requested }
    public func withInitialVelocity(_ v: Double) -> TimingCurve { self }
}
public enum KeyboardAvoidance: String, Sendable, CaseIterable {
    case none, moveUp, compress, stickToTop
    public func frame(for presented: Rect, in container: Container) -> Rect { presented }
}
