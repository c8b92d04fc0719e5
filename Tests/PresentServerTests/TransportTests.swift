import CLibUV
import Glibc
@testable import PresentTestSupport
import Testing
@testable import PresentServer

// Every test drives a real loop over real sockets (a temp directory or a socketpair) with
// bounded `runOnce` iterations; nothing sleeps. Each ends with `loop.close() == 0`, which
// proves every handle was closed and freed.

// MARK: - Helpers

/// A blocking client socket connected to `path`.
private func connectClient(_ path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    let status = try UnixSocket.withAddress(path) { connect(fd, $0, $1) }
    if status != 0 {
        let error = errno
        close(fd)
        throw TransportError.posix("connect", path: path, code: error)
    }
    return fd
}

/// Two connected stream sockets: `.0` for the Connection under test, `.1` for the test.
private func makeSocketPair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    let status = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &fds)
    precondition(status == 0, "socketpair failed")
    return (fds[0], fds[1])
}

private func writeAll(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    precondition(written == bytes.count, "short write in a test")
}

/// Appends whatever is readable now to `received` without blocking; false at EOF.
@discardableResult
private func readAvailable(_ fd: Int32, into received: inout [UInt8]) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = chunk.withUnsafeMutableBytes {
            recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        if count > 0 {
            received.append(contentsOf: chunk[..<count])
        } else {
            return count < 0   // EAGAIN: still open; 0: EOF
        }
    }
}

private func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
}

private func exists(_ path: String) -> Bool { fileMode(path) != nil }

/// A record for the coalescing tests: kind ("F" frame / "E" event), index, then filler.
private func record(_ kind: Character, _ index: UInt8, size: Int) -> SharedBuffer {
    SharedBuffer(count: size) { bytes in
        bytes.initializeMemory(as: UInt8.self, repeating: index)
        bytes[0] = kind.asciiValue!
    }
}

// MARK: - Listener

@Suite struct ListenerTests {
    @Test func bindsWithTheExactModeAndCreatesAPrivateParent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loop = try EventLoop()
        let path = directory.path + "/run/presentd.sock"
        let listener = try UnixListener(loop: loop, path: path, mode: 0o600)
        #expect(fileMode(path) == 0o600)
        #expect(fileMode(directory.path + "/run") == 0o700)
        #expect(listener.path == path)

        // 0660 survives any umask (022 would strip group write from a bind under umask).
        let groupPath = directory.path + "/shared/presentd.sock"
        let shared = try UnixListener(loop: loop, path: groupPath, mode: 0o660, group: getgid())
        #expect(fileMode(groupPath) == 0o660)
        #expect(fileMode(directory.path + "/shared") == 0o750)

