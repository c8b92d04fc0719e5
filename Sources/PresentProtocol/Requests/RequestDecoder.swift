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

    public func decode(method: String, params: JSONValue?) throws(RPCError) -> Request {
        if case .array? = params {
            throw .invalidParams(field: "params", reason: "presentd takes named params (an object), not an array")
        }
        let p = try ParamReader(params)
        switch method {
        case "hello":
            try p.rejectUnknownKeys(allowed: ["client", "protocol"])
            let version = try p.optionalInt("protocol", in: 0...Int(Int32.max)) ?? ProtocolLimits.protocolVersion
            guard version == ProtocolLimits.protocolVersion else {
                throw .invalidParams(field: "protocol", reason: "unsupported protocol version \(version); this daemon speaks \(ProtocolLimits.protocolVersion)")
            }
            return .hello(client: try p.optionalString("client", maxLength: limits.maxNameLength), protocolVersion: version)
        case "ping":
            try p.rejectUnknownKeys(allowed: [])
            return .ping
        case "present":
            return .present(try presentRequest(p))
        case "dismiss":
            try p.rejectUnknownKeys(allowed: ["id", "animated", "transition"])
            return .dismiss(id: try p.string("id", maxLength: limits.maxNameLength),
                            animated: try p.optionalBool("animated") ?? true,
                            transition: try p.optionalObject("transition").map { o throws(RPCError) in try transition(o, for: nil) })
        case "dismissAll":
            try p.rejectUnknownKeys(allowed: ["animated"])
            return .dismissAll(animated: try p.optionalBool("animated") ?? true)
        case "stack":
            try p.rejectUnknownKeys(allowed: [])
            return .stack
        case "subscribe", "unsubscribe":
            try p.rejectUnknownKeys(allowed: ["topics"])
            let topics = try topicList(p)
            return method == "subscribe" ? .subscribe(topics) : .unsubscribe(topics)
        case "setContainer":
            return .setContainer(try containerChange(p))
        case "keyboard":
            try p.rejectUnknownKeys(allowed: ["height", "duration", "curve"])
            return .keyboard(height: try p.double("height", in: 0...limits.maxDimension, unit: "points"),
                             duration: try p.optionalDouble("duration", in: durations, unit: "seconds"),
                             curve: p.has("curve") ? try timing(p.value("curve"), field: p.field("curve")) : nil)
        case "tap":
            try p.rejectUnknownKeys(allowed: ["x", "y"])
            return .tap(Point(x: try p.double("x", in: coordinates), y: try p.double("y", in: coordinates)))
        case "swipe":
            try p.rejectUnknownKeys(allowed: ["phase", "dx", "dy", "vx", "vy"])
            return .swipe(try p.choice("phase"),
                          translation: Point(x: try p.double("dx", in: coordinates), y: try p.double("dy", in: coordinates)),
                          velocity: Point(x: try p.optionalDouble("vx", in: coordinates) ?? 0,
                                          y: try p.optionalDouble("vy", in: coordinates) ?? 0))
        case "advance":
            try p.rejectUnknownKeys(allowed: ["seconds"])
            let seconds = try p.double("seconds", in: 0...limits.maxAdvance, unit: "seconds")
            return .advance(seconds: seconds)
        case "sync":
            try p.rejectUnknownKeys(allowed: ["nonce"])
            return .sync(nonce: p.object["nonce"] ?? .null)
        default:
            throw RPCError(code: .methodNotFound, message: "unknown method \"\(method)\"; methods: \(Request.methods.joined(separator: ", "))")
        }
    }

    private func topicList(_ p: ParamReader) throws(RPCError) -> [Topic] {
        var topics: [Topic] = []
        for (i, item) in try p.array("topics", maxCount: Topic.allCases.count * 2).enumerated() {
            topics.append(try ParamReader.choice(item, field: "topics[\(i)]"))
        }
        return topics
    }

    private func containerChange(_ p: ParamReader) throws(RPCError) -> ContainerChange {
        try p.rejectUnknownKeys(allowed: ["width", "height", "safeArea", "scale", "horizontalSizeClass",
                                          "verticalSizeClass", "duration"])
        let size = 1...limits.maxDimension
        return ContainerChange(
            width: try p.double("width", in: size, unit: "points"), height: try p.double("height", in: size, unit: "points"),
            safeArea: try p.optionalObject("safeArea").map { o throws(RPCError) in try insets(o) },
            scale: try p.optionalDouble("scale", in: 0.1...16),
            horizontalSizeClass: try p.optionalChoice("horizontalSizeClass"),
            verticalSizeClass: try p.optionalChoice("verticalSizeClass"),
            duration: try p.optionalDouble("duration", in: durations, unit: "seconds"))
    }

    private func insets(_ o: ParamReader) throws(RPCError) -> EdgeInsets {
        try o.rejectUnknownKeys(allowed: ["top", "left", "bottom", "right"])
        let r = 0...limits.maxDimension
        return EdgeInsets(top: try o.optionalDouble("top", in: r) ?? 0, left: try o.optionalDouble("left", in: r) ?? 0,
                          bottom: try o.optionalDouble("bottom", in: r) ?? 0, right: try o.optionalDouble("right", in: r) ?? 0)
    }
}
