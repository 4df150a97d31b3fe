import Testing
import AnimLSP
import AnimJSON
import AnimLang
import Animations

/// The writing half of the server: formatting, rename, code actions, signature
/// help and inlay hints, each applied and checked against what the language says.
struct EditingTests {
    static let uri = "file:///work/edit.anim"

    /// `text` with LSP `TextEdit`s applied (positions in UTF-16 units; the edits do not overlap).
    static func apply(_ edits: [JSON], to text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).utf16) }
        func offset(_ position: JSON?) -> (Int, Int) {
            (Int(position?["line"]?.number ?? 0), Int(position?["character"]?.number ?? 0))
        }
        // Latest first, so earlier positions stay valid.
        let sorted = edits.sorted { a, b in
            let x = offset(a["range"]?["start"]), y = offset(b["range"]?["start"])
            return x.0 != y.0 ? x.0 > y.0 : x.1 > y.1
        }
        for edit in sorted {
            let (startLine, startCharacter) = offset(edit["range"]?["start"])
            let (endLine, endCharacter) = offset(edit["range"]?["end"])
            let before = Array(lines[startLine].prefix(startCharacter))
            let after = Array(lines[endLine].dropFirst(endCharacter))
            let inserted = (String(decoding: before, as: UTF16.self) + (edit["newText"]?.string ?? "") + String(decoding: after, as: UTF16.self))
                .split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0).utf16) }
            lines.replaceSubrange(startLine...endLine, with: inserted)
        }
        return lines.map { String(decoding: $0, as: UTF16.self) }.joined(separator: "\n")
    }

    static func document(_ uri: String = EditingTests.uri) -> JSON {
        .object([("uri", .string(uri))])
    }

    static func position(_ line: Int, _ character: Int) -> JSON {
        .object([("line", .number(Double(line))), ("character", .number(Double(character)))])
    }

    // MARK: Formatting

    @Test func formattingEveryExampleGivesWhatFmtGives() {
        for name in Client.examples {
            let client = Client()
            client.start()
            let text = Client.example(name)
            _ = client.open(EditingTests.uri, text)
            let edits = client.call("textDocument/formatting", .object([("textDocument", EditingTests.document()),
                                                                       ("options", .object([("tabSize", .number(2)), ("insertSpaces", .bool(true))]))]))?.array
            guard case .formatted(let expected) = formatSource(SourceFile(name: name, text: text)) else {
                Issue.record("\(name) refused")
                continue
            }
            #expect(EditingTests.apply(edits ?? [], to: text) == expected.text, "\(name)")
        }
    }

    @Test func rangeFormattingTouchesOnlyTheRange() {
        let client = Client()
        client.start()
        let text = "let a=wait 1\nlet b=a;a\nlet c=b\n"
        _ = client.open(EditingTests.uri, text)
        let edits = client.call("textDocument/rangeFormatting", .object([
            ("textDocument", EditingTests.document()),
            ("range", .object([("start", EditingTests.position(1, 0)), ("end", EditingTests.position(1, 9))])),
            ("options", .object([("tabSize", .number(2)), ("insertSpaces", .bool(true))])),
        ]))?.array ?? []
        #expect(EditingTests.apply(edits, to: text) == "let a=wait 1\nlet b = a ; a\nlet c=b\n")
    }

    @Test func aFileWithErrorsGetsNoFormattingEdits() {
        let client = Client()
        client.start()
        _ = client.open(EditingTests.uri, "let a = grow c from\n")
        let edits = client.call("textDocument/formatting", .object([("textDocument", EditingTests.document()),
                                                                   ("options", .object([("tabSize", .number(2)), ("insertSpaces", .bool(true))]))]))
        #expect(edits == .array([]))
    }

    // MARK: Rename

    /// Every property's value at every 1/20 s of the first 3 s (or of the whole, if shorter), by column.
    static func samples(_ text: String) -> [[String: Value]]? {
        guard let animation = try? Document(source: text, name: "r.anim").animation() else { return nil }
        let end = animation.isInfinite ? 3.0 : min(animation.duration.seconds, 3.0)
        return stride(from: 0.0, through: end, by: 0.05).compactMap { animation.values(atSeconds: $0) }
    }

    @Test func renamingEveryLetParameterAndViewKeepsEveryValue() throws {
        var renamed = 0
        for name in Client.examples {
            let text = Client.example(name)
            let file = SourceFile(name: name, text: text)
            let index = NameIndex(run(file).resolved)
            let original = try #require(EditingTests.samples(text), "\(name)")
            for occurrence in index.occurrences where occurrence.isDeclaration {
                let client = Client()
                client.start()
                _ = client.open(EditingTests.uri, text)
                let location = file.location(of: occurrence.range.start)
                let position = EditingTests.position(location.line - 1, location.column - 1)
                let prepared = client.call("textDocument/prepareRename", .object([("textDocument", EditingTests.document()), ("position", position)]))
                #expect(prepared?["range"]?.span == [location.line - 1, location.column - 1, location.line - 1,
                                                     location.column - 1 + occurrence.range.end - occurrence.range.start], "\(name)")
                let newName = "zz_renamed"
                let result = client.call("textDocument/rename", .object([("textDocument", EditingTests.document()), ("position", position),
                                                                       ("newName", .string(newName))]))
                let edits = result?["changes"]?[EditingTests.uri]?.array ?? []
                let oldName = file.text(occurrence.range)
                #expect(edits.count == index.references(of: occurrence.symbol).count, "\(name): \(oldName)")
                let after = EditingTests.apply(edits, to: text)
                let samples = try #require(EditingTests.samples(after), "\(name): \(oldName) → \(newName)\n\(after)")
                // A view's columns carry its new name: named back, every value is as it was.
                let back = samples.map { row in
                    Dictionary(uniqueKeysWithValues: row.map { key, value in
                        (key.hasPrefix(newName + ".") ? oldName + key.dropFirst(newName.count) : key, value)
                    })
                }
                if case .view = occurrence.symbol {
                    #expect(samples.first?.keys.contains { $0.hasPrefix(newName + ".") } == true, "\(name): \(oldName)")
                }
                #expect(back == original, "\(name): \(oldName) → \(newName)")
                renamed += 1
            }
        }
        #expect(renamed > 80)
    }

    @Test func renamesThatWouldChangeTheFileAreRefusedWithAMessage() {
        let client = Client()
        client.start()
        let text = "view card\nlet pop(v, d = 1s) = fadeIn v in d\nlet a = pop(card) ; emit landed\nlet b = a\n"
        _ = client.open(EditingTests.uri, text)
        func refusal(_ line: Int, _ character: Int, _ newName: String) -> String? {
            client.reply("textDocument/rename", .object([("textDocument", EditingTests.document()), ("position", EditingTests.position(line, character)),
                                                        ("newName", .string(newName))]))?["error"]?["message"]?.string
        }
        // `a` (line 2, column 4) to another let's name, a view's, a reserved word, an easing's, a non-name, an event's.
        #expect(refusal(2, 4, "b") == "`b` is taken: a `let` is named `b`")
        #expect(refusal(2, 4, "card") == "`card` is taken: a view is named `card`")
        #expect(refusal(2, 4, "from")?.hasPrefix("`from` is a reserved word") == true)
        #expect(refusal(2, 4, "ease-out")?.contains("easing") == true)
        #expect(refusal(2, 4, "2x") != nil)
        #expect(refusal(2, 4, "landed")?.hasPrefix("`landed` is taken: the file already uses the word") == true)
        // The parameter `v` to its sibling's name; the view to a let's.
        #expect(refusal(1, 8, "d") == "`d` is taken: a `let` is named `d`" || refusal(1, 8, "d")?.contains("parameter") == true)
        #expect(refusal(0, 5, "pop") == "`pop` is taken: a `let` is named `pop`")
        // A view may take an easing's word (only a `let` or a parameter may not).
        #expect(client.reply("textDocument/rename", .object([("textDocument", EditingTests.document()), ("position", EditingTests.position(0, 5)),
                                                            ("newName", .string("linear"))]))?["result"]?["changes"] != nil)
    }
}
