import Animations

/// How `animc eval` prints a sampled table.
public enum TableFormat: String, Sendable, CaseIterable {
    /// Aligned columns for people: time to 3 decimals, values to 4.
    case table
    /// Comma-separated, lossless: every value in shortest round-trip form.
    case csv
    /// JSON Lines: one object per row, `{"time":0.5,"circle.radius":55}`.
    /// JSON has no infinities or NaN: a value that is not finite is `null`.
    case json
}

/// Writes a sampled table as bytes, row by row, into a caller-owned buffer
/// (the caller flushes it in large chunks). Numbers are formatted by hand:
/// no `String(format:)`, no per-number allocation.
public struct TableWriter: Sendable {
    public let format: TableFormat
    public let columns: [Property]
    /// Decimal places of the time column in the `table` format.
    public let timeDecimals: Int
    private let names: [[UInt8]]
    private let widths: [Int]
    private let timeWidth: Int

    /// `latest` is the largest time the table will show (it sets the width
    /// of the time column).
    public init(format: TableFormat, columns: [Property], timeDecimals: Int = 3, latest: Time = .zero) {
        self.format = format
        self.columns = columns
        self.timeDecimals = max(0, min(timeDecimals, 9))
        names = columns.map { Array($0.description.utf8) }
        widths = names.map { max($0.count, 10) }
        var cell: [UInt8] = []
        writeFixed(latest.seconds, decimals: self.timeDecimals, into: &cell)
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
            out.append(newline)
        case .csv:
            out.append(contentsOf: "time".utf8)
            for name in names {
                out.append(comma)
                out.append(contentsOf: name)
            }
            out.append(newline)
        case .json:
            break
        }
    }

    /// One row: the time, then one value per column.
    public func writeRow(time: Time, values: [Double], into out: inout [UInt8]) {
        switch format {
        case .table:
            var cell: [UInt8] = []
            writeFixed(time.seconds, decimals: timeDecimals, into: &cell)
            pad(cell, to: timeWidth, into: &out)
            for (value, width) in zip(values, widths) {
                out.append(contentsOf: "  ".utf8)
                cell.removeAll(keepingCapacity: true)
                writeFixed(value, decimals: 4, into: &cell)
                pad(cell, to: width, into: &out)
            }
            out.append(newline)
        case .csv:
            writeTime(time, into: &out)
            for value in values {
                out.append(comma)
                writeShortest(value, into: &out)
            }
            out.append(newline)
        case .json:
            out.append(contentsOf: "{\"time\":".utf8)
            writeTime(time, into: &out)
            for (name, value) in zip(names, values) {
                out.append(contentsOf: ",\"".utf8)
                out.append(contentsOf: name)
                out.append(contentsOf: "\":".utf8)
                if value.isFinite {
                    writeShortest(value, into: &out)
                } else {
                    out.append(contentsOf: "null".utf8)
                }
            }
            out.append(contentsOf: "}\n".utf8)
        }
    }

    /// What a cancelled animation prints instead of a table.
    public func writeCancelled(binding: String, into out: inout [UInt8]) {
        switch format {
        case .table: out.append(contentsOf: "`\(binding)` is cancelled: it has no frames\n".utf8)
        case .csv: out.append(contentsOf: "cancelled\n".utf8)
        case .json: out.append(contentsOf: "{\"cancelled\":true}\n".utf8)
        }
    }

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
        } else if let decimal = time.decimalDescription, decimal.utf8.count <= 18 {
            out.append(contentsOf: decimal.utf8)
        } else {
            writeShortest(time.seconds, into: &out)
        }
    }
}

/// Appends the shortest text that reads back as `value`, without a trailing
/// `.0` for whole numbers (`100`, `0.1`, `6.283185307179586`, `1e-07`).
public func writeShortest(_ value: Double, into out: inout [UInt8]) {
    if value == 0 {
        out.append(UInt8(ascii: "0"))
        return
    }
    if value == value.rounded(), abs(value) < 1e15 {
        writeInteger(Int64(value), into: &out)
        return
    }
    out.append(contentsOf: value.description.utf8)
}

