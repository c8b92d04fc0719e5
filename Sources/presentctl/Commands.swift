// Which presentctl command calls each protocol method: each method's row in MethodTable says
// (`presentctl`), so a method is declared once. `presentctl --commands` prints it, and
// PresentctlCommandTests fails when a command the table names is one presentctl does not
// accept, so no method can be left reachable only through `call`.

import PresentProtocol

/// `presentctl --commands`: one line per method, `METHOD<TAB>COMMAND[<TAB>COMMAND…]` or
/// `METHOD<TAB>-<TAB>WHY`.
func printCommands() {
    for method in MethodTable.methods {
        switch method.presentctl {
        case .commands(let commands): print(([method.name] + commands).joined(separator: "\t"))
        case .none(let reason): print("\(method.name)\t-\t\(reason)")
        }
    }
}

/// A command that reaches no method of presentd: another of presentd's programs answers it,
/// run in presentctl's place with these arguments. Not in `--commands`, which lists methods.
struct DelegatedCommand {
    let command: String
    let program: String
    let arguments: [String]
}

/// The delegated command `name`, or nil (`notifications`: the history is kept by the D-Bus
/// bridge, and presentctl links no D-Bus). A switch, not a table: every command asks, and an
/// array of tuples would have its type's metadata made at the start of every process.
func delegatedCommand(_ name: String) -> DelegatedCommand? {
    switch name {
    case "notifications": return DelegatedCommand(command: name, program: "presentd-notify", arguments: ["--history"])
    default: return nil
    }
}
