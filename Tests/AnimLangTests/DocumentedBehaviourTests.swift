import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Behaviour grammar.md states, where issue 22 found the text and the code
/// apart (the text was made to say what the code does, and checked here).
struct DocumentedBehaviourTests {
    static func ids(_ source: String) -> [String] {
        run(SourceFile(name: "doc.anim", text: source)).diagnostics.map(\.id)
    }

    /// "A `;` directly before `let` or `view` ends the item before it."
    @Test func aSemicolonBeforeAnItemEndsTheItem() {
        let file = SourceFile(name: "doc.anim", text: "view ball ; let a = fadeIn ball ; let b = a\n")
        let outcome = run(file)
        #expect(outcome.diagnostics.isEmpty, "\(render(outcome.diagnostics, in: file))")
        #expect(outcome.program.bindings.map(\.name) == ["a", "b"])
        #expect(outcome.scene?.duration == Time(1))
    }

    /// "An offset written on the first or last value may only say 0 % or 100 %."
    @Test(arguments: [
        ("let a = animate b.x through 0 at 0%, 5, 10 at 100%", [String]()),
        ("let a = animate b.x through 0 at 10%, 5, 10", ["invalid-keyframe-offset"]),
        ("let a = animate b.x through 0, 5, 10 at 90%", ["invalid-keyframe-offset"]),
    ])
    func keyframeOffsetsOnTheEnds(source: String, expected: [String]) {
        #expect(Self.ids(source) == expected)
    }
}
