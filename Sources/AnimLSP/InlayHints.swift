import AnimJSON
import AnimLang

/// What inlay hints the client asked for (`initializationOptions.inlayHints`:
/// `letDurations`, `callDurations`, both on unless set to `false`).
struct InlayHintOptions {
    var letDurations = true
    var callDurations = true

    init(_ options: JSON?) {
        if case .bool(let value)? = options?["inlayHints"]?["letDurations"] { letDurations = value }
        if case .bool(let value)? = options?["inlayHints"]?["callDurations"] { callDurations = value }
    }
}

/// `textDocument/inlayHint`: after each `let`'s name (and parameters) in the
/// range, its duration as `animc timeline` writes it (`⟨1.2s⟩`); after each
/// call of a parameterised `let` whose arguments fix it, the call's duration.
func inlayHints(_ document: OpenDocument, in range: SourceRange, options: InlayHintOptions) -> JSON {
    let analysis = document.analysis
    var hints: [JSON] = []
    func hint(at offset: Int, _ label: String) {
        hints.append(.object([("position", document.position(document.position(of: offset))), ("label", .string(label)),
                              ("kind", .number(1)), ("paddingLeft", .bool(true))]))
    }
    let bindings = analysis.program.bindings.filter { $0.range.end >= range.start && $0.range.start <= range.end }
    // The calls outside parameterised `let`s (inside one, a call's duration may depend on the parameters).
    var calls: [(text: String, end: Int)] = []
    if options.callDurations {
        for binding in bindings where binding.parameters == nil {
            forEachCall(in: binding.value) { _, node in
                if node.range.start >= range.start, node.range.end <= range.end {
                    calls.append((document.file.text(node.range), node.range.end))
                }
            }
        }
    }
    let callDurations = calls.isEmpty ? [:] : analysis.callDurationTexts
    var next = 0
    for binding in bindings {
        if options.letDurations, binding.parameters == nil, let text = analysis.durationText(of: binding.name) {
            hint(at: binding.nameRange.end, "⟨\(text)⟩")
        }
        while next < calls.count, calls[next].end <= binding.range.end {
            if let text = callDurations[calls[next].text] { hint(at: calls[next].end, "⟨\(text)⟩") }
            next += 1
        }
    }
    return .array(hints)
}

/// Every call node of `expr` (`NAME(…)`), with its callee.
func forEachCall(in expr: Expr, _ body: (String, Expr) -> Void) {
    forEachNode(in: expr) { node in
        if case .call(let callee, _) = node.kind { body(callee, node) }
    }
}
