// The three sd-daemon protocols presentd speaks with systemd, in Swift instead of libsystemd
// (which brings resident crypto and compression libraries for a few lines of protocol
// each). Each function does what its libsystemd namesake (systemd 252) does for
// the arguments presentd passed it:
//
//   sd_listen_fds_with_names(1, …)  →  SDDaemon.listenFDs(unsetEnvironment: true)
//   sd_is_socket_unix(fd, SOCK_STREAM, 1, NULL, 0)  →  SDDaemon.checkUnixStreamListener(fd)
//   sd_notify(0, state)  →  SDDaemon.notify(state)
//   sd_watchdog_enabled(0, &usec)  →  SDDaemon.watchdogMicroseconds()
//
// The parsing takes the environment as a lookup and the pid as a value, so that tests can
// feed it any variables without changing the test process's own environment (which every
// daemon the tests start inherits).

#if canImport(Glibc)
import Glibc
#endif
import PresentSystem

/// systemd's side of the service protocol, as plain functions over the environment and
/// POSIX calls. No state: each call reads what it needs, as libsystemd does.
enum SDDaemon {
    /// Reads one environment variable. The default is the process's; tests pass a dictionary.
    typealias Environment = (String) -> String?

    /// The process's own environment, read at the time of the call.
    static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    // MARK: Socket activation, sd_listen_fds(3)

    /// The first passed fd (`SD_LISTEN_FDS_START`): systemd passes fds 3, 4, … in the order
    /// of the socket unit's Listen*= lines, right after stdin, stdout and stderr.
    static let listenFDsStart: Int32 = 3

    /// The variables of socket activation. They are removed together, so that nothing
    /// presentd starts inherits fds it was not given.
    static let listenVariables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// One fd systemd passed, with its `FileDescriptorName=` ("unknown" when systemd gave
    /// no names, as libsystemd reports it).
    struct PassedFD: Equatable {
        /// The descriptor number in this process (3, 4, …).
        let fd: Int32
        /// What the socket unit calls it, so that a daemon with several can tell them apart.
        let name: String
    }

    /// What `sd_listen_fds_with_names(unset_environment, &names)` returns, without touching
    /// any fd: empty when the variables are absent or meant for another process (LISTEN_PID
    /// is not `pid`, e.g. a child that inherited them), else one entry per fd from 3 on.
    /// Throws for values systemd would never write, as libsystemd returns -EINVAL for them:
    /// a LISTEN_PID or LISTEN_FDS that is not a positive decimal number, or LISTEN_FDNAMES
    /// whose colon-separated names (empty ones count) are not one per fd.
    static func parseListenFDs(environment: Environment, pid: pid_t) throws(SDDaemonError) -> [PassedFD] {
        guard let pidText = environment("LISTEN_PID") else { return [] }
        guard let listenPID = positiveDecimal(pidText, max: UInt64(Int32.max)) else {
            throw .invalidVariable("LISTEN_PID", pidText, expected: "a process id")
        }
        guard listenPID == UInt64(pid), let countText = environment("LISTEN_FDS") else { return [] }
        guard let count = positiveDecimal(countText, max: UInt64(Int32.max - listenFDsStart)) else {
            throw .invalidVariable("LISTEN_FDS", countText, expected: "a positive number of fds")
        }
        let names: [String]
        if let namesText = environment("LISTEN_FDNAMES") {
            // Split on every colon: "a::b" is three names, the middle one empty; "" is none.
            names =
                namesText.isEmpty
                ? [] : namesText.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard names.count == count else { throw .namesDoNotMatchFDs(count: Int(count), names: names) }
        } else {
            names = Array(repeating: "unknown", count: Int(count))
        }
        return names.enumerated().map { PassedFD(fd: listenFDsStart + Int32($0.offset), name: $0.element) }
    }

    /// `sd_listen_fds_with_names(unsetEnvironment, &names)`: the fds passed to this process,
    /// each marked close-on-exec (systemd passes them inheritable). With `unsetEnvironment`
    /// the variables are removed whatever the outcome, as libsystemd does.
    static func listenFDs(unsetEnvironment: Bool) throws(SDDaemonError) -> [PassedFD] {
        defer { if unsetEnvironment { listenVariables.forEach { unsetenv($0) } } }
        let passed = try parseListenFDs(environment: processEnvironment, pid: getpid())
        for p in passed { try setCloseOnExec(p.fd) }
        return passed
    }

