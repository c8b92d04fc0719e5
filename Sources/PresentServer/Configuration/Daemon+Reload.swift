// SIGHUP: read the configuration file again and apply what can change while serving.
// An invalid file is refused as a whole and the running configuration stays.
//
// Live: fps, logLevel, dismissPolicy, shouldDismissTimeout, exitIdleTime, limits (new
// requests; line and queue bounds also for connected clients), statusBar, defaults, roles
// (for connections made after the reload: a connection's roles are fixed at connect()).
// At the next start only: socket.path, socket.group, clock, container, outputs, stateFile,
// resumeGrace (a running daemon's screens change by addOutput and removeOutput).

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    /// Reloads the configuration, telling systemd RELOADING=1 … READY=1 around it.
    func reloadConfiguration() {
        guard let source = configuration.source else {
            log.notice("SIGHUP: no configuration source to reload")
            return
        }
        systemd?.reloading()
        defer { systemd?.reloaded() }
        do {
            apply(try source.load())
        } catch {
            log.error("reload refused, keeping the running configuration: \(error.summary)")
        }
    }

    /// Switches to `fresh`, keeping the running values of what needs a restart.
    func apply(_ fresh: ServerConfiguration) {
        let old = configuration
        var next = fresh
        next.socketPath = old.socketPath
        next.socketGroup = old.socketGroup
        next.clock = old.clock
        next.container = old.container
        next.outputs = old.outputs
        next.stateFile = old.stateFile
        next.resumeGrace = old.resumeGrace
        next.inheritedListener = old.inheritedListener
        next.handleSignals = old.handleSignals

        let changes = fresh.fileJSON.differences(from: old.fileJSON)
        let deferred = changes.filter { change in
            ServerConfiguration.restartOnlyPrefixes.contains { change.path.hasPrefix($0) }
        }
        if !deferred.isEmpty {
            log.notice("reload: \(deferred.map(\.path).joined(separator: ", ")) changed; applies when presentd restarts")
        }

        configuration = next
        decoder = RequestDecoder(limits: next.limits, defaults: next.stack)
        for screen in screens { screen.stack.reconfigure(next.stack, at: now) }
        for client in clients.values {
            client.connection.maxLineBytes = next.maxLineBytes
            client.connection.maxQueuedBytes = next.maxQueuedBytes
        }
        if next.fps != old.fps {
            for screen in screens where screen.ownFPS == nil { restartFrames(of: screen) }
        }
        systemd?.cancelIdleExit()  // re-armed below with the new exitIdleTime if still idle
        publishEvents()  // a new base status bar, the idle countdown

        let applied = changes.filter { change in !deferred.contains { $0.path == change.path } }
        let summary = applied.map { "\($0.path) \(Self.text($0.old)) → \(Self.text($0.new))" }
        log.notice("configuration reloaded from \(next.source?.path ?? "defaults")"
                   + (summary.isEmpty ? " (no live changes)" : ": " + summary.joined(separator: ", ")))
    }

    private static func text(_ value: JSONValue?) -> String {
        value.map(\.serializedString) ?? "unset"
    }
}
