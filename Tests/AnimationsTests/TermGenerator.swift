@testable import Animations

/// A small, seeded, dependency-free PRNG (SplitMix64), so every generated
/// case can be reproduced from its seed.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound`.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    mutating func pick<T>(_ options: [T]) -> T {
        options[below(options.count)]
    }
}

/// A term of the animation algebra, kept as a tree so that both sides of a
/// law can be built from the same parts.
indirect enum Term: CustomStringConvertible {
    case tween(Property, Double, Double, Time, Easing)
    case wait(Time)
    case zero
    case one
    case seq(Term, Term)
    case par(Term, Term)
    case power(Term, Int)
    case reversed(Term)
    case looped(Term, Int)
    case delayed(Term, Time)
    case retimed(Term, Time)
    case eased(Term, Easing)

    func scene() throws(AnimationError) -> Scene {
        switch self {
        case .tween(let property, let from, let to, let duration, let easing):
            return try Scene.tween(property, from: from, to: to, duration: duration, easing: easing)
        case .wait(let duration): return try Scene.wait(duration)
        case .zero: return .zero
        case .one: return .one
        case .seq(let x, let y): return try x.scene().then(try y.scene())
        case .par(let x, let y): return try x.scene().alongside(try y.scene())
        case .power(let x, let n): return try x.scene().repeated(n)
        case .reversed(let x): return try x.scene().reversed
        case .looped(let x, let n): return try x.scene().looped(n)
        case .delayed(let x, let d): return try x.scene().delayed(by: d)
        case .retimed(let x, let d): return try x.scene().retimed(to: d)
        case .eased(let x, let easing): return try x.scene().eased(easing)
        }
    }

    /// Whether an easing warp may act on a composite somewhere inside.
    var hasWarp: Bool {
        switch self {
        case .tween, .wait, .zero, .one: return false
        case .eased: return true
        case .seq(let x, let y), .par(let x, let y): return x.hasWarp || y.hasWarp
        case .power(let x, _), .reversed(let x), .looped(let x, _), .delayed(let x, _), .retimed(let x, _): return x.hasWarp
        }
    }

    var description: String {
        switch self {
        case .tween(let p, let a, let b, let d, let e): return "(\(p) \(a)→\(b) in \(d) \(e))"
        case .wait(let d): return "wait \(d)"
        case .zero: return "zero"
        case .one: return "one"
        case .seq(let x, let y): return "(\(x) ; \(y))"
        case .par(let x, let y): return "(\(x) || \(y))"
        case .power(let x, let n): return "(\(x) ^ \(n))"
        case .reversed(let x): return "(\(x) reversed)"
        case .looped(let x, let n): return "(\(x) looped \(n))"
        case .delayed(let x, let d): return "(\(x) delayed \(d))"
        case .retimed(let x, let d): return "(\(x) in \(d))"
        case .eased(let x, let e): return "(\(x) with \(e))"
        }
    }
}

/// Generates random terms over a few properties, exact durations with
/// denominators 1, 2, 3 and 4, zero-length tweens, and easings of every family.
struct TermGenerator {
    var random: SplitMix64
    /// The easings `with` may warp a composite by.
    var warps: [Easing] = TermGenerator.monotoneEasings

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    static let properties = [
        Property(view: "a", name: "x"), Property(view: "a", name: "y"), Property(view: "b", name: "x"),
    ]

    static let monotoneEasings: [Easing] = [
        .linear, easeIn, easeOut, easeInOut, easeOut(1.5), .ease, .cssEaseInOut,
        .penner(.quad, .in), .penner(.cubic, .out), .penner(.sine, .inOut), .penner(.expo, .in),
        .penner(.circ, .out),
    ] + ((try? [Easing.steps(3, .jumpEnd), Easing.steps(2, .jumpStart), Easing.cubicBezier(0.1, 0.7, 0.6, 0.9)]) ?? [])

    static let overshootingEasings: [Easing] = [
        .penner(.back, .out), .penner(.elastic, .in), .penner(.bounce, .out), .penner(.back, .inOut),
    ]

