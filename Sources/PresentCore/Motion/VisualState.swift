// The animatable properties of one entry: its content layer and its dimming layer.
// Every animation in presentd interpolates this one vector, so present, dismiss,
// reversal, retargeting and swipes all share a single piece of arithmetic.

/// Where an entry is drawn at one instant.
public struct VisualState: Hashable, Sendable {
    /// The content layer's frame before `scale` is applied (scale is about its centre).
    public var frame: Rect
    public var alpha: Double
    /// Uniform scale about the frame's centre (zoom transition).
    public var scale: Double
    /// Rotation about the vertical axis through the centre, radians (flip transition).
    /// The content faces away from the viewer when |rotation| > π/2.
    public var rotation: Double
    /// The dimming layer's alpha (0 = clear, the background's opacity when presented).
    public var dimming: Double

    public init(frame: Rect, alpha: Double = 1, scale: Double = 1, rotation: Double = 0, dimming: Double = 0) {
        self.frame = frame; self.alpha = alpha; self.scale = scale; self.rotation = rotation; self.dimming = dimming
    }

    /// The frame as drawn: `frame` scaled about its centre.
    public var visibleFrame: Rect {
        let w = frame.width * scale, h = frame.height * scale
        return Rect(x: frame.midX - w / 2, y: frame.midY - h / 2, width: w, height: h)
    }

    // MARK: Vector arithmetic (used by animations)

    var components: [Double] {
        [frame.minX, frame.minY, frame.width, frame.height, alpha, scale, rotation, dimming]
    }

    init(components c: [Double]) {
        self.init(frame: Rect(x: c[0], y: c[1], width: c[2], height: c[3]),
                  alpha: c[4], scale: c[5], rotation: c[6], dimming: c[7])
    }

    /// from + p·(to − from), component-wise.
    public static func interpolate(_ from: VisualState, _ to: VisualState, _ p: Double) -> VisualState {
        let a = from.components, b = to.components
        return VisualState(components: (0..<a.count).map { a[$0] + p * (b[$0] - a[$0]) })
    }

    /// The largest absolute component difference: how far apart two states are.
    public func distance(to other: VisualState) -> Double {
        zip(components, other.components).map { abs($0 - $1) }.max() ?? 0
    }
}

/// The rate of change of a VisualState, per second, component-wise.
public struct VisualVelocity: Hashable, Sendable {
    var components: [Double]
    static let zero = VisualVelocity(components: Array(repeating: 0, count: 8))

    /// The scalar velocity, in progress per second, along the path from → to: the
    /// projection of this velocity onto (to − from). Exact when the path is the same
    /// line (a reversal); the best single-spring approximation otherwise.
    func projected(from: VisualState, to: VisualState) -> Double {
        let d = zip(to.components, from.components).map { $0 - $1 }
        let dd = d.reduce(0) { $0 + $1 * $1 }
        guard dd > 1e-18 else { return 0 }
        return zip(components, d).reduce(0) { $0 + $1.0 * $1.1 } / dd
    }
}
