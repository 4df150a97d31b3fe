/// Splits a `.anim` file into tokens.
///
/// ```swift
/// let file = SourceFile(name: "talk.anim", text: "let a = grow c from 1 to 2s")
/// let (tokens, diagnostics) = tokenize(file)
/// tokens.map { $0.text(in: file) }   // ["let", "a", "=", "grow", "c", "from", "1", "to", "2", "s", ""]
/// ```
///
/// The lexer works on the UTF-8 bytes of the file. A file that is not text (a
/// NUL byte or invalid UTF-8 anywhere) gets one error at its first bad byte
/// and no tokens: reading a binary file as a program only buries that error.
/// Otherwise the lexer never stops early: a bad
/// character is reported, turned into an ``Token/Kind-swift.enum/invalid``
/// token (which the parser skips without reporting again) and lexing goes on.
/// Two mistakes are repaired instead, so parsing continues normally: a lone
/// `|` becomes `||`, and `.5` becomes the number `0.5`. The token list always
/// ends with one ``Token/Kind-swift.enum/eof`` token.
///
/// Keywords are not token kinds: `let`, `from`, `pi`, … are names, and the
/// parser decides what each name means where it stands.
public func tokenize(_ file: SourceFile) -> (tokens: [Token], diagnostics: [Diagnostic]) {
    var lexer = Lexer(bytes: file.bytes)
    var tokens: [Token] = []
    while true {
        let token = lexer.next()
        tokens.append(token)
        if token.kind == .eof { break }
    }
    return (tokens, lexer.diagnostics)
}

/// Every NAME that a `let` token directly precedes (``namesAfterLet(in:)``):
/// as a set, and in the order written, so that the parser finds a name
/// bound by a `let` just before where it reads without hashing it.
///
/// Nearly every script names the `let` it just wrote (`let c5 = c4 ; …`).
/// The set's table holds every name of the file at a place its hash picks,
/// so in a long script each lookup is a read from memory, not from the
/// cache, and the lookups grow faster than the rest of the parse; the
/// names in order sit where the parser reads.
struct LetNames {
    /// Every name after a `let`.
    let all: Set<String>
    /// The name after each `let` token that has one, in the file's order (repeats kept).
    let inOrder: [String]

    /// How many distinct names.
    var count: Int { all.count }

    /// Whether a `let` binds `word`: first compared with the names after the
    /// `let` tokens numbered `index - 1` and `index - 2` in ``inOrder``
    /// (where they exist; any entry of it is in ``all``, so a match is an
    /// answer whatever `index` is), then looked up in ``all``.
    /// (Not inlined: in the parser's callers it made their other calls cost more than it saves.)
    @inline(never)
    func contains(_ word: String, near index: Int) -> Bool {
        if index >= 1, index <= inOrder.count {
            if inOrder[index - 1] == word { return true }
            if index >= 2, inOrder[index - 2] == word { return true }
        }
        return all.contains(word)
    }
}

/// Every NAME that a `let` token directly precedes, as ``tokenize(_:)`` reads the
/// file (what the parser needs before it starts), without lexing all of it: only from each line holding the bytes
/// `let` up to them (no token spans two lines, so a line start is a token
/// boundary). The scan only moves forward, so this reads each byte at most
/// twice, and meets the `let` tokens in order, each once.
func namesAfterLet(in file: SourceFile) -> LetNames {
    let bytes = file.bytes
    var names: Set<String> = []
    var inOrder: [String] = []
    var scan = Lexer(bytes: bytes, resumingAt: 0)
    var search = 0
    while let candidate = nextLet(in: bytes, from: search) {
        if candidate >= scan.index {
            // Skip to the start of the candidate's line, unless the scan is on that line already.
            var lineStart = candidate
            while lineStart > scan.index, bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
            scan = Lexer(bytes: bytes, resumingAt: lineStart)
        }
        // Every token up to the one covering the candidate, each `let` with the token after it.
        while true {
            var token = scan.next()
            while token.word == .let {
                let next = scan.next()
                if next.kind == .name {
                    let name = file.text(next.range)
                    inOrder.append(name)
                    names.insert(name)
                }
                token = next
            }
            if token.kind == .eof || token.range.end > candidate { break }
        }
        search = max(candidate + 1, scan.index)
    }
    return LetNames(all: names, inOrder: inOrder)
}

