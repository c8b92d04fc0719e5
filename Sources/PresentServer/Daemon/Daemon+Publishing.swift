// Broadcasting. Each notification is serialised once and the bytes shared by every
// subscriber. Lifecycle, stack and status-bar events are lossless (a reader that falls
// too far behind is disconnected); frames are coalesced per subscriber, newest wins.

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    /// Sends the events the stack produced since the last call to their subscribers.
    func publishEvents() {
        checkInvariantsIfEnabled()
        let events = stack.drainEvents()
        if !events.isEmpty || visualsDirty { saveStateSoon() }
        for event in events {
            switch event {
            case .lifecycle(let notice):
                if notice.event == .didDismiss { confirmDismiss.remove(notice.id) }
                broadcast(.lifecycle, method: "lifecycle", params: CoreEncoding.lifecycle(notice))
            case .statusBar(let appearance, let duration, let time):
                broadcast(.statusBar, method: "statusBar",
                          params: CoreEncoding.statusBarChange(appearance, duration: duration, time: time))
            case .stackChanged:
                stackChanged = true
            }
        }
        if stackChanged {
            stackChanged = false
            broadcast(.stack, method: "stack", params: ["entries": CoreEncoding.entries(of: stack),
                                                        "contexts": CoreEncoding.contexts(of: stack)])
        }
        if visualsDirty || stack.isAnimating(at: stack.time) { startFrames() }
        scheduleNextDeadline()
        serviceStateChanged()
    }

    /// One lossless notification to every subscriber of `topic`, numbered by `seq`.
    func broadcast(_ topic: Topic, method: String, params: JSONValue) {
        eventSeq += 1
        let seq = eventSeq
        fanOut(to: topic, send: { $0.send(shared: $1) }) {
            var numbered: JSONObject = ["seq": .int(Int64(truncatingIfNeeded: seq))]
            for (key, value) in params.objectValue ?? [:] { numbered[key] = value }
            return RPCEncoding.notification(method: method, params: .object(numbered)).serializedLine()
        }
    }

    /// The scene at `t` to every frame subscriber; each keeps only the newest unsent frame.
    func broadcastFrame(at t: Double) {
        let sent = fanOut(to: .frames, send: { $0.sendFrame($1) }) {
            frameSeq += 1
            let scene = stack.scene(at: t)
            owesRestingFrame = scene.isAnimating
            return RPCEncoding.notification(method: "frame", params: CoreEncoding.frame(scene, seq: frameSeq)).serializedLine()
        }
        if !sent { owesRestingFrame = false }
    }

    /// Hands one serialisation of a message to every subscriber of `topic`; false when
    /// there was none. One pass over the clients, no intermediate array, and nothing is
    /// encoded when nobody listens: with 1000 subscribers at 120 fps this loop runs
    /// 120 000 times a second.
    @discardableResult
    private func fanOut(to topic: Topic, send: (Connection, SharedBuffer) -> Void, encode: () -> [UInt8]) -> Bool {
        var buffer: SharedBuffer?
        for client in clients.values where client.topics.contains(topic) {
            if buffer == nil { buffer = SharedBuffer(encode()) }
            send(client.connection, buffer!)
        }
        buffer?.release()  // the creator's reference; queued writes hold their own
        return buffer != nil
    }

    // MARK: The frame clock

    /// Starts frames at the next tick, if they are not running (monotonic clock only;
    /// the manual clock makes frames inside `advance`).
    func startFrames() {
        guard configuration.clock == .monotonic, !framesRunning, !shuttingDown, let timer = frameTimer else { return }
        let interval = 1 / Double(configuration.fps)
        // Ticks sit on multiples of the interval, so every renderer sees the same phase.
        let next = ((loop.monotonicNow() / interval).rounded(.down) + 1) * interval
        do {
            try timer.start(firstDeadline: next, interval: interval)
            framesRunning = true
        } catch {
            log.error("cannot start the frame clock: \(error)")
        }
    }

    /// One tick of the monotonic frame clock: catch up, publish, draw, stop when idle.
    func frameTick(deadline: Double) {
        stack.advance(to: deadline)
        visualsDirty = false
        publishEvents()
        broadcastFrame(at: deadline)
        if !stack.isAnimating(at: max(deadline, stack.time)) && !visualsDirty {
            frameTimer?.stop()
            framesRunning = false
        }
    }

    /// The manual clock: moves time forward, producing every frame tick on the way
    /// (ticks at k/fps), so the same requests always give the same frames.
    func advanceManualClock(by seconds: Double) {
        let fps = Double(configuration.fps)
        let target = manualTime + seconds
        var tick = (manualTime * fps).rounded(.down) + 1
        while tick / fps <= target + 1e-12 {
            let t = tick / fps
            // A frame that said "animating" is always followed by one more, even when the
            // motion ended between ticks (or a hair after one, by rounding).
            let wasMoving = stack.isAnimating(at: manualTime) || visualsDirty || owesRestingFrame
            manualTime = t
            stack.advance(to: t)
            visualsDirty = false
            publishEvents()
            if wasMoving || stack.isAnimating(at: t) { broadcastFrame(at: t) }
            tick += 1
        }
        manualTime = max(manualTime, target)
        stack.advance(to: manualTime)
        publishEvents()
    }
}
