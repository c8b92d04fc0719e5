// Output to standard error shared by presentd's log and both executables' messages.

#if canImport(Glibc)
import Glibc
#endif

/// Prints `message` (and a newline) on standard error with write(2): the C `stderr` stream
/// is shared mutable state to Swift 6's concurrency checker, and one unbuffered write keeps
/// a log line whole.
public func printError(_ message: String, newline: Bool = true) {
    writeAll(Array((newline ? message + "\n" : message).utf8), to: 2)
}

/// Writes all of `bytes` to descriptor `fd` (stopping at an error).
public func writeAll(_ bytes: [UInt8], to fd: Int32) {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }
        offset += n
    }
}
