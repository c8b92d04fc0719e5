// Changing the stack's defaults while it runs (the daemon's configuration reload).

extension ModalStack {
    /// Replaces the defaults — durations and timing curves for requests that give none,
    /// swipe thresholds, the base status bar — from time `t` on. Animations already running
    /// keep the timing they started with. A new base status bar is reported at once (a
    /// `statusBar` event) when no entry captures the status bar.
    public mutating func reconfigure(_ configuration: StackConfiguration, at t: Double) {
        advance(to: t)
        self.configuration = configuration
        let shown = statusBar
        resolveStatusBar(duration: 0)
        if statusBar != shown { pictureChanged() } else { stateChanged() }   // the scene carries the status bar
    }
}
