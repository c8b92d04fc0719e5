#if canImport(Glibc)
import Glibc
#endif

// One pass over the text builds the value and finds the error the json-c path
// (JSONCReferenceParser.swift) reports, at the byte it reports it. That path is json-c's
// tokener followed by a lexical check of what json-c accepted, and its errors come in two
// tiers, which this reader keeps apart:
//   - json-c's own (JSONCFailure): the grammar as json-c's state machine sees it, with its
//     texts and the offset where it stopped. The first one ends the parse.
//   - the lexical check's: what json-c accepts but JSON does not (NaN, `1.`, `-01`, numbers
//     out of range, single-quoted keys, raw control characters, overlong or surrogate
//     UTF-8, keys with `\u0000`, nesting past maxDepth). The first one is only noted: a
//     later json-c error, trailing data or a NUL byte anywhere is reported instead.

/// A json-c tokener error, spelt as `json_tokener_error_desc` spells it (the texts of
/// `tooDeep` and `invalidUTF8` are never shown: those errors are reported in other words).
enum JSONCFailure: String {
    case tooDeep = "nesting too deep"
    case unexpected = "unexpected character"
    case null = "null expected"
    case boolean = "boolean expected"
    case number = "number expected"
    case arraySeparator = "array value separator ',' expected"
    case keyName = "quoted object property name expected"
    case keySeparator = "object property name separator ':' expected"
    case valueSeparator = "object value separator ',' expected"
    case string = "invalid string sequence"
    case invalidUTF8 = "invalid utf-8 string"
}

/// The one-pass parser behind `JSONValue.parse`: strict RFC 8259, without recursion (the
/// arrays and objects not yet closed are kept on a heap stack), so nesting up to
/// `maxParseDepth` needs no more thread stack than a scalar does.
struct JSONTextReader {
    /// The whole text.
    private let bytes: UnsafeRawBufferPointer
    /// How many arrays and objects may nest.
    private let maxDepth: Int
    /// The next byte to read.
    private var i = 0
    /// The first problem the lexical check would report, if any (see the top of the file).
    private var noted: JSONParseError?
    /// The string being read, when it has escapes (reused: one allocation per parse).
    private var decoded: [UInt8] = []
    /// Whether the string just read had a `\u0000` escape.
    private var sawNULEscape = false

    /// A reader of the whole of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The value the text holds, or the error json-c's path reports for it.
    mutating func document() throws(JSONParseError) -> JSONValue {
        do {
            let value = try root()
            assert(firstNUL() == nil, "a text with a NUL byte was accepted")
            return value
        } catch {
            // json-c would stop at a NUL as if the text ended there: say what is really wrong.
            throw firstNUL() ?? error
        }
    }

