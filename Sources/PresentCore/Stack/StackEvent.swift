// What the stack tells the world: life-cycle changes of entries, status-bar changes,
// and that the stack's shape changed. The daemon turns these into notifications.

/// A step in an entry's life.
public enum LifecycleEvent: String, Sendable, CaseIterable {
    case queued, willPresent, didPresent, willDismiss, didDismiss, adapted
    /// An `update` changed the entry in place (content, geometry, chrome or countdown).
    case updated
    /// A sheet now rests at another detent (a swipe, an `update`): named in `detent`.
    case detentChanged
}

/// One life-cycle notice.
public struct LifecycleNotice: Hashable, Sendable {
    public var id: String
    public var owner: OwnerID
    public var event: LifecycleEvent
    /// When it happened (a transition's start or end time, not when it was noticed).
    public var time: Double
    /// Why the entry leaves (willDismiss, didDismiss).
    public var reason: DismissReason?
    /// The motion that starts now (willPresent, willDismiss), so renderers can interpolate.
    public var animation: Animation?
    /// For `adapted`: whether the adaptation is now in force, and the style now shown.
    public var adaptation: Adaptation?
    /// willDismiss and didDismiss with reason `action`: the action that was activated.
    public var action: String?
    /// willPresent and updated: what the entry shows from now on.
    public var content: ContentState?
    /// queued: a mode holds it until the mode ends (ModalStack+DoNotDisturb).
    public var heldBy: HoldReason?
    /// detentChanged: the detent the sheet rests at now.
    public var detent: String?

    /// An entry's content and the revision that names it.
    public struct ContentState: Hashable, Sendable {
        public var content: Content?
        public var revision: Int
    }

    public struct Adaptation: Hashable, Sendable {
        public var active: Bool
        public var style: PresentationStyle
        public var content: Content?
    }
}

/// Everything the stack reports, in the order it happened.
public enum StackEvent: Hashable, Sendable {
    case lifecycle(LifecycleNotice)
    /// The effective status bar changed at `time`, animating over `duration`.
    case statusBar(StatusBarAppearance, duration: Double, time: Double)
    /// Entries were added, removed or changed state.
    case stackChanged
    /// Do not disturb began, changed or ended (ModalStack+DoNotDisturb).
    case mode(ModeChange)
}
