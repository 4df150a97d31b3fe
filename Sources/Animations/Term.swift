/// One tween in its own frame: ``property`` goes from ``from`` to ``to``
/// with ``easing`` over `[0, duration]`, playing forwards. It is the leaf of
/// every ``Term``; placed in a ``Scene`` it becomes a ``Segment``.
///
/// A *relative* tween (docs/semantics.md §7.1) starts from the property's current
/// value, read where the tween lands in the scene: `to B` goes from it to
/// `B`, `by Δ` from it to itself plus `Δ` (numbers only). Its start is found
/// when the scene is compiled (``Scene/compile(materializeLimit:initial:)``).
///
/// ```swift
/// let x = Property(view: "card", name: "x")
/// let there = try Tween(property: x, to: .number(100))     // from wherever x is
/// let nudge = try Tween(property: x, by: .number(12))       // x + 12
/// ```
public struct Tween: Hashable, Sendable {
    /// How a tween's start value is found.
    public enum Relative: Hashable, Sendable {
        /// `from A to B`: both ends written.
        case absolute
        /// `to B`: from the current value to ``Tween/to``.
        case to
        /// `by Δ`: from the current value `c` to `c + Δ`; ``Tween/to`` holds `Δ`.
        case by

        /// A canonical order (the normalizer sorts `||` operands by it).
        var rank: UInt8 {
            switch self {
            case .absolute: return 0
            case .to: return 1
            case .by: return 2
            }
        }
    }

    public let property: Property
    /// Both values, compactly (a tween is a leaf of every term, one per
    /// tween written: its size counts).
    let ends: Ends
    public let relative: Relative
    public let easing: Easing
    public let duration: Time
    /// The start value; for a relative tween a placeholder of the right kind
    /// (`to` for `.to`, `0` for `.by`), replaced when it is placed and resolved.
    public var from: Value { ends.from }
    /// The end value; for `.by`, the change `Δ`.
    public var to: Value { ends.to }

    /// Throws for a negative duration, a non-finite value, or ends of different kinds.
    public init(property: Property, from: Value, to: Value, easing: Easing = .linear, duration: Time = .one) throws(AnimationError) {
        guard !duration.isNegative else { throw .negativeDuration(duration.description) }
        guard from.isFinite else { throw .notFinite("the start value of \(property)") }
        guard to.isFinite else { throw .notFinite("the end value of \(property)") }
        guard from.kind == to.kind else { throw .mixedKinds(property, from.kind, to.kind) }
        self.init(unchecked: property, from: from, to: to, easing: easing, duration: duration)
    }

    /// `to B`: from the property's current value to `target`.
    public init(property: Property, to target: Value, easing: Easing = .linear, duration: Time = .one) throws(AnimationError) {
        guard !duration.isNegative else { throw .negativeDuration(duration.description) }
        guard target.isFinite else { throw .notFinite("the end value of \(property)") }
        self.init(unchecked: property, from: target, to: target, easing: easing, duration: duration, relative: .to)
    }

    /// `by Δ`: from the property's current value `c` to `c + Δ`. Throws for a
    /// colour (colours take `to`) or a non-finite change.
    public init(property: Property, by change: Value, easing: Easing = .linear, duration: Time = .one) throws(AnimationError) {
        guard !duration.isNegative else { throw .negativeDuration(duration.description) }
        guard case .number = change else { throw .relativeColor(property) }
        guard change.isFinite else { throw .notFinite("the change of \(property)") }
        self.init(unchecked: property, from: .number(0), to: change, easing: easing, duration: duration, relative: .by)
    }

    /// A tween whose arguments are known to be valid (built from a valid one).
    init(unchecked property: Property, from: Value, to: Value, easing: Easing, duration: Time, relative: Relative = .absolute) {
        self.property = property
        // -0 and 0 are one value: the same tween, however it was written.
        ends = Ends(from.canonical, to.canonical)
        self.easing = easing
        self.duration = duration
        self.relative = relative
    }

    /// The same tween with other parts (which keep the tween valid: the
    /// same kind of values, a non-negative duration).
    public func with(property: Property? = nil, from: Value? = nil, to: Value? = nil, easing: Easing? = nil, duration: Time? = nil) -> Tween {
        Tween(unchecked: property ?? self.property, from: from ?? self.from, to: to ?? self.to,
              easing: easing ?? self.easing, duration: duration ?? self.duration, relative: relative)
    }

    /// Whether its start is the property's current value (`to B`, `by Δ`).
    public var isRelative: Bool { relative != .absolute }

    /// `tween with E`: `E` composed into the tween's own easing,
    /// `p ↦ easing(E(p))` (the law of ``Scene/eased(_:)`` on a tween; the
    /// normalizer and the language's lowering write it the same way).
    public func eased(_ warp: Easing) -> Tween {
        with(easing: easing.composed(after: warp))
    }

    /// `tween in d`, when the tween takes time: the tween lasting `d`
    /// (``Scene/retimed(to:)`` scales its one window to `[0, d]`); `nil` when
    /// it lasts no time or `d` is negative (the law of ``Term/retimedLeaf(to:)``;
    /// the language's lowering applies it before making the leaf).
    public func retimed(to target: Time) -> Tween? {
        guard duration.isPositive, !target.isNegative else { return nil }
        return with(duration: target)
    }
}

extension Term {
    /// A tween leaf's property, read in place (a ``Segment`` reads it here);
    /// for any other node, which no segment places, an empty property.
    var leafProperty: Property {
        if case .tween(let tween) = storage { return tween.property }
        return Property(view: "", name: "")
    }

    /// Whether this node is a tween of `property` (read in place).
    func isTween(of property: Property) -> Bool {
        switch storage {
        case .tween(let tween): return tween.property == property
        case .zero, .one, .wait, .event, .sequence, .parallel, .power, .forever, .reversed, .retimed, .eased, .played: return false
        }
    }

    /// Whether this node is a tween leaf (read from the flags).
    var isTween: Bool { flags & (Term.leafFlag | Term.leavesFlag | Term.eventsFlag) == Term.leafFlag | Term.leavesFlag }

    /// For a tween leaf, appends the segment it becomes at the end of
    /// `path` to `list` and returns true; false for any other node. Only
    /// the tween's ends and easing are read from ``kind`` (its duration and
    /// kind of start are in the flags), without a copy of the whole kind.
    func placeTween(at path: Path, into list: SegmentList) -> Bool {
        guard let (ends, isLinear) = leafEndsAndLinearity, let duration else { return false }
        let relative: Tween.Relative = relatives == 1 ? .to : relatives == 2 ? .by : .absolute
        list.append(path.place(self, ends: ends, isLinear: isLinear, duration: duration, relative: relative))
        return true
    }

