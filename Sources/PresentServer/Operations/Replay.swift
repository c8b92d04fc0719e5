// `presentd --replay PATH --clock manual`: plays a flight recording back through a daemon
// in this process, and writes what every recorded connection was sent besides its replies
// (frames, lifecycle, stack, status-bar, animations notifications, shouldDismiss).
//
// Why the streams are the original's, byte for byte (given the same configuration, and a
// recording whose ring lost nothing):
// - The daemon is the real one (the same Daemon, decoder and stack), with no listener:
//   each recorded connection is one end of a socketpair handed to `accept`, with the
//   recorded id (so `owner` fields are the same), the recorded credentials, and the roles
//   the original granted at connect.
// - Each recorded line goes to `handleLine` directly, in the recorded order, only after
//   the one before has been handled and what it caused has been read: the order of
//   everything is the recorded one, with no socket timing in between. Answers to the
//   daemon's `shouldDismiss` are lines like any other; an owner's silence past
//   `shouldDismissTimeout` is a record of its own, and the replay's own timers for it are
//   set never to fire (main.swift).
// - Time: on a manual-clock recording the recorded `advance` requests move the clock, as
//   they did (the replay checks each record's time against the replayed clock and counts
//   divergences). On a monotonic recording the manual clock is moved to each record's
//   time before it is handled: frames fall on the same k/fps ticks both clocks use, but a
//   tick the original loop skipped or ran late is not reproduced.
// - Frames are not coalesced in a replay (they are kept like lossless messages): the
//   stream is every frame the daemon made, which is what a subscriber that keeps up gets.
// - Nothing random reaches these streams: resume tokens are only in `hello` replies
//   (replies are not written), and secrets were recorded as "•len:N", which reach a stream
//   only where the daemon sends a field's value (an `action` notification to the owner,
//   `stack` content), never in frames or lifecycle events.
// - The state file is not read (`--state-file none` is implied): the session starts, as
//   the recording does, from an empty stack.

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol
import PresentSystem

/// What a replay found, for its closing log line.
public struct ReplayReport: Sendable {
    public var records = 0
    public var linesHandled = 0
    public var notificationsWritten = 0
    /// Records whose time differs from the replayed clock's (manual-clock recordings).
    public var divergences: [UInt64] = []
    /// Records about a connection the recording never showed connecting (lost with the
    /// ring's oldest records).
    public var orphanRecords = 0
    /// Records the original ring had dropped.
    public var droppedBeforeDump: Int64 = 0
}

public enum ReplayError: Error, CustomStringConvertible {
    case invalid(String)
    case system(String)
    public var description: String {
        switch self {
        case .invalid(let why): return "not a presentd recording: \(why)"
        case .system(let why): return why
        }
    }
}

extension Daemon {
    /// The times a recording may hold, seconds: a daemon's clock starts at 0 (manual) or
    /// at boot (monotonic), and 10⁹ s is 31 years of uptime. Far beyond it a frame
    /// clock's tick count (t × fps) no longer holds the +1 of the next tick, and the
    /// replay would count ticks for ever.
    static let replayableTimes = 0.0...1e9

