#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One tween placed in an animation: it animates ``property`` from ``from`` to
/// ``to`` with ``easing`` over the window `[start, end]`, playing forwards or
/// backwards. This is the "segment" of the semantics note; a ``Scene``'s Σ is a
/// set of these.
public struct Segment: Hashable, Sendable, CustomStringConvertible {
    // Stored compactly (a track keeps every segment, so each byte counts N
    // times): the tween leaf it places (whose property and easing it reads
    // there, not a copy of them), its window, its ends (a relative tween's
    // are resolved here), whether its easing is linear (most are: a sample
    // then needs no easing), and the rare parts (a warp's clock, a drift)
    // in one optional box. 72 bytes.
    /// The tween leaf placed here (a term whose kind is `.tween`).
    let source: Term
    public let start: Instant
    public let end: Instant
    /// The warp's clock and the drift, when either is there.
    private let rare: Rare?
    private let ends: Ends
    /// Whether it plays from `from` to `to` (false after an odd number of reversals).
    public let isForward: Bool
    /// How its start was given: written (`from A to B`), or the property's
    /// current value (`to B`, `by Δ`; docs/semantics.md §7.1). After compiling, a
    /// relative segment's ``from`` and ``to`` hold the values it resolved to
    /// (the tag stays, for `timeline`); before, they hold the tween's own.
    public let relative: Tween.Relative
    /// Whether ``easing`` is linear (read without reaching into the leaf).
    let isLinear: Bool

    /// The property it animates (its tween's).
    public var property: Property { source.leafProperty }
    /// Its own easing (its tween's, read in its leaf).
    public var easing: Easing { source.leafEasing }
    /// Whether it animates `property` (read in its leaf, without a copy).
    func animates(_ property: Property) -> Bool { source.isTween(of: property) }
    /// The tween leaf placed here (its term's identity), so tools can say
    /// which written tween a segment is (two tweens with equal values are
    /// not the same tween). Not part of the segment's identity: Σ is a set
    /// of segments, and `x || x` is `x`.
    public var leaf: ObjectIdentifier? { ObjectIdentifier(source) }

    private final class Rare: Sendable {
        let warp: Clock?
        let drift: Drift?
        let clip: Clip?

        init(warp: Clock?, drift: Drift?, clip: Clip? = nil) {
            self.warp = warp
            self.drift = drift
            self.clip = clip
        }
    }

    /// A segment cut out of a longer one by `played` (docs/semantics.md §8.5): its
    /// window is the part kept, its clock (``warp``) the whole one's, so it
    /// plays the matching stretch of the eased progress. Where §4 compares
    /// starts it counts ``rank``, the start the whole segment had (mapped as
    /// the window is), so what won at each instant still wins; ``rankEnd``
    /// is the whole segment's end, which a reversal makes the rank. It holds
    /// the values it shows at its window's ends (in the direction it plays).
    struct Clip: Hashable, Sendable {
        var rank: Instant
        var rankEnd: Instant
        var heldStart: Value
        var heldEnd: Value
    }

    /// How it was cut by `played`, if it was.
    var clip: Clip? { rare?.clip }

    /// The start docs/semantics.md §4 compares (the rule's "latest start"): ``start``, or for a
    /// segment cut by `played`, the start the whole segment had.
    var rank: Instant { rare?.clip?.rank ?? start }

    public var from: Value { ends.from }
    public var to: Value { ends.to }
    /// Both values as stored (shared, not copied, by a segment placed anew).
    var storedEnds: Ends { ends }

    /// Inside a repetition kept symbolic, how its ends depend on the value the
    /// property has when its copy starts (see ``Drift``); `nil` when they do not.
    var drift: Drift? { rare?.drift }
    /// The clock when an easing warp lies between the scene and the tween;
    /// `nil` when progress is plain `(t − start) / (end − start)`.
    var warp: Clock? { rare?.warp }

    /// `end − start`, exactly, when both are exact.
    var length: Time? {
        guard let s = start.exact, let e = end.exact else { return nil }
        return try? e.subtracting(s)
    }

