// presentd under systemd, as systemd sees it: socket activation through
// systemd-socket-activate (Debian's systemd package), and the sd_notify protocol through a
// fake NOTIFY_SOCKET. These tests run the real daemon and measure real time loosely: the
// watchdog's cadence and the status line's rate are the feature.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("systemd")
struct SystemdTests {
    // MARK: Socket activation

    @Test func theFirstConnectionStartsTheDaemonOnThePassedSocketWhichOutlivesIt() throws {
        let run = try ActivatedDaemon(["--log-level", "info"])
        // Until someone connects, only systemd-socket-activate runs (presentd execs in its place).
        #expect(run.executable.hasSuffix("/systemd-socket-activate"))
        let client = try PresentClient(path: run.socketPath)
        // presentd starts behind this first connection: give it a fresh, busy machine's time.
        let hello = try client.call("hello", ["client": "activation-test"], timeout: generousTimeout)
        #expect(hello["server"] == "presentd")
        #expect(run.executable == DaemonHarness.presentdPath)
        #expect(run.stderrText.contains("listening on \(run.socketPath), adopted from systemd"))
        // It served on systemd's socket, not one of its own at the path it would otherwise choose.
        #expect(!fileExists(run.decoyPath))
        #expect(run.stop() == 0)
        #expect(isSocket(run.socketPath), "presentd must never unlink a socket systemd passed")
    }

    @Test func aDaemonThatBoundItsOwnSocketRemovesIt() throws {
        // The contrast to the test above: without socket activation the file goes away.
        let daemon = try DaemonHarness()
        #expect(isSocket(daemon.socketPath))
        #expect(daemon.stop() == 0)
        #expect(!fileExists(daemon.socketPath))
    }

