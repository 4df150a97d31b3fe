import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// `animc equal` (``Scene/sameAnimation(_:_:)``) against table comparison.
struct EqualTests {
    func scene(_ source: String, _ binding: String) -> Scene? {
        let outcome = run(SourceFile(name: "e.anim", text: source), binding: binding)
        return outcome.hasErrors ? nil : outcome.scene
    }

    @Test(arguments: NormalizerTests.seeds.prefix(4))
    func equalAgreesWithTablesOnGeneratedPairs(seed: UInt64) throws {
        var generator = SourceGenerator(seed: seed)
        generator.changingTweens = true
        var same = 0, different = 0
        for _ in 0..<60 {
            let bindings = "let x = \(generator.expr(depth: 2))\nlet y = \(generator.expr(depth: 2))\nlet z = \(generator.expr(depth: 2))\n"
            var pairs: [(String, String)] = NormalizerTests.laws.map { ($0.1, $0.2) }
            pairs.append(("(y || z) ; x", "(y ; x) || (z ; x)"))      // equal only when Dy = Dz
            pairs.append(("x ; y", "y ; x"))
            pairs.append(("x || y", "x ; y"))
            pairs.append(("x reversed", "x"))
            for (lhs, rhs) in pairs {
                let source = bindings + "let lhs = \(lhs)\nlet rhs = \(rhs)\n"
                guard let left = scene(source, "lhs"), let right = scene(source, "rhs"),
                      let leftTable = Table(source, binding: "lhs"), let rightTable = Table(source, binding: "rhs") else { continue }
                let verdict = try Scene.sameAnimation(left, right)
                let tablesAgree = leftTable.isClose(to: rightTable)
                #expect((verdict == .same) == tablesAgree, "\(bindings)\(lhs) vs \(rhs): equal says \(verdict), tables \(tablesAgree ? "agree" : "differ")")
                if verdict == .same { same += 1 } else { different += 1 }
            }
            // A program and its normal form are the same animation.
            let program = bindings + "let p = \(generator.expr(depth: 3))\n"
            if let original = scene(program, "p"), let normal = try? normalize(run(SourceFile(name: "p.anim", text: program), binding: "p")) {
                let outcome = run(SourceFile(name: "n.anim", text: format(normal.program)))
                let verdict = try Scene.sameAnimation(original, try #require(outcome.scene))
                #expect(verdict == .same, "\(program)\n\(format(normal.program))\n\(verdict)")
            }
        }
        #expect(same > 100)
        #expect(different > 50)
    }

    @Test func differencesAreExplained() throws {
        let source = """
            let a = animate v.x from 0 to 1 ; animate v.y from 0 to 1
            let b = animate v.x from 0 to 1 ; animate v.y from 0 to 2
            let c = animate v.x from 0 to 1 in 2s
            """
        let a = try #require(scene(source, "a")), b = try #require(scene(source, "b")), c = try #require(scene(source, "c"))
        #expect(try Scene.sameAnimation(a, a) == .same)
        #expect(try Scene.sameAnimation(a, b) == .different("only the first has v.y going 0 → 1 over [1, 2]"))
        #expect(try Scene.sameAnimation(a, c) == .different("only the first has v.x going 0 → 1 over [0, 1]"))
        #expect(try Scene.sameAnimation(Scene.zero, a) == .different("the first is cancelled; the second lasts 2s"))
    }
}
