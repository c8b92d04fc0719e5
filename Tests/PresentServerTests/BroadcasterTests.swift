// The Broadcaster's index of subscribers by topic stays what the clients' subscriptions
// say through any order of subscribe, unsubscribe and disconnect, and a message reaches
// exactly the subscribers of its topic that watch its screen (and, for an entry's
// lifecycle, its owner or whoever hears every lifecycle). The frame clock's bookkeeping:
// which ticks owe a frame.

import Glibc
@testable import PresentTestSupport
import Testing
@testable import PresentServer
import PresentProtocol

@Suite("Broadcaster and frame clock")
struct BroadcasterTests {
    /// A client over a socketpair; the far end, non-blocking, reads what it was sent.
    final class Peer {
        let client: Client
        let far: Int32

        init(loop: EventLoop) throws {
            var fds: [Int32] = [-1, -1]
            #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &fds) == 0)
            _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
            client = Client(connection: try Connection(loop: loop, fd: fds[0]))
            far = fds[1]
        }

        /// The lines that arrived since the last call.
        func lines() -> [String] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(far, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n <= 0 { break }
                bytes += chunk[..<n]
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
    }

    /// Each topic has its own member list, in the topics' order.
    @Test func everyTopicHasItsOwnSlotInOrder() {
        #expect(Topic.allCases.map(\.slot) == Array(0..<Topic.allCases.count))
    }

