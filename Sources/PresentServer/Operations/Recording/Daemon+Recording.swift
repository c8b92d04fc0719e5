// What the daemon puts in the flight recorder (FlightRecorder.swift), and when: each
// connect, hello and disconnect, each line a connection sends (redacted first when it may
// hold a secret: RecordingRedaction.swift), a line that does not parse, an unanswered
// question.

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

    /// Every connection's first record, so it is written straight into bytes: building and
    /// serializing an object would be a large part of a connect + close.
    func recordConnect(_ client: Client) {
        guard isRecording else { return }
        recorder.record(event: { writer in
            writer.member("event", "connect")
            writer.member("pid", .int(Int64(client.peer.pid)))
            writer.member("uid", .int(Int64(client.peer.uid)))
            writer.member("gid", .int(Int64(client.peer.gid)))
            writeRoleFields(of: client, to: &writer)
            if let unit = client.unit { writer.member("unit", .string(unit)) }
        }, connection: client.id, time: now, limit: configuration.recorderBytes)
    }

    func recordHello(_ client: Client) {
        guard isRecording else { return }
        record(event: ["event": "hello", "name": client.name.map { .string($0) } ?? .null], conn: client.id)
    }

    func recordDisconnect(_ client: Client) {
        guard isRecording else { return }
        recorder.record(event: #""event":"disconnect""#, connection: client.id, time: now, limit: configuration.recorderBytes)
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
