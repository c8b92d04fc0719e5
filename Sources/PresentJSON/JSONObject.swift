/// A JSON object: string keys mapped to values, kept in insertion order.
///
/// Order matters to people reading protocol traffic and to tests comparing output, so it is
/// preserved through parsing and serialising. Equality is order-sensitive too (the same
/// members in a different order make a different value), which keeps `==` and `hash(into:)`
/// cheap and consistent with each other.
///
/// Lookups scan the keys while the object is small (the common case for protocol messages)
/// and use a dictionary index once it grows, so building small objects allocates no table.
public struct JSONObject: Sendable {
    /// The keys, in insertion order.
    public private(set) var keys: [String] = []
    /// The values, in the same order as `keys`.
    public private(set) var values: [JSONValue] = []
    /// Key → position; only built above `indexThreshold` members.
    private var index: [String: Int]?

    /// Objects up to this size are searched linearly: faster than hashing for a few keys.
    private static let indexThreshold = 12

    /// An empty object.
    public init() {}

    /// An object with `pairs` in order. A repeated key keeps its first position and takes
    /// the last value (json-c's behaviour for duplicate keys in parsed text).
    public init(_ pairs: [(String, JSONValue)]) {
        // Reserving room for none is not free (it takes the arrays' reallocating path), and
        // `[:]` is every empty params and result.
        guard !pairs.isEmpty else { return }
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// An empty object with room for `capacity` members.
    init(minimumCapacity capacity: Int) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { keys.isEmpty }

    /// The value for `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let newValue {
                set(key, newValue)
            } else if let i = position(of: key) {
                remove(at: i)
            }
        }
    }

    /// Sets the member `key` to `value`: a new key is appended, a present one keeps its
    /// place (so a parsed object's repeated key takes the last value at the first place).
    mutating func set(_ key: String, _ value: JSONValue) {
        if let i = position(of: key) {
            values[i] = value
        } else {
            append(key, value)
        }
    }

    /// Appends a member whose key the caller knows is absent (json-c's keys are unique),
    /// skipping the lookup.
    mutating func appendNew(_ key: String, _ value: JSONValue) {
        append(key, value)
    }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    private mutating func append(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
        if index != nil {
            index![key] = keys.count - 1
        } else if keys.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private mutating func remove(at i: Int) {
        keys.remove(at: i)
        values.remove(at: i)
        // Later positions shifted; rebuilding is simpler than patching, and removal is rare.
        if index != nil { rebuildIndex() }
    }

    private mutating func rebuildIndex() {
        var table = [String: Int](minimumCapacity: keys.count)
        for (i, key) in keys.enumerated() { table[key] = i }
        index = table
    }
}

extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}

extension JSONObject: Sequence {
    /// Iterates members in insertion order.
    public struct Iterator: IteratorProtocol {
        private let object: JSONObject
        private var position = 0

        init(_ object: JSONObject) { self.object = object }

        public mutating func next() -> (key: String, value: JSONValue)? {
            guard position < object.keys.count else { return nil }
            defer { position += 1 }
            return (object.keys[position], object.values[position])
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public var underestimatedCount: Int { keys.count }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Keys keep the literal's order; a repeated key keeps its first position and last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The compact JSON text of the object.
    public var description: String { JSONValue.object(self).serializedString }
}
