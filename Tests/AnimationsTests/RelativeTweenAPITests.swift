import Testing
@testable import Animations

/// Relative tweens in the library (docs/semantics.md §7.1): ``Tween/init(property:to:easing:duration:)``,
/// ``Tween/init(property:by:easing:duration:)``, the talk-style `linear(to:in:)`
/// and `linear(by:in:)`, and how a compiled scene resolves them. Expected
/// values are worked out from the note, in the comments beside them.
struct RelativeTweenAPITests {
    let x = Property(view: "card", name: "x")
    let tint = Property(view: "lamp", name: "color")

    func value(_ scene: Scene, _ property: Property, at t: Time, initial: [Property: Value] = [:]) throws -> Value? {
        try #require(try scene.compile(initial: initial)).value(of: property, at: t, initial: initial[property])
    }

    /// by 10 ; by 10 from the declared 40: 40 → 50 → 60 (at 1.5: 55).
    @Test func chainsStartFromTheDeclaredValue() throws {
        let step = Scene.tween(try Tween(property: x, by: .number(10)))
        let chain = try step.then(step)
        #expect(try value(chain, x, at: Time(numerator: 3, denominator: 2) ?? .one, initial: [x: .number(40)]) == .number(55))
        // With nothing declared, from 0: at 2, 20.
        #expect(try value(chain, x, at: Time(2)) == .number(20))
    }

    /// A colour takes `to`, not `by`; `to` a colour with nothing before it
    /// and nothing declared has no start; declared blue → red halfway is (0.5, 0, 0.5).
    @Test func colours() throws {
        #expect(throws: AnimationError.relativeColor(tint)) { try Tween(property: tint, by: .color(Color(red: 255, green: 0, blue: 0))) }
        let toRed = Scene.tween(try Tween(property: tint, to: .color(Color(red: 255, green: 0, blue: 0))))
        #expect(throws: AnimationError.noCurrentValue(tint)) { try toRed.compile() }
        let blue = Value.color(Color(red: 0, green: 0, blue: 255))
        #expect(try value(toRed, tint, at: Time(numerator: 1, denominator: 2) ?? .one, initial: [tint: blue])
                    == .color(Color(red: 127.5, green: 0, blue: 127.5)))
    }

    /// Reversing a `to` tween cannot be compiled; reversing `by 10` moves by −10.
    @Test func reversal() throws {
        let to = Scene.tween(try Tween(property: x, to: .number(5)))
        #expect(throws: AnimationError.reversedRelative(x)) { try to.reversed.compile() }
        let by = Scene.tween(try Tween(property: x, by: .number(10)))
        #expect(try value(by.reversed, x, at: Time(1)) == .number(-10))
        #expect(try value(by.looped(), x, at: Time(1)) == .number(10))
        #expect(try value(by.looped(), x, at: Time(2)) == .number(0))
    }

    /// `by 1` a billion times, kept symbolic: at 10⁹ − 0.5 s, 10⁹ − 0.5; and
    /// forever, at 10⁹ + 0.25 s, 10⁹ + 0.25.
    @Test func symbolicRepetitionsFollowTheMapOfOneCopy() throws {
        let step = Scene.tween(try Tween(property: x, by: .number(1)))
        let billion = try step.repeated(1_000_000_000)
        let compiled = try #require(try billion.compile())
        #expect(compiled.blocks.count == 1)
        #expect(compiled.value(of: x, at: try #require(Time(decimal: "999999999.5"))) == .number(999_999_999.5))
        let forever = try #require(try step.repeatedForever().compile())
        #expect(forever.value(of: x, at: try #require(Time(decimal: "1000000000.25"))) == .number(1_000_000_000.25))
    }

    /// The talk's API: tweens bound to one property chain from where the last
    /// one left it. `linear(by: -12)` twice on `y` (0 → −12 → −24), then
    /// `linear(to: 100)`: at progress 0.25 of 3 s (0.75 s), −9; at 0.5 (1.5 s),
    /// −18; at 5/6 (2.5 s), halfway from −24 to 100: 38.
    @Test func theTalkStyleAPI() throws {
        final class Card { var y = 0.0 }
        let card = Card()
        let nudge = linear(by: -12.0, in: 1).bind(card, with: \.y)
        let home = linear(to: 100.0, in: 1).bind(card, with: \.y)
        let path = nudge * nudge * home
        #expect(path.duration == 3)
        #expect(path.value(0.25) == -9)
        #expect(card.y == -9)
        #expect(path.value(0.5) == -18)
        #expect(path.value(5.0 / 6.0) == 38)
    }
}
