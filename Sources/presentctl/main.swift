// presentctl: the command-line client. One subcommand per protocol method, plus
// `watch` to print events. Exit codes: 0 ok (or an action chosen), 1 daemon error,
// 2 usage, 3 cannot connect, 4 left without an action, 5 the cancel action chosen.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentCommandLine
import PresentJSON
import PresentProtocol

let usage = """
Usage: presentctl [--socket PATH] COMMAND [ARGS]

Talks to presentd (socket: --socket, else $PRESENTD_SOCKET, else
$XDG_RUNTIME_DIR/presentd/presentd.sock, else /run/presentd/presentd.sock).

Commands:
  hello                          server version, limits, container
  ping                           check the daemon answers
  present [options]              present something; prints {id, state}
      --style NAME               fullScreen, overFullScreen, alert, popup (default; alert
                                 for a dialog), topHalf, bottomHalf, slideIn-left|right|top|bottom
      --transition TYPE          coverVertical, coverVerticalFromTop, coverHorizontalFromLeft,
                                 coverHorizontalFromRight, slide, crossDissolve,
                                 flipHorizontal, zoom
      --duration S               transition duration in seconds
      --timing NAME              linear, easeIn, easeOut, easeInEaseOut, default, system
      --id ID  --kind KIND  --content LABEL  --priority N  --override
      --status-bar STYLE         capture the status bar: default, lightContent, darkContent
    a dialog (a content object; --content LABEL is the other kind of content):
      --title T  --message M     its text
      --icon NAME|/PATH          a freedesktop icon name, or an absolute .png/.svg path
      --action ID:TITLE[:ROLE]   a button (repeatable); ROLE: default, cancel, destructive
      --field ID:KIND[:PLACEHOLDER]  an input (repeatable); KIND: text, secure, number
      --value ID=TEXT            a field's initial value
      --progress F|indeterminate a progress bar (0 to 1)
      --auto-dismiss S           leave (reason timeout) S seconds after presenting
      --wait                     wait for the answer: print the chosen action's id and exit
                                 0 (5 for the cancel action); exit 4 if the presentation
                                 leaves without an action. It belongs to this connection:
                                 when presentctl exits, it is dismissed
      --json                     (without OBJECT) with --wait, print {"action", "fields"}
      --json OBJECT              any presentation fields (see docs/PROTOCOL.md); merged last
  update ID [options]            change a presentation in place: the dialog options above
                                 (together they replace its whole content), --content LABEL,
                                 --no-content, --style, --auto-dismiss S, --no-auto-dismiss,
                                 --duration S, --timing NAME, --json OBJECT
  activate ID ACTION [--field ID=VALUE...]   press a button, with field values
  key escape|enter|back [--id ID] [--field ID=VALUE...]
                                 a key, for the topmost entry (with --id: only if it is ID)
  dismiss ID [--no-animation]    dismiss ID and everything above it
  dismiss-all [--no-animation]   dismiss everything
  stack                          list the stack, bottom to top
  watch [TOPIC...]               print notifications as JSON lines (default: lifecycle
                                 stack statusBar; add frames for every frame)
  watch --draw                   draw the container and its layers as boxes, live
  container W H [--duration S]   set the container size (points)
  keyboard HEIGHT [--duration S] show (HEIGHT > 0) or hide (0) the keyboard
  tap X Y                        tap the screen
  swipe PHASE DX DY [VX VY]      began, changed, ended or cancelled
  advance SECONDS                move the manual clock (presentd --clock manual)
  sync                           wait until every earlier event has been written
  call METHOD [PARAMS-JSON]      any method, raw

Exit status: 0 ok (present --wait: an action was chosen), 1 the daemon answered with an
error or went away, 2 usage error, 3 cannot connect; present --wait: 4 the presentation
left without an action (dismissed, timed out, ...), 5 the cancel-role action was chosen.
"""

enum Exit: Int32 {
    case ok = 0, daemonError = 1, usage = 2, cannotConnect = 3
    /// `present --wait`: the presentation left without an action.
    case noAnswer = 4
    /// `present --wait`: the `cancel`-role action was chosen.
    case cancelled = 5
}

