import Testing
import AnimTestSupport
@testable import AnimLang
@testable import AnimOutputs
import Animations

private func reformat(_ source: String) -> String {
    let result = parse(SourceFile(name: "test.anim", text: source))
    #expect(!result.hasErrors, "\(result.diagnostics.map(\.message))")
    return format(result.program)
}

/// The printed form of `let x = SOURCE`, without `let x = `.
private func reformatExpr(_ source: String) -> String {
    let result = parse(SourceFile(name: "test.anim", text: "let x = " + source))
    #expect(!result.hasErrors, "\(result.diagnostics.map(\.message))")
    return result.program.bindings.first.map { format($0.value) } ?? ""
}

@Suite struct RoundTripTests {
    /// The fuzzer's seed fuzz/seeds/durations-and-overlaps.anim: `let ratio = beat / gap` prints as
    /// `(beat / gap)`, which read as an animation in parentheses (no literal inside) and failed on `/`.
    /// A `(` before a name bound to a number or a duration starts a number.
    @Test func aQuotientOfNamedDurationsReadsBackInParentheses() {
        let source = "let gap = 80ms\nlet beat = (gap + 50ms) * 3\nlet ratio = beat / gap\n"
        let first = parse(SourceFile(name: "a.anim", text: source))
        #expect(!first.hasErrors)
        let printed = format(first.program)
        let again = parse(SourceFile(name: "b.anim", text: printed))
        #expect(!again.hasErrors, "\(printed)\n\(again.diagnostics.map(\.message))")
        #expect(again.program == first.program, "\(printed)")
        #expect(!parse(SourceFile(name: "c.anim", text: "let gap = 80ms\nlet ratio = (gap * 3 / gap)\n")).hasErrors)
    }

    // MARK: Properties over generated programs

    @Test(arguments: [1, 2, 3, 42, 0xC0FFEE, 0x5EED_2024] as [UInt64])
    func printedProgramsParseBackToTheSameTree(seed: UInt64) {
        var generator = ProgramGenerator(seed: seed)
        for index in 0..<500 {
            let program = generator.program()
            let text = format(program)
            let result = parse(SourceFile(name: "generated.anim", text: text))
            let reprinted = format(result.program)
            // Warnings of likely mistakes (an opacity past 1 that the generator
            // writes freely) are not round-trip failures; errors are.
            let ok = !result.hasErrors && result.program == program && reprinted == text
            #expect(!result.hasErrors, "seed \(seed), program \(index): \(result.diagnostics.map(\.message))\n\(text)")
            #expect(result.program == program, "seed \(seed), program \(index) parses back differently:\n\(text)")
            #expect(reprinted == text, "seed \(seed), program \(index) prints differently the second time:\n\(text)\n---\n\(reprinted)")
            if !ok { return }   // one replayable failure is enough
        }
    }

