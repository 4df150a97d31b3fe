import Foundation
import Testing
@testable import AnimLang
@testable import AnimOutputs

/// The corpus of malformed programs in `Golden/malformed/`: each file starts
/// with its expected errors, one line each, in source order,
///
/// ```
/// # expect: 5:20 unknown-name "no animation named `b`"
/// # expect: 6:14 unknown-name "did you mean `right`?"
/// ```
///
/// (`LINE:COL ID`, then optionally a fragment of the message or hint in double
/// quotes), and `run` must report exactly those errors — no more, no fewer,
/// none unlocated. Warnings are not counted.
struct MalformedCorpusTests {
    struct Expectation: Equatable, CustomStringConvertible {
        var location: String
        var id: String
        var fragment: String?
        var description: String { "\(location) \(id)" + (fragment.map { " \"\($0)\"" } ?? "") }
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden").appendingPathComponent("malformed")

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".anim") }.sorted()
    }()

    static func load(_ name: String) throws -> SourceFile {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return SourceFile(name: name, bytes: Array(data))
    }

    /// The `# expect:` lines at the top of a file.
    static func expectations(in file: SourceFile) -> [Expectation] {
        var result: [Expectation] = []
        for line in file.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("# expect: ") else { break }
            var rest = text.dropFirst("# expect: ".count)
            var fragment: String?
            if let quote = rest.firstIndex(of: "\""), rest.last == "\"" {
                fragment = String(rest[rest.index(after: quote)..<rest.index(before: rest.endIndex)])
                rest = rest[..<quote]
            }
            let words = rest.split(separator: " ")
            guard words.count == 2 else { continue }
            result.append(Expectation(location: String(words[0]), id: String(words[1]), fragment: fragment))
        }
        return result
    }

    @Test func corpusIsLargeAndEveryFileExpectsSomething() throws {
        #expect(Self.files.count >= 40)
        for name in Self.files {
            let file = try Self.load(name)
            #expect(!Self.expectations(in: file).isEmpty, "\(name) has no `# expect:` line")
        }
    }

    @Test(arguments: files)
    func reportsExactlyTheExpectedErrors(_ name: String) throws {
        let file = try Self.load(name)
        let expected = Self.expectations(in: file)
        let outcome = run(file)
        let failed = outcome.hasErrors, noScene = outcome.scene == nil
        #expect(failed)
        #expect(noScene)
        let errors = outcome.diagnostics.filter { $0.severity == .error }
        let actual = errors.map { "\(file.location(of: $0.range.start)) \($0.id)" }
        #expect(actual == expected.map { "\($0.location) \($0.id)" },
                "\(name):\n\(render(outcome.diagnostics, in: file))")
        for (expectation, diagnostic) in zip(expected, errors) {
            guard let fragment = expectation.fragment else { continue }
            let said = diagnostic.message + "\n" + (diagnostic.hint ?? "")
                + diagnostic.notes.map { "\n" + $0.message }.joined()
            #expect(said.contains(fragment), "\(name) \(expectation): \(said)")
        }
        // Rendered, every error is `FILE:LINE:COL: error: …`, its line and a caret.
        let rendered = render(outcome.diagnostics, in: file)
        for expectation in expected {
            #expect(rendered.contains("\(name):\(expectation.location): error: "))
        }
        #expect(rendered.components(separatedBy: "^").count - 1 >= errors.count)
    }
}
