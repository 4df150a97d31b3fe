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

/// A property's extent: the least and greatest finite number it takes, as
/// every output measures it. Each measures at the instants it samples (the
/// web export and the player page's stage at 257 points of every tween and
/// every point of its other spans, so overshoots count; the terminal player
/// over the shown window at 120 fps or 4,000 times, in every segment and
/// over every repetition's first copy; the plot at its own samples up to its
/// `--until`; Lottie's layout at every quarter frame and breakpoint): what
/// they share is this one rule. Non-finite values and non-numbers do not
/// count, and a property that takes no finite number has no extent (`nil`).
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
    /// The extent of every column of `sampler` at `instants` (in its
    /// columns' order): the sampled measure, exact only at those instants
    /// (``Extent``); an output that samples states which instants.
    package static func sampledExtents(_ sampler: RowSampler, at instants: some Sequence<Instant>) -> [ClosedRange<Double>?] {
        var extents = [Extent](repeating: Extent(), count: sampler.columns.count)
        var row: [Value] = []
        for t in instants {
            sampler.sample(at: t, into: &row)
            for (index, value) in row.enumerated() where index < extents.count { extents[index].include(value) }
        }
        return extents.map(\.range)
    }
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
