import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// animc's rasterizer (docs/exports.md §8), against pictures worked out by hand.
/// Every shape the stage draws has a 1 px outline of black at 0.25 centred on
/// its edge, and a rectangle's corners are rounded by 4 px: the expectations
/// below include them. Colours blend premultiplied: a layer of alpha `a` and
/// premultiplied colour `c` over `d` gives `c + d·(1 − a)`; bytes are
/// `⌊255·v + ½⌋`.
struct RasterTests {
    static let red = Color(red: 255, green: 0, blue: 0)
    static let white = Color(red: 255, green: 255, blue: 255)

    /// A 20 × 20 picture of the stage (0, 0)–(20, 20): one stage pixel a picture pixel.
    static func picture(_ views: [DrawnView], size: Int = 20, background: Color? = white) -> RGBAImage {
        var raster = Rasterizer(viewBox: (0, 0, Double(size), Double(size)), width: size, height: size, background: background)
        raster.draw(views)
        return raster.image
    }

    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        let index = (y * image.width + x) * 4
        return Array(image.bytes[index..<index + 4])
    }

    @Test func coverageOfAPixelByAStraightEdge() {
        // Axis-aligned: the edge through the centre covers half; ¼ px inside, ¾.
        #expect(Rasterizer.coverage(0, normal: (1, 0)) == 0.5)
        #expect(Rasterizer.coverage(-0.25, normal: (0, 1)) == 0.75)
        #expect(Rasterizer.coverage(0.5, normal: (1, 0)) == 0)
        #expect(Rasterizer.coverage(-0.5, normal: (1, 0)) == 1)
        // At 45°, an edge ½ px from the centre cuts off a corner: the corner is √2/2 from the centre, so the
        // triangle's height along the normal is √2/2 − ½ and its legs √2 times that; area = legs² / 2.
        let leg = (0.5.squareRoot() - 0.5) * 2.0.squareRoot()
        let diagonal = (0.5.squareRoot(), 0.5.squareRoot())
        #expect(abs(Rasterizer.coverage(0.5, normal: diagonal) - leg * leg / 2) < 1e-12)
        #expect(abs(Rasterizer.coverage(-0.5, normal: diagonal) - (1 - leg * leg / 2)) < 1e-12)
        #expect(abs(Rasterizer.coverage(0, normal: diagonal) - 0.5) < 1e-12)
    }

    @Test func anOpaqueSquareOnWholePixels() {
        // A 10 × 10 red square centred at (10, 10): its edges at 5 and 15.
        let image = Self.picture([DrawnView(centre: (10, 10), shape: .rectangle(width: 10, height: 10), fill: Self.red)])
        // Inside, clear of the outline (which covers 4.5–5.5 and 14.5–15.5): red.
        #expect(Self.pixel(image, 10, 10) == [255, 0, 0, 255])
        #expect(Self.pixel(image, 6, 10) == [255, 0, 0, 255])
        // Column 5 (5–6): all fill, half outline: 0.125 of black over red → red 255 · 0.875 = 223.1.
        #expect(Self.pixel(image, 5, 10) == [223, 0, 0, 255])
        // Column 4 (4–5): no fill, half outline: 0.125 of black over white → 223.1 in every channel.
        #expect(Self.pixel(image, 4, 10) == [223, 223, 223, 255])
        // Column 3 and the far side's column 15 mirror them; 16 is untouched.
        #expect(Self.pixel(image, 3, 10) == [255, 255, 255, 255])
        #expect(Self.pixel(image, 14, 10) == [223, 0, 0, 255])
        #expect(Self.pixel(image, 15, 10) == [223, 223, 223, 255])
        #expect(Self.pixel(image, 16, 10) == [255, 255, 255, 255])
        // The corner pixel (5, 5) lies outside the 4 px rounding (its centre (5.5, 5.5) is 3.5√2 − 4 ≈ 0.95 px
        // beyond the arc, centred at (9, 9)): no fill, a sliver of outline at most — lighter than the side's.
        let corner = Self.pixel(image, 5, 5)
        #expect(corner[0] > 223 && corner[0] == corner[1])
    }

    @Test func aHalfCoveredPixelAtAnEdge() {
        // 9 px wide: edges at 5.5 and 14.5. Column 5 (5–6) is half fill, and wholly outline (5–6):
        // outline 0.25 black; fill red · ½ · (1 − 0.25) = 0.375 premultiplied; alpha 0.25 + 0.375 = 0.625;
        // over white: red 0.375 + 0.375 = 0.75 → 191, green and blue 0.375 → 96.
        let image = Self.picture([DrawnView(centre: (10, 10), shape: .rectangle(width: 9, height: 10), fill: Self.red)])
        #expect(Self.pixel(image, 5, 10) == [191, 96, 96, 255])
        // On a transparent background the same pixel is straight: alpha 0.625 → 159; red 0.375 / 0.625 = 0.6 → 153.
        let clear = Self.picture([DrawnView(centre: (10, 10), shape: .rectangle(width: 9, height: 10), fill: Self.red)],
                                 background: nil)
        #expect(Self.pixel(clear, 5, 10) == [153, 0, 0, 159])
        #expect(Self.pixel(clear, 0, 0) == [0, 0, 0, 0])
    }

    @Test func halfOpacityOverTheBackground() {
        // Red at opacity ½ over white: red 0.5 + 0.5 = 1 → 255; green and blue 0.5 → 128.
        let image = Self.picture([DrawnView(centre: (10, 10), shape: .rectangle(width: 10, height: 10), fill: Self.red,
                                            opacity: 0.5)])
        #expect(Self.pixel(image, 10, 10) == [255, 128, 128, 255])
        // A fill colour's own alpha multiplies the opacity: ½ · ½ = ¼ of red → green 0.75 → 191.
        let faint = Self.picture([DrawnView(centre: (10, 10), shape: .rectangle(width: 10, height: 10),
                                            fill: Color(red: 255, green: 0, blue: 0, alpha: 0.5), opacity: 0.5)])
        #expect(Self.pixel(faint, 10, 10) == [255, 191, 191, 255])
    }

    @Test func aRotatedSquareReachesAlongItsDiagonal() {
        // A 20 px square centred at (20, 20). Unturned, (31.5, 20.5) is 11.5 px right of the centre, past the
        // side at 10 (and its outline, to 10.5): background. Turned 45°, its rounded corner's tip lies along that
        // line, √2 · 6 + 4 ≈ 12.49 px out. In the square's own frame the pixel's centre is at
        // ((11.5 + 0.5) / √2, (0.5 − 11.5) / √2) = (8.49, −7.78), 3.06 px from the corner's centre (6, −6):
        // 0.94 px inside the rounding, where the pixel's far corner just reaches the outline (½ px inside):
        // red with at most a trace of black. The centre is red; (33.5, 20.5), 13.5 px out, is past the tip
        // and its outline (12.99): background.
        let square = DrawnView(centre: (20, 20), shape: .rectangle(width: 20, height: 20), fill: Self.red)
        var turned = square
        turned.rotation = 45
        let still = Self.picture([square], size: 40), image = Self.picture([turned], size: 40)
        #expect(Self.pixel(still, 31, 20) == [255, 255, 255, 255])
        #expect(Self.pixel(image, 20, 20) == [255, 0, 0, 255])
        let tip = Self.pixel(image, 31, 20)
        #expect(tip[0] >= 245 && tip[1] == 0 && tip[2] == 0 && tip[3] == 255)
        #expect(Self.pixel(image, 33, 20) == [255, 255, 255, 255])
    }

    @Test func aCircleCoversItsArea() {
        // Opaque black, radius 15, on transparent: alpha sums the fill's coverage and the outline's quarter
        // outside it (inside, the outline adds nothing to full alpha). The browser draws the circle as lines:
        // each quarter conic is 2 quadratics (its distance from one, 0.0607 r = 0.91 px, is over ¼ px once),
        // each filled as 4 lines (the middle's distance from the chord, 2.38 px, is 11 in the rule's units:
        // 2 halvings), so the fill is the regular 32-gon in the circle, area 16 sin(π/16) r². The outline, 1 px
        // at zoom 1, is a hairline: alpha ¼ over one pixel across each segment's major axis, half of it
        // outside; it is drawn on the 16-gon (each quadratic 2 lines: its control is (3, 1) whole pixels from
        // its chord's middle), so it covers the sum of its segments' lengths along their major axes.
        let r = 15.0
        let image = Self.picture([DrawnView(centre: (20, 20), shape: .circle(radius: r), fill: Color(red: 0, green: 0, blue: 0))],
                                 size: 40, background: nil)
        var total = 0.0
        for index in Swift.stride(from: 3, to: image.bytes.count, by: 4) { total += Double(image.bytes[index]) / 255 }
        let fill = 16 * sin(Double.pi / 16) * r * r
        var major = 0.0
        for k in 0..<16 {
            // The segment from angle k·22.5° to (k + 1)·22.5°: its direction is perpendicular to its middle.
            let middle = (Double(k) + 0.5) * Double.pi / 8
            major += 2 * r * sin(Double.pi / 16) * max(abs(sin(middle)), abs(cos(middle)))
        }
        let expected = fill + 0.25 * major / 2
        #expect(abs(total - expected) / expected < 0.002, "\(total) against \(expected)")
    }

    @Test func theStageFitsThePictureCentred() {
        // A 40 × 20 stage in a 40 × 40 picture: zoom 1, 10 px above and below.
        let raster = Rasterizer(viewBox: (-20, 0, 40, 20), width: 40, height: 40, background: nil)
        #expect(raster.zoom == 1)
        #expect(raster.offset == (20, 10))
        // Twice the size both ways: zoom 2.
        let double = Rasterizer(viewBox: (0, 0, 40, 20), width: 80, height: 40, background: nil)
        #expect(double.zoom == 2)
    }

    @Test func theModelDecidesShapeFillAndChannels() {
        let outcome = run(SourceFile(name: "model.anim", text: """
            view dot radius 10 color red
            view card width 40 fill blue
            view plain opacity 1
            let a = animate dot.x from 0 to 100 in 1s || scale card from 1 to 2 in 1s || animate plain.opacity from 1 to 0.5 in 1s
            """))
        let (export, _) = webExport(outcome)
        guard let export else { Issue.record("no export"); return }
        let model = RenderModel(export)
        #expect(model.views.map(\.name) == ["dot", "card", "plain"])
        #expect(model.views[0].shape == .circle(radius: Property(view: "dot", name: "radius")))
        #expect(model.views[0].fill == .property(Property(view: "dot", name: "color")))
        #expect(model.views[1].shape == .rectangle(width: .property(Property(view: "card", name: "width")),
                                                   height: .fixed(Drawing.defaultSide)))
        #expect(model.views[1].fill == .property(Property(view: "card", name: "fill")))
        #expect(model.views[2].fill == .palette(Drawing.paletteColor(2)))
        #expect(model.views[0].x == Property(view: "dot", name: "x"))
        #expect(model.views[1].scale == Property(view: "card", name: "scale"))
        #expect(model.views[2].opacity == Property(view: "plain", name: "opacity"))
    }
}

