// Where the daemon listens and clients connect: --socket, else $PRESENTD_SOCKET,
// else $XDG_RUNTIME_DIR/presentd/presentd.sock, else /run/presentd/presentd.sock.

#if canImport(Glibc)
import Glibc
#endif

public enum SocketPath {
    public static let systemDefault = "/run/presentd/presentd.sock"

    /// The socket path from an explicit choice and the environment, in the documented order.
    public static func resolve(explicit: String?, environment: (String) -> String? = SocketPath.env) -> String {
        resolveWithSource(explicit: explicit, environment: environment).path
    }

    /// The socket path and where it came from, for messages: "--socket", "$PRESENTD_SOCKET",
    /// "$XDG_RUNTIME_DIR" or "the default, as XDG_RUNTIME_DIR is unset".
    public static func resolveWithSource(explicit: String?, environment: (String) -> String? = SocketPath.env)
        -> (path: String, source: String) {
        if let explicit, !explicit.isEmpty { return (explicit, "--socket") }
        if let fromEnv = environment("PRESENTD_SOCKET"), !fromEnv.isEmpty { return (fromEnv, "$PRESENTD_SOCKET") }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            return (runtime + "/presentd/presentd.sock", "$XDG_RUNTIME_DIR/presentd/presentd.sock")
        }
        return (systemDefault, "the default, as XDG_RUNTIME_DIR is unset")
    }

    public static func env(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
