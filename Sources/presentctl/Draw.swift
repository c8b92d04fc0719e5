// `presentctl watch --draw`: the container and its layers as boxes in the terminal, live,
// for people on a server without a browser. The container is a double-lined box scaled
// to fit the terminal (a cell is taken as twice as tall as it is wide); dimming shades
// the empty cells it covers by its alpha and draws what it covers faint, so a sheet under
// an alert's dimming can still be seen; content is a single-lined box (dashed while mostly
// transparent) at its visible frame. Edges go to the nearest cell boundary, the
// container's too, so a full-width layer covers every column and a centred one has equal
// margins. A change of the terminal's size (SIGWINCH) redraws at once. A box without
// content is labelled with its id; one with content has its id in the top border and
// shows the content inside: a label, or a dialog's title, message, fields, progress bar,
// embedded surface and buttons
// (`[ OK ]  [ Cancel ]`, the default one bold, a destructive one red). Levels are marked:
// an overlay (a toast, a banner: it never dims) is a rounded box, an alert-level entry a
// heavy one, and either says its level after its id; a box too thin to hold its content
// shows its text in its border. A layer in a presentation context is drawn only inside it.
//
// Frames name only a layer's `contentRevision`; the content itself comes from the entries
// (the subscribe snapshot, `stack`) and the `willPresent`, `updated` and `adapted`
// lifecycle events.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON
import PresentSystem

/// Points to terminal cells: the container's box and its scale.
struct CellMapping: Equatable {
    /// Points per column; a row is two columns tall.
    let pointsPerColumn: Double
    /// Cells inside the container's border.
    let columns: Int
    let rows: Int

    /// Fits a `width`×`height` container (points) in a terminal of `terminalColumns`×`rows`,
    /// leaving a header line, the border and a footer line.
    init(width: Double, height: Double, terminalColumns: Int, terminalRows: Int) {
        let innerColumns = Double(max(4, terminalColumns - 2)), innerRows = Double(max(4, terminalRows - 4))
        pointsPerColumn = max(width / innerColumns, height / (2 * innerRows), 1e-9)
        columns = max(1, Int((width / pointsPerColumn).rounded()))
        rows = max(1, Int((height / (2 * pointsPerColumn)).rounded()))
    }

    /// The cell boundary nearest to `x`: a span of points [x, x + w) covers the cells from
    /// column(x) up to, not including, column(x + w). Rounding both edges the same way, as
    /// the container's own width is, keeps a full-width layer's last column and a centred
    /// layer's margins equal; rounding down one edge and not the other did neither.
    func column(_ x: Double) -> Int { Int((x / pointsPerColumn).rounded()) }
    func row(_ y: Double) -> Int { Int((y / (2 * pointsPerColumn)).rounded()) }
}

/// How a cell is drawn: its SGR attributes.
enum CellStyle: Equatable {
    /// `faint`: under a dimming (SGR 2).
    case plain, bold, red, faint

    var sgr: String {
        switch self {
        case .plain: return "\u{1B}[0m"
        case .bold: return "\u{1B}[0;1m"
        case .red: return "\u{1B}[0;31m"
        case .faint: return "\u{1B}[0;2m"
        }
    }
}

/// A dimming's shades, lightest first, by alpha.
let shades: [Character] = ["░", "▒", "▓"]

func shade(alpha: Double) -> Character { alpha < 0.35 ? shades[0] : alpha < 0.65 ? shades[1] : shades[2] }

typealias Clip = (columns: ClosedRange<Int>, rows: ClosedRange<Int>)

/// A character grid for one picture.
struct CellGrid {
    private(set) var cells: [[Character]]
    private(set) var styles: [[CellStyle]]
    /// Whether a layer drew the cell (a border, text, a box's blank inside): a dimming over
    /// it makes it faint; a cell nobody drew is background, which the dimming shades.
    private var drawn: [[Bool]]
    init(columns: Int, rows: Int) {
        cells = Array(repeating: Array(repeating: " ", count: columns), count: rows)
        styles = Array(repeating: Array(repeating: .plain, count: columns), count: rows)
        drawn = Array(repeating: Array(repeating: false, count: columns), count: rows)
    }