        listener.close()
        shared.close()
        #expect(!exists(path))
        #expect(!exists(groupPath))
        #expect(loop.close() == 0)
    }

    @Test func staleSocketFileIsReplaced() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/stale.sock"
        // A daemon that died: bound, then gone without unlinking.
        let dead = try UnixSocket.makeStream()
        let bound = try UnixSocket.withAddress(path) { bind(dead, $0, $1) }
        #expect(bound == 0)
        close(dead)
        #expect(exists(path))

        let loop = try EventLoop()
        var accepted = 0
        let listener = try UnixListener(loop: loop, path: path)
        listener.onAccept = { _ in accepted += 1 }
        let client = try connectClient(path)
        defer { close(client) }
        #expect(loop.run(until: { accepted == 1 }))
        listener.close()
        #expect(loop.close() == 0)
    }

    @Test func liveSocketIsRefused() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/live.sock"
        let loop = try EventLoop()
        let first = try UnixListener(loop: loop, path: path)
        var accepted = 0
        first.onAccept = { _ in accepted += 1 }
        // The probe connects and hangs up: accepted after its close, it is a silent one.
        first.onSilentClose = { accepted += 1 }

        #expect {
            _ = try UnixListener(loop: loop, path: path)
        } throws: { error in
            let error = error as? TransportError
            return error?.kind == .addressInUse
                && error?.description == "another presentd is listening on \(path)"
        }
        // The probe's connection reaches the first daemon; the socket was left alone.
        let client = try connectClient(path)
        defer { close(client) }
        #expect(loop.run(until: { accepted == 2 }))
        first.close()
        #expect(loop.close() == 0)
    }

    @Test func fileThatIsNotASocketIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/precious.txt"
        close(open(path, O_CREAT | O_WRONLY, 0o600))
        let loop = try EventLoop()
        #expect {
            _ = try UnixListener(loop: loop, path: path)
        } throws: { ($0 as? TransportError)?.kind == .notASocket }
        #expect(exists(path))
        #expect(loop.close() == 0)
    }

    @Test func pathOver107BytesIsRefusedAnd107Binds() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loop = try EventLoop()
        let prefix = directory.path + "/"
        let fits = prefix + String(repeating: "s", count: 107 - prefix.utf8.count)
        let tooLong = fits + "x"
        #expect {
            _ = try UnixListener(loop: loop, path: tooLong)
        } throws: { error in
            let error = error as? TransportError
            return error?.kind == .pathTooLong(bytes: 108)
                && error!.description.contains("108 bytes")
                && error!.description.contains("107-byte limit")
        }
        let listener = try UnixListener(loop: loop, path: fits)
        #expect(exists(fits))
        listener.close()
        #expect(loop.close() == 0)
    }

    @Test func adoptedSocketIsServedAndNeverUnlinked() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/activated.sock"
        // What systemd passes: bound and listening.
        let fd = try UnixSocket.makeStream()
        #expect(try UnixSocket.withAddress(path) { bind(fd, $0, $1) } == 0)
        #expect(listen(fd, 16) == 0)

        let loop = try EventLoop()
        let listener = try UnixListener(loop: loop, adopting: fd)
        #expect(listener.path == path)
        var accepted = 0
        listener.onAccept = { _ in accepted += 1 }
        let client = try connectClient(path)
        defer { close(client) }
        #expect(loop.run(until: { accepted == 1 }))
        listener.close()
        #expect(loop.close() == 0)
        #expect(exists(path))
    }

    @Test func peerCredentialsAreOurs() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loop = try EventLoop()
        let listener = try UnixListener(loop: loop, path: directory.path + "/cred.sock")
        var peers: [PeerCredentials] = []
        var ids: [UInt64] = []
        listener.onAccept = { connection in
            peers.append(connection.peer)
            ids.append(connection.id)
        }
        let first = try connectClient(listener.path)
        let second = try connectClient(listener.path)
        defer { close(first); close(second) }
        #expect(loop.run(until: { peers.count == 2 }))
        #expect(peers.allSatisfy {
            $0 == PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid())
        })
        #expect(ids.count == 2 && ids[0] < ids[1])
        listener.close()
        #expect(loop.close() == 0)
    }

    @Test func acceptErrorIsLoggedAndRetriedWithoutSpinning() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loop = try EventLoop()
        let listener = try UnixListener(loop: loop, path: directory.path + "/emfile.sock")
        listener.acceptRetryDelay = 0.001
        var calls = 0
        let realAccept = listener.acceptCall
        listener.acceptCall = { fd in
            calls += 1
            if calls <= 3 {
                errno = EMFILE
                return -1
            }
            return realAccept(fd)
        }
        var errors: [TransportError] = []
        listener.onAcceptError = { errors.append($0) }
        var accepted = 0
        listener.onAccept = { _ in accepted += 1 }

        let client = try connectClient(listener.path)
        defer { close(client) }
        // Blocking iterations: a spinning listener would take many; a paused one waits
        // for its retry timer each time.
        #expect(loop.run(until: { accepted == 1 }, maxIterations: 50, nowait: false))
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { $0.code == EMFILE && $0.operation == "accept4" })
        listener.close()
        #expect(loop.close() == 0)
    }
}

