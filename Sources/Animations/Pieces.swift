/// One stretch of a property's timeline over which a single rule gives its
/// value: what an exporter turns into keyframes (CSS, Web Animations,
/// Lottie) and a plot into a curve.
///
/// ```swift
/// for piece in compiled.pieces(of: Property(view: "ball", name: "x")) {
///     switch piece.rule {
///     case .hold(let value): …                       // constant over the piece
///     case .tween(let from, let to, let easing, let p0, let p1): …   // one segment plays
///     case .sampled: …                                // ties or a warped clock: sample it
///     }
/// }
/// ```
///
/// Pieces cover `[0, D]` without gaps, in order; their ends are the
/// property's breakpoints (every start and end of a segment, and the window
/// of every symbolic repetition). A piece's rule describes its interior: at a
/// breakpoint itself the value may be either side's, or neither (a jump, a
/// tie at an instant), so read breakpoints with ``CompiledScene/value(of:at:initial:)``.
public struct Piece: Sendable {
    public let start: Instant
    public let end: Instant

    public enum Rule: Sendable {
        /// The value is constant: a hold before, between or after segments.
        case hold(Value)
        /// One segment plays throughout, on a plain clock: at the fraction
        /// `q` of the piece the value is `Value.interpolate(from:to:progress:
        /// easing(p0 + (p1 − p0)·q))`. `p0 > p1` when it plays backwards;
        /// `p0 = 0, p1 = 1` when the piece is the whole segment played forwards.
        case tween(from: Value, to: Value, easing: Easing, p0: Double, p1: Double)
        /// Segments tie (the value is a mean of several curves), a warp
        /// shapes the clock, or a symbolic repetition plays: only sampling
        /// (``CompiledScene/value(of:at:initial:)``) gives the value.
        case sampled
    }

    public let rule: Rule
    /// The segment that plays, for a ``Rule-swift.enum/tween(from:to:easing:p0:p1:)``
    /// piece: its exact window tells where, inside the piece, its easing's
    /// own breakpoints fall (the jumps of `steps`, say) in exact time.
    public let segment: Segment?

    public init(start: Instant, end: Instant, rule: Rule, segment: Segment? = nil) {
        self.start = start
        self.end = end
        self.rule = rule
        self.segment = segment
    }
}

extension Piece {
    /// The same piece `delta` later, its segment too (an exporter placing
    /// the last copy of a ``Repetition``); `nil` when exact time overflows.
    public func shifted(by delta: Time) -> Piece? {
        guard let start = start.shifted(by: delta), let end = end.shifted(by: delta) else { return nil }
        var moved: Segment?
        if let segment {
            guard let s = segment.start.shifted(by: delta), let e = segment.end.shifted(by: delta) else { return nil }
            moved = segment.moved(start: s, end: e)
        }
        return Piece(start: start, end: end, rule: rule, segment: moved)
    }
}

extension CompiledScene {
    /// The pieces of `property`'s timeline over `[0, D]` (see ``Piece``);
    /// `initial` is its declared initial value. Empty when no segment
    /// animates it (it then holds `initial` throughout).
    public func pieces(of property: Property, initial: Value? = nil) -> [Piece] {
        pieces(of: property, initial: initial, mergingHolds: true)
    }

    /// The pieces of `property`'s timeline over `[start, end]` only: those of
    /// ``pieces(of:initial:)`` cut at `start` and `end` (which become
    /// breakpoints). An exporter of a scene that repeats forever cuts one
    /// period out of ``unrolled(through:)`` this way.
    public func pieces(of property: Property, initial: Value? = nil, from start: Instant, to end: Instant) -> [Piece] {
        guard start < end else { return [] }
        return pieces(of: property, initial: initial, mergingHolds: true, from: start, to: end)
    }

