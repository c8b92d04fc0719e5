// Shared vocabulary of the stack's behavioural tests: presentations built with linear
// timing (so intermediate values are exact whatever the real curves do), event filters,
// and a scene comparison that measures the largest jump between two scenes.

import Testing
import PresentCore

/// The default container: 390 × 844 (iPhone 14 portrait).
let phone = Container.phonePortrait
/// The same phone in landscape: compact in height.
let landscape = Container(size: Size(width: 844, height: 390), scale: 3)
/// A regular/regular container of another size.
let tablet = Container(size: Size(width: 820, height: 1180), scale: 2)

/// A transition with linear timing, so progress equals elapsed / duration.
func linear(_ kind: TransitionKind, _ duration: Double = 0.4) -> Transition {
    Transition(kind: kind, duration: duration, timing: .linear)
}

/// A presentation with linear timing by default.
func sheet(_ id: String? = nil, kind: String? = nil, style: PresentationStyle = .popup,
           transition: TransitionKind = .coverVertical, duration: Double = 0.4,
           dismissTransition: Transition? = nil, background: Background = .standard,
           dismissOnTap: Bool? = nil, dismissOnSwipe: Bool = false,
           statusBar: StatusBarAppearance? = nil, adaptive: AdaptivePolicy = .none,
           priority: Int = Presentation.normalPriority, precedence: Precedence = .enqueue,
           deduplicate: Bool = true, content: Content? = nil, dimsTint: Bool = false) -> Presentation {
    Presentation(id: id, kind: kind, deduplicate: deduplicate, content: content, style: style,
                 transition: linear(transition, duration), dismissTransition: dismissTransition,
                 background: background, dismissOnTap: dismissOnTap, dismissOnSwipe: dismissOnSwipe,
                 statusBar: statusBar, adaptive: adaptive, priority: priority, precedence: precedence,
                 dimsPresenterTint: dimsTint)
}

extension ModalStack {
    /// Presents and fails the test on an error.
    @discardableResult
    mutating func show(_ p: Presentation, owner: OwnerID = 1, at t: Double,
                       sourceLocation: SourceLocation = #_sourceLocation) -> PresentOutcome? {
        do { return try present(p, owner: owner, at: t) } catch {
            Issue.record("present failed: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Ids of the on-screen entries, bottom to top.
    var ids: [String] { entries.map(\.id) }
    var queuedIDs: [String] { queue.map(\.id) }

    /// Everything an operation could have changed, for "the stack is unchanged" checks.
    var snapshot: Snapshot {
        Snapshot(time: time, container: container, entries: entries, queue: queue, statusBar: statusBar)
    }

    /// A copy advanced to t: what the stack would be if only time passed.
    func advanced(to t: Double) -> ModalStack {
        var copy = self
        copy.advance(to: t)
        return copy
    }
}

struct Snapshot: Equatable {
    var time: Double
    var container: Container
    var entries: [Entry]
    var queue: [Entry]
    var statusBar: StatusBarAppearance
}

extension Array where Element == StackEvent {
    var notices: [LifecycleNotice] {
        compactMap { if case .lifecycle(let n) = $0 { return n } else { return nil } }
    }

    func notices(_ event: LifecycleEvent) -> [LifecycleNotice] { notices.filter { $0.event == event } }

    func notices(for id: String) -> [LifecycleNotice] { notices.filter { $0.id == id } }

    /// (appearance, duration, time) of every status-bar change.
    var statusBarChanges: [(appearance: StatusBarAppearance, duration: Double, time: Double)] {
        compactMap { if case .statusBar(let a, let d, let t) = $0 { return (a, d, t) } else { return nil } }
    }

    /// The time of every event that has one.
    var times: [Double] {
        compactMap {
            switch $0 {
            case .lifecycle(let n): return n.time
            case .statusBar(_, _, let t): return t
            case .stackChanged: return nil
            case .mode(let change): return change.time
            }
        }
    }
}

extension Array where Element == LifecycleNotice {
    func notices(_ event: LifecycleEvent) -> [LifecycleNotice] { filter { $0.event == event } }
    func notices(for id: String) -> [LifecycleNotice] { filter { $0.id == id } }
}

extension HitTestResult {
    /// "id part dismisses=…", for comparisons (the initializer is internal).
    var summary: String { "\(id ?? "-") \(part) dismisses=\(dismisses)" }
}

extension SwipeResult {
    var summary: String { "\(id ?? "-") \(progress) \(outcome)" }
}

extension Scene {
    func layer(_ id: String, _ role: LayerRole) -> Layer? {
        layers.first { $0.entryID == id && $0.role == role }
    }
    func content(_ id: String) -> Layer? { layer(id, .content) }
    func dimming(_ id: String) -> Layer? { layer(id, .dimming) }
    /// Entry ids in drawing order, once per entry.
    var entryIDs: [String] { layers.filter { $0.role == .content }.map(\.entryID) }
}

func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

func near(_ a: Rect, _ b: Rect, _ tolerance: Double = 1e-9) -> Bool {
    near(a.minX, b.minX, tolerance) && near(a.minY, b.minY, tolerance)
        && near(a.width, b.width, tolerance) && near(a.height, b.height, tolerance)
}

/// The largest difference between two scenes in any numeric layer property; infinity
/// when they differ in structure (layers, roles, colours, labels, flags).
/// `ignoringDimmingFrames`: the dimming layer is the container's bounds by definition,
/// so it follows a container change at once.
func largestJump(_ a: Scene, _ b: Scene, ignoringDimmingFrames: Bool = false) -> Double {
    largestJump(a.layers, b.layers, ignoringDimmingFrames: ignoringDimmingFrames)
}

func largestJump(_ a: [Layer], _ b: [Layer], ignoringDimmingFrames: Bool = false) -> Double {
    guard a.count == b.count else { return .infinity }
    var jump = 0.0
    for (x, y) in zip(a, b) {
        guard x.entryID == y.entryID, x.role == y.role, x.color == y.color, x.blur == y.blur,
            x.shadow == y.shadow, x.contentRevision == y.contentRevision, x.tintDimmed == y.tintDimmed
        else { return .infinity }
        var numbers = [(x.alpha, y.alpha), (x.scale, y.scale), (x.rotation, y.rotation),
                       (x.cornerRadius, y.cornerRadius)]
        if !(ignoringDimmingFrames && x.role == .dimming) {
            numbers += [(x.frame.minX, y.frame.minX), (x.frame.minY, y.frame.minY),
                        (x.frame.width, y.frame.width), (x.frame.height, y.frame.height)]
        }
        for (p, q) in numbers { jump = max(jump, abs(p - q)) }
    }
    return jump
}

/// The scene just before and just after `operation`, both at the stack's time after it.
func aroundOperation(_ stack: inout ModalStack, at t: Double,
                     _ operation: (inout ModalStack) throws -> Void) rethrows -> (before: Scene, after: Scene) {
    let before = stack.advanced(to: t).scene(at: t)
    try operation(&stack)
    return (before, stack.scene(at: t))
}

/// SplitMix64: a tiny, seedable, well-mixed generator for reproducible random tests.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
