// One encoding, two results: an object's members written against `JSONMemberSink` give a
// `JSONObject` (a value, for tests, snapshots and the documentation) or go straight into
// text through `JSONWriter` (the frame sent to every subscriber at every tick), with the
// same members in the same order, from one definition.

/// Where the members of an object go, in order.
public protocol JSONMemberSink {
    /// One member.
    mutating func member(_ key: JSONKey, _ value: JSONValue)
    // A scalar member is the same as `member(key, .double(value))` and its kin: the writer
    // writes it without making the value first.
    /// One member whose value is a number.
    mutating func member(_ key: JSONKey, double value: Double)
    /// One member whose value is an integer.
    mutating func member(_ key: JSONKey, int value: Int64)
    /// One member whose value is `true` or `false`.
    mutating func member(_ key: JSONKey, bool value: Bool)
    /// One member whose value is a string.
    mutating func member(_ key: JSONKey, string value: String)
    /// One member whose value is an object `body` writes.
    mutating func member(_ key: JSONKey, object body: (inout Self) -> Void)
    /// One member whose value is an array of objects, one for each of `elements`, each
    /// written by `body`.
    mutating func member<Elements: Sequence>(_ key: JSONKey, objectsFor elements: Elements,
                                             _ body: (Elements.Element, inout Self) -> Void)
}

extension JSONObject: JSONMemberSink {
    public mutating func member(_ key: JSONKey, _ value: JSONValue) { self[key.string] = value }
    public mutating func member(_ key: JSONKey, double value: Double) { member(key, .double(value)) }
    public mutating func member(_ key: JSONKey, int value: Int64) { member(key, .int(value)) }
    public mutating func member(_ key: JSONKey, bool value: Bool) { member(key, .bool(value)) }
    public mutating func member(_ key: JSONKey, string value: String) { member(key, .string(value)) }

    public mutating func member(_ key: JSONKey, object body: (inout JSONObject) -> Void) {
        var object = JSONObject()
        body(&object)
        self[key.string] = .object(object)
    }

    // Inlinable, as JSONWriter's below: a caller's sequence is walked specialised either way.
    @inlinable
    public mutating func member<Elements: Sequence>(_ key: JSONKey, objectsFor elements: Elements,
                                                    _ body: (Elements.Element, inout JSONObject) -> Void) {
        self[key.string] = .array(elements.map { element in
            var object = JSONObject()
            body(element, &object)
            return .object(object)
        })
    }
}

extension JSONWriter: JSONMemberSink {
    public mutating func member(_ key: JSONKey, object body: (inout JSONWriter) -> Void) {
        beginObject(member: key)
        body(&self)
        endObject()
    }

    // Inlinable, so that the caller's module specialises it for its sequence. Called across
    // modules unspecialised, it walked a frame's layers through witness tables: each layer
    // copied by its value witness, the array read through a coroutine that allocated, and
    // the runtime asked for associated types at every tick.
    @inlinable
    public mutating func member<Elements: Sequence>(_ key: JSONKey, objectsFor elements: Elements,
                                                    _ body: (Elements.Element, inout JSONWriter) -> Void) {
        beginArray(member: key)
        for element in elements {
            self.element { writer in
                writer.beginObject()
                body(element, &writer)
                writer.endObject()
            }
        }
        endArray()
    }
}
