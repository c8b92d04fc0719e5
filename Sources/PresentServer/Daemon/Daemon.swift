// The daemon: one libuv loop owning the screens (each a modal stack with its own frame
// clock), the listener and every client. Requests are applied to the screen they name at
// the current time; the events they cause are published before the reply; frames are
// broadcast while anything moves.

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol

/// The running daemon. Create it, then `run()`; everything happens on the calling thread.
///
/// The daemon routes: a request goes to the screen it names, through the owned parts
/// below. Its own stored properties are assigned in this file only (every `var` here is
/// `private(set)`); the files that extend it by concern change state through the owned
/// types' narrow APIs, each of which asserts its own invariants.
public final class Daemon {
    // MARK: Settings and the loop

    /// Replaced by a reload (SIGHUP, `adopt`), except what needs a restart.
    public private(set) var configuration: ServerConfiguration
    /// Decodes requests with the configuration's limits and defaults (follows `adopt`).
    private(set) var decoder: RequestDecoder
    var log: Log { configuration.log }
    let loop: EventLoop

    // MARK: What it serves

    /// The outputs, `main` first (Screens.swift).
    let screens: Screens
    /// The manual clock, when it is the daemon's (ManualClock.swift).
    let manualClock = ManualClock()
    /// Who hears which topic, and the fan-out of every notification (Broadcast/).
    let broadcaster = Broadcaster()
    /// The `shouldDismiss` questions waiting for an owner's answer (Conversation/).
    let ownerQuestions = OwnerQuestions()
    /// Saving the stacks for the next start, and restoring them (Continuity/).
    let continuity: Continuity

    // MARK: Who is connected

    private(set) var listener: UnixListener?
    /// Every connection by id (`accept` adds, `disconnected` removes).
    private(set) var clients: [UInt64: Client] = [:]
    /// Who may connect and how many (Access/).
    let access: AccessControl
    /// The uid that owns the socket (Roles.swift): without `roles`, it gets every role.
    private(set) var socketOwnerUID = geteuid()

    // MARK: Operating it

    /// systemd's notify protocol and the idle exit (Systemd/); nil until `run` serves.
    private(set) var systemd: ServiceManager?
    /// What `stats` reports (Daemon+Stats.swift).
    let counters: DaemonCounters
    /// The flight recorder's ring (FlightRecorder.swift).
    let recorder = FlightRecorder()
    private var signalWatchers: [SignalWatcher] = []
    /// `shutdown` began: nothing new is accepted or started.
    private(set) var shuttingDown = false
    /// Closes the connections that never drained after `shutdown`.
    private var shutdownTimer: Timer?

