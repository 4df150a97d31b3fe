import Testing
@testable import Animations

/// The compact representations of issue 23: a tween stored in its term, a
/// segment that reads its property from its tween leaf, evaluation that
/// reads leaves in place, a track that skips sorting what arrives sorted.
struct CompactTermTests {
    let x = Property(view: "box", name: "x")
    let y = Property(view: "card", name: "y")

    private func tween(_ property: Property, _ from: Double, _ to: Double, easing: Easing = .linear) throws -> Term {
        Term.tween(try Tween(property: property, from: .number(from), to: .number(to), easing: easing, duration: Time(1)))
    }

    /// A sequence's duration is the exact sum of its parts' (kept over a
    /// common denominator while the parts' divide it, reduced once): the
    /// same as adding them one by one, whatever the denominators, and an
    /// overflow is the one adding them throws.
    @Test func sequenceDurationIsTheExactSum() throws {
        func wait(_ n: Int64, _ d: Int64) throws -> Term { try Term.wait(try #require(Time(numerator: n, denominator: d))) }
        let lists: [[(Int64, Int64)]] = [
            Array(repeating: (1, 10), count: 25), [(1, 3), (1, 6), (1, 2), (2, 7), (5, 1), (0, 1), (1, 10), (3, 10)],
            [(7, 1), (1, 4), (1, 2), (3, 8), (1, 1_000_000_007), (2, 1_000_000_007), (1, 5)],
            [(1 << 58, 1), (1 << 58, 1), (1, 2), (1, 3)], [(1, 1 << 40), (1, 3), (1, 1 << 40), (5, 1 << 41)],
        ]
        for list in lists {
            var expected = Time.zero
            for (n, d) in list { expected = try expected.adding(try #require(Time(numerator: n, denominator: d))) }
            let term = try Term.sequence(try list.map { try wait($0.0, $0.1) })
            #expect(term.duration == expected)
        }
        // Past `Int64.max`: the overflow adding them throws, at the part where the total stops fitting.
        let big = try wait(Int64.max / 2, 1)
        let parts = [big, big, try wait(1, 3), big]
        var total = Time.zero
        var expectedError: AnimationError?
        do {
            for part in parts { total = try total.adding(try #require(part.duration)) }
        } catch let error as AnimationError {
            expectedError = error
        }
        let thrown = try #require(expectedError)
        #expect(throws: thrown) { try Term.sequence(parts) }
        // A cancelled part makes no duration, and the total still overflows as the parts are added.
        #expect(throws: thrown) { try Term.sequence([big, Term.zero, big, try wait(1, 3), big]) }
        #expect(try Term.sequence([try wait(2, 1), Term.zero, try wait(1, 3)]).duration == nil)
        // An endless part ends the sum: nothing after it is added.
        let endless = Term.forever(try wait(1, 1))
        #expect(try Term.sequence([big, endless, big, big, big]).duration == nil)
    }

    /// `evaluate` is the fold into scenes: the same scenes, a chain reused
    /// as it is, and only composite nodes in the memo.
    @Test func evaluateIsTheFold() throws {
        let a = try tween(x, 0, 1), b = try tween(y, 1, 0), c = try tween(x, 1, 2)
        let chain = try Term.sequence([a, b, c])
        var memo = EvaluationMemo()
        let scene = chain.evaluate(memo: &memo) { _, _ in Issue.record("nothing fails") }
        #expect(scene?.term === chain)
        #expect(memo.count == 1)
        // A leaf is its own scene.
        #expect(a.evaluate(memo: &memo) { _, _ in }?.term === a)
        // Shared parts, `one` (not reusable) and a composite inside.
        let shared = Term.parallel([a, try Term.sequence([a, .one, b])])
        let mixed = try Term.sequence([shared, Term.reversed(shared), c, .one])
        let evaluated = try #require(mixed.evaluate(memo: &memo) { _, _ in Issue.record("nothing fails") })
        let folded = try mixed.fold(into: Scene.self)
        #expect(evaluated.duration == folded.duration)
        let times = (0...16).map { Time(numerator: Int64($0), denominator: 2) ?? .zero }
        let left = try #require(try evaluated.compile()), right = try #require(try folded.compile())
        for t in times {
            #expect(left.value(of: x, at: t) == right.value(of: x, at: t))
            #expect(left.value(of: y, at: t) == right.value(of: y, at: t))
        }
        #expect(left.segments == right.segments)
    }

    /// A failing operation is reported once, where it is; what contains it fails quietly.
    @Test func evaluateReportsTheFailingSubterm() throws {
        let stretched = try Term.retimed(.one, to: Time(2))
        let term = try Term.sequence([try tween(x, 0, 1), Term.parallel([stretched, try tween(y, 0, 1)])])
        var memo = EvaluationMemo()
        var reported: [Term] = []
        let scene = term.evaluate(memo: &memo) { failed, _ in reported.append(failed) }
        #expect(scene == nil)
        #expect(reported.count == 1 && reported.first === stretched)
    }

    /// A segment reads its property from its tween leaf and keeps its own
    /// easing and ends (a relative one's resolved ends).
    @Test func segmentsReadTheirLeaf() throws {
        let eased = try Easing.easeIn(2)
        let first = try tween(x, 0, 1, easing: eased)
        let second = Term.tween(try Tween(property: x, by: .number(5)))
        let third = try tween(y, 3, 4)
        let compiled = try #require(try Scene(root: Term.parallel([try Term.sequence([first, second]), third])).compile())
        let segments = compiled.segments
        #expect(segments.map(\.property) == [x, y, x])
        #expect(segments.map(\.leaf) == [ObjectIdentifier(first), ObjectIdentifier(third), ObjectIdentifier(second)])
        #expect(segments[0].easing == eased)
        #expect(segments[2].from == .number(1) && segments[2].to == .number(6) && segments[2].relative == .by)
        // Moved (as an exported piece): same leaf and values, another window, absolute.
        let moved = segments[2].moved(start: Instant(Time(5)), end: Instant(Time(6)))
        #expect(moved.property == x && moved.leaf == segments[2].leaf && moved.to == .number(6) && moved.relative == .absolute)
    }

    /// Segments that arrive out of order are sorted; equal ones (Σ is a set) kept once.
    @Test func tracksSortWhatArrivesOutOfOrder() throws {
        let long = Term.tween(try Tween(property: x, from: .number(0), to: .number(1), duration: Time(3)))
        let short = try tween(x, 5, 6)
        let late = try Term.sequence([try Term.wait(Time(1)), short])
        let compiled = try #require(try Scene(root: Term.parallel([late, long, late, short])).compile())
        #expect(compiled.segments.map(\.start) == [Instant(Time(0)), Instant(Time(0)), Instant(Time(1))])
        #expect(compiled.segments.map(\.end) == [Instant(Time(1)), Instant(Time(3)), Instant(Time(2))])
        #expect(compiled.value(of: x, at: Time(2)) == .number(6))
    }
}