    /// Sets FD_CLOEXEC on `fd`, keeping its other fd flags.
    static func setCloseOnExec(_ fd: Int32) throws(SDDaemonError) {
        let flags = try systemCall("fcntl(\(fd), F_GETFD)") { fcntl(fd, F_GETFD) }
        guard flags & FD_CLOEXEC == 0 else { return }
        _ = try systemCall("fcntl(\(fd), F_SETFD)") { fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// `sd_is_socket_unix(fd, SOCK_STREAM, 1, NULL, 0)`: `fd` is a socket (fstat), of type
    /// SOCK_STREAM (SO_TYPE), listening (SO_ACCEPTCONN), in the AF_UNIX family (getsockname).
    /// Any path is accepted, as presentd always asked: the path is the socket unit's to
    /// choose. Throws which of these `fd` is not, or which call failed.
    static func checkUnixStreamListener(_ fd: Int32) throws(SDDaemonError) {
        var info = stat()
        _ = try systemCall("fstat(\(fd))") { fstat(fd, &info) }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .unsuitableSocket(fd, "not a socket") }
        let type = try socketOption(fd, SO_TYPE, "SO_TYPE")
        guard type == Int32(SOCK_STREAM.rawValue) else {
            throw .unsuitableSocket(fd, type == Int32(SOCK_DGRAM.rawValue) ? "a datagram socket"
                    : type == Int32(SOCK_SEQPACKET.rawValue) ? "a seqpacket socket" : "socket type \(type)")
        }
        guard try socketOption(fd, SO_ACCEPTCONN, "SO_ACCEPTCONN") != 0 else {
            throw .unsuitableSocket(fd, "not listening")
        }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = try systemCall("getsockname(\(fd))") {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        guard length >= socklen_t(MemoryLayout<sa_family_t>.size) else {
            throw .unsuitableSocket(fd, "without an address")
        }
        let family = Int32(address.ss_family)
        guard family == AF_UNIX else {
            throw .unsuitableSocket(
                fd, family == AF_INET || family == AF_INET6 ? "an IP socket" : "address family \(family)")
        }
    }

    /// An int-valued SOL_SOCKET option of `fd`.
    private static func socketOption(_ fd: Int32, _ option: Int32, _ name: String) throws(SDDaemonError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = try systemCall("getsockopt(\(fd), \(name))") { getsockopt(fd, SOL_SOCKET, option, &value, &length) }
        return value
    }

    /// `body`, a C call, through the one wrapper (EINTR retried), its failure as ours.
    private static func systemCall<Result: FixedWidthInteger & SignedInteger>(
        _ name: @autoclosure () -> String, _ body: () -> Result
    ) throws(SDDaemonError) -> Result {
        do { return try valueOrErrno(name(), body) } catch { throw .system(error) }
    }

    // MARK: Notifications, sd_notify(3)

    /// The largest `sun_path` (108 bytes on Linux).
    private static let sunPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// The address `NOTIFY_SOCKET` names, and its length for sendto(2). A leading '@' is
    /// the abstract namespace: it becomes a NUL and the length ends with the name (the
    /// kernel compares abstract names over the whole length, so no trailing NUL); otherwise
    /// the value must be an absolute path, and the length includes its NUL. Anything else,
    /// or a name longer than `sun_path`, is invalid (libsystemd: -EINVAL).
    static func notifyAddress(_ value: String) throws(SDDaemonError) -> (address: sockaddr_un, length: socklen_t) {
        var bytes = Array(value.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        guard abstract || bytes.first == UInt8(ascii: "/"), bytes.count >= 2, !bytes.contains(0) else {
            throw .invalidVariable("NOTIFY_SOCKET", value, expected: "an absolute path or an @abstract name")
        }
        let capacity = sunPathCapacity - (abstract ? 0 : 1)   // a path needs room for its NUL
        guard bytes.count <= capacity else {
            throw .invalidVariable("NOTIFY_SOCKET", value, expected: "at most \(capacity) bytes")
        }
        if abstract { bytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        return (address, socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1)))
    }

    /// `sd_notify(0, state)`: sends `state` ("READY=1", "WATCHDOG=1", lines of KEY=value
    /// joined by newlines) as one datagram to `socket`, by default `$NOTIFY_SOCKET`. Returns
    /// false, sending nothing, when there is no socket (not run by systemd). A fresh
    /// SOCK_DGRAM socket per call, as libsystemd does: nothing is held open, and a manager
    /// that re-executed itself (and bound the path anew) is reached. The send blocks while
    /// the manager's queue is full, as libsystemd's does; systemd reads it continuously.
    @discardableResult
    static func notify(_ state: String,
                       socket value: String? = processEnvironment("NOTIFY_SOCKET")) throws(SDDaemonError) -> Bool {
        guard let value else { return false }
        let target = try notifyAddress(value)
        var address = target.address
        let fd = try systemCall("socket(AF_UNIX, SOCK_DGRAM)") {
            socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        defer { closeDescriptor(fd) }
        var text = state
        _ = try systemCall("sendto(\(value))") {
            text.withUTF8 { bytes in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, target.length)
                    }
                }
            }
        }
        return true
    }

