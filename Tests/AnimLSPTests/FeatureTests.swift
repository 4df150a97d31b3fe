import Testing
import AnimLSP
import AnimJSON
import AnimLang

/// Each feature on the examples and on small files whose answers are worked out by hand.
struct FeatureTests {
    static let uri = "file:///work/test.anim"

    @Test func diagnosticsCarryRangeSeverityCodeHintAndNotes() {
        let client = Client()
        client.start()
        // Line 1: `😀` before the mistake shifts UTF-16 columns by 2 per emoji, bytes by 4.
        let text = "view card\nlet a = fadeIn card with ease-inout # 😀\nlet a = fadeOut card\n"
        let diagnostics = client.open(FeatureTests.uri, text)
        let unknown = diagnostics.first { $0["code"] == .string("unknown-easing") }
        // `ease-inout` starts at column 25 (0-based) of line 1 and is 10 long.
        #expect(unknown?["range"]?.span == [1, 25, 1, 35])
        #expect(unknown?["severity"] == .number(1))
        #expect(unknown?["source"] == .string("animc"))
        #expect(unknown?["message"]?.string == "unknown easing `ease-inout`\nhint: did you mean `ease-in-out`?")
        let duplicate = diagnostics.first { $0["code"]?.string?.contains("duplicate") == true }
        #expect(duplicate?["range"]?.span == [2, 4, 2, 5])
        let related = duplicate?["relatedInformation"]?.array.first
        #expect(related?["location"]?["range"]?.span == [1, 4, 1, 5])
        #expect(related?["location"]?["uri"] == .string(FeatureTests.uri))
        #expect(related?["message"] == .string("first defined here"))
    }

    @Test func aRangeAfterWideCharactersIsInUTF16Units() {
        let client = Client()
        client.start()
        // `bogus` is at byte 18 but UTF-16 column 14: "# 😀é\n" is a comment line; then on line 1,
        // "let s = \"é😀\"" would not parse, so the emoji sits in a name-free comment before it.
        let text = "# 😀é\nlet x = fadeIn 😀 bogus\n"
        let diagnostics = client.open(FeatureTests.uri, text)
        let first = diagnostics.first
        #expect(first != nil)
        // Whatever the mistake, its start is counted in UTF-16: `😀` at column 15 is two units.
        let span = first?["range"]?.span ?? []
        #expect(span.first == 1)
        #expect(span.count == 4 && span[1] == 15)
    }

    @Test func fixingTheFileClearsItsDiagnosticsAndClosingItToo() {
        let client = Client()
        client.start()
        #expect(!client.open(FeatureTests.uri, "let a = fadeIn card with ease-inout\n").isEmpty)
        #expect(client.change(FeatureTests.uri, "let a = fadeIn card with ease-in-out\n").isEmpty)
        #expect(!client.change(FeatureTests.uri, "let a = fadeIn card with\n", version: 3).isEmpty)
        let replies = client.send([Client.notification("textDocument/didClose", .object([("textDocument", .object([("uri", .string(FeatureTests.uri))]))]))])
        #expect(Client.diagnostics(in: replies, uri: FeatureTests.uri) == [])
    }

