// One output: a screen with its own modal stack — container, keyboard, status bar,
// levels, contexts and arbitration — and its own frame rate. `main` exists from the
// start; a shell adds the others (a cluster beside a head unit, a second kiosk display).
// The daemon routes every request to the screen it names and runs each screen's frame
// clock on that screen's own phase, so a 120 Hz and a 30 Hz screen tick at k/120 and
// k/30 side by side. Entry ids are unique across screens (Daemon+Outputs).

import PresentCore

/// A screen: its stack, its scheduler and what was last published of it. Owned by the
/// daemon's loop.
final class Screen {
    /// The screen every daemon has from the start; requests that name none mean it.
    static let mainName = "main"

    let name: String
    /// The screen's model. Writable: its mutating methods keep the stack's own rules, and
    /// every request that changes a screen changes it through them.
    var stack: ModalStack
    /// The screen's own frame rate; nil follows the daemon's `fps` (and its reloads).
    private(set) var ownFPS: Int?
    /// When its frames tick, whether one is owed, and its deadline wake-up
    /// (ScreenScheduler.swift).
    let scheduler: ScreenScheduler

    /// The stack's revisions when its events were last published (Daemon+Publishing):
    /// while the stack's `stateRevision` is the same, there is nothing new to publish.
    /// Nil: never published.
    private(set) var published: (state: UInt64, scene: UInt64)?
    /// The motion its last `animations` notification announced (time aside): the next
    /// one is sent when the motion in force differs.
    private(set) var announcedMotion: AnimationSnapshot?
    /// The motion of the last few seconds, which a renderer's `presented` frames are checked
    /// against. Kept while the motion is announced, or once a renderer reported frames of
    /// this screen (a renderer of the frames topic); otherwise nothing would read it.
    private(set) var motionHistory = MotionHistory()
    private(set) var keepsMotionHistory = false

    /// What `--check-invariants` last logged for this screen.
    private(set) var reportedInvariantProblems: [String] = []

    /// The next tick, made ahead of its deadline (`tickEnded`).
    private var preparedTick: PreparedTick?
    /// The frame of the tick `advance` just took from `preparedTick`, until it is drawn.
    private var preparedFrame: PreparedFrame?
    /// The stack's `stateRevision` when the last moving tick ended; nil once the next began.
    private var revisionAfterTick: UInt64?
    /// The stack changed between the last two ticks (or there was no tick before): the
    /// next tick is not made ahead.
    private(set) var changedBetweenTicks = true

    init(name: String, stack: ModalStack, fps: Int? = nil) {
        self.name = name
        self.stack = stack
        self.ownFPS = fps
        self.scheduler = ScreenScheduler(showing: stack.sceneRevision)
    }

    var isMain: Bool { name == Self.mainName }

    /// The frame rate in force, given the daemon's.
    func fps(daemonFPS: Int) -> Int { ownFPS ?? daemonFPS }

    /// Whether its next tick owes a frame: the picture changed since the last one, moves,
    /// or the resting frame is owed.
    var isFrameDue: Bool {
        scheduler.isFrameDue(revision: stack.sceneRevision, moving: readInPlace { $0.isMoving })
    }

    /// What `query` reads of the stack, read where the stack is. A computed property of the
    /// stack asked through `stack` is asked of a copy of the whole stack (each of its arrays
    /// retained, then released), and the frame tick asks several. The stack is lent `inout`
    /// only to reach it in place: `query` must not change it, nor reach the screen (an
    /// access that overlaps this one traps).
    func readInPlace<Result>(_ query: (inout ModalStack) -> Result) -> Result { query(&stack) }

    /// A new frame rate of its own (nil: the daemon's); whether it changed, in which case
    /// the caller restarts its frames.
    func setOwnFPS(_ fps: Int?) -> Bool {
        guard fps != ownFPS else { return false }
        ownFPS = fps
        return true
    }

    // MARK: Publishing

    /// Notes that what the stack holds now is published. Returns whether the picture
    /// changed since the last publish (false for the first: it shows what the screen
    /// started with).
    func notePublished() -> Bool {
        let pictureChanged = published.map { $0.scene != stack.sceneRevision } ?? false
        published = (stack.stateRevision, stack.sceneRevision)
        return pictureChanged
    }

    /// Tells the scheduler what this publish leaves: the stack's time and next deadline.
    func notePublishedDeadline() {
        scheduler.notePublishedDeadline(next: readInPlace { $0.nextDeadline }, time: stack.time)
    }

    /// Whether `motion` needs announcing: it differs from the last one announced. If so,
    /// it is the one announced from now on.
    func announce(_ motion: AnimationSnapshot) -> Bool {
        if let last = announcedMotion, motion.describesTheSameMotion(as: last) { return false }
        announcedMotion = motion
        return true
    }

    /// The motion in force was shown some other way (a snapshot), or nobody watches it:
    /// `motion` (nil: nothing) is what a newcomer already knows.
    func assumeAnnounced(_ motion: AnimationSnapshot?) { announcedMotion = motion }

    /// A renderer reported frames of this screen: from now on the motion is kept for them.
    func keepMotionHistory() { keepsMotionHistory = true }

    /// The last renderer that reported frames of this screen left: nothing reads the
    /// history any more, and the next renderer's first report starts it again.
    func forgetMotionHistory() {
        keepsMotionHistory = false
        motionHistory = MotionHistory()
    }

