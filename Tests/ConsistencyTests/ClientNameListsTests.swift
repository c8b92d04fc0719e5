// Every list of names a client spells out — topics, styles, transitions, timing curves,
// levels, keys — against the daemon's own: its `rpc.discover` (whose schemas carry the
// names each param takes) and the enums those come from. A client that falls behind a new
// topic or style fails here, not in a user's hands. presentctl's commands against the
// method table are PresentctlCommandTests'.

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol
@testable import PresentTestSupport
import Testing

@Suite("Client name lists")
struct ClientNameListsTests {
    // #filePath is …/Tests/ConsistencyTests/ClientNameListsTests.swift
    static let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(
        separator: "/")

    static func read(_ path: String) throws -> String {
        guard let file = fopen(root + "/" + path, "r") else { throw TestFailure("cannot open \(path) under \(root)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&buffer, 1, buffer.count, file), n > 0 { bytes += buffer[..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The double-quoted strings of `text`, in order.
    static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element)
        }
    }

    /// The text from the first line holding `start` up to (not including) the first line
    /// after it that holds `end`.
    static func section(of text: String, from start: String, to end: (Substring) -> Bool) throws -> Substring {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.firstIndex(where: { $0.contains(start) }) else { throw TestFailure("no \(start)") }
        let last = lines[(first + 1)...].firstIndex(where: end) ?? lines.endIndex
        return Substring(lines[first..<last].joined(separator: "\n"))
    }

