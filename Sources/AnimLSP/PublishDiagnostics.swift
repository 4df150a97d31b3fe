import AnimJSON
import AnimLang

/// `textDocument/publishDiagnostics`: every error and warning `animc check`
/// reports for the document, each with its range in UTF-16 positions, the
/// hint after the message, its notes as `relatedInformation`, its severity
/// and its id as `code` (source `animc`).
func publishDiagnostics(_ document: OpenDocument) -> JSON {
    let analysis = document.analysis
    let items = analysis.diagnostics.map { lspDiagnostic($0, in: document) }
    return LanguageServer.notification("textDocument/publishDiagnostics", .object([
        ("uri", .string(document.uri)), ("version", .number(Double(document.version))), ("diagnostics", .array(items)),
    ]))
}

/// One diagnostic as LSP's `Diagnostic`.
func lspDiagnostic(_ diagnostic: Diagnostic, in document: OpenDocument) -> JSON {
    let severity: Double
    switch diagnostic.severity {
    case .error: severity = 1
    case .warning: severity = 2
    case .note: severity = 3
    }
    var message = diagnostic.message
    if let hint = diagnostic.hint { message += "\nhint: " + hint }
    var members: [(String, JSON)] = [
        ("range", document.range(diagnostic.range)),
        ("severity", .number(severity)),
        ("code", .string(diagnostic.id)),
        ("source", .string("animc")),
        ("message", .string(message)),
    ]
    if !diagnostic.notes.isEmpty {
        members.append(("relatedInformation", .array(diagnostic.notes.map { note in
            .object([("location", .object([("uri", .string(document.uri)), ("range", document.range(note.range))])),
                     ("message", .string(note.message))])
        })))
    }
    return .object(members)
}
