// One presentation on the stack or in its queue: its request, its state in the
// present/dismiss life cycle, and its current motion.

/// Who made a presentation (the daemon uses its connection's id).
public typealias OwnerID = UInt64

/// Where an entry is in its life cycle.
public enum EntryState: String, Sendable, CaseIterable {
    /// Waiting for the running transition to finish.
    case queued
    /// Animating in.
    case presenting
    /// On screen, at rest (it may still be re-laying out).
    case presented
    /// Animating out.
    case dismissing

    /// Presenting or dismissing: a transition runs.
    var isTransition: Bool { self == .presenting || self == .dismissing }
}

/// Why an entry left the stack.
public enum DismissReason: String, Sendable, CaseIterable {
    /// A dismiss or dismissAll request (including entries above the one named).
    case request
    /// A tap on the dimming layer.
    case tap
    /// A swipe gesture.
    case swipe
    /// Its owner disconnected.
    case ownerGone
    /// An `override` presentation of equal or higher priority replaced it.
    case preempted
    /// One of its actions was activated (the action is named with the event).
    case action
    /// Escape or back, with no cancel action to activate.
    case key
    /// Its auto-dismiss countdown ran out.
    case timeout
    /// The presentation context it was in was removed.
    case contextGone
    /// The screen (output) it was on was removed.
    case outputGone
}

/// A swipe in progress on an entry: the finger's displacement along the way out.
struct SwipeInteraction: Hashable, Sendable {
    /// The edge the entry is dragged out through.
    var edge: Edge
    /// The visual state when the swipe began.
    var base: VisualState
    /// How far the entry must travel to be fully off-screen, points (> 0).
    var distance: Double
    /// Displacement along the way out, points; negative = against it.
    var displacement: Double = 0
    /// Released past the threshold, waiting for the caller to complete or cancel.
    var released = false
    /// A sheet's drag, which resizes it between its detents (ModalStack+Sheets); nil: the
    /// entry moves whole along the way out.
    var sheet: SheetDrag?
}

/// One presentation the stack knows about.
public struct Entry: Hashable, Sendable {
    public let id: String
    /// Changes only when a client resumes its entries after a daemon restart.
    public internal(set) var owner: OwnerID
    @Indirect public internal(set) var presentation: Presentation
    public internal(set) var state: EntryState
    /// Arrival order, for FIFO among equal priorities.
    public let sequence: Int
    /// The compact-height adaptation is in force.
    public internal(set) var isAdapted = false
    /// Set once the entry starts leaving.
    public internal(set) var dismissReason: DismissReason?
    /// The motion in force; nil = at rest in its laid-out state (or under a finger).
    @Indirect public internal(set) var animation: Motion? = nil
    @Indirect var swipe: SwipeInteraction? = nil
    /// How a leaving entry goes: the transition it leaves with, or the edge a swipe
    /// threw it through. Kept so a re-layout can re-aim it.
    var exitTransition: Transition?
    var exitEdge: Edge?
    /// Grows with every change of the content in force, from 1: renderers redraw the
    /// inside when the revision a frame names is not the one they drew.
    public internal(set) var contentRevision = 1
    /// The field a renderer says has focus (`focus`).
    public internal(set) var focusedField: String?
    /// The action that made it leave (reason `action`).
    public internal(set) var dismissAction: String?
    /// The auto-dismiss countdown, from the moment it finished presenting.
    var countdown: Countdown?
    /// The rectangle of its presentation context, kept current by the stack; nil: the
    /// whole container.
    public internal(set) var area: Rect?
    /// An overlay's distance from its resting place at the edge: the newer overlays at its
    /// position and their spacing (the stack keeps it current).
    public internal(set) var overlayOffset = 0.0
    /// A sheet under another sheet of its level and area (ModalStack.restackSheets): it rests
    /// shrunk, its top showing above the one on it.
    public internal(set) var coveredBySheet = false

    init(id: String, owner: OwnerID, presentation: Presentation, state: EntryState, sequence: Int) {
        self.id = id; self.owner = owner; self.presentation = presentation; self.state = state; self.sequence = sequence
    }

    /// The style in force: the adaptive policy's while adapted, else the requested one.
    public var effectiveStyle: PresentationStyle {
        guard isAdapted else { return presentation.style }
        switch presentation.adaptive {
        case .none: return presentation.style
        case .overFullScreen: return .overFullScreen
        case .fullScreen: return .fullScreen
        case .replacement(let style, _): return style
        }
    }

    /// The content in force (a replacement's while adapted).
    public var effectiveContent: Content? {
        if isAdapted, case .replacement(_, let content) = presentation.adaptive { return content }
        return presentation.content
    }

    /// Whether the adaptive policy applies in `container`.
    func wantsAdaptation(in container: Container) -> Bool {
        container.verticalSizeClass == .compact && presentation.adaptive != .none
    }

    public var level: Level { presentation.level }

    /// The container it is laid out in: its context's rectangle as a container of its own
    /// (safe area, keyboard and size classes as they fall inside it), else the container;
    /// and where that sits in the container.
    public func layoutContainer(in container: Container) -> (container: Container, origin: Point) {
        guard let area else { return (container, .zero) }
        let outer = container.safeBounds
        let safe = EdgeInsets(top: max(0, outer.minY - area.minY), left: max(0, outer.minX - area.minX),
                              bottom: max(0, area.maxY - outer.maxY), right: max(0, area.maxX - outer.maxX))
        let keyboardTop = container.size.height - container.keyboardHeight
        let inner = Container(size: area.size, safeArea: safe, scale: container.scale,
                              keyboardHeight: container.keyboardHeight > 0 ? max(0, area.maxY - keyboardTop) : 0,
                              layoutDirection: container.layoutDirection)
        return (inner, area.origin)
    }

