// The flight recorder: a bounded ring of everything the daemon handled — each request
// line and answer a connection sent, and each connect, hello and disconnect — with the
// daemon's time (monotonic or manual) and the connection's id. `recordDump`, SIGUSR1
// and `presentctl record-dump` write it as NDJSON; `presentd --replay` (Replay.swift)
// plays it back. The format is in docs/PROTOCOL.md ("The flight recorder").
//
// - Bounded: the records take at most `recorderBytes` bytes of memory, each a 29-byte
//   header (payload length, number, time, connection, kind) and its payload; the oldest
//   leave first and are counted as `dropped`. 0 turns it off. A dump is somewhat larger:
//   its lines spell the header's numbers in some 50 bytes of text (a third more than the
//   ring for lines as short as `ping`'s, a few percent for a `present`).
// - Cheap: recording a line is copying it, with its header, into one contiguous byte ring
//   (RecordRing): no formatting, and no allocation but the ring's, made with the first
//   record (an idle daemon does not hold it). The NDJSON is written only for a dump, in
//   one place (FlightRecorder.appendNDJSON). A line is copied verbatim unless it may
//   carry a secret (below): then it is parsed again, redacted and written out.
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
import PresentSystem

/// A bounded FIFO of variable-length records in one contiguous byte buffer: each record is
/// its payload's length (32 bits), a fixed `Header` and the payload, back to back, wrapping
/// around the buffer's end. A record that does not fit makes the oldest leave; one larger
/// than the whole ring is not kept. It knows nothing of what the records mean.
///
/// The buffer is allocated with the first record, so a ring never used costs no memory (and
/// its pages become resident only as records reach them). Noncopyable: it owns the buffer.
struct RecordRing<Header: BitwiseCopyable>: ~Copyable {
    /// The bytes a record takes besides its payload: its length, then its header.
    static var overhead: Int { MemoryLayout<UInt32>.size + MemoryLayout<Header>.size }

    /// The bound: the records held take at most this many bytes.
    private(set) var capacity: Int
    /// Bytes the records held take, overheads included.
    private(set) var bytes = 0
    /// Records held.
    private(set) var count = 0
    /// Records that left to make room, or that were larger than the whole ring.
    private(set) var dropped: UInt64 = 0
    /// `capacity` bytes; nil until the first record, and while a resize leaves none.
    private var storage: UnsafeMutableRawPointer?
    /// Where the oldest record starts (its length's first byte).
    private var head = 0

    /// An empty ring of `capacity` bytes (none allocated yet).
    init(capacity: Int) {
        Self.checkCapacity(capacity)
        self.capacity = capacity
    }

    deinit { storage?.deallocate() }

    /// Whether the buffer is allocated: not before the first record.
    var isAllocated: Bool { storage != nil }

    /// Appends a record, dropping first the oldest ones whose room it needs. One larger than
    /// the whole ring is dropped itself (and counted).
    mutating func append(_ header: Header, payload: UnsafeRawBufferPointer) {
        let size = Self.overhead + payload.count
        guard size <= capacity else {
            dropped += 1
            return
        }
        while bytes + size > capacity { dropOldest() }
        if storage == nil { storage = .allocate(byteCount: capacity, alignment: 1) }
        var end = wrapped(head + bytes)
        end = store(UInt32(payload.count), at: end)   // fits: capacity < 2^32 (checkCapacity)
        end = store(header, at: end)
        _ = copy(payload, to: end)
        bytes += size
        count += 1
    }

    /// Makes `newCapacity` the bound: the oldest records that no longer fit leave (counted
    /// as dropped) and the rest move to a buffer of that size, allocated only if some are
    /// left. A ring that keeps its size keeps its buffer (the recorder asks with every
    /// record: this much is inlined).
    mutating func resize(to newCapacity: Int) {
        if newCapacity != capacity { move(to: newCapacity) }
    }

