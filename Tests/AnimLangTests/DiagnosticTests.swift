import Testing
@testable import AnimLang
@testable import AnimOutputs
import Animations

/// Source text where `<XX>` stands for the raw byte 0xXX (for invalid UTF-8 and NUL).
private func sourceFile(_ text: String) -> SourceFile {
    var bytes: [UInt8] = []
    let utf8 = Array(text.utf8)
    var index = 0
    while index < utf8.count {
        if utf8[index] == UInt8(ascii: "<"), index + 3 < utf8.count, utf8[index + 3] == UInt8(ascii: ">"),
           let byte = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
            bytes.append(byte)
            index += 4
        } else {
            bytes.append(utf8[index])
            index += 1
        }
    }
    return SourceFile(name: "test.anim", bytes: bytes)
}

private func diagnose(_ text: String) -> (SourceFile, [Diagnostic]) {
    let file = sourceFile(text)
    return (file, parse(file).diagnostics)
}

/// One mistake, and the single diagnostic it must produce: where, and its
/// message (when `expected` contains a space) or its id.
struct DiagnosticCase: CustomTestStringConvertible, Sendable {
    var source: String
    var location: String
    var expected: String
    var testDescription: String { source }

    init(_ source: String, _ location: String, _ expected: String) {
        self.source = source
        self.location = location
        self.expected = expected
    }
}

