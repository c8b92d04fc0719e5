import PresentJSON

/// A JSON-RPC request id: a string or an integer.
///
/// JSON-RPC 2.0 also tolerates null and fractional ids; presentd does not: a null id cannot
/// be told apart from "unknown" in error replies, and a fractional one does not survive
/// every client's number handling. Both are invalid requests.
public enum RPCID: Hashable, Sendable {
    case string(String)
    case int(Int64)

    /// The id `value` holds, or nil for any other JSON type (including null and `1.5`).
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .int(let i): self = .int(i)
        default: return nil
        }
    }

    /// The id as it appears on the wire.
    public var json: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
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
