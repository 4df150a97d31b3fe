import Animations

/// Evaluates every binding of a lowered program into a ``Scene`` of the
/// `Animations` library: the fold of each binding's ``Term`` into scenes
/// (the universal property of the free algebra, ``Term/fold(into:memo:report:)``),
/// sharing the work for terms that bindings share. Each operation that fails
/// (exact time overflowing, a non-monotone easing on a composite, `one in
/// 2s`, …) is reported once, where it was written; whatever contains it is
/// skipped without a second report.
///
/// ```swift
/// let file = SourceFile(name: "talk.anim", text: source)
/// let evaluation = evaluate(lower(resolve(parse(file).program)))
/// if let final = evaluation.scenes["final"] { … }
/// ```
public func evaluate(_ lowering: Lowering) -> Evaluation {
    var memo: [ObjectIdentifier: Scene?] = [:]
    var scenes: [String: Scene] = [:]
    var diagnostics: [Diagnostic] = []
    for (name, term) in lowering.terms {
        let scene = term.evaluate(memo: &memo) { failed, error in
            let origin = lowering.origin(of: failed) ?? Origin(construct: .sequence, range: lowering.bindingRanges[name] ?? .none)
            diagnostics.append(evaluationDiagnostic(error, origin: origin))
        }
        if let scene { scenes[name] = scene }
    }
    return Evaluation(scenes: scenes, diagnostics: diagnostics)
}

/// The scenes of every binding that evaluated, with the diagnostics.
public struct Evaluation: Sendable {
    public let scenes: [String: Scene]
    public let diagnostics: [Diagnostic]
}

/// Parses, resolves, lowers and evaluates a whole file: everything `animc` needs.
///
/// `diagnostics` holds every error and warning of every stage, in source
/// order (the first ``maxParseDiagnostics`` of them); `scene` is the
/// requested binding's value when there are no errors.
public func run(_ file: SourceFile, binding name: String? = nil) -> Outcome {
    let parsed = parse(file)
    let resolved = resolve(parsed.program, broken: parsed.brokenBindings)
    let lowering = lower(resolved)
    let evaluation = evaluate(lowering)
    // Each check runs once, in the stage that owns it (counts in the
    // parser, which stores them validated), so no two stages report the same mistake.
    var diagnostics = parsed.diagnostics + resolved.diagnostics + lowering.diagnostics + evaluation.diagnostics
    var target: Binding?
    if let name {
        target = resolved.bindings[name]
        if target == nil, !diagnostics.contains(where: { $0.severity == .error }), !parsed.brokenBindings.contains(name) {
            diagnostics.append(Diagnostic(.unknownBinding(name), at: SourceRange(0, 0), hint: resolved.hint(forUnknownBinding: name)))
        }
    } else {
        target = resolved.program.bindings.last
        if target == nil, !diagnostics.contains(where: { $0.severity == .error }), parsed.brokenBindings.isEmpty {
            diagnostics.append(Diagnostic(.noBinding, at: SourceRange(0, 0), hint: "add a binding, e.g. `let final = fadeIn ball`"))
        }
    }
    // Source order; diagnostics at one place keep the order of the stages that found them.
    diagnostics = diagnostics.enumerated()
        .sorted { ($0.element.range.start, $0.offset) < ($1.element.range.start, $1.offset) }
        .map(\.element)
    // As in the parser: beyond this many, more diagnostics only bury the first ones.
    if diagnostics.count > maxParseDiagnostics { diagnostics.removeSubrange(maxParseDiagnostics...) }
    let hasErrors = diagnostics.contains { $0.severity == .error }
    let term = hasErrors ? nil : target.flatMap { lowering.terms[$0.name] }
    let scene = hasErrors ? nil : target.flatMap { evaluation.scenes[$0.name] }
    return Outcome(program: resolved.program, resolved: resolved, target: target, term: term, scene: scene,
                   initial: resolved.initial, diagnostics: diagnostics)
}

/// The located error for a binding whose value cannot be sampled (its
/// ``Scene/compile(materializeLimit:)`` threw: too many segments, or exact
/// time overflowed while placing them), pointing at the binding:
///
/// ```
/// big.anim:3:5: error: cannot sample `forever`: the animation has more than 4000000 segments
/// ```
public func samplingError(_ error: AnimationError, binding: Binding) -> Diagnostic {
    let hint: String
    switch error {
    case .overflow:
        hint = "exact time uses 64-bit fractions; use fewer repetitions or simpler durations"
    case .negativeDuration, .notFinite, .negativeCount, .nonMonotoneWarp, .mixedKinds, .invalidEasing, .retimeOfInstant, .invalidSampling,
         .infinite, .foreverOfInstant:
        hint = "sample a smaller part of it, or repeat with `^ N` (which stays symbolic) instead of listing copies"
    }
    let range = binding.nameRange == .none ? binding.range : binding.nameRange
    return Diagnostic(.cannotSample(binding: binding.name, error), at: range, hint: hint)
}

/// Everything known about one file after evaluation.
public struct Outcome: Sendable {
    public let program: Program
    public let resolved: ResolvedProgram
    /// The binding evaluated (the last `let`, or the one asked for).
    public let target: Binding?
    /// Its term, when the file has no errors: what `normalize` rewrites.
    public let term: Term?
    /// Its value, when the file has no errors.
    public let scene: Scene?
    /// Declared initial values.
    public let initial: [Property: Value]
    public let diagnostics: [Diagnostic]

    /// Assembles an outcome from stages run one by one (``run(_:binding:)`` does all of them).
    public init(program: Program, resolved: ResolvedProgram, target: Binding?, term: Term?, scene: Scene?,
                initial: [Property: Value], diagnostics: [Diagnostic]) {
        self.program = program
        self.resolved = resolved
        self.target = target
        self.term = term
        self.scene = scene
        self.initial = initial
        self.diagnostics = diagnostics
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
