import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Exports in the digits a person would write (docs/exports.md §7): short
/// numbers where the bound allows, exact ones where an instant depends on them.
struct ExportDigitsTests {
    /// The shortest decimal within the tolerance, worked out by hand:
    /// 0.36449796458085376 within 1e-8 — six decimals give 0.364498, 3.5e-8
    /// away, too far; seven give 0.3644980, the same; eight give 0.36449796,
    /// 4.6e-9 away, the first that fits.
    @Test func theShortestDecimalWithinTheTolerance() {
        #expect(Digits.shortest(0.36449796458085376, within: 1e-8) == 0.36449796)
        #expect(Digits.shortest(2.0000000001, within: 1e-6) == 2)
        #expect(Digits.shortest(1.0 / 3, within: 1e-4) == 0.3333)
        // Nothing shorter within the tolerance: the number itself.
        #expect(Digits.shortest(0.1 + 0.2, within: 0) == 0.1 + 0.2)
        #expect(Digits.shortest(.infinity, within: 1) == .infinity)
    }

    /// A time remap's lead, rounded up to one significant digit: never less,
    /// never more than twice (a power of ten was up to ten times, 0.6 frames
    /// at frame 179,820 of a 60 fps file: 4 single-precision steps there are
    /// 4 × 2⁻⁶ frames = 1.04e-3 s, which goes to 2e-3 s).
    @Test func oneDigitUpIsAtLeastTheNumberAndAtMostTwice() {
        #expect(Digits.oneDigitUp(4.0 / 64 / 60) == 2e-3)
        #expect(Digits.oneDigitUp(2.6e-4) == 3e-4)
        #expect(Digits.oneDigitUp(3e-4) == 3e-4)
        #expect(Digits.oneDigitUp(9.2) == 10)
        #expect(Digits.oneDigitUp(1e-6) == 1e-6)
        #expect(Digits.powerOfTenUp(4.0 / 64 / 60) == 1e-2)
        #expect(Digits.powerOfTenUp(2.6e-4) == 1e-3)
        var random = ProgramGenerator.SplitMix64(seed: 7)
        for _ in 0..<1000 {
            let number = Double(random.next() % 1_000_000 + 1) * 1e-9
            let up = Digits.oneDigitUp(number)
            #expect(up >= number && up <= 2 * number, "\(number) ↦ \(up)")
        }
    }

    /// `animate a.x from 0 to 90 in 3s with ease-in-out-sine` ((1 − cos πp)/2,
    /// which no Bézier draws exactly, so it is fitted):
    /// every keyframe offset moves by at most 1e-7 s (1e-7 / 3 of the whole)
    /// and has at most 8 decimals (1e-7 / 3 ≥ 1e-8·3: eight suffice), and every
    /// value by at most 1e-8 of the range 90 (so at most 7 decimals: 9e-7 ≥ 5e-8).
    @Test func keyframesAreWrittenShortWithinTheirBounds() throws {
        let text = "let s = animate a.x from 0 to 90 in 3s with ease-in-out-sine\n"
        let (export, _) = webExport(run(SourceFile(name: "s.anim", text: text)))
        let keyframes = try #require(export?.views.first?.channels.first?.animations.first?.keyframes)
        #expect(keyframes.count > 2)
        for keyframe in keyframes {
            let offsetText = formatNumber(keyframe.offset)
            let decimals = offsetText.split(separator: ".").dropFirst().first?.count ?? 0
            #expect(decimals <= 8, "offset \(offsetText)")
            // The value is the curve's at the written offset, within 1e-8 of 90 plus the offset's move.
            guard case .number(let value) = keyframe.value else { Issue.record("not a number"); continue }
            // 45·(1 − cos πo), and its slope 45π·sin πo.
            let exact = 45 * (1 - cos(Double.pi * keyframe.offset))
            let slope = 45 * Double.pi * sin(Double.pi * keyframe.offset)
            #expect(abs(value - exact) <= 90 * 1e-8 + slope * 1e-7 / 3 + 1e-9, "value \(value) at \(offsetText)")
            let valueText = formatNumber(value)
            #expect((valueText.split(separator: ".").dropFirst().first?.count ?? 0) <= 7, "value \(valueText)")
        }
    }

