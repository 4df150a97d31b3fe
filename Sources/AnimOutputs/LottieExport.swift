import AnimJSON
import AnimLang
import Animations

/// A Lottie file (Bodymovin 5.x JSON, what lottie-web, lottie-ios and
/// lottie-android play) for one binding, and the diagnostics of making it.
///
/// ```swift
/// let outcome = run(SourceFile(name: "talk.anim", text: source))
/// let export = exportLottie(outcome, fps: 60)
/// if let document = export.document {
///     var bytes: [UInt8] = []
///     document.write(into: &bytes)          // {"v":"5.7.4","fr":60,"ip":0,"op":181,…}
/// }
/// export.diagnostics   // warnings (properties Lottie cannot carry), or the error that stopped it
/// ```
///
/// What the file holds (docs/exports.md §1 and §4):
///
/// * one shape layer per view (`nm` is the view's name), in first-mention
///   order (the first layer is the first view the file names, and is drawn
///   on top); an ellipse when the view has a `radius`, else a rectangle
///   (`width`, `height`, `size`, default 60), filled with its `color` (or
///   `fill`), else a colour of its own from a fixed palette;
/// * the layer's transform: position = the view's home (its `at`, else
///   views sit in a row, evenly spaced; the stage grows to hold every
///   position reached, with a margin, moving `at` homes only when something
///   would be cut off) + `x`, `y` (+y is down, as in SVG) + the anchor;
///   anchor `a` = its `origin`'s offset from the shape's centre (moving with
///   the box when its size changes); rotation in degrees (clockwise); scale
///   × 100 % per axis (`scale` × `scale-x`, `scale` × `scale-y`); opacity
///   × 100, clamped to [0, 100];
/// * `fr` is the frame rate; `ip` is 0 and `op` one past the last frame: the
///   frames are those of `animc eval --fps N` (`0, 1/N, …` and the first frame
///   at or after the end), so `op` is the number of rows it prints;
/// * keyframes: cubic-Bézier easings (`linear`, `cubic-bezier` and its
///   keywords, Penner quad, cubic and back, in-out forms split at the
///   midpoint) become exact `o`/`i` handles; `steps` become hold keyframes
///   (`h: 1`); every other curve, and a colour whose alpha changes (Lottie
///   mixes colours without premultiplying), is baked: a keyframe at every
///   frame (eight a turn for a spring that turns back faster than the
///   frames), each interval a cubic through the curve, refined until it is
///   within 1e-5 of the property's range;
/// * events become markers (`tm` in frames, `cm` the name, `dr` 0).
///
/// A cancelled animation exports as one still frame of every view the file
/// names, at rest (with a warning); an animation that lasts 0 s is one frame
/// showing the state at its instant.
///
/// **Forever.** A Lottie file plays `[ip, op]`, and players loop the whole of
/// it (lottie-web's `loop` is `true` unless told otherwise). So an animation
/// that repeats forever exports when every property (and the events) repeats
/// from time 0 with periods that share a common multiple `L` of at most
/// ``longestLoop`` that is a whole number of frames: the file holds
/// `[0, L]`, `op` is `L·fps` (frame `op` is the next round's frame 0, which
/// the player shows by looping), and a note says so. An animation with a
/// prefix before it repeats (`fadeIn s ; spin repeated forever`) cannot loop
/// as a whole: that is an error (`export-forever`) with a hint.
public struct LottieExport: Sendable {
    /// The document, or `nil` when an error stopped the export.
    public let document: JSON?
    /// Warnings, and the error when there is no document.
    public let diagnostics: [Diagnostic]

