// The resizable sheet (UISheetPresentationController, iOS 15/16): a card attached to the
// bottom edge that rests at one of several heights, its detents. This file is its
// geometry: which detents are active in a container, the frame at a height, and the
// dimming at a height. Moving between detents (swipes, updates) is the stack's
// (ModalStack+Sheets).

#if canImport(Glibc)
import Glibc  // rounding (libm)
#endif

/// How tall a detent is.
public enum DetentHeight: Hashable, Sendable {
    /// Half the sheet's maximum height; inactive in compact height (UIKit).
    case medium
    /// The sheet's maximum height.
    case large
    /// Exactly this many points.
    case points(Double)
    /// This fraction of the sheet's maximum height (0…1).
    case fraction(Double)
    /// The entry's preferredContentSize height; inactive until one is given.
    case content
}

/// A height a sheet may rest at, and the name it is selected by.
public struct Detent: Hashable, Sendable {
    public var id: String
    public var height: DetentHeight
    public init(id: String, height: DetentHeight) { self.id = id; self.height = height }

    public static let medium = Detent(id: "medium", height: .medium)
    public static let large = Detent(id: "large", height: .large)
}

/// A detent resolved in one container: its height in points.
public struct ActiveDetent: Hashable, Sendable {
    public var id: String
    public var height: Double
}

/// A sheet's options (UISheetPresentationController's properties).
public struct SheetStyle: Hashable, Sendable {
    /// The heights it may rest at, in the order given (at least one).
    public var detents: [Detent]
    /// The detent it rests at; nil = the smallest active one (UIKit's default).
    public var selectedDetent: String?
    /// At or below this detent the sheet does not dim and taps pass through; nil = it
    /// dims at every detent.
    public var largestUndimmedDetent: String?
    /// Frames carry a grabber layer at its top edge (hidden while the sheet is full screen).
    public var grabber: Bool
    /// UIKit's prefersScrollingExpandsWhenScrolledToEdge, passed through to renderers.
    public var expandsOnScroll: Bool
    /// In compact height the sheet stays a card attached to the bottom edge instead of
    /// covering the container.
    public var edgeAttachedInCompactHeight: Bool

    public init(detents: [Detent] = [.large], selectedDetent: String? = nil, largestUndimmedDetent: String? = nil,
                grabber: Bool = false, expandsOnScroll: Bool = true, edgeAttachedInCompactHeight: Bool = false) {
        self.detents = detents; self.selectedDetent = selectedDetent; self.largestUndimmedDetent = largestUndimmedDetent
        self.grabber = grabber; self.expandsOnScroll = expandsOnScroll;
        self.edgeAttachedInCompactHeight = edgeAttachedInCompactHeight
    }

    /// The gap UIKit leaves between the top of the safe area and a sheet at its largest
    /// (where the presenting view shows behind it).
    public static let topInset = 10.0
    /// The scale of a sheet under another sheet (iOS 13's form-sheet stack).
    public static let coveredScale = 0.9
    /// The widest a sheet gets in a regular-width container (UIKit's form-sheet width);
    /// in compact width it spans the container.
    public static let regularWidth = 704.0
    /// What takes a sheet to a detent: UIKit's system spring (its sheets and modal
    /// presentations share it), started at the finger's speed.
    public static let spring = Spring.system
    /// The grabber: 36 × 5 points, 5 points below the sheet's top edge (UIKit's).
    public static let grabberSize = Size(width: 36, height: 5)
    public static let grabberTopMargin = 5.0
    /// UIKit's grabber: a translucent grey that reads on light and dark sheets.
    public static let grabberColor = Color(red: 0.24, green: 0.24, blue: 0.26, alpha: 0.3)

    /// Covers the whole container: compact height without `edgeAttachedInCompactHeight`.
    public func isFullScreen(in c: Container) -> Bool {
        c.verticalSizeClass == .compact && !edgeAttachedInCompactHeight
    }

    /// UIKit's maximumDetentValue: the tallest a sheet can be, below the top safe-area inset
    /// and its gap (the whole container when the sheet is full screen).
    public func maximumHeight(in c: Container) -> Double {
        isFullScreen(in: c) ? c.size.height : max(0, c.size.height - c.safeArea.top - Self.topInset)
    }

    /// The detents that apply in `c`, lowest first (ties in the order given): a detent
    /// taller than the maximum, `medium` in compact height and `content` without a
    /// preferred height are inactive. None active leaves `large`.
    public func activeDetents(in c: Container, preferred: PreferredContentSize? = nil) -> [ActiveDetent] {
        let maximum = maximumHeight(in: c)
        var active: [ActiveDetent] = []
        for d in detents where !active.contains(where: { $0.id == d.id }) {
            let height: Double?
            switch d.height {
            case .medium: height = c.verticalSizeClass == .compact ? nil : (maximum / 2).rounded(.down)
            case .large: height = maximum
            case .points(let n): height = n
            case .fraction(let f): height = (maximum * f).rounded(.down)
            case .content: height = preferred?.height
            }
            guard let height, height > 0, height <= maximum else { continue }
            active.append(ActiveDetent(id: d.id, height: height))
        }
        if active.isEmpty { active = [ActiveDetent(id: Detent.large.id, height: maximum)] }
        // Stable: equal heights keep the order they were given in.
        return active.enumerated().sorted { ($0.element.height, $0.offset) < ($1.element.height, $1.offset) }.map(
            \.element)
    }

    /// The detent it rests at in `c`: the selected one while it is active, else the smallest.
    public func restingDetent(in c: Container, preferred: PreferredContentSize? = nil) -> ActiveDetent {
        let active = activeDetents(in: c, preferred: preferred)
        return active.first { $0.id == selectedDetent } ?? active[0]
    }

    /// The frame at `height`: attached to the bottom edge, centred, as wide as the width
    /// class allows.
    public func frame(height: Double, in c: Container) -> Rect {
        let width =
            isFullScreen(in: c) || c.horizontalSizeClass == .compact
            ? c.size.width : min(c.size.width, Self.regularWidth)
        return Rect(x: (c.size.width - width) / 2, y: c.size.height - height, width: width, height: height)
    }

    /// The dimming's share of the background's opacity at a sheet height: none at or below
    /// the largest undimmed detent, all of it from the next detent up, and in proportion to
    /// the height between the two (UIKit fades it as the sheet is dragged between them).
    public func dimmingShare(atHeight h: Double, in c: Container, preferred: PreferredContentSize? = nil) -> Double {
        guard let undimmedID = largestUndimmedDetent else { return 1 }
        let active = activeDetents(in: c, preferred: preferred)
        guard let undimmed = active.first(where: { $0.id == undimmedID }) else { return 1 }
        guard let next = active.first(where: { $0.height > undimmed.height }) else { return 0 }
        return min(1, max(0, (h - undimmed.height) / (next.height - undimmed.height)))
    }

    /// Whether the sheet at rest at `detent` lets taps outside it through.
    public func passesTapsThrough(at detent: ActiveDetent, in c: Container,
                                  preferred: PreferredContentSize? = nil) -> Bool {
        dimmingShare(atHeight: detent.height, in: c, preferred: preferred) == 0
    }

    /// The grabber's frame on a sheet drawn at `frame` (before its scale); nil when it has none or covers the
    /// container.
    public func grabberFrame(on frame: Rect, in c: Container) -> Rect? {
        guard grabber, !isFullScreen(in: c) else { return nil }
        let g = Self.grabberSize
        return Rect(
            x: frame.midX - g.width / 2, y: frame.minY + Self.grabberTopMargin, width: g.width, height: g.height)
    }
}
