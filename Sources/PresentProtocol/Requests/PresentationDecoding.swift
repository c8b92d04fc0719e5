// The `present` request's presentation: style, transitions and timing, background,
// shadow, status bar, adaptivity — each field validated with its path.

import PresentCore
import PresentJSON

extension RequestDecoder {
    /// `present`'s params, which `decode` has checked against MethodTable's names.
    func presentRequest(_ p: ParamReader) throws(RPCError) -> PresentRequest {
        let style = try self.style(try p.field("style"))
        // A sheet's preferredCornerRadius is the presentation's corner radius.
        let sheetCornerRadius = style.sheet == nil ? nil
            : try p.object("style").optionalDouble("cornerRadius", range: dimensions, unit: "points")
        let presentation = Presentation(
            id: try p.optionalField("id").map(name),
            kind: try p.optionalField("kind").map(name),
            deduplicate: try p.optionalBool("deduplicate") ?? true,
            content: try p.optionalField("content").map(content),
            preferredContentSize: try p.optionalObject("preferredContentSize").map(preferredContentSize),
            autoDismiss: try p.optionalObject("autoDismiss").map(autoDismiss),
            dismissOnEscape: try p.optionalBool("dismissOnEscape"),
            style: style,
            respectsSafeArea: try p.optionalBool("respectsSafeArea") ?? false,
            transition: try p.optionalObject("transition").map { o throws(RPCError) in try transition(o, for: style) },
            dismissTransition: try p.optionalObject("dismissTransition").map { o throws(RPCError) in
                try transition(o, for: style)
            },
            background: try p.optionalObject("background").map(background) ?? .standard,
            cornerRadius: try p.optionalDouble("cornerRadius", range: dimensions, unit: "points") ?? sheetCornerRadius,
            shadow: try p.optionalObject("shadow").map(shadow),
            dismissOnTap: try p.optionalBool("dismissOnTap"),
            // Sheets swipe away, as UIKit's do.
            dismissOnSwipe: try p.optionalBool("dismissOnSwipe") ?? (style.sheet != nil),
            keyboard: try p.optionalEnumValue("keyboard") ?? KeyboardAvoidance.none,
            statusBar: try p.optionalObject("statusBar").map(statusBar),
            adaptive: try p.optionalField("adaptive").map(adaptive) ?? .none,
            priority: try p.optionalInt("priority", range: Presentation.priorityRange) ?? Presentation.normalPriority,
            precedence: try p.optionalEnumValue("precedence") ?? .enqueue,
            dimsPresenterTint: try p.optionalBool("dimsPresenterTint") ?? false,
            defaults: defaults)
        var placed = presentation
        placed.level = try p.optionalEnumValue("level") ?? .normal
        placed.interaction = try p.optionalEnumValue("interaction")
        placed.overlay = OverlayPlacement(position: try p.optionalEnumValue("position") ?? .top,
                                          margin: try p.optionalDouble("margin", range: dimensions, unit: "points")
                                              ?? OverlayPlacement.defaultMargin)
        placed.context = try p.optionalField("context").map(name)
        placed.droppable = try p.optionalBool("droppable") ?? false
        placed.confirmDismiss = try p.optionalBool("confirmDismiss") ?? false
        if placed.level == .overlay, placed.interaction != nil, placed.interaction != .forward {
            throw p.invalid("interaction", "an overlay never blocks taps outside itself: only \"forward\"")
        }
        if placed.level != .overlay {
            for key in ["position", "margin"] where p.contains(key) {
                throw p.invalid(key, "only for level \"overlay\"")
            }
        }
        var request = PresentRequest(presentation: placed, output: try output(p))
        request.dryRun = try p.optionalBool("dryRun") ?? false
        return request
    }

    // MARK: Style

    /// The styles by their plain names (StyleName.plainStyle).
    static let styleNames = Dictionary(uniqueKeysWithValues: PresentationStyle.named.map { ($0.name, $0) })
    /// The styles an object names with `type`, each with its options.
    static let styleTypes = StyleName.allCases.filter(\.takesOptions).map(\.rawValue)

