// The reference renderer of the `animations` topic: reads the JSON AnimationEncoding
// writes and gives, at any time in its span, the layers a `frame` notification would
// carry. It lives in PresentProtocol because it starts from the wire format (JSON in,
// frame JSON out) and the core knows no JSON; it evaluates timing curves and sums
// offsets with the core's own functions (TimingCurve, VisualState.adding), so the only
// thing it adds is the decoding. Renderers in other languages follow docs/PROTOCOL.md.

import PresentCore
import PresentJSON

/// A decoded `animations` payload, ready to be evaluated at any time.
public struct AnimationInterpolator: Sendable {
    public struct DecodingError: Error, Hashable, Sendable {
        public var message: String
    }

    /// One layer: its JSON as in frames (animated properties at their base), and its segments.
    struct AnimatedLayerJSON: Sendable {
        var object: JSONObject
        var base: VisualState
        var segments: [Animation]
    }

    public let time: Double
    public let until: Double?
    public let end: Double
    let layers: [AnimatedLayerJSON]

    /// Decodes the params of an `animations` notification (or a `retargeted` payload).
    public init(_ json: JSONValue) throws(DecodingError) {
        guard let o = json.objectValue, let time = o["time"]?.doubleValue, let end = o["end"]?.doubleValue,
              let layers = o["layers"]?.arrayValue else { throw DecodingError(message: "needs time, end and layers") }
        self.time = time
        self.until = o["until"]?.doubleValue
        self.end = end
        var decoded: [AnimatedLayerJSON] = []
        for layer in layers {
            guard var object = layer.objectValue, let segments = object["segments"]?.arrayValue else {
                throw DecodingError(message: "a layer needs segments")
            }
            object["segments"] = nil
            let base = try Self.properties(object, required: true)
            var animations: [Animation] = []
            for s in segments { animations.append(try Self.segment(s)) }
            decoded.append(AnimatedLayerJSON(object: object, base: base, segments: animations))
        }
        self.layers = decoded
    }

    /// The layers at time t, exactly as a `frame` notification's `layers`.
    public func layers(at t: Double) -> [JSONValue] {
        layers.map { l in
            let v = l.base.adding(l.segments, at: t)
            var o = l.object
            o["frame"] = CoreEncoding.rect(v.frame)
            o["alpha"] = .double(v.alpha)
            o["scale"] = .double(v.scale)
            o["rotation"] = .double(v.rotation)
            return .object(o)
        }
    }

    /// A `frame` notification's params at t (the caller adds `seq`, as for frames).
    public func frame(at t: Double) -> JSONValue {
        ["time": .double(t), "layers": .array(layers(at: t)), "animating": .bool(t < end)]
    }

    // MARK: Decoding

    static func segment(_ json: JSONValue) throws(DecodingError) -> Animation {
        guard let o = json.objectValue, let start = o["start"]?.doubleValue, let duration = o["duration"]?.doubleValue,
            let timing = o["timing"]
        else { throw DecodingError(message: "a segment needs start, duration and timing") }
        let zero = JSONValue.object([:])
        return Animation(from: try properties((o["from"] ?? zero).objectValue ?? [:], required: false),
                         to: try properties((o["to"] ?? zero).objectValue ?? [:], required: false),
                         start: start, duration: duration, curve: try curve(timing))
    }

    /// frame {x, y, width, height}, alpha, scale, rotation: all of them for a base, those
    /// given (the others 0) for an offset.
    static func properties(_ o: JSONObject, required: Bool) throws(DecodingError) -> VisualState {
        let frame = o["frame"]?.objectValue ?? [:]
        func number(_ value: JSONValue?, _ name: String) throws(DecodingError) -> Double {
            if let d = value?.doubleValue { return d }
            if required || value != nil { throw DecodingError(message: "\(name) must be a number") }
            return 0
        }
        return VisualState(frame: Rect(x: try number(frame["x"], "frame.x"), y: try number(frame["y"], "frame.y"),
                                       width: try number(frame["width"], "frame.width"),
                                       height: try number(frame["height"], "frame.height")),
                           alpha: try number(o["alpha"], "alpha"), scale: try number(o["scale"], "scale"),
                           rotation: try number(o["rotation"], "rotation"), dimming: 0)
    }

    /// A timing curve as `CoreEncoding.timing` writes it. A spring comes back with its
    /// written duration fixed, which moves exactly as the spring it was written from.
    static func curve(_ json: JSONValue) throws(DecodingError) -> TimingCurve {
        switch json {
        case .string("linear"): return .linear
        case .string("easeIn"): return .easeIn
        case .string("easeOut"): return .easeOut
        case .string("easeInEaseOut"): return .easeInEaseOut
        case .string("default"): return .default
        case .string("system"): return .system
        default: break
        }
        if let b = json["bezier"]?.arrayValue?.compactMap(\.doubleValue), b.count == 4 {
            return .bezier(CubicBezier(x1: b[0], y1: b[1], x2: b[2], y2: b[3]))
        }
        if let s = json["spring"]?.objectValue, let m = s["mass"]?.doubleValue, let k = s["stiffness"]?.doubleValue,
            let c = s["damping"]?.doubleValue, let v = s["initialVelocity"]?.doubleValue,
            let d = s["duration"]?.doubleValue
        {
            return .spring(Spring(mass: m, stiffness: k, damping: c, initialVelocity: v, duration: d))
        }
        throw DecodingError(message: "unknown timing \(json)")
    }
}
