import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// A property's extent (the least and greatest finite number it takes) is
/// one rule in the export model (``Extent``), read by the web export, the
/// player page's stage, the terminal player, the plot and Lottie's layout.
struct ExtentTests {
    @Test func anExtentCountsOnlyFiniteNumbers() {
        var extent = Extent()
        #expect(extent.range == nil)
        extent.include(3)
        extent.include(-1)
        extent.include(.nan)
        extent.include(.infinity)
        extent.include(-Double.infinity)
        #expect(extent.range == -1...3)
        extent.include(Value.color(Color(red: 1, green: 2, blue: 3)))
        extent.include(nil as Value?)
        #expect(extent.range == -1...3)
        #expect(Extent([.number(2)]).range == 2...2)
        #expect(Extent([Value.number(.nan), nil]).range == nil)
    }

    /// `from 20 to -10` takes every number in [-10, 20] and no other: the
    /// web export, the terminal player and the plot (each sampling the ends
    /// among other instants) all say so.
    @Test func everyOutputMeasuresATweenFromEndToEnd() throws {
        let file = SourceFile(name: "t.anim", text: "view v\nlet a = animate v.x from 20 to -10\n")
        let outcome = run(file)
        try #require(!outcome.hasErrors, "\(outcome.diagnostics)")
        let export = try #require(webExport(outcome, source: "t.anim").0)
        #expect(export.views.flatMap(\.channels).map(\.extent) == [-10...20])
        let playback = try #require(try Playback.prepare(outcome))
        #expect(playback.ranges == [-10...20])
        let plot = try #require(makePlot(outcome, source: "t.anim", until: nil).0)
        #expect(plot.panels.map(\.range) == [-10...20])
    }

    /// The sampled measure reads every column at every instant given.
    @Test func sampledExtentsAreTheLeastAndGreatestAtTheInstants() throws {
        let outcome = run(SourceFile(name: "t.anim", text: "view v\nlet a = animate v.x from 0 to 10 in 2s\n"))
        guard case .model(let model)? = exportSubject(outcome) else {
            Issue.record("no model")
            return
        }
        let sampler = model.scene.sampler(initial: model.initial)
        // Linear over 2 s: 2.5 at ½ s, 5 at 1 s.
        #expect(ExportModel.sampledExtents(sampler, at: [Instant(Time(numerator: 1, denominator: 2) ?? .zero), Instant(Time(1))]) == [2.5...5])
        #expect(ExportModel.sampledExtents(sampler, at: []) == [nil])
    }
}
