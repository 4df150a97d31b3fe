/// The value of an animation, exactly as the semantics note defines it: either
/// **cancelled**, or **run(D, Σ)** — an exact duration `D ≥ 0` and a set Σ of
/// segments (each animating one ``Property`` from a value to another over a
/// window of time) and events.
///
/// Scenes form a semiring under sequence ``then(_:)`` (`;`) and parallel
/// ``alongside(_:)`` (`||`), with ``one`` (`run(0, ∅)`) and ``zero``
/// (cancelled). A scene is stored as the ``Term`` its operations built (each
/// operation applies the laws that define it and records the rest as a node),
/// so every operation is O(1) or O(number of operands), values share their
/// parts, and only ``compile()`` flattens a scene into per-property timelines
/// for sampling.
///
/// ```swift
/// let grow = try Scene.tween(Property(view: "circle", name: "radius"), from: 10, to: 100, duration: Time(2))
/// let fade = try Scene.tween(Property(view: "circle", name: "opacity"), from: 1, to: 0, duration: Time(1))
/// let both = try grow.then(fade)          // 3 s
/// let table = try both.compile()?.sample(at: [Time(0), Time(2), Time(3)])
/// ```
///
/// Evaluating a term is folding it into scenes:
/// `try term.fold(into: Scene.self)` (``Term/fold(into:)``).
///
/// Operations that can overflow exact time throw ``AnimationError/overflow(_:)``;
/// bad arguments (negative durations, counts, non-monotone warps on composites)
/// throw too. Nothing traps.
public struct Scene: Sendable {
    /// The term the operations built; `nil` when cancelled.
    let root: Term?

    init(root: Term?) {
        self.root = root
    }

    // MARK: - Constants and leaves

    /// The cancelled animation: the identity of `||` and the annihilator of `;`.
    public static let zero = Scene(root: nil)
    /// Alias of ``zero``, the talk's name.
    public static let cancelled = zero
    /// The trivial animation `run(0, ∅)`: the identity of `;`.
    public static let one = Scene(root: Term.one)
    /// Alias of ``one``.
    public static let empty = one

    /// `wait d`: nothing happens, for `d`. Throws for a negative `d`.
    public static func wait(_ duration: Time) throws(AnimationError) -> Scene {
        Scene(root: try Term.wait(duration))
    }

    /// One tween: `property` goes from `from` to `to` over `duration`, shaped by `easing`.
    /// Throws for a negative duration, a non-finite value, or ends of different kinds.
    public static func tween(_ property: Property, from: Value, to: Value, duration: Time = .one,
                             easing: Easing = .linear) throws(AnimationError) -> Scene {
        tween(try Tween(property: property, from: from, to: to, easing: easing, duration: duration))
    }

    /// A tween between two numbers; see ``tween(_:from:to:duration:easing:)-(_,Value,_,_,_)``.
    public static func tween(_ property: Property, from: Double, to: Double, duration: Time = .one,
                             easing: Easing = .linear) throws(AnimationError) -> Scene {
        try tween(property, from: .number(from), to: .number(to), duration: duration, easing: easing)
    }

    /// One tween.
    public static func tween(_ tween: Tween) -> Scene {
        Scene(root: Term.tween(tween))
    }

    /// `emit name`: an instant event; duration 0.
    public static func event(_ name: String) -> Scene {
        Scene(root: Term.event(name))
    }

    // MARK: - Observers

    /// Whether this is the cancelled animation.
    public var isCancelled: Bool { root == nil }

    /// The exact duration, or `nil` when cancelled (−∞ in the max-plus
    /// reading) or when it repeats forever (+∞, ``isInfinite``).
    ///
    /// Law: `duration` is a semiring homomorphism into max-plus:
    /// `zero ↦ −∞`, `one ↦ 0`, `x ; y ↦ Dx + Dy`, `x || y ↦ max(Dx, Dy)`.
    public var duration: Time? { root?.duration }

    /// Whether it repeats forever: `x repeated forever` is in it, not cancelled.
    public var isInfinite: Bool { root?.isInfinite ?? false }

    /// Whether Σ is empty (true for `one`, `wait d`, and for cancelled).
    public var hasNoSegments: Bool { !(root?.hasLeaves ?? false) }

    /// The term this scene is stored as (`nil` when cancelled): for printing,
    /// normalizing, or inspecting how it was built.
    public var term: Term? { root }

    // MARK: - The semiring

