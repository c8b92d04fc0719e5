// JSON-RPC error codes (the spec's and presentd's own) and the error value.

import PresentJSON

public enum RPCErrorCode: Int, Sendable, CaseIterable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    /// No presentation with that id.
    case notFound = -32001
    /// The presentation belongs to another client and the policy does not allow this one.
    case notOwner = -32002
    /// A documented limit (entries, batch size, connections) would be exceeded.
    case limitExceeded = -32003
    /// `advance` on a daemon that runs on the monotonic clock.
    case wrongClockMode = -32004
}

/// An error reply. For invalid params, `data` is `{"field": path, "reason": why}`.
public struct RPCError: Error, Sendable, Equatable {
    public var code: RPCErrorCode
    public var message: String
    public var data: JSONValue?

    public init(code: RPCErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code; self.message = message; self.data = data
    }

    public static func invalidRequest(_ reason: String) -> RPCError {
        RPCError(code: .invalidRequest, message: "invalid request: \(reason)")
    }

    /// `field` is the exact path, e.g. `transition.timing.bezier[1]`.
    public static func invalidParams(field: String, reason: String) -> RPCError {
        RPCError(code: .invalidParams, message: "invalid params: \(field): \(reason)",
                 data: ["field": .string(field), "reason": .string(reason)])
    }
}
