// A test's own directory under /tmp, removed with whatever the test and its daemon left in
// it. A test removes it with `defer { directory.remove() }`: Swift may release a local after
// its last use, and a directory that went with it would take the daemon's socket along.

#if canImport(Glibc)
import Glibc
#endif

/// A private directory under /tmp (`/tmp/<prefix>-XXXXXX`), removed with its contents.
final class TemporaryDirectory {
    let path: String

    init(prefix: String = "presentd-test") throws {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError.setup("mkdtemp failed in /tmp") }
        path = String(cString: made)
    }

    /// Removes the directory and everything in it (again: nothing happens).
    func remove() { Self.removeTree(path) }

    deinit { remove() }

    private static func removeTree(_ path: String) {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name == "." || name == ".." { continue }
                let child = path + "/" + name
                if entry.pointee.d_type == UInt8(DT_DIR) { removeTree(child) } else { unlink(child) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}
