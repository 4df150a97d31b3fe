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
}

extension CompiledScene {
    /// The pieces of `property`'s timeline over `[0, D]` (see ``Piece``);
    /// `initial` is its declared initial value. Empty when no segment
    /// animates it (it then holds `initial` throughout).
    public func pieces(of property: Property, initial: Value? = nil) -> [Piece] {
        guard let track = track(for: property) else { return [] }
        var breakpoints: [Instant] = [Instant(.zero), Instant(duration)]
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
        for point in breakpoints where !(point < Instant(.zero)) && !(Instant(duration) < point) {
            if let last = unique.last, last == point { continue }
            unique.append(point)
        }
        var pieces: [Piece] = []
        for (start, end) in zip(unique, unique.dropFirst()) {
            let rule = track.rule(between: start, and: end, initial: initial)
            // Neighbours with one hold make one piece.
            if case .hold(let value) = rule, let last = pieces.last, case .hold(let previous) = last.rule, previous == value {
                pieces[pieces.count - 1] = Piece(start: last.start, end: end, rule: rule)
                continue
            }
            pieces.append(Piece(start: start, end: end, rule: rule))
        }
        return pieces
    }
}

extension Track {
    /// The rule over the open interval `(start, end)`, which no breakpoint crosses.
    func rule(between start: Instant, and end: Instant, initial: Value?) -> Piece.Rule {
        // Inside a symbolic repetition's window: sample.
        for reference in blocks where reference.block.start < end && start < reference.block.end {
            return .sampled
        }
        let middle: Instant
        if let a = start.exact, let b = end.exact, let sum = try? a.adding(b), let half = try? sum.divided(by: Time(2)) {
            middle = Instant(half)
        } else {
            middle = Instant(approximately: (start.seconds + end.seconds) / 2)
        }
        // Segments started by the middle: [0, started).
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= middle { low = mid + 1 } else { high = mid }
        }
        if low > 0, let latest = rightmostEnding(atOrAfter: middle, before: low) {
            // Active: the segments with the latest start win.
            let key = starts[latest]
            var winners: [Int] = []
            var index = latest
            while index >= 0, starts[index] == key {
                if !(ends[index] < middle) { winners.append(index) }
                index -= 1
            }
            var distinct: [Segment] = []
            for winner in winners where !distinct.contains(storage[winner]) { distinct.append(storage[winner]) }
            guard distinct.count == 1, let segment = distinct.first, segment.warp == nil, !segment.isJump else { return .sampled }
            return .tween(from: segment.from, to: segment.to, easing: segment.easing,
                          p0: segment.progress(at: start), p1: segment.progress(at: end))
        }
        // Held: the rule gives one value for the whole interval.
        var resolution = Resolution()
        resolve(at: middle, into: &resolution)
        guard let value = resolution.value(initial: initial) else { return .sampled }
        return .hold(value)
    }
}
