// Secrets stay out of the flight recorder: a line that may hold one is parsed again and
// written with each secret replaced by its length (what is secret: FlightRecorder.swift).

#if canImport(Glibc)
import Glibc
#endif
import PresentJSON

/// The placeholder a secret is recorded as.
func redactedSecret(_ value: JSONValue) -> JSONValue {
    let length = value.stringValue?.count ?? value.serializedString.count
    return .string("•len:\(length)")
}

extension Daemon {
    /// Whether a line may name a secret: field values (`fields`, in content and in
    /// answers), a resume or activation token, or a `\u` escape that could spell any.
    static func mayHoldSecret(_ line: UnsafeRawBufferPointer) -> Bool {
        // Scans for bytes most lines lack: an `f` may begin "fields"; a `u` may end `\u` or
        // be the fourth byte of "resume" (whose `r` is in every "jsonrpc"); a `T` may be the
        // eleventh of "activationToken".
        anywhere(UInt8(ascii: "f"), in: line) { has("fields", at: $0, in: line) }
            || anywhere(UInt8(ascii: "u"), in: line) {
                has(#"\u"#, at: $0 - 1, in: line) || has("resume", at: $0 - 3, in: line)
            }
            || anywhere(UInt8(ascii: "T"), in: line) { has("activationToken", at: $0 - 10, in: line) }
    }

    /// Whether `test` holds at an offset of `line` where `byte` is.
    private static func anywhere(_ byte: UInt8, in line: UnsafeRawBufferPointer, _ test: (Int) -> Bool) -> Bool {
        // memchr finds each one at memory speed (memmem is not in Glibc's Swift module: it
        // needs _GNU_SOURCE).
        guard let base = line.baseAddress else { return false }
        var from = 0
        while from < line.count, let hit = memchr(base + from, Int32(byte), line.count - from) {
            let at = base.distance(to: UnsafeRawPointer(hit))
            if test(at) { return true }
            from = at + 1
        }
        return false
    }

    /// Whether `word` is in `line` at `offset`.
    private static func has(_ word: StaticString, at offset: Int, in line: UnsafeRawBufferPointer) -> Bool {
        guard let base = line.baseAddress, offset >= 0, offset + word.utf8CodeUnitCount <= line.count else {
            return false
        }
        return memcmp(base + offset, word.utf8Start, word.utf8CodeUnitCount) == 0
    }

    /// One message with its secrets replaced.
    func redact(_ message: JSONValue) -> JSONValue {
        guard var o = message.objectValue, let method = o["method"]?.stringValue,
              var params = o["params"]?.objectValue else {
            return message
        }
        switch method {
        case "present", "update":
            guard var content = params["content"]?.objectValue, let fields = content["fields"]?.arrayValue else {
                return message
            }
            content["fields"] = .array(fields.map { field in
                    guard var f = field.objectValue, f["kind"] == "secure", let value = f["value"], !value.isNull else {
                        return field
                    }
                f["value"] = redactedSecret(value)
                return .object(f)
            })
            params["content"] = .object(content)
        case "activate", "key":
            // The token lets an app take the focus: a credential for a moment, as resume is.
            if let token = params["activationToken"] { params["activationToken"] = redactedSecret(token) }
            guard let values = params["fields"]?.objectValue else {
                o["params"] = .object(params)
                return .object(o)
            }
            let id = params["id"]?.stringValue
            var redacted = JSONObject()
            for (field, value) in values {
                redacted[field] = isKnownNotSecure(field: field, entry: id) ? value : redactedSecret(value)
            }
            params["fields"] = .object(redacted)
        case "hello":
            guard let token = params["resume"], !token.isNull else { return message }
            params["resume"] = redactedSecret(token)
        default:
            return message
        }
        o["params"] = .object(params)
        return .object(o)
    }

    /// A field the stack knows and that is not secure: on entry `id`, or (a key without
    /// an id) on every entry that has a field of that name.
    private func isKnownNotSecure(field: String, entry id: String?) -> Bool {
        let entries = screens.flatMap(\.stack.allEntries).filter { id == nil || $0.id == id }
        let kinds = entries.compactMap { $0.effectiveContent?.fields.first { $0.id == field }?.kind }
        return !kinds.isEmpty && !kinds.contains(.secure)
    }
}
