import Testing
import Animations
@testable import AnimLang

/// `Number` and `ColorSyntax` store the common case inline and every other
/// value boxed (issue 23): whichever way a value is stored, it must read
/// back exactly as given, and equality must not depend on the representation.
struct CompactNumberTests {
    /// Reads back bit for bit what it was made of.
    private func expectRoundTrip(_ exact: Time?, _ value: Double, mentionsPi: Bool = false,
                                 compact: Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let range = SourceRange(3, 11)
        let number = Number(exact: exact, value: value, mentionsPi: mentionsPi, range: range)
        #expect(number.exact == exact, sourceLocation: sourceLocation)
        #expect(number.value.bitPattern == value.bitPattern, sourceLocation: sourceLocation)
        #expect(number.mentionsPi == mentionsPi, sourceLocation: sourceLocation)
        #expect(number.formula == nil, sourceLocation: sourceLocation)
        #expect(number.range == range, sourceLocation: sourceLocation)
        #expect(number.isCompact == compact, sourceLocation: sourceLocation)
    }

    private func time(_ numerator: Int64, _ denominator: Int64) -> Time {
        Time(numerator: numerator, denominator: denominator) ?? .zero
    }

    @Test func sizes() {
        #expect(MemoryLayout<Number>.size == 16)
        #expect(MemoryLayout<Number?>.size == 16)
        #expect(MemoryLayout<ColorSyntax>.size == 16)
        #expect(MemoryLayout<ValueSyntax>.size == 16)
        #expect(MemoryLayout<ValueSyntax?>.size == 16)
    }

    /// Every fraction that fits is inline, at the boundaries too.
    @Test func exactSmallFractionsAreInline() {
        let numerators: [Int64] = [0, 1, -1, 2, 7, -7, 1000, Int64(Int32.max), Int64(Int32.min), Int64(Int32.max) - 2]
        let denominators: [Int64] = [1, 2, 3, 10, 255, 256, 65_535, 65_536, 65_537, 1_000_000, (1 << 24) - 1]
        for n in numerators {
            for d in denominators {
                let exact = time(n, d)
                let value = Double(exact.numerator) / Double(exact.denominator)
                expectRoundTrip(exact, value, compact: true)
                #expect(Number(exact) == Number(exact: exact, value: value))
                #expect(Number(exact).isCompact)
            }
        }
        // The decimals a script writes.
        for text in ["0.1", "0.25", "1e-3", "12.5", "-3.75", "0.0000001", "2147483647", "-2147483648"] {
            let exact = Time(decimal: text) ?? .zero
            expectRoundTrip(exact, exact.seconds, compact: true)
        }
    }

    /// Just past each boundary the number is boxed, and still reads back.
    @Test func largeFractionsAreBoxed() {
        for exact in [time(Int64(Int32.max) + 1, 1), time(Int64(Int32.min) - 1, 1), time(1, 1 << 24), time(1, (1 << 24) + 1),
                      time(3, 1 << 40), time(Int64.max, 1), time(Int64.min + 1, 7), Time(decimal: "0.00000001") ?? .zero] {
            let value = Double(exact.numerator) / Double(exact.denominator)
            expectRoundTrip(exact, value, compact: false)
        }
    }

    /// A value that is not the fraction's own `Double` keeps its bits: the
    /// exact folding `0.1 + 0.2` has value 0.30000000000000004, exact 3/10.
    @Test func valuesThatDifferFromTheFractionAreBoxed() {
        expectRoundTrip(time(3, 10), 0.1 + 0.2, compact: false)
        expectRoundTrip(time(3, 10), 0.3, compact: true)
        expectRoundTrip(.zero, -0.0, compact: false)
        expectRoundTrip(.zero, 0.0, compact: true)
        expectRoundTrip(time(1, 3), 0.5, compact: false)
        expectRoundTrip(time(1, 1), .nan, compact: false)
        expectRoundTrip(time(1, 1), .infinity, compact: false)
        #expect(Number(exact: time(3, 10), value: 0.1 + 0.2) != Number(exact: time(3, 10), value: 0.3))
        #expect(Number(exact: .zero, value: -0.0) != Number(exact: .zero, value: 0.0))
    }

    @Test func inexactAndPiNumbersAreBoxed() {
        expectRoundTrip(nil, 0.1, compact: false)
        expectRoundTrip(nil, .pi, mentionsPi: true, compact: false)
        expectRoundTrip(time(2, 1), 2, mentionsPi: true, compact: false)
        expectRoundTrip(nil, .nan, compact: false)
        expectRoundTrip(nil, -0.0, compact: false)
        expectRoundTrip(nil, -.infinity, compact: false)
        // The public initialiser of a Double finds the exact value and so may be inline.
        #expect(Number(0.5).isCompact)
        #expect(Number(0.5).exact == time(1, 2))
        #expect(!Number(Double.pi).isCompact)
        #expect(Number(Double.pi).value == .pi)
    }

    @Test func formulasAreBoxed() {
        let formula = Formula.binary(.times, .name("lift", SourceRange(0, 4)), .literal(Number(Time(2))), SourceRange(0, 8))
        let number = Number(formula: formula)
        #expect(!number.isCompact)
        #expect(number.formula == formula)
        #expect(number.value.isNaN)
        #expect(number.exact == nil)
        #expect(number.range == SourceRange(0, 8))
        #expect(number.bareName == nil)
        #expect(Number(formula: .name("lift", SourceRange(1, 5))).bareName?.0 == "lift")
        #expect(number != Number(Time(2)))
        #expect(number == Number(formula: formula))
    }