private let cases: [DiagnosticCase] = [
    // Lexical errors.
    .init("let a = b | c", "1:11", "lone-pipe"),
    .init("let a = wait .5s", "1:14", "a number cannot start with `.`"),
    .init("let a = b @ c", "1:11", "unexpected character `@`"),
    .init("let a = b → c", "1:11", "unexpected character `→` (U+2192)"),
    .init("let naïve = b", "1:7", "unexpected-character"),
    .init("let a = b <FF><FE> c", "1:11", "the file is not UTF-8 text: invalid byte 0xFF"),
    .init("let a = b # comment <C3>(\nlet c = d", "1:21", "invalid-utf8"),
    .init("let a = b<00> ; c", "1:10", "the file is not text: it has a NUL byte"),
    // Lines with CRLF ends and tabs: columns still count scalars.
    .init("let a = b\r\nlet c = grow x from 1 too 2", "2:23", "expected `to` after the start value, found `too`"),
    .init("let a = b\n\tlet c = d e", "2:12", "expected an operator or a modifier after the expression, found `e`"),
    .init("\t\tlet é = b", "1:7", "unexpected-character"),
    // Items.
    .init("lett a = b", "1:1", "expected `let` or `view`, found `lett`"),
    .init("let = b", "1:5", "expected a name after `let`, found `=`"),
    .init("let a b", "1:7", "expected `=` after `let a`, found `b`"),
    .init("let from = a", "1:5", "`from` is a reserved word and cannot name a binding"),
    .init("view wait radius 2", "1:6", "`wait` is a reserved word and cannot name a view"),
    // docs/semantics.md §8's words that would misread as names: `overlapping` (a modifier) and `each`.
    .init("let overlapping = fadeIn v", "1:5", "`overlapping` is a reserved word and cannot name a binding"),
    .init("view each radius 2", "1:6", "`each` is a reserved word and cannot name a view"),
    .init("let f(each) = fadeIn v", "1:7", "`each` is a reserved word and cannot name a parameter"),
    .init("let\nlet a = b", "2:1", "expected a name after `let`, found `let`"),
    .init("view v radius", "1:14", "expected an initial value after `radius`, found end of file"),
    .init("view v radius 2 with 3", "1:17", "expected-property"),
    // Expressions.
    .init("let a = b ;", "1:12", "expected an animation after `;`, found end of file"),
    .init("let a = b ||\nlet c = d", "2:1", "expected an animation after `||`, found `let`"),
    .init("let a = b + * c", "1:13", "expected-expression"),
    .init("let a =", "1:8", "expected an animation after `=`, found end of file"),
    .init("let a = fadeIn v ; 2s", "1:20", "expected an animation after `;`, found `2`"),
    .init("let a = reversed", "1:9", "expected-expression"),
    .init("let a = (b ; c", "1:15", "expected `)` to close the `(` at 1:9, found end of file"),
    .init("let a = (b ; c\nlet d = e", "2:1", "unclosed-paren"),
    .init("let a = b)", "1:10", "expected an operator or a modifier after the expression, found `)`"),
    .init("let a = b revesed", "1:11", "expected-operator"),
    .init("let a = b ^ 2 reversed", "1:15", "`reversed` cannot follow `^ 2` directly"),
    .init("let a = b ^ 2 with ease-in", "1:15", "modifier-after-power"),
    // Modifiers.
    .init("let a = b delayed 2s", "1:19", "expected `by` after `delayed`, found `2`"),
    .init("let a = b repeated 3", "1:21", "expected `times` after the count, found end of file"),
    .init("let a = b looped 3 tims", "1:20", "expected-token"),
    .init("let a = b repeated", "1:19", "expected `once`, `twice`, a count or `forever` after `repeated`, found end of file"),
    .init("let a = b looped 2.5 times", "1:18", "count must be a whole number (got 2.5)"),
    .init("let a = b repeated -1 times", "1:20", "count must not be negative (got -1)"),
    .init("let a = b ^ pi", "1:13", "invalid-count"),
    .init("let a = b in x", "1:14", "expected a duration after `in`, found `x`"),
    // Durations and numbers.
    .init("let a = wait x", "1:14", "expected-number"),
    .init("let a = wait 2min", "1:15", "unknown duration unit `min`"),
    .init("let a = wait 2 secs", "1:16", "unknown-unit"),
    .init("let a = wait 1/0", "1:14", "division by zero in `1/0`"),
    .init("let a = wait 1/(2 - 2)", "1:14", "division-by-zero"),
    .init("let a = wait 1e999", "1:14", "number `1e999` is too large"),
    .init("let a = wait 1e300 * 1e300", "1:14", "`1e300 * 1e300` is not a finite number"),
    .init("let a = wait 1 / x", "1:18", "expected a number after `/`, found `x`"),
    // Duration arithmetic (docs/semantics.md §8.4): the unit belongs to the number just before it. (The
    // mistakes the lowering finds, a negative result, a unit on a named duration, an overlap too
    // long or after an endless part, a spacing below 0, are in TimelineSugarTests and the corpus.)
    .init("let a = wait 1 / 2s", "1:14", "cannot divide a number by a duration in `1 / 2s`"),
    .init("let a = wait 2s * 3s", "1:14", "cannot multiply a duration by a duration in `2s * 3s`"),
    // Overlap (docs/semantics.md §8.1), at the clause.
    .init("let a = fadeIn v overlapping by 1s ; fadeIn w", "1:18", "overlap-without-before"),
    .init("let a = fadeIn v overlapping by 1s", "1:18", "`overlapping by` outside a sequence: it overlaps a part with the parts before it in a `;` chain"),
    // Stagger (docs/semantics.md §8.3).
    .init("let a = fadeIn v staggered by 1s from top", "1:39", "expected `start`, `end`, `center` or `edges` after `from`, found `top`"),
    // Tweens.
    .init("let a = grow c into 2", "1:16", "expected `from` after `grow c`, found `into`"),
    .init("let a = grow c by", "1:18", "expected a change after `by`, found end of file"),
    .init("let a = rotate c to", "1:20", "expected an end value after `to`, found end of file"),
    .init("let a = grow c from 1", "1:22", "expected `to` after the start value, found end of file"),
    .init("let a = grow c from 1 to", "1:25", "expected an end value after `to`, found end of file"),
    .init("let a = fade c", "1:15", "expected `from` after `fade c`, found end of file"),
    .init("let a = animate all.x from 0 to 1", "1:17", "expected-target"),
    .init("let a = animate c from 0 to 1", "1:19", "expected `.` after `animate c`, found `from`"),
    .init("let a = animate c. from 0 to 1", "1:20", "expected a property name after `c.`, found `from`"),
    .init("let a = rotate c from 0 to 1 degreez", "1:30", "unknown angle unit `degreez`"),
    .init("let a = rotate c from 0 to pi", "1:28", "`pi` degrees is 3.142 degrees"),
    .init("let a = rotate c from tau to 0 deg", "1:23", "pi-in-degrees"),
    // Warnings for values that run but are most likely not meant (issue 37).
    .init("let a = rotate c from 0 to 360 turns", "1:28", "`360` turns is 129600 degrees"),
    .init("let a = rotate c from 0 to 90 radians", "1:28", "`90` radians is 5156.62 degrees"),
    .init("let a = rotate c from -45 to 0 rad", "1:23", "degree-sized-angle"),
    .init("let a = fade c from 1 to -1", "1:26", "an opacity of -1 is outside 0 to 1, and is drawn as 0 (hidden)"),
    .init("let a = animate c.opacity from 0 to 100", "1:37", "an opacity of 100 is outside 0 to 1, and is drawn as 1 (fully shown)"),
    .init("let a = animate c.opacity through 0, 50, 1", "1:38", "opacity-out-of-range"),
    .init("let a = animate c.x from 0 to 100px", "1:34", "unknown unit `px`"),
    .init("let a = animate c.x from 0 to 10 em", "1:34", "unknown-value-unit"),
    // Easings.
    .init("let a = b with", "1:15", "expected an easing after `with`, found end of file"),
    .init("let a = b with an ease-inout", "1:19", "unknown easing `ease-inout`"),
    .init("let a = b with bezier(0, 0, 1, 1)", "1:16", "unknown-easing"),
    .init("let a = b with steps(0)", "1:22", "steps needs at least 1 step (got 0)"),
    .init("let a = b with steps(1, jump-none)", "1:22", "steps with jump-none needs at least 2 steps (got 1)"),
    .init("let a = b with steps(2.5)", "1:22", "the number of steps must be a whole number (got 2.5)"),
    .init("let a = b with steps(2, jump-strat)", "1:25", "unknown step position `jump-strat`"),
    .init("let a = b with cubic-bezier(1.5, 0, 1, 1)", "1:29", "cubic-bezier x1 must be between 0 and 1 (got 1.5)"),
    .init("let a = b with cubic-bezier(0.1, 0.2, 0.3)", "1:42", "expected `,` after x2, found `)`"),
    .init("let a = b with ease-in(-1)", "1:24", "the ease-in parameter must be positive (got -1)"),
    .init("let a = b with high ease-out(3)", "1:16", "`high` cannot be combined with an explicit parameter"),
    .init("let a = b with a high linear", "1:18", "invalid-high"),
    .init("let a = b with linear(2)", "1:16", "linear(…) needs at least 2 points (got 1)"),   // CSS linear(): two points or more
    .init("let a = b with ease-in-quad(2)", "1:28", "easing `ease-in-quad` takes no parameter"),
    .init("let a = b with compose(ease-in, bogus)", "1:33", "unknown-easing"),
    .init("let a = b with compose(ease-in)", "1:31", "expected `,` after the first easing, found `)`"),
    // Springs: each mistake at the parameter it concerns.
    .init("let a = b with spring(stifness 200)", "1:23", "unknown spring parameter `stifness`"),
    .init("let a = b with spring(damping 10, damping 12)", "1:35", "spring parameter `damping` is given twice"),
    .init("let a = b with spring()", "1:22", "`spring()` needs at least one parameter"),
    .init("let a = b with spring(bounce 0.3, mass 2)", "1:35", "`bounce` cannot be combined with `mass`"),
    .init("let a = b with spring(velocity 2, bounce 0.3)", "1:23", "conflicting-spring-parameters"),
    .init("let a = b with spring(bounce 1.5)", "1:30", "spring bounce must be greater than -1 and less than 1 (got 1.5)"),
    .init("let a = b with spring(bounce -1)", "1:30", "invalid-easing"),
    .init("let a = b with spring(stiffness 0)", "1:33", "spring stiffness must be positive (got 0)"),
    .init("let a = b with spring(mass -2)", "1:28", "spring mass must be positive (got -2)"),
    .init("let a = b with spring(damping -1)", "1:31", "spring damping must not be negative (got -1)"),
    .init("let a = b with spring(damping 0)", "1:31", "a spring with `damping 0` has no damping, so it never settles"),
    .init("let a = b with spring(bounce 1)", "1:30", "a spring with `bounce 1` has no damping, so it never settles"),
    .init("let a = b with spring(stiffness 1e999)", "1:33", "non-finite-number"),
    .init("let a = b with spring(velocity 1e300 * 1e300)", "1:32", "non-finite-number"),
    .init("let a = b with a bouncy ease-out", "1:18", "`bouncy` names a kind of spring: expected `spring` after it, found `ease-out`"),
    .init("let a = b with snappy", "1:16", "unknown-easing"),
    .init("let a = b with smooth sprung", "1:16", "unknown-easing"),
    .init("let a = b with bouncy-spring", "1:16", "unknown easing `bouncy-spring`"),
    .init("let a = b with bouncy spring(bounce 0.2)", "1:29", "easing `bouncy spring` takes no parameter"),
    .init("let a = b with spring(stiffness 200 damping 12)", "1:37", "expected `,` after `stiffness 200`, found `damping`"),
    .init("let a = b with spring(0.3)", "1:23", "expected a spring parameter after `(`, found `0.3`"),
    .init("let a = b with spring(bounce)", "1:29", "expected a value after `bounce`, found `)`"),
    .init("let a = b with spring(bounce 0.3,)", "1:34", "expected a spring parameter after `,`, found `)`"),
    .init("let a = b with high spring", "1:16", "`high` only applies to ease-in, ease-out and ease-in-out, not `spring`"),
    .init("let a = b with spring(stiffness 1e-320, damping 1e10)", "1:22", "invalid-easing"),
    // The end of the file: reported where the text stops, just after the
    // last token (not on the empty line after the file's last newline).
    .init("let a = b ;\n", "1:12", "expected an animation after `;`, found end of file"),
    .init("let a = b with\n\n", "1:15", "expected an easing after `with`, found end of file"),
    .init("let a = b looped 3\n", "1:19", "expected `times` after the count, found end of file"),
    .init("let a = (b ; c\n# the end\n", "1:15", "unclosed-paren"),
    .init("view v radius\r\n", "1:14", "expected an initial value after `radius`, found end of file"),
    // Errors placed at the mistake, not at what follows it.
    .init("let a = b in 300 millis", "1:18", "unknown duration unit `millis`"),
    .init("let a = b delayed by 90 degrees", "1:25", "unknown-unit"),
    .init("let a = wait 1 b", "1:16", "unknown-unit"),
    .init("let a = b looped forevr", "1:18", "expected `once`, `twice`, a count or `forever` after `looped`, found `forevr`"),
    .init("let a = b looped thrice", "1:18", "expected-count"),
    .init("let a = rotat square from 0 to 90", "1:9", "`rotat` is not a verb"),
    .init("let a = fadin all views", "1:9", "unknown-verb"),
    .init("let a = shift ball.x from 0 to 1", "1:9", "unknown-verb"),
    .init("let a = b with ease in out", "1:16", "unknown easing `ease in out`"),
    .init("let a = b with a high ease out ; c", "1:23", "unknown easing `ease out`"),
    // Named values and parameterised lets (docs/semantics.md §7.2).
    .init("let by = fadeIn v", "1:5", "`by` is a reserved word and cannot name a binding"),
    .init("let ease-out = fadeIn v", "1:5", "`ease-out` names an easing and cannot name a binding"),
    .init("let snappy = 80ms", "1:5", "easing-name"),
    .init("let f(to) = fadeIn v", "1:7", "`to` is a reserved word and cannot name a parameter"),
    .init("let f(linear) = fadeIn v", "1:7", "`linear` names an easing and cannot name a parameter"),
    .init("let f(v, v) = fadeIn v", "1:10", "parameter `v` is declared twice"),
    .init("let f(a = 1, b) = wait a ; wait b", "1:14", "parameter `b` needs a default: a parameter before it has one"),
    .init("let f(a b) = wait a", "1:9", "expected `,` after a parameter, found `b`"),
    .init("let f(v) = fadeIn v\nlet g = f(a b)", "2:13", "expected `,` after an argument, found `b`"),
    // Depth.
    .init("let a = " + String(repeating: "(", count: 300) + "b" + String(repeating: ")", count: 300), "1:265",
          "expressions nest more than 256 levels deep"),
]

