/// Number formatting for every output animc writes: by hand, into byte
/// buffers (no `String(format:)`, no allocation per number), so that a table
/// of a million rows costs its arithmetic and little else.
///
/// ```swift
/// var out: [UInt8] = []
/// writeShortest(0.1, into: &out)            // "0.1"
/// writeFixed(2.0 / 3, decimals: 4, into: &out)   // "0.6667"
/// formatNumber(100)                          // "100"
/// ```

/// The shortest text that reads back as `value`, without a trailing `.0`
/// for whole numbers: `100`, `0.1`, `6.283185307179586`, `1e-07`.
public func formatNumber(_ value: Double) -> String {
    var out: [UInt8] = []
    writeShortest(value, into: &out)
    return String(decoding: out, as: UTF8.self)
}

/// Appends the shortest text that reads back as `value` (see ``formatNumber(_:)``).
public func writeShortest(_ value: Double, into out: inout [UInt8]) {
    // Whole numbers below 1000 (most cells: 0, 50, 255) byte by byte: cheaper
    // than a buffer appended in one piece. (NaN fails the comparison.)
    let magnitude = value.magnitude
    if magnitude < 1000, magnitude.rounded(.towardZero) == magnitude {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let whole = UInt8(truncatingIfNeeded: Int(magnitude) / 10)   // < 100
        let units = UInt8(truncatingIfNeeded: Int(magnitude) % 10)
        if whole >= 10 { out.append(UInt8(ascii: "0") &+ whole / 10) }
        if whole > 0 { out.append(UInt8(ascii: "0") &+ whole % 10) }
        out.append(UInt8(ascii: "0") &+ units)
        return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: shortestCapacity) { buffer in
        guard let base = buffer.baseAddress else { return }
        if let count = writeShortestFast(value, to: base) {
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }
}

/// The bytes ``writeShortestFast(_:to:)`` may write: a sign, `0.000` and
/// 15 digits (21), or a sign and 15 integer digits.
var shortestCapacity: Int { 24 }

/// Writes the shortest round-trip text of `value` to `buffer` (room for
/// ``shortestCapacity`` bytes) and returns its length, for whole numbers below
/// 10^15 (`100`, `-3`, `0` for ±0) and for decimals of at most 15
/// significant digits from 0.0001 on (`0.1`, `93.5`); nil otherwise (the
/// caller writes `value.description`).
///
/// Why the decimal is the shortest: at most one decimal of ≤ 15 significant
/// digits rounds to a given double (10^15 < 2^52, so reading such a decimal
/// and rounding the double back to 15 digits gives it back: two of them on
/// one double would both be that rounding). So a decimal `s / 10^d` with
/// `s < 10^15` that reads back as the value (checked by one correctly rounded
/// division of two exact doubles) is the one the shortest form denotes;
/// dropping its trailing zeros gives the shortest digits. `description`
/// writes decimals from 0.0001 up to 2^53 in positional notation.
@inline(__always)
func writeShortestFast(_ value: Double, to buffer: UnsafeMutablePointer<UInt8>) -> Int? {
    let magnitude = value.magnitude
    guard magnitude < 1e15 else { return nil }   // also NaN
    var count = 0
    if value < 0 {
        buffer[0] = UInt8(ascii: "-")
        count = 1
    }
    if magnitude.rounded(.towardZero) == magnitude {
        // Whole (±0 included, written `0`): exact in UInt64 below 10^15.
        return count + writeDigits(UInt64(magnitude), to: buffer + count)
    }
    guard magnitude >= 1e-4 else { return nil }
    // d decimals so that s = |value|·10^d has at most 15 digits: from the
    // binary exponent (−14…49 here), ⌊log10⌋ is within one of
    // ⌊exponent·log10 2⌋; a wrong guess costs a retry or one digit, never
    // correctness (the division checks).
    let exponent = Int(magnitude.exponent)
    var decimals = 14 - ((exponent * 78913) >> 18)   // 78913 / 2^18 ≈ log10 2
    guard decimals >= 1, decimals <= 22 else { return nil }
    var scaled = (magnitude * exactPowerOfTen(decimals)).rounded()
    if scaled >= 1e15 {
        decimals -= 1
        guard decimals >= 1 else { return nil }
        scaled = (magnitude * exactPowerOfTen(decimals)).rounded()
        guard scaled < 1e15 else { return nil }
    }
    guard scaled / exactPowerOfTen(decimals) == magnitude else { return nil }
    var digits = UInt64(scaled)
    while decimals > 0, digits % 10 == 0 {
        digits /= 10
        decimals -= 1
    }
    guard decimals > 0 else { return nil }   // (whole: handled above)
    // The digits, then the point moved into place.
    let start = buffer + count
    let length = digitCount(digits)
    if length > decimals {
        // `123.45`: integer digits, point, decimals.
        let written = writeDigits(digits, to: start + 1)
        let integerDigits = written - decimals
        for index in 0..<integerDigits { start[index] = start[index + 1] }
        start[integerDigits] = UInt8(ascii: ".")
        return count + written + 1
    }
    // `0.00123`: `0.`, zeros, digits.
    let zeros = decimals - length
    start[0] = UInt8(ascii: "0")
    start[1] = UInt8(ascii: ".")
    for index in 0..<zeros { start[2 + index] = UInt8(ascii: "0") }
    return count + 2 + zeros + writeDigits(digits, to: start + 2 + zeros)
}

/// 10^n for 0 ≤ n ≤ 22, where every power is an exact double.
@inline(__always)
private func exactPowerOfTen(_ n: Int) -> Double {
    var result = 1.0
    var remaining = n
    if remaining >= 16 { result = 1e16; remaining -= 16 }
    if remaining >= 8 { result *= 1e8; remaining -= 8 }
    if remaining >= 4 { result *= 1e4; remaining -= 4 }
    if remaining >= 2 { result *= 1e2; remaining -= 2 }
    if remaining >= 1 { result *= 10 }
    return result
}

/// The number of decimal digits of `value` (1 for 0).
@inline(__always)
private func digitCount(_ value: UInt64) -> Int {
    var count = 1
    var bound: UInt64 = 10
    while count < 20, value >= bound {
        count += 1
        if count < 20 { bound &*= 10 }
    }
    return count
}

/// "00" "01" … "99": two digits per division (a literal: no global to initialise).
@inline(__always)
private var digitPairs: StaticString {
    """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """
}

/// Writes the decimal digits of `value` at `buffer` (room for 20) and returns
/// how many.
@inline(__always)
func writeDigits(_ value: UInt64, to buffer: UnsafeMutablePointer<UInt8>) -> Int {
    let length = digitCount(value)
    let pairs = digitPairs.utf8Start   // 200 bytes; every index below is 2·(n % 100) + 0 or 1 < 200
    var remaining = value
    var index = length
    while index >= 2 {
        let pair = Int(truncatingIfNeeded: remaining % 100) &* 2
        remaining /= 100
        index &-= 2
        buffer[index] = pairs[pair]
        buffer[index &+ 1] = pairs[pair &+ 1]
    }
    if index == 1 { buffer[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining) }
    return length
}

/// Appends `value` rounded to `decimals` places (`-0` prints as `0`); values
/// too large for that many places print in shortest form.
public func writeFixed(_ value: Double, decimals: Int, into out: inout [UInt8]) {
    guard value.isFinite else {
        out.append(contentsOf: value.description.utf8)
        return
    }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else {
        out.append(contentsOf: value.description.utf8)
        return
    }
    let units = Int64(scaled)
    let divisor = Int64(scale)
    if value < 0, units != 0 { out.append(UInt8(ascii: "-")) }
    writeInteger(units / divisor, into: &out)
    guard decimals > 0 else { return }
    out.append(UInt8(ascii: "."))
    var fraction = units % divisor
    let start = out.count
    out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals))
    var index = out.count - 1
    while index >= start {
        out[index] = UInt8(ascii: "0") + UInt8(fraction % 10)
        fraction /= 10
        index -= 1
    }
}

