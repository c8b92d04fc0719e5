// The container a presentation is laid out in, and its traits (UIKit's
// containerView bounds + UITraitCollection, flattened into one value).

/// UIKit's size classes: a coarse description of the space available on one axis.
public enum SizeClass: String, Sendable, CaseIterable {
    case compact, regular
}

/// Which way text and layout run (UIKit's UIUserInterfaceLayoutDirection): it decides which
/// physical edge is leading and which trailing. Left and right keep their physical meaning.
public enum LayoutDirection: String, Sendable, CaseIterable {
    case leftToRight, rightToLeft
}

/// The screen (or screen region) the modal stack is shown in.
public struct Container: Hashable, Sendable {
    /// Below this height the vertical size class is compact (a phone in landscape).
    public static let compactHeightThreshold = 500.0
    /// Below this width the horizontal size class is compact (a phone, a narrow split view).
    /// A container that is compact in height is compact in width too (an iPhone in
    /// landscape is compact/compact in UIKit although it is wide).
    public static let compactWidthThreshold = 600.0

    public var size: Size
    public var safeArea: EdgeInsets
    /// Pixels per point, passed through to renderers.
    public var scale: Double
    public var horizontalSizeClass: SizeClass
    public var verticalSizeClass: SizeClass
    /// Height of the on-screen keyboard rising from the bottom edge; 0 when hidden.
    public var keyboardHeight: Double
    /// Which edge is leading: the left one, unless right-to-left.
    public var layoutDirection: LayoutDirection

    /// A container whose size classes are given explicitly or else derived from `size`
    /// by the documented thresholds.
    public init(size: Size, safeArea: EdgeInsets = .zero, scale: Double = 1,
                horizontalSizeClass: SizeClass? = nil, verticalSizeClass: SizeClass? = nil,
                keyboardHeight: Double = 0, layoutDirection: LayoutDirection = .leftToRight) {
        self.size = size
        self.safeArea = safeArea
        self.scale = scale
        self.verticalSizeClass = verticalSizeClass ?? Self.derivedVerticalSizeClass(for: size)
        self.horizontalSizeClass = horizontalSizeClass ?? Self.derivedHorizontalSizeClass(for: size)
        self.keyboardHeight = keyboardHeight
        self.layoutDirection = layoutDirection
    }

    public static func derivedVerticalSizeClass(for size: Size) -> SizeClass {
        size.height < compactHeightThreshold ? .compact : .regular
    }

    public static func derivedHorizontalSizeClass(for size: Size) -> SizeClass {
        size.width < compactWidthThreshold || size.height < compactHeightThreshold ? .compact : .regular
    }

    /// The whole container, at the origin.
    public var bounds: Rect { Rect(origin: .zero, size: size) }
    /// The part of the container clear of notches, bars and rounded corners.
    public var safeBounds: Rect { bounds.inset(by: safeArea) }
    /// The keyboard's frame when shown: full width, rising from the bottom edge.
    public var keyboardFrame: Rect? {
        keyboardHeight > 0
            ? Rect(x: 0, y: size.height - keyboardHeight, width: size.width, height: keyboardHeight)
            : nil
    }

    /// An iPhone 14 in portrait (390 × 844), the default container.
    public static let phonePortrait = Container(
        size: Size(width: 390, height: 844),
        safeArea: EdgeInsets(top: 47, left: 0, bottom: 34, right: 0), scale: 3)
}