    /// Replays `recording` (the NDJSON of a dump); `write` gets each line a recorded
    /// connection was sent that is not a reply, as `{"conn":N,"message":LINE}\n` with the
    /// line's bytes as sent. Needs the manual clock. A record that is not one stops the
    /// replay there with a `ReplayError` (what came before it was replayed).
    public func replay(_ recording: [UInt8], write: ([UInt8]) -> Void) throws -> ReplayReport {
        guard configuration.clock == .manual else { throw ReplayError.invalid("--replay needs --clock manual") }
        SignalWatcher.ignoreSIGPIPE()
        var lines = recording.split(separator: 0x0A, omittingEmptySubsequences: true)
        guard !lines.isEmpty else { throw ReplayError.invalid("it is empty") }
        let header: JSONValue
        do { header = try JSONValue.parse(Array(lines.removeFirst())) } catch {
            throw ReplayError.invalid("its header line does not parse")
        }
        guard header["presentdRecording"] == 1 else {
            throw ReplayError.invalid("no {\"presentdRecording\": 1} header")
        }
        let recordedManual = header["clock"] == "manual"
        var report = ReplayReport()
        report.droppedBeforeDump = header["dropped"]?.int64Value ?? 0
        if report.droppedBeforeDump > 0 {
            log.warning("the recording's ring had dropped its \(report.droppedBeforeDump) oldest records: "
                        + "the replay starts from an empty daemon where the original did not")
        }
        if !recordedManual, let started = header["started"]?.doubleValue {
            guard Self.replayableTimes.contains(started) else {
                throw ReplayError.invalid("its header's started (\(started)) is not a time on a monotonic clock")
            }
            manualClock.move(to: started)
            for screen in screens { screen.stack.advance(to: started) }
        }

        var session = ReplaySession()
        defer { session.closeAll() }
        for line in lines {
            report.records += 1
            let record: JSONValue
            do { record = try JSONValue.parse(Array(line)) } catch {
                throw ReplayError.invalid("record \(report.records) does not parse")
            }
            guard let conn = record["conn"]?.int64Value.map({ UInt64(bitPattern: $0) }),
                let t = record["t"]?.doubleValue
            else { throw ReplayError.invalid("record \(report.records) has no conn or t") }
            guard Self.replayableTimes.contains(t) else {
                throw ReplayError.invalid("record \(report.records)'s t (\(t)) is not a time on the daemon's clock")
            }
            let n = UInt64(bitPattern: record["n"]?.int64Value ?? 0)
            if recordedManual {
                if abs(now - t) > 1e-9 { report.divergences.append(n) }
            } else if t > manualClock.time {
                advanceManualClock(by: t - manualClock.time)
            }
            if let message = Self.messageBytes(of: Array(line)) {
                guard let client = clients[conn] else { report.orphanRecords += 1; continue }
                message.withUnsafeBytes { handleLine($0, from: client) }
                report.linesHandled += 1
            } else {
                switch record["event"]?.stringValue {
                case "connect":
                    try replayConnect(record, id: conn, into: &session)
                case "disconnect":
                    guard let client = clients[conn] else { report.orphanRecords += 1; continue }
                    session.pump(self)
                    client.connection.close()
                    loop.run(until: { self.clients[conn] == nil })
                case "shouldDismissTimeout":
                    // The original's timer fired here; the replay's never does (main.swift).
                    guard let question = record["question"]?.stringValue else {
                        throw ReplayError.invalid("record \(report.records): no question")
                    }
                    ownerQuestions.settle(question, allow: true, how: "timeout")
                case "hello", "invalidLine":
                    break   // the hello line did it; an invalid line changed nothing but its error reply
                default:
                    throw ReplayError.invalid("record \(report.records) is neither a message nor a known event")
                }
            }
            session.pump(self)
            report.notificationsWritten += session.flush(write)
        }
        session.pump(self)
        report.notificationsWritten += session.flush(write)
        if !report.divergences.isEmpty {
            log.warning("\(report.divergences.count) records were recorded at another time than they replayed at "
                        + "(first: record \(report.divergences[0])): the configuration differs from the original's?")
        }
        log.notice(
            "replayed \(report.records) records (\(report.linesHandled) lines); wrote \(report.notificationsWritten) "
            + "notifications"
        )
        return report
    }

    /// Replays the recording in file `path`.
    public func replay(recordingAt path: String, write: ([UInt8]) -> Void) throws -> ReplayReport {
        let bytes: [UInt8]
        do { bytes = try readWholeFile(path, limit: Self.maxSavedBytes) } catch {
            throw ReplayError.system(
                "cannot read \(path): \(error.code == EFBIG ? "larger than \(Self.maxSavedBytes) bytes" : error.reason)"
            )
        }
        return try replay(bytes, write: write)
    }

