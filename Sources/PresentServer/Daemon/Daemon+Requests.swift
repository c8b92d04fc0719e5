// From a line of bytes to a reply: parse (json-c), decode the JSON-RPC envelope, decode
// the typed request, apply it to the stack, publish what it caused, then reply.
// Every failure becomes a JSON-RPC error; the connection keeps working.

import PresentCore
import PresentJSON
import PresentProtocol

/// What executing a request produced: a result now, or a reply that comes later.
enum Outcome {
    case result(JSONValue)
    /// The request waits (a `shouldDismiss` round trip); `reply` is called exactly once.
    case deferred
}

/// Sends a reply (result or error) for one request; nil for notifications.
typealias Reply = (JSONValue) -> Void

extension Daemon {
    func handleLine(_ line: UnsafeRawBufferPointer, from client: Client) {
        charge(client)
        let message: RPCMessage
        do {
            message = try RPCMessage.parse(line, maxDepth: 64)
        } catch {
            if let reply = error.reply { send(reply, to: client) }
            return
        }
        switch message {
        case .request(let request):
            // By id, not by reference: a deferred reply may come after the client has gone
            // (and a weak reference would put every Client on Swift's slow refcount path,
            // which the frame fan-out pays for).
            let id = client.id
            handle(request, from: client) { [unowned self] reply in
                if let client = self.clients[id] { self.send(reply, to: client) }
            }
        case .batch(let items):
            handleBatch(items, from: client)
        case .response(let id, let result):
            answerConfirmation(id: id, result: result, from: client)
        }
    }

    /// A batch: every request runs in order; the replies go back as one array once the
    /// last of them is known (none at all when the batch held only notifications).
    private func handleBatch(_ items: [JSONValue], from client: Client) {
        guard !items.isEmpty else {
            return send(RPCEncoding.error(id: nil, .invalidRequest("empty batch")), to: client)
        }
        guard items.count <= configuration.maxBatch else {
            return send(RPCEncoding.error(id: nil, .limitExceeded("batch of \(items.count) requests; at most \(configuration.maxBatch)",
                                                                  limit: configuration.maxBatch)), to: client)
        }
        charge(client, requests: items.count - 1)   // the line itself was charged already
        let id = client.id
        let collector = BatchCollector { [unowned self] replies in
            if let client = self.clients[id], !replies.isEmpty { self.send(.array(replies), to: client) }
        }
        for item in items {
            do {
                switch try RPCMessage(decoding: item, allowBatch: false) {
                case .request(let request):
                    if request.id != nil { collector.expect() }
                    handle(request, from: client) { collector.add($0) }
                case .response(let id, let result):
                    answerConfirmation(id: id, result: result, from: client)
                case .batch:
                    break  // not produced when allowBatch is false
                }
            } catch {
                if let reply = error.reply {
                    collector.expect()
                    collector.add(reply)
                }
            }
        }
        collector.seal()
    }

    /// Runs one request; `reply` gets the result or error (never for a notification).
    func handle(_ request: RPCRequest, from client: Client, reply: @escaping Reply) {
        // Notifications run too, but get no reply (JSON-RPC).
        let respond: (Result<JSONValue, RPCError>) -> Void = { outcome in
            guard let id = request.id else { return }
            switch outcome {
            case .success(let result): reply(RPCEncoding.result(id: id, result))
            case .failure(let error): reply(RPCEncoding.error(id: id, error))
            }
        }
        do {
            let typed = try decoder.decode(method: request.method, params: request.params)
            let outcome = try execute(typed, for: client) { [unowned self] result in
                self.publishEvents()
                respond(.success(result))
            }
            publishEvents()
            if case .result(let result) = outcome {
                rememberPresentation(typed, params: request.params, result: result)
                respond(.success(result))
            }
        } catch {
            publishEvents()
            respond(.failure(error))
        }
    }

