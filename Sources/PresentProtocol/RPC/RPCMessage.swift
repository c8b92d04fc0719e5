import PresentJSON

/// A JSON-RPC request or notification, its envelope checked, its params not yet read.
public struct RPCRequest: Sendable, Hashable {
    /// nil for a notification, which must not be answered.
    public var id: RPCID?
    public var method: String
    /// An object or an array, or nil when the member was absent.
    public var params: JSONValue?

    public init(id: RPCID?, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// Whether this is a notification (no id, no reply).
    public var isNotification: Bool { id == nil }
}

/// Why a message was refused, with what is needed to answer it.
public struct RPCEnvelopeError: Error, Sendable, Hashable {
    /// The message's id when it could be read; nil means the reply carries `"id": null`.
    public var id: RPCID?
    public var error: RPCError
    /// True when the message was a well-formed notification (only its method was refused):
    /// JSON-RPC forbids answering it. Malformed messages are always answered.
    public var isNotification: Bool

    public init(id: RPCID?, error: RPCError, isNotification: Bool = false) {
        self.id = id
        self.error = error
        self.isNotification = isNotification
    }

    /// The error response to send, or nil when none may be sent.
    public var answer: RPCReply? {
        isNotification ? nil : RPCReply(id: id, .failure(error))
    }