    /// `source` placed over `[start, end]`, with the ends of its tween (a
    /// colour tween's box shared, not copied) or resolved ones.
    init(source: Term, ends: Ends, isLinear: Bool, start: Instant, end: Instant, isForward: Bool, warp: Clock?,
         relative: Tween.Relative, drift: Drift? = nil, clip: Clip? = nil) {
        self.source = source
        self.isLinear = isLinear
        self.ends = ends
        self.relative = relative
        self.start = start
        self.end = end
        self.isForward = isForward
        rare = warp == nil && drift == nil && clip == nil ? nil : Rare(warp: warp, drift: drift, clip: clip)
    }

    /// The same tween with the same ends over another window, on a plain
    /// clock, as an absolute one (a piece of an exported timeline).
    func moved(start: Instant, end: Instant) -> Segment {
        Segment(source: source, ends: ends, isLinear: isLinear, start: start, end: end, isForward: isForward, warp: nil,
                relative: .absolute)
    }

    public static func == (lhs: Segment, rhs: Segment) -> Bool {
        // (One tween leaf has one property and easing.)
        lhs.start == rhs.start && lhs.end == rhs.end && lhs.isForward == rhs.isForward && lhs.relative == rhs.relative
            && lhs.from == rhs.from && lhs.to == rhs.to && lhs.easing == rhs.easing
            && (lhs.source === rhs.source || lhs.property == rhs.property)
            && lhs.warp == rhs.warp && lhs.drift == rhs.drift && lhs.clip == rhs.clip
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(property)
        hasher.combine(from)
        hasher.combine(to)
        hasher.combine(easing)
        hasher.combine(start)
        hasher.combine(end)
        hasher.combine(isForward)
        hasher.combine(warp)
    }

    /// The value it holds before it starts: `from`, or `to` when it plays
    /// backwards (cut by `played`: the value it shows at its window's start).
    public var startValue: Value { rare?.clip?.heldStart ?? (isForward ? from : to) }
    /// The value it holds once it has ended: `to`, or `from` when it plays
    /// backwards (cut by `played`: the value it shows at its window's end).
    public var endValue: Value { rare?.clip?.heldEnd ?? (isForward ? to : from) }

    /// The easings of the time warps (`with` on a composite) between the
    /// scene and this segment, outermost first: its motion is its own easing
    /// seen through them. Empty when none lies between.
    public var warps: [Easing] { warp?.path.stages.map(\.easing) ?? [] }

    /// Whether its window has zero length (a jump).
    public var isJump: Bool { start == end }

    /// The value while active (`start ≤ t ≤ end`): `from + (to − from)·E(progress)`,
    /// progress clamped to [0, 1] before the easing. A jump shows its end value.
    /// A segment that plays backwards shows its end value (`from`) at its end
    /// instant, as it holds it after: Web Animations reads a reversed
    /// animation's easing there with the before flag set, so `steps(2, start)`
    /// gives 0, not ½ (docs/semantics.md §4).
    /// (Curves composed to overshoot wildly can still leave the range of
    /// `Double`; the value is then infinite or NaN, as the formula says.)
    func activeValue(at t: Instant, input: TrackInput = .none) -> Value {
        withUnsafePointer(to: self) { Segment.activeValue(of: $0, at: t, input: input) }
    }

    /// ``activeValue(at:)`` of a segment read in place, field by field: a
    /// track keeps its segments behind a pointer, and calling a method on one
    /// would copy the whole segment first (and count its references).
    @inline(__always)
    static func activeValue(of segment: UnsafePointer<Segment>, at t: Instant, input: TrackInput = .none) -> Value {
        if let clip = segment.pointee.clip {
            if input.isSlopes { return .number(0) }
            return segment.pointee.clippedValue(clip, at: t)
        }
        if segment.pointee.drift != nil || input.isSlopes {
            let (from, to) = segment.pointee.ends(input)
            return value(of: segment, from: from, to: to, at: t)
        }
        return value(of: segment, from: segment.pointee.from, to: segment.pointee.to, at: t)
    }

