// Every method presentd answers, each declared once, in one row: its name, who may call
// it (RoleTable.swift has the roles), the capability `hello` announces it under, what it
// does in a line, the params it takes (each with its JSON type and whether it is
// required), and how those params become its typed `Request` — whose case the daemon's
// `execute` switch must handle (the compiler checks that switch is exhaustive). A row
// cannot be written without any of them: `MethodSpec`'s initialiser has no defaults for
// them. RequestDecoder refuses any param not listed here, the daemon checks the caller's
// roles against it and counts it, `Request.methods` is this table's names, and the role
// table in docs/PROTOCOL.md and `rpc.discover`'s OpenRPC document (OpenRPC.swift) are
// generated from it: none of them can drift apart. A request looks its method up here
// once; everything after (its counter, its roles, its decoder) works from the row found.

import PresentCore
import PresentJSON

/// Every request a client can make. `output`: the screen a request concerns; nil means
/// `main` (the screen every daemon has from the start), except where a case says otherwise.
public enum Request: Sendable {
    /// `resume`: the token an earlier `hello` returned, to take back that client's
    /// presentations after the daemon restarted.
    case hello(client: String?, protocolVersion: Int, resume: String?)
    case ping
    // A request is as large as its largest case, and every request, ping included, is
    // copied on its way from decoding to `execute`: the two cases whose payloads are many
    // times larger than the rest keep them in a box of their own.
    indirect case present(PresentRequest)
    case dismiss(id: String, animated: Bool, transition: TransitionOverride?)
    /// `output` nil: every screen's entries.
    case dismissAll(animated: Bool, output: String?)
    case stack(output: String?)
    /// `outputs`: only these screens' frame, status-bar, lifecycle and stack
    /// notifications (names of screens that do not exist yet included); nil: every screen.
    case subscribe([Topic], outputs: [String]?)
    case unsubscribe([Topic])
    case setContainer(ContainerChange, output: String?)
    case keyboard(height: Double, duration: Double?, curve: TimingCurve?, output: String?)
    case tap(Point, output: String?)
    case swipe(SwipePhase, translation: Point, velocity: Point, output: String?)
    case advance(seconds: Double)
    case sync(nonce: JSONValue)
    /// Changes an entry in place.
    indirect case update(id: String, EntryUpdate)
    /// A renderer or shell pressed one of an entry's buttons; `fields` holds the values
    /// the renderer has for the entry's fields; `activationToken` the compositor's
    /// xdg-activation token for the press, passed on to the owner.
    case activate(id: String, action: String, fields: [String: String], activationToken: String?)
    /// Escape, Enter or back, for the topmost entry; `id`: only if it is that entry (the
    /// one whose fields the renderer sends); `fields` as for activate. `output` nil: the
    /// screen holding `id`, else `main`.
    case key(Key, id: String?, fields: [String: String], output: String?)
    /// A renderer says which field of an entry has focus (nil: none).
    case focus(id: String, field: String?)
    /// A renderer reports frames of a screen that reached the glass (the compositor's
    /// presentation feedback), batched, and how many since the last report were discarded.
    case presented(frames: [ShownFrame], discarded: Int, output: String?)
    /// The shell names a rectangle entries can be presented in (or moves it).
    case defineContext(name: String, frame: Rect, duration: Double?, output: String?)
    case removeContext(name: String)
    /// A screen of its own; an existing name takes the new container and frame rate.
    case addOutput(OutputDefinition)
    /// Takes a screen away; its entries leave with reason `outputGone`.
    case removeOutput(name: String)
    case outputs
    /// `rpc.discover`: the OpenRPC document of every method.
    case discover
    /// The daemon's counters: clients, queues, frames, requests per method, uptime.
    case stats
    /// The modes of one screen (nil: `main`): do not disturb on (or changed) or, with
    /// .some(nil), off; reduced motion on or off. Nil: left as it is (at least one is given).
    case setMode(doNotDisturb: ModeRequest??, reducedMotion: Bool?, output: String?)
    /// Why an entry is where it is.
    case explain(id: String)
    /// The flight recorder: written to `path` (absolute) by the daemon, else returned.
    case recordDump(path: String?)

    /// The method names, as on the wire (MethodTable's, in its order).
    public static let methods = MethodTable.methods.map(\.name)
}

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
    /// The names it takes as a string (of an array: as its elements), from the enum the
    /// decoder reads it as; empty: any.
    public let names: [String]

    static func req(_ name: String, _ types: ParamType..., names: [String] = []) -> ParamSpec {
        ParamSpec(name: name, types: types, required: true, names: names)
    }
    static func opt(_ name: String, _ types: ParamType..., names: [String] = []) -> ParamSpec {
        ParamSpec(name: name, types: types, required: false, names: names)
    }
}

