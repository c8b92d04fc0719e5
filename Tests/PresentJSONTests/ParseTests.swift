#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PresentJSON

/// The error parsing `bytes` throws, or nil if it parses.
func parseFailure(_ bytes: [UInt8], maxDepth: Int = 64) -> JSONParseError? {
    do {
        _ = try JSONValue.parse(bytes, maxDepth: maxDepth)
        return nil
    } catch {
        return error
    }
}

func parseFailure(_ text: String, maxDepth: Int = 64) -> JSONParseError? {
    parseFailure(Array(text.utf8), maxDepth: maxDepth)
}

/// Input json-c (or JSON) must refuse, with the exact error expected.
struct Rejection: Sendable, CustomTestStringConvertible {
    let input: [UInt8]
    let kind: JSONParseError.Kind
    let message: String

    init(_ text: String, _ kind: JSONParseError.Kind, _ message: String) {
        self.init(bytes: Array(text.utf8), kind, message)
    }

    init(bytes: [UInt8], _ kind: JSONParseError.Kind, _ message: String) {
        self.input = bytes
        self.kind = kind
        self.message = message
    }

    var testDescription: String { message }
}

@Suite("Parsing: accepted input")
struct ParseAcceptTests {
    static let cases: [(String, JSONValue)] = [
        ("null", JSONValue.null), ("true", true), ("false", false),
        ("0", 0), ("-0", 0), ("42", 42), ("-7", -7),
        ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ("1.0", .double(1)), ("1e2", .double(100)), ("1E+2", .double(100)), ("2.5e-1", 0.25),
        ("1e-400", .double(0)), ("1.7976931348623157e308", .double(.greatestFiniteMagnitude)),
        ("0.000001e310", .double(1e304)), ("-1.5", -1.5),
        ("\"\"", ""), ("\"abc\"", "abc"), ("[]", []), ("{}", [:]),
        (" \t[1, [2, {\"a\": null}]] \r\n", [1, [2, ["a": nil]]]),
    ]

    @Test(arguments: cases)
    func scalarsAndContainers(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(text) == expected)
    }

    @Test func integersAndDoublesStayDistinct() throws {
        #expect(try JSONValue.parse("1") == .int(1))
        #expect(try JSONValue.parse("1.0") == .double(1))
        #expect(try JSONValue.parse("-0.0").doubleValue?.sign == .minus)
    }

    @Test func objectKeysKeepTheirOrder() throws {
        let value = try JSONValue.parse(#"{"z": 1, "a": 2, "m": 3, "b": 4}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m", "b"])
        #expect(value["m"] == 3)
    }

    @Test func duplicateKeysLastValueWinsAtFirstPosition() throws {
        let value = try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.objectValue?.keys == ["a", "b"])
        #expect(value["a"] == 3)
    }

    @Test func unicodeEscapes() throws {
        #expect(try JSONValue.parse(#""\u00e9\u4e2d""#) == "é中")
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == "😀")
        #expect(try JSONValue.parse(#""\uD83D\uDE00""#) == "😀")
        // An unpaired surrogate escape becomes U+FFFD (json-c's choice).
        #expect(try JSONValue.parse(#""\ud83d""#) == "\u{FFFD}")
        #expect(try JSONValue.parse(#""\ude00x""#) == "\u{FFFD}x")
    }

    @Test func simpleEscapes() throws {
        let value = try JSONValue.parse(#""\"\\\/\b\f\n\r\t""#)
        #expect(value == "\"\\/\u{8}\u{C}\n\r\t")
    }

    @Test func nulInStringsSurvives() throws {
        let value = try JSONValue.parse(#"["\u0000", "a\u0000b"]"#)
        #expect(value == ["\u{0}", "a\u{0}b"])
        #expect(value.arrayValue?[1].stringValue?.utf8.count == 3)
    }

    @Test func rawNonASCIIUTF8IsAccepted() throws {
        #expect(try JSONValue.parse("\"é 中 😀 \u{7F} \u{2028}\"") == "é 中 😀 \u{7F} \u{2028}")
    }

    @Test func nestingUpToTheLimit() throws {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONValue.parse(deep) }
        let objects = String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64)
        #expect(throws: Never.self) { try JSONValue.parse(objects) }
        #expect(try JSONValue.parse("1", maxDepth: 0) == 1)
        #expect(try JSONValue.parse("[[1]]", maxDepth: 2) == [[1]])
    }

    @Test func parsesFromARawBuffer() throws {
        let bytes: [UInt8] = Array(#"xx{"k":[1,2]}yy"#.utf8)
        let value = try bytes.withUnsafeBytes { raw in
            try JSONValue.parse(UnsafeRawBufferPointer(rebasing: raw[2..<13]))
        }
        #expect(value == ["k": [1, 2]])
    }
}

