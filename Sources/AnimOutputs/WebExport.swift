import AnimJSON
import AnimLang
import Animations

/// An animation as the web plays it (docs/exports.md §2): every property `V.P`
/// becomes a registered custom property `--animc-P` (the prefix is
/// ``WebNames``'s, docs/exports.md §6) on view `V`'s element, animated by its own
/// keyframes over the whole duration with fill `both`. `animc
/// export --to waapi|css|html` writes this one model three ways
/// (``waapiJSON(_:)``, ``stylesheet(_:)``, ``playerPage(_:source:)``).
///
/// ```swift
/// let outcome = run(SourceFile(name: "talk.anim", text: source))
/// let (export, diagnostics) = webExport(outcome)
/// export?.views.map(\.name)        // ["circle", "square"]: first mention first
/// ```
///
/// **Keyframes** come from the compiled timeline, piece by piece
/// (``CompiledScene/pieces(of:initial:)``):
/// * a hold is two keyframes with one value;
/// * one segment over its whole window keeps its easing where CSS has it
///   (``cssEasing(of:)``): forwards as written, backwards as its mirror; a
///   `steps` segment that CSS cannot say (in part, or backwards) becomes
///   holds split at its exact jump times;
/// * everything else (other curves, part of a segment, ties, warps) is a
///   `linear(…)` curve within 1e-4 of the interval's range (``LinearCurve``),
///   or for colours that need it, keyframes within the same bound.
///
/// **Instants.** At a breakpoint the value is what `animc eval` says there
/// (``CompiledScene/value(of:at:initial:)``), which may be neither side's (the
/// segment that started last wins at its end, then an older one resumes).
/// Where the value jumps, the breakpoint's value is held over a window of
/// ``window`` (in fractions of the duration) on the side that differs, so that
/// the browser's rounding of the time cannot land on the wrong side; CSS
/// `steps()` intervals are placed ``stepLead`` of their length early for the
/// same reason (a browser computes a jump instant as ½ − 1e-17 about a
/// third of the time).
///
/// **Repetitions** kept symbolic (`x ^ 1_000_000_000`) become a second
/// animation on the property with an iteration count, placed after the
/// base one so it wins while it runs (``CompiledScene/repetitions(of:initial:)``).
///
/// **Forever** (docs/semantics.md §6.6: exports play it with infinite iterations).
/// Each property that an endless repetition drives settles, at some time
/// `S`, into a cycle of one period `P` (``CompiledScene/steadyState(initial:)``):
/// it becomes a prefix animation over `[0, S]` (fill both, as a finite
/// export, left out when `S` is 0) and one period `[S, S + P]`, cut out of
/// the same timeline the same way, played with infinite iterations after a
/// delay of `S` and no fill, listed after the prefix so that it wins once
/// it starts. Other properties are animated over the finite part, as
/// always. Events fire once up to their cycle's start, then one period's
/// events again and again (``Endless``).
public struct WebExport: Sendable {
    /// A keyframe: where, what, and the easing of the interval it starts (`nil`: linear).
    public struct Keyframe: Sendable {
        public var offset: Double
        public var value: Value
        public var easing: String?
        /// What the browser shows at this keyframe's offset, when its curve
        /// does not start at its value (`steps(4, jump-start)` shows ¼ of the
        /// way at once); `nil` when it shows `value`.
        public var shown: Value?

        public init(offset: Double, value: Value, easing: String? = nil, shown: Value? = nil) {
            self.offset = offset
            self.value = value
            self.easing = easing
            self.shown = shown
        }
    }

    /// One `element.animate(keyframes, options)` call.
    public struct Animation: Sendable {
        public var keyframes: [Keyframe]
        /// Seconds.
        public var delay: Double
        /// Seconds (one iteration).
        public var duration: Double
        public var iterations: Int
        /// `both` for the property's base animation, `none` for repetitions layered on it.
        public var fillsBoth: Bool
        /// Iterated forever (``iterations`` is then 1, and means nothing): one
        /// period of an animation that repeats forever, after its prefix.
        public var isEndless = false
    }