/// The first offset at or after `start` where the bytes `let` are.
private func nextLet(in bytes: [UInt8], from start: Int) -> Int? {
    bytes.withUnsafeBytes { raw in
        let count = raw.count
        var position = start
        // 32 bytes at a time while none is an `l`, then eight (every load ends at or before `count`;
        // `w ^ 0x6C…` has a zero byte where `w` has an `l`, and `(x - 0x01…) & ~x & 0x80…` finds one).
        while position &+ 32 <= count {
            let ls: UInt64 = 0x6C6C_6C6C_6C6C_6C6C, ones: UInt64 = 0x0101_0101_0101_0101
            let a = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) ^ ls
            let b = raw.loadUnaligned(fromByteOffset: position &+ 8, as: UInt64.self) ^ ls
            let c = raw.loadUnaligned(fromByteOffset: position &+ 16, as: UInt64.self) ^ ls
            let d = raw.loadUnaligned(fromByteOffset: position &+ 24, as: UInt64.self) ^ ls
            let found = ((a &- ones) & ~a) | ((b &- ones) & ~b) | ((c &- ones) & ~c) | ((d &- ones) & ~d)
            if found & 0x8080_8080_8080_8080 != 0 { break }
            position &+= 32
        }
        while position + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) ^ 0x6C6C_6C6C_6C6C_6C6C
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            position += 8
        }
        while position + 3 <= count {
            if raw[position] == UInt8(ascii: "l"), raw[position + 1] == UInt8(ascii: "e"), raw[position + 2] == UInt8(ascii: "t") {
                return position
            }
            position += 1
            // Past the word with an `l` that was no `let`: eight at a time again.
            while position & 7 == 0, position + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) ^ 0x6C6C_6C6C_6C6C_6C6C
                if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                position += 8
            }
        }
        return nil
    }
}

/// One token: its kind and the byte range it covers.
public struct Token: Equatable, Sendable {
    public enum Kind: Equatable, Sendable, CustomStringConvertible {
        /// An ASCII name: a letter or `_`, then letters, digits, `_` and inner hyphens before a letter.
        case name
        /// A decimal literal: `2`, `0.25`, `1e-3`.
        case number
        case leftParen, rightParen, comma, dot, equals, semicolon
        case star, plus, minus, slash, caret, percent
        /// A hex colour: `#` and 3, 4, 6 or 8 hex digits, not followed by a name character.
        case color
        /// `||`.
        case parallel
        /// Characters the lexer already reported.
        case invalid
        /// The end of the file.
        case eof

        /// How the token kind is spelled in messages.
        public var description: String {
            switch self {
            case .name: return "name"
            case .number: return "number"
            case .leftParen: return "`(`"
            case .rightParen: return "`)`"
            case .comma: return "`,`"
            case .dot: return "`.`"
            case .equals: return "`=`"
            case .semicolon: return "`;`"
            case .star: return "`*`"
            case .plus: return "`+`"
            case .minus: return "`-`"
            case .slash: return "`/`"
            case .caret: return "`^`"
            case .percent: return "`%`"
            case .color: return "colour"
            case .parallel: return "`||`"
            case .invalid: return "invalid character"
            case .eof: return "end of file"
            }
        }
    }

    public var kind: Kind
    /// The word a name spells, when the parser looks for it (classified once
    /// here, so the parser compares small integers, not strings). Declared
    /// before `range`, so it fits in the padding after `kind`: 24 bytes a token.
    var word: Keyword
    public var range: SourceRange

    public init(_ kind: Kind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
        word = .none
    }

    init(name range: SourceRange, word: Keyword) {
        kind = .name
        self.range = range
        self.word = word
    }

    /// Equal kinds and ranges (``word`` follows from the text).
    public static func == (lhs: Token, rhs: Token) -> Bool {
        lhs.kind == rhs.kind && lhs.range == rhs.range
    }

    /// The source text of the token (empty for ``Kind-swift.enum/eof``).
    public func text(in file: SourceFile) -> String {
        file.text(range)
    }
}

/// The byte-level scanner behind ``tokenize(_:)``: a stream the parser
/// pulls tokens from (``next()``), so no file's worth of tokens is ever
/// held. Past the end it returns ``Token/Kind-swift.enum/eof`` again and again.
struct Lexer {
    let bytes: [UInt8]
    let keywords = KeywordTable.shared
    var index = 0
    var diagnostics: [Diagnostic] = []
    /// Start of the line being scanned.
    var lineStart = 0
    /// The line of the last quote reported: `"fadeIn v"` is one mistake, not two.
    var quoteReportedAt = -1
    /// The end of the last token other than the end of file (0 before the first).
    var lastEnd = 0
    /// Whether mistakes are reported (not when scanning again a part already reported).
    let reporting: Bool

