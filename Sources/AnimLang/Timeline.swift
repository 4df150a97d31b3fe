import Animations

/// The choreography of a compiled scene as text: every segment on one line
/// (property, start, end, from, to, easing), sorted by start, then a Gantt
/// chart with one bar per property over the whole duration.
///
/// ```
/// property        start  end  from  to  easing
/// circle.opacity  0      1    0     1   linear
/// circle.radius   1      2    100   10  ease-in-out
///
/// circle.opacity  |====================                                        |
/// circle.radius   |                    ====================                    |
///                 0s                                                         3s
/// ```
///
/// A segment that plays backwards shows its values in the order it plays
/// them, with the easing it plays with (`mirror(E)` when `E` has no named
/// mirror). Repetitions kept symbolic are listed once, with one copy's segments.
public func timelineText(_ scene: CompiledScene, width: Int = 60) -> String {
    var rows: [[String]] = [["property", "start", "end", "from", "to", "easing"]]
    for segment in scene.segments {
        rows.append(row(for: segment, offset: nil))
    }
    var text = rows.count > 1 || scene.blocks.isEmpty ? alignedColumns(rows) : ""
    for block in scene.blocks {
        text += "\(text.isEmpty ? "" : "\n")repeated \(block.count) times, every \(block.period)s, from \(block.start)s to \(block.end)s; one copy:\n"
        var blockRows: [[String]] = [["property", "start", "end", "from", "to", "easing"]]
        for segment in block.body.segments { blockRows.append(row(for: segment, offset: nil)) }
        text += alignedColumns(blockRows).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
    }
    text += "\n" + gantt(scene, width: max(10, width))
    return text
}

private func row(for segment: Segment, offset: Time?) -> [String] {
    let easing = EasingNames.spelling(of: segment.isForward ? segment.easing : segment.easing.mirrored)
    return [segment.property.description, segment.start.description, segment.end.description,
            segment.startValue.description, segment.endValue.description, easing]
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

/// One bar per property: `=` where a segment is active, `|` for an
/// instantaneous jump, `~` over a symbolic repetition.
private func gantt(_ scene: CompiledScene, width: Int) -> String {
    let total = scene.duration.seconds
    var properties = scene.properties
    for block in scene.blocks { properties.append(contentsOf: block.body.properties) }
    properties = Array(Set(properties)).sorted()
    var bars: [Property: [Character]] = [:]
    for property in properties { bars[property] = Array(repeating: " ", count: width) }
    func cell(_ seconds: Double) -> Int {
        guard total > 0 else { return 0 }
        return min(width - 1, max(0, Int((seconds / total * Double(width)).rounded(.down))))
    }
    for block in scene.blocks {
        for property in block.body.properties {
            let first = cell(block.start.seconds)
            for index in first...max(first, cell(block.end.seconds)) { bars[property]?[index] = "~" }
        }
    }
    for segment in scene.segments {
        let first = cell(segment.start.seconds)
        if segment.isJump {
            bars[segment.property]?[first] = "|"
            continue
        }
        // The last cell the segment reaches into (its end is exclusive of the next cell).
        let endCell = total > 0 ? Int((segment.end.seconds / total * Double(width)).rounded(.up)) - 1 : 0
        let last = min(width - 1, max(first, endCell))
        for index in first...last where bars[segment.property]?[index] != "|" {
            bars[segment.property]?[index] = "="
        }
    }
    let nameWidth = properties.map { $0.description.count }.max() ?? 0
    var out = ""
    for property in properties {
        let name = property.description
        out += name + String(repeating: " ", count: nameWidth - name.count + 2) + "|" + String(bars[property] ?? []) + "|\n"
    }
    let startLabel = "0s", endLabel = "\(scene.duration)s"
    let gap = max(1, width + 2 - startLabel.count - endLabel.count)
    out += String(repeating: " ", count: nameWidth + 2) + startLabel + String(repeating: " ", count: gap) + endLabel + "\n"
    return out
}
