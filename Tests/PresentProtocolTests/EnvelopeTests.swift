import Testing
import PresentJSON
@testable import PresentProtocol

/// What decoding one message should produce.
enum Outcome: Sendable {
    case message(RPCMessage)
    case failure(id: RPCID?, code: RPCErrorCode, message: String, notification: Bool = false)
}

struct EnvelopeCase: Sendable, CustomTestStringConvertible {
    let json: String
    let expected: Outcome
    init(_ json: String, _ expected: Outcome) {
        self.json = json
        self.expected = expected
    }
    var testDescription: String { json }
}

func decode(_ json: String, allowBatch: Bool = true) throws -> Result<RPCMessage, RPCEnvelopeError> {
    let value = try JSONValue.parse(json)
    return Result { () throws(RPCEnvelopeError) in try RPCMessage(decoding: value, allowBatch: allowBatch) }
}

func invalid(_ id: RPCID?, _ detail: String) -> Outcome {
    .failure(id: id, code: .invalidRequest, message: "invalid request: \(detail)")
}

@Suite("JSON-RPC envelope decoding")
struct EnvelopeTests {
    static let cases: [EnvelopeCase] = [
        // Valid requests and notifications.
        EnvelopeCase(#"{"jsonrpc":"2.0","id":1,"method":"present","params":{"a":1}}"#,
                     .message(.request(RPCRequest(id: 1, method: "present", params: ["a": 1])))),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":"abc","method":"x","params":[1,2]}"#,
                     .message(.request(RPCRequest(id: "abc", method: "x", params: [1, 2])))),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":-5,"method":"x"}"#,
                     .message(.request(RPCRequest(id: -5, method: "x")))),
        EnvelopeCase(#"{"method":"x","extra":true,"id":0,"jsonrpc":"2.0"}"#,
                     .message(.request(RPCRequest(id: 0, method: "x")))),
        EnvelopeCase(#"{"jsonrpc":"2.0","method":"subscribe.frames"}"#,
                     .message(.request(RPCRequest(id: nil, method: "subscribe.frames")))),
        EnvelopeCase(#"{"jsonrpc":"2.0","method":"n","params":{}}"#,
                     .message(.request(RPCRequest(id: nil, method: "n", params: [:])))),

        // Version.
        EnvelopeCase(#"{"id":1,"method":"x"}"#, invalid(1, #"missing "jsonrpc": "2.0""#)),
        EnvelopeCase(#"{"jsonrpc":"1.0","id":1,"method":"x"}"#, invalid(1, #""jsonrpc" must be "2.0", got "1.0""#)),
        EnvelopeCase(#"{"jsonrpc":2.0,"id":"a","method":"x"}"#, invalid("a", #""jsonrpc" must be "2.0", got 2.0"#)),

        // Ids of every JSON type.
        EnvelopeCase(#"{"jsonrpc":"2.0","id":null,"method":"x"}"#,
                     .message(.request(RPCRequest(id: .null, method: "x")))),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":true,"method":"x"}"#,
            invalid(nil, "id must be a string, an integer or null, got boolean")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
            invalid(nil, "id must be a string, an integer or null, got fractional number")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":1.0,"method":"x"}"#,
            invalid(nil, "id must be a string, an integer or null, got fractional number")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":[1],"method":"x"}"#,
            invalid(nil, "id must be a string, an integer or null, got array")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":{"n":1},"method":"x"}"#,
            invalid(nil, "id must be a string, an integer or null, got object")),

        // Method.
        EnvelopeCase(#"{"jsonrpc":"2.0","id":2}"#, invalid(2, #"missing "method""#)),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":2,"method":7}"#, invalid(2, "method must be a string, got integer")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","method":1,"params":"bar"}"#, invalid(nil, "method must be a string, got integer")),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":3,"method":"rpc.discover"}"#,
                     .message(.request(RPCRequest(id: 3, method: "rpc.discover")))),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":3,"method":"rpc.frob"}"#,
                     .failure(id: 3, code: .methodNotFound, message: "method not found: rpc.frob")),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":null,"method":"rpc.frob"}"#,
                     .failure(id: .null, code: .methodNotFound, message: "method not found: rpc.frob")),
        EnvelopeCase(#"{"jsonrpc":"2.0","method":"rpc.ping"}"#,
            .failure(id: nil, code: .methodNotFound, message: "method not found: rpc.ping", notification: true)),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":3,"method":"rpcx"}"#,
                     .message(.request(RPCRequest(id: 3, method: "rpcx")))),

        // Params.
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":4,"method":"x","params":"bar"}"#,
            invalid(4, "params must be an object or an array, got string")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":4,"method":"x","params":null}"#,
            invalid(4, "params must be an object or an array, got null")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","method":"x","params":3}"#,
            invalid(nil, "params must be an object or an array, got integer")),

        // Not an object.
        EnvelopeCase(#""x""#, invalid(nil, "expected a request object, got string")),
        EnvelopeCase("null", invalid(nil, "expected a request object, got null")),
        EnvelopeCase("42", invalid(nil, "expected a request object, got integer")),
        EnvelopeCase("[]", invalid(nil, "empty batch")),
        EnvelopeCase(#"[{"jsonrpc":"2.0","method":"a"}, 1]"#, .message(.batch([["jsonrpc": "2.0", "method": "a"], 1]))),

        // Responses (clients answering shouldDismiss).
        EnvelopeCase(#"{"jsonrpc":"2.0","id":9,"result":{"dismiss":true}}"#,
                     .message(.response(id: 9, result: .success(["dismiss": true])))),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":"s","result":null}"#, .message(.response(id: "s", result: .success(nil)))),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":"s","error":{"code":-32001,"message":"gone","data":{"x":1}}}"#,
            .message(.response(id: "s", result: .failure(RPCError(code: .notFound, message: "gone", data: ["x": 1]))))),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"?"}}"#,
            .message(.response(id: nil, result: .failure(RPCError(code: RPCErrorCode(rawValue: -1), message: "?"))))),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":null,"result":1}"#,
            invalid(nil, "response id must be a string or an integer, got null")),
        EnvelopeCase(#"{"jsonrpc":"2.0","result":1}"#, invalid(nil, #"a response needs an "id""#)),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":5,"result":1,"error":{"code":1,"message":"m"}}"#,
                     invalid(5, #"a response has "result" or "error", not both"#)),
        EnvelopeCase(#"{"jsonrpc":"2.0","id":5,"error":"bad"}"#, invalid(5, "error must be an object, got string")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":5,"error":{"code":"x","message":"m"}}"#,
            invalid(5, "error.code must be an integer, got string")),
        EnvelopeCase(
            #"{"jsonrpc":"2.0","id":5,"error":{"code":1}}"#, invalid(5, "error.message must be a string, got nothing")),
        EnvelopeCase(#"{"result":1,"id":5}"#, invalid(5, #"missing "jsonrpc": "2.0""#)),
    ]

    @Test(arguments: cases)
    func decodes(_ testCase: EnvelopeCase) throws {
        let result = try decode(testCase.json)
        switch (testCase.expected, result) {
        case (.message(let expected), .success(let message)):
            #expect(message == expected)
        case (.failure(let id, let code, let text, let notification), .failure(let error)):
            #expect(error.id == id)
            #expect(error.error.code == code)
            #expect(error.error.message == text)
            #expect(error.isNotification == notification)
        default:
            Issue.record("expected \(testCase.expected), got \(result)")
        }
    }

    @Test func batchElementsDoNotNest() throws {
        let result = try decode("[1]", allowBatch: false)
        guard case .failure(let error) = result else { Issue.record("decoded"); return }
        #expect(error.error.message == "invalid request: expected a request object, got array")
    }

    @Test func errorsAreAnsweredExceptForNotifications() throws {
        guard case .failure(let malformed) = try decode(#"{"jsonrpc":"2.0","method":1}"#),
              case .failure(let reserved) = try decode(#"{"jsonrpc":"2.0","method":"rpc.x"}"#) else {
            Issue.record("decoded"); return
        }
        #expect(malformed.reply?.serializedString ==
                #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: method must be a "#
                + #"string, got integer"}}"#
        )
        #expect(reserved.reply == nil)
    }

    @Test func parseErrorsFromBytes() {
        let result = Array("{\"jsonrpc\":".utf8).withUnsafeBytes { bytes in
            Result { () throws(RPCEnvelopeError) in try RPCMessage.parse(bytes) }
        }
        guard case .failure(let error) = result else { Issue.record("parsed"); return }
        #expect(error.id == nil)
        #expect(error.error.code == .parseError)
        #expect(error.error.message == "parse error: unexpected end of input at byte 11")
        #expect(error.reply?["id"] == .null)
    }

    @Test func parsesValidBytes() throws {
        let line = Array(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#.utf8)
        let message = try line.withUnsafeBytes { bytes in
            try Result { () throws(RPCEnvelopeError) in try RPCMessage.parse(bytes) }.get()
        }
        #expect(message == .request(RPCRequest(id: 7, method: "ping")))
    }

    @Test func rpcID() {
        #expect(RPCID(.string("a")) == "a")
        #expect(RPCID(.int(-3)) == -3)
        #expect(RPCID(.double(1)) == nil)
        #expect(RPCID(.null) == .null)
        #expect(RPCID.null.json == .null)
        #expect(RPCID(.bool(true)) == nil)
        #expect(RPCID.int(5).json == 5)
        #expect(RPCID.string("x").json == "x")
        #expect("\(RPCID.string("x"))" == #""x""#)
        #expect(RPCRequest(id: nil, method: "m").isNotification)
    }
}