    // MARK: Watchdog, sd_watchdog_enabled(3)

    /// `sd_watchdog_enabled(0, &usec)` over `environment`: the interval (µs) within which
    /// systemd expects WATCHDOG=1, or nil when it expects none: no WATCHDOG_USEC, or a
    /// WATCHDOG_PID naming another process. Throws for a WATCHDOG_USEC that is not a
    /// positive decimal below infinity (UINT64_MAX), or a WATCHDOG_PID that is not a pid.
    static func watchdogMicroseconds(environment: Environment = processEnvironment,
                                     pid: pid_t = getpid()) throws(SDDaemonError) -> UInt64? {
        guard let usecText = environment("WATCHDOG_USEC") else { return nil }
        guard let usec = positiveDecimal(usecText, max: UInt64.max - 1) else {
            throw .invalidVariable("WATCHDOG_USEC", usecText, expected: "a positive number of microseconds")
        }
        if let pidText = environment("WATCHDOG_PID") {
            guard let watchdogPID = positiveDecimal(pidText, max: UInt64(Int32.max)) else {
                throw .invalidVariable("WATCHDOG_PID", pidText, expected: "a process id")
            }
            guard watchdogPID == UInt64(pid) else { return nil }
        }
        return usec
    }

    // MARK: Numbers

    /// `text` as a decimal number in 1…max: digits only (systemd writes nothing else), no
    /// sign, no space, no overflow.
    static func positiveDecimal(_ text: String, max: UInt64) -> UInt64? {
        guard !text.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, over1) = value.multipliedReportingOverflow(by: 10)
            let (sum, over2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !over1, !over2 else { return nil }
            value = sum
        }
        return value >= 1 && value <= max ? value : nil
    }
}

/// Why an sd-daemon call failed, in words that name the variable or the call.
enum SDDaemonError: Error, Equatable, CustomStringConvertible {
    /// A variable holds what systemd would never write (name, value, what it should be).
    case invalidVariable(String, String, expected: String)
    /// LISTEN_FDNAMES does not name each of the LISTEN_FDS fds exactly once.
    case namesDoNotMatchFDs(count: Int, names: [String])
    /// A passed fd is not a listening AF_UNIX stream socket: the fd and what it is instead.
    case unsuitableSocket(Int32, String)
    /// A C call failed.
    case system(SystemCallError)

    var description: String {
        switch self {
        case .invalidVariable(let name, let value, let expected):
            return "\(name)=\"\(value)\" is not \(expected)"
        case .namesDoNotMatchFDs(let count, let names):
            return "LISTEN_FDNAMES has \(names.count) name\(names.count == 1 ? "" : "s") "
                + "(\(names.joined(separator: ":"))) for LISTEN_FDS=\(count)"
        case .unsuitableSocket(let fd, let what):
            return "fd \(fd) is \(what)"
        case .system(let error):
            return error.description
        }
    }
}
