import Testing
import PresentCore
import PresentJSON
import PresentProtocol

@Suite("JSON-RPC encoding and errors")
struct EncodingTests {
    @Test func result() {
        let message = RPCEncoding.result(id: 1, ["ok": true])
        #expect(message.serializedString == #"{"jsonrpc":"2.0","id":1,"result":{"ok":true}}"#)
    }

    @Test func colorsAreHexBytesWithAlphaOnlyWhenTranslucent() {
        #expect(CoreEncoding.color(.black) == "#000000")
        #expect(CoreEncoding.color(Color(red: 1, green: 0.5, blue: 0.05)) == "#ff800d")
        #expect(
            CoreEncoding.color(Color(red: 2, green: -1, blue: 1, alpha: 0.5)) == "#ff00ff80", "clamped, then rounded")
        #expect(CoreEncoding.color(Color(red: 0, green: 0, blue: 0, alpha: 0)) == "#00000000")
    }

    @Test func errorWithData() {
        let message = RPCEncoding.error(id: "a", .invalidParams(field: "size.width", reason: "required"))
        #expect(message.serializedString == #"{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"#
                + #""message":"invalid params: size.width: required","data":{"field":"size.width","reason":"required"}"#
                + #"}}"#
        )
    }

    @Test func errorWithoutID() {
        let message = RPCEncoding.error(id: nil, .parseError("NaN is not valid JSON at byte 3"))
        #expect(message.serializedString == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"#
                + #""message":"parse error: NaN is not valid JSON at byte 3"}}"#)
    }

    /// The reply the daemon writes member by member is the same text as the value.
    @Test(arguments: [
        RPCReply(id: 1, .success(["ok": true])), RPCReply(id: "a\"b", .success([1, 2.5, "x"])),
        RPCReply(id: .null, .success([:])), RPCReply(id: nil, .failure(.parseError("NaN is not valid JSON at byte 3"))),
        RPCReply(id: .int(.min), .failure(.invalidParams(field: "size.width", reason: "required"))),
    ])
    func aWrittenReplyIsItsValueSerialised(reply: RPCReply) {
        var writer = JSONWriter()
        reply.write(to: &writer)
        #expect(writer.bytes == reply.json.serialized())
    }

    @Test func notification() {
        #expect(RPCEncoding.notification(method: "frame").serializedString == #"{"jsonrpc":"2.0","method":"frame"}"#)
        #expect(RPCEncoding.notification(method: "frame", params: ["seq": 3]).serializedString
                == #"{"jsonrpc":"2.0","method":"frame","params":{"seq":3}}"#)
    }

    @Test func request() {
        let message = RPCEncoding.request(id: 5, method: "shouldDismiss", params: ["id": "p1"])
        #expect(message.serializedString == #"{"jsonrpc":"2.0","id":5,"method":"shouldDismiss","params":{"id":"p1"}}"#)
    }

    /// A request a client writes straight into bytes is the same text as the value, with
    /// and without params; the line too, even where json-c cuts a key at U+0000.
    @Test(arguments: [
        RPCRequest(id: 5, method: "shouldDismiss", params: ["id": "p1"]),
        RPCRequest(id: "a\"b", method: "ping", params: nil),
        RPCRequest(id: .int(.min), method: "present", params: ["a": [1, 2.5, "x"], "b": .null]),
        RPCRequest(id: 7, method: "call", params: ["cut\u{0}here": 1, "kept": "\u{0}"]),
    ])
    func aWrittenRequestIsItsValueSerialised(request: RPCRequest) throws {
        let id = try #require(request.id)
        let value = RPCEncoding.request(id: id, method: request.method, params: request.params)
        #expect(
            RPCEncoding.requestLine(id: id, method: request.method, params: request.params) == value.serializedLine())
        var writer = JSONWriter()
        RPCEncoding.writeRequest(id: id, method: request.method, params: request.params, into: &writer)
        guard !writer.sawKeyWithNUL else { return }
        #expect(writer.bytes == value.serialized())
        #expect(try RPCMessage(decoding: try JSONValue.parse(writer.bytes)) == .request(request))
    }

    @Test(arguments: [
        RPCRequest(id: 5, method: "present", params: ["a": [1, 2]]),
        RPCRequest(id: "x", method: "dismiss", params: [1]),
        RPCRequest(id: nil, method: "notify", params: nil),
    ])
    func requestsRoundTrip(request: RPCRequest) throws {
        let text = RPCEncoding.encode(request).serializedString
        let decoded = try RPCMessage(decoding: try JSONValue.parse(text))
        #expect(decoded == .request(request))
    }

    @Test func responsesRoundTrip() throws {
        let ok = try RPCMessage(decoding: RPCEncoding.result(id: 3, ["dismiss": false]))
        #expect(ok == .response(id: 3, result: .success(["dismiss": false])))
        let error = RPCError.limitExceeded("too many presentations", limit: 16)
        let failed = try RPCMessage(decoding: RPCEncoding.error(id: "q", error))
        #expect(failed == .response(id: "q", result: .failure(error)))
    }

    @Test func codes() {
        let codes: [RPCErrorCode] = [.parseError, .invalidRequest, .methodNotFound, .invalidParams,
                                     .internalError, .notFound, .notOwner, .limitExceeded, .wrongClockMode]
        #expect(codes.map(\.rawValue) == [-32700, -32600, -32601, -32602, -32603, -32001, -32002, -32003, -32004])
    }

    @Test func constructors() {
        let params = RPCError.invalidParams(
            field: "transition.timing.bezier[1]", reason: "expected a number, got string")
        #expect(params.code == .invalidParams)
        #expect(params.message == "invalid params: transition.timing.bezier[1]: expected a number, got string")
        #expect(params.data == ["field": "transition.timing.bezier[1]", "reason": "expected a number, got string"])
        #expect(RPCError.methodNotFound("frob").data == ["method": "frob"])
        #expect(RPCError.methodNotFound("frob").message == "method not found: frob")
        #expect(RPCError.limitExceeded("stack full", limit: 8).data == ["limit": 8])
        #expect(RPCError.limitExceeded("stack full").data == nil)
        #expect(RPCError.notFound("presentation p1").code == .notFound)
        #expect(RPCError.notOwner("presentation p1").code == .notOwner)
        #expect(RPCError.wrongClockMode("clock is real-time").code == .wrongClockMode)
        #expect(RPCError.internalError("x").code == .internalError)
        #expect(RPCError.invalidRequest("x").code == .invalidRequest)
        #expect(RPCError.parseError("x").json == ["code": -32700, "message": "parse error: x"])
    }
}
