import AnimLang
import Animations

// From a property's timeline to Lottie keyframes.
//
// A Lottie keyframe holds a value from its frame on and either keeps it
// (`h: 1`) until the next keyframe or moves to the next keyframe's value
// along its `o`/`i` Bézier. Players show, at a frame shared by several
// keyframes, the last of them (lottie-web and ThorVG both do), so a jump is
// two keyframes at one frame: the value arriving from the left, held, then
// the value from there on.
//
// The timeline comes as pieces (``CompiledScene/pieces(of:initial:)``):
// holds become hold keyframes; a tween whose easing is exactly a cubic
// Bézier (or a cut of one) becomes one keyframe per arc with exact handles;
// `steps` become hold keyframes at their jumps; everything else is baked:
// a keyframe at every frame, each interval a cubic through the curve's
// values at its thirds, split in halves (down to 1/64 frame) until it is
// within 1e-5 of the property's range everywhere it is checked. A curve that
// turns back faster than that (a spring with thousands of turns in its
// window) is sampled at eight points to a turn instead of once a frame, and
// its floors shrink alike: checks a frame apart can fall in step with its
// oscillation and see a smooth curve that is not there. When that takes more
// keyframes than the export may write, the export is refused.
//
// A jump inside a baked stretch (a warp by `steps`, a step of an
// overshooting curve) is found by bisection and placed at the simplest
// fraction of a frame inside the last bracket, where exact time puts such
// jumps; from there on it is a boundary like any other.
//
// At a boundary where the value jumps, the jump goes a few single-precision
// steps *before* the boundary (``jumpLead(at:)``), the new value held until
// the boundary: ThorVG keeps frames as `float` and may land a hair early,
// and must still show the new value at the boundary. A value that the sampling rule gives at one instant
// only (the end of a tween that an older one outlives, a tie at an instant,
// a reversed step's top) is held until ``instantHold(at:)`` frames after it:
// a Lottie keyframe cannot show a value for no time at all.

/// A Lottie keyframe: from `frame` on the property is `value`; until the
/// next keyframe it holds (`curve == nil`, `h: 1`) or follows `curve` to
/// the next keyframe's value.
struct LottieKeyframe: Equatable {
    var frame: Double
    var value: [Double]
    var curve: UnitBezier?
    /// Whether it comes from baking (a sampled value, a fitted curve): then
    /// it is written to fewer digits (``Digits``); exact ones stay exact.
    var baked = false
}

/// What one Lottie property does over the animation.
enum LottieTrack: Equatable {
    /// The same value throughout (`"a": 0`).
    case fixed([Double])
    /// Keyframes, sorted by frame (`"a": 1`).
    case keyed([LottieKeyframe])
}

/// One stretch of a property's timeline, in the Lottie property's own values.
struct TrackPiece {
    let start: Instant
    let end: Instant
    let rule: Rule
    /// How soon (in seconds) the value may turn back: half a turn of the
    /// fastest oscillating curve playing in the piece (a spring's), `nil`
    /// when none does. A baked piece is sampled finer than that.
    var halfTurn: Double? = nil

    enum Rule {
        case hold([Double])
        /// `from + (to − from)·E(p)`, with `p` going from `p0` to `p1`
        /// across the piece (the mapping to Lottie's values is affine).
        case tween(from: [Double], to: [Double], easing: Easing, p0: Double, p1: Double)
        /// Only sampling gives the value.
        case sampled
    }
}

/// Where a Lottie property's values come from.
struct TrackSource {
    /// How many numbers a value has.
    let dimension: Int
    /// Pieces covering `[0, D]` in order; empty when nothing animates the property.
    let pieces: [TrackPiece]
    /// The value at an instant, exactly as `animc eval` computes it, in Lottie's units (clamped where Lottie clamps).
    let sample: (Instant) -> [Double]
    /// The range every component is clamped to, if any: an exact curve must stay inside it.
    let allowed: ClosedRange<Double>?
}

