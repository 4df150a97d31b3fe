import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Random `.anim` expressions over two views, covering every construct, as
/// source text (so the whole pipeline is exercised).
struct SourceGenerator {
    var random: ProgramGenerator.SplitMix64
    /// Whether every tween must change its value over a positive time (a
    /// constant tween, or two jumps that cancel, look the same wherever they
    /// are placed, which makes different segment sets give equal tables).
    var changingTweens = false
    /// Whether leaves may use the named values and call the `let`s of ``prelude`` (docs/semantics.md §7.2).
    var named = false
    /// Whether to write docs/semantics.md §8's forms too (overlaps, staggers from an
    /// origin, eased keyframes, duration arithmetic): off, the programs are
    /// the ones each seed always gave.
    var timelines = false

    /// Named values of every kind and two parameterised `let`s, for programs made with ``named``.
    static let prelude = """
        let lift = 3
        let quick = 250ms
        let soft = ease-in-out
        let brand = #3366ff
        let home = (1, -2)
        let bump(v, amount = lift) = animate v.x from 0 to amount * 2 in quick with soft
        let twice(a) = a ; a reversed
        let hop(v) = move v from home to (lift, lift - 5) in quick

        """

    mutating func duration() -> String {
        let durations = timelines ? Self.durations + Self.durationSums : Self.durations
        var duration = pick(durations)
        while changingTweens, duration == "0s" { duration = pick(durations) }
        return duration
    }

    init(seed: UInt64) {
        random = ProgramGenerator.SplitMix64(seed: seed)
    }

    mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

    static let durations = ["0s", "0.25s", "0.5s", "1s", "1.5s", "(1/3)s", "2s", "250ms"]
    static let durationSums = ["0.25s + 0.25s", "2 * 250ms", "1s / 4"]
    /// Where a part starts or ends: durations, arithmetic, and percentages of the operand (also past its end).
    static let partTimes = ["0s", "0.25s", "0.5s", "1s", "(1/3)s", "0.25s + 0.25s", "3 * 250ms", "0%", "40%", "100%", "120%"]
    static let values = ["0", "1", "-2", "0.5", "3", "10", "-7.5"]
    static let anyEasings = ["linear", "ease-in", "ease-out(1.5)", "ease-in-out", "ease", "css-ease-in",
                             "cubic-bezier(0.1, 0.7, 0.6, 1.2)", "steps(3)", "steps(2, jump-start)", "ease-in-quad",
                             "ease-out-cubic", "ease-in-out-sine", "ease-in-expo", "ease-out-circ", "ease-out-back",
                             "ease-in-elastic", "ease-out-bounce", "compose(ease-in-quad, ease-out-sine)",
                             "bouncy spring", "spring(stiffness 200, damping 12, velocity -3)", "spring(bounce -0.5)"]
    static let monotoneEasings = ["linear", "ease-in", "ease-out(1.5)", "ease-in-out", "ease", "css-ease-out",
                                  "ease-in-quad", "ease-out-cubic", "ease-in-out-sine", "steps(4)",
                                  "compose(ease-in-quad, ease-out-sine)"]

    mutating func leaf() -> String {
        if named, below(3) == 0 {
            switch below(7) {
            case 0: return "bump(\(pick(["a", "b"])))"
            case 1: return "bump(\(pick(["a", "b"])), \(pick(Self.values)))"
            case 2: return "twice(\(leaf()))"
            case 3: return "animate \(pick(["a", "b"])).y from lift to lift - \(pick(["1", "5", "0.5"]))"
            case 4: return "wait quick"
            case 5: return "hop(\(pick(["a", "b"])))"
            default: return "(\(leaf())) with soft"
            }
        }
        switch below(12) {
        case 0: return "wait \(duration())"
        case 1: return below(2) == 0 ? "one" : "zero"
        case 2: return "fadeIn \(pick(["a", "b"]))"
        case 3: return "fade out all views"
        case 4 where timelines && below(3) == 0:
            // Easing each keyframe (docs/semantics.md §8.2), with offsets, `each`, and a whole-tween `with`.
            return "animate \(pick(["a", "b"])).x through 0 with \(pick(Self.anyEasings)), 3 at 40%, -2\(pick(["", " with each ease-in-cubic"]))"
                + pick(["", " with linear", " with ease-in-out"])
        case 4: return "rotate a from \(pick(["0", "1", "-2"])) to 0.25 turns"
        case 5:
            let (from, to) = ends()
            return "grow b from radius \(from) to \(to) in \(duration())"
        default:
            let (from, to) = ends()
            var text = "animate \(pick(["a", "b"])).\(pick(["x", "y"])) from \(from) to \(to)"
            if below(2) == 0 { text += " in \(duration())" }
            if below(2) == 0 { text += " with \(pick(Self.anyEasings))" }
            return text
        }
    }