    /// `motion` is in force from its time on (what the renderers' frames are checked against).
    func recordMotion(_ motion: AnimationSnapshot) { motionHistory.record(motion) }

    /// Whether `problems` differ from those last reported; they are the ones reported
    /// from now on.
    func noteInvariantProblems(_ problems: [String]) -> Bool {
        defer { reportedInvariantProblems = problems }
        return problems != reportedInvariantProblems
    }

    // MARK: The next tick, made ahead
    //
    // A screen's picture is a function of its stack and the time (the core reads no clock),
    // so the next tick can be made before its deadline: the stack advanced on a copy, its
    // scene found and its frame encoded, right after this tick while the code and data they
    // touch are warm. At the deadline only the publish and the send are left between the
    // wake-up and a renderer's read. A tick made ahead stands only while the stack is the
    // one it was made from: every change but a drain bumps its `stateRevision`
    // (ModalStack+Revision), so a request in between makes the tick be made at its
    // deadline, as if nothing had been made. The work is the same, only earlier — unless
    // requests keep coming between ticks (a drag at the display's rate), when it would be
    // done twice a tick: then no tick is made ahead until an interval passes without one.

    /// After a tick that leaves the screen moving: makes the tick at `deadline` ahead (the
    /// stack advanced to it, and, `withFrame`, its frame numbered as the next one, by
    /// `encode`), unless the stack changed between the last two ticks. The scheduler
    /// numbers frames: this one is used only if its number is still the next.
    func tickEnded(next deadline: Double, withFrame: Bool, encode: (_ scene: Scene, _ seq: UInt64) -> [UInt8]) {
        revisionAfterTick = stack.stateRevision
        // What waits to be published would be published again from the copy.
        guard !changedBetweenTicks, !noticesWait else { return }
        var next = stack
        next.advance(to: deadline)
        var frame: PreparedFrame?
        if withFrame {
            let scene = next.scene(at: deadline)
            let seq = scheduler.frameSeq &+ 1
            frame = PreparedFrame(time: deadline, stateRevision: next.stateRevision, seq: seq,
                                  line: encode(scene, seq), saidMoving: scene.isAnimating)
        }
        preparedTick = PreparedTick(deadline: deadline, origin: stack.stateRevision, stack: next, frame: frame)
    }

    /// Moves the stack's time to `t` (ModalStack.advance): takes the stack made ahead for
    /// `t` when it was made from the stack as it is, and its frame with it.
    func advance(to t: Double) {
        changedBetweenTicks = revisionAfterTick.map { $0 != stack.stateRevision } ?? true
        revisionAfterTick = nil
        preparedFrame = nil
        if let prepared = preparedTick, prepared.deadline == t, prepared.origin == stack.stateRevision {
            stack = prepared.stack
            preparedFrame = prepared.frame
        } else {
            stack.advance(to: t)
        }
        preparedTick = nil
    }

    /// The frame made ahead for the tick at `t`, when it is frame `seq` and the stack has
    /// not changed since `advance` took it (publishing only drains it); nil otherwise. Once.
    func takePreparedFrame(at t: Double, seq: UInt64) -> (line: [UInt8], saidMoving: Bool)? {
        defer { preparedFrame = nil }
        guard let frame = preparedFrame, frame.time == t, frame.seq == seq, frame.stateRevision == stack.stateRevision
        else { return nil }
        return (frame.line, frame.saidMoving)
    }

    /// The tick is over: a frame made ahead that it did not draw (nobody heard this screen)
    /// is let go.
    func dropPreparedFrame() { preparedFrame = nil }

    /// A publish now would send nothing and owe no frame: no event or retarget waits, and
    /// no deadline of the last publish has passed (ScreenScheduler.notePublishedDeadline).
    var publishIsQuiet: Bool {
        !noticesWait && !scheduler.passedPublishedDeadline(by: stack.time)
    }

    /// Events or retargets of the stack wait to be published.
    private var noticesWait: Bool { readInPlace { $0.hasUndrainedNotices } }

    // MARK: The auto-dismiss deadline

    /// Arms the scheduler's wake-up for the stack's next auto-dismiss deadline (none:
    /// disarms it); `makeTimer` is asked once, for the timer that handles a deadline.
    func scheduleDeadline(now: @autoclosure () -> Double, makeTimer: () -> Timer?) {
        scheduler.scheduleDeadline(readInPlace { $0.nextDeadline }, now: now(), makeTimer: makeTimer)
    }

    /// Releases the timers: the screen was removed, or the daemon shuts down.
    func close() {
        scheduler.close()
    }
}

/// A screen's next tick, made ahead of its deadline (`Screen.tickEnded`).
private struct PreparedTick {
    /// The tick it was made for.
    let deadline: Double
    /// The `stateRevision` of the stack it was made from.
    let origin: UInt64
    /// That stack advanced to `deadline`.
    let stack: ModalStack
    /// Its frame, when someone heard frames.
    let frame: PreparedFrame?
}

/// A frame encoded ahead, for the tick at `time` of the stack at `stateRevision`.
private struct PreparedFrame {
    let time: Double
    let stateRevision: UInt64
    let seq: UInt64
    let line: [UInt8]
    /// It says `animating: true`.
    let saidMoving: Bool
}
