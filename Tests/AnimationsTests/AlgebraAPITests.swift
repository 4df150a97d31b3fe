import Testing
@testable import Animations

/// The free algebra (``Term``) and its folds, `intervals`, symbolic
/// repetition and the errors of the library's API.
struct AlgebraAPITests {
    let x = Property(view: "a", name: "x")
    let y = Property(view: "a", name: "y")

    func leaf(_ view: String, _ seconds: Int64) -> Term {
        .tween(Property(view: view, name: "x"), 0, 1, Time(seconds), .linear)
    }

    @Test func intervalsPlaceEveryLeaf() throws {
        // fade ; (left || (wait ; right)): left and right start after fade,
        // right after a further second.
        let term = leaf("fade", 1) * (leaf("left", 2) + (Term.waiting(Time(1)) * leaf("right", 2)))
        let placed = try intervals(term)
        #expect(placed.map(\.name) == ["fade.x", "left.x", "right.x"])
        #expect(placed.map(\.start) == [Time(0), Time(1), Time(2)])
        #expect(placed.map(\.end) == [Time(1), Time(3), Time(4)])
        // Reversed, the second half of a loop maps each interval from the end.
        let looped = try intervals(Term.looped(leaf("a", 1) * leaf("b", 2), 1))
        #expect(looped.map(\.name) == ["a.x", "b.x", "b.x", "a.x"])
        #expect(looped.map(\.start) == [Time(0), Time(1), Time(3), Time(5)])
    }

    @Test func intervalsDropCancelledSequencesAndIgnoreOne() throws {
        let term = (leaf("gone", 1) * Term.zero) + (Term.one * leaf("kept", 2))
        let placed = try intervals(term)
        #expect(placed.map(\.name) == ["kept.x"])
        #expect(placed.first?.start == Time(0))
    }

    @Test func foldIsTheUniqueMapIntoAnyAlgebra() throws {
        // The universal property, on generated terms: folding a free term into
        // Scene gives the scene built directly with Scene's operations, and
        // folding into max-plus gives its duration (a homomorphism).
        var random = SplitMix64(seed: 99)
        let leaves: [(Term, Scene)] = try [
            (.tween(x, 0, 1, Time(2), .linear), Scene.tween(x, from: 0, to: 1, duration: Time(2))),
            (.tween(y, 1, 0, Time(1), .linear), Scene.tween(y, from: 1, to: 0)),
            (.waiting(Time(numerator: 1, denominator: 2) ?? .one), Scene.wait(Time(numerator: 1, denominator: 2) ?? .one)),
        ]
        func term(_ depth: Int) throws -> (Term, Scene) {
            if depth == 0 || random.chance(30) {
                switch random.below(6) {
                case 0: return (.zero, .zero)
                case 1: return (.one, .one)
                default: return leaves[random.below(leaves.count)]
                }
            }
            let (a, sa) = try term(depth - 1), (b, sb) = try term(depth - 1)
            switch random.below(5) {
            case 0: return (a + b, sa + sb)
            case 1: return (Term.reversed(a), try sa.reversed)
            case 2: return (Term.pow(a, 2), try sa.repeated(2))
            default: return (a * b, sa * sb)
            }
        }
        for _ in 0..<200 {
            let (free, direct) = try term(4)
            let folded = try free.fold(into: Scene.self)
            #expect(folded.duration == direct.duration)
            if let duration = direct.duration {
                let times = sampleTimes(upTo: duration)
                #expect(try SampledTable(folded, at: times) == SampledTable(direct, at: times))
            }
            #expect(try free.fold(into: MaxPlusDuration.self) == MaxPlusDuration(direct.duration))
        }
    }

    @Test func foldAndReleaseHandleDeepTerms() throws {
        // Neither folding nor releasing a term recurses: 100,000 levels.
        var term = leaf("a", 1)
        for _ in 0..<100_000 { term = term * leaf("b", 1) }
        #expect(try term.fold(into: MaxPlusDuration.self) == MaxPlusDuration(Time(100_001)))
        #expect(try term.fold(into: Scene.self).duration == Time(100_001))
        term = .one
    }

    @Test func foldReportsWhereItFailed() {
        // `one in 2s` cannot be stretched: the failure names that subterm.
        let stretched = Term.retime(.one, Time(2))
        let term = leaf("a", 1) * stretched
        do {
            _ = try term.fold(into: Scene.self)
            Issue.record("expected a failure")
        } catch {
            #expect(error.term === stretched)
            #expect(error.error == .retimeOfInstant("2"))
        }
    }

