// Clients that misbehave — never read, read too slowly, hang up mid-write, die by
// SIGKILL mid-transition, never answer shouldDismiss — must not hurt the others: a good
// renderer keeps every frame, on time; the bad ones are closed past their bound with a
// log line naming pid and uid; the stack stays sound (--check-invariants logs nothing).
// Figures are printed ("hardening: …") for the notes.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

/// What a well-behaved frame subscriber saw during one phase.
struct FrameReport: CustomStringConvertible {
    var delays: [Double] = []
    var seqs: [Int64] = []
    var seconds = 0.0

    /// Frames missing between the first and the last one received.
    var gaps: Int {
        guard let first = seqs.first, let last = seqs.last else { return 0 }
        return Int(last - first + 1) - seqs.count
    }

    /// Frames missing between two that both came within `interval` of their time: what a
    /// renderer that kept up lost. One that falls behind (or whose daemon does) gets the
    /// newest frame instead of a backlog, and skips frames by design; the frames around
    /// such a gap came late.
    func gapsWhileOnTime(interval: Double) -> Int {
        seqs.indices.dropFirst().reduce(0) { missing, i in
            delays[i - 1] < interval && delays[i] < interval ? missing + Int(seqs[i] - seqs[i - 1] - 1) : missing
        }
    }

    var framesPerSecond: Double { Double(seqs.count) / seconds }

    var description: String {
        let ms = { (x: Double) in (x * 1000 * 100).rounded() / 100 }
        return
            "\(seqs.count) frames in \(ms(seconds) / 1000) s, \(gaps) missing (\(gapsWhileOnTime(interval: 1.0 / 60)) "
            + "between frames on time), delay p50 \(ms(percentile(delays, 0.5))) ms, "
            + "p99 \(ms(percentile(delays, 0.99))) ms, max \(ms(delays.max() ?? .nan)) ms"
    }

    /// Takes the frames out of what a subscriber read (other lines are not parsed).
    mutating func record(_ lines: [[UInt8]], at now: Double) {
        let framePrefix = Array(#"{"jsonrpc":"2.0","method":"frame""#.utf8)
        for line in lines where line.starts(with: framePrefix) {
            guard let message = try? JSONValue.parse(line), let time = message["params"]?["time"]?.doubleValue,
                  let seq = message["params"]?["seq"]?.int64Value else { continue }
            delays.append(now - time)
            seqs.append(seq)
        }
    }
}

@Suite("Misbehaving clients")
struct MisbehavingClientTests {
    static var label: String { "pid \(getpid()), uid \(getuid())" }

    /// Keeps frames flowing (a 60-second transition) and makes stack events big: 60
    /// queued entries with long labels, so every change sends ≈ 25 KB to lossless subscribers.
    static func busyDriver(_ daemon: DaemonHarness) throws -> RawConnection {
        let driver = try RawConnection(path: daemon.socketPath)
        driver.send("present", id: "base", ["style": "popup", "transition": ["type": "coverVertical", "duration": 60]])
        let label = JSONValue.string(String(repeating: "l", count: 256))
        for i in 0..<60 {
            driver.send("present", id: .int(Int64(i)), ["style": "alert", "deduplicate": false, "content": label])
        }
        _ = try driver.awaitReply(59)
        return driver
    }

    /// One present/dismiss of a queued entry: two stack events, two lifecycle events.
    static func churn(_ driver: RawConnection, _ n: Int) {
        driver.send("present", id: .int(Int64(1000 + n)), ["id": "churn", "style": "alert", "deduplicate": false])
        driver.send("dismiss", id: .int(Int64(100_000 + n)), ["id": "churn"])
        _ = driver.read()
    }

