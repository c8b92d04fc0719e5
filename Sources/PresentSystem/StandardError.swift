// Output to standard error shared by presentd's log (PresentServer) and both executables'
// messages: here, at the bottom, so that every layer can write it.

/// Prints `message` (and a newline) on standard error with write(2): the C `stderr` stream
/// is shared mutable state to Swift 6's concurrency checker, and one unbuffered write keeps
/// a log line whole. A standard error that cannot be written to has nobody to tell.
public func printError(_ message: String, newline: Bool = true) {
    try? writeAll(Array((newline ? message + "\n" : message).utf8), to: 2)
}
