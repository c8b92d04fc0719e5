import CLibUV

/// A one-shot or repeating `uv_timer_t`, for timeouts (a shouldDismiss reply, a flush bound),
/// watchdog pings and idle exit. Millisecond resolution; frames use `FrameTimer` instead.
///
/// Kept alive by its loop until closed, so a fire-and-forget timer needs no other owner.
final class Timer: LoopOwned {
    /// Called on each expiry, on the loop thread.
    var onFire: () -> Void = {}

    private let loop: EventLoop
    private let timer: UnsafeMutablePointer<uv_timer_t>
    private var closing = false

    init(loop: EventLoop) throws {
        self.loop = loop
        timer = .allocate(capacity: 1)
        let status = uv_timer_init(loop.raw, timer)
        guard status == 0 else {
            timer.deallocate()
            throw TransportError.uv("uv_timer_init", status: status)
        }
        timer.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        loop.keepAlive(self)
    }

    /// Arms the timer: first expiry `after` seconds from now, then every `repeating` seconds
    /// (0: once). Re-arming replaces the previous schedule.
    func start(after delay: Double, repeating interval: Double = 0) {
        guard !closing else { return }
        // The loop's cached time may be stale after a long callback; a timeout measured
        // from it would fire early.
        uv_update_time(loop.raw)
        uv_timer_start(timer, { timer in
            Unmanaged<Timer>.fromOpaque(timer!.pointee.data).takeUnretainedValue().onFire()
        }, Self.milliseconds(delay), Self.milliseconds(interval))
    }

    /// Stops the timer without closing it; `start` may arm it again.
    func cancel() {
        guard !closing else { return }
        uv_timer_stop(timer)
    }

    /// Whether the timer is armed.
    var isActive: Bool { !closing && uv_is_active(uvHandle(timer)) != 0 }

    func close() {
        guard !closing else { return }
        closing = true
        uv_close(uvHandle(timer)) { timer in
            let owner = Unmanaged<Timer>.fromOpaque(timer!.pointee.data).takeUnretainedValue()
            owner.finishClose()
        }
    }

    private func finishClose() {
        timer.deallocate()
        onFire = {}   // breaks cycles through closures that captured an owner
        loop.endKeepAlive(self)
    }

    /// Rounds up, so a timeout never fires before it is due.
    private static func milliseconds(_ seconds: Double) -> UInt64 {
        seconds <= 0 ? 0 : UInt64((seconds * 1000).rounded(.up))
    }
}
