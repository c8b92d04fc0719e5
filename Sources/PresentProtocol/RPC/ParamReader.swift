// Typed, validated reading of a params object. Every refusal names the exact field
// (`transition.timing.bezier[1]`) and says why, so a client can fix its request.

import PresentJSON

/// Reads the fields of one JSON object, tracking where it sits in the request.
public struct ParamReader {
    public let object: JSONObject
    /// The object's own path ("" for params itself).
    public let path: String

    /// `value` must be an object (nil = an empty one, for methods whose params are optional).
    public init(_ value: JSONValue?, path: String = "") throws(RPCError) {
        self.path = path
        guard let value else { object = [:]; return }
        guard case .object(let o) = value else {
            throw .invalidParams(field: path.isEmpty ? "params" : path, reason: "expected an object, got \(value.typeName)")
        }
        object = o
    }

    /// The full path of `key`.
    public func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    public func has(_ key: String) -> Bool { object[key] != nil }

    /// Refuses any key not listed: a typo must not be silently ignored.
    public func rejectUnknownKeys(allowed: Set<String>) throws(RPCError) {
        for key in object.keys where !allowed.contains(key) {
            throw .invalidParams(field: field(key), reason: "unknown field")
        }
    }

    // MARK: Required values

    public func value(_ key: String) throws(RPCError) -> JSONValue {
        guard let v = object[key] else { throw .invalidParams(field: field(key), reason: "required") }
        return v
    }

    public func string(_ key: String, maxLength: Int = 256) throws(RPCError) -> String {
        try Self.string(try value(key), field: field(key), maxLength: maxLength)
    }

    public func double(_ key: String, in range: ClosedRange<Double>, unit: String = "") throws(RPCError) -> Double {
        try Self.number(try value(key), field: field(key), in: range, unit: unit)
    }

    public func int(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int {
        let v = try value(key)
        guard case .int(let i) = v else { throw .invalidParams(field: field(key), reason: "expected an integer, got \(v.typeName)") }
        guard i >= Int64(range.lowerBound), i <= Int64(range.upperBound) else {
            throw .invalidParams(field: field(key), reason: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return Int(i)
    }

    public func bool(_ key: String) throws(RPCError) -> Bool {
        let v = try value(key)
        guard case .bool(let b) = v else { throw .invalidParams(field: field(key), reason: "expected a boolean, got \(v.typeName)") }
        return b
    }

    public func choice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type = E.self) throws(RPCError) -> E
    where E.RawValue == String {
        try Self.choice(try value(key), field: field(key))
    }

    public func object(_ key: String) throws(RPCError) -> ParamReader {
        try ParamReader(try value(key), path: field(key))
    }

    public func array(_ key: String, maxCount: Int = 64) throws(RPCError) -> [JSONValue] {
        let v = try value(key)
        guard case .array(let items) = v else { throw .invalidParams(field: field(key), reason: "expected an array, got \(v.typeName)") }
        guard items.count <= maxCount else { throw .invalidParams(field: field(key), reason: "at most \(maxCount) items") }
        return items
    }

    // MARK: Optional values (absent = nil; present but wrong = an error)

    public func optionalString(_ key: String, maxLength: Int = 256) throws(RPCError) -> String? {
        has(key) ? try string(key, maxLength: maxLength) : nil
    }
    public func optionalDouble(_ key: String, in range: ClosedRange<Double>, unit: String = "") throws(RPCError) -> Double? {
        has(key) ? try double(key, in: range, unit: unit) : nil
    }
    public func optionalInt(_ key: String, in range: ClosedRange<Int>) throws(RPCError) -> Int? {
        has(key) ? try int(key, in: range) : nil
    }
    public func optionalBool(_ key: String) throws(RPCError) -> Bool? { has(key) ? try bool(key) : nil }
    public func optionalChoice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type = E.self) throws(RPCError) -> E?
    where E.RawValue == String {
        has(key) ? try choice(key) as E : nil
    }
    public func optionalObject(_ key: String) throws(RPCError) -> ParamReader? { has(key) ? try object(key) : nil }

    // MARK: Checking single values (also for array items)

    public static func string(_ v: JSONValue, field: String, maxLength: Int = 256) throws(RPCError) -> String {
        guard case .string(let s) = v else { throw .invalidParams(field: field, reason: "expected a string, got \(v.typeName)") }
        guard !s.isEmpty, s.count <= maxLength else {
            throw .invalidParams(field: field, reason: "must be 1 to \(maxLength) characters")
        }
        return s
    }

    /// A finite number within `range` (integers are accepted as numbers).
    public static func number(_ v: JSONValue, field: String, in range: ClosedRange<Double>, unit: String = "") throws(RPCError) -> Double {
        guard let d = v.doubleValue, v.isNumber else {
            throw .invalidParams(field: field, reason: "expected a number, got \(v.typeName)")
        }
        guard d.isFinite, range.contains(d) else {
            let suffix = unit.isEmpty ? "" : " \(unit)"
            throw .invalidParams(field: field, reason: "must be between \(format(range.lowerBound)) and \(format(range.upperBound))\(suffix)")
        }
        return d
    }

    public static func choice<E: RawRepresentable & CaseIterable>(_ v: JSONValue, field: String) throws(RPCError) -> E
    where E.RawValue == String {
        guard case .string(let s) = v else {
            throw .invalidParams(field: field, reason: "expected a string, got \(v.typeName)")
        }
        guard let e = E(rawValue: s) else {
            throw .invalidParams(field: field, reason: "must be one of \(E.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return e
    }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}

extension JSONValue {
    var isNumber: Bool {
        switch self {
        case .int, .double: return true
        default: return false
        }
    }
}
