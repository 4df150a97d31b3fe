import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// `staggered by` on a term with events and an overshooting `with` on its
/// spanning tweens (docs/semantics.md §3, §6.3): each is valid alone, and together
/// they must not invent an error. Values by hand: ease-out-back is
/// `1 + c3(p − 1)³ + c1(p − 1)²` with `c1 = 1.70158`, `c3 = c1 + 1`, so at
/// ½ it is `1 − 2.70158/8 + 1.70158/4 = 1.0876975`; `staggered by 0.5s`
/// starts `b` half a second after `a`, and leaves `landed` at 1 s.
struct StaggerEventsTests {
    static let pair = "view a\nview b\nlet pair = (fadeIn a || fadeIn b) with ease-out-back\n"

    @Test(arguments: ["pair", "pair ; emit landed", "pair staggered by 0.5s", "(pair ; emit landed) staggered by 0.5s",
                      "(emit go ; pair) staggered by 0.5s"])
    func isAccepted(expression: String) {
        let file = SourceFile(name: "stagger.anim", text: Self.pair + "let final = \(expression)\n")
        let outcome = run(file)
        #expect(outcome.diagnostics.map(\.id) == [], "\(render(outcome.diagnostics, in: file))")
    }

    @Test func staggeredPairWithEventPlaysAsDerived() {
        let file = SourceFile(name: "stagger.anim", text: Self.pair + "let final = (pair ; emit landed) staggered by 0.5s\n")
        let times = ["0", "0.5", "1", "1.5"].compactMap { Time(decimal: $0) }
        let result = evaluateToText(file, fps: 2, at: times, until: nil, format: .csv)
        let back = 1 - 2.70158 / 8 + 1.70158 / 4
        let rows = result.output.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.first == ["time", "a.opacity", "b.opacity", "events"], "\(result.output)\(result.diagnostics)")
        guard rows.count == 5 else { Issue.record("\(result.output)"); return }
        func number(_ row: Int, _ column: Int) -> Double { Double(String(rows[row][column])) ?? .nan }
        #expect(number(1, 1) == 0 && number(1, 2) == 0)
        #expect(abs(number(2, 1) - back) < 1e-12 && number(2, 2) == 0)
        #expect(number(3, 1) == 1 && abs(number(3, 2) - back) < 1e-12 && rows[3][3] == "landed")
        #expect(number(4, 1) == 1 && number(4, 2) == 1)
    }
}
