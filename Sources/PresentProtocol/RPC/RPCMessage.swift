// The JSON-RPC 2.0 envelope: what arrived (a request, a batch, a response to one of
// the daemon's own requests) and how replies are written. Knows nothing of presentd's
// methods.

import PresentJSON

/// A request id: a string or an integer (JSON-RPC forbids null ids on requests).
public enum RPCID: Hashable, Sendable {
    case string(String)
    case int(Int64)

    public var json: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        }
    }

    init?(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .int(let i): self = .int(i)
        default: return nil
        }
    }
}

/// A request or notification (id nil).
public struct RPCRequest: Sendable {
    public var id: RPCID?
    public var method: String
    public var params: JSONValue?
}

/// A client's answer to a request the daemon sent (`shouldDismiss`).
public struct RPCResponse: Sendable {
    public var id: RPCID
    public var result: JSONValue?
    public var error: JSONValue?
}

/// An envelope that could not be accepted, with the id when one could be read.
public struct RPCFailure: Error, Sendable {
    public var id: RPCID?
    public var error: RPCError
}

/// One parsed line.
public enum RPCMessage: Sendable {
    case request(RPCRequest)
    case batch([JSONValue])
    case response(RPCResponse)

    /// Checks the envelope against JSON-RPC 2.0.
    public static func decode(_ value: JSONValue) -> Result<RPCMessage, RPCFailure> {
        if case .array(let items) = value { return .success(.batch(items)) }
        guard case .object(let o) = value else {
            return .failure(RPCFailure(id: nil, error: .invalidRequest("expected a JSON object or a batch array, got \(value.typeName)")))
        }
        var id: RPCID?
        if let raw = o["id"] {
            guard let valid = RPCID(raw) else {
                return .failure(RPCFailure(id: nil, error: .invalidRequest("id must be a string or an integer, got \(raw.typeName)")))
            }
            id = valid
        }
        guard o["jsonrpc"] == .string("2.0") else {
            return .failure(RPCFailure(id: id, error: .invalidRequest("\"jsonrpc\" must be \"2.0\"")))
        }
        if o["method"] == nil, let id, o["result"] != nil || o["error"] != nil {
            return .success(.response(RPCResponse(id: id, result: o["result"], error: o["error"])))
        }
        guard case .string(let method)? = o["method"] else {
            return .failure(RPCFailure(id: id, error: .invalidRequest("\"method\" must be a string")))
        }
        if method.hasPrefix("rpc.") {
            return .failure(RPCFailure(id: id, error: RPCError(code: .methodNotFound, message: "\"rpc.\" methods are reserved")))
        }
        let params = o["params"]
        if let params, params.objectValue == nil, params.arrayValue == nil {
            return .failure(RPCFailure(id: id, error: .invalidRequest("\"params\" must be an object or an array, got \(params.typeName)")))
        }
        return .success(.request(RPCRequest(id: id, method: method, params: params)))
    }
}

/// Writing JSON-RPC messages.
public enum RPCEncoding {
    public static func result(id: RPCID?, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "result": result]
    }

    public static func error(id: RPCID?, _ error: RPCError) -> JSONValue {
        var e: JSONObject = ["code": .int(Int64(error.code.rawValue)), "message": .string(error.message)]
        if let data = error.data { e["data"] = data }
        return ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": .object(e)]
    }

    public static func error(id: RPCID?, _ error: any Error) -> JSONValue {
        Self.error(id: id, error as? RPCError ?? RPCError(code: .internalError, message: "internal error: \(error)"))
    }

    public static func notification(method: String, params: JSONValue?) -> JSONValue {
        var o: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { o["params"] = params }
        return .object(o)
    }

    public static func request(id: RPCID, method: String, params: JSONValue?) -> JSONValue {
        var o: JSONObject = ["jsonrpc": "2.0", "id": id.json, "method": .string(method)]
        if let params { o["params"] = params }
        return .object(o)
    }
}
