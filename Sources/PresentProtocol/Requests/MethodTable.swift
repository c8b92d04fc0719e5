// Every method presentd answers, once: its name, the params it takes (each with its JSON
// type and whether it is required) and what it does in a line. RequestDecoder refuses any
// param not listed here, `Request.methods` is this table's names, and `rpc.discover`'s
// OpenRPC document (OpenRPC.swift) is generated from it: none of them can drift apart.

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

/// One method: what `rejectUnknownKeys` allows for it and what rpc.discover says of it.
public struct MethodSpec: Sendable {
    public let name: String
    public let summary: String
    public let params: [ParamSpec]

    /// The param names the decoder accepts.
    public let paramNames: Set<String>

    init(_ name: String, _ summary: String, _ params: [ParamSpec] = []) {
        self.name = name; self.summary = summary; self.params = params
        paramNames = Set(params.map(\.name))
    }
}

public enum MethodTable {
    private static let output = ParamSpec.opt("output", .string)
    /// A container's members, as setContainer and addOutput take them.
    private static let container: [ParamSpec] = [
        .req("width", .number), .req("height", .number), .opt("safeArea", .object), .opt("scale", .number),
        .opt("horizontalSizeClass", .string), .opt("verticalSizeClass", .string),
    ]

    /// The methods, in the order the protocol lists them (docs/PROTOCOL.md, section 5).
    public static let methods: [MethodSpec] = [
        MethodSpec("hello", "Introduces the client; returns the daemon's version, limits, container and capabilities.",
                   [.opt("client", .string), .opt("protocol", .integer), .opt("resume", .string)]),
        MethodSpec("ping", "Answers {} at once."),
        MethodSpec("present", "Presents (or queues) an entry on a screen's modal stack.", [
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
        MethodSpec("dismiss", "Dismisses an entry and those above it.",
                   [.req("id", .string), .opt("animated", .boolean), .opt("transition", .object)]),
        MethodSpec("dismissAll", "Dismisses every entry of one screen, or of all.",
                   [.opt("animated", .boolean), output]),
        MethodSpec("stack", "Lists a screen's entries, contexts and status bar.", [output]),
        MethodSpec("subscribe", "Starts notifications of some topics; returns a snapshot and the event sequence.",
                   [.req("topics", .array), .opt("outputs", .array)]),
        MethodSpec("unsubscribe", "Stops notifications of some topics.", [.req("topics", .array)]),
        MethodSpec("setContainer", "Resizes a screen (size, safe area, scale, size classes).",
                   container + [.opt("duration", .number), output]),
        MethodSpec("keyboard", "Shows, moves or hides the on-screen keyboard.",
                   [.req("height", .number), .opt("duration", .number), .opt("curve", .string, .object), output]),
        MethodSpec("tap", "A tap at a point of a screen.", [.req("x", .number), .req("y", .number), output]),
        MethodSpec("swipe", "One phase of a swipe gesture.", [
            .req("phase", .string), .req("dx", .number), .req("dy", .number), .opt("vx", .number),
            .opt("vy", .number), output,
        ]),
        MethodSpec("advance", "Moves the manual clock forward.", [.req("seconds", .number)]),
        MethodSpec("sync", "Echoes its nonce after everything sent before it.", [.opt("nonce")]),
        MethodSpec("update", "Changes an entry in place.", [
            .req("id", .string), .opt("content", .string, .object), .opt("style", .string, .object),
            .opt("background", .object), .opt("cornerRadius", .number), .opt("shadow", .object),
            .opt("preferredContentSize", .object), .opt("autoDismiss", .object), .opt("duration", .number),
            .opt("timing", .string, .object),
        ]),
        MethodSpec("activate", "Presses one of an entry's buttons.",
                   [.req("id", .string), .req("action", .string), .opt("fields", .object)]),
        MethodSpec("key", "Escape, Enter or back, for the topmost entry.",
                   [.req("key", .string), .opt("id", .string), .opt("fields", .object), output]),
        MethodSpec("focus", "Says which field of an entry has focus.", [.req("id", .string), .opt("field", .string)]),
        MethodSpec("defineContext", "Names (or moves) a rectangle entries can be presented in.",
                   [.req("name", .string), .req("frame", .object), output, .opt("duration", .number)]),
        MethodSpec("removeContext", "Removes a presentation context and dismisses its entries.", [.req("name", .string)]),
        MethodSpec("addOutput", "Adds a screen, or changes an existing one.",
                   container + [.req("name", .string), .opt("fps", .integer)]),
        MethodSpec("removeOutput", "Takes a screen away; its entries leave.", [.req("name", .string)]),
        MethodSpec("outputs", "Lists the screens."),
        MethodSpec("rpc.discover", "This daemon's methods as an OpenRPC 1.2.6 document."),
        MethodSpec("stats", "Clients, queues, frames, requests per method and uptime."),
        MethodSpec("setMode", "Turns do not disturb on, changes it, or off, on one screen.",
                   [.req("doNotDisturb", .object), output]),   // null turns it off
        MethodSpec("explain", "Why an entry is where it is: what blocks it, until when, who may dismiss it.",
                   [.req("id", .string)]),
        MethodSpec("recordDump", "The flight recorder as NDJSON: in the reply, or written to path.", [.opt("path", .string)]),
    ]

    private static let byName: [String: MethodSpec] = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0) })

    /// The method named `name`, or nil when there is none.
    public static func spec(_ name: String) -> MethodSpec? { byName[name] }
}
