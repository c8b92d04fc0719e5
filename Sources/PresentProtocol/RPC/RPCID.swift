import PresentJSON

/// A JSON-RPC request id: a string, an integer, or null.
///
/// JSON-RPC 2.0 allows a null id ("its use is discouraged"): the request is still a request,
/// not a notification, and its reply carries `"id": null`. It also tolerates fractional ids
/// ("SHOULD NOT"); presentd does not: one does not survive every client's number handling,
/// so it is an invalid request.
public enum RPCID: Hashable, Sendable {
    case string(String)
    case int(Int64)
    case null

    /// The id `value` holds, or nil for any other JSON type (`1.5`, booleans, arrays, objects).
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .int(let i): self = .int(i)
        case .null: self = .null
        default: return nil
        }
    }

    /// The id as it appears on the wire.
    public var json: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        case .null: return .null
        }
    }
}

extension RPCID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}

extension RPCID: CustomStringConvertible {
    /// The id as JSON text (`7`, `"a"`), for logs.
    public var description: String { json.serializedString }
}