    mutating func ends() -> (String, String) {
        let from = pick(Self.values)
        var to = pick(Self.values)
        while changingTweens, to == from { to = pick(Self.values) }
        return (from, to)
    }

    mutating func expr(depth: Int) -> String {
        if depth == 0 || below(4) == 0 { return leaf() }
        let a = expr(depth: depth - 1)
        // Parts (docs/semantics.md §8.5): `played` by times, percentages and sums, and counts that are not whole.
        if timelines, below(8) == 0 {
            switch below(6) {
            case 0: return "(\(a)) played from \(pick(Self.partTimes))"
            case 1: return "(\(a)) played to \(pick(Self.partTimes))"
            case 2: return "(\(a)) played from \(pick(["0.25s", "25%", "100ms + 150ms"])) to \(pick(["0.5s", "1.5s", "2 * 0.5s", "75%", "150%"]))"
            case 3: return "(\(a)) ^ \(pick(["2.5", "0.5", "1.25", "1.5"]))"
            case 4: return "(\(a)) repeated \(pick(["1.5", "0.75", "2.5"])) times"
            default: return "((\(a)) played from 0.25s to 1s) played from \(pick(["0s", "0.25s", "10%"])) to \(pick(["0.5s", "0.75s", "100%"]))"
            }
        }
        switch below(12) {
        case 0, 1: return "(\(a) ; \(expr(depth: depth - 1)))"
        case 2, 3: return "(\(a) || \(expr(depth: depth - 1)))"
        case 4: return "(\(a)) ^ \(below(4))"
        case 5: return "(\(a)) reversed"
        case 6: return "(\(a)) looped \(below(3)) times"
        case 7: return "(\(a)) repeated \(pick(["once", "twice", "3 times"]))"
        case 8: return "(\(a)) delayed by \(duration())"
        case 9: return "(\(a)) in \(duration())"
        // Semantics docs/semantics.md §8: a part overlapping a chain that lasts at least 1 s, a stagger with an origin and a spacing.
        case 10 where timelines && below(3) == 0:
            return "(wait 1s ; \(a) ; \(expr(depth: depth - 1)) overlapping by \(pick(["0s", "0.25s", "0.5s", "250ms + 0.5s", "1s"])))"
        case 11 where timelines && below(3) == 0:
            let spread = pick(["by 0.25s", "by 100ms + 50ms", "over 0.5s", "over 1s"])
            let origin = pick(["", " from end", " from center", " from edges", " backwards"])
            return "(\(a)) staggered \(spread)\(origin)\(pick(["", " spaced ease-in-quad", " spaced ease-out-cubic"]))"
        default: return "(\(a)) with \(pick(Self.monotoneEasings))"
        }
    }
}

/// The evaluated, sampled table of a program's binding.
struct Table: Equatable {
    let duration: Time?
    let columns: [Property]
    let rows: [[Double]]
    let times: [Time]
    private let sampler: RowSampler?

    static func == (lhs: Table, rhs: Table) -> Bool {
        lhs.duration == rhs.duration && lhs.columns == rhs.columns && lhs.rows == rhs.rows
    }

    init?(_ source: String, binding: String? = nil) {
        let outcome = run(SourceFile(name: "t.anim", text: source), binding: binding)
        guard !outcome.hasErrors, let scene = outcome.scene, let compiled = try? outcome.compiledScene() else {
            if let scene = outcome.scene, scene.isCancelled {
                duration = nil
                columns = []
                rows = []
                times = []
                sampler = nil
                return
            }
            return nil
        }
        duration = compiled.duration
        let sampler = compiled.sampler(initial: outcome.initial)
        self.sampler = sampler
        columns = sampler.columns
        var times: [Time] = []
        var k: Int64 = 0
        while let t = Time(numerator: k, denominator: 24), t <= compiled.duration, k <= 2_000 {
            times.append(t)
            k += 1
        }
        times.append(compiled.duration)
        self.times = times
        rows = times.map { t in
            var row: [Value] = []
            sampler.sample(at: t, into: &row)
            return row.map { $0.number ?? .nan }
        }
    }

