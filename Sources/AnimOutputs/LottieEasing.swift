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
// exactly such Béziers are listed here as *arcs* of their graph (progress p,
// eased E(p)); a piece of a tween is cut out of them exactly (de Casteljau),
// and `steps` are listed as their jumps. Every other curve is baked.

/// A point of an easing's graph: progress `x`, eased progress `y`.
struct GraphPoint: Equatable {
    var x: Double
    var y: Double

    func mixed(with other: GraphPoint, _ t: Double) -> GraphPoint {
        GraphPoint(x: x + (other.x - x) * t, y: y + (other.y - y) * t)
    }
}

/// One cubic Bézier of an easing's graph, its four control points in (p, E)
/// coordinates; `x` never decreases along it.
struct BezierArc: Equatable {
    var points: [GraphPoint]

    init(_ p0: GraphPoint, _ p1: GraphPoint, _ p2: GraphPoint, _ p3: GraphPoint) {
        points = [p0, p1, p2, p3]
    }

    /// A `cubic-bezier(x1, y1, x2, y2)` over the unit square.
    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.init(GraphPoint(x: 0, y: 0), GraphPoint(x: x1, y: y1), GraphPoint(x: x2, y: y2), GraphPoint(x: 1, y: 1))
    }

    /// The same arc over `[x0, x0 + width] × [y0, y0 + height]` instead of the unit square.
    func placed(x0: Double, y0: Double, width: Double, height: Double) -> BezierArc {
        let moved = points.map { GraphPoint(x: x0 + $0.x * width, y: y0 + $0.y * height) }
        return BezierArc(moved[0], moved[1], moved[2], moved[3])
    }

    var start: GraphPoint { points[0] }
    var end: GraphPoint { points[3] }

    func point(at t: Double) -> GraphPoint {
        let a = points[0].mixed(with: points[1], t), b = points[1].mixed(with: points[2], t), c = points[2].mixed(with: points[3], t)
        let d = a.mixed(with: b, t), e = b.mixed(with: c, t)
        return d.mixed(with: e, t)
    }

    /// The parameter at which the arc's abscissa is `x` (x(t) is monotone).
    func parameter(atX x: Double) -> Double {
        if x <= start.x { return 0 }
        if x >= end.x { return 1 }
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if point(at: mid).x < x { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }

    /// The part of the arc between parameters `t0 < t1`, as an arc of its own.
    func sub(from t0: Double, to t1: Double) -> BezierArc {
        // Split at t1, keep the left part, then split that at t0 / t1.
        guard t1 > 0 else { return BezierArc(start, start, start, start) }
        let left = t1 == 1 ? self : split(at: t1).left
        return t0 == 0 ? left : left.split(at: t0 / t1).right
    }

    private func split(at t: Double) -> (left: BezierArc, right: BezierArc) {
        let p = points
        let a = p[0].mixed(with: p[1], t), b = p[1].mixed(with: p[2], t), c = p[2].mixed(with: p[3], t)
        let d = a.mixed(with: b, t), e = b.mixed(with: c, t)
        let m = d.mixed(with: e, t)
        return (BezierArc(p[0], a, d, m), BezierArc(m, e, c, p[3]))
    }

    /// The arc played backwards (its points in the other order).
    var backwards: BezierArc { BezierArc(points[3], points[2], points[1], points[0]) }

    /// The arc as a keyframe easing: its control points normalized so that
    /// it runs from (0, 0) to (1, 1) (it may run leftwards or downwards in
    /// the graph: the normalization flips it). `nil` when its ends share an
    /// ordinate or an abscissa, or a handle's x leaves [0, 1] (players need
    /// x(t) monotone).
    var unitForm: UnitBezier? {
        let dx = end.x - start.x, dy = end.y - start.y
        guard dx != 0, dy != 0, dx.isFinite, dy.isFinite else { return nil }
        let x1 = (points[1].x - start.x) / dx, x2 = (points[2].x - start.x) / dx
        let y1 = (points[1].y - start.y) / dy, y2 = (points[2].y - start.y) / dy
        let slack = 1e-12
        guard x1 >= -slack, x1 <= 1 + slack, x2 >= -slack, x2 <= 1 + slack, y1.isFinite, y2.isFinite else { return nil }
        return UnitBezier(x1: min(max(x1, 0), 1), y1: y1, x2: min(max(x2, 0), 1), y2: y2)
    }

    /// Whether every control point has the same ordinate (the arc is flat).
    var isFlat: Bool { points.allSatisfy { $0.y == start.y } }
}

