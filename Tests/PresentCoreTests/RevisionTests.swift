// The stack's revisions (ModalStack+Revision): `sceneRevision` changes with every mutation
// that may change the picture and never with time; `stateRevision` changes with any change
// at all, time included; queries, drains and operations that change nothing leave both.

import Testing
import PresentCore

@Suite struct RevisionTests {
    static let dialog = Content(title: "Note", actions: [ContentAction(id: "ok", title: "OK")],
                                fields: [ContentField(id: "note", kind: .text)])

    /// A stack with `a` presented and at rest at t = 1.
    func resting() -> ModalStack {
        var stack = ModalStack(container: phone)
        stack.show(sheet("a", dismissOnSwipe: true, content: Self.dialog), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        _ = stack.drainRetargets()
        return stack
    }

    @Test func timePassingChangesThePictureButNotItsRevision() {
        var stack = ModalStack(container: phone)
        stack.show(sheet("a", duration: 0.4), at: 0)
        stack.show(sheet("b", duration: 0.4), at: 0.1)   // queued: starts at 0.4, by time alone
        stack.show(Presentation(id: "toast", autoDismiss: AutoDismiss(after: 0.5), style: .alert,
                                transition: linear(.crossDissolve, 0)), at: 0.1)   // times out by time alone
        let revision = stack.sceneRevision
        var state = stack.stateRevision
        var last = stack.scene(at: 0.1)
        for step in 1...40 {
            let t = 0.1 + Double(step) * 0.05
            stack.advance(to: t)
            #expect(stack.sceneRevision == revision, "at t=\(t)")
            #expect(stack.stateRevision != state, "at t=\(t): time moved on")
            state = stack.stateRevision
            let scene = stack.scene(at: t)
            if t < 0.8 { #expect(scene != last, "at t=\(t): the picture moves") }
            last = scene
        }
        #expect(stack.ids == ["a", "b"] && !stack.isMoving)
    }

    @Test func everyMutationOfThePictureBumpsIt() throws {
        var stack = resting()
        var seen = [stack.sceneRevision]
        func bumped(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(!seen.contains(stack.sceneRevision), "\(what) kept the revision", sourceLocation: sourceLocation)
            seen.append(stack.sceneRevision)
        }
        stack.show(sheet("b"), at: 1); bumped("present")
        stack.advance(to: 2)
        try stack.update(id: "b", EntryUpdate(cornerRadius: 12), at: 2); bumped("update")
        _ = try stack.dismiss(id: "b", at: 2); bumped("dismiss")
        stack.advance(to: 3)
        stack.setContainer(landscape, at: 3); bumped("setContainer")
        stack.setKeyboard(height: 260, at: 3); bumped("keyboard")
        stack.defineContext("left", frame: Rect(x: 0, y: 0, width: 200, height: 300), at: 3); bumped("defineContext")
        var confined = sheet("c")
        confined.context = "left"
        stack.show(confined, at: 3); bumped("present in a context")
        _ = try stack.removeContext("left", at: 3); bumped("removeContext")
        stack.setDoNotDisturb(DoNotDisturb(), at: 3); bumped("setMode")
        stack.setDoNotDisturb(nil, at: 3); bumped("setMode off")
        stack.advance(to: 5)
        stack.setContainer(phone, duration: 0, at: 5); bumped("setContainer back")
        _ = stack.swipe(.began, translation: .zero, at: 5); bumped("swipe began")
        _ = stack.swipe(.changed, translation: Point(x: 0, y: 300), at: 5.1); bumped("swipe changed")
        _ = stack.swipe(.ended, translation: Point(x: 0, y: 300), velocity: Point(x: 0, y: 2000), at: 5.2);
        bumped("swipe ended")
        stack.completeSwipe(at: 5.2); bumped("completeSwipe")
        stack.advance(to: 7)
        stack.show(sheet("d"), owner: 2, at: 7); bumped("present")
        _ = stack.removeAll(ownedBy: 2, at: 7); bumped("owner gone")
        var defaults = StackConfiguration()
        defaults.baseStatusBar = StatusBarAppearance(style: .lightContent)
        stack.reconfigure(defaults, at: 7); bumped("reload with a new status bar")
        _ = stack.dismissAll(at: 7); bumped("dismissAll")
    }

    @Test func queriesDrainsAndRequestsThatChangeNothingLeaveBoth() throws {
        var stack = resting()
        let scene = stack.sceneRevision, state = stack.stateRevision
        func unchanged(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                stack.sceneRevision == scene && stack.stateRevision == state, "\(what)", sourceLocation: sourceLocation)
        }
        _ = stack.scene(at: 5); _ = stack.isAnimating(at: 5); _ = stack.animations(at: 5)
        _ = stack.hitTest(Point(x: 10, y: 10), at: 1); _ = stack.resolve(.escape, at: 1)
        _ = try stack.activation(id: "a", action: "ok", at: 1)
        _ = stack.forecast(sheet("e"), owner: 1, at: 1); _ = stack.explanation(of: "a", at: 1)
        unchanged("queries")
        _ = stack.drainEvents(); _ = stack.drainRetargets(); unchanged("drains")
        stack.advance(to: 1); stack.advance(to: 0.5); unchanged("advance to a time already reached")
        #expect(stack.removeAll(ownedBy: 9, at: 1).isEmpty); unchanged("an owner with nothing left")
        #expect(stack.removeAll(ownedBy: 9, at: 3).isEmpty); unchanged("an owner with nothing, leaving later")
        #expect(stack.time == 1, "an owner with nothing moved the stack's time to \(stack.time)")
        #expect(stack.transferOwnership(from: 9, to: 10).isEmpty); unchanged("a transfer of nothing")
        #expect(throws: StackError.notFound(id: "z")) { _ = try stack.dismiss(id: "z", at: 1) }
        #expect(throws: StackError.notFound(id: "z")) {
            _ = try stack.update(id: "z", EntryUpdate(cornerRadius: 1), at: 1)
        }
        #expect(throws: StackError.unknownContext(name: "nowhere")) { _ = try stack.removeContext("nowhere", at: 1) }
        unchanged("refused requests")
    }

    @Test func whatChangesNothingDrawnBumpsOnlyTheState() throws {
        var stack = resting()
        let scene = stack.sceneRevision
        var state = stack.stateRevision
        func stateOnly(_ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(
                stack.sceneRevision == scene, "\(what) changed the picture's revision", sourceLocation: sourceLocation)
            #expect(stack.stateRevision != state, "\(what) kept the state's revision", sourceLocation: sourceLocation)
            state = stack.stateRevision
        }
        try stack.focus(id: "a", field: "note", at: 1); stateOnly("focus")
        #expect(stack.transferOwnership(from: 1, to: 5) == ["a"]); stateOnly("a transfer")
        stack.reconfigure(StackConfiguration(), at: 1); stateOnly("a reload that keeps the status bar")
        stack.advance(to: 2); stateOnly("time")
    }

    @Test func isMovingSaysWhetherThePictureChangesOnItsOwn() {
        var stack = ModalStack(container: phone)
        #expect(!stack.isMoving)
        stack.show(sheet("a", duration: 0.4), at: 0)
        #expect(stack.isMoving && stack.isAnimating(at: 0))
        stack.advance(to: 0.2)
        #expect(stack.isMoving)
        stack.advance(to: 0.4)
        #expect(!stack.isMoving)
        #expect(stack.scene(at: 0.4).layers == stack.scene(at: 9).layers, "at rest, the picture holds")
    }
}
