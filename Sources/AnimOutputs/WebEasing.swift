import AnimLang
import Animations

/// How an easing reaches CSS (docs/exports.md §2): exactly where CSS has the
/// curve, and as `linear(…)` points within a stated bound everywhere else.
///
/// ```swift
/// cssEasing(of: .cssEaseInOut)                 // .single("ease-in-out")
/// cssEasing(of: .penner(.quad, .in))           // .single("cubic-bezier(0.333…, 0, 0.666…, 0.333…)")
/// cssEasing(of: .penner(.cubic, .inOut))       // .split(first: cubic in, second: cubic out)
/// cssEasing(of: .penner(.elastic, .out))       // nil: approximate it with `LinearCurve`
/// ```
public enum CSSEasing: Equatable, Sendable {
    /// One CSS `<easing-function>` for the whole segment.
    case single(String)
    /// Two, for the halves of the segment's window: the first takes the value
    /// from its start to the middle of its range, the second from there to its end.
    case split(first: String, second: String)
}

/// The exact CSS form of `easing` over a whole segment played forwards, or
/// `nil` when CSS has no such curve.
///
/// * `linear`; `steps(n, jump-…)`; `linear(…)` for a piecewise-linear curve.
/// * Every curve that is exactly a cubic Bézier (``Animations/Easing/bezierArcs``,
///   the same arcs the Lottie export writes as handles): `cubic-bezier` (its
///   keywords `ease`, `ease-in`, `ease-out`, `ease-in-out` by name); Penner
///   quad, cubic and back; the talk's power curves where they are those
///   polynomials (`ease-out` = `1 − (1 − p)²` is quad out); and mirrors of
///   all of these. The in-out forms are an in curve and an out curve on the
///   two halves of the window, meeting at (½, ½), so they `.split`.
///
/// Every other curve (the talk's other power curves, the other Penner
/// families, springs, compositions, mirrors of `steps`) returns `nil`: an
/// exporter approximates it with ``LinearCurve``.
public func cssEasing(of easing: Easing) -> CSSEasing? {
    switch easing.kind {
    case .linear: return .single("linear")
    case .steps(let count, let position): return .single("steps(\(count), \(position.rawValue))")
    case .piecewise(let points): return .single(EasingNames.linearSpelling(points))
    case .easeIn, .easeOut, .easeInOut, .cubicBezier, .penner, .spring, .composed, .mirror: break
    }
    if case .penner(_, .inOut) = easing.kind, let halves = easing.pennerHalves,
       let first = halves.first.unitForm, let second = halves.second.unitForm {
        return .split(first: cssCubicBezier(first), second: cssCubicBezier(second))
    }
    guard let arcs = easing.bezierArcs, arcs.count == 1, let unit = arcs[0].unitForm else { return nil }
    return .single(cssCubicBezier(unit))
}

/// A piece of a tween, progress `p0` to `p1` of `easing` (backwards when
/// `p0 > p1`), as one CSS `cubic-bezier()` from the eased progress at `p0`
/// to the eased progress at `p1`: the part of the curve's one Bézier arc
/// there, cut out exactly (``Animations/bezierArcs(of:from:to:)``, as the
/// Lottie export cuts it). `nil` when the curve has no Bézier form, or the
/// piece crosses from one arc to the next, or the curve is flat there.
func cssEasing(of easing: Easing, from p0: Double, to p1: Double) -> (easing: String, start: Double, end: Double)? {
    // (A part of `linear` is a straight line: the keyframes say it as `linear`.)
    if case .linear = easing.kind { return nil }
    guard let arcs = bezierArcs(of: easing, from: p0, to: p1), arcs.count == 1, let unit = arcs[0].unitForm else { return nil }
    return (cssCubicBezier(unit), arcs[0].start.y, arcs[0].end.y)
}

private func cssCubicBezier(_ curve: UnitBezier) -> String {
    cubicBezierText(curve.x1, curve.y1, curve.x2, curve.y2)
}

