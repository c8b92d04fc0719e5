import CJSONC

// Serialising writes the text directly (JSONWriter). JSONCBuilder — a json-c tree, its
// compact text copied out — is the reference that writer matches, and still writes the
// rare value with a NUL in a key, which only json-c's own rules can say how to cut.

extension JSONValue {
    /// The compact JSON text as UTF-8 bytes, without a trailing newline.
    ///
    /// - No whitespace; `/` is not escaped; non-ASCII text is written as raw UTF-8; control
    ///   characters and U+0000 are escaped. Object members keep their order.
    /// - Doubles use the shortest text that reads back as the same double, and always look
    ///   fractional so the type survives a round trip: `0.1` → `0.1`, `1.0` → `1.0`,
    ///   `1e16` → `1e+16`, `-0.0` → `-0.0`.
    /// - A non-finite double (NaN, ±infinity) has no JSON form and is written as `null`.
    /// - A key containing U+0000 is cut at it: json-c keeps keys as C strings.
    public func serialized() -> [UInt8] {
        text(newline: false)
    }

    /// The compact JSON text followed by `\n`: one line of the wire protocol.
    public func serializedLine() -> [UInt8] {
        text(newline: true)
    }

    /// The same text, made by json-c (the reference JSONWriter is tested against).
    public func serializedByJSONC() -> [UInt8] {
        JSONCBuilder.text(for: self, newline: false)
    }

    private func text(newline: Bool) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(self)
        guard !writer.sawKeyWithNUL else { return JSONCBuilder.text(for: self, newline: newline) }
        if newline { writer.endLine() }
        return writer.takeBytes()
    }

    /// The compact JSON text as a string. See `serialized()`.
    public var serializedString: String {
        String(decoding: serialized(), as: UTF8.self)
    }
}

/// Builds json-c trees. Every `json_object_new_*` result is owned (+1) and is handed to its
/// parent by `json_object_array_add` / `json_object_object_add_ex`, which take ownership, so
/// only the root is released.
enum JSONCBuilder {
    /// Compact text without escaping `/` (json-c writes `\/` by default).
    private static let flags = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE

    static func text(for value: JSONValue, newline: Bool) -> [UInt8] {
        let root = object(for: value)
        defer { json_object_put(root) }
        var length = 0
        // The text belongs to `root` and dies with it: copy it out first.
        let chars = json_object_to_json_string_length(root, flags, &length)!
        let text = UnsafeRawBufferPointer(start: chars, count: length)
        var bytes = [UInt8]()
        bytes.reserveCapacity(length + 1)
        bytes.append(contentsOf: text)
        if newline { bytes.append(0x0A) }
        return bytes
    }

    /// A new json-c object (owned); `nil` is json-c's `null`.
    private static func object(for value: JSONValue) -> OpaquePointer? {
        switch value {
        case .null: return nil
        case .bool(let b): return json_object_new_boolean(b ? 1 : 0)
        case .int(let i): return json_object_new_int64(i)
        case .double(let d): return double(d)
        case .string(let s): return string(s)
        case .array(let elements): return array(elements)
        case .object(let members): return object(members)
        }
    }

    private static func double(_ d: Double) -> OpaquePointer? {
        guard d.isFinite else { return nil }
        // json_object_new_double would print %.17g (0.1 → 0.10000000000000001); the _s form
        // prints the given text, here Swift's shortest round-trip spelling. Swift writes
        // 1e-05 / 1e+16 style exponents, which are valid JSON.
        return d.description.withCString { json_object_new_double_s(d, $0) }
    }

    private static func string(_ s: String) -> OpaquePointer? {
        var s = s
        // The _len form: the text may contain NUL.
        return s.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return json_object_new_string("") }
                return json_object_new_string_len(base, Int32(chars.count))
            }
        }
    }

    private static func array(_ elements: [JSONValue]) -> OpaquePointer? {
        let array = json_object_new_array_ext(Int32(elements.count))
        for element in elements {
            json_object_array_add(array, object(for: element))
        }
        return array
    }

    private static func object(_ members: JSONObject) -> OpaquePointer? {
        let object = json_object_new_object()
        for (key, value) in members {
            // json-c copies the key. No JSON_C_OBJECT_ADD_KEY_IS_NEW: it saves little, and a key
            // with a NUL, cut short by json-c, could then collide with another key.
            _ = key.withCString { json_object_object_add(object, $0, JSONCBuilder.object(for: value)) }
        }
        return object
    }
}