/// The player page, the animated SVG and the rasterizer draw one stage: the
/// render model's, measured once (docs/exports.md §8).
struct StageAgreementTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let examples: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("examples").path)) ?? [])
        .filter { $0.hasSuffix(".anim") }.sorted()

    /// `viewBox="X Y W H"` of the first `<svg` in `text`.
    static func viewBox(_ text: String) -> String? {
        guard let start = text.firstRange(of: "viewBox=\"") else { return nil }
        let rest = text[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    @Test(arguments: examples)
    func thePageTheSVGAndTheRasterizerShareTheStage(_ name: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("examples").appendingPathComponent(name), encoding: .utf8)
        let outcome = run(SourceFile(name: name, text: text))
        guard case .frames(let sampler, _, _)? = renderSubject(outcome) else { return }  // cancelled or refused: nothing drawn
        let (export, _) = webExport(outcome)
        let page = try #require(export.map(playerPage))
        let box = sampler.model.viewBox
        let drawn = [box.x, box.y, box.width, box.height].map(formatNumber).joined(separator: " ")
        #expect(Self.viewBox(page) == drawn)
        #expect(Self.viewBox(try #require(export.map { animatedSVG($0) })) == drawn)
    }
}

/// The rasterizer draws frame after frame only what changed (dirty
/// rectangles): the picture must be the one drawn afresh, and ``Rasterizer/changed``
/// must hold every pixel that differs from the frame before.
struct IncrementalRasterTests {
    /// A generator of views from a fixed seed (a linear congruential generator).
    struct Views {
        var state: UInt64

