// Writing JSON text straight into bytes: the serialiser of every reply and notification.
// It writes exactly what json-c writes for the same value with the flags presentd uses
// (JSONCBuilder, kept as the reference the tests compare against), without building a
// json-c tree and copying its text out: one pass, one buffer.

#if canImport(Glibc)
import Glibc
#endif

/// Appends the compact text of JSON values to a byte buffer.
///
/// The rules are json-c's `JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE`:
/// no whitespace; `"` `\` and the control characters escaped (`\b \f \n \r \t`, the rest
/// as `\u00xx`, lower-case hex); `/`, DEL and non-ASCII text written as they are; integers
/// in decimal; doubles in Swift's shortest round-trip spelling (`0.1`, `1.0`, `1e+16`), a
/// non-finite one as `null`.
public struct JSONWriter {
    /// The text so far is `storage`'s first `length` bytes; the rest is room, allocated and
    /// zeroed ahead. So a write is one capacity check and a copy into place, where
    /// `Array.append(contentsOf:)` costs a uniqueness check, a capacity check and a generic
    /// copy, several times for every member of every reply and frame. Only `grow` lengthens
    /// `storage`; `takeBytes` cuts the room off when it hands the text over.
    private var storage: [UInt8]
    private var length = 0

    /// The text written so far (a copy: `takeBytes()` hands over the writer's own buffer).
    public var bytes: [UInt8] { Array(storage[..<length]) }

    /// An object key held U+0000. json-c cuts such a key at the NUL (it keeps keys as C
    /// strings), which can merge two members: the caller leaves those rare values to
    /// json-c itself, so the text stays what it always was.
    public private(set) var sawKeyWithNUL = false

    /// A writer with room for `capacity` bytes before it first grows.
    public init(capacity: Int = 256) {
        storage = []
        if capacity > 0 { grow(toFit: capacity) }
    }

    /// The text written, in the writer's own buffer (no copy); the writer is empty after.
    public mutating func takeBytes() -> [UInt8] {
        storage.removeLast(storage.count - length)   // the room only: the capacity stays
        length = 0
        var text: [UInt8] = []
        swap(&text, &storage)
        return text
    }

    /// Writes with `body` at the end of `buffer`, in place: a reply goes straight into the
    /// bytes a connection is gathering, with no array of its own and no copy.
    public static func appending(to buffer: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(capacity: 0)
        swap(&writer.storage, &buffer)   // moved, not copied: the buffer stays uniquely referenced
        writer.length = writer.storage.count
        body(&writer)
        precondition(writer.depth == 0, "a container was begun and not ended")
        buffer = writer.takeBytes()
    }

