// Broadcasting. Each notification is serialised once and the bytes shared by every
// subscriber. Lifecycle, stack and status-bar events are lossless (a reader that falls
// too far behind is disconnected); frames are coalesced per subscriber, newest wins.

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    /// Sends the events every screen produced since the last call to their subscribers.
    func publishEvents() {
        // Asked once per publish, not per screen: this runs after every request and tick.
        let motionWatched = clients.values.contains { $0.topics.contains(.animations) }
        for screen in screens { publishEvents(of: screen, motionWatched: motionWatched) }
        serviceStateChanged()
    }

    private func publishEvents(of screen: Screen, motionWatched: Bool) {
        checkInvariantsIfEnabled(on: screen)
        let events = screen.stack.drainEvents()
        if !events.isEmpty || screen.visualsDirty { saveStateSoon() }
        var announced: Set<String> = []   // entries whose willPresent/willDismiss went out now
        for event in events {
            switch event {
            case .lifecycle(let notice):
                if notice.event == .willPresent || notice.event == .willDismiss { announced.insert(notice.id) }
                broadcast(.lifecycle, method: "lifecycle", on: screen, owner: notice.owner) { CoreEncoding.lifecycle(notice) }
            case .statusBar(let appearance, let duration, let time):
                broadcast(.statusBar, method: "statusBar", on: screen) {
                    CoreEncoding.statusBarChange(appearance, duration: duration, time: time)
                }
            case .stackChanged:
                screen.stackChanged = true
            case .mode(let change):
                broadcastMode(change, on: screen)   // Daemon+Modes
            }
        }
        publishMotion(of: screen, announced: announced, watched: motionWatched)
        if screen.stackChanged {
            screen.stackChanged = false
            broadcast(.stack, method: "stack", on: screen) { stackListing(of: screen) }
        }
        if screen.visualsDirty || screen.stack.isAnimating(at: screen.stack.time) { startFrames(of: screen) }
        scheduleNextDeadline(on: screen)
    }

    /// `retargeted` lifecycle events for the entries whose motion changed course, and an
    /// `animations` notification when the motion in force differs from the one announced
    /// last. Segments carry absolute times, so a renderer that sums them is exact however
    /// late the notification comes; it comes at the request that changed the motion, or
    /// at the frame tick where a transition ended. A retarget that a `willPresent` or
    /// `willDismiss` of this publish already describes exactly (its `animation` is the one
    /// segment in force) is not announced twice.
    private func publishMotion(of screen: Screen, announced: Set<String>, watched: Bool) {
        for notice in screen.stack.drainRetargets() {
            if announced.contains(notice.id), screen.stack.animations(at: notice.time).layers
                .allSatisfy({ $0.base.entryID != notice.id || $0.segments.count <= 1 }) { continue }
            broadcast(.lifecycle, method: "lifecycle", on: screen, owner: notice.owner) {
                AnimationEncoding.retargeted(notice, in: screen.stack.animations(at: notice.time))
            }
        }
        guard watched else {
            screen.announcedMotion = nil   // a newcomer gets the motion in its snapshot
            return
        }
        let motion = screen.stack.animations(at: screen.stack.time)
        if let last = screen.announcedMotion, motion.describesTheSameMotion(as: last) { return }
        screen.announcedMotion = motion
        broadcast(.animations, method: "animations", on: screen) { AnimationEncoding.animations(motion) }
    }

    /// What `stack` returns and its notification says: the screen's entries and contexts.
    func stackListing(of screen: Screen) -> JSONValue {
        ["output": .string(screen.name), "entries": CoreEncoding.entries(of: screen.stack, output: screen.name),
         "contexts": CoreEncoding.contexts(of: screen.stack)]
    }

    /// One lossless notification to every subscriber of `topic` (that watches `screen`,
    /// when the notification is about one), numbered by `seq`; `params` are made only
    /// when someone listens. `owner`: an entry's lifecycle, which a connection that is only
    /// an app hears only about its own entries.
    func broadcast(_ topic: Topic, method: String, on screen: Screen? = nil, owner: OwnerID? = nil,
                   params: () -> JSONValue) {
        eventSeq += 1
        let seq = eventSeq
        fanOut(to: topic, of: screen?.name, owner: owner, send: { $0.send(shared: $1) }) {
            var numbered: JSONObject = ["seq": .int(Int64(truncatingIfNeeded: seq))]
            if let screen { numbered["output"] = .string(screen.name) }
            for (key, value) in params().objectValue ?? [:] { numbered[key] = value }
            return RPCEncoding.notification(method: method, params: .object(numbered)).serializedLine()
        }
    }

    /// The scene of `screen` at `t` to every frame subscriber that watches it; each keeps
    /// only the newest unsent frame.
    func broadcastFrame(of screen: Screen, at t: Double) {
        let sent = fanOut(to: .frames, of: screen.name, send: { $0.sendFrame($1) }) {
            screen.frameSeq += 1
            let scene = screen.stack.scene(at: t)
            screen.owesRestingFrame = scene.isAnimating
            return RPCEncoding.notification(method: "frame", params: CoreEncoding.frame(scene, seq: screen.frameSeq,
                                                                                      output: screen.name)).serializedLine()
        }
        if !sent { screen.owesRestingFrame = false }
    }

    /// Hands one serialisation of a message to every subscriber of `topic` (and of
    /// `output`, when the message is about a screen); false when there was none. One pass
    /// over the clients, no intermediate array, and nothing is encoded when nobody
    /// listens: with 1000 subscribers at 120 fps this loop runs 120 000 times a second.
    @discardableResult
    private func fanOut(to topic: Topic, of output: String?, owner: OwnerID? = nil, send: (Connection, SharedBuffer) -> Void,
                        encode: () -> [UInt8]) -> Bool {
        var buffer: SharedBuffer?
        for client in clients.values where client.topics.contains(topic) && client.watches(output)
            && (owner == nil || client.id == owner || client.hearsEveryLifecycle) {
            if buffer == nil { buffer = SharedBuffer(encode()) }
            send(client.connection, buffer!)
        }
        buffer?.release()  // the creator's reference; queued writes hold their own
        return buffer != nil
    }

    // MARK: The frame clocks, one per screen

    /// Makes `screen`'s frame timer (monotonic clock; the manual clock makes frames
    /// inside `advance`).
    func startClock(of screen: Screen) throws {
        guard configuration.clock == .monotonic, screen.frameTimer == nil else { return }
        let timer = try FrameTimer(loop: loop)
        timer.onTick = { [unowned self, unowned screen] deadline, _ in self.frameTick(of: screen, deadline: deadline) }
        screen.frameTimer = timer
        if screen.visualsDirty || screen.stack.isAnimating(at: screen.stack.time) { startFrames(of: screen) }
    }

    /// Starts `screen`'s frames at its next tick, if they are not running.
    func startFrames(of screen: Screen) {
        guard configuration.clock == .monotonic, !screen.framesRunning, !shuttingDown,
              let timer = screen.frameTimer else { return }
        let interval = 1 / Double(screen.fps(daemonFPS: configuration.fps))
        // Ticks sit on multiples of the interval, so every renderer sees the same phase.
        let next = ((loop.monotonicNow() / interval).rounded(.down) + 1) * interval
        do {
            try timer.start(firstDeadline: next, interval: interval)
            screen.framesRunning = true
        } catch {
            log.error("cannot start the frame clock of output \(screen.name): \(error)")
        }
    }

    /// Restarts `screen`'s frames at its current rate, on that rate's phase.
    func restartFrames(of screen: Screen) {
        guard screen.framesRunning else { return }
        screen.frameTimer?.stop()
        screen.framesRunning = false
        startFrames(of: screen)
    }

    /// One tick of a screen's monotonic frame clock; the clock stops when the screen is idle.
    func frameTick(of screen: Screen, deadline: Double) {
        tick([screen], at: deadline)
        if !screen.stack.isAnimating(at: max(deadline, screen.stack.time)) && !screen.visualsDirty {
            screen.frameTimer?.stop()
            screen.framesRunning = false
        }
    }

    /// The manual clock: moves time forward, producing every screen's frame ticks on the
    /// way (each at k/fps of its own rate, in time order; screens whose ticks coincide
    /// draw at the same instant), so the same requests always give the same frames.
    func advanceManualClock(by seconds: Double) {
        let target = manualTime + seconds
        // Each screen's next tick index, kept as an integer count so ticks never drift.
        var ticks = screens.map { Screen.nextTickIndex(after: manualTime, fps: $0.fps(daemonFPS: configuration.fps)) }
        while true {
            let times = zip(screens, ticks).map { $1 / Double($0.fps(daemonFPS: configuration.fps)) }
            guard let t = times.min(), t <= target + 1e-12 else { break }
            let due = times.indices.filter { times[$0] == t }
            manualTime = t
            tick(due.map { screens[$0] }, at: t)
            for i in due { ticks[i] += 1 }
        }
        manualTime = max(manualTime, target)
        for screen in screens { screen.stack.advance(to: manualTime) }
        publishEvents()
    }

    /// The one tick both clocks run, at `t`, for the screens whose clocks tick then: every
    /// stack catches up (so events go out in time order), the events are published, and
    /// each due screen draws if it was moving or changed since its last frame, or moves now
    /// — a frame that said "animating" is always followed by one more, even when the motion
    /// ended between ticks (or a hair after one, by rounding).
    private func tick(_ due: [Screen], at t: Double) {
        let owed = due.map { $0.stack.isAnimating(at: $0.stack.time) || $0.visualsDirty || $0.owesRestingFrame }
        for screen in screens { screen.stack.advance(to: t) }
        for screen in due { screen.visualsDirty = false }
        publishEvents()
        for (screen, owed) in zip(due, owed) where owed || screen.stack.isAnimating(at: t) {
            broadcastFrame(of: screen, at: t)
        }
    }
}
