// The commands of Commands.swift's delegatedCommand(_:): presentctl finds the program that
// answers them (next to itself, else on $PATH) and runs it in its place.

#if canImport(Glibc)
import Glibc
#endif
import PresentCommandLine
import PresentSystem

/// Where `program` is: in presentctl's own directory (they are installed together), else
/// the first on $PATH; and where it looked.
func findProgram(_ program: String) -> (path: String?, looked: [String]) {
    var directories: [String] = []
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 {
        let own = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let slash = own.lastIndex(of: "/") { directories.append(String(own[..<slash])) }
    }
    if let path = getenv("PATH") {
        directories += String(cString: path).split(separator: ":").map(String.init).filter { !$0.isEmpty }
    }
    var seen = Set<String>()
    directories = directories.filter { seen.insert($0).inserted }
    for directory in directories {
        let candidate = directory + "/" + program
        if access(candidate, X_OK) == 0 { return (candidate, directories) }
    }
    return (nil, directories)
}

/// `presentctl notifications [--json] [--last N | --count]`: checks the words (a typo is presentctl's
/// usage error), then becomes `presentd-notify --history …`, whose output and exit status
/// are the command's. Returns only when it could not.
func runDelegated(_ command: DelegatedCommand, _ words: [String]) throws -> Exit {
    var arguments = command.arguments
    var scanner = ArgumentScanner(words)
    while let word = scanner.next() {
        let (name, inline) = ArgumentScanner.split(word)
        switch name {
        case "--json": arguments.append("--json")
        case "--count": arguments.append("--count")
        case "--last": arguments += ["--last", String(try scanner.int(for: name, inline: inline, in: 0...1000))]
        default:
            throw UsageError("\(command.command): unknown option \"\(word)\" (it takes --json, --last N and --count)")
        }
    }
    if arguments.contains("--count") && arguments.contains("--last") {
        throw UsageError("\(command.command): --count counts every live notification: not with --last")
    }
    let (found, looked) = findProgram(command.program)
    guard let path = found else {
        printError("presentctl: \(command.command): \(command.program) is not installed (looked in "
            + "\(looked.joined(separator: ", "))): the notification history is kept by the D-Bus bridge, "
            + "presentd-notify (see docs/NOTIFICATIONS.md)")
        return .cannotConnect
    }
    var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) }
    argv.append(nil)
    fflush(nil)   // what presentctl printed goes out before the program writes
    execv(path, argv)
    printError("presentctl: \(command.command): cannot run \(path): \(String(cString: strerror(errno)))")
    return .daemonError
}
