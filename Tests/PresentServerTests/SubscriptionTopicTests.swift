// Each subscriber receives exactly the topics it asked for, and unsubscribe takes them away
// (the daemon keeps a client's topics as a bitmask that the fan-out tests per client).

import PresentClient
import PresentJSON
@testable import PresentTestSupport
import Testing

@Suite("Subscription topics")
struct SubscriptionTopicTests {
    @Test func eachSubscriberGetsOnlyItsTopics() throws {
        let daemon = try DaemonHarness(["--clock", "manual"])
        let renderer = try daemon.connect(), watcher = try daemon.connect(), fickle = try daemon.connect()
        try renderer.call("subscribe", ["topics": ["frames"]])
        try watcher.call("subscribe", ["topics": ["lifecycle", "statusBar"]])
        try fickle.call("subscribe", ["topics": ["frames", "lifecycle", "stack"]])
        try fickle.call("unsubscribe", ["topics": ["frames", "stack"]])

        let app = try daemon.connect()
        try app.call("present", ["style": "alert", "statusBar": ["style": "lightContent"],
                                 "transition": ["type": "crossDissolve", "duration": 0.1]])
        try app.call("advance", ["seconds": 0.2])

        func methods(_ client: PresentClient) throws -> Set<String> {
            try client.call("sync", ["nonce": 1])   // everything sent before is read first
            return Set(client.notifications.compactMap { $0["method"]?.stringValue })
        }
        #expect(try methods(renderer) == ["frame"])
        #expect(try methods(watcher) == ["lifecycle", "statusBar"])
        #expect(try methods(fickle) == ["lifecycle"])
    }
}
