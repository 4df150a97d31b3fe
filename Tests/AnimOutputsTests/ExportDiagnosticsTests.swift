import Testing
import Animations
import AnimLang
@testable import AnimOutputs

/// The export writers' entries of the diagnostic catalog (``ExportDiagnostic``),
/// which live in the outputs target: the house style of the language's
/// catalog (``DiagnosticCatalogTests``), and messages as users read them.
struct ExportDiagnosticsTests {
    static let samples: [ExportDiagnostic] = [
        .exportApproximated(property: "a.x", from: 0, to: 1e9),
        .exportDropsProperties(format: "Lottie", properties: ["v.level"]), .exportCancelled(binding: "a", format: "Lottie"),
        .exportTooLong(binding: "a", duration: Time(2), fps: 60, limit: 1), .exportTooManyKeyframes(binding: "a", limit: 1),
        .exportTooManyEvents(binding: "a", limit: 1), .exportNotFinite(property: "v.x"), .exportForever(binding: "a"),
        .exportMixedPeriods(subject: "`s.rotation`", periods: [Time(1), Time(numerator: 3, denominator: 2) ?? Time(2)]),
        .exportMixedPeriods(subject: "its events", periods: [Time(1), Time(2)]),
        .exportUnsettled(binding: "a", property: "s.x"), .exportUnsettled(binding: "a", property: nil), .exportRepetition(binding: "a", property: "a.x", copies: 1_000_000),
        .exportNameClash(first: "dial.tint-color", second: "lamp.tint", name: "--animc-tint-color"),
        .exportLoops(binding: "spin", period: Time(numerator: 3, denominator: 2) ?? Time(2)),
    ]

    @Test(arguments: samples)
    func idsAndMessagesFollowTheHouseStyle(_ kind: ExportDiagnostic) {
        let id = kind.id
        #expect(!id.isEmpty && id == id.lowercased() && !id.contains(" "), "\(id)")
        #expect(kind.message.first.map { !$0.isUppercase } ?? false, "\(kind.message)")
        #expect(!kind.message.hasSuffix("."), "\(kind.message)")
        let diagnostic = Diagnostic(kind, at: SourceRange(1, 2), hint: "h")
        #expect(diagnostic.id == id && diagnostic.message == kind.message && diagnostic.severity == kind.severity)
        #expect(diagnostic.hint == "h")
    }

    @Test func messagesReadAsBefore() {
        let half = Time(numerator: 3, denominator: 2) ?? Time(2)
        #expect(ExportDiagnostic.exportMixedPeriods(subject: "`s.rotation`", periods: [Time(1), half]).message
                == "`s.rotation` repeats every 1s and 1.5s at once: an export repeats one period")
        #expect(ExportDiagnostic.exportMixedPeriods(subject: "its events", periods: [Time(1), half]).message
                == "its events repeat every 1s and 1.5s at once: an export repeats one period")
        #expect(ExportDiagnostic.exportLoops(binding: "spin", period: half).severity == .note)
        #expect(ExportDiagnostic.exportLoops(binding: "spin", period: half).message
                == "`spin` repeats forever: the file holds one period, 1.5s, which players loop")
        #expect(ExportDiagnostic.exportDropsProperties(format: "Lottie", properties: ["a", "b", "c"]).message
                == "`a`, `b` and `c` have no place in a Lottie file and are left out")
        #expect(ExportDiagnostic.exportCancelled(binding: "a", format: "Lottie").severity == .warning)
        #expect(ExportDiagnostic.exportForever(binding: "a").severity == .error)
    }

    /// The two catalogs share the one `Diagnostic` type, so their ids must not collide by accident:
    /// an export id is one of the export writers' own, or one the language's catalog gives the same meaning.
    @Test func exportIdsAreExportWords() {
        let shared: Set<String> = ["not-finite", "too-many-keyframes", "too-many-events"]
        for kind in Self.samples {
            #expect(kind.id.hasPrefix("export-") || shared.contains(kind.id), "\(kind.id)")
        }
    }
}
