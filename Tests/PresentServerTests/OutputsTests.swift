// Several screens against the real daemon: a 120 Hz head unit and a 30 Hz cluster tick
// at their own rates on the manual clock, each screen has its own stack, arbitration,
// taps and subscribers, ids stay unique across them, and removing a screen takes its
// entries along (reason outputGone). Screens defined at start-up, and kept over a restart.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Several screens")
struct OutputsTests {
    static let quick: JSONValue = ["type": "crossDissolve", "duration": 0.2]

    static func frames(_ client: PresentClient, of output: String) -> [JSONValue] {
        client.notifications.filter { $0["method"] == "frame" && $0["params"]?["output"] == .string(output) }
            .compactMap(\.["params"])
    }

    @Test func twoScreensAt120And30FramesPerSecondTickAtTheirOwnRates() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--fps", "120", "--output", "cluster=1280x480@30"])
        let shell = try daemon.connect(), renderer = try daemon.connect()
        let outputs = try shell.call("outputs")["outputs"]
        #expect(outputs?.arrayValue?.map(\.["name"]) == ["main", "cluster"])
        #expect(outputs?.arrayValue?.map(\.["fps"]) == [120, 30])
        #expect(outputs?[0]?["container"] == (try shell.call("hello")["container"]))
        #expect(
            outputs?[1]?["container"]?["width"]?.double == 1280 && outputs?[1]?["container"]?["height"]?.double == 480)
        try renderer.call("subscribe", ["topics": ["frames"]])
        try shell.call("present", ["id": "nav", "style": "alert", "transition": Self.quick])
        try shell.call("present", ["id": "gauge", "style": "alert", "output": "cluster", "transition": Self.quick])
        try shell.call("advance", ["seconds": 0.5])
        try renderer.call("sync", ["nonce": 1])

        let main = Self.frames(renderer, of: "main"), cluster = Self.frames(renderer, of: "cluster")
        // Each screen's frames sit exactly on its own ticks, k/120 and k/30, numbered from 1.
        let mainTicks = main.compactMap { $0["time"]?.double.map { ($0 * 120).rounded() } }
        let clusterTicks = cluster.compactMap { $0["time"]?.double.map { ($0 * 30).rounded() } }
        #expect(main.compactMap(\.["time"]?.double) == mainTicks.map { $0 / 120 })
        #expect(cluster.compactMap(\.["time"]?.double) == clusterTicks.map { $0 / 30 })
        // 0.2 s of transition, the last tick at rest: 24 ticks at 120 Hz, 6 at 30 Hz.
        #expect(mainTicks == (1...24).map(Double.init))
        #expect(clusterTicks == (1...6).map(Double.init))
        #expect(main.compactMap(\.["seq"]?.int64Value) == Array(1...24))
        #expect(cluster.compactMap(\.["seq"]?.int64Value) == Array(1...6))
        #expect(main.last?["animating"] == false && cluster.last?["animating"] == false)
        #expect(
            main.dropLast().allSatisfy { $0["animating"] == true }
                && cluster.dropLast().allSatisfy { $0["animating"] == true })
        // Each draws only its own entry.
        #expect(main.allSatisfy { $0["layers"]?.arrayValue?.allSatisfy { $0["id"] == "nav" } == true })
        #expect(
            cluster.last?["layers"]?.arrayValue?.contains { $0["id"] == "gauge" && $0["role"] == "content" } == true)
        // The cluster's alert is centred in its own 1280×480 container.
        let gauge = try shell.call("stack", ["output": "cluster"])
        #expect(gauge["output"] == "cluster")
        #expect(gauge["entries"]?[0]?["output"] == "cluster")
        #expect(gauge["entries"]?[0]?["frame"]?["x"]?.double.map { $0 > 390 } == true)
        #expect(try shell.call("stack")["entries"]?.arrayValue?.map(\.["id"]) == ["nav"])
    }

    @Test func onTheRealClockEachScreenTicksOnItsOwnPhase() throws {
        let daemon = try DaemonHarness(["--fps", "120", "--output", "cluster=800x400@30"])
        let app = try daemon.connect(), renderer = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames"]])
        try app.call("present", ["id": "gauge", "style": "alert", "output": "cluster", "transition": ["duration": 0.3]])
        var times: [Double] = [], others = 0
        _ = try renderer.awaitNotification("frame") { frame in
            guard frame["output"] == "cluster", let time = frame["time"]?.double else { others += 1; return false }
            times.append(time)
            return frame["animating"] == false
        }
        // However late the loop ran, every frame is of a deadline on the cluster's 1/30 s grid.
        #expect(times.count >= 2 && times.allSatisfy { abs($0 * 30 - ($0 * 30).rounded()) < 1e-6 }, "\(times)")
        #expect(others == 0, "main had nothing to draw")
    }

    @Test func eachScreenHasItsOwnStackTapsAndArbitrationAndIdsAreUniqueAcrossThem() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let shell = try daemon.connect(), app = try daemon.connect()
        let added = try shell.call("addOutput", ["name": "cluster", "width": 800, "height": 400, "fps": 30])
        #expect(added["outputs"]?.arrayValue?.map(\.["name"]) == ["main", "cluster"])
        try app.call("present", ["id": "sheet", "style": "bottomHalf", "transition": ["duration": 1]])
        // A present on the cluster does not queue behind main's transition: arbitration is per screen.
        let gauge = try app.call(
            "present", ["id": "gauge", "style": "alert", "output": "cluster", "transition": Self.quick])
        #expect(gauge["state"] == "presenting")
        // The same id on another screen is refused, naming the field and where it is.
        let duplicate = app.expectError("present", ["id": "gauge", "style": "alert"])
        #expect(duplicate?.code == -32602 && duplicate?.data?["field"] == "id")
        #expect(duplicate?.data?["reason"]?.stringValue?.contains("output \"cluster\"") == true)
        let unknown = app.expectError("tap", ["x": 1, "y": 1, "output": "dash"])
        #expect(unknown?.data?["field"] == "output")
        #expect(unknown?.data?["reason"] == "no output \"dash\"; outputs: \"main\", \"cluster\"")
        try app.call("advance", ["seconds": 1.1])
        // A tap on the cluster's centre hits its alert; main's same point is main's business.
        let hit = try shell.call("tap", ["x": 400, "y": 200, "output": "cluster"])
        #expect(hit["id"] == "gauge" && hit["part"] == "content")
        #expect(try shell.call("tap", ["x": 400, "y": 200])["id"] != "gauge")
        // By-id methods find the screen themselves.
        #expect(try app.call("update", ["id": "gauge", "content": "72 km/h"])["state"] == "presented")
        #expect(try app.call("dismiss", ["id": "gauge", "animated": false])["dismissed"] == ["gauge"])
        // A key goes to the screen named, else to main.
        try app.call("present", ["id": "ask", "style": "alert", "output": "cluster", "content": ["title": "Reroute?"],
                                 "transition": ["duration": 0]])
        try app.call("advance", ["seconds": 0.1])
        #expect(try shell.call("key", ["key": "escape", "output": "cluster"])["id"] == "ask")
    }

    @Test func aSubscriberThatNamesOutputsHearsOnlyThoseScreens() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--output", "cluster=800x400"])
        let app = try daemon.connect(), clusterOnly = try daemon.connect(), everyone = try daemon.connect()
        let snapshot = try clusterOnly.call(
            "subscribe", ["topics": ["frames", "lifecycle", "stack"], "outputs": ["cluster"]])
        #expect(snapshot["snapshot"]?["outputs"]?.arrayValue?.map(\.["name"]) == ["cluster"])
        #expect(snapshot["snapshot"]?["outputs"]?[0]?["container"]?["width"]?.double == 800)
        let all = try everyone.call("subscribe", ["topics": ["lifecycle"]])
        #expect(all["snapshot"]?["outputs"]?.arrayValue?.map(\.["name"]) == ["main", "cluster"])
        try app.call("present", ["id": "nav", "style": "alert", "transition": Self.quick])
        try app.call("present", ["id": "gauge", "style": "alert", "output": "cluster", "transition": Self.quick])
        try app.call("advance", ["seconds": 0.5])
        try clusterOnly.call("sync", ["nonce": 1])
        try everyone.call("sync", ["nonce": 1])
        let heard = clusterOnly.notifications.compactMap { $0["params"]?["output"]?.stringValue }
        #expect(!heard.isEmpty && heard.allSatisfy { $0 == "cluster" }, "\(heard)")
        #expect(
            clusterOnly.notifications.contains {
                $0["method"] == "stack" && $0["params"]?["entries"]?[0]?["id"] == "gauge"
            })
        let lifecycle = everyone.notifications.filter { $0["method"] == "lifecycle" }.compactMap(\.["params"])
        #expect(lifecycle.contains { $0["id"] == "nav" && $0["output"] == "main" && $0["event"] == "didPresent" })
        #expect(lifecycle.contains { $0["id"] == "gauge" && $0["output"] == "cluster" && $0["event"] == "didPresent" })
    }

    @Test func removingAScreenTakesItsEntriesAlongWithReasonOutputGone() throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--check-invariants"])
        let shell = try daemon.connect(), app = try daemon.connect(), watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle", "stack"]])
        try shell.call("addOutput", ["name": "cluster", "width": 800, "height": 400])
        _ = try watcher.awaitNotification("outputs") { $0["outputs"]?.arrayValue?.count == 2 }
        try shell.call(
            "defineContext",
            ["name": "dash", "output": "cluster", "frame": ["x": 0, "y": 0, "width": 400, "height": 400]])
        // Context names are the daemon's: one on the cluster cannot be defined again on main.
        #expect(
            shell.expectError("defineContext", ["name": "dash", "frame": ["x": 0, "y": 0, "width": 10, "height": 10]])?
            .data?["field"] == "name")
        try app.call("present", ["id": "gauge", "style": "alert", "output": "cluster", "transition": Self.quick])
        // A present into a context goes to the screen that holds it.
        try app.call("present", ["id": "speed", "style": "bottomHalf", "context": "dash", "transition": Self.quick])
        try app.call("present", ["id": "nav", "style": "alert", "transition": Self.quick])
        try app.call("advance", ["seconds": 0.1])
        #expect(
            try app.call("stack", ["output": "cluster"])["entries"]?.arrayValue?.map(\.["id"]) == ["gauge", "speed"])

        #expect(shell.expectError("removeOutput", ["name": "main"])?.data?["field"] == "name")
        #expect(shell.expectError("removeOutput", ["name": "dash"])?.data?["field"] == "name")
        let removed = try shell.call("removeOutput", ["name": "cluster"])
        #expect(Set(removed["dismissed"]?.arrayValue ?? []) == ["gauge", "speed"])
        // Their last events come before the reply: the screen is gone once it is answered.
        try watcher.call("sync", ["nonce": 1])
        let gone = watcher.notifications.filter {
            $0["method"] == "lifecycle" && $0["params"]?["event"] == "didDismiss"
        }
            .compactMap(\.["params"])
        #expect(Set(gone.compactMap(\.["id"]?.stringValue)) == ["gauge", "speed"])
        #expect(gone.allSatisfy { $0["reason"] == "outputGone" && $0["output"] == "cluster" })
        #expect(
            watcher.notifications.last { $0["method"] == "outputs" }?["params"]?["outputs"]?.arrayValue?.map(\.["name"])
                == ["main"])
        #expect(try shell.call("outputs")["outputs"]?.arrayValue?.map(\.["name"]) == ["main"])
        #expect(app.expectError("stack", ["output": "cluster"])?.data?["field"] == "output")
        // Main is untouched, and the names are free again.
        #expect(try app.call("stack")["entries"]?.arrayValue?.map(\.["id"]) == ["nav"])
        try shell.call("defineContext", ["name": "dash", "frame": ["x": 0, "y": 0, "width": 10, "height": 10]])
        try app.call("present", ["id": "gauge", "style": "alert", "transition": Self.quick])
        let log = daemon.stderrText
        #expect(!log.contains("invariant broken"), "\(log)")
    }

    @Test func screensComeFromTheConfigurationAndSurviveARestartWithTheirEntries() throws {
        let configuration = #"{"outputs": [{"name": "cluster", "width": 1280, "height": 480, "fps": 30}]}"#
        let daemon = try DaemonHarness(["--resume-grace", "30"], configuration: configuration)
        let shell = try daemon.connect(), app = try daemon.connect()
        let configured = try shell.call("outputs")["outputs"]?[1]
        #expect(
            configured?["name"] == "cluster" && configured?["fps"] == 30
                && configured?["container"]?["height"]?.double == 480)
        try shell.call("addOutput", ["name": "rear", "width": 600, "height": 300])
        try shell.call("setContainer", ["output": "cluster", "width": 1000, "height": 400, "duration": 0])
        let token = try #require(try app.call("hello", ["client": "app"])["resumeToken"]?.stringValue)
        try app.call("present", ["id": "gauge", "style": "alert", "output": "cluster", "transition": ["duration": 0]])
        try app.call("present", ["id": "film", "style": "alert", "output": "rear", "transition": ["duration": 0]])
        try waitUntil("presentd to save both entries", context: { daemon.stateText() }) {
            daemon.stateText().contains("\"film\"") && daemon.stateText().contains("\"gauge\"")
        }
        daemon.stop(signal: SIGKILL)
        try daemon.restart()
        let back = try daemon.connect()
        let outputs = try back.call("outputs")["outputs"]
        #expect(outputs?.arrayValue?.map(\.["name"]) == ["main", "cluster", "rear"])
        #expect(outputs?[1]?["container"]?["width"]?.double == 1000, "the saved container wins over the configured one")
        #expect(outputs?[1]?["fps"] == 30)
        #expect(try back.call("stack", ["output": "cluster"])["entries"]?[0]?["id"] == "gauge")
        #expect(try back.call("stack", ["output": "rear"])["entries"]?[0]?["id"] == "film")
        #expect(
            try back.call("hello", ["resume": .string(token)])["resumed"].map { Set($0.arrayValue ?? []) } == [
                "gauge", "film"
            ])
    }

    /// A state file from before ids were the daemon's could hold one id on two screens: the
    /// first comes back, the other is left out with a line that says why.
    @Test func aStateFileWithOneIDOnTwoScreensBringsBackOneOfThem() throws {
        let daemon = try DaemonHarness(["--resume-grace", "30", "--output", "cluster=800x400@30"])
        let app = try daemon.connect()
        try app.call("present", ["id": "twin-a", "style": "alert", "transition": ["duration": 0]])
        try app.call("present", ["id": "twin-b", "style": "alert", "output": "cluster", "transition": ["duration": 0]])
        try waitUntil("presentd to save both entries", context: { daemon.stateText() }) {
            daemon.stateText().contains("\"twin-a\"") && daemon.stateText().contains("\"twin-b\"")
        }
        daemon.stop()
        try writeFile(daemon.directory + "/presentd-state.json", daemon.stateText().replacing("twin-b", with: "twin-a"))
        try daemon.restart()
        let back = try daemon.connect()
        #expect(try back.call("stack")["entries"]?.arrayValue?.map(\.["id"]) == ["twin-a"])
        #expect(try back.call("stack", ["output": "cluster"])["entries"]?.arrayValue?.isEmpty == true)
        #expect(
            daemon.stderrText.contains(#"not restoring twin-a: output "main" already holds "twin-a""#),
            "\(daemon.stderrText)")
    }

    @Test func badScreenDefinitionsAreRefusedNamingTheField() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let shell = try daemon.connect()
        #expect(shell.expectError("addOutput", ["name": "x", "width": 0, "height": 10])?.data?["field"] == "width")
        #expect(
            shell.expectError("addOutput", ["name": "x", "width": 10, "height": 10, "fps": 500])?.data?["field"]
                == "fps")
        #expect(
            shell.expectError("addOutput", ["name": "x", "width": 10, "height": 10, "duration": 1])?.data?["field"]
                == "duration")
        #expect(shell.expectError("subscribe", ["topics": ["frames"], "outputs": []])?.data?["field"] == "outputs")
        #expect(try shell.call("outputs")["outputs"]?.arrayValue?.count == 1, "nothing was added")
        for n in 1..<16 { try shell.call("addOutput", ["name": .string("s\(n)"), "width": 10, "height": 10]) }
        #expect(shell.expectError("addOutput", ["name": "one-too-many", "width": 10, "height": 10])?.code == -32003)
        // Adding a name that exists changes it in place (a shell that restarts says it again).
        let again = try shell.call("addOutput", ["name": "s1", "width": 20, "height": 10, "fps": 24])
        #expect(again["outputs"]?[1]?["fps"] == 24 && again["outputs"]?[1]?["container"]?["width"]?.double == 20)

        let (status, output) = try DaemonHarness.run(
            DaemonHarness.presentdPath, ["--output", "main=10x10", "--print-config"])
        #expect(status == 2 && output.contains("other than \"main\""), "\(output)")
        let bad = daemon.directory + "/bad.json"
        try writeFile(
            bad, #"{"outputs": [{"name": "cluster", "width": 10}, {"name": "main", "width": 5, "height": 5}]}"#)
        let (checked, report) = try DaemonHarness.run(DaemonHarness.presentdPath, ["--check-config", bad])
        #expect(checked == 1)
        #expect(report.contains("outputs[0].height"), "\(report)")
        #expect(report.contains("outputs[1].name"), "\(report)")
    }
}

