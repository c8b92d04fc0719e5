// Reduced motion (UIKit's UIAccessibility.isReduceMotionEnabled with
// prefersCrossFadeTransitions; the desktop's org.freedesktop.appearance reduced-motion).
// While it holds, every transition that starts is a cross-fade over no more than its own
// time, and no curve overshoots: springs settle critically damped. Motions already running
// keep their course, and a finger still moves what it drags.

extension ModalStack {
    /// Turns reduced motion on or off, from `t` on.
    public mutating func setReducedMotion(_ on: Bool, at t: Double) {
        advance(to: t)
        guard on != reducedMotion else { return }
        reducedMotion = on
        events.append(.mode(ModeChange(doNotDisturb: doNotDisturb, time: time, reason: .request, released: [],
                                       reducedMotion: on)))
        stateChanged()   // nothing moves until the next transition
    }

    /// The transition an entry moves with now.
    func moving(_ transition: Transition) -> Transition {
        reducedMotion ? transition.reducedMotion : transition
    }

    /// The curve a re-layout moves along now.
    func moving(_ curve: TimingCurve) -> TimingCurve {
        reducedMotion ? curve.withoutOvershoot : curve
    }
}
