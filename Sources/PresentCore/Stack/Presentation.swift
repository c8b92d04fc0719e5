// What a client asks for when it presents: the transitioning delegate's and the
// presentation controller's settings in one value. The protocol layer builds it from
// JSON (validated); the stack only reads it.

/// An RGBA colour, components in 0…1.
public struct Color: Hashable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public static let black = Color(red: 0, green: 0, blue: 0)
}

/// A blur effect drawn behind the dimming colour (UIBlurEffect.Style names).
public enum BlurStyle: String, Sendable, CaseIterable {
    case extraLight, light, dark, regular, prominent
}

/// The dimming layer behind an entry (the presentation controller's chrome).
public struct Background: Hashable, Sendable {
    public var color: Color
    /// The dimming layer's alpha once presented (Presentr's default 0.7).
    public var opacity: Double
    /// When set, renderers blur what is underneath (Presentr: blur replaces the colour).
    public var blur: BlurStyle?
    public init(color: Color = .black, opacity: Double = 0.7, blur: BlurStyle? = nil) {
        self.color = color; self.opacity = opacity; self.blur = blur
    }
    public static let standard = Background()
    public static let clear = Background(opacity: 0)
}

/// A drop shadow under the content layer.
public struct Shadow: Hashable, Sendable {
    public var color: Color
    public var opacity: Double
    public var radius: Double
    public var offset: Size
    public init(color: Color = .black, opacity: Double = 0.3, radius: Double = 8,
                offset: Size = Size(width: 0, height: 2)) {
        self.color = color; self.opacity = opacity; self.radius = radius; self.offset = offset
    }
}

/// UIKit's status-bar styles.
public enum StatusBarStyle: String, Sendable, CaseIterable {
    case `default`, lightContent, darkContent
}

/// The status bar's appearance: what a capturing entry asks for, and what is shown.
public struct StatusBarAppearance: Hashable, Sendable {
    public var style: StatusBarStyle
    public var hidden: Bool
    public init(style: StatusBarStyle = .default, hidden: Bool = false) { self.style = style; self.hidden = hidden }
}

/// What to show instead, while the container is compact in height
/// (UIAdaptivePresentationControllerDelegate).
public enum AdaptivePolicy: Hashable, Sendable {
    /// Keep the style as it is.
    case none
    /// Switch to over-full-screen (the tutorial's `disableCompactHeight`).
    case overFullScreen
    /// Switch to full-screen.
    case fullScreen
    /// Show another presentation (e.g. "rotate the device") while the traits last.
    case replacement(style: PresentationStyle, content: Content?)
}

/// SwiftEntryKit's precedence: how a request competes with what is on screen.
public enum Precedence: String, Sendable, CaseIterable {
    /// Wait in the queue (ordered by priority, then arrival) while a transition runs.
    case enqueue
    /// Replace the top entry at once when this priority is ≥ its priority (the top one
    /// leaves with reason `preempted`); otherwise wait like `enqueue` — never dropped.
    case override
}

/// Everything a present request says about one presentation.
public struct Presentation: Hashable, Sendable {
    /// The entry's id; generated (p1, p2, …) when nil.
    public var id: String?
    /// A name for the kind of content; a present whose kind matches the top entry's
    /// returns that entry instead (a guard against presenting the same thing twice) unless
    /// `deduplicate` is false.
    public var kind: String?
    public var deduplicate: Bool
    /// What renderers draw in the content layer, and the actions and fields it answers with.
    public var content: Content?
    /// The size the content would like (a custom style's `content` dimensions use it).
    public var preferredContentSize: PreferredContentSize?
    /// Leave on its own some time after presenting.
    public var autoDismiss: AutoDismiss?
    /// Escape and back dismiss the entry when it has no cancel action; nil = when it has
    /// actions (a dialog), not otherwise (a sheet the app manages itself).
    public var dismissOnEscape: Bool?
    /// The band it is drawn in and arbitrated with.
    public var level: Level = .normal
    /// What a tap outside it does; nil = `dismiss` with effectiveDismissOnTap, else `absorb`
    /// (overlays always forward).
    public var interaction: Interaction?
    /// For overlays: where it sits.
    public var overlay = OverlayPlacement()
    /// The presentation context it is confined to (nil: the whole container).
    public var context: String?
    public var style: PresentationStyle
    /// Keep the frame inside the container's safe area.
    public var respectsSafeArea: Bool
    public var transition: Transition
    /// The dismissal's transition; nil = the presentation's own, reversed.
    public var dismissTransition: Transition?
    public var background: Background
    public var cornerRadius: Double
    public var shadow: Shadow?
    /// A tap on its dimming dismisses it; nil = when it has no actions. A dialog waits for an
    /// answer, as UIKit's alerts ignore taps outside them: a stray tap must not take a
    /// destructive confirmation away unanswered.
    public var dismissOnTap: Bool?
    public var dismissOnSwipe: Bool
    public var keyboard: KeyboardAvoidance
    /// Non-nil: this entry captures the status bar (modalPresentationCapturesStatusBarAppearance).
    public var statusBar: StatusBarAppearance?
    public var adaptive: AdaptivePolicy
    /// 0…1000 (SwiftEntryKit's scale: 0 min, 250 low, 500 normal, 750 high, 1000 max).
    public var priority: Int
    public var precedence: Precedence
    /// Dim the tint of what is underneath while presented.
    public var dimsPresenterTint: Bool
    /// Refused rather than held while a mode holds it (do not disturb): for toasts that
    /// mean nothing later.
    public var droppable = false
    /// The owner is asked (`shouldDismiss`) before a tap, swipe or key dismisses it. The
    /// stack keeps it with the entry; the daemon puts the question.
    public var confirmDismiss = false

