// Continuity across crashes and restarts: what is on screen survives the daemon.
//
// - Whenever a stack changes, the state of every screen — its container, contexts and do
//   not disturb with the time it has left (main's at the top, the others' under `outputs`),
//   and per entry its screen, id, state,
//   the `present` params it was made with (validated, its id filled in) and its owner's
//   identity (uid, pid, hello name, resume token) — is written atomically (a temporary
//   file renamed over the old one, mode 0600) to `$RUNTIME_DIRECTORY/presentd-state.json`,
//   else beside the socket (`--state-file` overrides; `none` disables). At most one write
//   per loop iteration, and none when nothing changed.
// - At start the file is read back through the same request decoder that validated it:
//   entries that were on screen are shown at rest, in their order (a transition caught
//   by the crash jumps to its end; entries that were leaving are gone); queued entries
//   present again. They belong to stand-in owners until reclaimed.
// - `hello` returns a `resumeToken`. A client that reconnects after a restart and says
//   `hello {resume: TOKEN}` from the same uid takes its entries back (`resumed: [ids]`)
//   and keeps its token. What nobody reclaims within `--resume-grace` seconds leaves with
//   `ownerGone`.

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol
import PresentSystem

/// Who made a presentation, as the state file remembers it.
struct OwnerRecord: Hashable {
    var token: String?
    var uid: UInt32
    var pid: Int32
    var name: String?
}

/// The daemon's continuity bookkeeping.
public final class Continuity {
    /// Where the state is kept; nil when persistence is off.
    let path: String?
    /// Each entry's `present` params (validated, with its id), by entry id.
    private(set) var params: [String: JSONValue] = [:]
    /// Restored owners nobody has reclaimed yet, by their stand-in owner id.
    private(set) var orphans: [OwnerID: OwnerRecord] = [:]
    /// Ends the resume grace period (Resume.swift).
    private var graceTimer: Timer?
    private(set) var saveScheduled = false
    /// The bytes last written, so an unchanged state is not written again.
    private(set) var lastSaved: [UInt8] = []

    /// Stand-in owner ids: far above any connection id.
    static let firstOrphanID: OwnerID = 1 << 62

    init(path: String?) { self.path = path }

    // MARK: What changes it

    /// Entry `id`'s params from now on (nil: forgets them).
    func remember(_ params: JSONValue?, for id: String) { self.params[id] = params }

    /// Forgets the params of every entry not in `live`.
    func keepParams(of live: Set<String>) { params = params.filter { live.contains($0.key) } }

    /// The stand-in owner id for restored `owner`: one per owner, across screens, so its
    /// entries come back to it together. `adopt` makes it an orphan once it owns an entry.
    func standIn(for owner: OwnerRecord) -> OwnerID {
        orphans.first { $0.value == owner }?.key ?? Self.firstOrphanID + OwnerID(orphans.count)
    }

    func adopt(_ owner: OwnerRecord, as standIn: OwnerID) { orphans[standIn] = owner }

    /// Stand-in `standIn`'s entries went back to their owner.
    func release(_ standIn: OwnerID) { orphans[standIn] = nil }

    /// Forgets every orphan (the grace period is over); returns their stand-in ids, sorted.
    func removeAllOrphans() -> [OwnerID] {
        defer { orphans.removeAll() }
        return orphans.keys.sorted()
    }

    /// The grace period's timer; a previous one is closed.
    func startGrace(_ timer: Timer) {
        stopGrace()
        graceTimer = timer
    }

    func stopGrace() {
        graceTimer?.close()
        graceTimer = nil
    }

    /// Whether a save must be scheduled: none is yet. `saveStarted` clears it.
    func scheduleSave() -> Bool {
        guard !saveScheduled else { return false }
        saveScheduled = true
        return true
    }

    func saveStarted() { saveScheduled = false }

    /// `bytes` are on disk.
    func saved(_ bytes: [UInt8]) { lastSaved = bytes }

    /// A fresh resume token: 128 bits from the system's secure generator (getrandom).
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ -> String in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Where the state goes by default: the runtime directory systemd gives the service,
    /// else the socket's directory.
    /// (`file`: another file kept there, the flight recording.)
    public static func defaultPath(socketPath: String, file: String = "presentd-state.json") -> String {
        if let runtime = getenv("RUNTIME_DIRECTORY").map({ String(cString: $0) }), !runtime.isEmpty {
            let first = runtime.split(separator: ":").first.map(String.init) ?? runtime
            return first + "/" + file
        }
        let directory = socketPath.lastIndex(of: "/").map { String(socketPath[..<$0]) } ?? "."
        return (directory.isEmpty ? "" : directory) + "/" + file
    }
}