    mutating func duration(allowZero: Bool = true) -> Time {
        let denominators: [Int64] = [1, 2, 3, 4]
        let denominator = random.pick(denominators)
        let numerator = Int64(random.below(Int(2 * denominator) + 1))
        let time = Time(numerator: numerator, denominator: denominator) ?? .one
        return (!allowZero && time.isZero) ? .one : time
    }

    mutating func value() -> Double {
        Double(random.below(21) - 10) / 2
    }

    mutating func tween() -> Term {
        let easing = random.chance(60) ? Easing.linear
            : random.chance(75) ? random.pick(TermGenerator.monotoneEasings) : random.pick(TermGenerator.overshootingEasings)
        let duration = random.chance(10) ? Time.zero : self.duration(allowZero: false)
        return .tween(random.pick(TermGenerator.properties), value(), value(), duration, easing)
    }

    mutating func term(depth: Int = 4) -> Term {
        if depth == 0 || random.chance(25) {
            switch random.below(20) {
            case 0: return .zero
            case 1: return .one
            case 2, 3: return .wait(duration())
            default: return tween()
            }
        }
        let next = depth - 1
        switch random.below(12) {
        case 0, 1, 2: return .seq(term(depth: next), term(depth: next))
        case 3, 4, 5: return .par(term(depth: next), term(depth: next))
        case 6: return .power(term(depth: next), random.below(4))
        case 7: return .reversed(term(depth: next))
        case 8: return .looped(term(depth: next), random.below(3))
        case 9: return .delayed(term(depth: next), duration())
        case 10: return .retimed(term(depth: next), duration(allowZero: false))
        default: return .eased(term(depth: next), random.pick(warps))
        }
    }
}

/// The sampled table of a scene: its duration, columns, and the bits of every
/// value at the given times. `nil` when cancelled.
struct SampledTable: Equatable, CustomStringConvertible {
    let duration: Time
    let columns: [Property]
    let rows: [[Double]]

    init?(_ scene: Scene, at times: [Time], materializeLimit: Int = Scene.materializeLimit) throws {
        guard let compiled = try scene.compile(materializeLimit: materializeLimit) else { return nil }
        duration = compiled.duration
        let sampler = compiled.sampler()
        columns = sampler.columns
        var rows: [[Double]] = []
        var row: [Double] = []
        for t in times {
            sampler.sample(at: t, into: &row)
            rows.append(row)
        }
        self.rows = rows
    }

    /// Bit-for-bit equality of every value.
    static func == (lhs: SampledTable, rhs: SampledTable) -> Bool {
        lhs.duration == rhs.duration && lhs.columns == rhs.columns
            && lhs.rows.map { $0.map(\.bitPattern) } == rhs.rows.map { $0.map(\.bitPattern) }
    }

    func isClose(to other: SampledTable, tolerance: Double) -> Bool {
        guard duration == other.duration, columns == other.columns, rows.count == other.rows.count else { return false }
        for (a, b) in zip(rows, other.rows) {
            for (x, y) in zip(a, b) where abs(x - y) > tolerance { return false }
        }
        return true
    }

    /// The first differing cell, for failure messages.
    func firstDifference(from other: SampledTable, times: [Time], tolerance: Double = 0) -> String {
        if duration != other.duration { return "durations \(duration) vs \(other.duration)" }
        if columns != other.columns { return "columns \(columns) vs \(other.columns)" }
        for (index, (a, b)) in zip(rows, other.rows).enumerated() {
            for (column, (x, y)) in zip(a, b).enumerated() where x.bitPattern != y.bitPattern && !(abs(x - y) <= tolerance) {
                return "at t = \(times[index]) \(columns[column]): \(x) vs \(y)"
            }
        }
        return "no difference"
    }

    var description: String {
        "duration \(duration), columns \(columns)\n" + rows.map { $0.map { "\($0)" }.joined(separator: " ") }.joined(separator: "\n")
    }
}

/// Exact sample times covering `[0, span]`: every multiple of 1/12 and the end.
func sampleTimes(upTo span: Time) -> [Time] {
    var times: [Time] = []
    var k: Int64 = 0
    while let t = Time(numerator: k, denominator: 12), t <= span, k < 2_000 {
        times.append(t)
        k += 1
    }
    if times.last != span { times.append(span) }
    return times
}
