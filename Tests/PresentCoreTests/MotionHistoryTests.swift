// The error of a frame on glass: the distance between the picture drawn for its time and the
// analytic motion at the moment it was shown, from the motion the stack announced. The stack
// runs on the times the tests give it (the core's injected clock); linear timing makes every
// expected distance exact arithmetic on the geometry.

import Testing
import PresentCore

@Suite struct MotionHistoryTests {
    /// An alert covering vertically in 1 s, linear, on the phone: it rises from the bottom
    /// edge to its resting place at a constant speed (points per second).
    func risingAlert() -> (stack: ModalStack, history: MotionHistory, speed: Double) {
        var stack = ModalStack(container: phone)
        stack.show(sheet("a", style: .alert, transition: .coverVertical, duration: 1), at: 10)
        var history = MotionHistory()
        history.record(stack.animations(at: 10))
        let rest = stack.scene(at: 12).content("a")!.frame.minY
        return (stack, history, phone.size.height - rest)
    }

    @Test func aFrameShownLateByAKnownTimeIsOffByTheDistanceTheMotionCoveredMeanwhile() throws {
        let (_, history, speed) = risingAlert()
        #expect(speed > 100, "the alert travels some distance")
        // Drawn for 10.25, shown a 64th of a second later: the motion had risen speed/64 further.
        let late = try #require(history.drawingError(drawnFor: 10.25, shownAt: 10.25 + 1.0 / 64))
        #expect(near(late, speed / 64, 1e-9), "\(late) points against \(speed / 64)")
        // Shown early by as much: the same distance the other way.
        #expect(near(history.drawingError(drawnFor: 10.5, shownAt: 10.5 - 1.0 / 64) ?? -1, speed / 64, 1e-9))
        // Shown exactly when it was drawn for, or at rest: nothing.
        #expect(history.drawingError(drawnFor: 10.5, shownAt: 10.5) == 0)
        #expect(history.drawingError(drawnFor: 11.5, shownAt: 11.6) == 0, "at rest the motion moves nothing")
        // Late across the motion's end: only the distance still to go at the time drawn for.
        #expect(near(history.drawingError(drawnFor: 10.95, shownAt: 11.2) ?? -1, speed * 0.05, 1e-9))
    }

    @Test func eachTimeIsReadFromTheMotionInForceThen() throws {
        var (stack, history, speed) = risingAlert()
        // Dismissed at rest at 12, falling back out in 1 s: a frame drawn for 11.9 (at rest) and
        // shown at 12.1 is off by the fall of the first 0.1 s of the dismissal.
        _ = try stack.dismiss(
            id: "a", transition: Transition(kind: .coverVertical, duration: 1, timing: .linear), at: 12)
        history.record(stack.animations(at: 12))
        #expect(near(history.drawingError(drawnFor: 11.9, shownAt: 12.1) ?? -1, speed * 0.1, 1e-9))
        // The history recorded before the dismissal still answers for the times before it.
        #expect(near(history.drawingError(drawnFor: 10.25, shownAt: 10.25 + 1.0 / 64) ?? -1, speed / 64, 1e-9))
        // A time before anything kept cannot be told; nor a frame with no layer in both pictures.
        #expect(history.drawingError(drawnFor: 9, shownAt: 10.5) == nil)
        stack.advance(to: 13.5)   // it has left
        history.record(stack.animations(at: 13.5))
        #expect(history.drawingError(drawnFor: 11.9, shownAt: 14) == nil, "gone by then: nothing to compare")
    }

    @Test func aChangeBetweenTheDrawingAndTheTimeDrawnForIsPartOfTheError() throws {
        var (stack, history, speed) = risingAlert()
        // At rest from 11; drawn at 11.85 for the refresh at 11.95, it shows the alert at rest.
        // Dismissed at 11.9 (after the drawing), it had fallen 0.05 s of its way by 11.95.
        _ = try stack.dismiss(
            id: "a", transition: Transition(kind: .coverVertical, duration: 1, timing: .linear), at: 11.9)
        history.record(stack.animations(at: 11.9))
        let missed = try #require(history.drawingError(drawnFor: 11.95, drawnAt: 11.85, shownAt: 11.95))
        #expect(near(missed, speed * 0.05, 1e-9), "\(missed) points against \(speed * 0.05)")
        // Drawn after the dismissal, for the same refresh: the renderer knew it, nothing missed.
        #expect(history.drawingError(drawnFor: 11.95, drawnAt: 11.92, shownAt: 11.95) == 0)
    }

    @Test func theSameMotionAgainIsKeptOnceAndTheOldestGoesPastTheHorizon() {
        var (stack, history, _) = risingAlert()
        stack.advance(to: 10.5)
        history.record(stack.animations(at: 10.5))   // the same motion, taken later
        #expect(history.drawingError(drawnFor: 10.1, shownAt: 10.2) != nil, "the first snapshot stays")
        // At rest from 19: the rising motion is still the one in force at the horizon (15).
        let rest = 10 + MotionHistory.horizon + 5
        stack.advance(to: rest)
        history.record(stack.animations(at: rest))
        #expect(history.drawingError(drawnFor: 15, shownAt: 15.1) == 0, "the motion in force at the horizon stays")
        // Dismissed past the horizon of the rest: the rising motion goes.
        _ = try? stack.dismiss(id: "a", at: rest + MotionHistory.horizon + 1)
        history.record(stack.animations(at: rest + MotionHistory.horizon + 1))
        #expect(history.drawingError(drawnFor: 10.1, shownAt: 10.2) == nil, "older than the horizon: dropped")
        #expect(
            history.drawingError(drawnFor: rest - 1, shownAt: rest) == nil, "before the oldest kept, nothing is told")
        #expect(history.drawingError(drawnFor: rest + 1, shownAt: rest + 2) == 0)
    }

    @Test func aScaledOrTurnedLayerIsMeasuredByItsCornersAsDrawn() throws {
        // Zoom: the alert grows from a tenth of its size about its centre; its corners move
        // by the growth of the half-diagonal.
        var stack = ModalStack(container: phone)
        stack.show(sheet("z", style: .alert, transition: .zoom, duration: 1), at: 0)
        var history = MotionHistory()
        history.record(stack.animations(at: 0))
        let f = stack.scene(at: 2).content("z")!.frame
        let halfDiagonal = (f.width * f.width + f.height * f.height).squareRoot() / 2
        let growth = (1 - Transition.zoomPresentScale) * 0.25   // linear: a quarter of the way in 0.25 s
        #expect(near(history.drawingError(drawnFor: 0.25, shownAt: 0.5) ?? -1, halfDiagonal * growth, 1e-9))
        // Flip: a card turned a quarter round shows no width; at rest its full width.
        stack = ModalStack(container: phone)
        stack.show(sheet("f", style: .alert, transition: .flipHorizontal, duration: 1), at: 0)
        history = MotionHistory()
        history.record(stack.animations(at: 0))
        #expect(near(history.drawingError(drawnFor: 0.5, shownAt: 2) ?? -1, f.width / 2, 1e-9))
    }
}
