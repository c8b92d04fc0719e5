// `setMode`'s params: `{doNotDisturb: {until?, duration?, allowPriorityAbove?} | null, output?}`.

import PresentCore
import PresentJSON

extension RequestDecoder {
    func setMode(_ p: ParamReader) throws(RPCError) -> Request {
        try p.rejectUnknownKeys(allowed: ["doNotDisturb", "output"])
        let value = try p.field("doNotDisturb")   // required: null turns it off
        let output = try output(p)
        guard !(p.value("doNotDisturb")?.isNull ?? true) else { return .setMode(doNotDisturb: nil, output: output) }
        let o = try value.object()
        try o.rejectUnknownKeys(allowed: ["until", "duration", "allowPriorityAbove"])
        if o.contains("until") && o.contains("duration") {
            throw o.invalid("duration", "give either until or duration, not both")
        }
        let mode = ModeRequest(
            until: try o.optionalDouble("until", range: 0...Double.greatestFiniteMagnitude, unit: "seconds"),
            duration: try o.optionalDouble("duration", range: 0...limits.maxAutoDismiss, unit: "seconds"),
            allowPriorityAbove: try o.optionalInt("allowPriorityAbove", range: -1...Presentation.priorityRange.upperBound)
                ?? DoNotDisturb.defaultAllowPriorityAbove)
        return .setMode(doNotDisturb: mode, output: output)
    }
}