    /// The value while active between the given ends.
    @inline(__always)
    private static func value(of segment: UnsafePointer<Segment>, from: Value, to: Value, at t: Instant) -> Value {
        let start = segment.pointee.start, end = segment.pointee.end, isForward = segment.pointee.isForward
        if start == end || (t == end && !isForward) { return isForward ? to : from }
        let progress: Double
        // At its ends a window is exactly done or not begun, also through a
        // warp (whose inverse placed the ends, and whose forward map would
        // land a rounding error away from them).
        if t == end {
            progress = 1
        } else if t == start {
            progress = isForward ? 0 : 1
        } else if let warp = segment.pointee.warp {
            progress = warp.progress(at: t)
        } else {
            let fraction = Segment.fraction(t, start: start, end: end)
            if segment.pointee.isLinear {
                // As below for linear (its own mirror, no clamp then): no easing read.
                return isForward ? Value.interpolate(from: from, to: to, progress: clampUnit(fraction))
                    : Value.interpolate(from: to, to: from, progress: fraction)
            }
            let easing = segment.pointee.easing
            if !isForward, easing.hasFamilyMirror {
                // Played backwards with a curve that has a mirror of its family: as
                // the normal form writes it (docs/semantics.md §5), the ends swapped and the
                // easing mirrored, so a program and its normal form give the same
                // doubles. (Other curves keep `reversed` there, and this reading.)
                let eased: Double
                if case .linear = easing.kind { eased = fraction } else { eased = easing.mirrored(clampUnit(fraction)) }
                return Value.interpolate(from: to, to: from, progress: eased)
            }
            progress = isForward ? fraction : 1 - fraction
        }
        let eased = segment.pointee.isLinear ? clampUnit(progress) : segment.pointee.easing(clampUnit(progress))
        return Value.interpolate(from: from, to: to, progress: eased)
    }

    /// Its ends for `input` (see ``TrackInput``).
    func ends(_ input: TrackInput) -> (from: Value, to: Value) {
        switch input {
        case .slopes:
            guard let drift else { return (.number(0), .number(0)) }
            return (.number(drift.fromSlope), .number(drift.toSlope))
        case .value(let current):
            guard let drift else { return (from, to) }
            return drift.ends(from: from, to: to, current: current)
        case .none:
            return (from, to)
        }
    }

    /// The value it holds before it starts, for `input`.
    func startValue(_ input: TrackInput) -> Value {
        if let clip { return input.isSlopes ? .number(0) : clip.heldStart }
        let ends = ends(input)
        return isForward ? ends.from : ends.to
    }

    /// The value it holds once it has ended, for `input`.
    func endValue(_ input: TrackInput) -> Value {
        if let clip { return input.isSlopes ? .number(0) : clip.heldEnd }
        let ends = ends(input)
        return isForward ? ends.to : ends.from
    }

    /// The same segment with other ends (a relative one, resolved).
    func resolved(from: Value, to: Value, drift: Drift?) -> Segment {
        Segment(source: source, ends: Ends(from, to), isLinear: isLinear, start: start, end: end, isForward: isForward,
                warp: warp, relative: relative, drift: drift, clip: clip)
    }

    /// The progress (before the tween's own easing) at `t` within the window,
    /// exactly 0 at its start and 1 at its end, whatever warps lie between.
    func progress(at t: Instant) -> Double {
        if clip != nil, let warp { return clockProgress(warp, at: t) }
        if start == end { return 1 }
        if t == end { return isForward ? 1 : 0 }
        if t == start { return isForward ? 0 : 1 }
        if let warp { return warp.progress(at: t) }
        let fraction = fraction(t)
        return isForward ? fraction : 1 - fraction
    }

    /// `(t − s) / (e − s)`. With exact times it is the exact quotient rounded
    /// once (a division of integers below 2^53 is correctly rounded, whatever
    /// their common factors), so equal fractions give equal bits however they arose.
    @inline(__always)
    func fraction(_ t: Instant) -> Double {
        Segment.fraction(t, start: start, end: end)
    }

    @inline(__always)
    static func fraction(_ t: Instant, start: Instant, end: Instant) -> Double {
        if let te = t.exact, let se = start.exact, let ee = end.exact {
            // (t − s) / (e − s) = (t.n·s.d − s.n·t.d)·e.d / (t.d·(e.n·s.d − s.n·e.d)): the
            // same rational however written, so when both fit in 53 bits the
            // division rounds it once, as the reduced quotient below would.
            let (a, o1) = te.numerator.multipliedReportingOverflow(by: se.denominator)
            let (b, o2) = se.numerator.multipliedReportingOverflow(by: te.denominator)
            let (difference, o3) = a.subtractingReportingOverflow(b)
            let (numerator, o4) = difference.multipliedReportingOverflow(by: ee.denominator)
            let (c, o5) = ee.numerator.multipliedReportingOverflow(by: se.denominator)
            let (d, o6) = se.numerator.multipliedReportingOverflow(by: ee.denominator)
            let (span, o7) = c.subtractingReportingOverflow(d)
            let (denominator, o8) = te.denominator.multipliedReportingOverflow(by: span)
            if !(o1 || o2 || o3 || o4 || o5 || o6 || o7 || o8), numerator.magnitude < 1 << 53, denominator.magnitude < 1 << 53 {
                return Double(numerator) / Double(denominator)
            }
            if let length = try? ee.subtracting(se), let elapsed = try? te.subtracting(se),
               let quotient = try? elapsed.divided(by: length) {
                return quotient.seconds
            }
        }
        return (t.seconds - start.seconds) / (end.seconds - start.seconds)
    }

