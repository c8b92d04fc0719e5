// Publishing: after every request and every tick, what each screen's stack did goes to
// its subscribers (through the Broadcaster), and each screen's frame clock is told
// whether frames are owed. The stack says itself when it changed (its revisions,
// ModalStack+Revision), so a request that changed nothing — a `ping` — costs a
// comparison per screen here and nothing else. A new subscriber starts from a snapshot
// of the same state, at the `seq` its notifications follow.

import PresentCore
import PresentJSON
import PresentProtocol

extension Daemon {
    /// Sends the events every screen produced since the last call to their subscribers,
    /// and tells the service manager when anything it reports may have changed.
    func publishEvents() {
        var changed = false
        for screen in screens where screen.published?.state != screen.stack.stateRevision {
            publishEvents(of: screen)
            changed = true
        }
        let inputs = ServiceInputs(
            clients: clients.count, subscribers: broadcaster.subscriberCount, screens: screens.count)
        let inputsChanged = systemd?.recordInputs(inputs) ?? false
        if changed || inputsChanged { serviceStateChanged() }
    }

    private func publishEvents(of screen: Screen) {
        // Saved when the picture changed since the last publish; a screen's first publish
        // is of the stack it started with (new, or read from the state file): nothing to save.
        // Before the rest: anything publishing itself caused is published next time.
        let pictureChanged = screen.notePublished()
        checkInvariantsIfEnabled(on: screen)
        let events = screen.stack.drainEvents()
        if !events.isEmpty || pictureChanged { saveStateSoon() }
        var announced: Set<String> = []   // entries whose willPresent/willDismiss went out now
        var stackChanged = false
        for event in events {
            switch event {
            case .lifecycle(let notice):
                if notice.event == .willPresent || notice.event == .willDismiss { announced.insert(notice.id) }
                broadcast(.lifecycle, method: "lifecycle", on: screen, owner: notice.owner) {
                    CoreEncoding.lifecycle(notice)
                }
            case .statusBar(let appearance, let duration, let time):
                broadcast(.statusBar, method: "statusBar", on: screen) {
                    CoreEncoding.statusBarChange(appearance, duration: duration, time: time)
                }
            case .stackChanged:
                stackChanged = true
            case .mode(let change):
                broadcastMode(change, on: screen)   // Daemon+Modes
            }
        }
        publishMotion(of: screen, announced: announced)
        if stackChanged { broadcast(.stack, method: "stack", on: screen) { stackListing(of: screen) } }
        screen.notePublishedDeadline()
        if screen.isFrameDue { startFrames(of: screen) }
        scheduleNextDeadline(on: screen)
    }

    /// `retargeted` lifecycle events for the entries whose motion changed course, and an
    /// `animations` notification when the motion in force differs from the one announced
    /// last. Segments carry absolute times, so a renderer that sums them is exact however
    /// late the notification comes; it comes at the request that changed the motion, or
    /// at the frame tick where a transition ended. A retarget that a `willPresent` or
    /// `willDismiss` of this publish already describes exactly (its `animation` is the one
    /// segment in force) is not announced twice.
    private func publishMotion(of screen: Screen, announced: Set<String>) {
        for notice in screen.stack.drainRetargets() {
            if announced.contains(notice.id), screen.stack.animations(at: notice.time).layers
                .allSatisfy({ $0.base.entryID != notice.id || $0.segments.count <= 1 }) { continue }
            broadcast(.lifecycle, method: "lifecycle", on: screen, owner: notice.owner) {
                AnimationEncoding.retargeted(notice, in: screen.stack.animations(at: notice.time))
            }
        }
        let watched = broadcaster.isWatched(.animations)
        guard watched || screen.keepsMotionHistory else {
            screen.assumeAnnounced(nil)   // a newcomer gets the motion in its snapshot
            return
        }
        let motion = screen.readInPlace { $0.animations(at: $0.time) }
        screen.recordMotion(motion)
        guard watched else {
            screen.assumeAnnounced(nil)
            return
        }
        guard screen.announce(motion) else { return }
        broadcast(.animations, method: "animations", on: screen) { AnimationEncoding.animations(motion) }
    }

