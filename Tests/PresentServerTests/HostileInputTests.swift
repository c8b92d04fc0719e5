// Hostile lines over the socket, table-driven: each line gets its documented reply (or,
// for notifications and stray responses, none), the connection keeps working after it,
// and the stack another client built is exactly as it was.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

/// What the daemon must answer to one hostile line.
enum Expected {
    /// An error response: its code, the id it echoes (null when unreadable), and for
    /// −32602 the field it names.
    case error(Int, id: JSONValue = .null, field: String? = nil)
    /// A successful response with this id (and, when given, this result).
    case result(id: JSONValue, JSONValue? = nil)
    /// No reply at all (notifications, responses to nothing).
    case nothing
    /// One array of replies, in order: nil stands for a result, a number for an error code.
    case batch([Int?])
}

/// One row of the table.
struct HostileLine: CustomStringConvertible {
    var name: String
    var bytes: [UInt8]
    var expected: Expected
    var description: String { name }

    init(_ name: String, _ text: String, _ expected: Expected) {
        self.init(name, bytes: Array(text.utf8), expected)
    }
    init(_ name: String, bytes: [UInt8], _ expected: Expected) {
        self.name = name; self.bytes = bytes; self.expected = expected
    }
}

func b(_ text: String) -> [UInt8] { Array(text.utf8) }

/// A request line: the envelope, and `params` (JSON text) when given.
func request(_ method: String, id: String = "1", params: String? = nil) -> String {
    #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)""# + (params.map { #","params":\#($0)"# } ?? "") + "}"
}

