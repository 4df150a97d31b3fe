import Animations

/// Parses a `.anim` file into a ``Program``.
///
/// ```swift
/// let file = SourceFile(name: "talk.anim", text: """
///     let left  = shrink circle from radius 100 to 10 with an ease-in-out
///     let right = rotate square from 0 to 2*pi radians with a high ease-out
///     let final = fadeIn all views * ((left + right) looped once)
///     """)
/// let result = parse(file)
/// result.program.bindings.map(\.name)   // ["left", "right", "final"]
/// result.diagnostics                    // []
/// ```
///
/// Parsing never stops at the first mistake. After a syntax error the parser
/// skips to the next `let` or `view` and goes on, so one run reports every
/// independent error (at most 100), and the items that did parse are in the
/// program. Mistakes in values rather than in syntax (a count of 2.5,
/// `steps(0)`, `1/0`, a reserved word as a name) are reported without
/// skipping anything.
///
/// Numbers are folded here: `2*pi` is one ``Number``. Durations and counts
/// keep their exact rational values when every operand was a decimal literal.
/// Expressions may nest at most 256 levels deep (``maxExpressionNesting``).
public func parse(_ file: SourceFile) -> ParseResult {
    var parser = Parser(file: file)
    let program = parser.program()
    // The parser may stop early (at 100 diagnostics): the lexer still reads the whole file.
    while parser.lexer.next().kind != .eof {}
    var result = ParseResult(program: program, diagnostics: inSourceOrder(parser.lexer.diagnostics + parser.diagnostics + parser.warnings))
    result.brokenBindings = parser.brokenBindings
    return result
}

/// What ``parse(_:)`` returns: the program, and every diagnostic of the lexer
/// and the parser in source order.
public struct ParseResult: Sendable {
    public var program: Program
    public var diagnostics: [Diagnostic]
    /// Names of `let`s whose right-hand side did not parse: they exist, so
    /// using them is not a second error.
    public var brokenBindings: Set<String> = []

    public init(program: Program, diagnostics: [Diagnostic]) {
        self.program = program
        self.diagnostics = diagnostics
    }

    /// Whether any diagnostic is an error (warnings do not count).
    public var hasErrors: Bool {
        diagnostics.contains { $0.severity == .error }
    }
}

/// The words that cannot name a `let` or a view. Every other word is a
/// keyword only where the grammar expects it. Spelled once, in the lexer's
/// ``Keyword`` (its reserved range); built on first use, which only
/// diagnostics and the editor server need.
public let reservedWords: Set<String> = Set(Keyword.allCases.lazy.filter(\.isReserved).map(\.spelling))

/// How deeply expressions may nest: parentheses, unary minus and `compose(…)`
/// in the source, and levels of the syntax tree. Deeper input gets the
/// `nesting-too-deep` error instead of exhausting the stack.
public let maxExpressionNesting = 256

/// At most this many diagnostics are reported for one file.
public let maxParseDiagnostics = 100

// MARK: - Parser

extension Expr {
    /// Whether it is a point written out (`(x, y)`).
    var isPoint: Bool {
        if case .value(.plain(.point)) = kind { return true }
        return false
    }
}

/// Unwinds to the start of the item after a syntax error (already reported).
private struct SyntaxError: Error {}

/// An expression and the height of its tree, which the parser bounds.
private struct Parsed {
    var expr: Expr
    var height: Int
}

private let modifierWords: Set<String> = ["reversed", "looped", "repeated", "delayed", "staggered", "in", "with", "played"]
/// Words that may follow a duration other than modifiers and reserved words (`overlapping by`
/// after a part's `in DUR` is one of those): a stagger's `backwards` and `spaced E`.
private let durationFollowers: Set<String> = ["backwards", "spaced"]
private let verbs: [String] = ["shrink", "grow", "scale", "rotate", "fadeIn", "fadeOut", "fade", "animate", "color", "move"]
/// The functional colour notations.
private let colorFunctions: Set<String> = ["rgb", "rgba", "hsl", "hsla"]
private let durationUnits: [String] = ["s", "sec", "seconds", "ms"]
/// Units of time spelt as other languages spell them, and the unit `.anim` spells.
private let durationUnitAliases: [String: String] = [
    "millis": "ms", "milli": "ms", "msec": "ms", "msecs": "ms", "millisecond": "ms", "milliseconds": "ms",
    "second": "seconds", "secs": "sec",
]
private let angleUnits: [String] = ["degrees", "deg", "radians", "rad", "turns"]
/// CSS's units of length, which a value written as in a style sheet carries (`100px`).
private let cssUnits: Set<String> = ["px", "em", "rem", "pt", "vw", "vh", "dp", "cm", "mm"]
private let stepPositions: [String] = ["jump-start", "jump-end", "jump-none", "jump-both", "start", "end"]

/// The strings and literal values of short tokens, by their bytes: a script
/// spells the same few names and numbers again and again, and reading one
/// again from this table is much cheaper than making its `String` or its
/// exact value anew. A pure memo (the same bytes always give the same
/// answer), so the copies of a parser made to look ahead share it.
///
/// A key is a token's bytes (1 to 8 of them) packed little-endian: no token
/// holds a NUL byte (a file with one has no tokens), so the key fixes the
/// length too, and 0 is no token's key.
private final class SpellingMemo {
    struct Name {
        var key: UInt64 = 0
        var text = ""
    }
    struct Literal {
        var key: UInt64 = 0
        /// The literal's number as first read (its range is the first occurrence's).
        var number = Number(Time.zero)
    }
    static let size = 64
    // (Unchecked: the parser reads and writes them one access at a time, never
    // overlapping; checking each access at run time costs more than the memo saves, measured.)
    @exclusivity(unchecked) var names = [Name](repeating: Name(), count: SpellingMemo.size)
    @exclusivity(unchecked) var literals = [Literal](repeating: Literal(), count: SpellingMemo.size)
    /// ``quantityLets(in:)`` of the file, read the first time a clause asks.
    var quantityLets: Set<String>?

    /// The key of `bytes[range]`, or 0 when it is empty or longer than 8 bytes.
    @inline(__always)
    static func key(_ bytes: [UInt8], _ range: SourceRange) -> UInt64 {
        let length = range.end - range.start
        guard length >= 1, length <= 8, range.start >= 0, range.end <= bytes.count else { return 0 }
        return bytes.withUnsafeBufferPointer { KeywordTable.pack($0, range.start, range.end).0 }
    }

    /// The text of `range` in `file`, read from the memo when it is a short token's.
    func text(_ range: SourceRange, in file: SourceFile) -> String {
        let key = SpellingMemo.key(file.bytes, range)
        guard key != 0 else { return file.text(range) }
        let slot = SpellingMemo.slot(key)
        if names[slot].key == key { return names[slot].text }
        let text = file.text(range)
        names[slot] = Name(key: key, text: text)
        return text
    }

    /// The slot of a key (`0..<size`).
    @inline(__always)
    static func slot(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }
}

private struct Parser {
    let file: SourceFile
    let bytes: [UInt8]
    let memo: SpellingMemo
    /// Where the tokens come from, one at a time: no array of the file's tokens is made.
    var lexer: Lexer
    /// The next ``lookahead`` tokens: `ahead0` is the token here (the lexer is
    /// always that far ahead); ``peek(_:)`` reads further ahead with a copy of
    /// the lexer. Three plain fields, shifted by ``advance()``: no array to
    /// check for uniqueness or copy, and the grammar looks at most two tokens
    /// past the one here (further only in rare cases, such as `ease in out`).
    var ahead0: Token
    var ahead1: Token
    var ahead2: Token
    static let lookahead = 3
    /// The token consumed last (the end of file before any).
    var last = Token(.eof, .none)
    /// How many tokens were consumed (the end of file is never consumed).
    var current = 0
    /// How many of the tokens consumed are numbers.
    var numbersConsumed = 0
    /// The last `let` or `view` consumed (where an item starts), as the index
    /// of the token and its offset; index 0 and offset 0 before any.
    var itemStart = (index: 0, offset: 0)
    var diagnostics: [Diagnostic] = []
    /// The warnings, apart: a trial parse (a copy of the parser) that reports an error appends to
    /// `diagnostics`, and copies only what is there, not a hundred warnings.
    var warnings: [Diagnostic] = []
    /// How many errors were reported (``keep(_:)``): at ``maxParseDiagnostics`` the parse stops.
    var errorCount = 0
    var brokenBindings: Set<String> = []
    /// Nesting of parentheses, unary minus and `compose(` being parsed.
    var depth = 0
    /// Which names are `let`s, parameters and named numbers, and each
    /// parameter's uses: asked and told by the grammar's methods, kept apart
    /// from them (``NameKinds``).
    var names: NameKinds
    /// Whether names may stand in numbers here (not inside an easing's or a
    /// colour's arguments, nor in an offset: those are read at once).
    var namesAllowed = true
    /// Whether a unit may follow a literal, a parenthesised number or a name
    /// (inside a duration: docs/semantics.md §8.4).
    var unitsAllowed = false
    /// Where the text stops: just after the last token. A mistake found at
    /// the end of the file is reported here, on the last line of real text,
    /// rather than on the empty line after a final newline or comment.
    /// (Asked only about the end of file, so the lexer has read all of it.)
    var endOfText: SourceRange {
        SourceRange(lexer.lastEnd, lexer.lastEnd)
    }

    /// A copy of `parser` looking `count` tokens further (for looking ahead with its helpers).
    init(copying parser: Parser, advancedBy count: Int) {
        self = parser
        for _ in 0..<count { advance() }
    }

    init(file: SourceFile) {
        self.file = file
        bytes = file.bytes
        memo = SpellingMemo()
        var lexer = Lexer(bytes: file.bytes)
        ahead0 = lexer.next()
        ahead1 = lexer.next()
        ahead2 = lexer.next()
        self.lexer = lexer
        names = NameKinds(namesAfterLet(in: file))
    }

    // MARK: Items

    /// program = { item } ;
    mutating func program() -> Program {
        var items: [Item] = []
        // Most items are `let`s, one per name: reserving that many spares the
        // doubling's copies and its slack (an `Item` is large, and the slack
        // of a long script's doublings outgrows its items). Views or a name bound
        // twice only grow it past this as before.
        items.reserveCapacity(names.letCount)
        // Errors stop the parse, not warnings: a long script with a warning per group is read whole.
        while !check(.eof), errorCount < maxParseDiagnostics {
            do {
                items.append(try item())
            } catch {
                synchronize()
            }
        }
        return Program(items: items)
    }

    /// item = "let" NAME "=" expr | "view" NAME { NAME number } ;
    mutating func item() throws(SyntaxError) -> Item {
        if checkWord(.let) { return .binding(try binding()) }
        if checkWord(.view) { return .view(try viewDeclaration()) }
        let token = peek()
        var hint: String?
        var fix: String?
        if token.kind == .name, let match = closestMatch(to: text(token), in: ["let", "view"]) {
            hint = didYouMean(match)
            fix = match
        } else if token.kind == .rightParen {
            hint = "there is no `(` for this `)` to close"
        } else if token.kind == .color {
            hint = commentHint(token)
        }
        throw error(.expectedItem(found: describe(token)), at: token, hint: hint, fix: fix)
    }

    mutating func binding() throws(SyntaxError) -> Binding {
        let keyword = advance()
        names.beginBinding()
        let (name, nameRange) = try declaredName(after: keyword, role: .binding)
        defer { names.endBinding() }
        do {
            var declared: [Parameter]?
            if check(.leftParen), onSameLine(nameRange, peek().range) { declared = try parameterList(of: name) }
            try consume(.equals, after: declared == nil ? "`let \(name)`" : "the parameters",
                        hint: "a binding is written `let NAME = EXPR`")
            let value = declared == nil ? try valueOrExpression(ends: { $0.endsItem() }) : try expression()
            try endOfItem()
            if var list = declared {
                for index in list.indices { list[index].uses = names.uses(ofParameter: index) }
                declared = list
            } else {
                names.bound(name, to: value.expr)
            }
            return Binding(name: name, nameRange: nameRange, parameters: declared, value: value.expr,
                           range: keyword.range.union(value.expr.range))
        } catch {
            brokenBindings.insert(name)
            throw error
        }
    }

    /// `( P1 [= DEFAULT], … )` after a `let`'s name. A default is read in
    /// the file's scope (no parameter is visible in it); once one parameter
    /// has a default, every later one needs one.
    mutating func parameterList(of binding: String) throws(SyntaxError) -> [Parameter] {
        let open = advance()
        var list: [Parameter] = []
        var firstDefault: SourceRange?
        while !check(.rightParen) {
            if !list.isEmpty { try consume(.comma, after: "a parameter", hint: "separate parameters with commas: `let f(a, b) = …`") }
            let token = peek()
            guard token.kind == .name, !startsItem(token) else {
                throw error(.expectedName(after: list.isEmpty ? "(" : ",", found: describe(token)), at: token,
                            hint: "parameters are names: `let pulse(v, amount = 1.1) = …`")
            }
            advance()
            let name = text(token)
            checkBindableName(name, reserved: isReserved(token), at: token.range, role: .parameter)
            if let first = list.first(where: { $0.name == name }) {
                report(.duplicateParameter(name), at: token.range, hint: "give each parameter its own name",
                       notes: [.init(.firstDefined, at: first.range)])
            }
            var parameter = Parameter(name: name, range: token.range)
            if match(.equals) {
                let hidden = names.hideParameters()
                parameter.defaultValue = try argument().expr
                names.showParameters(hidden)
                if firstDefault == nil { firstDefault = token.range }
            } else if let firstDefault {
                report(.missingDefault(name), at: token.range,
                       hint: "give `\(name)` a default too (`\(name) = …`), or move it before the parameters that have one",
                       notes: [.init(.firstDefault, at: firstDefault)])
            }
            names.declareParameter(name, index: list.count)
            list.append(parameter)
        }
        _ = try closing(open)
        return list
    }

    /// Whether the item ends here (what follows a `let`'s right-hand side).
    func endsItem() -> Bool {
        check(.eof) || startsItem(peek()) || (check(.semicolon) && startsItem(peek(1)))
    }

    /// Whether `token` names a number a `let` before here gives (``NameKinds/constant(_:)``).
    func isConstant(_ token: Token) -> Bool {
        token.kind == .name && names.constant(text(token)) != nil
    }

    /// Whether `token` names a `let` or a parameter, and so may stand for a value.
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func isValueName(_ token: Token) -> Bool {
        guard token.kind == .name, namesAllowed, !isReserved(token) else { return false }
        let word = text(token)
        return names.namesValue(word)
    }

    /// Whether a `let` in the file binds `word` (``NameKinds/isLetName(_:)``), looking first
    /// at the names of the `let` being read and the one before it.
    func isLetName(_ word: String) -> Bool {
        names.isLetName(word)
    }

