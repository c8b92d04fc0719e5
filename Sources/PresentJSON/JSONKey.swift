// The key of a member that the code writes: nearly always a string literal, whose bytes
// the binary holds already. Writing one is then a copy of those bytes, where a String key
// costs a String (retained, released, walked through `withUTF8`), and a frame has some
// thirty keys, written on every tick.

/// An object member's key, as `JSONMemberSink` takes it.
///
/// A string literal makes one (`writer.member("id", …)`); `JSONKey(_:)` makes one from a
/// string known only at run time. Both are written with the same escaping.
public struct JSONKey: Sendable, ExpressibleByStringLiteral {
    enum Text: Sendable {
        case literal(StaticString)
        case string(String)
    }

    let text: Text

    /// A key the code spells out.
    public init(stringLiteral literal: StaticString) { text = .literal(literal) }

    /// A key known only at run time.
    public init(_ string: String) { text = .string(string) }

    /// The key as a String (for `JSONObject`, which keeps its keys as strings).
    public var string: String {
        switch text {
        case .literal(let literal): literal.description
        case .string(let string): string
        }
    }
}
