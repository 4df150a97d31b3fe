/// A point in time that is exact, except where an easing warp has mapped it
/// (then it carries only the nearest `Double`).
public struct Instant: Sendable, Comparable, Hashable, CustomStringConvertible {
    /// The exact value's numerator and denominator; the denominator is 0
    /// when the instant is inexact, and the numerator then holds the bits of
    /// its `Double` (16 bytes: a compiled track keeps several instants per
    /// segment, and the seconds of an exact one are its quotient).
    private let numerator: Int64
    private let denominator: Int64

    /// The value in seconds (exact when `exact` is, up to rounding).
    @inline(__always)
    public var seconds: Double {
        switch denominator {
        case 0: return Double(bitPattern: UInt64(bitPattern: numerator))
        case 1: return Double(numerator)
        default: return Double(numerator) / Double(denominator)   // as ``Time/seconds``
        }
    }

    /// The exact value, when no easing warp touched this instant.
    @inline(__always)
    public var exact: Time? {
        denominator == 0 ? nil : Time(unchecked: numerator, denominator)
    }

    @inline(__always)
    public init(_ time: Time) {
        numerator = time.numerator
        denominator = time.denominator
    }

    @inline(__always)
    public init(approximately seconds: Double) {
        numerator = Int64(bitPattern: seconds.bitPattern)
        denominator = 0
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        if let a = lhs.exact, let b = rhs.exact { return a < b }
        return lhs.seconds < rhs.seconds
    }

    public static func == (lhs: Instant, rhs: Instant) -> Bool {
        // Exact times are in lowest terms: equal exactly when their parts are.
        if lhs.denominator != 0, rhs.denominator != 0 {
            return lhs.numerator == rhs.numerator && lhs.denominator == rhs.denominator
        }
        return lhs.seconds == rhs.seconds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
    }

    public var description: String {
        exact.map { $0.description } ?? formatNumber(seconds)
    }
}

/// Arithmetic on instants: exact while both sides are, else on the nearest
/// `Double` (where a warp made an instant inexact, or exact time overflows).
extension Instant {
    /// `self + delta`; `nil` when exact time overflows.
    public func shifted(by delta: Time) -> Instant? {
        guard let exact else { return Instant(approximately: seconds + delta.seconds) }
        return (try? exact.adding(delta)).map(Instant.init)
    }

    /// `self + copies·period`, exactly when possible, else approximately:
    /// the same body time in another copy of a repetition.
    public func shifted(by period: Time, times copies: Int) -> Instant {
        if let exact, let offset = try? period.multiplied(by: Int64(copies)), let moved = try? exact.adding(offset) {
            return Instant(moved)
        }
        return Instant(approximately: seconds + period.seconds * Double(copies))
    }

    /// `self + (other − self)·fraction`, exactly when both are exact: the
    /// point a fraction of the way to `other` (on any clock: a Lottie
    /// export's frames are instants of its frame clock).
    public func toward(_ other: Instant, _ fraction: Time) -> Instant {
        if let a = exact, let b = other.exact, let difference = try? b.subtracting(a),
           let step = try? difference.multiplied(by: fraction), let sum = try? a.adding(step) {
            return Instant(sum)
        }
        return Instant(approximately: seconds + (other.seconds - seconds) * fraction.seconds)
    }

    /// Halfway between `a` and `b`: where an open interval between two
    /// breakpoints is read for the rule that holds all over it.
    public static func midpoint(_ a: Instant, _ b: Instant) -> Instant {
        a.toward(b, half)
    }

    private static let half = Time(numerator: 1, denominator: 2) ?? .zero

    /// Which of `count` copies of `period` each (the first starting at 0)
    /// holds `self`: `⌊self / period⌋`; where two copies meet, the later one,
    /// or with `earlier` the one that ends there. 0 before the first copy;
    /// `nil` after the last one ends (never for `count == Int.max`, an
    /// endless repetition). `period` must be positive.
    public func copy(ofPeriod period: Time, count: Int, earlier: Bool = false) -> Int? {
        if let exact {
            var quotient = exact.floorQuotient(dividingBy: period)
            if earlier, (try? period.multiplied(by: Int64(clamping: quotient))) == exact { quotient -= 1 }
            if quotient < 0 { return 0 }
            guard quotient >= Int128(count) else { return Int(quotient) }
            if count == Int.max { return count - 1 }
            let total = try? period.multiplied(by: Int64(count))
            return total.map { exact <= $0 } == true ? count - 1 : nil
        }
        let ratio = seconds / period.seconds
        let quotient = earlier ? ratio.rounded(.up) - 1 : ratio.rounded(.down)
        if !(quotient < Double(count)) {   // also NaN: past the end
            return count == Int.max || seconds <= period.seconds * Double(count) ? count - 1 : nil
        }
        return quotient > 0 ? Int(quotient) : 0   // never converts a huge negative
    }
}