/// The export needs more keyframes than it may write.
struct KeyframeLimitReached: Error {
    /// Reached by a curve sampled finer than frames (it turns back faster
    /// than them): a lower frame rate does not help.
    var fasterThanFrames = false
}

/// Builds keyframes for the properties of one export, sharing its frame rate
/// and its keyframe budget.
struct KeyframeBuilder {
    let fps: Int64
    /// How many keyframes may still be written.
    var budget: Int
    /// The last frame of the clock that reads these keyframes, when a time
    /// remap reads them (an asset's layers): the player computes the remapped
    /// time in single precision from the scene's frame, so a jump in the
    /// asset leads by that frame's steps, not its own small frame's.
    var remappedFrom: Double = 0

    init(fps: Int64, budget: Int) {
        self.fps = fps
        self.budget = budget
    }

    /// The frame of an instant (exact for exact instants).
    func frame(_ instant: Instant) -> Instant {
        if let exact = instant.exact, let frames = try? exact.multiplied(by: fps) { return Instant(frames) }
        return Instant(approximately: instant.seconds * Double(fps))
    }

    /// The instant of a frame: exact for exact frames (the times `animc eval` samples are).
    func instant(_ frame: Instant) -> Instant {
        if let exact = frame.exact, let seconds = try? exact.divided(by: Time(fps)) { return Instant(seconds) }
        return Instant(approximately: frame.seconds / Double(fps))
    }

    /// How long a value that lasts an instant is held: 1/1024 frame, or more
    /// where single precision (ThorVG keeps frames as `float`) cannot tell
    /// that far apart.
    static func instantHold(at frame: Double) -> Double {
        max(1.0 / 1024, 8 * Double(Float(abs(frame)).ulp))
    }

    /// How far before a jump its keyframes go: a few single-precision steps.
    static func jumpLead(at frame: Double) -> Double {
        max(1e-6, 4 * Double(Float(abs(frame)).ulp))
    }

    /// How far before a jump at `frame` of these keyframes' own clock its
    /// keyframes go: a few steps of the frame, or of the scene's frame that
    /// a time remap reads it from.
    func jumpLead(at frame: Double) -> Double {
        Self.jumpLead(at: max(abs(frame), remappedFrom))
    }

    /// The keyframes of one property.
    mutating func track(_ source: TrackSource) throws(KeyframeLimitReached) -> LottieTrack {
        guard let first = source.pieces.first else {
            return .fixed(source.sample(Instant(.zero)))
        }
        var plan = Plan(builder: self, source: source)
        try plan.build(spans(source, starting: first.start))
        budget = plan.builder.budget
        return plan.result()
    }

    // MARK: - Spans

    /// A stretch between two boundaries (in frames) with one way of filling it.
    struct Span {
        var start: Instant
        var end: Instant
        var kind: Kind
        /// How far apart (in frames) a baked span is sampled: a frame, or less
        /// where its curve oscillates faster (``Easing/halfOscillation``).
        var step: Double = 1

        enum Kind {
            case constant([Double])
            /// `from + (to − from)·Y(q)` along the curve `Y`.
            case curve(UnitBezier, from: [Double], to: [Double])
            case baked
        }

        var length: Double { end.seconds - start.seconds }
    }

    /// The value at a boundary between spans (at the instant itself).
    struct Boundary {
        var frame: Instant
        var value: [Double]
    }

    /// Spans and boundaries (one more boundary than spans) for the pieces.
    private func spans(_ source: TrackSource, starting: Instant) -> (spans: [Span], boundaries: [Boundary]) {
        var spans: [Span] = []
        var boundaries = [Boundary(frame: frame(starting), value: source.sample(starting))]
        for piece in source.pieces {
            let s = frame(piece.start), e = frame(piece.end)
            switch piece.rule {
            case .hold(let value):
                spans.append(Span(start: s, end: e, kind: .constant(value)))
            case .tween(let from, let to, let easing, let p0, let p1):
                if let (parts, inner) = exactSpans(from: from, to: to, easing: easing, p0: p0, p1: p1, start: s, end: e,
                                                   allowed: source.allowed) {
                    spans.append(contentsOf: parts)
                    boundaries.append(contentsOf: inner)
                } else {
                    spans.append(Span(start: s, end: e, kind: .baked, step: bakingStep(piece)))
                }
            case .sampled:
                spans.append(Span(start: s, end: e, kind: .baked, step: bakingStep(piece)))
            }
            boundaries.append(Boundary(frame: e, value: source.sample(piece.end)))
        }
        return (spans, boundaries)
    }

