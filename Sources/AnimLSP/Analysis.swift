import AnimJSON
import AnimLang
import Animations

/// What the language makes of one version of a document: the diagnostics
/// `animc check` reports, and, when first asked for, the names (where each
/// is declared and used) and every `let`'s term (its duration, its
/// properties).
public final class Analysis {
    public let file: SourceFile
    public let outcome: Outcome
    /// Every error and warning `animc check` prints for the file, in its order.
    public let diagnostics: [Diagnostic]

    init(_ file: SourceFile) {
        self.file = file
        outcome = run(file)
        var diagnostics = outcome.diagnostics
        // As `check` does: a scene it cannot sample is an error there too.
        if !outcome.hasErrors, let target = outcome.target {
            do {
                _ = try outcome.compiledScene()
            } catch {
                diagnostics.append(samplingError(error, binding: target))
            }
        }
        self.diagnostics = diagnostics
    }

    public var program: Program { outcome.program }
    public var resolved: ResolvedProgram { outcome.resolved }

    private var cachedNames: NameIndex?
    /// Where every `let`, parameter and view is declared and used.
    public var names: NameIndex {
        if let cachedNames { return cachedNames }
        let made = NameIndex(outcome.resolved)
        cachedNames = made
        return made
    }

    private var cachedTerms: [String: Term]?
    /// Each well-formed `let`'s term (the lowering's).
    public var terms: [String: Term] {
        if let cachedTerms { return cachedTerms }
        let made = lower(outcome.resolved).terms
        cachedTerms = made
        return made
    }

    /// The `let`, parameter or view named at `offset`, and where: as the
    /// language resolved it, or, in a `let` that does not parse yet (one
    /// being typed), the name under the cursor when the file binds it or
    /// names a view by it.
    func symbol(at offset: Int) -> (symbol: NameIndex.Symbol, range: SourceRange)? {
        if let occurrence = names.occurrence(at: offset) { return (occurrence.symbol, occurrence.range) }
        guard let (name, range) = word(at: offset, in: file.bytes) else { return nil }
        if outcome.resolved.bindings[name] != nil { return (.binding(name), range) }
        if outcome.resolved.views.contains(name) { return (.view(name), range) }
        return nil
    }

    /// Computes the names and terms now (they are otherwise computed when first asked for).
    func prepare() {
        _ = names
        _ = terms
    }

    /// The binding declared by the name at `range` (the first of that name).
    func binding(named name: String) -> Binding? { outcome.resolved.bindings[name] }

    /// The `let` whose text contains `offset` (its whole `let … = …`).
    func enclosingBinding(at offset: Int) -> Binding? {
        let bindings = program.bindings
        var low = 0, high = bindings.count
        while low < high {
            let mid = (low + high) / 2
            if bindings[mid].range.start <= offset { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let candidate = bindings[low - 1]
        return offset <= candidate.range.end ? candidate : nil
    }

    /// A `let`'s duration as `animc timeline` writes it (`2.1s`, `1/3s`);
    /// `nil` for one that is not an animation or did not evaluate.
    func durationText(of name: String) -> String? {
        guard let term = terms[name] else { return nil }
        if term.isInfinite { return "forever" }
        guard let duration = term.duration else { return "cancelled (zero)" }
        return "\(duration)s"
    }

    /// The durations of the file's calls (``callDurationTexts(_:)``), by the call's text.
    private var cachedCallDurations: [String: String]?

    /// The duration of each call of a parameterised `let` written in a plain `let` (as
    /// ``durationText(of:)`` writes it), by the call's text: each made a `let` of its own
    /// after the file's, all run together once a version. A call that does not evaluate has none.
    var callDurationTexts: [String: String] {
        if let cachedCallDurations { return cachedCallDurations }
        var result: [String: String] = [:]
        var texts: Set<String> = []
        for binding in program.bindings where binding.parameters == nil {
            forEachCall(in: binding.value) { _, node in texts.insert(file.text(node.range)) }
        }
        let distinct = texts.sorted()
        if !distinct.isEmpty, !outcome.hasErrors {
            var source = file.bytes
            source += Array("\n".utf8)
            for (index, text) in distinct.enumerated() { source += Array("let animc_call_\(index) = \(text)\n".utf8) }
            let extended = run(SourceFile(name: file.name, bytes: source))
            let terms = lower(extended.resolved).terms
            for (index, text) in distinct.enumerated() {
                guard let term = terms["animc_call_\(index)"] else { continue }
                result[text] = term.isInfinite ? "forever" : term.duration.map { "\($0)s" } ?? "cancelled (zero)"
            }
        }
        cachedCallDurations = result
        return result
    }

    /// The properties a `let`'s tweens animate, sorted as `eval`'s columns.
    func properties(of name: String) -> [Property] {
        guard let term = terms[name] else { return [] }
        var found = Set<Property>()
        var seen = Set<ObjectIdentifier>()
        var stack = [term]
        while let next = stack.popLast() {
            guard seen.insert(ObjectIdentifier(next)).inserted else { continue }
            if case .tween(let tween) = next.kind { found.insert(tween.property) }
            stack.append(contentsOf: next.children)
        }
        return found.sorted()
    }

    /// Whether a `let` binds a value (a number, duration, colour, point, or
    /// `all views`) rather than an animation or an easing.
    func isValue(_ binding: Binding) -> Bool {
        guard binding.parameters == nil, case .value(let value) = binding.value.kind else { return false }
        if case .easing = value { return false }
        return true
    }

    /// Whether a `let` names an easing.
    func isEasing(_ binding: Binding) -> Bool {
        if binding.parameters == nil, case .value(.easing) = binding.value.kind { return true }
        return false
    }

    /// What kind of thing a `let` binds, in words.
    func kind(of binding: Binding) -> String {
        if let parameters = binding.parameters {
            return parameters.isEmpty ? "a parameterised animation" : "an animation of \(parameters.count) parameter\(parameters.count == 1 ? "" : "s")"
        }
        switch binding.value.kind {
        case .value(.plain(.number)): return "a number"
        case .value(.plain(.color)): return "a colour"
        case .value(.plain(.point)): return "a point"
        case .value(.duration): return "a duration"
        case .value(.easing): return "an easing"
        case .value(.allViews): return "all views"
        case .name, .zero, .one, .wait, .tween, .parallel, .sequence, .power, .reversed, .looped, .repeated, .delayed,
             .retimed, .eased, .emit, .staggered, .forever, .call, .easedByName, .overlapping, .played:
            return "an animation"
        }
    }
}
