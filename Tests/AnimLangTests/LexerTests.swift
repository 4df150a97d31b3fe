import Testing
@testable import AnimLang
@testable import AnimOutputs
import Animations

/// Kinds and texts of the tokens of `source`, without the final `eof`.
private func lex(_ source: String) -> [String] {
    let file = SourceFile(name: "test.anim", text: source)
    let (tokens, _) = tokenize(file)
    return tokens.dropLast().map { token in
        switch token.kind {
        case .name: return token.text(in: file)
        case .number: return "#" + token.text(in: file)
        case .invalid: return "!" + token.text(in: file)
        case .color: return "colour " + token.text(in: file)
        case .leftParen, .rightParen, .comma, .dot, .equals, .semicolon, .star, .plus, .minus, .slash, .caret, .parallel, .percent,
             .eof:
            return token.kind == .parallel ? "||" : token.text(in: file)
        }
    }
}

private func lexDiagnostics(_ source: String) -> [Diagnostic] {
    tokenize(SourceFile(name: "test.anim", text: source)).diagnostics
}

@Suite struct LexerTests {
    @Test func talkProgram() {
        #expect(lex("let left = shrink circle from radius 100 to 10 with an ease-in-out")
            == ["let", "left", "=", "shrink", "circle", "from", "radius", "#100", "to", "#10", "with", "an", "ease-in-out"])
        #expect(lex("let final = fadeIn all views * ((left + right) looped once)")
            == ["let", "final", "=", "fadeIn", "all", "views", "*", "(", "(", "left", "+", "right", ")", "looped", "once", ")"])
    }

    @Test func punctuation() {
        #expect(lex("( ) , . = ; * + - / ^ ||") == ["(", ")", ",", ".", "=", ";", "*", "+", "-", "/", "^", "||"])
        #expect(lex("a||b;c") == ["a", "||", "b", ";", "c"])
        #expect(lex("v.radius") == ["v", ".", "radius"])
    }

    @Test func names() {
        #expect(lex("ease-in-out jump-start my-view _x a_1 B2") == ["ease-in-out", "jump-start", "my-view", "_x", "a_1", "B2"])
        // A hyphen belongs to a name only before a letter.
        #expect(lex("x-1") == ["x", "-", "#1"])
        #expect(lex("a--b") == ["a", "-", "-", "b"])
        #expect(lex("ease-in-") == ["ease-in", "-"])
        #expect(lex("a-_b") == ["a", "-", "_b"])
    }

    @Test func numbers() {
        #expect(lex("2 0.25 1e-3 12.5E+2 1e5") == ["#2", "#0.25", "#1e-3", "#12.5E+2", "#1e5"])
        // A letter after a number starts a new token: units.
        #expect(lex("2s 250ms 1.5sec") == ["#2", "s", "#250", "ms", "#1.5", "sec"])
        // An `e` not followed by an exponent is a name.
        #expect(lex("2em 3e+x") == ["#2", "em", "#3", "e", "+", "x"])
        // `1.` with no digit after the point is `1` then `.`.
        #expect(lex("1.x") == ["#1", ".", "x"])
        #expect(lex("2*pi") == ["#2", "*", "pi"])
    }

    @Test func commentsAndWhitespace() {
        #expect(lex("a # comment ; b\nc // another || d\n\te") == ["a", "c", "e"])
        #expect(lex("a\r\nb\r\n") == ["a", "b"])
        #expect(lex("1/2 // half") == ["#1", "/", "#2"])
        #expect(lex("# ünïcödé → in a comment is fine\nx") == ["x"])
        #expect(lexDiagnostics("# ünïcödé → in a comment is fine\nx").isEmpty)
    }

    @Test func ranges() {
        let file = SourceFile(name: "t", text: "let  ab = 12")
        let (tokens, _) = tokenize(file)
        #expect(tokens.map(\.range) == [SourceRange(0, 3), SourceRange(5, 7), SourceRange(8, 9), SourceRange(10, 12), SourceRange(12, 12)])
        #expect(tokens.last?.kind == .eof)
    }

    @Test func emptyFile() {
        let (tokens, diagnostics) = tokenize(SourceFile(name: "t", text: ""))
        #expect(tokens.count == 1 && tokens[0].kind == .eof)
        #expect(diagnostics.isEmpty)
    }

    @Test func lonePipeIsRepairedToParallel() {
        #expect(lex("a | b") == ["a", "||", "b"])
        let diagnostics = lexDiagnostics("a | b")
        #expect(diagnostics.map(\.id) == ["lone-pipe"])
        #expect(diagnostics.first?.hint == "did you mean `||`?")
    }

    @Test func leadingDecimalPointIsRepairedToNumber() {
        #expect(lex("wait .5s") == ["wait", "#.5", "s"])
        let diagnostics = lexDiagnostics("wait .5s")
        #expect(diagnostics.map(\.id) == ["leading-decimal-point"])
        #expect(diagnostics.first?.hint == "write 0.5")
    }

    @Test func unexpectedCharacters() {
        #expect(lex("a @ b") == ["a", "!@", "b"])
        #expect(lex("a → b") == ["a", "!→", "b"])
        #expect(lex("a @$ b") == ["a", "!@$", "b"])  // one run, one token
        #expect(lexDiagnostics("a @$ b").count == 1)
        let diagnostics = lexDiagnostics("let naïve = x")
        #expect(diagnostics.map(\.id) == ["unexpected-character"])
        #expect(diagnostics.first?.message == "unexpected character `ï` (U+00EF)")
        #expect(diagnostics.first?.range == SourceRange(6, 8))
    }

    /// A file that is not text (invalid UTF-8 or a NUL byte anywhere) gets one
    /// error at its first bad byte, and no tokens: nothing else is read.
    @Test func aFileThatIsNotTextIsReportedOnce() {
        let bytes: [UInt8] = Array("a @ ".utf8) + [0xFF] + Array(" b ".utf8) + [0xC3] + Array(" # ".utf8) + [0xFE]
            + Array("\nc ".utf8) + [0x80, 0]
        let (tokens, diagnostics) = tokenize(SourceFile(name: "t", bytes: bytes))
        #expect(diagnostics.map(\.id) == ["invalid-utf8"])
        #expect(diagnostics.map(\.range.start) == [4])
        #expect(tokens.map(\.kind) == [.eof])
    }

    @Test func nulBytes() {
        let bytes: [UInt8] = Array("a ".utf8) + [0, 0] + Array(" b".utf8) + [0xFF]
        let (tokens, diagnostics) = tokenize(SourceFile(name: "t", bytes: bytes))
        #expect(diagnostics.map(\.id) == ["nul-byte"])
        #expect(diagnostics.map(\.range) == [SourceRange(2, 4)])
        #expect(tokens.map(\.kind) == [.eof])
    }

    /// The first bad byte is found wherever it is (the scan reads 32 and 8 bytes at a time).
    @Test func aBadByteIsFoundAtEveryOffset() {
        for bad: UInt8 in [0, 0xFF, 0x80] {
            for offset in 0..<100 {
                var bytes = Array(repeating: UInt8(ascii: "a"), count: 100)
                bytes[offset] = bad
                if offset + 1 < 100 { bytes[offset + 1] = 0xFE }   // (a second bad byte, never reported)
                let (tokens, diagnostics) = tokenize(SourceFile(name: "t", bytes: bytes))
                #expect(diagnostics.map(\.range.start) == [offset], "byte \(bad) at \(offset)")
                #expect(tokens.map(\.kind) == [.eof])
            }
        }
        // High bytes of valid UTF-8 are text: the scan goes on past them.
        let text = String(repeating: "é", count: 40) + String(repeating: "a", count: 40)
        #expect(lexDiagnostics(text).map(\.id).allSatisfy { $0 != "invalid-utf8" && $0 != "nul-byte" })
    }

    @Test func tokenText() {
        let file = SourceFile(name: "t", text: "grow c")
        let (tokens, _) = tokenize(file)
        #expect(tokens.map { $0.text(in: file) } == ["grow", "c", ""])
    }

    @Test func aMegabyteLexesQuickly() {
        let line = "let pulse = grow dot from 1 to 1.2 with ease-in-out ; grow dot from 1.2 to 1 in 250ms # beat\n"
        let text = String(repeating: line, count: 1_000_000 / line.utf8.count + 1)
        let file = SourceFile(name: "big.anim", text: text)
        let clock = ContinuousClock()
        var count = 0
        let elapsed = clock.measure {
            count = tokenize(file).tokens.count
        }
        #expect(count > 200_000)
        // Generous: a debug build; release lexes a megabyte in a few milliseconds.
        #expect(elapsed < .seconds(5))
    }
}