    public var description: String {
        let arrow = isForward ? "\(from) → \(to)" : "\(from) → \(to) reversed"
        return "\(property) [\(start), \(end)] \(arrow) \(easing)"
    }
}

/// An exact affine map `u = scale·t + offset` with `scale ≠ 0`.
struct Affine: Hashable, Sendable {
    var scale: Time
    var offset: Time

    static let identity = Affine(scale: .one, offset: .zero)

    var isIncreasing: Bool { scale.isPositive }

    /// `self` followed by `u ↦ u − delta`.
    func shifted(by delta: Time) throws(AnimationError) -> Affine {
        Affine(scale: scale, offset: try offset.subtracting(delta))
    }

    /// `self` followed by `u ↦ span − u`.
    func mirrored(in span: Time) throws(AnimationError) -> Affine {
        return Affine(scale: try scale.negated(), offset: try span.adding(try offset.negated()))
    }

    /// `self` followed by `u ↦ u / factor`.
    func divided(by factor: Time) throws(AnimationError) -> Affine {
        Affine(scale: try scale.divided(by: factor), offset: try offset.divided(by: factor))
    }

    @inline(__always)
    func apply(_ t: Instant) -> Instant {
        if let exact = t.exact, let product = try? scale.multiplied(by: exact), let sum = try? product.adding(offset) {
            return Instant(sum)
        }
        return Instant(approximately: scale.seconds * t.seconds + offset.seconds)
    }

    @inline(__always)
    func apply(_ x: Double) -> Double {
        scale.seconds * x + offset.seconds
    }

    /// The `t` with `apply(t) = u`.
    func invert(_ u: Instant) -> Instant {
        // Most maps only shift (a part of a sequence): no division by 1.
        if scale == .one, let exact = u.exact, let difference = try? exact.subtracting(offset) { return Instant(difference) }
        if let exact = u.exact, let difference = try? exact.subtracting(offset), let quotient = try? difference.divided(by: scale) {
            return Instant(quotient)
        }
        return Instant(approximately: (u.seconds - offset.seconds) / scale.seconds)
    }
}

/// A time warp on the way from the scene to a node: first `entry` maps into
/// the warped node's frame `[0, span]`, then `u ↦ span·E(u / span)`.
struct WarpStage: Hashable, Sendable {
    let entry: Affine
    let easing: Easing
    let span: Time

    @inline(__always)
    func apply(_ x: Double) -> Double {
        let span = self.span.seconds
        return span * easing(clampUnit(x / span))
    }

    /// ``apply(_:)`` on an instant, exact where the warp's value is: a
    /// `steps` easing takes an exact time to `span·k/n`, exactly (its values
    /// are those fractions, docs/semantics.md §2). So a step that lands on a
    /// boundary of what it warps (a copy of a repetition, a segment's start)
    /// lands on it, not an ulp before it, whether the repetition is read copy
    /// by copy or kept symbolic.
    @inline(__always)
    func apply(_ u: Instant) -> Instant {
        if case .steps(let count, let position) = easing.kind, let exact = u.exact, let value = exactSteps(exact, count, position) {
            return Instant(value)
        }
        return Instant(approximately: apply(u.seconds))
    }

