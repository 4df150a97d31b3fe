import AnimJSON
import AnimLang
import Animations

// Where the Lottie exporter's properties come from: each drawn property of a
// view as a ``TrackSource`` (its pieces, mapped into Lottie's units, and a
// sampler), for ``KeyframeBuilder``.

extension LottieExporter {
    // MARK: Values

    /// The value of a property at an instant, as `animc eval` gives it (exact at exact instants).
    func value(_ property: Property, at instant: Instant) -> Value? {
        if let compression { return compression.scene.value(of: property, at: compression.sceneTime(instant), initial: initial[property]) }
        guard let compiled else { return initial[property] }
        if let exact = instant.exact { return compiled.value(of: property, at: exact, initial: initial[property]) }
        return compiled.value(of: property, atSeconds: instant.seconds, initial: initial[property])
    }

    /// The pieces of a property's timeline (on the asset's clock while a view
    /// drawn through a time remap is built).
    func pieces(of property: Property) -> [Piece] {
        if let compression { return compression.pieces(of: property, initial: initial[property]) }
        return compiled?.pieces(of: property, initial: initial[property]) ?? []
    }

    /// A number property seen through an affine map into a Lottie property's
    /// values (clamped to `allowed`); `fallback` when the view lacks it.
    func numberSource(_ property: Property?, fallback: Double, allowed: ClosedRange<Double>? = nil,
                              _ map: @escaping (Double) -> [Double]) -> TrackSource {
        let clamp: ([Double]) -> [Double] = { values in
            guard let allowed else { return values }
            return values.map { min(max($0, allowed.lowerBound), allowed.upperBound) }
        }
        let dimension = map(0).count
        guard let property else {
            return TrackSource(dimension: dimension, pieces: [], sample: { _ in clamp(map(fallback)) }, allowed: allowed)
        }
        let pieces: [TrackPiece] = pieces(of: property).map { piece in
            switch piece.rule {
            case .hold(let value):
                // A number property (the callers pass no other); the view's default stands in otherwise.
                return trackPiece(piece, property, .hold(clamp(map(value.number ?? fallback))))
            case .tween(let from, let to, let easing, let p0, let p1):
                guard let a = from.number, let b = to.number else { return trackPiece(piece, property, .sampled) }
                return trackPiece(piece, property, .tween(from: map(a), to: map(b), easing: easing, p0: p0, p1: p1))
            case .sampled:
                return trackPiece(piece, property, .sampled)
            }
        }
        // No value before the property is first given one: the view's default, as a player shows it.
        let sample: (Instant) -> [Double] = { instant in clamp(map(self.value(property, at: instant)?.number ?? fallback)) }
        return TrackSource(dimension: dimension, pieces: pieces, sample: sample, allowed: allowed)
    }

    /// The fill colour's channels (0–1, and alpha 1: the fill's opacity carries alpha).
    func colorSource(_ property: Property?, fallback: Color) -> TrackSource {
        let channels = lottieFillChannels
        func shown(_ value: Value?) -> Color {
            if case .color(let color)? = value { return color.clamped }
            return fallback
        }
        guard let property else {
            return TrackSource(dimension: 4, pieces: [], sample: { _ in channels(fallback) }, allowed: 0...1)
        }
        let pieces: [TrackPiece] = pieces(of: property).map { piece in
            switch piece.rule {
            case .hold(let value):
                return trackPiece(piece, property, .hold(channels(shown(value))))
            case .tween(.color(let a), .color(let b), let easing, let p0, let p1) where a.alpha == b.alpha && a.alpha > 0:
                // Equal alphas: premultiplied mixing is plain mixing, which Lottie does.
                return trackPiece(piece, property, .tween(from: channels(a), to: channels(b), easing: easing, p0: p0, p1: p1))
            case .tween, .sampled:
                return trackPiece(piece, property, .sampled)
            }
        }
        return TrackSource(dimension: 4, pieces: pieces, sample: { instant in channels(shown(self.value(property, at: instant))) },
                           allowed: 0...1)
    }

    /// The fill's opacity: the colour's alpha × 100 (alpha mixes linearly, premultiplied or not).
    func alphaSource(_ property: Property?) -> TrackSource {
        func percent(_ value: Value?) -> [Double] {
            if case .color(let color)? = value { return [color.clamped.alpha * 100] }
            return [100]
        }
        guard let property else { return TrackSource(dimension: 1, pieces: [], sample: { _ in [100] }, allowed: 0...100) }
        let pieces: [TrackPiece] = pieces(of: property).map { piece in
            switch piece.rule {
            case .hold(let value):
                return trackPiece(piece, property, .hold(percent(value)))
            case .tween(.color(let a), .color(let b), let easing, let p0, let p1):
                return trackPiece(piece, property, .tween(from: [a.alpha * 100], to: [b.alpha * 100], easing: easing, p0: p0, p1: p1))
            case .tween, .sampled:
                return trackPiece(piece, property, .sampled)
            }
        }
        return TrackSource(dimension: 1, pieces: pieces, sample: { instant in percent(self.value(property, at: instant)) }, allowed: 0...100)
    }

