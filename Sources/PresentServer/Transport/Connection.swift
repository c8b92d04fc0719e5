import CLibUV
import Glibc
import PresentSystem

/// One client on the socket: incoming bytes become lines, outgoing bytes go through an
/// outbound queue the connection owns, so a client that stops reading never blocks the loop.
///
/// Lifetime: the loop keeps the connection alive from creation until its close callback has
/// run (after which `onClose` is called, once). Closures stored here may capture the
/// connection; they are cleared when it closes, which breaks such cycles.
///
/// Writes: the replies to the lines of one read are gathered and written together when
/// the read's lines are handled, or each time `gatherFlushBytes` have gathered (a few
/// syscalls and wake-ups of the reader for a pipeline of requests, not one per reply).
/// Otherwise, when nothing is queued a send first tries a plain send(2); whatever the
/// kernel does not take is queued, and one `uv_write` at a time (of up to 16 queued
/// items) drains the queue, continuing from its callback. Lossless sends are bounded by
/// `maxQueuedBytes`; frames are coalesced (see `OutboundQueue`) and never count against
/// the bound.
final class Connection: LoopOwned {
    /// Where the connection is in its life.
    enum State {
        case open
        /// `closeAfterFlush`: no more reading or sending; closes once the queue is written.
        case draining
        case closing
        case closed
    }

    /// How long `closeAfterFlush` waits for a slow reader by default, in seconds.
    static let defaultFlushTimeout = 5.0
    private static let maxBuffersPerWrite = 16
    /// Gathered replies go out once they reach this many bytes, without waiting for the
    /// read's last line: a client with a long pipeline reads the first replies while the
    /// rest are handled (on two cores, both sides work at once), and the gathering buffer
    /// stays small. A few dozen short replies per write still saves most of the writes of
    /// one per reply (docs/BENCHMARKS.md has the effect on pipelined throughput).
    static let gatherFlushBytes = 1024

    // What every frame's send reads comes first, together. Swift lays a class's stored
    // properties out in the order they are declared (what it does, though the language
    // does not promise it), so a send to a connection whose line is cold (the fan-out
    // reaches it once per frame) loads one cache line or two, not four.

    private(set) var state: State = .open
    /// Open or draining: the socket is still ours, to write to and to close.
    private var isLive: Bool { state == .open || state == .draining }
    /// false: every frame is queued like a lossless message (a replay keeps every frame).
    var coalescesFrames = true
    /// The socket: the pipe's own descriptor, which sends use directly (`writeNow`).
    private let socket: Int32
    /// Frames handed to `sendFrame` while open (`stats`).
    private(set) var framesSent = 0
    // `queue` and `gathered` are read for every frame sent to every subscriber. Swift checks
    // an access to such a property at run time unless it can prove that none overlaps
    // another, and for these two it cannot, so each frame's send would pay two checks per
    // subscriber, a large part of a tick. Both are touched on the loop thread only, each
    // access is one call into OutboundQueue or Array that never calls back into the
    // connection, and no closure is handed one (`send(writing:)` moves `gathered` out for
    // its closure), so no access can overlap another: the checks are turned off for these two.
    @exclusivity(unchecked) private var gathered: [UInt8] = []
    @exclusivity(unchecked) private var queue = OutboundQueue()

    /// Unique on this loop, increasing in accept order.
    let id: UInt64
    let peer: PeerCredentials
    let loop: EventLoop

    /// A complete line, without its `\n` (or `\r\n`); the bytes are valid only during the call.
    var onLine: (UnsafeRawBufferPointer) -> Void = { _ in }
    /// A line exceeded `maxLineBytes`; it was dropped. The daemon is expected to close.
    var onLineTooLong: () -> Void = {}
    /// The connection closed: EOF (after flushing), a read or write error, or `close()`.
    /// Called exactly once, after the socket is closed; `closeError` tells why.
    var onClose: () -> Void = {}
    /// A lossless send would have exceeded `maxQueuedBytes` and was dropped. Called once;
    /// from then on every lossless send is dropped (the stream already lost a message). The
    /// daemon is expected to `closeAfterFlush(sending: notice)`, which queues past the bound.
    var onOverflow: () -> Void = {}