extension Daemon {
    // MARK: Recording

    /// Remembers a successful `present`'s params for the state file.
    /// An `update`'s members replace the saved ones (null removes them), so a restored
    /// entry shows what it showed; how the change animated is not kept.
    func rememberPresentation(_ request: Request, params: JSONValue?, result: JSONValue) {
        guard continuity.path != nil, let id = result["id"]?.stringValue else { return }
        switch request {
        case .present(let present) where result["deduplicated"] != true && !present.dryRun:
            var object = params?.objectValue ?? [:]
            object["id"] = .string(id)
            if result["clamped"] == true { object["priority"] = result["priority"] }  // as presented
            continuity.remember(.object(object), for: id)
        case .update:
            guard var saved = continuity.params[id]?.objectValue else { return }
            for (key, value) in params?.objectValue ?? [:] where key != "duration" && key != "timing" {
                saved[key] = value == .null ? nil : value
            }
            continuity.remember(.object(saved), for: id)
        default:
            return
        }
    }

    /// Schedules a write of the state at the end of this loop iteration.
    func saveStateSoon() {
        guard continuity.path != nil, !shuttingDown, continuity.scheduleSave() else { return }
        loop.post { [unowned self] in   // the daemon outlives its loop
            self.continuity.saveStarted()
            self.saveState()
        }
    }

    /// Writes the state now if it changed.
    func saveState() {
        guard let path = continuity.path, !shuttingDown else { return }
        let live = Set(screens.flatMap(\.stack.allEntries).map(\.id))
        continuity.keepParams(of: live)
        let bytes = stateJSON().serializedLine()
        guard bytes != continuity.lastSaved else { return }
        do {
            // Not durable: the file lives in the runtime directory, a tmpfs, and needs to
            // survive a crash of this process, which the rename alone ensures; a flush per
            // stack change would stall the loop.
            try writeFileAtomically(bytes, to: path)
            continuity.saved(bytes)
        } catch {
            log.error("cannot save the stack to \(path): \(error)")
        }
    }

    private func stateJSON() -> JSONValue {
        let entries: [JSONValue] = screens.flatMap { screen in screen.stack.allEntries.map { (screen, $0) } }.compactMap
        { screen, entry in
            guard entry.state != .dismissing, let params = continuity.params[entry.id] else { return nil }
            let owner = ownerRecord(of: entry.owner)
            var record: JSONObject = ["id": .string(entry.id), "state": .string(entry.state.rawValue), "params": params,
                "owner": ["uid": .int(Int64(owner?.uid ?? 0)), "pid": .int(Int64(owner?.pid ?? 0))]
            ]
            if let token = owner?.token { record["owner"]?.set("token", .string(token)) }
            if let name = owner?.name { record["owner"]?.set("name", .string(name)) }
            record["confirmDismiss"] = .bool(entry.presentation.confirmDismiss)
            if !screen.isMain { record["output"] = .string(screen.name) }
            return .object(record)
        }
        let outputs: [JSONValue] = screens.filter { !$0.isMain }.map { screen in
            var o: JSONObject = [
                "name": .string(screen.name), "container": CoreEncoding.container(screen.stack.container),
                                 "contexts": CoreEncoding.contexts(of: screen.stack)]
            if let fps = screen.ownFPS { o["fps"] = .int(Int64(fps)) }
            if let mode = savedMode(of: screen) { o["doNotDisturb"] = mode }   // Daemon+Modes
            return .object(o)
        }
        var state: JSONObject = ["presentdState": 1, "container": CoreEncoding.container(main.stack.container),
                                 "contexts": CoreEncoding.contexts(of: main.stack), "outputs": .array(outputs),
                                 "entries": .array(entries)]
        if let mode = savedMode(of: main) { state["doNotDisturb"] = mode }
        return .object(state)
    }

    /// The identity behind an owner id: a connected client, or a restored stand-in.
    private func ownerRecord(of owner: OwnerID) -> OwnerRecord? {
        if let client = clients[owner] {
            return OwnerRecord(token: client.resumeToken, uid: client.peer.uid, pid: client.peer.pid, name: client.name)
        }
        return continuity.orphans[owner]
    }
}

/// Why the state file could not be written or read.
enum StateFileError: Error, CustomStringConvertible {
    case invalid(String)

    var description: String {
        switch self {
        case .invalid(let why): return why
        }
    }
}

private extension JSONValue {
    /// Sets a member of an object (no-op on other values).
    mutating func set(_ key: String, _ value: JSONValue) {
        guard case .object(var object) = self else { return }
        object[key] = value
        self = .object(object)
    }
}
