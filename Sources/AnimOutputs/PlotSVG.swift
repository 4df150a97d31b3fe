import AnimLang
import Animations

/// Where everything of a ``Plot`` goes on the page, in SVG pixels: what
/// ``Plot/svg()`` draws, and what tests read a drawing back with.
///
/// ```swift
/// let layout = plot.layout()
/// layout.x(0.5)                 // the time axis at 0.5 s
/// layout.y(1, panel: 0)         // the first panel's curve at the value 1
/// ```
public struct PlotLayout: Sendable {
    public let width: Double
    public let height: Double
    /// The time axis runs from `left` (time 0) to `left + plotWidth` (the end).
    public let left: Double
    public let plotWidth: Double
    /// Each panel's box: its top edge and height.
    public let panelTops: [Double]
    public let panelHeights: [Double]
    /// Each panel's scale (the plot's ``Plot/Panel/range``).
    let ranges: [ClosedRange<Double>?]
    let end: Double
    /// The top of the event labels, and how many rows of them.
    let eventTop: Double
    let eventRows: Int
    /// The time axis line.
    let axis: Double

    /// Space kept between a panel's edge and its curve's extremes.
    static let inset = 7.0

    /// Where `seconds` falls on the time axis (a plot of one instant puts it in the middle).
    public func x(_ seconds: Double) -> Double {
        guard end > 0 else { return left + plotWidth / 2 }
        return left + seconds / end * plotWidth
    }

    /// Where `value` falls in panel `panel`: its least value on the inner
    /// bottom, its greatest on the inner top (a constant in the middle).
    public func y(_ value: Double, panel: Int) -> Double {
        guard panelTops.indices.contains(panel) else { return 0 }
        let top = panelTops[panel] + Self.inset, bottom = panelTops[panel] + panelHeights[panel] - Self.inset
        guard let range = ranges[panel], range.upperBound > range.lowerBound else { return (top + bottom) / 2 }
        let fraction: Double
        let span = range.upperBound - range.lowerBound
        if span.isFinite {
            fraction = (value - range.lowerBound) / span
        } else {   // ends more than 1.8e308 apart
            fraction = (value / 2 - range.lowerBound / 2) / (range.upperBound / 2 - range.lowerBound / 2)
        }
        return bottom - fraction * (bottom - top)
    }
}

extension Plot {
    // Sizes, in pixels.
    static let numberPanelHeight = 86.0
    static let colorPanelHeight = 28.0
    /// From one panel's bottom to the next one's top (the next title sits in it).
    static let panelGap = 34.0
    static let eventRowHeight = 14.0
    static let maximumEventRows = 6
    /// More markers than this are drawn above the panels and on the axis, not across the panels.
    static let denseMarkers = 80
    /// Advance widths, for keeping labels apart: DejaVu Sans Mono is 0.602 em;
    /// the sans-serif estimate is generous (bold capitals are wider than average).
    static let monoWidth = 11 * 0.61
    static let titleWidth = 15 * 0.68

    static let sans = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
    static let mono = "DejaVu Sans Mono, Liberation Mono, Menlo, Consolas, monospace"
    static let curveColor = "#1f5fbf"
    static let eventColor = "#c2410c"

    /// Where everything goes.
    public func layout() -> PlotLayout {
        let labels = panels.map(Self.valueLabels)
        let widest = labels.flatMap { $0.map(\.text) }.map(Self.monoTextWidth).max() ?? 0
        let left = max(72, (widest + 20).rounded(.up))
        let ticks = timeTicks()
        let lastTick = ticks.last.map { Self.monoTextWidth($0.label) } ?? 0
        let right = max(28, (lastTick / 2 + 12).rounded(.up))
        let plotWidth = Double(Plot.plotWidth)
        let width = max(left + plotWidth + right, (Self.titleWidth * Double(title.unicodeScalars.count) + 40).rounded(.up))
        let rows = eventLabelRows(left: left, plotWidth: plotWidth).rows
        let eventTop = rows > 0 ? 76.0 : 58.0
        var top = eventTop + Double(max(rows, 1) - 1) * Self.eventRowHeight + 36
        var tops: [Double] = []
        var heights: [Double] = []
        for panel in panels {
            let height: Double
            switch panel.kind.plotRole {
            case .curve: height = Self.numberPanelHeight
            case .strip, .label: height = Self.colorPanelHeight
            }
            tops.append(top)
            heights.append(height)
            top += height + Self.panelGap
        }
        let axis = (tops.last.map { $0 + (heights.last ?? 0) } ?? top) + 10
        return PlotLayout(width: width, height: axis + 48, left: left, plotWidth: plotWidth, panelTops: tops, panelHeights: heights,
                          ranges: panels.map(\.range), end: end.seconds, eventTop: eventTop, eventRows: rows, axis: axis)
    }

