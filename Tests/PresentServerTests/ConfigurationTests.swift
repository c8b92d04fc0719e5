// The configuration file reader and the order of precedence, in process: defaults, then the
// file, then flags; --socket, then $PRESENTD_SOCKET, then the file, then the default path.

#if canImport(Glibc)
import Glibc
#endif
import PresentCore
import PresentJSON
import PresentProtocol
@testable import PresentTestSupport
import Testing
@testable import PresentServer

@Suite("Configuration")
struct ConfigurationTests {
    private func read(_ text: String) throws -> (ServerConfiguration, [ConfigurationIssue], socket: String?) {
        var configuration = ServerConfiguration()
        var reader = ConfigurationFileReader()
        reader.read(try JSONValue.parse(text), into: &configuration)
        return (configuration, reader.issues, reader.socketPath)
    }

    @Test func everySectionIsRead() throws {
        let (c, issues, socket) = try read("""
            {"$comment": "x", "socket": {"path": "/run/x.sock", "group": "video"}, "fps": 120, "clock": "manual",
             "logLevel": "debug", "dismissPolicy": "anyone", "shouldDismissTimeout": 2.5, "exitIdleTime": 30,
             "limits": {"maxConnections": 10, "maxEntries": 20, "maxEntriesPerClient": 4, "maxBatch": 8,
                        "maxLineBytes": 4096, "maxQueuedBytes": 65536, "maxDuration": 5, "maxNameLength": 32},
             "container": {"width": 1024, "height": 768, "safeArea": {"top": 20}, "scale": 2,
                           "verticalSizeClass": "compact"},
             "statusBar": {"style": "darkContent", "hidden": true},
             "defaults": {"transition": {"duration": 0.2, "timing": "linear"}, "containerChange": {"timing": "easeOut"},
                          "keyboard": {"duration": 0.1},
                          "swipe": {"completionFraction": 0.3, "velocityThreshold": 500}}}
            """)
        #expect(issues.isEmpty)
        #expect(socket == "/run/x.sock" && c.socketGroup == "video")
        #expect(c.fps == 120 && c.clock == .manual && c.log.level == .debug && c.dismissPolicy == .anyone)
        #expect(c.shouldDismissTimeout == 2.5 && c.exitIdleTime == 30)
        #expect(c.maxConnections == 10 && c.maxEntries == 20 && c.maxEntriesPerClient == 4 && c.maxBatch == 8)
        #expect(c.maxLineBytes == 4096 && c.maxQueuedBytes == 65536)
        #expect(c.limits.maxDuration == 5 && c.limits.maxNameLength == 32)
        #expect(c.container.size == Size(width: 1024, height: 768) && c.container.safeArea.top == 20)
        #expect(c.container.scale == 2 && c.container.verticalSizeClass == .compact)
        #expect(c.container.horizontalSizeClass == .regular)  // derived from the size
        #expect(c.stack.baseStatusBar == StatusBarAppearance(style: .darkContent, hidden: true))
        #expect(c.stack.transitionDuration == 0.2 && c.stack.transitionTiming == .linear)
        #expect(c.stack.containerChangeTiming == .easeOut && c.stack.keyboardDuration == 0.1)
        #expect(c.stack.swipeCompletionFraction == 0.3 && c.stack.swipeVelocityThreshold == 500)
    }

