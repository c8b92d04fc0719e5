// The fan-out: who hears which topic, and the one way a notification reaches many
// connections. Each topic keeps the list of its subscribers, so a message goes through
// those alone and "does anyone watch X" is a count; each message is serialised once, and
// only when someone listens, into a SharedBuffer every subscriber's queue shares.
// Lossless notifications (lifecycle, stack, status bar, modes, animations) are numbered
// by one `seq` across screens; frames are coalesced per subscriber, newest wins.
//
// A client's subscription (`Client.topics`, `Client.outputs`) is a `Subscription` whose
// setters are private to this file: the Broadcaster is the only writer, so what a client
// says it hears and the index the fan-out walks cannot disagree.

import CLibUV
import PresentCore
import PresentJSON
import PresentProtocol

/// The topics a client subscribed to: read from its place in each topic's member list
/// (a topic it is not in has place -1), so there is one fact, not a second set that could
/// disagree with the lists, and no ceiling on how many topics there are.
struct Topics {
    fileprivate var positions: [Int]

    fileprivate init() { positions = [Int](repeating: -1, count: Topic.allCases.count) }

    var isEmpty: Bool { !positions.contains { $0 >= 0 } }
    func contains(_ topic: Topic) -> Bool { positions[topic.slot] >= 0 }
}

/// What one client hears. Only the Broadcaster changes it (the setters are private to
/// this file), so it always agrees with the Broadcaster's member lists.
final class Subscription {
    /// The topics subscribed to, with its index in each topic's member list (by
    /// `Topic.slot`; -1 where it is not a member).
    fileprivate(set) var topics = Topics()
    /// The screens whose notifications it takes (`subscribe {outputs}`); nil: every one.
    fileprivate(set) var outputs: Set<String>?
    fileprivate var positions: [Int] {
        get { topics.positions }
        _modify { yield &topics.positions }
    }

    /// Whether a message about screen `output` (nil: about none) passes the screens
    /// `outputs` (nil: every one).
    static func passes(_ output: String?, _ outputs: Set<String>?) -> Bool {
        guard let output, let outputs else { return true }
        return outputs.contains(output)
    }
}

/// One subscriber in a topic's member list: all the fan-out reads for each message, kept
/// in the list itself. A frame's walk then reads one contiguous array and each subscriber's
/// Connection (and, for a member that watches some screens only, its set of them), no
/// Client or Subscription: those are cache-cold by the time a frame reaches them, and
/// loading them would dominate the fan-out's own time.
private struct Member {
    /// Keeps the client, and with it the connection, alive while it is a member.
    let client: Client
    /// `client.connection`, unretained: `client` owns it, and the walk uses it without a
    /// retain and release of its own per message.
    let connection: Unmanaged<Connection>
    /// A copy of `client.outputs`, which the Broadcaster alone writes, in both places.
    var outputs: Set<String>?

    init(_ client: Client) {
        self.client = client
        connection = .passUnretained(client.connection)
        outputs = client.outputs
    }

    /// Whether a message about screen `output` (nil: about none) is for this member.
    func watches(_ output: String?) -> Bool { Subscription.passes(output, outputs) }
}

/// The daemon's fan-out (one per daemon, loop thread only).
final class Broadcaster {
    /// Per topic (by `Topic.slot`), its subscribers, in no particular order (removal swaps
    /// the last one in). Invariant: `members[s][i].client.subscription.positions[s] == i`,
    /// and each member's `outputs` is its client's.
    private var members = [[Member]](repeating: [], count: Topic.allCases.count)
    /// Clients subscribed to at least one topic (the systemd status line).
    private(set) var subscriberCount = 0
    /// The number of the last lossless notification: every one is numbered, heard or not,
    /// so a client's snapshot `seq` places it among the notifications that follow.
    private(set) var seq: UInt64 = 0

    // MARK: Subscriptions

    /// `client` hears `topics` from now on, besides what it heard; `outputs` (nil: every
    /// screen) replaces the screens it watches, for every topic.
    func subscribe(_ client: Client, to topics: [Topic], outputs: Set<String>?) {
        let subscription = client.subscription
        if subscription.topics.isEmpty && !topics.isEmpty { subscriberCount += 1 }
        subscription.outputs = outputs
        for slot in subscription.positions.indices where subscription.positions[slot] >= 0 {
            members[slot][subscription.positions[slot]].outputs = outputs
        }
        for topic in topics where !subscription.topics.contains(topic) {
            let slot = topic.slot
            subscription.positions[slot] = members[slot].count
            members[slot].append(Member(client))
        }
        checkMembership(of: client)
    }

