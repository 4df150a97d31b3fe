import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Every file in `examples/`, evaluated as `animc eval` would print it (a
/// `# eval: --at …` or `# eval: --fps …` line in the file chooses the rows),
/// against the stored output in `Golden/examples/NAME.txt`.
struct ExampleTests {
    static let examples: [String] = {
        let directory = packageRoot.appendingPathComponent("examples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".anim") }.sorted()
    }()

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

/// Options an example asks for in a `# eval: ...` line (`--at`, `--fps`,
/// `--binding`, `--until`; times in seconds, `--until` with an optional `s`).
struct EvalOptions {
    var arguments = ""
    var binding: String?
    var fps: Int64 = 10
    var times: [Time]?
    /// `--until T` (seconds, with an optional `s`): an animation that repeats forever needs it.
    var until: Time?

    init(directiveIn text: String) {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("# eval:") }) else { return }
        arguments = line.dropFirst("# eval:".count).trimmingCharacters(in: .whitespaces)
        var words = arguments.split(separator: " ")[...]
        while let word = words.popFirst() {
            switch word {
            case "--at":
                times = words.popFirst()?.split(separator: ",").compactMap { Time(decimal: $0) }
            case "--fps":
                fps = words.popFirst().flatMap { Int64($0) } ?? 10
            case "--until":
                until = words.popFirst().flatMap { Time(decimal: $0.hasSuffix("s") ? $0.dropLast() : $0) }
            case "--binding":
                binding = words.popFirst().map(String.init)
            default:
                break
            }
        }
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
