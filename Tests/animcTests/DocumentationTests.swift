import Foundation
import Testing

/// The project's documents are tested like its code (issue 37), as Rust's doc
/// tests and Python's doctest do:
///
/// * every `$ animc …` line inside a fenced block of README.md, grammar.md
///   or docs/*.md is run against the built binary, from the repository's
///   root, and what it prints (standard error, then standard output) must be
///   the lines under it, up to the next `$ ` line or the end of the block.
///   A block whose fence is right after a line holding
///   `<!-- doctest: skip (why) -->` is not run (a server, an editor session,
///   a terminal player: nothing deterministic to compare);
/// * every relative link (and picture) in those documents names a file that
///   exists, and an anchor in a Markdown file names one of its headings;
/// * every `§N` citation in the documents, the examples, `Sources/`,
///   `Tests/` and `checks/` names a document (`docs/semantics.md §7.1`,
///   `docs/exports.md §6`; inside docs/, `semantics.md §N` or a bare `§N` of
///   the page itself) and a section that document has a heading for.
///   Citations of outside specifications (RFC, CSS) are left alone.
struct DocumentationTests {
    static let root = MalformedCLITests.root

    /// README.md, grammar.md and every Markdown file in docs/.
    static let documents: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)) ?? []
        return ["README.md", "grammar.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    static func text(_ path: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    // MARK: `$ animc` blocks

    struct Example: CustomTestStringConvertible, Sendable {
        let file: String
        let line: Int
        let command: String
        let expected: String
        var testDescription: String { "\(file):\(line): $ \(command)" }
    }

    /// The `$ animc` examples of one document, in order.
    static func examples(in file: String) -> [Example] {
        let lines = text(file).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [Example] = []
        var inBlock = false, skipped = false
        var current: (line: Int, command: String, output: [String])?
        func finish() {
            guard let example = current else { return }
            var output = example.output
            while output.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { output.removeLast() }
            examples.append(Example(file: file, line: example.line, command: example.command, expected: output.joined(separator: "\n")))
            current = nil
        }
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                if inBlock { finish() } else {
                    let before = lines[..<index].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
                    skipped = before.contains("<!-- doctest: skip")
                }
                inBlock.toggle()
                continue
            }
            guard inBlock, !skipped else { continue }
            if line.hasPrefix("$ ") {
                finish()
                if line.hasPrefix("$ animc ") { current = (index + 1, String(line.dropFirst(2)), []) }
            } else if current != nil {
                current?.output.append(line)
            }
        }
        return examples
    }

    static let allExamples: [Example] = documents.flatMap { examples(in: $0) }

    /// A command line split as a shell would for the simple cases the documents
    /// use (words, '…' and "…"); `nil` for what needs a real shell (pipes,
    /// redirections), which a document should not show as a `$ animc` example.
    static func words(_ command: String) -> [String]? {
        var words: [String] = [], word = "", quote: Character?, started = false
        for character in command {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                started = true
            } else if character == " " {
                if started { words.append(word) }
                word = ""
                started = false
            } else if "|<>;&$`".contains(character) {
                return nil
            } else {
                word.append(character)
                started = true
            }
        }
        if quote != nil { return nil }
        if started { words.append(word) }
        return words
    }

    /// Runs animc from the repository's root, its streams in files, and stops
    /// it after a minute: an example that does not end (a server) fails
    /// instead of hanging the suite.
    static func animc(_ arguments: [String]) throws -> (output: String, errors: String, finished: Bool) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("animc-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let process = Process()
        process.executableURL = MalformedCLITests.binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        let finished = !process.isRunning
        if !finished {
            process.terminate()
            process.waitUntilExit()
        }
        return (String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                String(decoding: try Data(contentsOf: errURL), as: UTF8.self), finished)
    }

    @Test func theDocumentsHaveExamples() {
        // A parser that found nothing would pass every example vacuously.
        #expect(Self.allExamples.count >= 8, "\(Self.allExamples.map(\.testDescription))")
        #expect(Self.allExamples.contains { $0.file == "README.md" })
    }

    @Test(arguments: allExamples)
    func exampleOutputIsWhatTheBinaryPrints(_ example: Example) throws {
        let arguments = try #require(Self.words(example.command), "\(example.file):\(example.line): not a plain command line")
        #expect(arguments.first == "animc")
        let result = try Self.animc(Array(arguments.dropFirst()))
        #expect(result.finished, "\(example.file):\(example.line): still running after a minute (a server? mark the block `<!-- doctest: skip (why) -->`)")
        var printed = result.errors + result.output
        while printed.hasSuffix("\n") { printed.removeLast() }
        #expect(printed == example.expected, """
            \(example.file):\(example.line): `$ \(example.command)` prints something else than the document shows.
            --- the document ---
            \(example.expected)
            --- animc ---
            \(printed)
            """)
    }

    // MARK: Links

    /// GitHub's anchor of a heading: lowercased, punctuation dropped, spaces to `-`.
    static func anchor(_ heading: String) -> String {
        var slug = ""
        for character in heading.lowercased() {
            if character.isLetter || character.isNumber || character == "-" || character == "_" {
                slug.append(character)
            } else if character == " " {
                slug.append("-")
            }
        }
        return slug
    }

    static func headings(_ text: String) -> [String] {
        var inBlock = false
        var headings: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock.toggle() }
            guard !inBlock, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }
            guard title.first == " " else { continue }
            headings.append(String(title.dropFirst()).trimmingCharacters(in: .whitespaces))
        }
        return headings
    }

    /// Every `](target)` outside fenced blocks, with its line.
    static func links(in text: String) -> [(line: Int, target: String)] {
        var links: [(Int, String)] = []
        var inBlock = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") { inBlock.toggle() }
            if inBlock { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(where: { $0 == ")" || $0 == " " }) else { break }
                links.append((index + 1, String(after[..<close])))
                rest = after[close...]
            }
        }
        return links
    }

    @Test(arguments: documents)
    func relativeLinksResolve(_ document: String) {
        let directory = (document as NSString).deletingLastPathComponent
        for (line, target) in Self.links(in: Self.text(document)) {
            if target.contains("://") || target.hasPrefix("mailto:") { continue }
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0]), fragment = parts.count > 1 ? String(parts[1]) : nil
            let file = path.isEmpty ? document : (directory.isEmpty ? path : directory + "/" + path)
            let resolved = Self.root.appendingPathComponent(file).standardizedFileURL.path
            #expect(FileManager.default.fileExists(atPath: resolved), "\(document):\(line): `\(target)` names no file")
            if let fragment, file.hasSuffix(".md") {
                let anchors = Self.headings(Self.text(file)).map(Self.anchor)
                #expect(anchors.contains(fragment), "\(document):\(line): `\(target)`: \(file) has no heading with that anchor")
            }
        }
    }

    // MARK: § citations

    /// The section numbers a document has headings for (`## 7.`, `### 7.1 …`).
    static func sections(_ document: String) -> Set<String> {
        var numbers: Set<String> = []
        for heading in headings(text(document)) {
            let number = heading.prefix { $0.isNumber || $0 == "." }
            let trimmed = number.hasSuffix(".") ? number.dropLast() : number
            if !trimmed.isEmpty { numbers.insert(String(trimmed)) }
        }
        return numbers
    }

    /// The files whose citations are checked.
    static let citingFiles: [String] = {
        var files = documents
        for folder in ["examples", "docs", "Sources", "Tests", "checks"] {
            guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in walker where [".swift", ".anim", ".py", ".sh"].contains(where: path.hasSuffix)
                && !path.contains("Golden/") {
                files.append(folder + "/" + path)
            }
        }
        return files.sorted()
    }()

    /// What a `§` refers to: the nearest document named before it (within the
    /// sentence or two before), read as the file citing it would mean it.
    enum Cited: Equatable { case document(String), outside, unnamed(String) }

    static func cited(before prefix: Substring, in file: String) -> Cited {
        let window = String(prefix.suffix(240))
        let names: [(String, Cited)] = [
            ("docs/semantics.md", .document("docs/semantics.md")), ("docs/exports.md", .document("docs/exports.md")),
            ("semantics", file.hasPrefix("docs/") ? .document("docs/semantics.md") : .unnamed("semantics")),
            ("exports.md", file.hasPrefix("docs/") ? .document("docs/exports.md") : .unnamed("exports.md")),
            ("RFC", .outside), ("CSS", .outside), ("Color 4", .outside), ("specification", .outside),
        ]
        var best: (String.Index, Cited)?
        for (name, meaning) in names {
            guard let found = window.ranges(of: name).last else { continue }
            // `docs/semantics.md` also holds `semantics`: the longer name, found at the same place, wins.
            if let current = best, current.0 >= found.lowerBound { continue }
            best = (found.lowerBound, meaning)
            if name.hasPrefix("docs/") { best = (window.index(found.lowerBound, offsetBy: 5), meaning) }
        }
        if let best { return best.1 }
        if file == "docs/semantics.md" || file == "docs/exports.md" { return .document(file) }
        return .unnamed("")
    }

    @Test func everySectionCitationResolves() {
        let semantics = Self.sections("docs/semantics.md"), exports = Self.sections("docs/exports.md")
        #expect(semantics.isSuperset(of: ["1", "3", "4", "5", "6.1", "6.5", "7.1", "7.2", "8.6"]))
        #expect(exports.isSuperset(of: ["1", "2", "6", "7", "8"]))
        var checked = 0
        for file in Self.citingFiles {
            let text = Self.text(file)
            var index = text.startIndex
            while let mark = text[index...].firstIndex(of: "§") {
                index = text.index(after: mark)
                let digits = text[index...].prefix { $0.isNumber || $0 == "." }
                var number = Substring(digits)
                while number.hasSuffix(".") { number = number.dropLast() }
                guard !number.isEmpty else { continue }
                let line = text[..<mark].filter { $0 == "\n" }.count + 1
                switch Self.cited(before: text[..<mark], in: file) {
                case .outside:
                    continue
                case .unnamed(let name):
                    Issue.record("\(file):\(line): §\(number) names no document in docs/ (\(name.isEmpty ? "none" : "`\(name)`")): write `docs/semantics.md §\(number)` or `docs/exports.md §\(number)`")
                case .document(let document):
                    checked += 1
                    let known = document == "docs/semantics.md" ? semantics : exports
                    #expect(known.contains(String(number)), "\(file):\(line): \(document) has no heading for §\(number)")
                }
            }
        }
        #expect(checked > 50, "only \(checked) citations found")
    }

    // MARK: Comments say why, not what was measured

    /// A measured figure in a comment (house style: history goes to commit
    /// messages and `bench/`): an instruction count (`1.8 M instructions`,
    /// `26 M of`), a before → after pair, a timing written as prose
    /// (`0.75 ms`), memory saved or spent (`600 KB less`), or the tool that
    /// measured it. Spans in backticks (the language's own `300ms`) are left
    /// out first; limits and protocol constants (`4 MB at most`, a `32 KB
    /// window`, `1 << 20`) match none of these.
    static let measurementPatterns: [NSRegularExpression] = [
        #"\b\d[\d,.]*\s?[kKMG]?\s?instructions\b"#, #"\b\d+(\.\d+)?\s?M\b(?![\w-])"#,
        #"\d+(\.\d+)?\s*→\s*\d+(\.\d+)?\s*(M|MB|KB|k|ms|s|%)\b"#, #"\b\d+(\.\d+)?\s(ms|µs|ns)\b"#,
        #"\b\d+(\.\d+)?\s?(MB|KB|GB|KiB|MiB)\s+(less|more|higher|lower|fewer|smaller|larger)\b"#,
        #"\bmeasured (on|with)\b"#, #"\bcallgrind\b"#, #"\b\d+(\.\d+)?\s?k\s+of\s+start-up\b"#,
    ].compactMap { try? NSRegularExpression(pattern: $0) }

    /// Whether the comment on `line` (from its `//`) quotes a measurement.
    static func quotesAMeasurement(_ line: String) -> Bool {
        guard let start = line.range(of: "//") else { return false }
        var comment = String(line[start.lowerBound...])
        while let open = comment.firstIndex(of: "`"),
              let close = comment[comment.index(after: open)...].firstIndex(of: "`") {
            comment.removeSubrange(open...close)
        }
        let range = NSRange(comment.startIndex..., in: comment)
        return measurementPatterns.contains { $0.firstMatch(in: comment, range: range) != nil }
    }

    @Test func thePatternsFindMeasurementsAndNotLimits() {
        #expect(Self.measurementPatterns.count == 8)
        for quoted in ["// reflects on every case, about 1.8 M instructions of start-up.", "// chain 20k 203.15 → 203.13 M",
                       "/// 4,096 rows of one column take 0.75 ms of CPU", "/// max-tree is kept (a chain of 20k tweens: 600 KB less).",
                       "/// (measured with callgrind)", "// a loop takes 8 (26 M of reading a 3 MB script)",
                       "// (80k `let`s: 12.2 → 6.4 MB of items)", "// time, 20 to 60 k instructions of every start-up"] {
            #expect(Self.quotesAMeasurement(quoted), "\(quoted)")
        }
        for plain in ["// Room for the other chunk's bytes, 4 MB at most.", "/// LZ77 matches over a 32 KB window",
                      "///     let fall = animate ball.y from 0 to 300 in `500ms`", "let limit = 8 << 20   // bytes",
                      "/// The largest message (a 1 GB document is not a document).", "/// 1 → 0 for odd k"] {
            #expect(!Self.quotesAMeasurement(plain), "\(plain)")
        }
    }

    /// No comment in `Sources/` quotes a measured instruction count, timing
    /// or size (issue 37); the benchmark tool, whose comments describe what it
    /// prints, is left out.
    @Test func noCommentInSourcesQuotesAMeasurement() {
        let sources = Self.root.appendingPathComponent("Sources")
        var found: [String] = []
        var files = 0
        let walk = FileManager.default.enumerator(atPath: sources.path)
        while let path = walk?.nextObject() as? String {
            guard path.hasSuffix(".swift"), !path.hasPrefix("animc-bench/"),
                  let text = try? String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8) else { continue }
            files += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where Self.quotesAMeasurement(String(line)) {
                found.append("Sources/\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(files > 80)
        #expect(found.isEmpty, "comments say why, in the present tense; figures go to commit messages and bench/:\n\(found.joined(separator: "\n"))")
    }
}
