// presentd raises its soft open-file limit towards the hard limit at start (enough for
// --max-connections and its own descriptors), so a low soft limit does not cap it.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Open-file limit")
struct OpenFileLimitTests {
    /// Started from a shell that lowered the soft limit to 64, the daemon serves 100 clients
    /// at once, and its soft limit covers the default 1024 connections (or is the hard limit).
    @Test func servesMoreClientsThanTheSoftLimitItWasStartedWith() throws {
        let temporary = try TemporaryDirectory()
        defer { temporary.remove() }   // after the daemon's stop below: defers run last first
        let socket = temporary.path + "/presentd.sock"
        let log = temporary.path + "/stderr.log"
        let pid = try DaemonHarness.spawn(
            "/bin/sh", ["-c", "ulimit -S -n 64 && exec \"$0\" --socket \"$1\"", DaemonHarness.presentdPath, socket],
            stderr: log, environment: [:])
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }

        var clients = [
            try waitFor("presentd to listen on \(socket)", context: { (try? String(contentsOfFile: log)) ?? "" }) {
            try? PresentClient(path: socket)
        }]
        while clients.count < 100 { clients.append(try PresentClient(path: socket)) }
        // Each is accepted and served; past the soft limit of 64 these would wait unaccepted.
        for client in clients { _ = try client.call("ping", timeout: generousTimeout) }

        let limits = try String(contentsOfFile: "/proc/\(pid)/limits")
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        try #require(fields.count >= 5)
        let soft = UInt64(fields[3]) ?? .max, hard = UInt64(fields[4]) ?? .max
        #expect(soft >= min(hard, 1024 + 64), "soft limit not raised: \(line)")
    }
}
