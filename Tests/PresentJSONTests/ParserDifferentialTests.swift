#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PresentJSON

/// The one-pass parser against json-c, the reference it replaced (`parseWithJSONC`): for
/// every input, the same value (integer or double, sign of zero included) or the same error
/// kind, message and offset. The inputs: every case of ParseTests, the fuzz corpus line by
/// line, the fuzz dictionary's tokens spliced into requests, and seeded random texts —
/// valid ones, then truncated, byte-flipped and spliced ones, at several depth limits.
@Suite("The parser matches json-c")
struct ParserDifferentialTests {
    typealias Generator = JSONWriterTests.Generator

    /// How json-c's path ends for one input: nil for a value, else the error's kind.
    typealias Outcome = JSONParseError.Kind?

    /// Checks every input, stopping after a few mismatches to keep the report readable;
    /// returns how often each outcome came up, so a test can show what it reached.
    @discardableResult
    static func expectSame(_ inputs: [([UInt8], Int)],
                           sourceLocation: SourceLocation = #_sourceLocation) -> [Outcome: Int] {
        var outcomes: [Outcome: Int] = [:], failures = 0
        for (input, maxDepth) in inputs where failures < 10 {
            let ours = input.withUnsafeBytes { bytes in
                Result { () throws(JSONParseError) in try JSONValue.parse(bytes, maxDepth: maxDepth) }
            }
            let reference = input.withUnsafeBytes { bytes in
                Result { () throws(JSONParseError) in try JSONValue.parseWithJSONC(bytes, maxDepth: maxDepth) }
            }
            switch (ours, reference) {
            case (.success(let a), .success(let b)) where a == b && a.serialized() == b.serialized():
                outcomes[nil, default: 0] += 1
            case (.failure(let a), .failure(let b)) where a == b:
                outcomes[a.kind, default: 0] += 1
            default:
                let shown = input.map {
                    (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x\(String($0, radix: 16))"
                }
                Issue.record("\(shown.joined()) (maxDepth \(maxDepth)): ours \(ours), json-c \(reference)",
                             sourceLocation: sourceLocation)
                failures += 1
            }
        }
        return outcomes
    }

    // MARK: Fixed inputs

    @Test func parseTestsCases() {
        var inputs = ParseAcceptTests.cases.map { (Array($0.0.utf8), 64) }
        inputs += (ParseRejectTests.cases + ParseRejectTests.utf8Cases).map { ($0.input, 64) }
        let nesting: [(String, Int)] = [
            (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), 64),
            (String(repeating: "[", count: 64) + String(repeating: "]", count: 64), 64),
            (String(repeating: #"{"a":"#, count: 64) + "1" + String(repeating: "}", count: 64), 64),
            ("[[1]]", 1), ("[]", 0), ("[[[]]]", 2), (#"{"a":{"b":[{}]}}"#, 3), (#"["[[[", [["]"]]]"#, 2),
            ("1", 0), ("[[1]]", 2), (String(repeating: "[", count: 100_000), 64),
            (String(repeating: "9", count: 400), 64), ("1" + String(repeating: "0", count: 309) + ".0", 64),
            ("1e99999999999999999999", 64),
            // The deepest nesting allowed, one level more, and a long array.
            (String(repeating: "[", count: 1024) + String(repeating: "]", count: 1024), JSONValue.maxParseDepth),
            (String(repeating: "[", count: 1025) + "1" + String(repeating: "]", count: 1025), JSONValue.maxParseDepth),
            ("[" + Array(repeating: "0", count: 10_000).joined(separator: ",") + "]", 64),
        ]
        inputs += nesting.map { (Array($0.0.utf8), $0.1) }
        Self.expectSame(inputs)
    }

    /// Number, word and escape forms at the edges of both grammars.
    @Test func edgeForms() {
        let forms = ["-", "--1", "-0", "-00", "00", "01", "0.", "1.", ".5", "-.5", "1.e5", "1e", "1e+", "1e-5",
                     "1E5", "1.5e+5", "1.-5", "1.+5", "1.5.3", "1e5e3", "1e5.3", "0x10", "-e5", "+1", "1-2",
                     "-Infinity", "-Inf", "-Infinityx", "-infinity", "-5Infinity", "-I", "-i", "Infinit",
                     "infinity", "NaN", "-NaN", "nan", "Nax", "nul", "nulx", "nullx", "tru", "trux", "true1",
                     "fals", "falsy", "T", "F", "N", "I", "9223372036854775807", "9223372036854775808",
                     "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "1e308", "1e309",
            "-1e309", "1e-400", "4.9e-324", "2.2250738585072014e-308", "0.1", "-0.0", "123456789012345678901234567890",
                     #""\u0000""#, #""\uD800""#, #""\uD800\u0041""#, #""\uD800\uD800\uDC00""#, #""\uDC00\uD800""#,
                     #""\uD800\n""#, #""\uD800\""#, #""\uD800\u""#, #""\uD800\uZZ""#, #""\u12""#, #""\u12G4""#,
                     #""\'""#, #""\a""#, "\"\\", "\"", "'a'", "\u{7F}", "\"\u{7F}\""]
        var inputs: [([UInt8], Int)] = []
        for form in forms {
            for text in [form, "[\(form)]", "[\(form) ]", "{\"k\":\(form)}", "\(form) ", "[1,\(form)]", "{\(form):1}"] {
                inputs.append((Array(text.utf8), 64))
            }
        }
        Self.expectSame(inputs)
    }

    // MARK: The fuzzer's material

    /// The repository's root (#filePath is …/Tests/PresentJSONTests/ParserDifferentialTests.swift).
    static let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3)
        .joined(separator: "/")

    static func contents(of path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&buffer, 1, buffer.count, file), n > 0 { bytes += buffer[..<n] }
        return bytes
    }

    /// The seed corpus, split into lines as the fuzzer splits them.
    static func corpusLines() -> [[UInt8]] {
        guard let directory = opendir(root + "/Tests/Fuzz/corpus") else { return [] }
        defer { closedir(directory) }
        var lines: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), let bytes = contents(of: root + "/Tests/Fuzz/corpus/" + name) else { continue }
            for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
                lines.append(Array(line.last == 0x0D ? line.dropLast() : line))
            }
        }
        return lines
    }

    /// The dictionary's tokens, unescaped (`\"`, `\\` and `\xNN`, as libFuzzer reads them).
    static func dictionaryTokens() -> [[UInt8]] {
        guard let bytes = contents(of: root + "/Tests/Fuzz/protocol.dict") else { return [] }
        return bytes.split(separator: 0x0A).compactMap { line -> [UInt8]? in
            guard line.first == 0x22, line.count >= 2, line.last == 0x22 else { return nil }
            let quoted = Array(line.dropFirst().dropLast())
            var token: [UInt8] = [], i = 0
            while i < quoted.count {
                if quoted[i] == 0x5C, i + 1 < quoted.count {
                    if quoted[i + 1] == UInt8(ascii: "x"), i + 3 < quoted.count,
                       let byte = UInt8(String(decoding: quoted[(i + 2)...(i + 3)], as: UTF8.self), radix: 16) {
                        token.append(byte)
                        i += 4
                        continue
                    }
                    token.append(quoted[i + 1])
                    i += 2
                } else {
                    token.append(quoted[i])
                    i += 1
                }
            }
            return token
        }
    }

    @Test func fuzzCorpus() {
        let lines = Self.corpusLines()
        #expect(lines.count > 50, "the corpus was not found under \(Self.root)")
        Self.expectSame(lines.map { ($0, 64) })
    }

    @Test func dictionaryTokensSplicedIntoRequests() {
        let tokens = Self.dictionaryTokens()
        #expect(tokens.count > 20, "the dictionary was not found under \(Self.root)")
        let base = Array(#"{"jsonrpc":"2.0","id":1,"method":"present","params":{"style":"alert","n":[1,2.5]}}"#.utf8)
        var g = Generator(state: 0xD1C7)
        var inputs: [([UInt8], Int)] = tokens.map { ($0, 64) }
        for _ in 0..<6000 {
            var text = base
            for _ in 0..<Int.random(in: 1...3, using: &g) {
                let token = tokens.randomElement(using: &g)!
                let at = Int.random(in: 0...text.count, using: &g)
                let removed = Int.random(in: 0...min(3, text.count - at), using: &g)
                text.replaceSubrange(at..<(at + removed), with: token)
            }
            inputs.append((text, 64))
        }
        Self.expectSame(inputs)
    }

    // MARK: Random texts

    /// Bytes that matter to one parser or the other.
    static let interesting: [UInt8] =
        Array(#"{}[],:"\'-+.eE0159tfnNIiu/ "#.utf8) + [
            0x09, 0x0A, 0x0D, 0x0B, 0x00, 0x01, 0x1F, 0x7F,
            0x80, 0xBF, 0xC0, 0xC3, 0xA9, 0xE2, 0xED, 0xA0,
            0xEF, 0xBB, 0xF0, 0xF4, 0x90, 0xF8, 0xFF
        ]

    /// A random valid text: a random value, written compactly or with whitespace.
    static func validText(_ g: inout Generator) -> [UInt8] {
        let text = JSONWriterTests.randomValue(&g, depth: 0).serialized()
        guard Bool.random(using: &g) else { return text }
        var spaced: [UInt8] = []
        for byte in text {
            spaced.append(byte)
            if Int.random(in: 0..<4, using: &g) == 0, "{}[],:".utf8.contains(byte) { spaced.append(0x20) }
        }
        return spaced
    }

    /// Pieces of text at the edges of the grammars, for `mutated` to insert.
    static let snippets = [#"\uD83D"#, #"\uDE00"#, #"\u0000"#, #"\u00e9"#, #"\"#, "1e400", "-0", "0.", "01", "-",
        "NaN", "Infinity", "-Infinity", "'", "\"\":", "[[[[", "]]]]", "{\"a\":{\"b\":"
    ].map { Array($0.utf8) }

    /// `text` damaged once: cut short, a byte replaced, inserted or removed, a snippet
    /// inserted, or a part repeated.
    static func mutated(_ text: [UInt8], _ g: inout Generator) -> [UInt8] {
        var text = text
        let at = Int.random(in: 0...text.count, using: &g)
        switch Int.random(in: 0..<6, using: &g) {
        case 0: text.removeSubrange(at...)
        case 1 where at < text.count: text[at] = interesting.randomElement(using: &g)!
        case 2: text.insert(interesting.randomElement(using: &g)!, at: at)
        case 3 where at < text.count: text.remove(at: at)
        case 4: text.insert(contentsOf: snippets.randomElement(using: &g)!, at: at)
        default: text.insert(contentsOf: text[at...].prefix(Int.random(in: 1...8, using: &g)), at: at)
        }
        return text
    }

    @Test func randomValidTexts() {
        var g = Generator(state: 0x5EED_0001)
        Self.expectSame((0..<3000).map { _ in (Self.validText(&g), [0, 1, 2, 3, 64].randomElement(using: &g)!) })
    }

    @Test func randomDamagedTexts() {
        var g = Generator(state: 0x5EED_0002)
        var inputs: [([UInt8], Int)] = []
        for _ in 0..<20_000 {
            var text = Self.validText(&g)
            for _ in 0..<Int.random(in: 1...3, using: &g) { text = Self.mutated(text, &g) }
            inputs.append((text, [1, 2, 3, 64].randomElement(using: &g)!))
        }
        let outcomes = Self.expectSame(inputs)
        // Every way to fail that text can reach came up, and plenty of texts survived.
        let kinds: [JSONParseError.Kind] = [.empty, .syntax, .unexpectedEnd, .invalidUTF8, .controlCharacter,
                                            .nonFiniteNumber, .invalidNumber, .numberOutOfRange, .singleQuotedString,
                                            .unsupportedKey, .trailingData, .tooDeep]
        for kind in kinds { #expect(outcomes[kind, default: 0] > 0, "no input failed with \(kind)") }
        #expect(outcomes[nil, default: 0] > 1000)
    }
}
