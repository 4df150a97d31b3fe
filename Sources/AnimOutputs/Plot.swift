import AnimLang
import Animations

/// A still picture of an animation (`animc plot`): one panel per property,
/// in the order `animc eval` prints its columns, over one shared time axis
/// in seconds, written as a self-contained SVG (``svg()``).
///
/// ```swift
/// let outcome = run(SourceFile(name: "jumps.anim", text: source))
/// let (plot, diagnostics) = makePlot(outcome, source: "jumps.anim")
/// plot?.panels.map(\.property.description)   // ["light.level"]
/// let picture = plot?.svg()                   // "<?xml version=…"
/// ```
///
/// * A **number** is drawn as its value over time, scaled to the least and
///   greatest value it takes (written on the panel's left).
/// * A **colour** is a strip: a gradient whose stops are the colours sampled.
/// * A **point** (`move v from (0, 0) to (100, 50)`) is its two number
///   properties `v.x` and `v.y`: two panels, as `animc eval` shows two columns.
/// * Each panel marks its property's segment boundaries with dashed lines;
///   events are orange markers labelled with their names (several at one
///   instant share one label: `land, tick`; `tick×3` when one marker stands
///   for several firings closer together than the picture can show).
///
/// **Samples.** Every value comes from the sampler that `animc eval` uses
/// (``CompiledScene/value(of:at:initial:)``), at a grid of half-pixel steps,
/// at every breakpoint of the property exactly (and a hair, 1e-9 of the
/// span, on each side, so a jump is a vertical line), at every jump of a
/// `steps` easing exactly, and between two samples whose values differ by
/// more than the picture resolves, halving the interval (so jumps inside a
/// warped clock or a repetition are found too). Where one pixel column holds
/// more samples than the picture can show, it keeps its first, last, least
/// and greatest (and every sample at a jump).
public struct Plot: Sendable {
    /// A value of a property at one instant.
    public struct Sample: Sendable, Equatable {
        public let time: Instant
        public let value: Value

        public init(time: Instant, value: Value) {
            self.time = time
            self.value = value
        }
    }

    /// One property's panel.
    public struct Panel: Sendable {
        public let property: Property
        /// The property's name with what its view is drawn from (`dot.x (at 120)`, ``Drawing``).
        public var label: String { Drawing.label(of: property, placement: placement) }
        /// Where its view stands, when the file places it (`at`, `origin`).
        public var placement: Placement?
        public let kind: Value.Kind
        /// Sorted by time, from 0 to the plot's ``Plot/end``.
        public let samples: [Sample]
        /// Where a segment of this property starts or ends, strictly inside the plotted span.
        public let boundaries: [Instant]
        /// The least and greatest finite number among the samples; `nil` for colours (and for none).
        public let range: ClosedRange<Double>?
    }

    /// An event marker: where, and the names that fire there.
    public struct Marker: Sendable, Equatable {
        public let time: Instant
        /// `land`, `land, tick`, `tick×3`.
        public let label: String
    }

    public let binding: String
    /// The file it came from, for the title.
    public let source: String
    /// The plotted span is `[0, end]`: the duration, or `--until`.
    public let end: Time
    /// The animation's own duration (for one that repeats forever, where its finite part ends).
    public let duration: Time
    public let isInfinite: Bool
    /// A cancelled animation has nothing to plot: the picture says so.
    public let isCancelled: Bool
    public let panels: [Panel]
    public let markers: [Marker]

    /// The width of the time axis, in pixels (one sample column each).
    public static let plotWidth = 880
}

/// The plot of the evaluated binding of `outcome` up to its end, or to
/// `until` (which an animation that repeats forever needs: without it,
/// the `needs-until` error, as for `animc eval`). Errors found while
/// compiling are located at the binding; `nil` then.
/// Precondition: `outcome` has no errors.
public func makePlot(_ outcome: Outcome, source: String = "", until: Time? = nil) -> (Plot?, [Diagnostic]) {
    switch exportSubject(outcome) {
    case nil:
        return (nil, [])
    case .failed(let error)?:
        return (nil, [error])
    case .cancelled(let binding, _, _)?:
        return (Plot(binding: binding, source: source, end: .zero, duration: .zero, isInfinite: false, isCancelled: true,
                     panels: [], markers: []), [])
    case .model(let model)?:
        if model.scene.isInfinite, until == nil {
            return (nil, [Diagnostic(.plotNeedsUntil(binding: model.binding), at: model.range,
                                     hint: "plot its first 5 seconds with --until 5s")])
        }
        return (Plot.make(model, source: source, until: until), [])
    }
}

extension Plot {
    /// The plot of a compiled scene over `[0, until]` (default: its
    /// duration; a negative `until` plots the instant 0). `initial` holds
    /// the declared initial values, which add their properties as columns.
    public static func make(_ scene: CompiledScene, binding: String, source: String = "", initial: [Property: Value] = [:],
                            until: Time? = nil) -> Plot {
        make(ExportModel(scene, binding: binding, initial: initial), source: source, until: until)
    }