    /// `span·steps(p)` for `p = u / span` clamped to [0, 1], as `stepsValue` computes it in doubles (CSS's rule);
    /// `nil` where exact time overflows.
    private func exactSteps(_ u: Time, _ count: Int, _ position: Easing.StepPosition) -> Time? {
        guard span.isPositive, let ratio = try? u.divided(by: span) else { return nil }
        let p = ratio.isNegative ? Time.zero : (Time.one < ratio ? Time.one : ratio)
        guard let scaled = try? p.multiplied(by: Int64(count)) else { return nil }
        var step = scaled.floorQuotient(dividingBy: .one)
        if position == .jumpStart || position == .jumpBoth { step += 1 }
        let jumps: Int128
        switch position {
        case .jumpStart, .jumpEnd: jumps = Int128(count)
        case .jumpNone: jumps = Int128(count) - 1
        case .jumpBoth: jumps = Int128(count) + 1
        }
        step = min(max(step, 0), jumps)
        guard jumps > 0, let numerator = Int64(exactly: step), let denominator = Int64(exactly: jumps),
              let fraction = Time(numerator: numerator, denominator: denominator) else { return nil }
        return try? span.multiplied(by: fraction)
    }
}

/// A segment's clock when warps are involved: the path from the scene's time
/// into the tween's own time `[0, length]`.
final class Clock: Hashable, @unchecked Sendable {
    let path: Path
    let length: Time

    init(path: Path, length: Time) {
        self.path = path
        self.length = length
    }

    /// Progress in the tween's own time (unclamped).
    func progress(at t: Instant) -> Double {
        let length = self.length.seconds
        return length == 0 ? 1 : path.forward(t).seconds / length
    }

    static func == (lhs: Clock, rhs: Clock) -> Bool {
        lhs === rhs || (lhs.path == rhs.path && lhs.length == rhs.length)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(path)
    }
}

/// The map from the scene's time to a node's own time, built while descending
/// the tree: a chain of warp stages (each entered through an increasing affine
/// map), then one exact affine map. Reversals always sit in the last map:
/// passing a warp, a reversal is pushed inside it by mirroring the easing.
struct Path: Hashable, Sendable {
    /// The warp stages and the collapse, both rare, in one box: a plain path
    /// (a part of a sequence, shifted) stays small and copies without
    /// counting references, and the compiler's work list holds one per
    /// pending part (a left-nested chain of n tweens: n of them at once).
    private var unusual: Unusual?
    var affine: Affine = .identity
    /// Where an event placed here falls among the events of its instant
    /// (``PlacedEvent/rank``); not part of the path's identity.
    var firing = FiringOrder()

    private final class Unusual: Sendable {
        let stages: [WarpStage]
        let collapse: Collapse?

        init(stages: [WarpStage], collapse: Collapse?) {
            self.stages = stages
            self.collapse = collapse
        }
    }

    /// The warp stages, outermost first.
    var stages: [WarpStage] {
        get { unusual?.stages ?? [] }
        set { unusual = Path.unusual(stages: newValue, collapse: collapse) }
    }

    /// Set below `x in 0s`: everything underneath happens at one instant.
    var collapse: Collapse? {
        get { unusual?.collapse }
        set { unusual = Path.unusual(stages: stages, collapse: newValue) }
    }

    /// Whether no warp stage lies on the path (``stages`` is empty).
    @inline(__always)
    var hasNoStages: Bool { unusual?.stages.isEmpty ?? true }

    private static func unusual(stages: [WarpStage], collapse: Collapse?) -> Unusual? {
        stages.isEmpty && collapse == nil ? nil : Unusual(stages: stages, collapse: collapse)
    }

    /// The firing order of events at one instant (docs/semantics.md §6.5): a
    /// sequence's parts fire in turn, so each part's events rank after those
    /// of the instant parts before it; the parts of `||` start level, so their
    /// first events tie (and go by name). `rank` is where this node's events
    /// start, `step` ±1: a reversal plays the order backwards.
    struct FiringOrder: Sendable {
        var rank = 0
        var step = 1

        /// The order of `body` of `body reversed`: its last part first. An
        /// instant body's events take this node's ranks backwards; a body that
        /// takes time fires its head last, at the later instant, where its
        /// ranks start afresh (as after any part that takes time).
        func reversed(_ body: Term) -> FiringOrder {
            let isInstant = (body.duration ?? .zero).isZero
            let first = isInstant ? rank.addingSaturating(step.multipliedSaturating(max(0, body.leafCount - 1)))
                                  : step.multipliedSaturating(max(0, FiringOrder.leaves(of: body, atEnd: false) - 1))
            return FiringOrder(rank: first, step: -step)
        }

