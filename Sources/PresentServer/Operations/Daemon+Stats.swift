// `stats`: what an operator asks a running daemon — who is connected and what they
// subscribed to, how full each screen's stack and queue are, how many frames each
// subscriber was sent and how many were coalesced away, requests per method, uptime.

import PresentCore
import PresentJSON
import PresentProtocol

/// The counters `stats` reports that nothing else keeps (loop thread only).
final class DaemonCounters {
    /// CLOCK_MONOTONIC when the daemon was made (uptime is real time, whatever the clock).
    let startedAt: Double
    /// Requests (and notifications) by method, by `MethodSpec.index`.
    private(set) var requests = [Int](repeating: 0, count: MethodTable.methods.count)
    /// Requests for a method that does not exist (not by name: a client could make the
    /// table grow without bound).
    private(set) var unknownMethods = 0
    /// Connections accepted, the silent ones among them.
    private(set) var connectionsAccepted = 0
    /// Connections that closed before sending a byte, found so as they were accepted and
    /// let go there and then (UnixListener): never clients, never recorded.
    private(set) var connectionsSilent = 0

    init(startedAt: Double) { self.startedAt = startedAt }

    /// Counts a request for `method`; nil: one that does not exist.
    func count(_ method: MethodSpec?) {
        if let method { requests[method.index] += 1 } else { unknownMethods += 1 }
    }

    func countAccepted() { connectionsAccepted += 1 }

    func countSilent() {
        connectionsAccepted += 1
        connectionsSilent += 1
    }
}

extension Daemon {
    func stats() -> JSONValue {
        for screen in screens { screen.stack.advance(to: now) }
        let byMethod = MethodTable.methods.compactMap { spec -> (String, JSONValue)? in
            let count = counters.requests[spec.index]
            return count == 0 ? nil : (spec.name, .int(Int64(count)))
        }
        return ["uptime": .double(loop.monotonicNow() - counters.startedAt),
                "clients": .array(clients.keys.sorted().compactMap { clients[$0].map(clientStats) }),
                "screens": .array(screens.map(screenStats)),
                "presented": .array(clients.keys.sorted().flatMap { id in
                    (clients[id]?.shown ?? [:]).sorted { $0.key < $1.key }.map { output, figures in
                        figures.json(output: output, client: id)
                    }
                }),
                "connections": ["accepted": .int(Int64(counters.connectionsAccepted)),
                                "silent": .int(Int64(counters.connectionsSilent))],
                "requests": ["byMethod": .object(JSONObject(byMethod)),
                             "unknownMethod": .int(Int64(counters.unknownMethods))]]
    }

    private func clientStats(_ client: Client) -> JSONValue {
        let topics = Topic.allCases.filter(client.topics.contains).map { JSONValue.string($0.rawValue) }
        return ["id": .int(Int64(client.id)), "pid": .int(Int64(client.peer.pid)), "uid": .int(Int64(client.peer.uid)),
                "gid": .int(Int64(client.peer.gid)), "name": client.name.map { .string($0) } ?? .null,
                "roles": .array(client.roles.names.map { .string($0) }),
                "subscriptions": ["topics": .array(topics),
                                  "outputs": client.outputs.map { .array($0.sorted().map { .string($0) }) } ?? .null],
                "frames": ["sent": .int(Int64(client.connection.framesSent)),
                           "coalesced": .int(Int64(client.connection.framesCoalesced))],
                "queuedBytes": .int(Int64(client.connection.queuedBytes)),
                "yields": .int(Int64(client.yields))]
    }

    private func screenStats(_ screen: Screen) -> JSONValue {
        func listing(_ entries: [Entry]) -> JSONValue {
            .array(
                entries.map {
                    ["id": .string($0.id), "state": .string($0.state.rawValue), "owner": .int(Int64($0.owner))]
                })
        }
        return ["name": .string(screen.name), "depth": .int(Int64(screen.stack.entries.count)),
                "queueDepth": .int(Int64(screen.stack.queue.count)),
                "entries": listing(screen.stack.entries), "queue": listing(screen.stack.queue)]
    }
}
