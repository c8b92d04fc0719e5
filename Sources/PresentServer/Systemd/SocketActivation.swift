// Socket activation: systemd (or systemd-socket-activate) binds the socket, listens, and
// passes it to presentd as fd 3 with LISTEN_FDS, LISTEN_PID and LISTEN_FDNAMES. The file
// is systemd's: presentd serves on it and never unlinks it.

#if canImport(Glibc)
import Glibc
#endif
import PresentSystem

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
        let passed: [SDDaemon.PassedFD]
        do {
            passed = try SDDaemon.listenFDs(unsetEnvironment: true)
        } catch {
            throw .environment(error.description)
        }
        guard let first = passed.first else { return nil }
        let chosen: Int32
        if passed.count == 1 {
            chosen = first.fd
        } else if let named = passed.first(where: { $0.name == socketName }) {
            chosen = named.fd
        } else {
            passed.forEach { closeDescriptor($0.fd) }
            throw .noneNamed(passed.map(\.name))
        }
        for p in passed where p.fd != chosen { closeDescriptor(p.fd) }
        do {
            try SDDaemon.checkUnixStreamListener(chosen)
        } catch {
            closeDescriptor(chosen)
            if case .unsuitableSocket(_, let what) = error { throw .notAUnixStreamListener(chosen, "it is \(what)") }
            throw .notAUnixStreamListener(chosen, error.description)
        }
        return chosen
    }
}

/// What systemd passed cannot be used; the message says which unit setting to look at.
public enum SocketActivationError: Error, CustomStringConvertible {
    /// LISTEN_* hold what systemd would not write, or a passed fd cannot be inspected.
    case environment(String)
    /// Several sockets, none named `presentd` (the names systemd gave them).
    case noneNamed([String])
    /// The fd, and what it is instead (or which check failed).
    case notAUnixStreamListener(Int32, String)

    public var description: String {
        switch self {
        case .environment(let reason):
            return "cannot read the sockets systemd passed (LISTEN_FDS): \(reason)"
        case .noneNamed(let names):
            return "systemd passed \(names.count) sockets (\(names.joined(separator: ", "))), none named "
                + "\"\(SocketActivation.socketName)\": set FileDescriptorName=\(SocketActivation.socketName) in "
                + "presentd.socket"
        case .notAUnixStreamListener(let fd, let reason):
            return "fd \(fd) from systemd is not a listening Unix stream socket (\(reason)): presentd.socket needs "
                + "ListenStream=/path/to/presentd.sock"
        }
    }
}
