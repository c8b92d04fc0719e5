// One screen's scheduler: when its frames tick, whether the next tick owes a frame, and
// when the loop must wake for its next auto-dismiss deadline.
//
// Ticks sit on multiples of 1/fps of the clock they run on (CLOCK_MONOTONIC, or the
// manual clock's seconds from 0), so every renderer of a screen sees the same phase and
// a 120 Hz and a 30 Hz screen tick at k/120 and k/30 side by side. A tick owes a frame
// when the picture changed since the last frame (the stack's `sceneRevision` is not the
// one drawn), while something moves, and once more after a frame that said it was
// moving (the resting frame, even when the motion ended between ticks). The monotonic
// clock runs a `FrameTimer` only while frames are owed; the manual clock has no timer
// (`advance` produces its ticks), and both serve them through the daemon's one `tick`.
//
// Deadlines: frames run only while something moves, so an entry at rest counting down
// needs a wake-up of its own on the monotonic clock (`scheduleDeadline`); the stack itself
// places the dismissal at the exact deadline, however late the wake-up. Once the stack's
// time has passed a deadline it had at the last publish, a frame is owed, on either clock
// (`notePublishedDeadline`): what timed out may have left with nothing moving.

/// The scheduler of one screen: its frame ticks and its deadline wake-up (loop thread only).
final class ScreenScheduler {
    /// The monotonic clock's timer; nil for the manual clock, and once closed.
    private var timer: FrameTimer?
    /// The timer is armed: ticks arrive at `onTick`.
    private(set) var isRunning = false
    /// The last frame's number (frames are numbered from 1, per screen).
    private(set) var frameSeq: UInt64 = 0
    /// The stack's `sceneRevision` the last frame showed.
    private var drawnRevision: UInt64
    /// A frame is owed whatever the revision says: the last one sent said `animating:
    /// true` (the resting frame), or a deadline passed (`notePublishedDeadline`).
    private var owesFrame = false

    /// Wakes the loop at the next auto-dismiss deadline (`scheduleDeadline`).
    private var deadlineTimer: Timer?
    /// The deadline `deadlineTimer` is armed for.
    private(set) var scheduledDeadline: Double?
    /// The stack's next deadline at its last publish.
    private(set) var publishedDeadline: Double?

    /// A clock whose screen shows `revision` (a new screen: nobody has seen another).
    init(showing revision: UInt64) {
        drawnRevision = revision
    }

    // MARK: The schedule

    /// Whether the monotonic timer exists (`attach` was called, the clock is not closed).
    var hasTimer: Bool { timer != nil }

    /// Gives the clock its monotonic timer; `onTick` gets each tick's deadline.
    func attach(_ timer: FrameTimer, onTick: @escaping (_ deadline: Double) -> Void) {
        precondition(self.timer == nil, "a frame clock has one timer")
        timer.onTick = { deadline, _ in onTick(deadline) }
        self.timer = timer
    }

    /// Starts the ticks at the first multiple of 1/`fps` after `now`, unless they run
    /// (or there is no timer: the manual clock's ticks come from `advance`).
    func start(fps: Int, now: Double) throws {
        precondition(fps > 0, "a frame rate is positive")
        guard !isRunning, let timer else { return }
        let interval = 1 / Double(fps)
        try timer.start(firstDeadline: ((now / interval).rounded(.down) + 1) * interval, interval: interval)
        isRunning = true
    }

    /// The deadline of the next monotonic tick, if the ticks run.
    var nextTick: Double? { isRunning ? timer?.nextDeadline : nil }

    /// Stops the ticks (the screen is idle; `start` resumes them on the phase).
    func stop() {
        timer?.stop()
        isRunning = false
    }

    /// Moves running ticks to a new rate, on that rate's phase; stopped ones stay stopped.
    func restart(fps: Int, now: Double) throws {
        guard isRunning else { return }
        stop()
        try start(fps: fps, now: now)
    }

    /// Releases the timers: the screen was removed, or the daemon shuts down.
    func close() {
        timer?.close()
        timer = nil
        isRunning = false
        deadlineTimer?.close()
        deadlineTimer = nil
        scheduledDeadline = nil
    }

    // MARK: Deadlines

