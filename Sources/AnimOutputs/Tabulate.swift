import AnimJSON
import AnimLang
import Animations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Samples `scene` at `times` and writes the whole table through `writer`,
/// handing the buffer to `flush` whenever it holds 64 KiB (and once at the end).
/// When the scene has events, each row lists those that fired since the
/// row before (the first row: at or before its time).
///
/// A large table (many cells: wide, long or both) is sampled and written on
/// two threads: rows are taken two chunks at a time, the first written here
/// straight into the output, the second meanwhile on another thread into a
/// buffer of its own, flushed after the first, so the bytes are the same as
/// on one thread. A chunk is about 32k cells and at most half the table, so
/// a long table of one column is split in two halves. Frame times are
/// computed by row number (no list of them is kept).
public func tabulate<Times: Sequence<Time>>(_ scene: CompiledScene, initial: [Property: Value], at times: Times,
                                            format: TableFormat, timeDecimals: Int = 3, latest: Time? = nil,
                                            flush: (inout [UInt8]) -> Void) {
    let sampler = scene.sampler(initial: initial)
    let rowTimes: RowTimes
    if let frames = times as? FrameTimes, let count = frames.count {
        rowTimes = .frames(frames, count: count)
    } else {
        rowTimes = .list(times as? [Time] ?? Array(times))
    }
    // Frame times end where they say; explicit times may go past the duration.
    let latest = latest ?? {
        if case .list(let list) = rowTimes { return max(scene.duration, list.max() ?? .zero) }
        return scene.duration
    }()
    let magnitudes = format == .table ? sampler.columns.map { column in
        max(scene.magnitude(of: column), initial[column]?.number.map(abs) ?? 0)
    } : []
    let writer = TableWriter(format: format, columns: sampler.columns, timeDecimals: timeDecimals, latest: latest,
                             hasEvents: scene.hasEvents, magnitudes: magnitudes)
    let frameDecimals: FrameDecimals?
    if case .frames(let frames, let count) = rowTimes { frameDecimals = FrameDecimals(fps: frames.fps, rows: count) } else { frameDecimals = nil }
    let rows = RowWriter(scene: scene, sampler: sampler, writer: writer, times: rowTimes, frameDecimals: frameDecimals)
    var out: [UInt8] = []
    out.reserveCapacity(1 << 16)
    writer.writeHeader(into: &out)
    let count = rowTimes.count, block = RowWriter.blockSize
    let columns = max(1, sampler.columns.count)
    let cells = columns.multipliedReportingOverflow(by: count)
    guard cells.overflow || cells.partialValue >= RowWriter.parallelCells, processorCount() >= 2 else {
        rows.write(0..<count, into: &out, flush: flush)
        flush(&out)
        return
    }
    // Rows per chunk: about 32k cells (whole blocks of 16 rows, one at
    // least), so the other thread's buffer is a few hundred KB and its start
    // costs little against it; at most half the rows, so both threads get work.
    let chunkRows = min(max(block, (1 << 15) / columns / block * block), ((count + 1) / 2 + block - 1) / block * block)
    let other = ChunkBuffer()
    var start = 0
    while start < count {
        let middle = min(start + chunkRows, count), end = min(middle + chunkRows, count)
        guard middle < end else {
            rows.write(start..<middle, into: &out, flush: flush)
            break
        }
        // Room for the other chunk's bytes, guessed generously (untouched capacity costs no page), 4 MB at most.
        let guess = (end - middle).multipliedReportingOverflow(by: min(columns, 1 << 20) * 32 + 32)
        other.bytes.reserveCapacity(guess.overflow ? 1 << 22 : min(guess.partialValue, 1 << 22))
        let first = start..<middle, second = middle..<end
        bothAtOnce({ rows.write(second, into: &other.bytes, flush: { _ in }) },
                   { rows.write(first, into: &out, flush: flush) })
        if out.count + other.bytes.count < 1 << 16 {
            out.append(contentsOf: other.bytes)
        } else {
            if !out.isEmpty { flush(&out) }
            flush(&other.bytes)
        }
        other.bytes.removeAll(keepingCapacity: true)
        start = end
    }
    flush(&out)
}

/// The times of a table's rows, by row number.
private enum RowTimes: @unchecked Sendable {
    /// Frame `k` at `k / fps`, the last row at the duration.
    case frames(FrameTimes, count: Int)
    case list([Time])

