// presentctl: the command-line client. One subcommand per protocol method, plus
// `watch` to print events and `toast` to show one in a line. Exit codes: 0 ok (or an action chosen), 1 daemon error,
// 2 usage, 3 cannot connect, 4 left without an action, 5 the cancel action chosen.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentCommandLine
import PresentSystem
import PresentJSON
import PresentProtocol

let usage = """
Usage: presentctl [--socket PATH] COMMAND [ARGS]
       presentctl --version | --help | --commands

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
      --level LEVEL              normal (the modal stack, default), overlay (banners, toasts:
                                 no dimming, no taps outside itself), alert (above everything)
      --interaction WHAT         a tap outside it: absorb, dismiss, forward (passes through)
      --position WHERE           an overlay's place: top (default), bottom, center, leading,
                                 trailing (the top corner of that side)
      --margin PT                an overlay's distance from the safe area's edge (default 8)
      --context NAME             lay it out, dim and clip it in a context (see context)
      --droppable                refused, not held, while do not disturb holds it
      --dry-run                  only say what would happen (outcome, queuedBehind, startsAt)
    a resizable sheet (these make the style a sheet; --style sheet alone is one at large):
      --detents LIST             the heights it rests at, comma-separated: medium, large,
                                 ID=PT, ID=N% (of the largest) or ID=content
      --detent ID                the detent it starts at (default: the smallest)
      --undimmed-detent ID       at or below it: no dimming, and taps beside it pass through
      --grabber                  draw a grabber bar at its top
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
      --hold                     print {id, state} once presented and return, while a
                                 background presentctl holds the entry (it belongs to its
                                 connection) until it leaves: for a script that goes on
                                 (update ID, dismiss ID) while it shows
      --print-id                 with --wait, print the entry's id on stderr once it is
                                 presented (on a terminal it says how to answer it anyway)
      --json                     (without OBJECT) with --wait, print {"action", "fields"}
      --json OBJECT              any presentation fields (see docs/PROTOCOL.md); merged last
  toast TEXT [options]           a toast, in one line: an overlay showing TEXT, as wide and
                                 tall as the renderer measures it, that leaves by itself.
                                 Prints {id, state} and returns; a background presentctl
                                 holds the toast (it belongs to its connection) until it goes
      --after S                  leave S seconds after presenting (default 2)
      --position WHERE           where it sits, as for present; --margin PT from the edge
      --wait                     stay until it has gone, as present --wait: exit 4 when it
                                 leaves without an action (its time ran out)
                                 also: present's options (--id, --kind, --context, --style,
                                 --transition, --duration, --action, --icon, --json …)
  update ID [options]            change a presentation in place: the dialog options above
                                 (together they replace its whole content), --content LABEL,
                                 --no-content, --style, --auto-dismiss S, --no-auto-dismiss,
                                 --duration S, --timing NAME, --json OBJECT, and --detent ID
                                 (a sheet springs to that detent)
  activate ID ACTION [--field ID=VALUE...]   press a button, with field values
      --activation-token T       the compositor's xdg-activation token for the press,
                                 passed on to the owner
  key escape|enter|back [--id ID] [--field ID=VALUE...]
                                 a key, for the topmost entry (with --id: only if it is ID)
  focus ID [FIELD]               say which field of ID has focus (none without FIELD)
  dismiss ID [--no-animation]    dismiss ID and everything above it
  dismiss-all [--no-animation]   dismiss everything
  stack                          list the stack, bottom to top
  watch [TOPIC...]               print notifications as JSON lines (default: lifecycle
                                 stack statusBar; add frames for every frame); when presentd
                                 restarts it connects again, as present --wait does
  watch --draw                   draw the container and its layers as boxes, live: overlays
                                 rounded (╭╮), alert-level entries heavy (┏┓), contexts clipped
  watch --waybar                 the status bar's appearance as waybar custom-module JSON lines
                                 (class: default, lightContent or darkContent, and hidden)
  container W H [--duration S]   set the container size (points)
  keyboard HEIGHT [--duration S] show (HEIGHT > 0) or hide (0) the keyboard
  tap X Y                        tap the screen; says who took it, or forwarded: true
  context define NAME X Y W H [--duration S]
                                 name (or move) a rectangle entries can be presented in
  context remove NAME            take it away: its entries leave (reason contextGone)
  context list                   the contexts, by name
  output add NAME W H [--fps N] [--scale S] [--safe-area TOP,LEFT,BOTTOM,RIGHT]
                                 another screen, with its own size, frame rate and stack
  output remove NAME             take it away: its entries leave (reason outputGone)
  output list                    the screens ("main" is there from the start)
  swipe PHASE DX DY [VX VY]      began, changed, ended or cancelled
  advance SECONDS                move the manual clock (presentd --clock manual)
  sync                           wait until every earlier event has been written
  dnd on [--until T | --for S] [--allow-above N]
                                 do not disturb: hold presentations of priority N or less
                                 (default 500) until T (the daemon's clock), for S seconds,
                                 or until dnd off; the held ones then come in priority order
  dnd off                        end it
  mode reduced-motion on|off     reduced motion: transitions cross-fade and springs do not
                                 overshoot, until off (or presentd restarts); prints the
                                 screen's modes
  mode                           print the screen's modes (do not disturb, reduced motion)
  explain ID                     why ID is where it is: what it waits for and until when,
                                 who may dismiss it, the adaptation in force
  record-dump [PATH]             the daemon's flight recording (admin): as NDJSON on
                                 stdout, or written by the daemon to PATH (made absolute
                                 here); replay it with presentd --replay PATH --clock manual
  stats                          clients, queues, frames, requests per method (admin)
  notifications [--json] [--last N | --count]
                                 the desktop notifications that ended, oldest first: when,
                                 how (expired, dismissed, closed, undefined), id, app and
                                 summary; then the live ones (when posted, showing or
                                 waiting) (--json: a JSON array). --count: how many are
                                 live; with --json, a waybar module's {text, alt, tooltip,
                                 class: "dnd" or "none"}. Kept by the D-Bus bridge:
                                 runs presentd-notify --history (next to presentctl, else
                                 on $PATH), and says so when it is not installed or not
                                 running (exit 3 and 1)
  discover                       the daemon's methods as an OpenRPC document (rpc.discover)
  call METHOD [PARAMS-JSON]      any method, raw

--commands lists each method of the protocol and the command that calls it.

Every command about one screen (present, toast, container, keyboard, tap, swipe, key,
stack, context, watch, dnd, mode) takes --output NAME: that screen instead of "main".

Exit status: 0 ok (present --wait: an action was chosen), 1 the daemon answered with an
error or went away, 2 usage error (also when the daemon refuses a flag's value), 3 cannot
connect; present --wait: 4 the presentation
left without an action (dismissed, timed out, ...), 5 the cancel-role action was chosen;
toast --wait exits as present --wait does.
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

/// A positional number `what` of the command whose synopsis is `usage` ("tap X Y"): the
/// message names the synopsis, so `presentctl tap` says what tap takes.
func number(_ text: String?, _ what: String, _ usage: String) throws -> Double {
    guard let text else { throw UsageError("\(usage): \(what) is missing") }
    guard let d = Double(text), d.isFinite else {
        throw UsageError("\(usage): \(what) must be a number, not \"\(text)\"")
    }
    return d
}

/// A style flag's value: a name, or `slideIn-DIRECTION`.
func style(_ text: String) -> JSONValue {
    guard text.hasPrefix("slideIn-") else { return .string(text) }
    return ["type": "slideIn", "direction": .string(String(text.dropFirst("slideIn-".count)))]
}

/// `--json OBJECT`: a JSON object of protocol fields.
func jsonObject(_ text: String) throws -> JSONObject {
    guard let o = try parseJSON(text, what: "--json").objectValue else {
        throw UsageError("--json takes a JSON object")
    }
    return o
}

/// `present`'s flags as presentation fields, and how to wait. With `toast`, `toast TEXT`'s:
/// the same flags, TEXT the title, `--after` for `--auto-dismiss`, and the toast's defaults
/// (Levels.swift) for what they leave out.
func presentParams(_ scanner: inout ArgumentScanner, toast: String? = nil) throws -> PlannedRequest {
    var p: JSONObject = [:]
    var transition: JSONObject = [:]
    var content = ContentFlags()
    var sheet = SheetFlags()   // Sheets.swift
    if let toast { content.title(toast) }
    var plan = PlannedRequest(method: "present")
    var extra: JSONObject = [:]
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        if try content.accept(name, inline: inline, &scanner) { continue }
        if let field = PresentFlag.fields[name] { plan.flags[field] = name }
        if try sheet.accept(name, inline: inline, &scanner) { continue }
        switch name {
        case "--style": p["style"] = style(try scanner.value(for: name, inline: inline))
        case "--transition": transition["type"] = .string(try scanner.value(for: name, inline: inline))
        case "--duration": transition["duration"] = .double(try scanner.double(for: name, inline: inline, in: 0...3600))
        case "--timing": transition["timing"] = .string(try scanner.value(for: name, inline: inline))
        case "--id": p["id"] = .string(try scanner.value(for: name, inline: inline))
        case "--kind": p["kind"] = .string(try scanner.value(for: name, inline: inline))
        case "--priority": p["priority"] = .int(Int64(try scanner.int(for: name, inline: inline, in: 0...1000)))
        case "--override": p["precedence"] = "override"
        case "--droppable": p["droppable"] = true
        case "--status-bar": p["statusBar"] = ["style": .string(try scanner.value(for: name, inline: inline))]
        case _ where name == "--auto-dismiss" || (name == "--after" && toast != nil):
            p["autoDismiss"] = try autoDismiss(&scanner, name, inline: inline)
        case "--level", "--interaction", "--position", "--context":
            p[String(name.dropFirst(2))] = .string(try scanner.value(for: name, inline: inline))
        case "--margin": p["margin"] = .double(try scanner.double(for: name, inline: inline, in: 0...100_000))
        case "--wait": plan.wait = true
        case "--print-id": plan.printID = true
        case "--hold": plan.background = true
        case "--dry-run": p["dryRun"] = true
        case "--json":
            // `--json OBJECT` merges fields; a bare `--json` (present takes no positional
            // words, and an object never starts with "-") asks for the answer as JSON.
            if inline == nil, scanner.peek?.hasPrefix("-") ?? true {
                plan.jsonAnswer = true
            } else {
                for (key, value) in try jsonObject(try scanner.value(for: name, inline: inline)) { extra[key] = value }
            }
        default: throw UsageError("\(toast == nil ? "present" : "toast"): unknown option \"\(word)\"")
        }
    }
    p["style"] = try sheet.apply(to: p["style"])
    if p["style"] == nil, toast == nil { p["style"] = content.isObject ? "alert" : "popup" }
    if let c = try content.content() { p["content"] = c }
    plan.flags.merge(content.flagsByField) { $1 }
    if toast != nil, plan.flags["autoDismiss"] == nil, p["autoDismiss"] != nil { plan.flags["autoDismiss"] = "--after" }
    if !transition.isEmpty {
        if transition["type"] == nil { transition["type"] = "coverVertical" }
        p["transition"] = .object(transition)
    }
    for (key, value) in extra {
        p[key] = value
        plan.flags = plan.flags.filter { !isWithin($0.key, key) }
        plan.flags[key] = "--json"
    }
    if toast != nil {
        Toast.complete(&p, transitionGiven: p["transition"] != nil)
        plan.background = !plan.wait
    }
    if plan.wait && plan.background {
        throw UsageError("\(toast == nil ? "present" : "toast"): --wait and --hold exclude each other")
    }
    plan.params = .object(p)
    return plan
}

/// The protocol field each of present's and update's flags sets, so that an error the daemon
/// finds in a field is reported as the flag's (`--style: must be one of …`): the daemon
/// checks the values, and the user should hear about what they typed. A static, not a
/// global: main.swift's globals are built before anything runs, and building this one (a
/// dictionary's first use) is a noticeable part of a short command that only present and
/// update need; a static is built on first use.
enum PresentFlag {
    static let fields: [String: String] = [
        "--style": "style", "--transition": "transition.type", "--duration": "transition.duration",
        "--timing": "transition.timing", "--id": "id", "--kind": "kind", "--priority": "priority",
        "--status-bar": "statusBar", "--auto-dismiss": "autoDismiss", "--level": "level",
        "--interaction": "interaction", "--position": "position", "--margin": "margin", "--context": "context",
    ].merging(SheetFlags.fields) { $1 }
}

/// Whether the field path `field` is `prefix` or inside it (`content.actions[1].role` is
/// inside `content.actions` and `content`).
func isWithin(_ field: String, _ prefix: String) -> Bool {
    guard field.hasPrefix(prefix) else { return false }
    let rest = field.dropFirst(prefix.count)
    return rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[")
}

/// `update ID`'s flags: only what is given changes.
func updateParams(_ id: String, _ scanner: inout ArgumentScanner) throws -> PlannedRequest {
    var p: JSONObject = ["id": .string(id)]
    var content = ContentFlags()
    var extra: JSONObject = [:]
    var plan = PlannedRequest(method: "update")
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        if try content.accept(name, inline: inline, &scanner) { continue }
        // update's --duration and --timing are its own members, not a transition's, and its
        // --detent is update's selectedDetent, not a style's.
        if name == "--duration" || name == "--timing" { plan.flags[String(name.dropFirst(2))] = name }
        else if name == "--detent" { plan.flags["selectedDetent"] = name }
        else if let field = PresentFlag.fields[name] { plan.flags[field] = name }
        switch name {
        case "--detent": p["selectedDetent"] = .string(try scanner.value(for: name, inline: inline))
        case "--no-content": p["content"] = .null
        case "--style": p["style"] = style(try scanner.value(for: name, inline: inline))
        case "--auto-dismiss": p["autoDismiss"] = try autoDismiss(&scanner, name, inline: inline)
        case "--no-auto-dismiss": p["autoDismiss"] = .null
        case "--duration": p["duration"] = .double(try scanner.double(for: name, inline: inline, in: 0...3600))
        case "--timing": p["timing"] = .string(try scanner.value(for: name, inline: inline))
        case "--json":
            for (key, value) in try jsonObject(try scanner.value(for: name, inline: inline)) { extra[key] = value }
        default: throw UsageError("update: unknown option \"\(word)\"")
        }
    }
    if let c = try content.content() {
        guard p["content"] == nil else { throw UsageError("update: --no-content and new content exclude each other") }
        p["content"] = c
    }
    plan.flags.merge(content.flagsByField) { $1 }
    for (key, value) in extra {
        p[key] = value
        plan.flags = plan.flags.filter { !isWithin($0.key, key) }
        plan.flags[key] = "--json"
    }
    plan.params = .object(p)
    return plan
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

/// Prints notifications until the process is interrupted. When the daemon goes away (a
/// restart, a crash: `shutdown`, or just the end of the connection) it connects again as
/// `present --wait` does (Dialog.swift's `reconnecting`), subscribes again and prints the
/// new subscription's snapshot; a connection the daemon closed on purpose (`closing`) ends it.
func watch(_ first: PresentClient, topics: [String], output: String?) throws -> Never {
    if topics == ["--draw"] { try drawWatch(first, output: output) }  // Draw.swift
    if topics == ["--waybar"] { try waybarWatch(first, output: output) }  // Waybar.swift
    let chosen = topics.isEmpty ? ["lifecycle", "stack", "statusBar"] : topics
    var params: JSONObject = ["topics": .array(chosen.map { .string($0) })]
    if let output { params["outputs"] = [.string(output)] }
    var client = first
    printJSON(try client.call("subscribe", .object(params)))
    fflush(nil)
    var goingAway: String?   // the daemon said shutdown: why, for the message if it does not come back
    while true {
        do {
            guard let n = try client.nextNotification(timeout: 3600) else { continue }
            printJSON(n)
            fflush(nil)
            let why = "\(n["method"]?.stringValue ?? "") (\(n["params"]?["reason"]?.stringValue ?? ""))"
            if n["method"] == "closing" { throw DaemonGone(description: "presentd: \(why)") }
            if n["method"] == "shutdown" { goingAway = why }
        } catch {
            guard case .io(let why) = error as? ClientError else { throw error }
            let (again, subscribed) = try reconnecting(client.path, gone: goingAway ?? why) { c in
                (c, try c.call("subscribe", .object(params)))
            }
            client = again
            goingAway = nil
            printJSON(subscribed)
            fflush(nil)
        }
    }
}

/// Runs one command; returns the exit status.
func run(_ arguments: [String]) -> Exit {
    var scanner = ArgumentScanner(arguments)
    var socket: String?
    var planned: PlannedRequest?   // for the daemon's errors about what a flag set
    do {
        while let word = scanner.peek, word.hasPrefix("-") {
            _ = scanner.next()
            let (name, inline) = ArgumentScanner.split(word)
            switch name {
            case "-h", "--help": print(usage); return .ok
            case "--version": print("presentctl \(presentdVersion)"); return .ok
            case "--commands": printCommands(); return .ok   // Commands.swift
            case "--socket": socket = try scanner.value(for: name, inline: inline)
            default: throw UsageError("unknown option \"\(word)\" (see presentctl --help)")
            }
        }
        guard let command = scanner.next() else { throw UsageError("no command given (see presentctl --help)") }
        if scanner.peek == "--help" || scanner.peek == "-h" { print(usage); return .ok }
        let path = SocketPath.resolve(explicit: socket)
        var words: [String] = []
        while let word = scanner.next() { words.append(word) }
        if let delegated = delegatedCommand(command) {   // Delegated.swift
            return try runDelegated(delegated, words)
        }
        let output = try takeOutput(command, &words)   // Levels.swift
        var rest = ArgumentScanner(words)
        var request = try buildRequest(command, &rest)
        if let output, command != "watch" {
            var params = request.params?.objectValue ?? [:]
            params["output"] = .string(output)
            request.params = .object(params)
            request.flags["output"] = "--output"
        }
        planned = request
        let client: PresentClient
        do { client = try PresentClient(path: path) } catch {
            printError("presentctl: \(error)")
            if case .cannotConnect(_, let reason) = error, reason == String(cString: strerror(EACCES)) {
                printError("presentctl: \(permissionHint(path))")
            } else {
                printError("presentctl: \(socketHint(explicit: socket))")
            }
            return .cannotConnect
        }
        if command == "watch" { try watch(client, topics: request.topics, output: output) }
        if request.wait {
            let answer = try presentAndWait(client, request.params ?? [:], printID: request.printID)   // Dialog.swift
            if let line = answer.output(json: request.jsonAnswer) { print(line) }
            return answer.exit
        }
        if request.background { return try presentInBackground(client, request.params ?? [:]) }   // Levels.swift
        let result = try client.call(request.method, request.params)
        if request.rawMember, let member = request.member, let text = result[member]?.stringValue {
            print(text, terminator: "")
            return .ok
        }
        printJSON(request.member.map { .object([$0: result[$0] ?? .null]) } ?? result)
        return .ok
    } catch let error as UsageError {
        printError("presentctl: \(error)")
        return .usage
    } catch let error as DaemonGone {
        printError("presentctl: \(error)")
        return .daemonError
    } catch let error as ClientError {
        if let planned, let flagError = flagError(error, planned) {
            printError("presentctl: \(flagError)")
            return .usage
        }
        printError("presentctl: \(error)")
        if case .cannotConnect = error { return .cannotConnect }
        return .daemonError
    } catch {
        printError("presentctl: \(error)")
        return .daemonError
    }
}

/// Where presentctl looked for the daemon, and how to tell it where else to look.
func socketHint(explicit: String?) -> String {
    let (path, source) = SocketPath.resolveWithSource(explicit: explicit)
    return "is presentd running? \(path) is \(source); "
        + "to connect elsewhere: presentctl --socket PATH …, or PRESENTD_SOCKET=PATH (see presentctl --help)"
}

/// The daemon refused a value the user gave with a flag (invalid params in a field a flag
/// set): the message for that flag's usage error (exit 2, not a daemon error), or nil.
func flagError(_ error: ClientError, _ request: PlannedRequest) -> String? {
    guard case .rpc(let code, _, let data) = error, code == -32602,
          let field = data?["field"]?.stringValue, let reason = data?["reason"]?.stringValue,
          let (set, flag) = request.flags.filter({ isWithin(field, $0.key) }).max(by: { $0.key.count < $1.key.count })
    else { return nil }
    return field == set && flag != "--json" ? "\(flag): \(reason)" : "\(flag): \(field): \(reason)"
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
    /// `toast` without `--wait`: print the reply, and keep the connection in the background
    /// until the toast has gone (Levels.swift).
    var background = false
    /// Print only this member of the result.
    var member: String?
    /// With `member`: print that string member as it is, not as JSON (record-dump).
    var rawMember = false
    /// With `wait`: print the entry's id on stderr once presented (`--print-id`).
    var printID = false
    /// The protocol field (path) each flag or positional word set, by field: the daemon's
    /// invalid-params errors name fields, presentctl's name what the user typed.
    var flags: [String: String] = [:]
}

func buildRequest(_ command: String, _ s: inout ArgumentScanner) throws -> PlannedRequest {
    switch command {
    case "hello": return PlannedRequest(method: "hello", params: ["client": "presentctl", "protocol": 1])
    case "ping", "stack", "sync":
        return PlannedRequest(method: command, params: command == "sync" ? ["nonce": "presentctl"] : nil)
    case "present":
        return try presentParams(&s)
    case "toast":
        guard let text = s.next(), !text.hasPrefix("-") else { throw UsageError("toast needs its text first") }
        return try presentParams(&s, toast: text)
    case "context":
        return try contextRequest(&s)
    case "output":
        return try outputRequest(&s)
    case "dnd":
        return try dndRequest(&s)   // Modes.swift
    case "mode":
        return try modeRequest(&s)   // Modes.swift
    case "explain":
        return try explainRequest(&s)
    case "update":
        guard let id = s.next() else { throw UsageError("update needs an id") }
        return try updateParams(id, &s)
    case "activate", "key":
        var p: JSONObject
        var plan = PlannedRequest(method: command)
        if command == "activate" {
            guard let id = s.next(), let action = s.next() else {
                throw UsageError("activate needs an id and an action")
            }
            p = ["id": .string(id), "action": .string(action)]
            plan.flags = ["action": "ACTION (activate ID ACTION)", "fields": "--field",
                          "activationToken": "--activation-token"]
        } else {
            guard let key = s.next() else { throw UsageError("key needs escape, enter or back") }
            p = ["key": .string(key)]
            plan.flags = ["key": "key escape|enter|back", "fields": "--field"]
        }
        try answerParams(&s, command: command, into: &p)
        plan.params = .object(p)
        return plan
    case "focus":
        guard let id = s.next() else { throw UsageError("focus ID [FIELD]: ID is missing") }
        var p: JSONObject = ["id": .string(id)]
        if let field = s.next() { p["field"] = .string(field) }
        if let extra = s.next() { throw UsageError("focus ID [FIELD]: unexpected \"\(extra)\"") }
        var plan = PlannedRequest(method: "focus", params: .object(p))
        plan.flags["field"] = "FIELD (focus ID FIELD)"
        return plan
    case "stats", "discover":
        if let extra = s.next() { throw UsageError("\(command) takes no arguments, not \"\(extra)\"") }
        return PlannedRequest(method: command == "stats" ? "stats" : "rpc.discover")
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
        var p: JSONObject = ["width": .double(try number(s.next(), "W", "container W H")),
                             "height": .double(try number(s.next(), "H", "container W H"))]
        try optionalDuration(&s, into: &p)
        return PlannedRequest(method: "setContainer", params: .object(p))
    case "keyboard":
        var p: JSONObject = ["height": .double(try number(s.next(), "HEIGHT", "keyboard HEIGHT"))]
        try optionalDuration(&s, into: &p)
        return PlannedRequest(method: "keyboard", params: .object(p))
    case "tap":
        let x = try number(s.next(), "X", "tap X Y"), y = try number(s.next(), "Y", "tap X Y")
        if let extra = s.next() { throw UsageError("tap X Y: unexpected \"\(extra)\"") }
        return PlannedRequest(method: "tap", params: ["x": .double(x), "y": .double(y)])
    case "swipe":
        let usage = "swipe PHASE DX DY [VX VY]"
        guard let phase = s.next() else {
            throw UsageError("\(usage): PHASE (began, changed, ended or cancelled) is missing")
        }
        var p: JSONObject = ["phase": .string(phase), "dx": .double(try number(s.next(), "DX", usage)),
                             "dy": .double(try number(s.next(), "DY", usage))]
        if let vx = s.next() {
            p["vx"] = .double(try number(vx, "VX", usage)); p["vy"] = .double(try number(s.next(), "VY", usage))
        }
        var plan = PlannedRequest(method: "swipe", params: .object(p))
        plan.flags["phase"] = "PHASE (swipe PHASE DX DY)"
        return plan
    case "advance":
        return PlannedRequest(
            method: "advance", params: ["seconds": .double(try number(s.next(), "SECONDS", "advance SECONDS"))])
    case "record-dump":
        guard let path = s.next() else {
            return PlannedRequest(method: "recordDump", params: [:], member: "recording", rawMember: true)
        }
        if let extra = s.next() { throw UsageError("record-dump takes at most a path, not also \"\(extra)\"") }
        return PlannedRequest(method: "recordDump", params: ["path": .string(absolutePath(path))])
    case "call":
        guard let method = s.next() else { throw UsageError("call needs a method") }
        let params = try s.next().map { try parseJSON($0, what: "params") }
        return PlannedRequest(method: method, params: params)
    default:
        throw UsageError("unknown command \"\(command)\" (see presentctl --help)")
    }
}

/// `path` from the current directory: the daemon's is not ours.
func absolutePath(_ path: String) -> String {
    guard !path.hasPrefix("/") else { return path }
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getcwd(&buffer, buffer.count) != nil else { return path }
    let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return (cwd == "/" ? "" : cwd) + "/" + path
}

signal(SIGPIPE, SIG_IGN)
exit(run(Array(CommandLine.arguments.dropFirst())).rawValue)
