// Springs (docs/semantics.md §6.4) checked against values derived independently.
//
// Golden/springs.golden is written by Golden/make_spring_golden.py: the note's
// formulas evaluated in mpmath at 50 digits, with the settling time found by
// other means than the library's (the closed form for ζ < 1, Lambert's W for
// ζ = 1, mpmath's root finder for ζ > 1). The hand-derived cases below say how
// each number was obtained.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Animations

/// One line of springs.golden: `SPELLING | ZETA | OMEGA | V | P | VALUE`
/// (`P` is `T` for the settling time).
struct SpringSample: Sendable, CustomTestStringConvertible {
    let spelling: String
    let dampingRatio: Double
    let angularFrequency: Double
    let velocity: Double
    /// `nil` for the settling time.
    let progress: Double?
    let expected: Double
    var testDescription: String { "\(spelling) at \(progress.map { "\($0)" } ?? "T")" }
}

let springSamples: [SpringSample] = {
    guard let text = readTextFile(testDirectory() + "/Golden/springs.golden") else { return [] }
    var samples: [SpringSample] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        let content = trimmed(line)
        if content.isEmpty || content.hasPrefix("#") { continue }
        let fields = content.split(separator: "|", omittingEmptySubsequences: false).map(trimmed)
        guard fields.count == 6, let zeta = Double(fields[1]), let omega = Double(fields[2]), let v = Double(fields[3]),
              let value = Double(fields[5]) else { return [] }
        let progress = fields[4] == "T" ? nil : Double(fields[4])
        if fields[4] != "T", progress == nil { return [] }
        samples.append(SpringSample(spelling: fields[0], dampingRatio: zeta, angularFrequency: omega, velocity: v,
                                    progress: progress, expected: value))
    }
    return samples
}()

/// The springs of the golden file, each once.
let goldenSprings: [SpringSample] = springSamples.filter { $0.progress == nil }

func spring(_ sample: SpringSample) throws -> Easing.Spring {
    try Easing.Spring(dampingRatio: sample.dampingRatio, angularFrequency: sample.angularFrequency, velocity: sample.velocity)
}

@Suite("Springs")
struct SpringTests {
    static let epsilon = Easing.Spring.settlingThreshold

    // MARK: Golden values

    @Test func goldenFileIsWellFormed() {
        #expect(goldenSprings.count >= 20)
        #expect(springSamples.count > 400)
        // Every regime, and a non-zero velocity in each.
        #expect(goldenSprings.contains { $0.dampingRatio < 1 && $0.velocity != 0 })
        #expect(goldenSprings.contains { $0.dampingRatio == 1 && $0.velocity != 0 })
        #expect(goldenSprings.contains { $0.dampingRatio > 1 && $0.velocity != 0 })
    }

