// Writing JSON text straight into bytes: the serialiser of every reply and notification.
// It writes exactly what json-c writes for the same value with the flags presentd uses
// (JSONCBuilder, kept as the reference the tests compare against), without building a
// json-c tree and copying its text out: one pass, one buffer.

/// Appends the compact text of JSON values to a byte buffer.
///
/// The rules are json-c's `JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE`:
/// no whitespace; `"` `\` and the control characters escaped (`\b \f \n \r \t`, the rest
/// as `\u00xx`, lower-case hex); `/`, DEL and non-ASCII text written as they are; integers
/// in decimal; doubles in Swift's shortest round-trip spelling (`0.1`, `1.0`, `1e+16`), a
/// non-finite one as `null`.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// An object key held U+0000. json-c cuts such a key at the NUL (it keeps keys as C
    /// strings), which can merge two members: the caller leaves those rare values to
    /// json-c itself, so the text stays what it always was.
    public private(set) var sawKeyWithNUL = false

    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Writes with `body` at the end of `buffer`, in place: a reply goes straight into the
    /// bytes a connection is gathering, with no array of its own and no copy.
    public static func appending(to buffer: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        var writer = JSONWriter(capacity: 0)
        swap(&writer.bytes, &buffer)   // moved, not copied: the buffer stays uniquely referenced
        body(&writer)
        swap(&writer.bytes, &buffer)
        precondition(writer.depth == 0, "a container was begun and not ended")
    }

    /// Appends `value`'s text.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): write(integer: i)
        case .double(let d): d.isFinite ? append(d.description) : append("null")
        case .string(let s): write(string: s)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for i in members.keys.indices {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                write(string: members.keys[i], isKey: true)
                bytes.append(UInt8(ascii: ":"))
                write(members.values[i])
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `\n`, ending a line of the wire protocol.
    public mutating func endLine() { bytes.append(0x0A) }

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
    public mutating func member(_ key: String, _ value: JSONValue) {
        memberKey(key)
        write(value)
    }

    /// One member whose value is JSON text already (copied as it is: the caller vouches
    /// that it is one valid JSON value).
    public mutating func member(_ key: String, json text: UnsafeRawBufferPointer) {
        memberKey(key)
        bytes.append(contentsOf: text)
    }

    /// One member whose value `body` writes (with `write`, or a container part by part).
    public mutating func member(_ key: String, writing body: (inout JSONWriter) -> Void) {
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
        bytes.append(bracket)
        let bit: UInt64 = 1 << UInt64(depth)
        hasParts &= ~bit
        if array { isArray |= bit } else { isArray &= ~bit }
        depth += 1
    }

    private mutating func end(_ bracket: UInt8, array: Bool) {
        precondition(depth > 0 && (isArray >> UInt64(depth - 1)) & 1 == (array ? 1 : 0),
                     array ? "endArray without beginArray" : "endObject without beginObject")
        depth -= 1
        bytes.append(bracket)
    }

    /// The comma before every part but the first of the innermost open container.
    private mutating func separate(array: Bool) {
        precondition(depth > 0 && (isArray >> UInt64(depth - 1)) & 1 == (array ? 1 : 0),
                     array ? "element outside an array" : "member outside an object")
        let bit: UInt64 = 1 << UInt64(depth - 1)
        if hasParts & bit != 0 { bytes.append(UInt8(ascii: ",")) }
        hasParts |= bit
    }

    private mutating func memberKey(_ key: String) {
        separate(array: false)
        write(string: key, isKey: true)
        bytes.append(UInt8(ascii: ":"))
    }

    /// An integer in decimal, digit by digit into the buffer (`String(i)` would allocate a
    /// string for every id and sequence number).
    private mutating func write(integer value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude   // UInt64: Int64.min has no positive Int64
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // 20 digits at most, in 24 bytes
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                scratch[scratch.count - 1 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[(scratch.count - count)...]))
        }
    }

    private mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A quoted string: runs that need no escape are copied whole.
    private mutating func write(string: String, isKey: Bool = false) {
        bytes.append(UInt8(ascii: "\""))
        var s = string
        s.withUTF8 { utf8 in
            var start = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<i]))
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
                    bytes.append(Self.hex[Int(byte >> 4)])
                    bytes.append(Self.hex[Int(byte & 0xF)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hex = Array("0123456789abcdef".utf8)

}
