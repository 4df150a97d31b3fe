import Testing
import Animations
@testable import AnimLang

/// Errors found by name resolution and evaluation: (source, LINE:COL, id,
/// a piece of the message).
struct EvaluatorDiagnosticTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let source: String
        let location: String
        let id: String
        let message: String
        var testDescription: String { source }
    }

    static let cases: [Case] = [
        Case(source: "let a = fadeIn x ; b", location: "1:20", id: "unknown-name", message: "no animation named `b`"),
        Case(source: "let fade = fadeIn x\nlet b = fdae ; fade", location: "2:9", id: "unknown-name", message: "`fdae`"),
        Case(source: "let a = fadeIn x\nlet a = fadeOut x", location: "2:5", id: "duplicate-let", message: "`a` is already defined"),
        Case(source: "let a = b ; fadeIn x\nlet b = a", location: "2:9", id: "cycle", message: "`a` refers to itself through `b`"),
        Case(source: "let a = a ; fadeIn x", location: "1:9", id: "cycle", message: "`a` refers to itself"),
        Case(source: "let a = wait -1", location: "1:14", id: "negative-duration", message: "must not be negative"),
        Case(source: "let a = fadeIn x in -2s", location: "1:21", id: "negative-duration", message: "must not be negative"),
        Case(source: "let a = fadeIn x delayed by -0.5", location: "1:29", id: "negative-duration", message: "must not be negative"),
        Case(source: "let a = fadeIn x repeated 2.5 times", location: "1:27", id: "invalid-count", message: "whole number"),
        Case(source: "let a = fadeIn x ^ -1", location: "1:20", id: "invalid-count", message: "negative"),
        Case(source: "let a = fadeIn x looped 1.5 times", location: "1:25", id: "invalid-count", message: "whole number"),
        Case(source: "let a = one in 2s", location: "1:16", id: "retime-instant", message: "cannot stretch"),
        Case(source: "let a = (fadeIn x ; fadeOut x) with ease-out-back", location: "1:37", id: "non-monotone-warp",
             message: "time would run backwards"),
        Case(source: "let a = (fadeIn x || fadeIn y in 2s) with ease-in-elastic", location: "1:43", id: "non-monotone-warp",
             message: "not monotone"),
        Case(source: "let a = fadeIn x with steps(0)", location: "1:29", id: "invalid-easing", message: "at least 1 step"),
        Case(source: "let a = fadeIn x with cubic-bezier(1.5, 0, 1, 1)", location: "1:36", id: "invalid-easing", message: "between 0 and 1"),
        Case(source: "let a = fadeIn all views", location: "1:16", id: "no-views", message: "`all views` names no view"),
        Case(source: "view ball radius 1", location: "1:1", id: "no-binding", message: "the file has no `let`"),
        Case(source: "", location: "1:1", id: "no-binding", message: "the file has no `let`"),
        Case(source: "view a x 1\nview a y 2\nlet f = fadeIn a", location: "2:6", id: "duplicate-view", message: "declared twice"),
        Case(source: "let a = wait 9000000000000000000 ; wait 9000000000000000000", location: "1:9", id: "overflow", message: "too large"),
        Case(source: "let a = wait 1e400", location: "1:14", id: "non-finite-number", message: ""),
    ]

    @Test(arguments: cases)
    func reportsTheError(_ testCase: Case) {
        let file = SourceFile(name: "case.anim", text: testCase.source)
        let outcome = run(file)
        let errors = outcome.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(render(outcome.diagnostics, in: file))")
        guard let error = errors.first else { return }
        #expect(error.id == testCase.id, "\(render(outcome.diagnostics, in: file))")
        #expect(file.location(of: error.range.start).description == testCase.location, "\(render(outcome.diagnostics, in: file))")
        #expect(testCase.message.isEmpty || error.message.contains(testCase.message), "\(error.message)")
        #expect(outcome.scene == nil)
    }

    @Test func independentErrorsAreAllReportedWithoutCascades() {
        let source = """
            let a = wait -1
            let b = a ; fadeIn x            # uses a broken binding: not reported again
            let c = fadeIn x ^ 2.5
            let d = unknown
            let e = (fadeIn x ; fadeOut x) with ease-out-bounce
            let f = grow ; (             # a syntax error: f is broken
            let g = f ; b                # uses broken bindings: silent
            """
        let file = SourceFile(name: "many.anim", text: source)
        let outcome = run(file)
        let summary = outcome.diagnostics.filter { $0.severity == .error }.map {
            "\(file.location(of: $0.range.start)) \($0.id)"
        }
        #expect(summary == ["1:14 negative-duration", "3:20 invalid-count", "4:9 unknown-name", "5:37 non-monotone-warp",
                            "7:1 expected-expression"], "\(render(outcome.diagnostics, in: file))")
    }

    @Test func unknownBindingIsReportedWithAHint() {
        let outcome = run(SourceFile(name: "x.anim", text: "let final = fadeIn x"), binding: "finl")
        #expect(outcome.diagnostics.map(\.id) == ["unknown-binding"])
        #expect(outcome.diagnostics.first?.hint == "did you mean `final`?")
    }

    @Test func renderedDiagnosticsMatchTheirGolden() {
        let source = """
            let left = shrink circle from radius 100 to 10 with an ease-inout
            let right = rotate square from 0 to 2*pi degrees with a high ease-out
            let both = (left || rigth) looped once
            let final = (fadeIn all views ; both) with ease-out-back
            """
        let file = SourceFile(name: "typos.anim", text: source)
        expectMatchesGolden(render(run(file).diagnostics, in: file), "diagnostics/typos.txt")
    }
}
