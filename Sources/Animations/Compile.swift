/// A scene flattened for sampling: one timeline per property, each holding its
/// segments sorted by start with an index that answers "which segments are
/// active at t, and which of them started last" in O(log n), plus the
/// symbolic repetition blocks that fall on that property.
///
/// Build one with ``Scene/compile()``; sampling cost then depends on the
/// number of segments on a property (logarithmically), never on how deeply
/// the scene's expression was nested.
public final class CompiledScene: @unchecked Sendable {
    /// The scene's exact duration.
    public let duration: Time
    /// Every property some segment animates, sorted by `view.property`.
    public let properties: [Property]
    let tracks: [Track]
    /// Repetitions kept symbolic (too many copies to list), in no particular order.
    public let blocks: [RepetitionBlock]

    init(duration: Time, properties: [Property], tracks: [Track], blocks: [RepetitionBlock]) {
        self.duration = duration
        self.properties = properties
        self.tracks = tracks
        self.blocks = blocks
    }

    /// The listed segments, sorted by start, then property. Segments inside
    /// symbolic ``blocks`` are not listed.
    public var segments: [Segment] {
        var all: [Segment] = []
        for track in tracks { all.append(contentsOf: track.segments) }
        all.sort { lhs, rhs in
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.property != rhs.property { return lhs.property < rhs.property }
            return lhs.end < rhs.end
        }
        return all
    }

    /// The number of listed segments.
    public var segmentCount: Int {
        tracks.reduce(0) { $0 + $1.count }
    }
}

/// `count` copies of a compiled body, `period` apart, placed in the scene by
/// an increasing map (reversals are pushed into the body).
public final class RepetitionBlock: @unchecked Sendable {
    let path: Path
    /// The length of one copy, in the block's own time.
    public let period: Time
    /// How many copies.
    public let count: Int
    /// One copy, compiled in its own time `[0, period]`.
    public let body: CompiledScene
    /// Where the block starts and ends in the scene.
    public let start: Instant
    public let end: Instant

    init(path: Path, period: Time, count: Int, body: CompiledScene) throws(AnimationError) {
        self.path = path
        self.period = period
        self.count = count
        self.body = body
        start = path.backward(Instant(.zero), upper: false)
        end = path.backward(Instant(try period.times(Int64(count))), upper: true)
    }
}

extension Scene {
    /// How many segments a repetition may list (copies times segments per copy)
    /// before it is kept symbolic instead.
    public static let materializeLimit = 10_000
    /// The most segments one compiled scene may list.
    public static let segmentLimit = 4_000_000

    /// Flattens the scene for sampling; `nil` when it is cancelled.
    ///
    /// Throws ``AnimationError/overflow(_:)`` when placing a segment overflows
    /// exact time, and ``AnimationError/invalidSampling(_:)`` when the scene
    /// would list more than ``segmentLimit`` segments.
    public func compile(materializeLimit: Int = Scene.materializeLimit) throws(AnimationError) -> CompiledScene? {
        guard case .run(let duration, let root) = storage else { return nil }
        var compiler = Compiler(materializeLimit: materializeLimit)
        return try compiler.compile(root, duration: duration)
    }
}

extension Node {
    /// Up to `limit` distinct segments of this node (in its own time), for
    /// deciding whether a scene is a single tween; `nil` when that takes more
    /// than `budget` nodes, or (with `plainOnly`) at the first segment whose
    /// clock goes through a warp. Breadth first, so a long chain of `let`s,
    /// each adding a segment to the last, shows two segments near the top.
    func distinctSegments(limit: Int, visiting budget: Int = .max, plainOnly: Bool = false) throws(AnimationError) -> [Segment]? {
        var found: [Segment] = []
        var queue: [(Node, Path)] = [(self, .identity)]
        var next = 0
        while next < queue.count {
            guard next < budget else { return nil }
            let (node, path) = queue[next]
            next += 1
            switch node.kind {
            case .tween(let tween):
                // A warped clock (placing it inverts the warp, which is costly) is not plain.
                if plainOnly, path.collapse == nil, !path.stages.isEmpty { return nil }
                let segment = path.place(tween)
                if !found.contains(segment) {
                    found.append(segment)
                    if found.count >= limit { return found }
                }
            case .repeated(let child, let period, let count):
                // Two copies are enough to tell one segment from several.
                for copy in 0..<min(count, path.collapse == nil ? 2 : 1) {
                    queue.append((child, try path.shifted(by: try period.times(Int64(copy)))))
                }
            case .union(let kids):
                // Enqueue no more than the budget can visit (a queue longer than the budget ends the search).
                for child in kids.prefix(Swift.max(0, budget - queue.count + 1)) { queue.append((child, path)) }
            case .shift, .reverse, .scale, .warp, .dismantled:
                try descend(node, path, into: &queue)   // one child
            }
        }
        return found
    }
}

