// One connected process: its connection, what it said in `hello`, what it subscribed to.

import PresentProtocol

/// A connection as the daemon sees it: what it may do is its `roles`.
final class Client {
    let connection: Connection
    var id: UInt64 { connection.id }
    /// The socket's credentials (a replayed connection: the recorded ones).
    let peer: PeerCredentials
    /// The name given in `hello` (for logs and the stack listing).
    var name: String?
    /// What it subscribed to: written by the Broadcaster alone, which keeps its index of
    /// subscribers by topic in step with it.
    let subscription = Subscription()
    /// The topics it subscribed to.
    var topics: Topics { subscription.topics }
    /// The screens whose notifications it takes (`subscribe {outputs}`); nil: every one.
    var outputs: Set<String>? { subscription.outputs }
    /// Replies still owed (requests waiting for a `shouldDismiss` answer).
    var deferredReplies = 0
    /// Requests handled in the loop's turn `turn` (Fairness.swift).
    var requestsThisTurn = 0
    /// The loop turn `requestsThisTurn` counts in.
    var turn: UInt64 = 0
    /// It has had its turn and waits for the next (reading paused).
    var isYielding = false
    /// How many turns it has had to yield: it sent faster than its share (`stats`).
    var yields = 0
    /// Given by `hello`; proves ownership of its entries after a daemon restart.
    var resumeToken: String?
    /// What it may do, fixed at connect() (Roles.swift).
    var roles = RoleSet()
    /// Its systemd unit, read at connect() when a role is granted by unit.
    var unit: String?
    /// What it reported of the frames it drew, by screen (`presented`, `stats`).
    var shown: [String: ShownFigures] = [:]
    /// The highest priority it may present at (nil: it may not present).
    var maxPriority: Int?

    init(connection: Connection, peer: PeerCredentials? = nil) {
        self.connection = connection
        self.peer = peer ?? connection.peer
    }

    /// Whether a notification about screen `output` (nil: about none) is for this client.
    func watches(_ output: String?) -> Bool { Subscription.passes(output, outputs) }

    /// How logs name this client: pid, uid and its hello name.
    var label: String {
        "client \(id) (pid \(peer.pid), uid \(peer.uid)\(name.map { ", \"\($0)\"" } ?? ""))"
    }
}