    /// Sequence, `self ; next`: `next` starts when `self` ends.
    ///
    /// Duration `Dx + Dy`. Laws: associative; `one` is its identity on both
    /// sides; `zero` annihilates on both sides; it distributes over `||` on the
    /// left, `x ; (y || z) = (x ; y) || (x ; z)`, and on the right only when
    /// `Dy = Dz`: `(y || z) ; x = (y ; x) || (z ; x)`.
    public func then(_ next: Scene) throws(AnimationError) -> Scene {
        // ``sequence(_:)`` of the two, without a list of them (a chain built
        // with `then` makes one per step).
        guard let first = root, let second = next.root else { return .zero }
        let keepFirst = !Scene.isOne(first)
        let keepSecond = !(keepFirst && first.isInfinite) && !Scene.isOne(second)
        switch (keepFirst, keepSecond) {
        case (false, false): return .one
        case (true, false): return Scene(root: first)
        case (false, true): return Scene(root: second)
        case (true, true): return Scene(root: try Term.sequence([first, second]))
        }
    }

    fileprivate static func isOne(_ term: Term) -> Bool {
        if case .one = term.kind { return true }
        return false
    }

    /// Parallel, `self || other`: both start together.
    ///
    /// Duration `max(Dx, Dy)`. Laws: associative, commutative, idempotent
    /// (`x || x = x`, because Σ is a set), with identity `zero`.
    /// `self ; next` with `next` starting `overlap` before `self` ends
    /// (docs/semantics.md §8.1, GSAP's `"-=D"`): `self || (wait (|self| − D) ; next)`,
    /// lasting `max(|self|, |self| − D + |next|)` (``Term/chain(_:)``).
    /// Laws: `a.then(b, overlapping: 0) = a.then(b)` for `b` not cancelled;
    /// `a.then(b, overlapping: |a|) = a.alongside(b)`; a cancelled `self`
    /// cancels it, a cancelled `next` leaves `self`. Throws
    /// `negativeDuration` for an overlap below 0 or longer than `self`,
    /// `infinite` when `self` never ends.
    public func then(_ next: Scene, overlapping overlap: Time) throws(AnimationError) -> Scene {
        guard let first = root else { return .zero }
        guard let second = next.root else {
            guard !overlap.isNegative else { throw .negativeDuration(overlap.description) }
            return self
        }
        return Scene(root: try Term.chain([(first, nil), (second, overlap)]))
    }

    public func alongside(_ other: Scene) -> Scene {
        Scene.parallel([self, other])
    }

    /// `parts[0] ; parts[1] ; …` in one step (O(n)); `one` for no parts,
    /// `zero` when any part is. A part that repeats forever never ends: the
    /// parts after it never start, and are dropped (`(x forever) ; y = x forever`).
    public static func sequence(_ parts: [Scene]) throws(AnimationError) -> Scene {
        var roots: [Term] = []
        roots.reserveCapacity(parts.count)
        var ended = false
        for part in parts {
            guard let root = part.root else { return .zero }
            // `one` adds neither time nor segments.
            if ended { continue }
            if case .one = root.kind { continue }
            roots.append(root)
            ended = root.isInfinite
        }
        switch roots.count {
        case 0: return .one
        case 1: return Scene(root: roots[0])
        default: return Scene(root: try Term.sequence(roots))
        }
    }

    /// `parts[0] || parts[1] || …` in one step; `zero` for no parts.
    public static func parallel(_ parts: [Scene]) -> Scene {
        var roots: [Term] = []
        roots.reserveCapacity(parts.count)
        for part in parts {
            guard let root = part.root else { continue }
            roots.append(root)
        }
        // `one` adds nothing beside anything else.
        if roots.count > 1 { roots.removeAll { if case .one = $0.kind { return true } else { return false } } }
        switch roots.count {
        case 0: return parts.contains { !$0.isCancelled } ? .one : .zero
        case 1: return Scene(root: roots[0])
        default: return Scene(root: Term.parallel(roots))
        }
    }

    // MARK: - Modifiers

    /// `x ^ n`, `x repeated n times`: n copies in sequence.
    ///
    /// Duration `n·D`. Laws: `x ^ 0 = one` (even for `zero`, as in any
    /// semiring), `x ^ 1 = x`, `x ^ (m + n) = x ^ m ; x ^ n`,
    /// `(x ^ m) ^ n = x ^ (m·n)`. Stays symbolic: `x ^ 1_000_000_000` costs
    /// O(1) to build and O(log) to sample.
    public func repeated(_ count: Int) throws(AnimationError) -> Scene {
        guard count >= 0 else { throw .negativeCount(count) }
        if count == 0 { return .one }
        // An infinite animation never ends: its later copies never start.
        guard let root, let duration = root.duration else { return self }
        if count == 1 { return self }
        // All copies coincide when D = 0, and Σ is a set: x ^ n = x.
        if duration.isZero { return self }
        guard root.hasLeaves else { return try Scene.wait(try duration.multiplied(by: Int64(count))) }
        return Scene(root: try Term.power(root, count))
    }

