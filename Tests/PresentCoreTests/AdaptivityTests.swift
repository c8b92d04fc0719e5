// Adaptivity: at compact height an entry shows what its policy says (over-full-screen,
// full-screen, or a replacement presentation) and says so with an `adapted` event; when
// the traits return it reverts, again with an event. A container change re-lays out
// every entry, adapted or not.

import Testing
import PresentCore

/// A stack with `policy`'s popup presented at rest in portrait (t = 1).
func adaptive(_ policy: AdaptivePolicy, content: Content? = "form") -> ModalStack {
    var stack = ModalStack()
    stack.show(sheet("a", style: .popup, adaptive: policy, content: content), at: 0)
    stack.advance(to: 1)
    _ = stack.drainEvents()
    return stack
}

@Suite struct AdaptivityTests {
    @Test func landscapeOnAPhoneIsCompactInHeight() {
        #expect(landscape.verticalSizeClass == .compact)
        #expect(phone.verticalSizeClass == .regular)
        #expect(tablet.verticalSizeClass == .regular)
    }

    @Test(arguments: [(AdaptivePolicy.overFullScreen, PresentationStyle.overFullScreen),
                      (.fullScreen, .fullScreen),
                      (.replacement(style: .alert, content: "rotate"), .alert)])
    func compactHeightAdaptsAndRegularReverts(policy: AdaptivePolicy, adapted: PresentationStyle) throws {
        var stack = adaptive(policy)
        stack.setContainer(landscape, at: 1)
        let on = try #require(stack.drainEvents().notices(.adapted).first)
        #expect(on.id == "a" && on.time == 1)
        #expect(on.adaptation?.active == true && on.adaptation?.style == adapted)
        #expect(stack.entry(id: "a")?.isAdapted == true)
        #expect(stack.entry(id: "a")?.effectiveStyle == adapted)
        stack.advance(to: 2)
        #expect(stack.scene(at: 2).content("a")?.frame == adapted.frame(in: landscape))

        stack.setContainer(phone, at: 2)
        let off = try #require(stack.drainEvents().notices(.adapted).first)
        #expect(off.adaptation?.active == false && off.adaptation?.style == .popup && off.adaptation?.content == "form")
        #expect(stack.entry(id: "a")?.isAdapted == false)
        stack.advance(to: 3)
        #expect(stack.scene(at: 3).content("a")?.frame == popupFrame)
        #expect(stack.entry(id: "a")?.effectiveContent == "form")
        // A replacement swapped the content in and out again (two revisions); the others kept it.
        let swaps = if case .replacement = policy { 2 } else { 0 }
        #expect(stack.scene(at: 3).content("a")?.contentRevision == 1 + swaps)
    }

    @Test func aReplacementShowsItsOwnContentWhileTheTraitsLast() throws {
        var stack = adaptive(.replacement(style: .alert, content: "rotate"))
        stack.setContainer(landscape, at: 1)
        let on = try #require(stack.drainEvents().notices(.adapted).first)
        #expect(on.adaptation?.content == "rotate")
        #expect(on.content?.content == "rotate" && on.content?.revision == 2)
        #expect(stack.scene(at: 1).content("a")?.contentRevision == 2)   // the inside changed
        #expect(stack.entry(id: "a")?.effectiveContent == "rotate")
        stack.setContainer(phone, at: 2)
        #expect(stack.entry(id: "a")?.effectiveContent == "form")
        #expect(stack.scene(at: 2).content("a")?.contentRevision == 3)
    }

    @Test func withoutAPolicyNothingAdaptsButTheLayoutFollows() {
        var stack = adaptive(.none)
        stack.setContainer(landscape, at: 1)
        #expect(stack.drainEvents().notices(.adapted).isEmpty)
        #expect(stack.entry(id: "a")?.isAdapted == false)
        stack.advance(to: 2)
        #expect(stack.scene(at: 2).content("a")?.frame == PresentationStyle.popup.frame(in: landscape))
    }

    @Test func aChangeThatKeepsTheTraitsReportsNoAdaptation() {
        var stack = adaptive(.overFullScreen)
        stack.setContainer(tablet, at: 1)
        #expect(stack.drainEvents().notices(.adapted).isEmpty)
        stack.setContainer(landscape, at: 2)
        stack.setContainer(Container(size: Size(width: 700, height: 320)), at: 3)
        #expect(stack.drainEvents().notices(.adapted).count == 1)
    }

    @Test func anAdaptedFullScreenHidesWhatIsBeneathOnceAtRest() {
        var stack = ModalStack()
        stack.show(sheet("under", style: .alert), at: 0)
        stack.show(sheet("a", style: .popup, adaptive: .fullScreen), at: 1)
        stack.advance(to: 2)
        stack.setContainer(landscape, at: 2)
        #expect(stack.scene(at: 2.1).entryIDs == ["under", "a"])  // still re-laying out
        stack.advance(to: 3)
        #expect(stack.scene(at: 3).entryIDs == ["a"])
        stack.setContainer(phone, at: 3)
        #expect(stack.scene(at: 3).entryIDs == ["under", "a"])
    }

    @Test func anEntryPresentedWhileCompactStartsAdapted() {
        var stack = ModalStack(container: landscape)
        stack.show(sheet("a", style: .popup, adaptive: .overFullScreen), at: 0)
        #expect(stack.entry(id: "a")?.isAdapted == true)
        let on = stack.drainEvents().notices(.adapted)
        #expect(on.count == 1 && on.first?.adaptation?.active == true && on.first?.adaptation?.style == .overFullScreen)
        stack.advance(to: 1)
        #expect(stack.scene(at: 1).content("a")?.frame == landscape.bounds)
        stack.setContainer(phone, at: 1)
        let off = stack.drainEvents().notices(.adapted)
        #expect(off.count == 1 && off.first?.adaptation?.active == false)
    }

    @Test func aQueuedEntryAdaptsToTheTraitsItStartsIn() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("q", style: .popup, adaptive: .overFullScreen), at: 0.1)
        stack.setContainer(landscape, at: 0.2)
        stack.advance(to: 2)
        #expect(stack.entry(id: "q")?.isAdapted == true)
        #expect(stack.scene(at: 2).content("q")?.frame == landscape.bounds)
    }

    @Test(arguments: midFlight)
    func adaptingMidPresentationRetargetsWithoutAJump(t: Double) throws {
        var stack = ModalStack()
        stack.show(sheet("a", style: .popup, adaptive: .overFullScreen), at: 0)
        let (before, after) = aroundOperation(&stack, at: t) { $0.setContainer(landscape, at: t) }
        #expect(largestJump(before, after, ignoringDimmingFrames: true) < jumpTolerance)
        stack.advance(to: 0.4)
        #expect(stack.entry(id: "a")?.state == .presented)
        #expect(stack.scene(at: 0.4).content("a")?.frame == landscape.bounds)
    }

    @Test func everyEntryIsReLaidOut() {
        var stack = ModalStack()
        let styles: [PresentationStyle] = [.popup, .topHalf, .slideIn(edge: .right, fraction: 2.0 / 3.0), .alert]
        for (i, style) in styles.enumerated() { stack.show(sheet("e\(i)", style: style), at: Double(i)) }
        stack.advance(to: 10)
        stack.setContainer(tablet, at: 10)
        stack.advance(to: 11)
        let scene = stack.scene(at: 11)
        for (i, style) in styles.enumerated() {
            #expect(scene.content("e\(i)")?.frame == style.frame(in: tablet))
            #expect(scene.dimming("e\(i)")?.frame == tablet.bounds)
        }
    }
}
