import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The language's points and keyframes (docs/semantics.md §6.2), checked against values derived by hand from
/// the note's formulas. Every expectation says how it was derived; none
/// was copied from animc's output.
struct KeyframeTests: ScriptChecking {
    /// `move V from (X1, Y1) to (X2, Y2)` is the two tweens on V.x and V.y, one
    /// window, one easing: columns b.x and b.y.
    @Test func moveIsTwoTweens() throws {
        #expect(Self.eval("let f = move b from (0, 0) to (100, 50)", fps: 4) == """
            time,b.x,b.y
            0,0,0
            0.25,25,12.5
            0.5,50,25
            0.75,75,37.5
            1,100,50

            """)
        let source = """
            let m = move b from (0, 0) to (100, 50) with ease-out-back
            let p = (animate b.x from 0 to 100 || animate b.y from 0 to 50) with ease-out-back
            let q = animate b.x from 0 to 100 with ease-out-back || animate b.y from 0 to 50 with ease-out-back
            let n = move b from (1 + 2, -4) to (2 * 3, 4) in 2s
            let o = animate b.x from 3 to 6 in 2s || animate b.y from -4 to 4 in 2s
            """
        try Self.expectSame(source, "m", "p")
        try Self.expectSame(source, "m", "q")
        try Self.expectSame(source, "n", "o")
        // ease-out-back(0.5) = 1.0876975 on both channels.
        try Self.expectNumbers(source + "\nlet f = m", [("0.5", "b.x", 108.76975), ("0.5", "b.y", 54.384875)])
        // `(1 + 2)` stays a number.
        try Self.expectNumbers("let f = animate b.x from (1 + 2) to 5", [("0.5", "b.x", 4)])
    }

    /// Offsets spread by CSS's rule. `through 0, 10 at 25%, 20, 30, 40 at 75%, 50`:
    /// known 0 %, 25 %, 75 %, 100 %; the two between 25 % and 75 % spread evenly:
    /// 25 + 50/3 = 41 2/3 % and 58 1/3 %. Pieces 1/4, 1/6, 1/6, 1/6, 1/4 (exact):
    /// 1/8 → 5, 1/4 → 10, 1/3 → 15 (halfway to 5/12), 5/12 → 20, 1/2 → 25,
    /// 7/12 → 30, 3/4 → 40, 7/8 → 45, 1 → 50.
    @Test func keyframeOffsetsSpreadEvenly() throws {
        try Self.expectNumbers("let f = animate b.x through 0, 10 at 25%, 20, 30, 40 at 75%, 50", [
            ("0", "b.x", 0), ("1/8", "b.x", 5), ("1/4", "b.x", 10), ("1/3", "b.x", 15), ("5/12", "b.x", 20), ("1/2", "b.x", 25),
            ("7/12", "b.x", 30), ("3/4", "b.x", 40), ("7/8", "b.x", 45), ("1", "b.x", 50),
        ])
        // No offsets: k pieces of 1/k. `through 0, 10, 30`: 1/4 → 5, 1/2 → 10, 3/4 → 20.
        try Self.expectNumbers("let f = animate b.x through 0, 10, 30", [("1/4", "b.x", 5), ("1/2", "b.x", 10), ("3/4", "b.x", 20)])
        // One known offset in the middle: 0 %, 40 %, 80 %, 90 %, 100 %.
        try Self.expectNumbers("let f = animate b.x through 0, 1, 2 at 80%, 3, 4", [
            ("0.2", "b.x", 0.5), ("0.4", "b.x", 1), ("0.6", "b.x", 1.5), ("0.8", "b.x", 2), ("0.85", "b.x", 2.5),
            ("0.9", "b.x", 3), ("0.95", "b.x", 3.5), ("1", "b.x", 4),
        ])
        // Written on the ends, 0 % and 100 % are allowed.
        try Self.expectNumbers("let f = animate b.x through 0 at 0%, 8 at 50%, 4 at 100%", [("0.25", "b.x", 4), ("0.75", "b.x", 6)])
        // The pieces' windows are exact: a 1/3 piece ends at exactly 1/3, where the next starts.
        let (scene, _) = try Self.compiled("let f = animate b.x through 0, 1, 2, 3")
        #expect(scene.segments.map { "\($0.start.exact.map(\.description) ?? "?")-\($0.end.exact.map(\.description) ?? "?")" }
                == ["0-1/3", "1/3-2/3", "2/3-1"])
    }

    /// Equal offsets are a jump: `through 0, 10 at 50%, 20 at 50%, 30` is 0 → 10
    /// over [0, 1/2], a jump 10 → 20 at 1/2, and 20 → 30 over [1/2, 1]. At 1/2 the
    /// jump (its end value, 20) and the last piece (its start, 20) tie: 20.
    @Test func equalOffsetsJump() throws {
        try Self.expectNumbers("let f = animate b.x through 0, 10 at 50%, 20 at 50%, 30", [
            ("0.25", "b.x", 5), ("0.499", "b.x", 9.98), ("0.5", "b.x", 20), ("0.75", "b.x", 25), ("1", "b.x", 30),
        ])
        // A jump at the very start: 0 → 5 in no time at 0, then 5 → 10.
        try Self.expectNumbers("let f = animate b.x through 0, 5 at 0%, 10", [("0", "b.x", 5), ("0.5", "b.x", 7.5)])
        // And at the very end: 0 → 10 over [0, 1], then 10 → 3 at 1.
        try Self.expectNumbers("let f = animate b.x through 0, 10 at 100%, 3", [("0.5", "b.x", 5), ("1", "b.x", 3)])
    }

    /// Keyframes last 1 s in all; `in 2s` scales them: 0 → 10 over [0, 1], 10 → 30 over [1, 2].
    @Test func keyframesRetimed() {
        #expect(Self.eval("let f = animate b.x through 0, 10, 30 in 2s", fps: 2) == """
            time,b.x
            0,0
            0.5,5
            1,10
            1.5,20
            2,30

            """)
    }

    /// `through` for every verb that takes it, with the verb's property and unit.
    @Test func keyframesForEveryVerb() throws {
        // fade: b.opacity 0 → 1 → 0.5 over halves.
        try Self.expectNumbers("let f = fade b through 0, 1, 0.5", [("0.25", "b.opacity", 0.5), ("0.5", "b.opacity", 1), ("0.75", "b.opacity", 0.75)])
        // rotate in turns, reported in degrees: 0, 180, 90 degrees.
        try Self.expectNumbers("let f = rotate b through 0, 0.5, 0.25 turns", [("0.25", "b.rotation", 90), ("0.5", "b.rotation", 180), ("0.75", "b.rotation", 135)])
        try Self.expectNumbers("let f = rotate b through 0, 90, 45", [("0.25", "b.rotation", 45), ("0.75", "b.rotation", 67.5)])
        // grow with a property; shrink and scale on b.scale.
        try Self.expectNumbers("let f = grow b through radius 0, 10, 5", [("0.25", "b.radius", 5), ("0.75", "b.radius", 7.5)])
        try Self.expectNumbers("let f = shrink b through 1, 0.5", [("0.5", "b.scale", 0.75)])
        try Self.expectNumbers("let f = scale b through 1, 2 at 25%, 1", [("0.25", "b.scale", 2), ("0.625", "b.scale", 1.5)])
        // move through points: x and y each through their values.
        try Self.expectNumbers("let f = move b through (0, 0), (10, 20), (30, 0)", [
            ("0.25", "b.x", 5), ("0.25", "b.y", 10), ("0.5", "b.x", 10), ("0.5", "b.y", 20), ("0.75", "b.x", 20), ("0.75", "b.y", 10),
        ])
        // color: red until blue at 25 %, then to lime at 100 %: at 0.625 halfway, (0, 0.5, 0.5).
        #expect(Self.eval("let f = color b through red, blue at 25%, lime", at: ["0.125", "0.25", "0.625"]) == """
            time,b.color
            0.125,rgb(127.5 0 127.5)
            0.25,rgb(0 0 255)
            0.625,rgb(0 127.5 127.5)

            """)
        #expect(Self.eval("let f = animate b.fill through white, black", at: ["0.5"]) == "time,b.fill\n0.5,rgb(127.5 127.5 127.5)\n")
    }

    /// `with E` on keyframes: the pieces do not span the window, so E warps time
    /// (and must be monotone). ease-in-quad: the state at t is the state at t².
    /// t = 0.5 → 0.25: 5; t = 0.75 → 0.5625, 1/8 into 10 → 0: 8.75.
    @Test func easingKeyframes() throws {
        try Self.expectNumbers("let f = animate b.x through 0, 10, 0 with ease-in-quad", [("0.5", "b.x", 5), ("0.75", "b.x", 8.75), ("1", "b.x", 0)])
        #expect(Self.diagnostics("let f = animate b.x through 0, 10, 0 with ease-out-back") == ["1:43 non-monotone-warp"])
        // Two keyframes are one tween over the whole window: the easing composes.
        try Self.expectNumbers("let f = animate b.x through 0, 100 with ease-out-back", [("0.5", "b.x", 108.76975)])
    }
}