    mutating func put(_ c: Character, _ column: Int, _ row: Int, style: CellStyle = .plain, clip: Clip) {
        guard clip.columns.contains(column), clip.rows.contains(row) else { return }
        cells[row][column] = c
        styles[row][column] = style
        drawn[row][column] = true
    }

    mutating func text(_ s: String, _ column: Int, _ row: Int, style: CellStyle = .plain, clip: Clip) {
        for (i, c) in s.enumerated() { put(c, column + i, row, style: style, clip: clip) }
    }

    /// A dimming over one cell: the background takes the shade (the darker of two dimmings
    /// stays), what a layer drew there stays and turns faint — a dimming darkens what is
    /// below it, it does not hide it.
    mutating func dim(_ column: Int, _ row: Int, with shade: Character, clip: Clip) {
        guard clip.columns.contains(column), clip.rows.contains(row) else { return }
        if drawn[row][column] {
            styles[row][column] = .faint
        } else {
            let old = shades.firstIndex(of: cells[row][column]) ?? -1
            cells[row][column] = shades[max(old, shades.firstIndex(of: shade) ?? 0)]
        }
    }

    /// The rows as text, without attributes.
    var lines: [String] { cells.map { String($0) } }

    /// The rows with SGR attributes, each ending plain.
    var styledLines: [String] {
        zip(cells, styles).map { row, styles in
            var line = "", current = CellStyle.plain
            for (c, style) in zip(row, styles) {
                if style != current { line += style.sgr; current = style }
                line.append(c)
            }
            return current == .plain ? line : line + CellStyle.plain.sgr
        }
    }
}

