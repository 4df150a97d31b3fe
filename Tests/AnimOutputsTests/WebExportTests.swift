import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// How easings reach CSS: exactly where CSS has the curve, within the stated
/// bound (1e-4 of the range) everywhere else.
struct EasingCSSTests {
    @Test func cssNamesItsOwnCurves() throws {
        #expect(cssEasing(of: .linear) == .single("linear"))
        #expect(cssEasing(of: .ease) == .single("ease"))
        #expect(cssEasing(of: .cssEaseIn) == .single("ease-in"))
        #expect(cssEasing(of: .cssEaseOut) == .single("ease-out"))
        #expect(cssEasing(of: .cssEaseInOut) == .single("ease-in-out"))
        #expect(cssEasing(of: try .cubicBezier(0.1, 0.7, 1, 0.1)) == .single("cubic-bezier(0.1, 0.7, 1, 0.1)"))
        #expect(cssEasing(of: try .steps(4, .jumpStart)) == .single("steps(4, jump-start)"))
        #expect(cssEasing(of: try .steps(5, .jumpNone)) == .single("steps(5, jump-none)"))
        #expect(cssEasing(of: .penner(.quad, .in)) == .single("cubic-bezier(0.33333333, 0, 0.66666667, 0.33333333)"))
        #expect(cssEasing(of: .penner(.cubic, .out)) == .single("cubic-bezier(0.33333333, 1, 0.66666667, 1)"))
        // The talk's ease-out is a polynomial for c = 2 and 3 (and ease-in for
        // c = 1/2 and 1/3): `1 − (1 − p)²` is the quad out Bézier, with handles
        // (1/3, 2/3) and (2/3, 1) (degree elevation of the quadratic 0, 1, 1);
        // `1 − (1 − p)³` the cubic out one; their reflections `p²` and `p³` the in ones.
        #expect(cssEasing(of: .talkEaseOut) == cssEasing(of: .penner(.quad, .out)))
        #expect("\(String(describing: cssEasing(of: .talkEaseOut)))".contains("cubic-bezier(0.33333333, 0.66666667, 0.66666667, 1)"))
        #expect(cssEasing(of: try .easeIn(0.5)) == cssEasing(of: .talkEaseOut))
        #expect(cssEasing(of: try .easeOut(3)) == cssEasing(of: .penner(.cubic, .out)))
        #expect(cssEasing(of: Easing.talkEaseOut.mirrored) == cssEasing(of: .penner(.quad, .in)))
        #expect(cssEasing(of: try Easing.easeOut(3).mirrored) == cssEasing(of: .penner(.cubic, .in)))
        // The talk's ease-in 1 − √(1 − p) inverts p = 1 − (1 − y)²: its graph is
        // (1 − (1 − s)², s), whose cubic Bernstein coefficients are x (0, 2/3, 1, 1)
        // and y (0, 1/3, 2/3, 1) (Easing.rootArc); its mirror √p is (s², s): x (0, 0, 1/3, 1).
        #expect(cssEasing(of: .talkEaseIn) == .single("cubic-bezier(0.66666667, 0.33333333, 1, 0.66666667)"))
        guard case .single(let mirror)? = cssEasing(of: Easing.talkEaseIn.mirrored) else {
            Issue.record("the talk's ease-in reversed has no Bézier")
            return
        }
        let handles = mirror.dropFirst("cubic-bezier(".count).dropLast().split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        #expect(handles.count == 4 && zip(handles, [0, 1.0 / 3, 1.0 / 3, 2.0 / 3]).allSatisfy { abs($0 - $1) <= 1e-8 }, "\(mirror)")
        // No CSS curve: approximated.
        for easing in [try Easing.easeIn(4), try .easeOut(1.5), .talkEaseInOut, .penner(.sine, .in), .penner(.elastic, .out),
                       .penner(.bounce, .inOut), .penner(.quad, .in).composed(after: .penner(.sine, .out)), try Easing.steps(3).mirrored] {
            #expect(cssEasing(of: easing) == nil, "\(easing)")
        }
    }