/// A keyframe easing: `cubic-bezier(x1, y1, x2, y2)` from (0, 0) to (1, 1).
struct UnitBezier: Hashable {
    var x1: Double
    var y1: Double
    var x2: Double
    var y2: Double

    static let linear = UnitBezier(x1: 1.0 / 3, y1: 1.0 / 3, x2: 2.0 / 3, y2: 2.0 / 3)

    /// The least and greatest eased progress along the curve (its ordinate
    /// range over t in [0, 1]): where it overshoots, beyond [0, 1].
    var ordinateRange: ClosedRange<Double> {
        // y(t) = 3(1−t)²t·y1 + 3(1−t)t²·y2 + t³; y'(t)/3 = a t² + b t + c.
        let a = 3 * y1 - 3 * y2 + 1, b = 2 * (y2 - 2 * y1), c = y1
        var candidates: [Double] = [0, 1]
        if abs(a) < 1e-15 {
            if b != 0 { candidates.append(-c / b) }
        } else {
            let discriminant = b * b - 4 * a * c
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                candidates.append((-b + root) / (2 * a))
                candidates.append((-b - root) / (2 * a))
            }
        }
        var low = 0.0, high = 1.0
        for t in candidates where t > 0 && t < 1 {
            let y = 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t
            low = min(low, y)
            high = max(high, y)
        }
        return low...high
    }

    /// The parameter in (0, 1) of the curve's farthest excursion beyond
    /// [0, 1] in ordinate (where it overshoots most); `nil` when it stays inside.
    var extreme: Double? {
        let a = 3 * y1 - 3 * y2 + 1, b = 2 * (y2 - 2 * y1), c = y1
        var roots: [Double] = []
        if abs(a) < 1e-15 {
            if b != 0 { roots.append(-c / b) }
        } else {
            let discriminant = b * b - 4 * a * c
            if discriminant >= 0 {
                roots += [(-b + discriminant.squareRoot()) / (2 * a), (-b - discriminant.squareRoot()) / (2 * a)]
            }
        }
        var best: (Double, Double)?
        for t in roots where t > 0 && t < 1 {
            let y = 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t
            let beyond = max(-y, y - 1)
            if beyond > 0, beyond > best?.1 ?? 0 { best = (t, beyond) }
        }
        return best?.0
    }

    /// The eased progress at `x` (the curve's ordinate where its abscissa is `x`).
    func value(at x: Double) -> Double {
        BezierArc(x1: x1, y1: y1, x2: x2, y2: y2).point(at: BezierArc(x1: x1, y1: y1, x2: x2, y2: y2).parameter(atX: x)).y
    }
}

extension Easing {
    /// The curve as cubic Bézier arcs covering p in [0, 1] in order, when it
    /// is exactly such a curve: `linear`, `cubic-bezier` and the CSS keywords,
    /// Penner's quad, cubic and back (in, out, and in-out as two halves
    /// meeting at (½, ½)), the talk's ease-out(c) for c = 1, 2, 3 and
    /// ease-in(c) for 1/c = 1, 2, 3 (the same polynomials), and mirrors of
    /// those. `nil` for every other curve.
    var bezierArcs: [BezierArc]? {
        switch kind {
        case .linear:
            return [BezierArc(x1: 1.0 / 3, y1: 1.0 / 3, x2: 2.0 / 3, y2: 2.0 / 3)]
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return [BezierArc(x1: x1, y1: y1, x2: x2, y2: y2)]
        case .penner(let curve, let mode):
            // The "in" form of each curve with x handles at 1/3 and 2/3 (so x(t) = t):
            // quad p² = (0, 0, 1/3, 1); cubic p³ = (0, 0, 0, 1);
            // back c3·p³ − c1·p² = (0, 0, −c1/3, 1) in Bernstein ordinates.
            let c1 = 1.70158, c2 = c1 * 1.525
            func inForm(_ back: Double) -> BezierArc? {
                switch curve {
                case .quad: return BezierArc(x1: 1.0 / 3, y1: 0, x2: 2.0 / 3, y2: 1.0 / 3)
                case .cubic: return BezierArc(x1: 1.0 / 3, y1: 0, x2: 2.0 / 3, y2: 0)
                case .back: return BezierArc(x1: 1.0 / 3, y1: 0, x2: 2.0 / 3, y2: -back / 3)
                case .quart, .quint, .sine, .expo, .circ, .elastic, .bounce: return nil
                }
            }
            switch mode {
            case .in:
                return inForm(c1).map { [$0] }
            case .out:
                return inForm(c1).map { [$0.mirroredInUnitSquare] }
            case .inOut:
                // easings.net: the in curve (back with c2) squeezed into the lower
                // left quarter, its mirror into the upper right one.
                guard let half = inForm(c2) else { return nil }
                return [half.placed(x0: 0, y0: 0, width: 0.5, height: 0.5),
                        half.mirroredInUnitSquare.placed(x0: 0.5, y0: 0.5, width: 0.5, height: 0.5)]
            }
        case .easeOut, .easeIn:
            return polynomialForm?.bezierArcs
        case .mirror(let inner):
            // 1 − E(1 − p): each arc turned about (½, ½), in the other order.
            return inner.bezierArcs.map { arcs in arcs.reversed().map(\.turnedAboutCentre) }
        case .easeInOut, .steps, .composed, .spring, .piecewise:
            return nil
        }
    }

