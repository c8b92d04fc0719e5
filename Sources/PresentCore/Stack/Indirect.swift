// A value kept out of line: what the `indirect` keyword does for an enum's case, for a
// stored property of a struct.
//
// An `Entry` holds its whole request, its motion and any swipe. Inline, those made it 1.6 KB,
// and every copy of an entry (a `let e = entries[i]`, a value handed to a function, a
// temporary the optimiser keeps) took that much stack: the stack's mutating functions had
// frames of 20–45 KB, and a daemon that once served a `present` kept those pages dirty for
// good. Out of line, an entry is a few hundred bytes, and a copy shares the big parts until
// one side changes them.

/// Stores its value in a heap box shared between copies, and copies the box only when a
/// shared one is changed (copy on write), so it behaves exactly as the value stored inline.
@propertyWrapper
public struct Indirect<Value> {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var box: Box

    public init(wrappedValue: Value) {
        box = Box(wrappedValue)
    }

    public var wrappedValue: Value {
        _read { yield box.value }
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
