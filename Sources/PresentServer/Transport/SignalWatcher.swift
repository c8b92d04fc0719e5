import CLibUV
import Glibc

/// Delivers signals (SIGTERM, SIGINT, SIGHUP, ...) as loop callbacks via `uv_signal_t`, so
/// the handler may do anything, unlike a real signal handler. In-process tests can simply
/// not create one.
final class SignalWatcher: LoopOwned {
    private var handler: (Int32) -> Void
    private let loop: EventLoop
    private var handles: [UnsafeMutablePointer<uv_signal_t>] = []
    private var openHandles = 0
    private var closing = false

    /// Starts watching `signals`; `handler` gets the signal number on the loop thread.
    init(loop: EventLoop, signals: [Int32], handler: @escaping (Int32) -> Void) throws {
        self.loop = loop
        self.handler = handler
        loop.keepAlive(self)
        do {
            for signal in signals { try watch(signal) }
        } catch {
            close()
            throw error
        }
    }

    private func watch(_ signal: Int32) throws {
        let watcher = UnsafeMutablePointer<uv_signal_t>.allocate(capacity: 1)
        let status = uv_signal_init(loop.raw, watcher)
        guard status == 0 else {
            watcher.deallocate()
            throw TransportError.uv("uv_signal_init", status: status)
        }
        watcher.pointee.data = Unmanaged.passUnretained(self).toOpaque()
        handles.append(watcher)
        openHandles += 1
        let started = uv_signal_start(watcher, { watcher, signal in
            Unmanaged<SignalWatcher>.fromOpaque(watcher!.pointee.data)
                .takeUnretainedValue().handler(signal)
        }, signal)
        guard started == 0 else {
            throw TransportError.uv("uv_signal_start(\(signal))", status: started)
        }
    }

    /// Stops watching; libuv restores the default disposition once no watcher is left.
    func close() {
        guard !closing else { return }
        closing = true
        if handles.isEmpty {
            finishClose()
            return
        }
        for watcher in handles {
            uv_close(uvHandle(watcher)) { watcher in
                let owner = Unmanaged<SignalWatcher>.fromOpaque(watcher!.pointee.data)
                    .takeUnretainedValue()
                UnsafeMutableRawPointer(watcher!).deallocate()
                owner.openHandles -= 1
                if owner.openHandles == 0 { owner.finishClose() }
            }
        }
    }

    private func finishClose() {
        handles.removeAll()
        handler = { _ in }
        loop.endKeepAlive(self)
    }

    /// Ignores SIGPIPE for the whole process, so writing to a peer that went away fails
    /// with EPIPE instead of killing the daemon (libuv writes without MSG_NOSIGNAL). The test
    /// runner and systemd already ignore it, which hides the bug in tests: call this in main.
    static func ignoreSIGPIPE() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&action.sa_mask)
        sigaction(SIGPIPE, &action, nil)
    }
}
