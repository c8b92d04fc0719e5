@testable import PresentTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
import PresentClient

/// The client's line buffer, fed through a real pipe as the daemon's socket feeds it.
@Suite("Client line buffer")
struct LineBufferTests {
    /// A pipe whose read end never blocks: a read with nothing to read fails the test
    /// (EAGAIN) instead of hanging it.
    final class Pipe {
        let read: Int32, write: Int32
        private var writeOpen = true
        init() throws {
            var fds: [Int32] = [0, 0]
            try #require(pipe(&fds) == 0, "pipe(2) failed: errno \(errno)")
            (read, write) = (fds[0], fds[1])
            try #require(fcntl(read, F_SETFL, O_NONBLOCK) == 0, "fcntl(O_NONBLOCK) failed: errno \(errno)")
        }
        deinit {
            close(read)
            closeWrite()
        }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            #expect(Glibc.write(write, bytes, bytes.count) == bytes.count)
        }

        func closeWrite() {
            if writeOpen { close(write) }
            writeOpen = false
        }
    }

    @Test func linesSplitAcrossReadsComeOutWhole() throws {
        let pipe = try Pipe()
        var buffer = LineBuffer()
        #expect(buffer.takeLine() == nil)
        pipe.send("{\"a\"")
        #expect(try buffer.read(from: pipe.read) == 4)
        #expect(buffer.takeLine() == nil)
        pipe.send(":1}\n{\"b\":2}\n{")
        _ = try buffer.read(from: pipe.read)
        #expect(buffer.takeLine() == Array("{\"a\":1}".utf8))
        #expect(buffer.takeLine() == Array("{\"b\":2}".utf8))
        #expect(buffer.takeLine() == nil)
        #expect(buffer.count == 1)
        pipe.send("}\n\n")
        _ = try buffer.read(from: pipe.read)
        #expect(buffer.takeLine() == Array("{}".utf8))
        #expect(buffer.takeLine() == [])
        #expect(buffer.count == 0)
    }

    /// A line longer than the room grows it; the line comes out whole.
    @Test func aLineLongerThanTheRoomGrowsIt() throws {
        let pipe = try Pipe()
        var buffer = LineBuffer(capacity: 4)
        let line = String(repeating: "x", count: 37)
        pipe.send(line + "\n")
        var taken: [UInt8]?
        for _ in 0..<20 where taken == nil {   // 38 bytes: a few reads as the room doubles
            #expect(try buffer.read(from: pipe.read) > 0)
            taken = buffer.takeLine()
        }
        #expect(taken == Array(line.utf8))
        #expect(buffer.capacity == 64)
        #expect(buffer.count == 0)
    }

    /// The part of a line left at the end of the room moves to the front, and the room is
    /// reused for line after line instead of growing.
    @Test func theRoomIsReusedOnceItsLinesAreTaken() throws {
        let pipe = try Pipe()
        var buffer = LineBuffer(capacity: 8)
        var lines: [String] = []
        for i in stride(from: 0, to: 200, by: 2) {
            // 12 bytes: the first read fills the room and ends inside the second line.
            pipe.send("f\(i % 10)xyz\ns\((i + 1) % 10)uvw\n")
            for _ in 0..<4 where lines.count < i + 2 {
                #expect(try buffer.read(from: pipe.read) > 0)
                while let line = buffer.takeLine() { lines.append(String(decoding: line, as: UTF8.self)) }
            }
        }
        #expect(lines == (0..<200).map { $0.isMultiple(of: 2) ? "f\($0 % 10)xyz" : "s\($0 % 10)uvw" })
        #expect(buffer.capacity == 8)
        #expect(buffer.count == 0)
    }

    @Test func endOfFileReadsNothing() throws {
        let pipe = try Pipe()
        var buffer = LineBuffer()
        pipe.send("partial")
        pipe.closeWrite()
        #expect(try buffer.read(from: pipe.read) == 7)
        #expect(try buffer.read(from: pipe.read) == 0)
        #expect(buffer.takeLine() == nil)
    }
}