/// One picture of the scene: header, the container with its layers, footer. `contents`:
/// each entry's content by id (a label string or a content object).
func drawScene(layers: [JSONValue], contents: [String: JSONValue] = [:], container: (width: Double, height: Double),
               header: String, terminal: (columns: Int, rows: Int), styled: Bool = true) -> [String] {
    let map = CellMapping(width: container.width, height: container.height,
                          terminalColumns: terminal.columns, terminalRows: terminal.rows)
    var grid = CellGrid(columns: map.columns + 2, rows: map.rows + 2)
    let everywhere = (columns: 0...map.columns + 1, rows: 0...map.rows + 1)
    let container = (columns: 1...map.columns, rows: 1...map.rows)
    box(&grid, 0, 0, map.columns + 1, map.rows + 1, chars: Array("╔═╗║╚╝"), clip: everywhere)
    var topRows: [String: Int] = [:]   // each content box's top row, by entry id: where its grabber goes
    for layer in layers {
        guard let (x, y, w, h) = rect(layer["frame"]) else { continue }
        // In a context: only the cells inside it (and in the container).
        var inside: Clip = container
        if let (cx, cy, cw, ch) = rect(layer["clip"]) {
            let first = max(1 + map.column(cx), 1), last = min(map.column(cx + cw), map.columns)
            let top = max(1 + map.row(cy), 1), bottom = min(map.row(cy + ch), map.rows)
            guard first <= last, top <= bottom else { continue }
            inside = (first...last, top...bottom)
        }
        let alpha = layer["alpha"]?.doubleValue ?? 1
        let role = layer["role"]?.stringValue ?? "content"
        if role == "grabber" {
            // A sheet's grabber: a heavy bar in the columns of its frame, on its sheet's top
            // border (it follows its content layer), not a box of its own over the content.
            let c0 = 1 + map.column(x), c1 = max(c0, map.column(x + w))
            let row = topRows[layer["id"]?.stringValue ?? ""] ?? 1 + map.row(y)
            for column in c0...c1 { grid.put("━", column, row, clip: inside) }
            continue
        }
        // A role a later daemon adds is not guessed at: drawn as a box it would cover the content.
        guard role == "dimming" || role == "content" else { continue }
        if role == "dimming" {
            guard alpha > 0.05 else { continue }
            let c0 = 1 + map.column(x), r0 = 1 + map.row(y), c1 = map.column(x + w), r1 = map.row(y + h)
            guard c0 <= c1, r0 <= r1 else { continue }
            let shade = shade(alpha: alpha)
            for row in r0...r1 { for column in c0...c1 { grid.dim(column, row, with: shade, clip: inside) } }
        } else {
            // Scale about the centre; the flip about the vertical axis narrows the width.
            let scale = layer["scale"]?.doubleValue ?? 1
            let squeeze = abs(cos(layer["rotation"]?.doubleValue ?? 0))
            let vw = w * scale * squeeze, vh = h * scale
            let vx = x + (w - vw) / 2, vy = y + (h - vh) / 2
            let c0 = 1 + map.column(vx), r0 = 1 + map.row(vy)
            let c1 = max(c0, map.column(vx + vw)), r1 = max(r0, map.row(vy + vh))
            fill(&grid, c0, r0, c1, r1, with: " ", clip: inside)
            topRows[layer["id"]?.stringValue ?? ""] = r0
            let level = layer["level"]?.stringValue ?? "normal"
            box(&grid, c0, r0, c1, r1, chars: boxCharacters(level: level, faint: alpha < 0.5), clip: inside)
            let id = layer["id"]?.stringValue ?? ""
            let name = level == "normal" ? id : "\(id) [\(level)]"
            if let content = contents[id] {
                // Too thin for anything inside: the text goes in the border, after the name.
                let text = r1 - r0 < 2 ? (content.stringValue ?? content["title"]?.stringValue).map { ": \($0)" } : nil
                let title = String(" \(name)\(text ?? "") ".prefix(max(0, c1 - c0 - 3)))
                if title.count > 2 { grid.text(title, c0 + 2, r0, clip: inside) }
                // Facing away (past a quarter turn of a flip), it shows its back: no content.
                // The cells inside its border that are in the container (a box sliding in
                // may be partly or wholly outside it).
                let left = max(c0 + 1, inside.columns.lowerBound), right = min(c1 - 1, inside.columns.upperBound)
                let top = max(r0 + 1, inside.rows.lowerBound), bottom = min(r1 - 1, inside.rows.upperBound)
                if abs(layer["rotation"]?.doubleValue ?? 0) <= Double.pi / 2, left <= right, top <= bottom {
                    drawContent(content, in: &grid, c0 + 1, r0 + 1, c1 - 1, r1 - 1, clip: (left...right, top...bottom))
                }
            } else {
                let label = String(name.prefix(max(0, c1 - c0 - 1)))
                grid.text(label, c0 + 1 + max(0, (c1 - c0 - 1 - label.count) / 2), (r0 + r1) / 2, clip: inside)
            }
        }
    }
    let scaleNote = "1 column = \(fixed(map.pointsPerColumn, places: 2)) pt"
    return [String(header.prefix(terminal.columns))] + (styled ? grid.styledLines : grid.lines)
        + [String(scaleNote.prefix(terminal.columns))]
}

/// A `{x, y, width, height}` object's members.
private func rect(_ o: JSONValue?) -> (Double, Double, Double, Double)? {
    guard let o, let x = o["x"]?.doubleValue, let y = o["y"]?.doubleValue, let w = o["width"]?.doubleValue,
          let h = o["height"]?.doubleValue else { return nil }
    return (x, y, w, h)
}

/// A content box's ┌ ─ ┐ │ └ ┘ for its level: an overlay's rounded, an alert-level entry's
/// heavy, a normal one's light; dashed while mostly transparent.
private func boxCharacters(level: String, faint: Bool) -> [Character] {
    switch (level, faint) {
    case ("overlay", false): return Array("╭─╮│╰╯")
    case ("overlay", true): return Array("╭╌╮╎╰╯")
    case ("alert", false): return Array("┏━┓┃┗┛")
    case ("alert", true): return Array("┏╍┓╏┗┛")
    case (_, false): return Array("┌─┐│└┘")
    case (_, true): return Array("┌╌┐╎└┘")
    }
}

// MARK: What is inside a box

/// One line of a content's picture.
private struct ContentLine {
    var pieces: [(text: String, style: CellStyle)]
    var text: String { pieces.map(\.text).joined() }
    init(_ text: String, _ style: CellStyle = .plain) { pieces = [(text, style)] }
    init(pieces: [(text: String, style: CellStyle)]) { self.pieces = pieces }
}

