/// The arrays and objects a `JSONTextReader` has entered and not yet closed. The innermost
/// one is kept apart from those around it, so that a single level of nesting (a protocol
/// message) allocates no stack, and so that it grows in place.
struct OpenContainers {
    /// An array or object not yet closed.
    private struct Container {
        /// Whether this is an object, whose members are in `members` (else in `elements`).
        let isObject: Bool
        /// An array's elements so far.
        var elements: [JSONValue] = []
        /// An object's members so far.
        var members = JSONObject()
        /// The key of the object member being read.
        var key = ""
    }

    /// The innermost container, if any.
    private var innermost: Container?
    /// The containers around it, outermost first.
    private var outer: [Container] = []

    /// How many containers are open.
    var count: Int { outer.count + (innermost == nil ? 0 : 1) }

    /// Whether none is.
    var isEmpty: Bool { innermost == nil }

    /// Whether the innermost one is an object. Only when one is open.
    var innermostIsObject: Bool { innermost!.isObject }

    /// Opens an array.
    mutating func pushArray() {
        push(Container(isObject: false))
    }

    /// Opens an object whose first member has `key`.
    mutating func pushObject(key: String) {
        // Room for a protocol object's members: grown one at a time, its arrays would be
        // reallocated at almost every member.
        push(Container(isObject: true, members: JSONObject(minimumCapacity: 8), key: key))
    }

    private mutating func push(_ container: Container) {
        if let current = innermost.take() { outer.append(current) }
        innermost = container
    }

    /// Adds a member's value to the innermost container (under the current key for an
    /// object: a repeated key takes the last value and keeps the first place).
    mutating func add(_ value: JSONValue) {
        if innermost!.isObject {
            let key = innermost!.key
            innermost!.members.set(key, value)
        } else {
            innermost!.elements.append(value)
        }
    }

    /// Sets the key of the innermost object's next member.
    mutating func setKey(_ key: String) {
        innermost!.key = key
    }

    /// Closes the innermost container; its value.
    mutating func pop() -> JSONValue {
        let closed = innermost.take()!
        innermost = outer.popLast()
        return closed.isObject ? .object(closed.members) : .array(closed.elements)
    }
}