    private var leafEndsAndLinearity: (Ends, Bool)? {
        switch storage {
        case .tween(let tween): return (tween.ends, tween.easing.isLinear)
        case .zero, .one, .wait, .event, .sequence, .parallel, .power, .forever, .reversed, .retimed, .eased, .played: return nil
        }
    }

    /// A tween leaf's easing, read in place (a ``Segment`` reads it here);
    /// for any other node, which no segment places, linear.
    var leafEasing: Easing {
        if case .tween(let tween) = storage { return tween.easing }
        return .linear
    }

    /// `self with E` written on the leaf, when `self` is a tween: the tween
    /// with `E` composed into its easing (``Tween/eased(_:)``); `nil` for
    /// any other term, which keeps an `eased` node.
    public func easedLeaf(_ warp: Easing) -> Term? {
        guard case .tween(let tween) = kind else { return nil }
        return Term.tween(tween.eased(warp))
    }

    /// `self in d` written on the leaf, when `self` is a tween that takes
    /// time: the tween lasting `d` (``Scene/retimed(to:)`` scales its one
    /// window to `[0, d]`); `nil` for any other term.
    public func retimedLeaf(to target: Time) -> Term? {
        guard case .tween(let tween) = kind, let retimed = tween.retimed(to: target) else { return nil }
        return Term.tween(retimed)
    }
}

/// A term of the free algebra of animations: the free semiring over
/// tween, wait and event leaves (`;` and `||`, with `zero` and `one`),
/// extended with the unary operators. No law is applied when a term is
/// built: `x ; one` is a term different from `x`. Laws live in two places,
/// each stated once beside the operator that obeys it: the meaning
/// (``Scene``'s operations, which ``fold(into:memo:report:)`` applies) and the
/// sound rewrites (``normalized()``).
///
/// ```swift
/// let grow = Term.tween(try Tween(property: Property(view: "c", name: "radius"), from: .number(10), to: .number(100)))
/// let term = try Term.sequence([grow, try Term.wait(Time(1)), Term.reversed(grow)])
/// term.duration                               // 3
/// let scene = try term.fold(into: Scene.self)  // the universal property: evaluate
/// ```
///
/// Terms are immutable and shared: the same term may appear in many places
/// (a `let` used twice), and folds visit it once. They may be deep (a Swift
/// loop of `x = x * y` builds one level per step); every traversal here uses
/// an explicit stack, and releasing a deep term does not recurse.
public final class Term: @unchecked Sendable, CustomStringConvertible {
    public enum Kind {
        /// The cancelled animation: identity of `||`, annihilator of `;`.
        case zero
        /// Nothing, in no time: identity of `;`.
        case one
        /// Nothing, for a while.
        case wait(Time)
        /// (In place, not boxed: a chain is mostly tweens, and one object
        /// per tween instead of two saves the second header and allocation.)
        case tween(Tween)
        /// An instant event, `emit NAME`.
        case event(String)
        /// `a ; b ; …`: each starts when the one before ends.
        case sequence([Term])
        /// `a || b || …`: all start together.
        case parallel([Term])
        /// `x ^ n`: n copies in sequence.
        case power(Term, Int)
        /// `x repeated forever`: `x ^ ∞`, copies of `x` one after another without end.
        case forever(Term)
        /// `x reversed`.
        case reversed(Term)
        /// `x in d`: every time scaled so that the whole lasts `d`.
        case retimed(Term, Time)
        /// `x with E`.
        case eased(Term, Easing)
        /// `x played from T1 to T2`: the stretch `[T1, T2]` of `x`, starting at 0
        /// (docs/semantics.md §8.5); `0 ≤ T1 ≤ T2`, and `T2` may pass `|x|`.
        case played(Term, from: Time, to: Time)
    }

    // Stored compactly (a long chain is one node per step): the flags and
    // small counts in one word, the duration as its two integers.
    private let flags: UInt8
    private let warps: UInt16
    private let levels: Int32
    /// How many leaves (tweens and events) listing every copy would give (saturating).
    public let leafCount: Int
    /// ``duration``'s numerator and denominator; the denominator is 0 for `nil`.
    private let durationNumerator: Int64
    private let durationDenominator: Int64
    /// (A `var` only so that ``deinit`` can drop a subterm's children early:
    /// it changes a node no one else holds, so reads need no dynamic
    /// exclusivity check.)
    @exclusivity(unchecked) private var storage: Kind

    private static let infiniteFlag: UInt8 = 4, leavesFlag: UInt8 = 8, eventsFlag: UInt8 = 16, leafFlag: UInt8 = 32
    /// The flags a node takes from its children: the relative tweens and the events inside.
    private var inherited: UInt8 { flags & (3 | Term.eventsFlag) }

    /// What this term is.
    public var kind: Kind { storage }

    /// The duration, or `nil` when the term is cancelled (it contains `zero`
    /// in a place where it annihilates) or lasts forever (``isInfinite``).
    public var duration: Time? {
        @inline(__always) get { durationDenominator == 0 ? nil : Time(unchecked: durationNumerator, durationDenominator) }
    }
    /// Whether it lasts forever (`x repeated forever` somewhere it is not
    /// annihilated). ``duration`` is then `nil`.
    public var isInfinite: Bool { flags & Term.infiniteFlag != 0 }
    /// The most easings on composites (`with`) on one path from here to a
    /// leaf (saturating at 65,535, past ``Scene/maxWarpNesting``).
    public var warpDepth: Int { Int(warps) }
    /// The height of the tree (a leaf is 1).
    public var height: Int { Int(levels) }
    /// Whether a tween or an event lies inside.
    public var hasLeaves: Bool { flags & Term.leavesFlag != 0 }
    /// Whether this node is a tween, a wait or an event (read without
    /// copying ``kind``, whose tween is stored in place).
    var isLeaf: Bool { flags & Term.leafFlag != 0 }
    /// Which relative tweens lie inside (bit 1: `to B`, bit 2: `by Δ`).
    var relatives: UInt8 { flags & 3 }

    /// Whether a relative tween (`to B` or `by Δ`) lies inside: its scene
    /// resolves start values when compiled.
    public var hasRelativeTweens: Bool { relatives != 0 }
    /// Whether a `to B` tween lies inside: reversing it has no meaning
    /// (docs/semantics.md §7.1), so the language refuses `reversed` and `looped` on it.
    public var hasRelativeTo: Bool { relatives & 1 != 0 }

