// The core's values as JSON, exactly as docs/PROTOCOL.md shows them. Encoding never
// fails: the core only produces finite numbers.

import PresentCore
import PresentJSON

extension JSONValue {
    static func number(_ d: Double) -> JSONValue { .double(d) }
}

public enum CoreEncoding {
    public static func rect(_ r: Rect) -> JSONValue { value { write(r, into: &$0) } }

    static func write<Sink: JSONMemberSink>(_ r: Rect, into o: inout Sink) {
        o.member("x", double: r.minX)
        o.member("y", double: r.minY)
        o.member("width", double: r.width)
        o.member("height", double: r.height)
    }

    /// The object a `write(_:into:)` makes, as a value.
    static func value(_ write: (inout JSONObject) -> Void) -> JSONValue {
        var object = JSONObject()
        write(&object)
        return .object(object)
    }

    public static func point(_ p: Point) -> JSONValue { ["x": .number(p.x), "y": .number(p.y)] }

    public static func insets(_ i: EdgeInsets) -> JSONValue {
        ["top": .number(i.top), "left": .number(i.left), "bottom": .number(i.bottom), "right": .number(i.right)]
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public static func color(_ c: Color) -> JSONValue { .string(colorText(c)) }

    static func colorText(_ c: Color) -> String {
        // Spelt into a stack buffer: nine bytes at most make a string stored inline, so a
        // dimming layer's colour costs no allocation in a frame (radix strings made four).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9) { text in
            func put(_ v: Double, at i: Int) {
                let byte = Int((min(1, max(0, v)) * 255).rounded())
                text[1 + 2 * i] = hexDigits[byte >> 4]
                text[2 + 2 * i] = hexDigits[byte & 0xF]
            }
            text[0] = UInt8(ascii: "#")
            put(c.red, at: 0)
            put(c.green, at: 1)
            put(c.blue, at: 2)
            if c.alpha < 1 { put(c.alpha, at: 3) }
            return String(decoding: UnsafeBufferPointer(rebasing: text[..<(c.alpha < 1 ? 9 : 7)]), as: UTF8.self)
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    public static func container(_ c: Container) -> JSONValue {
        ["width": .number(c.size.width), "height": .number(c.size.height), "safeArea": insets(c.safeArea),
         "scale": .number(c.scale), "horizontalSizeClass": .string(c.horizontalSizeClass.rawValue),
         "verticalSizeClass": .string(c.verticalSizeClass.rawValue), "keyboardHeight": .number(c.keyboardHeight),
         "layoutDirection": .string(c.layoutDirection.rawValue)]
    }

    public static func timing(_ t: TimingCurve) -> JSONValue {
        switch t {
        case .bezier(let b):
            return ["bezier": [.number(b.x1), .number(b.y1), .number(b.x2), .number(b.y2)]]
        case .spring(let s) where s == .system:
            return "system"
        case .spring(let s):
            return [
                "spring": [
                    "mass": .number(s.mass), "stiffness": .number(s.stiffness), "damping": .number(s.damping),
                               "initialVelocity": .number(s.initialVelocity), "duration": .number(s.duration)]]
        default:
            return .string(t.name)
        }
    }

    public static func transition(_ t: Transition) -> JSONValue {
        ["type": .string(t.kind.rawValue), "duration": .number(t.timing.effectiveDuration(t.duration)),
         "timing": timing(t.timing)]
    }

    public static func style(_ s: PresentationStyle) -> JSONValue {
        switch s {
        case .slideIn(let edge, let fraction, let follows):
            let direction = follows ? (edge == .left ? "leading" : "trailing") : edge.rawValue
            return ["type": "slideIn", "direction": .string(direction), "fraction": .number(fraction)]
        case .custom(let layout):
            return ["type": "custom", "width": modalSize(layout.width), "height": modalSize(layout.height),
                    "position": position(layout.position)]
        case .sheet(let sheet):
            var o: JSONObject = [
                "type": "sheet", "detents": .array(sheet.detents.map(detent)), "grabber": .bool(sheet.grabber),
                                 "expandsOnScroll": .bool(sheet.expandsOnScroll),
                                 "edgeAttachedInCompactHeight": .bool(sheet.edgeAttachedInCompactHeight)]
            if let d = sheet.selectedDetent { o["selectedDetent"] = .string(d) }
            if let d = sheet.largestUndimmedDetent { o["largestUndimmedDetent"] = .string(d) }
            return .object(o)
        default:
            return .string(s.name)
        }
    }

    /// `"medium"`, `"large"`, or `{id, height}` with the height in points, `"N%"` or `"content"`.
    static func detent(_ d: Detent) -> JSONValue {
        switch d.height {
        case .medium where d.id == Detent.medium.id: return "medium"
        case .large where d.id == Detent.large.id: return "large"
        case .medium: return ["id": .string(d.id), "height": "medium"]
        case .large: return ["id": .string(d.id), "height": "large"]
        case .points(let n): return ["id": .string(d.id), "height": .number(n)]
        case .fraction(let f):
            let percent = f * 100
            return [
                "id": .string(d.id),
                "height": .string(percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%")
            ]
        case .content: return ["id": .string(d.id), "height": "content"]
        }
    }

    static func modalSize(_ m: ModalSize) -> JSONValue {
        switch m {
        case .default: return "default"
        case .half: return "half"
        case .full: return "full"
        case .points(let n): return ["points": .number(n)]
        case .fluid(let f): return ["fluid": .number(f)]
        case .sideMargin(let n): return ["sideMargin": .number(n)]
        case .content: return "content"
        }
    }

    static func position(_ p: ModalPosition) -> JSONValue {
        switch p {
        case .center: return "center"
        case .topCenter: return "topCenter"
        case .bottomCenter: return "bottomCenter"
        case .point(let pt): return ["point": point(pt)]
        case .origin(let pt): return ["origin": point(pt)]
        }
    }

    public static func visualState(_ v: VisualState) -> JSONValue {
        ["frame": rect(v.frame), "alpha": .number(v.alpha), "scale": .number(v.scale),
         "rotation": .number(v.rotation), "dimming": .number(v.dimming)]
    }

    /// An animation as renderers interpolate it: value = from + progress(t − start)·(to − from).
    public static func animation(_ a: Animation) -> JSONValue {
        ["from": visualState(a.from), "to": visualState(a.to), "start": .number(a.start),
         "duration": .number(a.duration), "timing": timing(a.curve)]
    }

    public static func statusBar(_ s: StatusBarAppearance) -> JSONValue {
        ["style": .string(s.style.rawValue), "hidden": .bool(s.hidden)]
    }

    public static func shadow(_ s: Shadow) -> JSONValue { value { write(s, into: &$0) } }

    static func write<Sink: JSONMemberSink>(_ s: Shadow, into o: inout Sink) {
        o.member("color", string: colorText(s.color))
        o.member("opacity", double: s.opacity)
        o.member("radius", double: s.radius)
        o.member("offset", object: { o in
            o.member("x", double: s.offset.width)
            o.member("y", double: s.offset.height)
        })
    }

    public static func layer(_ l: Layer) -> JSONValue { value { write(l, into: &$0) } }

    static func write<Sink: JSONMemberSink>(_ l: Layer, into o: inout Sink) {
        o.member("id", string: l.entryID)
        o.member("role", string: l.role.rawValue)
        o.member("level", string: l.level.rawValue)
        o.member("frame", object: { write(l.frame, into: &$0) })
        o.member("alpha", double: l.alpha)
        o.member("scale", double: l.scale)
        o.member("rotation", double: l.rotation)
        o.member("cornerRadius", double: l.cornerRadius)
        if let c = l.color { o.member("color", string: colorText(c)) }
        if let b = l.blur { o.member("blur", string: b.rawValue) }
        if let s = l.shadow { o.member("shadow", object: { write(s, into: &$0) }) }
        if let r = l.contentRevision { o.member("contentRevision", int: Int64(r)) }
        if l.tintDimmed { o.member("tintDimmed", bool: true) }
        if let c = l.clip { o.member("clip", object: { write(c, into: &$0) }) }
    }

    /// A `frame` notification's params; `output`: the screen it is of.
    public static func frame(_ scene: Scene, seq: UInt64, output: String? = nil) -> JSONValue {
        value { write(scene, seq: seq, output: output, into: &$0) }
    }

    /// The whole `frame` notification as a line of bytes, written straight from the scene
    /// (no value is built: it is made at every tick of every moving screen). The same bytes
    /// as `RPCEncoding.notification(method: "frame", params: frame(…)).serializedLine()`.
    public static func frameLine(_ scene: Scene, seq: UInt64, output: String? = nil) -> [UInt8] {
        var writer = JSONWriter(capacity: 256 + 320 * scene.layers.count)
        RPCEncoding.writeNotification(method: "frame", into: &writer) {
            write(scene, seq: seq, output: output, into: &$0)
        }
        writer.endLine()
        return writer.takeBytes()
    }

    static func write<Sink: JSONMemberSink>(_ scene: Scene, seq: UInt64, output: String?, into o: inout Sink) {
        o.member("seq", int: Int64(truncatingIfNeeded: seq))
        o.member("time", double: scene.time)
        o.member("layers", objectsFor: scene.layers) { layer, o in write(layer, into: &o) }
        o.member("animating", bool: scene.isAnimating)
        if let output { o.member("output", string: output) }
    }

    /// One entry of the `stack` result and notification.
    public static func entry(_ e: Entry, in stack: ModalStack, output: String? = nil) -> JSONValue {
        var o: JSONObject = ["id": .string(e.id), "owner": .int(Int64(truncatingIfNeeded: e.owner)),
                             "state": .string(e.state.rawValue), "style": style(e.effectiveStyle),
                             "frame": rect(e.restState(in: stack.container).frame),
                             "priority": .int(Int64(e.presentation.priority)), "adapted": .bool(e.isAdapted)]
        o["level"] = .string(e.level.rawValue)
        if e.level == .overlay { o["position"] = .string(e.presentation.overlay.position.rawValue) }
        // A renderer leaves such a dimming out of what takes input, so taps reach the windows below.
        // A sheet at rest at or below its largest undimmed detent forwards too.
        if e.level.isModal, e.effectiveInteraction(in: stack.container) == .forward {
            o["interaction"] = .string(Interaction.forward.rawValue)
        }
        if let c = e.presentation.context { o["context"] = .string(c) }
        if let k = e.presentation.kind { o["kind"] = .string(k) }
        if let c = e.effectiveContent { o["content"] = content(c) }
        o["contentRevision"] = .int(Int64(e.contentRevision))
        if let s = e.presentation.preferredContentSize { o["preferredContentSize"] = preferredContentSize(s) }
        if let a = e.presentation.autoDismiss { o["autoDismiss"] = autoDismiss(a) }
        if let f = e.focusedField { o["focusedField"] = .string(f) }
        if let d = e.restingDetent(in: stack.container) { o["detent"] = .string(d.id) }
        if stack.isHeld(e) { o["heldBy"] = .string(HoldReason.doNotDisturb.rawValue) }   // ModalStack+DoNotDisturb
        if let output { o["output"] = .string(output) }
        return .object(o)
    }

    /// The presentation contexts by name.
    public static func contexts(of stack: ModalStack) -> JSONValue {
        var o: JSONObject = [:]
        for name in stack.contexts.keys.sorted() { o[name] = rect(stack.contexts[name]!) }
        return .object(o)
    }

    /// Every entry, bottom to top then the queue; each names `output` when given.
    public static func entries(of stack: ModalStack, output: String? = nil) -> JSONValue {
        .array(stack.allEntries.map { entry($0, in: stack, output: output) })
    }

    /// A `lifecycle` notification's params (the caller adds `seq`).
    public static func lifecycle(_ n: LifecycleNotice) -> JSONValue {
        var o: JSONObject = ["id": .string(n.id), "event": .string(n.event.rawValue), "time": .number(n.time),
                             "owner": .int(Int64(truncatingIfNeeded: n.owner))]
        if let r = n.reason { o["reason"] = .string(r.rawValue) }
        if let h = n.heldBy { o["heldBy"] = .string(h.rawValue) }
        if let d = n.detent { o["detent"] = .string(d) }
        if let a = n.action { o["action"] = .string(a) }
        if let a = n.animation { o["animation"] = animation(a) }
        if let c = n.content {
            // `content: null` in an update that cleared it; absent from those that never had any.
            if let content = c.content { o["content"] = self.content(content) }
            else if n.event == .updated { o["content"] = .null }
            o["contentRevision"] = .int(Int64(c.revision))
        }
        if let a = n.adaptation {
            var ad: JSONObject = ["active": .bool(a.active), "style": style(a.style)]
            if let c = a.content { ad["content"] = content(c) }
            o["adaptation"] = .object(ad)
        }
        return .object(o)
    }

    /// A `statusBar` notification's params (the caller adds `seq`).
    public static func statusBarChange(_ s: StatusBarAppearance, duration: Double, time: Double) -> JSONValue {
        ["style": .string(s.style.rawValue), "hidden": .bool(s.hidden), "duration": .number(duration),
         "time": .number(time)]
    }
}