        mutating func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }

        mutating func view() -> DrawnView {
            let shape: DrawnView.Shape = unit() < 0.5 ? .circle(radius: 1 + 12 * unit())
                : .rectangle(width: 1 + 20 * unit(), height: 1 + 20 * unit())
            let fill = Color(red: 255 * unit(), green: 255 * unit(), blue: 255 * unit(), alpha: unit() < 0.2 ? unit() : 1)
            // Now and then a view that draws nothing (opacity 0, scale 0) or reaches past the picture.
            return DrawnView(centre: (-10 + 80 * unit(), -10 + 60 * unit()), shape: shape, fill: fill, rotation: 360 * unit(),
                             scaleX: unit() < 0.1 ? 0 : 0.3 + 2 * unit(), scaleY: 0.3 + 2 * unit(),
                             origin: (unit(), unit()), opacity: unit() < 0.1 ? 0 : unit() < 0.5 ? 1 : unit())
        }
    }

    @Test(arguments: [false, true])
    func frameAfterFrameIsThePictureDrawnAfresh(transparent: Bool) {
        let background: Color? = transparent ? nil : Color(red: 250, green: 250, blue: 250)
        var views = Views(state: transparent ? 7 : 3)
        var raster = Rasterizer(viewBox: (0, 0, 60, 40), width: 90, height: 60, background: background)
        var frame = (0..<6).map { _ in views.view() }
        var before = RGBAImage(width: 90, height: 60)
        for index in 0..<40 {
            // Some views move, some stay; every tenth frame none changes.
            if index % 10 != 9 {
                for view in frame.indices where views.unit() < 0.4 { frame[view] = views.view() }
            }
            raster.draw(frame)
            var fresh = Rasterizer(viewBox: (0, 0, 60, 40), width: 90, height: 60, background: background)
            fresh.draw(frame)
            let differing = zip(raster.image.bytes, fresh.image.bytes).filter { $0 != $1 }.count
            #expect(differing == 0, "frame \(index): \(differing) bytes differ from the picture drawn afresh")
            if index > 0 {
                var outside = 0
                for y in 0..<60 {
                    for x in 0..<90 where !(raster.changed.left..<raster.changed.left + raster.changed.width).contains(x)
                        || !(raster.changed.top..<raster.changed.top + raster.changed.height).contains(y) {
                        let at = (y * 90 + x) * 4
                        if raster.image.bytes[at..<at + 4] != before.bytes[at..<at + 4] { outside += 1 }
                    }
                }
                #expect(outside == 0, "frame \(index): \(outside) pixels changed outside \(raster.changed)")
                if index % 10 == 9 { #expect(raster.changed.isEmpty, "frame \(index)") }
            }
            before = raster.image
        }
    }

    @Test func overlappingBoxesAreMergedUntilNoneOverlap() {
        var views = Views(state: 11)
        for _ in 0..<50 {
            let boxes = (0..<8).map { _ in
                PixelRect(left: Int(100 * views.unit()), top: Int(100 * views.unit()), width: Int(30 * views.unit()), height: Int(30 * views.unit()))
            }
            let rects = Rasterizer.disjoint(boxes)
            for (index, rect) in rects.enumerated() {
                #expect(!rect.isEmpty)
                for other in rects[(index + 1)...] { #expect(rect.intersection(other).isEmpty, "\(rect) overlaps \(other)") }
            }
            for box in boxes where !box.isEmpty {
                #expect(rects.contains { $0.union(box) == $0 }, "\(box) is not covered")
            }
        }
        // Two apart stay two; a third across both joins them into their box.
        let apart = [PixelRect(left: 0, top: 0, width: 2, height: 2), PixelRect(left: 5, top: 0, width: 2, height: 2)]
        #expect(Rasterizer.disjoint(apart) == apart)
        #expect(Rasterizer.disjoint(apart + [PixelRect(left: 1, top: 1, width: 5, height: 1)])
                == [PixelRect(left: 0, top: 0, width: 7, height: 2)])
    }
}