    @Test func badSubscribersDoNotSlowTheGoodOnes() throws {
        let daemon = try DaemonHarness(["--fps", "60", "--check-invariants"])
        let good = try RawConnection(path: daemon.socketPath)
        good.send("subscribe", id: 1, ["topics": ["frames", "lifecycle", "stack"]])
        _ = try good.awaitReply(1)
        let driver = try Self.busyDriver(daemon)
        var cycle = 0

        /// Runs the good subscriber and the driver (25 changes a second) for a while;
        /// `tick` plays the bad clients; stops after `seconds` once `until` holds (or
        /// after `limit` seconds: the bad ones fill their backlogs only as fast as this
        /// machine runs the driver).
        func phase(seconds: Double, limit: Double = generousTimeout, tick: (Double) -> Void = { _ in },
                   until done: () -> Bool = { true }) -> FrameReport {
            var report = FrameReport()
            let start = monotonicNow()
            var nextChurn = start
            while true {
                let now = monotonicNow()
                if now - start >= limit || (now - start >= seconds && done()) { break }
                if now >= nextChurn {
                    Self.churn(driver, cycle)
                    cycle += 1
                    nextChurn += 0.04
                }
                tick(now - start)
                if good.waitReadable(timeout: 0.005), let lines = good.read() {
                    report.record(lines, at: monotonicNow())
                }
            }
            report.seconds = monotonicNow() - start
            return report
        }

        let alone = phase(seconds: 3)
        let rssBefore = residentKiB(of: daemon.pid)

        // The bad ones: one never reads, one reads 4 KiB every 100 ms, one hangs up while
        // the daemon is writing to it.
        let never = try RawConnection(path: daemon.socketPath)
        let slow = try RawConnection(path: daemon.socketPath)
        let quitter = try RawConnection(path: daemon.socketPath)
        for bad in [never, slow, quitter] {
            bad.send("subscribe", id: 1, ["topics": ["frames", "lifecycle", "stack", "statusBar"]])
        }
        var lastSlowRead = 0.0
        func closedForBacklog() -> Int {
            daemon.stderrText.split(separator: "\n").filter { $0.contains("is not reading") }.count
        }
        let withBad = phase(seconds: 4, tick: { t in
            if t - lastSlowRead >= 0.1 { _ = slow.read(limit: 4096); lastSlowRead = t }
            if t >= 1, !quitter.isClosed { quitter.close() }
        }, until: { closedForBacklog() >= 2 })
        let rssAfter = residentKiB(of: daemon.pid)

        print("hardening: good subscriber alone: \(alone)")
        print("hardening: good subscriber with a never-reader, a slow reader and a mid-write hang-up: \(withBad)")
        print("hardening: daemon RSS \(rssBefore) KiB before the bad subscribers, \(rssAfter) KiB after")

        // The good one got every frame in both phases while it kept up. (A renderer that
        // itself falls behind, as this test's thread does when other work loads both cores,
        // gets the newest frame instead of a backlog; a loaded daemon misses ticks, whoever
        // its clients are: so only gaps between frames on time count, 2 % of them tolerated,
        // and the rate with bad clients is compared with the rate without, not with 60 fps.)
        #expect(alone.gapsWhileOnTime(interval: 1.0 / 60) <= alone.seqs.count / 50)
        #expect(withBad.gapsWhileOnTime(interval: 1.0 / 60) <= withBad.seqs.count / 50)
        #expect(withBad.framesPerSecond >= 0.5 * alone.framesPerSecond)
        // Delay is measured and printed; the bound here only catches a daemon that waits on
        // a bad client (seconds), not a machine loaded by other work (the p99 figures with
        // and without bad clients belong to `make bench`, see the README).
        #expect(percentile(withBad.delays, 0.99) < 0.5)
        // The never-reader and the slow reader were closed with a log line naming them.
        let log = daemon.stderrText
        let closures = log.split(separator: "\n").filter { $0.contains("is not reading") }
        #expect(closures.count == 2)
        #expect(closures.allSatisfy { $0.contains(Self.label) })
        // The never-reader finds the end of the stream once it reads.
        try waitUntil("the never-reader to read to the end of its stream") {
            _ = never.waitReadable(timeout: 0.05)
            return never.read() == nil
        }
        // Memory did not grow with the backlog of the bad ones (each is bounded at 4 MiB).
        #expect(rssAfter - rssBefore < 32 * 1024)
        #expect(try daemon.connect().call("ping") == [:])
        #expect(!log.contains("invariant"))
    }

