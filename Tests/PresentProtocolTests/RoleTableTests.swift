// The role table: one row per method and topic, consistent with
// the issue's four roles, and exactly what docs/PROTOCOL.md shows.

#if canImport(Glibc)
import Glibc
#endif
import Testing
import PresentProtocol

@Suite("Role table")
struct RoleTableTests {
    @Test func everyMethodHasOneRowAndEveryTopicOne() {
        // Every method has its access by construction (a column of MethodTable).
        #expect(Set(RoleTable.methods.map(\.method)).count == RoleTable.methods.count, "a method twice")
        for topic in Topic.allCases { #expect(RoleTable.topics.contains { $0.topic == topic }) }
    }

    @Test func whoMayDoWhat() {
        let everyone = RoleTable.methods.filter { $0.access == .everyone }.map(\.method)
        #expect(everyone == ["hello", "ping", "stack", "unsubscribe", "sync", "outputs", "rpc.discover", "explain"])
        for method in ["tap", "swipe", "key", "activate", "focus", "setContainer", "keyboard", "addOutput",
                       "removeOutput", "defineContext", "removeContext"] {
            #expect(RoleTable.access(for: method) == .roles(.shell), "\(method)")
        }
        for method in ["present", "update", "dismiss", "dismissAll"] {
            #expect(RoleTable.access(for: method) == .roles(.app), "\(method)")
        }
        for method in ["advance", "stats", "recordDump"] {
            #expect(RoleTable.access(for: method) == .roles([]), "\(method) is the administrator's")
        }
        // admin may do everything; nobody else may do everything.
        for (_, access) in RoleTable.methods { #expect(access.allows(.admin)) }
        for role in [Role.shell, .renderer, .app] {
            #expect(RoleTable.methods.contains { !$0.access.allows(RoleSet(role)) })
        }
        #expect(RoleTable.access(for: .frames).allows(.renderer) && !RoleTable.access(for: .frames).allows(.app))
        #expect(RoleTable.access(for: .lifecycle).allows(.app))
        #expect(RoleTable.presentingRoles == [.app, .admin])
    }

    @Test func theRefusalNamesARoleThatWouldAllowIt() {
        let error = RoleTable.refusal("\"tap\"", field: "method", access: .roles(.shell), granted: .app)
        #expect(error.code.rawValue == -32005)
        #expect(error.data == ["field": "method", "reason": "needs role shell or admin", "role": "shell"])
        #expect(error.message == "\"tap\" needs role shell or admin; this connection has app")
        #expect(
            RoleTable.refusal("\"stats\"", field: "method", access: .roles([]), granted: []).data?["role"] == "admin")
    }

    @Test func protocolDocumentShowsTheTable() throws {
        // #filePath is …/Tests/PresentProtocolTests/RoleTableTests.swift
        let root = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(
            separator: "/")
        guard let file = fopen(root + "/docs/PROTOCOL.md", "r") else {
            Issue.record("cannot open docs/PROTOCOL.md under \(root)")
            return
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = fread(&buffer, 1, buffer.count, file), n > 0 { bytes += buffer[..<n] }
        let document = String(decoding: bytes, as: UTF8.self)
        #expect(
            document.contains(RoleTable.markdown),
            "docs/PROTOCOL.md's role table differs from RoleTable.markdown:\n\(RoleTable.markdown)")
    }
}
