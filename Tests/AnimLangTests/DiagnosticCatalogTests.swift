import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The catalog of diagnostics (``DiagnosticKind``) and the rule that each
/// check runs once, in the stage that owns it.
struct DiagnosticCatalogTests {
    /// One value of every case: ids are stable kebab-case words, messages
    /// lowercase with no trailing period.
    static let samples: [DiagnosticKind] = [
        .leadingDecimalPoint, .lonePipe, .nulByte, .unexpectedCharacter("@"), .invalidUTF8(0xFF),
        .expectedItem(found: .text("lett")), .expectedName(after: "let", found: .punctuation(.equals)),
        .reservedName("from", role: .binding), .expectedProperty(found: .endOfFile), .initialValueUnit("deg"),
        .expectedPropertyName(view: "c", found: .text("from")),
        .expectedToken(expected: "`=`", after: "`let a`", found: .text("b")), .expectedExpression(after: nil, found: .endOfFile),
        .expectedOperator(found: .invalidCharacter), .expectedCount(after: "repeated", found: .endOfFile),
        .expectedTarget(found: .text("all")), .expectedNumber(what: "a duration", after: "`in`", found: .text("x")),
        .expectedEasing(after: "`with`", found: .endOfFile), .expectedStepPosition(found: .punctuation(.rightParen)),
        .unclosedParen(openedAt: SourceLocation(line: 1, column: 9), found: .endOfFile), .nestingTooDeep(limit: 256),
        .modifierAfterPower(modifier: "reversed", exponent: "2"), .unknownVerb("rotat"), .unknownUnit("min"),
        .unknownAngleUnit("degreez"), .piInDegrees(written: "2*pi", degrees: 2 * Double.pi), .negativeCount("-1"),
        .unknownValueUnit("px"), .degreeSizedAngle(written: "360", unit: "turns", degrees: 129600), .opacityOutOfRange("100"),
        .bareNamedDuration(name: "fast", written: "200"), .undrawnProperty("card.rotate-y"),
        .fractionalCount("2.5"), .inexactCount("pi/pi"), .countTooLarge(1e30), .fractionalSteps("2.5"), .tooManySteps("1e30"),
        .numberTooLarge("1e999"), .notFiniteNumber("1e300 * 1e300"), .divisionByZero("1/0"), .unknownEasing("ease-inout"),
        .unexpectedEasingParameter("linear"), .highNotApplicable("linear"), .highWithParameter,
        .invalidEasing(.invalidEasing("steps needs at least 1 step (got 0)")), .unknownStepPosition("jump-strat"),
        .unknownSpringParameter("stifness"), .duplicateSpringParameter("damping"), .missingSpringParameter,
        .conflictingSpringParameters("mass"), .invalidSpringParameter(name: "bounce", written: "1.5"),
        .invalidSpringParameter(name: "stiffness", written: "0"), .invalidSpringParameter(name: "damping", written: "-1"),
        .springNeverSettles("damping 0"), .springAdjectiveAlone("bouncy", found: .text("ease-out")),
        .unknownName("rigth"), .duplicateView("v"), .duplicateProperty(view: "v", property: "x"), .unknownOrigin("middle"), .duplicateLet("a"),
        .cycle("a", through: ["b"]), .unknownBinding("finl"), .noBinding, .noViews, .incompleteTween, .notFiniteTween,
        .notFiniteDuration, .negativeDuration(-1), .unrepresentableDuration(1e-30), .timeOverflow, .retimeInstant(Time(2)),
        .nonMonotoneWarp(.linear), .animation(.negativeCount(-1)), .cannotSample(binding: "a", .overflow("x")),
        .tooManyRows(binding: "a", duration: Time(2), fps: 10, limit: 1), .noSuchBinding("nope", file: "a.anim"),
        .unreadableFile(path: "a.anim", reason: "No such file or directory"), .cannotNormalize("x"),
        .unwritableFile(path: "out/a.html", reason: "No such file or directory"),
        .unknownCommand("frobnicate"), .missingCommand, .unknownOption("--bogus", command: "eval"),
        .optionNotAccepted("--width", command: "eval"), .missingValue(option: "--fps"), .unexpectedValue(option: "--tree"),
        .invalidValue(option: "--fps", value: "0", expected: "a whole number from 1 to 1000000"),
        .missingArgument(command: "eval", argument: "FILE"), .extraArgument(command: "eval", argument: "b.anim"),
        .standardInputTwice, .repeatedOption("--at"),
        .unwritableFile(path: "a.json", reason: "Permission denied"),
        .tooFewKeyframes, .unknownColor("reed"), .mixedColorSeparators, .colorArguments("rgb"),
        .colorChannel("red", written: "300", range: "0 to 255"), .keyframeOffsetOnEnd(first: true, written: "10%"),
        .keyframeOffsetRange(written: "120%"), .decreasingKeyframeOffset(written: "40%", previous: "50%"),
        .valueKind(verb: "fade", expected: "numbers", found: "a colour"),
        .mixedValueKinds(property: "a.color", here: "a number", first: "a colour"), .neverStarts,
        .needsUntil(binding: "spin"), .plotNeedsUntil(binding: "spin"), .conflictingOptions("--at", "--until"),
        .notATerminal(command: "play"), .portUnavailable(port: 8000, reason: "Address already in use"),
        .standardInputNotFollowed(command: "serve"),
        .animation(.infinite("reverse")),
        .animation(.foreverOfInstant), .staggerNothing, .reservedName("from", role: .event),
        .formatWouldChangeMeaning, .notFormatted(file: "a.anim"),
        .tie(property: "a.x", count: 2, from: "0", to: "1", playing: true),
        .tie(property: "a.x", count: 0, from: "1", to: "2", playing: false),
        .strayViews(views: ["ghost"], bindings: ["old"], target: "final"), .moreTies(total: 1000, shown: 10),
        .easingName("snappy", role: .binding), .easingName("linear", role: .parameter), .reservedName("by", role: .parameter),
        .duplicateParameter("v"), .missingDefault("b"), .parameterKinds(parameter: "v", first: "a view", second: "a number"),
        .recursion("f", through: ["g"]), .argumentCount("f", expected: "1 or 2 arguments", given: 3), .notCallable("f"),
        .needsArguments("f"), .argumentKind(callee: "f", parameter: "d", expected: "a duration", found: "a colour"),
        .nameKind("gap", found: "a duration", expected: "a number"), .unknownValue("gpa", expected: "a duration"),
        .callsTooDeep(limit: 64), .expansionTooLarge(limit: 100_000), .notAnAnimation("gap", kind: "a duration"),
        .namedOnce("view `crad`"), .bareDuration("300"),
        .durationArithmetic("1 / 2s", divides: true), .durationArithmetic("2s * 3s", divides: false), .unitOnDuration("gap"),
        .unitOnDuration(nil), .overlapTooLong(overlap: "2", before: "1"), .overlapWithoutBefore(first: true),
        .overlapWithoutBefore(first: false), .overlapAfterEndless, .staggerNegativeOffset("spaced ease-in-back"),
    ]

