// Changing the stack's defaults while it runs (the daemon's configuration reload):
// new defaults apply to what starts afterwards, a new base status bar is reported at once
// unless an entry captures the status bar.

import Testing
import PresentCore

@Suite struct ReconfigureTests {
    @Test func aNewBaseStatusBarIsReportedAtOnceWhenNothingCapturesIt() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        var defaults = StackConfiguration()
        defaults.baseStatusBar = light
        stack.reconfigure(defaults, at: 2)
        #expect(stack.statusBar == light)
        let changes = stack.drainEvents().statusBarChanges
        #expect(changes.count == 1)
        #expect(changes.first?.appearance == light && changes.first?.duration == 0 && changes.first?.time == 2)
    }

    @Test func aCapturingEntryKeepsTheStatusBarUntilItLeavesThenTheNewBaseShows() throws {
        var stack = ModalStack()
        stack.show(sheet("a", statusBar: dark), at: 0)
        stack.advance(to: 1)
        _ = stack.drainEvents()
        var defaults = StackConfiguration()
        defaults.baseStatusBar = hidden
        stack.reconfigure(defaults, at: 1)
        #expect(stack.statusBar == dark)
        #expect(stack.drainEvents().statusBarChanges.isEmpty)
        _ = try stack.dismiss(id: "a", at: 2)
        #expect(stack.statusBar == hidden)
    }

    @Test func newDurationsApplyToWhatStartsAfterwardsNotToWhatRuns() {
        var stack = ModalStack()
        stack.show(sheet("a"), at: 0)
        stack.advance(to: 1)
        stack.setContainer(landscape, at: 1)  // the standard 0.3 s re-layout
        var defaults = StackConfiguration()
        defaults.containerChangeDuration = 0.8
        stack.reconfigure(defaults, at: 1.1)
        #expect(stack.configuration.containerChangeDuration == 0.8)
        #expect(near(stack.entries.first?.animation?.end ?? 0, 1.3))
        stack.advance(to: 2)
        stack.setContainer(phone, at: 2)
        #expect(stack.entries.first?.animation?.duration == 0.8)
    }
}
