// A screen's next tick made ahead of its deadline (Screen's "The next tick, made ahead"):
// taken at its deadline it must be exactly the tick made then, and it must never be taken
// once anything it was made from has changed.

@testable import PresentTestSupport
import Testing
@testable import PresentServer
import PresentCore
import PresentProtocol

@Suite struct PreparedTickTests {
    /// A screen at t = 0.1 with an alert 0.1 s into a one-second transition, after two
    /// ticks with nothing between them (so the next tick is made ahead).
    private func movingScreen() throws -> (Screen, id: String) {
        var stack = ModalStack()
        let shown = try stack.present(
            Presentation(style: .alert, transition: Transition(kind: .coverVertical, duration: 1, timing: .easeOut)),
                                      owner: 1, at: 0)
        _ = stack.drainEvents()
        _ = stack.drainRetargets()
        let screen = Screen(name: "main", stack: stack)
        screen.advance(to: 0.05)
        screen.tickEnded(next: 0.1, withFrame: true, encode: encode)   // the first tick is not made ahead
        screen.advance(to: 0.1)
        #expect(screen.takePreparedFrame(at: 0.1, seq: 1) == nil)
        return (screen, shown.id)
    }

    private func encode(_ scene: Scene, _ seq: UInt64) -> [UInt8] {
        CoreEncoding.frameLine(scene, seq: seq, output: "main")
    }

    /// What the tick at `t` makes when nothing was made ahead: `stack` advanced, its frame.
    private func madeAtTheDeadline(_ stack: ModalStack, at t: Double, seq: UInt64) -> (ModalStack, [UInt8]) {
        var stack = stack
        stack.advance(to: t)
        return (stack, encode(stack.scene(at: t), seq))
    }

    @Test func aTickMadeAheadIsTheTickMadeAtItsDeadline() throws {
        let (screen, _) = try movingScreen()
        let (expected, line) = madeAtTheDeadline(screen.stack, at: 0.2, seq: 1)
        screen.tickEnded(next: 0.2, withFrame: true, encode: encode)
        #expect(screen.stack.time == 0.1, "making a tick ahead moved the screen's own stack")
        screen.advance(to: 0.2)
        #expect(screen.stack.time == expected.time)
        #expect(screen.stack.stateRevision == expected.stateRevision)
        #expect(screen.stack.sceneRevision == expected.sceneRevision)
        #expect(screen.stack.entries == expected.entries)
        let frame = try #require(screen.takePreparedFrame(at: 0.2, seq: 1))
        #expect(frame.line == line)
        #expect(frame.saidMoving)
        #expect(screen.takePreparedFrame(at: 0.2, seq: 1) == nil, "a frame made ahead is taken once")
    }

    @Test func aTickMadeAheadCarriesTheEventsOfItsWay() throws {
        let (screen, _) = try movingScreen()
        screen.tickEnded(next: 1.5, withFrame: true, encode: encode)   // past the transition's end
        screen.advance(to: 1.5)
        let events = screen.stack.drainEvents()
        #expect(events.contains { if case .lifecycle(let n) = $0 { n.event == .didPresent } else { false } },
                "the didPresent of the way to the deadline: \(events)")
        #expect(screen.takePreparedFrame(at: 1.5, seq: 1)?.saidMoving == false)
    }

    @Test func aChangeBeforeTheDeadlineIsNotLost() throws {
        let (screen, id) = try movingScreen()
        screen.tickEnded(next: 0.2, withFrame: true, encode: encode)
        _ = try screen.stack.dismiss(id: id, at: 0.15)
        let (expected, _) = madeAtTheDeadline(screen.stack, at: 0.2, seq: 1)
        screen.advance(to: 0.2)
        #expect(screen.stack.entries == expected.entries)
        #expect(screen.stack.entries.first?.state == .dismissing)
        #expect(screen.takePreparedFrame(at: 0.2, seq: 1) == nil, "a frame of the stack before the dismissal")
    }

    @Test func aLateTickIsMadeAtItsOwnDeadline() throws {
        let (screen, _) = try movingScreen()
        screen.tickEnded(next: 0.2, withFrame: true, encode: encode)
        let (expected, _) = madeAtTheDeadline(screen.stack, at: 0.3, seq: 1)
        screen.advance(to: 0.3)   // the loop was late: the timer served a later deadline
        #expect(screen.stack.time == 0.3)
        #expect(screen.stack.entries == expected.entries)
        #expect(screen.takePreparedFrame(at: 0.3, seq: 1) == nil)
    }

    @Test func aFrameMadeAheadGoesOutOnlyAsTheNumberItWasGiven() throws {
        let (screen, _) = try movingScreen()
        screen.tickEnded(next: 0.2, withFrame: true, encode: encode)
        screen.advance(to: 0.2)
        #expect(screen.takePreparedFrame(at: 0.2, seq: 2) == nil)
    }

    @Test func aChangeAfterTheDeadlineKeepsTheFrameMadeAheadOut() throws {
        let (screen, id) = try movingScreen()
        screen.tickEnded(next: 0.2, withFrame: true, encode: encode)
        screen.advance(to: 0.2)
        _ = try screen.stack.dismiss(id: id, at: 0.2)   // between the catch-up and the draw
        #expect(screen.takePreparedFrame(at: 0.2, seq: 1) == nil)
    }

    @Test func requestsBetweenTicksStopTicksBeingMadeAheadUntilAQuietInterval() throws {
        let (screen, _) = try movingScreen()
        screen.tickEnded(next: 0.2, withFrame: true, encode: encode)
        screen.stack.advance(to: 0.15)   // a request between the ticks
        screen.advance(to: 0.2)
        #expect(screen.changedBetweenTicks)
        screen.tickEnded(next: 0.3, withFrame: true, encode: { _, _ in
            Issue.record("a tick made ahead while requests come between ticks")
            return []
        })
        screen.advance(to: 0.3)
        #expect(!screen.changedBetweenTicks)
        screen.tickEnded(next: 0.4, withFrame: true, encode: encode)
        screen.advance(to: 0.4)
        #expect(
            screen.takePreparedFrame(at: 0.4, seq: 1) != nil, "an interval without a request makes the next tick ahead")
    }

    @Test func eventsWaitingToBePublishedAreNotMadeAheadTwice() throws {
        let (screen, _) = try movingScreen()
        let popup = try screen.stack.present(Presentation(style: .popup), owner: 2, at: 0.1).id
        screen.tickEnded(next: 0.2, withFrame: true, encode: encode)
        let published = screen.stack.drainEvents()   // what the tick's publish sends
        let tellsOfThePopup = { (events: [StackEvent]) in
            events.contains { if case .lifecycle(let n) = $0 { n.id == popup } else { false } }
        }
        #expect(tellsOfThePopup(published))   // it waits in the queue behind the alert
        screen.advance(to: 0.2)
        #expect(!tellsOfThePopup(screen.stack.drainEvents()), "the popup's lifecycle would be published again")
    }

    @Test func aTickMadeAheadWithoutItsFrameStillMovesTheStack() throws {
        let (screen, _) = try movingScreen()
        let (expected, _) = madeAtTheDeadline(screen.stack, at: 0.2, seq: 1)
        screen.tickEnded(next: 0.2, withFrame: false, encode: { _, _ in
            Issue.record("a frame was encoded for nobody")
            return []
        })
        screen.advance(to: 0.2)
        #expect(screen.stack.entries == expected.entries)
        #expect(screen.takePreparedFrame(at: 0.2, seq: 1) == nil)
    }
}