    /// More than this many lexical errors only bury the first ones.
    static let maxDiagnostics = 100

    /// A lexer of the whole file; a file that is not text gets its one error here, and no tokens.
    init(bytes: [UInt8]) {
        self.bytes = bytes
        reporting = true
        if reportNotText() { index = bytes.count }
    }

    /// A lexer of a file already found to be text, starting at `start`, which
    /// is the start of a token or of a line (no token spans two lines, so
    /// either gives the tokens the whole file's lexer gives from there). It reports nothing.
    init(bytes: [UInt8], resumingAt start: Int) {
        self.bytes = bytes
        reporting = false
        index = min(max(start, 0), bytes.count)
        lineStart = index
    }

    /// The next token (the end of file once there is no other).
    @inline(__always)
    mutating func next() -> Token {
        skipBlanks()
        // Names and numbers first: most tokens are one or the other.
        if index < bytes.count {
            let byte = bytes[index]
            if Lexer.isLetterByte(byte) || byte == UInt8(ascii: "_") { return name() }
            if byte &- UInt8(ascii: "0") < 10 { return number(start: index) }
            // Punctuation but `/` (`//`), which ``nextOther()`` reads, and `.` before a digit (`.5`).
            if byte == UInt8(ascii: "."), !isDigit(peek(1)) {
                index &+= 1   // (below `bytes.count`)
                return made(.dot, from: index &- 1)
            }
            if byte != UInt8(ascii: "."), byte != UInt8(ascii: "/"), let kind = Lexer.punctuation(byte) {
                index &+= 1   // (below `bytes.count`)
                return made(kind, from: index &- 1)
            }
        }
        return nextOther()
    }

