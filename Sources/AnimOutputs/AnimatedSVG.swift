import AnimLang
import Animations

/// `animc render … -o OUT.svg` and `export --to svg`: one SVG file that
/// plays the animation by itself, as an `<img>` shows it (a README on
/// GitHub, a chat): the player page's stage in its clean view (no grid,
/// homes or labels: docs/exports.md §8) with the CSS export (``stylesheet(_:)``)
/// and the page's drawing rules inside a `<style>`. No script: CSS
/// animations run in an SVG shown as an image, scripts do not.
///
/// The shapes are the page's (``StageLayout``): a group per view whose
/// registered custom properties the keyframes animate, the same rules
/// turning them into a transform, a size, a fill and an opacity. The
/// stage is white, as the page's; `background: nil` leaves it transparent.
public func animatedSVG(_ export: WebExport, background: String? = "#fff") -> String {
    // The drawing rules find shapes by `data-view`, whatever selector the export was given.
    let export = export.names.selectorTemplate == WebNames.defaultSelector
        ? export : export.named(WebNames(prefix: export.names.prefix) ?? .standard)
    let stage = StageLayout(export)
    let width = stage.bounds.maxX - stage.bounds.minX, height = stage.bounds.maxY - stage.bounds.minY
    var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(svgNumber(width))\" height=\"\(svgNumber(height))\" "
    out += "viewBox=\"\(svgNumber(stage.bounds.minX)) \(svgNumber(stage.bounds.minY)) \(svgNumber(width)) \(svgNumber(height))\" "
    out += "role=\"img\" aria-label=\"\(markupEscaped(export.binding))\">\n"
    // CDATA keeps the stylesheet as it is written (`>` in selectors, `&` nowhere escaped).
    let style = stylesheet(export) + "\n/* Drawn as the player page's stage draws them. */\n" + stage.css
    out += "<style><![CDATA[\n" + style.replacingAll("]]>", with: "]]]]><![CDATA[>") + "]]></style>\n"
    if let background {
        out += "<rect x=\"\(svgNumber(stage.bounds.minX))\" y=\"\(svgNumber(stage.bounds.minY))\" width=\"\(svgNumber(width))\" "
        out += "height=\"\(svgNumber(height))\" fill=\"\(markupEscaped(background))\"/>\n"
    }
    for view in stage.model.views {
        out += "<g class=\"view\" data-view=\"\(markupEscaped(view.name))\"><g class=\"body\">"
        switch view.shape {
        case .circle: out += "<circle class=\"shape\" cx=\"0\" cy=\"0\"/>"
        case .rectangle: out += "<rect class=\"shape\"/>"
        }
        out += "</g></g>\n"
    }
    return out + "</svg>\n"
}

/// A coordinate to a hundredth of a pixel, as the page writes its stage.
private func svgNumber(_ value: Double) -> String {
    formatNumber(RenderModel.onPage(value))
}


extension ExportTarget {
    /// `--to svg`: ``animatedSVG(_:background:)``, one SVG that plays itself as an image.
    public static let svg = ExportTarget(
        name: "svg", summary: "an SVG that plays itself where an image is shown (a README), the page's stage animated by CSS",
        refuses: [
            (.fps, "the SVG plays in the viewer's own time, as the page does"),
            (.selector, "the SVG draws its own stage; --selector chooses the elements of --to css, waapi and js"),
            moduleRuntime,
        ]
    ) { request in
        let (export, diagnostics) = webExport(request.outcome, source: request.source, names: request.names)
        return (export.map { Array(animatedSVG($0).utf8) }, diagnostics)
    }
}