    /// The talk's `ease-out` reaches the CSS export exactly, as Lottie
    /// writes it, not as 128 stops of `linear()`.
    @Test func theTalksEaseOutIsWrittenExactly() throws {
        let outcome = run(SourceFile(name: "out.anim", text: "view v\nlet a = animate v.x from 0 to 100 with ease-out\n"))
        let export = try #require(webExport(outcome, source: "out.anim").0)
        let css = stylesheet(export)
        #expect(css.contains("cubic-bezier(0.33333333, 0.66666667, 0.66666667, 1)"), "\(css)")
        #expect(!css.contains("linear("), "\(css)")
    }

    /// A part of a curve that is a cubic Bézier is one too: CSS writes it
    /// exactly, with the handles Lottie writes (within 1e-8, the shortest decimals CSS is written in). Quad out, `y = 2p − p²`,
    /// interrupted over [¼, ½]: on p ∈ [0, ¼] it is `(8u − u²)/7` in the
    /// piece's own progress u, Bernstein handles (1/3, 8/21) and (2/3, 5/7);
    /// on p ∈ [½, 1] it is `2u − u²` again, handles (1/3, 2/3) and (2/3, 1).
    @Test func partsOfABezierCurveAreWrittenExactlyAsLottieWritesThem() throws {
        let text = "let final = animate a.x from 0 to 100 in 1s with ease-out-quad || (wait 0.25s ; animate a.x from 50 to 60 in 0.25s)\n"
        let outcome = run(SourceFile(name: "cut.anim", text: text))
        let export = try #require(webExport(outcome, source: "cut.anim").0)
        let keyframes = try #require(export.columns.first?.animations.first?.keyframes)
        let curves = keyframes.compactMap(\.easing).filter { $0.hasPrefix("cubic-bezier(") }
        try #require(curves.count == 2, "\(keyframes.map(\.easing))")
        let expected: [[Double]] = [[1.0 / 3, 8.0 / 21, 2.0 / 3, 5.0 / 7], [1.0 / 3, 2.0 / 3, 2.0 / 3, 1]]
        for (curve, handles) in zip(curves, expected) {
            let numbers = curve.dropFirst("cubic-bezier(".count).dropLast().split(separator: ",")
                .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            #expect(numbers.count == 4 && zip(numbers, handles).allSatisfy { abs($0 - $1) <= 1e-8 }, "\(curve)")
        }
        #expect(!stylesheet(export).contains("linear("))
        // Lottie's keyframes for the same pieces carry the same handles.
        let lottie = try #require(exportLottie(outcome, fps: 60).bytes)
        let json = String(decoding: lottie, as: UTF8.self)
        #expect(json.contains("\"y\":0.380952380952381") && json.contains("\"y\":0.7142857142857143"), "\(json)")
    }

    /// Reads `cubic-bezier(a, b, c, d)` back as an easing.
    static func bezier(_ text: String) throws -> Easing {
        let numbers = text.dropFirst("cubic-bezier(".count).dropLast().split(separator: ",")
            .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        try #require(numbers.count == 4, "\(text)")
        return try Easing.cubicBezier(numbers[0], numbers[1], numbers[2], numbers[3])
    }

