// present's sheet flags (--detents, --detent, --grabber, --undimmed-detent): the members of a
// `{"type": "sheet"}` style (docs/PROTOCOL.md, "Sheets and detents"). The daemon checks
// the values (detent ids, heights, which detents exist); presentctl only shapes them, and
// its flag table (PresentFlag.fields) names the flag in the daemon's errors.

import PresentCommandLine
import PresentJSON

/// What present's sheet flags say, gathered while the words are read and made into the
/// style once they all are (`--style` may come after them).
struct SheetFlags {
    private var members: JSONObject = [:]

    /// The flag table's entries for these flags: style members, by flag.
    static let fields: [String: String] = [
        "--detents": "style.detents", "--detent": "style.selectedDetent",
        "--undimmed-detent": "style.largestUndimmedDetent", "--grabber": "style.grabber",
    ]

    /// Takes one of the sheet flags (true), or leaves the word to the caller (false).
    mutating func accept(_ name: String, inline: String?, _ s: inout ArgumentScanner) throws -> Bool {
        switch name {
        case "--detents": members["detents"] = .array(try Self.detents(try s.value(for: name, inline: inline)))
        case "--detent": members["selectedDetent"] = .string(try s.value(for: name, inline: inline))
        case "--undimmed-detent": members["largestUndimmedDetent"] = .string(try s.value(for: name, inline: inline))
        case "--grabber":
            guard inline == nil else { throw UsageError("--grabber takes no value") }
            members["grabber"] = true
        default: return false
        }
        return true
    }

    /// `--detents medium,large,peek=120,half=40%,fit=content`: "medium" and "large" by name,
    /// any other as {id, height} with a height in points, a percentage or "content".
    static func detents(_ text: String) throws -> [JSONValue] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { word in
            let part = String(word)
            if part == "medium" || part == "large" { return .string(part) }
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty else {
                throw UsageError("--detents: \"\(part)\" is not medium, large or ID=HEIGHT (points, N% or content)")
            }
            let height: JSONValue = Double(pair[1]).map { .double($0) } ?? .string(pair[1])
            return ["id": .string(pair[0]), "height": height]
        }
    }

    /// The style with the flags' members: a sheet (the default when no --style was given),
    /// or a usage error naming the flags when --style chose another.
    func apply(to style: JSONValue?) throws -> JSONValue? {
        guard !members.isEmpty else { return style }
        var sheet: JSONObject
        switch style {
        case nil, .string("sheet"): sheet = ["type": "sheet"]
        case .object(let o) where o["type"] == .string("sheet"): sheet = o
        default:
            throw UsageError(
                "\(flagNames) \(flagNames.contains(",") ? "make" : "makes") a sheet: leave --style out, or give "
                + "--style sheet"
            )
        }
        for (key, value) in members { sheet[key] = value }
        return .object(sheet)
    }

    /// The sheet flags given, for messages.
    private var flagNames: String {
        Self.fields.filter { members[String($0.value.dropFirst("style.".count))] != nil }.keys.sorted().joined(
            separator: ", ")
    }
}
