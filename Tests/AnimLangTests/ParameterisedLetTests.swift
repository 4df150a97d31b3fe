import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// docs/semantics.md §7.2, table by table: named values of every kind and
/// parameterised `let`s. Every expected value is worked out by hand from
/// the note (a linear tween from a to b over [s, e] is a + (b − a)(t − s)/(e − s)).
struct ParameterisedLetTests {
    /// `eval --at` of `source`: each property's number at each time.
    static func values(_ source: String, at times: [Time], binding: String? = nil) throws -> [String: [Double]] {
        let outcome = run(SourceFile(name: "p.anim", text: source), binding: binding)
        #expect(!outcome.hasErrors, "\(outcome.diagnostics.map { "\($0.id): \($0.message)" })")
        let compiled = try #require(try outcome.compiledScene())
        let sampler = compiled.sampler(initial: outcome.initial)
        var result: [String: [Double]] = [:]
        for t in times {
            var row: [Value] = []
            sampler.sample(at: t, into: &row)
            for (column, value) in zip(sampler.columns, row) { result[column.description, default: []].append(value.number ?? .nan) }
        }
        return result
    }

    static func duration(_ source: String) -> Time? {
        try? run(SourceFile(name: "p.anim", text: source)).compiledScene()?.duration
    }

    static func t(_ n: Int64, _ d: Int64 = 1) -> Time { Time(numerator: n, denominator: d) ?? .zero }

    // MARK: Value lets, each kind in each place

    @Test func aNumberInArithmeticAndInEveryPlace() throws {
        let source = """
            let lift = 12
            let twice = lift * 2
            let v1 = animate v.y from -lift to (2 * lift) in lift / 24
            let final = animate v.x from lift to twice - lift / 4 ; v1 ^ (lift / 6)
            """
        // x: 12 → 24 − 3 = 21 over [0, 1]; then v1 twice: y −12 → 24 over [1, 1.5] and [1.5, 2]
        // (at 1.5 the second copy, starting later, wins: −12).
        let table = try Self.values(source, at: [.zero, Self.t(1, 2), Self.t(1), Self.t(5, 4), Self.t(3, 2), Self.t(7, 4), Self.t(2)])
        #expect(table["v.x"] == [12, 16.5, 21, 21, 21, 21, 21])
        #expect(table["v.y"] == [-12, -12, -12, 6, -12, 6, 24])
        #expect(Self.duration(source) == Self.t(2))
    }

    @Test func aDurationAfterInDelayedStaggeredAndWait() throws {
        let source = """
            let quick = 300ms
            let gap = 0.1s
            let final = (fadeIn a ; wait quick ; fadeIn b in quick) delayed by gap || (fadeIn c || fadeIn d) staggered by gap
            """
        // Left: wait 0.1, a over [0.1, 1.1], wait 0.3, b over [1.4, 1.7]. Right: c [0, 1], d [0.1, 1.1].
        #expect(Self.duration(source) == Self.t(17, 10))
        let table = try Self.values(source, at: [Self.t(1, 10), Self.t(6, 10), Self.t(14, 10), Self.t(155, 100)])
        #expect(table["a.opacity"] == [0, 0.5, 1, 1])
        #expect(table["b.opacity"] == [0, 0, 0, 0.5])
        #expect(table["c.opacity"] == [0.1, 0.6, 1, 1])
        #expect(table["d.opacity"] == [0, 0.5, 1, 1])
    }

    @Test func aDurationInArithmeticCountsInSeconds() throws {
        #expect(Self.duration("let gap = 80ms\nlet final = wait gap * 5 ; wait gap / 2") == Self.t(44, 100))
    }

    @Test func aPointAColourAndAnEasing() throws {
        let source = """
            let home = (10, 20)
            let brand = #3366ff
            let snappy-ish = cubic-bezier(0, 0, 1, 1)
            let final = move card from home to (30, 40) with snappy-ish || color card from brand to #ffffff || animate card.tint from black to brand
            """
        // cubic-bezier(0, 0, 1, 1) is the identity: x 10 → 30, y 20 → 40 linearly.
        let table = try Self.values(source, at: [.zero, Self.t(1, 4), Self.t(1)])
        #expect(table["card.x"] == [10, 15, 30])
        #expect(table["card.y"] == [20, 25, 40])
        let outcome = run(SourceFile(name: "p.anim", text: source))
        let compiled = try #require(try outcome.compiledScene())
        let color = compiled.value(of: Property(view: "card", name: "color"), at: .zero)
        #expect(color == .color(Color(red: 0x33, green: 0x66, blue: 0xff)))
    }

