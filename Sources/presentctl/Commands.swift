// Which presentctl command calls each protocol method. The method names are MethodTable's
// (the daemon's `rpc.discover`); `presentctl --commands` prints this table, and
// PresentctlCommandTests fails when the daemon has a method it does not list, or lists a
// command that presentctl does not accept, so no method can be left reachable only
// through `call`.

/// How presentctl reaches a method.
enum Reach {
    /// `presentctl COMMAND …` calls it: each of these commands (setMode has one per mode).
    case commands([String])
    /// No command of its own, and why (`call METHOD` still reaches it).
    case none(reason: String)
}

let methodCommands: [(method: String, reach: Reach)] = [
    ("hello", .commands(["hello"])),
    ("ping", .commands(["ping"])),
    ("present", .commands(["present"])),
    ("dismiss", .commands(["dismiss"])),
    ("dismissAll", .commands(["dismiss-all"])),
    ("stack", .commands(["stack"])),
    ("subscribe", .commands(["watch"])),
    ("unsubscribe", .none(reason: "each presentctl is one connection: watch stops its subscription by exiting")),
    ("setContainer", .commands(["container"])),
    ("keyboard", .commands(["keyboard"])),
    ("tap", .commands(["tap"])),
    ("swipe", .commands(["swipe"])),
    ("advance", .commands(["advance"])),
    ("sync", .commands(["sync"])),
    ("update", .commands(["update"])),
    ("activate", .commands(["activate"])),
    ("key", .commands(["key"])),
    ("focus", .commands(["focus"])),
    ("presented", .none(reason: "a renderer's report of its frames' presentation feedback, which only a renderer has; its figures are in stats")),
    ("defineContext", .commands(["context define"])),
    ("removeContext", .commands(["context remove"])),
    ("addOutput", .commands(["output add"])),
    ("removeOutput", .commands(["output remove"])),
    ("outputs", .commands(["output list"])),
    ("rpc.discover", .commands(["discover"])),
    ("stats", .commands(["stats"])),
    ("setMode", .commands(["dnd", "mode reduced-motion"])),
    ("explain", .commands(["explain"])),
    ("recordDump", .commands(["record-dump"])),
]

/// `presentctl --commands`: one line per method, `METHOD<TAB>COMMAND[<TAB>COMMAND…]` or
/// `METHOD<TAB>-<TAB>WHY`.
func printCommands() {
    for (method, reach) in methodCommands {
        switch reach {
        case .commands(let commands): print(([method] + commands).joined(separator: "\t"))
        case .none(let reason): print("\(method)\t-\t\(reason)")
        }
    }
}

/// Commands that reach no method of presentd: another of presentd's programs answers them,
/// run in presentctl's place with these arguments (`notifications`: the history is kept by
/// the D-Bus bridge, and presentctl links no D-Bus). Not in `--commands`, which lists methods.
let delegatedCommands: [(command: String, program: String, arguments: [String])] = [
    ("notifications", "presentd-notify", ["--history"]),
]