    /// The generator reaches every construct the properties are meant to cover.
    @Test func generatorCoversEveryConstruct() {
        var generator = ProgramGenerator(seed: 1)
        var seen = Set<String>()
        func visit(_ number: Number) {
            if number.formula != nil { seen.insert("formula") }
            seen.insert(number.exact == nil ? "inexact" : "exact")
            if number.value < 0 { seen.insert("negative") }
            if let exact = number.exact, exact.denominator % 3 == 0 || exact.denominator % 7 == 0 || exact.denominator % 11 == 0 {
                seen.insert("fraction")
            }
        }
        func visit(_ easing: Easing) {
            switch easing.kind {
            case .linear: seen.insert("linear")
            case .easeIn, .easeOut, .easeInOut: seen.insert("talk")
            case .cubicBezier: seen.insert("cubic-bezier")
            case .steps(_, let position): seen.insert("steps " + position.rawValue)
            case .penner: seen.insert("penner")
            case .spring(let spring):
                seen.insert(spring.dampingRatio < 1 ? "spring under" : spring.dampingRatio == 1 ? "spring critical" : "spring over")
                if spring.angularFrequency != 1 { seen.insert("spring physical") }
                if spring.velocity != 0 { seen.insert("spring velocity") }
            case .composed(let outer, let inner):
                seen.insert("compose")
                visit(outer)
                visit(inner)
            case .mirror: seen.insert("mirror")
            case .piecewise: seen.insert("linear points")
            }
        }
        func visit(_ expr: Expr) {
            switch expr.kind {
            case .name: seen.insert("name")
            case .zero: seen.insert("zero")
            case .one: seen.insert("one")
            case .wait(let duration):
                seen.insert("wait")
                seen.insert("unit " + duration.unit.rawValue)
            case .tween(let tween):
                seen.insert(tween.verb.rawValue)
                if case .allViews = tween.target { seen.insert("all views") }
                if tween.property != nil, tween.verb != .animate { seen.insert("property") }
                if let unit = tween.angleUnit { seen.insert(unit.rawValue) }
                for stop in tween.stops ?? [] {
                    switch stop.value {
                    case .number(let number): visit(number)
                    case .color: seen.insert("colour")
                    case .point(let x, let y, _): seen.insert("point"); visit(x); visit(y)
                    }
                    if stop.offset != nil { seen.insert("offset") }
                    if stop.easing != nil { seen.insert("keyframe easing") }
                }
                if tween.keyframes != nil { seen.insert("keyframes") }
            case .parallel(let operands):
                seen.insert("parallel")
                if operands.contains(where: { if case .parallel = $0.kind { return true } else { return false } }) { seen.insert("nested parallel") }
                operands.forEach(visit)
            case .sequence(let operands):
                seen.insert("sequence")
                if operands.contains(where: { if case .sequence = $0.kind { return true } else { return false } }) { seen.insert("nested sequence") }
                operands.forEach(visit)
            case .power(let operand, _): seen.insert("power"); visit(operand)
            case .reversed(let operand): seen.insert("reversed"); visit(operand)
            case .looped(let operand, _): seen.insert("looped"); visit(operand)
            case .repeated(let operand, _): seen.insert("repeated"); visit(operand)
            case .delayed(let operand, _): seen.insert("delayed"); visit(operand)
            case .retimed(let operand, _): seen.insert("retimed"); visit(operand)
            case .eased(let operand, let easing, _):
                seen.insert("eased")
                visit(easing)
                visit(operand)
            case .emit: seen.insert("emit")
            case .staggered(let operand, _, let how):
                seen.insert(how.backwards ? "staggered backwards" : how.over ? "staggered over" : "staggered")
                if !how.backwards, how.origin != .start { seen.insert("stagger from \(how.origin.rawValue)") }
                if how.spacing != nil { seen.insert("stagger spaced") }
                visit(operand)
            case .overlapping(let operand, _): seen.insert("overlapping"); visit(operand)
            case .forever(let operand, let looped): seen.insert(looped ? "looped forever" : "repeated forever"); visit(operand)
            case .call(_, let arguments): seen.insert("call"); arguments.forEach(visit)
            case .easedByName(let operand, _, _): seen.insert("named easing"); visit(operand)
            case .value: seen.insert("value let")
            case .played(let operand, let from, let to):
                seen.insert("played")
                for time in [from, to] {
                    if case .percent? = time?.kind { seen.insert("played percent") }
                }
                visit(operand)
            }
            switch expr.kind {
            case .power(_, let count), .repeated(_, let count): if count.fraction != nil { seen.insert("fractional count") }
            default: break
            }
        }
        for _ in 0..<500 {
            let program = generator.program()
            program.bindings.forEach { visit($0.value) }
            if program.bindings.contains(where: { $0.parameters != nil }) { seen.insert("parameters") }
            if !program.views.isEmpty { seen.insert("view") }
        }
        let expected: Set<String> = [
            "name", "zero", "one", "wait", "unit ", "unit s", "unit ms",
            "shrink", "grow", "scale", "rotate", "fadeIn", "fadeOut", "fade", "animate", "all views", "property",
            "degrees", "radians", "turns",
            "parallel", "sequence", "nested parallel", "nested sequence",
            "power", "reversed", "looped", "repeated", "delayed", "retimed", "eased",
            "linear", "talk", "cubic-bezier", "penner", "compose",
            "spring under", "spring critical", "spring over", "spring physical", "spring velocity",
            "steps jump-start", "steps jump-end", "steps jump-none", "steps jump-both",
            "exact", "inexact", "negative", "fraction", "view",
            "color", "move", "colour", "point", "keyframes", "offset", "emit", "staggered", "staggered backwards",
            "looped forever", "repeated forever", "call", "named easing", "value let", "formula", "parameters",
            "staggered over", "stagger from end", "stagger from center", "stagger from edges", "stagger spaced", "overlapping",
            "keyframe easing",
            "played", "played percent", "fractional count",
        ]
        #expect(expected.subtracting(seen).isEmpty, "never generated: \(expected.subtracting(seen).sorted())")
        #expect(!seen.contains("mirrored"))
    }

    // MARK: Canonical spelling

