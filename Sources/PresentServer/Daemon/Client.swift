// One connected process: its connection, what it said in `hello`, what it subscribed to.

import PresentProtocol

/// A connection as the daemon sees it: what it may do is its `roles`.
final class Client {
    let connection: Connection
    var id: UInt64 { connection.id }
    /// The socket's credentials (a replayed connection: the recorded ones).
    let peer: PeerCredentials
    /// The name given in `hello` (for logs and the stack listing).
    private(set) var name: String?
    /// What it subscribed to: written by the Broadcaster alone, which keeps its index of
    /// subscribers by topic in step with it.
    let subscription = Subscription()
    /// The topics it subscribed to.
    var topics: Topics { subscription.topics }
    /// The screens whose notifications it takes (`subscribe {outputs}`); nil: every one.
    var outputs: Set<String>? { subscription.outputs }
    /// Replies still owed (requests waiting for a `shouldDismiss` answer).
    private(set) var deferredReplies = 0
    /// Requests handled in the loop's turn `turn` (Fairness.swift).
    private(set) var requestsThisTurn = 0
    /// The loop turn `requestsThisTurn` counts in.
    private(set) var turn: UInt64 = 0
    /// It has had its turn and waits for the next (reading paused).
    private(set) var isYielding = false
    /// How many turns it has had to yield: it sent faster than its share (`stats`).
    private(set) var yields = 0
    /// Given by `hello`; proves ownership of its entries after a daemon restart.
    private(set) var resumeToken: String?
    /// Counted against the connection limits (written by AccessControl alone).
    var isAdmitted = false
    /// What it may do, fixed at connect() (Roles.swift).
    private(set) var roles = RoleSet()
    /// Its systemd unit, read at connect() when a role is granted by unit.
    private(set) var unit: String?
    /// What it reported of the frames it drew, by screen (`presented`, `stats`).
    private(set) var shown: [String: ShownFigures] = [:]

    /// Takes its report of frames shown on screen `output` (`presented`); `error` gives a
    /// frame's drawing error, when it has one.
    func reportShown(_ frames: [ShownFrame], discarded: Int, on output: String, error: (ShownFrame) -> Double?) {
        shown[output, default: ShownFigures()].add(frames, discarded: discarded, error: error)
    }
    /// The highest priority it may present at (nil: it may not present).
    private(set) var maxPriority: Int?

    init(connection: Connection, peer: PeerCredentials? = nil) {
        self.connection = connection
        self.peer = peer ?? connection.peer
    }

    // MARK: What changes it

    /// `hello`: the name it gave (nil: none).
    func introduce(as name: String?) { self.name = name }

    /// The resume token it holds from now on: a fresh one from `hello`, or the one that
    /// owned the entries `hello {resume}` reclaimed.
    func holdResumeToken(_ token: String) { resumeToken = token }

    /// What it may do, worked out once as it connects (or as a recording says it was).
    func grant(_ roles: RoleSet, maxPriority: Int?, unit: String?) {
        self.roles = roles
        self.maxPriority = maxPriority
        self.unit = unit
    }

    /// A request of its waits for an owner's answer; `replyDelivered` when it comes.
    func deferReply() { deferredReplies += 1 }
    func replyDelivered() { deferredReplies -= 1 }

    /// Counts `requests` against its share of loop turn `turn`. True when that uses the
    /// share up: it must then stop being read until `endYield`, in the next turn.
    func charge(_ requests: Int, inTurn turn: UInt64, share: Int) -> Bool {
        if self.turn != turn {
            self.turn = turn
            requestsThisTurn = 0
        }
        requestsThisTurn += requests
        guard requestsThisTurn >= share, !isYielding else { return false }
        isYielding = true
        yields += 1
        return true
    }

    func endYield() { isYielding = false }

    // MARK: What it hears

    /// Whether a notification about screen `output` (nil: about none) is for this client.
    func watches(_ output: String?) -> Bool { Subscription.passes(output, outputs) }

    /// How logs name this client: pid, uid and its hello name.
    var label: String {
        "client \(id) (pid \(peer.pid), uid \(peer.uid)\(name.map { ", \"\($0)\"" } ?? ""))"
    }
}