enum HostileTable {
    static let invalidUTF8: [HostileLine] = [
        ("in a string", b(#"{"jsonrpc":"2.0","id":1,"method":"p"#) + [0xc3, 0x28] + b(#"ng"}"#)),
        (
            "a lone continuation byte",
            b(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"k":""#) + [0x80] + b(#""}}"#)
        ),
        ("0xFF outside strings", [0xff] + b(request("ping"))),
        ("an overlong slash", b(#"{"jsonrpc":"2.0","id":1,"method":""#) + [0xc0, 0xaf] + b(#""}"#)),
        ("a UTF-8-encoded surrogate", b(#"{"jsonrpc":"2.0","id":""#) + [0xed, 0xa0, 0x80] + b(#"","method":"ping"}"#)),
        (
            "a five-byte sequence",
            b(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"k":""#) + [0xf8, 0x88, 0x80, 0x80, 0x80] + b(#""}}"#)
        ),
        ("truncated at the end", b(request("ping") + " ") + [0xe2, 0x82]),
        ("a byte-order mark", [0xef, 0xbb, 0xbf] + b(request("ping"))),
        ("a NUL byte", b(request("ping")) + [0]),
    ].map { HostileLine("invalid UTF-8: \($0.0)", bytes: $0.1, .error(-32700)) }

    static let depth: [HostileLine] = [
        HostileLine(
            "65 nested arrays", String(repeating: "[", count: 65) + String(repeating: "]", count: 65), .error(-32700)),
        HostileLine("100 000 open brackets", String(repeating: "[", count: 100_000), .error(-32700)),
        HostileLine("100 000 nested objects in params", #"{"jsonrpc":"2.0","id":1,"method":"sync","params":"#
                    + String(repeating: #"{"a":"#, count: 100_000), .error(-32700)),
        HostileLine("60 levels inside params is fine",
            request(
                "sync", id: "\"deep\"",
                params: #"{"nonce":"# + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "}"),
                    .result(id: "deep")),
    ]

    static let numbers: [HostileLine] = [
        HostileLine("id above Int64", request("ping", id: "9223372036854775808"), .error(-32700)),
        HostileLine("id below Int64", request("ping", id: "-9223372036854775809"), .error(-32700)),
        HostileLine("id Int64.max", request("ping", id: "9223372036854775807"), .result(id: .int(.max), [:])),
        HostileLine("id Int64.min", request("ping", id: "-9223372036854775808"), .result(id: .int(.min), [:])),
        HostileLine("a double overflowing to infinity", request("tap", params: #"{"x":1e400,"y":0}"#), .error(-32700)),
        HostileLine(
            "a 400-digit integer",
            request("tap", params: #"{"x":1"# + String(repeating: "0", count: 400) + #","y":0}"#), .error(-32700)),
        HostileLine(
            "a finite but huge coordinate", request("tap", params: #"{"x":1e300,"y":0}"#),
            .error(-32602, id: 1, field: "x")),
        HostileLine(
            "a huge duration", request("keyboard", params: #"{"height":10,"duration":1e300}"#),
            .error(-32602, id: 1, field: "duration")),
        HostileLine(
            "a fractional priority", request("present", params: #"{"style":"alert","priority":1.5}"#),
            .error(-32602, id: 1, field: "priority")),
        HostileLine(
            "priority beyond Int32", request("present", params: #"{"style":"alert","priority":4294967296}"#),
            .error(-32602, id: 1, field: "priority")),
        HostileLine(
            "a negative size", request("setContainer", params: #"{"width":-1,"height":10}"#),
            .error(-32602, id: 1, field: "width")),
        HostileLine(
            "a denormal container", request("setContainer", params: #"{"width":5e-324,"height":10}"#),
            .error(-32602, id: 1, field: "width")),
        HostileLine(
            "advance beyond the limit", request("advance", params: #"{"seconds":1e9}"#),
            .error(-32602, id: 1, field: "seconds")),
        HostileLine("leading zero", request("ping", id: "01"), .error(-32700)),
        HostileLine("trailing dot", request("tap", params: #"{"x":1.,"y":0}"#), .error(-32700)),
        HostileLine("hex", request("tap", params: #"{"x":0x10,"y":0}"#), .error(-32700)),
    ]

    static let nonFinite: [HostileLine] = ["NaN", "Infinity", "-Infinity", "nan", "inf", "-inf", "NAN"].map {
        HostileLine("\($0) as a number", request("tap", params: #"{"x":\#($0),"y":0}"#), .error(-32700))
    } + [
        HostileLine("NaN as an id", request("ping", id: "NaN"), .error(-32700)),
            HostileLine(
                "\"NaN\" as a string where a number goes", request("tap", params: #"{"x":"NaN","y":0}"#),
                .error(-32602, id: 1, field: "x"))
    ]

    /// json-c keeps the last of duplicate keys (PresentJSON documents it); nothing else changes.
    static let duplicateKeys: [HostileLine] = [
        HostileLine(
            "duplicate id: the last wins", #"{"jsonrpc":"2.0","id":1,"id":"second","method":"ping"}"#,
            .result(id: "second", [:])),
        HostileLine(
            "duplicate method: the last wins", #"{"jsonrpc":"2.0","id":1,"method":"present","method":"ping"}"#,
            .result(id: 1, [:])),
        HostileLine(
            "duplicate jsonrpc ending wrong", #"{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"ping"}"#,
            .error(-32600, id: 1)),
        HostileLine(
            "duplicate params field", request("tap", params: #"{"x":1,"y":1,"x":"no"}"#),
            .error(-32602, id: 1, field: "x"))
    ]

    static let ids: [HostileLine] = [
        HostileLine("id string", request("ping", id: #""abc""#), .result(id: "abc", [:])),
        HostileLine("id empty string", request("ping", id: #""""#), .result(id: "", [:])),
        HostileLine("id long string", request("ping", id: "\"" + String(repeating: "i", count: 100_000) + "\""),
                    .result(id: .string(String(repeating: "i", count: 100_000)), [:])),
        HostileLine("id unicode escapes", request("ping", id: #""\u00e9\ud83d\ude00""#), .result(id: "é😀", [:])),
        HostileLine("id zero", request("ping", id: "0"), .result(id: 0, [:])),
        HostileLine("id negative", request("ping", id: "-7"), .result(id: -7, [:])),
        HostileLine("id 1.0", request("ping", id: "1.0"), .error(-32600)),
        HostileLine("id 1.5", request("ping", id: "1.5"), .error(-32600)),
        HostileLine("id 1e2", request("ping", id: "1e2"), .error(-32600)),
        HostileLine("id -0.0", request("ping", id: "-0.0"), .error(-32600)),
        HostileLine("id true", request("ping", id: "true"), .error(-32600)),
        HostileLine("id null", request("ping", id: "null"), .result(id: .null, [:])),
        HostileLine("id array", request("ping", id: "[1]"), .error(-32600)),
        HostileLine("id object", request("ping", id: #"{"a":1}"#), .error(-32600)),
    ]

    static let envelopes: [HostileLine] = [
        HostileLine("an empty line", "", .error(-32700)),
        HostileLine("only spaces", "   \t ", .error(-32700)),
        HostileLine("not JSON", "hello daemon", .error(-32700)),
        HostileLine("trailing data", request("ping") + " {}", .error(-32700)),
        HostileLine("two objects on one line", request("ping") + request("ping"), .error(-32700)),
        HostileLine("single quotes", "{'jsonrpc':'2.0','id':1,'method':'ping'}", .error(-32700)),
        HostileLine("a raw tab in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\tng\"}", .error(-32700)),
        HostileLine("a comment", request("ping") + " // hi", .error(-32700)),
        HostileLine("a number", "5", .error(-32600)),
        HostileLine("a string", #""ping""#, .error(-32600)),
        HostileLine("null", "null", .error(-32600)),
        HostileLine("no jsonrpc", #"{"id":1,"method":"ping"}"#, .error(-32600, id: 1)),
        HostileLine("jsonrpc 1.0", #"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, .error(-32600, id: 1)),
        HostileLine("jsonrpc as a number", #"{"jsonrpc":2.0,"id":1,"method":"ping"}"#, .error(-32600, id: 1)),
        HostileLine("no method", #"{"jsonrpc":"2.0","id":1}"#, .error(-32600, id: 1)),
        HostileLine("method a number", #"{"jsonrpc":"2.0","id":1,"method":7}"#, .error(-32600, id: 1)),
        HostileLine("unknown method", request("teleport"), .error(-32601, id: 1)),
        HostileLine("reserved rpc. method", request("rpc.frob"), .error(-32601, id: 1)),
        HostileLine("method with a NUL escape", request("ping\\u0000"), .error(-32601, id: 1)),
        HostileLine("params a string", request("ping", params: #""x""#), .error(-32600, id: 1)),
        HostileLine("params an array", request("ping", params: "[1]"), .error(-32602, id: 1, field: "params")),
        HostileLine("params an empty array", request("ping", params: "[]"), .result(id: 1, [:])),
        HostileLine("params for ping", request("ping", params: #"{"x":1}"#), .error(-32602, id: 1, field: "x")),
        HostileLine(
            "an empty key", request("present", params: #"{"style":"alert","":1}"#),
            .error(-32602, id: 1, field: #"params[""]"#)),
        HostileLine("a notification of an unknown method", #"{"jsonrpc":"2.0","method":"teleport"}"#, .nothing),
        HostileLine(
            "a notification with bad params", #"{"jsonrpc":"2.0","method":"tap","params":{"x":"no"}}"#, .nothing),
        HostileLine("a response to no question", #"{"jsonrpc":"2.0","id":"q9","result":{"allow":false}}"#, .nothing),
        HostileLine(
            "an error response to no question", #"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}"#,
            .nothing),
        HostileLine(
            "a response with both", #"{"jsonrpc":"2.0","id":"q","result":1,"error":{"code":1,"message":"x"}}"#,
            .error(-32600, id: "q")),
        HostileLine("CRLF is accepted", request("ping", id: "\"crlf\"") + "\r", .result(id: "crlf", [:])),
    ]

    static let batches: [HostileLine] = [
        HostileLine("an empty batch", "[]", .error(-32600)),
        HostileLine("a batch of a number", "[1]", .batch([-32600])),
        HostileLine("a nested batch", "[[" + request("ping") + "]]", .batch([-32600])),
        HostileLine("a mixed batch",
            "["
                + [
                    request("ping", id: "1"), #"{"jsonrpc":"2.0","method":"ping"}"#, "{}", #""x""#,
                    request("nope", id: "2"),
                           #"{"jsonrpc":"2.0","method":"rpc.x"}"#, #"{"jsonrpc":"2.0","id":"q","result":{}}"#,
                    request("tap", id: "3", params: #"{"x":"a","y":0}"#), request("stack", id: "4")
                ].joined(separator: ",") + "]",
                    .batch([nil, -32600, -32600, -32601, -32602, nil])),
        HostileLine(
            "a batch of notifications only",
            "[" + Array(repeating: #"{"jsonrpc":"2.0","method":"ping"}"#, count: 5).joined(separator: ",") + "]",
                    .nothing),
        HostileLine(
            "a batch at the limit", "[" + (0..<64).map { request("ping", id: "\($0)") }.joined(separator: ",") + "]",
                    .batch(Array(repeating: nil, count: 64))),
        HostileLine(
            "an oversized batch", "[" + (0..<65).map { request("ping", id: "\($0)") }.joined(separator: ",") + "]",
                    .error(-32003)),
        HostileLine(
            "a huge batch", "[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]", .error(-32003))
    ]

    /// Every field of `present` with a value of the wrong type; each error names the field.
    static let presentFields: [HostileLine] = {
        let wrong: [(String, String)] = [
            ("id", "7"), ("kind", "[]"), ("deduplicate", #""yes""#), ("content", "7"), ("style", "7"),
            ("respectsSafeArea", "1"), ("transition", #""zoom""#), ("dismissTransition", "[]"), ("background", "0.5"),
            ("cornerRadius", #""12""#), ("shadow", "true"), ("dismissOnTap", "0"), ("dismissOnSwipe", #""true""#),
            ("confirmDismiss", "[]"), ("keyboard", "1"), ("statusBar", #""dark""#), ("adaptive", "1"),
            ("priority", #""high""#), ("precedence", "1"), ("dimsPresenterTint", "{}"),
            ("preferredContentSize", "1"), ("autoDismiss", "true"), ("dismissOnEscape", "0"),
        ]
        let nested: [(String, String, String)] = [
            ("transition.type", "transition", #"{"type":7}"#),
            ("transition.duration", "transition", #"{"type":"zoom","duration":"1"}"#),
            ("transition.timing", "transition", #"{"type":"zoom","timing":7}"#),
            ("transition.timing.bezier[2]", "transition", #"{"type":"zoom","timing":{"bezier":[0,0,"1",1]}}"#),
            (
                "transition.timing.spring.mass", "transition",
                #"{"type":"zoom","timing":{"spring":{"mass":"1","stiffness":1,"damping":1}}}"#
            ),
            ("dismissTransition.type", "dismissTransition", #"{"type":["zoom"]}"#),
            ("background.opacity", "background", #"{"opacity":"0.5"}"#),
            ("background.color", "background", #"{"color":255}"#),
            ("shadow.radius", "shadow", #"{"radius":true}"#),
            ("shadow.offset.x", "shadow", #"{"offset":{"x":"1","y":1}}"#),
            ("statusBar.style", "statusBar", #"{"style":1}"#),
            ("statusBar.hidden", "statusBar", #"{"hidden":"no"}"#),
            ("style.type", "style", #"{"type":1}"#),
            ("style.fraction", "style", #"{"type":"slideIn","fraction":"half"}"#),
            ("style.direction", "style", #"{"type":"slideIn","direction":0}"#),
            ("style.width", "style", #"{"type":"custom","width":7}"#),
            ("style.position", "style", #"{"type":"custom","position":[]}"#),
            ("adaptive.replacement.style", "adaptive", #"{"replacement":{"style":3}}"#),
        ]
        func line(_ key: String, _ value: String) -> String {
            let style = key == "style" ? "" : #""style":"alert","#
            return request("present", params: "{" + style + "\"\(key)\":" + value + "}")
        }
        return wrong.map {
            HostileLine("present.\($0.0) wrong type", line($0.0, $0.1), .error(-32602, id: 1, field: $0.0))
        }
            + nested.map {
                HostileLine("present.\($0.0) wrong type", line($0.1, $0.2), .error(-32602, id: 1, field: $0.0))
            }
            + [
                HostileLine(
                    "present without style", request("present", params: "{}"), .error(-32602, id: 1, field: "style")),
                HostileLine(
                    "present.style null", request("present", params: #"{"style":null}"#),
                    .error(-32602, id: 1, field: "style"))
            ]
    }()

    /// The other methods' fields with wrong types.
    static let otherFields: [HostileLine] = [
        ("hello", #"{"protocol":"1"}"#, "protocol"), ("hello", #"{"client":7}"#, "client"),
        ("dismiss", #"{"id":7}"#, "id"), ("dismiss", #"{"id":"x","animated":"no"}"#, "animated"),
        ("dismiss", #"{"id":"x","transition":"fade"}"#, "transition"), ("dismissAll", #"{"animated":1}"#, "animated"),
        ("subscribe", #"{"topics":"frames"}"#, "topics"), ("subscribe", #"{"topics":["frames",7]}"#, "topics[1]"),
        ("subscribe", #"{"topics":[]}"#, "topics"), ("unsubscribe", #"{"topics":["everything"]}"#, "topics[0]"),
        ("setContainer", #"{"width":"390","height":844}"#, "width"),
        ("setContainer", #"{"width":390,"height":844,"safeArea":{"top":"0"}}"#, "safeArea.top"),
        ("setContainer", #"{"width":390,"height":844,"scale":0}"#, "scale"),
        ("setContainer", #"{"width":390,"height":844,"horizontalSizeClass":"huge"}"#, "horizontalSizeClass"),
        ("keyboard", #"{"height":true}"#, "height"), ("keyboard", #"{"height":10,"curve":"bouncy"}"#, "curve"),
        ("tap", #"{"x":1}"#, "y"), ("tap", #"{"x":[1],"y":1}"#, "x"),
        ("swipe", #"{"phase":"sideways","dx":0,"dy":0}"#, "phase"),
        ("swipe", #"{"phase":"began","dx":"0","dy":0}"#, "dx"),
        ("swipe", #"{"phase":"began","dx":0,"dy":0,"vy":null,"vx":"1"}"#, "vx"),
        ("advance", #"{"seconds":"1"}"#, "seconds"), ("advance", #"{"seconds":-1}"#, "seconds"),
    ].map { HostileLine("\($0.0).\($0.2) wrong", request($0.0, params: $0.1), .error(-32602, id: 1, field: $0.2)) }

    static let all = invalidUTF8 + depth + numbers + nonFinite + duplicateKeys + ids + envelopes + batches
        + presentFields + otherFields
}

@Suite("Hostile input")
struct HostileInputTests {
    /// A daemon whose stack holds one entry of another client, and that stack's listing.
    static func daemonWithAnEntry() throws -> (DaemonHarness, PresentClient, JSONValue) {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let owner = try daemon.connect()
        try owner.call("present", ["id": "kept", "style": "popup", "dismissOnTap": false])
        try owner.call("advance", ["seconds": 1])
        return (daemon, owner, try owner.call("stack"))
    }

    @Test func everyHostileLineGetsItsReplyAndChangesNothing() throws {
        let (daemon, owner, before) = try Self.daemonWithAnEntry()
        let c = try daemon.connect()
        for (n, row) in HostileTable.all.enumerated() {
            // A sync after each line: its reply must come next, after the line's own (if any).
            check(try c.messagesBeforeSync(after: row.bytes, marker: "after-\(n)"), against: row)
        }
        #expect(try owner.call("stack") == before, "the stack changed")
        #expect(try c.call("stack") == before)
        #expect(daemon.stderrText.contains("Fatal") == false)
    }

    private func check(_ replies: [JSONValue], against row: HostileLine) {
        let comment = Comment(rawValue: row.name)
        switch row.expected {
        case .nothing:
            #expect(replies.isEmpty, comment)
        case .error(let code, let id, let field):
            guard replies.count == 1, let reply = replies.first else {
                Issue.record("\(row): expected one error reply, got \(replies)")
                return
            }
            #expect(reply["error"]?["code"] == .int(Int64(code)), comment)
            #expect(reply["id"] == id, comment)
            #expect(reply["jsonrpc"] == "2.0", comment)
            #expect(reply["error"]?["message"]?.stringValue?.isEmpty == false, comment)
            if let field { #expect(reply["error"]?["data"]?["field"] == .string(field), comment) }
        case .result(let id, let result):
            guard replies.count == 1, let reply = replies.first else {
                Issue.record("\(row): expected one result, got \(replies)")
                return
            }
            #expect(reply["id"] == id, comment)
            #expect(reply["error"] == nil, comment)
            if let result { #expect(reply["result"] == result, comment) }
        case .batch(let codes):
            guard replies.count == 1, let items = replies.first?.arrayValue else {
                Issue.record("\(row): expected one array of replies, got \(replies)")
                return
            }
            #expect(items.map { $0["error"]?["code"]?.int64Value.map(Int.init) } == codes, comment)
        }
    }

    /// Half a request, then nothing: the daemon waits without answering, serves everyone
    /// else meanwhile, and answers once the line is complete.
    @Test func aPartialLineThenSilence() throws {
        let (daemon, owner, before) = try Self.daemonWithAnEntry()
        let c = try daemon.connect()
        let line = Array(request("dismissAll", id: "\"half\"").utf8)
        try c.sendRaw(Array(line[..<20]))
        #expect(try c.readLine(timeout: 0.3) == nil)
        #expect(try owner.call("ping") == [:])
        #expect(try daemon.connect().call("stack") == before)
        try c.sendRaw(Array(line[20...]) + [10])
        let reply = try JSONValue.parse(try #require(try c.readLine()))
        #expect(reply["id"] == "half")
        #expect(reply["result"]?["dismissed"] == ["kept"])
    }

    /// A client that hangs up in the middle of a line: the half line is never executed.
    @Test func aPartialLineThenHangingUp() throws {
        let (daemon, owner, before) = try Self.daemonWithAnEntry()
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        var c: PresentClient? = try daemon.connect()
        let mine = try c?.call("present", ["style": "alert"])["id"]
        try c?.sendRaw(b(request("dismissAll")))   // no newline
        c = nil                                     // hangs up
        // Its own entry leaving marks the moment the daemon handled the hang-up.
        let gone = try watcher.awaitNotification("lifecycle") { $0["event"] == "willDismiss" }
        #expect(gone?["id"] == mine)
        #expect(gone?["reason"] == "ownerGone")
        try owner.call("advance", ["seconds": 2])
        #expect(try owner.call("stack") == before)
    }

    /// A line of exactly the limit is served; one byte more is refused with −32600 and the
    /// connection is closed, its presentations leaving with ownerGone; others are unaffected.
    @Test func theLineLimitExactly() throws {
        let (daemon, owner, before) = try Self.daemonWithAnEntry()
        let limit = 1 << 20
        func line(ofLength length: Int) -> [UInt8] {
            let head = Array(#"{"jsonrpc":"2.0","id":"big","method":"sync","params":{"nonce":""#.utf8),
                tail = Array(#""}}"#.utf8)
            return head + Array(repeating: UInt8(ascii: "x"), count: length - head.count - tail.count) + tail
        }
        let c = try daemon.connect()
        let exact = line(ofLength: limit)
        try c.sendRaw(exact + [10])
        let reply = try JSONValue.parse(try #require(try c.readLine()))
        #expect(reply["id"] == "big")
        #expect(reply["result"]?["nonce"]?.stringValue?.utf8.count == exact.filter { $0 == UInt8(ascii: "x") }.count)

        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let mine = try c.call("present", ["style": "alert"])["id"]
        // The daemon may close before it has read all of it: the write may fail.
        _ = try? c.sendRaw(line(ofLength: limit + 1) + [10])
        var sawRefusal = false
        while let text = (try? c.readLine(timeout: generousTimeout)) ?? nil {   // until the daemon closes
            let message = try JSONValue.parse(text)
            if message["error"]?["code"] == -32600 && message["id"] == .null { sawRefusal = true }
        }
        #expect(sawRefusal)
        #expect(throws: ClientError.self) { try c.call("ping") }
        let gone = try watcher.awaitNotification("lifecycle") { $0["event"] == "willDismiss" }
        #expect(gone?["id"] == mine)
        #expect(gone?["reason"] == "ownerGone")
        try owner.call("advance", ["seconds": 2])
        #expect(try owner.call("stack") == before)
        #expect(daemon.stderrText.contains("over \(limit) bytes"))
    }
}
