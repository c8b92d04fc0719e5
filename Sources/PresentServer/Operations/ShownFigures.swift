// What a renderer reported of one screen's frames reaching the glass (`presented`), for
// `stats`: how many were shown and discarded, how late they were, and how far the picture
// on glass was from the analytic motion at that moment (MotionHistory).

import PresentJSON
import PresentProtocol

/// One renderer's figures for one screen (loop thread only).
struct ShownFigures {
    /// The latest samples kept for percentiles: enough for a few seconds at 120 Hz, and a
    /// bounded cost per report however long the daemon runs.
    static let kept = 512

    private(set) var frames = 0
    private(set) var discarded = 0
    /// shownAt − time: how long after the motion's time the frame drawn for it was shown.
    /// 0 when the renderer draws for the predicted presentation time and the prediction holds.
    private var latency = LatestSamples(kept: kept)
    /// shownAt − drawnAt: from the renderer's commit to the glass.
    private var drawToShown = LatestSamples(kept: kept)
    /// Device pixels between the picture drawn for a frame's time and the motion at its
    /// `shownAt`, for the frames whose times the screen's motion history still covers.
    private var error = LatestSamples(kept: kept)
    private var refresh: Double?

    /// `error`: a frame's error in device pixels, nil when it cannot be told.
    mutating func add(_ shown: [ShownFrame], discarded: Int, error: (ShownFrame) -> Double?) {
        frames += shown.count
        self.discarded += discarded
        for f in shown {
            latency.keep(f.shownAt - f.time)
            if let e = error(f) { self.error.keep(e) }
            if let drawn = f.drawnAt { drawToShown.keep(f.shownAt - drawn) }
            if let r = f.refresh, r > 0 { refresh = r }
        }
    }

    /// {p50, p99, max, samples} of the kept samples (nearest rank), nil when there are none.
    private static func summary(_ samples: LatestSamples) -> JSONValue {
        guard !samples.values.isEmpty else { return .null }
        let sorted = samples.values.sorted()
        func rank(_ p: Double) -> Double {
            sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
        }
        return ["p50": .double(rank(0.5)), "p99": .double(rank(0.99)), "max": .double(sorted[sorted.count - 1]),
                "samples": .int(Int64(sorted.count))]
    }

    func json(output: String, client: UInt64) -> JSONValue {
        ["output": .string(output), "client": .int(Int64(client)), "frames": .int(Int64(frames)),
         "discarded": .int(Int64(discarded)), "refresh": refresh.map { .double($0) } ?? .null,
         "latency": Self.summary(latency), "drawToShown": Self.summary(drawToShown),
         "error": Self.summary(error)]
    }
}

/// The latest `kept` values, in no particular order: percentiles sort them anyway, so the
/// newest overwrites the oldest in place and keeping one costs the same at any count.
struct LatestSamples {
    private(set) var values: [Double] = []
    private var oldest = 0
    let kept: Int

    init(kept: Int) {
        precondition(kept > 0, "LatestSamples keeps at least one value")
        self.kept = kept
    }

    mutating func keep(_ value: Double) {
        guard values.count == kept else { return values.append(value) }
        values[oldest] = value
        oldest = (oldest + 1) % kept
    }
}
