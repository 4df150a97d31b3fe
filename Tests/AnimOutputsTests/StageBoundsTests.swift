import Foundation
import Testing
import AnimTestSupport
import Animations
import AnimLang
@testable import AnimOutputs

/// The player page, Lottie and the rasterizer size one animation's stage
/// alike (docs/exports.md §8: one stage extent, measured once): for every
/// example, what each writer writes — the page's `<svg id="stage">`
/// `viewBox`, Lottie's `w`, `h` and each layer's position at frame 0, the
/// rasterizer's canvas — is the stage that the one measure of extents
/// (``ExportModel/extents(of:initial:)``) gives, laid out the way that
/// writer lays it out (with labels on the page, without them and on whole
/// pixels in Lottie); and the rasterizer's canvas is the page's `viewBox`.
///
/// A writer that measured on its own grid fails here (checked by putting
/// each back in turn): the page sized by the 257 points of every tween its
/// keyframes were built from, as it was before the one measure, gives
/// easings.anim a stage 408.94 wide, not the one measure's 408.96 (an
/// overshoot sampled at other instants); Lottie measuring at its own
/// quarter frames and breakpoints makes warps.anim 211 px wide, not 210.
struct StageBoundsTests {
    /// The four numbers of the page's stage `viewBox`.
    static func pageViewBox(_ page: String) -> [Double]? {
        guard let stage = page.range(of: "<svg id=\"stage\""),
              let open = page.range(of: "viewBox=\"", range: stage.upperBound..<page.endIndex),
              let close = page.range(of: "\"", range: open.upperBound..<page.endIndex) else { return nil }
        let numbers = page[open.upperBound..<close.lowerBound].split(separator: " ").compactMap { Double($0) }
        return numbers.count == 4 ? numbers : nil
    }

    @Test(arguments: exampleFiles)
    func thePageLottieAndTheRasterizerAgreeOnTheStage(_ file: String) throws {
        let path = "examples/" + file
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let outcome = run(SourceFile(name: path, text: text), binding: nil)
        // A cancelled animation plays nothing: the page has no stage to compare (Lottie's shows the declared views).
        guard case .model(let model)? = exportSubject(outcome) else { return }
        let measured = ExportModel.extents(of: model.scene, initial: model.initial)
        let kinds = Dictionary(model.columns.map { ($0.property, $0.kind) }, uniquingKeysWith: { first, _ in first })
        func isNumber(_ view: String, _ name: String) -> Bool { kinds[Property(view: view, name: name)] == .number }

        // Lottie: its size and each view's home (its layer's position at frame 0, less `x` and `y` there).
        let lottie = exportLottie(outcome)
        if let bytes = lottie.bytes {
            let player = try #require(LottieReferencePlayer(json: bytes))
            let expected = LottieExporter.stage(model.views.map { view in
                let names = StageView.measured.filter { isNumber(view, $0) }
                var extents: [String: ClosedRange<Double>] = [:]
                for name in names { extents[name] = measured[Property(view: view, name: name)] }
                return StageView(name: view, placement: model.placements[view] ?? .standard, numbers: Set(names), extents: extents)
            })
            #expect(player.document["w"] as? Double == expected.width, "\(file): Lottie's w")
            #expect(player.document["h"] as? Double == expected.height, "\(file): Lottie's h")
            for (view, home) in zip(model.views, expected.homes) {
                let shown = try #require(player.shown(view, at: 0), "\(file): no layer for \(view)")
                func start(_ name: String) -> Double {
                    let property = Property(view: view, name: name)
                    guard isNumber(view, name), case .number(let value) = model.scene.columnValue(of: property, at: Instant(.zero),
                                                                                                     initial: model.initial[property]) else { return 0 }
                    return value
                }
                // The anchor (the origin's offset from the centre) moves the position by as much.
                let x = shown.x - shown.anchor[0] - start("x"), y = shown.y - shown.anchor[1] - start("y")
                #expect(abs(x - home.x) < 1e-6 && abs(y - home.y) < 1e-6, "\(file): \(view)'s home in Lottie is (\(x), \(y)), not \(home)")
            }
        }

        // The page: its stage is the one measure's, with labels.
        guard let export = webExport(outcome, source: path).0 else { return }
        let expected = RenderModel(model.views.map { view in
            var viewKinds: [String: Value.Kind] = [:], extents: [String: ClosedRange<Double>] = [:]
            for (property, kind) in kinds where property.view == view {
                viewKinds[property.name] = kind
                if kind == .number, let extent = measured[property] { extents[property.name] = extent }
            }
            return RenderModel.Input(name: view, placement: model.placements[view] ?? .standard, kinds: viewKinds, extents: extents)
        }, window: .zero, isEndless: false).viewBox
        let page = try #require(Self.pageViewBox(playerPage(export)), "\(file): no stage viewBox")
        #expect(page == [expected.x, expected.y, expected.width, expected.height], "\(file): the page's stage")

        // The rasterizer: its canvas is the page's stage.
        guard case .frames(let sampler, _, _)? = renderSubject(outcome) else {
            Issue.record("\(file): the page exports but the rasterizer draws nothing")
            return
        }
        let canvas = sampler.model.viewBox
        #expect([canvas.x, canvas.y, canvas.width, canvas.height] == page, "\(file): the rasterizer's canvas")
    }
}
