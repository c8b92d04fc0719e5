// SIGHUP: read the configuration file again and apply what can change while serving.
// An invalid file is refused as a whole and the running configuration stays.
//
// What waits for the next start is one list, `ServerConfiguration.restartOnly`
// (ConfigurationEncoding.swift): the socket, the clock, the initial container and screens,
// the state file, and the settings table's restart-only rows (a running daemon's screens
// change by addOutput and removeOutput). The list says both what a reload logs as waiting
// and what it keeps. Everything else is live; a connection's line and queue bounds change
// at once, its roles stay those of its connect().

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
        let changes = fresh.fileJSON.differences(from: old.fileJSON)
        let deferred = changes.filter { change in
            ServerConfiguration.restartOnly.contains { $0.covers(change.path) }
        }
        if !deferred.isEmpty {
            log.notice(
                "reload: \(deferred.map(\.path).joined(separator: ", ")) changed; applies when presentd restarts")
        }

        adopt(reloaded: fresh)
        let next = configuration
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
