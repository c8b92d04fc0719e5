// The `present` request's presentation: style, transitions and timing, background,
// shadow, status bar, adaptivity — each field validated with its path.

import PresentCore
import PresentJSON

extension RequestDecoder {
    static let presentationFields: Set<String> = [
        "id", "kind", "deduplicate", "content", "style", "respectsSafeArea", "transition", "dismissTransition",
        "background", "cornerRadius", "shadow", "dismissOnTap", "dismissOnSwipe", "confirmDismiss", "keyboard",
        "statusBar", "adaptive", "priority", "precedence", "dimsPresenterTint",
    ]

    func presentRequest(_ p: ParamReader) throws(RPCError) -> PresentRequest {
        try p.rejectUnknownKeys(allowed: Self.presentationFields)
        let name = limits.maxNameLength
        let style = try self.style(try p.value("style"), field: p.field("style"))
        let presentation = Presentation(
            id: try p.optionalString("id", maxLength: name),
            kind: try p.optionalString("kind", maxLength: name),
            deduplicate: try p.optionalBool("deduplicate") ?? true,
            content: try p.optionalString("content", maxLength: name),
            style: style,
            respectsSafeArea: try p.optionalBool("respectsSafeArea") ?? false,
            transition: try p.optionalObject("transition").map { o throws(RPCError) in try transition(o, for: style) },
            dismissTransition: try p.optionalObject("dismissTransition").map { o throws(RPCError) in try transition(o, for: style) },
            background: try p.optionalObject("background").map { o throws(RPCError) in try background(o) } ?? .standard,
            cornerRadius: try p.optionalDouble("cornerRadius", in: 0...limits.maxDimension, unit: "points"),
            shadow: try p.optionalObject("shadow").map { o throws(RPCError) in try shadow(o) },
            dismissOnTap: try p.optionalBool("dismissOnTap") ?? true,
            dismissOnSwipe: try p.optionalBool("dismissOnSwipe") ?? false,
            keyboard: try p.optionalChoice("keyboard") ?? KeyboardAvoidance.none,
            statusBar: try p.optionalObject("statusBar").map { o throws(RPCError) in try statusBar(o) },
            adaptive: p.has("adaptive") ? try adaptive(try p.value("adaptive"), field: p.field("adaptive")) : .none,
            priority: try p.optionalInt("priority", in: Presentation.priorityRange) ?? Presentation.normalPriority,
            precedence: try p.optionalChoice("precedence") ?? .enqueue,
            dimsPresenterTint: try p.optionalBool("dimsPresenterTint") ?? false,
            defaults: defaults)
        return PresentRequest(presentation: presentation, confirmDismiss: try p.optionalBool("confirmDismiss") ?? false)
    }

    // MARK: Style

    /// A style name, or `{"type":"slideIn",…}` / `{"type":"custom",…}`.
    func style(_ v: JSONValue, field: String) throws(RPCError) -> PresentationStyle {
        if case .string(let name) = v {
            switch name {
            case "fullScreen": return .fullScreen
            case "overFullScreen": return .overFullScreen
            case "alert": return .alert
            case "popup": return .popup
            case "topHalf": return .topHalf
            case "bottomHalf": return .bottomHalf
            case "slideIn": return .slideIn(edge: .left, fraction: PresentationStyle.defaultSlideInFraction)
            default:
                throw .invalidParams(field: field, reason: "must be one of fullScreen, overFullScreen, alert, popup, topHalf, bottomHalf, or an object with \"type\": slideIn or custom")
            }
        }
        let o = try ParamReader(v, path: field)
        switch try o.string("type") {
        case "slideIn":
            try o.rejectUnknownKeys(allowed: ["type", "direction", "fraction"])
            return .slideIn(edge: try o.optionalChoice("direction") ?? .left,
                            fraction: try o.optionalDouble("fraction", in: 0.01...1) ?? PresentationStyle.defaultSlideInFraction)
        case "custom":
            try o.rejectUnknownKeys(allowed: ["type", "width", "height", "position"])
            return .custom(CustomLayout(
                width: o.has("width") ? try modalSize(try o.value("width"), field: o.field("width")) : .default,
                height: o.has("height") ? try modalSize(try o.value("height"), field: o.field("height")) : .default,
                position: o.has("position") ? try position(try o.value("position"), field: o.field("position")) : .center))
        default:
            throw .invalidParams(field: o.field("type"), reason: "must be slideIn or custom")
        }
    }

