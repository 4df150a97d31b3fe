import Testing
import Animations
@testable import AnimLang

/// Web Animations' `iterationStart` and fractional `iterations`, as the
/// timing-model tests of web-platform-tests exercise them (an effect of
/// duration d over keyframes 0 → 1, linear, `fill: both`), written in animc:
/// `(x repeated forever) played from s·d to (s + n)·d`, and for `s = 0`
/// `x ^ n`. (The WPT file itself was not at hand; the expected progress
/// values below are worked out from the Web Animations spec's definitions:
/// overall progress `s + t/d`, simple iteration progress its fractional part,
/// except 1 at the very end when the overall progress there is a whole number.)
struct WebAnimationsPartTests: ScriptChecking {
    struct Case: CustomStringConvertible, Sendable {
        /// iterationStart, iterations, and (active time in units of d, progress).
        let start: String, iterations: String
        let rows: [(String, Double)]
        var description: String { "iterationStart \(start), iterations \(iterations)" }
    }

    static let cases: [Case] = [
        // s 0.5, n 1: 0.5 at 0; 0.75 at 0.25; at 0.5 the next iteration starts (overall 1): 0; end (overall 1.5): 0.5.
        Case(start: "0.5", iterations: "1", rows: [("0", 0.5), ("1/4", 0.75), ("1/2", 0), ("3/4", 0.25), ("1", 0.5)]),
        // s 0.5, n 1.5: end at overall 2, a whole number: 1.
        Case(start: "0.5", iterations: "1.5", rows: [("0", 0.5), ("1/2", 0), ("1", 0.5), ("3/2", 1)]),
        // s 0.2, n 1: 0.2 at 0; end at overall 1.2: 0.2.
        Case(start: "0.2", iterations: "1", rows: [("0", 0.2), ("4/5", 0), ("1", 0.2)]),
        // s 1.5, n 0.5: 0.5 at 0, end at overall 2: 1.
        Case(start: "1.5", iterations: "0.5", rows: [("0", 0.5), ("1/4", 0.75), ("1/2", 1)]),
        // s 0, n 2.5: 0 at 0, iteration 1 starts at 1 (0), 2 at 2 (0), end at 2.5: 0.5.
        Case(start: "0", iterations: "2.5", rows: [("0", 0), ("1", 0), ("9/4", 0.25), ("5/2", 0.5)]),
        // s 0, n 0.5: end at 0.5.
        Case(start: "0", iterations: "0.5", rows: [("0", 0), ("1/2", 0.5)]),
    ]

    @Test(arguments: cases)
    func iterationStartAndFractionalIterations(_ testCase: Case) throws {
        let s = Self.time(testCase.start), n = Self.time(testCase.iterations)
        let end = try s.adding(n)
        let effect = "animate v.p from 0 to 1 in 1s"
        let source = "let e = (\(effect) repeated forever) played from \(s)s to \(end)s"
        try Self.expectNumbers(source, testCase.rows.map { ($0.0, "v.p", $0.1) })
        // With no iterationStart, `^ n` says the same.
        if s.isZero {
            try Self.expectNumbers("let e = (\(effect)) ^ \(testCase.iterations)", testCase.rows.map { ($0.0, "v.p", $0.1) })
        }
    }
}