/// `ease` and friends by name, else `cubic-bezier(x1, y1, x2, y2)` in shortest form.
private func cubicBezierText(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> String {
    switch (x1, y1, x2, y2) {
    case (0.25, 0.1, 0.25, 1): return "ease"
    case (0.42, 0, 1, 1): return "ease-in"
    case (0, 0, 0.58, 1): return "ease-out"
    case (0.42, 0, 0.58, 1): return "ease-in-out"
    default:
        // Each handle the shortest decimal within 1e-8 (⅓ as 0.33333333): the curve moves by less.
        let handles = [x1, y1, x2, y2].map { cssNumber(Digits.shortest($0, within: 1e-8)) }
        return "cubic-bezier(" + handles.joined(separator: ", ") + ")"
    }
}

/// The CSS curve's output just after 0 and just before 1, as a fraction of
/// the way from the keyframe's value to the next: 0 and 1, except for steps
/// that jump at their start or end (the "before flag" is unset inside an
/// animation's active phase, so `steps(4, jump-start)` shows ¼ at 0).
func cssEasingEnds(_ text: String, of easing: Easing) -> (start: Double, beforeEnd: Double) {
    if case .piecewise = easing.kind { return (easing(0), easing(1.0.nextDown)) }
    guard case .steps(let count, let position) = easing.kind else { return (0, 1) }
    let n = Double(count)
    switch position {
    case .jumpStart: return (1 / n, 1)
    case .jumpEnd: return (0, (n - 1) / n)
    case .jumpNone: return (0, 1)
    case .jumpBoth: return (1 / (n + 1), n / (n + 1))
    }
}

/// A piecewise-linear curve through `points` (input, output), inputs rising
/// from 0 to 1: what CSS `linear(…)` draws. ``approximating(_:tolerance:maximumPoints:)``
/// builds one for any function on [0, 1].
///
/// **The bound.** Between its points the curve is within `tolerance × R` of
/// the function, where `R` is the function's range on [0, 1] (its largest
/// value less its smallest), except at a jump, where no line can follow it:
/// there two points on neighbouring doubles make a step; a jump at 0 or 1 is
/// left out (the curve follows the function's limits there, and the
/// exporter holds the exact value at the breakpoint). With the exporter's tolerance of 1e-4 a
/// property eased by any curve CSS cannot name is off by at most 1e-4 of what
/// it travels over that interval. `EasingCSSTests` checks this on every
/// family CSS cannot name, sampling each curve 200,000 times.
public struct LinearCurve: Equatable, Sendable {
    public var points: [(input: Double, output: Double)]
    /// Whether the bound holds: false when `maximumPoints` ran out first.
    public var isWithinBound: Bool
    /// Where the function jumps: the input just past each jump (its
    /// neighbouring point is the double just before).
    public var jumps: [Double] = []

    /// The exporter's tolerance, relative to the range.
    public static let tolerance = 1e-4
    /// Narrower than this, a change of more than the tolerance is taken for a jump.
    public static let minimumWidth = 1e-10

    public static func == (lhs: LinearCurve, rhs: LinearCurve) -> Bool {
        lhs.isWithinBound == rhs.isWithinBound && lhs.jumps == rhs.jumps && lhs.points.count == rhs.points.count
            && zip(lhs.points, rhs.points).allSatisfy { $0.input == $1.input && $0.output == $1.output }
    }

    /// The curve's value at `x` in [0, 1] (at a jump, the last point's output, as CSS does).
    public func callAsFunction(_ x: Double) -> Double {
        guard let first = points.first else { return 0 }
        if x <= first.input { return first.output }
        var low = 0, high = points.count - 1
        guard x < points[high].input else { return points[high].output }
        // The last point with input ≤ x.
        while high - low > 1 {
            let mid = (low + high) / 2
            if points[mid].input <= x { low = mid } else { high = mid }
        }
        let a = points[low], b = points[low + 1]
        let width = b.input - a.input
        return width > 0 ? a.output + (b.output - a.output) * (x - a.input) / width : b.output
    }

    /// Points of `function` on [0, 1] whose polyline is within `tolerance × R`
    /// of it (see the bound above). Starts from 64 equal intervals and halves
    /// any interval whose line misses the function by more than half the
    /// tolerance at one of 16 interior checks, down to ``minimumWidth``; then
    /// drops every point whose neighbours' line passes within half the
    /// tolerance of it (a straight stretch keeps only its ends).
    public static func approximating(_ function: (Double) -> Double, tolerance: Double = LinearCurve.tolerance,
                                     maximumPoints: Int = 4000) -> LinearCurve {
        let start = 64
        var low = Double.infinity, high = -Double.infinity
        var grid: [Double] = []
        grid.reserveCapacity(start + 1)
        for index in 0...start {
            let value = function(Double(index) / Double(start))
            grid.append(value)
            low = min(low, value)
            high = max(high, value)
        }
        // Denser for the range, so a spike between grid points is counted.
        for index in 0..<(start * 16) {
            let value = function((Double(index) + 0.5) / Double(start * 16))
            low = min(low, value)
            high = max(high, value)
        }
        let range = high - low
        guard range.isFinite, range > 1e-12 * max(abs(low), abs(high)) else {
            return LinearCurve(points: [(0, grid[0]), (1, grid[start])], isWithinBound: range.isFinite, jumps: [])
        }
        // Below a 10¹²th of the values themselves, differences are rounding: no curve to follow.
        let allowed = max(tolerance * range / 2, 1e-12 * max(abs(low), abs(high)))
        var points: [(input: Double, output: Double)] = [(0, grid[0])]
        var within = true
        var jumps: [Double] = []
        // Intervals still to check, the leftmost on top.
        var pending: [(Double, Double, Double, Double)] = []
        for index in stride(from: start - 1, through: 0, by: -1) {
            pending.append((Double(index) / Double(start), grid[index], Double(index + 1) / Double(start), grid[index + 1]))
        }
        let checks = 16
        while let (a, fa, b, fb) = pending.popLast() {
            var worst = 0.0
            for check in 1...checks {
                let x = a + (b - a) * Double(check) / Double(checks + 1)
                let line = fa + (fb - fa) * Double(check) / Double(checks + 1)
                let miss = abs(function(x) - line)
                worst = miss.isNaN ? .infinity : max(worst, miss)
            }
            if b - a <= minimumWidth, worst > allowed {
                // A jump: narrow it to two neighbouring doubles, so that only an
                // input within a rounding error of it can land on the slope.
                var (low, high, fLow, fHigh) = (a, b, fa, fb)
                while high.nextDown > low {
                    let middle = low + (high - low) / 2
                    guard middle > low, middle < high else { break }
                    let value = function(middle)
                    if abs(value - fLow) > abs(fHigh - value) { (high, fHigh) = (middle, value) } else { (low, fLow) = (middle, value) }
                }
                if low > a { points.append((low, fLow)) }
                points.append((high, fHigh))
                if high < b { points.append((b, fb)) }
                jumps.append(high)
                continue
            }
            if worst <= allowed || points.count + pending.count >= maximumPoints {
                if worst > allowed { within = false }
                points.append((b, fb))
                continue
            }
            let middle = a + (b - a) / 2
            let value = function(middle)
            pending.append((middle, value, b, fb))
            pending.append((a, fa, middle, value))
        }
        var kept = simplified(points, allowed: allowed)
        // A jump at either end belongs to the breakpoint there (the exporter holds the
        // breakpoint's own value around it): the curve keeps its limits inside.
        if kept.count >= 3, kept[1].input - kept[0].input <= 2 * minimumWidth {
            kept.removeFirst()
            kept[0].input = 0
            jumps.removeAll { $0 <= 2 * minimumWidth }
        }
        if kept.count >= 3, kept[kept.count - 1].input - kept[kept.count - 2].input <= 2 * minimumWidth {
            kept.removeLast()
            kept[kept.count - 1].input = 1
            jumps.removeAll { $0 >= 1 - 2 * minimumWidth }
        }
        return LinearCurve(points: kept, isWithinBound: within, jumps: jumps)
    }

    /// Drops the points a straight line through their neighbours passes
    /// within `allowed` of: the polyline is within `allowed` of the function,
    /// the simpler one within `allowed` of the polyline at every dropped
    /// vertex (where two polylines differ most), so within twice as much of
    /// the function. Jumps stay: their points are never within reach.
    private static func simplified(_ points: [(input: Double, output: Double)], allowed: Double) -> [(input: Double, output: Double)] {
        guard points.count > 2 else { return points }
        var kept = [points[0]]
        var anchor = 0
        var candidate = 1
        while candidate < points.count - 1 {
            // Can the line from the anchor reach past the candidate?
            let next = candidate + 1
            let a = points[anchor], b = points[next]
            var fits = b.input > a.input
            if fits {
                for index in (anchor + 1)...candidate {
                    let point = points[index]
                    let line = a.output + (b.output - a.output) * (point.input - a.input) / (b.input - a.input)
                    if abs(line - point.output) > allowed {
                        fits = false
                        break
                    }
                }
            }
            if !fits {
                kept.append(points[candidate])
                anchor = candidate
            }
            candidate += 1
        }
        kept.append(points[points.count - 1])
        return kept
    }

    /// `linear(0 0%, 0.25 10%, …, 1 100%)`: every point with its input.
    public var css: String {
        var out = "linear("
        for (index, point) in points.enumerated() {
            if index > 0 { out += ", " }
            // Outputs to 1e-10 (far below the bound); inputs in full, for the widths of jumps.
            out += cssNumber((point.output * 1e10).rounded() / 1e10) + " " + cssNumber(point.input * 100) + "%"
        }
        return out + ")"
    }
}

/// A number as CSS reads it: shortest round-trip digits, never `inf` or `nan`
/// (CSS has no literal for them; the largest finite number stands in).
func cssNumber(_ value: Double) -> String {
    if value.isNaN { return "0" }
    if value.isInfinite { return value > 0 ? "3.4e38" : "-3.4e38" }
    return formatNumber(value == 0 ? 0 : value)
}

/// A curve CSS cannot name, as a few cubic Béziers (docs/exports.md §7):
/// before any `linear(…)` stops, the exporter splits the curve into pieces,
/// each one keyframe with its own `cubic-bezier(x1, y1, x2, y2)` whose
/// handles lie along the function's one-sided slopes at the piece's ends
/// (``tangent(_:from:to:allowed:range:)``): exact at the split points,
/// smooth across them, and kept only where it is within ``LinearCurve``'s
/// bound (half the tolerance times the range) at 48 points inside every
/// piece. A curve that needs more than `maximumPieces` (a jump, a spring's
/// many turns) has none: `nil`.
struct BezierPieces: Equatable, Sendable {
    /// The split points, 0 first and 1 last.
    var inputs: [Double]
    /// The function's values at ``inputs``.
    var outputs: [Double]
    /// One per piece: its `cubic-bezier(…)`, or `linear` for a straight one.
    var easings: [String]

    static func fitting(_ curve: (Double) -> Double, tolerance: Double = LinearCurve.tolerance,
                        maximumPieces: Int = 16) -> BezierPieces? {
        guard maximumPieces >= 1 else { return nil }
        // The limits inside the ends: a curve that jumps at an end (Penner's elastic is 1 at 1 and
        // 1.0005 just before) is fitted to them, and the boundary's keyframes hold the jump (``WebExportBuilder/assemble``).
        func function(_ q: Double) -> Double { curve(min(max(q, 1e-12), 1 - 1e-12)) }
        var low = Double.infinity, high = -Double.infinity
        for index in 0...1024 {
            let value = function(Double(index) / 1024)
            guard value.isFinite else { return nil }
            low = min(low, value)
            high = max(high, value)
        }
        let range = high - low
        guard range > 1e-12 * max(abs(low), abs(high)) else { return nil }
        let allowed = tolerance * range / 2
        var inputs: [Double] = [0], outputs: [Double] = [function(0)], easings: [String] = []
        let steepStart = isVertical(function, atStart: true, range: range)
        let steepEnd = isVertical(function, atStart: false, range: range)
        // From the left, each piece as long as it fits (the longest end found by halving the
        // interval between one that fits and one that does not).
        var a = 0.0
        while a < 1 {
            guard easings.count < maximumPieces else { return nil }
            // A piece at an end where the curve stands vertical (the talk's ease-in at 1, circ)
            // may stand vertical there too (tried only for a piece within a quarter of that end,
            // where such a piece goes: the search is costly); elsewhere, a piece along its slopes.
            func fit(_ b: Double) -> String? {
                tangent(function, from: a, to: b, allowed: allowed, range: range)
                    ?? (a == 0 && b <= 0.25 && steepStart
                        ? vertical(function, from: a, to: b, atStart: true, allowed: allowed, range: range) : nil)
                    ?? (b == 1 && a >= 0.75 && steepEnd
                        ? vertical(function, from: a, to: b, atStart: false, allowed: allowed, range: range) : nil)
            }
            var end = 1.0, easing = fit(1)
            if easing == nil {
                // Twenty halvings place the end within a millionth of what is left: finer moves nothing a browser shows.
                var fits = a, fails = 1.0, found: String?
                for _ in 0..<20 {
                    let middle = fits + (fails - fits) / 2
                    if let text = fit(middle) {
                        (fits, found) = (middle, text)
                    } else {
                        fails = middle
                    }
                }
                guard let found, fits - a > 1e-6 else { return nil }
                (end, easing) = (fits, found)
            }
            inputs.append(end)
            outputs.append(function(end))
            easings.append(easing ?? "linear")
            a = end
        }
        return BezierPieces(inputs: inputs, outputs: outputs, easings: easings)
    }

    /// The piece over `[a, b]` as a `cubic-bezier(x1, y1, x2, y2)` of the
    /// normalized rise whose handles lie along the function's one-sided
    /// slopes at its ends (`y1 = s₀·x1`, `1 − y2 = s₁·(1 − x2)`), so pieces
    /// meet smoothly and each is exact at its ends; `"linear"` for a piece
    /// close to a line; `nil` when it misses the function by more than
    /// `allowed` (or does not rise or fall enough to normalize). The
    /// handles' x come from ``handles`` (the Hermite piece's ⅓ and ⅔ first,
    /// then round numbers): a longer handle follows a curve
    /// that bends late (an exponential's tail) where ⅓ would need more
    /// pieces. `y1` and `y2` are the shortest decimals with which the
    /// written curve stays within `allowed` at 48 points inside the piece.
    private static func tangent(_ function: (Double) -> Double, from a: Double, to b: Double, allowed: Double,
                                range: Double) -> String? {
        let width = b - a, h = width * 1e-6
        let fa = function(a), fb = function(b)
        let rise = fb - fa
        // The function at the probes, each read once for both tests below, and only when asked.
        var known = [Double?](repeating: nil, count: probes.count)
        func value(_ index: Int) -> Double {
            if let value = known[index] { return value }
            let value = function(a + width * probes[index])
            known[index] = value
            return value
        }
        // Nearly flat (the talk's ease-in near its start): a straight line, when it is close enough.
        if probes.indices.allSatisfy({ abs(fa + rise * probes[$0] - value($0)) <= allowed }) { return "linear" }
        guard abs(rise) > 1e-3 * range else { return nil }
        // One-sided slopes inside the piece (three points: exact for a quadratic), in units of
        // the piece's rise per its width.
        let startSlope = (4 * function(a + h) - 3 * fa - function(a + 2 * h)) / (2 * h) * width / rise
        let endSlope = (3 * fb - 4 * function(b - h) + function(b - 2 * h)) / (2 * h) * width / rise
        guard startSlope.isFinite, endSlope.isFinite, abs(startSlope) < 1e6, abs(endSlope) < 1e6 else { return nil }
        // The normalized piece at the probes, most telling first (a bad curve fails at once).
        let bound = allowed / abs(rise)
        let targets = probes.indices.map { (x: probes[$0], y: (value($0) - fa) / rise) }
        func fits(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Bool {
            targets.allSatisfy { abs(bezierY(atX: $0.x, x1: x1, y1: y1, x2: x2, y2: y2) - $0.y) <= bound }
        }
        for (x1, x2) in handles {
            let y1 = startSlope * x1, y2 = 1 - endSlope * (1 - x2)
            guard fits(x1, y1, x2, y2) else { continue }
            // Each handle's rounding moves the curve by at most 4/9 of it: coarser first.
            for slack in [bound / 4, bound / 64] {
                let short1 = Digits.shortest(y1, within: slack), short2 = Digits.shortest(y2, within: slack)
                if fits(x1, short1, x2, short2) {
                    return "cubic-bezier(\(cssNumber(x1)), \(cssNumber(short1)), \(cssNumber(x2)), \(cssNumber(short2)))"
                }
            }
        }
        return nil
    }

    /// Where a piece is checked: 48 points inside it, halves first, then quarters, …
    private static let probes: [Double] = {
        var seen = Set<Int>(), order: [Double] = []
        for step in [24, 12, 6, 3, 1] {
            for index in stride(from: step, through: 48, by: step) where seen.insert(index).inserted {
                order.append(Double(index) / 49)
            }
        }
        return order
    }()

    /// The x of the handles a piece tries: the Hermite piece's ⅓ and ⅔
    /// first (exact for a cubic), then multiples of 0.05 (handles as long
    /// as the piece at most), nearest it first.
    private static let handles: [(Double, Double)] = {
        let grid = (1...20).flatMap { first in (0...19).map { (Double(first) / 20, Double($0) / 20) } }
        func distance(_ pair: (Double, Double)) -> Double { abs(pair.0 - 1.0 / 3) + abs(pair.1 - 2.0 / 3) }
        return [(0.333333, 0.666667)] + grid.sorted { distance($0) < distance($1) }
    }()

    /// Whether `function` stands vertical at its start (or end): its slope
    /// over the last millionth is more than three times its slope over the
    /// last ten-thousandth, and steep (as `1 − √(1 − p)` at 1, whose slope grows
    /// tenfold; a smooth curve's stays about the same).
    private static func isVertical(_ function: (Double) -> Double, atStart: Bool, range: Double) -> Bool {
        let end = atStart ? 0.0 : 1.0, inward = atStart ? 1.0 : -1.0
        let near = abs(function(end + inward * 1e-6) - function(end)) / 1e-6
        let far = abs(function(end + inward * 1e-4) - function(end)) / 1e-4
        return near > 3 * far && near > 100 * range
    }

    /// The piece over `[a, b]` as a Bézier whose tangent at its start (or
    /// end) is vertical, `cubic-bezier(0, y1, ⅔, y2)` (or `cubic-bezier(⅓,
    /// y1, 1, y2)`), or `nil` when it misses the function by more than
    /// `allowed`. Near a vertical end such a curve falls as the square root of
    /// the distance, as the talk's ease-in does; `y2` (or `y1`) is set from
    /// how far the function falls there, then refined by a golden-section
    /// search for the least error. Built for the end; a start is the end of
    /// the mirrored function.
    private static func vertical(_ function: (Double) -> Double, from a: Double, to b: Double, atStart: Bool,
                                 allowed: Double, range: Double) -> String? {
        let width = b - a
        let fa = function(a), fb = function(b)
        let rise = fb - fa
        guard abs(rise) > 1e-3 * range else { return nil }
        // The normalized piece, mirrored when the vertical end is its start: g(0) = 0, g(1) = 1, vertical at 1.
        func g(_ u: Double) -> Double {
            atStart ? 1 - (function(b - width * u) - fa) / rise : (function(a + width * u) - fa) / rise
        }
        let h = 1e-6
        let x1 = 1.0 / 3
        let y1 = (4 * g(h) - 3 * g(0) - g(2 * h)) / (2 * h) * x1
        guard y1.isFinite, abs(y1) < 1e6 else { return nil }
        // 1 − g(1 − d) ≈ k·√d near the end, and the curve's 1 − y ≈ (1 − y2)·√(3 / (1 − x1))·√(1 − x).
        let d = 1e-6
        let k = (1 - g(1 - d)) / d.squareRoot()
        let guess = 1 - k * ((1 - x1) / 3).squareRoot()
        let samples = (1...48).map { Double($0) / 49 }
        func error(_ y2: Double) -> Double {
            samples.reduce(0) { worst, x in max(worst, abs(bezierY(atX: x, x1: x1, y1: y1, x2: 1, y2: y2) - g(x))) }
        }
        // Golden-section search for the least worst error, around the guess.
        var low = guess - 0.5, high = guess + 0.5
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<30 {
            let left = high - ratio * (high - low), right = low + ratio * (high - low)
            if error(left) < error(right) { high = right } else { low = left }
        }
        let y2 = ((low + high) / 2 * 1e7).rounded() / 1e7
        let rounded1 = (y1 * 1e7).rounded() / 1e7
        guard y2.isFinite, error(y2) * abs(rise) <= allowed,
              samples.allSatisfy({ abs(bezierY(atX: $0, x1: x1, y1: rounded1, x2: 1, y2: y2) - g($0)) * abs(rise) <= allowed })
        else { return nil }
        // Mirrored back: (x1, y1, x2, y2) ↦ (1 − x2, 1 − y2, 1 − x1, 1 − y1).
        return atStart ? "cubic-bezier(0, \(cssNumber(1 - y2)), 0.666667, \(cssNumber(1 - rounded1)))"
            : "cubic-bezier(0.333333, \(cssNumber(rounded1)), 1, \(cssNumber(y2)))"
    }

    /// The output of `cubic-bezier(x1, y1, x2, y2)` at input `x` in [0, 1]
    /// (x1, x2 in [0, 1], so the curve's x rises with its parameter): the
    /// parameter by Newton's method from `x`, by halving where that strays.
    static func bezierY(atX x: Double, x1: Double, y1: Double, x2: Double, y2: Double) -> Double {
        func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let s = 1 - t
            return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t
        }
        var t = x
        for _ in 0..<8 {
            let s = 1 - t
            let miss = coordinate(t, x1, x2) - x
            if abs(miss) < 1e-12 { return coordinate(t, y1, y2) }
            let slope = 3 * s * s * x1 + 6 * s * t * (x2 - x1) + 3 * t * t * (1 - x2)
            guard slope > 1e-6 else { break }
            t -= miss / slope
            guard t >= 0, t <= 1 else { break }
        }
        var low = 0.0, high = 1.0
        for _ in 0..<50 {
            let middle = (low + high) / 2
            if coordinate(middle, x1, x2) < x { low = middle } else { high = middle }
        }
        return coordinate((low + high) / 2, y1, y2)
    }
}
