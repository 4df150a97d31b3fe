import AnimLang
import Animations

/// How views are drawn (docs/exports.md §1): the properties are the language's
/// (``Drawing/properties``); the square's default side and the palette are
/// here, for every output that draws (the player page and Lottie).
extension Drawing {
    /// The side of a square when a view has no `width`, `height` or `size`.
    static let defaultSide = 60.0
    /// Fill colours for views without `color` or `fill`, by first-mention
    /// order: Tableau's ten categorical colours, distinct and readable on white.
    static let palette: [Color] = [
        (78, 121, 167), (242, 142, 43), (225, 87, 89), (118, 183, 178), (89, 161, 79),
        (237, 201, 72), (176, 122, 161), (255, 157, 167), (156, 117, 95), (186, 176, 172),
    ].map { Color(red: $0.0, green: $0.1, blue: $0.2) }

    /// The palette's colour of the `index`-th view.
    static func paletteColor(_ index: Int) -> Color {
        palette[index % palette.count]
    }

    /// `#4e79a7`: an opaque colour of whole channels, as a page's CSS writes it.
    package static func hex(_ color: Color) -> String {
        let digits = Array("0123456789abcdef")
        var out = "#"
        for channel in [color.red, color.green, color.blue] {
            let byte = Int(min(max(channel.rounded(), 0), 255))
            out.append(digits[byte / 16])
            out.append(digits[byte % 16])
        }
        return out
    }
}

extension Drawing {
    /// A property's name as the outputs that list properties (the plot's
    /// panels, the terminal player's rows) show it, with what the stage
    /// draws it from (docs/exports.md §6): `x` and `y` of a view with `at` are
    /// offsets from its home (`dot.x (at 120)`), and `scale`, `scale-x`,
    /// `scale-y` and `rotation` of a view with an origin off the centre turn
    /// about it (`bar.scale-x (about left)`, `(about 0.2, 0.8)`).
    static func label(of property: Property, placement: Placement?) -> String {
        let name = property.description
        guard let placement else { return name }
        switch property.name {
        case "x": return placement.home.map { name + " (at \(formatNumber($0.x)))" } ?? name
        case "y": return placement.home.map { name + " (at \(formatNumber($0.y)))" } ?? name
        case "scale", "scale-x", "scale-y", "rotation":
            let origin = placement.origin
            guard origin != (0.5, 0.5) else { return name }
            let word = Placement.originWords.first { $0.x == origin.x && $0.y == origin.y }?.word
            return name + " (about " + (word ?? formatNumber(origin.x) + ", " + formatNumber(origin.y)) + ")"
        default:
            return name
        }
    }
}

/// A view as the stage lays it out: its name, where it stands, its number
/// properties (`radius` makes it a circle), and the least and greatest
/// finite number each takes (none when it takes none).
struct StageView {
    let name: String
    let placement: Placement
    /// The names of its number properties.
    let numbers: Set<String>
    /// Keyed by property name, each of ``measured`` it has (``Extent``).
    let extents: [String: ClosedRange<Double>]

    /// The properties whose extents the layout reads.
    static let measured = ["x", "y", "radius", "width", "height", "size", "scale", "scale-x", "scale-y", "rotation"]

    /// Whether it is drawn as a circle: ``RenderModel/shape(of:kinds:)`` decides, from its number properties.
    var isCircle: Bool {
        var kinds: [String: Value.Kind] = [:]
        for name in numbers { kinds[name] = .number }
        if case .circle = RenderModel.shape(of: name, kinds: kinds) { return true }
        return false
    }
}

/// Where each view sits and how big the stage is (docs/exports.md §1, §6): the
/// one layout of the player page and the Lottie export. Views with `at`
/// stand at their home; the others sit side by side in a row, or one above
/// the other when they travel sideways (so their paths do not cross), each
/// clear of the next at its largest; the stage holds every position the
/// animation reaches, and (`labels`) the labels, with a margin.
struct Stage {
    struct Spot {
        let home: (x: Double, y: Double)
        let isCircle: Bool
        /// Whether its label is drawn: not when it shares its `at` home with another view (the labels would overlap).
        let labelled: Bool
        /// Row: below the centre, clear of the shape at its largest (it follows the view).
        /// Stack: left of the lane, clear of every position (it stays).
        let label: (x: Double, y: Double)
    }

    /// One per view, in order.
    let spots: [Spot]
    let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// One above the other (labels fixed at the left of their lanes), or side by side (labels under the shapes).
    let stacked: Bool

    /// The smallest zoom the page shows the stage at; labels keep their size
    /// on screen, so they take up to 1 / minimumZoom times their room at zoom 1.
    static let minimumZoom = 0.6
    /// The space between two views of the row, and around everything.
    static let gap = 28.0

