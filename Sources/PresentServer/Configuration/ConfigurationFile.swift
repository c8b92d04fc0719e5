// The JSON configuration file: its schema, read with ParamReader so every problem names
// its field the way protocol errors do ("limits.maxEntries: must be between 1 and 65536").
// Reading does not stop at the first problem: `presentd --check-config` lists them all.

import PresentCore
import PresentJSON
import PresentProtocol

/// One problem in a configuration file: the field it concerns and what is wrong.
public struct ConfigurationIssue: Sendable, Hashable, CustomStringConvertible {
    /// The field's path (`defaults.transition.timing.bezier[1]`); empty for the file itself.
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    init(_ error: RPCError) {
        field = error.data?["field"]?.stringValue ?? ""
        reason = error.data?["reason"]?.stringValue ?? error.message
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}

/// A configuration file that cannot be used, with every problem found in it.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let issues: [ConfigurationIssue]

    public var description: String {
        let count = issues.count == 1 ? "1 error" : "\(issues.count) errors"
        return "\(path): \(count)\n" + issues.map { "  \($0)" }.joined(separator: "\n")
    }

    /// The same on one line, for the log.
    public var summary: String {
        "\(path): " + issues.map(\.description).joined(separator: "; ")
    }
}

/// Reads a parsed configuration file onto a configuration (the defaults, usually): every
/// member is optional and replaces the setting it names.
struct ConfigurationFileReader {
    /// Every object may carry a `$comment` (JSON Schema's annotation keyword), which is
    /// ignored, so the shipped example can explain itself.
    static let commentKey = "$comment"

    private(set) var issues: [ConfigurationIssue] = []
    /// `socket.path`, when given: it ranks below --socket and $PRESENTD_SOCKET, so the
    /// caller resolves it (`ConfigurationSource`).
    private(set) var socketPath: String?
    /// Timing curves and the status bar are read as the protocol reads them.
    private static let decoder = RequestDecoder()

    /// Applies `json` to `configuration`; problems are collected in `issues`, and a field
    /// with a problem leaves its setting unchanged.
    mutating func read(_ json: JSONValue, into configuration: inout ServerConfiguration) {
        guard let root = attempt({ () throws(RPCError) in try ParamReader(json, path: "") }) else {
            issues = [ConfigurationIssue(field: "", reason: "expected a JSON object, got \(json.typeName)")]
            return
        }
        check(root, allowed: Set(ServerConfiguration.settingNames(in: nil)).union([
            "socket", "limits", "container", "statusBar", "defaults", "outputs", "roles"]))
        readSettings(root, section: nil, into: &configuration)
        if let socket = section(root, "socket") { readSocket(socket, into: &configuration) }
        if let limits = section(root, "limits") { readLimits(limits, into: &configuration) }
        if let container = section(root, "container") { readContainer(container, into: &configuration) }
        if let bar = section(root, "statusBar") {
            let known = check(bar, allowed: ["style", "hidden"])
            set(&configuration.stack.baseStatusBar) { () throws(RPCError) in try Self.decoder.statusBar(known) }
        }
        if let defaults = section(root, "defaults") { readDefaults(defaults, into: &configuration) }
        readOutputs(root, into: &configuration)
        readRoles(root, into: &configuration)
        crossCheck(configuration)
    }

    private mutating func readSocket(_ p: ParamReader, into c: inout ServerConfiguration) {
        check(p, allowed: Set(["path"] + ServerConfiguration.settingNames(in: "socket")))
        // The path is not a row: where presentd listens is chosen by precedence
        // (ConfigurationSource: --socket, $PRESENTD_SOCKET, this, the default).
        let path = attempt { () throws(RPCError) in
            try p.optionalField("path").map { v throws(RPCError) in
                let path = try v.string(maxBytes: 107)
                guard path.hasPrefix("/") else { throw v.invalid("must be an absolute path") }
                return path
            }
        }
        if let path { socketPath = path }
        readSettings(p, section: "socket", into: &c)
    }

