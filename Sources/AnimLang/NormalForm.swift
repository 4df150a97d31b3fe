import Animations

/// The normal form of a binding, as a program: `animc normalize`.
///
/// ```swift
/// let outcome = run(SourceFile(name: "laws.anim", text: source), binding: "left-nested")
/// let normal = try normalize(outcome)
/// print(format(normal.program))
/// // let left-nested =
/// //   animate ball.radius from 10 to 20 ; animate ball.red from 0 to 1 ; animate ball.opacity from 1 to 0
/// ```
///
/// The binding's term (``Outcome/term``: `let`s inlined, `all views`
/// expanded, the sugar desugared) is rewritten by ``Term/normalized()``, the
/// library's normalizer, and spelled back as syntax in the canonical
/// spellings (``expression(of:)``), after the file's `view` declarations.
public func normalize(_ outcome: Outcome) throws(NormalizationError) -> NormalForm {
    guard !outcome.hasErrors, let target = outcome.target, let term = outcome.term else { throw .programHasErrors }
    var expr = expression(of: try term.normalized())
    // A normal form may nest deeper than the parser reads (powers of powers
    // along a chain of lets): its deep parts become `let`s of their own.
    var parts = Parts(prefix: target.name)
    expr = parts.cut(expr).expr
    let views = outcome.program.views.map { view in
        ViewDeclaration(name: view.name, initials: view.initials.map {
            ViewDeclaration.Initial(property: $0.property, value: canonical($0.value))
        }, home: view.home.map(canonical), origin: view.origin.map { origin in
            if case .value(let fractions) = origin { return .value(canonical(fractions)) }
            return origin
        })
    }
    var seenViews = Set<String>()
    let uniqueViews = views.filter { seenViews.insert($0.name).inserted }
    let bindings = parts.bindings.map { Item.binding(Binding(name: $0.name, value: $0.value)) }
    let program = Program(items: uniqueViews.map(Item.view) + bindings + [.binding(Binding(name: target.name, value: expr))])
    return NormalForm(program: program, expr: expr)
}

/// The deep parts of an expression moved into `let`s named `PREFIX-partN`,
/// so that nothing printed nests deeper than ``Parts/height`` levels.
private struct Parts {
    /// Far below the parser's ``maxExpressionNesting`` (which also counts
    /// parentheses), and shallow enough to read.
    static let height = 24

    let prefix: String
    var bindings: [(name: String, value: Expr)] = []

    /// `expr` with every subexpression that reaches ``height`` levels
    /// replaced by the name of a new binding, and the height of the result.
    mutating func cut(_ expr: Expr) -> (expr: Expr, height: Int) {
        // Whether a part was cut below: a subexpression with none is kept as it is, not rebuilt.
        var changed = false
        func part(_ child: Expr) -> (Expr, Int) {
            let before = bindings.count
            let (cutChild, height) = cut(child)
            if bindings.count != before { changed = true }
            guard height >= Parts.height else { return (cutChild, height) }
            let name = "\(prefix)-part\(bindings.count + 1)"
            bindings.append((name, cutChild))
            changed = true
            return (Expr(.name(name)), 1)
        }
        var result = expr
        var height = 0
        switch expr.kind {
        case .name, .zero, .one, .wait, .tween, .emit, .call, .easedByName, .value:
            return (expr, 1)
        case .parallel(let operands), .sequence(let operands):
            var cutOperands: [Expr] = []
            for operand in operands {
                let (cutOperand, operandHeight) = part(operand)
                cutOperands.append(cutOperand)
                height = max(height, operandHeight)
            }
            if changed {
                if case .parallel = expr.kind { result.kind = .parallel(cutOperands) } else { result.kind = .sequence(cutOperands) }
            }
        case .power(let operand, let count):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .power(cutOperand, count) }
            height = operandHeight
        case .reversed(let operand):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .reversed(cutOperand) }
            height = operandHeight
        case .looped(let operand, let count):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .looped(cutOperand, count) }
            height = operandHeight
        case .repeated(let operand, let count):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .repeated(cutOperand, count) }
            height = operandHeight
        case .delayed(let operand, let duration):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .delayed(cutOperand, duration) }
            height = operandHeight
        case .overlapping(let operand, let duration):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .overlapping(cutOperand, duration) }
            height = operandHeight
        case .retimed(let operand, let duration):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .retimed(cutOperand, duration) }
            height = operandHeight
        case .eased(let operand, let easing, let range):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .eased(cutOperand, easing, range) }
            height = operandHeight
        case .staggered(let operand, let duration, let how):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .staggered(cutOperand, duration, how) }
            height = operandHeight
        case .forever(let operand, let looped):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .forever(cutOperand, looped: looped) }
            height = operandHeight
        case .played(let operand, let from, let to):
            let (cutOperand, operandHeight) = part(operand)
            if changed { result.kind = .played(cutOperand, from: from, to: to) }
            height = operandHeight
        }
        return (result, height + 1)
    }
}

