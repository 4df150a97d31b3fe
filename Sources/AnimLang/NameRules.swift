/// Whether `name` is an easing's word: every bare easing name
/// (``EasingNames/parameterizedCurves`` among them), each functional form and
/// each spring adjective, searched without hashing the name. A `let` or a
/// parameter may not take one (`with snappy` must keep meaning the easing):
/// the parser's check and the editor's rename both ask this.
public func isEasingWord(_ name: String) -> Bool {
    lookUp(name, in: EasingNames.bareNames) != nil || EasingNames.functionalForms.contains(name)
        || EasingNames.springAdjectives.contains { $0.word == name }
}

/// Why `name` cannot name a `let`, a parameter or a view (`role`), as the
/// parser would report it on `let NAME = …`; `nil` when it can. The same
/// rules as the parser's: one NAME token (the lexer's), not a reserved word,
/// and for a `let` or a parameter not an easing's word.
public func nameProblem(_ name: String, role: DiagnosticKind.NameRole) -> Diagnostic? {
    let file = SourceFile(name: "name", text: name)
    let (tokens, diagnostics) = tokenize(file)
    guard diagnostics.isEmpty, tokens.count == 2, tokens[0].kind == .name, tokens[0].range == SourceRange(0, file.bytes.count) else {
        return Diagnostic(.expectedName(after: "let", found: .text(name)), at: .none,
                          hint: "a name is ASCII letters, digits, `_` and inner `-`, starting with a letter or `_`")
    }
    if tokens[0].word.isReserved { return Diagnostic(.reservedName(name, role: role), at: .none) }
    if role == .binding || role == .parameter, isEasingWord(name) {
        return Diagnostic(.easingName(name, role: role), at: .none, hint: "`with \(name)` must keep meaning the easing")
    }
    return nil
}
