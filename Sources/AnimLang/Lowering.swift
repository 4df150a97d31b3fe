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

/// ``lower(_:)`` for a caller that keeps no syntax (``run(_:binding:keepingSyntax:)``
/// with `keepingSyntax` false): each animation binding's expression is
/// taken out of `resolved` as it is lowered (left `one`), and the operands
/// of a `;` or `||` chain are freed one by one once lowered, so the syntax
/// is freed while the terms are built rather than alive beside them all.
/// `resolved` must be the only holder of the syntax (its ``ResolvedProgram/program``
/// emptied, no other copy kept) for the memory to be freed; the terms and
/// diagnostics are those ``lower(_:)`` gives. Parameterised and value
/// bindings keep their expressions (calls expand bodies, names read values).
func lower(taking resolved: inout ResolvedProgram) -> Lowering {
    var lowerer = Lowerer(resolved: consume resolved)
    lowerer.takesSyntax = true
    let lowering = lowerer.run()
    resolved = lowerer.resolved
    return lowering
}

/// The terms of a program's bindings, and where each term was written.
public struct Lowering: Sendable {
    /// The term of each binding that lowered without errors, by its
    /// number in ``bindings`` (an array, not a table by name: a long script
    /// holds one optional per `let`, not a hashed name). (Emptied but for the
    /// target's by ``run(_:binding:keepingSyntax:)`` as it evaluates them.)
    internal(set) var termsByNumber: [Term?]
    /// How many bindings have a term.
    let termCount: Int
    /// The program's bindings (where each is written: a failure in a term
    /// the lowering did not locate is shown at its binding).
    let bindings: BindingTable
    public let diagnostics: [Diagnostic]
    /// Where term nodes that the lowering built were written: each `x in
    /// DUR` and `x with E` (the nodes whose mistakes are located by their term).
    let origins: [ObjectIdentifier: Origin]
    /// Those nodes, kept alive so that no other term can take an
    /// identifier of one that a failed binding dropped.
    let located: [Term]
    /// Every tween leaf built, with the tween expression it came from (for
    /// warnings that point at tweens; a list, since a script has many and
    /// few warnings need them), reserved for the tweens the resolver counted.
    let tweens: [PlacedTween]
    /// The kind of each `let` that names a value (`let gap = 80ms`).
    public let valueKinds: [String: ParameterKind]

    /// The term of each binding that lowered without errors, by name.
    public var terms: [String: Term] {
        var terms: [String: Term] = [:]
        terms.reserveCapacity(termCount)
        for (number, term) in termsByNumber.enumerated() {
            if let term { terms[bindings.name(number)] = term }
        }
        return terms
    }

    /// The term of the binding `name`, when it lowered without errors.
    func term(named name: String) -> Term? {
        guard let number = bindings.index(forKey: name), termsByNumber.indices.contains(number) else { return nil }
        return termsByNumber[number]
    }

    /// Where `term` was written, when this lowering built it.
    public func origin(of term: Term) -> Origin? {
        origins[ObjectIdentifier(term)]
    }
}

/// A tween leaf the lowering built, and where its tween is written: 16
/// bytes (the range as 32-bit offsets, ``PackedRange``, as the syntax
/// stores it), for a list kept until the scene is compiled (its tie warnings).
struct PlacedTween {
    let term: Term
    private let packedRange: PackedRange
    var range: SourceRange { packedRange.range }

    init(_ term: Term, _ range: SourceRange) {
        self.term = term
        packedRange = PackedRange(range)
    }
}

/// The source of a term node: the expression it came from, and for the
/// operators whose mistakes are in one argument, that argument.
public struct Origin: Sendable {
    public enum Construct: Sendable {
        case tween, wait, sequence, parallel, power, looped, reversed, delayed, staggered
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
    /// For `with`: whether it eases a keyframe tween (`through` with more
    /// than two values), whose pieces cannot take the easing one by one.
    public var easesKeyframes = false
}

/// How deeply calls may nest while they expand (a body calling a `let`
/// whose body calls another …): deeper is an error, not a stack overflow.
public let maxCallDepth = 64

/// How deeply expressions may nest once calls are written out (calls nest
/// bodies in one another): as deep as one written expression may, which is
/// what the lowering's recursion is known to bear on any thread.
public let maxExpandedNesting = maxExpressionNesting

/// How many distinct calls one file may expand (`let d2(a) = d1(d1(a))`
/// doubles at each level): beyond, an error rather than an endless expansion.
public let maxCallExpansions = 100_000

/// A named value: what a value `let` or a value argument stands for.
enum NamedValue {
    case number(Number)
    case duration(Time)
    case color(Color)
    case point(Number, Number)
    case easing(Easing)

    var kind: ParameterKind {
        switch self {
        case .number: return .number
        case .duration: return .duration
        case .color: return .color
        case .point: return .point
        case .easing: return .easing
        }
    }

    /// What it is as a call's memo key.
    var key: String {
        func bits(_ number: Number) -> String { "\(number.value.bitPattern)/\(number.exact.map { "\($0)" } ?? "")" }
        switch self {
        case .number(let number): return "n" + bits(number)
        case .duration(let time): return "d\(time)"
        case .color(let color): return "c\(color.red.bitPattern),\(color.green.bitPattern),\(color.blue.bitPattern),\(color.alpha.bitPattern)"
        case .point(let x, let y): return "p" + bits(x) + "," + bits(y)
        case .easing(let easing): return "e" + EasingNames.spelling(of: easing)
        }
    }
}

/// What a parameter stands for in one call.
enum Bound {
    case view(String)
    case allViews
    case term(Term)
    case value(NamedValue)

    var article: String {
        switch self {
        case .view, .allViews: return ParameterKind.target.article
        case .term: return ParameterKind.animation.article
        case .value(let value): return value.kind.article
        }
    }

    var key: String {
        switch self {
        case .view(let name): return "v" + name
        case .allViews: return "*"
        case .term(let term): return "t\(ObjectIdentifier(term).hashValue)"
        case .value(let value): return value.key
        }
    }
}

/// The parameters of the body being expanded, and which `let` it is.
private struct Frame {
    let binding: String
    let arguments: [String: Bound]
}

/// A call expanded once: its term, or the diagnostics its body gave (as
/// the body reported them, before they are moved to a call).
private struct Expansion {
    let term: Term?
    let diagnostics: [Diagnostic]
    /// The arguments, kept so that the terms among them stay alive (the key holds their identities).
    let arguments: [Bound]
}

private struct Lowerer {
    /// (Its animation bindings' expressions are taken when ``takesSyntax``.)
    private(set) var resolved: ResolvedProgram
    /// Whether each animation binding's expression is taken out of
    /// ``resolved`` to be lowered, and freed as it is (``lower(taking:)``).
    var takesSyntax = false
    /// The term of each binding lowered so far, by number (``Lowering/termsByNumber``).
    var terms: [Term?] = []
    var termCount = 0
    /// The binding lowered last, with its term (what ``terms`` holds for its name).
    private var lastLowered: LastLowered?
    /// A struct, not a tuple: an optional tuple is copied through its metadata, found at run time.
    private struct LastLowered {
        let name: String
        let term: Term
    }
    /// The parameters in scope: those of the call being expanded (`nil` at the top level).
    private var frame: Frame?
    /// Each value `let` evaluated so far (`nil`: it has an error, reported).
    var values: [String: NamedValue?] = [:]
    var evaluating: Set<String> = []
    /// Whether each `let` names a value, as ``namesValue(_:)`` found.
    var aliasesValue: [String: Bool] = [:]
    private var expansions: [String: Expansion] = [:]
    var callDepth = 0
    /// How deep ``lower(_:)`` is, through the bodies of calls.
    var nesting = 0
    /// The calls being expanded, innermost last.
    var callSites: [SourceRange] = []
    var diagnostics: [Diagnostic] = []
    var origins: [ObjectIdentifier: Origin] = [:]
    var located: [Term] = []
    var tweens: [PlacedTween] = []
    /// The kind of value of each property, and where it was first given.
    var kinds: [Property: KindPlace] = [:]

    /// The bindings without errors of their own (in ``ResolvedProgram/order``),
    /// made when a named value first needs it.
    private var wellFormedNames: Set<String>?
    /// The last four properties whose kinds ``checkKind(_:of:at:)`` found
    /// agreeing, the last first (consecutive tweens mostly animate a few
    /// properties of one view: a `move`'s `x` and `y`, its colour). Entries of ``kinds`` do not change.
    private var lastChecked: [CheckedKind] = []
    /// A struct: an array of tuples would build the tuple's metadata at run time, on every start-up.
    private struct CheckedKind {
        let property: Property
        let kind: Value.Kind
    }

    init(resolved: ResolvedProgram) {
        self.resolved = resolved
        tweens.reserveCapacity(resolved.tweenCount)
        for (property, value) in resolved.initial {
            kinds[property] = KindPlace(kind: value.kind, range: resolved.initialRanges[property] ?? .none)
        }
    }

