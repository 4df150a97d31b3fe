import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

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
        // Named values and parameterised lets (docs/semantics.md §7.2).
        Case(source: "let gap = 80ms\nlet a = grow v from gap to 2", location: "2:21", id: "name-kind",
             message: "`gap` is a duration, but a number goes here"),
        Case(source: "let lift = 12\nlet a = fadeIn v ; lift", location: "2:20", id: "name-kind", message: "`lift` is a number, but an animation goes here"),
        Case(source: "let a = fadeIn v with quick\nlet quick = 3", location: "1:23", id: "name-kind", message: "`quick` is a number, but an easing"),
        Case(source: "let f(v) = fadeIn v ; grow v from v to 2\nlet a = f(b)", location: "1:35", id: "parameter-kinds",
             message: "parameter `v` is used as a view and as a number"),
        Case(source: "let f(v, d = 1s) = fadeIn v in d\nlet a = f(b, 2s, 3)", location: "2:9", id: "argument-count",
             message: "`f` takes 1 or 2 arguments, but is given 3"),
        Case(source: "let f(v, d) = fadeIn v in d\nlet a = f(b)", location: "2:9", id: "argument-count", message: "takes 2 arguments"),
        Case(source: "let f(v, d) = fadeIn v in d\nlet a = f(b, red)", location: "2:14", id: "argument-kind",
             message: "argument `d` of `f` must be a duration, not a colour"),
        Case(source: "let f(v) = fadeIn v\nlet a = f(wait 1)", location: "2:11", id: "argument-kind", message: "must be a view, not an animation"),
        Case(source: "let f(a) = a ; a\nlet a = f(3)", location: "2:11", id: "argument-kind", message: "must be an animation, not a number"),
        Case(source: "let f(a) = f(a) ; a\nlet b = f(one)", location: "1:12", id: "recursion", message: "`f` calls itself"),
        Case(source: "let f(a) = g(a)\nlet g(a) = f(a)\nlet b = f(one)", location: "2:12", id: "recursion", message: "through `g`"),
        Case(source: "let f(v) = fadeIn v\nlet a = f ; fadeIn b", location: "2:9", id: "needs-arguments", message: "`f` takes arguments"),
        Case(source: "let f = fadeIn v\nlet a = f(b)", location: "2:9", id: "not-callable", message: "`f` takes no arguments"),
        Case(source: "let f(v, h) = animate v.y from 0 to h\nlet a = f(b, 1 / 0)", location: "2:14", id: "division-by-zero", message: ""),
        Case(source: "let f(v, h) = animate v.y from 0 to 1 in h\nlet a = f(b, -2)", location: "2:9", id: "negative-duration",
             message: "must not be negative"),
        Case(source: "let a = wait gap\nlet gap = gap2\nlet gap2 = gap", location: "3:12", id: "cycle", message: "refers to itself"),
        Case(source: "let gap = 80ms\nlet f(v, d) = fadeIn v in d\nlet a = f(b, gpa)", location: "3:14", id: "unknown-value",
             message: "no value named `gpa` (a duration goes here)"),
        Case(source: "let gap = 80ms", location: "1:5", id: "not-an-animation", message: "`gap` is a duration, not an animation"),
        Case(source: "let f(v) = fadeIn v", location: "1:5", id: "not-an-animation", message: "a parameterised animation"),
        Case(source: "let a = fadeIn v\nlet b = grow v from 1 to lfit", location: "2:26", id: "expected-number", message: "found `lfit`"),
        Case(source: "let a = fadeIn x ; b", location: "1:20", id: "unknown-name", message: "no animation named `b`"),
        Case(source: "let fade = fadeIn x\nlet b = fdae ; fade", location: "2:9", id: "unknown-name", message: "`fdae`"),
        Case(source: "let a = fadeIn x\nlet a = fadeOut x", location: "2:5", id: "duplicate-let", message: "`a` is already defined"),
        Case(source: "let a = b ; fadeIn x\nlet b = a", location: "2:9", id: "cycle", message: "`a` refers to itself through `b`"),
        Case(source: "let a = a ; fadeIn x", location: "1:9", id: "cycle", message: "`a` refers to itself"),
        Case(source: "let a = wait -1", location: "1:14", id: "negative-duration", message: "must not be negative"),
        Case(source: "let a = fadeIn x in -2s", location: "1:21", id: "negative-duration", message: "must not be negative"),
        Case(source: "let a = fadeIn x delayed by -0.5", location: "1:29", id: "negative-duration", message: "must not be negative"),
        Case(source: "let a = fadeIn x looped 2.5 times", location: "1:25", id: "invalid-count", message: "whole number"),
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
        // From where it is (docs/semantics.md §7.1).
        Case(source: "let a = (animate v.x to 5) reversed", location: "1:28", id: "reversed-to", message: "no start to return to"),
        Case(source: "let a = fade v to 0 looped", location: "1:21", id: "reversed-to",
             message: "cannot loop a tween of `v.opacity` that goes `to` a value"),
        Case(source: "let a = color v by red", location: "1:20", id: "relative-color", message: "`by` an amount"),
        Case(source: "let a = color v to red", location: "1:9", id: "no-current-value", message: "no current colour"),
        Case(source: "let a = move v by 3", location: "1:19", id: "wrong-value-kind", message: "points"),
        // docs/semantics.md §6: colours, points and keyframes, stagger, springs, events, forever.
        Case(source: "let a = move ball from 0 to 100", location: "1:24", id: "wrong-value-kind", message: "`move` takes points, not a number"),
        Case(source: "let a = move ball from (0, 0) to 100", location: "1:34", id: "wrong-value-kind", message: "`move` takes points"),
        Case(source: "let a = fade b from red to blue", location: "1:21", id: "wrong-value-kind", message: "`fade` takes numbers, not a colour"),
        Case(source: "let a = color b from red to 3", location: "1:29", id: "wrong-value-kind", message: "`color` takes colours, not a number"),
        Case(source: "let a = animate b.x from (0, 1) to (1, 2)", location: "1:26", id: "wrong-value-kind",
             message: "`animate` takes numbers for `x`, not a point"),
        Case(source: "let a = animate b.shadow from (0, 1) to 2", location: "1:41", id: "wrong-value-kind",
             message: "`animate` takes values of one kind, not a point and a number"),
        Case(source: "let a = animate b.shadow by (1, 2)", location: "1:29", id: "wrong-value-kind",
             message: "`animate` takes a number after `by`, not a point"),
        Case(source: "let a = animate b.tint from red to 2", location: "1:36", id: "wrong-value-kind",
             message: "`animate` takes values of one kind, not a colour and a number"),
        Case(source: "view b x (0, 0)\nlet a = fadeIn b", location: "1:10", id: "wrong-value-kind",
             message: "`view` takes a number or a colour, not a point"),
        Case(source: "let a = color ball from rde to blue", location: "1:25", id: "unknown-color", message: "unknown colour `rde`"),
        Case(source: "let a = color ball from xyz to blue", location: "1:25", id: "unknown-color", message: "unknown colour `xyz`"),
        Case(source: "view b color bleu\nlet a = fadeIn b", location: "1:14", id: "unknown-color", message: "unknown colour `bleu`"),
        Case(source: "view b color 3\nlet a = color b from red to blue", location: "2:22", id: "mixed-kinds",
             message: "`b.color` is given a colour here and a number elsewhere"),
        Case(source: "let a = color b from red to blue ; animate b.color from 0 to 1", location: "1:57", id: "mixed-kinds",
             message: "`b.color` is given a number here and a colour elsewhere"),
        Case(source: "let a = color b from rgb(1, 2 3) to red", location: "1:31", id: "invalid-color-function",
             message: "all by commas or all by spaces"),
        Case(source: "let a = color b from rgb(1, 2) to red", location: "1:22", id: "invalid-color-function",
             message: "`rgb(…)` takes three channels and an optional alpha"),
        Case(source: "let a = color b from rgb(256 0 0) to red", location: "1:26", id: "invalid-color-channel", message: "red must be 0 to 255, not `256`"),
        Case(source: "let a = color b from rgb(255 0 0 / 1.5) to red", location: "1:36", id: "invalid-color-channel",
             message: "alpha must be 0 to 1, not `1.5`"),
        Case(source: "let a = color b from hsl(0 120% 50%) to red", location: "1:28", id: "invalid-color-channel",
             message: "saturation must be 0% to 100%, not `120%`"),
        Case(source: "let a = color b from #abcde to red", location: "1:22", id: "expected-number", message: "found `#abcde`"),
        Case(source: "let a = animate b.x through 0, 1 at 60%, 2 at 40%, 3", location: "1:47", id: "invalid-keyframe-offset",
             message: "keyframe offset 40% comes after 60%"),
        Case(source: "let a = animate b.x through 0", location: "1:29", id: "too-few-keyframes", message: "two keyframes or more"),
        Case(source: "let a = animate b.x through 0, 1, 2 at 90%", location: "1:40", id: "invalid-keyframe-offset",
             message: "the last keyframe is always at 100%, not 90%"),
        Case(source: "let a = animate b.x through 0 at 10%, 1", location: "1:34", id: "invalid-keyframe-offset",
             message: "the first keyframe is always at 0%, not 10%"),
        Case(source: "let a = animate b.x through 0, 1 at 120%, 2", location: "1:37", id: "invalid-keyframe-offset", message: "outside 0% to 100%"),
        Case(source: "let a = animate b.x through 0, 10, 0 with ease-out-back", location: "1:43", id: "non-monotone-warp",
             message: "time would run backwards"),
        Case(source: "let a = fadeIn x staggered by -1s", location: "1:31", id: "negative-duration", message: "must not be negative"),
        Case(source: "let a = fadeIn x with spring(damping 0)", location: "1:38", id: "spring-never-settles", message: "never settles"),
        Case(source: "let a = fadeIn x with spring(bounce 1)", location: "1:37", id: "spring-never-settles", message: "never settles"),
        Case(source: "let a = (fadeIn x ; fadeIn y) with spring", location: "1:36", id: "non-monotone-warp",
             message: "springs count as not monotone"),
        Case(source: "let a = emit from", location: "1:14", id: "reserved-name", message: "`from` is a reserved word and cannot name an event"),
        Case(source: "let a = emit 3", location: "1:14", id: "expected-name", message: "expected a name after `emit`, found `3`"),
        Case(source: "let a = emit x repeated forever", location: "1:16", id: "forever-of-instant", message: "lasts 0s"),
        Case(source: "let a = (fadeIn x repeated forever) reversed", location: "1:37", id: "infinite-animation", message: "cannot reverse"),
        Case(source: "let a = (fadeIn x repeated forever) looped", location: "1:37", id: "infinite-animation", message: "cannot loop"),
        Case(source: "let a = (fadeIn x repeated forever) in 2s", location: "1:37", id: "infinite-animation", message: "cannot retime"),
        Case(source: "let a = (fadeIn x repeated forever) with ease-in", location: "1:37", id: "infinite-animation", message: "cannot ease"),
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

    /// Warnings of docs/semantics.md §6: the result is still evaluated.
    @Test(arguments: [
        ("let a = (fadeIn x repeated forever) ; fadeOut y", "1:39", "never-starts", "this never starts: the animation before it repeats forever"),
        ("let a = wait 1 staggered by 1s", "1:16", "stagger-nothing", "nothing to stagger: no view has a tween here"),
        ("let a = (emit x ; wait 1) staggered by 80ms", "1:27", "stagger-nothing", "nothing to stagger"),
        // Issue 9's rough edges: ties that average, and `all views` reaching unused lets.
        ("let a = animate a.x from 0 to 100 || animate a.x from 0 to -100", "1:38", "tie",
         "`a.x` is driven by 2 tweens at once from 0s to 1s, so it shows their mean"),
        ("let a = animate a.x from 0 to 100 in 2s || animate a.x from 0 to 10 in 0.5s with ease-in", "1:44", "tie",
         "from 0s to 0.5s"),
        ("let a = (animate a.x from 0 to 1 || animate a.x from 1 to 0 with ease-in) ^ 1000000", "1:37", "tie",
         "`a.x` is driven by 2 tweens at once from 0s to 1s"),
        ("let a = wait 1 ; (color b from red to blue || color b from red to lime)", "1:47", "tie", "`b.color` is driven by 2 tweens at once from 1s to 2s"),
        ("let a = (animate a.x from 5 to 5 in 0s || animate a.x from 7 to 7 in 0s) ; wait 1", "1:43", "tie",
         "`a.x` holds the ends of 2 tweens at once from 0s to 1s"),
        // Issue 22: tweens are told apart by where they are placed, not by
        // their values: `other` (0 → 100, like `up`) plays after the tie.
        ("let up = animate meter.level from 0 to 100\nlet down = animate meter.level from 0 to -100\n"
            + "let other = animate meter.level from 0 to 100 in 2s\nlet final = (up || down) ; other", "2:12", "tie",
         "`meter.level` is driven by 2 tweens at once from 0s to 1s"),
        // A jump and a tween starting at one instant show their mean there (50).
        ("let a = animate a.x from 0 to 100 in 0s || animate a.x from 0 to 50", "1:44", "tie",
         "`a.x` is driven by 2 tweens at once at 0s, so it shows their mean"),
        ("let a = wait 1 ; (animate a.x from 3 to 3 in 0s || animate a.x from 0 to 50)", "1:52", "tie",
         "`a.x` is driven by 2 tweens at once at 1s"),
        ("let a = fadeIn ball\nlet b = fadeIn box\nlet final = fadeIn all views", "3:20", "stray-views",
         "`all views` includes `ball` and `box`, named only in `a` and `b`, which `final` does not use"),
        ("let old = fadeIn ghost\nlet both = fadeIn all views ; fadeOut card\nlet final = both in 2s", "2:19", "stray-views",
         "`all views` includes `ghost`, named only in `old`, which `final` does not use"),
    ])
    func reportsTheWarning(_ source: String, _ location: String, _ id: String, _ message: String) {
        let file = SourceFile(name: "case.anim", text: source)
        let outcome = run(file)
        #expect(!outcome.hasErrors && outcome.scene != nil, "\(render(outcome.diagnostics, in: file))")
        let warnings = outcome.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.map { "\(file.location(of: $0.range.start)) \($0.id)" } == ["\(location) \(id)"], "\(render(outcome.diagnostics, in: file))")
        #expect(warnings.first.map { $0.message.contains(message) && $0.hint != nil } == true, "\(warnings.map(\.message))")
    }

    /// The tie's notes point at the other tweens of the tie, and only at them.
    @Test func theTieNotesTheOtherTweensOfTheTie() {
        let source = "let up = animate meter.level from 0 to 100\nlet down = animate meter.level from 0 to -100\n"
            + "let other = animate meter.level from 0 to 100 in 2s\nlet final = (up || down) ; other"
        let file = SourceFile(name: "case.anim", text: source)
        let tie = run(file).diagnostics.first { $0.id == "tie" }
        #expect(tie?.notes.map { file.location(of: $0.range.start).description } == ["1:10"])
    }

    /// What the two rough-edge warnings must not flag: ties of a term with
    /// itself (`||` is idempotent), a later start that takes over, ties whose
    /// values agree, and `all views` whose views the binding names or declares.
    @Test(arguments: [
        "let a = fadeIn ball || fadeIn ball",
        "let f = fadeIn ball\nlet a = f || f || fadeIn all views",
        "let a = animate a.x from 0 to 100 in 2s || (wait 1 ; animate a.x from 50 to 0)",
        "let a = animate a.x from 0 to 100 ; animate a.x from 100 to 0",
        "let a = animate a.x from 0 to 100 in 2s || animate a.x from 0 to 50 in 1s",
        "let a = (animate a.x from 0 to 1 ; animate a.x from 1 to 0) ^ 1000000",
        "let left = shrink circle from 100 to 10\nlet right = rotate square from 0 to 90\nlet final = fadeIn all views ; (left || right)",
        "view ghost\nlet old = fadeIn ghost\nlet final = fadeIn all views",
        "let a = fadeIn ball\nlet final = fadeIn all views\nlet b = a",
    ])
    func warnsOfNoTieOrStrayView(_ source: String) {
        let file = SourceFile(name: "case.anim", text: source)
        let outcome = run(file, binding: source.hasSuffix("let b = a") ? "b" : nil)
        #expect(outcome.scene != nil && outcome.diagnostics.isEmpty, "\(render(outcome.diagnostics, in: file))")
    }

    /// Ten tie warnings at most, one per property, and a count of them all.
    @Test func manyTiesAreCounted() {
        let tweens = (0..<13).map { "animate v\($0).x from 0 to 1 || animate v\($0).x from 1 to 0" }
        let file = SourceFile(name: "many.anim", text: "let a = " + tweens.joined(separator: " || "))
        let warnings = run(file).diagnostics
        #expect(warnings.count == 11 && warnings.allSatisfy { $0.id == "tie" && $0.severity == .warning })
        #expect(warnings.first?.message == "13 properties are driven by several tweens at once, each showing their mean; 10 of them are shown")
        #expect(warnings.dropFirst().map { $0.message.prefix(6) } == ["`v0.x`", "`v1.x`", "`v2.x`", "`v3.x`", "`v4.x`", "`v5.x`", "`v6.x`",
                                                                       "`v10.x", "`v11.x", "`v12.x"])
    }

    /// Hints that say what to write instead.
    @Test(arguments: [
        ("let a = move ball from 0 to 100", "`move` goes between points: `move V from (0, 0) to (100, 50)`"),
        ("let a = fade b from red to blue", "to animate a colour, write `color V from red to blue` or `animate V.fill from red to blue`"),
        ("let a = color ball from rde to blue", "did you mean `red`?"),
        ("let a = color ball from xyz to blue", "a colour is a CSS name (`red`, `rebeccapurple`), `#rrggbb`, `rgb(R G B)` or `hsl(H S% L%)`"),
        ("let a = animate b.x from foo to 1", "a value is a number, a colour (`red`, `#3366ff`, `rgb(…)`, `hsl(…)`) or a point `(x, y)`"),
        ("let a = animate b.tint from red to 2", "the values of one tween are all of one kind, and this one starts with a colour"),
        ("let a = color b from #abcde to red", "`#abcde` is read as a comment: a hex colour is `#` and 3, 4, 6 or 8 hex digits"),
        ("let a = fadeIn x #fade in", "`#fade` reads as a colour; a comment needs a space after `#`: `# fade`"),
        ("let a = animate b.x through 0, 10, 0 with ease-out-back",
         "the pieces between keyframes do not span the whole tween; to ease each piece, "
            + "write `with each ease-out-back` after the keyframes, or `with ease-out-back` after a keyframe for the piece leaving it"),
        ("let a = (fadeIn x ; fadeIn y) with bouncy spring", "overshooting curves work on a single tween: move `with bouncy spring` onto the tweens inside"),
        ("let a = (fadeIn x repeated forever) reversed", "apply it to the part that repeats, before `repeated forever`"),
        ("let a = emit from", "event names are plain names, such as `emit landed` or `emit from_`"),
        ("let a = emit", "to fire an event, write `emit NAME`, such as `emit landed`"),
    ])
    func hintsSayWhatToWrite(_ source: String, _ hint: String) {
        let file = SourceFile(name: "case.anim", text: source)
        let errors = run(file).diagnostics.filter { $0.severity == .error }
        #expect(errors.first?.hint == hint, "\(render(errors, in: file))")
    }

    @Test func independentErrorsAreAllReportedWithoutCascades() {
        let source = """
            let a = wait -1
            let b = a ; fadeIn x            # uses a broken binding: not reported again
            let c = fadeIn x looped 2.5 times
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
        #expect(summary == ["1:14 negative-duration", "3:25 invalid-count", "4:9 unknown-name", "5:37 non-monotone-warp",
                            "7:1 expected-expression"], "\(render(outcome.diagnostics, in: file))")
    }

    @Test func unknownBindingIsReportedWithAHint() {
        let outcome = run(SourceFile(name: "x.anim", text: "let final = fadeIn x"), binding: "finl")
        #expect(outcome.diagnostics.map(\.id) == ["unknown-binding"])
        #expect(outcome.diagnostics.first?.hint == "did you mean `final`?")
    }

    /// docs/semantics.md §6's mistakes as `animc check` shows them: `FILE:LINE:COL: error: message`,
    /// the line, a caret under the mistake, the hint, and notes at the other place.
    @Test func renderedBeyondNumbersDiagnosticsMatchTheirGolden() {
        let source = """
            view card color #3366ff
            let press = move card from 0 to 100
            let tint = color card from rde to blue ; animate card.color from 0 to 1
            let path = animate card.x through 0, 50 at 60%, 80 at 40%, 100 with ease-out-back
            let wobble = fadeIn card with spring(damping 0)
            let spin = (rotate card from 0 to 360 repeated forever) reversed ; emit done
            let cascade = wait 1 staggered by 80ms
            """
        let file = SourceFile(name: "card.anim", text: source)
        expectMatchesGolden(render(run(file).diagnostics, in: file), "diagnostics/beyond-numbers.txt")
    }

    /// docs/semantics.md §7.2's mistakes as `animc check` shows them: an error an argument
    /// causes inside a body is at the call, with a note at the body.
    @Test func renderedCallDiagnosticsMatchTheirGolden() {
        let source = """
            let quick = 150ms
            let pulse(v, amount = 1.1, d = quick) =
              grow v from 1 to amount in d ; grow v from amount to 1 in d
            let twice(a) = a ; a
            let final = pulse(card, 1.2, -1) ; twice(pulse(badge, red)) ; pulse(card, 1, 2, 3) ; wait quick / 0
            """
        let file = SourceFile(name: "pulse.anim", text: source)
        expectMatchesGolden(render(run(file).diagnostics, in: file), "diagnostics/calls.txt")
    }

    /// The two rough-edge warnings as `animc check` shows them, with notes at
    /// the other tweens of a tie and where each stray view is named.
    @Test func renderedTieAndStrayViewWarningsMatchTheirGolden() {
        let source = """
            let quick = animate box.y from 0 to 50 in 0.5s
            let tie = animate box.y from 0 to 100 in 0.5s
            let sketch = fadeIn ghost
            let final = fadeIn all views ; (quick || tie)
            """
        let file = SourceFile(name: "rough.anim", text: source)
        expectMatchesGolden(render(run(file).diagnostics, in: file), "diagnostics/ties-and-stray-views.txt")
    }

    /// Semantics docs/semantics.md §8's mistakes as `animc check` shows them: overlaps that
    /// reach back too far or have nothing before them, durations with units
    /// that make no duration, a spacing that starts a view early.
    @Test func renderedTimelineDiagnosticsMatchTheirGolden() {
        let source = """
            view a
            view b
            view c
            let gap = 80ms
            let list = fadeIn a in 0.4s ; fadeIn b overlapping by 0.5s ; fadeIn c overlapping by gap * 10
            let first = fadeIn a overlapping by 0.1s ; fadeIn b
            let sums = wait 1 / 2s ; wait gap * gap ; wait gap ms ; fadeIn a in 0.1s - 0.2s
            let grid = fadeIn all views staggered by gap spaced ease-in-back
            """
        let file = SourceFile(name: "timelines.anim", text: source)
        expectMatchesGolden(render(run(file).diagnostics, in: file), "diagnostics/timelines.txt")
    }

    /// docs/semantics.md §8.5's mistakes (`played` naming no part of an animation) as `animc check` shows them.
    @Test func renderedPartDiagnosticsMatchTheirGolden() {
        let source = """
            let x = animate v.x from 0 to 100 in 2s
            let a = x played from 1.5s to 0.5s
            let b = x played from -10%
            let c = fadeIn v repeated forever played from 1s
            let d = fadeIn v repeated forever played to 50%
            let e = fadeIn v in 0s played from 20%
            """
        let file = SourceFile(name: "parts.anim", text: source)
        expectMatchesGolden(render(run(file).diagnostics, in: file), "diagnostics/parts.txt")
    }

    /// Programs that run but most likely do not mean what they say, as
    /// `animc check` shows them: each a warning that names the mistake, with
    /// the fix as its hint (issue 37). Line 4's default view is meant, and
    /// gets nothing.
    @Test func renderedLikelyMistakeWarningsMatchTheirGolden() {
        let source = """
            view card
            view badge
            let fast = 200
            let pop(v = card) = grow v from 1 to 1.2 in 0.2s
            let show = animate card.opacity from 0 to 100 in 0.3s
            let spin = rotate card from 0 to 360 turns in 0.5s ; rotate badge from 0 to 90 radians in 0.5s
            let tilt = animate card.rotate-y from 0 to 30 in 0.4s ; animate badge.alpha from 0 to 1 in 0.4s
            let final = pop() ; pop(badge) ; pop(bagde) ; fadeIn badge in fast ; show ; spin ; tilt
            """
        let file = SourceFile(name: "mistakes.anim", text: source)
        let outcome = run(file)
        #expect(!outcome.hasErrors)
        expectMatchesGolden(render(outcome.diagnostics, in: file), "diagnostics/likely-mistakes.txt")
    }

    /// Syntax mistakes a new user makes, as `animc check` shows them: each
    /// hint names what is wrong (a unit animc does not have, `for` and
    /// `then`, a unit after the duration, a colon, a percentage) rather than
    /// "did you forget `;` or `||`?" (issue 37).
    @Test func renderedWhatIsWrongHintsMatchTheirGolden() {
        let source = """
            view card opacity: 0
            let a = animate card.x from 0 to 100px
            let b = fadeIn card for 1s
            let c = fadeIn card then fadeOut card
            let d = rotate card from 0 to 90 in 1s turns
            let e = fadeIn card with spring(stiffness: 200)
            let f = scale card from 100% to 120%
            """
        let file = SourceFile(name: "hints.anim", text: source)
        expectMatchesGolden(render(run(file).diagnostics, in: file), "diagnostics/what-is-wrong.txt")
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
