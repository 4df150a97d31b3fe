import AnimLang
import Animations

/// What a frame of an animation looks like, decided once per export
/// (docs/exports.md §1, §6 and §8): per view its shape, its fill, the properties
/// that move, scale, turn and fade it about its origin, where it stands and
/// where its label goes; one stage for the whole animation; the stretch an
/// endless one shows. The player page's stage and drawing rules, the web
/// export's drawing rules and the rasterizer of `animc render` read it; none
/// re-derives these rules.
///
/// ```swift
/// let model = RenderModel(export)          // a WebExport: its channels and their extents
/// model.views[0].shape                     // .circle(radius: dot.radius)
/// model.bounds                             // the stage, with its margin
/// ```
package struct RenderModel: Sendable {
    /// A side of a rectangle: a property's value, or a fixed length (px).
    package enum Side: Sendable, Equatable {
        case property(Property)
        case fixed(Double)
    }

    /// A view's shape (docs/exports.md §1): a circle when it has a number `radius`,
    /// else a rectangle of `width` and `height`, each falling back on `size`
    /// and then on ``Drawing/defaultSide``; a rectangle's corners are rounded
    /// by ``cornerRadius`` (px).
    package enum Shape: Sendable, Equatable {
        case circle(radius: Property)
        case rectangle(width: Side, height: Side)
    }

    /// What fills a shape: its `color` (or else `fill`) when it is a colour, else the palette's colour of its place.
    package enum Fill: Sendable, Equatable {
        case property(Property)
        case palette(Color)
    }

    /// Where a view's label goes (none in the clean view or a rendered frame).
    package enum Label: Sendable, Equatable {
        /// Under the shape, at `y` below its centre, moving with it.
        case below(y: Double)
        /// Fixed at the left end of its lane (stacked views), `x` from the home.
        case lane(x: Double)
    }

    package struct View: Sendable {
        package let name: String
        package let placement: Placement
        /// Where `x` and `y` are measured from: its `at`, or its place in the row.
        package let home: (x: Double, y: Double)
        package let shape: Shape
        package let fill: Fill
        /// The number properties that move, turn, scale and fade it (`nil` when it has none).
        package let x: Property?, y: Property?, rotation: Property?
        package let scale: Property?, scaleX: Property?, scaleY: Property?
        package let opacity: Property?
        package let label: Label?
        /// The properties its drawing shows, by name (``Drawing/properties`` of the right kind).
        package let drawn: [Property]
    }

    /// A view as an export describes it: its name, placement, the kind of each
    /// property it has and the extent of each number (``Extent``).
    package struct Input: Sendable {
        package let name: String
        package let placement: Placement
        package let kinds: [String: Value.Kind]
        package let extents: [String: ClosedRange<Double>]

        package init(name: String, placement: Placement, kinds: [String: Value.Kind], extents: [String: ClosedRange<Double>]) {
            self.name = name
            self.placement = placement
            self.kinds = kinds
            self.extents = extents
        }
    }

    /// The radius of a rectangle's corners (px), as the page's SVG rounds them.
    package static let cornerRadius = 4.0
    /// The width of every shape's outline (px, in the shape's own units: it scales with it).
    package static let outlineWidth = 1.0
    /// The outline's colour: black at a quarter (`rgba(0, 0, 0, 0.25)`).
    package static let outline = Color(red: 0, green: 0, blue: 0, alpha: 0.25)
    /// The stage's background.
    package static let background = Color(red: 255, green: 255, blue: 255)

    /// In first-mention order.
    package let views: [View]
    /// The stage: every position the animation reaches, the labels, and a margin (``Stage``).
    package let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// One above the other (labels in lanes), or side by side.
    package let stacked: Bool
    /// What a player shows: the duration, or for an animation that repeats
    /// forever (``isEndless``) its settled start and two of its longest period.
    package let window: Time
    package let isEndless: Bool

    package var width: Double { bounds.maxX - bounds.minX }
    package var height: Double { bounds.maxY - bounds.minY }

    package init(_ inputs: [Input], window: Time, isEndless: Bool) {
        let stage = Stage(inputs.map { input in
            var numbers: Set<String> = [], extents: [String: ClosedRange<Double>] = [:]
            for (name, kind) in input.kinds where kind == .number {
                numbers.insert(name)
                extents[name] = input.extents[name]
            }
            return StageView(name: input.name, placement: input.placement, numbers: numbers, extents: extents)
        })
        var views: [View] = []
        for (index, (input, spot)) in zip(inputs, stage.spots).enumerated() {
            func number(_ name: String) -> Property? {
                input.kinds[name] == .number ? Property(view: input.name, name: name) : nil
            }
            let shape = RenderModel.shape(of: input.name, kinds: input.kinds)
            let fill = RenderModel.fill(of: input.name, kinds: input.kinds, index: index)
            let label: Label?
            if !spot.labelled {
                label = nil
            } else if stage.stacked, input.placement.home == nil {
                label = .lane(x: spot.label.x)
            } else {
                label = .below(y: spot.label.y)
            }
            let drawn = input.kinds.keys.sorted().filter { name in
                Drawing.properties.contains(name) && (Drawing.colors.contains(name) ? input.kinds[name] == .color : true)
            }.map { Property(view: input.name, name: $0) }
            views.append(View(name: input.name, placement: input.placement, home: spot.home, shape: shape, fill: fill,
                              x: number("x"), y: number("y"), rotation: number("rotation"), scale: number("scale"),
                              scaleX: number("scale-x"), scaleY: number("scale-y"), opacity: number("opacity"),
                              label: label, drawn: drawn))
        }
        self.views = views
        bounds = stage.bounds
        stacked = stage.stacked
        self.window = window
        self.isEndless = isEndless
    }

    /// The shape of view `view` with properties of these kinds (docs/exports.md §1): a
    /// circle when `radius` is a number, else a rectangle whose sides are
    /// `width` and `height`, each else `size`, else ``Drawing/defaultSide``.
    package static func shape(of view: String, kinds: [String: Value.Kind]) -> Shape {
        func number(_ name: String) -> Property? { kinds[name] == .number ? Property(view: view, name: name) : nil }
        if let radius = number("radius") { return .circle(radius: radius) }
        func side(_ name: String) -> Side {
            (number(name) ?? number("size")).map(Side.property) ?? .fixed(Drawing.defaultSide)
        }
        return .rectangle(width: side("width"), height: side("height"))
    }

    /// The fill of the `index`-th view: its `color`, else its `fill` (the first of ``Drawing/colors`` in name
    /// order that holds colours), else the palette's colour of its place.
    package static func fill(of view: String, kinds: [String: Value.Kind], index: Int) -> Fill {
        Drawing.colors.sorted().first { kinds[$0] == .color }
            .map { Fill.property(Property(view: view, name: $0)) } ?? .palette(Drawing.paletteColor(index))
    }

    /// The model of a web export's stage: its views' channels and their
    /// extents (the one measure, ``ExportModel/extents(of:initial:)``), its window.
    package init(_ export: WebExport) {
        self.init(export.views.map { view in
            var kinds: [String: Value.Kind] = [:], extents: [String: ClosedRange<Double>] = [:]
            for channel in view.channels where kinds[channel.property.name] == nil {
                kinds[channel.property.name] = channel.kind
                if let extent = channel.extent { extents[channel.property.name] = extent }
            }
            return Input(name: view.name, placement: view.placement, kinds: kinds, extents: extents)
        }, window: export.duration, isEndless: export.endless != nil)
    }
}
