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

/// Shorthands over the library's ``Term`` (the free algebra the laws speak
/// of), so both sides of a law read like the law. Durations in these tests
/// are small, so building a term never overflows.
extension Term {
    static func tween(_ property: Property, _ from: Double, _ to: Double, _ duration: Time, _ easing: Easing) -> Term {
        .tween(Tween(unchecked: property, from: .number(from), to: .number(to), easing: easing, duration: duration))
    }

    static func waiting(_ duration: Time) -> Term {
        (try? Term.wait(duration)) ?? .one
    }

    static func seq(_ x: Term, _ y: Term) -> Term { x * y }
    static func par(_ x: Term, _ y: Term) -> Term { x + y }

    static func pow(_ x: Term, _ n: Int) -> Term {
        (try? Term.power(x, n)) ?? .zero
    }

    /// `x looped n times`: `(x ; x reversed) ^ n`, as the language desugars it.
    static func looped(_ x: Term, _ n: Int) -> Term {
        pow(seq(x, .reversed(x)), n)
    }

    /// `x delayed by d`: `wait d ; x`.
    static func delayed(_ x: Term, _ d: Time) -> Term {
        seq(waiting(d), x)
    }

    static func retime(_ x: Term, _ d: Time) -> Term {
        (try? Term.retimed(x, to: d)) ?? .zero
    }

    /// `x played from a to b`.
    static func part(_ x: Term, _ a: Time, _ b: Time) -> Term {
        (try? Term.played(x, from: a, to: b)) ?? .zero
    }

    /// `x ^ r`: `(x ^ ⌈r⌉) played to r·|x|` (docs/semantics.md §8.5); `x` itself when it does not end.
    static func fraction(_ x: Term, _ r: Time) -> Term {
        guard let length = x.duration, let end = try? length.multiplied(by: r) else { return x }
        return part(pow(x, Int(r.floorQuotient(dividingBy: .one)) + 1), .zero, end)
    }

    /// The meaning: the fold into scenes.
    func scene() throws(AnimationError) -> Scene {
        do {
            return try fold(into: Scene.self)
        } catch {
            throw error.error
        }
    }

    /// Whether an easing warp may act on a composite somewhere inside.
    var hasWarp: Bool {
        if case .eased = kind { return true }
        return children.contains { $0.hasWarp }
    }
}

/// Generates random terms over a few properties, exact durations with
/// denominators 1, 2, 3 and 4, zero-length tweens, and easings of every family.
struct TermGenerator {
    var random: SplitMix64
    /// The easings `with` may warp a composite by.
    var warps: [Easing] = TermGenerator.monotoneEasings
    /// Whether tweens may start from the current value (`to B`, `by Δ`; docs/semantics.md §7.1).
    var relatives = false
    /// Whether some tweens that would go between colours go between points (`Value.point`) instead.
    var points = false
    /// Whether terms may take parts of animations (`played`, fractional powers; docs/semantics.md §8.5).
    var parts = false
    /// Whether terms may hold the timeline forms of docs/semantics.md §8.1 and §8.3: overlap chains
    /// (``Term/chain(_:)``) and staggers from every origin, by a step or over a total, spaced or not,
    /// over up to five views (tweens on ``TermGenerator/extraProperties`` join those on ``properties``).
    var timelines = false

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

    /// Colours with and without alpha (premultiplied mixing matters there).
    static let colors: [Color] = [
        Color(red: 255, green: 0, blue: 0), Color(red: 0, green: 0, blue: 255, alpha: 0), Color(red: 10, green: 200, blue: 30, alpha: 0.5),
        Color(red: 0, green: 0, blue: 0, alpha: 0), Color(red: 255, green: 255, blue: 255, alpha: 0.25),
    ]

    /// More views, drawn only when ``timelines`` is on, so a stagger orders up to five views.
    static let extraProperties = [
        Property(view: "c", name: "x"), Property(view: "d", name: "x"), Property(view: "e", name: "y"),
    ]

    /// The order a stagger takes views in (their first mention in a file), not their names' order.
    static let staggerOrder = ["c", "a", "e", "b", "d"]

    /// A property whose values are colours.
    static let colorProperty = Property(view: "b", name: "fill")

    /// A property whose values are points (`Value.point`).
    static let pointProperty = Property(view: "b", name: "shadow")

