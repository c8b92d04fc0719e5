import PresentJSON

/// Reads a method's params object field by field, with types, ranges and the full field
/// path in every error, so a decoder reads like the schema it enforces:
///
/// ```swift
/// let p = try ParamReader(request.params)
/// try p.rejectUnknownKeys(allowed: ["style", "transition"])
/// let style = try p.enumValue("style", as: Style.self)
/// let timing = try p.object("transition").object("timing")
/// let bezier = try timing.doubles("bezier", count: 4...4, range: -2...2)
/// // a bad element fails as: invalid params: transition.timing.bezier[1]: expected a number, got string
/// for item in try p.objects("items", count: 1...16) { … try item.string("id") … }  // items[2].id
/// ```
///
/// Conventions: a missing required field fails with "required"; optional readers return
/// nil for a missing field *and* for an explicit `null`; every failure is
/// `RPCError.invalidParams(field:reason:)`.
public struct ParamReader: Sendable {
    /// This object's own path ("" for the params object itself).
    public let path: String
    /// The members being read.
    public let object: JSONObject

    /// A reader over `params`: nil (params omitted) reads as an empty object; anything but
    /// an object fails, naming `path` (or "params" at the top).
    public init(_ params: JSONValue?, path: String = "") throws(RPCError) {
        switch params {
        case nil:
            object = [:]
        case .object(let members)?:
            object = members
        case let other?:
            throw .invalidParams(field: path.isEmpty ? "params" : path,
                                 reason: "expected an object, got \(other.typeName)")
        }
        self.path = path
    }

    /// The path of member `key`: `key` at the top, `path.key` below. A key that is not a
    /// plain name (empty, or with dots, brackets, spaces…: only unknown keys can be) is
    /// written as a quoted subscript, `params[""]` or `transition["a.b"]`, so the path
    /// stays unambiguous.
    public func path(for key: String) -> String {
        guard Self.isPlainName(key) else {
            return (path.isEmpty ? "params" : path) + "[" + JSONValue.string(key).serializedString + "]"
        }
        return path.isEmpty ? key : "\(path).\(key)"
    }

    private static func isPlainName(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || ($0 >= 48 && $0 <= 57)
            }
    }

    /// An invalid-params error for member `key`, for checks the typed readers can't express.
    public func invalid(_ key: String, _ reason: String) -> RPCError {
        .invalidParams(field: path(for: key), reason: reason)
    }

    /// Whether member `key` is present (even as null).
    public func contains(_ key: String) -> Bool { object[key] != nil }

    /// The raw member, or nil when absent.
    public func value(_ key: String) -> JSONValue? { object[key] }

    /// Member `key`, which must be present.
    public func field(_ key: String) throws(RPCError) -> ParamValue {
        guard let value = object[key] else { throw invalid(key, "required") }
        return ParamValue(value, path: path(for: key))
    }

    /// Member `key`, or nil when it is absent or null.
    public func optionalField(_ key: String) -> ParamValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return ParamValue(value, path: path(for: key))
    }

    /// Fails on the first member (in message order) whose key is not in `allowed`:
    /// a misspelt optional field must not be silently ignored.
    public func rejectUnknownKeys(allowed: Set<String>) throws(RPCError) {
        try rejectUnknownKeys(allowedBy: allowed.contains)
    }

    /// Fails on the first member (in message order) whose key `isAllowed` refuses.
    public func rejectUnknownKeys(allowedBy isAllowed: (String) -> Bool) throws(RPCError) {
        for key in object.keys where !isAllowed(key) {
            throw invalid(key, "unknown field")
        }
    }
}

// MARK: - Typed members

extension ParamReader {
    public func string(_ key: String, maxBytes: Int? = nil) throws(RPCError) -> String {
        try field(key).string(maxBytes: maxBytes)
    }

    public func optionalString(_ key: String, maxBytes: Int? = nil) throws(RPCError) -> String? {
        try optionalField(key)?.string(maxBytes: maxBytes)
    }

