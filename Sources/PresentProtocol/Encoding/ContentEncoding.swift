// Content, preferred sizes and countdowns as JSON: the exact inverse of ContentDecoding,
// so what a client sent is what renderers and `stack` read back.

import PresentCore
import PresentJSON

extension CoreEncoding {
    /// The string form for a label, the object form otherwise (absent parts omitted).
    public static func content(_ c: Content) -> JSONValue {
        if let label = c.label { return .string(label) }
        var o: JSONObject = [:]
        if let t = c.title { o["title"] = .string(t) }
        if let m = c.message { o["message"] = .string(m) }
        if let m = c.messageMarkup { o["messageMarkup"] = .string(m) }
        if let a = c.appName { o["appName"] = .string(a) }
        switch c.icon {
        case .name(let n)?: o["icon"] = ["name": .string(n)]
        case .path(let p)?: o["icon"] = ["path": .string(p)]
        case nil: break
        }
        if !c.actions.isEmpty { o["actions"] = .array(c.actions.map(action)) }
        if !c.fields.isEmpty { o["fields"] = .array(c.fields.map(field)) }
        switch c.progress {
        case .fraction(let f)?: o["progress"] = .number(f)
        case .indeterminate?: o["progress"] = .null
        case nil: break
        }
        if let s = c.surface {
            var surface: JSONObject = [:]
            if let a = s.appID { surface["appId"] = .string(a) }
            if let h = s.handle { surface["handle"] = .string(h) }
            o["surface"] = .object(surface)
        }
        if let a = c.accessibility {
            var ax: JSONObject = [:]
            if let l = a.label { ax["label"] = .string(l) }
            if let h = a.hint { ax["hint"] = .string(h) }
            if let n = a.announce { ax["announce"] = .string(n.rawValue) }
            o["accessibility"] = .object(ax)
        }
        return .object(o)
    }

    /// Every member spelled out, defaults included, so a renderer needs no table of them.
    static func action(_ a: ContentAction) -> JSONValue {
        var o: JSONObject = ["id": .string(a.id), "title": .string(a.title), "dismisses": .bool(a.dismisses)]
        if let r = a.role { o["role"] = .string(r.rawValue) }
        return .object(o)
    }

    /// A secure field's value is never written: the daemon does not repeat a secret to
    /// every subscriber (a renderer draws the field empty; the answer still defaults to it,
    /// for the owner alone), and a flight recording, which holds only its length, replays
    /// the same streams.
    static func field(_ f: ContentField) -> JSONValue {
        var o: JSONObject = ["id": .string(f.id), "kind": .string(f.kind.rawValue)]
        if let p = f.placeholder { o["placeholder"] = .string(p) }
        if let v = f.value, f.kind != .secure { o["value"] = .string(v) }
        return .object(o)
    }

    public static func preferredContentSize(_ s: PreferredContentSize) -> JSONValue {
        var o: JSONObject = [:]
        if let w = s.width { o["width"] = .number(w) }
        if let h = s.height { o["height"] = .number(h) }
        return .object(o)
    }

    public static func autoDismiss(_ a: AutoDismiss) -> JSONValue {
        ["after": .number(a.after), "pauseWhileInteracting": .bool(a.pauseWhileInteracting)]
    }
}
