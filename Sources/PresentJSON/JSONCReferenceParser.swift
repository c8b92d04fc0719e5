import CJSONC
#if canImport(Glibc)
import Glibc
#endif

// The parser JSONTextReader replaced, kept as the reference it is tested against (the
// differential tests and the fuzzer's oracle): json-c's tokener, its errors turned into
// specific messages, the checks json-c's strict mode leaves out (JSONLexicalCheck) and a
// conversion of the json-c tree into a JSONValue. Nothing in the daemon calls it.

extension JSONValue {
    /// Parses like `parse(_:maxDepth:)`, with json-c: the same values and the same errors
    /// (kind, message, offset), at several times the cost. For tests and the fuzzer.
    public static func parseWithJSONC(_ bytes: UnsafeRawBufferPointer,
                                      maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        precondition((0...maxParseDepth).contains(maxDepth), "maxDepth out of 0...\(maxParseDepth)")
        try checkPreconditions(bytes)
        let (root, end) = try JSONCTokener.parse(bytes, maxDepth: maxDepth)
        defer { json_object_put(root) }  // parse results are owned (+1)
        try checkTrailingData(bytes, from: end)
        try JSONLexicalCheck.check(UnsafeRawBufferPointer(rebasing: bytes[..<end]), maxDepth: maxDepth)
        return try JSONCConversion.value(of: root)
    }

    /// Rejections json-c would get wrong or describe poorly.
    private static func checkPreconditions(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) {
        guard bytes.count <= Int(Int32.max) - 1 else {
            throw JSONParseError(.tooLarge, "input of \(bytes.count) bytes is too large")
        }
        guard bytes.contains(where: { !isJSONWhitespace($0) }) else {
            throw JSONParseError(.empty, "empty input (no JSON value)")
        }
        // json-c stops at a NUL as if the text ended there; say what is really wrong.
        // (memchr: this runs over every byte of every message.)
        let start = bytes.baseAddress!
        if let nul = memchr(start, 0, bytes.count) {
            let offset = UnsafeRawPointer(start).distance(to: UnsafeRawPointer(nul))
            throw .at(offset, .controlCharacter, "NUL byte")
        }
    }

    private static func checkTrailingData(_ bytes: UnsafeRawBufferPointer,
                                          from end: Int) throws(JSONParseError) {
        if let extra = bytes[end...].firstIndex(where: { !isJSONWhitespace($0) }) {
            throw .at(extra, .trailingData, "unexpected data after the JSON value")
        }
    }
}

/// Runs json-c's tokener over one whole buffer.
enum JSONCTokener {
    /// json-c's flags: strict grammar, UTF-8 checked; trailing characters allowed so that
    /// the caller can report them precisely instead of as "unexpected character".
    private static let flags = JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS
        | JSON_TOKENER_VALIDATE_UTF8

    /// The parsed tree (owned by the caller; `nil` for JSON `null`) and the offset just past
    /// the value.
    static func parse(_ bytes: UnsafeRawBufferPointer,
                      maxDepth: Int) throws(JSONParseError) -> (OpaquePointer?, Int) {
        // json-c's depth counts values on its stack, scalars included, so `[1]` needs 2. With
        // maxDepth + 1 it stops anything deeper than allowed (keeping conversion's recursion
        // bounded); JSONLexicalCheck applies the exact limit and finds the offending bracket.
        guard let tok = json_tokener_new_ex(Int32(maxDepth + 1)) else {
            fatalError("json_tokener_new_ex: out of memory")
        }
        defer { json_tokener_free(tok) }
        json_tokener_set_flags(tok, flags)

        let start = bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
        var root = json_tokener_parse_ex(tok, start, Int32(bytes.count))
        var end = json_tokener_get_parse_end(tok)
        if json_tokener_get_error(tok) == json_tokener_continue {
            // A top-level scalar such as `12` is only complete once json-c sees what follows
            // it; a NUL byte ends it without being part of the text.
            root = json_tokener_parse_ex(tok, "", 1)
            end = bytes.count
        }
        let error = json_tokener_get_error(tok)
        guard error == json_tokener_success else {
            throw describe(error, at: min(end, bytes.count), in: bytes, maxDepth: maxDepth)
        }
        return (root, end)
    }

