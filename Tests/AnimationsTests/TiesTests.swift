import Testing
@testable import Animations

/// ``CompiledScene/ties()``: where distinct segments win together by docs/semantics.md §4's
/// rule with values that disagree, so a property shows their mean.
struct TiesTests {
    static let x = Property(view: "a", name: "x")

    static func tween(_ from: Double, _ to: Double, _ duration: Time = Time(1), _ easing: Easing = .linear) -> Term {
        .tween(x, from, to, duration, easing)
    }

    static func ties(_ term: Term) throws -> [Tie] {
        try term.scene().compile()?.ties() ?? []
    }

    static func half(_ n: Int64) -> Time { Time(numerator: n, denominator: 2) ?? .zero }

    @Test func tweensThatStartTogetherAndDisagreeTie() throws {
        let ties = try Self.ties(.par(Self.tween(0, 100), Self.tween(0, -100)))
        #expect(ties.count == 1)
        let tie = try #require(ties.first)
        #expect(tie.property == Self.x && tie.isPlaying && tie.segments.count == 2)
        #expect(tie.start == Instant(.zero) && tie.end == Instant(Time(1)))
    }

    @Test func theStretchEndsWhereOneOfThemStopsWinning() throws {
        // 0 → 100 over 2 s against 0 → 10 over 0.5 s: they tie on (0, 0.5) only.
        let tie = try #require(try Self.ties(.par(Self.tween(0, 100, Time(2)), Self.tween(0, 10, Self.half(1)))).first)
        #expect(tie.start == Instant(.zero) && tie.end == Instant(Self.half(1)))
    }

    @Test func aTermDoesNotTieWithItself() throws {
        let body = Self.tween(0, 100, Time(1), .cssEaseInOut)
        #expect(try Self.ties(.par(body, body)).isEmpty)
    }

    @Test func aLaterStartTakesOverWithoutATie() throws {
        #expect(try Self.ties(.par(Self.tween(0, 100, Time(2)), .seq(.waiting(Time(1)), Self.tween(50, 0)))).isEmpty)
    }

    @Test func valuesThatAgreeDoNotCount() throws {
        // 50·t both ways: distinct segments, one curve.
        #expect(try Self.ties(.par(Self.tween(0, 100, Time(2)), Self.tween(0, 50))).isEmpty)
    }

    @Test func jumpsAtOneInstantTieWhileTheyHold() throws {
        let jumps = Term.par(Self.tween(5, 5, .zero), Self.tween(7, 7, .zero))
        let tie = try #require(try Self.ties(.seq(jumps, .waiting(Time(1)))).first)
        #expect(!tie.isPlaying && tie.segments.count == 2)
        #expect(tie.start == Instant(.zero) && tie.end == Instant(Time(1)))
    }

    @Test func aTieInsideASymbolicRepetitionShowsInItsFirstCopy() throws {
        let body = Term.par(Self.tween(0, 1), Self.tween(1, 0, Time(1), .cssEaseIn))
        let compiled = try #require(try Term.pow(body, 1_000_000).scene().compile())
        #expect(!compiled.blocks.isEmpty)
        let tie = try #require(compiled.ties().first)
        #expect(tie.start == Instant(.zero) && tie.end == Instant(Time(1)) && tie.segments.count == 2 && tie.isPlaying)
    }

    // MARK: Generated terms

    /// At the instant a tie names, the property shows the mean of its
    /// segments' distinct values (docs/semantics.md §4), and those values disagree.
    @Test(arguments: LawTests.seeds)
    func aTieShowsTheMeanOfItsSegments(seed: UInt64) throws {
        var generator = TermGenerator(seed: seed)
        var checked = 0
        for _ in 0..<40 {
            let term = generator.term()
            guard let compiled = try? term.scene().compile(), compiled.blocks.isEmpty else { continue }
            for tie in compiled.ties() where !tie.segments.isEmpty {
                checked += 1
                let values = tie.segments.map { tie.isPlaying ? $0.activeValue(at: tie.at) : $0.endValue }
                guard let head = values.first else { continue }   // a listed tie has segments
                var distinct = DistinctValues(head)
                for value in values.dropFirst() { distinct.insert(value) }
                #expect(distinct.disagree, "\(term)")
                #expect(compiled.value(of: tie.property, at: tie.at) == distinct.mean, "\(term)")
            }
        }
        #expect(checked > 0, "the generator made no tie to check")
    }

    /// `x || x` is `x` (idempotence), ties included.
    @Test(arguments: LawTests.seeds)
    func parallelWithItselfKeepsTheTies(seed: UInt64) throws {
        var generator = TermGenerator(seed: seed)
        for _ in 0..<40 {
            let term = generator.term()
            guard let single = try? Self.ties(term), let double = try? Self.ties(.par(term, term)) else { continue }
            func summary(_ ties: [Tie]) -> [String] { ties.map { "\($0.property) \($0.start) \($0.end) \($0.isPlaying)" } }
            #expect(summary(single) == summary(double), "\(term)")
        }
    }

    /// Every tie the rule makes is found: wherever, at instants off every
    /// breakpoint, the winners read off docs/semantics.md §4 directly (latest start among the
    /// active, else latest end, then latest start, among the finished)
    /// disagree, `ties()` lists the property.
    @Test(arguments: LawTests.seeds)
    func everyTieIsFound(seed: UInt64) throws {
        var generator = TermGenerator(seed: seed)
        var seen = 0
        for _ in 0..<40 {
            let term = generator.term()
            guard let compiled = try? term.scene().compile(), compiled.blocks.isEmpty else { continue }
            let found = Set(compiled.ties().map(\.property))
            let segments = compiled.segments
            for step in 0..<64 {
                // Denominators of 101 miss every breakpoint the generator makes.
                guard let time = Time(numerator: Int64(step) * 17 + 3, denominator: 101), time < compiled.duration else { continue }
                let t = Instant(time)
                for property in compiled.properties {
                    let mine = segments.filter { $0.property == property }
                    let active = mine.filter { $0.start <= t && t <= $0.end }
                    var winners: [Value]
                    if let latest = active.map(\.start).max() {
                        winners = active.filter { $0.start == latest }.map { $0.activeValue(at: t) }
                    } else {
                        let finished = mine.filter { $0.end < t }
                        guard let end = finished.map(\.end).max() else { continue }
                        let last = finished.filter { $0.end == end }
                        let start = last.map(\.start).max()
                        winners = last.filter { $0.start == start }.map(\.endValue)
                    }
                    guard let head = winners.first else { continue }   // a latest start or end has its segments
                    var distinct = DistinctValues(head)
                    for value in winners.dropFirst() { distinct.insert(value) }
                    if distinct.disagree {
                        seen += 1
                        #expect(found.contains(property), "\(property) at \(time) in \(term)")
                    }
                }
            }
        }
        #expect(seen > 0, "the generator made no tie to find")
    }

    /// With one leaf per property, of positive length and no warp, nothing can tie.
    @Test(arguments: LawTests.seeds)
    func oneTweenPerPropertyNeverTies(seed: UInt64) throws {
        var generator = TermGenerator(seed: seed)
        for _ in 0..<40 {
            var counter = 0
            let term = generator.term().mappingTweens { tween in
                counter += 1
                return tween.with(property: Property(view: "v\(counter)", name: tween.property.name),
                                  duration: tween.duration.isZero ? Time(1) : tween.duration)
            }
            guard !term.hasWarp, let ties = try? Self.ties(term) else { continue }
            #expect(ties.isEmpty, "\(term)")
        }
    }
}