    /// presentctl presents with a one-second zoom and is SIGKILLed halfway: its entry
    /// reverses from exactly where it was, leaves with ownerGone, and the log names the
    /// dead process by its pid.
    @Test func aClientKilledMidTransition() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "10", "--check-invariants", "--log-level", "info"]
        )
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle", "frames"]])
        let child = try DaemonHarness.spawn(DaemonHarness.presentctlPath,
            [
                "--socket", daemon.socketPath, "present", "--style", "alert", "--transition", "zoom",
                                             "--duration", "1", "--timing", "linear", "--wait"],
            stdout: daemon.directory + "/child.out", stderr: daemon.directory + "/child.out",
                                            environment: [:])
        let presented = try #require(try watcher.awaitNotification("lifecycle") { $0["event"] == "willPresent" })
        let id = try #require(presented["id"])
        try watcher.call("advance", ["seconds": 0.5])
        let halfway = try #require(try watcher.awaitNotification("frame") { $0["time"]?.doubleValue == 0.5 })
        let content = try #require(halfway["layers"]?.arrayValue?.first { $0["id"] == id && $0["role"] == "content" })
        let scale = try #require(content["scale"]?.doubleValue)
        #expect(scale > 0.01 && scale < 0.99)   // really in the middle of the zoom

        kill(child, SIGKILL)
        var status: Int32 = 0
        waitpid(child, &status, 0)
        let leaving = try #require(try watcher.awaitNotification("lifecycle") { $0["event"] == "willDismiss" })
        #expect(leaving["id"] == id)
        #expect(leaving["reason"] == "ownerGone")
        // It turns back from where it was, not from its end state.
        let from = leaving["animation"]?["from"]
        #expect(from?["alpha"] == content["alpha"])
        #expect(from?["scale"] == content["scale"])
        #expect(from?["frame"] == content["frame"])
        #expect((leaving["animation"]?["duration"]?.doubleValue ?? 9) <= 0.5 + 1e-9)
        try watcher.call("advance", ["seconds": 1])
        let gone = try #require(try watcher.awaitNotification("lifecycle") { $0["event"] == "didDismiss" })
        #expect(gone["id"] == id)
        #expect(gone["reason"] == "ownerGone")
        #expect(try watcher.call("stack")["entries"] == [])
        let log = daemon.stderrText
        #expect(log.contains("pid \(child), uid \(getuid())"))
        #expect(log.contains("left; dismissing"))
        #expect(!log.contains("invariant"))
        unlink(daemon.directory + "/child.out")
    }

    /// An owner that asked to confirm dismissals and then never reads: a tap waits for the
    /// timeout (1 s) and is then allowed; meanwhile the same connection and everyone else
    /// are served at once.
    @Test func anOwnerThatNeverAnswersShouldDismiss() throws {
        let daemon = try DaemonHarness(["--check-invariants", "--log-level", "info"])
        let owner = try daemon.connect()
        let id = try owner.call("present", ["style": "alert", "confirmDismiss": true,
                                            "transition": ["type": "crossDissolve", "duration": 0]])["id"]
        let screen = try RawConnection(path: daemon.socketPath)
        let start = monotonicNow()
        screen.send("tap", id: "tap", ["x": 5, "y": 5])
        screen.send("ping", id: "ping")
        var order: [JSONValue] = []
        let ping = try screen.awaitReply("ping") { order.append($0) }
        let pingTime = monotonicNow() - start
        #expect(ping["result"] == [:])
        #expect(try daemon.connect().call("stack")["entries"]?.arrayValue?.count == 1)
        let tap = try screen.awaitReply("tap")
        let tapTime = monotonicNow() - start
        print(
            "hardening: unanswered shouldDismiss: ping answered after \(Int(pingTime * 1000)) ms, tap after "
            + "\(Int(tapTime * 1000)) ms (timeout 1 s)"
        )
        #expect(order.isEmpty)
        #expect(pingTime < 0.5)
        #expect(tapTime >= 0.95 && tapTime < 5)
        #expect(tap["result"]?["dismissed"] == true)
        #expect(tap["result"]?["confirmation"] == "timeout")
        #expect(tap["result"]?["id"] == id)
        let log = daemon.stderrText
        #expect(
            log.split(separator: "\n").contains {
                $0.contains("did not answer shouldDismiss") && $0.contains(Self.label)
            })
        #expect(!log.contains("invariant"))
    }

    /// An owner that hangs up while it is being asked: the question is settled at once
    /// (not after the timeout) and its entry leaves with ownerGone.
    @Test func anOwnerThatHangsUpWhileAsked() throws {
        let daemon = try DaemonHarness(
            ["--clock", "manual", "--check-invariants"], configuration: DaemonHarness.patientOwners)
        var owner: PresentClient? = try daemon.connect()
        try owner?.call("present", ["style": "alert", "confirmDismiss": true])
        try owner?.call("advance", ["seconds": 1])
        let screen = try RawConnection(path: daemon.socketPath)
        screen.send("tap", id: "tap", ["x": 5, "y": 5])
        // The question reaches the owner; it hangs up instead of answering.
        let question = try #require(try owner?.readLine(timeout: generousTimeout))
        #expect(try JSONValue.parse(question)["method"] == "shouldDismiss")
        owner = nil
        // Settled by the hang-up, well before the owner's minute is up (the timeout would say so).
        let tap = try screen.awaitReply("tap", timeout: 30)
        #expect(tap["result"]?["confirmation"] == "ownerGone")
        #expect(!daemon.stderrText.contains("invariant"))
    }
}
