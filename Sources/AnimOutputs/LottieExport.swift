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
        state = try compiled.steadyState(initial: initial)
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

private struct LottieExporter {
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
    private func trackPiece(_ piece: Piece, _ property: Property, _ rule: TrackPiece.Rule) -> TrackPiece {
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
        let stage = layOut(&views, frames: frames)
        var builder = KeyframeBuilder(fps: fps, budget: LottieExport.keyframeLimit)
        var curves = CurveNames()
        var layers: [JSON] = []
        do {
            for view in views {
                layers.append(try layer(view, frames: frames, builder: &builder, curves: &curves))
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
            ("assets", .array([])),
            ("layers", .array(layers)),
            ("markers", .array(markers)),
            ("meta", .object([("g", .string("animc"))])),
        ])
        return LottieExport(document: document, diagnostics: diagnostics)
    }

    private func failure(_ kind: ExportDiagnostic, hint: String?) -> LottieExport {
        LottieExport(document: nil, diagnostics: [Diagnostic(kind, at: range, hint: hint)])
    }

    // MARK: Views

    private func has(_ property: Property) -> Bool {
        initial[property] != nil || animated.contains(property)
    }

    /// Whether a property holds colours.
    private func isColor(_ property: Property) -> Bool {
        (model?.kind(of: property) ?? initial[property]?.kind) == .color
    }

