import AnimLang
import Animations

/// What every output (the web export, Lottie, the plot, the terminal player)
/// is written from, built once from a compiled animation: its columns with
/// the kind of values each holds (from the compiled tracks, never by
/// sampling), its views in the order they are drawn with their placements,
/// and where diagnostics point. The writers read it and write their format.
///
/// ```swift
/// switch exportSubject(outcome) {
/// case .model(let model)?: model.columns.map(\.kind)   // [.number, .color]
/// case .cancelled(let binding, _, let views)?: …
/// case .failed(let error)?: …                          // located at the binding
/// case nil: …                                          // the file has errors
/// }
/// ```
package struct ExportModel: Sendable {
    /// A property and the kind of values it holds.
    package struct Column: Sendable, Equatable {
        package let property: Property
        package let kind: Value.Kind
    }

    package let binding: String
    /// Where its diagnostics point: the binding's name, else the whole binding.
    package let range: SourceRange
    package let scene: CompiledScene
    /// Declared initial values (each adds its property as a column).
    package let initial: [Property: Value]
    /// Every property the scene animates or the file declares, sorted by
    /// `view.property` (the order `animc eval` prints its columns in).
    package let columns: [Column]
    /// The views drawn: those of `viewOrder` that are declared or have a
    /// column, in that order, then the other views with columns, sorted.
    package let views: [String]
    /// Where each view stands (docs/exports.md §6).
    package let placements: [String: Placement]

    package init(_ scene: CompiledScene, binding: String, range: SourceRange = .none, initial: [Property: Value] = [:],
                 viewOrder: [String] = [], declaredViews: [String] = [], placements: [String: Placement] = [:]) {
        self.binding = binding
        self.range = range
        self.scene = scene
        self.initial = initial
        self.placements = placements
        columns = ExportModel.columns(scene, initial: initial)
        let withColumns = Set(columns.map(\.property.view))
        let declared = Set(declaredViews)
        var views = viewOrder.filter { withColumns.contains($0) || declared.contains($0) }
        let listed = Set(views)
        views += withColumns.subtracting(listed).sorted()
        self.views = views
    }

    /// The columns of `scene` with `initial`'s declared properties: the kind
    /// is the compiled track's, or the declared value's for a property
    /// nothing animates.
    static func columns(_ scene: CompiledScene, initial: [Property: Value]) -> [Column] {
        Set(scene.properties).union(initial.keys).sorted().map { property in
            if let kind = scene.kind(of: property) { return Column(property: property, kind: kind) }
            // Not animated, so declared: `initial` holds it.
            return Column(property: property, kind: initial[property]?.kind ?? .number)
        }
    }

    /// The kind of `property`'s values; `nil` when it is not a column.
    package func kind(of property: Property) -> Value.Kind? {
        var low = 0, high = columns.count
        while low < high {
            let mid = (low + high) / 2
            if columns[mid].property < property { low = mid + 1 } else { high = mid }
        }
        return low < columns.count && columns[low].property == property ? columns[low].kind : nil
    }

    /// The stretch an output shows of an animation that goes on forever:
    /// up to `settled` (where its endless part has started, or settled into
    /// its cycles), then two of its longest `period`; `settled` when that
    /// overflows exact time.
    package static func shownWindow(settled: Time, period: Time) -> Time {
        (try? settled.adding(try period.multiplied(by: 2))) ?? settled
    }
}

/// A property's extent: the least and greatest finite number it takes.
/// Non-finite values and non-numbers do not count, and a property that
/// takes no finite number has no extent (`nil`). Every output that sizes
/// something by how far a property reaches (the player page's and the
/// rasterizer's stage, Lottie's stage, the terminal player's bars) reads
/// the one measure of them, ``ExportModel/extents(of:initial:)``; the plot
/// measures what it draws, its own samples up to its `--until`.
///
/// ```swift
/// var extent = Extent()
/// extent.include(3); extent.include(-1); extent.include(.nan)
/// extent.range   // -1...3
/// ```
package struct Extent: Sendable, Equatable {
    /// `nil` until a finite number is included.
    package private(set) var range: ClosedRange<Double>?

    package init() {}

    /// Widens it by `number` when finite.
    package mutating func include(_ number: Double) {
        guard number.isFinite else { return }
        range = range.map { Swift.min($0.lowerBound, number)...Swift.max($0.upperBound, number) } ?? number...number
    }

    /// Widens it by `value` when it is a finite number.
    package mutating func include(_ value: Value?) {
        if case .number(let number)? = value { include(number) }
    }

    /// The extent of `values`.
    package init(_ values: some Sequence<Value?>) {
        for value in values { include(value) }
    }
}