    /// The table's settings of one section (Settings.swift).
    private mutating func readSettings(_ p: ParamReader, section: String?, into c: inout ServerConfiguration) {
        for setting in ServerConfiguration.settings where setting.section == section {
            if let apply = attempt({ () throws(RPCError) in try setting.read(from: p) }) ?? nil { apply(&c) }
        }
    }

    private mutating func readLimits(_ p: ParamReader, into c: inout ServerConfiguration) {
        check(p, allowed: Set(ServerConfiguration.settingNames(in: "limits")))
        readSettings(p, section: "limits", into: &c)
        // A smaller maxEntries alone brings the per-client default down with it; both given
        // and contradictory is an error (crossCheck).
        if !p.contains("maxEntriesPerClient") { c.maxEntriesPerClient = min(c.maxEntriesPerClient, c.maxEntries) }
    }

    /// `outputs`: screens besides main, each exactly as `addOutput` takes it (the same
    /// decoder reads both, so the file and the protocol cannot disagree).
    private mutating func readOutputs(_ p: ParamReader, into c: inout ServerConfiguration) {
        let others = 0...(c.limits.maxOutputs - 1)
        guard let list = attempt({ () throws(RPCError) in try p.optionalField("outputs")?.array(count: others) }) ?? nil
        else { return }
        var outputs: [OutputDefinition] = []
        for element in list {
            do {
                guard case .addOutput(let output) = try Self.decoder.decode(method: "addOutput", params: element.value)
                else { continue }
                guard output.name != Screen.mainName, !outputs.contains(where: { $0.name == output.name }) else {
                    issues.append(ConfigurationIssue(field: "\(element.path).name",
                            reason: "\"\(output.name)\" is defined twice (main always exists)"))
                    continue
                }
                outputs.append(output)
            } catch {
                let issue = ConfigurationIssue(error)
                issues.append(
                    ConfigurationIssue(
                        field: element.path + (issue.field.isEmpty ? "" : "." + issue.field), reason: issue.reason))
            }
        }
        c.outputs = outputs
    }

    private mutating func readContainer(_ p: ParamReader, into c: inout ServerConfiguration) {
        check(p, allowed: ["width", "height", "safeArea", "scale", "horizontalSizeClass", "verticalSizeClass"])
        let size = 1...c.limits.maxDimension
        let width = attempt { () throws(RPCError) in try p.optionalDouble("width", range: size, unit: "points") }
        let height = attempt { () throws(RPCError) in try p.optionalDouble("height", range: size, unit: "points") }
        var safeArea = c.container.safeArea
        if let insets = section(p, "safeArea") {
            check(insets, allowed: ["top", "left", "bottom", "right"])
            let sides: [(String, WritableKeyPath<EdgeInsets, Double>)] =
                [("top", \.top), ("left", \.left), ("bottom", \.bottom), ("right", \.right)]
            for (name, side) in sides {
                set(&safeArea[keyPath: side]) { () throws(RPCError) in
                    try insets.optionalDouble(name, range: 0...c.limits.maxDimension, unit: "points") }
            }
        }
        var scale = c.container.scale
        set(&scale) { () throws(RPCError) in try p.optionalDouble("scale", range: 0.1...16) }
        // Size classes not given are derived from the size, as setContainer does.
        let horizontal = attempt { () throws(RPCError) in
            try p.optionalEnumValue("horizontalSizeClass", as: SizeClass.self)
        }
        let vertical = attempt { () throws(RPCError) in try p.optionalEnumValue("verticalSizeClass", as: SizeClass.self)
        }
        let current = c.container.size
        c.container = Container(
            size: Size(width: (width ?? nil) ?? current.width, height: (height ?? nil) ?? current.height),
                                safeArea: safeArea, scale: scale,
                                horizontalSizeClass: horizontal ?? nil, verticalSizeClass: vertical ?? nil)
    }

