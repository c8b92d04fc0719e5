// presentd: parse the command line into a ServerConfiguration and run the daemon.

#if canImport(Glibc)
import Glibc
#endif
import PresentCommandLine
import PresentCore
import PresentProtocol
import PresentServer

let usage = """
Usage: presentd [options]

The presentation daemon: owns a shared modal stack for one screen and serves clients
over a Unix socket (JSON-RPC 2.0, one object per line; see docs/PROTOCOL.md).

Options:
  --socket PATH           listen here (default: $PRESENTD_SOCKET, else
                          $XDG_RUNTIME_DIR/presentd/presentd.sock, else
                          /run/presentd/presentd.sock)
  --group NAME            let this group connect (socket mode 0660; default 0600)
  --fps N                 frames per second while anything moves, 1-240 (default 60)
  --clock MODE            monotonic (default) or manual (time moves only by `advance`)
  --container WxH         the screen size in points (default 390x844)
  --dismiss-policy P      who may dismiss another client's presentation: owner (only
                          it), user (same uid or an administrator; default), anyone
  --admin-group NAME      members of this group are administrators (with root)
  --no-root-admin         root is not an administrator
  --max-connections N     simultaneous connections (default 1024)
  --max-connections-per-uid N
                          simultaneous connections from one uid (default 256)
  --log-level LEVEL       error, warning, notice (default), info, debug
  --state-file PATH       where the stack is kept across restarts (default:
                          $RUNTIME_DIRECTORY/presentd-state.json, else beside the
                          socket); "none" keeps nothing
  --resume-grace S        how long restored presentations wait for their owners to
                          reconnect and resume them (default 10)
  --check-invariants      check the stack's invariants after every change and log
                          any broken one as an error (tests, soak runs)
  --version               print the version and exit
  -h, --help              print this help and exit

Signals: SIGINT/SIGTERM shut down cleanly (clients get `shutdown`, the socket file is
removed).
"""

func parseConfiguration(_ arguments: [String]) throws -> ServerConfiguration? {
    var config = ServerConfiguration()
    var explicitSocket: String?
    var scanner = ArgumentScanner(arguments)
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        switch name {
        case "-h", "--help": print(usage); return nil
        case "--version": print("presentd \(presentdVersion)"); return nil
        case "--socket": explicitSocket = try scanner.value(for: name, inline: inline)
        case "--group": config.socketGroup = try scanner.value(for: name, inline: inline)
        case "--fps": config.fps = try scanner.int(for: name, inline: inline, in: ServerConfiguration.fpsRange)
        case "--clock": config.clock = try scanner.choice(for: name, inline: inline, of: ClockMode.self)
        case "--dismiss-policy": config.dismissPolicy = try scanner.choice(for: name, inline: inline, of: DismissPolicy.self)
        case "--max-connections": config.maxConnections = try scanner.int(for: name, inline: inline, in: 1...65536)
        case "--max-connections-per-uid":
            config.maxConnectionsPerUID = try scanner.int(for: name, inline: inline, in: 1...65536)
        case "--admin-group": config.adminGroup = try scanner.value(for: name, inline: inline)
        case "--no-root-admin": config.rootIsAdmin = false
        case "--check-invariants": config.checkInvariants = true
        case "--state-file":
            let path = try scanner.value(for: name, inline: inline)
            config.stateFile = path == "none" ? .none : .path(path)
        case "--resume-grace": config.resumeGrace = try scanner.double(for: name, inline: inline, in: 0...86400)
        case "--log-level":
            let text = try scanner.value(for: name, inline: inline)
            guard let level = LogLevel(name: text) else {
                throw UsageError("--log-level takes error, warning, notice, info or debug, not \"\(text)\"")
            }
            config.log.level = level
        case "--container":
            let text = try scanner.value(for: name, inline: inline)
            let parts = text.split(separator: "x").compactMap { Double($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 1 && $0 <= config.limits.maxDimension }) else {
                throw UsageError("--container takes WIDTHxHEIGHT in points, e.g. 390x844, not \"\(text)\"")
            }
            config.container = Container(size: Size(width: parts[0], height: parts[1]))
        default:
            throw UsageError("unknown option \"\(word)\" (see presentd --help)")
        }
    }
    config.socketPath = SocketPath.resolve(explicit: explicitSocket)
    return config
}

func fail(_ message: String, status: Int32) -> Never {
    printError("presentd: \(message)")
    exit(status)
}

do {
    guard let config = try parseConfiguration(Array(CommandLine.arguments.dropFirst())) else { exit(0) }
    let daemon = try Daemon(configuration: config)
    try daemon.run()
    exit(daemon.exitCode)
} catch let error as UsageError {
    fail(error.description, status: 2)
} catch {
    fail("\(error)", status: 1)
}
