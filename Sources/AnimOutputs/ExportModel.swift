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
    /// Where each view stands (exports.md §6).
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
