import Foundation
import Testing
import AnimTestSupport
@testable import AnimLang
import Animations

/// The lexer's keyword classification, the parser's plain-literal reader and
/// the compact layout of the syntax tree.
@Suite struct KeywordTests {
    @Test func everyKeywordIsFoundAndNothingElse() {
        for word in Keyword.allCases where word != .none {
            let file = SourceFile(name: "k.anim", text: word.spelling)
            let (tokens, _) = tokenize(file)
            #expect(tokens[0].word == word, "\(word.spelling)")
            // Near misses: one letter more, one less, another case.
            for near in [word.spelling + "x", String(word.spelling.dropLast()), word.spelling.uppercased(), "x" + word.spelling] {
                let other = tokenize(SourceFile(name: "k.anim", text: near)).tokens[0]
                let expected = Keyword.allCases.first { $0 != .none && $0.spelling == near } ?? .none
                #expect(other.kind != .name || other.word == expected, "\(near)")
            }
        }
        // Long names are never keywords; names that share a keyword's first 8 bytes are not either.
        for name in ["cancelledx", "staggeredly", "backwardsy", "seconds_", "animated", "fadeInOut", "a-b", "_in"] {
            #expect(tokenize(SourceFile(name: "k.anim", text: name)).tokens[0].word == .none, "\(name)")
        }
    }