    /// A `let`'s right-hand side or an argument: a value (a number, a
    /// duration, a point, a colour, an easing) or an animation. A number, a
    /// colour or an easing written out is a value; a name alone is read as
    /// what it names; parentheses or a name followed by arithmetic are a
    /// number when they read as one up to the end (`ends`) and hold a number.
    mutating func valueOrExpression(ends: (Parser) -> Bool) throws(SyntaxError) -> Parsed {
        let token = peek()
        let numbersBefore = numbersConsumed
        switch token.kind {
        case .number, .minus, .color:
            return try valueArgument(ends: ends)
        case .name where isWord(token, .pi) || isWord(token, .tau) || startsEasingValue():
            return try valueArgument(ends: ends)
        case .name where peek(1).kind == .leftParen && colorFunctions.contains(text(token)):
            return try valueArgument(ends: ends)
        case .name where !token.word.isVerb && ColorNames.color(named: text(token)) != nil && !isLetName(text(token))
            && ends(Parser(copying: self, advancedBy: 1)):
            // `let brand = rebeccapurple`: a colour, unless a `let` has that name.
            return try valueArgument(ends: ends)
        case .leftParen, .name:
            // A number only if it reads as one to the end and holds a literal (`(lift * 2)`, `lift - 1`) or starts
            // with a name bound to a number or a duration (`(beat / gap)`, as the printer writes `beat / gap`), else an animation.
            if token.kind == .leftParen || (isValueName(token) && continuesNumber(at: 1)) {
                var trial = self
                if let parsed = try? trial.valueArgument(ends: ends), trial.diagnostics.count == diagnostics.count, trial.warnings.count == warnings.count, ends(trial),
                   token.kind == .name || parsed.expr.isPoint || trial.numbersConsumed > numbersBefore || namesQuantity(peek(1)) {
                    self = trial
                    return parsed
                }
            }
            return try expression()
        default:
            return try expression()
        }
    }

    /// Whether an easing written out starts here (`cubic-bezier(`, `ease-out`, `snappy spring`, `spring`).
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func startsEasingValue() -> Bool {
        if peek().word.isVerb { return false }   // (no verb names an easing: tested)
        let word = text(peek())
        if EasingNames.easing(named: word) != nil || EasingNames.parameterizedCurves.contains(word) { return true }
        if EasingNames.functionalForms.contains(word) { return word == "spring" || peek(1).kind == .leftParen }
        return EasingNames.springAdjectives.contains { $0.word == word } && isWord(peek(1), .spring)
    }

    /// A value written out: an easing, or a number (with a unit, a duration), a colour or a point.
    mutating func valueArgument(ends: (Parser) -> Bool) throws(SyntaxError) -> Parsed {
        let first = peek()
        let value: ValueExpr
        if first.kind == .name, startsEasingValue() {
            let (easing, range) = try self.easing(high: nil)
            value = .easing(easing, range)
        } else if startsQuantity(first) {
            // A number or a duration, with arithmetic and units (docs/semantics.md §8.4: `0.1s + 0.2s`, `1 + 2ms`, `gap * 2`).
            let context = current > 0 ? describe(previous).description : "`=`"
            let measured = try measuredDuration(after: context, hintUnits: false)
            if measured.unit == .implicit, measured.number.formula?.hasUnit != true {
                names.noteUses(in: measured.number, bare: first.kind == .name ? names.stopKind : .number)
                value = .plain(.number(measured.number))
            } else {
                names.noteUses(in: measured.number, bare: .duration, inArithmetic: .duration)
                value = .duration(measured)
            }
        } else {
            let context = current > 0 ? describe(previous).description : "`=`"
            let plain = try self.value(what: "a value", after: context)
            if case .number(let number) = plain, let unit = durationUnit(peek()), onSameLine(number.range, peek().range) {
                let unitToken = advance()
                value = .duration(Duration(number: number, unit: unit, range: number.range.union(unitToken.range)))
            } else {
                value = .plain(plain)
            }
        }
        guard ends(self) else { throw strayAfterExpression() }
        return Parsed(expr: Expr(.value(value), range: value.range), height: 1)
    }

    /// Whether a number (and so perhaps a duration) starts here, as a value
    /// is written: a literal, `-`, `pi`, `tau`, a `(` that is no point, or a
    /// name standing for a number or a duration.
    // (`mutating` though it changes nothing: see ``continuesSequence()``.)
    mutating func startsQuantity(_ token: Token) -> Bool {
        switch token.kind {
        case .number, .minus: return true
        case .leftParen: return !isPoint()
        case .name:
            if isWord(token, .pi) || isWord(token, .tau) { return true }
            return (isValueName(token) || isConstant(token)) && ColorNames.color(named: text(token)) == nil
        case .rightParen, .comma, .dot, .equals, .semicolon, .star, .plus, .slash, .caret, .parallel, .percent, .color,
             .invalid, .eof:
            return false
        }
    }

    /// The unit `token` spells, if it is one (`s`, `sec`, `seconds`, `ms`).
    func durationUnit(_ token: Token) -> Duration.Unit? {
        switch token.word {
        case .s, .sec, .seconds: return .seconds
        case .ms: return .milliseconds
        default: return nil
        }
    }

    /// An argument of a call: a name alone (a view, a `let`, a parameter, a
    /// colour or an easing: the callee's parameter says which), `all views`,
    /// a value, or an animation.
    mutating func argument() throws(SyntaxError) -> Parsed {
        let token = peek()
        let argumentEnds = { (parser: Parser) in parser.check(.comma) || parser.check(.rightParen) }
        if isWord(token, .all) {
            let all = advance()
            let range = checkWord(.views) ? all.range.union(advance().range) : all.range
            return Parsed(expr: Expr(.value(.allViews(range)), range: range), height: 1)
        }
        if token.kind == .name, !isReserved(token), argumentEnds(Parser(copying: self, advancedBy: 1)) {
            advance()
            return Parsed(expr: Expr(.name(text(token)), range: token.range), height: 1)
        }
        return try valueOrExpression(ends: argumentEnds)
    }

    /// `NAME(A1, A2, …)`, the name being here.
    mutating func call() throws(SyntaxError) -> Parsed {
        let nameToken = advance()
        let name = text(nameToken)
        let open = advance()
        try enterNesting(at: open)
        defer { depth -= 1 }
        var arguments: [Expr] = []
        var height = 1
        while !check(.rightParen) {
            if !arguments.isEmpty {
                try consume(.comma, after: "an argument", hint: "separate arguments with commas: `\(name)(a, b)`")
            }
            let parsed = try argument()
            if case .name(let word) = parsed.expr.kind {
                names.noteUse(word, .argument(callee: name, index: arguments.count), at: parsed.expr.range)
            }
            arguments.append(parsed.expr)
            height = max(height, parsed.height + 1)
        }
        let close = try closing(open)
        guard height <= maxExpressionNesting else { throw nestingTooDeep(at: nameToken) }
        return Parsed(expr: Expr(.call(name, arguments), range: nameToken.range.union(close.range), modifier: nameToken.range), height: height)
    }

    mutating func viewDeclaration() throws(SyntaxError) -> ViewDeclaration {
        let keyword = advance()
        let (name, nameRange) = try declaredName(after: keyword, role: .view)
        var initials: [ViewDeclaration.Initial] = []
        var range = keyword.range.union(nameRange)
        // Initial values are read before any `let` is: written out, not named.
        namesAllowed = false
        defer { namesAllowed = true }
        var home: ValueSyntax?
        var origin: ViewDeclaration.OriginSyntax?
        while peek().kind == .name, !isReserved(peek()) {
            let property = advance()
            let propertyName = text(property)
            // `at (X, Y)` and `origin WORD | (FX, FY)`: where the view stands (the resolver checks them).
            if propertyName == "at" || propertyName == "origin" {
                let given: SourceRange?
                if propertyName == "origin", peek().kind == .name, !isReserved(peek()) {
                    let word = advance()
                    given = origin?.range
                    if given == nil { origin = .word(text(word), range: word.range) }
                    range = range.union(word.range)
                } else {
                    let value = try self.value(what: propertyName == "at" ? "a home `(X, Y)`" : "an origin", after: "`\(propertyName)`")
                    given = propertyName == "at" ? home?.range : origin?.range
                    if given == nil {
                        if propertyName == "at" { home = value } else { origin = .value(value) }
                    }
                    range = range.union(value.range)
                }
                if let given {
                    report(.duplicateProperty(view: name, property: propertyName), at: property.range,
                           hint: "a view has one `\(propertyName)`: keep one of the two", notes: [.init(.firstGiven, at: given)])
                }
                continue
            }
            let value = try self.value(what: "an initial value", after: "`\(propertyName)`")
            initials.append(ViewDeclaration.Initial(property: propertyName, value: value, range: property.range.union(value.range)))
            range = range.union(value.range)
            // `rotation 90deg`: a unit written on the value, not a property after it.
            let unit = peek()
            if unit.kind == .name || unit.kind == .percent, unit.range.start == value.range.end {
                advance()
                let plain = "\(propertyName) \(file.text(value.range))"
                report(.initialValueUnit(text(unit)), at: unit.range,
                       hint: propertyName == "rotation" ? "write `\(plain)` (a rotation is in degrees)" : "write `\(plain)`")
            }
        }
        if check(.semicolon), startsItem(peek(1)) {
            advance()
        } else if !check(.eof), !startsItem(peek()) {
            let token = peek()
            var hint = "a view is declared as `view NAME PROP VALUE …`, e.g. `view ball radius 20`"
            if token.kind == .name { hint = "`\(text(token))` is a reserved word and cannot name a property" }
            throw error(.expectedProperty(found: describe(token)), at: token, hint: hint)
        }
        return ViewDeclaration(name: name, nameRange: nameRange, initials: initials, home: home, origin: origin, range: range)
    }

    /// The NAME after `let` or `view`. A reserved word is reported but kept,
    /// so the rest of the item is still checked.
    mutating func declaredName(after keyword: Token, role: DiagnosticKind.NameRole) throws(SyntaxError) -> (String, SourceRange) {
        let token = peek()
        guard token.kind == .name, !startsItem(token) else {
            throw error(.expectedName(after: text(keyword), found: describe(token)), at: token)
        }
        advance()
        let name = text(token)
        if isReserved(token) {
            report(.reservedName(name, role: role), at: token.range)
            if isWord(keyword, .let) { names.bindReserved(name) }
        } else if role == .binding {
            checkBindableName(name, reserved: false, at: token.range, role: role)
        }
        return (name, token.range)
    }

    /// A `let` or a parameter may not take a reserved word or an easing's name
    /// (`with snappy` must keep meaning the easing). `reserved`: whether the
    /// name's token is one of ``reservedWords`` (the lexer classified it).
    mutating func checkBindableName(_ name: String, reserved: Bool, at range: SourceRange, role: DiagnosticKind.NameRole) {
        if reserved {
            if role == .parameter { report(.reservedName(name, role: role), at: range) }
            return
        }
        if isEasingWord(name) {
            report(.easingName(name, role: role), at: range,
                   hint: "`with \(name)` must keep meaning the easing; choose another name, such as `my-\(name)`")
        }
    }

    /// After a binding's expression: the next item, the end of the file, or a
    /// `;` directly before the next item (grammar.md writes `let a = b ; let b = a`).
    mutating func endOfItem() throws(SyntaxError) {
        if check(.semicolon), startsItem(peek(1)) {
            advance()
            return
        }
        if check(.eof) || startsItem(peek()) { return }
        throw strayAfterExpression()
    }

    /// Skips to the next `let` or `view` after a syntax error.
    mutating func synchronize() {
        depth = 0
        while !check(.eof), !startsItem(peek()) {
            advance()
        }
    }

    // MARK: Expressions

    /// expr = sequence { ( "||" | "+" ) sequence } ;
    mutating func expression() throws(SyntaxError) -> Parsed {
        let first = try sequence()
        guard check(.parallel) || check(.plus) else { return first }
        var operands = [first.expr]
        var height = first.height
        while match(.parallel) || match(.plus) {
            let next = try sequence()
            height = max(height, next.height)
            operands.append(next.expr)
        }
        let last = operands[operands.count - 1].range
        return try chain(.parallel(operands), height: height, first: first.expr.range, last: last)
    }

    /// sequence = power { ( ";" | "*" ) power } ;
    mutating func sequence() throws(SyntaxError) -> Parsed {
        var first = try power()
        if startsOverlap() { first = try overlapping(first, first: true) }
        guard continuesSequence() else {
            if case .overlapping(let part, _) = first.expr.kind {
                report(.overlapWithoutBefore(first: false), at: first.expr.modifier,
                       hint: "write it after `;` in a chain, at the same level of parentheses: `a ; b overlapping by 0.2s`")
                return Parsed(expr: part, height: first.height - 1)
            }
            return first
        }
        var operands = [first.expr]
        var height = first.height
        if case .overlapping(let part, _) = first.expr.kind {
            report(.overlapWithoutBefore(first: true), at: first.expr.modifier,
                   hint: "the first part starts the chain; overlap a later part with the ones before it")
            operands[0] = part
        }
        while continuesSequence() {
            advance()
            var next = try power()
            if startsOverlap() { next = try overlapping(next, first: false) }
            height = max(height, next.height)
            operands.append(next.expr)
        }
        let last = operands[operands.count - 1].range
        return try chain(.sequence(operands), height: height, first: first.expr.range, last: last)
    }

    /// Whether `overlapping by` follows a part of a chain.
    // (`mutating` though it changes nothing: see ``continuesSequence()``.)
    @inline(__always)
    mutating func startsOverlap() -> Bool {
        isWord(peek(), .overlapping) && isWord(peek(1), .by)
    }

    /// part = power [ "overlapping" "by" duration ] ; a part of a `;` chain
    /// that starts D before the end of the parts before it (docs/semantics.md §8.1).
    mutating func overlapping(_ part: Parsed, first: Bool) throws(SyntaxError) -> Parsed {
        let token = advance()
        advance()   // `by`
        let duration = try duration(after: "`overlapping by`")
        return try wrap(.overlapping(part.expr, duration), around: part, through: duration.range, at: token)
    }

    /// A `;` right before `let` or `view` separates items instead.
    // (`mutating` though it changes nothing: a non-mutating method called from a
    // mutating one here gets a copy of the whole parser, measured; `inout` passes it by address.)
    mutating func continuesSequence() -> Bool {
        check(.star) || (check(.semicolon) && !startsItem(peek(1)))
    }

    /// power = postfix { "^" count } ;
    mutating func power() throws(SyntaxError) -> Parsed {
        var result = try postfix()
        while check(.caret) {
            let caret = advance()
            let count = try count(after: "`^`", fractional: true)
            result = try wrap(.power(result.expr, count), around: result, through: count.range, at: caret)
            let next = peek()
            if next.kind == .name, modifierWords.contains(text(next)) {
                let exponent = file.text(count.range)
                report(.modifierAfterPower(modifier: text(next), exponent: exponent), at: next.range,
                       hint: "write `(x ^ \(exponent)) \(text(next))`")
                result = try modifiers(on: result)
            }
        }
        return result
    }

    /// postfix = primary { modifier } ;
    mutating func postfix() throws(SyntaxError) -> Parsed {
        try modifiers(on: try primary())
    }

    /// modifier = "reversed" | "looped" … | "repeated" … | "delayed" "by" duration
    ///          | "in" duration | "with" [ "a" | "an" ] [ "high" ] easing ;
    mutating func modifiers(on operand: consuming Parsed) throws(SyntaxError) -> Parsed {
        var result = operand
        while peek().kind == .name {
            let token = peek()
            switch token.word {
            case .reversed:
                advance()
                result = try wrap(.reversed(result.expr), around: result, through: token.range, at: token)
            case .looped where isWord(peek(1), .forever):
                advance()
                let forever = advance()
                result = try wrap(.forever(result.expr, looped: true), around: result, through: forever.range, at: token)
            case .repeated where isWord(peek(1), .forever):
                advance()
                let forever = advance()
                result = try wrap(.forever(result.expr, looped: false), around: result, through: forever.range, at: token)
            case .looped:
                advance()
                let count = try loopCount(after: token)
                result = try wrap(.looped(result.expr, count), around: result, through: previous.range, at: token)
            case .played where isWord(peek(1), .from) || isWord(peek(1), .to):
                result = try played(on: result)
            case .repeated:
                advance()
                let count = try repeatCount()
                result = try wrap(.repeated(result.expr, count), around: result, through: previous.range, at: token)
            case .staggered:
                advance()
                let (duration, how, end) = try stagger()
                result = try wrap(.staggered(result.expr, duration, how), around: result, through: end, at: token)
            case .delayed:
                advance()
                try consumeWord(.by, after: "`delayed`", hint: "write `x delayed by 0.5s`")
                let duration = try duration(after: "`by`")
                result = try wrap(.delayed(result.expr, duration), around: result, through: duration.range, at: token)
            case .in:
                advance()
                let duration = try duration(after: "`in`")
                result = try wrap(.retimed(result.expr, duration), around: result, through: duration.range, at: token)
            case .with:
                advance()
                let skip = isWord(peek(), .a) || isWord(peek(), .an) ? 1 : 0
                let named = peek(skip)
                if isValueName(named), !Parser(copying: self, advancedBy: skip).startsEasingValue() {
                    for _ in 0..<skip { advance() }
                    advance()
                    names.noteUse(text(named), .kind(.easing), at: named.range)
                    result = try wrap(.easedByName(result.expr, text(named), named.range), around: result, through: named.range, at: token)
                    continue
                }
                let (easing, range) = try easingClause()
                result = try wrap(.eased(result.expr, easing, range), around: result, through: range, at: token)
            default:
                return result
            }
        }
        return result
    }

