// The flight recorder: a bounded ring of everything the daemon handled — each request
// line and answer a connection sent, and each connect, hello and disconnect — with the
// daemon's time (monotonic or manual) and the connection's id. `recordDump`, SIGUSR1
// and `presentctl record-dump` write it as NDJSON; `presentd --replay` (Replay.swift)
// plays it back. The format is in docs/PROTOCOL.md ("The flight recorder").
//
// - Bounded: the records take at most `recorderBytes` bytes of memory, each a 29-byte
//   header (payload length, number, time, connection, kind) and its payload; the oldest
//   leave first and are counted as `dropped`. 0 turns it off. A dump is larger than the
//   ring, most so for short lines: its lines spell the header's numbers as text.
// - Cheap: recording a line is copying it, with its header, into one contiguous byte ring
//   (RecordRing): no formatting, and no allocation but the ring's, made with the first
//   record (an idle daemon does not hold it). The NDJSON is written only for a dump, in
//   one place (FlightRecorder.appendNDJSON). A line is copied verbatim unless it may
//   carry a secret (below): then it is parsed again, redacted and written out.
// - Secrets do not go in: the `value` of every `secure` field of a `present`/`update`
//   content, the `fields` values of `activate`/`key` for the entry's secure fields (and
//   for fields the daemon cannot place, to be safe), and `hello`'s `resume` token are
//   replaced by "•len:N", N their length in characters.

import PresentJSON

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
            append(
                .event, UnsafeRawBufferPointer(rebasing: text.dropFirst().dropLast()), connection: connection,
                time: time,
                   limit: limit)
        }
    }

    /// Records an event whose members are `members`, JSON text written out in the code
    /// (`"event":"disconnect"`): no writer at all.
    func record(event members: StaticString, connection: UInt64, time: Double, limit: Int) {
        record(event: UnsafeRawBufferPointer(start: members.utf8Start, count: members.utf8CodeUnitCount),
               connection: connection, time: time, limit: limit)
    }

    /// Records an event whose members are the JSON text `members` (`EventText`).
    func record(event members: UnsafeRawBufferPointer, connection: UInt64, time: Double, limit: Int) {
        append(.event, members, connection: connection, time: time, limit: limit)
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

/// An event's members written by hand, as JSON text, into room the caller sized: for the
/// record every connection has, whose names are literals and whose values are numbers and
/// texts made once, without a writer's work for every member.
struct EventText {
    private let room: UnsafeMutableRawBufferPointer
    private var count = 0

    init(_ room: UnsafeMutableRawBufferPointer) { self.room = room }

    /// The text so far.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: room[..<count]) }

    mutating func put(_ literal: StaticString) {
        put(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// JSON text, copied as it is.
    mutating func put(_ text: UnsafeRawBufferPointer) {
        precondition(count + text.count <= room.count, "an event's text outgrew the room made for it")
        UnsafeMutableRawBufferPointer(rebasing: room[count..<(count + text.count)]).copyMemory(from: text)
        count += text.count
    }

    /// An integer in decimal, as the serialiser writes it.
    mutating func put(_ value: Int64) {
        var digits = String(value)
        digits.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }
}
