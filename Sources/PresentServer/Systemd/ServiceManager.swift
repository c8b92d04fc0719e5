// presentd's side of systemd's service protocol (sd_notify(3)): readiness, status lines,
// watchdog pings, reload and stop notices, and the idle exit of a socket-activated daemon.
// Without $NOTIFY_SOCKET (not run by systemd) the notices go nowhere and cost nothing.
// The protocol itself is SDDaemon's (SDDaemon.swift).

#if canImport(Glibc)
import Glibc
#endif

/// Talks to the service manager for the daemon. Confined to the loop thread.
final class ServiceManager {
    /// STATUS= is computed and sent at most this often (seconds).
    static let statusInterval = 1.0

    /// Whether a service manager listens ($NOTIFY_SOCKET is set).
    let isSupervised: Bool
    /// The watchdog ping interval (half of $WATCHDOG_USEC), when systemd asked for pings.
    private(set) var watchdogInterval: Double?

    private let loop: EventLoop
    private var status: () -> String
    private var lastStatus: String?
    private var lastStatusCheck = -Double.infinity
    private var statusTimer: Timer?
    private var watchdogTimer: Timer?
    private var idleTimer: Timer?
    /// What the status line and the idle exit were last worked out from (`recordInputs`).
    private var inputs: ServiceInputs?

    /// `status` describes the daemon for `systemctl status` (called at most once a second).
    init(loop: EventLoop, status: @escaping () -> String) {
        self.loop = loop
        self.status = status
        isSupervised = getenv("NOTIFY_SOCKET") != nil
    }

    /// Records the daemon's summary after a publish, and returns whether it differs from
    /// the last one recorded: a request that changed none of it (a `ping`) need not touch
    /// the status line or the idle countdown.
    func recordInputs(_ new: ServiceInputs) -> Bool {
        defer { inputs = new }
        return new != inputs
    }

    // MARK: Life cycle notices

    /// The daemon serves: READY=1 with the first status line, and the watchdog starts.
    func ready() throws {
        notify(["READY=1", "STATUS=" + checkedStatus()])
        try startWatchdog()
    }

    /// A configuration reload begins; `ready()`'s READY=1 ends it.
    func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        // MONOTONIC_USEC lets newer managers (Type=notify-reload) match the notice to the reload.
        notify(["RELOADING=1", "MONOTONIC_USEC=\(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)"])
    }

    /// The reload is over (applied or refused).
    func reloaded() {
        notify(["READY=1", "STATUS=" + checkedStatus()])
    }

    /// Shutdown begins: STOPPING=1; no more pings, status lines or idle exit.
    func stopping() {
        notify(["STOPPING=1", "STATUS=Shutting down"])
        close()
    }

    func close() {
        for timer in [statusTimer, watchdogTimer, idleTimer] { timer?.close() }
        statusTimer = nil
        watchdogTimer = nil
        idleTimer = nil
        status = { "" }
    }

    // MARK: Status

    /// Something the status line shows may have changed: it is sent now if the last check
    /// was over a second ago, else when that second is up (and only if it differs).
    func statusMayHaveChanged() {
        guard isSupervised, statusTimer?.isActive != true else { return }
        let wait = lastStatusCheck + Self.statusInterval - loop.monotonicNow()
        guard wait > 0 else { return sendStatusIfChanged() }
        do {
            let timer = try statusTimer ?? Timer(loop: loop)
            timer.onFire = { [unowned self] in self.sendStatusIfChanged() }
            timer.start(after: wait)
            statusTimer = timer
        } catch {
            sendStatusIfChanged()
        }
    }

    private func sendStatusIfChanged() {
        let previous = lastStatus
        let text = checkedStatus()
        if text != previous { notify(["STATUS=" + text]) }
    }

    private func checkedStatus() -> String {
        lastStatusCheck = loop.monotonicNow()
        let text = status()
        lastStatus = text
        return text
    }

    // MARK: Watchdog

    /// Pings WATCHDOG=1 at half of $WATCHDOG_USEC from a loop timer, so a stalled loop
    /// stops pinging and systemd restarts the daemon (WatchdogSec=).
    private func startWatchdog() throws {
        // A malformed WATCHDOG_USEC means no pings, as with libsystemd (sd_watchdog_enabled returns -EINVAL).
        guard let usec = try? SDDaemon.watchdogMicroseconds() else { return }
        let interval = Double(usec) / 2 / 1_000_000
        let timer = try Timer(loop: loop)
        timer.onFire = { [unowned self] in self.notify(["WATCHDOG=1"]) }
        timer.start(after: interval, repeating: interval)
        watchdogTimer = timer
        watchdogInterval = interval
        notify(["WATCHDOG=1"])
    }

    // MARK: Idle exit

    /// Arms the idle exit unless it is already counting down.
    func armIdleExit(after seconds: Double, exit: @escaping () -> Void) {
        guard idleTimer?.isActive != true else { return }
        do {
            let timer = try idleTimer ?? Timer(loop: loop)
            timer.onFire = exit
            timer.start(after: seconds)
            idleTimer = timer
        } catch {
            // Without a timer the daemon simply stays up: idle exit only saves resources.
        }
    }

    func cancelIdleExit() {
        idleTimer?.cancel()
    }

    // MARK: Sending

    private func notify(_ assignments: [String]) {
        guard isSupervised else { return }
        // A notice that cannot be sent is dropped: the daemon serves regardless,
        // and a watchdog that goes unheard restarts it.
        _ = try? SDDaemon.notify(assignments.joined(separator: "\n"))
    }
}