    /// The laid-out, presented state: the style's frame (an overlay's place at its edge),
    /// moved for the keyboard, in its context.
    public func restState(in container: Container) -> VisualState {
        let (inner, origin) = layoutContainer(in: container)
        var frame = effectiveStyle.frame(in: inner, respectingSafeArea: presentation.respectsSafeArea,
                                         preferred: presentation.preferredContentSize)
        if level == .overlay { frame = overlayFrame(size: frame.size, in: inner) }
        frame = presentation.keyboard.frame(for: frame, in: inner)
        var dimming = level == .overlay ? 0 : presentation.background.opacity
        var scale = 1.0
        if let sheet = effectiveStyle.sheet {   // undimmed at its smaller detents
            dimming *= sheet.dimmingShare(
                atHeight: frame.height, in: inner, preferred: presentation.preferredContentSize)
            if coveredBySheet, !sheet.isFullScreen(in: inner) {
                // iOS 13's form-sheet stack: scaled about its centre and moved up so that
                // its top shows the sheet gap above where it was, above the sheet on it.
                scale = SheetStyle.coveredScale
                frame.origin.y -= frame.height * (1 - scale) / 2 + SheetStyle.topInset
            }
        }
        var rest = VisualState(frame: frame.offsetBy(dx: origin.x, dy: origin.y), dimming: dimming)
        rest.scale = scale
        return rest
    }

    /// The detent a sheet rests at in `container`; nil for other styles.
    public func restingDetent(in container: Container) -> ActiveDetent? {
        effectiveStyle.sheet?.restingDetent(
            in: layoutContainer(in: container).container, preferred: presentation.preferredContentSize)
    }

    /// What a tap outside it does: a sheet at rest at or below its largest undimmed
    /// detent lets it through (UIKit's largestUndimmedDetentIdentifier); else as asked.
    public func effectiveInteraction(in container: Container) -> Interaction {
        if let sheet = effectiveStyle.sheet, let detent = restingDetent(in: container),
            sheet.passesTapsThrough(
                at: detent, in: layoutContainer(in: container).container, preferred: presentation.preferredContentSize)
        {
            return .forward
        }
        return presentation.effectiveInteraction
    }

    /// A finger may drag it: to dismiss it, or, for a sheet, between its detents.
    func takesSwipes(in container: Container) -> Bool {
        guard let sheet = effectiveStyle.sheet else { return presentation.dismissOnSwipe }
        let inner = layoutContainer(in: container).container
        return presentation.dismissOnSwipe
            || sheet.activeDetents(in: inner, preferred: presentation.preferredContentSize).count > 1
    }

    /// Centred across the safe area (or in its leading or trailing top corner), at its edge
    /// by the margin, moved aside by the newer overlays at the same position.
    private func overlayFrame(size: Size, in c: Container) -> Rect {
        let safe = c.safeBounds
        let placement = presentation.overlay
        let left = safe.minX + placement.margin, right = safe.maxX - placement.margin - size.width
        let x: Double, y: Double
        switch placement.position {
        case .top, .bottom, .center: x = safe.minX + (safe.width - size.width) / 2
        case .leading: x = c.layoutDirection == .rightToLeft ? right : left
        case .trailing: x = c.layoutDirection == .rightToLeft ? left : right
        }
        switch placement.position {
        case .top, .leading, .trailing: y = safe.minY + placement.margin + overlayOffset
        case .bottom: y = safe.maxY - placement.margin - size.height - overlayOffset
        case .center: y = safe.minY + (safe.height - size.height) / 2 + placement.margin + overlayOffset
        }
        return Rect(x: x, y: y, width: size.width, height: size.height)
    }

    /// Where the entry is drawn at time t.
    func visual(at t: Double, in container: Container) -> VisualState {
        if let swipe { return swipe.visual }
        if let animation { return animation.value(at: t) }
        return restState(in: container)
    }

    /// How much of its presentation an entry has used at t, 0…1 (1 once presented).
    /// A retarget changes the motion but keeps its end time, so this counts back from
    /// the end over the whole presentation's duration.
    func presentationShareUsed(at t: Double) -> Double {
        guard state == .presenting, let a = animation else { return 1 }
        let transition = presentation.transition
        let whole = max(0, transition.timing.effectiveDuration(transition.duration))
        guard whole > 0 else { return 1 }
        return min(1, max(0, 1 - (a.end - t) / whole))
    }

    func isAnimating(at t: Double) -> Bool { Self.isMoving(animation, at: t) }

    /// Whether `animation` still runs at t.
    static func isMoving(_ animation: Motion?, at t: Double) -> Bool {
        animation.map { !$0.isFinished(at: t) } ?? false
    }

    /// A person is working with it: dragging it, or typing in one of its fields.
    var isInteracting: Bool { swipe != nil || focusedField != nil }

    /// When its auto-dismiss countdown runs out, if it is running.
    var autoDismissDeadline: Double? { Self.autoDismissDeadline(state: state, countdown: countdown) }

    /// When a countdown in `state` runs out: only an entry at rest counts down.
    static func autoDismissDeadline(state: EntryState, countdown: Countdown?) -> Double? {
        state == .presented ? countdown?.deadline : nil
    }

    var isOnScreen: Bool { state != .queued }
    var isInTransition: Bool { state.isTransition }
}
