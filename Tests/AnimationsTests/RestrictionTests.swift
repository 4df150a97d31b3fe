import Testing
@testable import Animations

/// ``Term/restrictedByView()`` (one pass, stretches without the view as one
/// wait) means what ``Term/restricted(keeping:)`` means for each view: the
/// same animation — duration, segments — as keeping that view's tweens
/// in place and dropping the rest.
struct RestrictionTests {
    @Test(arguments: LawTests.seeds)
    func restrictionByViewAgreesWithRestrictionOneViewAtATime(seed: UInt64) throws {
        var generator = TermGenerator(seed: seed)
        var compared = 0
        for index in 0..<LawTests.casesPerSeed {
            let term = generator.term(depth: 4)
            guard (try? term.scene()) != nil else { continue }
            let split = term.restrictedByView()
            #expect(Set(split.keys) == term.views, "#\(index) seed \(seed): views differ")
            for view in term.views {
                let one = term.restricted { leaf in
                    if case .tween(let tween) = leaf.kind { return tween.property.view == view }
                    if case .event = leaf.kind { return false }
                    return true
                }
                let fast = try #require(split[view])
                #expect(fast.duration == one.duration && fast.isInfinite == one.isInfinite,
                        "#\(index) seed \(seed) view \(view): durations differ")
                let comparison = try Scene.sameAnimation(try one.scene(), try fast.scene())
                #expect(comparison == .same, "#\(index) seed \(seed) view \(view): \(comparison)\n\(term)")
                compared += 1
            }
        }
        #expect(compared >= LawTests.casesPerSeed / 2)
    }

    /// The point of it: a flat `||` or `;` over n views builds terms of size
    /// about n in all, not n² (each view's part is its tween and one wait).
    @Test func flatCompositionsSplitIntoSmallParts() throws {
        let tweens = try (0..<500).map { index throws(AnimationError) in
            Term.tween(try Tween(property: Property(view: "v\(index)", name: "x"), from: .number(0), to: .number(1)))
        }
        for term in [Term.parallel(tweens), try Term.sequence(tweens)] {
            let split = term.restrictedByView()
            #expect(split.count == 500)
            for (view, part) in split {
                #expect(part.children.count <= 3, "\(view): \(part.children.count) parts")
                #expect(part.duration == term.duration)
            }
        }
    }

    /// A part with one view's tweens and no events is its own restriction:
    /// kept as it is (the same object), not walked into and rebuilt.
    @Test func oneViewPartsAreKeptAsTheyAre() throws {
        let parts = try (0..<50).map { index throws(AnimationError) -> Term in
            let view = "v\(index)"
            let x = Term.tween(try Tween(property: Property(view: view, name: "x"), from: .number(0), to: .number(1)))
            let y = Term.tween(try Tween(property: Property(view: view, name: "y"), from: .number(0), to: .number(2), duration: .zero))
            return try Term.sequence([x, Term.parallel([x, y]), try Term.wait(.one)])
        }
        let whole = Term.parallel(parts)
        let split = whole.restrictedByView()
        #expect(split.count == parts.count)
        for (index, part) in parts.enumerated() {
            let mine = try #require(split["v\(index)"])
            #expect(mine.children.contains { $0 === part })
            #expect(mine.duration == whole.duration)
        }
        #expect(parts[0].restrictedByView()["v0"] === parts[0])
    }
}
