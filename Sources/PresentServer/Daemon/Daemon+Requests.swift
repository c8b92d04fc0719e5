// From a line of bytes to a reply: parse, decode the JSON-RPC envelope, look the method
// up (once: its spec says who may call it and what params it takes), decode the typed
// request, apply it to the stack, publish what it caused, then reply — written straight
// into the bytes the connection sends. Every failure becomes a JSON-RPC error; the
// connection keeps working.

import PresentCore
import PresentJSON
import PresentProtocol

/// What executing a request produced: a result now, or a reply that comes later.
enum Outcome {
    case result(JSONValue)
    /// The request waits (a `shouldDismiss` round trip); its `PendingReply` is answered
    /// exactly once.
    case deferred
}

/// Where a request's reply goes.
enum ReplyRoute {
    /// Back to the connection that sent it, by id, not by reference: a deferred reply may
    /// come after the client has gone (and a weak reference would put every Client on
    /// Swift's slow refcount path, which the frame fan-out pays for).
    case connection(UInt64)
    /// Into the collector of the batch it came in.
    case batch(BatchCollector)
}

/// The reply a request is owed: a value, so that a request answered at once — nearly all
/// of them — makes no closure.
struct PendingReply {
    /// nil for a notification, which is never answered.
    let id: RPCID?
    let route: ReplyRoute
}

extension Daemon {
    func handleLine(_ line: UnsafeRawBufferPointer, from client: Client) {
        charge(client)
        let message: RPCMessage
        do {
            message = try RPCMessage.parse(line, maxDepth: 64)
        } catch {
            recordInvalidLine(line, from: client)
            if let answer = error.answer { send(answer, to: client) }
            return
        }
        recordLine(line, from: client)
        switch message {
        case .request(let request):
            handle(request, from: client, replying: PendingReply(id: request.id, route: .connection(client.id)))
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
            return send(RPCReply(id: nil, .failure(.invalidRequest("empty batch"))), to: client)
        }
        guard items.count <= configuration.maxBatch else {
            let error = RPCError.limitExceeded("batch of \(items.count) requests; at most \(configuration.maxBatch)",
                                               limit: configuration.maxBatch)
            return send(RPCReply(id: nil, .failure(error)), to: client)
        }
        charge(client, requests: items.count - 1)   // the line itself was charged already
        let id = client.id
        let collector = BatchCollector { [unowned self] replies in
            if let client = self.clients[id], !replies.isEmpty { self.send(batch: replies, to: client) }
        }
        for item in items {
            do {
                switch try RPCMessage(decoding: item, allowBatch: false) {
                case .request(let request):
                    if request.id != nil { collector.expect() }
                    handle(request, from: client, replying: PendingReply(id: request.id, route: .batch(collector)))
                case .response(let id, let result):
                    answerConfirmation(id: id, result: result, from: client)
                case .batch:
                    break  // not produced when allowBatch is false
                }
            } catch {
                if let answer = error.answer {
                    collector.expect()
                    collector.add(answer)
                }
            }
        }
        collector.seal()
    }

    /// Runs one request; `pending` gets the result or error (never for a notification).
    func handle(_ request: RPCRequest, from client: Client, replying pending: PendingReply) {
        let spec = MethodTable.spec(request.method)
        counters.count(spec)
        do throws(RPCError) {
            // Notifications run too, but get no reply (JSON-RPC).
            guard let spec else { throw RequestDecoder.unknownMethod(request.method) }
            try authorize(spec, for: client)
            let typed = try decoder.decode(spec, params: request.params)
            try authorizeTopics(of: typed, for: client)
            let outcome = try execute(typed, for: client, later: pending)
            publishEvents()
            if case .result(let result) = outcome {
                rememberPresentation(typed, params: request.params, result: result)
                deliver(.success(result), to: pending)
            }
        } catch {
            publishEvents()
            deliver(.failure(error), to: pending)
        }
    }

    /// Sends `outcome` where `pending` says (nothing for a notification, or once the
    /// connection has gone).
    func deliver(_ outcome: Result<JSONValue, RPCError>, to pending: PendingReply) {
        guard let id = pending.id else { return }
        switch pending.route {
        case .connection(let clientID):
            if let client = clients[clientID] { send(id: id, outcome, to: client) }
        case .batch(let collector):
            collector.add(RPCReply(id: id, outcome))
        }
    }

