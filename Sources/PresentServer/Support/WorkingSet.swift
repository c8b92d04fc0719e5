// Start-up touches code an idle daemon never runs again: the Swift runtime's set-up,
// argument and configuration parsing, the socket's creation. The kernel maps those pages
// (and, by fault-around, up to 16 neighbours of each that are in the page cache) into the
// process, and they stay counted in its resident set for as long as it lives: 6 MiB of
// the binary's text for a daemon whose steady state runs a fraction of that. Once
// serving, and again whenever it falls quiet (IdleTrim.swift), the daemon gives back the
// read-only file pages it holds:
//
// - MADV_RANDOM first: a later fault that must read from disk reads the one page it
//   needs, no readahead (fault-around still maps the neighbours the page cache holds:
//   measured, MADV_RANDOM does not stop it);
// - MADV_PAGEOUT, at start-up only: the kernel may reclaim the pages no other process
//   maps (the binary's own) from the page cache too — it does not always (measured:
//   sometimes a fresh daemon holds 2.0 MiB, sometimes 3.2). Not when idle: the loop's
//   code would then come back from disk (measured: the next ping took 2.4 ms, not 0.33);
// - MADV_DONTNEED: whatever is left is unmapped, and stays in the page cache.
//
// The price: code pages the first requests need fault back in (from disk, if reclaimed).
//
// Only mappings that cannot hold private data are trimmed: not writable, backed by a file,
// and with no private page, in memory or in swap — a relocated read-only segment (RELRO)
// has them, and dropping those would throw its relocations away. A mapping whose figures
// smaps does not give in full is left alone. The daemon is single-threaded, so nothing
// maps or writes between reading smaps and the madvise.

#if canImport(Glibc)
import Glibc
#endif

/// What the daemon gives back of its resident set once it serves.
enum WorkingSet {
    /// Gives back the pages of every clean, read-only file mapping (they fault back in,
    /// one by one, when used). `reclaiming`: ask the kernel to reclaim them from the page
    /// cache too (start-up code, not needed again); without it they stay cached, and a
    /// fault back is a minor one (the idle trim: the loop's code is needed again soon).
    /// Returns the kibibytes the resident set had in them, for the log.
    @discardableResult
    static func trimFileMappings(reclaiming: Bool) -> Int {
        guard case .success(let bytes) = readWholeFile("/proc/self/smaps", limit: 16 << 20) else { return 0 }
        let mappings = Mapping.parse(smaps: String(decoding: bytes, as: UTF8.self)).filter(\.isTrimmable)
        var trimmed = 0
        // Code last: whatever runs after its pages went (the rest of this loop, the return
        // to the event loop) faults some back at once, each fault with its neighbours.
        for mapping in mappings.filter({ !$0.isCode }) + mappings.filter(\.isCode) {
            let start = UnsafeMutableRawPointer(bitPattern: mapping.start), length = Int(mapping.end - mapping.start)
            _ = madvise(start, length, MADV_RANDOM)
            if reclaiming { _ = madvise(start, length, MADV_PAGEOUT) }   // Linux 5.4; older ones refuse it (EINVAL)
            guard madvise(start, length, MADV_DONTNEED) == 0 else { continue }
            trimmed += mapping.residentKiB ?? 0
        }
        return trimmed
    }

    /// One line of /proc/self/maps with the figures smaps gives under it.
    struct Mapping: Equatable {
        var start: UInt
        var end: UInt
        var permissions: Substring
        var path: Substring
        /// smaps' `Rss`, `Anonymous` and `Swap` (kB); nil: not given.
        var residentKiB: Int?
        var anonymousKiB: Int?
        var swappedKiB: Int?

        /// Executable: code.
        var isCode: Bool { permissions.contains("x") }

        /// Read-only, file-backed, something resident and not one private page, resident
        /// or swapped out: trimming it loses nothing.
        var isTrimmable: Bool {
            guard let residentKiB, let anonymousKiB, let swappedKiB else { return false }
            return !permissions.contains("w") && path.hasPrefix("/") && residentKiB > 0 && anonymousKiB == 0 && swappedKiB == 0
        }

        /// The mappings of an smaps text, in order.
        static func parse(smaps: String) -> [Mapping] {
            var mappings: [Mapping] = []
            for line in smaps.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard let first = fields.first else { continue }
                if first.hasSuffix(":") {   // "Rss:   123 kB" under the current mapping
                    guard !mappings.isEmpty, fields.count >= 2, let kib = Int(fields[1]) else { continue }
                    switch first {
                    case "Rss:": mappings[mappings.count - 1].residentKiB = kib
                    case "Anonymous:": mappings[mappings.count - 1].anonymousKiB = kib
                    case "Swap:": mappings[mappings.count - 1].swappedKiB = kib
                    default: break
                    }
                    continue
                }
                let range = first.split(separator: "-")
                guard range.count == 2, fields.count >= 5, let start = UInt(range[0], radix: 16),
                      let end = UInt(range[1], radix: 16) else { continue }
                mappings.append(Mapping(start: start, end: end, permissions: fields[1],
                                        path: fields.count >= 6 ? fields[5] : ""))
            }
            return mappings
        }
    }
}