    /// How far apart (in frames) a baked piece is sampled: a frame, or a
    /// quarter of its half-turn (``TrackPiece/halfTurn``) if that is shorter:
    /// eight samples to a turn, so that none can fall in step with it.
    private func bakingStep(_ piece: TrackPiece) -> Double {
        guard let half = piece.halfTurn else { return 1 }
        let step = half * Double(fps) / 4
        return step.isFinite && step > 0 ? min(step, 1) : 1
    }

    /// A tween piece as exact spans (steps as holds between their jumps,
    /// Bézier easings as curves), with the boundaries inside it; `nil` when
    /// it has to be baked.
    private func exactSpans(from: [Double], to: [Double], easing: Easing, p0: Double, p1: Double, start: Instant, end: Instant,
                            allowed: ClosedRange<Double>?) -> ([Span], [Boundary])? {
        func value(_ y: Double) -> [Double] { zip(from, to).map { a, b in a + (b - a) * y } }
        func frameAt(_ p: Double) -> Instant {
            if p == p0 { return start }
            if p == p1 { return end }
            // Exact where p is (steps put jumps at k/n of exact windows).
            if let fraction = Time(seconds: (p - p0) / (p1 - p0)), fraction.seconds == (p - p0) / (p1 - p0) {
                return start.toward(end, fraction)
            }
            return Instant(approximately: start.seconds + (p - p0) / (p1 - p0) * (end.seconds - start.seconds))
        }
        func clamped(_ values: [Double]) -> [Double] {
            guard let allowed else { return values }
            return values.map { min(max($0, allowed.lowerBound), allowed.upperBound) }
        }
        if let jumps = easing.stepJumps {
            // Constant between jumps: the curve's value inside each stretch.
            let low = min(p0, p1), high = max(p0, p1)
            var cuts = jumps.filter { $0 > low && $0 < high }
            if p0 > p1 { cuts.reverse() }
            let stops = [p0] + cuts + [p1]
            var spans: [Span] = []
            var inner: [Boundary] = []
            for index in 0..<(stops.count - 1) {
                let a = stops[index], b = stops[index + 1]
                spans.append(Span(start: frameAt(a), end: frameAt(b), kind: .constant(clamped(value(easing((a + b) / 2))))))
                if index > 0 { inner.append(Boundary(frame: frameAt(a), value: clamped(value(easing(a))))) }
            }
            return (spans, inner)
        }
        guard let arcs = bezierArcs(of: easing, from: p0, to: p1), !arcs.isEmpty else { return nil }
        var spans: [Span] = []
        var inner: [Boundary] = []
        for (index, arc) in arcs.enumerated() {
            let a = frameAt(arc.start.x), b = frameAt(arc.end.x)
            if index > 0 { inner.append(Boundary(frame: a, value: value(arc.start.y))) }
            if arc.isFlat || from == to {
                spans.append(Span(start: a, end: b, kind: .constant(value(arc.start.y))))
                continue
            }
            guard let unit = arc.unitForm else { return nil }
            let startValue = value(arc.start.y), endValue = value(arc.end.y)
            if let allowed {
                // Lottie would not clamp along the curve: it must stay inside.
                let range = unit.ordinateRange
                for (u, v) in zip(startValue, endValue) {
                    for y in [range.lowerBound, range.upperBound] {
                        let x = u + (v - u) * y
                        if x < allowed.lowerBound - 1e-9 || x > allowed.upperBound + 1e-9 { return nil }
                    }
                }
            }
            spans.append(Span(start: a, end: b, kind: .curve(unit, from: startValue, to: endValue)))
        }
        return (spans, inner)
    }

