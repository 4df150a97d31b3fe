import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Exports of animations that repeat forever (docs/semantics.md §6.6: "exports play
/// it with infinite iterations"): the web's prefix and infinite period,
/// Lottie's one looping round, the errors, and, over generated programs,
/// that every cycle is one.
struct ForeverExportTests {
    static let spin = "let spin = rotate s from 0 to 360 in 1.5s repeated forever\n"
    static let fadeThenSpin = "let final = fadeIn s in 0.5s ; rotate s from 0 to 360 in 1.5s repeated forever\n"
    static let rotation = Property(view: "s", name: "rotation")

    static func web(_ text: String, name: String = "forever.anim") -> (export: WebExport?, diagnostics: [Diagnostic], outcome: Outcome) {
        let outcome = run(SourceFile(name: name, text: text))
        let (export, diagnostics) = webExport(outcome, source: name)
        return (export, diagnostics, outcome)
    }

    static func channel(_ export: WebExport?, _ property: Property) -> WebExport.Channel? {
        export?.columns.first { $0.property == property }
    }

    /// What linear keyframes show at `offset` (several at one offset: the last, as the browser shows them).
    static func shown(_ keyframes: [WebExport.Keyframe], at offset: Double) -> Double? {
        guard let first = keyframes.first else { return nil }
        if offset <= first.offset && !(keyframes.count > 1 && keyframes[1].offset <= offset) { return first.value.number }
        var index = 0
        while index + 1 < keyframes.count, keyframes[index + 1].offset <= offset { index += 1 }
        guard index + 1 < keyframes.count else { return keyframes[index].value.number }
        let a = keyframes[index], b = keyframes[index + 1]
        guard a.easing == nil, let x = a.value.number, let y = b.value.number, b.offset > a.offset else { return nil }
        return x + (y - x) * (offset - a.offset) / (b.offset - a.offset)
    }

    static func time(_ numerator: Int64, _ denominator: Int64 = 1) -> Time {
        Time(numerator: numerator, denominator: denominator) ?? .zero
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: - Web

    @Test func aSpinIsOnePeriodPlayedForever() throws {
        let (export, diagnostics, _) = Self.web(Self.spin)
        #expect(diagnostics.isEmpty)
        let animations = try #require(Self.channel(export, Self.rotation)).animations
        // It repeats from 0: no prefix, one period of 1.5 s, iterated forever from the start.
        #expect(animations.count == 1)
        let period = try #require(animations.first)
        #expect(period.isEndless && period.delay == 0 && period.duration == 1.5 && !period.fillsBoth)
        // A turn of 360 degrees in 1.5 s, linear: q of the way through a period is 360·q degrees.
        for (q, degrees) in [(0.0, 0.0), (0.25, 90.0), (0.5, 180.0), (0.75, 270.0), (0.999, 359.64)] {
            let value = try #require(Self.shown(period.keyframes, at: q))
            #expect(abs(value - degrees) < 1e-6, "at \(q): \(value)")
        }
        #expect(export?.endless?.settled == .zero && export?.endless?.period == Self.time(3, 2))
        #expect(export?.duration == Self.time(3))   // the scrubber's window: two periods
        let css = try #require(export.map(stylesheet))
        #expect(css.contains("animation:\n    animc-s-rotation 1500ms linear infinite;\n"))
    }

    @Test func aPrefixThenItsPeriodForever() throws {
        let (export, diagnostics, outcome) = Self.web(Self.fadeThenSpin, name: "fade-then-spin.anim")
        #expect(diagnostics.isEmpty)
        let fade = try #require(Self.channel(export, Property(view: "s", name: "opacity"))).animations
        #expect(fade.count == 1 && fade[0].duration == 0.5 && fade[0].fillsBoth && !fade[0].isEndless)
        let animations = try #require(Self.channel(export, Self.rotation)).animations
        // The prefix would hold 0 (the first turn's start) for 0.5 s: that is the element's own
        // value, so it is left out (docs/exports.md §7.1); the period follows after a delay of 0.5 s.
        try #require(animations.count == 1)
        #expect(try #require(Self.channel(export, Self.rotation)).start == .number(0))
        let period = animations[0]
        #expect(period.isEndless && period.delay == 0.5 && period.duration == 1.5 && !period.fillsBoth)
        // The period's keyframes at q are what eval says at 0.5 + (k + q)·1.5 s for every k: 360·q degrees.
        let compiled = try #require(try outcome.compiledScene())
        for q in [Self.time(0), Self.time(1, 5), Self.time(1, 4), Self.time(1, 2), Self.time(9, 10)] {
            let shown = try #require(Self.shown(period.keyframes, at: q.seconds))
            #expect(abs(shown - 360 * q.seconds) < 1e-6)
            for k in 0..<4 as Range<Int64> {
                let t = try Self.time(1, 2).adding(try Self.time(3, 2).multiplied(by: try q.adding(Time(k))))
                let evaluated = try #require(compiled.value(of: Self.rotation, at: t)?.number)
                #expect(abs(evaluated - shown) < 1e-6, "k \(k), q \(q): eval \(evaluated), keyframes \(shown)")
            }
        }
        // CSS: the period alone, infinite, delayed by the prefix.
        let css = try #require(export.map(stylesheet))
        #expect(css.contains("animc-s-rotation 1500ms linear 500ms infinite;") && !css.contains("animc-s-rotation-2"))
        // Web Animations JSON: "Infinity" where JSON has no infinity.
        let model = try Self.json(try #require(export.map(waapiJSON)))
        #expect(model["duration"] as? String == "Infinity")
        #expect(model["settled"] as? Double == 0.5 && model["period"] as? Double == 1.5 && model["window"] as? Double == 3.5)
        let calls = (model["elements"] as? [[String: Any]])?.first?["animations"] as? [[String: Any]] ?? []
        let options = calls.compactMap { $0["options"] as? [String: Any] }
        // The Web Animations defaults go unsaid: one iteration, fill none.
        #expect(options.map { "\($0["iterations"] ?? "")" } == ["", "Infinity"])
        #expect(options.map { "\($0["fill"] ?? "none")" } == ["both", "none"])
        #expect(options.last?["delay"] as? Double == 500 && options.first?["delay"] == nil)
        let page = try #require(export.map(playerPage))
        #expect(page.contains("\"duration\":\"Infinity\"") && page.contains("EXPORT.duration === \"Infinity\" ? Infinity"))
        // Goldens, and a page with its table for the browser check (checks/web.sh loads fixtures).
        let written = try #require(export)
        expectMatchesGolden(stylesheet(written), "web/fade-then-spin.css")
        expectMatchesGolden(waapiJSON(written), "web/fade-then-spin.json")
        expectMatchesGolden(playerPage(written), "web/fixtures/fade-then-spin.html")
        let table = evaluateToText(SourceFile(name: "fade-then-spin.anim", text: Self.fadeThenSpin), fps: 8, until: Time(5), format: .csv)
        #expect(table.succeeded)
        expectMatchesGolden(table.output, "web/fixtures/fade-then-spin.csv")
    }

    @Test func theSpinnerExample() throws {
        let export = try WebExportTests.export("examples/spinner.anim")
        let spinner = try #require(Self.channel(export, Property(view: "spinner", name: "rotation"))).animations
        #expect(spinner.count == 1 && spinner[0].isEndless && spinner[0].duration == 1.5 && spinner[0].delay == 0)
        // The dot breathes in for 0.5 s, then out (looped): a period of 1 s, 0.4 → 1 → 0.4, easing each half.
        for (name, low, high) in [("opacity", 0.4, 1.0), ("scale", 1.0, 1.6)] {
            let animations = try #require(Self.channel(export, Property(view: "dot", name: name))).animations
            #expect(animations.count == 1 && animations[0].isEndless && animations[0].duration == 1)
            let keyframes = animations[0].keyframes
            #expect(keyframes.map(\.offset) == [0, 0.5, 1])
            #expect(keyframes.map(\.value) == [.number(low), .number(high), .number(low)])
            #expect(keyframes.map(\.easing) == ["ease-in-out", "ease-in-out", nil])
        }
        // `lap` fires at 0 once, then at 1.5 s in every period of 1.5 s.
        #expect(export.events.map(\.name) == ["lap"] && export.events.map(\.time) == [.zero])
        let repeating = try #require(export.endless?.repeating)
        #expect(repeating.from == .zero && repeating.period == Self.time(3, 2))
        #expect(repeating.events.map(\.name) == ["lap"] && repeating.events.map(\.time) == [Self.time(3, 2)])
        #expect(export.duration == Self.time(3))
        WebExportTests.checkStructure(export, "spinner")
        for format in WebFormat.allCases {
            expectMatchesGolden(format.text(export), "web/spinner.\(format == .waapi ? "json" : format.rawValue)")
        }
    }

    @Test func twoPeriodsOnOnePropertyAreALocatedError() throws {
        let text = "let both = (rotate s from 0 to 360 in 1s repeated forever) || (rotate s from 0 to 90 in 1.5s repeated forever)\n"
        let file = SourceFile(name: "both.anim", text: text)
        let (export, diagnostics, _) = Self.web(text, name: "both.anim")
        #expect(export == nil)
        let error = try #require(diagnostics.first)
        #expect(diagnostics.count == 1 && error.id == "export-mixed-periods" && error.severity == .error)
        #expect(error.message == "`s.rotation` repeats every 1s and 1.5s at once: an export repeats one period")
        #expect(error.hint != nil)
        #expect(render([error], in: file).hasPrefix("both.anim:1:5: error: "))
        // Lottie refuses it the same way.
        let lottie = exportLottie(run(file))
        #expect(lottie.document == nil && lottie.diagnostics.map(\.id) == ["export-mixed-periods"])
    }

    @Test func differentPeriodsOnDifferentPropertiesExport() throws {
        let text = "let both = (rotate s from 0 to 360 in 1s repeated forever) || (fade s from 0 to 1 in 1.5s looped forever)\n"
        let (export, diagnostics, _) = Self.web(text)
        #expect(diagnostics.isEmpty)
        #expect(Self.channel(export, Self.rotation)?.animations.map(\.duration) == [1])
        #expect(Self.channel(export, Property(view: "s", name: "opacity"))?.animations.map(\.duration) == [3])
        #expect(export?.endless?.period == Self.time(3) && export?.duration == Self.time(6))
    }

    // MARK: - Lottie

    static func lottie(_ text: String, fps: Int = 60) -> (outcome: Outcome, export: LottieExport) {
        let outcome = run(SourceFile(name: "forever.anim", text: text))
        return (outcome, exportLottie(outcome, fps: fps))
    }

    @Test func lottieHoldsOneRoundOfASpinForPlayersToLoop() throws {
        // One round is 1.5 s: 90 frames at 60 fps, 36 at 24. Frame op is the next round's frame 0.
        for (fps, frames) in [(60, 90.0), (24, 36.0), (10, 15.0)] {
            let (outcome, export) = Self.lottie(Self.spin, fps: fps)
            let document = try #require(LottieExportTests.document(export))
            #expect(document["op"] as? Double == frames)
            #expect(LottieExportTests.structuralProblems(document, fps: fps, frames: Int(frames)) == [])
            #expect(export.diagnostics.map(\.id) == ["export-loops"] && export.diagnostics.first?.severity == .note)
            // Played three rounds on, frame by frame, it is what eval says at the later time.
            let compiled = try outcome.compiledScene()
            #expect(LottieExportTests.disagreements(export, compiled, initial: [:], fps: fps, rounds: 3) == [])
        }
        // A quarter of a round (frame 22.5 at 60 fps) is a quarter turn (within the few single-precision
        // steps by which the turn's last keyframe comes before the jump back to 0).
        let bytes = try #require(Self.lottie(Self.spin).export.bytes)
        let player = try #require(LottieReferencePlayer(json: bytes))
        #expect(abs((player.shown("s", at: 22.5)?.rotation ?? 0) - 90) < 1e-4)
    }

    @Test func lottieRoundOfTheSpinnerIsTheCommonMultipleOfItsPeriods() throws {
        // A turn of 1.5 s and a breath of 1 s meet again after 3 s: 180 frames at 60 fps.
        let file = try LottieExportTests.example("spinner")
        let (_, export) = LottieExportTests.export(file)
        let document = try #require(LottieExportTests.document(export))
        #expect(document["op"] as? Double == 180)
        let markers = (document["markers"] as? [[String: Any]] ?? []).map { "\($0["cm"] ?? "") \($0["tm"] ?? "")" }
        #expect(markers == ["lap 0", "lap 90"])
        let (_, tenth) = LottieExportTests.export(file, fps: 10)
        expectMatchesGolden(String(decoding: try #require(tenth.bytes), as: UTF8.self), "lottie/spinner.json")
    }

    @Test func lottieRefusesAPrefix() throws {
        let (_, export) = Self.lottie(Self.fadeThenSpin)
        #expect(export.document == nil)
        let error = try #require(export.diagnostics.first)
        #expect(export.diagnostics.count == 1 && error.id == "export-forever" && error.severity == .error)
        #expect(error.hint?.contains("`s.opacity` plays once") == true)
        #expect(error.hint?.contains("Lottie loops the whole file: export a binding that repeats from its start") == true)
        // Delayed, the endless part itself repeats only from its delay on.
        let (_, delayed) = Self.lottie("let late = rotate s from 0 to 360 in 1.5s repeated forever delayed by 1s\n")
        #expect(delayed.document == nil && delayed.diagnostics.first?.hint?.hasPrefix("`s.rotation` repeats only from 1s on") == true)
    }

    @Test func lottieRefusesRoundsThatAreNotWholeFramesOrTooLong() throws {
        let seventh = "let spin = rotate s from 0 to 360 in (1/7) s repeated forever\n"
        let (_, odd) = Self.lottie(seventh, fps: 60)
        #expect(odd.document == nil && odd.diagnostics.map(\.id) == ["export-forever"])
        #expect(odd.diagnostics.first?.hint?.contains("--fps a multiple of 7") == true)
        #expect(LottieExportTests.document(Self.lottie(seventh, fps: 70).export)?["op"] as? Double == 10)
        let (_, long) = Self.lottie("let a = (rotate s from 0 to 360 in 1s repeated forever) || (fade s from 0 to 1 in 1.001s repeated forever)\n")
        #expect(long.document == nil && long.diagnostics.map(\.id) == ["export-forever"])
        #expect(long.diagnostics.first?.hint?.contains("meet again only after more than 60s") == true)
    }

    // MARK: - Over generated programs

    /// A seeded program that repeats forever: an endless repetition (or
    /// two) of tweens, waits and events under every modifier, alone, after a
    /// prefix, beside a finite animation, or delayed.
    struct EndlessPrograms {
        var random: ProgramGenerator.SplitMix64

        init(seed: UInt64) {
            random = ProgramGenerator.SplitMix64(seed: seed)
        }

        mutating func pick(_ options: [String]) -> String {
            options[Int(random.next() % UInt64(options.count))]
        }

        mutating func duration() -> String { pick(["0.25s", "0.5s", "1s", "1.5s", "300ms", "(2/3) s", "0.75s"]) }

        mutating func leaf() -> String {
            let d = duration()
            switch random.next() % 8 {
            case 0: return "rotate v from \(pick(["0", "-90", "45"])) to \(pick(["360", "90", "180"])) in \(d)"
            case 1: return "fade w from \(pick(["0", "0.2"])) to \(pick(["1", "0.6"])) in \(d) with \(pick(["css-ease-in-out", "ease-in-sine"]))"
            case 2: return "animate v.x from \(pick(["0", "-40"])) to \(pick(["80", "10"])) in \(d) with \(pick(["linear", "ease-out-back", "steps(3)", "ease-in-out"]))"
            case 3: return "scale w from 1 to \(pick(["1.5", "0.5"])) in \(d)"
            case 4: return "wait \(d)"
            case 5: return "emit \(pick(["tick", "tock"]))"
            case 6: return "animate v.rotation from 0 to 90 in \(d) with ease-in-quad"
            default: return "animate w.x from 5 to 25 in \(d)"
            }
        }

        mutating func finite(depth: Int) -> String {
            guard depth > 0, random.next() % 4 != 0 else { return leaf() }
            let x = finite(depth: depth - 1)
            switch random.next() % 8 {
            case 0, 1: return "(\(x) ; \(finite(depth: depth - 1)))"
            case 2, 3: return "(\(x) || \(finite(depth: depth - 1)))"
            case 4: return "(\(x) reversed)"
            case 5: return "(\(x) ^ \(pick(["2", "3"])))"
            case 6: return "(\(x) delayed by \(duration()))"
            default: return "(\(x) \(pick(["looped", "in 1s", "with ease-in-out"])))"
            }
        }

        mutating func endless() -> String {
            "(\(finite(depth: 3)) \(pick(["repeated forever", "looped forever"])))"
        }

        mutating func program() -> String {
            let body: String
            switch random.next() % 5 {
            case 0: body = endless()
            case 1: body = "\(finite(depth: 2)) ; \(endless())"
            case 2: body = "\(finite(depth: 2)) || \(endless())"
            case 3: body = "\(endless()) || \(endless())"
            default: body = "\(endless()) delayed by \(duration())"
            }
            return "view v x 0\nview w opacity 1\nlet endless = \(body)\n"
        }
    }

    /// For every generated program that repeats forever and exports: each
    /// property's cycle is one by definition (the infinite scene's value at
    /// `S + q·P` is its value `k` periods later), the unrolled scene is the
    /// scene over its horizon, and the web export plays each cycle's period
    /// with infinite iterations after a delay of its start.
    @Test func generatedProgramsSettleIntoTheirCycles() throws {
        var checked = 0, refused = 0
        for seed in 0..<400 as Range<UInt64> {
            var programs = EndlessPrograms(seed: seed)
            let file = SourceFile(name: "generated-\(seed).anim", text: programs.program())
            let outcome = run(file)
            guard !outcome.hasErrors, let compiled = try? outcome.compiledScene(), compiled.isInfinite else { continue }
            guard let state = try? compiled.steadyState(initial: outcome.initial) else {
                refused += 1
                continue
            }
            func close(_ a: Value?, _ b: Value?) -> Bool {
                switch (a, b) {
                case (.number(let x)?, .number(let y)?): return x == y || abs(x - y) <= 1e-9 * max(1, abs(x), abs(y)) || (x.isNaN && y.isNaN)
                case (.color(let x)?, .color(let y)?): return nearlyEqual(.color(x), .color(y))
                default: return a == nil && b == nil
                }
            }
            // A warp places windows at inexact instants, placed anew (rounded differently) in each
            // copy: an instant that falls on one (to 1e-9 s) reads either side's value.
            func agrees(_ value: Value?, _ scene: CompiledScene, _ property: Property, at t: Time) -> Bool {
                let initial = outcome.initial[property]
                if close(value, scene.value(of: property, at: t, initial: initial)) { return true }
                let epsilon = 1e-9 * max(1, t.seconds)
                return [t.seconds - epsilon, t.seconds + epsilon].contains { close(value, scene.value(of: property, atSeconds: $0, initial: initial)) }
            }
            for (property, cycle) in state.cycles {
                for q in [Time(0), Self.time(1, 7), Self.time(1, 3), Self.time(1, 2), Self.time(5, 6)] {
                    guard let first = try? cycle.start.adding(try cycle.period.multiplied(by: q)) else { continue }
                    let value = compiled.value(of: property, at: first, initial: outcome.initial[property])
                    for k in 1...3 as ClosedRange<Int64> {
                        guard let later = try? first.adding(try cycle.period.multiplied(by: k)) else { continue }
                        #expect(agrees(value, compiled, property, at: later),
                                "seed \(seed) \(property): \(String(describing: value)) at \(first)s, not \(later)s")
                    }
                }
            }
            // The unrolled scene is the scene, up to its horizon (values and events).
            let horizon = state.unrolled.duration
            for step in 0...28 as ClosedRange<Int64> {
                guard let t = try? horizon.multiplied(by: Self.time(step, 28)) else { continue }
                for property in compiled.properties {
                    #expect(agrees(compiled.value(of: property, at: t, initial: outcome.initial[property]), state.unrolled, property, at: t),
                            "seed \(seed) \(property) at \(t)s")
                }
            }
            #expect(compiled.events(after: nil, through: Instant(horizon)) == state.unrolled.events(after: nil, through: Instant(horizon)),
                    "seed \(seed): events up to \(horizon)s")
            // The web plays each cycle's period forever, after its start: the cycles it finds with a
            // rotation's whole turns looking alike (docs/exports.md §7.3), which may start sooner.
            let (export, diagnostics) = webExport(outcome)
            #expect(!diagnostics.contains { $0.severity == .error }, "seed \(seed): \(diagnostics.map(\.message))")
            guard let played = try? compiled.steadyState(initial: outcome.initial, modulo: compiled.wholeTurns) else {
                Issue.record("seed \(seed): settles, but not with whole turns alike")
                continue
            }
            for (property, cycle) in played.cycles {
                let period = export.flatMap { Self.channel($0, property)?.animations.last }
                #expect(period?.isEndless == true && period?.delay == cycle.start.seconds && period?.duration == cycle.period.seconds,
                        "seed \(seed) \(property)")
            }
            if let export { WebExportTests.checkStructure(export, "seed \(seed)") }
            checked += 1
        }
        print("forever programs: \(checked) settled, \(refused) refused")
        #expect(checked >= 150)
    }
}
