import AnimJSON
import AnimLang

/// The token types `textDocument/semanticTokens/full` reports, in the legend's
/// order (standard LSP types, so every theme colours them): verbs are
/// functions, views classes, easings enum members, `let`s variables.
let semanticTokenTypes = ["keyword", "function", "class", "property", "enumMember", "number", "variable", "parameter", "comment"]

/// Words that are keywords where the grammar expects them (besides ``reservedWords``).
private let contextualKeywords: Set<String> = [
    "once", "twice", "times", "forever", "backwards", "emit", "and", "views", "out", "a", "an", "high", "at", "origin",
    "s", "sec", "seconds", "ms", "degrees", "deg", "radians", "rad", "turns",
]

/// `textDocument/semanticTokens/full`: every name the language gives a role
/// (a `let`, a parameter, a view, a property, an easing, a verb, a keyword),
/// every number and every comment, as LSP's relative encoding.
func semanticTokens(_ document: OpenDocument) -> JSON {
    let analysis = document.analysis
    let file = document.file
    let tokens = tokenize(file).tokens
    // The names of views' initial values (`view card opacity 0`) are properties.
    var properties: Set<Int> = []
    for view in analysis.program.views {
        for initial in view.initials { properties.insert(initial.range.start) }
    }
    var data: [JSON] = []
    var previous = (line: 0, character: 0)
    func add(_ range: SourceRange, _ type: String) {
        guard let index = semanticTokenTypes.firstIndex(of: type) else { return }
        let start = document.position(of: range.start)
        let length = String(decoding: file.bytes[range.start..<range.end], as: UTF8.self).utf16.count
        let deltaLine = start.line - previous.line
        let deltaStart = deltaLine == 0 ? start.character - previous.character : start.character
        data += [deltaLine, deltaStart, length, index, 0].map { .number(Double($0)) }
        previous = start
    }
    var gapStart = 0
    for (position, token) in tokens.enumerated() {
        for comment in commentRanges(file.bytes, SourceRange(gapStart, token.range.start)) { add(comment, "comment") }
        gapStart = token.range.end
        switch token.kind {
        case .number: add(token.range, "number")
        case .name:
            let text = file.text(token.range)
            if let occurrence = analysis.names.occurrence(at: token.range.start), occurrence.range.start == token.range.start {
                switch occurrence.symbol {
                case .binding: add(token.range, "variable")
                case .parameter: add(token.range, "parameter")
                case .view: add(token.range, "class")
                }
            } else if position > 0, tokens[position - 1].kind == .dot || properties.contains(token.range.start) {
                add(token.range, "property")
            } else if TweenSyntax.Verb(rawValue: text) != nil {
                add(token.range, "function")
            } else if isEasingWord(text) {
                add(token.range, "enumMember")
            } else if reservedWords.contains(text) || contextualKeywords.contains(text) {
                add(token.range, "keyword")
            }
        default: break
        }
    }
    return .object([("data", .array(data))])
}

/// Where each comment of a gap between tokens is (a gap holds only blanks and comments).
private func commentRanges(_ bytes: [UInt8], _ gap: SourceRange) -> [SourceRange] {
    var ranges: [SourceRange] = []
    var index = gap.start
    while index < gap.end {
        if bytes[index] == UInt8(ascii: "#") || bytes[index] == UInt8(ascii: "/") {
            var end = index
            while end < gap.end, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
            ranges.append(SourceRange(index, end))
            index = end
        } else {
            index += 1
        }
    }
    return ranges
}
