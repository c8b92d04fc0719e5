// Coming back after a crash or restart: the state file's stack is put back before the
// socket is served, its owners may reclaim their entries with the resume token their
// `hello` gave them, and what is not reclaimed within the grace period leaves with
// ownerGone. (What is saved and when: Continuity.swift.)

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol
import PresentSystem

extension Daemon {
    // MARK: Restoring

    /// Puts back the stack the state file describes, if there is one. Nothing in it is
    /// trusted: every entry goes through the request decoder again, and a file that does
    /// not read is set aside (renamed `.bad`) with a warning.
    func restoreState() {
        guard let path = continuity.path else { return }
        let read = Result { () throws(SystemCallError) in try readWholeFile(path, limit: Self.maxSavedBytes) }
        if case .failure(let error) = read, error.code != EFBIG { return }   // none (or unreadable): a first start
        let started = loop.monotonicNow()
        do {
            guard case .success(let bytes) = read else {
                throw StateFileError.invalid("larger than \(Self.maxSavedBytes) bytes")
            }
            let state: JSONValue
            do { state = try JSONValue.parse(bytes, maxDepth: 128) } catch {
                throw StateFileError.invalid(error.message)
            }
            guard state["presentdState"] == 1, let records = state["entries"]?.arrayValue else {
                throw StateFileError.invalid("not a presentd state file (version 1)")
            }
            if let container = state["container"] { try restoreContainer(container, on: main) }
            if let contexts = state["contexts"] { try restoreContexts(contexts, on: main) }
            for output in state["outputs"]?.arrayValue ?? [] { try restoreOutput(output) }
            let kept = records.prefix(configuration.maxEntries)
            var restored = 0
            for screen in screens {
                let saved: JSONValue? =
                    screen.isMain
                    ? state : state["outputs"]?.arrayValue?.first { $0["name"]?.stringValue == screen.name }
                restored += restoreEntries(
                    kept.filter { ($0["output"]?.stringValue ?? Screen.mainName) == screen.name }, on: screen,
                                           mode: try restoredMode(saved?["doNotDisturb"]))   // Daemon+Modes
                _ = screen.stack.drainEvents()   // nobody is connected yet
                _ = screen.stack.drainRetargets()
            }
            let ms = Int((loop.monotonicNow() - started) * 1000)
            log.notice("restored \(restored) presentations from \(path) in \(ms) ms; "
                       + "their owners have \(configuration.resumeGrace) s to resume")
            startGracePeriod()
            // The countdowns brought back run from now, whether or not anyone talks.
            for screen in screens { scheduleNextDeadline(on: screen) }
        } catch {
            log.warning("ignoring the saved stack in \(path): \(error)")
            do { _ = try valueOrErrno("rename", path: path) { rename(path, path + ".bad") } } catch {
                log.warning("cannot set aside \(path) as \(path).bad: \(error.reason)")
            }
        }
    }

    private func restoreContainer(_ saved: JSONValue, on screen: Screen) throws {
        guard var fields = saved.objectValue else { throw StateFileError.invalid("container is not an object") }
        let keyboard = fields["keyboardHeight"] ?? 0
        fields["keyboardHeight"] = nil
        guard case .setContainer(let change, _) = try decoder.decode(method: "setContainer", params: .object(fields)),
            case .keyboard(let height, _, _, _) = try decoder.decode(method: "keyboard", params: ["height": keyboard])
        else { return }
        screen.stack.setContainer(change.applied(to: screen.stack.container), duration: 0, at: screen.stack.time)
        screen.stack.setKeyboard(height: height, duration: 0, at: screen.stack.time)
    }

    /// The shell's presentation contexts, through the decoder like everything else.
    private func restoreContexts(_ saved: JSONValue, on screen: Screen) throws {
        guard let contexts = saved.objectValue else { throw StateFileError.invalid("contexts is not an object") }
        for (name, frame) in contexts {
            guard case .defineContext(let name, let frame, _, _) = try decoder.decode(
                method: "defineContext", params: ["name": .string(name), "frame": frame]) else { continue }
            screen.stack.defineContext(name, frame: frame, duration: 0, at: screen.stack.time)
        }
    }

    /// A screen the shell had added: back with its container, keyboard and contexts (one
    /// the configuration defines again takes the saved container).
    private func restoreOutput(_ saved: JSONValue) throws {
        guard let name = saved["name"], let container = saved["container"]?.objectValue else {
            throw StateFileError.invalid("an output without a name or container")
        }
        var params: JSONObject = [
            "name": name, "width": container["width"] ?? .null, "height": container["height"] ?? .null
        ]
        if let fps = saved["fps"] { params["fps"] = fps }
        guard case .addOutput(let definition) = try decoder.decode(method: "addOutput", params: .object(params)) else {
            return
        }
        let screen = screens.named(definition.name) ?? addScreen(definition)
        try restoreContainer(.object(container), on: screen)
        if let contexts = saved["contexts"] { try restoreContexts(contexts, on: screen) }
    }

