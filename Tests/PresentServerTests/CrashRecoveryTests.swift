// kill -9 in the middle of a busy session, restart: the stack comes back as it was, its
// owners reclaim their entries with the token hello gave them, what is not reclaimed
// leaves with ownerGone after the grace period, nothing is lost or duplicated.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Crash recovery")
struct CrashRecoveryTests {
    /// The parts of a stack listing that must survive a restart (owners are connections,
    /// and a transition caught by the crash has jumped to its end).
    static func shape(_ entries: JSONValue?) -> [JSONValue] {
        (entries?.arrayValue ?? []).map { entry in
            var o = entry.objectValue ?? [:]
            o["owner"] = nil
            o["state"] = nil
            return .object(o)
        }
    }

    static func ids(_ entries: JSONValue?) -> [String] {
        (entries?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
    }

    /// The ids in the daemon's state file: what a restart would bring back.
    static func savedIDs(_ daemon: DaemonHarness) -> [String] {
        ids((try? JSONValue.parse(String(contentsOfFile: daemon.directory + "/presentd-state.json")))?["entries"])
    }

    /// Until the state file holds `expected`, before a kill -9 that must find it there:
    /// presentd writes it at the end of a loop iteration, so a reply can come first.
    static func waitUntilSaved(_ expected: [String], by daemon: DaemonHarness) throws {
        try waitUntil("presentd to save \(expected)", context: { "the state file holds \(savedIDs(daemon))" }) {
            savedIDs(daemon) == expected
        }
    }

    @Test func theStackSurvivesKill9AndOwnersReclaimIt() throws {
        let daemon = try DaemonHarness(["--resume-grace", "2", "--dismiss-policy", "owner", "--check-invariants"])
        let a = try daemon.connect(), b = try daemon.connect(), c = try daemon.connect()
        let tokenA = try #require(try a.call("hello", ["client": "a"])["resumeToken"]?.stringValue)
        let tokenB = try #require(try b.call("hello", ["client": "b"])["resumeToken"]?.stringValue)
        #expect(tokenA.count == 32 && tokenA != tokenB)
        try c.call("hello", ["client": "c"])
        let quick: JSONValue = ["type": "crossDissolve", "duration": 0.05]
        for (client, id, style) in [(a, "a1", "fullScreen"), (b, "b1", "popup"), (a, "a2", "bottomHalf"),
                                    (b, "b2", "alert"), (c, "c1", "topHalf")] {
            try client.call("present", ["id": .string(id), "style": .string(style), "transition": quick,
                                        "content": .string("content of \(id)")])
        }
        // Busy: a fourth client keeps presenting and dismissing while the daemon dies.
        let churn = try RawConnection(path: daemon.socketPath)
        let observer = try daemon.connect()
        var before: JSONValue?
        for n in 0..<400 {
            // Replies so far are read and dropped before sending, never after: the reply
            // to the very last request is awaited below.
            _ = churn.read()
            churn.send("present", id: .int(Int64(2 * n)), ["id": .string("churn\(n % 3)"), "style": "alert",
                                                          "transition": ["type": "zoom", "duration": 0.3]])
            churn.send("dismiss", id: .int(Int64(2 * n + 1)), ["id": .string("churn\((n + 1) % 3)")])
            usleep(2_000)   // pacing, not waiting: spreads the churn over the transitions
            if n == 300 { before = try observer.call("stack")["entries"] }
        }
        // Its last request answered (so the listing below is the last state) and saved,
        // transitions still in flight: the daemon dies.
        _ = try churn.awaitReply(799)
        let lastSeen = try observer.call("stack")["entries"]
        #expect((lastSeen?.arrayValue ?? []).contains { $0["state"] == "presenting" || $0["state"] == "dismissing" })
        let staying = (lastSeen?.arrayValue ?? []).filter { $0["state"] != "dismissing" }
        try Self.waitUntilSaved(Self.ids(.array(staying)), by: daemon)
        daemon.stop(signal: SIGKILL)

        let restarting = monotonicNow()
        try daemon.restart()
        let watcher = try daemon.connect()
        let restored = try watcher.call("stack")["entries"]
        let recovery = monotonicNow() - restarting
        print(
            "hardening: restart recovery: \(Int(recovery * 1000)) ms from spawning presentd to serving the restored "
            + "stack "
              + "(\(Self.ids(restored).count) presentations)")

        // Everything that was on screen and staying is back, in order, unchanged.
        #expect(Self.ids(restored) == Self.ids(.array(staying)))
        #expect(Array(Self.ids(restored).prefix(5)) == ["a1", "b1", "a2", "b2", "c1"])
        #expect(Array(Self.shape(restored).prefix(5)) == Array(Self.shape(before).prefix(5)))
        #expect(Set(Self.ids(restored)).count == Self.ids(restored).count)
        #expect(
            (restored?.arrayValue ?? []).allSatisfy {
                $0["state"] == "presented" || $0["state"] == "queued" || $0["state"] == "presenting"
            })

        // The owners come back and take their entries; the third does not.
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let a2 = try daemon.connect(), b2 = try daemon.connect()
        let helloA = try a2.call("hello", ["client": "a", "resume": .string(tokenA)])
        #expect(helloA["resumed"] == ["a1", "a2"])
        #expect(helloA["resumeToken"] == .string(tokenA))
        #expect(try b2.call("hello", ["resume": .string(tokenB)])["resumed"] == ["b1", "b2"])
        // A token works once; a made-up one takes nothing.
        #expect(try daemon.connect().call("hello", ["resume": .string(tokenA)])["resumed"] == [])
        #expect(try daemon.connect().call("hello", ["resume": "0123456789abcdef0123456789abcdef"])["resumed"] == [])
        // They really own them now (the owner policy is strict).
        #expect(b2.expectError("dismiss", ["id": "a2"])?.code == -32002)

        // c1 and the churn entries were not reclaimed: they leave after the grace period.
        let gone = try #require(
            try watcher.awaitNotification("lifecycle") { $0["id"] == "c1" && $0["event"] == "willDismiss" })
        #expect(gone["reason"] == "ownerGone")
        try waitUntil(
            "c1 and the churn entries to finish leaving",
            context: { "stack: \(Self.ids(try? watcher.call("stack")["entries"]))" }
        ) {
            Self.ids(try watcher.call("stack")["entries"]) == ["a1", "b1", "a2", "b2"]
        }
        #expect(try b2.call("dismiss", ["id": "b2"])["dismissed"] == ["b2"])
        // (b2 may still be leaving above a2: a dismissal names everything above too.)
        #expect(try a2.call("dismiss", ["id": "a2"])["dismissed"]?.arrayValue?.first == "a2")

