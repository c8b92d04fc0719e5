// JSON-RPC params → typed requests, validating every value against ProtocolLimits.
// Each method's fields are listed once (unknown fields are refused) and each error
// names its exact field.

import PresentCore
import PresentJSON

/// Decodes requests for one daemon's limits and defaults.
public struct RequestDecoder: Sendable {
    public let limits: ProtocolLimits
    public let defaults: StackConfiguration

    public init(limits: ProtocolLimits = ProtocolLimits(), defaults: StackConfiguration = .standard) {
        self.limits = limits; self.defaults = defaults
    }

    var durations: ClosedRange<Double> { 0...limits.maxDuration }
    var coordinates: ClosedRange<Double> { -limits.maxCoordinate...limits.maxCoordinate }
    var dimensions: ClosedRange<Double> { 0...limits.maxDimension }

    /// The method is looked up first (an unknown one is −32601 whatever its params), then
    /// its params are checked against its entry in `MethodTable`: an object of the names
    /// listed there (an empty array stands for no params), each decoded below.
    public func decode(method: String, params: JSONValue?) throws(RPCError) -> Request {
        guard let spec = MethodTable.spec(method) else { throw Self.unknownMethod(method) }
        return try decode(spec, params: params)
    }

    /// The −32601 error for `method`, which does not exist; it lists those that do.
    public static func unknownMethod(_ method: String) -> RPCError {
        RPCError(code: .methodNotFound,
                 message: "unknown method \"\(method)\"; methods: \(Request.methods.joined(separator: ", "))",
                 data: ["method": .string(method)])
    }

    /// Decodes `params` for the method `spec` describes (looked up once per request).
    public func decode(_ spec: MethodSpec, params: JSONValue?) throws(RPCError) -> Request {
        let method = spec.name
        var params = params
        if case .array(let elements)? = params {
            guard elements.isEmpty && spec.params.allSatisfy({ !$0.required }) else {
                throw .invalidParams(field: "params", reason: "presentd takes named params (an object), not an array")
            }
            params = nil
        }
        let p = try ParamReader(params)
        try p.rejectUnknownKeys(allowed: spec.paramNames)
        switch method {
        case "hello":
            let version = try p.optionalInt("protocol", range: 0...Int(Int32.max)) ?? ProtocolLimits.protocolVersion
            guard version == ProtocolLimits.protocolVersion else {
                throw p.invalid("protocol", "unsupported protocol version \(version); this daemon speaks \(ProtocolLimits.protocolVersion)")
            }
            return .hello(client: try p.optionalField("client").map(name), protocolVersion: version,
                          resume: try p.optionalField("resume").map(name))
        case "ping":
            return .ping
        case "present":
            return .present(try presentRequest(p))
        case "dismiss":
            return .dismiss(id: try name(p.field("id")), animated: try p.optionalBool("animated") ?? true,
                            transition: try p.optionalObject("transition").map(transitionOverride))
        case "dismissAll":
            return .dismissAll(animated: try p.optionalBool("animated") ?? true, output: try output(p))
        case "stack":
            return .stack(output: try output(p))
        case "subscribe":
            return .subscribe(try topics(p), outputs: try p.optionalField("outputs").map { v throws(RPCError) in
                try v.array(count: 1...limits.maxOutputs, each: name) })
        case "unsubscribe":
            return .unsubscribe(try topics(p))
        case "setContainer":
            return .setContainer(try containerChange(p), output: try output(p))
        case "keyboard":
            return .keyboard(height: try p.double("height", range: dimensions, unit: "points"),
                             duration: try p.optionalDouble("duration", range: durations, unit: "seconds"),
                             curve: try p.optionalField("curve").map(timing), output: try output(p))
        case "tap":
            return .tap(Point(x: try p.double("x", range: coordinates), y: try p.double("y", range: coordinates)),
                        output: try output(p))
        case "swipe":
            return .swipe(try p.enumValue("phase"),
                          translation: Point(x: try p.double("dx", range: coordinates), y: try p.double("dy", range: coordinates)),
                          velocity: Point(x: try p.optionalDouble("vx", range: coordinates) ?? 0,
                                          y: try p.optionalDouble("vy", range: coordinates) ?? 0),
                          output: try output(p))
        case "advance":
            return .advance(seconds: try p.double("seconds", range: 0...limits.maxAdvance, unit: "seconds"))
        case "sync":
            return .sync(nonce: p.value("nonce") ?? .null)
        case "update":
            return try update(p)
        case "activate":
            return .activate(id: try name(p.field("id")), action: try contentID(p.field("action")),
                             fields: try fieldValues(p),
                             activationToken: try p.optionalField("activationToken").map { v throws(RPCError) in
                                 try text(v, max: limits.maxActivationTokenLength)
                             })
        case "key":
            return .key(try p.enumValue("key"), id: try p.optionalField("id").map(name), fields: try fieldValues(p),
                        output: try output(p))
        case "defineContext":
            let f = try p.object("frame")
            try f.rejectUnknownKeys(allowed: ["x", "y", "width", "height"])
            let frame = Rect(x: try f.double("x", range: coordinates), y: try f.double("y", range: coordinates),
                             width: try f.double("width", range: dimensions, unit: "points"),
                             height: try f.double("height", range: dimensions, unit: "points"))
            return .defineContext(name: try name(p.field("name")), frame: frame,
                                  duration: try p.optionalDouble("duration", range: durations, unit: "seconds"),
                                  output: try output(p))
        case "removeContext":
            return .removeContext(name: try name(p.field("name")))
        case "addOutput":
            return .addOutput(OutputDefinition(name: try name(p.field("name")), container: try containerChange(p),
                                               fps: try p.optionalInt("fps", range: ProtocolLimits.fpsRange)))
        case "removeOutput":
            return .removeOutput(name: try name(p.field("name")))
        case "outputs":
            return .outputs
        case "focus":
            return .focus(id: try name(p.field("id")), field: try p.optionalField("field").map(contentID))
        case "presented":
            // Times are the daemon's clock (seconds since boot on the real clock): any finite value.
            let times = 0.0...1e12
            let frames = try p.objects("frames", count: 0...256).map { f throws(RPCError) -> ShownFrame in
                try f.rejectUnknownKeys(allowed: ["time", "shownAt", "drawnAt", "refresh"])
                return ShownFrame(time: try f.double("time", range: times, unit: "seconds"),
                                  shownAt: try f.double("shownAt", range: times, unit: "seconds"),
                                  drawnAt: try f.optionalDouble("drawnAt", range: times, unit: "seconds"),
                                  refresh: try f.optionalDouble("refresh", range: 0...1, unit: "seconds"))
            }
            return .presented(frames: frames, discarded: try p.optionalInt("discarded", range: 0...1_000_000) ?? 0,
                              output: try output(p))
        case "rpc.discover":
            return .discover
        case "stats":
            return .stats
        case "setMode":
            return try setMode(p)   // ModeDecoding.swift
        case "explain":
            return .explain(id: try name(p.field("id")))
        case "recordDump":
            return .recordDump(path: try p.optionalString("path", maxBytes: 4096))
        default:
            preconditionFailure("MethodTable lists \(method), which RequestDecoder does not decode")
        }
    }