    @Test func exitIdleTimeExitsCleanlyOnlyOnceNoClientAndNoPresentationIsLeft() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        let notify = try NotifySocket(path: directory.path + "/notify")
        // Watchdog pings every 50 ms serve as the test's clock.
        let run = try ActivatedDaemon(["--exit-idle-time", "0.3"],
                                      environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "100000"])
        var client: PresentClient? = try PresentClient(path: run.socketPath)
        // presentd starts behind this first connection: give it a fresh, busy machine's time.
        _ = try client?.call("present", ["style": "alert", "transition": ["duration": 0.1]], timeout: generousTimeout)
        // Twice the idle time with a client and a presentation, by the daemon's own clock
        // (14 pings, the first at start, are 0.65 s of its time however late they come):
        // still serving.
        var pings = 0
        let busy = notify.collect(until: { notice in
            if notice.text == "WATCHDOG=1" { pings += 1 }
            return pings == 14
        })
        #expect(busy != nil, "\(pings) watchdog pings")
        #expect(run.isRunning)
        #expect(try client?.call("ping") == [:])
        client = nil  // its presentation leaves (ownerGone), then the stack is empty
        // Read while waiting: the kernel keeps only a few datagrams (net.unix.max_dgram_qlen)
        // and the watchdog pings would crowd STOPPING=1 out.
        let stopping = notify.collect(until: { $0.fields["STOPPING"] == "1" })
        #expect(stopping != nil)
        let status = run.waitForExit(timeout: generousTimeout)
        #expect(status == 0)
        #expect(run.stderrText.contains("idle for 0.3 s"))
        #expect(isSocket(run.socketPath), "systemd keeps listening and starts presentd on the next connection")
    }

    @Test func exitIdleTimeIsIgnoredWithoutSocketActivation() throws {
        let daemon = try DaemonHarness(["--exit-idle-time", "0.1", "--log-level", "info"])
        // Nothing could start it again, so it keeps running (and says why).
        let c = try daemon.connect()
        #expect(try c.call("ping") == [:])
        #expect(daemon.stderrText.contains("exit-idle-time ignored"))
        #expect(daemon.stop() == 0)
    }

    // MARK: sd_notify

    // The kernel keeps only net.unix.max_dgram_qlen (often 10) unread datagrams for the
    // fake NOTIFY_SOCKET; past that sd_notify's datagrams are dropped. So the watchdog's
    // cadence is measured in a run of its own, read continuously.

    @Test func readyBeforeTheFirstReplyThenStatusAndStopping() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        let notify = try NotifySocket(path: directory.path + "/notify")
        let daemon = try DaemonHarness(environment: ["NOTIFY_SOCKET": notify.path])
        let c = try daemon.connect()
        #expect(try c.call("ping") == [:])
        // READY=1 was sent before the daemon served anything, so it is already here.
        var notices = notify.drain()
        let ready = try #require(notices.first)
        #expect(ready.fields["READY"] == "1")
        #expect(ready.fields["STATUS"] != nil)

        // The status line follows clients, subscribers and the stack.
        _ = try c.call("subscribe", ["topics": ["lifecycle"]])
        let presenter = try daemon.connect()
        _ = try presenter.call("present", ["style": "alert"])
        let expected = "2 clients, 1 subscriber, stack depth 1 (0 queued)"
        notices += try #require(notify.collect(until: { $0.fields["STATUS"] == expected }))

        // A burst of changes: still at most one status line a second. (Watching for a
        // fixed while is the point: the lines that do not come.)
        for _ in 0..<40 { _ = try daemon.connect().call("ping") }
        notices += notify.collect(for: 2.5)
        let statusTimes = notices.filter { $0.fields["STATUS"] != nil }.map(\.time)
        for (earlier, later) in zip(statusTimes, statusTimes.dropFirst()) {
            #expect(later - earlier >= 0.9, "STATUS lines \(later - earlier) s apart")
        }

        #expect(daemon.stop() == 0)
        #expect(notify.drain().contains { $0.fields["STOPPING"] == "1" })
    }

    @Test func watchdogPingsAtHalfOfWatchdogUsec() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        let notify = try NotifySocket(path: directory.path + "/notify")
        let daemon = try DaemonHarness(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        // WATCHDOG=1 at half of WATCHDOG_USEC (0.1 s). Sixteen of them, however long a
        // loaded machine takes (its late pings only lengthen a few intervals: the median holds).
        var count = 0
        let notices = notify.collect(until: { notice in
            if notice.text == "WATCHDOG=1" { count += 1 }
            return count == 16
        }) ?? []
        let pings = notices.filter { $0.text == "WATCHDOG=1" }.map(\.time)
        let intervals = zip(pings, pings.dropFirst()).map { $1 - $0 }.sorted()
        #expect(intervals.count >= 15)
        let median = intervals.isEmpty ? 0 : intervals[intervals.count / 2]
        #expect(median > 0.08 && median < 0.13, "median watchdog interval \(median) s")
        #expect(daemon.stop() == 0)
    }

    // MARK: Configuration reload (SIGHUP)

    @Test func sighupAppliesAValidFileLiveAndRefusesAnInvalidOne() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        let config = directory.path + "/presentd.json"
        try writeFile(config, #"{"fps": 30, "limits": {"maxConnections": 9}}"#)
        let notify = try NotifySocket(path: directory.path + "/notify")
        let daemon = try DaemonHarness(["--config", config, "--max-connections", "5"],
                                       environment: ["NOTIFY_SOCKET": notify.path])
        let c = try daemon.connect()
        var hello = try c.call("hello")
        #expect(hello["fps"] == 30)
        #expect(hello["limits"]?["maxConnections"] == 5)  // the flag outranks the file
        _ = try c.call("subscribe", ["topics": ["statusBar", "lifecycle"]])

        try writeFile(config, """
            {"fps": 90, "statusBar": {"style": "lightContent"}, "limits": {"maxConnections": 9, "maxEntries": 8},
             "defaults": {"transition": {"duration": 0.25, "timing": "linear"}}, "container": {"width": 500}}
            """)
        try reload(daemon, notify)
        let bar = try #require(try c.awaitNotification("statusBar"))
        #expect(bar["style"] == "lightContent")
        hello = try c.call("hello")
        #expect(hello["fps"] == 90)
        #expect(hello["limits"]?["maxEntries"] == 8)
        #expect(hello["limits"]?["maxConnections"] == 5)  // still the flag
        #expect(hello["container"]?["width"]?.double == 390)  // needs a restart
        _ = try c.call("present", ["style": "alert"])
        let presented = try #require(try c.awaitNotification("lifecycle") { $0["event"] == "willPresent" })
        #expect(presented["animation"]?["duration"]?.double == 0.25)
        #expect(presented["animation"]?["timing"] == "linear")
        #expect(daemon.stderrText.contains("container.width"))
        #expect(daemon.stderrText.contains("applies when presentd restarts"))

        try writeFile(config, #"{"fps": 1000, "limits": {"maxEntries": "many"}}"#)
        try reload(daemon, notify)
        hello = try c.call("hello")
        #expect(hello["fps"] == 90)
        #expect(hello["limits"]?["maxEntries"] == 8)
        let log = daemon.stderrText
        #expect(log.contains("reload refused, keeping the running configuration"))
        #expect(log.contains("fps: must be between 1 and 240"))
        #expect(log.contains("limits.maxEntries: expected an integer, got string"))
        #expect(daemon.stop() == 0)
    }

    /// SIGHUP, then RELOADING=1 and READY=1 in that order.
    private func reload(_ daemon: DaemonHarness, _ notify: NotifySocket) throws {
        _ = notify.drain()
        kill(daemon.pid, SIGHUP)
        let notices = try #require(notify.collect(until: { $0.fields["READY"] == "1" }))
        #expect(notices.contains { $0.fields["RELOADING"] == "1" })
        #expect(notices.firstIndex { $0.fields["RELOADING"] == "1" } ?? .max < notices.count - 1)
        #expect(!notices.contains { $0.text.contains("WATCHDOG") }, "no WATCHDOG_USEC, no pings")
    }

    // MARK: Configuration on the command line

    @Test func flagsOverrideTheFile() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        let config = directory.path + "/presentd.json"
        try writeFile(config, #"{"fps": 30, "limits": {"maxConnections": 7}, "dismissPolicy": "owner"}"#)
        let daemon = try DaemonHarness(["--config", config, "--fps", "90"])
        let hello = try daemon.connect().call("hello")
        #expect(hello["fps"] == 90)
        #expect(hello["limits"]?["maxConnections"] == 7)
        let (status, printed) = try DaemonHarness.run(DaemonHarness.presentdPath,
                                                      ["--config", config, "--fps", "90", "--print-config"])
        #expect(status == 0)
        let effective = try JSONValue.parse(printed)
        #expect(effective["fps"] == 90)
        #expect(effective["dismissPolicy"] == "owner")
        #expect(effective["limits"]?["maxConnections"] == 7)
    }

    @Test func printConfigReadsBackAsTheSameConfiguration() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        let first = directory.path + "/first.json", second = directory.path + "/second.json"
        try writeFile(
            first,
            #"{"statusBar": {"style": "darkContent", "hidden": true}, "defaults": {"keyboard": {"timing": {"spring": "#
            + #"{"duration": 0.5, "dampingRatio": 0.8}}}, "transition": {"timing": {"bezier": [0.2, 0, 0.2, 1]}}}, "#
            + #""container": {"width": 1024, "height": 768, "scale": 2}}"#
        )
        let (status, printed) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--config", first, "--print-config"])
        #expect(status == 0)
        try writeFile(second, printed)
        #expect(try DaemonHarness.run(DaemonHarness.presentdPath, ["--check-config", second]).0 == 0)
        let (_, again) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--config", second, "--print-config"])
        #expect(again == printed)
        let json = try JSONValue.parse(printed)
        #expect(json["container"]?["horizontalSizeClass"] == "regular")
        #expect(json["defaults"]?["transition"]?["timing"]?["bezier"]?.arrayValue?[2].double == 0.2)
    }

    @Test func theShippedExampleIsValidAndSpellsOutTheDefaults() throws {
        let example = repositoryRoot + "/systemd/presentd.json"
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--check-config", example])
        #expect(status == 0, "\(output)")
        let env = ["PRESENTD_SOCKET": "/tmp/x.sock"]
        let (_, fromExample) = try DaemonHarness.run(
            DaemonHarness.presentdPath, ["--config", example, "--print-config"], environment: env)
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        try writeFile(directory.path + "/empty.json", "{}")
        let (_, defaults) = try DaemonHarness.run(DaemonHarness.presentdPath,
            ["--config", directory.path + "/empty.json", "--print-config"], environment: env)
        #expect(fromExample == defaults)
    }

    @Test func checkConfigExplainsEveryError() throws {
        let directory = try TemporaryDirectory(prefix: "presentd-systemd")
        defer { directory.remove() }
        let bad = directory.path + "/bad.json"
        try writeFile(bad, """
            {"fps": 500, "socket": {"path": "relative"}, "limits": {"maxEntries": "x", "maxLinebytes": 5},
             "statusBar": {"style": "pink"}, "defaults": {"transition": {"timing": {"bezier": [0.1, 2, 1.5, 1]}}},
             "logLevel": "loud", "colour": 1}
            """)
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--check-config", bad])
        #expect(status == 1)
        for line in ["8 errors", "fps: must be between 1 and 240", "socket.path: must be an absolute path",
                     "limits.maxEntries: expected an integer, got string",
                     "limits.maxLinebytes: unknown setting; did you mean \"maxLineBytes\"?",
            "statusBar.style: expected one of", "defaults.transition.timing.bezier[2]: must be between 0 and 1",
                     "logLevel: expected one of", "colour: unknown setting"] {
            #expect(output.contains(line), "missing \(line) in: \(output)")
        }
        try writeFile(bad, "{\"fps\": 30,\n  \"limits\": [}")
        let (syntaxStatus, syntax) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--check-config", bad])
        #expect(syntaxStatus == 1)
        #expect(syntax.contains("not valid JSON: line 2, column 14"))
        let (missingStatus, missing) = try DaemonHarness.run(DaemonHarness.presentdPath,
                                                             ["--config", directory.path + "/none.json"])
        #expect(missingStatus == 1)
        #expect(missing.contains("cannot read it: No such file or directory"))
        #expect(try DaemonHarness.run(DaemonHarness.presentdPath, ["--check-config", bad, "--fps", "3"]).0 == 2)
    }
}

