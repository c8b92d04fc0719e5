// `roles` in the configuration file: which connections hold which role (RoleTable.swift),
// granted by uid, by gid (the peer's primary or a supplementary group), by systemd unit
// (the peer's cgroup at connect()), or to anyone who can connect; and the priority ceiling
// of the roles that may present.
//
//   "roles": {
//     "shell":    {"units": ["kiosk-shell.service"]},
//     "renderer": {"units": ["kiosk-renderer.service"]},
//     "app":      {"anyone": true, "maxPriority": 500},
//     "admin":    {"uids": [0], "gids": [27]}
//   }
//
// Absent or null: the defaults (Roles.swift) — the socket's owner and root get every role,
// any other connection app, renderer and shell. Given: exactly what it says; a role not
// named is granted to nobody, and root is an administrator only with rootIsAdmin.

import PresentCore
import PresentJSON
import PresentProtocol

/// Who holds one role.
public struct RoleGrant: Sendable, Equatable {
    public var uids: [UInt32] = []
    public var gids: [UInt32] = []
    /// systemd units (`kiosk-shell.service`, `app-x.scope`).
    public var units: [String] = []
    /// Every connection.
    public var anyone = false
    /// The highest `present` priority this role allows (roles that may present only).
    public var maxPriority: Int?

    public init() {}

    func matches(uid: UInt32, gids peerGIDs: [UInt32], unit: String?) -> Bool {
        anyone || uids.contains(uid) || peerGIDs.contains(where: gids.contains) || unit.map(units.contains) == true
    }
}

/// Every role's grant.
public struct RoleGrants: Sendable, Equatable {
    private var grants: [Role: RoleGrant] = [:]

    /// The ceilings when nothing says otherwise: an app may not preempt everyone at 1000.
    public static let defaultMaxPriority: [Role: Int] = [.app: 500, .admin: Presentation.priorityRange.upperBound]

    /// `RoleGrants()`, made once: without `roles` in the configuration every connection
    /// reads its ceiling here, and building it per connection would be a large part of a
    /// connect + close.
    static let defaults = RoleGrants()

    /// Every role set's ceiling, at its raw value: every connection reads its own, so it is
    /// worked out from the grants (a dictionary of structs) when they change, not per
    /// connection. Derived from `grants` wherever they change.
    private var ceilings: [Int?] = []

    public init() {
        for role in Role.allCases { grants[role] = RoleGrant() }
        for role in RoleTable.presentingRoles {
            grants[role]?.maxPriority = Self.defaultMaxPriority[role] ?? Presentation.priorityRange.upperBound
        }
        ceilings = allCeilings()
    }

    public subscript(role: Role) -> RoleGrant {
        get { grants[role] ?? RoleGrant() }
        set {
            grants[role] = newValue
            ceilings = allCeilings()
        }
    }

    /// Whether a grant names units (then the peer's cgroup is read at connect()).
    var usesUnits: Bool { Role.allCases.contains { !self[$0].units.isEmpty } }
    /// Whether a grant names gids (then the peer's supplementary groups are read).
    var usesGIDs: Bool { Role.allCases.contains { !self[$0].gids.isEmpty } }

    func roles(uid: UInt32, gids: [UInt32], unit: String?) -> RoleSet {
        RoleSet(Role.allCases.filter { self[$0].matches(uid: uid, gids: gids, unit: unit) })
    }

    /// The highest priority a connection holding `roles` may present at: the highest
    /// ceiling among them; nil when none of them may present.
    func maxPriority(for roles: RoleSet) -> Int? { ceilings[Int(roles.rawValue)] }

    private func allCeilings() -> [Int?] {
        (0..<(1 << Role.allCases.count)).map { raw in
            RoleSet(rawValue: UInt8(raw)).roles.compactMap { self[$0].maxPriority }.max()
        }
    }

    var fileJSON: JSONValue {
        var object: JSONObject = [:]
        for role in Role.allCases {
            let grant = self[role]
            var o: JSONObject = ["uids": .array(grant.uids.map { .int(Int64($0)) }),
                                 "gids": .array(grant.gids.map { .int(Int64($0)) }),
                                 "units": .array(grant.units.map { .string($0) }),
                                 "anyone": .bool(grant.anyone)]
            if let ceiling = grant.maxPriority { o["maxPriority"] = .int(Int64(ceiling)) }
            object[role.rawValue] = .object(o)
        }
        return .object(object)
    }
}

extension ConfigurationFileReader {
    /// `roles`: null or absent leaves the defaults.
    mutating func readRoles(_ root: ParamReader, into c: inout ServerConfiguration) {
        guard let section = section(root, "roles") else { return }
        check(section, allowed: Set(Role.allCases.map(\.rawValue)))
        var grants = RoleGrants()
        for role in Role.allCases {
            guard let p = self.section(section, role.rawValue) else { continue }
            check(p, allowed: ["uids", "gids", "units", "anyone", "maxPriority"])
            let ids = 0...Int(UInt32.max - 1)   // (uid_t)-1 means "none"
            set(&grants[role].uids) { () throws(RPCError) in
                try p.optionalArray("uids", count: 0...1024) { v throws(RPCError) in UInt32(try v.int(range: ids)) } }
            set(&grants[role].gids) { () throws(RPCError) in
                try p.optionalArray("gids", count: 0...1024) { v throws(RPCError) in UInt32(try v.int(range: ids)) } }
            set(&grants[role].units) { () throws(RPCError) in
                try p.optionalArray("units", count: 0...1024, each: Self.unit)
            }
            set(&grants[role].anyone) { () throws(RPCError) in try p.optionalBool("anyone") }
            guard p.contains("maxPriority") else { continue }
            guard RoleTable.presentingRoles.contains(role) else {
                let presenting = RoleTable.presentingRoles.map(\.rawValue).joined(separator: " and ")
                recordIssue(
                    field: p.path(for: "maxPriority"),
                    reason: "\(role.rawValue) may not present; only \(presenting) have a ceiling")
                continue
            }
            set(&grants[role].maxPriority) { () throws(RPCError) in
                try p.optionalInt("maxPriority", range: Presentation.priorityRange) }
        }
        c.roles = grants
    }

    /// A systemd unit name as the cgroup shows it: `name.service` or `name.scope`.
    private static func unit(_ v: ParamValue) throws(RPCError) -> String {
        let name = try v.string(maxBytes: 256)
        guard !name.contains("/"), name.hasSuffix(".service") || name.hasSuffix(".scope"),
              !name.hasPrefix(".") else {
            throw v.invalid("expected a systemd unit ending in .service or .scope, got \"\(name)\"")
        }
        return name
    }
}
