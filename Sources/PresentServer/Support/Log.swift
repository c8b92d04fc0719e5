// Operator-facing logging on stderr: one line per event worth attention, never one
// per frame. Under systemd (JOURNAL_STREAM set) lines carry <N> priority prefixes so
// journald files them at the right level.

#if canImport(Glibc)
import Glibc
#endif
import PresentSystem

/// Log levels, most severe first (syslog priorities).
public enum LogLevel: Int, Sendable, CaseIterable, Comparable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    public var name: String {
        switch self {
        case .error: return "error"
        case .warning: return "warning"
        case .notice: return "notice"
        case .info: return "info"
        case .debug: return "debug"
        }
    }

    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = level
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Writes log lines to stderr. Confined to the loop thread like everything else.
public struct Log: Sendable {
    public var level: LogLevel
    /// Prefix lines with `<N>` (journald) instead of a level word.
    public var journal: Bool

    public init(level: LogLevel = .notice, journal: Bool = getenv("JOURNAL_STREAM") != nil) {
        self.level = level
        self.journal = journal
    }

    public func error(_ message: @autoclosure () -> String) { write(.error, message) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message) }
    public func notice(_ message: @autoclosure () -> String) { write(.notice, message) }
    public func info(_ message: @autoclosure () -> String) { write(.info, message) }
    public func debug(_ message: @autoclosure () -> String) { write(.debug, message) }

    private func write(_ l: LogLevel, _ message: () -> String) {
        guard l <= level else { return }
        let line = (journal ? "<\(l.rawValue)>" : "presentd: \(l.name): ") + message() + "\n"
        printError(line, newline: false)
    }
}

