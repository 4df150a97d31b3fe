import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// `animc export --to lottie`: the file's structure, its keyframes played by
/// a reference player against the sampler, the easings it writes exactly,
/// goldens for a few examples, and its diagnostics. (The real players are
/// checked by `checks/lottie.sh`.)
struct LottieExportTests {
    // MARK: - Helpers

    static func example(_ name: String) throws -> SourceFile {
        let path = "examples/\(name).anim"
        return SourceFile(name: path, text: try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8))
    }

    static func export(_ file: SourceFile, fps: Int = 60) -> (Outcome, LottieExport) {
        let outcome = run(file)
        return (outcome, exportLottie(outcome, fps: fps))
    }

    static func document(_ export: LottieExport) -> [String: Any]? {
        guard let bytes = export.bytes else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    }

    /// The problems with a document's structure: the Lottie schema's required
    /// fields, and the conventions the exporter promises.
    static func structuralProblems(_ document: [String: Any], fps: Int, frames: Int) -> [String] {
        var problems: [String] = []
        func number(_ object: [String: Any], _ key: String) -> Double? { object[key] as? Double }
        if !(document["v"] is String) { problems.append("v") }
        if number(document, "fr") != Double(fps) { problems.append("fr") }
        if number(document, "ip") != 0 { problems.append("ip") }
        if number(document, "op") != Double(frames) { problems.append("op \(document["op"] ?? "none"), expected \(frames)") }
        for key in ["w", "h"] where !((number(document, key) ?? 0) > 0) { problems.append(key) }
        if !(document["markers"] is [Any]) { problems.append("markers") }
        guard let layers = document["layers"] as? [[String: Any]] else { return problems + ["layers"] }
        func property(_ value: Any?, _ where_: String, dimension: Int? = nil) {
            guard let object = value as? [String: Any], let animated = object["a"] as? Double, object["k"] != nil else {
                return problems.append("\(where_): not a property")
            }
            guard animated == 1 else { return }
            guard let keys = object["k"] as? [[String: Any]], !keys.isEmpty else { return problems.append("\(where_): no keyframes") }
            var last = -Double.infinity
            for (index, key) in keys.enumerated() {
                guard let t = key["t"] as? Double, let s = key["s"] as? [Double] else { return problems.append("\(where_): keyframe \(index)") }
                if t < last { problems.append("\(where_): keyframes out of order") }
                last = t
                if let dimension, s.count != dimension { problems.append("\(where_): \(s.count) values") }
                if index + 1 < keys.count, key["h"] as? Double != 1 {
                    for handle in ["o", "i"] {
                        let h = key[handle] as? [String: Any]
                        // One number for every dimension.
                        if !(h?["x"] is Double) || !(h?["y"] is Double) { problems.append("\(where_): keyframe \(index) \(handle)") }
                    }
                    if let x = (key["o"] as? [String: Any])?["x"] as? Double, let x2 = (key["i"] as? [String: Any])?["x"] as? Double,
                       ![x, x2].allSatisfy({ (0...1).contains($0) }) {
                        problems.append("\(where_): handle x outside [0, 1]")
                    }
                }
            }
        }
        for (index, outer) in layers.enumerated() {
            let where_ = "layers[\(index)]"
            if number(outer, "ind") != Double(index + 1) { problems.append("\(where_).ind") }
            var drawn = [outer]
            if number(outer, "ty") == 0 {
                // Views drawn through a time remap: a precomposition of their shape layers, a frame longer than the file.
                guard let id = outer["refId"] as? String,
                      let asset = (document["assets"] as? [[String: Any]])?.first(where: { $0["id"] as? String == id }),
                      let inner = asset["layers"] as? [[String: Any]], !inner.isEmpty else {
                    problems.append("\(where_): precomposition")
                    continue
                }
                property(outer["tm"], where_ + ".tm", dimension: 1)
                if number(outer, "ip") != 0 || number(outer, "op") != Double(frames + 1) { problems.append("\(where_): ip, op") }
                drawn = inner
            } else if number(outer, "ip") != 0 || number(outer, "op") != Double(frames) || number(outer, "st") != 0 {
                problems.append("\(where_): ip, op, st")
            }
            for layer in drawn {
                if number(layer, "ty") != 4 { problems.append("\(where_).ty") }
                if !(layer["nm"] is String) { problems.append("\(where_).nm") }
                guard let ks = layer["ks"] as? [String: Any], let position = ks["p"] as? [String: Any], position["s"] as? Bool == true else {
                    problems.append("\(where_).ks")
                    continue
                }
                property(position["x"], where_ + ".p.x", dimension: 1)
                property(position["y"], where_ + ".p.y", dimension: 1)
                property(ks["r"], where_ + ".r", dimension: 1)
                property(ks["o"], where_ + ".o", dimension: 1)
                property(ks["s"], where_ + ".s", dimension: 2)
                property(ks["a"], where_ + ".a")
                guard let shapes = layer["shapes"] as? [[String: Any]], shapes.count == 1, shapes[0]["ty"] as? String == "gr",
                      let items = shapes[0]["it"] as? [[String: Any]], items.count == 3 else {
                    problems.append("\(where_).shapes")
                    continue
                }
                if !["el", "rc"].contains(items[0]["ty"] as? String ?? "") || items[1]["ty"] as? String != "fl" || items[2]["ty"] as? String != "tr" {
                    problems.append("\(where_): shape, fill, transform")
                }
                property(items[0]["s"], where_ + ".shape.s", dimension: 2)
                property(items[1]["c"], where_ + ".fill.c", dimension: 4)
                property(items[1]["o"], where_ + ".fill.o", dimension: 1)
            }
        }
        return problems
    }

    /// What animc says a layer shows, from a sampled row.
    struct Expected {
        var x = 0.0, y = 0.0, rotation = 0.0, scale = [1.0, 1.0], opacity = 1.0
        var size = [LottieExport.defaultSize, LottieExport.defaultSize]
        var color: Color?
    }

    static func expected(_ columns: [Property], _ row: [Value], view: String) -> Expected {
        var result = Expected()
        var values: [String: Value] = [:]
        for (column, value) in zip(columns, row) where column.view == view { values[column.name] = value }
        func number(_ key: String) -> Double? { values[key]?.number }
        result.x = number("x") ?? 0
        result.y = number("y") ?? 0
        result.rotation = number("rotation") ?? 0
        result.scale = [(number("scale") ?? 1) * (number("scale-x") ?? 1), (number("scale") ?? 1) * (number("scale-y") ?? 1)]
        result.opacity = min(max(number("opacity") ?? 1, 0), 1)
        if let radius = number("radius") {
            result.size = [2 * radius, 2 * radius]
        } else {
            let side = number("size") ?? LottieExport.defaultSize
            result.size = [number("width") ?? side, number("height") ?? side]
        }
        for key in ["color", "fill"] {
            if case .color(let color)? = values[key] {
                result.color = color.clamped
                break
            }
        }
        return result
    }

    /// Plays an export with the reference player at every check frame and
    /// compares with the sampler; returns the disagreements. A file that
    /// loops (an animation that repeats forever) is also played `rounds`
    /// more times: frame f of round r against the sampler at f + r·op.
    static func disagreements(_ export: LottieExport, _ compiled: CompiledScene?, initial: [Property: Value], fps: Int,
                              relative: Double = 1e-4, rounds: Int = 0,
                              only: [(numerator: Int64, denominator: Int64)]? = nil) -> [String] {
        guard let bytes = export.bytes, let player = LottieReferencePlayer(json: bytes),
              let op = player.document["op"] as? Double else { return ["no document"] }
        let views = player.views
        var rows: [(Double, [Value])] = []
        var columns: [Property] = []
        // `only`: some of them, frame 0 first (where each view's home is measured).
        let frames = only ?? lottieCheckFrames(op: Int(op), loops: rounds > 0)
        for round in 0...rounds {
            for (numerator, denominator) in frames {
                let frame = Double(numerator) / Double(denominator)
                guard let time = Time(numerator: numerator + Int64(round) * Int64(op) * denominator, denominator: denominator * Int64(fps))
                else { continue }
                if let compiled {
                    let sampler = compiled.sampler(initial: initial)
                    columns = sampler.columns
                    var row: [Value] = []
                    sampler.sample(at: time, into: &row)
                    rows.append((frame, row))
                } else {
                    columns = initial.keys.sorted()
                    rows.append((frame, columns.map { initial[$0] ?? .number(0) }))
                }
            }
        }
        var problems: [String] = []
        for view in views {
            let series = rows.map { expected(columns, $0.1, view: view) }
            func range(_ values: [Double]) -> Double {
                let finite = values.filter(\.isFinite)
                return (finite.max() ?? 0) - (finite.min() ?? 0)
            }
            func tolerance(_ values: [Double]) -> Double { relative * range(values) + 1e-9 * max(1, values.map(abs).filter(\.isFinite).max() ?? 1) }
            let tolerances = (x: tolerance(series.map(\.x)), y: tolerance(series.map(\.y)), rotation: tolerance(series.map(\.rotation)),
                              scale: tolerance(series.flatMap(\.scale)), opacity: tolerance(series.map(\.opacity)),
                              size: tolerance(series.flatMap(\.size)))
            guard let home = player.shown(view, at: 0).map({ (x: $0.x - series[0].x, y: $0.y - series[0].y) }) else {
                problems.append("\(view): not playable")
                continue
            }
            for ((frame, _), want) in zip(rows, series) {
                if player.hidden(view, at: frame) {
                    problems.append("frame \(frame) \(view): hidden, outside its layer's ip..op")
                    continue
                }
                guard let shown = player.shown(view, at: frame) else { continue }
                var checks: [(String, Double, Double, Double)] = [
                    ("x", shown.x - home.x, want.x, tolerances.x), ("y", shown.y - home.y, want.y, tolerances.y),
                    ("rotation", shown.rotation, want.rotation, tolerances.rotation), ("scale-x", shown.scale[0], want.scale[0], tolerances.scale),
                    ("scale-y", shown.scale[1], want.scale[1], tolerances.scale),
                    ("opacity", shown.opacity, want.opacity, tolerances.opacity),
                    ("width", shown.size[0], want.size[0], tolerances.size), ("height", shown.size[1], want.size[1], tolerances.size),
                ]
                if let color = want.color {
                    let channel = 255 * relative + 1e-9
                    checks += [("red", shown.color[0], color.red, channel), ("green", shown.color[1], color.green, channel),
                               ("blue", shown.color[2], color.blue, channel), ("alpha", shown.alpha, color.alpha, relative + 1e-9)]
                }
                for (what, got, wanted, allowed) in checks where wanted.isFinite && !(abs(got - wanted) <= allowed) {
                    problems.append("frame \(frame) \(view).\(what): \(got), animc says \(wanted)")
                }
            }
        }
        return problems
    }

    // MARK: - Every example

    static let examples = exampleFiles.map { String($0.dropLast(5)) }.filter { $0 != "forever" }

    @Test(arguments: examples)
    func examplesHaveEveryRequiredFieldAndPlayAsTheyEvaluate(_ name: String) throws {
        let file = try Self.example(name)
        for fps in [60, 24] {
            let (outcome, export) = Self.export(file, fps: fps)
            #expect(!export.diagnostics.contains { $0.severity == .error }, "\(render(export.diagnostics, in: file))")
            let document = try #require(Self.document(export))
            let compiled = try outcome.compiledScene()
            // One that repeats forever is one round, which players loop (ForeverExportTests checks its length).
            let loops = compiled?.isInfinite == true
            let frames = loops ? Int(document["op"] as? Double ?? 0) : FrameTimes(duration: compiled?.duration ?? .zero, fps: Int64(fps)).count ?? 0
            #expect(Self.structuralProblems(document, fps: fps, frames: frames) == [])
            let problems = Self.disagreements(export, compiled, initial: outcome.initial, fps: fps, rounds: loops ? 2 : 0)
            let agree = problems.isEmpty
            #expect(agree, "\(name) at \(fps) fps: \(problems.prefix(5))")
        }
    }

    /// Random programs of every construct (extreme numbers, inexact
    /// durations, every easing) either export or are refused with a catalog
    /// error; what exports has the required fields and plays as it evaluates.
    @Test func generatedProgramsExportAndPlayAsTheyEvaluate() throws {
        var played = 0, skipped = [0, 0, 0, 0]
        for seed in 0..<600 as Range<UInt64> {
            var generator = ProgramGenerator(seed: seed)
            let file = SourceFile(name: "generated-\(seed).anim", text: format(generator.program()))
            let outcome = run(file)
            guard !outcome.hasErrors, let scene = outcome.scene, let compiled = try? outcome.compiledScene() else { skipped[0] += 1; continue }
            let fps = [4, 10, 25][Int(seed % 3)]
            guard var frames = FrameTimes(duration: compiled.duration, fps: Int64(fps)).count, frames <= 400 else { skipped[1] += 1; continue }
            let export = exportLottie(outcome, fps: fps)
            guard let document = Self.document(export) else {
                let ids = export.diagnostics.map(\.id)
                #expect(ids.allSatisfy { ["not-finite", "too-many-keyframes", "export-forever", "export-mixed-periods",
                                         "export-unsettled"].contains($0) }, "seed \(seed): \(ids)")
                skipped[2] += 1
                continue
            }
            // One that repeats forever is one round (its length: a whole number of frames, checked below by playing it).
            if compiled.isInfinite { frames = Int(document["op"] as? Double ?? 0) }
            #expect(Self.structuralProblems(document, fps: fps, frames: frames) == [], "seed \(seed)")
            // Numbers at the ends of Double's range play within their own rounding only.
            // (The stage grows with them, and the homes of every view with it.)
            func extreme(_ value: Double?) -> Bool {
                guard let value else { return false }
                return abs(value) > 1e12 || (abs(value) < 1e-12 && value != 0)
            }
            // A home far out (`view v at (1.5e30, 0)`) swallows the offsets added to it in the layer's position.
            func anyExtreme(_ json: Any) -> Bool {
                if let number = json as? Double { return abs(number) > 1e12 }
                if let array = json as? [Any] { return array.contains(where: anyExtreme) }
                if let object = json as? [String: Any] { return object.values.contains(where: anyExtreme) }
                return false
            }
            let huge = outcome.initial.values.contains { extreme($0.number) } || compiled.properties.contains { property in
                [Time.zero, compiled.duration].contains { t in extreme(compiled.value(of: property, at: t)?.number) }
            } || anyExtreme(document["layers"] ?? [])
            if huge { skipped[3] += 1; continue }
            let problems = Self.disagreements(export, compiled, initial: outcome.initial, fps: fps, rounds: compiled.isInfinite ? 2 : 0)
            let agree = problems.isEmpty
            #expect(agree, "seed \(seed) at \(fps) fps:\n\(file.text(SourceRange(0, file.bytes.count)))\n\(problems.prefix(3))")
            played += 1
        }
        print("played \(played), skipped \(skipped)")
        #expect(played >= 80)
    }

    // MARK: - Conventions

    @Test func layersAreTheViewsInFirstMentionOrderWithHomesAsThePageLaysThemOut() throws {
        let file = SourceFile(name: "order.anim", text: """
            view zeta opacity 0.5
            let a = animate beta.x from 0 to 10 || grow alpha from radius 10 to 20
            let final = a ; animate zeta.y from 0 to 5
            """)
        let (_, export) = Self.export(file)
        let bytes = try #require(export.bytes)
        let player = try #require(LottieReferencePlayer(json: bytes))
        #expect(player.layers.compactMap { $0["nm"] as? String } == ["zeta", "beta", "alpha"])
        let homes = ["zeta", "beta", "alpha"].compactMap { player.shown($0, at: 0) }.map { ($0.x, $0.y) }
        #expect(homes.count == 3)
        // `beta` travels 10 px sideways, `zeta` 5 px down: the page stacks them (their paths do not cross), one lane each.
        #expect(Set(homes.map(\.0)).count == 1)
        #expect(homes[0].1 < homes[1].1 && homes[1].1 < homes[2].1)
        // Lanes 28 px apart at their largest: zeta reaches y −30…35, beta −30…30, alpha (radius 20) −20…20.
        #expect(homes[1].1 - homes[0].1 == 35 + 28 + 30 && homes[2].1 - homes[1].1 == 30 + 28 + 20)
        // Everything shifted into the canvas by its margin (20): zeta's lane starts at its top (−30 about its home),
        // and the lanes' left edge is beta's (x from 0, half-width 30). The canvas: 20 + 30 + 10 + 30 + 20 wide.
        #expect(homes[0].0 == 20 + 30 && homes[0].1 == 20 + 30)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(document["w"] as? Double == 110 && document["h"] as? Double == 20 + 30 + 93 + 78 + 20 + 20)
        // An ellipse for a radius, a square of 60 otherwise.
        let shapes = player.layers.compactMap { (($0["shapes"] as? [[String: Any]])?.first?["it"] as? [[String: Any]])?.first?["ty"] as? String }
        #expect(shapes == ["rc", "rc", "el"])
        #expect(player.shown("zeta", at: 0)?.size == [60, 60])
        #expect(player.shown("zeta", at: 0)?.opacity == 0.5)
    }

    @Test func framesAreThoseOfEval() throws {
        // 1.25 s at 60 fps: frames 0…75, op 76; at 25 fps the end (31.25) falls between frames 31 and 32: op 33.
        let file = SourceFile(name: "f.anim", text: "let a = animate v.x from 0 to 1 in 1.25s\n")
        #expect(Self.document(Self.export(file, fps: 60).1)?["op"] as? Double == 76)
        #expect(Self.document(Self.export(file, fps: 25).1)?["op"] as? Double == 33)
        #expect(Self.document(Self.export(file, fps: 25).1)?["fr"] as? Double == 25)
    }

    @Test func cancelledZeroLengthAndInstantAnimationsAreOneFrame() throws {
        let cancelled = Self.export(try Self.example("cancelled"))
        #expect(cancelled.1.diagnostics.map(\.id) == ["export-cancelled"])
        #expect(cancelled.1.diagnostics.first?.severity == .warning)
        let document = try #require(Self.document(cancelled.1))
        #expect(document["op"] as? Double == 1)
        #expect((document["layers"] as? [[String: Any]])?.compactMap { $0["nm"] as? String } == ["ball"])
        // Nothing, in no time: one frame of the declared views.
        let one = Self.export(SourceFile(name: "one.anim", text: "view v x 5\nlet a = one\n"))
        #expect(Self.document(one.1)?["op"] as? Double == 1)
        #expect(Self.document(one.1).map { Self.structuralProblems($0, fps: 60, frames: 1) } == [])
        // A jump at an instant: the one frame shows the state after it.
        let instant = Self.export(SourceFile(name: "jump.anim", text: "let a = animate v.x from 0 to 40 in 0s\n"))
        let bytes = try #require(instant.1.bytes)
        let player = try #require(LottieReferencePlayer(json: bytes))
        #expect(player.document["op"] as? Double == 1)
        let home = try #require(player.shown("v", at: 0))
        let stage = try #require(player.document["w"] as? Double)
        #expect(home.x - 40 >= 0 && home.x + 30 <= stage)
    }

    @Test func propertiesLottieCannotCarryAreNamedInAWarning() throws {
        let (_, export) = Self.export(try Self.example("laws"))
        let warning = try #require(export.diagnostics.first)
        #expect(warning.id == "export-drops-properties" && warning.severity == .warning)
        #expect(warning.message == "`ball.red` has no place in a Lottie file and is left out")
        #expect(export.document != nil)
        let file = SourceFile(name: "m.anim", text: "let a = animate v.level from 0 to 1 || animate v.radius from 1 to 2 || animate v.width from 1 to 2\n")
        let many = Self.export(file)
        #expect(many.1.diagnostics.first?.message == "`v.level` and `v.width` have no place in a Lottie file and are left out")
        // At the first tween of a property left out (`animate v.level …`, 1:9), not the binding's name (1:5).
        let place = file.location(of: try #require(many.1.diagnostics.first).range.start)
        #expect(place.description == "1:9")
    }

    @Test func tooLongAnimationsAreRefusedWithACatalogError() throws {
        let (_, export) = Self.export(try Self.example("forever"))
        #expect(export.document == nil)
        #expect(export.diagnostics.map(\.id) == ["export-too-long"])
        #expect(export.diagnostics.first?.message == "`final` lasts 1000000001s: at 60 fps that is more than 1000000 frames")
    }

    // MARK: - Keyframes

    static func keyframes(_ export: LottieExport, layer: String, _ path: (([String: Any]) -> Any?)) -> [[String: Any]]? {
        guard let bytes = export.bytes, let player = LottieReferencePlayer(json: bytes), let found = player.layer(named: layer)?.layer else { return nil }
        return (path(found) as? [String: Any])?["k"] as? [[String: Any]]
    }

    static func x(_ layer: [String: Any]) -> Any? { ((layer["ks"] as? [String: Any])?["p"] as? [String: Any])?["x"] }

    @Test func cubicBezierEasingsAreExactHandles() throws {
        let (_, export) = Self.export(SourceFile(name: "e.anim", text: "let a = animate v.x from 0 to 100 with cubic-bezier(0.1, 0.7, 1, 0.1)\n"))
        let keys = try #require(Self.keyframes(export, layer: "v", Self.x))
        #expect(keys.count == 2)
        #expect((keys[0]["o"] as? [String: Any])?["x"] as? Double == 0.1)
        #expect((keys[0]["o"] as? [String: Any])?["y"] as? Double == 0.7)
        #expect((keys[0]["i"] as? [String: Any])?["x"] as? Double == 1)
        #expect((keys[0]["i"] as? [String: Any])?["y"] as? Double == 0.1)
        #expect(keys[1]["t"] as? Double == 60)
    }

    @Test func inOutCurvesAreTwoArcsMeetingAtTheMiddle() throws {
        let (_, export) = Self.export(SourceFile(name: "e.anim", text: "let a = animate v.x from 0 to 100 with ease-in-out-back\n"))
        let keys = try #require(Self.keyframes(export, layer: "v", Self.x))
        #expect(keys.compactMap { $0["t"] as? Double } == [0, 30, 60])
        let home = try #require((keys[0]["s"] as? [Double])?.first)
        #expect((keys[1]["s"] as? [Double])?.first == home + 50)
    }

    @Test func stepsAreHoldKeyframes() throws {
        let (_, export) = Self.export(SourceFile(name: "e.anim", text: "let a = animate v.x from 0 to 90 with steps(3)\n"))
        let keys = try #require(Self.keyframes(export, layer: "v", Self.x))
        #expect(keys.dropLast().allSatisfy { $0["h"] as? Double == 1 })
        #expect(keys.count == 4)
        // Each jump goes a few single-precision steps early, so that a player landing a hair early still shows it.
        let times = keys.compactMap { $0["t"] as? Double }
        #expect(times[0] == 0 && abs(times[1] - 20) < 1e-4 && times[1] < 20 && abs(times[2] - 40) < 1e-4)
        let values = keys.compactMap { ($0["s"] as? [Double])?.first }
        #expect(zip(values, values.dropFirst()).allSatisfy { $1 - $0 == 30 })
    }

    /// A curve Lottie lacks is baked into as few cubics as stay within 1e-5
    /// of the range at every frame and halfway between (docs/exports.md §7):
    /// fewer keyframes than frames, yet the player agrees at every check frame.
    @Test func otherCurvesAreBakedIntoFewCubicsWithinTheBound() throws {
        let (outcome, export) = Self.export(SourceFile(name: "e.anim", text: "let a = animate v.x from 0 to 100 with ease-out-elastic\n"), fps: 30)
        let keys = try #require(Self.keyframes(export, layer: "v", Self.x))
        // (ease-out-elastic, as easings.net writes it, jumps by 2^-10 at its end: that last keyframe goes a hair early.)
        let frames = keys.compactMap { $0["t"] as? Double }
        #expect(frames.first == 0 && frames.contains { abs($0 - 30) < 1e-4 }, "\(frames)")
        // A smooth curve over 30 frames: a handful of cubics (the error of a cubic through
        // its ends and thirds falls with the fourth power of its length), not one a frame.
        let (_, sine) = Self.export(SourceFile(name: "s.anim", text: "let a = animate v.x from 0 to 100 with ease-in-out-sine\n"), fps: 30)
        let smooth = try #require(Self.keyframes(sine, layer: "v", Self.x))
        #expect(smooth.count <= 9, "\(smooth.count)")   // at most eight cubics, and the end
        let problems = Self.disagreements(export, try outcome.compiledScene(), initial: outcome.initial, fps: 30, relative: 1e-5)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    /// A spring that turns back far faster than the frames: `stiffness 0.0001,
    /// damping 1e-5, velocity −5` is ω = 0.01, ζ = 5e-4, v = −500 in units of
    /// ω (docs/semantics.md §6.4), so its settling `ωT = ln(√(1 + 500²)/0.001)/ζ ≈ 26,000`
    /// holds `ωT·√(1 − ζ²)/2π ≈ 4,200` turns, all in the tween's 1 s: about a
    /// thousand a frame at 4 fps (generated program 270). Samples a frame (or a
    /// sixth) apart land in step with it and see a smooth curve that is not there.
    /// Played well between the frames too, the file shows what `animc eval` says
    /// (ζ = 0.05/(2·10) = 0.0025 for `spring(damping 0.05)`: some 440 turns in its 2 s).
    @Test(arguments: [("out", "fadeIn out with spring(stiffness 0.0001, damping 1e-5, velocity -5)", 4),
                      ("v", "animate v.x from 0 to 100 with spring(stiffness 0.0001, damping 1e-3, velocity -5)", 4),
                      ("v", "animate v.x from 0 to 100 in 2s with spring(damping 0.05)", 10),
                      // Tied with another tween: the piece is sampled, the spring's turns still count.
                      ("v", "animate v.x from 0 to 100 in 2s with spring(damping 0.05) || animate v.x from 0 to 100 in 2s", 4)])
    func aSpringThatOscillatesFasterThanTheFramesPlaysAsItEvaluates(_ view: String, _ tween: String, _ fps: Int) throws {
        let (outcome, export) = Self.export(SourceFile(name: "s.anim", text: "let a = \(tween)\n"), fps: fps)
        #expect(!export.diagnostics.contains { $0.severity == .error }, "\(export.diagnostics.map(\.message))")
        let compiled = try #require(try outcome.compiledScene())
        let bytes = try #require(export.bytes)
        let player = try #require(LottieReferencePlayer(json: bytes))
        let property = try #require(compiled.properties.first)
        let lottie = property.name == "opacity" ? 100.0 : 1.0
        let home = try #require(player.shown(view, at: 0)).x - (property.name == "x" ? compiled.value(of: property, at: .zero)?.number ?? 0 : 0)
        // 1,001 instants spread over the animation, most of them between frames, at exact times.
        let count: Int64 = 1000
        let duration = compiled.duration
        var worst = 0.0, at = 0.0
        for k in 0...count {
            let time = try duration.multiplied(by: try #require(Time(numerator: k, denominator: count)))
            guard var want = compiled.value(of: property, at: Instant(time))?.number else { continue }
            if lottie == 100 { want = min(max(want, 0), 1) * 100 }
            let shown = try #require(player.shown(view, at: time.seconds * Double(fps)))
            let got = lottie == 100 ? shown.opacity * 100 : shown.x - home
            if abs(got - want) > worst { (worst, at) = (abs(got - want), time.seconds) }
        }
        // Within 1e-3 of the range (opacity 0…100; x swings to about ±100·500 for the first, ±100 for the others).
        let range = lottie == 100 ? 100.0 : try (0...count).reduce(0.0) { most, k in
            let time = try duration.multiplied(by: try #require(Time(numerator: k, denominator: count)))
            return max(most, abs(compiled.value(of: property, at: Instant(time))?.number ?? 0))
        }
        #expect(worst <= 1e-3 * range, "off by \(worst) at \(at)s (range \(range))")
    }

    /// One that turns back more often than the keyframe limit can follow, at
    /// any frame rate (ζ = 5e-8: some 40 million turns), is refused with the
    /// catalog's error, at the binding, with a hint that a lower --fps does not help.
    @Test func aSpringTooFastForTheKeyframeLimitIsRefused() throws {
        let file = SourceFile(name: "s.anim", text: "let my-anim = fadeIn out with spring(stiffness 0.0001, damping 1e-9, velocity -5)\n")
        let (_, export) = Self.export(file, fps: 4)
        let refused = export.document == nil
        #expect(refused)
        #expect(export.diagnostics.map(\.id) == ["too-many-keyframes"])
        let rendered = render(export.diagnostics, in: file)
        #expect(rendered.hasPrefix("s.anim:1:5: error: `my-anim` needs more than 2000000 keyframes"), "\(rendered)")
        #expect(rendered.contains("hint: a curve turns back faster than the frames"), "\(rendered)")
        // A repetition kept symbolic is drawn from one copy through a time remap
        // (docs/exports.md §7): some 44 turns of ζ = 0.025 baked once, and two remap
        // keyframes for each of the 99,999 copies after the first, within the limit.
        let repeated = SourceFile(name: "r.anim", text: "let a = (animate v.x from 0 to 100 in 0.5s with spring(damping 0.5)) ^ 100000\n")
        let (_, many) = Self.export(repeated, fps: 4)
        #expect(many.diagnostics.isEmpty)
        let document = try #require(Self.document(many))
        let layer = try #require((document["layers"] as? [[String: Any]])?.first)
        #expect(layer["ty"] as? Double == 0)
        let remap = try #require((layer["tm"] as? [String: Any])?["k"] as? [[String: Any]])
        #expect(remap.count == 2 + 2 * 99_999)
    }

    @Test func aValueThatLastsAnInstantIsHeldBriefly() throws {
        // At 1 s the newer tween ends (600) while the older one runs on: 600 only at that instant.
        let file = SourceFile(name: "i.anim", text: "let a = animate v.x from 0 to 100 in 2s || (animate v.x from 500 to 600 in 0.5s delayed by 0.5s)\n")
        let (_, export) = Self.export(file)
        let bytes = try #require(export.bytes)
        let player = try #require(LottieReferencePlayer(json: bytes))
        let home = try #require(player.shown("v", at: 0)).x
        let atInstant = try #require(player.shown("v", at: 60)).x, after = try #require(player.shown("v", at: 60.5)).x
        let before = try #require(player.shown("v", at: 59.99)).x
        #expect(atInstant - home == 600)
        #expect(abs(after - home - 50 - 100.0 / 240) < 1e-9)
        #expect(before - home > 599)
    }

    // MARK: - Easings as Bézier arcs

    /// ease-in(3) = 1 − (1 − p)^(1/3) (``Easing/rootArc``).
    static let rootOfThree = (try? Easing.easeIn(3)) ?? .linear

    static let exactEasings: [Easing] = [
        .linear, .ease, .cssEaseIn, .cssEaseOut, .cssEaseInOut, Easing.talkEaseOut, Easing.talkEaseIn, Self.rootOfThree,
    ] + [Easing.PennerCurve.quad, .cubic, .back].flatMap { curve in Easing.PennerMode.allCases.map { Easing.penner(curve, $0) } }

    @Test(arguments: exactEasings)
    func bezierArcsAreTheCurve(_ easing: Easing) throws {
        let arcs = try #require(easing.bezierArcs)
        for step in 0...200 {
            let p = Double(step) / 200
            let arc = try #require(arcs.first { $0.start.x <= p && p <= $0.end.x })
            let y = arc.point(at: arc.parameter(atX: p)).y
            #expect(abs(y - easing(p)) < 1e-12, "\(easing) at \(p): \(y) vs \(easing(p))")
        }
        // Their mirrors (reversed tweens) too.
        let mirror = try #require(easing.mirrored.bezierArcs)
        for step in 0...50 {
            let p = Double(step) / 50
            let arc = try #require(mirror.first { $0.start.x <= p && p <= $0.end.x })
            #expect(abs(arc.point(at: arc.parameter(atX: p)).y - easing.mirrored(p)) < 1e-12)
        }
    }

    @Test func theTalksPolynomialCurvesAreExactAndTheOthersAreNot() throws {
        #expect(try Easing.easeOut(3).bezierArcs != nil)
        #expect(try Easing.easeIn(0.5).bezierArcs != nil)
        #expect(try Easing.easeOut(1.5).bezierArcs == nil)
        // The roots 1 − (1 − p)^(1/n) for n = 2, 3 are Béziers too (``Easing/rootArc``); n = 4 is not.
        #expect(Easing.talkEaseIn.bezierArcs != nil)
        #expect(try Easing.easeOut(1.0 / 3).bezierArcs != nil)
        #expect(try Easing.easeIn(4).bezierArcs == nil)
        #expect(Easing.talkEaseInOut.bezierArcs == nil)
        #expect(Easing.penner(.elastic, .out).bezierArcs == nil)
        #expect(Easing.penner(.back, .out).composed(after: .penner(.quad, .in)).bezierArcs == nil)
        #expect(try Easing.penner(.quad, .in).composed(after: .steps(4)).stepJumps?.count == 5)
    }

    @Test func aCutOfAnArcIsTheCurveBetweenItsEnds() throws {
        let easing = Easing.penner(.back, .inOut)
        for (p0, p1) in [(0.2, 0.9), (0.7, 0.1), (0.5, 1.0), (0.0, 0.3)] {
            let arcs = try #require(bezierArcs(of: easing, from: p0, to: p1))
            #expect(abs(arcs.first!.start.x - p0) < 1e-12 && abs(arcs.last!.end.x - p1) < 1e-12)
            for arc in arcs {
                let unit = try #require(arc.unitForm)
                for q in stride(from: 0.0, through: 1.0, by: 0.125) {
                    let p = arc.start.x + (arc.end.x - arc.start.x) * q
                    let y = arc.start.y + (arc.end.y - arc.start.y) * unit.value(at: q)
                    #expect(abs(y - easing(p)) < 1e-9, "\(p0)→\(p1) at \(p)")
                }
            }
        }
    }

    // MARK: - Colours and events (built with the library: the language has no literals for them yet)

    static let red = Color(red: 255, green: 0, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 255)

    @Test func aColourKeepsItsEasingWhileItsAlphaStaysAndIsBakedWhenItChanges() throws {
        let color = Property(view: "v", name: "color")
        let steady = Scene.tween(try Tween(property: color, from: .color(Self.red), to: .color(Self.blue), easing: .penner(.quad, .in)))
        let fading = Scene.tween(try Tween(property: color, from: .color(Self.red),
                                           to: .color(Color(red: 0, green: 0, blue: 255, alpha: 0.2)), easing: .penner(.quad, .in)))
        for (scene, baked) in [(steady, false), (fading, true)] {
            let export = exportLottie(scene: scene, name: "a", fps: 30)
            #expect(export.diagnostics.isEmpty)
            let fill = { (layer: [String: Any]) -> Any? in
                ((layer["shapes"] as? [[String: Any]])?.first?["it"] as? [[String: Any]])?[1]["c"]
            }
            let keys = try #require(Self.keyframes(export, layer: "v", fill))
            // Baked: fewer keyframes than frames (cubics as long as they fit), more than the exact two.
            #expect(baked ? keys.count > 2 && keys.count < 31 : keys.count == 2, "\(keys.count)")
            let problems = Self.disagreements(export, try scene.compile(), initial: [:], fps: 30)
            #expect(problems.isEmpty, "\(problems.prefix(3))")
        }
    }

    @Test func eventsAreMarkersWhereTheyFire() throws {
        let x = Property(view: "v", name: "x")
        let step = try Scene.tween(x, from: 0, to: 1, duration: Time(1))
        // 0.5 s: `ping` at the end of a half-second wait; reversed twice over, then a second in 2 s.
        let pinged = try Scene.wait(Time(numerator: 1, denominator: 2)!).then(.event("ping"))
        let scene = try Scene.sequence([step.alongside(pinged), try step.alongside(.event("start")).reversed.retimed(to: Time(2)),
                                        try Scene.event("tick").then(try .wait(Time(1))).repeated(3)])
        let export = exportLottie(scene: scene, name: "a", fps: 10)
        let markers = try #require(Self.document(export)?["markers"] as? [[String: Any]])
        let placed = markers.map { ($0["cm"] as? String ?? "", $0["tm"] as? Double ?? -1) }
        #expect(placed.map(\.0) == ["ping", "start", "tick", "tick", "tick"])
        #expect(placed.map(\.1) == [5, 30, 30, 40, 50])
        #expect(markers.allSatisfy { $0["dr"] as? Double == 0 })
    }

    @Test func aWarpMovesAnEventToWhereItsTimeIsReached() throws {
        // `with` on a composite: the state at t is the state at D·E(t/D); ease-in-quad puts 1/4 of the way at half time.
        let scene = try Scene.sequence([try .wait(Time(1)), .event("quarter"), try .wait(Time(3))]).eased(.penner(.quad, .in))
        let markers = try #require(Self.document(exportLottie(scene: scene, name: "a", fps: 10))?["markers"] as? [[String: Any]])
        #expect(abs((markers.first?["tm"] as? Double ?? 0) - 20) < 1e-6)
    }

    // MARK: - Goldens

    @Test(arguments: [("talk", 10), ("choreography", 10), ("jumps", 4), ("holds-and-fills", 4)])
    func lottieGoldens(_ name: String, _ fps: Int) throws {
        let file = try Self.example(name)
        let (_, export) = Self.export(file, fps: fps)
        expectMatchesGolden(try #require(export.document).text(pretty: true), "lottie/\(name).json")
    }
}

/// Writes the colour and event fixtures that `checks/lottie.sh` plays in the
/// real players, when `ANIMC_LOTTIE_FIXTURES` names a directory: for each,
/// NAME.json (the export), NAME.csv (the values the sampler gives at the
/// check frames, as `animc eval --format csv`) and NAME.markers (the events
/// as placed by hand: name and frame). Without the variable it checks that
/// every fixture exports.
struct LottieFixtures {
    struct Fixture {
        let name: String
        let scene: Scene
        let fps: Int
        let markers: [(String, Double)]
    }

    static func fixtures() throws -> [Fixture] {
        let color = Property(view: "ball", name: "color"), fill = Property(view: "box", name: "fill")
        let x = Property(view: "ball", name: "x"), radius = Property(view: "ball", name: "radius")
        let red = Color(red: 255, green: 0, blue: 0), navy = Color(red: 0, green: 0, blue: 128)
        let clear = Color(red: 0, green: 0, blue: 0, alpha: 0), gold = Color(red: 255, green: 215, blue: 0)
        let faint = Color(red: 20, green: 200, blue: 120, alpha: 0.4), pink = Color(red: 255, green: 0, blue: 128, alpha: 0.7)
        func tween(_ property: Property, _ a: Color, _ b: Color, _ easing: Easing = .linear, _ seconds: Time = .one) throws -> Scene {
            Scene.tween(try Tween(property: property, from: .color(a), to: .color(b), easing: easing, duration: seconds))
        }
        let half = Time(numerator: 1, denominator: 2) ?? .one
        return [
            Fixture(name: "color-linear", scene: try tween(color, red, navy), fps: 30, markers: []),
            Fixture(name: "color-eased-and-steps", scene: try Scene.sequence([
                try tween(color, red, gold, .penner(.cubic, .inOut)), try tween(color, gold, navy, try .steps(4)),
                try tween(color, navy, red, .penner(.back, .out), half),
            ]), fps: 24, markers: []),
            Fixture(name: "alpha-fades", scene: try Scene.sequence([
                try tween(color, red, clear, .penner(.quad, .out)), try tween(color, faint, pink, .penner(.sine, .inOut)),
            ]).alongside(try tween(fill, pink, gold, .linear, Time(2)).reversed), fps: 30, markers: []),
            Fixture(name: "color-ties-and-warps", scene: try Scene.sequence([
                try tween(color, red, navy).alongside(try tween(color, gold, faint)),
                try Scene.sequence([try tween(color, navy, gold), try tween(color, gold, red)]).eased(.penner(.quad, .inOut)),
            ]).alongside(try Scene.tween(radius, from: 10, to: 40, duration: Time(3)).eased(.penner(.elastic, .out))), fps: 60, markers: []),
            Fixture(name: "events", scene: try Scene.sequence([
                try Scene.tween(x, from: 0, to: 80, duration: .one).alongside(try Scene.wait(half).then(.event("half"))),
                .event("turn"),
                try Scene.sequence([try Scene.tween(x, from: 80, to: 0, duration: .one), .event("back")]).reversed,
                try Scene.event("tick").then(try .wait(half)).repeated(2),
            ]).alongside(try tween(color, red, gold, .linear, Time(3))), fps: 30,
                    markers: [("half", 15), ("back", 30), ("turn", 30), ("tick", 60), ("tick", 75)]),
        ]
    }

    @Test func fixturesExport() throws {
        let directory = ProcessInfo.processInfo.environment["ANIMC_LOTTIE_FIXTURES"]
        if let directory { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        for fixture in try Self.fixtures() {
            let export = exportLottie(scene: fixture.scene, name: fixture.name, views: ["ball", "box"], fps: fixture.fps)
            let bytes = try #require(export.bytes, "\(fixture.name): \(export.diagnostics)")
            let compiled = try #require(try fixture.scene.compile())
            let problems = LottieExportTests.disagreements(export, compiled, initial: [:], fps: fixture.fps)
            #expect(problems.isEmpty, "\(fixture.name): \(problems.prefix(3))")
            guard let directory else { continue }
            let op = Int(FrameTimes(duration: compiled.duration, fps: Int64(fixture.fps)).count ?? 0)
            let times = lottieCheckFrames(op: op).compactMap { Time(numerator: $0.numerator, denominator: $0.denominator * Int64(fixture.fps)) }
            var csv: [UInt8] = []
            tabulate(compiled, initial: [:], at: times, format: .csv) { chunk in
                csv.append(contentsOf: chunk)
                chunk.removeAll()
            }
            let base = URL(fileURLWithPath: directory).appendingPathComponent(fixture.name)
            try Data(bytes).write(to: base.appendingPathExtension("json"))
            try Data(csv).write(to: base.appendingPathExtension("csv"))
            let markers = fixture.markers.map { "\($0.0) \($0.1)\n" }.joined()
            try Data(markers.utf8).write(to: base.appendingPathExtension("markers"))
        }
    }
}
