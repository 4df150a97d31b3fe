import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// `played` and fractional repeats (docs/semantics.md §8.5), checked against tables
/// worked out by hand from the note's text. Each expectation says how it was
/// derived; none was copied from animc's output.
struct PlayedTests: ScriptChecking {
    /// Inside a linear tween: x(t) = 50·t on [0, 2]; the part [0.5, 1.5] shows
    /// x(0.5 + t) = 25 + 50·t for t in [0, 1], and lasts 1 s. `25%` and `75%`
    /// of 2 s are the same times.
    @Test func cutInsideALinearTween() {
        let expected = "time,b.x\n0,25\n0.5,50\n1,75\n"
        #expect(Self.eval("let p = animate b.x from 0 to 100 in 2s played from 0.5s to 1.5s", fps: 2) == expected)
        #expect(Self.eval("let p = animate b.x from 0 to 100 in 2s played from 25% to 75%", fps: 2) == expected)
        #expect(Self.eval("let p = animate b.x from 0 to 100 in 2s played from 500ms to 1500ms", fps: 2) == expected)
    }

    /// Inside an eased tween the clipped tween plays the matching stretch of its
    /// eased progress: progress p = (1 + t)/2, ease-in-quad E(p) = p², value 100·p².
    /// t = 0: 25; t = 0.5: 100·0.75² = 56.25; t = 1: 100. `from 1s` alone plays to the end.
    @Test func cutInsideAnEasedTween() throws {
        let source = "let p = animate b.x from 0 to 100 in 2s with ease-in-quad played from 1s"
        try Self.expectNumbers(source, [("0", "b.x", 25), ("1/2", "b.x", 56.25), ("1", "b.x", 100)])
        #expect(try Self.scene(source).duration == Time(1))
    }

    /// At a tween's end: in `a ; b` at 1 s, a (started 0) and b (started 1) are both
    /// active; the latest start wins, so the part from 1 s starts at b's 20.
    /// The part to 1 s leaves out what starts exactly at 1 s (b): its last row is a's end, 10.
    @Test func atATweensEnd() {
        let chain = "(animate b.x from 0 to 10 in 1s ; animate b.x from 20 to 30 in 1s)"
        #expect(Self.eval("let p = \(chain) played from 1s to 2s", fps: 2) == "time,b.x\n0,20\n0.5,25\n1,30\n")
        #expect(Self.eval("let p = \(chain) played to 1s", fps: 2) == "time,b.x\n0,0\n0.5,5\n1,10\n")
    }

    /// Across a tie: both tweens start at 0, so at 1 s they tie and the value is the mean
    /// of 10 (the 1 s tween's end) and 150 (halfway along 100 → 200): 80. The 1 s tween
    /// ends at 1 and is dropped; the other, clipped, keeps running: 175 at 0.5, 200 at 1.
    /// When both run on, they keep tying (the clipped ones keep their rank): at 1 s
    /// mean(50, 150) = 100, at 1.5 s mean(75, 175) = 125.
    @Test func acrossATie() throws {
        let ending = "let p = (animate b.x from 0 to 10 in 1s || animate b.x from 100 to 200 in 2s) played from 1s to 2s"
        try Self.expectNumbers(ending, [("0", "b.x", 80), ("1/2", "b.x", 175), ("1", "b.x", 200)])
        let running = "let p = (animate b.x from 0 to 100 in 2s || animate b.x from 100 to 200 in 2s) played from 1s to 2s"
        try Self.expectNumbers(running, [("0", "b.x", 100), ("1/2", "b.x", 125), ("1", "b.x", 150)])
    }

    /// A held property: b.x's only tween ends at 1 s, before the part [1.5, 2]; no kept
    /// segment runs at 0, but one started by 1.5, so the part jumps at 0 to what x shows
    /// at 1.5 (b.x holds 10). b.y's tween [1, 2] is clipped: 2.5 at 0, 5 at 0.5.
    /// Delayed by 1 s, nothing has started before 1 and no value is declared, so b.x
    /// shows its earliest segment's start value: the jump's, 10.
    @Test func heldPropertyJumpsAtZero() {
        let part = "((animate b.x from 0 to 10 in 1s ; animate b.y from 0 to 5 in 1s) played from 1.5s to 2s)"
        #expect(Self.eval("let p = \(part)", fps: 2) == "time,b.x,b.y\n0,10,2.5\n0.5,10,5\n")
        #expect(Self.eval("let p = wait 1s ; \(part)", fps: 2) == "time,b.x,b.y\n0,10,2.5\n0.5,10,2.5\n1,10,2.5\n1.5,10,5\n")
    }

