// The daemon's hooks into its service manager: ready once serving, a status line as
// clients and the stack change, the idle exit of a socket-activated daemon, and the
// stop notice. Daemon.swift calls these at start, on connect and after every change.

import PresentCore

/// What the status line and the idle exit depend on besides the stacks (whose changes
/// their revisions say). The service manager compares it after each publish
/// (`ServiceManager.recordInputs`).
struct ServiceInputs: Equatable {
    /// Connections.
    var clients = 0
    /// Connections subscribed to something.
    var subscribers = 0
    /// Outputs.
    var screens = 0
}

extension Daemon {
    /// The daemon serves (socket bound or adopted, handlers installed): READY=1 and the
    /// watchdog; the idle countdown starts if there is nothing to do.
    func serviceStarted(_ service: ServiceManager) throws {
        try service.ready()
        if let interval = service.watchdogInterval {
            log.info("watchdog: pinging systemd every \(interval) s")
        }
        if configuration.exitIdleTime > 0 && !isSocketActivated {
            log.notice("exit-idle-time ignored: presentd was not socket-activated, so nothing would start it again")
        }
        if configuration.socketGroup != nil && isSocketActivated {
            log.notice("socket group ignored: the socket came from systemd (SocketGroup= in presentd.socket decides)")
        }
        serviceStateChanged()
    }

    /// Clients or the stack may have changed: refresh the status line (at most once a
    /// second) and start or cancel the idle countdown.
    func serviceStateChanged() {
        guard let systemd, !shuttingDown else { return }
        systemd.statusMayHaveChanged()
        let idleExit = configuration.exitIdleTime
        guard isSocketActivated, idleExit > 0, clients.isEmpty, screens.allSatisfy(\.stack.allEntries.isEmpty) else {
            return systemd.cancelIdleExit()
        }
        systemd.armIdleExit(after: idleExit) { [unowned self] in
            self.log.notice("idle for \(idleExit) s (no clients, empty stack); exiting until the next connection")
            self.shutdown(reason: "idle")
        }
    }

    /// Shutdown begins: STOPPING=1, and no more pings.
    func serviceStopping() {
        systemd?.stopping()
    }

    var isSocketActivated: Bool { configuration.inheritedListener != nil }

    /// `systemctl status`'s line: "3 clients, 1 subscriber, stack depth 2 (1 queued)".
    var serviceStatus: String {
        "\(Self.count(clients.count, "client")), \(Self.count(broadcaster.subscriberCount, "subscriber")), "
            + "stack depth \(screens.reduce(0) { $0 + $1.stack.entries.count }) "
            + "(\(screens.reduce(0) { $0 + $1.stack.queue.count }) queued)"
            + (screens.count > 1 ? ", \(screens.count) outputs" : "")
    }

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}