    /// Quad, cubic and back are cubic Béziers with x handles at 1/3 and 2/3;
    /// their in-out forms are an in and an out Bézier on the two halves. Each
    /// handle is written as the shortest decimal within 1e-8 (0.33333333), and
    /// a Bézier's output moves by less than its handles do (its Bernstein
    /// weights sum to at most 1), so the curve is within 1e-8 too.
    @Test(arguments: [Easing.PennerCurve.quad, .cubic, .back], Easing.PennerMode.allCases)
    func pennerBeziersAreTheCurves(_ curve: Easing.PennerCurve, _ mode: Easing.PennerMode) throws {
        let penner = Easing.penner(curve, mode)
        let form = try #require(cssEasing(of: penner))
        var worst = 0.0
        for index in 0...2000 {
            let p = Double(index) / 2000
            let css: Double
            switch form {
            case .single(let text):
                css = try Self.bezier(text)(p)
            case .split(let first, let second):
                let firstHalf = try Self.bezier(first), secondHalf = try Self.bezier(second)
                css = p < 0.5 ? firstHalf(2 * p) / 2 : 0.5 + secondHalf(2 * p - 1) / 2
            }
            worst = max(worst, abs(css - penner(p)))
        }
        #expect(worst <= 1e-8, "\(curve) \(mode): off by \(worst)")
    }

    /// Every family CSS cannot name, whole, in part and backwards.
    static let approximated: [(String, Easing)] = {
        var easings: [(String, Easing)] = []
        for c in [0.5, 1.5, 2, 5] {
            easings.append(("ease-in(\(c))", (try? Easing.easeIn(c)) ?? .linear))
            easings.append(("ease-out(\(c))", (try? Easing.easeOut(c)) ?? .linear))
        }
        for c in [0.5, 1, 3] { easings.append(("ease-in-out(\(c))", (try? Easing.easeInOut(c)) ?? .linear)) }
        for curve in [Easing.PennerCurve.quart, .quint, .sine, .expo, .circ, .elastic, .bounce] {
            for mode in Easing.PennerMode.allCases { easings.append(("\(curve)-\(mode)", .penner(curve, mode))) }
        }
        easings.append(("compose(back-out, quad-in)", Easing.penner(.back, .out).composed(after: .penner(.quad, .in))))
        easings.append(("compose(elastic-in, sine-out)", Easing.penner(.elastic, .in).composed(after: .penner(.sine, .out))))
        easings.append(("mirror(ease-in)", Easing.talkEaseIn.mirrored))
        easings.append(("overshooting bezier", (try? Easing.cubicBezier(0.3, -0.6, 0.7, 1.8)) ?? .linear))
        // Springs and every later family go here too: the exporter treats them generically.
        return easings
    }()

    /// The bound `LinearCurve` states: within 1e-4 of the range, checked at
    /// 200,000 points inside (0, 1), for the whole curve, a part, and the part backwards.
    @Test(arguments: approximated.map(\.0))
    func linearCurveStaysWithinTheBound(_ name: String) throws {
        let easing = try #require(Self.approximated.first { $0.0 == name }?.1)
        for (p0, p1) in [(0.0, 1.0), (0.2, 0.7), (0.9, 0.1)] {
            let function = { (q: Double) in easing(p0 + (p1 - p0) * q) }
            let curve = LinearCurve.approximating(function)
            #expect(curve.isWithinBound)
            #expect(curve.points.count < 1000, "\(name): \(curve.points.count) points")
            var low = Double.infinity, high = -Double.infinity, worst = 0.0
            let samples = 200_000
            for index in 0..<samples {
                let q = (Double(index) + 0.5) / Double(samples)
                let value = function(q)
                low = min(low, value)
                high = max(high, value)
                worst = max(worst, abs(curve(q) - value))
            }
            #expect(worst <= LinearCurve.tolerance * (high - low) + 1e-12, "\(name) [\(p0), \(p1)]: \(worst) of a range \(high - low)")
        }
    }

