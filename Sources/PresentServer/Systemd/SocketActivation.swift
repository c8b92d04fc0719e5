// Socket activation: systemd (or systemd-socket-activate) binds the socket, listens, and
// passes it to presentd as fd 3 with LISTEN_FDS, LISTEN_PID and LISTEN_FDNAMES. The file
// is systemd's: presentd serves on it and never unlinks it.

import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Finds the listening socket systemd passed, if any.
public enum SocketActivation {
    /// The name presentd.socket gives its socket (`FileDescriptorName=presentd`).
    public static let socketName = "presentd"

    /// The passed listening socket, or nil when presentd was not socket-activated.
    ///
    /// The variables are removed from the environment, so nothing presentd might start
    /// inherits them. With several sockets, the one named `presentd` is used and the
    /// others are closed. Throws when what systemd passed cannot be served on.
    public static func inheritedListener() throws(SocketActivationError) -> Int32? {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(1, &names)
        defer { freeNames(names, count: count) }
        guard count > 0 else {
            if count < 0 { throw .environment(String(cString: strerror(-count))) }
            return nil
        }
        let fds = (0..<count).map { SD_LISTEN_FDS_START + $0 }
        let labels = (0..<Int(count)).map { i in names?[i].map { String(cString: $0) } ?? "unknown" }
        let chosen: Int32
        if count == 1 {
            chosen = fds[0]
        } else if let index = labels.firstIndex(of: socketName) {
            chosen = fds[index]
        } else {
            fds.forEach { _ = close($0) }
            throw .noneNamed(labels)
        }
        for fd in fds where fd != chosen { close(fd) }
        guard sd_is_socket_unix(chosen, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            close(chosen)
            throw .notAUnixStreamListener(chosen)
        }
        return chosen
    }

    private static func freeNames(_ names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int32) {
        guard let names else { return }
        var i = 0
        while let name = names[i] {
            free(name)
            i += 1
        }
        free(names)
    }
}

/// What systemd passed cannot be used; the message says which unit setting to look at.
public enum SocketActivationError: Error, CustomStringConvertible {
    case environment(String)
    case noneNamed([String])
    case notAUnixStreamListener(Int32)

    public var description: String {
        switch self {
        case .environment(let reason):
            return "cannot read the sockets systemd passed (LISTEN_FDS): \(reason)"
        case .noneNamed(let names):
            return "systemd passed \(names.count) sockets (\(names.joined(separator: ", "))), none named "
                + "\"\(SocketActivation.socketName)\": set FileDescriptorName=\(SocketActivation.socketName) in presentd.socket"
        case .notAUnixStreamListener(let fd):
            return "fd \(fd) from systemd is not a listening Unix stream socket: presentd.socket needs "
                + "ListenStream=/path/to/presentd.sock"
        }
    }
}