        // And again: a second crash, the same tokens.
        try Self.waitUntilSaved(["a1", "b1"], by: daemon)   // leaving entries are not saved
        daemon.stop(signal: SIGKILL)
        try daemon.restart()
        let a3 = try daemon.connect()
        #expect(try a3.call("hello", ["resume": .string(tokenA)])["resumed"] == ["a1"])
        #expect(Self.ids(try a3.call("stack")["entries"]) == ["a1", "b1"])
        #expect(!daemon.stderrText.contains("invariant"))
    }

    /// An upgrade is a clean stop and a start: the screen survives it too, even a stop
    /// during the grace period (the unclaimed entries stay saved for the next start).
    @Test func aCleanRestartKeepsTheScreen() throws {
        let daemon = try DaemonHarness(["--resume-grace", "30"])
        let a = try daemon.connect()
        let token = try #require(try a.call("hello")["resumeToken"]?.stringValue)
        try a.call("present", ["id": "kept", "style": "popup", "transition": ["type": "crossDissolve", "duration": 0]])
        #expect(daemon.stop() == 0)
        #expect(try a.awaitNotification("shutdown") != nil)
        try daemon.restart()
        #expect(Self.ids(try daemon.connect().call("stack")["entries"]) == ["kept"])
        #expect(daemon.stop() == 0)   // within the grace period
        try daemon.restart()
        let back = try daemon.connect()
        #expect(try back.call("hello", ["resume": .string(token)])["resumed"] == ["kept"])
        #expect(!daemon.stderrText.contains("handles still open"))
    }

    /// A countdown brought back runs on the real clock from the start: nobody has to send
    /// anything for it to run out (the state file, rewritten without it, says it did).
    @Test func aRestoredCountdownRunsOutWithNobodyAsking() throws {
        let daemon = try DaemonHarness(["--resume-grace", "60"])
        let a = try daemon.connect()
        try a.call("present", ["id": "toast", "style": "popup", "autoDismiss": ["after": 1.5],
                               "transition": ["type": "crossDissolve", "duration": 0]])
        try Self.waitUntilSaved(["toast"], by: daemon)
        #expect(daemon.stop() == 0)
        try daemon.restart(probing: false)
        try Self.waitUntilSaved([], by: daemon)   // no connection at all since the restart
        #expect(daemon.stop() == 0)
    }

    /// A token only works for the uid it was given to.
    @Test(.enabled(if: getuid() == 0, "needs root to act as another uid"))
    func aTokenFromAnotherUIDTakesNothing() throws {
        let daemon = try DaemonHarness(["--resume-grace", "30", "--group", "nogroup"])
        chmod(daemon.directory, 0o711)
        let a = try daemon.connect()
        let token = try #require(try a.call("hello")["resumeToken"]?.stringValue)
        try a.call("present", ["id": "mine", "style": "alert"])
        try Self.waitUntilSaved(["mine"], by: daemon)
        daemon.stop(signal: SIGKILL)
        try daemon.restart()
        let (status, output) = try DaemonHarness.run("/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", DaemonHarness.presentctlPath, "--socket",
                daemon.socketPath,
             "call", "hello", #"{"resume":"\#(token)"}"#])
        #expect(status == 0)
        #expect(output.contains(#""resumed":[]"#))
        #expect(daemon.stderrText.contains("presented the resume token of uid \(getuid()); refused"))
        #expect(try daemon.connect().call("hello", ["resume": .string(token)])["resumed"] == ["mine"])
    }

    /// Until its owner resumes it, a restored entry still belongs to its uid: under the user
    /// policy another connection of that uid may dismiss it, a stranger may not.
    @Test(.enabled(if: getuid() == 0, "needs root to act as other uids"))
    func restoredEntriesKeepTheirOwnersUID() throws {
        let daemon = try AccessControlTests.sharedDaemon(["--resume-grace", "30", "--no-root-admin"])
        let app = try AccessControlTests.present("nb", on: daemon, as: .nobody)
        try Self.waitUntilSaved(["nb"], by: daemon)
        daemon.stop(signal: SIGKILL)
        AccessControlTests.stop(app)
        try daemon.restart()
        #expect(try AccessControlTests.dismiss("nb", on: daemon, as: .stranger) == "-32002")
        #expect(try daemon.connect().expectError("dismiss", ["id": "nb"])?.code == -32002)   // root, not an admin here
        #expect(try AccessControlTests.dismiss("nb", on: daemon, as: .nobody) == nil)
    }

    /// A state file that is not ours is set aside, not trusted, and the daemon starts empty.
    @Test func aDamagedStateFileIsSetAside() throws {
        let daemon = try DaemonHarness(["--resume-grace", "30"])
        try daemon.connect().call("present", ["id": "x", "style": "alert"])
        daemon.stop(signal: SIGKILL)
        let path = daemon.directory + "/presentd-state.json"
        let junk = #"{"presentdState":1,"entries":[{"id":"x","state":"presented","params":{"style":"nope","id":"x"}},"#
            + #"{"id":"y","state":"presented","params":{"style":"alert","id":"y"},"owner":{"uid":0}}]}"#
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = junk.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        try daemon.restart()
        // The entry whose params do not decode is skipped, the valid one comes back.
        #expect(Self.ids(try daemon.connect().call("stack")["entries"]) == ["y"])
        #expect(daemon.stderrText.contains("not restoring x"))

        daemon.stop(signal: SIGKILL)
        let garbage = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = "not json".utf8CString.withUnsafeBytes { write(garbage, $0.baseAddress, 8) }
        close(garbage)
        try daemon.restart()
        #expect(try daemon.connect().call("stack")["entries"] == [])
        #expect(daemon.stderrText.contains("ignoring the saved stack"))
        #expect(access(path + ".bad", F_OK) == 0)
    }
}