    /// Entries that were on screen come back at rest, bottom to top (the core's
    /// `restore`); then do not disturb is put back as it was, and the queued ones present
    /// as new, in the order the queue gives them. Returns how many came back.
    private func restoreEntries(_ records: [JSONValue], on screen: Screen, mode: DoNotDisturb?) -> Int {
        let now = self.now
        var count = 0
        /// Decodes `record` and hands its presentation to `put`, with the stand-in owner.
        func bringBack(_ record: JSONValue, _ put: (Presentation, OwnerID) throws(StackError) -> String) {
            do {
                let (request, params) = try decodeSaved(record)
                // Ids are the daemon's: a file from a presentd that let screens share ids (two screens' `p1`)
                // brings back the first and names the other.
                if let id = request.presentation.id, let holder = screens.holding(entry: id) {
                    throw StateFileError.invalid("output \"\(holder.name)\" already holds \"\(id)\"")
                }
                let owner = Self.ownerRecord(record["owner"])
                let standIn = continuity.standIn(for: owner)
                let id = try put(request.presentation, standIn)
                continuity.remember(params, for: id)
                continuity.adopt(owner, as: standIn)
                count += 1
            } catch {
                log.warning("not restoring \(record["id"]?.stringValue ?? "an entry"): \(error)")
            }
        }
        for record in records where record["state"] != "queued" {
            bringBack(record) { p, owner throws(StackError) in try screen.stack.restore(p, owner: owner, at: now) }
        }
        if let mode { screen.stack.setDoNotDisturb(mode, at: now) }
        for record in records where record["state"] == "queued" {
            bringBack(record) { p, owner throws(StackError) in try screen.stack.present(p, owner: owner, at: now).id }
        }
        return count
    }

    /// A saved entry's request, made to come back exactly as it was: no dedupe against
    /// the entry below, no preempting it.
    private func decodeSaved(_ record: JSONValue) throws -> (PresentRequest, JSONValue) {
        guard let params = record["params"],
            case .present(var request) = try decoder.decode(method: "present", params: params),
              request.presentation.id == record["id"]?.stringValue else {
            throw StateFileError.invalid("its params are not a present request for its id")
        }
        request.presentation.deduplicate = false
        request.presentation.precedence = .enqueue
        return (request, params)
    }

    private static func ownerRecord(_ saved: JSONValue?) -> OwnerRecord {
        OwnerRecord(token: saved?["token"]?.stringValue,
                    uid: UInt32(truncatingIfNeeded: saved?["uid"]?.int64Value ?? -1),
                    pid: Int32(truncatingIfNeeded: saved?["pid"]?.int64Value ?? 0),
                    name: saved?["name"]?.stringValue)
    }

    /// The largest state file or recording read back (64 MiB).
    static let maxSavedBytes = 64 << 20

    // MARK: Resuming

    /// `hello {resume}`: hands `client` back the restored entries `token` owned, only to
    /// the same uid; returns their ids (none for a token nobody holds or another uid's).
    func resume(_ token: String, for client: Client) -> [String] {
        guard let (standIn, owner) = continuity.orphans.first(where: { $0.value.token == token }) else { return [] }
        guard owner.uid == client.peer.uid else {
            log.warning("\(client.label) presented the resume token of uid \(owner.uid); refused")
            return []
        }
        let resumed = screens.flatMap { $0.stack.transferOwnership(from: standIn, to: client.id) }
        continuity.release(standIn)
        client.holdResumeToken(token)
        log.info("\(client.label) resumed \(resumed.joined(separator: ", "))")
        if continuity.orphans.isEmpty { stopGracePeriod() }
        return resumed
    }

    private func startGracePeriod() {
        guard !continuity.orphans.isEmpty else { return }
        guard let timer = try? Timer(loop: loop) else { return expireOrphans() }
        timer.onFire = { [unowned self] in self.expireOrphans() }
        timer.start(after: configuration.resumeGrace)
        continuity.startGrace(timer)
    }

    func stopGracePeriod() { continuity.stopGrace() }

    /// The grace period is over: entries nobody reclaimed leave as if their owner had
    /// disconnected.
    private func expireOrphans() {
        stopGracePeriod()
        for standIn in continuity.removeAllOrphans() {
            let removed = screens.flatMap { $0.stack.removeAll(ownedBy: standIn, at: now) }
            if !removed.isEmpty { log.info("not resumed in time; dismissing \(removed.joined(separator: ", "))") }
        }
        publishEvents()
    }
}