    @Test(arguments: springSamples)
    func matchesTheIndependentDerivation(_ sample: SpringSample) throws {
        let s = try spring(sample)
        if let p = sample.progress {
            let e = Easing(s)
            #expect(abs(e(p) - sample.expected) <= 1e-12, "got \(e(p)), expected \(sample.expected)")
        } else {
            // The note asks for 1e-12 relative.
            #expect(abs(s.settlingTime - sample.expected) <= 1e-12 * sample.expected,
                    "T = \(s.settlingTime), expected \(sample.expected)")
        }
    }

    // MARK: Hand-derived

    /// Numbers worked out without the golden script.
    @Test func handDerivedSettlingTimes() throws {
        // ζ = 1, v = 0: e^(−τ)(1 + τ) = 0.001. Newton's method by hand from τ = 9:
        // f(9) = e^(−9)·10 = 0.0012341, f'(τ) = −τe^(−τ) = −0.0011107 →
        // τ = 9.2222; again: f = e^(−9.2222)·10.2222 = 0.0010191, f' = −0.0009194 →
        // τ = 9.23298; again → 9.2334134 (Lambert: −1 − W₋₁(−0.001/e) = 9.23341347645).
        let critical = try Easing.Spring(dampingRatio: 1)
        #expect(abs(critical.settlingTime - 9.23341347645) < 1e-10)
        // ζ = 0.5, ω = 10, v = 5 (`spring(velocity 5)`): ζω − v = 0, so the envelope
        // is e^(−5t) and T = ln(1000)/5 = 1.3815510557964274.
        let physical = try Easing.spring(stiffness: 100, damping: 10, mass: 1, velocity: 5)
        #expect(physical.spring?.settlingTime == 1.3815510557964274 || abs((physical.spring?.settlingTime ?? 0) - 1.3815510557964274) < 1e-15)
        // ζ = 1, ω = 10, v = 10: |ω − v| = 0, the envelope is e^(−10t): T = ln(1000)/10.
        let still = try Easing.spring(stiffness: 100, damping: 20, mass: 1, velocity: 10)
        #expect(abs((still.spring?.settlingTime ?? 0) - log(1000) / 10) < 1e-15)
        // ζ = 0.7 (`bouncy spring`), ω = 1, v = 0: √(1 + 0.7²/0.51) = √(1 + 0.96078431) = 1.40028008,
        // ln(1.40028008) = 0.33667223, + ln 1000 = 6.90775528 → 7.24442751 / 0.7 = 10.3491822.
        let bouncy = try Easing.Spring(dampingRatio: 0.7)
        #expect(abs(bouncy.settlingTime - 10.3491822) < 1e-6)
        // ζ = 2, ω = 1, v = 0 (`spring(bounce -0.5)`): r1 = −(2 − √3) = −0.26794919,
        // r2 = −3.73205081, A = −r2/(r1 − r2) = 3.73205081/3.46410162 = 1.07735027,
        // B = −0.07735027. At T the fast term is e^(−3.732·26) ≈ 6e-43, so
        // T = ln(1.07735027/0.001)/0.26794919 = 6.98225985/0.26794919 = 26.0581485.
        let creeping = try Easing.spring(bounce: -0.5)
        #expect(abs((creeping.spring?.settlingTime ?? 0) - 26.0581485) < 1e-6)
        // E(½) of `spring` = x(T/2) = 1 − e^(−4.61670674)(1 + 4.61670674) = 1 − 0.0098853·5.61670674
        // = 1 − 0.0555228 = 0.9444772.
        #expect(abs(Easing(critical)(0.5) - (1 - exp(-critical.settlingTime / 2) * (1 + critical.settlingTime / 2))) < 1e-15)
        #expect(abs(Easing(critical)(0.5) - 0.9444772) < 1e-7)
    }

    // MARK: Properties of every spring

    static let springs: [Easing.Spring] = {
        var result = goldenSprings.compactMap { try? spring($0) }
        for (zeta, omega, v) in [(0.2, 3.0, -4.0), (1 - 1e-9, 1, 0), (1 + 1e-9, 1, 0), (0.999, 2, 1), (1.001, 2, 1),
                                 (5.0, 0.5, 100), (0.05, 1, 0), (30, 1, 0), (1, 1, 1), (1, 1, 2), (1, 7, -50)] {
            if let s = try? Easing.Spring(dampingRatio: zeta, angularFrequency: omega, velocity: v) { result.append(s) }
        }
        return result
    }()

    @Test(arguments: springs)
    func endsAtZeroAndOne(_ s: Easing.Spring) {
        let e = Easing(s)
        #expect(e(0) == 0)
        #expect(e(1) == 1)
        #expect(s.position(at: 0) == 0)
        // Outside [0, 1] the input is clamped: unreleased below, at rest above.
        for p in [-2.0, -0.5, -1e-300, -Double.leastNonzeroMagnitude] { #expect(e(p) == 0) }
        for p in [Double(1).nextUp, 1.5, 3, 1e300] { #expect(e(p) == 1) }
        #expect(e(.nan).isNaN)
    }

    @Test(arguments: springs)
    func staysWithinTheEnvelopeAndSettlesAtT(_ s: Easing.Spring) {
        let T = s.settlingTime
        // The envelope bounds the motion everywhere…
        for i in 0...3000 {
            let t = T * 3 * Double(i) / 3000
            let gap = abs(s.position(at: t) - 1)
            #expect(gap <= s.envelope(at: t) * (1 + 1e-12) + 1e-15, "t = \(t): |x − 1| = \(gap) > \(s.envelope(at: t))")
        }
        // …is within ε from T on (to the 1e-12 relative T is found to)…
        for factor in [1.0, 1 + 1e-12, 1.001, 1.1, 1.5, 2, 10, 100] {
            #expect(s.envelope(at: T * factor) <= Self.epsilon * (1 + 1e-12), "envelope at \(factor)·T")
            #expect(abs(s.position(at: T * factor) - 1) <= Self.epsilon * (1 + 1e-12))
        }
        // …and not before: T is the least such time, to 1e-12 relative (2e-12 for rounding).
        #expect(s.envelope(at: T * (1 - 2e-12)) > Self.epsilon, "T = \(T) is not the least")
        #expect(s.envelope(at: T.nextDown.nextDown) > Self.epsilon * (1 - 1e-13))
    }

    @Test(arguments: springs)
    func isContinuousUpToTheEnd(_ s: Easing.Spring) {
        let e = Easing(s)
        // Approaching 1, E(p) stays within the envelope at p·T, which tends to ε:
        // the only step is at 1, from x(T) to 1, and it is within ε.
        for p in [0.999, 0.9999999, 1 - 1e-12, Double(1).nextDown] {
            #expect(abs(e(p) - 1) <= s.envelope(at: p * s.settlingTime) * (1 + 1e-12))
        }
        #expect(abs(e(Double(1).nextDown) - 1) <= Self.epsilon * (1 + 1e-12))
        // Elsewhere nearby inputs give nearby outputs. With ω = 1 the energy
        // x'² + (x − 1)² never grows (damping only takes it away), so
        // |x'| ≤ √(1 + (v/ω)²) and |E(p) − E(q)| ≤ ωT·√(1 + (v/ω)²)·|p − q|.
        let u = s.velocity / s.angularFrequency
        let steps = 20_000
        let bound = s.normalizedSettlingTime * (1 + u * u).squareRoot() / Double(steps) * (1 + 1e-9) + 1e-12
        var previous = e(0)
        for i in 1..<steps {
            let value = e(Double(i) / Double(steps))
            #expect(abs(value - previous) <= bound, "jump at \(Double(i) / Double(steps))")
            previous = value
        }
    }

    @Test(arguments: springs)
    func countsAsNonMonotoneAndMirrorsThroughTheWrapper(_ s: Easing.Spring) {
        let e = Easing(s)
        #expect(!e.isMonotone)
        #expect(e.isContinuous)
        #expect(!e.hasFamilyMirror)
        guard case .mirror(let inner) = e.mirrored.kind else {
            Issue.record("the mirror of a spring is the wrapper")
            return
        }
        #expect(inner == e)
        #expect(e.mirrored.mirrored == e)
        for p in grid(0, 1, 200) { #expect(e.mirrored(p) == 1 - e(1 - p)) }
        #expect(!e.composed(after: .linear).isMonotone)
        #expect(e.depth == 1)
    }

    // MARK: Regimes meet

    @Test func theRegimesAgreeNearCriticalDamping() throws {
        // ζ = 1 ± 1e-9 … 1 ± 1 ulp use the under- and over-damped forms; the
        // motion must be that of ζ = 1 up to the size of the change (nothing
        // is divided by the vanishing √|1 − ζ²| along the way).
        for v in [0.0, 0.5, -3, 7] {
            let critical = try Easing.Spring(dampingRatio: 1, velocity: v)
            for zeta in [1 - 1e-9, 1 + 1e-9, 1 - 1e-15, 1 + 1e-15, Double(1).nextDown, Double(1).nextUp] {
                let near = try Easing.Spring(dampingRatio: zeta, velocity: v)
                for i in 0...300 {
                    let t = 3 * critical.settlingTime * Double(i) / 300
                    #expect(abs(near.position(at: t) - critical.position(at: t)) <= 1e-7, "ζ = \(zeta), v = \(v), t = \(t)")
                }
                // The settling time, though, jumps at ζ = 1, as the note defines it: the
                // envelope √(1 + ((ζω − v)/ω_d)²)·e^(−ζωt) of ζ < 1 (and |A| + |B| of
                // ζ > 1) grows without bound as ζ → 1, while ζ = 1's does not.
                // ζ = 1 − 1e-9, v = 0: ω_d = √(2e-9) = 4.4721e-5, the amplitude is
                // √(1 + 1/2e-9) = 22360.7, and T = ln(22360.7/0.001)/ζ = 16.9228.
                #expect(near.settlingTime > critical.settlingTime)
            }
        }
        let justUnder = try Easing.Spring(dampingRatio: 1 - 1e-9)
        #expect(abs(justUnder.settlingTime - 16.9228) < 1e-4)
    }

    @Test func frequencyScalesTimeOnly() throws {
        // ω stretches time: the same ζ and v/ω give the same curve and T·ω.
        let slow = try Easing.Spring(dampingRatio: 0.3, angularFrequency: 1, velocity: 2)
        let fast = try Easing.Spring(dampingRatio: 0.3, angularFrequency: 50, velocity: 100)
        #expect(abs(slow.settlingTime - fast.settlingTime * 50) <= 1e-12 * slow.settlingTime)
        for p in grid(0, 1, 100) { #expect(abs(Easing(slow)(p) - Easing(fast)(p)) <= 1e-12) }
        #expect(slow != fast)   // a spring is (ζ, ω, v), not only its curve
    }

    // MARK: Factories and validation

    @Test func factoriesFollowTheNote() throws {
        // spring(bounce B): ζ = 1 − B for B ≥ 0, 1/(1 + B) below; ω = 1, v = 0.
        #expect(try Easing.spring(bounce: 0.3) == Easing.spring(dampingRatio: 1 - 0.3))
        #expect(try Easing.spring(bounce: 0) == Easing.spring(dampingRatio: 1))
        #expect(try Easing.spring(bounce: -0.5) == Easing.spring(dampingRatio: 2))
        // Physical: ζ = C/(2√(KM)), ω = √(K/M), v = V.
        let physical = try #require(try Easing.spring(stiffness: 50, damping: 5, mass: 0.5, velocity: -2).spring)
        #expect(physical.dampingRatio == 0.5 && physical.angularFrequency == 10 && physical.velocity == -2)
        #expect(try Easing.spring(stiffness: 200, damping: 10, mass: 2, velocity: 0)
                == Easing.spring(stiffness: 100, damping: 5, mass: 1, velocity: 0))
        // −0 velocity is 0.
        #expect(try Easing.spring(dampingRatio: 0.5, velocity: -0.0) == Easing.spring(dampingRatio: 0.5))
    }

    @Test func invalidSpringsThrow() {
        #expect(throws: AnimationError.invalidEasing("a spring with no damping (damping ratio 0) never settles")) {
            try Easing.spring(dampingRatio: 0)
        }
        #expect(throws: AnimationError.invalidEasing("a spring with no damping never settles")) {
            try Easing.spring(stiffness: 100, damping: 0, mass: 1, velocity: 0)
        }
        #expect(throws: AnimationError.invalidEasing("a spring with bounce 1 has no damping and never settles")) {
            try Easing.spring(bounce: 1)
        }
        #expect(throws: AnimationError.invalidEasing("spring bounce must be greater than -1 and less than 1 (got -1)")) {
            try Easing.spring(bounce: -1)
        }
        #expect(throws: AnimationError.invalidEasing("spring stiffness must be positive (got 0)")) {
            try Easing.spring(stiffness: 0, damping: 10, mass: 1, velocity: 0)
        }
        #expect(throws: AnimationError.invalidEasing("spring mass must be positive (got -1)")) {
            try Easing.spring(stiffness: 1, damping: 10, mass: -1, velocity: 0)
        }
        #expect(throws: AnimationError.invalidEasing("spring damping must not be negative (got -3)")) {
            try Easing.spring(stiffness: 1, damping: -3, mass: 1, velocity: 0)
        }
        for bad in [Double.nan, .infinity, -.infinity] {
            #expect(throws: AnimationError.self) { try Easing.spring(dampingRatio: bad) }
            #expect(throws: AnimationError.self) { try Easing.spring(dampingRatio: 1, angularFrequency: bad) }
            #expect(throws: AnimationError.self) { try Easing.spring(dampingRatio: 1, velocity: bad) }
            #expect(throws: AnimationError.self) { try Easing.spring(bounce: bad) }
            #expect(throws: AnimationError.self) { try Easing.spring(stiffness: bad, damping: 1, mass: 1, velocity: 0) }
            #expect(throws: AnimationError.self) { try Easing.spring(stiffness: 1, damping: bad, mass: 1, velocity: 0) }
            #expect(throws: AnimationError.self) { try Easing.spring(stiffness: 1, damping: 1, mass: bad, velocity: 0) }
            #expect(throws: AnimationError.self) { try Easing.spring(stiffness: 1, damping: 1, mass: 1, velocity: bad) }
        }
        #expect(throws: AnimationError.self) { try Easing.spring(dampingRatio: -0.5) }
        #expect(throws: AnimationError.self) { try Easing.spring(dampingRatio: 1, angularFrequency: 0) }
        #expect(throws: AnimationError.self) { try Easing.spring(bounce: 1.5) }
    }

    /// Huge and tiny parameters: every factory call ends, and what it accepts
    /// has a finite, positive settling time and finite values where the
    /// motion itself is moderate.
    @Test func extremeParametersTerminate() {
        let magnitudes: [Double] = [Double.leastNonzeroMagnitude, 1e-308, 1e-300, 1e-200, 1e-150, 1e-20, 1e-8, 1, 1e8, 1e20, 1e150, 1e200, 1e300, 1.7e308]
        var accepted = 0
        for k in magnitudes {
            for c in magnitudes {
                for m in [1e-300, 1, 1e300] {
                    for v in [0, -1e300, 1e300, 3] {
                        guard let e = try? Easing.spring(stiffness: k, damping: c, mass: m, velocity: v),
                              let s = e.spring else { continue }
                        accepted += 1
                        #expect(s.settlingTime.isFinite && s.settlingTime > 0, "K \(k) C \(c) M \(m) V \(v)")
                        // The printer's parameters reproduce it exactly, even here.
                        let p = s.physicalParameters
                        #expect((try? Easing.spring(stiffness: p.stiffness, damping: p.damping, mass: p.mass, velocity: p.velocity)) == e,
                                "K \(k) C \(c) M \(m) V \(v) → \(p)")
                        #expect(e(0) == 0 && e(1) == 1)
                        if v == 0 {
                            // Released from rest, the motion stays within the envelope at 0, |x − 1| ≤ max(1, |A| + |B|).
                            for p in [0.001, 0.25, 0.5, 0.999] { #expect(e(p).isFinite, "K \(k) C \(c) M \(m) at \(p)") }
                        }
                    }
                }
            }
        }
        #expect(accepted > 100)
        for zeta in [Double.leastNonzeroMagnitude, 1e-300, 1e-20, 1e20, 1e300, 1.7e308] {
            _ = try? Easing.spring(dampingRatio: zeta)
            _ = try? Easing.spring(dampingRatio: zeta, velocity: 1e308)
        }
    }

    // MARK: Inverses, for printing

    @Test func bounceAndPhysicalParametersReadBack() throws {
        #expect(try Easing.Spring(dampingRatio: 0.7).bounce == 0.3)
        #expect(try Easing.Spring(dampingRatio: 2).bounce == -0.5)
        #expect(try Easing.Spring(dampingRatio: 1).bounce == 0)
        #expect(try Easing.Spring(dampingRatio: 1, velocity: 1).bounce == nil)
        #expect(try Easing.Spring(dampingRatio: 1, angularFrequency: 2).bounce == nil)
        let s = try #require(try Easing.spring(stiffness: 200, damping: 12, mass: 1, velocity: 0).spring)
        let p = s.physicalParameters
        #expect(p.stiffness == 200 && p.damping == 12 && p.mass == 1 && p.velocity == 0)
    }

    @Test func everyDecimalSpringHasAnExactSpelling() throws {
        // Decimal parameters as a script writes them, every regime, masses other than 1.
        var random = SplitMix(seed: 7)
        var missing: [String] = []
        for _ in 0..<20_000 {
            let k = random.decimal(), c = random.decimal(), m = random.bool() ? 1 : random.decimal()
            let v = random.bool() ? 0 : random.decimal() * (random.bool() ? 1 : -1)
            guard let s = try Easing.spring(stiffness: k, damping: c, mass: m, velocity: v).spring else { continue }
            if let b = s.bounce {
                #expect(try Easing.spring(bounce: b) == Easing(s))
            }
            let p = s.physicalParameters
            if try Easing.spring(stiffness: p.stiffness, damping: p.damping, mass: p.mass, velocity: p.velocity) != Easing(s) {
                missing.append("K \(k) C \(c) M \(m) V \(v)")
            }
        }
        #expect(missing.isEmpty, "\(missing.count) without a spelling, e.g. \(missing.prefix(5))")
    }
}

extension Easing {
    init(_ spring: Spring) {
        self = (try? Easing.spring(dampingRatio: spring.dampingRatio, angularFrequency: spring.angularFrequency,
                                   velocity: spring.velocity)) ?? .linear
    }
}

/// SplitMix64, for reproducible decimals.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func bool() -> Bool { next() & 1 == 0 }
    /// A decimal with 1–4 significant digits between 0.001 and 1000.
    mutating func decimal() -> Double {
        let digits = Double(1 + next() % 9999)
        let scale = [1e-3, 1e-2, 0.1, 1, 10, 100][Int(next() % 6)]
        return Double("\(Int(digits))e\(Int(log10(scale)))") ?? digits
    }
}
