import Testing
@testable import AnimLang
@testable import AnimOutputs
import Animations

// MARK: - Helpers for writing expected trees by hand

private func parseSource(_ source: String) -> ParseResult {
    parse(SourceFile(name: "test.anim", text: source))
}

/// The value of `let x = SOURCE`, which must parse without diagnostics.
private func parseExpr(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Expr {
    let result = parseSource("let x = " + source)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))", sourceLocation: sourceLocation)
    return result.program.bindings.first?.value ?? Expr(.one)
}

private func name(_ text: String) -> Expr { Expr(.name(text)) }
private func seq(_ operands: Expr...) -> Expr { Expr(.sequence(operands)) }
private func par(_ operands: Expr...) -> Expr { Expr(.parallel(operands)) }

/// An exact decimal number.
private func num(_ text: String) -> Number {
    Number(Time(decimal: text) ?? .zero)
}

private func seconds(_ text: String) -> Duration { Duration(number: num(text), unit: .seconds) }
private func count(_ value: Int64) -> Count { Count(value) }

private func tween(_ verb: TweenSyntax.Verb, _ view: String, _ property: String? = nil, from: Number? = nil, to: Number? = nil,
           unit: TweenSyntax.AngleUnit? = nil) -> Expr {
    let target: Target = view == "*" ? .allViews(.none) : .view(view, .none)
    return Expr(.tween(TweenSyntax(verb: verb, target: target, property: property, from: from, to: to, angleUnit: unit)))
}

private func eased(_ expr: Expr, _ easing: Easing) -> Expr { Expr(.eased(expr, easing, .none)) }

private let twoPi = Number(exact: nil, value: 2 * Double.pi, mentionsPi: true)

@Suite struct ParserTests {
    // MARK: The talk

    @Test func talkProgramFromTheSlides() throws {
        let source = """
            let left =
              shrink circle from radius 100 to 10 with an ease-in-out

            let right =
              rotate square from 0 to 2*pi degrees with a high ease-out

            let animations = (left + right) looped once

            let final = fadeIn all views * animations
            """
        let result = parseSource(source)
        let expected = Program(items: [
            .binding(Binding(name: "left", value: eased(tween(.shrink, "circle", "radius", from: num("100"), to: num("10")), try .easeInOut()))),
            .binding(Binding(name: "right", value: eased(tween(.rotate, "square", from: num("0"), to: twoPi, unit: .degrees), try .easeOut(1.5)))),
            .binding(Binding(name: "animations", value: Expr(.looped(par(name("left"), name("right")), count(1))))),
            .binding(Binding(name: "final", value: seq(tween(.fadeIn, "*"), name("animations")))),
        ])
        #expect(result.program == expected)
        // `2*pi degrees` is 6.283 degrees, as written: a warning, not an error.
        #expect(result.diagnostics.map(\.id) == ["pi-in-degrees"])
        #expect(result.diagnostics.first?.severity == .warning)
        #expect(result.diagnostics.first?.message == "`2*pi` degrees is 6.283 degrees")
        #expect(!result.hasErrors)
    }

    @Test func talkProgramWithCanonicalOperators() throws {
        let source = """
            let left = grow v1 from radius 10 to 100 with an ease-in-out
            let right = rotate v2 from 0 to 2*pi degrees with a high ease-out
            let animations = left || right
            let final = fadeIn all views ; animations
            """
        let result = parseSource(source)
        let expected = Program(items: [
            .binding(Binding(name: "left", value: eased(tween(.grow, "v1", "radius", from: num("10"), to: num("100")), try .easeInOut()))),
            .binding(Binding(name: "right", value: eased(tween(.rotate, "v2", from: num("0"), to: twoPi, unit: .degrees), try .easeOut(1.5)))),
            .binding(Binding(name: "animations", value: par(name("left"), name("right")))),
            .binding(Binding(name: "final", value: seq(tween(.fadeIn, "*"), name("animations")))),
        ])
        #expect(result.program == expected)
        #expect(result.diagnostics.map(\.id) == ["pi-in-degrees"])
    }

