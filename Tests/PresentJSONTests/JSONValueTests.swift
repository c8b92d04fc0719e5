import Testing
import PresentJSON

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test func accessors() {
        let value: JSONValue = ["s": "x", "b": true, "i": 3, "d": 2.5, "a": [1], "o": ["k": nil], "n": nil]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["b"]?.boolValue == true)
        #expect(value["i"]?.int64Value == 3)
        #expect(value["i"]?.doubleValue == 3)
        #expect(value["d"]?.doubleValue == 2.5)
        #expect(value["d"]?.int64Value == nil)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue?.keys == ["k"])
        #expect(value["n"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("x")["s"] == nil)
        #expect(value["s"]?.boolValue == nil)
    }

    @Test func typeNames() {
        let values: [JSONValue] = [nil, true, 1, 1.5, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "boolean", "integer", "number", "string", "array", "object"])
    }

    @Test func objectIsAnOrderedMap() {
        var object = JSONObject([("b", 1), ("a", 2)])
        object["c"] = 3
        object["b"] = 10
        #expect(object.keys == ["b", "a", "c"])
        #expect(object.values == [10, 2, 3])
        #expect(object.map(\.key) == ["b", "a", "c"])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(object.count == 2)
        #expect(object["a"] == nil)
    }

    @Test func repeatedLiteralKeysKeepFirstPositionLastValue() {
        let object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
    }

    @Test func largeObjectsStayConsistentAcrossTheIndexThreshold() {
        var object = JSONObject()
        for i in 0..<40 { object["k\(i)"] = .int(Int64(i)) }
        #expect(object.count == 40)
        #expect(object["k0"] == 0 && object["k39"] == 39)
        object["k5"] = nil
        object["k6"] = 600
        #expect(object["k5"] == nil && object["k6"] == 600 && object["k39"] == 39)
        #expect(object.keys.first(where: { $0 == "k5" }) == nil)
        object["new"] = true
        #expect(object.keys.last == "new" && object["new"] == true)
    }

    @Test func equalityIsOrderSensitive() {
        let ab: JSONObject = ["a": 1, "b": 2]
        let ba: JSONObject = ["b": 2, "a": 1]
        #expect(ab != ba)
        #expect(ab == JSONObject([("a", 1), ("b", 2)]))
        var grown = JSONObject()
        for i in 0..<20 { grown["k\(i)"] = 1 }
        var built = JSONObject()
        for i in 0..<20 { built["k\(i)"] = 1 }
        #expect(grown == built && grown.hashValue == built.hashValue)
    }

    @Test func descriptionIsCompactJSON() {
        let value: JSONValue = ["a": [1, "b/c"]]
        #expect(value.description == #"{"a":[1,"b/c"]}"#)
        #expect("\(value.objectValue!)" == #"{"a":[1,"b/c"]}"#)
    }
}