    /// Where an instant depends on an offset, it stays as it was: the ends of
    /// a `steps()` interval (placed ``WebExport/stepLead`` of it early, so that
    /// a browser seeking to a jump's instant lands after it) and the two
    /// keyframes of a jump at one offset. `steps(5, jump-none)` over 1 s of
    /// 2.1 s ends at 1/2.1 − 1e-9/2.1: not the short 0.47619048.
    @Test func offsetsThatPlaceAJumpStayExact() throws {
        let text = "let s = animate a.x from 0 to 10 in 1s with steps(5, jump-none) ; animate a.x from 10 to 20 in 1.1s\n"
        let (export, _) = webExport(run(SourceFile(name: "s.anim", text: text)))
        let keyframes = try #require(export?.views.first?.channels.first?.animations.first?.keyframes)
        let stepped = try #require(keyframes.firstIndex { $0.easing?.hasPrefix("steps(") == true })
        let end = keyframes[stepped + 1].offset
        #expect(end < 1 / 2.1 && end > 1 / 2.1 - 1e-8)
        #expect(formatNumber(end).count > 12)
    }

    /// A range whose hundred-millionth is no normal double (`to 1e-320`)
    /// has no digits to save: its values stay as they are. (The power of ten
    /// was counted by multiplying by 10 until it reached 1, which a
    /// hundred-millionth that underflowed to 0 never does: the export hung.)
    @Test(.timeLimit(.minutes(1))) func aSubnormalRangeKeepsItsValues() throws {
        let (export, _) = webExport(run(SourceFile(name: "t.anim", text: "let a = animate v.x from 0 to 1e-320 in 1s\n")))
        let keyframes = try #require(export?.views.first?.channels.first?.animations.first?.keyframes)
        #expect(keyframes.map(\.value) == [.number(0), .number(1e-320)])
        #expect(Digits([[0], [1e-320]]).exponent == nil)
    }

