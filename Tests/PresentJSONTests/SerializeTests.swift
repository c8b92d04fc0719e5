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
