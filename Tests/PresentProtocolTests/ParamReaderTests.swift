import Testing
import PresentJSON
import PresentProtocol

enum Style: String, CaseIterable, Sendable {
    case sheet, fullScreen, popover
}

/// The invalid-params error `body` throws, as (field, reason).
func paramFailure<T>(_ body: () throws -> T) -> (field: String, reason: String)? {
    do {
        _ = try body()
        return nil
    } catch {
        guard let error = error as? RPCError else {
            Issue.record("unexpected \(error)")
            return nil
        }
        #expect(error.code == .invalidParams)
        guard let field = error.data?["field"]?.stringValue, let reason = error.data?["reason"]?.stringValue else {
            return nil
        }
        #expect(error.message == "invalid params: \(field): \(reason)")
        return (field, reason)
    }
}

func reader(_ json: String) throws -> ParamReader {
    try ParamReader(try JSONValue.parse(json))
}

@Suite("ParamReader")
struct ParamReaderTests {
    @Test func missingParamsReadAsEmpty() throws {
        let p = try ParamReader(nil)
        #expect(p.object.isEmpty)
        #expect(try p.optionalString("name") == nil)
        #expect(paramFailure { try p.string("name") }! == ("name", "required"))
    }

    @Test func paramsMustBeAnObject() {
        #expect(paramFailure { try ParamReader([1, 2]) }! == ("params", "expected an object, got array"))
        #expect(paramFailure { try ParamReader("x", path: "content") }!
                == ("content", "expected an object, got string"))
    }

    @Test func nestedPathsInErrors() throws {
        let p = try reader(#"{"transition": {"timing": {"bezier": [0.1, "x", 0.3, 1]}}}"#)
        let failure = paramFailure {
            try p.object("transition").object("timing").doubles("bezier", count: 4...4, range: 0...1)
        }
        #expect(failure! == ("transition.timing.bezier[1]", "expected a number, got string"))
    }

    @Test func arrayOfObjects() throws {
        let p = try reader(#"{"items": [{"id": "a"}, {"id": "b"}, {"name": "c"}]}"#)
        #expect(paramFailure {
            try p.objects("items").map { try $0.string("id") }
        }! == ("items[2].id", "required"))
        #expect(paramFailure {
            try p.array("items") { (v) throws(RPCError) in try v.object().string("id") }
        }! == ("items[2].id", "required"))
        let elements = try p.array("items")
        #expect(elements.map(\.path) == ["items[0]", "items[1]", "items[2]"])
    }

    @Test func doubles() throws {
        let p = try reader(#"{"d": 61, "f": 0.25, "s": "1", "neg": -1, "big": 2}"#)
        #expect(try p.double("f") == 0.25)
        #expect(try p.double("d") == 61)  // integers are numbers too
        #expect(paramFailure { try p.double("d", range: 0...60, unit: "seconds") }!
                == ("d", "must be between 0 and 60 (seconds)"))
        #expect(paramFailure { try p.double("neg", range: 0...Double.infinity) }!
                == ("neg", "must be at least 0"))
        #expect(paramFailure { try p.double("big", range: -Double.infinity...1.5, unit: "points") }!
                == ("big", "must be at most 1.5 (points)"))
        #expect(paramFailure { try p.double("f", range: 0.5...1.5) }!
                == ("f", "must be between 0.5 and 1.5"))
        #expect(paramFailure { try p.double("s") }! == ("s", "expected a number, got string"))
        #expect(try p.optionalDouble("missing") == nil)
        #expect(try p.optionalDouble("f", range: 0...1) == 0.25)
    }

    @Test func nonFiniteDoublesFromCode() throws {
        let p = try ParamReader(["x": .double(.nan)])
        #expect(paramFailure { try p.double("x") }! == ("x", "must be a finite number"))
    }

    @Test func integers() throws {
        let p = try reader(#"{"n": 3, "whole": 4.0, "frac": 2.5, "s": "3", "big": 100}"#)
        #expect(try p.int("n") == 3)
        #expect(try p.int("whole") == 4)
        #expect(paramFailure { try p.int("frac") }! == ("frac", "expected an integer, got number"))
        #expect(paramFailure { try p.int("s") }! == ("s", "expected an integer, got string"))
        #expect(paramFailure { try p.int("big", range: 1...64, unit: "entries") }!
                == ("big", "must be between 1 and 64 (entries)"))
        #expect(paramFailure { try p.int("n", range: 5...Int.max) }! == ("n", "must be at least 5"))
        #expect(try p.optionalInt("missing") == nil)
    }

    @Test func booleans() throws {
        let p = try reader(#"{"t": true, "n": null, "i": 1}"#)
        #expect(try p.bool("t"))
        #expect(try p.optionalBool("n") == nil)  // null reads as absent
        #expect(try p.optionalBool("missing") == nil)
        #expect(paramFailure { try p.bool("i") }! == ("i", "expected a boolean, got integer"))
        #expect(paramFailure { try p.bool("n") }! == ("n", "expected a boolean, got null"))
    }

    @Test func strings() throws {
        let p = try reader(#"{"s": "héllo", "i": 1}"#)
        #expect(try p.string("s") == "héllo")
        #expect(paramFailure { try p.string("s", maxBytes: 4) }!
                == ("s", "must be at most 4 bytes long, got 6"))
        #expect(paramFailure { try p.optionalString("i") }! == ("i", "expected a string, got integer"))
    }

    @Test func enums() throws {
        let p = try reader(#"{"style": "popover", "bad": "card", "num": 2}"#)
        #expect(try p.enumValue("style", as: Style.self) == .popover)
        let style: Style? = try p.optionalEnumValue("missing")
        #expect(style == nil)
        #expect(paramFailure { try p.enumValue("bad", as: Style.self) }!
                == ("bad", #"expected one of "sheet", "fullScreen", "popover", got "card""#))
        #expect(paramFailure { try p.enumValue("num", as: Style.self) }!
                == ("num", "expected a string, got integer"))
    }

    @Test func objects() throws {
        let p = try reader(#"{"size": {"width": 3}, "n": 1}"#)
        let size = try p.object("size")
        #expect(size.path == "size")
        #expect(try size.double("width") == 3)
        #expect(paramFailure { try size.double("height") }! == ("size.height", "required"))
        #expect(paramFailure { try p.object("n") }! == ("n", "expected an object, got integer"))
        #expect(try p.optionalObject("missing") == nil)
    }

    @Test func arrayCounts() throws {
        let p = try reader(#"{"three": [1, 2, 3], "none": [], "obj": {}}"#)
        #expect(paramFailure { try p.array("three", count: 4...4) }!
                == ("three", "expected 4 elements, got 3"))
        #expect(paramFailure { try p.array("none", count: 1...16) }!
                == ("none", "expected between 1 and 16 elements, got 0"))
        #expect(paramFailure { try p.array("none", count: 1...Int.max) }!
                == ("none", "expected at least 1 element, got 0"))
        #expect(paramFailure { try p.array("obj") }! == ("obj", "expected an array, got object"))
        #expect(try p.array("three") { (v) throws(RPCError) in try v.int() } == [1, 2, 3])
        #expect(try p.optionalArray("missing") { (v) throws(RPCError) in try v.int() } == nil)
        #expect(try p.doubles("three", range: 0...3) == [1, 2, 3])
        #expect(paramFailure { try p.doubles("three", range: 0...2) }! == ("three[2]", "must be between 0 and 2"))
        #expect(paramFailure { try p.strings("three") }! == ("three[0]", "expected a string, got integer"))
        #expect(paramFailure { try p.objects("three") }! == ("three[0]", "expected an object, got integer"))
    }

    @Test func unknownKeys() throws {
        let p = try reader(#"{"style": "sheet", "transition": {"duration": 1, "curve": "ease"}, "extra": 1}"#)
        #expect(paramFailure { try p.rejectUnknownKeys(allowed: ["style", "transition"]) }!
                == ("extra", "unknown field"))
        let transition = try p.object("transition")
        #expect(paramFailure { try transition.rejectUnknownKeys(allowed: ["duration"]) }!
                == ("transition.curve", "unknown field"))
        #expect(throws: Never.self) { try transition.rejectUnknownKeys(allowed: ["duration", "curve"]) }
    }

    @Test func rawAccessAndCustomChecks() throws {
        let p = try reader(#"{"a": null, "b": [1]}"#)
        #expect(p.contains("a") && !p.contains("c"))
        #expect(p.value("a") == .null)
        #expect(p.value("c") == nil)
        #expect(p.optionalField("a") == nil)
        #expect(try p.field("b").value == [1])
        let custom = p.invalid("b", "must not be empty")
        #expect(custom.message == "invalid params: b: must not be empty")
        #expect(try p.field("b").invalid("odd").data?["field"] == "b")
    }

    /// How a method decoder reads with it.
    struct PresentParams {
        var style: Style
        var duration: Double
        var bezier: [Double]?
        var modal: Bool

        init(_ params: JSONValue?) throws(RPCError) {
            let p = try ParamReader(params)
            try p.rejectUnknownKeys(allowed: ["style", "transition", "modal"])
            style = try p.enumValue("style")
            let transition = try p.object("transition")
            try transition.rejectUnknownKeys(allowed: ["duration", "bezier"])
            duration = try transition.double("duration", range: 0...60, unit: "seconds")
            bezier = transition.contains("bezier")
                ? try transition.doubles("bezier", count: 4...4, range: -2...2) : nil
            modal = try p.optionalBool("modal") ?? true
        }
    }

    @Test func aMethodDecoder() throws {
        let ok = try PresentParams(try JSONValue.parse(
            #"{"style": "sheet", "transition": {"duration": 0.35, "bezier": [0.25, 0.1, 0.25, 1]}}"#))
        #expect(ok.style == .sheet && ok.duration == 0.35 && ok.bezier == [0.25, 0.1, 0.25, 1] && ok.modal)
        let bad = try JSONValue.parse(#"{"style": "sheet", "transition": {"duration": 90}}"#)
        #expect(paramFailure { try PresentParams(bad) }!
                == ("transition.duration", "must be between 0 and 60 (seconds)"))
    }
}
