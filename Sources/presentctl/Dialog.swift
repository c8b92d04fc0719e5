// presentctl's dialogs: a content object from flags (`--title`, `--action ok:OK:default`, …),
// shared by `present` and `update`, and `present --wait`, which waits for the person's
// answer and says it in the exit status — so a shell script can ask a question the way it
// would with zenity or kdialog.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentCommandLine
import PresentSystem
import PresentJSON

/// The content flags of `present` and `update`. A label (`--content`) and the parts of a
/// content object (`--title` …) exclude each other.
struct ContentFlags {
    private var label: String?
    private var parts: JSONObject = [:]
    private var actions: [JSONObject] = []
    private var fields: [JSONObject] = []
    private var values: [(id: String, value: String)] = []

    static let roles: Set<String> = ["default", "cancel", "destructive"]
    static let kinds: Set<String> = ["text", "secure", "number"]

    /// Whether any content flag was given.
    var isEmpty: Bool { label == nil && parts.isEmpty && actions.isEmpty && fields.isEmpty && values.isEmpty }

    /// Whether the flags describe a dialog (a content object, not a label).
    var isObject: Bool { !isEmpty && label == nil }

    /// Sets the title (a toast's text); a later `--title` replaces it.
    mutating func title(_ text: String) { parts["title"] = .string(text) }

    /// Takes `name` (and its value) if it is a content flag; false if it is not one.
    mutating func accept(_ name: String, inline: String?, _ scanner: inout ArgumentScanner) throws -> Bool {
        switch name {
        case "--content": label = try scanner.value(for: name, inline: inline)
        case "--title": parts["title"] = .string(try scanner.value(for: name, inline: inline))
        case "--message": parts["message"] = .string(try scanner.value(for: name, inline: inline))
        case "--icon":
            let icon = try scanner.value(for: name, inline: inline)
            parts["icon"] = icon.hasPrefix("/") ? ["path": .string(icon)] : ["name": .string(icon)]
        case "--progress":
            let text = try scanner.value(for: name, inline: inline)
            if text == "indeterminate" {
                parts["progress"] = .null
            } else {
                guard let d = Double(text), d.isFinite, (0...1).contains(d) else {
                    throw UsageError("--progress takes a number from 0 to 1 or \"indeterminate\", not \"\(text)\"")
                }
                parts["progress"] = .double(d)
            }
        case "--action": actions.append(try Self.action(try scanner.value(for: name, inline: inline)))
        case "--field": fields.append(try Self.field(try scanner.value(for: name, inline: inline)))
        case "--value":
            let (id, value) = try assignment(try scanner.value(for: name, inline: inline), for: name)
            values.append((id, value))
        default: return false
        }
        return true
    }

    /// The protocol fields these flags set, each with the flag that set it: a daemon's error
    /// about `content.actions[1].role` is then reported as `--action`'s.
    var flagsByField: [String: String] {
        var flags: [String: String] = [:]
        if label != nil { flags["content"] = "--content" }
        for key in parts.keys { flags["content." + key] = "--" + key }   // title, message, icon, progress
        if !actions.isEmpty { flags["content.actions"] = "--action" }
        if !fields.isEmpty { flags["content.fields"] = "--field" }
        return flags
    }

    /// The `content` member: nil when no content flag was given.
    func content() throws -> JSONValue? {
        if let label {
            guard parts.isEmpty, actions.isEmpty, fields.isEmpty, values.isEmpty else {
                throw UsageError("--content LABEL and the parts of a dialog (--title, --message, --icon, --progress, "
                                 + "--action, --field, --value) exclude each other")
            }
            return .string(label)
        }
        guard isObject else { return nil }
        var content = parts
        var fields = self.fields
        for (id, value) in values {
            guard let i = fields.firstIndex(where: { $0["id"]?.stringValue == id }) else {
                throw UsageError("--value \(id)=…: there is no --field \(id):KIND")
            }
            fields[i]["value"] = .string(value)
        }
        if !actions.isEmpty { content["actions"] = .array(actions.map { .object($0) }) }
        if !fields.isEmpty { content["fields"] = .array(fields.map { .object($0) }) }
        return .object(content)
    }

    /// `ID:TITLE[:ROLE]`: the title may hold colons; a last part that names a role is the role.
    static func action(_ text: String) throws -> JSONObject {
        guard let colon = text.firstIndex(of: ":") else {
            throw UsageError("--action takes ID:TITLE[:ROLE] (ROLE: default, cancel or destructive), not \"\(text)\"")
        }
        let id = String(text[..<colon])
        var title = String(text[text.index(after: colon)...])
        var role: String?
        if let last = title.lastIndex(of: ":"), roles.contains(String(title[title.index(after: last)...])) {
            role = String(title[title.index(after: last)...])
            title = String(title[..<last])
        }
        guard !id.isEmpty, !title.isEmpty else {
            throw UsageError("--action takes ID:TITLE[:ROLE] with a non-empty id and title, not \"\(text)\"")
        }
        var action: JSONObject = ["id": .string(id), "title": .string(title)]
        if let role { action["role"] = .string(role) }
        return action
    }

