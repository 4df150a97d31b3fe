import Foundation
import Testing
import AnimTestSupport
@testable import AnimOutputs

/// The web files (Sources/AnimOutputs/Web) reach the outputs as they are
/// written (the WebFiles plugin), and every script in them, in each of its
/// variants, is JavaScript `node --check` accepts when node is installed.
struct WebFilesTests {
    static let directory = packageRoot.appendingPathComponent("Sources/AnimOutputs/Web")

    static func file(_ name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }

    @Test func filesWithoutVariantsAreTakenAsTheyAre() throws {
        #expect(WebFiles.pageCSS == (try Self.file("page.css")))
        #expect(WebFiles.controlsHTML == (try Self.file("controls.html")))
        #expect(WebFiles.liveElementsHTML == (try Self.file("live-elements.html")))
        #expect(WebFiles.liveJS == (try Self.file("live.js")))
        #expect(WebFiles.passingEventsJS == (try Self.file("passing-events.js")))
        // The module includes the passing events where it says so.
        #expect(WebFiles.moduleJS == (try Self.file("module.js")).replacingOccurrences(of: "/*include:passing-events.js*/", with: WebFiles.passingEventsJS))
    }

    @Test func thePlayerScriptHasTwoVariants() throws {
        let raw = try Self.file("player.js").replacingOccurrences(of: "/*include:passing-events.js*/", with: WebFiles.passingEventsJS)
        let exported = WebFiles.playerJS(live: false), live = WebFiles.playerJS(live: true)
        #expect(exported.hasPrefix("\"use strict\";\n(() => {\n") && exported.hasSuffix("\n})();\n"))
        #expect(live.hasPrefix("\"use strict\";\nfunction animcPlayer(EXPORT, DRAWN, LIVE) {\n") && live.hasSuffix("\n}\n"))
        #expect(!exported.contains("LIVE") && !exported.contains("/*live:") && !live.contains("/*static{*/"))
        // Read as it is, the file is the exported script with comments: drop them and it is that script.
        var stripped = raw
        while let start = stripped.range(of: "/*live:"), let end = stripped.range(of: "*/", range: start.upperBound..<stripped.endIndex) {
            stripped.removeSubrange(start.lowerBound..<end.upperBound)
        }
        #expect(stripped.replacingOccurrences(of: "/*static{*/", with: "").replacingOccurrences(of: "/*}*/", with: "") == exported)
    }

    /// `node` from PATH, if any.
    static var node: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/node" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func nodeAccepts(_ script: String, module: Bool) throws -> (Bool, String) {
        guard let node = node else { return (true, "") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = module ? ["--input-type=module", "--check"] : ["--check", "-"]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus == 0, message)
    }

    @Test func everyScriptIsJavaScript() throws {
        // The generated module begins with `const EXPORT = …;`, which the file leaves to its writer.
        let scripts: [(String, String, Bool)] = [
            ("player.js (exported)", WebFiles.playerJS(live: false), false),
            ("player.js (live)", WebFiles.playerJS(live: true), false),
            ("live.js", WebFiles.liveJS, false),
            ("passing-events.js", WebFiles.passingEventsJS, false),
            ("module.js", "const EXPORT = {};\n" + WebFiles.moduleJS + WebFiles.moduleAbsoluteJS, true),
            ("module.js with module-relative.js", "const EXPORT = {};\n" + WebFiles.moduleJS + WebFiles.moduleRelativeJS, true),
            ("player.js (file)", try Self.file("player.js"), false),
        ]
        for (name, script, module) in scripts {
            let (accepted, message) = try Self.nodeAccepts(script, module: module)
            #expect(accepted, "\(name): \(message)")
        }
        let (rejected, _) = try Self.nodeAccepts("const x = ;\n", module: false)
        #expect(Self.node == nil || !rejected)
    }
}
