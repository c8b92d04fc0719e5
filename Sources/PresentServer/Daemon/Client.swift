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
    var topics = Topics()
    /// The screens whose notifications it takes (`subscribe {outputs}`); nil: every one.
    var outputs: Set<String>?
    /// Replies still owed (requests waiting for a `shouldDismiss` answer).
    var deferredReplies = 0
    /// Requests handled since this client last yielded to the others (Fairness.swift).
    var requestsThisTurn = 0
    var isYielding = false
    /// Given by `hello`; proves ownership of its entries after a daemon restart.
    var resumeToken: String?
    /// What it may do, fixed at connect() (Roles.swift).
    var roles = RoleSet()
    /// Its systemd unit, read at connect() when a role is granted by unit.
    var unit: String?
    /// The highest priority it may present at (nil: it may not present).
    var maxPriority: Int?

    init(connection: Connection, peer: PeerCredentials? = nil) {
        self.connection = connection
        self.peer = peer ?? connection.peer
    }

    /// Whether a notification about screen `output` (nil: about none) is for this client.
    func watches(_ output: String?) -> Bool {
        guard let output, let outputs else { return true }
        return outputs.contains(output)
    }

    /// How logs name this client: pid, uid and its hello name.
    var label: String {
        "client \(id) (pid \(peer.pid), uid \(peer.uid)\(name.map { ", \"\($0)\"" } ?? ""))"
    }
}

/// The topics a client subscribed to, as a bitmask. The frame fan-out asks every client at
/// every tick (120 000 times a second for 1000 subscribers at 120 fps): a bit test costs
/// nothing there, where hashing into a `Set<Topic>` was the loop's largest cost.
struct Topics {
    private var bits: UInt8 = 0

    private static func bit(_ topic: Topic) -> UInt8 {
        switch topic {
        case .frames: return 1
        case .lifecycle: return 2
        case .stack: return 4
        case .statusBar: return 8
        case .animations: return 16
        case .modes: return 32
        }
    }

    var isEmpty: Bool { bits == 0 }
    func contains(_ topic: Topic) -> Bool { bits & Self.bit(topic) != 0 }
    mutating func formUnion<S: Sequence<Topic>>(_ topics: S) { for t in topics { bits |= Self.bit(t) } }
    mutating func subtract<S: Sequence<Topic>>(_ topics: S) { for t in topics { bits &= ~Self.bit(t) } }
}