    /// `ID:KIND[:PLACEHOLDER]`: the placeholder is the rest, colons and all.
    static func field(_ text: String) throws -> JSONObject {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, kinds.contains(parts[1]) else {
            throw UsageError("--field takes ID:KIND[:PLACEHOLDER] (KIND: text, secure or number), not \"\(text)\"")
        }
        var field: JSONObject = ["id": .string(parts[0]), "kind": .string(parts[1])]
        if parts.count == 3, !parts[2].isEmpty { field["placeholder"] = .string(parts[2]) }
        return field
    }
}

/// `ID=VALUE` (the value may be empty and hold `=`).
func assignment(_ text: String, for option: String) throws -> (String, String) {
    guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
        throw UsageError("\(option) takes ID=VALUE, not \"\(text)\"")
    }
    return (String(text[..<eq]), String(text[text.index(after: eq)...]))
}

/// The options of `activate` and `key`: `--field ID=VALUE…` (the answers to send) into
/// `params.fields`, and for `key`, `--id ID` (the entry those fields belong to).
func answerParams(_ scanner: inout ArgumentScanner, command: String, into params: inout JSONObject) throws {
    var answers: JSONObject = [:]
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        switch name {
        case "--field":
            let (id, value) = try assignment(try scanner.value(for: name, inline: inline), for: "--field")
            answers[id] = .string(value)
        case "--id" where command == "key": params["id"] = .string(try scanner.value(for: name, inline: inline))
        case "--activation-token" where command == "activate":
            params["activationToken"] = .string(try scanner.value(for: name, inline: inline))
        default: throw UsageError("\(command): unknown option \"\(word)\"")
        }
    }
    if !answers.isEmpty { params["fields"] = .object(answers) }
}

/// `--auto-dismiss SECONDS` as the protocol's `autoDismiss`.
func autoDismiss(_ scanner: inout ArgumentScanner, _ name: String, inline: String?) throws -> JSONValue {
    ["after": .double(try scanner.double(for: name, inline: inline, in: 0...86400))]
}

// MARK: present --wait

/// How `present --wait` ended.
enum Answer {
    /// One of the entry's actions was activated; `cancel` when it is the `cancel`-role one.
    case action(String, fields: JSONObject, cancel: Bool)
    /// It left without an action (dismissed, tapped or swiped away, timed out, preempted,
    /// escaped without a cancel action): the reason.
    case left(reason: String)

    var exit: Exit {
        switch self {
        case .action(_, _, let cancel): return cancel ? .cancelled : .ok
        case .left: return .noAnswer
        }
    }

    /// What stdout says: the action's id (nothing when it left), or with `json` an object.
    func output(json: Bool) -> String? {
        switch (self, json) {
        case (.action(let id, _, _), false): return id
        case (.action(let id, let fields, _), true):
            return JSONValue.object(["action": .string(id), "fields": .object(fields)]).serializedString
        case (.left, false): return nil
        case (.left(let reason), true):
            return JSONValue.object(["action": .null, "reason": .string(reason)]).serializedString
        }
    }
}

/// The daemon went away before the person answered.
struct DaemonGone: Error, CustomStringConvertible {
    let description: String
}

