// Easing checked against the published definitions.
//
// The reference values live in Golden/easings.golden, written by
// Golden/make_easing_golden.py: an independent Python implementation of every
// family from its published definition (the talk's formulas; CSS Easing
// Functions Level 1, https://www.w3.org/TR/css-easing-1/ sections 2.2.1 and
// 2.3.1; easings.net), evaluated with mpmath. The other tests check the laws the
// rest of the library relies on: monotonicity, mirrors, composition, inverses,
// validation and the `.anim` spelling.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import Animations

// MARK: - Reading the golden file

/// One line of the golden file: `SPELLING | P | VALUE`.
struct GoldenSample: Sendable {
    let spelling: String
    let input: Double
    let expected: Double
}

/// The directory holding this source file, from `#filePath` (no bundle resources).
func testDirectory(_ path: String = #filePath) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return String(path[..<slash])
}

/// The whole file as a string, or nil when it cannot be read.
func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
}

func trimmed(_ text: Substring) -> String {
    var slice = text
    while let first = slice.first, first == " " || first == "\t" || first == "\r" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
    return String(slice)
}

/// Every sample of the golden file, in file order; empty when the file is
/// missing or malformed (``goldenFileIsWellFormed`` then fails).
let goldenSamples: [GoldenSample] = {
    guard let text = readTextFile(testDirectory() + "/Golden/easings.golden") else { return [] }
    var samples: [GoldenSample] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
        let content = trimmed(line)
        if content.isEmpty || content.hasPrefix("#") { continue }
        let fields = content.split(separator: "|", omittingEmptySubsequences: false).map(trimmed)
        guard fields.count == 3, let input = Double(fields[1]), let expected = Double(fields[2]) else { return [] }
        samples.append(GoldenSample(spelling: fields[0], input: input, expected: expected))
    }
    return samples
}()

/// The golden spellings, each once, in file order.
let goldenSpellings: [String] = {
    var seen = Set<String>()
    return goldenSamples.map(\.spelling).filter { seen.insert($0).inserted }
}()

// MARK: - Reading a spelling

/// The bare names the golden file uses (the `.anim` spellings, which the
/// language owns; its own tests check that it reads them as these values).
let bareEasings: [String: Easing] = {
    var table: [String: Easing] = [
        "linear": .linear, "ease-in": easeIn, "ease-out": easeOut, "ease-in-out": easeInOut,
        "ease": .ease, "css-ease": .ease, "css-ease-in": .cssEaseIn, "css-ease-out": .cssEaseOut,
        "css-ease-in-out": .cssEaseInOut,
    ]
    table["step-start"] = try? Easing.steps(1, .jumpStart)
    table["step-end"] = try? Easing.steps(1, .jumpEnd)
    for curve in Easing.PennerCurve.allCases {
        for mode in Easing.PennerMode.allCases { table["ease-\(mode.rawValue)-\(curve.rawValue)"] = .penner(curve, mode) }
    }
    return table
}()

/// A small reader for the `.anim` easing spellings the tests use: the bare
/// names above, `ease-in(c)`, `ease-out(c)`, `ease-in-out(c)`,
/// `cubic-bezier(x1, y1, x2, y2)`, `steps(n[, position])` and `compose(E1, E2)`.
func parseEasing(_ spelling: String) -> Easing? {
    let text = trimmed(Substring(spelling))
    if let easing = bareEasings[text] { return easing }
    guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
    let name = String(text[..<open])
    let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
    // Split the arguments at top-level commas (compose nests).
    var arguments: [String] = []
    var depth = 0
    var current = ""
    for character in inside {
        if character == "(" { depth += 1 }
        if character == ")" { depth -= 1 }
        if character == ",", depth == 0 {
            arguments.append(trimmed(Substring(current)))
            current = ""
        } else {
            current.append(character)
        }
    }
    arguments.append(trimmed(Substring(current)))
    let numbers = arguments.map { Double($0) }

    switch (name, arguments.count) {
    case ("ease-in", 1):
        guard let c = numbers[0] else { return nil }
        return try? Easing.easeIn(c)
    case ("ease-out", 1):
        guard let c = numbers[0] else { return nil }
        return try? Easing.easeOut(c)
    case ("ease-in-out", 1):
        guard let c = numbers[0] else { return nil }
        return try? Easing.easeInOut(c)
    case ("cubic-bezier", 4):
        guard let x1 = numbers[0], let y1 = numbers[1], let x2 = numbers[2], let y2 = numbers[3] else { return nil }
        return try? Easing.cubicBezier(x1, y1, x2, y2)
    case ("steps", 1), ("steps", 2):
        guard let count = Int(arguments[0]) else { return nil }
        var position = Easing.StepPosition.jumpEnd
        if arguments.count == 2 {
            switch arguments[1] {
            case "start": position = .jumpStart
            case "end": position = .jumpEnd
            default:
                guard let named = Easing.StepPosition(rawValue: arguments[1]) else { return nil }
                position = named
            }
        }
        return try? Easing.steps(count, position)
    case ("compose", 2):
        guard let outer = parseEasing(arguments[0]), let inner = parseEasing(arguments[1]) else { return nil }
        return outer.composed(after: inner)
    default:
        return nil
    }
}

