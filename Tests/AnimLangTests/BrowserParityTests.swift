import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Where the browsers' own easing and timing tests disagreed with animc, the
/// browsers' rule, as a table. Every expected value is derived by hand from
/// the rule quoted with it (Chromium's `gfx::CubicBezier`, which Gecko's
/// `ComputedTimingFunction` matches; Web Animations' before flag), not read
/// from animc.
struct BrowserParityTests {
    /// The value of `v.x` at `time` seconds in the last binding of `source`.
    static func value(_ source: String, at time: Time) throws -> Double? {
        let file = SourceFile(name: "parity.anim", text: "view v\n" + source + "\n")
        let outcome = run(file)
        let scene = try #require(try outcome.scene?.compile(), "\(render(outcome.diagnostics, in: file))")
        return scene.value(of: Property(view: "v", name: "x"), at: time, initial: nil)?.number
    }

    // MARK: cubic-bezier outside [0, 1]

    /// Outside [0, 1] a cubic Bézier continues as a straight line through its
    /// end point. Chromium (`CubicBezier::InitGradients`): below 0 the slope is
    /// `y1/x1` when `x1 > 0`, else `y2/x2` when `y1 = 0` and `x2 > 0`, else 1
    /// when `y1 = y2 = 0` (the curve is the diagonal), else 0 (a vertical
    /// tangent: no extrapolation); above 1 likewise with `(y2−1)/(x2−1)` when
    /// `x2 < 1`, `(y1−1)/(x1−1)` when `y2 = 1` and `x1 < 1`, 1 when
    /// `y1 = y2 = 1`, else 0.
    @Test(arguments: [
        // (x1, y1, x2, y2), input, expected
        ([0, 1.5, 1, 1.5], -0.5, 0.0),              // vertical tangents at both ends: flat
        ([0, 1.5, 1, 1.5], 1.5, 1.0),
        ([0, -0.5, 1, -0.5], -0.5, 0.0),
        ([0, -0.5, 1, -0.5], 1.5, 1.0),
        ([0, 0.5, 0.5, 1], -1, 0.0),                // P1 above P0: vertical, not the line through P2
        ([0.5, 0, 1, 0.5], 2, 1.0),                 // P2 below P3: likewise
        ([0.42, 0, 1, 1], -0.5, 0.0),               // ease-in: slope 0/0.42 below
        ([0.42, 0, 1, 1], 1.5, 1 + 0.5 / 0.58),     // and (0 − 1)/(0.42 − 1) above, through P1
        ([0, 0, 0.58, 1], -0.5, -0.5 / 0.58),       // ease-out: through P2 below (P1 = P0)
        ([0, 0, 0.58, 1], 1.5, 1.0),                // (1 − 1)/(0.58 − 1) = 0 above
        ([0.25, 0.1, 0.25, 1], -1, -0.4),           // ease: 0.1/0.25
        ([0, 0, 0, 0], -1, -1.0),                   // the diagonal: slope 1 on both sides
        ([0, 0, 0, 0], 2, 2.0),
        ([1, 1, 1, 1], -1, -1.0),
        ([1, 1, 1, 1], 2, 2.0),
        ([0.68, -0.6, 0.32, 1.6], -0.1, 0.06 / 0.68),
        ([0.68, -0.6, 0.32, 1.6], 1.1, 1 - 0.06 / 0.68),
    ] as [([Double], Double, Double)])
    func cubicBezierOutsideTheUnitInterval(points: [Double], input: Double, expected: Double) throws {
        let easing = try Easing.cubicBezier(points[0], points[1], points[2], points[3])
        #expect(abs(easing(input) - expected) <= 1e-15, "\(points) at \(input): \(easing(input))")
    }

    /// The cases: a Bézier composed with itself reads its outer curve
    /// outside [0, 1]; at 0.24 the inner `cubic-bezier(0, 1.5, 1, 1.5)` is
    /// about 1.01 (x(t) = 3t² − 2t³ = 0.24 at t ≈ 0.319, y = 4.5t(1 − t) + t³),
    /// where the outer one is flat at 1: browsers show 100, not 99.52. At 0.01
    /// the inner `cubic-bezier(0, -0.5, 1, -0.5)` is below 0, where the outer
    /// one is flat at 0: 0, not 4.15.
    @Test(arguments: [
        ("cubic-bezier(0, 1.5, 1, 1.5)", Time(numerator: 24, denominator: 100), 100.0),
        ("cubic-bezier(0, -0.5, 1, -0.5)", Time(numerator: 1, denominator: 100), 0.0),
    ])
    func aComposedBezierPlaysAsInTheBrowser(curve: String, time: Time?, expected: Double) throws {
        let source = "let final = animate v.x from 0 to 100 with compose(\(curve), \(curve))"
        #expect(try Self.value(source, at: try #require(time)) == expected)
    }

    // MARK: CSS linear(…) as an input easing

