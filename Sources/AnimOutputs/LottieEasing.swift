#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AnimLang
import Animations

// Easings as Lottie can say them: a keyframe's `o`/`i` handles are a cubic
// Bézier from (0, 0) to (1, 1), CSS's `cubic-bezier`. The curves that are
// exactly such Béziers are ``Easing/bezierArcs`` (in Animations, shared
// with CSS); `steps` are listed here as their jumps. Every other curve is baked.

extension Easing {
    /// For `steps` (and mirrors of it, and compositions applied after it):
    /// the progress values where the curve may jump (`k/n`, k = 0…n); `nil`
    /// for a curve that is not piecewise constant.
    var stepJumps: [Double]? {
        switch kind {
        case .steps(let count, _):
            return (0...count).map { Double($0) / Double(count) }
        case .mirror(let inner):
            return inner.stepJumps.map { jumps in jumps.map { 1 - $0 }.reversed() }
        case .composed(_, let inner):
            // outer(inner(p)) is constant wherever the inner curve is.
            return inner.stepJumps
        case .linear, .easeIn, .easeOut, .easeInOut, .cubicBezier, .penner, .spring, .piecewise:
            return nil
        }
    }
}

extension Easing {
    /// The shortest stretch of progress over which the curve turns back: half
    /// a period of a spring's oscillation (`π / (ω_d·T)` in progress,
    /// docs/semantics.md §6.4), the least of a composition's or mirror's parts; `nil` for curves
    /// that do not oscillate. A baker must sample finer than this: samples
    /// spaced wider than it can land in step with the oscillation and show a
    /// smooth curve that is not there.
    var halfOscillation: Double? {
        switch kind {
        case .spring(let spring):
            let zeta = spring.dampingRatio
            guard zeta < 1 else { return nil }
            let turns = (1 - zeta * zeta).squareRoot() * spring.angularFrequency * spring.settlingTime
            return turns > 0 && turns.isFinite ? Double.pi / turns : nil
        case .mirror(let inner):
            return inner.halfOscillation
        case .composed(let outer, let inner):
            switch (outer.halfOscillation, inner.halfOscillation) {
            case (let a?, let b?): return min(a, b)
            case (let a, let b): return a ?? b
            }
        case .linear, .easeIn, .easeOut, .easeInOut, .cubicBezier, .steps, .penner, .piecewise:
            return nil
        }
    }
}

/// How soon each property's value may turn back, for the Lottie baker
/// (``TrackPiece/halfTurn``): the listed segments whose curve oscillates,
/// with half a turn of each in seconds, and those of symbolic repetitions'
/// bodies over each repetition's window (a warp of the clock that speeds a
/// body up is not counted).
struct Turns {
    private var segments: [Property: [(start: Double, end: Double, half: Double)]] = [:]

    init(_ scene: CompiledScene?) {
        for segment in scene?.segments ?? [] {
            guard let half = segment.easing.halfOscillation else { continue }
            let start = segment.start.seconds, end = segment.end.seconds
            segments[segment.property, default: []].append((start, end, half * (end - start)))
        }
        // A repetition kept symbolic: its body's turns, anywhere in its window.
        for block in scene?.blocks ?? [] {
            for (property, inner) in Turns(block.body).segments {
                for segment in inner {
                    segments[property, default: []].append((block.start.seconds, block.end.seconds, segment.half))
                }
            }
        }
    }

    /// Half a turn (seconds) of the fastest oscillating curve that plays in a
    /// piece of `property`: its own curve when one segment plays, else every
    /// oscillating segment of the property that overlaps it (ties, warps);
    /// `nil` when none oscillates.
    func halfTurn(of piece: Piece, _ property: Property) -> Double? {
        switch piece.rule {
        case .hold:
            return nil
        case .tween(_, _, let easing, let p0, let p1):
            guard p1 != p0, let half = easing.halfOscillation else { return nil }
            return half * (piece.end.seconds - piece.start.seconds) / abs(p1 - p0)
        case .sampled:
            let start = piece.start.seconds, end = piece.end.seconds
            var least: Double?
            for segment in segments[property] ?? [] where segment.start < end && start < segment.end {
                least = min(least ?? segment.half, segment.half)
            }
            return least
        }
    }
}
