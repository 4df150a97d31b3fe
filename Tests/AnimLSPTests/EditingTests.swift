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

    // MARK: Code actions

    /// The code actions at the whole of `text`'s diagnostic `id` (the first such), after opening it.
    static func actions(_ client: Client, _ text: String, diagnostic id: String) -> (diagnostic: JSON?, actions: [JSON]) {
        let diagnostics = client.open(EditingTests.uri, text)
        guard let diagnostic = diagnostics.first(where: { $0["code"]?.string == id }), let range = diagnostic["range"] else {
            return (nil, [])
        }
        let actions = client.call("textDocument/codeAction", .object([
            ("textDocument", EditingTests.document()), ("range", range),
            ("context", .object([("diagnostics", .array([diagnostic]))])),
        ]))?.array ?? []
        return (diagnostic, actions)
    }

    /// Each diagnostic kind whose hint names a replacement, in a file where it is the only
    /// mistake, and the file its quick fix makes (worked out by hand from the hint).
    static let fixes: [(id: String, source: String, fixed: String)] = [
        ("unknown-easing", "view c\nlet a = fadeIn c with ease-inout\n", "view c\nlet a = fadeIn c with ease-in-out\n"),
        ("unknown-easing", "view c\nlet a = fadeIn c with ease in out\n", "view c\nlet a = fadeIn c with ease-in-out\n"),
        ("unknown-color", "view c\nlet a = color c from blue to rde\n", "view c\nlet a = color c from blue to red\n"),
        ("unknown-name", "view c\nlet intro = fadeIn c\nlet a = intor ; intro\n", "view c\nlet intro = fadeIn c\nlet a = intro ; intro\n"),
        ("unknown-unit", "view c\nlet a = fadeIn c in 2 secs\n", "view c\nlet a = fadeIn c in 2 sec\n"),
        ("unknown-angle-unit", "view c\nlet a = rotate c from 0 to 90 degres\n", "view c\nlet a = rotate c from 0 to 90 degrees\n"),
        ("pi-in-degrees", "view c\nlet a = rotate c from 0 to 2*pi degrees\n", "view c\nlet a = rotate c from 0 to 2*pi radians\n"),
        ("pi-in-degrees", "view c\nlet a = rotate c from 0 to 2*pi\n", "view c\nlet a = rotate c from 0 to 2*pi radians\n"),
        ("expected-operator", "view c\nlet a = fadeIn c then fadeOut c\n", "view c\nlet a = fadeIn c ; fadeOut c\n"),
        ("expected-operator", "view c\nlet a = fadeIn c for 2s\n", "view c\nlet a = fadeIn c in 2s\n"),
        ("expected-operator", "view c\nlet a = fadeIn c revesed\n", "view c\nlet a = fadeIn c reversed\n"),
        ("expected-operator", "view c\nlet a = fadeIn c ease-out\n", "view c\nlet a = fadeIn c with ease-out\n"),
        ("lone-pipe", "view c\nlet a = fadeIn c | fadeOut c\n", "view c\nlet a = fadeIn c || fadeOut c\n"),
        ("leading-decimal-point", "view c\nlet a = fadeIn c in .5s\n", "view c\nlet a = fadeIn c in 0.5s\n"),
        ("expected-item", "lett a = wait 1s\n", "let a = wait 1s\n"),
        ("expected-count", "view c\nlet a = fadeIn c repeated twise\n", "view c\nlet a = fadeIn c repeated twice\n"),
        ("unknown-verb", "view c\nlet a = fadeInn c\n", "view c\nlet a = fadeIn c\n"),
        ("named-once", "let a = fadeIn card ; fadeOut card ; fadeIn crad\n", "let a = fadeIn card ; fadeOut card ; fadeIn card\n"),
        ("bare-duration", "view c\nlet a = fadeIn c in 300 ; fadeOut c in 0.2s\n", "view c\nlet a = fadeIn c in 300ms ; fadeOut c in 0.2s\n"),
        ("unknown-value", "view c\nlet quick = 1s\nlet p(v, d) = fadeIn v in d\nlet a = p(c, quik)\n",
         "view c\nlet quick = 1s\nlet p(v, d) = fadeIn v in d\nlet a = p(c, quick)\n"),
        // Issue 37: hints that name what is wrong, each with its fix.
        ("unknown-value-unit", "view c\nlet a = animate c.x from 0 to 100px\n", "view c\nlet a = animate c.x from 0 to 100\n"),
        ("unknown-value-unit", "view c\nlet a = animate c.x from 0 to 100 px\n", "view c\nlet a = animate c.x from 0 to 100\n"),
        ("expected-operator", "view c\nlet a = rotate c from 0 to 90 in 1s turns\n", "view c\nlet a = rotate c from 0 to 90 turns in 1s\n"),
        ("unexpected-character", "view c opacity: 0\nlet a = fadeIn c\n", "view c opacity 0\nlet a = fadeIn c\n"),
        ("unexpected-character", "view c\nlet a = fadeIn c with spring(stiffness:200)\n", "view c\nlet a = fadeIn c with spring(stiffness 200)\n"),
        ("opacity-out-of-range", "view c\nlet a = animate c.opacity from 0 to 100\n", "view c\nlet a = animate c.opacity from 0 to 1\n"),
        ("degree-sized-angle", "view c\nlet a = rotate c from 0 to 360 turns\n", "view c\nlet a = rotate c from 0 to 360 degrees\n"),
        ("bare-named-duration", "view c\nlet fast = 200\nlet a = fadeIn c in fast ; fadeOut c in 0.2s\n",
         "view c\nlet fast = 200ms\nlet a = fadeIn c in fast ; fadeOut c in 0.2s\n"),
        ("undrawn-property", "view c\nlet a = animate c.alpha from 0 to 1\n", "view c\nlet a = animate c.opacity from 0 to 1\n"),
        ("named-once", "view card\nlet pop(v) = grow v from 1 to 1.2\nlet a = pop(card) ; pop(crad)\n",
         "view card\nlet pop(v) = grow v from 1 to 1.2\nlet a = pop(card) ; pop(card)\n"),
        ("expected-count", "view c\nlet a = fadeIn c looped twise\n", "view c\nlet a = fadeIn c looped twice\n"),
        ("unknown-easing", "view c\nlet a = fadeIn c with bouncy-spring\n", "view c\nlet a = fadeIn c with bouncy spring\n"),
        ("named-once", "view c\nlet a = animate c.opacty from 0 to 1\n", "view c\nlet a = animate c.opacity from 0 to 1\n"),
    ]

    @Test(arguments: EditingTests.fixes.indices)
    func eachQuickFixRemovesItsDiagnosticAndTheFileEvaluates(_ index: Int) {
        let (id, source, fixed) = EditingTests.fixes[index]
        let client = Client()
        client.start()
        let (diagnostic, actions) = EditingTests.actions(client, source, diagnostic: id)
        #expect(diagnostic != nil, "\(source) has no \(id)")
        let fix = actions.first { $0["kind"]?.string == "quickfix" }
        #expect(fix?["isPreferred"] == .bool(true))
        #expect(fix?["diagnostics"]?.array.first?["code"]?.string == id)
        let after = EditingTests.apply(fix?["edit"]?["changes"]?[EditingTests.uri]?.array ?? [], to: source)
        #expect(after == fixed, "\(id)")
        let diagnostics = client.change(EditingTests.uri, after)
        #expect(!diagnostics.contains { $0["code"]?.string == id }, "\(id): \(diagnostics)")
        #expect(!run(SourceFile(name: "fixed.anim", text: after)).hasErrors, "\(after)")
    }

    @Test func aViewNamedOnceCanBeDeclaredInstead() {
        let client = Client()
        client.start()
        let source = "let a = fadeIn card ; fadeOut card ; fadeIn crad\n"
        let (_, actions) = EditingTests.actions(client, source, diagnostic: "named-once")
        let declare = actions.first { $0["title"]?.string == "Declare the view `crad`" }
        let after = EditingTests.apply(declare?["edit"]?["changes"]?[EditingTests.uri]?.array ?? [], to: source)
        #expect(after == "view crad\nlet a = fadeIn card ; fadeOut card ; fadeIn crad\n")
        #expect(!client.change(EditingTests.uri, after).contains { $0["code"]?.string == "named-once" })
    }

    static func refactorings(_ client: Client, _ text: String, _ range: JSON) -> [JSON] {
        _ = client.open(EditingTests.uri, text)
        return client.call("textDocument/codeAction", .object([
            ("textDocument", EditingTests.document()), ("range", range), ("context", .object([("diagnostics", .array([]))])),
        ]))?.array ?? []
    }

    static func range(_ line: Int, _ start: Int, _ end: Int) -> JSON {
        .object([("start", position(line, start)), ("end", position(line, end))])
    }

    @Test func extractToLetAndInlineLetKeepEveryValue() throws {
        let client = Client()
        client.start()
        // Line 1: `let a = fadeIn c in 1s ; (rotate c from 0 to 90 || fadeOut c) in 2s`; the parallel is at 26..60, inside parentheses.
        let text = "view c\nlet a = fadeIn c in 1s ; (rotate c from 0 to 90 || fadeOut c) in 2s\n"
        let extract = EditingTests.refactorings(client, text, EditingTests.range(1, 26, 60))
            .first { $0["kind"]?.string == "refactor.extract" }
        let extracted = EditingTests.apply(extract?["edit"]?["changes"]?[EditingTests.uri]?.array ?? [], to: text)
        #expect(extracted == "view c\nlet extracted = rotate c from 0 to 90 || fadeOut c\nlet a = fadeIn c in 1s ; (extracted) in 2s\n")
        #expect(EditingTests.samples(extracted) == EditingTests.samples(text))
        // Inline it again at its use (line 2, character 26; the use's range holds its parentheses): as it was.
        let inline = EditingTests.refactorings(client, extracted, EditingTests.range(2, 27, 27))
            .first { $0["kind"]?.string == "refactor.inline" }
        let inlined = EditingTests.apply(inline?["edit"]?["changes"]?[EditingTests.uri]?.array ?? [], to: extracted)
        #expect(inlined == "view c\nlet extracted = rotate c from 0 to 90 || fadeOut c\nlet a = fadeIn c in 1s ; (rotate c from 0 to 90 || fadeOut c) in 2s\n")
        #expect(EditingTests.samples(inlined) == EditingTests.samples(text))
        // Not a whole node (`in 1s ;`): no extraction.
        #expect(!EditingTests.refactorings(client, text, EditingTests.range(1, 17, 24)).contains { $0["kind"]?.string == "refactor.extract" })
    }

    // MARK: Signature help and inlay hints

    @Test func signatureHelpShowsParametersDefaultsAndTheActiveOne() {
        let client = Client()
        client.start()
        let text = "view card\nlet pop(v, amount = 1.1) = grow v from 1 to amount\nlet a = pop(card, \n"
        _ = client.open(EditingTests.uri, text)
        // Line 2, after `pop(card, `: the second parameter. `pop(` is 4 long, `v` at 4..5, `amount = 1.1` at 7..19.
        let help = client.at("textDocument/signatureHelp", EditingTests.uri, 2, 18)
        #expect(help?["signatures"]?.array.first?["label"]?.string == "pop(v, amount = 1.1)")
        #expect(help?["signatures"]?.array.first?["parameters"]?.array.map { $0["label"] } ==
                [.array([.number(4), .number(5)]), .array([.number(7), .number(19)])])
        #expect(help?["activeParameter"] == .number(1))
        // Right after `pop(`: the first; inside a nested call's parentheses, that call's; outside any: nothing.
        #expect(client.at("textDocument/signatureHelp", EditingTests.uri, 2, 12)?["activeParameter"] == .number(0))
        #expect(client.at("textDocument/signatureHelp", EditingTests.uri, 2, 4) == .null)
    }

    @Test func inlayHintsGiveEachLetsAndCallsDurationAndCanBeSwitchedOff() {
        let text = "view c\nlet pop(v, d = 1s) = fadeIn v in d\nlet a = fadeIn c in 300ms ; pop(c, 2s)\nlet b = a ^ 2\n"
        let range = EditingTests.range(0, 0, 0).replacing(end: EditingTests.position(4, 0))
        func labels(_ options: JSON) -> [String] {
            let client = Client()
            _ = client.send([Client.request(1, "initialize", .object([("capabilities", .object([])), ("initializationOptions", options)])),
                             Client.notification("initialized")])
            _ = client.open(EditingTests.uri, text)
            let hints = client.call("textDocument/inlayHint", .object([("textDocument", EditingTests.document()), ("range", range)]))?.array ?? []
            return hints.map { "\(Int($0["position"]?["line"]?.number ?? -1)):\(Int($0["position"]?["character"]?.number ?? -1)) \($0["label"]?.string ?? "")" }
        }
        // a: 300ms ; 2s = 2.3s, after `a` (line 2, 5); the call lasts 2s, after `pop(c, 2s)` (line 2, 38);
        // b: a ^ 2 = 4.6s (line 3, 5). `pop` has parameters: no duration of its own.
        #expect(labels(.object([])) == ["2:5 ⟨2.3s⟩", "2:38 ⟨2s⟩", "3:5 ⟨4.6s⟩"])
        #expect(labels(.object([("inlayHints", .object([("callDurations", .bool(false))]))])) == ["2:5 ⟨2.3s⟩", "3:5 ⟨4.6s⟩"])
        #expect(labels(.object([("inlayHints", .object([("letDurations", .bool(false))]))])) == ["2:38 ⟨2s⟩"])
    }

    // MARK: Highlights, folding, semantic tokens

    @Test func highlightsFoldingAndSemanticTokens() {
        let client = Client()
        client.start()
        let text = "view card opacity 0\nlet a = fadeIn card with ease-out # hi\nlet b = a ; a\n"
        _ = client.open(EditingTests.uri, text)
        let highlights = client.at("textDocument/documentHighlight", EditingTests.uri, 2, 8)?.array ?? []
        #expect(highlights.map { ($0["range"]?.span ?? []) + [Int($0["kind"]?.number ?? 0)] } ==
                [[1, 4, 1, 5, 3], [2, 8, 2, 9, 2], [2, 12, 2, 13, 2]])
        // By hand, [Δline, Δstart, length, type] with the legend keyword 0, function 1, class 2,
        // property 3, enumMember 4, number 5, variable 6, parameter 7, comment 8.
        let data = (client.call("textDocument/semanticTokens/full", .object([("textDocument", EditingTests.document())]))?["data"]?.array ?? [])
            .map { Int($0.number ?? -1) }
        let expected: [[Int]] = [
            [0, 0, 4, 0], [0, 5, 4, 2], [0, 5, 7, 3], [0, 8, 1, 5],                         // view card opacity 0
            [1, 0, 3, 0], [0, 4, 1, 6], [0, 4, 6, 1], [0, 7, 4, 2], [0, 5, 4, 0], [0, 5, 8, 4], [0, 9, 4, 8],
            [1, 0, 3, 0], [0, 4, 1, 6], [0, 4, 1, 6], [0, 4, 1, 6],                          // let b = a ; a
        ]
        #expect(data == expected.flatMap { $0 + [0] })

        _ = client.change(EditingTests.uri, "let x =\n  wait 1\n  ; wait 2\nlet y = x\n")
        let folds = client.call("textDocument/foldingRange", .object([("textDocument", EditingTests.document())]))?.array ?? []
        #expect(folds.map { [Int($0["startLine"]?.number ?? -1), Int($0["endLine"]?.number ?? -1)] } == [[0, 2]])
    }
}

extension JSON {
    /// An LSP range with its end replaced.
    func replacing(end: JSON) -> JSON {
        .object([("start", self["start"] ?? .null), ("end", end)])
    }
}
