import AnimLang
import Animations

// Baking (LottieKeyframes.swift): a curve Lottie lacks, as few cubic
// Béziers as stay within the tolerance at every frame and halfway between,
// and the jumps inside baked stretches, found by bisection.

extension KeyframeBuilder.Plan {
    /// The frames inside a span and its ends, with the value at each; for a
    /// span sampled finer than frames (``KeyframeBuilder.Span/step``), every `1/n` frame
    /// instead, `n` the least whole number with `1/n` within the step. More
    /// of them than keyframes may still be written is the limit reached:
    /// each interval between them is at least one keyframe.
    private func stops(_ span: KeyframeBuilder.Span, from start: Instant) throws(KeyframeLimitReached) -> [(Instant, [Double])] {
        var stops: [(Instant, [Double])] = [(start, start.seconds == span.start.seconds ? startValue(span) : sample(start))]
        let (perFrame, first, last) = Self.grid(span, from: start)
        guard last - first < Double(builder.budget) else { throw KeyframeLimitReached(fasterThanFrames: perFrame > 1) }
        var index = first
        while index < last {
            let point = perFrame == 1 ? Instant(Time(Int64(index)))
                : Time(numerator: Int64(index), denominator: Int64(perFrame)).map { Instant($0) }
                    ?? Instant(approximately: index / perFrame)
            stops.append((point, sample(point)))
            index += 1
        }
        stops.append((span.end, endValue(span)))
        return stops
    }

    /// The stops of a span from `start` on are `index / perFrame` frames for
    /// whole `index` from `first` while below `last`.
    private static func grid(_ span: KeyframeBuilder.Span, from start: Instant) -> (perFrame: Double, first: Double, last: Double) {
        let perFrame = span.step < 1 ? (1 / span.step).rounded(.up) : 1
        return (perFrame, ((start.seconds + 1e-9) * perFrame).rounded(.up), (span.end.seconds - 1e-9) * perFrame)
    }

    /// Whether the baked spans have more stops than keyframes may still be
    /// written (each interval between stops is at least one keyframe):
    /// known before any is searched or fitted.
    func exceedsBudget(_ spans: [KeyframeBuilder.Span]) -> KeyframeLimitReached? {
        var count = 0.0, fine = false
        for span in spans {
            guard case .baked = span.kind else { continue }
            let (perFrame, first, last) = Self.grid(span, from: span.start)
            count += max(0, last - first)
            fine = fine || perFrame > 1
        }
        return count < Double(builder.budget) ? nil : KeyframeLimitReached(fasterThanFrames: fine)
    }

    /// The span drawn by as few cubics as stay within the tolerance at
    /// every frame (every stop of its grid) and halfway between: the
    /// whole span tried first, halved (at a stop) until each half fits;
    /// an interval between two stops that still does not is refined.
    mutating func bake(_ span: KeyframeBuilder.Span, from start: Instant) throws(KeyframeLimitReached) {
        baking = true
        defer { baking = false }
        let stops = try stops(span, from: start)
        var halves: [[Double]] = []
        halves.reserveCapacity(stops.count)
        for index in 0..<(stops.count - 1) { halves.append(sample(stops[index].0.toward(stops[index + 1].0, Self.half))) }
        try cover(stops, halves, 0, stops.count - 1, scale: min(span.step, 1))
    }

    /// Stops `first` to `last` as one fitted cubic, or halved until they are.
    private mutating func cover(_ stops: [(Instant, [Double])], _ halves: [[Double]], _ first: Int, _ last: Int,
                                scale: Double) throws(KeyframeLimitReached) {
        let (a, va) = stops[first], (b, vb) = stops[last]
        guard last - first > 1 else { return try refine(a, va, b, vb, scale: scale) }
        let (curve, fits, _) = fit(a, va, b, vb, tame: true)
        if fits, agrees(curve, from: a, va, to: b, vb, stops: stops, halves: halves, first, last) {
            return try emit(a.seconds, va, curve ?? UnitBezier.linear)
        }
        let middle = (first + last) / 2
        try cover(stops, halves, first, middle, scale: scale)
        try cover(stops, halves, middle, last, scale: scale)
    }

