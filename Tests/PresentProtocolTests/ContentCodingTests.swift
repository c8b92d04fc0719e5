// Content decodes into the core's value and encodes back to what was sent: what a client
// gives is exactly what renderers read, with defaults spelled out.

import Testing
import PresentCore
import PresentJSON
import PresentProtocol

@Suite("Content coding")
struct ContentCodingTests {
    private func presented(_ params: String) throws -> Presentation {
        guard
            case .present(let request) = try RequestDecoder().decode(
                method: "present", params: try JSONValue.parse(params))
        else {
            throw RPCError.internalError("not a present request")
        }
        return request.presentation
    }

    @Test func everyPartRoundTrips() throws {
        let content =
            #"{"title":"Wi-Fi","message":"Join \"Home\"?","messageMarkup":"Join <b>\"Home\"</b>?","#
            + #""appName":"Settings","icon":{"path":"/usr/share/icons/wifi.svg"},"actions":[{"id":"join","#
            + #""title":"Join","dismisses":true,"role":"default"},{"id":"later","title":"Later","dismisses":false}],"#
            + #""fields":[{"id":"pw","kind":"secure","placeholder":"Password"},{"id":"n","kind":"number","value":"3"}"#
            + #"],"progress":null,"surface":{"appId":"org.example.Settings","handle":"x11:0x3a00004"},"#
            + #""accessibility":{"label":"Join network","hint":"Enter the password","announce":"assertive"}}"#
        let p = try presented(#"{"style":"alert","content":\#(content)}"#)
        #expect(p.content?.progress == .indeterminate)
        #expect(p.content?.action(role: .default)?.id == "join")
        #expect(CoreEncoding.content(try #require(p.content)) == (try JSONValue.parse(content)))
        #expect(
            CoreEncoding.content(try #require(try presented(#"{"style":"alert","content":"saved"}"#).content))
                == "saved")
    }

    @Test func aSecureFieldsValueIsKeptButNeverWrittenToSubscribers() throws {
        let p = try presented(
            #"{"style":"alert","content":{"fields":[{"id":"pw","kind":"secure","value":"hunter2"},{"id":"u","#
            + #""kind":"text","value":"ops"}]}}"#
        )
        #expect(p.content?.fields.first?.value == "hunter2", "the answer still defaults to it")
        #expect(CoreEncoding.content(try #require(p.content)) == (try JSONValue.parse(
            #"{"fields":[{"id":"pw","kind":"secure"},{"id":"u","kind":"text","value":"ops"}]}"#)))
    }

    @Test func defaultsAreSpelledOutForRenderers() throws {
        let p = try presented(
            #"{"style":"alert","content":{"actions":[{"id":"ok","title":"OK"}],"fields":[{"id":"n","kind":"number","#
            + #""value":7}],"progress":0.25}}"#
        )
        let encoded = CoreEncoding.content(try #require(p.content))
        #expect(
            encoded
                == (try JSONValue.parse(
                    #"{"actions":[{"id":"ok","title":"OK","dismisses":true}],"fields":[{"id":"n","kind":"number","#
                    + #""value":"7"}],"progress":0.25}"#
                )))
        #expect(p.effectiveDismissOnEscape)   // a dialog: it has actions
        #expect(!(try presented(#"{"style":"alert","content":"x"}"#)).effectiveDismissOnEscape)
    }

    /// dismissOnTap left out is nil, "when it has no actions": a dialog is not tapped away
    /// unless asked for, anything else is; an explicit value wins either way.
    @Test func dismissOnTapDefaultsToFalseForADialog() throws {
        let dialog = try presented(#"{"style":"alert","content":{"actions":[{"id":"ok","title":"OK"}]}}"#)
        #expect(dialog.dismissOnTap == nil && !dialog.effectiveDismissOnTap && dialog.effectiveInteraction == .absorb)
        let label = try presented(#"{"style":"alert","content":"x"}"#)
        #expect(label.dismissOnTap == nil && label.effectiveDismissOnTap && label.effectiveInteraction == .dismiss)
        #expect(
            try presented(#"{"style":"alert","dismissOnTap":true,"content":{"actions":[{"id":"ok","title":"OK"}]}}"#)
                    .effectiveDismissOnTap)
        #expect(!(try presented(#"{"style":"popup","dismissOnTap":false}"#)).effectiveDismissOnTap)
    }

    @Test func anUpdateReadsNullAsClear() throws {
        guard case .update(let id, let change) = try RequestDecoder().decode(
                method: "update",
                params: try JSONValue.parse(#"{"id":"a","content":null,"shadow":null,"cornerRadius":8}"#))
        else {
            Issue.record("not an update")
            return
        }
        #expect(id == "a")
        #expect(change.content == .some(nil) && change.shadow == .some(nil))
        #expect(change.cornerRadius == 8 && change.autoDismiss == nil && change.style == nil)
    }

    /// The refusal of content `c`: its field and its reason.
    private func refusal(_ c: String) throws -> (field: String, reason: String)? {
        do {
            _ = try presented(#"{"style":"alert","content":\#(c)}"#)
            return nil
        } catch let error as RPCError {
            #expect(error.code == .invalidParams)
            return (error.data?["field"]?.stringValue ?? "", error.data?["reason"]?.stringValue ?? "")
        }
    }

    @Test func messageMarkupIsOneTo8192CharactersAndGoesWithMessage() throws {
        let longest = String(repeating: "é", count: ProtocolLimits.maxMessageMarkupLength)
        let p = try presented(#"{"style":"alert","content":{"message":"x","messageMarkup":"\#(longest)"}}"#)
        #expect(p.content?.messageMarkup?.count == 8192)
        // Opaque beyond its bounds: markup that does not parse is kept, for the renderer to fall back.
        #expect(try presented(#"{"style":"alert","content":{"message":"a < b","messageMarkup":"a < b"}}"#)
                    .content?.messageMarkup == "a < b")
        let over = try refusal(#"{"message":"x","messageMarkup":"\#(longest)é"}"#)
        #expect(
            over?.field == "content.messageMarkup" && over?.reason == "must be 1 to 8192 characters, got 8193",
            "\(String(describing: over))")
        let empty = try refusal(#"{"message":"x","messageMarkup":""}"#)
        #expect(
            empty?.field == "content.messageMarkup" && empty?.reason == "must be 1 to 8192 characters, got 0",
            "\(String(describing: empty))")
        let alone = try refusal(#"{"title":"t","messageMarkup":"<b>x</b>"}"#)
        #expect(alone?.field == "content.messageMarkup" && alone?.reason.contains("goes with message") == true,
                "\(String(describing: alone))")
        let number = try refusal(#"{"message":"x","messageMarkup":3}"#)
        #expect(
            number?.field == "content.messageMarkup" && number?.reason == "expected a string, got integer",
            "\(String(describing: number))")
    }

    @Test func appNameIsOneTo256CharactersLikeATitle() throws {
        let longest = String(repeating: "ü", count: ProtocolLimits().maxTitleLength)
        #expect(try presented(#"{"style":"alert","content":{"appName":"\#(longest)"}}"#).content?.appName == longest)
        let over = try refusal(#"{"appName":"\#(longest)ü"}"#)
        #expect(
            over?.field == "content.appName" && over?.reason == "must be 1 to 256 characters, got 257",
            "\(String(describing: over))")
        let empty = try refusal(#"{"appName":""}"#)
        #expect(
            empty?.field == "content.appName" && empty?.reason == "must be 1 to 256 characters, got 0",
            "\(String(describing: empty))")
        let number = try refusal(#"{"appName":7}"#)
        #expect(
            number?.field == "content.appName" && number?.reason == "expected a string, got integer",
            "\(String(describing: number))")
    }
}
