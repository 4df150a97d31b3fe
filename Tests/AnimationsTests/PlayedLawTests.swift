import Testing
@testable import Animations

/// The laws of `played` (docs/semantics.md §8.5), checked as bit-for-bit equal
/// sampled tables on generated terms (the generator writes `played` and
/// fractional powers too, so every law of ``LawTests`` also runs over them).
struct PlayedLawTests {
    static let seeds: [UInt64] = [10, 11, 12, 1, 2, 13, 14, 15]

    /// `x played from 0 to |x| = x`, for `x` without relative tweens.
    @Test(arguments: seeds)
    func wholePartIsItself(seed: UInt64) throws {
        try LawTests().checkLaw("x played from 0 to |x| = x", seed: seed,
                                lhs: { x, _, _ in x.hasRelativeTweens ? x : .part(x, .zero, x.duration ?? .zero) },
                                rhs: { x, _, _ in x })
    }

    /// `(x played from a to b) played from c to d = x played from a + c to a + d`, `0 ≤ c ≤ d ≤ b − a`.
    @Test(arguments: seeds)
    func partOfAPart(seed: UInt64) throws {
        var random = SplitMix64(seed: seed ^ 0x5eed)
        var cases: [(Time, Time, Time, Time)] = []
        for _ in 0..<LawTests.casesPerSeed {
            let quarter = { (n: Int) in Time(numerator: Int64(n), denominator: 4) ?? .zero }
            let a = quarter(random.below(8)), length = quarter(random.below(12))
            let c = quarter(random.below(max(1, 4 * 3))), d = quarter(random.below(12))
            cases.append((a, (try? a.adding(length)) ?? a, min(c, d), max(c, d)))
        }
        var index = 0
        func next() -> (Time, Time, Time, Time) {
            defer { index += 1 }
            let (a, b, c, d) = cases[index % cases.count]
            // Keep 0 ≤ c ≤ d ≤ b − a.
            let room = (try? b.subtracting(a)) ?? .zero
            return (a, b, min(c, room), min(d, room))
        }
        var parts: [(Time, Time, Time, Time)] = []
        for _ in 0..<(LawTests.casesPerSeed * 2) { parts.append(next()) }
        var k = 0
        try LawTests().checkLaw("(x played a..b) played c..d = x played a+c..a+d", seed: seed,
                                lhs: { x, _, _ in
                                    let (a, b, c, d) = parts[k % parts.count]
                                    return .part(.part(x, a, b), c, d)
                                },
                                rhs: { x, _, _ in
                                    defer { k += 1 }
                                    let (a, _, c, d) = parts[k % parts.count]
                                    return .part(x, (try? a.adding(c)) ?? a, (try? a.adding(d)) ?? a)
                                })
    }

    /// Duration `T2 − T1`: the max-plus homomorphism.
    @Test(arguments: seeds)
    func durationIsTheLength(seed: UInt64) throws {
        var generator = LawTests.generator(seed)
        for _ in 0..<LawTests.casesPerSeed {
            let x = generator.term(depth: 3)
            let part = generator.playedPart(x)
            guard case .played(_, let a, let b) = part.kind, let scene = try? part.scene() else { continue }
            if x.duration == nil { #expect(scene.isCancelled); continue }
            #expect(scene.duration == (try? b.subtracting(a)) || scene.isCancelled)
        }
    }
}
