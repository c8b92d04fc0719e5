// The one way C calls are made: a failing call becomes a `SystemCallError` that names it,
// and a call a signal interrupted (EINTR) is made again. In the style of swift-system's
// `valueOrErrno(retryOnInterrupt:)` and SwiftNIO's `syscall(blocking:)`.

#if canImport(Glibc)
import Glibc
#endif

/// Makes `body`, a C call that returns -1 and sets errno on failure, and returns its result.
///
/// `retryOnInterrupt`: a signal delivered while the call blocked (EINTR) makes it again
/// rather than failing; a caller that wants a signal to end its wait passes false and sees
/// EINTR. `call` and `path` are only evaluated when the call fails.
@inlinable
public func valueOrErrno<Result: FixedWidthInteger & SignedInteger>(
    _ call: @autoclosure () -> String, path: @autoclosure () -> String? = nil,
    retryOnInterrupt: Bool = true, _ body: () -> Result
) throws(SystemCallError) -> Result {
    let (result, code) = callRetrying(onInterrupt: retryOnInterrupt, body)
    if code == 0 { return result }
    throw SystemCallError(call(), path: path(), code: code)
}

/// `valueOrErrno` for a descriptor in non-blocking mode: nil when the call would block
/// (EAGAIN), which is not a failure but "try again when it is ready". Checked before any
/// error is made: a loop that drains a socket ends every wake-up with EAGAIN.
@inlinable
public func valueOrWouldBlock<Result: FixedWidthInteger & SignedInteger>(
    _ call: @autoclosure () -> String, path: @autoclosure () -> String? = nil,
    _ body: () -> Result
) throws(SystemCallError) -> Result? {
    let (result, code) = callRetrying(onInterrupt: true, body)
    if code == 0 { return result }
    if code == EAGAIN || code == EWOULDBLOCK { return nil }
    throw SystemCallError(call(), path: path(), code: code)
}

/// Makes `body` until it returns something other than -1, or fails other than with EINTR
/// (or with EINTR too, unless `onInterrupt`): its result, and errno when it failed (0 when
/// it did not).
@inlinable
func callRetrying<Result: FixedWidthInteger & SignedInteger>(onInterrupt retry: Bool,
                                                             _ body: () -> Result) -> (Result, Int32) {
    while true {
        let result = body()
        if result != -1 { return (result, 0) }
        let code = errno
        if retry && code == EINTR { continue }
        return (result, code)
    }
}

/// Writes all of `bytes` to `fd`, however many calls that takes.
///
/// `sendFlags`: nil writes with write(2); otherwise send(2) with those flags, for a socket
/// that must not raise SIGPIPE (MSG_NOSIGNAL) in a process that has not ignored it.
public func writeAll(_ bytes: [UInt8], to fd: Int32, call: @autoclosure () -> String = "write",
                     path: @autoclosure () -> String? = nil, sendFlags: Int32? = nil) throws(SystemCallError) {
    var offset = 0
    while offset < bytes.count {
        let written = try valueOrErrno(call(), path: path()) {
            bytes[offset...].withUnsafeBytes { rest in
                if let sendFlags { return send(fd, rest.baseAddress, rest.count, sendFlags) }
                return write(fd, rest.baseAddress, rest.count)
            }
        }
        // A write that takes nothing of a non-empty buffer would loop for ever.
        guard written > 0 else { throw SystemCallError(call(), path: path(), code: EIO) }
        offset += written
    }
}

/// Closes `fd`, for a descriptor this process owns and is done with. Not retried on
/// EINTR: on Linux the descriptor is released whatever close returns, and a second close
/// could close a descriptor another thread has just been given.
public func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
