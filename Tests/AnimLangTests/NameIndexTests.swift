import Testing
@testable import AnimLang

/// ``NameIndex``: every place a `let`, a parameter or a view is written.
struct NameIndexTests {
    static func index(_ text: String) -> (NameIndex, String) {
        (NameIndex(resolve(parse(SourceFile(name: "t.anim", text: text)).program)), text)
    }

    /// The source text of each range.
    static func texts(_ ranges: [SourceRange], in text: String) -> [String] {
        let bytes = Array(text.utf8)
        return ranges.map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }
    }

    static func offset(of needle: String, in text: String, occurrence: Int = 0) -> Int {
        var from = text.startIndex
        var count = 0
        while let found = text[from...].range(of: needle) {
            if count == occurrence { return text.utf8.distance(from: text.startIndex, to: found.lowerBound) }
            count += 1
            from = found.upperBound
        }
        return -1
    }

    @Test func letsParametersAndViewsAreFoundWhereTheyAreWritten() {
        let text = """
            view card opacity 0
            let gap = 80ms
            let pop(v, d = 1s) = grow v from 1 to 2 in d ; fadeIn v delayed by gap
            let final = pop(card) ; fadeOut card ; pop(badge, gap)
            """
        let (names, _) = NameIndexTests.index(text)
        let gapUses = names.references(of: .binding("gap"))
        #expect(gapUses.map(\.start) == [NameIndexTests.offset(of: "gap", in: text), NameIndexTests.offset(of: "gap", in: text, occurrence: 1),
                                         NameIndexTests.offset(of: "gap", in: text, occurrence: 2)])
        #expect(NameIndexTests.texts(gapUses, in: text) == ["gap", "gap", "gap"])
        let v = NameIndex.Symbol.parameter(binding: "pop", name: "v")
        #expect(names.references(of: v).count == 3)
        #expect(names.declaration(of: v)?.start == NameIndexTests.offset(of: "v,", in: text))
        #expect(names.references(of: .parameter(binding: "pop", name: "d")).count == 2)
        // `card`: declared, given to `pop`, faded out.
        let card = names.references(of: .view("card"))
        #expect(card.map(\.start) == [5, NameIndexTests.offset(of: "card)", in: text), NameIndexTests.offset(of: "card ;", in: text)])
        #expect(names.declaration(of: .view("card"))?.start == 5)
        // `badge` is never declared: its first mention stands in.
        #expect(names.declaration(of: .view("badge"))?.start == NameIndexTests.offset(of: "badge", in: text))
        #expect(names.references(of: .binding("pop"), includeDeclaration: false).count == 2)
    }

    @Test func theOccurrenceAtAnOffsetIncludesItsEnd() {
        let (names, text) = NameIndexTests.index("let a = fadeIn x\nlet b = a ; a\n")
        let use = NameIndexTests.offset(of: "a ;", in: text)
        #expect(names.occurrence(at: use)?.symbol == .binding("a"))
        #expect(names.occurrence(at: use + 1)?.symbol == .binding("a"))
        #expect(names.occurrence(at: use + 2) == nil)
        #expect(names.occurrence(at: NameIndexTests.offset(of: "x", in: text))?.symbol == .view("x"))
        #expect(names.occurrence(at: 0) == nil)
    }
}
