import AnimLang
import Animations

/// One stretch of a property's timeline and the curve the browser draws over it.
struct WebSpan {
    var start: Instant
    var end: Instant
    var curve: Curve
    /// Steps: placed ``WebExport/stepLead`` early (see ``WebExport``).
    var leads = false

    enum Curve {
        case hold(Value)
        /// From `from` to `to` with a CSS easing; `ends` are its outputs just after 0 and just before 1.
        case eased(from: Value, to: Value, easing: String, ends: (Double, Double))
        /// Two CSS easings on the two halves, through the middle of the range.
        case split(from: Value, to: Value, first: String, second: String)
        /// From `from` to `to` along `linear(…)`.
        case approximated(from: Value, to: Value, curve: LinearCurve)
        /// Numbers from `from` to `to` along cubic Béziers (``BezierPieces``).
        case beziers(from: Value, to: Value, pieces: BezierPieces)
        /// Numbers from `low` to `high` along `linear(…)` (ties and warps); the curve may leave [low, high].
        case normalized(low: Double, high: Double, curve: LinearCurve)
        /// Colours as keyframes at fractions of the span (interpolated premultiplied, as CSS does).
        case baked([(Double, Value)])
    }

    /// What the browser shows at the span's first instant.
    var startValue: Value {
        switch curve {
        case .hold(let value): return value
        case .eased(let from, let to, _, let ends): return Value.interpolate(from: from, to: to, progress: ends.0)
        case .split(let from, _, _, _): return from
        case .approximated(let from, let to, let curve):
            return Value.interpolate(from: from, to: to, progress: curve.points.first?.output ?? 0)
        case .beziers(let from, let to, let pieces):
            return Value.interpolate(from: from, to: to, progress: pieces.outputs.first ?? 0)
        case .normalized(let low, let high, let curve): return .number(low + (high - low) * (curve.points.first?.output ?? 0))
        case .baked(let points): return points.first?.1 ?? .number(0)
        }
    }

    /// What it shows just before its end.
    var endLimit: Value {
        switch curve {
        case .hold(let value): return value
        case .eased(let from, let to, _, let ends): return Value.interpolate(from: from, to: to, progress: ends.1)
        case .split(_, let to, _, _): return to
        case .approximated(let from, let to, let curve):
            return Value.interpolate(from: from, to: to, progress: curve.points.last?.output ?? 1)
        case .beziers(let from, let to, let pieces):
            return Value.interpolate(from: from, to: to, progress: pieces.outputs.last ?? 1)
        case .normalized(let low, let high, let curve): return .number(low + (high - low) * (curve.points.last?.output ?? 1))
        case .baked(let points): return points.last?.1 ?? .number(0)
        }
    }

    /// Its keyframes over `[a, b]` (offsets), the first saying what it shows when that is not its value.
    func keyframes(from a: Double, to b: Double) -> [WebExport.Keyframe] {
        var keyframes = plainKeyframes(from: a, to: b)
        if let first = keyframes.first, !nearlyEqual(first.value, startValue) { keyframes[0].shown = startValue }
        return keyframes
    }

    private func plainKeyframes(from a: Double, to b: Double) -> [WebExport.Keyframe] {
        switch curve {
        case .hold(let value):
            return [.init(offset: a, value: value, easing: nil), .init(offset: b, value: value, easing: nil)]
        case .eased(let from, let to, let easing, _):
            return [.init(offset: a, value: from, easing: easing == "linear" ? nil : easing), .init(offset: b, value: to, easing: nil)]
        case .split(let from, let to, let first, let second):
            let middle = Value.interpolate(from: from, to: to, progress: 0.5)
            return [.init(offset: a, value: from, easing: first), .init(offset: a + (b - a) / 2, value: middle, easing: second),
                    .init(offset: b, value: to, easing: nil)]
        case .approximated(let from, let to, let curve):
            return [.init(offset: a, value: from, easing: curve.css), .init(offset: b, value: to, easing: nil)]
        case .beziers(let from, let to, let pieces):
            return pieces.inputs.indices.map { index in
                .init(offset: index == pieces.inputs.count - 1 ? b : a + (b - a) * pieces.inputs[index],
                      value: Value.interpolate(from: from, to: to, progress: pieces.outputs[index]),
                      easing: index < pieces.easings.count && pieces.easings[index] != "linear" ? pieces.easings[index] : nil)
            }
        case .normalized(let low, let high, let curve):
            return [.init(offset: a, value: .number(low), easing: curve.css), .init(offset: b, value: .number(high), easing: nil)]
        case .baked(let points):
            return points.map { .init(offset: a + (b - a) * $0.0, value: $0.1, easing: nil) }
        }
    }
}