@Suite struct DiagnosticTests {
    @Test(arguments: cases)
    func reportsOneDiagnostic(_ testCase: DiagnosticCase) {
        let (file, diagnostics) = diagnose(testCase.source)
        #expect(diagnostics.count == 1, "\(diagnostics.map { "\($0.id): \($0.message)" })")
        guard let diagnostic = diagnostics.first else { return }
        #expect(file.location(of: diagnostic.range.start).description == testCase.location)
        if testCase.expected.contains(" ") {
            #expect(diagnostic.message == testCase.expected)
        } else {
            #expect(diagnostic.id == testCase.expected)
        }
        // House style: lowercase first letter, no trailing period.
        #expect(diagnostic.message.first.map { !$0.isUppercase } ?? false)
        #expect(!diagnostic.message.hasSuffix("."))
        #expect(!diagnostic.id.isEmpty && diagnostic.id == diagnostic.id.lowercased() && !diagnostic.id.contains(" "))
    }

    @Test(arguments: [
        ("let a = b with an ease-inout", "did you mean `ease-in-out`?"),
        ("let a = b with ease-in-out-bounse", "did you mean `ease-in-out-bounce`?"),
        ("let a = b with cubic-bezeir(0, 0, 1, 1)", "did you mean `cubic-bezier`?"),
        ("let a = b with bezier(0, 0, 1, 1)", "easings include linear, ease-in, ease-out, ease-in-out, ease-in-out-cubic, cubic-bezier(…) and steps(N)"),
        ("let a = b revesed", "did you mean `reversed`?"),
        ("let a = b loped", "did you mean `looped`?"),
        ("let a = b dealyed by 2s", "did you mean `delayed`?"),
        ("let a = b ease-in", "did you mean `with ease-in`?"),
        ("let a = grw c from 1 to 2", "did you mean `grow`?"),
        ("let a = b c", "did you forget `;` or `||` before `c`?"),
        ("let a = grow c from 1 too 2", "did you mean `to`?"),
        ("let a = grow c form 1 to 2", "did you mean `from`?"),
        ("let a = b repeated 3 tims", "did you mean `times`?"),
        ("let a = b repeated twise", "did you mean `twice`?"),
        ("let a = b delayed bye 2s", "did you mean `by`?"),
        ("veiw v", "did you mean `view`?"),
        ("let a = wait 2min", "durations take a unit: s, sec, seconds or ms"),
        ("let a = rotate c from 0 to 1 turn", "did you mean `turns`?"),
        ("let a = rotate c from 0 to 2*pi", "did you mean `radians`?"),
        ("let a = b | c", "did you mean `||`?"),
        ("let a = wait .25", "write 0.25"),
        ("let a = fadeIn v ; 2s", "a number is not an animation; did you mean `wait 2s`?"),
        ("let a = b ^ 2 reversed", "write `(x ^ 2) reversed`"),
        ("let a = b with steps(2, jump-strat)", "did you mean `jump-start`?"),
        ("let a = b)", "there is no `(` for this `)` to close"),
        // Hints that say what is wrong.
        ("let a = b in 300 millis", "did you mean `ms`?"),
        ("let a = b in 300 milliseconds", "did you mean `ms`?"),
        ("let a = wait 2 secs", "did you mean `sec`?"),
        ("let a = b delayed by 90 degrees", "durations take s, sec, seconds or ms"),
        ("let a = wait 1 b", "durations take a unit: s, sec, seconds or ms; to play `b` next, write `;` or `||` before it"),
        ("let a = b looped forevr", "did you mean `forever`?"),
        ("let a = b looped thrice", "did you mean `twice`?"),
        ("let a = shift ball.x from 0 to 1", "the verbs are shrink, grow, scale, rotate, fadeIn, fadeOut, fade, animate, color and move"),
        ("let a = rotat square from 0 to 90", "did you mean `rotate`?"),
        ("let a = fadin all views", "did you mean `fadeIn`?"),
        ("let a = b with ease in out", "did you mean `ease-in-out`?"),
        ("let a = b with ease in", "did you mean `ease-in`?"),
        ("let a = b with ease out", "did you mean `ease-out`?"),
        ("let a = b with ease in quad", "did you mean `ease-in-quad`?"),
        ("let a = b with ease out cubic", "did you mean `ease-out-cubic`?"),
        ("let a = b with ease in out back", "did you mean `ease-in-out-back`?"),
        // Springs.
        ("let a = b with spring(stifness 200)", "did you mean `stiffness`?"),
        ("let a = b with spring(bounse 0.2)", "did you mean `bounce`?"),
        ("let a = b with spring(velocty 3)", "did you mean `velocity`?"),
        ("let a = b with spring(wobble 3)", "spring parameters are stiffness, damping, mass and velocity, or bounce alone"),
        ("let a = b with spring(damping 0)", "give it some damping: `damping 20` is critical for this stiffness and mass, less bounces, more creeps"),
        ("let a = b with spring(stiffness 400, mass 4, damping 0)", "give it some damping: `damping 80` is critical for this stiffness and mass, less bounces, more creeps"),
        ("let a = b with spring(bounce 1)", "a bounce of 1 leaves no damping; take one below 1, such as `spring(bounce 0.9)`"),
        ("let a = b with a bouncy ease-out", "`bouncy` describes springs only: write `bouncy spring`, or `ease-out` alone"),
        ("let a = b with snappy", "`snappy` describes a spring: write `snappy spring`"),
        ("let a = b with smooth sprung", "did you mean `smooth spring`?"),
        ("let a = b with bouncy-spring", "did you mean `bouncy spring`?"),
        ("let a = b with sprung", "did you mean `spring`?"),
        ("let a = b spring", "did you mean `with spring`?"),
        // Issue 37: what is actually wrong, not "did you forget `;` or `||`?".
        ("let a = animate c.x from 0 to 100px", "values have no units: positions and sizes are plain numbers, so write `100`"),
        ("let a = animate c.x from 0 to 100 px", "values have no units: positions and sizes are plain numbers, so write `100`"),
        ("let a = fadeIn c for 1s", "a duration is given with `in`: write `in` instead of `for`"),
        ("let a = fadeIn c then fadeOut c", "to play one after the other, write `;` instead of `then`"),
        ("let a = rotate c from 0 to 90 in 1s turns", "an angle's unit goes right after its value: write `to 90 turns in 1s`"),
        ("let a = rotate c from 0 to 90 with ease-in rad", "an angle's unit goes right after its value: write `to 90 rad with ease-in`"),
        ("view card opacity: 0", "a view declaration has no colons: write `opacity 0`"),
        ("view card\n  opacity: 0", "a view declaration has no colons: write `opacity 0`"),
        ("let a = b with spring(stiffness: 200)",
         "a spring parameter has no colon: write `stiffness 200`, as in `spring(stiffness 200, damping 12)`"),
        ("let a = b with spring(bounce 0.2, damping:12)",
         "a spring parameter has no colon: write `damping 12`, as in `spring(stiffness 200, damping 12)`"),
        ("let a: = b", "a binding is written `let NAME = EXPR`"),
        // `%` on a fraction's value: the fraction (100% is 1); on any other value, the number.
        ("let a = scale c from 100% to 120%", "a scale is a factor, with no `%`: write `from 1 to 1.2`"),
        ("let a = grow c from 50% to 100%", "a scale is a factor, with no `%`: write `from 0.5 to 1`"),
        ("let a = animate c.scale-x from 100% to 150%", "a scale is a factor, with no `%`: write `from 1 to 1.5`"),
        ("let a = fade c from 20% to 80%", "opacity is a number from 0 to 1, with no `%`: write `from 0.2 to 0.8`"),
        ("let a = animate c.opacity from 0% to 100%", "opacity is a number from 0 to 1, with no `%`: write `from 0 to 1`"),
        ("let a = grow c from radius 10% to 20%", "values take no `%`: write `from 10 to 20`"),
        ("let a = animate c.x from 10% to 20%", "values take no `%`: write `from 10 to 20`"),
    ])
    func hints(source: String, hint: String) {
        let (_, diagnostics) = diagnose(source)
        #expect(diagnostics.first?.hint == hint, "\(diagnostics.map(\.message))")
    }