    func pieces(of property: Property, initial: Value?, mergingHolds: Bool, from lower: Instant = Instant(.zero),
                to upperEnd: Instant? = nil) -> [Piece] {
        guard let track = track(for: property) else { return [] }
        let upper = upperEnd ?? Instant(duration)
        var breakpoints: [Instant] = [lower, upper]
        for index in 0..<track.count {
            breakpoints.append(track.starts[index])
            breakpoints.append(track.ends[index])
        }
        for reference in track.blocks {
            breakpoints.append(reference.block.start)
            breakpoints.append(reference.block.end)
        }
        breakpoints.sort()
        var unique: [Instant] = []
        for point in breakpoints where !(point < lower) && !(upper < point) {
            if let last = unique.last, last == point { continue }
            unique.append(point)
        }
        var pieces: [Piece] = []
        for (start, end) in zip(unique, unique.dropFirst()) {
            let (rule, segment) = track.rule(between: start, and: end, initial: initial)
            // Neighbours with one hold make one piece.
            if mergingHolds, case .hold(let value) = rule, let last = pieces.last, case .hold(let previous) = last.rule, previous == value {
                pieces[pieces.count - 1] = Piece(start: last.start, end: end, rule: rule)
                continue
            }
            pieces.append(Piece(start: start, end: end, rule: rule, segment: segment))
        }
        return pieces
    }
}

extension Track {
    /// The rule over the open interval `(start, end)`, which no breakpoint crosses.
    func rule(between start: Instant, and end: Instant, initial: Value?) -> (Piece.Rule, Segment?) {
        // Inside a symbolic repetition's window: sample.
        for reference in blocks where reference.block.start < end && start < reference.block.end {
            return (.sampled, nil)
        }
        let middle = Instant.midpoint(start, end)
        // A segment cut by `played` ranks by a start before its window: sampled where one plays.
        if ranked, (0..<count).contains(where: { starts[$0] < end && start < ends[$0] }) { return (.sampled, nil) }
        if !ranked, let winners = winners(at: middle), winners.category == .active {
            // One segment plays, unless several tie or a warp or a jump shapes it.
            var distinct: [Segment] = []
            forEach(winners) { index in
                if !distinct.contains(storage[index]) { distinct.append(storage[index]) }
            }
            guard distinct.count == 1, let segment = distinct.first, segment.warp == nil, !segment.isJump else { return (.sampled, nil) }
            return (.tween(from: segment.from, to: segment.to, easing: segment.easing,
                           p0: segment.progress(at: start), p1: segment.progress(at: end)), segment)
        }
        // Held: the rule gives one value for the whole interval.
        guard let value = value(at: middle, initial: initial) else { return (.sampled, nil) }
        return (.hold(value), nil)
    }
}

/// A symbolic repetition (`x ^ 1_000_000_000`, kept as one block by
/// ``Scene/compile(materializeLimit:)``) seen from a property whose window
/// it governs alone: no listed segment and no other repetition of the
/// property overlaps its window, and its copies run on a plain clock (no
/// easing warp above it). There ``CompiledScene/pieces(of:initial:)`` can
/// only say `.sampled`; this says what every copy does, so an exporter can
/// play one copy `count` times (a CSS iteration count) instead of listing them.
///
/// ```swift
/// for repetition in compiled.repetitions(of: lamp) {
///     // copy 0 plays `first`; copy k ≥ 1 plays `later` shifted by (k − 1)·period
/// }
/// ```
///
/// The first copy can differ from the others: before its first segment
/// starts, a copy shows what the previous copy ended on, and copy 0 shows
/// what the scene held before the repetition. Every later copy is the same.
public struct Repetition: Sendable {
    /// Where copy 0 starts and the last copy ends, in the scene's time.
    public let start: Instant
    public let end: Instant
    /// The length of one copy in the scene's time.
    public let period: Time
    /// How many copies (at least 2).
    public let count: Int
    /// The pieces of copy 0, in the scene's time `[start, start + period]`.
    public let first: [Piece]
    /// The pieces of copy 1, in the scene's time `[start + period, start + 2·period]`;
    /// copy k shows them shifted by `(k − 1)·period`.
    public let later: [Piece]
}

