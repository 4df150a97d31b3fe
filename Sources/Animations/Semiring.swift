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

/// The free semiring over `Leaf`: terms built from leaves with `+`, `*`,
/// `zero` and `one`, with no laws applied. ``fold(_:)`` interprets a term in
/// any semiring — the universal property: it is the unique semiring
/// homomorphism extending the interpretation of the leaves.
///
/// ```swift
/// let scene: FreeSemiring<SceneFragment> = .leaf(intro) * (.leaf(left) + .leaf(right))
/// let total = scene.fold { fragment in MaxPlusDuration(fragment.duration) }
/// ```
public indirect enum FreeSemiring<Leaf>: Semiring {
    case zero
    case one
    case leaf(Leaf)
    case plus(FreeSemiring, FreeSemiring)
    case times(FreeSemiring, FreeSemiring)

    public static func + (lhs: FreeSemiring, rhs: FreeSemiring) -> FreeSemiring { .plus(lhs, rhs) }
    public static func * (lhs: FreeSemiring, rhs: FreeSemiring) -> FreeSemiring { .times(lhs, rhs) }

    /// Interprets the term in `S`, sending each leaf through `interpret`.
    /// Uses an explicit stack, so folding deep terms does not exhaust the call
    /// stack. (Releasing a term is Swift's own recursive deinit of an indirect
    /// enum: keep hand-built terms below about 20,000 levels; ``Scene`` has no
    /// such limit.)
    public func fold<S: Semiring>(_ interpret: (Leaf) throws -> S) rethrows -> S {
        var tasks: [FoldTask<Leaf>] = [.visit(self)]
        var values: [S] = []
        while let task = tasks.popLast() {
            switch task {
            case .visit(let term):
                switch term {
                case .zero: values.append(S.zero)
                case .one: values.append(S.one)
                case .leaf(let leaf): values.append(try interpret(leaf))
                case .plus(let lhs, let rhs):
                    tasks.append(.combinePlus)
                    tasks.append(.visit(rhs))
                    tasks.append(.visit(lhs))
                case .times(let lhs, let rhs):
                    tasks.append(.combineTimes)
                    tasks.append(.visit(rhs))
                    tasks.append(.visit(lhs))
                }
            case .combinePlus, .combineTimes:
                // Both operands are on the stack: right on top.
                guard let rhs = values.popLast(), let lhs = values.popLast() else { continue }
                if case .combinePlus = task { values.append(lhs + rhs) } else { values.append(lhs * rhs) }
            }
        }
        return values.last ?? S.zero
    }
}

private enum FoldTask<Leaf> {
    case visit(FreeSemiring<Leaf>)
    case combinePlus
    case combineTimes
}

/// A named piece of a choreography (the talk's `SceneFragment`).
public struct SceneFragment: Sendable, Hashable {
    public let name: String
    public let duration: Time
    public init(name: String, duration: Time) {
        self.name = name
        self.duration = duration
    }
}

/// Where each named leaf of a choreography starts and ends — the talk's
/// "secret sauce", computed before anything runs. Leaves in a cancelled
/// sequence do not appear; `one` contributes nothing.
///
/// ```swift
/// let term: FreeSemiring<SceneFragment> = .leaf(fade) * (.leaf(left) + .leaf(right))
/// try intervals(term)   // [("fade", 0, 1), ("left", 1, 3), ("right", 1, 3)]
/// ```
public func intervals(_ term: FreeSemiring<SceneFragment>) throws(AnimationError) -> [(name: String, start: Time, end: Time)] {
    do {
        let schedule = try term.fold { fragment throws(AnimationError) -> Schedule in
            guard !fragment.duration.isNegative else { throw .negativeDuration(fragment.duration.description) }
            return Schedule(duration: fragment.duration, entries: [(fragment.name, .zero, fragment.duration)])
        }
        if let error = schedule.error { throw error }
        return schedule.entries.map { (name: $0.0, start: $0.1, end: $0.2) }
    } catch let error as AnimationError {
        throw error
    } catch {
        throw .invalidSampling("\(error)")
    }
}

/// The semiring of schedules: a duration and the intervals placed so far, or
/// cancelled (`duration == nil`).
struct Schedule: Semiring {
    var duration: Time?
    var entries: [(String, Time, Time)]
    var error: AnimationError?

    static var zero: Schedule { Schedule(duration: nil, entries: []) }
    static var one: Schedule { Schedule(duration: .zero, entries: []) }

    static func + (lhs: Schedule, rhs: Schedule) -> Schedule {
        if let error = lhs.error ?? rhs.error { return Schedule(duration: nil, entries: [], error: error) }
        guard let left = lhs.duration else { return rhs }
        guard let right = rhs.duration else { return lhs }
        return Schedule(duration: max(left, right), entries: lhs.entries + rhs.entries)
    }

    static func * (lhs: Schedule, rhs: Schedule) -> Schedule {
        if let error = lhs.error ?? rhs.error { return Schedule(duration: nil, entries: [], error: error) }
        guard let left = lhs.duration, let right = rhs.duration else { return .zero }
        var entries = lhs.entries
        for (name, start, end) in rhs.entries {
            guard let shiftedStart = start.adding(left), let shiftedEnd = end.adding(left) else {
                return Schedule(duration: nil, entries: [], error: .overflow("interval \(name)"))
            }
            entries.append((name, shiftedStart, shiftedEnd))
        }
        guard let total = left.adding(right) else {
            return Schedule(duration: nil, entries: [], error: .overflow("\(left) + \(right)"))
        }
        return Schedule(duration: total, entries: entries)
    }
}

/// Durations in the max-plus semiring: `+` is `max`, `*` is addition, `zero`
/// is −∞ (`nil`) and `one` is 0. ``Scene/duration`` is a homomorphism into it.
public struct MaxPlusDuration: Semiring, Hashable, Sendable, CustomStringConvertible {
    /// `nil` is −∞.
    public let value: Time?
    /// Set when an addition overflowed; such a value compares unequal to every ordinary one.
    public let overflowed: Bool

    public init(_ value: Time?) {
        self.value = value
        overflowed = false
    }

    private init(overflow: Void) {
        value = nil
        overflowed = true
    }

    public static var zero: MaxPlusDuration { MaxPlusDuration(nil) }
    public static var one: MaxPlusDuration { MaxPlusDuration(.zero) }

    public static func + (lhs: MaxPlusDuration, rhs: MaxPlusDuration) -> MaxPlusDuration {
        if lhs.overflowed || rhs.overflowed { return MaxPlusDuration(overflow: ()) }
        guard let a = lhs.value else { return rhs }
        guard let b = rhs.value else { return lhs }
        return MaxPlusDuration(max(a, b))
    }

    public static func * (lhs: MaxPlusDuration, rhs: MaxPlusDuration) -> MaxPlusDuration {
        if lhs.overflowed || rhs.overflowed { return MaxPlusDuration(overflow: ()) }
        guard let a = lhs.value, let b = rhs.value else { return .zero }
        guard let sum = a.adding(b) else { return MaxPlusDuration(overflow: ()) }
        return MaxPlusDuration(sum)
    }

    public var description: String {
        overflowed ? "overflow" : (value.map { $0.description } ?? "-inf")
    }
}
