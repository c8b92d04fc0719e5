// `presentctl watch --draw`: the container and its layers as boxes in the terminal, live,
// for people on a server without a browser. The container is a double-lined box scaled
// to fit the terminal (a cell is taken as twice as tall as it is wide); dimming shades
// what it covers by its alpha; content is a single-lined box (dashed while mostly
// transparent) at its visible frame, labelled with its id.

#if canImport(Glibc)
import Glibc
#endif
import PresentClient
import PresentJSON

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

    func column(_ x: Double) -> Int { Int((x / pointsPerColumn).rounded(.down)) }
    func row(_ y: Double) -> Int { Int((y / (2 * pointsPerColumn)).rounded(.down)) }
}

/// A character grid for one picture.
struct CellGrid {
    private(set) var cells: [[Character]]
    init(columns: Int, rows: Int) { cells = Array(repeating: Array(repeating: " ", count: columns), count: rows) }

    mutating func put(_ c: Character, _ column: Int, _ row: Int, clip: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)) {
        guard clip.columns.contains(column), clip.rows.contains(row) else { return }
        cells[row][column] = c
    }

    mutating func text(_ s: String, _ column: Int, _ row: Int, clip: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)) {
        for (i, c) in s.enumerated() { put(c, column + i, row, clip: clip) }
    }

    var lines: [String] { cells.map { String($0) } }
}

/// One picture of the scene: header, the container with its layers, footer.
func drawScene(layers: [JSONValue], container: (width: Double, height: Double), header: String,
               terminal: (columns: Int, rows: Int)) -> [String] {
    let map = CellMapping(width: container.width, height: container.height,
                          terminalColumns: terminal.columns, terminalRows: terminal.rows)
    var grid = CellGrid(columns: map.columns + 2, rows: map.rows + 2)
    let everywhere = (columns: 0...map.columns + 1, rows: 0...map.rows + 1)
    let inside = (columns: 1...map.columns, rows: 1...map.rows)
    box(&grid, 0, 0, map.columns + 1, map.rows + 1, chars: Array("╔═╗║╚╝"), clip: everywhere)
    for layer in layers {
        guard let f = layer["frame"], let x = f["x"]?.doubleValue, let y = f["y"]?.doubleValue,
              let w = f["width"]?.doubleValue, let h = f["height"]?.doubleValue else { continue }
        let alpha = layer["alpha"]?.doubleValue ?? 1
        if layer["role"]?.stringValue == "dimming" {
            guard alpha > 0.05 else { continue }
            let shade: Character = alpha < 0.35 ? "░" : alpha < 0.65 ? "▒" : "▓"
            fill(&grid, map, x, y, w, h, with: shade, clip: inside)
        } else {
            // Scale about the centre; the flip about the vertical axis narrows the width.
            let scale = layer["scale"]?.doubleValue ?? 1
            let squeeze = abs(cos(layer["rotation"]?.doubleValue ?? 0))
            let vw = w * scale * squeeze, vh = h * scale
            let vx = x + (w - vw) / 2, vy = y + (h - vh) / 2
            let c0 = 1 + map.column(vx), r0 = 1 + map.row(vy)
            let c1 = max(c0, map.column(vx + vw)), r1 = max(r0, map.row(vy + vh))
            fill(&grid, c0, r0, c1, r1, with: " ", clip: inside)
            box(&grid, c0, r0, c1, r1, chars: Array(alpha < 0.5 ? "┌╌┐╎└┘" : "┌─┐│└┘"), clip: inside)
            let label = String((layer["id"]?.stringValue ?? "").prefix(max(0, c1 - c0 - 1)))
            grid.text(label, c0 + 1 + max(0, (c1 - c0 - 1 - label.count) / 2), (r0 + r1) / 2, clip: inside)
        }
    }
    let scaleNote = "1 column = \(fixed(map.pointsPerColumn, places: 2)) pt"
    return [String(header.prefix(terminal.columns))] + grid.lines + [String(scaleNote.prefix(terminal.columns))]
}

private func fill(_ grid: inout CellGrid, _ map: CellMapping, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                  with c: Character, clip: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)) {
    fill(&grid, 1 + map.column(x), 1 + map.row(y), map.column(x + w), map.row(y + h), with: c, clip: clip)
}

private func fill(_ grid: inout CellGrid, _ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int, with c: Character,
                  clip: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)) {
    guard c0 <= c1, r0 <= r1 else { return }
    for row in r0...r1 { for column in c0...c1 { grid.put(c, column, row, clip: clip) } }
}

/// A box from (c0, r0) to (c1, r1) inclusive; `chars`: ┌ ─ ┐ │ └ ┘.
private func box(_ grid: inout CellGrid, _ c0: Int, _ r0: Int, _ c1: Int, _ r1: Int, chars: [Character],
                 clip: (columns: ClosedRange<Int>, rows: ClosedRange<Int>)) {
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

/// The terminal's size, or 80×24 when stdout is not a terminal.
func terminalSize() -> (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
}

/// Subscribes and redraws whenever the picture changes, until the daemon goes away.
/// Frames that arrive together are drawn once, newest first.
func drawWatch(_ client: PresentClient) throws -> Never {
    let result = try client.call("subscribe", ["topics": ["frames", "statusBar"]])
    let snapshot = result["snapshot"]
    var container = (width: snapshot?["container"]?["width"]?.doubleValue ?? 390,
                     height: snapshot?["container"]?["height"]?.doubleValue ?? 844)
    var layers = snapshot?["layers"]?.arrayValue ?? []
    var statusBar = snapshot?["statusBar"]?["style"]?.stringValue ?? "default"
    var time = snapshot?["time"]?.doubleValue ?? 0, seq: Int64 = 0
    print("\u{1B}[2J", terminator: "")
    while true {
        let size = terminalSize()
        let header = "presentd · frame \(seq) · t=\(fixed(time, places: 3)) s · status bar \(statusBar)"
        let picture = drawScene(layers: layers, container: container, header: header, terminal: size)
        print("\u{1B}[H" + picture.joined(separator: "\u{1B}[K\n") + "\u{1B}[K\u{1B}[J", terminator: "")
        fflush(nil)
        // One notification (waiting), then whatever else is already there.
        var next = try client.nextNotification(timeout: 3600)
        while let n = next {
            let p = n["params"]
            switch n["method"]?.stringValue {
            case "frame":
                layers = p?["layers"]?.arrayValue ?? []
                time = p?["time"]?.doubleValue ?? time
                seq = p?["seq"]?.int64Value ?? seq
                // The dimming covers the container: it tells a new container size.
                if let d = layers.first(where: { $0["role"]?.stringValue == "dimming" })?["frame"],
                   let w = d["width"]?.doubleValue, let h = d["height"]?.doubleValue { container = (w, h) }
            case "statusBar":
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
