import Testing
@testable import Animations

/// `played` and fractional repeats through the library's API (docs/semantics.md §8.5),
/// against values worked out by hand.
struct PlayedAPITests {
    let x = Property(view: "a", name: "x")

    /// 0 → 100 over 2 s, played [0.5, 1.5]: 25 + 50·t; 1 s long.
    @Test func sceneCutsATween() throws {
        let slide = try Scene.tween(x, from: 0, to: 100, duration: Time(2))
        let half = Time(numerator: 1, denominator: 2) ?? .one
        let part = try slide.played(from: half, to: Time(numerator: 3, denominator: 2))
        #expect(part.duration == Time(1))
        let compiled = try #require(try part.compile())
        #expect(compiled.value(of: x, at: .zero) == .number(25))
        #expect(compiled.value(of: x, at: half) == .number(50))
        #expect(compiled.value(of: x, at: Time(1)) == .number(75))
        // `x played from 0 to |x|` is x itself.
        #expect(try slide.played(from: .zero, to: Time(2)).term === slide.term)
        // Errors: the end before the start, a negative start, an endless x without an end.
        #expect(throws: AnimationError.self) { try slide.played(from: Time(2), to: Time(1)) }
        #expect(throws: AnimationError.self) { try slide.played(from: Time(-1), to: Time(1)) }
        #expect(throws: AnimationError.self) { try slide.repeatedForever().played(from: Time(1)) }
    }

    /// `x ^ 2.5` is `(x ^ 3) played to 2.5·|x|`: at 2.25 s a quarter into copy 2, 25.
    @Test func fractionalRepeat() throws {
        let step = try Scene.tween(x, from: 0, to: 100, duration: Time(1))
        let repeated = try step.repeated(exactly: Time(numerator: 5, denominator: 2) ?? .one)
        #expect(repeated.duration == Time(numerator: 5, denominator: 2))
        let compiled = try #require(try repeated.compile())
        #expect(compiled.value(of: x, at: Time(numerator: 9, denominator: 4) ?? .one) == .number(25))
        // A whole count is `repeated(_:)`.
        #expect(try step.repeated(exactly: Time(3)).duration == Time(3))
    }

    /// The talk-style API: a read at t reads the animation at start + t.
    @Test func animationPlayed() {
        let slide = linear(from: 0.0, to: 100.0, in: 2.0)
        let middle = slide.played(from: 0.5, to: 1.5)
        #expect(middle.duration == 1)
        #expect(middle.value(0) == 25)
        #expect(middle.value(0.5) == 50)
        #expect(middle.value(1) == 75)
        // Past the end, the end value holds.
        let tail = slide.played(from: 1.5, to: 3)
        #expect(tail.duration == 1.5)
        #expect(tail.value(1) == 100)
    }
    /// A cut segment's rank before a warp's window stays before it (law tests, seed 14: a warped
    /// `^ 2` sampled listed and symbolic disagreed). `P = (a.x 0 → 10 in 2s) played from 1s to 2s`
    /// plays [0, 1] and ranks from −1 (docs/semantics.md §8.5: the start it had in x, shifted by −T1);
    /// `Q = a.x 100 → 200 in 1s` starts at 0. In `(P || Q || wait 2s) with ease-in-quad` (D = 2,
    /// segments not spanning [0, D]: a warp) the state at t is the operand's at u = 2·(t/2)²
    /// (docs/semantics.md §3). At t = 1, u = 0.5: P shows x's value at 1.5 s, 10·(1.5/2) = 7.5, Q shows 150, and
    /// Q wins: it starts at 0, later than P's rank −1 (docs/semantics.md §4 rule 1). So 150, not the mean 78.75 a
    /// rank clamped to the window's start (a tie at 0) would give. Listed or symbolic, inside
    /// `^ 2`, the same: at t = 1 (u = 4·(1/4)² = 0.25 of copy 1) Q shows 125.
    @Test func aCutRankBeforeAWarpStaysBeforeIt() throws {
        let p = Term.part(.tween(x, 0, 10, Time(2), .linear), Time(1), Time(2))
        let q = Term.tween(x, 100, 200, Time(1), .linear)
        let body = Term.par(.par(p, q), .waiting(Time(2)))
        let warped = try #require(try Term.eased(body, .penner(.quad, .in)).scene().compile())
        #expect(warped.value(of: x, at: Time(1)) == .number(150))
        let twice = try Term.eased(.pow(body, 2), .penner(.quad, .in)).scene()
        for limit in [Scene.materializeLimit, 1] {
            let compiled = try #require(try twice.compile(materializeLimit: limit))
            #expect(compiled.value(of: x, at: Time(1)) == .number(125), "materialize limit \(limit)")
        }
    }
}