/// Pushes the children of a structural node with their paths.
private func descend(_ node: Node, _ path: Path, into stack: inout [(Node, Path)]) throws(AnimationError) {
    switch node.kind {
    case .union(let children):
        for child in children.reversed() { stack.append((child, path)) }
    case .shift(let child, let offset):
        stack.append((child, try path.shifted(by: offset)))
    case .reverse(let child, let span):
        stack.append((child, try path.reversed(in: span)))
    case .scale(let child, let factor):
        stack.append((child, try path.scaled(by: factor)))
    case .warp(let child, let easing, let span):
        stack.append((child, try path.warped(by: easing, span: span)))
    case .repeated(let child, let period, let count):
        // Squeezed to an instant, every copy is the same set of jumps.
        let copies = path.collapse == nil ? count : 1
        for copy in (0..<copies).reversed() {
            stack.append((child, try path.shifted(by: try period.times(Int64(copy)))))
        }
    case .tween, .dismantled:
        break
    }
}

private struct Compiler {
    private struct BodyKey: Hashable {
        let node: ObjectIdentifier
        let reversed: Bool
    }

    let materializeLimit: Int

    init(materializeLimit: Int) {
        self.materializeLimit = materializeLimit
    }

    /// Bodies of symbolic repetitions, compiled once each (the same `let` may recur).
    private var bodies: [BodyKey: (Node, CompiledScene)] = [:]

    mutating func compile(_ root: Node?, duration: Time) throws(AnimationError) -> CompiledScene {
        var segments: [Property: [Segment]] = [:]
        var blocks: [RepetitionBlock] = []
        var listed = 0
        var stack: [(Node, Path)] = []
        if let root { stack.append((root, .identity)) }
        while let (node, path) = stack.popLast() {
            switch node.kind {
            case .tween(let tween):
                listed += 1
                guard listed <= Scene.segmentLimit else {
                    throw .invalidSampling("the animation has more than \(Scene.segmentLimit) segments")
                }
                segments[tween.property, default: []].append(path.place(tween))
            case .repeated(let child, let period, let count)
                where path.collapse == nil && count.multipliedSaturating(child.leafCount) > materializeLimit:
                blocks.append(try symbolicBlock(child, period: period, count: count, path: path))
            case .warp(let child, let easing, let span) where path.collapse == nil && !easing.isContinuous:
                // A warp that jumps (steps, expo's ends) cannot be undone window by
                // window; sample it as defined, the state of x at D·E(t/D).
                blocks.append(try symbolicBlock(child, period: span, count: 1, path: try path.warped(by: easing, span: span)))
            case .union, .shift, .reverse, .scale, .warp, .repeated, .dismantled:
                try descend(node, path, into: &stack)
            }
        }
        var byProperty: [Property: [RepetitionBlock]] = [:]
        for block in blocks {
            for property in block.body.properties { byProperty[property, default: []].append(block) }
        }
        let properties = Set(segments.keys).union(byProperty.keys).sorted()
        let tracks = properties.map { property in
            // Moved out of the dictionary, so the track sorts it without a copy.
            Track(segments: segments.removeValue(forKey: property) ?? [],
                  blocks: (byProperty[property] ?? []).compactMap { block in
                      block.body.track(for: property).map { BlockReference(block: block, track: $0) }
                  })
        }
        return CompiledScene(duration: duration, properties: properties, tracks: tracks, blocks: blocks)
    }

    private mutating func symbolicBlock(_ child: Node, period: Time, count: Int, path: Path) throws(AnimationError) -> RepetitionBlock {
        var blockPath = path
        var reversed = false
        if !path.affine.isIncreasing {
            // (x ^ n) reversed = (x reversed) ^ n: keep the block's own map increasing.
            blockPath.affine = try path.affine.mirrored(in: try period.times(Int64(count)))
            reversed = true
        }
        let key = BodyKey(node: ObjectIdentifier(child), reversed: reversed)
        let body: CompiledScene
        if let cached = bodies[key] {
            body = cached.1
        } else {
            let node = reversed ? Node(.reverse(child, period)) : child
            body = try compile(node, duration: period)
            bodies[key] = (child, body)
        }
        return try RepetitionBlock(path: blockPath, period: period, count: count, body: body)
    }
}

extension CompiledScene {
    func track(for property: Property) -> Track? {
        var low = 0, high = properties.count
        while low < high {
            let mid = (low + high) / 2
            if properties[mid] < property { low = mid + 1 } else { high = mid }
        }
        return low < properties.count && properties[low] == property ? tracks[low] : nil
    }
}

extension Easing {
    /// Whether the curve is continuous on [0, 1]. A warp by a continuous,
    /// monotone curve maps each window to one window; steps and the ends of
    /// expo jump, so warps by them are sampled through their definition instead.
    var isContinuous: Bool {
        switch kind {
        case .steps: return false
        case .penner(let curve, _): return curve != .expo
        case .linear, .easeIn, .easeOut, .easeInOut, .cubicBezier: return true
        case .composed(let outer, let inner): return outer.isContinuous && inner.isContinuous
        case .mirrored(let inner): return inner.isContinuous
        }
    }
}
