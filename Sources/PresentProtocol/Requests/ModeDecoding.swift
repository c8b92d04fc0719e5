// `setMode`'s params: `{doNotDisturb?: {until?, duration?, allowPriorityAbove?} | null,
// reducedMotion?: boolean, output?}`; a mode not given is left as it is.

import PresentCore
import PresentJSON

extension RequestDecoder {
    func setMode(_ p: ParamReader) throws(RPCError) -> Request {
        try p.rejectUnknownKeys(allowed: ["doNotDisturb", "reducedMotion", "output"])
        let reducedMotion = try p.optionalBool("reducedMotion")
        let output = try output(p)
        guard p.contains("doNotDisturb") else {   // left as it is ({} only reports the modes)
            return .setMode(doNotDisturb: nil, reducedMotion: reducedMotion, output: output)
        }
        if p.value("doNotDisturb")?.isNull == true {   // off
            return .setMode(doNotDisturb: .some(nil), reducedMotion: reducedMotion, output: output)
        }
        let value = try p.field("doNotDisturb")
        let o = try value.object()
        try o.rejectUnknownKeys(allowed: ["until", "duration", "allowPriorityAbove"])
        if o.contains("until") && o.contains("duration") {
            throw o.invalid("duration", "give either until or duration, not both")
        }
        let mode = ModeRequest(
            until: try o.optionalDouble("until", range: 0...Double.greatestFiniteMagnitude, unit: "seconds"),
            duration: try o.optionalDouble("duration", range: 0...limits.maxAutoDismiss, unit: "seconds"),
            allowPriorityAbove: try o.optionalInt(
                "allowPriorityAbove", range: -1...Presentation.priorityRange.upperBound)
                ?? DoNotDisturb.defaultAllowPriorityAbove)
        return .setMode(doNotDisturb: mode, reducedMotion: reducedMotion, output: output)
    }
}