    @Test func everyProblemIsReportedAndLeavesItsSettingAlone() throws {
        let (c, issues, _) = try read(
            #"{"fps": 0, "clock": "sundial", "limits": {"maxEntries": 2.5}, "defaults": {"swipe": 1}}"#)
        #expect(issues.map(\.field) == ["fps", "clock", "limits.maxEntries", "defaults.swipe"])
        #expect(c.fps == 60 && c.clock == .monotonic && c.maxEntries == 256)
        let (_, notAnObject, _) = try read("[1]")
        #expect(notAnObject.map(\.description) == ["expected a JSON object, got array"])
    }

    @Test func limitsThatContradictEachOtherAreRefusedButASmallerMaxEntriesAloneIsFollowed() throws {
        let (_, both, _) = try read(#"{"limits": {"maxEntries": 8, "maxEntriesPerClient": 9}}"#)
        #expect(both.map(\.field) == ["limits.maxEntriesPerClient"])
        let (alone, none, _) = try read(#"{"limits": {"maxEntries": 8}}"#)
        #expect(none.isEmpty && alone.maxEntriesPerClient == 8)
        let (_, tooLong, _) = try read(#"{"limits": {"maxDuration": 1}, "defaults": {"keyboard": {"duration": 2}}}"#)
        #expect(tooLong.map(\.field) == ["defaults.keyboard.duration"])
    }

    @Test func flagsOverrideTheFileAndTheSocketComesFromFlagThenEnvironmentThenFile() throws {
        let file = try TemporaryFile(contents: #"{"fps": 30, "socket": {"path": "/from/file.sock"}}"#)
        var source = ConfigurationSource(path: file.path, overrides: [{ $0.fps = 90 }])
        let none: (String) -> String? = { _ in nil }
        let env: (String) -> String? = {
            $0 == "PRESENTD_SOCKET" ? "/from/env.sock" : $0 == "XDG_RUNTIME_DIR" ? "/run/user/1" : nil
        }
        #expect(try source.load(environment: none).fps == 90)
        #expect(try source.load(environment: none).socketPath == "/from/file.sock")
        #expect(try source.load(environment: env).socketPath == "/from/env.sock")
        source.socketOverride = "/from/flag.sock"
        #expect(try source.load(environment: env).socketPath == "/from/flag.sock")
        var missing = ConfigurationSource(path: file.path + ".missing")
        missing.isExplicit = false
        #expect(try missing.load(environment: { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1" : nil }).socketPath
                == "/run/user/1/presentd/presentd.sock")
    }

    @Test func aMissingDefaultFileMeansTheDefaultsAndAMissingExplicitFileIsAnError() throws {
        var implicit = ConfigurationSource(path: "/nonexistent/presentd.json")
        implicit.isExplicit = false
        let loaded = try implicit.load(environment: { _ in nil })
        #expect(loaded.fps == 60 && loaded.source?.fileWasRead == false)
        #expect(loaded.socketPath == "/run/presentd/presentd.sock")
        let explicit = ConfigurationSource(path: "/nonexistent/presentd.json")
        #expect(throws: ConfigurationError.self) { try explicit.load() }
        #expect(ConfigurationSource(path: nil).path == ConfigurationSource.defaultPath)
        #expect(ConfigurationSource(path: nil).isExplicit == false)
    }

    @Test func printedConfigurationsDifferSettingBySetting() {
        var a = ServerConfiguration(), b = ServerConfiguration()
        b.fps = 120
        b.stack.transitionTiming = .bezier(CubicBezier(x1: 0.1, y1: 0, x2: 0.2, y2: 1))
        b.socketGroup = "video"
        let changes = b.fileJSON.differences(from: a.fileJSON)
        #expect(changes.map(\.path) == ["socket.group", "fps", "defaults.transition.timing"])
        a = b
        #expect(b.fileJSON.differences(from: a.fileJSON).isEmpty)
    }

    /// Every row of the settings table, at each end of its bounds and past them: the file
    /// reads it under its key, `--print-config` writes it back there, and a value out of
    /// bounds is refused naming the field. One table, so no spelling or bound can differ.
    @Test func everySettingOfTheTableReadsAndPrintsUnderItsOwnKey() throws {
        for setting in ServerConfiguration.settings {
            let (low, high, outside): (JSONValue, JSONValue, JSONValue) = switch setting.value {
            case .int(_, let r): (.int(Int64(r.lowerBound)), .int(Int64(r.upperBound)), .int(Int64(r.upperBound) + 1))
            case .double(_, let r): (.double(r.lowerBound), .double(r.upperBound), .double(r.upperBound + 1))
            case .bool: (false, true, "on")   // the file says true or false; the flag says on or off
            case .names(let names): (.string(names.example), .string(names.choices?.last ?? names.example), "")
            }
            func file(_ value: JSONValue) -> String {
                // One limit is bounded by another too: that one is at its largest.
                let member: JSONValue = setting.name == "maxEntriesPerClient"
                    ? [setting.name: value, "maxEntries": 65536] : [setting.name: value]
                return (setting.section.map { [$0: member] as JSONValue } ?? member).serializedString
            }
            for value in [low, high] {
                let (c, issues, _) = try read(file(value))
                // (A small maxDuration contradicts the default durations: crossCheck's business.)
                #expect(
                    !issues.contains { $0.field == setting.key },
                    "\(setting.key) = \(value.serializedString): \(issues)")
                let printed = setting.section.map { c.fileJSON[$0]?[setting.name] } ?? c.fileJSON[setting.name]
                #expect(
                    printed == value || printed?.double == value.double,
                    "\(setting.key) printed as \(printed?.serializedString ?? "nothing")")
                if setting.inHello {
                    #expect(c.helloLimits[setting.name]?.double == value.double, "\(setting.key) in hello")
                }
            }
            let (_, issues, _) = try read(file(outside))
            #expect(issues.map(\.field) == [setting.key], "\(setting.key) out of bounds: \(issues)")
            if let flag = setting.flag, case .names(let names) = setting.value {
                #expect(setting.parse(names.example) != nil && setting.parse("") == nil, "\(flag) \(names.example)")
            } else if let flag = setting.flag, case .bool = setting.value {
                #expect(
                    setting.parse("on") != nil && setting.parse("off") != nil && setting.parse("true") == nil,
                    "\(flag) on|off")
            } else if let flag = setting.flag {
                #expect(setting.parse(high.serializedString) != nil, "\(flag) \(high.serializedString)")
                #expect(setting.parse(outside.serializedString) == nil, "\(flag) \(outside.serializedString)")
            }
        }
    }

    /// A reload takes every live change and keeps the running value of each member only a
    /// start applies, and logs those as waiting: one list says both. Here every
    /// restart-only member differs, and so do every row of the settings table and a live
    /// member outside it; the members that must wait are spelled out, not read from the list.
    @Test func aReloadKeepsExactlyWhatOnlyAStartApplies() throws {
        var running = ServerConfiguration()
        running.inheritedListener = 3
        running.handleSignals = false
        running.clock = .manual
        var fresh = ServerConfiguration()
        for setting in ServerConfiguration.settings {
            switch setting.value {
            case .int(let path, let r):
                fresh[keyPath: path] = running[keyPath: path] == r.upperBound ? r.lowerBound : r.upperBound
            case .double(let path, let r):
                fresh[keyPath: path] = running[keyPath: path] == r.upperBound ? r.lowerBound : r.upperBound
            case .bool(let path): fresh[keyPath: path] = !running[keyPath: path]
            case .names(let names):   // another name than the running one
                let other =
                    (names.choices ?? [names.example]).first { .string($0) != setting.json(in: running) }
                    ?? names.example
                setting.parse(other)?(&fresh)
            }
        }
        fresh.socketPath = "/run/elsewhere.sock"
        fresh.socketGroup = "video"
        fresh.container = Container(size: Size(width: 1024, height: 768))
        fresh.stateFile = .none
        fresh.outputs = [OutputDefinition(name: "cluster", container: ContainerChange(width: 800, height: 480))]
        fresh.dismissPolicy = .anyone

        let changes = Set(fresh.fileJSON.differences(from: running.fileJSON).map(\.path))
        let mustWait = changes.filter { $0.hasPrefix("container.") }
            .union(["socket.path", "socket.group", "clock", "stateFile", "outputs", "resumeGrace", "reducedMotion"])
        #expect(mustWait.isSubset(of: changes) && mustWait.count > 6, "the test changes every restart-only member")

        let next = running.reloaded(with: fresh)
        let kept = Set(next.fileJSON.differences(from: fresh.fileJSON).map(\.path))
        let taken = Set(next.fileJSON.differences(from: running.fileJSON).map(\.path))
        #expect(kept == mustWait, "every restart-only value keeps running")
        #expect(taken == changes.subtracting(mustWait), "every live change is taken")
        #expect(
            changes.allSatisfy { path in
                ServerConfiguration.restartOnly.contains { $0.covers(path) } == mustWait.contains(path)
            },
                "a reload logs as waiting exactly what it keeps")
        #expect(next.inheritedListener == 3 && !next.handleSignals, "what the process was started with stays")

        // Through the daemon: its clock and socket never change while it runs.
        let daemon = try Daemon(configuration: running)
        daemon.apply(fresh)
        #expect(daemon.configuration.clock == .manual && daemon.configuration.socketPath == running.socketPath)
        #expect(daemon.configuration.fps == fresh.fps && daemon.configuration.dismissPolicy == .anyone)
        #expect(daemon.decoder.limits.maxOutputs == fresh.limits.maxOutputs, "the decoder follows the reload")
    }

    @Test func theFormerSpellingOfMaxConnectionsPerUidIsStillRead() throws {
        let (c, issues, _) = try read(#"{"limits": {"maxConnectionsPerUID": 7}}"#)
        #expect(issues.isEmpty && c.maxConnectionsPerUID == 7)
        #expect(c.fileJSON["limits"]?["maxConnectionsPerUid"] == 7, "printed in the spelling hello uses")
        #expect(c.helloLimits["maxConnectionsPerUid"] == 7)
    }

    @Test func lineAndColumnCountFromOne() {
        let text = Array("{\n  \"a\": x}".utf8)
        #expect(ConfigurationSource.lineAndColumn(of: 0, in: text) == "line 1, column 1")
        #expect(ConfigurationSource.lineAndColumn(of: 9, in: text) == "line 2, column 8")
    }
}

/// A file under /tmp with the given contents, removed afterwards.
private final class TemporaryFile {
    let path: String
    init(contents: String) throws {
        var template = Array("/tmp/presentd-config-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw HarnessError.setup("mkstemp failed") }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = contents.withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }
    deinit { unlink(path) }
}
