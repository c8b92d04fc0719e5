// Starts the real presentd on a temporary socket for one test and stops it after.
// Readiness is "a connection is accepted", as a client would see it.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON

/// A presentd child process on its own socket in its own temporary directory.
final class DaemonHarness {
    private let temporary: TemporaryDirectory
    let directory: String
    let socketPath: String
    private(set) var pid: pid_t
    let stderrPath: String
    private let arguments: [String]
    private let environment: [String: String]

    /// The directory the test binary and the built executables live in.
    static var binDirectory: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = String(decoding: buffer[..<max(0, n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // …/debug/presentdPackageTests.xctest → …/debug
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)])
    }

    /// A configuration that gives an owner a minute (the most there is) to answer
    /// shouldDismiss, instead of a second: for tests whose owner must answer, or hang up,
    /// before the daemon stops waiting, however late a loaded machine runs the test.
    static let patientOwners = #"{"shouldDismissTimeout": 60}"#

    static var presentdPath: String { binDirectory + "/presentd" }
    static var presentctlPath: String { binDirectory + "/presentctl" }

    /// `configuration`, when given, is the text of a configuration file for presentd
    /// (`--config`), kept in the directory.
    init(_ arguments: [String] = [], configuration: String? = nil, environment: [String: String] = [:]) throws {
        temporary = try TemporaryDirectory()
        directory = temporary.path
        socketPath = directory + "/presentd.sock"
        stderrPath = directory + "/stderr.log"
        var arguments = arguments
        if let configuration {
            try writeFile(directory + "/presentd.json", configuration)
            arguments = ["--config", directory + "/presentd.json"] + arguments
        }
        self.arguments = arguments
        self.environment = environment
        pid = try Self.spawn(Self.presentdPath, ["--socket", socketPath] + arguments,
                             stderr: stderrPath, environment: environment)
        try waitUntilListening()
    }

    /// Starts the daemon again on the same socket and directory (after `stop`, or after a
    /// crash), with the same arguments; returns once it accepts connections.
    /// `probing: false`: returns once started, without the `ping` that waits until it
    /// serves (for a test of what the daemon does when nobody talks to it).
    func restart(probing: Bool = true) throws {
        precondition(exitStatus != nil, "restart() needs the previous daemon stopped")
        exitStatus = nil
        pid = try Self.spawn(Self.presentdPath, ["--socket", socketPath] + arguments,
                             stderr: stderrPath, environment: environment)
        if probing { try waitUntilListening() }
    }

    /// Stops the daemon; the directory goes after, with all the daemon and the test wrote.
    deinit {
        stop()
    }

    /// A new client connection.
    func connect() throws -> PresentClient { try PresentClient(path: socketPath) }

    /// The state file as presentd last wrote it ("" before the first write).
    func stateText() -> String { (try? String(contentsOfFile: directory + "/presentd-state.json")) ?? "" }

    /// SIGTERM, then waits; returns the exit status (or -1 if it had to be killed). Once
    /// the process is reaped its pid is never signalled again: the kernel may have given
    /// it to another test's daemon by then.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if let exitStatus { return exitStatus }
        kill(pid, signal)
        let deadline = monotonicNow() + 30
        while monotonicNow() < deadline {
            if let status = reap(options: WNOHANG) { return status }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        return reap(options: 0) ?? -1
    }

    /// The exit status of the current process, once it has been reaped.
    private var exitStatus: Int32?

    /// Reaps the process if it has exited (or waits for it without WNOHANG).
    private func reap(options: Int32) -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, options) == pid else { return nil }
        exitStatus = Self.exitStatus(status)
        return exitStatus
    }

    static func exitStatus(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : -(status & 0x7f)
    }

    /// What the daemon wrote to stderr so far.
    var stderrText: String { (try? String(contentsOfFile: stderrPath)) ?? "" }

    /// Until a connection is accepted and answered, as a client would see it (the socket
    /// file exists before listen(), and a process exists before it serves); fails early,
    /// with its stderr, if presentd exits instead.
    private func waitUntilListening() throws {
        try waitUntil("presentd to answer on \(socketPath)", context: { "\(stderrText)" }) {
            if let status = reap(options: WNOHANG) {
                throw HarnessError.setup("presentd exited with \(status) before it served: \(stderrText)")
            }
            guard let probe = try? PresentClient(path: socketPath) else { return false }
            return (try? probe.call("ping", timeout: generousTimeout)) != nil
        }
    }

    /// Runs a program with stdout captured; returns (status, stdout).
    static func run(_ path: String, _ arguments: [String],
                    environment: [String: String] = [:]) throws -> (Int32, String) {
        var template = Array("/tmp/presentd-run-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw HarnessError.setup("mkdtemp failed") }
        let out = String(cString: dir) + "/out"
        defer { unlink(out); rmdir(dir) }
        let pid = try spawn(path, arguments, stdout: out, stderr: out, environment: environment)
        var status: Int32 = 0
        waitpid(pid, &status, 0)   // the program's own run time is its business: no deadline
        let text = (try? String(contentsOfFile: out)) ?? ""
        return (exitStatus(status), text)
    }

    static func spawn(_ path: String, _ arguments: [String], stdout: String? = nil, stderr: String,
                      environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        // Never inherit the test runner's stdout: a daemon left behind by a crashed test
        // would hold the runner's pipe open and hang `swift test`.
        posix_spawn_file_actions_addopen(&actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        var env = [String: String]()
        var e = environ
        while let entry = e.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            e += 1
        }
        env.removeValue(forKey: "PRESENTD_SOCKET")
        for (k, v) in environment { env[k] = v }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        // The test runner ignores SIGPIPE and children inherit that; restore the default
        // so a daemon that forgot to ignore it would die here as it would in production.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // Swift Testing's worker threads block signals; the child must not inherit that.
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw HarnessError.setup("cannot start \(path): \(String(cString: strerror(rc)))") }
        return pid
    }
}

enum HarnessError: Error { case setup(String) }

extension String {
    init(contentsOfFile path: String) throws {
        guard let f = fopen(path, "r") else { throw HarnessError.setup("cannot open \(path)") }
        defer { fclose(f) }
        var out = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n <= 0 { break }
            out += chunk[..<n]
        }
        self = String(decoding: out, as: UTF8.self)
    }
}

/// Writes `text` to `path`, replacing what was there.
func writeFile(_ path: String, _ text: String) throws {
    guard let f = fopen(path, "w") else { throw HarnessError.setup("cannot write \(path)") }
    defer { fclose(f) }
    _ = text.withCString { fputs($0, f) }
}