struct Command {
    var socket: String?
    var name = ""
    var rest = ArgumentScanner([])
}

func printJSON(_ value: JSONValue) { print(value.serializedString) }

func parseJSON(_ text: String, what: String) throws -> JSONValue {
    do { return try JSONValue.parse(text) } catch { throw UsageError("\(what) is not valid JSON: \(error.message)") }
}

func number(_ text: String?, _ what: String) throws -> Double {
    guard let text, let d = Double(text), d.isFinite else { throw UsageError("\(what) must be a number") }
    return d
}

/// A style flag's value: a name, or `slideIn-DIRECTION`.
func style(_ text: String) -> JSONValue {
    guard text.hasPrefix("slideIn-") else { return .string(text) }
    return ["type": "slideIn", "direction": .string(String(text.dropFirst("slideIn-".count)))]
}

/// `--json OBJECT`: a JSON object of protocol fields.
func jsonObject(_ text: String) throws -> JSONObject {
    guard let o = try parseJSON(text, what: "--json").objectValue else { throw UsageError("--json takes a JSON object") }
    return o
}

/// `present`'s flags as presentation fields, and how to wait.
func presentParams(_ scanner: inout ArgumentScanner) throws -> PlannedRequest {
    var p: JSONObject = [:]
    var transition: JSONObject = [:]
    var content = ContentFlags()
    var plan = PlannedRequest(method: "present")
    var extra: JSONObject = [:]
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        if try content.accept(name, inline: inline, &scanner) { continue }
        switch name {
        case "--style": p["style"] = style(try scanner.value(for: name, inline: inline))
        case "--transition": transition["type"] = .string(try scanner.value(for: name, inline: inline))
        case "--duration": transition["duration"] = .double(try scanner.double(for: name, inline: inline, in: 0...3600))
        case "--timing": transition["timing"] = .string(try scanner.value(for: name, inline: inline))
        case "--id": p["id"] = .string(try scanner.value(for: name, inline: inline))
        case "--kind": p["kind"] = .string(try scanner.value(for: name, inline: inline))
        case "--priority": p["priority"] = .int(Int64(try scanner.int(for: name, inline: inline, in: 0...1000)))
        case "--override": p["precedence"] = "override"
        case "--status-bar": p["statusBar"] = ["style": .string(try scanner.value(for: name, inline: inline))]
        case "--auto-dismiss": p["autoDismiss"] = try autoDismiss(&scanner, name, inline: inline)
        case "--wait": plan.wait = true
        case "--json":
            // `--json OBJECT` merges fields; a bare `--json` (present takes no positional
            // words, and an object never starts with "-") asks for the answer as JSON.
            if inline == nil, scanner.peek?.hasPrefix("-") ?? true {
                plan.jsonAnswer = true
            } else {
                for (key, value) in try jsonObject(try scanner.value(for: name, inline: inline)) { extra[key] = value }
            }
        default: throw UsageError("present: unknown option \"\(word)\"")
        }
    }
    if p["style"] == nil { p["style"] = content.isObject ? "alert" : "popup" }
    if let c = try content.content() { p["content"] = c }
    if !transition.isEmpty {
        if transition["type"] == nil { transition["type"] = "coverVertical" }
        p["transition"] = .object(transition)
    }
    for (key, value) in extra { p[key] = value }
    plan.params = .object(p)
    return plan
}

