import Glibc
import PresentSystem

/// A failure in the transport layer: what was attempted, on which path, and the C error code.
///
/// A failed C call arrives as the one errno error, `SystemCallError`; the kinds add what
/// only the transport knows (a live daemon on the path, a file that is not a socket).
/// `code` is always the positive POSIX value, whichever layer failed (libuv's negative
/// codes are negated on the way in), so callers compare it with `EACCES`, `EADDRINUSE` and
/// so on.
struct TransportError: Error, Equatable, CustomStringConvertible {
    /// What went wrong, for callers that react differently (exit codes, log levels).
    enum Kind: Equatable, Sendable {
        /// The path does not fit in `sockaddr_un.sun_path` (`bytes` is its UTF-8 length).
        case pathTooLong(bytes: Int)
        /// Empty, or containing a NUL byte (which would silently shorten it in C).
        case invalidPath
        /// A live daemon answered on the socket path.
        case addressInUse
        /// Something other than a socket sits at the path; it is never removed.
        case notASocket
        /// `EACCES` or `EPERM`.
        case permissionDenied
        /// Any other failing C call.
        case failed
    }

    /// The longest socket path accepted: `sun_path` holds 108 bytes including the NUL, and
    /// libuv's `uv_pipe_bind` would silently truncate anything longer.
    static let maxPathBytes = 107

    let kind: Kind
    /// The C call or step that failed ("bind", "uv_write", "accept4", ...).
    let operation: String
    let path: String?
    /// Positive errno value; 0 when no C call failed (for example a path rejected up front).
    let code: Int32

    init(_ kind: Kind, operation: String, path: String? = nil, code: Int32 = 0) {
        self.kind = kind
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The transport's view of a failed C call.
    init(_ error: SystemCallError) {
        let kind: Kind = (error.code == EACCES || error.code == EPERM) ? .permissionDenied : .failed
        self.init(kind, operation: error.call, path: error.path, code: error.code)
    }

    /// `body`, a C call, through the one wrapper (`valueOrErrno`); its failure as ours.
    static func call<Result: FixedWidthInteger & SignedInteger>(
        _ name: @autoclosure () -> String, path: @autoclosure () -> String? = nil,
        retryOnInterrupt: Bool = true, _ body: () -> Result
    ) throws(TransportError) -> Result {
        do { return try valueOrErrno(name(), path: path(), retryOnInterrupt: retryOnInterrupt, body) } catch {
            throw TransportError(error)
        }
    }

    /// The error for a failed POSIX call; reads `errno` unless given.
    static func posix(_ operation: String, path: String? = nil,
                      code: Int32 = Glibc.errno) -> TransportError {
        TransportError(SystemCallError(operation, path: path, code: code))
    }

    /// The error for a failed libuv call (`status` is libuv's negative code).
    static func uv(_ operation: String, status: Int32, path: String? = nil) -> TransportError {
        posix(operation, path: path, code: -status)
    }

    /// The code as libuv spells it (negative errno on Unix).
    var uvCode: Int32 { -code }

    var description: String {
        let where_ = path ?? ""
        switch kind {
        case .pathTooLong(let bytes):
            return "socket path is \(bytes) bytes, over the \(Self.maxPathBytes)-byte limit "
                + "of sun_path: \(where_)"
        case .invalidPath:
            return "invalid socket path \"\(where_)\": it must be non-empty and contain no NUL byte"
        case .addressInUse:
            return "another presentd is listening on \(where_)"
        case .notASocket:
            return "\(where_) exists and is not a socket; refusing to replace it"
        case .permissionDenied:
            return "permission denied: \(operation) \(where_) (\(Self.message(for: code)))"
        case .failed:
            let subject = path.map { "\(operation) \($0)" } ?? operation
            return "\(subject): \(Self.message(for: code)) (errno \(code))"
        }
    }

    private static func message(for code: Int32) -> String { SystemCallError.reason(for: code) }
}
