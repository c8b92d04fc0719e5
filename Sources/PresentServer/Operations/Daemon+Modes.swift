// Modes and the decisions the daemon can explain: `setMode` (do not disturb, per
// screen), the `mode` notification (topic `modes`), `present {dryRun: true}`
// and `explain`. The core answers (ModalStack+DoNotDisturb, ModalStack+Explain); this
// adds what only the daemon knows: the clock, the screens, owners and the dismiss policy.

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    // MARK: Do not disturb

    /// `request` nil leaves do not disturb as it is, .some(nil) turns it off; the same for
    /// `reducedMotion` (ModalStack+ReducedMotion). Checked whole before either changes.
    func setMode(_ request: ModeRequest??, reducedMotion: Bool?, output: String?) throws(RPCError) -> JSONValue {
        let screen = try screen(output)
        if let request { screen.stack.setDoNotDisturb(try mode(from: request), at: now) }
        if let reducedMotion { screen.stack.setReducedMotion(reducedMotion, at: now) }
        return ["output": .string(screen.name), "doNotDisturb": CoreEncoding.doNotDisturb(screen.stack.doNotDisturb),
                "reducedMotion": .bool(screen.stack.reducedMotion),
                "held": .array(screen.stack.queue.filter(screen.stack.isHeld).map { .string($0.id) })]
    }

    /// The mode a request asks for, on the daemon's clock.
    private func mode(from request: ModeRequest?) throws(RPCError) -> DoNotDisturb? {
        guard let request else { return nil }
        var until = request.until
        if let until, until <= now {
            throw .invalidParams(field: "doNotDisturb.until",
                                 reason: "\(until) has passed: the daemon's time is \(now) (or give duration)")
        }
        if let duration = request.duration { until = now + duration }
        return DoNotDisturb(until: until, allowPriorityAbove: request.allowPriorityAbove)
    }

    // MARK: The state file

    /// A screen's mode as the state file keeps it: setMode's `doNotDisturb`, with the time
    /// left as `duration` (the daemon's clock starts again; the time it was down does not
    /// count). Nil when off.
    func savedMode(of screen: Screen) -> JSONValue? {
        guard let mode = screen.stack.doNotDisturb else { return nil }
        var o: JSONObject = ["allowPriorityAbove": .int(Int64(mode.allowPriorityAbove))]
        if let until = mode.until { o["duration"] = .double(max(0, until - now)) }
        return .object(o)
    }

    /// A saved mode, through the decoder like everything the state file holds.
    func restoredMode(_ saved: JSONValue?) throws -> DoNotDisturb? {
        guard let saved,
            case .setMode(let request?, _, _) = try decoder.decode(method: "setMode", params: ["doNotDisturb": saved])
        else { return nil }
        return try mode(from: request)
    }

    /// The `mode` notification, to the subscribers of `modes`.
    func broadcastMode(_ change: ModeChange, on screen: Screen) {
        broadcast(.modes, method: "mode", on: screen) { CoreEncoding.modeChange(change) }
    }

    /// A `modes` subscriber's snapshot says each screen's mode: main's at the top, each
    /// watched screen's in `outputs`.
    func addModes(to snapshot: inout JSONObject) {
        snapshot["doNotDisturb"] = CoreEncoding.doNotDisturb(main.stack.doNotDisturb)
        snapshot["reducedMotion"] = .bool(main.stack.reducedMotion)
        guard case .array(let outputs)? = snapshot["outputs"] else { return }
        snapshot["outputs"] = .array(outputs.map { o in
            guard var object = o.objectValue, let name = object["name"]?.stringValue,
                  let screen = screens.named(name) else { return o }
            object["doNotDisturb"] = CoreEncoding.doNotDisturb(screen.stack.doNotDisturb)
            object["reducedMotion"] = .bool(screen.stack.reducedMotion)
            return .object(object)
        })
    }

    /// −32006: a droppable presentation that the mode would hold.
    func droppedError(_ hold: HoldReason, on screen: Screen) -> RPCError {
        let mode = screen.stack.doNotDisturb
        let threshold = mode?.allowPriorityAbove ?? DoNotDisturb.defaultAllowPriorityAbove
        var data: JSONObject = ["field": "droppable", "reason": .string(hold.rawValue),
                                "allowPriorityAbove": .int(Int64(threshold))]
        data["until"] = mode?.until.map(JSONValue.double) ?? .null
        return RPCError(code: .refusedByMode,
            message: "do not disturb is on: a droppable presentation at priority \(threshold) or below is refused",
                        data: .object(data))
    }

    // MARK: Dry run

    /// The protocol error for a stack's refusal: the one `stackCall` maps it to.
    func rpcError(for error: StackError, on screen: Screen) -> RPCError {
        do {
            try stackCall(on: screen) { _ throws(StackError) in throw error }
        } catch {
            return error
        }
        return .internalError("\(error) was not refused")   // not reached: the body always throws
    }

    /// What `present` would do now: the same checks in the same order, on a copy.
    func dryRun(_ request: PresentRequest, for client: Client) throws(RPCError) -> JSONValue {
        let screen = try screen(presenting: request)
        var result: JSONObject
        do {
            try checkPresentLimits(for: client)
            var presentation = request.presentation
            presentation.id = presentation.id ?? screens.newEntryID(spend: false)   // the id present would give
            let forecast = screen.stack.forecast(presentation, owner: client.id, at: now)
            result = CoreEncoding.forecast(forecast)
            if let error = forecast.error { result["error"] = rpcError(for: error, on: screen).json }
        } catch {
            result = ["dryRun": true, "outcome": "refused", "level": .string(request.presentation.level.rawValue),
                      "time": .double(now), "error": error.json]
        }
        result["output"] = .string(screen.name)
        return .object(result)
    }

    // MARK: Explain

    func explain(_ id: String, for client: Client) throws(RPCError) -> JSONValue {
        let screen = try screen(holdingEntry: id)
        guard let x = screen.stack.explanation(of: id, at: now), let entry = screen.stack.entry(id: id) else {
            throw Self.notFound(id)
        }
        var o = CoreEncoding.explanation(x)
        o["output"] = .string(screen.name)
        o["doNotDisturb"] = CoreEncoding.doNotDisturb(screen.stack.doNotDisturb)
        var owner: JSONObject = ["client": .int(Int64(truncatingIfNeeded: entry.owner)),
            "connected": .bool(clients[entry.owner] != nil), "you": .bool(entry.owner == client.id)
        ]
        if let name = clients[entry.owner]?.name { owner["name"] = .string(name) }
        o["owner"] = .object(owner)
        o["dismissal"] = dismissal(of: entry, by: client)
        return .object(o)
    }

    /// Who may dismiss the entry, and how the screen may.
    private func dismissal(of entry: Entry, by client: Client) -> JSONValue {
        let policy = configuration.dismissPolicy
        let who: String
        switch policy {
        case .owner: who = "only the connection that presented it (client \(entry.owner))"
        case .user: who = "the connection that presented it, connections of the same uid, and administrators"
        case .anyone: who = "any connection"
        }
        let allowed = (try? authorize([entry], by: client)) != nil
        let p = entry.presentation
        return ["policy": .string(policy.rawValue), "who": .string(who), "youMay": .bool(allowed),
                "onTap": .bool(p.effectiveDismissOnTap), "onSwipe": .bool(p.dismissOnSwipe),
                "onEscape": .bool(p.effectiveDismissOnEscape), "confirmDismiss": .bool(p.confirmDismiss),
                "autoDismiss": p.autoDismiss.map { .double($0.after) } ?? .null]
    }
}