    /// `default` / `half` / `full` / `{"points":n}` / `{"fluid":f}` / `{"sideMargin":n}`.
    func modalSize(_ v: JSONValue, field: String) throws(RPCError) -> ModalSize {
        if case .string(let name) = v {
            switch name {
            case "default": return .default
            case "half": return .half
            case "full": return .full
            default: throw .invalidParams(field: field, reason: "must be default, half, full, or {\"points\"|\"fluid\"|\"sideMargin\": number}")
            }
        }
        let o = try ParamReader(v, path: field)
        guard o.object.count == 1, let key = o.object.keys.first else {
            throw .invalidParams(field: field, reason: "expected exactly one of points, fluid, sideMargin")
        }
        let size = 0...limits.maxDimension
        switch key {
        case "points": return .points(try o.double(key, in: size, unit: "points"))
        case "fluid": return .fluid(try o.double(key, in: 0...1))
        case "sideMargin": return .sideMargin(try o.double(key, in: size, unit: "points"))
        default: throw .invalidParams(field: o.field(key), reason: "unknown size; expected points, fluid or sideMargin")
        }
    }

    /// `center` / `topCenter` / `bottomCenter` / `{"point":{x,y}}` / `{"origin":{x,y}}`.
    func position(_ v: JSONValue, field: String) throws(RPCError) -> ModalPosition {
        if case .string(let name) = v {
            switch name {
            case "center": return .center
            case "topCenter": return .topCenter
            case "bottomCenter": return .bottomCenter
            default: throw .invalidParams(field: field, reason: "must be center, topCenter, bottomCenter, {\"point\":{x,y}} or {\"origin\":{x,y}}")
            }
        }
        let o = try ParamReader(v, path: field)
        guard o.object.count == 1, let key = o.object.keys.first, key == "point" || key == "origin" else {
            throw .invalidParams(field: field, reason: "expected exactly one of point, origin")
        }
        let pt = try point(try o.object(key))
        return key == "point" ? .point(pt) : .origin(pt)
    }

    func point(_ o: ParamReader) throws(RPCError) -> Point {
        try o.rejectUnknownKeys(allowed: ["x", "y"])
        return Point(x: try o.double("x", in: coordinates), y: try o.double("y", in: coordinates))
    }

    // MARK: Motion

    /// `{"type", "duration"?, "timing"?}`; absent parts take the style's defaults.
    func transition(_ o: ParamReader, for style: PresentationStyle?) throws(RPCError) -> Transition {
        try o.rejectUnknownKeys(allowed: ["type", "duration", "timing"])
        let fallback = style.map(defaults.defaultTransition(for:))
            ?? Transition(kind: .coverVertical, duration: defaults.transitionDuration, timing: defaults.transitionTiming)
        return Transition(kind: try o.optionalChoice("type") ?? fallback.kind,
                          duration: try o.optionalDouble("duration", in: durations, unit: "seconds") ?? fallback.duration,
                          timing: o.has("timing") ? try timing(try o.value("timing"), field: o.field("timing")) : fallback.timing)
    }

    /// A curve name, `{"bezier":[x1,y1,x2,y2]}` or `{"spring":{…}}`.
    func timing(_ v: JSONValue, field: String) throws(RPCError) -> TimingCurve {
        if case .string(let name) = v {
            switch name {
            case "linear": return .linear
            case "easeIn": return .easeIn
            case "easeOut": return .easeOut
            case "easeInEaseOut": return .easeInEaseOut
            case "default": return .default
            case "system": return .system
            default: throw .invalidParams(field: field, reason: "must be linear, easeIn, easeOut, easeInEaseOut, default, system, {\"bezier\":[…]} or {\"spring\":{…}}")
            }
        }
        let o = try ParamReader(v, path: field)
        guard o.object.count == 1, let key = o.object.keys.first else {
            throw .invalidParams(field: field, reason: "expected exactly one of bezier, spring")
        }
        switch key {
        case "bezier": return .bezier(try bezier(o))
        case "spring": return .spring(try spring(try o.object("spring")))
        default: throw .invalidParams(field: o.field(key), reason: "unknown timing; expected bezier or spring")
        }
    }

    private func bezier(_ o: ParamReader) throws(RPCError) -> CubicBezier {
        let items = try o.array("bezier", maxCount: 4)
        guard items.count == 4 else { throw .invalidParams(field: o.field("bezier"), reason: "expected 4 numbers [x1, y1, x2, y2]") }
        var c: [Double] = []
        for (i, item) in items.enumerated() {
            // x control points must stay in [0, 1] for the curve to be a function of time.
            let range = i % 2 == 0 ? 0.0...1.0 : -limits.maxCoordinate...limits.maxCoordinate
            c.append(try ParamReader.number(item, field: o.field("bezier") + "[\(i)]", in: range))
        }
        return CubicBezier(x1: c[0], y1: c[1], x2: c[2], y2: c[3])
    }