    /// One property of one view.
    public struct Channel: Sendable {
        public let property: Property
        /// The custom property: `--animc-radius` (``WebNames/variable(_:)``).
        public let variable: String
        public let kind: Value.Kind
        /// The value at time 0, written as the element's own value (the
        /// property keeps it when nothing animates it).
        public let start: Value
        /// The base animation first, then any repetitions layered on it.
        public let animations: [Animation]
        /// The least and greatest number it takes (overshoots included), for laying out a stage; `nil` for colours.
        public let extent: ClosedRange<Double>?
    }

    /// A view: its element, and its properties sorted by name.
    public struct View: Sendable {
        public let name: String
        public let channels: [Channel]
        /// Where it stands: `at` and `origin` (docs/exports.md §6).
        public var placement: Placement = .standard
    }

    /// An event and where it fires.
    public struct Event: Sendable {
        public let name: String
        public let time: Time

        public init(name: String, time: Time) {
            self.name = name
            self.time = time
        }
    }

    /// How an export of an animation that repeats forever goes on.
    public struct Endless: Sendable {
        /// Where every property and the events have settled into their cycles.
        public let settled: Time
        /// The longest period of a property or of the events.
        public let period: Time
        /// Events that repeat, or `nil` when none does.
        public let repeating: RepeatingEvents?

        public init(settled: Time, period: Time, repeating: RepeatingEvents?) {
            self.settled = settled
            self.period = period
            self.repeating = repeating
        }
    }

    /// Events that repeat forever: each of ``events`` fires at its time, in
    /// `(from, from + period]`, and again every ``period`` after it.
    public struct RepeatingEvents: Sendable {
        public let from: Time
        public let period: Time
        /// Sorted by time.
        public let events: [Event]

        public init(from: Time, period: Time, events: [Event]) {
            self.from = from
            self.period = period
            self.events = events
        }
    }

    /// The binding exported, and the file it came from.
    public let binding: String
    public let source: String
    /// The duration, exactly. For one that repeats forever (``endless``),
    /// the stretch a player's scrubber shows: where everything has settled
    /// into its cycle, and two of the longest period.
    public let duration: Time
    /// A cancelled animation has no views and no duration.
    public let isCancelled: Bool
    /// In first-mention order (the first `view` declaration or tween target in the file).
    public let views: [View]
    /// Sorted by time. For one that repeats forever, the events that fire
    /// once (those of ``Endless/repeating`` come on top).
    public let events: [Event]
    /// How it goes on, when it repeats forever; `nil` for a finite one.
    public let endless: Endless?
    /// What it names on the page (``named(_:)``): ``WebNames/standard`` unless given.
    public internal(set) var names = WebNames.standard

    /// Half-width of the window that holds a breakpoint's value, as a fraction of the duration.
    public static let window = 1e-10
    /// The longest a window may last, in seconds (a browser's times are far finer).
    public static let windowSeconds = 1e-5
    /// The most copies of a repetition the export samples as one curve
    /// (``CompiledScene/sampledRepetitionCopies(of:initial:)``): beyond, a
    /// sampled curve can miss every copy's shape, so the export refuses.
    public static let sampledCopiesLimit = 64
    /// How early a CSS `steps()` interval starts, as a fraction of its own length.
    public static let stepLead = 1e-9

    /// Every channel, in column order (sorted by `view.property`, as `animc eval` prints them).
    public var columns: [Channel] {
        views.flatMap(\.channels).sorted { $0.property < $1.property }
    }

    public init(binding: String, source: String, duration: Time, isCancelled: Bool, views: [View], events: [Event],
                endless: Endless? = nil) {
        self.binding = binding
        self.source = source
        self.duration = duration
        self.isCancelled = isCancelled
        self.views = views
        self.events = events
        self.endless = endless
    }
}