    var count: Int {
        switch self {
        case .frames(_, let count): return count
        case .list(let list): return list.count
        }
    }

    /// The time of row `row` (`0 ≤ row < count`).
    @inline(__always)
    subscript(row: Int) -> Time {
        switch self {
        case .frames(let frames, let count):
            // As ``FrameTimes``' iterator: frames while before the duration, then the duration.
            guard row < count - 1 else { return frames.duration }
            return Time(numerator: Int64(row), denominator: frames.fps) ?? frames.duration
        case .list(let list):
            return list[row]
        }
    }
}

/// Samples rows and writes them: the work of ``tabulate``, for any run of rows.
private struct RowWriter: @unchecked Sendable {
    /// Rows sampled at once, column by column (see ``RowSampler/sample(columnsAt:into:)``).
    static let blockSize = 16
    /// From this many cells (rows × columns), ``tabulate`` uses two threads:
    /// below it, the other thread's start and join cost about what it
    /// saves; wide tables (many columns) gain from it (bench/ has the figures).
    static let parallelCells = 4096

    let scene: CompiledScene
    let sampler: RowSampler
    let writer: TableWriter
    let times: RowTimes
    /// For a frame table: its time column's text (see ``FrameDecimals``).
    let frameDecimals: FrameDecimals?

    /// Writes rows `range` (for the events, the row before the first is
    /// the one before it in the table), calling `flush` whenever `out`
    /// holds 64 KiB.
    func write(_ range: Range<Int>, into out: inout [UInt8], flush: (inout [UInt8]) -> Void) {
        let hasEvents = writer.hasEvents
        var previous = range.lowerBound > 0 ? Instant(times[range.lowerBound - 1]) : nil
        var values: [Value] = []
        let columns = sampler.columns.count
        var start = range.lowerBound
        // The block's instants, each made from the row's time (so exact: `exact` gives that time
        // back), in a buffer on the stack: an array of them (or of their times) would be one more
        // array type whose metadata is built at run time, on every start-up. (`Instant` is a
        // trivial type: nothing to deinitialize.)
        withUnsafeTemporaryAllocation(of: Instant.self, capacity: RowWriter.blockSize) { buffer in
            while start < range.upperBound {
                let end = min(start + RowWriter.blockSize, range.upperBound)
                for index in start..<end {
                    // Frame rows but the last (the duration) from the frame decimals' residues: no gcd per row.
                    let t = if let frameDecimals, index < times.count - 1 { frameDecimals.time(ofFrame: Int64(index)) } else { times[index] }
                    // (0 ≤ index − start < end − start ≤ blockSize, the buffer's count.)
                    buffer.initializeElement(at: index - start, to: Instant(t))
                }
                let instants = UnsafeBufferPointer(rebasing: buffer[..<(end - start)])
                sampler.sample(columnsAt: instants, into: &values)
                for offset in instants.indices {
                    let now = instants[offset]
                    let t = now.exact ?? .zero   // (always exact: see above)
                    let events = hasEvents ? scene.events(after: previous, through: now) : []
                    // Column `c` of this row is `values[c·k + offset]` for a block of `k` rows.
                    // Frame rows but the last (the duration) are frame `row` of the frame decimals.
                    let row = start + offset
                    writer.writeRow(time: t, values: values, first: offset, stride: instants.count, count: columns, events: events,
                                    frames: frameDecimals, frame: row < times.count - 1 ? Int64(row) : -1, into: &out)
                    previous = now
                    if out.count >= 1 << 16 { flush(&out) }
                }
                start = end
            }
        }
    }
}

/// The time column's text of frame tables, once per frame of a second: frame
/// `k` at `k / fps` prints as its whole seconds `k / fps` (rounded down) and
/// the decimals of `(k mod fps) / fps` (`.25`; none for a whole second),
/// which are the bytes ``TableWriter``'s time of `k / fps` has when it is a
/// short decimal (and nothing is written when it is not: that time is
/// written as usual). No reduction, no decimal expansion per row.
struct FrameDecimals: Sendable {
    let fps: Int64
    /// The decimals of each residue, one after another; `offsets[r]..<offsets[r + 1]`.
    private let bytes: [UInt8]
    private let offsets: [Int]
    /// Per residue: the whole seconds below which the text is short (18
    /// bytes at most, as ``TableWriter`` requires), 0 when `r / fps` has no
    /// finite decimal (the time is then written as usual).
    /// (The tables below hold `Int`s, 64 bits as the `Int64`s they stand
    /// for: an array of `Int64` would be one more array type whose metadata
    /// is built at run time, on every start-up.)
    private let limits: [Int]
    /// Per residue r: `r / fps` in lowest terms, numerator and denominator
    /// (see ``time(ofFrame:)``).
    private let residueNumerators: [Int]
    private let residueDenominators: [Int]