    /// `x repeated forever`: `x ^ ∞`, copies of `x` one after another
    /// without end (symbolic, like `^ n`). Throws when `x` lasts no time.
    ///
    /// Laws: `(x forever) ^ n = x forever` for `n ≥ 1`; `(x forever) ; y = x forever`;
    /// `(x forever) forever = x forever`; `zero forever = zero`.
    public func repeatedForever() throws(AnimationError) -> Scene {
        guard let root, !root.isInfinite else { return self }
        guard let duration = root.duration, duration.isPositive else { throw .foreverOfInstant }
        return Scene(root: Term.forever(root))
    }

    /// `x reversed`: what happened at `t` happens at `D − t`; each window
    /// `[s, e]` becomes `[D − e, D − s]`. Throws for an animation that
    /// repeats forever (it has no `D`).
    ///
    /// Laws: `(x reversed) reversed = x`;
    /// `(x ; y) reversed = (y reversed) ; (x reversed)`;
    /// `(x || y) reversed = (x reversed) || (y reversed)` when `Dx = Dy`.
    public var reversed: Scene {
        get throws(AnimationError) {
            guard let root else { return self }
            if root.isInfinite { throw .infinite("reverse") }
            guard root.hasLeaves else { return self }
            if case .reversed(let inner) = root.kind { return Scene(root: inner) }
            return Scene(root: Term.reversed(root))
        }
    }

    /// `x looped` (`count = 1`) and `x looped count times`: `(x ; x reversed) ^ count`.
    public func looped(_ count: Int = 1) throws(AnimationError) -> Scene {
        guard count >= 0 else { throw .negativeCount(count) }
        if isInfinite { throw .infinite("loop") }
        return try then(try reversed).repeated(count)
    }

    /// `x looped forever`: `(x ; x reversed) repeated forever`.
    public func loopedForever() throws(AnimationError) -> Scene {
        if isInfinite { throw .infinite("loop") }
        return try then(try reversed).repeatedForever()
    }

    /// `x delayed by d`: `wait d ; x`.
    public func delayed(by delay: Time) throws(AnimationError) -> Scene {
        try Scene.wait(delay).then(self)
    }

    /// `x in d`: every time in `x` scaled by `d / D`, so the whole lasts `d`.
    /// Throws when `D = 0 < d` (there is nothing to stretch) or `d < 0`.
    ///
    /// Laws: `(x in d1) in d2 = x in d2`; `(x ; y) in d` scales both parts by
    /// the same factor; `x in D = x`.
    public func retimed(to target: Time) throws(AnimationError) -> Scene {
        guard !target.isNegative else { throw .negativeDuration(target.description) }
        if isInfinite { throw .infinite("retime") }
        guard let root, let duration = root.duration else { return self }
        if duration == target { return self }
        if duration.isZero { throw .retimeOfInstant(target.description) }
        _ = try target.divided(by: duration)   // the scale factor must be exact
        guard root.hasLeaves else { return try Scene.wait(target) }
        if case .retimed(let inner, _) = root.kind { return Scene(root: try Term.retimed(inner, to: target)) }
        return Scene(root: try Term.retimed(root, to: target))
    }

