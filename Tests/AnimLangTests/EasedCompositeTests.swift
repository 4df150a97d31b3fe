import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The language's `with` on composites (docs/semantics.md §3's extended rule), checked against values derived by hand from
/// the note's formulas. Every expectation says how it was derived; none
/// was copied from animc's output.
struct EasedCompositeTests: ScriptChecking {
    /// `with E` on tweens that span the whole window composes E into each one's easing,
    /// keeping the overshoot: `fadeIn all views with ease-out-back` is the parallel of
    /// the eased tweens (1.0876975 at 0.5), also for `a || b` of equal lengths, lets and
    /// parentheses; E composes after the tween's own easing: quad(back(0.5)) = 1.0876975²
    /// = 1.18308585…; back(quad(0.5)) = back(0.25) = 1 + 2.70158·(−0.75)³ + 1.70158·0.75² = 0.8174096875.
    @Test func withComposesOnTweensOverTheWholeWindow() throws {
        let source = """
            view a
            view b
            let t = fadeIn a
            let every = fadeIn all views with ease-out-back
            let apart = fadeIn a with ease-out-back || fadeIn b with ease-out-back
            let pair = (fadeIn a || fadeIn b) with ease-out-back
            let bound = (t) with ease-out-back || ((fadeIn b)) with ease-out-back
            let quadBack = (animate a.x from 0 to 100 with ease-in-quad) with ease-out-back
            let backQuad = (animate a.x from 0 to 100 with ease-out-back) with ease-in-quad
            let mixed = (fadeIn a || fadeOut b || wait 1) with ease-out-back
            """
        try Self.expectSame(source, "every", "apart")
        try Self.expectSame(source, "pair", "apart")
        try Self.expectSame(source, "bound", "apart")
        try Self.expectNumbers(source + "\nlet f = every", [("0.5", "a.opacity", 1.0876975), ("0.5", "b.opacity", 1.0876975)])
        try Self.expectNumbers(source + "\nlet f = quadBack", [("0.5", "a.x", 118.30858515062499)])
        try Self.expectNumbers(source + "\nlet f = backQuad", [("0.5", "a.x", 81.74096875)])
        try Self.expectNumbers(source + "\nlet f = mixed", [("0.5", "a.opacity", 1.0876975), ("0.5", "b.opacity", -0.0876975)])
        // Segments that do not span the whole window: E must be monotone.
        #expect(Self.diagnostics("let f = (fadeIn a || fadeIn b in 2s) with ease-out-back") == ["1:43 non-monotone-warp"])
        #expect(Self.diagnostics("let f = (fadeIn a || wait 2) with ease-out-back") == ["1:35 non-monotone-warp"])
        #expect(Self.diagnostics("let f = (fadeIn a reversed) with ease-out-back") == ["1:34 non-monotone-warp"])
        // A monotone E on such a composite is the warp: ease-in-quad on 2 s at t = 1 is the state at 2·(1/2)² = 0.5.
        try Self.expectNumbers("let f = (fadeIn a || fadeIn b in 2s) with ease-in-quad", [("1", "a.opacity", 0.5), ("1", "b.opacity", 0.25)])
    }
}