struct WebExportBuilder {
    /// The scene; for one that repeats forever, unrolled past every cycle (``SteadyState/unrolled``).
    let scene: CompiledScene
    /// The duration of the scene's finite part: what properties without a cycle are animated over.
    let finiteDuration: Time
    /// How a scene that repeats forever settles; `nil` for a finite one.
    let state: SteadyState?
    let initial: [Property: Value]
    /// Where a curve could not be followed within the bound.
    var approximated: [(property: Property, from: Double, to: Double)] = []
    /// The Béziers fitted to each part of an easing, once: a program of many
    /// tweens on one easing fits it once (``bezierPieces(_:from:to:maximumPieces:)``).
    private var fittedPieces: [FittingKey: BezierPieces?] = [:]

    private struct FittingKey: Hashable {
        let easing: Easing, from: Double, to: Double, maximumPieces: Int
    }

    /// ``BezierPieces/fitting(_:tolerance:maximumPieces:)`` of `easing` from `p0` to `p1`, fitted once.
    private mutating func bezierPieces(_ easing: Easing, from p0: Double, to p1: Double, maximumPieces: Int) -> BezierPieces? {
        let key = FittingKey(easing: easing, from: p0, to: p1, maximumPieces: maximumPieces)
        if let known = fittedPieces[key] { return known }
        let pieces = BezierPieces.fitting({ q in easing(clampUnit(p0 + (p1 - p0) * q)) }, maximumPieces: maximumPieces)
        fittedPieces[key] = pieces
        return pieces
    }
    /// How far each property reaches (``ExportModel/extents(of:initial:)``): what the page's stage is sized by.
    let extents: [Property: ClosedRange<Double>]

    init(scene: CompiledScene, finiteDuration: Time, state: SteadyState?, initial: [Property: Value],
         extents: [Property: ClosedRange<Double>]) {
        self.scene = scene
        self.extents = extents
        self.finiteDuration = finiteDuration
        self.state = state
        self.initial = initial
    }

    mutating func export(_ model: ExportModel, source: String) -> WebExport {
        let binding = model.binding
        var kinds: [String: Set<Value.Kind>] = [:]
        for column in model.columns { kinds[column.property.name, default: []].insert(column.kind) }
        var byView: [String: [WebExport.Channel]] = [:]
        for column in model.columns {
            let property = column.property
            // A column has a value at every instant (its segments' or its declared one).
            let start = scene.columnValue(of: property, at: Instant(.zero), initial: initial[property])
            // One registration per name: a name that is a colour or a point on one view and a number on
            // another gets a suffix for the kind (`-color`, `-point`).
            let clash = (kinds[property.name]?.count ?? 0) > 1 && column.kind != .number
            let animations = animations(of: property)
            let channel = WebExport.Channel(property: property, variable: WebNames.standard.variable(property.name + (clash ? "-" + column.kind.jsonName : "")),
                                            kind: column.kind, start: start, animations: animations,
                                            extent: column.kind == .number ? extents[property] : nil,
                                            declared: initial[property])
            byView[property.view, default: []].append(channel)
        }
        let views = model.views.map { WebExport.View(name: $0, channels: byView[$0] ?? [], placement: model.placements[$0] ?? .standard) }
        // Every firing, listed (none when there are more than 100,000).
        let all = placedEvents(scene.allEvents() ?? [])
        guard let state else {
            return WebExport(binding: binding, source: source, duration: scene.duration, isCancelled: false, views: views,
                             events: all.sorted { $0.time < $1.time })
        }
        // Forever: once up to the events' cycle, then one period of them again and again.
        var once = all, repeating: WebExport.RepeatingEvents?
        if let cycle = state.eventCycle, let end = try? cycle.start.adding(cycle.period) {
            once = all.filter { $0.time <= cycle.start }
            repeating = WebExport.RepeatingEvents(from: cycle.start, period: cycle.period,
                                                  events: all.filter { cycle.start < $0.time && $0.time <= end })
        }
        let period = state.longestPeriod ?? .one
        let window = ExportModel.shownWindow(settled: state.settled, period: period)
        return WebExport(binding: binding, source: source, duration: window, isCancelled: false, views: views,
                         events: once.sorted { $0.time < $1.time },
                         endless: WebExport.Endless(settled: state.settled, period: period, repeating: repeating))
    }