/// `parseEasing` for spellings a test knows to be valid.
func easing(_ spelling: String) -> Easing {
    guard let easing = parseEasing(spelling) else {
        Issue.record("cannot read the easing spelling `\(spelling)`")
        return .linear
    }
    return easing
}

// MARK: - Tables of easings

/// Every bare name, plus parameterised curves of every family.
let catalogue: [String] = bareEasings.keys.sorted() + [
    "ease-in(3)", "ease-in(0.5)", "ease-out(1.5)", "ease-out(3)", "ease-out(0.5)",
    "ease-in-out(3)", "ease-in-out(0.25)", "ease-in-out(400)",
    "cubic-bezier(0.1, 0.7, 1, 0.1)", "cubic-bezier(0.25, 0.1, 0.25, 1)", "cubic-bezier(0.3, 0, 0.7, 1)",
    "cubic-bezier(0.5, -0.5, 0.5, 1.5)", "cubic-bezier(0.2, 1.4, 0.8, 1)", "cubic-bezier(0, 0.5, 0.5, 1)",
    "cubic-bezier(0.5, 0, 1, 0.5)", "cubic-bezier(1, 0, 0, 1)", "cubic-bezier(0, 1, 1, 0)",
    "cubic-bezier(0, 0, 0, 0)", "cubic-bezier(1, 1, 1, 1)", "cubic-bezier(0.68, -0.6, 0.32, 1.6)",
    "steps(4)", "steps(4, jump-start)", "steps(4, jump-none)", "steps(4, jump-both)", "steps(3, start)",
    "steps(1, jump-both)", "steps(7, end)",
]

/// Monotone cubic Béziers (y never decreases) and non-monotone ones.
let monotoneBeziers: [String] = [
    "cubic-bezier(0.25, 0.1, 0.25, 1)", "cubic-bezier(0.3, -0, 0.7, 1)", "cubic-bezier(0.42, 0, 0.58, 1)",
    "cubic-bezier(0, 0, 1, 1)", "cubic-bezier(1, 0, 0, 1)", "cubic-bezier(0, 1, 1, 0)",
    "cubic-bezier(0.1, 0.7, 1, 0.1)", "cubic-bezier(0.5, 1, 0.5, 1)", "cubic-bezier(0.2, 0.25, 0.8, 0)",
    "cubic-bezier(0.5, 0.04, 0.5, -0.0)",   // middle coefficient negative, c1² = 0.0016 ≤ 0.04 · 1
    "cubic-bezier(0.5, 0.5, 0.5, 0.2)", "cubic-bezier(0.5, 0.6, 0.5, 0.1)",
]
let nonMonotoneBeziers: [String] = [
    "cubic-bezier(0.5, -0.5, 0.5, 1.5)", "cubic-bezier(0.2, 1.4, 0.8, 1)", "cubic-bezier(0.68, -0.6, 0.32, 1.6)",
    "cubic-bezier(0.34, 1.56, 0.64, 1)", "cubic-bezier(0.36, 0, 0.66, -0.56)",
    "cubic-bezier(0.5, 1.2, 0.5, 0)",       // both end slopes ≥ 0, the middle dips: c1² = 1.44 > 1.2 · 1
    "cubic-bezier(0.2, 1.05, 0.8, -0.1)",   // likewise: 1.3225 > 1.05 · 1.1
    "cubic-bezier(0.3, -0.01, 0.7, 1)", "cubic-bezier(0.3, 0, 0.7, 1.001)",
]

