import AnimJSON
import AnimLang
import Animations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How `animc eval` prints a sampled table.
public enum TableFormat: String, Sendable, CaseIterable {
    /// Aligned columns for people: time to 3 decimals, values to 4 (in
    /// scientific notation, `1.2500e+11`, in a column whose numbers reach
    /// 1e9 or stay below 1e-3; colours as `#rrggbb`).
    case table
    /// Comma-separated, lossless: every value in shortest round-trip form.
    case csv
    /// JSON Lines: one object per row, `{"time":0.5,"circle.radius":55}`.
    /// JSON has no infinities or NaN: a value that is not finite is `null`.
    case json

    /// The format named `rawValue` (`--format csv`). Written out: the
    /// synthesized one looks the name up in an array of the cases' names,
    /// whose type's metadata is built at run time, on every start-up.
    public init?(rawValue: String) {
        switch rawValue {
        case "table": self = .table
        case "csv": self = .csv
        case "json": self = .json
        default: return nil
        }
    }
}

/// Writes a sampled table as bytes, row by row, into a caller-owned buffer
/// (the caller flushes it in large chunks). Values are formatted by hand
/// (``Value/write(_:into:)``): no `String(format:)`, no per-number allocation.
///
/// When the animation has events, each row ends with the column (CSV), key
/// (JSON) or last column (table) `events`: the events that fired since the
/// row before, `tick×3 land` (JSON: `["tick×3","land"]`), empty when none.
public struct TableWriter: Sendable {
    public let format: TableFormat
    public let columns: [Property]
    /// Whether rows end with the `events` column.
    public let hasEvents: Bool
    /// Decimal places of the time column in the `table` format.
    public let timeDecimals: Int
    private let names: [[UInt8]]
    private let widths: [Int]
    /// Per column: whether its numbers print in scientific notation.
    private let scientific: [Bool]
    private let timeWidth: Int

    /// `latest` is the largest time the table will show (it sets the width
    /// of the time column); `magnitudes` the scale of each column's numbers
    /// (``CompiledScene/magnitude(of:)``), which sets its width and whether it
    /// is written in scientific notation, so that its cells line up and keep
    /// their precision (none given: fixed point, 10 wide).
    public init(format: TableFormat, columns: [Property], timeDecimals: Int = 3, latest: Time = .zero, hasEvents: Bool = false,
                magnitudes: [Double] = []) {
        self.format = format
        self.columns = columns
        self.hasEvents = hasEvents
        self.timeDecimals = max(0, min(timeDecimals, 9))
        names = columns.map { Array($0.description.utf8) }
        var widths: [Int] = [], scientific: [Bool] = []
        // Widths and notation line up the aligned table alone: CSV and JSON Lines read none of them.
        for (index, name) in names.enumerated() where format == .table {
            let magnitude = magnitudes.indices.contains(index) ? magnitudes[index] : 0
            let tiny = magnitude > 0 && magnitude < 1e-3
            let huge = !(magnitude < TableWriter.largestFixed)
            scientific.append(tiny || huge)
            // The widest cell the column should see: its scale, with room for some overshoot, negative.
            var cell: [UInt8] = []
            if tiny || huge {
                writeScientific(-1, digits: 4, into: &cell)
            } else {
                writeFixed(-min(magnitude * 1.25, TableWriter.largestFixed), decimals: 4, into: &cell)
            }
            widths.append(max(name.count, 10, cell.count))
        }
        self.widths = widths
        self.scientific = scientific
        var cell: [UInt8] = []
        if format == .table { writeFixed(latest.seconds, decimals: self.timeDecimals, into: &cell) }
        timeWidth = max(4, cell.count)
    }

    /// The header line (none for JSON Lines).
    public func writeHeader(into out: inout [UInt8]) {
        switch format {
        case .table:
            pad(Array("time".utf8), to: timeWidth, into: &out)
            for (name, width) in zip(names, widths) {
                out.append(contentsOf: "  ".utf8)
                pad(name, to: width, into: &out)
            }
            if hasEvents { out.append(contentsOf: "  events".utf8) }
            out.append(newline)
        case .csv:
            out.append(contentsOf: "time".utf8)
            for name in names {
                out.append(comma)
                out.append(contentsOf: name)
            }
            if hasEvents { out.append(contentsOf: ",events".utf8) }
            out.append(newline)
        case .json:
            break
        }
    }

    /// One row: the time, then one value per column, then (when the table
    /// has them) the events that fired since the row before.
    public func writeRow(time: Time, values: [Value], events: [EventFiring] = [], into out: inout [UInt8]) {
        writeRow(time: time, values: values, first: 0, stride: 1, count: values.count, events: events, into: &out)
    }

