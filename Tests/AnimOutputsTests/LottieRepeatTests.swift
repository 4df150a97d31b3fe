import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Lottie's size follows the structure (docs/exports.md §7): a repetition is
/// drawn from one copy through a time-remapped precomposition, two remap
/// keyframes a copy, so `bytes(x ^ n) ≤ bytes(x) + 100 bytes × n`; the
/// reference player shows what the sampler says through the remap; and a
/// whole-turn spin that repeats forever loops.
struct LottieRepeatTests {
    /// The talk's ease-in-out down and back up: two tweens, both baked.
    static let bob = """
        view dot radius 10 color #3a64d8
        let bob = move dot from (0, 0) to (0, -40) in 400ms with ease-in-out ; move dot from (0, -40) to (0, 0) in 400ms with ease-in-out

        """

    static func bytes(_ text: String, binding: String) throws -> Int {
        let outcome = run(SourceFile(name: "r.anim", text: text + "let chosen = \(binding)\n"))
        let export = exportLottie(outcome, fps: 60)
        return try #require(export.bytes).count
    }

    /// Copy k of n adds two remap keyframes (`{"t":…,"s":[…],"h":1}` and a
    /// linear one), under 100 bytes; the asset holds one copy, so the base is
    /// `bytes(x)` and a few hundred bytes of precomposition.
    @Test(arguments: [10, 100, 1000])
    func theBobRepeatedCostsUnderAHundredBytesACopy(count: Int) throws {
        let one = try Self.bytes(Self.bob, binding: "bob")
        let many = try Self.bytes(Self.bob, binding: "bob ^ \(count)")
        #expect(many <= one + 100 * count, "bob \(one) bytes, bob ^ \(count) \(many)")
    }

    /// Three examples whose views repeat alike (no relative tweens, no events: a
    /// marker is written per firing, and a copy that starts from where the last
    /// one left a `by` tween is not a copy of it).
    @Test(arguments: ["talk", "color-pulse", "card-flip"])
    func examplesRepeatedAThousandTimes(name: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent("examples/\(name).anim"), encoding: .utf8) + "\n"
        let one = try Self.bytes(text, binding: "final")
        let many = try Self.bytes(text, binding: "final ^ 1000")
        #expect(many <= one + 100 * 1000, "\(name) \(one) bytes, ^ 1000 \(many)")
    }

    /// Through the remap the reference player shows what the sampler says at
    /// every check frame, a jump at each copy's start included (more than
    /// ``LottieExport/listedRepetition`` segments, or the copies are written out).
    @Test(arguments: ["bob ^ 7", "(animate dot.x from 0 to 90 in 0.25s with steps(3)) ^ 12 ; move dot by (10, 10) in 0.5s",
                      "fadeIn dot in 0.2s ; (scale dot from 1 to 2 in 0.3s with ease-in-out-sine) ^ 10"])
    func aRemappedExportPlaysAsTheSamplerSays(binding: String) throws {
        let outcome = run(SourceFile(name: "r.anim", text: Self.bob + "let chosen = \(binding)\n"))
        let export = exportLottie(outcome, fps: 30)
        let document = try #require(LottieExportTests.document(export))
        let layers = try #require(document["layers"] as? [[String: Any]])
        #expect(layers.contains { $0["ty"] as? Double == 0 }, "drawn through a time remap")
        let frames = try #require(document["op"] as? Double)
        #expect(LottieExportTests.structuralProblems(document, fps: 30, frames: Int(frames)).isEmpty)
        let problems = LottieExportTests.disagreements(export, try outcome.compiledScene(), initial: outcome.initial, fps: 30)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    /// `by 1 turns` repeated forever settles visually (360° looks like 0°): one
    /// 0.8 s round from 0 to 360 that players loop, where it was refused.
    @Test func aWholeTurnSpinForeverIsALoop() throws {
        let (outcome, export) = ForeverExportTests.lottie("view spin size 40\nlet final = (rotate spin by 1 turns in 800ms) repeated forever\n")
        #expect(export.diagnostics.map(\.id) == ["export-loops"], "\(export.diagnostics)")
        let document = try #require(LottieExportTests.document(export))
        #expect(document["op"] as? Double == 48)
        let keys = try #require(LottieExportTests.keyframes(export, layer: "spin") { ($0["ks"] as? [String: Any])?["r"] })
        #expect(keys.compactMap { ($0["s"] as? [Double])?.first } == [0, 360])
        _ = outcome
    }
}
