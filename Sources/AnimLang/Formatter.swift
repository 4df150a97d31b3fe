/// `animc fmt` and the editor server's formatting: one canonical layout of a
/// `.anim` file, its comments kept.
///
/// ```swift
/// let file = SourceFile(name: "a.anim", text: "let a = grow c from 1 to 2   ;fade c to 0 # why\n")
/// if case .formatted(let result) = formatSource(file) {
///     result.text   // "let a = grow c from 1 to 2 ; fade c to 0 # why\n"
/// }
/// ```
///
/// The formatter never touches a token: it rewrites only the whitespace
/// between the tokens the lexer produces (the *gaps*), and the comments in
/// each gap are written back in order, each with its own text. So the
/// formatted file is the same token stream as the original, and the program
/// it parses to is the same — which ``formatSource(_:width:)`` checks before
/// answering (lexed and parsed again, compared token by token and item by
/// item); a layout that would change either is refused, never written.
///
/// The layout, decided from the token kinds and the parse tree's ranges:
/// - items start at column 0, one per line; a blank line between items is
///   kept (one at most), others are not added;
/// - one space around `;` `||` `*` `+` (the animation operators) `^` and `=`;
///   none inside parentheses, before `,` `)` `%`, around `.`; one after `,`;
///   elsewhere the original choice between no space and one space is kept
///   (`2*pi` and `2 * pi`, `300ms` and `300 ms` spell the same tokens);
/// - a chain of `;`/`*` or `||`/`+` is broken one operand per line, each
///   operator leading its line and the operands aligned, when the author broke
///   it anywhere or when it does not fit in `width` columns; a line break
///   after a `let`'s `=` is kept, its right-hand side then indented by 2;
/// - any other line break is kept, its line indented 2 past the clause it
///   continues; blank lines inside an item are dropped;
/// - consecutive one-line `view` declarations align what follows their names;
/// - a comment stays after the token it followed on its line, or on its own
///   line before the token it preceded, indented as that token's line;
///   comments ending consecutive lines start at one column;
/// - the file ends with one line break.
///
/// These rules read only what the formatted output keeps (tokens, comments,
/// which gaps hold a line break or a blank line), so formatting twice gives
/// what formatting once gave.
public func formatSource(_ file: SourceFile, width: Int = 100) -> FormatOutcome {
    let parsed = parse(file)
    let errors = parsed.diagnostics.filter { $0.severity == .error }
    guard errors.isEmpty else { return .refused(errors) }
    var layout = FormatLayout(file: file, program: parsed.program, width: width)
    let gaps = layout.gapTexts()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(file.bytes.count + file.bytes.count / 8)
    for (index, gap) in gaps.enumerated() {
        bytes += gap.utf8
        if index < layout.tokens.count { bytes += file.bytes[layout.tokens[index].range.start..<layout.tokens[index].range.end] }
    }
    // The check that nothing but layout changed: the same tokens, the same program.
    let formatted = SourceFile(name: file.name, bytes: bytes)
    let again = tokenize(formatted).tokens.dropLast()
    let sameTokens = again.count == layout.tokens.count && zip(again, layout.tokens).allSatisfy { new, old in
        new.kind == old.kind && formatted.bytes[new.range.start..<new.range.end] == file.bytes[old.range.start..<old.range.end]
    }
    let reparsed = parse(formatted)
    guard sameTokens, !reparsed.hasErrors, reparsed.program == parsed.program else {
        return .refused([Diagnostic(.formatWouldChangeMeaning, at: .none,
                                    hint: "the file is left as it is; please report this file")])
    }
    var edits: [FormatEdit] = []
    for (index, gap) in gaps.enumerated() {
        let range = layout.gapRange(index)
        if file.bytes[range.start..<range.end].elementsEqual(gap.utf8) { continue }
        edits.append(FormatEdit(range: range, text: gap))
    }
    return .formatted(FormattedSource(bytes: bytes, edits: edits))
}

/// What ``formatSource(_:width:)`` answers.
public enum FormatOutcome: Sendable {
    /// The file laid out (possibly unchanged).
    case formatted(FormattedSource)
    /// The file has syntax errors (these), or could not be laid out without a change of meaning: left as it is.
    case refused([Diagnostic])
}