        /// The order `leaves` later: after an instant part of a sequence.
        func advanced(by leaves: Int) -> FiringOrder {
            FiringOrder(rank: rank.addingSaturating(step.multipliedSaturating(leaves)), step: step)
        }

        /// The order after a part that takes time: level with every other
        /// event of that later instant, after the part's own instant tail.
        func after(_ part: Term) -> FiringOrder {
            FiringOrder(rank: step.multipliedSaturating(FiringOrder.leaves(of: part, atEnd: true)), step: step)
        }

        /// How many leaves of `term` fire in turn at its end (`atEnd`) or its
        /// start, beyond its time-taking parts: `fadeIn v ; emit a ; emit b`
        /// has 2 at its end, 0 at its start. Deeper than 256 levels, 0 (an
        /// order among the events of one instant is all that rests on it).
        static func leaves(of term: Term, atEnd: Bool, depth: Int = 0) -> Int {
            guard depth < 256 else { return 0 }
            let duration = term.duration ?? .zero
            if duration.isZero { return term.leafCount }
            switch term.kind {
            case .sequence(let parts):
                var count = 0
                // From the end (`atEnd`) or the start, without a reversed copy of the parts.
                for position in parts.indices {
                    let part = parts[atEnd ? parts.count - 1 - position : position]
                    guard (part.duration ?? .zero).isZero else {
                        return count.addingSaturating(leaves(of: part, atEnd: atEnd, depth: depth + 1))
                    }
                    count = count.addingSaturating(part.leafCount)
                }
                return count
            case .parallel(let parts):
                // At the start every part takes part; at the end, those that last as long.
                return parts.filter { !atEnd || $0.duration == term.duration }
                    .map { leaves(of: $0, atEnd: atEnd, depth: depth + 1) }.max() ?? 0
            case .reversed(let body):
                return leaves(of: body, atEnd: !atEnd, depth: depth + 1)
            case .retimed(let body, _), .eased(let body, _), .power(let body, _), .forever(let body):
                return leaves(of: body, atEnd: atEnd, depth: depth + 1)
            case .zero, .one, .wait, .tween, .event, .played:
                return 0
            }
        }
    }

    static func == (lhs: Path, rhs: Path) -> Bool {
        lhs.stages == rhs.stages && lhs.affine == rhs.affine && lhs.collapse == rhs.collapse
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(stages)
        hasher.combine(affine)
        hasher.combine(collapse)
    }

    struct Collapse: Hashable, Sendable {
        /// Where, in scene time.
        var point: Instant
        /// Whether the jumps play forwards (an odd number of reversals flips them).
        var forward: Bool
    }

    static let identity = Path()

    func shifted(by delta: Time) throws(AnimationError) -> Path {
        if collapse != nil { return self }
        var path = self
        path.affine = try affine.shifted(by: delta)
        return path
    }

    func reversed(in span: Time) throws(AnimationError) -> Path {
        var path = self
        if let collapse {
            path.collapse?.forward = !collapse.forward
            return path
        }
        path.affine = try affine.mirrored(in: span)
        return path
    }

    func scaled(by factor: Time) throws(AnimationError) -> Path {
        if collapse != nil { return self }
        var path = self
        if factor.isZero {
            path.collapse = Collapse(point: backward(Instant(.zero), upper: false), forward: affine.isIncreasing)
            return path
        }
        path.affine = try affine.divided(by: factor)
        return path
    }

    /// Descends into `x` of `x with easing` (x of duration `span`).
    func warped(by easing: Easing, span: Time) throws(AnimationError) -> Path {
        if collapse != nil { return self }
        var path = self
        if affine.isIncreasing {
            path.stages.append(WarpStage(entry: affine, easing: easing, span: span))
            path.affine = .identity
        } else {
            // W(A(t)) with A decreasing equals R(W̄(A'(t))) where A' = span − A is
            // increasing, W̄ is the warp by the mirrored easing and R(u) = span − u.
            let increasing = try affine.mirrored(in: span)
            path.stages.append(WarpStage(entry: increasing, easing: easing.mirrored, span: span))
            path.affine = try Affine.identity.mirrored(in: span)
        }
        return path
    }

    /// Where `t` (in scene time) falls in the node's own time.
    func forward(_ t: Instant) -> Instant {
        guard let first = stages.first else { return affine.apply(t) }
        // (Instants, not doubles: a stage may keep an exact time exact, ``WarpStage/apply(_:)-(Instant)``.)
        var x = first.apply(first.entry.apply(t))
        for stage in stages.dropFirst() {
            x = stage.apply(stage.entry.apply(x))
        }
        return affine.apply(x)
    }