/// `update ID`'s flags: only what is given changes.
func updateParams(_ id: String, _ scanner: inout ArgumentScanner) throws -> JSONValue {
    var p: JSONObject = ["id": .string(id)]
    var content = ContentFlags()
    var extra: JSONObject = [:]
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        if try content.accept(name, inline: inline, &scanner) { continue }
        switch name {
        case "--no-content": p["content"] = .null
        case "--style": p["style"] = style(try scanner.value(for: name, inline: inline))
        case "--auto-dismiss": p["autoDismiss"] = try autoDismiss(&scanner, name, inline: inline)
        case "--no-auto-dismiss": p["autoDismiss"] = .null
        case "--duration": p["duration"] = .double(try scanner.double(for: name, inline: inline, in: 0...3600))
        case "--timing": p["timing"] = .string(try scanner.value(for: name, inline: inline))
        case "--json": for (key, value) in try jsonObject(try scanner.value(for: name, inline: inline)) { extra[key] = value }
        default: throw UsageError("update: unknown option \"\(word)\"")
        }
    }
    if let c = try content.content() {
        guard p["content"] == nil else { throw UsageError("update: --no-content and new content exclude each other") }
        p["content"] = c
    }
    for (key, value) in extra { p[key] = value }
    return .object(p)
}

func animatedFlag(_ scanner: inout ArgumentScanner) throws -> JSONValue {
    var animated = true
    while let word = scanner.next() {
        guard word == "--no-animation" else { throw UsageError("unknown option \"\(word)\"") }
        animated = false
    }
    return .bool(animated)
}

func optionalDuration(_ scanner: inout ArgumentScanner, into params: inout JSONObject) throws {
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        guard name == "--duration" else { throw UsageError("unknown option \"\(word)\"") }
        params["duration"] = .double(try scanner.double(for: name, inline: inline, in: 0...3600))
    }
}

/// Prints notifications until the connection ends (or the process is interrupted).
func watch(_ client: PresentClient, topics: [String]) throws -> Never {
    if topics == ["--draw"] { try drawWatch(client) }  // Draw.swift
    let chosen = topics.isEmpty ? ["lifecycle", "stack", "statusBar"] : topics
    printJSON(try client.call("subscribe", ["topics": .array(chosen.map { .string($0) })]))
    fflush(nil)
    while true {
        if let n = try client.nextNotification(timeout: 3600) {
            printJSON(n)
            fflush(nil)
            if n["method"]?.stringValue == "shutdown" { exit(Exit.ok.rawValue) }
        }
    }
}

/// Runs one command; returns the exit status.
func run(_ arguments: [String]) -> Exit {
    var scanner = ArgumentScanner(arguments)
    var socket: String?
    do {
        while let word = scanner.peek, word.hasPrefix("-") {
            _ = scanner.next()
            let (name, inline) = ArgumentScanner.split(word)
            switch name {
            case "-h", "--help": print(usage); return .ok
            case "--socket": socket = try scanner.value(for: name, inline: inline)
            default: throw UsageError("unknown option \"\(word)\" (see presentctl --help)")
            }
        }
        guard let command = scanner.next() else { throw UsageError("no command given (see presentctl --help)") }
        if scanner.peek == "--help" || scanner.peek == "-h" { print(usage); return .ok }
        let path = SocketPath.resolve(explicit: socket)
        let request = try buildRequest(command, &scanner)
        let client: PresentClient
        do { client = try PresentClient(path: path) } catch {
            printError("presentctl: \(error)")
            if case .cannotConnect(_, let reason) = error, reason == String(cString: strerror(EACCES)) {
                printError("presentctl: \(permissionHint(path))")
            }
            return .cannotConnect
        }
        if command == "watch" { try watch(client, topics: request.topics) }
        if request.wait {
            let answer = try presentAndWait(client, request.params ?? [:])   // Dialog.swift
            if let line = answer.output(json: request.jsonAnswer) { print(line) }
            return answer.exit
        }
        printJSON(try client.call(request.method, request.params))
        return .ok
    } catch let error as UsageError {
        printError("presentctl: \(error)")
        return .usage
    } catch let error as DaemonGone {
        printError("presentctl: \(error)")
        return .daemonError
    } catch let error as ClientError {
        printError("presentctl: \(error)")
        if case .cannotConnect = error { return .cannotConnect }
        return .daemonError
    } catch {
        printError("presentctl: \(error)")
        return .daemonError
    }
}