    /// Springs that turn back far faster than the frames (ζ = 5e-4 with
    /// v = −500, some 4,200 turns; ζ = 0.05, some 42; ζ = 0.0025, some 440:
    /// docs/semantics.md §6.4): the curve holds the bound, checked at 200,000 points, or says it
    /// does not (the exporter then warns `export-approximated`); it never
    /// claims a bound it misses because its checks fell in step with the turns.
    @Test(arguments: [(1e-5, -5.0), (1e-3, -5.0), (0.05, 0.0)])
    func aSpringTurningFasterThanTheChecksIsWithinTheBoundOrSaysSo(_ damping: Double, _ velocity: Double) throws {
        let easing = damping == 0.05 ? try Easing.spring(stiffness: 100, damping: damping, mass: 1, velocity: velocity)
            : try Easing.spring(stiffness: 0.0001, damping: damping, mass: 1, velocity: velocity)
        let curve = LinearCurve.approximating { easing($0) }
        var low = Double.infinity, high = -Double.infinity, worst = 0.0
        let samples = 200_000
        for index in 0..<samples {
            let q = (Double(index) + 0.5) / Double(samples)
            let value = easing(q)
            low = min(low, value)
            high = max(high, value)
            worst = max(worst, abs(curve(q) - value))
        }
        let within = worst <= LinearCurve.tolerance * (high - low) + 1e-12
        #expect(within || !curve.isWithinBound, "claims the bound, off by \(worst) of a range \(high - low)")
    }

    @Test func straightStretchesKeepOnlyTheirEnds() {
        let curve = LinearCurve.approximating { 0.25 + 0.5 * $0 }
        #expect(curve.points.count == 2)
        #expect(curve.css == "linear(0.25 0%, 0.75 100%)")
    }

    @Test func jumpsAreStepsBetweenNeighbouringDoubles() {
        // compose(ease-in-quad, steps(2)): 0 until ½, then ¼ until 1, then 1.
        let easing = Easing.penner(.quad, .in).composed(after: (try? Easing.steps(2)) ?? .linear)
        let curve = LinearCurve.approximating { easing($0) }
        #expect(curve.jumps == [0.5])
        #expect(curve(0.5) == 0.25)
        #expect(curve(0.5.nextDown) == 0)
        // The jump at 1 belongs to the breakpoint: the curve ends on the limit.
        #expect(curve.points.last?.output == 0.25)
    }
}

/// The web export of programs: structure, goldens, and the checks the
/// browser cannot do (a cancelled animation, layout).
struct WebExportTests {
    static func export(_ path: String, binding: String? = nil) throws -> WebExport {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let outcome = run(SourceFile(name: path, text: text), binding: binding)
        let (export, diagnostics) = webExport(outcome, source: path)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
        return try #require(export)
    }

    /// Keyframes of every animation: offsets from 0 to 1, never decreasing;
    /// CSS's apart and increasing.
    static func checkStructure(_ export: WebExport, _ name: String) {
        for channel in export.columns {
            for animation in channel.animations {
                let offsets = animation.keyframes.map(\.offset)
                #expect(offsets.first == 0 && offsets.last == 1, "\(name) \(channel.property): \(offsets.prefix(3))…\(offsets.suffix(2))")
                #expect(zip(offsets, offsets.dropFirst()).allSatisfy { $0 <= $1 }, "\(name) \(channel.property): decreasing")
                #expect(animation.keyframes.allSatisfy { $0.value.kind == channel.kind }, "\(name) \(channel.property): kinds")
                let css = cssKeyframes(animation.keyframes).map(\.offset)
                #expect(zip(css, css.dropFirst()).allSatisfy { $0 < $1 }, "\(name) \(channel.property): CSS offsets not apart")
                #expect(css.allSatisfy { (0...1).contains($0) }, "\(name) \(channel.property): CSS offsets outside [0, 1]")
            }
        }
    }

