import AnimLang
import Animations

/// A view at one instant, as the stage draws it: everything the
/// rasterizer needs, in stage pixels (docs/exports.md §1, §6).
package struct DrawnView: Sendable, Equatable {
    package enum Shape: Sendable, Equatable {
        case circle(radius: Double)
        case rectangle(width: Double, height: Double)
    }

    /// Its home moved by `x` and `y`: where the shape's centre stands before it scales and turns.
    package var centre: (x: Double, y: Double)
    package var shape: Shape
    /// The fill, straight (channels 0–255, alpha 0–1).
    package var fill: Color
    /// Degrees, clockwise on the stage (y points down).
    package var rotation: Double
    /// `scale` times `scale-x`, and times `scale-y`.
    package var scaleX: Double, scaleY: Double
    /// The point it scales and turns about, in fractions of its box.
    package var origin: (x: Double, y: Double)
    /// Clamped to [0, 1].
    package var opacity: Double

    package init(centre: (x: Double, y: Double), shape: Shape, fill: Color, rotation: Double = 0, scaleX: Double = 1,
                 scaleY: Double = 1, origin: (x: Double, y: Double) = (0.5, 0.5), opacity: Double = 1) {
        self.centre = centre
        self.shape = shape
        self.fill = fill
        self.rotation = rotation
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.origin = origin
        self.opacity = opacity
    }

    package static func == (lhs: DrawnView, rhs: DrawnView) -> Bool {
        lhs.centre == rhs.centre && lhs.shape == rhs.shape && lhs.fill == rhs.fill && lhs.rotation == rhs.rotation
            && lhs.scaleX == rhs.scaleX && lhs.scaleY == rhs.scaleY && lhs.origin == rhs.origin && lhs.opacity == rhs.opacity
    }
}

/// The views of a render model at any instant: the compiled scene sampled
/// exactly (what `animc eval` prints), read through the model's choices.
/// Made once per render; each frame reuses its row.
package struct FrameSampler {
    package let model: RenderModel
    private let sampler: RowSampler
    /// Per view, the column of each of its drawn numbers (`nil`: it has none).
    private let slots: [Slots]
    private var row: [Value] = []

    private struct Slots {
        var x, y, rotation, scale, scaleX, scaleY, opacity: Int?
        var radius, width, height: Int?
        var fill: Int?
    }

    package init(_ model: RenderModel, scene: CompiledScene, initial: [Property: Value]) {
        self.model = model
        sampler = scene.sampler(initial: initial)
        var index: [Property: Int] = [:]
        for (column, property) in sampler.columns.enumerated() { index[property] = column }
        func slot(_ property: Property?) -> Int? { property.flatMap { index[$0] } }
        slots = model.views.map { view in
            var slots = Slots(x: slot(view.x), y: slot(view.y), rotation: slot(view.rotation), scale: slot(view.scale),
                              scaleX: slot(view.scaleX), scaleY: slot(view.scaleY), opacity: slot(view.opacity))
            switch view.shape {
            case .circle(let radius): slots.radius = slot(radius)
            case .rectangle(let width, let height):
                if case .property(let property) = width { slots.width = slot(property) }
                if case .property(let property) = height { slots.height = slot(property) }
            }
            if case .property(let property) = view.fill { slots.fill = slot(property) }
            return slots
        }
    }

    /// Every view at `t`, in drawing order. A finite animation holds its
    /// last values after its end, as the page's player does.
    package mutating func views(at t: Time) -> [DrawnView] {
        sampler.sample(at: t, into: &row)
        var out: [DrawnView] = []
        out.reserveCapacity(slots.count)
        for (view, slots) in zip(model.views, slots) {
            // A number the page's registered custom property cannot hold falls back on its initial value, 0.
            func number(_ slot: Int?, _ otherwise: Double) -> Double {
                guard let slot else { return otherwise }
                guard slot < row.count, case .number(let value) = row[slot] else { return otherwise }
                return value.isFinite ? value : 0
            }
            let shape: DrawnView.Shape
            switch view.shape {
            case .circle: shape = .circle(radius: number(slots.radius, 0))
            case .rectangle(let width, let height):
                func side(_ side: RenderModel.Side, _ slot: Int?) -> Double {
                    switch side {
                    case .fixed(let length): return length
                    case .property: return number(slot, 0)
                    }
                }
                shape = .rectangle(width: side(width, slots.width), height: side(height, slots.height))
            }
            let fill: Color
            switch view.fill {
            case .palette(let color): fill = color
            case .property:
                if let slot = slots.fill, slot < row.count, case .color(let color) = row[slot] {
                    fill = color
                } else {
                    fill = Color(red: 0, green: 0, blue: 0, alpha: 0)
                }
            }
            let scale = number(slots.scale, 1)
            out.append(DrawnView(centre: (RenderModel.onPage(view.home.x) + number(slots.x, 0), RenderModel.onPage(view.home.y) + number(slots.y, 0)),
                                 shape: shape, fill: fill, rotation: number(slots.rotation, 0),
                                 scaleX: scale * number(slots.scaleX, 1), scaleY: scale * number(slots.scaleY, 1),
                                 origin: view.placement.origin, opacity: min(max(number(slots.opacity, 1), 0), 1)))
        }
        return out
    }
}

extension RenderModel {
    /// A length as the page writes it: to the hundredth of a pixel.
    package static func onPage(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }

    /// The stage as the page's `viewBox` writes it (each number to the hundredth).
    package var viewBox: (x: Double, y: Double, width: Double, height: Double) {
        (RenderModel.onPage(bounds.minX), RenderModel.onPage(bounds.minY), RenderModel.onPage(width), RenderModel.onPage(height))
    }
}

/// What `animc render` draws from an evaluated file: the frames of its
/// binding, or why there are none.
package enum RenderSubject {
    /// The views at any instant (``FrameSampler``); `duration` is the
    /// animation's (its finite part's, when it repeats forever).
    case frames(FrameSampler, duration: Time, isInfinite: Bool)
    /// The binding is cancelled: nothing to draw.
    case cancelled(binding: String)
    /// It cannot be drawn (located at the binding).
    case failed(Diagnostic)
}

/// The render model of an evaluated file's binding, laid out as the player
/// page lays out its stage (from the web export's extents), and its
/// sampler; `nil` when the file has errors (reported already).
package func renderSubject(_ outcome: Outcome) -> RenderSubject? {
    switch exportSubject(outcome) {
    case nil: return nil
    case .failed(let error)?: return .failed(error)
    case .cancelled(let binding, _, _)?: return .cancelled(binding: binding)
    case .model(let model)?:
        let export: WebExport
        do {
            (export, _) = try WebExport.make(model, source: "")
        } catch {
            return .failed(foreverError(error, binding: model.binding, at: model.range, relative: model.scene.repeatsRelativeTweens))
        }
        let sampler = FrameSampler(RenderModel(export), scene: model.scene, initial: model.initial)
        return .frames(sampler, duration: model.scene.duration, isInfinite: model.scene.isInfinite)
    }
}
