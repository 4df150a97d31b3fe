#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A timing curve: maps progress in [0, 1] to eased progress, with `E(0) = 0`
/// and `E(1) = 1` for every family except `steps` with `jump-start`/`jump-both`
/// (which, as in CSS, already jump at 0).
///
/// Every easing is a value you can compare, compose and mirror (how the
/// `.anim` language names each one is the language's business):
///
/// ```swift
/// let e = Easing.penner(.back, .out)
/// e(0.5)            // 1.0876975
/// e.isMonotone      // false: it overshoots
/// e.mirrored        // Easing.penner(.back, .in), since 1 − E(1 − p) is the "in" curve
/// Easing.linear.composed(after: e)   // p ↦ linear(e(p))
/// ```
///
/// Families and their defining formulas:
/// * `linear`: `p`.
/// * the talk's curves, parameter `c > 0`: `easeIn(c)(p) = 1 − (1−p)^(1/c)` (default 2),
///   `easeOut(c)(p) = 1 − (1−p)^c` (default 2), `easeInOut(c)(p) = g(p) / (g(p) + g(1−p))`
///   with `g(x) = e^(−c/x)` for `x > 0` and `0` otherwise (default 1).
/// * CSS `cubic-bezier(x1, y1, x2, y2)` with `x1, x2 ∈ [0, 1]`, and the CSS keywords
///   `ease`, `ease-in`, `ease-out`, `ease-in-out` (``ease``, ``cssEaseIn``, …).
/// * CSS `steps(n, position)` as the CSS Easing spec defines it (the "before flag" unset).
/// * the Penner set as easings.net defines it: quad, cubic, quart, quint, sine, expo,
///   circ, back, elastic, bounce, each `in`, `out` and `in-out`.
///
/// Inputs outside [0, 1] only arise when an overshooting curve is composed into
/// another (`x with back` on a tween keeps the overshoot). Each family then uses
/// its formula where it is defined on all reals (polynomials, sine, expo, back,
/// elastic, the talk's `easeInOut`), CSS's tangent extrapolation (`cubic-bezier`)
/// or CSS's rule (`steps`); the others (the talk's `easeIn`/`easeOut`, circ,
/// bounce) clamp the input to [0, 1] first.
public struct Easing: Hashable, Sendable {
    /// Where a `steps` easing puts its jumps (CSS `<step-position>`).
    public enum StepPosition: String, Hashable, Sendable, CaseIterable {
        case jumpStart = "jump-start"
        case jumpEnd = "jump-end"
        case jumpNone = "jump-none"
        case jumpBoth = "jump-both"
    }

    /// The Penner curve families.
    public enum PennerCurve: String, Hashable, Sendable, CaseIterable {
        case quad, cubic, quart, quint, sine, expo, circ, back, elastic, bounce
    }

    /// In, out, or in-out.
    public enum PennerMode: String, Hashable, Sendable, CaseIterable {
        case `in` = "in"
        case out = "out"
        case inOut = "in-out"
    }

    /// The shape of an easing. Build values with the validating factories
    /// (``easeIn(_:)``, ``cubicBezier(_:_:_:_:)``, ``steps(_:_:)``, …), which
    /// keep every parameter in its domain.
    public indirect enum Kind: Hashable, Sendable {
        case linear
        case easeIn(Double)
        case easeOut(Double)
        case easeInOut(Double)
        case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
        case steps(Int, StepPosition)
        case penner(PennerCurve, PennerMode)
        /// `composed(outer, inner)` is `p ↦ outer(inner(p))`; compositions
        /// nest to the right (``composed(after:)`` keeps them so).
        case composed(Easing, Easing)
        /// `p ↦ 1 − E(1 − p)`, for an easing whose mirror is no curve of its
        /// own family (``mirrored`` builds it only then).
        case mirror(Easing)
    }

    /// The family and parameters of this easing.
    public let kind: Kind
    /// How deeply compositions and mirrors nest in this easing: 1 for a plain
    /// curve. Evaluating, comparing and printing an easing recurse this deep,
    /// so ``Scene/eased(_:)`` refuses to nest beyond ``maxDepth``.
    public let depth: Int

