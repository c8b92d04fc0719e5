import Testing
import PresentCore
import PresentJSON
import PresentProtocol

/// "field: reason" of the invalid-params error `RequestDecoder` refuses `params` with, for
/// `method`; nil when it accepts them.
private func refusal(_ method: String, _ params: String) -> String? {
    paramFailure { try RequestDecoder().decode(method: method, params: try JSONValue.parse(params)) }
        .map { "\($0.field): \($0.reason)" }
}

@Suite("RequestDecoder")
struct RequestDecoderTests {
    /// docs/PROTOCOL.md: unknown fields are refused everywhere, so a misspelt one is never
    /// silently ignored — points nested in a presentation included.
    @Test func everyPointRefusesUnknownMembers() {
        #expect(refusal("present", #"{"style":"alert","shadow":{"offset":{"x":1,"y":2,"z":3}}}"#)
            == "shadow.offset.z: unknown field")
        #expect(refusal("present", #"{"style":{"type":"custom","position":{"origin":{"x":1,"y":2,"dx":0}}}}"#)
            == "style.position.origin.dx: unknown field")
        #expect(refusal("tap", #"{"x":1,"y":2,"z":3}"#) == "z: unknown field")
    }

    @Test func pointsStillDecode() throws {
        guard case .present(let request) = try RequestDecoder().decode(
                method: "present", params: try JSONValue.parse(#"{"style":"alert","shadow":{"offset":{"x":1,"y":-2}}}"#)
            )
        else {
            Issue.record("not a present request")
            return
        }
        #expect(request.presentation.shadow?.offset == Size(width: 1, height: -2))
        guard
            case .tap(let point, _) = try RequestDecoder().decode(
                method: "tap", params: try JSONValue.parse(#"{"x":3,"y":4}"#))
        else {
            Issue.record("not a tap request")
            return
        }
        #expect(point == Point(x: 3, y: 4))
    }
}
