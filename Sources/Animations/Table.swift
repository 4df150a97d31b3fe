/// Samples every column of a compiled scene at chosen times, one row at a time
/// (rows are produced on demand, so a long table needs no memory for itself).
///
/// Columns are every property some segment animates plus every property with
/// a declared initial value, sorted by `view.property`.
///
/// ```swift
/// let sampler = compiled.sampler(initial: [Property(view: "ball", name: "radius"): .number(20)])
/// var row: [Value] = []
/// for t in FrameTimes(duration: compiled.duration, fps: 10) {
///     sampler.sample(at: t, into: &row)
/// }
/// ```
public struct RowSampler: Sendable {
    /// The columns, sorted.
    public let columns: [Property]
    private let tracks: [Track?]
    /// What each column shows before anything starts: its declared initial
    /// value, else its earliest segments' start value (sampling rule 3).
    private let before: [Value]

    init(scene: CompiledScene, initial: [Property: Value]) {
        // A column exists because a declaration or a segment names it, so one of the two gives its value before.
        // Three arrays filled side by side: an array of tuples would build its type at run time, on every start-up.
        var columns: [Property] = [], tracks: [Track?] = [], before: [Value] = []
        // The scene's properties are sorted and distinct (what ``CompiledScene/track(for:)``
        // searches): only declared properties without a track are merged in (no set, no sort, most often).
        let declaredOnly = initial.isEmpty ? [] : initial.keys.filter { scene.track(for: $0) == nil }
        for property in declaredOnly.isEmpty ? scene.properties : (scene.properties + declaredOnly).sorted() {
            let track = scene.track(for: property)
            guard let value = (initial.isEmpty ? nil : initial[property]) ?? track?.first?.values.mean else { continue }
            columns.append(property)
            tracks.append(track)
            before.append(value)
        }
        self.columns = columns
        self.tracks = tracks
        self.before = before
    }

    /// Replaces `row` with the value of every column at `t`.
    public func sample(at t: Time, into row: inout [Value]) {
        sample(at: Instant(t), into: &row)
    }

    /// Replaces `row` with the value of every column at `t`.
    public func sample(at t: Instant, into row: inout [Value]) {
        withUnsafePointer(to: t) { sample(columnsAt: UnsafeBufferPointer(start: $0, count: 1), into: &row) }
    }

    /// Replaces `values` with every column's value at each of `times`,
    /// column after column: column `c` at `times[r]` is `values[c·k + r]`
    /// for `k` times. Sampling a few rows at once this way reads each
    /// column's segments once per block instead of once per row, so a wide
    /// table's segments stay in cache (``tabulate`` samples 16 rows at a time).
    ///
    /// An array, not any collection: called from another module, a generic
    /// one would read the times through their collection's witness table
    /// and build the array type's metadata at run time, on every start-up.
    public func sample(columnsAt times: [Instant], into values: inout [Value]) {
        times.withUnsafeBufferPointer { sample(columnsAt: $0, into: &values) }
    }

    /// ``sample(columnsAt:into:)`` at the times in a buffer (``tabulate``'s
    /// block of rows, on the stack: no array type's metadata built at run time).
    public func sample(columnsAt times: UnsafeBufferPointer<Instant>, into values: inout [Value]) {
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(columns.count * times.count)
        for index in columns.indices {
            let track = tracks[index], before = before[index]
            guard let track else {
                for _ in times { values.append(before) }
                continue
            }
            var hint = 0
            for t in times { values.append(track.value(at: t, before: before, hint: &hint)) }
        }
    }
}

extension CompiledScene {
    /// A row sampler over this scene's properties and the declared ones.
    public func sampler(initial: [Property: Value] = [:]) -> RowSampler {
        RowSampler(scene: self, initial: initial)
    }
}

/// The sample times of a table: `0, 1/fps, 2/fps, …` while below `duration`,
/// then exactly `duration` (so the last row is always the end).
public struct FrameTimes: Sequence, Sendable {
    public let duration: Time
    public let fps: Int64

    /// `fps` must be positive.
    public init(duration: Time, fps: Int64) {
        self.duration = duration
        self.fps = Swift.max(1, fps)
    }

    /// How many rows: ⌈D·fps⌉ + 1 (or ⌊D·fps⌋ + 1 when `D` falls on a frame); `nil` on overflow.
    public var count: Int? {
        guard let frames = try? duration.multiplied(by: fps) else { return nil }
        let whole = frames.floorQuotient(dividingBy: .one)
        let rows = whole + (frames.denominator == 1 ? 1 : 2)
        return Int(exactly: rows)
    }

    public struct Iterator: IteratorProtocol {
        let duration: Time
        let fps: Int64
        var frame: Int64 = 0
        var done = false

        public mutating func next() -> Time? {
            guard !done else { return nil }
            if let t = Time(numerator: frame, denominator: fps), t < duration {
                frame += 1
                return t
            }
            done = true
            return duration
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(duration: duration, fps: fps)
    }
}