    /// The deepest composition ``Scene/eased(_:)`` builds (`x with E1 with E2 …`
    /// through a chain of `let`s); deeper ones throw instead of risking the stack.
    public static let maxDepth = 1024

    private init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .composed(let outer, let inner): depth = max(outer.depth, inner.depth) + 1
        case .mirror(let inner): depth = inner.depth + 1
        case .linear, .easeIn, .easeOut, .easeInOut, .cubicBezier, .steps, .penner: depth = 1
        }
    }

    // MARK: - Factories

    /// `p ↦ p`.
    public static let linear = Easing(.linear)

    /// The talk's ease-in, `1 − (1−p)^(1/c)`; `c` must be positive and finite.
    public static func easeIn(_ c: Double = 2) throws(AnimationError) -> Easing {
        try checkParameter(c, "ease-in")
        return Easing(.easeIn(c))
    }

    /// The talk's ease-out, `1 − (1−p)^c`; `c` must be positive and finite.
    public static func easeOut(_ c: Double = 2) throws(AnimationError) -> Easing {
        try checkParameter(c, "ease-out")
        return Easing(.easeOut(c))
    }

    /// The talk's ease-in-out, `g(p) / (g(p) + g(1−p))`, `g(x) = e^(−c/x)`; `c` must be positive and finite.
    public static func easeInOut(_ c: Double = 1) throws(AnimationError) -> Easing {
        try checkParameter(c, "ease-in-out")
        return Easing(.easeInOut(c))
    }

    private static func checkParameter(_ c: Double, _ name: String) throws(AnimationError) {
        guard c.isFinite else { throw .notFinite("the \(name) parameter") }
        guard c > 0 else { throw .invalidEasing("the \(name) parameter must be positive (got \(formatNumber(c)))") }
    }

    /// CSS `cubic-bezier(x1, y1, x2, y2)`: the curve from (0, 0) to (1, 1) with
    /// control points (x1, y1) and (x2, y2). `x1` and `x2` must lie in [0, 1]
    /// (so the curve is a function of time); all four must be finite.
    public static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws(AnimationError) -> Easing {
        for (value, name) in [(x1, "x1"), (y1, "y1"), (x2, "x2"), (y2, "y2")] where !value.isFinite {
            throw .notFinite("cubic-bezier \(name)")
        }
        for (value, name) in [(x1, "x1"), (x2, "x2")] where !(0...1).contains(value) {
            throw .invalidEasing("cubic-bezier \(name) must be between 0 and 1 (got \(formatNumber(value)))")
        }
        return Easing(.cubicBezier(x1: x1, y1: y1, x2: x2, y2: y2))
    }

    /// CSS `steps(n, position)`: `n ≥ 1`, and `n ≥ 2` for `jump-none`.
    public static func steps(_ count: Int, _ position: StepPosition = .jumpEnd) throws(AnimationError) -> Easing {
        guard count >= 1 else { throw .invalidEasing("steps needs at least 1 step (got \(count))") }
        if position == .jumpNone, count < 2 {
            throw .invalidEasing("steps with jump-none needs at least 2 steps (got \(count))")
        }
        return Easing(.steps(count, position))
    }

    /// A Penner curve as easings.net defines it.
    public static func penner(_ curve: PennerCurve, _ mode: PennerMode) -> Easing {
        Easing(.penner(curve, mode))
    }

    /// The talk's ease-in with its default parameter 2.
    public static let talkEaseIn = Easing(.easeIn(2))
    /// The talk's ease-out with its default parameter 2.
    public static let talkEaseOut = Easing(.easeOut(2))
    /// The talk's ease-in-out with its default parameter 1.
    public static let talkEaseInOut = Easing(.easeInOut(1))

    /// CSS `ease`: `cubic-bezier(0.25, 0.1, 0.25, 1)`.
    public static let ease = Easing(.cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1))
    /// CSS `ease-in`: `cubic-bezier(0.42, 0, 1, 1)`.
    public static let cssEaseIn = Easing(.cubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1))
    /// CSS `ease-out`: `cubic-bezier(0, 0, 0.58, 1)`.
    public static let cssEaseOut = Easing(.cubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1))
    /// CSS `ease-in-out`: `cubic-bezier(0.42, 0, 0.58, 1)`.
    public static let cssEaseInOut = Easing(.cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1))

    /// `p ↦ self(inner(p))`: apply `inner` first. `(x with E1) with E2` is
    /// `x with E1.composed(after: E2)`.
    ///
    /// Law: composition is associative and `linear` is its identity on both
    /// sides. The result is kept in one shape for each composite curve
    /// (factors nested to the right, `linear` dropped), so equal compositions
    /// are equal values: `(a ∘ b) ∘ c == a ∘ (b ∘ c)`.
    public func composed(after inner: Easing) -> Easing {
        if case .linear = kind { return inner }
        if case .linear = inner.kind { return self }
        let factors = self.factors + inner.factors
        var result = factors[factors.count - 1]
        for factor in factors.dropLast().reversed() {
            result = Easing(.composed(factor, result))
        }
        return result
    }

    /// The factors of a composition, outermost first (`[self]` for a plain curve).
    public var factors: [Easing] {
        var parts: [Easing] = []
        var current = self
        while case .composed(let outer, let inner) = current.kind {
            parts.append(outer)
            current = inner
        }
        parts.append(current)
        return parts
    }

    // MARK: - Evaluation

    /// The eased progress at `p`.
    public func callAsFunction(_ p: Double) -> Double {
        switch kind {
        case .linear:
            return p
        case .easeIn(let c):
            let x = clampUnit(p)
            return 1 - pow(1 - x, 1 / c)
        case .easeOut(let c):
            let x = clampUnit(p)
            return 1 - pow(1 - x, c)
        case .easeInOut(let c):
            return talkEaseInOutValue(p, c)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return cubicBezierValue(p, x1, y1, x2, y2)
        case .steps(let count, let position):
            return stepsValue(p, count, position)
        case .penner(let curve, let mode):
            return pennerValue(curve, mode, p)
        case .composed(let outer, let inner):
            return outer(inner(p))
        case .mirror(let inner):
            return 1 - inner(1 - p)
        }
    }

    // MARK: - Properties

    /// Whether the curve never decreases on [0, 1]. Only monotone easings may
    /// warp the time of a composite animation (otherwise time would run backwards).
    public var isMonotone: Bool {
        switch kind {
        case .linear, .easeIn, .easeOut, .easeInOut, .steps:
            return true
        case .cubicBezier(_, let y1, _, let y2):
            // y'(t) is a quadratic in Bernstein form with coefficients
            // (y1, y2 − y1, 1 − y2) (up to the factor 3); it is non-negative on
            // [0, 1] exactly when both end coefficients are, and the middle one
            // is either non-negative or small enough that the minimum stays ≥ 0.
            let c0 = y1, c1 = y2 - y1, c2 = 1 - y2
            guard c0 >= 0, c2 >= 0 else { return false }
            return c1 >= 0 || c1 * c1 <= c0 * c2
        case .penner(let curve, _):
            switch curve {
            case .back, .elastic, .bounce: return false
            case .quad, .cubic, .quart, .quint, .sine, .expo, .circ: return true
            }
        case .composed(let outer, let inner):
            return outer.isMonotone && inner.isMonotone
        case .mirror(let inner):
            return inner.isMonotone
        }
    }

    /// `p ↦ 1 − self(1 − p)`, the curve a reversed tween plays: a curve of
    /// the same family where there is one (Penner in ↔ out, in-out and the
    /// talk's `easeInOut` and `linear` their own; `cubic-bezier(x1, y1, x2, y2)`
    /// ↔ `cubic-bezier(1−x2, 1−y2, 1−x1, 1−y1)`; a composition factor by
    /// factor), otherwise the wrapper ``Kind-swift.enum/mirror(_:)`` (the talk's
    /// `easeIn`/`easeOut`, `steps`). ``hasFamilyMirror`` tells which.
    ///
    /// Law: `mirrored.mirrored == self`. A reversed tween with easing `E` is
    /// the tween with its ends swapped and easing `E.mirrored`.
    public var mirrored: Easing {
        familyMirror ?? Easing(.mirror(self))
    }

    /// Whether ``mirrored`` is a curve of this easing's own family (so a
    /// reversal can be absorbed into a tween without the wrapper).
    public var hasFamilyMirror: Bool { familyMirror != nil }

    private var familyMirror: Easing? {
        switch kind {
        case .linear, .easeInOut:
            return self
        case .easeIn, .easeOut, .steps:
            return nil
        case .cubicBezier(let x1, let y1, let x2, let y2):
            return Easing(.cubicBezier(x1: complement(x2), y1: complement(y2), x2: complement(x1), y2: complement(y1)))
        case .penner(let curve, let mode):
            switch mode {
            case .in: return Easing(.penner(curve, .out))
            case .out: return Easing(.penner(curve, .in))
            case .inOut: return self
            }
        case .composed(let outer, let inner):
            guard let outerMirror = outer.familyMirror, let innerMirror = inner.familyMirror else { return nil }
            return Easing(.composed(outerMirror, innerMirror))
        case .mirror(let inner):
            return inner
        }
    }

    /// The least `p` in [0, 1] with `self(p) ≥ y` (1 when there is none), for a
    /// monotone easing: where a warp maps the start of a window.
    func lowerInverse(_ y: Double) -> Double {
        if case .linear = kind { return clampUnit(y) }
        if self(0) >= y { return 0 }
        if self(1) < y { return 1 }
        // self(0) < y <= self(1)
        return bisectUnit { self($0) >= y }.high
    }

    /// The greatest `p` in [0, 1] with `self(p) ≤ y` (0 when there is none), for a
    /// monotone easing: where a warp maps the end of a window.
    func upperInverse(_ y: Double) -> Double {
        if case .linear = kind { return clampUnit(y) }
        if self(1) <= y { return 1 }
        if self(0) > y { return 0 }
        // self(0) <= y < self(1)
        return bisectUnit { self($0) > y }.low
    }
}