    private init(_ kind: Kind, duration: Time?, isInfinite: Bool = false, leafCount: Int, warpDepth: Int, height: Int, hasLeaves: Bool,
                 relatives: UInt8 = 0, isLeaf: Bool = false) {
        storage = kind
        let duration = isInfinite ? nil : duration
        durationNumerator = duration?.numerator ?? 0
        durationDenominator = duration?.denominator ?? 0
        // (`relatives`: the bits a node inherits, ``inherited``.)
        flags = (relatives & (3 | Term.eventsFlag)) | (isInfinite ? Term.infiniteFlag : 0) | (hasLeaves ? Term.leavesFlag : 0)
            | (isLeaf ? Term.leafFlag : 0)
        self.leafCount = leafCount
        warps = UInt16(clamping: warpDepth)
        // (A term of more than 2^31 levels does not fit in memory.)
        levels = Int32(clamping: height)
    }

    // MARK: - Building terms (no laws applied)

    /// `zero`.
    public static let zero = Term(.zero, duration: nil, leafCount: 0, warpDepth: 0, height: 1, hasLeaves: false)
    /// `one`.
    public static let one = Term(.one, duration: .zero, leafCount: 0, warpDepth: 0, height: 1, hasLeaves: false)

    /// `wait d`; throws for a negative `d`.
    public static func wait(_ duration: Time) throws(AnimationError) -> Term {
        guard !duration.isNegative else { throw .negativeDuration(duration.description) }
        return Term(.wait(duration), duration: duration, leafCount: 0, warpDepth: 0, height: 1, hasLeaves: false, isLeaf: true)
    }

    /// A tween leaf. (`consuming`: a caller's tween made for the leaf is moved in, not copied and destroyed.)
    public static func tween(_ tween: consuming Tween) -> Term {
        let relatives: UInt8
        switch tween.relative {
        case .absolute: relatives = 0
        case .to: relatives = 1
        case .by: relatives = 2
        }
        return Term(.tween(tween), duration: tween.duration, leafCount: 1, warpDepth: 0, height: 1, hasLeaves: true, relatives: relatives,
                    isLeaf: true)
    }

    /// `emit name`: an instant event.
    public static func event(_ name: String) -> Term {
        Term(.event(name), duration: .zero, leafCount: 1, warpDepth: 0, height: 1, hasLeaves: true, relatives: Term.eventsFlag, isLeaf: true)
    }

    /// `parts[0] ; parts[1] ; …` (`one` for no parts is the caller's choice:
    /// this builds the node as given). Throws when the total overflows.
    public static func sequence(_ parts: [Term]) throws(AnimationError) -> Term {
        var infinite = false, cancelled = false
        var leaves = 0, warps = 0, height = 0
        var hasLeaves = false
        var relatives: UInt8 = 0
        for part in parts {
            if part.isInfinite {
                infinite = true
            } else if part.duration == nil {
                cancelled = true
            }
            leaves = leaves.addingSaturating(part.leafCount)
            warps = max(warps, part.warpDepth)
            height = max(height, part.height)
            hasLeaves = hasLeaves || part.hasLeaves
            relatives |= part.inherited
        }
        // (Added up even when a part is cancelled: a total that overflows throws, as it always did.)
        let duration = try sequenceTotal(parts)
        return Term(.sequence(parts), duration: cancelled ? nil : duration, isInfinite: infinite && !cancelled,
                    leafCount: leaves, warpDepth: warps, height: height + 1, hasLeaves: hasLeaves, relatives: relatives)
    }

    /// The parts' durations added up to the first endless part (which ends the
    /// sum: nothing after it plays), over a common denominator (``RunningTotal``:
    /// no gcd per part); throws where adding them one by one overflows.
    private static func sequenceTotal(_ parts: [Term]) throws(AnimationError) -> Time {
        var total = RunningTotal()
        for part in parts {
            if part.isInfinite { break }
            if let d = part.duration { try total.add(d) }
        }
        return total.time
    }

    /// A chain of sequenced parts of which some overlap what comes before
    /// them (docs/semantics.md §8.1): a part `(p, nil)` follows the chain so far `S`
    /// (`S ; p`), a part `(p, D)` starts `D` before its end,
    /// `S || (wait (|S| − D) ; p)`, lasting `max(|S|, |S| − D + |p|)`.
    ///
    /// Built flat: the parts before the first overlap as one sequence, then
    /// each later part `wait o ; p` at its start `o` in one `||`, which has
    /// the same meaning Σ as the nested form, so 20k overlapping parts make
    /// no 20k-deep term. Laws: with no overlap it is ``sequence(_:)``; `(p, 0)`
    /// is `S ; p` when `p` lasts no less than nothing after it; a cancelled
    /// part without overlap cancels the chain (`;`'s annihilator), a
    /// cancelled overlapping part is `S || zero = S`. Throws
    /// `negativeDuration` for a `D` below zero or above `|S|` (the part would
    /// start before the chain does) and `infinite` for an overlap after parts
    /// that never end.
    public static func chain(_ parts: [(part: Term, overlap: Time?)]) throws(AnimationError) -> Term {
        guard let firstOverlap = parts.firstIndex(where: { $0.overlap != nil }) else { return try sequence(parts.map(\.part)) }
        if parts.contains(where: { $0.overlap == nil && $0.part.duration == nil && !$0.part.isInfinite }) { return .zero }
        let before = firstOverlap == 0 ? Term.one : try sequence(parts[..<firstOverlap].map(\.part))
        var items = firstOverlap == 0 ? [] : [before]
        var end = before.duration ?? .zero
        var endless = before.isInfinite
        for (part, overlap) in parts[firstOverlap...] {
            var start = end
            if let overlap {
                if endless { throw .infinite("overlap") }
                guard !overlap.isNegative, !(end < overlap) else {
                    throw .negativeDuration(try end.subtracting(overlap).description)
                }
                start = try end.subtracting(overlap)
                if part.duration == nil, !part.isInfinite { continue }
            } else if endless {
                continue   // never starts
            }
            items.append(start.isZero ? part : try sequence([try wait(start), part]))
            if part.isInfinite {
                endless = true
            } else if let length = part.duration {
                end = max(end, try start.adding(length))
            }
        }
        return items.count == 1 ? items[0] : parallel(items)
    }

    /// `parts[0] || parts[1] || …`.
    public static func parallel(_ parts: [Term]) -> Term {
        var duration: Time?
        var leaves = 0, warps = 0, height = 0
        var hasLeaves = false
        var relatives: UInt8 = 0
        var infinite = false
        for part in parts {
            if let d = part.duration { duration = max(duration ?? d, d) }
            infinite = infinite || part.isInfinite
            leaves = leaves.addingSaturating(part.leafCount)
            warps = max(warps, part.warpDepth)
            height = max(height, part.height)
            hasLeaves = hasLeaves || part.hasLeaves
            relatives |= part.inherited
        }
        return Term(.parallel(parts), duration: duration, isInfinite: infinite, leafCount: leaves, warpDepth: warps,
                    height: height + 1, hasLeaves: hasLeaves, relatives: relatives)
    }

