import AnimJSON
import AnimLang

/// `textDocument/formatting` and `textDocument/rangeFormatting`: the edits
/// `animc fmt` makes (``formatSource(_:width:)``), one per gap between tokens
/// whose blanks change; for a range, those that touch it. A document with
/// syntax errors gets none (its diagnostics say why).
func formattingEdits(_ document: OpenDocument, in range: SourceRange? = nil) -> JSON {
    guard case .formatted(let formatted) = formatSource(document.file) else { return .array([]) }
    var edits: [JSON] = []
    for edit in formatted.edits {
        if let range, edit.range.end < range.start || edit.range.start > range.end { continue }
        edits.append(.object([("range", document.range(edit.range)), ("newText", .string(edit.text))]))
    }
    return .array(edits)
}