/// Draws `content` in the cells from (c0, r0) to (c1, r1) inclusive: a label centred; a
/// dialog's title at the top, its buttons at the bottom, and between them as much of the
/// message as fits after its fields, progress bar and surface.
private func drawContent(_ content: JSONValue, in grid: inout CellGrid, _ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int,
                         clip: Clip) {
    let width = c1 - c0 + 1, height = r1 - r0 + 1
    func put(_ line: ContentLine, row: Int) {
        var column = c0 + max(0, (width - line.text.count) / 2)
        for piece in line.pieces {
            grid.text(piece.text, column, row, style: piece.style, clip: clip)
            column += piece.text.count
        }
    }
    if let label = content.stringValue {
        return put(ContentLine(label), row: (r0 + r1) / 2)
    }
    var top: [ContentLine] = [], middle: [ContentLine] = [], bottom: [ContentLine] = []
    if let title = content["title"]?.stringValue { top.append(ContentLine(title)) }
    for field in content["fields"]?.arrayValue ?? [] { middle.append(fieldLine(field, width: width)) }
    if let progress = content["progress"] { middle.append(progressLine(progress, width: width)) }
    if let surface = content["surface"] {
        let name = surface["appId"]?.stringValue ?? surface["handle"]?.stringValue ?? ""
        middle.append(ContentLine("⟨surface \(name)⟩"))
    }
    if let actions = content["actions"]?.arrayValue, !actions.isEmpty {
        bottom.append(buttonLine(actions, width: width))
    }
    // The message gets the rows left over (at least none), its last line cut with an ellipsis.
    let spare = height - top.count - middle.count - bottom.count
    if let message = content["message"]?.stringValue, spare > 0 {
        var lines = wrap(message, width: width)
        if lines.count > spare {
            lines = Array(lines.prefix(spare))
            lines[spare - 1] = String(lines[spare - 1].prefix(max(0, width - 1))) + "…"
        }
        middle = lines.map { ContentLine($0) } + middle
    }
    let shown = top + middle
    for (i, line) in shown.prefix(max(0, height - bottom.count)).enumerated() { put(line, row: r0 + i) }
    for (i, line) in bottom.enumerated() { put(line, row: r1 - bottom.count + 1 + i) }
}

/// `[ OK ]  [ Cancel ]` — narrower (`[OK] [Cancel]`), then with titles cut short, when that
/// does not fit; the default action bold, a destructive one red.
private func buttonLine(_ actions: [JSONValue], width: Int) -> ContentLine {
    var titles = actions.map { $0["title"]?.stringValue ?? $0["id"]?.stringValue ?? "" }
    let roomy = titles.map { $0.count + 4 }.reduce(0, +) + 2 * (titles.count - 1) <= width
    if !roomy {
        let each = max(1, (width - 3 * titles.count + 1) / max(1, titles.count))
        titles = titles.map { $0.count <= each ? $0 : String($0.prefix(max(0, each - 1))) + "…" }
    }
    var pieces: [(text: String, style: CellStyle)] = []
    for (i, (action, title)) in zip(actions, titles).enumerated() {
        if i > 0 { pieces.append((roomy ? "  " : " ", .plain)) }
        let style: CellStyle = action["role"] == "default" ? .bold : action["role"] == "destructive" ? .red : .plain
        pieces.append((roomy ? "[ \(title) ]" : "[\(title)]", style))
    }
    return ContentLine(pieces: pieces)
}

/// A field as an input box: its value (dots for a secure one), else its placeholder.
private func fieldLine(_ field: JSONValue, width: Int) -> ContentLine {
    let inner = max(1, min(width - 2, 24))
    let value = field["value"]?.stringValue ?? ""
    var shown = field["kind"] == "secure" ? String(repeating: "•", count: value.count) : value
    if shown.isEmpty { shown = field["placeholder"]?.stringValue ?? field["id"]?.stringValue ?? "" }
    shown = String(shown.prefix(inner))
    return ContentLine("[" + shown + String(repeating: "_", count: inner - shown.count) + "]")
}