    /// CSS Easing Level 2's `linear()`: the first input defaults to 0% and
    /// the last to 100%, missing inputs are spread evenly between their
    /// neighbours, an input below an earlier one is raised to it, a stop with
    /// two inputs is two points; the output is read off the last point whose
    /// input is at most x and the next (the first or last line continued
    /// outside; at equal inputs, the later point's output).
    @Test(arguments: [
        ("linear(0, 0.25 75%, 1)", 0.375, 0.125),          // (0, 0)–(0.75, 0.25): halfway
        ("linear(0, 0.25 75%, 1)", 0.875, 0.625),          // (0.75, 0.25)–(1, 1): halfway
        ("linear(0, 0.5 25% 75%, 1)", 0.5, 0.5),           // the flat stretch of a two-input stop
        ("linear(0, 0.5 25% 75%, 1)", 0.875, 0.75),
        ("linear(0, 0.7, 0.87, 0.98, 1)", 0.125, 0.35),    // inputs 0, 25%, 50%, 75%, 100%
        ("linear(0, 0.5 50%, 0.3 25%, 1)", 0.5, 0.3),      // 25% raised to 50%: a jump down at 50%
        ("linear(0, 0.5 50%, 0.3 25%, 1)", 0.25, 0.25),
        ("linear(0, 0 50%, 1 50%, 1)", 0.5, 1),            // a jump: the later point at 50%
        ("linear(0, 1)", -0.5, -0.5),                      // the first line continued
        ("linear(0, 1)", 1.5, 1.5),                        // the last line continued
        ("linear(0.2, 1)", 0, 0.2),
    ])
    func cssLinearPoints(easing: String, input: Double, expected: Double) throws {
        let file = SourceFile(name: "linear.anim", text: "view v\nlet final = animate v.x from 0 to 1 with \(easing)\n")
        let outcome = run(file)
        let scene = try #require(try outcome.scene?.compile(), "\(render(outcome.diagnostics, in: file))")
        let segment = try #require(scene.segments.first)
        #expect(abs(segment.easing(input) - expected) <= 1e-15, "\(easing) at \(input): \(segment.easing(input))")
    }

    /// `linear()` reads back as written out in full, and is what the CSS export writes.
    @Test func cssLinearPrintsAndExportsAsWritten() throws {
        let file = SourceFile(name: "linear.anim", text: "view v\nlet final = animate v.x from 0 to 100 with linear(0, 0.25 75%, 1)\n")
        let outcome = run(file)
        let easing = try #require(try outcome.scene?.compile()?.segments.first?.easing)
        #expect(EasingNames.spelling(of: easing) == "linear(0 0%, 0.25 75%, 1 100%)")
        #expect(cssEasing(of: easing) == .single("linear(0 0%, 0.25 75%, 1 100%)"))
        let again = run(SourceFile(name: "again.anim", text: "view v\nlet final = animate v.x from 0 to 100 with linear(0 0%, 0.25 75%, 1 100%)\n"))
        #expect(try again.scene?.compile()?.segments.first?.easing == easing)
    }

    /// Fewer than two points is an error; a non-monotone `linear()` cannot warp a composite.
    @Test(arguments: [
        ("let final = fadeIn v with linear(1)", "invalid-easing"),
        ("let final = (fadeIn v ; fadeOut v) with linear(0, 1.2 50%, 1)", "non-monotone-warp"),
    ])
    func cssLinearMistakes(source: String, id: String) {
        let outcome = run(SourceFile(name: "linear.anim", text: "view v\n" + source + "\n"))
        #expect(outcome.diagnostics.map(\.id) == [id])
    }

    // MARK: steps and the before flag

    /// Web Animations: an animation playing in reverse is, at and after its
    /// end, in its after phase with the before flag set, so `steps(n, start)`
    /// (and `jump-both`) gives 0 there: the tween holds its raw end. Played
    /// forwards, the before flag is unset in the active phase, so the jump at
    /// the start shows at the start instant.
    @Test(arguments: [
        // `steps(2, start)` on 0 → 1, reversed (1 → 0), delayed 1 s: 1 at 1 s,
        // 1 until the middle (steps(2, start)(0.5) = 1), ½ after it, 0 at 2 s.
        ("(animate v.x from 0 to 1 with steps(2, start)) reversed delayed by 1s", "2", 0.0),
        ("(animate v.x from 0 to 1 with steps(2, start)) reversed delayed by 1s", "7/4", 0.5),
        ("(animate v.x from 0 to 1 with steps(2, start)) reversed delayed by 1s", "3/2", 1.0),
        ("(animate v.x from 0 to 1 with steps(2, start)) reversed delayed by 1s", "1", 1.0),
        ("(animate v.x from 0 to 1 with steps(2, jump-both)) reversed", "1", 0.0),
        ("(animate v.x from 0 to 1 with steps(2, jump-end)) reversed", "1", 0.0),
        // Forwards: the start shows the first jump, the end its top.
        ("animate v.x from 0 to 1 with steps(2, start) delayed by 1s", "1", 0.5),
        ("animate v.x from 0 to 1 with steps(2, start) delayed by 1s", "1/2", 0.0),
        ("animate v.x from 0 to 1 with steps(2, start) delayed by 1s", "2", 1.0),
        ("animate v.x from 0 to 1 with steps(2, jump-none)", "1", 1.0),
    ])
    func stepsWithTheBeforeFlag(expression: String, time: String, expected: Double) throws {
        let parts = time.split(separator: "/").compactMap { Int64($0) }
        let t = try #require(parts.count == 2 ? Time(numerator: parts[0], denominator: parts[1]) : Time(parts[0]))
        #expect(try Self.value("let final = \(expression)", at: t) == expected)
    }
}