    /// Longest line accepted, in bytes (without the terminator).
    var maxLineBytes = 1 << 20
    /// Bound on lossless bytes waiting to be written.
    var maxQueuedBytes = 4 << 20
    /// The read or write error that closed the connection (nil for EOF or a local close).
    private(set) var closeError: TransportError?
    /// Lossless bytes queued or being written.
    var queuedBytes: Int { queue.losslessBytes + gathered.count }
    /// Items (lossless or frame) queued or being written.
    var queuedItems: Int { queue.count }
    private(set) var isReadingPaused = false
    /// How many of the frames sent a newer one replaced before they reached the kernel.
    var framesCoalesced: Int { queue.framesCoalesced }

    private let pipe: UnsafeMutablePointer<uv_pipe_t>
    /// The `uv_write` request and its buffers, made for the first write the kernel did not
    /// take at once and kept from then on. Most connections never need them, and a
    /// subscriber that keeps up does not pay for them.
    private var writeSlot: (request: UnsafeMutablePointer<uv_write_t>, buffers: UnsafeMutablePointer<uv_buf_t>)?
    private var framer = LineFramer()
    private var isReading = false
    private var drainScheduled = false
    /// While the lines of one read are handled, lossless bytes for this connection gather
    /// here (only while nothing is queued, so they stay in order) and go out together after.
    private var corked = false
    private var overflowed = false
    private var flushTimer: Timer?

