// The protocol layer under fuzzing: one input is a little session — its lines, in order,
// go through what the daemon does with a line (JSON parse, JSON-RPC envelope, typed
// request) and the requests that decode are applied to one ModalStack. After every step
// the properties below must hold; a broken one stops the process (libFuzzer keeps the
// input as a crash).
//
// Properties:
// - nothing traps (parse, decode, stack, encoding);
// - the parser and json-c (JSONValue.parseWithJSONC, its reference) give the same value or
//   the same error;
// - a parsed value serialises to text that parses back to the same value;
// - every error reply is one of the documented codes, serialises to valid JSON, and
//   -32602 names its field;
// - the stack keeps its invariants, and everything the daemon would send about it
//   (lifecycle, stack, frames) holds finite numbers only.

import PresentCore
import PresentJSON
import PresentProtocol

/// One fuzz input played against a fresh stack.
struct ProtocolFuzzSession {
    /// What the daemon passes to `RPCMessage.parse` (Daemon.handleLine).
    static let maxDepth = 64
    /// Lines beyond this are ignored: long inputs would only slow the fuzzer down.
    static let maxLines = 64
    /// As ServerConfiguration.maxEntries: presents beyond it are refused by the daemon.
    static let maxEntries = 256
    static let documentedCodes: Set<Int> = [-32700, -32600, -32601, -32602, -32001, -32002, -32003, -32004]

    private var stack = ModalStack()
    private var time = 0.0
    private let decoder = RequestDecoder()
    /// Requests from alternating owners, so ownership and `ownerGone` are exercised.
    private var owner: OwnerID = 1
    /// What the lines did: "ok present", "-32602 transition.duration", … (the replayer's -v).
    private(set) var outcomes: [String] = []

