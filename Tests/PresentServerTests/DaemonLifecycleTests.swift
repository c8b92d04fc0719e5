// Start-up, shutdown and the socket file; presentctl's exit codes; frames for a good
// subscriber while another never reads.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Daemon lifecycle")
struct DaemonLifecycleTests {
    @Test func sigtermSendsShutdownRemovesTheSocketAndExitsZero() throws {
        let daemon = try DaemonHarness()
        let c = try daemon.connect()
        try c.call("subscribe", ["topics": ["lifecycle"]])
        #expect(daemon.stop() == 0)
        let notice = try c.nextNotification(timeout: generousTimeout)
        #expect(notice?["method"] == "shutdown")
        #expect(access(daemon.socketPath, F_OK) != 0, "the socket file must be removed")
    }

    @Test func aLiveSocketMakesStartUpFail() throws {
        let first = try DaemonHarness()
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--socket", first.socketPath])
        #expect(status == 1)
        #expect(output.contains("listening"), "the message should say another daemon is listening: \(output)")
        // The first daemon is untouched.
        #expect(try first.connect().call("ping") == [:])
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let first = try DaemonHarness()
        let path = first.socketPath
        // SIGKILL leaves the socket file behind with nobody listening.
        #expect(first.stop(signal: SIGKILL) == -SIGKILL)
        #expect(access(path, F_OK) == 0)
        try first.restart()   // a new presentd on that path; returns once it answers there
        #expect(try first.connect().call("ping") == [:])
    }

    @Test func writingToAClientThatLeftDoesNotKillTheDaemon() throws {
        // The harness starts presentd with SIGPIPE at its default disposition.
        let daemon = try DaemonHarness(["--clock", "manual"])
        for _ in 0..<20 {
            let c = try daemon.connect()
            try c.call("subscribe", ["topics": ["frames", "lifecycle"]])
            let line =
                Array(
                    #"{"jsonrpc":"2.0","id":1,"method":"present","params":{"style":"popup","deduplicate":false}}"#.utf8)
                + [10]
            try c.sendRaw(Array(repeating: line, count: 40).flatMap { $0 })
        }  // each client closes without reading its replies
        let survivor = try daemon.connect()
        try survivor.call("advance", ["seconds": 1])
        #expect(try survivor.call("ping") == [:])
    }

    @Test func presentctlExitCodes() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let ctl = DaemonHarness.presentctlPath
        let ok = try DaemonHarness.run(ctl, ["--socket", daemon.socketPath, "ping"])
        #expect(ok.0 == 0)
        #expect(ok.1.contains("{}"))
        #expect(try DaemonHarness.run(ctl, ["--socket", daemon.socketPath, "dismiss", "nope"]).0 == 1)
        #expect(try DaemonHarness.run(ctl, ["--socket", daemon.socketPath, "frobnicate"]).0 == 2)
        #expect(try DaemonHarness.run(ctl, ["--socket", daemon.directory + "/absent.sock", "ping"]).0 == 3)
        let help = try DaemonHarness.run(ctl, ["--help"])
        #expect(help.0 == 0 && help.1.contains("Usage: presentctl"))
        let daemonHelp = try DaemonHarness.run(DaemonHarness.presentdPath, ["--help"])
        #expect(daemonHelp.0 == 0 && daemonHelp.1.contains("--fps"))
        #expect(try DaemonHarness.run(DaemonHarness.presentdPath, ["--fps", "999"]).0 == 2)
    }

    @Test func aSubscriberThatNeverReadsDoesNotDelayAnother() throws {
        let daemon = try DaemonHarness(["--fps", "120"])
        let stalled = try daemon.connect(), renderer = try daemon.connect(), app = try daemon.connect()
        try stalled.call("subscribe", ["topics": ["frames", "lifecycle", "stack"]])
        try renderer.call("subscribe", ["topics": ["frames"]])
        // Long enough to give 120 frames even to a loaded machine that misses ticks (the
        // daemon then sends fewer frames, not frames with gaps).
        try app.call(
            "present", ["style": "popup", "transition": ["type": "crossDissolve", "duration": 30, "timing": "linear"]])
        // Read about one second of frames: every one must arrive, in order, none skipped.
        var seqs: [Int64] = []
        while seqs.count < 120, let n = try renderer.nextNotification(timeout: generousTimeout) {
            if let seq = n["params"]?["seq"]?.int64Value { seqs.append(seq) }
        }
        #expect(seqs.count == 120)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 }, "a good subscriber gets every frame")
        #expect(try app.call("ping") == [:])
    }
}