    /// A style name, or `{"type":"slideIn",…}` / `{"type":"custom",…}`.
    func style(_ v: ParamValue) throws(RPCError) -> PresentationStyle {
        if case .string(let name) = v.value {
            guard let style = Self.styleNames[name] else {
                throw v.invalid("must be one of \(PresentationStyle.named.map(\.name).joined(separator: ", ")), "
                                + "or an object with \"type\": \(Self.styleTypes.joined(separator: ", "))")
            }
            return style
        }
        guard case .object = v.value else {
            throw v.invalid("expected a style name or a style object, got \(v.value.typeName)")
        }
        let o = try v.object()
        switch try o.string("type") {
        case "slideIn":
            try o.rejectUnknownKeys(allowed: ["type", "direction", "fraction"])
            let direction: SlideDirection = try o.optionalEnumValue("direction") ?? .left
            return .slideIn(edge: direction.edge,
                fraction: try o.optionalDouble("fraction", range: 0.01...1) ?? PresentationStyle.defaultSlideInFraction,
                            followsLayoutDirection: direction.followsLayoutDirection)
        case "custom":
            try o.rejectUnknownKeys(allowed: ["type", "width", "height", "position"])
            return .custom(CustomLayout(width: try o.optionalField("width").map(modalSize) ?? .default,
                                        height: try o.optionalField("height").map(modalSize) ?? .default,
                                        position: try o.optionalField("position").map(position) ?? .center))
        case "sheet":
            return .sheet(try sheet(o))
        default:
            throw o.invalid("type", "must be one of \(Self.styleTypes.joined(separator: ", "))")
        }
    }

    /// A slide-in panel's `direction`: a physical edge, or the leading or trailing one (the
    /// left or right in left-to-right, mirrored in right-to-left).
    private enum SlideDirection: String, CaseIterable {
        case left, right, top, bottom, leading, trailing

        var edge: Edge {
            switch self {
            case .left, .leading: return .left
            case .right, .trailing: return .right
            case .top: return .top
            case .bottom: return .bottom
            }
        }
        var followsLayoutDirection: Bool { self == .leading || self == .trailing }
    }

    // MARK: Sheets

    /// The most detents a sheet may have.
    static let maxDetents = 8

    /// `{"type":"sheet", detents?, selectedDetent?, largestUndimmedDetent?, grabber?,
    /// expandsOnScroll?, edgeAttachedInCompactHeight?}`; every detent named must be one of
    /// the sheet's. (Its `cornerRadius` is the presentation's: presentRequest reads it.)
    func sheet(_ o: ParamReader) throws(RPCError) -> SheetStyle {
        try o.rejectUnknownKeys(allowed: ["type", "detents", "selectedDetent", "largestUndimmedDetent", "grabber",
                                          "expandsOnScroll", "edgeAttachedInCompactHeight", "cornerRadius"])
        let detents =
            try o.optionalArray("detents", count: 1...Self.maxDetents) { (v) throws(RPCError) in try detent(v) } ?? [
                .large
            ]
        var seen: Set<String> = []
        for (i, d) in detents.enumerated() where !seen.insert(d.id).inserted {
            throw RPCError.invalidParams(
                field: "style.detents[\(i)]", reason: "a second detent \"\(d.id)\"; ids are unique")
        }
        let known = detents.map { "\"\($0.id)\"" }.joined(separator: ", ")
        func named(_ key: String) throws(RPCError) -> String? {
            guard let v = o.optionalField(key) else { return nil }
            let id = try name(v)
            guard seen.contains(id) else { throw v.invalid("\"\(id)\" is not one of the sheet's detents (\(known))") }
            return id
        }
        return SheetStyle(detents: detents, selectedDetent: try named("selectedDetent"),
                          largestUndimmedDetent: try named("largestUndimmedDetent"),
                          grabber: try o.optionalBool("grabber") ?? false,
                          expandsOnScroll: try o.optionalBool("expandsOnScroll") ?? true,
                          edgeAttachedInCompactHeight: try o.optionalBool("edgeAttachedInCompactHeight") ?? false)
    }

    /// `"medium"`, `"large"`, or `{"id", "height"}` with the height in points, `"N%"` of the
    /// sheet's maximum, `"content"` (preferredContentSize), `"medium"` or `"large"`.
    func detent(_ v: ParamValue) throws(RPCError) -> Detent {
        if case .string(let named) = v.value {
            switch named {
            case "medium": return .medium
            case "large": return .large
            default: throw v.invalid("must be \"medium\", \"large\" or {\"id\", \"height\"}")
            }
        }
        let o = try v.object()
        try o.rejectUnknownKeys(allowed: ["id", "height"])
        let id = try name(try o.field("id"))
        let h = try o.field("height")
        if case .string(let text) = h.value {
            switch text {
            case "medium": return Detent(id: id, height: .medium)
            case "large": return Detent(id: id, height: .large)
            case "content": return Detent(id: id, height: .content)
            default:
                guard text.hasSuffix("%"), let percent = Double(text.dropLast()), percent > 0, percent <= 100 else {
                    throw h.invalid(
                        "must be points, a percentage such as \"40%\" (more than 0, at most 100), \"content\", "
                        + "\"medium\" or \"large\""
                    )
                }
                return Detent(id: id, height: .fraction(percent / 100))
            }
        }
        return Detent(id: id, height: .points(try h.double(range: 1...dimensions.upperBound, unit: "points")))
    }