    static func make(_ model: ExportModel, source: String, until: Time?) -> Plot {
        let scene = model.scene
        let end = max(.zero, until ?? scene.duration)
        let panels = model.columns.map { column in
            var panel = PanelSampler(scene: scene, property: column.property, kind: column.kind, initial: model.initial[column.property],
                                     end: end).panel()
            panel.placement = model.placements[column.property.view]
            return panel
        }
        return Plot(binding: model.binding, source: source, end: end, duration: scene.duration, isInfinite: scene.isInfinite,
                    isCancelled: false, panels: panels, markers: eventMarkers(scene, end: end))
    }

    /// The time of the `k`-th of `count` equal steps across `[0, end]`, exactly when it can be.
    static func step(_ k: Int, of count: Int, across end: Time) -> Instant {
        if k == count { return Instant(end) }
        if let t = try? end.multiplied(by: Int64(k)).divided(by: Time(Int64(count))) { return Instant(t) }
        return Instant(approximately: end.seconds * Double(k) / Double(count))
    }

    /// One marker per instant at which events fire, found with the table's
    /// own count (``CompiledScene/events(after:through:)``) over intervals
    /// of two pixels: an interval with several firings of one name is one
    /// marker at its first, `tick×3`.
    static func eventMarkers(_ scene: CompiledScene, end: Time) -> [Marker] {
        guard scene.hasEvents else { return [] }
        let intervals = end.isPositive ? plotWidth / 2 : 1
        var labels: [[String]] = []
        var times: [Instant] = []
        var index: [Instant: Int] = [:]
        var previous: Instant?
        for k in 1...intervals {
            let through = step(k, of: intervals, across: end)
            for firing in scene.events(after: previous, through: through) {
                if let known = index[firing.first] {
                    labels[known].append(firing.description)
                } else {
                    index[firing.first] = times.count
                    times.append(firing.first)
                    labels.append([firing.description])
                }
            }
            previous = through
        }
        return zip(times, labels).map { Marker(time: $0, label: $1.joined(separator: ", ")) }
            .sorted { $0.time.seconds < $1.time.seconds }
    }
}

// MARK: - Sampling one property

private struct PanelSampler {
    let scene: CompiledScene
    let property: Property
    let kind: Value.Kind
    let initial: Value?
    let end: Time

    /// A sample being gathered; `pinned` ones (at a jump) survive thinning.
    struct Point {
        var time: Instant
        var value: Value
        var pinned: Bool
    }

    /// How many samples halving may add between two neighbouring grid samples.
    static let refinementBudget = 64
    /// Beyond this many breakpoints, they are not sampled one by one (halving finds the jumps).
    static let breakpointLimit = 20_000
    /// A `steps` easing with more steps than this is left to halving.
    static let stepLimit = 10_000

    var columns: Int { Plot.plotWidth }
    var span: Double { end.seconds }

    func value(at t: Instant) -> Value {
        // A column exists only because a segment or a declaration names it (as in the table).
        scene.columnValue(of: property, at: t, initial: initial)
    }

    func panel() -> Plot.Panel {
        let (instants, boundaries) = sampleInstants()
        var points = instants.map { Point(time: $0.time, value: value(at: $0.time), pinned: $0.pinned) }
        if end.isPositive { points = refined(points) }
        let range = numberRange(points)
        if points.count > 4 * columns { points = thinned(points) }
        return Plot.Panel(property: property, placement: nil, kind: kind,
                          samples: points.map { Plot.Sample(time: $0.time, value: $0.value) }, boundaries: boundaries, range: range)
    }

    /// The grid, the breakpoints (each with a sample a hair before and after)
    /// and the jumps of `steps`, sorted; and the segment boundaries inside the span.
    /// (Past the breakpoint limit only the listed segments' pieces are, and
    /// halving finds the rest.)
    func sampleInstants() -> ([(time: Instant, pinned: Bool)], [Instant]) {
        var list: [(time: Instant, pinned: Bool)] = [(Instant(.zero), false)]
        let intervals = end.isPositive ? columns / 2 : 0
        if intervals > 0 {
            for k in 1...intervals { list.append((Plot.step(k, of: intervals, across: end), false)) }
        }
        let last = Instant(end)
        let zero = Instant(.zero)
        // Segment ends, every copy's inside repetitions when they are not too many.
        let listed = scene.breakpoints(of: property, through: last, limit: Self.breakpointLimit)
        var segmentEnds = listed ?? []
        var jumps: [Instant] = []
        for piece in scene.pieces(of: property, initial: initial) {
            if listed == nil {
                segmentEnds.append(piece.start)
                segmentEnds.append(piece.end)
            }
            if case .tween = piece.rule, let segment = piece.segment {
                jumps.append(contentsOf: stepJumps(of: segment, inside: piece))
            }
        }
        let breakpoints = (segmentEnds + jumps).filter { !($0 < zero) && !(last < $0) }
        let boundaries = unique(segmentEnds.filter { zero < $0 && $0 < last })
        if breakpoints.count <= Self.breakpointLimit {
            for point in breakpoints {
                list.append((point, true))
                guard end.isPositive else { continue }
                let hair = max(span * 1e-9, 4 * point.seconds.ulp)
                if point.seconds - hair > 0 { list.append((Instant(approximately: point.seconds - hair), true)) }
                if point.seconds + hair < span { list.append((Instant(approximately: point.seconds + hair), true)) }
            }
        }
        list.sort { a, b in
            a.time.seconds != b.time.seconds ? a.time.seconds < b.time.seconds : (a.time.exact != nil && b.time.exact == nil)
        }
        var merged: [(time: Instant, pinned: Bool)] = []
        merged.reserveCapacity(list.count)
        for item in list {
            if let previous = merged.last, previous.time.seconds == item.time.seconds {
                merged[merged.count - 1].pinned = previous.pinned || item.pinned
                continue
            }
            merged.append(item)
        }
        return (merged, boundaries)
    }

