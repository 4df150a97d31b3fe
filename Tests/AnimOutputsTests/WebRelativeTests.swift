import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Relative at play time (docs/exports.md §7.3): the web export marks how
/// much of the element's start each keyframe carries (`"relative": W`, the
/// module plays `value + W × (s − declared)`), and each channel's declared
/// value where it is not its start. Expected weights are worked out from
/// docs/semantics.md §7.1: `by Δ` from `c` runs `c → c + Δ` (both ends weight 1), `to
/// B` runs `c → B` (weights 1 and 0).
struct WebRelativeTests {
    static func export(_ text: String, binding: String? = nil, after: String? = nil) throws -> WebExport {
        let outcome = run(SourceFile(name: "relative.anim", text: text), binding: binding, after: after)
        #expect(!outcome.hasErrors, "\(outcome.diagnostics)")
        return try #require(webExport(outcome, source: "relative.anim").0)
    }

    static func channel(_ export: WebExport, _ property: String) throws -> WebExport.Channel {
        try #require(export.columns.first { $0.property.description == property }, "\(export.columns.map(\.property))")
    }

    static let toast = """
        view toast y 40 opacity 0
        let rise = move toast by (0, -24) in 300ms with ease-out-cubic
        let show = rise || fade toast to 1 in 300ms
        let hide = rise reversed || fade toast to 0 in 300ms

        """

    /// The toast's `hide`: `rise reversed` is `by (0, 24)` (docs/semantics.md §7.1,
    /// reversal), so y runs c → c + 24, from 40 to 64 as written, both ends
    /// following the start; `fade to 0` runs c → 0, from 0 as written. Each
    /// is one segment with a CSS easing: two keyframes.
    @Test func theToastsExitFollowsItsStart() throws {
        let export = try Self.export(Self.toast, binding: "hide")
        let y = try Self.channel(export, "toast.y")
        let yKeys = try #require(y.animations.first?.keyframes)
        #expect(yKeys.map { cssValue($0.value) } == ["40", "64"] && yKeys.map(\.relative) == [1, 1])
        let opacity = try Self.channel(export, "toast.opacity")
        let opacityKeys = try #require(opacity.animations.first?.keyframes)
        #expect(opacityKeys.map { cssValue($0.value) } == ["0", "0"] && opacityKeys.map(\.relative) == [1, 0])
        let json = waapiJSON(export)
        #expect(json.contains("{\"offset\":0,\"--animc-y\":\"40\",\"easing\":\"cubic-bezier(0.33333333, 0, 0.66666667, 0)\",\"relative\":1}"), "\(json)")
        #expect(json.contains("{\"offset\":1,\"--animc-opacity\":\"0\"}"), "\(json)")
        // Declared values that are the start are not written again.
        #expect(!json.contains("\"declared\""), "\(json)")
        let module = webModule(export)
        #expect(module.contains("\"relative\":1") && module.hasSuffix(WebFiles.moduleRelativeJS))
    }

    /// `--after show` plays `(show ; hide) played from |show|`: `played`
    /// closes its operand (docs/semantics.md §8.5), so nothing follows the page: y
    /// runs 16 → 40 and opacity 1 → 0, unmarked.
    @Test func afterNameBakesTheStart() throws {
        let export = try Self.export(Self.toast, binding: "hide", after: "show")
        let y = try #require(Self.channel(export, "toast.y").animations.first?.keyframes)
        #expect(y.map { cssValue($0.value) } == ["16", "40"] && y.allSatisfy { $0.relative == 0 })
        #expect(!waapiJSON(export).contains("\"relative\""))
    }

    /// The dial: `quarter ^ 4` (`by 90`, then a hold) keeps every keyframe at
    /// weight 1 (c, c + 90, …, c + 360); `to 0 with ease-in-out-cubic` is two
    /// CSS curves through the middle of the range, c + (0 − c)/2 = c/2
    /// (weight ½), and ends at 0 (weight 0).
    @Test func aToTweenSplitAtItsMiddleCarriesHalfItsStart() throws {
        let text = """
            view dial rotation 0
            let quarter = rotate dial by 90 in 0.5s with ease-out-back ; wait 0.25s
            let final = quarter ^ 4 ; rotate dial to 0 in 1s with ease-in-out-cubic

            """
        let export = try Self.export(text)
        let keys = try #require(Self.channel(export, "dial.rotation").animations.first?.keyframes)
        try #require(keys.count == 11, "\(keys.map { cssValue($0.value) })")
        #expect(keys.prefix(9).allSatisfy { $0.relative == 1 })
        #expect(keys.suffix(2).map(\.relative) == [0.5, 0] && keys.suffix(2).map { cssValue($0.value) } == ["180", "0"])
    }

