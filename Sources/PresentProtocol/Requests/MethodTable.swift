// Every method presentd answers, once: its name, who may call it (RoleTable.swift has the
// roles), the params it takes (each with its JSON type and whether it is required) and
// what it does in a line. RequestDecoder refuses any param not listed here, the daemon
// checks the caller's roles against it, `Request.methods` is this table's names, the role
// table in docs/PROTOCOL.md and `rpc.discover`'s OpenRPC document (OpenRPC.swift) are
// generated from it: none of them can drift apart. A request looks its method up here
// once; everything after works from the spec it found.

/// A param's JSON type, as JSON Schema names it.
public enum ParamType: String, Sendable, Hashable {
    case string, integer, number, boolean, object, array
}

/// One named param of a method.
public struct ParamSpec: Sendable, Hashable {
    public let name: String
    /// The JSON types it may have; empty: any JSON value.
    public let types: [ParamType]
    public let required: Bool

    static func req(_ name: String, _ types: ParamType...) -> ParamSpec {
        ParamSpec(name: name, types: types, required: true)
    }
    static func opt(_ name: String, _ types: ParamType...) -> ParamSpec {
        ParamSpec(name: name, types: types, required: false)
    }
}

/// One method: who may call it, what `rejectUnknownKeys` allows for it and what
/// rpc.discover says of it.
///
/// A class: every request looks its method up and hands the spec down the path that runs
/// it, and a struct of five references was copied with each of them counted, three times
/// a request (callgrind: 240 of a `ping`'s 16 k instructions).
public final class MethodSpec: Sendable {
    public let name: String
    /// Who may call it (`admin` always may).
    public let access: MethodAccess
    public let summary: String
    public let params: [ParamSpec]

    /// The param names the decoder accepts.
    public let paramNames: Set<String>
    /// Its position in `MethodTable.methods`: per-method figures (`stats`) are kept in an
    /// array by this index, not in a dictionary by name.
    public let index: Int

    init(_ name: String, _ access: MethodAccess, _ summary: String, _ params: [ParamSpec] = [], index: Int = 0) {
        self.name = name; self.access = access; self.summary = summary; self.params = params
        paramNames = Set(params.map(\.name))
        self.index = index
    }

    fileprivate func numbered(_ index: Int) -> MethodSpec {
        MethodSpec(name, access, summary, params, index: index)
    }
}

public enum MethodTable {
    private static let output = ParamSpec.opt("output", .string)
    /// A container's members, as setContainer and addOutput take them.
    private static let container: [ParamSpec] = [
        .req("width", .number), .req("height", .number), .opt("safeArea", .object), .opt("scale", .number),
        .opt("horizontalSizeClass", .string), .opt("verticalSizeClass", .string), .opt("layoutDirection", .string),
    ]

