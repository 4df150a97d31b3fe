import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// semantics.md §6 (colours, points and keyframes, stagger and target lists,
/// springs, events, forever) and §3's extended `with` rule, checked table by
/// table against values derived by hand from the note's formulas. Every
/// expectation says how it was derived; none was copied from animc's output.
///
/// Colour values follow §6.1: channels `r g b` = `R/255` in 0–1 and alpha
/// `a`; `(a, r·a, g·a, b·a)` mixed with the eased progress, divided by the
/// mixed alpha, clamped, and printed as `channel × 255` rounded to a byte
/// (table) or in shortest round-trip form (CSV, JSON). The expected CSV
/// numbers are the exact values of those formulas, written as the nearest
/// double prints (`255/7` → `36.42857142857143`); where the exact value is
/// not a short decimal the comparison allows 1e-12.
struct SemanticsSixTests {
    // MARK: - Helpers

    static func file(_ source: String) -> SourceFile { SourceFile(name: "six.anim", text: source) }

    /// What `animc eval` prints (CSV unless asked), or the rendered errors.
    static func eval(_ source: String, fps: Int64 = 10, at times: [String]? = nil, until: String? = nil,
                     format: TableFormat = .csv) -> String {
        let result = evaluateToText(file(source), fps: fps, at: times.map { $0.map(time) }, until: until.map(time), format: format)
        return result.succeeded ? result.output : "error:\n" + result.diagnostics
    }

