import CLibUV
import Glibc
import PresentSystem

/// The credentials of the process at the other end of a Unix socket, as of its `connect()`.
/// Authorise by `uid`; the `pid` may have been reused since.
struct PeerCredentials: Equatable, Sendable, CustomStringConvertible {
    let pid: Int32
    let uid: UInt32
    let gid: UInt32

    /// Reads `SO_PEERCRED`. `struct ucred` is only declared under `_GNU_SOURCE`, which the
    /// shims must not define, so its three 32-bit fields are read into a tuple of that layout.
    static func of(socket fd: Int32) throws -> PeerCredentials {
        var raw: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: raw))
        _ = try TransportError.call("getsockopt(SO_PEERCRED)") {
            getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &raw, &length)
        }
        return PeerCredentials(pid: raw.pid, uid: raw.uid, gid: raw.gid)
    }

    var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

/// Thin typed wrappers over the socket calls libuv does not make for us; every call goes
/// through `TransportError.call`, so a failure is a `TransportError` carrying errno.
enum UnixSocket {
    /// What `connect()` says about an existing socket file.
    enum Probe {
        case absent
        /// Nobody listens: left behind by a daemon that died.
        case stale
        case live
    }

    static let backlog: Int32 = 128

    /// Rejects paths `sun_path` cannot hold whole.
    static func validate(path: String) throws {
        let bytes = path.utf8.count
        guard bytes <= TransportError.maxPathBytes else {
            throw TransportError(.pathTooLong(bytes: bytes), operation: "bind", path: path)
        }
        guard bytes > 0, !path.utf8.contains(0) else {
            throw TransportError(.invalidPath, operation: "bind", path: path)
        }
    }

    /// Calls `body` with `path` as a `sockaddr_un`.
    static func withAddress<R>(_ path: String,
                               _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) throws -> R {
        try validate(path: path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { target in
            target.copyBytes(from: path.utf8)   // the NUL is already there: zeroed, and fits
        }
        return try withUnsafePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// A new nonblocking, close-on-exec stream socket.
    static func makeStream() throws -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        return try TransportError.call("socket") { socket(AF_UNIX, type, 0) }
    }

    /// Connects to `path` to learn whether a daemon is listening there.
    static func probe(_ path: String) throws -> Probe {
        let fd = try makeStream()
        defer { closeDescriptor(fd) }
        do {
            // Not retried: a second connect on this socket would report the first one's state.
            _ = try withAddress(path) { address, length in
                try valueOrErrno("connect", path: path, retryOnInterrupt: false) { connect(fd, address, length) }
            }
            return .live
        } catch let error as SystemCallError {
            switch error.code {
            case ECONNREFUSED: return .stale
            case ENOENT: return .absent
            case EAGAIN: return .live   // its accept backlog is full, so it is alive
            default: throw TransportError(error)
            }
        }
    }

    /// The path a listening socket is bound to, if it has one (for an adopted socket).
    static func boundPath(of fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let status = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(fd, $0, &length)
            }
        }
        guard status == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
        let path = withUnsafeBytes(of: &address.sun_path) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }

    /// Creates the socket's parent directory if it is missing, private to the owner (0700),
    /// or 0750 with `group` owning it so the group can reach a 0660 socket.
    static func ensureParentDirectory(of path: String, group: gid_t?) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")),
              slash != path.utf8.startIndex else { return }   // "name" or "/name"
        let parent = String(path[..<slash])
        var info = stat()
        do {
            _ = try TransportError.call("stat", path: parent) { stat(parent, &info) }
            return
        } catch {
            guard error.code == ENOENT else { throw error }
        }
        let mode: mode_t = group == nil ? 0o700 : 0o750
        do { _ = try TransportError.call("mkdir", path: parent) { mkdir(parent, mode) } } catch {
            guard error.code == EEXIST else { throw error }
        }
        // mkdir applies the umask; chmod does not.
        _ = try TransportError.call("chmod", path: parent) { chmod(parent, mode) }
        if let group { _ = try TransportError.call("chown", path: parent) { chown(parent, uid_t.max, group) } }
    }

    /// Removes a stale socket file at `path`; refuses a live one or a non-socket.
    static func clearStale(_ path: String) throws {
        var info = stat()
        do { _ = try TransportError.call("lstat", path: path) { lstat(path, &info) } } catch {
            if error.code == ENOENT { return }
            throw error
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw TransportError(.notASocket, operation: "bind", path: path)
        }
        switch try probe(path) {
        case .absent:
            return
        case .live:
            throw TransportError(.addressInUse, operation: "bind", path: path)
        case .stale:
            do { _ = try TransportError.call("unlink", path: path) { unlink(path) } } catch {
                guard error.code == ENOENT else { throw error }
            }
        }
    }

    /// Binds a listening socket at `path` with exactly `mode` (and `group`).
    ///
    /// Not `umask` around bind: the umask is process-wide, and tests (or any other thread)
    /// creating files at the same moment would get it too. A socket accepts no connection
    /// before `listen()`, so setting the mode between `bind()` and `listen()` opens no
    /// window. Returns the fd and the file's identity, so `close` unlinks only its own file.
    static func listen(path: String, mode: mode_t,
                       group: gid_t?) throws -> (fd: Int32, device: UInt64, inode: UInt64) {
        try validate(path: path)
        try ensureParentDirectory(of: path, group: group)
        try clearStale(path)
        let fd = try makeStream()
        do {
            try bind(fd, path)
            _ = try TransportError.call("chmod", path: path) { chmod(path, mode) }
            if let group { _ = try TransportError.call("chown", path: path) { chown(path, uid_t.max, group) } }
            var info = stat()
            _ = try TransportError.call("lstat", path: path) { lstat(path, &info) }
            _ = try TransportError.call("listen", path: path) { Glibc.listen(fd, backlog) }
            return (fd, UInt64(info.st_dev), UInt64(info.st_ino))
        } catch {
            closeDescriptor(fd)
            throw error
        }
    }

    private static func bind(_ fd: Int32, _ path: String) throws {
        do {
            _ = try withAddress(path) { address, length in
                try TransportError.call("bind", path: path) { Glibc.bind(fd, address, length) }
            }
        } catch let error as TransportError where error.code == EADDRINUSE {
            // Another daemon bound it between our probe and our bind.
            throw TransportError(.addressInUse, operation: "bind", path: path, code: error.code)
        }
    }

    /// Unlinks `path` only if it is still the socket file identified by `device`/`inode`.
    static func unlinkIfSame(_ path: String, device: UInt64, inode: UInt64) {
        var info = stat()
        guard lstat(path, &info) == 0,
              UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return }
        unlink(path)
    }
}
