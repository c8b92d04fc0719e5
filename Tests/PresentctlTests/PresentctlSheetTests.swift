// presentctl's sheets, as apps use them: present's sheet flags (--detents, --detent, --grabber,
// --undimmed-detent) become a sheet style the daemon keeps, `update --detent` moves the
// sheet (detentChanged), their errors name the flag, and `mode reduced-motion on|off`
// sets the screen's reduced motion, which the next transition shows.

import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("presentctl: sheets and reduced motion")
struct PresentctlSheetTests {
    static func presentctl(_ daemon: DaemonHarness, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try PresentctlToastTests.run(daemon, arguments)
    }

    @Test func sheetFlagsMakeASheetAndUpdateMovesItBetweenDetents() throws {
        let daemon = try DaemonHarness()   // the real clock: --hold returns once presented
        let watcher = try daemon.connect()
        try watcher.call("subscribe", ["topics": ["lifecycle"]])
        let (status, reply) = try Self.presentctl(daemon, [
            "present", "--id", "s", "--detents", "medium,large,peek=120,half=40%", "--detent", "peek",
            "--undimmed-detent", "medium", "--grabber", "--hold"])
        #expect(status == 0 && reply.contains(#""id":"s""#), "presentctl present --detents … --hold: \(reply)")
        let entry = try PresentctlToastTests.onlyEntry(watcher, "the sheet")
        let expected: JSONValue = ["medium", "large", ["id": "peek", "height": 120.0], ["id": "half", "height": "40%"]]
        #expect(entry["style"]?["type"] == "sheet" && entry["style"]?["detents"] == expected, "\(entry)")
        #expect(entry["style"]?["selectedDetent"] == "peek" && entry["style"]?["largestUndimmedDetent"] == "medium"
                && entry["style"]?["grabber"] == true, "\(entry)")
        #expect(entry["detent"] == "peek" && entry["frame"]?["height"] == 120.0, "\(entry)")

        let (moved, answer) = try Self.presentctl(daemon, ["update", "s", "--detent", "large"])
        #expect(moved == 0, "presentctl update s --detent large: \(answer)")
        let changed = try #require(try watcher.awaitNotification("lifecycle") { $0["event"] == "detentChanged" })
        #expect(changed["id"] == "s" && changed["detent"] == "large", "\(changed)")
        #expect(try watcher.call("stack")["entries"]?[0]?["detent"] == "large")

        // A detent the sheet does not have: the daemon refuses selectedDetent, presentctl names --detent.
        let (refused, message) = try Self.presentctl(daemon, ["update", "s", "--detent", "tiny"])
        #expect(
            refused == 2 && message.contains("presentctl: --detent: ") && message.contains(#""tiny""#), "\(message)")
        #expect(try Self.presentctl(daemon, ["dismiss", "s"]).status == 0)
    }