/// A normalized program: the `view` declarations, then one `let` with the normal form.
public struct NormalForm: Sendable {
    public let program: Program
    /// The normal form of the binding.
    public let expr: Expr
}

/// A term spelled as syntax, in the canonical spellings: every tween as
/// `animate V.P from A to B [in D] [with E]`, `wait D`, `;`, `||`, `^ N`,
/// `reversed`, `in D`, `with E`, `zero`, `one`. Printing it with
/// ``format(_:)-(Expr)`` gives text that parses back to a term equal to `term`.
public func expression(of term: Term) -> Expr {
    switch term.kind {
    case .zero: return Expr(.zero)
    case .one: return Expr(.one)
    case .wait(let d): return Expr(.wait(Duration(number: Number(d))))
    case .tween(let tween):
        let syntax: TweenSyntax
        switch tween.relative {
        case .absolute:
            syntax = TweenSyntax(verb: .animate, target: .view(tween.property.view, .none), property: tween.property.name,
                                 from: valueSyntax(of: tween.from), to: valueSyntax(of: tween.to))
        case .to:
            syntax = TweenSyntax(verb: .animate, target: .view(tween.property.view, .none), property: tween.property.name,
                                 to: valueSyntax(of: tween.to))
        case .by:
            syntax = TweenSyntax(verb: .animate, target: .view(tween.property.view, .none), property: tween.property.name,
                                 by: valueSyntax(of: tween.to))
        }
        var expr = Expr(.tween(syntax))
        if tween.duration != .one { expr = Expr(.retimed(expr, Duration(number: Number(tween.duration)))) }
        if case .linear = tween.easing.kind {} else { expr = Expr(.eased(expr, tween.easing, .none)) }
        return expr
    case .event(let name): return Expr(.emit(name))
    case .sequence(let items): return Expr(.sequence(items.map(expression(of:))))
    case .parallel(let items): return Expr(.parallel(items.map(expression(of:))))
    case .power(let body, let n): return Expr(.power(expression(of: body), Count(Int64(n))))
    case .forever(let body): return Expr(.forever(expression(of: body), looped: false))
    case .reversed(let inner): return Expr(.reversed(expression(of: inner)))
    case .retimed(let body, let d): return Expr(.retimed(expression(of: body), Duration(number: Number(d))))
    case .eased(let body, let easing): return Expr(.eased(expression(of: body), easing, .none))
    case .played(let body, let start, let end):
        return Expr(.played(expression(of: body), from: PartTime(.duration(Duration(number: Number(start)))),
                            to: PartTime(.duration(Duration(number: Number(end))))))
    }
}

/// A value as syntax: a number, a colour or a point.
func valueSyntax(of value: Value) -> ValueSyntax {
    switch value {
    case .number(let number): return .number(Number(number))
    case .color(let color): return .color(ColorSyntax(color))
    case .point(let point): return .point(x: Number(point.x), y: Number(point.y), range: .none)
    }
}

/// A written value without its spelling: numbers by value.
private func canonical(_ value: ValueSyntax) -> ValueSyntax {
    switch value {
    case .number(let number): return .number(Number(number.value))
    case .color(let color): return .color(ColorSyntax(color.color))
    case .point(let x, let y, _): return .point(x: Number(x.value), y: Number(y.value), range: .none)
    }
}
