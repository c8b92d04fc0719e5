// The working set, given back again each time the daemon falls quiet.
//
// The start-up trim (WorkingSet.swift) releases the pages start-up touched, but the first
// requests fault code back in, and for each fault the kernel maps up to 16 neighbouring
// pages that happen to be in the page cache (fault-around; Linux has no per-process
// switch for it). So a daemon that has served one `ping` holds 1.2–3.9 MiB more of its
// binary's text than the code it runs, depending on what the page cache holds. A second
// with no client activity and no frame clock running is the sign that the user is idle:
// the daemon then trims again, and holds little more than its own anonymous memory until
// the next request.
//
// The price is paid by the first request after a quiet second: the code it runs faults
// back in (minor faults: the pages stay in the page cache), about 0.2 ms on a `ping`
// (measured: 0.3 ms against 0.15 after half a second). One timer wake-up follows the
// last activity; none come while the daemon stays quiet.

/// When the working set is trimmed again: `quietMilliseconds` after the last activity,
/// unless a frame clock runs then. Pure: the times (the loop's milliseconds) are arguments.
struct IdleTrimSchedule: Equatable {
    /// How long the daemon must be quiet before it trims.
    static let quietMilliseconds: UInt64 = 1000

    /// When a client last did something.
    private(set) var lastActivity: UInt64
    /// Nothing happened since the last trim: the timer is not armed.
    private(set) var isTrimmed: Bool

    /// The start-up trim has just run.
    init(trimmedAt time: UInt64) {
        lastActivity = time
        isTrimmed = true
    }

    /// A client did something. True when the timer must be armed (`quietMilliseconds` from
    /// now): the first activity since the last trim.
    mutating func noteActivity(at time: UInt64) -> Bool {
        lastActivity = time
        guard isTrimmed else { return false }
        isTrimmed = false
        return true
    }

    enum Decision: Equatable {
        /// Trim now; the timer stays disarmed until the next activity.
        case trim
        /// Not yet quiet: arm the timer again, to fire this many milliseconds from now.
        case wait(UInt64)
    }

    /// The timer fired at `time`; `moving`: a frame clock runs.
    mutating func timerFired(at time: UInt64, moving: Bool) -> Decision {
        precondition(!isTrimmed, "the timer is armed only after activity")
        if moving { return .wait(Self.quietMilliseconds) }
        let quietFor = time >= lastActivity ? time - lastActivity : 0
        guard quietFor >= Self.quietMilliseconds else { return .wait(Self.quietMilliseconds - quietFor) }
        isTrimmed = true
        return .trim
    }
}

/// Runs an `IdleTrimSchedule` on the loop's timer (loop thread only).
final class IdleTrim {
    private var schedule: IdleTrimSchedule
    private let loop: EventLoop
    private let timer: Timer
    /// Trims so far after the start-up one.
    private var trims = 0

    /// `moving`: whether a frame clock runs (the loop is awake anyway, and will run again).
    /// `trimmed`: after each trim, the KiB it released and how many trims there were.
    init(loop: EventLoop, moving: @escaping () -> Bool,
         trimmed: @escaping (_ releasedKiB: Int, _ count: Int) -> Void) throws {
        self.loop = loop
        self.timer = try Timer(loop: loop)
        self.schedule = IdleTrimSchedule(trimmedAt: loop.milliseconds)
        timer.onFire = { [unowned self] in
            switch self.schedule.timerFired(at: self.loop.milliseconds, moving: moving()) {
            case .wait(let milliseconds):
                self.timer.start(after: Double(milliseconds) / 1000)
            case .trim:
                self.trims += 1
                trimmed(WorkingSet.trimFileMappings(reclaiming: false), self.trims)
            }
        }
    }

    /// A client connected, sent a line or left. Cheap: on the path of every request.
    @inline(__always)
    func noteActivity() {
        if schedule.noteActivity(at: loop.milliseconds) {
            timer.start(after: Double(IdleTrimSchedule.quietMilliseconds) / 1000)
        }
    }

    func close() { timer.close() }
}