    /// Whether the cubic from `va` to `vb` (handles at x = 1/3 and 2/3, so
    /// time runs linearly) is within the tolerance at the stops strictly
    /// between `first` and `last` and halfway between every two of them.
    private func agrees(_ curve: UnitBezier?, from a: Instant, _ va: [Double], to b: Instant, _ vb: [Double],
                        stops: [(Instant, [Double])], halves: [[Double]], _ first: Int, _ last: Int) -> Bool {
        let length = b.seconds - a.seconds
        guard length > 0 else { return false }
        func close(_ seconds: Double, _ actual: [Double]) -> Bool {
            let q = (seconds - a.seconds) / length
            let y = curve.map { 3 * (1 - q) * (1 - q) * q * $0.y1 + 3 * (1 - q) * q * q * $0.y2 + q * q * q } ?? 0
            for index in 0..<min(va.count, actual.count) where !(abs(va[index] + (vb[index] - va[index]) * y - actual[index]) <= bakeTolerance) {
                return false
            }
            return true
        }
        for index in first..<last {
            if index > first, !close(stops[index].0.seconds, stops[index].1) { return false }
            let middle = (stops[index].0.seconds + stops[index + 1].0.seconds) / 2
            if !close(middle, halves[index]) { return false }
        }
        return true
    }

    /// How an interval is drawn: a cubic through the values at its ends
    /// and thirds (handles at x = 1/3 and 2/3, so time runs linearly), and
    /// whether it stays within the tolerance at its sixths and middle.
    /// With `tame`, a cubic whose handles overshoot its ends by more than
    /// their distance does not fit either, and `split` says where its
    /// extreme is: ThorVG keeps opacity and colour keyframes as bytes, and
    /// large handles on nearly equal ends would magnify that rounding.
    private func fit(_ a: Instant, _ va: [Double], _ b: Instant, _ vb: [Double], tame: Bool = false)
        -> (curve: UnitBezier?, fits: Bool, split: Double?) {
        let third = sample(a.toward(b, Time(numerator: 1, denominator: 3) ?? .zero))
        let twoThirds = sample(a.toward(b, Time(numerator: 2, denominator: 3) ?? .zero))
        let delta = zip(vb, va).map { $0 - $1 }
        let norm = delta.reduce(0) { $0 + $1 * $1 }
        var curve: UnitBezier?
        if norm > equalTolerance * equalTolerance {
            // Project the samples on the direction of travel: one curve for every component.
            func along(_ value: [Double]) -> Double {
                zip(zip(value, va), delta).reduce(0) { $0 + ($1.0.0 - $1.0.1) * $1.1 } / norm
            }
            let a1 = along(third), a2 = along(twoThirds)
            let y1 = 3 * a1 - 1.5 * a2 + 1.0 / 3
            let y2 = (9 * a1 - 1.0 / 3 - 4 * y1) / 2
            if y1.isFinite, y2.isFinite { curve = UnitBezier(x1: 1.0 / 3, y1: y1, x2: 2.0 / 3, y2: y2) }
        }
        func model(_ q: Double) -> [Double] {
            guard let curve else { return va }
            let y = 3 * (1 - q) * (1 - q) * q * curve.y1 + 3 * (1 - q) * q * q * curve.y2 + q * q * q
            return zip(va, delta).map { $0 + $1 * y }
        }
        var checks: [(Double, [Double])] = [(1.0 / 3, third), (2.0 / 3, twoThirds)]
        for (numerator, denominator) in [(1, 6), (1, 2), (5, 6)] {
            let q = Time(numerator: Int64(numerator), denominator: Int64(denominator)) ?? .zero
            checks.append((q.seconds, sample(a.toward(b, q))))
        }
        for (q, actual) in checks {
            for (x, y) in zip(model(q), actual) where !(abs(x - y) <= bakeTolerance) { return (curve, false, nil) }
        }
        if tame, let curve {
            let range = curve.ordinateRange
            let overshoot = max(-range.lowerBound, range.upperBound - 1)
            if overshoot > 1, overshoot * norm.squareRoot() > bakeTolerance {
                return (curve, false, curve.extreme)
            }
        }
        return (curve, true, nil)
    }

    private static let half = Time(numerator: 1, denominator: 2) ?? .zero

    /// The interval fitted, or cut (at its extreme, or in halves) until it
    /// fits; down to 1/64 frame (times `scale`, the span's step where it is
    /// sampled finer than frames), where what is left (only near a jump the
    /// search missed) holds. A stretch that still climbs by more than 64
    /// tolerances there (a steep one, as expo's middle composed with a
    /// bounce's kinks) is cut on, down to 1/4096 frame: a hold across it
    /// would be off by that climb.
    private mutating func refine(_ a: Instant, _ va: [Double], _ b: Instant, _ vb: [Double], scale: Double) throws(KeyframeLimitReached) {
        guard b.seconds > a.seconds else { return }
        let (curve, fits, split) = fit(a, va, b, vb, tame: true)
        if fits { return try emit(a.seconds, va, curve ?? UnitBezier.linear) }
        let climb = zip(va, vb).map { abs($1 - $0) }.max() ?? 0
        let floor = (climb > 64 * bakeTolerance ? 1.0 / 4096 : 1.0 / 64) * scale
        if b.seconds - a.seconds <= floor { return try emit(a.seconds, va, curve == nil || split == nil ? nil : curve) }
        let middle: Instant
        if let split, split > 0.05, split < 0.95 {
            middle = Instant(approximately: a.seconds + (b.seconds - a.seconds) * split)
        } else {
            middle = a.toward(b, Self.half)
        }
        let vm = sample(middle)
        try refine(a, va, middle, vm, scale: scale)
        try refine(middle, vm, b, vb, scale: scale)
    }