    /// Where a number is read at once (an easing's or a colour's arguments,
    /// an offset, a `view`'s initial value), a number named before it stands for it.
    @Test func aNumberNamedBeforeStandsInsideEasingsColoursOffsetsAndViews() {
        let named = """
            let lift = 0.2
            let k = lift * 1000
            let half = 50
            view card x half
            let final = grow card from radius lift to 2 with spring(stiffness k) ; animate card.fill through red, rgb(half 0 0) at half%, blue ; fadeIn card with cubic-bezier(lift, 0, 0, 1)
            """
        let written = """
            view card x 50
            let final = grow card from radius 0.2 to 2 with spring(stiffness 200) ; animate card.fill through red, rgb(50 0 0) at 50%, blue ; fadeIn card with cubic-bezier(0.2, 0, 0, 1)
            """
        #expect(normalText(named) != nil && normalText(named) == normalText(written))
        let later = run(SourceFile(name: "l.anim", text: "let a = fadeIn v with cubic-bezier(k, 0, 0, 1)\nlet k = 0.2"))
        #expect(later.diagnostics.map(\.id) == ["expected-number"])
        #expect(later.diagnostics.first?.hint?.contains("a number named before it") == true)
    }

    @Test func aNamedEasingEasesAsWrittenOut() {
        let named = "let e = ease-in-out\nlet final = (fadeIn a ; fadeOut a) with e"
        let written = "let final = (fadeIn a ; fadeOut a) with ease-in-out"
        #expect(normalText(named) == normalText(written))
        #expect(normalText(named) != nil)
    }

    /// What a right-hand side is: a value when written out as one, else an animation.
    @Test(arguments: [
        ("let x = 300ms", "duration"), ("let x = 12", "number"), ("let x = -1.5", "number"), ("let x = (1 + 2)", "number"),
        ("let x = (10, 20)", "point"), ("let x = #3366ff", "colour"), ("let x = rebeccapurple", "colour"),
        ("let x = rgb(1 2 3)", "colour"), ("let x = ease-out", "easing"), ("let x = cubic-bezier(0.2, 0, 0, 1)", "easing"),
        ("let x = snappy spring", "easing"), ("let x = steps(3)", "easing"), ("let lift = 1\nlet x = lift * 2", "number"),
        ("let lift = 1\nlet x = lift - 2", "number"), ("let x = (a ; b)", "animation"), ("let x = (fadeIn a, b)", "animation"),
        ("let lift = 1\nlet x = lift", "name"), ("let a = 1\nlet b = 2\nlet x = a * b", "number"),   // `*` between named numbers multiplies (docs/semantics.md §8.4)
        ("let a = 1\nlet b = fadeIn v\nlet x = a * b", "animation"),
    ])
    func aRightHandSideIsAValueWhenWrittenAsOne(source: String, kind: String) throws {
        let result = parse(SourceFile(name: "k.anim", text: source))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let value = try #require(result.program.bindings.last?.value)
        let found: String
        switch value.kind {
        case .value(.duration): found = "duration"
        case .value(.plain(.number)): found = "number"
        case .value(.plain(.point)): found = "point"
        case .value(.plain(.color)): found = "colour"
        case .value(.easing): found = "easing"
        case .name: found = "name"
        default: found = "animation"
        }
        #expect(found == kind)
    }

    // MARK: Calls

    @Test func aTargetParameterAndADefault() throws {
        let source = """
            let pulse(v, amount = 1.5) = grow v from 1 to amount in 0.5s ; grow v from amount to 1 in 0.5s
            let final = pulse(card) || pulse(badge, 3)
            """
        let table = try Self.values(source, at: [.zero, Self.t(1, 4), Self.t(1, 2), Self.t(3, 4), Self.t(1)])
        #expect(table["card.scale"] == [1, 1.25, 1.5, 1.25, 1])
        #expect(table["badge.scale"] == [1, 2, 3, 2, 1])
    }

