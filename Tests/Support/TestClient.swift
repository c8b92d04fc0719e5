// Helpers the integration tests share: typed access to replies and notifications.

// Swift Testing is there when tests are built, not in a plain `swift build -c release`, which
// builds this target too (`make run`, `make release`): without it the file compiles to nothing.
#if canImport(Testing)
import PresentClient
import PresentJSON
import Testing

extension PresentClient {
    /// Calls and expects an error; returns its code and data.
    func expectError(_ method: String, _ params: JSONValue? = nil) -> (code: Int, message: String, data: JSONValue?)? {
        do {
            let result = try call(method, params)
            Issue.record("expected an error from \(method), got \(result.serializedString)")
            return nil
        } catch {
            guard case .rpc(let code, let message, let data) = error else {
                Issue.record("expected an RPC error from \(method), got \(error)")
                return nil
            }
            return (code, message, data)
        }
    }

    /// Reads notifications until one matches and returns its params; others are dropped.
    /// If none matches within `timeout` seconds, fails the test saying what it awaited, and
    /// returns nil. (A deadline, not a count or a pause between two: a busy daemon may
    /// take long to cause the one awaited, a chatty one may send many others first.)
    func awaitNotification(_ method: String, timeout: Double = generousTimeout,
                           where match: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue? {
        let deadline = monotonicNow() + timeout
        var others = 0
        while monotonicNow() < deadline, let n = try nextNotification(timeout: max(0, deadline - monotonicNow())) {
            if n["method"]?.stringValue == method, let params = n["params"], match(params) { return params }
            others += 1
        }
        Issue.record("waited \(Int(timeout)) s for a matching \(method) notification (\(others) others came)")
        return nil
    }

    /// Sends one raw line and returns the next line the daemon writes, parsed.
    func rawExchange(_ line: String) throws -> JSONValue? {
        try sendRaw(Array(line.utf8) + [10])
        guard let reply = try readLine(timeout: generousTimeout) else { return nil }
        return try JSONValue.parse(reply)
    }
}

extension JSONValue {
    var double: Double? { doubleValue }
}

extension JSONValue {
    /// An array's element, nil when this is not an array or the index is out of range.
    subscript(index: Int) -> JSONValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}

extension PresentClient {
    /// Sends `line` and then a `sync` with id `marker`, and returns every message the
    /// daemon writes before the sync's reply: the line's reply, or none at all (a
    /// notification) — which a reply coming first proves, with no waiting for silence.
    func messagesBeforeSync(after line: [UInt8], marker: String) throws -> [JSONValue] {
        try sendRaw(line + [10])
        try sendRaw(Array(#"{"jsonrpc":"2.0","id":"\#(marker)","method":"sync"}"#.utf8) + [10])
        var messages: [JSONValue] = []
        while true {
            guard let line = try readLine(timeout: generousTimeout) else {
                throw HarnessError.setup("no reply to the sync \(marker): the connection stopped answering")
            }
            let message = try JSONValue.parse(line)
            if message["id"] == .string(marker) && message["method"] == nil { return messages }
            messages.append(message)
        }
    }
}
#endif
