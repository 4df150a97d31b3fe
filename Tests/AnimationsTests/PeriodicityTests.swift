import Testing
@testable import Animations

/// Scenes that repeat forever, as exporters see them: unrolled into a finite
/// stretch, and settled into one cycle per property.
struct PeriodicityTests {
    let rotation = Property(view: "s", name: "rotation")
    let opacity = Property(view: "s", name: "opacity")

    func time(_ numerator: Int64, _ denominator: Int64 = 1) -> Time {
        Time(numerator: numerator, denominator: denominator) ?? .zero
    }

    /// `rotate s from 0 to 360 in 1.5s repeated forever`.
    func spin() throws -> Scene {
        try Scene.tween(rotation, from: 0, to: 360, duration: time(3, 2)).repeatedForever()
    }

    @Test func anEndlessSpinRepeatsFromItsStart() throws {
        let compiled = try #require(try spin().compile())
        let state = try compiled.steadyState()
        #expect(state.cycles == [rotation: Cycle(start: .zero, period: time(3, 2))])
        #expect(state.eventCycle == nil && state.settled == .zero && state.longestPeriod == time(3, 2))
        // A quarter of the way through any turn: 90 degrees; at a turn's end the next one starts, at 0.
        let unrolled = state.unrolled
        #expect(!unrolled.isInfinite && unrolled.duration >= time(6))
        #expect(unrolled.value(of: rotation, at: time(3, 8)) == .number(90))
        #expect(unrolled.value(of: rotation, at: time(3, 8) + time(9, 2)) == .number(90))
        #expect(unrolled.value(of: rotation, at: time(3)) == .number(0))
        #expect(unrolled.value(of: rotation, at: unrolled.duration) == compiled.value(of: rotation, at: unrolled.duration))
        // The copies are listed (few of them): one tween piece per turn, exactly.
        let turn = unrolled.pieces(of: rotation, from: Instant(time(3, 2)), to: Instant(time(3)))
        #expect(turn.count == 1)
        guard case .tween(.number(0), .number(360), .linear, 0, 1)? = turn.first?.rule else {
            Issue.record("\(String(describing: turn.first?.rule))")
            return
        }
    }

    @Test func aPrefixComesBeforeTheCycle() throws {
        // fadeIn s in 0.5s ; rotate s from 0 to 360 in 1.5s repeated forever
        let scene = try Scene.tween(opacity, from: 0, to: 1, duration: time(1, 2)).then(try spin())
        let state = try #require(try scene.compile()).steadyState()
        #expect(state.cycles == [rotation: Cycle(start: time(1, 2), period: time(3, 2))])
        #expect(state.settled == time(1, 2))
        #expect(state.unrolled.value(of: rotation, at: time(1, 2) + time(3, 8)) == .number(90))
        #expect(state.unrolled.value(of: opacity, at: time(5)) == .number(1))
    }

    @Test func aCopyThatStartsLateSettlesOnePeriodOn() throws {
        // (wait 0.5s ; rotate 0 → 360 in 1s) repeated forever: before the first turn the rotation
        // holds its start, 0; between later turns it holds where the last one ended, 360.
        let turn = try Scene.wait(time(1, 2)).then(try Scene.tween(rotation, from: 0, to: 360, duration: time(1)))
        let compiled = try #require(try turn.repeatedForever().compile())
        #expect(compiled.value(of: rotation, at: time(1, 4)) == .number(0))
        #expect(compiled.value(of: rotation, at: time(7, 4)) == .number(360))
        #expect(try compiled.steadyState().cycles[rotation] == Cycle(start: time(3, 2), period: time(3, 2)))
    }

    @Test func aFiniteSegmentDelaysTheCycleToTheNextCopyBoundary() throws {
        // A slow quarter turn over 2 s beside the endless spin: the spin's copies (later starts) win
        // while they run, but the cycle starts at the first copy boundary at or after 2 s: 3 s.
        let slow = try Scene.tween(rotation, from: 0, to: 90, duration: time(2))
        let state = try #require(try spin().alongside(slow).compile()).steadyState()
        #expect(state.cycles[rotation] == Cycle(start: time(3), period: time(3, 2)))
    }

    @Test func twoPeriodsOnOnePropertyAreAProblem() throws {
        let other = try Scene.tween(rotation, from: 0, to: 90, duration: time(1)).repeatedForever()
        let compiled = try #require(try spin().alongside(other).compile())
        #expect(throws: SteadyStateProblem.mixedPeriods(rotation, [time(1), time(3, 2)])) { try compiled.steadyState() }
    }

    @Test func eventsRepeatWithTheCommonMultipleOfTheirPeriods() throws {
        let lap = try Scene.event("lap").then(try Scene.wait(time(3, 2))).repeatedForever()
        let tick = try Scene.event("tick").then(try Scene.wait(time(1))).repeatedForever()
        let once = Scene.event("start")
        let compiled = try #require(try lap.alongside(tick).alongside(once).compile())
        let state = try compiled.steadyState()
        #expect(state.eventCycle == Cycle(start: .zero, period: time(3)))
        // Listed in the unrolled scene: laps at 0, 1.5, 3; ticks at 0, 1, 2, 3; the start at 0.
        let events = try #require(state.unrolled.allEvents()).filter { !(Instant(time(3)) < $0.time) }
        #expect(events.map(\.name) == ["lap", "start", "tick", "tick", "lap", "tick", "lap", "tick"])
    }

    @Test func commonMultiples() {
        #expect(Time.commonMultiple(of: [time(3, 2), time(1)]) == time(3))
        #expect(Time.commonMultiple(of: [time(1, 3), time(1, 2)]) == time(1))
        #expect(Time.commonMultiple(of: [time(1, 10), time(3, 20)]) == time(3, 10))
        #expect(Time.commonMultiple(of: [time(2)]) == time(2))
        #expect(Time.commonMultiple(of: []) == nil)
        #expect(Time.commonMultiple(of: [time(1), .zero]) == nil)
        #expect(Time.commonMultiple(of: [time(Int64.max - 1), time(Int64.max - 2)]) == nil)
    }

    @Test func aFiniteSceneIsAllPrefix() throws {
        let compiled = try #require(try Scene.tween(opacity, from: 0, to: 1).compile())
        let state = try compiled.steadyState()
        #expect(state.cycles.isEmpty && state.eventCycle == nil && state.settled == time(1) && state.unrolled === compiled)
    }
}

private func + (lhs: Time, rhs: Time) -> Time {
    (try? lhs.adding(rhs)) ?? .zero
}