// MARK: - The talk's API

/// The talk's ease-in curve with its default parameter: `1 − (1−p)^(1/2)`.
public let easeIn = Easing.talkEaseIn
/// The talk's ease-out curve with its default parameter: `1 − (1−p)^2`.
public let easeOut = Easing.talkEaseOut
/// The talk's ease-in-out curve with its default parameter: `g(p) / (g(p) + g(1−p))`, `g(x) = e^(−1/x)`.
public let easeInOut = Easing.talkEaseInOut

/// The talk's ease-in with parameter `c`: `1 − (1−p)^(1/c)`.
///
/// Precondition: `c` is positive and finite (``Easing/easeIn(_:)`` throws instead).
public func easeIn(_ c: Double) -> Easing {
    do { return try Easing.easeIn(c) } catch { preconditionFailure("\(error)") }
}

/// The talk's ease-out with parameter `c`: `1 − (1−p)^c`. `easeOut(1.5)` is the talk's "high ease-out".
///
/// Precondition: `c` is positive and finite (``Easing/easeOut(_:)`` throws instead).
public func easeOut(_ c: Double) -> Easing {
    do { return try Easing.easeOut(c) } catch { preconditionFailure("\(error)") }
}

/// The talk's ease-in-out with parameter `c`.
///
/// Precondition: `c` is positive and finite (``Easing/easeInOut(_:)`` throws instead).
public func easeInOut(_ c: Double) -> Easing {
    do { return try Easing.easeInOut(c) } catch { preconditionFailure("\(error)") }
}