    /// The frame rate when none is asked for.
    public static let defaultFPS = 60
    /// The version of the Bodymovin schema written (lottie-web's version that plays it).
    public static let schemaVersion = "5.7.4"
    /// The most frames (`op`) an export may have.
    public static let frameLimit = 1_000_000
    /// The most keyframes an export may write.
    public static let keyframeLimit = 2_000_000
    /// The most segments (copies × segments of one) a repetition may have
    /// and still be written out copy by copy; one with more is drawn from
    /// two copies through a time remap.
    public static let listedRepetition = 8
    /// The most markers (events) an export may write.
    public static let markerLimit = 10_000
    /// The longest round an animation that repeats forever may loop (the
    /// least common multiple of its periods).
    public static let longestLoop = Time(60)
    /// The side of a square when a view has no `width`, `height` or `size`.
    public static let defaultSize = Drawing.defaultSide
    /// The space around everything the animation reaches.
    public static let margin = 20.0
    /// The document as compact JSON text with a final newline: the file `animc export` writes.
    public var bytes: [UInt8]? {
        guard let document else { return nil }
        var out: [UInt8] = []
        document.write(into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }
}

/// Exports the evaluated binding of `outcome` (which has no errors) as
/// Lottie at `fps` frames per second. The views are those the file declares
/// and those the animation moves, in first-mention order; a cancelled
/// animation shows every view the file names.
public func exportLottie(_ outcome: Outcome, fps: Int = 60) -> LottieExport {
    switch exportSubject(outcome) {
    case nil:
        return LottieExport(document: nil, diagnostics: [])
    case .failed(let error)?:
        return LottieExport(document: nil, diagnostics: [error])
    case .cancelled(let binding, let range, let views)?:
        var exporter = LottieExporter(compiled: nil, name: binding, views: views, placements: outcome.resolved.placements,
                                      initial: outcome.initial, fps: Int64(max(1, fps)), range: range)
        return exporter.export()
    case .model(let model)?:
        // The warning for properties left out points at the first tween that animates one.
        return exportLottie(model, fps: fps, place: { outcome.program.firstPlace(of: $0) })
    }
}

/// Exports a scene built with the library (see ``exportLottie(_:fps:)`` for
/// what the file holds). `views` orders the layers; views that have
/// properties but are not listed follow, sorted. Diagnostics are placed at `range`.
public func exportLottie(scene: Scene, name: String, views: [String] = [], placements: [String: Placement] = [:],
                         initial: [Property: Value] = [:], fps: Int = 60, at range: SourceRange = .none) -> LottieExport {
    let compiled: CompiledScene?
    do {
        compiled = try scene.compile(initial: initial)
    } catch {
        return LottieExport(document: nil, diagnostics: [Diagnostic(.cannotSample(binding: name, error), at: range)])
    }
    guard let compiled else {
        var exporter = LottieExporter(compiled: nil, name: name, views: views, placements: placements, initial: initial,
                                      fps: Int64(max(1, fps)), range: range)
        return exporter.export()
    }
    return exportLottie(ExportModel(compiled, binding: name, range: range, initial: initial, viewOrder: views, declaredViews: views,
                                    placements: placements), fps: fps)
}

private func exportLottie(_ model: ExportModel, fps: Int, place: @escaping (Property) -> SourceRange? = { _ in nil }) -> LottieExport {
    var played = model.scene
    var loop: Time?
    if model.scene.isInfinite {
        switch loopedRound(model.scene, name: model.binding, initial: model.initial, fps: Int64(max(1, fps)), at: model.range) {
        case .success(let round):
            played = round.scene
            loop = round.period
        case .failure(let error):
            return LottieExport(document: nil, diagnostics: [error])
        }
    }
    var exporter = LottieExporter(compiled: played, name: model.binding, views: model.views, placements: model.placements,
                                  initial: model.initial, fps: Int64(max(1, fps)), range: model.range, loop: loop, model: model)
    exporter.place = place
    if loop == nil {
        // Repetitions of more than a few segments kept symbolic, for views drawn through a time remap (LottieRepeats.swift).
        exporter.repeating = try? model.scene.recompiled(materializeLimit: LottieExport.listedRepetition)
    }
    return exporter.export()
}

/// One round of an animation that repeats forever, to loop: the scene over
/// `[0, L]` and `L`, the least common multiple of its periods; or the error
/// that says why it cannot loop as a whole.
private func loopedRound(_ compiled: CompiledScene, name: String, initial: [Property: Value], fps: Int64,
                         at range: SourceRange) -> Result<(scene: CompiledScene, period: Time), Diagnostic> {
    let loopsWhole = "Lottie loops the whole file: export a binding that repeats from its start, e.g. `x repeated forever`"
    let state: SteadyState
    do {
        state = try compiled.steadyState(initial: initial, modulo: compiled.wholeTurns)
    } catch {
        return .failure(foreverError(error, binding: name, at: range, relative: compiled.repeatsRelativeTweens))
    }
    // Every property, and the events, repeat from time 0.
    let prefixed = compiled.properties.first { state.cycles[$0]?.start.isZero != true }
    if let property = prefixed {
        let cycle = state.cycles[property]
        let why = cycle.map { "`\(property)` repeats only from \($0.start)s on" } ?? "`\(property)` plays once, before the rest repeats"
        return .failure(Diagnostic(.exportForever(binding: name), at: range, hint: "\(why). \(loopsWhole)"))
    }
    var periods = state.cycles.values.map(\.period)
    if let events = state.eventCycle {
        guard events.start.isZero else {
            return .failure(Diagnostic(.exportForever(binding: name), at: range,
                                       hint: "its events repeat only from \(events.start)s on. \(loopsWhole)"))
        }
        periods.append(events.period)
    }
    let distinct = Set(periods).sorted()
    guard let period = Time.commonMultiple(of: distinct), !(LottieExport.longestLoop < period) else {
        let list = distinct.prefix(4).map { "\($0)s" }.joined(separator: ", ")
        return .failure(Diagnostic(.exportForever(binding: name), at: range,
                                   hint: "its periods (\(list)) meet again only after more than \(LottieExport.longestLoop)s, "
                                    + "longer than a Lottie round may last: give them periods with a small common multiple"))
    }
    guard let frames = try? period.multiplied(by: fps), frames.denominator == 1 else {
        // L = n/d in lowest terms: L·fps is whole exactly when d divides fps.
        let needed = period.denominator
        return .failure(Diagnostic(.exportForever(binding: name), at: range,
                                   hint: "one round lasts \(period)s, not a whole number of frames at \(fps) fps: "
                                    + "export with --fps a multiple of \(needed)"))
    }
    let round: CompiledScene
    do {
        round = try compiled.unrolled(through: period)
    } catch {
        return .failure(Diagnostic(.cannotSample(binding: name, error), at: range))
    }
    // Events at the round's start fire again where it ends (the next round's start).
    let events = round.allEvents(limit: LottieExport.markerLimit) ?? []
    let atStart = Set(events.filter { $0.time == Instant(.zero) }.map(\.name))
    let atEnd = Set(events.filter { $0.time == Instant(period) }.map(\.name))
    guard atStart == atEnd else {
        return .failure(Diagnostic(.exportForever(binding: name), at: range,
                                   hint: "its events at 0s and at \(period)s differ, so the rounds do not start alike. \(loopsWhole)"))
    }
    return .success((round, period))
}

// MARK: - The exporter

struct LottieExporter {
    let compiled: CompiledScene?
    /// Its columns and their kinds; `nil` when it is cancelled.
    let model: ExportModel?
    let name: String
    let viewNames: [String]
    let placements: [String: Placement]
    let initial: [Property: Value]
    let fps: Int64
    let range: SourceRange
    let duration: Time
    /// Every property some segment animates.
    let animated: Set<Property>
    /// For an animation that repeats forever: the round the file holds and players loop.
    let loop: Time?
    /// How soon each property may turn back (springs).
    let turns: Turns
    /// Where a property is written in the script, for a warning about it (`nil`: at ``range``).
    var place: (Property) -> SourceRange? = { _ in nil }
    /// The scene compiled with its repetitions symbolic, for views drawn
    /// from two copies of each (``LottieCompression``).
    var repeating: CompiledScene?
    /// Set while the layer of a view drawn through a time remap is built:
    /// its sources then read the asset's clock.
    var compression: LottieCompression?