// MARK: - Helpers

/// presentd behind `systemd-socket-activate`, which binds the socket, waits for the first
/// connection, then execs presentd with LISTEN_FDS (its pid stays the same).
fileprivate final class ActivatedDaemon {
    let directory: TemporaryDirectory
    let socketPath: String
    /// Where presentd would listen if it ignored the passed socket ($PRESENTD_SOCKET).
    let decoyPath: String
    let pid: pid_t
    private let stderrPath: String
    private var exitStatus: Int32?

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        directory = try TemporaryDirectory(prefix: "presentd-systemd")
        socketPath = directory.path + "/presentd.sock"
        decoyPath = directory.path + "/decoy.sock"
        stderrPath = directory.path + "/stderr.log"
        let setenv = environment.sorted { $0.key < $1.key }.map { "--setenv=\($0.key)=\($0.value)" }
        pid = try DaemonHarness.spawn("/usr/bin/systemd-socket-activate",
                                      ["--listen=\(socketPath)", "--fdname=presentd"] + setenv
                                          + [DaemonHarness.presentdPath] + arguments,
                                      stdout: stderrPath, stderr: stderrPath,
                                      environment: ["PRESENTD_SOCKET": decoyPath])
        // Not until the socket file exists: systemd-socket-activate creates it at bind() and
        // only then calls listen(), and a connection in between is refused. Nor by connecting:
        // that would start presentd. The kernel's socket table says when it listens.
        try waitUntil("systemd-socket-activate to listen on \(socketPath)",
            context: {
                "activator \(isRunning ? "still running" : "exited with \(exitStatus.map(String.init) ?? "?")"), "
                + "output: \(stderrText)"
            }
        ) {
            guard isRunning else {
                throw HarnessError.setup(
                    "systemd-socket-activate exited with \(exitStatus.map(String.init) ?? "?"): \(stderrText)")
            }
            return isListening(socketPath)
        }
    }

    deinit { _ = stop() }

    /// The program the process runs now.
    var executable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        return String(decoding: buffer[..<max(0, n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    var stderrText: String { (try? String(contentsOfFile: stderrPath)) ?? "" }

    var isRunning: Bool { exitStatus == nil && reap(options: WNOHANG) == nil }

    /// SIGTERM, then the exit status.
    func stop() -> Int32? {
        if exitStatus == nil { kill(pid, SIGTERM) }
        return waitForExit(timeout: generousTimeout)
    }

    /// The exit status once the process has exited, or nil after `timeout` seconds.
    func waitForExit(timeout: Double) -> Int32? {
        let deadline = NotifySocket.now() + timeout
        while exitStatus == nil && NotifySocket.now() < deadline {
            if reap(options: WNOHANG) == nil { usleep(10_000) }
        }
        if exitStatus == nil {
            kill(pid, SIGKILL)
            _ = reap(options: 0)
            return nil
        }
        return exitStatus
    }

    private func reap(options: Int32) -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, options) == pid else { return nil }
        exitStatus = DaemonHarness.exitStatus(status)
        return exitStatus
    }
}

/// The repository this test was built from (configuration examples, units).
fileprivate let repositoryRoot: String = {
    let file = #filePath  // …/Tests/PresentServerTests/SystemdTests.swift
    var parts = file.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

fileprivate func fileExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

fileprivate func isSocket(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFSOCK
}
