import Foundation
import Testing

/// The malformed corpus (`Tests/AnimLangTests/Golden/malformed/`) and deep
/// inputs, through the built `animc` binary: every mistake exits 1 with
/// `FILE:LINE:COL: error: …`, a source line and a caret; nothing crashes.
struct MalformedCLITests {
    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    static let binary: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return bundle.appendingPathComponent("animc")
    }()

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = "Tests/AnimLangTests/Golden/malformed"

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(corpus).path)) ?? []
        return names.filter { $0.hasSuffix(".anim") }.sorted()
    }()

    /// Runs animc with its standard streams in temporary files (large outputs
    /// cannot fill a pipe and block it).
    static func animc(_ arguments: [String], input: Data? = nil) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("animc-malformed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inURL = directory.appendingPathComponent("in"), outURL = directory.appendingPathComponent("out"),
            errURL = directory.appendingPathComponent("err")
        try (input ?? Data()).write(to: inURL)
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      errors: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// The `LINE:COL` of each `# expect:` line at the top of a corpus file.
    static func expectedLocations(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: root.appendingPathComponent(path))
        var locations: [String] = []
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("# expect: ") else { break }
            if let location = text.dropFirst("# expect: ".count).split(separator: " ").first {
                locations.append(String(location))
            }
        }
        return locations
    }

    @Test func corpusIsThere() {
        #expect(Self.files.count >= 40)
    }

    @Test(arguments: files)
    func checkExitsOneWithLocatedErrors(_ name: String) throws {
        let path = "\(Self.corpus)/\(name)"
        let expected = try Self.expectedLocations(path)
        let result = try Self.animc(["check", path])
        #expect(result.status == 1, "\(result.errors)")
        #expect(result.output.isEmpty)
        for location in expected {
            #expect(result.errors.contains("\(path):\(location): error: "), "\(result.errors)")
        }
        // Exactly one `error:` line per expected error.
        let reported = result.errors.split(separator: "\n").filter { $0.hasPrefix("\(path):") && $0.contains(": error: ") }
        #expect(reported.count == expected.count, "\(result.errors)")
        #expect(result.errors.contains(" | "))
        #expect(result.errors.contains("^"))
    }

    @Test(arguments: files)
    func evalExitsOneToo(_ name: String) throws {
        let result = try Self.animc(["eval", "\(Self.corpus)/\(name)", "--format", "csv"])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains(": error: "))
    }

    @Test func hundredThousandNestedParenthesesFromStandardInput() throws {
        let depth = 100_000
        let source = "let a = " + String(repeating: "(", count: depth) + "fadeIn v" + String(repeating: ")", count: depth) + "\n"
        let result = try Self.animc(["check", "-"], input: Data(source.utf8))
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("<stdin>:1:265: error: expressions nest more than 256 levels deep"))
    }

    @Test func hundredThousandStepChainEvaluates() throws {
        let source = "let x = fadeIn v\nlet a = x\nlet b = a" + String(repeating: " ; a", count: 99_999) + "\n"
        let result = try Self.animc(["eval", "-", "--at", "0.5,99999.5,100000"], input: Data(source.utf8))
        #expect(result.status == 0)
        #expect(result.output == "time,v.opacity\n0.5,0.5\n99999.5,0.5\n100000,1\n")
    }

    @Test func randomBytesExitOne() throws {
        var state: UInt64 = 42
        var bytes = Data()
        for _ in 0..<(1 << 18) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 56))
        }
        let result = try Self.animc(["check", "-"], input: bytes)
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("<stdin>:"))
        #expect(result.errors.split(separator: "\n").filter { $0.hasPrefix("<stdin>:") }.count <= 100)
    }

    @Test func tooManyRowsIsAnErrorNotAnExhaustion() throws {
        let result = try Self.animc(["eval", "-", "--fps", "1000000"], input: Data("let a = wait 1000 ; fadeIn v\n".utf8))
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("more than 1000000 rows"))
        let huge = try Self.animc(["eval", "-"], input: Data("let a = fadeIn v ^ 9223372036854775807\n".utf8))
        #expect(huge.status == 1)
        #expect(huge.errors.contains("rows"))
        let sampled = try Self.animc(["eval", "-", "--at", "0.5,9223372036854775807"],
                                     input: Data("let a = fadeIn v ^ 9223372036854775807\n".utf8))
        #expect(sampled.status == 0)
        #expect(sampled.output == "time,v.opacity\n0.5,0.5\n9223372036854775807,1\n")
    }

    @Test func exitStatusesAreDocumented() throws {
        let help = try Self.animc(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("0  success"))
        #expect(help.output.contains("1  errors in the script, or the file could not be read"))
        #expect(help.output.contains("2  bad command-line usage"))
        #expect(try Self.animc(["check", "examples/talk.anim"]).status == 0)
        #expect(try Self.animc(["check", "\(Self.corpus)/no-binding.anim"]).status == 1)
        #expect(try Self.animc(["check", "no/such/file.anim"]).status == 1)
        #expect(try Self.animc(["check"]).status == 2)
        #expect(try Self.animc(["check", "a.anim", "--fps", "3"]).status == 2)
    }
}
