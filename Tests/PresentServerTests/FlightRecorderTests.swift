// The flight recorder against the real daemon: a recorded soak-like session on the manual
// clock (several clients presenting, updating, tapping, swiping, answering with secure
// field values, one leaving, a subscriber to frames and lifecycle), dumped by recordDump
// and by SIGUSR1 with no secret in either, replayed by `presentd --replay`, and the replayed
// subscriber stream compared byte for byte with what the subscriber received. And the
// ring's bound: old records leave, and the dump says how many. Then the ring itself
// (RecordRing) against a model of it, and the NDJSON its records are dumped as.

#if canImport(Glibc)
import Glibc
#endif
import PresentJSON
@testable import PresentServer
@testable import PresentTestSupport
import Testing

/// A connection that numbers its requests and waits for each reply, keeping every line
/// that is not a reply exactly as it arrived.
private final class Peer {
    let raw: RawConnection
    private var nextID: Int64 = 1
    /// Notifications (and requests from the daemon), bytes as received, in order.
    private(set) var notifications: [[UInt8]] = []
    /// Read after each of this peer's replies: a subscriber that keeps up, as a renderer
    /// does (one that does not read has its frames coalesced, newest wins).
    private let listener: Peer?

    init(_ daemon: DaemonHarness, listener: Peer? = nil) throws {
        raw = try RawConnection(path: daemon.socketPath)
        self.listener = listener
    }

    /// Takes what has arrived, without waiting.
    func drain() throws {
        guard let lines = raw.read() else { return }
        for line in lines where try JSONValue.parse(line)["method"] != nil { notifications.append(line) }
    }

    @discardableResult
    func call(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
        let id = JSONValue.int(nextID)
        nextID += 1
        raw.send(method, id: id, params)
        let deadline = monotonicNow() + generousTimeout
        while monotonicNow() < deadline {
            raw.flush()
            guard raw.waitReadable(timeout: 0.1) else { continue }
            guard let lines = raw.read() else {
                throw HarnessError.setup("connection closed while waiting for \(method)")
            }
            var reply: JSONValue?
            for line in lines {
                let message = try JSONValue.parse(line)
                if message["method"] != nil {
                    notifications.append(line)
                } else if message["id"] == id {
                    reply = message
                }
            }
            if let reply {
                try listener?.drain()
                if let error = reply["error"] { throw HarnessError.setup("\(method): \(error)") }
                return reply["result"] ?? .null
            }
        }
        throw HarnessError.setup("no reply to \(method)")
    }
}

@Suite("Flight recorder")
struct FlightRecorderTests {
    static let password = "s3cret-pass"
    static let initialSecret = "hunter2"

    static func dialog(_ title: String) -> JSONValue {
        ["title": .string(title),
         "fields": [["id": "user", "kind": "text", "value": "ops"], ["id": "pw", "kind": "secure"]],
         "actions": [["id": "ok", "title": "OK", "role": "default"], ["id": "no", "title": "Cancel", "role": "cancel"]]]
    }

