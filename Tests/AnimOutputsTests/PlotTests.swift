import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// `animc plot`: the picture's samples are `animc eval`'s values, the
/// drawing puts them where the panel's scale says, jumps are vertical,
/// colour strips hold eval's colours, labels keep apart, and the SVG is
/// well-formed; goldens of a few examples.
struct PlotTests {
    /// Colours, events (several at one instant), `steps`, and a colour that fades out.
    static var signals: SourceFile {
        get throws {
            let path = "Tests/AnimOutputsTests/Golden/plot/fixtures/signals.anim"
            return SourceFile(name: "signals.anim", text: try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8))
        }
    }

    static func file(_ name: String) throws -> SourceFile {
        let path = "examples/" + name
        return SourceFile(name: path, text: try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8))
    }

    static func plot(_ file: SourceFile, until: Time? = nil) throws -> Plot {
        let outcome = run(file)
        try #require(!outcome.hasErrors, "\(render(outcome.diagnostics, in: file))")
        let (plot, diagnostics) = makePlot(outcome, source: file.name, until: until)
        try #require(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        return try #require(plot)
    }

    // MARK: The samples are eval's values

    /// eval's CSV at `times` (lossless numbers, `rgb(…)` colours), one row per time.
    static func evalRows(_ file: SourceFile, at times: [Time], until: Time? = nil) throws -> (header: [String], rows: [[String]]) {
        let result = evaluateToText(file, at: times, format: .csv)
        try #require(result.succeeded, "\(result.diagnostics)")
        let lines = result.output.split(separator: "\n").map { line in
            // Colours hold spaces, never commas: a plain split is enough.
            line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return (lines.first ?? [], Array(lines.dropFirst()))
    }

    /// The exact time of a sample, as `--at` would take it.
    static func time(of instant: Instant) -> Time? {
        // Off-grid samples are a hair (1e-9 of the span) from a breakpoint: 1e-15 s is close enough.
        instant.exact ?? Time(seconds: instant.seconds)
            ?? Time(numerator: Int64((instant.seconds * 1e15).rounded()), denominator: 1_000_000_000_000_000)
    }

    /// Whether (x, y) lies on the polyline: at a vertex, or on a horizontal
    /// or vertical stretch of it (whose middle vertices were left out).
    static func onPath(_ vertices: [(Double, Double)], _ x: Double, _ y: Double) -> Bool {
        let e = 0.006
        if vertices.contains(where: { abs($0.0 - x) <= e && abs($0.1 - y) <= e }) { return true }
        return zip(vertices, vertices.dropFirst()).contains { a, b in
            let horizontal = abs(a.1 - b.1) <= e && abs(y - a.1) <= e && min(a.0, b.0) - e <= x && x <= max(a.0, b.0) + e
            let vertical = abs(a.0 - b.0) <= e && abs(x - a.0) <= e && min(a.1, b.1) - e <= y && y <= max(a.1, b.1) + e
            return horizontal || vertical
        }
    }

    @Test(arguments: ["choreography.anim", "easings.anim", "warps.anim", "jumps.anim", "modifiers.anim"])
    func everySampleIsEvalsValue(_ name: String) throws {
        let file = try Self.file(name)
        let plot = try Self.plot(file)
        for panel in plot.panels {
            let times = panel.samples.compactMap { Self.time(of: $0.time) }
            try #require(times.count == panel.samples.count)
            let (header, rows) = try Self.evalRows(file, at: times)
            let column = try #require(header.firstIndex(of: panel.property.description))
            try #require(rows.count == panel.samples.count)
            let range = try #require(panel.range)
            let tolerance = 1e-9 * max(1, range.upperBound - range.lowerBound)
            for (sample, row) in zip(panel.samples, rows) {
                let expected = try #require(Double(row[column]))
                let actual = try #require(sample.value.number)
                #expect(abs(actual - expected) <= tolerance, "\(panel.property) at \(sample.time): \(actual) != \(expected)")
            }
            // The range is the least and greatest of them.
            let numbers = rows.compactMap { Double($0[column]) }
            #expect(range == (numbers.min() ?? 0)...(numbers.max() ?? 0))
        }
    }

    /// The columns are eval's, in eval's order.
    @Test func panelsFollowEvalsColumns() throws {
        let file = try Self.file("talk.anim")
        let plot = try Self.plot(file)
        let (header, _) = try Self.evalRows(file, at: [.zero])
        #expect(plot.panels.map(\.property.description) == Array(header.dropFirst()))
    }

    // MARK: The drawing is the samples

    /// Every vertex of a panel's path is a sample put where the scale says,
    /// and every sample lies on the path (a vertex, or in a horizontal or
    /// vertical run whose middle points were left out).
    @Test(arguments: ["choreography.anim", "easings.anim", "modifiers.anim"])
    func thePathGoesThroughEverySample(_ name: String) throws {
        let plot = try Self.plot(try Self.file(name))
        let document = try SVGDocument(plot.svg())
        let layout = plot.layout()
        for (index, panel) in plot.panels.enumerated() {
            let vertices = try #require(document.path("curve-\(index)"))
            let points = panel.samples.compactMap { sample -> (Double, Double)? in
                guard let v = sample.value.number else { return nil }
                return (layout.x(sample.time.seconds), layout.y(v, panel: index))
            }
            for vertex in vertices {
                #expect(points.contains { abs($0.0 - vertex.0) <= 0.006 && abs($0.1 - vertex.1) <= 0.006 },
                        "\(panel.property): vertex \(vertex) is no sample")
            }
            for (x, y) in points {
                #expect(Self.onPath(vertices, x, y), "\(panel.property): sample (\(x), \(y)) is off the path")
            }
            // Time only moves forward, and the curve stays in its box.
            #expect(zip(vertices, vertices.dropFirst()).allSatisfy { $0.0 <= $1.0 + 0.006 })
            let top = layout.panelTops[index], bottom = top + layout.panelHeights[index]
            #expect(vertices.allSatisfy { top < $0.1 && $0.1 < bottom && layout.left - 0.006 <= $0.0 && $0.0 <= layout.left + layout.plotWidth + 0.006 })
        }
    }

    /// The scale, checked against its definition with eval's numbers:
    /// `card.scale` runs from 0.8 (at 0) to 1.1 (the top of each pulse, at
    /// 0.95 s): 1.1 sits on the inner top edge, 0.8 on the inner bottom, and
    /// 1 at a third of the way down.
    @Test func theScaleMapsEvalsValues() throws {
        let file = try Self.file("choreography.anim")
        let (header, rows) = try Self.evalRows(file, at: [.zero, try #require(Time(decimal: "0.95")), Time(2)])
        let column = try #require(header.firstIndex(of: "card.scale"))
        #expect(rows.map { $0[column] } == ["0.8", "1.1", "1"])
        let plot = try Self.plot(file)
        let index = try #require(plot.panels.firstIndex { $0.property.description == "card.scale" })
        #expect(plot.panels[index].range == 0.8...1.1)
        let layout = plot.layout()
        let top = layout.panelTops[index] + PlotLayout.inset, bottom = layout.panelTops[index] + layout.panelHeights[index] - PlotLayout.inset
        let vertices = try #require(try SVGDocument(plot.svg()).path("curve-\(index)"))
        func x(_ seconds: Double) -> Double { layout.left + seconds / 2.1 * layout.plotWidth }
        func has(_ seconds: Double, _ y: Double) -> Bool { Self.onPath(vertices, x(seconds), y) }
        #expect(has(0, bottom))
        #expect(has(0.95, top))
        #expect(has(2, top + (bottom - top) / 3))   // (1.1 − 1) / (1.1 − 0.8) of the way down
    }

    /// `steps(4, jump-start)` is 25 before 0.25 s and 50 from it: the path
    /// goes straight up there, two vertices at one x.
    @Test func stepsJumpVertically() throws {
        let file = try Self.file("easings.anim")
        let quarter = try #require(Time(decimal: "0.25"))
        let (header, rows) = try Self.evalRows(file, at: [try #require(Time(decimal: "0.2499999")), quarter])
        let column = try #require(header.firstIndex(of: "steps.x"))
        #expect(rows.map { $0[column] } == ["25", "50"])
        let plot = try Self.plot(file)
        let index = try #require(plot.panels.firstIndex { $0.property.description == "steps.x" })
        let layout = plot.layout()
        let vertices = try #require(try SVGDocument(plot.svg()).path("curve-\(index)"))
        let x = layout.left + 0.25 * layout.plotWidth
        let jump = zip(vertices, vertices.dropFirst()).first { a, b in abs(a.0 - x) <= 0.006 && abs(b.0 - x) <= 0.006 }
        let (low, high) = try #require(jump)
        #expect(abs(low.1 - layout.y(25, panel: index)) <= 0.006)
        #expect(abs(high.1 - layout.y(50, panel: index)) <= 0.006)
        // And nowhere a slope between two levels: every vertex is on a level.
        let levels = [25.0, 50, 75, 100].map { layout.y($0, panel: index) }
        #expect(vertices.allSatisfy { v in levels.contains { abs($0 - v.1) <= 0.006 } })
        // A jump of the easing is no segment boundary: one segment, from 0 to 1 s.
        #expect(plot.panels[index].boundaries.isEmpty)
    }

    /// A zero-length tween is a jump exactly at its instant: jumps.anim
    /// flashes to 1 at 0.25 s and back to 0 at 0.75 s.
    @Test func zeroLengthTweensAreVerticalLines() throws {
        let plot = try Self.plot(try Self.file("jumps.anim"))
        let layout = plot.layout()
        let vertices = try #require(try SVGDocument(plot.svg()).path("curve-0"))
        let (zero, one) = (layout.y(0, panel: 0), layout.y(1, panel: 0))
        let expected = [(0.0, zero), (0.25, zero), (0.25, one), (0.75, one), (0.75, zero), (1, zero)]
            .map { (layout.left + $0.0 * layout.plotWidth, $0.1) }
        try #require(vertices.count == expected.count, "\(vertices)")
        for (vertex, point) in zip(vertices, expected) {
            #expect(abs(vertex.0 - point.0) <= 0.006 && abs(vertex.1 - point.1) <= 0.006, "\(vertex) != \(point)")
        }
        #expect(plot.panels[0].boundaries.map(\.seconds) == [0.25, 0.75])
    }

    // MARK: Colours

    /// Every stop of the strip is eval's colour at the stop's sample time
    /// (`#rrggbbaa` as the table prints it: the colour, then the opacity).
    @Test func colourStripsHoldEvalsColours() throws {
        let file = try Self.signals
        let plot = try Self.plot(file)
        let index = try #require(plot.panels.firstIndex { $0.property.description == "btn.color" })
        let panel = plot.panels[index]
        #expect(panel.kind == .color)
        let stops = try SVGDocument(plot.svg()).elements.filter { $0.name == "stop" && $0.parent == "strip-\(index)" }
        try #require(stops.count == panel.samples.count)
        let times = panel.samples.compactMap { Self.time(of: $0.time) }
        let table = evaluateToText(file, at: times, format: .table)
        let rows = table.output.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
        try #require(rows.count == stops.count)
        var sawAlpha = false
        for ((stop, row), sample) in zip(zip(stops, rows), panel.samples) {
            let hex = row[1]   // time, btn.color, btn.x, …: the hex rounds alpha to 1/255, the stop to 4 decimals
            #expect(stop.attributes["stop-color"] == String(hex.prefix(7)), "at \(sample.time)")
            let opacity = Double(stop.attributes["stop-opacity"] ?? "1") ?? -1
            let alpha = hex.count == 9 ? Double(Int(hex.suffix(2), radix: 16) ?? -1) / 255 : 1
            #expect(abs(opacity - alpha) <= 0.5 / 255 + 0.5e-4, "at \(sample.time): \(opacity) vs \(hex)")
            if hex.count == 9 { sawAlpha = true }
            let offset = Double(stop.attributes["offset"] ?? "") ?? -1
            #expect(abs(offset - sample.time.seconds / 1.5) <= 5e-7)
        }
        #expect(sawAlpha)
        // Grey to blue in the first second, eval's ends.
        #expect(stops.first?.attributes["stop-color"] == "#808080")
        #expect(stops.last?.attributes["stop-color"] == "#ff0000" && stops.last?.attributes["stop-opacity"] == "0.2")
    }

    // MARK: Events

    @Test func eventsAreMarkedWhereEvalSaysTheyFire() throws {
        let plot = try Self.plot(try Self.signals)
        let markers = plot.markers.map { "\(formatNumber($0.time.seconds)) \($0.label)" }
        #expect(markers == ["0 tick", "0.25 tick", "0.3 start", "0.5 tick", "0.75 tick", "1 a, b, land, landing-gear-down",
                            "1.5 done"])
        let document = try SVGDocument(plot.svg())
        let labels = document.texts.filter { $0.fill == Plot.eventColor }.map(\.content)
        #expect(labels.sorted() == plot.markers.map(\.label).sorted())
    }

    /// Labels are placed in rows: none overlaps another in its row, and
    /// no marker's line (which runs down from its own label) crosses a label.
    @Test func eventLabelsKeepApart() throws {
        var lines: [String] = []
        for k in 0..<12 { lines.append("emit e\(k) ; wait \(k % 3 == 0 ? "0.01s" : "0.001s")") }
        let source = "let final = " + lines.joined(separator: " ; ") + " ; (emit x || emit y || emit z) ; wait 0.05s ; emit last\n"
        let plot = try Self.plot(SourceFile(name: "crowd.anim", text: source))
        let layout = plot.layout()
        let (placement, rows) = plot.eventLabelRows(left: layout.left, plotWidth: layout.plotWidth)
        #expect(rows >= 2 && rows <= Plot.maximumEventRows)
        var boxes: [(row: Int, low: Double, high: Double, line: Double)] = []
        for (marker, place) in zip(plot.markers, placement) {
            guard let place else { continue }
            let width = Plot.monoTextWidth(marker.label)
            let low = place.anchorEnd ? place.x - width : place.x
            boxes.append((place.row, low, low + width, layout.x(marker.time.seconds)))
        }
        #expect(boxes.count == plot.markers.count, "some labels found no room")
        for (i, a) in boxes.enumerated() {
            for b in boxes[(i + 1)...] {
                if a.row == b.row { #expect(a.high <= b.low || b.high <= a.low, "\(a) overlaps \(b)") }
                // A line below its label's row crosses no label there.
                if a.row < b.row { #expect(!(b.low <= a.line && a.line <= b.high), "line at \(a.line) crosses \(b)") }
                if b.row < a.row { #expect(!(a.low <= b.line && b.line <= a.high), "line at \(b.line) crosses \(a)") }
            }
            #expect(a.high <= layout.width && a.low >= 0)
        }
    }

    /// Event lines leave out the panels' titles; past ``Plot/denseMarkers``
    /// markers they stay above the panels and on the axis, off the curves.
    @Test(arguments: [3, 200])
    func eventLinesKeepOffTitlesAndDenseOnesOffPanels(_ count: Int) throws {
        let source = "let final = (emit tick ; wait 0.01s) ^ \(count) || animate v.x from 0 to 1 || color v from red to blue\n"
        let plot = try Self.plot(SourceFile(name: "ticks.anim", text: source))
        #expect(plot.markers.count == count)   // ticks 10 ms apart: one marker each
        let layout = plot.layout()
        let lines = try SVGDocument(plot.svg()).elements.filter { $0.name == "line" && $0.stroke == Plot.eventColor }
        try #require(!lines.isEmpty)
        for line in lines {
            let y1 = Double(line.attributes["y1"] ?? "") ?? .nan, y2 = Double(line.attributes["y2"] ?? "") ?? .nan
            for (top, height) in zip(layout.panelTops, layout.panelHeights) {
                // No line through a title (the 20 pixels above a panel).
                #expect(y2 <= top - 20 + 0.006 || y1 >= top - 0.006, "\(y1)–\(y2) crosses the title above \(top)")
                if plot.markers.count > Plot.denseMarkers {
                    #expect(y2 <= top + 0.006 || y1 >= top + height - 0.006, "\(y1)–\(y2) crosses the panel at \(top)")
                }
            }
        }
    }

    // MARK: Axis and numbers

    /// Ticks step by 1, 2 or 5 × 10^k, start at 0, stay inside the span,
    /// and their labels never overlap.
    @Test(arguments: ["0.001", "0.35", "1", "2.1", "7", "14", "59.5", "3600", "1000000001"])
    func timeTicksAreReadable(_ duration: String) throws {
        let end = try #require(Time(decimal: duration))
        let plot = Plot(binding: "a", source: "", end: end, duration: end, isInfinite: false, isCancelled: false, panels: [], markers: [])
        let ticks = plot.timeTicks()
        try #require(ticks.count >= 2, "\(ticks)")
        #expect(ticks.first?.seconds == 0 && ticks.first?.label.allSatisfy { $0 == "0" || $0 == "." } == true)
        let step = ticks[1].seconds
        var mantissa = step
        while mantissa >= 10 { mantissa /= 10 }
        while mantissa < 1 { mantissa *= 10 }
        #expect([1.0, 2, 5].contains { abs(mantissa - $0) < 1e-9 }, "step \(step)")
        let layout = plot.layout()
        for (a, b) in zip(ticks, ticks.dropFirst()) {
            let gap = layout.x(b.seconds) - layout.x(a.seconds)
            #expect(gap >= (Plot.monoTextWidth(a.label) + Plot.monoTextWidth(b.label)) / 2 + 10, "\(a.label) and \(b.label)")
            #expect(Double(b.label).map { abs($0 - b.seconds) <= step * 1e-9 } == true, "label \(b.label) at \(b.seconds)")
        }
        #expect((ticks.last?.seconds ?? .infinity) <= end.seconds)
        #expect(ticks.count <= 16)
    }

    @Test func numbersAreShortAndTellTheRangeApart() {
        #expect(Plot.readable(109.98966, span: 109.98966) == "110")
        #expect(Plot.readable(137.2581, span: 137.2581) == "137.3")
        #expect(Plot.readable(0.1 + 0.2, span: 1) == "0.3")
        #expect(Plot.readable(-90, span: 90) == "-90")
        #expect(Plot.readable(0.8, span: 0.30000000000000004) == "0.8")
        #expect(Plot.readable(1000.0001, span: 0.0001) == "1000.0001")
        #expect(Plot.readable(1000.0002, span: 0.0001) == "1000.0002")
        #expect(Plot.readable(1.234567e-7, span: 1.234567e-7) == "1.235e-07")
        #expect(Plot.readable(3e12, span: 3e12) == "3.000e+12")
        #expect(Plot.readable(-1e-300, span: 0) == "-1.000e-300")
        #expect(Plot.readable(.infinity, span: 1) == "inf")
        #expect(Plot.decimalExponent(1000) == 3 && Plot.decimalExponent(999.9999) == 2 && Plot.decimalExponent(0.001) == -3)
    }

    // MARK: Edge cases

    @Test func aCancelledAnimationIsASmallPictureSayingSo() throws {
        let plot = try Self.plot(try Self.file("cancelled.anim"))
        #expect(plot.isCancelled && plot.panels.isEmpty)
        let document = try SVGDocument(plot.svg())
        #expect(document.texts.map(\.content).contains("`final` is cancelled: it has no frames"))
    }

    /// A zero-length animation shows its single instant: a dot per number, a swatch per colour.
    @Test func aZeroLengthAnimationShowsItsInstant() throws {
        let file = SourceFile(name: "instant.anim", text: "let a = animate v.x from 0 to 5 in 0s || color v from red to blue in 0s || emit go\n")
        let plot = try Self.plot(file)
        #expect(plot.end == .zero)
        #expect(plot.markers.map(\.label) == ["go"])
        let document = try SVGDocument(plot.svg())
        let layout = plot.layout()
        let dot = try #require(document.elements.first { $0.name == "circle" })
        #expect(Double(dot.attributes["cx"] ?? "") == layout.left + layout.plotWidth / 2)
        #expect(document.elements.contains { $0.name == "rect" && $0.attributes["fill"] == "#0000ff" })
        #expect(document.texts.map(\.content).contains("5"))
    }

    @Test func anEndlessAnimationNeedsAnEnd() throws {
        let file = SourceFile(name: "spin.anim", text: "let spin = animate v.rotation from 0 to 360 in 1s repeated forever\n")
        let outcome = run(file)
        let (refused, diagnostics) = makePlot(outcome, source: file.name)
        #expect(refused == nil)
        #expect(diagnostics.map(\.id) == ["needs-until"])
        #expect(render(diagnostics, in: file).contains("error: `spin` repeats forever: choose where the plot ends with --until"))
        let plot = try Self.plot(file, until: Time(3))
        #expect(plot.end == Time(3) && plot.isInfinite)
        // Three turns: 360 just before each whole second, 0 at it.
        let samples = plot.panels[0].samples
        for second in [1.0, 2.0] {
            let before = samples.last { $0.time.seconds < second }, at = samples.first { $0.time.seconds == second }
            #expect(before.flatMap { $0.value.number }.map { $0 > 359.99 } == true)
            #expect(at?.value.number == 0)
        }
    }

    /// Every example's picture is well-formed XML with one `svg` root.
    @Test(arguments: exampleFiles)
    func everyExamplePlotIsWellFormed(_ name: String) throws {
        // An example that repeats forever says where to stop in its `# eval: --until T` line.
        let path = "examples/" + name
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let until: Time? = EvalOptions(directiveIn: text).until
        let plot = try Self.plot(SourceFile(name: path, text: text), until: until)
        let document = try SVGDocument(plot.svg())
        #expect(document.elements.first?.name == "svg")
        #expect(document.elements.filter { $0.name == "path" }.count == plot.panels.filter { $0.kind == .number }.count)
    }

    /// Ends more than 1.8e308 apart, and an overshoot past the largest
    /// double (not a finite number there: a gap in the curve).
    @Test func extremeValuesStayDrawable() throws {
        let x = Property(view: "v", name: "x"), y = Property(view: "v", name: "y")
        let scene = try Scene.tween(x, from: -1e308, to: 1e308)
            .alongside(try Scene.tween(y, from: 0, to: 1.7e308, easing: .penner(.back, .out)))
        let compiled = try #require(try scene.compile())
        let plot = Plot.make(compiled, binding: "a")
        let document = try SVGDocument(plot.svg())
        let wide = try #require(document.path("curve-0"))
        #expect(wide.allSatisfy { $0.0.isFinite && $0.1.isFinite })
        #expect(abs((wide.first?.1 ?? 0) - plot.layout().y(-1e308, panel: 0)) <= 0.006)
        let overshoot = try #require(document.elements.first { $0.attributes["id"] == "curve-1" }?.attributes["d"])
        #expect(overshoot.filter { $0 == "M" }.count == 2, "the curve leaves the doubles and comes back: two strokes")
        #expect(plot.panels[1].samples.contains { $0.value.number == .infinity })
    }

    // MARK: Goldens

    @Test(arguments: ["jumps.anim", "choreography.anim", "cancelled.anim"])
    func examplePlotsMatchTheirGoldens(_ name: String) throws {
        let plot = try Self.plot(try Self.file(name))
        expectMatchesGolden(plot.svg(), "plot/\(name.dropLast(5)).svg")
    }

    @Test func coloursAndEventsMatchTheirGolden() throws {
        expectMatchesGolden(try Self.plot(try Self.signals).svg(), "plot/signals.svg")
    }
}

/// An SVG read back with Foundation's XML parser: every element (with its
/// attributes and the id of the nearest enclosing element that has one) and
/// every text; throws unless the document is well-formed with one root.
struct SVGDocument {
    struct Element {
        let name: String
        let attributes: [String: String]
        let parent: String?
        /// The stroke it has or inherits.
        let stroke: String?
    }

    struct Text {
        let content: String
        let fill: String?
    }

    private(set) var elements: [Element] = []
    private(set) var texts: [Text] = []

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    init(_ text: String) throws {
        let reader = Reader()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reader
        let parsed = parser.parse()
        guard parsed, parser.parserError == nil, reader.error == nil, reader.stack.isEmpty, reader.roots == 1 else {
            throw Malformed(description: "not well-formed: \(String(describing: parser.parserError ?? reader.error)), open: \(reader.stack.map(\.name)), roots: \(reader.roots)")
        }
        elements = reader.elements
        texts = reader.texts
    }

    /// The vertices of the path with this id (every `M` and `L` point).
    func path(_ id: String) -> [(Double, Double)]? {
        guard let d = elements.first(where: { $0.name == "path" && $0.attributes["id"] == id })?.attributes["d"] else { return nil }
        var vertices: [(Double, Double)] = []
        for command in d.split(whereSeparator: { $0 == "M" || $0 == "L" }) {
            let numbers = command.split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 2 else { return nil }
            vertices.append((numbers[0], numbers[1]))
        }
        return vertices
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var stack: [(name: String, id: String?, fill: String?, stroke: String?)] = []
        var elements: [Element] = []
        var texts: [Text] = []
        var roots = 0
        var error: Error?
        var characters = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if stack.isEmpty { roots += 1 }
            let stroke = attributes["stroke"] ?? stack.last?.stroke
            elements.append(Element(name: name, attributes: attributes, parent: stack.last { $0.id != nil }?.id, stroke: stroke))
            stack.append((name, attributes["id"], attributes["fill"] ?? stack.last?.fill, stroke))
            characters = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            characters += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard let open = stack.popLast(), open.name == name else {
                error = SVGDocument.Malformed(description: "</\(name)> closes nothing open")
                return
            }
            if name == "text" { texts.append(Text(content: characters, fill: open.fill)) }
            characters = ""
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            error = parseError
        }
    }
}
