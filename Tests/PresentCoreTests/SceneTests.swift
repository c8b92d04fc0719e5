// The scene at time t: per on-screen entry, bottom to top, a dimming layer then a
// content layer, every property resolved; full-screen entries hide what is beneath
// once presented; entries under a tint-dimming one are marked; and the scene at a
// later t is exactly the scene of the stack once time has got there.

import Testing
import PresentCore

@Suite struct SceneTests {
    @Test func layersAreDimmingThenContentPerEntryBottomToTop() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("b", style: .alert), at: 1)
        stack.show(sheet("q"), at: 1.1)  // queued: not drawn
        let scene = stack.scene(at: 1.2)
        #expect(scene.layers.map(\.entryID) == ["a", "a", "b", "b"])
        #expect(scene.layers.map(\.role) == [.dimming, .content, .dimming, .content])
    }

    @Test func layersCarryEveryPropertyOfThePresentation() throws {
        var stack = ModalStack()
        let tint = Color(red: 0.2, green: 0.3, blue: 0.4, alpha: 1)
        let shadow = Shadow(opacity: 0.2, radius: 3, offset: Size(width: 0, height: 1))
        var p = sheet(
            "a", style: .alert, background: Background(color: tint, opacity: 0.5, blur: .dark), content: "card")
        p.shadow = shadow
        stack.show(p, at: 0)
        stack.show(sheet("b", style: .bottomHalf), at: 1)
        let scene = stack.scene(at: 2)
        let dim = try #require(scene.dimming("a")), card = try #require(scene.content("a"))
        #expect(dim.frame == phone.bounds && dim.color == tint && dim.blur == .dark && near(dim.alpha, 0.5))
        #expect(dim.contentRevision == nil && dim.shadow == nil && dim.cornerRadius == 0)
        #expect(card.contentRevision == 1 && card.shadow == shadow && card.cornerRadius == 4)
        #expect(stack.entry(id: "a")?.effectiveContent == "card")
        #expect(card.color == nil && card.blur == nil)
        #expect(scene.content("b")?.cornerRadius == 0)  // only alerts and popups are rounded by default
        #expect(scene.container == phone && scene.time == 2)
    }

    @Test func aCornerRadiusCanBeSet() {
        var stack = ModalStack()
        stack.show(Presentation(id: "a", style: .bottomHalf, cornerRadius: 12), owner: 1, at: 0)
        #expect(stack.scene(at: 0).content("a")?.cornerRadius == 12)
    }

    @Test func isAnimatingWhileAnythingMoves() throws {
        var stack = ModalStack()
        #expect(!stack.scene(at: 0).isAnimating)
        stack.show(sheet("a"), at: 0)
        #expect(stack.scene(at: 0).isAnimating && stack.isAnimating(at: 0.2))
        stack.advance(to: 0.4)
        #expect(!stack.scene(at: 0.4).isAnimating)
        _ = try stack.dismiss(id: "a", at: 1)
        #expect(stack.scene(at: 1).isAnimating)
    }

    @Test func aFullScreenEntryHidesWhatIsBeneathOnceItIsPresented() throws {
        var stack = ModalStack()
        stack.show(sheet("under", style: .popup), at: 0)
        stack.show(sheet("full", style: .fullScreen), at: 1)
        #expect(stack.scene(at: 1.2).entryIDs == ["under", "full"])  // still sliding in
        stack.advance(to: 1.4)
        #expect(stack.scene(at: 1.4).entryIDs == ["full"])
        stack.show(sheet("over", style: .alert), at: 2)
        #expect(stack.scene(at: 2).entryIDs == ["full", "over"])
        _ = try stack.dismiss(id: "over", at: 2.5)
        _ = try stack.dismiss(id: "full", at: 3)
        #expect(stack.scene(at: 3).entryIDs == ["under", "full"])  // it leaves uncovering the presenter
    }

    @Test func aFullScreenEntryBackAtRestAfterAnEmptySwipeHidesWhatIsBeneath() {
        var stack = ModalStack()
        stack.show(sheet("under", style: .popup), at: 0)
        stack.show(sheet("full", style: .fullScreen, dismissOnSwipe: true), at: 1)
        stack.advance(to: 2)
        _ = stack.swipe(.began, translation: .zero, at: 2)
        #expect(stack.swipe(.ended, translation: .zero, at: 2).outcome == .cancelled)
        // It never moved, so it is at rest at once, covering the presenter.
        #expect(stack.scene(at: 2).entryIDs == ["full"])
        #expect(!stack.scene(at: 2).isAnimating)
    }

    @Test func overFullScreenKeepsThePresenterVisible() {
        var stack = ModalStack()
        stack.show(sheet("under", style: .popup), at: 0)
        stack.show(sheet("over", style: .overFullScreen), at: 1)
        stack.advance(to: 2)
        #expect(stack.scene(at: 2).entryIDs == ["under", "over"])
        #expect(!PresentationStyle.overFullScreen.hidesPresenter && PresentationStyle.fullScreen.hidesPresenter)
    }

    @Test func anEntryThatDimsTheTintMarksEverythingBeneathIt() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("b", style: .alert), at: 1)
        stack.show(sheet("c", style: .bottomHalf, dimsTint: true), at: 2)
        let scene = stack.scene(at: 2.1)
        #expect(scene.content("a")?.tintDimmed == true && scene.content("b")?.tintDimmed == true)
        #expect(scene.content("c")?.tintDimmed == false)
        #expect(scene.layers.filter { $0.role == .dimming }.allSatisfy { !$0.tintDimmed })
        _ = try stack.dismiss(id: "c", at: 3)
        #expect(stack.scene(at: 3).content("a")?.tintDimmed == false)
    }

    @Test func withoutTintDimmingNothingIsMarked() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.show(sheet("b"), at: 1)
        #expect(stack.scene(at: 2).layers.allSatisfy { !$0.tintDimmed })
    }

    @Test func theSceneCarriesTheStatusBar() {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: StatusBarAppearance(style: .lightContent)), at: 0)
        #expect(stack.scene(at: 0.1).statusBar.style == .lightContent)
    }

    /// scene(at:) is a pure function of the stack and t: asking for a later instant must
    /// show what the stack shows once time gets there — finished exits gone, queued
    /// entries started at their own time.
    @Test(arguments: [0.2, 0.4, 0.5, 0.79, 0.8, 1.0, 1.3, 3.0])
    func theSceneAtALaterTimeIsTheSceneOnceTimeHasPassed(t: Double) throws {
        var stack = ModalStack()
        stack.show(sheet("a", style: .alert, transition: .crossDissolve), at: 0)
        stack.show(sheet("q", style: .bottomHalf), at: 0.1)   // queued until 0.4
        stack.show(sheet("r", style: .popup, transition: .zoom), at: 0.15)  // until 0.8
        let ahead = stack.scene(at: t)
        let caught = stack.advanced(to: t).scene(at: t)
        #expect(ahead == caught)
        #expect(stack.hitTest(Point(x: 5, y: 5), at: t) == stack.advanced(to: t).hitTest(Point(x: 5, y: 5), at: t))
    }

    @Test func aFinishedExitIsNotDrawnAtALaterTime() throws {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        _ = try stack.dismiss(id: "a", at: 1)
        let later = stack.scene(at: 2)
        #expect(later.layers.isEmpty && !later.isAnimating)
    }

    @Test func anEarlierTimeIsTreatedAsTheStacksTime() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 0.2)
        #expect(stack.scene(at: 0.1) == stack.scene(at: 0.2))
    }
}