    /// Takes over `fd`, a connected Unix stream socket (accepted, or one end of a
    /// socketpair), reads its peer's credentials and starts reading. The fd is closed on
    /// failure too. Set the callbacks right away: the first read happens on a later iteration.
    init(loop: EventLoop, fd: Int32) throws {
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials.of(socket: fd)
        } catch {
            Glibc.close(fd)
            throw error
        }
        let pipe = try Self.makePipe(fd: fd, on: loop)
        self.loop = loop
        self.pipe = pipe
        self.socket = fd
        self.peer = peer
        id = loop.makeConnectionID()
        pipe.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        loop.keepAlive(self)
        startReading()
    }

    /// `uv_pipe_init` + `uv_pipe_open`; closes `fd` on failure.
    private static func makePipe(fd: Int32,
                                 on loop: EventLoop) throws -> UnsafeMutablePointer<uv_pipe_t> {
        let pipe = UnsafeMutablePointer<uv_pipe_t>.allocate(capacity: 1)
        let status = uv_pipe_init(loop.raw, pipe, 0)
        guard status == 0 else {
            pipe.deallocate()
            Glibc.close(fd)
            throw TransportError.uv("uv_pipe_init", status: status)
        }
        let opened = uv_pipe_open(pipe, fd)
        guard opened == 0 else {
            // An initialised handle is linked into the loop: only its close callback may
            // free it. The fd was not taken over, so it is ours to close.
            uv_close(uvHandle(pipe), freeHandleOnClose)
            Glibc.close(fd)
            throw TransportError.uv("uv_pipe_open", status: opened)
        }
        return pipe
    }

    /// The socket's descriptor, for queries libuv does not make (SO_PEERGROUPS); -1 once
    /// the connection is closing.
    var fileDescriptor: Int32 {
        isLive ? socket : -1
    }

    // MARK: Reading

    /// Stops delivering lines (for a limit on requests in flight). Lines already received
    /// stay buffered and are delivered, in order, after `resumeReading()`.
    func pauseReading() {
        isReadingPaused = true
        stopReading()
    }

    /// Delivers buffered lines (on the next iteration), then reads again — only once they
    /// are all delivered: reading first would let a peer that keeps being paused grow the
    /// buffer without bound.
    func resumeReading() {
        guard isReadingPaused else { return }
        isReadingPaused = false
        scheduleDrain()
    }

    private func startReading() {
        guard state == .open, !isReadingPaused, !isReading else { return }
        let status = uv_read_start(uvStream(pipe), { pipe, _, buffer in
            // One loop-wide buffer: each read is consumed before the next one is made.
            let loop = EventLoop.from(pipe!.pointee.loop)
            buffer!.pointee = uv_buf_t(
                base: loop.readBuffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                len: loop.readBuffer.count)
        }, { pipe, count, buffer in
            let connection = Unmanaged<Connection>.fromOpaque(pipe!.pointee.data)
                .takeUnretainedValue()
            connection.didRead(count, into: UnsafeRawPointer(buffer?.pointee.base))
        })
        guard status == 0 else { return fail(.uv("uv_read_start", status: status)) }
        isReading = true
    }

    private func stopReading() {
        guard isReading else { return }
        uv_read_stop(uvStream(pipe))
        isReading = false
    }

    private func didRead(_ count: Int, into base: UnsafeRawPointer?) {
        if count > 0 {
            deliver(UnsafeRawBufferPointer(start: base, count: count))
        } else if count == Int(UV_EOF.rawValue) {
            // libuv stopped reading. Replies already queued still go out: a client may have
            // shut down only its writing side and wait for them.
            isReading = false
            closeAfterFlush()
        } else if count < 0 {
            fail(.uv("read", status: Int32(count)))
        }   // 0: nothing read this time (EAGAIN)
    }

    /// Serves the bytes the peer sent before the connection was made (the listener's first
    /// read), as a read would, once the owner has set the callbacks and limits: before any
    /// later read, so lines stay in order. Dropped if the owner closed the connection
    /// already (a refused client is served nothing).
    func deliverEarly(_ chunk: UnsafeRawBufferPointer) {
        guard state == .open, chunk.count > 0 else { return }
        // Paused already: kept for `resumeReading`, as lines a pause holds back are.
        guard !isReadingPaused else { return framer.hold(chunk) }
        deliver(chunk)
    }

    /// Feeds the framer and hands out lines until it runs dry, or the connection is paused
    /// or closing.
    private func deliver(_ chunk: UnsafeRawBufferPointer) {
        guard state == .open, !isReadingPaused else { return }
        // The handlers call back into this object (send, pause, close); the framer is moved
        // out while they run so none of that overlaps the framer's own mutation (a runtime
        // exclusivity trap otherwise). Moving it out leaves its buffer uniquely referenced.
        var framer = self.framer
        self.framer = LineFramer(maxLineBytes: maxLineBytes)
        framer.maxLineBytes = maxLineBytes
        corked = true
        let borrowed = loop.lendGatherBuffer(to: &gathered)   // nothing is gathered outside a read
        defer {
            corked = false
            writeGathered()
            if borrowed { loop.returnGatherBuffer(from: &gathered) }
        }
        framer.feed(chunk) { event in
            switch event {
            case .line(let line): self.onLine(line)
            case .tooLong: self.onLineTooLong()
            }
            return self.state == .open && !self.isReadingPaused
        }
        self.framer = framer
    }

    /// Delivers buffered lines on the next iteration: not from inside `resumeReading()`,
    /// whose caller may be in the middle of handling a line.
    private func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        loop.post { [self] in
            drainScheduled = false
            deliver(UnsafeRawBufferPointer(start: nil, count: 0))
            startReading()   // no-op if a line paused (or closed) us again
        }
    }

    // MARK: Writing

    /// Sends `bytes` losslessly (copied only if the kernel does not take them at once).
    func send(_ bytes: [UInt8]) {
        guard state == .open, !bytes.isEmpty, admitLossless(bytes.count) else { return }
        if corked && queue.isEmpty {
            // Copied into the loop's gather buffer, unless it is the first reply and larger
            // than that buffer's room: then it is kept as it is (no copy), and later ones join it.
            if gathered.isEmpty && bytes.count > gathered.capacity {
                gathered = bytes
            } else {
                gathered.append(contentsOf: bytes)
            }
            return flushGatheredIfFull()
        }
        enqueueCopy(bytes)
    }

    /// Sends the bytes `write` appends, losslessly. While the lines of a read are handled
    /// they are written straight into what the read gathers (no array of their own, no
    /// copy); a message that does not fit the bound is taken back whole.
    func send(writing write: (inout [UInt8]) -> Void) {
        guard state == .open, !overflowed else { return }
        guard corked && queue.isEmpty else {
            var bytes: [UInt8] = []
            write(&bytes)
            return send(bytes)
        }
        // Moved out for the call (no copy: the array stays uniquely referenced) and back:
        // `write` is a closure the optimizer cannot see into, and an access to `gathered`
        // held across it would make every access to `gathered` a dynamically checked one,
        // the frame fan-out's included.
        var bytes = gathered
        gathered = []
        let start = bytes.count
        write(&bytes)
        let count = bytes.count - start
        gathered = bytes
        guard count > 0, exceedsBound(adding: 0) else { return flushGatheredIfFull() }
        gathered.removeSubrange(start...)   // taken back whole, before the overflow is reported
        _ = admitLossless(count)
    }

    /// Writes what is gathered once it reaches `gatherFlushBytes` (still corked: what the
    /// read's later lines send gathers anew).
    private func flushGatheredIfFull() {
        if gathered.count >= Self.gatherFlushBytes { writeGathered() }
    }

    /// Whether `count` more lossless bytes would pass `maxQueuedBytes`.
    private func exceedsBound(adding count: Int) -> Bool {
        queue.losslessBytes + gathered.count + count > maxQueuedBytes
    }

    /// Writes what the lines of a read gathered.
    private func writeGathered() {
        guard !gathered.isEmpty else { return }
        if isLive { enqueueCopy(gathered) }   // what the kernel does not take is copied
        gathered.removeAll(keepingCapacity: true)   // the loop's buffer, given back after the read
    }

    /// Writes or queues `bytes` without checking the bound.
    private func enqueueCopy(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { bytes in
            guard let written = writeNow(bytes), written < bytes.count else { return }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[written...])
            queue.append(SharedBuffer(copying: rest), kind: .lossless)
            startWrite()
        }
    }

    /// Sends shared broadcast bytes losslessly; retains `buffer` while it is queued.
    func send(shared buffer: SharedBuffer) {
        guard state == .open, buffer.count > 0, admitLossless(buffer.count) else { return }
        if corked && queue.isEmpty {
            gathered.append(contentsOf: buffer.bytes)
            return flushGatheredIfFull()
        }
        enqueue(buffer, kind: .lossless)
    }

    /// Sends a frame: if an earlier frame is still waiting (not yet handed to the kernel) it
    /// is dropped for this one, so a slow reader gets the newest frame, not a backlog.
    func sendFrame(_ buffer: SharedBuffer) {
        guard state == .open, buffer.count > 0 else { return }
        framesSent += 1
        writeGathered()   // what came before it goes first; the frame itself may be coalesced
        enqueue(buffer, kind: coalescesFrames ? .frame : .lossless)
    }

    private func enqueue(_ buffer: SharedBuffer, kind: OutboundQueue.Kind) {
        guard let written = writeNow(buffer.bytes), written < buffer.count else { return }
        buffer.retain()
        queue.append(buffer, offset: written, kind: kind)
        startWrite()
    }

    /// Whether `count` more lossless bytes fit; reports the first overflow. The whole
    /// message is checked before any of it is written, so none is ever cut short.
    private func admitLossless(_ count: Int) -> Bool {
        guard !overflowed else { return false }
        if !exceedsBound(adding: count) { return true }
        overflowed = true
        onOverflow()
        return false
    }

    /// Writes what the kernel takes right now, only if nothing is queued (queued bytes must
    /// go first). Returns the bytes written, or nil if the write failed and closed us (or
    /// we were closing already).
    ///
    /// A plain send(2). `uv_try_write` would make a write(2) once it had found libuv's own
    /// write queue empty, and that queue is empty whenever ours is (the items of a
    /// `uv_write` in flight stay in ours until it completes). Asking libuv would read the
    /// `uv_pipe_t`, one more allocation per subscriber that a frame's fan-out finds cold;
    /// and send(2) goes to the socket layer directly, where write(2) first passes through
    /// the file layer (`vfs_write`, `fdget_pos`, `sock_write_iter`), once per subscriber
    /// per tick. MSG_NOSIGNAL: a
    /// peer that went away is EPIPE, whatever the process does with SIGPIPE.
    private func writeNow(_ bytes: UnsafeRawBufferPointer) -> Int? {
        // Closing: libuv has closed the descriptor already, and its number may be reused.
        guard isLive else { return nil }
        guard queue.isEmpty else { return 0 }
        do {
            return try valueOrWouldBlock("send") {
                Glibc.send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            } ?? 0
        } catch {
            fail(TransportError(error))
            return nil
        }
    }

    /// Starts a `uv_write` of the queue's head unless one is in flight.
    private func startWrite() {
        guard isLive, !queue.isWriting else { return }
        let slot = writeSlot ?? (request: .allocate(capacity: 1), buffers: .allocate(capacity: Self.maxBuffersPerWrite))
        writeSlot = slot
        let count = queue.beginWrite(into: slot.buffers, capacity: Self.maxBuffersPerWrite)
        guard count > 0 else { return }
        slot.request.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        let status = uv_write(slot.request, uvStream(pipe), slot.buffers, UInt32(count)) {
            request, status in
            Unmanaged<Connection>.fromOpaque(request!.pointee.data).takeUnretainedValue()
                .didWrite(status)
        }
        guard status == 0 else {
            // No callback will come for a write that failed to start.
            queue.abandonWrite()
            return fail(.uv("uv_write", status: status))
        }
    }

    private func didWrite(_ status: Int32) {
        guard status == 0 else {
            queue.abandonWrite()   // the items are released when the close completes
            if status != UV_ECANCELED.rawValue { fail(.uv("write", status: status)) }
            return
        }
        queue.completeWrite()
        if !queue.isEmpty {
            startWrite()
        } else if state == .draining {
            close()
        }
    }

    // MARK: Closing

    /// Stops reading and sending, closes once everything queued is written, or after
    /// `timeout` seconds if the peer does not read it. `finalMessage` (an overflow or
    /// shutdown notice) is queued last, even past `maxQueuedBytes`.
    func closeAfterFlush(sending finalMessage: [UInt8] = [],
                         timeout: Double = Connection.defaultFlushTimeout) {
        guard state == .open else { return }
        writeGathered()
        if !finalMessage.isEmpty { enqueueCopy(finalMessage) }
        guard state == .open else { return }   // the write may have failed and closed us
        stopReading()
        guard !queue.isEmpty else { return close() }
        state = .draining
        do {
            let timer = try Timer(loop: loop)
            timer.onFire = { [weak self] in self?.close() }
            timer.start(after: timeout)
            flushTimer = timer
        } catch {
            close()
        }
    }

    /// Closes now; queued bytes are dropped. `onClose` follows on a later iteration.
    func close() {
        guard isLive else { return }
        state = .closing
        isReading = false
        flushTimer?.close()
        flushTimer = nil
        uv_close(uvHandle(pipe)) { pipe in
            Unmanaged<Connection>.fromOpaque(pipe!.pointee.data).takeUnretainedValue()
                .finishClose()
        }
    }

    private func fail(_ error: TransportError) {
        if closeError == nil { closeError = error }
        close()
    }

    /// The close callback: cancelled writes have had their callbacks, so every buffer can
    /// be released and every allocation freed.
    private func finishClose() {
        queue.removeAll()
        pipe.deallocate()
        if let writeSlot {
            writeSlot.request.deallocate()
            writeSlot.buffers.deallocate()
        }
        state = .closed
        let onClose = self.onClose
        self.onClose = {}
        onLine = { _ in }
        onLineTooLong = {}
        onOverflow = {}
        onClose()
        loop.endKeepAlive(self)
    }
}
