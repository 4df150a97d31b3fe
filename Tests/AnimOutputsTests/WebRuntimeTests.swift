import Foundation
import Testing
import AnimTestSupport
import AnimLang
@testable import AnimOutputs

/// `--to js --runtime PATH` and `animc runtime` (docs/exports.md §6, "A
/// module for scripts"): a module that imports its player from PATH holds
/// its JSON and nothing of the player; the runtime exports what such a
/// module imports, and is the self-contained module's own script. That the
/// two play alike in a browser is checked in Chromium (checks/web_options.py,
/// `check_shared_runtime`); here, that node loads them and they agree on
/// `duration`.
struct WebRuntimeTests {
    static func export(_ path: String, binding: String? = nil) throws -> WebExport {
        try WebExportTests.export(path, binding: binding)
    }

    static let path = "./animc-runtime.js"

    /// The module of `--runtime`: the self-contained module's opening comment
    /// and JSON, an import of PATH, one line that exports what the runtime
    /// makes of the JSON; none of module.js, passing-events.js or the
    /// relative path's script.
    @Test(arguments: ["examples/toast.anim", "examples/button-press.anim", "examples/spinner.anim", "examples/cancelled.anim"])
    func theSharedModuleImportsThePathAndHoldsNoPlayer(_ example: String) throws {
        let export = try Self.export(example)
        let shared = webModule(export, runtime: Self.path), whole = webModule(export)
        let json = "\nconst EXPORT = " + waapiJSON(export).dropLast() + ";\n\n"
        #expect(shared.contains("\nimport { animcModule } from \"./animc-runtime.js\";\n" + json))
        #expect(shared.hasSuffix(json + "export const { duration, play } = animcModule(EXPORT);\n"))
        // The opening comment is the self-contained module's, its title and drawing rules; how to play it
        // (the import, `play`, the events) is said once, in the runtime's.
        let header = try #require(whole.range(of: json).map { String(whole[..<$0.lowerBound]) })
        let title = String(header.prefix { $0 != "\n" }) + "\n"
        let usage = try #require(header.range(of: "//\n//   import { duration, play }").map { start in
            String(header[start.lowerBound...]).components(separatedBy: "// The elements draw")[0] })
        #expect(shared.hasPrefix(title + "//\n// Its player is the module it imports (`animc runtime` writes it)"))
        #expect(!shared.contains(usage) && webRuntime.contains(usage) && usage.contains("emit NAME"))
        let rules = header.components(separatedBy: "// The elements draw").dropFirst().joined(separator: "// The elements draw")
        #expect(shared.contains("//\n" + (rules.isEmpty ? "" : "// The elements draw" + rules) + "\nimport { animcModule }"))
        for script in [WebFiles.moduleJS, WebFiles.passingEventsJS, WebFiles.moduleRelativeJS, WebFiles.moduleAbsoluteJS] {
            let line = try #require(script.split(separator: "\n").first { $0.count > 40 })
            #expect(!shared.contains(line), "\(line)")
        }
        #expect(!shared.contains("function "))
        // Smaller by the player: the whole module is the shared one's text with the player in place of two lines.
        #expect(whole.utf8.count - shared.utf8.count > WebFiles.moduleJS.utf8.count - 200)
    }

    /// PATH is written as a JavaScript string literal, whatever it holds.
    @Test func thePathIsQuotedAsJSON() throws {
        let export = try Self.export("examples/toast.anim")
        let odd = "./a \"b\"\\c\nd\u{2028}é.js"
        let shared = webModule(export, runtime: odd)
        #expect(shared.contains("\nimport { animcModule } from \"./a \\\"b\\\"\\\\c\\nd\\u2028é.js\";\n"), "\(shared)")
        let (accepted, message) = try WebFilesTests.nodeAccepts(shared, module: true)
        #expect(accepted, "\(message)")
    }

    /// The runtime: one export, `animcModule`, what every shared module
    /// imports; its body is module.js line for line (its two `export`s made
    /// local, indented), then the relative path (module-relative.js) as it is.
    @Test func theRuntimeExportsWhatModulesImportAndIsTheModulesOwnScript() throws {
        let shared = webModule(try Self.export("examples/toast.anim"), runtime: Self.path)
        let imported = try #require(shared.firstMatch(of: /\nimport \{ ([^}]*) \} from/)?.1)
        #expect(imported.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } == ["animcModule"])
        let exports = webRuntime.split(separator: "\n").filter { $0.hasPrefix("export ") }
        #expect(exports == ["export function animcModule(EXPORT) {"])
        let body = try #require(webRuntime.range(of: "export function animcModule(EXPORT) {\n")
                                    .flatMap { start in webRuntime.range(of: "  return { duration, play };\n}\n", range: start.upperBound..<webRuntime.endIndex)
                                        .map { String(webRuntime[start.upperBound..<$0.lowerBound]) } })
        let expected = WebFiles.moduleJS.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            line.isEmpty ? "" : "  " + (line.hasPrefix("export ") ? line.dropFirst(7) : line)
        }.joined(separator: "\n") + "\n"
        #expect(body == expected)
        #expect(body.contains("  const duration = ") && body.contains("  function play(root, options = {}) {"))
        #expect(webRuntime.hasSuffix("  return { duration, play };\n}\n" + WebFiles.moduleRelativeJS))
        #expect(webRuntime.hasPrefix("// animc runtime: "))
        let (accepted, message) = try WebFilesTests.nodeAccepts(webRuntime, module: true)
        #expect(accepted, "\(message)")
    }

    /// What users read: the module of the toast (its `to`/`by` tweens
    /// relative) under `--runtime ./animc-runtime.js`, and the runtime.
    @Test func theSharedModuleAndTheRuntimeMatchTheirGoldens() throws {
        expectMatchesGolden(webModule(try Self.export("examples/toast.anim"), runtime: Self.path), "web/toast-shared.js")
        expectMatchesGolden(webRuntime, "web/animc-runtime.js")
    }

    /// Node loads a shared module with its runtime, next to the self-contained
    /// module of the same export: both export the JSON's duration (Infinity
    /// for one that repeats forever) and a `play` function. Skipped without node.
    @Test func nodeLoadsTheSharedModuleAsTheSelfContainedOne() throws {
        guard let node = WebFilesTests.node else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("animc-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ text: String, _ name: String) throws {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try write(webRuntime, "animc-runtime.mjs")
        let examples = ["toast", "spinner", "landing-events"]
        var script = ""
        for example in examples {
            let export = try Self.export("examples/\(example).anim")
            try write(webModule(export, runtime: "./animc-runtime.mjs"), "\(example)-shared.mjs")
            try write(webModule(export), "\(example).mjs")
            script += "{ const a = await import(\"./\(example)-shared.mjs\"), b = await import(\"./\(example).mjs\");\n"
                + "  console.log(String(a.duration), String(b.duration), typeof a.play, typeof b.play); }\n"
        }
        try write(script, "main.mjs")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = [directory.appendingPathComponent("main.mjs").path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
        // toast: show 0.3 s, wait 1 s, hide 0.3 s; spinner repeats forever; landing-events: fall 0.5 s, then
        // the bounce (0.2 s + 0.2 s) twice.
        let expected = ["1.6", "Infinity", "1.3"].map { "\($0) \($0) function function" }
        #expect(printed.split(separator: "\n").map(String.init) == expected, "\(printed)")
    }
}