extension ExportModel {
    /// How far every property of `scene` reaches (with `initial`'s declared
    /// values; of a cancelled animation, `nil`, only those): the one place
    /// extents are measured, so that the page, Lottie, the rasterizer and the
    /// terminal player size one animation alike. Sampled on one grid over
    /// the shown window (``CompiledScene/shownWindow``): evenly (at 120 fps,
    /// or ``evenSamples`` times when that is more), at both ends and at 9
    /// points of every listed segment (when there are at most
    /// ``segmentSampleLimit``) so that short segments and overshooting
    /// curves count, and at 65 points of the first copy of every symbolic
    /// repetition, which every later copy repeats. Exact at those instants
    /// only: the grid depends on the scene's structure, so a writer that
    /// compiles the animation again (the web's symbolic repetitions) reads
    /// this measure of the scene as first compiled rather than measuring its own.
    package static func extents(of scene: CompiledScene?, initial: [Property: Value]) -> [Property: ClosedRange<Double>] {
        guard let scene else {
            return initial.compactMapValues { value in Extent([value]).range }
        }
        let sampler = scene.sampler(initial: initial)
        let span = scene.shownWindow
        var instants: [Instant] = []
        let frames = FrameTimes(duration: span, fps: 120)
        if let count = frames.count, count <= evenSamples {
            for t in frames { instants.append(Instant(t)) }
        } else {
            for step in 0...evenSamples {
                instants.append(Instant(approximately: span.seconds * Double(step) / Double(evenSamples)))
            }
            instants.append(Instant(span))
        }
        if scene.segmentCount <= segmentSampleLimit {
            for segment in scene.segments {
                for step in 0...8 {
                    let fraction = Double(step) / 8
                    let seconds = segment.start.seconds + (segment.end.seconds - segment.start.seconds) * fraction
                    instants.append(step == 0 ? segment.start : step == 8 ? segment.end : Instant(approximately: seconds))
                }
            }
        }
        for block in scene.blocks {
            for step in 0...64 {
                instants.append(Instant(approximately: block.start.seconds + block.period.seconds * Double(step) / 64))
            }
        }
        var extents = [Extent](repeating: Extent(), count: sampler.columns.count)
        var row: [Value] = []
        for t in instants {
            sampler.sample(at: t, into: &row)
            for (index, value) in row.enumerated() where index < extents.count { extents[index].include(value) }
        }
        var measured: [Property: ClosedRange<Double>] = [:]
        for (property, extent) in zip(sampler.columns, extents) {
            if let range = extent.range { measured[property] = range }
        }
        return measured
    }

    /// The most evenly spaced times extents are sampled at.
    package static let evenSamples = 4000
    /// The most listed segments sampled one by one.
    package static let segmentSampleLimit = 2000
}

extension CompiledScene {
    /// What the terminal player and the timeline show of it: its duration,
    /// and for one that repeats forever two of its longest endless period
    /// more (``ExportModel/shownWindow(settled:period:)``).
    package var shownWindow: Time {
        guard isInfinite else { return duration }
        return ExportModel.shownWindow(settled: duration, period: blocks.filter(\.isEndless).map(\.period).max() ?? .zero)
    }
}

/// How an output of an evaluated file begins.
package enum ExportSubject: Sendable {
    /// The binding compiled: what the output writes.
    case model(ExportModel)
    /// The binding is cancelled (`cancel`): nothing plays; `views` are every view the file mentions.
    case cancelled(binding: String, range: SourceRange, views: [String])
    /// The binding cannot be sampled (located at the binding).
    case failed(Diagnostic)
}

/// The opening every output of a file shares: the evaluated binding
/// compiled once (``Outcome/compiledScene()``), or why not. `nil` when the
/// file has errors (they have been reported) or no binding to play.
package func exportSubject(_ outcome: Outcome) -> ExportSubject? {
    guard !outcome.hasErrors, let target = outcome.target, outcome.scene != nil else { return nil }
    let range = target.nameRange == .none ? target.range : target.nameRange
    let compiled: CompiledScene?
    do {
        compiled = try outcome.compiledScene()
    } catch {
        return .failed(samplingError(error, binding: target))
    }
    guard let compiled else { return .cancelled(binding: target.name, range: range, views: outcome.resolved.mentionOrder) }
    return .model(ExportModel(compiled, binding: target.name, range: range, initial: outcome.initial,
                              viewOrder: outcome.resolved.mentionOrder, declaredViews: outcome.program.views.map(\.name),
                              placements: outcome.resolved.placements))
}
