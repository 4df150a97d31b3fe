import AnimJSON
import AnimLang
import Animations

// The Lottie exporter's stage (homes and size) and its shape layers.

extension LottieExporter {
    // MARK: Stage

    /// Homes as the player page lays them out (``Stage``, without labels:
    /// Lottie draws none), from how far each drawn property reaches;
    /// then everything shifted so the stage (with its margin) holds every
    /// position the animation reaches (with `at`, only as far as needed).
    func layOut(_ views: inout [View]) -> (width: Double, height: Double) {
        guard !views.isEmpty else { return (100, 100) }
        // The one measure of the animation as compiled (not the round an endless one loops, which
        // reaches no further): the page and the rasterizer size their stage by it too.
        let measured = ExportModel.extents(of: model?.scene, initial: initial)
        let stageViews = views.map { view in
            var numbers: Set<String> = [], extents: [String: ClosedRange<Double>] = [:]
            for name in StageView.measured {
                let property = Property(view: view.name, name: name)
                guard has(property), !isColor(property) else { continue }
                numbers.insert(name)
                extents[name] = measured[property]
            }
            return StageView(name: view.name, placement: view.placement, numbers: numbers, extents: extents)
        }
        let stage = LottieExporter.stage(stageViews)
        for index in views.indices { views[index].home = stage.homes[index] }
        return (stage.width, stage.height)
    }

    /// Lottie's stage for views that reach as far as `views` say: each
    /// view's home and the size (``Stage`` without labels), shifted so the
    /// stage with its margin holds every position (with `at`, only as far
    /// as needed), on whole pixels.
    static func stage(_ views: [StageView]) -> (homes: [(x: Double, y: Double)], width: Double, height: Double) {
        let stage = Stage(views, labels: false, margin: LottieExport.margin)
        var shift = (x: (-stage.bounds.minX).rounded(.up), y: (-stage.bounds.minY).rounded(.up))
        if views.contains(where: { $0.placement.home != nil }) {
            // `at` gives stage coordinates: kept, unless something would be cut off at the top or left.
            shift = (max(0, shift.x), max(0, shift.y))
        }
        let homes = zip(views, stage.spots).map { view, spot in
            // On whole pixels (within the margin), but for a home `at` gives.
            view.placement.home != nil ? (x: spot.home.x + shift.x, y: spot.home.y + shift.y)
                : (x: (spot.home.x + shift.x).rounded(), y: (spot.home.y + shift.y).rounded())
        }
        return (homes, max(1, (stage.bounds.maxX + shift.x).rounded(.up)), max(1, (stage.bounds.maxY + shift.y).rounded(.up)))
    }

    // MARK: Layers

    struct NotFinite: Error {
        let property: String
    }

    /// Names for the distinct keyframe curves of the document (`n`, "c0", "c1", …).
    ///
    /// ThorVG shares one interpolator between keyframes whose handles agree
    /// to two decimals, unless a keyframe names its easing: without names,
    /// nearly equal curves would play as one. lottie-web keys its curves by
    /// the handles themselves (written as arrays, it ignores `n`).
    struct CurveNames {
        var names: [UnitBezier: String] = [:]

        mutating func name(_ curve: UnitBezier) -> String {
            if let known = names[curve] { return known }
            let name = "c\(names.count)"
            names[curve] = name
            return name
        }
    }

