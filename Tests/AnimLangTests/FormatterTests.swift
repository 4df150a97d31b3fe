import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// `animc fmt` (``formatSource(_:width:)``): the canonical layout, worked out by
/// hand from the rules in its doc comment, and the properties that must hold
/// for every file — idempotent, every comment kept in order, the same tokens,
/// the same program and the same animation; a file with errors left alone.
struct FormatterTests {
    func formatted(_ text: String, width: Int = 100) -> String? {
        if case .formatted(let result) = formatSource(SourceFile(name: "f.anim", text: text), width: width) { return result.text }
        return nil
    }

    // MARK: The layout, by hand

    @Test func spacingAroundOperatorsAndInsideParentheses() {
        // One space around `;` `||` `*` `+` `^` `=`, none inside parentheses nor before `,`; `2*pi` and `300ms`
        // keep their adjacency (spacing inside a number is the author's); the file ends with one line break.
        #expect(formatted("let  a=grow c from 1 to 2;fade c to 0||( wait 1s*wait 2s )^2") ==
                "let a = grow c from 1 to 2 ; fade c to 0 || (wait 1s * wait 2s) ^ 2\n")
        #expect(formatted("let b = rotate c from 0 to 2*pi radians in 300ms\n\n\n") ==
                "let b = rotate c from 0 to 2*pi radians in 300ms\n")
        #expect(formatted("let f( v ,d = 2s )= fadeIn v in d\nlet g = f(x , 1s)+f(y)") ==
                "let f(v, d = 2s) = fadeIn v in d\nlet g = f(x, 1s) + f(y)\n")
    }

    @Test func itemsOnePerLineBlankLinesKeptOnce() {
        // Two items on one line are split; one blank line of three is kept; none is added.
        #expect(formatted("let a = wait 1 let b = a\n\n\n\nlet c = b\nlet d = c") ==
                "let a = wait 1\nlet b = a\n\nlet c = b\nlet d = c\n")
        // A `;` that ends an item stays on its item, with no space before it.
        #expect(formatted("let a = wait 1 ; let b = a") == "let a = wait 1;\nlet b = a\n")
    }

    @Test func aChainBrokenAnywhereIsBrokenAtEveryOperatorAligned() {
        // Broken after `=`: indented 2, the first operand padded past `|| ` so the operands align.
        let source = "let enter =\n  fadeIn card ||\n      rotate card from 0 to 1 || scale card from 0 to 1\n"
        #expect(formatted(source) == """
            let enter =
                 fadeIn card
              || rotate card from 0 to 1
              || scale card from 0 to 1

            """)
        // Broken on the `let` line: operators placed so the operands align under the first (column 8).
        #expect(formatted("let a = wait 1\n; wait 2 ; wait 3") == "let a = wait 1\n      ; wait 2\n      ; wait 3\n")
    }

    @Test func aChainPastTheWidthIsBroken() {
        // `let a = ` is 8 columns; the chain is 3 × 10 + 2 × 3 = 36 wide: 44 > 40 breaks it, 44 ≤ 50 does not.
        let source = "let a = wait 1000s || wait 2000s || wait 3000s"
        #expect(formatted(source, width: 40) == "let a = wait 1000s\n     || wait 2000s\n     || wait 3000s\n")
        #expect(formatted(source, width: 50) == source + "\n")
        // Only the chain that does not fit: the inner `;` chain (16 wide at column 13) stays on its line.
        #expect(formatted("let a = wait 1000s || (wait 1s ; wait 2s) || wait 3000s", width: 40) ==
                "let a = wait 1000s\n     || (wait 1s ; wait 2s)\n     || wait 3000s\n")
    }

    @Test func commentsStayWhereTheyBelong() {
        let source = """
            # header

            let a = wait 1   # trailing
            # before b
            let b =
              # before the body
              a ;   # after the operator
              a
            // end
            """
        #expect(formatted(source) == """
            # header

            let a = wait 1 # trailing
            # before b
            let b =
              # before the body
                a
              ; # after the operator
                a
            // end

            """)
    }

    @Test func trailingCommentsOnConsecutiveLinesAlign() {
        #expect(formatted("let a = wait 1 # one\nlet bbb = wait 2   # two\n\nlet c = a # three\n") ==
                "let a = wait 1   # one\nlet bbb = wait 2 # two\n\nlet c = a # three\n")
    }

    @Test func consecutiveViewsAlign() {
        // `view ` is 5 columns and the longest name 6: what follows every name starts at column 12.
        #expect(formatted("view a opacity 0\nview button x 1 y 2\nview c\n\nview d  x 3\nlet f = fadeIn a") ==
                "view a      opacity 0\nview button x 1 y 2\nview c\n\nview d x 3\nlet f = fadeIn a\n")
    }

    @Test func continuationLinesIndentPastTheirClause() {
        // A line break inside a tween is kept, the line indented 2 past the clause (column 0 for the item).
        #expect(formatted("let a = animate v.x\n        from 0 to 1") == "let a = animate v.x\n  from 0 to 1\n")
    }

    @Test func aFileWithSyntaxErrorsIsRefused() {
        let source = "let a = grow c from 1 to\nlet b = a"
        guard case .refused(let diagnostics) = formatSource(SourceFile(name: "f.anim", text: source)) else {
            Issue.record("formatted a file with an error")
            return
        }
        #expect(!diagnostics.isEmpty && diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func editsTouchOnlyGapsAndRebuildTheFile() throws {
        let source = "let a=wait 1\nlet b = a ;a"
        guard case .formatted(let result) = formatSource(SourceFile(name: "f.anim", text: source)) else {
            Issue.record("refused")
            return
        }
        var bytes = Array(source.utf8)
        for edit in result.edits.reversed() {
            bytes.replaceSubrange(edit.range.start..<edit.range.end, with: Array(edit.text.utf8))
            // Every edit replaces blanks only.
            #expect(source.utf8.dropFirst(edit.range.start).prefix(edit.range.end - edit.range.start).allSatisfy { $0 == 32 || $0 == 10 })
        }
        #expect(bytes == result.bytes)
    }

    // MARK: Properties

    /// Every comment's text, in order.
    static func comments(_ text: String) -> [String] {
        let file = SourceFile(name: "c.anim", text: text)
        let tokens = tokenize(file).tokens
        var result: [String] = []
        var start = 0
        for token in tokens {
            result += gapComments(file.bytes, SourceRange(start, token.range.start)).comments.map { String($0.text) }
            start = token.range.end
        }
        return result
    }

    /// The checks every formatted file passes; `nil` when they all hold, else what failed.
    static func check(_ text: String, name: String) -> String? {
        let file = SourceFile(name: name, text: text)
        guard case .formatted(let once) = formatSource(file) else { return "\(name): refused" }
        guard case .formatted(let twice) = formatSource(SourceFile(name: name, bytes: once.bytes)) else {
            return "\(name): the formatted file is refused"
        }
        if twice.bytes != once.bytes { return "\(name): not idempotent:\n\(once.text)\n---\n\(twice.text)" }
        if comments(text) != comments(once.text) { return "\(name): comments changed:\n\(once.text)" }
        let before = run(file), after = run(SourceFile(name: name, bytes: once.bytes))
        guard before.hasErrors == after.hasErrors else { return "\(name): errors differ" }
        if let left = before.scene, let right = after.scene {
            guard (try? Scene.sameAnimation(left, right, initial: (before.initial, after.initial))) == .same else {
                return "\(name): a different animation:\n\(once.text)"
            }
        }
        return nil
    }

    @Test(arguments: ExampleTests.examples)
    func everyExampleFormatsToTheSameAnimationAndTable(_ name: String) throws {
        let path = "examples/" + name
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        #expect(FormatterTests.check(text, name: path) == nil, "\(FormatterTests.check(text, name: path) ?? "")")
        guard let once = formatted(text) else { return }
        let options = EvalOptions(directiveIn: text)
        let table = { (source: String) in
            evaluateToText(SourceFile(name: path, text: source), binding: options.binding, fps: options.fps,
                           at: options.times, until: options.until, format: .table).output
        }
        #expect(table(once) == table(text))
    }

    /// Generated programs, printed, with comments at random token boundaries (where a
    /// comment's line break leaves the program as it was) and random blanks elsewhere.
    @Test(arguments: [7, 0xF0A7] as [UInt64])
    func generatedProgramsWithComments(seed: UInt64) {
        var generator = ProgramGenerator(seed: seed)
        var random = ProgramGenerator.SplitMix64(seed: seed ^ 0xC0AA_E475)
        var commented = 0
        for index in 0..<250 {
            let plain = format(generator.program())
            let reference = parse(SourceFile(name: "g.anim", text: plain)).program
            let file = SourceFile(name: "g.anim", text: plain)
            let tokens = tokenize(file).tokens
            var bytes = file.bytes
            // From the end, so earlier offsets stay valid.
            for token in tokens.reversed() where random.next() % 4 == 0 {
                let blanks: [String] = [" # c\(random.next() % 100)\n", "  // note \(index)\n  ", "\n", "   ", "\n\n# own line\n"]
                let insert = Array(blanks[Int(random.next() % UInt64(blanks.count))].utf8)
                var trial = bytes
                trial.insert(contentsOf: insert, at: token.range.start)
                let result = parse(SourceFile(name: "g.anim", bytes: trial))
                if !result.hasErrors, result.program == reference { bytes = trial }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if !FormatterTests.comments(text).isEmpty { commented += 1 }
            if let failure = FormatterTests.check(text, name: "seed \(seed) program \(index)") {
                Issue.record("\(failure)\n--- input:\n\(text)")
                return
            }
            // The same tokens, so the same program (checked inside formatSource too).
            if let once = formatted(text) {
                #expect(parse(SourceFile(name: "g.anim", text: once)).program == reference)
            }
        }
        #expect(commented > 200)
    }

    @Test func malformedFilesAreLeftByteIdentical() throws {
        let directory = packageRoot.appendingPathComponent("Tests/AnimLangTests/Golden/malformed")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".anim") }.sorted()
        #expect(names.count > 20)
        for name in names {
            let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
            let file = SourceFile(name: name, bytes: bytes)
            guard parse(file).hasErrors else { continue }
            if case .formatted = formatSource(file) { Issue.record("\(name) has errors but was formatted") }
        }
    }
}
