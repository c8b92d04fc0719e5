@testable import PresentTestSupport
import Testing
@testable import PresentServer

/// What the framer reported, as text: a line's contents, or "<too long>".
private func describe(_ event: LineFramer.Event) -> String {
    switch event {
    case .line(let bytes): String(decoding: bytes, as: UTF8.self)
    case .tooLong: "<too long>"
    }
}

/// Feeds `chunks` in order (each one "read") and collects every event.
private func frame(_ chunks: [String], maxLineBytes: Int = 1 << 20) -> [String] {
    var framer = LineFramer(maxLineBytes: maxLineBytes)
    var events: [String] = []
    for chunk in chunks {
        Array(chunk.utf8).withUnsafeBytes { bytes in
            framer.feed(bytes) { event in
                events.append(describe(event))
                return true
            }
        }
    }
    return events
}

@Suite struct LineFramerTests {
    @Test func lineSplitAcrossReadsIsJoined() {
        #expect(frame(["hel", "lo\nwor", "l", "d\n"]) == ["hello", "world"])
    }

    @Test func manyLinesInOneRead() {
        #expect(frame(["a\nbb\nccc\n"]) == ["a", "bb", "ccc"])
    }

    @Test func partialLineWaitsForItsNewline() {
        var framer = LineFramer()
        var events: [String] = []
        Array("one\ntw".utf8).withUnsafeBytes { bytes in
            framer.feed(bytes) { events.append(describe($0)); return true }
        }
        #expect(events == ["one"])
        #expect(framer.bufferedByteCount == 2)
        // At end of stream the partial "tw" is simply never delivered.
    }

    @Test func crlfIsStrippedButALoneCarriageReturnIsKept() {
        #expect(frame(["a\r\n", "b\r", "\n", "c\rd\n"]) == ["a", "b", "c\rd"])
    }

    @Test func emptyLinesAreDelivered() {
        #expect(frame(["\n\r\nx\n"]) == ["", "", "x"])
    }

    @Test func overLongLineInOneReadIsReportedAndDropped() {
        #expect(frame(["12345\nok\n"], maxLineBytes: 4) == ["<too long>", "ok"])
    }

    @Test func overLongLineAcrossReadsIsReportedOnceAndNeverBuffered() {
        var framer = LineFramer(maxLineBytes: 4)
        var events: [String] = []
        for chunk in ["123", "456", "789", "abc", "\nok\n"] {
            Array(chunk.utf8).withUnsafeBytes { bytes in
                framer.feed(bytes) { events.append(describe($0)); return true }
            }
            #expect(framer.bufferedByteCount <= 5)   // the limit, plus a possible "\r"
        }
        #expect(events == ["<too long>", "ok"])
    }

    @Test func limitCountsTheLineWithoutItsTerminator() {
        #expect(frame(["abc\n", "abc\r\n", "abcd\n"], maxLineBytes: 3)
                == ["abc", "abc", "<too long>"])
        // "abc\r" is max + 1 bytes, kept in case a "\n" follows.
        #expect(frame(["abc\r", "\n"], maxLineBytes: 3) == ["abc"])
        #expect(frame(["abcd", "\n"], maxLineBytes: 3) == ["<too long>"])
    }

    @Test func stoppingKeepsTheRestInOrderForTheNextFeed() {
        var framer = LineFramer()
        var events: [String] = []
        Array("a\nb\nc\n".utf8).withUnsafeBytes { bytes in
            framer.feed(bytes) { events.append(describe($0)); return false }
        }
        #expect(events == ["a"])
        #expect(framer.bufferedByteCount == 4)
        // An empty feed drains what is buffered (what Connection does after a resume).
        framer.feed(UnsafeRawBufferPointer(start: nil, count: 0)) {
            events.append(describe($0))
            return events.count < 2
        }
        #expect(events == ["a", "b"])
        Array("d\n".utf8).withUnsafeBytes { bytes in
            framer.feed(bytes) { events.append(describe($0)); return true }
        }
        #expect(events == ["a", "b", "c", "d"])
        #expect(framer.bufferedByteCount == 0)
    }

    /// What a paused connection is handed before its first read: kept, delivered nothing,
    /// then served in order, after what was held back already, by the next feed.
    @Test func heldBytesComeOutInOrderOnTheNextFeed() {
        var framer = LineFramer()
        var events: [String] = []
        Array("a\nb\n".utf8).withUnsafeBytes { bytes in
            framer.feed(bytes) { events.append(describe($0)); return false }
        }
        Array("c\nd".utf8).withUnsafeBytes { framer.hold($0) }
        #expect(events == ["a"])
        #expect(framer.bufferedByteCount == 5)
        Array("e\n".utf8).withUnsafeBytes { bytes in
            framer.feed(bytes) { events.append(describe($0)); return true }
        }
        #expect(events == ["a", "b", "c", "de"])
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func wholeLinesAreHandedOutWithoutCopying() {
        var framer = LineFramer()
        let chunk = Array("first\nsecond\n".utf8)
        chunk.withUnsafeBytes { bytes in
            let range = UInt(bitPattern: bytes.baseAddress!)...UInt(bitPattern: bytes.baseAddress! + bytes.count)
            framer.feed(bytes) { event in
                if case .line(let line) = event {
                    #expect(range.contains(UInt(bitPattern: line.baseAddress!)))
                }
                return true
            }
        }
    }
}