/// Compositions whose evaluation and laws are checked.
let compositions: [(outer: String, inner: String)] = [
    ("ease-in", "ease-out"), ("ease-out-back", "ease-in-quad"), ("steps(4)", "ease-in-out"),
    ("css-ease-in-out", "ease-out-elastic"), ("ease-in-out-sine", "cubic-bezier(0.5, -0.5, 0.5, 1.5)"),
    ("ease-in-bounce", "ease-in-out-back"), ("ease", "ease-in-expo"),
]

/// `count + 1` evenly spaced points of [from, to].
func grid(_ from: Double, _ to: Double, _ count: Int) -> [Double] {
    (0...count).map { from + (to - from) * Double($0) / Double(count) }
}

/// Dense numeric monotonicity on [0, 1]: never decreases by more than 1e-12.
func numericallyMonotone(_ e: Easing) -> Bool {
    var previous = e(0)
    for i in 1...10_000 {
        let value = e(Double(i) / 10_000)
        if value < previous - 1e-12 { return false }
        previous = value
    }
    return true
}

// MARK: - Golden values

@Suite("Easing golden values")
struct EasingGoldenTests {
    @Test func goldenFileIsWellFormed() {
        #expect(goldenSamples.count > 2_000)
        #expect(goldenSpellings.count > 90)
        for spelling in ["ease-in", "ease-out(1.5)", "ease-in-out", "ease-in-out(3)", "cubic-bezier(0.1, 0.7, 1, 0.1)",
                         "ease", "css-ease-in", "css-ease-out", "css-ease-in-out", "steps(4)", "steps(4, jump-start)",
                         "steps(4, jump-none)", "steps(4, jump-both)", "steps(3, start)", "step-end", "step-start"] {
            #expect(goldenSpellings.contains(spelling), "missing \(spelling)")
        }
        for curve in Easing.PennerCurve.allCases {
            for mode in Easing.PennerMode.allCases {
                #expect(goldenSpellings.contains("ease-\(mode.rawValue)-\(curve.rawValue)"))
            }
        }
    }

    @Test(arguments: goldenSpellings)
    func matchesPublishedDefinition(spelling: String) {
        let e = easing(spelling)
        // Closed forms to 1e-12; cubic-bezier (a root find) to the required 1e-7.
        let tolerance: Double
        if case .cubicBezier = e.kind { tolerance = 1e-7 } else { tolerance = 1e-12 }
        for sample in goldenSamples where sample.spelling == spelling {
            let actual = e(sample.input)
            #expect(abs(actual - sample.expected) <= tolerance,
                    "\(spelling) at \(sample.input): got \(actual), expected \(sample.expected)")
        }
    }
}

// MARK: - The talk

@Suite("Easing: the talk's numbers")
struct EasingTalkTests {
    @Test func shrinkingCircleRadiusAtAQuarter() {
        // shrink circle from radius 100 to 10 with an ease-in-out, a quarter of the way in
        let talkEaseInOut: Easing = Animations.easeInOut   // c = 1
        let radius = 100 + (10 - 100) * talkEaseInOut(0.25)
        #expect(abs(radius - 94.1528) < 5e-5)
    }

    @Test func rotatingSquareAngleAtAQuarter() {
        // rotate square from 0 to 2π with a high ease-out (c = 1.5), a quarter of the way in
        let highEaseOut: Easing = Animations.easeOut(1.5)
        let angle = highEaseOut(0.25) * 2 * Double.pi
        #expect(abs(angle - 2.2021) < 5e-5)
    }

    @Test func defaultsAndFreeFunctions() throws {
        let defaults: [Easing] = [Animations.easeIn, Animations.easeOut, Animations.easeInOut]
        #expect(defaults == [try Easing.easeIn(2), try Easing.easeOut(2), try Easing.easeInOut(1)])
        let withParameters: [Easing] = [Animations.easeIn(3), Animations.easeOut(1.5), Animations.easeInOut(2)]
        #expect(withParameters == [try Easing.easeIn(3), try Easing.easeOut(1.5), try Easing.easeInOut(2)])
    }

    @Test func endpoints() {
        for spelling in catalogue {
            let e = easing(spelling)
            if case .steps(_, let position) = e.kind, position == .jumpStart || position == .jumpBoth {
                #expect(e(0) > 0, "\(spelling) jumps at 0")
            } else {
                #expect(abs(e(0)) <= 1e-12, "\(spelling)(0)")
            }
            #expect(abs(e(1) - 1) <= 1e-12, "\(spelling)(1)")
        }
    }

