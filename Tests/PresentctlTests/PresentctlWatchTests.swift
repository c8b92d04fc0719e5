// `presentctl watch` across restarts of the daemon: it connects again as `present --wait`
// does, subscribes again, and prints what the new daemon sends.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("presentctl watch")
struct PresentctlWatchTests {
    /// presentctl watch lifecycle on `daemon`, its output in a file.
    private final class Watch {
        private let child: Child
        private let stdoutPath: String, stderrPath: String

        init(_ daemon: DaemonHarness) throws {
            stdoutPath = daemon.directory + "/watch.out"
            stderrPath = daemon.directory + "/watch.err"
            child = Child(try DaemonHarness.spawn(DaemonHarness.presentctlPath,
                                                  ["--socket", daemon.socketPath, "watch", "lifecycle"],
                                                  stdout: stdoutPath, stderr: stderrPath, environment: [:]))
        }

        private func reap() -> Int32? { child.reap() }

        /// The lines it printed, parsed.
        var lines: [JSONValue] {
            let text = (try? String(contentsOfFile: stdoutPath)) ?? ""
            return text.split(separator: "\n").compactMap { try? JSONValue.parse(String($0)) }
        }
        var report: String {
            "exit \(reap().map(String.init) ?? "none yet"), stdout "
            + "\"\((try? String(contentsOfFile: stdoutPath)) ?? "")\", "
                + "stderr \"\((try? String(contentsOfFile: stderrPath)) ?? "")\""
        }

        /// Waits until it has printed `count` subscribe results (the snapshot of each
        /// connection), failing early if it exits.
        func waitForSubscriptions(_ count: Int, after what: String) throws {
            try waitUntil("presentctl watch to have subscribed \(count) time(s), \(what)", context: { self.report }) {
                if self.reap() != nil { throw HarnessError.setup("presentctl watch exited \(what): \(self.report)") }
                return self.lines.filter { $0["snapshot"] != nil }.count >= count
            }
        }

        /// Waits until it has printed the willPresent of entry `id`.
        func waitForPresent(of id: String) throws {
            try waitUntil("presentctl watch to print the willPresent of \(id)", context: { self.report }) {
                if self.reap() != nil {
                    throw HarnessError.setup("presentctl watch exited before \(id): \(self.report)")
                }
                return self.lines.contains {
                    $0["params"]?["id"] == .string(id) && $0["params"]?["event"] == "willPresent"
                }
            }
        }
    }

    @Test func watchConnectsAgainWhenTheDaemonRestarts() throws {
        let daemon = try DaemonHarness()
        let watch = try Watch(daemon)
        try watch.waitForSubscriptions(1, after: "at the start")
        try daemon.connect().call("present", ["id": "first", "style": "alert"])
        try watch.waitForPresent(of: "first")

        // A crash: the connection just ends.
        daemon.stop(signal: SIGKILL)
        try daemon.restart()
        try watch.waitForSubscriptions(2, after: "presentd was killed and started again")
        let app = try daemon.connect()
        try app.call("present", ["id": "second", "style": "alert"])
        try watch.waitForPresent(of: "second")

        // A restart: shutdown, printed, then the end of the connection.
        #expect(daemon.stop() == 0)
        try daemon.restart()
        try watch.waitForSubscriptions(3, after: "presentd was stopped and started again")
        #expect(watch.lines.contains { $0["method"] == "shutdown" }, "the shutdown is printed: \(watch.report)")
        try daemon.connect().call("present", ["id": "third", "style": "alert"])
        try watch.waitForPresent(of: "third")
    }
}
