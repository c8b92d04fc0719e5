// How far a picture on glass was from the analytic motion. A renderer draws each frame for a
// time (the motion's time) and learns later when it turned into light; by then the layers had
// moved on. The error of a frame is the distance between where its layers were drawn and
// where the motion had them at the moment it was shown. That needs the motion of the recent
// past, since a frame is reported after it was shown: the history keeps the snapshots a
// screen announced for a few seconds.

import Glibc  // cos

/// The motion a screen moved by in the recent past: its announced snapshots, oldest first.
public struct MotionHistory: Sendable {
    /// How far behind the newest snapshot the older ones are kept, seconds: longer than a
    /// report of frames takes to arrive (a batch of 32 at 30 Hz and the compositor's delay).
    public static let horizon = 4.0
    /// At most this many, however often the motion changes within the horizon.
    public static let capacity = 256

    private var snapshots: [AnimationSnapshot] = []

    public init() {}

    /// Notes the motion in force from `snapshot.time` on. The same motion again is not kept
    /// twice; one taken earlier than the newest replaces what followed it.
    public mutating func record(_ snapshot: AnimationSnapshot) {
        if let last = snapshots.last, last.time <= snapshot.time, last.describesTheSameMotion(as: snapshot) { return }
        snapshots.removeAll { $0.time >= snapshot.time }
        snapshots.append(snapshot)
        let oldest = snapshot.time - Self.horizon
        // The snapshot in force at the horizon stays: it covers the times just after it.
        while snapshots.count > Self.capacity || (snapshots.count > 1 && snapshots[1].time <= oldest) {
            snapshots.removeFirst()
        }
    }

    /// The layers the motion had at t, from the snapshot in force then; nil: t is older than
    /// anything kept. After the newest snapshot's span its segments stay at their ends.
    public func layers(at t: Double) -> [Layer]? {
        snapshots.last { $0.time <= t }?.layers(at: t)
    }

    /// How far, in points, the picture drawn at `drawnAt` for `time` was from the motion at
    /// `shownAt` (`PictureDistance.points`); nil when a time is older than what is kept, or no
    /// layer is in both pictures (nothing on screen, or an entry arriving as another left).
    /// The picture drawn is the motion the renderer knew when it drew, carried on to `time`:
    /// a renderer that draws ahead (for a predicted refresh) cannot know a change that comes
    /// between its drawing and that refresh, and that miss is part of its error. Without
    /// `drawnAt`, the motion in force at `time`.
    public func drawingError(drawnFor time: Double, drawnAt: Double? = nil, shownAt: Double) -> Double? {
        let known = min(time, drawnAt ?? time)
        guard let drawn = snapshots.last(where: { $0.time <= known })?.layers(at: time),
              let shown = layers(at: shownAt) else { return nil }
        return PictureDistance.points(from: drawn, to: shown)
    }
}

/// The distance between two pictures of the same layers.
public enum PictureDistance {
    /// The farthest any corner of a layer's outline is from the same corner in the other
    /// picture, points. Layers are the same when their entry and role are; a layer in only
    /// one of the pictures (an entry arriving or gone) is not a displacement and counts not.
    /// Alpha is no position and counts not either. Nil: no layer is in both.
    public static func points(from a: [Layer], to b: [Layer]) -> Double? {
        var farthest: Double?
        for layer in a {
            guard let other = b.first(where: { $0.entryID == layer.entryID && $0.role == layer.role }) else { continue }
            farthest = farthest ?? 0
            for (p, q) in zip(layer.outline, other.outline) {
                farthest = max(farthest ?? 0, ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot())
            }
        }
        return farthest
    }
}

extension Layer {
    /// The corners of the layer as drawn (top left, top right, bottom right, bottom left):
    /// its frame scaled about its centre, its width foreshortened by the rotation about the
    /// vertical axis. The perspective of a rotation (which makes the drawn outline a
    /// trapezoid) is left out.
    var outline: [Point] {
        let halfWidth = frame.width / 2 * scale * abs(cos(rotation)), halfHeight = frame.height / 2 * scale
        let (x, y) = (frame.midX, frame.midY)
        return [Point(x: x - halfWidth, y: y - halfHeight), Point(x: x + halfWidth, y: y - halfHeight),
                Point(x: x + halfWidth, y: y + halfHeight), Point(x: x - halfWidth, y: y + halfHeight)]
    }
}
