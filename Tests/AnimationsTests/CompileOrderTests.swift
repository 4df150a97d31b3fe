import Testing
@testable import Animations

/// The compiler visits a deep first part of `;`/`||` last (so a chain nested
/// to the left takes no work list), then puts what it placed back in the
/// order of a walk in order: everything downstream sees the same order.
struct CompileOrderTests {
    let x = Property(view: "box", name: "x")

    /// Of two equal segments (Σ is a set), the one written first is kept,
    /// also when the first sits deeper than the second.
    @Test func equalSegmentsKeepTheFirstWritten() throws {
        let tween = try Tween(property: x, from: .number(0), to: .number(1))
        let first = Term.tween(tween), second = Term.tween(tween)
        let deep = Term.reversed(Term.reversed(first))
        let compiled = try #require(try Scene(root: Term.parallel([deep, second])).compile())
        #expect(compiled.segments.count == 1)
        #expect(compiled.segments.first?.leaf == ObjectIdentifier(first))
        let flipped = try #require(try Scene(root: Term.parallel([second, deep])).compile())
        #expect(flipped.segments.first?.leaf == ObjectIdentifier(second))
    }

    /// A chain nested to the left and the same chain nested to the right
    /// place the same segments, in the same order.
    @Test func leftAndRightChainsAgree() throws {
        var tweens: [Term] = []
        for index in 0..<200 {
            let relative = index % 3 == 0
            let tween = relative ? try Tween(property: x, by: .number(Double(index)))
                                 : try Tween(property: x, from: .number(Double(index)), to: .number(1))
            tweens.append(Term.tween(tween))
            if index % 5 == 0 { tweens.append(Term.event("e\(index % 7)")) }
        }
        var left = tweens[0]
        for tween in tweens.dropFirst() { left = try Term.sequence([left, tween]) }
        var right = tweens[tweens.count - 1]
        for tween in tweens.dropLast().reversed() { right = try Term.sequence([tween, right]) }
        let a = try #require(try Scene(root: left).compile()), b = try #require(try Scene(root: right).compile())
        #expect(a.segments == b.segments)
        #expect(a.segments.map(\.leaf) == b.segments.map(\.leaf))
        #expect(a.events.map(\.rank) == b.events.map(\.rank))
        #expect(a.events == b.events)
    }
}