    @Test(arguments: exampleFiles)
    func everyExampleExportsWellFormedKeyframes(_ name: String) throws {
        let export = try Self.export("examples/" + name)
        Self.checkStructure(export, name)
        let json = try JSONSerialization.jsonObject(with: Data(waapiJSON(export).utf8)) as? [String: Any]
        #expect(json?["binding"] as? String == export.binding)
        let page = playerPage(export)
        #expect(page.hasPrefix("<!doctype html>") && page.hasSuffix("</html>\n"))
        #expect(!page.contains("http://") || !page.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"),
                "the page loads nothing from the network")
    }

    /// Generated programs of every construct export without a crash and with well-formed keyframes.
    @Test func generatedProgramsExportWellFormedKeyframes() throws {
        var generator = ProgramGenerator(seed: 2024)
        var exported = 0
        for index in 0..<150 {
            let program = generator.program()
            let file = SourceFile(name: "gen\(index).anim", text: format(program))
            let outcome = run(file)
            guard !outcome.hasErrors else { continue }
            let (export, _) = webExport(outcome)
            guard let export else { continue }
            Self.checkStructure(export, "gen\(index)")
            _ = stylesheet(export)
            exported += 1
        }
        #expect(exported > 20)
    }

    @Test func viewsComeInFirstMentionOrder() throws {
        let export = try Self.export("examples/all-views.anim")
        // `view header`, `view footer`, then `grow logo`: the file's order, not the alphabet's.
        #expect(export.views.map(\.name) == ["header", "footer", "logo"])
        let talk = try Self.export("examples/talk.anim")
        #expect(talk.views.map(\.name) == ["circle", "square"])
    }

    @Test func aCancelledAnimationExportsNothingToPlay() throws {
        let export = try Self.export("examples/cancelled.anim")
        #expect(export.isCancelled && export.views.isEmpty)
        #expect(waapiJSON(export).contains("\"cancelled\":true"))
        #expect(playerPage(export).contains("cancelled"))
    }

    @Test func aBillionRepetitionsPlayAsOneIteratedAnimation() throws {
        let export = try Self.export("examples/forever.anim")
        let lamp = try #require(export.views.first { $0.name == "lamp" }?.channels.first)
        // Every copy of `blink` (0 → 1 → 0 over 1 s) is alike, copy 0 too: one layer plays all
        // 10⁹ from 0 s, with three keyframes (0, 1 at ½, 0). The base under it would only hold 0,
        // the value at the end and the element's own: it is left out (docs/exports.md §7.1).
        #expect(lamp.animations.count == 1 && lamp.start == .number(0))
        let layer = try #require(lamp.animations.last)
        #expect(layer.iterations == 1_000_000_000 && layer.duration == 1 && layer.delay == 0 && !layer.fillsBoth)
        #expect(layer.keyframes.map { cssValue($0.value) } == ["0", "1", "0"] && layer.keyframes.map(\.offset) == [0, 0.5, 1])
    }

    /// docs/exports.md §7: a curve CSS lacks, as cubic Béziers whose
    /// handles lie along the slopes at the ends, the Hermite piece (x
    /// controls ⅓ and ⅔, so x is the parameter) tried first. 2x − x² rises
    /// with slope 2 and ends flat: one piece, y1 = 2 × 0.333333 = 0.666666,
    /// written as the shortest decimal within a quarter of the bound (half of
    /// 1e-4 of the range 1, so 1.25e-5): 0.66667; y2 = 1 − 0 × ⅓ = 1.
    /// 3x² − 2x³ starts and ends flat: y1 = 0, y2 = 1. Both are cubics, so
    /// the Hermite piece is the curve itself.
    @Test func curvesBecomeCubicBeziersThroughTheirValuesAndSlopes() throws {
        let quadratic = try #require(BezierPieces.fitting { 2 * $0 - $0 * $0 })
        #expect(quadratic.easings == ["cubic-bezier(0.333333, 0.66667, 0.666667, 1)"] && quadratic.inputs == [0, 1])
        let smooth = try #require(BezierPieces.fitting { 3 * $0 * $0 - 2 * $0 * $0 * $0 })
        #expect(smooth.easings == ["cubic-bezier(0.333333, 0, 0.666667, 1)"])
        // A jump has no pieces: `linear(…)` stops take it.
        #expect(BezierPieces.fitting { $0 < 0.5 ? 0 : 1 } == nil)
    }

    /// Issue 35: copy 0 of a billion was squeezed by a window of 1e-10 of the
    /// whole (50 ms). Now the base holds 3 (the value at 5·10⁸ s, the end of
    /// the last copy, which shows once the layer stops; under the layer it
    /// is never seen), and one layer plays every copy: the curve
    /// from 0 to 3 over ½ s, its end held back to 0 (eval's value where one
    /// copy meets the next) within a window of 1e-10 of a period.
    @Test func aBillionCopiesOfATweenIterateFromTheFirst() throws {
        let file = SourceFile(name: "b.anim", text: "let s = (animate a.x from 0 to 3 in 0.5s with ease-in-out-sine) ^ 1000000000\n")
        let (export, diagnostics) = webExport(run(file))
        #expect(diagnostics.isEmpty)
        let animations = try #require(export?.views.first?.channels.first?.animations)
        #expect(animations.count == 2)
        let base = animations[0], layer = animations[1]
        #expect(base.keyframes.allSatisfy { $0.easing == nil })
        // (At 0 the base says eval's 0, held a window, then jumps to 3: the layer covers all of it.)
        #expect(base.keyframes.filter { $0.offset > WebExport.window }.allSatisfy { cssValue($0.value) == "3" }, "\(base.keyframes)")
        #expect(base.keyframes.count <= 4, "\(base.keyframes)")
        #expect(layer.iterations == 1_000_000_000 && layer.duration == 0.5 && layer.delay == 0 && !layer.fillsBoth)
        #expect(layer.keyframes.first.map { cssValue($0.value) } == "0" && layer.keyframes.last.map { cssValue($0.value) } == "0")
        let top = try #require(layer.keyframes.first { cssValue($0.value) == "3" })
        #expect(top.offset >= 1 - WebExport.window * 1.01 && top.offset < 1)
    }

    /// Issue 35: each copy of a `by` tween starts where the last left it, so
    /// no iteration count repeats it; sampled, it was one ramp to 3·10⁹.
    @Test func aBillionCopiesOfARelativeTweenAreRefusedLocated() throws {
        let file = SourceFile(name: "b.anim", text: "view a size 10\nlet s = (animate a.x by 3 in 0.5s) ^ 1000000000\n")
        let (export, diagnostics) = webExport(run(file))
        #expect(export == nil)
        #expect(diagnostics.map(\.id) == ["export-repetition"])
        #expect(render(diagnostics, in: file).hasPrefix(
            "b.anim:2:5: error: `s` repeats `a.x` 1000000000 times in a way an export cannot repeat"))
    }

    /// Issue 35: under ease-in-out, `steps(4, start)` jumps where ease-in-out
    /// reaches ¼, ½ and ¾. In `(s with ease-in-out) looped` the middle one
    /// falls at 3.5 s exactly (ease-in-out(½) = ½ on the way back): a
    /// breakpoint holding eval's 75 from offset ⅞ on a window, then 50 —
    /// holds only, no curve with two stops a rounding error apart.
    @Test func aStepUnderAWarpAtAnExactTimeIsABreakpoint() throws {
        let text = "let s = animate a.x from 0 to 100 in 1s with steps(4, start)\nlet t = s ; s reversed ; (s with ease-in-out) looped\n"
        let (export, _) = webExport(run(SourceFile(name: "s.anim", text: text)))
        let keyframes = try #require(export?.views.first?.channels.first?.animations.first?.keyframes)
        let after = keyframes.filter { $0.offset >= 0.5 }
        #expect(after.allSatisfy { $0.easing == nil })
        // The hold of 75 that started at the jump before goes on through ⅞ and its window.
        let index = try #require(keyframes.firstIndex { abs($0.offset - 0.875) < 1e-9 })
        #expect(index > 0 && cssValue(keyframes[index - 1].value) == "75" && keyframes[index - 1].offset < 0.875)
        let around = keyframes.filter { abs($0.offset - 0.875) < 1e-9 }
        #expect(around.map { cssValue($0.value) } == ["75", "50"])
        #expect(around.map(\.offset) == [0.875 + WebExport.window, 0.875 + WebExport.window])
    }

    @Test func exactEasingsStayExact() throws {
        let export = try Self.export("examples/easings.anim")
        func easings(_ view: String) -> [String] {
            export.views.first { $0.name == view }?.channels.first?.animations.first?.keyframes.compactMap(\.easing) ?? []
        }
        #expect(easings("css") == ["ease"])
        #expect(easings("bezier") == ["cubic-bezier(0.1, 0.7, 1, 0.1)"])
        #expect(easings("steps") == ["steps(4, jump-start)"])
        #expect(easings("quad").count == 2 && easings("quad").allSatisfy { $0.hasPrefix("cubic-bezier(") })
        // Elastic jumps at its end (Penner's curve is 1 at 1, 1.0005 just before): Béziers up to the
        // jump, the jump held at the end.
        #expect(easings("elastic").count > 1 && easings("elastic").allSatisfy { $0.hasPrefix("cubic-bezier(") })
        #expect(easings("linear").isEmpty)
    }

    /// A jump where something else takes over holds the value `animc eval`
    /// shows at the instant over a window on the side that differs.
    @Test func breakpointValuesAreHeldOverAWindow() throws {
        let export = try Self.export("examples/parallel.anim")
        let x = try #require(export.views.first?.channels.first { $0.property.name == "x" }?.animations.first)
        // At 1.5 s (offset ¾) the override ends on 600; just after, the slow tween is back at 75.
        let around = x.keyframes.filter { abs($0.offset - 0.75) < 1e-9 }
        #expect(around.map { cssValue($0.value) } == ["600", "600", "75"])
        #expect(around.map(\.offset) == [0.75, 0.75 + WebExport.window, 0.75 + WebExport.window])
    }

    @Test func stepsCSSCannotSayBecomeHoldsAtTheirExactJumps() throws {
        let file = SourceFile(name: "s.anim", text: "let final = animate a.x from 0 to 30 with steps(3) reversed\n")
        let (export, _) = webExport(run(file))
        let keyframes = try #require(export?.views.first?.channels.first?.animations.first?.keyframes)
        #expect(keyframes.allSatisfy { $0.easing == nil })
        // Backwards: 30 at 0 only (p = 1), 20 just after it and still at 1/3 (p = 2/3 is the top of a step), 10 just after 1/3.
        #expect(keyframes.map { cssValue($0.value) } == ["30", "30", "20", "20", "10", "10", "0", "0"])
        #expect(keyframes[4].offset > 1.0 / 3 && keyframes[4].offset - 1.0 / 3 <= WebExport.window * 1.01)
    }

    /// Generated program 270's spring (ζ = 5e-4, v = −500: some 4,200 turns in
    /// its 1 s) is more than `linear(…)`'s points can follow: the export says
    /// so, at the binding, for the property and the stretch it misses.
    @Test func aSpringTooFastToFollowIsSaidToBeApproximated() throws {
        let file = SourceFile(name: "s.anim", text: "let my-anim = fadeIn out with spring(stiffness 0.0001, damping 1e-5, velocity -5)\n")
        let (export, diagnostics) = webExport(run(file))
        #expect(export != nil)
        #expect(diagnostics.map(\.id) == ["export-approximated"])
        #expect(render(diagnostics, in: file).hasPrefix(
            "s.anim:1:5: warning: the web export follows `out.opacity` less closely than 1e-4 of its range between 0s and 1s"))
    }

    // MARK: Goldens

    @Test(arguments: [("talk", WebFormat.html), ("talk", .css), ("talk", .waapi), ("choreography", .waapi), ("choreography", .css),
                      ("parallel", .waapi), ("forever", .css), ("jumps", .waapi)])
    func exportsMatchTheirGoldens(_ example: String, _ format: WebFormat) throws {
        let export = try Self.export("examples/\(example).anim")
        expectMatchesGolden(format.text(export), "web/\(example).\(format == .waapi ? "json" : format.rawValue)")
    }

    /// Colours and events, built with the library (the language spells them
    /// on other branches): a page and the table it must show, which the
    /// browser check (`checks/web.sh`) loads as a fixture.
    @Test func colorsAndEventsFixture() throws {
        let fill = Property(view: "ball", name: "color"), x = Property(view: "ball", name: "x")
        let other = Property(view: "box", name: "fill")
        func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> Value { .color(Color(red: r, green: g, blue: b, alpha: a)) }
        let half = try #require(Time(numerator: 1, denominator: 2))
        let scene = try Scene.tween(fill, from: color(255, 0, 0), to: color(0, 0, 255, 0))                      // premultiplied: stays red
            .then(try Scene.tween(fill, from: color(0, 0, 255, 0), to: color(0, 200, 100, 0.5), easing: .penner(.cubic, .inOut)))
            .then(try Scene.tween(fill, from: color(0, 200, 100, 0.5), to: color(250, 250, 0, 1), easing: .penner(.back, .out)))  // alpha overshoots: baked
            .then(try Scene.tween(fill, from: color(20, 40, 60), to: color(200, 180, 20, 0.2), easing: .talkEaseIn).reversed)
            .alongside(try Scene.tween(x, from: 0, to: 120, duration: Time(4), easing: .penner(.elastic, .out)))
            .alongside(try Scene.tween(other, from: color(10, 10, 10), to: color(240, 120, 0), duration: Time(2))
                .alongside(try Scene.tween(other, from: color(0, 0, 255, 0.5), to: color(0, 255, 0), duration: Time(2), easing: .talkEaseOut)))  // a tie: sampled
        let compiled = try #require(try scene.compile())
        let events = [WebExport.Event(name: "start", time: .zero), WebExport.Event(name: "half", time: half),
                      WebExport.Event(name: "tick", time: Time(2)), WebExport.Event(name: "tock", time: Time(2)),
                      WebExport.Event(name: "end", time: Time(4))]
        let (export, approximated) = try WebExport.make(compiled, binding: "fixture", source: "WebExportTests.swift",
                                                    viewOrder: ["ball", "box"], events: events)
        #expect(approximated.isEmpty)
        Self.checkStructure(export, "fixture")
        expectMatchesGolden(playerPage(export), "web/fixtures/colors-and-events.html")
        // The table it must show: as `animc eval` prints it, with an events column.
        var csv: [UInt8] = []
        tabulate(compiled, initial: [:], at: FrameTimes(duration: compiled.duration, fps: 8), format: .csv) { chunk in
            csv.append(contentsOf: chunk)
            chunk.removeAll()
        }
        var lines = String(decoding: csv, as: UTF8.self).split(separator: "\n").map(String.init)
        lines[0] += ",events"
        var previous: Time?
        for (index, t) in FrameTimes(duration: compiled.duration, fps: 8).enumerated() {
            let fired = events.filter { event in event.time <= t && previous.map { event.time > $0 } ?? true }.map(\.name)
            lines[index + 1] += "," + fired.joined(separator: " ")
            previous = t
        }
        expectMatchesGolden(lines.joined(separator: "\n") + "\n", "web/fixtures/colors-and-events.csv")
    }

    /// The stage holds every position a view reaches.
    @Test func theStageHoldsEveryPosition() throws {
        let export = try Self.export("examples/choreography.anim")
        let layout = StageLayout(export)
        let card = try #require(layout.model.views.first)
        // The card rises 40 px and scales to 1.1 at most, rotated: its corners stay inside.
        let half = (30.0 * 30 * 2).squareRoot() * 1.1
        #expect(layout.bounds.minY <= card.home.y - 40 - half)
        #expect(layout.bounds.maxY >= card.home.y + half)
        #expect(layout.bounds.minX <= card.home.x - half && layout.bounds.maxX >= card.home.x + half)
    }
}
