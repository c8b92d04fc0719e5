// The settings, once: each row says where the setting lives in the configuration file, its
// command-line flag, its bounds and unit, whether a reload (SIGHUP) applies it, and whether
// `hello` reports it. The file reader, `--print-config`, the command line, its
// `--help`, `hello`'s limits and the reload's restart-only list all walk this table, so a
// name or a bound cannot differ between them.

import PresentCore
import PresentJSON
import PresentProtocol

/// One setting of the daemon: a number, on/off, or a name (Setting.Names).
public struct Setting: Sendable {
    /// Where the value lives in a ServerConfiguration, and the values it may take.
    public enum Value: Sendable {
        case int(any WritableKeyPath<ServerConfiguration, Int> & Sendable, ClosedRange<Int>)
        case double(any WritableKeyPath<ServerConfiguration, Double> & Sendable, ClosedRange<Double>)
        case bool(any WritableKeyPath<ServerConfiguration, Bool> & Sendable)
        case names(Names)
    }

    /// A setting whose value is a name: one of a few (the clock, the log level) or any that
    /// passes its own check (a group, a path). What `null` means in the file, if anything,
    /// is the setting's own.
    public struct Names: Sendable {
        /// The names it takes when they are few (listed by `--help` and in refusals); nil:
        /// any name `apply` accepts, described by `rule`.
        public let choices: [String]?
        public let rule: String
        public let metavariable: String
        /// A name it takes (the first choice, or an example of the rule).
        public let example: String
        /// What a name (nil: the file's `null`) puts in force, or why it is refused.
        let apply: @Sendable (String?) -> Result<@Sendable (inout ServerConfiguration) -> Void, Refusal>
        /// The value in a configuration, as the file writes it.
        let json: @Sendable (ServerConfiguration) -> JSONValue
        let keep: @Sendable (ServerConfiguration, inout ServerConfiguration) -> Void

        /// Why a name is not one the setting takes.
        struct Refusal: Error { let reason: String }

        /// One of an enumeration's names; `null` is refused.
        static func choice<E: RawRepresentable<String> & CaseIterable & Sendable>(
            _ path: any WritableKeyPath<ServerConfiguration, E> & Sendable, metavariable: String
        ) -> Names {
            choice(path, metavariable: metavariable, cases: Array(E.allCases), name: \.rawValue)
        }

        /// One of `cases`, each known by `name`; `null` is refused.
        static func choice<E: Sendable>(
            _ path: any WritableKeyPath<ServerConfiguration, E> & Sendable, metavariable: String,
                                        cases: [E], name: @escaping @Sendable (E) -> String) -> Names {
            let names = cases.map(name)
            return Names(
                choices: names, rule: "one of \(names.joined(separator: ", "))", metavariable: metavariable,
                example: names[0],
                         apply: { text in
                             guard let text, let index = names.firstIndex(of: text) else {
                        return .failure(
                            Refusal(reason: "expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", "))"))
                             }
                             let value = cases[index]
                             return .success { $0[keyPath: path] = value }
                         },
                         json: { .string(name($0[keyPath: path])) },
                         keep: { running, next in next[keyPath: path] = running[keyPath: path] })
        }

        /// A group name (not empty; at most 64 bytes, as groupadd allows); `null` is none.
        static func group(_ path: any WritableKeyPath<ServerConfiguration, String?> & Sendable) -> Names {
            text(path, rule: "a group name", metavariable: "NAME", example: "video", maxBytes: 64, absent: nil,
                make: {
                    $0.isEmpty
                        ? .failure(Refusal(reason: "must not be empty (omit it or use null for none)")) : .success($0)
                },
                 json: { $0.map { .string($0) } ?? .null })
        }