    func row(at t: Time) -> [Double] {
        var row: [Value] = []
        sampler?.sample(at: t, into: &row)
        return row.map { $0.number ?? .nan }
    }

    private static func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0)) }
    }

    /// Equal up to rounding (mirrored easings compute `1 − E(1 − p)` another
    /// way). Exactly at a jump of a `steps` easing rounding also picks the
    /// side; a row that differs is accepted when both agree just before and
    /// just after it and the row matches one of the sides.
    func isClose(to other: Table) -> Bool {
        guard duration == other.duration, columns == other.columns, rows.count == other.rows.count else { return false }
        let epsilon = Time(numerator: 1, denominator: 1_000_000_000) ?? .zero
        for (index, (a, b)) in zip(rows, other.rows).enumerated() where !Table.close(a, b) {
            let t = times[index]
            guard let before = try? t.subtracting(epsilon), let after = try? t.adding(epsilon) else { return false }
            let leftBefore = row(at: before), leftAfter = row(at: after)
            guard Table.close(leftBefore, other.row(at: before)), Table.close(leftAfter, other.row(at: after)) else { return false }
            for column in a.indices where abs(a[column] - b[column]) > 1e-9 * max(1, abs(a[column])) {
                let sides = [leftBefore[column], leftAfter[column]]
                guard sides.contains(where: { abs($0 - a[column]) <= 1e-9 * max(1, abs($0)) }),
                      sides.contains(where: { abs($0 - b[column]) <= 1e-9 * max(1, abs($0)) }) else { return false }
            }
        }
        return true
    }

    func firstDifference(from other: Table) -> String {
        if duration != other.duration { return "durations \(String(describing: duration)) vs \(String(describing: other.duration))" }
        if columns != other.columns { return "columns \(columns) vs \(other.columns)" }
        for (index, (a, b)) in zip(rows, other.rows).enumerated() where !Table.close(a, b) {
            return "at \(times[index]): \(a) vs \(b)"
        }
        return "none"
    }
}

/// The printed normal form of `binding` in `source` (the `let` line only).
func normalText(_ source: String, binding: String? = nil) -> String? {
    let outcome = run(SourceFile(name: "n.anim", text: source), binding: binding)
    guard !outcome.hasErrors, let normal = try? normalize(outcome) else { return nil }
    return format(normal.expr)
}

struct NormalizerTests {
    static let seeds: [UInt64] = Array(11...16)

    /// Valid generated programs: `let x`, `let y`, `let z`, and `let p` using them.
    static func programs(seed: UInt64, count: Int) -> [String] {
        var generator = SourceGenerator(seed: seed)
        generator.timelines = true
        var programs: [String] = []
        var attempts = 0
        while programs.count < count, attempts < count * 20 {
            attempts += 1
            generator.named = attempts % 2 == 0
            let source = (generator.named ? SourceGenerator.prelude : "") + """
                view a x 5
                let x = \(generator.expr(depth: 2))
                let y = \(generator.expr(depth: 2))
                let z = \(generator.expr(depth: 2))
                let p = \(generator.expr(depth: 3).replacing("fadeIn b", with: "x").replacing("wait 2s", with: "(y || z)"))
                """
            if Table(source) != nil { programs.append(source) }
        }
        return programs
    }

    /// The normal form evaluates to the same doubles, not to within rounding
    /// (issue 22: `-3.999999999999999` against `-4`): a reversed tween is
    /// read as the normal form writes it, ends swapped and easing mirrored.
    @Test(arguments: [
        "let a = (animate v.x from -7 to -4 in 0.3s ; animate v.x from -4 to 2 in 0.1s) reversed in 0.7s",
        "let a = ((animate v.x from 0 to -4 in 3s ; animate v.x from -4 to 1) reversed) in 0.7s",
        "let a = (animate v.x from -7 to -4 in 0.3s with ease-in-quad ; animate v.x from -4 to 2 in 0.1s with cubic-bezier(0.1, 0.7, 1, 0.1)) reversed in 0.7s",
        "let a = (animate v.x from 0.1 to 0.3 with ease-out-back) reversed in 3s",
    ])
    func normalFormEvaluatesToTheSameDoubles(source: String) throws {
        let printed = try #require(normalText(source))
        #expect(printed != source, "nothing was normalized")
        let before = try #require(Table(source)), after = try #require(Table("let a = " + printed))
        #expect(before == after, "\(printed)\n\(before.firstDifference(from: after))")
    }

