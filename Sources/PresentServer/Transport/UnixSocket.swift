import CLibUV
import Glibc

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
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &raw, &length) == 0 else {
            throw TransportError.posix("getsockopt(SO_PEERCRED)")
        }
        return PeerCredentials(pid: raw.pid, uid: raw.uid, gid: raw.gid)
    }

    var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

/// Thin typed wrappers over the socket calls libuv does not make for us; every failure
/// becomes a `TransportError` carrying errno.
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
                               _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) throws -> R {
        try validate(path: path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { target in
            target.copyBytes(from: path.utf8)   // the NUL is already there: zeroed, and fits
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// A new nonblocking, close-on-exec stream socket.
    static func makeStream() throws -> Int32 {
        let type = Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { throw TransportError.posix("socket") }
        return fd
    }

    /// Connects to `path` to learn whether a daemon is listening there.
    static func probe(_ path: String) throws -> Probe {
        let fd = try makeStream()
        defer { Glibc.close(fd) }
        let (status, error) = try withAddress(path) { address, length -> (Int32, Int32) in
            let status = connect(fd, address, length)
            return (status, status == 0 ? 0 : errno)
        }
        if status == 0 { return .live }
        switch error {
        case ECONNREFUSED: return .stale
        case ENOENT: return .absent
        case EAGAIN: return .live   // its accept backlog is full, so it is alive
        default: throw TransportError.posix("connect", path: path, code: error)
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
        if stat(parent, &info) == 0 { return }
        guard errno == ENOENT else { throw TransportError.posix("stat", path: parent) }
        let mode: mode_t = group == nil ? 0o700 : 0o750
        if mkdir(parent, mode) != 0 && errno != EEXIST {
            throw TransportError.posix("mkdir", path: parent)
        }
        // mkdir applies the umask; chmod does not.
        guard chmod(parent, mode) == 0 else { throw TransportError.posix("chmod", path: parent) }
        if let group, chown(parent, uid_t.max, group) != 0 {
            throw TransportError.posix("chown", path: parent)
        }
    }

    /// Removes a stale socket file at `path`; refuses a live one or a non-socket.
    static func clearStale(_ path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw TransportError.posix("lstat", path: path)
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
            if unlink(path) != 0 && errno != ENOENT {
                throw TransportError.posix("unlink", path: path)
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
            guard chmod(path, mode) == 0 else { throw TransportError.posix("chmod", path: path) }
            if let group, chown(path, uid_t.max, group) != 0 {
                throw TransportError.posix("chown", path: path)
            }
            var info = stat()
            guard lstat(path, &info) == 0 else { throw TransportError.posix("lstat", path: path) }
            guard Glibc.listen(fd, backlog) == 0 else {
                throw TransportError.posix("listen", path: path)
            }
            return (fd, UInt64(info.st_dev), UInt64(info.st_ino))
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    private static func bind(_ fd: Int32, _ path: String) throws {
        let (status, error) = try withAddress(path) { address, length -> (Int32, Int32) in
            let status = Glibc.bind(fd, address, length)
            return (status, status == 0 ? 0 : errno)
        }
        guard status != 0 else { return }
        if error == EADDRINUSE {
            // Another daemon bound it between our probe and our bind.
            throw TransportError(.addressInUse, operation: "bind", path: path, code: error)
        }
        throw TransportError.posix("bind", path: path, code: error)
    }

    /// Unlinks `path` only if it is still the socket file identified by `device`/`inode`.
    static func unlinkIfSame(_ path: String, device: UInt64, inode: UInt64) {
        var info = stat()
        guard lstat(path, &info) == 0,
              UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return }
        unlink(path)
    }
}
