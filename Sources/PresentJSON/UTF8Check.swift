/// Well-formed UTF-8 as the Unicode standard defines it (Table 3-7).
///
/// json-c's JSON_TOKENER_VALIDATE_UTF8 only checks lead and continuation bit patterns, so it
/// passes overlong forms (C0 AF), UTF-16 surrogates (ED A0 80) and code points beyond
/// U+10FFFF (F4 90 80 80). This is the complete check, also used to locate the first bad
/// byte when json-c reports an error at the point it noticed rather than where it began;
/// `bitPatternLength` is json-c's, which the parser needs to tell the two apart.
enum UTF8Check {
    /// The length of the well-formed sequence starting at `offset`, or nil if it is not one.
    static func sequenceLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        let lead = bytes[offset]
        guard let (length, secondRange) = shape(of: lead), offset + length <= bytes.count else {
            return nil
        }
        guard length > 1 else { return 1 }
        guard secondRange.contains(bytes[offset + 1]) else { return nil }
        for j in 2..<length where !(0x80...0xBF).contains(bytes[offset + j]) { return nil }
        return length
    }

    /// The length of the sequence at `offset` if only its bit patterns are checked, as
    /// json-c does (a lead byte announcing 2–4 bytes, then that many continuation bytes),
    /// or nil if even those are wrong.
    static func bitPatternLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
        let length: Int
        switch bytes[offset] {
        case 0xC0...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF7: length = 4
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        for j in 1..<length where bytes[offset + j] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// The offset of the first byte that does not begin a well-formed sequence, if any.
    static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        while i < bytes.count {
            guard let length = sequenceLength(in: bytes, at: i) else { return i }
            i += length
        }
        return nil
    }

    /// The sequence length a lead byte announces and the range its second byte must fall in
    /// (narrower than 80…BF where that excludes overlong forms, surrogates and > U+10FFFF).
    private static func shape(of lead: UInt8) -> (Int, ClosedRange<UInt8>)? {
        switch lead {
        case 0x00...0x7F: return (1, 0x80...0xBF)
        case 0xC2...0xDF: return (2, 0x80...0xBF)
        case 0xE0: return (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (3, 0x80...0xBF)
        case 0xED: return (3, 0x80...0x9F)
        case 0xF0: return (4, 0x90...0xBF)
        case 0xF1...0xF3: return (4, 0x80...0xBF)
        case 0xF4: return (4, 0x80...0x8F)
        default: return nil
        }
    }
}
