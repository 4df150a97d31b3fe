import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The language's events (docs/semantics.md §6.5), checked against values derived by hand from
/// the note's formulas. Every expectation says how it was derived; none
/// was copied from animc's output.
struct EventTests: ScriptChecking {
    /// `(emit start ; fadeIn a ; emit land ; wait 0.5)` lasts 1.5: start at 0, land at 1.
    /// Reversed, t → 1.5 − t: land at 0.5, start at 1.5; a plays 1 → 0 on [0.5, 1.5].
    @Test func eventsReversed() {
        #expect(Self.eval("let f = (emit start ; fadeIn a ; emit land ; wait 0.5) reversed", fps: 2) == """
            time,a.opacity,events
            0,1,
            0.5,1,land
            1,0.5,
            1.5,0,start

            """)
    }

    /// Looped: x ; x reversed, 3 s. x fires start at 0 and land at 1; x reversed,
    /// shifted by 1.5, land at 1.5 + 0.5 = 2 and start at 1.5 + 1.5 = 3.
    @Test func eventsLooped() {
        #expect(Self.eval("let f = (emit start ; fadeIn a ; emit land ; wait 0.5) looped", fps: 2) == """
            time,a.opacity,events
            0,0,start
            0.5,0.5,
            1,1,land
            1.5,1,
            2,1,land
            2.5,0.5,
            3,0,start

            """)
    }

    /// `^ n` copies: ticks at 0, 0.25, 0.5, 0.75, done at 1. Row 0 takes those at or
    /// before 0; row 1 those in (0, 1]: three ticks and done, in order of first firing.
    /// `repeated 3 times` of `wait 0.5 ; emit tick`: 0.5, 1, 1.5.
    @Test func eventsRepeated() {
        #expect(Self.eval("let f = (emit tick ; wait 0.25) ^ 4 ; emit done", fps: 1) == "time,events\n0,tick\n1,tick×3 done\n")
        #expect(Self.eval("let f = (wait 0.5 ; emit tick) repeated 3 times", fps: 1) == "time,events\n0,\n1,tick×2\n1.5,tick\n")
        // Where copies meet, the event at the end of one and the start of the next is one event:
        // `emit a ; wait 1 ; emit a` ^ 3 fires at 0, 1, 2, 3.
        #expect(Self.eval("let f = (emit a ; wait 1 ; emit a) ^ 3", at: ["3"]) == "time,events\n3,a×4\n")
        // Counted, not listed: a billion copies (0, 1, …, 999999999 are at or before 1e9).
        #expect(Self.eval("let f = (emit tick ; wait 1) ^ 1000000000", at: ["1000000000"]) == "time,events\n1000000000,tick×1000000000\n")
        #expect(Self.eval("let f = (emit a ; wait 1 ; emit a) ^ 1000000000", at: ["0", "1000000000"])
                == "time,events\n0,a\n1000000000,a×1000000000\n")
    }

    /// `in` scales event times: 1 of 2 s becomes 0.5 of 1 s. Two events at one instant:
    /// one row, each name once, in the order they fire (sequence order): `b a`.
    @Test func eventsRetimedAndTogether() {
        #expect(Self.eval("let f = (wait 1 ; emit b ; emit a ; wait 1) in 1s", fps: 2) == "time,events\n0,\n0.5,b a\n1,\n")
        // The same name at the same instant is one event (Σ is a set), listed after everything that fires
        // before any of its firings there: b fires before and after a at 1, so `a b`.
        #expect(Self.eval("let f = fadeIn a ; emit b ; emit a ; emit b", fps: 1) == "time,a.opacity,events\n0,0,\n1,1,a b\n")
        #expect(Self.eval("let f = emit x || (wait 0s ; emit x) || emit x", at: ["0"]) == "time,events\n0,x\n")
        // Order of first firing: zed at 0.2, alpha at 0.4, zed again at 0.6.
        #expect(Self.eval("let f = wait 0.2 ; emit zed ; wait 0.2 ; emit alpha ; wait 0.2 ; emit zed ; wait 0.4", fps: 1)
                == "time,events\n0,\n1,zed×2 alpha\n")
    }

    /// A warp moves an event at t to the least t' with D·E(t'/D) ≥ t.
    /// ease-in-quad on 2 s: 2·(t'/2)² ≥ 1 ⇔ t' ≥ √2 = 1.41421…: not in the row at 1.41, in the one at 1.42.
    /// steps(4) (jump-end) on 2 s, event at 0.9: ⌊4p⌋/4 ≥ 0.45 ⇔ p ≥ 1/2: t' = 1.
    @Test func eventsWarped() {
        #expect(Self.eval("let f = (wait 1 ; emit half ; wait 1) with ease-in-quad", at: ["1.41", "1.42", "2"])
                == "time,events\n1.41,\n1.42,half\n2,\n")
        #expect(Self.eval("let f = (wait 0.9 ; emit e ; wait 1.1) with steps(4)", at: ["0.999", "1"]) == "time,events\n0.999,\n1,e\n")
        // Composed into tweens (docs/semantics.md §3), events still move with the warp: ease-out-back(t') ≥ 0.5
        // first at t' = 0.12720…; E(0.12) = 0.4767, E(0.13) = 0.5089.
        let composed = Self.eval("let f = (fadeIn a || (wait 0.5 ; emit x ; wait 0.5)) with ease-out-back", at: ["0.12", "0.13"])
        #expect(composed.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: ",", omittingEmptySubsequences: false).last ?? "" }
                == ["events", "", "x", ""], "\(composed)")
    }

    /// "The least t'": where E reaches 1 before the end, an event that ends the span fires there.
    ///
    /// * steps(2, jump-start) on 1 s: E = 1/2 on (0, 1/2), 1 from 1/2 on: the event at 1 fires at 0.5.
    /// * ease-out-back composed into `fadeIn a` (docs/semantics.md §3), event at 1: E(p) = 1 + c3(p − 1)³ + c1(p − 1)² = 1
    ///   ⇔ (p − 1)²(c3(p − 1) + c1) = 0 ⇔ p = 1 − c1/c3 = 1 − 1.70158/2.70158 = 0.3701538: after 0.3701, by 0.3702.
    /// * `bouncy spring` (ζ = 0.7, ω = 1): x(t) = 1 first where cos(ω_d t) + a·sin(ω_d t) = 0, a = 0.7/√0.51
    ///   = 0.9801961: ω_d t = π − atan(1/a) = 2.3461938, t = 3.2853285; over T = 10.349182, p = 0.3174481.
    /// * `spring` (ζ = 1) stays below 1 until E(1) = 1: the event stays at 1.
    @Test func eventsAtTheEndOfAWarp() {
        #expect(Self.eval("let f = (wait 1 ; emit end) with steps(2, jump-start)", at: ["0.4", "0.5", "1"]) == "time,events\n0.4,\n0.5,end\n1,\n")
        func events(_ source: String, _ times: [String]) -> [String] {
            Self.eval(source, at: times).split(separator: "\n").dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false).last ?? "") }
        }
        #expect(events("let f = (fadeIn a ; emit landed) with ease-out-back", ["0.3701", "0.3702", "1"]) == ["", "landed", ""])
        #expect(events("let f = (fadeIn a ; emit landed) with bouncy spring", ["0.3174", "0.3175", "1"]) == ["", "landed", ""])
        #expect(events("let f = (fadeIn a ; emit landed) with spring", ["0.9", "0.999", "1"]) == ["", "", "landed"])
        // Monotone and continuous: reaching the end of the span is reaching the end of the window.
        #expect(events("let f = (fadeIn a ; fadeIn b ; emit landed) with ease-in-out", ["1.999", "2"]) == ["", "landed"])
        #expect(events("let f = (fadeIn a ; fadeIn b ; emit landed) with ease-out-expo", ["1.999", "2"]) == ["", "landed"])
    }

    /// The events column in each format: CSV's last column, JSON's `events` array, the table's last column.
    @Test func eventsColumnInEveryFormat() {
        let source = "let f = (emit tick ; wait 0.25) ^ 4 ; emit done"
        #expect(Self.eval(source, fps: 1, format: .json) == "{\"time\":0,\"events\":[\"tick\"]}\n{\"time\":1,\"events\":[\"tick×3\",\"done\"]}\n")
        #expect(Self.eval(source, fps: 1, format: .table) == " time  events\n0.000  tick\n1.000  tick×3 done\n")
        #expect(Self.eval("let f = fadeIn a ; emit x", fps: 2, format: .json).hasPrefix("{\"time\":0,\"a.opacity\":0,\"events\":[]}\n"))
        // With --at, each row counts since the previous requested time.
        #expect(Self.eval("let f = (emit tick ; wait 0.5) ^ 4", at: ["1", "0.5", "2"]) == "time,events\n1,tick×3\n0.5,\n2,tick×2\n")
        // No event left in Σ: no column.
        #expect(Self.eval("let f = (emit x ; zero) || fadeIn a", fps: 1) == "time,a.opacity\n0,0\n1,1\n")
        #expect(Self.eval("let f = (emit x) ^ 0 ; fadeIn a", fps: 1) == "time,a.opacity\n0,0\n1,1\n")
    }

    /// `timeline` lists each event with its exact time.
    @Test func timelineListsEvents() throws {
        let (scene, _) = try Self.compiled("let f = (fadeIn a ; emit land ; wait 1) in 1s ; emit done")
        let text = timelineText(scene)
        #expect(text.contains("event  time\nland   1/2\ndone   1\n") || text.contains("event  time\nland   0.5\ndone   1\n"), "\(text)")
        #expect(text.contains("emit land") && text.contains("emit done"))
    }
}