/// Random sessions over several screens against the real daemon, with --check-invariants:
/// screens come and go, entries are presented, dismissed, tapped and re-laid out on random
/// screens, contexts are defined on them. After every step each screen's stack keeps the
/// core's invariants (the daemon logs any it breaks), every entry is listed on exactly one
/// screen and names it, and no screen that was removed still holds anything.
@Suite("Several screens, at random")
struct RandomOutputsTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 2685821657736338717
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func invariantsHoldAcrossScreens(seed: UInt64) throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--check-invariants", "--fps", "30"])
        let shell = try daemon.connect(), app = try daemon.connect()
        var g = Generator(state: 0x9E3779B97F4A7C15 &* seed)
        let names = ["main", "cluster", "rear"]
        var outputs: Set<String> = ["main"]
        var presented = 0
        for step in 0..<150 {
            let output = names.randomElement(using: &g)!
            let id = "e\(Int.random(in: 0..<12, using: &g))"
            switch Int.random(in: 0..<10, using: &g) {
            case 0:
                _ = try? shell.call(
                    "addOutput",
                    [
                        "name": .string(output), "width": .double(Double.random(in: 200...1400, using: &g)),
                        "height": .double(Double.random(in: 200...900, using: &g)), "fps": 30
                    ])
            case 1 where output != "main":
                _ = try? shell.call("removeOutput", ["name": .string(output)])
            case 2, 3, 4:
                let level = ["normal", "overlay", "alert"].randomElement(using: &g)!
                var params: JSONObject = ["id": .string(id), "style": level == "overlay" ? "popup" : "alert",
                                          "level": .string(level), "output": .string(output),
                                          "transition": ["duration": .double(Double.random(in: 0...0.5, using: &g))]]
                if Bool.random(using: &g) { params["output"] = nil }
                if (try? app.call("present", .object(params))) != nil { presented += 1 }
            case 5:
                _ = try? app.call("dismiss", ["id": .string(id)])
            case 6:
                _ = try? shell.call("tap", ["x": .double(Double.random(in: 0...800, using: &g)),
                        "y": .double(Double.random(in: 0...800, using: &g)), "output": .string(output)
                    ])
            case 7:
                _ = try? shell.call("setContainer", ["width": .double(Double.random(in: 200...1400, using: &g)),
                                                     "height": .double(Double.random(in: 200...900, using: &g)),
                                                     "output": .string(output)])
            case 8:
                _ = try? shell.call("defineContext", ["name": "ctx", "output": .string(output),
                                                      "frame": ["x": 0, "y": 0, "width": 200, "height": 200]])
            default:
                try app.call("advance", ["seconds": .double(Double.random(in: 0...0.3, using: &g))])
            }
            outputs = Set(try shell.call("outputs")["outputs"]?.arrayValue?.compactMap(\.["name"]?.stringValue) ?? [])
            #expect(outputs.contains("main"), "step \(step): main is always there")
            var seen: [String: String] = [:]
            for name in outputs {
                for entry in try shell.call("stack", ["output": .string(name)])["entries"]?.arrayValue ?? [] {
                    let entryID = entry["id"]?.stringValue ?? "?"
                    #expect(seen[entryID] == nil, "step \(step): \(entryID) on \(seen[entryID] ?? "") and \(name)")
                    #expect(entry["output"] == .string(name), "step \(step): \(entryID) listed on \(name)")
                    seen[entryID] = name
                }
            }
            for gone in Set(names).subtracting(outputs) {
                #expect(shell.expectError("stack", ["output": .string(gone)])?.data?["field"] == "output")
            }
        }
        // (Many presents are refused on purpose: ids taken on another screen, screens gone.)
        #expect(presented > 10, "the session presented \(presented) entries")
        let log = daemon.stderrText
        #expect(!log.contains("invariant broken"), "\(log)")
    }

    /// Generated ids over several screens, where they once collided: four clients present without ids on
    /// random screens, some dismiss by id, and one at a time they leave. Every id is listed
    /// once across screens; a dismissal takes the entry it names and nothing else; a client
    /// that leaves takes exactly its own entries, whatever other screens hold.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func generatedIDsAreTheDaemonsAndALeavingClientTakesExactlyItsOwn(seed: UInt64) throws {
        let daemon = try DaemonHarness(["--clock", "manual", "--check-invariants", "--fps", "30"])
        let shell = try daemon.connect()
        var g = Generator(state: 0x9E3779B97F4A7C15 &* (seed + 100))
        let names = ["main", "cluster", "rear"]
        for name in names.dropFirst() {
            try shell.call("addOutput", ["name": .string(name), "width": 800, "height": 600, "fps": 30])
        }
        var clients: [PresentClient?] = try (0..<4).map { _ in try daemon.connect() }
        var owned: [[String: String]] = Array(repeating: [:], count: clients.count)   // per client: id → output
        var given: Set<String> = []

        /// Every screen's entries, each listed once, as id → output.
        func listing(_ step: String) throws -> [String: String] {
            var seen: [String: String] = [:]
            for name in names {
                for entry in try shell.call("stack", ["output": .string(name)])["entries"]?.arrayValue ?? [] {
                    let id = entry["id"]?.stringValue ?? "?"
                    #expect(seen[id] == nil, "\(step): \(id) is listed on \(seen[id] ?? "") and on \(name)")
                    seen[id] = name
                }
            }
            return seen
        }
        func expectExactly(_ step: String) throws {
            try shell.call("advance", ["seconds": 1])   // every transition out has ended
            let expected = owned.reduce(into: [:]) { all, mine in all.merge(mine) { a, _ in a } }
            #expect(try listing(step) == expected, "\(step)")
        }

        for round in 0..<3 {
            for step in 0..<40 {
                let who = Int.random(in: 0..<clients.count, using: &g)
                guard let client = clients[who] else { continue }
                if Int.random(in: 0..<5, using: &g) == 0, let (id, output) = owned[who].randomElement(using: &g) {
                    // The entry and those above it on its own screen (UIKit's rule), when the
                    // policy lets this client dismiss them all; else nothing.
                    guard let result = try? client.call("dismiss", ["id": .string(id)]) else { continue }
                    let dismissed = result["dismissed"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    #expect(dismissed.first == id, "round \(round) step \(step): dismissing \(id) took \(dismissed)")
                    for gone in dismissed {
                        let holder = owned.firstIndex { $0[gone] != nil }
                        #expect(holder.flatMap { owned[$0][gone] } == output,
                            "round \(round) step \(step): dismissing \(id) on \(output) took \(gone) of another screen")
                        if let holder { owned[holder][gone] = nil }
                    }
                } else {
                    let output = names.randomElement(using: &g)!
                    let level = ["normal", "overlay", "alert"].randomElement(using: &g)!
                    let result = try client.call(
                        "present",
                        [
                            "style": level == "overlay" ? "popup" : "alert", "level": .string(level),
                            "output": .string(output), "transition": ["duration": 0.1]
                        ])
                    let id = try #require(result["id"]?.stringValue)
                    #expect(!given.contains(id), "round \(round) step \(step): \(id) was given before")
                    given.insert(id)
                    owned[who][id] = output
                }
                try expectExactly("round \(round) step \(step)")
            }
            // One client leaves (and a new one takes its place): exactly its entries go.
            let leaving = Int.random(in: 0..<clients.count, using: &g)
            clients[leaving] = nil
            owned[leaving] = [:]
            // The daemon reads the close when it reads it: wait for the entries to be gone,
            // letting the manual clock end their transitions out meanwhile.
            try waitUntil("client \(leaving)'s entries to leave after it disconnected") {
                try shell.call("advance", ["seconds": 1])
                return try Set(listing("leave").keys) == Set(owned.flatMap(\.keys))
            }
            try expectExactly("round \(round): client \(leaving) left")
            clients[leaving] = try daemon.connect()
        }
        #expect(given.count > 60, "the session presented \(given.count) entries")
        #expect(!daemon.stderrText.contains("invariant broken"), "\(daemon.stderrText)")
    }

    /// A newcomer's transcript: one generated id per screen, and dismissing
    /// main's takes main's alone.
    @Test func aDismissalByGeneratedIDTakesOneEntryOnOneScreen() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let shell = try daemon.connect(), app = try daemon.connect()
        try shell.call("addOutput", ["name": "ext", "width": 1280, "height": 480])
        let first = try app.call("present", ["style": "alert", "content": ["title": "Main one"]])["id"]
        let second = try app.call("present", ["style": "alert", "content": ["title": "Ext one"], "output": "ext"])["id"]
        #expect(first != second)
        try app.call("dismiss", ["id": try #require(first)])
        try app.call("advance", ["seconds": 1])
        #expect(try shell.call("stack")["entries"]?.arrayValue?.isEmpty == true)
        #expect(try shell.call("stack", ["output": "ext"])["entries"]?.arrayValue?.map(\.["id"]) == [second])
        #expect(try shell.call("explain", ["id": try #require(second)])["output"] == "ext")
    }
}

