// The conversation between an entry's owner and the person at the screen: `update`
// changes an entry in place; `activate` and `key` come from the renderer or shell that
// drew the buttons, and the owner hears the answer as an `action` notification, before
// the reply to whoever pressed; `focus` holds an auto-dismiss countdown. A dismissal an
// answer causes is put to a `confirmDismiss` owner first, as for taps.

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    // MARK: update

    /// The owner changes its entry; anyone else is held to the dismiss policy.
    func update(_ id: String, _ change: EntryUpdate, for client: Client) throws(RPCError) -> JSONValue {
        let screen = try screen(holdingEntry: id)
        if let entry = screen.stack.entry(id: id) { try authorize([entry], by: client) }
        let entry = try stackCall(on: screen) { s throws(StackError) in try s.update(id: id, change, at: now) }
        return ["id": .string(entry.id), "state": .string(entry.state.rawValue),
                "contentRevision": .int(Int64(entry.contentRevision))]
    }

    // MARK: Answers

    /// A button of entry `id` was pressed; `activationToken`, the compositor's token for
    /// the press, lets the owner's app take the focus (xdg-activation).
    func activate(_ id: String, action actionID: String, fields: [String: String], activationToken: String?,
                  later: @escaping (JSONValue) -> Void) throws(RPCError) -> Outcome {
        let screen = try screen(holdingEntry: id)
        let action = try stackCall(on: screen) { s throws(StackError) in
            try s.activation(id: id, action: actionID, at: now)
        }
        return try answer(id, with: action, on: screen, fields: fields, activationToken: activationToken,
                          reply: [:], later: later)
    }

    /// Escape, Enter or back, for the topmost entry. With `id`, only when that entry is
    /// the one that has the key: a renderer sends the fields of the entry it believes is
    /// on top, and a newcomer that took the key meanwhile must not get them.
    func key(_ key: Key, for id: String?, on screen: Screen, fields: [String: String],
             later: @escaping (JSONValue) -> Void) throws(RPCError) -> Outcome {
        let outcome = screen.stack.resolve(key, at: now)
        if let id, outcome.entryID != id {
            var result: JSONObject = ["handled": false]
            if let holder = outcome.entryID { result["id"] = .string(holder) }
            return .result(.object(result))
        }
        switch outcome {
        case .activate(let id, let action):
            return try answer(id, with: action, on: screen, fields: fields, reply: ["handled": true], later: later)
        case .dismiss(let id):
            guard fields.isEmpty else {
                throw .invalidParams(
                    field: "fields",
                    reason:
                        "\(key.rawValue) dismisses \"\(id)\" without an action; there is nothing to send fields with")
            }
            let result: JSONObject = ["handled": true, "id": .string(id)]
            return dismissConfirmed(id, on: screen, reason: .key, action: nil, result: result, later: later)
        case .unhandled(let id):
            var result: JSONObject = ["handled": false]
            if let id { result["id"] = .string(id) }
            return .result(.object(result))
        }
    }

    /// Tells the owner, then dismisses when the action does.
    private func answer(_ id: String, with action: ContentAction, on screen: Screen, fields given: [String: String],
                        activationToken: String? = nil, reply: JSONObject,
                        later: @escaping (JSONValue) -> Void) throws(RPCError) -> Outcome {
        guard let entry = screen.stack.entry(id: id) else { throw Self.notFound(id) }
        let values = try answeredFields(of: entry, given: given)
        notifyOwner(of: entry, action: action, fields: values, activationToken: activationToken)
        var result = reply
        result["id"] = .string(id)
        result["action"] = .string(action.id)
        guard action.dismisses else {
            result["dismissed"] = false
            return .result(.object(result))
        }
        return dismissConfirmed(id, on: screen, reason: .action, action: action.id, result: result, later: later)
    }

    /// Every field of the entry with its answer: the value the renderer sent, else the
    /// field's own value, else "". A value for a field the entry lacks, or a number field's
    /// value that is not a number, is refused before anything happens.
    private func answeredFields(of entry: Entry, given: [String: String]) throws(RPCError) -> JSONObject {
        let fields = entry.effectiveContent?.fields ?? []
        for (key, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let field = fields.first(where: { $0.id == key }) else {
                throw .invalidParams(field: "fields.\(key)", reason: "\"\(entry.id)\" has no field \"\(key)\"")
            }
            if field.kind == .number, !value.isEmpty, Double(value).map({ !$0.isFinite }) ?? true {
                throw .invalidParams(field: "fields.\(key)", reason: "must be a number for a number field")
            }
        }
        var values: JSONObject = [:]
        for field in fields { values[field.id] = .string(given[field.id] ?? field.value ?? "") }
        return values
    }

    /// The `action` notification, to the owner alone, lossless and numbered with the
    /// lifecycle events. An owner that is gone (a restored entry whose client has not
    /// resumed yet) has nobody to hear it; the dismissal still happens.
    private func notifyOwner(of entry: Entry, action: ContentAction, fields: JSONObject, activationToken: String?) {
        let seq = broadcaster.nextSeq()
        guard let owner = clients[entry.owner] else {
            return log.info("\(entry.id): action \(action.id) with no owner connected to hear it")
        }
        var params: JSONObject = ["seq": .int(Int64(truncatingIfNeeded: seq)), "id": .string(entry.id),
                                  "action": .string(action.id)]
        // The role, so an owner need not track the content in force to know a cancel.
        if let role = action.role { params["role"] = .string(role.rawValue) }
        params["fields"] = .object(fields)
        if let activationToken { params["activationToken"] = .string(activationToken) }
        send(RPCEncoding.notification(method: "action", params: .object(params)), to: owner)
    }

    /// Dismisses `id` for `reason` once its owner allows it (at once when it did not ask
    /// to be asked); `result` gains `dismissed` and, after a question, `confirmation`.
    private func dismissConfirmed(_ id: String, on screen: Screen, reason: DismissReason, action: String?,
                                  result: JSONObject, later: @escaping (JSONValue) -> Void) -> Outcome {
        let finish = { [unowned self] (allow: Bool, how: String) -> JSONValue in
            var r = result
            r["dismissed"] = false
            if allow, (try? screen.stack.dismiss(id: id, reason: reason, action: action, at: self.now)) != nil {
                r["dismissed"] = true
            }
            if how != "none" { r["confirmation"] = .string(how) }
            return .object(r)
        }
        var question: JSONObject = [:]
        if let action { question["action"] = .string(action) }
        guard confirm(id, reason: reason, details: question, then: { allow, how in later(finish(allow, how)) }) else {
            return .result(finish(true, "none"))
        }
        return .deferred
    }

    /// A renderer says which field has focus.
    func focus(_ id: String, field: String?) throws(RPCError) -> JSONValue {
        try stackCall(on: try screen(holdingEntry: id)) { s throws(StackError) in
            try s.focus(id: id, field: field, at: now)
        }
        return [:]
    }

    // MARK: The countdown on the real clock

    /// Arms the wake-up for the next auto-dismiss deadline on the real clock (the manual
    /// clock's time moves only when told, and the stack then dismisses what is due).
    func scheduleNextDeadline(on screen: Screen) {
        guard configuration.clock == .monotonic, !shuttingDown else { return }
        screen.scheduleDeadline(now: now) {
            let timer = try? Timer(loop: loop)
            timer?.onFire = { [unowned self, unowned screen] in
                screen.stack.advance(to: self.now)
                self.publishEvents()
            }
            return timer
        }
    }
}