    @Test func grammarExampleInRadians() {
        let result = parseSource("""
            let left  = shrink circle from radius 100 to 10 with an ease-in-out
            let right = rotate square from 0 to 2*pi radians with a high ease-out
            let final = fadeIn all views * ((left + right) looped once)
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.program.bindings.last?.value
            == seq(tween(.fadeIn, "*"), Expr(.looped(par(name("left"), name("right")), count(1)))))
    }

    @Test func letBoundVerbNames() {
        let result = parseSource("""
            let grow = grow c from 1 to 2
            let red = animate c.hue from 0 to 1
            let fade = fade out c
            let x = (grow ; red) ; fade
            """)
        #expect(result.diagnostics.isEmpty)
        #expect(result.program.bindings.map(\.name) == ["grow", "red", "fade", "x"])
        #expect(result.program.bindings[1].value == tween(.animate, "c", "hue", from: num("0"), to: num("1")))
        #expect(result.program.bindings[3].value == seq(seq(name("grow"), name("red")), name("fade")))
    }

    // MARK: Items

    @Test func viewDeclarations() {
        let result = parseSource("view ball radius 20 opacity 0.5\nview dot\nlet a = fadeIn ball")
        #expect(result.diagnostics.isEmpty)
        #expect(result.program.views == [
            ViewDeclaration(name: "ball", initials: [.init(property: "radius", value: .number(num("20"))),
                                                     .init(property: "opacity", value: .number(num("0.5")))]),
            ViewDeclaration(name: "dot", initials: []),
        ])
        #expect(result.program.items.count == 3)
        #expect(parseSource("view v x -1 y 2*pi").program.views.first?.initials.map(\.value) == [.number(num("-1")), .number(twoPi)])
    }

    @Test func itemsMayShareALineOrSpanLines() {
        let result = parseSource("let a = x let b =\n  y\n ;\n z")
        #expect(result.diagnostics.isEmpty)
        #expect(result.program.bindings.map(\.value) == [name("x"), seq(name("y"), name("z"))])
    }

    /// grammar.md writes `let a = b ; let b = a`: a `;` right before `let` or `view` separates items.
    @Test func semicolonBeforeAnItemSeparates() {
        let result = parseSource("let a = b ; let b = a ; view v ; let c = v2")
        #expect(result.diagnostics.isEmpty)
        #expect(result.program.bindings.map(\.value) == [name("b"), name("a"), name("v2")])
        #expect(result.program.views.map(\.name) == ["v"])
    }

    @Test func emptyFileAndNoLetAreNotParseErrors() {
        #expect(parseSource("").diagnostics.isEmpty)
        #expect(parseSource("# only a comment\n").diagnostics.isEmpty)
        #expect(parseSource("view ball radius 2").diagnostics.isEmpty)
        #expect(parseSource("").program.items.isEmpty)
    }

    @Test func ranges() {
        let source = "let x = grow c from 1 to 2 reversed"
        let binding = parseSource(source).program.bindings[0]
        #expect(binding.nameRange == SourceRange(4, 5))
        #expect(binding.range == SourceRange(0, source.utf8.count))
        #expect(binding.value.range == SourceRange(8, source.utf8.count))
        guard case .reversed(let inner) = binding.value.kind else {
            Issue.record("expected reversed")
            return
        }
        #expect(inner.range == SourceRange(8, 26))
    }

    // MARK: Operators

    @Test(arguments: [
        ("a ; b || c", "(a ; b) || c"),
        ("a || b ; c", "a || (b ; c)"),
        ("a ; b reversed", "a ; (b reversed)"),
        ("a reversed ^ 2", "(a reversed) ^ 2"),
        ("a ^ 2 ^ 3", "(a ^ 2) ^ 3"),
        ("a + b * c", "a || (b ; c)"),
        ("a * b + c", "(a ; b) || c"),
        ("a ; b * c", "a ; b ; c"),
        ("a || b + c", "a || b || c"),
        ("a with linear in 2s", "(a with linear) in 2s"),
        ("a in 2s reversed", "(a in 2s) reversed"),
        ("a ; b ^ 2", "a ; (b ^ 2)"),
        ("a ^ 2 || b", "(a ^ 2) || b"),
    ])
    func precedenceAndAssociativity(written: String, means: String) {
        #expect(parseExpr(written) == parseExpr(means))
    }

    @Test func chainsAreOneNaryNode() {
        #expect(parseExpr("a ; b ; c") == seq(name("a"), name("b"), name("c")))
        #expect(parseExpr("(a ; b) ; c") == seq(seq(name("a"), name("b")), name("c")))
        #expect(parseExpr("a ; (b ; c)") == seq(name("a"), seq(name("b"), name("c"))))
        #expect(parseExpr("a || b || c || d") == par(name("a"), name("b"), name("c"), name("d")))
        #expect(parseExpr("a + b || c") == par(name("a"), name("b"), name("c")))
        #expect(parseExpr("a ; b || c ; d") == par(seq(name("a"), name("b")), seq(name("c"), name("d"))))
        #expect(parseExpr("((a))") == name("a"))
    }

    @Test func primaries() {
        #expect(parseExpr("zero") == Expr(.zero))
        #expect(parseExpr("cancelled") == Expr(.zero))
        #expect(parseExpr("one") == Expr(.one))
        #expect(parseExpr("empty") == Expr(.one))
        #expect(parseExpr("wait 500ms") == Expr(.wait(seconds("0.5"))))
        #expect(parseExpr("wait 2") == Expr(.wait(Duration(number: num("2"), unit: .implicit))))
    }

    // MARK: Modifiers

    @Test func everyModifier() throws {
        let a = name("a")
        #expect(parseExpr("a reversed") == Expr(.reversed(a)))
        #expect(parseExpr("a looped") == Expr(.looped(a, count(1))))
        #expect(parseExpr("a looped once") == Expr(.looped(a, count(1))))
        #expect(parseExpr("a looped twice") == Expr(.looped(a, count(2))))
        #expect(parseExpr("a looped 3 times") == Expr(.looped(a, count(3))))
        #expect(parseExpr("a repeated once") == Expr(.repeated(a, count(1))))
        #expect(parseExpr("a repeated twice") == Expr(.repeated(a, count(2))))
        #expect(parseExpr("a repeated 4 times") == Expr(.repeated(a, count(4))))
        #expect(parseExpr("a ^ 3") == Expr(.power(a, count(3))))
        #expect(parseExpr("a ^ 0") == Expr(.power(a, count(0))))
        #expect(parseExpr("a delayed by 0.5s") == Expr(.delayed(a, seconds("0.5"))))
        #expect(parseExpr("a in 2s") == Expr(.retimed(a, seconds("2"))))
        #expect(parseExpr("a with ease-in") == eased(a, try .easeIn()))
        #expect(parseExpr("a with an ease-in-out") == eased(a, try .easeInOut()))
        #expect(parseExpr("a with a high ease-in") == eased(a, try .easeIn(1.5)))
        #expect(parseExpr("a with high ease-in-out") == eased(a, try .easeInOut(1.5)))
        #expect(parseExpr("a reversed looped twice in 3s") == Expr(.retimed(Expr(.looped(Expr(.reversed(a)), count(2))), seconds("3"))))
        #expect(parseExpr("a looped 2*2 times") == Expr(.looped(a, count(4))))
    }

    /// `tween in DUR` is a `retimed` node over the tween's node, as any
    /// modifier over its operand, with every range the parser gives a
    /// `retimed` node: the whole, the modifier, the tween's and the duration's.
    @Test func retimedTweenRanges() throws {
        let source = "let x = animate box.x from 0 to 1 in 0.1s"
        let value = parseSource(source).program.bindings.first?.value ?? Expr(.one)
        let tween = Expr(.tween(TweenSyntax(verb: .animate, target: .view("box", .none), property: "x", from: num("0"), to: num("1"))))
        #expect(value == Expr(.retimed(tween, seconds("0.1"))))
        #expect(value.range == SourceRange(8, 41) && value.modifier == SourceRange(34, 41))
        guard case .retimed(let inner, let duration) = value.kind else {
            Issue.record("not read back as `retimed`")
            return
        }
        #expect(inner.range == SourceRange(8, 33) && inner.modifier == .none)
        if case .tween(let written) = inner.kind { #expect(written.range == SourceRange(8, 33)) }
        #expect(duration.range == SourceRange(37, 41) && duration.number.range == SourceRange(37, 40) && duration.unit == .seconds)
        // In parentheses, or retimed twice, it is the same `retimed` node.
        let parenthesized = parseSource("let x = (animate box.x from 0 to 1) in 2").program.bindings.first?.value ?? Expr(.one)
        #expect(parenthesized == Expr(.retimed(tween, Duration(number: num("2"), unit: .implicit))))
        let twice = parseSource("let x = animate box.x from 0 to 1 in 1s in 2s").program.bindings.first?.value ?? Expr(.one)
        #expect(twice == Expr(.retimed(Expr(.retimed(tween, seconds("1"))), seconds("2"))))
        // The printer reads it as it reads the `retimed` node.
        #expect(format(parseSource(source).program) == format(Program(items: [.binding(Binding(name: "x",
            value: Expr(.retimed(tween, seconds("0.1")))))])))
    }

    @Test func easings() throws {
        let a = name("a")
        #expect(parseExpr("a with linear") == eased(a, .linear))
        #expect(parseExpr("a with ease-out(3)") == eased(a, try .easeOut(3)))
        #expect(parseExpr("a with ease-in(1/2)") == eased(a, try .easeIn(0.5)))
        #expect(parseExpr("a with ease") == eased(a, .ease))
        #expect(parseExpr("a with css-ease-in-out") == eased(a, .cssEaseInOut))
        #expect(parseExpr("a with ease-in-out-bounce") == eased(a, .penner(.bounce, .inOut)))
        #expect(parseExpr("a with step-start") == eased(a, try .steps(1, .jumpStart)))
        #expect(parseExpr("a with cubic-bezier(0.1, 0.7, 1, 0.1)") == eased(a, try .cubicBezier(0.1, 0.7, 1, 0.1)))
        #expect(parseExpr("a with cubic-bezier(0, -0.5, 1, 1 + 0.5)") == eased(a, try .cubicBezier(0, -0.5, 1, 1.5)))
        #expect(parseExpr("a with steps(4)") == eased(a, try .steps(4)))
        for (written, position) in [("jump-start", Easing.StepPosition.jumpStart), ("start", .jumpStart), ("jump-end", .jumpEnd),
                                    ("end", .jumpEnd), ("jump-none", .jumpNone), ("jump-both", .jumpBoth)] {
            #expect(parseExpr("a with steps(4, \(written))") == eased(a, try .steps(4, position)))
        }
        #expect(parseExpr("a with compose(ease-in, steps(3))") == eased(a, try Easing.easeIn().composed(after: .steps(3))))
        #expect(parseExpr("a with compose(compose(ease, linear), ease-out-quad)") == eased(a, Easing.ease.composed(after: .penner(.quad, .out))))
        // The easing's own range is kept.
        let source = "let x = a with a high ease-out(2)"
        if case .eased(_, _, let range) = parseSource(source).program.bindings.first?.value.kind {
            #expect(range == SourceRange(17, source.utf8.count))
        } else {
            Issue.record("expected an eased expression")
        }
    }

    // MARK: Tweens

    @Test func everyTweenForm() {
        #expect(parseExpr("shrink c from radius 100 to 10") == tween(.shrink, "c", "radius", from: num("100"), to: num("10")))
        #expect(parseExpr("shrink c from 2 to 1") == tween(.shrink, "c", from: num("2"), to: num("1")))
        #expect(parseExpr("grow c from 1 to 2") == tween(.grow, "c", from: num("1"), to: num("2")))
        #expect(parseExpr("grow c from width 1 to 2") == tween(.grow, "c", "width", from: num("1"), to: num("2")))
        #expect(parseExpr("scale c from 1 to 2") == tween(.scale, "c", from: num("1"), to: num("2")))
        #expect(parseExpr("rotate c from 0 to 90") == tween(.rotate, "c", from: num("0"), to: num("90")))
        #expect(parseExpr("rotate c from 0 to 1 turns") == tween(.rotate, "c", from: num("0"), to: num("1"), unit: .turns))
        #expect(parseExpr("fadeIn c") == tween(.fadeIn, "c"))
        #expect(parseExpr("fade in c") == tween(.fadeIn, "c"))
        #expect(parseExpr("fadeOut c") == tween(.fadeOut, "c"))
        #expect(parseExpr("fade out c") == tween(.fadeOut, "c"))
        #expect(parseExpr("fade c from 0.2 to 0.8") == tween(.fade, "c", from: num("0.2"), to: num("0.8")))
        #expect(parseExpr("animate c.radius from 100 to 10") == tween(.animate, "c", "radius", from: num("100"), to: num("10")))
        #expect(parseExpr("animate my-view.corner-radius from 0 to 8") == tween(.animate, "my-view", "corner-radius", from: num("0"), to: num("8")))
    }

    @Test(arguments: [
        ("degrees", TweenSyntax.AngleUnit.degrees), ("deg", .degrees), ("radians", .radians), ("rad", .radians), ("turns", .turns),
    ])
    func angleUnits(written: String, unit: TweenSyntax.AngleUnit) {
        #expect(parseExpr("rotate c from 0 to 1 \(written)") == tween(.rotate, "c", from: num("0"), to: num("1"), unit: unit))
    }

    @Test func targets() {
        #expect(parseExpr("fadeIn all views") == tween(.fadeIn, "*"))
        #expect(parseExpr("fadeIn all") == tween(.fadeIn, "*"))
        #expect(parseExpr("fade in all views") == tween(.fadeIn, "*"))
        #expect(parseExpr("grow all from 1 to 2") == tween(.grow, "*", from: num("1"), to: num("2")))
        #expect(parseExpr("fade all views from 1 to 0") == tween(.fade, "*", from: num("1"), to: num("0")))
        // Contextual words are fine as view names.
        #expect(parseExpr("fadeIn views") == tween(.fadeIn, "views"))
        #expect(parseExpr("grow once from 1 to 2") == tween(.grow, "once", from: num("1"), to: num("2")))
    }

    // MARK: Contextual verbs

    @Test func verbsAreContextual() {
        #expect(parseExpr("fade in circle") == tween(.fadeIn, "circle"))
        #expect(parseExpr("fade in 2s") == Expr(.retimed(name("fade"), seconds("2"))))
        #expect(parseExpr("fade out circle") == tween(.fadeOut, "circle"))
        // `out` is not reserved: here it is the view being faded.
        #expect(parseExpr("fade out from 0 to 1") == tween(.fade, "out", from: num("0"), to: num("1")))
        #expect(parseExpr("fade") == name("fade"))
        #expect(parseExpr("grow ; shrink || rotate") == par(seq(name("grow"), name("shrink")), name("rotate")))
        #expect(parseExpr("rotate with ease-in") == eased(name("rotate"), EasingNames.easing(named: "ease-in") ?? .linear))
        #expect(parseExpr("fadeIn reversed") == Expr(.reversed(name("fadeIn"))))
        #expect(parseExpr("animate in 2s") == Expr(.retimed(name("animate"), seconds("2"))))
        #expect(parseExpr("(fadeIn)") == name("fadeIn"))
        #expect(parseExpr("grow grow from 1 to 2") == tween(.grow, "grow", from: num("1"), to: num("2")))
    }

    // MARK: Durations

    @Test func valuesAlreadyReportedAreStoredAsZero() {
        let result = parseSource("let x = wait 1/0 ; grow c from 1e999 to 2 ^ (0/0)")
        #expect(result.diagnostics.map(\.id) == ["division-by-zero", "non-finite-number", "division-by-zero"])
        #expect(result.program.bindings.first?.value
            == seq(Expr(.wait(seconds("0"))), Expr(.power(tween(.grow, "c", from: num("0"), to: num("2")), count(0)))))
        // A negative duration is left to the evaluator.
        #expect(parseSource("let x = wait -1s").diagnostics.isEmpty)
    }

    @Test func durationUnits() {
        #expect(parseExpr("wait 2") == Expr(.wait(seconds("2"))))
        for written in ["2s", "2 s", "2sec", "2 seconds", "2000ms", "2000 ms"] {
            #expect(parseExpr("wait \(written)") == Expr(.wait(seconds("2"))), "\(written)")
        }
        let units = ["wait 2": Duration.Unit.implicit, "wait 2s": .seconds, "wait 2 sec": .seconds, "wait 2 seconds": .seconds, "wait 2ms": .milliseconds]
        for (source, unit) in units {
            if case .wait(let duration) = parseExpr(source).kind {
                #expect(duration.unit == unit, "\(source)")
            } else {
                Issue.record("expected wait for \(source)")
            }
        }
        // Durations are exact: 0.1 + 0.2 is exactly 0.3.
        if case .wait(let duration) = parseExpr("wait 0.1 + 0.2").kind {
            #expect(duration.exactSeconds == Time(decimal: "0.3"))
        }
        #expect(parseExpr("wait 250ms") == Expr(.wait(seconds("0.25"))))
        #expect(parseExpr("wait 1/3") == Expr(.wait(Duration(number: Number(Time(numerator: 1, denominator: 3) ?? .zero)))))
        #expect(parseExpr("wait (1 + 2)s") == Expr(.wait(seconds("3"))))
    }

    // MARK: Numbers

    @Test func numberFolding() {
        func value(_ source: String) -> Number {
            if case .tween(let tween) = parseExpr("grow c from 0 to \(source)").kind, case .number(let to)? = tween.to { return to }
            Issue.record("expected a tween for \(source)")
            return num("0")
        }
        #expect(value("2*pi") == twoPi)
        #expect(value("2*pi").mentionsPi)
        #expect(value("2*pi").exact == nil)
        #expect(value("tau") == twoPi)
        #expect(value("pi/2").value == Double.pi / 2)
        #expect(value("1/3").exact == Time(numerator: 1, denominator: 3))
        #expect(value("1/3").value == 1.0 / 3.0)
        #expect(value("0.1 + 0.2").exact == Time(decimal: "0.3"))
        #expect(value("0.1 + 0.2").value == 0.3)      // correctly rounded, not 0.30000000000000004
        #expect(value("-2") == num("-2"))
        #expect(value("- -2") == num("2"))
        #expect(value("2 - -1") == num("3"))
        #expect(value("(1 + 2) * 3") == num("9"))
        #expect(value("(2 * (3 + 4))") == num("14"))
        // In a clause the kinds decide (docs/semantics.md §8.4): `*` before a `(` that starts a number is arithmetic, 2 · 7.
        #expect(parseSource("let x = grow c from 0 to 2 * (3 + 4)").diagnostics.isEmpty)
        // … and before a `(` that starts an animation it is a sequence.
        #expect(parseSource("let x = grow c from 0 to 2 * (fadeIn c)").diagnostics.isEmpty)
        #expect(value("-(1 + 2)") == num("-3"))
        #expect(value("1 - 2 - 3") == num("-4"))       // left-associative
        #expect(value("12 / 2 / 3") == num("2"))
        #expect(value("1 + 2 * 3") == num("7"))        // * before +
        #expect(value("1e-3") == num("0.001"))
        #expect(value("12.5E+2") == num("1250"))
        #expect(value("0.1").value == 0.1)
        #expect(value("-0").value.sign == .plus)
        // Overflowing the exact rationals falls back to Double arithmetic.
        #expect(value("9000000000000000000 * 10").exact == nil)
        #expect(value("9000000000000000000 * 10").value == 9e19)
        #expect(value("1e30").exact == nil)
        #expect(value("1e30").value == 1e30)
    }

    @Test func continuationRule() {
        // `*` and `+` before a name or `(`: the clause ends, the operator is an animation operator.
        #expect(parseExpr("fadeIn all views * animations") == seq(tween(.fadeIn, "*"), name("animations")))
        #expect(parseExpr("wait 1 + x") == par(Expr(.wait(seconds("1"))), name("x")))
        #expect(parseExpr("wait 1 * x") == seq(Expr(.wait(seconds("1"))), name("x")))
        #expect(parseExpr("wait 1 * (x)") == seq(Expr(.wait(seconds("1"))), name("x")))
        #expect(parseExpr("wait 1 + (x ; y)") == par(Expr(.wait(seconds("1"))), seq(name("x"), name("y"))))
        #expect(parseExpr("grow c from 1 to 2 * x") == seq(tween(.grow, "c", from: num("1"), to: num("2")), name("x")))
        // … before a number, `pi`, `tau` or `-`: arithmetic.
        #expect(parseExpr("wait 1 + 2") == Expr(.wait(seconds("3"))))
        #expect(parseExpr("wait 2 * 3") == Expr(.wait(seconds("6"))))
        #expect(parseExpr("grow c from 0 to 2 * -1") == tween(.grow, "c", from: num("0"), to: num("-2")))
        #expect(parseExpr("grow c from 0 to 1 + -1") == tween(.grow, "c", from: num("0"), to: num("0")))
        #expect(parseExpr("rotate c from 0 to 2 * pi radians") == tween(.rotate, "c", from: num("0"), to: twoPi, unit: .radians))
        #expect(parseExpr("rotate c from 0 to 1 + tau radians").kind == tween(.rotate, "c", from: num("0"), to: Number(exact: nil, value: 1 + 2 * Double.pi), unit: .radians).kind)
        // `/` always continues; `-` also before `(`.
        #expect(parseExpr("wait 6 / (2)") == Expr(.wait(seconds("3"))))
        #expect(parseExpr("grow c from 0 to 3 - (1)") == tween(.grow, "c", from: num("0"), to: num("2")))
        // Inside parentheses that start a number, every operator is arithmetic.
        #expect(parseExpr("grow v from (1 + 2) * 3 to 4") == tween(.grow, "v", from: num("9"), to: num("4")))
        #expect(parseExpr("grow v from (2 * (1 + 1)) to 4") == tween(.grow, "v", from: num("4"), to: num("4")))
        // A count follows the same rule.
        #expect(parseExpr("a ^ 2 * b") == seq(Expr(.power(name("a"), count(2))), name("b")))
        #expect(parseExpr("a ^ 2 * 3") == Expr(.power(name("a"), count(6))))
        #expect(parseExpr("a ^ 2 + b") == par(Expr(.power(name("a"), count(2))), name("b")))
    }

    // MARK: Limits

    @Test func deepButAllowedNesting() {
        let depth = 200
        let source = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
        #expect(parseExpr(source) == name("a"))
        let modifiers = "a" + String(repeating: " reversed", count: 200)
        #expect(!parseSource("let x = " + modifiers).hasErrors)
    }

    @Test func longFlatChainIsOneNode() {
        let steps = 100_000
        var source = "let x = a"
        source.reserveCapacity(steps * 4 + 16)
        for _ in 1..<steps { source += " ; a" }
        let result = parseSource(source)
        #expect(result.diagnostics.isEmpty)
        if case .sequence(let operands) = result.program.bindings.first?.value.kind {
            #expect(operands.count == steps)
        } else {
            Issue.record("expected one sequence node")
        }
    }
}
