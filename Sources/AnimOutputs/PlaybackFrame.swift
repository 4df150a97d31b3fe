import AnimLang
import Animations

/// One frame of `animc play`, as a pure function of the prepared animation,
/// the time and the terminal's size: no terminal is needed to render (or
/// test) it.
///
/// ```
/// ▶ playing  colors.anim · final · speed 1×
/// time       ████████▍░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░░  0.500 / 2.500 s
///
/// btn.color  [a swatch of the colour, 42 columns]         #5a73c0
/// btn.x      █████████████████████░░░░░░░░░░░░░░░░░░░░░   50.0000  0 … 100
///
/// events   land   tick
/// log     —
///
/// space pause · ←/→ h/l ,/. ±0.1 s · 0 start · q quit
/// ```
///
/// The header names the state, file, binding and speed; the time bar shows
/// the time over the duration. Then a row per column of `animc eval`'s table
/// (sorted the same way): its name (cut with `…` when long), a bar placing the
/// value within the column's range over the whole animation, and the value as
/// the table prints it; a colour shows a truecolor swatch (over black, so a
/// fading colour fades) and its hex. Events that fired in the last half
/// second of wall time (`0.5 × speed` of animation time) are highlighted, and
/// the log lists the last few firings. The keys close the frame on its last
/// row. No line is wider than `columns`, and there are at most `rows` lines.
public func renderPlayerFrame(_ playback: Playback, at t: Time, header: PlayerHeader, columns: Int, rows: Int) -> PlayerFrame {
    let width = max(1, columns)
    let height = max(1, rows)
    let values = playback.values(at: t)
    let valueTexts = values.map { value in
        var out: [UInt8] = []
        value.write(.display, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
    let hasColors = values.contains { $0.kind == .color }
    let layout = RowLayout(names: playback.columns.map { Drawing.label(of: $0, placement: playback.placements[$0.view]) }, values: valueTexts, ranges: playback.ranges,
                           hasColors: hasColors, width: width)
    // What fits: at most `height` lines. The blank separators go first,
    // then the keys, the log and the events; then properties are hidden
    // (the last row left says how many).
    var gaps = true, keys = true, log = playback.hasEvents, events = playback.hasEvents
    func needed(_ properties: Int) -> Int {
        2 + properties + (gaps ? 1 : 0) + (events ? (gaps ? 2 : 1) : 0) + (log ? 1 : 0) + (keys ? (gaps ? 2 : 1) : 0)
    }
    let count = min(playback.columns.count, values.count)
    if needed(count) > height { gaps = false }
    if needed(count) > height { keys = false }
    if needed(count) > height { log = false }
    if needed(count) > height { events = false }
    var shown = count
    if needed(count) > height { shown = max(0, height - needed(0) - 1) }

    var lines = [headerLine(playback, header, width: width), timeLine(playback, at: t, layout: layout)]
    if gaps { lines.append(FrameLine(width: width)) }
    for index in 0..<shown {
        lines.append(layout.line(index, value: values[index], text: valueTexts[index]))
    }
    if shown < count {
        var more = FrameLine(width: width)
        more.append("… \(count - shown) more (a taller terminal shows them)", .dim)
        lines.append(more)
    }
    if events {
        if gaps { lines.append(FrameLine(width: width)) }
        let window = Time(seconds: 0.5 * header.speed) ?? Time(numerator: 1, denominator: 2) ?? .one
        lines.append(eventLine(playback, fired: playback.events(before: t, within: window), width: width))
    }
    if log {
        lines.append(logLine(playback.recentFirings(at: t, count: 6), width: width))
    }
    if keys {
        // On the last row.
        lines += Array(repeating: FrameLine(width: width), count: max(0, height - lines.count - 1))
        lines.append(keysLine(width: width))
    }
    return PlayerFrame(columns: width, rows: height, lines: Array(lines.prefix(height)))
}

/// What the header says besides the animation: the file, the speed, and
/// whether it is playing.
public struct PlayerHeader: Sendable {
    public var file: String
    public var speed: Double
    public var state: PlaybackState
    public var loops: Bool

    public init(file: String, speed: Double = 1, state: PlaybackState = .playing, loops: Bool = false) {
        self.file = file
        self.speed = speed
        self.state = state
        self.loops = loops
    }
}

/// A rendered frame: its lines (text with styles), as plain text for tests
/// and captures, or as the bytes that draw it on a terminal.
public struct PlayerFrame: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    public let lines: [FrameLine]

    /// The lines without styles, each ended by a newline.
    public var text: String {
        lines.map { $0.text + "\n" }.joined()
    }

    /// The bytes that draw the frame over the previous one: each line at
    /// its row from the first column (nothing scrolls, nothing wraps), the rest
    /// of each line and the rows below erased, inside a synchronized update
    /// (terminals that know it show the frame at once).
    public func terminalBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(columns * rows * 2)
        out.append(contentsOf: "\u{1B}[?2026h".utf8)
        for (index, line) in lines.enumerated() {
            out.append(contentsOf: "\u{1B}[".utf8)
            writeInteger(Int64(index + 1), into: &out)
            out.append(contentsOf: ";1H".utf8)
            for span in line.spans {
                out.append(contentsOf: span.style.escape.utf8)
                out.append(contentsOf: span.text.utf8)
                if span.style != .plain { out.append(contentsOf: "\u{1B}[0m".utf8) }
            }
            // Erase what an older, longer line left (not needed at full width,
            // where the cursor already waits past the last column).
            if line.length < line.width { out.append(contentsOf: "\u{1B}[K".utf8) }
        }
        if lines.count < rows {
            out.append(contentsOf: "\u{1B}[".utf8)
            writeInteger(Int64(lines.count + 1), into: &out)
            out.append(contentsOf: ";1H\u{1B}[J".utf8)
        }
        out.append(contentsOf: "\u{1B}[?2026l".utf8)
        return out
    }
}