/// Presents `params` and waits for what becomes of the entry. Subscribes to lifecycle
/// before presenting, so nothing between the reply and the subscription is missed.
///
/// The answer is the owner's `action` notification (with the field values). An entry it
/// does not own (a deduplicated `present` returned another client's entry) sends it none;
/// then the lifecycle's `willDismiss`/`didDismiss` with reason `action` names the action
/// (without field values). Leaving for any other reason is `.left`. Whether an action is the
/// cancel one is decided by the content in force (an `update` may change the actions). It
/// returns as soon as the entry starts leaving — on the manual clock the rest of the
/// transition could wait for ever.
///
/// When the daemon goes away (a crash, `kill -9`, a restart or an upgrade: `shutdown`, then
/// the end of the connection) it reconnects with backoff and `hello {resume: token}`, the
/// token of its first hello, and goes on waiting if the entry came back with it.
func presentAndWait(_ first: PresentClient, _ params: JSONValue, printID: Bool = false) throws -> Answer {
    var client = first
    let token = try client.call("hello", ["client": "presentctl", "protocol": 1])["resumeToken"]?.stringValue
    try client.call("subscribe", ["topics": ["lifecycle"]])
    let result = try client.call("present", params)
    guard let id = result["id"] else {
        throw ClientError.io("present answered without an id: \(result.serializedString)")
    }
    // The id is what an answer names (`activate ID ACTION`): --print-id gives a script the
    // bare id; a person at a terminal is told how to answer without needing `stack` first.
    if let text = id.stringValue {
        if printID {
            printError(text)
        } else if isatty(2) != 0 {
            printError(
                "presentctl: waiting for \(text); answer with presentctl activate \(text) ACTION, or presentctl key "
                + "escape"
            )
        }
    }
    var actions = params["content"]?["actions"]?.arrayValue ?? []
    if result["deduplicated"] == true {
        let entries = try client.call("stack")["entries"]?.arrayValue ?? []
        actions = entries.first { $0["id"] == id }?["content"]?["actions"]?.arrayValue ?? []
    }
    func isCancel(_ action: String) -> Bool {
        actions.contains { $0["id"]?.stringValue == action && $0["role"] == "cancel" }
    }
    let waiting = Waiting(client, token: token, entry: id)
    while true {
        guard let n = try waiting.next() else { return .left(reason: "ownerGone") }   // back without it
        client = waiting.client
        let p = n["params"]
        switch n["method"]?.stringValue {
        case "action" where p?["id"] == id:
            // A confirmDismiss owner is asked right behind the action: `sync` reads up to
            // everything the activation caused, answering that question (allowed) on the way.
            _ = try? client.call("sync", ["nonce": "presentctl"])
            let action = p?["action"]?.stringValue ?? ""
            return .action(action, fields: p?["fields"]?.objectValue ?? [:], cancel: isCancel(action))
        case "lifecycle" where p?["id"] == id && (p?["event"] == "willDismiss" || p?["event"] == "didDismiss"):
            let reason = p?["reason"]?.stringValue ?? "request"
            if reason == "action", let action = p?["action"]?.stringValue {
                return .action(action, fields: [:], cancel: isCancel(action))
            }
            return .left(reason: reason)
        case "lifecycle" where p?["id"] == id && p?["contentRevision"] != nil:
            // An update (or an adaptation) changed what it shows: the roles are those in force.
            actions = p?["content"]?["actions"]?.arrayValue ?? []
        case "shutdown" where token != nil:
            waiting.goingAway = "shutdown (\(p?["reason"]?.stringValue ?? ""))"   // it may come back
        case "shutdown", "closing":
            let why = "\(n["method"]?.stringValue ?? "") (\(p?["reason"]?.stringValue ?? ""))"
            throw DaemonGone(description: "presentd: \(why) before an answer")
        default: continue
        }
    }
}

/// The notifications `present --wait` reads, across restarts of the daemon.
final class Waiting {
    private(set) var client: PresentClient
    let token: String?
    let entry: JSONValue
    /// The daemon said `shutdown`: why, for the message if it does not come back.
    var goingAway: String?

    init(_ client: PresentClient, token: String?, entry: JSONValue) {
        self.client = client
        self.token = token
        self.entry = entry
    }

    /// The next notification; nil when the daemon came back without the entry.
    func next() throws -> JSONValue? {
        while true {
            do {
                if let n = try client.nextNotification(timeout: 3600) { return n }
            } catch {
                guard case .io(let why) = error, let token else { throw error }
                guard let resumed = try reconnect(client.path, token: token, entry: entry, why: goingAway ?? why) else {
                    return nil
                }
                client = resumed
                goingAway = nil
            }
        }
    }
}

/// How long `present --wait` and `watch` try to reconnect after the daemon went away, seconds.
let reconnectSeconds = 30.0

/// Connects to `path` again with backoff (at once, then 50 ms doubling to 1 s, for
/// `reconnectSeconds`) until `attempt` succeeds on a new connection, and returns what it
/// returned; an attempt that throws (the daemon gone again before it answered) is followed
/// by another. DaemonGone, saying `gone` and how long it waited, when the daemon does not
/// come back.
func reconnecting<T>(_ path: String, gone: String, _ attempt: (PresentClient) throws -> T) throws -> T {
    let deadline = monotonicSeconds() + reconnectSeconds
    var delay = 0.0
    while monotonicSeconds() + delay < deadline {
        if delay > 0 { usleep(UInt32(delay * 1_000_000)) }
        delay = min(max(delay * 2, 0.05), 1)
        guard let client = try? PresentClient(path: path) else { continue }
        do { return try attempt(client) } catch { continue }
    }
    throw DaemonGone(description: "presentd: \(gone), and it was not back within \(Int(reconnectSeconds)) s")
}

/// Connects again (`reconnecting`), resumes with `token` and subscribes to lifecycle again.
/// Nil when the daemon is back but `entry` is not among what it resumed.
func reconnect(_ path: String, token: String, entry: JSONValue, why: String) throws -> PresentClient? {
    try reconnecting(path, gone: "\(why) before an answer") { client in
        let hello = try client.call("hello", ["client": "presentctl", "protocol": 1, "resume": .string(token)])
        guard (hello["resumed"]?.arrayValue ?? []).contains(entry) else { return nil }
        try client.call("subscribe", ["topics": ["lifecycle"]])
        return client
    }
}

func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
