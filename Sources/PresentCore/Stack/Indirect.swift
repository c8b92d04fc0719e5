// A value kept out of line: what the `indirect` keyword does for an enum's case, for a
// stored property of a struct.
//
// Every copy of a struct that the optimiser keeps (a `let e = entries[i]`, a value handed to
// a function, a temporary) takes its whole size of stack, and the stack's pages stay dirty
// once touched. An entry's big parts (its request, its motion, a swipe) live out of line, so a
// copy of an entry is small and shares them until one side changes them.

/// Stores its value in a heap box shared between copies, and copies the box only when a
/// shared one is changed (copy on write), so it behaves as the value stored inline. (As with
/// Array, two copies of one box are equal without comparing: a value holding a NaN equals a
/// copy of itself.)
@propertyWrapper
public struct Indirect<Value> {
    private final class Box {
        // A box is changed only through the one reference to it (see `_modify`), so no two
        // accesses to its value can overlap: the run-time exclusivity check, paid on every
        // read, has nothing to find.
        @exclusivity(unchecked) var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    public var wrappedValue: Value {
        _read { yield box.value }
        // A whole new value needs no copy of the old one first.
        set {
            if isKnownUniquelyReferenced(&box) { box.value = newValue } else { box = Box(newValue) }
        }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
            yield &box.value
        }
    }
}

extension Indirect: Equatable where Value: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.box === b.box || a.box.value == b.box.value
    }
}

extension Indirect: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.value)
    }
}

// A box is only ever changed through a reference no other copy holds (the `_modify` above
// makes it unique first), so copies on different threads never share a changing box: the
// same argument that makes Array Sendable.
extension Indirect: @unchecked Sendable where Value: Sendable {}