@Suite("Parsing: rejected input")
struct ParseRejectTests {
    static let cases: [Rejection] = [
        Rejection("", .empty, "empty input (no JSON value)"),
        Rejection(" \t\r\n ", .empty, "empty input (no JSON value)"),
        Rejection("NaN", .nonFiniteNumber, "NaN is not valid JSON at byte 0"),
        Rejection("[1, NaN]", .nonFiniteNumber, "NaN is not valid JSON at byte 4"),
        Rejection("[Infinity]", .nonFiniteNumber, "Infinity is not valid JSON at byte 1"),
        Rejection(#"{"a":-Infinity}"#, .nonFiniteNumber, "-Infinity is not valid JSON at byte 5"),
        Rejection("[1e400]", .numberOutOfRange,
                  #"number "1e400" is out of range (overflows a double) at byte 1"#),
        Rejection("-1.5e309", .numberOutOfRange,
                  #"number "-1.5e309" is out of range (overflows a double) at byte 0"#),
        Rejection("[9223372036854775808]", .numberOutOfRange,
                  #"integer "9223372036854775808" is out of range (64-bit signed) at byte 1"#),
        Rejection("-9223372036854775809", .numberOutOfRange,
                  #"integer "-9223372036854775809" is out of range (64-bit signed) at byte 0"#),
        Rejection("[18446744073709551616]", .numberOutOfRange,
                  #"integer "18446744073709551616" is out of range (64-bit signed) at byte 1"#),
        Rejection("[1.]", .invalidNumber, #"invalid number "1." at byte 1"#),
        Rejection("[-01]", .invalidNumber, #"invalid number "-01" at byte 1"#),
        Rejection("[01]", .syntax, "number expected at byte 3"),
        Rejection("[.5]", .syntax, "unexpected character at byte 1"),
        Rejection("{'a': 1}", .singleQuotedString, "single-quoted string (JSON needs double quotes) at byte 1"),
        Rejection("['a']", .singleQuotedString, "single-quoted string (JSON needs double quotes) at byte 1"),
        Rejection(#"{"a": 'b'}"#, .singleQuotedString, "single-quoted string (JSON needs double quotes) at byte 6"),
        Rejection("[\"a\tb\"]", .controlCharacter, "unescaped control character U+0009 in string at byte 3"),
        Rejection("\"line\nbreak\"", .controlCharacter, "unescaped control character U+000A in string at byte 5"),
        Rejection("[\"\u{1F}\"]", .controlCharacter, "unescaped control character U+001F in string at byte 2"),
        Rejection(bytes: Array("[\"a".utf8) + [0] + Array("b\"]".utf8), .controlCharacter, "NUL byte at byte 3"),
        Rejection(bytes: [0x5B, 0x31, 0x5D, 0x00], .controlCharacter, "NUL byte at byte 3"),
        Rejection("[1] x", .trailingData, "unexpected data after the JSON value at byte 4"),
        Rejection("[1][2]", .trailingData, "unexpected data after the JSON value at byte 3"),
        Rejection(#"{"a":1} {"b":2}"#, .trailingData, "unexpected data after the JSON value at byte 8"),
        Rejection("123x", .trailingData, "unexpected data after the JSON value at byte 3"),
        Rejection(#"{"a\u0000b": 1}"#, .unsupportedKey, #"object key containing \u0000 is not supported at byte 1"#),
        Rejection("[1, 2", .unexpectedEnd, "unexpected end of input at byte 5"),
        Rejection(#"{"a": "#, .unexpectedEnd, "unexpected end of input at byte 6"),
        Rejection("tru", .unexpectedEnd, "unexpected end of input at byte 3"),
        Rejection("[1,]", .syntax, "unexpected character at byte 3"),
        Rejection(#"{"a":1,}"#, .syntax, "unexpected character at byte 7"),
        Rejection("[1,\u{0B}2]", .syntax, "unexpected character at byte 3"),
        Rejection("/* c */ [1]", .syntax, "unexpected character at byte 0"),
        Rejection("[nan]", .syntax, "null expected at byte 2"),
        Rejection(#"["\x"]"#, .syntax, "invalid string sequence at byte 3"),
        Rejection(#"{1: 2}"#, .syntax, "quoted object property name expected at byte 1"),
    ]

    @Test(arguments: cases)
    func rejects(_ rejection: Rejection) {
        let error = parseFailure(rejection.input)
        #expect(error?.kind == rejection.kind)
        #expect(error?.message == rejection.message)
    }

    static let utf8Cases: [Rejection] = [
        Rejection(bytes: [0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D], .invalidUTF8, "invalid UTF-8 at byte 3"),
        // Truncated sequence: json-c notices at the quote (byte 5); the report names byte 4.
        Rejection(bytes: [0x5B, 0x22, 0x61, 0x62, 0xC3, 0x22, 0x5D], .invalidUTF8, "invalid UTF-8 at byte 4"),
        // The next three pass json-c's own validation.
        Rejection(bytes: [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, "invalid UTF-8 at byte 1"),        // overlong "/"
        Rejection(bytes: [0x22, 0x78, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, "invalid UTF-8 at byte 2"), // surrogate
        Rejection(bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, "invalid UTF-8 at byte 1"), // > U+10FFFF
        Rejection(bytes: [0x5B, 0x31, 0x2C, 0x80, 0x5D], .invalidUTF8, "invalid UTF-8 at byte 3"),
        // A byte-order mark is valid UTF-8 but not JSON.
        Rejection(bytes: [0xEF, 0xBB, 0xBF, 0x5B, 0x5D], .syntax, "unexpected character at byte 0"),
    ]

    @Test(arguments: utf8Cases)
    func rejectsInvalidUTF8(_ rejection: Rejection) {
        let error = parseFailure(rejection.input)
        #expect(error?.kind == rejection.kind)
        #expect(error?.message == rejection.message)
        #expect(error?.offset != nil)
    }

    @Test func nestingBeyondTheLimit() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        let error = parseFailure(deep)
        #expect(error?.kind == .tooDeep)
        #expect(error?.message == "nesting deeper than 64 at byte 64")
        #expect(parseFailure("[[1]]", maxDepth: 1)?.message == "nesting deeper than 1 at byte 1")
        #expect(parseFailure("[]", maxDepth: 0)?.message == "nesting deeper than 0 at byte 0")
        // json-c alone lets this through (an empty innermost container takes no level there).
        #expect(parseFailure("[[[]]]", maxDepth: 2)?.message == "nesting deeper than 2 at byte 2")
        #expect(parseFailure(#"{"a":{"b":[{}]}}"#, maxDepth: 3)?.message == "nesting deeper than 3 at byte 11")
        #expect(parseFailure(#"["[[[", [["]"]]]"#, maxDepth: 2)?.message == "nesting deeper than 2 at byte 9")
    }

    @Test func veryDeepNestingFailsCleanly() {
        let deep = String(repeating: "[", count: 100_000)
        #expect(parseFailure(deep)?.kind == .tooDeep)
    }

    @Test func hugeNumbersAreRejectedNotSaturated() {
        let long = String(repeating: "9", count: 400)
        let error = parseFailure(long)
        #expect(error?.kind == .numberOutOfRange)
        #expect(error?.message.contains("…") == true)  // the literal is shortened in the message
        #expect(parseFailure("1" + String(repeating: "0", count: 309) + ".0")?.kind == .numberOutOfRange)
        #expect(parseFailure("1e99999999999999999999")?.kind == .numberOutOfRange)
    }
}

/// The parser keeps open arrays and objects on the heap: the deepest nesting allowed parses
/// on a secondary thread with a small stack (512 KiB, as macOS gives them), in a debug build
/// too.
@Suite("Parsing: stack use")
struct ParseStackTests {
    /// Work for a thread of its own; the thread runs it once.
    final class Job: @unchecked Sendable {
        let work: () -> Void
        init(_ work: @escaping () -> Void) { self.work = work }
    }

    /// Runs `work` on a new thread with a stack of `stackSize` bytes and waits for it.
    static func run(stackSize: Int, _ work: @escaping () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(work)).toOpaque()
        let status = pthread_create(&thread, &attributes, { context in
            Unmanaged<Job>.fromOpaque(context!).takeRetainedValue().work()
            return nil
        }, job)
        precondition(status == 0, "pthread_create failed")
        pthread_join(thread, nil)
    }

    @Test func deepestNestingFitsASmallThreadStack() {
        let depth = JSONValue.maxParseDepth
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        // One level more than allowed, which json-c's stack (one level laxer) still enters.
        let tooDeep = String(repeating: "[", count: depth + 1) + "1" + String(repeating: "]", count: depth + 1)
        final class Results: @unchecked Sendable { var values: [Bool] = [] }
        let results = Results()
        Self.run(stackSize: 65536 * 1024) {
            results.values = [arrays, objects].map { (try? JSONValue.parse($0, maxDepth: depth)) != nil }
            results.values.append(parseFailure(tooDeep, maxDepth: depth)?.kind == .tooDeep)
        }
        #expect(results.values == [true, true, true])
    }
}