    /// A finite number (integer or fractional), within `range` if given; `unit` is named
    /// in the reason ("must be between 0 and 60 (seconds)").
    public func double(_ key: String, range: ClosedRange<Double>? = nil,
                       unit: String? = nil) throws(RPCError) -> Double {
        try field(key).double(range: range, unit: unit)
    }

    public func optionalDouble(_ key: String, range: ClosedRange<Double>? = nil,
                               unit: String? = nil) throws(RPCError) -> Double? {
        try optionalField(key)?.double(range: range, unit: unit)
    }

    /// An integer, within `range` if given. See `ParamValue.int(range:unit:)`.
    public func int(_ key: String, range: ClosedRange<Int>? = nil,
                    unit: String? = nil) throws(RPCError) -> Int {
        try field(key).int(range: range, unit: unit)
    }

    public func optionalInt(_ key: String, range: ClosedRange<Int>? = nil,
                            unit: String? = nil) throws(RPCError) -> Int? {
        try optionalField(key)?.int(range: range, unit: unit)
    }

    public func bool(_ key: String) throws(RPCError) -> Bool {
        try field(key).bool()
    }

    public func optionalBool(_ key: String) throws(RPCError) -> Bool? {
        try optionalField(key)?.bool()
    }

    /// A string naming one case of `E`; the reason lists the allowed names.
    public func enumValue<E: RawRepresentable<String> & CaseIterable>(
        _ key: String, as type: E.Type = E.self
    ) throws(RPCError) -> E {
        try field(key).enumValue(as: type)
    }

    public func optionalEnumValue<E: RawRepresentable<String> & CaseIterable>(
        _ key: String, as type: E.Type = E.self
    ) throws(RPCError) -> E? {
        try optionalField(key)?.enumValue(as: type)
    }

    /// A nested object, read with its path extended (`transition.timing`).
    public func object(_ key: String) throws(RPCError) -> ParamReader {
        try field(key).object()
    }

    public func optionalObject(_ key: String) throws(RPCError) -> ParamReader? {
        try optionalField(key)?.object()
    }

    /// An array's elements, each with its path (`bezier[2]`); `count` bounds its length.
    public func array(_ key: String, count: ClosedRange<Int>? = nil) throws(RPCError) -> [ParamValue] {
        try field(key).array(count: count)
    }

    /// An array of finite numbers, each within `range` if given.
    public func doubles(_ key: String, count: ClosedRange<Int>? = nil, range: ClosedRange<Double>? = nil,
                        unit: String? = nil) throws(RPCError) -> [Double] {
        var result: [Double] = []
        for element in try array(key, count: count) {
            result.append(try element.double(range: range, unit: unit))
        }
        return result
    }

    /// An array of strings, each at most `maxBytes` long if given.
    public func strings(_ key: String, count: ClosedRange<Int>? = nil,
                        maxBytes: Int? = nil) throws(RPCError) -> [String] {
        var result: [String] = []
        for element in try array(key, count: count) {
            result.append(try element.string(maxBytes: maxBytes))
        }
        return result
    }

    /// An array of objects, each read by its own reader (paths `items[0].id`, …).
    public func objects(_ key: String, count: ClosedRange<Int>? = nil) throws(RPCError) -> [ParamReader] {
        var result: [ParamReader] = []
        for element in try array(key, count: count) {
            result.append(try element.object())
        }
        return result
    }

    /// An array with each element converted by `each`. Swift 6 infers `any Error` for a
    /// throwing closure, so spell the error type:
    /// `try p.array("sizes") { (v) throws(RPCError) in try Size(v.object()) }`.
    public func array<T>(_ key: String, count: ClosedRange<Int>? = nil,
                         each: (ParamValue) throws(RPCError) -> T) throws(RPCError) -> [T] {
        try field(key).array(count: count, each: each)
    }

    public func optionalArray<T>(_ key: String, count: ClosedRange<Int>? = nil,
                                 each: (ParamValue) throws(RPCError) -> T) throws(RPCError) -> [T]? {
        try optionalField(key)?.array(count: count, each: each)
    }
}