    /// Records the session, returns the subscriber's stream and the daemon.
    private static func recordSession(_ daemon: DaemonHarness) throws -> (
        subscriber: [[UInt8]], token: String, peers: [Peer]
    ) {
        let renderer = try Peer(daemon)
        try renderer.call("hello", ["client": "renderer"])
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"]])
        let admin = try Peer(daemon, listener: renderer)
        try admin.call("hello", ["client": "admin"])

        let app = try Peer(daemon, listener: renderer)
        try app.call("hello", ["client": "app-a"])
        try app.call("present", ["id": "login", "style": "alert", "content": dialog("Sign in")])
        try admin.call("advance", ["seconds": 0.25])

        let leaver = try Peer(daemon, listener: renderer)
        let token = try #require(try leaver.call("hello", ["client": "app-b"])["resumeToken"]?.stringValue)
        try leaver.call(
            "present",
            ["id": "toast", "style": "popup", "level": "overlay", "content": "Saved", "autoDismiss": ["after": 1]])
        try admin.call("advance", ["seconds": 0.5])
        try app.call("update", ["id": "login", "content": dialog("Sign in again"), "duration": 0.2])

        let shell = try Peer(daemon, listener: renderer)
        try shell.call("hello", ["client": "shell"])
        try shell.call("tap", ["x": 195, "y": 420])
        try shell.call("swipe", ["phase": "began", "dx": 0, "dy": 0])
        try shell.call("swipe", ["phase": "changed", "dx": 0, "dy": 40])
        try admin.call("advance", ["seconds": 0.1])
        try shell.call("swipe", ["phase": "ended", "dx": 0, "dy": 10, "vx": 0, "vy": 0])
        try admin.call("advance", ["seconds": 0.3])
        try shell.call("activate", ["id": "login", "action": "ok", "fields": ["user": "ops", "pw": .string(password)]])
        try admin.call("advance", ["seconds": 0.6])

        // One leaves while its toast is up: it goes with ownerGone.
        leaver.raw.close()
        try waitUntil("the toast to leave with its owner") {
            try admin.call("stack")["entries"]?.arrayValue?.contains {
                $0["id"] == "toast" && $0["state"] != "dismissing"
            } == false
        }
        // Someone comes back with a resume token (a secret too); a secure value is given at
        // present time (subscribers never see it: content leaves secure values out) and
        // with `key`.
        let again = try Peer(daemon, listener: renderer)
        try again.call("hello", ["client": "app-b", "resume": .string(token)])
        var confirm = dialog("Confirm").objectValue ?? [:]
        confirm["fields"] = [["id": "user", "kind": "text", "value": "ops"],
                             ["id": "pw", "kind": "secure", "value": .string(initialSecret)]]
        try again.call("present", ["id": "confirm", "style": "alert", "content": .object(confirm)])
        try admin.call("advance", ["seconds": 0.5])
        try shell.call("key", ["key": "enter", "id": "confirm", "fields": ["pw": .string(password)]])
        try again.call("present", ["id": "banner", "style": "popup", "level": "overlay", "content": "Bye"])
        try admin.call("advance", ["seconds": 0.7])
        try admin.call("dismissAll", ["animated": true])
        try admin.call("advance", ["seconds": 0.6])
        // Everything before this reply has been written to the subscriber.
        try renderer.call("sync", ["nonce": "end"])
        return (renderer.notifications, token, [renderer, admin, app, shell, again])
    }