    @Test func theIndexFollowsEverySubscriptionChangeAndMessagesGoToTheirTopicAlone() throws {
        let loop = try EventLoop()
        let broadcaster = Broadcaster()
        let peers = try (0..<6).map { _ in try Peer(loop: loop) }
        var rng = SystemRandomNumberGenerator()
        var expected: [UInt64: Set<Topic>] = [:]   // the model: what each client hears
        var gone: Set<UInt64> = []
        for step in 0..<400 {
            let peer = peers.randomElement(using: &rng)!
            let id = peer.client.id
            guard !gone.contains(id) else { continue }
            let topics = Array(Topic.allCases.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng)))
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                broadcaster.subscribe(peer.client, to: topics, outputs: nil)
                expected[id, default: []].formUnion(topics)
            case 5..<9:
                broadcaster.unsubscribe(peer.client, from: topics)
                expected[id, default: []].subtract(topics)
            default:
                broadcaster.remove(peer.client)
                expected[id] = nil
                gone.insert(id)
            }
            for other in peers {
                let hears = expected[other.client.id] ?? []
                #expect(Topic.allCases.filter(other.client.topics.contains) == Topic.allCases.filter(hears.contains),
                        "step \(step): client \(other.client.id)")
            }
            #expect(broadcaster.subscriberCount == expected.values.filter { !$0.isEmpty }.count, "step \(step)")
            for topic in Topic.allCases {
                #expect(
                    broadcaster.isWatched(topic) == expected.values.contains { $0.contains(topic) },
                    "step \(step) \(topic)")
            }
        }
        // Every topic once: each peer gets the ones it hears, in order, numbered across topics.
        for peer in peers { _ = peer.lines() }
        var made = 0
        for topic in Topic.allCases where topic != .frames {
            broadcaster.broadcast(topic, method: topic.rawValue, output: nil, owner: nil) { made += 1; return ["n": 1] }
        }
        broadcaster.broadcastFrame(of: "main") { made += 1; return Array("{\"frame\":1}\n".utf8) }
        _ = loop.runOnce()
        for peer in peers {
            let hears = expected[peer.client.id] ?? []
            let wanted = Topic.allCases.filter { hears.contains($0) && $0 != .frames }.map {
                "\"method\":\"\($0.rawValue)\",\"params\":{\"seq\":\(Topic.allCases.firstIndex(of: $0)!)"
            } + (hears.contains(.frames) ? ["{\"frame\":1}"] : [])
            let got = peer.lines()
            #expect(got.count == wanted.count, "client \(peer.client.id): \(got)")
            for (line, part) in zip(got, wanted) { #expect(line.contains(part), "\(line) lacks \(part)") }
        }
        let heard = Topic.allCases.filter { topic in expected.values.contains { $0.contains(topic) } }
        #expect(made == heard.count, "each message encoded once, and only when someone listens")
        #expect(broadcaster.seq == UInt64(Topic.allCases.count - 1), "every lossless message numbered, heard or not")
        for peer in peers {
            peer.client.connection.close()
            close(peer.far)
        }
        #expect(loop.run(until: { peers.allSatisfy { $0.client.connection.state == .closed } }))
        #expect(loop.close() == 0)
    }

    @Test func screensAndOwnersFilterWithinATopic() throws {
        let loop = try EventLoop()
        let broadcaster = Broadcaster()
        let everywhere = try Peer(loop: loop), side = try Peer(loop: loop), renderer = try Peer(loop: loop)
        renderer.client.grant(.renderer, maxPriority: nil, unit: nil)
        broadcaster.subscribe(everywhere.client, to: [.lifecycle, .frames], outputs: nil)
        broadcaster.subscribe(side.client, to: [.lifecycle, .frames], outputs: ["side"])
        broadcaster.subscribe(renderer.client, to: [.lifecycle], outputs: ["main"])
        broadcaster.broadcast(.lifecycle, method: "lifecycle", output: "main", owner: everywhere.client.id) {
            ["id": "a"]
        }
        broadcaster.broadcast(.lifecycle, method: "lifecycle", output: "side", owner: renderer.client.id) {
            ["id": "b"]
        }
        broadcaster.broadcastFrame(of: "side") { Array("{\"frame\":\"side\"}\n".utf8) }
        _ = loop.runOnce()
        #expect(
            everywhere.lines().map { $0.contains("\"id\":\"a\"") || $0.contains("\"frame\":\"side\"") } == [true, true])
        #expect(
            side.lines() == ["{\"frame\":\"side\"}"], "an app hears others' lifecycle of no one; frames of its screen")
        #expect(renderer.lines().count == 1, "a renderer hears every lifecycle of the screens it watches")
        broadcaster.subscribe(side.client, to: [], outputs: nil)   // a new subscribe replaces the screens
        #expect(side.client.outputs == nil && side.client.topics.contains(.frames))
        broadcaster.broadcastFrame(of: "main") { Array("{\"frame\":\"main\"}\n".utf8) }
        _ = loop.runOnce()
        #expect(side.lines() == ["{\"frame\":\"main\"}"], "the fan-out follows the new screens at once")
        broadcaster.subscribe(side.client, to: [.stack], outputs: ["side"])   // and a new topic takes them too
        broadcaster.broadcastFrame(of: "main") { Array("{\"frame\":\"main\"}\n".utf8) }
        broadcaster.broadcast(.stack, method: "stack", output: "main", owner: nil) { ["n": 1] }
        broadcaster.broadcast(.stack, method: "stack", output: "side", owner: nil) { ["n": 2] }
        _ = loop.runOnce()
        #expect(side.lines().map { $0.contains("\"output\":\"side\"") } == [true])
        for peer in [everywhere, side, renderer] {
            peer.client.connection.close()
            close(peer.far)
        }
        #expect(loop.run(until: { [everywhere, side, renderer].allSatisfy { $0.client.connection.state == .closed } }))
        #expect(loop.close() == 0)
    }

    @Test func aFrameIsOwedForAChangeForMotionAndForTheRestingFrame() {
        let clock = ScreenScheduler(showing: 3)
        #expect(!clock.isFrameDue(revision: 3, moving: false), "nothing changed, nothing moves")
        #expect(clock.isFrameDue(revision: 4, moving: false), "the picture changed")
        #expect(clock.isFrameDue(revision: 3, moving: true), "it moves")
        #expect(clock.nextFrameSeq() == 1 && clock.nextFrameSeq() == 2 && clock.frameSeq == 2)
        clock.drewFrame(revision: 4, saidMoving: true)
        #expect(clock.isFrameDue(revision: 4, moving: false), "the frame said animating: the resting one is owed")
        clock.drewFrame(revision: 4, saidMoving: false)
        #expect(!clock.isFrameDue(revision: 4, moving: false))
        clock.settle(at: 9)
        #expect(!clock.isFrameDue(revision: 9, moving: false), "settled: nobody is owed that picture")
        #expect(!clock.hasTimer && !clock.isRunning)
        // The manual clock's phase: a time that is a tick does not count again.
        #expect(ScreenScheduler.nextTickIndex(after: 0, fps: 60) == 1)
        #expect(ScreenScheduler.nextTickIndex(after: 5.0 / 60, fps: 60) == 6)
        #expect(ScreenScheduler.nextTickIndex(after: 0.1, fps: 30) == 4)
        // Two screens stepped together: in time order, coinciding ticks at once.
        let ticks = Array(ScreenScheduler.manualTicks(after: 0, through: 0.1, rates: [30, 20]))
        #expect(ticks.map(\.time) == [1.0 / 30, 0.05, 2.0 / 30, 0.1])
        #expect(ticks.map(\.due) == [[0], [1], [0], [0, 1]])
    }
}