    /// `output`, where a method takes one: a screen's name (whether it exists is the
    /// daemon's to say).
    func output(_ p: ParamReader) throws(RPCError) -> String? {
        try p.optionalField("output").map(name)
    }

    private func topics(_ p: ParamReader) throws(RPCError) -> [Topic] {
        try p.field("topics").array(count: 1...16) { v throws(RPCError) in try v.enumValue(as: Topic.self) }
    }

    /// Ids, kinds, labels and client names: 1…maxNameLength characters.
    func name(_ v: ParamValue) throws(RPCError) -> String {
        let s = try v.string()
        guard !s.isEmpty, s.count <= limits.maxNameLength else {
            throw v.invalid("must be 1 to \(limits.maxNameLength) characters, got \(s.count)")
        }
        return s
    }

    /// `{x, y}` in the container's coordinates (tap params, positions, shadow offsets);
    /// any other member is refused, as everywhere.
    func point(_ o: ParamReader) throws(RPCError) -> Point {
        try o.rejectUnknownKeys(allowed: ["x", "y"])
        return Point(x: try o.double("x", range: coordinates), y: try o.double("y", range: coordinates))
    }

    /// The container members of `p` (the caller refuses the members it does not take).
    private func containerChange(_ p: ParamReader) throws(RPCError) -> ContainerChange {
        let size = 1...limits.maxDimension
        return ContainerChange(
            width: try p.double("width", range: size, unit: "points"),
            height: try p.double("height", range: size, unit: "points"),
            safeArea: try p.optionalObject("safeArea").map { o throws(RPCError) in try insets(o) },
            scale: try p.optionalDouble("scale", range: 0.1...16),
            horizontalSizeClass: try p.optionalEnumValue("horizontalSizeClass"),
            verticalSizeClass: try p.optionalEnumValue("verticalSizeClass"),
            layoutDirection: try p.optionalEnumValue("layoutDirection"),
            duration: try p.optionalDouble("duration", range: durations, unit: "seconds"))
    }

    private func insets(_ o: ParamReader) throws(RPCError) -> EdgeInsets {
        try o.rejectUnknownKeys(allowed: ["top", "left", "bottom", "right"])
        return EdgeInsets(top: try o.optionalDouble("top", range: dimensions) ?? 0,
                          left: try o.optionalDouble("left", range: dimensions) ?? 0,
                          bottom: try o.optionalDouble("bottom", range: dimensions) ?? 0,
                          right: try o.optionalDouble("right", range: dimensions) ?? 0)
    }
}