    /// The same curve as `linear` or a Penner curve, where the talk's power
    /// curve is a polynomial: ease-out(c) = 1 − (1 − p)^c for c = 1, 2, 3
    /// (linear, quad out, cubic out), ease-in(c) = 1 − (1 − p)^(1/c) when 1/c
    /// is 1, 2 or 3, and mirrors of those (quad in, cubic in). `nil` otherwise.
    var polynomialForm: Easing? {
        let exponent: Double
        switch kind {
        case .easeOut(let c): exponent = c
        case .easeIn(let c): exponent = 1 / c
        case .mirror(let inner): return inner.polynomialForm?.mirrored
        case .linear, .easeInOut, .cubicBezier, .steps, .penner, .spring, .composed, .piecewise: return nil
        }
        switch exponent {
        case 1: return .linear
        case 2: return .penner(.quad, .out)
        case 3: return .penner(.cubic, .out)
        default: return nil
        }
    }

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
    /// a period of a spring's oscillation (`π / (ω_d·T)` in progress, semantics
    /// §6.4), the least of a composition's or mirror's parts; `nil` for curves
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

extension BezierArc {
    /// The arc of `1 − E(1 − p)` over the unit square, for an arc of `E` over it.
    var mirroredInUnitSquare: BezierArc {
        turnedAboutCentre
    }

    /// Every point (x, y) moved to (1 − x, 1 − y), in the other order (so x still grows).
    var turnedAboutCentre: BezierArc {
        let turned = points.reversed().map { GraphPoint(x: 1 - $0.x, y: 1 - $0.y) }
        return BezierArc(turned[0], turned[1], turned[2], turned[3])
    }
}

/// The part of an easing's graph between progress `p0` and `p1` (`p0 > p1`
/// when the piece plays backwards), as arcs in playing order, each cut to
/// its share: what a tween piece becomes in exact keyframes. `nil` when the
/// easing has no Bézier form.
func bezierArcs(of easing: Easing, from p0: Double, to p1: Double) -> [BezierArc]? {
    guard let arcs = easing.bezierArcs else { return nil }
    let low = min(p0, p1), high = max(p0, p1)
    var cut: [BezierArc] = []
    for arc in arcs where arc.end.x > low && arc.start.x < high {
        let t0 = arc.parameter(atX: max(low, arc.start.x))
        let t1 = arc.parameter(atX: min(high, arc.end.x))
        guard t1 > t0 else { continue }
        // Split only where the cut is inside (splitting at an end rounds the points).
        var part = t0 == 0 && t1 == 1 ? arc : arc.sub(from: t0, to: t1)
        // Exact ends: the cut points lie on the curve at the requested progress.
        if low > arc.start.x { part.points[0].x = low }
        if high < arc.end.x { part.points[3].x = high }
        cut.append(part)
    }
    return p0 <= p1 ? cut : cut.reversed().map(\.backwards)
}