    /// The only key of a one-key object such as `{"points": 300}`.
    private func soleKey(_ v: ParamValue, of allowed: [String]) throws(RPCError) -> (ParamReader, String) {
        let o = try v.object()
        guard o.object.count == 1, let key = o.object.keys.first, allowed.contains(key) else {
            throw v.invalid("expected an object with exactly one of \(allowed.joined(separator: ", "))")
        }
        return (o, key)
    }

    /// `default` / `half` / `full` / `{"points":n}` / `{"fluid":f}` / `{"sideMargin":n}`.
    func modalSize(_ v: ParamValue) throws(RPCError) -> ModalSize {
        if case .string(let name) = v.value {
            switch name {
            case "default": return .default
            case "half": return .half
            case "full": return .full
            case "content": return .content
            default:
                throw v.invalid(
                    "must be default, half, full, content, or {\"points\"|\"fluid\"|\"sideMargin\": number}")
            }
        }
        let (o, key) = try soleKey(v, of: ["points", "fluid", "sideMargin"])
        switch key {
        case "points": return .points(try o.double(key, range: dimensions, unit: "points"))
        case "fluid": return .fluid(try o.double(key, range: 0...1))
        default: return .sideMargin(try o.double(key, range: dimensions, unit: "points"))
        }
    }

    /// `center` / `topCenter` / `bottomCenter` / `{"point":{x,y}}` / `{"origin":{x,y}}`.
    func position(_ v: ParamValue) throws(RPCError) -> ModalPosition {
        if case .string(let name) = v.value {
            switch name {
            case "center": return .center
            case "topCenter": return .topCenter
            case "bottomCenter": return .bottomCenter
            default: throw v.invalid("must be center, topCenter, bottomCenter, {\"point\":{x,y}} or {\"origin\":{x,y}}")
            }
        }
        let (o, key) = try soleKey(v, of: ["point", "origin"])
        let pt = try point(try o.object(key))
        return key == "point" ? .point(pt) : .origin(pt)
    }

    // MARK: Motion

    /// `{"type"?, "duration"?, "timing"?}`; absent parts take the style's defaults.
    func transition(_ o: ParamReader, for style: PresentationStyle) throws(RPCError) -> Transition {
        try transitionOverride(o).applied(to: defaults.defaultTransition(for: style))
    }

    /// The parts of a transition a request gives.
    func transitionOverride(_ o: ParamReader) throws(RPCError) -> TransitionOverride {
        try o.rejectUnknownKeys(allowed: ["type", "duration", "timing"])
        return TransitionOverride(kind: try o.optionalEnumValue("type"),
                                  duration: try o.optionalDouble("duration", range: durations, unit: "seconds"),
                                  timing: try o.optionalField("timing").map(timing))
    }

    /// A curve name, `{"bezier":[x1,y1,x2,y2]}` or `{"spring":{…}}`.
    public func timing(_ v: ParamValue) throws(RPCError) -> TimingCurve {
        if case .string(let name) = v.value {
            guard let named = TimingName(rawValue: name) else {
                throw v.invalid("must be \(TimingName.allCases.map(\.rawValue).joined(separator: ", ")), "
                                + "{\"bezier\":[…]} or {\"spring\":{…}}")
            }
            return named.curve
        }
        let (o, key) = try soleKey(v, of: ["bezier", "spring"])
        return key == "bezier" ? .bezier(try bezier(try o.field(key))) : .spring(try spring(try o.object(key)))
    }

    private func bezier(_ v: ParamValue) throws(RPCError) -> CubicBezier {
        let items = try v.array(count: 4...4)
        var c: [Double] = []
        for (i, item) in items.enumerated() {
            // The x control points must stay in [0, 1] for the curve to be a function of time.
            c.append(try item.double(range: i % 2 == 0 ? 0...1 : coordinates))
        }
        return CubicBezier(x1: c[0], y1: c[1], x2: c[2], y2: c[3])
    }