    mutating func tween() -> Term {
        let easing = random.chance(60) ? Easing.linear
            : random.chance(75) ? random.pick(TermGenerator.monotoneEasings) : random.pick(TermGenerator.overshootingEasings)
        let duration = random.chance(10) ? Time.zero : self.duration(allowZero: false)
        if relatives, random.chance(35) {
            let property = random.pick(TermGenerator.properties)
            if random.chance(50) {
                return .tween(Tween(unchecked: property, from: .number(0), to: .number(value()), easing: easing, duration: duration,
                                    relative: .by))
            }
            let target = Value.number(value())
            return .tween(Tween(unchecked: property, from: target, to: target, easing: easing, duration: duration, relative: .to))
        }
        if random.chance(20) {
            if points, random.chance(30) {
                return .tween(Tween(unchecked: TermGenerator.pointProperty, from: .point(Point(x: value(), y: value())),
                                    to: .point(Point(x: value(), y: value())), easing: easing, duration: duration))
            }
            return .tween(Tween(unchecked: TermGenerator.colorProperty, from: .color(random.pick(TermGenerator.colors)),
                                to: .color(random.pick(TermGenerator.colors)), easing: easing, duration: duration))
        }
        if timelines, random.chance(30) {
            return .tween(random.pick(TermGenerator.extraProperties), value(), value(), duration, easing)
        }
        return .tween(random.pick(TermGenerator.properties), value(), value(), duration, easing)
    }

    mutating func term(depth: Int = 4) -> Term {
        if depth == 0 || random.chance(25) {
            switch random.below(20) {
            case 0: return .zero
            case 1: return .one
            case 2, 3: return .waiting(duration())
            case 4: return .event(random.pick(["tick", "land"]))
            default: return tween()
            }
        }
        let next = depth - 1
        switch random.below(timelines ? 16 : parts ? 14 : 12) {
        case 0, 1, 2: return .seq(term(depth: next), term(depth: next))
        case 3, 4, 5: return .par(term(depth: next), term(depth: next))
        case 6: return .pow(term(depth: next), random.below(4))
        case 7: return .reversed(term(depth: next))
        case 8: return .looped(term(depth: next), random.below(3))
        case 9: return .delayed(term(depth: next), duration())
        case 10: return .retime(term(depth: next), duration(allowZero: false))
        case 12: return playedPart(term(depth: next))
        case 13: return fractionalPower(term(depth: next))
        case 14: return overlapChain(depth: next)
        case 15: return stagger(term(depth: next))
        default: return .eased(term(depth: next), random.pick(warps))
        }
    }

    /// `x played from a to b` (docs/semantics.md §8.5), with `0 ≤ a ≤ b` and `b` sometimes past `|x|`.
    mutating func playedPart(_ x: Term) -> Term {
        let length = x.duration ?? .one
        let scale = Time(numerator: Int64(random.below(5)), denominator: 4) ?? .zero
        let a = random.chance(20) ? Time.zero : ((try? length.multiplied(by: scale)) ?? .zero)
        let extra = random.chance(25) ? duration() : ((try? length.multiplied(by: Time(numerator: Int64(random.below(5)), denominator: 4) ?? .zero)) ?? .zero)
        let b = (try? a.adding(extra)) ?? a
        return .part(x, a, b)
    }

    /// `p1 ; p2 overlapping by D2 ; p3 …` (docs/semantics.md §8.1): two to four parts, each after the
    /// first overlapping what comes before it by a quarter step of its length (0 and all of it
    /// included) or not at all. The language lowers a chain through ``Term/chain(_:)``, so the
    /// generator does too; an overlap longer than the chain so far (an error) is never drawn.
    mutating func overlapChain(depth: Int) -> Term {
        var parts: [(part: Term, overlap: Time?)] = [(term(depth: depth), nil)]
        for _ in 0..<(1 + random.below(3)) {
            let part = term(depth: depth)
            var overlap: Time?
            if random.chance(75), let sofar = try? Term.chain(parts), let length = sofar.duration {
                overlap = (try? length.multiplied(by: Time(numerator: Int64(random.below(5)), denominator: 4) ?? .zero)) ?? .zero
            }
            parts.append((part, overlap))
        }
        return (try? Term.chain(parts)) ?? .zero
    }

