// Where the running configuration comes from: the defaults, then the configuration file,
// then the command-line flags. Kept by the daemon so SIGHUP can build it again from a
// fresh read of the file, with the same flags still on top.

#if canImport(Glibc)
import Glibc
#endif
import PresentJSON
import PresentProtocol
import PresentSystem

/// A configuration file path and the flags that override it.
public struct ConfigurationSource: Sendable {
    /// Read when no `--config` is given; a missing file there means the defaults.
    public static let defaultPath = "/etc/presentd/presentd.json"
    /// Larger files are refused (a configuration is a few hundred bytes).
    static let maxFileBytes = 1 << 20

    /// One command-line flag, applied after the file.
    public typealias Override = @Sendable (inout ServerConfiguration) -> Void

    public var path: String
    /// Given with `--config`: a missing file is then an error, not "use the defaults".
    public var isExplicit: Bool
    /// The flags, in command-line order.
    public var overrides: [Override]
    /// `--socket`, which outranks `$PRESENTD_SOCKET` and the file's `socket.path`.
    public var socketOverride: String?
    /// Whether the last `load()` found the file (the default file may be absent).
    public private(set) var fileWasRead = false

    public init(path: String? = nil, overrides: [Override] = [], socketOverride: String? = nil) {
        self.path = path ?? Self.defaultPath
        self.isExplicit = path != nil
        self.overrides = overrides
        self.socketOverride = socketOverride
    }

    /// The effective configuration. Throws `ConfigurationError` listing every problem.
    public func load(environment: (String) -> String? = SocketPath.env) throws(ConfigurationError)
        -> ServerConfiguration
    {
        var configuration = ServerConfiguration()
        var fileSocket: String?
        var recorded = self
        recorded.fileWasRead = false
        if let json = try Self.readJSON(at: path, required: isExplicit) {
            recorded.fileWasRead = true
            var reader = ConfigurationFileReader()
            reader.read(json, into: &configuration)
            guard reader.issues.isEmpty else { throw ConfigurationError(path: path, issues: reader.issues) }
            fileSocket = reader.socketPath
        }
        for override in overrides { override(&configuration) }
        // --socket, else $PRESENTD_SOCKET, else the file, else the runtime directory's default.
        let chosen = socketOverride ?? environment("PRESENTD_SOCKET").flatMap { $0.isEmpty ? nil : $0 } ?? fileSocket
        configuration.socketPath = SocketPath.resolve(explicit: chosen, environment: environment)
        configuration.source = recorded
        return configuration
    }

    /// Checks one file on its own (`presentd --check-config`): nil when it is valid.
    public static func check(path: String) -> ConfigurationError? {
        do {
            guard let json = try readJSON(at: path, required: true) else { return nil }
            var reader = ConfigurationFileReader()
            var scratch = ServerConfiguration()
            reader.read(json, into: &scratch)
            return reader.issues.isEmpty ? nil : ConfigurationError(path: path, issues: reader.issues)
        } catch {
            return error
        }
    }

    // MARK: Reading the file

    /// The parsed file; nil when it does not exist and is not required.
    static func readJSON(at path: String, required: Bool) throws(ConfigurationError) -> JSONValue? {
        let bytes: [UInt8]
        do {
            bytes = try readWholeFile(path, limit: maxFileBytes)
        } catch where error.code == ENOENT && !required {
            return nil
        } catch {
            throw fileError(
                path, "cannot read it: " + (error.code == EFBIG ? "larger than \(maxFileBytes) bytes" : error.reason))
        }
        do {
            return try JSONValue.parse(bytes, maxDepth: 32)
        } catch {
            var reason = error.message
            if let offset = error.offset {
                // The parser says "at byte N"; people want a line and a column.
                let suffix = " at byte \(offset)"
                if reason.hasSuffix(suffix) { reason.removeLast(suffix.count) }
                reason = lineAndColumn(of: offset, in: bytes) + ": " + reason
            }
            throw fileError(path, "not valid JSON: \(reason)")
        }
    }

    private static func fileError(_ path: String, _ reason: String) -> ConfigurationError {
        ConfigurationError(path: path, issues: [ConfigurationIssue(field: "", reason: reason)])
    }

    /// "line 3, column 7" for a byte offset (columns count bytes, from 1).
    static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> String {
        let before = bytes.prefix(offset)
        let line = before.reduce(1) { $1 == 10 ? $0 + 1 : $0 }
        let column = offset - (before.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
        return "line \(line), column \(column)"
    }
}
