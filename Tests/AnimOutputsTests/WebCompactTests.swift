import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Size that follows the structure (docs/exports.md §7.1): a property that
/// never changes has no keyframes, and a hold has no curve, on the web.
struct WebCompactTests {
    static func export(_ text: String) throws -> WebExport {
        let outcome = run(SourceFile(name: "compact.anim", text: text))
        #expect(!outcome.hasErrors, "\(outcome.diagnostics)")
        return try #require(webExport(outcome, source: "compact.anim").0)
    }

    /// `move dot from (0, 0) to (0, -40)` moves x from 0 to 0: whatever the
    /// easing, `0 + (0 − 0)·e(p)` is 0 (docs/semantics.md, tweens), so x is
    /// the element's own value (`--animc-x: 0` in its rule) and nothing
    /// animates it. y holds -40 over [1, 2] s (a tween from -40 to -40 under
    /// ease-in-out): over that third of the 3 s the browser needs two
    /// keyframes, at 1/3 and 2/3, and no easing between them.
    @Test func aConstantHasNoKeyframesAndAHoldNoCurve() throws {
        let text = """
            view dot radius 10
            let s = move dot from (0, 0) to (0, -40) in 1s with ease-out-back ; animate dot.y from -40 to -40 in 1s with ease-in-out ; animate dot.y from -40 to 0 in 1s with ease-in-out

            """
        let export = try Self.export(text)
        let channels = export.views.flatMap(\.channels)
        let x = try #require(channels.first { $0.property.description == "dot.x" })
        #expect(x.animations.isEmpty && x.start == .number(0))
        #expect(!stylesheet(export).contains("animc-dot-x"))
        let radius = try #require(channels.first { $0.property.description == "dot.radius" })
        #expect(radius.animations.isEmpty && radius.start == .number(10))
        let y = try #require(channels.first { $0.property.description == "dot.y" }?.animations.first?.keyframes)
        let held = y.filter { $0.offset > 1.0 / 3 - 1e-6 && $0.offset < 2.0 / 3 + 1e-6 }
        #expect(held.count == 2, "\(y.map(\.offset))")
        #expect(held.first?.value == .number(-40) && held.first?.easing == nil)
        #expect(held.last?.value == .number(-40))
    }

    /// A relative tween to where the declared value already is still
    /// follows the element at play time (docs/exports.md §7.3): `move dot to
    /// (0, -40)` from the declared (0, 0) runs x from wherever the element
    /// is to 0, so x keeps its keyframes, the first carrying the start.
    @Test func aRelativeTweenToItsStartKeepsItsKeyframes() throws {
        let export = try Self.export("view dot radius 10\nlet s = move dot to (0, -40) in 1s with ease-in-out\n")
        let x = try #require(export.views.flatMap(\.channels).first { $0.property.description == "dot.x" })
        let keyframes = try #require(x.animations.first?.keyframes)
        #expect(keyframes.first?.relative == 1 && keyframes.last?.relative == 0)
    }

    /// Views drawn alike share one drawing rule (the stylesheet's and the
    /// module's opening comment): two circles whose radius and colour are
    /// custom properties have the same declarations, so one rule lists both
    /// selectors, in the order the views come; a square has its own.
    @Test func viewsDrawnAlikeShareOneRule() throws {
        let text = """
            view a radius 10 color red
            view b radius 20 color blue
            view c width 10 height 10 color red
            let s = move a by (10, 0) in 1s || move b by (10, 0) in 1s || move c by (10, 0) in 1s

            """
        let rules = drawingRules(try Self.export(text))
        #expect(rules.filter { $0.hasSuffix("{") }.count == 2, "\(rules)")
        #expect(rules.prefix(2) == ["[data-view=\"a\"],", "[data-view=\"b\"] {"], "\(rules)")
        #expect(rules.contains("[data-view=\"c\"] {"), "\(rules)")
    }

    /// Events as a count (docs/exports.md §7.1): `(… ; emit tick ; … ; emit
    /// tock) ^ 3` with 1 s tweens fires tick at 1, 3, 5 and tock at 2, 4, 6
    /// (docs/semantics.md: `x ^ n` is n copies end to end, 2 s each): one
    /// block of two events, every 2 s, three times. Its times lie in
    /// (0, 2], so it repeats from 0. Firings at 1, 3 and 4 are no such
    /// block: they stay listed.
    @Test func repeatedEventsAreWrittenOnceWithACount() throws {
        let text = "let s = (animate a.x from 0 to 1 in 1s ; emit tick ; animate a.x from 1 to 0 in 1s ; emit tock) ^ 3\n"
        let json = waapiJSON(try Self.export(text))
        #expect(json.contains("\"events\":[],\n"), "\(json)")
        #expect(json.contains("\"repeatingEvents\":{\"from\":0,\"period\":2,\"count\":3,"
                              + "\"events\":[{\"name\":\"tick\",\"time\":1},{\"name\":\"tock\",\"time\":2}]}"), "\(json)")
        let uneven = "let s = animate a.x from 0 to 1 in 1s ; emit tick ; animate a.x from 1 to 2 in 2s ; emit tick ; animate a.x from 2 to 3 in 1s ; emit tick\n"
        let listed = waapiJSON(try Self.export(uneven))
        #expect(listed.contains("\"events\":[{\"name\":\"tick\",\"time\":1},{\"name\":\"tick\",\"time\":3},{\"name\":\"tick\",\"time\":4}]"), "\(listed)")
        #expect(!listed.contains("repeatingEvents"))
    }
}