    /// The scene time of the node-time `u`: for a start use the least
    /// preimage (`upper == false`), for an end the greatest.
    func backward(_ u: Instant, upper: Bool) -> Instant {
        let inner = affine.invert(u)
        return hasNoStages ? inner : backwardThroughStages(inner, upper: upper)
    }

    /// The segment the tween leaf `leaf` (whose tween is `tween`) becomes at the end of this path.
    func place(_ leaf: Term, _ tween: Tween) -> Segment {
        place(leaf, ends: tween.ends, isLinear: tween.easing.isLinear, duration: tween.duration, relative: tween.relative)
    }

    /// ``place(_:_:)`` given the parts of the tween it reads.
    func place(_ leaf: Term, ends: Ends, isLinear: Bool, duration: Time, relative: Tween.Relative) -> Segment {
        if let collapse {
            return Segment(source: leaf, ends: ends, isLinear: isLinear, start: collapse.point, end: collapse.point, isForward: collapse.forward,
                           warp: nil, relative: relative)
        }
        let forward = affine.isIncreasing
        var start: Instant, end: Instant
        // Most paths only shift (a part of a sequence): `invert` of 0 and of
        // the duration, inline (the same values; where either fails, `invert` decides).
        if affine.scale == .one, let first = try? affine.offset.negated(), let last = try? duration.subtracting(affine.offset) {
            (start, end) = (Instant(first), Instant(last))
        } else {
            start = affine.invert(Instant(.zero))
            end = affine.invert(Instant(duration))
        }
        if !forward { swap(&start, &end) }
        var clock: Clock?
        if !hasNoStages {
            start = backwardThroughStages(start, upper: false)
            end = backwardThroughStages(end, upper: true)
            if end < start { end = start }
            clock = Clock(path: self, length: duration)
        }
        return Segment(source: leaf, ends: ends, isLinear: isLinear, start: start, end: end, isForward: forward, warp: clock,
                       relative: relative)
    }

    /// Maps a node time back through the warp stages. The ends of a warp's
    /// span map exactly to the ends of its window (warps mapped this way are
    /// continuous and increasing, with E(0) = 0 and E(1) = 1), so a segment
    /// that starts with the warped part still ties with its neighbours.
    ///
    /// An event (`event == true`) goes to the least time whose warped time
    /// reaches it, `D·E(t'/D) ≥ t` (docs/semantics.md §6.5), also at the end of the
    /// span: a curve that gets to 1 early (an overshooting one, `steps(2, start)`)
    /// fires there the events that end its span.
    ///
    /// A rank (`rank == true`: the start a segment cut by `played` compares
    /// by, docs/semantics.md §8.5) may lie outside the span; there the warp is read as
    /// the identity (E(p) = p beyond [0, 1], continuous with E(0) = 0 and
    /// E(1) = 1), so a rank before the span stays before everything that
    /// starts in it, as it is in the state the warp reads (docs/semantics.md §3), rather than
    /// tying with what starts at the window's start.
    func backwardThroughStages(_ u: Instant, upper: Bool, event: Bool = false, rank: Bool = false) -> Instant {
        var current = u
        for stage in stages.reversed() {
            let span = stage.span.seconds
            let local: Instant
            if rank, current.exact.map({ $0.isNegative || stage.span < $0 }) ?? (current.seconds < 0 || current.seconds > span) {
                local = current
            } else if current.exact == .zero || current.seconds <= 0 {
                local = Instant(.zero)
            } else if current.exact == stage.span || current.seconds >= span {
                let early = event ? stage.easing.leastPreimage(1) : 1
                local = early < 1 ? Instant(approximately: span * early) : Instant(stage.span)
            } else {
                let normalized = current.seconds / span
                // Where the curve rises, its least and greatest preimages are one
                // point, which rounding may tell apart by an ulp: take the least
                // for both, so that one window's end is exactly the next one's start.
                // An event takes the least time whose warped time reaches it (docs/semantics.md §6.5).
                let lower = event ? stage.easing.leastPreimage(normalized) : stage.easing.lowerInverse(normalized)
                var preimage = lower
                if upper {
                    let greatest = stage.easing.upperInverse(normalized)
                    if greatest - lower > 1e-12 { preimage = greatest }
                }
                local = Instant(approximately: span * preimage)
            }
            current = stage.entry.invert(local)
        }
        return current
    }
}