// MARK: - Formulas

@inline(__always)
func clampUnit(_ p: Double) -> Double {
    p < 0 ? 0 : (p > 1 ? 1 : p)
}

/// Two neighbouring doubles `low < high` in [0, 1] with `isHigh(low)` false and
/// `isHigh(high)` true, given `isHigh(0)` false and `isHigh(1)` true. The search
/// bisects the bit patterns, which order non-negative doubles as their values,
/// so it ends at adjacent doubles (even near 0) in at most 62 steps.
private func bisectUnit(_ isHigh: (Double) -> Bool) -> (low: Double, high: Double) {
    var low: UInt64 = 0, high = (1.0).bitPattern
    while high - low > 1 {
        let mid = low + (high - low) / 2
        if isHigh(Double(bitPattern: mid)) { high = mid } else { low = mid }
    }
    return (Double(bitPattern: low), Double(bitPattern: high))
}

/// `1 − v` for a mirrored control point, tidied: when the rounded difference is
/// within the subtraction's rounding error of a number with at most 15
/// significant digits (`1 − 0.42` rounds to 0.5800000000000001), that number, so
/// a mirrored keyword is the keyword (`css-ease-in` ↔ `css-ease-out`) and
/// mirroring twice gives back the control points as written.
private func complement(_ v: Double) -> Double {
    let m = 1 - v
    guard m != 0, m.isFinite else { return m }
    let digits = 14 - Int(log10(abs(m)).rounded(.down))   // decimals that keep 15 significant digits
    guard (0...22).contains(digits) else { return m }      // 10^digits is exact up to 10^22
    let scale = pow(10, Double(digits))
    let tidy = (m * scale).rounded() / scale
    return abs(tidy - m) <= max(1, abs(v)).ulp ? tidy : m
}