    @Test(arguments: [
        ("x + y", "x || y"),
        ("x * y", "x ; y"),
        ("x ; y || z", "x ; y || z"),
        ("cancelled", "zero"),
        ("empty", "one"),
        ("wait 500ms", "wait 0.5s"),
        ("wait 2", "wait 2s"),
        ("wait 1.5 sec", "wait 1.5s"),
        ("wait 1/3", "wait (1/3)s"),
        ("wait 1 seconds", "wait 1s"),
        ("x looped once", "x looped"),
        ("x looped", "x looped"),
        ("x looped twice", "x looped 2 times"),
        ("x repeated once", "x repeated 1 times"),
        ("x repeated twice", "x repeated 2 times"),
        ("x ^ 3", "x ^ 3"),
        ("x delayed by 250ms", "x delayed by 0.25s"),
        ("x in 2 s", "x in 2s"),
        ("x with a high ease-out", "x with ease-out(1.5)"),
        ("x with an ease-in-out", "x with ease-in-out"),
        ("x with ease-out(2)", "x with ease-out"),
        ("x with css-ease", "x with ease"),
        ("x with cubic-bezier(0.42, 0, 1, 1)", "x with css-ease-in"),
        ("x with steps(3, end)", "x with steps(3)"),
        ("x with steps(3, start)", "x with steps(3, jump-start)"),
        ("x with compose(ease-in, linear)", "x with ease-in"),
        ("x with compose(ease-in, steps(2))", "x with compose(ease-in, steps(2))"),
        // Springs: one spelling per (ζ, ω, v), the shortest that reads back exactly.
        ("x with smooth spring", "x with spring"),
        ("x with a bouncy spring", "x with bouncy spring"),
        ("x with spring(bounce 0.3)", "x with bouncy spring"),
        ("x with spring(bounce 0.15)", "x with snappy spring"),
        ("x with spring(bounce 0)", "x with spring"),
        ("x with spring(bounce -0.5)", "x with spring(bounce -0.5)"),
        ("x with spring(bounce 0.7)", "x with spring(bounce 0.7)"),
        ("x with spring(stiffness 1, damping 1)", "x with spring(bounce 0.5)"),
        ("x with spring(stiffness 1, damping 0.2)", "x with spring(stiffness 1, damping 0.2)"),
        ("x with spring(damping 12, stiffness 200)", "x with spring(stiffness 200, damping 12)"),
        ("x with spring(stiffness 100)", "x with spring(stiffness 100, damping 10)"),
        ("x with spring(velocity 5)", "x with spring(stiffness 100, damping 10, velocity 5)"),
        ("x with spring(mass 2, stiffness 200)", "x with spring(stiffness 100, damping 5)"),
        ("x with spring(mass 4, stiffness 4)", "x with spring(bounce -0.2)"),
        ("x with spring(stiffness 1e300)", "x with spring(stiffness 1e+300, damping 10)"),
        ("x with compose(spring, ease-in)", "x with compose(spring, ease-in)"),
        ("fade in c", "fadeIn c"),
        ("fade out all", "fadeOut all views"),
        ("fade all from 0 to 1", "fade all views from 0 to 1"),
        ("shrink circle from radius 100 to 10", "shrink circle from radius 100 to 10"),
        ("grow c from 1 to 2", "grow c from 1 to 2"),
        ("scale c from 0.5 to 1", "scale c from 0.5 to 1"),
        ("rotate square from 0 to 2*pi radians", "rotate square from 0 to 6.283185307179586 radians"),
        ("rotate c from 0 to 90 deg", "rotate c from 0 to 90 degrees"),
        ("rotate c from 0 to 1 rad", "rotate c from 0 to 1 radians"),
        ("rotate c from 0 to 90", "rotate c from 0 to 90"),
        ("animate c.radius from 1 to 2", "animate c.radius from 1 to 2"),
        ("grow c from -1 to -2.5", "grow c from -1 to -2.5"),
        ("grow c from 1/3 to 2/4", "grow c from 1/3 to 0.5"),
        ("grow c from 0.1 + 0.2 to 1e-3", "grow c from 0.3 to 0.001"),
        ("grow c from 1e30 to 2e-300", "grow c from 1e+30 to 2e-300"),
        ("grow c from -pi to tau", "grow c from -3.141592653589793 to 6.283185307179586"),
        ("fade in 2s", "fade in 2s"),
        ("(grow ; red) ; fade", "(grow ; red) ; fade"),
    ])
    func canonicalSpelling(written: String, printed: String) {
        #expect(reformatExpr(written) == printed)
    }

