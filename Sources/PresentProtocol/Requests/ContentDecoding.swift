// A presentation's content — `"label"` or {title?, message?, messageMarkup?, appName?, icon?, actions?,
// fields?, progress?, surface?, accessibility?} — and what sizes and times it:
// preferredContentSize and autoDismiss. Every bound is in ProtocolLimits and every error names its field.

import PresentCore
import PresentJSON

extension RequestDecoder {
    static let contentFields: Set<String> = [
        "title", "message", "messageMarkup", "appName", "icon", "actions", "fields", "progress",
                                             "surface", "accessibility"]

    /// The string form (a label alone) or the object form.
    func content(_ v: ParamValue) throws(RPCError) -> Content {
        if case .string = v.value { return Content(label: try name(v)) }
        let o = try v.object()
        try o.rejectUnknownKeys(allowed: Self.contentFields)
        var c = Content()
        c.title = try o.optionalField("title").map { v throws(RPCError) in try text(v, max: limits.maxTitleLength) }
        c.message = try o.optionalField("message").map { v throws(RPCError) in try text(v, max: limits.maxMessageLength)
        }
        // Opaque to presentd beyond its bounds: a renderer that cannot parse it draws message.
        c.messageMarkup = try o.optionalField("messageMarkup").map { v throws(RPCError) in
            try text(v, max: ProtocolLimits.maxMessageMarkupLength)
        }
        if c.messageMarkup != nil, c.message == nil {
            throw .invalidParams(field: o.path(for: "messageMarkup"),
                reason: "goes with message, the same text in plain: renderers that draw no markup show message")
        }
        c.appName = try o.optionalField("appName").map { v throws(RPCError) in try text(v, max: limits.maxTitleLength) }
        c.icon = try o.optionalObject("icon").map(icon)
        c.actions =
            try o.optionalArray("actions", count: 0...limits.maxActions) { v throws(RPCError) in try action(v.object())
            } ?? []
        c.fields =
            try o.optionalArray("fields", count: 0...limits.maxFields) { v throws(RPCError) in try field(v.object()) }
            ?? []
        if o.contains("progress") {
            // null is a value here: an indeterminate bar.
            c.progress =
                o.value("progress") == .null ? .indeterminate : .fraction(try o.double("progress", range: 0...1))
        }
        c.surface = try o.optionalObject("surface").map(surface)
        c.accessibility = try o.optionalObject("accessibility").map(accessibility)
        try checkUnique(c.actions.map(\.id), in: o, "actions")
        try checkUnique(c.fields.map(\.id), in: o, "fields")
        for role in [ActionRole.default, .cancel] {
            let holders = c.actions.indices.filter { c.actions[$0].role == role }
            if holders.count > 1 {
                throw .invalidParams(field: o.path(for: "actions") + "[\(holders[1])].role",
                    reason:
                        "at most one action may have role \"\(role.rawValue)\"; actions[\(holders[0])] has it already")
            }
        }
        return c
    }

    /// 1…`max` characters.
    func text(_ v: ParamValue, max: Int) throws(RPCError) -> String {
        let s = try v.string()
        guard !s.isEmpty, s.count <= max else { throw v.invalid("must be 1 to \(max) characters, got \(s.count)") }
        return s
    }

    /// Action and field ids: 1…maxContentIDLength characters.
    func contentID(_ v: ParamValue) throws(RPCError) -> String { try text(v, max: limits.maxContentIDLength) }

    private func checkUnique(_ ids: [String], in o: ParamReader, _ key: String) throws(RPCError) {
        var seen: [String: Int] = [:]
        for (i, id) in ids.enumerated() {
            if let first = seen[id] {
                throw .invalidParams(field: o.path(for: key) + "[\(i)].id",
                                     reason: "\(ParamValue.quoted(id)) is already the id of \(key)[\(first)]")
            }
            seen[id] = i
        }
    }

    private func icon(_ o: ParamReader) throws(RPCError) -> Icon {
        try o.rejectUnknownKeys(allowed: ["name", "path"])
        switch (o.contains("name"), o.contains("path")) {
        case (true, false):
            return .name(try text(try o.field("name"), max: limits.maxTitleLength))
        case (false, true):
            let v = try o.field("path")
            let path = try text(v, max: limits.maxMessageLength)
            let lower = path.lowercased()
            guard path.hasPrefix("/") else { throw v.invalid("must be an absolute path") }
            guard lower.hasSuffix(".png") || lower.hasSuffix(".svg") else {
                throw v.invalid("must name a .png or .svg file")
            }
            return .path(path)
        default:
            throw .invalidParams(
                field: o.path, reason: "expected exactly one of name (an icon-theme name) or path (an absolute path)")
        }
    }

    private func action(_ o: ParamReader) throws(RPCError) -> ContentAction {
        try o.rejectUnknownKeys(allowed: ["id", "title", "role", "dismisses"])
        return ContentAction(
            id: try contentID(try o.field("id")), title: try text(try o.field("title"), max: limits.maxTitleLength),
                             role: try o.optionalEnumValue("role"), dismisses: try o.optionalBool("dismisses") ?? true)
    }

    private func field(_ o: ParamReader) throws(RPCError) -> ContentField {
        try o.rejectUnknownKeys(allowed: ["id", "kind", "placeholder", "value"])
        let kind: FieldKind = try o.enumValue("kind")
        let value = try o.optionalField("value").map { v throws(RPCError) in try fieldValue(v, kind: kind) }
        return ContentField(id: try contentID(try o.field("id")), kind: kind,
            placeholder: try o.optionalField("placeholder").map { v throws(RPCError) in
                try text(v, max: limits.maxTitleLength)
            },
                            value: value)
    }