    @Test(arguments: seeds)
    func normalizationIsSound(seed: UInt64) throws {
        for source in NormalizerTests.programs(seed: seed, count: 120) {
            let outcome = run(SourceFile(name: "p.anim", text: source))
            let normal = try normalize(outcome)
            let printed = format(normal.program)
            let before = try #require(Table(source))
            let after = try #require(Table(printed), "the normal form does not evaluate:\n\(printed)")
            #expect(before.isClose(to: after), "\(source)\n--- normal form ---\n\(printed)\n\(before.firstDifference(from: after))")
        }
    }

    @Test(arguments: seeds)
    func normalizationIsIdempotentAndRoundTrips(seed: UInt64) throws {
        for source in NormalizerTests.programs(seed: seed, count: 120) {
            let normal = try normalize(run(SourceFile(name: "p.anim", text: source)))
            let printed = format(normal.program)
            let reparsed = parse(SourceFile(name: "n.anim", text: printed))
            #expect(reparsed.diagnostics.isEmpty, "\(printed)")
            #expect(reparsed.program == normal.program, "round trip failed:\n\(printed)")
            let again = try normalize(run(SourceFile(name: "n.anim", text: printed)))
            #expect(format(again.program) == printed, "not idempotent:\n\(printed)\n--- again ---\n\(format(again.program))")
        }
    }

    /// Each exact law of the semantics note, as (left, right) over `x`, `y`, `z`.
    static let laws: [(String, String, String)] = [
        ("; is associative", "(x ; y) ; z", "x ; (y ; z)"),
        ("one is the identity of ; on the left", "one ; x", "x"),
        ("one is the identity of ; on the right", "x ; one", "x"),
        ("zero annihilates ; on the left", "zero ; x", "zero"),
        ("zero annihilates ; on the right", "x ; zero", "zero"),
        ("|| is associative", "(x || y) || z", "x || (y || z)"),
        ("|| is commutative", "x || y", "y || x"),
        ("|| is idempotent", "x || x", "x"),
        ("zero is the identity of ||", "zero || x", "x"),
        ("left distributivity", "x ; (y || z)", "(x ; y) || (x ; z)"),
        ("reversal is an involution", "(x reversed) reversed", "x"),
        ("reversal of a sequence", "(x ; y) reversed", "y reversed ; x reversed"),
        ("powers are repeated sequences", "x ^ 3", "x ; x ; x"),
        ("loops", "x looped 2 times", "(x ; x reversed) ; (x ; x reversed)"),
        ("delays", "x delayed by 1.5s", "wait 1s ; wait 0.5s ; x"),
    ]

    /// Over docs/semantics.md §8's forms too (overlaps, staggers, eased keyframes, duration arithmetic, parts),
    /// as every generated program of these tests.
    @Test(arguments: seeds)
    func bothSidesOfEveryLawNormalizeAlike(seed: UInt64) throws {
        try Self.checkLawsNormalizeAlike(seed: seed, timelines: true)
    }

    static func checkLawsNormalizeAlike(seed: UInt64, timelines: Bool) throws {
        var generator = SourceGenerator(seed: seed)
        generator.timelines = timelines
        var checked = 0
        for _ in 0..<60 {
            let bindings = "let x = \(generator.expr(depth: 2))\nlet y = \(generator.expr(depth: 2))\nlet z = \(generator.expr(depth: 2))\n"
            guard Table(bindings + "let check = x ; y ; z") != nil else { continue }
            for (name, lhs, rhs) in NormalizerTests.laws {
                let source = bindings + "let lhs = \(lhs)\nlet rhs = \(rhs)\n"
                let left = normalText(source, binding: "lhs"), right = normalText(source, binding: "rhs")
                #expect(left != nil && left == right, "\(name):\n\(bindings)\nlhs: \(left ?? "error")\nrhs: \(right ?? "error")")
            }
            checked += 1
        }
        #expect(checked > 30)
    }