/// `[█████░░░░░] 50%`, or a shaded bar when indeterminate (`null`).
private func progressLine(_ progress: JSONValue, width: Int) -> ContentLine {
    guard let fraction = progress.doubleValue else {
        return ContentLine("[" + String(repeating: "▒", count: max(1, min(width - 2, 20))) + "]")
    }
    let bar = max(1, min(width - 7, 20))
    let done = Int((min(max(fraction, 0), 1) * Double(bar)).rounded())
    let percent = String(Int((fraction * 100).rounded()))
    return ContentLine("[" + String(repeating: "█", count: done) + String(repeating: "░", count: bar - done) + "] "
                       + String(repeating: " ", count: max(0, 3 - percent.count)) + percent + "%")
}

/// Greedy word wrap to `width` columns; a word longer than a line is cut across lines.
func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var line = ""
        for var word in paragraph.split(separator: " ").map(String.init) {
            while word.count > width {
                if !line.isEmpty { lines.append(line); line = "" }
                lines.append(String(word.prefix(width)))
                word = String(word.dropFirst(width))
            }
            if line.isEmpty { line = word } else if line.count + 1 + word.count <= width { line += " " + word } else {
                lines.append(line)
                line = word
            }
        }
        lines.append(line)
    }
    return lines
}

private func fill(_ grid: inout CellGrid, _ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int, with c: Character,
                  clip: Clip) {
    guard c0 <= c1, r0 <= r1 else { return }
    for row in r0...r1 { for column in c0...c1 { grid.put(c, column, row, clip: clip) } }
}

/// A box from (c0, r0) to (c1, r1) inclusive; `chars`: ┌ ─ ┐ │ └ ┘.
private func box(_ grid: inout CellGrid, _ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int, chars: [Character],
                 clip: Clip) {
    guard c1 > c0, r1 > r0 else { return fill(&grid, c0, r0, c1, r1, with: "█", clip: clip) }
    for column in c0 + 1..<c1 {
        grid.put(chars[1], column, r0, clip: clip)
        grid.put(chars[1], column, r1, clip: clip)
    }
    for row in r0 + 1..<r1 {
        grid.put(chars[3], c0, row, clip: clip)
        grid.put(chars[3], c1, row, clip: clip)
    }
    grid.put(chars[0], c0, r0, clip: clip)
    grid.put(chars[2], c1, r0, clip: clip)
    grid.put(chars[4], c0, r1, clip: clip)
    grid.put(chars[5], c1, r1, clip: clip)
}

/// `value` with `places` decimals (no Foundation here).
func fixed(_ value: Double, places: Int) -> String {
    var factor = 1.0
    for _ in 0..<places { factor *= 10 }
    let scaled = Int64((abs(value) * factor).rounded())
    let whole = String(scaled / Int64(factor)), fraction = String(scaled % Int64(factor))
    let padded = String(repeating: "0", count: max(0, places - fraction.count)) + fraction
    return (value < 0 && scaled != 0 ? "-" : "") + whole + (places > 0 ? "." + padded : "")
}

/// Writes `text` to stdout in one write(2) when it can, so that a terminal reading it gets a
/// whole picture at once rather than half of the new one over the old.
func writeOut(_ text: String) {
    try? writeAll(Array(text.utf8), to: STDOUT_FILENO)   // a closed terminal has nobody to show
}

/// The terminal's size, or 80×24 when stdout is not a terminal.
func terminalSize() -> (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
}

/// What each entry shows, by id, and the revision it is: kept from the entries and the
/// lifecycle events, since frames carry only the revision.
struct ContentBook {
    private(set) var contents: [String: JSONValue] = [:]
    private var revisions: [String: Int64] = [:]
    /// The layer revisions already asked for: an entry that left while its last frame still
    /// shows it is not asked for again at every redraw.
    private var asked: [String: Int64] = [:]

    /// Takes the content of every entry (a snapshot or `stack`).
    mutating func take(entries: [JSONValue]) {
        contents = [:]
        revisions = [:]
        for entry in entries { if let id = entry["id"]?.stringValue { take(id, entry) } }
    }

    /// A lifecycle event: `willPresent`, `updated` and `adapted` carry the content in force
    /// with its revision (absent or `null`: none); `didDismiss` ends the entry.
    mutating func take(lifecycle p: JSONValue) {
        guard let id = p["id"]?.stringValue else { return }
        if p["event"] == "didDismiss" {
            contents[id] = nil
            revisions[id] = nil
        } else if p["contentRevision"] != nil {
            take(id, p)
        }
    }