    /// Physical `{mass?, stiffness, damping, initialVelocity?}`, UIKit's
    /// `{duration, dampingRatio, initialVelocity?}` or SwiftUI's `{response, dampingFraction?}`.
    private func spring(_ o: ParamReader) throws(RPCError) -> Spring {
        let velocity = try o.optionalDouble("initialVelocity", range: -1000...1000) ?? 0
        let spring: Spring
        if o.contains("stiffness") || o.contains("mass") || o.contains("damping") {
            // `duration` is optional here so that a spring the daemon wrote can be sent back.
            try o.rejectUnknownKeys(allowed: ["mass", "stiffness", "damping", "initialVelocity", "duration"])
            let mass = try o.optionalDouble("mass", range: 0.001...1000) ?? 1
            let stiffness = try o.double("stiffness", range: 0.001...100_000)
            let damping = try o.double("damping", range: 0.001...100_000)
            if let duration = try o.optionalDouble("duration", range: 0.001...limits.maxDuration, unit: "seconds") {
                spring = Spring(
                    mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity, duration: duration)
            } else {
                spring = Spring(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
            }
        } else if o.contains("response") {
            try o.rejectUnknownKeys(allowed: ["response", "dampingFraction", "initialVelocity"])
            spring = Spring.swiftUI(response: try o.double("response", range: 0.01...10, unit: "seconds"),
                                    dampingFraction: try o.optionalDouble("dampingFraction", range: 0.01...10) ?? 0.825,
                                    initialVelocity: velocity)
        } else {
            try o.rejectUnknownKeys(allowed: ["duration", "dampingRatio", "initialVelocity"])
            spring = Spring.uikit(duration: try o.double("duration", range: 0.01...10, unit: "seconds"),
                dampingRatio: try o.double("dampingRatio", range: 0.001...1), initialVelocity: velocity)
        }
        guard spring.duration <= limits.maxDuration else {
            throw .invalidParams(
                field: o.path,
                reason: "this spring takes \(spring.duration) s to settle; at most \(limits.maxDuration) s")
        }
        return spring
    }

    // MARK: Chrome

    func background(_ o: ParamReader) throws(RPCError) -> Background {
        try o.rejectUnknownKeys(allowed: ["color", "opacity", "blur"])
        return Background(color: try o.optionalField("color").map(color) ?? .black,
                          opacity: try o.optionalDouble("opacity", range: 0...1) ?? Background.standard.opacity,
                          blur: try o.optionalEnumValue("blur"))
    }

    func shadow(_ o: ParamReader) throws(RPCError) -> Shadow {
        try o.rejectUnknownKeys(allowed: ["color", "opacity", "radius", "offset"])
        let d = Shadow()
        let offset = try o.optionalObject("offset").map { p throws(RPCError) in try point(p) }
        return Shadow(color: try o.optionalField("color").map(color) ?? d.color,
                      opacity: try o.optionalDouble("opacity", range: 0...1) ?? d.opacity,
                      radius: try o.optionalDouble("radius", range: 0...1000, unit: "points") ?? d.radius,
                      offset: offset.map { Size(width: $0.x, height: $0.y) } ?? d.offset)
    }

    /// `#rrggbb` or `#rrggbbaa`.
    func color(_ v: ParamValue) throws(RPCError) -> Color {
        let text = try v.string(maxBytes: 9)
        let digits = Array(text.utf8.dropFirst())
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8,
              digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }),
              let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16) else {
            throw v.invalid("expected #rrggbb or #rrggbbaa")
        }
        let rgba = digits.count == 6 ? value << 8 | 0xff : value
        func channel(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xff) / 255 }
        return Color(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0))
    }

    public func statusBar(_ o: ParamReader) throws(RPCError) -> StatusBarAppearance {
        try o.rejectUnknownKeys(allowed: ["style", "hidden"])
        return StatusBarAppearance(style: try o.optionalEnumValue("style") ?? .default,
                                   hidden: try o.optionalBool("hidden") ?? false)
    }

    /// `none` / `overFullScreen` / `fullScreen` / `{"replacement": {"style", "content"?}}`.
    func adaptive(_ v: ParamValue) throws(RPCError) -> AdaptivePolicy {
        if case .string(let name) = v.value {
            switch name {
            case "none": return .none
            case "overFullScreen": return .overFullScreen
            case "fullScreen": return .fullScreen
            default: throw v.invalid("must be none, overFullScreen, fullScreen or {\"replacement\":{…}}")
            }
        }
        let (o, _) = try soleKey(v, of: ["replacement"])
        let r = try o.object("replacement")
        try r.rejectUnknownKeys(allowed: ["style", "content"])
        return .replacement(
            style: try style(try r.field("style")), content: try r.optionalField("content").map(content))
    }
}