    // MARK: Animations of one property

    mutating func animations(of property: Property) -> [WebExport.Animation] {
        guard scene.properties.contains(property) else { return [] }
        guard let cycle = state?.cycles[property], let end = try? cycle.start.adding(cycle.period) else {
            return animations(of: property, from: .zero, to: state == nil ? scene.duration : finiteDuration, layering: true)
        }
        // Forever: the prefix as a finite export, then one period, iterated forever after it.
        let prefix = cycle.start.isPositive ? animations(of: property, from: .zero, to: cycle.start, layering: true) : []
        guard var period = animations(of: property, from: cycle.start, to: end, layering: false).first else { return prefix }
        period.isEndless = true
        period.fillsBoth = false
        return prefix + [period]
    }

    /// The animations of `property` over `[from, to]` (delayed by `from`):
    /// one with fill both, then (`layering`) one per symbolic repetition it
    /// holds, with an iteration count.
    private mutating func animations(of property: Property, from: Time, to: Time, layering: Bool) -> [WebExport.Animation] {
        let start = initial[property]
        guard let duration = try? to.subtracting(from), duration.isPositive else {
            let value = scene.columnValue(of: property, at: Instant(from), initial: start)
            return [WebExport.Animation(keyframes: [.init(offset: 0, value: value, easing: nil), .init(offset: 1, value: value, easing: nil)],
                                        delay: from.seconds, duration: 0, iterations: 1, fillsBoth: true)]
        }
        var pieces: [Piece] = []
        var layers: [WebExport.Animation] = []
        let repetitions = layering ? scene.repetitions(of: property, initial: start) : []
        for piece in scene.pieces(of: property, initial: start, from: Instant(from), to: Instant(to)) {
            if case .sampled = piece.rule,
               let repetition = repetitions.first(where: { $0.start == piece.start && $0.end == piece.end }),
               let (base, layer) = layered(repetition, property: property) {
                pieces.append(contentsOf: base)
                if let layer { layers.append(layer) }
                continue
            }
            pieces.append(piece)
        }
        let spans = pieces.flatMap { self.spans(of: $0, property: property) }
        let boundaries = [Instant(from)] + spans.map(\.end)
        let values = boundaries.map { scene.columnValue(of: property, at: $0, initial: start) }
        let offsets = boundaries.map { fraction($0, of: Instant(from), Instant(to)) }
        let keyframes = assemble(spans, values: values, offsets: offsets, seconds: duration.seconds)
        let base = WebExport.Animation(keyframes: keyframes, delay: from.seconds, duration: duration.seconds, iterations: 1,
                                       fillsBoth: true)
        return [base] + layers
    }