    /// The rectangle's `[width, height]`: one property (`size`, or one side
    /// animated and the other fixed) keeps its pieces; two animated sides are
    /// sampled where either moves.
    func sizeSource(_ view: View) -> TrackSource {
        let size = LottieExport.defaultSize
        let widthSource = numberSource(view.width, fallback: size) { [$0] }
        let heightSource = numberSource(view.height, fallback: size) { [$0] }
        if view.width == view.height {
            return numberSource(view.width, fallback: size) { [$0, $0] }
        }
        let sample: (Instant) -> [Double] = { instant in widthSource.sample(instant) + heightSource.sample(instant) }
        if heightSource.pieces.isEmpty {
            let fixed = heightSource.sample(Instant(.zero))[0]
            return numberSource(view.width, fallback: size) { [$0, fixed] }
        }
        if widthSource.pieces.isEmpty {
            let fixed = widthSource.sample(Instant(.zero))[0]
            return numberSource(view.height, fallback: size) { [fixed, $0] }
        }
        // Both sides move on timelines of their own.
        return joined([widthSource, heightSource], dimension: 2, sample: sample)
    }

    /// A value made of several sources that move on timelines of their own:
    /// one piece per stretch where none has a breakpoint, held where all
    /// hold, else sampled.
    func joined(_ sources: [TrackSource], dimension: Int, sample: @escaping (Instant) -> [Double]) -> TrackSource {
        let all = sources.flatMap(\.pieces)
        var points = all.flatMap { [$0.start, $0.end] }
        points.sort()
        var unique: [Instant] = []
        for point in points where unique.last != point { unique.append(point) }
        let pieces = zip(unique, unique.dropFirst()).map { start, end -> TrackPiece in
            let holds = sources.allSatisfy { source in
                source.pieces.isEmpty || source.pieces.contains { piece in
                    guard !(start < piece.start), !(piece.end < end) else { return false }
                    if case .hold = piece.rule { return true }
                    return false
                }
            }
            // Any source's soonest turn holds for all.
            let halfTurn = all.filter { $0.start < end && start < $0.end }.compactMap(\.halfTurn).min()
            return TrackPiece(start: start, end: end, rule: holds ? .hold(sample(start < end ? start : end)) : .sampled,
                              halfTurn: holds ? nil : halfTurn)
        }
        // A hold's value is read inside it (its start may be a jump's instant).
        let fixedPieces = pieces.map { piece -> TrackPiece in
            guard case .hold = piece.rule else { return piece }
            let middle = Instant.midpoint(piece.start, piece.end)
            return TrackPiece(start: piece.start, end: piece.end, rule: .hold(sample(middle)))
        }
        return TrackSource(dimension: dimension, pieces: fixedPieces, sample: sample, allowed: nil)
    }

    /// `source` through an affine map (a tween stays a tween of the mapped ends).
    func mapped(_ source: TrackSource, _ map: @escaping ([Double]) -> [Double]) -> TrackSource {
        let pieces = source.pieces.map { piece -> TrackPiece in
            let rule: TrackPiece.Rule
            switch piece.rule {
            case .hold(let value): rule = .hold(map(value))
            case .tween(let from, let to, let easing, let p0, let p1): rule = .tween(from: map(from), to: map(to), easing: easing, p0: p0, p1: p1)
            case .sampled: rule = .sampled
            }
            return TrackPiece(start: piece.start, end: piece.end, rule: rule, halfTurn: piece.halfTurn)
        }
        return TrackSource(dimension: map(source.sample(Instant(.zero))).count, pieces: pieces, sample: { map(source.sample($0)) },
                           allowed: nil)
    }

    /// Lottie's scale (×100 % per axis): `scale` times `scale-x` and `scale-y`.
    /// One that moves alone keeps its curve; several moving together are joined.
    func scaleSource(_ view: View, _ property: (String) -> Property?) -> TrackSource {
        let scale = property("scale"), scaleX = property("scale-x"), scaleY = property("scale-y")
        guard scaleX != nil || scaleY != nil else {
            return numberSource(scale, fallback: 1) { [100 * $0, 100 * $0] }
        }
        let sources = [scale, scaleX, scaleY].map { numberSource($0, fallback: 1) { [$0] } }
        let sample: (Instant) -> [Double] = { instant in
            let s = sources.map { $0.sample(instant)[0] }
            return [100 * s[0] * s[1], 100 * s[0] * s[2]]
        }
        let moving = sources.indices.filter { !sources[$0].pieces.isEmpty }
        guard moving.count == 1, let only = moving.first else {
            return moving.isEmpty ? TrackSource(dimension: 2, pieces: [], sample: sample, allowed: nil)
                : joined(sources, dimension: 2, sample: sample)
        }
        let fixed = sources.map { $0.sample(Instant(.zero))[0] }
        let moved = [scale, scaleX, scaleY][only]
        return numberSource(moved, fallback: 1) { value in
            var factors = fixed
            factors[only] = value
            return [100 * factors[0] * factors[1], 100 * factors[0] * factors[2]]
        }
    }
}
