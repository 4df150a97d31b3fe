import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Relative tweens, docs/semantics.md §7.1: `to B` without `from`, and `by Δ`,
/// start from the property's current value where they land. Every expected
/// value below is worked out from the note's rules (the derivation is in
/// the comment beside it), never copied from animc's output.
struct RelativeTweenTests {
    typealias S = ScriptCheck

    /// The whole normalized program, views included, as `animc normalize` prints it.
    func normalProgram(_ source: String) throws -> String {
        let outcome = run(SourceFile(name: "n.anim", text: source))
        #expect(!outcome.hasErrors, "\(source)")
        return format(try normalize(outcome).program)
    }

    /// Two CSV tables with the same cells, numbers within 1e-12 relative.
    func closeTables(_ a: String, _ b: String) -> Bool {
        let left = a.split(whereSeparator: { $0 == "\n" || $0 == "," }), right = b.split(whereSeparator: { $0 == "\n" || $0 == "," })
        guard left.count == right.count, !a.hasPrefix("error") else { return false }
        for (x, y) in zip(left, right) where x != y {
            guard let u = Double(x), let v = Double(y), abs(u - v) <= 1e-12 * max(1, abs(u)) else { return false }
        }
        return true
    }

    // MARK: Chains, initial and neutral values

    /// `by 10 ; by 10` goes 0 → 10 → 20 (neutral start 0 for `x`); the
    /// second starts at 1 s where the first left x (its end value 10).
    @Test func aChainOfByGoesOnFromWhereTheLastLeftOff() throws {
        let source = "let step = animate card.x by 10\nlet twice = step ; step\nlet power = step ^ 2\nlet final = twice"
        try S.expectNumbers(source, [("0", "card.x", 0), ("0.5", "card.x", 5), ("1", "card.x", 10), ("1.5", "card.x", 15),
                                     ("2", "card.x", 20)])
        try S.expectSame(source, "twice", "power")
    }

    /// `view card x 40 y 10`: the first tween starts from the declared values.
    /// y: 10 → 10 − 12 = −2 over [0, 1] (at 0.5: 4); x: `by 0` holds 40.
    /// Then `to (100, 0)` over [1, 2] from (40, −2): at 1.5 halfway, (70, −1).
    @Test func moveByThenToFromDeclaredValues() throws {
        let source = "view card x 40 y 10\nlet final = move card by (0, -12) ; move card to (100, 0)"
        try S.expectNumbers(source, [
            ("0", "card.x", 40), ("0", "card.y", 10), ("0.5", "card.y", 4), ("1", "card.y", -2), ("1", "card.x", 40),
            ("1.5", "card.x", 70), ("1.5", "card.y", -1), ("2", "card.x", 100), ("2", "card.y", 0),
        ])
    }

    /// With nothing before and no declaration: 1 for opacity and the scales,
    /// 0 for other numbers. At 0.5 each is halfway from there.
    @Test func neutralValues() throws {
        let source = """
            let final = fade a to 0.5 || grow b by 0.5 || rotate c by 90 || animate d.x to 10 || animate e.scale-x by 1
              || animate f.scale-y to 3 || animate g.width by 8
            """
        try S.expectNumbers(source, [
            ("0.5", "a.opacity", 0.75), ("0.5", "b.scale", 1.25), ("0.5", "c.rotation", 45), ("0.5", "d.x", 5),
            ("0.5", "e.scale-x", 1.5), ("0.5", "f.scale-y", 2), ("0.5", "g.width", 4),
        ])
    }

    /// `view card opacity 0.2`: `fade card to 1` goes 0.2 → 1 (at 0.5: 0.6).
    /// Rotation units apply to the change: `by 0.25 turns` is 90 degrees.
    @Test func declaredInitialValuesAndUnits() throws {
        try S.expectNumbers("view card opacity 0.2\nlet final = fade card to 1", [("0", "card.opacity", 0.2), ("0.5", "card.opacity", 0.6)])
        try S.expectNumbers("view dial rotation 10\nlet final = rotate dial by 0.25 turns", [("1", "dial.rotation", 100)])
    }

    // MARK: Colours

