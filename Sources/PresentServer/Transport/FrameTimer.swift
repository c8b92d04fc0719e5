import CLibUV
import Glibc

/// The frame clock: a `timerfd` on CLOCK_MONOTONIC armed with absolute deadlines and watched
/// by a `uv_poll_t`.
///
/// The kernel expires at `firstDeadline + k × interval` (in whole nanoseconds), so the pace
/// never drifts; `uv_timer` repeats drift by tens of milliseconds per second under load. Each
/// wake-up reads the 8-byte expiration count: if the loop was late and several deadlines
/// passed, `onTick` gets the latest one and how many were skipped.
final class FrameTimer: LoopOwned {
    /// `deadline`: absolute CLOCK_MONOTONIC seconds of the tick being served (an exact
    /// multiple of the interval after the first deadline). `missed`: deadlines skipped
    /// before it because the loop was late (0 normally).
    var onTick: (_ deadline: Double, _ missed: UInt64) -> Void = { _, _ in }

    private(set) var isRunning = false
    /// The schedule, in nanoseconds, so deadlines are computed exactly.
    private(set) var firstDeadlineNanoseconds: Int64 = 0
    private(set) var intervalNanoseconds: Int64 = 0
    /// Expirations since `start`; the next tick's index.
    private var expirations: UInt64 = 0

    private let loop: EventLoop
    private let fd: Int32
    private let poll: UnsafeMutablePointer<uv_poll_t>
    private var closing = false

    init(loop: EventLoop) throws {
        self.loop = loop
        fd = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard fd >= 0 else { throw TransportError.posix("timerfd_create") }
        poll = .allocate(capacity: 1)
        let status = uv_poll_init(loop.raw, poll, fd)
        guard status == 0 else {
            poll.deallocate()
            Glibc.close(fd)
            throw TransportError.uv("uv_poll_init", status: status)
        }
        poll.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        loop.keepAlive(self)
    }

    /// Ticks at `firstDeadline` (absolute `EventLoop.monotonicNow()` seconds; a past one
    /// fires at once) and every `interval` seconds after it. Restarting replaces the schedule.
    func start(firstDeadline: Double, interval: Double) throws {
        precondition(interval > 0 && firstDeadline >= 0, "FrameTimer needs a positive interval")
        guard !closing else { return }
        firstDeadlineNanoseconds = Int64((firstDeadline * 1e9).rounded())
        intervalNanoseconds = max(1, Int64((interval * 1e9).rounded()))
        discardExpirations()
        expirations = 0
        try arm(value: Self.timespecFrom(nanoseconds: firstDeadlineNanoseconds),
                interval: Self.timespecFrom(nanoseconds: intervalNanoseconds))
        uv_poll_start(poll, Int32(UV_READABLE.rawValue)) { poll, status, _ in
            guard status == 0 else { return }   // EBADF only after close; nothing to serve
            Unmanaged<FrameTimer>.fromOpaque(poll!.pointee.data).takeUnretainedValue().serve()
        }
        isRunning = true
    }

    /// The deadline of the next tick, if the timer runs and the loop serves it on time
    /// (a late loop serves a later one): the same bits `serve` will report.
    var nextDeadline: Double? {
        isRunning ? deadline(ofExpiration: expirations) : nil
    }

    /// The deadline of expiration `index` (0: the first) in seconds, from whole nanoseconds.
    private func deadline(ofExpiration index: UInt64) -> Double {
        Double(firstDeadlineNanoseconds + Int64(truncatingIfNeeded: index) * intervalNanoseconds) / 1e9
    }

    /// Disarms the timer; no tick is delivered after this returns.
    func stop() {
        guard isRunning, !closing else { return }
        isRunning = false
        uv_poll_stop(poll)
        try? arm(value: timespec(), interval: timespec())   // zero disarms
        discardExpirations()
    }

    func close() {
        guard !closing else { return }
        stop()
        closing = true
        // The poll handle must be closed before its fd: closing the fd first would leave
        // epoll watching a number the kernel may hand out again.
        uv_close(uvHandle(poll)) { poll in
            let owner = Unmanaged<FrameTimer>.fromOpaque(poll!.pointee.data).takeUnretainedValue()
            owner.finishClose()
        }
    }

    private func finishClose() {
        Glibc.close(fd)
        poll.deallocate()
        onTick = { _, _ in }
        loop.endKeepAlive(self)
    }

    /// Reads the expiration count and reports the latest deadline it covers.
    private func serve() {
        guard let count = readExpirations(), count > 0, isRunning else { return }
        expirations += count
        onTick(deadline(ofExpiration: expirations - 1), count - 1)
    }

    /// The 8-byte expiration count, or nil when there is none (EAGAIN: a stale wake-up).
    private func readExpirations() -> UInt64? {
        var count: UInt64 = 0
        let read = Glibc.read(fd, &count, MemoryLayout<UInt64>.size)
        return read == MemoryLayout<UInt64>.size ? count : nil
    }

    /// Drops expirations of a previous schedule so they are not counted in the new one.
    private func discardExpirations() {
        _ = readExpirations()
    }

    private func arm(value: timespec, interval: timespec) throws {
        var spec = itimerspec(it_interval: interval, it_value: value)
        guard timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) == 0 else {
            throw TransportError.posix("timerfd_settime")
        }
    }

    private static func timespecFrom(nanoseconds: Int64) -> timespec {
        timespec(tv_sec: Int(nanoseconds / 1_000_000_000),
                       tv_nsec: Int(nanoseconds % 1_000_000_000))
    }
}
