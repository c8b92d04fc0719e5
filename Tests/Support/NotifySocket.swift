// A fake systemd for sd_notify: an AF_UNIX datagram socket a daemon is pointed at with
// NOTIFY_SOCKET (a path, or an abstract "@name"), recording each notice and when it arrived.
//
// A thread reads the socket all the time, as systemd does: sd_notify blocks once ten
// datagrams wait unread (net.unix.max_dgram_qlen), so a test busy with a client call
// would otherwise stall the daemon it is waiting for.

#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Receives what a daemon tells its service manager (READY=1, STATUS=…, WATCHDOG=1, …).
final class NotifySocket: @unchecked Sendable {
    /// One datagram: its text and when it arrived (CLOCK_MONOTONIC seconds).
    struct Notice {
        let text: String
        let time: Double
        /// `KEY=value` lines as a dictionary.
        var fields: [String: String] {
            var result: [String: String] = [:]
            for line in text.split(separator: "\n") {
                guard let eq = line.firstIndex(of: "=") else { continue }
                result[String(line[..<eq])] = String(line[line.index(after: eq)...])
            }
            return result
        }
    }

    let path: String
    private let fd: Int32
    /// Notices read by the thread and not yet handed out; whether the thread must stop.
    private let inbox = Mutex<(notices: [Notice], stop: Bool)>(([], false))
    private var reader = pthread_t()

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.setup("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw HarnessError.setup("notify socket path too long: \(path)")
        }
        // "@name" is the abstract namespace, as in NOTIFY_SOCKET: a leading NUL, and a length
        // that ends with the name (an abstract name is all of the address's bytes).
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length =
            abstract ? MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count : MemoryLayout<sockaddr_un>.size
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard status == 0 else { throw HarnessError.setup("bind \(path): \(String(cString: strerror(errno)))") }
        // The thread holds an unretained reference: deinit joins it before anything is freed.
        let started = pthread_create(&reader, nil, { context in
            Unmanaged<NotifySocket>.fromOpaque(context!).takeUnretainedValue().readUntilStopped()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
        guard started == 0 else { throw HarnessError.setup("pthread_create: \(started)") }
    }

    deinit {
        inbox.withLock { $0.stop = true }
        pthread_join(reader, nil)
        close(fd)
        if !path.hasPrefix("@") { unlink(path) }
    }

    private func readUntilStopped() {
        while !inbox.withLock({ $0.stop }) {
            var pollfd = Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, 20) == 1 else { continue }
            inbox.withLock { readWaiting(into: &$0.notices) }
        }
    }

    /// Moves every datagram the kernel holds into `notices`. Callers hold the lock, so a
    /// notice is never between the socket and the inbox while someone looks at both.
    private func readWaiting(into notices: inout [Notice]) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { return }
            notices.append(Notice(text: String(decoding: buffer[..<n], as: UTF8.self), time: Self.now()))
        }
    }

    /// The next notice, waiting at most `timeout` seconds.
    func receive(timeout: Double) -> Notice? {
        let deadline = Self.now() + timeout
        while true {
            let next = inbox.withLock { $0.notices.isEmpty ? nil : $0.notices.removeFirst() }
            if let next { return next }
            if Self.now() >= deadline { return nil }
            usleep(1_000)
        }
    }

    /// Every notice sent so far, without blocking: also those the reader thread has not
    /// picked up yet (a loaded machine may run it late), so that what a daemon sent before
    /// something the test saw is surely here.
    func drain() -> [Notice] {
        inbox.withLock { box in
            readWaiting(into: &box.notices)
            defer { box.notices.removeAll() }
            return box.notices
        }
    }

    /// Notices until one satisfies `match` (included), or nil if none comes within `timeout`.
    func collect(until match: (Notice) -> Bool, timeout: Double = generousTimeout) -> [Notice]? {
        let deadline = Self.now() + timeout
        var notices: [Notice] = []
        while let notice = receive(timeout: max(0, deadline - Self.now())) {
            notices.append(notice)
            if match(notice) { return notices }
        }
        return nil
    }

    /// Every notice for `seconds` from now.
    func collect(for seconds: Double) -> [Notice] {
        let deadline = Self.now() + seconds
        var notices: [Notice] = []
        while true {
            let left = deadline - Self.now()
            guard left > 0, let notice = receive(timeout: left) else { break }
            notices.append(notice)
        }
        return notices
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