    /// Applies a request. `later` delivers a deferred result.
    func execute(_ request: Request, for client: Client, later: @escaping (JSONValue) -> Void) throws(RPCError) -> Outcome {
        switch request {
        case .hello(let name, _, let resume):
            return .result(hello(client, name: name, resume: resume))
        case .ping:
            return .result([:])
        case .present(let present):
            return .result(try self.present(present, for: client))
        case .dismiss(let id, let animated, let override):
            return .result(try dismiss(id, animated: animated, override: override, for: client))
        case .dismissAll(let animated):
            try authorize(stack.allEntries, by: client)
            let ids = stack.dismissAll(animated: animated, reason: .request, at: now)
            visualsDirty = true
            return .result(["dismissed": .array(ids.map { .string($0) })])
        case .stack:
            stack.advance(to: now)
            return .result(["entries": CoreEncoding.entries(of: stack), "contexts": CoreEncoding.contexts(of: stack)])
        case .subscribe(let topics):
            // Catch up and publish first: what that causes is in the snapshot, and its
            // events carry numbers up to the `seq` the reply returns.
            stack.advance(to: now)
            publishEvents()
            client.topics.formUnion(topics)
            return .result(subscribeResult())
        case .unsubscribe(let topics):
            client.topics.subtract(topics)
            return .result([:])
        case .setContainer(let change):
            stack.setContainer(change.applied(to: stack.container), duration: change.duration, at: now)
            visualsDirty = true
            return .result(["container": CoreEncoding.container(stack.container)])
        case .keyboard(let height, let duration, let curve):
            stack.setKeyboard(height: height, duration: duration, curve: curve, at: now)
            visualsDirty = true
            return .result([:])
        case .tap(let point):
            try admitDeferrable(for: client)
            return counted(tap(at: point, later: countedReply(for: client, later)), for: client)
        case .swipe(let phase, let translation, let velocity):
            try admitDeferrable(for: client)
            return counted(swipe(phase, translation: translation, velocity: velocity,
                                 later: countedReply(for: client, later)), for: client)
        case .advance(let seconds):
            guard configuration.clock == .manual else {
                throw .wrongClockMode("advance needs the manual clock (presentd --clock manual)")
            }
            advanceManualClock(by: seconds)
            return .result(["time": .double(manualTime)])
        case .sync(let nonce):
            return .result(["nonce": nonce])
        case .update(let id, let change):
            return .result(try update(id, change, for: client))
        case .activate(let id, let action, let fields):
            try admitDeferrable(for: client)
            return counted(try activate(id, action: action, fields: fields, later: countedReply(for: client, later)), for: client)
        case .key(let key, let id, let fields):
            try admitDeferrable(for: client)
            return counted(try self.key(key, for: id, fields: fields, later: countedReply(for: client, later)), for: client)
        case .focus(let id, let field):
            return .result(try focus(id, field: field))
        case .defineContext(let name, let frame, let duration):
            stack.defineContext(name, frame: frame, duration: duration, at: now)
            visualsDirty = true
            return .result(["contexts": CoreEncoding.contexts(of: stack)])
        case .removeContext(let name):
            let ids = try stackCall { s throws(StackError) in try s.removeContext(name, at: now) }
            visualsDirty = true
            return .result(["dismissed": .array(ids.map { .string($0) })])
        }
    }

    // MARK: Replies that wait

    /// Refuses a gesture when the client already has the maximum of replies waiting for
    /// an owner's `shouldDismiss` answer: nothing a client sends can pile up unbounded.
    private func admitDeferrable(for client: Client) throws(RPCError) {
        guard client.deferredReplies < configuration.maxDeferredReplies else {
            throw .limitExceeded("\(client.deferredReplies) gestures are already waiting for an owner's answer",
                                 limit: configuration.maxDeferredReplies)
        }
    }

    private func counted(_ outcome: Outcome, for client: Client) -> Outcome {
        if case .deferred = outcome { client.deferredReplies += 1 }
        return outcome
    }

    private func countedReply(for client: Client, _ later: @escaping (JSONValue) -> Void) -> (JSONValue) -> Void {
        let id = client.id
        return { [unowned self] result in
            self.clients[id]?.deferredReplies -= 1
            later(result)
        }
    }

    /// Runs a throwing stack operation, mapping its errors to protocol errors.
    func stackCall<T>(_ body: (inout ModalStack) throws(StackError) -> T) throws(RPCError) -> T {
        do {
            return try body(&stack)
        } catch {
            switch error {
            case .notFound(let id):
                throw RPCError(code: .notFound, message: "no presentation with id \"\(id)\"",
                               data: ["field": "id", "reason": "not on the stack or in the queue"])
            case .duplicateID(let id):
                throw RPCError.invalidParams(field: "id", reason: "\"\(id)\" is already on the stack or queued")
            case .unknownAction(let id, let action):
                let known = stack.entry(id: id)?.effectiveContent?.actions.map { "\"\($0.id)\"" } ?? []
                throw RPCError.invalidParams(field: "action", reason: "\"\(id)\" has no action \"\(action)\"; "
                                             + (known.isEmpty ? "it has no actions" : "its actions: \(known.joined(separator: ", "))"))
            case .unknownField(let id, let field):
                throw RPCError.invalidParams(field: "field", reason: "\"\(id)\" has no field \"\(field)\"")
            case .unknownContext(let name):
                let known = stack.contexts.keys.sorted().map { "\"\($0)\"" }
                throw RPCError.invalidParams(field: "context", reason: "no presentation context \"\(name)\"; "
                                             + (known.isEmpty ? "the shell has defined none (defineContext)" : "defined: \(known.joined(separator: ", "))"))
            case .notShown(let id, let state):
                throw RPCError.invalidParams(field: "id", reason: "\"\(id)\" is \(state.rawValue), not on screen to be answered")
            }
        }
    }

