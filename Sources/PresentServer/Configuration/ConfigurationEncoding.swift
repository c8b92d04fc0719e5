// The configuration as JSON in the file's own schema: what `presentd --print-config`
// prints (and what a configuration file may contain), and what a reload compares.

import PresentCore
import PresentJSON
import PresentProtocol

extension ServerConfiguration {
    /// Every setting the file can hold, with its effective value. Reading this back as a
    /// configuration file gives the same configuration.
    public var fileJSON: JSONValue {
        let defaults: JSONValue = [
            "transition": Self.motion(stack.transitionDuration, stack.transitionTiming),
            "containerChange": Self.motion(stack.containerChangeDuration, stack.containerChangeTiming),
            "keyboard": Self.motion(stack.keyboardDuration, stack.keyboardTiming),
            "swipe": ["completionFraction": .double(stack.swipeCompletionFraction),
                      "velocityThreshold": .double(stack.swipeVelocityThreshold)],
        ]
        var socket = settingsJSON(in: "socket")
        socket["path"] = .string(socketPath)
        var file: JSONObject = ["socket": .object(socket)]
        for (key, value) in settingsJSON(in: nil) { file[key] = value }
        let rest: JSONObject = [
            "limits": .object(settingsJSON(in: "limits")),
            "container": [
                "width": .double(container.size.width), "height": .double(container.size.height),
                "safeArea": CoreEncoding.insets(container.safeArea), "scale": .double(container.scale),
                "horizontalSizeClass": .string(container.horizontalSizeClass.rawValue),
                "verticalSizeClass": .string(container.verticalSizeClass.rawValue),
            ],
            "statusBar": CoreEncoding.statusBar(stack.baseStatusBar),
            "defaults": defaults,
            "outputs": .array(outputs.map(\.fileJSON)),
            "roles": roles?.fileJSON ?? .null,
        ]
        for (key, value) in rest { file[key] = value }
        return .object(file)
    }

    private static func motion(_ duration: Double, _ timing: TimingCurve) -> JSONValue {
        ["duration": .double(duration), "timing": fileTiming(timing)]
    }

    /// A timing curve as the file (and `present`) accepts it: the protocol's encoding, but
    /// `system` by name and a spring without its derived `duration`.
    static func fileTiming(_ timing: TimingCurve) -> JSONValue {
        if timing == .system { return "system" }
        guard case .object(var outer) = CoreEncoding.timing(timing),
              case .object(var spring)? = outer["spring"] else { return CoreEncoding.timing(timing) }
        spring["duration"] = nil
        outer["spring"] = .object(spring)
        return .object(outer)
    }

    /// The settings that take effect only when the daemon starts, one row per member of
    /// the file: the socket, the clock, the initial container and screens, where the stack
    /// is kept, and the settings table's restart-only rows. A reload logs that they wait,
    /// and keeps their running values (`reloaded(with:)`).
    static let restartOnly: [RestartOnly] = [
        RestartOnly(key: "socket.path") { $0.socketPath = $1.socketPath },
        RestartOnly(key: "container") { $0.container = $1.container },
        RestartOnly(key: "outputs") { $0.outputs = $1.outputs },
    ] + settings.filter { $0.applies == .atRestart }.map { setting in
        RestartOnly(key: setting.key) { setting.keep(from: $1, in: &$0) }
    }

    /// What a reload puts in force: `fresh`, with this configuration's (the running one's)
    /// values of everything only a start applies — the restart-only settings, and what the
    /// process was started with rather than what the file says (an adopted socket,
    /// whether it handles signals).
    func reloaded(with fresh: ServerConfiguration) -> ServerConfiguration {
        var next = fresh
        for part in Self.restartOnly { part.keep(&next, self) }
        next.inheritedListener = inheritedListener
        next.handleSignals = handleSignals
        return next
    }
}

/// A member of the configuration file that takes effect only when the daemon starts.
struct RestartOnly: Sendable {
    /// Its dotted path in the file (`socket.path`); an object's covers its members too.
    let key: String
    /// Copies its running value (`running`) into the configuration a reload makes (`next`).
    let keep: @Sendable (_ next: inout ServerConfiguration, _ running: ServerConfiguration) -> Void

    /// Whether a changed path of the file (`JSONValue.differences`) is this member or
    /// lies inside it (`container.width` in `container`; `clock` is not `clockRate`).
    func covers(_ path: String) -> Bool {
        path == key || path.hasPrefix(key + ".")
    }
}

extension JSONValue {
    /// Indented JSON for people (two spaces per level), members in order, with a final newline.
    public var prettyPrinted: String {
        var out = ""
        appendPretty(to: &out, indent: "")
        return out + "\n"
    }

    private func appendPretty(to out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (i, (key, value)) in members.enumerated() {
                out += inner + JSONValue.string(key).serializedString + ": "
                value.appendPretty(to: &out, indent: inner)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        case .array(let elements) where !elements.isEmpty && elements.contains(where: \.isContainer):
            out += "[\n"
            for (i, element) in elements.enumerated() {
                out += inner
                element.appendPretty(to: &out, indent: inner)
                out += i == elements.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        default:
            // Scalars, empty containers and flat arrays (a Bézier's four numbers) on one line.
            out += serializedString
        }
    }

    private var isContainer: Bool {
        switch self {
        case .object, .array: return true
        default: return false
        }
    }

    /// The settings that differ from `old`, as (path, old value, new value): objects are
    /// compared member by member, anything else as a whole (`defaults.transition.timing`).
    func differences(from old: JSONValue, prefix: String = "") -> [(path: String, old: JSONValue?, new: JSONValue?)] {
        guard case .object(let new) = self, case .object(let previous) = old else {
            return self == old ? [] : [(prefix, old, self)]
        }
        let keys = new.keys + previous.keys.filter { new[$0] == nil }
        return keys.flatMap { key -> [(path: String, old: JSONValue?, new: JSONValue?)] in
            let path = prefix.isEmpty ? key : "\(prefix).\(key)"
            switch (previous[key], new[key]) {
            case (let a?, let b?): return b.differences(from: a, prefix: path)
            case (let a, let b): return [(path, a, b)]
            }
        }
    }
}

extension StateFile {
    /// null for the default place, else the path or "none".
    var fileJSON: JSONValue {
        switch self {
        case .automatic: return .null
        case .path(let path): return .string(path)
        case .none: return "none"
        }
    }
}

extension OutputDefinition {
    /// A screen as the configuration file (and `addOutput`) takes it.
    var fileJSON: JSONValue {
        var o: JSONObject = [
            "name": .string(name), "width": .double(container.width), "height": .double(container.height)
        ]
        if let safeArea = container.safeArea { o["safeArea"] = CoreEncoding.insets(safeArea) }
        if let scale = container.scale { o["scale"] = .double(scale) }
        if let h = container.horizontalSizeClass { o["horizontalSizeClass"] = .string(h.rawValue) }
        if let v = container.verticalSizeClass { o["verticalSizeClass"] = .string(v.rawValue) }
        if let fps { o["fps"] = .int(Int64(fps)) }
        return .object(o)
    }
}