    /// Physical `{mass, stiffness, damping, initialVelocity?}`, UIKit's
    /// `{duration, dampingRatio, initialVelocity?}` or SwiftUI's `{response, dampingFraction}`.
    private func spring(_ o: ParamReader) throws(RPCError) -> Spring {
        let velocity = try o.optionalDouble("initialVelocity", in: -1000...1000) ?? 0
        if o.has("stiffness") || o.has("mass") || o.has("damping") {
            try o.rejectUnknownKeys(allowed: ["mass", "stiffness", "damping", "initialVelocity"])
            let s = Spring(mass: try o.optionalDouble("mass", in: 0.001...1000) ?? 1,
                           stiffness: try o.double("stiffness", in: 0.001...100_000),
                           damping: try o.double("damping", in: 0.001...100_000), initialVelocity: velocity)
            guard s.duration <= limits.maxDuration else {
                throw .invalidParams(field: o.path, reason: "this spring takes \(s.duration) s to settle; at most \(ParamReader.format(limits.maxDuration)) s")
            }
            return s
        }
        if o.has("response") {
            try o.rejectUnknownKeys(allowed: ["response", "dampingFraction", "initialVelocity"])
            let s = Spring.swiftUI(response: try o.double("response", in: 0.01...10, unit: "seconds"),
                                   dampingFraction: try o.optionalDouble("dampingFraction", in: 0.01...10) ?? 0.825,
                                   initialVelocity: velocity)
            guard s.duration <= limits.maxDuration else {
                throw .invalidParams(field: o.path, reason: "this spring takes \(s.duration) s to settle; at most \(ParamReader.format(limits.maxDuration)) s")
            }
            return s
        }
        try o.rejectUnknownKeys(allowed: ["duration", "dampingRatio", "initialVelocity"])
        return Spring.uikit(duration: try o.double("duration", in: 0.01...10, unit: "seconds"),
                            dampingRatio: try o.double("dampingRatio", in: 0.001...1), initialVelocity: velocity)
    }

    // MARK: Chrome

    func background(_ o: ParamReader) throws(RPCError) -> Background {
        try o.rejectUnknownKeys(allowed: ["color", "opacity", "blur"])
        return Background(color: try o.has("color") ? color(try o.value("color"), field: o.field("color")) : .black,
                          opacity: try o.optionalDouble("opacity", in: 0...1) ?? Background.standard.opacity,
                          blur: try o.optionalChoice("blur"))
    }

    func shadow(_ o: ParamReader) throws(RPCError) -> Shadow {
        try o.rejectUnknownKeys(allowed: ["color", "opacity", "radius", "offset"])
        let d = Shadow()
        let offset = try o.optionalObject("offset").map { p throws(RPCError) in try point(p) }
        return Shadow(color: try o.has("color") ? color(try o.value("color"), field: o.field("color")) : d.color,
                      opacity: try o.optionalDouble("opacity", in: 0...1) ?? d.opacity,
                      radius: try o.optionalDouble("radius", in: 0...1000, unit: "points") ?? d.radius,
                      offset: offset.map { Size(width: $0.x, height: $0.y) } ?? d.offset)
    }

    /// `#rrggbb` or `#rrggbbaa`.
    func color(_ v: JSONValue, field: String) throws(RPCError) -> Color {
        let text = try ParamReader.string(v, field: field, maxLength: 9)
        let digits = Array(text.utf8.dropFirst())
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8,
              let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else {
            throw .invalidParams(field: field, reason: "expected #rrggbb or #rrggbbaa")
        }
        let rgba = digits.count == 6 ? value << 8 | 0xff : value
        func channel(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xff) / 255 }
        return Color(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
    }

    func statusBar(_ o: ParamReader) throws(RPCError) -> StatusBarAppearance {
        try o.rejectUnknownKeys(allowed: ["style", "hidden"])
        return StatusBarAppearance(style: try o.optionalChoice("style") ?? .default, hidden: try o.optionalBool("hidden") ?? false)
    }

    /// `none` / `overFullScreen` / `fullScreen` / `{"replacement": {"style", "content"?}}`.
    func adaptive(_ v: JSONValue, field: String) throws(RPCError) -> AdaptivePolicy {
        if case .string(let name) = v {
            switch name {
            case "none": return .none
            case "overFullScreen": return .overFullScreen
            case "fullScreen": return .fullScreen
            default: throw .invalidParams(field: field, reason: "must be none, overFullScreen, fullScreen or {\"replacement\":{…}}")
            }
        }
        let o = try ParamReader(v, path: field)
        try o.rejectUnknownKeys(allowed: ["replacement"])
        let r = try o.object("replacement")
        try r.rejectUnknownKeys(allowed: ["style", "content"])
        return .replacement(style: try style(try r.value("style"), field: r.field("style")),
                            content: try r.optionalString("content", maxLength: limits.maxNameLength))
    }
}