// MARK: - Connection

@Suite struct ConnectionTests {
    @Test func echoesLinesThroughAListener() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loop = try EventLoop()
        let listener = try UnixListener(loop: loop, path: directory.path + "/echo.sock")
        var closes = 0
        var closeError: TransportError?
        listener.onAccept = { connection in
            connection.onLine = { line in connection.send(Array(line) + [0x0A]) }
            connection.onClose = {
                closes += 1
                closeError = connection.closeError
            }
        }
        let client = try connectClient(listener.path)
        writeAll(client, "hello\nwor")
        writeAll(client, "ld\r\n")
        var received: [UInt8] = []
        #expect(loop.run(until: {
            readAvailable(client, into: &received)
            return received.count >= 12
        }))
        #expect(String(decoding: received, as: UTF8.self) == "hello\nworld\n")

        close(client)
        #expect(loop.run(until: { closes == 1 }))
        #expect(closeError == nil)
        listener.close()
        #expect(loop.close() == 0)
        #expect(closes == 1)
    }

    @Test func partialLineAtEOFIsDroppedAndCloseIsReportedOnce() throws {
        let loop = try EventLoop()
        let (ours, theirs) = makeSocketPair()
        let connection = try Connection(loop: loop, fd: ours)
        var lines: [String] = []
        var closes = 0
        connection.onLine = { lines.append(String(decoding: $0, as: UTF8.self)) }
        connection.onClose = { closes += 1 }
        writeAll(theirs, "whole\npart")
        shutdown(theirs, Int32(SHUT_WR))
        #expect(loop.run(until: { closes == 1 }))
        #expect(lines == ["whole"])
        connection.close()   // after the fact: a no-op, no second onClose
        #expect(loop.close() == 0)
        #expect(closes == 1)
        close(theirs)
    }

    @Test func overLongLineIsReported() throws {
        let loop = try EventLoop()
        let (ours, theirs) = makeSocketPair()
        defer { close(theirs) }
        let connection = try Connection(loop: loop, fd: ours)
        connection.maxLineBytes = 8
        var tooLong = 0
        connection.onLineTooLong = {
            tooLong += 1
            connection.close()
        }
        writeAll(theirs, String(repeating: "x", count: 20))
        #expect(loop.run(until: { connection.state == .closed }))
        #expect(tooLong == 1)
        #expect(loop.close() == 0)
    }

    @Test func pausedConnectionHoldsLinesUntilResumed() throws {
        let loop = try EventLoop()
        let (ours, theirs) = makeSocketPair()
        defer { close(theirs) }
        let connection = try Connection(loop: loop, fd: ours)
        var lines: [String] = []
        connection.onLine = { line in
            lines.append(String(decoding: line, as: UTF8.self))
            connection.pauseReading()   // one request in flight at a time
        }
        writeAll(theirs, "a\nb\nc\n")
        #expect(loop.run(until: { lines.count == 1 }))
        for _ in 0..<100 { loop.runOnce() }
        #expect(lines == ["a"])
        connection.resumeReading()
        #expect(lines == ["a"])   // delivered on a later iteration, not inside resume
        #expect(loop.run(until: { lines.count == 2 }))
        connection.resumeReading()
        #expect(loop.run(until: { lines.count == 3 }))
        #expect(lines == ["a", "b", "c"])
        #expect(loop.close() == 0)
    }

    @Test func losslessFloodToANonReaderOverflowsWithoutBlockingTheLoop() throws {
        let loop = try EventLoop()
        let (ours, theirs) = makeSocketPair()
        defer { close(theirs) }
        let connection = try Connection(loop: loop, fd: ours)
        connection.maxQueuedBytes = 256 * 1024
        var overflows = 0
        connection.onOverflow = { overflows += 1 }
        let chunk = [UInt8](repeating: 0x61, count: 16 * 1024)
        // Every send returns at once: the kernel buffer fills, the queue fills, then sends
        // are refused. A blocking write would hang here, since nobody reads `theirs`.
        var sends = 0
        while overflows == 0 && sends < 10_000 {
            connection.send(chunk)
            loop.runOnce()
            sends += 1
        }
        let queued = connection.queuedBytes
        #expect(queued <= connection.maxQueuedBytes)
        for _ in 0..<100 { connection.send(Array("{\"event\":1}\n".utf8)) }
        #expect(overflows == 1)
        #expect(connection.queuedBytes == queued)   // dropped: the stream already lost one
        #expect(connection.state == .open)

        // The loop still serves other handles.
        let timer = try Timer(loop: loop)
        var fired = false
        timer.onFire = { fired = true }
        timer.start(after: 0)
        #expect(loop.run(until: { fired }, maxIterations: 10, nowait: false))

        // What the daemon then does: a final notice, then close; bounded by the timeout
        // because the peer never reads.
        let notice = Array("{\"overflow\":true}\n".utf8)
        connection.closeAfterFlush(sending: notice, timeout: 0.01)
        #expect(connection.queuedBytes == queued + notice.count)
        #expect(loop.run(until: { connection.state == .closed }, maxIterations: 10,
                         nowait: false))
        #expect(loop.close() == 0)
    }

    @Test func framesToASlowReaderAreCoalescedInOrder() throws {
        let loop = try EventLoop()
        let (ours, theirs) = makeSocketPair()
        defer { close(theirs) }
        let connection = try Connection(loop: loop, fd: ours)
        let size = 64 * 1024   // a few fill the kernel buffer (about 200 KiB)
        var sent: [String] = []
        var replaced: SharedBuffer?
        for index in UInt8(1)...12 {
            let frame = record("F", index, size: size)
            connection.sendFrame(frame)
            sent.append("F\(index)")
            if index == 9 { replaced = frame; frame.retain() }
            frame.release()
            if index == 6 {
                let event = record("E", 6, size: size)
                connection.send(shared: event)
                event.release()
                sent.append("E6")
            }
        }
        // F9 was waiting and F10 replaced it: its queue reference is gone already.
        #expect(replaced?.referenceCount == 1)
        replaced?.release()

        var bytes: [UInt8] = []
        #expect(loop.run(until: {
            readAvailable(theirs, into: &bytes)
            return connection.queuedItems == 0 && bytes.count % size == 0
        }))
        let received = stride(from: 0, to: bytes.count, by: size).map { offset in
            "\(Character(UnicodeScalar(bytes[offset])))\(bytes[offset + 1])"
        }
        // What the kernel took in order, then only the newest frame; the event keeps its
        // place (a frame never overtakes an event sent before it).
        let frames = received.filter { $0.hasPrefix("F") }
        let prefix = frames.enumerated().prefix { $0.element == "F\($0.offset + 1)" }.count
        #expect(prefix >= 1)
        #expect(Array(frames.dropFirst(prefix)) == ["F12"])
        #expect(received.contains("E6"))
        #expect(isSubsequence(received, of: sent))
        #expect(received.count < sent.count)
        #expect(loop.close() == 0)
    }

    @Test func sharedBufferIsFreedWhenTheLastWriteCompletes() throws {
        let loop = try EventLoop()
        let pairs = (0..<3).map { _ in makeSocketPair() }
        defer { pairs.forEach { close($0.1) } }
        let connections = try pairs.map { try Connection(loop: loop, fd: $0.0) }
        // Larger than a kernel buffer, so every connection has to queue a tail.
        let message = record("E", 1, size: 512 * 1024)
        connections.forEach { $0.send(shared: message) }
        #expect(message.referenceCount == 4)
        var received = [[UInt8]](repeating: [], count: 3)
        #expect(loop.run(until: {
            for index in 0..<3 { readAvailable(pairs[index].1, into: &received[index]) }
            return message.referenceCount == 1
        }))
        #expect(received.allSatisfy { $0.count == 512 * 1024 })
        message.release()
        #expect(loop.close() == 0)
    }

    @Test func closeAfterFlushDeliversEverything() throws {
        let loop = try EventLoop()
        let (ours, theirs) = makeSocketPair()
        defer { close(theirs) }
        let connection = try Connection(loop: loop, fd: ours)
        var closes = 0
        connection.onClose = { closes += 1 }
        var expected: [UInt8] = []
        for index in 0..<16 {
            let chunk = [UInt8](repeating: UInt8(index), count: 64 * 1024)
            expected += chunk
            connection.send(chunk)
        }
        connection.closeAfterFlush()
        connection.send([1, 2, 3])   // ignored once closing
        var received: [UInt8] = []
        var open = true
        #expect(loop.run(until: {
            open = readAvailable(theirs, into: &received) && open
            return !open && closes == 1
        }))
        #expect(received == expected)
        #expect(connection.closeError == nil)
        #expect(loop.close() == 0)
    }

    @Test func writeErrorClosesTheConnection() throws {
        SignalWatcher.ignoreSIGPIPE()
        let loop = try EventLoop()
        let (ours, theirs) = makeSocketPair()
        let connection = try Connection(loop: loop, fd: ours)
        var closes = 0
        connection.onClose = { closes += 1 }
        close(theirs)
        connection.send(Array("nobody is there\n".utf8))
        #expect(loop.run(until: { closes == 1 }))
        #expect(connection.closeError?.code == EPIPE)
        #expect(loop.close() == 0)
    }
}