    @Test(arguments: seeds)
    func monotoneWarpsCompose(seed: UInt64) throws {
        var generator = SourceGenerator(seed: seed)
        generator.timelines = true
        for _ in 0..<40 {
            let e1 = generator.pick(SourceGenerator.monotoneEasings), e2 = generator.pick(SourceGenerator.monotoneEasings)
            let source = "let x = \(generator.expr(depth: 2))\nlet lhs = (x with \(e1)) with \(e2)\nlet rhs = x with compose(\(e1), \(e2))\n"
            guard Table(source, binding: "lhs") != nil else { continue }
            #expect(normalText(source, binding: "lhs") == normalText(source, binding: "rhs"), "\(source)")
        }
    }

    @Test(arguments: seeds)
    func rightDistributivityNeedsEqualDurations(seed: UInt64) throws {
        var generator = SourceGenerator(seed: seed)
        generator.timelines = true
        var equalChecked = 0, unequalFound = 0
        for _ in 0..<80 {
            let x = generator.expr(depth: 2), y = generator.expr(depth: 2)
            // z lasts as long as y (retimed), or differs by a wait.
            let equal = "let x = \(x)\nlet y = \(y)\nlet z = (\(generator.expr(depth: 2))) in 2s\nlet yy = y in 2s\n"
                + "let lhs = (yy || z) ; x\nlet rhs = (yy ; x) || (z ; x)\n"
            if Table(equal, binding: "lhs") != nil {
                #expect(normalText(equal, binding: "lhs") == normalText(equal, binding: "rhs"), "\(equal)")
                equalChecked += 1
            }
            let unequal = "let x = \(x)\nlet y = \(y) in 1s\nlet z = wait 2s\n"
                + "let lhs = (y || z) ; x\nlet rhs = (y ; x) || (z ; x)\n"
            if let left = Table(unequal, binding: "lhs"), let right = Table(unequal, binding: "rhs"), !left.isClose(to: right) {
                #expect(normalText(unequal, binding: "lhs") != normalText(unequal, binding: "rhs"), "\(unequal)")
                unequalFound += 1
            }
        }
        #expect(equalChecked > 20)
        #expect(unequalFound > 5)
    }

    /// A reversal that a part keeps (`played`) and a mirrored warp next to it: normalizing looped
    /// for ever (pushed in through the warp, handed back out) until the stack ran out. Its meaning,
    /// by hand: `fadeIn v ; fadeIn v` goes 0→1 on [0, 1] and [1, 2]; `played from 0.25s` lasts 1.75
    /// and shows it at 0.25 + u; reversed, at 1.75 − u; `with ease-in-quad` reads that at
    /// 1.75·(t/1.75)². At t = 0.875: 0.4375, so u = 1.3125, the second fade at 0.5625. The two
    /// spellings of docs/semantics.md §3's rule `(x with E) reversed = (x reversed) with mirror(E)` normalize alike.
    @Test func aReversedPartUnderAMirroredWarpNormalizes() throws {
        let first = "view v\nlet f = ((fadeIn v ; fadeIn v) played from 0.25s) reversed with ease-in-quad\n"
        let second = "view v\nlet f = (((fadeIn v ; fadeIn v) played from 0.25s) with ease-out-quad) reversed\n"
        let printed = try #require(normalText(first))
        #expect(normalText(second) == printed)
        let before = try #require(Table(first)), after = try #require(Table("view v\nlet f = " + printed))
        #expect(before.isClose(to: after), "\(printed)\n\(before.firstDifference(from: after))")
        let t = Time(numerator: 7, denominator: 8) ?? .one
        #expect(abs((before.row(at: t).first ?? .nan) - 0.5625) < 1e-12)
        #expect(normalText("view v\nlet f = " + printed) == printed)
    }

    @Test func normalFormsOfTheTalk() throws {
        let source = """
            let left = shrink circle from radius 100 to 10 with an ease-in-out
            let right = rotate square from 0 to 2*pi radians with a high ease-out
            let animations = (left + right) looped once
            let final = fadeIn all views * animations
            """
        let normal = try normalize(run(SourceFile(name: "talk.anim", text: source)))
        expectMatchesGolden(format(normal.program), "normalize/talk-inline.anim")
    }
}