    /// The methods, in the order the protocol lists them (docs/PROTOCOL.md, section 5).
    public static let methods: [MethodSpec] = ([
        MethodSpec("hello", .everyone, "Introduces the client; returns the daemon's version, limits, container and capabilities.",
                   [.opt("client", .string), .opt("protocol", .integer), .opt("resume", .string)]),
        MethodSpec("ping", .everyone, "Answers {} at once."),
        MethodSpec("present", .roles(.app), "Presents (or queues) an entry on a screen's modal stack.", [
            .opt("id", .string), .opt("kind", .string), .opt("deduplicate", .boolean), .opt("content", .string, .object),
            .req("style", .string, .object), .opt("respectsSafeArea", .boolean), .opt("transition", .object),
            .opt("dismissTransition", .object), .opt("background", .object), .opt("cornerRadius", .number),
            .opt("shadow", .object), .opt("dismissOnTap", .boolean), .opt("dismissOnSwipe", .boolean),
            .opt("confirmDismiss", .boolean), .opt("keyboard", .string), .opt("statusBar", .object),
            .opt("adaptive", .string, .object), .opt("priority", .integer), .opt("precedence", .string),
            .opt("dimsPresenterTint", .boolean), .opt("preferredContentSize", .object), .opt("autoDismiss", .object),
            .opt("dismissOnEscape", .boolean), .opt("level", .string), .opt("interaction", .string),
            .opt("position", .string), .opt("margin", .number), .opt("context", .string), output,
            .opt("droppable", .boolean), .opt("dryRun", .boolean),
        ]),
        MethodSpec("dismiss", .roles(.app), "Dismisses an entry and those above it.",
                   [.req("id", .string), .opt("animated", .boolean), .opt("transition", .object)]),
        MethodSpec("dismissAll", .roles(.app), "Dismisses every entry of one screen, or of all.",
                   [.opt("animated", .boolean), output]),
        MethodSpec("stack", .everyone, "Lists a screen's entries, contexts and status bar.", [output]),
        MethodSpec("subscribe", .roles([.app, .renderer]), "Starts notifications of some topics; returns a snapshot and the event sequence.",
                   [.req("topics", .array), .opt("outputs", .array)]),
        MethodSpec("unsubscribe", .everyone, "Stops notifications of some topics.", [.req("topics", .array)]),
        MethodSpec("setContainer", .roles(.shell), "Resizes a screen (size, safe area, scale, size classes).",
                   container + [.opt("duration", .number), output]),
        MethodSpec("keyboard", .roles(.shell), "Shows, moves or hides the on-screen keyboard.",
                   [.req("height", .number), .opt("duration", .number), .opt("curve", .string, .object), output]),
        MethodSpec("tap", .roles(.shell), "A tap at a point of a screen.", [.req("x", .number), .req("y", .number), output]),
        MethodSpec("swipe", .roles(.shell), "One phase of a swipe gesture.", [
            .req("phase", .string), .req("dx", .number), .req("dy", .number), .opt("vx", .number),
            .opt("vy", .number), output,
        ]),
        MethodSpec("advance", .roles([]), "Moves the manual clock forward.", [.req("seconds", .number)]),
        MethodSpec("sync", .everyone, "Echoes its nonce after everything sent before it.", [.opt("nonce")]),
        MethodSpec("update", .roles(.app), "Changes an entry in place.", [
            .req("id", .string), .opt("content", .string, .object), .opt("style", .string, .object),
            .opt("background", .object), .opt("cornerRadius", .number), .opt("shadow", .object),
            .opt("preferredContentSize", .object), .opt("autoDismiss", .object), .opt("duration", .number),
            .opt("timing", .string, .object), .opt("selectedDetent", .string),
        ]),
        MethodSpec("activate", .roles(.shell), "Presses one of an entry's buttons.",
                   [.req("id", .string), .req("action", .string), .opt("fields", .object),
                    .opt("activationToken", .string)]),
        MethodSpec("key", .roles(.shell), "Escape, Enter or back, for the topmost entry.",
                   [.req("key", .string), .opt("id", .string), .opt("fields", .object), output]),
        MethodSpec("focus", .roles(.shell), "Says which field of an entry has focus.", [.req("id", .string), .opt("field", .string)]),
        MethodSpec("presented", .roles(.renderer), "Reports when a screen's frames were shown on glass, and how many were discarded.",
                   [.req("frames", .array), .opt("discarded", .integer), output]),
        MethodSpec("defineContext", .roles(.shell), "Names (or moves) a rectangle entries can be presented in.",
                   [.req("name", .string), .req("frame", .object), output, .opt("duration", .number)]),
        MethodSpec("removeContext", .roles(.shell), "Removes a presentation context and dismisses its entries.", [.req("name", .string)]),
        MethodSpec("addOutput", .roles(.shell), "Adds a screen, or changes an existing one.",
                   container + [.req("name", .string), .opt("fps", .integer)]),
        MethodSpec("removeOutput", .roles(.shell), "Takes a screen away; its entries leave.", [.req("name", .string)]),
        MethodSpec("outputs", .everyone, "Lists the screens."),
        MethodSpec("rpc.discover", .everyone, "This daemon's methods as an OpenRPC 1.2.6 document."),
        MethodSpec("stats", .roles([]), "Clients, queues, frames, requests per method and uptime."),
        MethodSpec("setMode", .roles(.shell), "Turns do not disturb or reduced motion on, changes it, or off, on one screen.",
                   [.opt("doNotDisturb", .object), .opt("reducedMotion", .boolean), output]),   // null turns do not disturb off
        MethodSpec("explain", .everyone, "Why an entry is where it is: what blocks it, until when, who may dismiss it.",
                   [.req("id", .string)]),
        MethodSpec("recordDump", .roles([]), "The flight recorder as NDJSON: in the reply, or written to path.", [.opt("path", .string)]),
    ] as [MethodSpec]).enumerated().map { $1.numbered($0) }

    /// The methods by the length of their names in UTF-8: a request's method is found by
    /// comparing it with the few names as long as it. Hashing it cost a `ping` some 280
    /// instructions (callgrind), of code that no other part of a request runs; string
    /// comparison is code every request runs anyway.
    private static let byLength: [[MethodSpec]] = {
        var buckets = [[MethodSpec]](repeating: [], count: (methods.map(\.name.utf8.count).max() ?? 0) + 1)
        for spec in methods {
            precondition(!buckets[spec.name.utf8.count].contains { $0.name == spec.name }, "method \(spec.name) listed twice")
            buckets[spec.name.utf8.count].append(spec)
        }
        return buckets
    }()

    /// The method named `name`, or nil when there is none.
    public static func spec(_ name: String) -> MethodSpec? {
        let length = name.utf8.count
        guard length < byLength.count else { return nil }
        for spec in byLength[length] where spec.name == name { return spec }
        return nil
    }
}
