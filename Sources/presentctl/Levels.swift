// presentctl's levels and contexts: `toast TEXT` (an overlay that leaves on its own — a
// one-liner), keeping a toast's connection in the background until it has gone, and the
// `context` commands a shell uses to name an app's area of the screen.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentCommandLine
import PresentJSON
import PresentSystem

/// What `toast` presents unless told otherwise: as wide and as tall as its text (a renderer
/// measures it and says so, as preferredContentSize; presentd-wayland draws a pill of one
/// line), gone 2 s after it presented, coming in from its edge.
enum Toast {
    static let after = 2.0
    static let transitionDuration = 0.25

    static let style: JSONValue = ["type": "custom", "width": "content", "height": "content"]
    /// Its size until a renderer measures it: a one-line pill (presentd-wayland's is 36 tall at
    /// least), not the default size a "content" dimension has without one, two thirds of the
    /// screen, which a renderer that does not measure would draw and hit-test.
    static let initialSize: JSONValue = ["width": 300, "height": 36]

    /// The transition in from its position's edge; a toast in the middle fades in.
    static func transition(position: String) -> JSONValue {
        let type = position == "top" ? "coverVerticalFromTop" : position == "bottom" ? "coverVertical" : "crossDissolve"
        return ["type": .string(type), "duration": .double(transitionDuration)]
    }

    /// Fills in what the flags left out of a toast's presentation `p`.
    static func complete(_ p: inout JSONObject, transitionGiven: Bool) {
        if p["level"] == nil { p["level"] = "overlay" }
        if p["style"] == nil { p["style"] = style }
        if p["preferredContentSize"] == nil { p["preferredContentSize"] = initialSize }
        if p["respectsSafeArea"] == nil { p["respectsSafeArea"] = true }
        if p["autoDismiss"] == nil { p["autoDismiss"] = ["after": .double(after)] }
        if !transitionGiven { p["transition"] = transition(position: p["position"]?.stringValue ?? "top") }
        if p["content"]?.objectValue?["accessibility"] == nil, var content = p["content"]?.objectValue {
            content["accessibility"] = ["announce": "polite"]   // a toast is read out, not focused
            p["content"] = .object(content)
        }
    }
}

/// `presentctl toast` without `--wait`: presents, prints the reply and returns at once,
/// while a child process keeps the connection — the toast belongs to it — until the toast
/// has left (or the daemon goes away). The child lets go of the terminal and of any pipe
/// the caller reads the reply from.
func presentInBackground(_ client: PresentClient, _ params: JSONValue) throws -> Exit {
    try client.call("subscribe", ["topics": ["lifecycle"]])
    let result = try client.call("present", params)
    printJSON(result)
    fflush(nil)
    guard let id = result["id"], result["deduplicated"] != true else { return .ok }
    let child: pid_t
    do { child = try valueOrErrno("fork") { fork() } } catch {
        throw ClientError.io("fork failed (\(error.reason)): the toast would go as presentctl exits")
    }
    guard child == 0 else { return .ok }
    _ = setsid()
    let null = open("/dev/null", O_RDWR)
    for fd: Int32 in 0...2 { dup2(null, fd) }
    if null > 2 { close(null) }
    while true {
        let next: JSONValue?
        // An error here is the daemon going away.
        do { next = try client.nextNotification(timeout: 3600) } catch { exit(Exit.ok.rawValue) }
        guard let n = next else { continue }   // a long toast: keep holding it
        let p = n["params"]
        switch n["method"]?.stringValue {
        case "lifecycle" where p?["id"] == id && p?["event"] == "didDismiss": exit(Exit.ok.rawValue)
        case "shutdown", "closing": exit(Exit.ok.rawValue)
        default: continue
        }
    }
}