/// The web export of an evaluated file (see ``WebExport``), with what to
/// tell the user: an error when the scene cannot be sampled or when two
/// properties would get one name (``WebExport/nameClash``), a warning for
/// each property the export could not follow within its bound. `nil` when
/// `outcome` has errors. `names` chooses what it defines (``WebNames``).
public func webExport(_ outcome: Outcome, source: String = "", names: WebNames = .standard) -> (WebExport?, [Diagnostic]) {
    let model: ExportModel
    switch exportSubject(outcome) {
    case nil: return (nil, [])
    case .failed(let error)?: return (nil, [error])
    case .cancelled(let binding, _, _)?:
        return (WebExport(binding: binding, source: source, duration: .zero, isCancelled: true, views: [], events: []), [])
    case .model(let compiled)?: model = repetitionModel(compiled, outcome: outcome)
    }
    let range = model.range
    for column in model.columns {
        let copies = model.scene.sampledRepetitionCopies(of: column.property, initial: model.initial[column.property])
        guard copies > WebExport.sampledCopiesLimit else { continue }
        return (nil, [Diagnostic(.exportRepetition(binding: model.binding, property: column.property.description, copies: copies),
                                 at: range,
                                 hint: "a browser repeats a copy that is the same each time: here each copy starts where the last "
                                    + "left it (`by`, `to`), or a warp or another tween shapes the copies; repeat `from A to B` "
                                    + "tweens, use fewer copies, or print it with `animc eval`")])
    }
    let export: WebExport, approximated: [(property: Property, from: Double, to: Double)]
    do {
        (export, approximated) = try WebExport.make(model, source: source)
    } catch {
        return (nil, [foreverError(error, binding: model.binding, at: range, relative: model.scene.repeatsRelativeTweens)])
    }
    let named = names.isStandard ? export : export.named(names)
    if let clash = named.nameClash {
        // At the declared value of the second (the one that would overwrite), else of the first, else the binding.
        let declared = outcome.resolved.initialRanges
        return (nil, [Diagnostic(.exportNameClash(first: clash.first.description, second: clash.second.description, name: clash.name),
                                 at: declared[clash.second] ?? declared[clash.first] ?? range,
                                 hint: "an export never writes one over the other: rename one of the two")])
    }
    let warnings = approximated.map { item in
        Diagnostic(.exportApproximated(property: item.property.description, from: item.from, to: item.to), at: range,
                   hint: "the browser shows it less closely than 1e-4 of its range there; `animc eval` has the exact values")
    }
    return (named, warnings)
}

/// The model a web export writes: a finite scene compiled again with every
/// repetition kept symbolic, when each can be played as an iteration count
/// (``CompiledScene/repetitions(of:initial:)`` describes it: docs/exports.md
/// §7), so `bob ^ 1000` is one period's keyframes, not a thousand; else the
/// scene as `animc eval` compiles it.
private func repetitionModel(_ model: ExportModel, outcome: Outcome) -> ExportModel {
    guard !model.scene.isInfinite, let scene = outcome.scene,
          let compact = try? scene.compile(materializeLimit: 1, initial: outcome.initial), !compact.blocks.isEmpty,
          compact.blocks.allSatisfy({ !$0.isEndless }),
          compact.properties.allSatisfy({ compact.sampledRepetitionCopies(of: $0, initial: model.initial[$0]) == 0 }) else { return model }
    return ExportModel(compact, binding: model.binding, range: model.range, initial: model.initial, viewOrder: model.views,
                       declaredViews: model.views, placements: model.placements)
}

extension WebExport {
    /// The web export of a compiled scene (``webExport(_:source:)`` is this for a
    /// file), and where it could not follow a property within its bound.
    /// `viewOrder` orders the views (the rest follow, sorted); `events` stands
    /// are added to the scene's own (see ``placedEvents(_:)``). A scene that
    /// repeats forever throws when it does not settle into cycles the web
    /// can play (``CompiledScene/steadyState(initial:)``); a finite one never throws.
    public static func make(_ scene: CompiledScene, binding: String, source: String = "", initial: [Property: Value] = [:],
                            viewOrder: [String] = [], declaredViews: [String] = [], placements: [String: Placement] = [:],
                            events: [Event] = [])
        throws(SteadyStateProblem) -> (WebExport, [(property: Property, from: Double, to: Double)]) {
        try make(ExportModel(scene, binding: binding, initial: initial, viewOrder: viewOrder, declaredViews: declaredViews,
                             placements: placements), source: source, events: events)
    }