    /// Calls `body` with each record held, oldest first. A payload that wraps around the
    /// buffer's end is handed over as a copy (at most one record's does).
    func forEach(_ body: (Header, UnsafeRawBufferPointer) -> Void) {
        guard let storage else { return }
        var at = head
        for _ in 0..<count {
            let length = Int(load(UInt32.self, at: at))
            let header = load(Header.self, at: wrapped(at + MemoryLayout<UInt32>.size))
            let start = wrapped(at + Self.overhead)
            if start + length <= capacity {
                body(header, UnsafeRawBufferPointer(start: storage + start, count: length))
            } else {
                let payload = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
                    _ = copy(from: start, to: UnsafeMutableRawBufferPointer(buffer))
                    initialized = length
                }
                payload.withUnsafeBytes { body(header, $0) }
            }
            at = wrapped(start + length)
        }
        assert(at == wrapped(head + bytes), "the records held do not add up to the bytes held")
    }

    // MARK: The buffer

    // The helpers that every record runs (several times) are inlined: called, their
    // prologues cost as much as their work.

    /// `resize` to another capacity: drops what no longer fits, moves the rest.
    private mutating func move(to newCapacity: Int) {
        Self.checkCapacity(newCapacity)
        while bytes > newCapacity { dropOldest() }
        var moved: UnsafeMutableRawPointer?
        if bytes > 0 {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 1)
            _ = copy(from: head, to: UnsafeMutableRawBufferPointer(start: buffer, count: bytes))
            moved = buffer
        }
        storage?.deallocate()
        storage = moved
        head = 0
        capacity = newCapacity
    }

    /// A record's length is stored in 32 bits, and none is longer than the ring.
    private static func checkCapacity(_ capacity: Int) {
        precondition(capacity >= 0 && capacity <= Int(UInt32.max), "a ring's capacity is 0 to 2^32 - 1 bytes")
    }

    /// Drops the oldest record.
    private mutating func dropOldest() {
        precondition(count > 0, "no record left to drop")
        let size = Self.overhead + Int(load(UInt32.self, at: head))
        precondition(size <= bytes, "the oldest record's length runs past the bytes held")
        head = wrapped(head + size)
        bytes -= size
        count -= 1
        dropped += 1
    }

    /// An offset past the buffer's end, brought back into it (offsets stay below twice the
    /// capacity: no record is longer than the buffer).
    @inline(__always)
    private func wrapped(_ offset: Int) -> Int {
        assert(offset >= 0 && offset < 2 * capacity, "an offset more than once around the ring")
        return offset >= capacity ? offset - capacity : offset
    }

    /// Stores `value`'s bytes at `offset` (unaligned: records are packed); returns the
    /// offset after them.
    @inline(__always)
    private func store<T: BitwiseCopyable>(_ value: T, at offset: Int) -> Int {
        guard let storage, offset + MemoryLayout<T>.size <= capacity else {
            return withUnsafeBytes(of: value) { copy($0, to: offset) }   // around the end
        }
        (storage + offset).storeBytes(of: value, as: T.self)
        return wrapped(offset + MemoryLayout<T>.size)
    }

    /// The value whose bytes are at `offset` (unaligned; if they wrap around the end, copied
    /// out whole first).
    @inline(__always)
    private func load<T: BitwiseCopyable>(_ type: T.Type, at offset: Int) -> T {
        guard let storage, offset + MemoryLayout<T>.size <= capacity else {
            return withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment) { buffer in
                _ = copy(from: offset, to: buffer)
                return buffer.load(as: T.self)
            }
        }
        return storage.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// Copies `source` into the buffer at `offset`, wrapping at its end; returns the offset
    /// after it.
    @inline(__always)
    private func copy(_ source: UnsafeRawBufferPointer, to offset: Int) -> Int {
        guard let storage, let base = source.baseAddress else { return offset }
        precondition(offset < capacity && source.count <= capacity, "a copy larger than the ring")
        let first = min(source.count, capacity - offset)
        (storage + offset).copyMemory(from: base, byteCount: first)
        if first < source.count { storage.copyMemory(from: base + first, byteCount: source.count - first) }
        return wrapped(offset + source.count)
    }

    /// Fills `destination` from the buffer at `offset`, wrapping at its end; returns the
    /// offset after what it read.
    private func copy(from offset: Int, to destination: UnsafeMutableRawBufferPointer) -> Int {
        guard let storage, let base = destination.baseAddress else { return offset }
        precondition(offset < capacity && destination.count <= capacity, "a copy larger than the ring")
        let first = min(destination.count, capacity - offset)
        base.copyMemory(from: storage + offset, byteCount: first)
        if first < destination.count { (base + first).copyMemory(from: storage, byteCount: destination.count - first) }
        return wrapped(offset + destination.count)
    }
}

/// The flight recorder's records: kept in binary in a `RecordRing`, numbered, and written as
/// NDJSON only when the recording is dumped (loop thread only).
final class FlightRecorder {
    /// What a record's payload is.
    enum Kind: UInt8 {
        /// A line as a connection sent it (or as redacted): the record's `message`.
        case line
        /// An event's members as JSON text, `"event":"hello","name":"app"`: what follows
        /// `conn` in the record's line.
        case event
    }

    /// A record's fixed part.
    struct Header {
        /// Its number since the daemon started, from 1.
        var number: UInt64
        /// The daemon's clock when it was recorded: the Double itself, so that the dump
        /// spells it as the serialiser does any double, which reads back exactly (a
        /// replay compares it with its own clock).
        var time: Double
        /// The connection's id.
        var connection: UInt64
        /// What the payload is.
        var kind: Kind
    }