    /// Whether the binding `name` has no errors of its own.
    mutating func isWellFormed(_ name: String) -> Bool {
        if let wellFormedNames { return wellFormedNames.contains(name) }
        let names = Set(resolved.order)
        wellFormedNames = names
        return names.contains(name)
    }

    mutating func run() -> Lowering {
        var kinds: [String: ParameterKind] = [:]
        terms = Array(repeating: nil, count: resolved.bindings.count)
        for index in resolved.orderNumbers {
            guard let binding = resolved.bindings[number: index] else { continue }
            guard binding.parameters == nil else { continue }
            let name = binding.name
            if namesValue(binding) {
                if let value = valueOfBinding(name) { kinds[name] = value.kind }
                continue
            }
            guard takesSyntax else {
                if let term = lower(binding.value) {
                    terms[index] = term
                    termCount += 1
                    lastLowered = LastLowered(name: name, term: term)
                }
                continue
            }
            // Taken out (in place, by number): `binding` and the table release it, leaving `expr` its only holder.
            _ = consume binding
            guard var expr = resolved.bindings.takeExpression(index) else { continue }
            if let term = lower(taking: &expr) {
                terms[index] = term
                termCount += 1
                lastLowered = LastLowered(name: name, term: term)
            }
        }
        return Lowering(termsByNumber: terms, termCount: termCount, bindings: resolved.bindings, diagnostics: diagnostics, origins: origins, located: located,
                        tweens: tweens, valueKinds: kinds)
    }

    // MARK: Named values

    /// Whether `binding` names a value (`let gap = 80ms`, `let brand = red`,
    /// `let other = gap`) rather than an animation.
    mutating func namesValue(_ binding: Binding) -> Bool {
        // Most bindings are animations written out: no alias to follow.
        switch binding.value.kind {
        case .value, .name: break
        case .zero, .one, .wait, .tween, .parallel, .sequence, .power, .reversed, .looped, .repeated, .delayed, .retimed, .eased, .emit,
             .staggered, .forever, .call, .easedByName, .overlapping, .played:
            return false   // (what the walk below finds for it, without the memo)
        }
        // Follows a chain of aliases (`let a = b`) to its end, remembering the answer for each.
        var chain: [String] = []
        var current = binding
        var answer = false
        while true {
            if let known = aliasesValue[current.name] {
                answer = known
                break
            }
            guard current.parameters == nil, chain.count <= resolved.bindings.count else { break }
            chain.append(current.name)
            if case .value = current.value.kind {
                answer = true
                break
            }
            guard case .name(let name) = current.value.kind else { break }
            guard let next = resolved.bindings[name] else {
                answer = ColorNames.color(named: name) != nil || EasingNames.easing(named: name) != nil
                break
            }
            current = next
        }
        for name in chain { aliasesValue[name] = answer }
        return answer
    }

    /// The value of the value `let` `name`, evaluated once, in the file's scope.
    mutating func valueOfBinding(_ name: String) -> NamedValue? {
        if let known = values[name] { return known }
        guard let binding = resolved.bindings[name] else { return nil }
        guard evaluating.insert(name).inserted else {
            diagnostics.append(Diagnostic(.cycle(name, through: []), at: binding.nameRange,
                                          hint: "a value cannot be defined by itself; write it out"))
            values[name] = .some(nil)
            return nil
        }
        let outer = frame
        frame = nil
        let value = self.value(of: binding.value, expected: nil)
        frame = outer
        evaluating.remove(name)
        values[name] = .some(value)
        return value
    }

    /// The value `expr` (a value written out or a name) stands for, checked
    /// against `expected` (any kind when `nil`); `nil` after reporting why not.
    mutating func value(of expr: Expr, expected: ParameterKind?, callee: (name: String, parameter: String)? = nil) -> NamedValue? {
        let found: NamedValue?
        switch expr.kind {
        case .name(let name) where callee != nil:
            found = lookUp(name, at: expr.range, expected: expected ?? .value, anyKind: true)
        case .name(let name):
            return lookUp(name, at: expr.range, expected: expected ?? .value, anyKind: expected == nil)
        case .value(.plain(.number(let number))):
            if let (name, range) = number.bareName {
                return lookUp(name, at: range, expected: expected ?? .value, anyKind: expected == nil)
            }
            guard let (folded, isDuration) = fold(number, context: expected == .duration || expected == nil ? .duration : .number) else {
                return nil
            }
            if isDuration {
                guard let time = seconds(Duration(number: folded, unit: .seconds, range: number.range)) else { return nil }
                found = .duration(time)
            } else {
                found = .number(folded)
            }
        case .value(.plain(.color(let color))):
            found = .color(color.color)
        case .value(.plain(.point(let x, let y, _))):
            guard let (fx, _) = fold(x, context: .number), let (fy, _) = fold(y, context: .number) else { return nil }
            found = .point(fx, fy)
        case .value(.duration(let duration)):
            guard let time = seconds(duration) else { return nil }
            found = .duration(time)
        case .value(.easing(let easing, _)):
            found = .easing(easing)
        case .value(.allViews):
            report(expr, found: ParameterKind.target.article, expected: expected, callee: callee)
            return nil
        case .zero, .one, .wait, .tween, .parallel, .sequence, .power, .reversed, .looped, .repeated, .delayed, .retimed, .eased, .emit,
             .staggered, .forever, .call, .easedByName, .overlapping, .played:
            report(expr, found: ParameterKind.animation.article, expected: expected, callee: callee)
            return nil
        }
        guard let found else { return nil }
        if let expected, !expected.accepts(found.kind) {
            report(expr, found: found.kind.article, expected: expected, callee: callee)
            return nil
        }
        return found
    }

    /// Reports a value of the wrong kind, as an argument of `callee` or where `expr` stands.
    private mutating func report(_ expr: Expr, found: String, expected: ParameterKind?, callee: (name: String, parameter: String)?) {
        let wanted = expected?.article ?? "a value"
        if let callee {
            diagnostics.append(Diagnostic(.argumentKind(callee: callee.name, parameter: callee.parameter, expected: wanted, found: found),
                                          at: expr.range, hint: "`\(callee.name)` uses `\(callee.parameter)` as \(wanted)"))
        } else {
            diagnostics.append(Diagnostic(.nameKind("…", found: found, expected: wanted), at: expr.range))
        }
    }

    /// What `name` stands for where `expected` is wanted: a parameter, a
    /// value `let`, or a colour or easing of that name.
    mutating func lookUp(_ name: String, at range: SourceRange, expected: ParameterKind, anyKind: Bool = false) -> NamedValue? {
        var found: NamedValue?
        if let bound = frame?.arguments[name] {
            guard case .value(let value) = bound else { return wrongKind(name, bound.article, expected, at: range) }
            found = value
        } else if let binding = resolved.bindings[name] {
            guard isWellFormed(name) else { return nil }   // its mistake is reported where it is
            if binding.parameters != nil { return wrongKind(name, "a parameterised animation", expected, at: range) }
            guard namesValue(binding) else { return wrongKind(name, ParameterKind.animation.article, expected, at: range) }
            guard let value = valueOfBinding(name) else { return nil }
            found = value
        } else if let color = ColorNames.color(named: name) {
            found = .color(color)
        } else if let easing = EasingNames.easing(named: name) {
            found = .easing(easing)
        } else {
            let match = closestMatch(to: name, in: resolved.bindings.keys.sorted())
            diagnostics.append(Diagnostic(.unknownValue(name, expected: expected.article), at: range, hint: match.map(didYouMean),
                                          fixes: match.map { [.replacing(range, with: $0)] } ?? []))
            return nil
        }
        guard let found else { return nil }
        if !anyKind, !expected.accepts(found.kind) { return wrongKind(name, found.kind.article, expected, at: range) }
        return found
    }

    private mutating func wrongKind(_ name: String, _ found: String, _ expected: ParameterKind, at range: SourceRange) -> NamedValue? {
        var hint: String?
        if expected == .number, found == ParameterKind.duration.article {
            hint = "a duration stands where time is written: after `in`, `delayed by`, `staggered by`, `wait`"
        } else if expected == .animation, found != ParameterKind.target.article {
            hint = "a value is not an animation; use it in one, as in `wait \(name)` or `with \(name)`"
        }
        diagnostics.append(Diagnostic(.nameKind(name, found: found, expected: expected.article), at: range, hint: hint))
        return nil
    }

    /// Folds a number written with names (`lift * 2`); in a `.duration`
    /// context, names may be durations too (in seconds), and `isDuration`
    /// says whether one was. A number without names is itself.
    mutating func fold(_ number: Number, context: ParameterKind) -> (Number, isDuration: Bool)? {
        guard let formula = number.formula else { return (number, false) }
        // (One fold for numbers and durations: its measures decide, docs/semantics.md §8.4.)
        let folded = formula.measured(&self) { lowerer, name, range in
            switch lowerer.lookUp(name, at: range, expected: context) {
            case .number(let value)?: return (Number(exact: value.exact, value: value.value, range: range), .number)
            case .duration(let time)?: return (Number(time, range: range), .duration)
            case .color?, .point?, .easing?, nil: return nil
            }
        } failed: { lowerer, diagnostic in
            lowerer.diagnostics.append(diagnostic)
        }
        guard var (result, measure) = folded else { return nil }
        result.range = number.range
        result.mentionsPi = number.mentionsPi
        return (result, measure == .duration)
    }