    /// The reserved words are the ones grammar.md lists ("**Reserved words**
    /// cannot name …: `let view … by`"), read from the document users read.
    @Test func reservedWordsAreTheOnesGrammarMdLists() throws {
        let grammar = try String(contentsOf: packageRoot.appendingPathComponent("grammar.md"), encoding: .utf8)
        let start = try #require(grammar.range(of: "**Reserved words** cannot name a `let`, a parameter or a view: `"))
        let end = try #require(grammar[start.upperBound...].firstIndex(of: "`"))
        let listed = Set(grammar[start.upperBound..<end].split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        #expect(listed.count == 24)
        #expect(listed == reservedWords)
    }

    /// The parser skips the colour and easing tables for a verb.
    @Test func verbsAreTheVerbsAndNameNoColourOrEasing() {
        let verbs = Keyword.allCases.filter(\.isVerb).map(\.spelling)
        #expect(Set(verbs) == Set(TweenSyntax.Verb.allCases.map(\.rawValue)))
        for verb in verbs {
            #expect(ColorNames.color(named: verb) == nil)
            #expect(EasingNames.easing(named: verb) == nil)
            #expect(!EasingNames.parameterizedCurves.contains(verb) && !EasingNames.functionalForms.contains(verb))
            #expect(!EasingNames.springAdjectives.contains { $0.word == verb })
        }
    }

    /// The parser checks a `let`'s name against the bare easing names (with
    /// `lookUp`), the functional forms and the spring adjectives: every talk
    /// curve must be among the bare names, and each bare name an easing.
    @Test func talkCurvesAreBareEasingNames() {
        for name in EasingNames.parameterizedCurves {
            #expect(lookUp(name, in: EasingNames.bareNames) != nil, "\(name)")
        }
        for name in EasingNames.allNames {
            #expect(EasingNames.easing(named: name) != nil, "\(name)")
        }
    }

    /// The hex digits of a colour, read as bytes: 3, 4, 6 or 8 of them, ASCII only.
    @Test func hexColoursReadFromBytes() {
        #expect(ColorNames.color(hex: Substring("f80")) == Color(red: 255, green: 136, blue: 0))
        #expect(ColorNames.color(hex: Substring("FF880080")) == Color(red: 255, green: 136, blue: 0, alpha: 128.0 / 255))
        #expect(ColorNames.color(hex: Array("0000ff".utf8)) == Color(red: 0, green: 0, blue: 255))
        #expect(ColorNames.color(hex: Substring("12345")) == nil)
        #expect(ColorNames.color(hex: Substring("123456789")) == nil)
        #expect(ColorNames.color(hex: Substring("12g")) == nil)
        #expect(ColorNames.color(hex: Substring("")) == nil)
    }

    @Test func tokensStayCompact() {
        #expect(MemoryLayout<Token>.stride == 24)
        #expect(MemoryLayout<Number>.stride <= 16)
        #expect(MemoryLayout<Expr>.stride <= 24)
        #expect(MemoryLayout<ValueSyntax>.stride <= 16)
        #expect(MemoryLayout<TweenSyntax>.stride <= 160)
        // A tween is one reference to its shared fields, and the kind of an
        // expression one word: `tween` is its one case held unboxed.
        #expect(MemoryLayout<TweenSyntax>.size == 8)
        #expect(MemoryLayout<Expr.Kind>.size == 8)
    }

    /// A tween's fields are shared by its copies until one is changed
    /// (copy-on-write): a change to a copy leaves the others as they were.
    @Test func tweenCopiesAreIndependent() {
        let original = TweenSyntax(verb: .animate, target: .view("box", SourceRange(8, 11)), property: "x",
                                   from: Number(Time(0)), to: Number(Time(1)), range: SourceRange(0, 30))
        var copy = original
        copy.to = .number(Number(Time(2)))
        copy.property = "y"
        copy.target = .allViews(.none)
        copy.keyframes = [Keyframe(value: .number(Number(Time(3))))]
        copy.keyframes?.append(Keyframe(value: .number(Number(Time(4)))))
        copy.by = .number(Number(Time(5)))
        copy.verb = .move
        copy.angleUnit = .turns
        copy.range = SourceRange(1, 2)
        #expect(original.to == .number(Number(Time(1))))
        #expect(original.from == .number(Number(Time(0))))
        #expect(original.by == nil)
        #expect(original.property == "x")
        #expect(original.target == .view("box", .none))
        #expect(original.target.range == SourceRange(8, 11))
        #expect(original.keyframes == nil)
        #expect(original.verb == .animate)
        #expect(original.angleUnit == nil)
        #expect(original.range == SourceRange(0, 30))
        #expect(copy.keyframes?.count == 2)
        #expect(copy.by == .number(Number(Time(5))))
        #expect(copy.from == .number(Number(Time(0))))
        #expect(copy != original)
        var same = original
        same.range = SourceRange(5, 6)
        #expect(same == original)
        let expr = Expr(.tween(original))
        var other = expr
        if case .tween(var tween) = other.kind {
            tween.to = .number(Number(Time(7)))
            other.kind = .tween(tween)
        }
        #expect(other != expr)
        if case .tween(let tween) = expr.kind { #expect(tween.to == .number(Number(Time(1)))) }
    }

    /// A tween's target, stored as its parts, reads back as written.
    @Test func tweenTargetRoundTrips() {
        var tween = TweenSyntax(verb: .grow, target: .view("ball", SourceRange(3, 7)))
        #expect(tween.target == .view("ball", .none))
        #expect(tween.target.range == SourceRange(3, 7))
        tween.target = .allViews(SourceRange(10, 19))
        #expect(tween.target == .allViews(.none))
        #expect(tween.target.range == SourceRange(10, 19))
        tween.target = .view("", SourceRange(1, 1))
        #expect(tween.target == .view("", .none))
    }

    /// Plain literals are read without `strtod`: the same `Double` and the same exact value.
    @Test func plainLiteralsReadAsStrtodReadsThem() throws {
        var literals = ["0", "1", "0.1", "0.25", "10", "007", "0.000", "123456789012345678", "9007199254740993",
                        "9007199254740991", "0.30000000000000004", "1.7976931348623157", "99999999999999999.9",
                        "0.1234567890123456789", "4503599627370497.5", ".5", "3.14159265358979"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let whole = String(UInt64.random(in: 0...999_999_999, using: &generator))
            let fraction = String(UInt64.random(in: 0...999_999_999, using: &generator))
            literals.append("\(whole.prefix(Int.random(in: 1...9, using: &generator))).\(fraction.prefix(Int.random(in: 1...9, using: &generator)))")
        }
        for literal in literals {
            let file = SourceFile(name: "n.anim", text: "let a = wait \(literal)")
            let result = parse(file)
            guard case .wait(let duration)? = result.program.bindings.first?.value.kind else {
                Issue.record("\(literal) did not parse")
                continue
            }
            let text = literal.hasPrefix(".") ? "0" + literal : literal
            #expect(duration.number.value.bitPattern == (Double(text) ?? .nan).bitPattern, "\(literal)")
            #expect(duration.number.exact == Time(decimal: text), "\(literal)")
        }
    }
}
