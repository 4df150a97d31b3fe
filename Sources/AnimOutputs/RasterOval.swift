#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A circle as the browser's rasterizer (Skia) draws it: not the exact
/// curve, but line segments it flattens the curve into, which lie inside
/// the circle between their ends by up to a sixth of a pixel or so — enough
/// to change the colour of most of its edge pixels by more than 8/255.
/// ``Rasterizer`` draws a circle's fill and its hairline outline on these
/// segments, so its pictures agree with the player page's.
///
/// The flattening, in picture pixels (after the view's transform and the
/// stage's zoom): the circle is four quarter conics (weight √½), each cut
/// in halves into `2^k` quadratics until the conic's distance from them is
/// at most ¼ px; then each quadratic into `2^s` lines, `s` from the distance
/// of its middle from its chord, by one rule for fills (an eighth of a pixel)
/// and another for hairlines (a pixel). A fill's vertices are then moved to
/// the nearest quarter pixel down the picture (its analytic coverage works in
/// strips a quarter pixel high); its coverage in a pixel is then the length
/// inside along the middle of each strip, averaged.
struct FlattenedOval {
    /// Fill polygon (vertices on quarter-pixel rows) and hairline polygon, closed, in picture pixels.
    let fill: [(x: Double, y: Double)]
    let hairline: [(x: Double, y: Double)]

    /// The circle of `radius` about the shape's origin, mapped to picture pixels by `picture`.
    init(radius: Double, picture: ((Double, Double)) -> (Double, Double)) {
        var fill: [(x: Double, y: Double)] = []
        var hairline: [(x: Double, y: Double)] = []
        // Four quarters, clockwise on the picture from the rightmost point (y grows downwards).
        for quarter in 0..<4 {
            let start = Double(quarter) * .pi / 2
            let conic = [0.0, 0.5, 1.0].map { fraction -> (Double, Double) in
                fraction == 0.5
                    ? picture((radius * (cos(start) - sin(start)), radius * (sin(start) + cos(start))))
                    : picture((radius * cos(start + fraction * .pi / 2), radius * sin(start + fraction * .pi / 2)))
            }
            let pieces = 1 << FlattenedOval.conicPower(conic)
            for piece in 0..<pieces {
                // A piece of the arc: its ends on the circle, its control where their tangents meet.
                let a = start + Double(piece) * (.pi / 2) / Double(pieces)
                let b = start + Double(piece + 1) * (.pi / 2) / Double(pieces)
                let middle = (a + b) / 2, reach = radius / cos((b - a) / 2)
                let quad = [picture((radius * cos(a), radius * sin(a))), picture((reach * cos(middle), reach * sin(middle))),
                            picture((radius * cos(b), radius * sin(b)))]
                FlattenedOval.append(quad, lines: 1 << FlattenedOval.fillShift(quad), to: &fill)
                FlattenedOval.append(quad, lines: 1 << FlattenedOval.hairlineLevel(quad), to: &hairline)
            }
        }
        self.fill = fill.map { ($0.x, ($0.y * 4).rounded(.toNearestOrAwayFromZero) / 4) }
        self.hairline = hairline
    }

    /// The points of `quad` at `t = i / lines`, `i` from 0 (its last point is the next one's first).
    private static func append(_ quad: [(Double, Double)], lines: Int, to points: inout [(x: Double, y: Double)]) {
        for step in 0..<lines {
            let t = Double(step) / Double(lines), u = 1 - t
            points.append((u * u * quad[0].0 + 2 * u * t * quad[1].0 + t * t * quad[2].0,
                           u * u * quad[0].1 + 2 * u * t * quad[1].1 + t * t * quad[2].1))
        }
    }

    /// How many times a quarter conic is halved into quadratics: until its distance from them, a
    /// quarter of it per halving, is at most ¼ px (at most 5 times).
    private static func conicPower(_ p: [(Double, Double)]) -> Int {
        let weight = 0.5.squareRoot()
        let k = (weight - 1) / (4 * (2 + weight - 1))
        let x = k * (p[0].0 - 2 * p[1].0 + p[2].0), y = k * (p[0].1 - 2 * p[1].1 + p[2].1)
        var error = (x * x + y * y).squareRoot()
        var power = 0
        while power < 5, error > 0.25 {
            error *= 0.25
            power += 1
        }
        return power
    }

    /// The number of halvings of a filled quadratic into lines (1 to 6): from the distance of its
    /// middle from its chord, in 64ths of a quarter pixel, measured roughly (the larger part and
    /// half the smaller), to an eighth of a pixel.
    private static func fillShift(_ p: [(Double, Double)]) -> Int {
        func dot6(_ value: Double) -> Int { Int((value * 4 * 64).rounded(.toNearestOrAwayFromZero)) }
        let dx = abs((2 * dot6(p[1].0) - dot6(p[0].0) - dot6(p[2].0)) >> 2)
        let dy = abs((2 * dot6(p[1].1) - dot6(p[0].1) - dot6(p[2].1)) >> 2)
        let distance = (max(dx, dy) + min(dx, dy) >> 1 + 16) >> 5
        let shift = (distance.bitWidth - distance.leadingZeroBitCount) >> 1
        return min(max(shift, 1), 6)
    }

    /// The number of halvings of a hairline's quadratic into lines (0 to 5): from the distance of
    /// its control point from its chord's middle, in whole pixels rounded up, measured roughly.
    private static func hairlineLevel(_ p: [(Double, Double)]) -> Int {
        let dx = Int(abs((p[0].0 + p[2].0) / 2 - p[1].0).rounded(.up))
        let dy = Int(abs((p[0].1 + p[2].1) / 2 - p[1].1).rounded(.up))
        let distance = max(dx, dy) + min(dx, dy) >> 1
        let level = (33 - (distance == 0 ? 32 : distance.leadingZeroBitCount - (Int.bitWidth - 32))) >> 1
        return min(max(level, 0), 5)
    }

    /// Where the fill polygon crosses the horizontal line at `y`: its leftmost and rightmost
    /// points there (the polygon is convex), or `nil` when it does not reach it.
    func span(at y: Double) -> (left: Double, right: Double)? {
        var left = Double.infinity, right = -Double.infinity
        var previous = fill[fill.count - 1]
        for point in fill {
            if (previous.y <= y) != (point.y <= y) {
                let x = previous.x + (y - previous.y) * (point.x - previous.x) / (point.y - previous.y)
                left = min(left, x)
                right = max(right, x)
            }
            previous = point
        }
        return left <= right ? (left, right) : nil
    }

    /// A hairline's coverage (0–1) of the pixel centred at `(x, y)`: of the segments over its
    /// centre along their major axis, the nearest one's, one minus its distance along the other.
    func hairlineCoverage(x: Double, y: Double) -> Double {
        var best = 0.0
        var previous = hairline[hairline.count - 1]
        for point in hairline {
            let dx = point.x - previous.x, dy = point.y - previous.y
            if abs(dx) >= abs(dy) {
                if dx != 0, min(previous.x, point.x) <= x, x <= max(previous.x, point.x) {
                    best = max(best, 1 - abs(y - (previous.y + (x - previous.x) * dy / dx)))
                }
            } else if min(previous.y, point.y) <= y, y <= max(previous.y, point.y) {
                best = max(best, 1 - abs(x - (previous.x + (y - previous.y) * dx / dy)))
            }
            previous = point
        }
        return best
    }
}
