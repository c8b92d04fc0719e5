// How an entry moves in and out: UIViewControllerAnimatedTransitioning's job.
// A transition is a pair of states — presented (the layout's frame) and off-screen —
// plus a duration and a timing curve.

#if canImport(Glibc)
import Glibc
#endif

/// The kinds of movement (Presentr's TransitionType, UIKit's UIModalTransitionStyle, and a zoom).
public enum TransitionKind: String, Sendable, CaseIterable {
    /// Enters from below: the view's top edge starts at the container's bottom edge.
    case coverVertical
    /// Enters from above: the view's bottom edge starts at the container's top edge.
    case coverVerticalFromTop
    /// Enters from the left edge.
    case coverHorizontalFromLeft
    /// Enters from the right edge.
    case coverHorizontalFromRight
    /// Enters from the edge of a slide-in style (the bottom for other styles).
    case slide
    /// Fades alpha 0 ↔ 1 in place.
    case crossDissolve
    /// Rotates about the vertical axis from facing away (π) to facing the viewer (0).
    case flipHorizontal
    /// Scales from 0.1 to 1 on present and from 1 to 0.001 on dismiss.
    case zoom
}

/// Which way a transition runs.
public enum TransitionPhase: String, Sendable {
    case presenting, dismissing
}

/// A transition: kind, duration and timing.
public struct Transition: Hashable, Sendable {
    public var kind: TransitionKind
    /// Seconds; a spring timing curve replaces it with the spring's own duration.
    public var duration: Double
    public var timing: TimingCurve

    public init(kind: TransitionKind, duration: Double, timing: TimingCurve) {
        self.kind = kind; self.duration = duration; self.timing = timing
    }

    /// The transition for someone who asked for reduced motion (UIKit's
    /// prefersCrossFadeTransitions): a cross-fade over the same time, along a curve that
    /// never overshoots.
    public var reducedMotion: Transition {
        Transition(kind: .crossDissolve, duration: duration, timing: timing.withoutOvershoot)
    }

    /// Zoom's start scale on present and end scale on dismiss.
    public static let zoomPresentScale = 0.1
    public static let zoomDismissScale = 0.001

    /// The off-screen state this transition starts from (presenting) or ends at
    /// (dismissing), given the presented state and the container.
    public func offscreenState(from presented: VisualState, container: Size, slideEdge: Edge,
                               phase: TransitionPhase) -> VisualState {
        var s = presented
        s.dimming = 0
        let f = presented.frame
        switch kind {
        case .coverVertical: s.frame.origin.y = container.height
        case .coverVerticalFromTop: s.frame.origin.y = -f.height
        case .coverHorizontalFromLeft: s.frame.origin.x = -f.width
        case .coverHorizontalFromRight: s.frame.origin.x = container.width
        case .slide: s.frame = Self.offscreen(f, beyond: slideEdge, of: container)
        case .crossDissolve: s.alpha = 0
        case .flipHorizontal: s.rotation = .pi
        case .zoom: s.scale = phase == .presenting ? Self.zoomPresentScale : Self.zoomDismissScale
        }
        return s
    }

    /// `frame` moved just past `edge` of the container, keeping its other coordinate.
    static func offscreen(_ frame: Rect, beyond edge: Edge, of container: Size) -> Rect {
        var f = frame
        switch edge {
        case .left: f.origin.x = -frame.width
        case .right: f.origin.x = container.width
        case .top: f.origin.y = -frame.height
        case .bottom: f.origin.y = container.height
        }
        return f
    }

    /// The edge a swipe drags this transition's view out through.
    public func swipeEdge(slideEdge: Edge) -> Edge {
        switch kind {
        case .coverVerticalFromTop: return .top
        case .coverHorizontalFromLeft: return .left
        case .coverHorizontalFromRight: return .right
        case .slide: return slideEdge
        case .coverVertical, .crossDissolve, .flipHorizontal, .zoom: return .bottom
        }
    }
}
