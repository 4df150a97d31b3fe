import AnimJSON
import AnimLang

/// `textDocument/codeAction`: a quick fix for each diagnostic in the range
/// whose hint names a replacement (the diagnostic's ``Diagnostic/fixes``,
/// made where the hint is made), and two refactorings: "extract to `let`"
/// for a selection that is one sub-expression of a `let`, and "inline `let`"
/// on a use of a plain `let`.
func codeActions(_ document: OpenDocument, in range: SourceRange) -> JSON {
    var actions: [JSON] = []
    for diagnostic in document.analysis.diagnostics where touches(diagnostic.range, range) {
        for (index, fix) in diagnostic.fixes.enumerated() {
            actions.append(action(fix.title, kind: "quickfix", document, [(fix.range, fix.replacement)],
                                  diagnostic: lspDiagnostic(diagnostic, in: document), preferred: index == 0))
        }
    }
    if let extract = extractToLet(document, range) { actions.append(extract) }
    if let inline = inlineLet(document, at: range.start) { actions.append(inline) }
    return .array(actions)
}

/// Whether two ranges meet (an empty range at a diagnostic's end meets it: the cursor just after a word is on it).
private func touches(_ a: SourceRange, _ b: SourceRange) -> Bool {
    a.start <= b.end && b.start <= a.end
}

private func action(_ title: String, kind: String, _ document: OpenDocument, _ edits: [(SourceRange, String)],
                    diagnostic: JSON? = nil, preferred: Bool = false) -> JSON {
    let changes = JSON.array(edits.map { .object([("range", document.range($0.0)), ("newText", .string($0.1))]) })
    var members: [(String, JSON)] = [("title", .string(title)), ("kind", .string(kind))]
    if let diagnostic { members.append(("diagnostics", .array([diagnostic]))) }
    if preferred { members.append(("isPreferred", .bool(true))) }
    members.append(("edit", .object([("changes", .object([(document.uri, changes)]))])))
    return .object(members)
}


/// "Extract to `let`": the selection (blanks and one pair of parentheses
/// around it aside) is an animation node of a `let`'s body that uses none of
/// its parameters; it becomes `let extracted = …` before that `let`, and
/// the selection its name.
private func extractToLet(_ document: OpenDocument, _ selection: SourceRange) -> JSON? {
    let analysis = document.analysis
    guard selection.end > selection.start, !analysis.diagnostics.contains(where: { $0.severity == .error }) else { return nil }
    let bytes = document.file.bytes
    var range = selection
    func trim() {
        while range.start < range.end, [32, 9, 10, 13].contains(bytes[range.start]) { range.start += 1 }
        while range.end > range.start, [32, 9, 10, 13].contains(bytes[range.end - 1]) { range.end -= 1 }
    }
    trim()
    guard let binding = analysis.enclosingBinding(at: range.start), range.end <= binding.range.end,
          range.start >= binding.value.range.start else { return nil }
    // The node as selected, or inside the one pair of parentheses selected with it (a
    // parenthesised node's range holds its parentheses, so with them around the selection too).
    let outer = range
    if range.end - range.start >= 2, bytes[range.start] == UInt8(ascii: "("), bytes[range.end - 1] == UInt8(ascii: ")") {
        range = SourceRange(range.start + 1, range.end - 1)
        trim()
    }
    let wrapped = range.start > 0 && range.end < bytes.count && bytes[range.start - 1] == UInt8(ascii: "(")
        && bytes[range.end] == UInt8(ascii: ")") ? SourceRange(range.start - 1, range.end + 1) : range
    var found: Expr?
    forEachNode(in: binding.value) { node in
        if found == nil, node.range == outer || node.range == range || node.range == wrapped {
            if case .value = node.kind { return }
            found = node
        }
    }
    guard found != nil else { return nil }
    let node = Expr(.one, range: range)   // what is extracted: the selection, its own parentheses aside
    let parameters = Set(binding.parameters?.map(\.name) ?? [])
    if !parameters.isEmpty {
        let words = tokenize(SourceFile(name: "", bytes: Array(bytes[node.range.start..<node.range.end]))).tokens
        let text = SourceFile(name: "", bytes: Array(bytes[node.range.start..<node.range.end]))
        if words.contains(where: { $0.kind == .name && parameters.contains(text.text($0.range)) }) { return nil }
    }
    var name = "extracted"
    var number = 1
    while nameTaken(name, in: analysis) {
        number += 1
        name = "extracted\(number)"
    }
    let text = document.file.text(node.range)
    let lineStart = document.file.line(containing: binding.range.start).start
    return action("Extract to `let \(name)`", kind: "refactor.extract", document, [
        (SourceRange(lineStart, lineStart), "let \(name) = \(text)\n"),
        (selection, name),
    ])
}

/// Whether the file uses `name` for anything (a `let`, a view, a parameter, any word).
func nameTaken(_ name: String, in analysis: Analysis) -> Bool {
    if analysis.resolved.bindings[name] != nil || analysis.resolved.views.contains(name) { return true }
    let file = analysis.file
    return tokenize(file).tokens.contains { $0.kind == .name && file.text($0.range) == name }
}

/// "Inline `let`": on a use of a plain `let` (no parameters), the use
/// becomes the `let`'s right-hand side, in parentheses when it is an
/// animation of more than one token (so it binds as the name did).
private func inlineLet(_ document: OpenDocument, at offset: Int) -> JSON? {
    let analysis = document.analysis
    guard !analysis.diagnostics.contains(where: { $0.severity == .error }),
          let occurrence = analysis.names.occurrence(at: offset), !occurrence.isDeclaration,
          case .binding(let name) = occurrence.symbol, let binding = analysis.binding(named: name),
          binding.parameters == nil else { return nil }
    var text = document.file.text(binding.value.range)
    let single = tokenize(SourceFile(name: "", text: text)).tokens.count <= 2
    if case .value = binding.value.kind {} else if !single { text = "(" + text + ")" }
    return action("Inline `\(name)`", kind: "refactor.inline", document, [(occurrence.range, text)])
}
