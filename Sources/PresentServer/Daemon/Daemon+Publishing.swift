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
            broadcast(.stack, method: "stack", params: ["entries": CoreEncoding.entries(of: stack)])
        }
        if visualsDirty || stack.isAnimating(at: stack.time) { startFrames() }
        serviceStateChanged()
    }

    /// One lossless notification to every subscriber of `topic`, numbered by `seq`.
    func broadcast(_ topic: Topic, method: String, params: JSONValue) {
        eventSeq += 1
        let subscribers = clients.values.filter { $0.topics.contains(topic) }
        guard !subscribers.isEmpty else { return }
        var numbered: JSONObject = ["seq": .int(Int64(truncatingIfNeeded: eventSeq))]
        for (key, value) in params.objectValue ?? [:] { numbered[key] = value }
        let buffer = SharedBuffer(RPCEncoding.notification(method: method, params: .object(numbered)).serializedLine())
        for client in subscribers { client.connection.send(shared: buffer) }
        buffer.release()  // the creator's reference; queued writes hold their own
    }

    /// The scene at `t` to every frame subscriber; each keeps only the newest unsent frame.
    func broadcastFrame(at t: Double) {
        let subscribers = clients.values.filter { $0.topics.contains(.frames) }
        guard !subscribers.isEmpty else { owesRestingFrame = false; return }
        frameSeq += 1
        let scene = stack.scene(at: t)
        owesRestingFrame = scene.isAnimating
        let line = RPCEncoding.notification(method: "frame", params: CoreEncoding.frame(scene, seq: frameSeq)).serializedLine()
        let buffer = SharedBuffer(line)
        for client in subscribers { client.connection.sendFrame(buffer) }
        buffer.release()
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
