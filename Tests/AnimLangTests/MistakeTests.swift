import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Issue 22's misleading hints and silently accepted mistakes: each the
/// diagnostic it must give (where, which id, a fragment of its message or
/// hint), through `run` (parser, resolver, lowering and evaluation).
struct MistakeTests {
    static func diagnostics(_ source: String) -> (SourceFile, [Diagnostic]) {
        let file = SourceFile(name: "mistake.anim", text: source)
        return (file, run(file).diagnostics)
    }

    @Test(arguments: [
        // A verb with no view before `with`: say where the view goes, not "did you mean `fadeIn`?".
        ("let a = fadeIn with ease-in card", "1:29", "expected-operator",
         "`fadeIn` takes its view right after it: write `fadeIn card with ease-in`"),
        // A unit after the easing: it goes right after its number, not "did you mean `fadeOut`?".
        ("let a = fadeIn card in 300 with ease-out ms", "1:42", "expected-operator", "a unit goes right after its number: write `in 300ms`"),
        // An initial value with a unit: reported at the unit, on its own line.
        ("view card rotation 90deg\nlet a = fadeIn card", "1:22", "initial-value-unit", "write `rotation 90` (a rotation is in degrees)"),
        ("view card x 10px\nlet a = fadeIn card", "1:15", "initial-value-unit", "write `x 10`"),
        // hsl percentages: say the `%` is missing.
        ("let a = color card from hsl(120, 100, 50) to red", "1:34", "invalid-color-channel", "the `%` is missing: write `100%`"),
        // Units on tween values: say where they go.
        ("let a = fade card from 0% to 100%", "1:25", "expected-token", "opacity is a number from 0 to 1, with no `%`: write `from 0 to 1`"),
        ("let a = rotate card from 0deg to 90deg", "1:27", "expected-token", "the unit goes once, after the end value: write `from 0 to 90 deg`"),
        ("let a = animate card.x from 0% to 50%", "1:30", "expected-token", "values take no `%`: write `from 0 to 50`"),
        // Where a view stands: `at (X, Y)` and `origin WORD | (FX, FY)`.
        ("view bar origin middle\nlet a = fadeIn bar", "1:17", "unknown-origin", "`left`, `right`"),
        ("view bar origin 0.5\nlet a = fadeIn bar", "1:17", "wrong-value-kind", "write `view bar origin (0, 0.5)`"),
        ("view bar at 5\nlet a = fadeIn bar", "1:13", "wrong-value-kind", "write `view bar at (120, 80)`"),
        ("view bar at red\nlet a = fadeIn bar", "1:13", "wrong-value-kind", "`at` takes a point, not a colour"),
        ("view bar at (1, 2) at (3, 4)\nlet a = fadeIn bar", "1:20", "duplicate-property", "a view has one `at`: keep one of the two"),
        ("view bar origin left origin top\nlet a = fadeIn bar", "1:22", "duplicate-property", "a view has one `origin`"),
        ("view bar at (1, 2\nlet a = fadeIn bar", "2:1", "unclosed-paren", "expected `)`"),
    ])
    func hintsSayWhatToWrite(source: String, location: String, id: String, hint: String) {
        let (file, diagnostics) = Self.diagnostics(source)
        let first = diagnostics.first
        #expect(first.map { "\(file.location(of: $0.range.start)) \($0.id)" } == "\(location) \(id)", "\(render(diagnostics, in: file))")
        #expect(first.map { ($0.hint ?? "").contains(hint) || $0.message.contains(hint) } == true, "\(render(diagnostics, in: file))")
    }

    /// Mistakes that ran silently: a view or property named once beside a
    /// close name (a warning with "did you mean"), a colour on a property
    /// drawn as a number (an error naming both kinds), a bare duration that
    /// is surely milliseconds (a warning).
    @Test(arguments: [
        ("view card\nlet a = fadeIn card ; animate crad.y from 0 to 1", "2:31", "named-once", "did you mean `card`?"),
        ("view card\nlet a = fadeIn card ; animate card.opactiy from 0 to 1", "2:36", "named-once", "did you mean `opacity`?"),
        ("let a = fadeIn card in 300 ; fadeOut card in 0.2s ; grow card from 1 to 2 in 250ms", "1:24", "bare-duration",
         "did you mean `300ms`?"),
    ])
    func warnsOfLikelyMistakes(source: String, location: String, id: String, hint: String) {
        let (file, diagnostics) = Self.diagnostics(source)
        #expect(diagnostics.map { "\(file.location(of: $0.range.start)) \($0.id) \($0.severity)" } == ["\(location) \(id) warning"],
                "\(render(diagnostics, in: file))")
        #expect(diagnostics.first?.hint == hint, "\(render(diagnostics, in: file))")
    }

    @Test func aColourOnADrawnNumberIsAnError() {
        let (file, diagnostics) = Self.diagnostics("let a = animate card.x from red to blue")
        #expect(diagnostics.map { "\(file.location(of: $0.range.start)) \($0.id)" } == ["1:29 wrong-value-kind"], "\(render(diagnostics, in: file))")
        #expect(diagnostics.first?.message == "`animate` takes numbers for `x`, not a colour")
    }

    /// Near misses that stay silent: names used twice, names far from any
    /// other, colours on colour properties, bare durations in a file of
    /// seconds, and a file whose durations are all bare.
    @Test(arguments: [
        "view card\nlet a = fadeIn card ; animate card.y from 0 to 1 ; animate card.y from 1 to 0",
        "view card\nview cart\nlet a = fadeIn card ; fadeIn cart",
        "let a = fadeIn card ; animate card.shadow from 0 to 1",
        "let a = fadeIn card ; animate card.shade from 0 to 1",      // two edits from `scale`: meant
        "let a = animate card.tint from red to blue ; animate card.color from red to blue",
        "let a = fadeIn card in 12 ; fadeOut card in 3",
        "let a = fadeIn card in 300",
    ])
    func staysSilent(source: String) {
        let (file, diagnostics) = Self.diagnostics(source)
        #expect(diagnostics.isEmpty, "\(render(diagnostics, in: file))")
    }
}