/// How a run of text looks.
public enum TextStyle: Sendable, Hashable {
    case plain, bold, dim
    /// Black on yellow: events that just fired, a paused or ended player.
    case highlight
    /// A truecolor background: a colour swatch.
    case swatch(red: UInt8, green: UInt8, blue: UInt8)

    /// The escape sequence that selects the style (SGR).
    public var escape: String {
        switch self {
        case .plain: return ""
        case .bold: return "\u{1B}[1m"
        case .dim: return "\u{1B}[2m"
        case .highlight: return "\u{1B}[1;30;43m"
        case .swatch(let red, let green, let blue): return "\u{1B}[48;2;\(red);\(green);\(blue)m"
        }
    }
}

/// One line of a frame: runs of styled text, never wider than `width`
/// columns (text appended past it is cut).
public struct FrameLine: Sendable, Equatable {
    public struct Span: Sendable, Equatable {
        public let text: String
        public let style: TextStyle
    }

    /// The most columns the line may take.
    public let width: Int
    public private(set) var spans: [Span] = []
    /// The columns taken (every character shown takes one).
    public private(set) var length = 0

    public init(width: Int) {
        self.width = max(0, width)
    }

    /// The text without styles.
    public var text: String {
        spans.map(\.text).joined()
    }

    /// Appends `text` (cut at the line's width).
    public mutating func append(_ text: String, _ style: TextStyle = .plain) {
        let room = width - length
        guard room > 0, !text.isEmpty else { return }
        // Cut text ends in `…`, so a cut never passes for the whole.
        let shown = text.count <= room ? text : String(text.prefix(room - 1)) + "…"
        length += shown.count
        if let last = spans.last, last.style == style {
            spans[spans.count - 1] = Span(text: last.text + shown, style: style)
        } else {
            spans.append(Span(text: shown, style: style))
        }
    }

    /// Appends spaces up to `column`.
    mutating func pad(to column: Int) {
        if column > length { append(String(repeating: " ", count: column - length)) }
    }
}

// MARK: - Lines

private func headerLine(_ playback: Playback, _ header: PlayerHeader, width: Int) -> FrameLine {
    var line = FrameLine(width: width)
    switch header.state {
    case .playing: line.append("▶ playing", .bold)
    case .paused: line.append("‖ paused", .highlight)
    case .ended: line.append("■ end", .highlight)
    }
    line.append("  ")
    line.append(printable(header.file), .bold)
    line.append(" · \(playback.binding) · speed \(formatNumber(header.speed))×")
    if header.loops, !playback.isInfinite { line.append(" · loop") }
    if header.state == .ended { line.append("  (space plays again, q quits)", .dim) }
    return line
}

