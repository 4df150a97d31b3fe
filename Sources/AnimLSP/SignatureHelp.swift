import AnimJSON
import AnimLang

/// `textDocument/signatureHelp`: inside the parentheses of a call of a
/// parameterised `let` (`pop(card, |`), its parameters with their defaults
/// and the one the cursor is on. Read from the tokens before the cursor, so
/// it answers while the call is being typed (the file need not parse).
func signatureHelp(_ document: OpenDocument, at offset: Int) -> JSON {
    let file = document.file
    // The tokens of the cursor's line and the lines before it, back to the start of its item at most.
    let tokens = tokenize(SourceFile(name: file.name, bytes: Array(file.bytes[0..<min(offset, file.bytes.count)]))).tokens.dropLast()
    var depth = 0
    var commas = 0
    var index = tokens.endIndex - 1
    while index >= tokens.startIndex {
        let token = tokens[index]
        switch token.kind {
        case .rightParen: depth += 1
        case .leftParen:
            if depth == 0 {
                guard index > tokens.startIndex, tokens[index - 1].kind == .name else { return .null }
                let name = file.text(tokens[index - 1].range)
                guard let binding = document.analysis.program.bindings.first(where: { $0.name == name }),
                      let parameters = binding.parameters else { return .null }
                return signature(binding, parameters, active: commas, in: file)
            }
            depth -= 1
        case .comma where depth == 0: commas += 1
        case .name where depth == 0 && (file.text(token.range) == "let" || file.text(token.range) == "view"):
            return .null
        default: break
        }
        index -= 1
    }
    return .null
}

private func signature(_ binding: Binding, _ parameters: [Parameter], active: Int, in file: SourceFile) -> JSON {
    var label = binding.name + "("
    var offsets: [JSON] = []
    for (index, parameter) in parameters.enumerated() {
        if index > 0 { label += ", " }
        var written = parameter.name
        if let value = parameter.defaultValue { written += " = " + file.text(value.range) }
        let start = label.utf16.count
        label += written
        offsets.append(.object([("label", .array([.number(Double(start)), .number(Double(label.utf16.count))]))]))
    }
    label += ")"
    return .object([
        ("signatures", .array([.object([("label", .string(label)), ("parameters", .array(offsets))])])),
        ("activeSignature", .number(0)),
        ("activeParameter", .number(Double(min(active, max(parameters.count - 1, 0))))),
    ])
}
