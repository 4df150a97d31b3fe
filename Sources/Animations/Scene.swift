/// The value of an animation, exactly as the semantics note defines it: either
/// **cancelled**, or **run(D, Σ)** — an exact duration `D ≥ 0` and a set Σ of
/// segments, each animating one ``Property`` from a value to another over a
/// window of time.
///
/// Scenes form a semiring under sequence ``then(_:)`` (`;`) and parallel
/// ``alongside(_:)`` (`||`), with ``one`` (`run(0, ∅)`) and ``zero``
/// (cancelled). Every operation is O(1) or O(number of operands): a scene is a
/// persistent tree, shared between the values built from it, and only
/// ``compile()`` flattens it into per-property timelines for sampling.
///
/// ```swift
/// let grow = try Scene.tween(Property(view: "circle", name: "radius"), from: 10, to: 100, duration: Time(2))
/// let fade = try Scene.tween(Property(view: "circle", name: "opacity"), from: 1, to: 0, duration: Time(1))
/// let both = try grow.then(fade)          // 3 s
/// let table = try both.compile().sample(at: [Time(0), Time(2), Time(3)])
/// ```
///
/// Operations that can overflow exact time throw ``AnimationError/overflow(_:)``;
/// bad arguments (negative durations, counts, non-monotone warps on composites)
/// throw too. Nothing traps.
public struct Scene: Sendable {
    enum Storage: Sendable {
        case cancelled
        /// `root == nil` is the empty set of segments.
        case run(Time, Node?)
    }

    let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    init(duration: Time, root: Node?) {
        storage = .run(duration, root)
    }

    // MARK: - Constants and leaves

    /// The cancelled animation: the identity of `||` and the annihilator of `;`.
    public static let zero = Scene(.cancelled)
    /// Alias of ``zero``, the talk's name.
    public static let cancelled = zero
    /// The trivial animation `run(0, ∅)`: the identity of `;`.
    public static let one = Scene(duration: .zero, root: nil)
    /// Alias of ``one``.
    public static let empty = one

    /// `wait d`: nothing happens, for `d`. Throws for a negative `d`.
    public static func wait(_ duration: Time) throws(AnimationError) -> Scene {
        guard !duration.isNegative else { throw .negativeDuration(duration.description) }
        return Scene(duration: duration, root: nil)
    }

    /// One tween: `property` goes from `from` to `to` over `duration`, shaped by `easing`.
    /// Throws for a negative duration or a non-finite value.
    public static func tween(_ property: Property, from: Double, to: Double, duration: Time = .one, easing: Easing = .linear) throws(AnimationError) -> Scene {
        guard !duration.isNegative else { throw .negativeDuration(duration.description) }
        guard from.isFinite else { throw .notFinite("the start value of \(property)") }
        guard to.isFinite else { throw .notFinite("the end value of \(property)") }
        let tween = Tween(property: property, from: from, to: to, easing: easing, duration: duration)
        return Scene(duration: duration, root: Node(.tween(tween)))
    }

    // MARK: - Observers

    /// Whether this is the cancelled animation.
    public var isCancelled: Bool {
        if case .cancelled = storage { return true }
        return false
    }

    /// The exact duration, or `nil` when cancelled (−∞ in the max-plus reading).
    ///
    /// Law: `duration` is a semiring homomorphism into max-plus:
    /// `zero ↦ −∞`, `one ↦ 0`, `x ; y ↦ Dx + Dy`, `x || y ↦ max(Dx, Dy)`.
    public var duration: Time? {
        switch storage {
        case .cancelled: return nil
        case .run(let duration, _): return duration
        }
    }

    /// Whether Σ is empty (true for `one`, `wait d`, and for cancelled).
    public var hasNoSegments: Bool {
        switch storage {
        case .cancelled: return true
        case .run(_, let root): return root == nil
        }
    }

    // MARK: - The semiring

    /// Sequence, `self ; next`: `next` starts when `self` ends.
    ///
    /// Duration `Dx + Dy`. Laws: associative; `one` is its identity on both
    /// sides; `zero` annihilates on both sides; it distributes over `||` on the
    /// left, `x ; (y || z) = (x ; y) || (x ; z)`, and on the right only when
    /// `Dy = Dz`: `(y || z) ; x = (y ; x) || (z ; x)`.
    public func then(_ next: Scene) throws(AnimationError) -> Scene {
        try Scene.sequence([self, next])
    }