private func isSubsequence(_ items: [String], of sequence: [String]) -> Bool {
    var remaining = sequence[...]
    for item in items {
        guard let found = remaining.firstIndex(of: item) else { return false }
        remaining = remaining[(found + 1)...]
    }
    return true
}

// MARK: - Outbound queue

@Suite struct OutboundQueueTests {
    @Test func waitingFrameIsReplacedAndReleased() {
        var queue = OutboundQueue()
        let event = SharedBuffer([1, 2, 3])
        let old = SharedBuffer([9])
        let new = SharedBuffer([10])
        [event, old, new].forEach { $0.retain() }   // ours, plus the queue's
        queue.append(event, kind: .lossless)
        queue.append(old, kind: .frame)
        queue.append(new, kind: .frame)
        #expect(old.referenceCount == 1)
        #expect(queue.count == 2)
        #expect(queue.losslessBytes == 3)

        let buffers = UnsafeMutablePointer<uv_buf_t>.allocate(capacity: 4)
        defer { buffers.deallocate() }
        #expect(queue.beginWrite(into: buffers, capacity: 4) == 2)
        // In flight: a newer frame is queued behind it instead of replacing it.
        let newest = SharedBuffer([11])
        queue.append(newest, kind: .frame)
        #expect(queue.count == 3)
        queue.completeWrite()
        #expect(queue.count == 1)
        #expect(queue.losslessBytes == 0)
        #expect(event.referenceCount == 1 && new.referenceCount == 1)
        queue.removeAll()
        [event, old, new].forEach { $0.release() }
    }
}

