// The settings table is the one place a setting lives; the docs that list settings by hand
// are checked against it, so a new row cannot be left out of them again (issue 25: the
// limits lists had lost maxConnectionsPerUid, maxDeferredReplies and maxOutputs).

import PresentServer
import Testing

@Suite struct SettingsDocsTests {
    static let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/")

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
        let row = try #require(try Self.text("docs/PROTOCOL.md").split(separator: "\n").first { $0.hasPrefix("| `limits` | object |") },
                               "PROTOCOL.md's hello has no limits row")
        for setting in ServerConfiguration.settings where setting.inHello {
            #expect(row.contains("`\(setting.name)`"), "hello's limits row does not list \(setting.name)")
        }
    }

    @Test func presentdsManPageDescribesEverySettingOfTheFile() throws {
        let lines = Set(try Self.text("docs/man/presentd.8").split(separator: "\n").map(String.init))
        for setting in ServerConfiguration.settings {
            #expect(lines.contains(".B \(setting.name)") || lines.contains(".B \(setting.key)"), "presentd(8) has no .B \(setting.key)")
            if let flag = setting.flag {
                let troff = flag.replacing("-", with: "\\-")
                #expect(lines.contains { $0.hasPrefix(".BI \(troff) ") || $0 == ".B \(troff)" }, "presentd(8) has no \(flag)")
            }
        }
    }
}
