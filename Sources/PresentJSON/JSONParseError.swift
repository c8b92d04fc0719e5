/// Why a line of text is not an acceptable JSON value.
///
/// `message` is meant for people (it ends up in JSON-RPC parse-error replies and logs) and
/// names the problem and, where known, the 0-based byte offset in the input, e.g.
/// "invalid UTF-8 at byte 12" or "NaN is not valid JSON at byte 7".
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of problem, for code that reacts differently to some of them.
    public enum Kind: Sendable, Hashable {
        /// Nothing but whitespace (or nothing at all).
        case empty
        /// The input is longer than json-c can take in one call (2 GiB).
        case tooLarge
        /// Malformed structure: a missing comma, an unknown escape, a stray character…
        case syntax
        /// The input ended inside a value.
        case unexpectedEnd
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// A raw byte below U+0020 inside a string, or a NUL byte anywhere.
        case controlCharacter
        /// `NaN`, `Infinity` or `-Infinity`, which json-c accepts but JSON does not.
        case nonFiniteNumber
        /// A number outside JSON's grammar that json-c accepts, such as `1.` or `-01`.
        case invalidNumber
        /// An integer outside Int64, or a number whose magnitude overflows a Double.
        case numberOutOfRange
        /// A single-quoted string (json-c's strict mode still accepts them as keys).
        case singleQuotedString
        /// An object key containing `\u0000`, which json-c would silently cut short.
        case unsupportedKey
        /// Anything but whitespace after the value.
        case trailingData
        /// Arrays and objects nested deeper than the parser's `maxDepth`.
        case tooDeep
    }

    /// The class of problem.
    public let kind: Kind
    /// A specific, human-readable description, including the byte offset when known.
    public let message: String
    /// The 0-based byte offset where the problem was found, when known.
    public let offset: Int?

    /// A parse error; `message` should already say where (use `at(_:)` to build it).
    public init(_ kind: Kind, _ message: String, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    /// An error whose message ends with " at byte `offset`".
    static func at(_ offset: Int, _ kind: Kind, _ what: String) -> JSONParseError {
        JSONParseError(kind, "\(what) at byte \(offset)", offset: offset)
    }

    public var description: String { message }
}
