/// Exact cubic-Bézier forms of easing curves: the curves that are exactly
/// such Béziers (`linear`, `cubic-bezier` and its keywords, Penner's quad,
/// cubic and back, the talk's power curves where they are those polynomials,
/// and mirrors of all of these) listed as *arcs* of their graph (progress p,
/// eased E(p)), with the means to cut a piece out of them exactly (de
/// Casteljau). Every output that can say a cubic Bézier (CSS
/// `cubic-bezier()`, Lottie's `o`/`i` handles) takes them from here, so the
/// outputs agree on which curves are exact.

/// A point of an easing's graph: progress `x`, eased progress `y`.
package struct GraphPoint: Equatable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    package func mixed(with other: GraphPoint, _ t: Double) -> GraphPoint {
        GraphPoint(x: x + (other.x - x) * t, y: y + (other.y - y) * t)
    }
}

/// One cubic Bézier of an easing's graph, its four control points in (p, E)
/// coordinates; `x` never decreases along it.
package struct BezierArc: Equatable {
    package var points: [GraphPoint]

    package init(_ p0: GraphPoint, _ p1: GraphPoint, _ p2: GraphPoint, _ p3: GraphPoint) {
        points = [p0, p1, p2, p3]
    }

    /// A `cubic-bezier(x1, y1, x2, y2)` over the unit square.
    package init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.init(GraphPoint(x: 0, y: 0), GraphPoint(x: x1, y: y1), GraphPoint(x: x2, y: y2), GraphPoint(x: 1, y: 1))
    }

    /// The same arc over `[x0, x0 + width] × [y0, y0 + height]` instead of the unit square.
    package func placed(x0: Double, y0: Double, width: Double, height: Double) -> BezierArc {
        let moved = points.map { GraphPoint(x: x0 + $0.x * width, y: y0 + $0.y * height) }
        return BezierArc(moved[0], moved[1], moved[2], moved[3])
    }

    package var start: GraphPoint { points[0] }
    package var end: GraphPoint { points[3] }

    package func point(at t: Double) -> GraphPoint {
        let a = points[0].mixed(with: points[1], t), b = points[1].mixed(with: points[2], t), c = points[2].mixed(with: points[3], t)
        let d = a.mixed(with: b, t), e = b.mixed(with: c, t)
        return d.mixed(with: e, t)
    }

    /// The parameter at which the arc's abscissa is `x` (x(t) is monotone).
    package func parameter(atX x: Double) -> Double {
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
    package func sub(from t0: Double, to t1: Double) -> BezierArc {
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
    package var backwards: BezierArc { BezierArc(points[3], points[2], points[1], points[0]) }

    /// The arc as a keyframe easing: its control points normalized so that
    /// it runs from (0, 0) to (1, 1) (it may run leftwards or downwards in
    /// the graph: the normalization flips it). `nil` when its ends share an
    /// ordinate or an abscissa, or a handle's x leaves [0, 1] (players need
    /// x(t) monotone).
    package var unitForm: UnitBezier? {
        let dx = end.x - start.x, dy = end.y - start.y
        guard dx != 0, dy != 0, dx.isFinite, dy.isFinite else { return nil }
        let x1 = (points[1].x - start.x) / dx, x2 = (points[2].x - start.x) / dx
        let y1 = (points[1].y - start.y) / dy, y2 = (points[2].y - start.y) / dy
        let slack = 1e-12
        guard x1 >= -slack, x1 <= 1 + slack, x2 >= -slack, x2 <= 1 + slack, y1.isFinite, y2.isFinite else { return nil }
        return UnitBezier(x1: min(max(x1, 0), 1), y1: y1, x2: min(max(x2, 0), 1), y2: y2)
    }

    /// Whether every control point has the same ordinate (the arc is flat).
    package var isFlat: Bool { points.allSatisfy { $0.y == start.y } }
}

/// A keyframe easing: `cubic-bezier(x1, y1, x2, y2)` from (0, 0) to (1, 1).
package struct UnitBezier: Hashable {
    package var x1: Double
    package var y1: Double
    package var x2: Double
    package var y2: Double

    package init(x1: Double, y1: Double, x2: Double, y2: Double) {
        (self.x1, self.y1, self.x2, self.y2) = (x1, y1, x2, y2)
    }

    package static let linear = UnitBezier(x1: 1.0 / 3, y1: 1.0 / 3, x2: 2.0 / 3, y2: 2.0 / 3)

    /// The least and greatest eased progress along the curve (its ordinate
    /// range over t in [0, 1]): where it overshoots, beyond [0, 1].
    package var ordinateRange: ClosedRange<Double> {
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
    package var extreme: Double? {
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
    package func value(at x: Double) -> Double {
        BezierArc(x1: x1, y1: y1, x2: x2, y2: y2).point(at: BezierArc(x1: x1, y1: y1, x2: x2, y2: y2).parameter(atX: x)).y
    }
}

extension Easing {
    /// The curve as cubic Bézier arcs covering p in [0, 1] in order, when it
    /// is exactly such a curve: `linear`, `cubic-bezier` and the CSS keywords,
    /// Penner's quad, cubic and back (in, out, and in-out as two halves
    /// meeting at (½, ½)), the talk's ease-out(c) for c = 1, 2, 3 and
    /// ease-in(c) for 1/c = 1, 2, 3 (the same polynomials), and mirrors of
    /// those, and the talk's root curves (``rootArc``: its ease-in among
    /// them). `nil` for every other curve.
    package var bezierArcs: [BezierArc]? {
        switch kind {
        case .linear:
            return [BezierArc(x1: 1.0 / 3, y1: 1.0 / 3, x2: 2.0 / 3, y2: 2.0 / 3)]
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return [BezierArc(x1: x1, y1: y1, x2: x2, y2: y2)]
        case .penner(_, let mode):
            guard let halves = pennerHalves else { return nil }
            switch mode {
            case .in: return [halves.first]
            case .out: return [halves.second]
            case .inOut:
                // easings.net: the in curve squeezed into the lower left quarter, the out curve into the upper right one.
                return [halves.first.placed(x0: 0, y0: 0, width: 0.5, height: 0.5),
                        halves.second.placed(x0: 0.5, y0: 0.5, width: 0.5, height: 0.5)]
            }
        case .easeOut, .easeIn:
            return polynomialForm?.bezierArcs ?? rootArc.map { [$0] }
        case .mirror(let inner):
            // A polynomial's mirror is a Penner curve (exact handles); else 1 − E(1 − p): each arc turned about (½, ½), in the other order.
            if let form = polynomialForm { return form.bezierArcs }
            return inner.bezierArcs.map { arcs in arcs.reversed().map(\.turnedAboutCentre) }
        case .easeInOut, .steps, .composed, .spring, .piecewise:
            return nil
        }
    }

    /// A Penner curve that is cubic Béziers (quad, cubic, back) as its in
    /// form and its out form over the unit square, x handles at 1/3 and 2/3
    /// (so x(t) = t and y(t) is the curve's own polynomial in Bernstein
    /// form): `y = t²` is `(0, 1/3)`, `y = t³` is `(0, 0)`, back-in
    /// `y = (c + 1)t³ − c·t²` is `(0, −c/3)` (c = 1.70158, for in-out
    /// 1.70158 × 1.525); the out form is the in form turned about (½, ½).
    /// An in-out curve is the two on the halves of its window. `nil` for
    /// every other curve.
    package var pennerHalves: (first: BezierArc, second: BezierArc)? {
        guard case .penner(let curve, let mode) = kind else { return nil }
        let back = mode == .inOut ? 1.70158 * 1.525 : 1.70158
        let third = 1.0 / 3, twoThirds = 2.0 / 3
        let y: (Double, Double)
        switch curve {
        case .quad: y = (0, third)
        case .cubic: y = (0, 0)
        case .back: y = (0, -back / 3)
        case .quart, .quint, .sine, .expo, .circ, .elastic, .bounce: return nil
        }
        return (BezierArc(x1: third, y1: y.0, x2: twoThirds, y2: y.1), BezierArc(x1: third, y1: 1 - y.1, x2: twoThirds, y2: 1 - y.0))
    }

    /// The same curve as `linear` or a Penner curve, where the talk's power
    /// curve is a polynomial: ease-out(c) = 1 − (1 − p)^c for c = 1, 2, 3
    /// (linear, quad out, cubic out), ease-in(c) = 1 − (1 − p)^(1/c) when 1/c
    /// is 1, 2 or 3, and mirrors of those (quad in, cubic in). `nil` otherwise.
    package var polynomialForm: Easing? {
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
}

extension Easing {
    /// The talk's power curve where it is a root, 1 − (1 − p)^(1/n) for
    /// n = 2 or 3 (ease-in(2), the talk's ease-in, and ease-in(3); the same
    /// as ease-out(1/2) and ease-out(1/3)), as one cubic Bézier. It inverts
    /// the polynomial p = 1 − (1 − y)ⁿ, so with y itself as the parameter s
    /// its graph is (1 − (1 − s)ⁿ, s). In the cubic Bernstein basis
    /// B0…B3, (1 − s)² = B0 + B1/3 and (1 − s)³ = B0, so x is
    /// (0, 2/3, 1, 1) for n = 2 and (0, 1, 1, 1) for n = 3, and y = s is
    /// (0, 1/3, 2/3, 1): `cubic-bezier(2/3, 1/3, 1, 2/3)` and
    /// `cubic-bezier(1, 1/3, 1, 2/3)`, vertical at p = 1. `nil` otherwise.
    package var rootArc: BezierArc? {
        let exponent: Double
        switch kind {
        case .easeOut(let c): exponent = c
        case .easeIn(let c): exponent = 1 / c
        case .linear, .easeInOut, .cubicBezier, .steps, .penner, .mirror, .spring, .composed, .piecewise: return nil
        }
        switch exponent {
        case 1.0 / 2: return BezierArc(x1: 2.0 / 3, y1: 1.0 / 3, x2: 1, y2: 2.0 / 3)
        case 1.0 / 3: return BezierArc(x1: 1, y1: 1.0 / 3, x2: 1, y2: 2.0 / 3)
        default: return nil
        }
    }
}

extension BezierArc {
    /// Every point (x, y) moved to (1 − x, 1 − y), in the other order (so x still grows).
    package var turnedAboutCentre: BezierArc {
        let turned = points.reversed().map { GraphPoint(x: 1 - $0.x, y: 1 - $0.y) }
        return BezierArc(turned[0], turned[1], turned[2], turned[3])
    }
}

/// The part of an easing's graph between progress `p0` and `p1` (`p0 > p1`
/// when the piece plays backwards), as arcs in playing order, each cut to
/// its share: what a tween piece becomes in exact keyframes. `nil` when the
/// easing has no Bézier form.
package func bezierArcs(of easing: Easing, from p0: Double, to p1: Double) -> [BezierArc]? {
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
