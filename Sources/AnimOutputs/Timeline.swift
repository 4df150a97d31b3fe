import AnimLang
import Animations

/// The choreography of a compiled scene as text: every segment on one line
/// (property, start, end, from, to, easing), sorted by start, and every
/// event with its time; then a Gantt chart with one bar per property and
/// one per event name over the whole duration.
///
/// ```
/// property        start  end  from  to  easing
/// circle.opacity  0      1    0     1   linear
/// circle.radius   1      2    100   10  ease-in-out
///
/// event  time
/// land   2
///
/// circle.opacity  |====================                                        |
/// circle.radius   |                    ====================                    |
/// emit land       |                                                           *|
///                 0s                                                         3s
/// ```
///
/// A segment that plays backwards shows its values in the order it plays
/// them, with the easing it plays with (`mirror(E)` when `E` has no named
/// mirror). A segment inside a time warp (`with E` on a composite) shows its
/// own easing and the warps it is seen through, outermost first (`linear,
/// warped by ease-in-out`); its window is the warped one, the one `eval`
/// uses, and neighbouring windows share their ends exactly. A warp that
/// makes time jump (`steps`) is listed as a block with what is inside it in
/// its own time. Repetitions kept symbolic are listed once, with one copy's
/// segments and events; one that repeats forever is drawn for two periods
/// past the chart's last finite time, up to an end marked `…`. Consecutive
/// segments of one property alternate `=` and `#` in the bars.
///
/// A relative tween (`to B`, `by Δ`) shows the start value it resolved to,
/// marked `*` (with a line saying so under the table); inside a repetition
/// kept symbolic, where each copy starts from where the last one left the
/// property, its ends are written in terms of `c`, that value.
public func timelineText(_ scene: CompiledScene, width: Int = 60) -> String {
    var rows: [[String]] = [["property", "start", "end", "from", "to", "easing"]]
    var relative = false
    for segment in scene.segments {
        rows.append(row(for: segment, offset: nil))
        relative = relative || segment.relative != .absolute
    }
    for block in scene.blocks {
        relative = relative || block.body.segments.contains { $0.relative != .absolute }
    }
    var text = rows.count > 1 || (scene.blocks.isEmpty && scene.events.isEmpty) ? alignedColumns(rows) : ""

    if !scene.events.isEmpty {
        text += (text.isEmpty ? "" : "\n") + alignedColumns(eventRows(scene.events))
    }
    for block in scene.blocks {
        if let warp = block.warp {
            text += "\(text.isEmpty ? "" : "\n")with \(EasingNames.spelling(of: warp)), from \(block.start)s to \(block.end)s "
                + "(time jumps: the state of what is inside at the warped time); inside, in its own time:\n"
        } else {
            let times = block.isEndless ? "forever" : "\(block.count) times"
            let until = block.isEndless ? "" : " to \(block.end)s"
            text += "\(text.isEmpty ? "" : "\n")repeated \(times), every \(block.period)s, from \(block.start)s\(until); one copy:\n"
        }
        var blockText = ""
        if !block.body.segments.isEmpty {
            var blockRows: [[String]] = [["property", "start", "end", "from", "to", "easing"]]
            for segment in block.body.segments { blockRows.append(row(for: segment, offset: nil)) }
            blockText = alignedColumns(blockRows)
        }
        if !block.body.events.isEmpty {
            blockText += (blockText.isEmpty ? "" : "\n") + alignedColumns(eventRows(block.body.events))
        }
        text += blockText.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }
    if relative {
        text += (text.hasSuffix("\n") ? "" : "\n") + "* the value the property had where the tween starts (`to`, `by`)\n"
    }
    text += "\n" + gantt(scene, width: max(10, width))
    return text
}

private func eventRows(_ events: [PlacedEvent]) -> [[String]] {
    [["event", "time"]] + events.map { [$0.name, $0.time.description] }
}

private func row(for segment: Segment, offset: Time?) -> [String] {
    var easing = EasingNames.spelling(of: segment.isForward ? segment.easing : segment.easing.mirrored)
    let warps = segment.warps
    if !warps.isEmpty {
        easing += ", warped by " + warps.map(EasingNames.spelling(of:)).joined(separator: " then ")
    }
    var from = segment.startValue.description, to = segment.endValue.description
    if let (start, end) = segment.driftingEnds {
        (from, to) = (start, end)
    }
    if segment.relative != .absolute { from += "*" }
    return [segment.property.description, segment.start.description, segment.end.description, from, to, easing]
}