/// The scheduler's deadline half: one wake-up timer per screen, armed for the stack's next
/// deadline, and a frame owed once a publish finds that deadline passed.
@Suite struct ScreenSchedulerDeadlineTests {
    @Test func aPassedDeadlineOwesAFrameOnce() {
        let scheduler = ScreenScheduler(showing: 1)
        scheduler.notePublishedDeadline(next: 5, time: 0)
        #expect(!scheduler.isFrameDue(revision: 1, moving: false), "the deadline is still ahead")
        scheduler.notePublishedDeadline(next: nil, time: 4.9)
        #expect(!scheduler.isFrameDue(revision: 1, moving: false), "published before the deadline")
        scheduler.notePublishedDeadline(next: 8, time: 5)
        scheduler.notePublishedDeadline(next: 8, time: 6)
        #expect(!scheduler.isFrameDue(revision: 1, moving: false), "no deadline was in force at 4.9, so none passed")
        scheduler.notePublishedDeadline(next: nil, time: 8)
        #expect(
            scheduler.isFrameDue(revision: 1, moving: false), "time reached the published deadline: a frame is owed")
        scheduler.drewFrame(revision: 1, saidMoving: false)
        scheduler.notePublishedDeadline(next: nil, time: 9)
        #expect(!scheduler.isFrameDue(revision: 1, moving: false), "owed once, drawn once")
    }

    @Test func oneTimerIsArmedForTheNextDeadlineAndFires() throws {
        let loop = try EventLoop()
        let scheduler = ScreenScheduler(showing: 0)
        var made = 0, fired = 0
        func makeTimer() -> Timer? {
            made += 1
            let timer = try? Timer(loop: loop)
            timer?.onFire = { fired += 1 }
            return timer
        }
        let now = loop.monotonicNow()
        scheduler.scheduleDeadline(now + 0.05, now: now, makeTimer: makeTimer)
        scheduler.scheduleDeadline(now + 0.05, now: now, makeTimer: makeTimer)
        #expect(made == 1 && scheduler.scheduledDeadline == now + 0.05)
        scheduler.scheduleDeadline(nil, now: now, makeTimer: makeTimer)
        #expect(scheduler.scheduledDeadline == nil, "no deadline: disarmed")
        scheduler.scheduleDeadline(now + 0.02, now: now, makeTimer: makeTimer)
        #expect(made == 1, "the screen's one timer is armed again, not made anew")
        #expect(loop.run(until: { fired == 1 }, nowait: false), "the deadline's wake-up fired within the loop's wait")
        #expect(scheduler.scheduledDeadline == nil, "a fired deadline is no longer scheduled")
        scheduler.close()
        #expect(loop.close() == 0)
    }
}
