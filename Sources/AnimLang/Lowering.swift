import Animations

/// Lowers the bindings of a resolved program into terms of the animation
/// algebra (``Term``), the one representation the evaluator folds, the
/// normalizer rewrites and the printer prints. Names become the bound term
/// (shared, not copied), `all views` becomes the parallel of every view,
/// and the sugar of the syntax becomes the operators it stands for:
/// `x looped n times` is `(x ; x reversed) ^ n`, `x delayed by d` is
/// `wait d ; x`, `x repeated n times` is `x ^ n`, rotations are in degrees.
///
/// ```swift
/// let resolved = resolve(parse(file).program)
/// let lowered = lower(resolved)
/// lowered.terms["final"]       // the term of `let final`
/// lowered.origin(of: term)     // where a term was written, for diagnostics
/// ```
///
/// Mistakes in values (a negative duration, a count that is not whole,
/// `all views` in a file that names no view) are reported here, located; a
/// binding with such a mistake, or using one, has no term.
public func lower(_ resolved: ResolvedProgram) -> Lowering {
    var lowerer = Lowerer(resolved: resolved)
    return lowerer.run()
}

/// The terms of a program's bindings, and where each term was written.
public struct Lowering: Sendable {
    /// The term of each binding that lowered without errors.
    public let terms: [String: Term]
    /// Where each of those bindings is written.
    let bindingRanges: [String: SourceRange]
    public let diagnostics: [Diagnostic]
    /// Where each term node that the lowering built was written.
    let origins: [ObjectIdentifier: Origin]

    /// Where `term` was written, when this lowering built it.
    public func origin(of term: Term) -> Origin? {
        origins[ObjectIdentifier(term)]
    }
}

/// The source of a term node: the expression it came from, and for the
/// operators whose mistakes are in one argument, that argument.
public struct Origin: Sendable {
    public enum Construct: Sendable {
        case tween, wait, sequence, parallel, power, looped, reversed, delayed
        /// `x in DUR`: the duration's range is `detail`.
        case retimed
        /// `x with E`: the easing's range is `detail`.
        case eased
    }

    public var construct: Construct
    /// The whole expression.
    public var range: SourceRange
    /// The duration of `in`, the easing of `with`.
    public var detail: SourceRange?
    /// The length `in` asks for.
    public var target: Time?
}

private struct Lowerer {
    let resolved: ResolvedProgram
    var terms: [String: Term] = [:]
    var diagnostics: [Diagnostic] = []
    var origins: [ObjectIdentifier: Origin] = [:]

    init(resolved: ResolvedProgram) {
        self.resolved = resolved
    }

    mutating func run() -> Lowering {
        var ranges: [String: SourceRange] = [:]
        for name in resolved.order {
            guard let binding = resolved.bindings[name] else { continue }
            if let term = lower(binding.value) {
                terms[name] = term
                ranges[name] = binding.range
            }
        }
        return Lowering(terms: terms, bindingRanges: ranges, diagnostics: diagnostics, origins: origins)
    }

    /// The term of `expr`, or `nil` after reporting why not (or when it uses
    /// a binding that has no term).
    private mutating func lower(_ expr: Expr) -> Term? {
        switch expr.kind {
        case .name(let name):
            return terms[name]
        case .zero:
            return Term.zero
        case .one:
            return Term.one
        case .wait(let duration):
            guard let time = seconds(duration) else { return nil }
            return built(.wait, expr.range) { () throws(AnimationError) in try Term.wait(time) }
        case .tween(let tween):
            return lowerTween(tween, range: expr.range)
        case .parallel(let parts):
            guard let terms = lowerAll(parts) else { return nil }
            return record(Term.parallel(terms), .parallel, expr.range)
        case .sequence(let parts):
            guard let terms = lowerAll(parts) else { return nil }
            return built(.sequence, expr.range) { () throws(AnimationError) in try Term.sequence(terms) }
        case .power(let inner, let count), .repeated(let inner, let count):
            // The parser reported every count that is not valid.
            guard let body = lower(inner), let n = count.value else { return nil }
            return built(.power, expr.range) { () throws(AnimationError) in try Term.power(body, n) }
        case .looped(let inner, let count):
            guard let body = lower(inner), let n = count.value else { return nil }
            let back = record(Term.reversed(body), .looped, expr.range)
            guard let there = built(.looped, expr.range, { () throws(AnimationError) in try Term.sequence([body, back]) }) else { return nil }
            return built(.looped, expr.range) { () throws(AnimationError) in try Term.power(there, n) }
        case .reversed(let inner):
            guard let body = lower(inner) else { return nil }
            return record(Term.reversed(body), .reversed, expr.range)
        case .delayed(let inner, let duration):
            guard let body = lower(inner), let delay = seconds(duration) else { return nil }
            guard let wait = built(.delayed, expr.range, { () throws(AnimationError) in try Term.wait(delay) }) else { return nil }
            return built(.delayed, expr.range) { () throws(AnimationError) in try Term.sequence([wait, body]) }
        case .retimed(let inner, let duration):
            guard let body = lower(inner), let target = seconds(duration) else { return nil }
            // A tween lasts what `in` says: `tween in d` is the tween of length d.
            if case .tween(let tween) = body.kind, tween.duration.isPositive {
                return Term.tween(tween.with(duration: target))
            }
            guard let term = built(.retimed, expr.range, detail: duration.range, { () throws(AnimationError) in try Term.retimed(body, to: target) }) else {
                return nil
            }
            origins[ObjectIdentifier(term)]?.target = target
            return term
        case .eased(let inner, let easing, let easingRange):
            guard let body = lower(inner) else { return nil }
            let origin = Origin(construct: .eased, range: expr.range, detail: easingRange)
            // On a tween, `with E` composes E into the tween's own easing.
            if case .tween(let tween) = body.kind {
                let composed = tween.easing.composed(after: easing)
                guard composed.depth <= Easing.maxDepth else {
                    diagnostics.append(evaluationDiagnostic(.invalidEasing("easings compose more than \(Easing.maxDepth) deep"), origin: origin))
                    return nil
                }
                return Term.tween(tween.with(easing: composed))
            }
            let term = Term.eased(body, easing)
            origins[ObjectIdentifier(term)] = origin
            return term
        }
    }

