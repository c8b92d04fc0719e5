// `dnd on|off` (setMode's do not disturb), `mode [reduced-motion on|off]` (its reduced
// motion) and `explain ID`.

import PresentCommandLine
import PresentJSON

/// `dnd on [--until T | --for S] [--allow-above N]`, `dnd off`.
func dndRequest(_ s: inout ArgumentScanner) throws -> PlannedRequest {
    switch s.next() {
    case "on":
        var mode: JSONObject = [:]
        while let word = s.next() {
            let (option, inline) = ArgumentScanner.split(word)
            switch option {
            case "--until": mode["until"] = .double(try s.double(for: option, inline: inline, in: 0...1e12))
            case "--for": mode["duration"] = .double(try s.double(for: option, inline: inline, in: 0...86_400))
            case "--allow-above":
                mode["allowPriorityAbove"] = .int(Int64(try s.int(for: option, inline: inline, in: -1...1000)))
            default: throw UsageError("dnd on: unknown option \"\(word)\"")
            }
        }
        guard mode["until"] == nil || mode["duration"] == nil else {
            throw UsageError("dnd on takes --until or --for, not both")
        }
        return PlannedRequest(method: "setMode", params: ["doNotDisturb": .object(mode)])
    case "off":
        guard s.isAtEnd else { throw UsageError("dnd off takes no options") }
        return PlannedRequest(method: "setMode", params: ["doNotDisturb": .null])
    case let other:
        throw UsageError("dnd takes on or off, not \(other.map { "\"\($0)\"" } ?? "nothing")")
    }
}

/// `mode reduced-motion on|off`, and `mode` alone: setMode with nothing to change reports
/// the screen's modes. (Do not disturb has options of its own: it stays `dnd`.)
func modeRequest(_ s: inout ArgumentScanner) throws -> PlannedRequest {
    guard let mode = s.next() else { return PlannedRequest(method: "setMode", params: [:]) }
    guard mode == "reduced-motion" else { throw UsageError("mode takes reduced-motion on|off, not \"\(mode)\"") }
    let on: Bool
    switch s.next() {
    case "on": on = true
    case "off": on = false
    case let other:
        throw UsageError("mode reduced-motion takes on or off, not \(other.map { "\"\($0)\"" } ?? "nothing")")
    }
    if let extra = s.next() { throw UsageError("mode reduced-motion \(on ? "on" : "off"): unexpected \"\(extra)\"") }
    return PlannedRequest(method: "setMode", params: ["reducedMotion": .bool(on)])
}

/// `explain ID`.
func explainRequest(_ s: inout ArgumentScanner) throws -> PlannedRequest {
    guard let id = s.next(), s.isAtEnd else { throw UsageError("explain takes an id") }
    return PlannedRequest(method: "explain", params: ["id": .string(id)])
}
