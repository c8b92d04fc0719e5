// Roles: who may call which method. One table, `RoleTable.methods`, says it; the daemon's
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
// `admin` may call every method, so the table lists the other roles only; a method listed
// with no role is the administrator's alone. A method the decoder knows that is missing
// from the table is the administrator's alone too (fail closed), and a test keeps the
// table complete.

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
    /// Every method, in the order of docs/PROTOCOL.md, then the methods other parts of the
    /// daemon are adding (`explain`, `rpc.discover`, `setMode`, `stats`, `recordDump`): they
    /// are gated from the moment they exist.
    public static let methods: [(method: String, access: MethodAccess)] = [
        ("hello", .everyone),
        ("ping", .everyone),
        ("present", .roles(.app)),
        ("dismiss", .roles(.app)),
        ("dismissAll", .roles(.app)),
        ("stack", .everyone),
        ("subscribe", .roles([.app, .renderer])),   // which topics: `topics` below
        ("unsubscribe", .everyone),
        ("setContainer", .roles(.shell)),
        ("keyboard", .roles(.shell)),
        ("tap", .roles(.shell)),
        ("swipe", .roles(.shell)),
        ("advance", .roles([])),
        ("sync", .everyone),
        ("update", .roles(.app)),
        ("activate", .roles(.shell)),
        ("key", .roles(.shell)),
        ("focus", .roles(.shell)),
        ("defineContext", .roles(.shell)),
        ("removeContext", .roles(.shell)),
        ("addOutput", .roles(.shell)),
        ("removeOutput", .roles(.shell)),
        ("outputs", .everyone),
        // Not in this version yet.
        ("explain", .everyone),
        ("rpc.discover", .everyone),
        ("setMode", .roles(.shell)),
        ("stats", .roles([])),
        ("recordDump", .roles([])),
    ]

    /// Which roles may subscribe to which topic (`subscribe` itself needs app or renderer).
    public static let topics: [(topic: Topic, access: MethodAccess)] = [
        (.frames, .roles(.renderer)),
        (.lifecycle, .roles([.app, .renderer])),
        (.stack, .roles(.renderer)),
        (.statusBar, .roles(.renderer)),
        (.animations, .roles(.renderer)),
        (.modes, .roles(.renderer)),
    ]

    private static let byMethod: [String: MethodAccess] = Dictionary(uniqueKeysWithValues: methods.map { ($0.method, $0.access) })

    /// Who may call `method`; nil for a method the table does not list.
    public static func access(for method: String) -> MethodAccess? { byMethod[method] }

    public static func access(for topic: Topic) -> MethodAccess {
        topics.first { $0.topic == topic }?.access ?? .roles([])
    }

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
        // Methods this version does not have yet are marked, so the table can list them.
        func name(_ method: String) -> String { "`\(method)`" + (Request.methods.contains(method) ? "" : "¹") }
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
