// Where the presented view sits: UIPresentationController's
// frameOfPresentedViewInContainerView, with Presentr's presets and formulas.

#if canImport(Glibc)
import Glibc  // rounding (libm)
#endif

/// An edge of the container.
public enum Edge: String, Sendable, CaseIterable {
    case left, right, top, bottom

    /// The edge in the other layout direction: left and right swap, top and bottom stay.
    public var mirrored: Edge {
        switch self {
        case .left: return .right
        case .right: return .left
        case .top, .bottom: return self
        }
    }
}

/// One dimension of a custom size (Presentr's ModalSize). `length` is the container's
/// width for a width and its height for a height.
public enum ModalSize: Hashable, Sendable {
    /// ⌊W − 60⌋ for a width, ⌊0.66·H⌋ for a height.
    case `default`
    /// ⌊length / 2⌋.
    case half
    /// The whole length.
    case full
    /// Exactly this many points.
    case points(Double)
    /// ⌊length · fraction⌋.
    case fluid(Double)
    /// ⌊length − 2·margin⌋.
    case sideMargin(Double)
    /// The entry's preferredContentSize in this dimension, at most the whole length;
    /// `default` until one is given.
    case content

    /// Never negative: a margin that fitted before a rotation may not fit after it.
    func width(in container: Size, preferred: PreferredContentSize? = nil) -> Double {
        switch self {
        case .default: return max(0, (container.width - 60).rounded(.down))
        case .content:
            guard let w = preferred?.width else { return ModalSize.default.width(in: container) }
            return max(0, min(w, container.width))
        default: return max(0, resolve(container.width))
        }
    }

    func height(in container: Size, preferred: PreferredContentSize? = nil) -> Double {
        switch self {
        case .default: return max(0, (container.height * 0.66).rounded(.down))
        case .content:
            guard let h = preferred?.height else { return ModalSize.default.height(in: container) }
            return max(0, min(h, container.height))
        default: return max(0, resolve(container.height))
        }
    }

    private func resolve(_ length: Double) -> Double {
        switch self {
        case .default, .content: return length
        case .half: return (length / 2).rounded(.down)
        case .full: return length
        case .points(let n): return n
        case .fluid(let fraction): return (length * fraction).rounded(.down)
        case .sideMargin(let margin): return (length - 2 * margin).rounded(.down)
        }
    }
}

/// Where a custom-sized view is placed (Presentr's ModalCenterPosition).
public enum ModalPosition: Hashable, Sendable {
    /// Centred at (W/2, H/2).
    case center
    /// Centred at (W/2, H/4 − 1), Presentr's formula.
    case topCenter
    /// Centred at (W/2, 3H/4).
    case bottomCenter
    /// Centred at this point.
    case point(Point)
    /// Top-left corner at this point.
    case origin(Point)

    func origin(for size: Size, in container: Size) -> Point {
        let centre: Point
        switch self {
        case .center: centre = Point(x: container.width / 2, y: container.height / 2)
        case .topCenter: centre = Point(x: container.width / 2, y: container.height / 4 - 1)
        case .bottomCenter: centre = Point(x: container.width / 2, y: container.height * 3 / 4)
        case .point(let p): centre = p
        case .origin(let p): return p
        }
        return Point(x: centre.x - size.width / 2, y: centre.y - size.height / 2)
    }
}

/// A custom layout: width, height and position.
public struct CustomLayout: Hashable, Sendable {
    public var width: ModalSize
    public var height: ModalSize
    public var position: ModalPosition
    public init(width: ModalSize = .default, height: ModalSize = .default, position: ModalPosition = .center) {
        self.width = width; self.height = height; self.position = position
    }
}

/// Every style's name, the one list of them: the decoder, its error texts, `rpc.discover`'s
/// and the clients' lists follow it (a test holds presentctl's help and the clients to it).
public enum StyleName: String, Sendable, CaseIterable {
    case fullScreen, overFullScreen, alert, popup, topHalf, bottomHalf, slideIn, custom, sheet

