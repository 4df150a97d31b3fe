import Testing
import AnimLang
@testable import AnimOutputs

/// The one table of export targets that `--to` and its help read.
struct ExportTargetTests {
    @Test func targetsHaveDistinctNamesAndAreFoundByThem() {
        let names = ExportTarget.all.map(\.name)
        #expect(names == ["html", "css", "waapi", "js", "lottie", "svg"])
        for target in ExportTarget.all { #expect(ExportTarget.named(target.name) === target) }
        #expect(ExportTarget.named("gif") == nil)
        #expect(ExportTarget.help.hasPrefix("html: a page that plays it; css: a stylesheet; waapi: Web Animations JSON; "))
    }

    /// Which options each target refuses (the table `export` enforces):
    /// only Lottie keys frames (`--fps`); web exports name things
    /// (`--prefix`), and those with their own stage choose no elements; only
    /// the module imports a player (`--runtime`).
    @Test func refusals() {
        let expected: [String: [ExportOption]] = [
            "html": [.fps, .selector, .runtime], "css": [.fps, .runtime], "waapi": [.fps, .runtime], "js": [.fps],
            "lottie": [.prefix, .selector, .runtime], "svg": [.fps, .selector, .runtime],
        ]
        for target in ExportTarget.all {
            #expect(ExportOption.allCases.filter { target.refusal(of: $0) != nil } == expected[target.name], "\(target.name)")
        }
    }

    @Test func everyTargetWritesTheTalk() {
        let outcome = run(SourceFile(name: "t.anim", text: "view v\nlet a = animate v.x from 0 to 10 in 1s\n"), binding: nil)
        for target in ExportTarget.all {
            let (bytes, diagnostics) = target.write(ExportRequest(outcome: outcome, source: "t.anim"))
            #expect(bytes?.isEmpty == false && !diagnostics.contains { $0.severity == .error }, "\(target.name)")
        }
    }
}