    @Test(arguments: samples)
    func idsAndMessagesFollowTheHouseStyle(_ kind: DiagnosticKind) {
        let id = kind.id
        #expect(!id.isEmpty && id == id.lowercased() && !id.contains(" "), "\(id)")
        #expect(kind.message.first.map { !$0.isUppercase } ?? false, "\(kind.message)")
        #expect(!kind.message.hasSuffix("."), "\(kind.message)")
        let diagnostic = Diagnostic(kind, at: SourceRange(1, 2), hint: "h")
        #expect(diagnostic.id == id && diagnostic.message == kind.message && diagnostic.severity == kind.severity)
    }

    @Test func messagesReadAsBefore() {
        #expect(DiagnosticKind.expectedToken(expected: "`=`", after: "`let a`", found: .text("b")).message
                == "expected `=` after `let a`, found `b`")
        #expect(DiagnosticKind.expectedExpression(after: "`;`", found: .endOfFile).message
                == "expected an animation after `;`, found end of file")
        #expect(DiagnosticKind.expectedExpression(after: nil, found: .text("2")).message == "expected an animation, found `2`")
        #expect(DiagnosticKind.unexpectedCharacter("\u{7}").message == "unexpected character U+0007 (a control character)")
        #expect(DiagnosticKind.unexpectedCharacter("`").message == "unexpected character '`'")
        #expect(DiagnosticKind.invalidUTF8(0x0A).message == "the file is not UTF-8 text: invalid byte 0x0A")
        #expect(DiagnosticKind.Found.text(String(repeating: "a", count: 30)).description == "`\(String(repeating: "a", count: 24))…`")
        #expect(DiagnosticKind.cycle("a", through: ["b", "c"]).message == "`a` refers to itself through `b`, `c`")
        #expect(DiagnosticKind.piInDegrees(written: "2*pi", degrees: 2 * Double.pi).severity == .warning)
        #expect(DiagnosticKind.piInDegrees(written: "2*pi", degrees: 2 * Double.pi).message == "`2*pi` degrees is 6.283 degrees")
        #expect(Diagnostic.Note(.parenOpenedHere, at: .none).message == "the `(` opened here")
        #expect(DiagnosticKind.reservedName("from", role: .event).message == "`from` is a reserved word and cannot name an event")
        #expect(DiagnosticKind.staggerNothing.severity == .warning && DiagnosticKind.staggerNothing.id == "stagger-nothing")
        #expect(DiagnosticKind.invalidPart("the part ends at 1s, before it starts at 2s").id == "invalid-part")
        #expect(DiagnosticKind.invalidPart("x").severity == .error)
        #expect(DiagnosticKind.afterBinding("show", why: "the file has no `let show`").message == "--after show: the file has no `let show`")
        #expect(DiagnosticKind.afterBinding("show", why: "").id == "invalid-after")
        #expect(DiagnosticKind.tie(property: "a.x", count: 0, from: "1", to: "2", playing: false).message
                == "`a.x` holds the ends of several tweens at once from 1s to 2s, so it shows their mean")
        #expect(DiagnosticKind.strayViews(views: (1...10).map { "v\($0)" }, bindings: (1...6).map { "b\($0)" }, target: "f").message
                == "`all views` includes `v1`, `v2`, `v3`, `v4`, `v5`, `v6`, `v7`, `v8` and 2 more, named only in `b1`, `b2`, `b3`, `b4` "
                + "and 2 more, which `f` does not use")
        #expect(Diagnostic.Note(.alsoDriven("a.x"), at: .none).message == "`a.x` is also driven here")
    }

    // MARK: Counts: checked once, by the parser

    static func firstCount(_ source: String) -> Count? {
        guard let expr = parse(SourceFile(name: "c.anim", text: source)).program.bindings.first?.value else { return nil }
        switch expr.kind {
        case .power(_, let count), .repeated(_, let count), .looped(_, let count): return count
        default: return nil
        }
    }

    @Test(arguments: [
        ("let a = x ^ 3", 3), ("let a = x repeated twice", 2), ("let a = x looped", 1), ("let a = x looped 0 times", 0),
        ("let a = x ^ 6/2", 3), ("let a = x ^ 9223372036854775807", Int.max),
    ])
    func validCountsCarryTheirValue(_ source: String, _ value: Int) {
        #expect(Self.firstCount(source)?.value == value)
    }

    @Test(arguments: [
        // `x ^ 2.5` is a fractional repeat (docs/semantics.md §8.5); `looped` still counts whole times.
        ("let a = fadeIn x looped 2.5 times", "count must be a whole number (got 2.5)"),
        ("let a = fadeIn x repeated -1 times", "count must not be negative (got -1)"),
        ("let a = fadeIn x looped 1/2 times", "count must be a whole number (got 1/2)"),
        ("let a = fadeIn x ^ 1e30", "count 1e+30 is too large"),
        ("let a = fadeIn x ^ pi/pi", "count must be an exact whole number (got pi/pi)"),
    ])
    func invalidCountsAreReportedOnceByTheParser(_ source: String, _ message: String) {
        let file = SourceFile(name: "c.anim", text: source)
        #expect(Self.firstCount(source)?.value == nil)
        let parsed = parse(file)
        #expect(parsed.diagnostics.map(\.message) == [message])
        let lowering = lower(resolve(parsed.program))
        #expect(lowering.diagnostics.isEmpty, "the lowering reported again: \(lowering.diagnostics.map(\.message))")
        #expect(lowering.terms["a"] == nil)
        let evaluation = evaluate(lowering)
        #expect(evaluation.diagnostics.isEmpty, "the evaluator reported again: \(evaluation.diagnostics.map(\.message))")
        #expect(evaluation.scenes["a"] == nil)
        #expect(run(file).diagnostics.map(\.message) == [message])
    }

    @Test func aCountBuiltByHandIsCheckedToo() {
        #expect(Count(3).value == 3)
        #expect(Count(number: Number(2.5)).value == nil)
        var count = Count(2)
        count.number = Number(-1)
        #expect(count.value == nil)
    }
}
