// The window of recent samples behind `stats`' presented-frame percentiles.

@testable import PresentServer
@testable import PresentTestSupport
import Testing

@Suite("Latest samples")
struct LatestSamplesTests {
    @Test("keeps every value until full, then exactly the latest `kept`")
    func keepsTheLatest() {
        var samples = LatestSamples(kept: 4)
        for v in 1...3 { samples.keep(Double(v)) }
        #expect(samples.values.sorted() == [1, 2, 3])
        for v in 4...11 { samples.keep(Double(v)) }
        #expect(samples.values.sorted() == [8, 9, 10, 11])
        samples.keep(12)
        #expect(samples.values.sorted() == [9, 10, 11, 12])
    }

    @Test("a window of one holds the newest value")
    func windowOfOne() {
        var samples = LatestSamples(kept: 1)
        for v in [5.0, 7, 3] { samples.keep(v) }
        #expect(samples.values == [3])
    }
}