    @Test(arguments: ["ease-in", "ease-in(3)", "ease-out", "ease-out(0.5)", "ease-in-circ", "ease-out-circ",
                      "ease-in-out-circ", "ease-in-bounce", "ease-out-bounce", "ease-in-out-bounce"])
    func clampedFamiliesClampOutsideTheUnitInterval(spelling: String) {
        // Documented: these formulas are not defined on all reals, so the input is clamped.
        let e = easing(spelling)
        for p in [-2.0, -0.5, -1e-9, 1 + 1e-9, 1.5, 3] {
            let value = e(p)
            #expect(value == e(min(max(p, 0), 1)), "\(spelling) at \(p) gave \(value)")
        }
    }
}

// MARK: - Monotonicity

@Suite("Easing: isMonotone")
struct EasingMonotoneTests {
    @Test(arguments: catalogue + monotoneBeziers + nonMonotoneBeziers)
    func agreesWithDenseCheck(spelling: String) {
        let e = easing(spelling)
        #expect(e.isMonotone == numericallyMonotone(e), "\(spelling): isMonotone = \(e.isMonotone)")
    }

    @Test func bezierTables() {
        for spelling in monotoneBeziers { #expect(easing(spelling).isMonotone, "\(spelling)") }
        for spelling in nonMonotoneBeziers { #expect(!easing(spelling).isMonotone, "\(spelling)") }
    }

    @Test(arguments: goldenSpellings.filter { $0.hasPrefix("cubic-bezier") })
    func goldenBeziers(spelling: String) {
        let e = easing(spelling)
        #expect(e.isMonotone == numericallyMonotone(e), "\(spelling): isMonotone = \(e.isMonotone)")
    }

    @Test func pennerFamilies() {
        for curve in Easing.PennerCurve.allCases {
            for mode in Easing.PennerMode.allCases {
                let overshoots = curve == .back || curve == .elastic || curve == .bounce
                #expect(Easing.penner(curve, mode).isMonotone == !overshoots, "\(curve) \(mode)")
            }
        }
    }

    @Test func compositionsAndReflections() {
        for (outer, inner) in compositions {
            let e = easing(outer).composed(after: easing(inner))
            // The flag is conservative for compositions: when it says monotone, it is.
            if e.isMonotone { #expect(numericallyMonotone(e), "\(e)") }
            #expect(e.isMonotone == (easing(outer).isMonotone && easing(inner).isMonotone))
        }
        for spelling in catalogue {
            let e = easing(spelling)
            #expect(e.mirrored.isMonotone == e.isMonotone, "\(spelling)")
            #expect(numericallyMonotone(e.mirrored) == e.isMonotone, "mirrored \(spelling)")
        }
    }
}

// MARK: - Mirrors

/// The mirror within the easing's own family, when there is one.
private func familyMirror(_ e: Easing) -> Easing? {
    e.hasFamilyMirror ? e.mirrored : nil
}

@Suite("Easing: mirrors")
struct EasingMirrorTests {
    @Test(arguments: catalogue + monotoneBeziers + nonMonotoneBeziers)
    func mirrorIsPointReflection(spelling: String) {
        let e = easing(spelling)
        switch e.kind {
        case .steps, .easeIn, .easeOut:
            #expect(familyMirror(e) == nil, "\(spelling) has no mirror in its family")
        default:
            guard let mirror = familyMirror(e) else {
                Issue.record("\(spelling) should have a mirror in its family")
                return
            }
            for p in grid(-0.5, 1.5, 2_000) {
                let expected = 1 - e(1 - p)
                #expect(abs(mirror(p) - expected) <= 1e-9, "\(spelling) mirror at \(p): \(mirror(p)) vs \(expected)")
            }
            // Mirroring twice gives the easing back (the control points of a
            // cubic-bezier as written, not as 1 − (1 − v) rounds).
            #expect(mirror.mirrored == e, "\(spelling): mirroring twice gives \(mirror.mirrored)")
            #expect(mirror.isMonotone == e.isMonotone)
        }
    }

    @Test func familyMirrors() throws {
        #expect(familyMirror(easing("ease-in-quad")) == easing("ease-out-quad"))
        #expect(familyMirror(easing("ease-out-elastic")) == easing("ease-in-elastic"))
        #expect(familyMirror(easing("ease-in-out-bounce")) == easing("ease-in-out-bounce"))
        #expect(familyMirror(easing("css-ease-in")) == easing("css-ease-out"))
        #expect(familyMirror(easing("ease-in-out")) == easing("ease-in-out"))
        #expect(familyMirror(easing("linear")) == .linear)
        #expect(familyMirror(easing("css-ease-in-out")) == easing("css-ease-in-out"))
        #expect(familyMirror(easing("cubic-bezier(0.1, 0.7, 1, 0.1)")) == easing("cubic-bezier(0, 0.9, 0.9, 0.3)"))
        #expect(familyMirror(easing("ease")) == (try Easing.cubicBezier(0.75, 0, 0.75, 0.9)))
    }

    @Test(arguments: catalogue)
    func mirroredEvaluatesAsPointReflection(spelling: String) {
        let e = easing(spelling)
        let r = e.mirrored
        for p in grid(0, 1, 1_000) {
            #expect(abs(r(p) - (1 - e(1 - p))) <= 1e-9, "\(spelling) mirrored at \(p)")
        }
        if !e.hasFamilyMirror {
            if case .mirror(let inner) = r.kind { #expect(inner == e) } else { Issue.record("\(spelling): expected the wrapper") }
            #expect(r.mirrored == e)
        }
    }

    @Test func compositionMirrors() {
        for (outer, inner) in compositions {
            let e = easing(outer).composed(after: easing(inner))
            guard let mirror = familyMirror(e) else {
                #expect(!easing(outer).hasFamilyMirror || !easing(inner).hasFamilyMirror)
                continue
            }
            for p in grid(0, 1, 1_000) {
                #expect(abs(mirror(p) - (1 - e(1 - p))) <= 1e-9, "\(e) mirror at \(p)")
            }
        }
    }
}

// MARK: - Composition

@Suite("Easing: composition")
struct EasingCompositionTests {
    @Test func evaluatesOuterAfterInner() {
        for (outerSpelling, innerSpelling) in compositions {
            let outer = easing(outerSpelling), inner = easing(innerSpelling)
            let e = outer.composed(after: inner)
            #expect(e.factors == outer.factors + inner.factors)
            for p in grid(-0.25, 1.25, 600) {
                #expect(e(p) == outer(inner(p)), "\(e) at \(p)")
            }
        }
    }

    @Test func linearIsTheIdentityOnBothSides() {
        for spelling in catalogue {
            let e = easing(spelling)
            #expect(e.composed(after: .linear) == e)
            #expect(Easing.linear.composed(after: e) == e)
        }
    }

    @Test func associative() {
        let a = easing("ease-in-out"), b = easing("ease-out-back"), c = easing("steps(5, jump-none)")
        let left = a.composed(after: b).composed(after: c)
        let right = a.composed(after: b.composed(after: c))
        for p in grid(0, 1, 1_000) {
            #expect(left(p) == right(p))
        }
    }
}

// MARK: - Inverses

@Suite("Easing: inverses of monotone easings")
struct EasingInverseTests {
    static let monotone: [String] = (catalogue + monotoneBeziers).filter { easing($0).isMonotone }

    /// Every output level of a `steps(count, …)` easing, whatever its position.
    func stepLevels(_ count: Int) -> [Double] {
        [count - 1, count, count + 1].filter { $0 > 0 }.flatMap { jumps in
            (0...jumps).map { Double($0) / Double(jumps) }
        }
    }

    @Test(arguments: monotone)
    func lowerInverseIsLeastPreimage(spelling: String) {
        let e = easing(spelling)
        var levels = grid(0, 1, 100)
        if case .steps(let count, _) = e.kind {
            levels += stepLevels(count)
        }
        for y in levels {
            let p = e.lowerInverse(y)
            #expect((0...1).contains(p))
            if e(1) >= y {
                #expect(e(p) >= y - 1e-12, "\(spelling): E(lowerInverse(\(y))) = \(e(p))")
                if p > 0 { #expect(e(p.nextDown) < y, "\(spelling): lowerInverse(\(y)) = \(p) is not the least") }
            } else {
                #expect(p == 1)
            }
        }
    }

    @Test(arguments: monotone)
    func upperInverseIsGreatestPreimage(spelling: String) {
        let e = easing(spelling)
        var levels = grid(0, 1, 100)
        if case .steps(let count, _) = e.kind {
            levels += stepLevels(count)
        }
        for y in levels {
            let p = e.upperInverse(y)
            #expect((0...1).contains(p))
            if e(0) <= y {
                #expect(e(p) <= y + 1e-12, "\(spelling): E(upperInverse(\(y))) = \(e(p))")
                if p < 1 { #expect(e(p.nextUp) > y, "\(spelling): upperInverse(\(y)) = \(p) is not the greatest") }
            } else {
                #expect(p == 0)
            }
        }
    }

    @Test func stepsInverses() throws {
        let e = try Easing.steps(4)
        #expect(e.lowerInverse(0.5) == 0.5)       // the top of the step is taken at the jump
        #expect(e.upperInverse(0.25) == 0.5.nextDown)
        #expect(e.lowerInverse(0) == 0)
        #expect(e.upperInverse(1) == 1)
        #expect(Easing.linear.lowerInverse(0.3) == 0.3)
        #expect(Easing.linear.upperInverse(1.7) == 1)
    }

    @Test func continuousInversesAgree() {
        for spelling in ["ease-in", "ease-out(1.5)", "ease-in-out", "ease-in-out-sine", "css-ease-in-out", "ease"] {
            let e = easing(spelling)
            for y in grid(0.01, 0.99, 98) {
                #expect(abs(e.lowerInverse(y) - e.upperInverse(y)) <= 1e-12, "\(spelling) at \(y)")
            }
        }
    }
}

// MARK: - Validation

@Suite("Easing: validation")
struct EasingValidationTests {
    @Test func cubicBezierXMustLieInTheUnitInterval() {
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(-0.1, 0, 0.5, 1) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(0.1, 0, 1.1, 1) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(2, 0, 0.5, 1) }
        #expect((try? Easing.cubicBezier(0, -5, 1, 7)) != nil)
        #expect((try? Easing.cubicBezier(1, 0, 0, 1)) != nil)
    }

    @Test func nonFiniteParametersAreRejected() {
        let nan = Double.nan, inf = Double.infinity
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(nan, 0, 0.5, 1) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(0.5, nan, 0.5, 1) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(0.5, 0, nan, 1) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(0.5, 0, 0.5, nan) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(0.5, inf, 0.5, 1) }
        #expect(throws: AnimationError.self) { try Easing.cubicBezier(0.5, 0, 0.5, -inf) }
        #expect(throws: AnimationError.self) { try Easing.easeIn(nan) }
        #expect(throws: AnimationError.self) { try Easing.easeOut(nan) }
        #expect(throws: AnimationError.self) { try Easing.easeInOut(nan) }
        #expect(throws: AnimationError.self) { try Easing.easeOut(inf) }
        #expect(throws: AnimationError.notFinite("the ease-out parameter")) { try Easing.easeOut(nan) }
    }

    @Test func stepCounts() {
        #expect(throws: AnimationError.self) { try Easing.steps(0) }
        #expect(throws: AnimationError.self) { try Easing.steps(-3, .jumpStart) }
        #expect(throws: AnimationError.self) { try Easing.steps(1, .jumpNone) }
        #expect((try? Easing.steps(2, .jumpNone)) != nil)
        #expect((try? Easing.steps(1, .jumpBoth)) != nil)
    }

    @Test func talkParametersMustBePositive() {
        #expect(throws: AnimationError.self) { try Easing.easeOut(0) }
        #expect(throws: AnimationError.self) { try Easing.easeOut(-1) }
        #expect(throws: AnimationError.self) { try Easing.easeIn(0) }
        #expect(throws: AnimationError.self) { try Easing.easeIn(-2) }
        #expect(throws: AnimationError.self) { try Easing.easeInOut(0) }
        #expect(throws: AnimationError.self) { try Easing.easeInOut(-0.5) }
        #expect((try? Easing.easeOut(1e-3)) != nil)
    }

    @Test func errorMessages() {
        #expect(throws: AnimationError.invalidEasing("steps needs at least 1 step (got 0)")) { try Easing.steps(0) }
        #expect(throws: AnimationError.invalidEasing("cubic-bezier x2 must be between 0 and 1 (got 1.5)")) {
            try Easing.cubicBezier(0, 0, 1.5, 1)
        }
        #expect(throws: AnimationError.invalidEasing("the ease-out parameter must be positive (got -1)")) {
            try Easing.easeOut(-1)
        }
    }
}
