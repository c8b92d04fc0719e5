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