    /// `body ^ count`; throws for a negative count or when `count·D` overflows.
    public static func power(_ body: Term, _ count: Int) throws(AnimationError) -> Term {
        guard count >= 0 else { throw .negativeCount(count) }
        let duration: Time?
        if count == 0 {
            duration = .zero
        } else if let d = body.duration {
            duration = try d.multiplied(by: Int64(count))
        } else {
            duration = nil
        }
        return Term(.power(body, count), duration: duration, isInfinite: count > 0 && body.isInfinite,
                    leafCount: count == 0 ? 0 : body.leafCount.multipliedSaturating(count),
                    warpDepth: body.warpDepth, height: body.height + 1, hasLeaves: count > 0 && body.hasLeaves,
                    relatives: count > 0 ? body.inherited : body.inherited & Term.eventsFlag)
    }

    /// `body repeated forever`. (Whether that means anything — `body` must
    /// last more than an instant — is the meaning's business: ``Scene/repeatedForever()``.)
    public static func forever(_ body: Term) -> Term {
        Term(.forever(body), duration: nil, isInfinite: body.duration != nil || body.isInfinite, leafCount: Int.max,
             warpDepth: body.warpDepth, height: body.height + 1, hasLeaves: body.hasLeaves, relatives: body.inherited)
    }

    /// `body reversed`.
    public static func reversed(_ body: Term) -> Term {
        Term(.reversed(body), duration: body.duration, isInfinite: body.isInfinite, leafCount: body.leafCount,
             warpDepth: body.warpDepth, height: body.height + 1, hasLeaves: body.hasLeaves, relatives: body.inherited)
    }

    /// `body in target`; throws for a negative target.
    public static func retimed(_ body: Term, to target: Time) throws(AnimationError) -> Term {
        guard !target.isNegative else { throw .negativeDuration(target.description) }
        return Term(.retimed(body, target), duration: body.duration == nil ? nil : target, isInfinite: body.isInfinite,
                    leafCount: body.leafCount, warpDepth: body.warpDepth, height: body.height + 1, hasLeaves: body.hasLeaves,
                    relatives: body.inherited)
    }

    /// `body with easing`.
    public static func eased(_ body: Term, _ easing: Easing) -> Term {
        Term(.eased(body, easing), duration: body.duration, isInfinite: body.isInfinite, leafCount: body.leafCount,
             warpDepth: body.warpDepth + 1, height: body.height + 1, hasLeaves: body.hasLeaves, relatives: body.inherited)
    }

    /// `body played from start to end` (docs/semantics.md §8.5): lasts `end − start`;
    /// closed, so no relative tween shows through it (what it yields is
    /// absolute). Throws for `start < 0` or `end < start`.
    public static func played(_ body: Term, from start: Time, to end: Time) throws(AnimationError) -> Term {
        guard !start.isNegative, !(end < start) else { throw .invalidPart(start.description, end.description) }
        let duration = try end.subtracting(start)
        return Term(.played(body, from: start, to: end), duration: body.duration == nil && !body.isInfinite ? nil : duration,
                    leafCount: body.leafCount, warpDepth: body.warpDepth, height: body.height + 1, hasLeaves: body.hasLeaves,
                    relatives: body.inherited & Term.eventsFlag)
    }

    // MARK: - Structure

    /// The direct subterms.
    public var children: [Term] {
        switch kind {
        case .zero, .one, .wait, .tween, .event: return []
        case .sequence(let parts), .parallel(let parts): return parts
        case .power(let body, _), .forever(let body), .reversed(let body), .retimed(let body, _), .eased(let body, _),
             .played(let body, _, _): return [body]
        }
    }

    /// The same node over other children (in the order of ``children``).
    func replacingChildren(_ children: [Term]) throws(AnimationError) -> Term {
        switch kind {
        case .zero, .one, .wait, .tween, .event: return self
        case .sequence: return try Term.sequence(children)
        case .parallel: return Term.parallel(children)
        case .power(_, let count): return try Term.power(children[0], count)
        case .forever: return Term.forever(children[0])
        case .reversed: return Term.reversed(children[0])
        case .retimed(_, let target): return try Term.retimed(children[0], to: target)
        case .eased(_, let easing): return Term.eased(children[0], easing)
        case .played(_, let start, let end): return try Term.played(children[0], from: start, to: end)
        }
    }

    /// The one walk that rebuilds (or folds) the shared term graph, bottom
    /// up, without recursion: `combine(term, results)` is called once per
    /// distinct subterm (by identity), with the results of its `operands`
    /// (by default its ``children``; a rewrite may name fewer, or other
    /// terms below it), each computed before it. `memo` holds every result,
    /// and the caller may keep it across walks. `nil` only if `combine`
    /// never ran for `self` (it cannot happen for a term, whose graph has
    /// no cycles).
    func bottomUp<R, E: Error>(memo: inout IdentityTable<R>, operands: (Term) -> [Term] = { $0.children },
                               _ combine: (Term, [R]) throws(E) -> R) throws(E) -> R? {
        if let known = memo[ObjectIdentifier(self)] { return known }
        // A term waiting for its operands holds them (computed once).
        var stack = [Visit(term: self, operands: nil)]
        var results: [R] = []
        while let visit = stack.popLast() {
            let term = visit.term
            let id = ObjectIdentifier(term)
            if memo[id] != nil { continue }
            guard let list = visit.operands else {
                let list = operands(term)
                stack.append(Visit(term: term, operands: list))
                for operand in list.reversed() where memo[ObjectIdentifier(operand)] == nil {
                    stack.append(Visit(term: operand, operands: nil))
                }
                continue
            }
            results.removeAll(keepingCapacity: true)
            for operand in list {
                guard let result = memo[ObjectIdentifier(operand)] else { return nil }
                results.append(result)
            }
            memo.set(try combine(term, results), for: id)
        }
        return memo[ObjectIdentifier(self)]
    }

    /// A term ``bottomUp(memo:operands:_:)`` has to visit, with its operands
    /// once it waits for them (a struct: an array of tuples would build the
    /// tuple's metadata at run time, on every start-up).
    private struct Visit {
        let term: Term
        let operands: [Term]?
    }

    /// ``bottomUp(memo:operands:_:)`` for one walk.
    func bottomUp<R, E: Error>(operands: (Term) -> [Term] = { $0.children },
                               _ combine: (Term, [R]) throws(E) -> R) throws(E) -> R? {
        var memo = IdentityTable<R>()
        return try bottomUp(memo: &memo, operands: operands, combine)
    }

