/// An exact rational number of seconds.
///
/// Structural time in animc is exact: durations, window endpoints, shifts and
/// sample instants are rationals, so `0.1s + 0.2s` is exactly `0.3s` and a
/// sample taken at a boundary always falls on the same side of it. That is what
/// makes associativity of `;` and idempotence of `||` hold bit for bit.
///
/// A `Time` is always in lowest terms with a positive denominator, so two equal
/// times have equal representations. Arithmetic never traps: every operation
/// that could overflow `Int64` throws ``AnimationError/overflow(_:)``
/// (write `try?` where `nil` is the answer you want).
///
/// ```swift
/// let a = Time(numerator: 1, denominator: 10), b = Time(numerator: 2, denominator: 10)
/// try a?.adding(b!) == Time(decimal: "0.3")   // true
/// ```
public struct Time: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator, in lowest terms with ``denominator``.
    public let numerator: Int64
    /// The denominator, always positive.
    public let denominator: Int64

    /// Zero seconds.
    public static let zero = Time(unchecked: 0, 1)
    /// One second.
    public static let one = Time(unchecked: 1, 1)

    /// `numerator / denominator` as given: the caller vouches that it is in
    /// lowest terms with a positive denominator (AnimLang's compact numbers
    /// give back the parts of a time they stored, without a gcd per read).
    @inline(__always)
    package init(unchecked numerator: Int64, _ denominator: Int64) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// A whole number of seconds.
    public init(_ seconds: Int64) {
        self.init(unchecked: seconds, 1)
    }

    /// `numerator / denominator` in lowest terms, or `nil` when the denominator
    /// is zero or the value does not fit.
    public init?(numerator: Int64, denominator: Int64) {
        if let value = Time.reduced(small: numerator, denominator) {
            self = value
            return
        }
        guard let value = Time.reduced(Int128(numerator), Int128(denominator)) else { return nil }
        self = value
    }

    /// Parses a decimal literal such as `2`, `0.25`, `1e-3` or `12.5E+2` exactly.
    /// Returns `nil` for anything else or for a value that does not fit.
    public init?(decimal text: Substring) {
        self.init(decimal: ArraySlice(text.utf8))
    }

    /// ``init(decimal:)-(Substring)`` on the literal's UTF-8 bytes, as the
    /// parser holds them (the grammar is ASCII; no `String` per literal).
    public init?(decimal bytes: ArraySlice<UInt8>) {
        var digits: Int128 = 0
        var scale = 0          // number of digits after the point
        var seenDigit = false
        var seenPoint = false
        var index = bytes.startIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index = bytes.index(after: index)
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                seenDigit = true
                // Leading zeros and long fractional tails are common; stop growing past 38 digits.
                let (times10, o1) = digits.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.addingReportingOverflow(Int128(byte &- UInt8(ascii: "0")))
                if o1 || o2 { return nil }
                digits = next
                if seenPoint { scale += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        guard seenDigit else { return nil }
        var exponent = 0
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            var expNegative = false
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                expNegative = bytes[index] == UInt8(ascii: "-")
                index = bytes.index(after: index)
            }
            var expDigits = 0
            var sawExpDigit = false
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                sawExpDigit = true
                expDigits = min(expDigits * 10 + Int(bytes[index] &- UInt8(ascii: "0")), 10_000)
                index = bytes.index(after: index)
            }
            guard sawExpDigit else { return nil }
            exponent = expNegative ? -expDigits : expDigits
        }
        guard index == bytes.endIndex else { return nil }
        let power = exponent - scale
        var numerator = negative ? -digits : digits
        var denominator: Int128 = 1
        if digits == 0 {
            self = .zero
            return
        }
        if power > 0 {
            for _ in 0..<power {
                let (next, overflow) = numerator.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                numerator = next
            }
        } else if power < 0 {
            for _ in 0..<(-power) {
                let (next, overflow) = denominator.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                denominator = next
            }
        }
        guard let value = Time.reduced(numerator, denominator) else { return nil }
        self = value
    }

    /// Parses a decimal literal; see ``init(decimal:)-(Substring)``.
    public init?(decimal text: String) {
        self.init(decimal: Substring(text))
    }

    /// The shortest decimal that reads back as `seconds`, as an exact time:
    /// `Time(seconds: 0.1)` is exactly one tenth, not the binary fraction
    /// nearest to it. Returns `nil` for NaN, infinities and values that do not fit.
    public init?(seconds: Double) {
        guard seconds.isFinite else { return nil }
        if seconds == seconds.rounded(), abs(seconds) < 9e18 {
            self.init(unchecked: Int64(seconds), 1)
            return
        }
        self.init(decimal: Substring(seconds.description))
    }

    /// This time as the nearest `Double` number of seconds.
    @inlinable
    public var seconds: Double {
        denominator == 1 ? Double(numerator) : Double(numerator) / Double(denominator)
    }

    public var isZero: Bool { numerator == 0 }
    public var isNegative: Bool { numerator < 0 }
    public var isPositive: Bool { numerator > 0 }

    /// `self + other`; throws ``AnimationError/overflow(_:)`` when it does not fit.
    /// (The 64-bit work is in ``sum(_:_:)``: this stays small enough for the
    /// optimizer to inline where it pays — forcing it into the samplers'
    /// hot loops cost more than it saved in compile.)
    public func adding(_ other: Time) throws(AnimationError) -> Time {
        // (Both in lowest terms: adding 0 gives the other as it is.)
        if other.numerator == 0 { return self }
        if numerator == 0 { return other }
        return try Time.sum(self, other)
    }

    /// ``adding(_:)`` of two nonzero times.
    static func sum(_ a: Time, _ b: Time) throws(AnimationError) -> Time {
        if let value = Time.sum(small: a, b) { return value }
        let n = Int128(a.numerator) * Int128(b.denominator) + Int128(b.numerator) * Int128(a.denominator)
        let d = Int128(a.denominator) * Int128(b.denominator)
        guard let value = Time.reduced(n, d) else { throw .overflow("\(a) + \(b)") }
        return value
    }

    /// `a + b` in 64 bits, the fast path of ``adding(_:)``: `nil` when a
    /// product or the sum does not fit, and then the caller takes the exact
    /// 128-bit path (which decides what fits).
    ///
    /// Knuth's addition (TAOCP 4.5.1): with g = gcd(a.d, b.d), a.d = g·a′ and
    /// b.d = g·b′, the sum is t / (g·a′·b′) with t = a.n·b′ + b.n·a′. Both
    /// operands are in lowest terms, so t shares no factor with a′ nor b′
    /// (t ≡ a.n·b′ mod a′, each factor prime to a′; likewise for b′), and
    /// the one gcd left to take is gcd(t, g), of the small g: none when the
    /// denominators are coprime (integers among them). With equal
    /// denominators that is the sum of the numerators reduced by its gcd
    /// with the denominator; when one denominator divides the other, g is
    /// the smaller one.
    @inline(__always)
    static func sum(small a: Time, _ b: Time) -> Time? {
        // (Denominators are positive: the arithmetic on them is unsigned, and no division traps.)
        let ad = UInt64(bitPattern: a.denominator), bd = UInt64(bitPattern: b.denominator)
        let t: Int64, g: UInt64, aScale: UInt64
        if ad == bd {
            let (sum, overflow) = a.numerator.addingReportingOverflow(b.numerator)
            guard !overflow else { return nil }
            if ad == 1 { return sum == Int64.min ? nil : Time(unchecked: sum, 1) }
            (t, g, aScale) = (sum, ad, 1)
        } else {
            // a′ and b′ (at most the denominators: below 2^63), with one
            // division when a denominator divides the other (1/5 + 1/10).
            var aPart = ad, bPart = bd, common: UInt64 = 1
            if ad < bd, bd % ad == 0 {
                (aPart, bPart, common) = (1, bd / ad, ad)
            } else if bd < ad, ad % bd == 0 {
                (aPart, bPart, common) = (ad / bd, 1, bd)
            } else if ad != 1, bd != 1 {
                var x = ad, y = bd
                while y != 0 { (x, y) = (y, x % y) }
                if x != 1 { (aPart, bPart, common) = (ad / x, bd / x, x) }
            }
            let (x, o1) = a.numerator.multipliedReportingOverflow(by: Int64(bitPattern: bPart))
            let (y, o2) = b.numerator.multipliedReportingOverflow(by: Int64(bitPattern: aPart))
            let (sum, o3) = x.addingReportingOverflow(y)
            guard !(o1 || o2 || o3) else { return nil }
            (t, g, aScale) = (sum, common, aPart)
        }
        if t == 0 { return .zero }
        guard t != Int64.min else { return nil }
        var h: UInt64 = 1
        if g != 1 {
            var x = g, y = t.magnitude % g
            while y != 0 { (x, y) = (y, x % y) }
            h = x
        }
        // The denominator a′ · (b.d / h), positive; it may not fit (then nothing does).
        let (denominator, overflow) = aScale.multipliedReportingOverflow(by: h == 1 ? bd : bd / h)
        guard !overflow, denominator <= UInt64(Int64.max) else { return nil }
        // (|t| / h < 2^63: the sign goes back on without overflow.)
        let numerator = h == 1 ? t : t < 0 ? 0 &- Int64(bitPattern: t.magnitude / h) : Int64(bitPattern: t.magnitude / h)
        return Time(unchecked: numerator, Int64(bitPattern: denominator))
    }

    /// `self - other`; throws ``AnimationError/overflow(_:)`` when it does not fit.
    public func subtracting(_ other: Time) throws(AnimationError) -> Time {
        guard other.numerator != Int64.min else { throw .overflow("\(self) - \(other)") }
        return try adding(Time(unchecked: -other.numerator, other.denominator))
    }

    /// `self × other`; throws ``AnimationError/overflow(_:)`` when it does not fit.
    public func multiplied(by other: Time) throws(AnimationError) -> Time {
        let (n, o1) = numerator.multipliedReportingOverflow(by: other.numerator)
        let (d, o2) = denominator.multipliedReportingOverflow(by: other.denominator)
        if !(o1 || o2), let value = Time.reduced(small: n, d) { return value }
        guard let value = Time.reduced(Int128(numerator) * Int128(other.numerator), Int128(denominator) * Int128(other.denominator)) else {
            throw .overflow("\(self) × \(other)")
        }
        return value
    }

    /// `self × count`; throws ``AnimationError/overflow(_:)`` when it does not fit.
    public func multiplied(by count: Int64) throws(AnimationError) -> Time {
        let (n, overflow) = numerator.multipliedReportingOverflow(by: count)
        if !overflow, let value = Time.reduced(small: n, denominator) { return value }
        guard let value = Time.reduced(Int128(numerator) * Int128(count), Int128(denominator)) else {
            throw .overflow("\(self) × \(count)")
        }
        return value
    }

    /// `self ÷ other`; throws ``AnimationError/overflow(_:)`` when `other` is
    /// zero or the quotient does not fit.
    public func divided(by other: Time) throws(AnimationError) -> Time {
        let (n, o1) = numerator.multipliedReportingOverflow(by: other.denominator)
        let (d, o2) = denominator.multipliedReportingOverflow(by: other.numerator)
        if !(o1 || o2), let value = Time.reduced(small: n, d) { return value }
        guard other.numerator != 0,
              let value = Time.reduced(Int128(numerator) * Int128(other.denominator), Int128(denominator) * Int128(other.numerator)) else {
            throw .overflow("\(self) ÷ \(other)")
        }
        return value
    }

    /// `-self`; throws for the one value whose negation does not fit.
    public func negated() throws(AnimationError) -> Time {
        guard numerator != Int64.min else { throw .overflow("-(\(self))") }
        return Time(unchecked: -numerator, denominator)
    }

    /// The greatest integer not above `self ÷ period` (`period` must be positive).
    package func floorQuotient(dividingBy period: Time) -> Int128 {
        let n = Int128(numerator) * Int128(period.denominator)
        let d = Int128(denominator) * Int128(period.numerator)
        let q = n / d
        return (n % d != 0 && (n < 0) != (d < 0)) ? q - 1 : q
    }

    public static func < (lhs: Time, rhs: Time) -> Bool {
        if lhs.denominator == rhs.denominator { return lhs.numerator < rhs.numerator }
        let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
        let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }

    /// The exact value in lowest terms, printed as a decimal when it has a
    /// finite one (`0.25`) and as a fraction otherwise (`1/3`).
    public var description: String {
        if denominator == 1 { return String(numerator) }
        if let decimal = decimalDescription { return decimal }
        return "\(numerator)/\(denominator)"
    }

    /// The finite decimal expansion, when the denominator has no prime factor
    /// other than 2 and 5; `nil` otherwise.
    public var decimalDescription: String? {
        var bytes: [UInt8] = []
        guard writeDecimal(into: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``decimalDescription`` to `out` without making a string
    /// (tables print a time per row); `false`, appending nothing, when the
    /// value has no finite decimal expansion of at most 30 places.
    public func writeDecimal(into out: inout [UInt8]) -> Bool {
        // (The denominator is positive: its twos are its trailing zero bits.)
        let twos = denominator.trailingZeroBitCount
        var rest = denominator >> twos, fives = 0
        while rest % 5 == 0 { rest /= 5; fives += 1 }
        let places = max(twos, fives)
        // Past 30 places the expansion is unreadable anyway (and 10^places would overflow).
        guard rest == 1, places <= 30 else { return false }
        // numerator / denominator = numerator * (10^places / denominator) / 10^places,
        // in 64 bits when 10^places and the product fit (a table's times), else in 128;
        // 10^places / denominator = 2^(places − twos) · 5^(places − fives), no division.
        if places <= 18 {
            var factor: Int64 = 1
            for _ in 0..<(places - twos) { factor &*= 2 }
            for _ in 0..<(places - fives) { factor &*= 5 }   // ≤ 10^18 < 2^63
            let (scaled, overflow) = numerator.multipliedReportingOverflow(by: factor)
            if !overflow {
                Time.writeDigits(of: scaled.magnitude, negative: scaled < 0, places: places, into: &out)
                return true
            }
        }
        var scale: Int128 = 1
        for _ in 0..<places { scale *= 10 }
        let (scaled, overflow) = Int128(numerator).multipliedReportingOverflow(by: scale / Int128(denominator))
        guard !overflow else { return false }
        Time.writeDigits(of: scaled.magnitude, negative: scaled < 0, places: places, into: &out)
        return true
    }

    /// Appends `magnitude / 10^places` in decimal (`-` first when
    /// `negative`): the integer part (at least `0`), then `places` digits
    /// after a point when `places > 0`. Digits are made in a stack buffer.
    private static func writeDigits<Magnitude: UnsignedInteger & FixedWidthInteger>(of magnitude: Magnitude, negative: Bool,
                                                                                 places: Int, into out: inout [UInt8]) {
        // At most 39 digits (2^128 < 10^39) or places + 1 ≤ 31, a point and
        // a sign: 48 bytes suffice. The whole text is made there and appended
        // in one piece (a table writes a time per row).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            // Least significant first, from the end of the buffer backwards:
            // `places` digits, the point, then the integer part (at least `0`).
            var position = buffer.count
            var rest = magnitude
            var written = 0
            repeat {
                if written == places, places > 0 {
                    position -= 1
                    buffer[position] = UInt8(ascii: ".")
                }
                position -= 1
                buffer[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                written += 1
            } while rest > 0 || written <= places
            if negative {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            // Byte by byte: a table's times are a few bytes, cheaper so than appending a buffer in one piece.
            out.reserveCapacity(out.count + buffer.count - position)
            for index in position..<buffer.count { out.append(buffer[index]) }
        }
    }

    /// ``reduced(_:_:)`` in 64 bits, the fast path of the arithmetic: `nil`
    /// when `d` is zero or a sign cannot be moved without overflow, and then
    /// the caller takes the exact 128-bit path (which decides what fits).
    @inline(__always)
    static func reduced(small n: Int64, _ d: Int64) -> Time? {
        guard d != 0, n != Int64.min, d != Int64.min else { return nil }
        if n == 0 { return .zero }
        if d == 1 { return Time(unchecked: n, 1) }
        var x = n.magnitude, y = d.magnitude
        while y != 0 { (x, y) = (y, x % y) }
        let g = Int64(x)   // ≤ |d| < 2^63
        return d < 0 ? Time(unchecked: -(n / g), -(d / g)) : Time(unchecked: n / g, d / g)
    }

    /// Reduces `n / d` to lowest terms with a positive denominator; `nil` when
    /// `d` is zero or the result does not fit in `Int64`.
    static func reduced(_ n: Int128, _ d: Int128) -> Time? {
        guard d != 0 else { return nil }
        if n == 0 { return .zero }
        var num = n, den = d
        if den < 0 {
            guard num != Int128.min, den != Int128.min else { return nil }
            num = -num
            den = -den
        }
        let g = gcd(num.magnitude, den.magnitude)
        if g > 1 {
            num /= Int128(g)
            den /= Int128(g)
        }
        guard let smallNum = Int64(exactly: num), let smallDen = Int64(exactly: den),
              smallNum != Int64.min else { return nil }
        return Time(unchecked: smallNum, smallDen)
    }
}

/// A sum of times added one by one (a sequence's parts), kept as
/// `sum / over` while the times share a denominator: a chain of equal parts
/// adds its numerators, with no gcd per part, and ``time`` reduces once.
/// Any other time, or a sum that would overflow, first reduces it to the
/// exact total so far and adds as ``Time/adding(_:)`` does, so it throws
/// where adding one by one throws, with the same operands.
struct RunningTotal {
    private var sum: Int64 = 0
    /// Positive (the denominator of a `Time`, or 1).
    private var over: Int64 = 1
    /// Whether `sum / over` is in lowest terms (a `Time` as it is).
    private var isReduced = true

    /// The total so far, in lowest terms.
    var time: Time {
        if isReduced { return Time(unchecked: sum, over) }
        // (`sum / over` fits: a sum whose every step fitted; `reduced(small:)` declines only
        // `Int64.min`, which no such sum is, so the rest is never reached.)
        return Time.reduced(small: sum, over) ?? Time.reduced(Int128(sum), Int128(over)) ?? .zero
    }

    mutating func add(_ time: Time) throws(AnimationError) {
        // Zero plus a time is that time (what `adding` does first).
        if sum == 0 {
            (sum, over, isReduced) = (time.numerator, time.denominator, true)
            return
        }
        if time.denominator == over {
            let (next, overflow) = sum.addingReportingOverflow(time.numerator)
            if !overflow, next != Int64.min {
                (sum, isReduced) = (next, over == 1)
                return
            }
        }
        let next = try self.time.adding(time)
        (sum, over, isReduced) = (next.numerator, next.denominator, true)
    }
}

/// Binary GCD on 128-bit magnitudes (division on `UInt128` is slow in software).
@usableFromInline
func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
    if a == 0 { return b }
    if b == 0 { return a }
    // Fast path: both fit in 64 bits.
    if a >> 64 == 0, b >> 64 == 0 {
        var x = UInt64(truncatingIfNeeded: a), y = UInt64(truncatingIfNeeded: b)
        while y != 0 { (x, y) = (y, x % y) }
        return UInt128(x)
    }
    var x = a, y = b
    let shift = (x | y).trailingZeroBitCount
    x >>= x.trailingZeroBitCount
    repeat {
        y >>= y.trailingZeroBitCount
        if x > y { swap(&x, &y) }
        y -= x
    } while y != 0
    return x << shift
}
