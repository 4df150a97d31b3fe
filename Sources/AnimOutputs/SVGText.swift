import AnimLang
import Animations

/// An SVG document being written: elements as text, numbers to 2 decimals.
struct SVGText {
    var document = ""

    mutating func raw(_ string: String) {
        document += string
    }

    mutating func open(width: Double, height: Double, title: String) {
        let w = coordinate(width), h = coordinate(height)
        raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        raw("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\">\n")
        raw("<title>\(markupEscaped(title))</title>\n")
        raw("<rect x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" fill=\"#ffffff\"/>\n")
    }

    mutating func close() {
        raw("</svg>\n")
    }

    /// A pattern of light squares, behind colour strips (so transparency shows).
    mutating func checkerboard() {
        raw("<defs><pattern id=\"checker\" x=\"0\" y=\"0\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\">"
            + "<rect x=\"0\" y=\"0\" width=\"10\" height=\"10\" fill=\"#ffffff\"/>"
            + "<rect x=\"0\" y=\"0\" width=\"5\" height=\"5\" fill=\"#d9d9d9\"/>"
            + "<rect x=\"5\" y=\"5\" width=\"5\" height=\"5\" fill=\"#d9d9d9\"/></pattern></defs>\n")
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        raw("<line x1=\"\(coordinate(x1))\" y1=\"\(coordinate(y1))\" x2=\"\(coordinate(x2))\" y2=\"\(coordinate(y2))\"/>\n")
    }

    mutating func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, fill: String, stroke: String?, id: String? = nil) {
        let identifier = id.map { " id=\"\($0)\"" } ?? ""
        let outline = stroke.map { " stroke=\"\($0)\" stroke-width=\"1\"" } ?? ""
        raw("<rect\(identifier) x=\"\(coordinate(x))\" y=\"\(coordinate(y))\" width=\"\(coordinate(width))\" height=\"\(coordinate(height))\" fill=\"\(fill)\"\(outline)/>\n")
    }

    /// A text element; attributes left out inherit from the enclosing group.
    mutating func text(_ content: String, x: Double, y: Double, size: Double? = nil, family: String? = nil, weight: String? = nil,
                       fill: String? = nil, anchor: String? = nil) {
        var attributes = "x=\"\(coordinate(x))\" y=\"\(coordinate(y))\""
        if let family { attributes += " font-family=\"\(family)\"" }
        if let size { attributes += " font-size=\"\(coordinate(size))\"" }
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        if let fill { attributes += " fill=\"\(fill)\"" }
        if let anchor { attributes += " text-anchor=\"\(anchor)\"" }
        raw("<text \(attributes)>\(markupEscaped(content))</text>\n")
    }

}

/// A coordinate to 2 decimals, trailing zeros dropped (`12.5`, `40`).
func coordinate(_ value: Double) -> String {
    var out: [UInt8] = []
    writeCoordinate(value, into: &out)
    return String(decoding: out, as: UTF8.self)
}

func writeCoordinate(_ value: Double, into out: inout [UInt8]) {
    var text: [UInt8] = []
    writeFixed(value.isFinite ? value : 0, decimals: 2, into: &text)
    Plot.trimZeros(&text)
    out.append(contentsOf: text)
}