// MARK: - Loop, timers, signals

@Suite struct LoopTests {
    @Test func frameTimerTicksOnExactMultiplesOfTheInterval() throws {
        let loop = try EventLoop()
        let timer = try FrameTimer(loop: loop)
        let interval = 0.002
        let first = loop.monotonicNow() + interval
        var ticks: [(deadline: Double, missed: UInt64, servedAt: Double)] = []
        timer.onTick = { ticks.append(($0, $1, loop.monotonicNow())) }
        try timer.start(firstDeadline: first, interval: interval)
        #expect(loop.run(until: { ticks.count >= 20 }, maxIterations: 1000, nowait: false))
        timer.stop()

        var previous = -1
        for tick in ticks {
            let multiple = ((tick.deadline - first) / interval).rounded()
            // Exact multiples (to double precision), not measured durations: no drift.
            #expect(abs(tick.deadline - (first + multiple * interval)) < 1e-6)
            #expect(Int(multiple) == previous + 1 + Int(tick.missed))
            #expect(tick.deadline <= tick.servedAt)   // never early
            previous = Int(multiple)
        }

        // A first deadline in the past fires at once, reporting the latest one and the
        // number skipped.
        var late: (deadline: Double, missed: UInt64)?
        timer.onTick = { deadline, missed in late = (deadline, missed) }
        let now = loop.monotonicNow()
        try timer.start(firstDeadline: now - 10 * interval, interval: interval)
        #expect(loop.run(until: { late != nil }, maxIterations: 10, nowait: false))
        #expect(late!.missed >= 10)
        #expect(late!.deadline >= now - interval && late!.deadline <= loop.monotonicNow())
        timer.close()
        #expect(loop.close() == 0)
    }

