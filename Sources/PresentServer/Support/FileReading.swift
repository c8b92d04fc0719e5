// Reading a whole file at once: the configuration, the state file, a flight recording,
// /proc/self/smaps. All small, all read on the loop thread before or between requests.

#if canImport(Glibc)
import Glibc
#endif

/// A failed system call's errno.
struct SystemError: Error, Equatable, CustomStringConvertible {
    let code: Int32
    var description: String { String(cString: strerror(code)) }
}

/// The bytes of the file at `path`, or the errno that stopped reading it: EFBIG when it
/// holds more than `limit` bytes (nothing is cut short silently).
func readWholeFile(_ path: String, limit: Int) -> Result<[UInt8], SystemError> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return .failure(SystemError(code: errno)) }
    defer { close(fd) }
    var contents: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 << 10)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return .failure(SystemError(code: errno)) }
        if n == 0 { return .success(contents) }
        contents += chunk[..<n]
        if contents.count > limit { return .failure(SystemError(code: EFBIG)) }
    }
}