    /// Each setter changes one part and leaves the others, moving the number
    /// between the representations as needed.
    @Test func settersMoveBetweenRepresentations() {
        var number = Number(time(1, 10), range: SourceRange(1, 4))
        #expect(number.isCompact)
        number.mentionsPi = true
        #expect(!number.isCompact && number.mentionsPi && number.exact == time(1, 10) && number.value == 0.1)
        number.mentionsPi = false
        #expect(number.isCompact && number.range == SourceRange(1, 4))
        number.exact = nil
        #expect(!number.isCompact && number.exact == nil && number.value == 0.1)
        number.exact = time(1, 10)
        #expect(number.isCompact)
        number.value = 0.25
        #expect(!number.isCompact && number.exact == time(1, 10) && number.value == 0.25)
        number.exact = time(1, 4)
        #expect(number.isCompact && number == Number(time(1, 4)))
        number.formula = .name("a", SourceRange(0, 1))
        #expect(!number.isCompact && number.formula == .name("a", SourceRange(0, 1)))
        number.formula = nil
        #expect(number.isCompact && number.exact == time(1, 4))
        number.range = SourceRange(7, 9)
        #expect(number.range == SourceRange(7, 9) && number.value == 0.25)
    }

    /// Equality is the old one whatever the storage: the same `Double` and,
    /// where both are known, the same exact value; ranges are ignored.
    @Test func equalityAcrossRepresentations() {
        let inline = Number(exact: time(1, 2), value: 0.5, range: SourceRange(0, 3))
        let inexact = Number(exact: nil, value: 0.5)
        #expect(inline.isCompact && !inexact.isCompact)
        #expect(inline == inexact && inexact == inline)
        #expect(inline == Number(time(1, 2), range: SourceRange(9, 12)))
        #expect(inline != Number(time(1, 3)))
        #expect(inline != Number(exact: nil, value: 0.25))
        // Same Double, different exact values (a large denominator boxed).
        let near = time(1, 3)
        let far = time(6_004_799_503_160_661, 18_014_398_509_481_984)   // the Double nearest 1/3, exactly
        #expect(Double(far.numerator) / Double(far.denominator) == 1.0 / 3)
        #expect(Number(near) != Number(exact: far, value: 1.0 / 3))
        #expect(Number(near) == Number(exact: nil, value: 1.0 / 3))
        #expect(Number(exact: nil, value: .nan) != Number(exact: nil, value: 1))
    }

    @Test func coloursRoundTrip() {
        let cases: [(Color, Bool)] = [
            (Color(red: 0, green: 0, blue: 0), true),
            (Color(red: 255, green: 128, blue: 1), true),
            (Color(red: 255, green: 255, blue: 255, alpha: 1), true),
            (Color(red: 255, green: 128, blue: 0, alpha: 0.5), false),
            (Color(red: 255.5, green: 0, blue: 0), false),
            (Color(red: 256, green: 0, blue: 0), false),
            (Color(red: -1, green: 0, blue: 0), false),
            (Color(red: -0.0, green: 0, blue: 0), false),
            (Color(red: 0, green: .nan, blue: 0), false),
            (Color(red: 10, green: 20, blue: 30, alpha: 0.999), false),
        ]
        for (color, compact) in cases {
            let syntax = ColorSyntax(color, range: SourceRange(2, 9))
            #expect(syntax.isCompact == compact)
            let read = syntax.color
            #expect(read.red.bitPattern == color.red.bitPattern && read.green.bitPattern == color.green.bitPattern
                    && read.blue.bitPattern == color.blue.bitPattern && read.alpha.bitPattern == color.alpha.bitPattern)
            #expect(syntax.range == SourceRange(2, 9))
        }
        // Transparent is one colour, however written.
        let clear = ColorSyntax(Color(red: 255, green: 3, blue: 4, alpha: 0))
        #expect(clear.color == Color(red: 0, green: 0, blue: 0, alpha: 0))
        #expect(clear == ColorSyntax(Color(red: 0, green: 0, blue: 0, alpha: 0)))
        var changed = ColorSyntax(Color(red: 1, green: 2, blue: 3))
        changed.color = Color(red: 1, green: 2, blue: 3, alpha: 0.25)
        #expect(!changed.isCompact && changed.color.alpha == 0.25)
        changed.color = Color(red: 4, green: 5, blue: 6)
        #expect(changed.isCompact && changed == ColorSyntax(Color(red: 4, green: 5, blue: 6), range: SourceRange(0, 1)))
        #expect(changed != ColorSyntax(Color(red: 4, green: 5, blue: 6, alpha: 0.5)))
    }
}

/// The line table is counted first and stored as 32-bit offsets: the same
/// lines and locations as a table built by appending.
struct SourceLineTableTests {
    @Test func lineStartsAreEveryNewlinePlusOne() {
        for text in ["", "\n", "a", "a\n", "a\nb", "\n\n\n", "let a = fadeIn v\r\n  ; fadeOut v\r\n", "é\nx\n\ny"] {
            let file = SourceFile(name: "t.anim", text: text)
            let bytes = Array(text.utf8)
            let expected = [0] + bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
            #expect(file.lineCount == expected.count)
            #expect((0..<file.lineCount).map(file.lineStart) == expected)
            for offset in 0...bytes.count {
                let line = expected.lastIndex { $0 <= offset } ?? 0
                #expect(file.line(containing: offset).index == line)
                #expect(file.location(of: offset).line == line + 1)
            }
        }
        let file = SourceFile(name: "t.anim", text: "ab\r\ncd\nef")
        #expect(Array(file.lineBytes(1)) == Array("ab".utf8))
        #expect(Array(file.lineBytes(2)) == Array("cd".utf8))
        #expect(Array(file.lineBytes(3)) == Array("ef".utf8))
        #expect(file.lineBytes(4).isEmpty)
        #expect(file.location(of: 5) == SourceLocation(line: 2, column: 2))
    }
}