/// The talk's ease-in-out (Brandon Kase, "Algebraic Animations"):
/// `g(p) / (g(p) + g(1−p))` with `g(x) = e^(−c/x)` for `x > 0` and 0 otherwise,
/// so 0 for `p ≤ 0` and 1 for `p ≥ 1`.
private func talkEaseInOutValue(_ p: Double, _ c: Double) -> Double {
    if p <= 0 { return 0 }
    if p >= 1 { return 1 }
    if c <= 300 {
        let a = exp(-c / p), b = exp(-c / (1 - p))
        return a / (a + b)
    }
    // For steep curves both exponentials underflow; the ratio form does not.
    return 1 / (1 + exp(c / p - c / (1 - p)))
}

/// CSS Easing Functions Level 1, §2.2.1 "Output of a cubic Bézier easing function"
/// (https://www.w3.org/TR/css-easing-1/#cubic-bezier-algo): the y of the point
/// with the given x on the curve from P0 = (0, 0) to P3 = (1, 1). Outside [0, 1]
/// the spec continues the curve with a straight line: below 0 the line through
/// P0 and P1 when x1 > 0, else through P0 and P2 when x2 > 0, else the value 0;
/// above 1 the line through P2 and P3 when x2 < 1, else through P1 and P3 when
/// x1 < 1, else the value 1. (The fallback lines are the spec's choice even
/// when P1 ≠ P0, e.g. `cubic-bezier(0, 0.5, 0.5, 1)`; csswg-drafts issue 4046
/// discusses it, but the published text stands.)
private func cubicBezierValue(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    if x < 0 {
        let slope: Double
        if x1 > 0 { slope = y1 / x1 } else if x2 > 0 { slope = y2 / x2 } else { slope = 0 }
        return slope * x
    }
    if x > 1 {
        let slope: Double
        if x2 < 1 { slope = (1 - y2) / (1 - x2) } else if x1 < 1 { slope = (1 - y1) / (1 - x1) } else { slope = 0 }
        return 1 + slope * (x - 1)
    }
    if x == 0 { return 0 }
    if x == 1 { return 1 }
    // Past the middle, solve on the curve reflected through (½, ½), whose
    // abscissa 1 − x is exact: a flat end of x(t) (x1 = 0 or x2 = 1, where the
    // output is steepest) then always sits at parameter 0, where the polynomial
    // keeps its relative precision.
    if x > 0.5 {
        return 1 - bezierOrdinate(1 - x, 1 - x2, 1 - y2, 1 - x1, 1 - y1)
    }
    return bezierOrdinate(x, x1, y1, x2, y2)
}