    /// The picture: a standalone SVG 1.1 document (no scripts, no external
    /// references), which browsers and `rsvg-convert` draw alike.
    public func svg() -> String {
        var out = SVGText()
        if isCancelled {
            let message = "`\(binding)` is cancelled: it has no frames"
            let width = max(360, (Self.titleWidth * Double(max(title.unicodeScalars.count, message.unicodeScalars.count)) + 40).rounded(.up))
            out.open(width: width, height: 76, title: message)
            out.text(title, x: 16, y: 28, size: 15, family: Self.sans, weight: "bold")
            out.text(message, x: 16, y: 54, size: 13, family: Self.sans, fill: "#444444")
            out.close()
            return out.document
        }
        let layout = layout()
        let omitted = eventLabelRows(left: layout.left, plotWidth: layout.plotWidth).placement.filter { $0 == nil }.count
        let subtitle = subtitle(omittedLabels: omitted)
        out.open(width: layout.width, height: layout.height, title: "\(title): \(subtitle)")
        if panels.contains(where: { $0.kind == .color }) { out.checkerboard() }
        out.text(title, x: 16, y: 26, size: 15, family: Self.sans, weight: "bold")
        out.text(subtitle, x: 16, y: 45, size: 12, family: Self.sans, fill: "#555555")
        drawGrid(layout, into: &out)
        for index in panels.indices { drawPanel(index, layout, into: &out) }
        drawEvents(layout, into: &out)
        drawAxis(layout, into: &out)
        out.close()
        return out.document
    }

    // MARK: Time axis

    /// Ticks every 1, 2 or 5 × 10^k seconds: the smallest step whose labels
    /// stand at least 24 pixels apart, and ticks at least 64.
    func timeTicks() -> [(seconds: Double, label: String)] {
        let span = end.seconds
        guard span > 0, span.isFinite else { return [(0, "0")] }
        let plotWidth = Double(Plot.plotWidth)
        let top = Self.decimalExponent(span)
        for exponent in (top - 3)...(top + 1) {
            for multiple in [1.0, 2, 5] {
                let step = multiple * Self.power10(exponent)
                let count = (span / step * (1 + 1e-12)).rounded(.down)
                guard count <= 40 else { continue }
                let decimals = max(0, -exponent)
                var ticks: [(Double, String)] = []
                for index in 0...Int(count) {
                    let seconds = Double(index) * step
                    var out: [UInt8] = []
                    writeFixed(seconds, decimals: decimals, into: &out)
                    ticks.append((min(seconds, span), String(decoding: out, as: UTF8.self)))
                }
                let widest = ticks.map { Self.monoTextWidth($0.1) }.max() ?? 0
                if step / span * plotWidth >= max(widest + 24, 64) { return ticks }
            }
        }
        return [(0, "0")]
    }

