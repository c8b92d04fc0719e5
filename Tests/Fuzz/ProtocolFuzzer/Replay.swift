// Without libFuzzer (a plain `swift build`), the same target is a replayer: it plays
// files or whole directories (the seed corpus, crash files) through the session, so a
// finding can be reproduced under a debugger and the corpus checked in any build.

#if !FUZZING
#if canImport(Glibc)
import Glibc
#endif

@main
enum Replay {
    static func main() {
        var paths = CommandLine.arguments.dropFirst()
        verbose = paths.first == "-v"
        if verbose { paths = paths.dropFirst() }
        guard !paths.isEmpty else {
            print("usage: ProtocolFuzzer [-v] FILE|DIRECTORY...  (plays each input through the protocol layer;")
            print("       -v prints what each line did)")
            exit(2)
        }
        var played = 0
        for path in paths { played += play(path) }
        print("ProtocolFuzzer: \(played) inputs played, every property held")
    }

    nonisolated(unsafe) static var verbose = false

    /// Plays a file, or every file in a directory; returns how many.
    static func play(_ path: String) -> Int {
        if let directory = opendir(path) {
            defer { closedir(directory) }
            var count = 0
            while let entry = readdir(directory) {
                    let name = withUnsafeBytes(of: entry.pointee.d_name) {
                        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                    }
                if !name.hasPrefix(".") { count += play(path + "/" + name) }
            }
            return count
        }
        guard let bytes = contents(of: path) else {
            print("ProtocolFuzzer: cannot read \(path)")
            exit(1)
        }
        let session = bytes.withUnsafeBytes { ProtocolFuzzSession.run($0) }
        if verbose { print("\(path): \(session.outcomes.joined(separator: "; "))") }
        return 1
    }

    static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return bytes
    }
}
#endif
