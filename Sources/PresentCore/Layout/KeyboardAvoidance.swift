// What a presented view does when the on-screen keyboard would cover it: Presentr's
// KeyboardTranslationType, with its formulas and constants.

/// How a presented view gets out of the keyboard's way.
public enum KeyboardAvoidance: String, Sendable, CaseIterable {
    /// Stay put; the keyboard may cover the view.
    case none
    /// Move up until the view's bottom clears the keyboard (by 20 pt unless the view sat on
    /// the container's bottom edge), even past the top of the container.
    case moveUp
    /// Move up like `moveUp` but never above y = 20; when stopped there, shrink the height so
    /// the view ends 20 pt above the keyboard.
    case compress
    /// Move up like `moveUp` but never above y = 20, keeping the height (the keyboard may then
    /// still cover the bottom).
    case stickToTop

    /// Presentr's animation duration when a keyboard event carries none.
    public static let defaultDuration = 0.5

    /// Clearance kept between a floating view and the keyboard.
    static let buffer = 20.0
    /// The highest a view is moved (Presentr's status-bar height).
    static let topLimit = 20.0

    /// `presented`'s frame once the keyboard (`container.keyboardHeight`, rising from the
    /// bottom edge) is up; unchanged when there is no keyboard or it covers nothing.
    public func frame(for presented: Rect, in container: Container) -> Rect {
        guard self != .none, container.keyboardHeight > 0 else { return presented }
        let keyboardTop = container.size.height - container.keyboardHeight
        // A view standing on the bottom edge (a bottom sheet) only needs to clear the
        // keyboard; a floating one keeps a gap so it does not look glued to it.
        let buffer = presented.maxY >= container.size.height ? 0 : Self.buffer
        let offset = presented.maxY + buffer - keyboardTop
        guard offset > 0 else { return presented }

        var frame = presented
        switch self {
        case .none:
            break
        case .moveUp:
            frame.origin.y -= offset
        case .stickToTop:
            frame.origin.y = max(presented.minY - offset, Self.topLimit)
        case .compress:
            frame.origin.y = max(presented.minY - offset, Self.topLimit)
            // Presentr compresses exactly when the view ended up at the limit: it then runs
            // from 20 pt below the top to 20 pt above the keyboard.
            if presented.minY - offset <= Self.topLimit {
                frame.size.height = max(0, keyboardTop - Self.topLimit - Self.buffer)
            }
        }
        return frame
    }
}