    // MARK: - Emitting

    /// The keyframes of one property being written.
    struct Plan {
        var builder: KeyframeBuilder
        let source: TrackSource
        var keys: [LottieKeyframe] = []
        /// Values closer than this are equal (far below what anyone sees).
        var equalTolerance = 1e-12
        /// How far a baked curve may stray from the true one.
        var bakeTolerance = 1e-9
        /// Set while a baked span is emitted.
        var baking = false

        init(builder: KeyframeBuilder, source: TrackSource) {
            self.builder = builder
            self.source = source
        }

        mutating func emit(_ frame: Double, _ value: [Double], _ curve: UnitBezier?) throws(KeyframeLimitReached) {
            guard builder.budget > 0 else { throw KeyframeLimitReached() }
            builder.budget -= 1
            keys.append(LottieKeyframe(frame: frame, value: value, curve: curve, baked: baking))
        }

        func equal(_ a: [Double], _ b: [Double]) -> Bool {
            zip(a, b).allSatisfy { abs($0 - $1) <= equalTolerance }
        }

        func sample(_ frame: Instant) -> [Double] {
            source.sample(builder.instant(frame))
        }

        /// The value just after (or before) a frame: the limit from that side.
        func sample(nextTo frame: Instant, after: Bool) -> [Double] {
            let seconds = builder.instant(frame).seconds
            let step = max(abs(seconds).ulp * 16, Double.leastNormalMagnitude)
            return source.sample(Instant(approximately: after ? seconds + step : seconds - step))
        }

        /// The value shown first where `span` starts at `boundary`: the
        /// boundary's own value when it differs from the span's start and the
        /// span is long enough to hold it briefly (`instant`), else the span's start.
        func shownFirst(_ span: Span, at boundary: Boundary) -> (value: [Double], instant: Bool) {
            let leaving = startValue(span)
            let instant = !equal(boundary.value, leaving) && span.length > 4 * KeyframeBuilder.instantHold(at: boundary.frame.seconds)
            return (instant ? boundary.value : leaving, instant)
        }

        /// The value a span starts from (just after its start).
        func startValue(_ span: Span) -> [Double] {
            switch span.kind {
            case .constant(let value): return value
            case .curve(_, let from, _): return from
            case .baked: return sample(nextTo: span.start, after: true)
            }
        }

        /// The value a span arrives at (just before its end).
        func endValue(_ span: Span) -> [Double] {
            switch span.kind {
            case .constant(let value): return value
            case .curve(_, _, let to): return to
            case .baked: return sample(nextTo: span.end, after: false)
            }
        }

        mutating func build(_ plan: (spans: [Span], boundaries: [Boundary])) throws(KeyframeLimitReached) {
            var (spans, boundaries) = plan
            if let limit = exceedsBudget(spans) { throw limit }
            setTolerances(spans, boundaries)
            (spans, boundaries) = try splittingAtJumps(spans, boundaries)
            spans = arrivingEarly(spans, boundaries)
            var lastFrame = -Double.infinity
            for (index, span) in spans.enumerated() {
                let boundary = boundaries[index]
                let at = boundary.frame.seconds
                let arriving = index > 0 ? endValue(spans[index - 1]) : nil
                let hold = KeyframeBuilder.instantHold(at: at)
                let (firstValue, instant) = shownFirst(span, at: boundary)
                // A jump goes a hair early (never before the keyframe written last):
                // the value arriving, then the new one held until the span starts.
                if let arriving, !equal(arriving, firstValue) {
                    let early = max(at - builder.jumpLead(at: at), min(at, lastFrame))
                    try emit(early, arriving, nil)
                    if early < at { try emit(early, firstValue, nil) }
                }
                if instant {
                    try emit(at, boundary.value, nil)
                    try emitSpan(span, from: Instant(approximately: at + hold))
                } else {
                    try emitSpan(span, from: span.start)
                }
                lastFrame = keys.last?.frame ?? lastFrame
            }
            if let last = spans.last, let end = boundaries.last {
                // The end is a boundary too: what holds after it may differ from its
                // instant (a finished segment holds its raw end, not its easing's value).
                let arriving = endValue(last), at = end.frame.seconds
                let after = sample(nextTo: end.frame, after: true)
                if !equal(arriving, end.value) {
                    let early = max(at - builder.jumpLead(at: at), min(at, lastFrame))
                    try emit(early, arriving, nil)
                    if early < at { try emit(early, end.value, nil) }
                }
                try emit(at, end.value, nil)
                if !equal(after, end.value) { try emit(at + KeyframeBuilder.instantHold(at: at), after, nil) }
            }
        }