    /// The name of a `let` or parameter `offset` tokens ahead where a keyframe's own easing
    /// goes (`v with quick,`, `with each quick`), consumed with the tokens before it; `nil`
    /// (and nothing consumed) when an easing is written out there.
    mutating func keyframeEasingName(at offset: Int) -> (String, SourceRange)? {
        let named = peek(offset)
        guard isValueName(named), !Parser(copying: self, advancedBy: offset).startsEasingValue() else { return nil }
        for _ in 0...offset { advance() }
        names.noteUse(text(named), .kind(.easing), at: named.range)
        return (text(named), named.range)
    }

    /// `with E` after a keyframe, when a `,` follows it (docs/semantics.md §8.2): the
    /// easing of the piece leaving that keyframe, written out or named. After the last
    /// keyframe no `,` follows, and `with` is the whole tween's (left for ``modifiers(on:)``).
    mutating func keyframeEasing(of keyframe: inout Keyframe) {
        if isWord(peek(1), .each) { return }
        if peek(2).kind == .comma, let (name, range) = keyframeEasingName(at: 1) {
            keyframe.easingName = name
            keyframe.easingNameRange = range
            keyframe.range = keyframe.range.union(range)
            return
        }
        var trial = self
        trial.advance()
        // A `,` after it makes it the keyframe's, mistakes and all: `0 with quik, 10` is one
        // misspelt easing, not the end of the list and a stray `,`.
        guard let (easing, range) = try? trial.easingClause(), trial.check(.comma) else { return }
        self = trial
        keyframe.easing = easing
        keyframe.range = keyframe.range.union(range)
    }

    /// After `staggered` (docs/semantics.md §6.3, §8.3): ( "by" | "over" ) duration
    /// [ "from" ( "start" | "end" | "center" | "edges" ) | "backwards" ] [ "spaced" easing ].
    mutating func stagger() throws(SyntaxError) -> (Duration, StaggerSyntax, SourceRange) {
        let over = peek().kind == .name && peek().word == .none && text(peek()) == "over"
        if over {
            advance()
        } else {
            try consumeWord(.by, after: "`staggered`", hint: "write `x staggered by 80ms`, or `x staggered over 400ms` for the whole spread")
        }
        let duration = try duration(after: over ? "`over`" : "`by`")
        var how = StaggerSyntax(over: over)
        var end = duration.range
        if checkWord(.backwards) {
            end = advance().range
            how.origin = .end
            how.backwards = true
        } else if checkWord(.from) {
            let from = advance()
            let word = peek()
            guard word.kind == .name, let origin = Stagger.Origin(rawValue: text(word)) else {
                throw error(.expectedToken(expected: "`start`, `end`, `center` or `edges`", after: "`from`", found: describe(word)), at: word,
                            hint: "a stagger starts `from start`, `from end`, `from center` or `from edges`")
            }
            _ = from
            end = advance().range
            how.origin = origin
        }
        if peek().kind == .name, peek().word == .none, text(peek()) == "spaced" {
            let spaced = advance()
            let named = peek()
            if isValueName(named), !startsEasingValue() {
                advance()
                names.noteUse(text(named), .kind(.easing), at: named.range)
                how.spacingName = text(named)
                end = named.range
            } else {
                let (easing, range) = try easingClause()
                how.spacing = easing
                end = range
            }
            how.spacingRange = spaced.range.union(end)
        }
        return (duration, how, end)
    }

    /// played = "played" ( "from" partTime [ "to" partTime ] | "to" partTime ) ;
    /// partTime = duration | number "%" ;
    mutating func played(on operand: Parsed) throws(SyntaxError) -> Parsed {
        let token = advance()
        var from: PartTime?, to: PartTime?
        if checkWord(.from) {
            advance()
            from = try partTime(after: "`from`")
        }
        if checkWord(.to) {
            advance()
            to = try partTime(after: "`to`")
        }
        return try wrap(.played(operand.expr, from: from, to: to), around: operand, through: previous.range, at: token)
    }

    /// A time of `played`: a duration, or a percentage of the animation's length (`40%`).
    mutating func partTime(after context: @autoclosure () -> String) throws(SyntaxError) -> PartTime {
        let duration = try duration(after: context())
        if duration.unit == .implicit, check(.percent), peek().range.start == duration.range.end {
            let percent = advance()
            return PartTime(.percent(duration.number), range: duration.range.union(percent.range))
        }
        return PartTime(.duration(duration), range: duration.range)
    }

    /// `looped`, `looped once`, `looped twice`, `looped N times`.
    mutating func loopCount(after looped: Token) throws(SyntaxError) -> Count {
        if checkWord(.once) { return Count(1, range: advance().range) }
        if checkWord(.twice) { return Count(2, range: advance().range) }
        guard startsNumber(peek()) || (isValueName(peek()) && isWord(peek(1), .times)) else {
            // A word on the same line that was meant as the count: `looped forever`, `looped thrice`.
            let token = peek()
            if token.kind == .name, onSameLine(looped, token), !isReserved(token) {
                if let match = closestMatch(to: text(token), in: ["once", "twice", "forever"]) {
                    report(.expectedCount(after: "looped", found: describe(token)), at: token.range, hint: didYouMean(match),
                           fix: .replacing(token.range, with: match))
                    advance()
                }
            }
            return Count(1, range: looped.range)
        }
        let count = try count(after: "`looped`")
        let source = file
        try consumeWord(.times, after: "the count", hint: "write `looped \(source.text(count.range)) times`")
        return count
    }

    /// `repeated once`, `repeated twice`, `repeated N times`.
    mutating func repeatCount() throws(SyntaxError) -> Count {
        if checkWord(.once) { return Count(1, range: advance().range) }
        if checkWord(.twice) { return Count(2, range: advance().range) }
        let token = peek()
        guard startsNumber(token) || (isValueName(token) && isWord(peek(1), .times)) else {
            var hint = "write `repeated 3 times`, `repeated once`, `repeated twice` or `repeated forever`"
            var fix: String?
            if token.kind == .name, let match = closestMatch(to: text(token), in: ["once", "twice", "forever"]) {
                hint = didYouMean(match)
                fix = match
            }
            throw error(.expectedCount(after: "repeated", found: describe(token)), at: token, hint: hint, fix: fix)
        }
        let count = try count(after: "`repeated`", fractional: true)
        let source = file
        try consumeWord(.times, after: "the count", hint: "write `repeated \(source.text(count.range)) times`")
        return count
    }

    /// primary = NAME | "(" expr ")" | "zero" | "cancelled" | "one" | "empty" | "wait" duration | tween ;
    mutating func primary() throws(SyntaxError) -> Parsed {
        let token = peek()
        switch token.kind {
        case .leftParen:
            return try parenthesized()
        case .name:
            switch token.word {
            case .zero, .cancelled:
                advance()
                return Parsed(expr: Expr(.zero, range: token.range), height: 1)
            case .one, .empty:
                advance()
                return Parsed(expr: Expr(.one, range: token.range), height: 1)
            case .wait where !(names.reservedBindings.contains("wait") && !startsNumber(peek(1))):
                advance()
                let duration = try duration(after: "`wait`")
                return Parsed(expr: Expr(.wait(duration), range: token.range.union(duration.range)), height: 1)
            case .emit where peek(1).kind == .name && !isReserved(peek(1)):
                advance()
                let name = advance()
                return Parsed(expr: Expr(.emit(text(name)), range: token.range.union(name.range)), height: 1)
            case .emit where onSameLine(token, peek(1)) && cannotFollowAName(peek(1)):
                // `emit from`, `emit 3`: an event name that is not a plain name.
                advance()
                let found = peek()
                if found.kind == .name {
                    throw error(.reservedName(text(found), role: .event), at: found,
                                hint: "event names are plain names, such as `emit landed` or `emit \(text(found))_`")
                }
                throw error(.expectedName(after: "emit", found: describe(found)), at: found,
                            hint: "an event is named by a plain name: `emit landed`")
            default:
                if isReserved(token), !names.reservedBindings.contains(text(token)) { throw expectedAnimation(found: token) }
                if peek(1).kind == .leftParen, onSameLine(token, peek(1)) { return try call() }
                if let tweens = try tweenIfPresent() { return tweens }
                if looksLikeTween(at: token) { throw unknownVerb(token) }
                advance()
                let word = text(token)
                names.noteUse(word, .kind(.animation), at: token.range)
                return Parsed(expr: Expr(.name(word), range: token.range), height: 1)
            }
        case .number, .rightParen, .comma, .dot, .equals, .semicolon, .star, .plus, .minus, .slash, .caret, .percent,
             .color, .parallel, .invalid, .eof:
            throw expectedAnimation(found: token)
        }
    }

    /// "(" expr ")"
    mutating func parenthesized() throws(SyntaxError) -> Parsed {
        let open = advance()
        try enterNesting(at: open)
        defer { depth -= 1 }
        let inner = try expression()
        let close = try closing(open)
        // (The node itself, its range widened.)
        var expr = inner.expr
        expr.range = open.range.union(close.range)
        return Parsed(expr: expr, height: inner.height)
    }

    // MARK: Tweens

    /// The tweens starting here (one per target of a list), when the name
    /// here is a verb and a target follows it; `nil` when the name is just a
    /// name (`(grow ; red) ; fade`).
    mutating func tweenIfPresent() throws(SyntaxError) -> Parsed? {
        switch peek().word {
        case .fade:
            if isWord(peek(1), .in), startsTarget(peek(2)) { return fadeInOrOut(.fadeIn, words: 2) }
            if isWord(peek(1), .out), startsTarget(peek(2)) { return fadeInOrOut(.fadeOut, words: 2) }
            return startsTarget(peek(1)) ? try tweens(.fade) : nil
        case .fadeIn:
            return startsTarget(peek(1)) ? fadeInOrOut(.fadeIn, words: 1) : nil
        case .fadeOut:
            return startsTarget(peek(1)) ? fadeInOrOut(.fadeOut, words: 1) : nil
        case .shrink:
            return startsTarget(peek(1)) ? try tweens(.shrink) : nil
        case .grow:
            return startsTarget(peek(1)) ? try tweens(.grow) : nil
        case .scale:
            return startsTarget(peek(1)) ? try tweens(.scale) : nil
        case .rotate:
            return startsTarget(peek(1)) ? try tweens(.rotate) : nil
        case .color:
            return startsTarget(peek(1)) ? try tweens(.color) : nil
        case .move:
            return startsTarget(peek(1)) ? try tweens(.move) : nil
        case .animate:
            return startsTarget(peek(1)) ? try animate() : nil
        default:
            return nil
        }
    }

    /// Whether the name here, which does not start a tween, was meant as a
    /// verb: a view follows it on the same line, and it is close to a verb or
    /// the view is followed by `from` or `.` (`rotat square from 0 to 90`).
    /// A name followed by a name is an error anyway; this puts it on the verb.
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func looksLikeTween(at token: Token) -> Bool {
        let target = peek(1)
        guard startsTarget(target), onSameLine(token, target) else { return false }
        // (`x played from 1s`: a modifier, not a verb and its view.)
        if target.word == .played { return false }
        if closestMatch(to: text(token), in: verbs) != nil { return true }
        let after = peek(2)
        // (Not `by`: `x dealyed by 2s` is a misspelt modifier more often than a misspelt verb.)
        return isWord(target, .all) || isWord(after, .from) || isWord(after, .through) || isWord(after, .to)
            || after.kind == .dot
    }

    /// `rotat square …`: the error is the verb.
    mutating func unknownVerb(_ token: Token) -> SyntaxError {
        let word = text(token)
        let list = "the verbs are " + verbs.dropLast().joined(separator: ", ") + " and " + (verbs.last ?? "")
        let match = closestMatch(to: word, in: verbs)
        return error(.unknownVerb(word), at: token, hint: match.map(didYouMean) ?? list, fix: match)
    }

    /// The tween of the first target, and of each other target of a list:
    /// `fadeIn a, b and c` is `fadeIn a || fadeIn b || fadeIn c`.
    func tweenList(_ first: TweenSyntax, _ rest: [TweenSyntax]) -> Parsed {
        guard let last = rest.last else { return single(first) }
        var operands = [Expr(.tween(first), range: first.range)]
        operands.reserveCapacity(rest.count + 1)
        for tween in rest { operands.append(Expr(.tween(tween), range: tween.range)) }
        return Parsed(expr: Expr(.parallel(operands), range: first.range.union(last.range)), height: 2)
    }

    /// One tween, moved into its node (copying a tween costs).
    func single(_ tween: consuming TweenSyntax) -> Parsed {
        let range = tween.range
        return Parsed(expr: Expr(.tween(consume tween), range: range), height: 1)
    }

    /// ( "fadeIn" | "fade" "in" ) targets | ( "fadeOut" | "fade" "out" ) targets
    mutating func fadeInOrOut(_ verb: TweenSyntax.Verb, words: Int) -> Parsed {
        let start = advance()
        if words == 2 { advance() }
        let (first, rest) = targets()
        let make = { (target: Target) in TweenSyntax(verb: verb, target: target, range: start.range.union(target.range)) }
        guard !rest.isEmpty else { return single(make(first)) }
        return tweenList(make(first), rest.map(make))
    }

    /// verb targets values, for `fade`, `shrink`, `grow`, `scale`, `rotate`, `color`, `move`:
    ///
    ///     values = "from" [ PROP ] value "to" value
    ///            | "through" [ PROP ] keyframe { "," keyframe } ;
    ///     keyframe = value [ "at" number "%" ] ;
    ///
    /// (a property only for `shrink`, `grow` and `scale`, a unit only at the end of `rotate`).
    mutating func tweens(_ verb: TweenSyntax.Verb) throws(SyntaxError) -> Parsed {
        let start = advance()
        let (firstTarget, otherTargets) = self.targets()
        let source = file
        let takesProperty = verb == .shrink || verb == .grow || verb == .scale
        names.stopKind = verb == .color ? .color : verb == .move ? .point : .number
        // Built in place: a tween is large, and each copy of it costs.
        var first = TweenSyntax(verb: verb, target: firstTarget)
        try tweenValues(into: &first, after: "`\(source.text(start.range)) \(source.text(firstTarget.range))`", takesProperty: takesProperty,
                        colours: verb == .color,
                                     usage: "a tween is written `\(source.text(start.range)) V from \(takesProperty ? "[PROP] " : "")A to B`, "
                                         + "or from where it is: `\(source.text(start.range)) V to B`\(verb == .color ? "" : " or `\(source.text(start.range)) V by D`")")
        var range = start.range.union(previous.range)
        if verb == .rotate {
            // Every value written, in order.
            let all = first.keyframes ?? [first.from, first.to, first.by].compactMap { $0.map { Keyframe(value: $0) } }
            var unit: TweenSyntax.AngleUnit?
            if let last = all.last {
                if case .number(let number) = last.value { unit = angleUnit(after: number) }
                if unit != nil { range = range.union(previous.range) }
                if unit == nil || unit == .degrees {
                    for keyframe in all {
                        if case .number(let number) = keyframe.value, number.mentionsPi {
                            // `degrees` written: it becomes `radians`; no unit: ` radians` after the last value.
                            let end = last.value.range.end
                            warnPiInDegrees(number, fix: unit == .degrees ? .replacing(previous.range, with: "radians")
                                                        : Diagnostic.FixIt(SourceRange(end, end), " radians", title: "Insert `radians`"))
                        }
                    }
                }
            }
            first.angleUnit = unit
            if unit == .turns || unit == .radians { warnDegreeSizedAngles(all, unit: previous) }
        }
        first.range = range
        if verb == .fade { warnOpacityOutOfRange(first) }
        guard !otherTargets.isEmpty else { return single(consume first) }
        // (A loop, not a closure: a closure capturing `first` makes the `consume` above a copy, measured.)
        var rest: [TweenSyntax] = []
        rest.reserveCapacity(otherTargets.count)
        for target in otherTargets {
            var tween = first
            tween.target = target
            rest.append(tween)
        }
        return tweenList(first, rest)
    }

