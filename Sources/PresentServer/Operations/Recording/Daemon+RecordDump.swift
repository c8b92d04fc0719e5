// Getting the recording out: `recordDump` (to a file, or in the reply), SIGUSR1 and
// SIGABRT (RecorderSignals.swift) write it as NDJSON.

import PresentJSON
import PresentProtocol
import PresentSystem

extension Daemon {
    // MARK: Dumping

    /// The recording as NDJSON: a header line, then every record held, oldest first.
    func recordingNDJSON() -> [UInt8] {
        recorder.resize(to: configuration.recorderBytes)   // a reload may have changed the bound
        var header: JSONObject = ["presentdRecording": 1, "version": .string(presentdVersion),
                                  "clock": .string(configuration.clock.rawValue), "fps": .int(Int64(configuration.fps)),
            "started": .double(configuration.clock == .manual ? 0 : counters.startedAt), "dumped": .double(now)
        ]
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
                throw .invalidParams(
                    field: "path", reason: "must be an absolute path (the daemon's directory is not the caller's)")
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
            ?? Continuity.defaultPath(
                socketPath: listener?.path ?? configuration.socketPath, file: "presentd-recording.ndjson")
    }

    func dumpRecording(reason: String) {
        let path = recordingPath
        do {
            try writeRecording(to: path)
            log.notice(
                "\(reason): wrote the flight recording (\(recorder.count) records, \(recorder.dropped) dropped) to "
                + "\(path)"
            )
        } catch {
            log.error("\(reason): cannot write the flight recording to \(path): \(error)")
        }
    }
}
