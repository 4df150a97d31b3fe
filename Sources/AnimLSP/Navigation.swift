import AnimJSON
import AnimLang

/// `textDocument/definition`: where the `let`, parameter or view under the
/// cursor is declared (a view only tweens name: the first that does).
func definition(_ document: OpenDocument, at offset: Int) -> JSON {
    let analysis = document.analysis
    guard let symbol = analysis.symbol(at: offset)?.symbol, let range = analysis.names.declaration(of: symbol) else { return .null }
    return location(document, range)
}

/// `textDocument/references`: every place the symbol under the cursor is written.
func references(_ document: OpenDocument, at offset: Int, includeDeclaration: Bool) -> JSON {
    let analysis = document.analysis
    guard let symbol = analysis.symbol(at: offset)?.symbol else { return .array([]) }
    return .array(analysis.names.references(of: symbol, includeDeclaration: includeDeclaration).map { location(document, $0) })
}

func location(_ document: OpenDocument, _ range: SourceRange) -> JSON {
    .object([("uri", .string(document.uri)), ("range", document.range(range))])
}

/// `textDocument/documentSymbol`: every `view` and
/// `let` in source order, a `let` with its kind and its duration as
/// `animc timeline` writes it as the detail.
func documentSymbols(_ document: OpenDocument) -> JSON {
    let analysis = document.analysis
    var symbols: [JSON] = []
    for item in analysis.program.items {
        let name: String, detail: String, kind: Double, range: SourceRange, selection: SourceRange
        switch item {
        case .view(let view):
            name = view.name
            detail = view.initials.map { "\($0.property) \(document.file.text($0.value.range))" }.joined(separator: ", ")
            kind = 5   // Class
            range = view.range
            selection = view.nameRange
        case .binding(let binding):
            name = binding.name
            let kindText = analysis.kind(of: binding)
            detail = analysis.durationText(of: binding.name).map { kindText + ", " + $0 } ?? kindText
            kind = binding.parameters != nil ? 12 : analysis.isValue(binding) || analysis.isEasing(binding) ? 14 : 13   // Function, Constant, Variable
            range = binding.range
            selection = binding.nameRange
        }
        guard !name.isEmpty else { continue }
        symbols.append(.object([
            ("name", .string(name)), ("detail", .string(detail)), ("kind", .number(kind)),
            ("range", document.range(range.union(selection))), ("selectionRange", document.range(selection)),
        ]))
    }
    return .array(symbols)
}