        /// A name of at most `maxBytes` that `check` accepts (it returns why not); `null` (and
        /// the flag's `none`, when `noneMeans` is given) is `absent`.
        static func text<T: Sendable>(_ path: any WritableKeyPath<ServerConfiguration, T> & Sendable, rule: String,
                                      metavariable: String, example: String, maxBytes: Int, absent: T,
                                      make: @escaping @Sendable (String) -> Result<T, Refusal>,
                                      json: @escaping @Sendable (T) -> JSONValue) -> Names {
            Names(choices: nil, rule: rule, metavariable: metavariable, example: example,
                  apply: { text in
                      guard let text else { return .success { $0[keyPath: path] = absent } }
                      guard text.utf8.count <= maxBytes else {
                        return .failure(
                            Refusal(reason: "must be at most \(maxBytes) bytes long, got \(text.utf8.count)"))
                      }
                      return make(text).map { value in { $0[keyPath: path] = value } }
                  },
                  json: { json($0[keyPath: path]) },
                  keep: { running, next in next[keyPath: path] = running[keyPath: path] })
        }
    }

    /// When a changed value takes effect.
    public enum Applies: Sendable {
        /// At once, on a reload.
        case live
        /// At the next start (a reload logs that it waits).
        case atRestart
    }

    /// The section of the file (nil: the top level) and the member's name; the name is
    /// also how `hello` reports it.
    public let section: String?
    public let name: String
    /// Other spellings the file accepts (names that were once written differently).
    public let formerNames: [String]
    /// The command-line flag, if there is one.
    public let flag: String?
    public let value: Value
    /// For error messages and `--help`: "seconds", "bytes".
    public let unit: String?
    public let applies: Applies
    /// Reported in `hello`'s `limits`.
    public let inHello: Bool
    /// One line for `--help`.
    public let help: String

    /// The dotted path in the file: `limits.maxEntries`, `fps`.
    public var key: String { section.map { "\($0).\(name)" } ?? name }

    /// The value in `configuration`, as JSON.
    public func json(in configuration: ServerConfiguration) -> JSONValue {
        switch value {
        case .int(let path, _): return .int(Int64(configuration[keyPath: path]))
        case .double(let path, _): return .double(configuration[keyPath: path])
        case .bool(let path): return .bool(configuration[keyPath: path])
        case .names(let names): return names.json(configuration)
        }
    }

    /// Copies the value in `running` into `next` (a reload keeps a restart-only one).
    func keep(from running: ServerConfiguration, in next: inout ServerConfiguration) {
        switch value {
        case .int(let path, _): next[keyPath: path] = running[keyPath: path]
        case .double(let path, _): next[keyPath: path] = running[keyPath: path]
        case .bool(let path): next[keyPath: path] = running[keyPath: path]
        case .names(let names): names.keep(running, &next)
        }
    }

    /// Reads the member (or a former spelling of it) from `section`, checking the bounds;
    /// nil when absent.
    func read(from section: ParamReader) throws(RPCError) -> ((inout ServerConfiguration) -> Void)? {
        guard let member = ([name] + formerNames).first(where: section.contains) else { return nil }
        switch value {
        case .int(let path, let range):
            guard let n = try section.optionalInt(member, range: range, unit: unit) else { return nil }
            return { $0[keyPath: path] = n }
        case .double(let path, let range):
            guard let d = try section.optionalDouble(member, range: range, unit: unit) else { return nil }
            return { $0[keyPath: path] = d }
        case .bool(let path):
            guard let b = try section.optionalBool(member) else { return nil }
            return { $0[keyPath: path] = b }
        case .names(let names):
            let value = try section.field(member)   // optionalField would read null as absent
            let text: String? = section.value(member)?.isNull == true ? nil : try value.string()
            switch names.apply(text) {
            case .success(let apply): return apply
            case .failure(let refusal): throw value.invalid(refusal.reason)
            }
        }
    }

