// The protocol describes itself: JSON-RPC 2.0's own examples (its section 7) against the
// real daemon, rpc.discover and docs/openrpc.json, hello's capabilities, and stats.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
import PresentProtocol
@testable import PresentTestSupport
import Testing

/// What one of the specification's examples must get back.
private enum SpecReply {
    /// A result with this id (and, when given, this result).
    case result(JSONValue, JSONValue? = nil)
    /// An error with this code and id.
    case error(Int, JSONValue)
}

/// One example of JSON-RPC 2.0 section 7: the line sent, and the reply, the array of
/// replies (a batch) or nothing (nil) the specification says comes back.
private struct SpecExample: CustomTestStringConvertible, Sendable {
    let name: String
    let line: String
    let single: SpecReply?
    let batch: [SpecReply]?
    var testDescription: String { name }

    init(_ name: String, _ line: String, _ reply: SpecReply?) {
        self.name = name; self.line = line; single = reply; batch = nil
    }
    init(_ name: String, _ line: String, batch: [SpecReply]) {
        self.name = name; self.line = line; single = nil; self.batch = batch
    }
}

extension SpecReply: Sendable {}

/// The examples, as the specification writes them; where it calls `subtract`, `sum` or
/// `get_data`, which presentd does not have, the same envelope calls `sync` (which answers
/// its nonce) or `ping`. Every name presentd does not have is kept, for −32601.
private let specExamples: [SpecExample] = [
    // "rpc call with positional parameters": presentd takes named params only.
    SpecExample(
        "positional params, unknown method", #"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#,
                .error(-32601, 1)),
    SpecExample(
        "positional params, a method taking named ones",
        #"{"jsonrpc": "2.0", "method": "sync", "params": [42, 23], "id": 2}"#,
                .error(-32602, 2)),
    // "rpc call with named parameters"
    SpecExample("named params", #"{"jsonrpc": "2.0", "method": "sync", "params": {"nonce": 19}, "id": 3}"#,
                .result(3, ["nonce": 19])),
    SpecExample(
        "named params, unknown method",
        #"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 4}"#,
                .error(-32601, 4)),
    // "a Notification" (update is a presentd method: its refused params are not answered either)
    SpecExample("notification", #"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#, nil),
    SpecExample("notification, unknown method", #"{"jsonrpc": "2.0", "method": "foobar"}"#, nil),
    // "rpc call of non-existent method"
    SpecExample("non-existent method", #"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#, .error(-32601, "1")),
    // "rpc call with invalid JSON"
    SpecExample(
        "invalid JSON", #"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#, .error(-32700, .null)),
    // "rpc call with invalid Request object"
    SpecExample("invalid Request object", #"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#, .error(-32600, .null)),
    // "rpc call Batch, invalid JSON"
    SpecExample(
        "batch, invalid JSON",
        #"[ {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"}, {"jsonrpc": "2.0", "method" ]"#,
                .error(-32700, .null)),
    // "rpc call with an empty Array"
    SpecExample("empty array", "[]", .error(-32600, .null)),
    // "rpc call with an invalid Batch (but not empty)"
    SpecExample("invalid batch [1]", "[1]", batch: [.error(-32600, .null)]),
    // "rpc call with invalid Batch"
    SpecExample(
        "invalid batch [1,2,3]", "[1,2,3]", batch: [.error(-32600, .null), .error(-32600, .null), .error(-32600, .null)]
    ),
    // "rpc call Batch"
    SpecExample("batch", """
        [{"jsonrpc": "2.0", "method": "sync", "params": {"nonce": 7}, "id": "1"},\
         {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},\
         {"jsonrpc": "2.0", "method": "sync", "params": {"nonce": 19}, "id": "2"},\
         {"foo": "boo"},\
         {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},\
         {"jsonrpc": "2.0", "method": "ping", "id": "9"}]
        """, batch: [.result("1", ["nonce": 7]), .result("2", ["nonce": 19]), .error(-32600, .null),
                     .error(-32601, "5"), .result("9", [:])]),
    // "rpc call Batch (all notifications)"
    SpecExample(
        "batch of notifications",
        #"[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, {"jsonrpc": "2.0", "method": "notify_hello","#
        + #" "params": [7]}]"#,
                nil),
    // The text beside the examples: a null id is an id, echoed; [] is no params; an
    // unknown method is −32601 whatever its params; rpc.* is reserved.
    SpecExample("null id", #"{"jsonrpc": "2.0", "method": "ping", "id": null}"#, .result(.null, [:])),
    SpecExample(
        "null id, unknown method", #"{"jsonrpc": "2.0", "method": "foobar", "id": null}"#, .error(-32601, .null)),
    SpecExample(
        "empty params array", #"{"jsonrpc": "2.0", "method": "ping", "params": [], "id": 10}"#, .result(10, [:])),
    SpecExample(
        "unknown method, params of no method",
        #"{"jsonrpc": "2.0", "method": "foobar", "params": {"x": [1]}, "id": 11}"#,
                .error(-32601, 11)),
    SpecExample("reserved rpc. name", #"{"jsonrpc": "2.0", "method": "rpc.foobar", "id": 12}"#, .error(-32601, 12)),
]

/// Whether `reply` is the response `expected` describes, with exactly the members a
/// response has (jsonrpc, id, and result or error).
private func matches(_ reply: JSONValue, _ expected: SpecReply) -> Bool {
    guard let members = reply.objectValue, reply["jsonrpc"] == "2.0" else { return false }
    switch expected {
    case .result(let id, let result):
        return Set(members.keys) == ["jsonrpc", "id", "result"] && reply["id"] == id
            && (result == nil || reply["result"] == result)
    case .error(let code, let id):
        return Set(members.keys) == ["jsonrpc", "id", "error"] && reply["id"] == id
            && reply["error"]?["code"] == .int(Int64(code)) && reply["error"]?["message"]?.stringValue?.isEmpty == false
    }
}

@Suite("Self-description")
struct SelfDescriptionTests {
    @Test func theJSONRPCSpecificationsExamples() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let c = try daemon.connect()
        for (n, example) in specExamples.enumerated() {
            let messages = try c.messagesBeforeSync(after: Array(example.line.utf8), marker: "after-\(n)")
            let comment = Comment(rawValue: "\(example.name): got \(messages.map(\.serializedString))")
            if let single = example.single {
                #expect(messages.count == 1 && matches(messages[0], single), comment)
            } else if let batch = example.batch {
                let replies = messages.first?.arrayValue ?? []
                #expect(messages.count == 1 && replies.count == batch.count
                        && zip(replies, batch).allSatisfy(matches), comment)
            } else {
                #expect(messages.isEmpty, comment)
            }
        }
    }

    /// rpc.discover returns the OpenRPC document docs/openrpc.json holds.
    @Test func rpcDiscoverIsDocsOpenRPC() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let document = try daemon.connect().call("rpc.discover")
        #expect(document["openrpc"] == "1.2.6")
        #expect(document["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == Request.methods)
        // #filePath is …/Tests/PresentServerTests/SelfDescriptionTests.swift
        let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(
            separator: "/")
        let text = try #require(try? String(contentsOfFile: root + "/docs/openrpc.json"),
                                "docs/openrpc.json is missing: write it with `make openrpc`")
        #expect(try JSONValue.parse(text) == document,
                "docs/openrpc.json is stale: regenerate it with `make openrpc` (presentd --print-openrpc)")
    }

    @Test func helloListsItsCapabilities() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let hello = try daemon.connect().call("hello", ["client": "probe"])
        let names = hello["capabilities"]?.arrayValue?.compactMap(\.stringValue)
        #expect(names == Capability.names)
        #expect(names?.contains("rpc.discover") == true)
    }

    @Test func statsCountsClientsQueuesFramesAndRequests() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10"])
        let renderer = try daemon.connect()
        try renderer.call("hello", ["client": "renderer"])
        try renderer.call("subscribe", ["topics": ["frames", "lifecycle"], "outputs": ["main"]])
        let app = try daemon.connect()
        try app.call("present", ["id": "a", "style": "alert", "transition": ["type": "coverVertical", "duration": 0.3]])
        try app.call("present", ["id": "b", "style": "alert", "deduplicate": false])
        // "a" is a tenth of a second into its transition ("b" waits for it): frames were sent.
        try app.call("advance", ["seconds": 0.1])
        _ = try renderer.awaitNotification("frame")
        let admin = try daemon.connect()
        try admin.call("ping")
        let stats = try admin.call("stats")

        #expect((stats["uptime"]?.double ?? -1) >= 0)
        let clients = try #require(stats["clients"]?.arrayValue)
        #expect(clients.count == 3)
        let r = try #require(clients.first { $0["name"] == "renderer" })
        #expect(r["pid"] == .int(Int64(getpid())))
        #expect(r["uid"] == .int(Int64(getuid())))
        #expect(r["roles"] == ["shell", "renderer", "app", "admin"], "the socket's owner has every role by default")
        #expect(r["subscriptions"]?["topics"] == ["frames", "lifecycle"])
        #expect(r["subscriptions"]?["outputs"] == ["main"])
        let sent = r["frames"]?["sent"]?.int64Value ?? 0
        let coalesced = r["frames"]?["coalesced"]?.int64Value ?? -1
        #expect(sent >= 1 && coalesced >= 0 && coalesced <= sent)
        #expect(clients.filter { $0["name"] == .null }.allSatisfy { $0["frames"]?["sent"] == 0 })
        #expect(clients.filter { $0["name"] == .null }.allSatisfy { $0["subscriptions"]?["outputs"] == .null })

        let main = try #require(stats["screens"]?[0])
        #expect(main["name"] == "main")
        #expect(main["depth"] == 1)
        #expect(main["queueDepth"] == 1)
        #expect(main["entries"]?[0]?["id"] == "a")
        #expect(main["queue"]?[0]?["id"] == "b")
        #expect(main["queue"]?[0]?["state"] == "queued")

        let byMethod = stats["requests"]?["byMethod"]
        #expect(byMethod?["present"] == 2)
        #expect(byMethod?["advance"] == 1)
        #expect(byMethod?["subscribe"] == 1)
        #expect(byMethod?["stats"] == 1)
        #expect(byMethod?["tap"] == nil)
        #expect(stats["requests"]?["unknownMethod"] == 0)
        try admin.call("ping")
        _ = admin.expectError("teleport")
        let later = try admin.call("stats")["requests"]
        #expect(later?["byMethod"]?["ping"]?.int64Value == (byMethod?["ping"]?.int64Value ?? 0) + 1)
        #expect(later?["byMethod"]?["stats"] == 2)
        #expect(later?["unknownMethod"] == 1)
    }

    @Test func aRenderersPresentedFramesAreKeptPerScreenAndRendererAndShownInStats() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let renderer = try daemon.connect()
        try renderer.call("hello", ["client": "glass"])
        try renderer.call("addOutput", ["name": "side", "width": 800, "height": 600])
        // Exact binary fractions, so that the differences are exact.
        try renderer.call(
            "presented",
            [
                "frames": [
                    ["time": 10.0, "shownAt": 10.015625, "drawnAt": 10.0078125, "refresh": 0.015625],
                                                   ["time": 10.015625, "shownAt": 10.03125]], "discarded": 2])
        try renderer.call("presented", ["frames": [["time": 10.03125, "shownAt": 10.078125]], "output": "side"])
        let rows = try #require(try renderer.call("stats")["presented"]?.arrayValue)
        #expect(rows.count == 2)
        let main = try #require(rows.first { $0["output"] == "main" })
        #expect(main["frames"] == 2 && main["discarded"] == 2 && main["refresh"] == 0.015625)
        #expect(
            main["latency"]?["p50"] == 0.015625 && main["latency"]?["max"] == 0.015625
                && main["latency"]?["samples"] == 2)
        #expect(main["drawToShown"]?["p50"] == 0.0078125 && main["drawToShown"]?["samples"] == 1)
        #expect(rows.first { $0["output"] == "side" }?["latency"]?["p50"] == 0.046875)
        // Errors name the field; a screen that is not there is refused.
        #expect(
            renderer.expectError("presented", ["frames": [["time": 1, "shownAt": "soon"]]])?.data?["field"]
                == "frames[0].shownAt")
        #expect(renderer.expectError("presented", ["frames": [], "output": "nowhere"])?.data?["field"] == "output")
    }

    @Test func aReportedFramesErrorIsHowFarTheMotionMovedBetweenItsTimeAndItsShowingInDevicePixels() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let renderer = try daemon.connect()
        try renderer.call("hello", ["client": "glass"])
        let start = try #require(try renderer.call("advance", ["seconds": 100])["time"]?.doubleValue)
        try renderer.call("subscribe", ["topics": ["animations"]])
        try renderer.call("setContainer", ["width": 400, "height": 800, "scale": 2, "duration": 0])
        // Rising from the bottom edge to its place in 1 s, linear: a constant speed in points per second.
        try renderer.call("present", ["id": "a", "style": "alert",
                                      "transition": ["type": "coverVertical", "duration": 1, "timing": "linear"]])
        let rest = try #require(try renderer.call("stack")["entries"]?[0]?["frame"]?["y"]?.doubleValue)
        let speed = 800 - rest
        try renderer.call("advance", ["seconds": 3])
        // Drawn for a quarter of the way and shown a 64th of a second late; then one at rest, shown
        // late too; and one drawn for a time before anything the daemon keeps (before the subscription).
        try renderer.call(
            "presented",
            [
                "frames": [
                    ["time": .double(start + 0.25), "shownAt": .double(start + 0.25 + 1.0 / 64)],
                                                   ["time": .double(start + 2), "shownAt": .double(start + 2.1)],
                                                   ["time": .double(start - 60), "shownAt": .double(start - 59.9)]]])
        let row = try #require(try renderer.call("stats")["presented"]?[0])
        let error = try #require(row["error"])
        #expect(row["frames"] == 3 && error["samples"] == 2, "the frame before the kept motion has no error: \(row)")
        let expected = speed / 64 * 2   // points moved in a 64th of a second, at scale 2
        #expect(abs((error["max"]?.doubleValue ?? 0) - expected) < 1e-6, "\(error) against \(expected) px")
        #expect(error["p50"] == 0.0, "the frame at rest is exact: \(error)")
    }

    @Test func aRendererOfFramesKeepsMotionFromItsFirstReportOn() throws {
        // Nobody subscribes to animations: the daemon keeps the motion once a renderer reported
        // frames of the screen, and not before.
        let daemon = try DaemonHarness(["--clock", "manual"])
        let renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames"]])
        let linear: JSONValue = ["type": "coverVertical", "duration": 1, "timing": "linear"]
        let before = try #require(try renderer.call("advance", ["seconds": 10])["time"]?.doubleValue)
        try renderer.call("present", ["id": "early", "style": "alert", "transition": linear])
        try renderer.call("presented", ["frames": [["time": .double(before + 0.25), "shownAt": .double(before + 0.3)]]])
        #expect(
            try renderer.call("stats")["presented"]?[0]?["error"] == .null,
            "the motion before the first report is not kept")
        try renderer.call("advance", ["seconds": 2])
        try renderer.call("dismiss", ["id": "early", "animated": false])
        let start = try #require(try renderer.call("advance", ["seconds": 1])["time"]?.doubleValue)
        try renderer.call("present", ["id": "late", "style": "alert", "transition": linear])
        try renderer.call("advance", ["seconds": 2])
        try renderer.call("presented", ["frames": [["time": .double(start + 0.25), "shownAt": .double(start + 0.3)]]])
        let error = try #require(try renderer.call("stats")["presented"]?[0]?["error"])
        #expect(
            error["samples"] == 1 && (error["max"]?.doubleValue ?? 0) > 1,
            "a frame shown 50 ms late in mid-motion: \(error)")
    }

    @Test func aScreensMotionIsForgottenWhenItsLastRendererLeaves() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let app = try daemon.connect()
        var first: PresentClient? = try daemon.connect()
        let linear: JSONValue = ["type": "coverVertical", "duration": 1, "timing": "linear"]
        let start = try #require(try app.call("advance", ["seconds": 10])["time"]?.doubleValue)
        try first?.call("presented", ["frames": []])   // from now on the motion is kept for it
        try app.call("present", ["id": "a", "style": "alert", "transition": linear])
        try app.call("advance", ["seconds": 2])
        first = nil   // the only renderer of main leaves
        try waitUntil("the first renderer's row to leave stats") {
            try app.call("stats")["presented"]?.arrayValue?.isEmpty == true
        }
        // A frame of the motion the first renderer saw: the history went with it, so the error cannot be told.
        let second = try daemon.connect()
        try second.call("presented", ["frames": [["time": .double(start + 0.25), "shownAt": .double(start + 0.3)]]])
        let row = try #require(try second.call("stats")["presented"]?[0])
        #expect(row["frames"] == 1 && row["error"] == .null, "no motion is kept once nobody reports frames: \(row)")
    }
}
