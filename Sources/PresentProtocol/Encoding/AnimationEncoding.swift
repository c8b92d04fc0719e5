// The motion in force as JSON: the payload of the `animations` topic and of the
// `retargeted` lifecycle event (docs/PROTOCOL.md, "animations topic"). Each layer is
// written as in frames, its animated properties at their base values, plus the segments
// whose offsets a renderer adds to them; the property names are those of frames.

import PresentCore
import PresentJSON

public enum AnimationEncoding {
    /// An `animations` notification's params (the caller adds `seq`): the snapshot's time,
    /// `until` (when it expires by itself; absent: at the next notification), `end` (frames
    /// are `animating` while t < end) and every drawn layer with its segments.
    public static func animations(_ s: AnimationSnapshot) -> JSONValue {
        var o: JSONObject = ["time": .number(s.time)]
        if let until = s.validUntil { o["until"] = .number(until) }
        o["end"] = .number(s.end)
        o["layers"] = .array(s.layers.map(layer))
        return .object(o)
    }

    /// A `retargeted` lifecycle notification's params (the caller adds `seq`): the entry's
    /// layers in `snapshot` (taken at the notice's time), as in `animations`.
    public static func retargeted(_ n: RetargetNotice, in snapshot: AnimationSnapshot) -> JSONValue {
        var o: JSONObject = ["id": .string(n.id), "event": "retargeted", "time": .number(n.time),
                             "owner": .int(Int64(truncatingIfNeeded: n.owner))]
        if let until = snapshot.validUntil { o["until"] = .number(until) }
        o["end"] = .number(snapshot.end)
        o["layers"] = .array(snapshot.layers.filter { $0.base.entryID == n.id }.map(layer))
        return .object(o)
    }

    /// A layer as `CoreEncoding.layer` writes it, at its base, with its `segments`.
    public static func layer(_ l: AnimatedLayer) -> JSONValue {
        guard case .object(var o) = CoreEncoding.layer(l.base) else { return CoreEncoding.layer(l.base) }
        o["segments"] = .array(l.segments.map(segment))
        return .object(o)
    }

    /// `{start, duration, timing, from, to}`: `from` and `to` are offsets of the layer's
    /// properties, each written only where it is not zero (`to` left out when it is zero
    /// everywhere, as it is for every segment presentd makes).
    public static func segment(_ a: Animation) -> JSONValue {
        var o: JSONObject = [
            "start": .number(a.start), "duration": .number(a.duration), "timing": CoreEncoding.timing(a.curve),
                             "from": offsets(a.from)]
        if case .object(let to) = offsets(a.to), !to.isEmpty { o["to"] = .object(to) }
        return .object(o)
    }

    /// The nonzero offsets of a layer's animated properties, named as in frames.
    static func offsets(_ v: VisualState) -> JSONValue {
        var frame: JSONObject = [:]
        for (key, value) in [
            ("x", v.frame.minX), ("y", v.frame.minY), ("width", v.frame.width), ("height", v.frame.height)
        ]
        where value != 0 {
            frame[key] = .number(value)
        }
        var o: JSONObject = [:]
        if !frame.isEmpty { o["frame"] = .object(frame) }
        for (key, value) in [("alpha", v.alpha), ("scale", v.scale), ("rotation", v.rotation)] where value != 0 {
            o[key] = .number(value)
        }
        return .object(o)
    }
}
