/// A colour as CSS writes legacy colours: gamma-encoded sRGB channels on
/// the 0–255 scale, and alpha from 0 to 1.
///
/// Colours interpolate and average **premultiplied**, as CSS does: the
/// components `(a, r·a, g·a, b·a)` are mixed, then divided by the mixed
/// alpha, so fading from opaque red to transparent blue never passes through
/// a murky grey. Values between are kept unclamped (an overshooting curve
/// may leave the gamut); ``clamped`` is what gets printed.
///
/// ```swift
/// let red = Color(red: 255, green: 0, blue: 0)
/// let clear = Color(red: 0, green: 0, blue: 255, alpha: 0)
/// Color.interpolate(from: red, to: clear, progress: 0.5)   // rgb(255 0 0 / 0.5): still red
/// ```
public struct Color: Hashable, Sendable, Animatable, CustomStringConvertible {
    /// Channels on the 0–255 scale (fractions allowed).
    public var red: Double
    public var green: Double
    public var blue: Double
    /// Opacity, from 0 (transparent) to 1 (opaque).
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// CSS Color 4's `hsl()`: `hue` in degrees (any angle), `saturation`
    /// and `lightness` from 0 to 1 (the percentages over 100), converted to
    /// sRGB by the specification's formula (§7.1, "HSL to RGB").
    public init(hue: Double, saturation: Double, lightness: Double, alpha: Double = 1) {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func channel(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        self.init(red: channel(0) * 255, green: channel(8) * 255, blue: channel(4) * 255, alpha: alpha)
    }

    /// CSS Color 4's `hsl()` as written: `hue` in degrees (any angle),
    /// saturation and lightness in percent (0–100). The formula is evaluated
    /// on the 0–255 scale as one quotient, `(100·L − S·min(L, 100 − L)·m)·255 / 10000`,
    /// so percentages and hues written as whole numbers (multiples of 30° for
    /// the hue) give the exact channel, rounded once: `hsl(210, 50%, 40%)` is
    /// exactly `rgb(51 102 153)`.
    public init(hue: Double, saturationPercent: Double, lightnessPercent: Double, alpha: Double = 1) {
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        let s = saturationPercent, l = lightnessPercent
        func channel(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let m = max(-1, min(k - 3, 9 - k, 1))
            return (100 * l - s * min(l, 100 - l) * m) * 255 / 10000
        }
        self.init(red: channel(0), green: channel(8), blue: channel(4), alpha: alpha)
    }

    /// Whether every component is finite.
    public var isFinite: Bool {
        red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite
    }

    /// `from` mixed with `to` at `progress` (which may leave [0, 1]),
    /// premultiplied: alpha mixes linearly, each channel times alpha mixes
    /// linearly, and the result is divided by the mixed alpha. Where both
    /// alphas are equal this is the plain mix of the channels, and is
    /// computed as that (no rounding through the product). A mixed alpha of
    /// 0 or less leaves no colour: the channels are 0.
    public static func interpolate(from: Color, to: Color, progress p: Double) -> Color {
        if from.alpha == to.alpha {
            return Color(red: interpolateNumber(from.red, to.red, p), green: interpolateNumber(from.green, to.green, p),
                         blue: interpolateNumber(from.blue, to.blue, p), alpha: from.alpha)
        }
        let alpha = interpolateNumber(from.alpha, to.alpha, p)
        guard alpha > 0 else { return Color(red: 0, green: 0, blue: 0, alpha: alpha) }
        return Color(red: interpolateNumber(from.red * from.alpha, to.red * to.alpha, p) / alpha,
                     green: interpolateNumber(from.green * from.alpha, to.green * to.alpha, p) / alpha,
                     blue: interpolateNumber(from.blue * from.alpha, to.blue * to.alpha, p) / alpha,
                     alpha: alpha)
    }

    /// The premultiplied mean of `colors` (all of them; ties pass distinct
    /// ones): alpha is the mean alpha, each channel the mean of channel ×
    /// alpha over the mean alpha. Components are summed in ascending order, so
    /// the result does not depend on the order of the colours.
    public static func mean(of colors: [Color]) -> Color {
        guard let first = colors.first else { return Color(red: 0, green: 0, blue: 0, alpha: 0) }
        if colors.allSatisfy({ $0.alpha == first.alpha }) {
            return Color(red: meanOfAll(colors.map(\.red)), green: meanOfAll(colors.map(\.green)),
                         blue: meanOfAll(colors.map(\.blue)), alpha: first.alpha)
        }
        let alpha = meanOfAll(colors.map(\.alpha))
        guard alpha > 0 else { return Color(red: 0, green: 0, blue: 0, alpha: alpha) }
        return Color(red: meanOfAll(colors.map { $0.red * $0.alpha }) / alpha,
                     green: meanOfAll(colors.map { $0.green * $0.alpha }) / alpha,
                     blue: meanOfAll(colors.map { $0.blue * $0.alpha }) / alpha,
                     alpha: alpha)
    }

    /// What is printed: alpha clamped to [0, 1] (a colour with no alpha left
    /// is transparent black), channels clamped to [0, 255].
    public var clamped: Color {
        let alpha = min(max(self.alpha, 0), 1)
        guard alpha > 0 else { return Color(red: 0, green: 0, blue: 0, alpha: 0) }
        func clamp(_ channel: Double) -> Double { min(max(channel, 0), 255) }
        return Color(red: clamp(red), green: clamp(green), blue: clamp(blue), alpha: alpha)
    }

    /// `#rrggbb`, or `#rrggbbaa` when the clamped alpha is below 1; each
    /// component rounded to the nearest of 0…255.
    public func writeHex(into out: inout [UInt8]) {
        let color = clamped
        out.append(UInt8(ascii: "#"))
        for component in [color.red, color.green, color.blue] { writeHexByte(component, into: &out) }
        if color.alpha < 1 { writeHexByte(color.alpha * 255, into: &out) }
    }

    /// `rgb(R G B)`, or `rgb(R G B / A)` when the clamped alpha is below 1,
    /// every number in shortest round-trip form: lossless.
    public func writeCSS(into out: inout [UInt8]) {
        let color = clamped
        // The common case in one append: every number in the fast form, into
        // a stack buffer of `rgb(` + 4 numbers + ` / ` + `)` at most.
        let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8 + 4 * shortestCapacity) { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            base[0] = UInt8(ascii: "r")
            base[1] = UInt8(ascii: "g")
            base[2] = UInt8(ascii: "b")
            base[3] = UInt8(ascii: "(")
            var count = 4
            guard let red = writeShortestFast(color.red, to: base + count) else { return false }
            count += red
            base[count] = UInt8(ascii: " ")
            count += 1
            guard let green = writeShortestFast(color.green, to: base + count) else { return false }
            count += green
            base[count] = UInt8(ascii: " ")
            count += 1
            guard let blue = writeShortestFast(color.blue, to: base + count) else { return false }
            count += blue
            if color.alpha < 1 {
                base[count] = UInt8(ascii: " ")
                base[count + 1] = UInt8(ascii: "/")
                base[count + 2] = UInt8(ascii: " ")
                count += 3
                guard let alpha = writeShortestFast(color.alpha, to: base + count) else { return false }
                count += alpha
            }
            base[count] = UInt8(ascii: ")")
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: count + 1))
            return true
        }
        if written { return }
        out.append(contentsOf: "rgb(".utf8)
        writeShortest(color.red, into: &out)
        out.append(UInt8(ascii: " "))
        writeShortest(color.green, into: &out)
        out.append(UInt8(ascii: " "))
        writeShortest(color.blue, into: &out)
        if color.alpha < 1 {
            out.append(contentsOf: " / ".utf8)
            writeShortest(color.alpha, into: &out)
        }
        out.append(UInt8(ascii: ")"))
    }

    /// The lossless CSS form, `rgb(…)`.
    public var description: String {
        var out: [UInt8] = []
        writeCSS(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Animatable

    public static var channels: [String] { ["color"] }
    public var channelValues: [Value] { [.color(self)] }

    public init?(channelValues: [Value]) {
        guard channelValues.count == 1, case .color(let color) = channelValues[0] else { return nil }
        self = color
    }

    /// The premultiplied mean of the distinct colours (the sampling rule's tie-break).
    public static func blend(_ values: [Color]) -> Color {
        var distinct: [Color] = []
        for value in values where !distinct.contains(value) { distinct.append(value) }
        return mean(of: distinct)
    }
}

private func writeHexByte(_ component: Double, into out: inout [UInt8]) {
    // (A NaN channel, which only a curve composed to overflow produces, shows as 0.)
    let byte = component.isNaN ? 0 : Int(min(max(component, 0), 255).rounded())
    let digits = Array("0123456789abcdef".utf8)
    out.append(digits[byte >> 4])
    out.append(digits[byte & 15])
}