extension CompiledScene {
    /// The symbolic repetitions that alone govern `property` over their
    /// windows (see ``Repetition``), in order of start. Each lies inside one
    /// `.sampled` piece of ``pieces(of:initial:)``; any other repetition on
    /// the property (under a warp, or overlapped by other segments) is left
    /// to sampling.
    public func repetitions(of property: Property, initial: Value? = nil) -> [Repetition] {
        guard let track = track(for: property) else { return [] }
        var result: [Repetition] = []
        for reference in track.blocks {
            let block = reference.block
            let path = block.path
            // Copies that start from where the last one left a relative tween differ one from the next.
            guard reference.input == nil, path.stages.isEmpty, path.collapse == nil, path.affine.isIncreasing, block.count >= 2,
                  let period = try? block.period.divided(by: path.affine.scale),
                  block.start.exact != nil, block.end.exact != nil else { continue }
            var overlapped = false
            for index in 0..<track.count where !(track.ends[index] <= block.start || block.end <= track.starts[index]) {
                overlapped = true
                break
            }
            for other in track.blocks where other.block !== block && other.block.start < block.end && block.start < other.block.end {
                overlapped = true
            }
            guard !overlapped else { continue }
            let body = block.body.pieces(of: property, initial: nil, mergingHolds: false)
            guard let first = placeCopy(body, of: block, copy: 0, property: property, initial: initial),
                  let later = placeCopy(body, of: block, copy: 1, property: property, initial: initial) else { continue }
            result.append(Repetition(start: block.start, end: block.end, period: period, count: block.count, first: first, later: later))
        }
        result.sort { $0.start < $1.start }
        return result
    }

    /// The most copies of a finite symbolic repetition on `property` that an
    /// exporter can only sample (``Piece/Rule-swift.enum/sampled``): one that
    /// ``repetitions(of:initial:)`` does not describe (copies that differ,
    /// a warp above them, other segments over them), or one inside another
    /// repetition's copy; 0 when there is none. A sampled curve over
    /// thousands of copies misses their shape between its points (a ramp
    /// where each copy rises and falls), so an exporter refuses above the
    /// copies it can follow rather than write a different animation.
    public func sampledRepetitionCopies(of property: Property, initial: Value? = nil) -> Int {
        guard let track = track(for: property) else { return 0 }
        let described = repetitions(of: property, initial: initial)
        var most = 0
        for reference in track.blocks where !reference.block.isEndless {
            let block = reference.block
            if !described.contains(where: { $0.start == block.start && $0.end == block.end }) { most = max(most, block.count) }
            most = max(most, block.body.nestedRepetitionCopies(of: property))
        }
        return most
    }

    /// The most copies of any finite symbolic repetition on `property`, at any depth.
    private func nestedRepetitionCopies(of property: Property) -> Int {
        guard let track = track(for: property) else { return 0 }
        var most = 0
        for reference in track.blocks where !reference.block.isEndless {
            most = max(most, reference.block.count, reference.block.body.nestedRepetitionCopies(of: property))
        }
        return most
    }

    /// A copy of a block's body pieces in the scene's time. Holds take the
    /// value the scene shows there (a copy's holds depend on its neighbours);
    /// tweens keep their rule, and their segment is placed in the scene.
    private func placeCopy(_ body: [Piece], of block: RepetitionBlock, copy: Int, property: Property, initial: Value?) -> [Piece]? {
        guard let shift = try? block.period.multiplied(by: Int64(copy)) else { return nil }
        func scene(_ u: Instant) -> Instant? {
            // A warp inside the body places its windows at inexact instants: they move approximately.
            u.shifted(by: shift).map(block.path.affine.invert)
        }
        var placed: [Piece] = []
        for piece in body {
            guard let start = scene(piece.start), let end = scene(piece.end) else { return nil }
            switch piece.rule {
            case .hold:
                guard let value = value(of: property, at: Instant.midpoint(start, end), initial: initial) else { return nil }
                placed.append(Piece(start: start, end: end, rule: .hold(value)))
            case .tween:
                let segment = piece.segment.flatMap { segment -> Segment? in
                    guard let s = scene(segment.start), let e = scene(segment.end) else { return nil }
                    return segment.moved(start: s, end: e)
                }
                placed.append(Piece(start: start, end: end, rule: piece.rule, segment: segment))
            case .sampled:
                placed.append(Piece(start: start, end: end, rule: .sampled))
            }
        }
        return placed
    }
}
