// The style names live in one place (PresentationStyle.named and the decoder's styleTypes):
// every name decodes to the style of that name and back, every object type decodes, and
// the refusal lists exactly those.

import PresentCore
import PresentJSON
import Testing
@testable import PresentProtocol

@Suite struct StyleNamesTests {
    static func decoded(_ style: JSONValue) throws(RPCError) -> PresentationStyle {
        guard case .present(let request) = try RequestDecoder().decode(method: "present", params: ["style": style])
        else {
            throw RPCError.internalError("not a present")
        }
        return request.presentation.style
    }

    @Test func everyNamedStyleDecodesByItsNameAndEncodesBack() throws {
        for style in PresentationStyle.named {
            #expect(try Self.decoded(.string(style.name)) == style)
            #expect(try Self.decoded(CoreEncoding.style(style)) == style, "\(style.name) round-trips")
        }
    }

    @Test func everyObjectTypeDecodesAndTheRefusalsListThemAll() throws {
        for type in RequestDecoder.styleTypes {
            #expect(try Self.decoded(["type": .string(type)]).name == type)
        }
        do {
            _ = try Self.decoded("sideways")
            Issue.record("an unknown name was accepted")
        } catch {
            for name in PresentationStyle.named.map(\.name) + RequestDecoder.styleTypes {
                #expect(error.message.contains(name), "\(error.message) names \(name)")
            }
        }
        do {
            _ = try Self.decoded(["type": "sideways"])
            Issue.record("an unknown type was accepted")
        } catch {
            #expect(RequestDecoder.styleTypes.allSatisfy(error.message.contains), "\(error.message)")
        }
    }

    @Test func aStyleOfAnotherTypeIsRefusedNamingBothForms() {
        for (style, type) in [(JSONValue.int(42), "integer"), (.array([]), "array"), (.bool(true), "boolean")] {
            do {
                _ = try Self.decoded(style)
                Issue.record("\(style) was accepted as a style")
            } catch {
                #expect(error.data?["field"] == "style"
                        && error.data?["reason"] == .string("expected a style name or a style object, got \(type)"),
                        "\(error.message)")
            }
        }
    }
}