    /// A view's property that `animate` animates (`box.x`).
    struct PropertyTarget {
        let view: String
        let range: SourceRange
        let property: String
    }

    /// "animate" NAME "." NAME { "," NAME "." NAME } values
    mutating func animate() throws(SyntaxError) -> Parsed {
        let start = advance()
        // (The first target apart: most tweens have one, and then no array is made.)
        let first = try propertyTarget()
        var others: [PropertyTarget] = []
        while continuesTargetList() { others.append(try propertyTarget()) }
        names.stopKind = .value
        // Built in place: a tween is large, and each copy of it costs.
        var tween = TweenSyntax(verb: .animate, target: .view(first.view, first.range), property: first.property)
        try tweenValues(into: &tween, after: "`animate \(first.view).\(first.property)`", takesProperty: false,
                        usage: "write `animate \(first.view).\(first.property) from A to B`, or from where it is: "
                                         + "`animate \(first.view).\(first.property) to B` or `… by D`")
        tween.range = start.range.union(previous.range)
        if first.property == "opacity" || others.contains(where: { $0.property == "opacity" }) { warnOpacityOutOfRange(tween) }
        guard !others.isEmpty else { return single(consume tween) }
        // (A loop, not a closure: a closure capturing `tween` makes the `consume` above a copy, measured.)
        var rest: [TweenSyntax] = []
        rest.reserveCapacity(others.count)
        for target in others {
            var other = tween
            other.target = .view(target.view, target.range)
            other.property = target.property
            rest.append(other)
        }
        return tweenList(tween, rest)
    }

    /// NAME "." NAME, after `animate` or a `,` in its list.
    mutating func propertyTarget() throws(SyntaxError) -> PropertyTarget {
        let viewToken = peek()
        guard !isWord(viewToken, .all) else {
            throw error(.expectedTarget(found: describe(viewToken)), at: viewToken,
                        hint: "`animate` animates one property of one view: `animate V.PROP from A to B`")
        }
        guard viewToken.kind == .name, !isReserved(viewToken) else {
            throw error(.expectedTarget(found: describe(viewToken)), at: viewToken, hint: Hint.animateProperty())
        }
        advance()
        let view = text(viewToken)
        try consume(.dot, after: "`animate \(view)`", hint: Hint.animateProperty(of: view))
        let propertyToken = peek()
        guard propertyToken.kind == .name, !isReserved(propertyToken) else {
            throw error(.expectedPropertyName(view: view, found: describe(propertyToken)), at: propertyToken,
                        hint: Hint.animateProperty(of: view))
        }
        advance()
        return PropertyTarget(view: view, range: viewToken.range, property: text(propertyToken))
    }

    /// targets = target { "," target } [ "and" target ] ;  target = NAME | "all" [ "views" ] ;
    /// (The first apart: most tweens have one target, and then no array is made.)
    mutating func targets() -> (first: Target, rest: [Target]) {
        let first = target()
        var rest: [Target] = []
        while continuesTargetList() { rest.append(target()) }
        return (first, rest)
    }

    /// Consumes the `,` or `and` before another target, when one follows.
    mutating func continuesTargetList() -> Bool {
        guard check(.comma) || checkWord(.and) else { return false }
        let next = peek(1)
        guard next.kind == .name, !isReserved(next) || isWord(next, .all) else { return false }
        advance()
        return true
    }

    mutating func target() -> Target {
        let token = advance()
        if isWord(token, .all) {
            if checkWord(.views) { return .allViews(token.range.union(advance().range)) }
            return .allViews(token.range)
        }
        names.noteUse(text(token), .kind(.target), at: token.range)
        return .view(text(token), token.range)
    }

    /// The values after a tween's targets, `from A to B` or `through …`,
    /// written into `values` (which has none yet).
    mutating func tweenValues(into values: inout TweenSyntax, after context: @autoclosure () -> String, takesProperty: Bool,
                              colours: Bool = false, usage: @autoclosure () -> String) throws(SyntaxError) {
        let through = checkWord(.through)
        // `to B` and `by Δ` alone start from the current value (docs/semantics.md §7.1).
        let relative = checkWord(.to) ? "to" : checkWord(.by) ? "by" : nil
        if through || relative != nil {
            advance()
        } else {
            try consumeWord(.from, after: context(), hint: usage())
        }
        // `grow ball from radius 30 to 60`: a name before a number is the property.
        // (So is a name before a named value: `from radius lift`. A named value followed by
        // a number reads as a property too, as it always did: write `from (lift - 1)`.)
        if takesProperty, peek().kind == .name, !isReserved(peek()),
           startsNumber(peek(1)) || (isValueName(peek(1)) && !isValueName(peek())) {
            let property = advance()
            values.property = text(property)
        }
        if let relative {
            let value = try value(what: relative == "to" ? "an end value" : "a change",
                                  after: values.property.map { "`\($0)`" } ?? "`\(relative)`", colour: colours)
            if relative == "to" { values.to = value } else { values.by = value }
        } else if through {
            var keyframes: [Keyframe] = []
            repeat {
                let value = try self.value(what: "a keyframe",
                                           after: keyframes.isEmpty ? "`through`" : "`,`", colour: colours)
                var keyframe = Keyframe(value: value, range: value.range)
                if checkWord(.at) {
                    advance()
                    namesAllowed = false
                    defer { namesAllowed = true }
                    let offset = Parser.settled(try number(what: "an offset", after: "`at`"))
                    let percent = try consume(.percent, after: "the offset", hint: "offsets are percentages: `at 40%`")
                    keyframe.offset = offset
                    keyframe.range = value.range.union(percent.range)
                }
                if checkWord(.with) { keyframeEasing(of: &keyframe) }
                keyframes.append(keyframe)
            } while match(.comma)
            if checkWord(.with), isWord(peek(1), .each) {
                // `with each E` (docs/semantics.md §8.2): every piece without an easing of its own.
                advance()
                advance()
                if let (name, range) = keyframeEasingName(at: 0) {
                    for index in keyframes.indices.dropLast() where !keyframes[index].isEased {
                        keyframes[index].easingName = name
                        keyframes[index].easingNameRange = range
                    }
                } else {
                    let (easing, _) = try easingClause()
                    for index in keyframes.indices.dropLast() where !keyframes[index].isEased { keyframes[index].easing = easing }
                }
            }
            if keyframes.count < 2 {
                report(.tooFewKeyframes, at: keyframes[0].range, hint: "`through` lists two values or more: `through 0, 1, 0.5`")
            }
            values.keyframes = keyframes
        } else {
            let from = try value(what: "a start value", after: values.property.map { "`\($0)`" } ?? "`from`", colour: colours)
            let fromRange = from.range
            values.from = consume from
            let unitHint = unitOnValueHint(after: fromRange)
            try consumeWord(.to, after: "the start value", hint: unitHint)
            values.to = try value(what: "an end value", after: "`to`", colour: colours)
        }
    }

    /// Where units go, for a unit written on a start value: `from 0deg to
    /// 90deg` (the angle unit once, after the end value), `from 0% to 100%`
    /// (values take no `%`; opacity is 0 to 1).
    // (`mutating` though it changes nothing: a non-mutating method called from a
    // mutating one here gets a copy of the whole parser, measured; `inout` passes it by address.)
    mutating func unitOnValueHint(after value: SourceRange) -> String? {
        let unit = peek()
        guard unit.range.start == value.end else { return nil }
        let start = file.text(value)
        // The end value as written, without its unit, when it follows.
        var end = "B"
        if isWord(peek(1), .to), peek(2).kind == .number { end = text(peek(2)) }
        if unit.kind == .percent { return percentHint(start: start, end: end) }
        if unit.kind == .name, angleUnits.contains(text(unit)) {
            return "the unit goes once, after the end value: write `from \(start) to \(end) \(text(unit))`"
        }
        return nil
    }

    /// The hint for `from A% to B%`: an opacity or a scale is a fraction
    /// (`from 100% to 120%` is `from 1 to 1.2`), any other value a number
    /// as written.
    func percentHint(start: String, end: String) -> String {
        let fractions = Double(start).flatMap { a in Double(end).map { b in (formatNumber(a / 100), formatNumber(b / 100)) } }
        switch percentProperty() {
        case "opacity":
            let (a, b) = fractions ?? ("0", "1")
            return "opacity is a number from 0 to 1, with no `%`: write `from \(a) to \(b)`"
        case "scale":
            guard let (a, b) = fractions else { return "a scale is a factor, with no `%` (100% is 1)" }
            return "a scale is a factor, with no `%`: write `from \(a) to \(b)`"
        default:
            return "values take no `%`: write `from \(start) to \(end)`"
        }
    }

    /// What the tween being read animates, when a `%` on its value may mean a fraction of 1:
    /// `opacity` (`fade`, `fadeIn`, `fadeOut`, `animate V.opacity`), `scale` (`scale`, `grow`,
    /// `shrink` without a property, `animate V.scale`, `V.scale-x`, `V.scale-y`); `nil` otherwise.
    func percentProperty() -> String? {
        let tokens = itemTokens()
        var index = current - 1
        while index > 0, !startsItem(tokens[index]) {
            let word = text(tokens[index])
            switch word {
            case "fade", "fadeIn", "fadeOut":
                return "opacity"
            case "scale", "grow", "shrink":
                // The property, when one is written, is the name just before the value (`from radius 30%`).
                return tokens[current - 2].kind == .name && !isWord(tokens[current - 2], .from) ? nil : "scale"
            case "animate":
                let property = text(tokens[index + 3])
                return property == "opacity" ? "opacity" : ["scale", "scale-x", "scale-y"].contains(property) ? "scale" : nil
            default:
                index -= 1
            }
        }
        return nil
    }

    /// An opacity written outside 0 to 1 (`fade v from 0 to 100`) is drawn
    /// clamped: a warning at each such value, fixed by reading it as a
    /// percentage when it is a whole literal from 2 to 100.
    mutating func warnOpacityOutOfRange(_ tween: borrowing TweenSyntax) {
        let values = tween.keyframes.map { $0.map(\.value) } ?? [tween.from, tween.to].compactMap { $0 }
        for case .number(let number) in values where number.value.isFinite && (number.value > 1 || number.value < 0) {
            // (A whole number from 2 to 100 reads as a percentage; `1.5` as a slip of some other kind.)
            let literal = number.formula == nil && number.value >= 2 && number.value <= 100 && number.value == number.value.rounded()
            let fraction = formatNumber(number.value / 100)
            report(.opacityOutOfRange(file.text(number.range)), at: number.range,
                   hint: "opacity runs from 0 (hidden) to 1 (fully shown)" + (literal ? "; did you mean `\(fraction)`?" : ""),
                   fix: literal ? .replacing(number.range, with: fraction) : nil)
        }
    }

    /// An angle in turns or radians that is a whole multiple of 15 of at
    /// least 45 (`to 360 turns`, `to 90 radians`) is most likely in degrees:
    /// a warning, whose fix writes `degrees` for the unit. (Values written
    /// with `pi` or `tau` are radians meant.)
    mutating func warnDegreeSizedAngles(_ values: [Keyframe], unit: Token) {
        let name = text(unit)
        let degreesPerUnit = name == "turns" ? 360 : 180 / Double.pi
        for keyframe in values {
            guard case .number(let number) = keyframe.value, !number.mentionsPi else { continue }
            let value = number.value
            guard value.isFinite, abs(value) >= 45, value.truncatingRemainder(dividingBy: 15) == 0 else { continue }
            report(.degreeSizedAngle(written: file.text(number.range), unit: name, degrees: value * degreesPerUnit), at: number.range,
                   hint: didYouMean("degrees"), fix: .replacing(unit.range, with: "degrees"))
        }
    }

    // MARK: Values

    /// value = number | colour | "(" number "," number ")" ;
    /// colour = "#…" | NAME | ( "rgb" | "rgba" | "hsl" | "hsla" ) "(" … ")" ;
    mutating func value(what: String, after context: @autoclosure () -> String, colour: Bool = false) throws(SyntaxError) -> ValueSyntax {
        let token = peek()
        if let comment = colourReadAsComment() {
            // `from #abcde`: not 3, 4, 6 or 8 hex digits, so the lexer read a comment to the end of the line.
            let word = file.text(comment)
            report(.expectedNumber(what: what, after: context(), found: .text(word)), at: comment,
                   hint: "`\(word)` is read as a comment: a hex colour is `#` and 3, 4, 6 or 8 hex digits")
            throw SyntaxError()
        }
        if let number = loneLiteral() { return .number(Parser.settled(number)) }
        switch token.kind {
        case .color:
            advance()
            // The bytes after the `#` (a token of this file: in bounds).
            guard token.range.start < token.range.end, token.range.end <= bytes.count,
                  let color = ColorNames.color(hex: bytes[(token.range.start + 1)..<token.range.end]) else {
                throw error(.expectedNumber(what: what, after: context(), found: describe(token)), at: token)
            }
            return .color(ColorSyntax(color, range: token.range))
        case .name where peek(1).kind == .leftParen && colorFunctions.contains(text(token)):
            return .color(try colorFunction())
        case .name where isValueName(token) && ColorNames.color(named: text(token)) == nil:
            let number = Parser.settled(try arithmetic(grouped: false))
            names.noteUses(in: number, bare: names.stopKind)
            return .number(number)
        case .name where !isWord(token, .pi) && !isWord(token, .tau):
            let word = text(token)
            if let color = ColorNames.color(named: word) {
                advance()
                return .color(ColorSyntax(color, range: token.range))
            }
            if names.constant(word) != nil {
                return .number(Parser.settled(try arithmetic(grouped: false)))
            }
            if isLetName(word) {
                throw error(.expectedNumber(what: what, after: context(), found: describe(token)), at: token,
                            hint: "here a named value must be a number named before: `\(word)` is not")
            }
            if let match = closestMatch(to: word, in: ColorNames.allNames), !reservedWords.contains(word) {
                advance()
                report(.unknownColor(word), at: token.range, hint: didYouMean(match), fix: .replacing(token.range, with: match))
                return .color(ColorSyntax(Color(red: 0, green: 0, blue: 0), range: token.range))
            }
            if colour, !reservedWords.contains(word) {
                // After `color V from`, any word was meant as a colour.
                advance()
                report(.unknownColor(word), at: token.range,
                       hint: "a colour is a CSS name (`red`, `rebeccapurple`), `#rrggbb`, `rgb(R G B)` or `hsl(H S% L%)`")
                return .color(ColorSyntax(Color(red: 0, green: 0, blue: 0), range: token.range))
            }
            throw error(.expectedNumber(what: what, after: context(), found: describe(token)), at: token,
                        hint: reservedWords.contains(word) ? nil
                            : "a value is a number, a colour (`red`, `#3366ff`, `rgb(…)`, `hsl(…)`) or a point `(x, y)`")
        case .leftParen where isPoint():
            let open = advance()
            let x = Parser.settled(try number(what: "an x", after: "`(`", grouped: true))
            try consume(.comma, after: "the x", hint: "a point is written `(x, y)`")
            let y = Parser.settled(try number(what: "a y", after: "`,`", grouped: true))
            let close = try closing(open)
            names.noteUses(in: x, bare: .number)
            names.noteUses(in: y, bare: .number)
            return .point(x: x, y: y, range: open.range.union(close.range))
        default:
            let number = Parser.settled(try number(what: what, after: context()))
            names.noteUses(in: number, bare: .number)
            return .number(number)
        }
    }

