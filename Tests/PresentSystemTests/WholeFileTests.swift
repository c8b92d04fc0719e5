// The one file reader and writer: reading is bounded and says which file and why it could
// not; writing replaces a file whole or not at all.

#if canImport(Glibc)
import Glibc
#endif
import PresentSystem
import Testing

@Suite final class WholeFileTests {
    private let directory: String

    init() throws {
        var template = Array("/tmp/presentd-wholefile-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        directory = try #require(made.map { String(cString: $0) })
    }

    deinit { Self.remove(directory) }

    private static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            names(in: path).forEach { remove(path + "/" + $0) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    private func write(_ bytes: [UInt8], at path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private func entries() -> [String] { Self.names(in: directory) }

    private static func names(in path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    @Test func readsAFileOfExactlyTheLimit() throws {
        let path = directory + "/exact"
        let bytes = (0..<40_000).map { UInt8(truncatingIfNeeded: $0) }
        write(bytes, at: path)
        #expect(try readWholeFile(path, limit: bytes.count) == bytes)
        #expect(try readWholeFile(path, limit: bytes.count + 1) == bytes)
    }

    @Test func oneByteOverTheLimitIsEFBIGNotATruncatedFile() {
        let path = directory + "/over"
        write([UInt8](repeating: 1, count: 40_001), at: path)
        #expect(throws: SystemCallError("read", path: path, code: EFBIG)) { try readWholeFile(path, limit: 40_000) }
        #expect(throws: SystemCallError("read", path: path, code: EFBIG)) { try readWholeFile(path, limit: 0) }
    }

    @Test func anEmptyFileIsNoBytes() throws {
        let path = directory + "/empty"
        write([], at: path)
        #expect(try readWholeFile(path, limit: 0) == [])
    }

    @Test func aMissingFileNamesTheCallAndThePath() {
        let path = directory + "/missing"
        #expect(throws: SystemCallError("open", path: path, code: ENOENT)) { try readWholeFile(path, limit: 10) }
        #expect(throws: SystemCallError("read", path: directory, code: EISDIR)) {
            try readWholeFile(directory, limit: 10)
        }
    }

    @Test func writingReplacesTheFileWithMode0600AndLeavesNoTemporaryFile() throws {
        let path = directory + "/state.json"
        write(Array("old".utf8), at: path)
        try writeFileAtomically(Array("new contents".utf8), to: path)
        #expect(try readWholeFile(path, limit: 100) == Array("new contents".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(entries() == ["state.json"])
        try writeFileAtomically(Array("durable".utf8), to: path, durable: true)
        #expect(try readWholeFile(path, limit: 100) == Array("durable".utf8))
        #expect(entries() == ["state.json"])
    }

    /// The rename fails (a non-empty directory sits at the path): the error names it, and the
    /// temporary file is gone.
    @Test func aFailedRenameLeavesNoTemporaryFile() throws {
        let path = directory + "/occupied"
        #expect(mkdir(path, 0o755) == 0)
        write([1], at: path + "/inside")
        #expect(throws: SystemCallError("rename to", path: path, code: EISDIR)) {
            try writeFileAtomically(Array("x".utf8), to: path)
        }
        #expect(entries() == ["occupied"])
    }

    /// The temporary file cannot be made: the old file is untouched.
    @Test func aFailedWriteLeavesTheOldFileWhole() throws {
        let path = directory + "/kept"
        write(Array("old and whole".utf8), at: path)
        #expect(mkdir(path + ".tmp", 0o755) == 0)
        #expect(throws: SystemCallError("open", path: path + ".tmp", code: EISDIR)) {
            try writeFileAtomically(Array("new".utf8), to: path)
        }
        #expect(try readWholeFile(path, limit: 100) == Array("old and whole".utf8))
    }

    /// A reader that reads while the file is replaced again and again sees one version or
    /// the other, whole, never a mixture or a short file.
    @Test func aConcurrentReaderNeverSeesAPartialFile() throws {
        let path = directory + "/raced"
        let a = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let b = [UInt8](repeating: UInt8(ascii: "b"), count: (1 << 20) + 512)
        try writeFileAtomically(a, to: path)
        let seen = Seen()
        let reader = Thread {
            while !seen.stop {
                guard let bytes = try? readWholeFile(path, limit: 4 << 20) else { seen.torn += 1; continue }
                if bytes == a { seen.a += 1 } else if bytes == b { seen.b += 1 } else { seen.torn += 1 }
            }
        }
        reader.start()
        for round in 0..<60 { try writeFileAtomically(round % 2 == 0 ? b : a, to: path) }
        seen.stop = true
        reader.join()
        #expect(seen.torn == 0, "a reader saw \(seen.torn) partial or missing files")
        #expect(seen.a + seen.b > 0)
    }
}

final class Seen: @unchecked Sendable {
    var a = 0, b = 0, torn = 0
    var stop = false
}