/// y at the point with abscissa `x` in (0, ½] of the curve from (0, 0) to (1, 1)
/// with control points (x1, y1), (x2, y2), x1 and x2 in [0, 1].
private func bezierOrdinate(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    // Power-basis coefficients: x(t) = ((ax t + bx) t + cx) t, likewise y(t).
    let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
    let cy = 3 * y1, by = 3 * (y2 - y1) - cy, ay = 1 - cy - by
    let t = bezierParameter(x, ax, bx, cx)
    return ((ay * t + by) * t + cy) * t
}

/// The t in [0, 1] with `((a t + b) t + c) t = x`, for a cubic that never
/// decreases on [0, 1] (true when x1, x2 ∈ [0, 1]) and `0 < x < 1`. Newton's
/// method inside a shrinking bracket, falling back to bisection when a step
/// would leave it; the residual is evaluated with compensated Horner (as if in
/// twice the precision), so the search ends at the double nearest the root even
/// where x(t) is flat (`cubic-bezier(1, 0, 0, 1)` at ½).
private func bezierParameter(_ x: Double, _ a: Double, _ b: Double, _ c: Double) -> Double {
    var low = 0.0, high = 1.0   // x(low) ≤ x ≤ x(high)
    var t = x
    for _ in 0..<200 {
        let residual = compensatedCubic(t, a, b, c, -x)
        if residual == 0 { return t }
        if residual < 0 { low = t } else { high = t }
        let slope = (3 * a * t + 2 * b) * t + c
        var next = t - residual / slope
        if next == t { break }   // Newton's step is below the last bit
        if !(next > low && next < high) {
            next = low + (high - low) / 2   // also when the slope is 0
            if next == low || next == high { break }   // the bracket is two neighbouring doubles
        }
        t = next
    }
    return t
}

/// `((a t + b) t + c) t + d` by compensated Horner (Graillat, Langlois and Louvet,
/// 2005): each rounding error of the plain scheme is recovered exactly with an
/// FMA or a two-sum and added back, giving the accuracy of doubled precision.
@inline(__always)
private func compensatedCubic(_ t: Double, _ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
    var sum = a, error = 0.0
    @inline(__always) func step(_ coefficient: Double) {
        let product = sum * t
        let productError = (-product).addingProduct(sum, t)   // sum·t − product, exactly
        let next = product + coefficient
        let z = next - product
        let sumError = (product - (next - z)) + (coefficient - z)   // two-sum error, exactly
        error = error * t + (productError + sumError)
        sum = next
    }
    step(b)
    step(c)
    step(d)
    return sum + error
}

/// CSS Easing Functions Level 1, §2.3.1 "Output of a step easing function"
/// (https://www.w3.org/TR/css-easing-1/#step-easing-algo), with the before flag
/// unset: at a jump the value is the top of the step. `floor(p × steps)` is taken
/// in double arithmetic, as browsers do: at p = fl(1/3), 3p rounds to exactly 1.
private func stepsValue(_ p: Double, _ count: Int, _ position: Easing.StepPosition) -> Double {
    let steps = Double(count)
    var step = (p * steps).rounded(.down)
    if position == .jumpStart || position == .jumpBoth { step += 1 }
    if p >= 0, step < 0 { step = 0 }
    let jumps: Double
    switch position {
    case .jumpStart, .jumpEnd: jumps = steps
    case .jumpNone: jumps = steps - 1
    case .jumpBoth: jumps = steps + 1
    }
    if p <= 1, step > jumps { step = jumps }
    return step / jumps
}