    /// A colour `to` tween starts from the element's colour (weight 1) and
    /// ends on its own (weight 0).
    @Test func aColourToTweenStartsFromTheElementsColour() throws {
        let export = try Self.export("view lamp color #3a64d8\nlet final = color lamp to gold in 1s\n")
        let keys = try #require(Self.channel(export, "lamp.color").animations.first?.keyframes)
        #expect(keys.first?.relative == 1 && keys.last?.relative == 0, "\(keys.map(\.relative))")
    }

    /// Without relative tweens nothing is marked, and the JSON carries a
    /// declared value only where it is not the start: `view card x 40`, then
    /// a jump to 0 at 0 (`from 0`), so `cancel()` has 40 to return to.
    @Test func absoluteTweensStayAsTheyAre() throws {
        let export = try Self.export("view card x 40 y 5\nlet final = animate card.x from 0 to 10 in 1s || animate card.y from 5 to 9 in 1s\n")
        #expect(export.columns.allSatisfy { $0.animations.allSatisfy { $0.keyframes.allSatisfy { $0.relative == 0 } } })
        let json = waapiJSON(export)
        #expect(!json.contains("\"relative\"") && webModule(export).hasSuffix(WebFiles.moduleAbsoluteJS))
        #expect(json.contains("\"property\":\"card.x\",\"variable\":\"--animc-x\",\"kind\":\"number\",\"start\":\"0\",\"declared\":\"40\"}"), "\(json)")
        #expect(json.contains("\"property\":\"card.y\",\"variable\":\"--animc-y\",\"kind\":\"number\",\"start\":\"5\"}"), "\(json)")
    }

    /// The law the marks rest on: the export from declared value `a`, its
    /// marked keyframes moved to `b` (`value + W × (b − a)`), is the export
    /// from declared value `b`, keyframe by keyframe — for `by` chains,
    /// `to` tweens, curves split into pieces, holds and repetitions.
    @Test(arguments: [
        "let final = animate v.x by 30 in 1s with ease-in-out ; animate v.x by -5 in 0.5s",
        "let final = animate v.x to 100 in 1s with ease-out-elastic",
        "let final = (animate v.x by 10 in 0.25s with ease-out-back ; wait 0.25s) ^ 3 ; animate v.x to 0 in 1s with ease-in-out-sine",
        "let final = animate v.x to 50 in 1s with ease-in-out-cubic ; animate v.x by 5 in 1s",
    ])
    func markedKeyframesMovedToAStartAreTheExportFromThatStart(_ line: String) throws {
        let from = try Self.export("view v x 3\n" + line + "\n")
        let to = try Self.export("view v x 10\n" + line + "\n")
        let moved = try Self.channel(from, "v.x").animations, direct = try Self.channel(to, "v.x").animations
        try #require(moved.count == direct.count)
        #expect(moved.contains { $0.keyframes.contains { $0.relative != 0 } })
        // Each export writes its values within 1e-8 of the animation's range (docs/exports.md §7,
        // `Digits`), after the marks are read: the two may differ by both roundings.
        func range(_ animation: WebExport.Animation) -> Double {
            let numbers = animation.keyframes.compactMap(\.value.number)
            return (numbers.max() ?? 0) - (numbers.min() ?? 0)
        }
        for (a, b) in zip(moved, direct) {
            try #require(a.keyframes.count == b.keyframes.count)
            let rounding = 1e-8 * (range(a) + range(b))
            for (p, q) in zip(a.keyframes, b.keyframes) {
                guard case .number(let x) = p.value, case .number(let y) = q.value else { Issue.record("not numbers"); continue }
                #expect(abs(x + p.relative * 7 - y) <= rounding + 1e-9 * max(1, abs(y)), "\(line): \(x) + \(p.relative) × 7 != \(y)")
                #expect(p.offset == q.offset && p.easing == q.easing)
            }
        }
    }
}
