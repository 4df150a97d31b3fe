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
    var scenes: [String: Scene] = Dictionary(minimumCapacity: lowering.termCount)
    var evaluated = lowering
    let diagnostics = evaluateBindings(&evaluated, releasingAllBut: nil) { number, scene in scenes[lowering.bindings.name(number)] = scene }
    return Evaluation(scenes: scenes, diagnostics: diagnostics)
}

/// Evaluates every binding, handing each scene that evaluated to `keep`
/// with its binding's number, and returns the diagnostics. What to keep is
/// the caller's: ``run(_:binding:keepingSyntax:)`` samples one binding, and
/// keeps its scene alone (no table of the others' scenes, nor the table's
/// generic metadata, built at run time on every start-up).
///
/// With `releasingAllBut` a number, `lowering` lets go of each other
/// binding's term as soon as it is evaluated, while the node is in the
/// cache, rather than all at once when the lowering goes (a release per
/// `let` of nodes long out of the cache); only that binding's term is
/// then left in ``Lowering/termsByNumber`` (a term used by others stays
/// alive in them).
func evaluateBindings(_ lowering: inout Lowering, releasingAllBut kept: Int?, alsoKeeping other: Int? = nil,
                      _ keep: (_ number: Int, Scene) -> Void) -> [Diagnostic] {
    // About one entry per binding's root (leaves are not memoized), so the
    // table is not rehashed as it grows.
    var memo = EvaluationMemo(capacity: lowering.termCount)
    var diagnostics: [Diagnostic] = []
    // By number, in order of first binding: each walk stops at the scenes
    // the bindings before made. (The last binding first would walk them all
    // at once, with fewer steps, but would hold the whole walk of a long
    // chain in memory at once.) A binding
    // is read (copied out of the table) only for the place of a failure.
    for number in lowering.termsByNumber.indices {
        guard let term = lowering.termsByNumber[number] else { continue }
        let scene = term.evaluate(memo: &memo) { failed, error in
            let origin = lowering.origin(of: failed)
                ?? Origin(construct: .sequence, range: lowering.bindings[number: number]?.range ?? .none)
            diagnostics.append(evaluationDiagnostic(error, origin: origin))
        }
        if let scene { keep(number, scene) }
        if let kept, number != kept, number != other { lowering.termsByNumber[number] = nil }
    }
    return diagnostics
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
///
/// With `keepingSyntax` false the outcome keeps no syntax tree (its
/// ``Outcome/program`` has no items, its ``Outcome/resolved`` no bindings
/// and no order of them, and its target's expression is `one`): a caller
/// that only samples the scene (`animc eval`) then compiles it with the
/// syntax already freed.
///
/// With `after`, the binding is shown as it plays after the binding `after`
/// has played (docs/semantics.md §8.6): `(after ; binding) played from |after|`, so
/// its relative tweens start where `after` left every property. An `after`
/// the file does not have, that is no animation or that never ends is an
/// ``DiagnosticKind/afterBinding(_:why:)`` error (a usage error of `--after`).
public func run(_ file: SourceFile, binding name: String? = nil, after: String? = nil, keepingSyntax: Bool = true) -> Outcome {
    // The front end in a function of its own: the tokens, the lowering's
    // tables and the other bindings' scenes are freed before compiling.
    var front = analyze(file, binding: name, after: after, keepingSyntax: keepingSyntax)
    if !keepingSyntax {
        front.resolved = front.resolved.withoutSyntax()
        front.target = front.target?.withoutSyntax()
    }
    var diagnostics = front.diagnostics
    // Compiled once, here: every command that samples reads it from the outcome.
    let initial = front.resolved.initial
    let compilation = front.scene.map { scene in Result { () throws(AnimationError) in try scene.compile(initial: initial) } }
    if case .success(let compiled?) = compilation, let target = front.target, let term = front.term {
        // (Appended one by one: `+=` here builds the array type's metadata at run time.)
        for warning in tieWarnings(compiled, binding: target, term: term, tweens: front.tweens) { diagnostics.append(warning) }
    }
    // A relative tween that cannot resolve is the script's mistake: say so where the tween is written.
    var unresolved = false
    if case .failure(let error) = compilation, let located = relativeDiagnostic(error, tweens: front.tweens) {
        diagnostics.append(located)
        unresolved = true
    }
    // Source order; diagnostics at one place keep the order of the stages that found them.
    // (Not for one or none: the sort builds its element's metadata at run time.)
    if diagnostics.count > 1 {
        diagnostics = diagnostics.enumerated()
            .sorted { ($0.element.range.start, $0.offset) < ($1.element.range.start, $1.offset) }
            .map(\.element)
    }
    // As in the parser: beyond this many, more diagnostics only bury the first ones.
    if diagnostics.count > maxParseDiagnostics { diagnostics.removeSubrange(maxParseDiagnostics...) }
    // A file with errors has no value (as when an earlier stage finds them).
    return Outcome(program: front.resolved.program, resolved: front.resolved, target: front.target, term: unresolved ? nil : front.term,
                   scene: unresolved ? nil : front.scene, initial: front.resolved.initial, diagnostics: diagnostics,
                   compilation: unresolved ? nil : compilation)
}

/// The located error for a relative tween (docs/semantics.md §7.1) that could not
/// be resolved when the scene was compiled: at the first such tween of the
/// property; `nil` for other errors.
func relativeDiagnostic(_ error: AnimationError, tweens: [PlacedTween]) -> Diagnostic? {
    let property: Property, hint: String
    switch error {
    case .noCurrentValue(let colour):
        property = colour
        hint = "nothing before it gives `\(colour)` a colour: declare one (`view \(colour.view) \(colour.name) white`), "
            + "or write `from A to B`"
    case .reversedRelative(let reversed):
        property = reversed
        hint = "a tween `to` a value has no start to return to: write it `from A to B`, or move it `by` an amount"
    case .relativeUnsupported, .relativeColor, .overflow, .negativeDuration, .notFinite, .negativeCount, .nonMonotoneWarp,
         .mixedKinds, .invalidEasing, .retimeOfInstant, .invalidSampling, .infinite, .foreverOfInstant, .invalidPart, .endlessPart:
        return nil
    }
    for placed in tweens {
        if case .tween(let tween) = placed.term.kind, tween.property == property, tween.isRelative {
            return Diagnostic(.animation(error), at: placed.range, hint: hint)
        }
    }
    return nil
}

/// What ``run(_:binding:)`` keeps of the front end.
private struct FrontEnd {
    var diagnostics: [Diagnostic]
    var resolved: ResolvedProgram
    var target: Binding?
    let term: Term?
    let scene: Scene?
    /// The lowering's tween leaves with their ranges (see ``Lowering``), for the tie warnings.
    let tweens: [PlacedTween]
}

extension Binding {
    /// The binding with `one` for its expression: its name and places without its syntax.
    func withoutSyntax() -> Binding {
        Binding(name: name, nameRange: nameRange, parameters: parameters, value: Expr(.one), range: range)
    }
}

extension ResolvedProgram {
    /// The program without its syntax tree (see ``run(_:binding:keepingSyntax:)``):
    /// without its items, bindings and their order either (a long script's
    /// items and names by number would otherwise stay until the process ends).
    func withoutSyntax() -> ResolvedProgram {
        var stripped = ResolvedProgram(program: Program(items: []), bindings: BindingTable(), orderNumbers: [],
                                       views: views, mentionOrder: mentionOrder, initial: initial, initialRanges: initialRanges,
                                       diagnostics: diagnostics, mentionsAllViews: mentionsAllViews, parameterKinds: parameterKinds)
        stripped.placements = placements
        stripped.tweenCount = tweenCount
        return stripped
    }
}

/// Parses, resolves, lowers and evaluates; picks the target binding.
///
/// Without `keepingSyntax` (and without `all views`, whose warning reads
/// the syntax again), the syntax tree is freed while it is lowered
/// (``lower(taking:)``): the parse result and the resolved program let go
/// of it first, and what is read of it afterwards (the target binding, the
/// hint for a name bound nowhere) is read before.
private func analyze(_ file: SourceFile, binding name: String?, after: String? = nil, keepingSyntax: Bool) -> FrontEnd {
    var parsed = parse(file)
    var resolved = resolve(parsed.program, broken: parsed.brokenBindings)
    parsed.program = Program(items: [])
    var target: Binding?
    var unknownHint: String?
    if let name {
        target = resolved.bindings[name]
        if target == nil { unknownHint = resolved.hint(forUnknownBinding: name) }
    } else {
        target = resolved.program.lastBinding
    }
    var lowering: Lowering
    if !keepingSyntax, !resolved.mentionsAllViews {
        resolved.program = Program(items: [])
        target = target?.withoutSyntax()
        lowering = lower(taking: &resolved)
    } else {
        lowering = lower(resolved)
    }
    // Every binding is evaluated, for its diagnostics; the target's scene alone is kept.
    let keptNumber = target.flatMap { lowering.bindings.index(forKey: $0.name) }
    let afterNumber = after.flatMap { lowering.bindings.index(forKey: $0) }
    var keptScene: Scene?, afterScene: Scene?
    // (Only the target's term, and `after`'s, are read after this.)
    let evaluationDiagnostics = evaluateBindings(&lowering, releasingAllBut: keptNumber ?? -1, alsoKeeping: afterNumber) { number, scene in
        if number == keptNumber { keptScene = scene }
        if number == afterNumber { afterScene = scene }
    }
    // Each check runs once, in the stage that owns it (counts in the
    // parser, which stores them validated), so no two stages report the same mistake.
    var diagnostics = parsed.diagnostics + resolved.diagnostics + lowering.diagnostics + evaluationDiagnostics
    if let name {
        if target == nil, !diagnostics.contains(where: { $0.severity == .error }), !parsed.brokenBindings.contains(name) {
            diagnostics.append(Diagnostic(.unknownBinding(name), at: SourceRange(0, 0), hint: unknownHint))
        }
    } else {
        if target == nil, !diagnostics.contains(where: { $0.severity == .error }), parsed.brokenBindings.isEmpty {
            diagnostics.append(Diagnostic(.noBinding, at: SourceRange(0, 0), hint: "add a binding, e.g. `let final = fadeIn ball`"))
        }
    }
    // A value or a parameterised `let` has no animation to evaluate.
    if let target, !diagnostics.contains(where: { $0.severity == .error }), lowering.term(named: target.name) == nil {
        let at = target.nameRange == .none ? target.range : target.nameRange
        if target.parameters != nil {
            diagnostics.append(Diagnostic(.notAnAnimation(target.name, kind: "a parameterised animation"), at: at,
                                          hint: "call it in a `let` after it, such as `let final = \(target.name)(…)`"))
        } else if let kind = lowering.valueKinds[target.name] {
            diagnostics.append(Diagnostic(.notAnAnimation(target.name, kind: kind.article), at: at,
                                          hint: "use it in an animation after it, or name one with `--binding NAME`"))
        }
    }
    // After an error (a misspelt name, say), which views a binding uses is not known.
    if !diagnostics.contains(where: { $0.severity == .error }), let target, let stray = resolved.strayViewsWarning(for: target) {
        diagnostics.append(stray)
    }
    var hasErrors = diagnostics.contains { $0.severity == .error }
    var term = hasErrors ? nil : target.flatMap { lowering.term(named: $0.name) }
    var scene = hasErrors ? nil : keptScene
    if let after, !hasErrors, let shown = scene {
        // `--after NAME`: (NAME ; BINDING) played from |NAME| (docs/semantics.md §8.6).
        var why: String?
        if afterNumber == nil || lowering.term(named: after) == nil {
            why = resolved.bindings[after] == nil ? "the file has no `let \(after)`" : "`\(after)` is not an animation"
        } else if let before = afterScene, before.isInfinite {
            why = "`\(after)` repeats forever, so nothing plays after it"
        } else if shown.isInfinite {
            why = "the binding repeats forever: a part of it needs an end"
        } else if let before = afterScene {
            do {
                let continued = try before.then(shown).played(from: before.duration ?? .zero, to: nil)
                scene = continued
                term = continued.term ?? Term.zero
            } catch {
                why = "\(error)"
            }
        }
        if let why {
            diagnostics.append(Diagnostic(.afterBinding(after, why: why), at: SourceRange(0, 0),
                                          hint: "name a `let` of the file that ends: `--after show`"))
            hasErrors = true
            term = nil
            scene = nil
        }
    }
    return FrontEnd(diagnostics: diagnostics, resolved: resolved, target: target, term: term, scene: scene,
                    tweens: scene == nil ? [] : lowering.tweens)
}

/// A warning for each property on which distinct tweens tie (see ``Tie``):
/// located at the last of the tied tweens in the source, with a note at
/// others, or at the binding when the tweens cannot be told apart.
/// A tied segment is matched to the tween of the binding's `term` (among
/// the lowering's `tweens`) that was placed there (``Animations/Segment/leaf``),
/// or, when that leaf was rebuilt, to those with its property, values and easing.
func tieWarnings(_ compiled: CompiledScene, binding: Binding, term: Term, tweens: [PlacedTween]) -> [Diagnostic] {
    let ties = compiled.ties()
    guard !ties.isEmpty else { return [] }
    let shown = ties.prefix(maxTieWarnings)
    let wanted = Set(shown.map(\.property))
    // The binding's tween leaves on those properties, with where each is written.
    var mine: Set<ObjectIdentifier> = []
    var seen: Set<ObjectIdentifier> = []
    var stack = [term]
    while let node = stack.popLast() {
        guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
        if case .tween(let tween) = node.kind {
            if wanted.contains(tween.property) { mine.insert(ObjectIdentifier(node)) }
        } else {
            stack.append(contentsOf: node.children)
        }
    }
    var leaves: [Property: [(tween: Tween, range: SourceRange)]] = [:]
    var placedRanges: [ObjectIdentifier: SourceRange] = [:]
    for placed in tweens where mine.contains(ObjectIdentifier(placed.term)) {
        if case .tween(let tween) = placed.term.kind { leaves[tween.property, default: []].append((tween, placed.range)) }
        placedRanges[ObjectIdentifier(placed.term)] = placed.range
    }
    let fallback = binding.nameRange == .none ? binding.range : binding.nameRange
    var warnings: [Diagnostic] = []
    // Beyond a few, more warnings of one kind only bury the rest: count them instead.
    if ties.count > maxTieWarnings {
        warnings.append(Diagnostic(.moreTies(total: ties.count, shown: maxTieWarnings), at: fallback,
                                   hint: "`animc timeline` lists every segment with its start"))
    }
    for tie in shown {
        var ranges: [SourceRange] = []
        for segment in tie.segments {
            // The tween written there when the segment says which (its leaf);
            // else (a leaf rebuilt by `with`, say) those with its values and easing.
            let placed = segment.leaf.flatMap { leaf in placedRanges[leaf] }
            let matching = placed.map { [$0] } ?? (leaves[tie.property] ?? []).filter { leaf in
                leaf.tween.from == segment.from && leaf.tween.to == segment.to && leaf.tween.easing == segment.easing
            }.map(\.range)
            for range in matching where !ranges.contains(range) { ranges.append(range) }
        }
        ranges.sort { $0.start < $1.start }
        let property = tie.property.description
        let kind = DiagnosticKind.tie(property: property, count: tie.segments.count, from: secondsText(tie.start),
                                      to: secondsText(tie.end), playing: tie.isPlaying)
        let hint = tie.isPlaying
            ? "to play them one after the other, join them with `;`; to let one take over, start it later (the latest start wins)"
            : "to let one take over, end it later (the latest end wins)"
        let notes = ranges.dropLast().prefix(2).map { Diagnostic.Note(.alsoDriven(property), at: $0) }
        warnings.append(Diagnostic(kind, at: ranges.last ?? fallback, hint: hint, notes: Array(notes)))
    }
    return warnings
}

/// The most tie warnings one run gives, one per property; the rest are counted.
let maxTieWarnings = 10

/// An instant in seconds for a message: exact when it has a finite decimal, else to the millisecond.
private func secondsText(_ instant: Instant) -> String {
    if let decimal = instant.exact?.decimalDescription { return decimal }
    return formatNumber((instant.seconds * 1000).rounded() / 1000)
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
         .infinite, .foreverOfInstant, .relativeColor, .reversedRelative, .noCurrentValue, .relativeUnsupported, .invalidPart, .endlessPart:
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
    /// The scene compiled for sampling, when ``run(_:binding:)`` made it.
    let compilation: Result<CompiledScene?, AnimationError>?

    /// Assembles an outcome from stages run one by one (``run(_:binding:)`` does all of them).
    public init(program: Program, resolved: ResolvedProgram, target: Binding?, term: Term?, scene: Scene?,
                initial: [Property: Value], diagnostics: [Diagnostic], compilation: Result<CompiledScene?, AnimationError>? = nil) {
        self.compilation = compilation
        self.program = program
        self.resolved = resolved
        self.target = target
        self.term = term
        self.scene = scene
        self.initial = initial
        self.diagnostics = diagnostics
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The scene compiled for sampling (``Scene/compile(materializeLimit:)``),
    /// made once by ``run(_:binding:)`` for every command that samples it;
    /// `nil` when it is cancelled or there is no scene.
    public func compiledScene() throws(AnimationError) -> CompiledScene? {
        if let compilation { return try compilation.get() }
        return try scene?.compile(initial: initial)
    }
}
