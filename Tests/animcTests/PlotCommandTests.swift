import Foundation
import Testing

/// `animc plot FILE`: where it writes, what it refuses, and its help.
struct PlotCommandTests {
    typealias Result = MalformedCLITests.Result

    func animc(_ arguments: [String], input: String? = nil) throws -> Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    @Test func writesAnSVGToStandardOutputOrAFile() throws {
        let piped = try animc(["plot", "-"], input: "let a = animate v.x from 0 to 10 ; emit done\n")
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(piped.errors.isEmpty)
        #expect(piped.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(piped.output.hasSuffix("</svg>\n"))
        #expect(piped.output.contains(">a — &lt;stdin&gt;</text>"))
        #expect(piped.output.contains(">v.x</text>") && piped.output.contains(">done</text>"))

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("animc-plot-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try animc(["plot", "examples/talk.anim", "-o", path, "--binding", "left"])
        #expect(written.status == 0)
        #expect(written.output.isEmpty)
        #expect(written.errors.contains("warning: `2*pi` degrees"))
        let file = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        #expect(file.contains(">left — examples/talk.anim</text>"))
        #expect(file.contains(">circle.radius</text>") && !file.contains(">square.rotation</text>"))
    }

    @Test func anEndlessAnimationNeedsUntil() throws {
        let source = "let spin = animate wheel.rotation from 0 to 360 in 1s repeated forever\n"
        let refused = try animc(["plot", "-"], input: source)
        #expect(refused.status == 1)
        #expect(refused.output.isEmpty)
        #expect(refused.errors.hasPrefix("<stdin>:1:5: error: `spin` repeats forever: choose where the plot ends with --until\n"))
        #expect(refused.errors.contains("hint: plot its first 5 seconds with --until 5s"))
        let plotted = try animc(["plot", "-", "--until", "2.5s"], input: source)
        #expect(plotted.status == 0)
        #expect(plotted.output.contains("repeats forever; plotted to 2.5 s"))
    }

    @Test func aCancelledAnimationIsAPictureSayingSo() throws {
        let result = try animc(["plot", "examples/cancelled.anim"])
        #expect(result.status == 0)
        #expect(result.output.contains(">`final` is cancelled: it has no frames</text>"))
    }

    @Test func usageErrors() throws {
        let negative = try animc(["plot", "examples/talk.anim", "--until", "-1"])
        #expect(negative.status == 2)
        #expect(negative.errors.hasPrefix("animc: error: --until takes a time of 0 or more, not `-1`\n"))
        #expect(negative.errors.hasSuffix("usage: animc plot FILE [--binding NAME] [--after NAME] [--until T] [-o OUT]\n"))
        let fps = try animc(["plot", "examples/talk.anim", "--fps", "4"])
        #expect(fps.status == 2)
        #expect(fps.errors.hasPrefix("animc: error: plot does not take --fps"))
        let unwritable = try animc(["plot", "examples/talk.anim", "-o", "no/such/dir/out.svg"])
        #expect(unwritable.status == 1)
        #expect(unwritable.errors.hasSuffix("animc: error: cannot write no/such/dir/out.svg: No such file or directory\n"))
        let binding = try animc(["plot", "examples/laws.anim", "--binding", "nope"])
        #expect(binding.status == 2)
        #expect(binding.errors.contains("no binding named `nope`"))
    }

    @Test func helpComesFromTheTable() throws {
        let help = try animc(["plot", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: animc plot FILE [--binding NAME] [--after NAME] [--until T] [-o OUT]\n"))
        #expect(help.output.contains("  --until T  ") && help.output.contains("  -o, --output OUT  "))
        let overview = try animc(["--help"])
        #expect(overview.output.contains("  plot FILE          Draw every property over time as an SVG picture.\n"))
    }
}