    /// Near misses that are not mistakes.
    @Test(arguments: [
        "let a = b with ease in 2s",          // `ease`, retimed
        "let a = b with ease in 2s ; c",
        "let a = b in 2 reversed",
        "let a = b in 2\nlet c = d",
        "let a = b looped\nlet c = d",
        "let a = (b looped) ; c",
        "let a = wait 1s with ease-in",
        "let a = fade in ball",
        // The words of spring names stay plain names everywhere else.
        "let bouncy_ = fadeIn smooth\nlet snappy_ = bouncy_ ; snappy-view\nlet a = bouncy_ with snappy spring",
        "view smooth x 1\nlet spring_ = fadeIn smooth with spring ; spring_",
        "let a = b with bouncy spring in 2s",
        "let a = b with bouncy\n  spring",
        // Angles in turns or radians of a plausible size, and opacities within 0 to 1.
        "let a = rotate c from 0 to 2 turns ; rotate c from 0 to 100 turns ; rotate c from 0 to 30 radians",
        "let a = rotate c from 0 to 90*pi radians ; rotate c from 0 to 360 degrees ; rotate c from 0 to 360",
        "let a = fade c from 0 to 1 ; animate c.opacity from 1 to 0.5 ; animate c.level from 0 to 100",
    ])
    func nearMissesParseCleanly(source: String) {
        let (_, diagnostics) = diagnose(source)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
    }