    /// ``next()`` from anything but a name or a number (a comment, punctuation, …).
    @inline(never)
    mutating func nextOther() -> Token {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                lineStart = index
            case UInt8(ascii: "#"):
                if let length = hexColorLength() {
                    index += 1 + length
                    return made(.color, from: index - 1 - length)
                }
                skipComment()
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
                skipComment()
            case _ where isLetter(byte) || byte == UInt8(ascii: "_"):
                return name()
            case _ where isDigit(byte):
                return number(start: index)
            case UInt8(ascii: ".") where isDigit(peek(1)):
                return leadingDecimalPoint()
            case UInt8(ascii: "|"):
                return pipe()
            default:
                if let kind = Lexer.punctuation(byte) {
                    index += 1
                    return made(kind, from: index - 1)
                }
                return unexpected()
            }
        }
        return Token(.eof, SourceRange(bytes.count, bytes.count))
    }

    /// Skips spaces, tabs and line breaks (most of what is between tokens) in one tight loop.
    @inline(__always)
    mutating func skipBlanks() {
        var position = index
        var line = lineStart
        bytes.withUnsafeBufferPointer { buffer in
            // Every read is at `position < count`: in bounds.
            while position < buffer.count {
                let byte = buffer[position]
                if byte == UInt8(ascii: " ") {   // (the most common blank, alone first)
                    position &+= 1
                } else if byte > UInt8(ascii: " ") {   // (every token starts above the blanks: one test)
                    break
                } else if byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                    position &+= 1
                } else if byte == UInt8(ascii: "\n") {
                    position &+= 1
                    line = position
                } else {
                    break
                }
            }
        }
        index = position
        lineStart = line
    }

    // MARK: Tokens

    @inline(__always)
    mutating func name() -> Token {
        let start = index
        let keywords = self.keywords
        let (end, word) = bytes.withUnsafeBufferPointer { buffer in
            // Every read is at `end < count` or `end + 1 < count`: in bounds (and no sum overflows).
            let count = buffer.count
            var end = start &+ 1
            while end < count {
                let byte = buffer[end]
                if Lexer.isNameByte(byte) {
                    end &+= 1
                } else if byte == UInt8(ascii: "-"), end &+ 1 < count, Lexer.isLetterByte(buffer[end &+ 1]) {
                    end &+= 2
                } else {
                    break
                }
            }
            return (end, keywords.classify(buffer, start, end))
        }
        index = end
        lastEnd = end
        return Token(name: SourceRange(start, end), word: word)
    }

    /// A letter, a digit or `_`.
    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        // (A lower-case letter first, alone: most bytes of most names are.)
        byte &- UInt8(ascii: "a") < 26
            || (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: "_")
    }

    @inline(__always)
    static func isLetterByte(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    /// `digits [. digits] [(e|E) [+-] digits]`; the scan starts at a digit or at the `.` of `.5`
    /// (`start`; `index` is at a digit).
    @inline(__always)
    mutating func number(start: Int) -> Token {
        let from = index
        let end = bytes.withUnsafeBufferPointer { buffer in
            // Every read is at an offset checked below `count` just before: in bounds (and no sum
            // overflows, each offset being below `count`).
            let count = buffer.count
            var end = from
            while end < count, buffer[end] &- UInt8(ascii: "0") < 10 { end &+= 1 }
            if end &+ 1 < count, buffer[end] == UInt8(ascii: "."), buffer[end &+ 1] &- UInt8(ascii: "0") < 10 {
                end &+= 2
                while end < count, buffer[end] &- UInt8(ascii: "0") < 10 { end &+= 1 }
            }
            if end < count, buffer[end] | 0x20 == UInt8(ascii: "e") {   // (`e` or `E`: no other byte)
                if end &+ 1 < count, buffer[end &+ 1] &- UInt8(ascii: "0") < 10 {
                    end &+= 1
                } else if end &+ 2 < count, buffer[end &+ 1] == UInt8(ascii: "+") || buffer[end &+ 1] == UInt8(ascii: "-"),
                          buffer[end &+ 2] &- UInt8(ascii: "0") < 10 {
                    end &+= 2
                }
                while end < count, buffer[end] &- UInt8(ascii: "0") < 10 { end &+= 1 }
            }
            return end
        }
        index = end
        lastEnd = end
        return Token(.number, SourceRange(start, end))
    }

    /// `.5`: reported, then read as the number it plainly means.
    mutating func leadingDecimalPoint() -> Token {
        let start = index
        var digitsEnd = index + 1
        while digitsEnd < bytes.count, isDigit(bytes[digitsEnd]) { digitsEnd += 1 }
        let digits = String(decoding: bytes[(start + 1)..<digitsEnd], as: UTF8.self)
        report(.leadingDecimalPoint, at: SourceRange(start, digitsEnd),
               hint: "write 0.\(digits.count > 12 ? String(digits.prefix(12)) + "…" : digits)",
               fix: .replacing(SourceRange(start, digitsEnd), with: "0." + digits))
        index += 1
        return number(start: start)
    }

    /// `||`, or a lone `|`, reported and read as `||`.
    mutating func pipe() -> Token {
        if peek(1) == UInt8(ascii: "|") {
            index += 2
            return made(.parallel, from: index - 2)
        }
        report(.lonePipe, at: SourceRange(index, index + 1), hint: didYouMean("||"), fix: .replacing(SourceRange(index, index + 1), with: "||"))
        index += 1
        return made(.parallel, from: index - 1)
    }

    /// Reports the first NUL byte or invalid UTF-8 sequence of the file, if
    /// there is one: then the file is not text, and nothing else is read.
    mutating func reportNotText() -> Bool {
        var position = 0
        while position < bytes.count {   // a plain loop: fast even in debug builds, for 10 MB inputs
            position = Lexer.plainASCIIRun(bytes, from: position)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            if byte == 0 {
                var end = position + 1
                while end < bytes.count, bytes[end] == 0 { end += 1 }
                report(.nulByte, at: SourceRange(position, end), hint: "is this a binary file? `.anim` files are UTF-8 text; nothing else in it was read")
                return true
            }
            if byte < 0x80 {
                position += 1
                continue
            }
            let length = validUTF8Length(at: position)
            if length == 0 {
                report(.invalidUTF8(byte), at: SourceRange(position, position + 1),
                       hint: "`.anim` files are UTF-8 text: save it as UTF-8; nothing else in it was read")
                return true
            }
            position += length
        }
        return false
    }

    /// Where the run of ASCII bytes other than NUL from `start` ends, or an
    /// earlier offset (read 8 at a time: most files are all such bytes).
    static func plainASCIIRun(_ bytes: [UInt8], from start: Int) -> Int {
        bytes.withUnsafeBytes { raw in
            var position = start
            let high: UInt64 = 0x8080_8080_8080_8080
            let ones: UInt64 = 0x0101_0101_0101_0101
            // 32 bytes at a time while all are plain (each load reads bytes below
            // `position + 32 <= count`: in bounds), then 8 at a time.
            while position &+ 32 <= raw.count {
                let a = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                let b = raw.loadUnaligned(fromByteOffset: position &+ 8, as: UInt64.self)
                let c = raw.loadUnaligned(fromByteOffset: position &+ 16, as: UInt64.self)
                let d = raw.loadUnaligned(fromByteOffset: position &+ 24, as: UInt64.self)
                // A byte ≥ 0x80 sets its high bit in `w`; a zero byte in `(w - 0x01…) & ~w`.
                let flags = (a | ((a &- ones) & ~a)) | (b | ((b &- ones) & ~b))
                    | (c | ((c &- ones) & ~c)) | (d | ((d &- ones) & ~d))
                if flags & high != 0 { break }
                position &+= 32
            }
            // Each load reads bytes `position ..< position + 8 <= count`: in bounds.
            while position + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                // A byte ≥ 0x80, or a zero byte (the classic test: `(w - 0x01…) & ~w & 0x80…`).
                if word & high != 0 || (word &- 0x0101_0101_0101_0101) & ~word & high != 0 { break }
                position += 8
            }
            return position
        }
    }

    /// A run of characters no token starts with, in a file that is text.
    /// Each run becomes one `invalid` token and at most one diagnostic.
    mutating func unexpected() -> Token {
        let start = index
        let first = classify(at: index)
        index += first.length
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n") || isStart(byte) { break }
            index += classify(at: index).length
        }
        let range = SourceRange(start, index)
        let token = made(.invalid, from: start)
        if Lexer.isQuote(first.scalar) {
            // The closing quote of a "string" is the same mistake as the opening one.
            if quoteReportedAt == lineStart { return token }
            quoteReportedAt = lineStart
        }
        if first.scalar == ":", let (hint, fix) = colonHint(at: start) {
            report(.unexpectedCharacter(first.scalar), at: range, hint: hint, fix: fix)
        } else {
            report(.unexpectedCharacter(first.scalar), at: range, hint: Lexer.hint(for: first.scalar))
        }
        return token
    }

    /// What a `:` right after a word most likely means, from the line it is on:
    /// an initial value in a view declaration (`view card opacity: 0`) or a
    /// spring parameter (`spring(stiffness: 200)`), both written with a space
    /// alone; `nil` elsewhere (the general hint for `:` fits). The fix removes
    /// the colon, leaving one space.
    func colonHint(at colon: Int) -> (String, Diagnostic.FixIt)? {
        var wordStart = colon
        while wordStart > lineStart, isNameByte(bytes[wordStart - 1]) { wordStart -= 1 }
        guard wordStart < colon else { return nil }
        let word = String(decoding: bytes[wordStart..<colon], as: UTF8.self)
        // The value after the colon, as written (up to the next blank, `,` or `)`).
        var valueStart = colon + 1
        while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") || bytes[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
        var valueEnd = valueStart
        while valueEnd < bytes.count, ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
                                          UInt8(ascii: ","), UInt8(ascii: ")")].contains(bytes[valueEnd]) { valueEnd += 1 }
        let value = valueEnd > valueStart ? String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self) : "VALUE"
        let spaced = colon + 1 < bytes.count && (bytes[colon + 1] == UInt8(ascii: " ") || bytes[colon + 1] == UInt8(ascii: "\t"))
        let fix = Diagnostic.FixIt(SourceRange(colon, colon + 1), spaced ? "" : " ", title: "Remove the `:`")
        if inViewDeclaration(before: colon) {
            return ("a view declaration has no colons: write `\(word) \(value)`", fix)
        }
        // Inside `spring(` on this line: the last `(` before the word, with no `)` after it.
        var open = wordStart
        while open > lineStart, bytes[open - 1] != UInt8(ascii: "("), bytes[open - 1] != UInt8(ascii: ")") { open -= 1 }
        if open > lineStart, bytes[open - 1] == UInt8(ascii: "("),
           String(decoding: bytes[max(lineStart, open - 7)..<(open - 1)], as: UTF8.self) == "spring" {
            return ("a spring parameter has no colon: write `\(word) \(value)`, as in `spring(stiffness 200, damping 12)`", fix)
        }
        return nil
    }

    /// Whether the item `offset` is in starts with `view`: the nearest line
    /// at or above it that starts with `view` or `let` (a declaration may go
    /// on over several lines) starts with `view`. Looks up 100 lines at most.
    func inViewDeclaration(before offset: Int) -> Bool {
        var end = offset
        for _ in 0..<100 {
            var start = end
            while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            var first = start
            while first < end, bytes[first] == UInt8(ascii: " ") || bytes[first] == UInt8(ascii: "\t") { first += 1 }
            let head = String(decoding: bytes[first..<min(first + 5, end)], as: UTF8.self)
            if head == "view " { return true }
            if head.hasPrefix("let ") || start == 0 { return false }
            end = start - 1
        }
        return false
    }

    /// Whether `byte` can be part of a name (a letter, a digit, `_` or `-`).
    func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// The number of hex digits of a colour at this `#`: 3, 4, 6 or 8 of them
    /// followed by something that cannot continue a name; `nil` when this `#`
    /// starts a comment.
    func hexColorLength() -> Int? {
        var length = 0
        while isHexDigit(peek(1 + length)) { length += 1 }
        guard length == 3 || length == 4 || length == 6 || length == 8 else { return nil }
        let next = peek(1 + length)
        if isLetter(next) || isDigit(next) || next == UInt8(ascii: "_") { return nil }
        if next == UInt8(ascii: "-"), isLetter(peek(2 + length)) { return nil }
        return length
    }

    func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// Comments run to the end of the line; they may hold any text.
    mutating func skipComment() {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
    }

    // MARK: Helpers

    /// The token of `kind` from `start` to here.
    mutating func made(_ kind: Token.Kind, from start: Int) -> Token {
        lastEnd = index
        return Token(kind, SourceRange(start, index))
    }

    mutating func report(_ kind: DiagnosticKind, at range: SourceRange, hint: String? = nil, fix: Diagnostic.FixIt? = nil) {
        if reporting, diagnostics.count < Lexer.maxDiagnostics { diagnostics.append(Diagnostic(kind, at: range, hint: hint).fixing(fix)) }
    }

    func peek(_ offset: Int) -> UInt8 {
        let position = index + offset
        return position < bytes.count ? bytes[position] : 0
    }

    func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Whether a token may start at this byte (so a run of bad bytes ends before it).
    func isStart(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "#")
            || byte == UInt8(ascii: "|") || byte == UInt8(ascii: ".") || Lexer.punctuation(byte) != nil
    }

    @inline(__always)
    static func punctuation(_ byte: UInt8) -> Token.Kind? {
        switch byte {
        case UInt8(ascii: "("): return .leftParen
        case UInt8(ascii: ")"): return .rightParen
        case UInt8(ascii: ","): return .comma
        case UInt8(ascii: "."): return .dot
        case UInt8(ascii: "="): return .equals
        case UInt8(ascii: ";"): return .semicolon
        case UInt8(ascii: "*"): return .star
        case UInt8(ascii: "+"): return .plus
        case UInt8(ascii: "-"): return .minus
        case UInt8(ascii: "/"): return .slash
        case UInt8(ascii: "^"): return .caret
        case UInt8(ascii: "%"): return .percent
        default: return nil
        }
    }

    /// The character at `position` (in a file that is text) and how many bytes it spans.
    func classify(at position: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let byte = bytes[position]
        if byte < 0x80 { return (Unicode.Scalar(byte), 1) }
        let length = validUTF8Length(at: position)
        guard length > 0 else { return ("\u{FFFD}", 1) }
        var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            value = value << 6 | (UInt32(bytes[position + offset]) & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The length of the well-formed UTF-8 sequence starting at `position`
    /// (a lead byte ≥ 0x80), or 0 when it is not well formed.
    func validUTF8Length(at position: Int) -> Int {
        let lead = bytes[position]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF   // bounds of the second byte
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard position + length <= bytes.count else { return 0 }
        let second = bytes[position + 1]
        guard second >= low, second <= high else { return 0 }
        for offset in 2..<max(2, length) where bytes[position + offset] & 0xC0 != 0x80 {
            return 0
        }
        return length
    }

    static func isQuote(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "“", "”", "‘", "’", "\"", "'", "`": return true
        default: return false
        }
    }

    static func hint(for scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "&": return "to play animations together, write `||`"
        case "×", "·", "∙": return "to multiply, write `*`"
        case "−", "–", "—": return "to subtract, write `-`"
        case "÷": return "to divide, write `/`"
        case "→": return "tweens are written `from A to B`"
        case "“", "”", "‘", "’", "\"", "'": return "`.anim` has no strings; names are written without quotes"
        case ":": return "a binding is written `let NAME = EXPR`"
        case "{", "}", "[", "]": return "to group animations, use `(` and `)`"
        default:
            if !scalar.isASCII, scalar.properties.isAlphabetic {
                return "names are ASCII: letters, digits, `_` and inner `-`"
            }
            return "the only punctuation is ( ) , . = ; * + - / ^ % ||"
        }
    }
}