    private mutating func lowerAll(_ parts: [Expr]) -> [Term]? {
        var terms: [Term] = []
        terms.reserveCapacity(parts.count)
        var failed = false
        for part in parts {
            if let term = lower(part) { terms.append(term) } else { failed = true }
        }
        return failed ? nil : terms
    }

    /// Records where `term` was written, when evaluating it can fail: only
    /// `in` (stretching an instant, an inexact factor) and `with` (a
    /// non-monotone warp, easings composed too deep) can. Every other
    /// operation's failure (an overflowing duration) is found here, while
    /// building the term, and reported at once.
    private mutating func record(_ term: Term, _ construct: Origin.Construct, _ range: SourceRange, detail: SourceRange? = nil) -> Term {
        switch construct {
        case .retimed, .eased:
            origins[ObjectIdentifier(term)] = Origin(construct: construct, range: range, detail: detail)
        case .tween, .wait, .sequence, .parallel, .power, .looped, .reversed, .delayed:
            break
        }
        return term
    }

    /// Builds a term, reporting a failure (overflow, a negative duration) at `range`.
    private mutating func built(_ construct: Origin.Construct, _ range: SourceRange, detail: SourceRange? = nil,
                                _ body: () throws(AnimationError) -> Term) -> Term? {
        do {
            return record(try body(), construct, range, detail: detail)
        } catch {
            diagnostics.append(evaluationDiagnostic(error, origin: Origin(construct: construct, range: range, detail: detail)))
            return nil
        }
    }

    private mutating func lowerTween(_ tween: TweenSyntax, range: SourceRange) -> Term? {
        let views: [String]
        switch tween.target {
        case .view(let name, _):
            views = [name]
        case .allViews(let targetRange):
            views = resolved.views
            if views.isEmpty {
                diagnostics.append(Diagnostic(.noViews, at: targetRange, hint: "declare one with `view NAME`, or name it in a tween"))
                return nil
            }
        }
        guard let (from, to) = tween.values else {
            diagnostics.append(Diagnostic(.incompleteTween, at: range))
            return nil
        }
        guard from.isFinite, to.isFinite else {
            diagnostics.append(Diagnostic(.notFiniteTween, at: range))
            return nil
        }
        let property = tween.resolvedProperty
        var parts: [Term] = []
        for view in views {
            guard let leaf = built(.tween, range, { () throws(AnimationError) in
                Term.tween(try Animations.Tween(property: Property(view: view, name: property), from: .number(from), to: .number(to)))
            }) else { return nil }
            parts.append(leaf)
        }
        return parts.count == 1 ? parts[0] : record(Term.parallel(parts), .tween, range)
    }

    /// The exact length of a duration in seconds, or `nil` after reporting why not.
    private mutating func seconds(_ duration: Duration) -> Time? {
        let number = duration.number
        guard number.value.isFinite else {
            diagnostics.append(Diagnostic(.notFiniteDuration, at: duration.range))
            return nil
        }
        guard number.value >= 0 else {
            diagnostics.append(Diagnostic(.negativeDuration(number.value), at: duration.range,
                                          hint: "to start something earlier, delay the other parts instead"))
            return nil
        }
        guard let time = duration.time else {
            diagnostics.append(Diagnostic(.unrepresentableDuration(duration.approximateSeconds), at: duration.range,
                                          hint: "exact time uses 64-bit fractions: durations from about 1e-18s to 9e18s"))
            return nil
        }
        return time
    }
}

/// The located diagnostic for an operation of the algebra that failed on a
/// term written at `origin` (while lowering, or while evaluating).
func evaluationDiagnostic(_ error: AnimationError, origin: Origin) -> Diagnostic {
    let range: SourceRange
    switch origin.construct {
    case .retimed, .eased: range = origin.detail ?? origin.range
    case .tween, .wait, .sequence, .parallel, .power, .looped, .reversed, .delayed: range = origin.range
    }
    switch error {
    case .retimeOfInstant where origin.construct == .retimed:
        return Diagnostic(.retimeInstant(origin.target ?? .zero), at: range,
                          hint: "`in` scales every time by the new length over the old one; give it something that takes time, e.g. `wait 1s`")
    case .nonMonotoneWarp(let easing) where origin.construct == .eased:
        return Diagnostic(.nonMonotoneWarp(easing), at: range,
                          hint: "overshooting curves work on a single tween: move `with \(EasingNames.spelling(of: easing))` onto the tweens inside")
    case .overflow:
        return Diagnostic(.timeOverflow, at: range, hint: "exact time uses 64-bit fractions; use fewer repetitions or simpler durations")
    case .negativeDuration, .notFinite, .negativeCount, .nonMonotoneWarp, .mixedKinds, .invalidEasing, .retimeOfInstant, .invalidSampling:
        return Diagnostic(.animation(error), at: range)
    }
}