    /// Frame decimals for `fps` frames a second, when worth it: a table of
    /// at least ten seconds of rows at up to 1,000 fps. (Computing the
    /// residues costs more than a row saves from them, so they pay for
    /// themselves only over that many rows; bench/ has the figures.)
    init?(fps: Int64, rows: Int) {
        guard fps >= 2, fps <= 1_000, rows >= 10 * Int(fps) else { return nil }
        self.fps = fps
        var bytes: [UInt8] = [], offsets = [0], limits: [Int] = []
        var numerators: [Int] = [], denominators: [Int] = []
        var text: [UInt8] = []
        for residue in 0..<fps {
            text.removeAll(keepingCapacity: true)
            // (0 ≤ residue < fps ≤ 1,000: always a time.)
            let time = Time(numerator: residue, denominator: fps) ?? .zero
            numerators.append(Int(time.numerator))
            denominators.append(Int(time.denominator))
            if residue == 0 {
                limits.append(Int.max)   // a whole second: an integer, whatever its length
            } else if time.writeDecimal(into: &text),
                      text.count >= 3, text[0] == UInt8(ascii: "0"), text[1] == UInt8(ascii: ".") {
                // `0.25` → `.25`: whole seconds q print in d digits, d + count ≤ 18 ⇔ q < 10^(18 − count).
                let count = text.count - 1
                var limit = 1
                for _ in 0..<max(0, 18 - count) { limit &*= 10 }   // count ≥ 2: at most 10^16
                limits.append(count <= 17 ? limit : 0)
                bytes.append(contentsOf: text[1...])
            } else {
                limits.append(0)
            }
            offsets.append(bytes.count)
        }
        self.bytes = bytes
        self.offsets = offsets
        self.limits = limits
        residueNumerators = numerators
        residueDenominators = denominators
    }

    /// `frame / fps` (`frame ≥ 0`) in lowest terms without a gcd: with
    /// `frame = q·fps + r` and `r / fps = n / d` in lowest terms, it is
    /// `(q·d + n) / d`, and gcd(q·d + n, d) = gcd(n, d) = 1.
    @inline(__always)
    func time(ofFrame frame: Int64) -> Time {
        let whole = frame / fps, residue = Int(frame % fps)
        let d = Int64(residueDenominators[residue])
        // (q·d + n ≤ q·fps + r = frame, as d divides fps and n = r·d / fps: no overflow.)
        return Time(unchecked: whole &* d &+ Int64(residueNumerators[residue]), d)
    }

    /// Writes the time of frame `frame` (≥ 0) and returns true, or writes
    /// nothing and returns false when it is not a short decimal.
    @inline(__always)
    func write(frame: Int64, into out: inout [UInt8]) -> Bool {
        let whole = frame / fps, residue = Int(frame % fps)
        guard frame >= 0, whole < Int64(limits[residue]) else { return false }
        if whole < 1000 {
            // Most rows: byte by byte, cheaper than a buffer appended in one piece.
            if whole >= 100 { out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole / 100)) }
            if whole >= 10 { out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole / 10 % 10)) }
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole % 10))
        } else {
            writeInteger(whole, into: &out)
        }
        for index in offsets[residue]..<offsets[residue + 1] { out.append(bytes[index]) }
        return true
    }
}

/// A byte buffer one thread fills while another waits for it.
private final class ChunkBuffer: @unchecked Sendable {
    var bytes: [UInt8] = []
}

/// Which rows `animc eval` prints, and how.
public struct TableRequest: Sendable {
    public var format: TableFormat
    /// Rows at `0, 1/fps, 2/fps, …` and the end, unless ``times`` is given.
    public var fps: Int64
    /// Exactly these times instead.
    public var times: [Time]?
    /// Frame rows up to this time instead of the duration (needed for an
    /// animation that repeats forever; past the end every property holds).
    public var until: Time?
    /// Decimal places of the time column in the `table` format.
    public var timeDecimals: Int
    /// The most rows a frame table may have.
    public var maximumRows: Int