    /// The web's keyframes name an easing only where it is not linear, and
    /// an animation's options leave out the default `"easing": "linear"`.
    @Test func linearIsTheDefaultAndGoesUnsaid() throws {
        let (export, _) = webExport(run(SourceFile(name: "s.anim", text: "let s = animate a.x from 0 to 10 in 1s\n")))
        let json = waapiJSON(try #require(export))
        #expect(!json.contains("\"easing\""))
        #expect(json.contains("{\"offset\":0,\"--animc-x\":\"0\"}"))
    }

    /// A curve that stands vertical at an end (the talk's ease-in at 1,
    /// 1 − √(1 − p); its mirror at 0; circ) becomes cubic Béziers, one of them
    /// vertical there, within the bound everywhere, where before it took a
    /// `linear(…)` of some 150 stops: the browser's curve, evaluated by
    /// solving x(t) = x, within 1e-4 of the range at 20,001 inputs.
    @Test(arguments: [("talk ease-in", Easing.talkEaseIn), ("its mirror", Easing.talkEaseIn.mirrored),
                      ("circ in", Easing.penner(.circ, .in)), ("circ out", Easing.penner(.circ, .out))])
    func verticalEndsBecomeBeziersWithinTheBound(_ name: String, _ easing: Easing) throws {
        let pieces = try #require(BezierPieces.fitting { easing($0) }, "\(name)")
        #expect(pieces.easings.count <= 16, "\(name): \(pieces.easings.count) pieces")
        #expect(maximumError(of: pieces, against: { easing($0) }) <= 1e-4, "\(name)")
    }

    /// The pieces of the talk's ease-in-out (smooth; Hermite pieces only).
    @Test func bezierPiecesStayWithinTheBound() throws {
        let pieces = try #require(BezierPieces.fitting { Easing.talkEaseInOut($0) })
        #expect(pieces.easings.count <= 16)
        #expect(maximumError(of: pieces, against: { Easing.talkEaseInOut($0) }) <= 1e-4)
    }

    /// Curves that oscillate or bend late (a spring, Penner's elastic and
    /// expo) become at most 24 Béziers, the exporter's most, within 1e-4 of
    /// the range at 20,001 inputs, their handles as long as each piece needs
    /// (before, elastic had none: its jump at 1 stopped the fit, and it took
    /// a `linear(…)` of 288 stops). Elastic is 1 at 1 but 1.0005 just
    /// before: the pieces follow that limit, and the export holds the jump at
    /// the boundary (``WebExportBuilder``), so the oracle here is the limit.
    @Test(arguments: [("elastic out", Easing.penner(.elastic, .out)), ("elastic in", Easing.penner(.elastic, .in)),
                      ("expo out", Easing.penner(.expo, .out)), ("spring", try Easing.spring(bounce: 0.5))])
    func oscillatingCurvesBecomeFewBeziersWithinTheBound(_ name: String, _ easing: Easing) throws {
        let pieces = try #require(BezierPieces.fitting({ easing($0) }, maximumPieces: 24), "\(name)")
        let limit = { (p: Double) in easing(min(max(p, 1e-12), 1 - 1e-12)) }
        #expect(maximumError(of: pieces, against: limit) <= 1e-4, "\(name)")
    }

    /// A colour tween on the talk's ease-in becomes Bézier keyframes too
    /// (the browser interpolates colours premultiplied, as eval does), and
    /// examples/choreography.anim, whose pulse eases in and out the talk's
    /// way, needs no `linear(…)` at all.
    @Test func coloursAndTheTalksCurvesNeedNoLinearStops() throws {
        let colour = "let s = color a from red to rgba(0, 0, 255, 0.5) in 1s with ease-in-out-sine\n"
        let (export, _) = webExport(run(SourceFile(name: "c.anim", text: colour)))
        #expect(!stylesheet(try #require(export)).contains("linear("))
        #expect(!stylesheet(try WebExportTests.export("examples/choreography.anim")).contains("linear("))
    }
}

/// The most a browser's reading of `pieces` (each piece's `cubic-bezier`,
/// evaluated by solving x(t) = x) misses `function` by, at 20,001 inputs.
func maximumError(of pieces: BezierPieces, against function: (Double) -> Double) -> Double {
    var worst = 0.0
    for index in 0...20_000 {
        let x = Double(index) / 20_000
        let piece = min(pieces.inputs.lastIndex { $0 <= x } ?? 0, pieces.easings.count - 1)
        let (a, b) = (pieces.inputs[piece], pieces.inputs[piece + 1])
        let (fa, fb) = (pieces.outputs[piece], pieces.outputs[piece + 1])
        let u = (x - a) / (b - a)
        var progress = u
        let text = pieces.easings[piece]
        if text != "linear" {
            let numbers = text.dropFirst("cubic-bezier(".count).dropLast().split(separator: ",").compactMap {
                Double($0.trimmingCharacters(in: .whitespaces))
            }
            progress = cubicBezierOutput(at: u, numbers[0], numbers[1], numbers[2], numbers[3])
        }
        worst = max(worst, abs(fa + (fb - fa) * progress - function(x)))
    }
    return worst
}

/// `cubic-bezier(x1, y1, x2, y2)` at input `x`, as CSS defines it (x1, x2 in [0, 1]).
/// Written here on purpose, apart from the exporter's own evaluation
/// (`BezierPieces` in WebEasing.swift): the test's oracle must not share the
/// code it checks.
func cubicBezierOutput(at x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let s = 1 - t
        return 3 * s * s * t * p1 + 3 * s * t * t * p2 + t * t * t
    }
    var low = 0.0, high = 1.0
    for _ in 0..<60 {
        let middle = (low + high) / 2
        if coordinate(middle, x1, x2) < x { low = middle } else { high = middle }
    }
    return coordinate((low + high) / 2, y1, y2)
}
