/// Everything that can go wrong when building or sampling an animation value.
///
/// The library never traps on bad input that a script can produce: every
/// operation that can fail throws one of these, and the `.anim` front end turns
/// each into a located diagnostic. Messages are lowercase with no trailing
/// period, ready to be prefixed with `error: `.
public enum AnimationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Exact time arithmetic left the range of 64-bit rationals.
    case overflow(String)
    /// A duration below zero.
    case negativeDuration(String)
    /// NaN or an infinity where a finite number is needed.
    case notFinite(String)
    /// A repetition count below zero.
    case negativeCount(Int)
    /// `with E` on a composite where `E` is not monotone non-decreasing.
    case nonMonotoneWarp(Easing)
    /// Two values of different kinds (a number and a colour) on one property.
    case mixedKinds(Property, Value.Kind, Value.Kind)
    /// An easing parameter outside its domain (a `cubic-bezier` x outside [0, 1], `steps(0)`, …).
    case invalidEasing(String)
    /// Retiming an animation of zero duration to a positive one (`one in 2s`).
    case retimeOfInstant(String)
    /// A sampling request that cannot be met (too many rows, a time outside the animation, …).
    case invalidSampling(String)
    /// An operation that needs an end (`reversed`, `looped`, `in`, a warp)
    /// applied to an animation that repeats forever; the operation's name.
    case infinite(String)
    /// `x repeated forever` where `x` lasts no time.
    case foreverOfInstant
    /// `by` on a colour property (colours take `to`).
    case relativeColor(Property)
    /// Reversing a `to` tween: it has no start to return to.
    case reversedRelative(Property)
    /// A relative colour tween with nothing before it and no declared initial colour.
    case noCurrentValue(Property)
    /// A relative tween in a place whose current value cannot be followed symbolically.
    case relativeUnsupported(String)
    /// `played from T1 to T2` with `T1 < 0` or `T2 < T1` (the two times, as written).
    case invalidPart(String, String)
    /// `played` of an endless animation without an end time.
    case endlessPart

    public var description: String {
        switch self {
        case .overflow(let what):
            return "exact time arithmetic overflowed (\(what))"
        case .negativeDuration(let what):
            return "duration must not be negative (got \(what))"
        case .notFinite(let what):
            return "\(what) is not a finite number"
        case .negativeCount(let count):
            return "count must not be negative (got \(count))"
        case .nonMonotoneWarp:
            return "the easing is not monotone, so on a composite animation time would run backwards"
        case .mixedKinds(let property, let first, let second):
            return "\(property) mixes a \(first.rawValue) and a \(second.rawValue)"
        case .invalidEasing(let why):
            return why
        case .retimeOfInstant(let target):
            return "cannot stretch an animation of zero duration to \(target)"
        case .invalidSampling(let why):
            return why
        case .infinite(let operation):
            return "cannot \(operation) an animation that repeats forever: it has no end to measure from"
        case .foreverOfInstant:
            return "cannot repeat forever an animation that lasts 0s"
        case .relativeColor(let property):
            return "cannot animate the colour \(property) `by` an amount"
        case .reversedRelative(let property):
            return "cannot reverse a tween of \(property) that goes `to` a value: it has no start to return to"
        case .noCurrentValue(let property):
            return "\(property) has no current colour to start from"
        case .relativeUnsupported(let why):
            return why
        case .invalidPart(let start, let end):
            return "cannot play an animation from \(start)s to \(end)s: the part needs 0 ≤ start ≤ end"
        case .endlessPart:
            return "cannot play an animation that repeats forever to its end: it has none; give the end (`played to T2`)"
        }
    }
}
