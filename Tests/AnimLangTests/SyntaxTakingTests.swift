import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang

/// `run(_:binding:keepingSyntax: false)` frees the syntax while lowering
/// (``lower(taking:)``): it must give what keeping the syntax gives — the
/// same diagnostics (errors and warnings, in order), the same term and the
/// same scene — for every example, every evaluator mistake, and the chains
/// and calls whose syntax is taken operand by operand.
struct SyntaxTakingTests {
    static let sources: [String] = {
        let directory = packageRoot.appendingPathComponent("examples")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".anim") }.sorted()
        var sources = names.compactMap { try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
        sources += EvaluatorDiagnosticTests.cases.map(\.source)
        sources += [
            "let a = fadeIn v in 1s ; fadeOut v in 2s ; move v from (0, 0) to (1, 2) in 300ms",
            "let a = fadeIn v in -1s ; fadeOut v in 1s || grow w from 1 to 2 in 2",
            "let a = animate v.x from 0 to 1 in 0.1s\nlet b = a ; animate v.x from 1 to 0 in 0.1s\nlet c = b ; a",
            "let d = 0.2s\nlet a = fadeIn v in d ; fadeOut v in d",
            "let f(v, d = 1s) = fadeIn v in d ; fadeOut v\nlet a = f(b) ; f(c, 2s) || f(b)",
            "let a = (fadeIn v repeated forever) ; fadeOut v ; grow v from 1 to 2",
            "let a = animate v.x from 0 to 1 in 300 ; animate v.x from 1 to 0 in 0.1s",
            "let a = animate v.x from 0 to 1 ; animate v.x from 0 to red",
            "let a = fadeIn v ; fadeIn v\nlet a = fadeOut v ; grow w from 1 to 2",
            "let a = animate card.x from 0 to 1 ; animate crad.x from 1 to 0 ; animate card.x from 0 to 2",
            "let a = animate v.x to 1 in 1s ; animate v.x by 2 in 1s",
            "let a = fadeIn all views ; fadeOut v\nlet b = grow w from 1 to 2",
        ]
        return sources
    }()

    @Test(arguments: sources)
    func takingTheSyntaxChangesNothing(_ source: String) {
        let file = SourceFile(name: "t.anim", text: source)
        let kept = run(file)
        let taken = run(file, keepingSyntax: false)
        #expect(render(taken.diagnostics, in: file) == render(kept.diagnostics, in: file))
        #expect(taken.term?.description == kept.term?.description)
        #expect((taken.scene == nil) == (kept.scene == nil))
        #expect(taken.target?.name == kept.target?.name)
        #expect(taken.target?.range == kept.target?.range)
        #expect(taken.program.items.isEmpty)
    }

    /// A chain's operands are lowered in order, each replaced by `one` (its
    /// range kept) once taken, and the binding's expression left `one`.
    @Test func theTakenBindingsAreLeftOne() {
        let file = SourceFile(name: "t.anim", text: "let f(v) = fadeIn v\nlet a = f(b) ; fadeOut b\nlet n = 2s")
        var resolved = resolve(parse(file).program)
        resolved.program = Program(items: [])
        let lowering = lower(taking: &resolved)
        #expect(lowering.terms["a"] != nil)
        #expect(resolved.bindings["a"]?.value == Expr(.one))
        // A parameterised `let` and a value keep their expressions.
        #expect(resolved.bindings["f"]?.value != Expr(.one))
        #expect(resolved.bindings["n"]?.value != Expr(.one))
    }
}
