import Foundation
import Testing
import Animations

// The talk writes its values as `CGFloat`; on Linux `CGFloat` lives in
// Foundation, which the library does not import. One line makes it animatable
// (README, "The library"): the defaults for `BinaryFloatingPoint` do the rest.
extension CGFloat: Animatable {}

/// The views of the talk's slides.
private final class View {
    var radius: CGFloat = 0
    var rotation: CGFloat = 0
    var alpha: CGFloat = 0
}

/// The talk's `resize` and `rotate` effects.
private func resize(_ view: View) -> (CGFloat) -> Void { { view.radius = $0 } }
private func rotate(_ view: View) -> (CGFloat) -> Void { { view.rotation = $0 } }

@Test func theTalksAllTheCodeSlideGivesTheTalksNumbers() {
    // "All the code", as on the slide (CGFloat, `.do`, `bind`).
    let circle = View(), square = View(), container = View()
    let left =
        linear(from: 100, to: 10, in: 2.0).time(easeInOut)
            .do(resize(circle))
    let right =
        linear(from: 0, to: 2 * CGFloat.pi, in: 2.0).time(easeOut(1.5))
            .do(rotate(square))
    let fadeIn =
        linear(from: 0, to: 1, in: 1.0).time(easeInOut)
            .bind(container, with: \.alpha)
    let animations = left + right
    let final = fadeIn * animations
    #expect(final.duration == 3.0)
    _ = final.value(0.5)
    // t = 1.5 s: 0.5 s into `left` and `right`, progress 0.25. By hand:
    // easeInOut(0.25) = e^-4 / (e^-4 + e^(-4/3)) = 0.0651…, so the radius is
    // 100 − 90·0.0651… = 94.1528; easeOut(1.5)(0.25) = 1 − 0.75^1.5 = 0.35048…,
    // so the rotation is 2π·0.35048… = 2.2021. Each effect sees its own value.
    #expect(abs(circle.radius - 94.1528) < 0.00005)
    #expect(abs(square.rotation - 2.2021) < 0.00005)
    // The fade has not played in this read (its side is over), but the bound
    // property still reads 1 when read at its own end.
    _ = fadeIn.value(1)
    #expect(container.alpha == 1)
}

@Test func zipReadsEachSideOnItsOwn() {
    // The regression of issue 9: both sides used to read one shared property.
    let pair = zip(linear(from: 0, to: 10, in: 1.0), linear(from: 5, to: 6, in: 2.0))
    let value = pair.value(0.25)   // t = 0.5 s
    #expect(value?.0 == 5.0)       // 0 + 10·0.5
    #expect(value?.1 == 5.25)      // 5 + 1·0.25
}

@Test func parallelEffectsEachReceiveTheirOwnValue() {
    var seenA: [Double] = [], seenB: [Double] = []
    let a = linear(from: 0, to: 10, in: 1.0).do { seenA.append($0) }
    let b = linear(from: 100, to: 200, in: 1.0).do { seenB.append($0) }
    let both = a + b
    let blended = both.value(0.5)
    #expect(seenA == [5])
    #expect(seenB == [150])
    // `+` reads combine with the value type's blend: the mean of distinct values.
    #expect(blended == 77.5)
}

@Test func sequenceRunsOnlyTheSideThatPlays() {
    var seenA: [Double] = [], seenB: [Double] = []
    let a = linear(from: 0, to: 10, in: 1.0).do { seenA.append($0) }
    let b = linear(from: 100, to: 200, in: 1.0).do { seenB.append($0) }
    let both = a * b
    #expect(both.value(0.25) == 5)      // t = 0.5: a plays
    #expect(both.value(0.5) == 10)      // t = 1: a's end (the talk's `t <= ratio`)
    #expect(both.value(0.75) == 150)    // t = 1.5: b plays
    #expect(seenA == [5, 10])
    #expect(seenB == [150])
}

@Test func combinatorsFollowTheTalk() {
    let up = linear(from: 0, to: 10, in: 1)
    let down = linear(from: 10, to: 0, in: 1)
    let both = up * down
    #expect(both.duration == 2)
    #expect(both.value(0.25) == 5)        // halfway up
    #expect(both.value(0.75) == 5)        // halfway down
    #expect(both.value(1) == 0)
    // In parallel each side reads its own value: the mean of 2.5 and 7.5.
    #expect((up + down).value(0.25) == 5)
    #expect(up.reversed.value(0.25) == 7.5)
    #expect(up.looped.duration == 2)
    #expect(up.looped.value(0.75) == 5)   // on the way back
    #expect(up.repeating(count: 3).duration == 3)
    #expect(up.repeating(count: 3).value(0.5) == 5)   // t = 1.5: halfway through the second copy
    #expect(up.delayed(by: 1).value(0.25) == 0)       // before it starts: its start value
    #expect(up.retimed(to: 4).value(0.5) == 5)
    #expect(up.map { $0 * 2 }.value(0.5) == 10)
}

@Test func talkValuesAreNilWhenCancelledOrTrivial() {
    #expect(Animation<Double>.cancelled.value(0.5) == nil)
    #expect(Animation<Double>.trivial.value(0.5) == nil)
    #expect(Animation<Double>.cancelled.duration == -Double.infinity)
    #expect(Animation<Double>.trivial.duration == 0)
}

@Test func doRunsTheEffectForEverySample() {
    var seen: [Double] = []
    let ramp = linear(from: 0, to: 4, in: 2).do { seen.append($0) }
    _ = ramp.value(0)
    _ = ramp.value(0.5)
    _ = ramp.value(1)
    #expect(seen == [0, 2, 4])
}

@Test func durationsAreCheckedWhereTheyAreComputed() {
    // A literal duration is a `Seconds`; a computed one must be checked,
    // so a negative or non-finite duration never reaches the library.
    #expect(Seconds(Double(-1)) == nil)   // (`Seconds(-1)` is the literal -1: a precondition)
    #expect(Seconds(.nan) == nil)
    #expect(Seconds(.infinity) == nil)
    #expect(Seconds(Double(0.25))?.time == Time(numerator: 1, denominator: 4))
    let computed = 3.0 / 4
    if let duration = Seconds(computed) {
        #expect(linear(from: 0, to: 1, in: duration).duration == 0.75)
    }
    #expect(throws: AnimationError.self) { try Animation.tween(from: 0, to: Double.nan, in: 1) }
}

@Test func colorsAndPointsAnimateToo() {
    let red = Color(red: 255, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 255)
    #expect(linear(from: red, to: blue, in: 1).value(0.5) == Color(red: 127.5, green: 0, blue: 127.5))
    let path = linear(from: Point(x: 0, y: 0), to: Point(x: 120, y: 40), in: 2)
    #expect(path.value(0.5) == Point(x: 60, y: 20))
    final class Card { var center = Point(x: 0, y: 0) }
    let card = Card()
    _ = path.bind(card, with: \.center).value(0.25)
    #expect(card.center == Point(x: 30, y: 10))
}