    static func make(_ model: ExportModel, source: String, events: [Event] = [])
        throws(SteadyStateProblem) -> (WebExport, [(property: Property, from: Double, to: Double)]) {
        let scene = model.scene
        let state = try scene.steadyState(initial: model.initial)
        var builder = WebExportBuilder(scene: state.unrolled, finiteDuration: scene.duration, state: scene.isInfinite ? state : nil,
                                       initial: model.initial)
        var export = builder.export(model, source: source)
        if !events.isEmpty {
            export = WebExport(binding: export.binding, source: export.source, duration: export.duration, isCancelled: false,
                               views: export.views, events: (export.events + events).sorted { $0.time < $1.time },
                               endless: export.endless)
        }
        return (export, builder.approximated)
    }
}

/// The error for a scene that repeats forever in a way an export cannot play.
func foreverError(_ problem: SteadyStateProblem, binding: String, at range: SourceRange, relative: Bool = false) -> Diagnostic {
    switch problem {
    case .mixedPeriods(let property, let periods):
        return Diagnostic(.exportMixedPeriods(subject: "`\(property)`", periods: periods), at: range,
                          hint: "an export repeats one period per property: give its endless repetitions one period, "
                            + "or animate them on different properties")
    case .eventPeriods(let periods):
        return Diagnostic(.exportMixedPeriods(subject: "its events", periods: periods), at: range,
                          hint: "their periods have no common multiple that exact time can hold: give them one period")
    case .unsettled(let property) where relative:
        return Diagnostic(.exportUnsettled(binding: binding, property: property?.description), at: range,
                          hint: "each copy starts where the one before left it (`by`), so its values never come back: make each "
                            + "copy return to its start (`looped forever`), use `from A to B`, or print it with `animc eval --until`")
    case .unsettled(let property):
        return Diagnostic(.exportUnsettled(binding: binding, property: property?.description), at: range,
                          hint: "export a binding whose endless part is `x repeated forever` on a plain clock, or print it "
                            + "with `animc eval --until`")
    }
}

/// Events written down (exact times; a time a warp moved is the nearest exact decimal).
func placedEvents(_ events: [PlacedEvent]) -> [WebExport.Event] {
    events.map { event in
        WebExport.Event(name: event.name, time: event.time.exact ?? Time(seconds: event.time.seconds) ?? .zero)
    }
}

// MARK: - Building

/// One stretch of a property's timeline and the curve the browser draws over it.
private struct Span {
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
        case .normalized(let low, let high, let curve):
            return [.init(offset: a, value: .number(low), easing: curve.css), .init(offset: b, value: .number(high), easing: nil)]
        case .baked(let points):
            return points.map { .init(offset: a + (b - a) * $0.0, value: $0.1, easing: nil) }
        }
    }
}

private struct WebExportBuilder {
    /// The scene; for one that repeats forever, unrolled past every cycle (``SteadyState/unrolled``).
    let scene: CompiledScene
    /// The duration of the scene's finite part: what properties without a cycle are animated over.
    let finiteDuration: Time
    /// How a scene that repeats forever settles; `nil` for a finite one.
    let state: SteadyState?
    let initial: [Property: Value]
    /// Where a curve could not be followed within the bound.
    var approximated: [(property: Property, from: Double, to: Double)] = []
    /// The numbers the property being built takes, so far.
    var extent = Extent()

    mutating func widen(_ values: Double...) {
        for value in values { extent.include(value) }
    }

    /// Widens the extent by a span's values, overshoots included.
    private mutating func widen(by span: Span) {
        switch span.curve {
        case .hold(let value):
            if case .number(let x) = value { widen(x) }
        case .eased(let from, let to, _, _), .split(let from, let to, _, _):
            guard case .number(let a) = from, case .number(let b) = to else { return }
            widen(a, b)
        case .approximated(let from, let to, let curve):
            guard case .number(let a) = from, case .number(let b) = to else { return }
            for point in curve.points { widen(a + (b - a) * point.output) }
        case .normalized(let low, let high, let curve):
            for point in curve.points { widen(low + (high - low) * point.output) }
        case .baked:
            break
        }
    }

