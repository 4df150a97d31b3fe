import Foundation
import Testing
import Animations
@testable import AnimLang

/// Semantics docs/semantics.md §8.1–docs/semantics.md §8.4 (timelines as designers write them): overlaps in a
/// sequence, an easing per keyframe, staggers from any origin, and
/// arithmetic on durations. Every expected value is worked out by hand from
/// the text of docs/semantics.md §8 (the derivation is in the comment beside it); none was
/// copied from animc's output.
struct TimelineSugarTests: ScriptChecking {
    static let views = "view a\nview b\nview c\n"

    // MARK: docs/semantics.md §8.1 overlapping by

    /// docs/semantics.md §8.1's own example. S1 = a on [0, 0.4]. b: S1 || (wait (0.4 − 0.3) ; b):
    /// b on [0.1, 0.5], |S2| = max(0.4, 0.1 + 0.4) = 0.5. c: wait (0.5 − 0.3):
    /// c on [0.2, 0.6]; 0.6 s in all. Linear fades: a = t / 0.4, b = (t − 0.1) / 0.4, c = (t − 0.2) / 0.4.
    @Test func threeOverlappingParts() throws {
        let source = Self.views + "let list = fadeIn a in 0.4s ; fadeIn b in 0.4s overlapping by 0.3s ; fadeIn c in 0.4s overlapping by 0.3s"
        #expect(try Self.scene(source).duration == Time(numerator: 3, denominator: 5))
        #expect(Self.eval(source, fps: 10) == """
            time,a.opacity,b.opacity,c.opacity
            0,0,0,0
            0.1,0.25,0,0
            0.2,0.5,0.25,0
            0.3,0.75,0.5,0.25
            0.4,1,0.75,0.5
            0.5,1,1,0.75
            0.6,1,1,1

            """)
    }

    /// A part after an overlap follows the whole chain so far (its end is the
    /// max): `a ; b overlapping by 0.9s ; c` with 1 s fades: b on [0.1, 1.1],
    /// |S| = 1.1, c on [1.1, 2.1]. An overlap by |S| starts the part with the
    /// chain; by 0 it is `;`.
    @Test func aPartAfterAnOverlapFollowsTheWholeChain() throws {
        let source = Self.views + "let f = fadeIn a ; fadeIn b overlapping by 0.9s ; fadeIn c"
        #expect(try Self.scene(source).duration == Time(numerator: 21, denominator: 10))
        try Self.expectNumbers(source, [("0.6", "b.opacity", 0.5), ("1.1", "c.opacity", 0), ("1.6", "c.opacity", 0.5), ("1", "a.opacity", 1)])
        // D = |S|: b on [0, 1] beside a; 1 s in all.
        let whole = Self.views + "let f = fadeIn a ; fadeIn b overlapping by 1s"
        #expect(try Self.scene(whole).duration == Time(1))
        try Self.expectNumbers(whole, [("0.5", "b.opacity", 0.5), ("0.5", "a.opacity", 0.5)])
        try Self.expectSame(Self.views + "let x = fadeIn a ; fadeIn b overlapping by 0s\nlet y = fadeIn a ; fadeIn b", "x", "y")
        // The sugar, written out: S || (wait (|S| − D) ; pk).
        try Self.expectSame(Self.views + """
            let x = fadeIn a in 2s ; fadeIn b ; fadeIn c overlapping by 0.5s
            let y = (fadeIn a in 2s ; fadeIn b) || (wait 2.5s ; fadeIn c)
            """, "x", "y")
        // `delayed by` keeps meaning a gap: b at 1.3, 2.3 s in all.
        #expect(try Self.scene(Self.views + "let f = fadeIn a ; fadeIn b delayed by 0.3s").duration == Time(numerator: 23, denominator: 10))
    }

    /// Overlapped parts on one property: docs/semantics.md §4 decides. `x 0→10 ; x 100→200
    /// overlapping by 0.5s`: the second on [0.5, 1.5]. At 0.25 only the first
    /// (2.5); from 0.5 both are active and the later start wins: 100, then
    /// 100 + 100·(t − 0.5). At 1.5: 200.
    @Test func overlappedPartsOnOneProperty() {
        let source = "let f = animate v.x from 0 to 10 ; animate v.x from 100 to 200 overlapping by 0.5s"
        #expect(Self.eval(source, fps: 4) == """
            time,v.x
            0,0
            0.25,2.5
            0.5,100
            0.75,125
            1,150
            1.25,175
            1.5,200

            """)
    }

    /// A tie: `wait 1 ; x 0→10 ; x 20→30 overlapping by 1s` starts the third
    /// part at 2 − 1 = 1, with the second: both on [1, 2], one start, so their
    /// distinct values tie (docs/semantics.md §4): the mean. Before 1 both hold their starts
    /// (0 and 20): 10; at 1.5, (5 + 25)/2 = 15; at 2, (10 + 30)/2 = 20.
    @Test func overlapThatTiesOnOneProperty() {
        let source = "let f = wait 1 ; animate v.x from 0 to 10 ; animate v.x from 20 to 30 overlapping by 1s"
        #expect(Self.eval(source, fps: 2) == """
            time,v.x
            0,10
            0.5,10
            1,10
            1.5,15
            2,20

            """)
    }

    /// A relative part (docs/semantics.md §7.1) starts from the value where it lands: `x 0→100 ;
    /// x by 10 overlapping by 0.5s` starts at 0.5, where x is 50, so it goes
    /// 50 → 60 on [0.5, 1.5], and wins as the later start.
    @Test func relativePartStartsMidway() throws {
        let source = "view v x 0\nlet f = animate v.x from 0 to 100 ; animate v.x by 10 overlapping by 0.5s"
        #expect(try Self.scene(source).duration == Time(numerator: 3, denominator: 2))
        try Self.expectNumbers(source, [("0.25", "v.x", 25), ("0.5", "v.x", 50), ("0.75", "v.x", 52.5), ("1", "v.x", 55), ("1.5", "v.x", 60)])
    }

    /// Each mistake, located at the clause (`overlapping` is at column 29 of
    /// `let f = fadeIn a ; fadeIn b overlapping …`, the negative D at 44).
    @Test func overlapErrors() {
        #expect(Self.diagnostics("let f = fadeIn a ; fadeIn b overlapping by 2s") == ["1:29 overlap-too-long"])
        #expect(Self.diagnostics("let f = fadeIn a ; fadeIn b overlapping by -1s") == ["1:44 negative-duration"])
        #expect(Self.diagnostics("let f = fadeIn a overlapping by 0.1s ; fadeIn b") == ["1:18 overlap-without-before"])
        #expect(Self.diagnostics("let f = fadeIn a overlapping by 0.1s") == ["1:18 overlap-without-before"])
        // In parentheses the part is a chain of its own: outside any sequence.
        #expect(Self.diagnostics("let f = fadeIn a ; (fadeIn b overlapping by 0.5s)") == ["1:30 overlap-without-before"])
        #expect(Self.diagnostics("let f = fadeIn a repeated forever ; fadeIn b overlapping by 1s") == ["1:46 overlap-after-endless"])
        // Arithmetic in D (docs/semantics.md §8.4): 0.5s + 0.6s = 1.1s > 1s.
        #expect(Self.diagnostics("let f = fadeIn a ; fadeIn b overlapping by 0.5s + 0.6s") == ["1:29 overlap-too-long"])
    }

    /// `overlapping` is a reserved word (grammar.md), so after a `let` named like a verb it is the
    /// overlap, not a view for the verb to fade (it read as `fade overlapping by 0.25s`, a relative
    /// fade of a view `overlapping`, and then stumbled on the unit). `fade` = a's fade in 0.5 s:
    /// b on [0, 0.5]; `fade` starts 0.5 − 0.25 = 0.25 and ends 0.75, the duration (max(0.5, 0.75)).
    /// At 0.5, a is (0.5 − 0.25) / 0.5 = 0.5 and b 1; at 0.25, a has not started: 0.
    @Test func aLetNamedLikeAVerbOverlaps() throws {
        let source = Self.views + "let fade = fadeIn a in 0.5s\nlet f = fadeIn b in 0.5s ; fade overlapping by 0.25s"
        #expect(try Self.scene(source).duration == Time(numerator: 3, denominator: 4))
        try Self.expectNumbers(source, [("0.5", "a.opacity", 0.5), ("0.5", "b.opacity", 1), ("0.25", "a.opacity", 0)])
    }

    /// The Swift API's counterpart: `then(_:overlapping:)` is `self + next.delayed(by: |self| − D)`.
    @Test func sceneOverlapMatchesTheSugar() throws {
        let a = Term.tween(try Tween(property: Property(view: "a", name: "x"), from: .number(0), to: .number(1)))
        let b = Term.tween(try Tween(property: Property(view: "b", name: "x"), from: .number(0), to: .number(1)))
        let chained = try Term.chain([(a, nil), (b, Time(numerator: 1, denominator: 4))])
        // |a| = 1: b starts at 0.75, ends at 1.75.
        #expect(chained.duration == Time(numerator: 7, denominator: 4))
        #expect(throws: AnimationError.self) { try Term.chain([(a, nil), (b, Time(2))]) }
    }

    // MARK: docs/semantics.md §8.2 easing each keyframe

    /// docs/semantics.md §8.2's example, in 1.2 s: pieces [0, 0.48] 0→300 ease-in-quad (p²),
    /// [0.48, 0.84] 300→260 ease-out-quad (1 − (1 − p)²), [0.84, 1.2] 260→300
    /// with the `each` easing, ease-in-cubic (p³). Mid-pieces (p = 1/2):
    /// 300·0.25 = 75 at 0.24; 300 − 40·0.75 = 270 at 0.66; 260 + 40·0.125 = 265 at 1.02.
    @Test func perKeyframeEasingsAndEach() throws {
        let source = "let f = animate ball.y through 0 with ease-in-quad, 300 at 40% with ease-out-quad, 260 at 70%, 300 with each ease-in-cubic in 1.2s"
        #expect(try Self.scene(source).duration == Time(numerator: 6, denominator: 5))
        try Self.expectNumbers(source, [("0.24", "ball.y", 75), ("0.48", "ball.y", 300), ("0.66", "ball.y", 270),
                                        ("0.84", "ball.y", 260), ("1.02", "ball.y", 265), ("1.2", "ball.y", 300)])
        // normalize writes the pieces as `;` of tweens.
        let normal = try normalize(run(Self.file(source)))
        #expect(format(normal.program) == """
            let f =
              animate ball.y from 0 to 300 in 0.48s with ease-in-quad
              ; animate ball.y from 300 to 260 in 0.36s with ease-out-quad
              ; animate ball.y from 260 to 300 in 0.36s with ease-in-cubic

            """)
    }

    /// `with each` with offsets: pieces [0, 0.25] 0→10 and [0.25, 1] 10→20, both
    /// ease-out-quad: 7.5 at 0.125, 10 + 10·0.75 = 17.5 at 0.625. A piece's own
    /// easing wins over `each`: `0 with linear, 10, 20 with each ease-in-quad`
    /// is 5 at 0.25 and 10 + 10·0.25 = 12.5 at 0.75.
    @Test func eachWithOffsetsAndOwnEasings() throws {
        try Self.expectNumbers("let f = animate v.x through 0, 10 at 25%, 20 with each ease-out-quad",
                               [("0.125", "v.x", 7.5), ("0.25", "v.x", 10), ("0.625", "v.x", 17.5)])
        try Self.expectNumbers("let f = animate v.x through 0 with linear, 10, 20 with each ease-in-quad",
                               [("0.25", "v.x", 5), ("0.75", "v.x", 12.5)])
    }

    /// A keyframe's easing may be a `let`'s name or a parameter (docs/semantics.md §8.2: "its own
    /// easing", any easing): `quad` is ease-in-quad (p²), so the first piece of
    /// `0 with quad, 10, 20` (0→10 on [0, 0.5]) is 10·0.25 = 2.5 at 0.25 and the
    /// second, linear, is 15 at 0.75; with `each quad`, both pieces are eased,
    /// 10 + 10·0.25 = 12.5 at 0.75. A parameter given `ease-out-quad`
    /// (1 − (1 − p)²) makes the first piece 10·0.75 = 7.5 at 0.25. An easing
    /// that a name does not give is the usual error at the name.
    @Test func aKeyframesEasingByName() throws {
        let quad = "let quad = ease-in-quad\n"
        try Self.expectNumbers(quad + "let f = animate v.x through 0 with quad, 10, 20",
                               [("0.25", "v.x", 2.5), ("0.5", "v.x", 10), ("0.75", "v.x", 15)])
        try Self.expectNumbers(quad + "let f = animate v.x through 0, 10, 20 with each quad",
                               [("0.25", "v.x", 2.5), ("0.75", "v.x", 12.5)])
        try Self.expectSame(quad + "let x = animate v.x through 0 with quad, 10 at 25%, 20 with each quad\n"
                                + "let y = animate v.x through 0 with ease-in-quad, 10 at 25% with ease-in-quad, 20", "x", "y")
        try Self.expectNumbers("let rise(e) = animate v.x through 0 with e, 10, 20\nlet f = rise(ease-out-quad)",
                               [("0.25", "v.x", 7.5), ("0.75", "v.x", 15)])
        #expect(Self.diagnostics("let size = 3\nlet f = animate v.x through 0 with size, 10") == ["2:36 name-kind"])
    }

    /// A `with` after the last keyframe eases the whole tween (docs/semantics.md §6.2, docs/semantics.md §3): on
    /// two pieces it warps time, t ↦ E(t) with E(p) = p². At 0.5, E = 0.25:
    /// the first piece (ease-in-quad, [0, 0.5]) at p = 1/2 is 10·0.25 = 2.5; at
    /// 0.75, E = 0.5625: the second piece (linear, [0.5, 1]) at p = 0.125 is 11.25.
    /// On one piece, it is the same as that keyframe's easing.
    @Test func aWithAfterTheLastKeyframeIsTheWholeTweens() throws {
        try Self.expectNumbers("let f = animate v.x through 0 with ease-in-quad, 10, 20 with ease-in-quad",
                               [("0.5", "v.x", 2.5), ("0.75", "v.x", 11.25), ("1", "v.x", 20)])
        try Self.expectSame("let x = animate v.x through 0, 10 with ease-in-quad\nlet y = animate v.x through 0 with ease-in-quad, 10", "x", "y")
    }

    /// Per-piece easings may overshoot (they ease tweens): ease-in-back at
    /// p = 1/2 is 2.70158·0.125 − 1.70158·0.25 = −0.0876975, so the first piece
    /// (0→10 on [0, 0.5]) is −0.876975 at 0.25. On the whole tween of two
    /// pieces the same easing is an error (time would run backwards).
    @Test func perPieceEasingsMayOvershoot() throws {
        try Self.expectNumbers("let f = animate v.x through 0 with ease-in-back, 10, 0", [("0.25", "v.x", -0.876975), ("0.5", "v.x", 10)])
        #expect(Self.diagnostics("let f = animate v.x through 0, 10, 0 with ease-in-back") == ["1:43 non-monotone-warp"])   // at its `with`
    }

    // MARK: docs/semantics.md §8.3 staggers

    /// Fades of 1 s, so at t = 1 each view shows 1 − its offset. Offsets by
    /// hand from docs/semantics.md §8.3 (c = (n − 1)/2, d by origin, dmin, r = dmax − dmin),
    /// for `by 0.1s`, `by 0.1s spaced ease-in-quad` (E(p) = p²: offset
    /// ((d − dmin)/r)²·r·0.1), `over 0.5s` ((d − dmin)/r·0.5):
    static let staggerTable: [(n: Int, origin: String, spread: String, offsets: [Double])] = [
        // n = 1: r = 0, every offset 0.
        (1, "start", "by 0.1s", [0]), (1, "end", "by 0.1s", [0]), (1, "center", "by 0.1s", [0]), (1, "edges", "by 0.1s", [0]),
        (1, "center", "by 0.1s spaced ease-in-quad", [0]), (1, "start", "over 0.5s", [0]),
        // n = 2: start d = 0, 1; end 1, 0; center |i − 0.5| = 0.5, 0.5 (r = 0); edges 0.5 − 0.5 = 0, 0 (r = 0).
        (2, "start", "by 0.1s", [0, 0.1]), (2, "end", "by 0.1s", [0.1, 0]), (2, "center", "by 0.1s", [0, 0]), (2, "edges", "by 0.1s", [0, 0]),
        (2, "start", "by 0.1s spaced ease-in-quad", [0, 0.1]), (2, "center", "by 0.1s spaced ease-in-quad", [0, 0]),
        (2, "start", "over 0.5s", [0, 0.5]), (2, "end", "over 0.5s", [0.5, 0]), (2, "edges", "over 0.5s", [0, 0]),
        // n = 5, c = 2: start 0…4; end 4…0; center 2,1,0,1,2; edges 0,1,2,1,0.
        (5, "start", "by 0.1s", [0, 0.1, 0.2, 0.3, 0.4]), (5, "end", "by 0.1s", [0.4, 0.3, 0.2, 0.1, 0]),
        (5, "center", "by 0.1s", [0.2, 0.1, 0, 0.1, 0.2]), (5, "edges", "by 0.1s", [0, 0.1, 0.2, 0.1, 0]),
        // spaced: start r = 4, (i/4)²·0.4 = 0, 0.025, 0.1, 0.225, 0.4; center and edges r = 2, (k/2)²·0.2.
        (5, "start", "by 0.1s spaced ease-in-quad", [0, 0.025, 0.1, 0.225, 0.4]),
        (5, "end", "by 0.1s spaced ease-in-quad", [0.4, 0.225, 0.1, 0.025, 0]),
        (5, "center", "by 0.1s spaced ease-in-quad", [0.2, 0.05, 0, 0.05, 0.2]),
        (5, "edges", "by 0.1s spaced ease-in-quad", [0, 0.05, 0.2, 0.05, 0]),
        // over: start (i/4)·0.5; center and edges (k/2)·0.5.
        (5, "start", "over 0.5s", [0, 0.125, 0.25, 0.375, 0.5]), (5, "end", "over 0.5s", [0.5, 0.375, 0.25, 0.125, 0]),
        (5, "center", "over 0.5s", [0.5, 0.25, 0, 0.25, 0.5]), (5, "edges", "over 0.5s", [0, 0.25, 0.5, 0.25, 0]),
        // over, spaced: (i/4)²·0.5 = 0, 1/32, 1/8, 9/32, 1/2.
        (5, "start", "over 0.5s spaced ease-in-quad", [0, 0.03125, 0.125, 0.28125, 0.5]),
        // n = 6, c = 2.5: start 0…5; center 2.5,1.5,0.5,0.5,1.5,2.5 (dmin 0.5: 2,1,0,0,1,2); edges 0,1,2,2,1,0.
        (6, "start", "by 0.1s", [0, 0.1, 0.2, 0.3, 0.4, 0.5]), (6, "end", "by 0.1s", [0.5, 0.4, 0.3, 0.2, 0.1, 0]),
        (6, "center", "by 0.1s", [0.2, 0.1, 0, 0, 0.1, 0.2]), (6, "edges", "by 0.1s", [0, 0.1, 0.2, 0.2, 0.1, 0]),
        // spaced: start r = 5, (i/5)²·0.5 = i²/50; center and edges r = 2.
        (6, "start", "by 0.1s spaced ease-in-quad", [0, 0.02, 0.08, 0.18, 0.32, 0.5]),
        (6, "end", "by 0.1s spaced ease-in-quad", [0.5, 0.32, 0.18, 0.08, 0.02, 0]),
        (6, "center", "by 0.1s spaced ease-in-quad", [0.2, 0.05, 0, 0, 0.05, 0.2]),
        (6, "edges", "by 0.1s spaced ease-in-quad", [0, 0.05, 0.2, 0.2, 0.05, 0]),
        (6, "start", "over 0.5s", [0, 0.1, 0.2, 0.3, 0.4, 0.5]), (6, "center", "over 0.5s", [0.5, 0.25, 0, 0, 0.25, 0.5]),
        (6, "edges", "over 0.5s", [0, 0.25, 0.5, 0.5, 0.25, 0]), (6, "end", "over 0.5s", [0.5, 0.4, 0.3, 0.2, 0.1, 0]),
    ]

    @Test(arguments: 0..<TimelineSugarTests.staggerTable.count)
    func staggerOffsets(row: Int) throws {
        let (n, origin, spread, offsets) = Self.staggerTable[row]
        let names = ["a", "b", "c", "d", "e", "f"].prefix(n)
        let source = names.map { "view \($0)\n" }.joined() + "let s = fadeIn all views staggered \(spread.replacingOccurrences(of: " spaced", with: " from \(origin) spaced"))"
            + (spread.contains("spaced") ? "" : " from \(origin)")
        // Duration: D + max offset.
        let duration = try Self.scene(source).duration
        #expect(duration.map { abs($0.seconds - (1 + (offsets.max() ?? 0))) < 1e-12 } == true, "\(source): \(String(describing: duration))")
        try Self.expectNumbers(source, zip(names, offsets).map { ("1", "\($0).opacity", 1 - $1) })
    }

    /// `backwards` is `from end`; docs/semantics.md §8.3's example: five views from the center
    /// by 80 ms, the middle one at 0, its neighbours at 80 ms, the outer two at 160 ms.
    @Test func staggerSpellings() throws {
        let five = "view a\nview b\nview c\nview d\nview e\n"
        try Self.expectSame(five + "let x = fadeIn all views staggered by 0.1s backwards\nlet y = fadeIn all views staggered by 0.1s from end", "x", "y")
        let center = five + "let f = fadeIn all views in 0.3s staggered by 80ms from center"
        #expect(try Self.scene(center).duration == Time(numerator: 23, denominator: 50))
        try Self.expectNumbers(center, [("0.15", "c.opacity", 0.5), ("0.23", "b.opacity", 0.5), ("0.23", "d.opacity", 0.5),
                                        ("0.31", "a.opacity", 0.5), ("0.31", "e.opacity", 0.5)])
        // Events stay where they are (docs/semantics.md §6.3).
        #expect(try Self.scene(five + "let f = (emit go ; fadeIn all views) staggered over 1s from edges").duration == Time(2))
    }

    /// An easing that dips below 0 gives a negative offset: an error at `spaced`.
    @Test func staggerErrors() {
        let three = "view a\nview b\nview c\n"
        #expect(Self.diagnostics(three + "let f = fadeIn all views staggered by 0.1s spaced ease-in-back") == ["4:44 stagger-negative-offset"])
        #expect(Self.diagnostics(three + "let f = fadeIn all views staggered by 0.1s from middle") == ["4:49 expected-token"])
        #expect(Self.diagnostics(three + "let f = fadeIn all views staggered over -1s") == ["4:41 negative-duration"])
    }

    // MARK: docs/semantics.md §8.4 duration arithmetic

    /// Every clause that takes a duration, with the durations of docs/semantics.md §8.4's
    /// examples: gap = 80 ms, beat = 0.1 s + 0.2 s = 0.3 s exactly.
    static let lets = "let gap = 80ms\nlet beat = 0.1s + 0.2s\nlet q = 0.2s\nlet lift = 12\nlet hold(d) = wait d\n"
    static let durationTable: [(written: String, seconds: String)] = [
        ("fadeIn a in 0.1s + 0.2s", "3/10"),                 // exactly 0.3
        ("fadeIn a in (0.1s + 0.2s)", "3/10"),
        ("fadeIn a in (0.1 + 0.2)s", "3/10"),
        ("wait gap * 2", "4/25"),                            // 0.16
        ("wait 2 * gap", "4/25"),
        ("wait gap / 2", "1/25"),                            // 0.04
        ("wait (gap + 50ms) * 3", "39/100"),                 // 0.13 · 3
        ("wait beat - 20ms", "7/25"),                        // 0.28
        ("wait 300ms + gap", "19/50"),                       // 0.38
        ("wait 1 + 2ms", "501/500"),                         // 1.002: the unit is the 2's
        ("wait (1 + 2)ms", "3/1000"),
        ("wait q + 0.1", "3/10"),                            // a bare number is seconds, also in a sum
        ("fadeIn a in 2 * lift / 24", "1"),                  // `*` before a named number multiplies: 24/24
        ("fadeIn a delayed by gap + 20ms", "11/10"),         // 0.1 + 1
        ("wait 1 ; fadeIn a overlapping by gap * 5", "8/5"),  // a at 1 − 0.4 = 0.6, to 1.6
        ("hold(gap + 20ms)", "1/10"),                        // an argument
        ("wait beat", "3/10"),                               // a duration `let`
    ]

    @Test(arguments: 0..<TimelineSugarTests.durationTable.count)
    func durationArithmetic(row: Int) throws {
        let (written, seconds) = Self.durationTable[row]
        let source = Self.views + Self.lets + "let f = " + written
        #expect(try Self.scene(source).duration == Self.time(seconds), "\(written)")
    }

    /// `staggered by` with arithmetic: `(fadeIn a ; fadeIn b) staggered by gap / 4`,
    /// a's segment on [0, 1], b's on [1, 2] shifted by 80/4 = 20 ms: 2.02 s.
    @Test func staggerByArithmetic() throws {
        #expect(try Self.scene(Self.views + Self.lets + "let f = (fadeIn a ; fadeIn b) staggered by gap / 4").duration
                == Time(numerator: 101, denominator: 50))
    }

    /// The kinds decide what `*` and `+` are, never the spacing: between a
    /// number and an animation they are `;` and `||`.
    @Test func kindsDecideStarAndPlus() throws {
        let source = Self.views + "let x = fadeIn b in 3s\nlet f = fadeIn a in 2 * x\nlet g = wait 1 + x"
        #expect(try Self.scene(source, "f").duration == Time(5))   // (fadeIn a in 2) ; x
        #expect(try Self.scene(source, "g").duration == Time(3))   // (wait 1) || x
    }

    /// Duration arithmetic's mistakes, located.
    @Test func durationArithmeticErrors() {
        #expect(Self.diagnostics("let f = wait 1 / 2s") == ["1:14 duration-arithmetic"])
        #expect(Self.diagnostics("let f = wait 2s * 3s") == ["1:14 duration-arithmetic"])
        #expect(Self.diagnostics("let gap = 80ms\nlet f = wait gap * gap") == ["2:14 duration-arithmetic"])
        #expect(Self.diagnostics("let gap = 80ms\nlet f = wait gap - 1") == ["2:14 negative-duration"])
        #expect(Self.diagnostics("let gap = 80ms\nlet f = wait gap ms") == ["2:14 unit-on-duration"])
        #expect(Self.diagnostics("let f = wait (2s)ms") == ["1:14 unit-on-duration"])
        #expect(Self.diagnostics("let f = fadeIn a in 0.1s - 0.2s") == ["1:21 negative-duration"])
    }
}
