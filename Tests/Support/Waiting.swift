// How the server tests wait: for the condition itself, with a generous deadline, and a
// failure that says what was awaited. A fresh machine that builds while it tests can be
// many times slower than a warm one, so deadlines are long and cost nothing when things
// go well (every wait returns as soon as its condition holds).

#if canImport(Glibc)
import Glibc
#endif

/// The deadline of waits that have no reason to pick another: a daemon starting, a file
/// appearing, a state the daemon reaches on its own.
let generousTimeout: Double = 60

/// Polls `condition` until it holds; throws naming `what` (and `context()`, evaluated only
/// on failure) once `timeout` seconds have passed.
func waitUntil(_ what: @autoclosure () -> String, timeout: Double = generousTimeout,
               context: () -> String = { "" }, _ condition: () throws -> Bool) throws {
    _ = try waitFor(what(), timeout: timeout, context: context) { try condition() ? () : nil }
}

/// Polls `produce` until it returns a value, and returns it; throws as `waitUntil` does.
@discardableResult
func waitFor<T>(_ what: @autoclosure () -> String, timeout: Double = generousTimeout,
                context: () -> String = { "" }, _ produce: () throws -> T?) throws -> T {
    let start = monotonicNow()
    var pause: useconds_t = 1_000
    while true {
        if let value = try produce() { return value }
        if monotonicNow() - start > timeout {
            let detail = context()
            throw HarnessError.setup("waited \(Int(timeout)) s for \(what())" + (detail.isEmpty ? "" : ": \(detail)"))
        }
        usleep(pause)
        pause = min(pause * 2, 20_000)   // quick when it is quick, cheap when it is slow
    }
}

/// Whether a Unix stream socket bound at `path` is listening, as the kernel says
/// (/proc/net/unix, flag __SO_ACCEPTCON), without connecting to it: a connection would
/// itself be an event to a socket-activated daemon.
func isListening(_ path: String) -> Bool {
    guard let table = try? String(contentsOfFile: "/proc/net/unix") else { return false }
    let acceptingConnections = 0x10000
    for line in table.split(separator: "\n").dropFirst() {
        // Num RefCount Protocol Flags Type St Inode Path
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 8, fields[7] == path, let flags = Int(fields[3], radix: 16) else { continue }
        if flags & acceptingConnections != 0 { return true }
    }
    return false
}
