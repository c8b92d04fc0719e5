import PresentJSON

/// The answer to one request: its id and its result or error.
///
/// The daemon writes it straight into the bytes a connection sends (`write(to:)`);
/// `json` is the same message as a value, for batches, tests and clients.
public struct RPCReply: Sendable, Hashable {
    /// nil when the request's id could not be read: JSON-RPC then wants `"id": null`.
    public var id: RPCID?
    public var outcome: Result<JSONValue, RPCError>

    public init(id: RPCID?, _ outcome: Result<JSONValue, RPCError>) {
        self.id = id
        self.outcome = outcome
    }

    /// The message as a value: `jsonrpc`, `id`, then `result` or `error`.
    public var json: JSONValue {
        switch outcome {
        case .success(let result): return ["jsonrpc": "2.0", "id": id?.json ?? .null, "result": result]
        case .failure(let error): return ["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json]
        }
    }

    /// Writes the text of `json` member by member (the same bytes; EncodingTests compare
    /// them): no envelope object is built for the reply of every request.
    public func write(to writer: inout JSONWriter) {
        Self.write(id: id, outcome, to: &writer)
    }

    /// `write(to:)` for a reply not made into an `RPCReply`: the daemon answers nearly
    /// every request this way, with no copy of the result made for the reply.
    public static func write(id: RPCID?, _ outcome: Result<JSONValue, RPCError>, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("jsonrpc", string: "2.0")
        switch id {
        case .int(let number)?: writer.member("id", int: number)
        case .string(let text)?: writer.member("id", string: text)
        case .null?, nil: writer.member("id", .null)
        }
        switch outcome {
        case .success(let result): writer.member("result", result)
        case .failure(let error): writer.member("error", error.json)
        }
        writer.endObject()
    }
}

/// Builds JSON-RPC 2.0 messages. Members are written in a fixed order (`jsonrpc`, `id`,
/// then the rest) so traffic reads the same every time.
public enum RPCEncoding {
    /// A successful response.
    public static func result(id: RPCID, _ result: JSONValue) -> JSONValue {
        RPCReply(id: id, .success(result)).json
    }

    /// An error response; `id` is nil (written as `null`) when the request's id could not
    /// be read, as JSON-RPC requires.
    public static func error(id: RPCID?, _ error: RPCError) -> JSONValue {
        RPCReply(id: id, .failure(error)).json
    }

    /// A notification (no id, no reply expected); `params` is omitted when nil.
    public static func notification(method: String, params: JSONValue? = nil) -> JSONValue {
        var object = JSONObject()
        writeNotificationMembers(method: method, into: &object) { o in if let params { o.member("params", params) } }
        return .object(object)
    }

    /// A notification's members, with the object of its `params` written by `params`.
    public static func writeNotification(method: String, into writer: inout JSONWriter,
                                         params: (inout JSONWriter) -> Void) {
        writer.beginObject()
        writeNotificationMembers(method: method, into: &writer) { $0.member("params", object: params) }
        writer.endObject()
    }

    /// The members of a notification in their order; `params` writes the last, if any.
    private static func writeNotificationMembers<Sink: JSONMemberSink>(method: String, into o: inout Sink,
                                                                       params: (inout Sink) -> Void) {
        o.member("jsonrpc", string: "2.0")
        o.member("method", string: method)
        params(&o)
    }

    /// A request expecting a response with the same `id`; `params` is omitted when nil.
    public static func request(id: RPCID, method: String, params: JSONValue? = nil) -> JSONValue {
        var object = JSONObject()
        writeRequestMembers(id: id, method: method, params: params, into: &object)
        return .object(object)
    }

    /// `request`'s text written straight into `writer`: a client sends a request without an
    /// object built for its envelope.
    public static func writeRequest(id: RPCID, method: String, params: JSONValue? = nil,
                                    into writer: inout JSONWriter) {
        writer.beginObject()
        writeRequestMembers(id: id, method: method, params: params, into: &writer)
        writer.endObject()
    }

    /// `request`'s line of the wire protocol, exactly as `serializedLine()` writes the value:
    /// written straight into bytes, except for params with a key holding U+0000, which json-c
    /// cuts as only json-c can say (`JSONWriter.sawKeyWithNUL`).
    public static func requestLine(id: RPCID, method: String, params: JSONValue? = nil) -> [UInt8] {
        var writer = JSONWriter()
        writeRequest(id: id, method: method, params: params, into: &writer)
        guard !writer.sawKeyWithNUL else { return request(id: id, method: method, params: params).serializedLine() }
        writer.endLine()
        return writer.takeBytes()
    }

    /// The members of a request in their order.
    private static func writeRequestMembers<Sink: JSONMemberSink>(id: RPCID, method: String, params: JSONValue?,
                                                                  into o: inout Sink) {
        o.member("jsonrpc", string: "2.0")
        o.member("id", id.json)
        o.member("method", string: method)
        if let params { o.member("params", params) }
    }

    /// `request` as a request (with id) or a notification (without).
    public static func encode(_ request: RPCRequest) -> JSONValue {
        if let id = request.id {
            return self.request(id: id, method: request.method, params: request.params)
        }
        return notification(method: request.method, params: request.params)
    }
}