    /// `--style sheet` with the flags is a sheet too; the flags with another style are a usage
    /// error naming them; a malformed detent names --detents; the daemon's refusals name the flag.
    @Test(arguments: [
            (
                ["present", "--style", "popup", "--grabber"],
                "presentctl: --grabber makes a sheet: leave --style out, or give --style sheet"
            ),
        (["present", "--detents", "medium", "--detent", "medium", "--style", "alert"],
         "presentctl: --detent, --detents make a sheet"),
            (
                ["present", "--detents", "medium,small"],
                #"presentctl: --detents: "small" is not medium, large or ID=HEIGHT"#
            ),
        (["present", "--detents", "peek="], #"presentctl: --detents: "peek=" is not medium, large or ID=HEIGHT"#),
        (["present", "--detents", "medium,large", "--detent", "nope"], "presentctl: --detent: "),
        (["present", "--detents", "peek=tall"], "presentctl: --detents: "),
        (["present", "--detents", "medium", "--undimmed-detent", "large"], "presentctl: --undimmed-detent: "),
        (["present", "--grabber=yes"], "presentctl: --grabber takes no value"),
        (["update", "s", "--detents", "medium"], #"update: unknown option "--detents""#),
        (["mode", "reduced-motion", "maybe"], #"presentctl: mode reduced-motion takes on or off, not "maybe""#),
        (["mode", "reduced-motion"], "presentctl: mode reduced-motion takes on or off, not nothing"),
        (["mode", "dnd"], #"presentctl: mode takes reduced-motion on|off, not "dnd""#),
        (["mode", "reduced-motion", "on", "now"], #"presentctl: mode reduced-motion on: unexpected "now""#),
    ] as [([String], String)])
    func sheetAndModeUsageErrorsNameWhatWasTyped(arguments: [String], message: String) throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let (status, output) = try Self.presentctl(daemon, arguments)
        #expect(status == 2, "presentctl \(arguments) exited \(status): \(output)")
        #expect(output.contains(message), "presentctl \(arguments): \(output)")
    }

    @Test func styleSheetAloneRestsAtLarge() throws {
        let daemon = try DaemonHarness()
        let watcher = try daemon.connect()
        let (status, reply) = try Self.presentctl(daemon, ["present", "--id", "plain", "--style", "sheet", "--grabber",
                                                           "--hold"])
        #expect(status == 0, "presentctl present --style sheet --grabber --hold: \(reply)")
        let entry = try PresentctlToastTests.onlyEntry(watcher, "the sheet")
        #expect(entry["detent"] == "large" && entry["style"]?["grabber"] == true, "\(entry)")
        #expect(try Self.presentctl(daemon, ["dismiss", "plain"]).status == 0)
    }

    /// `mode reduced-motion on --output NAME` holds on that screen only (`mode` reports it),
    /// and a transition that starts there is a cross-fade where the entry rests; `off` ends it.
    @Test func modeReducedMotionOnAndOffPerScreen() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let shell = try daemon.connect()
        try shell.call("addOutput", ["name": "side", "width": 800, "height": 600])
        try shell.call("subscribe", ["topics": ["lifecycle"]])
        let (status, on) = try Self.presentctl(daemon, ["mode", "reduced-motion", "on", "--output", "side"])
        let modes = try JSONValue.parse(on)
        #expect(status == 0 && modes["output"] == "side" && modes["reducedMotion"] == true, "\(on)")
        let (_, side) = try Self.presentctl(daemon, ["mode", "--output", "side"])
        #expect(try JSONValue.parse(side)["reducedMotion"] == true, "presentctl mode --output side: \(side)")
        let (_, main) = try Self.presentctl(daemon, ["mode"])
        #expect(try JSONValue.parse(main)["reducedMotion"] == false, "main keeps full motion: \(main)")

        // Presented with a slide up: on "side" it fades in where it rests.
        func firstMotion(_ id: String, on output: String) throws -> JSONValue {
            try shell.call("present", ["id": .string(id), "style": "bottomHalf", "output": .string(output),
                                       "transition": ["type": "coverVertical", "duration": 0.3]])
            let event = try #require(try shell.awaitNotification("lifecycle") {
                $0["event"] == "willPresent" && $0["id"] == .string(id)
            })
            return try #require(event["animation"])
        }
        let faded = try firstMotion("quiet", on: "side")
        #expect(faded["from"]?["frame"] == faded["to"]?["frame"] && faded["from"]?["alpha"] == 0.0, "\(faded)")
        let (offStatus, off) = try Self.presentctl(daemon, ["mode", "reduced-motion", "off", "--output", "side"])
        let modesAfter = try JSONValue.parse(off)
        #expect(offStatus == 0 && modesAfter["reducedMotion"] == false, "\(off)")
        try shell.call("advance", ["seconds": 1])
        let slid = try firstMotion("moving", on: "side")
        #expect(slid["from"]?["frame"] != slid["to"]?["frame"], "full motion again: it slides: \(slid)")
    }
}
