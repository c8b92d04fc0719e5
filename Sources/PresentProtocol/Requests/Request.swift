// The values requests carry (the `Request` enum itself sits beside the method table,
// MethodTable.swift), the subscription topics, and the limits every value is checked
// against.

import PresentCore
import PresentJSON

/// The subscription topics, each declared once: its name here, who may subscribe to it
/// (`access`, whose switch the compiler holds to every case), and the notifications
/// the daemon broadcasts on it. Nothing else lists them: the Broadcaster keeps one member
/// list per case, and `rpc.discover`, the role table and the clients' lists follow.
public enum Topic: String, Sendable, CaseIterable {
    /// `frame` notifications while anything moves.
    case frames
    /// `lifecycle` notifications (queued, willPresent, didPresent, willDismiss, didDismiss, adapted).
    case lifecycle
    /// `stack` notifications: the whole stack after each change.
    case stack
    /// `statusBar` notifications.
    case statusBar
    /// `animations` notifications: the motion in force, at every change of it (a renderer
    /// that computes its frames itself needs nothing else).
    case animations
    /// `mode` notifications (do not disturb on, changed, off).
    case modes

    /// Who may subscribe to it (`subscribe` itself needs app or renderer).
    public var access: MethodAccess {
        switch self {
        case .frames, .stack, .statusBar, .animations, .modes: return .roles(.renderer)
        case .lifecycle: return .roles([.app, .renderer])
        }
    }

    /// Its place among `allCases`, 0..<allCases.count: the Broadcaster's member list for it.
    /// Read per broadcast, so from an array made once (`allCases` makes a new one each time).
    public var slot: Int { Self.ordered.firstIndex(of: self)! }
    private static let ordered = allCases
}

/// A present request: the core's presentation plus what only the daemon cares about.
public struct PresentRequest: Hashable, Sendable {
    public var presentation: Presentation
    /// The screen to present on; nil: the one holding the entry's context, else `main`.
    public var output: String?
    /// Only say what would happen (Daemon+Modes); change nothing.
    public var dryRun = false
    public init(presentation: Presentation, output: String? = nil) {
        self.presentation = presentation; self.output = output
    }
}

/// A dismiss request's transition: the parts it gives replace those of the entry's own
/// dismiss transition (known only to the stack, so resolved there).
public struct TransitionOverride: Hashable, Sendable {
    public var kind: TransitionKind?
    public var duration: Double?
    public var timing: TimingCurve?

    public func applied(to base: Transition) -> Transition {
        Transition(kind: kind ?? base.kind, duration: duration ?? base.duration, timing: timing ?? base.timing)
    }
}

extension ModalStack {
    /// The transition a dismiss request means for entry `id`: the entry's own dismiss
    /// transition with the request's parts in place of its own; nil when none was given.
    public func dismissTransition(for id: String, override: TransitionOverride?) -> Transition? {
        guard let override, let entry = entry(id: id) else { return nil }
        return override.applied(to: entry.presentation.effectiveDismissTransition)
    }
}

/// A container change; nil fields keep their current value, size classes absent are derived.
public struct ContainerChange: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public var safeArea: EdgeInsets?
    public var scale: Double?
    public var horizontalSizeClass: SizeClass?
    public var verticalSizeClass: SizeClass?
    public var layoutDirection: LayoutDirection?
    public var duration: Double?

    public init(width: Double, height: Double, safeArea: EdgeInsets? = nil, scale: Double? = nil,
                horizontalSizeClass: SizeClass? = nil, verticalSizeClass: SizeClass? = nil,
                layoutDirection: LayoutDirection? = nil, duration: Double? = nil) {
        self.width = width; self.height = height; self.safeArea = safeArea; self.scale = scale
        self.horizontalSizeClass = horizontalSizeClass; self.verticalSizeClass = verticalSizeClass
        self.layoutDirection = layoutDirection; self.duration = duration
    }

    /// The new container, keeping unspecified fields from `current`.
    public func applied(to current: Container) -> Container {
        Container(size: Size(width: width, height: height), safeArea: safeArea ?? current.safeArea,
                  scale: scale ?? current.scale, horizontalSizeClass: horizontalSizeClass,
                  verticalSizeClass: verticalSizeClass, keyboardHeight: current.keyboardHeight,
                  layoutDirection: layoutDirection ?? current.layoutDirection)
    }
}

/// A new screen: its name, container and frame rate (nil: the daemon's `fps`).
public struct OutputDefinition: Hashable, Sendable {
    public var name: String
    public var container: ContainerChange
    public var fps: Int?
    public init(name: String, container: ContainerChange, fps: Int? = nil) {
        self.name = name; self.container = container; self.fps = fps
    }
}

/// One frame a renderer drew and the compositor showed: `time` is the daemon time it was
/// drawn for, `shownAt` when it turned into light (the compositor's timestamp, on the
/// daemon's real clock, CLOCK_MONOTONIC), `drawnAt` when the renderer committed it, and
/// `refresh` the output's period then (seconds; nil: not known).
public struct ShownFrame: Hashable, Sendable {
    public var time: Double
    public var shownAt: Double
    public var drawnAt: Double?
    public var refresh: Double?
    public init(time: Double, shownAt: Double, drawnAt: Double? = nil, refresh: Double? = nil) {
        self.time = time; self.shownAt = shownAt; self.drawnAt = drawnAt; self.refresh = refresh
    }
}

/// `setMode`'s `doNotDisturb`: it ends at `until` (the daemon's clock) or `duration`
/// seconds from now (at most one of them; neither: when turned off).
public struct ModeRequest: Hashable, Sendable {
    public var until: Double?
    public var duration: Double?
    public var allowPriorityAbove: Int
    public init(until: Double? = nil, duration: Double? = nil,
                allowPriorityAbove: Int = DoNotDisturb.defaultAllowPriorityAbove) {
        self.until = until; self.duration = duration; self.allowPriorityAbove = allowPriorityAbove
    }
}

/// The bounds every value is checked against (documented in docs/PROTOCOL.md).
public struct ProtocolLimits: Hashable, Sendable {
    /// The protocol version this daemon speaks.
    public static let protocolVersion = 1
    /// Longest transition, keyboard or container-change duration, seconds.
    public var maxDuration: Double = 60
    /// Ids, kinds, content labels and client names: 1…256 characters.
    public var maxNameLength = 256
    /// Largest container dimension, points.
    public var maxDimension: Double = 100_000
    /// Largest coordinate magnitude for points and offsets.
    public var maxCoordinate: Double = 1_000_000
    /// Largest manual-clock advance in one request, seconds.
    public var maxAdvance: Double = 3600
    /// Content: a title, an action's title, a placeholder, an accessibility label.
    public var maxTitleLength = 256
    /// Content: a message, a hint, a field's value, an icon's path.
    public var maxMessageLength = 4096
    /// Content: a message's markup (twice a message: tags and entities take room).
    public static let maxMessageMarkupLength = 8192
    /// Content: action and field ids.
    public var maxContentIDLength = 64
    /// An activate's xdg-activation token (compositors' are 32 to 40 characters).
    public var maxActivationTokenLength = 256
    /// Content: buttons and text fields of one entry.
    public var maxActions = 8
    public var maxFields = 4
    /// Longest auto-dismiss countdown, seconds (a day).
    public var maxAutoDismiss: Double = 86_400
    /// Screens, `main` included.
    public var maxOutputs = 16
    /// Frames per second of a screen.
    public static let fpsRange = 1...240
    public init() {}
}
