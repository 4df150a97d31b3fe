import AnimJSON
import AnimLang

/// `textDocument/prepareRename` and `textDocument/rename` of a `let`, a
/// parameter or a view: every place ``NameIndex`` records it, renamed
/// together. A new name is refused when the language would refuse it where
/// the symbol is declared (``nameProblem(_:role:)``, the parser's rule: one
/// name, not reserved, for a `let` or a parameter not an easing's word), when
/// the file already uses it for anything (so no use is captured and no
/// meaning changes), or when the file has errors (its names are not all known).
extension LanguageServer {
    static func prepareRename(_ document: OpenDocument, at offset: Int) throws(RequestError) -> JSON {
        let (_, range, name) = try renamable(document, at: offset)
        return .object([("range", document.range(range)), ("placeholder", .string(name))])
    }

    static func rename(_ document: OpenDocument, at offset: Int, to newName: String) throws(RequestError) -> JSON {
        let (symbol, _, name) = try renamable(document, at: offset)
        let edits = try renameEdits(document.analysis, symbol, from: name, to: newName)
        let json = edits.map { JSON.object([("range", document.range($0)), ("newText", .string(newName))]) }
        return .object([("changes", .object([(document.uri, .array(json))]))])
    }

    private static func renamable(_ document: OpenDocument, at offset: Int) throws(RequestError) -> (NameIndex.Symbol, SourceRange, String) {
        let analysis = document.analysis
        guard let (symbol, range) = analysis.symbol(at: offset) else {
            throw RequestError(code: .requestFailed, message: "only a `let`, a parameter or a view can be renamed")
        }
        if analysis.diagnostics.contains(where: { $0.severity == .error }) {
            throw RequestError(code: .requestFailed, message: "the file has errors: fix them before renaming")
        }
        return (symbol, range, document.file.text(range))
    }
}

/// The ranges to rewrite to rename `symbol` (written `oldName`) to `newName`,
/// or why it cannot be.
func renameEdits(_ analysis: Analysis, _ symbol: NameIndex.Symbol, from oldName: String, to newName: String) throws(RequestError) -> [SourceRange] {
    let role: DiagnosticKind.NameRole
    switch symbol {
    case .binding: role = .binding
    case .parameter: role = .parameter
    case .view: role = .view
    }
    let ranges = analysis.names.references(of: symbol)
    if newName == oldName { return [] }
    if let problem = nameProblem(newName, role: role) {
        throw RequestError(code: .requestFailed, message: problem.message + (problem.hint.map { "; " + $0 } ?? ""))
    }
    if let taken = takenBy(newName, in: analysis) {
        throw RequestError(code: .requestFailed, message: "`\(newName)` is taken: \(taken)")
    }
    // The renamed file must read as the same program under the new name: no error, and the
    // symbol written in the same places (a use the new name would capture or lose shows here).
    var bytes = analysis.file.bytes
    for range in ranges.reversed() { bytes.replaceSubrange(range.start..<range.end, with: Array(newName.utf8)) }
    let renamed = Analysis(SourceFile(name: analysis.file.name, bytes: bytes))
    let newSymbol: NameIndex.Symbol
    switch symbol {
    case .binding: newSymbol = .binding(newName)
    case .parameter(let binding, _): newSymbol = .parameter(binding: binding == oldName ? newName : binding, name: newName)
    case .view: newSymbol = .view(newName)
    }
    guard !renamed.outcome.hasErrors, renamed.names.references(of: newSymbol).count == ranges.count,
          renamed.names.occurrences.count == analysis.names.occurrences.count else {
        throw RequestError(code: .requestFailed, message: "renaming to `\(newName)` would change what the file means")
    }
    return ranges
}

/// What already uses `name` in the file, in words (`nil` when nothing does).
private func takenBy(_ name: String, in analysis: Analysis) -> String? {
    if analysis.resolved.bindings[name] != nil { return "a `let` is named `\(name)`" }
    if analysis.resolved.views.contains(name) { return "a view is named `\(name)`" }
    for binding in analysis.program.bindings {
        if binding.parameters?.contains(where: { $0.name == name }) == true {
            return "a parameter of `\(binding.name)` is named `\(name)`"
        }
    }
    let file = analysis.file
    for token in tokenize(file).tokens where token.kind == .name && file.text(token.range) == name {
        return "the file already uses the word `\(name)` (line \(file.location(of: token.range.start).line))"
    }
    return nil
}
