import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The language's `forever` (docs/semantics.md §6.6), checked against values derived by hand from
/// the note's formulas. Every expectation says how it was derived; none
/// was copied from animc's output.
struct ForeverTests: ScriptChecking {
    /// Sampling at 10⁹ s is exact and immediate: 10⁹ mod 1.5 = 1 → 240°; 10⁹ + 0.75 → 1.75 mod 1.5 = 0.25 → 60°.
    @Test func foreverSampledFarAway() throws {
        let source = "let f = rotate s from 0 to 360 in 1.5s repeated forever"
        let clock = ContinuousClock()
        let started = clock.now
        #expect(Self.eval(source, at: ["1000000000", "1000000000.75"]) == "time,s.rotation\n1000000000,240\n1000000000.75,60\n")
        #expect(clock.now - started < .seconds(2))
        // --until: rows 0, 1/fps, …, T. At 3 a new copy starts (latest start wins): 0.
        #expect(Self.eval(source, fps: 1, until: "3") == "time,s.rotation\n0,0\n1,240\n2,120\n3,0\n")
        // Without --until (or --at) it is refused.
        let refused = evaluateToText(Self.file(source))
        #expect(!refused.succeeded && refused.diagnostics.contains("repeats forever") && refused.diagnostics.contains("--until"))
    }

    /// `looped forever` is (x ; x reversed) repeated forever: period 2. At 1 the reversed copy starts
    /// (value 1), at 2 the next forward copy (0); 10⁹ + 1 is 1 into a period, 10⁹ + 1.25 is 1.25: 0.75.
    @Test func loopedForever() {
        #expect(Self.eval("let f = fadeIn a looped forever", fps: 2, until: "2.5") == """
            time,a.opacity
            0,0
            0.5,0.5
            1,1
            1.5,0.5
            2,0
            2.5,0.5

            """)
        #expect(Self.eval("let f = fadeIn a looped forever", at: ["1000000001", "1000000001.25"]) == "time,a.opacity\n1000000001,1\n1000000001.25,0.75\n")
    }

    /// Composition with forever: `(x forever) ; y` warns and is `x forever`; `y ; (x forever)`
    /// starts after y; `||` runs both; `^ n`, `repeated N times` are itself, `^ 0` is one;
    /// `delayed by` and `staggered by` work; reversed, looped, in and warps are errors.
    @Test func composingForever() throws {
        let warned = "let f = (fadeIn a repeated forever) ; fadeOut b"
        #expect(Self.diagnostics(warned, severity: .warning) == ["1:39 never-starts"])
        #expect(Self.diagnostics(warned).isEmpty)
        #expect(Self.eval(warned, fps: 2, until: "1.5") == "time,a.opacity\n0,0\n0.5,0.5\n1,0\n1.5,0.5\n")
        // zero still annihilates: cancelled, and no word of never starting.
        #expect(try Self.scene("let f = (fadeIn a repeated forever) ; zero").isCancelled)
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) ; zero", severity: .warning).isEmpty)
        #expect(Self.eval("let f = fadeOut b ; (fadeIn a repeated forever)", fps: 2, until: "2.5")
                == "time,a.opacity,b.opacity\n0,0,1\n0.5,0,0.5\n1,0,0\n1.5,0.5,0\n2,0,0\n2.5,0.5,0\n")
        #expect(Self.eval("let f = (fadeIn a in 2s repeated forever) || fadeOut b", fps: 2, until: "2.5")
                == "time,a.opacity,b.opacity\n0,0,1\n0.5,0.25,0.5\n1,0.5,0\n1.5,0.75,0\n2,0,0\n2.5,0.25,0\n")
        let source = """
            let x = fadeIn a repeated forever
            let p = x ^ 3
            let q = x repeated 2 times
            let r = x ^ 0 ; fadeIn b
            let s = fadeIn b
            """
        try Self.expectSame(source, "x", "p")
        try Self.expectSame(source, "x", "q")
        try Self.expectSame(source, "r", "s")
        #expect(Self.eval("let f = (fadeIn a repeated forever) delayed by 1s", fps: 2, until: "2")
                == "time,a.opacity\n0,0\n0.5,0\n1,0\n1.5,0.5\n2,0\n")
        #expect(Self.eval("let f = (fadeIn a || fadeIn b) repeated forever staggered by 0.5s", fps: 4, until: "1.5")
                == "time,a.opacity,b.opacity\n0,0,0\n0.25,0.25,0\n0.5,0.5,0\n0.75,0.75,0.25\n1,0,0.5\n1.25,0.25,0.75\n1.5,0.5,0\n")
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) reversed") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) looped") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) looped forever") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) in 2s") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever ; fadeIn b) with ease-in") == ["1:48 infinite-animation"])
        // Dx must be > 0.
        #expect(Self.diagnostics("let f = emit x repeated forever") == ["1:16 forever-of-instant"])
        #expect(Self.diagnostics("let f = (fadeIn a in 0s) looped forever") == ["1:26 forever-of-instant"])
    }

    /// `--until` works for finite animations too: past D every property holds; before D the rows stop at T.
    @Test func untilOnFiniteAnimations() {
        #expect(Self.eval("let f = fadeIn a ; emit done", fps: 2, until: "2") == "time,a.opacity,events\n0,0,\n0.5,0.5,\n1,1,done\n1.5,1,\n2,1,\n")
        #expect(Self.eval("let f = fadeIn a in 2s", fps: 2, until: "0.75") == "time,a.opacity\n0,0\n0.5,0.25\n0.75,0.375\n")
    }
}
