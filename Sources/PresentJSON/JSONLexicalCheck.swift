// json-c 0.16's strict mode still accepts some text that is not JSON, and loses information
// silently in other cases (all checked against the library):
//   NaN, Infinity, -Infinity          accepted as numbers
//   1.   -01                          accepted
//   9223372036854775808, 1e999…       saturated to Int64.max / UInt64.max / inf
//   {'key': 1}                        single-quoted keys accepted
//   "a<TAB>b"                         raw control characters in strings accepted
//   "\xC0\xAF", "\xED\xA0\x80"        overlong and surrogate UTF-8 pass its validation
//   {"a\u0000b": 1}                   key stored as the C string "a"
//   [[[]]] with json_tokener_new_ex(3) accepted: json-c counts values on its stack, so an
//                                     empty innermost container takes no level
// None of this is visible in the tree json-c returns, so after json-c has accepted a text
// this pass walks the same bytes once more. It trusts json-c for structure and escapes and
// only looks at the tokens above; it never builds values.

/// The second pass over text json-c accepted.
struct JSONLexicalCheck {
    private let bytes: UnsafeRawBufferPointer
    private let maxDepth: Int
    private var i = 0
    private var depth = 0

    /// Throws for the first construct json-c accepted but JSON does not allow, or for the
    /// first array or object opened deeper than `maxDepth`.
    ///
    /// Also run over a prefix json-c rejected for depth, to find the offending bracket:
    /// json-c reports where it noticed, one value later.
    static func check(_ bytes: UnsafeRawBufferPointer, maxDepth: Int) throws(JSONParseError) {
        var pass = JSONLexicalCheck(bytes: bytes, maxDepth: maxDepth)
        try pass.run()
    }

    private init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private mutating func run() throws(JSONParseError) {
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "'"):
                throw .at(i, .singleQuotedString, "single-quoted string (JSON needs double quotes)")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"):
                try word(from: i)
            case UInt8(ascii: "["), UInt8(ascii: "{"): try open()
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1; i += 1
            default: i += 1  // separators and whitespace: json-c checked them
            }
        }
    }

    private mutating func open() throws(JSONParseError) {
        depth += 1
        guard depth <= maxDepth else { throw .at(i, .tooDeep, "nesting deeper than \(maxDepth)") }
        i += 1
    }

    private func byte(at offset: Int) -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    // MARK: Strings

    private mutating func string() throws(JSONParseError) {
        let start = i
        i += 1  // opening quote
        var hasNULEscape = false
        while let b = byte(at: i), b != UInt8(ascii: "\"") {
            if b == UInt8(ascii: "\\") {
                hasNULEscape = hasNULEscape || isNULEscape(at: i)
                i += 2  // json-c validated the escape; skipping its letter is enough
            } else if b < 0x20 {
                throw .at(i, .controlCharacter, controlCharacterText(b))
            } else if b < 0x80 {
                i += 1
            } else {
                guard let length = UTF8Check.sequenceLength(in: bytes, at: i) else {
                    throw .at(i, .invalidUTF8, "invalid UTF-8")
                }
                i += length
            }
        }
        i += 1  // closing quote
        if hasNULEscape && followedByColon() {
            throw .at(start, .unsupportedKey, "object key containing \\u0000 is not supported")
        }
    }

    private func controlCharacterText(_ b: UInt8) -> String {
        let hex = String(b, radix: 16, uppercase: true)
        return "unescaped control character U+\(String(repeating: "0", count: 4 - hex.count))\(hex) in string"
    }

    private func isNULEscape(at backslash: Int) -> Bool {
        guard backslash + 5 < bytes.count, bytes[backslash + 1] == UInt8(ascii: "u") else { return false }
        return (2...5).allSatisfy { bytes[backslash + $0] == UInt8(ascii: "0") }
    }

    /// Whether the string just closed is an object key (the next non-blank byte is `:`).
    private func followedByColon() -> Bool {
        var j = i
        while let b = byte(at: j), isJSONWhitespace(b) { j += 1 }
        return byte(at: j) == UInt8(ascii: ":")
    }

    // MARK: Words

    private mutating func word(from start: Int) throws(JSONParseError) {
        while let b = byte(at: i), isLetter(b) { i += 1 }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        switch text {
        case "true", "false", "null": return
        case "NaN", "-NaN": throw .at(start, .nonFiniteNumber, "NaN is not valid JSON")
        case "Infinity", "-Infinity": throw .at(start, .nonFiniteNumber, "\(text) is not valid JSON")
        default: throw .at(start, .syntax, "unexpected word \"\(text)\"")
        }
    }

    private func isLetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20)
    }

    // MARK: Numbers

    private mutating func number() throws(JSONParseError) {
        let start = i
        if bytes[i] == UInt8(ascii: "-"), let next = byte(at: i + 1), isLetter(next) {
            i += 1
            return try word(from: start)  // -Infinity
        }
        while let b = byte(at: i), isNumberByte(b) { i += 1 }
        var token = NumberToken(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
        guard token.scan() else {
            throw .at(start, .invalidNumber, "invalid number \(token.quoted)")
        }
        try token.checkRange(at: start)
    }

    private func isNumberByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"),
             UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }
}