    init(compiled: CompiledScene?, name: String, views: [String], placements: [String: Placement],
         initial: [Property: Value], fps: Int64, range: SourceRange, loop: Time? = nil, model: ExportModel? = nil) {
        self.loop = loop
        self.placements = placements
        self.compiled = compiled
        self.model = model
        self.name = name
        viewNames = views
        self.initial = initial
        self.fps = fps
        self.range = range
        duration = compiled?.duration ?? .zero
        animated = Set(compiled?.properties ?? [])
        turns = Turns(compiled)
    }

    /// A piece of `property` as the baker takes it, with `rule`, and how soon
    /// its value may turn back (``TrackPiece/halfTurn``).
    func trackPiece(_ piece: Piece, _ property: Property, _ rule: TrackPiece.Rule) -> TrackPiece {
        TrackPiece(start: piece.start, end: piece.end, rule: rule, halfTurn: turns.halfTurn(of: piece, property))
    }

    /// A view and how it is drawn.
    struct View {
        let name: String
        let index: Int
        var home = (x: 0.0, y: 0.0)
        /// `at` and `origin` (docs/exports.md §6).
        let placement: Placement
        /// `radius` makes an ellipse; otherwise the rectangle's sides.
        let radius: Property?
        let width: Property?
        let height: Property?
        let color: Property?
        /// Every property of the view that the drawing uses.
        let used: Set<Property>
    }