struct NormalizerScaleTests {
    @Test func aLongChainOfLetsIsFlattenedOnce() throws {
        // let a1 = a0 ; …, let a2 = a1 ; …: each binding is used once, inside
        // a chain of its own kind, so the chain is normalized once at the end.
        var source = "let a0 = fadeIn v\n"
        for i in 1..<5_000 { source += "let a\(i) = a\(i - 1) ; animate v.x from \(i % 7) to \((i + 1) % 7) in 0.1s\n" }
        let normal = try normalize(run(SourceFile(name: "chain.anim", text: source)))
        guard case .sequence(let items) = normal.expr.kind else {
            Issue.record("expected a sequence")
            return
        }
        // (The 7-periodic values fold into powers: 1 + 4,999 tweens in runs of 7.)
        #expect(items.count < 5_000)
        #expect(format(normal.expr).contains("^"))
    }

    /// Issue 9: 150 staggered rows printed `…` and lost rows 127–149.
    @Test func twoHundredDelayedRowsPrintWholeAndFlat() throws {
        var source = ""
        for i in 1...200 { source += "let r\(i) = (fadeIn row\(i) in 300ms) delayed by \(20 * i)ms\n" }
        source += "let final = " + (1...200).map { "r\($0)" }.joined(separator: " || ") + "\n"
        let normal = try normalize(run(SourceFile(name: "rows.anim", text: source)))
        let printed = format(normal.program)
        #expect(!printed.contains("…"))
        // Every row, each with its own delay: no delay is shared, so none is factored out.
        for i in 1...200 { #expect(printed.contains("animate row\(i).opacity from 0 to 1 in 0.3s")) }
        #expect(!printed.contains("("), "delays nest:\n\(printed.prefix(400))")
        let reparsed = run(SourceFile(name: "normal.anim", text: printed))
        #expect(!reparsed.hasErrors)
        #expect(Table(printed) == Table(source))
        #expect(format(try normalize(reparsed).program) == printed)
    }

    @Test func sharedDelaysAreFactoredOnlyWhenShorter() throws {
        // Two rows share a delay: one `wait` instead of two. The third has its own.
        let text = try #require(normalText("""
            let final = (fadeIn a delayed by 1s) || (fadeIn b delayed by 1s) || (fadeIn c delayed by 2s)
            """))
        #expect(text == """
            wait 1s ; (animate a.opacity from 0 to 1 || animate b.opacity from 0 to 1)
            || wait 2s ; animate c.opacity from 0 to 1
            """)
        // Written factored, it meets the same normal form (left distributivity).
        #expect(normalText("let final = wait 1s ; (fadeIn a || fadeIn b || (wait 1s ; fadeIn c))") == text)
    }

    @Test func normalFormsDeeperThanTheParserReadsBecomeParts() throws {
        // Each step nests a sequence in a parallel: 300 steps, 600 levels.
        var source = "let a0 = animate v.x from 0 to 1\n"
        for i in 1..<300 { source += "let a\(i) = (a\(i - 1) ; animate v.y from \(i % 5) to \(i % 3)) || animate w.z from \(i) to 0\n" }
        let normal = try normalize(run(SourceFile(name: "deep.anim", text: source)))
        let printed = format(normal.program)
        #expect(normal.program.bindings.count > 10)
        #expect(normal.program.bindings.last?.name == "a299")
        let reparsed = run(SourceFile(name: "normal.anim", text: printed))
        #expect(!reparsed.hasErrors, "\(render(reparsed.diagnostics, in: SourceFile(name: "normal.anim", text: printed)).prefix(500))")
        #expect(format(try normalize(reparsed).program) == printed)
        let before = try #require(run(SourceFile(name: "deep.anim", text: source)).scene)
        let after = try #require(reparsed.scene)
        #expect(try Scene.sameAnimation(before, after) == .same)
    }

    @Test func sharedBindingsStaySharedAsPowers() throws {
        // Doubling 40 times would unroll to 2^40 tweens; as powers it stays tiny.
        var source = "let a0 = animate v.x from 0 to 1\n"
        for i in 1...40 { source += "let a\(i) = a\(i - 1) ; a\(i - 1)\n" }
        let normal = try normalize(run(SourceFile(name: "doubling.anim", text: source)))
        #expect(format(normal.expr) == "animate v.x from 0 to 1 ^ 1099511627776")
    }
}
