import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Every file in `examples/`, evaluated as `animc eval` would print it (a
/// `# eval: --at …` or `# eval: --fps …` line in the file chooses the rows),
/// against the stored output in `Golden/examples/NAME.txt`.
struct ExampleTests {
    static let examples = exampleFiles

    @Test func thereAreExamples() {
        #expect(ExampleTests.examples.count >= 10)
        #expect(ExampleTests.examples.contains("talk.anim"))
        #expect(ExampleTests.examples.contains("talk-semiring.anim"))
    }

    @Test(arguments: examples)
    func exampleMatchesItsGoldenTable(_ name: String) throws {
        let path = "examples/" + name
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let file = SourceFile(name: path, text: text)
        let options = EvalOptions(directiveIn: text)
        let result = evaluateToText(file, binding: options.binding, fps: options.fps, at: options.times, until: options.until,
                                    format: .table)
        #expect(result.succeeded, "\(path) failed:\n\(result.diagnostics)")
        var transcript = "$ animc eval \(path)\(options.arguments.isEmpty ? "" : " " + options.arguments) --format table\n"
        transcript += result.diagnostics + result.output
        expectMatchesGolden(transcript, "examples/\(name.dropLast(5)).txt")
    }

    /// Both talks' programs, also as lossless CSV.
    @Test(arguments: ["talk.anim", "talk-semiring.anim"])
    func talkProgramsAsCSV(_ name: String) throws {
        let path = "examples/" + name
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let result = evaluateToText(SourceFile(name: path, text: text), fps: 10, format: .csv)
        #expect(result.succeeded)
        expectMatchesGolden(result.output, "examples/\(name.dropLast(5)).csv")
    }
}

/// The normal form and the timeline of every example, as `animc normalize`
/// and `animc timeline` print them.
struct ExampleNormalFormTests {
    @Test(arguments: ExampleTests.examples)
    func normalFormMatchesItsGolden(_ name: String) throws {
        let path = "examples/" + name
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let outcome = run(SourceFile(name: path, text: text))
        let normal = try normalize(outcome)
        let printed = format(normal.program)
        expectMatchesGolden("$ animc normalize \(path)\n" + printed, "normalize/\(name.dropLast(5)).txt")
        // The normal form is itself a program with the same table.
        let again = run(SourceFile(name: "normal.anim", text: printed))
        #expect(!again.hasErrors, "\(render(again.diagnostics, in: SourceFile(name: "normal.anim", text: printed)))")
        #expect(format(try normalize(again).program) == printed, "normalizing \(name) twice changed it")
    }

    @Test(arguments: ExampleTests.examples)
    func timelineMatchesItsGolden(_ name: String) throws {
        let path = "examples/" + name
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let outcome = run(SourceFile(name: path, text: text))
        _ = try #require(outcome.scene)
        let body = try outcome.compiledScene().map { timelineText($0) } ?? "cancelled\n"
        expectMatchesGolden("$ animc timeline \(path)\n" + body, "timeline/\(name.dropLast(5)).txt")
    }
}