private func timeLine(_ playback: Playback, at t: Time, layout: RowLayout) -> FrameLine {
    var line = FrameLine(width: layout.width)
    let label = seconds(t) + (playback.isInfinite ? " s / forever" : " / " + seconds(playback.duration) + " s")
    // `time` in the names' column, its bar under theirs, then the label.
    line.append("time")
    let start = max(layout.nameWidth, 4) + 2
    let barWidth = min(layout.barWidth, layout.width - start - 2 - label.count)
    guard barWidth >= 4 else {
        line.append("  " + label)
        return line
    }
    line.pad(to: start)
    var fraction: Double
    let span = playback.span.seconds
    if playback.isInfinite {
        // Past the stretch the ranges were sampled over, the bar repeats its
        // last part (the endless repetitions' periods).
        let finite = playback.duration.seconds
        var position = t.seconds
        if position > span, span > finite {
            position = finite + (position - finite).truncatingRemainder(dividingBy: span - finite)
        }
        fraction = span > 0 ? position / span : 1
    } else {
        fraction = span > 0 ? t.seconds / span : 1
    }
    appendBar(fraction: fraction, width: barWidth, to: &line)
    line.append("  " + label)
    return line
}

private func eventLine(_ playback: Playback, fired: [EventFiring], width: Int) -> FrameLine {
    var line = FrameLine(width: width)
    line.append("events ", .bold)
    let counts = Dictionary(fired.map { ($0.name, $0.count) }, uniquingKeysWith: +)
    for name in playback.eventNames {
        line.append(" ")
        if let count = counts[name] {
            line.append(" \(name)\(count >= 2 ? "×\(count)" : "") ", .highlight)
        } else {
            line.append(" \(name) ", .dim)
        }
    }
    return line
}

private func logLine(_ firings: [PlacedEvent], width: Int) -> FrameLine {
    var line = FrameLine(width: width)
    line.append("log     ", .bold)
    // The newest firings that fit, oldest first.
    var entries: [String] = []
    var used = line.length
    for firing in firings.reversed() {
        let entry = (firing.time.exact.map(seconds) ?? seconds(firing.time.seconds)) + " " + firing.name
        let cost = entry.count + (entries.isEmpty ? 0 : 3)
        guard used + cost <= width else { break }
        used += cost
        entries.insert(entry, at: 0)
    }
    line.append(entries.isEmpty ? "—" : entries.joined(separator: " · "), entries.isEmpty ? .dim : .plain)
    return line
}

private func keysLine(width: Int) -> FrameLine {
    var line = FrameLine(width: width)
    let texts = ["space pause · ←/→ h/l ,/. ±0.1 s · 0 start · q quit", "space pause · ←/→ ±0.1 s · 0 start · q quit",
                 "space · ←/→ · 0 · q quit", "q quit"]
    line.append(texts.first { $0.count <= width } ?? "q", .dim)
    return line
}

/// The columns of the property rows: name, bar, value and, where there is
/// room, the range the bar spans (dim). At narrow widths the range goes
/// first, then the bar, then the name is cut.
private struct RowLayout {
    let names: [String]
    let ranges: [ClosedRange<Double>?]
    let rangeTexts: [String]
    let nameWidth: Int
    let barWidth: Int
    let valueWidth: Int
    /// 0 when the range column is left out.
    let rangeWidth: Int
    /// Without bars, a small swatch before a colour's value (0: none).
    let swatchWidth: Int
    let width: Int

    init(names: [String], values: [String], ranges: [ClosedRange<Double>?], hasColors: Bool, width: Int) {
        self.names = names
        self.ranges = ranges
        self.width = width
        rangeTexts = ranges.map { range in
            guard let range else { return "" }
            return range.lowerBound == range.upperBound ? "constant"
                : compact(range.lowerBound) + " … " + compact(range.upperBound)
        }
        var widest = 7
        for text in values { widest = max(widest, text.count) }
        for range in ranges {
            guard let range else { continue }
            for end in [range.lowerBound, range.upperBound] {
                var out: [UInt8] = []
                Value.number(end).write(.display, into: &out)
                widest = max(widest, out.count)
            }
        }
        valueWidth = min(widest, width)
        let longest = names.map(\.count).max() ?? 0
        var name = min(longest, max(8, (width - valueWidth) / 3))
        var bar = min(60, width - name - valueWidth - 4)
        var range = rangeTexts.map(\.count).max() ?? 0
        if range > 0, bar - range - 2 >= 20 {
            bar = min(60, bar - range - 2)
        } else {
            range = 0
        }
        var swatch = 0
        if bar < 3 {
            bar = 0
            name = min(longest, width - valueWidth - 2)
            if hasColors, width - valueWidth - 2 - 3 >= 4 {
                swatch = 2
                name = min(longest, width - valueWidth - 2 - 3)
            }
        }
        nameWidth = max(0, name)
        barWidth = bar
        rangeWidth = range
        swatchWidth = swatch
    }