    mutating func export() -> LottieExport {
        var diagnostics: [Diagnostic] = []
        if compiled == nil {
            diagnostics.append(Diagnostic(.exportCancelled(binding: name, format: "Lottie"), at: range,
                                          hint: "the file shows every view it names at rest"))
        }
        // A loop's frames are those of one round, [0, L): frame op = L·fps is the next round's frame 0.
        let counted = FrameTimes(duration: duration, fps: fps).count.map { loop == nil ? $0 : $0 - 1 }
        guard let frames = counted, frames <= LottieExport.frameLimit else {
            return failure(.exportTooLong(binding: name, duration: duration, fps: fps, limit: LottieExport.frameLimit),
                           hint: "export at a lower --fps, or a shorter binding")
        }
        guard var events = compiled.map({ $0.allEvents(limit: LottieExport.markerLimit) }) ?? [] else {
            return failure(.exportTooManyEvents(binding: name, limit: LottieExport.markerLimit), hint: nil)
        }
        if let loop {
            events.removeAll { !($0.time < Instant(loop)) }
            diagnostics.append(Diagnostic(.exportLoops(binding: name, period: loop), at: range,
                                          hint: "lottie-web loops unless given `loop: false`; frame \(frames) (`op`) is the next round's frame 0"))
        }
        var views = viewNames.enumerated().map { index, name in makeView(name, index: index) }
        let dropped = droppedProperties(views)
        if !dropped.isEmpty {
            diagnostics.append(Diagnostic(.exportDropsProperties(format: "Lottie", properties: dropped.map(\.description)),
                                          at: dropped.lazy.compactMap(place).first ?? range,
                                          hint: "Lottie draws x, y, rotation, scale, opacity, radius, width, height, size and color (or fill)"))
        }
        let stage = layOut(&views)
        var builder = KeyframeBuilder(fps: fps, budget: LottieExport.keyframeLimit)
        var curves = CurveNames()
        var layers: [JSON] = []
        var assets: [JSON] = []
        do {
            for group in remapGroups(views) {
                guard let compression = group.compression else {
                    layers.append(try layer(group.views[0], frames: frames, builder: &builder, curves: &curves))
                    continue
                }
                // Two remap keyframes a copy, from the same budget.
                let remapKeys = compression.windows.reduce(0) { $0 + 2 * ($1.count - $1.kept) }
                guard remapKeys < builder.budget else { throw KeyframeLimitReached() }
                builder.budget -= remapKeys
                var inner = self
                inner.compression = compression
                let assetFrames = (FrameTimes(duration: compression.duration, fps: fps).count ?? frames) + 1
                var shapes: [JSON] = []
                builder.remappedFrom = Double(frames)
                for view in group.views { shapes.append(try inner.layer(view, frames: assetFrames, firstFrame: -1, builder: &builder, curves: &curves)) }
                builder.remappedFrom = 0
                let id = "r\(assets.count)"
                assets.append(.object([("id", .string(id)), ("layers", .array(shapes))]))
                layers.append(remapLayer(group.views, index: layers.count, asset: id, compression: compression, frames: frames, stage: stage))
            }
        } catch let problem as NotFinite {
            return failure(.exportNotFinite(property: problem.property), hint: "a curve composed to overshoot left the range of numbers")
        } catch let limit as KeyframeLimitReached where limit.fasterThanFrames {
            return failure(.exportTooManyKeyframes(binding: name, limit: LottieExport.keyframeLimit),
                           hint: "a curve turns back faster than the frames (a spring with little damping): each turn takes keyframes "
                               + "at any --fps; more damping, or a longer tween, turns it fewer times")
        } catch {
            return failure(.exportTooManyKeyframes(binding: name, limit: LottieExport.keyframeLimit),
                           hint: "export at a lower --fps: baked curves take a keyframe per frame")
        }
        let markers: [JSON] = events.map { event in
            .object([("tm", .number(event.time.seconds * Double(fps))), ("cm", .string(event.name)), ("dr", .number(0))])
        }
        let document = JSON.object([
            ("v", .string(LottieExport.schemaVersion)),
            ("fr", .number(Double(fps))),
            ("ip", .number(0)),
            ("op", .number(Double(frames))),
            ("w", .number(stage.width)),
            ("h", .number(stage.height)),
            ("nm", .string(name)),
            ("ddd", .number(0)),
            ("assets", .array(assets)),
            ("layers", .array(layers)),
            ("markers", .array(markers)),
            ("meta", .object([("g", .string("animc"))])),
        ])
        return LottieExport(document: document, diagnostics: diagnostics)
    }