    @Test(arguments: [
        ("a ; (b ; c)", "a ; (b ; c)"),
        ("(a ; b) ; c", "(a ; b) ; c"),
        ("(a ; b) || c", "a ; b || c"),
        ("(a || b) ; c", "(a || b) ; c"),
        ("a || (b || c)", "a || (b || c)"),
        ("((a))", "a"),
        ("(a reversed) ^ 2", "a reversed ^ 2"),
        ("(a ^ 2) reversed", "(a ^ 2) reversed"),
        ("(a ^ 2) ^ 3", "(a ^ 2) ^ 3"),
        ("(a ; b) reversed", "(a ; b) reversed"),
        ("(a || b) with linear in 2s", "(a || b) with linear in 2s"),
        ("(a ; b) ^ 2", "(a ; b) ^ 2"),
        ("a ; (b reversed)", "a ; b reversed"),
        ("(grow c from 1 to 2) reversed", "grow c from 1 to 2 reversed"),
        ("(wait 1) ; (fadeIn c)", "wait 1s ; fadeIn c"),
        ("(fadeIn all views) ; x", "fadeIn all views ; x"),
    ])
    func minimalParentheses(written: String, printed: String) {
        #expect(reformatExpr(written) == printed)
    }

    // MARK: Programs

    @Test func talkProgram() {
        let source = """
            let left =
              shrink circle from radius 100 to 10 with an ease-in-out

            let right =
              rotate square from 0 to 2*pi radians with a high ease-out

            let animations = (left + right) looped once

            let final = fadeIn all views * animations
            """
        #expect(reformat(source) == """
            let left = shrink circle from radius 100 to 10 with ease-in-out

            let right = rotate square from 0 to 6.283185307179586 radians with ease-out(1.5)

            let animations = (left || right) looped

            let final = fadeIn all views ; animations

            """)
    }

    @Test func viewsComeFirst() {
        #expect(reformat("let a = fadeIn ball\nview ball radius 20 opacity 0.5\nview dot\nlet b = a") == """
            view ball radius 20 opacity 0.5

            view dot

            let a = fadeIn ball

            let b = a

            """)
        #expect(reformat("") == "")
        #expect(reformat("view v x -1") == "view v x -1\n")
    }

    @Test func longBindingsBreakOneOperandPerLine() {
        let source = """
            let final = fadeIn all views ; shrink circle from radius 100 to 10 with ease-in-out ; rotate square from 0 to 1 turns ; wait 1s
            """
        #expect(reformat(source) == """
            let final =
              fadeIn all views
              ; shrink circle from radius 100 to 10 with ease-in-out
              ; rotate square from 0 to 1 turns
              ; wait 1s

            """)
    }

    @Test func longNestedChainsBreakInsideTheirParentheses() {
        let long = "shrink circle from radius 100 to 10 with ease-in-out"
        let source = "let x = (\(long) || \(long) || wait 1) looped ; (fadeIn a ; fadeIn b) ; \(long) || wait 2 ; \(long)"
        let expected = """
            let x =
              (
                (
                  shrink circle from radius 100 to 10 with ease-in-out
                  || shrink circle from radius 100 to 10 with ease-in-out
                  || wait 1s
                ) looped
                ; (fadeIn a ; fadeIn b)
                ; shrink circle from radius 100 to 10 with ease-in-out
              )
              || wait 2s ; shrink circle from radius 100 to 10 with ease-in-out

            """
        #expect(reformat(source) == expected)
        #expect(reformat(expected) == expected)
    }

    @Test func formatOfAnExpression() {
        let expr = Expr(.sequence([Expr(.name("a")), Expr(.parallel([Expr(.name("b")), Expr(.name("c"))]))]))
        #expect(format(expr) == "a ; (b || c)")
        #expect(format(Expr(.looped(Expr(.name("a")), Count(1)))) == "a looped")
        #expect(format(Expr(.power(Expr(.name("a")), Count(2)))) == "a ^ 2")
    }

    @Test func formatTreeShowsOneNodePerLine() {
        let source = "(animate circle.radius from 100 to 10 || grow c from 1 to 2 with ease-in) ; wait 1s ; (fadeIn all views) reversed looped 3 times"
        let result = parse(SourceFile(name: "t", text: "let x = " + source))
        guard let expr = result.program.bindings.first?.value else {
            Issue.record("no binding")
            return
        }
        #expect(formatTree(expr) == """
            sequence
              parallel
                tween animate circle.radius 100 → 10
                with ease-in
                  tween grow c.scale 1 → 2
              wait 1s
              looped 3 times
                reversed
                  tween fadeIn all views.opacity 0 → 1

            """)
    }

    @Test func deepTreesPrintAndParseBack() {
        var expr = Expr(.name("a"))
        for index in 1..<maxExpressionNesting {
            expr = index % 2 == 0 ? Expr(.sequence([expr, Expr(.name("b"))])) : Expr(.parallel([Expr(.name("c")), expr]))
        }
        let program = Program(items: [.binding(Binding(name: "x", value: expr))])
        let result = parse(SourceFile(name: "deep.anim", text: format(program)))
        #expect(result.diagnostics.isEmpty)
        #expect(result.program == program)
        // A tree deeper than the parser allows (only built by hand) prints without exhausting the stack.
        var deeper = Expr(.name("a"))
        for _ in 0..<(maxExpressionNesting * 4) { deeper = Expr(.reversed(deeper)) }
        #expect(format(deeper).hasSuffix(" reversed"))
    }

    @Test func numbersPrintExactlyWhenTheyCan() {
        func printed(_ number: Number) -> String {
            format(Expr(.tween(TweenSyntax(verb: .grow, target: .view("c", .none), from: number, to: Number(Time.one)))))
        }
        #expect(printed(Number(Time(numerator: 1, denominator: 4) ?? .zero)) == "grow c from 0.25 to 1")
        #expect(printed(Number(Time(numerator: -1, denominator: 3) ?? .zero)) == "grow c from -1/3 to 1")
        #expect(printed(Number(Time(numerator: 1, denominator: 1 << 62) ?? .zero)) == "grow c from 1/4611686018427387904 to 1")
        #expect(printed(Number(exact: nil, value: 2 * Double.pi)) == "grow c from 6.283185307179586 to 1")
        #expect(printed(Number(exact: nil, value: 1e-5)) == "grow c from 0.00001 to 1")
        #expect(printed(Number(exact: nil, value: 1e16)) == "grow c from 10000000000000000 to 1")
        #expect(printed(Number(exact: nil, value: 1e300)) == "grow c from 1e+300 to 1")
    }
}

/// Random token soup: the parser must never crash, and whatever it accepts
/// without errors must print and parse back to the same tree.
@Suite struct TokenSoupTests {
    static let vocabulary = [
        "let", "view", "a", "b", "c", "fade", "grow", "rotate", "fadeIn", "fadeOut", "animate", "shrink", "scale",
        "from", "to", "radius", "in", "out", "all", "views", "with", "an", "high", "ease-out", "ease-in-out", "linear",
        "steps", "cubic-bezier", "compose", "jump-start", "reversed", "looped", "repeated", "once", "twice", "times",
        "delayed", "by", "wait", "zero", "one", "empty", "cancelled", "pi", "tau", "degrees", "radians", "turns",
        "s", "ms", "sec", "2", "0.5", "1e-3", "3", "0", "1/3", "(", ")", ",", ".", "=", ";", "*", "+", "-", "/", "^",
        "||", "|", "@", "#", "\n", ".5", "1e999", "1000", "123456789012345.678", "9007199254740993", "2e19", "1e-400",
        "spring", "spring", "smooth", "snappy", "bouncy", "bounce", "stiffness", "damping", "mass", "velocity",
    ]

    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func parserSurvivesTokenSoupAndRoundTripsWhatItAccepts(seed: UInt64) {
        var random = ProgramGenerator.SplitMix64(seed: seed)
        var accepted = 0
        for index in 0..<4000 {
            var words = ["let", "x", "="]
            for _ in 0..<Int.random(in: 1...14, using: &random) {
                words.append(Self.vocabulary[Int.random(in: 0..<Self.vocabulary.count, using: &random)])
            }
            let text = words.joined(separator: " ")
            let result = parse(SourceFile(name: "soup.anim", text: text))
            #expect(result.diagnostics.count <= maxParseDiagnostics)
            guard !result.hasErrors else { continue }
            accepted += 1
            let printed = format(result.program)
            let again = parse(SourceFile(name: "printed.anim", text: printed))
            // The printer puts views first, so compare views and bindings separately.
            let ok = !again.hasErrors && again.program.views == result.program.views
                && again.program.bindings == result.program.bindings && format(again.program) == printed
            #expect(ok, "seed \(seed), soup \(index):\n\(text)\n---\n\(printed)\n\(again.diagnostics.map(\.message))")
            if !ok { return }
        }
        #expect(accepted > 100)
    }
}