    // MARK: Jumps inside baked spans

    /// Baked spans cut at the jumps found inside them, each jump a boundary.
    func splittingAtJumps(_ spans: [KeyframeBuilder.Span], _ boundaries: [KeyframeBuilder.Boundary]) throws(KeyframeLimitReached) -> ([KeyframeBuilder.Span], [KeyframeBuilder.Boundary]) {
        var outSpans: [KeyframeBuilder.Span] = []
        var outBoundaries = [boundaries[0]]
        for (index, span) in spans.enumerated() {
            var jumps: [Instant] = []
            if case .baked = span.kind {
                let stops = try stops(span, from: span.start)
                for stop in 0..<(stops.count - 1) {
                    var budget = 512
                    var found: [Instant] = []
                    findJumps(stops[stop].0, stops[stop].1, stops[stop + 1].0, stops[stop + 1].1, into: &found, budget: &budget)
                    // Both sides of one jump (or of a vertical tangent) snap to one point.
                    for jump in found.sorted(by: { $0.seconds < $1.seconds }) where jumps.last.map({ abs($0.seconds - jump.seconds) > 1e-9 }) ?? true {
                        jumps.append(jump)
                    }
                    if jumps.count > 10_000 { throw KeyframeLimitReached() }
                }
            }
            var start = span.start
            for jump in jumps where jump.seconds > start.seconds && jump.seconds < span.end.seconds {
                outSpans.append(KeyframeBuilder.Span(start: start, end: jump, kind: .baked, step: span.step))
                outBoundaries.append(KeyframeBuilder.Boundary(frame: jump, value: sample(jump)))
                start = jump
            }
            outSpans.append(KeyframeBuilder.Span(start: start, end: span.end, kind: span.kind, step: span.step))
            outBoundaries.append(boundaries[index + 1])
        }
        return (outSpans, outBoundaries)
    }

    /// Where an interval that will not fit a cubic however short narrows
    /// to a point: a jump (or a vertical tangent, as circ's in-out has at
    /// its middle), placed at the simplest fraction of a frame in the last
    /// bracket. `budget` bounds the search: noise misfits everywhere, and
    /// has no point to find.
    private func findJumps(_ a: Instant, _ va: [Double], _ b: Instant, _ vb: [Double], into jumps: inout [Instant],
                           budget: inout Int) {
        guard b.seconds > a.seconds, budget > 0, !fit(a, va, b, vb).fits else { return }
        budget -= 1
        if b.seconds - a.seconds <= 1e-7 * max(1, abs(b.seconds)) {
            jumps.append(simplestFrame(between: a, and: b))
            return
        }
        let middle = a.toward(b, Self.half)
        let vm = sample(middle)
        findJumps(a, va, middle, vm, into: &jumps, budget: &budget)
        findJumps(middle, vm, b, vb, into: &jumps, budget: &budget)
    }

    /// The fraction with the smallest denominator in `[a, b]` (continued
    /// fractions), or the middle when none is small enough to be exact.
    private func simplestFrame(between a: Instant, and b: Instant) -> Instant {
        var low = a.seconds, high = b.seconds
        guard low.isFinite, high.isFinite, abs(high) < 1e15 else { return Instant(approximately: (low + high) / 2) }
        let whole = low.rounded(.down)
        if whole + 1 <= high || low == whole { return Instant(Time(Int64(low.rounded(.up)))) }
        low -= whole
        high -= whole
        // Convergents of the continued fraction for fractions within [low, high].
        var (p0, q0, p1, q1): (Double, Double, Double, Double) = (0, 1, 1, 0)
        var x = low, y = high
        for _ in 0..<40 {
            let term = x.rounded(.down)
            if term + 1 <= y || x == term {
                let t = x == term ? term : term + 1
                let p = t * p1 + p0, q = t * q1 + q0
                guard q < 1e9, p < 1e15, let fraction = Time(numerator: Int64(p), denominator: Int64(q)),
                      let frame = try? fraction.adding(Time(Int64(whole))) else { break }
                return Instant(frame)
            }
            (p0, q0, p1, q1) = (p1, q1, term * p1 + p0, term * q1 + q0)
            let nextX = 1 / (y - term), nextY = 1 / (x - term)
            guard nextX.isFinite, nextY.isFinite else { break }
            (x, y) = (nextX, nextY)
        }
        return Instant(approximately: (a.seconds + b.seconds) / 2)
    }
}