    /// Where a `steps` segment jumps inside `piece`: `start + k/n·(end − start)`, exactly.
    func stepJumps(of segment: Segment, inside piece: Piece) -> [Instant] {
        guard let jumps = segment.easing.stepJumps, jumps.count >= 3, jumps.count - 1 <= Self.stepLimit,
              let s = segment.start.exact, let e = segment.end.exact, let length = try? e.subtracting(s) else { return [] }
        let count = jumps.count - 1
        var found: [Instant] = []
        for k in 1..<count {
            guard let offset = try? length.multiplied(by: Int64(k)).divided(by: Time(Int64(count))),
                  let t = try? s.adding(offset) else { continue }
            let instant = Instant(t)
            if piece.start < instant && instant < piece.end { found.append(instant) }
        }
        return found
    }

    /// Halves every interval whose ends differ by more than the picture
    /// resolves, level by level (so a budget spent on an interval it cannot
    /// resolve, a repetition finer than a pixel, is spread evenly over it);
    /// the two samples of a jump narrowed to a hair are pinned.
    func refined(_ points: [Point]) -> [Point] {
        guard let first = points.first else { return [] }
        let tolerance = numberRange(points).map { ($0.upperBound - $0.lowerBound) / 150 } ?? 0
        let hair = span * 2e-9
        var out: [Point] = [first]
        out.reserveCapacity(points.count * 2)
        for point in points.dropFirst() {
            guard let previous = out.last else { break }
            var stretch = [previous, point]
            var budget = Self.refinementBudget
            for _ in 0..<60 {
                var next: [Point] = [stretch[0]]
                var split = false
                for index in 1..<stretch.count {
                    let a = stretch[index - 1]
                    var b = stretch[index]
                    if a.value.visiblyDiffers(from: b.value, tolerance: tolerance) {
                        if b.time.seconds - a.time.seconds <= hair {
                            next[next.count - 1].pinned = true
                            b.pinned = true
                        } else if budget > 0 {
                            budget -= 1
                            let middle = Instant.midpoint(a.time, b.time)
                            next.append(Point(time: middle, value: value(at: middle), pinned: false))
                            split = true
                        }
                    }
                    next.append(b)
                }
                stretch = next
                if !split { break }
            }
            out[out.count - 1] = stretch[0]
            out.append(contentsOf: stretch.dropFirst())
        }
        return out
    }


    private func numberRange(_ points: [Point]) -> ClosedRange<Double>? {
        var low = Double.infinity, high = -Double.infinity
        for point in points {
            guard case .number(let x) = point.value, x.isFinite else { continue }
            low = min(low, x)
            high = max(high, x)
        }
        return low <= high ? low...high : nil
    }

    /// Keeps, per pixel column, the first, last, least and greatest samples,
    /// every pinned one, and the ends of every stretch that is not a finite number.
    private func thinned(_ points: [Point]) -> [Point] {
        func column(_ point: Point) -> Int {
            let x = point.time.seconds / span * Double(columns)
            return Int(min(max(x.isFinite ? x : 0, 0), Double(columns - 1)))
        }
        func number(_ point: Point) -> Double? {
            if case .number(let x) = point.value, x.isFinite { return x }
            return nil
        }
        var keep = [Bool](repeating: false, count: points.count)
        var start = 0
        while start < points.count {
            let current = column(points[start])
            var stop = start
            var least: Int?, greatest: Int?
            while stop < points.count, column(points[stop]) == current {
                if let x = number(points[stop]) {
                    if least.map({ x < (number(points[$0]) ?? x) }) ?? true { least = stop }
                    if greatest.map({ x > (number(points[$0]) ?? x) }) ?? true { greatest = stop }
                } else if stop == 0 || number(points[stop - 1]) != nil || stop + 1 == points.count || number(points[stop + 1]) != nil {
                    keep[stop] = true
                }
                if points[stop].pinned { keep[stop] = true }
                stop += 1
            }
            keep[start] = true
            keep[stop - 1] = true
            if let least { keep[least] = true }
            if let greatest { keep[greatest] = true }
            start = stop
        }
        return zip(points, keep).compactMap { $1 ? $0 : nil }
    }

    private func unique(_ instants: [Instant]) -> [Instant] {
        var result: [Instant] = []
        for instant in instants.sorted(by: { $0.seconds < $1.seconds }) where result.last.map({ $0.seconds != instant.seconds }) ?? true {
            result.append(instant)
        }
        return result
    }
}
