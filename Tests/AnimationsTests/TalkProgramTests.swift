import Testing
import Animations

/// The talk's "All the code" slide, with `Double` for `CGFloat`, compiled and run.
private final class View {
    var radius = 0.0
    var rotation = 0.0
    var alpha = 0.0
}

@Test func talkProgramGivesTheTalksNumbers() {
    let circle = View(), square = View(), container = View()
    let left = linear(from: 100, to: 10, in: 2.0).time(easeInOut).bind(circle, with: \.radius)
    let right = linear(from: 0, to: 2 * Double.pi, in: 2.0).time(easeOut(1.5)).bind(square, with: \.rotation)
    let fadeIn = linear(from: 0, to: 1, in: 1.0).time(easeInOut).bind(container, with: \.alpha)
    let animations = left + right
    let final = fadeIn * animations
    #expect(final.duration == 3.0)
    _ = final.value(0.5)
    // t = 1.5 s: 0.5 s into `left` and `right`, progress 0.25.
    // easeInOut(0.25) = e^-4 / (e^-4 + e^-4/3) and easeOut(1.5)(0.25) = 1 - 0.75^1.5, worked by hand:
    #expect(abs(circle.radius - 94.1528) < 0.00005)
    #expect(abs(square.rotation - 2.2021) < 0.00005)
    // The fade has finished and holds its end value.
    #expect(container.alpha == 1)
}

@Test func talkValuesAreNilWhenCancelledOrTrivial() {
    #expect(Animation<Double>.cancelled.value(0.5) == nil)
    #expect(Animation<Double>.trivial.value(0.5) == nil)
    #expect(Animation<Double>.cancelled.duration == -Double.infinity)
    #expect(Animation<Double>.trivial.duration == 0)
}

@Test func unboundAnimationsShareOneProperty() {
    let up = linear(from: 0, to: 10, in: 1)
    let down = linear(from: 10, to: 0, in: 1)
    let both = up * down
    #expect(both.duration == 2)
    #expect(both.value(0.25) == 5)        // halfway up
    #expect(both.value(0.75) == 5)        // halfway down
    #expect(both.value(1) == 0)
    // In parallel, equal starts tie: the mean of 2.5 and 7.5.
    #expect((up + down).value(0.25) == 5)
    #expect(up.reversed.value(0.25) == 7.5)
    #expect(up.looped.duration == 2)
    #expect(up.looped.value(0.75) == 5)
    #expect(up.repeating(count: 3).duration == 3)
    #expect(up.delayed(by: 1).value(0.25) == 0)    // before it starts: its start value
    #expect(up.map { $0 * 2 }.value(0.5) == 10)
}

@Test func doRunsTheEffectForEverySample() {
    var seen: [Double] = []
    let ramp = linear(from: 0, to: 4, in: 2).do { seen.append($0) }
    _ = ramp.value(0)
    _ = ramp.value(0.5)
    _ = ramp.value(1)
    #expect(seen == [0, 2, 4])
}

@Test func zipReadsBothSides() {
    let pair = zip(linear(from: 0, to: 1, in: 1), linear(from: 0, to: 1, in: 2).map { $0 * 10 })
    // Both animate the anonymous property; at t = 1 the later-starting... both start at 0,
    // the 2 s one is active at t = 1 with value 0.5, the 1 s one is active too (t = end):
    // a tie on start, so the state is the mean of 1 and 0.5.
    let value = pair.value(0.5)
    #expect(value?.0 == 0.75)
    #expect(value?.1 == 7.5)
}