    /// `tween` with its parameters replaced by their arguments and its named values by their values.
    mutating func substituted(_ tween: TweenSyntax) -> TweenSyntax? {
        var result = tween
        if case .view(let name, let range) = tween.target, let bound = frame?.arguments[name] {
            switch bound {
            case .view(let view): result.target = .view(view, range)
            case .allViews: result.target = .allViews(range)
            case .term, .value:
                _ = wrongKind(name, bound.article, .target, at: range)
                return nil
            }
        }
        let kind: ParameterKind = tween.verb == .color ? .color : tween.verb == .move ? .point : tween.verb == .animate ? .value : .number
        func concrete(_ value: ValueSyntax, _ lowerer: inout Lowerer) -> ValueSyntax? {
            switch value {
            case .number(let number) where number.formula != nil:
                if let (name, range) = number.bareName {
                    switch lowerer.lookUp(name, at: range, expected: kind) {
                    case .number(let value)?: return .number(Number(exact: value.exact, value: value.value, range: range))
                    case .color(let color)?: return .color(ColorSyntax(color, range: range))
                    case .point(let x, let y)?: return .point(x: x, y: y, range: range)
                    case .duration?, .easing?, nil: return nil
                    }
                }
                return lowerer.fold(number, context: .number).map { .number($0.0) }
            case .point(let x, let y, let range) where x.formula != nil || y.formula != nil:
                guard let (fx, _) = lowerer.fold(x, context: .number), let (fy, _) = lowerer.fold(y, context: .number) else { return nil }
                return .point(x: fx, y: fy, range: range)
            case .number, .point, .color:   // written out: nothing to substitute
                return value
            }
        }
        guard let mapped = result.mappingValues({ concrete($0, &self) }) else { return nil }
        result = mapped
        return result
    }

    /// Whether a tween needs ``substituted(_:)``: it names a value, or a parameter may be its target.
    // (`mutating` though it changes nothing: a non-mutating method called from a mutating one
    // gets a copy of the whole lowerer; `inout` passes it by address.)
    mutating func needsSubstitution(_ tween: TweenSyntax) -> Bool {
        if frame != nil, case .view(let name, _) = tween.target, frame?.arguments[name] != nil { return true }
        func named(_ value: ValueSyntax?) -> Bool {
            switch value {
            case .number(let number)?: return number.formula != nil
            case .point(let x, let y, _)?: return x.formula != nil || y.formula != nil
            case .color?, nil: return false
            }
        }
        // (The fields read in place: ``TweenSyntax/containsValue(where:)`` makes an array.)
        if named(tween.from) || named(tween.to) || named(tween.by) { return true }
        guard case .some(let keyframes) = tween.keyframes else { return false }
        return keyframes.contains { named($0.value) }
    }

    // MARK: Calls

    /// `NAME(A1, …)`: the body of `let NAME(P1, …)` with each parameter
    /// standing for its argument (read here), expanded once per distinct
    /// arguments. Mistakes inside the body are reported at the call, with a
    /// note at the body.
    mutating func lowerCall(_ name: String, _ given: [Expr], _ expr: Expr) -> Term? {
        let at = expr.modifier == .none ? expr.range : expr.modifier
        guard let binding = resolved.bindings[name] else { return nil }   // reported by the resolver
        guard let parameters = binding.parameters else {
            diagnostics.append(Diagnostic(.notCallable(name), at: at, hint: "`\(name)` is a `let` without parameters: write `\(name)` alone"))
            return nil
        }
        guard let kinds = resolved.parameterKinds[name] else { return nil }   // its parameters' kinds are in error
        let required = parameters.filter { $0.defaultValue == nil }.count
        guard given.count >= required, given.count <= parameters.count else {
            let count = parameters.count
            let expected = required == count ? "\(count) argument\(count == 1 ? "" : "s")"
                : count == required + 1 ? "\(required) or \(count) arguments" : "\(required) to \(count) arguments"
            let signature = "\(name)(" + parameters.map { $0.name + ($0.defaultValue == nil ? "" : " = …") }.joined(separator: ", ") + ")"
            diagnostics.append(Diagnostic(.argumentCount(name, expected: expected, given: given.count), at: expr.range,
                                          hint: "it is declared `\(signature)`", notes: [.init(.definedWithParameters(name, count: count), at: binding.nameRange)]))
            return nil
        }
        var arguments: [String: Bound] = [:]
        var list: [Bound] = []
        for (index, parameter) in parameters.enumerated() {
            let kind = index < kinds.count ? kinds[index] : nil
            let argument: Bound?
            if index < given.count {
                argument = bind(given[index], kind: kind, callee: (name, parameter.name))
            } else if let fallback = parameter.defaultValue {
                let outer = frame
                frame = nil
                let before = diagnostics.count
                argument = bind(fallback, kind: kind, callee: (name, parameter.name))
                frame = outer
                // A default is read in the file's scope, the same at every call: its mistake is told once.
                if diagnostics.count > before, diagnostics[..<before].contains(diagnostics[before]) { diagnostics.removeSubrange(before...) }
            } else {
                argument = nil
            }
            guard let argument else { return nil }
            arguments[parameter.name] = argument
            list.append(argument)
        }
        let key = name + "(" + list.map(\.key).joined(separator: ",") + ")"
        if let done = expansions[key] {
            diagnostics += done.diagnostics.map { moved($0, to: expr.range, body: name) }
            return done.term
        }
        guard callDepth < maxCallDepth else {
            diagnostics.append(Diagnostic(.callsTooDeep(limit: maxCallDepth), at: expr.range,
                                          hint: "each call expands its body in place; call fewer `let`s inside one another"))
            return nil
        }
        guard expansions.count < maxCallExpansions else {
            diagnostics.append(Diagnostic(.expansionTooLarge(limit: maxCallExpansions), at: expr.range,
                                          hint: "calls that pass a call to another double what they expand; repeat with `^ N` instead"))
            return nil
        }
        let outer = frame
        let before = diagnostics.count
        frame = Frame(binding: name, arguments: arguments)
        callDepth += 1
        callSites.append(expr.range)
        let term = lower(binding.value)
        callSites.removeLast()
        callDepth -= 1
        frame = outer
        // One mistake once at the call, though the body meets it twice (`in d ; … in d`).
        var seen: Set<String> = []
        let inside = diagnostics[before...].filter { seen.insert($0.id + "\u{0}" + $0.message).inserted }
        diagnostics.removeSubrange(before...)
        expansions[key] = Expansion(term: term, diagnostics: inside, arguments: list)
        diagnostics += inside.map { moved($0, to: expr.range, body: name) }
        return term
    }

    /// A diagnostic from inside the body of `body`, moved to the call at `range`, with a note where it was.
    private func moved(_ diagnostic: Diagnostic, to range: SourceRange, body: String) -> Diagnostic {
        var result = diagnostic
        result.range = range
        // The body it is in, and the innermost places: a long chain of calls would bury the rest.
        result.notes = [Diagnostic.Note(.inBody(body), at: diagnostic.range)] + diagnostic.notes.prefix(2)
        return result
    }

    /// What an argument stands for as a parameter of `kind` (any, when the body does not use it).
    mutating func bind(_ argument: Expr, kind: ParameterKind?, callee: (name: String, parameter: String)) -> Bound? {
        switch kind {
        case .target?:
            switch argument.kind {
            case .name(let name):
                if let bound = frame?.arguments[name] {
                    switch bound {
                    case .view, .allViews: return bound
                    case .term, .value:
                        report(argument, found: bound.article, expected: .target, callee: callee)
                        return nil
                    }
                }
                return .view(name)
            case .value(.allViews):
                return .allViews
            case .value(let value):
                report(argument, found: valueArticle(value), expected: .target, callee: callee)
                return nil
            case .zero, .one, .wait, .tween, .parallel, .sequence, .power, .reversed, .looped, .repeated, .delayed, .retimed, .eased, .emit,
                 .staggered, .forever, .call, .easedByName, .overlapping, .played:
                report(argument, found: ParameterKind.animation.article, expected: .target, callee: callee)
                return nil
            }
        case .animation?:
            if case .value(let value) = argument.kind {
                report(argument, found: valueArticle(value), expected: .animation, callee: callee)
                return nil
            }
            return lower(argument).map(Bound.term)
        case let kind?:
            return value(of: argument, expected: kind, callee: callee).map(Bound.value)
        case nil:
            if case .name(let name) = argument.kind {
                if let bound = frame?.arguments[name] { return bound }
                if let binding = resolved.bindings[name] {
                    if namesValue(binding) { return valueOfBinding(name).map(Bound.value) }
                    return lower(argument).map(Bound.term)
                }
                return .view(name)
            }
            if case .value(.allViews) = argument.kind { return .allViews }
            if case .value = argument.kind { return value(of: argument, expected: nil, callee: callee).map(Bound.value) }
            return lower(argument).map(Bound.term)
        }
    }

