import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The language's springs written in scripts (docs/semantics.md §6.4), checked against values derived by hand from
/// the note's formulas. Every expectation says how it was derived; none
/// was copied from animc's output.
struct SpringScriptTests: ScriptChecking {
    /// The oscillator and its settling time, written from docs/semantics.md §6.4's formulas in
    /// seconds (ω and v as the note uses them), independently of the library.
    struct SpringReference {
        let zeta: Double, omega: Double, v: Double
        static let epsilon = 0.001

        func x(_ t: Double) -> Double {
            if zeta < 1 {
                let wd = omega * (1 - zeta * zeta).squareRoot()
                return 1 - exp(-zeta * omega * t) * (cos(wd * t) + ((zeta * omega - v) / wd) * sin(wd * t))
            } else if zeta == 1 {
                return 1 - exp(-omega * t) * (1 + (omega - v) * t)
            } else {
                let (r1, r2, a, b) = overdamped
                return 1 - (a * exp(r1 * t) + b * exp(r2 * t))
            }
        }

        var overdamped: (Double, Double, Double, Double) {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega * (zeta - root), r2 = -omega * (zeta + root)
            let a = (-v - r2) / (r1 - r2)
            return (r1, r2, a, 1 - a)
        }

        /// T: closed form for ζ < 1; the largest root of the envelope = ε otherwise (it
        /// starts at 1 > ε and crosses ε once on its way down), by bisection.
        var settlingTime: Double {
            if zeta < 1 {
                let wd = omega * (1 - zeta * zeta).squareRoot()
                let c = (zeta * omega - v) / wd
                return log((1 + c * c).squareRoot() / Self.epsilon) / (zeta * omega)
            }
            func envelope(_ t: Double) -> Double {
                if zeta == 1 { return exp(-omega * t) * (1 + abs(omega - v) * t) }
                let (r1, r2, a, b) = overdamped
                return abs(a) * exp(r1 * t) + abs(b) * exp(r2 * t)
            }
            var low = 0.0, high = 1.0
            while envelope(high) > Self.epsilon { low = high; high *= 2 }
            for _ in 0..<200 {
                let mid = (low + high) / 2
                if envelope(mid) > Self.epsilon { low = mid } else { high = mid }
            }
            return high
        }

        func easing(_ p: Double) -> Double { p >= 1 ? 1 : x(p * settlingTime) }
    }

    static let springProgresses = ["0", "0.05", "0.1", "0.2", "0.25", "0.3", "0.4", "0.5", "0.6", "0.75", "0.9", "0.99", "1"]

