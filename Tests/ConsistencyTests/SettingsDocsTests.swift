// The settings table is the one place a setting lives; the docs that list settings by hand
// are checked against it, so a new row cannot be left out of them again (the
// docs' limits lists once lost maxConnectionsPerUid, maxDeferredReplies and maxOutputs).

import PresentJSON
import PresentServer
@testable import PresentTestSupport
import Testing

@Suite struct SettingsDocsTests {
    static let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(
        separator: "/")

    static func text(_ path: String) throws -> String {
        try #require(try? String(contentsOfFile: root + "/" + path), "\(path) is missing")
    }

    /// PROTOCOL.md's section 13, "Limits".
    static func limitsSection() throws -> Substring {
        let protocolText = try text("docs/PROTOCOL.md")
        let start = try #require(protocolText.firstRange(of: "## 13. Limits"), "PROTOCOL.md has no section 13. Limits")
        let rest = protocolText[start.upperBound...]
        return rest[..<(rest.firstRange(of: "\n## ")?.lowerBound ?? rest.endIndex)]
    }

    @Test func everyLimitAndEverySettingHelloReportsHasItsRowInTheLimitsSection() throws {
        let section = try Self.limitsSection()
        for setting in ServerConfiguration.settings where setting.section == "limits" || setting.inHello {
            #expect(section.contains("`\(setting.key)`"), "PROTOCOL.md § 13 does not name `\(setting.key)`")
        }
    }

    @Test func helloDocumentsEveryLimitItReports() throws {
        let row = try #require(
            try Self.text("docs/PROTOCOL.md").split(separator: "\n").first { $0.hasPrefix("| `limits` | object |") },
                               "PROTOCOL.md's hello has no limits row")
        for setting in ServerConfiguration.settings where setting.inHello {
            #expect(row.contains("`\(setting.name)`"), "hello's limits row does not list \(setting.name)")
        }
    }

    @Test func presentdsManPageDescribesEverySettingOfTheFile() throws {
        let lines = Set(try Self.text("docs/man/presentd.8").split(separator: "\n").map(String.init))
        for setting in ServerConfiguration.settings {
            #expect(
                lines.contains(".B \(setting.name)") || lines.contains(".B \(setting.key)"),
                "presentd(8) has no .B \(setting.key)")
            if let flag = setting.flag {
                let troff = flag.replacing("-", with: "\\-")
                #expect(
                    lines.contains { $0.hasPrefix(".BI \(troff) ") || $0 == ".B \(troff)" },
                    "presentd(8) has no \(flag)")
            }
        }
    }

    /// The content limits are rows too: lowered in the file, `hello` reports them and the
    /// decoder holds to them; raised past what renderers are built for, the file is refused.
    @Test func aLoweredContentLimitIsReportedAndKept() throws {
        let daemon = try DaemonHarness(configuration: #"{"limits": {"maxActions": 1, "maxTitleLength": 8}}"#)
        let client = try daemon.connect()
        let limits = try client.call("hello")["limits"]
        #expect(
            limits?["maxActions"] == 1 && limits?["maxTitleLength"] == 8 && limits?["maxFields"] == 4,
            "\(String(describing: limits))")
        let two: JSONValue = ["title": "Two", "actions": [["id": "a", "title": "A"], ["id": "b", "title": "B"]]]
        let error = client.expectError("present", ["style": "alert", "content": two])
        #expect(error?.code == -32602 && error?.data?["field"]?.stringValue?.hasPrefix("content.actions") == true,
                "two buttons past maxActions 1: \(String(describing: error))")
        let long = client.expectError("present", ["style": "alert", "content": ["title": "Nine char"]])
        #expect(long?.data?["field"] == "content.title", "a title past maxTitleLength 8: \(String(describing: long))")
        try client.call(
            "present", ["style": "alert", "content": ["title": "Eight ch", "actions": [["id": "a", "title": "A"]]]])

        let file = daemon.directory + "/raised.json"
        try writeFile(file, #"{"limits": {"maxActions": 9}}"#)
        let (status, output) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--config", file, "--print-config"])
        #expect(status != 0 && output.contains("maxActions"), "maxActions 9 (past the 8 renderers hold): \(output)")
    }
}