    /// A default is an argument written at the `let` (issue 37): a view, a
    /// colour and an animation here, each by its parameter's kind.
    @Test func defaultsOfEveryKindIncludingADeclaredView() throws {
        let source = """
            view card
            let slide = animate card.x from 0 to 10
            let pop(v = card, c = red, a = slide) = grow v from 1 to 2 in 1s || color v from c to c || a
            let final = pop() ; pop(badge, blue)
            """
        // pop() over [0, 1]: card.scale 1 → 2 and card.x 0 → 10 (slide, 1 s); pop(badge, blue) over
        // [1, 2]: badge.scale 1 → 2, card.x 0 → 10 again; card.scale holds 2.
        let outcome = run(SourceFile(name: "p.anim", text: source))
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics.map(\.message))")
        #expect(outcome.resolved.views == ["badge", "card"])
        let table = try Self.values(source, at: [Self.t(1, 2), Self.t(3, 2)])
        #expect(table["card.scale"] == [1.5, 2])
        #expect(table["card.x"] == [5, 5])
        #expect(table["badge.scale"] == [1, 1.5])
    }

    @Test func valueParametersOfEveryKind() throws {
        let source = """
            let go(v, to_, d, e, c, p) = animate v.size from 0 to to_ in d with e || color v from c to c || move v from p to p
            let final = go(ball, 8, 2s, linear, red, (1, 2))
            """
        let table = try Self.values(source, at: [.zero, Self.t(1), Self.t(2)])
        #expect(table["ball.size"] == [0, 4, 8])
        #expect(table["ball.x"] == [1, 1, 1] && table["ball.y"] == [2, 2, 2])
        #expect(Self.duration(source) == Self.t(2))
    }

    @Test func anAnimationParameterAndNestedCalls() throws {
        let source = """
            let doubled(a) = a ; a
            let slide(v) = animate v.x from 0 to 10
            let final = doubled(doubled(slide(box)))
            """
        // Four slides of 1 s: x rises 0 → 10 in each second.
        #expect(Self.duration(source) == Self.t(4))
        let table = try Self.values(source, at: [Self.t(1, 2), Self.t(3, 2), Self.t(7, 2), Self.t(4)])
        #expect(table["box.x"] == [5, 5, 5, 10])
    }

    @Test func callsInsideBodiesOfOtherLets() throws {
        let source = """
            let up(v, h) = animate v.y from 0 to h
            let both(v, h = 4) = up(v, h) ; up(v, h * 2)
            let final = both(a) || both(b, 1)
            """
        let table = try Self.values(source, at: [Self.t(1, 2), Self.t(3, 2)])
        #expect(table["a.y"] == [2, 4])
        #expect(table["b.y"] == [0.5, 1])
    }

    @Test func aCallAsAStaggerTargetAndTheMentionOrder() throws {
        // Mention order: `view c`, then the argument `a` of the first call, then `b`: c, a, b.
        let source = """
            view c
            let pulse(v) = fadeIn v
            let final = (pulse(a) || pulse(b) || pulse(c)) staggered by 1s
            """
        #expect(Self.duration(source) == Self.t(3))
        let table = try Self.values(source, at: [Self.t(1, 2), Self.t(3, 2), Self.t(5, 2)])
        #expect(table["c.opacity"] == [0.5, 1, 1])
        #expect(table["a.opacity"] == [0, 0.5, 1])
        #expect(table["b.opacity"] == [0, 0, 0.5])
    }

    @Test func aParameterIsNeverAView() throws {
        // `all views` is a and b (the arguments), not `v` (the parameter).
        let source = """
            let hide(v) = fadeOut v
            let final = hide(a) ; hide(b) ; fadeIn all views
            """
        let outcome = run(SourceFile(name: "p.anim", text: source))
        #expect(outcome.resolved.views == ["a", "b"])
        #expect(outcome.resolved.mentionOrder == ["a", "b"])
        let table = try Self.values(source, at: [Self.t(5, 2)])
        #expect(table.keys.sorted() == ["a.opacity", "b.opacity"])
        #expect(table["a.opacity"] == [0.5])
    }

    @Test func allViewsAsAnArgument() throws {
        let source = "view p\nview q\nlet show(v) = fadeIn v in 2s\nlet final = show(all views)"
        let table = try Self.values(source, at: [Self.t(1)])
        #expect(table["p.opacity"] == [0.5] && table["q.opacity"] == [0.5])
    }

    @Test func verbsMayStillNameALet() throws {
        let source = "let grow = grow ball from 1 to 3\nlet final = grow ; grow"
        let table = try Self.values(source, at: [Self.t(1, 2), Self.t(3, 2)])
        #expect(table["ball.scale"] == [2, 2])
    }

    /// The note's example, at chosen instants. pulse(card): scale 1 → 1.1 over
    /// [0, 0.15] eased by cubic-bezier(0.2, 0, 0, 1), then 1.1 → 1 over
    /// [0.15, 0.3] linearly. doubled(pulse(badge, 1.3)) twice over [0.3, 0.9].
    /// fadeIn all views staggered by 80ms: badge and card in mention order
    /// (card is the first call's argument, badge the second's), so card
    /// fades over [0.9, 1.9] and badge over [0.98, 1.98].
    @Test func theExampleOfTheNote() throws {
        let source = """
            let gap    = 80ms
            let lift   = 12
            let brand  = #3366ff
            let quick  = cubic-bezier(0.2, 0, 0, 1)
            let pulse(v, amount = 1.1) =
              grow v from 1 to amount in 150ms with quick ; grow v from amount to 1 in 150ms
            let doubled(a) = a ; a
            let final = pulse(card) ; doubled(pulse(badge, 1.3)) ; fadeIn all views staggered by gap
            """
        #expect(Self.duration(source) == Self.t(198, 100))
        let times = [Self.t(15, 100), Self.t(225, 1000), Self.t(45, 100), Self.t(825, 1000), Self.t(14, 10), Self.t(198, 100)]
        let table = try Self.values(source, at: times)
        #expect(table["card.scale"] == [1.1, 1.05, 1, 1, 1, 1])
        #expect(table["badge.scale"]?.enumerated().allSatisfy { abs($0.element - [1, 1, 1.3, 1.15, 1, 1][$0.offset]) < 1e-12 } == true)
        #expect(table["card.opacity"] == [0, 0, 0, 0, 0.5, 1])
        #expect(table["badge.opacity"]?.enumerated().allSatisfy { abs($0.element - [0, 0, 0, 0, 0.42, 1][$0.offset]) < 1e-12 } == true)
    }

    // MARK: Normal form, and cost

    @Test func normalizePrintsCallsAndValuesExpanded() throws {
        let source = "let lift = 2\nlet up(v, h = lift) = animate v.y from 0 to h * 3 in 500ms\nlet final = up(a) ; up(b, 1)"
        let printed = try #require(normalText(source))
        #expect(printed == "animate a.y from 0 to 6 in 0.5s ; animate b.y from 0 to 3 in 0.5s")
        #expect(normalText("let final = " + printed) == printed)
    }

    @Test func nestedDoublingCallsStayFast() {
        // d_k(a) = d_{k-1}(d_{k-1}(a)) doubles twice per level: 30 levels
        // are far more than any table; the expansion stops with an error, fast.
        var source = "let d1(a) = a ; a\n"
        for k in 2...30 { source += "let d\(k)(a) = d\(k - 1)(d\(k - 1)(a))\n" }
        source += "let final = d30(emit tick)\n"
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            let outcome = run(SourceFile(name: "deep.anim", text: source))
            #expect(outcome.diagnostics.contains { $0.id == "expansion-too-large" || $0.id == "time-overflow" })
        }
        #expect(elapsed < .seconds(20))
        // Shared per (let, arguments): a call repeated a thousand times expands once.
        let many = "let p(v) = fadeIn v\nlet final = " + Array(repeating: "p(a)", count: 1000).joined(separator: " ; ")
        #expect(Self.duration(many) == Self.t(1000))
    }

    @Test func longChainsOfNamedValuesAreEvaluatedInOrder() {
        // v_k = v_(k−1) + 1 from v0 = 1: v20000 = 20001, so the wait lasts 20001 / 10000 s.
        var source = "let v0 = 1\n"
        for k in 1...20_000 { source += "let v\(k) = v\(k - 1) + 1\n" }
        source += "let final = wait v20000 / 10000\n"
        #expect(Self.duration(source) == Self.t(20_001, 10_000))
        var aliases = "let a0 = 250ms\n"
        for k in 1...20_000 { aliases += "let a\(k) = a\(k - 1)\n" }
        aliases += "let final = wait a20000\n"
        #expect(Self.duration(aliases) == Self.t(1, 4))
    }

    @Test func deepChainsOfCallsAreAnErrorNotACrash() {
        var source = "let c0(a) = a\n"
        for k in 1...200 { source += "let c\(k)(a) = c\(k - 1)(a)\n" }
        source += "let final = c200(fadeIn v)\n"
        let outcome = run(SourceFile(name: "chain.anim", text: source))
        #expect(outcome.diagnostics.map(\.id).contains("calls-too-deep"))
        // Bodies that nest 250 levels each, called inside one another: an error, not a stack overflow.
        var nested = "let d0(a) = a\n"
        for k in 1...63 { nested += "let d\(k)(a) = (d\(k - 1)(a) ; fadeIn w)" + String(repeating: " reversed", count: 250) + "\n" }
        nested += "let final = d63(fadeIn v)\n"
        let deep = run(SourceFile(name: "nested.anim", text: nested))
        #expect(deep.diagnostics.map(\.id) == ["nesting-too-deep"], "\(deep.diagnostics.map(\.message))")
        #expect(deep.diagnostics.first.map { SourceFile(name: "nested.anim", text: nested).location(of: $0.range.start).description } == "65:13")   // the outermost call, where the bodies nest too deep
    }
}