    /// A copy with every tween transformed (shared subterms stay shared; no recursion).
    public func mappingTweens(_ transform: (Tween) -> Tween) -> Term {
        bottomUp { (term: Term, mapped: [Term]) -> Term in
            if case .tween(let tween) = term.kind { return .tween(transform(tween)) }
            // Durations are unchanged by renaming, so rebuilding cannot overflow.
            return (try? term.replacingChildren(mapped)) ?? term
        } ?? self
    }

    /// The property of the first `to B` tween inside (depth first), if any.
    public var firstRelativeTo: Property? {
        var stack: [Term] = [self]
        while let term = stack.popLast() {
            guard term.hasRelativeTo else { continue }
            if case .tween(let tween) = term.kind { return tween.property }
            stack.append(contentsOf: term.children.reversed())
        }
        return nil
    }

    /// A readable, fully parenthesised form for tests and debugging
    /// (the `.anim` printer lives in `AnimLang`).
    public var description: String {
        var out = ""
        var stack: [Either] = [.term(self)]
        enum Either { case term(Term), text(String) }
        while let next = stack.popLast() {
            switch next {
            case .text(let text): out += text
            case .term(let term):
                switch term.kind {
                case .zero: out += "zero"
                case .one: out += "one"
                case .wait(let d): out += "wait \(d)s"
                case .tween(let t):
                    switch t.relative {
                    case .absolute: out += "(\(t.property) \(t.from)→\(t.to) in \(t.duration)s \(t.easing))"
                    case .to: out += "(\(t.property) to \(t.to) in \(t.duration)s \(t.easing))"
                    case .by: out += "(\(t.property) by \(t.to) in \(t.duration)s \(t.easing))"
                    }
                case .event(let name): out += "emit \(name)"
                case .sequence(let parts), .parallel(let parts):
                    let separator: String
                    if case .sequence = term.kind { separator = " ; " } else { separator = " || " }
                    stack.append(.text(")"))
                    for (index, part) in parts.enumerated().reversed() {
                        stack.append(.term(part))
                        if index > 0 { stack.append(.text(separator)) }
                    }
                    stack.append(.text("("))
                case .power(let body, let count): stack.append(.text(" ^ \(count))")); stack.append(.term(body)); stack.append(.text("("))
                case .forever(let body): stack.append(.text(" repeated forever)")); stack.append(.term(body)); stack.append(.text("("))
                case .reversed(let body): stack.append(.text(" reversed)")); stack.append(.term(body)); stack.append(.text("("))
                case .retimed(let body, let d): stack.append(.text(" in \(d)s)")); stack.append(.term(body)); stack.append(.text("("))
                case .eased(let body, let e): stack.append(.text(" with \(e))")); stack.append(.term(body)); stack.append(.text("("))
                case .played(let body, let a, let b):
                    stack.append(.text(" played from \(a)s to \(b)s)")); stack.append(.term(body)); stack.append(.text("("))
                }
            }
        }
        return out
    }

    deinit {
        // A leaf holds no terms (its kind is released as usual).
        if isLeaf { return }
        // Release long chains of uniquely owned subterms without recursion:
        // each one's children are held here before it lets go of them, so
        // releasing it frees no deeper term.
        var stack: [Term] = []
        Term.moveChildren(of: &storage, into: &stack)
        while var term = stack.popLast() {
            if !term.isLeaf, isKnownUniquelyReferenced(&term) {
                Term.moveChildren(of: &term.storage, into: &stack)
            }
        }
    }

    /// Moves a node's children onto `stack` and leaves the node `zero`, so
    /// that the stack holds the only reference a child may have left.
    private static func moveChildren(of storage: inout Kind, into stack: inout [Term]) {
        // Moved out (no copy of the kind), then its children collected.
        var kind = Kind.zero
        swap(&kind, &storage)
        switch consume kind {
        case .zero, .one, .wait, .tween, .event: return
        case .sequence(let parts), .parallel(let parts): stack.append(contentsOf: parts)
        case .power(let body, _), .forever(let body), .reversed(let body), .retimed(let body, _), .eased(let body, _),
             .played(let body, _, _): stack.append(body)
        }
    }
}

extension Int {
    package func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? Int.max : sum
    }

    package func multipliedSaturating(_ other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? Int.max : product
    }
}

// MARK: - The universal property

/// An algebra the free term can be interpreted in: the semiring operations
/// (throwing, n-ary), the leaves, and the unary operators. ``Scene`` (the
/// meaning), ``MaxPlusDuration`` (durations) and ``Schedule`` (where each
/// leaf falls) conform; ``Term/fold(into:memo:report:)`` is the unique map
/// from terms that respects every operation.
public protocol AnimationAlgebra {
    static var zero: Self { get }
    static var one: Self { get }
    static func wait(_ duration: Time) throws(AnimationError) -> Self
    static func tween(_ tween: Tween) throws(AnimationError) -> Self
    static func event(_ name: String) throws(AnimationError) -> Self
    static func sequence(_ parts: [Self]) throws(AnimationError) -> Self
    static func parallel(_ parts: [Self]) throws(AnimationError) -> Self
    func repeated(_ count: Int) throws(AnimationError) -> Self
    func repeatedForever() throws(AnimationError) -> Self
    var reversed: Self { get throws(AnimationError) }
    func retimed(to duration: Time) throws(AnimationError) -> Self
    func eased(_ easing: Easing) throws(AnimationError) -> Self
    /// `self played from start to end` (docs/semantics.md §8.5).
    func played(from start: Time, to end: Time) throws(AnimationError) -> Self
    /// `term`'s operation on its children's values; see the default below.
    static func interpret(_ term: Term, _ kind: Term.Kind, _ values: [Self]) throws(AnimationError) -> Self
}

/// Where a fold failed: the subterm whose operation threw, and why.
public struct FoldError: Error, Sendable {
    public let term: Term
    public let error: AnimationError
}

extension Term {
    /// Interprets the term in `A`: leaves by `A`'s leaves, each operator by
    /// `A`'s. Shared subterms are interpreted once (`memo`, which the caller
    /// may keep across several folds, holds every result, `nil` for a
    /// failure). When an operation throws, `report` hears of that subterm
    /// only; whatever contains it fails quietly. No recursion: deep terms are fine.
    public func fold<A: AnimationAlgebra>(into algebra: A.Type, memo: inout IdentityTable<A?>,
                                         report: (Term, AnimationError) -> Void) -> A? {
        let value = bottomUp(memo: &memo) { (term: Term, operands: [A?]) -> A? in
            // Whatever contains a failure fails quietly: only the subterm that threw is reported.
            var values: [A] = []
            values.reserveCapacity(operands.count)
            for operand in operands {
                guard let value = operand else { return nil }
                values.append(value)
            }
            do throws(AnimationError) {
                return try A.interpret(term, term.kind, values)
            } catch {
                report(term, error)
                return nil
            }
        }
        return value ?? nil
    }

