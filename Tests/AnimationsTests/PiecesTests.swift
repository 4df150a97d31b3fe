import Testing
@testable import Animations

/// The per-property timeline exporters read: pieces with one rule each.
struct PiecesTests {
    let x = Property(view: "a", name: "x")

    @Test func holdsAndWholeTweensAndPartialOnes() throws {
        // wait 1 ; (0 → 10 over 2 s) ; then, from 2 s, an override 50 → 60 over 0.5 s (in parallel, delayed).
        let ramp = try Scene.wait(Time(1)).then(Scene.tween(x, from: 0, to: 10, duration: Time(2)))
        let override = try Scene.wait(Time(2)).then(Scene.tween(x, from: 50, to: 60, duration: Time(numerator: 1, denominator: 2) ?? .one))
        let compiled = try #require(try ramp.alongside(override).compile())
        let pieces = compiled.pieces(of: x)
        #expect(pieces.map(\.start) == [Instant(Time(0)), Instant(Time(1)), Instant(Time(2)), Instant(Time(numerator: 5, denominator: 2) ?? .zero)])
        #expect(pieces.last?.end == Instant(Time(3)))
        guard case .hold(.number(0)) = pieces[0].rule else { Issue.record("\(pieces[0].rule)"); return }
        // From 1 to 2 the ramp plays its first half: progress 0 → 0.5.
        guard case .tween(.number(0), .number(10), _, 0, 0.5) = pieces[1].rule else { Issue.record("\(pieces[1].rule)"); return }
        // From 2 to 2.5 the override (latest start) plays whole.
        guard case .tween(.number(50), .number(60), _, 0, 1) = pieces[2].rule else { Issue.record("\(pieces[2].rule)"); return }
        // From 2.5 to 3 the ramp is active again (started, not ended): progress 0.75 → 1.
        guard case .tween(.number(0), .number(10), _, 0.75, 1) = pieces[3].rule else { Issue.record("\(pieces[3].rule)"); return }
    }

    @Test func tiesAndWarpsAreSampledAndReversalsRunBackwards() throws {
        let a = try Scene.tween(x, from: 0, to: 10), b = try Scene.tween(x, from: 0, to: 20)
        let tie = try #require(try a.alongside(b).compile())
        guard case .sampled = tie.pieces(of: x).first?.rule else { Issue.record("a tie is sampled"); return }
        let back = try #require(try a.reversed.compile())
        guard case .tween(_, _, _, 1, 0) = back.pieces(of: x).first?.rule else { Issue.record("reversed: \(String(describing: back.pieces(of: x).first?.rule))"); return }
        let warped = try #require(try a.then(b).eased(.penner(.quad, .in)).compile())
        guard case .sampled = warped.pieces(of: x).first?.rule else { Issue.record("a warp is sampled"); return }
    }
}

/// Where a property's segments start and end, copies of repetitions included.
struct BreakpointsTests {
    let x = Property(view: "a", name: "x")

    @Test func listedSegmentsAndEveryCopyOfARepetition() throws {
        // wait 0.5 ; (x: 0 → 1 over 1 s) repeated forever: copies start at 0.5, 1.5, 2.5, …
        let turn = try Scene.tween(x, from: 0, to: 1)
        let endless = try #require(try Scene.wait(Time(numerator: 1, denominator: 2) ?? .zero).then(turn.repeatedForever()).compile())
        let through = try #require(endless.breakpoints(of: x, through: Instant(Time(3))))
        #expect(through.map(\.seconds) == [0.5, 1.5, 2.5])
        // Listed segments: starts and ends, sorted and distinct, cut at the end asked for.
        let listed = try #require(try turn.then(turn).alongside(Scene.wait(Time(5))).compile())
        #expect(listed.breakpoints(of: x, through: Instant(Time(5)))?.map(\.seconds) == [0, 1, 2])
        #expect(listed.breakpoints(of: x, through: Instant(Time(1)))?.map(\.seconds) == [0, 1])
        #expect(listed.breakpoints(of: Property(view: "b", name: "x"), through: Instant(Time(5))) == [])
    }

    @Test func tooManyCopiesAreNotListed() throws {
        let blink = try #require(try Scene.tween(x, from: 0, to: 1).repeated(1_000_000_000).compile())
        #expect(!blink.blocks.isEmpty)
        #expect(blink.breakpoints(of: x, through: Instant(blink.duration), limit: 1000) == nil)
        // The first few copies, up to a time, are few enough.
        #expect(blink.breakpoints(of: x, through: Instant(Time(3)), limit: 1000)?.map(\.seconds) == [0, 1, 2, 3])
    }
}