    /// Appends `value`'s text.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): write(atMost: Self.integerCapacity) { Self.put(integer: i, at: $0) }
        case .double(let d): write(atMost: DoubleText.capacity) { Self.put(double: d, at: $0) }
        case .string(let s): write(string: s)
        case .array(let elements):
            put(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { put(UInt8(ascii: ",")) }
                write(element)
            }
            put(UInt8(ascii: "]"))
        case .object(let members):
            put(UInt8(ascii: "{"))
            for i in members.keys.indices {
                if i > 0 { put(UInt8(ascii: ",")) }
                write(string: members.keys[i], isKey: true)
                put(UInt8(ascii: ":"))
                write(members.values[i])
            }
            put(UInt8(ascii: "}"))
        }
    }

    /// Appends `\n`, ending a line of the wire protocol.
    public mutating func endLine() { put(0x0A) }

    // Containers written part by part, for messages made of parts (a reply around a
    // result, a batch of replies, a record whose last member is a line already
    // serialised): no JSONObject or array is built for them. Bit k of `hasParts` says
    // whether the container open at depth k + 1 has a member or element yet (a comma goes
    // before the next), bit k of `isArray` what kind it is; no storage is allocated.
    private var depth = 0
    private var hasParts: UInt64 = 0
    private var isArray: UInt64 = 0

    /// The deepest nesting of containers written part by part.
    public static let maxPartDepth = 64

    /// Opens an object; `member` adds to it, `endObject` closes it.
    public mutating func beginObject() { begin(UInt8(ascii: "{"), array: false) }

    /// Opens an object as the value of the member `key`; `endObject` closes it.
    public mutating func beginObject(member key: JSONKey) { begin(UInt8(ascii: "{"), array: false, member: key) }

    /// Closes the object `beginObject` opened last.
    public mutating func endObject() { end(UInt8(ascii: "}"), array: false) }

    /// Opens an array; `element` adds to it, `endArray` closes it.
    public mutating func beginArray() { begin(UInt8(ascii: "["), array: true) }

    /// Opens an array as the value of the member `key`; `endArray` closes it.
    public mutating func beginArray(member key: JSONKey) { begin(UInt8(ascii: "["), array: true, member: key) }

    /// Closes the array `beginArray` opened last.
    public mutating func endArray() { end(UInt8(ascii: "]"), array: true) }

    /// One member of the object being written.
    public mutating func member(_ key: JSONKey, _ value: JSONValue) {
        memberKey(key)
        write(value)
    }

    // One member with a value of each scalar kind: the key and the value written together
    // (one check for room, one copy of a plain key), with no `JSONValue` made for the value.

    /// One member whose value is a number (`null` when not finite, as `write` has it).
    public mutating func member(_ key: JSONKey, double value: Double) {
        member(key, valueAtMost: DoubleText.capacity) { Self.put(double: value, at: $0) }
    }

    /// One member whose value is an integer.
    public mutating func member(_ key: JSONKey, int value: Int64) {
        member(key, valueAtMost: Self.integerCapacity) { Self.put(integer: value, at: $0) }
    }

    /// One member whose value is `true` or `false`.
    public mutating func member(_ key: JSONKey, bool value: Bool) {
        member(key, valueAtMost: 5) { Self.put(value ? "true" : "false", at: $0) }
    }

    /// One member whose value is a string.
    public mutating func member(_ key: JSONKey, string value: String) {
        memberKey(key)
        write(string: value)
    }

    /// One member whose value is JSON text already (copied as it is: the caller vouches
    /// that it is one valid JSON value).
    public mutating func member(_ key: JSONKey, json text: UnsafeRawBufferPointer) {
        memberKey(key)
        put(text)
    }

    /// One member whose value `body` writes (with `write`, or a container part by part).
    public mutating func member(_ key: JSONKey, writing body: (inout JSONWriter) -> Void) {
        memberKey(key)
        body(&self)
    }

    /// One element of the array being written, which `body` writes.
    public mutating func element(writing body: (inout JSONWriter) -> Void) {
        if separator(array: true) { put(UInt8(ascii: ",")) }
        body(&self)
    }

    /// Opens a container: as the value of the member `key`, if given.
    private mutating func begin(_ bracket: UInt8, array: Bool, member key: JSONKey? = nil) {
        precondition(depth < Self.maxPartDepth, "containers nested deeper than \(Self.maxPartDepth)")
        if let key {
            member(key, valueAtMost: 1) { room in
                room[0] = bracket
                return 1
            }
        } else {
            put(bracket)
        }
        let bit: UInt64 = 1 << UInt64(depth)
        hasParts &= ~bit
        if array { isArray |= bit } else { isArray &= ~bit }
        depth += 1
    }

    private mutating func end(_ bracket: UInt8, array: Bool) {
        precondition(depth > 0 && (isArray >> UInt64(depth - 1)) & 1 == (array ? 1 : 0),
                     array ? "endArray without beginArray" : "endObject without beginObject")
        depth -= 1
        put(bracket)
    }

    /// Counts a part of the innermost open container; whether a comma goes before it
    /// (before every part but the first).
    @inline(__always)
    private mutating func separator(array: Bool) -> Bool {
        precondition(depth > 0 && (isArray >> UInt64(depth - 1)) & 1 == (array ? 1 : 0),
                     array ? "element outside an array" : "member outside an object")
        let bit: UInt64 = 1 << UInt64(depth - 1)
        defer { hasParts |= bit }
        return hasParts & bit != 0
    }

    /// The comma if due, the key and the colon.
    private mutating func memberKey(_ key: JSONKey) {
        member(key, valueAtMost: 0) { _ in 0 }
    }

    /// The comma if due, the key, the colon, and the value `value` writes at the pointer it
    /// is given (at most `valueCount` bytes; it returns how many). A plain key and the value
    /// go in together: one check for room.
    @inline(__always)
    private mutating func member(_ key: JSONKey, valueAtMost valueCount: Int,
                                 _ value: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = separator(array: false)
        switch key.text {
        case .plain(let literal):
            let count = literal.utf8CodeUnitCount
            write(atMost: count + 4 + valueCount) { room in
                var at = 0
                if comma {
                    room[0] = UInt8(ascii: ",")
                    at = 1
                }
                room[at] = UInt8(ascii: "\"")
                (room + at + 1).update(from: literal.utf8Start, count: count)
                room[at + count + 1] = UInt8(ascii: "\"")
                room[at + count + 2] = UInt8(ascii: ":")
                at += count + 3
                return at + value(room + at)
            }
        case .string(let string):
            if comma { put(UInt8(ascii: ",")) }
            write(string: string, isKey: true)
            put(UInt8(ascii: ":"))
            write(atMost: valueCount, value)
        }
    }

    /// Whether a byte of a string is written escaped.
    @inlinable @inline(__always)
    static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }

    // The spellings of numbers and literals, each written at a pointer into room made for
    // it; each returns how many bytes it wrote.

    /// The most bytes an integer takes (`-9223372036854775808`).
    private static var integerCapacity: Int { 20 }

    /// An integer in decimal, digit by digit (`String(i)` would allocate a string for every
    /// id and sequence number).
    @inline(__always)
    private static func put(integer value: Int64, at room: UnsafeMutablePointer<UInt8>) -> Int {
        guard value < 0 else { return put(digitsOf: value.magnitude, at: room) }
        room[0] = UInt8(ascii: "-")
        return 1 + put(digitsOf: value.magnitude, at: room + 1)   // UInt64: Int64.min has no positive Int64
    }

    private static func put(digitsOf magnitude: UInt64, at room: UnsafeMutablePointer<UInt8>) -> Int {
        // The last digit comes first: written backwards, then turned round.
        var magnitude = magnitude, count = 0
        repeat {
            room[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            count += 1
        } while magnitude > 0
        var low = 0, high = count - 1
        while low < high {
            (room[low], room[high]) = (room[high], room[low])
            low += 1
            high -= 1
        }
        return count
    }

    /// A double in Swift's shortest round-trip spelling (`description`'s); `null` when not
    /// finite.
    private static func put(double value: Double, at room: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else { return put("null", at: room) }
        // A whole number below 2^53 is spelled as the integer and ".0" (`390.0`, `-0.0`;
        // larger ones may take an exponent): written so, without the shortest-digits search,
        // which costs far more, and many of a frame's numbers (sizes, positions at rest,
        // scale, rotation) are whole.
        // (Whole when it survives the trip through an integer: `rounded(.towardZero)` is a
        // call to libm's `trunc`.)
        if value.magnitude < 0x1p53, case let whole = Int64(value), Double(whole) == value {
            var count = 0
            if value.sign == .minus {
                room[0] = UInt8(ascii: "-")
                count = 1
            }
            count += put(digitsOf: whole.magnitude, at: room + count)
            return count + put(".0", at: room + count)
        }
        var text = DoubleText(room: room)
        value.write(to: &text)
        return text.count
    }

    @inline(__always)
    private static func put(_ text: StaticString, at room: UnsafeMutablePointer<UInt8>) -> Int {
        room.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return text.utf8CodeUnitCount
    }

    /// A literal's bytes (`null`, `true`, an escape).
    private mutating func append(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A quoted string.
    private mutating func write(string: String, isKey: Bool = false) {
        var s = string
        s.withUTF8 { write(string: $0, isKey: isKey) }
    }

    /// A quoted string, from its UTF-8.
    private mutating func write(string utf8: UnsafeBufferPointer<UInt8>, isKey: Bool = false) {
        // Most strings have nothing to escape: copied between the quotes in one go, as
        // far as the first byte that is escaped.
        var plain = 0
        write(atMost: utf8.count + 2) { room in
            room[0] = UInt8(ascii: "\"")
            while plain < utf8.count, !Self.needsEscape(utf8[plain]) {
                room[1 + plain] = utf8[plain]
                plain += 1
            }
            guard plain == utf8.count else { return 1 + plain }
            room[1 + plain] = UInt8(ascii: "\"")
            return 2 + plain
        }
        guard plain < utf8.count else { return }
        // The rest: runs that need no escape are copied whole.
        var start = plain
        for i in plain..<utf8.count {
            let byte = utf8[i]
            guard Self.needsEscape(byte) else { continue }
            put(UnsafeBufferPointer(rebasing: utf8[start..<i]))
            start = i + 1
            switch byte {
            case 0x22: append("\\\"")
            case 0x5C: append("\\\\")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            default:
                if byte == 0 && isKey { sawKeyWithNUL = true }
                append("\\u00")
                put(Self.hex[Int(byte >> 4)])
                put(Self.hex[Int(byte & 0xF)])
            }
        }
        put(UnsafeBufferPointer(rebasing: utf8[start...]))
        put(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    // MARK: Storage

    /// Makes room for `count` more bytes.
    @inline(__always)
    private mutating func reserve(_ count: Int) {
        if storage.count - length < count { grow(toFit: count) }
    }

    /// At least doubles the room (so writing n bytes costs O(n) in all), within the
    /// capacity the array already has when that is enough (the loop's gather buffer).
    @inline(never)
    private mutating func grow(toFit count: Int) {
        let wanted = Swift.max(length + count, 2 * storage.count, 256)
        // The room is zeroed in place, by memset: a zero source to copy from would be a
        // buffer kept for the process's life, and zeros appended one by one are slow
        // unoptimised, which is how the tests build the daemon.
        storage.append(addingCapacity: wanted - storage.count) { room in
            room.withUnsafeMutableBufferPointer { bytes, initialized in
                if let start = bytes.baseAddress { memset(start, 0, bytes.count) }
                initialized = bytes.count
            }
        }
    }

    /// Writes at most `count` bytes with `body`, straight into the room they take; `body`
    /// returns how many it wrote.
    @inline(__always)
    private mutating func write(atMost count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(count)
        let at = length
        let written = storage.withUnsafeMutableBufferPointer { body($0.baseAddress! + at) }
        precondition(written <= count, "wrote more than the room made for it")
        length = at + written
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        write(atMost: 1) { room in
            room[0] = byte
            return 1
        }
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        write(atMost: bytes.count) { room in
            UnsafeMutableRawPointer(room).copyMemory(from: from, byteCount: bytes.count)
            return bytes.count
        }
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        put(UnsafeRawBufferPointer(bytes))
    }
}

/// A double's text as the standard library spells it (`Double.write(to:)` hands it over
/// as ASCII), straight into the writer's room: `description` makes a String, which is on
/// the heap when longer than 15 bytes, as most fractions are.
private struct DoubleText: TextOutputStream {
    /// The room a double's text is given; the longest spelling has 24 bytes
    /// (`-2.2250738585072014e-308`).
    static var capacity: Int { 32 }

    let room: UnsafeMutablePointer<UInt8>
    var count = 0

    init(room: UnsafeMutablePointer<UInt8>) { self.room = room }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(buffer)) }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= Self.capacity, "a double's text is longer than \(Self.capacity) bytes")
        UnsafeMutableRawPointer(room + count).copyMemory(from: from, byteCount: bytes.count)
        count += bytes.count
    }
}
