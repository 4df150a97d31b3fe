#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Animations

/// animc's own rasterizer (docs/exports.md §8): draws the views of a frame
/// (``DrawnView``) into an ``RGBAImage`` as the player page's stage shows
/// them in its clean view — the stage's `viewBox` fitted into the picture
/// and centred (SVG's `xMidYMid meet`), its background, then each shape in
/// order: filled, outlined by ``RenderModel/outlineWidth`` of
/// ``RenderModel/outline`` centred on its edge (in the shape's own units, so
/// the outline scales with it), rectangles with corners of
/// ``RenderModel/cornerRadius``, and the whole shape faded by its opacity as
/// one group.
///
/// **Coverage.** The shape's edge is taken as straight across each pixel
/// (its tangent there). An outline covers a pixel by the exact fraction of
/// its square on the inside (``coverage(_:normal:)``); a fill, as the
/// browser's rasterizer fills paths, by the exact length inside along four
/// scanlines across the pixel (``scanlineCoverage(_:normal:)``), so a level
/// edge covers by quarters. A straight edge is thus drawn as the browser
/// draws it; a curved one to the second order of the pixel's size over its radius.
///
/// **Colour** is blended premultiplied, as the browser composites: the
/// outline over the fill, times the opacity, over what is drawn already.
/// The canvas keeps premultiplied floats and ``image`` the same straight,
/// one of each for the whole render (memory does not grow with frames).
package struct Rasterizer {
    package let width: Int
    package let height: Int
    /// The background; `nil` for a transparent one.
    package let background: Color?
    /// Stage pixels to picture pixels: `picture = stage · zoom + offset`.
    package let zoom: Double
    package let offset: (x: Double, y: Double)
    /// Premultiplied red, green, blue, alpha (0–1) per pixel.
    private var canvas: [Float]
    /// The picture: the canvas as straight RGBA bytes.
    package private(set) var image: RGBAImage
    /// The pixels the last ``draw(_:)`` may have changed; the picture is as before outside it.
    package private(set) var changed: PixelRect
    /// The views of the last ``draw(_:)`` and the pixels each can touch; `nil` before the first.
    private var drawn: [(view: DrawnView, box: PixelRect)]?

    /// A rasterizer of `viewBox` (stage pixels) into `width × height`.
    package init(viewBox: (x: Double, y: Double, width: Double, height: Double), width: Int, height: Int, background: Color?) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.background = background
        let zoom = viewBox.width > 0 && viewBox.height > 0
            ? min(Double(self.width) / viewBox.width, Double(self.height) / viewBox.height) : 1
        self.zoom = zoom
        offset = ((Double(self.width) - viewBox.width * zoom) / 2 - viewBox.x * zoom,
                  (Double(self.height) - viewBox.height * zoom) / 2 - viewBox.y * zoom)
        canvas = [Float](repeating: 0, count: self.width * self.height * 4)
        image = RGBAImage(width: self.width, height: self.height)
        changed = PixelRect(left: 0, top: 0, width: self.width, height: self.height)
    }

    /// Draws the picture of `views` (in order, over the background) and
    /// sets ``changed``. Frame after frame, a view that has not changed
    /// leaves its pixels as they are: only the boxes of the views that
    /// changed, where they were and where they are, are cleared, drawn again
    /// (every view that reaches them, in order) and written out, which gives
    /// the same picture as drawing everything.
    package mutating func draw(_ views: [DrawnView]) {
        let placed = views.map { PlacedShape($0, zoom: zoom, offset: offset, width: width, height: height) }
        var boxes: [PixelRect] = []
        if let drawn, drawn.count == views.count {
            for (index, view) in views.enumerated() where view != drawn[index].view {
                boxes.append(drawn[index].box)
                boxes.append(placed[index]?.box ?? .empty)
            }
        } else {
            boxes = [PixelRect(left: 0, top: 0, width: width, height: height)]
        }
        let redrawn = Rasterizer.disjoint(boxes)
        for rect in redrawn {
            clear(rect)
            for case let shape? in placed {
                let clipped = shape.box.intersection(rect)
                if !clipped.isEmpty { draw(shape, within: clipped) }
            }
            write(rect)
        }
        changed = redrawn.reduce(PixelRect.empty) { $0.union($1) }
        drawn = zip(views, placed).map { ($0, $1?.box ?? .empty) }
    }

    /// Rectangles covering the pixels of `boxes`, none overlapping another
    /// (so no pixel is drawn twice): boxes that overlap are merged into the
    /// box around them, until none do.
    static func disjoint(_ boxes: [PixelRect]) -> [PixelRect] {
        var rects: [PixelRect] = []
        for box in boxes where !box.isEmpty {
            var merged = box
            while let overlapping = rects.firstIndex(where: { !$0.intersection(merged).isEmpty }) {
                merged = merged.union(rects.remove(at: overlapping))
            }
            rects.append(merged)
        }
        return rects
    }

    /// The canvas within `rect` as straight RGBA bytes, into ``image``.
    private mutating func write(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        let stride = width * 4
        canvas.withUnsafeBufferPointer { canvas in
            image.bytes.withUnsafeMutableBufferPointer { bytes in
                // A run of one colour (the background, a fill) is converted once.
                var last: (Float, Float, Float, Float) = (.nan, .nan, .nan, .nan)
                var straight: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
                for row in rect.top..<(rect.top + rect.height) {
                    var index = row * stride + rect.left * 4
                    let end = index + rect.width * 4
                    while index < end {
                        let pixel = (canvas[index], canvas[index + 1], canvas[index + 2], canvas[index + 3])
                        if pixel != last {
                            straight = Rasterizer.straight(pixel)
                            last = pixel
                        }
                        (bytes[index], bytes[index + 1], bytes[index + 2], bytes[index + 3]) = straight
                        index += 4
                    }
                }
            }
        }
    }

    /// A premultiplied pixel as straight bytes.
    private static func straight(_ pixel: (Float, Float, Float, Float)) -> (UInt8, UInt8, UInt8, UInt8) {
        let alpha = pixel.3
        if alpha >= 1 {
            // Opaque (most pixels, over an opaque background): the colour as it is.
            return (byte(pixel.0), byte(pixel.1), byte(pixel.2), 255)
        } else if alpha <= 0 {
            return (0, 0, 0, 0)
        }
        let unpremultiply = 1 / alpha
        return (byte(pixel.0 * unpremultiply), byte(pixel.1 * unpremultiply), byte(pixel.2 * unpremultiply), byte(alpha))
    }

    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        // Compared first, so the conversion cannot trap (a NaN fails `> 0`: 0).
        let scaled = value * 255 + 0.5
        return scaled > 0 ? (scaled < 255 ? UInt8(truncatingIfNeeded: Int32(scaled)) : 255) : 0
    }

    /// The background within `rect`.
    private mutating func clear(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        let colour: (Float, Float, Float, Float)
        if let background {
            let alpha = Float(min(max(background.alpha, 0), 1))
            colour = (Float(background.red / 255) * alpha, Float(background.green / 255) * alpha, Float(background.blue / 255) * alpha, alpha)
        } else {
            colour = (0, 0, 0, 0)
        }
        let stride = width * 4
        canvas.withUnsafeMutableBufferPointer { canvas in
            for row in rect.top..<(rect.top + rect.height) {
                var index = row * stride + rect.left * 4
                let end = index + rect.width * 4
                while index < end {
                    canvas[index] = colour.0; canvas[index + 1] = colour.1; canvas[index + 2] = colour.2; canvas[index + 3] = colour.3
                    index += 4
                }
            }
        }
    }

    // MARK: One shape

    /// A view's shape in its own units, centred on (0, 0), where the picture
    /// shows it, and the pixels it can touch.
    private struct PlacedShape {
        let view: DrawnView
        let halfWidth: Double, halfHeight: Double
        let corner: (x: Double, y: Double)
        let isCircle: Bool
        let sx: Double, sy: Double
        let cosine: Double, sine: Double
        /// The origin in the shape's units.
        let origin: (Double, Double)
        let zoom: Double
        let offset: (x: Double, y: Double)
        /// Within the picture; never empty once made.
        private(set) var box = PixelRect.empty

        /// `nil` when the view draws nothing.
        init?(_ view: DrawnView, zoom: Double, offset: (x: Double, y: Double), width: Int, height: Int) {
            guard view.opacity > 0 else { return nil }
            self.view = view
            self.zoom = zoom
            self.offset = offset
            switch view.shape {
            case .circle(let radius):
                // An SVG circle of radius 0 (or less) is not drawn, nor its outline.
                guard radius > 0, radius.isFinite else { return nil }
                halfWidth = radius
                halfHeight = radius
                corner = (radius, radius)
                isCircle = true
            case .rectangle(let width, let height):
                guard width > 0, height > 0, width.isFinite, height.isFinite else { return nil }
                halfWidth = width / 2
                halfHeight = height / 2
                // SVG clamps each corner radius to half its side.
                corner = (min(RenderModel.cornerRadius, halfWidth), min(RenderModel.cornerRadius, halfHeight))
                isCircle = false
            }
            sx = view.scaleX
            sy = view.scaleY
            // A scale of 0 flattens the shape to nothing (the browser draws nothing for a singular transform).
            guard sx.isFinite, sy.isFinite, abs(sx) > 1e-12, abs(sy) > 1e-12, view.rotation.isFinite else { return nil }
            let angle = view.rotation * .pi / 180
            cosine = cos(angle)
            sine = sin(angle)
            // Fractions of its box (the box of its geometry, not its outline).
            origin = ((view.origin.x - 0.5) * 2 * halfWidth, (view.origin.y - 0.5) * 2 * halfHeight)
            // The pixels it can touch: its box and outline, mapped, and one pixel more.
            let reach = (halfWidth + RenderModel.outlineWidth / 2, halfHeight + RenderModel.outlineWidth / 2)
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for p in [(-reach.0, -reach.1), (reach.0, -reach.1), (-reach.0, reach.1), (reach.0, reach.1)] {
                let q = picture(p)
                minX = min(minX, q.0); maxX = max(maxX, q.0); minY = min(minY, q.1); maxY = max(maxY, q.1)
            }
            guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
            let firstColumn = Int(max(0, min(Double(width), (minX - 1).rounded(.down))))
            let lastColumn = Int(max(0, min(Double(width), (maxX + 1).rounded(.up))))
            let firstRow = Int(max(0, min(Double(height), (minY - 1).rounded(.down))))
            let lastRow = Int(max(0, min(Double(height), (maxY + 1).rounded(.up))))
            guard firstColumn < lastColumn, firstRow < lastRow else { return nil }
            box = PixelRect(left: firstColumn, top: firstRow, width: lastColumn - firstColumn, height: lastRow - firstRow)
        }

        /// The columns of `row` within `rect` whose centres lie in the box
        /// `|p.x| ≤ half.x, |p.y| ≤ half.y` of the shape's own units: and a
        /// column more each side when `outward` (every such column), a column
        /// less when not (only such columns).
        func columns(row: Int, half: (x: Double, y: Double), within rect: PixelRect, outward: Bool) -> Range<Int> {
            let none = rect.left..<rect.left
            guard half.x >= 0, half.y >= 0 else { return none }
            // Along the row, picture x ↦ the shape's units is affine: p = slope · x + intercept on each axis.
            let y = ((Double(row) + 0.5 - offset.y) / zoom) - view.centre.y - origin.1
            var low = -Double.infinity, high = Double.infinity
            // Narrows low...high to where |slope · x + intercept| ≤ half; false when nowhere.
            func clip(_ slope: Double, _ intercept: Double, _ half: Double) -> Bool {
                if abs(slope) < 1e-12 { return abs(intercept) <= half }
                let ends = ((-half - intercept) / slope, (half - intercept) / slope)
                low = max(low, min(ends.0, ends.1))
                high = min(high, max(ends.0, ends.1))
                return true
            }
            guard clip(cosine / sx, sine * y / sx + origin.0, half.x), clip(-sine / sy, cosine * y / sy + origin.1, half.y),
                  low <= high else { return none }
            // Back to columns: x = (column + ½ − offset) / zoom − centre − origin.
            let first = (low + view.centre.x + origin.0) * zoom + offset.x - 0.5
            let last = (high + view.centre.x + origin.0) * zoom + offset.x - 0.5
            let (from, to) = outward ? (first.rounded(.down) - 1, last.rounded(.up) + 1) : (first.rounded(.up) + 1, last.rounded(.down) - 1)
            let left = Int(max(Double(rect.left), min(Double(rect.left + rect.width), from)))
            let right = Int(max(Double(left), min(Double(rect.left + rect.width), to + 1)))
            return left..<right
        }

        /// Shape units to picture pixels: p ↦ zoom · (centre + origin + R · S · (p − origin)) + offset.
        func picture(_ p: (Double, Double)) -> (Double, Double) {
            let u = (p.0 - origin.0) * sx, v = (p.1 - origin.1) * sy
            let x = view.centre.x + origin.0 + cosine * u - sine * v
            let y = view.centre.y + origin.1 + sine * u + cosine * v
            return (x * zoom + offset.x, y * zoom + offset.y)
        }
    }

    /// Draws `shape` over the canvas, in the pixels of `rect` only.
    private mutating func draw(_ shape: PlacedShape, within rect: PixelRect) {
        let view = shape.view
        let (halfWidth, halfHeight, corner, isCircle) = (shape.halfWidth, shape.halfHeight, shape.corner, shape.isCircle)
        let (sx, sy, cosine, sine, origin) = (shape.sx, shape.sy, shape.cosine, shape.sine, shape.origin)
        let fillAlpha = min(max(view.fill.alpha, 0), 1)
        let fill = (view.fill.red / 255 * fillAlpha, view.fill.green / 255 * fillAlpha, view.fill.blue / 255 * fillAlpha, fillAlpha)
        let outline = RenderModel.outline.alpha
        let halfOutline = RenderModel.outlineWidth / 2
        let opacity = view.opacity
        // An outline at most a pixel wide both ways on the picture is drawn as the browser draws it (Skia's
        // hairline rule): a line one pixel thick along its major axis, its alpha times the mean of the two widths
        // (each measured as Skia measures a vector: the larger part plus half the smaller).
        func skiaLength(_ x: Double, _ y: Double) -> Double { max(abs(x), abs(y)) + min(abs(x), abs(y)) / 2 }
        let widthX = skiaLength(zoom * sx * cosine, zoom * sx * sine) * RenderModel.outlineWidth
        let widthY = skiaLength(-zoom * sy * sine, zoom * sy * cosine) * RenderModel.outlineWidth
        let hairline: Double? = widthX <= 1 && widthY <= 1 ? (widthX + widthY) / 2 : nil
        // Farther than this from the edge (in the shape's units, 2 px on the picture past the outline) a pixel is
        // wholly outside the shape and its outline, or wholly inside its fill: every coverage rule below reaches
        // less far (a pixel's corners are ¾ px from its centre, the flattened circle a quarter pixel from the curve).
        let settled = halfOutline + 2 / (zoom * min(abs(sx), abs(sy)))
        // Such a pixel inside: the fill alone, times the opacity (the rule below with no outline and full coverage).
        let solid = (fill.0 * opacity, fill.1 * opacity, fill.2 * opacity, fill.3 * opacity)
        // A circle's fill and hairline are drawn on the segments the browser flattens it into.
        let oval = isCircle ? FlattenedOval(radius: halfWidth, picture: shape.picture) : nil
        // The colour a pixel near the edge takes (`nil`: none), from where its centre lies; `spans` are the
        // oval's spans along the row's four strips.
        func shaded(column: Int, row: Int, spans: UnsafeBufferPointer<(left: Double, right: Double)?>)
            -> (red: Double, green: Double, blue: Double, alpha: Double)? {
            // The pixel's centre back in the shape's units.
            let x = ((Double(column) + 0.5 - offset.x) / zoom) - view.centre.x - origin.0
            let y = ((Double(row) + 0.5 - offset.y) / zoom) - view.centre.y - origin.1
            let u = cosine * x + sine * y, v = -sine * x + cosine * y
            let p = (u / sx + origin.0, v / sy + origin.1)
            let edge = isCircle ? Rasterizer.circleEdge(p, radius: halfWidth)
                : Rasterizer.roundedRectangleEdge(p, half: (halfWidth, halfHeight), corner: corner)
            if edge.distance > settled { return nil }
            if edge.distance < -settled { return solid }
            let inner: Double, outlined: Double
            // The distance's gradient in picture pixels: M⁻ᵀ n with M = zoom · R · S.
            let gx = edge.normal.x / sx, gy = edge.normal.y / sy
            let length = (gx * gx + gy * gy).squareRoot() / zoom
            guard length > 0, length.isFinite else { return nil }
            let normal = (x: (cosine * gx - sine * gy), y: (sine * gx + cosine * gy))
            let normalLength = (normal.x * normal.x + normal.y * normal.y).squareRoot()
            let n = (normal.x / normalLength, normal.y / normalLength)
            // Signed distances in picture pixels: to the edge, and to the outline's two sides.
            if oval != nil {
                var inside = 0.0
                for case let span? in spans {
                    inside += max(0, min(span.right, Double(column) + 1) - max(span.left, Double(column)))
                }
                inner = inside / 4
            } else {
                inner = Rasterizer.scanlineCoverage(edge.distance / length, normal: n)
            }
            if inner <= 0, edge.distance - halfOutline > 2 / length { return nil }
            if let hairline, let oval {
                outlined = abs(edge.distance / length) < 2
                    ? hairline * oval.hairlineCoverage(x: Double(column) + 0.5, y: Double(row) + 0.5) : 0
            } else if let hairline {
                outlined = hairline * max(0, 1 - abs(edge.distance / length) / max(abs(n.0), abs(n.1)))
            } else {
                outlined = Rasterizer.coverage((edge.distance - halfOutline) / length, normal: n)
                    - Rasterizer.coverage((edge.distance + halfOutline) / length, normal: n)
            }
            let stroke = outline * max(0, outlined)
            // The outline over the fill, then the group's opacity.
            let keep = 1 - stroke
            return (fill.0 * inner * keep * opacity, fill.1 * inner * keep * opacity,
                    fill.2 * inner * keep * opacity, (stroke + fill.3 * inner * keep) * opacity)
        }
        // Along each row: the columns the shape can reach, and among them those wholly inside it, clear of its edge.
        let reach = (x: halfWidth + settled, y: halfHeight + settled)
        let deep = isCircle ? (x: (halfWidth - settled) / 2.0.squareRoot(), y: (halfWidth - settled) / 2.0.squareRoot())
            : (x: halfWidth - settled - corner.x, y: halfHeight - settled - corner.y)
        var spans: [(left: Double, right: Double)?] = [nil, nil, nil, nil]
        let stride = width * 4
        canvas.withUnsafeMutableBufferPointer { canvas in
            for row in rect.top..<(rect.top + rect.height) {
                if let oval {
                    for strip in 0..<4 { spans[strip] = oval.span(at: Double(row) + 0.125 + 0.25 * Double(strip)) }
                }
                let inside = shape.columns(row: row, half: deep, within: rect, outward: false)
                spans.withUnsafeBufferPointer { spans in
                    for column in shape.columns(row: row, half: reach, within: rect, outward: true) {
                        guard let colour = inside.contains(column) ? solid : shaded(column: column, row: row, spans: spans),
                              colour.alpha > 0 else { continue }
                        let index = row * stride + column * 4
                        let under = Float(1 - colour.alpha)
                        canvas[index] = Float(colour.red) + canvas[index] * under
                        canvas[index + 1] = Float(colour.green) + canvas[index + 1] * under
                        canvas[index + 2] = Float(colour.blue) + canvas[index + 2] * under
                        canvas[index + 3] = Float(colour.alpha) + canvas[index + 3] * under
                    }
                }
            }
        }
    }

    // MARK: Geometry

    /// A point's signed distance to an edge (negative inside) and the unit
    /// normal there (the distance's gradient), in the shape's units.
    package struct Edge {
        package let distance: Double
        package let normal: (x: Double, y: Double)
    }

    /// To a circle of `radius` about (0, 0): exact.
    package static func circleEdge(_ p: (Double, Double), radius: Double) -> Edge {
        let length = (p.0 * p.0 + p.1 * p.1).squareRoot()
        guard length > 0 else { return Edge(distance: -radius, normal: (1, 0)) }
        return Edge(distance: length - radius, normal: (p.0 / length, p.1 / length))
    }

    /// To a rectangle of half sides `half` about (0, 0) with elliptic corners
    /// of radii `corner`: exact along the sides and for round corners; for
    /// corners whose two radii differ (a shape narrower than two corners), the
    /// ellipse's distance to the first order.
    package static func roundedRectangleEdge(_ p: (Double, Double), half: (Double, Double), corner: (x: Double, y: Double)) -> Edge {
        let ax = abs(p.0), ay = abs(p.1)
        let signX: Double = p.0 < 0 ? -1 : 1, signY: Double = p.1 < 0 ? -1 : 1
        // Past the corner's centre on both axes: the corner's arc.
        let cx = half.0 - corner.x, cy = half.1 - corner.y
        let qx = ax - cx, qy = ay - cy
        if qx > 0, qy > 0, corner.x > 0, corner.y > 0 {
            if corner.x == corner.y {
                let length = (qx * qx + qy * qy).squareRoot()
                return Edge(distance: length - corner.x, normal: (signX * qx / length, signY * qy / length))
            }
            let ex = qx / corner.x, ey = qy / corner.y
            let k = (ex * ex + ey * ey).squareRoot()
            let gx = ex / corner.x / k, gy = ey / corner.y / k
            let gradient = (gx * gx + gy * gy).squareRoot()
            return Edge(distance: (k - 1) / gradient, normal: (signX * gx / gradient, signY * gy / gradient))
        }
        // Otherwise the nearer side.
        let dx = ax - half.0, dy = ay - half.1
        if dx > dy { return Edge(distance: dx, normal: (signX, 0)) }
        return Edge(distance: dy, normal: (0, signY))
    }

    /// The fraction of a pixel inside an edge as the browser's rasterizer
    /// fills a shape (Skia's supersampling): on four scanlines across the pixel
    /// (at ⅛, ⅜, ⅝ and ⅞ of its height), the exact length inside along each,
    /// averaged. A nearly level edge thus covers a pixel by quarters, as the
    /// page's fills are drawn; outlines are covered exactly (``coverage(_:normal:)``).
    package static func scanlineCoverage(_ distance: Double, normal: (Double, Double)) -> Double {
        if distance <= -1 { return 1 }
        if distance >= 1 { return 0 }
        let across = abs(normal.0)
        var total = 0.0
        for offset in [-0.375, -0.125, 0.125, 0.375] {
            // The signed distance at the scanline's middle, and the length of it inside.
            let d = distance + normal.1 * offset
            if across < 1e-9 {
                total += d <= 0 ? 1 : 0
            } else {
                total += min(max(0.5 - d / across, 0), 1)
            }
        }
        return total / 4
    }

    /// The fraction of a unit pixel square, centred at signed distance
    /// `distance` (pixels, positive outside) from a straight edge with unit
    /// `normal`, that lies inside. Exact: with `a ≥ b` the normal's
    /// components' sizes, a point of the square at (u, v) from its centre
    /// lies at `distance + a·u + b·v`, and `a·u + b·v` for (u, v) uniform in
    /// the square has a trapezoidal density (a square of side 1 seen along the
    /// normal): quadratic where the edge cuts a corner, linear across the middle.
    package static func coverage(_ distance: Double, normal: (Double, Double)) -> Double {
        var a = abs(normal.0), b = abs(normal.1)
        if a < b { swap(&a, &b) }
        let x = -distance
        let half = (a + b) / 2
        if x <= -half { return 0 }
        if x >= half { return 1 }
        if b < 1e-9 { return min(max(0.5 + x / a, 0), 1) }
        let inner = (a - b) / 2
        if x < -inner {
            let t = x + half
            return t * t / (2 * a * b)
        }
        if x <= inner { return 0.5 + x / a }
        let t = half - x
        return 1 - t * t / (2 * a * b)
    }
}
