import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The language's stagger and target lists (docs/semantics.md §6.3), checked against values derived by hand from
/// the note's formulas. Every expectation says how it was derived; none
/// was copied from animc's output.
struct StaggerTests: ScriptChecking {
    /// Order by first mention in the file: `view c` (line 1), `fadeIn b` (line 2),
    /// `view a` (line 3). So c at 0, b at 0.5, a at 1; duration 1 + 2·0.5 = 2.
    /// `backwards` reverses it: a at 0, b at 0.5, c at 1.
    @Test func staggerOrderIsFirstMention() {
        let source = "view c\nlet intro = fadeIn b\nview a\nlet f = fadeIn a, b and c staggered by 0.5s"
        #expect(Self.eval(source, fps: 4) == """
            time,a.opacity,b.opacity,c.opacity
            0,0,0,0
            0.25,0,0,0.25
            0.5,0,0,0.5
            0.75,0,0.25,0.75
            1,0,0.5,1
            1.25,0.25,0.75,1
            1.5,0.5,1,1
            1.75,0.75,1,1
            2,1,1,1

            """)
        #expect(Self.eval(source + " backwards", fps: 4) == """
            time,a.opacity,b.opacity,c.opacity
            0,0,0,0
            0.25,0.25,0,0
            0.5,0.5,0,0
            0.75,0.75,0.25,0
            1,1,0.5,0
            1.25,1,0.75,0.25
            1.5,1,1,0.5
            1.75,1,1,0.75
            2,1,1,1

            """)
    }

    /// Duration D + (n − 1)·DUR: `(fadeIn a ; fadeIn b in 2s)` lasts 3, two views,
    /// 1 s apart: 4. a's segment stays on [0, 1]; b's [1, 3] moves to [2, 4].
    @Test func staggerDurationAndShifts() throws {
        let source = "let f = (fadeIn a ; fadeIn b in 2s) staggered by 1s"
        #expect(try Self.scene(source).duration == Time(4))
        try Self.expectNumbers(source, [("1", "a.opacity", 1), ("2", "b.opacity", 0), ("3", "b.opacity", 0.5), ("4", "b.opacity", 1)])
        // Stagger 0 changes nothing.
        try Self.expectSame("let x = fadeIn a ; fadeIn b in 2s\nlet y = x staggered by 0s", "x", "y")
        // No views (n = 0): D. zero staggered is zero.
        #expect(try Self.scene("let f = wait 1.5 staggered by 1s").duration == Time(numerator: 3, denominator: 2))
        #expect(try Self.scene("let f = zero staggered by 1s").isCancelled)
        #expect(Self.diagnostics("let f = fadeIn a staggered by -1s") == ["1:31 negative-duration"])
        // The cascade: a, b, c 80 ms apart, each eased with its overshoot: 1 + 2·0.08 = 1.16 s.
        let cascade = "view a\nview b\nview c\nlet f = fadeIn all views with ease-out-back staggered by 80ms"
        #expect(try Self.scene(cascade).duration == Time(numerator: 29, denominator: 25))
        try Self.expectNumbers(cascade, [("0.5", "a.opacity", 1.0876975), ("0.58", "b.opacity", 1.0876975), ("0.66", "c.opacity", 1.0876975),
                                         ("0.08", "b.opacity", 0), ("1.16", "c.opacity", 1)])
    }

    /// Only views that have segments in X count: a part annihilated by `zero`,
    /// a part repeated 0 times, or a part after an endless one has none.
    /// `((fadeIn a ; zero) || fadeIn b || fadeIn c) staggered by 1s` is b at 0, c at 1: 2 s.
    @Test func staggerCountsOnlyViewsWithSegments() throws {
        let cancelled = "let f = ((fadeIn a ; zero) || fadeIn b || fadeIn c) staggered by 1s"
        #expect(try Self.scene(cancelled).duration == Time(2))
        try Self.expectNumbers(cancelled, [("1", "b.opacity", 1), ("1", "c.opacity", 0), ("1.5", "c.opacity", 0.5)])
        #expect(try Self.scene("let f = (fadeIn a ^ 0 || fadeIn b) staggered by 1s").duration == Time(1))
        // c forever, a never starts: c at 0, b at 1.
        let endless = "let f = ((fadeIn c repeated forever ; fadeIn a) || fadeIn b) staggered by 1s"
        #expect(Self.eval(endless, until: "2", format: .csv).hasPrefix("time,b.opacity,c.opacity\n0,0,0\n"))
        try Self.expectNumbers(endless, [("1.5", "b.opacity", 0.5), ("1.5", "c.opacity", 0.5), ("2", "b.opacity", 1)])
    }

    /// Events stay where they are: `fadeIn a ; emit mid ; fadeIn b` (D = 2, mid at 1),
    /// staggered by 1 s: a on [0, 1], b on [2, 3], mid still at 1; 3 s in all.
    @Test func eventsInsideStaggeredParts() {
        #expect(Self.eval("let f = (fadeIn a ; emit mid ; fadeIn b) staggered by 1s", fps: 1) == """
            time,a.opacity,b.opacity,events
            0,0,0,
            1,1,0,mid
            2,1,0,
            3,1,1,

            """)
    }

    /// Target lists are sugar for the parallel, for every verb that takes a target.
    @Test func targetListsAreParallels() throws {
        let source = """
            let a1 = fadeIn a, b and c
            let a2 = fadeIn a || fadeIn b || fadeIn c
            let b1 = fade in a and b
            let b2 = fadeIn a || fadeIn b
            let c1 = fadeOut a, b
            let c2 = fadeOut a || fadeOut b
            let d1 = color a, b from red to blue
            let d2 = color a from red to blue || color b from red to blue
            let e1 = move a and b from (0, 0) to (10, 20)
            let e2 = move a from (0, 0) to (10, 20) || move b from (0, 0) to (10, 20)
            let f1 = animate a.x, b.y from 0 to 1
            let f2 = animate a.x from 0 to 1 || animate b.y from 0 to 1
            let g1 = rotate a, b from 0 to 0.5 turns
            let g2 = rotate a from 0 to 180 || rotate b from 0 to 180
            let h1 = grow a and b from radius 1 to 2
            let h2 = grow a from radius 1 to 2 || grow b from radius 1 to 2
            let i1 = fade a, b through 0, 1 at 25%, 0
            let i2 = fade a through 0, 1 at 25%, 0 || fade b through 0, 1 at 25%, 0
            let j1 = scale a, b from 1 to 2 with ease-out-back
            let j2 = (scale a from 1 to 2 || scale b from 1 to 2) with ease-out-back
            """
        for name in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] {
            try Self.expectSame(source, name + "1", name + "2")
        }
    }
}