    /// A field's value: a string of at most maxMessageLength characters (empty allowed);
    /// a number field's must read as a finite number, and a number is accepted as such.
    func fieldValue(_ v: ParamValue, kind: FieldKind) throws(RPCError) -> String {
        if kind == .number, case .int(let n) = v.value { return String(n) }
        if kind == .number, case .double(let d) = v.value, d.isFinite { return JSONValue.double(d).serializedString }
        let s = try v.string()
        guard s.count <= limits.maxMessageLength else {
            throw v.invalid("must be at most \(limits.maxMessageLength) characters, got \(s.count)")
        }
        if kind == .number, !s.isEmpty, Double(s).map({ !$0.isFinite }) ?? true {
            throw v.invalid("must be a number for a number field, got \(ParamValue.quoted(s))")
        }
        return s
    }

    private func surface(_ o: ParamReader) throws(RPCError) -> Surface {
        try o.rejectUnknownKeys(allowed: ["appId", "handle"])
        let s = Surface(appID: try o.optionalField("appId").map(name), handle: try o.optionalField("handle").map(name))
        guard s.appID != nil || s.handle != nil else {
            throw .invalidParams(field: o.path, reason: "expected appId, handle or both")
        }
        return s
    }

    private func accessibility(_ o: ParamReader) throws(RPCError) -> Accessibility {
        try o.rejectUnknownKeys(allowed: ["label", "hint", "announce"])
        return Accessibility(
            label: try o.optionalField("label").map { v throws(RPCError) in try text(v, max: limits.maxTitleLength) },
            hint: try o.optionalField("hint").map { v throws(RPCError) in try text(v, max: limits.maxMessageLength) },
                             announce: try o.optionalEnumValue("announce"))
    }

    // MARK: Size and time

    /// `{width?, height?}` in points.
    func preferredContentSize(_ o: ParamReader) throws(RPCError) -> PreferredContentSize {
        try o.rejectUnknownKeys(allowed: ["width", "height"])
        return PreferredContentSize(width: try o.optionalDouble("width", range: dimensions, unit: "points"),
                                    height: try o.optionalDouble("height", range: dimensions, unit: "points"))
    }

    /// `{after, pauseWhileInteracting?}`.
    func autoDismiss(_ o: ParamReader) throws(RPCError) -> AutoDismiss {
        try o.rejectUnknownKeys(allowed: ["after", "pauseWhileInteracting"])
        return AutoDismiss(after: try o.double("after", range: 0...limits.maxAutoDismiss, unit: "seconds"),
                           pauseWhileInteracting: try o.optionalBool("pauseWhileInteracting") ?? true)
    }
}

extension RequestDecoder {
    /// What an update changes (its params, in MethodTable, add `id` and how a change animates).
    static let updatedMembers = ["content", "style", "background", "cornerRadius", "shadow", "preferredContentSize",
                                 "autoDismiss", "selectedDetent"]

    /// `update {id, …}`: each member given replaces the entry's; `null` clears the members
    /// that can be absent (content, shadow, preferredContentSize, autoDismiss).
    func update(_ p: ParamReader) throws(RPCError) -> Request {
        guard Self.updatedMembers.contains(where: p.contains) else {
            throw .invalidParams(field: "params",
                reason: "nothing to update; give at least one of \(Self.updatedMembers.joined(separator: ", "))")
        }
        /// A member that `null` clears: nil = not given, .some(nil) = cleared.
        func clearable<T>(_ key: String, _ read: (ParamValue) throws(RPCError) -> T) throws(RPCError) -> T?? {
            guard let v = p.value(key) else { return nil }
            if v == .null { return .some(nil) }
            return .some(try read(try p.field(key)))
        }
        var change = EntryUpdate()
        change.content = try clearable("content", content)
        change.style = try p.optionalField("style").map(style)
        change.background = try p.optionalObject("background").map(background)
        change.cornerRadius = try p.optionalDouble("cornerRadius", range: dimensions, unit: "points")
        change.shadow = try clearable("shadow") { v throws(RPCError) in try shadow(v.object()) }
        change.preferredContentSize = try clearable("preferredContentSize") { v throws(RPCError) in
            try preferredContentSize(v.object())
        }
        change.autoDismiss = try clearable("autoDismiss") { v throws(RPCError) in try autoDismiss(v.object()) }
        change.duration = try p.optionalDouble("duration", range: durations, unit: "seconds")
        change.timing = try p.optionalField("timing").map(timing)
        change.selectedDetent = try p.optionalField("selectedDetent").map(name)
        return .update(id: try name(p.field("id")), change)
    }

    /// `fields: {fieldID: value}` of activate and key: ids checked here, values against
    /// the entry's fields by the daemon (only it knows their kinds).
    func fieldValues(_ p: ParamReader) throws(RPCError) -> [String: String] {
        guard let o = try p.optionalObject("fields") else { return [:] }
        guard o.object.count <= limits.maxFields else {
            throw .invalidParams(field: o.path, reason: "at most \(limits.maxFields) fields, got \(o.object.count)")
        }
        var values: [String: String] = [:]
        for key in o.object.keys {
            let v = try o.field(key)
            _ = try contentID(ParamValue(.string(key), path: v.path))
            switch v.value {
            case .int, .double: values[key] = try fieldValue(v, kind: .number)
            default: values[key] = try fieldValue(v, kind: .text)
            }
        }
        return values
    }
}
