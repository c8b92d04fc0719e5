// What the daemon puts in the flight recorder (FlightRecorder.swift), and when: each
// connect, hello and disconnect, each line a connection sends (redacted first when it may
// hold a secret: RecordingRedaction.swift), a line that does not parse, an unanswered
// question. A connection that closed before it sent a byte is not recorded at all
// (UnixListener lets it go as it accepts it): it cannot have changed anything.

import PresentJSON

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

    /// Every connection's first record, so it is written by hand into bytes on the stack:
    /// its members' names are literals, its values numbers and the role set's names (a
    /// text made once, Roles.swift); only a unit's name, rare, goes through the serialiser.
    /// A writer's work for each member was most of a connect + close.
    func recordConnect(_ client: Client) {
        guard isRecording else { return }
        let unit = client.unit.map { JSONValue.string($0).serialized() } ?? []
        let roles = roleNamesText(of: client)
        // The literals, and four integers of at most 20 characters, take less than 256 bytes.
        withUnsafeTemporaryAllocation(byteCount: 256 + roles.count + unit.count, alignment: 1) { room in
            var text = EventText(room)
            text.put(#""event":"connect","pid":"#)
            text.put(Int64(client.peer.pid))
            text.put(#","uid":"#)
            text.put(Int64(client.peer.uid))
            text.put(#","gid":"#)
            text.put(Int64(client.peer.gid))
            text.put(#","roles":"#)
            roles.withUnsafeBytes { text.put($0) }
            if let ceiling = client.maxPriority {
                text.put(#","maxPriority":"#)
                text.put(Int64(ceiling))
            }
            if !unit.isEmpty {
                text.put(#","unit":"#)
                unit.withUnsafeBytes { text.put($0) }
            }
            recorder.record(event: text.written, connection: client.id, time: now, limit: configuration.recorderBytes)
        }
    }

    func recordHello(_ client: Client) {
        guard isRecording else { return }
        record(event: ["event": "hello", "name": client.name.map { .string($0) } ?? .null], conn: client.id)
    }

    func recordDisconnect(_ client: Client) {
        guard isRecording else { return }
        recorder.record(
            event: #""event":"disconnect""#, connection: client.id, time: now, limit: configuration.recorderBytes)
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
}
