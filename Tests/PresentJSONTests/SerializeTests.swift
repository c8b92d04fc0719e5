import Testing
import PresentJSON

@Suite("Serialising")
struct SerializeTests {
    @Test(arguments: [
        (JSONValue.null, "null"), (true, "true"), (false, "false"),
        (0, "0"), (-42, "-42"), (.int(.max), "9223372036854775807"), (.int(.min), "-9223372036854775808"),
        (0.1, "0.1"), (1.0, "1.0"), (-0.0, "-0.0"), (2.5e-8, "2.5e-08"), (1e16, "1e+16"),
        (.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"), (.double(.leastNonzeroMagnitude), "5e-324"),
        ("", #""""#), ([], "[]"), ([:], "{}"),
    ] as [(JSONValue, String)])
    func scalars(value: JSONValue, text: String) {
        #expect(value.serializedString == text)
    }

    /// Whole numbers below 2^53 take a shorter path than other doubles: the same text as
    /// json-c's, the reference, on both sides of that bound and of zero.
    @Test func wholeDoublesAreSpelledAsTheReferenceSpellsThem() {
        let wholes: [Double] = [0, -0.0, 1, -1, 390, -844, 4503599627370496, 123456789012345, 1e15,
                                9007199254740991, -9007199254740991, 9007199254740992, 9007199254740994,
                                9999999999999998, -9999999999999998, 1e16, -1e16, 2e16]
        for d in wholes {
            let value = JSONValue.double(d)
            #expect(value.serializedString == String(decoding: value.serializedByJSONC(), as: UTF8.self), "\(d)")
        }
    }

    @Test func nonFiniteDoublesBecomeNull() {
        let value: JSONValue = [.double(.nan), .double(.infinity), .double(-.infinity)]
        #expect(value.serializedString == "[null,null,null]")
    }

    @Test func compactWithUnescapedSlash() {
        let value: JSONValue = ["path": "/run/user/1000/presentd.sock", "list": [1, "a/b", nil]]
        #expect(value.serializedString == #"{"path":"/run/user/1000/presentd.sock","list":[1,"a/b",null]}"#)
    }

    @Test func objectKeysKeepTheirOrder() {
        var object: JSONObject = ["z": 1, "a": 2]
        object["m"] = 3
        object["z"] = 4
        #expect(JSONValue.object(object).serializedString == #"{"z":4,"a":2,"m":3}"#)
    }

    @Test func stringEscapes() {
        let value: JSONValue = "q\" b\\ \u{0} \u{1} \n\t\r\u{8}\u{C} é 😀"
        #expect(value.serializedString == #""q\" b\\ \u0000 \u0001 \n\t\r\b\f é 😀""#)
    }

    @Test func keyWithNULIsCutByJSONC() {
        // Documented limitation: json-c keeps keys as C strings.
        let value: JSONValue = ["a\u{0}b": 1, "a\u{0}c": 2]
        #expect(value.serializedString == #"{"a":2}"#)
    }

    @Test func lineEndsWithOneNewline() {
        let value: JSONValue = ["a": [1, 2]]
        #expect(value.serializedLine() == Array(#"{"a":[1,2]}"#.utf8) + [0x0A])
        #expect(value.serialized().last == UInt8(ascii: "}"))
    }

    static let roundTrips: [JSONValue] = [
        nil, true, 0, -1, .int(.max), .int(.min), 0.1, 1.0, -0.5, 1e300, 1e-300, 123456.789,
        .double(.pi), .double(.leastNonzeroMagnitude), "", "plain", "a/b", "\u{0}\u{1F}\"\\",
        "é 中 😀 \u{2028}", [], [:], [1, [2, [3, [4]]]],
        ["jsonrpc": "2.0", "id": 7, "result": ["frames": [["x": 0.5, "y": -1, "name": "sheet"]]]],
        ["z": 1, "y": ["b": true, "a": false], "x": [nil, [:], []]],
    ]

    @Test(arguments: roundTrips)
    func roundTrip(value: JSONValue) throws {
        #expect(try JSONValue.parse(value.serialized()) == value)
        #expect(try JSONValue.parse(value.serializedString) == value)
    }

    @Test func parsedTextReserialisesCompactly() throws {
        let text = #" { "b" : [ 1 , 2.50 , "\u00e9\/" ] , "a" : { } } "#
        #expect(try JSONValue.parse(text).serializedString == #"{"b":[1,2.5,"é/"],"a":{}}"#)
    }
}

/// The writer against json-c, the reference it replaced: the same bytes for thousands of
/// random values — every kind of scalar, deep nesting, every control character, quotes,
/// backslashes, slashes, DEL, non-ASCII text, awkward doubles — and for every frame-like
/// shape presentd sends.
@Suite("The JSON writer matches json-c")
struct JSONWriterTests {
    /// A small deterministic generator (xorshift64*), so a failure is reproducible.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 2685821657736338717
        }
    }

    static let awkwardDoubles: [Double] = [
        0, -0.0, 0.1, 1, 1e16, 1e-7, 123456789.125, -2.5e-300, 1.7976931348623157e308,
                                           .leastNonzeroMagnitude, 390, 844.0000000000001, .nan, .infinity, -.infinity]
    static let pieces = [
        "a", "é", "😀", "\"", "\\", "/", "\u{7F}", "\u{0}", "\u{1}", "\u{1F}", "\n", "\t", "\r", "\u{8}",
                         "\u{C}", " ", "frame", "\u{2028}", "x\u{0}y"]