    /// `x with E`.
    ///
    /// When every segment of Σ plays forwards over exactly `[0, D]` (a tween,
    /// however parenthesised, retimed or bound; `fadeIn all views`; `a || b`
    /// of tweens that last as long as each other), `E` is composed into each
    /// segment's own easing, `p ↦ old(E(p))` with no clamping between, so
    /// overshooting curves (back, elastic, bounce, springs) keep their
    /// overshoot; events move with the warp. Otherwise `E` warps time: the
    /// state of `x with E` at `t` is the state of `x` at `D·E(t/D)`, windows
    /// mapped through E's inverse, and `E` must be monotone (else time would
    /// run backwards: throws ``AnimationError/nonMonotoneWarp(_:)``). Throws
    /// for an animation that repeats forever.
    ///
    /// Law: `(x with E1) with E2 = x with E1.composed(after: E2)` for monotone warps.
    ///
    /// Easings compose at most ``Easing/maxDepth`` deep, and warps nest at
    /// most ``maxWarpNesting`` deep; beyond that this throws
    /// ``AnimationError/invalidEasing(_:)`` (a `let` chain easing the last
    /// binding again and again would otherwise make every sample walk the chain).
    public func eased(_ easing: Easing) throws(AnimationError) -> Scene {
        if isInfinite { throw .infinite("ease") }
        guard let root, let duration = root.duration else { return self }
        // Composing with linear changes nothing (and needs no search).
        if case .linear = easing.kind { return self }
        if let spanning = Scene.spanningLeaves(root, duration: duration) {
            for tweenEasing in spanning.easings { try Scene.checkDepth(of: tweenEasing.composed(after: easing)) }
            let tweens = spanning.hasEvents ? root.restricted(keepingTweens: true, keepingEvents: false) : root
            let composed = tweens.mappingTweens { $0.eased(easing) }
            guard spanning.hasEvents else { return Scene(root: composed) }
            // Events move with the warp: the least t' with D·E(t'/D) ≥ t.
            let events = Term.eased(root.restricted(keepingTweens: false, keepingEvents: true), easing)
            return Scene(root: Term.parallel([composed, events]))
        }
        guard easing.isMonotone else {
            // No tween at all (waits and events: what `staggered by` keeps of
            // an eased part for its events): every segment spans [0, D],
            // vacuously, so only the events move with the warp, as above.
            if root.views.isEmpty { return root.hasLeaves ? Scene(root: Term.eased(root, easing)) : self }
            throw .nonMonotoneWarp(easing)
        }
        guard root.hasLeaves, !duration.isZero else { return self }
        if case .eased(let inner, let previous) = root.kind {
            let composed = previous.composed(after: easing)
            try Scene.checkDepth(of: composed)
            return Scene(root: Term.eased(inner, composed))
        }
        guard root.warpDepth < Scene.maxWarpNesting else {
            throw .invalidEasing("easings on composite animations nest more than \(Scene.maxWarpNesting) deep")
        }
        return Scene(root: Term.eased(root, easing))
    }

    /// `x played from start to end` (docs/semantics.md §8.5): the stretch `[start, end]`
    /// of `x`, starting at 0; `end` may pass `D` (then `x`'s end values hold),
    /// and `nil` means `D`. Duration `end − start`.
    ///
    /// Property by property it shows what `x` shows at `start + t` (at its
    /// last instant leaving out what starts in `x` exactly at `end`). As a
    /// set of segments: each segment of `x` that runs inside `(start, end)`
    /// is clipped to `[start, end]` (a clipped tween plays the matching
    /// stretch of its eased progress) and shifted by `−start`, keeping as its
    /// rank the start it had in `x` (so the part that won at each instant
    /// still wins, also beside other animations); jumps in `[start, end]`
    /// are kept; a property that no kept segment shows at 0, but that
    /// something in `x` animates by `start`, jumps at 0 to `x`'s value
    /// there; events in `[start, end]` move by `−start`. Relative tweens
    /// inside `x` resolve within `x` alone: the result is absolute.
    ///
    /// Laws: `x played from 0 to D = x` (`x` without relative tweens);
    /// `(x played from a to b) played from c to d = x played from a + c to a + d`
    /// for `0 ≤ c ≤ d ≤ b − a`.
    ///
    /// ```swift
    /// let slide = try Scene.tween(x, from: 0, to: 100, duration: Time(2))
    /// let middle = try slide.played(from: Time(1), to: Time(2))   // 50 → 100 in 1 s
    /// ```
    ///
    /// Throws for `start < 0`, `end < start`, and an endless `x` without `end`.
    public func played(from start: Time = .zero, to end: Time? = nil) throws(AnimationError) -> Scene {
        guard let root else { return self }
        guard let end = end ?? root.duration else { throw .endlessPart }
        guard !start.isNegative, !(end < start) else { throw .invalidPart(start.description, end.description) }
        let length = try end.subtracting(start)
        guard root.hasLeaves else { return try Scene.wait(length) }
        // `x played from 0 to D = x`: nothing is cut, and nothing relative is there to close.
        if start.isZero, end == root.duration, !root.hasRelativeTweens { return self }
        // `(x played from a to b) played from c to d = x played from a + c to a + d` (d ≤ b − a).
        if case .played(let inner, let a, let b) = root.kind, let limit = try? b.subtracting(a), !(limit < end) {
            return Scene(root: try Term.played(inner, from: try a.adding(start), to: try a.adding(end)))
        }
        return Scene(root: try Term.played(root, from: start, to: end))
    }

