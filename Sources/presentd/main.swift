// presentd: read the configuration (file, then flags) and run the daemon, or check or
// print a configuration.

#if canImport(Glibc)
import Glibc
#endif
import PresentCommandLine
import PresentCore
import PresentJSON
import PresentProtocol
import PresentServer
import PresentSystem

// No stored globals here: top-level code is the main actor's in Swift 6, so a function that
// reads a global of this file checks at run time that it runs there, and that check links the
// concurrency runtime and libdispatch into the daemon, whose relocated tables are then private
// memory in every process (docs/BENCHMARKS.md, idle private memory). The help text is built when asked.

/// The settings table's flags (Settings.swift), as `--help` lists them: the text from
/// column 27, wrapped at 88.
func settingFlagsHelp() -> String {
    ServerConfiguration.settings.compactMap { setting -> String? in
        guard let flag = setting.flag else { return nil }
        let indent = String(repeating: " ", count: 26)
        var lines = ["  \(flag) \(setting.metavariable)"]
        if lines[0].count >= 26 {
            lines.append(indent)
        } else {
            lines[0] += String(repeating: " ", count: 26 - lines[0].count)
        }
        let bounds = setting.shortBounds
        for word in (bounds.isEmpty ? setting.help : "\(setting.help); \(bounds)").split(separator: " ") {
            if lines[lines.count - 1].count + word.count >= 88 { lines.append(indent) }
            lines[lines.count - 1] += (lines[lines.count - 1].last == " " ? "" : " ") + word
        }
        return lines.joined(separator: "\n")
    }.joined(separator: "\n")
}

func usage() -> String {
    """
Usage: presentd [options]
       presentd --check-config FILE
       presentd [--config FILE] [options] --print-config
       presentd [--config FILE] [options] --replay PATH --clock manual

The presentation daemon: owns a shared modal stack for each screen and serves clients
over a Unix socket (JSON-RPC 2.0, one object per line; see docs/PROTOCOL.md).

Options (each overrides the configuration file):
  --config FILE           the configuration file (default /etc/presentd/presentd.json;
                          a missing default file means the built-in defaults)
  --socket PATH           listen here (default: $PRESENTD_SOCKET, else the file's
                          socket.path, else $XDG_RUNTIME_DIR/presentd/presentd.sock,
                          else /run/presentd/presentd.sock)
\(settingFlagsHelp())
  --container WxH         the screen size in points (default 390x844)
  --output NAME=WxH[@FPS] a screen besides main, e.g. cluster=1280x480@30 (repeatable;
                          without @FPS it follows --fps)
  --no-root-admin         root is not an administrator
  --check-invariants      check the stack's invariants after every change and log
                          any broken one as an error (tests, soak runs)
  --dump-recording PATH   where SIGUSR1 writes the flight recorder's ring as NDJSON
                          (default: presentd-recording.ndjson where the state file
                          goes by default)
  --replay PATH           replay a flight recording (needs --clock manual; no state
                          file): write to stdout, one {"conn", "message"} line each,
                          what every recorded connection was sent but its replies
  --check-config FILE     check a configuration file, list every error; exit 0 or 1
  --print-config          print the effective configuration (file and flags) as JSON
  --version               print the version and exit
  --print-openrpc         print the OpenRPC document rpc.discover returns and exit
  -h, --help              print this help and exit

Under systemd, presentd adopts the socket of presentd.socket (LISTEN_FDS) and reports
readiness, status and watchdog pings (NOTIFY_SOCKET). Signals: SIGINT/SIGTERM shut down
cleanly (clients get `shutdown`; a socket presentd bound itself is removed); SIGHUP
reloads the configuration file (an invalid file is refused and logged); SIGUSR1 writes
the flight recording (--dump-recording), and so does SIGABRT (systemd's watchdog) before
presentd aborts, when its loop still runs.
"""
}

/// What the command line asks for.
enum Invocation {
    case run(ConfigurationSource)
    case checkConfig(path: String)
    case printConfig(ConfigurationSource)
    case replay(path: String, ConfigurationSource)
    case exit
}

func parseInvocation(_ arguments: [String]) throws -> Invocation {
    var configPath: String?
    var socket: String?
    var overrides: [ConfigurationSource.Override] = []
    var checkPath: String?
    var printConfig = false
    var replayPath: String?
    var scanner = ArgumentScanner(arguments)
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        switch name {
        case "-h", "--help": print(usage()); return .exit
        case "--version": print("presentd \(presentdVersion)"); return .exit
        case "--print-openrpc": print(OpenRPC.document(version: presentdVersion).serializedString); return .exit
        case "--config": configPath = try scanner.value(for: name, inline: inline)
        case "--check-config": checkPath = try scanner.value(for: name, inline: inline)
        case "--print-config": printConfig = true
        case "--socket": socket = try scanner.value(for: name, inline: inline)
        case "--no-root-admin": overrides.append { $0.rootIsAdmin = false }
        case "--check-invariants": overrides.append { $0.checkInvariants = true }
        case "--dump-recording":
            let path = try scanner.value(for: name, inline: inline)
            overrides.append { $0.recordingPath = path }
        case "--replay": replayPath = try scanner.value(for: name, inline: inline)
        case "--container":
            let size = try containerSize(try scanner.value(for: name, inline: inline))
            overrides.append { $0.container = Container(size: size) }
        case "--output":
            let output = try outputDefinition(try scanner.value(for: name, inline: inline))
            overrides.append { configuration in
                configuration.outputs.removeAll { $0.name == output.name }
                configuration.outputs.append(output)
            }
        default:
            guard let setting = ServerConfiguration.setting(flag: name) else {
                throw UsageError("unknown option \"\(word)\" (see presentd --help)")
            }
            let text = try scanner.value(for: name, inline: inline)
            guard let apply = setting.parse(text) else {
                throw UsageError(
                    "\(name) takes \(setting.bounds)\(setting.unit.map { " (\($0))" } ?? ""), not \"\(text)\"")
            }
            overrides.append(apply)
        }
    }
    if let checkPath {
        guard arguments.count == 2 || (arguments.count == 1 && arguments[0].hasPrefix("--check-config=")) else {
            throw UsageError("--check-config FILE takes no other options")
        }
        return .checkConfig(path: checkPath)
    }
    let source = ConfigurationSource(path: configPath, overrides: overrides, socketOverride: socket)
    if let replayPath { return .replay(path: replayPath, source) }
    return printConfig ? .printConfig(source) : .run(source)
}