    /// Parallel, `self || other`: both start together.
    ///
    /// Duration `max(Dx, Dy)`. Laws: associative, commutative, idempotent
    /// (`x || x = x`, because Σ is a set), with identity `zero`.
    public func alongside(_ other: Scene) -> Scene {
        Scene.parallel([self, other])
    }

    /// `parts[0] ; parts[1] ; …` in one step (O(n)); `one` for no parts.
    public static func sequence(_ parts: [Scene]) throws(AnimationError) -> Scene {
        var offset = Time.zero
        var children: [Node] = []
        for part in parts {
            switch part.storage {
            case .cancelled:
                return .zero
            case .run(let duration, let root):
                if let root {
                    children.append(offset.isZero ? root : Node(.shift(root, offset)))
                }
                offset = try offset.plus(duration)
            }
        }
        return Scene(duration: offset, root: Node.union(children))
    }

    /// `parts[0] || parts[1] || …` in one step; `zero` for no parts.
    public static func parallel(_ parts: [Scene]) -> Scene {
        var duration: Time?
        var children: [Node] = []
        for part in parts {
            guard case .run(let length, let root) = part.storage else { continue }
            duration = max(duration ?? length, length)
            if let root { children.append(root) }
        }
        guard let duration else { return .zero }
        return Scene(duration: duration, root: Node.union(children))
    }

    // MARK: - Modifiers

    /// `x ^ n`, `x repeated n times`: n copies in sequence; `x ^ 0 = one`
    /// (even for `zero`).
    /// Duration `n·D`. Stays symbolic: `x ^ 1_000_000_000` costs O(1) to
    /// build and O(log) to sample.
    public func repeated(_ count: Int) throws(AnimationError) -> Scene {
        guard count >= 0 else { throw .negativeCount(count) }
        // x ^ 0 = one for every x, zero included (as in any semiring).
        if count == 0 { return .one }
        guard case .run(let duration, let root) = storage else { return self }
        if count == 1 { return self }
        let total = try duration.times(Int64(count))
        guard let root else { return Scene(duration: total, root: nil) }
        // All copies coincide when D = 0, and Σ is a set: x ^ n = x.
        if duration.isZero { return self }
        return Scene(duration: total, root: Node(.repeated(root, duration, count)))
    }

    /// `x reversed`: what happened at `t` happens at `D − t`; each window
    /// `[s, e]` becomes `[D − e, D − s]`.
    ///
    /// Laws: `(x reversed) reversed = x`;
    /// `(x ; y) reversed = (y reversed) ; (x reversed)`;
    /// `(x || y) reversed = (x reversed) || (y reversed)` when `Dx = Dy`.
    public var reversed: Scene {
        guard case .run(let duration, let root) = storage, let root else { return self }
        if case .reverse(let inner, let span) = root.kind, span == duration {
            return Scene(duration: duration, root: inner)
        }
        return Scene(duration: duration, root: Node(.reverse(root, duration)))
    }

    /// `x looped` (`count = 1`) and `x looped count times`: `(x ; x reversed) ^ count`.
    public func looped(_ count: Int = 1) throws(AnimationError) -> Scene {
        guard count >= 0 else { throw .negativeCount(count) }
        return try then(reversed).repeated(count)
    }

    /// `x delayed by d`: `wait d ; x`.
    public func delayed(by delay: Time) throws(AnimationError) -> Scene {
        try Scene.wait(delay).then(self)
    }

    /// `x in d`: every time in `x` scaled by `d / D`, so the whole lasts `d`.
    /// Throws when `D = 0 < d` (there is nothing to stretch) or `d < 0`.
    public func retimed(to target: Time) throws(AnimationError) -> Scene {
        guard !target.isNegative else { throw .negativeDuration(target.description) }
        guard case .run(let duration, let root) = storage else { return self }
        if duration == target { return self }
        if duration.isZero { throw .retimeOfInstant(target.description) }
        let factor = try target.over(duration)
        guard let root else { return Scene(duration: target, root: nil) }
        return Scene(duration: target, root: Node(.scale(root, factor)))
    }

