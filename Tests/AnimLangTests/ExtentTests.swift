import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// A property's extent (the least and greatest finite number it takes) is
/// one rule in the export model (``Extent``), and one measure
/// (``ExportModel/extents(of:initial:)``) read by the web export, the
/// player page's stage, the rasterizer, the terminal player and Lottie's
/// layout; the plot measures the samples it draws by the same rule.
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

    /// The one measure (``ExportModel/extents(of:initial:)``) finds an
    /// overshoot inside a segment. `ease-out-back` is
    /// `1 + c3 (p − 1)³ + c1 (p − 1)²` with c1 = 1.70158, c3 = c1 + 1; its
    /// slope `3 c3 u² + 2 c1 u` (u = p − 1) is 0 at u = −2 c1 / (3 c3) =
    /// −0.419897, where it is 1 + c3·(−0.074034) + c1·0.176314 = 1.100004
    /// (the well-known 10 % overshoot). `from 0 to 100 in 1s` so reaches
    /// 110.0004 at p = 0.5801 and never more; the 120 fps grid samples
    /// p = 70/120 = 0.5833, where u = −0.416667 and the curve is
    /// 1 − 2.70158·0.072338 + 1.70158·0.173611 = 1.099986, within 0.01 of its peak.
    /// The lower end is the start, 0, exactly.
    @Test func theOneMeasureFindsAnOvershootInsideASegment() throws {
        let outcome = run(SourceFile(name: "t.anim", text: "view v\nlet a = animate v.x from 0 to 100 in 1s with ease-out-back\n"))
        guard case .model(let model)? = exportSubject(outcome) else {
            Issue.record("no model")
            return
        }
        let extent = try #require(ExportModel.extents(of: model.scene, initial: model.initial)[Property(view: "v", name: "x")])
        #expect(extent.lowerBound == 0)
        #expect(extent.upperBound > 109.99 && extent.upperBound <= 110.0005, "\(extent)")
    }

    /// A cancelled animation has no scene: its declared values are all it reaches.
    @Test func aCancelledAnimationReachesItsDeclaredValues() {
        let radius = Property(view: "v", name: "radius"), fill = Property(view: "v", name: "fill")
        let extents = ExportModel.extents(of: nil, initial: [radius: .number(12), fill: .color(Color(red: 1, green: 2, blue: 3))])
        #expect(extents == [radius: 12...12])
    }
}
