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
    if value == 0 {
        out.append(UInt8(ascii: "0"))
        return
    }
    if value == value.rounded(), abs(value) < 1e15 {
        writeInteger(Int64(value), into: &out)
        return
    }
    out.append(contentsOf: value.description.utf8)
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
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    if magnitude < 10 {
        out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude))
        return
    }
    // The digits, last first, into 20 bytes on the stack (UInt64.max has 20
    // digits), then appended in one piece: no per-digit append, no reversal.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
        var index = 20
        while magnitude > 0 {
            index &-= 1
            digits[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
    }
}