    /// `x with E`.
    ///
    /// When Σ is a single forward segment spanning `[0, D]` (a tween, however
    /// parenthesised, retimed or bound), `E` is composed into that tween's own
    /// easing, so overshooting curves keep their overshoot. Otherwise it warps
    /// time: the state of `x with E` at `t` is the state of `x` at `D·E(t/D)`,
    /// and `E` must be monotone (else time would run backwards: throws
    /// ``AnimationError/nonMonotoneWarp(_:)``).
    ///
    /// Law: `(x with E1) with E2 = x with E1.composed(after: E2)` for monotone warps.
    ///
    /// Easings compose at most ``Easing/maxDepth`` deep, and warps nest at
    /// most ``maxWarpNesting`` deep; beyond that this throws
    /// ``AnimationError/invalidEasing(_:)`` (a `let` chain easing the last
    /// binding again and again would otherwise make every sample walk the chain).
    public func eased(_ easing: Easing) throws(AnimationError) -> Scene {
        guard case .run(let duration, let root) = storage else { return self }
        // Composing with linear changes nothing (and needs no search for a single tween).
        if case .linear = easing.kind { return self }
        if let single = root.flatMap({ Scene.singleSpanningTween($0, duration: duration) }) {
            let composed = single.easing.composed(after: easing)
            try Scene.checkDepth(of: composed)
            let tween = Tween(property: single.property, from: single.from, to: single.to,
                              easing: composed, duration: duration)
            return Scene(duration: duration, root: Node(.tween(tween)))
        }
        guard easing.isMonotone else { throw .nonMonotoneWarp(easing.description) }
        guard let root, !duration.isZero else { return self }
        if case .warp(let inner, let previous, let span) = root.kind, span == duration {
            let composed = previous.composed(after: easing)
            try Scene.checkDepth(of: composed)
            return Scene(duration: duration, root: Node(.warp(inner, composed, span)))
        }
        guard root.warpDepth < Scene.maxWarpNesting else {
            throw .invalidEasing("easings on composite animations nest more than \(Scene.maxWarpNesting) deep")
        }
        return Scene(duration: duration, root: Node(.warp(root, easing, duration)))
    }

    /// How many time warps (`with E` on a composite) may nest on the way to a tween.
    public static let maxWarpNesting = 256

    private static func checkDepth(of easing: Easing) throws(AnimationError) {
        guard easing.depth <= Easing.maxDepth else {
            throw .invalidEasing("easings compose more than \(Easing.maxDepth) deep")
        }
    }

    /// How many nodes ``singleSpanningTween(_:duration:)`` looks at before it
    /// gives up and treats the scene as a composite.
    static let singleTweenSearchLimit = 1024

    /// The tween when Σ is exactly one forward segment whose window is `[0, D]`
    /// and whose clock is plain (no warp), else `nil`. Also `nil` when finding
    /// out would take more than ``singleTweenSearchLimit`` nodes (a tween
    /// buried that deep, or repeated that often in parallel with itself, is
    /// eased as a composite: the same values for a monotone easing).
    private static func singleSpanningTween(_ root: Node, duration: Time) -> Segment? {
        guard let segments = try? root.distinctSegments(limit: 2, visiting: singleTweenSearchLimit, plainOnly: true),
              segments.count == 1 else { return nil }
        let segment = segments[0]
        guard segment.isForward, segment.warp == nil,
              segment.start.exact == .zero, segment.end.exact == duration else { return nil }
        return segment
    }
}

/// A tween leaf in its own frame: window `[0, duration]`, playing forwards.
struct Tween: Hashable, Sendable {
    let property: Property
    let from: Double
    let to: Double
    let easing: Easing
    let duration: Time
}

/// A node of the persistent tree behind a ``Scene``. Immutable once built and
/// shared freely; the tree may be deep (a Swift loop of `x = x * y` builds one
/// level per step), so traversals use explicit stacks and `deinit` dismantles
/// uniquely owned chains iteratively.
final class Node: @unchecked Sendable {
    enum Kind {
        case tween(Tween)
        case union([Node])
        /// The child starts `offset` later.
        case shift(Node, Time)
        /// The child (of duration `span`) played backwards.
        case reverse(Node, Time)
        /// Every time of the child multiplied by `factor` (> 0).
        case scale(Node, Time)
        /// The child (of duration `span`) seen through the time warp `easing`.
        case warp(Node, Easing, Time)
        /// `count` copies of the child, `period` apart.
        case repeated(Node, Time, Int)
        /// Only left behind by `deinit`.
        case dismantled
    }

    private(set) var kind: Kind
    /// How many segments full materialization would produce (saturating).
    let leafCount: Int
    /// The most warps on one path from this node to a tween: the stages of
    /// that tween's clock, which compiling and sampling walk through.
    let warpDepth: Int