func containerSize(_ text: String) throws -> Size {
    let parts = text.split(separator: "x").compactMap { Double($0) }
    guard parts.count == 2, parts.allSatisfy({ $0 >= 1 && $0 <= ProtocolLimits().maxDimension }) else {
        throw UsageError("--container takes WIDTHxHEIGHT in points, e.g. 390x844, not \"\(text)\"")
    }
    return Size(width: parts[0], height: parts[1])
}

/// `NAME=WxH` or `NAME=WxH@FPS`.
func outputDefinition(_ text: String) throws -> OutputDefinition {
    let example = "e.g. cluster=1280x480@30"
    guard let equals = text.firstIndex(of: "=") else {
        throw UsageError("--output takes NAME=WIDTHxHEIGHT[@FPS], \(example), not \"\(text)\"")
    }
    let name = String(text[..<equals])
    guard !name.isEmpty, name.count <= ProtocolLimits().maxNameLength, name != "main" else {
        throw UsageError("--output needs a name other than \"main\" (which always exists), \(example)")
    }
    let spec = text[text.index(after: equals)...].split(separator: "@", omittingEmptySubsequences: false)
    let size = try containerSize(String(spec[0]))
    var fps: Int?
    if spec.count == 2 {
        guard let rate = Int(spec[1]), ProtocolLimits.fpsRange.contains(rate) else {
            throw UsageError(
                "--output \(name): the frame rate must be "
                + "\(ProtocolLimits.fpsRange.lowerBound)-\(ProtocolLimits.fpsRange.upperBound), not \"\(spec[1])\""
            )
        }
        fps = rate
    } else if spec.count > 2 {
        throw UsageError("--output takes NAME=WIDTHxHEIGHT[@FPS], \(example), not \"\(text)\"")
    }
    return OutputDefinition(name: name, container: ContainerChange(width: size.width, height: size.height), fps: fps)
}

func fail(_ message: String, status: Int32) -> Never {
    printError("presentd: \(message)")
    exit(status)
}

func run(_ source: ConfigurationSource) throws -> Int32 {
    try configuredDaemon(source).run()
    return 0   // it stopped as asked: a signal, or the idle exit; failures throw
}

/// The daemon of this configuration, ready to run. Kept out of line: start-up's locals (the
/// configuration among them) would otherwise stay in the frame that runs the loop, on the
/// stack under every request for the daemon's whole life.
@inline(never)
func configuredDaemon(_ source: ConfigurationSource) throws -> Daemon {
    var config = try source.load()
    config.inheritedListener = try SocketActivation.inheritedListener()
    if config.source?.fileWasRead == true {
        config.log.info("configuration: \(source.path)")
    } else {
        config.log.info("no configuration file at \(source.path); using the defaults")
    }
    return try Daemon(configuration: config)
}

/// `--replay`: the recording through a daemon of this configuration, without a socket,
/// the state file or signals; the streams to stdout.
func replay(_ path: String, _ source: ConfigurationSource) throws -> Int32 {
    var config = try source.load()
    guard config.clock == .manual else { throw UsageError("--replay needs --clock manual") }
    config.stateFile = .none
    config.handleSignals = false
    config.recorderBytes = 0
    // The recording says when an owner's time to answer ran out; the replay's timer must not.
    config.shouldDismissTimeout = 1e6
    let daemon = try Daemon(configuration: config)
    _ = try daemon.replay(recordingAt: path) { try? writeAll($0, to: 1) }   // a closed stdout has nobody to tell
    return 0
}

do {
    switch try parseInvocation(Array(CommandLine.arguments.dropFirst())) {
    case .exit:
        exit(0)
    case .checkConfig(let path):
        if let error = ConfigurationSource.check(path: path) { fail(error.description, status: 1) }
        print("\(path): ok")
        exit(0)
    case .printConfig(let source):
        print(try source.load().fileJSON.prettyPrinted, terminator: "")
        exit(0)
    case .run(let source):
        exit(try run(source))
    case .replay(let path, let source):
        exit(try replay(path, source))
    }
} catch let error as UsageError {
    fail(error.description, status: 2)
} catch {
    fail("\(error)", status: 1)
}