    public init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        self.loop = try EventLoop()
        self.counters = DaemonCounters(startedAt: loop.monotonicNow())
        self.screens = Screens(main: Screen(name: Screen.mainName,
                stack: ModalStack(
                    container: configuration.container, configuration: configuration.stack, time: 0,
                                                              reducedMotion: configuration.reducedMotion)))
        self.decoder = RequestDecoder(limits: configuration.limits, defaults: configuration.stack)
        self.access = AccessControl(adminGID: try configuration.adminGroup.map(Self.groupID))
        self.continuity = Continuity(path: configuration.stateFile.path(socketPath: configuration.socketPath))
        for output in configuration.outputs { addScreen(output) }
        for screen in screens { screen.stack.advance(to: now) }
    }

    /// Puts a reloaded file's configuration in force, keeping what only a start applies
    /// (`ServerConfiguration.restartOnly`: the clock and the socket never change while
    /// the daemon runs); the request decoder takes its limits and defaults with it.
    func adopt(reloaded fresh: ServerConfiguration) {
        configuration = configuration.reloaded(with: fresh)
        decoder = RequestDecoder(limits: configuration.limits, defaults: configuration.stack)
    }

    /// The screen every daemon has: requests that name no output go to it.
    var main: Screen { screens.main }

    /// The time requests and frames happen at: CLOCK_MONOTONIC, or the manual clock.
    var now: Double {
        configuration.clock == .manual ? manualClock.time : loop.monotonicNow()
    }

    /// Binds (or adopts) the socket, serves until shut down, then releases everything.
    public func run() throws {
        SignalWatcher.ignoreSIGPIPE()
        Self.raiseDescriptorLimit(for: configuration.maxConnections, log: log)
        restoreState()
        try listen()
        if configuration.handleSignals { try watchSignals() }
        for screen in screens { try startClock(of: screen) }
        let origin = isSocketActivated ? ", adopted from systemd" : ""
        let rates = screens.map { "\($0.name) \($0.fps(daemonFPS: configuration.fps)) fps" }.joined(separator: ", ")
        log.notice(
            "listening on \(listener?.path ?? configuration.socketPath)\(origin) (\(configuration.clock.rawValue) "
            + "clock; \(rates))"
        )
        let service = ServiceManager(loop: loop) { [unowned self] in self.serviceStatus }
        systemd = service
        try serviceStarted(service)
        loop.run()
        let leftOpen = loop.close()
        if leftOpen != 0 { log.warning("event loop closed with handles still open: \(loop.openHandleNames())") }
    }

    private func listen() throws {
        let listener: UnixListener
        if let fd = configuration.inheritedListener {
            listener = try UnixListener(loop: loop, adopting: fd)
        } else {
            listener = try UnixListener(loop: loop, path: configuration.socketPath,
                                        mode: configuration.socketGroup == nil ? 0o600 : 0o660,
                                        group: try configuration.socketGroup.map(Self.groupID))
        }
        listener.onAccept = { [unowned self] connection in self.accept(connection) }
        // A client that closed before saying anything cannot change the stacks, so it
        // leaves no client, no log line and no flight-recorder record: only the count
        // (a flood of empty connects must not push the recorder's history out either).
        listener.onSilentClose = { [unowned self] in self.counters.countSilent() }
        self.listener = listener
        socketOwnerUID = Self.socketOwner(path: listener.path, adopted: configuration.inheritedListener != nil)
    }

    static func groupID(_ name: String) throws -> gid_t {
        guard let group = getgrnam(name) else { throw DaemonError.unknownGroup(name) }
        return group.pointee.gr_gid
    }

    private func watchSignals() throws {
        let watcher = try SignalWatcher(loop: loop, signals: [SIGINT, SIGTERM]) { [unowned self] signal in
            self.shutdown(reason: signal == SIGINT ? "SIGINT" : "SIGTERM")
        }
        signalWatchers.append(watcher)
        signalWatchers.append(try SignalWatcher(loop: loop, signals: [SIGHUP]) { [unowned self] _ in
            self.reloadConfiguration()
        })
        signalWatchers += try recorderSignalWatchers()   // Operations/Recording/RecorderSignals.swift
    }

    // MARK: Connections

    /// `peer`: the credentials to use instead of the socket's (a replayed connection).
    func accept(_ connection: Connection, peer: PeerCredentials? = nil) {
        guard !shuttingDown else { return connection.close() }
        counters.countAccepted()
        let client = Client(connection: connection, peer: peer)
        clients[client.id] = client
        connection.maxQueuedBytes = configuration.maxQueuedBytes
        connection.maxLineBytes = configuration.maxLineBytes
        connection.onLine = { [unowned self, unowned client] line in self.handleLine(line, from: client) }
        connection.onLineTooLong = { [unowned self, unowned client] in self.lineTooLong(client) }
        connection.onOverflow = { [unowned self, unowned client] in self.overflowed(client) }
        connection.onClose = { [unowned self, unowned client] in self.disconnected(client) }
        guard admit(client) else { return }
        assignRoles(client)
        recordConnect(client)
        log.info("\(client.label) connected")
        serviceStateChanged()
    }

    func disconnected(_ client: Client) {
        guard clients.removeValue(forKey: client.id) != nil else { return }
        broadcaster.remove(client)
        forgetMotionNobodyReports(after: client)
        recordDisconnect(client)
        access.release(client)
        log.info("\(client.label) disconnected")
        ownerQuestions.settleAll(askedOf: client.id, how: "ownerGone")   // its entries leave anyway
        let removed = screens.flatMap { $0.stack.removeAll(ownedBy: client.id, at: now) }
        if !removed.isEmpty { log.info("\(client.label) left; dismissing \(removed.joined(separator: ", "))") }
        publishEvents()
        if shuttingDown && clients.isEmpty { loop.stop() }
    }

    /// The screens whose frames only `client` reported stop keeping their motion history.
    private func forgetMotionNobodyReports(after client: Client) {
        for output in client.shown.keys where !clients.values.contains(where: { $0.shown[output] != nil }) {
            screens.named(output)?.forgetMotionHistory()
        }
    }

    private func lineTooLong(_ client: Client) {
        log.warning("\(client.label) sent a line over \(configuration.maxLineBytes) bytes; closing")
        client.connection.closeAfterFlush(sending: RPCEncoding.error(
            id: nil, .invalidRequest("line exceeds \(configuration.maxLineBytes) bytes")).serializedLine())
    }

    private func overflowed(_ client: Client) {
        log.warning(
            "\(client.label) is not reading: over \(configuration.maxQueuedBytes) bytes of events queued; closing")
        client.connection.closeAfterFlush(
            sending: RPCEncoding.notification(method: "closing", params: ["reason": "backlog"]).serializedLine())
    }

    // MARK: Shutdown

    /// Stops accepting, tells everyone `shutdown`, flushes, removes the socket, stops the loop.
    public func shutdown(reason: String) {
        guard !shuttingDown else { return }
        saveState()   // as it is now: the disconnections that follow must not empty it
        shuttingDown = true
        log.notice("shutting down (\(reason))")
        serviceStopping()
        listener?.close()
        listener = nil
        for screen in screens { screen.close() }
        stopGracePeriod()   // restored entries stay saved for the next start
        for watcher in signalWatchers { watcher.close() }
        signalWatchers.removeAll()
        let notice = RPCEncoding.notification(method: "shutdown", params: ["reason": .string(reason)]).serializedLine()
        for client in clients.values { client.connection.closeAfterFlush(sending: notice) }
        if clients.isEmpty { return loop.stop() }
        // A client that never drains must not hold the daemon up.
        shutdownTimer = try? Timer(loop: loop)
        shutdownTimer?.onFire = { [unowned self] in
            for client in self.clients.values { client.connection.close() }
            self.loop.stop()
        }
        shutdownTimer?.start(after: 2)
    }
}

/// Start-up failures with an operator-readable message.
public enum DaemonError: Error, CustomStringConvertible {
    case unknownGroup(String)
    public var description: String {
        switch self {
        case .unknownGroup(let name): return "no such group: \(name)"
        }
    }
}
