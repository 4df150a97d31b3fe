import Animations

/// How many digits an export writes of a number it computed (docs/exports.md
/// §7, "as small as the structure"): a Lottie file's baked keyframes (a
/// sampled value, a fitted curve; exact ones are written exactly), and the
/// web's keyframe values and offsets. Enough that rounding moves a value by
/// at most 1e-8 of its property's range (a keyframe's value) or a handle by
/// 5e-7 (its coordinates are fractions of the keyframe's interval and
/// change), far inside the bakers' 1e-5 and 1e-4 of the range; not the 17
/// digits that print a double exactly, which would make most of the file.
struct Digits {
    /// The power of ten values are rounded to; `nil` keeps them as they are.
    let exponent: Int?

    /// For the values of one property's keyframes.
    init(_ values: [[Double]]) {
        var low = Double.infinity, high = -Double.infinity
        for value in values {
            for component in value where component.isFinite {
                low = min(low, component)
                high = max(high, component)
            }
        }
        let range = high - low
        // A range so small that a hundred-millionth of it is not a normal double (0, or
        // subnormal, from values like 1e-320) keeps its values: there are no digits to save.
        guard range > 0, range.isFinite, (range * 1e-8).isNormal else {
            exponent = nil
            return
        }
        exponent = Int((range * 1e-8).log10Floor)
    }

    /// `number` rounded to the property's power of ten.
    func value(_ number: Double) -> Double {
        guard let exponent else { return number }
        return Digits.rounded(number, exponent: exponent)
    }

    /// A curve's handles to six decimals.
    static func handles(_ curve: UnitBezier) -> UnitBezier {
        UnitBezier(x1: rounded(curve.x1, exponent: -6), y1: rounded(curve.y1, exponent: -6),
                   x2: rounded(curve.x2, exponent: -6), y2: rounded(curve.y2, exponent: -6))
    }

    /// The double nearest the decimal `number` rounded to `10^exponent`, so
    /// that it prints as that decimal; `number` itself when it is too large
    /// for that (the digits would not be fewer).
    static func rounded(_ number: Double, exponent: Int) -> Double {
        guard number.isFinite, exponent >= -22, exponent <= 22 else { return number }
        let scaled = (number * power(-exponent)).rounded()
        guard abs(scaled) < 1e15 else { return number }
        // A whole number below 2^53 and a power of ten up to 10^22 are both exact, so one
        // division (or product) rounds once: the double nearest the decimal, with no text.
        return exponent < 0 ? scaled / power(-exponent) : scaled * power(exponent)
    }

    /// The double nearest the shortest decimal within `tolerance` of
    /// `number` (the fewest digits after the point, down to 10⁻¹⁷): what a
    /// person would write for it. `number` itself when no shorter decimal is
    /// close enough, or when it is not finite.
    static func shortest(_ number: Double, within tolerance: Double) -> Double {
        guard number.isFinite, tolerance > 0 else { return number }
        for exponent in stride(from: 0, through: -17, by: -1) {
            let candidate = rounded(number, exponent: exponent)
            if abs(candidate - number) <= tolerance { return candidate }
        }
        return number
    }

    /// The least power of ten at or above `number` (positive): 2.6e-4 ↦ 1e-3.
    static func powerOfTenUp(_ number: Double) -> Double {
        guard number > 0, number.isFinite else { return number }
        let exponent = Int(number.log10Floor)
        let below = power(exponent)
        return below == number ? below : rounded(below * 10, exponent: exponent + 1)
    }

    /// The least number of one significant digit at or above `number`
    /// (positive): 2.6e-4 ↦ 3e-4, 1.04e-3 ↦ 2e-3, 9.2 ↦ 10. Never more than
    /// twice `number`, and as short to write as a power of ten.
    static func oneDigitUp(_ number: Double) -> Double {
        guard number > 0, number.isFinite else { return number }
        let exponent = Int(number.log10Floor)
        let unit = power(exponent)
        let digit = (number / unit).rounded(.up)
        let result = rounded(digit * unit, exponent: exponent)
        return result < number ? rounded((digit + 1) * unit, exponent: exponent) : result
    }

    private static func power(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }
}

extension Double {
    /// ⌊log10(self)⌋ for a positive finite number, counted without Foundation.
    fileprivate var log10Floor: Double {
        // (Callers pass a positive normal number: then both loops end.)
        guard isNormal, self > 0 else { return 0 }
        var exponent = 0.0, value = self
        while value >= 10 { value /= 10; exponent += 1 }
        while value < 1 { value *= 10; exponent -= 1 }
        return exponent
    }
}