    /// `presentd --replay FILE --clock manual`: the replayed lines of connection `conn`.
    private static func replay(_ path: String, conn: Int64) throws -> [[UInt8]] {
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentdPath,
                                                     ["--replay", path, "--clock", "manual", "--log-level", "warning"])
        #expect(status == 0, "presentd --replay: \(output)")
        let prefix = #"{"conn":\#(conn),"message":"#
        return output.split(separator: "\n").filter { $0.hasPrefix(prefix) }
            .map { Array($0.utf8.dropFirst(prefix.utf8.count).dropLast()) }
    }

    /// The connection the recording says said hello as `name`.
    private static func connection(named name: String, in recording: String) throws -> Int64 {
        for line in recording.split(separator: "\n") {
            let record = try JSONValue.parse(String(line))
            if record["event"] == "hello", record["name"] == .string(name) {
                return try #require(record["conn"]?.int64Value)
            }
        }
        throw HarnessError.setup("no hello from \(name) in the recording")
    }

    @Test func aRecordedSessionReplaysByteForByte() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none"])
        let signalled = daemon.directory + "/presentd-recording.ndjson"
        let dumped = daemon.directory + "/dumped.ndjson"
        defer { unlink(signalled); unlink(dumped) }
        // The peers stay connected until the dumps: the recording ends with recordDump.
        let (stream, token, peers) = try Self.recordSession(daemon)
        defer { withExtendedLifetime(peers) {} }
        #expect(stream.contains { String(decoding: $0, as: UTF8.self).contains(#""method":"frame""#) })
        #expect(stream.contains { String(decoding: $0, as: UTF8.self).contains(#""event":"didDismiss""#) })

        // recordDump returns it; SIGUSR1 writes it beside the socket.
        let admin = try daemon.connect()
        let reply = try admin.call("recordDump")
        let recording = try #require(reply["recording"]?.stringValue)
        #expect(reply["dropped"] == 0)
        kill(daemon.pid, SIGUSR1)
        let viaSignal = try waitFor("SIGUSR1's dump at \(signalled)") { () -> String? in
            let text = (try? String(contentsOfFile: signalled)) ?? ""
            return text.hasSuffix("\n") ? text : nil
        }
        // The subscriber itself never got the secret presented with "confirm".
        #expect(!stream.contains { String(decoding: $0, as: UTF8.self).contains(Self.initialSecret) })
        for text in [recording, viaSignal] {
            #expect(!text.contains(Self.initialSecret))
            #expect(!text.contains(Self.password))
            #expect(!text.contains(token))
            #expect(text.contains("•len:\(Self.password.count)"))
            #expect(text.contains("•len:\(token.count)"))
            #expect(text.split(separator: "\n").allSatisfy { (try? JSONValue.parse(String($0))) != nil })
        }
        // Nothing happened between the two (the recordDump request is its own last record).
        #expect(viaSignal == recording)
        try writeFile(dumped, recording)

        let subscriber = try Self.connection(named: "renderer", in: recording)
        for path in [dumped, signalled] {
            let replayed = try Self.replay(path, conn: subscriber)
            #expect(replayed.count == stream.count)
            let first = replayed.indices.first { $0 >= stream.count || replayed[$0] != stream[$0] }
            #expect(first == nil, """
                first difference at line \(first ?? -1): \
                \(first.map { String(decoding: replayed[$0], as: UTF8.self) } ?? "")
                """)
            #expect(replayed == stream)
        }
    }

    /// shouldDismiss: one question answered (a veto), one left to time out. The timeout is a
    /// record of its own, and the replay settles it there.
    @Test func shouldDismissAnswersAndTimeoutsReplay() throws {
        let configuration = #"{"shouldDismissTimeout": 0.2}"#
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none"], configuration: configuration)
        let dumped = daemon.directory + "/dumped.ndjson"
        defer { unlink(dumped) }
        let renderer = try Peer(daemon)
        try renderer.call("hello", ["client": "renderer"])
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"]])
        let owner = try Peer(daemon, listener: renderer)
        try owner.call("hello", ["client": "owner"])
        try owner.call("present", ["id": "form", "style": "alert", "confirmDismiss": true])
        let shell = try Peer(daemon, listener: renderer)
        try shell.call("advance", ["seconds": 0.5])

        // A tap on the dimming asks the owner, who says no.
        shell.raw.send("tap", id: 100, ["x": 5, "y": 5])
        let question = try waitFor("shouldDismiss to reach the owner") { () -> JSONValue? in
            try owner.drain()
            return try owner.notifications.last.map { try JSONValue.parse($0) }.flatMap {
                $0["method"] == "shouldDismiss" ? $0 : nil
            }
        }
        owner.raw.send(raw: JSONValue.object(["jsonrpc": "2.0", "id": question["id"] ?? .null,
                                              "result": ["allow": false]]).serializedLine())
        _ = try shell.raw.awaitReply(100)
        // Another, which the owner leaves unanswered: after 0.2 s of real time it is allowed.
        shell.raw.send("tap", id: 101, ["x": 5, "y": 5])
        let allowed = try shell.raw.awaitReply(101)
        #expect(allowed["result"]?["dismissed"] == true)
        try shell.call("advance", ["seconds": 0.5])
        try renderer.call("sync", ["nonce": "end"])
        try owner.call("sync", ["nonce": "end"])
        #expect(owner.notifications.count == 2)   // the two questions

        let recording = try #require(try shell.call("recordDump")["recording"]?.stringValue)
        #expect(recording.contains(#""event":"shouldDismissTimeout""#))
        try writeFile(dumped, recording)
        let config = daemon.directory + "/presentd.json"
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentdPath,
                                                     ["--config", config, "--replay", dumped, "--clock", "manual",
                                                      "--log-level", "warning"])
        #expect(status == 0, "\(output)")
        for (peer, name) in [(renderer, "renderer"), (owner, "owner")] {
            let conn = try Self.connection(named: name, in: recording)
            let prefix = #"{"conn":\#(conn),"message":"#
            let replayed = output.split(separator: "\n").filter { $0.hasPrefix(prefix) }
                .map { Array($0.utf8.dropFirst(prefix.utf8.count).dropLast()) }
            #expect(replayed == peer.notifications, "\(name)")
        }
    }

    @Test func theRingKeepsItsBoundAndCountsWhatItDropped() throws {
        let limit = 4096
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none", "--recorder-bytes", "\(limit)"])
        let client = try daemon.connect()
        let nonce = String(repeating: "x", count: 200)
        for _ in 0..<100 { _ = try client.call("sync", ["nonce": .string(nonce)]) }
        let reply = try client.call("recordDump")
        let lines = try #require(reply["recording"]?.stringValue).split(separator: "\n").map(String.init)
        let header = try JSONValue.parse(lines[0])
        let records = try lines.dropFirst().map { try JSONValue.parse($0) }
        let dropped = try #require(header["dropped"]?.int64Value)
        #expect(dropped > 50)
        #expect(reply["dropped"] == .int(dropped))
        #expect(header["limit"] == .int(Int64(limit)))
        // The records held fit the bound (it is full: not one more ~290-byte record would),
        // and the dump is somewhat larger: a line spells the 29 bytes of a record's header
        // in text instead (here `{"n":NN,"t":0.0,"conn":C,"message":` and `}\n`, 37 or 38).
        let bytes = try #require(header["bytes"]?.int64Value)
        #expect(bytes <= Int64(limit) && bytes > Int64(limit) - 300)
        #expect(reply["bytes"] == .int(bytes))
        #expect(header["records"] == .int(Int64(records.count)))
        let dumped = lines.dropFirst().reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(Int64(dumped) > bytes && Int64(dumped) <= bytes + Int64(records.count) * (38 - 29))
        // They are the newest records, in order.
        let numbers = records.compactMap { $0["n"]?.int64Value }
        #expect(numbers.first == dropped + 1)
        #expect(numbers == Array(numbers[0]..<(numbers[0] + Int64(numbers.count))))
        #expect(records.last?["message"]?["method"] == "recordDump")
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        let n = Array(needle.utf8), t = Array(text.utf8)
        guard t.count >= n.count else { return 0 }
        return (0...(t.count - n.count)).filter { t[$0..<($0 + n.count)].elementsEqual(n) }.count
    }

    /// A secure field's value given in `present` or `update` is recorded as its length.
    @Test func secureValuesInContentAreRecordedAsTheirLength() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none"])
        let client = try daemon.connect()
        var content = Self.dialog("Vault").objectValue ?? [:]
        content["fields"] = [["id": "user", "kind": "text", "value": "ops"],
                             ["id": "pw", "kind": "secure", "value": .string(Self.initialSecret)]]
        _ = try client.call("present", ["id": "vault", "style": "alert", "content": .object(content)])
        _ = try client.call("update", ["id": "vault", "content": .object(content)])
        _ = try client.call(
            "activate", ["id": "vault", "action": "no", "fields": ["pw": .string(Self.password), "user": "root"]])
        let recording = try #require(try client.call("recordDump")["recording"]?.stringValue)
        #expect(!recording.contains(Self.initialSecret))
        #expect(!recording.contains(Self.password))
        #expect(Self.occurrences(of: "•len:\(Self.initialSecret.count)", in: recording) == 2)
        #expect(recording.contains("•len:\(Self.password.count)"))
        // What is not secure stays: the text field's values.
        #expect(recording.contains(#""value":"ops""#))
        #expect(recording.contains(#""user":"root""#))
    }

    /// An activate's xdg-activation token lets an app take the focus: recorded as its length.
    @Test func activationTokensAreRecordedAsTheirLength() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none"])
        let client = try daemon.connect()
        _ = try client.call("present", ["id": "ask", "style": "alert", "content": Self.dialog("Ask")])
        let token = "token-" + Self.password
        _ = try client.call("activate", ["id": "ask", "action": "no", "activationToken": .string(token)])
        let recording = try #require(try client.call("recordDump")["recording"]?.stringValue)
        #expect(!recording.contains(token))
        #expect(recording.contains("•len:\(token.count)"))
    }

    /// systemd's watchdog sends SIGABRT: the daemon dumps the recording, then aborts.
    @Test func aWatchdogAbortDumpsTheRecordingFirst() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none"])
        let path = daemon.directory + "/presentd-recording.ndjson"
        defer { unlink(path) }
        let client = try daemon.connect()
        _ = try client.call("present", ["id": "before-the-abort", "style": "alert"])
        #expect(daemon.stop(signal: SIGABRT) == -SIGABRT)
        let text = try String(contentsOfFile: path)
        #expect(text.hasPrefix(#"{"presentdRecording":1,"#))
        #expect(text.contains("before-the-abort"))
    }

    /// A ring larger than a connection's queue bound (4 MiB) still comes back in the reply.
    @Test func aRecordingLargerThanTheQueueBoundIsReturnedWhole() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none", "--recorder-bytes", "\(6 << 20)"])
        let client = try daemon.connect()
        let nonce = JSONValue.string(String(repeating: "n", count: 1000))
        let batch = JSONValue.array((0..<64).map { i in
            ["jsonrpc": "2.0", "id": .int(Int64(i)), "method": "sync", "params": ["nonce": nonce]] })
        let line = batch.serializedLine()
        for _ in 0..<100 {   // 100 lines of 64 KiB or so: over 6 MiB, the ring full
            try client.sendRaw(line)
            _ = try #require(try client.readLine(timeout: generousTimeout))
        }
        let reply = try client.call("recordDump", timeout: generousTimeout)
        let text = try #require(reply["recording"]?.stringValue)
        #expect(text.utf8.count > 5 << 20)
        #expect(try #require(reply["dropped"]?.int64Value) > 0)
        #expect(try client.call("ping") == [:])   // and the connection goes on
    }

    @Test func aRecorderOfZeroBytesIsOff() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--state-file", "none", "--recorder-bytes", "0"])
        let client = try daemon.connect()
        #expect(throws: (any Error).self) { try client.call("recordDump") }
    }
}

// MARK: The ring

// (The ring and the recorder are noncopyable, which #expect cannot take: what they hold
// is read out first.)

/// What a ring holds and counts.
private struct RingState: Equatable, CustomStringConvertible {
    var capacity: Int
    var bytes: Int
    var dropped: UInt64
    var headers: [UInt64] = []
    var payloads: [[UInt8]] = []

    var description: String { "capacity \(capacity), bytes \(bytes), dropped \(dropped), records \(headers)" }
}

/// What `ring` holds, read through `forEach`, and its counts (`count` checked against it).
private func state(of ring: borrowing RecordRing<UInt64>) -> RingState {
    var state = RingState(capacity: ring.capacity, bytes: ring.bytes, dropped: ring.dropped)
    ring.forEach { header, payload in
        state.headers.append(header)
        state.payloads.append(Array(payload))
    }
    precondition(state.headers.count == ring.count, "forEach gave \(state.headers.count) records of \(ring.count)")
    return state
}

/// What a `RecordRing<UInt64>` should hold: the same records in a plain array, the oldest
/// leaving while the bytes exceed the capacity.
private struct RingModel {
    static let overhead = 4 + 8
    private(set) var state: RingState

    init(capacity: Int) { state = RingState(capacity: capacity, bytes: 0, dropped: 0) }

    mutating func append(_ header: UInt64, _ payload: [UInt8]) {
        guard Self.overhead + payload.count <= state.capacity else {
            state.dropped += 1
            return
        }
        state.headers.append(header)
        state.payloads.append(payload)
        state.bytes += Self.overhead + payload.count
        trim()
    }

    mutating func resize(to capacity: Int) {
        state.capacity = capacity
        trim()
    }

    private mutating func trim() {
        while state.bytes > state.capacity {
            state.bytes -= Self.overhead + state.payloads.removeFirst().count
            state.headers.removeFirst()
            state.dropped += 1
        }
    }
}

private func append(_ header: UInt64, _ payload: [UInt8], to ring: inout RecordRing<UInt64>) {
    payload.withUnsafeBytes { ring.append(header, payload: $0) }
}

/// A payload of `count` bytes that says which record it is.
private func payload(_ record: UInt64, count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: Int(record) &* 31 &+ $0) }
}

@Suite("Flight recorder: the ring")
struct RecordRingTests {
    @Test func aRecordTakesItsLengthItsHeaderAndItsPayload() {
        #expect(RecordRing<UInt64>.overhead == 12)
        #expect(RecordRing<FlightRecorder.Header>.overhead == 29)
    }

    /// Nothing is allocated until the first record, nor kept once a resize leaves none.
    @Test func theBufferIsAllocatedWithTheFirstRecord() {
        var ring = RecordRing<UInt64>(capacity: 4 << 20)
        var allocated = [ring.isAllocated]
        ring.resize(to: 1 << 20)
        allocated.append(ring.isAllocated)
        append(1, [1, 2, 3], to: &ring)
        allocated.append(ring.isAllocated)
        #expect(
            state(of: ring) == RingState(capacity: 1 << 20, bytes: 15, dropped: 0, headers: [1], payloads: [[1, 2, 3]]))
        ring.resize(to: 0)
        allocated.append(ring.isAllocated)
        #expect(state(of: ring) == RingState(capacity: 0, bytes: 0, dropped: 1))
        #expect(allocated == [false, false, true, false])

        let recorder = FlightRecorder()
        allocated = [recorder.isAllocated]
        Array("{}".utf8).withUnsafeBytes { recorder.record(line: $0, connection: 1, time: 0, limit: 1024) }
        allocated.append(recorder.isAllocated)
        #expect(allocated == [false, true])
    }

    /// Records of every length through rings of several sizes: each record, its header or
    /// its payload, straddles the buffer's end somewhere, and the oldest leave in order.
    @Test func recordsWrapAroundAndTheOldestLeaveFirst() {
        for capacity in 40...72 {
            var ring = RecordRing<UInt64>(capacity: capacity)
            var model = RingModel(capacity: capacity)
            for record in UInt64(1)...300 {
                let bytes = payload(record, count: Int(record * 7 % 23))
                append(record, bytes, to: &ring)
                model.append(record, bytes)
                let held = state(of: ring)
                #expect(held == model.state, "capacity \(capacity), after record \(record)")
                #expect(held.bytes <= capacity)
            }
            #expect(model.state.dropped > 250)
        }
    }

    @Test func anEmptyPayloadIsARecordToo() {
        var ring = RecordRing<UInt64>(capacity: 30)
        for record in UInt64(1)...7 { append(record, [], to: &ring) }
        #expect(state(of: ring) == RingState(capacity: 30, bytes: 24, dropped: 5, headers: [6, 7], payloads: [[], []]))
    }

    /// A record larger than the whole ring is dropped and counted; the others stay. One
    /// exactly as large takes the whole ring.
    @Test func aRecordLargerThanTheRingIsDropped() {
        var ring = RecordRing<UInt64>(capacity: 50)
        append(1, payload(1, count: 10), to: &ring)
        append(2, payload(2, count: 10), to: &ring)
        append(3, payload(3, count: 39), to: &ring)
        #expect(state(of: ring) == RingState(capacity: 50, bytes: 44, dropped: 1, headers: [1, 2],
                                             payloads: [payload(1, count: 10), payload(2, count: 10)]))
        append(4, payload(4, count: 38), to: &ring)
        #expect(
            state(of: ring)
                == RingState(capacity: 50, bytes: 50, dropped: 3, headers: [4], payloads: [payload(4, count: 38)]))
    }

    /// A lowered bound keeps the newest records that fit (the buffer wrapped at the time);
    /// a raised one keeps them all and makes room for more; the ring goes on as before.
    @Test func aResizeKeepsTheNewestRecordsThatFit() {
        for newCapacity in [0, 11, 12, 25, 40, 64, 65, 100, 200] {
            var ring = RecordRing<UInt64>(capacity: 64)
            var model = RingModel(capacity: 64)
            for record in UInt64(1)...13 {
                append(record, payload(record, count: Int(record % 5) + 3), to: &ring)
                model.append(record, payload(record, count: Int(record % 5) + 3))
            }
            ring.resize(to: newCapacity)
            model.resize(to: newCapacity)
            #expect(state(of: ring) == model.state, "to \(newCapacity)")
            for record in UInt64(14)...40 {
                append(record, payload(record, count: Int(record % 9)), to: &ring)
                model.append(record, payload(record, count: Int(record % 9)))
            }
            #expect(state(of: ring) == model.state, "to \(newCapacity), then on")
        }
    }

    /// The recorder applies the bound it is given with each record: a reload that lowers
    /// `recorderBytes` trims the ring at the next record (and at a dump: `resize`).
    @Test func theRecorderFollowsTheLimitItIsGiven() {
        let recorder = FlightRecorder()
        let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8)   // 40 bytes: 69 with its header
        var counts: [[Int]] = []
        for _ in 0..<20 { line.withUnsafeBytes { recorder.record(line: $0, connection: 1, time: 0, limit: 1000) } }
        counts.append([recorder.count, recorder.bytes, Int(recorder.dropped)])
        line.withUnsafeBytes { recorder.record(line: $0, connection: 1, time: 0, limit: 300) }
        counts.append([recorder.count, recorder.bytes, Int(recorder.dropped)])
        recorder.resize(to: 100)
        counts.append([recorder.count, recorder.bytes, Int(recorder.dropped), Int(recorder.made)])
        #expect(counts == [[14, 966, 6], [4, 276, 17], [1, 69, 20, 21]])
    }
}

// MARK: The dump's text

@Suite("Flight recorder: NDJSON")
struct FlightRecorderNDJSONTests {
    /// A record's line as the daemon's serialiser writes the same members, member by member.
    static func reference(n: UInt64, t: Double, conn: UInt64, fields: JSONObject = [:],
                          message: [UInt8]? = nil) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("n", .int(Int64(truncatingIfNeeded: n)))
        writer.member("t", .double(t))
        writer.member("conn", .int(Int64(truncatingIfNeeded: conn)))
        for (key, value) in fields { writer.member(JSONKey(key), value) }
        if let message { message.withUnsafeBytes { writer.member("message", json: $0) } }
        writer.endObject()
        writer.endLine()
        return writer.bytes
    }

    static let times: [Double] = [
        0, 0.1, 0.25, 1.0 / 3, 12_345.678_901_234_5, 1e16, 123_456_789.000_001, .leastNonzeroMagnitude, -0.0,
                                  Double.greatestFiniteMagnitude]

    /// Lines and events come out as the serialiser writes them, and each `t` reads back as
    /// the very double recorded.
    @Test func recordsAreDumpedAsTheSerialiserWritesThem() throws {
        let recorder = FlightRecorder()
        var expected: [UInt8] = []
        let line = Array(
            #"{"jsonrpc":"2.0","id":7,"method":"present","params":{"id":"a\u00e9","content":"x\ny"}}"#.utf8)
        let connect: JSONObject = [
            "event": "connect", "pid": 4242, "uid": 1000, "gid": 1000, "roles": ["shell", "admin"],
                                   "maxPriority": 1000, "unit": "kiosk \"1\".service"]
        let hello: JSONObject = ["event": "hello", "name": .null]
        for (i, t) in Self.times.enumerated() {
            let conn = UInt64(i) * 1_000_003
            line.withUnsafeBytes { recorder.record(line: $0, connection: conn, time: t, limit: 1 << 20) }
            recorder.record(event: i.isMultiple(of: 2) ? connect : hello, connection: conn, time: t, limit: 1 << 20)
            expected += Self.reference(n: recorder.made - 1, t: t, conn: conn, message: line)
            expected += Self.reference(
                n: recorder.made, t: t, conn: conn, fields: i.isMultiple(of: 2) ? connect : hello)
        }
        var dumped: [UInt8] = []
        recorder.appendNDJSON(to: &dumped)
        #expect(String(decoding: dumped, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        let records = try dumped.split(separator: 0x0A).map { try JSONValue.parse(Array($0)) }
        #expect(records.count == 2 * Self.times.count)
        for (i, record) in records.enumerated() {
            let t = try #require(record["t"]?.doubleValue)
            #expect(t.bitPattern == Self.times[i / 2].bitPattern)
        }
    }

    /// The record after the ring's end: a payload cut in two by the wrap comes out whole.
    @Test func aWrappedRecordIsDumpedWhole() throws {
        let recorder = FlightRecorder()
        for i in 0..<50 {
            let nonce = String(repeating: "z", count: i)
            let line = Array(#"{"jsonrpc":"2.0","id":\#(i),"method":"sync","params":{"nonce":"\#(nonce)"}}"#.utf8)
            line.withUnsafeBytes { recorder.record(line: $0, connection: 3, time: Double(i) / 10, limit: 500) }
        }
        var dumped: [UInt8] = []
        recorder.appendNDJSON(to: &dumped)
        let records = try dumped.split(separator: 0x0A).map { try JSONValue.parse(Array($0)) }
        let held = recorder.count
        #expect(records.count == held && held > 1)
        #expect(records.map { $0["n"]?.int64Value } == (51 - held..<51).map { Int64($0) })
        #expect(records.last?["message"]?["params"]?["nonce"] == .string(String(repeating: "z", count: 49)))
    }
}

// MARK: Which lines are parsed again

@Suite("Flight recorder: lines that may hold a secret")
struct MayHoldSecretTests {
    /// The rule as said: the line contains "fields", "resume" or `\u`.
    static func reference(_ line: [UInt8]) -> Bool {
        [Array("fields".utf8), Array("resume".utf8), Array(#"\u"#.utf8)].contains { word in
            line.count >= word.count
                && (0...(line.count - word.count)).contains { line[$0..<($0 + word.count)].elementsEqual(word) }
        }
    }

    /// Lines made of the words' pieces, near misses and all, at every offset and edge.
    @Test func theScanFindsWhatASubstringSearchFinds() {
        let pieces = [
            "fields", "resume", #"\u"#, "field", "ields", "resum", "esume", "f", "u", "r", #"\"#, "x", "sume", "res"
        ]
        var state: UInt64 = 12_345
        var found = 0
        for _ in 0..<20_000 {
            var line: [UInt8] = []
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for round in 0..<Int(state >> 61) {
                line += Array(pieces[Int((state >> (8 * UInt64(round))) & 0xFF) % pieces.count].utf8)
            }
            let expected = Self.reference(line)
            if expected { found += 1 }
            let scanned = line.withUnsafeBytes { Daemon.mayHoldSecret($0) }
            #expect(scanned == expected, "\(String(decoding: line, as: UTF8.self))")
        }
        #expect(found > 2_000 && found < 18_000)
        #expect(!Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8).withUnsafeBytes { Daemon.mayHoldSecret($0) })
        #expect(
            !Array(#"{"jsonrpc":"2.0","id":2,"method":"update","params":{"id":"a","duration":0.2}}"#.utf8)
                .withUnsafeBytes { Daemon.mayHoldSecret($0) })
        #expect([UInt8]().withUnsafeBytes { !Daemon.mayHoldSecret($0) })
    }
}

/// What `presentd --replay` refuses.
@Suite("Flight recorder: replaying")
struct ReplayRefusalTests {
    /// A file that is not a recording is refused saying why. A replay stops at the first
    /// record that is not one; in each case here that is the header or record 1, so nothing
    /// has been replayed. A time no daemon clock shows is refused too: a monotonic header
    /// before 0 would move the replay's manual clock back (it traps), and a time far
    /// beyond 31 years of uptime would keep it counting ticks for ever.
    @Test func aReplayRefusesWhatIsNotARecording() throws {
        let cases: [(text: String, why: String)] = [
            ("", "it is empty"),
            ("{nope\n", "its header line does not parse"),
            (#"{"recording": 1}"# + "\n", #"no {"presentdRecording": 1} header"#),
            (#"{"presentdRecording": 1, "clock": "monotonic", "started": -5}"# + "\n",
             "its header's started (-5.0) is not a time on a monotonic clock"),
            (#"{"presentdRecording": 1, "clock": "monotonic", "started": 2e14}"# + "\n",
             "its header's started (200000000000000.0) is not a time on a monotonic clock"),
            (#"{"presentdRecording": 1, "clock": "manual"}"# + "\n" + #"{"n": 1, "conn": 1}"# + "\n",
             "record 1 has no conn or t"),
            (
                #"{"presentdRecording": 1, "clock": "monotonic", "started": 5}"# + "\n"
                    + #"{"n": 1, "t": 1e300, "conn": 1}"# + "\n",
             "record 1's t (1e+300) is not a time on the daemon's clock"),
        ]
        for (text, why) in cases {
            var configuration = ServerConfiguration()
            configuration.clock = .manual
            let daemon = try Daemon(configuration: configuration)
            var written = 0
            let error = #expect(throws: ReplayError.self, "\(why)") {
                try daemon.replay(Array(text.utf8)) { _ in written += 1 }
            }
            #expect(error.map { "\($0)" } == "not a presentd recording: \(why)")
            #expect(written == 0 && daemon.manualClock.time <= 5, "\(why): nothing replayed")
        }
    }
}
