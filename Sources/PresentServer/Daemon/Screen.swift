// One output: a screen with its own modal stack — container, keyboard, status bar,
// levels, contexts and arbitration — and its own frame rate. `main` exists from the
// start; a shell adds the others (a cluster beside a head unit, a second kiosk display).
// The daemon routes every request to the screen it names and runs each screen's frame
// clock on that screen's own phase, so a 120 Hz and a 30 Hz screen tick at k/120 and
// k/30 side by side. Entry ids are unique across screens (Daemon+Outputs).

import PresentCore

/// A screen and the state of its frame clock. Owned by the daemon's loop.
final class Screen {
    /// The screen every daemon has from the start; requests that name none mean it.
    static let mainName = "main"

    let name: String
    var stack: ModalStack
    /// The screen's own frame rate; nil follows the daemon's `fps` (and its reloads).
    var ownFPS: Int?

    // The frame clock (Daemon+Publishing)
    var frameTimer: FrameTimer?
    var framesRunning = false
    /// Frames of this screen, numbered from 1.
    var frameSeq: UInt64 = 0
    /// Something changed that the next frame must show even if nothing animates.
    var visualsDirty = false
    /// The last frame sent said `animating: true`: the resting frame is still owed.
    var owesRestingFrame = false
    /// The stack changed since its last `stack` notification.
    var stackChanged = false
    /// The motion its last `animations` notification announced (time aside): the next
    /// one is sent when the motion in force differs.
    var announcedMotion: AnimationSnapshot?

    /// Wakes the loop at the next auto-dismiss deadline (Daemon+Conversation).
    var deadlineTimer: Timer?
    var scheduledDeadline: Double?

    /// What `--check-invariants` last logged for this screen.
    var reportedInvariantProblems: [String] = []

    init(name: String, stack: ModalStack, fps: Int? = nil) {
        self.name = name
        self.stack = stack
        self.ownFPS = fps
    }

    var isMain: Bool { name == Self.mainName }

    /// The frame rate in force, given the daemon's.
    func fps(daemonFPS: Int) -> Int { ownFPS ?? daemonFPS }

    /// Index of the first tick of a `fps` clock strictly after `t` (ticks sit at k/fps).
    /// The nudge keeps a time that is itself a tick (k/fps, rounded) from counting again.
    static func nextTickIndex(after t: Double, fps: Int) -> Double {
        (t * Double(fps) + 1e-9).rounded(.down) + 1
    }

    /// Releases the timers: the screen was removed, or the daemon shuts down.
    func close() {
        frameTimer?.close()
        frameTimer = nil
        framesRunning = false
        deadlineTimer?.close()
        deadlineTimer = nil
        scheduledDeadline = nil
    }
}
