// The scene at time t: exactly what a renderer draws. Per on-screen entry, bottom to
// top in drawing order (normal, overlay, alert), a dimming layer (none for overlays), a
// content layer, and a sheet's grabber when it shows one, with every property resolved.

/// What a layer is for.
public enum LayerRole: String, Sendable {
    case dimming, content
    /// A sheet's grabber, on its content's top edge (SheetStyle.grabber).
    case grabber
}

/// One drawable layer.
public struct Layer: Hashable, Sendable {
    public var entryID: String
    public var role: LayerRole
    /// The level of its entry.
    public var level: Level = .normal
    /// Draw only inside this rectangle: the entry's presentation context; nil = no clip.
    public var clip: Rect?
    /// Before `scale` (about the centre) and `rotation` (about the vertical axis).
    public var frame: Rect
    public var alpha: Double
    public var scale: Double
    public var rotation: Double
    public var cornerRadius: Double
    /// Dimming: the colour drawn at `alpha`; content: nil.
    public var color: Color?
    public var blur: BlurStyle?
    public var shadow: Shadow?
    /// Content: which revision of the entry's content to draw (the content itself is in
    /// the entry: willPresent, updated, stack, the subscribe snapshot); dimming: nil.
    public var contentRevision: Int?
    /// Content: an entry above dims this one's tint.
    public var tintDimmed: Bool
}

/// Everything on screen at one instant.
public struct Scene: Hashable, Sendable {
    public var time: Double
    public var container: Container
    /// Bottom to top.
    public var layers: [Layer]
    public var statusBar: StatusBarAppearance
    /// Something is still moving: more frames will differ from this one.
    public var isAnimating: Bool
}

extension ModalStack {
    /// The scene at time t (t ≥ the stack's time; an earlier t is treated as the stack's
    /// time): what the stack shows once it has caught up with t — exits that ended by then
    /// are gone and queued entries have started, each at its own time.
    public func scene(at t: Double) -> Scene {
        // A stack caught up already (the frame tick advances it first) draws itself, not a
        // copy of itself.
        guard t > time else { return draw(at: time) }
        return caughtUp(to: t).draw(at: t)
    }

    /// The scene of this stack as it is, at t ≥ its time.
    private func draw(at t: Double) -> Scene {
        var layers: [Layer] = []
        layers.reserveCapacity(entries.count * 2)
        for index in entries.indices.dropFirst(firstVisibleIndex(at: t)) {
            // The entry read in place, not bound to a name: bound, it is copied whole first.
            appendLayers(of: entries[index], showing: entries[index].visual(at: t, in: container),
                         tintDimmed: isTintDimmed(below: index), to: &layers)
        }
        return Scene(time: t, container: container, layers: layers, statusBar: statusBar,
                     isAnimating: entries.indices.contains { isAnimating(entryAt: $0, at: t) })
    }

    /// Entries under a full-screen entry at rest are not drawn (UIKit removes the presenter).
    /// At rest means not moving at t: a re-layout or spring-back that has ended counts,
    /// even before the next `advance` clears it away.
    func firstVisibleIndex(at t: Double) -> Int {
        entries.indices.last { entries[$0].state == .presented && !isAnimating(entryAt: $0, at: t)
            && entries[$0].effectiveStyle.hidesPresenter } ?? 0
    }

    func isTintDimmed(below index: Int) -> Bool {
        entries[(index + 1)...].contains { $0.state != .dismissing && $0.presentation.dimsPresenterTint }
    }

    /// The layers of `e` drawn at visual state `v`: its dimming layer (modal levels), then its content.
    func layers(of e: Entry, showing v: VisualState, tintDimmed: Bool) -> [Layer] {
        var layers: [Layer] = []
        appendLayers(of: e, showing: v, tintDimmed: tintDimmed, to: &layers)
        return layers
    }

    /// `layers(of:showing:tintDimmed:)` appended to `layers` (a frame's, with no array of
    /// their own made first).
    func appendLayers(of e: Entry, showing v: VisualState, tintDimmed: Bool, to layers: inout [Layer]) {
        let p = e.presentation
        var content = Layer(entryID: e.id, role: .content, frame: v.frame, alpha: v.alpha, scale: v.scale,
                            rotation: v.rotation, cornerRadius: p.cornerRadius, color: nil, blur: nil,
                            shadow: p.shadow, contentRevision: e.contentRevision, tintDimmed: tintDimmed)
        content.level = e.level
        content.clip = e.area
        if e.level.isModal {   // an overlay never dims
            var dimming = Layer(
                entryID: e.id, role: .dimming, frame: e.area ?? container.bounds, alpha: v.dimming, scale: 1,
                                rotation: 0, cornerRadius: 0, color: p.background.color, blur: p.background.blur,
                                shadow: nil, contentRevision: nil, tintDimmed: false)
            dimming.level = e.level
            dimming.clip = e.area
            layers.append(dimming)
        }
        layers.append(content)
        if let sheet = e.effectiveStyle.sheet,
           let frame = sheet.grabberFrame(on: v.frame, in: e.layoutContainer(in: container).container) {
            var grabber = content
            grabber.role = .grabber
            (grabber.frame, grabber.scale, grabber.rotation, grabber.cornerRadius) = (frame, 1, 0, frame.height / 2)
            (grabber.color, grabber.shadow, grabber.contentRevision) = (SheetStyle.grabberColor, nil, nil)
            layers.append(grabber)
        }
    }
}
