import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Events that fire at one instant are listed in the order they fire in
/// (docs/semantics.md §6.5): a sequence fires its parts in turn even when they take
/// no time, so `emit thud ; emit rest` is `thud rest`; only events that are
/// truly simultaneous (the first of each `||` branch at that instant) are
/// ordered by name. Expected columns derived by hand from that rule.
struct EventOrderTests {
    /// The events column of `animc eval --format csv --fps 1`, one entry per row.
    static func events(_ source: String) -> [String] {
        let file = SourceFile(name: "events.anim", text: "view v\nview w\n" + source + "\n")
        let result = evaluateToText(file, fps: 1, at: nil, until: nil, format: .csv)
        guard result.succeeded else { return ["error: " + result.diagnostics] }
        return result.output.split(separator: "\n").dropFirst().map { line in
            String(line.split(separator: ",", omittingEmptySubsequences: false).last ?? "")
        }
    }

    @Test(arguments: [
        // A sequence at one instant: in sequence order, not by name.
        ("let final = emit thud ; emit rest", ["thud rest"]),
        ("let final = emit c ; emit b ; emit a", ["c b a"]),
        // After a tween: the events at its end in sequence order.
        ("let final = fadeIn v ; emit zed ; emit bee", ["", "zed bee"]),
        ("let final = (fadeIn v ; emit zed) ; emit bee", ["", "zed bee"]),
        // Parallel branches: their first events at an instant tie, by name;
        // each branch's later ones follow in its order.
        ("let final = (emit zed ; emit bee) || emit cat", ["cat zed bee"]),
        ("let final = (fadeIn v ; emit zed) || (fadeIn w ; emit cat)", ["", "cat zed"]),
        ("let final = (fadeIn v ; emit zed ; emit bee) || (wait 1s ; emit cat)", ["", "cat zed bee"]),
        ("let final = emit b || emit a", ["a b"]),
        // Played backwards, a sequence fires its parts in the other order.
        ("let final = (emit thud ; emit rest) reversed", ["rest thud"]),
        // One name fired by two parts at one instant is one event, after all that fires before it in
        // either: `land` after `tick`, which one branch fires before it. This is what keeps right
        // distributivity (equal durations, here 0) on the events column: both sides are `tick land`,
        // as `emit tick ; emit land` is. (Listed at its earliest place, the right side was `land tick`.)
        ("let final = (one || emit tick) ; emit land", ["tick land"]),
        ("let final = (one ; emit land) || (emit tick ; emit land)", ["tick land"]),
        ("let final = emit land || (emit tick ; emit land)", ["tick land"]),
        // The law test's case (seed 42): the same with `land` a part that lasts no time.
        ("let x = emit land played from 0s to 0s\nlet final = (one ; x) || ((emit tick ; emit land ^ 0) with css-ease-in-out ; x)",
         ["tick land"]),
        // Nothing fires before either firing of `b` here: `b a`.
        ("let final = (emit b ; emit a) || emit b", ["b a"]),
    ])
    func eventsAtOneInstantFireInTheirOrder(source: String, expected: [String]) {
        #expect(Self.events(source) == expected, "\(source)")
    }

    /// The order reaches the exports too: every firing, listed.
    @Test func allEventsAreInFiringOrder() throws {
        let file = SourceFile(name: "events.anim", text: "view v\nlet final = emit thud ; emit rest ; (fadeIn v ; emit b ; emit a)\n")
        let compiled = try #require(try run(file).scene?.compile())
        #expect(compiled.allEvents()?.map(\.name) == ["thud", "rest", "b", "a"])
    }
}