    /// Blue (0, 0, 1) to red (1, 0, 0), both opaque: halfway is (0.5, 0, 0.5),
    /// ×255 = 127.5. After `from white to black`, `to red` starts at black:
    /// halfway (0.5, 0, 0) → 127.5.
    @Test func colourToStartsFromTheCurrentColour() {
        #expect(S.eval("view lamp color blue\nlet final = color lamp to red", at: ["0.5"]) == "time,lamp.color\n0.5,rgb(127.5 0 127.5)\n")
        #expect(S.eval("let final = color lamp from white to black ; color lamp to red", at: ["1.5"])
                    == "time,lamp.color\n1.5,rgb(127.5 0 0)\n")
    }

    /// A colour with nothing before it and no declaration has no current
    /// value (error at the tween); `by` on a colour is an error at the change.
    @Test func colourMistakes() {
        #expect(S.diagnostics("let final = color lamp to red") == ["1:13 no-current-value"])
        #expect(S.diagnostics("let final = color lamp by red") == ["1:27 relative-color"])
        #expect(S.diagnostics("let final = animate lamp.fill by #ff0000") == ["1:34 relative-color"])
    }

    // MARK: Ties and jumps

    /// Tweens that start together do not see each other: both start from 0.
    /// `by 10` at 0.5 is 5, `from 0 to 100` is 50: their mean 27.5; at 1, (10 + 100)/2.
    /// Two relative ones: 5 and 2 → 3.5.
    @Test func tiesResolveThenAverage() throws {
        try S.expectNumbers("let final = animate v.x by 10 || animate v.x from 0 to 100",
                            [("0.5", "v.x", 27.5), ("1", "v.x", 55)])
        try S.expectNumbers("let final = animate v.x by 10 || animate v.x to 4", [("0.5", "v.x", 3.5)])
    }

    /// A jump at the start instant comes first: `by 1` starts at its 7.
    /// At 0 both show 7; then 7.5 and 8. Two jumps at one instant do not see
    /// each other: `by 1 in 0s` starts at 0 (→ 1), tying with the 7: mean 4.
    @Test func jumpsAtTheStartInstantComeFirst() throws {
        try S.expectNumbers("let final = animate v.x from 0 to 7 in 0s || animate v.x by 1",
                            [("0", "v.x", 7), ("0.5", "v.x", 7.5), ("1", "v.x", 8)])
        try S.expectNumbers("let final = animate v.x from 0 to 7 in 0s || animate v.x by 1 in 0s", [("0", "v.x", 4)])
    }

    /// A long tween already running: at 1 s it is at 25 (0 → 100 over 4 s),
    /// so `by 10` goes 25 → 35 over [1, 2] and, started later, wins while it
    /// runs (1.5: 30; 2: 35); after it ends the long one is the active one (3: 75).
    @Test func startsFromATweenUnderWay() throws {
        try S.expectNumbers("let final = animate v.x from 0 to 100 in 4s || (wait 1s ; animate v.x by 10)",
                            [("1.5", "v.x", 30), ("2", "v.x", 35), ("3", "v.x", 75)])
        // `to` after a finished tween: from its end, 10 → 0 over [1, 3]; at 2 halfway.
        try S.expectNumbers("let final = animate v.x from 0 to 10 ; animate v.x to 0 in 2s", [("2", "v.x", 5)])
    }

    // MARK: Reversal

    /// `(move card by (0, -12)) looped` = `by −12 ; by 12 with mirror(linear)`:
    /// y 0 → −12 → 0.
    @Test func aLoopedByBobs() throws {
        try S.expectNumbers("let final = (move card by (0, -12)) looped", [
            ("0", "card.y", 0), ("0.5", "card.y", -6), ("1", "card.y", -12), ("1.5", "card.y", -6), ("2", "card.y", 0),
        ])
    }

    /// `(by 10 with ease-in-quad) reversed` is `by −10 with mirror(ease-in-quad)`:
    /// from 0, at 0.5 it has gone mirror(E)(0.5) = 1 − (1 − 0.5)² = 0.75 of
    /// the way: −7.5; at 1, −10.
    @Test func aReversedByMovesBackByTheMirror() throws {
        try S.expectNumbers("let final = (animate v.x by 10 with ease-in-quad) reversed", [("0.5", "v.x", -7.5), ("1", "v.x", -10)])
    }

    /// A `to` tween has no start to return to: reversing it, directly, in a
    /// composite, or through `looped` (also forever) is an error at the modifier.
    @Test func reversingATweenToAValueIsAnError() {
        #expect(S.diagnostics("let final = (animate v.x to 5) reversed") == ["1:32 reversed-to"])
        #expect(S.diagnostics("let a = animate v.x to 5\nlet final = (wait 1s ; a) looped") == ["2:27 reversed-to"])
        #expect(S.diagnostics("let final = fade v to 0 looped forever") == ["1:25 reversed-to"])
        // Not an error: `by` reverses, and `from … to` does.
        #expect(S.diagnostics("let final = (fade v by -1 ; fade v from 0 to 1) looped") == [])
    }

    // MARK: Repetition

    /// Copy k of `x ^ n` starts where copy k − 1 left: x(t) = t for t in
    /// [0, 10⁹]. Sampled at the end of a billion copies, exactly.
    @Test func aBillionCopiesSampledAtTheEnd() {
        #expect(S.eval("let final = (move card by (1, 0)) ^ 1000000000", at: ["0.5", "999999999.5", "1000000000"])
                    == "time,card.x,card.y\n0.5,0.5,0\n999999999.5,999999999.5,0\n1000000000,1000000000,0\n")
    }

    /// `rotate dial by 90` forever: copy k spans [k, k + 1] from 90·k. At
    /// 10⁹ + 0.5 s: 90·10⁹ + 45. A looped `by` goes back where it started
    /// every period (the map of one copy is c ↦ c): at 10⁹ + 0.5, 0.5.
    @Test func foreverKeepsGoingExactly() {
        #expect(S.eval("let final = (rotate dial by 90) repeated forever", at: ["1000000000.5"])
                    == "time,dial.rotation\n1000000000.5,90000000045\n")
        #expect(S.eval("let final = (animate v.x by 1) looped forever", at: ["1000000000.5", "1000000001.5"])
                    == "time,v.x\n1000000000.5,0.5\n1000000001.5,0.5\n")
    }

    /// Colours forever: the first copy starts from the declared blue, every
    /// later one from white, where a copy ends. Copy 0 at 0.5: blue–red
    /// halfway; copy 1 at 2.5 and copy 500000 at 1000000.5: white (1, 1, 1)
    /// to red (1, 0, 0) halfway, (1, 0.5, 0.5) → 255, 127.5, 127.5.
    @Test func colourRepetitionsStartFromWhereTheLastCopyEnded() {
        let source = "view lamp color blue\nlet final = (color lamp to red ; color lamp to white) repeated forever"
        #expect(S.eval(source, at: ["0.5", "2.5", "1000000.5"])
                    == "time,lamp.color\n0.5,rgb(127.5 0 127.5)\n2.5,rgb(255 127.5 127.5)\n1000000.5,rgb(255 127.5 127.5)\n")
    }

    /// A repetition too long to list, between other tweens: it starts at 3
    /// (where `from 0 to 3` left x) and ends at 3 + 20000; `by 5` after it
    /// starts there.
    @Test func aSymbolicRepetitionBetweenTweens() throws {
        try S.expectNumbers("let final = animate v.x from 0 to 3 ; (animate v.x by 1) ^ 20000 ; animate v.x by 5", [
            ("1", "v.x", 3), ("1.5", "v.x", 3.5), ("20001", "v.x", 20003), ("20001.5", "v.x", 20005.5), ("20002", "v.x", 20008),
        ])
    }

    // MARK: Placement: with, in, delayed, staggered

    /// `in 1s` halves both: x 0 → 10 over [0, 0.5], 10 → 20 over [0.5, 1].
    /// `with ease-in-quad` on one tween: at 0.5, 10 · 0.25. As a warp of the
    /// chain (2 s), the state at t is the chain's at 2·(t/2)²: t = 1 → 0.5 → 5.
    @Test func relativeTweensUnderInAndWith() throws {
        try S.expectNumbers("let final = (animate v.x by 10 ; animate v.x by 10) in 1s",
                            [("0.25", "v.x", 5), ("0.75", "v.x", 15), ("1", "v.x", 20)])
        try S.expectNumbers("let final = animate v.x by 10 with ease-in-quad", [("0.5", "v.x", 2.5)])
        try S.expectNumbers("let final = (animate v.x by 10 ; animate v.x by 10) with ease-in-quad",
                            [("1", "v.x", 5), ("2", "v.x", 20)])
    }

    /// `delayed by 1s`: the `by` starts at 2 from 4 (the first tween's end): 1.5 holds 4, 2.5 is 9.
    /// `staggered by 0.5s`: b's tween moves to [0.5, 1.5]; at 1, a is 10 and b 5.
    @Test func relativeTweensDelayedAndStaggered() throws {
        try S.expectNumbers("let final = animate v.x from 0 to 4 ; (animate v.x by 10 delayed by 1s)",
                            [("1.5", "v.x", 4), ("2.5", "v.x", 9)])
        try S.expectNumbers("view a\nview b\nlet final = (animate a.x by 10 || animate b.x by 10) staggered by 0.5s",
                            [("1", "a.x", 10), ("1", "b.x", 5)])
    }

    /// Named values and calls (docs/semantics.md §7.2) reach `by` and `to` like `from`: `nudge(card)`
    /// moves y by −12 over 0.5 s, `nudge(card, lift * 2)` by −24 (−12 → −36),
    /// `back(card)` goes `to home` (100, 0) from (40, −36) over 1 s (1.5: halfway,
    /// (70, −18)); then x `by lift` 100 → 112 (2.5: 106) and the dial `by lift * 2` (3.5: 12).
    @Test func namedValuesAndCallsInRelativeTweens() throws {
        let source = """
            view card x 40
            let lift = 12
            let gap = 0.5s
            let snap = ease-out-cubic
            let home = (100, 0)
            let nudge(v, d = lift) = move v by (0, -d) in gap with snap
            let back(v) = move v to home
            let final = nudge(card) ; nudge(card, lift * 2) ; back(card) ; animate card.x by lift ; rotate dial by lift * 2
            """
        try S.expectNumbers(source, [
            ("0.5", "card.y", -12), ("1", "card.y", -36), ("1.5", "card.x", 70), ("1.5", "card.y", -18), ("2", "card.x", 100),
            ("2", "card.y", 0), ("2.5", "card.x", 106), ("3.5", "dial.rotation", 12), ("4", "dial.rotation", 24),
        ])
    }

    // MARK: Through the product

    /// `timeline` lists the resolved start, marked; `normalize` keeps the
    /// relative forms, and its normal form evaluates to the same table.
    @Test func timelineAndNormalForm() throws {
        let source = "view card x 40\nlet step = animate card.x by 10\nlet final = step ; step ; animate card.x to 0"
        let (compiled, _) = try S.compiled(source)
        let timeline = timelineText(compiled, width: 20)
        #expect(timeline.contains("card.x    0      1    40*   50"))
        #expect(timeline.contains("card.x    2      3    60*   0 "))
        let normal = try normalProgram(source)
        #expect(normal.contains("animate card.x by 10 ^ 2"), "\(normal)")
        #expect(normal.contains("animate card.x to 0"), "\(normal)")
        #expect(S.eval(normal, fps: 4) == S.eval(source, fps: 4))
    }

    /// Normalizing programs with relative tweens is sound: the same table.
    @Test(arguments: [
        "let final = (move card by (0, -12) with ease-in) looped",
        "let s = animate v.x by 10\nlet final = (s ; s) || animate v.x from 0 to 3 ; s reversed",
        "view lamp color blue\nlet final = (color lamp to red || fade lamp by -0.5) ; (color lamp to white ; wait 1s) ^ 3",
        "let final = ((rotate dial by 45 with ease-out-back) ^ 3) reversed in 2s",
        "let final = ((animate v.x by 1 ; animate v.x to 0 in 0s) ^ 4 || animate w.x by 2) staggered by 0.1s",
    ])
    func normalizingKeepsTheTable(source: String) throws {
        let normal = try normalProgram(source)
        #expect(normal.contains(" by ") || normal.contains(" to "), "\(normal)")
        // The same table, to rounding: a reversal absorbed into a tween is computed the other way round.
        #expect(closeTables(S.eval(normal, fps: 8), S.eval(source, fps: 8)), "\(normal)")
    }
}