/// Robert Penner's curves as https://easings.net publishes them (source:
/// github.com/ai/easings.net, `src/easings.yml`): back `c1 = 1.70158`,
/// `c2 = c1 × 1.525`, `c3 = c1 + 1`; elastic `c4 = 2π/3`, `c5 = 2π/4.5`;
/// bounce `n1 = 7.5625`, `d1 = 2.75`.
private func pennerValue(_ curve: Easing.PennerCurve, _ mode: Easing.PennerMode, _ x: Double) -> Double {
    switch curve {
    case .quad: return polynomial(2, mode, x)
    case .cubic: return polynomial(3, mode, x)
    case .quart: return polynomial(4, mode, x)
    case .quint: return polynomial(5, mode, x)
    case .sine:
        switch mode {
        case .in: return 1 - cos(x * Double.pi / 2)
        case .out: return sin(x * Double.pi / 2)
        case .inOut: return -(cos(Double.pi * x) - 1) / 2
        }
    case .expo:
        switch mode {
        case .in: return x == 0 ? 0 : pow(2, 10 * x - 10)
        case .out: return x == 1 ? 1 : 1 - pow(2, -10 * x)
        case .inOut:
            if x == 0 { return 0 }
            if x == 1 { return 1 }
            return x < 0.5 ? pow(2, 20 * x - 10) / 2 : (2 - pow(2, -20 * x + 10)) / 2
        }
    case .circ:
        let x = clampUnit(x)
        switch mode {
        case .in: return 1 - (1 - x * x).squareRoot()
        case .out: return (1 - (x - 1) * (x - 1)).squareRoot()
        case .inOut:
            return x < 0.5
                ? (1 - (1 - (2 * x) * (2 * x)).squareRoot()) / 2
                : ((1 - (-2 * x + 2) * (-2 * x + 2)).squareRoot() + 1) / 2
        }
    case .back:
        let c1 = 1.70158, c2 = c1 * 1.525, c3 = c1 + 1
        switch mode {
        case .in: return c3 * x * x * x - c1 * x * x
        case .out: return 1 + c3 * pow(x - 1, 3) + c1 * pow(x - 1, 2)
        case .inOut:
            return x < 0.5
                ? (pow(2 * x, 2) * ((c2 + 1) * 2 * x - c2)) / 2
                : (pow(2 * x - 2, 2) * ((c2 + 1) * (x * 2 - 2) + c2) + 2) / 2
        }
    case .elastic:
        let c4 = (2 * Double.pi) / 3, c5 = (2 * Double.pi) / 4.5
        if x == 0 { return 0 }
        if x == 1 { return 1 }
        switch mode {
        case .in: return -pow(2, 10 * x - 10) * sin((x * 10 - 10.75) * c4)
        case .out: return pow(2, -10 * x) * sin((x * 10 - 0.75) * c4) + 1
        case .inOut:
            return x < 0.5
                ? -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * c5)) / 2
                : (pow(2, -20 * x + 10) * sin((20 * x - 11.125) * c5)) / 2 + 1
        }
    case .bounce:
        let x = clampUnit(x)
        switch mode {
        case .in: return 1 - bounceOut(1 - x)
        case .out: return bounceOut(x)
        case .inOut: return x < 0.5 ? (1 - bounceOut(1 - 2 * x)) / 2 : (1 + bounceOut(2 * x - 1)) / 2
        }
    }
}

private func polynomial(_ power: Int, _ mode: Easing.PennerMode, _ x: Double) -> Double {
    func raise(_ base: Double) -> Double {
        var result = 1.0
        for _ in 0..<power { result *= base }
        return result
    }
    switch mode {
    case .in: return raise(x)
    case .out: return 1 - raise(1 - x)
    case .inOut:
        // easings.net: 2^(n−1) x^n below one half, 1 − (−2x + 2)^n / 2 above.
        return x < 0.5 ? raise(2) / 2 * raise(x) : 1 - raise(-2 * x + 2) / 2
    }
}

private func bounceOut(_ input: Double) -> Double {
    let n1 = 7.5625, d1 = 2.75
    var x = input
    if x < 1 / d1 {
        return n1 * x * x
    } else if x < 2 / d1 {
        x -= 1.5 / d1
        return n1 * x * x + 0.75
    } else if x < 2.5 / d1 {
        x -= 2.25 / d1
        return n1 * x * x + 0.9375
    } else {
        x -= 2.625 / d1
        return n1 * x * x + 0.984375
    }
}