    /// "a number", "a colour", … for a value written out.
    func valueArticle(_ value: ValueExpr) -> String {
        switch value {
        case .plain(.number): return ParameterKind.number.article
        case .plain(.color): return ParameterKind.color.article
        case .plain(.point): return ParameterKind.point.article
        case .duration: return ParameterKind.duration.article
        case .easing: return ParameterKind.easing.article
        case .allViews: return ParameterKind.target.article
        }
    }

    /// The term of `expr`, or `nil` after reporting why not (or when it uses
    /// a binding that has no term).
    private mutating func lower(_ expr: Expr) -> Term? {
        // A body nests as deep as the parser allows, and calls nest bodies in
        // one another: bound the whole depth, so the stack cannot run out.
        nesting += 1
        defer { nesting -= 1 }
        if nesting > maxExpandedNesting, callDepth > 0 {
            diagnostics.append(Diagnostic(.nestingTooDeep(limit: maxExpandedNesting), at: callSites.last ?? expr.range,
                                          hint: "the bodies of the calls here, written out, nest this deep; split them into several `let`s"))
            return nil
        }
        switch expr.kind {
        case .name(let name):
            if let bound = frame?.arguments[name] {
                if case .term(let term) = bound { return term }
                _ = wrongKind(name, bound.article, .animation, at: expr.range)
                return nil
            }
            // Most often the binding just lowered (`let c5 = c4 ; …`): no look-up by name, which
            // in a table of many names is a miss in the cache.
            if case .some(let last) = lastLowered, last.name == name { return last.term }
            if let number = resolved.bindings.index(forKey: name), terms.indices.contains(number), let term = terms[number] { return term }
            if let binding = resolved.bindings[name] {
                if binding.parameters != nil {
                    diagnostics.append(Diagnostic(.needsArguments(name), at: expr.range,
                                                  hint: "call it with its arguments: `\(name)(…)`"))
                } else if namesValue(binding), let value = valueOfBinding(name) {
                    _ = wrongKind(name, value.kind.article, .animation, at: expr.range)
                }
            }
            return nil
        case .call(let name, let given):
            return lowerCall(name, given, expr)
        case .easedByName(let inner, let name, let range):
            guard case .easing(let easing)? = lookUp(name, at: range, expected: .easing) else { return nil }
            return lower(Expr(.eased(inner, easing, range), range: expr.range, modifier: expr.modifier))
        case .value(let value):
            diagnostics.append(Diagnostic(.expectedExpression(after: nil, found: .text(valueArticle(value))), at: expr.range))
            return nil
        case .zero:
            return Term.zero
        case .one:
            return Term.one
        case .wait(let duration):
            guard let time = seconds(duration) else { return nil }
            return built(.wait, expr.range) { () throws(AnimationError) in try Term.wait(time) }
        case .tween(let tween):
            guard needsSubstitution(tween) else { return lowerTween(tween, range: expr.range) }
            return substituted(tween).flatMap { lowerTween($0, range: expr.range) }
        case .parallel(var parts):
            return lowerChain(&parts, parallel: true, range: expr.range, taking: false)
        case .sequence(var parts):
            return lowerChain(&parts, parallel: false, range: expr.range, taking: false)
        case .power(let inner, let count), .repeated(let inner, let count):
            if let fraction = count.fraction {
                guard let body = lower(inner) else { return nil }
                return fractionalPower(body, fraction, expr)
            }
            // The parser reported every count that is not valid.
            guard let body = lower(inner), let n = whole(count) else { return nil }
            return built(.power, expr.range) { () throws(AnimationError) in try Term.power(body, n) }
        case .played(let inner, let from, let to):
            guard let body = lower(inner) else { return nil }
            return lowerPlayed(body, from: from, to: to, expr)
        case .looped(let inner, let count):
            guard let body = lower(inner), let n = whole(count), finite(body, expr, "loop"), reversible(body, expr, "loop") else { return nil }
            let back = record(Term.reversed(body), .looped, expr.range)
            guard let there = built(.looped, expr.range, { () throws(AnimationError) in try Term.sequence([body, back]) }) else { return nil }
            return built(.looped, expr.range) { () throws(AnimationError) in try Term.power(there, n) }
        case .reversed(let inner):
            guard let body = lower(inner), finite(body, expr, "reverse"), reversible(body, expr, "reverse") else { return nil }
            return record(Term.reversed(body), .reversed, expr.range)
        case .delayed(let inner, let duration):
            guard let body = lower(inner), let delay = seconds(duration) else { return nil }
            guard let wait = built(.delayed, expr.range, { () throws(AnimationError) in try Term.wait(delay) }) else { return nil }
            return built(.delayed, expr.range) { () throws(AnimationError) in try Term.sequence([wait, body]) }
        case .retimed(let inner, let duration):
            return lowerRetimed(inner, duration, expr)
        case .emit(let name):
            return Term.event(name)
        case .overlapping(let inner, let duration):
            // Not a part of a `;` chain after its first (those ``lowerChain`` reads): `(b overlapping by D)`, a `let` of one.
            _ = lower(inner)
            _ = seconds(duration)
            diagnostics.append(Diagnostic(.overlapWithoutBefore(first: false), at: expr.modifier == .none ? expr.range : expr.modifier,
                                          hint: "write it after `;` in a chain: `a ; b overlapping by 0.2s`"))
            return nil
        case .staggered(let inner, let duration, let how):
            guard let body = lower(inner), let step = seconds(duration) else { return nil }
            var spacing = how.spacing
            if let name = how.spacingName {
                guard case .easing(let easing)? = lookUp(name, at: how.spacingRange, expected: .easing) else { return nil }
                spacing = easing
            }
            let stagger = Stagger(how.over ? .over(step) : .by(step), from: how.origin, spaced: spacing)
            if spacing != nil {
                // An easing that dips below 0 would start a view before the stagger does: said at `spaced E`.
                do {
                    _ = try stagger.offsets(count: body.viewsWithSegments.count)
                } catch .negativeDuration {
                    let written = "spaced " + (how.spacingName ?? spacing.map(EasingNames.spelling(of:)) ?? "")
                    diagnostics.append(Diagnostic(.staggerNegativeOffset(written), at: how.spacingRange == .none ? expr.range : how.spacingRange,
                                                  hint: "space the offsets with an easing that stays at or above 0, such as ease-in-out"))
                    return nil
                } catch {}
            }
            if body.duration != nil || body.isInfinite, !body.hasViewsWithSegments {
                diagnostics.append(Diagnostic(.staggerNothing, at: expr.modifier == .none ? expr.range : expr.modifier,
                                              hint: "`staggered by` shifts each view's tweens, one view after another; "
                                                + "this animation has none, so it stays as it is"))
            }
            let order = resolved.mentionOrder
            return built(.staggered, expr.range) { () throws(AnimationError) in try body.staggered(stagger, order: order) }
        case .forever(let inner, let looped):
            guard let body = lower(inner) else { return nil }
            if body.duration?.isZero == true {
                diagnostics.append(Diagnostic(.animation(.foreverOfInstant), at: expr.modifier,
                                              hint: "it would repeat infinitely often in no time; give it something that takes time"))
                return nil
            }
            if looped {
                guard finite(body, expr, "loop"), reversible(body, expr, "loop") else { return nil }
                guard let there = built(.looped, expr.range, { () throws(AnimationError) in try Term.sequence([body, Term.reversed(body)]) })
                else { return nil }
                return Term.forever(there)
            }
            return Term.forever(body)
        case .eased(let inner, let easing, let easingRange):
            guard let body = lower(inner) else { return nil }
            guard finite(body, expr, "ease") else { return nil }
            let origin = Origin(construct: .eased, range: expr.range, detail: easingRange)
            // On a tween, `with E` composes E into the tween's own easing.
            if let leaf = body.easedLeaf(easing) {
                if case .tween(let tween) = leaf.kind, tween.easing.depth > Easing.maxDepth {
                    diagnostics.append(evaluationDiagnostic(.invalidEasing("easings compose more than \(Easing.maxDepth) deep"), origin: origin))
                    return nil
                }
                return replacingLeaf(body, with: leaf, range: expr.range)
            }
            let term = Term.eased(body, easing)
            origins[ObjectIdentifier(term)] = origin
            located.append(term)
            if case .tween(let tween) = inner.kind, (tween.keyframes?.count ?? 0) > 2 {
                origins[ObjectIdentifier(term)]?.easesKeyframes = true
            }
            return term
        }
    }

