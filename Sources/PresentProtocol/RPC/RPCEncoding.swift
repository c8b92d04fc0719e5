import PresentJSON

/// Builds JSON-RPC 2.0 messages. Members are written in a fixed order (`jsonrpc`, `id`,
/// then the rest) so traffic reads the same every time.
public enum RPCEncoding {
    /// A successful response.
    public static func result(id: RPCID, _ result: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id.json, "result": result]
    }

    /// An error response; `id` is nil (written as `null`) when the request's id could not
    /// be read, as JSON-RPC requires.
    public static func error(id: RPCID?, _ error: RPCError) -> JSONValue {
        ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
    }

    /// A notification (no id, no reply expected); `params` is omitted when nil.
    public static func notification(method: String, params: JSONValue? = nil) -> JSONValue {
        var object: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { object["params"] = params }
        return .object(object)
    }

    /// A request expecting a response with the same `id`; `params` is omitted when nil.
    public static func request(id: RPCID, method: String, params: JSONValue? = nil) -> JSONValue {
        var object: JSONObject = ["jsonrpc": "2.0", "id": id.json, "method": .string(method)]
        if let params { object["params"] = params }
        return .object(object)
    }

    /// `request` as a request (with id) or a notification (without).
    public static func encode(_ request: RPCRequest) -> JSONValue {
        if let id = request.id {
            return self.request(id: id, method: request.method, params: request.params)
        }
        return notification(method: request.method, params: request.params)
    }
}