/// Why a socket refuses this user, and what an administrator does about it.
func permissionHint(_ path: String) -> String {
    var st = stat()
    guard stat(path, &st) == 0 else { return "permission denied on the way to \(path)" }
    let group = getgrgid(st.st_gid).map { String(cString: $0.pointee.gr_name) } ?? "\(st.st_gid)"
    let user = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "\(getuid())"
    if st.st_mode & 0o070 == 0 { return "only its owner may connect to \(path)" }
    return "permission denied: only members of group \"\(group)\" may connect to \(path); "
        + "an administrator adds you with: usermod -aG \(group) \(user) (then log in again)"
}

struct PlannedRequest {
    var method: String
    var params: JSONValue?
    /// `present --wait`: wait for the answer (Dialog.swift) instead of printing the reply.
    var wait = false
    /// With `wait`: print the answer as a JSON object.
    var jsonAnswer = false
    var topics: [String] = []
}

func buildRequest(_ command: String, _ s: inout ArgumentScanner) throws -> PlannedRequest {
    switch command {
    case "hello": return PlannedRequest(method: "hello", params: ["client": "presentctl", "protocol": 1])
    case "ping", "stack", "sync":
        return PlannedRequest(method: command, params: command == "sync" ? ["nonce": "presentctl"] : nil)
    case "present":
        return try presentParams(&s)
    case "update":
        guard let id = s.next() else { throw UsageError("update needs an id") }
        return PlannedRequest(method: "update", params: try updateParams(id, &s))
    case "activate":
        guard let id = s.next(), let action = s.next() else { throw UsageError("activate needs an id and an action") }
        var p: JSONObject = ["id": .string(id), "action": .string(action)]
        try answerParams(&s, command: command, into: &p)
        return PlannedRequest(method: "activate", params: .object(p))
    case "key":
        guard let key = s.next() else { throw UsageError("key needs escape, enter or back") }
        var p: JSONObject = ["key": .string(key)]
        try answerParams(&s, command: command, into: &p)
        return PlannedRequest(method: "key", params: .object(p))
    case "dismiss":
        guard let id = s.next() else { throw UsageError("dismiss needs an id") }
        return PlannedRequest(method: "dismiss", params: ["id": .string(id), "animated": try animatedFlag(&s)])
    case "dismiss-all":
        return PlannedRequest(method: "dismissAll", params: ["animated": try animatedFlag(&s)])
    case "watch":
        var topics: [String] = []
        while let t = s.next() { topics.append(t) }
        return PlannedRequest(method: "subscribe", topics: topics)
    case "container":
        var p: JSONObject = ["width": .double(try number(s.next(), "width")), "height": .double(try number(s.next(), "height"))]
        try optionalDuration(&s, into: &p)
        return PlannedRequest(method: "setContainer", params: .object(p))
    case "keyboard":
        var p: JSONObject = ["height": .double(try number(s.next(), "height"))]
        try optionalDuration(&s, into: &p)
        return PlannedRequest(method: "keyboard", params: .object(p))
    case "tap":
        return PlannedRequest(method: "tap", params: ["x": .double(try number(s.next(), "x")), "y": .double(try number(s.next(), "y"))])
    case "swipe":
        guard let phase = s.next() else { throw UsageError("swipe needs a phase") }
        var p: JSONObject = ["phase": .string(phase), "dx": .double(try number(s.next(), "dx")), "dy": .double(try number(s.next(), "dy"))]
        if let vx = s.next() { p["vx"] = .double(try number(vx, "vx")); p["vy"] = .double(try number(s.next(), "vy")) }
        return PlannedRequest(method: "swipe", params: .object(p))
    case "advance":
        return PlannedRequest(method: "advance", params: ["seconds": .double(try number(s.next(), "seconds"))])
    case "call":
        guard let method = s.next() else { throw UsageError("call needs a method") }
        let params = try s.next().map { try parseJSON($0, what: "params") }
        return PlannedRequest(method: method, params: params)
    default:
        throw UsageError("unknown command \"\(command)\" (see presentctl --help)")
    }
}

signal(SIGPIPE, SIG_IGN)
exit(run(Array(CommandLine.arguments.dropFirst())).rawValue)
