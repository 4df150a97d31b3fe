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
        /// How much of the element's start the value carries at play time
        /// (docs/exports.md §7.3): the module plays `value + relative × (s −
        /// declared)` where `s` is the value the element has when `play()`
        /// starts (``Channel/declared``); 0 for a value that depends on no
        /// start. 1 for the start of a `to` or `by` tween with nothing before
        /// it and for everything a chain of `by` adds to it; between 0 and 1
        /// inside a `to` curve split into pieces or a tie. For a colour or a
        /// point, 1 means the element's value itself.
        public var relative: Double

        public init(offset: Double, value: Value, easing: String? = nil, shown: Value? = nil, relative: Double = 0) {
            self.offset = offset
            self.value = value
            self.easing = easing
            self.shown = shown
            self.relative = relative
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
        /// The least and greatest number it takes (``ExportModel/extents(of:initial:)``), for laying out a stage; `nil` for colours.
        public let extent: ClosedRange<Double>?
        /// The view declaration's value (`view card y 40`), `nil` when the
        /// view declares none: what the module's `cancel()` returns the
        /// element to, and (else the property's neutral value,
        /// docs/semantics.md §7.1) where the export's relative tweens start.
        public var declared: Value? = nil
        /// Where the export's relative tweens start when nothing comes before them.
        public var relativeStart: Value? { declared ?? neutralValue(of: property, kind: kind) }
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

    /// The export with every channel replaced by `transform(channel)`, the rest as it is.
    func mappingChannels(_ transform: (Channel) -> Channel) -> WebExport {
        let views = self.views.map { view in
            View(name: view.name, channels: view.channels.map(transform), placement: view.placement)
        }
        var export = WebExport(binding: binding, source: source, duration: duration, isCancelled: isCancelled, views: views,
                               events: events, endless: endless)
        export.names = names
        return export
    }

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

    /// How far (seconds) a keyframe's offset may move when it is written with
    /// fewer digits (``WebExportBuilder/written(_:seconds:)``): a ten-thousandth
    /// of a millisecond, below what a browser's clock resolves.
    public static let offsetSeconds = 1e-7

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
    let model: ExportModel, extents: [Property: ClosedRange<Double>]
    switch exportSubject(outcome) {
    case nil: return (nil, [])
    case .failed(let error)?: return (nil, [error])
    case .cancelled(let binding, _, _)?:
        return (WebExport(binding: binding, source: source, duration: .zero, isCancelled: true, views: [], events: []), [])
    case .model(let compiled)?:
        model = repetitionModel(compiled, outcome: outcome)
        extents = ExportModel.extents(of: compiled.scene, initial: compiled.initial)
    }
    let range = model.range
    // Events are written one by one: more than the limit would be dropped, so refuse (a scene
    // that repeats forever writes only its prefix and one period of them).
    if !model.scene.isInfinite, model.scene.hasEvents, model.scene.allEvents() == nil {
        return (nil, [Diagnostic(.exportTooManyEvents(binding: model.binding, limit: 100_000), at: range,
                                 hint: "a page fires each event as its own DOM event: repeat the events fewer times, or "
                                    + "print them with `animc eval`")])
    }
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
        (export, approximated) = try WebExport.make(model, source: source, extents: extents)
    } catch {
        return (nil, [foreverError(error, binding: model.binding, at: range, relative: model.scene.repeatsRelativeTweens)])
    }
    let marked = relativeAtPlayTime(export, model: model, outcome: outcome, source: source).mappingChannels(\.compacted)
    let named = names.isStandard ? marked : marked.named(names)
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
func repetitionModel(_ model: ExportModel, outcome: Outcome) -> ExportModel {
    guard !model.scene.isInfinite, let scene = outcome.scene,
          let compact = try? scene.compile(materializeLimit: 1, initial: model.initial), !compact.blocks.isEmpty,
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

    /// `extents` are the measure of the scene as first compiled (``ExportModel/extents(of:initial:)``),
    /// when `model` is that scene compiled again with its repetitions symbolic.
    static func make(_ model: ExportModel, source: String, events: [Event] = [], extents: [Property: ClosedRange<Double>]? = nil)
        throws(SteadyStateProblem) -> (WebExport, [(property: Property, from: Double, to: Double)]) {
        let scene = model.scene
        let state = try scene.steadyState(initial: model.initial, modulo: scene.wholeTurns)
        var builder = WebExportBuilder(scene: state.unrolled, finiteDuration: scene.duration, state: scene.isInfinite ? state : nil,
                                       initial: model.initial,
                                       extents: extents ?? ExportModel.extents(of: scene, initial: model.initial))
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

extension CompiledScene {
    /// A turn looks like no turn: each rotation of the scene with the 360
    /// degrees its values may differ by from one period to the next, for
    /// ``steadyState(initial:modulo:)`` (docs/exports.md §7.3). Every export
    /// that loops an endless animation asks this one place.
    var wholeTurns: [Property: Double] {
        Dictionary(uniqueKeysWithValues: properties.filter { $0.name == "rotation" }.map { ($0, 360.0) })
    }
}
