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
                      "fadeIn dot in 0.2s ; (scale dot from 1 to 2 in 0.3s with ease-in-out-sine) ^ 10",
                      // Checked at 24 fps by checks/lottie.sh (long-006): the remapped clock read -2e-16 at a copy's
                      // first frame, where an asset layer starting at frame 0 was hidden.
                      "((animate dot.x from 0 to 90 in 1s with steps(3)) with ease-out-cubic) ^ 50"])
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

    /// A jump inside a remapped asset leads by the scene's single-precision
    /// steps (0.0156 frames at frame 60,000), and the steep end of the curve
    /// before it is cut there, not squeezed into the shorter time (which put
    /// checks/lottie.sh's long-017 1e-4 off an ease-in-quart). The first
    /// copy's frames and the last copy's, through the reference player
    /// (the `move` keeps the outer repetition the remapped one).
    @Test func aLongRemapCutsTheCurveBeforeAJump() throws {
        let outcome = run(SourceFile(name: "r.anim", text: Self.bob + "let chosen = ((animate dot.x from 0 to 90 in 0.25s with ease-in-quart) ^ 3 || animate dot.y from 0 to 10 in 0.75s) ^ 1333\n"))
        let export = exportLottie(outcome, fps: 60)
        let last: Int64 = 59_985 - 45
        var frames: [(numerator: Int64, denominator: Int64)] = []
        for first in [Int64(0), last] {
            for frame in first..<(first + 45) {
                frames.append((numerator: frame * 10, denominator: 10))
                frames.append((numerator: frame * 10 + 9, denominator: 10))
            }
        }
        let problems = LottieExportTests.disagreements(export, try outcome.compiledScene(), initial: outcome.initial, fps: 60, only: frames)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    /// A jump of the remap goes a little early, so that a player computing in
    /// single precision lands in the new copy at its first frame: a tenth of a
    /// frame early at most, or twice those few steps where they are more (4
    /// steps at frame 131,220 are 0.0625 frames; rounded up to a power of ten of
    /// seconds, 1e-2 s, the lead was 0.6 frames, and checks/lottie.sh's
    /// long-017 showed the next copy at frame 179,819.5). Copies of 3 s start
    /// on whole frames at 60 fps.
    @Test func aRemapJumpLeadsByLittle() throws {
        let outcome = run(SourceFile(name: "r.anim", text: Self.bob + "let chosen = (animate dot.x from 0 to 90 in 3s with ease-in-quart) ^ 1000\n"))
        let export = exportLottie(outcome, fps: 60)
        let document = try #require(LottieExportTests.document(export))
        let remap = try #require((document["layers"] as? [[String: Any]])?.first { $0["tm"] != nil }?["tm"] as? [String: Any])
        let jumps = try #require(remap["k"] as? [[String: Any]]).filter { ($0["h"] as? NSNumber)?.doubleValue == 1 }
        #expect(jumps.count == 999)
        for jump in jumps {
            let frame = try #require((jump["t"] as? NSNumber)?.doubleValue)
            let lead = frame.rounded(.up) - frame
            #expect(lead > 0 && lead <= max(0.1, 2 * KeyframeBuilder.jumpLead(at: frame)), "a jump at frame \(frame)")
        }
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
