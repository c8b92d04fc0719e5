// One definition of an object written against JSONMemberSink gives the same text whether
// it builds a JSONObject (then serialised) or writes straight through JSONWriter: every
// typed member, every spelling of its value, with keys that need escaping or not.

import Testing
import PresentJSON

@Suite("Members written typed")
struct MemberSinkTests {
    static let doubles: [Double] = [0, -0.0, 1, -1, 390, 0.1, 0.1 + 0.2, -844.5, 2.5e-8, 1e15, 9007199254740991,
                                    9007199254740992, 1e16, -2e16, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                                    -.leastNormalMagnitude, .infinity, -.infinity, .nan]
    static let ints: [Int64] = [0, 7, -1, 10, 99, 100, 1_000_003, .max, .min, .min + 1]
    static let strings = ["", "p1", "dimming", "#000000", "quote\"", "back\\slash", "tab\there", "\u{1}", "é ü 日本",
                          "a long string without anything to escape in it at all", "mixed \"x\"\n\u{1f}/end"]

    /// Every typed member, under literal keys plain and not, and keys made at run time; an
    /// object and an array opened as members' values.
    static func write<Sink: JSONMemberSink>(into o: inout Sink, runTimeKey: String) {
        for (i, d) in doubles.enumerated() { o.member(JSONKey("d\(i)"), double: d) }
        for (i, n) in ints.enumerated() { o.member(JSONKey("i\(i)"), int: n) }
        for (i, s) in strings.enumerated() { o.member(JSONKey("s\(i)"), string: s) }
        o.member("yes", bool: true)
        o.member("no", bool: false)
        o.member("alpha", double: 0.25)
        o.member("line\nbreak", double: 2)
        o.member("quote\"d", int: -3)
        o.member("back\\slash", bool: true)
        o.member("tab\there", string: "tab\there")
        o.member("é", string: "é")
        o.member("x", int: 1)
        o.member(JSONKey(runTimeKey), string: runTimeKey)
        o.member("frame", object: { o in
            o.member("x", double: 1.5)
            o.member("y\u{1}", double: -0.0)
        })
        o.member("empty", object: { _ in })
        o.member("li\"st", objectsFor: [1, 2]) { n, o in o.member("n", int: n) }
        o.member("none", objectsFor: [Int64]()) { n, o in o.member("n", int: n) }
        o.member("last", string: "")
    }

    @Test(arguments: ["plain", "", "quote\"", "line\nfeed", "\u{7f}/é"])   // none a key `write` uses: each member once
    func theWriterWritesWhatTheObjectSerialises(runTimeKey: String) {
        var object = JSONObject()
        Self.write(into: &object, runTimeKey: runTimeKey)
        var writer = JSONWriter(capacity: 0)   // grows on the way: every reservation is checked
        writer.beginObject()
        Self.write(into: &writer, runTimeKey: runTimeKey)
        writer.endObject()
        let written = writer.takeBytes()
        #expect(String(decoding: written, as: UTF8.self) == JSONValue.object(object).serializedString)
        #expect(written == JSONValue.object(object).serializedByJSONC(), "the reference's text")
    }

    @Test func typedMembersMakeTheValuesTheyName() {
        var object = JSONObject()
        object.member("d", double: 1)
        object.member("i", int: 1)
        object.member("b", bool: true)
        object.member("s", string: "1")
        #expect(object == ["d": .double(1), "i": .int(1), "b": true, "s": "1"])
    }

    @Test func aLiteralKeyIsEscapedAsTheSameKeyMadeAtRunTime() {
        // A literal with a byte to escape, and each escaped byte where a plain key's copy
        // would let it through.
        func text(_ body: (inout JSONWriter) -> Void) -> String {
            var writer = JSONWriter()
            writer.beginObject()
            body(&writer)
            writer.endObject()
            return String(decoding: writer.takeBytes(), as: UTF8.self)
        }
        #expect(text { $0.member("a\"b", int: 1) } == text { $0.member(JSONKey("a\"b"), int: 1) })
        #expect(text { $0.member("a\"b", int: 1) } == #"{"a\"b":1}"#)
        #expect(text { $0.member("\\", double: 1) } == #"{"\\":1.0}"#)
        #expect(text { $0.member("\u{1f}", bool: false) } == #"{"\u001f":false}"#)
        #expect(text { $0.member("\n", string: "v") } == #"{"\n":"v"}"#)
        #expect(text { $0.beginObject(member: "o\""); $0.endObject() } == #"{"o\"":{}}"#)
        #expect(text { $0.beginArray(member: "a\t"); $0.endArray() } == #"{"a\t":[]}"#)
    }
}