/// The words the parser looks for. A name token carries its word (``Token/word``),
/// found once by the lexer; every other name is ``none``.
enum Keyword: UInt8, CaseIterable {
    case none
    // The reserved words (``reservedWords``) come first: see ``isReserved``.
    case `let`, view, from, to, with, `in`, zero, cancelled, one, empty, wait
    case reversed, looped, repeated, delayed, staggered, through, all, pi, tau, by
    // Words that mean something only where the grammar expects them.
    case shrink, grow, scale, rotate, fadeIn, fadeOut, fade, animate, color, move
    case forever, once, twice, times, backwards, emit, and, views, out, a, an, high, at, spring
    case s, sec, seconds, ms, degrees, deg, radians, rad, turns
    // Reserved too (docs/semantics.md §8), after the rest so the words above keep their values.
    case played, overlapping, each

    /// Whether it is one of ``reservedWords``. (`played` and `overlapping`, modifiers like `reversed`,
    /// are too: otherwise `fade played to 50%` could fade a view named `played`, and `fade overlapping
    /// by 0.1s` move a view named `overlapping`, where `fade` names a `let`; and `each`, or `with each`
    /// could not tell `each E` from an easing `let` named `each`.)
    var isReserved: Bool {
        (rawValue >= Keyword.let.rawValue && rawValue <= Keyword.by.rawValue) || rawValue >= Keyword.played.rawValue
    }

