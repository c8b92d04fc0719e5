// JSON-RPC params → typed requests, validating every value against ProtocolLimits.
// Each method's fields are listed once, in its MethodTable row (unknown fields are
// refused), its row decodes them with the readers here, and each error names its exact
// field.

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
        var params = params
        if case .array(let elements)? = params {
            guard elements.isEmpty && spec.params.allSatisfy({ !$0.required }) else {
                throw .invalidParams(field: "params", reason: "presentd takes named params (an object), not an array")
            }
            params = nil
        }
        let p = try ParamReader(params)
        try p.rejectUnknownKeys(allowedBy: spec.takesParam)
        return try spec.decodeParams(self, p)
    }

    /// `output`, where a method takes one: a screen's name (whether it exists is the
    /// daemon's to say).
    func output(_ p: ParamReader) throws(RPCError) -> String? {
        try p.optionalField("output").map(name)
    }

    func topics(_ p: ParamReader) throws(RPCError) -> [Topic] {
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
    func containerChange(_ p: ParamReader) throws(RPCError) -> ContainerChange {
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
