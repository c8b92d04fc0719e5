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

    /// Appends `value`'s text.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .int(let i): append(String(i))
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

    // An object written member by member, for messages made of parts (a record whose last
    // member is a line already serialised): no JSONObject is built for them.
    private var membersWritten: [Int] = []

    /// Opens an object; `member` adds to it, `endObject` closes it.
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        membersWritten.append(0)
    }

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

    public mutating func endObject() {
        precondition(membersWritten.popLast() != nil, "endObject without beginObject")
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func memberKey(_ key: String) {
        precondition(!membersWritten.isEmpty, "member outside an object")
        if membersWritten[membersWritten.count - 1] > 0 { bytes.append(UInt8(ascii: ",")) }
        membersWritten[membersWritten.count - 1] += 1
        write(string: key, isKey: true)
        bytes.append(UInt8(ascii: ":"))
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
