extension JSONValue {
    /// The deepest `maxDepth` accepted. The parser itself keeps open containers on a heap
    /// stack, but a JSONValue is compared, hashed, written and freed recursively, once per
    /// level: this bounds the stack those need, even on a small secondary thread.
    public static let maxParseDepth = 1024

    /// Parses one complete JSON text (one protocol line, without its newline).
    ///
    /// Strict RFC 8259 JSON is accepted and nothing else: `NaN`/`Infinity`, numbers like
    /// `1.` or `-01`, integers outside Int64 and numbers that overflow a Double, single-quoted
    /// strings, raw control characters in strings, ill-formed UTF-8 (overlong forms and
    /// surrogates included), trailing data and keys containing `\u0000` are rejected.
    /// Whitespace around the value is allowed; an empty or blank input is an error.
    ///
    /// - Duplicate keys are not detected: the last value wins, and the member stays where
    ///   the key first appeared.
    /// - An unpaired `\uD800`–`\uDFFF` escape becomes U+FFFD.
    /// - Strings may contain U+0000 (written `\u0000`).
    /// - Errors name the same problem at the same byte as json-c, the parser this one
    ///   replaced, did (`parseWithJSONC` is that parser, kept as the reference).
    ///
    /// - Parameters:
    ///   - bytes: the text; it needs no terminator and may contain anything.
    ///   - maxDepth: how many arrays/objects may nest (a scalar is depth 0, `[1]` depth 1);
    ///     at most `maxParseDepth`.
    public static func parse(_ bytes: UnsafeRawBufferPointer,
                             maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        precondition((0...maxParseDepth).contains(maxDepth), "maxDepth out of 0...\(maxParseDepth)")
        guard bytes.count <= Int(Int32.max) - 1 else {
            throw JSONParseError(.tooLarge, "input of \(bytes.count) bytes is too large")
        }
        var reader = JSONTextReader(bytes, maxDepth: maxDepth)
        return try reader.document()
    }

    /// Parses one complete JSON text from bytes. See `parse(_:maxDepth:)`.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        // withUnsafeBytes only rethrows untyped errors: carry the typed one out in a Result.
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONParseError) in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    /// Parses one complete JSON text from a string. See `parse(_:maxDepth:)`.
    public static func parse(_ text: String, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

/// Space, tab, line feed and carriage return: JSON's only whitespace.
@inline(__always)
func isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
