// The Swift value every JSON document becomes. json-c trees never escape this module: the
// reference parser (parseWithJSONC) converts them into `JSONValue` and frees them, and
// serialising builds one briefly for a key with a NUL.

/// A JSON value.
///
/// Integers and fractional numbers are kept apart (`int` / `double`) because JSON-RPC ids
/// and many parameters must be integers, and json-c itself distinguishes them: `1` parses
/// as `.int(1)`, `1.0` and `1e0` as `.double(1)`.
///
/// Beware of `ExpressibleByNilLiteral` with optionals: `cond ? nil : someJSONValue` has type
/// `JSONValue`, so its `nil` is JSON `null`, not a missing value. Write `.none` (or use
/// `if`/`guard`) where "absent" is meant; `x == nil` on a `JSONValue?` does test absence.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

// MARK: - Accessors

extension JSONValue {
    /// The member named `key` if this is an object that has it; `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The integer, if this is an integer (a fractional-form number such as `2.0` is not).
    public var int64Value: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    /// The number as a `Double`, if this is an integer or a fractional number.
    /// Integers beyond 2^53 are rounded to the nearest representable double.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The name of this value's type as error messages show it:
    /// "null", "boolean", "integer", "number", "string", "array" or "object".
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .int(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Keys keep the literal's order; a repeated key keeps its first position and last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text (what `serializedString` returns).
    public var description: String { serializedString }
}