    /// The value, with whitespace around it and nothing else, unless a problem was noted.
    private mutating func root() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard i < bytes.count else { throw JSONParseError(.empty, "empty input (no JSON value)") }
        let value = try value()
        skipWhitespace()
        if i < bytes.count {
            // json-c's UTF-8 check sees a non-ASCII byte before the trailing-data check does.
            if bytes[i] >= 0x80 { throw rejection(.unexpected, at: i) }
            throw .at(i, .trailingData, "unexpected data after the JSON value")
        }
        if let noted { throw noted }
        return value
    }

    // MARK: Bytes

    /// The byte at `i`, or 0 at the end. A real NUL byte reads the same, which is safe: any
    /// text with one is rejected, and `document` then reports the NUL itself.
    private var next: UInt8 {
        i < bytes.count ? bytes[i] : 0
    }

    /// Advances past JSON whitespace.
    private mutating func skipWhitespace() {
        while i < bytes.count && isJSONWhitespace(bytes[i]) { i += 1 }
    }

    /// The error for the first NUL byte in the input, if there is one.
    private func firstNUL() -> JSONParseError? {
        guard let start = bytes.baseAddress, let nul = memchr(start, 0, bytes.count) else { return nil }
        return .at(start.distance(to: UnsafeRawPointer(nul)), .controlCharacter, "NUL byte")
    }

    // MARK: Errors

    /// Notes the lexical check's problem at `offset` unless an earlier one was noted.
    private mutating func note(_ offset: Int, _ kind: JSONParseError.Kind, _ what: String) {
        if noted == nil { noted = .at(offset, kind, what) }
    }

    /// The error json-c's path reports when json-c stops with `failure` at `offset`.
    private func rejection(_ failure: JSONCFailure, at offset: Int) -> JSONParseError {
        // json-c checks UTF-8 bit patterns as it reads each byte, and stopping on or inside a
        // multi-byte sequence turns any error into a UTF-8 one; the message then names the
        // first ill-formed byte of the input, if there is one.
        if failure == .invalidUTF8 || (offset < bytes.count && bytes[offset] >= 0x80) {
            if let bad = UTF8Check.firstInvalidOffset(in: bytes) { return .at(bad, .invalidUTF8, "invalid UTF-8") }
            return .at(offset, .syntax, JSONCFailure.unexpected.rawValue)
        }
        if offset == bytes.count { return .at(offset, .unexpectedEnd, "unexpected end of input") }
        if failure == .tooDeep {
            // json-c, one level laxer, gives up inside a container already noted as too deep.
            guard let noted else { preconditionFailure("json-c's depth limit was reached before maxDepth") }
            return noted
        }
        if bytes[offset] == UInt8(ascii: "'") {
            return .at(offset, .singleQuotedString, "single-quoted string (JSON needs double quotes)")
        }
        return .at(offset, .syntax, failure.rawValue)
    }

    // MARK: Values

    /// The value at `i`. Each pass of the loop starts a value: a scalar is complete at
    /// once, an array or object is entered and its first member started next.
    private mutating func value() throws(JSONParseError) -> JSONValue {
        var open = OpenContainers()
        while true {
            // json-c's stack has room for the members of maxDepth + 1 levels of containers.
            if open.count > maxDepth { throw rejection(.tooDeep, at: i) }
            let value: JSONValue
            switch next {
            case UInt8(ascii: "["):
                if enter(level: open.count, close: UInt8(ascii: "]")) { value = []; break }
                open.pushArray()
                continue
            case UInt8(ascii: "{"):
                if enter(level: open.count, close: UInt8(ascii: "}")) { value = [:]; break }
                open.pushObject(key: try memberKey())
                continue
            default:
                value = try scalar(inContainer: !open.isEmpty)
            }
            if let root = try complete(value, in: &open) { return root }
        }
    }

    /// Adds a complete value to the innermost open container and reads what follows it:
    /// the root value once every container is closed, nil when another member is to come.
    private mutating func complete(_ value: JSONValue,
                                   in open: inout OpenContainers) throws(JSONParseError) -> JSONValue? {
        var value = value
        while !open.isEmpty {
            open.add(value)
            let isObject = open.innermostIsObject
            guard try isLastMember(close: UInt8(ascii: isObject ? "}" : "]"),
                                   else: isObject ? .valueSeparator : .arraySeparator) else {
                if isObject { open.setKey(try memberKey()) }
                return nil
            }
            value = open.pop()
        }
        return value
    }

    /// The string, number or word at `i`; `inContainer` as json-c ends numbers differently
    /// inside an array or object.
    private mutating func scalar(inContainer: Bool) throws(JSONParseError) -> JSONValue {
        switch next {
        case UInt8(ascii: "\""): return .string(try string(quote: UInt8(ascii: "\"")))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number(inContainer: inContainer)
        case UInt8(ascii: "t"): try word("true", else: .boolean); return true
        case UInt8(ascii: "f"): try word("false", else: .boolean); return false
        case UInt8(ascii: "n"): try word("null", else: .null); return nil
        case UInt8(ascii: "T"), UInt8(ascii: "F"): throw rejection(.boolean, at: i)
        case UInt8(ascii: "N"):
            let start = i
            try word("NaN", else: .null)
            note(start, .nonFiniteNumber, "NaN is not valid JSON")
            return .double(.nan)
        case UInt8(ascii: "I"): return try infinity(from: i)
        default: throw rejection(.unexpected, at: i)  // also json-c's strict `i` for Infinity
        }
    }

    /// Reads `text`; json-c reports `failure` at the first byte that differs.
    private mutating func word(_ text: StaticString, else failure: JSONCFailure) throws(JSONParseError) {
        for expected in UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) {
            guard next == expected else { throw rejection(failure, at: i) }
            i += 1
        }
    }

    /// `Infinity` at `i`, or `-Infinity` from `start`: json-c reads them, JSON has neither.
    private mutating func infinity(from start: Int) throws(JSONParseError) -> JSONValue {
        let negative = start < i
        try word("Infinity", else: .unexpected)
        note(start, .nonFiniteNumber, "\(negative ? "-" : "")Infinity is not valid JSON")
        return .double(negative ? -.infinity : .infinity)
    }

    /// Enters the array or object at `i`, noting it if it nests deeper than allowed;
    /// whether it is empty (and so also left, past `close`).
    private mutating func enter(level: Int, close: UInt8) -> Bool {
        if level >= maxDepth { note(i, .tooDeep, "nesting deeper than \(maxDepth)") }
        i += 1
        skipWhitespace()
        guard next == close else { return false }
        i += 1
        return true
    }

    /// Reads what follows a member: whether it was the last one (`close`, now passed) or a
    /// comma came. json-c refuses `close` right after a comma, as in `[1,]`, and reports
    /// `failure` for anything else.
    private mutating func isLastMember(close: UInt8, else failure: JSONCFailure) throws(JSONParseError) -> Bool {
        skipWhitespace()
        switch next {
        case close:
            i += 1
            return true
        case UInt8(ascii: ","):
            i += 1
            skipWhitespace()
            if next == close { throw rejection(.unexpected, at: i) }
            return false
        default:
            throw rejection(failure, at: i)
        }
    }

    /// The key at `i` and the colon after it; leaves `i` at the member's value.
    private mutating func memberKey() throws(JSONParseError) -> String {
        let start = i, quote = next
        switch quote {
        case UInt8(ascii: "\""): break
        case UInt8(ascii: "'"): note(start, .singleQuotedString, "single-quoted string (JSON needs double quotes)")
        default: throw rejection(.keyName, at: i)
        }
        let key = try string(quote: quote)
        if sawNULEscape {
            // json-c keeps keys as C strings and would cut this one short.
            note(start, .unsupportedKey, "object key containing \\u0000 is not supported")
        }
        skipWhitespace()
        guard next == UInt8(ascii: ":") else { throw rejection(.keySeparator, at: i) }
        i += 1
        skipWhitespace()
        return key
    }

    // MARK: Numbers

    /// The number at `i` (or `-Infinity`, which json-c starts reading as one).
    private mutating func number(inContainer: Bool) throws(JSONParseError) -> JSONValue {
        let start = i
        scanNumberToken()
        let literal = JSONNumberLiteral(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
        if inContainer && !endsNumberInContainer(next) { throw rejection(.number, at: i) }
        if i == start + 1 && bytes[start] == UInt8(ascii: "-")
            && (next == UInt8(ascii: "I") || next == UInt8(ascii: "i"))
        {
            return try infinity(from: start)  // a lone `-`: json-c reads on for -Infinity
        }
        guard literal.isConvertibleByJSONC else { throw rejection(.number, at: i) }
        if !literal.isJSONNumber { note(start, .invalidNumber, "invalid number \(literal.quoted)") }
        guard let value = literal.value() else {
            note(start, .numberOutOfRange, literal.isFractional
                ? "number \(literal.quoted) is out of range (overflows a double)"
                : "integer \(literal.quoted) is out of range (64-bit signed)")
            return nil  // never returned: the note rejects the text
        }
        return value
    }

    /// Advances over json-c's number token: digits, a `-` first or right after the point or
    /// exponent mark, a `+` right after those two, one point (not after the exponent mark)
    /// and one exponent mark.
    private mutating func scanNumberToken() {
        var fractional = false, exponent = false, minusAllowed = true, plusAllowed = false
        while true {
            let b = next
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): minusAllowed = false; plusAllowed = false
            case UInt8(ascii: "-") where minusAllowed, UInt8(ascii: "+") where plusAllowed:
                minusAllowed = false; plusAllowed = false
            case UInt8(ascii: ".") where !fractional:
                fractional = true; minusAllowed = true; plusAllowed = true
            case UInt8(ascii: "e") where !exponent, UInt8(ascii: "E") where !exponent:
                fractional = true; exponent = true; minusAllowed = true; plusAllowed = true
            default:
                return
            }
            i += 1
        }
    }

    /// Whether json-c lets a number inside an array or object end before `b` (it refuses
    /// anything else there with "number expected").
    private func endsNumberInContainer(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "/"),
             UInt8(ascii: "I"), UInt8(ascii: "i"):
            return true
        default:
            return isJSONWhitespace(b)
        }
    }

    // MARK: Strings

    /// The string whose opening `quote` is at `i`; leaves `i` past the closing one.
    private mutating func string(quote: UInt8) throws(JSONParseError) -> String {
        i += 1
        var run = i  // the start of the bytes not yet copied into `decoded`
        var escaped = false
        sawNULEscape = false
        // Most strings are plain printable ASCII: a tight loop takes those bytes first.
        while i < bytes.count, case let b = bytes[i], b != quote, b != UInt8(ascii: "\\"), b >= 0x20, b < 0x80 {
            i += 1
        }
        while true {
            let b = next
            if b == quote { break }
            if b == UInt8(ascii: "\\") {
                if !escaped { decoded.removeAll(keepingCapacity: true); escaped = true }
                decoded.append(contentsOf: bytes[run..<i])
                try escape()
                run = i
            } else if b >= 0x80 {
                try utf8Sequence()
            } else if b >= 0x20 {
                i += 1
            } else {
                if i == bytes.count { throw rejection(.string, at: i) }  // the end of input
                note(i, .controlCharacter, "unescaped control character \(codePoint(b)) in string")
                i += 1
            }
        }
        let text: String
        if escaped {
            decoded.append(contentsOf: bytes[run..<i])
            text = String(decoding: decoded, as: UTF8.self)
        } else {
            // Copied in rather than decoded: as exact (ill-formed UTF-8 is repaired either way,
            // and was noted), and cheaper for the short strings of protocol messages.
            let plain = UnsafeRawBufferPointer(rebasing: bytes[run..<i])
            text = String(unsafeUninitializedCapacity: plain.count) { $0.initialize(fromContentsOf: plain) }
        }
        i += 1
        return text
    }

    /// `U+XXXX` for a control character.
    private func codePoint(_ b: UInt8) -> String {
        let hex = String(b, radix: 16, uppercase: true)
        return "U+\(String(repeating: "0", count: 4 - hex.count))\(hex)"
    }

    /// A multi-byte UTF-8 sequence at `i`. json-c checks only the lead and continuation
    /// bit patterns: a sequence that fails them stops json-c, one that passes them but is
    /// still ill-formed (overlong, a surrogate, beyond U+10FFFF) is the lexical check's.
    private mutating func utf8Sequence() throws(JSONParseError) {
        if let length = UTF8Check.sequenceLength(in: bytes, at: i) {
            i += length
            return
        }
        guard let length = UTF8Check.bitPatternLength(in: bytes, at: i) else {
            throw rejection(.invalidUTF8, at: i)
        }
        note(i, .invalidUTF8, "invalid UTF-8")
        i += length
    }

    /// The escape whose backslash is at `i`, appended to `decoded`.
    private mutating func escape() throws(JSONParseError) {
        i += 1
        let replacement: UInt8
        switch next {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): replacement = next
        case UInt8(ascii: "b"): replacement = 0x08
        case UInt8(ascii: "f"): replacement = 0x0C
        case UInt8(ascii: "n"): replacement = 0x0A
        case UInt8(ascii: "r"): replacement = 0x0D
        case UInt8(ascii: "t"): replacement = 0x09
        case UInt8(ascii: "u"):
            i += 1
            return try unicodeEscape()
        default: throw rejection(.string, at: i)
        }
        decoded.append(replacement)
        i += 1
    }

    /// The `\uXXXX` escape whose digits start at `i`, with json-c's surrogate rules: a pair
    /// is one character, and a surrogate without its partner becomes U+FFFD (a high one
    /// followed by another escape gives way to it).
    private mutating func unicodeEscape() throws(JSONParseError) {
        var unit = try hexUnit()
        while (0xD800...0xDBFF).contains(unit) {
            guard next == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "u") else {
                return append(0xFFFD)  // what follows is read as usual
            }
            i += 2
            let low = try hexUnit()
            guard (0xDC00...0xDFFF).contains(low) else {
                append(0xFFFD)
                unit = low
                continue
            }
            return append(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
        }
        append((0xDC00...0xDFFF).contains(unit) ? 0xFFFD : unit)
    }

    /// The four hex digits at `i`, as a UTF-16 code unit.
    private mutating func hexUnit() throws(JSONParseError) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt8
            switch next {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = next - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = next - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = next - UInt8(ascii: "A") + 10
            default: throw rejection(.string, at: i)
            }
            unit = unit << 4 | UInt32(digit)
            i += 1
        }
        return unit
    }

    /// Appends a scalar (never a surrogate) to `decoded` as UTF-8.
    private mutating func append(_ scalar: UInt32) {
        if scalar == 0 { sawNULEscape = true }
        decoded.append(contentsOf: Unicode.Scalar(scalar)!.utf8)
    }
}