    init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .tween:
            leafCount = 1
            warpDepth = 0
        case .union(let children):
            leafCount = children.reduce(0) { $0.addingSaturating($1.leafCount) }
            warpDepth = children.reduce(0) { max($0, $1.warpDepth) }
        case .shift(let child, _), .reverse(let child, _), .scale(let child, _):
            leafCount = child.leafCount
            warpDepth = child.warpDepth
        case .warp(let child, _, _):
            leafCount = child.leafCount
            warpDepth = child.warpDepth + 1
        case .repeated(let child, _, let count):
            leafCount = child.leafCount.multipliedSaturating(count)
            warpDepth = child.warpDepth
        case .dismantled:
            leafCount = 0
            warpDepth = 0
        }
    }

    /// A union of `children`: `nil` for none, the child itself for one.
    static func union(_ children: [Node]) -> Node? {
        switch children.count {
        case 0: return nil
        case 1: return children[0]
        default: return Node(.union(children))
        }
    }

    deinit {
        var stack: [Node] = []
        takeChildren(into: &stack)
        while var node = stack.popLast() {
            if isKnownUniquelyReferenced(&node) {
                node.takeChildren(into: &stack)
            }
        }
    }

    private func takeChildren(into stack: inout [Node]) {
        switch kind {
        case .tween, .dismantled:
            return
        case .union(let children):
            stack.append(contentsOf: children)
        case .shift(let child, _), .reverse(let child, _), .scale(let child, _), .warp(let child, _, _),
             .repeated(let child, _, _):
            stack.append(child)
        }
        kind = .dismantled
    }
}

extension Int {
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? Int.max : sum
    }

    func multipliedSaturating(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? Int.max : product
    }
}

extension Scene: Semiring {
    /// Sequence (`;`). Precondition: the total duration fits exact time
    /// (``then(_:)`` throws instead).
    public static func * (lhs: Scene, rhs: Scene) -> Scene {
        must { () throws(AnimationError) in try lhs.then(rhs) }
    }

    /// Parallel (`||`).
    public static func + (lhs: Scene, rhs: Scene) -> Scene {
        lhs.alongside(rhs)
    }
}

extension Scene {
    /// The same scene with every segment on `old` moved to `new`.
    public func renamingProperty(_ old: Property, to new: Property) -> Scene {
        guard case .run(let duration, let root) = storage, let root else { return self }
        return Scene(duration: duration, root: root.mapTweens { tween in
            tween.property == old
                ? Tween(property: new, from: tween.from, to: tween.to, easing: tween.easing, duration: tween.duration)
                : tween
        })
    }
}

extension Node {
    /// A copy of the tree with every tween transformed (shared subtrees stay
    /// shared). Iterative, so deep trees are fine.
    func mapTweens(_ transform: (Tween) -> Tween) -> Node {
        var done: [ObjectIdentifier: Node] = [:]
        var stack: [(Node, Bool)] = [(self, false)]
        while let (node, childrenDone) = stack.popLast() {
            let id = ObjectIdentifier(node)
            if done[id] != nil { continue }
            let children = node.children
            if !childrenDone, children.contains(where: { done[ObjectIdentifier($0)] == nil }) {
                stack.append((node, true))
                for child in children where done[ObjectIdentifier(child)] == nil {
                    stack.append((child, false))
                }
                continue
            }
            func mapped(_ child: Node) -> Node { done[ObjectIdentifier(child)] ?? child }
            let result: Node
            switch node.kind {
            case .tween(let tween): result = Node(.tween(transform(tween)))
            case .union(let children): result = Node(.union(children.map(mapped)))
            case .shift(let child, let offset): result = Node(.shift(mapped(child), offset))
            case .reverse(let child, let span): result = Node(.reverse(mapped(child), span))
            case .scale(let child, let factor): result = Node(.scale(mapped(child), factor))
            case .warp(let child, let easing, let span): result = Node(.warp(mapped(child), easing, span))
            case .repeated(let child, let period, let count): result = Node(.repeated(mapped(child), period, count))
            case .dismantled: result = node
            }
            done[id] = result
        }
        return done[ObjectIdentifier(self)] ?? self
    }

    /// The direct children.
    var children: [Node] {
        switch kind {
        case .tween, .dismantled: return []
        case .union(let children): return children
        case .shift(let child, _), .reverse(let child, _), .scale(let child, _), .warp(let child, _, _),
             .repeated(let child, _, _):
            return [child]
        }
    }
}