    /// Whether it is a tween's verb (``TweenSyntax/Verb``), which names no colour and no easing.
    var isVerb: Bool { rawValue >= Keyword.shrink.rawValue && rawValue <= Keyword.move.rawValue }

    /// How it is written (`fadeIn`, `let`).
    var spelling: String { Keyword.spellings[Int(rawValue)] }

    /// In case order (a test checks each against the case's name). Written out: deriving them
    /// with `"\($0)"` reflects on every case at run time, on every start-up.
    static let spellings: [String] = [
        "none",
        "let", "view", "from", "to", "with", "in", "zero", "cancelled", "one", "empty", "wait",
        "reversed", "looped", "repeated", "delayed", "staggered", "through", "all", "pi", "tau", "by",
        "shrink", "grow", "scale", "rotate", "fadeIn", "fadeOut", "fade", "animate", "color", "move",
        "forever", "once", "twice", "times", "backwards", "emit", "and", "views", "out", "a", "an", "high", "at", "spring",
        "s", "sec", "seconds", "ms", "degrees", "deg", "radians", "rad", "turns",
        "played", "overlapping", "each",
    ]

}

/// Open addressing on a name's bytes packed in two words (at most 9 bytes,
/// and the length): the lexer asks it once per name.
struct KeywordTable {
    struct Entry {
        var low: UInt64
        var high: UInt64
        var word: Keyword
    }