    /// Arms the wake-up for `deadline`, the stack's next auto-dismiss deadline, or disarms
    /// it when there is none. `makeTimer` is asked once, for the timer whose `onFire`
    /// handles a deadline. `now` is read only when a timer is armed (most publishes change
    /// no deadline).
    func scheduleDeadline(_ deadline: Double?, now: @autoclosure () -> Double, makeTimer: () -> Timer?) {
        guard let deadline else {
            deadlineTimer?.cancel()
            scheduledDeadline = nil
            return
        }
        guard deadline != scheduledDeadline else { return }
        if deadlineTimer == nil, let timer = makeTimer() {
            let handle = timer.onFire
            timer.onFire = { [unowned self] in
                self.scheduledDeadline = nil
                handle()
            }
            deadlineTimer = timer
        }
        scheduledDeadline = deadline
        deadlineTimer?.start(after: max(0, deadline - now()))
    }

    /// A publish at stack time `time`, whose next deadline is `next`. If the time passed
    /// the deadline of the previous publish (a countdown ran out, a mode ended), a frame is
    /// owed: the picture may have changed with time alone and nothing moving — a covered
    /// entry that timed out leaves at once — which no revision says (ModalStack+Revision).
    func notePublishedDeadline(next: Double?, time: Double) {
        if passedPublishedDeadline(by: time) { owesFrame = true }
        publishedDeadline = next
    }

    /// Whether stack time `time` has passed the deadline of the last publish: the next
    /// publish owes a frame.
    func passedPublishedDeadline(by time: Double) -> Bool {
        publishedDeadline.map { $0 <= time } ?? false
    }

    /// The manual clock's phase: index of the first tick of a `fps` clock strictly after
    /// `t` (ticks sit at k/fps). The nudge keeps a time that is itself a tick (k/fps,
    /// rounded), as the manual clock's times are, from counting again. An integer count
    /// (as a Double), so a clock stepped tick by tick never drifts.
    static func nextTickIndex(after t: Double, fps: Int) -> Double {
        (t * Double(fps) + 1e-9).rounded(.down) + 1
    }

    /// The manual clock's ticks of screens at `rates` after `start` up to `end`, in time
    /// order: each tick's time and the screens (indices into `rates`) that tick then, so
    /// screens whose ticks coincide draw at the same instant.
    static func manualTicks(after start: Double, through end: Double, rates: [Int]) -> ManualTicks {
        ManualTicks(rates: rates, upcoming: rates.map { nextTickIndex(after: start, fps: $0) }, end: end)
    }

    // MARK: Frames

    /// Whether a tick now owes a frame, for a stack at `revision` that is `moving`.
    func isFrameDue(revision: UInt64, moving: Bool) -> Bool {
        revision != drawnRevision || moving || owesFrame
    }

    /// The number of a frame being encoded (only frames someone hears are numbered).
    func nextFrameSeq() -> UInt64 {
        frameSeq += 1
        return frameSeq
    }

    /// A tick drew the picture at `revision` (for whoever listened; nobody, and it still
    /// counts as drawn); `saidMoving`: a frame went out saying `animating: true`, so one
    /// more is owed.
    func drewFrame(revision: UInt64, saidMoving: Bool) {
        drawnRevision = revision
        owesFrame = saidMoving
    }

    /// The picture at `revision` needs no frame: everyone who could watch it has it (the
    /// clock starts before anyone subscribed, and a subscriber's snapshot holds the
    /// picture as it is).
    func settle(at revision: UInt64) {
        drawnRevision = revision
        owesFrame = false
    }
}

/// The manual clock's ticks across screens (`ScreenScheduler.manualTicks`).
struct ManualTicks: Sequence, IteratorProtocol {
    /// Each screen's frame rate.
    fileprivate let rates: [Int]
    /// Each screen's next tick index: integer counts, so the ticks never drift.
    fileprivate var upcoming: [Double]
    /// The last time a tick may have (a hair later counts: rounding).
    fileprivate let end: Double

    /// The next tick: its time and the screens that tick then; nil past `end`.
    mutating func next() -> (time: Double, due: [Int])? {
        let times = zip(rates, upcoming).map { $1 / Double($0) }
        guard let t = times.min(), t <= end + 1e-12 else { return nil }
        let due = times.indices.filter { times[$0] == t }
        for i in due { upcoming[i] += 1 }
        return (t, due)
    }
}
