// The one error for a failed C call: which call, on which path, and errno.

#if canImport(Glibc)
import Glibc
#endif

/// A C call that failed, with the positive errno it left.
///
/// Modelled on swift-system's `Errno`, with the call's name and path kept beside the code
/// because a user reading the message needs to know what was attempted on which file.
public struct SystemCallError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The call or step that failed, as the message shows it ("open", "fcntl(3, F_GETFD)").
    public let call: String
    /// The file the call was about, when there is one.
    public let path: String?
    /// Positive errno value.
    public let code: Int32

    public init(_ call: String, path: String? = nil, code: Int32) {
        self.call = call
        self.path = path
        self.code = code
    }

    /// The error for the call that just failed: reads `errno`, so make it the first thing
    /// done after the failing call.
    public static func current(_ call: String, path: String? = nil) -> SystemCallError {
        SystemCallError(call, path: path, code: errno)
    }

    /// The C library's text for the code ("No such file or directory").
    public var reason: String { Self.reason(for: code) }

    /// The call and its path, as messages name them ("open /run/presentd/state.json").
    public var subject: String { path.map { "\(call) \($0)" } ?? call }

    public var description: String { "\(subject): \(reason)" }

    /// The C library's text for `code`; strerror is the only place it comes from.
    public static func reason(for code: Int32) -> String {
        guard code != 0, let text = strerror(code) else { return "no error code" }
        return String(cString: text)
    }
}