    /// `"1/3"` or `"0.25"` as exact time.
    static func time(_ text: String) -> Time {
        let parts = text.split(separator: "/")
        if parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), let t = Time(numerator: n, denominator: d) { return t }
        return Time(decimal: text) ?? .zero
    }

    /// The compiled scene of the last binding, and the declared initial values.
    static func compiled(_ source: String) throws -> (CompiledScene, [Property: Value]) {
        let outcome = run(file(source))
        guard !outcome.hasErrors, let scene = outcome.scene else {
            throw Failure(text: render(outcome.diagnostics, in: file(source)))
        }
        _ = scene
        guard let compiled = try outcome.compiledScene() else { throw Failure(text: "cancelled: \(source)") }
        return (compiled, outcome.initial)
    }

    /// The number `property` holds at each `time` of `expectations`, within 1e-9.
    static func expectNumbers(_ source: String, _ expectations: [(String, String, Double)],
                              sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (scene, initial) = try compiled(source)
        for (time, property, expected) in expectations {
            let parts = property.split(separator: ".")
            let key = Property(view: String(parts[0]), name: String(parts[1]))
            let value = scene.value(of: key, at: Self.time(time), initial: initial[key])?.number
            #expect(value.map { abs($0 - expected) <= 1e-9 * max(1, abs(expected)) } == true,
                    "\(property) at \(time) is \(value.map { "\($0)" } ?? "nil"), expected \(expected)\n\(source)",
                    sourceLocation: sourceLocation)
        }
    }

    /// The errors and warnings of `source`, as `LINE:COL id`.
    static func diagnostics(_ source: String, severity: Diagnostic.Severity = .error) -> [String] {
        let file = file(source)
        return run(file).diagnostics.filter { $0.severity == severity }.map { "\(file.location(of: $0.range.start)) \($0.id)" }
    }

    static func scene(_ source: String, _ binding: String? = nil) throws -> Scene {
        let outcome = run(file(source), binding: binding)
        guard !outcome.hasErrors, let scene = outcome.scene else {
            throw Failure(text: render(outcome.diagnostics, in: file(source)))
        }
        return scene
    }

    struct Failure: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    static func expectSame(_ source: String, _ lhs: String, _ rhs: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let left = try scene(source, lhs), right = try scene(source, rhs)
        #expect(try Scene.sameAnimation(left, right) == .same, "\(lhs) and \(rhs) differ:\n\(source)", sourceLocation: sourceLocation)
    }

    // MARK: - §6.1 Colours

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

    /// Two colour tweens on one property at once tie (§4) and average their
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

    // MARK: - §6.2 Points and keyframes

    /// `move V from (X1, Y1) to (X2, Y2)` is the two tweens on V.x and V.y, one
    /// window, one easing: columns b.x and b.y.
    @Test func moveIsTwoTweens() throws {
        #expect(Self.eval("let f = move b from (0, 0) to (100, 50)", fps: 4) == """
            time,b.x,b.y
            0,0,0
            0.25,25,12.5
            0.5,50,25
            0.75,75,37.5
            1,100,50

            """)
        let source = """
            let m = move b from (0, 0) to (100, 50) with ease-out-back
            let p = (animate b.x from 0 to 100 || animate b.y from 0 to 50) with ease-out-back
            let q = animate b.x from 0 to 100 with ease-out-back || animate b.y from 0 to 50 with ease-out-back
            let n = move b from (1 + 2, -4) to (2 * 3, 4) in 2s
            let o = animate b.x from 3 to 6 in 2s || animate b.y from -4 to 4 in 2s
            """
        try Self.expectSame(source, "m", "p")
        try Self.expectSame(source, "m", "q")
        try Self.expectSame(source, "n", "o")
        // ease-out-back(0.5) = 1.0876975 on both channels.
        try Self.expectNumbers(source + "\nlet f = m", [("0.5", "b.x", 108.76975), ("0.5", "b.y", 54.384875)])
        // `(1 + 2)` stays a number.
        try Self.expectNumbers("let f = animate b.x from (1 + 2) to 5", [("0.5", "b.x", 4)])
    }

    /// Offsets spread by CSS's rule. `through 0, 10 at 25%, 20, 30, 40 at 75%, 50`:
    /// known 0 %, 25 %, 75 %, 100 %; the two between 25 % and 75 % spread evenly:
    /// 25 + 50/3 = 41 2/3 % and 58 1/3 %. Pieces 1/4, 1/6, 1/6, 1/6, 1/4 (exact):
    /// 1/8 → 5, 1/4 → 10, 1/3 → 15 (halfway to 5/12), 5/12 → 20, 1/2 → 25,
    /// 7/12 → 30, 3/4 → 40, 7/8 → 45, 1 → 50.
    @Test func keyframeOffsetsSpreadEvenly() throws {
        try Self.expectNumbers("let f = animate b.x through 0, 10 at 25%, 20, 30, 40 at 75%, 50", [
            ("0", "b.x", 0), ("1/8", "b.x", 5), ("1/4", "b.x", 10), ("1/3", "b.x", 15), ("5/12", "b.x", 20), ("1/2", "b.x", 25),
            ("7/12", "b.x", 30), ("3/4", "b.x", 40), ("7/8", "b.x", 45), ("1", "b.x", 50),
        ])
        // No offsets: k pieces of 1/k. `through 0, 10, 30`: 1/4 → 5, 1/2 → 10, 3/4 → 20.
        try Self.expectNumbers("let f = animate b.x through 0, 10, 30", [("1/4", "b.x", 5), ("1/2", "b.x", 10), ("3/4", "b.x", 20)])
        // One known offset in the middle: 0 %, 40 %, 80 %, 90 %, 100 %.
        try Self.expectNumbers("let f = animate b.x through 0, 1, 2 at 80%, 3, 4", [
            ("0.2", "b.x", 0.5), ("0.4", "b.x", 1), ("0.6", "b.x", 1.5), ("0.8", "b.x", 2), ("0.85", "b.x", 2.5),
            ("0.9", "b.x", 3), ("0.95", "b.x", 3.5), ("1", "b.x", 4),
        ])
        // Written on the ends, 0 % and 100 % are allowed.
        try Self.expectNumbers("let f = animate b.x through 0 at 0%, 8 at 50%, 4 at 100%", [("0.25", "b.x", 4), ("0.75", "b.x", 6)])
        // The pieces' windows are exact: a 1/3 piece ends at exactly 1/3, where the next starts.
        let (scene, _) = try Self.compiled("let f = animate b.x through 0, 1, 2, 3")
        #expect(scene.segments.map { "\($0.start.exact.map(\.description) ?? "?")-\($0.end.exact.map(\.description) ?? "?")" }
                == ["0-1/3", "1/3-2/3", "2/3-1"])
    }

    /// Equal offsets are a jump: `through 0, 10 at 50%, 20 at 50%, 30` is 0 → 10
    /// over [0, 1/2], a jump 10 → 20 at 1/2, and 20 → 30 over [1/2, 1]. At 1/2 the
    /// jump (its end value, 20) and the last piece (its start, 20) tie: 20.
    @Test func equalOffsetsJump() throws {
        try Self.expectNumbers("let f = animate b.x through 0, 10 at 50%, 20 at 50%, 30", [
            ("0.25", "b.x", 5), ("0.499", "b.x", 9.98), ("0.5", "b.x", 20), ("0.75", "b.x", 25), ("1", "b.x", 30),
        ])
        // A jump at the very start: 0 → 5 in no time at 0, then 5 → 10.
        try Self.expectNumbers("let f = animate b.x through 0, 5 at 0%, 10", [("0", "b.x", 5), ("0.5", "b.x", 7.5)])
        // And at the very end: 0 → 10 over [0, 1], then 10 → 3 at 1.
        try Self.expectNumbers("let f = animate b.x through 0, 10 at 100%, 3", [("0.5", "b.x", 5), ("1", "b.x", 3)])
    }

    /// Keyframes last 1 s in all; `in 2s` scales them: 0 → 10 over [0, 1], 10 → 30 over [1, 2].
    @Test func keyframesRetimed() {
        #expect(Self.eval("let f = animate b.x through 0, 10, 30 in 2s", fps: 2) == """
            time,b.x
            0,0
            0.5,5
            1,10
            1.5,20
            2,30

            """)
    }

    /// `through` for every verb that takes it, with the verb's property and unit.
    @Test func keyframesForEveryVerb() throws {
        // fade: b.opacity 0 → 1 → 0.5 over halves.
        try Self.expectNumbers("let f = fade b through 0, 1, 0.5", [("0.25", "b.opacity", 0.5), ("0.5", "b.opacity", 1), ("0.75", "b.opacity", 0.75)])
        // rotate in turns, reported in degrees: 0, 180, 90 degrees.
        try Self.expectNumbers("let f = rotate b through 0, 0.5, 0.25 turns", [("0.25", "b.rotation", 90), ("0.5", "b.rotation", 180), ("0.75", "b.rotation", 135)])
        try Self.expectNumbers("let f = rotate b through 0, 90, 45", [("0.25", "b.rotation", 45), ("0.75", "b.rotation", 67.5)])
        // grow with a property; shrink and scale on b.scale.
        try Self.expectNumbers("let f = grow b through radius 0, 10, 5", [("0.25", "b.radius", 5), ("0.75", "b.radius", 7.5)])
        try Self.expectNumbers("let f = shrink b through 1, 0.5", [("0.5", "b.scale", 0.75)])
        try Self.expectNumbers("let f = scale b through 1, 2 at 25%, 1", [("0.25", "b.scale", 2), ("0.625", "b.scale", 1.5)])
        // move through points: x and y each through their values.
        try Self.expectNumbers("let f = move b through (0, 0), (10, 20), (30, 0)", [
            ("0.25", "b.x", 5), ("0.25", "b.y", 10), ("0.5", "b.x", 10), ("0.5", "b.y", 20), ("0.75", "b.x", 20), ("0.75", "b.y", 10),
        ])
        // color: red until blue at 25 %, then to lime at 100 %: at 0.625 halfway, (0, 0.5, 0.5).
        #expect(Self.eval("let f = color b through red, blue at 25%, lime", at: ["0.125", "0.25", "0.625"]) == """
            time,b.color
            0.125,rgb(127.5 0 127.5)
            0.25,rgb(0 0 255)
            0.625,rgb(0 127.5 127.5)

            """)
        #expect(Self.eval("let f = animate b.fill through white, black", at: ["0.5"]) == "time,b.fill\n0.5,rgb(127.5 127.5 127.5)\n")
    }

    /// `with E` on keyframes: the pieces do not span the window, so E warps time
    /// (and must be monotone). ease-in-quad: the state at t is the state at t².
    /// t = 0.5 → 0.25: 5; t = 0.75 → 0.5625, 1/8 into 10 → 0: 8.75.
    @Test func easingKeyframes() throws {
        try Self.expectNumbers("let f = animate b.x through 0, 10, 0 with ease-in-quad", [("0.5", "b.x", 5), ("0.75", "b.x", 8.75), ("1", "b.x", 0)])
        #expect(Self.diagnostics("let f = animate b.x through 0, 10, 0 with ease-out-back") == ["1:43 non-monotone-warp"])
        // Two keyframes are one tween over the whole window: the easing composes.
        try Self.expectNumbers("let f = animate b.x through 0, 100 with ease-out-back", [("0.5", "b.x", 108.76975)])
    }

    // MARK: - §6.3 Stagger and target lists

    /// Order by first mention in the file: `view c` (line 1), `fadeIn b` (line 2),
    /// `view a` (line 3). So c at 0, b at 0.5, a at 1; duration 1 + 2·0.5 = 2.
    /// `backwards` reverses it: a at 0, b at 0.5, c at 1.
    @Test func staggerOrderIsFirstMention() {
        let source = "view c\nlet intro = fadeIn b\nview a\nlet f = fadeIn a, b and c staggered by 0.5s"
        #expect(Self.eval(source, fps: 4) == """
            time,a.opacity,b.opacity,c.opacity
            0,0,0,0
            0.25,0,0,0.25
            0.5,0,0,0.5
            0.75,0,0.25,0.75
            1,0,0.5,1
            1.25,0.25,0.75,1
            1.5,0.5,1,1
            1.75,0.75,1,1
            2,1,1,1

            """)
        #expect(Self.eval(source + " backwards", fps: 4) == """
            time,a.opacity,b.opacity,c.opacity
            0,0,0,0
            0.25,0.25,0,0
            0.5,0.5,0,0
            0.75,0.75,0.25,0
            1,1,0.5,0
            1.25,1,0.75,0.25
            1.5,1,1,0.5
            1.75,1,1,0.75
            2,1,1,1

            """)
    }

    /// Duration D + (n − 1)·DUR: `(fadeIn a ; fadeIn b in 2s)` lasts 3, two views,
    /// 1 s apart: 4. a's segment stays on [0, 1]; b's [1, 3] moves to [2, 4].
    @Test func staggerDurationAndShifts() throws {
        let source = "let f = (fadeIn a ; fadeIn b in 2s) staggered by 1s"
        #expect(try Self.scene(source).duration == Time(4))
        try Self.expectNumbers(source, [("1", "a.opacity", 1), ("2", "b.opacity", 0), ("3", "b.opacity", 0.5), ("4", "b.opacity", 1)])
        // Stagger 0 changes nothing.
        try Self.expectSame("let x = fadeIn a ; fadeIn b in 2s\nlet y = x staggered by 0s", "x", "y")
        // No views (n = 0): D. zero staggered is zero.
        #expect(try Self.scene("let f = wait 1.5 staggered by 1s").duration == Time(numerator: 3, denominator: 2))
        #expect(try Self.scene("let f = zero staggered by 1s").isCancelled)
        #expect(Self.diagnostics("let f = fadeIn a staggered by -1s") == ["1:31 negative-duration"])
        // The cascade: a, b, c 80 ms apart, each eased with its overshoot: 1 + 2·0.08 = 1.16 s.
        let cascade = "view a\nview b\nview c\nlet f = fadeIn all views with ease-out-back staggered by 80ms"
        #expect(try Self.scene(cascade).duration == Time(numerator: 29, denominator: 25))
        try Self.expectNumbers(cascade, [("0.5", "a.opacity", 1.0876975), ("0.58", "b.opacity", 1.0876975), ("0.66", "c.opacity", 1.0876975),
                                         ("0.08", "b.opacity", 0), ("1.16", "c.opacity", 1)])
    }

    /// Only views that have segments in X count: a part annihilated by `zero`,
    /// a part repeated 0 times, or a part after an endless one has none.
    /// `((fadeIn a ; zero) || fadeIn b || fadeIn c) staggered by 1s` is b at 0, c at 1: 2 s.
    @Test func staggerCountsOnlyViewsWithSegments() throws {
        let cancelled = "let f = ((fadeIn a ; zero) || fadeIn b || fadeIn c) staggered by 1s"
        #expect(try Self.scene(cancelled).duration == Time(2))
        try Self.expectNumbers(cancelled, [("1", "b.opacity", 1), ("1", "c.opacity", 0), ("1.5", "c.opacity", 0.5)])
        #expect(try Self.scene("let f = (fadeIn a ^ 0 || fadeIn b) staggered by 1s").duration == Time(1))
        // c forever, a never starts: c at 0, b at 1.
        let endless = "let f = ((fadeIn c repeated forever ; fadeIn a) || fadeIn b) staggered by 1s"
        #expect(Self.eval(endless, until: "2", format: .csv).hasPrefix("time,b.opacity,c.opacity\n0,0,0\n"))
        try Self.expectNumbers(endless, [("1.5", "b.opacity", 0.5), ("1.5", "c.opacity", 0.5), ("2", "b.opacity", 1)])
    }

    /// Events stay where they are: `fadeIn a ; emit mid ; fadeIn b` (D = 2, mid at 1),
    /// staggered by 1 s: a on [0, 1], b on [2, 3], mid still at 1; 3 s in all.
    @Test func eventsInsideStaggeredParts() {
        #expect(Self.eval("let f = (fadeIn a ; emit mid ; fadeIn b) staggered by 1s", fps: 1) == """
            time,a.opacity,b.opacity,events
            0,0,0,
            1,1,0,mid
            2,1,0,
            3,1,1,

            """)
    }

    /// Target lists are sugar for the parallel, for every verb that takes a target.
    @Test func targetListsAreParallels() throws {
        let source = """
            let a1 = fadeIn a, b and c
            let a2 = fadeIn a || fadeIn b || fadeIn c
            let b1 = fade in a and b
            let b2 = fadeIn a || fadeIn b
            let c1 = fadeOut a, b
            let c2 = fadeOut a || fadeOut b
            let d1 = color a, b from red to blue
            let d2 = color a from red to blue || color b from red to blue
            let e1 = move a and b from (0, 0) to (10, 20)
            let e2 = move a from (0, 0) to (10, 20) || move b from (0, 0) to (10, 20)
            let f1 = animate a.x, b.y from 0 to 1
            let f2 = animate a.x from 0 to 1 || animate b.y from 0 to 1
            let g1 = rotate a, b from 0 to 0.5 turns
            let g2 = rotate a from 0 to 180 || rotate b from 0 to 180
            let h1 = grow a and b from radius 1 to 2
            let h2 = grow a from radius 1 to 2 || grow b from radius 1 to 2
            let i1 = fade a, b through 0, 1 at 25%, 0
            let i2 = fade a through 0, 1 at 25%, 0 || fade b through 0, 1 at 25%, 0
            let j1 = scale a, b from 1 to 2 with ease-out-back
            let j2 = (scale a from 1 to 2 || scale b from 1 to 2) with ease-out-back
            """
        for name in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"] {
            try Self.expectSame(source, name + "1", name + "2")
        }
    }

    // MARK: - §6.4 Springs

    /// The oscillator and its settling time, written from §6.4's formulas in
    /// seconds (ω and v as the note uses them), independently of the library.
    struct SpringReference {
        let zeta: Double, omega: Double, v: Double
        static let epsilon = 0.001

        func x(_ t: Double) -> Double {
            if zeta < 1 {
                let wd = omega * (1 - zeta * zeta).squareRoot()
                return 1 - exp(-zeta * omega * t) * (cos(wd * t) + ((zeta * omega - v) / wd) * sin(wd * t))
            } else if zeta == 1 {
                return 1 - exp(-omega * t) * (1 + (omega - v) * t)
            } else {
                let (r1, r2, a, b) = overdamped
                return 1 - (a * exp(r1 * t) + b * exp(r2 * t))
            }
        }

        var overdamped: (Double, Double, Double, Double) {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega * (zeta - root), r2 = -omega * (zeta + root)
            let a = (-v - r2) / (r1 - r2)
            return (r1, r2, a, 1 - a)
        }

        /// T: closed form for ζ < 1; the largest root of the envelope = ε otherwise (it
        /// starts at 1 > ε and crosses ε once on its way down), by bisection.
        var settlingTime: Double {
            if zeta < 1 {
                let wd = omega * (1 - zeta * zeta).squareRoot()
                let c = (zeta * omega - v) / wd
                return log((1 + c * c).squareRoot() / Self.epsilon) / (zeta * omega)
            }
            func envelope(_ t: Double) -> Double {
                if zeta == 1 { return exp(-omega * t) * (1 + abs(omega - v) * t) }
                let (r1, r2, a, b) = overdamped
                return abs(a) * exp(r1 * t) + abs(b) * exp(r2 * t)
            }
            var low = 0.0, high = 1.0
            while envelope(high) > Self.epsilon { low = high; high *= 2 }
            for _ in 0..<200 {
                let mid = (low + high) / 2
                if envelope(mid) > Self.epsilon { low = mid } else { high = mid }
            }
            return high
        }

        func easing(_ p: Double) -> Double { p >= 1 ? 1 : x(p * settlingTime) }
    }

    static let springProgresses = ["0", "0.05", "0.1", "0.2", "0.25", "0.3", "0.4", "0.5", "0.6", "0.75", "0.9", "0.99", "1"]

    /// Every spelling of the table, with its ζ, ω and v: the tween
    /// `animate v.x from 0 to 1 with SPRING` holds E(p) at t = p.
    static let springSpellings: [(String, SpringReference)] = [
        ("spring", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("smooth spring", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("a spring", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("snappy spring", SpringReference(zeta: 0.85, omega: 1, v: 0)),
        ("a snappy spring", SpringReference(zeta: 0.85, omega: 1, v: 0)),
        ("bouncy spring", SpringReference(zeta: 0.7, omega: 1, v: 0)),
        // bounce B ≥ 0: ζ = 1 − B; B < 0: ζ = 1/(1 + B).
        ("spring(bounce 0.3)", SpringReference(zeta: 1 - 0.3, omega: 1, v: 0)),
        ("spring(bounce 0)", SpringReference(zeta: 1, omega: 1, v: 0)),
        ("spring(bounce -0.5)", SpringReference(zeta: 2, omega: 1, v: 0)),
        ("spring(bounce 0.9)", SpringReference(zeta: 1 - 0.9, omega: 1, v: 0)),
        // Physical: ζ = C/(2√(KM)), ω = √(K/M), v = V; defaults K 100, C 10, M 1, V 0.
        ("spring(stiffness 100)", SpringReference(zeta: 0.5, omega: 10, v: 0)),
        ("spring(damping 20)", SpringReference(zeta: 1, omega: 10, v: 0)),                 // ζ = 20/20 = 1
        ("spring(damping 30)", SpringReference(zeta: 1.5, omega: 10, v: 0)),
        ("spring(mass 4)", SpringReference(zeta: 0.25, omega: 5, v: 0)),                   // 10/(2·20), √25
        ("spring(stiffness 200, damping 10)", SpringReference(zeta: 10 / (2 * 200.0.squareRoot()), omega: 200.0.squareRoot(), v: 0)),
        ("spring(velocity 5)", SpringReference(zeta: 0.5, omega: 10, v: 5)),
        ("spring(velocity -8, mass 1, damping 10, stiffness 100)", SpringReference(zeta: 0.5, omega: 10, v: -8)),
        ("spring(damping 20, velocity 25)", SpringReference(zeta: 1, omega: 10, v: 25)),     // critical, overshoots
        ("spring(damping 30, velocity -10)", SpringReference(zeta: 1.5, omega: 10, v: -10)), // overdamped, starts backwards
        ("spring(stiffness 400, damping 10, mass 4)", SpringReference(zeta: 10 / (2 * 40.0), omega: 10, v: 0)),
    ]

    @Test(arguments: springSpellings.indices)
    func springValuesFollowTheFormulas(_ index: Int) throws {
        let (spelling, reference) = Self.springSpellings[index]
        let source = "let f = animate v.x from 0 to 1 with \(spelling)"
        try Self.expectNumbers(source, Self.springProgresses.map { ($0, "v.x", reference.easing(Double($0) ?? 0)) })
    }

    /// Hand-checked points of the curves above (so the reference itself is checked):
    ///
    /// * `spring` (ζ = 1, ω = 1, v = 0): T solves e^(−T)(1 + T) = 0.001: T = 9.2334 (to 4 digits);
    ///   E(0.5) = 1 − e^(−T/2)(1 + T/2) = 1 − 0.0098853·5.61671 = 0.944477
    /// * `bouncy spring` (ζ = 0.7): T = ln(√(1 + 0.49/0.51)/0.001)/0.7 = 10.349182 (see SemanticsTests):
    ///   E(0.5) = 1.0365053
    /// * `spring(bounce -0.5)`, ζ = 2: r1 = −(2 − √3) = −0.267949, r2 = −3.732051, A = 3.732051/3.464102 = 1.077350,
    ///   B = −0.077350; T solves 1.07735e^(r1 T) + 0.07735e^(r2 T) = 0.001: T = 26.0581 (the fast term is
    ///   negligible there: ln(1077.35)/0.267949 = 6.98225/0.267949 = 26.0581)
    @Test func springReferencePoints() {
        let critical = SpringReference(zeta: 1, omega: 1, v: 0)
        #expect(abs(critical.settlingTime - 9.2334) < 1e-4)
        #expect(abs(critical.easing(0.5) - 0.944477) < 1e-6)
        let bouncy = SpringReference(zeta: 0.7, omega: 1, v: 0)
        #expect(abs(bouncy.settlingTime - 10.349182) < 1e-6)
        #expect(abs(bouncy.easing(0.5) - 1.0365053) < 1e-7)
        let over = SpringReference(zeta: 2, omega: 1, v: 0)
        #expect(abs(over.settlingTime - 26.0581) < 1e-4)
    }

    /// E(1) = 1 exactly, the whole settling is fitted to the window (`in 3s`: t = 1.5 is p = 0.5),
    /// an underdamped spring overshoots, an overdamped one without velocity never does, and a
    /// velocity shows at the start (v < 0 goes below 0 first).
    @Test func springShapes() throws {
        let bouncy = SpringReference(zeta: 0.7, omega: 1, v: 0)
        try Self.expectNumbers("let f = animate v.x from 0 to 100 in 3s with bouncy spring",
                               [("1.5", "v.x", 100 * bouncy.easing(0.5)), ("0.3", "v.x", 100 * bouncy.easing(0.1)), ("3", "v.x", 100)])
        let (scene, _) = try Self.compiled("let f = animate v.x from 0 to 1 with spring(damping 30, velocity -10) || animate v.y from 0 to 1 with spring(bounce -0.5) || animate v.z from 0 to 1 with spring(mass 4)")
        let x = Property(view: "v", name: "x"), y = Property(view: "v", name: "y"), z = Property(view: "v", name: "z")
        #expect(scene.value(of: x, at: Time(1))?.number == 1)
        #expect(scene.value(of: y, at: Time(1))?.number == 1)
        #expect((scene.value(of: x, at: Self.time("0.01"))?.number ?? 0) < 0)
        var highest = 0.0, y0 = 0.0, monotone = true
        for k in 0...1000 {
            let t = Time(numerator: Int64(k), denominator: 1000) ?? .zero
            let value = scene.value(of: y, at: t)?.number ?? 0
            if value < y0 { monotone = false }
            y0 = value
            highest = max(highest, scene.value(of: z, at: t)?.number ?? 0)
        }
        #expect(monotone)
        #expect(highest > 1.4)   // ζ = 0.25 overshoots by e^(−πζ/√(1 − ζ²)) = 0.444
    }

    /// Every spring counts as non-monotone: on a composite it is an error, even
    /// the critically damped one; on tweens over one window it composes.
    @Test func springsOnComposites() throws {
        #expect(Self.diagnostics("let f = (fadeIn a ; fadeIn b) with spring") == ["1:36 non-monotone-warp"])
        #expect(Self.diagnostics("let f = (fadeIn a ; fadeIn b) with spring(bounce -0.5)") == ["1:36 non-monotone-warp"])
        let bouncy = SpringReference(zeta: 0.7, omega: 1, v: 0)
        try Self.expectNumbers("view a\nview b\nlet f = fadeIn all views with bouncy spring",
                               [("0.5", "a.opacity", bouncy.easing(0.5)), ("0.5", "b.opacity", bouncy.easing(0.5))])
        #expect(Self.diagnostics("let f = fadeIn a with spring(damping 0)") == ["1:38 spring-never-settles"])
    }

    // MARK: - §6.5 Events

    /// `(emit start ; fadeIn a ; emit land ; wait 0.5)` lasts 1.5: start at 0, land at 1.
    /// Reversed, t → 1.5 − t: land at 0.5, start at 1.5; a plays 1 → 0 on [0.5, 1.5].
    @Test func eventsReversed() {
        #expect(Self.eval("let f = (emit start ; fadeIn a ; emit land ; wait 0.5) reversed", fps: 2) == """
            time,a.opacity,events
            0,1,
            0.5,1,land
            1,0.5,
            1.5,0,start

            """)
    }

    /// Looped: x ; x reversed, 3 s. x fires start at 0 and land at 1; x reversed,
    /// shifted by 1.5, land at 1.5 + 0.5 = 2 and start at 1.5 + 1.5 = 3.
    @Test func eventsLooped() {
        #expect(Self.eval("let f = (emit start ; fadeIn a ; emit land ; wait 0.5) looped", fps: 2) == """
            time,a.opacity,events
            0,0,start
            0.5,0.5,
            1,1,land
            1.5,1,
            2,1,land
            2.5,0.5,
            3,0,start

            """)
    }

    /// `^ n` copies: ticks at 0, 0.25, 0.5, 0.75, done at 1. Row 0 takes those at or
    /// before 0; row 1 those in (0, 1]: three ticks and done, in order of first firing.
    /// `repeated 3 times` of `wait 0.5 ; emit tick`: 0.5, 1, 1.5.
    @Test func eventsRepeated() {
        #expect(Self.eval("let f = (emit tick ; wait 0.25) ^ 4 ; emit done", fps: 1) == "time,events\n0,tick\n1,tick×3 done\n")
        #expect(Self.eval("let f = (wait 0.5 ; emit tick) repeated 3 times", fps: 1) == "time,events\n0,\n1,tick×2\n1.5,tick\n")
        // Where copies meet, the event at the end of one and the start of the next is one event:
        // `emit a ; wait 1 ; emit a` ^ 3 fires at 0, 1, 2, 3.
        #expect(Self.eval("let f = (emit a ; wait 1 ; emit a) ^ 3", at: ["3"]) == "time,events\n3,a×4\n")
        // Counted, not listed: a billion copies (0, 1, …, 999999999 are at or before 1e9).
        #expect(Self.eval("let f = (emit tick ; wait 1) ^ 1000000000", at: ["1000000000"]) == "time,events\n1000000000,tick×1000000000\n")
        #expect(Self.eval("let f = (emit a ; wait 1 ; emit a) ^ 1000000000", at: ["0", "1000000000"])
                == "time,events\n0,a\n1000000000,a×1000000000\n")
    }

    /// `in` scales event times: 1 of 2 s becomes 0.5 of 1 s. Two events at one instant:
    /// one row, each name once, in the order they fire (sequence order): `b a`.
    @Test func eventsRetimedAndTogether() {
        #expect(Self.eval("let f = (wait 1 ; emit b ; emit a ; wait 1) in 1s", fps: 2) == "time,events\n0,\n0.5,b a\n1,\n")
        // The same name at the same instant is one event (Σ is a set), at its first firing.
        #expect(Self.eval("let f = fadeIn a ; emit b ; emit a ; emit b", fps: 1) == "time,a.opacity,events\n0,0,\n1,1,b a\n")
        #expect(Self.eval("let f = emit x || (wait 0s ; emit x) || emit x", at: ["0"]) == "time,events\n0,x\n")
        // Order of first firing: zed at 0.2, alpha at 0.4, zed again at 0.6.
        #expect(Self.eval("let f = wait 0.2 ; emit zed ; wait 0.2 ; emit alpha ; wait 0.2 ; emit zed ; wait 0.4", fps: 1)
                == "time,events\n0,\n1,zed×2 alpha\n")
    }

    /// A warp moves an event at t to the least t' with D·E(t'/D) ≥ t.
    /// ease-in-quad on 2 s: 2·(t'/2)² ≥ 1 ⇔ t' ≥ √2 = 1.41421…: not in the row at 1.41, in the one at 1.42.
    /// steps(4) (jump-end) on 2 s, event at 0.9: ⌊4p⌋/4 ≥ 0.45 ⇔ p ≥ 1/2: t' = 1.
    @Test func eventsWarped() {
        #expect(Self.eval("let f = (wait 1 ; emit half ; wait 1) with ease-in-quad", at: ["1.41", "1.42", "2"])
                == "time,events\n1.41,\n1.42,half\n2,\n")
        #expect(Self.eval("let f = (wait 0.9 ; emit e ; wait 1.1) with steps(4)", at: ["0.999", "1"]) == "time,events\n0.999,\n1,e\n")
        // Composed into tweens (§3), events still move with the warp: ease-out-back(t') ≥ 0.5
        // first at t' = 0.12720…; E(0.12) = 0.4767, E(0.13) = 0.5089.
        let composed = Self.eval("let f = (fadeIn a || (wait 0.5 ; emit x ; wait 0.5)) with ease-out-back", at: ["0.12", "0.13"])
        #expect(composed.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: ",", omittingEmptySubsequences: false).last ?? "" }
                == ["events", "", "x", ""], "\(composed)")
    }

    /// "The least t'": where E reaches 1 before the end, an event that ends the span fires there.
    ///
    /// * steps(2, jump-start) on 1 s: E = 1/2 on (0, 1/2), 1 from 1/2 on: the event at 1 fires at 0.5.
    /// * ease-out-back composed into `fadeIn a` (§3), event at 1: E(p) = 1 + c3(p − 1)³ + c1(p − 1)² = 1
    ///   ⇔ (p − 1)²(c3(p − 1) + c1) = 0 ⇔ p = 1 − c1/c3 = 1 − 1.70158/2.70158 = 0.3701538: after 0.3701, by 0.3702.
    /// * `bouncy spring` (ζ = 0.7, ω = 1): x(t) = 1 first where cos(ω_d t) + a·sin(ω_d t) = 0, a = 0.7/√0.51
    ///   = 0.9801961: ω_d t = π − atan(1/a) = 2.3461938, t = 3.2853285; over T = 10.349182, p = 0.3174481.
    /// * `spring` (ζ = 1) stays below 1 until E(1) = 1: the event stays at 1.
    @Test func eventsAtTheEndOfAWarp() {
        #expect(Self.eval("let f = (wait 1 ; emit end) with steps(2, jump-start)", at: ["0.4", "0.5", "1"]) == "time,events\n0.4,\n0.5,end\n1,\n")
        func events(_ source: String, _ times: [String]) -> [String] {
            Self.eval(source, at: times).split(separator: "\n").dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false).last ?? "") }
        }
        #expect(events("let f = (fadeIn a ; emit landed) with ease-out-back", ["0.3701", "0.3702", "1"]) == ["", "landed", ""])
        #expect(events("let f = (fadeIn a ; emit landed) with bouncy spring", ["0.3174", "0.3175", "1"]) == ["", "landed", ""])
        #expect(events("let f = (fadeIn a ; emit landed) with spring", ["0.9", "0.999", "1"]) == ["", "", "landed"])
        // Monotone and continuous: reaching the end of the span is reaching the end of the window.
        #expect(events("let f = (fadeIn a ; fadeIn b ; emit landed) with ease-in-out", ["1.999", "2"]) == ["", "landed"])
        #expect(events("let f = (fadeIn a ; fadeIn b ; emit landed) with ease-out-expo", ["1.999", "2"]) == ["", "landed"])
    }

    /// The events column in each format: CSV's last column, JSON's `events` array, the table's last column.
    @Test func eventsColumnInEveryFormat() {
        let source = "let f = (emit tick ; wait 0.25) ^ 4 ; emit done"
        #expect(Self.eval(source, fps: 1, format: .json) == "{\"time\":0,\"events\":[\"tick\"]}\n{\"time\":1,\"events\":[\"tick×3\",\"done\"]}\n")
        #expect(Self.eval(source, fps: 1, format: .table) == " time  events\n0.000  tick\n1.000  tick×3 done\n")
        #expect(Self.eval("let f = fadeIn a ; emit x", fps: 2, format: .json).hasPrefix("{\"time\":0,\"a.opacity\":0,\"events\":[]}\n"))
        // With --at, each row counts since the previous requested time.
        #expect(Self.eval("let f = (emit tick ; wait 0.5) ^ 4", at: ["1", "0.5", "2"]) == "time,events\n1,tick×3\n0.5,\n2,tick×2\n")
        // No event left in Σ: no column.
        #expect(Self.eval("let f = (emit x ; zero) || fadeIn a", fps: 1) == "time,a.opacity\n0,0\n1,1\n")
        #expect(Self.eval("let f = (emit x) ^ 0 ; fadeIn a", fps: 1) == "time,a.opacity\n0,0\n1,1\n")
    }

    /// `timeline` lists each event with its exact time.
    @Test func timelineListsEvents() throws {
        let (scene, _) = try Self.compiled("let f = (fadeIn a ; emit land ; wait 1) in 1s ; emit done")
        let text = timelineText(scene)
        #expect(text.contains("event  time\nland   1/2\ndone   1\n") || text.contains("event  time\nland   0.5\ndone   1\n"), "\(text)")
        #expect(text.contains("emit land") && text.contains("emit done"))
    }

    // MARK: - §6.6 Forever

    /// Sampling at 10⁹ s is exact and immediate: 10⁹ mod 1.5 = 1 → 240°; 10⁹ + 0.75 → 1.75 mod 1.5 = 0.25 → 60°.
    @Test func foreverSampledFarAway() throws {
        let source = "let f = rotate s from 0 to 360 in 1.5s repeated forever"
        let clock = ContinuousClock()
        let started = clock.now
        #expect(Self.eval(source, at: ["1000000000", "1000000000.75"]) == "time,s.rotation\n1000000000,240\n1000000000.75,60\n")
        #expect(clock.now - started < .seconds(2))
        // --until: rows 0, 1/fps, …, T. At 3 a new copy starts (latest start wins): 0.
        #expect(Self.eval(source, fps: 1, until: "3") == "time,s.rotation\n0,0\n1,240\n2,120\n3,0\n")
        // Without --until (or --at) it is refused.
        let refused = evaluateToText(Self.file(source))
        #expect(!refused.succeeded && refused.diagnostics.contains("repeats forever") && refused.diagnostics.contains("--until"))
    }

    /// `looped forever` is (x ; x reversed) repeated forever: period 2. At 1 the reversed copy starts
    /// (value 1), at 2 the next forward copy (0); 10⁹ + 1 is 1 into a period, 10⁹ + 1.25 is 1.25: 0.75.
    @Test func loopedForever() {
        #expect(Self.eval("let f = fadeIn a looped forever", fps: 2, until: "2.5") == """
            time,a.opacity
            0,0
            0.5,0.5
            1,1
            1.5,0.5
            2,0
            2.5,0.5

            """)
        #expect(Self.eval("let f = fadeIn a looped forever", at: ["1000000001", "1000000001.25"]) == "time,a.opacity\n1000000001,1\n1000000001.25,0.75\n")
    }

    /// Composition with forever: `(x forever) ; y` warns and is `x forever`; `y ; (x forever)`
    /// starts after y; `||` runs both; `^ n`, `repeated N times` are itself, `^ 0` is one;
    /// `delayed by` and `staggered by` work; reversed, looped, in and warps are errors.
    @Test func composingForever() throws {
        let warned = "let f = (fadeIn a repeated forever) ; fadeOut b"
        #expect(Self.diagnostics(warned, severity: .warning) == ["1:39 never-starts"])
        #expect(Self.diagnostics(warned).isEmpty)
        #expect(Self.eval(warned, fps: 2, until: "1.5") == "time,a.opacity\n0,0\n0.5,0.5\n1,0\n1.5,0.5\n")
        // zero still annihilates: cancelled, and no word of never starting.
        #expect(try Self.scene("let f = (fadeIn a repeated forever) ; zero").isCancelled)
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) ; zero", severity: .warning).isEmpty)
        #expect(Self.eval("let f = fadeOut b ; (fadeIn a repeated forever)", fps: 2, until: "2.5")
                == "time,a.opacity,b.opacity\n0,0,1\n0.5,0,0.5\n1,0,0\n1.5,0.5,0\n2,0,0\n2.5,0.5,0\n")
        #expect(Self.eval("let f = (fadeIn a in 2s repeated forever) || fadeOut b", fps: 2, until: "2.5")
                == "time,a.opacity,b.opacity\n0,0,1\n0.5,0.25,0.5\n1,0.5,0\n1.5,0.75,0\n2,0,0\n2.5,0.25,0\n")
        let source = """
            let x = fadeIn a repeated forever
            let p = x ^ 3
            let q = x repeated 2 times
            let r = x ^ 0 ; fadeIn b
            let s = fadeIn b
            """
        try Self.expectSame(source, "x", "p")
        try Self.expectSame(source, "x", "q")
        try Self.expectSame(source, "r", "s")
        #expect(Self.eval("let f = (fadeIn a repeated forever) delayed by 1s", fps: 2, until: "2")
                == "time,a.opacity\n0,0\n0.5,0\n1,0\n1.5,0.5\n2,0\n")
        #expect(Self.eval("let f = (fadeIn a || fadeIn b) repeated forever staggered by 0.5s", fps: 4, until: "1.5")
                == "time,a.opacity,b.opacity\n0,0,0\n0.25,0.25,0\n0.5,0.5,0\n0.75,0.75,0.25\n1,0,0.5\n1.25,0.25,0.75\n1.5,0.5,0\n")
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) reversed") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) looped") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) looped forever") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever) in 2s") == ["1:37 infinite-animation"])
        #expect(Self.diagnostics("let f = (fadeIn a repeated forever ; fadeIn b) with ease-in") == ["1:48 infinite-animation"])
        // Dx must be > 0.
        #expect(Self.diagnostics("let f = emit x repeated forever") == ["1:16 forever-of-instant"])
        #expect(Self.diagnostics("let f = (fadeIn a in 0s) looped forever") == ["1:26 forever-of-instant"])
    }

    /// `--until` works for finite animations too: past D every property holds; before D the rows stop at T.
    @Test func untilOnFiniteAnimations() {
        #expect(Self.eval("let f = fadeIn a ; emit done", fps: 2, until: "2") == "time,a.opacity,events\n0,0,\n0.5,0.5,\n1,1,done\n1.5,1,\n2,1,\n")
        #expect(Self.eval("let f = fadeIn a in 2s", fps: 2, until: "0.75") == "time,a.opacity\n0,0\n0.5,0.25\n0.75,0.375\n")
    }

    // MARK: - §3 The extended `with`

    /// `with E` on tweens that span the whole window composes E into each one's easing,
    /// keeping the overshoot: `fadeIn all views with ease-out-back` is the parallel of
    /// the eased tweens (1.0876975 at 0.5), also for `a || b` of equal lengths, lets and
    /// parentheses; E composes after the tween's own easing: quad(back(0.5)) = 1.0876975²
    /// = 1.18308585…; back(quad(0.5)) = back(0.25) = 1 + 2.70158·(−0.75)³ + 1.70158·0.75² = 0.8174096875.
    @Test func withComposesOnTweensOverTheWholeWindow() throws {
        let source = """
            view a
            view b
            let t = fadeIn a
            let every = fadeIn all views with ease-out-back
            let each = fadeIn a with ease-out-back || fadeIn b with ease-out-back
            let pair = (fadeIn a || fadeIn b) with ease-out-back
            let bound = (t) with ease-out-back || ((fadeIn b)) with ease-out-back
            let quadBack = (animate a.x from 0 to 100 with ease-in-quad) with ease-out-back
            let backQuad = (animate a.x from 0 to 100 with ease-out-back) with ease-in-quad
            let mixed = (fadeIn a || fadeOut b || wait 1) with ease-out-back
            """
        try Self.expectSame(source, "every", "each")
        try Self.expectSame(source, "pair", "each")
        try Self.expectSame(source, "bound", "each")
        try Self.expectNumbers(source + "\nlet f = every", [("0.5", "a.opacity", 1.0876975), ("0.5", "b.opacity", 1.0876975)])
        try Self.expectNumbers(source + "\nlet f = quadBack", [("0.5", "a.x", 118.30858515062499)])
        try Self.expectNumbers(source + "\nlet f = backQuad", [("0.5", "a.x", 81.74096875)])
        try Self.expectNumbers(source + "\nlet f = mixed", [("0.5", "a.opacity", 1.0876975), ("0.5", "b.opacity", -0.0876975)])
        // Segments that do not span the whole window: E must be monotone.
        #expect(Self.diagnostics("let f = (fadeIn a || fadeIn b in 2s) with ease-out-back") == ["1:43 non-monotone-warp"])
        #expect(Self.diagnostics("let f = (fadeIn a || wait 2) with ease-out-back") == ["1:35 non-monotone-warp"])
        #expect(Self.diagnostics("let f = (fadeIn a reversed) with ease-out-back") == ["1:34 non-monotone-warp"])
        // A monotone E on such a composite is the warp: ease-in-quad on 2 s at t = 1 is the state at 2·(1/2)² = 0.5.
        try Self.expectNumbers("let f = (fadeIn a || fadeIn b in 2s) with ease-in-quad", [("1", "a.opacity", 0.5), ("1", "b.opacity", 0.25)])
    }
}