    @Test func everyExampleIsCleanOfErrorsAndHasAnOutline() {
        for name in Client.examples {
            let client = Client()
            client.start()
            let uri = "file:///examples/" + name
            let text = Client.example(name)
            let diagnostics = client.open(uri, text)
            #expect(!diagnostics.contains { $0["severity"] == .number(1) }, "\(name)")
            let program = parse(SourceFile(name: name, text: text)).program
            let symbols = client.call("textDocument/documentSymbol", .object([("textDocument", .object([("uri", .string(uri))]))]))?.array ?? []
            #expect(symbols.map { $0["name"]?.string ?? "" } == program.items.map { item -> String in
                switch item {
                case .binding(let binding): return binding.name
                case .view(let view): return view.name
                }
            }, "\(name)")
        }
    }

    @Test func documentSymbolsGiveDurationsAsTimelinePrintsThem() {
        let client = Client()
        client.start()
        _ = client.open(FeatureTests.uri, Client.example("choreography.anim"))
        let symbols = client.call("textDocument/documentSymbol", .object([("textDocument", .object([("uri", .string(FeatureTests.uri))]))]))?.array ?? []
        let details = Dictionary(symbols.map { ($0["name"]?.string ?? "", $0["detail"]?.string ?? "") }, uniquingKeysWith: { a, _ in a })
        // enter: the longest of 300ms, 600ms and 600ms. pulse: 150ms ; 150ms. leave: `in 400ms`.
        // final: 0.6 + 0.2 + 2 × 0.3 + 0.3 + 0.4 = 2.1.
        #expect(details["enter"] == "an animation, 0.6s")
        #expect(details["pulse"] == "an animation, 0.3s")
        #expect(details["leave"] == "an animation, 0.4s")
        #expect(details["final"] == "an animation, 2.1s")
        #expect(details["card"] == "opacity 0, scale 0.8, rotation -90")
    }

    @Test func hoverOnALetSaysKindDurationAndProperties() {
        let client = Client()
        client.start()
        _ = client.open(FeatureTests.uri, Client.example("choreography.anim"))
        // Line 15: `let final = enter ; …`; `enter` at characters 12..17.
        let hover = client.at("textDocument/hover", FeatureTests.uri, 15, 14)
        let text = hover?["contents"]?["value"]?.string ?? ""
        #expect(hover?["range"]?.span == [15, 12, 15, 17])
        #expect(text.contains("let enter"))
        #expect(text.contains("duration: 0.6s"))
        #expect(text.contains("animates: `card.opacity`, `card.rotation`, `card.scale`"))
    }

    @Test func hoverOnACallListsTheParameters() {
        let client = Client()
        client.start()
        _ = client.open(FeatureTests.uri, Client.example("pulse.anim"))
        // Line 15 (0-based): `  ; pulse(title) ; …`, `pulse` at characters 4..9.
        let text = client.at("textDocument/hover", FeatureTests.uri, 15, 5)?["contents"]?["value"]?.string ?? ""
        #expect(text.contains("let pulse(v, amount = 1.1)"))
        #expect(text.contains("- `v`: a view"))
        #expect(text.contains("- `amount`: a number, default `1.1`"))
        // A parameter in the body: line 9, `grow v`, `v` at character 7.
        let parameter = client.at("textDocument/hover", FeatureTests.uri, 9, 7)?["contents"]?["value"]?.string ?? ""
        #expect(parameter.contains("parameter 1 of `pulse`: a view"))
        // A named value: `quick` on line 3.
        let quick = client.at("textDocument/hover", FeatureTests.uri, 3, 5)?["contents"]?["value"]?.string ?? ""
        #expect(quick.contains("a duration: `150ms`"))
        // An easing `let`, where `with` names it (line 9, `with snap`, `snap` at 40..44): its family and curve.
        let snap = client.at("textDocument/hover", FeatureTests.uri, 9, 43)?["contents"]?["value"]?.string ?? ""
        #expect(snap.contains("an easing: `cubic-bezier(0.2, 0, 0, 1)`"))
        #expect(snap.contains("cubic Bézier (CSS): control points (0.2, 0.0) and (0.0, 1.0)"))
        #expect(snap.contains("▁"))
    }

    @Test func hoverOnAViewShowsItsDeclaredInitialValues() {
        let client = Client()
        client.start()
        _ = client.open(FeatureTests.uri, Client.example("choreography.anim"))
        // Line 3: `view card opacity 0 scale 0.8 rotation -90`.
        let text = client.at("textDocument/hover", FeatureTests.uri, 3, 6)?["contents"]?["value"]?.string ?? ""
        #expect(text.contains("- `opacity`: `0`"))
        #expect(text.contains("- `scale`: `0.8`"))
        #expect(text.contains("- `rotation`: `-90`"))
    }

    @Test func hoverOnAnEasingNamesItsFamilyAndDrawsItsCurve() {
        let client = Client()
        client.start()
        _ = client.open(FeatureTests.uri, Client.example("choreography.anim"))
        // Line 7: `  || rotate card from -90 to 0 in 600ms with ease-out-cubic`; the easing at 45..59.
        let hover = client.at("textDocument/hover", FeatureTests.uri, 7, 50)
        let text = hover?["contents"]?["value"]?.string ?? ""
        #expect(hover?["range"]?.span == [7, 45, 7, 59])
        #expect(text.contains("Penner's cubic curve, ease-out: p ↦ 1 − f(1 − p), f(p) = p³"))
        // Ease-out cubic: 1 − (1 − p)³ rises fast from 0 and ends flat at 1.
        let curve = text.split(separator: "\n").first { $0.hasPrefix("▁") } ?? ""
        #expect(curve.hasPrefix("▁"))
        #expect(curve.contains("████"))
        // Overshooting back easing: its range is written.
        _ = client.change(FeatureTests.uri, "let a = scale x from 0 to 1 with ease-out-back\n")
        let back = client.at("textDocument/hover", FeatureTests.uri, 0, 40)?["contents"]?["value"]?.string ?? ""
        #expect(back.contains("(0 to 1, from 0 to 1.1"))
        // The talk's curves with their default parameters (2 for ease-in and ease-out, 1 for ease-in-out).
        _ = client.change(FeatureTests.uri, "let a = scale x from 0 to 1 with ease-in-out\n", version: 3)
        let talk = client.at("textDocument/hover", FeatureTests.uri, 0, 36)?["contents"]?["value"]?.string ?? ""
        #expect(talk.contains("the talk's ease-in-out: p ↦ g(p) / (g(p) + g(1 − p)), g(x) = e^(−c/x), c = 1\n"))
    }

    static func labels(_ result: JSON?) -> [String] {
        (result?["items"]?.array ?? []).compactMap { $0["label"]?.string }
    }

    /// The labels offered at the end of `line`, written after a file of a view and three `let`s.
    static func completions(after line: String) -> [String] {
        let client = Client()
        client.start()
        let base = """
            view card opacity 0
            let quick = 150ms
            let snap = ease-out-back
            let pop(v, d) = scale v from 0 to 1 in d with snap

            """
        _ = client.open(FeatureTests.uri, base + line)
        return labels(client.at("textDocument/completion", FeatureTests.uri, 4, line.utf16.count))
    }

    /// `played` (semantics §8.5): completed after a term, then `from` and `to` after it;
    /// its hover says how long the part lasts (here 1.5 s − 0.5 s and 75% − 25% of 2 s: 1 s).
    @Test func playedIsCompletedAndHovered() {
        #expect(FeatureTests.completions(after: "let a = fadeIn card ").contains("played from"))
        let bounds = FeatureTests.completions(after: "let a = fadeIn card played ")
        #expect(bounds.contains("from") && bounds.contains("to") && !bounds.contains("reversed"))
        let client = Client()
        client.start()
        let text = "let x = animate v.x from 0 to 100 in 2s\nlet p = x played from 0.5s to 1.5s\nlet q = x played from 25% to 75%\n"
        _ = client.open(FeatureTests.uri, text)
        // Line 1: `played` at characters 10..16.
        let hover = client.at("textDocument/hover", FeatureTests.uri, 1, 12)
        #expect(hover?["range"]?.span == [1, 10, 1, 16])
        #expect(hover?["contents"]?["value"]?.string?.contains("lasts 1s") == true)
        let percent = client.at("textDocument/hover", FeatureTests.uri, 2, 12)?["contents"]?["value"]?.string ?? ""
        #expect(percent.contains("played from 25% to 75%") && percent.contains("lasts 1s"))
    }

    @Test func completionOffersWhatFitsWhereTheCursorIs() {
        // After `with `: easings and the easing `let`, no number.
        let easings = FeatureTests.completions(after: "let a = pop(card, quick) with ")
        #expect(easings.contains("ease-in-out"))
        #expect(easings.contains("linear"))
        #expect(easings.contains("snap"))
        #expect(!easings.contains("quick"))
        #expect(FeatureTests.completions(after: "let a = pop(card, quick) with a ease-o").contains("ease-out-bounce"))
        // After a verb: the views.
        #expect(FeatureTests.completions(after: "let a = fadeIn ") == ["card"])
        #expect(FeatureTests.completions(after: "let a = fadeOut card and c").contains("card"))
        // At a term's start: verbs, animation `let`s; not values or easings.
        let term = FeatureTests.completions(after: "let a = pop(card, quick) ; ")
        #expect(term.contains("fadeIn"))
        #expect(term.contains("wait"))
        #expect(term.contains("pop"))
        #expect(!term.contains("snap"))
        #expect(!term.contains("quick"))
        // After `card.`: the properties of the view.
        #expect(FeatureTests.completions(after: "let a = animate card.").contains("opacity"))
        // Where a value goes: named values.
        let value = FeatureTests.completions(after: "let a = move card from ")
        #expect(value.contains("quick"))
        #expect(!value.contains("pop"))
        // Inside a body: its parameters.
        #expect(FeatureTests.completions(after: "let b(w, t) = fadeIn w in ").contains("t"))
        #expect(FeatureTests.completions(after: "let b(w, t) = fadeIn ").contains("w"))
        // At the start of a line: `let` and `view`.
        let start = FeatureTests.completions(after: "")
        #expect(start.contains("let"))
        #expect(start.contains("view"))
    }

    /// The words of semantics §8: after a term, `overlapping by` and `staggered over`; after
    /// `staggered by DUR`, its origins and `spaced`; after `from` there, the origins; after
    /// `spaced` and `with each`, easings; `overlapping` has a hover.
    @Test func completionAndHoverOfTheTimelineWords() {
        let after = FeatureTests.completions(after: "let a = fadeIn card ")
        #expect(after.contains("overlapping by"))
        #expect(after.contains("staggered over"))
        #expect(!after.contains("from center"))
        let stagger = FeatureTests.completions(after: "let a = fadeIn card staggered by 80ms ")
        #expect(stagger.contains("from center"))
        #expect(stagger.contains("spaced"))
        #expect(FeatureTests.completions(after: "let a = fadeIn card staggered by 80ms from ") == ["start", "end", "center", "edges"])
        #expect(FeatureTests.completions(after: "let a = fadeIn card staggered by 80ms spaced ").contains("ease-in-quad"))
        #expect(FeatureTests.completions(after: "let a = animate card.x through 0, 1 with each ").contains("ease-out-cubic"))
        #expect(FeatureTests.completions(after: "let a = fadeIn card ; fadeIn card overlapping by ").contains("quick"))
        let client = Client()
        client.start()
        _ = client.open(FeatureTests.uri, "let a = fadeIn x ; fadeIn y overlapping by 0.2s\n")
        let text = client.at("textDocument/hover", FeatureTests.uri, 0, 32)?["contents"]?["value"]?.string ?? ""
        #expect(text.contains("S || (wait (|S| − D) ; pk)"))
    }

    @Test func definitionAndReferencesOfLetsParametersAndViews() {
        let client = Client()
        client.start()
        _ = client.open(FeatureTests.uri, Client.example("talk.anim"))
        // Line 8: `let animations = (left + right) looped once`; `left` at 18..22 is declared on line 2, 4..8.
        let definition = client.at("textDocument/definition", FeatureTests.uri, 8, 19)
        #expect(definition?["range"]?.span == [2, 4, 2, 8])
        #expect(definition?["uri"] == .string(FeatureTests.uri))
        let references = client.at("textDocument/references", FeatureTests.uri, 2, 5,
                                    extra: [("context", .object([("includeDeclaration", .bool(true))]))])?.array ?? []
        #expect(references.map { $0["range"]?.span ?? [] } == [[2, 4, 2, 8], [8, 18, 8, 22]])
        let uses = client.at("textDocument/references", FeatureTests.uri, 2, 5,
                             extra: [("context", .object([("includeDeclaration", .bool(false))]))])?.array ?? []
        #expect(uses.count == 1)
        // A view named only by a tween: its first mention (line 3, `shrink circle`, 9..15).
        #expect(client.at("textDocument/definition", FeatureTests.uri, 3, 10)?["range"]?.span == [3, 9, 3, 15])

        _ = client.change(FeatureTests.uri, Client.example("pulse.anim"))
        // `v` in the body of `pulse` (line 9, character 7) is the parameter at line 8, 10..11.
        #expect(client.at("textDocument/definition", FeatureTests.uri, 9, 7)?["range"]?.span == [8, 10, 8, 11])
        let vs = client.at("textDocument/references", FeatureTests.uri, 8, 10)?.array ?? []
        #expect(vs.map { $0["range"]?.span ?? [] } == [[8, 10, 8, 11], [9, 7, 9, 8], [9, 52, 9, 53]])
        // `quick` is used in both bodies.
        let quick = client.at("textDocument/references", FeatureTests.uri, 3, 5)?.array ?? []
        #expect(quick.count == 4)
        // In a `let` being typed (it does not parse yet), a name the file binds still hovers and jumps.
        _ = client.change(FeatureTests.uri, Client.example("pulse.anim") + "let more = rise(title) ; pulse(title) with\n", version: 3)
        #expect(client.at("textDocument/definition", FeatureTests.uri, 18, 26)?["range"]?.span == [8, 4, 8, 9])
        #expect(client.at("textDocument/hover", FeatureTests.uri, 18, 26)?["contents"]?["value"]?.string?.contains("let pulse(") == true)
        // Off any name: nothing.
        #expect(client.at("textDocument/definition", FeatureTests.uri, 0, 0) == .null)
    }

    @Test func aBinaryOrHugeDocumentGetsDiagnosticsNotAHang() {
        let client = Client()
        client.start()
        var generator = SystemRandomNumberGenerator()
        let binary = String(decoding: (0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }, as: UTF8.self)
        #expect(!client.open("file:///binary.anim", binary).isEmpty)
        let huge = String(repeating: "let a = fadeIn x with ease-inout\n", count: 20_000)
        let diagnostics = client.open("file:///huge.anim", huge)
        #expect(!diagnostics.isEmpty)
        #expect(diagnostics.count <= maxParseDiagnostics)
        // Positions far past the end are clamped, not trapped on.
        #expect(client.at("textDocument/hover", "file:///huge.anim", 1_000_000, 1_000_000) == .null)
        #expect(client.at("textDocument/hover", "file:///huge.anim", -3, -1) == .null)
    }

    /// Every request at positions all over every example (every line, every
    /// fourth column and the line's end): each answer has the shape its
    /// method's result has, and every range it gives lies inside the file.
    @Test func everyRequestAnywhereOnTheExamplesAnswersInShape() {
        for name in Client.examples {
            let client = Client()
            client.start()
            let uri = "file:///examples/" + name
            let text = Client.example(name)
            _ = client.open(uri, text)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.utf16.count }
            func inside(_ range: JSON?) -> Bool {
                let span = range?.span ?? []
                guard span.count == 4, span[0] >= 0, span[2] < lines.count, span[0] <= span[2] else { return false }
                return span[1] >= 0 && span[1] <= lines[span[0]] && span[3] <= lines[span[2]]
            }
            for (line, length) in lines.enumerated() {
                for character in Array(stride(from: 0, through: length, by: 4)) + [length] {
                    let hover = client.at("textDocument/hover", uri, line, character)
                    #expect(hover == .null || (hover?["contents"]?["value"]?.string != nil && inside(hover?["range"])), "\(name):\(line):\(character)")
                    let items = client.at("textDocument/completion", uri, line, character)?["items"]
                    #expect(items?.array.allSatisfy { $0["label"]?.string?.isEmpty == false } == true, "\(name):\(line):\(character)")
                    let definition = client.at("textDocument/definition", uri, line, character)
                    #expect(definition == .null || inside(definition?["range"]), "\(name):\(line):\(character)")
                    let references = client.at("textDocument/references", uri, line, character)?.array ?? []
                    #expect(references.allSatisfy { inside($0["range"]) }, "\(name):\(line):\(character)")
                    // A name with a definition is among its own references.
                    if let target = definition, target != .null {
                        #expect(references.contains { $0["range"] == target["range"] }, "\(name):\(line):\(character)")
                    }
                }
            }
        }
    }
}