    func failure(_ kind: ExportDiagnostic, hint: String?) -> LottieExport {
        LottieExport(document: nil, diagnostics: [Diagnostic(kind, at: range, hint: hint)])
    }

    // MARK: Views

    func has(_ property: Property) -> Bool {
        initial[property] != nil || animated.contains(property)
    }

    /// Whether a property holds colours.
    func isColor(_ property: Property) -> Bool {
        (model?.kind(of: property) ?? initial[property]?.kind) == .color
    }

    func makeView(_ name: String, index: Int) -> View {
        func property(_ key: String, color: Bool = false) -> Property? {
            let property = Property(view: name, name: key)
            return has(property) && isColor(property) == color ? property : nil
        }
        // The shape and fill the stage draws (``RenderModel``), from the kinds of the properties it has.
        var kinds: [String: Value.Kind] = [:]
        for key in Drawing.properties where has(Property(view: name, name: key)) {
            kinds[key] = isColor(Property(view: name, name: key)) ? .color : .number
        }
        var radius: Property?, width: Property?, height: Property?, color: Property?
        switch RenderModel.shape(of: name, kinds: kinds) {
        case .circle(let property): radius = property
        case .rectangle(let w, let h):
            if case .property(let property) = w { width = property }
            if case .property(let property) = h { height = property }
        }
        if case .property(let property) = RenderModel.fill(of: name, kinds: kinds, index: index) { color = property }
        var used: Set<Property> = []
        for key in ["x", "y", "rotation", "scale", "scale-x", "scale-y", "opacity"] {
            if let found = property(key) { used.insert(found) }
        }
        for found in [radius, width, height, color].compactMap({ $0 }) { used.insert(found) }
        return View(name: name, index: index, placement: placements[name] ?? .standard, radius: radius, width: width, height: height,
                    color: color, used: used)
    }

    /// The properties no layer draws, sorted.
    func droppedProperties(_ views: [View]) -> [Property] {
        var used: Set<Property> = []
        for view in views { used.formUnion(view.used) }
        let all = Set(compiled?.properties ?? []).union(initial.keys)
        return all.subtracting(used).sorted()
    }
}