    /// A view's shape layer, shown from `firstFrame` to `frames`. Inside a
    /// time-remapped asset it starts a frame early: a jump's lead makes the
    /// remapped clock read a hair below 0 at a copy's first frame
    /// (-2e-16 in lottie-web), and a layer before its `ip` is hidden there.
    func layer(_ view: View, frames: Int, firstFrame: Double = 0, builder: inout KeyframeBuilder,
               curves: inout CurveNames) throws -> JSON {
        func property(_ key: String) -> Property? {
            let property = Property(view: view.name, name: key)
            return view.used.contains(property) ? property : nil
        }
        func animated(_ source: TrackSource, _ label: String, builder: inout KeyframeBuilder) throws -> JSON {
            let track = try builder.track(source)
            switch track {
            case .fixed(let value):
                guard value.allSatisfy(\.isFinite) else { throw NotFinite(property: label) }
                return .object([("a", .number(0)), ("k", value.count == 1 ? .number(value[0]) : .numbers(value))])
            case .keyed(let keys):
                var out: [JSON] = []
                let digits = Digits(keys.map(\.value))
                for (index, key) in keys.enumerated() {
                    guard key.value.allSatisfy(\.isFinite) else { throw NotFinite(property: label) }
                    let value = key.baked ? key.value.map(digits.value) : key.value
                    var members: [(String, JSON)] = [("t", .number(key.frame)), ("s", .numbers(value))]
                    if index + 1 < keys.count {
                        if let curve = key.curve.map({ key.baked ? Digits.handles($0) : $0 }) {
                            // One handle for every dimension: both players read a number as all of them.
                            members.append(("o", .object([("x", .number(curve.x1)), ("y", .number(curve.y1))])))
                            members.append(("i", .object([("x", .number(curve.x2)), ("y", .number(curve.y2))])))
                            members.append(("n", .string(curves.name(curve))))
                        } else {
                            members.append(("h", .number(1)))
                        }
                    }
                    out.append(.object(members))
                }
                return .object([("a", .number(1)), ("k", .array(out))])
            }
        }
        // The origin: its offset from the shape's centre (the box at the start), the layer's anchor, and added to the position.
        // The origin: its offset from the shape's centre, the layer's anchor, and added to the position
        // (both move with the box when its size does).
        let box = view.radius.map { radius in numberSource(radius, fallback: 0) { [2 * $0, 2 * $0] } } ?? sizeSource(view)
        let origin = view.placement.origin
        let offset = { (box: [Double]) in [(origin.x - 0.5) * box[0], (origin.y - 0.5) * box[1]] }
        let label = { (key: String) in "\(view.name).\(key)" }
        let anchor: JSON
        let x: JSON, y: JSON
        if box.pieces.isEmpty || origin == (0.5, 0.5) {
            let fixedOffset = offset(box.sample(Instant(.zero))).map { $0 == 0 ? 0 : $0 }
            anchor = .object([("a", .number(0)), ("k", .numbers(fixedOffset))])
            let home = (x: view.home.x + fixedOffset[0], y: view.home.y + fixedOffset[1])
            x = try animated(numberSource(property("x"), fallback: 0) { [home.x + $0] }, label("x"), builder: &builder)
            y = try animated(numberSource(property("y"), fallback: 0) { [home.y + $0] }, label("y"), builder: &builder)
        } else {
            anchor = try animated(mapped(box, offset), label("origin"), builder: &builder)
            let home = view.home
            func position(_ key: String, _ axis: Int, _ start: Double) throws -> JSON {
                let moved = numberSource(property(key), fallback: 0) { [$0] }
                return try animated(joined([moved, box], dimension: 1) { instant in
                    [start + moved.sample(instant)[0] + offset(box.sample(instant))[axis]]
                }, label(key), builder: &builder)
            }
            x = try position("x", 0, home.x)
            y = try position("y", 1, home.y)
        }
        let rotation = try animated(numberSource(property("rotation"), fallback: 0) { [$0] }, label("rotation"), builder: &builder)
        let scale = try animated(scaleSource(view, property), label("scale"), builder: &builder)
        let opacity = try animated(numberSource(property("opacity"), fallback: 1, allowed: 0...100) { [100 * $0] },
                                   label("opacity"), builder: &builder)
        let shape: JSON
        if let radius = view.radius {
            let size = try animated(numberSource(radius, fallback: 0) { [2 * $0, 2 * $0] }, radius.description, builder: &builder)
            shape = .object([("ty", .string("el")), ("nm", .string("ellipse")), ("d", .number(1)),
                             ("p", .object([("a", .number(0)), ("k", .numbers([0, 0]))])), ("s", size)])
        } else {
            let size = try animated(sizeSource(view), label("size"), builder: &builder)
            shape = .object([("ty", .string("rc")), ("nm", .string("rectangle")), ("d", .number(1)),
                             ("p", .object([("a", .number(0)), ("k", .numbers([0, 0]))])), ("s", size),
                             ("r", .object([("a", .number(0)), ("k", .number(0))]))])
        }
        let palette = Drawing.paletteColor(view.index)
        let colorLabel = view.color?.description ?? label("color")
        let fill = JSON.object([
            ("ty", .string("fl")), ("nm", .string("fill")),
            ("c", try animated(colorSource(view.color, fallback: palette), colorLabel, builder: &builder)),
            ("o", try animated(alphaSource(view.color), colorLabel, builder: &builder)),
            ("r", .number(1)),
        ])
        let fixed = { (value: JSON) in JSON.object([("a", .number(0)), ("k", value)]) }
        let groupTransform = JSON.object([
            ("ty", .string("tr")), ("p", fixed(.numbers([0, 0]))), ("a", fixed(.numbers([0, 0]))),
            ("s", fixed(.numbers([100, 100]))), ("r", fixed(.number(0))), ("o", fixed(.number(100))),
            ("sk", fixed(.number(0))), ("sa", fixed(.number(0))),
        ])
        let transform = JSON.object([
            ("o", opacity), ("r", rotation), ("p", .object([("s", .bool(true)), ("x", x), ("y", y)])),
            ("a", anchor), ("s", scale),
        ])
        return .object([
            ("ddd", .number(0)), ("ind", .number(Double(view.index + 1))), ("ty", .number(4)), ("nm", .string(view.name)),
            ("sr", .number(1)), ("ks", transform), ("ao", .number(0)),
            ("shapes", .array([.object([("ty", .string("gr")), ("nm", .string("shape")), ("it", .array([shape, fill, groupTransform]))])])),
            ("ip", .number(firstFrame)), ("op", .number(Double(frames))), ("st", .number(0)), ("bm", .number(0)),
        ])
    }
}