    /// `client` no longer hears `topics` (those it did not hear are ignored).
    func unsubscribe(_ client: Client, from topics: [Topic]) {
        let subscription = client.subscription
        let wasSubscriber = !subscription.topics.isEmpty
        for topic in topics where subscription.topics.contains(topic) {
            leave(topic.slot, client)
        }
        if wasSubscriber && subscription.topics.isEmpty { subscriberCount -= 1 }
        checkMembership(of: client)
    }

    /// `client` has gone: it leaves every topic.
    func remove(_ client: Client) {
        unsubscribe(client, from: Topic.allCases)
    }

    /// Whether anyone hears `topic` (a notification nobody would hear need not be computed).
    func isWatched(_ topic: Topic) -> Bool {
        !members[topic.slot].isEmpty
    }

    /// Takes `client` out of member list `slot` in O(1): the last member moves into its place.
    private func leave(_ slot: Int, _ client: Client) {
        let index = client.subscription.positions[slot]
        precondition(
            index >= 0 && members[slot][index].client === client, "the Broadcaster's index lost \(client.label)")
        let last = members[slot].removeLast()
        if last.client !== client {
            members[slot][index] = last
            last.client.subscription.positions[slot] = index
        }
        client.subscription.positions[slot] = -1
    }

    /// Debug builds: where the client's topics place it in a member list, the list holds it.
    private func checkMembership(of client: Client) {
        assert(Topic.allCases.allSatisfy { topic in
            let slot = topic.slot, index = client.subscription.positions[slot]
            return index < 0 || members[slot][index].client === client && members[slot][index].outputs == client.outputs
        }, "\(client.label)'s subscription disagrees with the Broadcaster's member lists")
    }

    // MARK: Sending

    /// The next number of a lossless notification that goes to one client (an owner's
    /// `action`), numbered with the broadcasts.
    func nextSeq() -> UInt64 {
        seq += 1
        return seq
    }

    /// One lossless notification `method` to every subscriber of `topic` (that watches
    /// screen `output`, when it is about one), numbered by `seq`; `params` are made only
    /// when someone listens. `owner`: an entry's lifecycle, which a connection that is
    /// only an app hears only about its own entries.
    func broadcast(_ topic: Topic, method: String, output: String?, owner: OwnerID?, params: () -> JSONValue) {
        let seq = nextSeq()
        fanOut(to: topic, about: output, owner: owner, send: { $0.send(shared: $1) }) {
            var numbered: JSONObject = ["seq": .int(Int64(truncatingIfNeeded: seq))]
            if let output { numbered["output"] = .string(output) }
            for (key, value) in params().objectValue ?? [:] { numbered[key] = value }
            return RPCEncoding.notification(method: method, params: .object(numbered)).serializedLine()
        }
    }

    /// A frame of screen `output` to every `frames` subscriber that watches it; each keeps
    /// only its newest unsent frame. `encode` runs once, and only when someone listens.
    func broadcastFrame(of output: String, encode: () -> [UInt8]) {
        fanOut(to: .frames, about: output, owner: nil, send: { $0.sendFrame($1) }, encode: encode)
    }

    /// Hands one serialisation of a message to every member of `topic` that watches
    /// `output` (and is `owner`, or hears every lifecycle).
    /// No intermediate array, nothing encoded for nobody, and no retain or release per
    /// member: this loop runs once per subscriber per frame. The
    /// list is walked as it was when the fan-out began (a copy on write, which also keeps
    /// its clients alive), so a client that goes meanwhile is harmless.
    private func fanOut(
        to topic: Topic, about output: String?, owner: OwnerID?, send: (Connection, SharedBuffer) -> Void,
                        encode: () -> [UInt8]) {
        var buffer: SharedBuffer?
        let list = members[topic.slot]
        list.withUnsafeBufferPointer { list in
            // By index, in place: a member copied out would be retained and released.
            for index in list.indices {
                // The next member's connection is fetched while this one's send(2) runs: a
                // load made after a system call finds the line cold, and that miss would be
                // most of the fan-out's own time.
                if index + 1 < list.count { presentd_prefetch(list[index + 1].connection.toOpaque()) }
                guard list[index].watches(output) else { continue }
                list[index].connection._withUnsafeGuaranteedRef { connection in
                    guard owner == nil || connection.id == owner || list[index].client.hearsEveryLifecycle else {
                        return
                    }
                    if buffer == nil { buffer = SharedBuffer(encode()) }
                    send(connection, buffer!)
                }
            }
        }
        buffer?.release()  // the creator's reference; queued writes hold their own
    }
}
