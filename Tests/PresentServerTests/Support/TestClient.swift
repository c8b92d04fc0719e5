// Helpers the integration tests share: typed access to replies and notifications.

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

    /// Reads notifications until one matches; fails the test after `limit` others.
    func awaitNotification(_ method: String, limit: Int = 10_000, where match: (JSONValue) -> Bool = { _ in true })
        throws -> JSONValue? {
        for _ in 0..<limit {
            guard let n = try nextNotification(timeout: 5) else { return nil }
            if n["method"]?.stringValue == method, let params = n["params"], match(params) { return params }
        }
        return nil
    }

    /// Sends one raw line and returns the next line the daemon writes, parsed.
    func rawExchange(_ line: String) throws -> JSONValue? {
        try sendRaw(Array(line.utf8) + [10])
        guard let reply = try readLine(timeout: 5) else { return nil }
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