    init(scene: CompiledScene, finiteDuration: Time, state: SteadyState?, initial: [Property: Value]) {
        self.scene = scene
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
            extent = Extent()
            let animations = animations(of: property)
            var range = extent
            range.include(start)
            let channel = WebExport.Channel(property: property, variable: WebNames.standard.variable(property.name + (clash ? "-" + column.kind.jsonName : "")),
                                            kind: column.kind, start: start, animations: animations,
                                            extent: column.kind == .number ? range.range : nil)
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
    /// of an iteration boundary lands on the right value; after the last
    /// copy the base shows the value at the end.
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
        let hold = Piece(start: copyStart, end: repetition.end, rule: .hold(boundary))
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
    private mutating func spans(of piece: Piece, property: Property) -> [Span] {
        switch piece.rule {
        case .hold(let value):
            if case .number(let x) = value { widen(x) }
            return [Span(start: piece.start, end: piece.end, curve: .hold(value))]
        case .tween(let from, let to, let easing, let p0, let p1):
            if case .number(let a) = from, case .number(let b) = to {
                for index in 0...256 { widen(a + (b - a) * easing(clampUnit(p0 + (p1 - p0) * Double(index) / 256))) }
            }
            return tweenSpans(piece, from: from, to: to, easing: easing, p0: p0, p1: p1, property: property)
        case .sampled:
            let spans = sampledSpans(piece, property: property)
            for span in spans { widen(by: span) }
            return spans
        }
    }

    private mutating func tweenSpans(_ piece: Piece, from: Value, to: Value, easing: Easing, p0: Double, p1: Double,
                                     property: Property) -> [Span] {
        let whole = p0 == 0 && p1 == 1, wholeBackwards = p0 == 1 && p1 == 0
        // Colours whose alpha would leave [0, 1] on the way: the browser clamps the
        // alpha before dividing it out, the semantics after, so draw them as keyframes.
        let alphaEscapes = colorAlphaEscapes(from: from, to: to) { q in easing(clampUnit(p0 + (p1 - p0) * q)) }
        if !alphaEscapes, whole || wholeBackwards {
            let played = whole ? easing : easing.mirrored
            let (a, b) = whole ? (from, to) : (to, from)
            switch cssEasing(of: played) {
            case .single(let text):
                var span = Span(start: piece.start, end: piece.end, curve: .eased(from: a, to: b, easing: text, ends: cssEasingEnds(text, of: played)))
                if case .steps = played.kind { span.leads = true }
                return [span]
            case .split(let first, let second):
                return [Span(start: piece.start, end: piece.end, curve: .split(from: a, to: b, first: first, second: second))]
            case nil:
                break
            }
        }
        if !alphaEscapes, let part = cssEasing(of: easing, from: p0, to: p1) {
            // Part of a curve that is a cubic Bézier: the part is one too, cut out exactly (as Lottie cuts it).
            return [Span(start: piece.start, end: piece.end,
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
            return [Span(start: piece.start, end: piece.end,
                         curve: .eased(from: Value.interpolate(from: from, to: to, progress: first.output),
                                       to: Value.interpolate(from: from, to: to, progress: last.output), easing: "linear", ends: (0, 1)))]
        }
        return [Span(start: piece.start, end: piece.end, curve: .approximated(from: from, to: to, curve: curve))]
    }

    /// A piecewise-constant easing (`steps` innermost) on a plain clock: holds
    /// between its jumps, which fall at `start + k/n·(end − start)` exactly.
    private func stepHolds(_ piece: Piece, easing: Easing, property: Property) -> [Span]? {
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
        var spans: [Span] = []
        for (a, b) in zip(cuts, cuts.dropFirst()) {
            guard let value = scene.value(of: property, at: Instant.midpoint(a, b), initial: initial[property]) else { return nil }
            spans.append(Span(start: a, end: b, curve: .hold(value)))
        }
        return spans
    }

    /// Ties, warps and repetitions: sampled through the scene. A jump inside
    /// that falls on an exact time (a warp by `steps` jumps at `k/n` of its
    /// window) becomes a breakpoint, so its instant shows the value `animc
    /// eval` shows there, whatever the browser's rounding.
    private mutating func sampledSpans(_ piece: Piece, property: Property, depth: Int = 0) -> [Span] {
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
        guard most > least else { return [Span(start: piece.start, end: piece.end, curve: .hold(.number(least)))] }
        // Keyframes on the values at the ends (which the breakpoints then make exact),
        // unless the curve comes back near where it started: then on its least and greatest.
        var low = least, high = most
        if let first = outputs.first, let last = outputs.last, abs(last - first) >= (most - least) / 4 {
            (low, high) = (first, last)
        }
        if curve.points.count == 2, let first = curve.points.first, let last = curve.points.last {
            return [Span(start: piece.start, end: piece.end,
                         curve: .eased(from: .number(first.output), to: .number(last.output), easing: "linear", ends: (0, 1)))]
        }
        let normalized = LinearCurve(points: curve.points.map { ($0.input, ($0.output - low) / (high - low)) },
                                     isWithinBound: curve.isWithinBound, jumps: curve.jumps)
        return [Span(start: piece.start, end: piece.end, curve: .normalized(low: low, high: high, curve: normalized))]
    }

    /// Colours and points as keyframes: the components the browser
    /// interpolates (``Value/browserComponents``: a colour's premultiplied) are followed within 1e-4 of their range.
    private mutating func bakedSpan(_ piece: Piece, property: Property, _ sample: (Double) -> Value) -> Span {
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
        return Span(start: piece.start, end: piece.end, curve: .baked(points))
    }

    private mutating func noteApproximation(_ property: Property, _ piece: Piece) {
        approximated.append((property, piece.start.seconds, piece.end.seconds))
    }

    // MARK: Keyframes

    /// The keyframes of `spans` laid end to end, `values[j]` being the value at
    /// the j-th boundary (`offsets[j]`): spans meet where the timeline is
    /// continuous; where it jumps, the boundary's value is held over a window
    /// on the side (or sides) that differ.
    /// `seconds` is the animation's length: a window is at most
    /// ``WebExport/windowSeconds`` long, so a long animation's jump does not
    /// squeeze the curves beside it by a visible time.
    private func assemble(_ spans: [Span], values: [Value], offsets: [Double], seconds: Double) -> [WebExport.Keyframe] {
        let n = spans.count
        guard n > 0 else { return [] }
        var lengths: [Double] = []
        for index in 0..<n { lengths.append(max(0, offsets[index + 1] - offsets[index])) }
        let leads = (0..<n).map { spans[$0].leads ? min(WebExport.stepLead * lengths[$0], lengths[$0] / 8) : 0 }
        // Where each span's curve starts and ends, and what each boundary holds.
        var curveStart = [Double](repeating: 0, count: n), curveEnd = [Double](repeating: 0, count: n)
        var plateaus: [(Double, Double, Value)?] = Array(repeating: nil, count: n + 1)
        for j in 0...n {
            let o = offsets[j]
            let value = values[j]
            var low = j > 0 ? o - leads[j - 1] : o
            var high = j < n ? o - leads[j] : o
            let neighbours = [j > 0 ? lengths[j - 1] : Double.infinity, j < n ? lengths[j] : Double.infinity]
            let window = min(WebExport.window, WebExport.windowSeconds / max(seconds, .leastNormalMagnitude), (neighbours.min() ?? 0) / 4)
            let jumpsBefore = j > 0 && !nearlyEqual(spans[j - 1].endLimit, value)
            let jumpsAfter = j < n && !nearlyEqual(spans[j].startValue, value)
            if jumpsBefore { low = min(low, o - window) }
            if jumpsAfter { high = max(high, o + window) }
            if high < low {
                // Continuous, or the next curve starts early: the previous one ends there too.
                low = high
            }
            low = min(max(low, 0), 1)
            high = min(max(high, 0), 1)
            if jumpsBefore || jumpsAfter || high > low { plateaus[j] = (low, high, value) }
            if j > 0 { curveEnd[j - 1] = low }
            if j < n { curveStart[j] = high }
        }
        var keyframes: [WebExport.Keyframe] = []
        func add(_ keyframe: WebExport.Keyframe) {
            if let last = keyframes.last, last.offset == keyframe.offset, nearlyEqual(last.value, keyframe.value) {
                keyframes[keyframes.count - 1] = keyframe
                return
            }
            // A hold continued by the same value needs no keyframe in between.
            if keyframes.count >= 2, let last = keyframes.last, last.easing == nil, nearlyEqual(last.value, keyframe.value),
               keyframes[keyframes.count - 2].easing == nil, nearlyEqual(keyframes[keyframes.count - 2].value, keyframe.value) {
                keyframes[keyframes.count - 1] = keyframe
                return
            }
            keyframes.append(keyframe)
        }
        for j in 0...n {
            if let (low, high, value) = plateaus[j] {
                add(.init(offset: low, value: value, easing: nil))
                add(.init(offset: high, value: value, easing: nil))
            }
            if j < n {
                var own = spans[j].keyframes(from: curveStart[j], to: curveEnd[j])
                // Ends that differ from the boundaries' values by rounding only take those values.
                if let first = own.first, nearlyEqual(first.value, values[j]) { own[0].value = values[j] }
                if let last = own.last, nearlyEqual(last.value, values[j + 1]) { own[own.count - 1].value = values[j + 1] }
                for keyframe in own { add(keyframe) }
            }
        }
        return keyframes
    }
}

// MARK: - Helpers

/// `(t − a) / (b − a)`: exact when all three are, then rounded once.
private func fraction(_ t: Instant, of a: Instant, _ b: Instant) -> Double {
    if let x = t.exact, let s = a.exact, let e = b.exact, let part = try? x.subtracting(s), let whole = try? e.subtracting(s),
       !whole.isZero, let quotient = try? part.divided(by: whole) {
        return quotient.seconds
    }
    let width = b.seconds - a.seconds
    return width > 0 ? (t.seconds - a.seconds) / width : 0
}

/// The simplest exact time within `tolerance` of `seconds` (a continued
/// fraction's convergent, denominators up to 10⁶), or `nil`. With a
/// tolerance of a few rounding errors, only a time that is such a fraction
/// (as the times a script writes are) passes.
private func nearbyTime(_ seconds: Double, within tolerance: Double) -> Time? {
    guard seconds.isFinite, abs(seconds) < 1e9 else { return nil }
    var x = seconds
    // Convergents p/q of the continued fraction.
    var (p0, q0, p1, q1): (Double, Double, Double, Double) = (0, 1, 1, 0)
    for _ in 0..<40 {
        let whole = x.rounded(.down)
        let (p2, q2) = (whole * p1 + p0, whole * q1 + q0)
        guard q2 <= 1e6, abs(p2) < 9e15 else { return nil }
        if abs(p2 / q2 - seconds) <= tolerance {
            return Time(numerator: Int64(p2), denominator: Int64(q2))
        }
        (p0, q0, p1, q1) = (p1, q1, p2, q2)
        let fraction = x - whole
        guard fraction > 1e-15 else { return nil }
        x = 1 / fraction
    }
    return nil
}

/// How many steps a piecewise-constant easing has (`steps` innermost, through
/// compositions and mirrors), or `nil` when it is not piecewise constant.
private func stepCount(_ easing: Easing) -> Int? {
    var current = easing
    while true {
        if case .steps(let count, _) = current.kind { return count }
        if case .composed(_, let inner) = current.kind {
            current = inner
            continue
        }
        if case .mirror(let inner) = current.kind {
            current = inner
            continue
        }
        return nil
    }
}

/// Whether a colour tween's alpha leaves [0, 1] along `progress` (q in [0, 1]).
private func colorAlphaEscapes(from: Value, to: Value, progress: (Double) -> Double) -> Bool {
    guard case .color(let a) = from, case .color(let b) = to, a.alpha != b.alpha else { return false }
    for index in 0...256 {
        let p = progress(Double(index) / 256)
        let alpha = a.alpha + (b.alpha - a.alpha) * p
        if alpha < 0 || alpha > 1 { return true }
    }
    return false
}

private func clampUnit(_ p: Double) -> Double {
    p < 0 ? 0 : (p > 1 ? 1 : p)
}