    init(_ views: [StageView], labels: Bool = true, margin: Double = Stage.gap) {
        let gap = Stage.gap
        let labelGrowth = 1 / Stage.minimumZoom
        let labelHeight = labels ? 16.0 * labelGrowth : 0
        func labelWidth(_ name: String) -> Double { labels ? (Double(name.count) * 7.4 + 6) * labelGrowth : 0 }
        func largest(_ range: ClosedRange<Double>) -> Double { max(abs(range.lowerBound), abs(range.upperBound)) }
        // Each view's reach around its home: every position its shape takes.
        var reaches: [(minX: Double, minY: Double, maxX: Double, maxY: Double, circle: Bool, half: Double)] = []
        var travelX = 0.0, travelY = 0.0
        for view in views {
            func extent(_ name: String, default value: Double) -> ClosedRange<Double> { view.extents[name] ?? value...value }
            let circle = view.isCircle
            var halfWidth: Double, halfHeight: Double
            if circle {
                halfWidth = largest(extent("radius", default: 30))
                halfHeight = halfWidth
            } else {
                let size = largest(extent("size", default: Drawing.defaultSide))
                halfWidth = largest(view.extents["width"] ?? size...size) / 2
                halfHeight = largest(view.extents["height"] ?? size...size) / 2
            }
            // About the origin (its offset from the centre), scaled per axis, and turned: the farthest corner.
            let origin = view.placement.origin
            let offsetX = abs(origin.x - 0.5) * 2 * halfWidth, offsetY = abs(origin.y - 0.5) * 2 * halfHeight
            let scale = largest(extent("scale", default: 1))
            let scaleX = scale * largest(extent("scale-x", default: 1)), scaleY = scale * largest(extent("scale-y", default: 1))
            if !circle || offsetX > 0 || offsetY > 0, view.numbers.contains("rotation"), view.extents["rotation"] != 0...0 {
                let corner = ((halfWidth + offsetX) * (halfWidth + offsetX) + (halfHeight + offsetY) * (halfHeight + offsetY)).squareRoot()
                halfWidth = offsetX + max(scaleX, scaleY) * corner
                halfHeight = offsetY + max(scaleX, scaleY) * corner
            } else {
                halfWidth = offsetX + scaleX * (halfWidth + offsetX)
                halfHeight = offsetY + scaleY * (halfHeight + offsetY)
            }
            let x = extent("x", default: 0), y = extent("y", default: 0)
            if view.placement.home == nil {
                travelX = max(travelX, x.upperBound - x.lowerBound)
                travelY = max(travelY, y.upperBound - y.lowerBound)
            }
            reaches.append((x.lowerBound - halfWidth, y.lowerBound - halfHeight, x.upperBound + halfWidth, y.upperBound + halfHeight,
                            circle, halfHeight))
        }
        // Side by side, or stacked when the views travel sideways, so that their paths do not cross.
        let stacked = travelX > travelY
        var homes: [String: Int] = [:]
        for view in views {
            if let home = view.placement.home { homes["\(home.x),\(home.y)", default: 0] += 1 }
        }
        var spots: [Spot] = []
        var cursor = 0.0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (index, view) in views.enumerated() {
            let reach = reaches[index]
            var box = (reach.minX, reach.minY, reach.maxX, reach.maxY)
            let label: (x: Double, y: Double)
            var labelled = labels
            if let given = view.placement.home {
                // Where `at` puts it: out of the row, its label (when alone there) under it.
                labelled = labels && homes["\(given.x),\(given.y)", default: 0] < 2
                label = (0, reach.half + 8)
                if labelled {
                    let halfLabel = labelWidth(view.name) / 2
                    box.0 = min(box.0, reach.minX + (reach.maxX - reach.minX) / 2 - halfLabel)
                    box.2 = max(box.2, reach.minX + (reach.maxX - reach.minX) / 2 + halfLabel)
                    box.3 = max(box.3, reach.maxY + 8 + labelHeight)
                }
            } else if stacked {
                label = (reach.minX - 10, 0)
                if labels {
                    box.0 -= labelWidth(view.name) + 10
                    box.1 = min(box.1, -labelHeight / 2)
                    box.3 = max(box.3, labelHeight / 2)
                }
            } else {
                label = (0, reach.half + 8)
                if labels {
                    let halfLabel = labelWidth(view.name) / 2
                    box.0 = min(box.0, reach.minX + (reach.maxX - reach.minX) / 2 - halfLabel)
                    box.2 = max(box.2, reach.minX + (reach.maxX - reach.minX) / 2 + halfLabel)
                    box.3 = reach.maxY + 8 + labelHeight
                }
            }
            let home: (x: Double, y: Double)
            if let given = view.placement.home {
                home = given
            } else if stacked {
                home = (0, cursor - box.1)
                cursor = home.y + box.3 + gap
            } else {
                home = (cursor - box.0, 0)
                cursor = home.x + box.2 + gap
            }
            // (A reach beyond the numbers, say a home near 1e308 and its scale, leaves the stage as the others make it.)
            if [home.x + box.0, home.y + box.1, home.x + box.2, home.y + box.3].allSatisfy(\.isFinite) {
                minX = min(minX, home.x + box.0)
                minY = min(minY, home.y + box.1)
                maxX = max(maxX, home.x + box.2)
                maxY = max(maxY, home.y + box.3)
            }
            spots.append(Spot(home: home, isCircle: reach.circle, labelled: labelled, label: label))
        }
        if spots.isEmpty || ![minX, minY, maxX, maxY].allSatisfy(\.isFinite) { (minX, minY, maxX, maxY) = (0, 0, 240, 120) }
        self.spots = spots
        self.stacked = stacked
        bounds = (minX - margin, minY - margin, maxX + margin, maxY + margin)
    }
}