    static func power10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }

    private func drawGrid(_ layout: PlotLayout, into out: inout SVGText) {
        out.raw("<g stroke=\"#e6e8eb\" stroke-width=\"1\">\n")
        for tick in timeTicks() {
            let x = layout.x(tick.seconds)
            for (top, height) in zip(layout.panelTops, layout.panelHeights) {
                out.line(x, top, x, top + height)
            }
        }
        out.raw("</g>\n")
    }

    private func drawAxis(_ layout: PlotLayout, into out: inout SVGText) {
        let y = layout.axis
        out.raw("<g stroke=\"#333333\" stroke-width=\"1\">\n")
        out.line(layout.left, y, layout.left + layout.plotWidth, y)
        let ticks = timeTicks()
        for tick in ticks { out.line(layout.x(tick.seconds), y, layout.x(tick.seconds), y + 5) }
        out.raw("</g>\n")
        out.raw("<g font-family=\"\(Self.mono)\" font-size=\"11\" fill=\"#333333\" text-anchor=\"middle\">\n")
        for tick in ticks { out.text(tick.label, x: layout.x(tick.seconds), y: y + 18) }
        out.raw("</g>\n")
        out.text("time (s)", x: layout.left + layout.plotWidth, y: y + 36, size: 12, family: Self.sans, fill: "#333333", anchor: "end")
    }

    // MARK: Panels

    private func drawPanel(_ index: Int, _ layout: PlotLayout, into out: inout SVGText) {
        let panel = panels[index]
        let top = layout.panelTops[index], height = layout.panelHeights[index]
        let left = layout.left, width = layout.plotWidth
        out.text(panel.label + (panel.kind == .color ? " (colour)" : ""), x: left, y: top - 7, size: 12,
                 family: Self.sans, weight: "bold", fill: "#222222")
        // Value labels: greatest, least, then 0 only where it stays clear of both.
        var labels: [(text: String, y: Double)] = []
        var zeroLine: Double?
        for label in Self.valueLabels(panel) {
            let y = label.value.map { layout.y($0, panel: index) } ?? (top + height / 2)
            guard labels.allSatisfy({ abs($0.y - y) >= 13 }) else { continue }
            labels.append((label.text, y))
            if label.value == 0, labels.count > 2 { zeroLine = y }
        }
        switch panel.kind.plotRole {
        case .curve:
            if let y = zeroLine {
                out.raw("<line x1=\"\(coordinate(left))\" y1=\"\(coordinate(y))\" x2=\"\(coordinate(left + width))\" y2=\"\(coordinate(y))\" stroke=\"#c9ced6\" stroke-width=\"1\"/>\n")
            }
            drawBoundaries(panel, top: top, height: height, layout, into: &out)
            drawNumbers(panel, index, layout, into: &out)
        case .strip:
            drawColors(panel, index, layout, into: &out)
            drawBoundaries(panel, top: top, height: height, layout, into: &out)
        case .label:
            drawBoundaries(panel, top: top, height: height, layout, into: &out)
        }
        out.rect(left, top, width, height, fill: "none", stroke: "#b8bec7")
        out.raw("<g font-family=\"\(Self.mono)\" font-size=\"11\" fill=\"#333333\" text-anchor=\"end\">\n")
        for label in labels { out.text(label.text, x: left - 8, y: label.y + 4) }
        out.raw("</g>\n")
    }

    private func drawNumbers(_ panel: Panel, _ index: Int, _ layout: PlotLayout, into out: inout SVGText) {
        guard panel.range != nil else {
            out.text("not a finite number", x: layout.left + layout.plotWidth / 2, y: layout.panelTops[index] + layout.panelHeights[index] / 2 + 4,
                     size: 12, family: Self.sans, fill: "#888888", anchor: "middle")
            return
        }
        if !end.isPositive {
            for sample in panel.samples {
                guard case .number(let v) = sample.value, v.isFinite else { continue }
                out.raw("<circle cx=\"\(coordinate(layout.x(0)))\" cy=\"\(coordinate(layout.y(v, panel: index)))\" r=\"3.5\" fill=\"\(Self.curveColor)\"/>\n")
            }
            return
        }
        // Vertices to 2 decimals; the middle of three on one horizontal or
        // vertical line says nothing (holds are long runs of them).
        var strokes: [[(x: Double, y: Double)]] = [[]]
        for sample in panel.samples {
            guard case .number(let v) = sample.value, v.isFinite else {
                if !(strokes.last?.isEmpty ?? true) { strokes.append([]) }
                continue
            }
            let point = (x: (layout.x(sample.time.seconds) * 100).rounded() / 100, y: (layout.y(v, panel: index) * 100).rounded() / 100)
            var stroke = strokes.removeLast()
            if let last = stroke.last, last == point {
                strokes.append(stroke)
                continue
            }
            if stroke.count >= 2 {
                let a = stroke[stroke.count - 2], b = stroke[stroke.count - 1]
                if (a.y == b.y && b.y == point.y) || (a.x == b.x && b.x == point.x) { stroke.removeLast() }
            }
            stroke.append(point)
            strokes.append(stroke)
        }
        var path: [UInt8] = []
        for stroke in strokes {
            for (position, point) in stroke.enumerated() {
                path.append(position == 0 ? UInt8(ascii: "M") : UInt8(ascii: "L"))
                writeCoordinate(point.x, into: &path)
                path.append(UInt8(ascii: " "))
                writeCoordinate(point.y, into: &path)
            }
        }
        out.raw("<path id=\"curve-\(index)\" fill=\"none\" stroke=\"\(Self.curveColor)\" stroke-width=\"1.6\" stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"")
        out.raw(String(decoding: path, as: UTF8.self))
        out.raw("\"/>\n")
    }

    private func drawColors(_ panel: Panel, _ index: Int, _ layout: PlotLayout, into out: inout SVGText) {
        let top = layout.panelTops[index], height = layout.panelHeights[index]
        out.rect(layout.left, top, layout.plotWidth, height, fill: "url(#checker)", stroke: nil)
        if !end.isPositive {
            guard case .color(let color)? = panel.samples.first?.value else { return }
            let (hex, opacity) = Self.paint(color)
            out.raw("<rect x=\"\(coordinate(layout.x(0) - 20))\" y=\"\(coordinate(top))\" width=\"40\" height=\"\(coordinate(height))\" fill=\"\(hex)\"\(opacity.map { " fill-opacity=\"\($0)\"" } ?? "")/>\n")
            return
        }
        out.raw("<linearGradient id=\"strip-\(index)\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"0\">\n")
        let span = end.seconds
        var lastOffset = 0.0
        for sample in panel.samples {
            guard case .color(let color) = sample.value else { continue }
            // Offsets never decrease (two stops at one offset make a sharp edge).
            let offset = max(lastOffset, min(1, max(0, sample.time.seconds / span)))
            lastOffset = offset
            var text: [UInt8] = []
            writeFixed(offset, decimals: 6, into: &text)
            Self.trimZeros(&text)
            let (hex, opacity) = Self.paint(color)
            out.raw("<stop offset=\"\(String(decoding: text, as: UTF8.self))\" stop-color=\"\(hex)\"\(opacity.map { " stop-opacity=\"\($0)\"" } ?? "")/>\n")
        }
        out.raw("</linearGradient>\n")
        out.rect(layout.left, top, layout.plotWidth, height, fill: "url(#strip-\(index))", stroke: nil, id: "strip-rect-\(index)")
    }

    /// `#rrggbb` and the opacity (`nil` when opaque) of a colour as `animc eval` prints it (clamped).
    static func paint(_ color: Color) -> (String, String?) {
        let clamped = color.clamped
        var hex: [UInt8] = []
        Color(red: clamped.red, green: clamped.green, blue: clamped.blue).writeHex(into: &hex)
        guard clamped.alpha < 1 else { return (String(decoding: hex, as: UTF8.self), nil) }
        var alpha: [UInt8] = []
        writeFixed(clamped.alpha, decimals: 4, into: &alpha)
        trimZeros(&alpha)
        return (String(decoding: hex, as: UTF8.self), String(decoding: alpha, as: UTF8.self))
    }

    private func drawBoundaries(_ panel: Panel, top: Double, height: Double, _ layout: PlotLayout, into out: inout SVGText) {
        guard !panel.boundaries.isEmpty else { return }
        out.raw("<g stroke=\"#6b7280\" stroke-width=\"1\" stroke-dasharray=\"3 3\" opacity=\"0.7\">\n")
        var drawn = Set<Int>()
        for boundary in panel.boundaries {
            let x = layout.x(boundary.seconds)
            // One line per half pixel is all the eye can see.
            guard x.isFinite, drawn.insert(Int((x * 2).rounded())).inserted else { continue }
            out.line(x, top, x, top + height)
        }
        out.raw("</g>\n")
    }

    // MARK: Events

    /// Each marker's label row (`nil`: no room for its label; the marker
    /// line is drawn anyway), and how many rows: labels are placed left to
    /// right, each in the first row where it overlaps no other label and
    /// crosses no other marker's line (lines run down from their labels).
    func eventLabelRows(left: Double, plotWidth: Double) -> (placement: [(row: Int, x: Double, anchorEnd: Bool)?], rows: Int) {
        var placed: [(row: Int, low: Double, high: Double, line: Double)] = []
        var placement: [(row: Int, x: Double, anchorEnd: Bool)?] = []
        let span = end.seconds
        for marker in markers {
            let x = span > 0 ? left + marker.time.seconds / span * plotWidth : left + plotWidth / 2
            let width = Self.monoTextWidth(marker.label)
            let anchorEnd = x + 3 + width > left + plotWidth + 20
            let low = anchorEnd ? x - 3 - width : x + 3, high = anchorEnd ? x - 3 : x + 3 + width
            var chosen: Int?
            for row in 0..<Self.maximumEventRows {
                let clear = placed.allSatisfy { other in
                    if other.row == row, other.low < high + 8, low < other.high + 8 { return false }
                    if other.row < row, low - 2 <= other.line, other.line <= high + 2 { return false }
                    if other.row > row, other.low - 2 <= x, x <= other.high + 2 { return false }
                    return true
                }
                if clear {
                    chosen = row
                    break
                }
            }
            if let chosen {
                placed.append((chosen, low, high, x))
                placement.append((chosen, anchorEnd ? x - 3 : x + 3, anchorEnd))
            } else {
                placement.append(nil)
            }
        }
        return (placement, (placed.map(\.row).max() ?? -1) + 1)
    }

    private func drawEvents(_ layout: PlotLayout, into out: inout SVGText) {
        guard !markers.isEmpty else { return }
        let (placement, _) = eventLabelRows(left: layout.left, plotWidth: layout.plotWidth)
        let bottom = layout.axis
        // Each line runs from its label to the axis, leaving out the panels' title lines.
        var gaps: [(Double, Double)] = zip(layout.panelTops, layout.panelHeights).map { top, _ in (top - 20, top) }
        gaps.sort { $0.0 < $1.0 }
        // Too many to see the panels through: above the panels and on the axis only.
        let dense = markers.count > Self.denseMarkers
        out.raw("<g stroke=\"\(Self.eventColor)\" stroke-width=\"1.2\" opacity=\"0.85\">\n")
        for (marker, place) in zip(markers, placement) {
            let x = layout.x(marker.time.seconds)
            var from = layout.eventTop + Double(place?.row ?? layout.eventRows) * Self.eventRowHeight - 10
            if dense {
                out.line(x, from, x, (gaps.first?.0 ?? bottom))
                out.line(x, bottom - 6, x, bottom)
                continue
            }
            for (gapTop, gapBottom) in gaps where gapBottom > from {
                if gapTop > from { out.line(x, from, x, gapTop) }
                from = gapBottom
            }
            out.line(x, from, x, bottom)
        }
        out.raw("</g>\n")
        out.raw("<g font-family=\"\(Self.mono)\" font-size=\"11\" fill=\"\(Self.eventColor)\">\n")
        for (marker, place) in zip(markers, placement) {
            guard let place else { continue }
            out.text(marker.label, x: place.x, y: layout.eventTop + Double(place.row) * Self.eventRowHeight,
                     anchor: place.anchorEnd ? "end" : nil)
        }
        out.raw("</g>\n")
    }
}
