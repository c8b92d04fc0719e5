// Access control. A client's identity is what the kernel attests about the process at
// connect() (SO_PEERCRED: pid, uid, gid; SO_PEERGROUPS: supplementary groups), never
// what the client says.
//
// Admission: at most `maxConnections` connections in all and `maxConnectionsPerUID` from
// any one uid (dbus-daemon's max_connections_per_user, 256 there too), so one user cannot
// take every slot. A refused connection receives `closing` with the reason and the limit,
// and is closed; refusals are logged at most once a second (a flood must not flood the
// journal too).
//
// Presenting: at most `maxEntries` presentations on every screen's stack and queues
// together, and `maxEntriesPerClient` of one connection.
//
// Dismissing another connection's presentation with `dismiss` (taps and swipes come
// from the screen and follow the entry's own dismissOnTap/dismissOnSwipe):
//   owner   nobody but the connection that presented it — not even an administrator;
//   user    (default) any connection of the same uid, and administrators;
//   anyone  any connection.
// Administrators: root (unless --no-root-admin) and members of --admin-group (the peer
// process's primary or a supplementary group).

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentProtocol
import PresentSystem

/// The daemon's admission bookkeeping.
final class AccessControl {
    /// Admitted connections per uid.
    private(set) var connectionsPerUID: [UInt32: Int] = [:]
    /// Admitted connections in all. Whether a client is one of them it keeps itself
    /// (`Client.isAdmitted`): a set of ids would hash every id twice per connection.
    private(set) var admittedCount = 0
    /// The gid of `--admin-group`, resolved at start-up.
    let adminGID: gid_t?
    var refusalLog = LogThrottle()

    init(adminGID: gid_t?) { self.adminGID = adminGID }

    /// Counts `client` in, `fromUID` being its uid's admitted connections before it.
    func admit(_ client: Client, fromUID: Int) {
        precondition(!client.isAdmitted, "a connection is admitted once")
        client.isAdmitted = true
        admittedCount += 1
        connectionsPerUID[client.peer.uid] = fromUID + 1
    }

    /// Forgets a connection that is going away (refused ones were never counted).
    func release(_ client: Client) {
        guard client.isAdmitted else { return }
        client.isAdmitted = false
        admittedCount -= 1
        // One lookup: a connection's uid is hashed once as it leaves.
        guard let index = connectionsPerUID.index(forKey: client.peer.uid) else { return }
        if connectionsPerUID.values[index] > 1 {
            connectionsPerUID.values[index] -= 1
        } else {
            connectionsPerUID.remove(at: index)
        }
    }
}

/// At most one log line per `interval` seconds for a repetitive event; counts the rest.
struct LogThrottle {
    var interval = 1.0
    private var lastLine = -Double.infinity
    private var skipped = 0

    /// Whether to log now, and how many occurrences were not logged since the last line.
    mutating func shouldLog(at now: Double) -> (log: Bool, skipped: Int) {
        guard now - lastLine >= interval else {
            skipped += 1
            return (false, 0)
        }
        defer { lastLine = now; skipped = 0 }
        return (true, skipped)
    }
}

extension Daemon {
    // MARK: Admission

    /// Admits a new connection, or refuses it (a `closing` notice, then closed) when a
    /// connection limit is reached.
    func admit(_ client: Client) -> Bool {
        let fromUID = access.connectionsPerUID[client.peer.uid] ?? 0
        if access.admittedCount >= configuration.maxConnections {
            refuse(client, reason: "tooManyConnections", limit: configuration.maxConnections,
                   because: "\(configuration.maxConnections) connections already")
            return false
        }
        if fromUID >= configuration.maxConnectionsPerUID {
            refuse(client, reason: "tooManyConnectionsForUser", limit: configuration.maxConnectionsPerUID,
                   because: "uid \(client.peer.uid) has \(fromUID) connections already")
            return false
        }
        access.admit(client, fromUID: fromUID)
        return true
    }

    private func refuse(_ client: Client, reason: String, limit: Int, because why: String) {
        let (log, skipped) = access.refusalLog.shouldLog(at: loop.monotonicNow())
        if log {
            self.log.warning("refusing \(client.label): \(why)"
                             + (skipped > 0 ? " (\(skipped) more refusals not logged)" : ""))
        }
        client.connection.closeAfterFlush(sending: RPCEncoding.notification(
            method: "closing", params: ["reason": .string(reason), "limit": .int(Int64(limit))]).serializedLine())
    }

    // MARK: How much a client may present