    /// Applies a request. `later` is the reply a deferred result goes to.
    ///
    /// Every case is one call: the switch is on the path of every request, ping included,
    /// and a case body inlined here would add its locals to the one frame all of them share
    /// (docs/BENCHMARKS.md, idle private memory). The cases' own functions are below or where their
    /// subject lives.
    func execute(_ request: Request, for client: Client, later: PendingReply) throws(RPCError) -> Outcome {
        switch request {
        case .hello(let name, _, let resume):
            return .result(hello(client, name: name, resume: resume))
        case .ping:
            return .result([:])
        case .present(let present):
            return .result(try self.present(present, for: client))
        case .dismiss(let id, let animated, let override):
            return .result(try dismiss(id, animated: animated, override: override, for: client))
        case .dismissAll(let animated, let output):
            return .result(try dismissAll(animated: animated, output: output, for: client))
        case .stack(let output):
            return .result(try stackListing(ofOutput: output))
        case .subscribe(let topics, let outputs):
            return .result(subscribe(client, to: topics, outputs: outputs))
        case .unsubscribe(let topics):
            broadcaster.unsubscribe(client, from: topics)
            return .result([:])
        case .setContainer(let change, let output):
            return .result(try setContainer(change, output: output))
        case .keyboard(let height, let duration, let curve, let output):
            return .result(try setKeyboard(height: height, duration: duration, curve: curve, output: output))
        case .tap(let point, let output):
            return try tap(at: point, output: output, for: client, later: later)
        case .swipe(let phase, let translation, let velocity, let output):
            return try swipe(
                phase, translation: translation, velocity: velocity, output: output, for: client, later: later)
        case .advance(let seconds):
            return .result(try advance(by: seconds))
        case .sync(let nonce):
            return .result(["nonce": nonce])
        case .update(let id, let change):
            return .result(try update(id, change, for: client))
        case .activate(let id, let action, let fields, let activationToken):
            try admitDeferrable(for: client)
            return counted(try activate(id, action: action, fields: fields, activationToken: activationToken,
                                        later: countedReply(for: client, later)), for: client)
        case .key(let key, let id, let fields, let output):
            return try self.key(key, for: id, fields: fields, output: output, from: client, later: later)
        case .focus(let id, let field):
            return .result(try focus(id, field: field))
        case .presented(let frames, let discarded, let output):
            return .result(try presented(frames, discarded: discarded, output: output, from: client))
        case .defineContext(let name, let frame, let duration, let output):
            return .result(try defineContext(name, frame: frame, duration: duration, output: output))
        case .removeContext(let name):
            return .result(try removeContext(name))
        case .addOutput(let definition):
            return .result(try addOutput(definition))
        case .removeOutput(let name):
            return .result(try removeOutput(name))
        case .outputs:
            return .result(["outputs": outputList()])
        case .discover:
            return .result(OpenRPC.document(version: presentdVersion))
        case .stats:
            return .result(stats())
        case .setMode(let mode, let reducedMotion, let output):
            return .result(try setMode(mode, reducedMotion: reducedMotion, output: output))   // Daemon+Modes
        case .explain(let id):
            return .result(try explain(id, for: client))
        case .recordDump(let path):
            return .result(try recordDump(path: path, for: client))
        }
    }

    // MARK: The requests execute applies

    // Each is kept out of line (`@inline(never)`): called once, the optimizer would inline
    // it into `execute`, and its locals (copies of a request, a stack, an entry) would join
    // the frame that every request, ping included, sets up.

    @inline(never)
    private func present(_ request: PresentRequest, for client: Client) throws(RPCError) -> JSONValue {
        let (allowed, clampedTo) = withinCeiling(request, for: client)
        if request.dryRun { return Self.noting(clampedTo, in: try dryRun(allowed, for: client)) }   // Daemon+Modes
        return Self.noting(clampedTo, in: try present(allowed, by: client))
    }

    @inline(never)
    private func dismissAll(animated: Bool, output: String?, for client: Client) throws(RPCError) -> JSONValue {
        let targets = try output.map { name throws(RPCError) in [try screen(name)] } ?? Array(screens)
        try authorize(targets.flatMap(\.stack.allEntries), by: client)
        var ids: [String] = []
        for screen in targets {
            ids += screen.stack.dismissAll(animated: animated, reason: .request, at: now)
        }
        return ["dismissed": .array(ids.map { .string($0) })]
    }

    @inline(never)
    private func stackListing(ofOutput output: String?) throws(RPCError) -> JSONValue {
        let screen = try screen(output)
        screen.stack.advance(to: now)
        return stackListing(of: screen)
    }