    /// A repetition of `count` copies as an iteration count (docs/exports.md
    /// §7): one animation plays a copy's keyframes `count` times (`count − 1`
    /// from copy 1 when copy 0 differs, which then stays in the base), with
    /// no fill, over a base that only holds there. The layer's ends hold the
    /// value between copies (what `animc eval` shows where one copy meets the
    /// next) over a ``WebExport/window`` of a period, so a browser's rounding
    /// of an iteration boundary lands on the right value; the base holds the
    /// value at the repetition's end, which shows once the layer stops.
    private mutating func layered(_ repetition: Repetition, property: Property) -> ([Piece], WebExport.Animation?)? {
        let count = repetition.count
        let period = repetition.period
        let start = initial[property]
        guard let laterStart = repetition.later.first?.start, count >= 2 else { return nil }
        let boundary = scene.columnValue(of: property, at: laterStart, initial: start)
        let alike = copiesAlike(repetition.first, repetition.later, property: property)
        let copies = alike ? repetition.first : repetition.later
        guard let copyStart = copies.first?.start else { return nil }
        let held = alike ? [] : repetition.first
        // Under the layer the base is never seen: it holds what shows once the layer ends, so the
        // jump there costs no keyframes.
        let hold = Piece(start: copyStart, end: repetition.end, rule: .hold(scene.columnValue(of: property, at: repetition.end, initial: start)))
        let spans = copies.flatMap { self.spans(of: $0, property: property) }
        let ends = [copyStart] + spans.map(\.end)
        var values = ends.map { scene.columnValue(of: property, at: $0, initial: start) }
        values[0] = boundary
        values[values.count - 1] = boundary
        guard let periodEnd = spans.last?.end else { return nil }
        let offsets = ends.map { fraction($0, of: copyStart, periodEnd) }
        let layer = WebExport.Animation(keyframes: assemble(spans, values: values, offsets: offsets, seconds: period.seconds),
                                        delay: copyStart.seconds, duration: period.seconds, iterations: alike ? count : count - 1,
                                        fillsBoth: false)
        return (held + [hold], layer)
    }

    /// Whether copy 0 shows what every later copy shows (`first` and `later`
    /// are copy 0's and copy 1's pieces): the same rules, and the same values
    /// at their ends, their middles and where copy 0 starts.
    private func copiesAlike(_ first: [Piece], _ later: [Piece], property: Property) -> Bool {
        guard first.count == later.count, let a0 = first.first?.start, let b0 = later.first?.start else { return false }
        let start = initial[property]
        if !nearlyEqual(scene.columnValue(of: property, at: a0, initial: start), scene.columnValue(of: property, at: b0, initial: start)) {
            return false
        }
        for (a, b) in zip(first, later) {
            switch (a.rule, b.rule) {
            case (.hold, .hold), (.tween, .tween), (.sampled, .sampled): break
            default: return false
            }
            for (x, y) in [(a.end, b.end), (Instant.midpoint(a.start, a.end), Instant.midpoint(b.start, b.end))] {
                guard nearlyEqual(scene.columnValue(of: property, at: x, initial: start),
                                  scene.columnValue(of: property, at: y, initial: start)) else { return false }
            }
        }
        return true
    }

    /// The spans of one piece: usually one; a `steps` segment CSS cannot say splits at its jumps.
    private mutating func spans(of piece: Piece, property: Property) -> [WebSpan] {
        switch piece.rule {
        case .hold(let value):
            return [WebSpan(start: piece.start, end: piece.end, curve: .hold(value))]
        case .tween(let from, let to, let easing, let p0, let p1):
            return tweenSpans(piece, from: from, to: to, easing: easing, p0: p0, p1: p1, property: property)
        case .sampled:
            return sampledSpans(piece, property: property)
        }
    }