    /// The `#…` word right after the previous token on its line when its
    /// first character is a hex digit: a colour the lexer could not read as
    /// one (`#abcde`, `#12345g`), so it began a comment.
    // (`mutating` though it changes nothing: a non-mutating method called from a
    // mutating one here gets a copy of the whole parser, measured; `inout` passes it by address.)
    @inline(__always)
    mutating func colourReadAsComment() -> SourceRange? {
        // A `#` and a hex digit take two bytes between the tokens (and such a comment runs to
        // the end of its line): with at most one byte between them, there is none.
        guard current > 0, peek().range.start &- previous.range.end > 1 else { return nil }
        return colourReadAsCommentScan()
    }

    /// ``colourReadAsComment()`` where the tokens are further apart.
    mutating func colourReadAsCommentScan() -> SourceRange? {
        var index = previous.range.end
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
        guard peek().range.start != index, index + 1 < bytes.count, bytes[index] == UInt8(ascii: "#"), bytes[index + 1] < 0x80,
              Character(Unicode.Scalar(bytes[index + 1])).isHexDigit else { return nil }
        var end = index + 1
        while end < bytes.count, bytes[end] < 0x80, Character(Unicode.Scalar(bytes[end])).isLetter
                || Character(Unicode.Scalar(bytes[end])).isNumber || bytes[end] == UInt8(ascii: "_") {
            end += 1
        }
        return SourceRange(index, end)
    }

    /// Whether the `(` here opens a point: a `,` inside it at its own level.
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func isPoint() -> Bool {
        var level = 0
        var found = false
        scanAhead { token in
            switch token.kind {
            case .leftParen: level += 1
            case .rightParen:
                level -= 1
                if level == 0 { return false }
            case .comma where level == 1:
                found = true
                return false
            case .eof: return false
            default: break
            }
            // (Not `startsItem`: a closure that uses `self` copies all of the parser, measured.)
            return token.word != .let && token.word != .view
        }
        return found
    }

    /// `rgb(R, G, B)`, `rgb(R G B)`, `rgb(R G B / A)`, `rgba(R, G, B, A)`, and
    /// `hsl(H, S%, L%)`, `hsl(H S% L% / A)`, `hsla(H, S%, L%, A)` (CSS Color 4;
    /// `rgba` and `hsla` are the same functions). A channel outside its range
    /// is an error (CSS would clamp it silently).
    mutating func colorFunction() throws(SyntaxError) -> ColorSyntax {
        let name = advance()
        let word = text(name)
        let hsl = word.hasPrefix("hsl")
        let allowed = namesAllowed
        namesAllowed = false
        defer { namesAllowed = allowed }
        advance()  // the `(`
        var parts: [(number: Number, percent: Bool, range: SourceRange)] = []
        var separatedByCommas: Bool?
        var alphaBySlash = false
        let usage = hsl ? "write `hsl(H, S%, L%)`, `hsl(H S% L% / A)` or `hsla(H, S%, L%, A)`"
                        : "write `rgb(R, G, B)`, `rgb(R G B / A)` or `rgba(R, G, B, A)`"
        while !check(.rightParen) {
            if !parts.isEmpty {
                if match(.comma) {
                    if separatedByCommas == false { report(.mixedColorSeparators, at: previous.range, hint: usage) }
                    separatedByCommas = true
                } else if match(.slash) {
                    alphaBySlash = true
                } else {
                    if separatedByCommas == true { report(.mixedColorSeparators, at: peek().range, hint: usage) }
                    separatedByCommas = false
                }
            }
            guard parts.count < 4, startsNumber(peek()) || isConstant(peek()) else {
                throw error(.expectedNumber(what: "a channel", after: "`\(word)(`", found: describe(peek())), at: peek(), hint: usage)
            }
            // One factor per channel: `rgb(1 -2 3)` has three channels and `/` separates the alpha.
            let value = Parser.settled(try factor(grouped: true))
            var range = value.range
            var percent = false
            if match(.percent) {
                percent = true
                range = range.union(previous.range)
            } else if hsl, parts.isEmpty, checkWord(.deg) {
                range = range.union(advance().range)
            }
            parts.append((value, percent, range))
            if alphaBySlash, parts.count != 4 {
                report(.colorArguments(word), at: range, hint: usage)
            }
        }
        let close = advance()
        let whole = name.range.union(close.range)
        guard parts.count == 3 || parts.count == 4 else {
            report(.colorArguments(word), at: whole, hint: usage)
            return ColorSyntax(Color(red: 0, green: 0, blue: 0), range: whole)
        }
        func channel(_ index: Int, _ limit: Double, _ channel: String, percent wanted: Bool) -> Double {
            let part = parts[index]
            var value = part.number.value
            if part.percent != wanted, !(index == 3 && part.percent) {
                let written = file.text(part.range)
                report(.colorChannel(channel, written: written, range: wanted ? "0% to 100%" : "0 to \(formatNumber(limit))"),
                       at: part.range, hint: wanted ? "the `%` is missing: write `\(written)%`" : usage)
            }
            if index == 3, part.percent { value /= 100 }
            let top = index == 3 ? 1 : (part.percent ? 100 : limit)
            if !(value >= 0 && value <= top) {
                report(.colorChannel(channel, written: file.text(part.range),
                                     range: index == 3 ? "0 to 1" : (wanted ? "0% to 100%" : "0 to \(formatNumber(limit))")),
                       at: part.range, hint: "CSS would clamp it; animc asks you to write the value you mean")
                return min(max(value, 0), top)
            }
            return value
        }
        let alpha = parts.count == 4 ? channel(3, 1, "alpha", percent: false) : 1
        let color: Color
        if hsl {
            let hue = parts[0].number.value
            if parts[0].percent { report(.colorChannel("hue", written: file.text(parts[0].range), range: "degrees"), at: parts[0].range, hint: usage) }
            let saturation = channel(1, 100, "saturation", percent: true)
            let lightness = channel(2, 100, "lightness", percent: true)
            color = Color(hue: hue.isFinite ? hue : 0, saturationPercent: saturation, lightnessPercent: lightness, alpha: alpha)
        } else {
            color = Color(red: channel(0, 255, "red", percent: false), green: channel(1, 255, "green", percent: false),
                          blue: channel(2, 255, "blue", percent: false), alpha: alpha)
        }
        return ColorSyntax(color, range: whole)
    }

    /// angle-unit = "degrees" | "deg" | "radians" | "rad" | "turns" ;
    mutating func angleUnit(after value: Number) -> TweenSyntax.AngleUnit? {
        let token = peek()
        guard token.kind == .name else { return nil }
        let word = text(token)
        switch word {
        case "degrees", "deg": advance(); return .degrees
        case "radians", "rad": advance(); return .radians
        case "turns": advance(); return .turns
        default:
            guard !reservedWords.contains(word) else { return nil }
            let suggestion = closestMatch(to: word, in: angleUnits)
            guard token.range.start == value.range.end || suggestion != nil else { return nil }
            advance()
            report(.unknownAngleUnit(word), at: token.range,
                   hint: suggestion.map(didYouMean) ?? "angles take a unit: degrees, deg, radians, rad or turns",
                   fix: suggestion.map { .replacing(token.range, with: $0) })
            return nil
        }
    }

    mutating func warnPiInDegrees(_ value: Number, fix: Diagnostic.FixIt) {
        report(.piInDegrees(written: file.text(value.range), degrees: value.value), at: value.range, hint: didYouMean("radians"), fix: fix)
    }

    // MARK: Durations and counts

    /// duration = number [ "s" | "sec" | "seconds" | "ms" ] ;
    mutating func duration(after context: @autoclosure () -> String) throws(SyntaxError) -> Duration {
        let duration = try measuredDuration(after: context())
        names.noteUses(in: duration.number, bare: .duration, inArithmetic: .duration)
        return duration
    }

    /// duration = a number, with units on its literals (docs/semantics.md §8.4):
    /// `250ms`, `0.1s + 0.2s`, `gap * 2`, `(gap + 50ms) * 3`, `1 + 2ms`.
    /// A literal alone, with or without a unit (most durations), is read as
    /// before; arithmetic is read by ``number(what:after:grouped:)`` with
    /// units allowed, and, when it names nothing, folded here with the
    /// measures of ``Formula/measured(_:value:failed:)``: a duration in
    /// seconds, or a number (seconds too, where a duration is expected).
    mutating func measuredDuration(after context: @autoclosure () -> String, hintUnits: Bool = true) throws(SyntaxError) -> Duration {
        if check(.number), !continuesNumber(at: 1), durationUnit(peek(1)) == nil || !continuesNumber(at: 2) {
            let value = literal(advance())
            var unit = Duration.Unit.implicit
            var range = value.range
            let token = peek()
            if token.kind == .name {
                if let known = durationUnit(token) {
                    unit = known
                    advance()
                    range = range.union(token.range)
                } else if hintUnits {
                    let word = text(token)
                    if let hint = unknownUnitHint(word, at: token, after: value) {
                        reportUnknownUnit(word, at: token, hint: hint)
                        advance()
                    }
                }
            }
            // A negative duration is the evaluator's to report (grammar.md: "an error"), with its own hint.
            return Duration(number: Parser.settled(value), unit: unit, range: range)
        }
        let allowed = unitsAllowed
        unitsAllowed = true
        let value: Number
        do {
            value = try number(what: "a duration", after: context())
            unitsAllowed = allowed
        } catch {
            unitsAllowed = allowed
            throw error
        }
        let token = peek()
        // (A unit just read ends the duration: a word after it is the next thing, as after `250ms`.)
        if hintUnits, token.kind == .name, durationUnit(token) == nil, durationUnit(previous) == nil {
            let word = text(token)
            if let hint = unknownUnitHint(word, at: token, after: value) {
                reportUnknownUnit(word, at: token, hint: hint)
                advance()
            }
        }
        guard let formula = value.formula, formula.hasUnit, formula.names.isEmpty else {
            return Duration(number: Parser.settled(value), unit: .implicit, range: value.range)
        }
        // Units and no names: the length is known now, and so is a mistake in its measures.
        let folded = formula.measured(&self, value: { _, _, _ in nil }, failed: { parser, diagnostic in
            parser.keep(diagnostic)
        })
        guard let (number, measure) = folded, number.value.isFinite else {
            return Duration(number: Number(exact: .zero, value: 0, range: value.range), unit: .implicit, range: value.range)
        }
        return Duration(number: Number(exact: number.exact, value: number.value, mentionsPi: value.mentionsPi, range: value.range),
                        unit: measure == .duration ? .seconds : .implicit, range: value.range)
    }

    /// `unknown-unit` for `word`, with the fix that writes the unit it was meant to be, when the hint names one.
    mutating func reportUnknownUnit(_ word: String, at token: Token, hint: String) {
        let unit = durationUnitAliases[word] ?? closestMatch(to: word, in: durationUnits)
        report(.unknownUnit(word), at: token.range, hint: hint,
               fix: unit.flatMap { hint == didYouMean($0) ? .replacing(token.range, with: $0) : nil })
    }

    /// `number` with the unit after it, when units are allowed here and
    /// one follows (a unit belongs to the literal, the parenthesised number
    /// or the name just before it: `1 + 2ms` is 1.002 s).
    @inline(__always)
    mutating func withUnit(_ number: Number) -> Number {
        guard unitsAllowed, let unit = durationUnit(peek()) else { return number }
        let token = advance()
        let range = number.range.union(token.range)
        return Number(formula: .unit(number.formula ?? .literal(number), unit, range))
    }

    /// The hint for a name right after a duration's number that is not a
    /// unit, when it was meant as one; `nil` when it is something else (a
    /// reserved word, a modifier or easing written without `with`, a verb
    /// starting the next tween, a name on the next line).
    ///
    /// Only modifiers and reserved words can follow a duration, so any other
    /// name there is a mistake: `2min` and `2 secs` are units gone wrong,
    /// `300 millis` one spelt differently, `90 degrees` a unit of angle.
    func unknownUnitHint(_ word: String, at token: Token, after value: Number) -> String? {
        // (The words that may follow a duration and are not modifiers: reserved ones such as `overlapping by`, a stagger's clauses.)
        guard !reservedWords.contains(word), !durationFollowers.contains(word) else { return nil }
        let adjacent = token.range.start == value.range.end
        if let unit = durationUnitAliases[word] ?? (word.utf8.count > 1 ? closestMatch(to: word, in: durationUnits) : nil) {
            return adjacent ? "durations take a unit: s, sec, seconds or ms" : didYouMean(unit)
        }
        if adjacent { return "durations take a unit: s, sec, seconds or ms" }
        guard onSameLine(value.range, token.range), closestMatch(to: word, in: Array(modifierWords).sorted()) == nil,
              EasingNames.easing(named: word) == nil, TweenSyntax.Verb(rawValue: word) == nil else { return nil }
        if angleUnits.contains(word) { return "durations take s, sec, seconds or ms" }
        return "durations take a unit: s, sec, seconds or ms; to play \(quoted(word)) next, write `;` or `||` before it"
    }

    /// count = number ; a whole number ≥ 0.
    ///
    /// Counts are checked here and only here: the returned count's
    /// ``Count/value`` is set when it is valid, and every invalid count is
    /// reported, so later stages read `value` and report nothing.
    mutating func count(after context: @autoclosure () -> String, fractional: Bool = false) throws(SyntaxError) -> Count {
        let value = try number(what: "a count", after: context())
        names.noteUses(in: value, bare: .number)
        let count = Count(number: Parser.settled(value), range: value.range)
        // A number that is not finite was reported already (and settled to 0).
        // (`^` and `repeated` take an exact count that is not whole, too: docs/semantics.md §8.5.)
        if value.formula == nil, value.value.isFinite, count.value == nil, !(fractional && count.fraction != nil) {
            report(invalidCount(value), at: value.range)
        }
        return count
    }

    /// Why `value` is not a count (a whole number ≥ 0 that fits in an `Int`).
    func invalidCount(_ value: Number) -> DiagnosticKind {
        let text = file.text(value.range)
        let whole: Bool
        if let exact = value.exact {
            whole = exact.denominator == 1
        } else {
            whole = value.value == value.value.rounded()
        }
        if value.value < 0 { return .negativeCount(text) }
        if !whole { return .fractionalCount(text) }
        // Whole and not negative, but not exact or too large for an `Int`.
        if value.exact == nil, value.value < 0x1p63 { return .inexactCount(text) }
        return .countTooLarge(value.value)
    }

    // MARK: Numbers

