// The key of a member that the code writes: nearly always a string literal, whose bytes
// the binary holds already. Writing one is then a copy of those bytes, where a String key
// costs a String (retained, released, walked through `withUTF8`), and a frame has some
// thirty keys, written on every tick.

/// An object member's key, as `JSONMemberSink` takes it.
///
/// A string literal makes one (`writer.member("id", …)`); `JSONKey(_:)` makes one from a
/// string known only at run time. Both are written with the same escaping.
public struct JSONKey: Sendable, ExpressibleByStringLiteral {
    @usableFromInline
    enum Text: Sendable {
        /// A literal none of whose bytes is escaped: its text is the bytes between the quotes.
        case plain(StaticString)
        /// A key known only at run time, or a literal with a byte to escape.
        case string(String)
    }

    @usableFromInline
    let text: Text

    /// A key the code spells out.
    ///
    /// Inlined where the literal is, so that the scan for bytes to escape runs over bytes
    /// the compiler knows and comes to a constant: a plain key is then written as one copy,
    /// and a key that needs escaping is still escaped, whichever way the scan ran.
    @inlinable @inline(__always)
    public init(stringLiteral literal: StaticString) {
        text = Self.isPlain(literal) ? .plain(literal) : .string(Self.spelling(of: literal))
    }

    /// A key known only at run time.
    public init(_ string: String) { text = .string(string) }

    /// The key as a String (for `JSONObject`, which keeps its keys as strings).
    public var string: String {
        switch text {
        case .plain(let literal): literal.description
        case .string(let string): string
        }
    }

    /// Whether `literal`'s bytes go between quotes as they are (`JSONWriter`'s escaping
    /// rule, `JSONWriter.needsEscape`).
    @inlinable @inline(__always)
    static func isPlain(_ literal: StaticString) -> Bool {
        guard literal.hasPointerRepresentation else { return false }   // a one-scalar literal
        let bytes = literal.utf8Start
        var i = 0
        while i < literal.utf8CodeUnitCount {
            if JSONWriter.needsEscape(bytes[i]) { return false }
            i += 1
        }
        return true
    }

    /// Out of line: the rare literal that needs escaping costs its call sites no code.
    @usableFromInline
    static func spelling(of literal: StaticString) -> String { literal.description }
}