/// Segments in memory of their own, appended in place: the compiler places a
/// scene's segments here, and a ``Track`` adopts the list as its storage
/// (sorted and deduplicated in place), so no segment is copied on the way
/// and the compile phase never holds a second list of them.
///
/// Elements `base[0..<count]` are initialized; `count ≤ capacity`, the size
/// of the allocation (at least 1).
final class SegmentList {
    private(set) var base: UnsafeMutablePointer<Segment>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 0) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always)
    func append(_ segment: consuming Segment) {
        if count == capacity { grow() }
        (base + count).initialize(to: segment)   // count < capacity
        count += 1
    }

    /// Moves the segment at `source` (which is left uninitialized) to the end.
    @inline(__always)
    func append(movingFrom source: UnsafeMutablePointer<Segment>) {
        if count == capacity { grow() }
        (base + count).moveInitialize(from: source, count: 1)   // count < capacity
        count += 1
    }

    /// Forgets every element, without deinitializing: each was moved out
    /// (``append(movingFrom:)`` into another list).
    func forgetMovedElements() {
        count = 0
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Segment>.allocate(capacity: 2 * capacity)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }

    /// Reorders the segments from `first` on so that their `keys` (one
    /// each, distinct, `keys[k]` for segment `first + k`) ascend: the order
    /// of a walk in order, for segments placed out of it. In place, cycle by
    /// cycle (no second list of segments).
    func permute(from first: Int, byAscending keys: [Int]) {
        precondition(first >= 0 && keys.count == count - first, "one key per segment from the first")
        // order[i]: the segment (counted from `first`) that goes to position first + i.
        var order = Array(0..<keys.count)
        order.sort { keys[$0] < keys[$1] }
        let base = self.base + first   // [base, base + keys.count) is initialized
        for position in 0..<order.count where order[position] != position {
            let held = (base + position).move()
            var hole = position
            while true {
                let source = order[hole]
                order[hole] = hole
                if source == position {
                    (base + hole).initialize(to: held)
                    break
                }
                (base + hole).moveInitialize(from: base + source, count: 1)   // source < keys.count, still initialized
                hole = source
            }
        }
    }

    /// Whether some segment satisfies `predicate` (read in place).
    func contains(where predicate: (UnsafePointer<Segment>) -> Bool) -> Bool {
        for index in 0..<count where predicate(base + index) { return true }
        return false
    }

    /// Sorts the segments by start, then end (Swift's sort, so ties keep the
    /// order it gives them), and removes exact duplicates (Σ is a set),
    /// keeping the first of each.
    func sortByWindowRemovingDuplicates() {
        // A chain's segments arrive in order: one pass tells, and the sort
        // (whose scratch buffer is half the list) is skipped. The sort is
        // stable, so on a sorted list it would change nothing.
        let inOrder = { (lhs: UnsafePointer<Segment>, rhs: UnsafePointer<Segment>) -> Bool in
            lhs.pointee.start != rhs.pointee.start ? lhs.pointee.start < rhs.pointee.start : lhs.pointee.end < rhs.pointee.end
        }
        var sorted = true
        for index in 1..<max(1, count) where inOrder(base + index, base + index - 1) {   // index < count
            sorted = false
            break
        }
        if !sorted {
            var all = UnsafeMutableBufferPointer(start: base, count: count)
            all.sort { lhs, rhs in lhs.start != rhs.start ? lhs.start < rhs.start : lhs.end < rhs.end }
        }
        // Only segments with the same window can be equal; after sorting they
        // are adjacent. Kept segments move down to `kept` (≤ index).
        var kept = 0, runStart = 0
        for index in 0..<count {
            let segment = base + index
            if kept > 0, base[kept - 1].start != segment.pointee.start || base[kept - 1].end != segment.pointee.end {
                runStart = kept
            }
            if (runStart..<kept).contains(where: { base[$0] == segment.pointee }) {
                segment.deinitialize(count: 1)
            } else {
                if kept != index { (base + kept).moveInitialize(from: segment, count: 1) }
                kept += 1
            }
        }
        count = kept
    }
}