    @Test func timerFiresOnceRepeatsAndCancels() throws {
        let loop = try EventLoop()
        let once = try Timer(loop: loop)
        let repeating = try Timer(loop: loop)
        let cancelled = try Timer(loop: loop)
        var counts = (once: 0, repeating: 0, cancelled: 0)
        once.onFire = { counts.once += 1 }
        repeating.onFire = { counts.repeating += 1 }
        cancelled.onFire = { counts.cancelled += 1 }
        once.start(after: 0.001)
        repeating.start(after: 0.001, repeating: 0.001)
        cancelled.start(after: 0.001)
        cancelled.cancel()
        #expect(!cancelled.isActive)
        #expect(loop.run(until: { counts.repeating >= 3 }, maxIterations: 100, nowait: false))
        #expect(counts.once == 1 && counts.cancelled == 0)
        #expect(!once.isActive && repeating.isActive)
        #expect(loop.close() == 0)   // closes the timers still open
    }

    @Test func postedWorkRunsOnTheNextIteration() throws {
        let loop = try EventLoop()
        var ran = false
        loop.post { ran = true }
        #expect(!ran)
        loop.runOnce()
        #expect(ran)
        #expect(loop.close() == 0)
    }

    @Test func signalWatcherDeliversOnTheLoop() throws {
        let loop = try EventLoop()
        var received: [Int32] = []
        let watcher = try SignalWatcher(loop: loop, signals: [SIGUSR2]) { received.append($0) }
        // To the process, not the thread: Swift Testing's worker threads block signals,
        // so raise() would leave it pending on this thread forever.
        kill(getpid(), SIGUSR2)
        // Another thread takes the signal and wakes the loop, whenever a loaded machine runs
        // it: blocking iterations (each waits for the signal or the 10 ms tick), a minute's
        // worth, not non-blocking ones that a fast machine spins through in a moment.
        #expect(loop.run(until: { received == [SIGUSR2] }, maxIterations: Int(generousTimeout * 100), nowait: false))
        watcher.close()
        #expect(loop.close() == 0)
    }

    @Test func closingTheLoopClosesEverythingStillOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let loop = try EventLoop()
        let path = directory.path + "/all.sock"
        _ = try UnixListener(loop: loop, path: path)
        let (ours, theirs) = makeSocketPair()
        defer { close(theirs) }
        let connection = try Connection(loop: loop, fd: ours)
        var closes = 0
        connection.onClose = { closes += 1 }
        connection.send([UInt8](repeating: 7, count: 1 << 20))   // a write in flight
        let frames = try FrameTimer(loop: loop)
        try frames.start(firstDeadline: loop.monotonicNow() + 1, interval: 1)
        try Timer(loop: loop).start(after: 60)
        _ = try SignalWatcher(loop: loop, signals: [SIGUSR1]) { _ in }
        #expect(loop.ownedCount == 5)

        #expect(loop.close() == 0)
        #expect(loop.ownedCount == 0)
        #expect(closes == 1)
        #expect(!exists(path))
    }
}