    /// ``played(from:to:)`` with both times given (the algebra's operation).
    public func played(from start: Time, to end: Time) throws(AnimationError) -> Scene {
        try played(from: start, to: Optional(end))
    }

    /// `x ^ r` and `x repeated r times` for an exact count `r ≥ 0`: a whole
    /// `r` is ``repeated(_:)``; any other means `(x ^ ⌈r⌉) played to r·D`
    /// (docs/semantics.md §8.5), which stays symbolic for a huge count.
    public func repeated(exactly count: Time) throws(AnimationError) -> Scene {
        guard !count.isNegative else { throw .negativeDuration(count.description) }
        if count.denominator == 1 {
            guard let whole = Int(exactly: count.numerator) else { throw .overflow("repeat count") }
            return try repeated(whole)
        }
        guard let root else { return self }
        guard let duration = root.duration else { return self }   // endless: its later copies never start
        let ceiling = count.floorQuotient(dividingBy: .one) + 1
        guard let copies = Int(exactly: ceiling) else { throw .overflow("repeat count") }
        return try repeated(copies).played(from: .zero, to: try duration.multiplied(by: count))
    }

    /// How many time warps (`with E` on a composite) may nest on the way to a tween.
    public static let maxWarpNesting = 256

    private static func checkDepth(of easing: Easing) throws(AnimationError) {
        guard easing.depth <= Easing.maxDepth else {
            throw .invalidEasing("easings compose more than \(Easing.maxDepth) deep")
        }
    }

    /// How many nodes ``spanningLeaves(_:duration:)`` looks at before it
    /// gives up and treats the scene as a composite.
    static let spanningSearchLimit = 4096

    /// When every tween of `root` is placed forwards over exactly `[0, D]`
    /// on a plain clock (at least one tween): their easings, and whether
    /// events are there too; else `nil`. Also `nil` when finding out would
    /// take more than ``spanningSearchLimit`` nodes (what lies that deep is
    /// eased as a composite: the same values for a monotone easing).
    private static func spanningLeaves(_ root: Term, duration: Time) -> (easings: [Easing], hasEvents: Bool)? {
        var easings: [Easing] = []
        var hasEvents = false
        var queue: [(Term, Path)] = [(root, .identity)]
        var next = 0
        while next < queue.count {
            guard next < spanningSearchLimit else { return nil }
            let (term, path) = queue[next]
            next += 1
            switch term.kind {
            case .tween(let tween):
                guard path.collapse == nil, path.stages.isEmpty else { return nil }
                let segment = path.place(term, tween)
                guard segment.isForward, segment.start.exact == .zero, segment.end.exact == duration else { return nil }
                easings.append(tween.easing)
            case .event:
                hasEvents = true
            case .zero, .one, .wait:
                break
            case .power(_, let count) where count > 1:
                return nil
            case .eased(let body, _) where !body.hasViewsWithSegments:
                // Events that an easing before this one moved (what `eased` leaves beside the
                // tweens it composed into): still no segment, so `(x with E1) with E2` composes
                // E2 into the tweens as `x with (E1 ∘ E2)` does (the law, bit for bit).
                hasEvents = hasEvents || body.hasEvents
            case .forever, .eased, .played:
                return nil
            case .sequence, .parallel, .power, .reversed, .retimed:
                var children: [(Term, Path)] = []
                guard (try? descend(term, path, into: &children)) != nil else { return nil }
                queue.append(contentsOf: children.reversed())
            }
        }
        return easings.isEmpty ? nil : (easings, hasEvents)
    }