    static let shared = KeywordTable()

    /// The longest name packed whole (``pack(_:_:_:)``): longer names are no keyword.
    private static let maxLength = 15
    private static let size = 256
    private let entries: [Entry]

    private init() {
        var entries = Array(repeating: Entry(low: 0, high: 0, word: .none), count: KeywordTable.size)
        // By raw value, each spelling read in place: no array of the cases, none of each spelling's bytes.
        for raw in 1..<Keyword.spellings.count {
            guard let word = Keyword(rawValue: UInt8(raw)) else { break }
            var spelling = word.spelling
            let (low, high) = spelling.withUTF8 { KeywordTable.pack($0, 0, $0.count) }
            var slot = KeywordTable.hash(low, high)
            while entries[slot].word != .none { slot = (slot + 1) & (KeywordTable.size - 1) }
            entries[slot] = Entry(low: low, high: high, word: word)
        }
        self.entries = entries
    }

    /// The bytes `start..<end` (`start <= end <= bytes.count`) packed little-endian: the first
    /// eight in `low`, and in `high` the length (its low byte; names are shorter than 256 bytes
    /// where this is asked) and bytes 9 to 15 above it.
    @inline(__always)
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (UInt64, UInt64) {
        // (Wrapping arithmetic: `0 <= start <= end <= count`, so nothing overflows.)
        let length = end &- start
        if start &+ 8 <= bytes.count, let base = bytes.baseAddress {
            // One load of the 8 bytes from `start` (in bounds: `start + 8 <= count`), masked to the name's length.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
            let low = length >= 8 ? word : word & ((1 &<< UInt64(truncatingIfNeeded: 8 &* length)) &- 1)
            let high = length > 8 ? packTail(bytes, start, end) : UInt64(truncatingIfNeeded: length)
            return (low, high)
        }
        var low: UInt64 = 0
        var index = start
        let middle = min(end, start + 8)
        var shift: UInt64 = 0
        while index < middle {
            low |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        return (low, end - start > 8 ? packTail(bytes, start, end) : UInt64(end - start))
    }

    /// `high` of ``pack(_:_:_:)`` for a name longer than 8 bytes: its length and bytes 9 to 15.
    private static func packTail(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        var high = UInt64(truncatingIfNeeded: end - start) & 0xFF
        var index = start + 8
        var shift: UInt64 = 8
        while index < end, shift < 64 {
            high |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        return high
    }

    @inline(__always)
    private static func hash(_ low: UInt64, _ high: UInt64) -> Int {
        Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    /// The word `bytes[start..<end]` spells (`start < end <= bytes.count`).
    @inline(__always)
    func classify(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Keyword {
        guard end - start <= KeywordTable.maxLength else { return .none }
        let (low, high) = KeywordTable.pack(bytes, start, end)
        var slot = KeywordTable.hash(low, high)
        return entries.withUnsafeBufferPointer { table in
            // Every slot is in `0..<size` (a hash is 8 bits, a step wraps), and the table holds `size`
            // entries: in bounds. The table is at most a third full, so an empty slot ends every probe.
            while true {
                let entry = table[slot]
                if entry.word == .none { return .none }
                if entry.low == low, entry.high == high { return entry.word }
                slot = (slot &+ 1) & (KeywordTable.size - 1)
            }
        }
    }
}

/// The names whose `let` binds a number or a duration (`let gap = 80ms`,
/// `let lift = 12`, `let twice = gap * 2`), as far as the first tokens of
/// its right-hand side tell: a number, a `-`, `pi`, `tau`, a `(` before one
/// of those, or a name that is itself such a `let`. The parser asks only
/// where `*` or `+` in a clause is followed by a name (docs/semantics.md §8.4: the
/// kinds decide whether it is arithmetic or a sequence), so it is read once,
/// lazily, and never on the common path.
func quantityLets(in file: SourceFile) -> Set<String> {
    var lexer = Lexer(bytes: file.bytes)
    var tokens: [Token] = []
    while true {
        let token = lexer.next()
        tokens.append(token)
        if token.kind == .eof { break }
    }
    func startsQuantity(_ token: Token) -> Bool {
        switch token.kind {
        case .number, .minus: return true
        case .name: return token.word == .pi || token.word == .tau
        case .leftParen, .rightParen, .comma, .dot, .equals, .semicolon, .star, .plus, .slash, .caret, .parallel, .percent, .color,
             .invalid, .eof:
            return false
        }
    }
    var found: Set<String> = []
    var aliases: [(name: String, of: String)] = []
    var index = 0
    while index + 3 < tokens.count {
        defer { index += 1 }
        guard tokens[index].word == .let, tokens[index + 1].kind == .name, tokens[index + 2].kind == .equals else { continue }
        let name = file.text(tokens[index + 1].range)
        let first = tokens[index + 3]
        // (After `(`s, the token inside decides, a name as a name would: `let beat = ((gap + 50ms) * 3)`.)
        var inside = index + 3
        while tokens[inside].kind == .leftParen, inside + 1 < tokens.count { inside += 1 }
        let lead = tokens[inside]
        if startsQuantity(first) || startsQuantity(lead) {
            found.insert(name)
        } else if lead.kind == .name, lead.word != .let, lead.word != .view {
            aliases.append((name, file.text(lead.range)))
        }
    }
    // A name bound to such a name is one too (`let b = a * 2`), to a fixed point.
    var changed = true
    while changed {
        changed = false
        for alias in aliases where !found.contains(alias.name) && found.contains(alias.of) {
            found.insert(alias.name)
            changed = true
        }
    }
    return found
}