/// Appends `value` rounded to `decimals` places (`-0` prints as `0`).
public func writeFixed(_ value: Double, decimals: Int, into out: inout [UInt8]) {
    guard value.isFinite else {
        out.append(contentsOf: value.description.utf8)
        return
    }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else {
        out.append(contentsOf: value.description.utf8)
        return
    }
    let units = Int64(scaled)
    let divisor = Int64(scale)
    if value < 0, units != 0 { out.append(UInt8(ascii: "-")) }
    writeInteger(units / divisor, into: &out)
    guard decimals > 0 else { return }
    out.append(UInt8(ascii: "."))
    var fraction = units % divisor
    var digits = [UInt8](repeating: UInt8(ascii: "0"), count: decimals)
    var index = decimals - 1
    while index >= 0 {
        digits[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
        fraction /= 10
        index -= 1
    }
    out.append(contentsOf: digits)
}

/// Appends a decimal integer.
public func writeInteger(_ value: Int64, into out: inout [UInt8]) {
    if value == 0 {
        out.append(UInt8(ascii: "0"))
        return
    }
    var magnitude = value.magnitude
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                 UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    withUnsafeMutableBytes(of: &digits) { buffer in
        while magnitude > 0 {
            buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            count += 1
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        for index in stride(from: count - 1, through: 0, by: -1) {
            out.append(buffer[index])
        }
    }
}

/// Samples `scene` at `times` and writes the whole table through `writer`,
/// handing the buffer to `flush` whenever it holds 64 KiB (and once at the end).
public func tabulate<Times: Sequence<Time>>(_ scene: CompiledScene, initial: [Property: Double], at times: Times,
                                            format: TableFormat, timeDecimals: Int = 3,
                                            flush: (inout [UInt8]) -> Void) {
    let sampler = scene.sampler(initial: initial)
    // Frame times end at the duration; explicit times may go past it.
    let latest = times is FrameTimes ? scene.duration : max(scene.duration, times.max() ?? .zero)
    let writer = TableWriter(format: format, columns: sampler.columns, timeDecimals: timeDecimals, latest: latest)
    var out: [UInt8] = []
    out.reserveCapacity(1 << 16)
    writer.writeHeader(into: &out)
    var row: [Double] = []
    for t in times {
        sampler.sample(at: t, into: &row)
        writer.writeRow(time: t, values: row, into: &out)
        if out.count >= 1 << 16 { flush(&out) }
    }
    flush(&out)
}

/// The table of a whole file as text, as `animc eval` prints it: for tests,
/// examples and tools that want a string. Errors come back as rendered diagnostics.
public func evaluateToText(_ file: SourceFile, binding: String? = nil, fps: Int64 = 10, at times: [Time]? = nil,
                           format: TableFormat = .table) -> (output: String, diagnostics: String, succeeded: Bool) {
    let outcome = run(file, binding: binding)
    let diagnostics = render(outcome.diagnostics, in: file)
    guard !outcome.hasErrors, let target = outcome.target, let scene = outcome.scene else {
        return ("", diagnostics, false)
    }
    let compiled: CompiledScene?
    do {
        compiled = try scene.compile()
    } catch {
        return ("", diagnostics + render(samplingError(error, binding: target), in: file), false)
    }
    var bytes: [UInt8] = []
    guard let compiled else {
        TableWriter(format: format, columns: []).writeCancelled(binding: target.name, into: &bytes)
        return (String(decoding: bytes, as: UTF8.self), diagnostics, true)
    }
    let flush: (inout [UInt8]) -> Void = { chunk in
        bytes.append(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
    }
    if let times {
        tabulate(compiled, initial: outcome.initial, at: times, format: format, flush: flush)
    } else {
        tabulate(compiled, initial: outcome.initial, at: FrameTimes(duration: compiled.duration, fps: fps), format: format, flush: flush)
    }
    return (String(decoding: bytes, as: UTF8.self), diagnostics, true)
}