    func line(_ index: Int, value: Value, text: String) -> FrameLine {
        var line = FrameLine(width: width)
        if nameWidth > 0, names.indices.contains(index) {
            let name = names[index]
            line.append(name.count <= nameWidth ? name : name.prefix(nameWidth - 1) + "…")
            line.pad(to: nameWidth + 2)
        }
        if barWidth > 0 {
            switch value {
            case .number(let number):
                appendBar(fraction: position(of: number, in: ranges.indices.contains(index) ? ranges[index] : nil), width: barWidth, to: &line)
            case .color(let color):
                line.append(String(repeating: " ", count: barWidth), swatch(color))
            case .point:
                line.append(String(repeating: " ", count: barWidth))
            }
            line.append("  ")
        } else if swatchWidth > 0 {
            if case .color(let color) = value {
                line.append(String(repeating: " ", count: swatchWidth), swatch(color))
            } else {
                line.pad(to: line.length + swatchWidth)
            }
            line.append(" ")
        }
        let start = line.length
        line.pad(to: start + max(0, valueWidth - text.count))
        line.append(text)
        if rangeWidth > 0, rangeTexts.indices.contains(index), !rangeTexts[index].isEmpty {
            line.append("  ")
            line.append(rangeTexts[index], .dim)
        }
        return line
    }
}

/// Where `value` lies in `range`, from 0 to 1 (a constant column is full).
private func position(of value: Double, in range: ClosedRange<Double>?) -> Double {
    guard let range, value.isFinite else { return 0 }
    let span = range.upperBound - range.lowerBound
    guard span > 0, span.isFinite else { return 1 }
    return (value - range.lowerBound) / span
}

/// A bar `width` columns wide filled to `fraction` (clamped to [0, 1]), in eighths of a column.
private func appendBar(fraction: Double, width: Int, to line: inout FrameLine) {
    guard width > 0 else { return }
    let clamped = fraction.isFinite ? min(max(fraction, 0), 1) : 0
    let eighths = Int((clamped * Double(width) * 8).rounded())
    let full = min(width, eighths / 8)
    let part = full < width ? eighths % 8 : 0
    var filled = String(repeating: "█", count: full)
    if part > 0 { filled += String(partialBlocks[part]) }
    line.append(filled)
    let empty = width - full - (part > 0 ? 1 : 0)
    if empty > 0 { line.append(String(repeating: "░", count: empty), .dim) }
}

/// `▏` (one eighth) to `▉` (seven eighths), at their number of eighths.
private let partialBlocks: [Character] = [" ", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

/// The swatch of a colour: its clamped channels over black (alpha darkens it).
func swatch(_ color: Color) -> TextStyle {
    let shown = color.clamped
    func channel(_ value: Double) -> UInt8 {
        let scaled = (value * shown.alpha).rounded()
        guard scaled.isFinite else { return 0 }
        return UInt8(min(max(scaled, 0), 255))
    }
    return .swatch(red: channel(shown.red), green: channel(shown.green), blue: channel(shown.blue))
}

/// A range's end: to 4 decimals as the table prints values, without trailing zeros.
private func compact(_ value: Double) -> String {
    var out: [UInt8] = []
    writeFixed(value, decimals: 4, into: &out)
    if out.contains(UInt8(ascii: ".")), !out.contains(UInt8(ascii: "e")) {
        while out.last == UInt8(ascii: "0") { out.removeLast() }
        if out.last == UInt8(ascii: ".") { out.removeLast() }
    }
    return String(decoding: out, as: UTF8.self)
}

/// Seconds to 3 decimals, as `eval`'s table prints its time column.
private func seconds(_ t: Time) -> String {
    seconds(t.seconds)
}

private func seconds(_ value: Double) -> String {
    var out: [UInt8] = []
    writeFixed(value, decimals: 3, into: &out)
    return String(decoding: out, as: UTF8.self)
}

/// `text` with every character a terminal might not show in one column
/// (controls, escapes, wide or combining characters) replaced by `?`: a
/// file name is shown, never obeyed.
func printable(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
        (0x20...0x7E).contains(scalar.value) || (0xA0...0x2FF).contains(scalar.value) ? scalar : "?"
    }))
}
