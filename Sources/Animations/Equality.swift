/// Whether two scenes are the same animation in the sense of the semantics
/// note: both cancelled, or the same exact duration and the same *set* of
/// segments (property, values, easing, window, direction and clock).
///
/// A segment playing backwards whose easing has a named mirror is compared as
/// the forward segment with swapped ends and the mirrored easing, which it
/// equals. Equal scenes give equal sampled tables; the converse can fail only
/// for segments no sample can see (say, one entirely hidden by a later one).
///
/// ```swift
/// try Scene.sameAnimation(x.then(y).reversed, y.reversed.then(x.reversed))   // .same
/// ```
extension Scene {
    /// The outcome of comparing two scenes.
    public enum Comparison: Equatable, Sendable, CustomStringConvertible {
        case same
        /// They differ; the text says where (the first difference found).
        case different(String)

        public var description: String {
            switch self {
            case .same: return "the same animation"
            case .different(let why): return why
            }
        }
    }

    /// Compares two scenes by duration and segment set (relative tweens
    /// resolved, each scene with its own declared initial values).
    public static func sameAnimation(_ lhs: Scene, _ rhs: Scene, initial: (left: [Property: Value], right: [Property: Value]) = ([:], [:]))
        throws(AnimationError) -> Comparison {
        if lhs.isCancelled != rhs.isCancelled || lhs.isInfinite != rhs.isInfinite {
            func describe(_ scene: Scene) -> String {
                scene.isCancelled ? "is cancelled" : scene.isInfinite ? "repeats forever" : "lasts \(scene.duration ?? .zero)s"
            }
            return .different("the first \(describe(lhs)); the second \(describe(rhs))")
        }
        if lhs.isCancelled { return .same }
        switch (lhs.duration, rhs.duration) {
        case (nil, nil): break
        case (nil, let d?): return .different("the first is cancelled; the second lasts \(d)s")
        case (let d?, nil): return .different("the first lasts \(d)s; the second is cancelled")
        case (let a?, let b?) where a != b: return .different("durations differ: \(a)s and \(b)s")
        case (_?, _?): break
        }
        // List everything that reasonably can be, so that different groupings
        // of the same repetition compare segment by segment.
        guard let left = try lhs.compile(materializeLimit: 1_000_000, initial: initial.left),
              let right = try rhs.compile(materializeLimit: 1_000_000, initial: initial.right) else { return .same }
        if lhs.isInfinite, left.duration != right.duration {
            return .different("their endless parts start at different times: \(left.duration)s and \(right.duration)s")
        }
        return compare(left, right, context: "")
    }

    private static func compare(_ left: CompiledScene, _ right: CompiledScene, context: String) -> Comparison {
        let a = SegmentSignature.buckets(left.segments), b = SegmentSignature.buckets(right.segments)
        for key in a.keys.sorted(by: SegmentSignature.Key.precedes) {
            let mine = a[key] ?? [], theirs = b[key] ?? []
            if let only = mine.first(where: { x in !theirs.contains { $0.matches(x) } }) {
                return .different("\(context)only the first has \(only)")
            }
        }
        for key in b.keys.sorted(by: SegmentSignature.Key.precedes) {
            let mine = b[key] ?? [], theirs = a[key] ?? []
            if let only = mine.first(where: { y in !theirs.contains { $0.matches(y) } }) {
                return .different("\(context)only the second has \(only)")
            }
        }
        if left.events != right.events {
            let mine = Set(left.events), theirs = Set(right.events)
            if let only = left.events.first(where: { !theirs.contains($0) }) {
                return .different("\(context)only the first has the event `\(only.name)` at \(only.time)s")
            }
            if let only = right.events.first(where: { !mine.contains($0) }) {
                return .different("\(context)only the second has the event `\(only.name)` at \(only.time)s")
            }
        }
        guard left.isInfinite == right.isInfinite else {
            return .different("\(context)only \(left.isInfinite ? "the first" : "the second") repeats forever")
        }
        guard left.blocks.count == right.blocks.count else {
            return .different("\(context)they repeat different things symbolically (\(left.blocks.count) and \(right.blocks.count) blocks)")
        }
        let leftBlocks = left.blocks.sorted { ($0.start, $0.count) < ($1.start, $1.count) }
        let rightBlocks = right.blocks.sorted { ($0.start, $0.count) < ($1.start, $1.count) }
        for (x, y) in zip(leftBlocks, rightBlocks) {
            guard x.start == y.start, x.end == y.end, x.count == y.count, x.isEndless == y.isEndless, x.period == y.period,
                  x.path == y.path else {
                return .different("\(context)a repetition differs: \(x.count) × \(x.period)s from \(x.start)s, and \(y.count) × \(y.period)s from \(y.start)s")
            }
            if case .different(let why) = compare(x.body, y.body, context: "in the repetition from \(x.start)s: ") {
                return .different(why)
            }
        }
        return .same
    }
}

/// What makes a segment that segment, as a set element: its property, its
/// window, and the values it takes there — its ends in playing order and
/// seven interior samples (which fold its easing and clock into values, so a
/// reversed tween equals the forward one with swapped ends and the mirrored
/// easing, and `compose(compose(a, b), c)` equals `compose(a, compose(b, c))`).
private struct SegmentSignature: CustomStringConvertible {
    let segment: Segment
    let samples: [Value]

    init(_ segment: Segment) {
        self.segment = segment
        var samples: [Value] = [segment.startValue, segment.endValue]
        for k in 1...7 {
            let fraction = Time(numerator: Int64(k), denominator: 8) ?? .zero
            samples.append(segment.activeValue(at: segment.start.toward(segment.end, fraction)))
        }
        self.samples = samples
    }

    func matches(_ other: SegmentSignature) -> Bool {
        segment.property == other.segment.property && segment.start == other.segment.start && segment.end == other.segment.end
            && zip(samples, other.samples).allSatisfy { $0.isClose(to: $1) }
    }

    /// Segments that could be equal share a key: property and window.
    struct Key: Hashable {
        let property: Property
        let start: Instant
        let end: Instant

        static func precedes(_ lhs: Key, _ rhs: Key) -> Bool {
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.property != rhs.property { return lhs.property < rhs.property }
            return lhs.end < rhs.end
        }
    }

    /// The signatures of `segments` by key, without duplicates (Σ is a set).
    static func buckets(_ segments: [Segment]) -> [Key: [SegmentSignature]] {
        var result: [Key: [SegmentSignature]] = [:]
        for segment in segments {
            let signature = SegmentSignature(segment)
            let key = Key(property: segment.property, start: segment.start, end: segment.end)
            if result[key]?.contains(where: { $0.matches(signature) }) == true { continue }
            result[key, default: []].append(signature)
        }
        return result
    }

    var description: String {
        let s = segment
        return "\(s.property) going \(s.startValue) → \(s.endValue) over [\(s.start), \(s.end)]"
    }
}