    public init(id: String? = nil, kind: String? = nil, deduplicate: Bool = true, content: Content? = nil,
                preferredContentSize: PreferredContentSize? = nil, autoDismiss: AutoDismiss? = nil,
                dismissOnEscape: Bool? = nil,
                style: PresentationStyle, respectsSafeArea: Bool = false,
                transition: Transition? = nil, dismissTransition: Transition? = nil,
                background: Background = .standard, cornerRadius: Double? = nil, shadow: Shadow? = nil,
                dismissOnTap: Bool? = nil, dismissOnSwipe: Bool = false, keyboard: KeyboardAvoidance = .none,
                statusBar: StatusBarAppearance? = nil, adaptive: AdaptivePolicy = .none,
                priority: Int = Presentation.normalPriority, precedence: Precedence = .enqueue,
                dimsPresenterTint: Bool = false, defaults: StackConfiguration = .standard) {
        self.id = id; self.kind = kind; self.deduplicate = deduplicate; self.content = content
        self.preferredContentSize = preferredContentSize; self.autoDismiss = autoDismiss
        self.dismissOnEscape = dismissOnEscape
        self.style = style; self.respectsSafeArea = respectsSafeArea
        self.transition = transition ?? defaults.defaultTransition(for: style)
        self.dismissTransition = dismissTransition
        self.background = background
        self.cornerRadius = cornerRadius ?? Presentation.defaultCornerRadius(for: style)
        self.shadow = shadow
        self.dismissOnTap = dismissOnTap; self.dismissOnSwipe = dismissOnSwipe
        self.keyboard = keyboard; self.statusBar = statusBar; self.adaptive = adaptive
        self.priority = priority; self.precedence = precedence; self.dimsPresenterTint = dimsPresenterTint
    }

    public static let normalPriority = 500
    public static let priorityRange = 0...1000

    /// Presentr rounds alerts and popups by 4 points; everything else is square.
    public static func defaultCornerRadius(for style: PresentationStyle) -> Double {
        switch style {
        case .alert, .popup: return 4
        case .sheet: return 10   // UIKit's sheet
        default: return 0
        }
    }

    /// What a tap outside it does, defaults resolved.
    public var effectiveInteraction: Interaction {
        guard level.isModal else { return .forward }
        return interaction ?? (effectiveDismissOnTap ? .dismiss : .absorb)
    }

    /// Whether a tap on its dimming dismisses it, defaults resolved: not for an entry with
    /// actions, which is answered by one of them (the same rule as effectiveDismissOnEscape).
    public var effectiveDismissOnTap: Bool { dismissOnTap ?? (content?.actions.isEmpty ?? true) }

    /// Whether Escape and back dismiss an entry that has no cancel action.
    public var effectiveDismissOnEscape: Bool { dismissOnEscape ?? !(content?.actions.isEmpty ?? true) }

    /// The transition used to dismiss: the dismiss transition, else the presentation's.
    public var effectiveDismissTransition: Transition { dismissTransition ?? transition }
}