        /// The property's range sets what "equal" and "close enough" mean.
        private mutating func setTolerances(_ spans: [Span], _ boundaries: [Boundary]) {
            var low = [Double](repeating: .infinity, count: source.dimension)
            var high = [Double](repeating: -.infinity, count: source.dimension)
            func include(_ value: [Double]) {
                for (index, component) in value.enumerated() where index < low.count && component.isFinite {
                    low[index] = min(low[index], component)
                    high[index] = max(high[index], component)
                }
            }
            for boundary in boundaries { include(boundary.value) }
            for span in spans {
                switch span.kind {
                case .constant(let value): include(value)
                case .curve(_, let from, let to): include(from); include(to)
                case .baked:
                    // A few samples are enough to know the scale.
                    for step in 1...8 {
                        include(sample(span.start.toward(span.end, Time(numerator: Int64(step), denominator: 9) ?? .zero)))
                    }
                }
            }
            var range = 0.0, magnitude = 0.0
            for (a, b) in zip(low, high) where a <= b {
                range = max(range, b - a)
                magnitude = max(magnitude, abs(a), abs(b))
            }
            equalTolerance = max(range * 1e-9, magnitude * 1e-14, 1e-12)
            bakeTolerance = max(range * 1e-5, magnitude * 1e-12, 1e-9)
        }

        private mutating func emitSpan(_ span: Span, from start: Instant) throws(KeyframeLimitReached) {
            switch span.kind {
            case .constant(let value):
                try emit(start.seconds, value, nil)
            case .curve(let unit, let from, let to):
                guard start.seconds > span.start.seconds else { return try emit(start.seconds, from, unit) }
                // Start late (after an instant's hold): the rest of the curve, exactly.
                let q0 = (start.seconds - span.start.seconds) / span.length
                let arc = BezierArc(x1: unit.x1, y1: unit.y1, x2: unit.x2, y2: unit.y2)
                let rest = arc.sub(from: arc.parameter(atX: q0), to: 1)
                let value = zip(from, to).map { a, b in a + (b - a) * rest.start.y }
                let tail = BezierArc(GraphPoint(x: q0, y: rest.start.y), rest.points[1], rest.points[2], rest.points[3]).unitForm
                try emit(start.seconds, value, tail ?? UnitBezier.linear)
            case .baked:
                try bake(span, from: start)
            }
        }

        /// Tidied keyframes: a curve between equal values is a hold, holds that
        /// repeat a value go, and one value throughout is a fixed value.
        func result() -> LottieTrack {
            var tidy: [LottieKeyframe] = []
            for (index, key) in keys.enumerated() {
                var key = key
                if index + 1 < keys.count, key.curve != nil, keys[index + 1].value == key.value { key.curve = nil }
                if let last = tidy.last, last.frame == key.frame, last.value == key.value {
                    tidy[tidy.count - 1] = key
                    continue
                }
                // (The last keyframe goes too: a hold lasts to the end.)
                if let last = tidy.last, last.curve == nil, last.value == key.value, key.curve == nil {
                    continue
                }
                tidy.append(key)
            }
            if let first = tidy.first, tidy.allSatisfy({ $0.value == first.value }) { return .fixed(first.value) }
            return .keyed(tidy)
        }
    }
}