    /// ``writeRow(time:values:events:into:)`` with the row's `count` values
    /// read in place at `values[first + k·stride]` (a block of rows sampled
    /// column by column: no row copied out of it).
    /// `frame` ≥ 0: the row's time is that frame of `frames`, whose text
    /// they write (the same bytes as from `time`, in fewer steps).
    func writeRow(time: Time, values: [Value], first: Int, stride: Int, count: Int, events: [EventFiring],
                  frames: FrameDecimals? = nil, frame: Int64 = -1, into out: inout [UInt8]) {
        switch format {
        case .table:
            var cell: [UInt8] = []
            writeFixed(time.seconds, decimals: timeDecimals, into: &cell)
            pad(cell, to: timeWidth, into: &out)
            for index in 0..<min(count, widths.count) {
                let value = values[first + index * stride], width = widths[index]
                out.append(contentsOf: "  ".utf8)
                cell.removeAll(keepingCapacity: true)
                if case .number(let number) = value,
                   scientific.indices.contains(index) && scientific[index] || !(abs(number) < TableWriter.largestFixed) {
                    // A column of tiny or huge numbers, or a cell beyond what fixed point can line up.
                    writeScientific(number, digits: 4, into: &cell)
                } else {
                    value.write(.display, into: &cell)
                }
                pad(cell, to: width, into: &out)
            }
            if hasEvents, !events.isEmpty {
                out.append(contentsOf: "  ".utf8)
                writeEvents(events, into: &out)
            }
            out.append(newline)
        case .csv:
            if !(frame >= 0 && frames?.write(frame: frame, into: &out) == true) { writeTime(time, into: &out) }
            for index in 0..<count {
                out.append(comma)
                values[first + index * stride].write(.lossless, into: &out)
            }
            if hasEvents {
                out.append(comma)
                writeEvents(events, into: &out)
            }
            out.append(newline)
        case .json:
            out.append(contentsOf: "{\"time\":".utf8)
            if !(frame >= 0 && frames?.write(frame: frame, into: &out) == true) { writeTime(time, into: &out) }
            for index in 0..<min(count, names.count) {
                out.append(contentsOf: ",\"".utf8)
                out.append(contentsOf: names[index])
                out.append(contentsOf: "\":".utf8)
                values[first + index * stride].write(.json, into: &out)
            }
            if hasEvents {
                out.append(contentsOf: ",\"events\":[".utf8)
                for (index, firing) in events.enumerated() {
                    if index > 0 { out.append(comma) }
                    out.append(UInt8(ascii: "\""))
                    writeFiring(firing, into: &out)
                    out.append(UInt8(ascii: "\""))
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(contentsOf: "}\n".utf8)
        }
    }

    /// `tick×3 land`: each name once, `×N` when it fired N ≥ 2 times. (Event
    /// names are plain names: nothing to quote in CSV or escape in JSON.)
    private func writeEvents(_ events: [EventFiring], into out: inout [UInt8]) {
        for (index, firing) in events.enumerated() {
            if index > 0 { out.append(UInt8(ascii: " ")) }
            writeFiring(firing, into: &out)
        }
    }

    private func writeFiring(_ firing: EventFiring, into out: inout [UInt8]) {
        out.append(contentsOf: firing.name.utf8)
        if firing.count >= 2 {
            out.append(contentsOf: "×".utf8)
            writeInteger(Int64(firing.count), into: &out)
        }
    }

    /// What a cancelled animation prints instead of a table: for people, a
    /// sentence; as data, a table with no rows (CSV: the header `time`;
    /// JSON Lines: nothing), so a program reading it finds no frames rather
    /// than a frame it cannot parse.
    public func writeCancelled(binding: String, into out: inout [UInt8]) {
        switch format {
        case .table: out.append(contentsOf: "`\(binding)` is cancelled: it has no frames\n".utf8)
        case .csv: out.append(contentsOf: "time\n".utf8)
        case .json: break
        }
    }

    /// Numbers from here on print in scientific notation in the table.
    static let largestFixed = 1e9

    private let newline = UInt8(ascii: "\n")
    private let comma = UInt8(ascii: ",")

    private func pad(_ cell: [UInt8], to width: Int, into out: inout [UInt8]) {
        if cell.count < width {
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: width - cell.count))
        }
        out.append(contentsOf: cell)
    }

    /// Exact times print as their decimal when it is short, else as the nearest double.
    private func writeTime(_ time: Time, into out: inout [UInt8]) {
        if time.denominator == 1 {
            writeInteger(time.numerator, into: &out)
            return
        }
        let mark = out.count
        if time.writeDecimal(into: &out), out.count - mark <= 18 { return }
        out.removeSubrange(mark...)
        writeShortest(time.seconds, into: &out)
    }
}