/// The names of an enum the decoder reads a param as.
private func names<E: RawRepresentable<String> & CaseIterable>(_: E.Type) -> [String] { E.allCases.map(\.rawValue) }

/// Turns a method's params (already checked against its `params` names) into its request.
public typealias ParamsDecoder = @Sendable (RequestDecoder, ParamReader) throws(RPCError) -> Request

/// Where a method stands among `hello`'s capabilities.
public enum MethodFeature: Sendable, Hashable {
    /// Part of every presentd; no capability names it.
    case core
    /// A client probes for it by this capability before calling it.
    case capability(Capability)
}

/// How presentctl, the command-line client, reaches a method. Part of the method's row:
/// every method is reachable from the shell by a command of its own, or says why it has none
/// (`presentctl call METHOD` still reaches it); PresentctlCommandTests holds presentctl to it.
public enum CommandLineReach: Sendable, Hashable {
    /// `presentctl COMMAND …` calls it: each of these commands (setMode has one per mode).
    case commands([String])
    /// No command of its own, and why.
    case none(reason: String)
}

/// One method: its row of the table.
///
/// A class: every request looks its method up and hands the row down the path that runs
/// it, and a struct of references would be copied with each of them counted at every hop.
public final class MethodSpec: Sendable {
    public let name: String
    /// Who may call it (`admin` always may).
    public let access: MethodAccess
    /// The capability `hello` announces it under, or `.core`.
    public let feature: MethodFeature
    public let summary: String
    public let params: [ParamSpec]
    /// The presentctl commands that call it, or why none does.
    public let presentctl: CommandLineReach
    /// Its params, as its typed request.
    let decodeParams: ParamsDecoder

    /// Its position in `MethodTable.methods`: per-method figures (`stats`) are kept in an
    /// array by this index, not in a dictionary by name.
    public let index: Int

    init(_ name: String, _ access: MethodAccess, _ feature: MethodFeature, _ summary: String, _ params: [ParamSpec],
         presentctl: CommandLineReach, index: Int = 0, decode: @escaping ParamsDecoder) {
        self.name = name; self.access = access; self.feature = feature; self.summary = summary; self.params = params
        self.presentctl = presentctl
        decodeParams = decode
        self.index = index
    }

    fileprivate func numbered(_ index: Int) -> MethodSpec {
        MethodSpec(name, access, feature, summary, params, presentctl: presentctl, index: index, decode: decodeParams)
    }

    /// Whether the decoder takes a param named `key`: compared with the names of its length,
    /// as a request's method is, with no set to build and hash into for every method.
    func takesParam(_ key: String) -> Bool {
        let length = key.utf8.count
        return params.contains { $0.name.utf8.count == length && $0.name == key }
    }
}

public enum MethodTable {
    private static let output = ParamSpec.opt("output", .string)
    /// The styles a plain name gives (the others are objects, `{"type": …}`).
    private static let styleNames = PresentationStyle.named.map(\.name)
    /// A container's members, as setContainer and addOutput take them.
    private static let container: [ParamSpec] = [
        .req("width", .number), .req("height", .number), .opt("safeArea", .object), .opt("scale", .number),
        .opt("horizontalSizeClass", .string, names: names(SizeClass.self)),
        .opt("verticalSizeClass", .string, names: names(SizeClass.self)),
        .opt("layoutDirection", .string, names: names(LayoutDirection.self)),
    ]

