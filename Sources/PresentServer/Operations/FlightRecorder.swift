// The flight recorder: a bounded ring of everything the daemon handled — each request
// line and answer a connection sent, and each connect, hello and disconnect — with the
// daemon's time (monotonic or manual) and the connection's id. `recordDump`, SIGUSR1
// and `presentctl record-dump` write it as NDJSON; `presentd --replay` (Replay.swift)
// plays it back. The format is in docs/PROTOCOL.md ("The flight recorder").
//
// - Bounded: at most `recorderBytes` bytes of NDJSON (each record's line and its
//   newline); the oldest records leave first and are counted as `dropped`. 0 turns it off.
// - Cheap: a record is one byte array appended to a ring (O(1) amortised: the ring
//   advances a head index and compacts only once half of it is dead). Nothing happens
//   while no connection sends anything. A line is copied verbatim, unless it may carry
//   a secret (below): then it is parsed again, redacted and written out.
// - Secrets do not go in: the `value` of every `secure` field of a `present`/`update`
//   content, the `fields` values of `activate`/`key` for the entry's secure fields (and
//   for fields the daemon cannot place, to be safe), and `hello`'s `resume` token are
//   replaced by "•len:N", N their length in characters.

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol

/// The ring of records: serialised NDJSON lines (without their newline), oldest first.
struct FlightRecorder {
    private var records: [[UInt8]] = []
    private var head = 0
    /// NDJSON bytes held (each record and its newline).
    private(set) var bytes = 0
    /// Records that left to make room (or that were larger than the whole ring).
    private(set) var dropped: UInt64 = 0
    /// Records ever made: the next one is numbered `made + 1`.
    private(set) var made: UInt64 = 0

    var count: Int { records.count - head }
    /// The records held, oldest first.
    var held: ArraySlice<[UInt8]> { records[head...] }

    /// The number the next record gets.
    var nextNumber: UInt64 { made + 1 }

    mutating func append(_ record: [UInt8], limit: Int) {
        made += 1
        guard record.count + 1 <= limit else {
            dropped += 1
            return
        }
        records.append(record)
        bytes += record.count + 1
        trim(to: limit)
    }

    /// Drops the oldest records until at most `limit` bytes are held.
    mutating func trim(to limit: Int) {
        while bytes > limit, head < records.count {
            bytes -= records[head].count + 1
            records[head] = []
            head += 1
            dropped += 1
        }
        if head >= 32, head * 2 >= records.count {
            records.removeFirst(head)
            head = 0
        }
    }
}

/// The placeholder a secret is recorded as.
func redactedSecret(_ value: JSONValue) -> JSONValue {
    let length = value.stringValue?.count ?? value.serializedString.count
    return .string("•len:\(length)")
}

extension Daemon {
    var isRecording: Bool { configuration.recorderBytes > 0 }

    // MARK: Recording

    /// One record: `n`, `t`, `conn`, then `fields`, then (when given) `message` spliced in
    /// as the bytes it already is.
    private func record(_ client: Client, _ fields: JSONObject, message: UnsafeRawBufferPointer? = nil) {
        record(conn: client.id, fields, message: message)
    }

    private func record(conn: UInt64, _ fields: JSONObject, message: UnsafeRawBufferPointer? = nil) {
        // Written member by member: this runs for every request a daemon handles.
        var writer = JSONWriter(capacity: 48 + (message?.count ?? 0))
        writer.beginObject()
        writer.member("n", .int(Int64(truncatingIfNeeded: recorder.nextNumber)))
        writer.member("t", .double(now))
        writer.member("conn", .int(Int64(truncatingIfNeeded: conn)))
        for (key, value) in fields { writer.member(key, value) }
        if let message { writer.member("message", json: message) }
        writer.endObject()
        recorder.append(writer.bytes, limit: configuration.recorderBytes)
    }

