// The JSON of modes, forecasts (`present {dryRun: true}`) and explanations (`explain`),
// as docs/PROTOCOL.md describes them. The daemon adds what only it knows (the output,
// the owner, the dismiss policy, the refusal's error object).

import PresentCore
import PresentJSON

extension CoreEncoding {
    /// `doNotDisturb` as `setMode` returns it and the `mode` notification says: null when off.
    public static func doNotDisturb(_ mode: DoNotDisturb?) -> JSONValue {
        guard let mode else { return .null }
        var o: JSONObject = ["allowPriorityAbove": .int(Int64(mode.allowPriorityAbove)), "since": .number(mode.since)]
        o["until"] = mode.until.map(JSONValue.double) ?? .null
        return .object(o)
    }

    /// A `mode` notification's params (the caller adds `seq` and `output`).
    public static func modeChange(_ change: ModeChange) -> JSONValue {
        ["doNotDisturb": doNotDisturb(change.doNotDisturb), "time": .number(change.time),
         "reason": .string(change.reason.rawValue), "released": .array(change.released.map { .string($0) }),
         "reducedMotion": .bool(change.reducedMotion)]
    }

    public static func blockers(_ b: QueueBlockers) -> JSONValue {
        var o: JSONObject = [
            "transitions": .array(b.transitions.map { t in
                ["id": .string(t.id), "state": .string(t.state.rawValue),
                 "until": t.until.map(JSONValue.double) ?? .null] }),
            "queuedAhead": .array(b.queuedAhead.map { .string($0) }),
        ]
        if let h = b.heldBy {
            o["heldBy"] = .string(h.rawValue)
            o["heldUntil"] = b.heldUntil.map(JSONValue.double) ?? .null
        }
        return .object(o)
    }

    /// A sheet's detents in `explain` and a dry run.
    public static func sheetExplanation(_ s: SheetExplanation) -> JSONValue {
        var o: JSONObject = ["detent": .string(s.detent),
                             "detents": .array(s.detents.map { ["id": .string($0.id), "height": .number($0.height)] }),
            "inactive": .array(s.inactive.map { .string($0) }), "maximumHeight": .number(s.maximumHeight)
        ]
        o["largestUndimmedDetent"] = s.largestUndimmedDetent.map(JSONValue.string) ?? .null
        o["passesTapsThrough"] = .bool(s.passesTapsThrough)
        o["takesSwipes"] = .bool(s.takesSwipes)
        return .object(o)
    }

    /// A dry run's result, without the refusal's error (the daemon adds it).
    public static func forecast(_ f: PresentForecast) -> JSONObject {
        var o: JSONObject = ["dryRun": true, "outcome": .string(f.outcome.rawValue), "level": .string(f.level.rawValue),
                             "time": .number(f.time)]
        if let id = f.id { o["id"] = .string(id) }
        if let s = f.state { o["state"] = .string(s.rawValue) }
        if f.outcome == .preempting { o["preempting"] = .array(f.preempting.map { .string($0) }) }
        if f.outcome == .deduplicated, let id = f.id { o["deduplicatedWith"] = .string(id) }
        if let b = f.blockers {
            o["blockers"] = blockers(b)
            o["queuedBehind"] = .array((b.transitions.map(\.id) + b.queuedAhead).map { .string($0) })
        }
        if f.outcome != .refused { o["startsAt"] = f.startsAt.map(JSONValue.double) ?? .null }
        if let s = f.sheet { o["sheet"] = sheetExplanation(s) }
        return o
    }

    /// An adaptive policy as `present` takes it (a replacement by its style only).
    public static func adaptivePolicy(_ a: AdaptivePolicy) -> JSONValue {
        switch a {
        case .none: return "none"
        case .overFullScreen: return "overFullScreen"
        case .fullScreen: return "fullScreen"
        case .replacement(let s, _): return ["replacement": ["style": style(s)]]
        }
    }

    /// An `explain` result's core part (the daemon adds output, owner and dismissal).
    public static func explanation(_ x: Explanation) -> JSONObject {
        var o: JSONObject = [
            "id": .string(x.id), "state": .string(x.state.rawValue), "level": .string(x.level.rawValue),
                             "priority": .int(Int64(x.priority)), "precedence": .string(x.precedence.rawValue),
                             "position": .int(Int64(x.position)), "inputTarget": .bool(x.isInputTarget),
                             "time": .number(x.time)]
        o["context"] = x.context.map(JSONValue.string) ?? .null
        if let a = x.area { o["area"] = rect(a) }
        if let b = x.blockers {
            o["blockers"] = blockers(b)
            o["startsAt"] = x.startsAt.map(JSONValue.double) ?? .null
        } else {
            o["coveredBy"] = .array(x.coveredBy.map { .string($0) })
        }
        if let t = x.transitionEndsAt { o["transitionEndsAt"] = .number(t) }
        if let t = x.autoDismissAt { o["autoDismissAt"] = .number(t) }
        if let r = x.dismissReason { o["dismissReason"] = .string(r.rawValue) }
        o["adaptation"] = ["active": .bool(x.isAdapted), "policy": adaptivePolicy(x.adaptive),
                           "requestedStyle": style(x.requestedStyle), "style": style(x.effectiveStyle),
                           "verticalSizeClass": .string(x.verticalSizeClass.rawValue)]
        if let s = x.sheet { o["sheet"] = sheetExplanation(s) }
        return o
    }
}