    /// The style its plain name (`"style": "popup"`) gives; nil when it can only be given as
    /// an object of its options.
    public var plainStyle: PresentationStyle? {
        switch self {
        case .fullScreen: return .fullScreen
        case .overFullScreen: return .overFullScreen
        case .alert: return .alert
        case .popup: return .popup
        case .topHalf: return .topHalf
        case .bottomHalf: return .bottomHalf
        case .slideIn: return .slideIn(edge: .left, fraction: PresentationStyle.defaultSlideInFraction)
        case .custom, .sheet: return nil
        }
    }

    /// Whether an object `{"type": name, …}` gives it, with options.
    public var takesOptions: Bool {
        switch self {
        case .slideIn, .custom, .sheet: return true
        case .fullScreen, .overFullScreen, .alert, .popup, .topHalf, .bottomHalf: return false
        }
    }
}

/// An alert's size. UIAlertController's width is 270 points whatever the screen, and its
/// height is its content's: a renderer that measured the title, message and buttons at that
/// width says so in `preferredContentSize` (the width it gives is not used). The height is
/// kept between one button's and the container's less a margin above and below, so that a
/// long message cannot push the buttons off the screen (the renderer elides what does not fit).
public enum AlertSize {
    public static let width = 270.0
    /// Until a height is given: room for a title, two lines and a row of buttons.
    public static let defaultHeight = 180.0
    /// One button's height (UIKit's 44 points).
    public static let minimumHeight = 44.0
    /// Kept clear above and below it (the height of a phone's status bar).
    public static let margin = 20.0

    static func height(in c: Size, preferred: PreferredContentSize?) -> Double {
        guard let h = preferred?.height else { return defaultHeight }
        return min(max(h, minimumHeight), max(minimumHeight, c.height - 2 * margin))
    }
}

/// A presentation style: a function from the container to the presented view's frame.
public enum PresentationStyle: Hashable, Sendable {
    /// The whole container; the presenter is removed from the screen underneath (UIKit).
    case fullScreen
    /// The whole container; the presenter stays visible underneath.
    case overFullScreen
    /// 270 points wide, as tall as its content asks (AlertSize), centred.
    case alert
    /// ⌊W − 60⌋ × ⌊0.66·H⌋, centred.
    case popup
    /// W × ⌊H/2⌋ pinned to the top edge.
    case topHalf
    /// W × ⌊H/2⌋ pinned to the bottom edge (Presentr centres it at 3H/4, which is the same
    /// when H/2 is whole).
    case bottomHalf
    /// A panel from `edge`, covering `fraction` of the container along that axis. With
    /// `followsLayoutDirection`, `edge` is the one in left-to-right — left for leading, right
    /// for trailing — and a right-to-left container mirrors it.
    case slideIn(edge: Edge, fraction: Double, followsLayoutDirection: Bool = false)
    /// Any width, height and position.
    case custom(CustomLayout)
    /// A resizable sheet attached to the bottom edge, resting at one of its detents (Sheet.swift).
    case sheet(SheetStyle)

    /// The slide-in panel's default coverage: 2/3, leaving a third dimmed to tap away.
    public static let defaultSlideInFraction = 2.0 / 3.0

    /// The styles a plain name gives (`"popup"`), in the order the protocol lists them; the
    /// others take an object with their options.
    public static let named: [PresentationStyle] = StyleName.allCases.compactMap(\.plainStyle)

    /// Its name, on the wire and in logs.
    public var styleName: StyleName {
        switch self {
        case .fullScreen: return .fullScreen
        case .overFullScreen: return .overFullScreen
        case .alert: return .alert
        case .popup: return .popup
        case .topHalf: return .topHalf
        case .bottomHalf: return .bottomHalf
        case .slideIn: return .slideIn
        case .custom: return .custom
        case .sheet: return .sheet
        }
    }

    /// The name used on the wire and in logs.
    public var name: String { styleName.rawValue }