    /// Python: `NAME: tuple[…] = ("a", "b", …)` or `Name = Literal["a", …]`, over one or more lines.
    static func python(_ text: String, _ name: String) throws -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(
            lines.firstIndex { $0.hasPrefix(name + " =") || $0.hasPrefix(name + ":") }, "no \(name)")
        let opening = Substring(lines[first...].joined(separator: "\n"))
        let assignment = try #require(opening.firstIndex(of: "="), "\(name) is not assigned")
        let open = try #require(
            opening[assignment...].firstIndex { $0 == "(" || $0 == "[" }, "\(name) is no tuple or Literal")
        let close = try #require(opening[open...].firstIndex { $0 == ")" || $0 == "]" }, "\(name) is not closed")
        return quoted(opening[open..<close])
    }

    /// A select of the viewer's page (`<select id="ID">`): each option's style, transition or
    /// curve — its text, or the `type` of the JSON object its value holds; `""` for "(the style's)".
    static func viewerOptions(_ html: String, select id: String) throws -> [String] {
        let select = try section(of: html, from: "<select id=\"\(id)\">", to: { $0.contains("</select>") })
        var names: [String] = []
        for option in select.split(separator: "<option", omittingEmptySubsequences: false).dropFirst() {
            let tag = option.prefix { $0 != ">" }
            let text = option.dropFirst(tag.count + 1).prefix { $0 != "<" }
            if let value = tag.firstRange(of: "value='") {
                let json = tag[value.upperBound...].prefix { $0 != "'" }
                let object = try JSONValue.parse(String(json))
                names.append(object["type"]?.stringValue ?? object.objectValue?.keys.first ?? "")
            } else if let value = tag.firstRange(of: "value=\"") {
                names.append(String(tag[value.upperBound...].prefix { $0 != "\"" }))
            } else {
                names.append(String(text))
            }
        }
        return names
    }

    /// A man page option's names: the first word of each `.B`/`.BR` line of its paragraph,
    /// from `.BI \-\-OPTION` to the next `.TP`.
    static func manNames(_ page: String, option: String) throws -> [String] {
        let paragraph = try section(of: page, from: ".BI \\-\\-\(option) ", to: { $0.hasPrefix(".TP") })
        return paragraph.split(separator: "\n").filter { $0.hasPrefix(".B ") || $0.hasPrefix(".BR ") }.map { line in
            String(line.split(separator: " ")[1]).replacing("\\-", with: "-")
        }
    }

    /// `presentctl --help`: the names listed for `--OPTION`, up to the next option.
    static func helpText(_ help: String, option: String) throws -> Substring {
        try section(of: help, from: "--\(option) ", to: { $0.drop { $0 == " " }.hasPrefix("--") })
    }

    static func names<E: RawRepresentable<String> & CaseIterable>(_: E.Type) -> [String] { E.allCases.map(\.rawValue) }
    static let plainStyles = PresentationStyle.named.map(\.name)

    /// The names the daemon's rpc.discover says `method`'s `param` takes.
    static func discovered(_ document: JSONValue, _ method: String, _ param: String) throws -> [String] {
        let methods = try #require(document["methods"]?.arrayValue)
        let spec = try #require(methods.first { $0["name"]?.stringValue == method }, "rpc.discover has no \(method)")
        let params = try #require(spec["params"]?.arrayValue)
        let schema = try #require(
            params.first { $0["name"]?.stringValue == param }?["schema"], "\(method) has no \(param)")
        let enumerated = schema["items"] ?? schema["anyOf"]?.arrayValue?.first ?? schema
        return try #require(enumerated["enum"]?.arrayValue, "\(method).\(param) lists no names: \(schema)").compactMap(
            \.stringValue)
    }

    @Test func theDaemonDescribesItsNamesFromTheEnums() throws {
        let daemon = try DaemonHarness()
        let document = try daemon.connect().call("rpc.discover")
        #expect(try Self.discovered(document, "subscribe", "topics") == Self.names(Topic.self))
        #expect(try Self.discovered(document, "present", "style") == Self.plainStyles)
        #expect(try Self.discovered(document, "update", "timing") == Self.names(TimingName.self))
        #expect(try Self.discovered(document, "present", "level") == Self.names(Level.self))
        #expect(try Self.discovered(document, "key", "key") == Self.names(Key.self))
    }

    @Test func thePythonClientsListsAreTheDaemons() throws {
        let types = try Self.read("Clients/python/src/presentd/types.py")
        let topics = Self.names(Topic.self)
        #expect(Set(try Self.python(types, "Topic")) == Set(topics), "Topic")
        #expect(Set(try Self.python(types, "ALL_TOPICS")) == Set(topics), "ALL_TOPICS")
        #expect(Set(try Self.python(types, "DEFAULT_TOPICS")).isSubset(of: topics), "DEFAULT_TOPICS")
        #expect(try Self.python(types, "StyleName") == Self.plainStyles, "StyleName")
        #expect(try Self.python(types, "STYLE_NAMES") == Self.plainStyles, "STYLE_NAMES")
        #expect(try Self.python(types, "TransitionType") == Self.names(TransitionKind.self), "TransitionType")
        #expect(try Self.python(types, "TRANSITION_TYPES") == Self.names(TransitionKind.self), "TRANSITION_TYPES")
        #expect(try Self.python(types, "TimingName") == Self.names(TimingName.self), "TimingName")
        #expect(try Self.python(types, "TIMING_NAMES") == Self.names(TimingName.self), "TIMING_NAMES")
        #expect(try Self.python(types, "Level") == Self.names(Level.self), "Level")
        #expect(try Self.python(types, "LEVELS") == Self.names(Level.self), "LEVELS")
        #expect(try Self.python(types, "Interaction") == Self.names(Interaction.self), "Interaction")
        #expect(try Self.python(types, "OverlayPosition") == Self.names(OverlayPosition.self), "OverlayPosition")
        #expect(try Self.python(types, "KEYS") == Self.names(Key.self), "KEYS")
    }

    @Test func theCLibrarysNamesAreTheDaemons() throws {
        let source = try Self.read("Clients/c/presentd.c")
        let parse = try Self.section(of: source, from: "int presentd_timing_parse(", to: { $0.hasPrefix("}") })
        let timing = parse.split(separator: "\n").filter { $0.contains("strcmp(name, ") }.flatMap { Self.quoted($0) }
        #expect(timing == Self.names(TimingName.self), "presentd_timing_parse's names")
        let header = try Self.read("Clients/c/presentd.h")
        for line in header.split(separator: "\n") where line.contains("const char *level;") {
            #expect(Self.quoted(line) == Self.names(Level.self), "presentd.h: \(line)")
        }
    }

    @Test func theViewersListsAreTheDaemons() throws {
        let html = try Self.read("Clients/web/index.html")
        let styles = try Self.viewerOptions(html, select: "style")
        #expect(Set(styles) == Set(Self.names(StyleName.self)), "the viewer's styles: \(styles)")
        #expect(try Self.viewerOptions(html, select: "transition") == [""] + Self.names(TransitionKind.self))
        let timing = try Self.viewerOptions(html, select: "timing")
        #expect(timing.filter { $0 != "spring" && $0 != "bezier" } == [""] + Self.names(TimingName.self), "\(timing)")
        let script = try Self.read("Clients/web/viewer.js")
        for line in script.split(separator: "\n") where line.contains("topics = [") {
            let topics = Self.quoted(line)
            #expect(!topics.isEmpty && Set(topics).isSubset(of: Self.names(Topic.self)), "viewer.js: \(line)")
        }
    }

    @Test func presentctlsHelpAndManPageListTheDaemonsNames() throws {
        let (status, help) = try DaemonHarness.run(DaemonHarness.presentctlPath, ["--help"])
        #expect(status == 0)
        let page = try Self.read("docs/man/presentctl.1")
        for (option, names) in [
            ("transition", Self.names(TransitionKind.self)), ("timing", Self.names(TimingName.self))
        ] {
            // "--transition TYPE   coverVertical, …": the names after the option and its argument.
            let listed = try Self.helpText(help, option: option).split(whereSeparator: { ", \n".contains($0) })
                .dropFirst(2)
            #expect(listed.map(String.init) == names, "presentctl --help, --\(option)")
            #expect(try Self.manNames(page, option: option) == names, "presentctl(1), --\(option)")
        }
        let position = try Self.helpText(help, option: "position")
        for name in Self.names(OverlayPosition.self) {
            #expect(position.contains(name), "presentctl --help, --position lacks \(name)")
        }
        #expect(
            try Self.manNames(page, option: "position") == Self.names(OverlayPosition.self), "presentctl(1), --position"
        )
        // Styles: each plain name, slideIn as slideIn-EDGE, and nothing else that is camelCase.
        let style = try Self.helpText(help, option: "style")
        let manStyles = try Self.manNames(page, option: "style").filter { !$0.hasPrefix("--") }
        for name in Self.plainStyles {
            #expect(style.contains(name), "presentctl --help, --style lacks \(name)")
            #expect(
                manStyles.contains { $0 == name || $0.hasPrefix(name + "-") }, "presentctl(1), --style lacks \(name)")
        }
        for name in manStyles {
            #expect(Self.plainStyles.contains(String(name.prefix { $0 != "-" })), "presentctl(1), --style: \(name)")
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
