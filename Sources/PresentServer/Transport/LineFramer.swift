import Glibc

/// Splits a byte stream into lines at `\n`, with a bound on line length.
///
/// Decisions:
/// - A line is the bytes before `\n`; one `\r` right before the `\n` is stripped too, so
///   clients that write CRLF (`socat CRLF`, hand-typed telnet sessions) work. A `\r`
///   anywhere else is kept and left to the JSON parser to judge.
/// - Empty lines are delivered as empty lines; skipping them is the protocol's choice.
/// - `maxLineBytes` bounds a line as delivered (after stripping `\r`). An over-long line is
///   reported once (`.tooLong`) as soon as it is known to be too long, its bytes are dropped
///   without being buffered, and the framer discards up to the next `\n`; the line after
///   that is delivered normally. At most `maxLineBytes + 1` bytes of a partial line are kept.
/// - A partial line at end of stream is simply never delivered.
///
/// Lines are handed out without copying when they lie within one fed chunk; bytes are
/// copied into the framer only for a line split across chunks, or when the consumer stops
/// early (the handler returns `false`, e.g. because reading was paused): what was not
/// delivered stays buffered and comes out, in order, on the next `feed` (an empty one drains).
struct LineFramer {
    /// What the framer found.
    enum Event {
        /// A complete line, valid only during the handler call.
        case line(UnsafeRawBufferPointer)
        /// A line longer than `maxLineBytes` was received (reported once per line).
        case tooLong
    }

    var maxLineBytes: Int
    /// Received bytes not yet delivered: `buffer[start...]`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Dropping the rest of an over-long line, up to its `\n`.
    private var discarding = false

    init(maxLineBytes: Int = 1 << 20) {
        precondition(maxLineBytes > 0)
        self.maxLineBytes = maxLineBytes
    }

    /// Bytes received but not delivered (a partial line, or lines held back by a stop).
    var bufferedByteCount: Int { buffer.count - start }

    /// Feeds `chunk` and calls `handle` for each event in order, while it returns `true`.
    /// Returning `false` stops delivery; the rest is kept for the next call.
    mutating func feed(_ chunk: UnsafeRawBufferPointer,
                       _ handle: (Event) -> Bool) {
        if bufferedByteCount == 0 {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            feedDirect(chunk, handle)
        } else {
            buffer.append(contentsOf: chunk)
            feedBuffered(handle)
        }
    }

    /// Keeps `chunk` without delivering anything: its lines come out, after those already
    /// buffered, on the next `feed`.
    mutating func hold(_ chunk: UnsafeRawBufferPointer) {
        if bufferedByteCount == 0 {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// Delivers lines straight from `chunk`, then keeps what is left.
    private mutating func feedDirect(_ chunk: UnsafeRawBufferPointer,
                                     _ handle: (Event) -> Bool) {
        var discarding = self.discarding
        let (used, stopped) = Self.scan(chunk, limit: maxLineBytes,
                                        discarding: &discarding, handle)
        self.discarding = discarding
        let rest = UnsafeRawBufferPointer(rebasing: chunk[used...])
        if stopped || admitPartial(count: rest.count, handle) {
            buffer.append(contentsOf: rest)
        }
    }

    /// Delivers lines from the buffer, then trims what was delivered.
    private mutating func feedBuffered(_ handle: (Event) -> Bool) {
        var discarding = self.discarding
        let limit = maxLineBytes
        let from = start
        let (used, stopped) = buffer.withUnsafeBytes { bytes in
            Self.scan(UnsafeRawBufferPointer(rebasing: bytes[from...]), limit: limit,
                      discarding: &discarding, handle)
        }
        self.discarding = discarding
        start += used
        if !stopped && !admitPartial(count: bufferedByteCount, handle) {
            start = buffer.count
        }
        compact()
    }

    /// Whether a trailing partial line of `count` bytes may be kept; reports `.tooLong`
    /// (once) when it can no longer be a valid line.
    private mutating func admitPartial(count: Int, _ handle: (Event) -> Bool) -> Bool {
        if discarding { return false }
        // +1: the last byte may be a `\r` that the coming `\n` strips.
        guard count > maxLineBytes + 1 else { return true }
        discarding = true
        _ = handle(.tooLong)
        return false
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 4096 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// Hands out each complete line in `bytes`; returns how many bytes were consumed and
    /// whether the handler asked to stop.
    private static func scan(_ bytes: UnsafeRawBufferPointer, limit: Int,
                             discarding: inout Bool,
                             _ handle: (Event) -> Bool) -> (used: Int, stopped: Bool) {
        guard let base = bytes.baseAddress else { return (0, false) }
        var position = 0
        while position < bytes.count,
              let newline = memchr(base + position, 0x0A, bytes.count - position) {
            let end = base.distance(to: UnsafeRawPointer(newline))
            var line = UnsafeRawBufferPointer(rebasing: bytes[position..<end])
            position = end + 1
            if discarding {
                // The tail of an over-long line, already reported.
                discarding = false
                continue
            }
            if line.last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
            let keepGoing = line.count > limit ? handle(.tooLong) : handle(.line(line))
            if !keepGoing { return (position, true) }
        }
        return (position, false)
    }
}
