// Where the daemon listens and clients connect: --socket, else $PRESENTD_SOCKET,
// else $XDG_RUNTIME_DIR/presentd/presentd.sock, else /run/presentd/presentd.sock.

#if canImport(Glibc)
import Glibc
#endif

public enum SocketPath {
    public static let systemDefault = "/run/presentd/presentd.sock"

    /// The socket path from an explicit choice and the environment, in the documented order.
    public static func resolve(explicit: String?, environment: (String) -> String? = SocketPath.env) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnv = environment("PRESENTD_SOCKET"), !fromEnv.isEmpty { return fromEnv }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty { return runtime + "/presentd/presentd.sock" }
        return systemDefault
    }

    public static func env(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