    /// What `stack` returns and its notification says: the screen's entries and contexts.
    func stackListing(of screen: Screen) -> JSONValue {
        ["output": .string(screen.name), "entries": CoreEncoding.entries(of: screen.stack, output: screen.name),
         "contexts": CoreEncoding.contexts(of: screen.stack)]
    }

    // MARK: What a new subscriber starts from

    /// The full state a new subscriber starts from, and the event sequence it is at:
    /// main's at the top (as for a daemon with one screen), and under `outputs` each
    /// screen the client watches.
    func subscribeResult(for client: Client) -> JSONValue {
        var snapshot = screenSnapshot(main, motion: false).objectValue ?? [:]
        snapshot["name"] = nil   // the top is main's: what a client that knows one screen reads
        snapshot["fps"] = nil
        let motion = client.topics.contains(.animations)
        snapshot["outputs"] = .array(
            screens.filter { client.watches($0.name) }.map { screenSnapshot($0, motion: motion) })
        if motion {
            snapshot["animations"] = AnimationEncoding.animations(main.stack.animations(at: now))
            // What the snapshot shows need not be announced again.
            for screen in screens {
                let motion = screen.stack.animations(at: screen.stack.time)
                screen.assumeAnnounced(motion)
                screen.recordMotion(motion)
            }
        }
        if client.topics.contains(.modes) { addModes(to: &snapshot) }   // Daemon+Modes
        return ["seq": .int(Int64(truncatingIfNeeded: broadcaster.seq)), "snapshot": .object(snapshot)]
    }

    /// One screen's state; `motion`: with its `animations` (for their subscribers).
    private func screenSnapshot(_ screen: Screen, motion: Bool) -> JSONValue {
        let scene = screen.stack.scene(at: now)
        var snapshot: JSONValue = [
            "name": .string(screen.name), "fps": .int(Int64(screen.fps(daemonFPS: configuration.fps))),
                "time": .double(scene.time), "container": CoreEncoding.container(screen.stack.container),
                "entries": CoreEncoding.entries(of: screen.stack, output: screen.name),
                "contexts": CoreEncoding.contexts(of: screen.stack),
                "statusBar": CoreEncoding.statusBar(screen.stack.statusBar),
                "layers": .array(scene.layers.map(CoreEncoding.layer)),
                "animating": .bool(scene.isAnimating)]
        if motion, case .object(var o) = snapshot {
            o["animations"] = AnimationEncoding.animations(screen.stack.animations(at: now))
            snapshot = .object(o)
        }
        return snapshot
    }

    // MARK: Notifications

    /// One lossless notification to every subscriber of `topic` (that watches `screen`,
    /// when the notification is about one), numbered by `seq`; `params` are made only
    /// when someone listens. `owner`: an entry's lifecycle, which a connection that is only
    /// an app hears only about its own entries.
    func broadcast(_ topic: Topic, method: String, on screen: Screen? = nil, owner: OwnerID? = nil,
                   params: () -> JSONValue) {
        broadcaster.broadcast(topic, method: method, output: screen?.name, owner: owner, params: params)
    }

    // MARK: The frame clocks, one per screen

    /// Starts `screen`'s frame clock: its timer on the monotonic clock (the manual clock
    /// makes frames inside `advance`). The clock starts before anyone can watch (at
    /// `run`, or for a screen `addOutput` just made), so the picture as it stands is owed
    /// to nobody: a subscriber gets it in its snapshot.
    func startClock(of screen: Screen) throws {
        screen.scheduler.settle(at: screen.stack.sceneRevision)
        guard configuration.clock == .monotonic, !screen.scheduler.hasTimer else { return }
        let timer = try FrameTimer(loop: loop)
        screen.scheduler.attach(timer) { [unowned self, unowned screen] deadline in
            self.frameTick(of: screen, deadline: deadline)
        }
        if screen.isFrameDue { startFrames(of: screen) }
    }

    /// Starts `screen`'s frames at its next tick, if they are not running.
    func startFrames(of screen: Screen) {
        guard configuration.clock == .monotonic, !shuttingDown else { return }
        do {
            try screen.scheduler.start(fps: screen.fps(daemonFPS: configuration.fps), now: loop.monotonicNow())
        } catch {
            log.error("cannot start the frame clock of output \(screen.name): \(error)")
        }
    }