/// One number literal, checked against RFC 8259's grammar
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and against what Int64 and Double
/// can hold.
private struct NumberToken {
    let text: UnsafeRawBufferPointer
    private var i = 0
    private var negative = false
    private var integerDigits = 0  // significant digits before the point
    private var isFractional = false
    private var exponent = 0       // clamped: only its order of magnitude matters

    init(_ text: UnsafeRawBufferPointer) { self.text = text }

    /// The literal in quotes, cut short if absurdly long, for messages.
    var quoted: String {
        let shown = String(decoding: text.prefix(40), as: UTF8.self)
        return "\"\(shown)\(text.count > 40 ? "…" : "")\""
    }

    /// Whether the whole token matches the grammar; records what `checkRange` needs.
    mutating func scan() -> Bool {
        negative = accept(UInt8(ascii: "-"))
        guard integerPart() else { return false }
        if accept(UInt8(ascii: ".")) {
            isFractional = true
            guard digits() > 0 else { return false }
        }
        if accept(UInt8(ascii: "e")) || accept(UInt8(ascii: "E")) {
            isFractional = true
            guard exponentPart() else { return false }
        }
        return i == text.count
    }

    /// Throws if json-c would have saturated this number.
    func checkRange(at offset: Int) throws(JSONParseError) {
        if !isFractional {
            guard fitsInt64() else {
                throw .at(offset, .numberOutOfRange, "integer \(quoted) is out of range (64-bit signed)")
            }
        } else if integerDigits + exponent > 308, overflowsDouble() {
            // Below 10^309 nothing overflows, so only huge-looking literals are converted.
            throw .at(offset, .numberOutOfRange, "number \(quoted) is out of range (overflows a double)")
        }
    }

    private mutating func accept(_ b: UInt8) -> Bool {
        guard i < text.count, text[i] == b else { return false }
        i += 1
        return true
    }

    private func isDigit(at j: Int) -> Bool {
        j < text.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[j])
    }

    private mutating func digits() -> Int {
        let start = i
        while isDigit(at: i) { i += 1 }
        return i - start
    }

    private mutating func integerPart() -> Bool {
        if accept(UInt8(ascii: "0")) {
            return !isDigit(at: i)  // no leading zeros
        }
        integerDigits = digits()
        return integerDigits > 0
    }

    private mutating func exponentPart() -> Bool {
        let sign = accept(UInt8(ascii: "-")) ? -1 : 1
        if sign == 1 { _ = accept(UInt8(ascii: "+")) }
        let start = i
        guard digits() > 0 else { return false }
        var magnitude = 0
        for j in start..<i { magnitude = min(magnitude * 10 + Int(text[j] - UInt8(ascii: "0")), 100_000) }
        exponent = sign * magnitude
        return true
    }

    private func fitsInt64() -> Bool {
        let limit = negative ? "9223372036854775808" : "9223372036854775807"
        guard integerDigits == limit.utf8.count else { return integerDigits < limit.utf8.count }
        // Same length: digit strings compare like the numbers they spell.
        return !limit.utf8.lexicographicallyPrecedes(text[(negative ? 1 : 0)...])
    }

    private func overflowsDouble() -> Bool {
        let value = Double(String(decoding: text, as: UTF8.self)) ?? .infinity
        return !value.isFinite
    }
}