    private func dismiss(_ id: String, animated: Bool, override: TransitionOverride?, for client: Client) throws(RPCError) -> JSONValue {
        try authorizeDismiss(of: id, by: client)
        let transition = stack.dismissTransition(for: id, override: override)
        let ids = try stackCall { s throws(StackError) in
            try s.dismiss(id: id, animated: animated, transition: transition, reason: .request, at: now) }
        visualsDirty = true
        return ["dismissed": .array(ids.map { .string($0) })]
    }

    private func present(_ request: PresentRequest, for client: Client) throws(RPCError) -> JSONValue {
        let everyone = stack.allEntries.count
        let mine = stack.allEntries.filter { $0.owner == client.id }.count
        guard everyone < configuration.maxEntries else {
            throw .limitExceeded("the stack holds \(everyone) presentations; at most \(configuration.maxEntries)",
                                 limit: configuration.maxEntries)
        }
        guard mine < configuration.maxEntriesPerClient else {
            throw .limitExceeded("this connection has \(mine) presentations; at most \(configuration.maxEntriesPerClient)",
                                 limit: configuration.maxEntriesPerClient)
        }
        let outcome = try stackCall { s throws(StackError) in try s.present(request.presentation, owner: client.id, at: now) }
        if !outcome.deduplicated && request.confirmDismiss { confirmDismiss.insert(outcome.id) }
        visualsDirty = true
        var result: JSONObject = ["id": .string(outcome.id), "state": .string(outcome.state.rawValue)]
        result["deduplicated"] = .bool(outcome.deduplicated)
        return .object(result)
    }

    func helloResult() -> JSONValue {
        ["server": "presentd", "version": .string(presentdVersion), "protocol": .int(Int64(ProtocolLimits.protocolVersion)),
         "clock": .string(configuration.clock.rawValue), "time": .double(now), "fps": .int(Int64(configuration.fps)),
         "limits": [
            "maxLineBytes": .int(Int64(configuration.maxLineBytes)),
            "maxConnections": .int(Int64(configuration.maxConnections)),
            "maxConnectionsPerUid": .int(Int64(configuration.maxConnectionsPerUID)),
            "maxEntries": .int(Int64(configuration.maxEntries)),
            "maxEntriesPerClient": .int(Int64(configuration.maxEntriesPerClient)),
            "maxBatch": .int(Int64(configuration.maxBatch)),
            "maxDeferredReplies": .int(Int64(configuration.maxDeferredReplies)),
            "maxQueuedBytes": .int(Int64(configuration.maxQueuedBytes)),
            "maxDuration": .double(configuration.limits.maxDuration),
            "maxNameLength": .int(Int64(configuration.limits.maxNameLength)),
            "shouldDismissTimeout": .double(configuration.shouldDismissTimeout),
            "resumeGrace": .double(configuration.resumeGrace),
         ],
         "container": CoreEncoding.container(stack.container)]
    }

    /// The full state a new subscriber starts from, and the event sequence it is at.
    private func subscribeResult() -> JSONValue {
        let scene = stack.scene(at: now)
        return ["seq": .int(Int64(truncatingIfNeeded: eventSeq)),
                "snapshot": ["time": .double(scene.time), "container": CoreEncoding.container(stack.container),
                             "entries": CoreEncoding.entries(of: stack),
                             "contexts": CoreEncoding.contexts(of: stack),
                             "statusBar": CoreEncoding.statusBar(stack.statusBar),
                             "layers": .array(scene.layers.map(CoreEncoding.layer)),
                             "animating": .bool(scene.isAnimating)]]
    }

    // MARK: Writing

    func send(_ message: JSONValue, to client: Client) {
        client.connection.send(message.serializedLine())
    }
}

/// Collects a batch's replies, some of which may arrive later, and hands them over once.
final class BatchCollector {
    private var replies: [JSONValue] = []
    private var outstanding = 0
    private var sealed = false
    private let done: ([JSONValue]) -> Void

    init(done: @escaping ([JSONValue]) -> Void) { self.done = done }

    func expect() { outstanding += 1 }
    func add(_ reply: JSONValue) {
        replies.append(reply)
        outstanding -= 1
        finishIfComplete()
    }
    /// Every request of the batch has been started.
    func seal() {
        sealed = true
        finishIfComplete()
    }
    private func finishIfComplete() {
        guard sealed, outstanding == 0 else { return }
        sealed = false
        done(replies)
    }
}

public let presentdVersion = "0.1.0"
