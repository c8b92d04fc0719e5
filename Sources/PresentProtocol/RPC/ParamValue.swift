import PresentJSON

/// One parameter value and its field path: what `ParamReader` hands out for members and
/// array elements, with the typed conversions that produce precise invalid-params errors.
public struct ParamValue: Sendable {
    public let value: JSONValue
    /// Where the value sits, e.g. `transition.timing.bezier[1]`.
    public let path: String

    public init(_ value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    /// An invalid-params error for this value.
    public func invalid(_ reason: String) -> RPCError {
        .invalidParams(field: path, reason: reason)
    }

    /// "expected a number, got string".
    private func mismatch(_ expected: String) -> RPCError {
        invalid("expected \(expected), got \(value.typeName)")
    }

    /// A string of at most `maxBytes` UTF-8 bytes if given (bytes: what limits memory).
    public func string(maxBytes: Int? = nil) throws(RPCError) -> String {
        guard let s = value.stringValue else { throw mismatch("a string") }
        if let maxBytes, s.utf8.count > maxBytes {
            throw invalid("must be at most \(maxBytes) bytes long, got \(s.utf8.count)")
        }
        return s
    }

    /// A finite number, integer or fractional, within `range` if given.
    public func double(range: ClosedRange<Double>? = nil, unit: String? = nil) throws(RPCError) -> Double {
        guard let d = value.doubleValue else { throw mismatch("a number") }
        guard d.isFinite else { throw invalid("must be a finite number") }  // only from code-built values
        if let range, !range.contains(d) {
            throw invalid(RangeReason.text(RangeReason.bounds(range), unit: unit))
        }
        return d
    }

    /// An integer within `range` if given. A fractional-form number with an integral value
    /// (`3.0`, as some encoders write every number) is accepted; `2.5` is not.
    public func int(range: ClosedRange<Int>? = nil, unit: String? = nil) throws(RPCError) -> Int {
        let i: Int
        switch value {
        case .int(let v):
            i = Int(v)
        case .double(let d) where d.rounded() == d && abs(d) <= 0x1p53:
            i = Int(d)
        default:
            throw mismatch("an integer")
        }
        if let range, !range.contains(i) {
            throw invalid(RangeReason.text(RangeReason.bounds(range), unit: unit))
        }
        return i
    }

    public func bool() throws(RPCError) -> Bool {
        guard let b = value.boolValue else { throw mismatch("a boolean") }
        return b
    }

    /// A string naming a case of `E`; the reason lists every allowed name.
    public func enumValue<E: RawRepresentable<String> & CaseIterable>(
        as type: E.Type = E.self
    ) throws(RPCError) -> E {
        guard let s = value.stringValue else { throw mismatch("a string") }
        guard let result = E(rawValue: s) else {
            let names = E.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw invalid("expected one of \(names), got \(ParamValue.quoted(s))")
        }
        return result
    }

    /// The value as a nested object.
    public func object() throws(RPCError) -> ParamReader {
        guard case .object = value else { throw mismatch("an object") }
        return try ParamReader(value, path: path)
    }

    /// The elements, each with its path (`path[i]`), after checking the count.
    public func array(count: ClosedRange<Int>? = nil) throws(RPCError) -> [ParamValue] {
        guard let elements = value.arrayValue else { throw mismatch("an array") }
        if let count, !count.contains(elements.count) {
            throw invalid(RangeReason.countText(count, actual: elements.count))
        }
        return elements.enumerated().map { ParamValue($1, path: "\(path)[\($0)]") }
    }

    /// The elements converted by `each`, in order; the first failure is thrown.
    public func array<T>(count: ClosedRange<Int>? = nil,
                         each: (ParamValue) throws(RPCError) -> T) throws(RPCError) -> [T] {
        var result: [T] = []
        for element in try array(count: count) {
            result.append(try each(element))
        }
        return result
    }

    /// `s` in quotes, cut short: a reason should not echo a megabyte back.
    static func quoted(_ s: String) -> String {
        s.count > 64 ? "\"\(s.prefix(64))…\"" : "\"\(s)\""
    }
}

/// Reason texts for ranges: "must be between 0 and 60 (seconds)", "must be at least 1".
enum RangeReason {
    /// The bounds as text; an unbounded side (±infinity, ±greatestFiniteMagnitude) is nil.
    static func bounds(_ range: ClosedRange<Double>) -> (String?, String?) {
        let lower = range.lowerBound <= -.greatestFiniteMagnitude ? nil : format(range.lowerBound)
        let upper = range.upperBound >= .greatestFiniteMagnitude ? nil : format(range.upperBound)
        return (lower, upper)
    }

    static func bounds(_ range: ClosedRange<Int>) -> (String?, String?) {
        (range.lowerBound == .min ? nil : String(range.lowerBound),
         range.upperBound == .max ? nil : String(range.upperBound))
    }

    static func text(_ bounds: (String?, String?), unit: String?) -> String {
        let suffix = unit.map { " (\($0))" } ?? ""
        switch bounds {
        case (let lower?, let upper?): return "must be between \(lower) and \(upper)\(suffix)"
        case (let lower?, nil): return "must be at least \(lower)\(suffix)"
        case (nil, let upper?): return "must be at most \(upper)\(suffix)"
        case (nil, nil): return "must be a number\(suffix)"
        }
    }

    static func countText(_ count: ClosedRange<Int>, actual: Int) -> String {
        let expected: String
        if count.lowerBound == count.upperBound {
            expected = elements(count.lowerBound)
        } else if count.upperBound == .max {
            expected = "at least \(elements(count.lowerBound))"
        } else {
            expected = "between \(count.lowerBound) and \(elements(count.upperBound))"
        }
        return "expected \(expected), got \(actual)"
    }

    private static func elements(_ n: Int) -> String {
        n == 1 ? "1 element" : "\(n) elements"
    }

    /// Whole numbers without ".0" (bounds are usually written that way in the schema).
    private static func format(_ d: Double) -> String {
        if d.rounded() == d && abs(d) < 1e15 { return String(Int64(d)) }
        return d.description
    }
}
