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
/// * springs (``Spring``): the damped oscillator released at 0 and pulled to 1,
///   its whole settling fitted into [0, 1]: `E(p) = x(p·T)` for `p < 1`, `E(1) = 1`.
///
/// Inputs outside [0, 1] only arise when an overshooting curve is composed into
/// another (`x with back` on a tween keeps the overshoot). Each family then uses
/// its formula where it is defined on all reals (polynomials, sine, expo, back,
/// elastic, the talk's `easeInOut`), CSS's tangent extrapolation (`cubic-bezier`)
/// or CSS's rule (`steps`); the others (the talk's `easeIn`/`easeOut`, circ,
/// bounce, springs) clamp the input to [0, 1] first.
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
        /// A damped spring (``Spring``); build it with ``Easing/spring(dampingRatio:angularFrequency:velocity:)``,
        /// ``Easing/spring(bounce:)`` or ``Easing/spring(stiffness:damping:mass:velocity:)``.
        case spring(Spring)
        /// `composed(outer, inner)` is `p ↦ outer(inner(p))`; compositions
        /// nest to the right (``composed(after:)`` keeps them so).
        case composed(Easing, Easing)
        /// `p ↦ 1 − E(1 − p)`, for an easing whose mirror is no curve of its
        /// own family (``mirrored`` builds it only then).
        case mirror(Easing)
        /// CSS `linear(…)`: straight lines through its points, inputs never
        /// decreasing (two equal inputs are a jump); build it with ``linearPoints(_:)``.
        case piecewise([LinearPoint])
    }

    /// A point of a CSS `linear(…)` easing: where the input reaches it, and its output.
    public struct LinearPoint: Hashable, Sendable {
        public let input: Double
        public let output: Double
        public init(input: Double, output: Double) {
            self.input = input
            self.output = output
        }
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
        case .linear, .easeIn, .easeOut, .easeInOut, .cubicBezier, .steps, .penner, .spring, .piecewise: depth = 1
        }
    }

    /// CSS `linear(…)` (CSS Easing Functions Level 2, "linear easing
    /// functions"), from its stops: each an output with no, one or two inputs
    /// (fractions: 0.75 for `75%`); two make two points of one output. The
    /// first point's input defaults to 0 and the last's to 1; an input below
    /// an earlier one is raised to it; points with none are spread evenly
    /// between the inputs around them. Throws for fewer than two stops, more
    /// than two inputs on a stop, or a number that is not finite.
    public static func linearPoints(_ stops: [(output: Double, inputs: [Double])]) throws(AnimationError) -> Easing {
        guard stops.count >= 2 else { throw .invalidEasing("linear(…) needs at least 2 points (got \(stops.count))") }
        var outputs: [Double] = []
        var inputs: [Double?] = []
        for stop in stops {
            guard stop.output.isFinite, stop.inputs.allSatisfy(\.isFinite) else {
                throw .invalidEasing("linear(…) takes finite numbers")
            }
            guard stop.inputs.count <= 2 else { throw .invalidEasing("a point of linear(…) takes at most 2 inputs") }
            if stop.inputs.isEmpty {
                outputs.append(stop.output)
                inputs.append(nil)
            }
            for input in stop.inputs {
                outputs.append(stop.output)
                inputs.append(input)
            }
        }
        if inputs[0] == nil { inputs[0] = 0 }
        if inputs[inputs.count - 1] == nil { inputs[inputs.count - 1] = max(1, inputs.compactMap { $0 }.max() ?? 1) }
        var largest = -Double.infinity
        for index in inputs.indices {
            if let input = inputs[index] {
                largest = max(largest, input)
                inputs[index] = largest
            }
        }
        var index = 0
        while index < inputs.count {
            guard inputs[index] == nil, let before = inputs[index - 1] else {
                index += 1
                continue
            }
            var end = index
            while inputs[end] == nil { end += 1 }
            let after = inputs[end] ?? before
            let gaps = Double(end - index + 1)
            for missing in index..<end { inputs[missing] = before + (after - before) * Double(missing - index + 1) / gaps }
            index = end
        }
        return Easing(.piecewise(zip(inputs, outputs).map { LinearPoint(input: $0 ?? 0, output: $1) }))
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

    /// A spring with damping ratio `ζ = dampingRatio` and angular frequency
    /// `ω = angularFrequency` (rad/s), starting with velocity `v = velocity`
    /// (see ``Spring``). `ζ` and `ω` must be positive and finite, `v` finite,
    /// and the settling time finite: `ζ = 0` never settles.
    public static func spring(dampingRatio: Double, angularFrequency: Double = 1, velocity: Double = 0) throws(AnimationError) -> Easing {
        Easing(.spring(try Spring(dampingRatio: dampingRatio, angularFrequency: angularFrequency, velocity: velocity)))
    }

    /// SwiftUI's `Spring(duration:bounce:)` shape, `−1 < bounce < 1`: damping
    /// ratio `1 − bounce` for `bounce ≥ 0`, `1 / (1 + bounce)` below (see
    /// ``Spring/dampingRatio(bounce:)``); `ω = 1`, `v = 0`. `bounce` 1 would
    /// have no damping and never settle.
    public static func spring(bounce: Double) throws(AnimationError) -> Easing {
        guard bounce.isFinite else { throw .notFinite("the spring bounce") }
        if bounce == 1 { throw .invalidEasing("a spring with bounce 1 has no damping and never settles") }
        guard bounce > -1, bounce < 1 else {
            throw .invalidEasing("spring bounce must be greater than -1 and less than 1 (got \(formatNumber(bounce)))")
        }
        return try spring(dampingRatio: Spring.dampingRatio(bounce: bounce))
    }

    /// A mass `mass` on a spring of stiffness `stiffness` with damping
    /// coefficient `damping`, starting with velocity `velocity`:
    /// `ζ = damping / (2√(stiffness·mass))`, `ω = √(stiffness/mass)`, `v = velocity`
    /// (see ``Spring/parameters(stiffness:damping:mass:velocity:)``). Stiffness
    /// and mass must be positive, damping positive (0 never settles), all finite.
    public static func spring(stiffness: Double, damping: Double, mass: Double, velocity: Double) throws(AnimationError) -> Easing {
        for (value, name) in [(stiffness, "stiffness"), (damping, "damping"), (mass, "mass"), (velocity, "velocity")]
        where !value.isFinite {
            throw .notFinite("the spring \(name)")
        }
        for (value, name) in [(stiffness, "stiffness"), (mass, "mass")] where !(value > 0) {
            throw .invalidEasing("spring \(name) must be positive (got \(formatNumber(value)))")
        }
        guard damping >= 0 else { throw .invalidEasing("spring damping must not be negative (got \(formatNumber(damping)))") }
        guard damping > 0 else { throw .invalidEasing("a spring with no damping never settles") }
        let p = Spring.parameters(stiffness: stiffness, damping: damping, mass: mass, velocity: velocity)
        guard p.dampingRatio > 0 else {
            throw .invalidEasing("this spring's damping is too small next to its stiffness and mass for it to settle")
        }
        return try spring(dampingRatio: p.dampingRatio, angularFrequency: p.angularFrequency, velocity: p.velocity)
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
        case .spring(let spring):
            return spring.progress(p)
        case .composed(let outer, let inner):
            return outer(inner(p))
        case .mirror(let inner):
            return 1 - inner(1 - p)
        case .piecewise(let points):
            return piecewiseValue(p, points)
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
        case .spring:
            // docs/semantics.md §6.4: every spring counts as overshooting, even the
            // critically damped ones that do not (the rule stays one word long).
            return false
        case .composed(let outer, let inner):
            return outer.isMonotone && inner.isMonotone
        case .mirror(let inner):
            return inner.isMonotone
        case .piecewise(let points):
            return zip(points, points.dropFirst()).allSatisfy { $0.output <= $1.output }
        }
    }

    /// `p ↦ 1 − self(1 − p)`, the curve a reversed tween plays: a curve of
    /// the same family where there is one (Penner in ↔ out, in-out and the
    /// talk's `easeInOut` and `linear` their own; `cubic-bezier(x1, y1, x2, y2)`
    /// ↔ `cubic-bezier(1−x2, 1−y2, 1−x1, 1−y1)`; a composition factor by
    /// factor), otherwise the wrapper ``Kind-swift.enum/mirror(_:)`` (the talk's
    /// `easeIn`/`easeOut`, `steps`, springs). ``hasFamilyMirror`` tells which.
    ///
    /// Law: `mirrored.mirrored == self`. A reversed tween with easing `E` is
    /// the tween with its ends swapped and easing `E.mirrored`.
    public var mirrored: Easing {
        familyMirror ?? Easing(.mirror(self))
    }

    /// Whether ``mirrored`` is a curve of this easing's own family (so a
    /// reversal can be absorbed into a tween without the wrapper).
    public var hasFamilyMirror: Bool { familyMirror != nil }

    /// Whether this is the plain `linear` curve (`E(p) = p`).
    var isLinear: Bool {
        if case .linear = kind { return true }
        return false
    }

    private var familyMirror: Easing? {
        switch kind {
        case .linear, .easeInOut:
            return self
        case .easeIn, .easeOut, .steps, .spring, .piecewise:
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

    /// The least `p` in [0, 1] with `self(p) ≥ y` (1 when there is none), for
    /// any easing: where a warp moves an event (docs/semantics.md §6.5: the least `t'`
    /// with `D·E(t'/D) ≥ t`). A monotone curve is bisected, and a continuous
    /// one reaches 1 only at 1; a curve that is not monotone is scanned on a
    /// grid of 4096 steps for the first sample that reaches `y`, and the
    /// crossing bisected between it and the sample before (so an excursion
    /// narrower than a step can be missed).
    func leastPreimage(_ y: Double) -> Double {
        if case .linear = kind { return clampUnit(y) }
        if self(0) >= y { return 0 }
        if isMonotone {
            if y >= 1, isContinuous { return 1 }
            return lowerInverse(y)
        }
        let steps = 4096
        var before = 0.0
        for index in 1...steps {
            let p = Double(index) / Double(steps)
            if self(p) >= y {
                var low = before.bitPattern, high = p.bitPattern
                while high - low > 1 {
                    let mid = low + (high - low) / 2
                    if self(Double(bitPattern: mid)) >= y { high = mid } else { low = mid }
                }
                return Double(bitPattern: high)
            }
            before = p
        }
        return 1
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
/// with the given x on the curve from P0 = (0, 0) to P3 = (1, 1).
///
/// Outside [0, 1] (a composed easing reads it there) the curve continues as a
/// straight line along its tangent at the end, as browsers draw it (Chromium's
/// `gfx::CubicBezier::InitGradients`; Gecko's `ComputedTimingFunction` agrees):
/// below 0 the slope is y1/x1 when x1 > 0; else, when P1 = P0, y2/x2 when
/// x2 > 0, or 1 when P2 is at P0 too (the curve is the diagonal); else the
/// tangent is vertical and the line flat (slope 0). Above 1 likewise with
/// (1 − y2)/(1 − x2), (1 − y1)/(1 − x1) when P2 = P3, and 1. The spec's text
/// instead falls back to the far control point whenever x1 = 0 (or x2 = 1),
/// even when P1 ≠ P0 (csswg-drafts issue 4046); animc plays what browsers
/// play, so an exported `cubic-bezier` shows what `animc eval` prints.
private func cubicBezierValue(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    if x < 0 {
        let slope: Double
        if x1 > 0 { slope = y1 / x1 } else if y1 == 0, x2 > 0 { slope = y2 / x2 } else if y1 == 0, y2 == 0 { slope = 1 } else { slope = 0 }
        return slope * x
    }
    if x > 1 {
        let slope: Double
        if x2 < 1 {
            slope = (1 - y2) / (1 - x2)
        } else if y2 == 1, x1 < 1 {
            slope = (1 - y1) / (1 - x1)
        } else if y2 == 1, y1 == 1 {
            slope = 1
        } else {
            slope = 0
        }
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

/// CSS Easing Functions Level 2, "output of a linear easing function": the
/// points A and B are the last point whose input is at most `x` (the first
/// when there is none) and the one after it (the last two when A is the
/// last), so outside the points the first or last line continues; at equal
/// inputs (a jump) the later point's output.
private func piecewiseValue(_ x: Double, _ points: [Easing.LinearPoint]) -> Double {
    var low = 0, high = points.count - 1
    // The last point with input ≤ x, by bisection (inputs never decrease).
    var a = 0
    if x >= points[0].input {
        while low < high {
            let mid = (low + high + 1) / 2
            if points[mid].input <= x { low = mid } else { high = mid - 1 }
        }
        a = low
    }
    if a == points.count - 1 { a -= 1 }
    let pointA = points[a], pointB = points[a + 1]
    if pointA.input == pointB.input { return pointB.output }
    let progress = (x - pointA.input) / (pointB.input - pointA.input)
    return pointA.output + (pointB.output - pointA.output) * progress
}

/// Robert Penner's curves as https://easings.net publishes them (source:
/// github.com/ai/easings.net, `src/easings.yml`): back `c1 = 1.70158`,
/// `c2 = c1 × 1.525`, `c3 = c1 + 1`; elastic `c4 = 2π/3`, `c5 = 2π/4.5`;
/// bounce `n1 = 7.5625`, `d1 = 2.75`.
///
/// The ends are exact, as the formulas are on paper: 0 at 0 and 1 at 1 (in
/// doubles `c3 − c1` is 0.9999999999999998 and `1 − cos(π/2)` 0.9999999999999999),
/// and every in-out curve, point-symmetric about (½, ½), gives exactly ½ at ½.
private func pennerValue(_ curve: Easing.PennerCurve, _ mode: Easing.PennerMode, _ x: Double) -> Double {
    if x == 0 { return 0 }
    if x == 1 { return 1 }
    if x == 0.5, mode == .inOut { return 0.5 }
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
        case .in: return pow(2, 10 * x - 10)
        case .out: return 1 - pow(2, -10 * x)
        case .inOut:
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

// MARK: - Springs

extension Easing {
    /// A damped spring as an easing (docs/semantics.md §6.4): the motion of
    ///
    ///     x'' + 2ζω·x' + ω²(x − 1) = 0,   x(0) = 0,   x'(0) = v
    ///
    /// with damping ratio `ζ` (``dampingRatio``), angular frequency `ω` in rad/s
    /// (``angularFrequency``) and initial velocity `v` (``velocity``):
    ///
    /// * `ζ < 1`: `x(t) = 1 − e^(−ζωt)·(cos(ω_d t) + ((ζω − v)/ω_d)·sin(ω_d t))`, `ω_d = ω√(1 − ζ²)`;
    /// * `ζ = 1`: `x(t) = 1 − e^(−ωt)·(1 + (ω − v)·t)`;
    /// * `ζ > 1`: `x(t) = 1 − (A·e^(r1 t) + B·e^(r2 t))`, `r1,2 = −ω(ζ ∓ √(ζ² − 1))`,
    ///   `A = (−v − r2)/(r1 − r2)`, `B = 1 − A`.
    ///
    /// Its settling time `T` (``settlingTime``) is the least `t` after which the
    /// envelope of `|x − 1|` (``envelope(at:)``) stays within ε = 0.001
    /// (``settlingThreshold``): in closed form for `ζ < 1`, and for `ζ ≥ 1` the
    /// largest root of `|A|e^(r1 t) + |B|e^(r2 t) = ε` (`ζ = 1`:
    /// `e^(−ωt)(1 + |ω − v|·t) = ε`), found by bisection to neighbouring
    /// doubles (far inside the 1e-12 relative the note asks for).
    ///
    /// As an easing, the whole settling is fitted into [0, 1]: `E(p) = x(p·T)`
    /// for `0 ≤ p < 1` and `E(1) = 1` (a step of at most ε at the end). An input
    /// outside [0, 1], which only composing an overshooting curve into a spring
    /// produces, is clamped first: below 0 the spring has not been released
    /// (0), above 1 it has come to rest (1).
    ///
    /// The curve depends only on `ζ` and `v/ω` (`ω` scales time, and `T` with
    /// it), but a spring is the value `(ζ, ω, v)`: springs are equal when all
    /// three are. The arithmetic runs in units of `1/ω` (`τ = ωt`), so a very
    /// stiff or very soft spring loses nothing to overflow.
    ///
    /// ```swift
    /// let bouncy = try Easing.spring(dampingRatio: 0.7)   // `bouncy spring`
    /// bouncy.spring?.settlingTime    // 10.349182…: e^(−0.7 T)·√(1 + 0.7²/0.51) = 0.001
    /// bouncy(0.4)                    // 1.0442445…: x(0.4·T) overshoots
    /// bouncy.isMonotone              // false, as for every spring
    /// ```
    public struct Spring: Hashable, Sendable {
        /// ζ: 1 is critical damping, below it the spring oscillates, above it creeps.
        public let dampingRatio: Double
        /// ω, the undamped angular frequency, in radians per second.
        public let angularFrequency: Double
        /// v = x'(0), in units of the distance to travel per second.
        public let velocity: Double
        /// T, in seconds: the least time after which the envelope stays within ``settlingThreshold``.
        public let settlingTime: Double
        /// `ωT`: the settling time in units of `1/ω`, which is what the curve uses.
        let normalizedSettlingTime: Double
        /// The motion with `ω = 1` and velocity `v/ω`.
        let motion: Oscillator

        /// ε: how close to rest a spring must stay to count as settled.
        public static let settlingThreshold = 0.001

        /// A spring with damping ratio `ζ > 0`, angular frequency `ω > 0` and
        /// initial velocity `v`, all finite, whose settling time is finite.
        public init(dampingRatio: Double, angularFrequency: Double = 1, velocity: Double = 0) throws(AnimationError) {
            guard dampingRatio.isFinite else { throw .notFinite("the spring damping ratio") }
            guard angularFrequency.isFinite else { throw .notFinite("the spring angular frequency") }
            guard velocity.isFinite else { throw .notFinite("the spring velocity") }
            if dampingRatio == 0 { throw .invalidEasing("a spring with no damping (damping ratio 0) never settles") }
            guard dampingRatio > 0 else {
                throw .invalidEasing("the spring damping ratio must be positive (got \(formatNumber(dampingRatio)))")
            }
            guard angularFrequency > 0 else {
                throw .invalidEasing("the spring angular frequency must be positive (got \(formatNumber(angularFrequency)))")
            }
            let normalizedVelocity = velocity / angularFrequency
            guard normalizedVelocity.isFinite else {
                throw .invalidEasing("the spring's velocity is too large for its frequency (v/ω is not finite)")
            }
            let motion = Oscillator(dampingRatio: dampingRatio, velocity: normalizedVelocity)
            let normalized = motion.settlingTime()
            let seconds = normalized / angularFrequency
            guard normalized.isFinite, normalized > 0, seconds.isFinite, seconds > 0 else {
                throw .invalidEasing("this spring takes too long to settle to be computed (damping ratio \(formatNumber(dampingRatio)))")
            }
            self.dampingRatio = dampingRatio
            self.angularFrequency = angularFrequency
            self.velocity = velocity + 0   // −0 is 0: equal springs hash and print alike
            self.settlingTime = seconds
            self.normalizedSettlingTime = normalized
            self.motion = motion
        }

        /// The damping ratio of SwiftUI's `Spring(duration:bounce:)`: `1 − bounce`
        /// for `bounce ≥ 0`, `1 / (1 + bounce)` below (a negative bounce overdamps).
        public static func dampingRatio(bounce: Double) -> Double {
            bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        }

        /// `ζ`, `ω` and `v` of a mass on a spring: `ζ = damping / (2√(stiffness·mass))`,
        /// `ω = √(stiffness/mass)`, `v = velocity`, computed exactly so (the
        /// printer relies on it to spell a spring that reads back the same).
        public static func parameters(stiffness: Double, damping: Double, mass: Double, velocity: Double)
            -> (dampingRatio: Double, angularFrequency: Double, velocity: Double) {
            (damping / (2 * (stiffness * mass).squareRoot()), (stiffness / mass).squareRoot(), velocity)
        }

        /// The displacement `x(t)` at `t` seconds after release (`t ≥ 0`).
        public func position(at t: Double) -> Double {
            motion.displacement(t * angularFrequency)
        }

        /// The envelope that bounds `|x(t) − 1|` at `t` seconds: `e^(−ζωt)·√(1 + ((ζω − v)/ω_d)²)`
        /// for `ζ < 1`, `e^(−ωt)(1 + |ω − v|·t)` for `ζ = 1`, `|A|e^(r1 t) + |B|e^(r2 t)` for `ζ > 1`.
        public func envelope(at t: Double) -> Double {
            motion.envelope(t * angularFrequency)
        }

        /// The eased progress at `p`: `x(p·T)` on [0, 1), 1 from 1 on, 0 below 0.
        func progress(_ p: Double) -> Double {
            if p.isNaN { return p }
            if p <= 0 { return 0 }
            if p >= 1 { return 1 }
            return motion.displacement(p * normalizedSettlingTime)
        }

        /// The bounce ``Easing/spring(bounce:)`` turns into exactly this spring,
        /// as short a decimal as does; `nil` unless `ω = 1` and `v = 0`, or when
        /// no double does (the damping ratios below ½ that `1 − bounce` cannot
        /// reach).
        public var bounce: Double? {
            guard angularFrequency == 1, velocity == 0 else { return nil }
            let near = dampingRatio <= 1 ? 1 - dampingRatio : 1 / dampingRatio - 1
            return shortestDecimal(near: near) { bounce in
                bounce > -1 && bounce < 1 && Spring.dampingRatio(bounce: bounce) == dampingRatio
            }
        }

        /// Stiffness, damping, mass and velocity that
        /// ``Easing/spring(stiffness:damping:mass:velocity:)`` turns into exactly
        /// this spring, each as short a decimal as does: mass 1 when it can be,
        /// else the shortest mass that can. Should no mass tried reproduce the
        /// spring exactly (no test has found one that does not, from the
        /// smallest to the largest parameters), parameters of the same curve,
        /// balanced so that each is a finite number.
        ///
        /// Why a mass 1 is not always enough: with it, `ζ = C / (2√K)`, and the
        /// quotients of the doubles `C` by a fixed `2√K` miss some doubles when
        /// `2√K`'s significand exceeds `ζ`'s; a mass that puts `√(K·M)` just
        /// above a power of two leaves none out.
        public var physicalParameters: (stiffness: Double, damping: Double, mass: Double, velocity: Double) {
            if let found = physicalParameters(mass: 1) { return found }
            // Masses M = 2^j/ω a hair up, so that √(K·M) ≈ ωM sits just above 2^j:
            // first near 1 (M in [1, 2)), then, for springs whose K = ω²M or
            // C = 2ζωM would overflow or underflow there, the M that puts the
            // geometric mean of K and C at 1, then that of K, C and M.
            let logOmega = log2(angularFrequency), logZeta = log2(dampingRatio)
            var found: (stiffness: Double, damping: Double, mass: Double, velocity: Double)?
            for exponent in [logOmega, -(1 + logZeta + logOmega) / 2, -(1 + logZeta) / 3] {
                let mass = exp2(exponent.rounded(.up) - logOmega) * (1 + 1e-9)
                _ = shortestDecimal(near: mass) { m in
                    guard m > 0, m.isFinite, let parameters = physicalParameters(mass: m) else { return false }
                    found = parameters
                    return true
                }
                if let found { return found }
            }
            // K = ω²M, C = 2ζωM and M with their geometric mean at 1, by logarithms.
            let logMass = -(1 + logZeta) / 3 - logOmega
            return (exp2(2 * logOmega + logMass), exp2(1 + logZeta + logOmega + logMass), exp2(logMass), velocity)
        }

        /// ``physicalParameters`` with the given mass, when there are some.
        private func physicalParameters(mass: Double) -> (stiffness: Double, damping: Double, mass: Double, velocity: Double)? {
            let omega = angularFrequency, zeta = dampingRatio
            let stiffness = shortestDecimal(near: omega * omega * mass) { k in
                k > 0 && k.isFinite && Spring.parameters(stiffness: k, damping: 0, mass: mass, velocity: 0).angularFrequency == omega
            }
            guard let stiffness else { return nil }
            let damping = shortestDecimal(near: 2 * zeta * (stiffness * mass).squareRoot()) { c in
                c > 0 && c.isFinite
                    && Spring.parameters(stiffness: stiffness, damping: c, mass: mass, velocity: 0).dampingRatio == zeta
            }
            guard let damping else { return nil }
            return (stiffness, damping, mass, velocity)
        }
    }

    /// The spring of this easing, when it is one.
    public var spring: Spring? {
        if case .spring(let spring) = kind { return spring }
        return nil
    }
}

/// A spring with `ω = 1`, `x'' + 2ζx' + (x − 1) = 0`, `x(0) = 0`, `x'(0) = u`,
/// in the form that stays accurate in each regime: near `ζ = 1` from either
/// side nothing is divided by a small difference, and for `ζ > 1` the slow
/// root is `−1/(ζ + s)`, `s = √(ζ² − 1)`, rather than `s − ζ`.
struct Oscillator: Hashable, Sendable {
    enum Regime: Hashable, Sendable {
        /// `ζ < 1`: `d = √(1 − ζ²)`, `a = (ζ − u)/d`.
        case under(d: Double, a: Double)
        /// `ζ = 1`: `c = 1 − u`.
        case critical(c: Double)
        /// `ζ > 1`: `s = √(ζ² − 1)`, roots `r1 = −1/(ζ + s)`, `r2 = −(ζ + s)`, coefficients `A`, `B`.
        case over(s: Double, r1: Double, r2: Double, a: Double, b: Double)
    }

    let zeta: Double
    let regime: Regime

    init(dampingRatio zeta: Double, velocity u: Double) {
        self.zeta = zeta
        if zeta < 1 {
            let d = ((1 - zeta) * (1 + zeta)).squareRoot()
            regime = .under(d: d, a: (zeta - u) / d)
        } else if zeta == 1 {
            regime = .critical(c: 1 - u)
        } else {
            // (ζ − 1)(ζ + 1) keeps the digits of ζ² − 1 near 1 and overflows only past 1e154.
            let s = zeta < 0x1p500 ? ((zeta - 1) * (zeta + 1)).squareRoot()
                : zeta * ((1 - 1 / zeta) * (1 + 1 / zeta)).squareRoot()
            let sum = zeta + s
            let r1 = -1 / sum
            // A = (−u − r2)/(r1 − r2) with r1 − r2 = 2s; B = 1 − A = (u + r1)/(2s).
            regime = .over(s: s, r1: r1, r2: -sum, a: (sum - u) / (2 * s), b: (u + r1) / (2 * s))
        }
    }

    /// `x(τ)`.
    func displacement(_ tau: Double) -> Double {
        switch regime {
        case .under(let d, let a):
            return 1 - exp(-zeta * tau) * (cos(d * tau) + a * sin(d * tau))
        case .critical(let c):
            // e^(−τ) + c·(τe^(−τ)) rather than e^(−τ)(1 + cτ), which overflows for a huge c.
            let decay = exp(-tau)
            return 1 - (decay + c * (tau * decay))
        case .over(let s, let r1, _, _, let b):
            // A·e^(r1τ) + B·e^(r2τ) = e^(r1τ)·(1 + B·(e^(−2sτ) − 1)): no cancellation as s → 0.
            return 1 - exp(r1 * tau) * (1 + b * expm1(-2 * s * tau))
        }
    }

    /// The envelope of `|x(τ) − 1|`.
    func envelope(_ tau: Double) -> Double {
        switch regime {
        case .under(_, let a):
            return exp(-zeta * tau) * hypot(1, a)
        case .critical(let c):
            return exp(logCriticalEnvelope(tau, abs(c)))
        case .over(_, let r1, let r2, let a, let b):
            return abs(a) * exp(r1 * tau) + abs(b) * exp(r2 * tau)
        }
    }

    /// `ln(e^(−τ)(1 + cτ))`, without overflow for a huge `c`.
    private func logCriticalEnvelope(_ tau: Double, _ c: Double) -> Double {
        let product = c * tau
        return product.isFinite ? -tau + log1p(product) : -tau + log(c) + log(tau)
    }

    /// The least τ after which the envelope stays within ε (`+∞` or NaN when
    /// it is beyond the doubles). Every bracket below is finite or the result
    /// is not, and bisection on bit patterns ends within 64 steps.
    func settlingTime() -> Double {
        let epsilon = Easing.Spring.settlingThreshold
        switch regime {
        case .under(_, let a):
            // The envelope decreases: e^(−ζτ)·√(1 + a²) = ε.
            return (log(hypot(1, a)) - log(epsilon)) / zeta
        case .critical(let c):
            // ln f(τ) = −τ + ln(1 + |c|τ) rises until τ* = 1 − 1/|c| (when |c| > 1), then falls;
            // f(τ*) ≥ f(0) = 1 > ε. Since 1 + |c|τ ≤ (1 + |c|)(1 + τ) ≤ 2(1 + |c|)e^(τ/2),
            // f ≤ ε from τ = 2(ln 2 + ln(1 + |c|) − ln ε) on.
            let magnitude = abs(c)
            let low = magnitude > 1 ? 1 - 1 / magnitude : 0
            let high = 2 * (log(2) + log1p(magnitude) - log(epsilon))
            let target = log(epsilon)
            guard high.isFinite else { return .infinity }
            return bisectDoubles(low, high) { logCriticalEnvelope($0, magnitude) <= target }
        case .over(_, let r1, let r2, let a, let b):
            // Both terms fall, so their sum does: one root. Since r2 < r1 < 0,
            // the sum is at most (|A| + |B|)e^(r1τ), within ε from τ = ln((|A| + |B|)/ε)/|r1| on.
            guard r1.isFinite, r2.isFinite, a.isFinite, b.isFinite, r1 < 0 else { return .infinity }
            let f = { (tau: Double) -> Double in abs(a) * exp(r1 * tau) + abs(b) * exp(r2 * tau) }
            var high = (log(abs(a) + abs(b)) - log(epsilon)) / -r1
            guard high.isFinite else { return .infinity }
            while !(f(high) <= epsilon) {   // rounding can leave the bound a hair short
                high *= 2
                if !high.isFinite { return .infinity }
            }
            return bisectDoubles(0, high) { f($0) <= epsilon }
        }
    }
}

/// The least double in `[low, high]` (both finite and ≥ 0) where `isHigh`
/// holds, given that it fails at `low`, holds at `high`, and never fails again
/// once it holds. Bisects the bit patterns, which order non-negative doubles as
/// their values, down to neighbouring doubles: at most 64 steps.
private func bisectDoubles(_ low: Double, _ high: Double, _ isHigh: (Double) -> Bool) -> Double {
    var low = low.bitPattern, high = high.bitPattern
    if isHigh(Double(bitPattern: low)) { return Double(bitPattern: low) }
    while high - low > 1 {
        let mid = low + (high - low) / 2
        if isHigh(Double(bitPattern: mid)) { high = mid } else { low = mid }
    }
    return Double(bitPattern: high)
}

/// The shortest decimal (fewest significant digits) near `x` that `accepts`
/// takes, trying `x` rounded to 1, 2, … 17 digits and then `x` and its four
/// nearest neighbours; `nil` when none is accepted. (Rounding scales by a
/// power of ten, exact up to 10^22 and correctly rounded beyond; `accepts`
/// has the last word either way.)
private func shortestDecimal(near x: Double, accepts: (Double) -> Bool) -> Double? {
    guard x.isFinite else { return nil }
    if x != 0 {
        let magnitude = Int(log10(abs(x)).rounded(.down))
        for digits in 1...17 {
            let decimals = digits - 1 - magnitude
            var scale = 1.0
            if abs(decimals) <= 22 {
                for _ in 0..<abs(decimals) { scale *= 10 }
            } else {
                scale = pow(10, Double(abs(decimals)))
            }
            guard scale.isFinite, scale > 0 else { break }
            let candidate = decimals >= 0 ? (x * scale).rounded() / scale : (x / scale).rounded() * scale
            if candidate.isFinite, accepts(candidate) { return candidate }
        }
    }
    var up = x, down = x
    if accepts(x) { return x }
    for _ in 0..<4 {
        up = up.nextUp
        down = down.nextDown
        if accepts(up) { return up }
        if accepts(down) { return down }
    }
    return nil
}