    /// `x staggered by|over T from O spaced E` (docs/semantics.md §8.3), every origin, with or without
    /// a spacing easing (overshooting ones included: an offset below zero is an error, and the
    /// term is then `x` unstaggered).
    mutating func stagger(_ x: Term) -> Term {
        let amount: Stagger.Amount = random.chance(50) ? .by(duration()) : .over(duration())
        let spacing: Easing? = random.chance(50) ? nil
            : random.chance(85) ? random.pick(TermGenerator.monotoneEasings) : random.pick(TermGenerator.overshootingEasings)
        let stagger = Stagger(amount, from: random.pick(Stagger.Origin.allCases), spaced: spacing)
        return (try? x.staggered(stagger, order: TermGenerator.staggerOrder)) ?? x
    }

    /// `x ^ r` for a count that is not whole (`(x ^ ⌈r⌉) played to r·|x|`).
    mutating func fractionalPower(_ x: Term) -> Term {
        let count = Time(numerator: Int64(1 + 2 * random.below(4)), denominator: random.pick([2, 3, 4])) ?? .one
        return .fraction(x, count)
    }
}

/// The sampled table of a scene: its duration, columns, and the bits of every
/// value at the given times. `nil` when cancelled.
struct SampledTable: Equatable, CustomStringConvertible {
    let duration: Time
    let columns: [Property]
    let rows: [[Value]]
    /// The events column: what fired since the row before, as `eval` prints it.
    let events: [String]

    init?(_ scene: Scene, at times: [Time], materializeLimit: Int = Scene.materializeLimit) throws {
        guard let compiled = try scene.compile(materializeLimit: materializeLimit) else { return nil }
        duration = compiled.duration
        let sampler = compiled.sampler()
        columns = sampler.columns
        var rows: [[Value]] = []
        var events: [String] = []
        var row: [Value] = []
        var previous: Instant?
        for t in times {
            sampler.sample(at: t, into: &row)
            rows.append(row)
            events.append(compiled.events(after: previous, through: Instant(t)).map(\.description).joined(separator: " "))
            previous = Instant(t)
        }
        self.rows = rows
        self.events = events
    }

    /// Bit-for-bit equality of every value, and the same events.
    static func == (lhs: SampledTable, rhs: SampledTable) -> Bool {
        lhs.duration == rhs.duration && lhs.columns == rhs.columns
            && lhs.rows.map { $0.map(\.bits) } == rhs.rows.map { $0.map(\.bits) } && lhs.events == rhs.events
    }

    func isClose(to other: SampledTable, tolerance: Double) -> Bool {
        guard duration == other.duration, columns == other.columns, rows.count == other.rows.count, events == other.events else {
            return false
        }
        for (a, b) in zip(rows, other.rows) {
            for (x, y) in zip(a, b) where !x.isClose(to: y, tolerance: tolerance) { return false }
        }
        return true
    }

    /// The first differing cell, for failure messages.
    func firstDifference(from other: SampledTable, times: [Time], tolerance: Double = 0) -> String {
        if duration != other.duration { return "durations \(duration) vs \(other.duration)" }
        if columns != other.columns { return "columns \(columns) vs \(other.columns)" }
        for (index, (a, b)) in zip(events, other.events).enumerated() where a != b {
            return "at t = \(times[index]) events: \(a) vs \(b)"
        }
        for (index, (a, b)) in zip(rows, other.rows).enumerated() {
            for (column, (x, y)) in zip(a, b).enumerated() where x.bits != y.bits && !x.isClose(to: y, tolerance: tolerance) {
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

extension Value {
    /// Equal, or every component within `tolerance` (colour channels on their 0–255 scale).
    func isClose(to other: Value, tolerance: Double) -> Bool {
        if self == other { return true }
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return abs(a - b) <= tolerance
        case (.color(let a), .color(let b)):
            return abs(a.red - b.red) <= 255 * tolerance && abs(a.green - b.green) <= 255 * tolerance
                && abs(a.blue - b.blue) <= 255 * tolerance && abs(a.alpha - b.alpha) <= tolerance
        case (.point(let a), .point(let b)):
            return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
        case (.number, _), (.color, _), (.point, _):
            return false
        }
    }

    /// The bit patterns of every component, for bit-for-bit comparison.
    var bits: [UInt64] {
        components.map(\.bitPattern)
    }
}
