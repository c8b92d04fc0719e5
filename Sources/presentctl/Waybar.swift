// `presentctl watch --waybar`: the status-bar appearance presentd says is in force, as the
// JSON lines of a waybar custom module ("return-type": "json"), one now and one at each
// change, so that a waybar style sheet follows the top presentation's capture:
//
//     "custom/presentd": {"exec": "presentctl watch --waybar", "return-type": "json"}
//     #custom-presentd.lightContent { … }  #custom-presentd.darkContent { … }  #custom-presentd.hidden { … }
//
// `class` is the style (`default`, `lightContent`, `darkContent`), plus `hidden` when the
// capture hides the bar; `alt` is the style too (for format-icons); `text` is a dot, so that the
// module is drawn (waybar hides a module whose text is empty), and `tooltip` says it in words.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON

/// One waybar line for a status bar object ({style, hidden}).
func waybarLine(_ bar: JSONValue?) -> JSONValue {
    let style = bar?["style"]?.stringValue ?? "default", hidden = bar?["hidden"]?.boolValue ?? false
    let classes: [JSONValue] = hidden ? [.string(style), "hidden"] : [.string(style)]
    return ["text": "●", "alt": .string(style), "class": .array(classes),
            "tooltip": .string("presentd: status bar \(style)" + (hidden ? ", hidden" : ""))]
}

func waybarWatch(_ client: PresentClient, output: String?) throws -> Never {
    var subscription: JSONObject = ["topics": ["statusBar"]]
    if let output { subscription["outputs"] = [.string(output)] }
    let result = try client.call("subscribe", .object(subscription))
    // The snapshot's statusBar is main's; another screen's is under its outputs element.
    let screens = result["snapshot"]?["outputs"]?.arrayValue ?? []
    let mine = screens.first { $0["name"]?.stringValue == (output ?? "main") }
    printJSON(waybarLine(mine?["statusBar"] ?? result["snapshot"]?["statusBar"]))
    fflush(nil)
    while true {
        guard let n = try client.nextNotification(timeout: 3600) else { continue }
        let p = n["params"]
        switch n["method"]?.stringValue {
        case "statusBar" where (p?["output"]?.stringValue ?? "main") == (output ?? "main"):
            printJSON(waybarLine(p))
            fflush(nil)
        case "shutdown":
            exit(0)
        default: break
        }
    }
}