/// `context define NAME X Y W H [--duration S]`, `context remove NAME`, `context list`.
func contextRequest(_ s: inout ArgumentScanner) throws -> PlannedRequest {
    switch s.next() {
    case "define":
        guard let name = s.next() else { throw UsageError("context define needs a name, then X Y WIDTH HEIGHT") }
        let usage = "context define NAME X Y W H"
        let frame: JSONValue = [
            "x": .double(try number(s.next(), "X", usage)), "y": .double(try number(s.next(), "Y", usage)),
                                "width": .double(try number(s.next(), "W", usage)),
                                "height": .double(try number(s.next(), "H", usage))]
        var p: JSONObject = ["name": .string(name), "frame": frame]
        try optionalDuration(&s, into: &p)
        return PlannedRequest(method: "defineContext", params: .object(p))
    case "remove":
        guard let name = s.next() else { throw UsageError("context remove needs a name") }
        guard s.isAtEnd else { throw UsageError("context remove takes only a name") }
        return PlannedRequest(method: "removeContext", params: ["name": .string(name)])
    case "list":
        return PlannedRequest(method: "stack", member: "contexts")
    case let other:
        throw UsageError("context takes define, remove or list, not \(other.map { "\"\($0)\"" } ?? "nothing")")
    }
}

/// The commands that concern one screen, and so take `--output NAME` (default `main`).
/// A switch, not a Set: every command asks, and a Set<String> would make its type's
/// metadata from a mangled name at every start of a process that lives a millisecond.
func concernsOneScreen(_ command: String) -> Bool {
    switch command {
    case "present", "toast", "container", "keyboard", "tap", "swipe", "key", "stack", "watch", "context", "dnd", "mode":
        return true
    default:
        return false
    }
}

/// Takes `--output NAME` (or `--output=NAME`) out of a command's words, for the commands
/// that concern one screen: the screen, or nil for the default one.
func takeOutput(_ command: String, _ words: inout [String]) throws -> String? {
    guard concernsOneScreen(command) else { return nil }
    var output: String?
    var kept: [String] = []
    var i = 0
    while i < words.count {
        let (name, inline) = ArgumentScanner.split(words[i])
        if name == "--output" {
            if let inline { output = inline } else {
                guard i + 1 < words.count else { throw UsageError("--output needs a screen's name") }
                output = words[i + 1]
                i += 1
            }
        } else {
            kept.append(words[i])
        }
        i += 1
    }
    words = kept
    return output
}

/// `output add NAME W H [--fps N] [--scale S] [--safe-area T,L,B,R]`, `output remove NAME`,
/// `output list`.
func outputRequest(_ s: inout ArgumentScanner) throws -> PlannedRequest {
    switch s.next() {
    case "add":
        guard let name = s.next() else { throw UsageError("output add needs a name, then WIDTH HEIGHT") }
        var p: JSONObject = ["name": .string(name), "width": .double(try number(s.next(), "W", "output add NAME W H")),
                             "height": .double(try number(s.next(), "H", "output add NAME W H"))]
        while let word = s.next() {
            let (option, inline) = ArgumentScanner.split(word)
            switch option {
            case "--fps": p["fps"] = .int(Int64(try s.int(for: option, inline: inline, in: 1...240)))
            case "--scale": p["scale"] = .double(try s.double(for: option, inline: inline, in: 0.1...16))
            case "--safe-area":
                let text = try s.value(for: option, inline: inline)
                let edges = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
                guard edges.count == 4, edges.allSatisfy({ $0 != nil && $0! >= 0 }) else {
                    throw UsageError("--safe-area takes TOP,LEFT,BOTTOM,RIGHT in points, not \"\(text)\"")
                }
                p["safeArea"] = ["top": .double(edges[0]!), "left": .double(edges[1]!),
                                 "bottom": .double(edges[2]!), "right": .double(edges[3]!)]
            default: throw UsageError("output add: unknown option \"\(word)\"")
            }
        }
        return PlannedRequest(method: "addOutput", params: .object(p))
    case "remove":
        guard let name = s.next(), s.isAtEnd else { throw UsageError("output remove takes a name") }
        return PlannedRequest(method: "removeOutput", params: ["name": .string(name)])
    case "list":
        return PlannedRequest(method: "outputs")
    case let other:
        throw UsageError("output takes add, remove or list, not \(other.map { "\"\($0)\"" } ?? "nothing")")
    }
}
