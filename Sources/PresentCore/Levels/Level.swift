// Where an entry lives on the screen besides its frame: its level (SwiftEntryKit's window
// levels, wlr-layer-shell's layers), what a tap outside it does (SwiftEntryKit's screen
// interaction, Presentr's passthrough), where an overlay sits, and the presentation
// context it is confined to (UIKit's definesPresentationContext).

/// The bands entries are drawn in, bottom to top. Each has its own queue and arbitration:
/// a present on one never waits for a transition on another.
public enum Level: String, Sendable, CaseIterable, Comparable {
    /// The modal stack (the default).
    case normal
    /// Non-modal banners and toasts: never dimmed, never blocking taps outside themselves.
    case overlay
    /// A modal stack of its own above everything; it blocks input to everything below.
    case alert

    /// Drawing order.
    var rank: Int {
        switch self {
        case .normal: return 0
        case .overlay: return 1
        case .alert: return 2
        }
    }

    public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }

    /// Modal levels take the keys and taps outside their entries; the overlay does not.
    public var isModal: Bool { self != .overlay }
}

/// What a tap outside an entry does.
public enum Interaction: String, Sendable, CaseIterable {
    /// Swallowed.
    case absorb
    /// Dismisses the entry (reason `tap`).
    case dismiss
    /// Passes through to what lies below; the dimming still draws.
    case forward
}

/// Where an overlay sits in the safe area of its container (or context): centred at the
/// top, the bottom or the middle, or in the top corner of the leading or trailing side (a
/// desktop's notifications), which the container's layout direction resolves.
public enum OverlayPosition: String, Sendable, CaseIterable {
    case top, bottom, center, leading, trailing
}

/// An overlay's place: its edge and its distance from it. Overlays at the same position
/// stack, newest nearest the edge, `StackConfiguration.overlaySpacing` apart.
public struct OverlayPlacement: Hashable, Sendable {
    public var position: OverlayPosition
    /// Points from the safe area's edge (from the centre line for `center`).
    public var margin: Double
    public init(position: OverlayPosition = .top, margin: Double = OverlayPlacement.defaultMargin) {
        self.position = position; self.margin = margin
    }
    public static let defaultMargin = 8.0
}
