import Animations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Evaluates every binding of a resolved program into a ``Scene`` of the
/// `Animations` library, reporting each mistake (a negative duration, a count
/// that is not a whole number, a non-monotone easing on a composite, …) as a
/// located diagnostic. A binding that uses a broken one is skipped without a
/// second report.
///
/// ```swift
/// let file = SourceFile(name: "talk.anim", text: source)
/// let evaluation = evaluate(resolve(parse(file).program))
/// if let final = evaluation.scenes["final"] { … }
/// ```
public func evaluate(_ resolved: ResolvedProgram) -> Evaluation {
    var evaluator = Evaluator(resolved: resolved)
    return evaluator.run()
}

/// The scenes of every binding that evaluated, with the diagnostics.
public struct Evaluation: Sendable {
    public let scenes: [String: Scene]
    public let diagnostics: [Diagnostic]
}

/// Parses, resolves and evaluates a whole file: everything `animc` needs.
///
/// `diagnostics` holds every error and warning of every stage, in source
/// order (the first ``maxParseDiagnostics`` of them); `scene` is the
/// requested binding's value when there are no errors.
public func run(_ file: SourceFile, binding name: String? = nil) -> Outcome {
    let parsed = parse(file)
    let resolved = resolve(parsed.program, broken: parsed.brokenBindings)
    let evaluation = evaluate(resolved)
    // Each check runs once, in the stage that owns it (counts in the
    // parser, which stores them validated), so no two stages report the same mistake.
    var diagnostics = parsed.diagnostics + resolved.diagnostics + evaluation.diagnostics
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
    diagnostics.sort { $0.range.start < $1.range.start }
    // As in the parser: beyond this many, more diagnostics only bury the first ones.
    if diagnostics.count > maxParseDiagnostics { diagnostics.removeSubrange(maxParseDiagnostics...) }
    let hasErrors = diagnostics.contains { $0.severity == .error }
    let scene = hasErrors ? nil : target.flatMap { evaluation.scenes[$0.name] }
    return Outcome(program: resolved.program, resolved: resolved, target: target, scene: scene,
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
    case .negativeDuration, .notFinite, .negativeCount, .nonMonotoneWarp, .invalidEasing, .retimeOfInstant, .invalidSampling:
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
    /// Its value, when the file has no errors.
    public let scene: Scene?
    /// Declared initial values.
    public let initial: [Property: Double]
    public let diagnostics: [Diagnostic]

    /// Assembles an outcome from stages run one by one (``run(_:binding:)`` does all of them).
    public init(program: Program, resolved: ResolvedProgram, target: Binding?, scene: Scene?,
                initial: [Property: Double], diagnostics: [Diagnostic]) {
        self.program = program
        self.resolved = resolved
        self.target = target
        self.scene = scene
        self.initial = initial
        self.diagnostics = diagnostics
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

private struct Evaluator {
    let resolved: ResolvedProgram
    var scenes: [String: Scene] = [:]
    var diagnostics: [Diagnostic] = []

    init(resolved: ResolvedProgram) {
        self.resolved = resolved
    }

    mutating func run() -> Evaluation {
        for name in resolved.order {
            guard let binding = resolved.bindings[name] else { continue }
            if let scene = evaluate(binding.value) {
                scenes[name] = scene
            }
        }
        return Evaluation(scenes: scenes, diagnostics: diagnostics)
    }

    /// The scene of `expr`, or `nil` after reporting why not (or when it uses
    /// a binding that already failed).
    private mutating func evaluate(_ expr: Expr) -> Scene? {
        switch expr.kind {
        case .name(let name):
            return scenes[name]
        case .zero:
            return .zero
        case .one:
            return .one
        case .wait(let duration):
            guard let time = seconds(duration) else { return nil }
            return attempt(expr.range) { () throws(AnimationError) in try Scene.wait(time) }
        case .tween(let tween):
            return evaluateTween(tween, range: expr.range)
        case .parallel(let parts):
            var scenes: [Scene] = []
            var failed = false
            for part in parts {
                if let scene = evaluate(part) { scenes.append(scene) } else { failed = true }
            }
            return failed ? nil : Scene.parallel(scenes)
        case .sequence(let parts):
            var scenes: [Scene] = []
            var failed = false
            for part in parts {
                if let scene = evaluate(part) { scenes.append(scene) } else { failed = true }
            }
            if failed { return nil }
            return attempt(expr.range) { () throws(AnimationError) in try Scene.sequence(scenes) }
        case .power(let inner, let count), .repeated(let inner, let count):
            // The parser reported every count that is not valid.
            guard let scene = evaluate(inner), let n = count.value else { return nil }
            return attempt(expr.range) { () throws(AnimationError) in try scene.repeated(n) }
        case .looped(let inner, let count):
            guard let scene = evaluate(inner), let n = count.value else { return nil }
            return attempt(expr.range) { () throws(AnimationError) in try scene.looped(n) }
        case .reversed(let inner):
            return evaluate(inner)?.reversed
        case .delayed(let inner, let duration):
            guard let scene = evaluate(inner), let delay = seconds(duration) else { return nil }
            return attempt(expr.range) { () throws(AnimationError) in try scene.delayed(by: delay) }
        case .retimed(let inner, let duration):
            guard let scene = evaluate(inner), let target = seconds(duration) else { return nil }
            do {
                return try scene.retimed(to: target)
            } catch .retimeOfInstant {
                diagnostics.append(Diagnostic(.retimeInstant(target), at: duration.range,
                                              hint: "`in` scales every time by the new length over the old one; give it something that takes time, e.g. `wait 1s`"))
                return nil
            } catch {
                report(error, at: duration.range)
                return nil
            }
        case .eased(let inner, let easing, let easingRange):
            guard let scene = evaluate(inner) else { return nil }
            do {
                return try scene.eased(easing)
            } catch .nonMonotoneWarp {
                diagnostics.append(Diagnostic(.nonMonotoneWarp(easing), at: easingRange,
                                              hint: "overshooting curves work on a single tween: move `with \(easing)` onto the tweens inside"))
                return nil
            } catch {
                report(error, at: easingRange)
                return nil
            }
        }
    }

    private mutating func evaluateTween(_ tween: Tween, range: SourceRange) -> Scene? {
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
        var parts: [Scene] = []
        for view in views {
            guard let scene = attempt(range, { () throws(AnimationError) in
                try Scene.tween(Property(view: view, name: property), from: from, to: to)
            }) else { return nil }
            parts.append(scene)
        }
        return Scene.parallel(parts)
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

    private mutating func attempt(_ range: SourceRange, _ body: () throws(AnimationError) -> Scene) -> Scene? {
        do {
            return try body()
        } catch {
            report(error, at: range)
            return nil
        }
    }

    private mutating func report(_ error: AnimationError, at range: SourceRange) {
        switch error {
        case .overflow:
            diagnostics.append(Diagnostic(.timeOverflow, at: range,
                                          hint: "exact time uses 64-bit fractions; use fewer repetitions or simpler durations"))
        case .negativeDuration, .notFinite, .negativeCount, .nonMonotoneWarp, .invalidEasing, .retimeOfInstant, .invalidSampling:
            diagnostics.append(Diagnostic(.animation(error), at: range))
        }
    }
}