    static func randomString(_ g: inout Generator) -> String {
        (0..<Int.random(in: 0...6, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
    }

    static func randomValue(_ g: inout Generator, depth: Int) -> JSONValue {
        switch Int.random(in: 0...(depth > 4 ? 4 : 6), using: &g) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &g))
        case 2: return .int(Int64.random(in: Int64.min...Int64.max, using: &g) >> Int64.random(in: 0...63, using: &g))
        case 3: return .double(Bool.random(using: &g) ? awkwardDoubles.randomElement(using: &g)!
                                                      : Double(bitPattern: g.next()))
        case 4: return .string(randomString(&g))
        case 5: return .array((0..<Int.random(in: 0...4, using: &g)).map { _ in randomValue(&g, depth: depth + 1) })
        default:
            var o = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &g) {
                // Keys without NUL: one with NUL goes to json-c itself (checked below).
                o[String(randomString(&g).map { $0 == "\u{0}" ? "0" : $0 })] = randomValue(&g, depth: depth + 1)
            }
            return .object(o)
        }
    }

    @Test func randomValuesGiveTheSameBytes() {
        var g = Generator(state: 0x9E3779B97F4A7C15)
        for n in 0..<5000 {
            let value = Self.randomValue(&g, depth: 0)
            let ours = value.serialized(), reference = value.serializedByJSONC()
            #expect(
                ours == reference,
                "value \(n): \(String(decoding: ours, as: UTF8.self)) vs \(String(decoding: reference, as: UTF8.self))")
            if ours != reference { return }
        }
    }

    @Test func anObjectWrittenMemberByMemberIsTheObjectSerialised() throws {
        var g = Generator(state: 7)
        for _ in 0..<500 {
            let inner = Self.randomValue(&g, depth: 1)
            let text = inner.serialized()
            var writer = JSONWriter()
            writer.beginObject()
            writer.member("n", .int(1))
            writer.member("a/\"b", inner)
            text.withUnsafeBytes { writer.member("raw", json: $0) }
            writer.endObject()
            let expected: JSONValue = ["n": 1, "a/\"b": inner, "raw": inner]
            #expect(writer.bytes == expected.serialized())
        }
    }

    @Test func integersAtTheEdgesAreWrittenDigitByDigit() {
        for i: Int64 in [0, -1, 1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1, 1_000_000_007] {
            let value = JSONValue.int(i)
            #expect(value.serialized() == value.serializedByJSONC(), "\(i)")
            #expect(value.serializedString == String(i))
        }
    }

    @Test func nestedContainersWrittenPartByPartAreTheValueSerialised() {
        var g = Generator(state: 11)
        for _ in 0..<300 {
            let elements = (0..<Int.random(in: 0...3, using: &g)).map { _ in Self.randomValue(&g, depth: 2) }
            var writer = JSONWriter()
            writer.beginArray()
            for element in elements {
                writer.element { inner in
                    inner.beginObject()
                    inner.member("e", element)
                    inner.member("list", writing: { list in
                        list.beginArray()
                        list.element { $0.write(element) }
                        list.element { $0.write(.int(2)) }
                        list.endArray()
                    })
                    inner.endObject()
                }
            }
            writer.endArray()
            let expected = JSONValue.array(elements.map { ["e": $0, "list": [$0, 2]] })
            #expect(writer.bytes == expected.serialized())
        }
    }

    @Test func appendingWritesAtTheEndOfABufferInPlace() {
        var buffer = Array("{}\n".utf8)
        JSONWriter.appending(to: &buffer) { writer in
            writer.beginObject()
            writer.member("id", .int(-42))
            writer.endObject()
            writer.endLine()
        }
        #expect(String(decoding: buffer, as: UTF8.self) == "{}\n{\"id\":-42}\n")
    }

    @Test func keysAreEscapedWhetherLiteralOrMadeAtRunTime() {
        let names = ["plain", "tab\there", "quote\"", "back\\slash", "\u{1}", "é", ""]
        for name in names {
            var writer = JSONWriter(capacity: 0)
            writer.beginObject()
            writer.member(JSONKey(name), .int(1))
            writer.member("line\nbreak", .int(2))
            writer.endObject()
            let expected: JSONValue = [name: 1, "line\nbreak": 2]
            #expect(writer.takeBytes() == expected.serialized(), "\(name)")
        }
    }

    @Test func theBufferGrowsAsTextIsWrittenAndKeepsWhatWasThere() {
        // From no room at all, and at the end of a buffer with text and spare capacity:
        // every growth keeps the text before it, and the result holds no room.
        let long = JSONValue.array((0..<300).map { .string(String(repeating: "x", count: $0 % 40)) })
        for capacity in [0, 1, 7, 300] {
            var writer = JSONWriter(capacity: capacity)
            writer.write(long)
            #expect(writer.bytes == long.serialized())
            #expect(writer.takeBytes() == long.serialized())
            #expect(writer.takeBytes().isEmpty)
        }
        var buffer = Array("head ".utf8)
        buffer.reserveCapacity(64)
        JSONWriter.appending(to: &buffer) { $0.write(long) }
        #expect(buffer == Array("head ".utf8) + long.serialized())
    }

    @Test func aKeyWithNULIsStillCutAsJSONCCutsIt() {
        var o = JSONObject()
        o["a"] = 1
        o["a\u{0}b"] = 2
        o["c\u{0}"] = 3
        let value = JSONValue.object(o)
        #expect(value.serialized() == value.serializedByJSONC())
        #expect(value.serializedString == #"{"a":2,"c":3}"#)
    }
}