    /// Plays every line of `input` (split at `\n`, one trailing `\r` stripped).
    @discardableResult
    static func run(_ input: UnsafeRawBufferPointer) -> ProtocolFuzzSession {
        var session = ProtocolFuzzSession()
        var start = 0, lines = 0
        while start <= input.count, lines < maxLines {
            let end = input[start...].firstIndex(of: UInt8(ascii: "\n")) ?? input.count
            var stop = end
            if stop > start, input[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
            session.line(UnsafeRawBufferPointer(rebasing: input[start..<stop]))
            start = end + 1
            lines += 1
        }
        return session
    }

    // MARK: One line

    private mutating func line(_ bytes: UnsafeRawBufferPointer) {
        time += 1.0 / 60
        owner = owner == 1 ? 2 : 1
        if bytes.isEmpty {
            // An empty line stands for "a client hung up": its entries leave with ownerGone.
            _ = stack.removeAll(ownedBy: owner, at: time)
            outcomes.append("owner \(owner) left")
            return checkStack("after owner \(owner) left")
        }
        if let value = checkParsersAgree(bytes) { checkRoundTrip(value) }
        let message: RPCMessage
        do {
            message = try RPCMessage.parse(bytes, maxDepth: Self.maxDepth)
        } catch {
            if let reply = error.reply { checkErrorReply(reply, error.error) }
            return
        }
        switch message {
        case .request(let request):
            handle(request)
        case .batch(let items):
            for item in items {
                do {
                    if case .request(let request) = try RPCMessage(decoding: item, allowBatch: false) {
                        handle(request)
                    }
                } catch {
                    if let reply = error.reply { checkErrorReply(reply, error.error) }
                }
            }
        case .response:
            break
        }
    }

    private mutating func handle(_ request: RPCRequest) {
        do {
            let typed = try decoder.decode(method: request.method, params: request.params)
            try apply(typed)
            outcomes.append("ok \(request.method)")
        } catch {
            checkErrorReply(RPCEncoding.error(id: request.id, error), error)
        }
        checkStack("after \(request.method)")
    }

    /// What the daemon does to the stack for each request (Daemon.execute), minus I/O.
    private mutating func apply(_ request: Request) throws(RPCError) {
        do {
            switch request {
            case .present(let present) where present.dryRun:
                _ = stack.forecast(present.presentation, owner: owner, at: time)
            case .present(let present):
                guard stack.allEntries.count < Self.maxEntries else { return }
                _ = try stack.present(present.presentation, owner: owner, at: time)
            case .dismiss(let id, let animated, let override):
                let transition = stack.dismissTransition(for: id, override: override)
                _ = try stack.dismiss(id: id, animated: animated, transition: transition, at: time)
            case .dismissAll(let animated, _):
                _ = stack.dismissAll(animated: animated, at: time)
            case .setContainer(let change, _):
                stack.setContainer(change.applied(to: stack.container), duration: change.duration, at: time)
            case .keyboard(let height, let duration, let curve, _):
                stack.setKeyboard(height: height, duration: duration, curve: curve, at: time)
            case .tap(let point, _):
                let hit = stack.hitTest(point, at: time)
                if hit.dismisses, let id = hit.id { _ = try stack.dismiss(id: id, reason: .tap, at: time) }
            case .swipe(let phase, let translation, let velocity, _):
                let step = stack.swipe(phase, translation: translation, velocity: velocity, at: time)
                if step.outcome == .wantsDismiss {
                    // Alternate the owner's answer to shouldDismiss.
                    if owner == 1 { stack.completeSwipe(at: time) } else { stack.cancelSwipe(at: time) }
                }
            case .advance(let seconds):
                time += seconds
                stack.advance(to: time)
            case .update(let id, let change):
                try stack.update(id: id, change, at: time)
            case .activate(let id, let action, _, _):
                if try stack.activation(id: id, action: action, at: time).dismisses {
                    _ = try stack.dismiss(id: id, reason: .action, action: action, at: time)
                }
            case .key(let key, _, _, _):
                switch stack.resolve(key, at: time) {
                case .activate(let id, let action) where action.dismisses:
                    _ = try stack.dismiss(id: id, reason: .action, action: action.id, at: time)
                case .dismiss(let id):
                    _ = try stack.dismiss(id: id, reason: .key, at: time)
                case .activate, .unhandled:
                    break
                }
            case .focus(let id, let field):
                try stack.focus(id: id, field: field, at: time)
            case .defineContext(let name, let frame, let duration, _):
                stack.defineContext(name, frame: frame, duration: duration, at: time)
            case .removeContext(let name):
                try stack.removeContext(name, at: time)
            case .setMode(let mode, let reducedMotion, _):
                if let mode {
                    stack.setDoNotDisturb(mode.map { DoNotDisturb(until: $0.until ?? $0.duration.map { time + $0 },
                                allowPriorityAbove: $0.allowPriorityAbove)
                        }, at: time)
                }
                if let reducedMotion { stack.setReducedMotion(reducedMotion, at: time) }
            case .explain(let id):
                _ = stack.explanation(of: id, at: time)
            default:
                // The methods that leave one screen's stack alone (a new method is one, until
                // its case above says what it does to the stack); the daemon's routing between
                // screens is not the core's either.
                stack.advance(to: time)
            }
        } catch {
            // The daemon maps these to -32001 / -32602 (Daemon.stackCall); only the shape matters here.
            throw RPCError.notFound("\(error)")
        }
    }

    // MARK: Properties

    /// The line's value, after checking that the parser and json-c, its reference, agree on
    /// it: the same value (zero's sign and integer-or-double included) or the same error.
    private func checkParsersAgree(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        let ours = Result { () throws(JSONParseError) in try JSONValue.parse(bytes, maxDepth: Self.maxDepth) }
        let reference = Result { () throws(JSONParseError) in
            try JSONValue.parseWithJSONC(bytes, maxDepth: Self.maxDepth)
        }
        switch (ours, reference) {
        case (.success(let a), .success(let b)) where a == b && a.serialized() == b.serialized():
            return a
        case (.failure(let a), .failure(let b)) where a == b:
            return nil
        default:
            fail("the parser and json-c disagree: \(ours) vs \(reference)")
        }
    }

    private func checkRoundTrip(_ value: JSONValue) {
        let text = value.serialized()
        guard let again = try? JSONValue.parse(text, maxDepth: Self.maxDepth) else {
            fail("serialised text does not parse: \(String(decoding: text, as: UTF8.self))")
        }
        require(again == value, "round trip changed the value: \(value) → \(again)")
    }

    private mutating func checkErrorReply(_ reply: JSONValue, _ error: RPCError) {
        outcomes.append("\(error.code.rawValue) \(error.data?["field"]?.stringValue ?? error.message)")
        require(
            Self.documentedCodes.contains(error.code.rawValue),
            "undocumented error code \(error.code.rawValue): \(error)")
        if error.code == .invalidParams {
            require(error.data?["field"]?.stringValue?.isEmpty == false, "-32602 without a field: \(error)")
        }
        let line = reply.serializedLine()
        require(line.last == UInt8(ascii: "\n") && !line.dropLast().contains(UInt8(ascii: "\n")),
                "an error reply is not exactly one line")
        require((try? JSONValue.parse(Array(line.dropLast()))) != nil, "an error reply is not valid JSON: \(reply)")
    }

    private mutating func checkStack(_ context: String) {
        let problems = stack.invariantViolations()
        require(problems.isEmpty, "stack invariants broken \(context): \(problems)")
        var outgoing: [JSONValue] = [CoreEncoding.entries(of: stack), CoreEncoding.frame(stack.scene(at: time), seq: 1)]
        for event in stack.drainEvents() {
            switch event {
            case .lifecycle(let notice): outgoing.append(CoreEncoding.lifecycle(notice))
            case .statusBar(let appearance, let duration, let t):
                outgoing.append(CoreEncoding.statusBarChange(appearance, duration: duration, time: t))
            case .stackChanged: break
            case .mode(let change): outgoing.append(CoreEncoding.modeChange(change))
            }
        }
        for message in outgoing {
            require(message.allNumbersFinite, "non-finite number in an outgoing message \(context): \(message)")
        }
    }
}

extension JSONValue {
    /// No NaN or infinity anywhere (the serialiser would write them as null).
    var allNumbersFinite: Bool {
        switch self {
        case .double(let d): return d.isFinite
        case .array(let items): return items.allSatisfy(\.allNumbersFinite)
        case .object(let object): return object.allSatisfy { $0.value.allNumbersFinite }
        default: return true
        }
    }
}

/// Stops the process with `message`: libFuzzer records the input that got here.
func fail(_ message: @autoclosure () -> String) -> Never {
    fatalError("fuzz property violated: \(message())")
}

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}
