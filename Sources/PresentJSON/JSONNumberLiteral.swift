/// One number token as json-c delimits it (see `JSONTextReader.scanNumberToken`), read
/// against the two grammars that matter: what json-c's strict mode converts, and RFC 8259's
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
struct JSONNumberLiteral {
    /// The token: digits, `-`, `+`, `.`, `e` and `E`, starting with a digit or `-`.
    let text: UnsafeRawBufferPointer
    private var negative = false
    private var integerDigits = 0
    private var leadingZero = false
    private var nonzeroInteger = false
    private var hasPoint = false
    private var fractionDigits = 0
    private var hasExponent = false
    private var exponentDigits = 0
    /// Whether `-? D* (. D*)? ([eE] [+-]? D*)?` spans the whole token.
    private var isWellShaped = false

    /// The token `text`, scanned once.
    init(_ text: UnsafeRawBufferPointer) {
        assert(!text.isEmpty, "a number token starts with a digit or a minus")
        self.text = text
        var i = 0
        negative = Self.accept(UInt8(ascii: "-"), in: text, at: &i)
        let integerStart = i
        integerDigits = Self.digits(in: text, at: &i)
        leadingZero = integerDigits > 0 && text[integerStart] == UInt8(ascii: "0")
        nonzeroInteger = text[integerStart..<i].contains { $0 != UInt8(ascii: "0") }
        hasPoint = Self.accept(UInt8(ascii: "."), in: text, at: &i)
        if hasPoint { fractionDigits = Self.digits(in: text, at: &i) }
        hasExponent =
            Self.accept(UInt8(ascii: "e"), in: text, at: &i) || Self.accept(UInt8(ascii: "E"), in: text, at: &i)
        if hasExponent {
            if !Self.accept(UInt8(ascii: "-"), in: text, at: &i) {
                _ = Self.accept(UInt8(ascii: "+"), in: text, at: &i)
            }
            exponentDigits = Self.digits(in: text, at: &i)
        }
        isWellShaped = i == text.count
    }

    /// Advances `i` past `b` if it is there.
    private static func accept(_ b: UInt8, in text: UnsafeRawBufferPointer, at i: inout Int) -> Bool {
        guard i < text.count, text[i] == b else { return false }
        i += 1
        return true
    }

    /// Advances `i` past a run of digits; how many there were.
    private static func digits(in text: UnsafeRawBufferPointer, at i: inout Int) -> Int {
        let start = i
        while i < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[i]) { i += 1 }
        return i - start
    }

    /// Whether json-c reads it as a double (it has a point or an exponent mark).
    var isFractional: Bool { hasPoint || hasExponent }

    /// Whether json-c's strict mode converts the token rather than failing with "number
    /// expected": strtod must consume a fractional one whole, strtoll needs a digit after
    /// a minus, and a leading zero is refused before a nonzero unsigned value (but `00` and
    /// `-01` pass).
    var isConvertibleByJSONC: Bool {
        if isFractional {
            return isWellShaped && integerDigits + fractionDigits > 0 && (!hasExponent || exponentDigits > 0)
        }
        if negative { return integerDigits > 0 }
        return !(leadingZero && nonzeroInteger)
    }

    /// Whether the token is a number in RFC 8259's grammar.
    var isJSONNumber: Bool {
        isWellShaped && integerDigits > 0 && (!leadingZero || integerDigits == 1)
            && (!hasPoint || fractionDigits > 0) && (!hasExponent || exponentDigits > 0)
    }

    /// The token in quotes, cut short if absurdly long, for messages.
    var quoted: String {
        let shown = String(decoding: text.prefix(40), as: UTF8.self)
        return "\"\(shown)\(text.count > 40 ? "…" : "")\""
    }

    /// The value, exact for integers and correctly rounded for doubles; nil if it is out of
    /// range (an integer outside Int64, a double that overflows). Only for a convertible
    /// token.
    func value() -> JSONValue? {
        assert(isConvertibleByJSONC)
        if isFractional {
            // Swift's parser is glibc's strtod_l in the C locale: correctly rounded, and deaf to
            // setlocale (plain strtod is not, which is why json-c switched locales per parse).
            guard let double = Double(String(decoding: text, as: UTF8.self)), double.isFinite else { return nil }
            return .double(double)
        }
        var magnitude: UInt64 = 0
        for digit in text[(negative ? 1 : 0)...] {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit - UInt8(ascii: "0")))
            guard !overflow && !carry else { return nil }
            magnitude = sum
        }
        if negative {
            return magnitude <= Int64.min.magnitude ? .int(Int64(bitPattern: 0 &- magnitude)) : nil
        }
        return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : nil
    }
}
