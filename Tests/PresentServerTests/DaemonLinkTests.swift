// What the daemon links decides much of its idle private memory (docs/BENCHMARKS.md):
// in a position-independent executable every pointer in a linked library's tables is written
// at start, so each page of them is private to every process. _StringProcessing (and with it
// the regex parser) is linked only when something refers to it, and the daemon does not need
// it. This build links the Swift libraries dynamically, so what the daemon refers to is in its
// undefined dynamic symbols. (The concurrency runtime is kept out too, but what pulls it in,
// a run-time check for the main actor, is made only by the optimiser: the release build's
// check in the Makefile, UNWANTED_IN_DAEMON, looks for both.)

@testable import PresentTestSupport
import Testing

@Suite struct DaemonLinkTests {
    @Test func theDaemonRefersToNothingOfStringProcessing() throws {
        let (status, text) = try DaemonHarness.run(
            "/usr/bin/nm", ["-D", "--undefined-only", DaemonHarness.presentdPath])
        try #require(status == 0, "nm -D \(DaemonHarness.presentdPath) failed: \(text)")
        let symbols = text.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        // Sure to be there: the check reads the right list.
        try #require(
            symbols.contains { $0.hasPrefix("uv_run") }, "no uv_run among the daemon's undefined symbols: \(text)")
        let stringProcessing = symbols.filter {
            $0.hasPrefix("$s17_StringProcessing") || $0.hasPrefix("$s12_RegexParser")
            || $0.contains("17_StringProcessingE") }
        #expect(stringProcessing.isEmpty, """
            presentd refers to _StringProcessing: \(stringProcessing). Substring searches (String.contains(String), \
            ranges(of:), a split at a multi-character separator) are its; compare fields instead.
            """)
    }
}
