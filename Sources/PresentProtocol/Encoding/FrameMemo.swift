// What a screen's frames keep of their text from one frame to the next. A frame is written
// at every tick, and most of a layer's members say what they said in the last one (its id,
// role and level, a dimming layer's frame, a sliding sheet's alpha, scale and rotation):
// each run of members is written by CoreEncoding's one definition of a layer, and written
// again as the text it gave last time while what it is written from is the same
// (`JSONMemberSink.members(from:memo:_:)`). Numbers are compared by their bits, which is
// what their text follows (`0.0` and `-0.0` are written apart).

import PresentCore
import PresentJSON

/// The text of the layers of a screen's last frame, layer by layer (`CoreEncoding.frameLine`).
public struct FrameMemo {
    var layers: [LayerMemo] = []
    var end = JSONMemberMemo<SceneEnd>()

    public init() {}

    /// A memo for each of `count` layers (an empty one for a layer the last frame lacked),
    /// and none for more.
    mutating func fit(_ count: Int) {
        if layers.count > count { layers.removeLast(layers.count - count) }
        while layers.count < count { layers.append(LayerMemo()) }
    }
}

/// A layer's runs of members, as `CoreEncoding.write(_:into:memo:)` writes them.
struct LayerMemo {
    var head = JSONMemberMemo<LayerHead>()
    var frame = JSONMemberMemo<Exact<Rect>>()
    var alpha = JSONMemberMemo<Exact<Double>>()
    var look = JSONMemberMemo<Exact<LayerLook>>()
    var tail = JSONMemberMemo<LayerTail>()
}

/// The members that name a layer.
struct LayerHead: Equatable {
    let entryID: String
    let role: LayerRole
    let level: Level

    init(_ l: Layer) {
        entryID = l.entryID
        role = l.role
        level = l.level
    }
}

/// The numbers of a layer between its alpha and its options.
struct LayerLook {
    let scale, rotation, cornerRadius: Double
}

/// The members of a frame after its layers.
struct SceneEnd: Equatable {
    let isAnimating: Bool
    let output: String?
}

/// A layer's optional members.
struct LayerTail: Equatable {
    /// The colour is written as bytes rounded from its numbers: equal colours are written alike.
    let color: Color?
    let blur: BlurStyle?
    let shadow: Exact<Shadow>?
    let contentRevision: Int?
    let tintDimmed: Bool
    let clip: Exact<Rect>?

    init(_ l: Layer) {
        color = l.color
        blur = l.blur
        shadow = l.shadow.map(Exact.init)
        contentRevision = l.contentRevision
        tintDimmed = l.tintDimmed
        clip = l.clip.map(Exact.init)
    }
}

/// A value equal to another when its numbers have the same bits.
struct Exact<Value: NumberBits>: Equatable {
    let value: Value
    private let bits: SIMD8<UInt64>

    init(_ value: Value) {
        self.value = value
        bits = value.numberBits
    }

    static func == (a: Exact, b: Exact) -> Bool { a.bits == b.bits }
}

/// A value whose numbers, by their bits, say all of what it is written as.
protocol NumberBits {
    var numberBits: SIMD8<UInt64> { get }
}

extension Rect: NumberBits {
    var numberBits: SIMD8<UInt64> {
        SIMD8(origin.x.bitPattern, origin.y.bitPattern, size.width.bitPattern, size.height.bitPattern, 0, 0, 0, 0)
    }
}

extension LayerLook: NumberBits {
    var numberBits: SIMD8<UInt64> { SIMD8(scale.bitPattern, rotation.bitPattern, cornerRadius.bitPattern, 0, 0, 0, 0, 0) }
}

extension Double: NumberBits {
    var numberBits: SIMD8<UInt64> { SIMD8(bitPattern, 0, 0, 0, 0, 0, 0, 0) }
}

extension Shadow: NumberBits {
    var numberBits: SIMD8<UInt64> {
        SIMD8(color.red.bitPattern, color.green.bitPattern, color.blue.bitPattern, color.alpha.bitPattern,
              opacity.bitPattern, radius.bitPattern, offset.width.bitPattern, offset.height.bitPattern)
    }
}