    private var ring = RecordRing<Header>(capacity: 0)
    /// Records ever made, kept or not: the next one is numbered `made + 1`.
    private(set) var made: UInt64 = 0

    /// Bytes the records held take in the ring (what `recorderBytes` bounds).
    var bytes: Int { ring.bytes }
    /// Records held.
    var count: Int { ring.count }
    /// Records that left the ring, or never fitted in it.
    var dropped: UInt64 { ring.dropped }
    /// Whether the ring's memory is allocated (not before the first record).
    var isAllocated: Bool { ring.isAllocated }

    /// Records `line` (the bytes a connection sent, or their redaction) in a ring of `limit` bytes.
    func record(line: UnsafeRawBufferPointer, connection: UInt64, time: Double, limit: Int) {
        append(.line, line, connection: connection, time: time, limit: limit)
    }

    /// Records an event, `fields` its members after `conn` (`event` first), in a ring of
    /// `limit` bytes. Events are rare: their text is written now, from the state they name.
    func record(event fields: JSONObject, connection: UInt64, time: Double, limit: Int) {
        record(event: { writer in for (key, value) in fields { writer.member(JSONKey(key), value) } },
               connection: connection, time: time, limit: limit)
    }

    /// Records an event whose members `writeMembers` writes (`event` first): for events
    /// every connection has, written straight into bytes with no object in between.
    func record(event writeMembers: (inout JSONWriter) -> Void, connection: UInt64, time: Double, limit: Int) {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        writeMembers(&writer)
        writer.endObject()
        let object = writer.takeBytes()
        assert(object.count > 2 && object.first == UInt8(ascii: "{") && object.last == UInt8(ascii: "}"))
        object.withUnsafeBytes { text in
            append(.event, UnsafeRawBufferPointer(rebasing: text.dropFirst().dropLast()), connection: connection, time: time,
                   limit: limit)
        }
    }

    /// Makes `limit` the ring's bound (a reload may have changed it): the oldest records
    /// that no longer fit leave.
    func resize(to limit: Int) { ring.resize(to: limit) }

