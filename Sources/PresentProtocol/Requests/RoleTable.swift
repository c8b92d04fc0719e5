// Roles: who may call which method. One column of MethodTable says it; the daemon's
// checks, the −32005 error's `role`, and the table in docs/PROTOCOL.md (checked by a test)
// all come from it.
//
//   shell     the input and the screen: taps, swipes, keys, buttons, focus, the container,
//             the keyboard, screens and presentation contexts
//   renderer  frames and content: may subscribe to every topic
//   app       presents, updates and dismisses its own entries; subscribes to `lifecycle`
//             only, and hears only its own entries' lifecycle (unless it is also a renderer)
//   admin     everything, and what only an operator does: the manual clock, modes, the
//             recorder, statistics
//
// `admin` may call every method, so the table lists the other roles only; a method that is
// the administrator's alone says so (`.administrator`). Every method and topic has its
// access by construction: MethodSpec cannot be made without one, and `Topic.access` is a
// switch the compiler holds to every topic, so none falls to admin-only by omission.

import PresentJSON

/// What a connection may do. Order: as listed in `hello`'s `roles` and in the docs.
public enum Role: String, Sendable, CaseIterable {
    case shell
    case renderer
    case app
    case admin
}

/// A set of roles, as a bitmask (checked on every request).
public struct RoleSet: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ role: Role) { self.init(rawValue: 1 << UInt8(Role.allCases.firstIndex(of: role)!)) }
    public init<S: Sequence<Role>>(_ roles: S) { self = roles.reduce(into: RoleSet()) { $0.insert(RoleSet($1)) } }

    public static let shell = RoleSet(.shell)
    public static let renderer = RoleSet(.renderer)
    public static let app = RoleSet(.app)
    public static let admin = RoleSet(.admin)
    public static let all = RoleSet(Role.allCases)

    public func contains(_ role: Role) -> Bool { contains(RoleSet(role)) }
    /// The roles in `Role.allCases` order.
    public var roles: [Role] { Role.allCases.filter { contains($0) } }
    public var names: [String] { roles.map(\.rawValue) }
    public var description: String { roles.isEmpty ? "none" : names.joined(separator: ", ") }
}

/// Who may call a method.
public enum MethodAccess: Sendable, Hashable {
    /// Every connection, whatever its roles.
    case everyone
    /// Connections holding one of these roles, and administrators.
    case roles(RoleSet)

    /// Administrators only.
    public static let administrator = MethodAccess.roles([])

    /// Whether a connection holding `granted` may call it.
    public func allows(_ granted: RoleSet) -> Bool {
        switch self {
        case .everyone: return true
        case .roles(let roles): return granted.contains(.admin) || !granted.isDisjoint(with: roles)
        }
    }

    /// The roles that allow it, admin last (empty for `everyone`).
    public var allowingRoles: [Role] {
        switch self {
        case .everyone: return []
        case .roles(let roles): return roles.subtracting(.admin).roles + [.admin]
        }
    }
}

public enum RoleTable {
    /// Every method and who may call it, in MethodTable's order (the access is a column
    /// of that table).
    public static var methods: [(method: String, access: MethodAccess)] {
        MethodTable.methods.map { ($0.name, $0.access) }
    }

    /// Which roles may subscribe to which topic (a property of each `Topic`).
    public static var topics: [(topic: Topic, access: MethodAccess)] {
        Topic.allCases.map { ($0, $0.access) }
    }

    /// Who may call `method`; nil for a method that does not exist.
    public static func access(for method: String) -> MethodAccess? { MethodTable.spec(method)?.access }

    public static func access(for topic: Topic) -> MethodAccess { topic.access }

    /// The roles that may present, and so have a priority ceiling.
    public static var presentingRoles: [Role] { access(for: "present")?.allowingRoles ?? [.admin] }

    /// The error for a method (or a topic, `field` `topics[i]`) outside `granted`.
    /// `role` is the first role that would allow it.
    public static func refusal(_ what: String, field: String, access: MethodAccess, granted: RoleSet) -> RPCError {
        let allowing = access.allowingRoles
        let needs = allowing.map(\.rawValue).joined(separator: " or ")
        return RPCError(code: .roleRequired,
                        message: "\(what) needs role \(needs); this connection has \(granted)",
                        data: ["field": .string(field), "reason": .string("needs role \(needs)"),
                               "role": .string(allowing.first?.rawValue ?? Role.admin.rawValue)])
    }

    /// The table as docs/PROTOCOL.md shows it (a test checks the document holds exactly this).
    public static var markdown: String {
        var lines = ["| method | shell | renderer | app | admin |", "|---|---|---|---|---|"]
        func row(_ name: String, _ access: MethodAccess) -> String {
            let cells = Role.allCases.map { role in access.allows(RoleSet(role)) ? "✓" : "" }
            return "| \(name) | " + cells.joined(separator: " | ") + " |"
        }
        func name(_ method: String) -> String { "`\(method)`" }
        let everyone = methods.filter { $0.access == .everyone }.map { name($0.method) }
        lines.append("| " + everyone.joined(separator: ", ") + " | ✓ | ✓ | ✓ | ✓ |")
        for (method, access) in methods where access != .everyone {
            lines.append(row(name(method), access))
        }
        for (topic, access) in topics {
            lines.append(row("`subscribe` to `\(topic.rawValue)`", access))
        }
        return lines.joined(separator: "\n")
    }
}

extension RPCErrorCode {
    /// The method (or topic) is outside the connection's roles.
    public static let roleRequired = RPCErrorCode(rawValue: -32005)
}