    /// A number inside a clause (`from 2*pi`, `wait 1/3`), folded to one value.
    /// `grouped` numbers (inside parentheses that start a number, and easing
    /// arguments) treat every `+ - * /` as arithmetic.
    mutating func number(what: String, after context: @autoclosure () -> String, grouped: Bool = false) throws(SyntaxError) -> Number {
        let token = peek()
        guard startsNumber(token) || isValueName(token) || isConstant(token) else {
            var hint: String?
            if token.kind == .name, !namesAllowed, names.namesValue(text(token)) {
                hint = "inside an easing's or a colour's arguments, in an offset or a `view`, a name must be a number named before it; "
                    + "`\(text(token))` is not"
            }
            throw error(.expectedNumber(what: what, after: context(), found: describe(token)), at: token, hint: hint)
        }
        return try arithmetic(grouped: grouped)
    }

    /// number = term { ( "+" | "-" ) term } ;
    mutating func arithmetic(grouped: Bool) throws(SyntaxError) -> Number {
        if !unitsAllowed, let number = loneLiteral() { return number }
        var result = try term(grouped: grouped)
        while check(.plus) || check(.minus), continuesNumber(grouped: grouped) {
            let op = advance()
            let right = try term(grouped: grouped)
            result = combine(result, op, right)
        }
        return result
    }

    /// A literal that no operator follows (most numbers), read here: what
    /// ``arithmetic(grouped:)`` would give, without its four levels.
    mutating func loneLiteral() -> Number? {
        guard check(.number) else { return nil }
        switch peek(1).kind {
        case .plus, .minus, .star, .slash: return nil
        default: return literal(advance())
        }
    }

    /// term = factor { ( "*" | "/" ) factor } ;
    mutating func term(grouped: Bool) throws(SyntaxError) -> Number {
        var result = try factor(grouped: grouped)
        while check(.star) || check(.slash), continuesNumber(grouped: grouped) {
            let op = advance()
            let right = try factor(grouped: grouped)
            result = combine(result, op, right)
        }
        return result
    }

    /// factor = "-" factor | NUMBER | "pi" | "tau" | "(" arith ")" ;
    mutating func factor(grouped: Bool) throws(SyntaxError) -> Number {
        let token = peek()
        switch token.kind {
        case .minus:
            advance()
            try enterNesting(at: token)
            defer { depth -= 1 }
            let operand = try factor(grouped: grouped)
            return negate(operand, from: token)
        case .number:
            advance()
            return withUnit(literal(token))
        case .leftParen:
            advance()
            try enterNesting(at: token)
            defer { depth -= 1 }
            var inner = try arithmetic(grouped: true)
            let close = try closing(token)
            inner.range = token.range.union(close.range)
            return withUnit(inner)
        case .name where isWord(token, .pi) || isWord(token, .tau):
            advance()
            let value = isWord(token, .pi) ? Double.pi : 2 * Double.pi
            return withUnit(Number(exact: nil, value: value, mentionsPi: true, range: token.range))
        case .name where isValueName(token):
            advance()
            return withUnit(Number(formula: .name(text(token), token.range)))
        case .name where names.constant(text(token)) != nil:
            advance()
            guard let known = names.constant(text(token)) else { return literal(token) }
            return withUnit(Number(exact: known.exact, value: known.value, range: token.range))
        default:
            throw error(.expectedNumber(what: "a number", after: describe(previous).description, found: describe(token)), at: token)
        }
    }

    /// A number as the tree stores it: one already reported as not finite
    /// becomes 0, so later stages do not report the same mistake again.
    /// (Static: as an instance method, `settled(try number(…))` copies all of
    /// the parser to hold the receiver while the argument changes it, measured.)
    @inline(__always)
    static func settled(_ value: consuming Number) -> Number {
        // (A number stored inline is an exact fraction, so finite: no division to find out.)
        if value.isCompact || value.value.isFinite { return value }
        return value.formula != nil ? value : Number(exact: .zero, value: 0, range: value.range)
    }

    /// THE CONTINUATION RULE: in a clause, `/` always continues a number, `-`
    /// when a number, `pi`, `tau`, `-` or `(` follows, and `*` and `+` only
    /// when a number, `pi`, `tau` or `-` follows (so `fadeIn v * x` is a sequence).
    func continuesNumber(grouped: Bool) -> Bool {
        grouped || continuesNumber(at: 0)
    }

    /// Whether the operator `offset` tokens ahead continues a number in a clause
    /// (a `-` followed by a named value does: `lift - 2`, `top - lift`).
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func continuesNumber(at offset: Int) -> Bool {
        let next = peek(offset + 1)
        switch peek(offset).kind {
        case .slash:
            return true
        case .minus:
            return startsNumber(next) || isValueName(next)
        case .star, .plus:
            if next.kind == .number || next.kind == .minus || isWord(next, .pi) || isWord(next, .tau) { return true }
            // The kinds decide (docs/semantics.md §8.4): a name bound to a number or a duration, or a `(` before a number.
            if next.kind == .name { return namesQuantity(next) }
            if next.kind == .leftParen {
                let inner = peek(offset + 2)
                return startsNumber(inner) && inner.kind != .leftParen || namesQuantity(inner)
            }
            return false
        case .name, .number, .leftParen, .rightParen, .comma, .dot, .equals, .semicolon, .caret, .parallel, .percent, .color,
             .invalid, .eof:
            return false
        }
    }

    /// Whether `token` names a number or a duration a `let` binds (before
    /// here, or anywhere: ``quantityLets(in:)``), so that `*` and `+` before
    /// it are arithmetic. A parameter's kind comes from its uses, so it
    /// keeps the reading of a name there: `;` and `||`.
    @inline(never)
    func namesQuantity(_ token: Token) -> Bool {
        guard token.kind == .name, namesAllowed, !isReserved(token) else { return false }
        let word = text(token)
        if names.isParameter(word) { return false }
        if names.constant(word) != nil { return true }
        guard isLetName(word) else { return false }
        if memo.quantityLets == nil { memo.quantityLets = quantityLets(in: file) }
        return memo.quantityLets?.contains(word) ?? false
    }

    mutating func literal(_ token: Token) -> Number {
        let key = SpellingMemo.key(bytes, token.range)
        let slot = SpellingMemo.slot(key)
        if key != 0, memo.literals[slot].key == key {
            // (The number as stored, moved here: no second look at which representation it takes.)
            var number = memo.literals[slot].number
            number.range = token.range
            return number
        }
        return literalRead(token, key: key, slot: slot)
    }

    /// ``literal(_:)`` for a literal not in the memo: read from its bytes (and
    /// remembered when short). Apart, so the memo's hit (most literals) stays small.
    @inline(never)
    mutating func literalRead(_ token: Token, key: UInt64, slot: Int) -> Number {
        if let (exact, value) = plainDecimal(token.range) {
            let number = Number(exact: exact, value: value, range: token.range)
            if key != 0 { memo.literals[slot] = SpellingMemo.Literal(key: key, number: number) }
            return number
        }
        let text = self.text(token)
        let value = Double(text) ?? .nan
        guard value.isFinite else {
            report(.numberTooLarge(text), at: token.range)
            return Number(exact: nil, value: .nan, range: token.range)
        }
        let exact = Time(decimal: bytes[token.range.start..<token.range.end])
        return Number(exact: exact, value: value, range: token.range)
    }

    /// A literal `digits[.digits]` of at most 18 digits, read without `strtod`:
    /// its exact value, and the nearest `Double`, which one division gives
    /// exactly (the mantissa and the power of ten are both exact `Double`s,
    /// and IEEE division rounds correctly, as `strtod` does). `nil` for any
    /// other literal (an exponent, more digits), which ``literal(_:)`` reads
    /// the long way.
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func plainDecimal(_ range: SourceRange) -> (Time, Double)? {
        var mantissa: Int64 = 0
        var digits = 0
        var scale = 0
        var seenPoint = false
        var index = range.start
        guard range.end - range.start <= 19, range.end <= bytes.count else { return nil }
        while index < range.end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                // At most 18 digits: below 10^18, no overflow.
                mantissa = mantissa &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
                digits += 1
                if seenPoint { scale += 1 }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0, digits <= 18, mantissa < 1 << 53 else { return nil }
        let value = Double(mantissa) / Parser.powersOfTen[scale]
        if scale == 0 { return (Time(mantissa), value) }
        // mantissa / 10^scale in lowest terms: only 2s and 5s can be shared.
        var numerator = mantissa
        var twos = scale, fives = scale
        while twos > 0, numerator != 0, numerator % 2 == 0 { numerator /= 2; twos -= 1 }
        while fives > 0, numerator != 0, numerator % 5 == 0 { numerator /= 5; fives -= 1 }
        if numerator == 0 { return (.zero, value) }
        var denominator: Int64 = 1
        for _ in 0..<twos { denominator *= 2 }
        for _ in 0..<fives { denominator *= 5 }
        guard let exact = Time(numerator: numerator, denominator: denominator) else { return nil }
        return (exact, value)
    }

    /// 10^0 … 10^18, each exact as a `Double`.
    static let powersOfTen: [Double] = (0...18).map { (0..<$0).reduce(1.0) { product, _ in product * 10 } }

    func negate(_ operand: Number, from minus: Token) -> Number {
        let range = minus.range.union(operand.range)
        if let formula = operand.formula { return Number(formula: .negated(formula, range)) }
        return negatedNumber(operand, range: range)
    }

    /// `left op right`, exactly while both sides are exact and nothing overflows.
    mutating func combine(_ left: Number, _ op: Token, _ right: Number) -> Number {
        let range = left.range.union(right.range)
        let symbol: ArithmeticOperator = op.kind == .plus ? .plus : op.kind == .minus ? .minus : op.kind == .star ? .times : .divided
        if left.formula != nil || right.formula != nil {
            var result = Number(formula: .binary(symbol, left.formula ?? .literal(left), right.formula ?? .literal(right), range))
            result.mentionsPi = left.mentionsPi || right.mentionsPi
            return result
        }
        switch combineNumbers(left, symbol, right, range: range) {
        case .number(let number):
            return number
        case .divisionByZero:
            report(.divisionByZero(file.text(range)), at: range)
        case .notFinite:
            report(.notFiniteNumber(file.text(range)), at: range)
        case .quietlyNotFinite:
            break
        }
        return Number(exact: nil, value: .nan, mentionsPi: left.mentionsPi || right.mentionsPi, range: range)
    }

    // MARK: Easings

    /// `[ "a" | "an" ] [ "high" ] easing`, after `with`.
    mutating func easingClause() throws(SyntaxError) -> (Easing, SourceRange) {
        _ = matchWord(.a) || matchWord(.an)
        var high: Token?
        if checkWord(.high) { high = advance() }
        return try easing(high: high)
    }

    /// easing = easing-name [ "(" number ")" ] | "cubic-bezier" "(" … ")" | "steps" "(" … ")" | "compose" "(" easing "," easing ")"
    ///        | [ "smooth" | "snappy" | "bouncy" ] "spring" | "spring" "(" spring-parameters ")" ;
    mutating func easing(high: Token?) throws(SyntaxError) -> (Easing, SourceRange) {
        let allowed = namesAllowed
        namesAllowed = false
        defer { namesAllowed = allowed }
        let token = peek()
        guard token.kind == .name, !isReserved(token) else {
            throw error(.expectedEasing(after: describe(previous).description, found: describe(token)), at: token,
                        hint: "for example `with ease-in-out`, `with linear` or `with steps(4)`")
        }
        advance()
        let name = text(token)
        let start = high?.range ?? token.range
        if let spaced = spacedEasingName(after: token) {
            // `ease in out`: the words of one easing name, written apart.
            var last = token
            for _ in 0..<spaced.words { last = advance() }
            report(.unknownEasing(file.text(token.range.union(last.range))), at: token.range.union(last.range),
                   hint: didYouMean(spaced.name), fix: .replacing(token.range.union(last.range), with: spaced.name))
            skipArguments()
            return (.linear, start.union(previous.range))
        }
        switch name {
        case "cubic-bezier":
            rejectHigh(high, on: name)
            return try cubicBezier(token, start: start)
        case "steps":
            rejectHigh(high, on: name)
            return try steps(token, start: start)
        case "compose":
            rejectHigh(high, on: name)
            return try compose(token, start: start)
        case "mirror":
            rejectHigh(high, on: name)
            return try mirror(token, start: start)
        case "linear" where check(.leftParen):
            rejectHigh(high, on: name)
            return try linearPoints(token, start: start)
        case "spring":
            rejectHigh(high, on: name)
            return try spring(token, start: start)
        case _ where EasingNames.springAdjectives.contains(where: { $0.word == name }):
            return adjectiveSpring(token, high: high, start: start)
        case _ where EasingNames.parameterizedCurves.contains(name):
            return try talkCurve(token, high: high)
        default:
            guard let easing = EasingNames.easing(named: name) else {
                let suggestion = hyphenatedSpring(name) ?? closestMatch(to: name, in: EasingNames.allNames + EasingNames.functionalForms)
                report(.unknownEasing(name), at: token.range,
                       hint: suggestion.map(didYouMean)
                           ?? "easings include linear, ease-in, ease-out, ease-in-out, ease-in-out-cubic, cubic-bezier(…) and steps(N)",
                       fix: suggestion.map { .replacing(token.range, with: $0) })
                skipArguments()
                return (.linear, start.union(previous.range))
            }
            rejectHigh(high, on: name)
            if check(.leftParen) {
                report(.unexpectedEasingParameter(name), at: peek().range,
                       hint: "only ease-in, ease-out and ease-in-out take a parameter, as in `ease-out(3)`")
                skipArguments()
            }
            return (easing, start.union(previous.range))
        }
    }

    /// `bouncy spring` for `bouncy-spring`, which is not one name.
    func hyphenatedSpring(_ name: String) -> String? {
        for (word, _) in EasingNames.springAdjectives where name == word + "-spring" { return word + " spring" }
        return nil
    }

    /// `smooth spring`, `snappy spring`, `bouncy spring`, after the adjective
    /// `token`. The adjective is no keyword anywhere else, so it does not
    /// stop `let bouncy = …`; here anything but `spring` after it is a mistake.
    mutating func adjectiveSpring(_ token: Token, high: Token?, start: SourceRange) -> (Easing, SourceRange) {
        let word = text(token)
        rejectHigh(high, on: "\(word) spring")
        let next = peek()
        if isWord(next, .spring) {
            advance()
            if check(.leftParen) {
                report(.unexpectedEasingParameter("\(word) spring"), at: peek().range,
                       hint: "write `\(word) spring` alone, or describe the spring with `spring(bounce 0.3)` or `spring(stiffness 200, damping 12)`")
                skipArguments()
            }
            return (EasingNames.spring(adjective: word) ?? .linear, start.union(previous.range))
        }
        // What follows goes with the mistake when it was meant as the easing
        // (`bouncy sprung`, `bouncy ease-out`), so it does not dangle.
        var hint = "`\(word)` describes a spring: write `\(word) spring`"
        if next.kind == .name, onSameLine(token, next) {
            let written = text(next)
            if closestMatch(to: written, in: ["spring"]) != nil {
                hint = didYouMean("\(word) spring")
                advance()
                skipArguments()
            } else if EasingNames.easing(named: written) != nil || EasingNames.functionalForms.contains(written) {
                hint = "`\(word)` describes springs only: write `\(word) spring`, or `\(written)` alone"
                advance()
                skipArguments()
            }
        }
        report(.springAdjectiveAlone(word, found: describe(next)), at: token.range, hint: hint)
        return (.linear, start.union(previous.range))
    }

