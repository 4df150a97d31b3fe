import Testing
@testable import Animations

/// The free semiring, `intervals`, symbolic repetition and the errors of the
/// library's API.
struct AlgebraAPITests {
    let x = Property(view: "a", name: "x")
    let y = Property(view: "a", name: "y")

    func fragment(_ name: String, _ seconds: Int64) -> FreeSemiring<SceneFragment> {
        .leaf(SceneFragment(name: name, duration: Time(seconds)))
    }

    @Test func intervalsPlaceEveryNamedLeaf() throws {
        // fade ; (left || (wait ; right)): left and right start after fade,
        // right after a further second.
        let term = fragment("fade", 1) * (fragment("left", 2) + (fragment("pause", 1) * fragment("right", 2)))
        let placed = try intervals(term)
        #expect(placed.map(\.name) == ["fade", "left", "pause", "right"])
        #expect(placed.map(\.start) == [Time(0), Time(1), Time(1), Time(2)])
        #expect(placed.map(\.end) == [Time(1), Time(3), Time(2), Time(4)])
    }

    @Test func intervalsDropCancelledSequencesAndIgnoreOne() throws {
        let term = (fragment("gone", 1) * .zero) + (FreeSemiring.one * fragment("kept", 2))
        let placed = try intervals(term)
        #expect(placed.map(\.name) == ["kept"])
        #expect(placed.first?.start == Time(0))
    }

    @Test func foldIsTheUniquePathIntoAnySemiring() throws {
        // The universal property, on generated terms: folding a free term into
        // Scene gives the scene built directly, and folding into max-plus gives
        // its duration (duration is itself a homomorphism).
        var random = SplitMix64(seed: 99)
        let leaves: [(String, Scene)] = try [
            ("grow", Scene.tween(x, from: 0, to: 1, duration: Time(2))),
            ("fade", Scene.tween(y, from: 1, to: 0)),
            ("pause", Scene.wait(Time(numerator: 1, denominator: 2) ?? .one)),
        ]
        func term(_ depth: Int) -> (FreeSemiring<Int>, Scene) {
            if depth == 0 || random.chance(30) {
                switch random.below(6) {
                case 0: return (.zero, .zero)
                case 1: return (.one, .one)
                default:
                    let index = random.below(leaves.count)
                    return (.leaf(index), leaves[index].1)
                }
            }
            let (a, sa) = term(depth - 1), (b, sb) = term(depth - 1)
            return random.chance(50) ? (a + b, sa + sb) : (a * b, sa * sb)
        }
        for _ in 0..<200 {
            let (free, direct) = term(4)
            let folded: Scene = free.fold { leaves[$0].1 }
            #expect(folded.duration == direct.duration)
            if let duration = direct.duration {
                let times = sampleTimes(upTo: duration)
                #expect(try SampledTable(folded, at: times) == SampledTable(direct, at: times))
            }
            let maxPlus: MaxPlusDuration = free.fold { MaxPlusDuration(leaves[$0].1.duration) }
            #expect(maxPlus == MaxPlusDuration(direct.duration))
        }
    }

    @Test func foldHandlesDeepTerms() {
        // fold itself uses no recursion; the term's own deallocation (Swift's,
        // for an indirect enum) does, which bounds this depth in debug builds.
        var term: FreeSemiring<Int> = .leaf(0)
        for _ in 0..<10_000 { term = term * .leaf(1) }
        let total: MaxPlusDuration = term.fold { _ in MaxPlusDuration(Time(1)) }
        #expect(total == MaxPlusDuration(Time(10_001)))
    }

    @Test func deeplyNestedScenesBuildSampleAndFree() throws {
        // A Swift loop nests one level per step: 100,000 levels, left-nested.
        var scene = Scene.one
        let step = try Scene.tween(x, from: 0, to: 1, duration: Time(numerator: 1, denominator: 4) ?? .one)
        for _ in 0..<100_000 { scene = try scene.then(step).alongside(.zero) }
        #expect(scene.duration == Time(25_000))
        let compiled = try #require(try scene.compile())
        #expect(compiled.segmentCount == 100_000)
        #expect(compiled.value(of: x, at: Time(decimal: "12345.125") ?? .zero) == 0.5)
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
            #expect(compiled.value(of: x, at: t) == expected, "at \(t)")
        }
        // Reversed, retimed and nested, still exact.
        let nested = try forever.reversed.retimed(to: Time(2_000_000_000)).repeated(3)
        let compiledNested = try #require(try nested.compile())
        #expect(compiledNested.value(of: x, at: Time(decimal: "4000000000.5") ?? .zero) == 0.5)
    }

    @Test func badArgumentsThrow() throws {
        #expect(throws: AnimationError.negativeDuration("-1")) { try Scene.wait(Time(-1)) }
        #expect(throws: AnimationError.self) { try Scene.tween(x, from: .nan, to: 1) }
        #expect(throws: AnimationError.self) { try Scene.tween(x, from: 0, to: .infinity) }
        #expect(throws: AnimationError.negativeCount(-1)) { try Scene.one.repeated(-1) }
        #expect(throws: AnimationError.negativeCount(-2)) { try Scene.one.looped(-2) }
        let composite = try Scene.tween(x, from: 0, to: 1).then(Scene.tween(y, from: 0, to: 1))
        #expect(throws: AnimationError.nonMonotoneWarp("ease-out-back")) { try composite.eased(.penner(.back, .out)) }
        #expect(throws: AnimationError.retimeOfInstant("2")) { try Scene.one.retimed(to: Time(2)) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(1.5, 0, 1, 1) }
        #expect(throws: AnimationError.self) { try Animation.linear(from: 0, to: 1, in: -1) }
        #expect(throws: AnimationError.self) { try Animation.linear(from: 0, to: 1, in: .nan) }
        // A single tween may take an overshooting curve: it is composed into the tween.
        let single = try Scene.tween(x, from: 0, to: 1).eased(.penner(.back, .out))
        let compiled = try #require(try single.compile())
        #expect((compiled.value(of: x, at: Time(decimal: "0.5") ?? .zero) ?? 0) > 1)
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