/// A formatted file: its bytes, and the edits that make them from the original's.
public struct FormattedSource: Sendable {
    public let bytes: [UInt8]
    /// One edit per gap between tokens whose whitespace or comments' placement changes,
    /// in source order, none overlapping: applied to the original, they give ``bytes``.
    public let edits: [FormatEdit]
    public var text: String { String(decoding: bytes, as: UTF8.self) }
    /// Whether formatting changes the file.
    public var changesFile: Bool { !edits.isEmpty }
}

/// A replacement of the original's bytes in `range` by `text`.
public struct FormatEdit: Equatable, Sendable {
    public var range: SourceRange
    public var text: String
}

/// The comments of one gap between tokens, as the lexer skips them (a gap holds
/// only blanks and comments: anything else would be a token).
struct GapComment {
    /// The comment's text, without the line break that ends it (trailing blanks dropped).
    var text: Substring
    /// How many line breaks come before it in the gap (0: on the line of the token before).
    var breaksBefore: Int
}

/// The comments of `bytes[range]` (a gap) and the line breaks after the last of them.
func gapComments(_ bytes: [UInt8], _ range: SourceRange) -> (comments: [GapComment], breaksAfter: Int) {
    var comments: [GapComment] = []
    var breaks = 0
    var index = range.start
    while index < range.end {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n") {
            breaks += 1
            index += 1
        } else if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "/") {
            var end = index
            while end < range.end, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            var trimmed = end
            while trimmed > index, bytes[trimmed - 1] == UInt8(ascii: " ") || bytes[trimmed - 1] == UInt8(ascii: "\t")
                    || bytes[trimmed - 1] == UInt8(ascii: "\r") { trimmed -= 1 }
            let text = String(decoding: bytes[index..<trimmed], as: UTF8.self)
            comments.append(GapComment(text: Substring(text), breaksBefore: breaks))
            breaks = 0
            index = end
        } else {
            index += 1
        }
    }
    return (comments, breaks)
}

/// A chain of `;`/`*` or `||`/`+` in the parse tree, as tokens.
private struct Chain {
    var first: Int
    var last: Int
    /// The operator tokens, in order.
    var operators: [Int]
    /// The last token of each operand.
    var operandEnds: [Int]
    /// The longest operator's length (`||` 2, `;` 1).
    var operatorWidth: Int
}

/// The whitespace of every gap of one file: see ``formatSource(_:width:)``.
struct FormatLayout {
    let file: SourceFile
    let tokens: [Token]
    let width: Int
    private var chains: [Chain] = []
    /// For each token: the chains starting at it (outermost first), the chain whose operator it is.
    private var chainsStarting = IndexMap<[Int]>(count: 0)
    private var operatorOf = IndexMap<Int>(count: 0)
    /// Tokens that are a `let`'s `=`.
    private var letEquals = IndexMap<Bool>(count: 0)
    /// For a view's name token: the column the token after it starts at.
    private var viewPadding = IndexMap<Int>(count: 0)
    /// The first token of each item.
    private var itemStarts = IndexMap<Bool>(count: 0)
    /// The last token of the item each item start begins.
    private var itemEnds = IndexMap<Int>(count: 0)
    /// Each token's column if the whole file were laid out on one line (for widths).
    private var flat: [Int] = []

    init(file: SourceFile, program: Program, width: Int) {
        self.file = file
        var tokens = tokenize(file).tokens
        tokens.removeLast()   // the end of file
        self.tokens = tokens
        self.width = width
        chainsStarting = IndexMap(count: tokens.count)
        operatorOf = IndexMap(count: tokens.count)
        viewPadding = IndexMap(count: tokens.count)
        itemEnds = IndexMap(count: tokens.count)
        letEquals = IndexMap(count: tokens.count)
        itemStarts = IndexMap(count: tokens.count)
        collect(program)
        flat.reserveCapacity(tokens.count + 1)
        var column = 0
        for index in tokens.indices {
            flat.append(column)
            column += length(index) + (index + 1 < tokens.count ? flatSpace(index + 1) : 0)
        }
    }

    // MARK: The tree's structure, as tokens