    private mutating func tweenSpans(_ piece: Piece, from: Value, to: Value, easing: Easing, p0: Double, p1: Double,
                                     property: Property) -> [WebSpan] {
        let whole = p0 == 0 && p1 == 1, wholeBackwards = p0 == 1 && p1 == 0
        // Colours whose alpha would leave [0, 1] on the way: the browser clamps the
        // alpha before dividing it out, the semantics after, so draw them as keyframes.
        let alphaEscapes = colorAlphaEscapes(from: from, to: to) { q in easing(clampUnit(p0 + (p1 - p0) * q)) }
        if !alphaEscapes, whole || wholeBackwards {
            let played = whole ? easing : easing.mirrored
            let (a, b) = whole ? (from, to) : (to, from)
            switch cssEasing(of: played) {
            case .single(let text):
                var span = WebSpan(start: piece.start, end: piece.end, curve: .eased(from: a, to: b, easing: text, ends: cssEasingEnds(text, of: played)))
                if case .steps = played.kind { span.leads = true }
                return [span]
            case .split(let first, let second):
                return [WebSpan(start: piece.start, end: piece.end, curve: .split(from: a, to: b, first: first, second: second))]
            case nil:
                break
            }
        }
        if !alphaEscapes, let part = cssEasing(of: easing, from: p0, to: p1) {
            // Part of a curve that is a cubic Bézier: the part is one too, cut out exactly (as Lottie cuts it).
            return [WebSpan(start: piece.start, end: piece.end,
                         curve: .eased(from: Value.interpolate(from: from, to: to, progress: part.start),
                                       to: Value.interpolate(from: from, to: to, progress: part.end), easing: part.easing, ends: (0, 1)))]
        }
        if let holds = stepHolds(piece, easing: easing, property: property) { return holds }
        if alphaEscapes {
            return [bakedSpan(piece, property: property) { q in Value.interpolate(from: from, to: to, progress: easing(clampUnit(p0 + (p1 - p0) * q))) }]
        }
        let curve = LinearCurve.approximating { q in easing(clampUnit(p0 + (p1 - p0) * q)) }
        if !curve.jumps.isEmpty {
            // A step inside the curve (steps under another easing): sampled, so a jump at an exact
            // time becomes a breakpoint and its instant shows eval's value, not one of two stops
            // a rounding error apart.
            return sampledSpans(Piece(start: piece.start, end: piece.end, rule: .sampled), property: property)
        }
        if !curve.isWithinBound { noteApproximation(property, piece) }
        if curve.points.count == 2, let first = curve.points.first, let last = curve.points.last {
            // A straight stretch (part of a linear tween): two keyframes say it.
            return [WebSpan(start: piece.start, end: piece.end,
                         curve: .eased(from: Value.interpolate(from: from, to: to, progress: first.output),
                                       to: Value.interpolate(from: from, to: to, progress: last.output), easing: "linear", ends: (0, 1)))]
        }
        // Cubic Béziers where fewer bytes say it (a piece is a keyframe with its easing, some
        // five times a stop of `linear(…)`). Colours too: the browser interpolates a colour's
        // keyframes premultiplied, as `Value.interpolate` does, so the colours at the split
        // points lie on the tween's own line and each piece follows the curve along it (an
        // alpha that leaves [0, 1] on the way was baked above). Not a colour that overshoots:
        // the browser clamps each keyframe's colour, and clamped ends do not interpolate to the
        // clamped colour in between.
        var colourOvershoots = false
        if case .color = from { colourOvershoots = curve.points.contains { $0.output < 0 || $0.output > 1 } }
        if curve.isWithinBound, !colourOvershoots, let pieces = bezierPieces(easing, from: p0, to: p1, maximumPieces: min(24, curve.points.count / 5)) {
            return [WebSpan(start: piece.start, end: piece.end, curve: .beziers(from: from, to: to, pieces: pieces))]
        }
        return [WebSpan(start: piece.start, end: piece.end, curve: .approximated(from: from, to: to, curve: curve))]
    }

    /// A piecewise-constant easing (`steps` innermost) on a plain clock: holds
    /// between its jumps, which fall at `start + k/n·(end − start)` exactly.
    private func stepHolds(_ piece: Piece, easing: Easing, property: Property) -> [WebSpan]? {
        guard let count = stepCount(easing), count <= 10_000, let segment = piece.segment,
              let s = segment.start.exact, let e = segment.end.exact, let length = try? e.subtracting(s) else { return nil }
        var cuts: [Instant] = [piece.start]
        for k in 1..<max(count, 1) {
            guard let offset = try? length.multiplied(by: Int64(k)).divided(by: Time(Int64(count))),
                  let t = try? s.adding(offset) else { return nil }
            let instant = Instant(t)
            if piece.start < instant && instant < piece.end { cuts.append(instant) }
        }
        cuts.append(piece.end)
        var spans: [WebSpan] = []
        for (a, b) in zip(cuts, cuts.dropFirst()) {
            guard let value = scene.value(of: property, at: Instant.midpoint(a, b), initial: initial[property]) else { return nil }
            spans.append(WebSpan(start: a, end: b, curve: .hold(value)))
        }
        return spans
    }