    func recordConnect(_ client: Client) {
        guard isRecording else { return }
        var fields: JSONObject = ["event": "connect", "pid": .int(Int64(client.peer.pid)), "uid": .int(Int64(client.peer.uid)),
                                  "gid": .int(Int64(client.peer.gid))]
        for (key, value) in roleFields(of: client) { fields[key] = value }
        if let unit = client.unit { fields["unit"] = .string(unit) }
        record(client, fields)
    }

    func recordHello(_ client: Client) {
        guard isRecording else { return }
        record(client, ["event": "hello", "name": client.name.map { .string($0) } ?? .null])
    }

    func recordDisconnect(_ client: Client) {
        guard isRecording else { return }
        record(client, ["event": "disconnect"])
    }

    /// An owner did not answer `shouldDismiss` in time (a timer: the one thing that happens
    /// without a line, on the manual clock too).
    func recordTimeout(of question: String, askedOf owner: UInt64) {
        guard isRecording else { return }
        record(conn: owner, ["event": "shouldDismissTimeout", "question": .string(question)])
    }

    /// A line that did not parse: only its length (it may hold anything).
    func recordInvalidLine(_ line: UnsafeRawBufferPointer, from client: Client) {
        guard isRecording else { return }
        record(client, ["event": "invalidLine", "bytes": .int(Int64(line.count))])
    }

    /// A line that parsed (a request, a batch or an answer), before it is handled: the
    /// fields that may be secure are redacted against the stack as it is now.
    func recordLine(_ line: UnsafeRawBufferPointer, from client: Client) {
        guard isRecording else { return }
        guard Self.mayHoldSecret(line) else { return record(client, [:], message: line) }
        guard let value = try? JSONValue.parse(line, maxDepth: 64) else { return recordInvalidLine(line, from: client) }
        let redacted: JSONValue
        if case .array(let items) = value { redacted = .array(items.map(redact)) } else { redacted = redact(value) }
        redacted.serialized().withUnsafeBytes { record(client, [:], message: $0) }
    }