    /// The same scene with every segment on `old` moved to `new`.
    public func renamingProperty(_ old: Property, to new: Property) -> Scene {
        guard let root else { return self }
        return Scene(root: root.mappingTweens { tween in tween.property == old ? tween.with(property: new) : tween })
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

/// Evaluation is the fold of a term into scenes: each operation of the
/// algebra is the scene operation of the same name.
extension Scene: AnimationAlgebra {
    /// A valid leaf is a scene as it is, and a chain whose parts all evaluated
    /// to themselves (none `one` or cancelled) is one too: the fold reuses
    /// those terms instead of building copies.
    public static func interpret(_ term: Term, _ kind: Term.Kind, _ values: [Scene]) throws(AnimationError) -> Scene {
        switch kind {
        case .wait, .tween, .event:
            return Scene(root: term)
        case .sequence(let parts), .parallel(let parts):
            var reusable = parts.count == values.count
            for (index, (part, value)) in zip(parts, values).enumerated()
            where value.root !== part || part.isOne || (part.isInfinite && index < parts.count - 1) {
                reusable = false
                break
            }
            return reusable ? Scene(root: term) : try interpretByOperations(kind, values)
        case .zero, .one, .power, .forever, .reversed, .retimed, .eased, .played:
            return try interpretByOperations(kind, values)
        }
    }
}

/// The memo of ``Term/evaluate(memo:report:)``, shared across the terms of
/// one program: each composite node walked, with its scene or that it
/// failed. A node whose scene is the node itself (a chain reused as it is
/// written: every `let c5 = c4 ; …` of a long script) is noted without a
/// reference to it, so the memo takes no retain of it, nor a release when
/// it goes, long after the node left the cache (a release of a cold node
/// per such `let`). The memo holds no key: the caller keeps every
/// term it evaluates alive while it uses the memo.
public struct EvaluationMemo {
    enum Entry {
        /// The node's scene is the node itself.
        case itself
        case scene(Scene)
        /// The node, or something inside it, failed (reported once, where it failed).
        case failed
    }

    var table: IdentityTable<Entry>

    /// A memo that takes `capacity` nodes before it grows.
    public init(capacity: Int = 0) {
        table = IdentityTable(capacity: capacity)
    }

    /// How many composite nodes it holds.
    public var count: Int { table.count }
}

extension Term {
    /// The scene this term means (evaluation: the fold into ``Scene``), with
    /// `memo` shared across the terms of one program; `report` hears of each
    /// subterm whose operation fails. See ``fold(into:memo:report:)``.
    ///
    /// It is that fold with the leaves read in place: a leaf (tween, wait,
    /// event) *is* its scene and cannot fail (``Scene/interpret(_:_:_:)``), so
    /// only composite nodes are walked and kept in `memo` (a chain of n
    /// tweens makes one entry, not n + 1).
    public func evaluate(memo: inout EvaluationMemo, report: (Term, AnimationError) -> Void) -> Scene? {
        if isLeaf { return Scene(root: self) }
        let value = bottomUp(memo: &memo.table, operands: { term in term.children.filter { !$0.isLeaf } }) {
            (term: Term, operands: [EvaluationMemo.Entry]) -> EvaluationMemo.Entry in
            let kind = term.kind
            if case .sequence(let parts) = kind, let reused = Term.reusedChain(parts, operands) { return reused }
            if case .parallel(let parts) = kind, let reused = Term.reusedChain(parts, operands) { return reused }
            // The children's values, leaves as themselves (whatever contains a failure fails quietly).
            var values: [Scene] = []
            var next = 0
            for child in term.children {
                if child.isLeaf {
                    values.append(Scene(root: child))
                } else {
                    guard next < operands.count else { return .failed }
                    switch operands[next] {
                    case .itself: values.append(Scene(root: child))
                    case .scene(let scene): values.append(scene)
                    case .failed: return .failed
                    }
                    next += 1
                }
            }
            do throws(AnimationError) {
                let scene = try Scene.interpret(term, kind, values)
                return scene.root === term ? .itself : .scene(scene)
            } catch {
                report(term, error)
                return .failed
            }
        }
        switch value {
        case .itself: return Scene(root: self)
        case .scene(let scene): return scene
        case .failed, nil: return nil
        }
    }

    /// For a `;` or `||` node whose non-leaf `parts` have the entries
    /// `operands` (in order): the node itself when ``Scene/interpret(_:_:_:)``
    /// would reuse it (every part evaluated to itself, none `one`, no endless
    /// part before the last), `.failed` when a part failed, else `nil`
    /// (build it by the operations). Leaves are always reusable.
    private static func reusedChain(_ parts: [Term], _ operands: [EvaluationMemo.Entry]) -> EvaluationMemo.Entry? {
        var next = 0
        var reusable = true
        for (index, part) in parts.enumerated() where !part.isLeaf {
            guard next < operands.count else { return .failed }
            let isItself: Bool
            switch operands[next] {
            case .itself: isItself = true
            case .scene(let scene): isItself = scene.root === part
            case .failed: return .failed
            }
            next += 1
            if !isItself || Scene.isOne(part) || (part.isInfinite && index < parts.count - 1) { reusable = false }
        }
        return reusable ? .itself : nil
    }
}
