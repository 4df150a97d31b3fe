// The number and colour writers against their definitions: `writeShortest`
// is "0" for ±0, the integer for whole numbers below 10^15 and Swift's
// `description` otherwise (the algorithm before its fast path, kept here as
// the reference); `writeCSS` is `rgb(R G B)` / `rgb(R G B / A)` of the
// clamped channels in that form.

import Testing
@testable import Animations

/// The definition `writeShortest` must match byte for byte.
private func referenceShortest(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return value.description
}

private func referenceCSS(_ color: Color) -> String {
    let c = color.clamped
    var text = "rgb(\(referenceShortest(c.red)) \(referenceShortest(c.green)) \(referenceShortest(c.blue))"
    if c.alpha < 1 { text += " / \(referenceShortest(c.alpha))" }
    return text + ")"
}

private func shortest(_ value: Double) -> String {
    var out: [UInt8] = [UInt8(ascii: "x")]   // appends, never overwrites
    writeShortest(value, into: &out)
    #expect(out.first == UInt8(ascii: "x"))
    return String(decoding: out.dropFirst(), as: UTF8.self)
}

private func css(_ color: Color) -> String {
    var out: [UInt8] = [UInt8(ascii: "x")]
    color.writeCSS(into: &out)
    return String(decoding: out.dropFirst(), as: UTF8.self)
}

/// Edge doubles: zeros, subnormals, powers of ten and their neighbours, the
/// thresholds of each path (10^-4, 10^15, 2^53), sums like 0.1 + 0.2.
private var edgeDoubles: [Double] {
    var values: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
                            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan,
                            -Double.nan, .ulpOfOne, 0.1 + 0.2, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 93.33333333333333,
                            83.33333333333334, 6.666666666666667, 246.5, 8.5, 0.5, 0.25, 0.125, 1e-4, 9.999e-5,
                            1e15, 1e15 - 0.5, 1e14 + 0.5, 999999999999999.9, 99999999999999.98, 9007199254740992,
                            9007199254740991, 4503599627370495.5, 123456789012345.6, 0.123456789012345,
                            0.1234567890123456, 1.000000000000001, 0.0001000000000000001, 5e-324, 2.2250738585072014e-308]
    var power = 1.0
    for _ in 0..<30 { values += [power, power.nextUp, power.nextDown]; power *= 10 }
    power = 1.0
    for _ in 0..<30 { power /= 10; values += [power, power.nextUp, power.nextDown, power * 3, power * 7.5] }
    var two = 1.0
    for _ in 0..<60 { values += [two, two - 1, two + 1, two.nextUp, two.nextDown, two + 0.5]; two *= 2 }
    for n in 0...2000 { values += [Double(n) / 4, Double(n) / 3, Double(n) / 10, Double(n) / 100, Double(n) / 1000] }
    return values + values.map { -$0 }
}

@Suite struct FormattingTests {
    @Test func shortestMatchesTheDefinitionOnEdgeDoubles() {
        for value in edgeDoubles {
            #expect(shortest(value) == referenceShortest(value), "\(value.bitPattern)")
        }
    }

    @Test(arguments: 0..<4)
    func shortestMatchesTheDefinitionOnRandomDoubles(seed: UInt64) {
        var random = SplitMix64(seed: 1000 + seed)
        for _ in 0..<50_000 {
            // Random bit patterns (every exponent), short decimals (what tables hold),
            // and decimals of 13 to 17 digits near the fast path's limit.
            let bits = Double(bitPattern: random.next())
            let digits = Int64(truncatingIfNeeded: random.next() % 1_000_000)
            let scale = [1.0, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e8][Int(random.next() % 9)]
            let short = Double(digits) / scale
            let long = Double(random.next() % 100_000_000_000_000_000) / [1e13, 1e15, 1e16, 1e17, 1e20][Int(random.next() % 5)]
            let unit = Double(random.next() >> 11) / 9007199254740992 * 255
            for value in [bits, short, -short, long, unit, unit.rounded(), (unit * 2).rounded() / 2] {
                #expect(shortest(value) == referenceShortest(value), "\(value.bitPattern)")
            }
        }
    }

    @Test func integersUpToTwoToThe53() {
        var value: Int64 = 1
        while value <= 1 << 53 {
            for v in [value - 1, value, value + 1, -value] {
                #expect(shortest(Double(v)) == referenceShortest(Double(v)))
            }
            value = value < 1000 ? value + 1 : value * 3 / 2
        }
        var out: [UInt8] = []
        for v in [Int64.min, Int64.max, 0, -1, 9, 10, 99, 100, -100] {
            out.removeAll()
            writeInteger(v, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
        }
    }

    @Test func everyByteColourAndHalves() {
        // Whole and half channels (what tweens between byte colours give), with and without alpha.
        for channel in 0...510 {
            let c = Double(channel) / 2
            for color in [Color(red: c, green: 255 - c, blue: c / 3, alpha: 1),
                          Color(red: c, green: 0, blue: 255, alpha: c / 255),
                          Color(red: -c, green: c + 200, blue: c * 1e-5, alpha: 0.5)] {
                #expect(css(color) == referenceCSS(color))
            }
        }
    }

    @Test func randomColours() {
        var random = SplitMix64(seed: 7)
        func channel() -> Double {
            switch random.next() % 4 {
            case 0: return Double(random.next() % 256)
            case 1: return Double(random.next() % 5120) / 20 - 1
            case 2: return Double(bitPattern: random.next())
            default: return Double(random.next() >> 11) / 9007199254740992 * 300 - 20
            }
        }
        for _ in 0..<50_000 {
            let color = Color(red: channel(), green: channel(), blue: channel(), alpha: Double(random.next() % 1200) / 1000)
            #expect(css(color) == referenceCSS(color))
        }
        #expect(css(Color(red: .nan, green: .infinity, blue: 1e-300, alpha: .nan)) == referenceCSS(Color(red: .nan, green: .infinity, blue: 1e-300, alpha: .nan)))
    }
}
