// One connected process: its connection, what it said in `hello`, what it subscribed to.

import PresentProtocol

/// A connection as the daemon sees it. Every connection may present and subscribe.
final class Client {
    let connection: Connection
    var id: UInt64 { connection.id }
    var peer: PeerCredentials { connection.peer }
    /// The name given in `hello` (for logs and the stack listing).
    var name: String?
    var topics: Set<Topic> = []
    /// Replies still owed (requests waiting for a `shouldDismiss` answer).
    var deferredReplies = 0
    /// Requests handled since this client last yielded to the others (Fairness.swift).
    var requestsThisTurn = 0
    var isYielding = false
    /// Given by `hello`; proves ownership of its entries after a daemon restart.
    var resumeToken: String?

    init(connection: Connection) { self.connection = connection }

    /// How logs name this client: pid, uid and its hello name.
    var label: String {
        "client \(id) (pid \(peer.pid), uid \(peer.uid)\(name.map { ", \"\($0)\"" } ?? ""))"
    }
}