/// Appends `value` in scientific notation with `digits` digits after the
/// point (`1.2346e-07`, `-3.0000e+12`): the table's form for magnitudes its
/// fixed-point columns cannot show.
public func writeScientific(_ value: Double, digits: Int, into out: inout [UInt8]) {
    guard value.isFinite, value != 0 else {
        writeFixed(value, decimals: digits, into: &out)
        return
    }
    guard abs(value) >= 1e-300, abs(value) < 1e300 else {   // where 10^exponent would leave the doubles
        out.append(contentsOf: value.description.utf8)
        return
    }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    // An estimate of ⌊log10 |value|⌋ from the binary exponent, corrected until
    // the rounded mantissa lies in [1, 10).
    var exponent = Int((Double(abs(value).exponent) * 0.30102999566398120).rounded(.down))
    var units = 0.0
    for _ in 0..<4 {
        units = (abs(value) / power10(exponent) * scale).rounded()
        if units >= 10 * scale {
            exponent += 1
        } else if units < scale {
            exponent -= 1
        } else {
            break
        }
    }
    writeFixed(value < 0 ? -units / scale : units / scale, decimals: digits, into: &out)
    out.append(UInt8(ascii: "e"))
    out.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
    let magnitude = abs(exponent)
    if magnitude < 10 { out.append(UInt8(ascii: "0")) }
    writeInteger(Int64(magnitude), into: &out)
}

/// 10^n as a double: exact for |n| ≤ 22, within a few ulps beyond.
private func power10(_ n: Int) -> Double {
    var result = 1.0
    var remaining = abs(n)
    while remaining >= 22 {
        result *= 1e22
        remaining -= 22
    }
    for _ in 0..<remaining { result *= 10 }
    return n < 0 ? 1 / result : result
}

/// Appends a decimal integer.
public func writeInteger(_ value: Int64, into out: inout [UInt8]) {
    // Sign and up to 19 digits on the stack (UInt64.max has 20), appended in one piece.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
        guard let base = buffer.baseAddress else { return }
        var count = 0
        if value < 0 {
            base[0] = UInt8(ascii: "-")
            count = 1
        }
        count += writeDigits(value.magnitude, to: base + count)
        out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }
}
