// Long random sequences of every operation — present (random styles, transitions,
// timings, priorities, precedences, kinds, owners, status bars, adaptive policies),
// dismiss, dismissAll, owner removal, container and keyboard changes, time steps, taps
// and whole swipes — from a seeded SplitMix64, so a failure names its seed and step.
// After every step: the stack's own invariants, and the model's promises checked from
// the outside (event order and life cycles, nothing lost, scene = entries, status bar
// reported, no jump at an operation's instant).

import Testing
import PresentCore

/// One random run and the bookkeeping that checks it.
struct RandomRun {
    var rng: SplitMix64
    var stack = ModalStack()
    var t = 0.0
    var step = 0
    /// Ids the stack has given out (present outcomes).
    var known: Set<String> = []
    /// The last life-cycle event of each id (adapted does not move it).
    var phase: [String: LifecycleEvent] = [:]
    var lastEventTime = -Double.infinity
    var reportedStatusBar = StackConfiguration.standard.baseStatusBar
    var failures: [String] = []
    /// What the current step does, for failure messages.
    var operation = ""

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func fail(_ message: String) {
        if failures.count < 20 { failures.append("step \(step) t=\(t) \(operation): \(message)") }
    }

    // MARK: Random choices

    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func pick<T>(_ xs: [T]) -> T { xs.randomElement(using: &rng)! }
    mutating func number(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &rng) }

    mutating func timing() -> TimingCurve {
        pick([.linear, .linear, .easeInEaseOut, .easeIn, .easeOut, .default, .system])
    }

    mutating func transition() -> Transition {
        Transition(kind: pick(TransitionKind.allCases), duration: pick([0, 0.1, 0.25, 0.4, number(0.05...0.7)]),
                   timing: timing())
    }

    mutating func style() -> PresentationStyle {
        pick([.popup, .alert, .topHalf, .bottomHalf, .fullScreen, .overFullScreen,
              .slideIn(edge: pick(Edge.allCases), fraction: number(0.3...0.9), followsLayoutDirection: chance(0.5)),
              .custom(CustomLayout(width: .fluid(0.8), height: .points(200), position: .bottomCenter)),
              .sheet(SheetStyle(detents: [pick([.medium, Detent(id: "tip", height: .points(120))]), .large],
                    selectedDetent: pick([nil, "large"]), largestUndimmedDetent: pick([nil, "medium", "tip"]),
                                grabber: chance(0.5)))])
    }

    mutating func presentation() -> Presentation {
        var p = Presentation(
            id: chance(0.2) ? pick(["x", "y", "z"] + known.sorted().suffix(3)) : nil,
            kind: pick([nil, nil, "menu", "toast", "alert"]), deduplicate: chance(0.8),
            content: pick([nil, "c1", "c2"]), style: style(), respectsSafeArea: chance(0.3),
            transition: transition(), dismissTransition: chance(0.3) ? transition() : nil,
            background: pick([.standard, .clear, Background(opacity: 1, blur: .dark)]),
            cornerRadius: chance(0.5) ? nil : 8, dismissOnTap: chance(0.7), dismissOnSwipe: chance(0.6),
            keyboard: pick(KeyboardAvoidance.allCases),
            statusBar: pick([nil, nil, light, dark, hidden]),
            adaptive: pick([.none, .overFullScreen, .fullScreen, .replacement(style: .alert, content: "rotate")]),
            priority: chance(0.7) ? pick([0, 250, 500, 750, 1000]) : Int.random(in: 0...1000, using: &rng),
            precedence: chance(0.3) ? .override : .enqueue, dimsPresenterTint: chance(0.2))
        p.level = pick([.normal, .normal, .normal, .overlay, .alert])
        if p.level == .overlay {
            p.overlay = OverlayPlacement(position: pick(OverlayPosition.allCases), margin: pick([0, 8, 20]))
        } else {
            p.interaction = pick([nil, nil, .absorb, .dismiss, .forward])
        }
        p.context = pick([nil, nil, nil, "left", "right"])   // sometimes one not defined (refused)
        p.droppable = chance(0.2)
        return p
    }

    /// Mostly small steps, often none, sometimes exactly to where a motion ends.
    mutating func nextTime() -> Double {
        if chance(0.35) { return t }
        if chance(0.2), let end = stack.entries.compactMap({ $0.animation?.end }).filter({ $0 > t }).min() {
            return end
        }
        return t + number(0...0.35)
    }

    // MARK: Operations

    mutating func runStep() {
        step += 1
        let at = nextTime()
        let dice = Double.random(in: 0..<1, using: &rng)
        operation =
            [
                "present", "dismiss", "dismissAll", "removeAll", "setContainer", "setKeyboard", "context", "advance",
                     "tap", "swipe"][
            [0.30, 0.45, 0.47, 0.52, 0.59, 0.64, 0.68, 0.84, 0.90, 1].firstIndex { dice < $0 }!]
        let drawn = stack.sceneRevision
        let before = stack.advanced(to: at)
        if before.sceneRevision != drawn { fail("time passing changed sceneRevision") }
        checkLookahead(before, at: at)
        var continuous = true, ignoreDimmingFrames = false
        switch dice {
        case ..<0.30: present(at: at, before: before)
        case ..<0.45: continuous = dismiss(at: at, before: before)
        case ..<0.47: _ = stack.dismissAll(animated: chance(0.8), reason: pick(DismissReason.allCases), at: at)
        case ..<0.52: _ = stack.removeAll(ownedBy: OwnerID.random(in: 1...3, using: &rng), at: at)
        case ..<0.59:
            let duration = pick([nil, 0, 0.2, 0.5])
            continuous = duration != 0
            ignoreDimmingFrames = true
            stack.setContainer(pick([phone, landscape, tablet, Container(size: Size(width: 600, height: 400)),
                                     Container(size: Size(width: 800, height: 600), layoutDirection: .rightToLeft)]),
                               duration: duration, at: at)
        case ..<0.64:
            let duration = pick([nil, 0.25, 0.0])
            continuous = duration != 0
            stack.setKeyboard(height: pick([0, 0, 260, 336]), duration: duration, curve: timing(), at: at)
        case ..<0.68:
            continuous = context(at: at, before: before)
            ignoreDimmingFrames = true   // a context's dimming is its rectangle: it moves at once
        case ..<0.84:
            if chance(0.06) {   // do not disturb on (sometimes until a time), changed, or off
                stack.setDoNotDisturb(chance(0.4) ? nil : DoNotDisturb(until: chance(0.5) ? at + number(0...2) : nil,
                            allowPriorityAbove: pick([-1, 250, 500, 750])), at: at)
            } else if chance(0.04) {   // reduced motion on or off: what runs keeps its course
                stack.setReducedMotion(!stack.reducedMotion, at: at)
            } else {
                stack.advance(to: at)
            }
        case ..<0.90: tap(at: at)
        default: continuous = swipe(at: at)
        }
        t = max(t, at)
        if continuous { checkContinuity(before: before.scene(at: t), after: stack.scene(at: t), ignoreDimmingFrames) }
        checkRevisions(before: before)
        check()
    }

    mutating func present(at: Double, before: ModalStack) {
        let p = presentation()
        let owner = OwnerID.random(in: 1...3, using: &rng)
        let forecast = stack.forecast(p, owner: owner, at: at)
        do {
            let outcome = try stack.present(p, owner: owner, at: at)
            checkForecast(forecast, outcome, at: at)
            if !outcome.deduplicated, before.entry(id: outcome.id) != nil { fail("\(outcome.id) given out twice") }
            if outcome.deduplicated, !known.contains(outcome.id) { fail("dedupe returned unknown \(outcome.id)") }
            if stack.entry(id: outcome.id)?.state != outcome.state { fail("outcome state of \(outcome.id) is stale") }
            known.insert(outcome.id)
        } catch {
            switch error {
            case .duplicateID(let id) where before.entry(id: id) != nil: break
            case .unknownContext(let name) where before.contexts[name] == nil: break
            case .dropped where p.droppable && before.doNotDisturb != nil: break
            default: return fail("refused: \(error)")
            }
            if forecast.error != error { fail("dry run said \(forecast), present refused with \(error)") }
            expectOnlyTimePassed(before)
        }
    }

    /// The dry run made just before agrees with the present: outcome, id, state, the
    /// entries preempted, and the time it starts presenting if only time passes.
    mutating func checkForecast(_ f: PresentForecast, _ outcome: PresentOutcome, at: Double) {
        if f.id != outcome.id || f.state != outcome.state || (f.outcome == .deduplicated) != outcome.deduplicated {
            return fail("dry run said \(f), present gave \(outcome)")
        }
        guard !outcome.deduplicated else { return }
        var later = stack
        let events = later.drainEvents() + { later.advance(to: at + 10_000); return later.drainEvents() }()
        let preempted = events.compactMap { e -> String? in
            guard case .lifecycle(let n) = e, n.event == .willDismiss, n.reason == .preempted else { return nil }
            return n.id
        }
        if f.preempting != preempted { fail("dry run preempts \(f.preempting), present preempted \(preempted)") }
        let start = events.lazy.compactMap { e -> Double? in
            guard case .lifecycle(let n) = e, n.id == outcome.id, n.event == .willPresent else { return nil }
            return n.time
        }.first
        if f.startsAt != start {
            fail(
                "dry run said \(outcome.id) starts at \(String(describing: f.startsAt)), it starts at "
                + "\(String(describing: start))"
            )
        }
    }

    /// Defines, moves or removes a presentation context; false when the motion may jump
    /// by design (a move at once, or entries removed at once).
    mutating func context(at: Double, before: ModalStack) -> Bool {
        let name = pick(["left", "right"])
        if chance(0.25) {
            do {
                _ = try stack.removeContext(name, at: at)
            } catch {
                if before.contexts[name] != nil { fail("refused to remove \(name): \(error)") }
                expectOnlyTimePassed(before)
            }
            return false
        }
        let c = stack.container.size
        let half = Rect(x: name == "left" ? 0 : c.width / 2, y: 0, width: c.width / 2, height: c.height)
        let duration = pick([nil, 0.2, 0.0])
        stack.defineContext(
            name,
            frame: chance(0.5) ? half : Rect(x: half.minX + 10, y: 40, width: half.width - 20, height: c.height - 80),
            duration: duration, at: at)
        return duration != 0
    }

    /// Dismisses a random id (sometimes one already gone); false when the motion may jump by design.
    mutating func dismiss(at: Double, before: ModalStack) -> Bool {
        guard let id = known.isEmpty ? nil : pick(known.sorted()) else { return true }
        let animated = chance(0.85)
        do {
            let ids = try stack.dismiss(id: id, animated: animated, reason: pick(DismissReason.allCases), at: at)
            if ids.first != id { fail("dismiss(\(id)) returned \(ids)") }
        } catch {
            guard case .notFound(id) = error, before.entry(id: id) == nil else {
                fail("refused: \(error)"); return true
            }
            expectOnlyTimePassed(before)
        }
        return animated
    }

    mutating func tap(at: Double) {
        let point = Point(x: number(0...stack.container.size.width), y: number(0...stack.container.size.height))
        let hit = stack.hitTest(point, at: at)
        stack.advance(to: at)
        guard let id = hit.id else { return }
        if stack.entry(id: id)?.state == .dismissing { fail("a leaving entry took a tap") }
        if hit.dismisses { _ = try? stack.dismiss(id: id, reason: .tap, at: at) }
    }

    /// A whole gesture: began, a few changes, a release at the last change's translation,
    /// then complete or cancel. The release and the end are checked for continuity (the
    /// finger moves the entry in between, by design).
    mutating func swipe(at: Double) -> Bool {
        var now = at
        let dx = number(-300...300), dy = number(-300...300)
        let began = stack.swipe(.began, translation: .zero, at: now)
        guard began.outcome == .tracking, let swiped = began.id else { return true }
        // An entry whose dismissal takes no time goes (or snaps back) at once, by design.
        let instant = stack.entry(id: swiped)?.presentation.effectiveDismissTransition.duration == 0
        for f in [0.3, 0.7, 1.0] {
            now += number(0...0.05)
            _ = stack.swipe(.changed, translation: Point(x: dx * f, y: dy * f), at: now)
            if chance(0.05), let outcome = try? stack.present(presentation(), owner: 1, at: now) {
                known.insert(outcome.id)  // something arrives in the middle of the gesture
            }
            if chance(0.05) {  // or the screen turns
                let before = stack.advanced(to: now).scene(at: now)
                stack.setContainer(pick([phone, landscape, tablet]), at: now)
                checkContinuity(before: before, after: stack.scene(at: now), true)
            }
        }
        now += number(0...0.05)
        let v = Point(x: number(-600...600), y: number(-600...600))
        let held = stack.advanced(to: now).scene(at: now)
        let released = stack.swipe(
            chance(0.1) ? .cancelled : .ended, translation: Point(x: dx, y: dy), velocity: v, at: now)
        t = now
        if !instant { checkContinuity(before: held, after: stack.scene(at: now), false) }
        guard released.outcome == .wantsDismiss else { return false }
        now += pick([0, 0.02])
        let before = stack.advanced(to: now).scene(at: now)
        if chance(0.8) { stack.completeSwipe(at: now) } else { stack.cancelSwipe(at: now) }
        t = now
        if !instant { checkContinuity(before: before, after: stack.scene(at: now), false) }
        return false
    }

    // MARK: Checks

    mutating func expectOnlyTimePassed(_ before: ModalStack) {
        if stack.snapshot != before.snapshot { fail("a refused request changed the stack") }
    }

    /// Asking the stack about a later instant answers for the stack once time got there.
    mutating func checkLookahead(_ later: ModalStack, at: Double) {
        if stack.scene(at: at) != later.scene(at: at) {
            fail("before it, scene(at: \(at)) ahead of time differs from after advancing")
        }
        if stack.isAnimating(at: at) != later.isAnimating(at: at) {
            fail("isAnimating(at: \(at)) ahead of time differs")
        }
        let point = Point(x: number(0...stack.container.size.width), y: number(0...stack.container.size.height))
        if stack.hitTest(point, at: at) != later.hitTest(point, at: at) { fail("hitTest ahead of time differs") }
    }

    /// The revisions stand for what they promise (ModalStack+Revision): a step that kept
    /// `sceneRevision` kept the picture as it stands, one that kept `stateRevision` kept
    /// the whole stack; and a stack that is not moving holds its picture until its next
    /// deadline.
    mutating func checkRevisions(before: ModalStack) {
        if stack.stateRevision == before.stateRevision && stack.snapshot != before.snapshot {
            fail("the stack changed without a new stateRevision")
        }
        if stack.sceneRevision == before.sceneRevision && stack.scene(at: t) != before.scene(at: t) {
            fail("scene(at: \(t)) changed without a new sceneRevision")
        }
        guard !stack.isMoving else { return }
        let still = stack.scene(at: t)
        for later in [t + 0.1, t + 0.5, t + 3] where later < stack.nextDeadline ?? .infinity {
            let scene = stack.scene(at: later)
            if scene.layers != still.layers || scene.statusBar != still.statusBar || scene.isAnimating {
                fail("not moving, yet scene(at: \(later)) differs from scene(at: \(t))")
            }
        }
    }

    mutating func checkContinuity(before: Scene, after: Scene, _ ignoreDimmingFrames: Bool) {
        for id in Set(before.entryIDs).intersection(after.entryIDs) {
            // An overlay has no dimming layer; an entry keeps its level, so both have the same.
            let layers = { (s: Scene) in [s.dimming(id), s.content(id)].compactMap { $0 } }
            var a = layers(before), b = layers(after)
            // Labels and marks may switch (adaptation, tint); only motion is continuous.
            for i in a.indices where i < b.count {
                b[i].contentRevision = a[i].contentRevision; b[i].tintDimmed = a[i].tintDimmed
            }
            if ignoreDimmingFrames, a.count == 2, b.count == 2 { a[0].frame = b[0].frame }
            let jump = largestJump(a, b)
            if jump >= jumpTolerance { fail("\(id) jumped by \(jump) at the operation's instant") }
        }
    }

    mutating func check() {
        for problem in stack.invariantViolations() { fail(problem) }
        let events = stack.drainEvents()
        for event in events { record(event) }
        checkNothingStaysAboveWhatLeaves(events.notices(.willDismiss))
        checkLifeCycles()
        checkScene()
        if reportedStatusBar != stack.statusBar { fail("status bar \(stack.statusBar) never reported") }
    }

    mutating func record(_ event: StackEvent) {
        let time: Double
        switch event {
        case .stackChanged, .mode: return
        case .statusBar(let appearance, let duration, let at):
            reportedStatusBar = appearance
            if duration < 0 { fail("negative status-bar duration") }
            time = at
        case .lifecycle(let n):
            time = n.time
            if !known.contains(n.id) { fail("event for unknown id \(n.id)") }
            advancePhase(n)
        }
        if time < lastEventTime { fail("event at \(time) after one at \(lastEventTime)") }
        if time > stack.time { fail("event at \(time) is in the future of \(stack.time)") }
        lastEventTime = max(lastEventTime, time)
    }

    /// queued → willPresent → didPresent → willDismiss → didDismiss, with shortcuts:
    /// a queued entry can be withdrawn; a presenting one can start leaving; removal at
    /// once is willDismiss + didDismiss. Nothing follows didDismiss.
    mutating func advancePhase(_ n: LifecycleNotice) {
        let last = phase[n.id]
        let allowed: [LifecycleEvent?]
        switch n.event {
        // An id may be given out again once its entry is gone: a new life begins.
        case .queued: allowed = [nil, .didDismiss]
        case .willPresent: allowed = [nil, .queued, .didDismiss]
        case .didPresent: allowed = [.willPresent]
        case .willDismiss: allowed = [.willPresent, .didPresent]
        case .didDismiss: allowed = [.queued, .willDismiss]
        case .adapted, .updated, .detentChanged:
            if ![.queued, .willPresent, .didPresent, .willDismiss].contains(last) {
                fail("\(n.id) \(n.event) while \(String(describing: last))")
            }
            return
        }
        if !allowed.contains(last) { fail("\(n.id): \(n.event) after \(String(describing: last))") }
        if [.willDismiss, .didDismiss].contains(n.event), n.reason == nil {
            fail("\(n.id) \(n.event) without a reason")
        }
        phase[n.id] = n.event
    }

    /// An entry dismissed by request, tap or swipe takes everything above it on its level
    /// along (only owner removal and preemption take one entry out from under another;
    /// overlays are independent of each other).
    mutating func checkNothingStaysAboveWhatLeaves(_ leaving: [LifecycleNotice]) {
        for n in leaving where [.request, .tap, .swipe].contains(n.reason) {
            guard let i = stack.entries.firstIndex(where: { $0.id == n.id }) else { continue }
            let level = stack.entries[i].level
            for above in stack.entries[(i + 1)...]
            where above.state != .dismissing && above.level == level && level.isModal {
                fail("\(above.id) stays above \(n.id), which left by \(n.reason!)")
            }
        }
    }

    /// Every id is where its events say: on screen, queued, or gone for good.
    mutating func checkLifeCycles() {
        let expected: [LifecycleEvent: EntryState] = [.queued: .queued, .willPresent: .presenting,
                                                      .didPresent: .presented, .willDismiss: .dismissing]
        for id in known {
            let entry = stack.entry(id: id)
            guard let last = phase[id] else { fail("\(id) was given out without an event"); continue }
            if last == .didDismiss {
                if entry != nil { fail("\(id) is still there after didDismiss") }
            } else if entry?.state != expected[last] {
                fail("\(id) is \(String(describing: entry?.state)) but its last event was \(last)")
            }
        }
    }

    /// The scene draws exactly the on-screen entries from the last full-screen one at rest up.
    mutating func checkScene() {
        let scene = stack.scene(at: stack.time)
        let hider = stack.entries.lastIndex {
                $0.state == .presented && ($0.animation?.isFinished(at: stack.time) ?? true)
                    && $0.effectiveStyle.hidesPresenter
        } ?? 0
        let shown = stack.entries[hider...]
        // A modal entry draws its dimming and its content; an overlay only its content; a
        // sheet its grabber last, unless it covers its container.
        let expected: [(String, Level, LayerRole)] = shown.flatMap { e in
            let grabber =
                e.effectiveStyle.sheet.map {
                    $0.grabber && !$0.isFullScreen(in: e.layoutContainer(in: stack.container).container)
                } ?? false
            let roles: [LayerRole] = (e.level.isModal ? [.dimming] : []) + [.content] + (grabber ? [.grabber] : [])
            return roles.map { (e.id, e.level, $0) }
        }
        if scene.layers.map(\.entryID) != expected.map(\.0) {
            fail("scene \(scene.entryIDs) ≠ entries \(shown.map(\.id))")
        }
        if scene.layers.map(\.role) != expected.map(\.2) { fail("layer roles out of order") }
        if scene.layers.map(\.level) != expected.map(\.1) { fail("a layer names the wrong level") }
        if scene.statusBar != stack.statusBar { fail("scene's status bar differs") }
        if scene.layers.contains(where: { !$0.frame.minX.isFinite || !$0.alpha.isFinite || !$0.scale.isFinite }) {
            fail("non-finite layer")
        }
    }

    /// The end of a run: everything dismissed and time run out; every id has left exactly once.
    mutating func finish() {
        step += 1
        _ = stack.dismissAll(at: t)
        stack.advance(to: t + 100)
        t += 100
        check()
        if !stack.allEntries.isEmpty { fail("entries left after dismissAll: \(stack.allEntries.map(\.id))") }
        for id in known where phase[id] != .didDismiss { fail("\(id) never got didDismiss") }
        if stack.statusBar != stack.configuration.baseStatusBar { fail("status bar not restored") }
    }
}

@Suite struct RandomizedStackTests {
    @Test(arguments: 1...24)
    func longRandomSequencesKeepEveryPromise(seed: Int) {
        var run = RandomRun(seed: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
        for _ in 0..<600 where run.failures.isEmpty { run.runStep() }
        if run.failures.isEmpty { run.finish() }
        #expect(run.failures.isEmpty, "seed \(seed):\n\(run.failures.joined(separator: "\n"))")
        if run.failures.isEmpty { #expect(run.known.count > 20) }  // the run did present a fair number
    }

    @Test func theGeneratorIsReproducible() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        #expect((0..<100).map { _ in a.next() } == (0..<100).map { _ in b.next() })
        var c = SplitMix64(seed: 0)
        #expect(c.next() == 0xE220_A839_7B1D_CDAF)  // the reference value for seed 0
    }
}
