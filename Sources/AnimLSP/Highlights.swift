import AnimJSON
import AnimLang

/// `textDocument/documentHighlight`: every place the `let`, parameter or
/// view under the cursor is written, its declaration as a write (kind 3),
/// its uses as reads (kind 2).
func documentHighlights(_ document: OpenDocument, at offset: Int) -> JSON {
    let analysis = document.analysis
    guard let symbol = analysis.symbol(at: offset)?.symbol else { return .array([]) }
    let declarations = Set(analysis.names.occurrences.filter { $0.symbol == symbol && $0.isDeclaration }.map(\.range))
    return .array(analysis.names.references(of: symbol).map { range in
        .object([("range", document.range(range)), ("kind", .number(declarations.contains(range) ? 3 : 2))])
    })
}

/// `textDocument/foldingRange`: each `let` and `view` that spans lines, from its first line to its last.
func foldingRanges(_ document: OpenDocument) -> JSON {
    var ranges: [JSON] = []
    for item in document.analysis.program.items {
        let range: SourceRange
        switch item {
        case .binding(let binding): range = binding.range.union(binding.nameRange)
        case .view(let view): range = view.range
        }
        let first = document.position(of: range.start).line, last = document.position(of: range.end).line
        if last > first {
            ranges.append(.object([("startLine", .number(Double(first))), ("endLine", .number(Double(last))), ("kind", .string("region"))]))
        }
    }
    return .array(ranges)
}
