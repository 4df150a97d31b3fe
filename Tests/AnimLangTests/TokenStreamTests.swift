import Testing
@testable import AnimLang
import Animations

/// The parser pulls tokens from the lexer (no array of the file's tokens):
/// what it finds before parsing (the names `let`s bind), how far it looks
/// ahead and back, and the lexer resumed in the middle of a file must agree
/// with ``tokenize(_:)``.
@Suite struct TokenStreamTests {
    /// The names after `let` tokens, from the whole token list, in order (repeats kept).
    static func reference(_ file: SourceFile) -> [String] {
        let tokens = tokenize(file).tokens
        var names: [String] = []
        for index in tokens.indices.dropLast() where tokens[index].word == .let && tokens[index + 1].kind == .name {
            names.append(tokens[index + 1].text(in: file))
        }
        return names
    }

    /// What the prescan found is what the tokens say: the set of the names,
    /// and each name in the order of its `let` (which the parser's look-up
    /// near the `let` being read relies on).
    static func check(_ file: SourceFile, _ source: String) {
        let found = namesAfterLet(in: file)
        let expected = reference(file)
        #expect(found.inOrder == expected, "\(source.debugDescription)")
        #expect(found.all == Set(expected), "\(source.debugDescription)")
        #expect(found.count == Set(expected).count)
    }

    static let tricky: [String] = [
        "", "let", "let a", "let a = 1", "  let\n\n  b = fadeIn v", "# let c\nlet d = 1", "// let e\nlet f = 1",
        "outlet g", "a-let h", "let-i j", "let let k", "let let", "#let l\nlet m = 2", "1let n", ".let o", "let\n# c\np",
        "let \"q\" r", "“let” s", "let 1", "let #abc t", "x = let", "letlet u", "let_ v", "lettuce w", "let\u{00e9} x",
        "let y let z", "view let a", "#abcdef let b", "#abcd-let c", "l e t", "le\nt d", "let\r\ne",
        String(repeating: "outlet ", count: 40) + "let f",
    ]

    @Test func namesAfterLetMatchTheTokens() {
        for source in TokenStreamTests.tricky {
            let file = SourceFile(name: "t.anim", text: source)
            TokenStreamTests.check(file, source)
        }
    }

    @Test func namesAfterLetMatchTheTokensOnGeneratedText() {
        let pieces = ["let", " ", "\n", "#", "//", "-", "x", "1", ".", "ab", "let ", "out", "#abc", "\"", "é", "\t", "(", "l", "et"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3000 {
            var source = ""
            for _ in 0..<(Int(state % 24) + 1) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                source += pieces[Int((state >> 33) % UInt64(pieces.count))]
            }
            let file = SourceFile(name: "g.anim", text: source)
            TokenStreamTests.check(file, source)
        }
    }

    /// The look-up near a `let` answers what the set answers, wherever it looks first.
    @Test func letNamesLookUpNearAnyLetIsSetMembership() {
        let sources = TokenStreamTests.tricky + ["let c0 = a\nlet c1 = c0 ; b\nlet c2 = c1 ; c0\nlet c1 = c2", "let a = b\nlet b = a"]
        for source in sources {
            let names = namesAfterLet(in: SourceFile(name: "t.anim", text: source))
            let words = Array(names.all) + ["", "let", "c3", "zz", "a ", "é"]
            for index in -2...(names.inOrder.count + 2) {
                for word in words {
                    #expect(names.contains(word, near: index) == names.all.contains(word), "\(source.debugDescription) \(word) \(index)")
                }
            }
        }
    }

    /// From any token start or line start, the resumed lexer gives the tokens the whole file's lexer gives.
    @Test func resumedLexerAgrees() {
        let source = "let a = fadeIn v ; # note\n  grow b from .5 to 2 | c &x “q” in 300ms // end\nview w at (1, 2)"
        let file = SourceFile(name: "r.anim", text: source)
        let tokens = tokenize(file).tokens
        for (index, token) in tokens.enumerated() {
            var lexer = Lexer(bytes: file.bytes, resumingAt: token.range.start)
            for expected in tokens[index...] {
                #expect(lexer.next() == expected)
            }
        }
    }

    /// A point whose `,` is further ahead than the parser's window of tokens.
    @Test func pointFoundFarAhead() {
        let x = String(repeating: "(", count: 10) + "1" + String(repeating: ")", count: 10)
        let file = SourceFile(name: "p.anim", text: "view v x 0\nlet a = move v from (\(x), 2) to (3, 4)")
        let result = parse(file)
        #expect(result.diagnostics.isEmpty)
        guard case .binding(let binding)? = result.program.items.last, case .tween(let tween) = binding.value.kind,
              case .point(let x, _, _)? = tween.from else {
            Issue.record("no point")
            return
        }
        #expect(x.value == 1)
    }

    /// Every lexical error is among the parse's diagnostics, wherever it is.
    @Test func lexicalErrorsAreReported() {
        let source = "let a = fadeIn v & w\nlet b = grow c from .5 to 2 | fadeIn d\nlet e = “f”"
        let file = SourceFile(name: "s.anim", text: source)
        let lexical = tokenize(file).diagnostics
        #expect(lexical.count == 4)
        let all = parse(file).diagnostics
        for diagnostic in lexical { #expect(all.contains(diagnostic)) }
    }
}
