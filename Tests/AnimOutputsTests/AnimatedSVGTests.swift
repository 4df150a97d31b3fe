import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import AnimTestSupport
import Animations
import AnimLang
@testable import AnimOutputs

/// The animated SVG: well-formed XML with no script, the CSS export inside
/// its `<style>` unchanged, the page's stage (size, one shape per view)
/// without grid, homes or labels; a golden of the talk.
struct AnimatedSVGTests {
    static func export(_ path: String) throws -> WebExport {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let (export, diagnostics) = webExport(run(SourceFile(name: path, text: text), binding: nil), source: path)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
        return try #require(export)
    }

    /// Element names and the text of `<style>`, as an XML parser reads them.
    final class Reader: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var views: [String] = []
        var style = ""
        var inStyle = false
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            elements.append(name)
            if name == "style" { inStyle = true }
            if let view = attributes["data-view"] { views.append(view) }
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "style" { inStyle = false }
        }
        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            if inStyle { style += String(decoding: block, as: UTF8.self) }
        }
    }

    @Test(arguments: ["talk", "spinner", "forever", "choreography", "all-views", "cancelled", "card-flip"])
    func everyExampleIsAnSVGThatCarriesTheCSSExport(_ name: String) throws {
        let export = try Self.export("examples/\(name).anim")
        let svg = animatedSVG(export)
        let parser = XMLParser(data: Data(svg.utf8))
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
        #expect(reader.elements.first == "svg")
        #expect(!reader.elements.contains("script") && !reader.elements.contains("text") && !reader.elements.contains("pattern"))
        #expect(reader.views == export.views.map(\.name))
        #expect(reader.style == "\n" + stylesheet(export) + "\n/* Drawn as the player page's stage draws them. */\n" + StageLayout(export).css)
        // The page's stage size, to a hundredth of a pixel.
        let bounds = StageLayout(export).bounds
        func rounded(_ value: Double) -> String { formatNumber((value * 100).rounded() / 100) }
        #expect(svg.contains("width=\"\(rounded(bounds.maxX - bounds.minX))\" height=\"\(rounded(bounds.maxY - bounds.minY))\""))
    }

    @Test func theTalkMatchesItsGolden() throws {
        expectMatchesGolden(animatedSVG(try Self.export("examples/talk.anim")), "svg/talk.svg")
    }

    @Test func aTransparentStageHasNoBackdrop() throws {
        let export = try Self.export("examples/talk.anim")
        #expect(animatedSVG(export).contains("fill=\"#fff\"/>"))
        #expect(!animatedSVG(export, background: nil).contains("<rect x="))
    }
}

/// `--to svg` is a registered export target: the table lists it, and it
/// writes ``animatedSVG(_:background:)`` of the web export.
struct AnimatedSVGTargetTests {
    @Test func theSVGTargetIsRegisteredAndWritesTheAnimatedSVG() throws {
        #expect(ExportTarget.named("svg") === ExportTarget.svg)
        let path = "examples/talk.anim"
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let outcome = run(SourceFile(name: path, text: text), binding: nil)
        let (bytes, diagnostics) = ExportTarget.svg.write(ExportRequest(outcome: outcome, source: path))
        #expect(diagnostics.isEmpty)
        #expect(bytes == Array(animatedSVG(try AnimatedSVGTests.export(path)).utf8))
        #expect(ExportTarget.svg.refusal(of: .fps) != nil && ExportTarget.svg.refusal(of: .prefix) == nil)
    }
}
