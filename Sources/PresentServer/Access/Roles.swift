// Roles at run time: what each connection was granted at connect() (by uid, gid or systemd
// unit, RoleGrants.swift), the checks every request passes (RoleTable.swift says who may
// call what), and the priority ceiling of `present`.
//
// Without `roles` in the configuration the socket's owner — the daemon's own euid when it
// binds the socket, the socket file's owner when it adopts one — and root (unless
// rootIsAdmin is false) get every role, and any other connection app, renderer and shell:
// everything but the administrator's methods, so a daemon nobody configured serves every
// local app. Members of
// adminGroup, and root unless rootIsAdmin is false, are administrators in every case.
//
// A connection's roles, its unit and its ceiling are fixed when it connects: a reload
// (SIGHUP) changes them for the connections that come after it.
//
// The unit is the last component of the peer's cgroup path (/proc/PID/cgroup, PID from
// SO_PEERCRED) that ends in .service or .scope, read once at connect() and only when a
// grant names units. PRESENTD_TEST_CGROUP_ROOT, for tests only, names a directory that
// stands in for /proc there (DIR/PID/cgroup), for machines without systemd.

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol
import PresentSystem

extension Daemon {
    /// What a connection gets when the configuration has no `roles` and it is not the
    /// socket's owner.
    static let defaultRoles: RoleSet = [.shell, .renderer, .app]
    /// Test-only: a directory standing in for /proc when reading a peer's cgroup.
    static let testCgroupRootVariable = "PRESENTD_TEST_CGROUP_ROOT"

    /// Works out `client`'s roles and ceiling, once, as it connects.
    func assignRoles(_ client: Client) {
        let peer = client.peer
        var roles: RoleSet
        var unit: String?
        if let grants = configuration.roles {
            if grants.usesUnits { unit = Self.systemdUnit(ofPID: peer.pid) }
            let groups = grants.usesGIDs ? Self.peerGroups(of: client.connection) : []
            roles = grants.roles(uid: peer.uid, gids: [peer.gid] + groups, unit: unit)
        } else {
            roles = peer.uid == socketOwnerUID ? .all : Self.defaultRoles
        }
        if isAdministrator(client) { roles.insert(.admin) }
        if roles.contains(.admin) { roles = .all }   // admin: everything
        client.grant(
            roles, maxPriority: (configuration.roles ?? RoleGrants.defaults).maxPriority(for: roles), unit: unit)
        log.debug("\(client.label): roles \(roles)" + (client.unit.map { " (unit \($0))" } ?? ""))
    }

    /// The socket's owner: who started the daemon, or who owns the adopted socket's file.
    static func socketOwner(path: String, adopted: Bool) -> UInt32 {
        var info = stat()
        guard adopted, path.hasPrefix("/"), (try? valueOrErrno("stat", path: path, { stat(path, &info) })) != nil else {
            return geteuid()
        }
        return info.st_uid
    }

    // MARK: Checks

    /// Before decoding: a method `client`'s roles do not allow is refused (−32005),
    /// whatever its params.
    func authorize(_ method: MethodSpec, for client: Client) throws(RPCError) {
        guard !method.access.allows(client.roles) else { return }
        throw RoleTable.refusal("\"\(method.name)\"", field: "method", access: method.access, granted: client.roles)
    }

    /// After decoding: `subscribe` is refused for a topic outside the roles.
    func authorizeTopics(of request: Request, for client: Client) throws(RPCError) {
        guard case .subscribe(let topics, _) = request else { return }
        for (index, topic) in topics.enumerated() {
            let access = RoleTable.access(for: topic)
            guard !access.allows(client.roles) else { continue }
            throw RoleTable.refusal("subscribing to \"\(topic.rawValue)\"", field: "topics[\(index)]",
                                    access: access, granted: client.roles)
        }
    }

    // MARK: The priority ceiling

    /// `request` with its priority lowered to `client`'s ceiling, and the ceiling when it was.
    func withinCeiling(_ request: PresentRequest, for client: Client) -> (PresentRequest, clampedTo: Int?) {
        guard let ceiling = client.maxPriority, request.presentation.priority > ceiling else { return (request, nil) }
        var lowered = request
        lowered.presentation.priority = ceiling
        log.info("\(client.label): priority \(request.presentation.priority) lowered to its ceiling \(ceiling)")
        return (lowered, ceiling)
    }

    /// A present result saying the priority was clamped (`priority`, `clamped: true`).
    static func noting(_ clampedTo: Int?, in result: JSONValue) -> JSONValue {
        guard let clampedTo, var object = result.objectValue else { return result }
        object["priority"] = .int(Int64(clampedTo))
        object["clamped"] = true
        return .object(object)
    }

    /// What `hello` says about roles: `roles`, and `maxPriority` when it may present.
    func roleFields(of client: Client) -> JSONObject {
        var fields: JSONObject = ["roles": .array(client.roles.names.map { .string($0) })]
        if let ceiling = client.maxPriority { fields["maxPriority"] = .int(Int64(ceiling)) }
        return fields
    }

    /// The client's role names as JSON text (every connection's first record): a role set's
    /// names are the same text for every connection that holds it.
    func roleNamesText(of client: Client) -> [UInt8] {
        Self.roleNamesText[Int(client.roles.rawValue)]
    }

    /// Every role set's names as a JSON array, at the set's raw value: each a copy of its
    /// own size, since the writer's buffer keeps its spare room and the table lives as long
    /// as the daemon.
    private static let roleNamesText: [[UInt8]] = (0..<(1 << Role.allCases.count)).map { raw in
        JSONValue.array(RoleSet(rawValue: UInt8(raw)).names.map { .string($0) }).serialized().withUnsafeBufferPointer {
            Array($0)
        }
    }

    // MARK: The peer's systemd unit

    /// The unit of process `pid`: the last .service or .scope of its cgroup path.
    static func systemdUnit(ofPID pid: Int32) -> String? {
        let root =
            getenv(testCgroupRootVariable).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/proc"
        guard pid > 0, let bytes = try? readWholeFile("\(root)/\(pid)/cgroup", limit: maxCgroupFileBytes) else {
            return nil
        }
        return unit(inCgroupFile: String(decoding: bytes, as: UTF8.self))
    }

    /// From /proc/PID/cgroup: cgroup v2's line `0::/path`, else (a hybrid or v1 hierarchy,
    /// where that may be just `/`) the systemd hierarchy's `N:name=systemd:/path`.
    static func unit(inCgroupFile text: String) -> String? {
        let lines = text.split(separator: "\n")
        // The hierarchy's name is compared as a field, not searched for as a substring: a
        // substring search (`contains` on a string) is _StringProcessing's, and using it links
        // that library and the regex parser into the daemon, whose relocated tables are then
        // private memory in every process (docs/BENCHMARKS.md, idle private memory).
        let paths = lines.filter { $0.hasPrefix("0::") }.map { $0.dropFirst(3) }
            + lines.compactMap { line -> Substring? in
                let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                return fields.count == 3 && fields[1] == "name=systemd" ? fields[2] : nil
            }
        return paths.lazy.compactMap { path in
            path.split(separator: "/").last { $0.hasSuffix(".service") || $0.hasSuffix(".scope") }.map(String.init)
        }.first
    }

    /// A cgroup file holds one line per hierarchy; anything longer is not one.
    private static let maxCgroupFileBytes = 16 << 10
}

extension Client {
    /// Whether it hears every entry's lifecycle; an app alone hears only its own entries'.
    var hearsEveryLifecycle: Bool { roles.contains(.renderer) || roles.contains(.admin) }
}