    @Test func everyIndependentErrorIsReportedWithoutCascades() {
        let source = """
            let a = b revesed ; c
            let from = c
            let d = grow x from 1 too 2 ; e ; f
            let e = wait 1/0
            let f = fine
            view v radius
            let g = (h ; i
            let j = k with ease-inout ; l reversed
            let m = n looped 2.5 times ; n repeated -1 times
            """
        let (file, diagnostics) = diagnose(source)
        let summary = diagnostics.map { "\(file.location(of: $0.range.start)) \($0.id)" }
        #expect(summary == [
            "1:11 expected-operator",
            "2:5 reserved-name",
            "3:23 expected-token",
            "4:14 division-by-zero",
            "7:1 expected-number",
            "8:1 unclosed-paren",
            "8:16 unknown-easing",
            "9:18 invalid-count",
            "9:41 invalid-count",
        ])
        // What parsed is kept: value errors do not drop their item.
        #expect(parse(file).program.bindings.map(\.name) == ["from", "e", "f", "j", "m"])
    }

    @Test func lexicalErrorsDoNotCascadeIntoSyntaxErrors() {
        let (_, diagnostics) = diagnose("let a = @\nlet b = c → d\nlet e = f | g\nlet h = wait .5\nlet i = \u{1B}")
        #expect(diagnostics.map(\.id) == ["unexpected-character", "unexpected-character", "lone-pipe", "leading-decimal-point", "unexpected-character"])
    }

    @Test func diagnosticsAreCappedAtOneHundred() {
        let source = String(repeating: "let a = b c\n", count: 150)
        let (_, diagnostics) = diagnose(source)
        #expect(diagnostics.count == 100)
    }

    /// A file that is not text gets one error, at its first bad byte, and
    /// nothing else: not the hundred errors its bytes would otherwise make.
    @Test(arguments: [
        ("<FF><00>\n", "1:1", "invalid-utf8"),
        ("let a = b @ c\nlet d = e<00>f g h\n", "2:10", "nul-byte"),
        ("let a = b # comment <C3>(\nlet c = d @\n", "1:21", "invalid-utf8"),
    ])
    func aFileThatIsNotTextGetsOneError(line: String, location: String, id: String) {
        let file = sourceFile(String(repeating: line, count: 300))
        let outcome = run(file)
        #expect(outcome.diagnostics.map(\.id) == [id])
        #expect(outcome.diagnostics.first.map { file.location(of: $0.range.start).description } == location)
        #expect(outcome.diagnostics.first?.hint?.contains("nothing else") == true)
    }

    /// A 3 KB binary file (every byte value, in a scrambled order, as in an
    /// image): one error of a few lines, not 98 KB of raw bytes.
    @Test func aBinaryFileGetsAShortSafeReport() {
        var bytes: [UInt8] = []
        var state: UInt32 = 12345
        for _ in 0..<3072 {
            state = state &* 1_103_515_245 &+ 12345
            bytes.append(UInt8(truncatingIfNeeded: state >> 16))
        }
        let file = SourceFile(name: "photo.anim", bytes: bytes)
        let rendered = render(run(file).diagnostics, in: file)
        #expect(rendered.utf8.count < 600, "\(rendered.utf8.count) bytes")
        #expect(rendered.split(separator: "\n").count == 4)
        #expect(!rendered.unicodeScalars.contains { isControl($0) && $0 != "\n" })
    }

    @Test func diagnosticsAreInSourceOrder() {
        let (_, diagnostics) = diagnose("let a = b @ c\nlet d = e f\nlet g = h | i")
        #expect(diagnostics.map(\.range.start) == diagnostics.map(\.range.start).sorted())
        #expect(diagnostics.map(\.id) == ["unexpected-character", "expected-operator", "lone-pipe"])
    }

    // MARK: Limits

    @Test func hundredThousandNestedParenthesesGiveOneErrorQuickly() {
        let depth = 100_000
        let source = "let a = " + String(repeating: "(", count: depth) + "b" + String(repeating: ")", count: depth) + "\nlet c = d"
        let clock = ContinuousClock()
        var result: ParseResult?
        let elapsed = clock.measure {
            result = parse(SourceFile(name: "deep.anim", text: source))
        }
        #expect(result?.diagnostics.map(\.id) == ["nesting-too-deep"])
        #expect(result?.program.bindings.map(\.name) == ["c"])
        #expect(elapsed < .seconds(5))
    }

    @Test(arguments: [
        String(repeating: "(", count: 100_000),
        "wait " + String(repeating: "-", count: 100_000) + "1",
        "wait " + String(repeating: "(", count: 100_000) + "1",
        "a" + String(repeating: " reversed", count: 100_000),
        "a" + String(repeating: " ^ 1", count: 100_000),
        "a" + String(repeating: " with linear", count: 100_000),
        "a with " + String(repeating: "compose(linear, ", count: 100_000),
        String(repeating: "(a ; ", count: 100_000),
    ])
    func deepInputOfEveryKindIsBounded(body: String) {
        let result = parse(SourceFile(name: "deep.anim", text: "let x = " + body + "\nlet y = z"))
        #expect(result.diagnostics.map(\.id) == ["nesting-too-deep"])
        #expect(result.program.bindings.map(\.name) == ["y"])
    }

    @Test func hundredThousandStepChainParses() {
        let source = "let a = b" + String(repeating: " ; b", count: 99_999)
        let result = parse(SourceFile(name: "long.anim", text: source))
        #expect(result.diagnostics.isEmpty)
        if case .sequence(let operands) = result.program.bindings.first?.value.kind {
            #expect(operands.count == 100_000)
        } else {
            Issue.record("expected one sequence node")
        }
    }

    // MARK: Rendering

    @Test func renderUnknownEasing() {
        let source = "let left = shrink circle from radius 100 to 10 with an ease-inout\n"
        let file = SourceFile(name: "talk.anim", text: source)
        #expect(render(parse(file).diagnostics, in: file) == """
            talk.anim:1:56: error: unknown easing `ease-inout`
              1 | let left = shrink circle from radius 100 to 10 with an ease-inout
                |                                                        ^~~~~~~~~~
              hint: did you mean `ease-in-out`?

            """)
    }

    @Test func renderWarningOnASecondCRLFLine() {
        let source = "view square\r\nlet right = rotate square from 0 to 2*pi degrees\r\n"
        let file = SourceFile(name: "talk.anim", text: source)
        #expect(render(parse(file).diagnostics, in: file) == """
            talk.anim:2:37: warning: `2*pi` degrees is 6.283 degrees
              2 | let right = rotate square from 0 to 2*pi degrees
                |                                     ^~~~
              hint: did you mean `radians`?

            """)
    }

    @Test func renderKeepsTabsUnderTheCaret() {
        let source = "let a =\n\tgrow c from 1 too 2\n"
        let file = SourceFile(name: "tab.anim", text: source)
        #expect(render(parse(file).diagnostics, in: file) == """
            tab.anim:2:16: error: expected `to` after the start value, found `too`
              2 | \tgrow c from 1 too 2
                | \t              ^~~
              hint: did you mean `to`?

            """)
    }

    @Test func renderUnclosedParenthesisWithNote() {
        let source = "let a = (b ; c\nlet d = e\n"
        let file = SourceFile(name: "paren.anim", text: source)
        #expect(render(parse(file).diagnostics, in: file) == """
            paren.anim:2:1: error: expected `)` to close the `(` at 1:9, found `let`
              2 | let d = e
                | ^~~
            paren.anim:1:9: note: the `(` opened here
              1 | let a = (b ; c
                |         ^

            """)
    }

    @Test func renderAtTheEndOfTheText() {
        // The file ends with a newline (and a comment): the caret goes just
        // after the last token, on the last line of real text.
        let source = "let a =\n  fadeIn b ;\n# nothing follows\n"
        let file = SourceFile(name: "end.anim", text: source)
        #expect(render(parse(file).diagnostics, in: file) == """
            end.anim:2:13: error: expected an animation after `;`, found end of file
              2 |   fadeIn b ;
                |             ^

            """)
    }

    // MARK: Safe rendering

    /// What a terminal could obey: C0 controls but tab and newline, DEL and C1 controls.
    private func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 && scalar != "\t" || (0x7F...0x9F).contains(scalar.value)
    }

    /// The issue's repro: an escape sequence that would set the window title
    /// and clear the screen is shown escaped, never written raw.
    @Test func controlCharactersInTheSourceLineAreEscaped() {
        let file = SourceFile(name: "title.anim", text: "let final = fadeIn a \u{1B}]0;pwned\u{07} \u{1B}[2J\n")
        let rendered = render(run(file).diagnostics, in: file)
        #expect(!rendered.isEmpty)
        #expect(!rendered.unicodeScalars.contains { isControl($0) && $0 != "\n" })
        #expect(rendered.contains("  1 | let final = fadeIn a \\u{1B}]0;pwned\\u{7} \\u{1B}[2J\n"))
    }

    /// The caret stands under the escaped character, and underlines all of it.
    @Test func renderPutsTheCaretUnderTheEscapedColumn() {
        let file = SourceFile(name: "esc.anim", text: "let a = \u{7}b\u{1B} ; c\n")
        #expect(render(parse(file).diagnostics, in: file) == """
            esc.anim:1:9: error: unexpected character U+0007 (a control character)
              1 | let a = \\u{7}b\\u{1B} ; c
                |         ^~~~~
              hint: the only punctuation is ( ) , . = ; * + - / ^ % ||
            esc.anim:1:11: error: unexpected character U+001B (a control character)
              1 | let a = \\u{7}b\\u{1B} ; c
                |               ^~~~~~
              hint: the only punctuation is ( ) , . = ; * + - / ^ % ||

            """)
    }

    /// Every C0 control (but tab and the line end), DEL, every C1 control and
    /// the bidirectional overrides are escaped, wherever they stand.
    @Test func everyControlCharacterIsEscaped() {
        var scalars = (0..<0x20).compactMap(Unicode.Scalar.init).filter { $0 != "\n" && $0 != "\t" && $0 != "\r" }
        scalars += (0x7F...0x9F).compactMap(Unicode.Scalar.init)
        scalars += [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            let file = SourceFile(name: "c.anim", text: "let a = b \(Character(scalar))x @\n")
            let rendered = render(parse(file).diagnostics, in: file)
            #expect(!rendered.isEmpty)
            #expect(!rendered.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16))")
            #expect(rendered.contains("\\u{\(String(scalar.value, radix: 16, uppercase: true))}"))
        }
        // A carriage return inside a line would send the cursor back over it.
        let file = SourceFile(name: "cr.anim", text: "let a = b\rlet c = d @\n")
        #expect(render(parse(file).diagnostics, in: file).contains("  1 | let a = b\\u{D}let c = d @\n"))
    }

    /// The file name, the message and the hint are escaped too.
    @Test func renderEscapesTheFileNameAndTheMessage() {
        let file = SourceFile(name: "a\u{1B}[2J.anim", text: "let a = b @\n")
        let rendered = render(parse(file).diagnostics, in: file)
        #expect(rendered.hasPrefix("a\\u{1B}[2J.anim:1:11: error:"))
        let usage = render(Diagnostic(.unknownCommand("x\u{7}"), at: .none), origin: "animc")
        #expect(!usage.unicodeScalars.contains("\u{7}"))
    }

    /// A very long line is quoted as a window around the column, marked `…`
    /// where it is cut, with the caret under the column.
    @Test func renderQuotesAWindowOfALongLine() {
        let before = String(repeating: "b ; ", count: 50)   // 200 columns
        let source = "let a = " + before + "b @ c ; " + String(repeating: "d ; ", count: 50) + "e\n"
        let file = SourceFile(name: "long.anim", text: source)
        let shownBefore = String(String(repeating: "b ; ", count: 10).dropFirst(2))   // 38 columns
        let shownAfter = String(("c ; " + String(repeating: "d ; ", count: 20)).prefix(58))   // to column 270: 100 in all
        #expect(render(parse(file).diagnostics, in: file) == """
            long.anim:1:211: error: unexpected character `@`
              1 | …\(shownBefore)b @ \(shownAfter)…
                |  \(String(repeating: " ", count: 40))^
              hint: the only punctuation is ( ) , . = ; * + - / ^ % ||

            """)
    }

    /// One error on a 5.7 MB one-line file prints a few hundred bytes, not
    /// the line and 5.7 MB of spaces; so does an error near either end.
    @Test(arguments: [0, 2_850_000, 5_700_000])
    func aHugeLineGivesAShortReport(at offset: Int) {
        var bytes = [UInt8](repeating: UInt8(ascii: " "), count: 5_700_000)
        bytes.replaceSubrange(0..<8, with: Array("let a = ".utf8))
        bytes[8] = UInt8(ascii: "b")
        bytes[max(10, min(offset, bytes.count - 1))] = UInt8(ascii: "@")
        let file = SourceFile(name: "huge.anim", bytes: bytes)
        let diagnostics = parse(file).diagnostics
        #expect(diagnostics.map(\.id) == ["unexpected-character"])
        let rendered = render(diagnostics, in: file)
        #expect(rendered.utf8.count < 500, "\(rendered.utf8.count) bytes")
        let lines = rendered.split(separator: "\n", omittingEmptySubsequences: false)
        // The caret is under the `@`.
        if lines.count > 2, let caret = lines[2].firstIndex(of: "^"), let at = lines[1].firstIndex(of: "@") {
            #expect(lines[2].distance(from: lines[2].startIndex, to: caret) == lines[1].distance(from: lines[1].startIndex, to: at))
        } else {
            Issue.record("no caret or no `@`: \(rendered)")
        }
    }

    @Test func renderSeveralErrors() {
        let source = "let a = wait 1/0\nlet b = c | d\n"
        let file = SourceFile(name: "two.anim", text: source)
        #expect(render(parse(file).diagnostics, in: file) == """
            two.anim:1:14: error: division by zero in `1/0`
              1 | let a = wait 1/0
                |              ^~~
            two.anim:2:11: error: unexpected character `|`
              2 | let b = c | d
                |           ^
              hint: did you mean `||`?

            """)
    }
}