    /// Every spelling of the table, with its ζ, ω and v: the tween
    /// `animate v.x from 0 to 1 with SPRING` holds E(p) at t = p.
    static let springSpellings: [(String, SpringReference)] = [
        ("spring", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("smooth spring", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("a spring", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("snappy spring", SpringReference(zeta: 0.85, omega: 1, v: 0)),
        ("a snappy spring", SpringReference(zeta: 0.85, omega: 1, v: 0)),
        ("bouncy spring", SpringReference(zeta: 0.7, omega: 1, v: 0)),
        // bounce B ≥ 0: ζ = 1 − B; B < 0: ζ = 1/(1 + B).
        ("spring(bounce 0.3)", SpringReference(zeta: 1 - 0.3, omega: 1, v: 0)),
        ("spring(bounce 0)", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("spring(bounce -0.5)", SpringReference(zeta: 2, omega: 1, v: 0)),
        ("spring(bounce 0.9)", SpringReference(zeta: 1 - 0.9, omega: 1, v: 0)),
        // Physical: ζ = C/(2√(KM)), ω = √(K/M), v = V; defaults K 100, C 10, M 1, V 0.
        ("spring(stiffness 100)", SpringReference(zeta: 0.5, omega: 10, v: 0)),
        ("spring(damping 20)", SpringReference(zeta: 1, omega: 10, v: 0)),                 // ζ = 20/20 = 1
        ("spring(damping 30)", SpringReference(zeta: 1.5, omega: 10, v: 0)),
        ("spring(mass 4)", SpringReference(zeta: 0.25, omega: 5, v: 0)),                   // 10/(2·20), √25
        ("spring(stiffness 200, damping 10)", SpringReference(zeta: 10 / (2 * 200.0.squareRoot()), omega: 200.0.squareRoot(), v: 0)),
        ("spring(velocity 5)", SpringReference(zeta: 0.5, omega: 10, v: 5)),
        ("spring(velocity -8, mass 1, damping 10, stiffness 100)", SpringReference(zeta: 0.5, omega: 10, v: -8)),
        ("spring(damping 20, velocity 25)", SpringReference(zeta: 1, omega: 10, v: 25)),     // critical, overshoots
        ("spring(damping 30, velocity -10)", SpringReference(zeta: 1.5, omega: 10, v: -10)), // overdamped, starts backwards
        ("spring(stiffness 400, damping 10, mass 4)", SpringReference(zeta: 10 / (2 * 40.0), omega: 10, v: 0)),
    ]

    @Test(arguments: springSpellings.indices)
    func springValuesFollowTheFormulas(_ index: Int) throws {
        let (spelling, reference) = Self.springSpellings[index]
        let source = "let f = animate v.x from 0 to 1 with \(spelling)"
        try Self.expectNumbers(source, Self.springProgresses.map { ($0, "v.x", reference.easing(Double($0) ?? 0)) })
    }

    /// Hand-checked points of the curves above (so the reference itself is checked):
    ///
    /// * `spring` (ζ = 1, ω = 1, v = 0): T solves e^(−T)(1 + T) = 0.001: T = 9.2334 (to 4 digits);
    ///   E(0.5) = 1 − e^(−T/2)(1 + T/2) = 1 − 0.0098853·5.61671 = 0.944477
    /// * `bouncy spring` (ζ = 0.7): T = ln(√(1 + 0.49/0.51)/0.001)/0.7 = 10.349182 (see SamplingRuleTests):
    ///   E(0.5) = 1.0365053
    /// * `spring(bounce -0.5)`, ζ = 2: r1 = −(2 − √3) = −0.267949, r2 = −3.732051, A = 3.732051/3.464102 = 1.077350,
    ///   B = −0.077350; T solves 1.07735e^(r1 T) + 0.07735e^(r2 T) = 0.001: T = 26.0581 (the fast term is
    ///   negligible there: ln(1077.35)/0.267949 = 6.98225/0.267949 = 26.0581)
    @Test func springReferencePoints() {
        let critical = SpringReference(zeta: 1, omega: 1, v: 0)
        #expect(abs(critical.settlingTime - 9.2334) < 1e-4)
        #expect(abs(critical.easing(0.5) - 0.944477) < 1e-6)
        let bouncy = SpringReference(zeta: 0.7, omega: 1, v: 0)
        #expect(abs(bouncy.settlingTime - 10.349182) < 1e-6)
        #expect(abs(bouncy.easing(0.5) - 1.0365053) < 1e-7)
        let over = SpringReference(zeta: 2, omega: 1, v: 0)
        #expect(abs(over.settlingTime - 26.0581) < 1e-4)
    }

    /// E(1) = 1 exactly, the whole settling is fitted to the window (`in 3s`: t = 1.5 is p = 0.5),
    /// an underdamped spring overshoots, an overdamped one without velocity never does, and a
    /// velocity shows at the start (v < 0 goes below 0 first).
    @Test func springShapes() throws {
        let bouncy = SpringReference(zeta: 0.7, omega: 1, v: 0)
        try Self.expectNumbers("let f = animate v.x from 0 to 100 in 3s with bouncy spring",
                               [("1.5", "v.x", 100 * bouncy.easing(0.5)), ("0.3", "v.x", 100 * bouncy.easing(0.1)), ("3", "v.x", 100)])
        let (scene, _) = try Self.compiled("let f = animate v.x from 0 to 1 with spring(damping 30, velocity -10) || animate v.y from 0 to 1 with spring(bounce -0.5) || animate v.z from 0 to 1 with spring(mass 4)")
        let x = Property(view: "v", name: "x"), y = Property(view: "v", name: "y"), z = Property(view: "v", name: "z")
        #expect(scene.value(of: x, at: Time(1))?.number == 1)
        #expect(scene.value(of: y, at: Time(1))?.number == 1)
        #expect((scene.value(of: x, at: Self.time("0.01"))?.number ?? 0) < 0)
        var highest = 0.0, y0 = 0.0, monotone = true
        for k in 0...1000 {
            let t = Time(numerator: Int64(k), denominator: 1000) ?? .zero
            let value = scene.value(of: y, at: t)?.number ?? 0
            if value < y0 { monotone = false }
            y0 = value
            highest = max(highest, scene.value(of: z, at: t)?.number ?? 0)
        }
        #expect(monotone)
        #expect(highest > 1.4)   // ζ = 0.25 overshoots by e^(−πζ/√(1 − ζ²)) = 0.444
    }

    /// Every spring counts as non-monotone: on a composite it is an error, even
    /// the critically damped one; on tweens over one window it composes.
    @Test func springsOnComposites() throws {
        #expect(Self.diagnostics("let f = (fadeIn a ; fadeIn b) with spring") == ["1:36 non-monotone-warp"])
        #expect(Self.diagnostics("let f = (fadeIn a ; fadeIn b) with spring(bounce -0.5)") == ["1:36 non-monotone-warp"])
        let bouncy = SpringReference(zeta: 0.7, omega: 1, v: 0)
        try Self.expectNumbers("view a\nview b\nlet f = fadeIn all views with bouncy spring",
                               [("0.5", "a.opacity", bouncy.easing(0.5)), ("0.5", "b.opacity", bouncy.easing(0.5))])
        #expect(Self.diagnostics("let f = fadeIn a with spring(damping 0)") == ["1:38 spring-never-settles"])
    }
}
