/// The talk's algebra: `+` forms a commutative monoid with identity `zero`,
/// `*` forms a monoid with identity `one`, `*` distributes over `+`, and `zero`
/// annihilates under `*`.
///
/// Laws (for all `x`, `y`, `z`):
/// * `(x + y) + z = x + (y + z)`, `x + y = y + x`, `zero + x = x`
/// * `(x * y) * z = x * (y * z)`, `one * x = x * one = x`
/// * `zero * x = x * zero = zero`
/// * `x * (y + z) = x * y + x * z` (animations: always);
///   `(y + z) * x = y * x + z * x` (animations: only when `y` and `z` last equally long)
public protocol Semiring {
    static func + (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static var zero: Self { get }
    static var one: Self { get }
}

/// Where each leaf of a term starts and ends — the talk's "secret sauce",
/// computed before anything runs, by folding the term into schedules (so it
/// follows every operator exactly as the meaning does), sorted by start. A
/// tween is labelled with its property, an event with its name; leaves in a
/// cancelled sequence do not appear.
///
/// ```swift
/// // fade ; (left || right), each 1 s:
/// try intervals(term)   // [("card.opacity", 0, 1), ("circle.radius", 1, 2), ("square.rotation", 1, 2)]
/// ```
public func intervals(_ term: Term) throws(AnimationError) -> [(name: String, start: Time, end: Time)] {
    do {
        let schedule = try term.fold(into: Schedule.self)
        // By start, then end, then label (a reversal lists its entries backwards).
        return schedule.entries.enumerated().sorted { a, b in
            if a.element.start != b.element.start { return a.element.start < b.element.start }
            if a.element.end != b.element.end { return a.element.end < b.element.end }
            return a.offset < b.offset
        }.map { (name: $0.element.name, start: $0.element.start, end: $0.element.end) }
    } catch {
        throw error.error
    }
}

/// The algebra of schedules: a duration and the intervals placed so far, or
/// cancelled (`duration == nil`). Intervals are listed by label; a reversed
/// or retimed schedule maps each interval as the operator maps time.
public struct Schedule: AnimationAlgebra {
    public var duration: Time?
    public var entries: [(name: String, start: Time, end: Time)]

    public static var zero: Schedule { Schedule(duration: nil, entries: []) }
    public static var one: Schedule { Schedule(duration: .zero, entries: []) }

    public static func wait(_ duration: Time) throws(AnimationError) -> Schedule {
        Schedule(duration: duration, entries: [])
    }

    public static func tween(_ tween: Tween) throws(AnimationError) -> Schedule {
        Schedule(duration: tween.duration, entries: [(tween.property.description, .zero, tween.duration)])
    }

    public static func event(_ name: String) throws(AnimationError) -> Schedule {
        Schedule(duration: .zero, entries: [(name, .zero, .zero)])
    }

    public static func sequence(_ parts: [Schedule]) throws(AnimationError) -> Schedule {
        var offset = Time.zero
        var entries: [(name: String, start: Time, end: Time)] = []
        for part in parts {
            guard let duration = part.duration else { return .zero }
            for entry in part.entries {
                entries.append((entry.name, try entry.start.adding(offset), try entry.end.adding(offset)))
            }
            offset = try offset.adding(duration)
        }
        return Schedule(duration: offset, entries: entries)
    }

    public static func parallel(_ parts: [Schedule]) throws(AnimationError) -> Schedule {
        var duration: Time?
        var entries: [(name: String, start: Time, end: Time)] = []
        for part in parts {
            guard let length = part.duration else { continue }
            duration = max(duration ?? length, length)
            entries.append(contentsOf: part.entries)
        }
        return Schedule(duration: duration, entries: entries)
    }

    public func repeated(_ count: Int) throws(AnimationError) -> Schedule {
        guard count >= 0 else { throw .negativeCount(count) }
        if count == 0 { return .one }
        return try Schedule.sequence(Array(repeating: self, count: count))
    }

    /// An endless repetition has no finite schedule: refused.
    public func repeatedForever() throws(AnimationError) -> Schedule {
        throw .infinite("schedule")
    }

    public var reversed: Schedule {
        get throws(AnimationError) {
            guard let duration else { return self }
            var mapped: [(name: String, start: Time, end: Time)] = []
            for entry in entries {
                mapped.append((entry.name, try duration.subtracting(entry.end), try duration.subtracting(entry.start)))
            }
            return Schedule(duration: duration, entries: mapped)
        }
    }

    public func retimed(to target: Time) throws(AnimationError) -> Schedule {
        guard let duration else { return self }
        if duration == target { return self }
        guard duration.isPositive else { throw .retimeOfInstant(target.description) }
        let factor = try target.divided(by: duration)
        var mapped: [(name: String, start: Time, end: Time)] = []
        for entry in entries {
            mapped.append((entry.name, try entry.start.multiplied(by: factor), try entry.end.multiplied(by: factor)))
        }
        return Schedule(duration: target, entries: mapped)
    }