    /// The methods, in the order the protocol lists them (docs/PROTOCOL.md, section 5).
    public static let methods: [MethodSpec] = ([
        MethodSpec("hello", .everyone, .core,
                   "Introduces the client; returns the daemon's version, limits, container and capabilities.",
                   [.opt("client", .string), .opt("protocol", .integer), .opt("resume", .string)],
                   presentctl: .commands(["hello"])) { d, p throws(RPCError) in
            let version = try p.optionalInt("protocol", range: 0...Int(Int32.max)) ?? ProtocolLimits.protocolVersion
            guard version == ProtocolLimits.protocolVersion else {
                    throw p.invalid(
                        "protocol",
                        "unsupported protocol version \(version); this daemon speaks \(ProtocolLimits.protocolVersion)")
            }
            return .hello(client: try p.optionalField("client").map(d.name), protocolVersion: version,
                          resume: try p.optionalField("resume").map(d.name))
        },
        MethodSpec("ping", .everyone, .core, "Answers {} at once.", [],
                   presentctl: .commands(["ping"])) { _, _ throws(RPCError) in .ping },
        MethodSpec("present", .roles(.app), .core, "Presents (or queues) an entry on a screen's modal stack.", [
                    .opt("id", .string), .opt("kind", .string), .opt("deduplicate", .boolean),
                    .opt("content", .string, .object),
                    .req("style", .string, .object, names: styleNames), .opt("respectsSafeArea", .boolean),
                    .opt("transition", .object),
            .opt("dismissTransition", .object), .opt("background", .object), .opt("cornerRadius", .number),
            .opt("shadow", .object), .opt("dismissOnTap", .boolean), .opt("dismissOnSwipe", .boolean),
                    .opt("confirmDismiss", .boolean), .opt("keyboard", .string, names: names(KeyboardAvoidance.self)),
                    .opt("statusBar", .object),
                    .opt("adaptive", .string, .object), .opt("priority", .integer),
                    .opt("precedence", .string, names: names(Precedence.self)),
            .opt("dimsPresenterTint", .boolean), .opt("preferredContentSize", .object), .opt("autoDismiss", .object),
            .opt("dismissOnEscape", .boolean), .opt("level", .string, names: names(Level.self)),
                    .opt("interaction", .string, names: names(Interaction.self)),
                    .opt("position", .string, names: names(OverlayPosition.self)), .opt("margin", .number),
                    .opt("context", .string), output,
            .opt("droppable", .boolean), .opt("dryRun", .boolean),
        ],
                presentctl: .commands(["present"])
            ) { d, p throws(RPCError) in .present(try d.presentRequest(p)) },   // PresentationDecoding.swift
            MethodSpec("dismiss", .roles(.app), .core, "Dismisses an entry and those above it.",
                   [.req("id", .string), .opt("animated", .boolean), .opt("transition", .object)],
                   presentctl: .commands(["dismiss"])) { d, p throws(RPCError) in
            .dismiss(id: try d.name(p.field("id")), animated: try p.optionalBool("animated") ?? true,
                     transition: try p.optionalObject("transition").map(d.transitionOverride))
        },
        MethodSpec("dismissAll", .roles(.app), .core, "Dismisses every entry of one screen, or of all.",
                   [.opt("animated", .boolean), output],
                   presentctl: .commands(["dismiss-all"])) { d, p throws(RPCError) in
            .dismissAll(animated: try p.optionalBool("animated") ?? true, output: try d.output(p))
        },
        MethodSpec("stack", .everyone, .core, "Lists a screen's entries, contexts and status bar.", [output],
                   presentctl: .commands(["stack"])) { d, p throws(RPCError) in
            .stack(output: try d.output(p))
        },
        MethodSpec("subscribe", .roles([.app, .renderer]), .core,
                   "Starts notifications of some topics; returns a snapshot and the event sequence.",
                   [.req("topics", .array, names: names(Topic.self)), .opt("outputs", .array)],
                   presentctl: .commands(["watch"])) { d, p throws(RPCError) in
            .subscribe(try d.topics(p), outputs: try p.optionalField("outputs").map { v throws(RPCError) in
                try v.array(count: 1...d.limits.maxOutputs, each: d.name) })
        },
        MethodSpec("unsubscribe", .everyone, .core, "Stops notifications of some topics.",
                   [.req("topics", .array, names: names(Topic.self))],
                presentctl: .none(reason: "each presentctl is one connection: watch stops its subscription by exiting")
            ) { d, p throws(RPCError) in .unsubscribe(try d.topics(p)) },
        MethodSpec("setContainer", .roles(.shell), .core, "Resizes a screen (size, safe area, scale, size classes).",
                   container + [.opt("duration", .number), output],
                   presentctl: .commands(["container"])) { d, p throws(RPCError) in
            .setContainer(try d.containerChange(p), output: try d.output(p))
        },
        MethodSpec("keyboard", .roles(.shell), .core, "Shows, moves or hides the on-screen keyboard.",
                [
                    .req("height", .number), .opt("duration", .number),
                    .opt("curve", .string, .object, names: names(TimingName.self)), output
                ],
                   presentctl: .commands(["keyboard"])) { d, p throws(RPCError) in
            .keyboard(height: try p.double("height", range: d.dimensions, unit: "points"),
                      duration: try p.optionalDouble("duration", range: d.durations, unit: "seconds"),
                      curve: try p.optionalField("curve").map(d.timing), output: try d.output(p))
        },
        MethodSpec("tap", .roles(.shell), .core, "A tap at a point of a screen.",
                   [.req("x", .number), .req("y", .number), output],
                   presentctl: .commands(["tap"])) { d, p throws(RPCError) in
            .tap(Point(x: try p.double("x", range: d.coordinates), y: try p.double("y", range: d.coordinates)),
                 output: try d.output(p))
        },
        MethodSpec("swipe", .roles(.shell), .core, "One phase of a swipe gesture.", [
                    .req("phase", .string, names: names(SwipePhase.self)), .req("dx", .number), .req("dy", .number),
                    .opt("vx", .number),
            .opt("vy", .number), output,
        ],
                   presentctl: .commands(["swipe"])) { d, p throws(RPCError) in
            .swipe(try p.enumValue("phase"),
                    translation: Point(
                        x: try p.double("dx", range: d.coordinates), y: try p.double("dy", range: d.coordinates)),
                   velocity: Point(x: try p.optionalDouble("vx", range: d.coordinates) ?? 0,
                                   y: try p.optionalDouble("vy", range: d.coordinates) ?? 0),
                   output: try d.output(p))
        },
        MethodSpec("advance", .administrator, .core, "Moves the manual clock forward.",
                   [.req("seconds", .number)],
                   presentctl: .commands(["advance"])) { d, p throws(RPCError) in
            .advance(seconds: try p.double("seconds", range: 0...d.limits.maxAdvance, unit: "seconds"))
        },
        MethodSpec("sync", .everyone, .core, "Echoes its nonce after everything sent before it.",
                   [.opt("nonce")],
                presentctl: .commands(["sync"])
            ) { _, p throws(RPCError) in .sync(nonce: p.value("nonce") ?? .null) },
        MethodSpec("update", .roles(.app), .capability(.update), "Changes an entry in place.", [
            .req("id", .string), .opt("content", .string, .object), .opt("style", .string, .object, names: styleNames),
            .opt("background", .object), .opt("cornerRadius", .number), .opt("shadow", .object),
            .opt("preferredContentSize", .object), .opt("autoDismiss", .object), .opt("duration", .number),
            .opt("timing", .string, .object, names: names(TimingName.self)), .opt("selectedDetent", .string),
        ],
                presentctl: .commands(["update"])
            ) { d, p throws(RPCError) in try d.update(p) },   // ContentDecoding.swift
            MethodSpec("activate", .roles(.shell), .capability(.content), "Presses one of an entry's buttons.",
                   [.req("id", .string), .req("action", .string), .opt("fields", .object),
                    .opt("activationToken", .string)],
                   presentctl: .commands(["activate"])) { d, p throws(RPCError) in
            .activate(id: try d.name(p.field("id")), action: try d.contentID(p.field("action")),
                      fields: try d.fieldValues(p),
                      activationToken: try p.optionalField("activationToken").map { v throws(RPCError) in
                          try d.text(v, max: d.limits.maxActivationTokenLength)
                      })
        },
        MethodSpec("key", .roles(.shell), .core, "Escape, Enter or back, for the topmost entry.",
                   [.req("key", .string, names: names(Key.self)), .opt("id", .string), .opt("fields", .object), output],
                   presentctl: .commands(["key"])) { d, p throws(RPCError) in
            .key(try p.enumValue("key"), id: try p.optionalField("id").map(d.name), fields: try d.fieldValues(p),
                 output: try d.output(p))
        },
        MethodSpec("focus", .roles(.shell), .capability(.content), "Says which field of an entry has focus.",
                   [.req("id", .string), .opt("field", .string)],
                   presentctl: .commands(["focus"])) { d, p throws(RPCError) in
            .focus(id: try d.name(p.field("id")), field: try p.optionalField("field").map(d.contentID))
        },
        MethodSpec("presented", .roles(.renderer), .core,
                   "Reports when a screen's frames were shown on glass, and how many were discarded.",
                   [.req("frames", .array), .opt("discarded", .integer), output],
                presentctl: .none(
                    reason:
                        "a renderer's report of its frames' presentation feedback, which only a renderer has; its "
                        + "figures are in stats"
                )
            ) { d, p throws(RPCError) in
            // Times are the daemon's clock (seconds since boot on the real clock): any finite value.
            let times = 0.0...1e12
            let frames = try p.objects("frames", count: 0...256).map { f throws(RPCError) -> ShownFrame in
                try f.rejectUnknownKeys(allowed: ["time", "shownAt", "drawnAt", "refresh"])
                return ShownFrame(time: try f.double("time", range: times, unit: "seconds"),
                                  shownAt: try f.double("shownAt", range: times, unit: "seconds"),
                                  drawnAt: try f.optionalDouble("drawnAt", range: times, unit: "seconds"),
                                  refresh: try f.optionalDouble("refresh", range: 0...1, unit: "seconds"))
            }
            return .presented(frames: frames, discarded: try p.optionalInt("discarded", range: 0...1_000_000) ?? 0,
                              output: try d.output(p))
        },
        MethodSpec("defineContext", .roles(.shell), .capability(.contexts),
                   "Names (or moves) a rectangle entries can be presented in.",
                   [.req("name", .string), .req("frame", .object), output, .opt("duration", .number)],
                   presentctl: .commands(["context define"])) { d, p throws(RPCError) in
            let f = try p.object("frame")
            try f.rejectUnknownKeys(allowed: ["x", "y", "width", "height"])
            let frame = Rect(x: try f.double("x", range: d.coordinates), y: try f.double("y", range: d.coordinates),
                             width: try f.double("width", range: d.dimensions, unit: "points"),
                             height: try f.double("height", range: d.dimensions, unit: "points"))
            return .defineContext(name: try d.name(p.field("name")), frame: frame,
                                  duration: try p.optionalDouble("duration", range: d.durations, unit: "seconds"),
                                  output: try d.output(p))
        },
        MethodSpec("removeContext", .roles(.shell), .capability(.contexts),
                   "Removes a presentation context and dismisses its entries.",
                   [.req("name", .string)],
                presentctl: .commands(["context remove"])
            ) { d, p throws(RPCError) in .removeContext(name: try d.name(p.field("name"))) },
        MethodSpec("addOutput", .roles(.shell), .capability(.outputs), "Adds a screen, or changes an existing one.",
                   container + [.req("name", .string), .opt("fps", .integer)],
                   presentctl: .commands(["output add"])) { d, p throws(RPCError) in
            .addOutput(OutputDefinition(name: try d.name(p.field("name")), container: try d.containerChange(p),
                                        fps: try p.optionalInt("fps", range: ProtocolLimits.fpsRange)))
        },
        MethodSpec("removeOutput", .roles(.shell), .capability(.outputs), "Takes a screen away; its entries leave.",
                   [.req("name", .string)],
                presentctl: .commands(["output remove"])
            ) { d, p throws(RPCError) in .removeOutput(name: try d.name(p.field("name"))) },
        MethodSpec("outputs", .everyone, .capability(.outputs), "Lists the screens.", [],
                   presentctl: .commands(["output list"])) { _, _ throws(RPCError) in .outputs },
            MethodSpec(
                "rpc.discover", .everyone, .capability(.rpcDiscover),
                "This daemon's methods as an OpenRPC 1.2.6 document.",
                   [],
                   presentctl: .commands(["discover"])) { _, _ throws(RPCError) in .discover },
            MethodSpec(
                "stats", .administrator, .capability(.stats),
                "Clients, queues, frames, requests per method and uptime.",
                   [],
                   presentctl: .commands(["stats"])) { _, _ throws(RPCError) in .stats },
        MethodSpec("setMode", .roles(.shell), .capability(.doNotDisturb),
                   "Turns do not disturb or reduced motion on, changes it, or off, on one screen.",
                   [.opt("doNotDisturb", .object), .opt("reducedMotion", .boolean), output],
                   presentctl: .commands(["dnd", "mode reduced-motion"]))   // null turns do not disturb off
            { d, p throws(RPCError) in try d.setMode(p) },   // ModeDecoding.swift
        MethodSpec("explain", .everyone, .capability(.explain),
                   "Why an entry is where it is: what blocks it, until when, who may dismiss it.",
                   [.req("id", .string)],
                presentctl: .commands(["explain"])
            ) { d, p throws(RPCError) in .explain(id: try d.name(p.field("id"))) },
        MethodSpec("recordDump", .administrator, .capability(.recordDump),
                   "The flight recorder as NDJSON: in the reply, or written to path.",
                   [.opt("path", .string)],
                   presentctl: .commands(["record-dump"])) { _, p throws(RPCError) in
            .recordDump(path: try p.optionalString("path", maxBytes: 4096))
        },
    ] as [MethodSpec]).enumerated().map { $1.numbered($0) }

    /// The methods by the length of their names in UTF-8: a request's method is found by
    /// comparing it with the few names as long as it, code every request runs anyway,
    /// where hashing it would run code no other part of a request needs.
    private static let byLength: [[MethodSpec]] = {
        var buckets = [[MethodSpec]](repeating: [], count: (methods.map(\.name.utf8.count).max() ?? 0) + 1)
        for spec in methods {
            precondition(
                !buckets[spec.name.utf8.count].contains { $0.name == spec.name }, "method \(spec.name) listed twice")
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