private func alignedColumns(_ rows: [[String]]) -> String {
    guard let columns = rows.first?.count else { return "" }
    var widths = [Int](repeating: 0, count: columns)
    for row in rows {
        for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    var out = ""
    for row in rows {
        var line = ""
        for (index, cell) in row.enumerated() {
            line += cell
            if index < columns - 1 { line += String(repeating: " ", count: widths[index] - cell.count + 2) }
        }
        out += line + "\n"
    }
    return out
}

/// One bar per property: `=` or `#` (alternating) where a segment is active, `|` for an
/// instantaneous jump, `~` over a symbolic repetition too dense to draw its
/// copies (narrower than 4 cells each); then one bar per event name, `*`
/// where it fires (`~` over such a repetition that holds it).
private func gantt(_ scene: CompiledScene, width: Int) -> String {
    // An endless repetition is drawn for two of its periods past the last finite time.
    let total = scene.shownWindow.seconds
    var properties = scene.properties
    var eventNames = scene.events.map(\.name)
    for block in scene.blocks {
        properties.append(contentsOf: block.body.properties)
        eventNames.append(contentsOf: block.body.events.map(\.name))
    }
    properties = Array(Set(properties)).sorted()
    eventNames = Array(Set(eventNames)).sorted()
    var bars: [Property: [Character]] = [:]
    var eventBars: [String: [Character]] = [:]
    for property in properties { bars[property] = Array(repeating: " ", count: width) }
    for name in eventNames { eventBars[name] = Array(repeating: " ", count: width) }
    func cell(_ seconds: Double) -> Int {
        guard total > 0, seconds.isFinite else { return seconds == .infinity ? width - 1 : 0 }
        return min(width - 1, max(0, Int((seconds / total * Double(width)).rounded(.down))))
    }
    // Segments placed in scene time: the listed ones, and those of each
    // repetition's copies where a copy is wide enough to see (4 cells or
    // more); a denser repetition is drawn as `~` over its window.
    var segments = scene.segments.map { (segment: $0, start: $0.start.seconds, end: $0.end.seconds) }
    var events = scene.events.map(\.time.seconds)
    var eventNamesAt = scene.events.map(\.name)
    for block in scene.blocks {
        let copyWidth = (block.toScene(Instant(block.period), fromCopy: 0, upper: true).seconds - block.start.seconds) / total * Double(width)
        guard copyWidth >= 4, block.body.blocks.isEmpty else {
            let first = cell(block.start.seconds)
            let last = max(first, cell(block.end.seconds))
            for property in block.body.properties {
                for index in first...last { bars[property]?[index] = "~" }
            }
            for event in block.body.events {
                for index in first...last { eventBars[event.name]?[index] = "~" }
            }
            continue
        }
        var copy = 0
        while copy < block.count, copy < width, block.toScene(Instant(.zero), fromCopy: copy, upper: false).seconds < total {
            for segment in block.body.segments {
                segments.append((segment, block.toScene(segment.start, fromCopy: copy, upper: false).seconds,
                                 block.toScene(segment.end, fromCopy: copy, upper: true).seconds))
            }
            for event in block.body.events {
                events.append(block.toScene(event.time, fromCopy: copy, upper: false).seconds)
                eventNamesAt.append(event.name)
            }
            copy += 1
        }
    }
    segments.sort { $0.start < $1.start }
    // Consecutive segments of a property alternate `=` and `#`, so that where
    // one ends and the next begins shows (segments come sorted by start).
    var drawn: [Property: Int] = [:]
    for (segment, start, end) in segments {
        let first = cell(start)
        if segment.isJump {
            bars[segment.property]?[first] = "|"
            continue
        }
        let glyph: Character = drawn[segment.property, default: 0] % 2 == 0 ? "=" : "#"
        drawn[segment.property, default: 0] += 1
        // The last cell the segment reaches into (its end is exclusive of the next cell).
        let endCell = total > 0 ? Int((min(end, total) / total * Double(width)).rounded(.up)) - 1 : 0
        let last = min(width - 1, max(first, endCell))
        for index in first...last where bars[segment.property]?[index] != "|" {
            bars[segment.property]?[index] = glyph
        }
    }
    for (time, name) in zip(events, eventNamesAt) where time <= total {
        eventBars[name]?[cell(time)] = "*"
    }
    let labels = properties.map(\.description) + eventNames.map { "emit " + $0 }
    let nameWidth = labels.map(\.count).max() ?? 0
    var out = ""
    func line(_ label: String, _ bar: [Character]) {
        out += label + String(repeating: " ", count: nameWidth - label.count + 2) + "|" + String(bar) + "|\n"
    }
    for property in properties { line(property.description, bars[property] ?? []) }
    for name in eventNames { line("emit " + name, eventBars[name] ?? []) }
    let startLabel = "0s"
    let endLabel = total > scene.duration.seconds ? "\(formatNumber(total))s …" : "\(scene.duration)s"
    let gap = max(1, width + 2 - startLabel.count - endLabel.count)
    out += String(repeating: " ", count: nameWidth + 2) + startLabel + String(repeating: " ", count: gap) + endLabel + "\n"
    return out
}