    /// Appends the records held as NDJSON, oldest first, one line each:
    /// `{"n":N,"t":T,"conn":C,"message":LINE}` or `{"n":N,"t":T,"conn":C,MEMBERS}`, the
    /// numbers spelled as JSONWriter spells them: integers in decimal, a (finite) double as
    /// its `description`, the shortest text that reads back as the same double.
    func appendNDJSON(to out: inout [UInt8]) {
        ring.forEach { header, payload in
            precondition(header.time.isFinite, "the daemon's clock is finite")
            Self.append(literal: #"{"n":"#, to: &out)
            Self.append(text: String(header.number), to: &out)
            Self.append(literal: #","t":"#, to: &out)
            Self.append(text: header.time.description, to: &out)
            Self.append(literal: #","conn":"#, to: &out)
            Self.append(text: String(header.connection), to: &out)
            Self.append(literal: header.kind == .line ? #","message":"# : ",", to: &out)
            out.append(contentsOf: payload)
            Self.append(literal: "}\n", to: &out)
        }
    }

    // A dump may format some 60 000 records in the event loop: text goes in through its
    // contiguous bytes (appending a `String.UTF8View` goes byte by byte, and formatting
    // each number with a JSONWriter allocates its buffer).

    /// Appends a literal's bytes.
    private static func append(literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8.
    private static func append(text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Numbers and keeps one record, first giving the ring the bound it must have now.
    private func append(_ kind: Kind, _ payload: UnsafeRawBufferPointer, connection: UInt64, time: Double, limit: Int) {
        ring.resize(to: limit)
        made += 1
        ring.append(Header(number: made, time: time, connection: connection, kind: kind), payload: payload)
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

    /// An event of connection `conn`, at the daemon's time.
    private func record(event fields: JSONObject, conn: UInt64) {
        recorder.record(event: fields, connection: conn, time: now, limit: configuration.recorderBytes)
    }

    /// A line of `client`'s (as sent, or redacted), at the daemon's time.
    private func record(line: UnsafeRawBufferPointer, from client: Client) {
        recorder.record(line: line, connection: client.id, time: now, limit: configuration.recorderBytes)
    }

    /// Every connection's first record, so it is written straight into bytes (building
    /// and serializing an object was a third of a connect + close's instructions).
    func recordConnect(_ client: Client) {
        guard isRecording else { return }
        recorder.record(event: { writer in
            writer.member("event", "connect")
            writer.member("pid", .int(Int64(client.peer.pid)))
            writer.member("uid", .int(Int64(client.peer.uid)))
            writer.member("gid", .int(Int64(client.peer.gid)))
            for (key, value) in roleFields(of: client) { writer.member(JSONKey(key), value) }
            if let unit = client.unit { writer.member("unit", .string(unit)) }
        }, connection: client.id, time: now, limit: configuration.recorderBytes)
    }

    func recordHello(_ client: Client) {
        guard isRecording else { return }
        record(event: ["event": "hello", "name": client.name.map { .string($0) } ?? .null], conn: client.id)
    }

    func recordDisconnect(_ client: Client) {
        guard isRecording else { return }
        record(event: ["event": "disconnect"], conn: client.id)
    }

    /// An owner did not answer `shouldDismiss` in time (a timer: the one thing that happens
    /// without a line, on the manual clock too).
    func recordTimeout(of question: String, askedOf owner: UInt64) {
        guard isRecording else { return }
        record(event: ["event": "shouldDismissTimeout", "question": .string(question)], conn: owner)
    }

    /// A line that did not parse: only its length (it may hold anything).
    func recordInvalidLine(_ line: UnsafeRawBufferPointer, from client: Client) {
        guard isRecording else { return }
        record(event: ["event": "invalidLine", "bytes": .int(Int64(line.count))], conn: client.id)
    }

    /// A line that parsed (a request, a batch or an answer), before it is handled: the
    /// fields that may be secure are redacted against the stack as it is now.
    func recordLine(_ line: UnsafeRawBufferPointer, from client: Client) {
        guard isRecording else { return }
        guard Self.mayHoldSecret(line) else { return record(line: line, from: client) }
        guard let value = try? JSONValue.parse(line, maxDepth: 64) else { return recordInvalidLine(line, from: client) }
        let redacted: JSONValue
        if case .array(let items) = value { redacted = .array(items.map(redact)) } else { redacted = redact(value) }
        redacted.serialized().withUnsafeBytes { record(line: $0, from: client) }
    }

    /// Whether a line may name a secret: field values (`fields`, in content and in
    /// answers), a resume token, or a `\u` escape that could spell either.
    static func mayHoldSecret(_ line: UnsafeRawBufferPointer) -> Bool {
        // Two scans, for bytes most lines lack: an `f` may begin "fields"; a `u` may end
        // `\u` or be the fourth byte of "resume" (whose `r` is in every "jsonrpc").
        anywhere(UInt8(ascii: "f"), in: line) { has("fields", at: $0, in: line) }
            || anywhere(UInt8(ascii: "u"), in: line) { has(#"\u"#, at: $0 - 1, in: line) || has("resume", at: $0 - 3, in: line) }
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
        guard let base = line.baseAddress, offset >= 0, offset + word.utf8CodeUnitCount <= line.count else { return false }
        return memcmp(base + offset, word.utf8Start, word.utf8CodeUnitCount) == 0
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
        recorder.resize(to: configuration.recorderBytes)   // a reload may have changed the bound
        var header: JSONObject = ["presentdRecording": 1, "version": .string(presentdVersion),
                                  "clock": .string(configuration.clock.rawValue), "fps": .int(Int64(configuration.fps)),
                                  "started": .double(configuration.clock == .manual ? 0 : counters.startedAt), "dumped": .double(now)]
        header["limit"] = .int(Int64(configuration.recorderBytes))
        header["bytes"] = .int(Int64(recorder.bytes))
        header["records"] = .int(Int64(recorder.count))
        header["dropped"] = .int(Int64(truncatingIfNeeded: recorder.dropped))
        var out = JSONValue.object(header).serializedLine()
        // A line spells its record's 29-byte header in some 50 bytes of text.
        out.reserveCapacity(out.count + recorder.bytes + 24 * recorder.count)
        recorder.appendNDJSON(to: &out)
        return out
    }

    /// `recordDump`'s summary of what a dump holds.
    private var recordingSummary: JSONObject {
        ["records": .int(Int64(recorder.count)), "bytes": .int(Int64(recorder.bytes)),
         "dropped": .int(Int64(truncatingIfNeeded: recorder.dropped))]
    }

    /// Writes the recording to `path` atomically (a temporary file renamed over it, mode 0600),
    /// flushed to disk: it is written seldom, and often just before the process dies.
    func writeRecording(to path: String) throws(SystemCallError) {
        try writeFileAtomically(recordingNDJSON(), to: path, durable: true)
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
    func recorderSignalWatchers() throws -> [SignalWatcher] {
        [try SignalWatcher(loop: loop, signals: [SIGUSR1]) { [unowned self] _ in
            self.dumpRecording(reason: "SIGUSR1")
        },
         try SignalWatcher(loop: loop, signals: [SIGABRT]) { [unowned self] _ in
            if self.isRecording { self.dumpRecording(reason: "SIGABRT") }
            signal(SIGABRT, SIG_DFL)
            raise(SIGABRT)
        }]
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