    /// `spring`, or `spring(PARAMETERS)`: `bounce B` alone, or any of
    /// `stiffness K`, `damping C`, `mass M`, `velocity V` (at least one, each
    /// once, in any order, separated by commas). Every mistake is reported at
    /// the parameter it concerns; a spring with one is `linear` afterwards.
    mutating func spring(_ token: Token, start: SourceRange) throws(SyntaxError) -> (Easing, SourceRange) {
        guard check(.leftParen) else { return (EasingNames.spring(adjective: nil) ?? .linear, start.union(token.range)) }
        let open = advance()
        let usage = "write `spring(bounce 0.3)` or `spring(stiffness 200, damping 12)`"
        if check(.rightParen) {
            let close = advance()
            report(.missingSpringParameter, at: open.range.union(close.range),
                   hint: "write `spring` alone for the default, or for example `spring(bounce 0.3)` or `spring(stiffness 200, damping 12)`")
            return (.linear, start.union(close.range))
        }
        var given: [SpringParameter] = []
        var valid = true
        var written = open.range   // the last parameter, name and value
        repeat {
            let nameToken = peek()
            guard nameToken.kind == .name else {
                throw error(.expectedToken(expected: "a spring parameter", after: describe(previous).description, found: describe(nameToken)),
                            at: nameToken, hint: usage)
            }
            advance()
            let name = text(nameToken)
            guard startsNumber(peek()) || isConstant(peek()) else {
                throw error(.expectedNumber(what: "a value", after: "`\(name)`", found: describe(peek())), at: peek(),
                            hint: "write each parameter as a name and a number, as in `spring(stiffness 200, damping 12)`")
            }
            let value = try number(what: "a value", after: "`\(name)`", grouped: true)
            written = nameToken.range.union(value.range)
            if !EasingNames.springParameterNames.contains(name) {
                report(.unknownSpringParameter(name), at: nameToken.range,
                       hint: closestMatch(to: name, in: EasingNames.springParameterNames).map(didYouMean)
                           ?? "spring parameters are stiffness, damping, mass and velocity, or bounce alone")
                valid = false
            } else if let first = given.first(where: { $0.name == name }) {
                report(.duplicateSpringParameter(name), at: nameToken.range, hint: "give each parameter once",
                       notes: [Diagnostic.Note(.firstGiven, at: first.nameRange)])
                valid = false
            } else {
                given.append(SpringParameter(name: name, nameRange: nameToken.range, value: value))
            }
            if !value.value.isFinite { valid = false }   // reported with the number
        } while match(.comma)
        if peek().kind == .name, !startsItem(peek()) {
            throw error(.expectedToken(expected: "`,`", after: "`\(file.text(written))`", found: describe(peek())),
                        at: peek(), hint: "separate spring parameters with commas: `spring(stiffness 200, damping 12)`")
        }
        let close = try closing(open)
        let range = start.union(close.range)
        guard valid else { return (.linear, range) }
        return (springFromParameters(given, arguments: open.range.union(close.range)), range)
    }

    /// A parameter of `spring(…)` as written.
    struct SpringParameter {
        var name: String
        var nameRange: SourceRange
        var value: Number
    }

    /// The spring that valid, distinct, finite `parameters` describe, after
    /// checking each against its domain (reported at its value); `linear`
    /// after a mistake.
    mutating func springFromParameters(_ parameters: [SpringParameter], arguments: SourceRange) -> Easing {
        if let bounce = parameters.first(where: { $0.name == EasingNames.springBounceParameter }) {
            if let other = parameters.first(where: { $0.name != EasingNames.springBounceParameter }) {
                report(.conflictingSpringParameters(other.name), at: other.nameRange,
                       hint: "describe a spring either by `bounce` alone or by stiffness, damping, mass and velocity")
                return .linear
            }
            let b = bounce.value.value, written = file.text(bounce.value.range)
            if b == 1 {
                report(.springNeverSettles("bounce \(written)"), at: bounce.value.range,
                       hint: "a bounce of 1 leaves no damping; take one below 1, such as `spring(bounce 0.9)`")
                return .linear
            }
            guard b > -1, b < 1 else {
                report(.invalidSpringParameter(name: bounce.name, written: written), at: bounce.value.range,
                       hint: "0 does not bounce (it is `spring`), towards 1 bounces more, below 0 creeps slower than `spring`")
                return .linear
            }
            do throws(AnimationError) {
                return try Easing.spring(bounce: b)
            } catch {
                report(.invalidEasing(error), at: bounce.value.range)
                return .linear
            }
        }
        var values: [String: Double] = [:]
        var valid = true
        for parameter in parameters {
            let value = parameter.value.value, written = file.text(parameter.value.range)
            values[parameter.name] = value
            let hint: String
            switch parameter.name {
            case "stiffness" where !(value > 0): hint = "stiffness is how hard the spring pulls: a positive number (100 by default)"
            case "mass" where !(value > 0): hint = "mass is a positive number (1 by default)"
            case "damping" where value < 0: hint = "damping is 0 or more (10 by default)"
            default: continue
            }
            report(.invalidSpringParameter(name: parameter.name, written: written), at: parameter.value.range, hint: hint)
            valid = false
        }
        guard valid else { return .linear }
        if let damping = parameters.first(where: { $0.name == "damping" }), damping.value.value == 0 {
            let stiffness = values["stiffness"] ?? 100, mass = values["mass"] ?? 1
            report(.springNeverSettles("damping \(file.text(damping.value.range))"), at: damping.value.range,
                   hint: "give it some damping: `damping \(formatNumber(2 * (stiffness * mass).squareRoot()))` is critical for this "
                       + "stiffness and mass, less bounces, more creeps")
            return .linear
        }
        do throws(AnimationError) {
            return try EasingNames.spring(physical: values)
        } catch {
            report(.invalidEasing(error), at: arguments,
                   hint: "stiffness, damping and mass this far apart make a spring too slow to compute; bring them closer together")
            return .linear
        }
    }

    /// `ease in out` for `ease-in-out`: the longest run of names after the
    /// easing name `first` (on its line) that, joined to it by `-`, spells an
    /// easing; `words` is how many names follow `first`. `nil` when there is
    /// none, or when the words read fine apart (`with ease in 2s` retimes an
    /// `ease`d animation).
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func spacedEasingName(after first: Token) -> (name: String, words: Int)? {
        var joined = text(first)
        var found: (name: String, words: Int)?
        var offset = 0
        while offset < 4 {
            let next = peek(offset)
            guard next.kind == .name, onSameLine(first, next) else { break }
            joined += "-" + text(next)
            if EasingNames.easing(named: joined) != nil { found = (joined, offset + 1) }
            offset += 1
        }
        if isWord(peek(), .in), startsNumber(peek(1)) { return nil }
        return found
    }

    /// `ease-in`, `ease-out`, `ease-in-out`, each with an optional `(c)` or a preceding `high`.
    mutating func talkCurve(_ token: Token, high: Token?) throws(SyntaxError) -> (Easing, SourceRange) {
        let name = text(token)
        var parameter: Double? = high == nil ? nil : EasingNames.highParameter
        var parameterRange: SourceRange?
        var range = (high?.range ?? token.range).union(token.range)
        if check(.leftParen) {
            let open = advance()
            let value = try number(what: "a parameter", after: "`\(name)(`", grouped: true)
            let close = try closing(open)
            range = range.union(close.range)
            if let high {
                report(.highWithParameter, at: high.range, hint: "write `\(name)(\(file.text(value.range)))` or `high \(name)`")
            }
            guard value.value.isFinite else { return (.linear, range) }   // already reported
            parameter = value.value
            parameterRange = value.range
        }
        do throws(AnimationError) {
            return (try EasingNames.talkCurve(name, parameter: parameter), range)
        } catch {
            report(.invalidEasing(error), at: parameterRange ?? range)
            return (.linear, range)
        }
    }

    /// `cubic-bezier(x1, y1, x2, y2)`.
    mutating func cubicBezier(_ token: Token, start: SourceRange) throws(SyntaxError) -> (Easing, SourceRange) {
        let usage = "write `cubic-bezier(x1, y1, x2, y2)`"
        let open = try consume(.leftParen, after: "`cubic-bezier`", hint: usage)
        var values: [Number] = []
        let names = ["x1", "y1", "x2", "y2"]
        for (index, name) in names.enumerated() {
            if index > 0 { try consume(.comma, after: names[index - 1], hint: usage) }
            let context = describe(previous).description
            values.append(try number(what: name, after: context, grouped: true))
        }
        let close = try closing(open)
        let range = start.union(close.range)
        guard values.allSatisfy({ $0.value.isFinite }), values.count == 4 else { return (.linear, range) }
        do throws(AnimationError) {
            return (try Easing.cubicBezier(values[0].value, values[1].value, values[2].value, values[3].value), range)
        } catch {
            // Point at the x that is out of range.
            let culprit = (0...1).contains(values[0].value) ? values[2].range : values[0].range
            report(.invalidEasing(error), at: culprit, hint: "x1 and x2 are times and must lie in [0, 1]; y1 and y2 may overshoot")
            return (.linear, range)
        }
    }

    /// CSS `linear(…)`: stops `OUTPUT [INPUT% [INPUT%]]`, separated by commas
    /// (``Animations/Easing/linearPoints(_:)`` applies CSS's rules for the inputs).
    mutating func linearPoints(_ token: Token, start: SourceRange) throws(SyntaxError) -> (Easing, SourceRange) {
        let usage = "write `linear(0, 0.25 75%, 1)`: outputs, each with up to two input percentages"
        let open = try consume(.leftParen, after: "`linear`", hint: usage)
        var stops: [(output: Double, inputs: [Double])] = []
        repeat {
            let context = describe(previous).description
            let output = try number(what: "an output", after: context, grouped: true)
            var inputs: [Double] = []
            while startsNumber(peek()), inputs.count < 2 {
                let input = try number(what: "an input", after: "the output", grouped: true)
                try consume(.percent, after: "the input", hint: "inputs are percentages: `0.25 75%`")
                inputs.append(input.value / 100)
            }
            stops.append((output.value, inputs))
        } while match(.comma)
        let close = try closing(open)
        let range = start.union(close.range)
        do throws(AnimationError) {
            return (try Easing.linearPoints(stops), range)
        } catch {
            report(.invalidEasing(error), at: range, hint: usage)
            return (.linear, range)
        }
    }

    /// `steps(N)`, `steps(N, position)`.
    mutating func steps(_ token: Token, start: SourceRange) throws(SyntaxError) -> (Easing, SourceRange) {
        let open = try consume(.leftParen, after: "`steps`", hint: "write `steps(4)` or `steps(4, jump-start)`")
        let count = try number(what: "a number of steps", after: "`steps(`", grouped: true)
        var position = Easing.StepPosition.jumpEnd
        if match(.comma) {
            let positionToken = peek()
            guard positionToken.kind == .name else {
                throw error(.expectedStepPosition(found: describe(positionToken)), at: positionToken,
                            hint: "positions are jump-start, jump-end, jump-none, jump-both, start and end")
            }
            advance()
            let word = text(positionToken)
            switch word {
            case "jump-start", "start": position = .jumpStart
            case "jump-end", "end": position = .jumpEnd
            case "jump-none": position = .jumpNone
            case "jump-both": position = .jumpBoth
            default:
                report(.unknownStepPosition(word), at: positionToken.range,
                       hint: closestMatch(to: word, in: stepPositions).map(didYouMean)
                           ?? "positions are jump-start, jump-end, jump-none, jump-both, start and end")
            }
        }
        let close = try closing(open)
        let range = start.union(close.range)
        guard count.value.isFinite else { return (.linear, range) }   // already reported
        guard let exact = count.exact, exact.denominator == 1, let steps = Int(exactly: exact.numerator) else {
            let whole = count.exact.map { $0.denominator == 1 } ?? (count.value == count.value.rounded())
            let written = file.text(count.range)
            report(whole ? .tooManySteps(written) : .fractionalSteps(written), at: count.range)
            return (.linear, range)
        }
        do throws(AnimationError) {
            return (try Easing.steps(steps, position), range)
        } catch {
            report(.invalidEasing(error), at: count.range)
            return (.linear, range)
        }
    }

    /// `compose(E1, E2)`: `E1` after `E2`.
    mutating func compose(_ token: Token, start: SourceRange) throws(SyntaxError) -> (Easing, SourceRange) {
        let open = try consume(.leftParen, after: "`compose`", hint: Hint.compose)
        try enterNesting(at: open)
        defer { depth -= 1 }
        let (outer, _) = try easing(high: nil)
        try consume(.comma, after: "the first easing", hint: Hint.compose)
        let (inner, _) = try easing(high: nil)
        let close = try closing(open)
        return (outer.composed(after: inner), start.union(close.range))
    }

    /// `mirror(E)`: `p ↦ 1 − E(1 − p)`, the curve `E` played backwards (how
    /// `timeline` spells the easing of a reversed tween whose curve has no
    /// mirror in its own family).
    mutating func mirror(_ token: Token, start: SourceRange) throws(SyntaxError) -> (Easing, SourceRange) {
        let open = try consume(.leftParen, after: "`mirror`", hint: "write `mirror(E)`")
        try enterNesting(at: open)
        defer { depth -= 1 }
        let (inner, _) = try easing(high: nil)
        let close = try closing(open)
        return (inner.mirrored, start.union(close.range))
    }

    mutating func rejectHigh(_ high: Token?, on name: String) {
        guard let high else { return }
        report(.highNotApplicable(name), at: high.range, hint: "remove `high`")
    }

    /// Skips a parenthesised argument list after an easing already reported.
    mutating func skipArguments() {
        guard check(.leftParen) else { return }
        var level = 0
        while !check(.eof), !startsItem(peek()) {
            let token = advance()
            if token.kind == .leftParen { level += 1 }
            if token.kind == .rightParen { level -= 1 }
            if level == 0 { return }
        }
    }

    // MARK: Tree building

    /// A node with one operand, if the tree stays within the nesting limit.
    mutating func wrap(_ kind: Expr.Kind, around operand: Parsed, through end: SourceRange, at token: Token) throws(SyntaxError) -> Parsed {
        let height = operand.height + 1
        guard height <= maxExpressionNesting else { throw nestingTooDeep(at: token) }
        return Parsed(expr: Expr(kind, range: operand.expr.range.union(end), modifier: token.range.union(end)), height: height)
    }

    /// One n-ary node for a whole chain of one operator.
    /// (`operands` is the greatest height of the operands, which go straight
    /// into the node's array, not first into an array of `Parsed`.)
    mutating func chain(_ kind: consuming Expr.Kind, height operands: Int, first: SourceRange, last: SourceRange) throws(SyntaxError) -> Parsed {
        let height = operands + 1
        guard height <= maxExpressionNesting else { throw nestingTooDeep(at: Token(.name, first)) }
        return Parsed(expr: Expr(kind, range: first.union(last)), height: height)
    }

    mutating func enterNesting(at token: Token) throws(SyntaxError) {
        depth += 1
        if depth > maxExpressionNesting { throw nestingTooDeep(at: token) }
    }

    mutating func nestingTooDeep(at token: Token) -> SyntaxError {
        error(.nestingTooDeep(limit: maxExpressionNesting), at: token, hint: "split the expression into several `let` bindings")
    }

    // MARK: Errors

    /// Reports an error (unless the lexer already reported this token) and
    /// returns the error to throw.
    mutating func error(_ kind: DiagnosticKind, at token: Token, hint: String? = nil,
                        notes: [Diagnostic.Note] = [], fix: String? = nil, fixIt: Diagnostic.FixIt? = nil) -> SyntaxError {
        if token.kind != .invalid {
            report(kind, at: token.kind == .eof ? endOfText : token.range, hint: hint, notes: notes,
                   fix: fixIt ?? fix.map { .replacing(token.range, with: $0) })
        }
        return SyntaxError()
    }

    mutating func report(_ kind: DiagnosticKind, at range: SourceRange, hint: String? = nil, notes: [Diagnostic.Note] = [],
                         fix: Diagnostic.FixIt? = nil) {
        keep(Diagnostic(kind, at: range, hint: hint, notes: notes).fixing(fix))
    }