    /// Whether the presenter's content is hidden while this style is on screen
    /// (UIKit removes the presenter's view for .fullScreen).
    public var hidesPresenter: Bool { self == .fullScreen }

    /// The sheet's options, for a sheet.
    public var sheet: SheetStyle? {
        if case .sheet(let sheet) = self { return sheet }
        return nil
    }

    /// The edge a `slide` transition uses for this style in `direction`: the slide-in edge
    /// (its leading or trailing one resolved), else the bottom.
    public func slideEdge(in direction: LayoutDirection) -> Edge {
        guard case .slideIn(let edge, _, let follows) = self else { return .bottom }
        return follows && direction == .rightToLeft ? edge.mirrored : edge
    }

    /// The presented view's frame in `container`, optionally kept inside its safe area;
    /// `preferred` sizes a custom style's `content` dimensions.
    public func frame(in container: Container, respectingSafeArea: Bool = false,
                      preferred: PreferredContentSize? = nil) -> Rect {
        if case .sheet(let sheet) = self {   // attached to the bottom edge, under the home indicator too
            return sheet.frame(height: sheet.restingDetent(in: container, preferred: preferred).height, in: container)
        }
        let area = respectingSafeArea ? container.safeBounds : container.bounds
        return frame(inArea: area.size, direction: container.layoutDirection, preferred: preferred)
            .offsetBy(dx: area.minX, dy: area.minY)
    }

    private func frame(inArea c: Size, direction: LayoutDirection, preferred: PreferredContentSize?) -> Rect {
        switch self {
        case .fullScreen, .overFullScreen:
            return Rect(origin: .zero, size: c)
        case .alert:
            return centred(Size(width: AlertSize.width, height: AlertSize.height(in: c, preferred: preferred)), in: c)
        case .popup:
            return centred(Size(width: ModalSize.default.width(in: c), height: ModalSize.default.height(in: c)), in: c)
        case .topHalf:
            // Presentr centres this at H/4 − 1, which leaves it 1 pt above the top edge;
            // presentd pins it to the edge instead.
            return Rect(x: 0, y: 0, width: c.width, height: ModalSize.half.height(in: c))
        case .bottomHalf:
            // Centring at 3H/4 leaves a 0.25 pt gap under the view when H is odd (⌊H/2⌋ <
            // H/2), e.g. in a phone's 763-pt safe area; in an odd-height container that gap
            // also makes keyboard avoidance treat the sheet as floating. Pin it instead, as
            // topHalf is pinned to the top.
            let height = ModalSize.half.height(in: c)
            return Rect(x: 0, y: c.height - height, width: c.width, height: height)
        case .slideIn(_, let fraction, _):
            return slideInFrame(edge: slideEdge(in: direction), fraction: fraction, in: c)
        case .custom(let layout):
            return layout.frame(in: c, preferred: preferred)
        case .sheet:
            preconditionFailure("a sheet is laid out in its container (frame(in:)), not in an area")
        }
    }

    private func centred(_ size: Size, in c: Size) -> Rect {
        Rect(origin: ModalPosition.center.origin(for: size, in: c), size: size)
    }

    private func slideInFrame(edge: Edge, fraction: Double, in c: Size) -> Rect {
        let w = c.width * fraction, h = c.height * fraction
        switch edge {
        case .left: return Rect(x: 0, y: 0, width: w, height: c.height)
        case .right: return Rect(x: c.width - w, y: 0, width: w, height: c.height)
        case .top: return Rect(x: 0, y: 0, width: c.width, height: h)
        case .bottom: return Rect(x: 0, y: c.height - h, width: c.width, height: h)
        }
    }
}

extension CustomLayout {
    func frame(in c: Size, preferred: PreferredContentSize?) -> Rect {
        let size = Size(
            width: width.width(in: c, preferred: preferred), height: height.height(in: c, preferred: preferred))
        return Rect(origin: position.origin(for: size, in: c), size: size)
    }
}
