// Every default duration and threshold the stack uses, in one place, so the daemon's
// configuration can change them and the docs can list them.

/// Defaults and tunables of the modal stack. All durations are seconds.
public struct StackConfiguration: Hashable, Sendable {
    /// Present/dismiss duration when a request gives none (Presentr's 0.4 s).
    public var transitionDuration: Double = 0.4
    /// Present/dismiss timing when a request gives none (Presentr's ease-in-out).
    public var transitionTiming: TimingCurve = .easeInEaseOut
    /// How long a re-layout takes after a container change that gives no duration.
    public var containerChangeDuration: Double = 0.3
    public var containerChangeTiming: TimingCurve = .easeInEaseOut
    /// Keyboard movement when a keyboard event gives none (Presentr's 0.5 s).
    public var keyboardDuration: Double = 0.5
    public var keyboardTiming: TimingCurve = .easeInEaseOut
    /// A released swipe dismisses when it has travelled this fraction of the way out…
    public var swipeCompletionFraction: Double = 0.5
    /// …or is moving outwards faster than this (points per second; PanModal's 300).
    public var swipeVelocityThreshold: Double = 300
    /// Points between overlays stacked at the same position.
    public var overlaySpacing: Double = 8
    /// The status bar when no entry captures it.
    public var baseStatusBar = StatusBarAppearance()

    public init() {}
    public static let standard = StackConfiguration()

    /// Presentr's defaults: a top half drops from the top, a slide-in slides from its
    /// edge, everything else covers vertically.
    public func defaultTransition(for style: PresentationStyle) -> Transition {
        let kind: TransitionKind
        switch style {
        case .topHalf: kind = .coverVerticalFromTop
        case .slideIn: kind = .slide
        default: kind = .coverVertical
        }
        return Transition(kind: kind, duration: transitionDuration, timing: transitionTiming)
    }
}