    @Test func deeplyNestedScenesBuildSampleAndFree() throws {
        // A Swift loop nests one level per step: 100,000 levels, left-nested.
        var scene = Scene.one
        let step = try Scene.tween(x, from: 0, to: 1, duration: Time(numerator: 1, denominator: 4) ?? .one)
        for _ in 0..<100_000 { scene = try scene.then(step).alongside(.zero) }
        #expect(scene.duration == Time(25_000))
        let compiled = try #require(try scene.compile())
        #expect(compiled.segmentCount == 100_000)
        #expect(compiled.value(of: x, at: Time(decimal: "12345.125") ?? .zero) == .number(0.5))
        scene = .one   // releasing the deep tree must not recurse
    }

    @Test func aBillionRepetitionsStaySymbolicAndExact() throws {
        // blink: 0 → 1 over 0.5 s, then 1 → 0 over 0.5 s; a billion of them.
        let blink = try Scene.tween(x, from: 0, to: 1, duration: Time(numerator: 1, denominator: 2) ?? .one)
            .then(Scene.tween(x, from: 1, to: 0, duration: Time(numerator: 1, denominator: 2) ?? .one))
        let forever = try blink.repeated(1_000_000_000)
        #expect(forever.duration == Time(1_000_000_000))
        let compiled = try #require(try forever.compile())
        #expect(compiled.segmentCount == 0)          // nothing listed: one symbolic block
        #expect(compiled.blocks.count == 1)
        let cases: [(Time, Double)] = [
            (Time(0), 0), (Time(decimal: "0.25") ?? .zero, 0.5), (Time(decimal: "0.5") ?? .zero, 1),
            (Time(decimal: "999999999.25") ?? .zero, 0.5), (Time(decimal: "999999999.75") ?? .zero, 0.5),
            (Time(decimal: "123456789.5") ?? .zero, 1), (Time(1_000_000_000), 0),
        ]
        for (t, expected) in cases {
            #expect(compiled.value(of: x, at: t) == .number(expected), "at \(t)")
        }
        // Reversed, retimed and nested, still exact.
        let nested = try forever.reversed.retimed(to: Time(2_000_000_000)).repeated(3)
        let compiledNested = try #require(try nested.compile())
        #expect(compiledNested.value(of: x, at: Time(decimal: "4000000000.5") ?? .zero) == .number(0.5))
    }

    @Test func badArgumentsThrow() throws {
        #expect(throws: AnimationError.negativeDuration("-1")) { try Scene.wait(Time(-1)) }
        #expect(throws: AnimationError.self) { try Scene.tween(x, from: .nan, to: 1) }
        #expect(throws: AnimationError.self) { try Scene.tween(x, from: 0, to: .infinity) }
        #expect(throws: AnimationError.negativeCount(-1)) { try Scene.one.repeated(-1) }
        #expect(throws: AnimationError.negativeCount(-2)) { try Scene.one.looped(-2) }
        let composite = try Scene.tween(x, from: 0, to: 1).then(Scene.tween(y, from: 0, to: 1))
        #expect(throws: AnimationError.nonMonotoneWarp(.penner(.back, .out))) { try composite.eased(.penner(.back, .out)) }
        #expect(throws: AnimationError.retimeOfInstant("2")) { try Scene.one.retimed(to: Time(2)) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(1.5, 0, 1, 1) }
        #expect(throws: AnimationError.self) { try Animation.tween(from: 0, to: Double.infinity, in: 1) }
        #expect(throws: AnimationError.self) { try Scene.tween(x, from: .number(0), to: .color(Color(red: 0, green: 0, blue: 0))) }
        // A single tween may take an overshooting curve: it is composed into the tween.
        let single = try Scene.tween(x, from: 0, to: 1).eased(.penner(.back, .out))
        let compiled = try #require(try single.compile())
        #expect((compiled.value(of: x, at: Time(decimal: "0.5") ?? .zero)?.number ?? 0) > 1)
    }

    @Test func structuralTimeIsExact() throws {
        let a = try #require(Time(decimal: "0.1")), b = try #require(Time(decimal: "0.2"))
        #expect(try a.adding(b) == Time(decimal: "0.3"))
        #expect(try a.multiplied(by: 3) == Time(decimal: "0.3"))
        #expect(try Time(1).divided(by: Time(3)).description == "1/3")
        #expect(throws: AnimationError.self) { try Time(1).divided(by: .zero) }
    }

    @Test func exactTimeOverflowIsAnErrorNotATrap() throws {
        let long = try Scene.wait(Time(Int64.max / 2))
        #expect(throws: AnimationError.self) { try long.then(long).then(long) }
        #expect(throws: AnimationError.self) { try long.repeated(3) }
        let fine = try Scene.wait(Time(numerator: 1, denominator: 999_999_937) ?? .one)
        #expect(throws: AnimationError.self) {
            try fine.retimed(to: Time(numerator: 1, denominator: 999_999_929) ?? .one)
                .then(fine.retimed(to: Time(numerator: 1, denominator: 999_999_893) ?? .one))
                .then(fine.retimed(to: Time(numerator: 1, denominator: 999_999_883) ?? .one))
        }
    }
}