    @inline(never)
    private func subscribe(_ client: Client, to topics: [Topic], outputs: [String]?) -> JSONValue {
        // Catch up and publish first: what that causes is in the snapshot, and its
        // events carry numbers up to the `seq` the reply returns.
        for screen in screens { screen.stack.advance(to: now) }
        publishEvents()
        broadcaster.subscribe(client, to: topics, outputs: outputs.map(Set.init))
        return subscribeResult(for: client)
    }

    @inline(never)
    private func setContainer(_ change: ContainerChange, output: String?) throws(RPCError) -> JSONValue {
        let screen = try screen(output)
        screen.stack.setContainer(change.applied(to: screen.stack.container), duration: change.duration, at: now)
        return ["container": CoreEncoding.container(screen.stack.container)]
    }

    @inline(never)
    private func setKeyboard(height: Double, duration: Double?, curve: TimingCurve?,
                             output: String?) throws(RPCError) -> JSONValue {
        let screen = try screen(output)
        screen.stack.setKeyboard(height: height, duration: duration, curve: curve, at: now)
        return [:]
    }

    @inline(never)
    private func tap(at point: Point, output: String?, for client: Client,
                     later: PendingReply) throws(RPCError) -> Outcome {
        let screen = try screen(output)
        try admitDeferrable(for: client)
        return counted(tap(at: point, on: screen, later: countedReply(for: client, later)), for: client)
    }

    @inline(never)
    private func swipe(_ phase: SwipePhase, translation: Point, velocity: Point, output: String?,
                       for client: Client, later: PendingReply) throws(RPCError) -> Outcome {
        let screen = try screen(output)
        try admitDeferrable(for: client)
        return counted(swipe(phase, translation: translation, velocity: velocity, on: screen,
                             later: countedReply(for: client, later)), for: client)
    }

    @inline(never)
    private func advance(by seconds: Double) throws(RPCError) -> JSONValue {
        guard configuration.clock == .manual else {
            throw .wrongClockMode("advance needs the manual clock (presentd --clock manual)")
        }
        advanceManualClock(by: seconds)
        return ["time": .double(manualClock.time)]
    }

    @inline(never)
    private func key(_ key: Key, for id: String?, fields: [String: String], output: String?,
                     from client: Client, later: PendingReply) throws(RPCError) -> Outcome {
        let screen = try output.map { name throws(RPCError) in try self.screen(name) }
            ?? id.flatMap { screens.holding(entry: $0) } ?? main
        try admitDeferrable(for: client)
        return counted(
            try self.key(key, for: id, on: screen, fields: fields, later: countedReply(for: client, later)), for: client
        )
    }

    @inline(never)
    private func presented(_ frames: [ShownFrame], discarded: Int, output: String?,
                           from client: Client) throws(RPCError) -> JSONValue {
        let screen = try screen(output)
        screen.keepMotionHistory()
        let pixels = screen.stack.container.scale
        client.reportShown(frames, discarded: discarded, on: screen.name) { f in
            screen.motionHistory.drawingError(drawnFor: f.time, drawnAt: f.drawnAt, shownAt: f.shownAt).map {
                $0 * pixels
            }
        }
        return [:]
    }

    @inline(never)
    private func defineContext(_ name: String, frame: Rect, duration: Double?,
                               output: String?) throws(RPCError) -> JSONValue {
        let screen = try screen(output)
        try checkContextName(name, for: screen)
        screen.stack.defineContext(name, frame: frame, duration: duration, at: now)
        return ["contexts": CoreEncoding.contexts(of: screen.stack)]
    }

    @inline(never)
    private func removeContext(_ name: String) throws(RPCError) -> JSONValue {
        let screen = try screen(holdingContext: name)
        let ids = try stackCall(on: screen) { s throws(StackError) in try s.removeContext(name, at: now) }
        return ["dismissed": .array(ids.map { .string($0) })]
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
        if case .deferred = outcome { client.deferReply() }
        return outcome
    }

    /// What a deferring request calls with its result, once: what that answer caused is
    /// published, then the reply goes out.
    private func countedReply(for client: Client, _ later: PendingReply) -> (JSONValue) -> Void {
        let id = client.id
        return { [unowned self] result in
            self.clients[id]?.replyDelivered()
            self.publishEvents()
            self.deliver(.success(result), to: later)
        }
    }

    /// Runs a throwing operation on `screen`'s stack, mapping its errors to protocol errors.
    func stackCall<T>(on screen: Screen, _ body: (inout ModalStack) throws(StackError) -> T) throws(RPCError) -> T {
        do {
            return try body(&screen.stack)
        } catch {
            throw protocolError(for: error, on: screen)
        }
    }