/// Right to left against the daemon: a screen's layout direction comes with its container
/// (setContainer, addOutput), is reported in hello and outputs, and frames carry the
/// resolved geometry of a leading panel.
@Suite("Layout direction, against the daemon")
struct LayoutDirectionIntegrationTests {
    @Test func aLeadingPanelSitsOnTheRightOfARightToLeftScreen() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let shell = try daemon.connect(), app = try daemon.connect()
        #expect(try shell.call("hello")["container"]?["layoutDirection"] == "leftToRight")
        try shell.call("addOutput", ["name": "souk", "width": 800, "height": 600, "layoutDirection": "rightToLeft"])
        #expect(try shell.call("outputs")["outputs"]?[1]?["container"]?["layoutDirection"] == "rightToLeft")
        let style: JSONValue = ["type": "slideIn", "direction": "leading", "fraction": 0.25]
        try app.call("present", ["id": "nav", "style": style, "output": "souk"])
        try app.call("present", ["id": "nav-main", "style": style])
        try app.call("advance", ["seconds": 1])
        let souk = try shell.call("stack", ["output": "souk"])["entries"]?[0]
        #expect(souk?["frame"]?["x"]?.double == 600 && souk?["style"]?["direction"] == "leading")
        #expect(try shell.call("stack")["entries"]?[0]?["frame"]?["x"]?.double == 0)
        // main turns right to left: its panel moves to the right edge.
        try shell.call("setContainer", ["width": 390, "height": 844, "layoutDirection": "rightToLeft", "duration": 0])
        #expect(try shell.call("stack")["entries"]?[0]?["frame"]?["x"]?.double == 390 - 97.5)
        #expect(
            shell.expectError("setContainer", ["width": 390, "height": 844, "layoutDirection": "upward"])?.data?[
                "field"]
                == "layoutDirection")
        #expect(
            app.expectError("present", ["style": ["type": "slideIn", "direction": "inward"]])?.data?["field"]
                == "style.direction")
    }
}
