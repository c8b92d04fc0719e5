// Forecasts and explanations agree with what then happens: a dry run changes nothing, and
// making the same present for real gives the same outcome, the same state, the same
// preempted and deduplicated ids and the same start time.

import Testing
import PresentCore

@Suite struct ExplainTests {
    /// Forecasts `p` at t, checks the stack is unchanged, then presents it for real and
    /// checks the forecast against what happened.
    func agree(_ stack: inout ModalStack, _ p: Presentation, at t: Double,
               sourceLocation: SourceLocation = #_sourceLocation) throws -> PresentForecast {
        _ = stack.drainEvents()
        let before = stack.snapshot
        let forecast = stack.forecast(p, owner: 1, at: t)
        #expect(stack.snapshot == before, "a dry run changes nothing", sourceLocation: sourceLocation)
        #expect(stack.drainEvents().isEmpty, sourceLocation: sourceLocation)
        let real: PresentOutcome
        do {
            real = try stack.present(p, owner: 1, at: t)
        } catch {
            #expect(forecast.outcome == .refused && forecast.error == error, sourceLocation: sourceLocation)
            return forecast
        }
        #expect(forecast.id == real.id && forecast.state == real.state, sourceLocation: sourceLocation)
        #expect((forecast.outcome == .deduplicated) == real.deduplicated, sourceLocation: sourceLocation)
        var events = stack.drainEvents()
        let preempted = events.notices(.willDismiss).filter { $0.reason == .preempted }.map(\.id)
        #expect(forecast.preempting == preempted, sourceLocation: sourceLocation)
        if !real.deduplicated {
            var copy = stack
            copy.advance(to: t + 1000)
            events += copy.drainEvents()
            let start = events.notices(.willPresent).first { $0.id == real.id }?.time
            #expect(forecast.startsAt == start, sourceLocation: sourceLocation)
        }
        return forecast
    }

    @Test func presentingWhenIdleStartsNow() throws {
        var stack = ModalStack()
        let f = try agree(&stack, sheet(), at: 1)
        #expect(f.outcome == .presenting && f.id == "p1" && f.startsAt == 1)
        #expect(try agree(&stack, sheet(), at: 2).id == "p2", "the dry run consumed no generated id")
    }

    @Test func queuedBehindTheTransitionAndTheEntriesAheadWithTheExactStart() throws {
        var stack = ModalStack()
        stack.show(sheet("a", duration: 0.3), at: 0)
        stack.show(sheet("b", duration: 0.7, priority: 900), at: 0.1)
        let f = try agree(&stack, sheet("c", duration: 0.5), at: 0.2)
        #expect(f.outcome == .queued)
        #expect(f.blockers?.transitions.map(\.id) == ["a"])
        #expect(f.blockers?.transitions.first?.until == 0.3)
        #expect(f.blockers?.queuedAhead == ["b"])
        #expect(f.startsAt == 1.0, "after a (0.3) and b (0.7)")
    }

    @Test func preemptingNamesWhatLeaves() throws {
        var stack = ModalStack()
        stack.show(sheet("a", duration: 0), at: 0)
        let f = try agree(&stack, sheet("b", priority: 600, precedence: .override), at: 1)
        #expect(f.outcome == .preempting && f.preempting == ["a"] && f.startsAt == 1)
    }

    @Test func deduplicatedNamesTheEntryReturned() throws {
        var stack = ModalStack()
        stack.show(sheet("a", kind: "k"), at: 0)
        let f = try agree(&stack, sheet(kind: "k"), at: 0.1)
        #expect(f.outcome == .deduplicated && f.id == "a")
    }

    @Test func refusedWithTheErrorThePresentGets() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        let f = try agree(&stack, sheet("a"), at: 0.1)
        #expect(f.outcome == .refused && f.error == .duplicateID(id: "a"))
        var ctx = sheet("b")
        ctx.context = "nowhere"
        #expect(try agree(&stack, ctx, at: 0.2).error == .unknownContext(name: "nowhere"))
    }

    @Test func heldByDoNotDisturbStartsWhenItEnds() throws {
        var stack = ModalStack()
        stack.setDoNotDisturb(DoNotDisturb(until: 4), at: 0)
        let f = try agree(&stack, sheet("a", priority: 10), at: 1)
        #expect(f.outcome == .queued && f.blockers?.heldBy == .doNotDisturb && f.blockers?.heldUntil == 4)
        #expect(f.startsAt == 4)
        var open = ModalStack()
        open.setDoNotDisturb(DoNotDisturb(), at: 0)
        #expect(open.forecast(sheet("b", priority: 10), owner: 1, at: 1).startsAt == nil, "only a request ends it")
    }

    @Test func explainsAQueuedAndAPresentedEntry() throws {
        var stack = ModalStack(container: landscape)
        stack.show(sheet("a", duration: 0.3, adaptive: .fullScreen), at: 0)
        stack.show(sheet("b", duration: 0.5), at: 0.1)
        let b = try #require(stack.explanation(of: "b", at: 0.2))
        #expect(
            b.state == .queued && b.position == 0 && b.blockers?.transitions.map(\.id) == ["a"] && b.startsAt == 0.3)
        let a = try #require(stack.explanation(of: "a", at: 0.2))
        #expect(a.state == .presenting && a.transitionEndsAt == 0.3 && a.isInputTarget)
        #expect(
            a.isAdapted && a.effectiveStyle == .fullScreen && a.requestedStyle == .popup
                && a.verticalSizeClass == .compact)
        // What explain says, advancing shows.
        stack.advance(to: 0.3)
        #expect(stack.entry(id: "b")?.state == .presenting)
        #expect(stack.explanation(of: "a", at: 0.3)?.coveredBy == ["b"])
        #expect(stack.explanation(of: "nope", at: 0.3) == nil)
    }
}
