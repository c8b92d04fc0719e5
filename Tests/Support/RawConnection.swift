// A non-blocking client socket, for tests that play several clients at once from one
// poll loop (good and bad subscribers side by side) and time what they receive.

#if canImport(Glibc)
import Glibc
#endif
import PresentJSON

/// One connection to the daemon that never blocks: sends what the kernel takes (the
/// rest waits in `outbox`), reads what has arrived, splits it into lines.
final class RawConnection {
    let fd: Int32
    private var inbox: [UInt8] = []
    private var outbox: [UInt8] = []
    private(set) var isClosed = false
    /// Bytes received so far.
    private(set) var bytesRead = 0

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.setup("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw HarnessError.setup("connect: \(reason)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    /// Queues a request line and writes as much as the kernel takes now.
    func send(_ method: String, id: JSONValue? = nil, _ params: JSONValue? = nil) {
        var message: JSONObject = ["jsonrpc": "2.0", "method": .string(method)]
        if let id { message["id"] = id }
        if let params { message["params"] = params }
        send(raw: JSONValue.object(message).serializedLine())
    }

    func send(raw bytes: [UInt8]) {
        outbox += bytes
        flush()
    }

    /// Writes queued bytes; false once the daemon has closed the connection.
    @discardableResult
    func flush() -> Bool {
        while !outbox.isEmpty && !isClosed {
            let n = outbox.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { outbox.removeFirst(n); continue }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return true }
            return false
        }
        return !isClosed
    }

    var hasPendingOutput: Bool { !outbox.isEmpty }

    /// Reads at most `limit` bytes of what has arrived; returns the complete lines, or nil
    /// at end of stream (or error) once nothing is left.
    func read(limit: Int = .max) -> [[UInt8]]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var budget = limit
        var eof = false
        while budget > 0 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, budget)) }
            if n > 0 {
                inbox += chunk[..<n]
                bytesRead += n
                budget -= n
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { break }
            eof = true
            break
        }
        var lines: [[UInt8]] = []
        var start = inbox.startIndex
        while let newline = inbox[start...].firstIndex(of: 10) {
            lines.append(Array(inbox[start..<newline]))
            start = newline + 1
        }
        inbox.removeSubrange(..<start)
        return eof && lines.isEmpty ? nil : lines
    }

    /// Waits up to `timeout` seconds for something to read.
    func waitReadable(timeout: Double) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, Int32(timeout * 1000)) > 0
    }

    /// Reads until a reply with this id (notifications on the way are passed to `other`).
    func awaitReply(_ id: JSONValue, timeout: Double = generousTimeout,
                    other: (JSONValue) -> Void = { _ in }) throws -> JSONValue {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            flush()
            guard waitReadable(timeout: min(0.1, max(0, deadline - monotonicNow()))) else { continue }
            guard let lines = read() else { throw HarnessError.setup("connection closed while waiting for \(id)") }
            var reply: JSONValue?
            for line in lines {
                let message = try JSONValue.parse(line)
                if message["id"] == id && message["method"] == nil { reply = message } else { other(message) }
            }
            if let reply { return reply }
        }
        throw HarnessError.setup("no reply to \(id) within \(timeout) s")
    }
}

/// CLOCK_MONOTONIC in seconds: the clock frame times are given in.
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The resident set of a process, in KiB (from /proc).
func residentKiB(of pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status") else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// The value below which `fraction` of the samples lie (nearest rank).
func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