    private func makeView(_ name: String, index: Int) -> View {
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
    private func droppedProperties(_ views: [View]) -> [Property] {
        var used: Set<Property> = []
        for view in views { used.formUnion(view.used) }
        let all = Set(compiled?.properties ?? []).union(initial.keys)
        return all.subtracting(used).sorted()
    }

    // MARK: Values

    /// The value of a property at an instant, as `animc eval` gives it (exact at exact instants).
    private func value(_ property: Property, at instant: Instant) -> Value? {
        guard let compiled else { return initial[property] }
        if let exact = instant.exact { return compiled.value(of: property, at: exact, initial: initial[property]) }
        return compiled.value(of: property, atSeconds: instant.seconds, initial: initial[property])
    }

    /// A number property seen through an affine map into a Lottie property's
    /// values (clamped to `allowed`); `fallback` when the view lacks it.
    private func numberSource(_ property: Property?, fallback: Double, allowed: ClosedRange<Double>? = nil,
                              _ map: @escaping (Double) -> [Double]) -> TrackSource {
        let clamp: ([Double]) -> [Double] = { values in
            guard let allowed else { return values }
            return values.map { min(max($0, allowed.lowerBound), allowed.upperBound) }
        }
        let dimension = map(0).count
        guard let property else {
            return TrackSource(dimension: dimension, pieces: [], sample: { _ in clamp(map(fallback)) }, allowed: allowed)
        }
        let pieces: [TrackPiece] = (compiled?.pieces(of: property, initial: initial[property]) ?? []).map { piece in
            switch piece.rule {
            case .hold(let value):
                // A number property (the callers pass no other); the view's default stands in otherwise.
                return trackPiece(piece, property, .hold(clamp(map(value.number ?? fallback))))
            case .tween(let from, let to, let easing, let p0, let p1):
                guard let a = from.number, let b = to.number else { return trackPiece(piece, property, .sampled) }
                return trackPiece(piece, property, .tween(from: map(a), to: map(b), easing: easing, p0: p0, p1: p1))
            case .sampled:
                return trackPiece(piece, property, .sampled)
            }
        }
        // No value before the property is first given one: the view's default, as a player shows it.
        let sample: (Instant) -> [Double] = { instant in clamp(map(self.value(property, at: instant)?.number ?? fallback)) }
        return TrackSource(dimension: dimension, pieces: pieces, sample: sample, allowed: allowed)
    }

    /// The fill colour's channels (0–1, and alpha 1: the fill's opacity carries alpha).
    private func colorSource(_ property: Property?, fallback: Color) -> TrackSource {
        let channels = lottieFillChannels
        func shown(_ value: Value?) -> Color {
            if case .color(let color)? = value { return color.clamped }
            return fallback
        }
        guard let property else {
            return TrackSource(dimension: 4, pieces: [], sample: { _ in channels(fallback) }, allowed: 0...1)
        }
        let pieces: [TrackPiece] = (compiled?.pieces(of: property, initial: initial[property]) ?? []).map { piece in
            switch piece.rule {
            case .hold(let value):
                return trackPiece(piece, property, .hold(channels(shown(value))))
            case .tween(.color(let a), .color(let b), let easing, let p0, let p1) where a.alpha == b.alpha && a.alpha > 0:
                // Equal alphas: premultiplied mixing is plain mixing, which Lottie does.
                return trackPiece(piece, property, .tween(from: channels(a), to: channels(b), easing: easing, p0: p0, p1: p1))
            case .tween, .sampled:
                return trackPiece(piece, property, .sampled)
            }
        }
        return TrackSource(dimension: 4, pieces: pieces, sample: { instant in channels(shown(self.value(property, at: instant))) },
                           allowed: 0...1)
    }

    /// The fill's opacity: the colour's alpha × 100 (alpha mixes linearly, premultiplied or not).
    private func alphaSource(_ property: Property?) -> TrackSource {
        func percent(_ value: Value?) -> [Double] {
            if case .color(let color)? = value { return [color.clamped.alpha * 100] }
            return [100]
        }
        guard let property else { return TrackSource(dimension: 1, pieces: [], sample: { _ in [100] }, allowed: 0...100) }
        let pieces: [TrackPiece] = (compiled?.pieces(of: property, initial: initial[property]) ?? []).map { piece in
            switch piece.rule {
            case .hold(let value):
                return trackPiece(piece, property, .hold(percent(value)))
            case .tween(.color(let a), .color(let b), let easing, let p0, let p1):
                return trackPiece(piece, property, .tween(from: [a.alpha * 100], to: [b.alpha * 100], easing: easing, p0: p0, p1: p1))
            case .tween, .sampled:
                return trackPiece(piece, property, .sampled)
            }
        }
        return TrackSource(dimension: 1, pieces: pieces, sample: { instant in percent(self.value(property, at: instant)) }, allowed: 0...100)
    }

    /// The rectangle's `[width, height]`: one property (`size`, or one side
    /// animated and the other fixed) keeps its pieces; two animated sides are
    /// sampled where either moves.
    private func sizeSource(_ view: View) -> TrackSource {
        let size = LottieExport.defaultSize
        let widthSource = numberSource(view.width, fallback: size) { [$0] }
        let heightSource = numberSource(view.height, fallback: size) { [$0] }
        if view.width == view.height {
            return numberSource(view.width, fallback: size) { [$0, $0] }
        }
        let sample: (Instant) -> [Double] = { instant in widthSource.sample(instant) + heightSource.sample(instant) }
        if heightSource.pieces.isEmpty {
            let fixed = heightSource.sample(Instant(.zero))[0]
            return numberSource(view.width, fallback: size) { [$0, fixed] }
        }
        if widthSource.pieces.isEmpty {
            let fixed = widthSource.sample(Instant(.zero))[0]
            return numberSource(view.height, fallback: size) { [fixed, $0] }
        }
        // Both sides move on timelines of their own.
        return joined([widthSource, heightSource], dimension: 2, sample: sample)
    }

    /// A value made of several sources that move on timelines of their own:
    /// one piece per stretch where none has a breakpoint, held where all
    /// hold, else sampled.
    private func joined(_ sources: [TrackSource], dimension: Int, sample: @escaping (Instant) -> [Double]) -> TrackSource {
        let all = sources.flatMap(\.pieces)
        var points = all.flatMap { [$0.start, $0.end] }
        points.sort()
        var unique: [Instant] = []
        for point in points where unique.last != point { unique.append(point) }
        let pieces = zip(unique, unique.dropFirst()).map { start, end -> TrackPiece in
            let holds = sources.allSatisfy { source in
                source.pieces.isEmpty || source.pieces.contains { piece in
                    guard !(start < piece.start), !(piece.end < end) else { return false }
                    if case .hold = piece.rule { return true }
                    return false
                }
            }
            // Any source's soonest turn holds for all.
            let halfTurn = all.filter { $0.start < end && start < $0.end }.compactMap(\.halfTurn).min()
            return TrackPiece(start: start, end: end, rule: holds ? .hold(sample(start < end ? start : end)) : .sampled,
                              halfTurn: holds ? nil : halfTurn)
        }
        // A hold's value is read inside it (its start may be a jump's instant).
        let fixedPieces = pieces.map { piece -> TrackPiece in
            guard case .hold = piece.rule else { return piece }
            let middle = Instant.midpoint(piece.start, piece.end)
            return TrackPiece(start: piece.start, end: piece.end, rule: .hold(sample(middle)))
        }
        return TrackSource(dimension: dimension, pieces: fixedPieces, sample: sample, allowed: nil)
    }

    /// `source` through an affine map (a tween stays a tween of the mapped ends).
    private func mapped(_ source: TrackSource, _ map: @escaping ([Double]) -> [Double]) -> TrackSource {
        let pieces = source.pieces.map { piece -> TrackPiece in
            let rule: TrackPiece.Rule
            switch piece.rule {
            case .hold(let value): rule = .hold(map(value))
            case .tween(let from, let to, let easing, let p0, let p1): rule = .tween(from: map(from), to: map(to), easing: easing, p0: p0, p1: p1)
            case .sampled: rule = .sampled
            }
            return TrackPiece(start: piece.start, end: piece.end, rule: rule, halfTurn: piece.halfTurn)
        }
        return TrackSource(dimension: map(source.sample(Instant(.zero))).count, pieces: pieces, sample: { map(source.sample($0)) },
                           allowed: nil)
    }

    /// Lottie's scale (×100 % per axis): `scale` times `scale-x` and `scale-y`.
    /// One that moves alone keeps its curve; several moving together are joined.
    private func scaleSource(_ view: View, _ property: (String) -> Property?) -> TrackSource {
        let scale = property("scale"), scaleX = property("scale-x"), scaleY = property("scale-y")
        guard scaleX != nil || scaleY != nil else {
            return numberSource(scale, fallback: 1) { [100 * $0, 100 * $0] }
        }
        let sources = [scale, scaleX, scaleY].map { numberSource($0, fallback: 1) { [$0] } }
        let sample: (Instant) -> [Double] = { instant in
            let s = sources.map { $0.sample(instant)[0] }
            return [100 * s[0] * s[1], 100 * s[0] * s[2]]
        }
        let moving = sources.indices.filter { !sources[$0].pieces.isEmpty }
        guard moving.count == 1, let only = moving.first else {
            return moving.isEmpty ? TrackSource(dimension: 2, pieces: [], sample: sample, allowed: nil)
                : joined(sources, dimension: 2, sample: sample)
        }
        let fixed = sources.map { $0.sample(Instant(.zero))[0] }
        let moved = [scale, scaleX, scaleY][only]
        return numberSource(moved, fallback: 1) { value in
            var factors = fixed
            factors[only] = value
            return [100 * factors[0] * factors[1], 100 * factors[0] * factors[2]]
        }
    }

    // MARK: Stage

    /// Homes as the player page lays them out (``Stage``, without labels:
    /// Lottie draws none), from every number the drawn properties take;
    /// then everything shifted so the stage (with its margin) holds every
    /// position the animation reaches (with `at`, only as far as needed).
    private func layOut(_ views: inout [View], frames: Int) -> (width: Double, height: Double) {
        guard !views.isEmpty else { return (100, 100) }
        // Instants to look at: every quarter frame (at most 16384 of them, evenly) and every breakpoint.
        var instants: [Instant] = []
        let quarters = 4 * frames
        let stride = max(1, quarters / 16384)
        for quarter in Swift.stride(from: 0, to: quarters - 3, by: stride) {
            // (The last frame may fall after the end: what holds then counts too.)
            instants.append(Instant(Time(numerator: Int64(quarter), denominator: 4 * fps) ?? duration))
        }
        instants.append(Instant(duration))
        let stageViews = views.map { view in
            var numbers: Set<String> = [], extents: [String: ClosedRange<Double>] = [:]
            for name in StageView.measured {
                let property = Property(view: view.name, name: name)
                guard has(property), !isColor(property) else { continue }
                numbers.insert(name)
                var times = instants
                for piece in (compiled?.pieces(of: property, initial: initial[property]) ?? []).prefix(4096) {
                    times.append(piece.start)
                    times.append(piece.end)
                }
                extents[name] = Extent(times.lazy.map { value(property, at: $0) }).range
            }
            return StageView(name: view.name, placement: view.placement, numbers: numbers, extents: extents)
        }
        let stage = Stage(stageViews, labels: false, margin: LottieExport.margin)
        var shift = (x: (-stage.bounds.minX).rounded(.up), y: (-stage.bounds.minY).rounded(.up))
        if views.contains(where: { $0.placement.home != nil }) {
            // `at` gives stage coordinates: kept, unless something would be cut off at the top or left.
            shift = (max(0, shift.x), max(0, shift.y))
        }
        for index in views.indices {
            let home = stage.spots[index].home
            // On whole pixels (within the margin), but for a home `at` gives.
            views[index].home = views[index].placement.home != nil ? (home.x + shift.x, home.y + shift.y)
                : ((home.x + shift.x).rounded(), (home.y + shift.y).rounded())
        }
        return (max(1, (stage.bounds.maxX + shift.x).rounded(.up)), max(1, (stage.bounds.maxY + shift.y).rounded(.up)))
    }

    // MARK: Layers

    struct NotFinite: Error {
        let property: String
    }

    /// Names for the distinct keyframe curves of the document (`n`, "c0", "c1", …).
    ///
    /// ThorVG shares one interpolator between keyframes whose handles agree
    /// to two decimals, unless a keyframe names its easing: without names,
    /// nearly equal curves would play as one. lottie-web keys its curves by
    /// the handles themselves (written as arrays, it ignores `n`).
    struct CurveNames {
        var names: [UnitBezier: String] = [:]

        mutating func name(_ curve: UnitBezier) -> String {
            if let known = names[curve] { return known }
            let name = "c\(names.count)"
            names[curve] = name
            return name
        }
    }

    private func layer(_ view: View, frames: Int, builder: inout KeyframeBuilder, curves: inout CurveNames) throws -> JSON {
        func property(_ key: String) -> Property? {
            let property = Property(view: view.name, name: key)
            return view.used.contains(property) ? property : nil
        }
        func animated(_ source: TrackSource, _ label: String, builder: inout KeyframeBuilder) throws -> JSON {
            let track = try builder.track(source)
            switch track {
            case .fixed(let value):
                guard value.allSatisfy(\.isFinite) else { throw NotFinite(property: label) }
                return .object([("a", .number(0)), ("k", value.count == 1 ? .number(value[0]) : .numbers(value))])
            case .keyed(let keys):
                var out: [JSON] = []
                for (index, key) in keys.enumerated() {
                    guard key.value.allSatisfy(\.isFinite) else { throw NotFinite(property: label) }
                    var members: [(String, JSON)] = [("t", .number(key.frame)), ("s", .numbers(key.value))]
                    if index + 1 < keys.count {
                        if let curve = key.curve {
                            let count = key.value.count
                            members.append(("o", .object([("x", .numbers(Array(repeating: curve.x1, count: count))),
                                                          ("y", .numbers(Array(repeating: curve.y1, count: count)))])))
                            members.append(("i", .object([("x", .numbers(Array(repeating: curve.x2, count: count))),
                                                          ("y", .numbers(Array(repeating: curve.y2, count: count)))])))
                            members.append(("n", .string(curves.name(curve))))
                        } else {
                            members.append(("h", .number(1)))
                        }
                    }
                    out.append(.object(members))
                }
                return .object([("a", .number(1)), ("k", .array(out))])
            }
        }
        // The origin: its offset from the shape's centre (the box at the start), the layer's anchor, and added to the position.
        // The origin: its offset from the shape's centre, the layer's anchor, and added to the position
        // (both move with the box when its size does).
        let box = view.radius.map { radius in numberSource(radius, fallback: 0) { [2 * $0, 2 * $0] } } ?? sizeSource(view)
        let origin = view.placement.origin
        let offset = { (box: [Double]) in [(origin.x - 0.5) * box[0], (origin.y - 0.5) * box[1]] }
        let label = { (key: String) in "\(view.name).\(key)" }
        let anchor: JSON
        let x: JSON, y: JSON
        if box.pieces.isEmpty || origin == (0.5, 0.5) {
            let fixedOffset = offset(box.sample(Instant(.zero))).map { $0 == 0 ? 0 : $0 }
            anchor = .object([("a", .number(0)), ("k", .numbers(fixedOffset))])
            let home = (x: view.home.x + fixedOffset[0], y: view.home.y + fixedOffset[1])
            x = try animated(numberSource(property("x"), fallback: 0) { [home.x + $0] }, label("x"), builder: &builder)
            y = try animated(numberSource(property("y"), fallback: 0) { [home.y + $0] }, label("y"), builder: &builder)
        } else {
            anchor = try animated(mapped(box, offset), label("origin"), builder: &builder)
            let home = view.home
            func position(_ key: String, _ axis: Int, _ start: Double) throws -> JSON {
                let moved = numberSource(property(key), fallback: 0) { [$0] }
                return try animated(joined([moved, box], dimension: 1) { instant in
                    [start + moved.sample(instant)[0] + offset(box.sample(instant))[axis]]
                }, label(key), builder: &builder)
            }
            x = try position("x", 0, home.x)
            y = try position("y", 1, home.y)
        }
        let rotation = try animated(numberSource(property("rotation"), fallback: 0) { [$0] }, label("rotation"), builder: &builder)
        let scale = try animated(scaleSource(view, property), label("scale"), builder: &builder)
        let opacity = try animated(numberSource(property("opacity"), fallback: 1, allowed: 0...100) { [100 * $0] },
                                   label("opacity"), builder: &builder)
        let shape: JSON
        if let radius = view.radius {
            let size = try animated(numberSource(radius, fallback: 0) { [2 * $0, 2 * $0] }, radius.description, builder: &builder)
            shape = .object([("ty", .string("el")), ("nm", .string("ellipse")), ("d", .number(1)),
                             ("p", .object([("a", .number(0)), ("k", .numbers([0, 0]))])), ("s", size)])
        } else {
            let size = try animated(sizeSource(view), label("size"), builder: &builder)
            shape = .object([("ty", .string("rc")), ("nm", .string("rectangle")), ("d", .number(1)),
                             ("p", .object([("a", .number(0)), ("k", .numbers([0, 0]))])), ("s", size),
                             ("r", .object([("a", .number(0)), ("k", .number(0))]))])
        }
        let palette = Drawing.paletteColor(view.index)
        let colorLabel = view.color?.description ?? label("color")
        let fill = JSON.object([
            ("ty", .string("fl")), ("nm", .string("fill")),
            ("c", try animated(colorSource(view.color, fallback: palette), colorLabel, builder: &builder)),
            ("o", try animated(alphaSource(view.color), colorLabel, builder: &builder)),
            ("r", .number(1)),
        ])
        let fixed = { (value: JSON) in JSON.object([("a", .number(0)), ("k", value)]) }
        let groupTransform = JSON.object([
            ("ty", .string("tr")), ("p", fixed(.numbers([0, 0]))), ("a", fixed(.numbers([0, 0]))),
            ("s", fixed(.numbers([100, 100]))), ("r", fixed(.number(0))), ("o", fixed(.number(100))),
            ("sk", fixed(.number(0))), ("sa", fixed(.number(0))),
        ])
        let transform = JSON.object([
            ("o", opacity), ("r", rotation), ("p", .object([("s", .bool(true)), ("x", x), ("y", y)])),
            ("a", anchor), ("s", scale),
        ])
        return .object([
            ("ddd", .number(0)), ("ind", .number(Double(view.index + 1))), ("ty", .number(4)), ("nm", .string(view.name)),
            ("sr", .number(1)), ("ks", transform), ("ao", .number(0)),
            ("shapes", .array([.object([("ty", .string("gr")), ("nm", .string("shape")), ("it", .array([shape, fill, groupTransform]))])])),
            ("ip", .number(0)), ("op", .number(Double(frames))), ("st", .number(0)), ("bm", .number(0)),
        ])
    }
}