    private static func describe(_ error: json_tokener_error, at offset: Int,
                                 in bytes: UnsafeRawBufferPointer, maxDepth: Int) -> JSONParseError {
        switch error {
        case json_tokener_error_depth:
            let prefix = UnsafeRawBufferPointer(rebasing: bytes[..<offset])
            do {
                try JSONLexicalCheck.check(prefix, maxDepth: maxDepth)
            } catch {
                return error
            }
            return .at(offset, .tooDeep, "nesting deeper than \(maxDepth)")
        case json_tokener_error_parse_eof, json_tokener_continue:
            return .at(bytes.count, .unexpectedEnd, "unexpected end of input")
        case json_tokener_error_parse_utf8_string:
            // json-c reports where it noticed, which may be after the bad sequence, and also
            // uses this error for valid UTF-8 where no text belongs (a byte-order mark).
            if let bad = UTF8Check.firstInvalidOffset(in: bytes) {
                return .at(bad, .invalidUTF8, "invalid UTF-8")
            }
            return .at(offset, .syntax, "unexpected character")
        default:
            // json-c refuses single-quoted values with a generic "unexpected character".
            if offset < bytes.count && bytes[offset] == UInt8(ascii: "'") {
                return .at(offset, .singleQuotedString, "single-quoted string (JSON needs double quotes)")
            }
            return .at(offset, .syntax, String(cString: json_tokener_error_desc(error)))
        }
    }
}

/// Turns a json-c tree into a JSONValue. The tree is borrowed: children fetched with
/// `json_object_array_get_idx` and the hash-table entries are not owned, so nothing here
/// releases references.
enum JSONCConversion {
    static func value(of object: OpaquePointer?) throws(JSONParseError) -> JSONValue {
        switch json_object_get_type(object) {  // NULL is json-c's `null`
        case json_type_boolean: return .bool(json_object_get_boolean(object) != 0)
        case json_type_int: return try integer(object)
        case json_type_double: return try double(object)
        case json_type_string: return .string(string(object))
        case json_type_array: return .array(try array(object))
        case json_type_object: return .object(try members(object))
        default: return .null
        }
    }

    private static func integer(_ object: OpaquePointer?) throws(JSONParseError) -> JSONValue {
        // JSONLexicalCheck already refused out-of-range literals; this guards against json-c
        // having stored one as unsigned (values above Int64.max) all the same.
        let value = json_object_get_int64(object)
        if value == Int64.max && json_object_get_uint64(object) > UInt64(Int64.max) {
            throw JSONParseError(.numberOutOfRange, "integer out of range (64-bit signed)")
        }
        return .int(value)
    }

    private static func double(_ object: OpaquePointer?) throws(JSONParseError) -> JSONValue {
        let value = json_object_get_double(object)
        guard value.isFinite else {
            throw JSONParseError(.numberOutOfRange, "number out of range (overflows a double)")
        }
        return .double(value)
    }

    private static func string(_ object: OpaquePointer?) -> String {
        // The _len API: strings may contain NUL. UTF-8 was validated, so decoding is exact.
        let length = Int(json_object_get_string_len(object))
        guard length > 0, let chars = json_object_get_string(object) else { return "" }
        let bytes = UnsafeRawPointer(chars).assumingMemoryBound(to: UInt8.self)
        return String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    private static func array(_ object: OpaquePointer?) throws(JSONParseError) -> [JSONValue] {
        let count = json_object_array_length(object)
        var elements: [JSONValue] = []
        elements.reserveCapacity(count)
        for i in 0..<count {
            elements.append(try value(of: json_object_array_get_idx(object, i)))
        }
        return elements
    }

    private static func members(_ object: OpaquePointer?) throws(JSONParseError) -> JSONObject {
        // The hash table's entry list is in insertion order (json_object_object_foreach is a
        // macro Swift cannot import; json_object_iter_* would do the same walk).
        let table = json_object_get_object(object)
        var result = JSONObject(minimumCapacity: Int(lh_table_length(table)))
        var entry = lh_table_head(table)
        while let current = entry {
            let key = String(cString: lh_entry_k(current).assumingMemoryBound(to: CChar.self))
            let child = lh_entry_v(current).map { OpaquePointer($0) }
            result.appendNew(key, try value(of: child))
            entry = lh_entry_next(current)
        }
        return result
    }
}
