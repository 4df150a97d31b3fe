import Foundation
import Testing

/// The Linux example of the embedding API (`Sources/animc-embed-example`),
/// built with the tests and run as a user runs it: a `.anim` file loaded at
/// run time and played from a manual clock, four frames a second.
struct EmbedExampleTests {
    static let binary = MalformedCLITests.binary.deletingLastPathComponent().appendingPathComponent("animc-embed-example")

    static func example(_ arguments: [String]) throws -> MalformedCLITests.Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = MalformedCLITests.root
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Small outputs: read to the end, then wait.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return .init(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                     errors: String(decoding: err, as: UTF8.self))
    }

    /// The ball of examples/landing-events.anim, by hand: it falls 300 px in
    /// 0.5 s (ease-in-quad: 300·p², 75 at 0.25), lands, then bounces twice
    /// (up to 220 in 0.2 s with ease-out-quad, down with ease-in-quad):
    /// 0.75 is a quarter into the first fall back (220 + 80·1/16 = 225), 1.0
    /// halfway up the second bounce (300 − 80·3/4 = 240), 1.25 three quarters
    /// down (220 + 80·9/16 = 265); it lands at 0.9 and at 1.3, the end, where
    /// it settles. The last frame is the end, 1.3 s.
    @Test func playsAFileFromAManualClock() throws {
        let result = try Self.example(["examples/landing-events.anim"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        #expect(result.output == """
            playing `final` of examples/landing-events.anim for 1.3s
            0s  ball.y=0
            0.25s  ball.y=75
            0.5s  ball.y=300  events: landed
            0.75s  ball.y=225
            1s  ball.y=240  events: landed
            1.25s  ball.y=265
            1.3s  ball.y=300  events: landed settled

            """)
        // docs/embedding.md shows this run as it prints.
        let readme = try String(contentsOf: MalformedCLITests.root.appendingPathComponent("docs/embedding.md"), encoding: .utf8)
        #expect(readme.contains("$ swift run animc-embed-example examples/landing-events.anim\n" + result.output + "```"))
    }

    /// examples/spinner.anim repeats forever: the example plays 3 s of it.
    /// `lap` fires at the start of each 1.5 s turn (0, 1.5, 3), and the
    /// square turns 60° every quarter second.
    @Test func playsAnEndlessAnimationToAnEnd() throws {
        let result = try Self.example(["examples/spinner.anim"])
        #expect(result.status == 0, "\(result.errors)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "playing `final` of examples/spinner.anim for 3s")
        #expect(lines.count == 1 + 13)   // 0, 0.25, …, 3
        #expect(lines.filter { $0.hasSuffix("events: lap") }.map { $0.prefix { $0 != " " } } == ["0s", "1.5s", "3s"])
        let rotations = lines.dropFirst().compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("spinner.rotation=") }.map { String($0.dropFirst("spinner.rotation=".count)) }
        }
        #expect(rotations == ["0", "60", "120", "180", "240", "300", "0", "60", "120", "180", "240", "300", "0"])
    }

    @Test func aBrokenFileSaysWhereAndExitsOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("embed-\(UUID().uuidString).anim").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("let a = fadeIn x with ease-inout\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try Self.example([path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix("\(path):1:23: error: unknown easing `ease-inout`\n"))
        #expect(result.errors.contains("^~~~~~~~~~"))
        let missing = try Self.example(["no/such/file.anim"])
        #expect(missing.status == 1)
        #expect(missing.errors == "no/such/file.anim: error: cannot read no/such/file.anim: No such file or directory\n")
    }
}