    private mutating func readDefaults(_ p: ParamReader, into c: inout ServerConfiguration) {
        check(p, allowed: ["transition", "containerChange", "keyboard", "swipe"])
        let motions:
            [(String, WritableKeyPath<StackConfiguration, Double>, WritableKeyPath<StackConfiguration, TimingCurve>)] =
                [
            ("transition", \.transitionDuration, \.transitionTiming),
            ("containerChange", \.containerChangeDuration, \.containerChangeTiming),
            ("keyboard", \.keyboardDuration, \.keyboardTiming),
        ]
        for (name, duration, timing) in motions {
            guard let motion = section(p, name) else { continue }
            check(motion, allowed: ["duration", "timing"])
            set(&c.stack[keyPath: duration]) { () throws(RPCError) in
                try motion.optionalDouble("duration", range: 0...ServerConfiguration.longestDuration, unit: "seconds") }
            set(&c.stack[keyPath: timing]) { () throws(RPCError) in
                try motion.optionalField("timing").map(Self.decoder.timing)
            }
        }
        if let swipe = section(p, "swipe") {
            check(swipe, allowed: ["completionFraction", "velocityThreshold"])
            set(&c.stack.swipeCompletionFraction) { () throws(RPCError) in
                try swipe.optionalDouble("completionFraction", range: 0.01...1)
            }
            set(&c.stack.swipeVelocityThreshold) { () throws(RPCError) in
                try swipe.optionalDouble("velocityThreshold", range: 0...100_000, unit: "points per second") }
        }
    }

    /// Rules between fields, checked once each field is known to be valid on its own.
    private mutating func crossCheck(_ c: ServerConfiguration) {
        if c.maxEntriesPerClient > c.maxEntries {
            issues.append(ConfigurationIssue(field: "limits.maxEntriesPerClient",
                    reason: "must be at most limits.maxEntries (\(c.maxEntries)), got \(c.maxEntriesPerClient)"))
        }
        let durations: [(String, Double)] = [("defaults.transition.duration", c.stack.transitionDuration),
                                             ("defaults.containerChange.duration", c.stack.containerChangeDuration),
                                             ("defaults.keyboard.duration", c.stack.keyboardDuration)]
        for (field, value) in durations where value > c.limits.maxDuration {
            issues.append(
                ConfigurationIssue(
                    field: field, reason: "must be at most limits.maxDuration (\(c.limits.maxDuration) s), got \(value)"
                ))
        }
    }

    // MARK: Collecting problems

    /// Records a problem found by a rule of its own (not a field reader's error).
    mutating func recordIssue(field: String, reason: String) {
        issues.append(ConfigurationIssue(field: field, reason: reason))
    }

    /// Runs one field's reader; a failure is recorded and yields nil.
    mutating func attempt<T>(_ read: () throws(RPCError) -> T) -> T? {
        do {
            return try read()
        } catch {
            issues.append(ConfigurationIssue(error))
            return nil
        }
    }

    /// Replaces `setting` with the field's value when it is present and valid.
    mutating func set<T>(_ setting: inout T, _ read: () throws(RPCError) -> T?) {
        if let value = attempt(read), let value { setting = value }
    }

    /// A nested object member (nil when absent, null or invalid).
    mutating func section(_ p: ParamReader, _ key: String) -> ParamReader? {
        attempt { () throws(RPCError) in try p.optionalObject(key) } ?? nil
    }

    /// Records every member not in `allowed` (a misspelt setting must not be ignored), and
    /// returns `p` with only the allowed members, for readers that refuse unknown ones.
    @discardableResult
    mutating func check(_ p: ParamReader, allowed: Set<String>) -> ParamReader {
        var known = p.object
        for key in p.object.keys where !allowed.contains(key) {
            known[key] = nil
            guard key != Self.commentKey else { continue }
            let hint = allowed.first { $0.lowercased() == key.lowercased() }.map { "did you mean \"\($0)\"?" }
                ?? "known here: " + allowed.sorted().joined(separator: ", ")
            issues.append(ConfigurationIssue(field: p.path(for: key), reason: "unknown setting; \(hint)"))
        }
        return (try? ParamReader(.object(known), path: p.path)) ?? p
    }
}

