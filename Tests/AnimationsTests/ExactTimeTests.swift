import Testing
@testable import Animations

/// Exact time's arithmetic (64-bit fast path, 128-bit exact path) against a
/// reference written here from the definition: the rational a/b ∘ c/d in
/// 128 bits, reduced by Euclid, and `nil` (the operation throws) exactly
/// when the reduced result has no 64-bit numerator above Int64.min and
/// 64-bit denominator. Operands range from tiny to the edges of Int64.
struct ExactTimeTests {
    /// The reduced rational n/d, or nil when it does not fit a `Time`.
    static func reference(_ n: Int128, _ d: Int128) -> (Int64, Int64)? {
        guard d != 0 else { return nil }
        if n == 0 { return (0, 1) }
        var a = n.magnitude, b = d.magnitude
        while b != 0 { (a, b) = (b, a % b) }
        let sign: Int128 = (n < 0) != (d < 0) ? -1 : 1
        let num = sign * Int128(n.magnitude / a), den = Int128(d.magnitude / a)
        guard let small = Int64(exactly: num), small != .min, let smallDen = Int64(exactly: den) else { return nil }
        return (small, smallDen)
    }

    /// Deterministic operands: small fractions, powers of ten, and values near the limits.
    static func operands(seed: UInt64) -> [Time] {
        var state = seed &* 0x9E3779B97F4A7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        let edges: [Int64] = [1, 2, 3, 7, 10, 1000, 1 << 31, 1 << 32 + 1, Int64.max / 3, Int64.max - 1, Int64.max]
        var times: [Time] = []
        while times.count < 40 {
            let pick = next() % 3
            let numerator: Int64, denominator: Int64
            switch pick {
            case 0:
                numerator = Int64(next() % 2001) - 1000
                denominator = Int64(next() % 1000) + 1
            case 1:
                numerator = edges[Int(next() % UInt64(edges.count))] * (next() % 2 == 0 ? 1 : -1)
                denominator = edges[Int(next() % UInt64(edges.count))]
            default:
                numerator = Int64(bitPattern: next()) / Int64(1 << (next() % 63))
                denominator = max(1, Int64(next() >> (next() % 64)) & Int64.max)
            }
            if let time = Time(numerator: numerator, denominator: denominator) { times.append(time) }
        }
        return times
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func arithmeticIsTheReducedRational(seed: UInt64) {
        let times = Self.operands(seed: seed)
        for a in times {
            for b in times {
                let (an, ad, bn, bd) = (Int128(a.numerator), Int128(a.denominator), Int128(b.numerator), Int128(b.denominator))
                func check(_ result: Time?, _ expected: (Int64, Int64)?, _ what: String) {
                    #expect(result.map { ($0.numerator, $0.denominator) } ?? (0, 0) == expected ?? (0, 0), "\(a) \(what) \(b)")
                    #expect((result == nil) == (expected == nil), "\(a) \(what) \(b)")
                }
                check(try? a.adding(b), Self.reference(an * bd + bn * ad, ad * bd), "+")
                check(try? a.subtracting(b), b.numerator == .min ? nil : Self.reference(an * bd - bn * ad, ad * bd), "-")
                check(try? a.multiplied(by: b), Self.reference(an * bn, ad * bd), "×")
                check(try? a.divided(by: b), Self.reference(an * bd, ad * bn), "÷")
                check(try? a.multiplied(by: b.numerator), Self.reference(an * bn, ad), "× count")
            }
        }
    }

    /// Pairs whose denominators share factors, as the fast paths of `+`
    /// see them: equal, one dividing the other, a common factor, integers,
    /// coprime — with numerators small and near the limits of Int64.
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func sumsOfRelatedDenominatorsAreTheReducedRational(seed: UInt64) {
        var state = seed &* 0x9E3779B97F4A7C15 | 1
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        let bases: [Int64] = [1, 2, 3, 5, 6, 10, 12, 1000, 1 << 31, 3_000_000_019, Int64.max / 2, Int64.max]
        func numerator() -> Int64 {
            switch next() % 4 {
            case 0: return Int64(next() % 41) - 20
            case 1: return (next() % 2 == 0 ? 1 : -1) * (Int64.max - Int64(next() % 8))
            case 2: return Int64(bitPattern: next()) >> (next() % 64)
            default: return Int64(bitPattern: next()) / 7 + Int64(next() % 3)
            }
        }
        func factor() -> Int64 { [1, 1, 2, 3, 4, 5, 7, 10, 1 << 20][Int(next() % 9)] }
        var checked = 0
        for _ in 0..<4000 {
            let base = bases[Int(next() % UInt64(bases.count))]
            let (fa, fb) = (factor(), factor())
            // Denominators base·fa and base·fb (equal, dividing, sharing base), or unrelated.
            let (ad, o1) = base.multipliedReportingOverflow(by: fa)
            let (bd, o2) = next() % 5 == 0 ? (Int64(next() % 1000) + 1, false) : base.multipliedReportingOverflow(by: fb)
            if o1 || o2 { continue }
            guard let a = Time(numerator: numerator(), denominator: ad),
                  let b = Time(numerator: numerator(), denominator: bd) else { continue }
            let (an, adw, bn, bdw) = (Int128(a.numerator), Int128(a.denominator), Int128(b.numerator), Int128(b.denominator))
            for (x, y, expected) in [(a, b, Self.reference(an * bdw + bn * adw, adw * bdw)),
                                     (b, a, Self.reference(an * bdw + bn * adw, adw * bdw)),
                                     (a, a, Self.reference(2 * an, adw))] {
                let sum = try? x.adding(y)
                #expect(sum.map { ($0.numerator, $0.denominator) } ?? (0, 0) == expected ?? (0, 0), "\(x) + \(y)")
                #expect((sum == nil) == (expected == nil), "\(x) + \(y)")
            }
            checked += 1
        }
        #expect(checked > 1000)
    }

    @Test func smallCasesByHand() throws {
        let tenth = try #require(Time(numerator: 1, denominator: 10))
        let fifth = try #require(Time(numerator: 1, denominator: 5))
        #expect(try tenth.adding(fifth) == Time(numerator: 3, denominator: 10))
        #expect(try tenth.adding(tenth) == fifth)
        #expect(try fifth.divided(by: tenth) == Time(2))
        #expect(try tenth.multiplied(by: fifth) == Time(numerator: 1, denominator: 50))
        #expect(try tenth.divided(by: Time(numerator: -1, denominator: 3)!) == Time(numerator: -3, denominator: 10))
        #expect(throws: AnimationError.self) { try Time(Int64.max).adding(Time(1)) }
        #expect(throws: AnimationError.self) { try tenth.divided(by: .zero) }
        // A numerator of Int64.min is never a time: the fast path defers, the exact one refuses.
        #expect(throws: AnimationError.self) { try Time(Int64.min / 2).adding(Time(Int64.min / 2)) }
        #expect(try Time(Int64.min / 2).subtracting(Time(Int64.max / 2)) == Time(-Int64.max))
    }
}