    /// `inner in duration`, written as `expr` (a `retimed` node).
    private mutating func lowerRetimed(_ inner: Expr, _ duration: Duration, _ expr: Expr) -> Term? {
        // A tween retimed (`tween in d`, most tweens): lowered at its length
        // at once, as `lower(inner)` would (its depth within bounds), then retimed.
        let lowered: Term?
        if case .tween(let tween) = inner.kind, nesting < maxExpandedNesting || callDepth == 0, !needsSubstitution(tween) {
            var applied = false
            lowered = lowerTween(tween, range: inner.range, retimed: Retiming(duration: duration, range: expr.range), applied: &applied)
            if applied { return lowered }
        } else {
            lowered = lower(inner)
        }
        guard let body = lowered, let target = seconds(duration), finite(body, expr, "retime") else { return nil }
        // A tween lasts what `in` says: `tween in d` is the tween of length d.
        if let leaf = body.retimedLeaf(to: target) { return replacingLeaf(body, with: leaf, range: expr.range) }
        guard let term = built(.retimed, expr.range, detail: duration.range, { () throws(AnimationError) in try Term.retimed(body, to: target) }) else {
            return nil
        }
        origins[ObjectIdentifier(term)]?.target = target
        return term
    }

    /// `x ^ r`, `x repeated r times` for a count `r` that is not whole:
    /// `(x ^ ⌈r⌉) played to r·|x|` (docs/semantics.md §8.5).
    private mutating func fractionalPower(_ body: Term, _ count: Time, _ expr: Expr) -> Term? {
        // An endless animation's later copies never start; a cancelled one stays cancelled.
        guard let length = body.duration else { return body }
        let copies = Int(clamping: count.floorQuotient(dividingBy: .one) + 1)
        return built(.power, expr.range) { () throws(AnimationError) in
            try Term.played(try Term.power(body, copies), from: .zero, to: try length.multiplied(by: count))
        }
    }

    /// `body played from T1 to T2` (`from` or `to` may be missing: 0 and `|x|`).
    private mutating func lowerPlayed(_ body: Term, from: PartTime?, to: PartTime?, _ expr: Expr) -> Term? {
        let place = expr.modifier == .none ? expr.range : expr.modifier
        func time(_ written: PartTime) -> Time? {
            switch written.kind {
            case .duration(let duration):
                return seconds(duration)
            case .percent(let number):
                guard let (folded, _) = fold(number, context: .number) else { return nil }
                guard let exact = folded.exact else {
                    diagnostics.append(Diagnostic(.invalidPart("\(formatNumber(folded.value))% is not an exact percentage"), at: written.range,
                                                  hint: "write the percentage as a decimal, `40%`, or give the time, `0.4s`"))
                    return nil
                }
                guard !exact.isNegative else {
                    diagnostics.append(Diagnostic(.invalidPart("a part starts at 0% or later, not \(formatNumber(folded.value))%"), at: written.range,
                                                  hint: "`played from 0% to 40%` plays the first 40% of the animation"))
                    return nil
                }
                if body.isInfinite {
                    diagnostics.append(Diagnostic(.invalidPart("an animation that repeats forever has no length to take \(formatNumber(folded.value))% of"),
                                                  at: written.range, hint: "give the time instead: `played from 0s to 3s`"))
                    return nil
                }
                guard let length = body.duration else { return .zero }
                if length.isZero {
                    diagnostics.append(Diagnostic(.invalidPart("the animation lasts 0s, so \(formatNumber(folded.value))% of it says nothing"),
                                                  at: written.range, hint: "a part of an instant is the instant: drop `played`, or give a time"))
                    return nil
                }
                guard let fraction = try? exact.divided(by: Time(100)), let result = try? length.multiplied(by: fraction) else {
                    diagnostics.append(Diagnostic(.timeOverflow, at: written.range, hint: "exact time uses 64-bit fractions; use a simpler percentage"))
                    return nil
                }
                return result
            }
        }
        var start = Time.zero, end: Time
        if let from {
            guard let value = time(from) else { return nil }
            start = value
        }
        if let to {
            guard let value = time(to) else { return nil }
            end = value
        } else if let length = body.duration {
            end = length
        } else if body.isInfinite {
            // (The end in the hint is an example: where start + 2 s overflows exact time, the start itself serves.)
            diagnostics.append(Diagnostic(.invalidPart("an animation that repeats forever has no end to play to"), at: place,
                                          hint: "say where the part ends: `played from \(start)s to \((try? start.adding(Time(2))) ?? start)s`"))
            return nil
        } else {
            return Term.zero
        }
        if end < start {
            diagnostics.append(Diagnostic(.invalidPart("the part ends at \(end)s, before it starts at \(start)s"), at: to?.range ?? place,
                                          hint: "write the earlier time first: `played from \(end)s to \(start)s`; to play it backwards, add `reversed`"))
            return nil
        }
        return built(.power, expr.range) { () throws(AnimationError) in try Term.played(body, from: start, to: end) }
    }

    /// Whether `body` ends; if not, reports that `operation` needs an end.
    private mutating func finite(_ body: Term, _ expr: Expr, _ operation: String) -> Bool {
        guard body.isInfinite else { return true }
        diagnostics.append(Diagnostic(.animation(.infinite(operation)), at: expr.modifier == .none ? expr.range : expr.modifier,
                                      hint: "apply it to the part that repeats, before `repeated forever`"))
        return false
    }

    /// Whether `body` can play backwards; if it holds a `to` tween (which
    /// has no start to return to, docs/semantics.md §7.1), reports that at the modifier.
    private mutating func reversible(_ body: Term, _ expr: Expr, _ operation: String) -> Bool {
        guard body.hasRelativeTo else { return true }
        let property = body.firstRelativeTo ?? Property(view: "", name: "")
        diagnostics.append(Diagnostic(.relativeReversed(operation: operation, property: property.description),
                                      at: expr.modifier == .none ? expr.range : expr.modifier,
                                      hint: "a tween `to` a value starts wherever the property is, so backwards it has nowhere to end; "
                                        + "write it `from A to B`, or move it `by` an amount"))
        return false
    }

    /// ``lower(_:)`` of an expression its caller gives up (``lower(taking:)``):
    /// a `;` or `||` chain is lowered operand by operand, each operand's
    /// syntax freed once it is lowered (when `expr` held the only reference);
    /// anything else as ``lower(_:)`` does. `expr` is left `one`.
    private mutating func lower(taking expr: inout Expr) -> Term? {
        var kind = expr.kind
        let range = expr.range, modifier = expr.modifier
        expr = Expr(.one, range: range)
        switch kind {
        case .sequence(var parts), .parallel(var parts):
            let parallel: Bool
            if case .parallel = kind { parallel = true } else { parallel = false }
            kind = .one   // `parts` now holds the operands alone
            // As ``lower(_:)`` counts the chain's level.
            nesting += 1
            defer { nesting -= 1 }
            return lowerChain(&parts, parallel: parallel, range: range, taking: true)
        case .name, .zero, .one, .wait, .tween, .power, .reversed, .looped, .repeated, .delayed, .retimed, .eased, .emit, .staggered,
             .forever, .call, .easedByName, .value, .overlapping, .played:
            return lower(Expr(kind, range: range, modifier: modifier))
        }
    }

    /// `parts[0] ; parts[1] ; …` or `parts[0] || parts[1] || …` written at
    /// `range`. `taking`: each operand is replaced by `one` (its range kept)
    /// before it is lowered, so its syntax is freed once lowered when `parts` held the only reference.
    private mutating func lowerChain(_ parts: inout [Expr], parallel: Bool, range: SourceRange, taking: Bool) -> Term? {
        var terms: [Term] = []
        terms.reserveCapacity(parts.count)
        var failed = false
        /// The parts written `pk overlapping by D` (docs/semantics.md §8.1): where, and D's clause.
        var overlaps: [(index: Int, part: Expr)] = []
        for index in parts.indices {
            let term: Term?
            if !parallel, case .overlapping(let inner, _) = parts[index].kind,
               parts[index].modifier.end == parts[index].range.end {
                overlaps.append((index, parts[index]))
                term = lower(inner)
                if index == 0 {
                    failed = true
                    diagnostics.append(Diagnostic(.overlapWithoutBefore(first: true), at: parts[index].modifier,
                                                  hint: "the first part starts the chain; overlap a later part with the ones before it"))
                }
            } else if taking {
                // Swapped out, not copied and overwritten: no retain and release of each operand.
                var part = Expr(.one, range: parts[index].range)
                swap(&part, &parts[index])
                term = lower(part)
            } else {
                term = lower(parts[index])
            }
            if let term { terms.append(term) } else { failed = true }
        }
        if failed { return nil }
        if parallel { return record(Term.parallel(terms), .parallel, range) }
        if !overlaps.isEmpty { return lowerOverlaps(terms, overlaps, range: range) }
        // `(x forever) ; y`: y never starts (unless a cancelled part cancels it all).
        if let endless = terms.firstIndex(where: \.isInfinite), endless + 1 < parts.count,
           !terms.contains(where: { $0.duration == nil && !$0.isInfinite }) {
            let rest = parts[endless + 1].range.union(parts[parts.count - 1].range)
            diagnostics.append(Diagnostic(.neverStarts, at: rest, hint: "to run it beside the endless part, use `||`"))
        }
        return built(.sequence, range) { () throws(AnimationError) in try Term.sequence(terms) }
    }

