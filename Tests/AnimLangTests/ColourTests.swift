import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The language's colours (docs/semantics.md §6.1), checked against values derived by hand from
/// the note's formulas. Every expectation says how it was derived; none
/// was copied from animc's output.
///
/// Colour values follow §6.1: channels `r g b` = `R/255` in 0–1 and alpha
/// `a`; `(a, r·a, g·a, b·a)` mixed with the eased progress, divided by the
/// mixed alpha, clamped, and printed as `channel × 255` rounded to a byte
/// (table) or in shortest round-trip form (CSV, JSON). The expected CSV
/// numbers are the exact values of those formulas, written as the nearest
/// double prints (`255/7` → `36.42857142857143`); where the exact value is
/// not a short decimal the comparison allows 1e-12.
struct ColourTests: ScriptChecking {
    /// `rgb(255 0 0 / 0.5)` → `rgb(0 0 255)`, premultiplied. Red at half
    /// alpha is (a, r·a, g·a, b·a) = (0.5, 0.5, 0, 0), blue (1, 0, 0, 1):
    ///
    /// * p = 0.25: (0.625, 0.375, 0, 0.25) → r = 0.6, b = 0.4 → 153, 102 (alpha 0.625)
    /// * p = 0.5:  (0.75, 0.25, 0, 0.5)    → r = 1/3, b = 2/3 → 85, 170 (alpha 0.75)
    /// * p = 0.75: (0.875, 0.125, 0, 0.75) → r = 1/7, b = 6/7 → 255/7 = 36.428571428571428…,
    ///   1530/7 = 218.571428571428571…, which print as the nearest doubles do:
    ///   36.42857142857143 and 218.57142857142858
    ///
    /// Not premultiplied, p = 0.5 would be rgb(127.5 0 127.5 / 0.75): murkier, redder.
    @Test func premultipliedInterpolationWithAlpha() {
        #expect(Self.eval("let f = animate v.c from rgb(255 0 0 / 0.5) to rgb(0 0 255)", fps: 4) == """
            time,v.c
            0,rgb(255 0 0 / 0.5)
            0.25,rgb(153 0 102 / 0.625)
            0.5,rgb(85 0 170 / 0.75)
            0.75,rgb(36.42857142857143 0 218.57142857142858 / 0.875)
            1,rgb(0 0 255)

            """)
        // The table rounds channel × 255 to a byte, and shows alpha × 255 when alpha < 1:
        // 0.5 → 127.5 → 80; 0.625 → 159.375 → 9f; 0.75 → 191.25 → bf; 36.43 → 24, 218.57 → db, 0.875 → 223.125 → df.
        let table = Self.eval("let f = animate v.c from rgb(255 0 0 / 0.5) to rgb(0 0 255)", fps: 4, format: .table)
        let cells = table.split(separator: "\n").dropFirst().map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(cells == ["#ff000080", "#9900669f", "#5500aabf", "#2400dbdf", "#0000ff"], "\(table)")
        // Opaque red → blue at 0.9: r = 0.1, b = 0.9 → 25.5 and 229.5 (exactly), bytes 26 and 230 (halves
        // round up, and to even alike): #1a00e6.
        #expect(Self.eval("let f = color v from red to blue", at: ["0.9"]) == "time,v.color\n0.9,rgb(25.5 0 229.5)\n")
        #expect(Self.eval("let f = color v from red to blue", at: ["0.9"], format: .table).contains("#1a00e6"))
        // JSON: the lossless form, as a string.
        #expect(Self.eval("let f = animate v.c from rgb(255 0 0 / 0.5) to rgb(0 0 255)", at: ["0.5"], format: .json)
                == "{\"time\":0.5,\"v.c\":\"rgb(85 0 170 / 0.75)\"}\n")
    }

    /// CSS Color 4's hsl → sRGB: f(n) = l − s·min(l, 1 − l)·max(−1, min(k − 3, 9 − k, 1)),
    /// k = (n + h/30) mod 12, (r, g, b) = (f(0), f(8), f(4)).
    ///
    /// * hsl(120, 100%, 25%): a = 0.25; k(0) = 4 → 1 → r = 0; k(8) = 0 → −1 → g = 0.5; k(4) = 8 → 1 → b = 0:
    ///   rgb(0 127.5 0), and 127.5 rounds to 128 = 0x80: #008000
    /// * hsl(30, 100%, 50%): a = 0.5; k = 1, 9, 5 → −1, 0, 1 → (1, 0.5, 0): rgb(255 127.5 0), #ff8000
    /// * hsl(210, 50%, 40%): a = 0.2; k = 7, 3, 11 → 1, 0, −1 → (0.2, 0.4, 0.6): exactly 51, 102, 153
    ///   (evaluated as 0.4 + 0.2 = 0.6000000000000001 in doubles, it would print 153.00000000000003)
    @Test func hslConversion() {
        #expect(Self.eval("let f = color v from hsl(120, 100%, 25%) to hsl(120deg 100% 25% / 0.5)", fps: 1) == """
            time,v.color
            0,rgb(0 127.5 0)
            1,rgb(0 127.5 0 / 0.5)

            """)
        #expect(Self.eval("let f = color v from hsl(120, 100%, 25%) to hsla(30, 100%, 50%, 1)", fps: 1, format: .table)
            .split(separator: "\n").dropFirst().map { $0.split(separator: " ").last.map(String.init) ?? "" } == ["#008000", "#ff8000"])
        #expect(Self.eval("let f = color v from hsl(210, 50%, 40%) to hsl(210 50% 40%)", at: ["0"])
                == "time,v.color\n0,rgb(51 102 153)\n")
    }

    /// `#rgba` and `#rrggbbaa`: #0f08 is (0, 255, 0) with alpha 0x88/255 = 136/255 =
    /// 0.5333333333333333; #00ff0080 has alpha 128/255 = 0.5019607843137255.
    /// Between them green stays green (g = 1: premultiplied g·a mixes exactly as a);
    /// the alpha is 132/255 = 0.517647058823529…, byte 132 = 0x84.
    @Test func hexColoursWithAlpha() throws {
        let csv = Self.eval("let f = color v from #0f08 to #00ff0080", fps: 2)
        let rows = csv.split(separator: "\n").map(String.init)
        #expect(rows.count == 4 && rows[0] == "time,v.color" && rows[1] == "0,rgb(0 255 0 / 0.5333333333333333)"
                && rows[3] == "1,rgb(0 255 0 / 0.5019607843137255)", "\(csv)")
        let middle = rows.count > 2 ? rows[2] : ""
        #expect(middle.hasPrefix("0.5,rgb(0 255 0 / "), "\(csv)")
        let alpha = middle.split(separator: "/").last.flatMap { Double($0.dropLast().trimmingCharacters(in: .whitespaces)) }
        #expect(alpha.map { abs($0 - 132.0 / 255) < 1e-12 } == true, "\(csv)")
        let table = Self.eval("let f = color v from #0f08 to #00FF0080", fps: 2, format: .table)
        #expect(table.split(separator: "\n").dropFirst().map { $0.split(separator: " ").last.map(String.init) ?? "" }
                == ["#00ff0088", "#00ff0084", "#00ff0080"], "\(table)")
        // #rgb and #rrggbb are opaque.
        #expect(Self.eval("let f = color v from #f80 to #3366cc", fps: 1) == "time,v.color\n0,rgb(255 136 0)\n1,rgb(51 102 204)\n")
    }

    /// Named colours: the 148 of CSS and `transparent`. rebeccapurple = #663399.
    /// Fading it out to transparent (0, 0, 0, 0) keeps its hue: at p = 0.5 the
    /// premultiplied (0.5, 0.2, 0.1, 0.3) divides back to (0.4, 0.2, 0.6) = (102, 51, 153);
    /// at the end alpha 0 prints as rgb(0 0 0 / 0).
    @Test func namedColours() {
        #expect(ColorNames.allNames.count == 149)
        #expect(ColorNames.allNames.contains("transparent") && ColorNames.allNames.contains("rebeccapurple"))
        #expect(Self.eval("let f = color v from rebeccapurple to transparent", fps: 2) == """
            time,v.color
            0,rgb(102 51 153)
            0.5,rgb(102 51 153 / 0.5)
            1,rgb(0 0 0 / 0)

            """)
        #expect(Self.eval("let f = color v from grey to gray || color w from aqua to cyan", at: ["0.5"])
                == "time,v.color,w.color\n0.5,rgb(128 128 128),rgb(0 255 255)\n")
    }

    /// Two colour tweens on one property at once tie (docs/semantics.md §4) and average their
    /// distinct colours, premultiplied. At p, the first is red → blue
    /// (opaque), the second rgb(0 255 0 / 0.5) → rgb(0 0 0 / 0.5):
    ///
    /// * p = 0: (1, 1, 0, 0) and (0.5, 0, 0.5, 0) → mean (0.75, 0.5, 0.25, 0) → r = 2/3, g = 1/3: 170, 85
    /// * p = 0.5: (1, 0.5, 0, 0.5) and (0.5, 0, 0.25, 0) → (0.75, 0.25, 0.125, 0.25) → 85, 42.5, 85
    /// * p = 1: (1, 0, 0, 1) and (0.5, 0, 0, 0) → (0.75, 0, 0, 0.5) → b = 2/3: 170
    ///
    /// `x || x || y` counts x once: red and lime average to (127.5, 127.5, 0).
    @Test func colourTiesAverage() {
        #expect(Self.eval("let f = color v from red to blue || color v from rgb(0 255 0 / 0.5) to rgb(0 0 0 / 0.5)", fps: 2) == """
            time,v.color
            0,rgb(170 85 0 / 0.75)
            0.5,rgb(85 42.5 85 / 0.75)
            1,rgb(0 0 170 / 0.75)

            """)
        #expect(Self.eval("let x = color v from red to blue\nlet f = x || x || color v from lime to black", at: ["0"])
                == "time,v.color\n0,rgb(127.5 127.5 0)\n")
    }

    /// Clamping on output, never in between. ease-out-back(0.5) = 1 + 2.70158·(−0.5)³ + 1.70158·(−0.5)²
    /// = 1.0876975; ease-in-back(0.2) = 2.70158·0.008 − 1.70158·0.04 = −0.04645056.
    ///
    /// * rgb(200 0 0) → red: r = 200/255 + (55/255)·1.0876975 > 1 → 255
    /// * black → rgb(100 0 0) with ease-in-back at 0.2: r < 0 → 0
    /// * rgb(0 0 255 / 0.8) → blue: a = 0.8 + 0.2·1.0876975 = 1.0175395 > 1 → 1 (no `/ A`);
    ///   b·a mixes by the same expression as a, so b = 1 → 255
    /// * rgb(255 0 0 / 0.2) → transparent: a = 0.2 − 0.2·1.0876975 < 0 → rgb(0 0 0 / 0), #00000000;
    ///   at the end ease-out-back(1) = 1 exactly and a = 0: rgb(0 0 0 / 0) too
    @Test func overshootingEasingsAreClampedOnOutput() {
        #expect(Self.eval("let f = color v from rgb(200 0 0) to red with ease-out-back", at: ["0.5"]) == "time,v.color\n0.5,rgb(255 0 0)\n")
        #expect(Self.eval("let f = color v from black to rgb(100 0 0) with ease-in-back", at: ["0.2"]) == "time,v.color\n0.2,rgb(0 0 0)\n")
        #expect(Self.eval("let f = color v from rgb(0 0 255 / 0.8) to blue with ease-out-back", at: ["0.5"]) == "time,v.color\n0.5,rgb(0 0 255)\n")
        #expect(Self.eval("let f = color v from rgb(255 0 0 / 0.2) to transparent with ease-out-back", at: ["0.5", "1"])
                == "time,v.color\n0.5,rgb(0 0 0 / 0)\n1,rgb(0 0 0 / 0)\n")
        let table = Self.eval("let f = color v from rgb(255 0 0 / 0.2) to transparent with ease-out-back", at: ["0.5"], format: .table)
        #expect(table.contains("#00000000"), "\(table)")
        // The value kept between is not clamped: a tie with the overshoot sees it.
        // rgb(200 0 0) → red with ease-out-back at 0.5 holds r = (200 + 55·1.0876975)/255 = 259.8233625/255;
        // tied with black (0, 0, 0) the mean is 259.8233625/2 = 129.91168125 (not (255 + 0)/2 = 127.5).
        let tie = Self.eval("let f = color v from rgb(200 0 0) to red with ease-out-back || color v from black to black", at: ["0.5"])
        let red = tie.split(separator: "\n").last.flatMap { $0.split(separator: "(").last }.flatMap { $0.split(separator: " ").first }
        #expect(red.flatMap { Double($0) }.map { abs($0 - 129.91168125) < 1e-9 } == true, "\(tie)")
    }

    /// `view V color red` is the initial value before the first colour tween starts
    /// (instead of the tween's start value); `animate V.P from C to C` animates any
    /// property: white → black at 0.5 is (0.5, 0.5, 0.5) × 255 = 127.5 (#808080).
    @Test func initialColoursAndAnyProperty() {
        #expect(Self.eval("view v color red\nlet f = wait 1 ; color v from blue to lime", fps: 2) == """
            time,v.color
            0,rgb(255 0 0)
            0.5,rgb(255 0 0)
            1,rgb(0 0 255)
            1.5,rgb(0 127.5 127.5)
            2,rgb(0 255 0)

            """)
        #expect(Self.eval("view v fill #336699 x 2\nlet f = wait 1 ; animate v.fill from white to black", fps: 2) == """
            time,v.fill,v.x
            0,rgb(51 102 153),2
            0.5,rgb(51 102 153),2
            1,rgb(255 255 255),2
            1.5,rgb(127.5 127.5 127.5),2
            2,rgb(0 0 0),2

            """)
        #expect(Self.eval("let f = animate v.fill from white to black", at: ["0.5"], format: .table).contains("#808080"))
        // A declared colour that nothing animates is a constant column.
        #expect(Self.eval("view v tint rgba(0, 0, 255, 0.25)\nlet f = fadeIn v", fps: 1) == """
            time,v.opacity,v.tint
            0,0,rgb(0 0 255 / 0.25)
            1,1,rgb(0 0 255 / 0.25)

            """)
    }

    /// `rgb(R, G, B)`, `rgb(R G B)`, `rgb(R G B / A)` and `rgba(R, G, B, A)` are one colour.
    @Test func colourFunctionSpellings() throws {
        let source = """
            let a = color v from rgb(10, 20, 30) to rgba(10, 20, 30, 0.5)
            let b = color v from rgb(10 20 30) to rgb(10 20 30 / 0.5)
            """
        try Self.expectSame(source, "a", "b")
    }
}