    /// The protocol error for a stack's refusal: what the client named, and what there is
    /// instead. A function of its own, not part of `stackCall`: every specialisation of
    /// `stackCall` is inlined where it is called, and the copies of the stack and its
    /// entries made here would join those frames.
    private func protocolError(for error: StackError, on screen: Screen) -> RPCError {
        let stack = screen.stack
        switch error {
        case .notFound(let id):
            return Self.notFound(id)
        case .duplicateID(let id):
            return RPCError.invalidParams(field: "id", reason: "\"\(id)\" is already on the stack or queued")
        case .unknownAction(let id, let action):
            let known = stack.entry(id: id)?.effectiveContent?.actions.map { "\"\($0.id)\"" } ?? []
            return RPCError.invalidParams(field: "action", reason: "\"\(id)\" has no action \"\(action)\"; "
                    + (known.isEmpty ? "it has no actions" : "its actions: \(known.joined(separator: ", "))"))
        case .unknownDetent(let id, let detent):
            let known = stack.entry(id: id)?.presentation.style.sheet?.detents.map { "\"\($0.id)\"" } ?? []
            return RPCError.invalidParams(field: "selectedDetent", reason: known.isEmpty ? "\"\(id)\" is not a sheet"
                    : "\"\(id)\" has no detent \"\(detent)\"; its detents: \(known.joined(separator: ", "))")
        case .unknownField(let id, let field):
            return RPCError.invalidParams(field: "field", reason: "\"\(id)\" has no field \"\(field)\"")
        case .unknownContext(let name):
            let known = stack.contexts.keys.sorted().map { "\"\($0)\"" }
            return RPCError.invalidParams(field: "context", reason: "no presentation context \"\(name)\"; "
                    + (known.isEmpty
                        ? "the shell has defined none (defineContext)" : "defined: \(known.joined(separator: ", "))"))
        case .notShown(let id, let state):
            return RPCError.invalidParams(
                field: "id", reason: "\"\(id)\" is \(state.rawValue), not on screen to be answered")
        case .dropped(let hold):
            return droppedError(hold, on: screen)   // Daemon+Modes
        }
    }

    /// −32004 for an id no screen holds.
    static func notFound(_ id: String) -> RPCError {
        RPCError(code: .notFound, message: "no presentation with id \"\(id)\"",
                 data: ["field": "id", "reason": "not on the stack or in the queue"])
    }

    private func dismiss(_ id: String, animated: Bool, override: TransitionOverride?,
                         for client: Client) throws(RPCError) -> JSONValue {
        let screen = try screen(holdingEntry: id)
        try authorizeDismiss(of: id, on: screen, by: client)
        let transition = screen.stack.dismissTransition(for: id, override: override)
        let ids = try stackCall(on: screen) { s throws(StackError) in
            try s.dismiss(id: id, animated: animated, transition: transition, reason: .request, at: now) }
        return ["dismissed": .array(ids.map { .string($0) })]
    }

    private func present(_ request: PresentRequest, by client: Client) throws(RPCError) -> JSONValue {
        let screen = try screen(presenting: request)
        try checkPresentLimits(for: client)
        var presentation = request.presentation
        presentation.id = presentation.id ?? screens.newEntryID()   // the daemon's name, not the screen's
        let outcome = try stackCall(on: screen) { s throws(StackError) in
            try s.present(presentation, owner: client.id, at: now)
        }
        var result: JSONObject = ["id": .string(outcome.id), "state": .string(outcome.state.rawValue)]
        result["deduplicated"] = .bool(outcome.deduplicated)
        return .object(result)
    }

    // MARK: Writing

    func send(_ message: JSONValue, to client: Client) {
        client.connection.send(message.serializedLine())
    }

    /// A reply, written straight into the bytes the connection sends.
    func send(_ reply: RPCReply, to client: Client) {
        send(id: reply.id, reply.outcome, to: client)
    }

    /// The reply to the request `id`, written straight into the bytes the connection sends.
    func send(id: RPCID?, _ outcome: Result<JSONValue, RPCError>, to client: Client) {
        client.connection.send { bytes in
            JSONWriter.appending(to: &bytes) { writer in
                RPCReply.write(id: id, outcome, to: &writer)
                writer.endLine()
            }
        }
    }

    /// A batch's replies, as one array on one line.
    func send(batch replies: [RPCReply], to client: Client) {
        client.connection.send { bytes in
            JSONWriter.appending(to: &bytes) { writer in
                writer.beginArray()
                for reply in replies { writer.element { reply.write(to: &$0) } }
                writer.endArray()
                writer.endLine()
            }
        }
    }
}
