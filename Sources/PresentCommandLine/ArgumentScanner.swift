// A small command-line scanner shared by presentd and presentctl: `--name value`,
// `--name=value`, boolean `--flag`, and positional words, with usage errors that say
// which option and why.

/// A usage error: the message is printed after the program's name; exit status 2.
public struct UsageError: Error, CustomStringConvertible {
    public let description: String
    public init(_ message: String) { description = message }
}

/// Reads arguments left to right.
public struct ArgumentScanner {
    private var args: [String]
    private var index = 0

    public init(_ arguments: [String]) { args = arguments }

    public var isAtEnd: Bool { index >= args.count }

    /// The next argument without consuming it.
    public var peek: String? { isAtEnd ? nil : args[index] }

    /// The next argument.
    public mutating func next() -> String? {
        guard !isAtEnd else { return nil }
        defer { index += 1 }
        return args[index]
    }

    /// Splits `--name=value` into its parts; other words come back unchanged.
    public static func split(_ word: String) -> (name: String, inline: String?) {
        guard word.hasPrefix("--"), let eq = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<eq]), String(word[word.index(after: eq)...]))
    }

    /// The value of option `name`: the inline part of `--name=value`, else the next word.
    public mutating func value(for name: String, inline: String?) throws -> String {
        if let inline { return inline }
        guard let v = next() else { throw UsageError("\(name) needs a value") }
        return v
    }

    public mutating func double(for name: String, inline: String?, in range: ClosedRange<Double>) throws -> Double {
        let text = try value(for: name, inline: inline)
        guard let d = Double(text), d.isFinite, range.contains(d) else {
            throw UsageError(
                "\(name) takes a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), not "
                + "\"\(text)\""
            )
        }
        return d
    }

    public mutating func int(for name: String, inline: String?, in range: ClosedRange<Int>) throws -> Int {
        let text = try value(for: name, inline: inline)
        guard let i = Int(text), range.contains(i) else {
            throw UsageError(
                "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return i
    }

    public mutating func choice<E: RawRepresentable & CaseIterable>(for name: String, inline: String?, of: E.Type)
        throws -> E
    where E.RawValue == String {
        let text = try value(for: name, inline: inline)
        guard let e = E(rawValue: text) else {
            throw UsageError(
                "\(name) takes one of \(E.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"")
        }
        return e
    }

    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}
