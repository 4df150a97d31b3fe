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
    let expr = expression(of: try term.normalized())
    let views = outcome.program.views.map { view in
        ViewDeclaration(name: view.name, initials: view.initials.map {
            ViewDeclaration.Initial(property: $0.property, value: Number($0.value.value))
        })
    }
    var seenViews = Set<String>()
    let uniqueViews = views.filter { seenViews.insert($0.name).inserted }
    let program = Program(items: uniqueViews.map(Item.view) + [.binding(Binding(name: target.name, value: expr))])
    return NormalForm(program: program, expr: expr)
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
        let syntax = TweenSyntax(verb: .animate, target: .view(tween.property.view, .none), property: tween.property.name,
                           from: Number(tween.from.number ?? 0), to: Number(tween.to.number ?? 0))
        var expr = Expr(.tween(syntax))
        if tween.duration != .one { expr = Expr(.retimed(expr, Duration(number: Number(tween.duration)))) }
        if case .linear = tween.easing.kind {} else { expr = Expr(.eased(expr, tween.easing, .none)) }
        return expr
    case .event:
        // The language has no events yet; nothing lowers to one.
        return Expr(.one)
    case .sequence(let items): return Expr(.sequence(items.map(expression(of:))))
    case .parallel(let items): return Expr(.parallel(items.map(expression(of:))))
    case .power(let body, let n): return Expr(.power(expression(of: body), Count(Int64(n))))
    case .reversed(let inner): return Expr(.reversed(expression(of: inner)))
    case .retimed(let body, let d): return Expr(.retimed(expression(of: body), Duration(number: Number(d))))
    case .eased(let body, let easing): return Expr(.eased(expression(of: body), easing, .none))
    }
}