    /// The bytes after `,"message":` of a message record, as they were recorded.
    static func messageBytes(of record: [UInt8]) -> [UInt8]? {
        let marker = Array(#","message":"#.utf8)
        guard record.count > marker.count + 1 else { return nil }
        var i = 0
        while i + marker.count < record.count {
            if record[i] == marker[0] && Array(record[i..<(i + marker.count)]) == marker {
                return Array(record[(i + marker.count)..<(record.count - 1)])
            }
            i += 1
        }
        return nil
    }

    /// A recorded connection: a socketpair's end handed to `accept` with the recorded id,
    /// credentials and roles.
    private func replayConnect(_ record: JSONValue, id: UInt64, into session: inout ReplaySession) throws {
        guard loop.reserveConnectionID(id) else {
            throw ReplayError.invalid("connection \(id) is not newer than the connections before it")
        }
        var fds: [Int32] = [0, 0]
        do {
            _ = try valueOrErrno("socketpair") {
                socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds)
            }
            let flags = try valueOrErrno("fcntl(F_GETFL)") { fcntl(fds[1], F_GETFL) }
            _ = try valueOrErrno("fcntl(F_SETFL)") { fcntl(fds[1], F_SETFL, flags | O_NONBLOCK) }
        } catch {
            throw ReplayError.system(error.description)
        }
        let connection: Connection
        do { connection = try Connection(loop: loop, fd: fds[0]) } catch {
            closeDescriptor(fds[1])
            throw ReplayError.system("cannot open a replayed connection: \(error)")
        }
        session.ends[id] = fds[1]
        session.order.append(id)
        let peer = PeerCredentials(pid: Int32(truncatingIfNeeded: record["pid"]?.int64Value ?? 0),
                                   uid: UInt32(truncatingIfNeeded: record["uid"]?.int64Value ?? Int64(geteuid())),
                                   gid: UInt32(truncatingIfNeeded: record["gid"]?.int64Value ?? Int64(getegid())))
        accept(connection, peer: peer)
        guard let client = clients[id] else { return }   // refused, as the original would have been
        connection.coalescesFrames = false
        connection.maxQueuedBytes = 1 << 30
        // The roles the original granted (its unit and groups were read from the living peer).
        if let names = record["roles"]?.arrayValue {
            client.grant(RoleSet(names.compactMap { $0.stringValue.flatMap(Role.init(rawValue:)) }),
                maxPriority: record["maxPriority"]?.int64Value.map { Int($0) }, unit: record["unit"]?.stringValue)
        }
    }
}

/// The replay's ends of the socketpairs, and what has been read from them.
private struct ReplaySession {
    var ends: [UInt64: Int32] = [:]
    var order: [UInt64] = []
    var inboxes: [UInt64: [UInt8]] = [:]

    /// Runs the loop until every connection's queue is written, reading as it goes.
    mutating func pump(_ daemon: Daemon) {
        var quiet = 0
        while quiet < 2 {
            _ = daemon.loop.runOnce(nowait: true)
            let read = readAll()
            let waiting = daemon.clients.values.contains { $0.connection.queuedItems > 0 }
            quiet = read || waiting ? 0 : quiet + 1
            if waiting && !read { waitReadable(timeout: 10) }
        }
    }

    /// Until one of the ends has something to read, or `timeout` milliseconds.
    private func waitReadable(timeout: Int32) {
        var polls = order.compactMap { ends[$0] }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        // A signal ends the wait early, as the timeout does: the caller's loop looks again.
        _ = try? valueOrErrno("poll", retryOnInterrupt: false) { poll(&polls, nfds_t(polls.count), timeout) }
    }

    private mutating func readAll() -> Bool {
        var any = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        for id in order {
            guard let fd = ends[id] else { continue }
            while true {
                // Nothing to read yet, or a failed read: leave it for the next round.
                guard
                    let n = try? valueOrWouldBlock(
                        "read", { chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) } })
                else { break }
                if n == 0 {   // the daemon closed it
                    closeDescriptor(fd)
                    ends[id] = nil
                    break
                }
                inboxes[id, default: []] += chunk[..<n]
                any = true
            }
        }
        return any
    }

    /// Writes the complete lines read so far that are not replies; returns how many.
    mutating func flush(_ write: ([UInt8]) -> Void) -> Int {
        var written = 0
        for id in order {
            guard var inbox = inboxes[id], !inbox.isEmpty else { continue }
            var start = 0
            while let newline = inbox[start...].firstIndex(of: 0x0A) {
                let line = Array(inbox[start..<newline])
                start = newline + 1
                guard Self.isNotification(line) else { continue }
                var out = Array(#"{"conn":"#.utf8) + Array(String(id).utf8) + Array(#","message":"#.utf8)
                out += line
                out += Array("}\n".utf8)
                write(out)
                written += 1
            }
            inbox.removeFirst(start)
            inboxes[id] = inbox
        }
        return written
    }

    /// A message that has a method: a notification, or a request from the daemon
    /// (`shouldDismiss`); replies have none.
    private static func isNotification(_ line: [UInt8]) -> Bool {
        (try? JSONValue.parse(line))?["method"] != nil
    }

    mutating func closeAll() {
        for fd in ends.values { closeDescriptor(fd) }
        ends.removeAll()
    }
}