    /// A `;` chain some of whose parts overlap the parts before them
    /// (docs/semantics.md §8.1), its parts lowered: each overlap's D checked against
    /// the chain so far, where it is written, then ``Term/chain(_:)``.
    private mutating func lowerOverlaps(_ terms: [Term], _ overlaps: [(index: Int, part: Expr)], range: SourceRange) -> Term? {
        var parts: [(part: Term, overlap: Time?)] = terms.map { ($0, nil) }
        var failed = false
        for (index, part) in overlaps {
            guard case .overlapping(_, let duration) = part.kind, let overlap = seconds(duration) else {
                failed = true
                continue
            }
            parts[index].overlap = overlap
        }
        if failed { return nil }
        // The chain so far, as ``Term/chain(_:)`` builds it, to say which D is too long and where.
        var end = Time.zero
        var endless = false
        for (index, part) in parts.enumerated() {
            if let overlap = part.overlap, let clause = overlaps.first(where: { $0.index == index })?.part {
                if endless {
                    diagnostics.append(Diagnostic(.overlapAfterEndless, at: clause.modifier,
                                                  hint: "the parts before it repeat forever; run it beside them with `||`"))
                    return nil
                }
                if end < overlap {
                    diagnostics.append(Diagnostic(.overlapTooLong(overlap: overlap.description, before: end.description), at: clause.modifier,
                                                  hint: "overlap by at most \(end.description)s, or delay the parts before it instead"))
                    return nil
                }
                guard let start = try? end.subtracting(overlap) else { break }
                if part.part.isInfinite { endless = true } else if let length = part.part.duration, let stop = try? start.adding(length) { end = max(end, stop) }
            } else if !endless {
                if part.part.isInfinite { endless = true } else if let length = part.part.duration, let stop = try? end.adding(length) { end = stop }
            }
        }
        return built(.sequence, range) { () throws(AnimationError) in try Term.chain(parts) }
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
            located.append(term)
        case .tween:
            if case .tween = term.kind { tweens.append(PlacedTween(term, range)) }
        case .wait, .sequence, .parallel, .power, .looped, .reversed, .delayed, .staggered:
            break
        }
        return term
    }

    /// Records the tween leaf `leaf` written at `range` (what ``record(_:_:_:detail:)`` does for it, without reading its kind).
    private mutating func recordedLeaf(_ leaf: Term, _ range: SourceRange) -> Term {
        tweens.append(PlacedTween(leaf, range))
        return leaf
    }

