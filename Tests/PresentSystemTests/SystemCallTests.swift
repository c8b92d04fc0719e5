// The one syscall wrapper: a call a signal interrupts is made again, a failure carries the
// call, the path and errno, and a non-blocking call that would block is not a failure.

#if canImport(Glibc)
import Glibc
#endif
import PresentSystem
import Testing

@Suite struct SystemCallTests {
    @Test func anInterruptedCallIsMadeAgainUntilItAnswers() throws {
        var calls = 0
        let result = try valueOrErrno("read") { () -> Int in
            calls += 1
            guard calls > 3 else { errno = EINTR; return -1 }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 4)
    }

    @Test func withoutRetryAnInterruptedCallFailsWithEINTR() {
        var calls = 0
        #expect(throws: SystemCallError("poll", code: EINTR)) {
            try valueOrErrno("poll", retryOnInterrupt: false) { () -> Int32 in
                calls += 1
                errno = EINTR
                return -1
            }
        }
        #expect(calls == 1)
    }

    /// A real signal, without SA_RESTART, lands in a blocking read(2), which the kernel
    /// then ends with EINTR: through the wrapper the read is made again and gets the byte
    /// written after the signal.
    @Test func aRealSignalDuringABlockingReadIsRetried() throws {
        var pipeFDs: [Int32] = [0, 0]
        #expect(pipe(&pipeFDs) == 0)
        defer { pipeFDs.forEach { close($0) } }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0   // no SA_RESTART: the kernel returns EINTR from read
        var previous = sigaction()
        #expect(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let readEnd = pipeFDs[0]
        let outcome = ReadOutcome()
        let reader = Thread {
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            var byte: UInt8 = 0
            outcome.result = Result { () throws(SystemCallError) in
                try valueOrErrno("read") { () -> Int in
                    outcome.calls += 1
                    return read(readEnd, &byte, 1)
                }
            }
            outcome.byte = byte
        }
        reader.start()
        // Signal the reader until its read has been made a second time: the first was
        // interrupted. Only then write what it waits for.
        var waited = 0
        while outcome.calls < 2 && outcome.result == nil && waited < 10_000 {
            if outcome.calls == 1 { reader.signal(SIGUSR2) }
            usleep(20_000)
            waited += 20
        }
        var byte: UInt8 = 7
        _ = write(pipeFDs[1], &byte, 1)
        reader.join()
        #expect(outcome.calls >= 2, "within 10 s, no signal interrupted the blocking read")
        #expect(try outcome.result?.get() == 1)
        #expect(outcome.byte == 7)
    }

    @Test func aFailureCarriesTheCallThePathAndErrno() {
        let path = "/nonexistent-\(getpid())/file"
        do {
            _ = try valueOrErrno("open", path: path) { open(path, O_RDONLY) }
            Issue.record("opening \(path) succeeded")
        } catch {
            #expect(error == SystemCallError("open", path: path, code: ENOENT))
            #expect(error.description == "open \(path): No such file or directory")
        }
        #expect(SystemCallError("fstat(-1)", code: EBADF).description == "fstat(-1): Bad file descriptor")
    }

    @Test func aNonBlockingCallThatWouldBlockIsNil() throws {
        var pipeFDs: [Int32] = [0, 0]
        #expect(pipe(&pipeFDs) == 0)
        #expect(fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK) == 0)
        defer { pipeFDs.forEach { close($0) } }
        var byte: UInt8 = 0
        #expect(try valueOrWouldBlock("read") { read(pipeFDs[0], &byte, 1) } == nil)
        _ = write(pipeFDs[1], "x", 1)
        #expect(try valueOrWouldBlock("read") { read(pipeFDs[0], &byte, 1) } == 1)
        close(pipeFDs[1])
        pipeFDs[1] = -1
        #expect(try valueOrWouldBlock("read") { read(pipeFDs[0], &byte, 1) } == 0)
        #expect(throws: SystemCallError("read", code: EBADF)) { try valueOrWouldBlock("read") { read(-1, &byte, 1) } }
    }

    /// More than a pipe holds, so the writes are partial: all of it arrives, in order.
    @Test func writeAllWritesEveryByteAcrossPartialWrites() throws {
        var pipeFDs: [Int32] = [0, 0]
        #expect(pipe(&pipeFDs) == 0)
        defer { pipeFDs.forEach { close($0) } }
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let readEnd = pipeFDs[0]
        let received = Received()
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, 1000) }   // small reads
                if n <= 0 { return }
                received.bytes += chunk[..<n]
            }
        }
        reader.start()
        try writeAll(bytes, to: pipeFDs[1])
        close(pipeFDs[1])
        pipeFDs[1] = -1
        reader.join()
        #expect(received.bytes.count == bytes.count)
        #expect(received.bytes == bytes)
    }

    @Test func writeAllToAClosedSocketFailsWithEPIPEAndNoSignal() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        close(pair[1])
        defer { close(pair[0]) }
        #expect(throws: SystemCallError("send", path: "peer", code: EPIPE)) {
            try writeAll([1, 2, 3], to: pair[0], call: "send", path: "peer", sendFlags: Int32(MSG_NOSIGNAL))
        }
    }
}

final class ReadOutcome: @unchecked Sendable {
    var calls = 0
    var result: Result<Int, SystemCallError>?
    var byte: UInt8 = 0
}

final class Received: @unchecked Sendable {
    var bytes: [UInt8] = []
}

/// A plain thread, joined by its starter.
final class Thread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }

    func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            return nil
        }, box)
    }

    func join() { pthread_join(handle, nil) }

    func signal(_ number: Int32) { pthread_kill(handle, number) }
}
