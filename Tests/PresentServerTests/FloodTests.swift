// Floods (Tests/Hardening/flood.py): connection churn, a client pipelining as fast as
// it can, one that pipelines and never reads, connections held up to the limit. A
// well-behaved client keeps pinging throughout; its round trips, the daemon's memory and
// the flood's own counts are printed ("hardening: …") for the notes.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Floods", .serialized)
struct FloodTests {
    static let script: String = {
        // #filePath is …/Tests/PresentServerTests/FloodTests.swift
        let parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(2)
        return parts.joined(separator: "/") + "/Hardening/flood.py"
    }()

    /// Pings until `busy` says stop; the round trips in seconds.
    static func pings(_ client: PresentClient, while busy: () -> Bool, sample: () -> Void = {}) throws -> [Double] {
        var trips: [Double] = []
        repeat {
            let start = monotonicNow()
            _ = try client.call("ping", timeout: generousTimeout)   // a slow one is measured, not an error
            trips.append(monotonicNow() - start)
            if trips.count % 20 == 0 { sample() }
        } while busy()
        return trips
    }

    static func ms(_ seconds: Double) -> String { "\((seconds * 100_000).rounded() / 100) ms" }

    @Test(arguments: [("churn", 4), ("blast", 1), ("mute", 1), ("hold", 150)])
    func aWellBehavedClientStaysServed(mode: String, workers: Int) throws {
        let daemon = try DaemonHarness(["--check-invariants", "--max-connections-per-uid", "100"])
        let good = try daemon.connect()
        try good.call(
            "present", ["id": "kept", "style": "popup", "transition": ["type": "crossDissolve", "duration": 0]])
        var count = 0
        let calm = try Self.pings(good) { count += 1; return count < 300 }
        let rssBefore = residentKiB(of: daemon.pid)

        let output = daemon.directory + "/flood.out"
        // A mute client needs time to fill its 4 MiB backlog (≈ 2.5 s at a quiet machine's
        // pace, longer under load): give it 8 s, the other floods 3.
        let seconds = mode == "mute" ? "8" : "3"
        let flood = try DaemonHarness.spawn(
            "/usr/bin/python3", [Self.script, daemon.socketPath, mode, seconds, "\(workers)"],
                                            stdout: output, stderr: output, environment: [:])
        var status: Int32 = 0
        var rssPeak = rssBefore
        let during = try Self.pings(good, while: { waitpid(flood, &status, WNOHANG) == 0 },
                                    sample: { rssPeak = max(rssPeak, residentKiB(of: daemon.pid)) })
        let report = try JSONValue.parse((try? String(contentsOfFile: output)) ?? "")
        unlink(output)
        let rssAfter = residentKiB(of: daemon.pid)

        print(
            "hardening: flood \(mode): \(report.serializedString); good client round trip calm p50 "
            + "\(Self.ms(percentile(calm, 0.5))) "
                + "p99 \(Self.ms(percentile(calm, 0.99))); during the flood (\(during.count) pings) p50 "
                + "\(Self.ms(percentile(during, 0.5))) "
              + "p99 \(Self.ms(percentile(during, 0.99))) max \(Self.ms(during.max() ?? 0)); "
              + "daemon RSS \(rssBefore) KiB before, peak \(rssPeak) KiB, \(rssAfter) KiB after")

        #expect(DaemonHarness.exitStatus(status) == 0)
        #expect(percentile(during, 0.99) < 0.25)
        // Before fairness (Fairness.swift) one blasting client stalled the others for 1-3 s.
        #expect((during.max() ?? 0) < 0.75)
        // Bounded: the mute client's 4 MiB backlog, nothing per request sent.
        #expect(rssPeak - rssBefore < 32 * 1024)
        #expect(try good.call("stack")["entries"]?.arrayValue?.map { $0["id"] } == ["kept"])
        let log = daemon.stderrText
        #expect(!log.contains("invariant"))
        switch mode {
        case "churn":
            #expect((report["connections"]?.int64Value ?? 0) > 500)
        case "blast":
            #expect((report["repliesRead"]?.int64Value ?? 0) > 1000)
        case "mute":
            // Past its bound it is told `closing` and no longer read; the daemon closes it
            // once the notice is written or after the flush timeout (it never reads).
            #expect(log.contains("is not reading"))
        default:
            #expect(report["accepted"] == 99)   // the good client holds the hundredth slot
            #expect(report["refused"] == 51)
            #expect(log.contains("uid \(getuid()) has 100 connections already"))
        }
    }
}