    /// Records `leaf`, which `x in DUR` or `x with E` made of the tween leaf
    /// `body`, in place of `body` (recorded just before, and now dropped).
    private mutating func replacingLeaf(_ body: Term, with leaf: Term, range: SourceRange) -> Term {
        if let last = tweens.last, last.term === body { tweens.removeLast() }
        return record(leaf, .tween, range)
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

    /// A tween: one leaf per target view and property (`move` animates `x`
    /// and `y`), each the sequence of its keyframes' pieces (`from A to B` is
    /// one piece), lasting 1 s in all. (Read through ``TweenSyntax/stop(_:)``:
    /// most tweens are one piece on one view, and lowering them makes no array.)
    ///
    /// `retimed`: the `in DUR` written on the tween, when the tween is one
    /// leaf: its length is then found once the tween is checked, and the
    /// leaf built at that length (``Animations/Tween/retimed(to:)``, the law
    /// of ``Animations/Term/retimedLeaf(to:)``), recorded at `retimed.range`,
    /// the whole `x in DUR`, and `applied` set; other tweens come back as
    /// they are, for `in` to retime.
    private mutating func lowerTween(_ tween: TweenSyntax, range: SourceRange) -> Term? {
        var applied = false
        return lowerTween(tween, range: range, retimed: .none, applied: &applied)
    }

    private mutating func lowerTween(_ tween: TweenSyntax, range: SourceRange,
                                     retimed: Retiming, applied: inout Bool) -> Term? {
        var single: String?
        var views: [String] = []
        switch tween.target {
        case .view(let name, _):
            single = name
        case .allViews(let targetRange):
            views = resolved.views
            if views.isEmpty {
                diagnostics.append(Diagnostic(.noViews, at: targetRange, hint: "declare one with `view NAME`, or name it in a tween"))
                return nil
            }
        }
        guard let count = tween.stopCount else {
            diagnostics.append(Diagnostic(.incompleteTween, at: range))
            return nil
        }
        // Each stop's value as written, read from the syntax once (the checks
        // below and the values read these copies, not the tween again).
        var written = WrittenStops()
        for stop in 0..<count { written.append(WrittenStop(tween.stopValue(stop))) }
        // The parser reported `through` with one value. A relative tween has one value: its end, or its change.
        let relative = tween.relative
        let resolvedProperty = tween.resolvedProperty
        guard count >= 2 || relative != .absolute,
              let kind = valueKind(verb: tween.verb, property: resolvedProperty, stops: written) else { return nil }
        if relative == .by, kind == .color, let by = tween.by {
            diagnostics.append(Diagnostic(.animation(.relativeColor(Property(view: single ?? views.first ?? "", name: resolvedProperty))),
                                          at: by.range, hint: "colours go `to` a colour: write `to` and the colour to end on, e.g. `color V to gold`"))
            return nil
        }
        // `move` splits points into `x` and `y`; `animate` keeps a point one value, which goes `to` a point but not `by` one.
        let split = kind == .point && tween.verb == .move
        if relative == .by, kind == .point, !split, let by = tween.by {
            diagnostics.append(Diagnostic(.valueKind(verb: tween.verb.rawValue, expected: "a number after `by`", found: kind.article),
                                          at: by.range, hint: "a point goes `to` a point: write `to` and the point to end on, "
                                              + "e.g. `animate V.\(resolvedProperty) to (4, 8)`"))
            return nil
        }
        guard let lengths = relative == .absolute ? pieceLengths(tween, count: count) : .equal(.one, count: 1) else { return nil }
        var shape = TweenShape(property: resolvedProperty, split: split, unit: tween.verb == .rotate ? tween.angleUnit : nil,
                               relative: relative, stops: consume written, lengths: consume lengths)
        if case .some(let keyframes) = tween.keyframes, keyframes.contains(where: \.isEased) {
            var easings: [Easing?] = []
            for keyframe in keyframes {
                guard let name = keyframe.easingName else {
                    easings.append(keyframe.easing)
                    continue
                }
                guard case .easing(let easing)? = lookUp(name, at: keyframe.easingNameRange, expected: .easing) else { return nil }
                easings.append(easing)
            }
            shape.easings = easings
        }
        // Finite as written, a number can overflow as an angle (`1e307 turns`).
        for stop in 0..<count {
            for channel in 0..<shape.channels where !shape.value(stop, channel: channel).isFinite {
                diagnostics.append(Diagnostic(.notFiniteTween, at: range))
                return nil
            }
        }
        if let single, shape.channels == 1 { return channelTerm(shape, view: single, channel: 0, range: range, retimed: retimed, applied: &applied) }
        var parts: [Term] = []
        for view in single.map({ [$0] }) ?? views {
            for channel in 0..<shape.channels {
                guard let term = channelTerm(shape, view: view, channel: channel, range: range, retimed: .none, applied: &applied) else { return nil }
                parts.append(term)
            }
        }
        return record(Term.parallel(parts), .tween, range)
    }

    /// The term of one view and channel of a tween written at `range`: a
    /// leaf, or the sequence of the keyframes' pieces; with `retimed` (a
    /// tween of one piece on one view and channel, see ``lowerTween(_:range:)``),
    /// the leaf at the length `in` asks for.
    private mutating func channelTerm(_ shape: TweenShape, view: String, channel: Int, range: SourceRange,
                                      retimed: Retiming, applied: inout Bool) -> Term? {
        let property = Property(view: view, name: shape.split ? (channel == 0 ? "x" : "y") : shape.property)
        guard checkKind(shape.value(0, channel: channel).kind, of: property, at: shape.stops[0].range) else { return nil }
        if shape.lengths.count == 1, retimed.isWritten {
            // What `lower` does with `(tween) in DUR`, without the leaf of length 1 in between.
            applied = true
            // A duration written without names has its length found with no
            // effect but its diagnostics (taken back when the leaf fails,
            // which is reported alone, as before): found first, the leaf is
            // then built at that length at once, which is what retiming the
            // leaf of length 1 gives (``Animations/Tween/retimed(to:)``).
            let early: Bool
            if case .none = retimed.duration.number.formula { early = true } else { early = false }
            let before = diagnostics.count
            var target = early ? seconds(retimed.duration) : nil
            let direct = shape.lengths[0] == .one && target.map { !$0.isNegative } ?? false
            let made: Animations.Tween
            do {
                made = try shape.leaf(property, channel: channel, index: 0, duration: direct ? target : nil)
            } catch {
                if early { diagnostics.removeSubrange(before...) }
                diagnostics.append(evaluationDiagnostic(error, origin: Origin(construct: .tween, range: range)))
                return nil
            }
            // (Moved into the leaf, `consume`: not copied, then destroyed.)
            if direct { return recordedLeaf(Term.tween(consume made), retimed.range) }
            if !early { target = seconds(retimed.duration) }
            guard let target else { return nil }
            if let retimedTween = made.retimed(to: target) { return recordedLeaf(Term.tween(retimedTween), retimed.range) }
            let body = recordedLeaf(Term.tween(consume made), range)
            guard let term = built(.retimed, retimed.range, detail: retimed.duration.range,
                                   { () throws(AnimationError) in try Term.retimed(body, to: target) }) else { return nil }
            origins[ObjectIdentifier(term)]?.target = target
            return term
        }
        if shape.lengths.count == 1 {
            return built(.tween, range) { () throws(AnimationError) in Term.tween(try shape.leaf(property, channel: channel, index: 0)) }
        }
        var pieces: [Term] = []
        for index in 0..<shape.lengths.count {
            guard let leaf = built(.tween, range, { () throws(AnimationError) in Term.tween(try shape.leaf(property, channel: channel, index: index)) })
            else { return nil }
            pieces.append(leaf)
        }
        return built(.tween, range) { () throws(AnimationError) in try Term.sequence(pieces) }
    }

    /// The kind of value a tween's stops hold, checked against its verb:
    /// numbers for `fade`, `scale`, `rotate` …, colours for `color`, points
    /// for `move`, numbers or colours (one kind) for `animate`, or points
    /// on a property the exports do not draw (docs/exports.md §1).
    private mutating func valueKind(verb: TweenSyntax.Verb, property resolvedProperty: String,
                                    stops: WrittenStops) -> ValueSyntaxKind? {
        // A property the exports draw as a number (a position, a size, an
        // angle, an opacity) takes numbers whatever the verb. (Looked up
        // only for a point or a colour: most tweens animate numbers.)
        func drawn() -> Bool { Drawing.properties.contains(resolvedProperty) }
        func drawnNumber() -> Bool { drawn() && !Drawing.colors.contains(resolvedProperty) }
        func accepts(_ kind: ValueSyntaxKind) -> Bool {
            switch verb {
            case .shrink, .grow, .scale, .rotate, .fade, .fadeIn, .fadeOut: return kind == .number
            case .color: return kind == .color
            case .move: return kind == .point
            case .animate: return kind != .point || !drawn()
            }
        }
        var chosen: ValueSyntaxKind?
        for index in 0..<stops.count {
            let kind = stops[index].kind
            if kind == chosen { continue }   // (what the checks below find for it)
            /// Where the stop is written (read only to report it).
            func written() -> SourceRange { stops[index].range }
            if let chosen, kind != chosen, accepts(kind) {
                diagnostics.append(Diagnostic(.valueKind(verb: verb.rawValue, expected: "values of one kind", found: "\(chosen.article) and \(kind.article)"),
                                              at: written(),
                                              hint: "the values of one tween are all of one kind, and this one starts with \(chosen.article)"))
                return nil
            }
            guard accepts(kind) else {
                let wanted = [ValueSyntaxKind.number, .color, .point].filter(accepts).map(\.plural).joined(separator: " or ")
                let drawnPoint = kind == .point && verb == .animate
                diagnostics.append(Diagnostic(.valueKind(verb: verb.rawValue, expected: drawnPoint && drawnNumber() ? "numbers for `\(resolvedProperty)`" : wanted,
                                                         found: kind.article),
                                              at: written(),
                                              hint: drawnPoint ? "`\(resolvedProperty)` is drawn; points go on properties that are not drawn; "
                                                  + kind.hint(for: verb) : kind.hint(for: verb)))
                return nil
            }
            if kind == .color, drawnNumber() {
                diagnostics.append(Diagnostic(.valueKind(verb: verb.rawValue, expected: "numbers for `\(resolvedProperty)`", found: kind.article),
                                              at: written(), hint: "`\(resolvedProperty)` is drawn as a number; colours go on `color` or `fill`"))
                return nil
            }
            chosen = kind
        }
        return chosen
    }

    private mutating func remember(_ property: Property, _ kind: Value.Kind) {
        if lastChecked.count == 4 { lastChecked.removeLast() }
        lastChecked.insert(CheckedKind(property: property, kind: kind), at: 0)
    }

    /// Checks that `property` keeps to one kind of value: the first place
    /// that gives it a value decides.
    private mutating func checkKind(_ kind: Value.Kind, of property: Property, at range: SourceRange) -> Bool {
        // (Compared in place: iterating copies each entry, its property's two names.)
        for index in lastChecked.indices where lastChecked[index].kind == kind && lastChecked[index].property == property { return true }
        guard let place = kinds[property] else {
            kinds[property] = KindPlace(kind: kind, range: range)
            remember(property, kind)
            return true
        }
        let first = place.kind, firstRange = place.range
        guard first != kind else {
            remember(property, kind)
            return true
        }
        diagnostics.append(Diagnostic(.mixedValueKinds(property: property.description, here: kind.article, first: first.article),
                                      at: range, hint: "animate colours and numbers on properties of their own",
                                      notes: firstRange == .none ? [] : [.init(.firstGivenKind(first.article), at: firstRange)]))
        return false
    }

    /// The exact length of each piece between consecutive stops (1 s in
    /// all): offsets written `at N%`, the first at 0 % and the last at 100 %,
    /// and the missing ones spread evenly between their known neighbours
    /// (CSS's rule). Reports offsets that are out of range, on the ends, or
    /// decreasing.
    private mutating func pieceLengths(_ tween: TweenSyntax, count: Int) -> PieceLengths? {
        // Most tweens: `from A to B`, or keyframes without offsets.
        guard let stops = tween.keyframes, stops.contains(where: { $0.offset != nil }) else {
            guard let piece = Time(numerator: 1, denominator: Int64(count - 1)) else { return nil }
            return .equal(piece, count: count - 1)
        }
        var offsets: [Time?] = Array(repeating: nil, count: stops.count)
        var failed = false
        var previous: Number?
        let hundred = Time(100)
        for (index, stop) in stops.enumerated() {
            guard let written = stop.offset else { continue }
            let text = "\(formatNumber(written.value))%"
            let onEnd = index == 0 || index == stops.count - 1
            guard written.value >= 0, written.value <= 100 else {
                diagnostics.append(Diagnostic(.keyframeOffsetRange(written: text), at: written.range,
                                              hint: "offsets are percentages of the tween, from 0% to 100%"))
                failed = true
                continue
            }
            if onEnd, written.value != (index == 0 ? 0 : 100) {
                diagnostics.append(Diagnostic(.keyframeOffsetOnEnd(first: index == 0, written: text), at: written.range,
                                              hint: "remove `at \(text)`; to start later or end earlier, hold a value with another keyframe"))
                failed = true
                continue
            }
            if let previous, written.value < previous.value {
                diagnostics.append(Diagnostic(.decreasingKeyframeOffset(written: text, previous: "\(formatNumber(previous.value))%"),
                                              at: written.range, hint: "list keyframes in the order they play; an equal offset makes a jump",
                                              notes: [.init(.earlierOffset, at: previous.range)]))
                failed = true
                continue
            }
            previous = written
            let exact = written.exact ?? Time(seconds: written.value)
            offsets[index] = exact.flatMap { try? $0.divided(by: hundred) }
            if offsets[index] == nil { failed = true }
        }
        if failed { return nil }
        offsets[0] = .zero
        offsets[stops.count - 1] = .one
        do {
            // Spread the missing offsets between known neighbours.
            var known = 0
            for index in 1..<stops.count {
                guard let end = offsets[index] else { continue }
                let gap = index - known
                if gap > 1, let start = offsets[known] {
                    let step = try end.subtracting(start).divided(by: Time(Int64(gap)))
                    for missing in (known + 1)..<index {
                        offsets[missing] = try start.adding(try step.multiplied(by: Int64(missing - known)))
                    }
                }
                known = index
            }
            var durations: [Time] = []
            for index in 0..<(stops.count - 1) {
                guard let a = offsets[index], let b = offsets[index + 1] else { return nil }
                durations.append(try b.subtracting(a))
            }
            return .listed(durations)
        } catch {
            diagnostics.append(Diagnostic(.timeOverflow, at: tween.range, hint: "write offsets with fewer digits"))
            return nil
        }
    }

    /// The exact length of a duration in seconds, or `nil` after reporting why not.
    private mutating func seconds(_ written: Duration) -> Time? {
        // Most durations are written without names: checked as they are, not copied.
        guard case .some = written.number.formula else { return checkedSeconds(written) }
        var duration = written
        if let (name, range) = duration.number.bareName {
            switch lookUp(name, at: range, expected: .duration) {
            case .duration(let time)?: return time
            case .number(let number)?: duration.number = Number(exact: number.exact, value: number.value, range: range)
            case .color?, .point?, .easing?, nil: return nil
            }
        } else {
            guard let (folded, isDuration) = fold(duration.number, context: .duration) else { return nil }
            if isDuration, duration.unit != .implicit {
                // (The first name the formula uses is the duration named; `…` stands for one written without a name.)
                let name = duration.number.formula?.names.first?.0 ?? "…"
                diagnostics.append(Diagnostic(.nameKind(name, found: ParameterKind.duration.article, expected: ParameterKind.number.article),
                                              at: duration.range, hint: "a named duration carries its unit: leave out `\(duration.unit.rawValue)`"))
                return nil
            }
            duration.number = folded
        }
        return checkedSeconds(duration)
    }

    /// The exact length of a duration whose number has no names, or `nil` after reporting why not.
    private mutating func checkedSeconds(_ duration: Duration) -> Time? {
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

extension Lowerer {
    /// A count's value: as the parser checked it, or, written with names, folded and checked here.
    mutating func whole(_ count: Count) -> Int? {
        guard count.number.formula != nil else { return count.value }
        guard let (number, _) = fold(count.number, context: .number) else { return nil }
        if let n = Count.whole(number) { return n }
        let text = formatNumber(number.value)
        let kind: DiagnosticKind = number.value < 0 ? .negativeCount(text)
            : number.value != number.value.rounded() ? .fractionalCount(text) : .countTooLarge(number.value)
        diagnostics.append(Diagnostic(kind, at: count.range))
        return nil
    }
}

/// The located diagnostic for an operation of the algebra that failed on a
/// term written at `origin` (while lowering, or while evaluating).
func evaluationDiagnostic(_ error: AnimationError, origin: Origin) -> Diagnostic {
    let range: SourceRange
    switch origin.construct {
    case .retimed, .eased: range = origin.detail ?? origin.range
    case .tween, .wait, .sequence, .parallel, .power, .looped, .reversed, .delayed, .staggered: range = origin.range
    }
    switch error {
    case .retimeOfInstant where origin.construct == .retimed:
        return Diagnostic(.retimeInstant(origin.target ?? .zero), at: range,
                          hint: "`in` scales every time by the new length over the old one; give it something that takes time, e.g. `wait 1s`")
    case .nonMonotoneWarp(let easing) where origin.construct == .eased:
        let spelling = EasingNames.spelling(of: easing)
        if origin.easesKeyframes {
            return Diagnostic(.nonMonotoneWarp(easing), at: range,
                              hint: "the pieces between keyframes do not span the whole tween; to ease each piece, "
                                + "write `with each \(spelling)` after the keyframes, or `with \(spelling)` after a keyframe for the piece leaving it")
        }
        return Diagnostic(.nonMonotoneWarp(easing), at: range,
                          hint: "overshooting curves work on a single tween: move `with \(spelling)` onto the tweens inside")
    case .overflow:
        return Diagnostic(.timeOverflow, at: range, hint: "exact time uses 64-bit fractions; use fewer repetitions or simpler durations")
    case .negativeDuration, .notFinite, .negativeCount, .nonMonotoneWarp, .mixedKinds, .invalidEasing, .retimeOfInstant, .invalidSampling,
         .infinite, .foreverOfInstant, .relativeColor, .reversedRelative, .noCurrentValue, .relativeUnsupported, .invalidPart, .endlessPart:
        return Diagnostic(.animation(error), at: range)
    }
}

/// The lengths of a tween's pieces: most often equal (no offsets written).
private enum PieceLengths {
    case equal(Time, count: Int)
    case listed([Time])

    var count: Int {
        switch self {
        case .equal(_, let count): return count
        case .listed(let lengths): return lengths.count
        }
    }

    subscript(index: Int) -> Time {
        switch self {
        case .equal(let length, _): return length
        case .listed(let lengths): return lengths[index]
        }
    }
}

/// The `in DUR` written on a tween (``Lowerer/lowerTween(_:range:)``): the
/// duration, and where the whole `x in DUR` is written. (A struct, not a
/// tuple: an optional tuple is copied through its metadata, found at run time.)
private struct Retiming {
    let duration: Duration
    let range: SourceRange
    /// Whether `in` is written (``none``: a tween alone). Not an optional
    /// `Retiming`: unwrapping one copies its duration, and destroys the copy.
    var isWritten = true

    /// No `in` written.
    static let none = Retiming(duration: Duration(number: Number(Time(0)), unit: .implicit), range: .none, isWritten: false)
}

/// A tween's stops as written: the first two kept in place (most tweens
/// have two, or one), the others in an array.
private struct WrittenStops {
    private var first = WrittenStop(kind: .number, range: .none)
    private var second = WrittenStop(kind: .number, range: .none)
    private var rest: [WrittenStop] = []
    private(set) var count = 0

    mutating func append(_ stop: WrittenStop) {
        switch count {
        case 0: first = stop
        case 1: second = stop
        default: rest.append(stop)
        }
        count += 1
    }

    /// The stop at `index` (below ``count``).
    subscript(index: Int) -> WrittenStop {
        switch index {
        case 0: return first
        case 1: return second
        default: return rest[index - 2]
        }
    }
}

/// What the lowering builds a tween's leaves from, once its stops are
/// checked: the property, the stops and the pieces' lengths; each stop's
/// value per channel is read from the stop as written (``value(_:channel:)``).
private struct TweenShape {
    /// The property animated (`x` for a `move`, which also animates `y`).
    let property: String
    /// Whether points are split into `x` and `y` (a `move`): two channels.
    let split: Bool
    /// The unit of a `rotate`'s numbers (`nil`: degrees, or not a `rotate`).
    let unit: TweenSyntax.AngleUnit?
    let relative: Tween.Relative
    let stops: WrittenStops
    let lengths: PieceLengths
    /// The easing of each piece written on its keyframe (docs/semantics.md §8.2); empty when none is.
    var easings: [Easing?] = []

    var channels: Int { split ? 2 : 1 }

    /// The value of stop `stop` on channel `channel` (below ``channels``).
    func value(_ stop: Int, channel: Int) -> Value {
        let written = stops[stop]
        switch written.kind {
        case .number: return .number(TweenSyntax.degrees(written.x, unit: unit))
        case .color: return .color(written.color)
        case .point:
            if split { return .number(channel == 0 ? written.x : written.y) }
            return .point(Point(x: written.x, y: written.y))
        }
    }

    /// The leaf of piece `index` on `property` (its channel `channel`),
    /// lasting `duration` when given, else the piece's length.
    func leaf(_ property: Property, channel: Int, index: Int, duration: Time? = nil) throws(AnimationError) -> Animations.Tween {
        let length = duration ?? lengths[index]
        switch relative {
        case .absolute:
            let easing = index < easings.count ? easings[index] ?? .linear : .linear
            return try Animations.Tween(property: property, from: value(index, channel: channel), to: value(index + 1, channel: channel),
                                        easing: easing, duration: length)
        case .to:
            return try Animations.Tween(property: property, to: value(0, channel: channel), duration: length)
        case .by:
            return try Animations.Tween(property: property, by: value(0, channel: channel), duration: length)
        }
    }
}

/// A tween's stop as written, read out of its syntax once: what the
/// lowering reads of it (plain values: copying it copies no references).
private struct WrittenStop {
    var kind: ValueSyntaxKind
    /// The number, or the point's `x`.
    var x: Double = 0
    /// The point's `y`.
    var y: Double = 0
    var color = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Where the value is written.
    var range: SourceRange

    init(kind: ValueSyntaxKind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    init(_ value: ValueSyntax) {
        switch value {
        case .number(let number):
            self.init(kind: .number, range: number.range)
            x = number.value
        case .color(let color):
            self.init(kind: .color, range: color.range)
            self.color = color.color
        case .point(let x, let y, let range):
            self.init(kind: .point, range: range)
            self.x = x.value
            self.y = y.value
        }
    }
}

/// A property's kind of value and where it was first given.
private struct KindPlace {
    let kind: Value.Kind
    let range: SourceRange
}

/// The kinds of value a tween is written with (points are sugar for two numbers).
enum ValueSyntaxKind: Equatable {
    case number, color, point

    var article: String {
        switch self {
        case .number: return "a number"
        case .color: return "a colour"
        case .point: return "a point"
        }
    }

    var plural: String {
        switch self {
        case .number: return "numbers"
        case .color: return "colours"
        case .point: return "points"
        }
    }

    /// What to write instead, when a tween of `verb` was given this kind.
    func hint(for verb: TweenSyntax.Verb) -> String {
        switch self {
        case .color: return "to animate a colour, write `color V from red to blue` or `animate V.fill from red to blue`"
        case .point: return "to move a view, write `move V from (0, 0) to (100, 50)`"
        case .number:
            return verb == .move ? "`move` goes between points: `move V from (0, 0) to (100, 50)`"
                                 : "`color` goes between colours: `color V from red to #3366ff`"
        }
    }
}