    /// ``fold(into:memo:report:)`` for one term: the value, or the first failure.
    public func fold<A: AnimationAlgebra>(into algebra: A.Type) throws(FoldError) -> A {
        var memo = IdentityTable<A?>()
        var failure: FoldError?
        let value = fold(into: algebra, memo: &memo) { term, error in
            if failure == nil { failure = FoldError(term: term, error: error) }
        }
        if let value { return value }
        throw failure ?? FoldError(term: self, error: .overflow("fold"))
    }
}

extension AnimationAlgebra {
    /// `term`'s operation in this algebra, on its children's values (in the
    /// order of ``Term/children``). An algebra may override it to reuse what it
    /// can of the term itself (``Scene`` does: a valid leaf *is* a scene).
    public static func interpret(_ term: Term, _ kind: Term.Kind, _ values: [Self]) throws(AnimationError) -> Self {
        try interpretByOperations(kind, values)
    }

    /// `kind`'s operation in this algebra, by the algebra's operations.
    public static func interpretByOperations(_ kind: Term.Kind, _ values: [Self]) throws(AnimationError) -> Self {
        switch kind {
        case .zero: return Self.zero
        case .one: return Self.one
        case .wait(let d): return try Self.wait(d)
        case .tween(let tween): return try Self.tween(tween)
        case .event(let name): return try Self.event(name)
        case .sequence: return try Self.sequence(values)
        case .parallel: return try Self.parallel(values)
        case .power(_, let count): return try values[0].repeated(count)
        case .forever: return try values[0].repeatedForever()
        case .reversed: return try values[0].reversed
        case .retimed(_, let target): return try values[0].retimed(to: target)
        case .eased(_, let easing): return try values[0].eased(easing)
        case .played(_, let start, let end): return try values[0].played(from: start, to: end)
        }
    }
}

extension Term: Semiring {
    /// `lhs ; rhs` as a term. Precondition: the total duration fits exact
    /// time (``sequence(_:)`` throws instead).
    public static func * (lhs: Term, rhs: Term) -> Term {
        must { () throws(AnimationError) in try Term.sequence([lhs, rhs]) }
    }

    /// `lhs || rhs` as a term.
    public static func + (lhs: Term, rhs: Term) -> Term {
        Term.parallel([lhs, rhs])
    }
}

// MARK: - Restriction and stagger

extension Term {
    /// The same term with only some of its leaves: every tween that `keep`
    /// refuses becomes a wait as long as it was, every event refused goes,
    /// so every remaining leaf keeps its place in time (shared subterms stay
    /// shared; no recursion). The meaning is Σ filtered: the segments and
    /// events `keep` accepts, at the same windows and instants.
    public func restricted(keeping keep: (Term) -> Bool) -> Term {
        bottomUp { (term: Term, mapped: [Term]) -> Term in
            switch term.kind {
            case .tween(let tween):
                // A tween's duration is a valid wait's, so the fallback is never taken.
                return keep(term) ? term : ((try? Term.wait(tween.duration)) ?? .one)
            case .event:
                return keep(term) ? term : .one
            case .zero, .one, .wait:
                return term
            case .sequence, .parallel, .power, .forever, .reversed, .retimed, .eased, .played:
                if zip(mapped, term.children).allSatisfy({ $0 === $1 }) { return term }
                // Durations are unchanged by restriction, so rebuilding cannot overflow.
                return (try? term.replacingChildren(mapped)) ?? term
            }
        } ?? self
    }

    /// ``restricted(keeping:)`` by kind of leaf.
    public func restricted(keepingTweens: Bool, keepingEvents: Bool) -> Term {
        restricted { leaf in
            switch leaf.kind {
            case .tween: return keepingTweens
            case .event: return keepingEvents
            case .zero, .one, .wait, .sequence, .parallel, .power, .forever, .reversed, .retimed, .eased, .played: return true
            }
        }
    }

    /// `x|v` for every view `v` of ``views``: the term with only `v`'s tweens
    /// and no events, each remaining leaf at its place in time — the meaning
    /// of ``restricted(keeping:)`` for each view, built in one pass. Where
    /// ``restricted(keeping:)`` keeps a wait for every leaf it drops, this
    /// writes the stretches without `v` as one wait each (a `||` without `v`
    /// lasts as long as a wait of its duration; a run of `;` parts without
    /// `v`, as long as their sum), so the work and the terms built grow with
    /// the sum over nodes of the views below them — not with the number of
    /// views times the size of the term (`fadeIn all views staggered by …`
    /// over 1,000 views).
    public func restrictedByView() -> [String: Term] {
        splitByView().parts
    }