    /// Restarts `screen`'s frames at its current rate, on that rate's phase.
    func restartFrames(of screen: Screen) {
        guard !shuttingDown else { return screen.scheduler.stop() }
        do {
            try screen.scheduler.restart(fps: screen.fps(daemonFPS: configuration.fps), now: loop.monotonicNow())
        } catch {
            log.error("cannot start the frame clock of output \(screen.name): \(error)")
        }
    }

    /// One tick of a screen's monotonic frame clock; the clock stops when the screen is idle.
    /// While it moves, the next tick is made as soon as this one is done (Screen's "The
    /// next tick, made ahead"), when no other screen's clock runs: each screen's tick
    /// catches every stack up, which would throw the others' ticks away.
    func frameTick(of screen: Screen, deadline: Double) {
        tick([screen], at: deadline)
        guard screen.isFrameDue else { return screen.scheduler.stop() }
        guard let next = screen.scheduler.nextTick,
            !screens.contains(where: { $0 !== screen && $0.scheduler.isRunning })
        else { return }
        screen.tickEnded(next: next, withFrame: broadcaster.isWatched(.frames)) {
            CoreEncoding.frameLine($0, seq: $1, output: screen.name)
        }
    }

    /// The manual clock: moves time forward, producing every screen's frame ticks on the
    /// way (each at k/fps of its own rate, in time order; screens whose ticks coincide
    /// draw at the same instant), so the same requests always give the same frames.
    func advanceManualClock(by seconds: Double) {
        let start = manualClock.time, target = start + seconds
        let rates = screens.map { $0.fps(daemonFPS: configuration.fps) }
        for (t, due) in ScreenScheduler.manualTicks(after: start, through: target, rates: rates) {
            manualClock.move(to: t)
            tick(due.map { screens[$0] }, at: t)
        }
        manualClock.move(to: max(manualClock.time, target))
        for screen in screens { screen.stack.advance(to: manualClock.time) }
        publishEvents()
    }

    /// The one tick both clocks run, at `t`, for the screens whose clocks tick then: every
    /// stack catches up (so events go out in time order), the events are published, and
    /// each due screen draws if it owed a frame before catching up (changed since its last
    /// frame, moving, or owing the resting frame) or owes one after (it moves now, or it
    /// passed a deadline on the way) — a frame that said "animating" is always followed by
    /// one more, even when the motion ended between ticks (or a hair after one, by rounding).
    /// A publish with nothing to send comes after the frames instead: no subscriber can
    /// tell, and a frame is not kept waiting for books.
    private func tick(_ due: [Screen], at t: Double) {
        let owed = due.map(\.isFrameDue)
        for screen in screens { screen.advance(to: t) }
        // Nothing to send, no frame to owe: no screen has an event or retarget waiting or
        // passed a deadline, and nobody hears the motion.
        let framesFirst = !broadcaster.isWatched(.animations) && screens.allSatisfy(\.publishIsQuiet)
        if !framesFirst { publishEvents() }
        for (screen, owed) in zip(due, owed) where owed || screen.isFrameDue {
            drawFrame(of: screen, at: t)
        }
        for screen in due { screen.dropPreparedFrame() }
        if framesFirst { publishEvents() }
    }

    /// The scene of `screen` at `t` to every frame subscriber that watches it (each keeps
    /// only the newest unsent frame); the clock learns what was drawn.
    private func drawFrame(of screen: Screen, at t: Double) {
        var saidMoving = false
        broadcaster.broadcastFrame(of: screen.name) {
            let seq = screen.scheduler.nextFrameSeq()
            if let made = screen.takePreparedFrame(at: t, seq: seq) {
                saidMoving = made.saidMoving
                return made.line
            }
            let scene = screen.readInPlace { $0.scene(at: t) }
            saidMoving = scene.isAnimating
            return CoreEncoding.frameLine(scene, seq: seq, output: screen.name)
        }
        screen.scheduler.drewFrame(revision: screen.stack.sceneRevision, saidMoving: saidMoving)
    }
}
