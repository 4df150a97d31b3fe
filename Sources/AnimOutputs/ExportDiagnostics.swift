import AnimLang
import Animations

/// The export writers' entries of the diagnostic catalog (docs/exports.md §8):
/// kept beside the writers, so that a new export adds its diagnostics here
/// and nothing in the language target. A ``Diagnostic`` is made from one as
/// from the language's ``DiagnosticKind``, and is the same one type:
///
/// ```swift
/// Diagnostic(.exportLoops(binding: "spin", period: Time(2)), at: range)
/// ```
package enum ExportDiagnostic: Hashable, Sendable {
    /// A web export that follows a property less closely than its bound
    /// (1e-4 of the range) between two times, in seconds.
    case exportApproximated(property: String, from: Double, to: Double)
    /// Properties that the export format cannot carry (warning).
    case exportDropsProperties(format: String, properties: [String])
    /// A cancelled animation exported as a still (warning).
    case exportCancelled(binding: String, format: String)
    /// More frames than an export may have.
    case exportTooLong(binding: String, duration: Time, fps: Int64, limit: Int)
    case exportTooManyKeyframes(binding: String, limit: Int)
    case exportTooManyEvents(binding: String, limit: Int)
    /// A value that is not a finite number where an export needs one.
    case exportNotFinite(property: String)
    /// An animation that never ends (`forever`) in a way the export cannot
    /// loop (Lottie loops the whole file: it needs one period from the start).
    case exportForever(binding: String)
    /// A property (or the events) that endless repetitions of different
    /// periods drive at once: `subject` is "`v.p`" or "its events".
    case exportMixedPeriods(subject: String, periods: [Time])
    /// An animation that repeats forever but does not settle into one period
    /// per property (a property, or the scene's exact time when `nil`).
    case exportUnsettled(binding: String, property: String?)
    /// A repetition of more copies than an export can follow that it cannot
    /// play as an iteration count (copies that differ, or shaped by a warp
    /// or by other tweens): `copies` is its count.
    case exportRepetition(binding: String, property: String, copies: Int)
    /// Two properties a web export would give one name (a custom property or `@keyframes`).
    case exportNameClash(first: String, second: String, name: String)
    /// A Lottie file that holds one period of an animation that repeats
    /// forever, for players to loop (a note).
    case exportLoops(binding: String, period: Time)

    /// The stable identifier.
    package var id: String {
        switch self {
        case .exportApproximated: return "export-approximated"
        case .exportDropsProperties: return "export-drops-properties"
        case .exportCancelled: return "export-cancelled"
        case .exportTooLong: return "export-too-long"
        case .exportTooManyKeyframes: return "too-many-keyframes"
        case .exportTooManyEvents: return "too-many-events"
        case .exportNotFinite: return "not-finite"
        case .exportForever: return "export-forever"
        case .exportMixedPeriods: return "export-mixed-periods"
        case .exportUnsettled: return "export-unsettled"
        case .exportRepetition: return "export-repetition"
        case .exportNameClash: return "export-name-clash"
        case .exportLoops: return "export-loops"
        }
    }

    package var severity: Diagnostic.Severity {
        switch self {
        case .exportApproximated, .exportDropsProperties, .exportCancelled:
            return .warning
        case .exportLoops:
            return .note
        case .exportTooLong, .exportTooManyKeyframes, .exportTooManyEvents, .exportNotFinite, .exportForever,
             .exportMixedPeriods, .exportUnsettled, .exportRepetition, .exportNameClash:
            return .error
        }
    }

    /// The message: lowercase, no trailing period.
    package var message: String {
        switch self {
        case .exportApproximated(let property, let from, let to):
            return "the web export follows `\(property)` less closely than 1e-4 of its range between \(formatNumber(from))s and \(formatNumber(to))s"
        case .exportDropsProperties(let format, let properties):
            let names = properties.prefix(8).map { "`\($0)`" }
            let more = properties.count > 8 ? names + ["\(properties.count - 8) more"] : names
            return "\(listedNames(more)) \(properties.count == 1 ? "has" : "have") no place in a \(format) file and \(properties.count == 1 ? "is" : "are") left out"
        case .exportCancelled(let binding, let format):
            return "`\(binding)` is cancelled: the \(format) file is one still frame"
        case .exportTooLong(let binding, let duration, let fps, let limit):
            return "`\(binding)` lasts \(duration)s: at \(fps) fps that is more than \(limit) frames"
        case .exportTooManyKeyframes(let binding, let limit):
            return "`\(binding)` needs more than \(limit) keyframes"
        case .exportTooManyEvents(let binding, let limit):
            return "`\(binding)` fires more than \(limit) events, more markers than an export holds"
        case .exportNotFinite(let property):
            return "`\(property)` is not a finite number, which an export cannot carry"
        case .exportForever(let binding):
            return "`\(binding)` never ends, and does not repeat from its start: a Lottie file can only loop as a whole"
        case .exportMixedPeriods(let subject, let periods):
            let every = listedNames(periods.prefix(4).map { "\($0)s" })
            return "\(subject) \(subject.hasPrefix("`") ? "repeats" : "repeat") every \(every) at once: an export repeats one period"
        case .exportUnsettled(let binding, let property):
            return "`\(binding)` repeats forever, but \(property.map { "`\($0)`" } ?? "its timing") does not settle into one period"
        case .exportRepetition(let binding, let property, let copies):
            return "`\(binding)` repeats `\(property)` \(copies) times in a way an export cannot repeat: it would have to list every copy"
        case .exportNameClash(let first, let second, let name):
            return "`\(first)` and `\(second)` would both be named `\(name)` in the export"
        case .exportLoops(let binding, let period):
            return "`\(binding)` repeats forever: the file holds one period, \(period)s, which players loop"
        }
    }

    /// `a`, `a and b`, `a, b and c`.
    private func listedNames(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }
}

extension Diagnostic {
    /// A diagnostic of the export catalog.
    package init(_ kind: ExportDiagnostic, at range: SourceRange, hint: String? = nil, notes: [Note] = [], fixes: [FixIt] = []) {
        self.init(kind.severity, id: kind.id, kind.message, at: range, hint: hint, notes: notes, fixes: fixes)
    }
}
