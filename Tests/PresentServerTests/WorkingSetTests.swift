// What the daemon releases once it serves: only clean, read-only file mappings whose
// figures smaps gives in full.

import Testing
@testable import PresentServer

@Suite("Working set")
struct WorkingSetTests {
    static let smaps = """
    55d0c0a00000-55d0c0b00000 r--p 00000000 fd:01 123 /usr/bin/presentd
    Size:               1024 kB
    Rss:                 236 kB
    Anonymous:             0 kB
    Swap:                  0 kB
    55d0c0b00000-55d0c1300000 r-xp 00100000 fd:01 123 /usr/bin/presentd
    Rss:                6020 kB
    Anonymous:             0 kB
    Swap:                  0 kB
    55d0c1300000-55d0c1400000 r--p 00900000 fd:01 123 /usr/bin/presentd
    Rss:                 320 kB
    Anonymous:           320 kB
    Swap:                  0 kB
    55d0c1400000-55d0c1500000 rw-p 00a00000 fd:01 123 /usr/bin/presentd
    Rss:                 548 kB
    Anonymous:           200 kB
    Swap:                  0 kB
    55d0c2000000-55d0c2100000 rw-p 00000000 00:00 0 [heap]
    Rss:                 700 kB
    Anonymous:           700 kB
    Swap:                  0 kB
    7f0000000000-7f0000001000 r-xp 00000000 00:00 0 [vdso]
    Rss:                   4 kB
    Anonymous:             0 kB
    Swap:                  0 kB
    7f0000002000-7f0000003000 r--p 00000000 fd:01 9 /usr/lib/x86_64-linux-gnu/libc.so.6
    Rss:                   0 kB
    Anonymous:             0 kB
    Swap:                  0 kB
    7f0000004000-7f0000008000 r--p 00020000 fd:01 9 /usr/lib/x86_64-linux-gnu/libc.so.6
    Rss:                   8 kB
    Anonymous:             0 kB
    Swap:                  8 kB
    7f0000008000-7f0000009000 r-xp 00030000 fd:01 9 /usr/lib/x86_64-linux-gnu/libc.so.6
    Rss:                   4 kB
    """

    @Test func readsEveryMappingWithItsFigures() {
        let mappings = WorkingSet.Mapping.parse(smaps: Self.smaps)
        #expect(mappings.count == 9)
        #expect(mappings[1] == WorkingSet.Mapping(start: 0x55d0c0b00000, end: 0x55d0c1300000, permissions: "r-xp",
                                                  path: "/usr/bin/presentd", residentKiB: 6020, anonymousKiB: 0, swappedKiB: 0))
        #expect(mappings[4].path == "[heap]" && mappings[4].anonymousKiB == 700)
        #expect(mappings[8].residentKiB == 4 && mappings[8].anonymousKiB == nil && mappings[8].swappedKiB == nil)
    }

    @Test func onlyCleanReadOnlyFilePagesAreReleased() {
        let trimmable = WorkingSet.Mapping.parse(smaps: Self.smaps).map(\.isTrimmable)
        // Headers and text yes. The relocated read-only segment (private pages), data, heap
        // and vdso no; nor a relocated segment whose private pages are in swap (dropping
        // it would free them too), nor one whose figures were cut off; and a mapping with
        // nothing resident has nothing to release.
        #expect(trimmable == [true, true, false, false, false, false, false, false, false])
    }

    @Test func theDaemonsOwnMappingsParse() throws {
        let bytes = try readWholeFile("/proc/self/smaps", limit: 16 << 20).get()
        let mappings = WorkingSet.Mapping.parse(smaps: String(decoding: bytes, as: UTF8.self))
        #expect(mappings.contains { $0.permissions.contains("x") && ($0.residentKiB ?? 0) > 0 }, "no resident code in \(mappings.count) mappings")
        #expect(mappings.allSatisfy { $0.start < $0.end && $0.residentKiB != nil && $0.swappedKiB != nil })
    }
}

@Suite("Idle trim")
struct IdleTrimTests {
    typealias Schedule = IdleTrimSchedule
    let quiet = IdleTrimSchedule.quietMilliseconds

    @Test func theFirstActivityAfterATrimArmsTheTimerAndLaterOnesDoNot() {
        var schedule = Schedule(trimmedAt: 0)
        let armed = schedule.noteActivity(at: 10)
        #expect(armed)
        let armedAgain = schedule.noteActivity(at: 20)
        #expect(!armedAgain)
        let armedLater = schedule.noteActivity(at: 900)
        #expect(!armedLater)
        #expect(schedule.lastActivity == 900)
    }

    @Test func aTimerThatFiresBeforeTheQuietIsOverWaitsForTheRest() {
        var schedule = Schedule(trimmedAt: 0)
        _ = schedule.noteActivity(at: 10)
        _ = schedule.noteActivity(at: 400)   // the timer was armed at 10, for 10 + quiet
        let firstFiring = schedule.timerFired(at: 10 + quiet, moving: false)
        #expect(firstFiring == .wait(400 - 10))
        let secondFiring = schedule.timerFired(at: 400 + quiet, moving: false)
        #expect(secondFiring == .trim)
        #expect(schedule.isTrimmed)
    }

    @Test func nothingIsTrimmedWhileAFrameClockRuns() {
        var schedule = Schedule(trimmedAt: 0)
        _ = schedule.noteActivity(at: 0)
        let whileMoving = schedule.timerFired(at: 5 * quiet, moving: true)
        #expect(whileMoving == .wait(quiet))
        #expect(!schedule.isTrimmed)
        let afterwards = schedule.timerFired(at: 6 * quiet, moving: false)
        #expect(afterwards == .trim)
    }

    @Test func afterATrimTheNextActivityStartsAnotherRound() {
        var schedule = Schedule(trimmedAt: 0)
        _ = schedule.noteActivity(at: 0)
        let first = schedule.timerFired(at: quiet, moving: false)
        #expect(first == .trim)
        let armed = schedule.noteActivity(at: quiet + 50)
        #expect(armed, "the timer is disarmed after a trim")
        let second = schedule.timerFired(at: 2 * quiet + 50, moving: false)
        #expect(second == .trim)
    }

    @Test func aLoopClockThatReadsEarlierThanTheLastActivityWaitsTheWholeQuiet() {
        var schedule = Schedule(trimmedAt: 100)
        _ = schedule.noteActivity(at: 100)
        let decision = schedule.timerFired(at: 50, moving: false)
        #expect(decision == .wait(quiet))
    }

    /// The real daemon: after a request and a quiet second it gives its pages back (it says
    /// so in the log) and its resident set shrinks; the next request is served as before,
    /// and the round starts again.
    @Test func theDaemonTrimsOnceQuietAndServesOnAfterwards() throws {
        let daemon = try DaemonHarness(["--log-level", "debug"])
        let client = try daemon.connect()
        #expect(try client.call("ping") == [:])
        let before = residentKiB(of: daemon.pid)
        try waitUntil("the daemon's first idle trim in its log", context: { daemon.stderrText }) {
            daemon.stderrText.contains("(idle trim 1)")
        }
        let after = residentKiB(of: daemon.pid)
        #expect(after < before, "resident set \(before) KiB before the trim, \(after) KiB after")
        #expect(try client.call("ping") == [:])
        try waitUntil("the second idle trim, after the next request", context: { daemon.stderrText }) {
            daemon.stderrText.contains("(idle trim 2)")
        }
        #expect(try client.call("ping") == [:])
    }
}