    /// On `forever`: copies of 0 → 10 over 1 s. From 0.5 s: 5; at 1 s (part 0.5) copy 1
    /// starts, 0; at 1.5, 5; at 2 s = T2 the copy starting there is left out: copy 1's end, 10.
    /// Far away: 10⁹ + 0.25 is a quarter into a copy, 2.5.
    @Test func partOfForever() {
        #expect(Self.eval("let p = animate b.x from 0 to 10 in 1s repeated forever played from 0.5s to 2s", fps: 2)
                == "time,b.x\n0,5\n0.5,0\n1,5\n1.5,10\n")
        #expect(Self.eval("let p = animate b.x from 0 to 10 in 1s repeated forever played from 1000000000s to 1000000001s",
                          at: ["0.25", "1"]) == "time,b.x\n0.25,2.5\n1,10\n")
    }

    /// Played twice: the inner part of 0 → 100 over 4 s is [1, 3] (25 → 75 over 2 s);
    /// its part [0.5, 1.5] is x's [1.5, 2.5]: 37.5, 50, 62.5.
    @Test func playedTwice() throws {
        let source = """
            let x = animate b.x from 0 to 100 in 4s
            let twice = (x played from 1s to 3s) played from 0.5s to 1.5s
            let once = x played from 1.5s to 2.5s
            """
        #expect(Self.eval(source + "\nlet p = twice", fps: 2) == "time,b.x\n0,37.5\n0.5,50\n1,62.5\n")
        try Self.expectSame(source, "twice", "once")
    }

    /// T2 past |x|: x ends at 1 s on 10, and holds it: 5 at 0, 10 from 0.5 on; 2.5 s in all.
    @Test func pastTheEnd() {
        #expect(Self.eval("let p = animate b.x from 0 to 10 in 1s played from 0.5s to 3s", fps: 2)
                == "time,b.x\n0,5\n0.5,10\n1,10\n1.5,10\n2,10\n2.5,10\n")
    }

    /// Events in [1, 2] move by −1: b (at 1) fires at 0, c (at 2) at 1; a (at 0) is dropped.
    @Test func events() {
        #expect(Self.eval("let p = (emit a ; wait 1s ; emit b ; animate v.x from 0 to 1 in 1s ; emit c) played from 1s to 2s", fps: 2)
                == "time,v.x,events\n0,0,b\n0.5,0.5,\n1,1,c\n")
    }

    /// A relative tween inside is resolved in x alone: the copies of `by 10` start from
    /// b.x's declared 40: 40 → 50 → 60 → 70; the part [1, 2] is 50 → 60, absolute.
    /// After `to 100` (40 → 100 over [0, 1]) it still starts at 50, not at 100.
    @Test func relativeInsideIsClosed() throws {
        let source = """
            view b x 40
            let p = animate b.x to 100 in 1s ; (((animate b.x by 10 in 1s) ^ 3) played from 1s to 2s)
            """
        try Self.expectNumbers(source, [("1/2", "b.x", 70), ("1", "b.x", 50), ("3/2", "b.x", 55), ("2", "b.x", 60)])
    }

    /// `x ^ 2.5` and `x repeated 2.5 times` are `(x ^ 3) played to 2.5`: 2.5 s; at 1 s copy 1
    /// starts (0); at 2.25, 2.5; at 2.5, copy 2 halfway: 5.
    @Test func fractionalRepeats() throws {
        let expected = "time,b.x\n0,0\n0.5,5\n1,0\n1.5,5\n2,0\n2.5,5\n"
        #expect(Self.eval("let p = (animate b.x from 0 to 10 in 1s) ^ 2.5", fps: 2) == expected)
        #expect(Self.eval("let p = animate b.x from 0 to 10 in 1s repeated 2.5 times", fps: 2) == expected)
        try Self.expectNumbers("let p = (animate b.x from 0 to 10 in 1s) ^ 2.5", [("9/4", "b.x", 2.5)])
        // A whole count is as it always was; `looped` still takes whole counts only.
        #expect(Self.diagnostics("let p = fadeIn a looped 2.5 times") == ["1:25 invalid-count"])
    }

    /// `x ^ 1000000000.5` stays symbolic: 10⁹ + 0.25 is a quarter into copy 10⁹: 2.5;
    /// its last instant, 10⁹ + 0.5, is halfway: 5.
    @Test func hugeFractionalCount() {
        #expect(Self.eval("let p = (animate b.x from 0 to 10 in 1s) ^ 1000000000.5", at: ["1000000000.25", "1000000000.5"])
                == "time,b.x\n1000000000.25,2.5\n1000000000.5,5\n")
    }

    /// Mistakes are located errors with a hint, at the time that is wrong (columns counted by hand:
    /// `0.2s` is column 38, `-1s` and `-10%` column 30, `50%` after `in 0s` column 34).
    @Test func errors() {
        #expect(Self.diagnostics("let p = fadeIn a played from 0.8s to 0.2s") == ["1:38 invalid-part"])
        #expect(Self.diagnostics("let p = fadeIn a played from -1s") == ["1:30 negative-duration"])
        #expect(Self.diagnostics("let p = fadeIn a played from -10%") == ["1:30 invalid-part"])
        #expect(Self.diagnostics("let p = fadeIn a repeated forever played from 1s") == ["1:35 invalid-part"])
        #expect(Self.diagnostics("let p = fadeIn a repeated forever played to 50%") == ["1:45 invalid-part"])
        #expect(Self.diagnostics("let p = fadeIn a in 0s played to 50%") == ["1:34 invalid-part"])
        let rendered = evaluateToText(Self.file("let p = fadeIn a played from 0.8s to 0.2s")).diagnostics
        #expect(rendered.contains("^") && rendered.contains("hint:"))
    }
}
