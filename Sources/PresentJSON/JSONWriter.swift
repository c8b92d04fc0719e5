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
    /// copy, several times for every member of every reply and frame. Only `grow` lengthens `storage`; `takeBytes` cuts the room off when it hands
    /// the text over.
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
        case .int(let i): write(integer: i)
        case .double(let d): d.isFinite ? write(double: d) : append("null")
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

    /// Closes the object `beginObject` opened last.
    public mutating func endObject() { end(UInt8(ascii: "}"), array: false) }

    /// Opens an array; `element` adds to it, `endArray` closes it.
    public mutating func beginArray() { begin(UInt8(ascii: "["), array: true) }

    /// Closes the array `beginArray` opened last.
    public mutating func endArray() { end(UInt8(ascii: "]"), array: true) }

    /// One member of the object being written.
    public mutating func member(_ key: JSONKey, _ value: JSONValue) {
        memberKey(key)
        write(value)
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
        separate(array: true)
        body(&self)
    }

    private mutating func begin(_ bracket: UInt8, array: Bool) {
        precondition(depth < Self.maxPartDepth, "containers nested deeper than \(Self.maxPartDepth)")
        put(bracket)
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

    /// The comma before every part but the first of the innermost open container.
    private mutating func separate(array: Bool) {
        precondition(depth > 0 && (isArray >> UInt64(depth - 1)) & 1 == (array ? 1 : 0),
                     array ? "element outside an array" : "member outside an object")
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if hasParts & bit != 0 { put(UInt8(ascii: ",")) }
        hasParts |= bit
    }

    private mutating func memberKey(_ key: JSONKey) {
        separate(array: false)
        switch key.text {
        case .literal(let literal) where literal.hasPointerRepresentation:
            let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
            guard !text.contains(where: Self.needsEscape) else { fallthrough }
            let count = text.count
            withRoom(count + 3) { room in
                room[0] = UInt8(ascii: "\"")
                (room.baseAddress! + 1).initialize(from: text.baseAddress!, count: count)
                room[count + 1] = UInt8(ascii: "\"")
                room[count + 2] = UInt8(ascii: ":")
            }
        default:
            write(string: key.string, isKey: true)
            put(UInt8(ascii: ":"))
        }
    }

    /// Whether a byte of a string is written escaped.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }

    /// An integer in decimal, digit by digit into the buffer (`String(i)` would allocate a
    /// string for every id and sequence number).
    private mutating func write(integer value: Int64) {
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude   // UInt64: Int64.min has no positive Int64
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 20 digits at most, in 24 bytes
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[scratch.count - 1 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            put(UnsafeRawBufferPointer(rebasing: scratch[(scratch.count - count)...]))
        }
    }

    /// A finite double in Swift's shortest round-trip spelling (`description`'s).
    private mutating func write(double value: Double) {
        // A whole number below 2^53 is spelled as the integer and ".0" (`390.0`, `-0.0`;
        // larger ones may take an exponent): written so, without the shortest-digits search,
        // which costs far more, and many of a frame's numbers (sizes, positions at rest,
        // scale, rotation) are whole.
        if value.magnitude < 0x1p53, value.rounded(.towardZero) == value {
            if value.sign == .minus { put(UInt8(ascii: "-")) }
            write(integer: Int64(value.magnitude))
            return append(".0")
        }
        var text = DoubleText()
        value.write(to: &text)
        withUnsafeBytes(of: &text.storage) { put(UnsafeRawBufferPointer(rebasing: $0[..<text.count])) }
    }

    /// A literal's bytes (`null`, `true`, an escape).
    private mutating func append(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A quoted string: runs that need no escape are copied whole.
    private mutating func write(string: String, isKey: Bool = false) {
        var s = string
        s.withUTF8 { utf8 in
            reserve(utf8.count + 2)   // the whole string, when nothing in it is escaped
            put(UInt8(ascii: "\""))
            var start = 0
            for i in utf8.indices {
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

    /// Writes `count` bytes with `body`, straight into the room they take.
    @inline(__always)
    private mutating func withRoom(_ count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        reserve(count)
        let at = length
        storage.withUnsafeMutableBufferPointer { body(UnsafeMutableBufferPointer(rebasing: $0[at..<at + count])) }
        length += count
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        reserve(1)
        storage[length] = byte
        length += 1
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        withRoom(bytes.count) { UnsafeMutableRawBufferPointer($0).copyMemory(from: bytes) }
    }

    @inline(__always)
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        put(UnsafeRawBufferPointer(bytes))
    }
}

/// A double's text as the standard library spells it (`Double.write(to:)` hands it over
/// as ASCII), in four words on the stack: `description` makes a String, which is on the
/// heap when longer than 15 bytes, as most fractions are.
private struct DoubleText: TextOutputStream {
    /// The longest spelling has 24 bytes (`-2.2250738585072014e-308`).
    var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    var count = 0

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(buffer)) }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let at = count
        withUnsafeMutableBytes(of: &storage) { room in
            precondition(at + bytes.count <= room.count, "a double's text is longer than 32 bytes")
            UnsafeMutableRawBufferPointer(rebasing: room[at...]).copyMemory(from: bytes)
        }
        count += bytes.count
    }
}
