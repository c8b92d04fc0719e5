// Which presentctl command calls each protocol method. The method names are MethodTable's
// (the daemon's `rpc.discover`); `presentctl --commands` prints this table, and
// PresentctlCommandTests fails when the daemon has a method it does not list, or lists a
// command that presentctl does not accept, so no method can be left reachable only
// through `call`. (Issue 25 will derive the commands themselves from the method table.)

/// How presentctl reaches a method.
enum Reach {
    /// `presentctl COMMAND …` calls it.
    case command(String)
    /// No command of its own, and why (`call METHOD` still reaches it).
    case none(reason: String)
}

let methodCommands: [(method: String, reach: Reach)] = [
    ("hello", .command("hello")),
    ("ping", .command("ping")),
    ("present", .command("present")),
    ("dismiss", .command("dismiss")),
    ("dismissAll", .command("dismiss-all")),
    ("stack", .command("stack")),
    ("subscribe", .command("watch")),
    ("unsubscribe", .none(reason: "each presentctl is one connection: watch stops its subscription by exiting")),
    ("setContainer", .command("container")),
    ("keyboard", .command("keyboard")),
    ("tap", .command("tap")),
    ("swipe", .command("swipe")),
    ("advance", .command("advance")),
    ("sync", .command("sync")),
    ("update", .command("update")),
    ("activate", .command("activate")),
    ("key", .command("key")),
    ("focus", .command("focus")),
    ("presented", .none(reason: "a renderer's report of its frames' presentation feedback, which only a renderer has; its figures are in stats")),
    ("defineContext", .command("context define")),
    ("removeContext", .command("context remove")),
    ("addOutput", .command("output add")),
    ("removeOutput", .command("output remove")),
    ("outputs", .command("output list")),
    ("rpc.discover", .command("discover")),
    ("stats", .command("stats")),
    ("setMode", .command("dnd")),
    ("explain", .command("explain")),
    ("recordDump", .command("record-dump")),
]

/// `presentctl --commands`: one line per method, `METHOD<TAB>COMMAND` or `METHOD<TAB>-<TAB>WHY`.
func printCommands() {
    for (method, reach) in methodCommands {
        switch reach {
        case .command(let command): print("\(method)\t\(command)")
        case .none(let reason): print("\(method)\t-\t\(reason)")
        }
    }
}