    /// Ties, warps and repetitions: sampled through the scene. A jump inside
    /// that falls on an exact time (a warp by `steps` jumps at `k/n` of its
    /// window) becomes a breakpoint, so its instant shows the value `animc
    /// eval` shows there, whatever the browser's rounding.
    private mutating func sampledSpans(_ piece: Piece, property: Property, depth: Int = 0) -> [WebSpan] {
        let start = initial[property]
        let a = piece.start.seconds, b = piece.end.seconds
        // Limits just inside the piece (its ends belong to the breakpoints).
        let inset = min(max(1e-12 * (b - a), 4 * max(abs(a), abs(b)).ulp), (b - a) / 4)
        let scene = self.scene
        let sample = { (q: Double) -> Value in
            let t = min(max(a + (b - a) * q, a + inset), b - inset)
            return scene.columnValue(of: property, atSeconds: t, initial: start)
        }
        guard case .number = sample(0.5) else {
            return [bakedSpan(piece, property: property, sample)]
        }
        // The property is a number (checked at 0.5 above: a property has one kind), so `?? 0` is never taken.
        let curve = LinearCurve.approximating { sample($0).number ?? 0 }
        if depth < 200 {
            for jump in curve.jumps {
                let seconds = a + (b - a) * jump
                guard let exact = nearbyTime(seconds, within: 64 * max(abs(a), abs(b), b - a).ulp) else { continue }
                let cut = Instant(exact)
                guard cut.seconds > a + 1e-6 * (b - a), cut.seconds < b - 1e-6 * (b - a) else { continue }
                return sampledSpans(Piece(start: piece.start, end: cut, rule: .sampled), property: property, depth: depth + 1)
                    + sampledSpans(Piece(start: cut, end: piece.end, rule: .sampled), property: property, depth: depth + 1)
            }
        }
        if !curve.isWithinBound { noteApproximation(property, piece) }
        let outputs = curve.points.map(\.output)
        let least = outputs.min() ?? 0, most = outputs.max() ?? 0
        guard most > least else { return [WebSpan(start: piece.start, end: piece.end, curve: .hold(.number(least)))] }
        // Keyframes on the values at the ends (which the breakpoints then make exact),
        // unless the curve comes back near where it started: then on its least and greatest.
        var low = least, high = most
        if let first = outputs.first, let last = outputs.last, abs(last - first) >= (most - least) / 4 {
            (low, high) = (first, last)
        }
        if curve.points.count == 2, let first = curve.points.first, let last = curve.points.last {
            return [WebSpan(start: piece.start, end: piece.end,
                         curve: .eased(from: .number(first.output), to: .number(last.output), easing: "linear", ends: (0, 1)))]
        }
        // Cubic Béziers where fewer bytes say it, as for a tween's easing (``tweenSpans``).
        if curve.isWithinBound,
           let pieces = BezierPieces.fitting({ ((sample($0).number ?? low) - low) / (high - low) }, maximumPieces: min(24, curve.points.count / 5)) {
            return [WebSpan(start: piece.start, end: piece.end, curve: .beziers(from: .number(low), to: .number(high), pieces: pieces))]
        }
        let normalized = LinearCurve(points: curve.points.map { ($0.input, ($0.output - low) / (high - low)) },
                                     isWithinBound: curve.isWithinBound, jumps: curve.jumps)
        return [WebSpan(start: piece.start, end: piece.end, curve: .normalized(low: low, high: high, curve: normalized))]
    }

    /// Colours and points as keyframes: the components the browser
    /// interpolates (``Value/browserComponents``: a colour's premultiplied) are followed within 1e-4 of their range.
    private mutating func bakedSpan(_ piece: Piece, property: Property, _ sample: (Double) -> Value) -> WebSpan {
        let width = sample(0).browserComponents.count
        func components(_ q: Double) -> [Double] {
            let components = sample(q).browserComponents
            return components.count == width ? components : Array(repeating: 0, count: width)
        }
        // One curve per component; their inputs, merged, are the keyframes.
        var inputs: Set<Double> = [0, 1]
        var within = true
        for index in 0..<width {
            let curve = LinearCurve.approximating({ components($0)[index] }, maximumPoints: 1000)
            within = within && curve.isWithinBound
            for point in curve.points { inputs.insert(point.input) }
        }
        if !within { noteApproximation(property, piece) }
        let points = inputs.sorted().map { q in (q, sample(q).browserValue) }
        return WebSpan(start: piece.start, end: piece.end, curve: .baked(points))
    }

    private mutating func noteApproximation(_ property: Property, _ piece: Piece) {
        approximated.append((property, piece.start.seconds, piece.end.seconds))
    }
}
