import PresentJSON

/// A JSON-RPC error code. A struct rather than an enum: responses from peers may carry
/// codes presentd does not define, and they must survive decoding.
public struct RPCErrorCode: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    // JSON-RPC 2.0's own codes.
    /// The text is not JSON.
    public static let parseError = RPCErrorCode(rawValue: -32700)
    /// The JSON is not a valid request object.
    public static let invalidRequest = RPCErrorCode(rawValue: -32600)
    /// No such method (also every `rpc.`-prefixed method).
    public static let methodNotFound = RPCErrorCode(rawValue: -32601)
    /// The method exists but its params are wrong.
    public static let invalidParams = RPCErrorCode(rawValue: -32602)
    /// A fault inside presentd.
    public static let internalError = RPCErrorCode(rawValue: -32603)

    // presentd's server errors (−32000…−32099 are reserved for implementations).
    /// The named presentation, container or subscription does not exist.
    public static let notFound = RPCErrorCode(rawValue: -32001)
    /// The object belongs to another connection.
    public static let notOwner = RPCErrorCode(rawValue: -32002)
    /// A configured limit (stack depth, subscribers, sizes…) would be exceeded.
    public static let limitExceeded = RPCErrorCode(rawValue: -32003)
    /// The request needs the frame clock in another mode (e.g. stepping a real-time clock).
    public static let wrongClockMode = RPCErrorCode(rawValue: -32004)
    /// A mode of the screen refuses the request (a `droppable` presentation under do not disturb).
    public static let refusedByMode = RPCErrorCode(rawValue: -32006)
}

/// A JSON-RPC error object: what a failed request is answered with.
public struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: RPCErrorCode
    /// One sentence for people; clients should branch on `code` and `data`, not on this.
    public var message: String
    /// Structured detail, e.g. `{"field": ..., "reason": ...}` for invalid params.
    public var data: JSONValue?

    public init(code: RPCErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The error object as it appears on the wire: `{"code", "message", "data"?}`.
    public var json: JSONValue {
        var object: JSONObject = ["code": .int(Int64(code.rawValue)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }

    public var description: String { "\(message) (\(code.rawValue))" }
}

// MARK: - Constructors

extension RPCError {
    /// The line is not JSON; `detail` is the parser's message.
    public static func parseError(_ detail: String) -> RPCError {
        RPCError(code: .parseError, message: "parse error: \(detail)")
    }

    /// The JSON is not a valid JSON-RPC message.
    public static func invalidRequest(_ detail: String) -> RPCError {
        RPCError(code: .invalidRequest, message: "invalid request: \(detail)")
    }

    /// No method named `method`; `data` repeats the name for clients.
    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: .methodNotFound, message: "method not found: \(method)",
                 data: ["method": .string(method)])
    }

    /// One parameter is wrong. `field` is its path (`transition.timing.bezier[1]`, or
    /// `params` for the whole), `reason` says what is wrong with it.
    public static func invalidParams(field: String, reason: String) -> RPCError {
        RPCError(code: .invalidParams, message: "invalid params: \(field): \(reason)",
                 data: ["field": .string(field), "reason": .string(reason)])
    }

    /// A fault inside presentd; the detail should not leak internals a client can't use.
    public static func internalError(_ detail: String) -> RPCError {
        RPCError(code: .internalError, message: "internal error: \(detail)")
    }

    /// The named thing does not exist.
    public static func notFound(_ detail: String) -> RPCError {
        RPCError(code: .notFound, message: "not found: \(detail)")
    }

    /// The thing belongs to another connection.
    public static func notOwner(_ detail: String) -> RPCError {
        RPCError(code: .notOwner, message: "not owner: \(detail)")
    }

    /// A limit would be exceeded; `limit` is the configured value, for clients to adapt.
    public static func limitExceeded(_ detail: String, limit: Int? = nil) -> RPCError {
        RPCError(code: .limitExceeded, message: "limit exceeded: \(detail)",
                 data: limit.map { ["limit": .int(Int64($0))] })
    }

    /// The frame clock is in the wrong mode for this request.
    public static func wrongClockMode(_ detail: String) -> RPCError {
        RPCError(code: .wrongClockMode, message: "wrong clock mode: \(detail)")
    }
}
