import Animations

// Jumps inside a time-remapped asset (LottieKeyframes.swift, LottieRepeats.swift):
// a jump there leads by the scene's single-precision steps, and the curve
// before it arrives where the jump's keyframes go.

extension KeyframeBuilder.Plan {
    /// In a time-remapped asset, the spans, each that ends in a jump cut
    /// short where the jump's keyframes go (``KeyframeBuilder/jumpLead(at:)``,
    /// the scene's steps), when the value there is off its end by more
    /// than the bake tolerance: the curve then arrives at its own value
    /// there instead of being squeezed into the shorter time (0.0625
    /// frames at frame 180,000 bent an ease-in-quart by 1e-4). Elsewhere
    /// a lead is a few steps of a span's own frame, too short to matter,
    /// and the spans stay whole.
    func arrivingEarly(_ spans: [KeyframeBuilder.Span], _ boundaries: [KeyframeBuilder.Boundary]) -> [KeyframeBuilder.Span] {
        var result = spans
        for (index, span) in spans.enumerated() {
            let at = span.end.seconds
            let lead = builder.jumpLead(at: at)
            guard builder.remappedFrom > abs(at), at - lead > span.start.seconds else { continue }
            let next: [Double]
            if index + 1 < spans.count {
                next = shownFirst(spans[index + 1], at: boundaries[index + 1]).value
            } else if let end = boundaries.last, boundaries.count > spans.count {
                next = end.value
            } else {
                continue
            }
            let arriving = endValue(span)
            guard !equal(arriving, next) else { continue }
            let early = sample(Instant(approximately: at - lead))
            if zip(arriving, early).contains(where: { abs($0 - $1) > bakeTolerance }) { result[index] = cut(span, at: at - lead) }
        }
        return result
    }

    /// The first part of a span, up to `frame` inside it.
    fileprivate func cut(_ span: KeyframeBuilder.Span, at frame: Double) -> KeyframeBuilder.Span {
        var head = span
        head.end = Instant(approximately: frame)
        if case .curve(let unit, let from, let to) = span.kind {
            let arc = BezierArc(x1: unit.x1, y1: unit.y1, x2: unit.x2, y2: unit.y2)
            let part = arc.sub(from: 0, to: arc.parameter(atX: (frame - span.start.seconds) / span.length))
            // A part that ends where it starts has no easing form: its values are sampled instead.
            guard let partUnit = part.unitForm else {
                head.kind = .baked
                return head
            }
            head.kind = .curve(partUnit, from: from, to: zip(from, to).map { a, b in a + (b - a) * part.end.y })
        }
        return head
    }
}
