// Whole files at once: the configuration, the state file, a flight recording, a peer's
// cgroup. All small, read and written on the loop thread before or between requests.

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of the file at `path`. More than `limit` bytes fails with EFBIG (nothing is cut
/// short silently), having read at most `limit + 1` bytes of it.
public func readWholeFile(_ path: String, limit: Int) throws(SystemCallError) -> [UInt8] {
    let fd = try valueOrErrno("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
    defer { closeDescriptor(fd) }
    var contents: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: min(16 << 10, limit + 1))
    while true {
        let wanted = min(chunk.count, limit + 1 - contents.count)
        let count = try valueOrErrno("read", path: path) {
            chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, wanted) }
        }
        if count == 0 { return contents }
        contents += chunk[..<count]
        if contents.count > limit { throw SystemCallError("read", path: path, code: EFBIG) }
    }
}

/// Replaces the file at `path` with `bytes` so that a reader, or the next start after a
/// crash, finds either the old file whole or the new one whole: the bytes go to
/// `path.tmp`, which is then renamed over `path`. On failure `path` is untouched and the
/// temporary file is removed.
///
/// `durable`: also fsync the file before the rename and its directory after it, so the new
/// file survives a power loss and not only a crash of this process. That costs a disk flush,
/// which a file in a tmpfs (the runtime directory) does not need.
public func writeFileAtomically(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600,
                                durable: Bool = false) throws(SystemCallError) {
    let temporary = path + ".tmp"
    let fd = try valueOrErrno("open", path: temporary) {
        open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    }
    do {
        try writeAll(bytes, to: fd, call: "write", path: temporary)
        if durable { _ = try valueOrErrno("fsync", path: temporary) { fsync(fd) } }
    } catch {
        closeDescriptor(fd)
        unlink(temporary)
        throw error
    }
    closeDescriptor(fd)
    do {
        _ = try valueOrErrno("rename to", path: path) { rename(temporary, path) }
    } catch {
        unlink(temporary)
        throw error
    }
    if durable { syncDirectory(of: path) }
}

/// Flushes the directory entry of a renamed file. Best effort: the file itself is already
/// written, and a directory that cannot be opened for reading has nothing more to offer.
private func syncDirectory(of path: String) {
    let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    guard let fd = try? valueOrErrno("open", path: directory, { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) })
    else { return }
    _ = try? valueOrErrno("fsync", path: directory) { fsync(fd) }
    closeDescriptor(fd)
}