    /// ``restrictedByView()``, and whether an event lies inside (``hasEvents``).
    private func splitByView() -> (parts: [String: Term], hasEvents: Bool) {
        struct Split {
            /// The node with no tweens and no events (tweens become waits);
            /// `nil` for a node that lasts a finite time `D` and has leaves:
            /// `wait D`, built only when a parent asks (``skeleton(_:)``).
            var skeleton: Term?
            /// Each view's part (empty when ``single``).
            var parts: [String: Term] = [:]
            /// Whether the node has no events and the tweens of at most one
            /// view, ``only``: then its part for that view is the node itself
            /// (restriction drops nothing from it), and nothing is built.
            var single = false
            var only: String?
            /// Whether an event lies below.
            var events = false
        }
        // A small finite part with one view's tweens and no events is not walked
        // into: its part is itself (`v0 ; v0 ; …` under a `||` of many views).
        let root = bottomUp(operands: { term in
            term.duration != nil && Term.soleView(of: term) != nil ? [] : term.children
        }) { (term: Term, splits: [Split]) -> Split in
            let children = term.children
            // Durations are unchanged by restriction, so rebuilding cannot overflow.
            func rebuilt(_ mapped: [Term]) -> Term {
                zip(mapped, children).allSatisfy({ $0 === $1 }) ? term : ((try? term.replacingChildren(mapped)) ?? term)
            }
            /// The i-th child without its leaves (it lasts as long as the child).
            /// (A child's finite duration is a valid wait's: `.one` only stands for an endless child.)
            func skeleton(_ index: Int) -> Term {
                splits[index].skeleton ?? (children[index].duration.flatMap { try? Term.wait($0) } ?? .one)
            }
            /// The i-th child's part for `view`, if it has tweens of `view`.
            func part(_ index: Int, _ view: String) -> Term? {
                let split = splits[index]
                return split.single ? (split.only == view ? children[index] : nil) : split.parts[view]
            }
            func views(_ index: Int) -> [String] {
                let split = splits[index]
                return split.single ? (split.only.map { [$0] } ?? []) : Array(split.parts.keys)
            }
            /// The skeleton of a node that keeps its children in place.
            func ownSkeleton() -> Term? {
                if !term.hasLeaves { return term }
                return term.duration != nil ? nil : rebuilt(children.indices.map(skeleton))
            }
            switch term.kind {
            case .tween(let tween):
                return Split(skeleton: nil, single: true, only: tween.property.view)
            case .event:
                return Split(skeleton: .one, events: true)
            case .zero, .one, .wait:
                return Split(skeleton: term, single: true)
            case .sequence, .parallel, .power, .forever, .reversed, .retimed, .eased, .played:
                break
            }
            if splits.count != children.count, let view = Term.soleView(of: term) {
                // Not walked into (see `operands` above).
                return Split(skeleton: ownSkeleton(), single: true, only: view)
            }
            // Only one view's tweens and no events below: the part is the node itself.
            var only: String?
            var single = true
            for split in splits where single {
                if !split.single {
                    single = false
                } else if let view = split.only {
                    if only == nil { only = view } else if only != view { single = false }
                }
            }
            if single { return Split(skeleton: ownSkeleton(), single: true, only: only) }
            var split = Split(skeleton: nil, events: splits.contains { $0.events })
            switch term.kind {
            case .parallel where term.duration != nil:
                // Every part without v together lasts at most D: one `wait D` stands for them all.
                // (Its duration is one the parallel already has, so a valid wait's.)
                let whole = term.duration.flatMap { try? Term.wait($0) } ?? .one
                split.skeleton = whole
                var items: [String: [Term]] = [:]
                for index in splits.indices {
                    for view in views(index) {
                        if let mine = part(index, view) { items[view, default: []].append(mine) }
                    }
                }
                for (view, list) in items { split.parts[view] = Term.parallel(list + [whole]) }
            case .sequence where term.duration != nil:
                // (A finite sequence: every part lasts a finite time.)
                // Prefix sums of the parts' lengths: the stretch between two parts with v is one wait.
                var starts: [Time] = [.zero]
                var exact = true
                for child in children {
                    guard let next = try? (starts.last ?? .zero).adding(child.duration ?? .zero) else { exact = false; break }
                    starts.append(next)
                }
                split.skeleton = ownSkeleton()
                var indices: [String: [Int]] = [:]
                for index in splits.indices {
                    for view in views(index) { indices[view, default: []].append(index) }
                }
                for (view, list) in indices {
                    var items: [Term] = []
                    var reached = 0
                    for index in list {
                        if index > reached {
                            if exact, let gap = try? starts[index].subtracting(starts[reached]), let wait = try? Term.wait(gap) {
                                items.append(wait)
                            } else {
                                items.append(contentsOf: (reached..<index).map(skeleton))
                            }
                        }
                        items.append(part(index, view) ?? skeleton(index))
                        reached = index + 1
                    }
                    if reached < splits.count {
                        if exact, let last = starts.last, let gap = try? last.subtracting(starts[reached]), let wait = try? Term.wait(gap) {
                            items.append(wait)
                        } else {
                            items.append(contentsOf: (reached..<splits.count).map(skeleton))
                        }
                    }
                    // The parts and skeletons last what the children did, whose sum is this term's:
                    // should exact time overflow anyway, the rebuilt whole is the same animation.
                    split.parts[view] = (try? Term.sequence(items)) ?? rebuilt(splits.indices.map { part($0, view) ?? skeleton($0) })
                }
            default:
                // One child, or a `;`/`||` that is cancelled or endless: every child kept, in place.
                split.skeleton = ownSkeleton()
                var all = Set<String>()
                for index in splits.indices { all.formUnion(views(index)) }
                for view in all { split.parts[view] = rebuilt(splits.indices.map { part($0, view) ?? skeleton($0) }) }
            }
            return split
        }
        guard let root else { return ([:], false) }
        return (root.single ? (root.only.map { [$0: self] } ?? [:]) : root.parts, root.events)
    }

    /// For a small term (a few dozen nodes, as written, without the memo of
    /// a full walk): `.some(v)` when it has no events and tweens of view `v`
    /// only, or `.some(nil)` when it has no leaves; `nil` when it has other
    /// leaves, or more nodes than is worth looking at this way.
    private static func soleView(of term: Term) -> String?? {
        var budget = 128
        var found: String?
        var stack = [term]
        while let node = stack.popLast() {
            budget -= 1
            if budget < 0 { return nil }
            switch node.kind {
            case .tween(let tween):
                if let view = found { if view != tween.property.view { return nil } } else { found = tween.property.view }
            case .event:
                return nil
            case .zero, .one, .wait:
                break
            case .sequence(let parts), .parallel(let parts):
                if budget < parts.count { return nil }
                stack.append(contentsOf: parts)
            case .power(let body, _), .forever(let body), .reversed(let body), .retimed(let body, _), .eased(let body, _),
                 .played(let body, _, _):
                stack.append(body)
            }
        }
        return .some(found)
    }

    /// The views whose properties this term's tweens animate, in no particular order.
    public var views: Set<String> {
        var found = Set<String>()
        var seen = Set<ObjectIdentifier>()
        var stack = [self]
        while let term = stack.popLast() {
            guard seen.insert(ObjectIdentifier(term)).inserted else { continue }
            if case .tween(let tween) = term.kind { found.insert(tween.property.view) }
            stack.append(contentsOf: term.children)
        }
        return found
    }

    /// The views that have segments in this term's meaning Σ (a subset of
    /// ``views``), in no particular order. A tween that Σ does not hold names
    /// none: one in a cancelled part (`x ; zero`), in a part repeated 0
    /// times, or after an endless part of a sequence (`(x repeated forever) ; y`:
    /// y never starts). These are the views `staggered by` orders.
    public var viewsWithSegments: Set<String> { segmentViews(stoppingAtFirst: false) }

    /// Whether ``viewsWithSegments`` is not empty (the walk stops at the first).
    public var hasViewsWithSegments: Bool { !segmentViews(stoppingAtFirst: true).isEmpty }