    /// Parses the flag's argument, checking the bounds.
    public func parse(_ text: String) -> (@Sendable (inout ServerConfiguration) -> Void)? {
        switch value {
        case .int(let path, let range):
            guard let n = Int(text), range.contains(n) else { return nil }
            return { $0[keyPath: path] = n }
        case .double(let path, let range):
            guard let d = Double(text), d.isFinite, range.contains(d) else { return nil }
            return { $0[keyPath: path] = d }
        case .bool(let path):
            guard let b = ["on": true, "off": false][text] else { return nil }
            return { $0[keyPath: path] = b }
        case .names(let names):
            return try? names.apply(text).get()
        }
    }

    /// "a whole number from 1 to 65536", for errors and `--help`.
    public var bounds: String {
        switch value {
        case .int(_, let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .double(_, let range):
            return "a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        case .bool: return "on or off"
        case .names(let names): return names.rule
        }
    }

    /// "N" or "S" (seconds) after the flag in `--help`.
    public var metavariable: String {
        if case .int = value { return "N" }
        if case .bool = value { return "ON|OFF" }
        if case .names(let names) = value { return names.metavariable }
        return unit?.hasPrefix("seconds") == true ? "S" : "X"
    }

    /// "1-240", for `--help`.
    public var shortBounds: String {
        switch value {
        case .int(_, let range): return "\(range.lowerBound)-\(range.upperBound)"
        case .double(_, let range): return "\(Self.format(range.lowerBound))-\(Self.format(range.upperBound))"
        case .bool: return "on|off"
        case .names(let names): return names.choices?.joined(separator: "|") ?? ""   // a rule is the help's to say
        }
    }

    private static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}

extension ServerConfiguration {
    /// Every numeric setting, in the order `--print-config` writes them.
    public static let settings: [Setting] = [
        Setting(section: nil, name: "fps", formerNames: [], flag: "--fps", value: .int(\.fps, ProtocolLimits.fpsRange),
                unit: "frames per second", applies: .live, inHello: false,
                help: "frames per second while anything moves (default 60)"),
        Setting(
            section: "socket", name: "group", formerNames: [], flag: "--group", value: .names(.group(\.socketGroup)),
                unit: nil, applies: .atRestart, inHello: false,
                help: "let this group connect (socket mode 0660; default 0600)"),
        Setting(section: nil, name: "clock", formerNames: [], flag: "--clock",
                value: .names(.choice(\.clock, metavariable: "MODE")), unit: nil, applies: .atRestart, inHello: false,
                help: "how frame time advances: manual moves only by `advance` (default monotonic)"),
        Setting(section: nil, name: "dismissPolicy", formerNames: [], flag: "--dismiss-policy",
                value: .names(.choice(\.dismissPolicy, metavariable: "P")), unit: nil, applies: .live, inHello: false,
            help:
                "who may dismiss another client's presentation: only its owner, the same uid or an administrator "
                + "(default user), or anyone"
        ),
        Setting(
            section: nil, name: "adminGroup", formerNames: [], flag: "--admin-group",
            value: .names(.group(\.adminGroup)),
            unit: nil, applies: .live, inHello: false, help: "members of this group are administrators (with root)"),
        // Its flag says the exception (--no-root-admin, presentd/main.swift): root is one by default.
        Setting(section: nil, name: "rootIsAdmin", formerNames: [], flag: nil, value: .bool(\.rootIsAdmin),
                unit: nil, applies: .live, inHello: false, help: "root is an administrator (default true)"),
        Setting(section: nil, name: "logLevel", formerNames: [], flag: "--log-level",
                value: .names(.choice(\.log.level, metavariable: "LEVEL", cases: LogLevel.allCases, name: \.name)),
                unit: nil, applies: .live, inHello: false, help: "the least severe message logged (default notice)"),
        Setting(section: nil, name: "stateFile", formerNames: [], flag: "--state-file",
                value: .names(.text(\.stateFile, rule: "an absolute path, or none", metavariable: "PATH",
                                    example: "/var/lib/presentd/state.json", maxBytes: 4096,
                                    absent: .automatic,
                                    make: { path in
                                        if path == "none" { return .success(.none) }
                                        guard path.hasPrefix("/") else {
                            return .failure(
                                .init(reason: "must be an absolute path, \"none\", or null for the default"))
                                        }
                                        return .success(.path(path))
                                    },
                                    json: \.fileJSON)),
                unit: nil, applies: .atRestart, inHello: false,
            help:
                "an absolute path where the stack is kept across restarts (default: "
                + "$RUNTIME_DIRECTORY/presentd-state.json, else beside the socket), or none"
        ),
        Setting(section: nil, name: "shouldDismissTimeout", formerNames: [], flag: nil,
                value: .double(\.shouldDismissTimeout, 0...60), unit: "seconds", applies: .live, inHello: true,
                help: "how long an owner may take to answer shouldDismiss"),
        Setting(section: nil, name: "exitIdleTime", formerNames: [], flag: "--exit-idle-time",
                value: .double(\.exitIdleTime, 0...86400), unit: "seconds; 0 = never", applies: .live, inHello: false,
            help: "when socket-activated: exit after this long with no clients and an empty stack (default 0: never)"),
        Setting(section: nil, name: "resumeGrace", formerNames: [], flag: "--resume-grace",
                value: .double(\.resumeGrace, 0...86400), unit: "seconds", applies: .atRestart, inHello: true,
                help: "how long restored presentations wait for their owners to resume them (default 10)"),
        Setting(section: "limits", name: "maxConnections", formerNames: [], flag: "--max-connections",
                value: .int(\.maxConnections, 1...65536), unit: nil, applies: .live, inHello: true,
                help: "simultaneous connections (default 1024)"),
        // The file once spelt it maxConnectionsPerUID, unlike hello: both are read.
        Setting(section: "limits", name: "maxConnectionsPerUid", formerNames: ["maxConnectionsPerUID"],
                flag: "--max-connections-per-uid", value: .int(\.maxConnectionsPerUID, 1...65536), unit: nil,
                applies: .live, inHello: true, help: "simultaneous connections from one uid (default 256)"),
        Setting(section: "limits", name: "maxEntries", formerNames: [], flag: nil, value: .int(\.maxEntries, 1...65536),
                unit: nil, applies: .live, inHello: true, help: "presentations on the stacks and in the queues"),
        Setting(section: "limits", name: "maxEntriesPerClient", formerNames: [], flag: nil,
                value: .int(\.maxEntriesPerClient, 1...65536), unit: nil, applies: .live, inHello: true,
                help: "presentations of one connection"),
        Setting(section: "limits", name: "maxBatch", formerNames: [], flag: nil, value: .int(\.maxBatch, 1...1024),
                unit: nil, applies: .live, inHello: true, help: "requests in one batch"),
        Setting(section: "limits", name: "maxDeferredReplies", formerNames: [], flag: nil,
                value: .int(\.maxDeferredReplies, 1...1024), unit: nil, applies: .live, inHello: true,
                help: "gestures of one connection waiting for an owner's answer"),
        Setting(section: "limits", name: "maxLineBytes", formerNames: [], flag: nil,
                value: .int(\.maxLineBytes, 1024...(64 << 20)), unit: "bytes", applies: .live, inHello: true,
                help: "longest request line"),
        Setting(section: "limits", name: "maxQueuedBytes", formerNames: [], flag: nil,
                value: .int(\.maxQueuedBytes, (64 << 10)...(1 << 30)), unit: "bytes", applies: .live, inHello: true,
                help: "replies and events waiting for a slow reader before it is disconnected"),
        Setting(section: "limits", name: "maxDuration", formerNames: [], flag: nil,
            value: .double(\.limits.maxDuration, 0.1...longestDuration), unit: "seconds", applies: .live, inHello: true,
                help: "longest transition, keyboard or container change"),
        Setting(section: "limits", name: "maxNameLength", formerNames: [], flag: nil,
                value: .int(\.limits.maxNameLength, 1...4096), unit: "characters", applies: .live, inHello: true,
                help: "ids, kinds, labels and client names"),
        Setting(section: "limits", name: "maxOutputs", formerNames: [], flag: nil,
                value: .int(\.limits.maxOutputs, 1...64), unit: "screens", applies: .live, inHello: true,
                help: "screens, main included"),
        // The content limits may be lowered, never raised: a renderer keeps an entry's
        // buttons and fields in arrays of the default sizes, and lays out texts of the
        // default lengths.
        Setting(section: "limits", name: "maxTitleLength", formerNames: [], flag: nil,
            value: .int(\.limits.maxTitleLength, 1...ProtocolLimits().maxTitleLength), unit: "characters",
            applies: .live,
                inHello: true, help: "a title, an action's title, a placeholder, an accessibility label"),
        Setting(section: "limits", name: "maxMessageLength", formerNames: [], flag: nil,
            value: .int(\.limits.maxMessageLength, 1...ProtocolLimits().maxMessageLength), unit: "characters",
            applies: .live,
                inHello: true, help: "a message, a hint, a field's value, an icon's path"),
        Setting(section: "limits", name: "maxContentIDLength", formerNames: [], flag: nil,
            value: .int(\.limits.maxContentIDLength, 1...ProtocolLimits().maxContentIDLength), unit: "characters",
            applies: .live,
                inHello: true, help: "an action's or a field's id"),
        Setting(section: "limits", name: "maxActions", formerNames: [], flag: nil,
                value: .int(\.limits.maxActions, 0...ProtocolLimits().maxActions), unit: nil, applies: .live,
                inHello: true, help: "buttons of one entry"),
        Setting(section: "limits", name: "maxFields", formerNames: [], flag: nil,
                value: .int(\.limits.maxFields, 0...ProtocolLimits().maxFields), unit: nil, applies: .live,
                inHello: true, help: "text fields of one entry"),
        Setting(section: "limits", name: "maxAutoDismiss", formerNames: [], flag: nil,
            value: .double(\.limits.maxAutoDismiss, 1...ProtocolLimits().maxAutoDismiss), unit: "seconds",
            applies: .live,
                inHello: true, help: "longest auto-dismiss countdown"),
        Setting(
            section: nil, name: "reducedMotion", formerNames: [], flag: "--reduced-motion",
            value: .bool(\.reducedMotion),
                unit: nil, applies: .atRestart, inHello: false,
            help:
                "every screen starts with reduced motion: cross-fades, no overshoot (default off; setMode changes a "
                + "screen's)"
        ),
        Setting(section: nil, name: "recorderBytes", formerNames: [], flag: "--recorder-bytes",
                value: .int(\.recorderBytes, 0...(64 << 20)), unit: "bytes; 0 = off", applies: .live, inHello: false,
            help:
                "the flight recorder's ring of requests and connection events, bytes (a dump is somewhat larger; "
                + "default 4194304; 0: off)"
        )
    ]

    /// The longest `limits.maxDuration` may be, and so any default duration.
    public static let longestDuration = 3600.0

    /// The members of a file section that the table holds (nil: the top level).
    static func settingNames(in section: String?) -> [String] {
        settings.filter { $0.section == section }.flatMap { [$0.name] + $0.formerNames }
    }

    /// The setting a flag sets.
    public static func setting(flag: String) -> Setting? {
        settings.first { $0.flag == flag }
    }

    /// The table's settings of `section` with their values, as the file writes them.
    func settingsJSON(in section: String?) -> JSONObject {
        var o: JSONObject = [:]
        for setting in Self.settings where setting.section == section { o[setting.name] = setting.json(in: self) }
        return o
    }

    /// `hello`'s `limits`.
    var helloLimits: JSONValue {
        var o: JSONObject = [:]
        for setting in Self.settings where setting.inHello { o[setting.name] = setting.json(in: self) }
        return .object(o)
    }
}