    /// The index of the first token starting at or after `offset`.
    private func tokenIndex(startingAtOrAfter offset: Int) -> Int {
        var low = 0, high = tokens.count
        while low < high {
            let mid = (low + high) / 2
            if tokens[mid].range.start < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of the last token ending at or before `offset`.
    private func tokenIndex(endingAtOrBefore offset: Int) -> Int {
        tokenIndex(startingAtOrAfter: offset) - 1
    }

    private mutating func collect(_ program: Program) {
        var starts: [Int] = []
        for index in tokens.indices where tokens[index].word == .let || tokens[index].word == .view {
            starts.append(index)
        }
        for start in starts { itemStarts[start] = true }
        for (position, start) in starts.enumerated() {
            var end = (position + 1 < starts.count ? starts[position + 1] : tokens.count) - 1
            if end > start, tokens[end].kind == .semicolon { end -= 1 }
            itemEnds[start] = end
        }
        var views: [(name: Int, start: Int, end: Int)] = []
        for item in program.items {
            switch item {
            case .binding(let binding):
                let valueStart = tokenIndex(startingAtOrAfter: binding.value.range.start)
                if valueStart > 0, valueStart < tokens.count, tokens[valueStart - 1].kind == .equals {
                    letEquals[valueStart - 1] = true
                }
                for parameter in binding.parameters ?? [] {
                    if let value = parameter.defaultValue { collect(value) }
                }
                collect(binding.value)
            case .view(let view):
                let name = tokenIndex(startingAtOrAfter: view.nameRange.start)
                if name > 0, name < tokens.count, let end = itemEnds[name - 1] { views.append((name, name - 1, end)) }
            }
        }
        alignViews(views)
    }

    /// Runs of consecutive one-line views: what follows each name starts at one column.
    private mutating func alignViews(_ views: [(name: Int, start: Int, end: Int)]) {
        var run: [(name: Int, start: Int, end: Int)] = []
        var padding = IndexMap<Int>(count: tokens.count)
        func close(_ run: [(name: Int, start: Int, end: Int)]) {
            guard run.count > 1 else { return }
            let longest = run.map { length($0.name) }.max() ?? 0
            for view in run where view.end > view.name { padding[view.name] = 5 + longest + 1 }
        }
        for view in views {
            let oneLine = (view.start..<view.end).allSatisfy { !gapHasBreak($0 + 1) }
            if let previous = run.last, oneLine, previous.end + 1 == view.start, joinsViews(gap: view.start) {
                run.append(view)
            } else {
                close(run)
                run = oneLine ? [view] : []
            }
        }
        close(run)
        viewPadding = padding
    }

    /// Whether the gap before token `index` is one line break, with at most a comment ending the line before.
    private func joinsViews(gap index: Int) -> Bool {
        let (comments, after) = gapComments(file.bytes, gapRange(index))
        if comments.isEmpty { return after == 1 }
        return comments.count == 1 && comments[0].breaksBefore == 0 && after == 1
    }

    private mutating func collect(_ expr: Expr) {
        if case .parallel(let operands) = expr.kind { addChain(operands) }
        if case .sequence(let operands) = expr.kind { addChain(operands) }
        for subexpression in expr.subexpressions { collect(subexpression) }
    }

    private mutating func addChain(_ operands: [Expr]) {
        guard let firstOperand = operands.first, let lastOperand = operands.last else { return }
        var operators: [Int] = []
        var ends: [Int] = []
        for (left, right) in zip(operands, operands.dropFirst()) {
            ends.append(tokenIndex(endingAtOrBefore: left.range.end))
            var index = tokenIndex(startingAtOrAfter: left.range.end)
            while index < tokens.count, tokens[index].range.start < right.range.start {
                switch tokens[index].kind {
                case .semicolon, .star, .parallel, .plus: operators.append(index)
                default: break
                }
                index += 1
            }
        }
        ends.append(tokenIndex(endingAtOrBefore: lastOperand.range.end))
        // One operator between each two operands, or the ranges are not what this reads: no chain.
        guard operators.count == operands.count - 1 else { return }
        let chain = Chain(first: tokenIndex(startingAtOrAfter: firstOperand.range.start), last: ends[ends.count - 1],
                          operators: operators, operandEnds: ends,
                          operatorWidth: operators.map { length($0) }.max() ?? 1)
        chains.append(chain)
        chainsStarting[chain.first, default: []].append(chains.count - 1)
        for index in operators { operatorOf[index] = chains.count - 1 }
    }

    // MARK: Spacing on one line

    private func length(_ index: Int) -> Int {
        tokens[index].range.end - tokens[index].range.start
    }

    /// The range of the gap before token `index` (`tokens.count`: the gap after the last token).
    func gapRange(_ index: Int) -> SourceRange {
        let start = index > 0 ? tokens[index - 1].range.end : 0
        let end = index < tokens.count ? tokens[index].range.start : file.bytes.count
        return SourceRange(start, end)
    }

    private func gapHasBreak(_ index: Int) -> Bool {
        let range = gapRange(index)
        return file.bytes[range.start..<range.end].contains(UInt8(ascii: "\n"))
    }

    /// Spaces between token `index - 1` and token `index` on one line (0 or 1).
    private func flatSpace(_ index: Int) -> Int {
        let before = tokens[index - 1], after = tokens[index]
        if operatorOf[index] != nil || operatorOf[index - 1] != nil { return 1 }
        switch after.kind {
        case .rightParen, .comma, .dot, .percent: return 0
        case .semicolon: return 0   // a `;` that is no operator ends an item
        case .parallel, .caret, .equals: return 1
        default: break
        }
        switch before.kind {
        case .leftParen, .dot: return 0
        case .comma, .parallel, .caret, .equals, .semicolon: return 1
        default: break
        }
        // Otherwise as written: adjacent tokens stay adjacent (`300ms`, `2*pi`, `-1`, `f(x)`).
        return before.range.end == after.range.start ? 0 : 1
    }

    // MARK: Laying out

    /// The text of every gap: before each token, then after the last.
    mutating func gapTexts() -> [String] {
        var gaps: [String] = []
        gaps.reserveCapacity(tokens.count + 1)
        var column = 0
        /// Where continuation lines of the clause being written start (popped past its last token).
        var clauses: [(last: Int, column: Int)] = []
        var broken: [Bool] = Array(repeating: false, count: chains.count)
        /// For each broken chain: the column its operands start at.
        var operandColumn = IndexMap<Int>(count: chains.count)
        var itemEnd = -1
        var emitted = false
        /// Line breaks written so far, and each comment that ends a line of code: its gap, line and code's width.
        var line = 0
        var trailing: [(gap: Int, line: Int, column: Int)] = []

        for index in 0...tokens.count {
            while let top = clauses.last, top.last < index { clauses.removeLast() }
            let range = gapRange(index)
            let (comments, breaksAfter) = gapComments(file.bytes, range)
            let hasBreak = file.bytes[range.start..<range.end].contains(UInt8(ascii: "\n"))
            let continuation = (clauses.last?.column ?? 0) + 2

            // The plan for this gap: a line break and the indentation after it, or spaces.
            var breakTo: Int?          // the column after a line break, when the gap breaks the line
            var blank = false          // a blank line too
            var spaces = 0
            var fallback = continuation   // the column after a comment, when the gap does not break
            if index == tokens.count {
                breakTo = nil
            } else if index == 0 {
                breakTo = 0
            } else if itemStarts[index] == true {
                breakTo = 0
                blank = comments.isEmpty && breaksAfter >= 2
                clauses.removeAll()
            } else if let chainIndex = operatorOf[index], broken[chainIndex] {
                breakTo = max(0, (operandColumn[chainIndex] ?? 0) - length(index) - 1)
            } else if let chainIndex = operatorOf[index - 1], broken[chainIndex] {
                spaces = 1
                fallback = operandColumn[chainIndex] ?? continuation
            } else if letEquals[index - 1] == true, hasBreak {
                breakTo = 2
                clauses.append((itemEnd, 2))
            } else if let padded = viewPadding[index - 1] {
                spaces = max(1, padded - column)
            } else if hasBreak {
                breakTo = continuation
            } else {
                spaces = flatSpace(index)
            }
            if itemStarts[index] == true { itemEnd = itemEnds[index] ?? index }

            // Chains starting at this token: broken or not, and where their operands go.
            // Own-line comments go where the line's first token would without a chain's padding.
            let commentIndent = breakTo ?? fallback
            var startColumn = breakTo ?? (comments.isEmpty ? column + spaces : fallback)
            var atLineStart = breakTo != nil
            if index < tokens.count {
                for chainIndex in chainsStarting[index] ?? [] {
                    let chain = chains[chainIndex]
                    let authored = chain.operators.contains { gapHasBreak($0) || gapHasBreak($0 + 1) }
                    let flatWidth = flat[chain.last] + length(chain.last) - flat[chain.first]
                    let breaks = authored || startColumn + flatWidth > width
                    broken[chainIndex] = breaks
                    guard breaks else { continue }
                    if atLineStart {
                        startColumn += chain.operatorWidth + 1
                        if breakTo != nil { breakTo = startColumn }
                        atLineStart = false
                    }
                    operandColumn[chainIndex] = startColumn
                }
            }

            // Write the gap.
            var gap = ""
            var lineColumn = column
            for (position, comment) in comments.enumerated() {
                if position == 0, comment.breaksBefore == 0, index > 0 {
                    trailing.append((gaps.count, line, column))
                    gap += " "
                } else {
                    if emitted || !gap.isEmpty {
                        gap += comment.breaksBefore >= 2 ? "\n\n" : "\n"
                    }
                    gap += String(repeating: " ", count: index == tokens.count ? 0 : commentIndent)
                }
                gap += comment.text
                lineColumn = 0
            }
            if index == tokens.count {
                if emitted || !comments.isEmpty { gap += "\n" }
            } else if !comments.isEmpty {
                gap += breaksAfter >= 2 ? "\n\n" : "\n"
                let indent = breakTo ?? fallback
                gap += String(repeating: " ", count: indent)
                column = indent
            } else if let target = breakTo {
                if index > 0 {
                    gap += blank ? "\n\n" : "\n"
                    gap += String(repeating: " ", count: target)
                }
                column = target
            } else {
                gap += String(repeating: " ", count: spaces)
                column = lineColumn + spaces
            }
            gaps.append(gap)
            line += gap.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }

            guard index < tokens.count else { break }
            emitted = true
            // Clauses starting here: each operand of a broken chain continues from its own column.
            for chainIndex in chainsStarting[index] ?? [] where broken[chainIndex] {
                clauses.append((chains[chainIndex].operandEnds[0], column))
            }
            if index > 0, let chainIndex = operatorOf[index - 1], broken[chainIndex],
               let position = chains[chainIndex].operators.firstIndex(of: index - 1) {
                clauses.append((chains[chainIndex].operandEnds[position + 1], column))
            }
            column += length(index)
        }
        alignTrailingComments(trailing, in: &gaps)
        return gaps
    }

    /// Comments ending consecutive lines of code start at one column, one past the longest of those lines.
    private func alignTrailingComments(_ trailing: [(gap: Int, line: Int, column: Int)], in gaps: inout [String]) {
        var start = 0
        while start < trailing.count {
            var end = start + 1
            while end < trailing.count, trailing[end].line == trailing[end - 1].line + 1 { end += 1 }
            if end - start > 1 {
                let target = trailing[start..<end].map(\.column).max() ?? 0
                for comment in trailing[start..<end] {
                    gaps[comment.gap] = String(repeating: " ", count: target - comment.column) + gaps[comment.gap]
                }
            }
            start = end
        }
    }
}

/// A value for some of the indices `0..<count` (a file's tokens, a layout's
/// chains), kept in an array: the layout asks about every token, and an array
/// answers without hashing. An index outside the range has no value, and
/// setting one there does nothing, as the layout asks about `index - 1` at 0.
struct IndexMap<Value> {
    private var values: [Value?]

    init(count: Int) {
        values = Array(repeating: nil, count: max(0, count))
    }

    subscript(index: Int) -> Value? {
        get { values.indices.contains(index) ? values[index] : nil }
        set { if values.indices.contains(index) { values[index] = newValue } }
    }

    subscript(index: Int, default value: @autoclosure () -> Value) -> Value {
        get { self[index] ?? value() }
        set { self[index] = newValue }
    }
}