    /// `answer` as a value.
    public var reply: JSONValue? {
        // `.none`, not `nil`: in a ternary with a JSONValue, `nil` would become JSON null.
        guard let answer else { return .none }
        return answer.json
    }
}

/// One decoded JSON-RPC 2.0 message, as a peer of presentd may send it.
public enum RPCMessage: Sendable, Hashable {
    /// A request (with id) or a notification (without).
    case request(RPCRequest)
    /// A response to a request presentd sent (clients answer `shouldDismiss`). The id is
    /// nil only for an error response whose request could not be read.
    case response(id: RPCID?, result: Result<JSONValue, RPCError>)
    /// A batch: the elements, still undecoded; decode each with `allowBatch: false` and
    /// answer with an array of the non-nil replies (none at all if all were notifications).
    case batch([JSONValue])
}

extension RPCMessage {
    /// Parses and decodes one line; text that is not JSON becomes a parse error (id null).
    public static func parse(_ bytes: UnsafeRawBufferPointer,
                             maxDepth: Int = 64) throws(RPCEnvelopeError) -> RPCMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, maxDepth: maxDepth)
        } catch {
            throw RPCEnvelopeError(id: nil, error: .parseError(error.message))
        }
        return try RPCMessage(decoding: value)
    }

    /// Decodes a parsed message, applying JSON-RPC 2.0's rules:
    /// - an object with `"jsonrpc": "2.0"`; with a string `method` it is a request, without
    ///   one but with `result` or `error` it is a response;
    /// - `id`, when present, is a string, an integer or null (a request with `"id": null` is
    ///   answered with that id; fractional numbers, booleans, arrays and objects are invalid
    ///   and reported with a null id);
    /// - `params`, when present, is an object or an array;
    /// - methods starting with `rpc.` are reserved: method not found, but for those
    ///   MethodTable lists (`rpc.discover`);
    /// - a non-empty array is a batch (only when `allowBatch`; batches do not nest).
    ///
    /// Errors carry the id whenever it could be read.
    public init(decoding value: JSONValue, allowBatch: Bool = true) throws(RPCEnvelopeError) {
        switch value {
        case .object(let object):
            self = try Self.decodeObject(object)
        case .array(let elements) where allowBatch:
            guard !elements.isEmpty else { throw Self.invalid(nil, "empty batch") }
            self = .batch(elements)
        default:
            throw Self.invalid(nil, "expected a request object, got \(value.typeName)")
        }
    }

    private static func invalid(_ id: RPCID?, _ detail: String) -> RPCEnvelopeError {
        RPCEnvelopeError(id: id, error: .invalidRequest(detail))
    }

    /// Where the members JSON-RPC gives a meaning to are in a message's object, found in
    /// one pass over its keys: a lookup by name for each would scan them again, on the
    /// path of every request. Positions, not values: nothing is copied until it is used.
    private struct EnvelopeMembers {
        var jsonrpc: Int?, id: Int?, method: Int?, params: Int?, result: Int?, error: Int?

        init(_ keys: [String]) {
            for i in keys.indices {
                let key = keys[i]
                // The length first: most keys are then told apart without comparing text.
                switch key.utf8.count {
                case 2: if key == "id" { id = i }
                case 5: if key == "error" { error = i }
                case 6:
                    if key == "method" { method = i }
                    else if key == "params" { params = i }
                    else if key == "result" { result = i }
                case 7: if key == "jsonrpc" { jsonrpc = i }
                default: break
                }
            }
        }
    }

    /// The member at `position` (one of `EnvelopeMembers`), if there is one.
    private static func member(_ position: Int?, of object: JSONObject) -> JSONValue? {
        position.map { object.values[$0] }
    }

    private static func decodeObject(_ object: JSONObject) throws(RPCEnvelopeError) -> RPCMessage {
        let members = EnvelopeMembers(object.keys)
        let id = member(members.id, of: object).flatMap(RPCID.init)  // used in errors whenever it is valid
        guard let version = member(members.jsonrpc, of: object) else {
            throw invalid(id, #"missing "jsonrpc": "2.0""#)
        }
        guard case .string("2.0") = version else {
            throw invalid(id, #""jsonrpc" must be "2.0", got \#(version.serializedString)"#)
        }
        if members.method == nil && (members.result != nil || members.error != nil) {
            return try decodeResponse(object, members)
        }
        return .request(try decodeRequest(object, members, id: id))
    }

    // MARK: Requests

    private static func decodeRequest(_ object: JSONObject, _ members: EnvelopeMembers,
                                      id: RPCID?) throws(RPCEnvelopeError) -> RPCRequest {
        if let raw = member(members.id, of: object), id == nil {
            throw invalid(nil, "id must be a string, an integer or null, got \(idTypeName(raw))")
        }
        guard let methodValue = member(members.method, of: object) else {
            throw invalid(id, #"missing "method""#)
        }
        guard case .string(let method) = methodValue else {
            throw invalid(id, "method must be a string, got \(methodValue.typeName)")
        }
        let params = member(members.params, of: object)
        if let params, params.objectValue == nil && params.arrayValue == nil {
            throw invalid(id, "params must be an object or an array, got \(params.typeName)")
        }
        // The first byte alone settles most methods: the generic comparison costs more.
        if method.utf8.first == UInt8(ascii: "r"), method.utf8.starts(with: "rpc.".utf8),
           MethodTable.spec(method) == nil {
            throw RPCEnvelopeError(id: id, error: .methodNotFound(method), isNotification: id == nil)
        }
        return RPCRequest(id: id, method: method, params: params)
    }

    /// "fractional number" reads better than "number" when explaining a refused id.
    private static func idTypeName(_ value: JSONValue) -> String {
        if case .double = value { return "fractional number" }
        return value.typeName
    }

    // MARK: Responses

    private static func decodeResponse(_ object: JSONObject,
                                       _ members: EnvelopeMembers) throws(RPCEnvelopeError) -> RPCMessage {
        guard let idValue = member(members.id, of: object) else { throw invalid(nil, #"a response needs an "id""#) }
        // A response's null id is "unknown" (only an error may have one): nil here.
        let id = RPCID(idValue).flatMap { $0 == .null ? nil : $0 }
        if id == nil && !(idValue.isNull && members.error != nil) {
            throw invalid(nil, "response id must be a string or an integer, got \(idTypeName(idValue))")
        }
        switch (member(members.result, of: object), member(members.error, of: object)) {
        case (let result?, nil):
            return .response(id: id, result: .success(result))
        case (nil, let error?):
            return .response(id: id, result: .failure(try decodeErrorObject(error, id: id)))
        default:
            throw invalid(id, #"a response has "result" or "error", not both"#)
        }
    }

    private static func decodeErrorObject(_ value: JSONValue,
                                          id: RPCID?) throws(RPCEnvelopeError) -> RPCError {
        guard let object = value.objectValue else {
            throw invalid(id, "error must be an object, got \(value.typeName)")
        }
        guard let code = object["code"]?.int64Value, let intCode = Int(exactly: code) else {
            throw invalid(id, "error.code must be an integer, got \(object["code"]?.typeName ?? "nothing")")
        }
        guard let message = object["message"]?.stringValue else {
            throw invalid(id, "error.message must be a string, got \(object["message"]?.typeName ?? "nothing")")
        }
        return RPCError(code: RPCErrorCode(rawValue: intCode), message: message, data: object["data"])
    }
}
