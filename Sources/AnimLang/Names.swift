import Animations

/// Every place a file names a `let`, a parameter or a view, declarations
/// included: what an editor's "go to definition" and "find references"
/// read (`animc lsp`). Built from the resolved program, with the walk the
/// resolver's own checks use (``BindingUses``) and the parameters' uses the
/// parser records, so a name means here what it means to `animc check`.
///
/// ```swift
/// let names = NameIndex(resolve(parse(file).program))
/// let symbol = names.occurrence(at: offset)?.symbol   // .binding("slide")
/// names.declaration(of: .binding("slide"))           // where `let slide` names it
/// names.references(of: .view("card"))                // every place `card` is written
/// ```
public struct NameIndex: Sendable {
    public enum Symbol: Hashable, Sendable {
        /// A `let` (its name).
        case binding(String)
        /// A parameter of a parameterised `let`.
        case parameter(binding: String, name: String)
        /// A view.
        case view(String)
    }

    /// One place a symbol is written.
    public struct Occurrence: Hashable, Sendable {
        public var symbol: Symbol
        public var range: SourceRange
        /// Whether this is where the symbol is declared (`let NAME`, a
        /// parameter in the list, `view NAME`).
        public var isDeclaration: Bool
    }

    /// Every occurrence, by start offset.
    public let occurrences: [Occurrence]

    public init(_ resolved: ResolvedProgram) {
        var found: [Occurrence] = []
        let views = Set(resolved.views)
        for view in resolved.program.views {
            found.append(Occurrence(symbol: .view(view.name), range: view.nameRange, isDeclaration: true))
        }
        for binding in resolved.program.bindings {
            found.append(Occurrence(symbol: .binding(binding.name), range: binding.nameRange, isDeclaration: true))
            for parameter in binding.parameters ?? [] {
                let symbol = Symbol.parameter(binding: binding.name, name: parameter.name)
                found.append(Occurrence(symbol: symbol, range: parameter.range, isDeclaration: true))
                for use in parameter.uses { found.append(Occurrence(symbol: symbol, range: use.range, isDeclaration: false)) }
            }
            let uses = BindingUses(of: binding)
            for use in uses.names { found.append(Occurrence(symbol: .binding(use.name), range: use.range, isDeclaration: false)) }
            for mention in uses.mentions {
                found.append(Occurrence(symbol: .view(mention.view), range: mention.viewRange, isDeclaration: false))
            }
            // `animate v.y` in `let rise(v) = …` names the parameter (which the parser does not list among its uses).
            if let parameters = binding.parameters, !parameters.isEmpty {
                forEachTween(in: binding.value) { tween in
                    guard tween.verb == .animate, case .view(let name, let range) = tween.target,
                          parameters.contains(where: { $0.name == name }) else { return }
                    found.append(Occurrence(symbol: .parameter(binding: binding.name, name: name), range: range, isDeclaration: false))
                }
            }
            for use in uses.views(kinds: resolved.parameterKinds) { found.append(Occurrence(symbol: .view(use.name), range: use.range, isDeclaration: false)) }
            for (name, range) in uses.arguments(kinds: resolved.parameterKinds) {
                if resolved.bindings[name] != nil {
                    found.append(Occurrence(symbol: .binding(name), range: range, isDeclaration: false))
                } else if views.contains(name) {
                    found.append(Occurrence(symbol: .view(name), range: range, isDeclaration: false))
                }
            }
        }
        // One occurrence per place (a view argument is both a mention and a view use).
        var seen: Set<Occurrence> = []
        occurrences = found.filter { $0.range != .none && seen.insert($0).inserted }
            .sorted { ($0.range.start, $0.range.end) < ($1.range.start, $1.range.end) }
    }

    /// The occurrence whose range contains `offset` (its end included, as
    /// an editor's cursor just after a name is on it).
    public func occurrence(at offset: Int) -> Occurrence? {
        // Binary search: the last occurrence starting at or before `offset`.
        var low = 0, high = occurrences.count
        while low < high {
            let mid = (low + high) / 2
            if occurrences[mid].range.start <= offset { low = mid + 1 } else { high = mid }
        }
        var index = low - 1
        while index >= 0, occurrences[index].range.start <= offset {
            if occurrences[index].range.end >= offset { return occurrences[index] }
            if offset - occurrences[index].range.start > 4096 { break }   // no name is that long
            index -= 1
        }
        return nil
    }

    /// Where `symbol` is declared: its first declaration (a view only
    /// named by tweens: the first tween that names it).
    public func declaration(of symbol: Symbol) -> SourceRange? {
        occurrences.first { $0.symbol == symbol && $0.isDeclaration }?.range
            ?? occurrences.first { $0.symbol == symbol }?.range
    }

    /// Every place `symbol` is written, in source order.
    public func references(of symbol: Symbol, includeDeclaration: Bool = true) -> [SourceRange] {
        occurrences.filter { $0.symbol == symbol && (includeDeclaration || !$0.isDeclaration) }.map(\.range)
    }
}

/// Calls `body` with every node of `expr`, outermost first, in source order.
public func forEachNode(in expr: Expr, _ body: (Expr) -> Void) {
    body(expr)
    for subexpression in expr.subexpressions { forEachNode(in: subexpression, body) }
}

extension Program {
    /// Where `property` is first written: the first tween (in source order)
    /// that animates it, else the view declaration that gives it a value;
    /// `nil` when neither does (a warning about the property as a whole is
    /// then placed elsewhere).
    package func firstPlace(of property: Property) -> SourceRange? {
        var found: SourceRange?
        for binding in bindings where found == nil {
            forEachTween(in: binding.value) { tween in
                guard found == nil, case .view(let view, _) = tween.target, view == property.view else { return }
                if tween.resolvedProperty == property.name || (tween.verb == .move && property.name == "y") { found = tween.range }
            }
        }
        if let found { return found }
        for view in views where view.name == property.view {
            if let initial = view.initials.first(where: { $0.property == property.name }) { return initial.range }
        }
        return nil
    }
}

/// Calls `body` with every tween of `expr`, in source order.
func forEachTween(in expr: Expr, _ body: (TweenSyntax) -> Void) {
    forEachNode(in: expr) { node in
        if case .tween(let tween) = node.kind { body(tween) }
    }
}
