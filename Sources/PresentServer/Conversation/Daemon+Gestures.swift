// Taps and swipes from the screen, and the owner's veto (`shouldDismiss`). A dismissal
// the entry allows is confirmed with its owner first when it asked for that; the
// gesture's reply waits for the answer or the timeout (then the dismissal is allowed).

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    func tap(at point: Point, on screen: Screen, later: @escaping (JSONValue) -> Void) -> Outcome {
        screen.stack.advance(to: now)
        let hit = screen.stack.hitTest(point, at: now)
        var result: JSONObject = ["part": .string(hit.part.rawValue), "dismissed": false]
        if let id = hit.id {
            result["id"] = .string(id)
            result["role"] = .string(hit.part.rawValue)   // the layer it hit, named as in frames
            if let level = hit.level { result["level"] = .string(level.rawValue) }
        }
        if hit.forwarded { result["forwarded"] = true }
        guard hit.dismisses, let id = hit.id else { return .result(.object(result)) }
        let dismiss = { [unowned self] (allow: Bool, how: String) -> JSONValue in
            var r = result
            if allow, (try? screen.stack.dismiss(id: id, reason: .tap, at: self.now)) != nil {
                r["dismissed"] = true
            }
            if how != "none" { r["confirmation"] = .string(how) }
            return .object(r)
        }
        guard confirm(id, reason: .tap, then: { allow, how in later(dismiss(allow, how)) }) else {
            return .result(dismiss(true, "none"))
        }
        return .deferred
    }

    func swipe(_ phase: SwipePhase, translation: Point, velocity: Point, on screen: Screen,
               later: @escaping (JSONValue) -> Void) -> Outcome {
        let step = screen.stack.swipe(phase, translation: translation, velocity: velocity, at: now)
        var result: JSONObject = ["progress": .double(step.progress), "outcome": .string(step.outcome.rawValue)]
        if let id = step.id { result["id"] = .string(id) }
        if let detent = step.detent { result["detent"] = .string(detent) }   // a sheet settling (`settled`)
        guard step.outcome == .wantsDismiss, let id = step.id else { return .result(.object(result)) }
        let finish = { [unowned self] (allow: Bool, how: String) -> JSONValue in
            var r = result
            if allow { screen.stack.completeSwipe(at: self.now) } else { screen.stack.cancelSwipe(at: self.now) }
            r["outcome"] = .string(allow ? "dismissed" : "cancelled")
            if how != "none" { r["confirmation"] = .string(how) }
            return .object(r)
        }
        guard confirm(id, reason: .swipe, then: { allow, how in later(finish(allow, how)) }) else {
            return .result(finish(true, "none"))
        }
        return .deferred
    }

    /// Asks the owner of `id` whether it may go, if it asked to be asked; `details` join
    /// the question's params (the action, for reason `action`). Returns false when no
    /// question is needed (the caller proceeds at once).
    func confirm(_ id: String, reason: DismissReason, details: JSONObject = [:],
                 then resolve: @escaping (Bool, String) -> Void) -> Bool {
        guard let screen = screens.holding(entry: id), let entry = screen.stack.entry(id: id),
            entry.presentation.confirmDismiss,
              let owner = clients[entry.owner] else {
            return false
        }
        let ownerLabel = owner.label, ownerID = owner.id
        let timedOut = { [unowned self] (question: String) in
            self.log.info("\(ownerLabel) did not answer shouldDismiss for \(id) in time; allowing")
            self.recordTimeout(of: question, askedOf: ownerID)
        }
        guard let questionID = ownerQuestions.ask(ownerID, on: loop, timeout: configuration.shouldDismissTimeout,
                                                  timedOut: timedOut, resolve: resolve) else { return false }
        var params: JSONObject = ["id": .string(id), "reason": .string(reason.rawValue),
                                  "keyboardVisible": .bool(screen.stack.container.keyboardHeight > 0)]
        for (key, value) in details { params[key] = value }
        send(RPCEncoding.request(id: .string(questionID), method: "shouldDismiss", params: .object(params)), to: owner)
        return true
    }

    /// An owner's answer to `shouldDismiss`: `{"allow": bool}`; anything else allows.
    func answerConfirmation(id: RPCID?, result: Result<JSONValue, RPCError>, from client: Client) {
        guard case .string(let questionID)? = id, ownerQuestions.owner(of: questionID) == client.id else {
            return log.debug("\(client.label) sent a response to no question")
        }
        let allow = (try? result.get())?["allow"]?.boolValue ?? true
        ownerQuestions.settle(questionID, allow: allow, how: allow ? "allowed" : "vetoed")
    }
}