    /// The stack-size limits a present must stay within.
    func checkPresentLimits(for client: Client) throws(RPCError) {
        let all = screens.flatMap(\.stack.allEntries)
        let everyone = all.count
        let mine = all.filter { $0.owner == client.id }.count
        guard everyone < configuration.maxEntries else {
            throw .limitExceeded("the stack holds \(everyone) presentations; at most \(configuration.maxEntries)",
                                 limit: configuration.maxEntries)
        }
        guard mine < configuration.maxEntriesPerClient else {
            throw .limitExceeded(
                "this connection has \(mine) presentations; at most \(configuration.maxEntriesPerClient)",
                                 limit: configuration.maxEntriesPerClient)
        }
    }

    // MARK: Dismissal

    /// The dismiss policy applies to everything a dismissal takes along (the stack says
    /// what: ModalStack.entriesTakenAlong; `authorize` passes over entries already leaving,
    /// which go anyway and whose way out the dismissal does not change).
    func authorizeDismiss(of id: String, on screen: Screen, by client: Client) throws(RPCError) {
        try authorize(screen.stack.entriesTakenAlong(byDismissing: id), by: client)
    }

    /// Refuses (−32002) unless `client` may dismiss every one of `entries`. Entries already
    /// leaving do not count: they go anyway, and two clients dismissing their own entries
    /// one after the other must not race.
    func authorize(_ entries: [Entry], by client: Client) throws(RPCError) {
        guard let refused = entries.first(where: { $0.state != .dismissing && !mayDismiss($0, by: client) }) else {
            return
        }
        throw RPCError(code: .notOwner,
                       message: "presentation \"\(refused.id)\" belongs to another client (dismiss policy "
                           + "\(configuration.dismissPolicy.rawValue))",
                       data: ["field": "id", "reason": "not the owner",
                              "policy": .string(configuration.dismissPolicy.rawValue)])
    }

    private func mayDismiss(_ entry: Entry, by client: Client) -> Bool {
        guard entry.owner != client.id else { return true }
        switch configuration.dismissPolicy {
        case .anyone: return true
        case .user:
            // A configured `admin` role counts too (without `roles`, the socket's owner holds it
            // by default, and that must not widen what it may dismiss).
            return ownerUID(of: entry) == client.peer.uid || isAdministrator(client)
                || (configuration.roles != nil && client.roles.contains(.admin))
        case .owner: return false
        }
    }

    /// The uid of an entry's owner: a connected client's, or a restored entry's until its
    /// owner resumes it.
    private func ownerUID(of entry: Entry) -> UInt32? {
        clients[entry.owner]?.peer.uid ?? continuity.orphans[entry.owner]?.uid
    }

    /// Root (unless configured otherwise) and members of the admin group.
    func isAdministrator(_ client: Client) -> Bool {
        if client.peer.uid == 0 && configuration.rootIsAdmin { return true }
        guard let admin = access.adminGID else { return false }
        return client.peer.gid == admin || Self.peerGroups(of: client.connection).contains(admin)
    }

    /// The supplementary groups the peer process had at connect() (SO_PEERGROUPS).
    static func peerGroups(of connection: Connection) -> [gid_t] {
        let fd = connection.fileDescriptor
        guard fd >= 0 else { return [] }
        var groups = [gid_t](repeating: 0, count: 64)
        for _ in 0..<2 {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            do {
                _ = try valueOrErrno("getsockopt(SO_PEERGROUPS)") {
                    groups.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, soPeerGroups, $0.baseAddress, &length) }
                }
                return Array(groups[..<(Int(length) / MemoryLayout<gid_t>.size)])
            } catch {
                let count = Int(length) / MemoryLayout<gid_t>.size
                guard error.code == ERANGE, count > groups.count else { return [] }
                groups = [gid_t](repeating: 0, count: count)   // told how many: try once more
            }
        }
        return []
    }

    /// SO_PEERGROUPS (Linux 4.13); Glibc's headers only have it as a macro.
    private static let soPeerGroups: Int32 = 59

    // MARK: Descriptors

    /// Raises the soft descriptor limit (1024 under systemd by default) towards the hard
    /// one, so `maxConnections` clients can really be accepted.
    static func raiseDescriptorLimit(for connections: Int, log: Log) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = rlim_t(connections + 64)   // the listener, timers, signals, the journal…
        guard limit.rlim_cur < wanted else { return }
        let old = limit.rlim_cur
        limit.rlim_cur = min(wanted, limit.rlim_max)
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 || limit.rlim_cur < wanted {
            log.warning(
                "only \(limit.rlim_cur) file descriptors (was \(old)); fewer than \(connections) connections can be "
                + "served"
            )
        }
    }
}
