// One output: a screen with its own modal stack — container, keyboard, status bar,
// levels, contexts and arbitration — and its own frame rate. `main` exists from the
// start; a shell adds the others (a cluster beside a head unit, a second kiosk display).
// The daemon routes every request to the screen it names and runs each screen's frame
// clock on that screen's own phase, so a 120 Hz and a 30 Hz screen tick at k/120 and
// k/30 side by side. Entry ids are unique across screens (Daemon+Outputs).

import PresentCore

/// A screen: its stack, its frame clock and what was last published of it. Owned by the
/// daemon's loop.
final class Screen {
    /// The screen every daemon has from the start; requests that name none mean it.
    static let mainName = "main"

    let name: String
    var stack: ModalStack
    /// The screen's own frame rate; nil follows the daemon's `fps` (and its reloads).
    var ownFPS: Int?
    /// When its frames tick and whether one is owed (FrameClock.swift).
    let clock: FrameClock

    /// The stack's revisions when its events were last published (Daemon+Publishing):
    /// while the stack's `stateRevision` is the same, there is nothing new to publish.
    /// Nil: never published.
    var published: (state: UInt64, scene: UInt64)?
    /// The motion its last `animations` notification announced (time aside): the next
    /// one is sent when the motion in force differs.
    var announcedMotion: AnimationSnapshot?
    /// The motion of the last few seconds, which a renderer's `presented` frames are checked
    /// against. Kept while the motion is announced, or once a renderer reported frames of
    /// this screen (a renderer of the frames topic); otherwise nothing would read it.
    var motionHistory = MotionHistory()
    var keepsMotionHistory = false

    /// Wakes the loop at the next auto-dismiss deadline (Daemon+Conversation).
    var deadlineTimer: Timer?
    var scheduledDeadline: Double?
    /// The stack's `nextDeadline` at its last publish: once its time has passed it, the
    /// frame clock owes a frame (`FrameClock.deadlinePassed`), on either clock.
    var publishedDeadline: Double?

    /// What `--check-invariants` last logged for this screen.
    var reportedInvariantProblems: [String] = []

    init(name: String, stack: ModalStack, fps: Int? = nil) {
        self.name = name
        self.stack = stack
        self.ownFPS = fps
        self.clock = FrameClock(showing: stack.sceneRevision)
    }

    var isMain: Bool { name == Self.mainName }

    /// The frame rate in force, given the daemon's.
    func fps(daemonFPS: Int) -> Int { ownFPS ?? daemonFPS }

    /// Whether its next tick owes a frame: the picture changed since the last one, moves,
    /// or the resting frame is owed.
    var isFrameDue: Bool {
        clock.isFrameDue(revision: stack.sceneRevision, moving: stack.isMoving)
    }

    /// Releases the timers: the screen was removed, or the daemon shuts down.
    func close() {
        clock.close()
        deadlineTimer?.close()
        deadlineTimer = nil
        scheduledDeadline = nil
    }
}
