import Testing
@testable import Animations

/// The sizes that a long animation pays once per tween or segment (issue 23):
/// kept from growing back unnoticed.
struct LayoutTests {
    @Test func compactRepresentations() {
        #expect(MemoryLayout<Instant>.size == 16)
        #expect(MemoryLayout<Ends>.size <= 17)
        #expect(MemoryLayout<Tween>.stride <= 88)
        // A segment names its tween leaf (for its property and easing) instead of copying them.
        #expect(MemoryLayout<Segment>.stride <= 72)
        // A tween is stored in place in its term (no box of its own).
        #expect(MemoryLayout<Term.Kind>.size <= 90)
    }

    @Test func endsKeepTheirValues() throws {
        let red = Value.color(Color(red: 255, green: 0, blue: 0))
        let blue = Value.color(Color(red: 0, green: 0, blue: 255))
        let x = Property(view: "v", name: "x"), fill = Property(view: "v", name: "fill")
        let numbers = try Tween(property: x, from: .number(-0.0), to: .number(2.5))
        #expect(numbers.from == .number(0) && numbers.to == .number(2.5))
        let colours = try Tween(property: fill, from: red, to: blue)
        #expect(colours.from == red && colours.to == blue)
        #expect(colours == (try Tween(property: fill, from: red, to: blue)))
        #expect(Instant(approximately: -0.0).seconds.sign == .minus)
        #expect(Instant(approximately: 0.1).seconds == 0.1)
        #expect(Instant(Time(numerator: 1, denominator: 3)!).seconds == 1.0 / 3.0)
    }
}