    /// Keeps a diagnostic: every error up to ``maxParseDiagnostics`` of them (counted in
    /// ``errorCount``), and as many warnings (``inSourceOrder(_:)`` drops warnings first).
    mutating func keep(_ diagnostic: Diagnostic) {
        if diagnostic.severity == .error {
            errorCount += 1
            if errorCount <= maxParseDiagnostics { diagnostics.append(diagnostic) }
        } else if warnings.count < maxParseDiagnostics {
            warnings.append(diagnostic)
        }
    }

    mutating func expectedAnimation(found token: Token) -> SyntaxError {
        var hint: String?
        if token.kind == .number {
            var written = text(token)
            let next = peek(1)
            if next.kind == .name, next.range.start == token.range.end { written += text(next) }
            hint = "a number is not an animation; did you mean `wait \(written)`?"
        }
        let context = current > 0 ? describe(previous).description : nil
        return error(.expectedExpression(after: context, found: describe(token)), at: token, hint: hint)
    }

    /// Where a stray word belongs, when it is plainly misplaced: a duration's
    /// unit after the easing (`in 300 with ease-out ms`: `in 300ms`), or the
    /// view of a verb that has none (`fadeIn with ease-in card`: `fadeIn card
    /// with ease-in`). Looks back over the item's tokens only.
    func misplacedWordHint(_ word: String) -> String? {
        let tokens = itemTokens()
        var index = current - 1
        while index > 0, !startsItem(tokens[index]) {
            let token = tokens[index]
            if durationUnits.contains(word), token.kind == .number, ["in", "by"].contains(text(tokens[index - 1])),
               !(tokens[index + 1].kind == .name && tokens[index + 1].range.start == token.range.end) {
                return "a unit goes right after its number: write `\(text(tokens[index - 1])) \(text(token))\(word)`"
            }
            if token.kind == .name, verbs.contains(text(token)), modifierWords.contains(text(tokens[index + 1])), !reservedWords.contains(word) {
                let rest = file.text(SourceRange(tokens[index + 1].range.start, previous.range.end))
                return "`\(text(token))` takes its view right after it: write `\(text(token)) \(word) \(rest)`"
            }
            index -= 1
        }
        return nil
    }

    /// Something that cannot follow a complete expression (`a revesed`, `a b`, `a )`).
    mutating func strayAfterExpression() -> SyntaxError {
        let token = peek()
        var hint: String?
        var fix: String?
        var fixIt: Diagnostic.FixIt?
        if token.kind == .name {
            let word = text(token)
            if word == "then" {
                hint = "to play one after the other, write `;` instead of `\(word)`"
                fix = ";"
            } else if word == "for" {
                hint = "a duration is given with `in`: write `in` instead of `\(word)`"
                fix = "in"
            } else if let match = closestMatch(to: word, in: Array(modifierWords).sorted()) {
                hint = didYouMean(match)
                fix = match
            } else if EasingNames.easing(named: word) != nil {
                hint = didYouMean("with \(word)")
                fix = "with \(word)"
            } else if let unit = strayUnit(word, at: token) {
                return unit
            } else if let (angle, move) = misplacedAngleUnit(word, at: token) {
                hint = angle
                fixIt = move
            } else if let placement = misplacedWordHint(word) {
                hint = placement
            } else if previous.kind == .name, EasingNames.easing(named: text(previous)) == nil,
                      let verb = closestMatch(to: text(previous), in: verbs), verb != text(previous) {
                hint = didYouMean(verb)
            } else if !reservedWords.contains(word) {
                hint = "did you forget `;` or `||` before `\(word)`?"
            }
        } else if token.kind == .leftParen {
            hint = "did you forget `;` or `||` before `(`?"
        } else if token.kind == .rightParen {
            hint = "there is no `(` for this `)` to close"
        } else if token.kind == .color {
            hint = commentHint(token)
        }
        return error(.expectedOperator(found: describe(token)), at: token, hint: hint, fix: fix, fixIt: fixIt)
    }

    /// A unit written on a plain value (`to 100px`, `to 100 px`): animc's
    /// values are numbers, so it is no unit animc has; the fix removes it.
    /// `nil` when the word is not a unit of a value just read.
    mutating func strayUnit(_ word: String, at token: Token) -> SyntaxError? {
        guard previous.kind == .number, previous.range.end == token.range.start || cssUnits.contains(word) else { return nil }
        let value = text(previous)
        var removed = SourceRange(previous.range.end, token.range.end)
        if file.text(removed).hasPrefix(" ") == false { removed = token.range }
        return error(.unknownValueUnit(word), at: token,
                     hint: "values have no units: positions and sizes are plain numbers, so write `\(value)`",
                     fixIt: Diagnostic.FixIt(removed, "", title: "Remove `\(word)`"))
    }

    /// An angle's unit written after the tween's duration (`rotate v from 0
    /// to 90 in 1s turns`): it goes right after the value, and the fix moves
    /// it there. Looks back over the item's tokens only.
    func misplacedAngleUnit(_ word: String, at unit: Token) -> (String, Diagnostic.FixIt)? {
        guard angleUnits.contains(word) else { return nil }
        let tokens = itemTokens()
        var index = current - 1
        while index > 1, !startsItem(tokens[index]) {
            let value = tokens[index]
            if value.kind == .number, isWord(tokens[index - 1], .to), tokens[index + 1].range.start != value.range.end {
                let between = file.text(SourceRange(value.range.end, unit.range.start))
                let moved = " \(word)" + String(between.reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
                return ("an angle's unit goes right after its value: write `to \(text(value))\(moved)`",
                        Diagnostic.FixIt(SourceRange(value.range.end, unit.range.end), moved, title: "Move `\(word)` after `\(text(value))`"))
            }
            index -= 1
        }
        return nil
    }

    /// A hex colour where no value can stand is most likely a comment whose
    /// first word is made of hex digits (`#fade in`).
    func commentHint(_ token: Token) -> String {
        "`\(text(token))` reads as a colour; a comment needs a space after `#`: `# \(text(token).dropFirst())`"
    }

    // MARK: Token helpers

    @inline(__always)
    func peek(_ offset: Int = 0) -> Token {
        switch offset {
        case 0: return ahead0
        case 1: return ahead1
        case 2: return ahead2
        default: return peekFar(offset)
        }
    }

    /// The token `offset` (≥ ``lookahead``) tokens ahead, read with a copy of the lexer.
    @inline(never)
    func peekFar(_ offset: Int) -> Token {
        var more = lexer
        var token = ahead2
        var count = Parser.lookahead
        while count <= offset {
            token = more.next()
            count += 1
        }
        return token
    }

    /// Calls `body` with the token here and each after it, until it returns false.
    @inline(__always)   // (not inlined, each call copies the whole parser, measured)
    func scanAhead(_ body: (Token) -> Bool) {
        for offset in 0..<Parser.lookahead where !body(peek(offset)) { return }
        var more = lexer
        while body(more.next()) {}
    }

    var previous: Token {
        current > 0 ? last : peek()
    }

    /// The tokens of the item being parsed so far, read again (for hints
    /// after a mistake): the token at index `i` of the file (`itemStart.index
    /// ≤ i ≤ current`) is `result[i]`; lower indices are not there.
    func itemTokens() -> ItemTokens {
        var again = Lexer(bytes: bytes, resumingAt: itemStart.offset)
        var list: [Token] = []
        for _ in itemStart.index...current { list.append(again.next()) }
        return ItemTokens(base: itemStart.index, list: list)
    }

    struct ItemTokens {
        let base: Int
        let list: [Token]
        subscript(index: Int) -> Token { list[index - base] }
    }

    func check(_ kind: Token.Kind) -> Bool {
        peek().kind == kind
    }

    func checkWord(_ word: Keyword) -> Bool {
        isWord(peek(), word)
    }

    /// Consumes the token here (not the end of file), and returns it.
    @discardableResult
    @inline(__always)
    mutating func advance() -> Token {
        let token = ahead0
        skip()
        return token
    }

    /// Consumes the token here (not the end of file). (Apart from ``advance()``,
    /// which reads the token before: no token to hand back from this call.)
    @inline(never)
    mutating func skip() {
        let token = ahead0
        if token.kind == .eof { return }
        if startsItem(token) { itemStart = (current, token.range.start) }
        // (Wrapping arithmetic: no file holds 2^63 tokens.)
        if token.kind == .number { numbersConsumed &+= 1 }
        current &+= 1
        last = token
        ahead0 = ahead1
        ahead1 = ahead2
        ahead2 = lexer.next()
    }

    /// Consumes the token here when it is of `kind`.
    mutating func match(_ kind: Token.Kind) -> Bool {
        guard check(kind) else { return false }
        advance()
        return true
    }

    /// Consumes the token here when it is the name `word`.
    mutating func matchWord(_ word: Keyword) -> Bool {
        guard checkWord(word) else { return false }
        advance()
        return true
    }

    @discardableResult
    mutating func consume(_ kind: Token.Kind, after context: @autoclosure () -> String, hint: @autoclosure () -> String? = nil) throws(SyntaxError) -> Token {
        if check(kind) { return advance() }
        throw error(.expectedToken(expected: kind.description, after: context(), found: describe(peek())), at: peek(), hint: hint())
    }

    @discardableResult
    mutating func consumeWord(_ word: Keyword, after context: @autoclosure () -> String, hint: @autoclosure () -> String? = nil) throws(SyntaxError) -> Token {
        let token = peek()
        if isWord(token, word) { return advance() }
        var hint = hint()
        if token.kind == .name, let match = closestMatch(to: text(token), in: [word.spelling]) { hint = didYouMean(match) }
        throw error(.expectedToken(expected: "`\(word.spelling)`", after: context(), found: describe(token)), at: token, hint: hint)
    }

    /// The `)` matching `open`.
    mutating func closing(_ open: Token) throws(SyntaxError) -> Token {
        if check(.rightParen) { return advance() }
        let location = file.location(of: open.range.start)
        throw error(.unclosedParen(openedAt: location, found: describe(peek())), at: peek(),
                    notes: [Diagnostic.Note(.parenOpenedHere, at: open.range)])
    }

    /// Whether no line break separates the two.
    func onSameLine(_ first: Token, _ second: Token) -> Bool {
        onSameLine(first.range, second.range)
    }

    func onSameLine(_ first: SourceRange, _ second: SourceRange) -> Bool {
        var index = max(0, first.end)
        let end = min(second.start, bytes.count)
        while index < end {
            if bytes[index] == UInt8(ascii: "\n") { return false }
            index += 1
        }
        return true
    }

    /// Whether `token` cannot come right after a name that is an animation
    /// (`emit` as the name of a binding): a number, a colour, or a reserved
    /// word that is neither a modifier nor the start of the next item.
    func cannotFollowAName(_ token: Token) -> Bool {
        switch token.kind {
        case .number, .color: return true
        case .name: return isReserved(token) && !modifierWords.contains(text(token)) && !startsItem(token)
        default: return false
        }
    }

    /// Whether `token` is one of ``reservedWords`` (the lexer classified it).
    func isReserved(_ token: Token) -> Bool {
        token.word.isReserved
    }

    /// Whether `token` is the name `word` (only names carry a word).
    func isWord(_ token: Token, _ word: Keyword) -> Bool {
        token.word == word
    }

    /// (Inlined: called from a mutating method, it would get a copy of the whole parser, measured.)
    @inline(__always)
    func text(_ token: Token) -> String {
        memo.text(token.range, in: file)
    }

    func startsItem(_ token: Token) -> Bool {
        isWord(token, .let) || isWord(token, .view)
    }

    /// A target: a name that is not reserved, or `all`.
    func startsTarget(_ token: Token) -> Bool {
        token.kind == .name && (isWord(token, .all) || !isReserved(token))
    }

    func startsNumber(_ token: Token) -> Bool {
        switch token.kind {
        case .number, .minus, .leftParen: return true
        case .name: return isWord(token, .pi) || isWord(token, .tau)
        case .rightParen, .comma, .dot, .equals, .semicolon, .star, .plus, .slash, .caret, .parallel, .percent, .color,
             .invalid, .eof:
            return false
        }
    }

    /// How a found token is named in a message.
    func describe(_ token: Token) -> DiagnosticKind.Found {
        switch token.kind {
        case .eof: return .endOfFile
        case .invalid: return .invalidCharacter
        case .name, .number, .color: return .text(text(token))
        case .leftParen, .rightParen, .comma, .dot, .equals, .semicolon, .star, .plus, .minus, .slash, .caret, .parallel,
             .percent:
            return .punctuation(token.kind)
        }
    }
}

/// What `+ - * /` of two numbers gives.
enum ArithmeticOutcome {
    case number(Number)
    case divisionByZero
    case notFinite
    /// A side was not finite already (and was reported then).
    case quietlyNotFinite
}

/// `left op right`, exactly while both sides are exact and nothing
/// overflows: the one arithmetic of numbers, for the parser's literals and
/// for the lowering's named values.
func combineNumbers(_ left: Number, _ op: ArithmeticOperator, _ right: Number, range: SourceRange) -> ArithmeticOutcome {
    let mentionsPi = left.mentionsPi || right.mentionsPi
    guard left.value.isFinite, right.value.isFinite else { return .quietlyNotFinite }
    if op == .divided, right.value == 0 || right.exact?.isZero == true { return .divisionByZero }
    var exact: Time?
    if let a = left.exact, let b = right.exact {
        switch op {
        case .plus: exact = try? a.adding(b)
        case .minus: exact = try? a.subtracting(b)
        case .times: exact = try? a.multiplied(by: b)
        case .divided: exact = try? a.divided(by: b)
        }
    }
    let value: Double
    if let exact, let rounded = correctlyRounded(exact) {
        value = rounded
    } else {
        switch op {
        case .plus: value = left.value + right.value
        case .minus: value = left.value - right.value
        case .times: value = left.value * right.value
        case .divided: value = left.value / right.value
        }
    }
    guard value.isFinite else { return .notFinite }
    return .number(Number(exact: exact, value: value, mentionsPi: mentionsPi, range: range))
}

/// `-operand`, exactly when it is exact.
func negatedNumber(_ operand: Number, range: SourceRange) -> Number {
    guard operand.value.isFinite else { return Number(exact: nil, value: .nan, range: range) }
    let exact = try? operand.exact?.negated()
    let value = exact.flatMap(correctlyRounded) ?? -operand.value
    return Number(exact: exact, value: value, mentionsPi: operand.mentionsPi, range: range)
}

/// The exact value as a `Double`, correctly rounded, when both parts fit in 53 bits.
private func correctlyRounded(_ value: Time) -> Double? {
    let limit: UInt64 = 1 << 53
    guard value.numerator.magnitude < limit, value.denominator.magnitude < limit else { return nil }
    return Double(value.numerator) / Double(value.denominator)
}

/// Sorts by position, keeping the order of diagnostics at the same position, and caps the count,
/// dropping the last warnings before any error (a hundred warnings must not hide the error after them).
private func inSourceOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    let sorted = diagnostics.enumerated().sorted { a, b in
        a.element.range.start != b.element.range.start ? a.element.range.start < b.element.range.start : a.offset < b.offset
    }.map(\.element)
    guard sorted.count > maxParseDiagnostics else { return sorted }
    let errors = sorted.lazy.filter { $0.severity == .error }.count
    var warningsLeft = max(0, maxParseDiagnostics - errors)
    let kept = sorted.filter { diagnostic in
        if diagnostic.severity == .error { return true }
        warningsLeft -= 1
        return warningsLeft >= 0
    }
    return Array(kept.prefix(maxParseDiagnostics))
}