    private mutating func take(_ id: String, _ o: JSONValue) {
        let content = o["content"]
        contents[id] = content?.isNull == false ? content : nil
        revisions[id] = o["contentRevision"]?.int64Value
    }

    /// Whether a frame's layers name a revision newer than the one kept and not asked for
    /// yet (then the caller asks for the entries again); remembers the ones it says so for.
    mutating func needsEntries(for layers: [JSONValue]) -> Bool {
        var behind = false
        for layer in layers {
            guard let id = layer["id"]?.stringValue, let r = layer["contentRevision"]?.int64Value,
                  r > revisions[id] ?? 0, r > asked[id] ?? 0 else { continue }
            asked[id] = r
            behind = true
        }
        return behind
    }
}

/// Subscribes and redraws whenever the picture changes, until the daemon goes away.
/// Frames that arrive together are drawn once, newest first.
func drawWatch(_ client: PresentClient, output: String? = nil) throws -> Never {
    var subscription: JSONObject = ["topics": ["frames", "statusBar", "lifecycle"]]
    if let output { subscription["outputs"] = [.string(output)] }
    let result = try client.call("subscribe", .object(subscription))
    let snapshot = result["snapshot"]
    var container = (width: snapshot?["container"]?["width"]?.doubleValue ?? 390,
                     height: snapshot?["container"]?["height"]?.doubleValue ?? 844)
    var layers = snapshot?["layers"]?.arrayValue ?? []
    var book = ContentBook()
    book.take(entries: snapshot?["entries"]?.arrayValue ?? [])
    var statusBar = snapshot?["statusBar"]?["style"]?.stringValue ?? "default"
    var time = snapshot?["time"]?.doubleValue ?? 0, seq: Int64 = 0
    // A resized terminal is redrawn at once, not at the next frame (nothing may move for a
    // long time): SIGWINCH's handler does nothing, but interrupts the wait for a notification.
    signal(SIGWINCH) { _ in }
    writeOut("\u{1B}[2J")
    while true {
        if book.needsEntries(for: layers) { book.take(entries: try client.call("stack")["entries"]?.arrayValue ?? []) }
        let size = terminalSize()
        let header = "presentd · " + (output.map { "output \($0) · " } ?? "")
            + "frame \(seq) · t=\(fixed(time, places: 3)) s · status bar \(statusBar)"
        let picture = drawScene(layers: layers, contents: book.contents, container: container, header: header,
                                terminal: size)
        writeOut("\u{1B}[H" + picture.joined(separator: "\u{1B}[K\n") + "\u{1B}[K\u{1B}[J")
        // One notification (waiting; nil when a signal, SIGWINCH, interrupts the wait: then
        // just the redraw), then whatever else is already there.
        var next = try client.nextNotification(timeout: 3600, interruptible: true)
        while let n = next {
            let p = n["params"]
            // One screen's picture: frames and the status bar of the others are not ours.
            let ours = (p?["output"]?.stringValue ?? "main") == (output ?? "main")
            switch n["method"]?.stringValue {
            case "frame" where ours:
                layers = p?["layers"]?.arrayValue ?? []
                time = p?["time"]?.doubleValue ?? time
                seq = p?["seq"]?.int64Value ?? seq
                // A dimming outside any context covers the container: it tells a new container size.
                if let d = layers.first(where: { $0["role"]?.stringValue == "dimming" && $0["clip"] == nil })?["frame"],
                   let w = d["width"]?.doubleValue, let h = d["height"]?.doubleValue { container = (w, h) }
            case "lifecycle":
                if let p { book.take(lifecycle: p) }
            case "statusBar" where ours:
                statusBar = p?["style"]?.stringValue ?? statusBar
                if p?["hidden"]?.boolValue == true { statusBar += " (hidden)" }
            case "shutdown", "closing":
                print("\npresentd: \(n["method"]?.stringValue ?? "") (\(p?["reason"]?.stringValue ?? ""))")
                exit(0)
            default: break
            }
            next = try client.nextNotification(timeout: 0)
        }
    }
}