    /// Whether a line may name a secret: field values (`fields`, in content and in
    /// answers), a resume token, or a `\u` escape that could spell either.
    private static func mayHoldSecret(_ line: UnsafeRawBufferPointer) -> Bool {
        contains(line, "fields") || contains(line, "resume") || contains(line, #"\u"#)
    }

    private static func contains(_ line: UnsafeRawBufferPointer, _ word: StaticString) -> Bool {
        // memchr finds each candidate first byte at memory speed (memmem is not in Glibc's
        // Swift module: it needs _GNU_SOURCE).
        let needle = word.utf8Start, count = word.utf8CodeUnitCount
        guard let base = line.baseAddress, count > 0, line.count >= count else { return false }
        var from = base
        let end = base + line.count - count + 1
        while from < end, let hit = memchr(from, Int32(needle.pointee), end - from) {
            if memcmp(hit, needle, count) == 0 { return true }
            from = UnsafeRawPointer(hit) + 1
        }
        return false
    }

    /// One message with its secrets replaced.
    private func redact(_ message: JSONValue) -> JSONValue {
        guard var o = message.objectValue, let method = o["method"]?.stringValue, var params = o["params"]?.objectValue else {
            return message
        }
        switch method {
        case "present", "update":
            guard var content = params["content"]?.objectValue, let fields = content["fields"]?.arrayValue else { return message }
            content["fields"] = .array(fields.map { field in
                guard var f = field.objectValue, f["kind"] == "secure", let value = f["value"], !value.isNull else { return field }
                f["value"] = redactedSecret(value)
                return .object(f)
            })
            params["content"] = .object(content)
        case "activate", "key":
            guard let values = params["fields"]?.objectValue else { return message }
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

    // MARK: Dumping

    /// The recording as NDJSON: a header line, then every record held, oldest first.
    func recordingNDJSON() -> [UInt8] {
        recorder.trim(to: configuration.recorderBytes)   // a reload may have lowered the bound
        var header: JSONObject = ["presentdRecording": 1, "version": .string(presentdVersion),
                                  "clock": .string(configuration.clock.rawValue), "fps": .int(Int64(configuration.fps)),
                                  "started": .double(configuration.clock == .manual ? 0 : counters.startedAt), "dumped": .double(now)]
        header["limit"] = .int(Int64(configuration.recorderBytes))
        header["bytes"] = .int(Int64(recorder.bytes))
        header["records"] = .int(Int64(recorder.count))
        header["dropped"] = .int(Int64(truncatingIfNeeded: recorder.dropped))
        var out = JSONValue.object(header).serializedLine()
        out.reserveCapacity(out.count + recorder.bytes)
        for record in recorder.held {
            out += record
            out.append(0x0A)
        }
        return out
    }

    /// `recordDump`'s summary of what a dump holds.
    private var recordingSummary: JSONObject {
        ["records": .int(Int64(recorder.count)), "bytes": .int(Int64(recorder.bytes)),
         "dropped": .int(Int64(truncatingIfNeeded: recorder.dropped))]
    }

    /// Writes the recording to `path` atomically (a temporary file renamed over it, mode 0600).
    func writeRecording(to path: String) throws(StateFileError) {
        try Self.writeAtomically(recordingNDJSON(), to: path)
    }

    /// `recordDump {path?}`: with a path, the daemon writes the file; without, the reply
    /// carries the NDJSON text.
    func recordDump(path: String?, for client: Client) throws(RPCError) -> JSONValue {
        // Off (and so in a replay, which must not write a recorded path again).
        guard isRecording else {
            throw RPCError(code: .invalidRequest, message: "the flight recorder is off (recorderBytes is 0)",
                           data: ["field": "recorderBytes", "reason": "off"])
        }
        var result = recordingSummary
        if let path {
            guard path.hasPrefix("/") else {
                throw .invalidParams(field: "path", reason: "must be an absolute path (the daemon's directory is not the caller's)")
            }
            do { try writeRecording(to: path) } catch {
                throw RPCError(code: .internalError, message: "cannot write the recording: \(error)",
                               data: ["field": "path", "reason": .string(error.description)])
            }
            result["path"] = .string(path)
        } else {
            let text = String(decoding: recordingNDJSON(), as: UTF8.self)
            // The ring may be as large as a connection's queue bound: this connection (an
            // administrator's) may queue the reply whole, escaping doubling it at most.
            let needed = client.connection.queuedBytes + 2 * text.utf8.count + 4096
            client.connection.maxQueuedBytes = max(client.connection.maxQueuedBytes, needed)
            result["recording"] = .string(text)
        }
        return .object(result)
    }

    /// Where SIGUSR1 writes the recording: `--dump-recording PATH`, else
    /// `presentd-recording.ndjson` where the state file goes by default
    /// (`$RUNTIME_DIRECTORY`, else beside the socket).
    var recordingPath: String {
        configuration.recordingPath
            ?? Continuity.defaultPath(socketPath: listener?.path ?? configuration.socketPath, file: "presentd-recording.ndjson")
    }

    /// SIGUSR1: dump the recording to `recordingPath`. SIGABRT (systemd's watchdog signal):
    /// dump it too, when the loop still runs to see the signal, then abort as the signal
    /// meant (a core dump, the exit status). A loop stuck for good never sees it: systemd
    /// kills the daemon without a dump, and the last SIGUSR1 or recordDump is what there is.
    func watchRecorderSignal() throws {
        signalWatchers.append(try SignalWatcher(loop: loop, signals: [SIGUSR1]) { [unowned self] _ in
            self.dumpRecording(reason: "SIGUSR1")
        })
        signalWatchers.append(try SignalWatcher(loop: loop, signals: [SIGABRT]) { [unowned self] _ in
            if self.isRecording { self.dumpRecording(reason: "SIGABRT") }
            signal(SIGABRT, SIG_DFL)
            raise(SIGABRT)
        })
    }

    func dumpRecording(reason: String) {
        let path = recordingPath
        do {
            try writeRecording(to: path)
            log.notice("\(reason): wrote the flight recording (\(recorder.count) records, \(recorder.dropped) dropped) to \(path)")
        } catch {
            log.error("\(reason): cannot write the flight recording to \(path): \(error)")
        }
    }
}