    /// A warp moves windows inexactly; a schedule keeps the unwarped times.
    public func eased(_ easing: Easing) throws(AnimationError) -> Schedule {
        self
    }

    /// The intervals that meet `[start, end]`, cut to it and shifted by `−start`.
    public func played(from start: Time, to end: Time) throws(AnimationError) -> Schedule {
        guard duration != nil else { return self }
        var kept: [(name: String, start: Time, end: Time)] = []
        for entry in entries where !(entry.end < start) && !(end < entry.start) {
            kept.append((entry.name, try max(entry.start, start).subtracting(start), try min(entry.end, end).subtracting(start)))
        }
        return Schedule(duration: try end.subtracting(start), entries: kept)
    }
}

/// Durations in the max-plus semiring: `+` is `max`, `*` is addition, `zero`
/// is −∞ (`nil`) and `one` is 0. ``Scene/duration`` is a homomorphism into it.
public struct MaxPlusDuration: Semiring, Hashable, Sendable, CustomStringConvertible {
    /// `nil` is −∞ (or +∞ when ``infinite``).
    public let value: Time?
    /// Set when an addition overflowed; such a value compares unequal to every ordinary one.
    public let overflowed: Bool
    /// +∞: an animation that repeats forever.
    public let infinite: Bool

    public init(_ value: Time?) {
        self.value = value
        overflowed = false
        infinite = false
    }

    private init(overflow: Void) {
        value = nil
        overflowed = true
        infinite = false
    }

    private init(infinity: Void) {
        value = nil
        overflowed = false
        infinite = true
    }

    /// +∞.
    public static let infinity = MaxPlusDuration(infinity: ())

    public static var zero: MaxPlusDuration { MaxPlusDuration(nil) }
    public static var one: MaxPlusDuration { MaxPlusDuration(.zero) }

    public static func + (lhs: MaxPlusDuration, rhs: MaxPlusDuration) -> MaxPlusDuration {
        if lhs.overflowed || rhs.overflowed { return MaxPlusDuration(overflow: ()) }
        if lhs.infinite || rhs.infinite { return .infinity }
        guard let a = lhs.value else { return rhs }
        guard let b = rhs.value else { return lhs }
        return MaxPlusDuration(max(a, b))
    }

    public static func * (lhs: MaxPlusDuration, rhs: MaxPlusDuration) -> MaxPlusDuration {
        if lhs.overflowed || rhs.overflowed { return MaxPlusDuration(overflow: ()) }
        let lhsZero = lhs.value == nil && !lhs.infinite, rhsZero = rhs.value == nil && !rhs.infinite
        if lhsZero || rhsZero { return .zero }
        if lhs.infinite || rhs.infinite { return .infinity }
        guard let a = lhs.value, let b = rhs.value else { return .zero }
        guard let sum = try? a.adding(b) else { return MaxPlusDuration(overflow: ()) }
        return MaxPlusDuration(sum)
    }

    public var description: String {
        overflowed ? "overflow" : infinite ? "inf" : (value.map { $0.description } ?? "-inf")
    }
}

/// The duration homomorphism as an algebra: folding a term into
/// ``MaxPlusDuration`` gives the duration of its meaning.
extension MaxPlusDuration: AnimationAlgebra {
    public static func wait(_ duration: Time) throws(AnimationError) -> MaxPlusDuration { MaxPlusDuration(duration) }
    public static func tween(_ tween: Tween) throws(AnimationError) -> MaxPlusDuration { MaxPlusDuration(tween.duration) }
    public static func event(_ name: String) throws(AnimationError) -> MaxPlusDuration { .one }

    public static func sequence(_ parts: [MaxPlusDuration]) throws(AnimationError) -> MaxPlusDuration {
        parts.reduce(MaxPlusDuration.one, *)
    }

    public static func parallel(_ parts: [MaxPlusDuration]) throws(AnimationError) -> MaxPlusDuration {
        parts.reduce(MaxPlusDuration.zero, +)
    }

    public func repeated(_ count: Int) throws(AnimationError) -> MaxPlusDuration {
        guard count >= 0 else { throw .negativeCount(count) }
        if count == 0 { return .one }
        guard let value, !infinite else { return self }
        return MaxPlusDuration(try value.multiplied(by: Int64(count)))
    }

    /// `x ^ ∞`: +∞ (`zero` stays −∞).
    public func repeatedForever() throws(AnimationError) -> MaxPlusDuration {
        value == nil && !infinite ? self : .infinity
    }

    public var reversed: MaxPlusDuration { self }

    public func retimed(to duration: Time) throws(AnimationError) -> MaxPlusDuration {
        if infinite { throw .infinite("retime") }
        return value == nil ? self : MaxPlusDuration(duration)
    }

    public func eased(_ easing: Easing) throws(AnimationError) -> MaxPlusDuration { self }

    /// `end − start` (`zero` stays −∞).
    public func played(from start: Time, to end: Time) throws(AnimationError) -> MaxPlusDuration {
        value == nil && !infinite ? self : MaxPlusDuration(try end.subtracting(start))
    }
}