    private func segmentViews(stoppingAtFirst: Bool) -> Set<String> {
        var found = Set<String>()
        var seen = Set<ObjectIdentifier>()
        var stack = [self]
        var last: String?
        while let term = stack.popLast() {
            // A leaf adds its view (again, if shared): only composites are looked up.
            if case .tween(let tween) = term.kind {
                if stoppingAtFirst { return [tween.property.view] }
                // (Neighbouring tweens are mostly of one view: skip hashing it again.)
                if tween.property.view != last { found.insert(tween.property.view); last = tween.property.view }
                continue
            }
            guard term.hasLeaves, seen.insert(ObjectIdentifier(term)).inserted else { continue }
            // Cancelled: Σ is empty.
            if term.duration == nil, !term.isInfinite { continue }
            switch term.kind {
            case .tween(let tween):
                found.insert(tween.property.view)
            case .power(_, 0):
                continue
            case .sequence(let parts):
                let endless = parts.firstIndex(where: { $0.isInfinite }) ?? parts.count - 1
                stack.append(contentsOf: parts.prefix(endless + 1))
            case .zero, .one, .wait, .event, .parallel, .power, .forever, .reversed, .retimed, .eased, .played:
                stack.append(contentsOf: term.children)
            }
        }
        return found
    }

    /// Whether an event lies inside (anywhere, also in a part repeated 0 times).
    public var hasEvents: Bool { flags & Term.eventsFlag != 0 }

    /// `x staggered by step`: ``staggered(_:order:)`` with each view `i·step`
    /// later than the one before it (`from start`, no spacing easing).
    public func staggered(by step: Time, order: [String]) throws(AnimationError) -> Term {
        try staggered(Stagger(.by(step)), order: order)
    }

    /// `x staggered …` (docs/semantics.md §6.3, §8.3): the views that have segments
    /// in `x` (``viewsWithSegments``), in `order` (views it does not list
    /// come after, by name), the i-th view's every segment shifted by the
    /// i-th of ``Stagger/offsets(count:)``; events stay where they are.
    /// Built as `x|events || x|v0 || (wait o1 ; x|v1) || (wait o2 ; x|v2) || …`
    /// where `x|v` keeps only the segments of view `v` (``restricted(keeping:)``),
    /// so every operator inside `x` acts on each view as it did.
    ///
    /// Duration `D + max offset` for n views (`D` for none); `zero`
    /// staggered is `zero`. Throws for a negative step or offset, or when a
    /// shift overflows.
    public func staggered(_ stagger: Stagger, order: [String]) throws(AnimationError) -> Term {
        switch stagger.amount {
        case .by(let step), .over(let step):
            guard !step.isNegative else { throw .negativeDuration(step.description) }
        }
        let present = viewsWithSegments
        var ordered = order.filter { present.contains($0) }
        var listed = Set(ordered)
        for view in present.sorted() where !listed.contains(view) {
            ordered.append(view)
            listed.insert(view)
        }
        guard !ordered.isEmpty else { return self }
        var parts: [Term] = []
        let (byView, hasEvents) = splitByView()
        if hasEvents { parts.append(restricted(keepingTweens: false, keepingEvents: true)) }
        let offsets = try stagger.offsets(count: ordered.count)
        for (index, view) in ordered.enumerated() {
            guard let mine = byView[view] else { continue }
            if offsets[index].isZero {
                parts.append(mine)
            } else {
                parts.append(try Term.sequence([try Term.wait(offsets[index]), mine]))
            }
        }
        return parts.count == 1 ? parts[0] : Term.parallel(parts)
    }
}

/// How `staggered` spreads the views (docs/semantics.md §6.3, §8.3): by a step
/// between neighbours or over a total, from which end, and through which
/// easing. With the n views in order (i = 0 … n − 1) and `c = (n − 1)/2`,
/// view i's distance is i (`start`), n − 1 − i (`end`), |i − c| (`center`)
/// or c − |i − c| (`edges`); with `dmin`, `dmax` the least and greatest
/// distance and `r = dmax − dmin`, view i starts later by
/// `(d_i − dmin)·step` (`by`, no easing: exact), `E((d_i − dmin)/r)·r·step`
/// (`by`, spaced by E) or `E((d_i − dmin)/r)·total` (`over`, E linear
/// unless given), every offset 0 when `r = 0`. An offset computed through
/// an easing is a `Double`, taken as the exact time it reads as.
public struct Stagger: Equatable, Sendable {
    public enum Amount: Equatable, Sendable {
        /// Between one view and the next.
        case by(Time)
        /// From the first view to start to the last.
        case over(Time)
    }

    public enum Origin: String, CaseIterable, Equatable, Sendable {
        case start, end, center, edges
    }

    public var amount: Amount
    public var origin: Origin
    /// The easing that spaces the offsets (`spaced E`), if any.
    public var spacing: Easing?

    public init(_ amount: Amount, from origin: Origin = .start, spaced spacing: Easing? = nil) {
        self.amount = amount
        self.origin = origin
        self.spacing = spacing
    }

    /// Each of `count` views' offset, in order. Throws when an easing gives
    /// one below zero or not finite, or when exact time overflows.
    public func offsets(count: Int) throws(AnimationError) -> [Time] {
        guard count > 1 else { return Array(repeating: .zero, count: max(count, 0)) }
        // Distances doubled, so `c` and every distance are whole numbers.
        let last = Int64(count - 1)
        let doubled: [Int64] = (0..<last + 1).map { i in
            switch origin {
            case .start: return 2 * i
            case .end: return 2 * (last - i)
            case .center: return abs(2 * i - last)
            case .edges: return last - abs(2 * i - last)
            }
        }
        let least = doubled.min() ?? 0, range = (doubled.max() ?? 0) - least
        guard range > 0 else { return Array(repeating: .zero, count: count) }
        var offsets: [Time] = []
        offsets.reserveCapacity(count)
        for distance in doubled {
            let steps = distance - least
            switch (amount, spacing) {
            case (.by(let step), nil):
                offsets.append(try step.multiplied(by: steps).divided(by: Time(2)))
            case (.by(let step), let easing?):
                let progress = Double(steps) / Double(range)
                try offsets.append(Stagger.exact(easing(progress) * (Double(range) / 2) * step.seconds))
            case (.over(let total), let easing):
                let progress = Double(steps) / Double(range)
                try offsets.append(Stagger.exact((easing ?? .linear)(progress) * total.seconds))
            }
        }
        return offsets
    }

    private static func exact(_ seconds: Double) throws(AnimationError) -> Time {
        guard seconds.isFinite else { throw .notFinite("a stagger offset") }
        guard seconds >= 0 else { throw .negativeDuration(formatNumber(seconds)) }
        guard let time = Time(seconds: seconds) else { throw .overflow("a stagger offset of \(seconds)s") }
        return time
    }
}