    public init(format: TableFormat, fps: Int64 = 10, times: [Time]? = nil, until: Time? = nil, timeDecimals: Int = 3,
                maximumRows: Int = TableRequest.defaultMaximumRows) {
        self.format = format
        self.fps = fps
        self.times = times
        self.until = until
        self.timeDecimals = timeDecimals
        self.maximumRows = maximumRows
    }

    /// The most rows `eval` prints by default; beyond this, narrow the table with `--at` or `--fps`.
    public static let defaultMaximumRows = 1_000_000
}

/// Samples the evaluated binding of `outcome` as `request` asks and hands
/// the bytes to `flush`: what `animc eval` prints on standard output. A
/// cancelled animation says so instead of printing a table. Returns the
/// errors found while sampling (the scene cannot be compiled, or the table
/// would have too many rows), located at the binding; nothing is written then.
/// Precondition: `outcome` has no errors (it has a target and a scene).
public func writeTable(_ outcome: Outcome, _ request: TableRequest, flush: (inout [UInt8]) -> Void) -> [Diagnostic] {
    guard let target = outcome.target, outcome.scene != nil else { return [] }
    let compiled: CompiledScene?
    do {
        compiled = try outcome.compiledScene()
    } catch {
        return [samplingError(error, binding: target)]
    }
    guard let compiled else {
        var bytes: [UInt8] = []
        TableWriter(format: request.format, columns: []).writeCancelled(binding: target.name, into: &bytes)
        flush(&bytes)
        return []
    }
    if let times = request.times {
        tabulate(compiled, initial: outcome.initial, at: times, format: request.format, timeDecimals: request.timeDecimals, flush: flush)
        return []
    }
    let range = target.nameRange == .none ? target.range : target.nameRange
    if compiled.isInfinite, request.until == nil {
        return [Diagnostic(.needsUntil(binding: target.name), at: range,
                           hint: "print its first 5 seconds with --until 5s, or chosen instants with --at")]
    }
    let end = request.until ?? compiled.duration
    let frames = FrameTimes(duration: end, fps: request.fps)
    guard let count = frames.count, count <= request.maximumRows else {
        return [Diagnostic(.tooManyRows(binding: target.name, duration: end, fps: request.fps, limit: request.maximumRows),
                           at: range, hint: "sample fewer rows with a lower --fps, or exactly the times you need with --at")]
    }
    tabulate(compiled, initial: outcome.initial, at: frames, format: request.format, timeDecimals: request.timeDecimals,
             latest: end, flush: flush)
    return []
}

/// The table of a whole file as text, as `animc eval` prints it: for tests,
/// examples and tools that want a string. Errors come back as rendered diagnostics.
public func evaluateToText(_ file: SourceFile, binding: String? = nil, fps: Int64 = 10, at times: [Time]? = nil,
                           until: Time? = nil, format: TableFormat = .table) -> (output: String, diagnostics: String, succeeded: Bool) {
    let outcome = run(file, binding: binding)
    var diagnostics = render(outcome.diagnostics, in: file)
    guard !outcome.hasErrors, outcome.scene != nil else { return ("", diagnostics, false) }
    var bytes: [UInt8] = []
    let errors = writeTable(outcome, TableRequest(format: format, fps: fps, times: times, until: until)) { chunk in
        bytes.append(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
    }
    diagnostics += render(errors, in: file)
    return (String(decoding: bytes, as: UTF8.self), diagnostics, errors.isEmpty)
}

// MARK: - Two threads

/// The processors online (1 when unknown).
func processorCount() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Runs `first` on a new thread and `second` on this one, and returns when
/// both are done (both on this thread, one after the other, when no thread
/// can be made). The closures must not touch the same mutable state.
func bothAtOnce(_ first: () -> Void, _ second: () -> Void) {
    withoutActuallyEscaping(first) { first in
        let box = Unmanaged.passRetained(ThreadBody(first))
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let body = Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue()
            body.run()
            return nil
        }, box.toOpaque())
        if started != 0 {
            box.release()
            first()
            second()
            return
        }
        second()
        pthread_join(thread, nil)
    }
}

/// A closure handed to a new thread.
private final class ThreadBody: @unchecked Sendable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
