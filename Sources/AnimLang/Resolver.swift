import Animations

/// Resolves names in a parsed program: checks that every name refers to a
/// `let`, that no `let` is bound twice and that `let`s do not refer to
/// themselves through each other; collects the views (declared, or named by
/// a tween) and their declared initial values; and orders the bindings so
/// each comes after the ones it uses.
///
/// ```swift
/// let parsed = parse(file)
/// let resolved = resolve(parsed.program)
/// resolved.diagnostics   // unknown names, duplicates, cycles
/// resolved.views         // ["circle", "square"]
/// ```
///
/// `broken` names bindings that exist but failed to parse: referring to them
/// is not reported again, and whatever uses them is not evaluated.
public func resolve(_ program: Program, broken: Set<String> = []) -> ResolvedProgram {
    var resolver = Resolver(program: program, broken: broken)
    return resolver.run()
}

/// Bindings by name (the first, when a name is bound twice): each name's
/// number, in order of first binding, and where that binding is among the
/// program's items. The items are the program's own array (shared, not
/// copied: a copy of each binding would stay alive beside the whole syntax
/// tree), and the resolver's numbering is this table's.
public struct BindingTable: Sendable {
    /// Each name's number: its binding's index in ``positions``.
    var numbers: [String: Int] = [:]
    /// The program's items (the same array: see ``ResolvedProgram/program``).
    private(set) var items: [Item] = []
    /// Where the first binding of each name is in ``items``, by number:
    /// always a binding's place (``append(_:at:)`` checks it).
    private var positions: [Int] = []

    init() {}

    /// The table over `items`, with room for each item to be a binding.
    init(items: [Item]) {
        self.items = items
        // (Not `reserveCapacity`, which the standard library does not inline:
        // a generic call, building two dictionary types' metadata at run time.)
        numbers = Dictionary(minimumCapacity: items.count)
        positions.reserveCapacity(items.count)
    }

    public subscript(name: String) -> Binding? {
        guard let number = numbers[name] else { return nil }
        return self[number: number]
    }

    /// The binding numbered `number` (`nil` past the last).
    subscript(number number: Int) -> Binding? {
        guard positions.indices.contains(number), items.indices.contains(positions[number]),
              case .binding(let binding) = items[positions[number]] else { return nil }
        return binding
    }

    /// The number of `name`'s binding.
    func index(forKey name: String) -> Int? { numbers[name] }
    /// Where the binding numbered `number` (below ``count``) is among the items.
    func position(of number: Int) -> Int { positions[number] }
    /// The name of the binding numbered `number` (below ``count``).
    func name(_ number: Int) -> String { self[number: number]?.name ?? "" }
    public var count: Int { positions.count }
    /// The bound names (in no particular order).
    public var keys: Dictionary<String, Int>.Keys { numbers.keys }

    /// Numbers the binding at `position` among the items (the next number), when it is one.
    mutating func append(at position: Int) {
        guard items.indices.contains(position), case .binding = items[position] else { return }
        positions.append(position)
    }

    /// The expression of the binding numbered `number`, taken out of the
    /// table (left `one`, its ranges kept): when the table holds the only
    /// reference to the items, the caller then holds the only one to the expression.
    mutating func takeExpression(_ number: Int) -> Expr? {
        guard positions.indices.contains(number), items.indices.contains(positions[number]),
              case .binding(var binding) = items[positions[number]] else { return nil }
        let expr = binding.value
        binding.value = Expr(.one, range: expr.range, modifier: expr.modifier)
        items[positions[number]] = .binding(binding)
        return expr
    }
}

/// The result of name resolution.
public struct ResolvedProgram: Sendable {
    /// (Emptied, in this module, by a caller that keeps no syntax: see ``lower(taking:)``.)
    public internal(set) var program: Program
    /// Bindings by name (the first, when a name is bound twice). (The
    /// lowering may take their expressions: see ``lower(taking:)``.)
    public internal(set) var bindings: BindingTable
    /// Names of well-formed bindings, each after the bindings it refers to.
    /// Bindings in a cycle, or referring to unknown names, are left out.
    public var order: [String] { orderNumbers.map { bindings.name($0) } }
    /// ``order`` by number in ``bindings`` (what the lowering walks: no
    /// name looked up again, and 8 bytes a binding rather than a name's 16).
    let orderNumbers: [Int]
    /// Every view named anywhere in the file, sorted: what `all views` means.
    public let views: [String]
    /// Every view in order of its first mention in the file (a `view`
    /// declaration or a tween's target): the order `staggered by` uses.
    public let mentionOrder: [String]
    /// Declared initial values.
    public let initial: [Property: Value]
    /// Where each declared initial value is written.
    public let initialRanges: [Property: SourceRange]
    /// Where each view with `at` or `origin` stands (others: ``Placement/standard``).
    public var placements: [String: Placement] = [:]
    /// How many tweens the bindings write (each once, calls not expanded):
    /// what the lowering reserves for its list of tween leaves.
    var tweenCount = 0
    /// The bindings each binding names, by number (binding `n`'s are
    /// `namedTargets[namedStarts[n]..<namedEnds[n]]`), kept by the resolver when
    /// some binding says `all views` and no call gives a binding as an argument
    /// (its edges are then the names alone): what ``strayViewsWarning(for:)``
    /// follows, without walking the bindings again. Empty otherwise.
    var namedTargets: [Int] = [], namedStarts: [Int] = [], namedEnds: [Int] = []
    public let diagnostics: [Diagnostic]
    /// Whether some binding's expression says `all views`.
    let mentionsAllViews: Bool
    /// The kind of each parameter of each parameterised `let`, as its body
    /// uses it (`nil`: unused, or used only in a way that went wrong).
    public let parameterKinds: [String: [ParameterKind?]]

    /// The binding `eval` samples: `name`, or else the last `let` in the file.
    public func target(named name: String?) -> Binding? {
        if let name { return bindings[name] }
        return program.lastBinding
    }

    /// The warning for `all views` in `target`, or in a binding it uses,
    /// when it reaches views that only bindings `target` does not use name:
    /// `all views` means every view the file names, so a `let` left over
    /// from an experiment adds its views to the final animation. Located at
    /// the first such `all views`, with a note where each view is named.
    ///
    /// Free for a file without `all views`; otherwise it reads the
    /// bindings' expressions again (``BindingUses``), which are not kept.
    /// What each binding uses is kept by number, in flat arrays of types
    /// the resolver already uses (not tables by name of arrays of tuples,
    /// whose metadata is built at run time, on every such start-up).
    func strayViewsWarning(for target: Binding) -> Diagnostic? {
        guard mentionsAllViews, let targetNumber = bindings.numbers[target.name] else { return nil }
        let count = bindings.count
        // Binding `n` (each name's first binding, numbered in source order) names the bindings
        // `targets[starts[n]..<ends[n]]`: the resolver's (``namedTargets``), or else read here.
        let read = namedStarts.count == count ? nil : namedBindings()
        let targets = read?.targets ?? namedTargets, starts = read?.starts ?? namedStarts, ends = read?.ends ?? namedEnds
        var reachable = [Bool](repeating: false, count: count)
        reachable[targetNumber] = true
        var stack = [targetNumber]
        while let number = stack.popLast() {
            for next in targets[starts[number]..<ends[number]] where !reachable[next] {
                reachable[next] = true
                stack.append(next)
            }
        }
        // Every binding reached: each view the file names is named by one of them (or declared), so none is stray.
        guard reachable.contains(false) else { return nil }
        // Binding `n`'s `all views` are `allViews[allViewsEnds[n - 1]..<allViewsEnds[n]]`
        // and its views (each where it first names it) `viewsUsed[…]`, alike (from 0 for `n` = 0).
        var allViews: [SourceRange] = [], allViewsEnds: [Int] = []
        var viewsUsed: [BindingUses.NameUse] = [], viewsUsedEnds: [Int] = []
        for number in 0..<count {
            if let binding = bindings[number: number] {
                let found = BindingUses(of: binding, warnings: false)
                for range in found.allViews { allViews.append(range) }
                for use in found.views(kinds: parameterKinds) { viewsUsed.append(use) }
            }
            allViewsEnds.append(allViews.count)
            viewsUsedEnds.append(viewsUsed.count)
        }
        func span(_ number: Int, _ ends: [Int]) -> Range<Int> { (number == 0 ? 0 : ends[number - 1])..<ends[number] }
        var first: SourceRange?
        var named: Set<String> = []
        for item in program.items { if case .view(let view) = item { named.insert(view.name) } }
        for number in reachable.indices where reachable[number] {
            for range in allViews[span(number, allViewsEnds)] {
                if let earliest = first, earliest.start <= range.start { continue }
                first = range
            }
            for use in viewsUsed[span(number, viewsUsedEnds)] { named.insert(use.name) }
        }
        guard let first else { return nil }
        let stray = Set(views).subtracting(named)
        guard !stray.isEmpty else { return nil }
        var shown: [String] = []
        var lets: [String] = []
        var notes: [Diagnostic.Note] = []
        for number in 0..<bindings.count {
            for use in viewsUsed[span(number, viewsUsedEnds)] where stray.contains(use.name) && !shown.contains(use.name) {
                shown.append(use.name)
                let name = bindings.name(number)
                if !lets.contains(name) { lets.append(name) }
                if notes.count < 3 { notes.append(Diagnostic.Note(.namedHere(use.name), at: use.range)) }
            }
        }
        let one = shown.count == 1
        let hint = "to include \(one ? "it" : "them"), declare \(one ? "it" : "them") (`view \(shown[0])`); "
            + "to leave \(one ? "it" : "them") out, name the views `\(target.name)` animates instead of `all views`"
        return Diagnostic(.strayViews(views: shown, bindings: lets, target: target.name), at: first, hint: hint, notes: notes)
    }

    /// The bindings each binding names, by number, read from the bindings
    /// (as ``namedTargets``, which the resolver keeps when it can).
    private func namedBindings() -> (targets: [Int], starts: [Int], ends: [Int]) {
        var targets: [Int] = [], starts: [Int] = [], ends: [Int] = []
        for number in 0..<bindings.count {
            starts.append(targets.count)
            if let binding = bindings[number: number] {
                for use in BindingUses(of: binding, warnings: false).names {
                    if let next = bindings.numbers[use.name] { targets.append(next) }
                }
            }
            ends.append(targets.count)
        }
        return (targets, starts, ends)
    }

    /// The hint for `name` when the file binds no such name: the binding it
    /// likely meant, or else the ones there are (the first ten, in file order).
    public func hint(forUnknownBinding name: String) -> String {
        if let match = closestMatch(to: name, in: bindings.keys.sorted()) { return didYouMean(match) }
        var names: [String] = []
        var seen: Set<String> = []
        for binding in program.bindings where seen.insert(binding.name).inserted {
            names.append("`\(binding.name)`")
        }
        if names.isEmpty { return "the file has no `let`" }
        let shown = names.prefix(10).joined(separator: ", ")
        return "the file defines " + shown + (names.count > 10 ? " and \(names.count - 10) more" : "")
    }
}

extension Program {
    /// The last `let` in the file (without listing the bindings).
    var lastBinding: Binding? {
        for item in items.reversed() {
            if case .binding(let binding) = item { return binding }
        }
        return nil
    }
}

extension ValueSyntax {
    /// Whether it is written with names (a number, or a point's coordinate, with a formula).
    var hasNames: Bool {
        switch self {
        case .number(let number): if case .some = number.formula { return true }
        case .point(let x, let y, _):
            if case .some = x.formula { return true }
            if case .some = y.formula { return true }
        case .color: break
        }
        return false
    }
}

/// What bindings name, read in one walk of each (``add(_:warnings:)``;
/// several bindings' uses may go into one value, each list then in the
/// order of the walks): other bindings (in source order; `let`s called
/// too, and each call's), views (where a tween names one, or a call gives
/// a name as an argument that is a view when the callee's parameter is
/// one: parameters are not views), and `all views`. Which arguments are
/// views depends on the parameters' kinds, known only once every binding
/// has been read: the walk records the call each argument is given to, and
/// ``views(kinds:)`` and ``arguments(kinds:)`` decide.
struct BindingUses {
    /// The parameter of a call an argument is given for. (Structs, not
    /// tuples: an array of tuples builds the tuple's metadata at run time,
    /// on every start-up.)
    struct ArgumentOf {
        let callee: String
        let index: Int
    }

    /// A name used: where, and the parameter it is given for when it is an argument.
    struct NameUse {
        let name: String
        let range: SourceRange
        let argumentOf: ArgumentOf?

        init(_ name: String, _ range: SourceRange, _ argumentOf: ArgumentOf?) {
            (self.name, self.range, self.argumentOf) = (name, range, argumentOf)
        }
    }

    /// The bindings named (and called), where (never arguments: `argumentOf` is `nil`).
    /// (Name uses, not `(String, SourceRange)` tuples: one array type fewer built at run time.)
    var names: [NameUse] = []
    /// Each place a tween names a view (a tween naming the view the tween
    /// before it named is left out: it is never the first place), and each
    /// name given alone as an argument of a call (`argumentOf`).
    var viewUses: [NameUse] = []
    var allViews: [SourceRange] = []
    /// Names given alone as arguments (`argumentOf`: the call's), and names
    /// in numbers and easings: a `let`, a colour or easing name, or (an
    /// argument of a view parameter) a view.
    var argumentUses: [NameUse] = []
    /// Every place a tween names a view, and the property it animates there
    /// (with where the property is written: after the view in `animate V.P`,
    /// else the tween; `nil` when the verb implies it), for the named-once
    /// warnings, a run at a time: `count` tweens in a row (across walks)
    /// naming that view and property, the places being the first's. With
    /// ``everyMention`` (what ``NameIndex`` reads), every run is one tween.
    var mentions: [Mention] = []
    /// Whether each mention is listed alone (`count` 1), rather than runs merged.
    var everyMention = true
    /// How many tweens the walks read.
    var tweens = 0
    /// The durations written, as the bare-duration warning needs them.
    var durations = DurationSummary()

    /// What the bare-duration warning needs of the durations written: how
    /// many, how many are a second or more, and the ones with no unit of 10
    /// or more (in the order written).
    struct DurationSummary {
        var count = 0
        var long = 0
        var bare: [(value: Double, range: SourceRange)] = []
        /// Durations written as a name alone (`in fast`): the resolver reads what each names.
        var named: [NameUse] = []

        mutating func add(_ duration: Duration) {
            if duration.unit == .implicit, let (name, range) = duration.number.bareName {
                named.append(NameUse(name, range, nil))
                return
            }
            count += 1
            if !(duration.approximateSeconds < 1) { long += 1 }
            if duration.unit == .implicit, duration.number.value >= 10 { bare.append((duration.number.value, duration.range)) }
        }
    }

    /// A run of tweens naming one view and property (see ``mentions``).
    struct Mention {
        var view: String
        var property: String
        var viewRange: SourceRange
        var propertyRange: SourceRange?
        var count = 1
    }

    /// What the walk has yet to read: a node, or the next operand of the innermost chain being read (``chains``).
    private enum Pending {
        case node(Expr, argumentOf: ArgumentOf?)
        case operand
    }

    /// The stack of the walk, kept between walks (a chain's operands are
    /// read from the chain in place, not pushed one by one).
    private var stack: [Pending] = []
    /// The chains being read, innermost last, with the next operand of each.
    private var chains: [Chain] = []
    private struct Chain {
        let operands: [Expr]
        var next: Int
    }
    /// The view the last tween named.
    private var lastTweenView: String?

    init() {}

    /// The uses of one binding.
    init(of binding: Binding, warnings: Bool = true) {
        add(binding, warnings: warnings)
    }

    /// The views named, each where first named (an argument when the
    /// callee's parameter is a view, by `kinds`).
    func views(kinds: [String: [ParameterKind?]]) -> [NameUse] {
        var seen: Set<String> = []
        var result: [NameUse] = []
        for use in viewUses where BindingUses.isView(use.argumentOf, kinds: kinds) && seen.insert(use.name).inserted {
            result.append(use)
        }
        return result
    }

    /// The names used as arguments that are not views, by `kinds`.
    func arguments(kinds: [String: [ParameterKind?]]) -> [(String, SourceRange)] {
        argumentUses.compactMap { use in
            guard let of = use.argumentOf else { return (use.name, use.range) }
            return BindingUses.isView(of, kinds: kinds) ? nil : (use.name, use.range)
        }
    }

    /// `mentions` with each view given as an argument (`pop(card)`) among
    /// them, in source order, for the named-once warnings: a misspelt view
    /// argument is as likely a typo as a misspelt tween target.
    static func withViewArguments(_ mentions: [Mention], _ viewUses: [NameUse], kinds: [String: [ParameterKind?]]) -> [Mention] {
        guard !kinds.isEmpty else { return mentions }
        let arguments = viewUses.filter { $0.argumentOf != nil && isView($0.argumentOf, kinds: kinds) }
        guard !arguments.isEmpty else { return mentions }
        let added = arguments.map { Mention(view: $0.name, property: "", viewRange: $0.range, propertyRange: nil) }
        return (mentions + added).sorted { $0.viewRange.start < $1.viewRange.start }
    }

    /// Whether an argument given for `argumentOf` is a view (`nil`: not an argument, a view a tween names).
    static func isView(_ argumentOf: ArgumentOf?, kinds: [String: [ParameterKind?]]) -> Bool {
        guard let argumentOf else { return true }
        guard !kinds.isEmpty, let kind = kinds[argumentOf.callee], argumentOf.index < kind.count else { return false }
        return kind[argumentOf.index] == .target
    }

    /// Walks `binding`, appending what it names. `warnings`: whether to
    /// list ``mentions`` and ``durations`` too (a pass that reads only the
    /// names leaves them as they are).
    mutating func add(_ binding: Binding, warnings: Bool = true) {
        let parameters: Set<String> = binding.parameters.map { Set($0.map(\.name)) } ?? []
        func isParameter(_ name: String) -> Bool { !parameters.isEmpty && parameters.contains(name) }
        // (Both empty after a walk, which pops everything.)
        if !stack.isEmpty { stack.removeAll(keepingCapacity: true) }
        if !chains.isEmpty { chains.removeAll(keepingCapacity: true) }
        stack.append(.node(binding.value, argumentOf: nil))
        // A default is an argument given where the `let` is written (a view, a value or an
        // animation, by the parameter's kind, as at a call): a name in it is decided as a call's is.
        for (index, parameter) in (binding.parameters ?? []).enumerated().reversed() {
            if let value = parameter.defaultValue { stack.append(.node(value, argumentOf: ArgumentOf(callee: binding.name, index: index))) }
        }
        /// The names a number written with names uses (named values: they come first in the order).
        func named(in number: Number, _ uses: inout BindingUses) {
            guard case .some = number.formula, case .some(let formula) = number.formula else { return }
            for (name, range) in formula.names where !isParameter(name) { uses.argumentUses.append(NameUse(name, range, nil)) }
        }
        func named(in value: ValueSyntax, _ uses: inout BindingUses) {
            switch value {
            case .number(let number): named(in: number, &uses)
            case .point(let x, let y, _): named(in: x, &uses); named(in: y, &uses)
            case .color: break
            }
        }
        while let top = stack.popLast() {
            var current: Expr?, argumentOf: ArgumentOf?
            switch top {
            case .node(let expr, let of):
                (current, argumentOf) = (expr, of)
            case .operand:
                // In source order, each operand's nodes before the next operand.
                let chain = chains.count - 1
                let next = chains[chain].next
                (current, argumentOf) = (chains[chain].operands[next], nil)
                if next + 1 < chains[chain].operands.count {
                    chains[chain].next = next + 1
                    stack.append(.operand)
                } else {
                    chains.removeLast()
                }
            }
            // A node with one operand goes on to it at once (what pushing it and popping it next would do).
            while let node = current {
                current = nil
                defer { argumentOf = nil }
                switch node.kind {
                case .name(let name):
                    guard !isParameter(name) else { break }
                    guard let argumentOf else {
                        names.append(NameUse(name, node.range, nil))
                        break
                    }
                    viewUses.append(NameUse(name, node.range, argumentOf))
                    argumentUses.append(NameUse(name, node.range, argumentOf))
                case .zero, .one, .emit:
                    break
                case .wait(let duration):
                    named(in: duration.number, &self)
                    if warnings { durations.add(duration) }
                case .value(.allViews(let range)):
                    allViews.append(range)
                case .value(.plain(let value)):
                    named(in: value, &self)
                case .value(.duration(let duration)):
                    named(in: duration.number, &self)
                    if warnings { durations.add(duration) }
                case .value(.easing):
                    break
                case .call(let callee, let given):
                    names.append(NameUse(callee, node.modifier == .none ? node.range : node.modifier, nil))
                    for (index, argument) in given.enumerated().reversed() { stack.append(.node(argument, argumentOf: ArgumentOf(callee: callee, index: index))) }
                case .easedByName(let inner, let name, let range):
                    if !isParameter(name) { argumentUses.append(NameUse(name, range, nil)) }
                    current = inner
                case .tween(let tween):
                    tweens += 1
                    // The stops' values, in order (``TweenSyntax/stopValue(_:)``), read in place; most name
                    // nothing, which one look says (reading each value copies it out of the tween).
                    let valuesHaveNames = tween.containsValue(where: \.hasNames)
                    if case .some(let keyframes) = tween.keyframes {
                        // `with quick,` on a keyframe (`with each quick` repeats one place: the index keeps one).
                        for keyframe in keyframes {
                            if let name = keyframe.easingName, !isParameter(name) { argumentUses.append(NameUse(name, keyframe.easingNameRange, nil)) }
                        }
                    }
                    switch tween.verb {
                    case .fadeIn, .fadeOut:
                        break
                    case _ where !valuesHaveNames:
                        break
                    case .shrink, .grow, .scale, .rotate, .fade, .animate, .color, .move:
                        if case .some(let keyframes) = tween.keyframes {
                            for keyframe in keyframes { named(in: keyframe.value, &self) }
                        } else if case .some(let by) = tween.by {
                            named(in: by, &self)
                        } else if case .some(let to) = tween.to {
                            if case .some(let from) = tween.from { named(in: from, &self) }
                            named(in: to, &self)
                        }
                    }
                    switch tween.target {
                    case .view(let name, let range):
                        if !isParameter(name) {
                            if lastTweenView != name {
                                viewUses.append(NameUse(name, range, nil))
                                lastTweenView = name
                            }
                            guard warnings else { break }
                            let property = tween.resolvedProperty
                            if !everyMention, let last = mentions.indices.last, mentions[last].view == name, mentions[last].property == property {
                                mentions[last].count += 1
                                break
                            }
                            let written = SourceRange(range.end + 1, range.end + 1 + property.utf8.count)
                            mentions.append(Mention(view: name, property: property, viewRange: range,
                                                    propertyRange: tween.property == nil ? nil : tween.verb == .animate ? written : tween.range))
                        }
                    case .allViews(let range):
                        allViews.append(range)
                    }
                case .parallel(let parts), .sequence(let parts):
                    if !parts.isEmpty {
                        chains.append(Chain(operands: parts, next: 0))
                        stack.append(.operand)
                    }
                case .power(let inner, let count), .looped(let inner, let count), .repeated(let inner, let count):
                    named(in: count.number, &self)
                    current = inner
                case .delayed(let inner, let duration), .retimed(let inner, let duration), .staggered(let inner, let duration, _),
                     .overlapping(let inner, let duration):
                    named(in: duration.number, &self)
                    if warnings { durations.add(duration) }
                    current = inner
                case .reversed(let inner), .eased(let inner, _, _), .forever(let inner, _):
                    current = inner
                case .played(let inner, let from, let to):
                    for time in [from, to] {
                        switch time?.kind {
                        case .duration(let duration)?:
                            named(in: duration.number, &self)
                            if warnings { durations.add(duration) }
                        case .percent(let number)?:
                            named(in: number, &self)
                        case nil:
                            break
                        }
                    }
                    current = inner
                }
            }
        }
    }
}

private struct Resolver {
    let program: Program
    /// The program's views, in source order (read once).
    let programViews: [ViewDeclaration]
    let brokenNames: Set<String>
    var diagnostics: [Diagnostic] = []
    /// Each binding name's number, in order of first binding, and that first binding.
    var bindings = BindingTable()
    // Tables of the resolver kept as arrays side by side, not arrays of
    // tuples: each tuple type builds its metadata (and its array's) at run
    // time, on every start-up.
    /// A binding's name and number. (A struct, not a tuple: see above.)
    struct NumberedName {
        let name: String
        let id: Int
    }

    /// Whether the first binding of each name has parameters, by number.
    var parameterised: [Bool] = []
    /// The bindings whose names the checks read, in source order: each
    /// name's first binding, the table's numbering (number `i`, at its
    /// position among the items) — and, in a hand-built program, a later
    /// binding of the same name and place. Only then are they listed, by
    /// number and place among the items (`nil`: the first bindings alone, by number).
    var visitedIDs: [Int]?
    var visitedItems: [Int] = []
    /// Whether some binding has parameters.
    var anyParameters = false
    var views: Set<String> = []
    /// Each view declared, and each view a tween names, with the first place
    /// it is named (tweens are visited in source order, so the first time a
    /// view is seen is its first mention among them).
    var mentionedViews: [String] = []
    var mentionedAt: [Int] = []
    var targeted: Set<String> = []
    var initial: [Property: Value] = [:]
    var initialRanges: [Property: SourceRange] = [:]
    var placements: [String: Placement] = [:]

    init(program: Program, broken: Set<String>) {
        self.program = program
        programViews = program.views
        brokenNames = broken
    }

    mutating func run() -> ResolvedProgram {
        collectViewDeclarations()
        collectBindings()
        // One walk of each binding: the names it uses (edges of the
        // dependency graph, by number), its views, and what the warnings read.
        var uses = BindingUses()
        uses.everyMention = false   // the warnings read runs
        var broken = [Bool](repeating: false, count: bindings.count)
        var unknown: [(String, SourceRange)] = []
        // The targets alone: where each edge is written is read again for the one edge a cycle report shows (``edgeRange(_:offset:)``).
        var edgeTargets: [Int] = []
        edgeTargets.reserveCapacity(bindings.count)
        /// Whether a call gives a binding as an argument (an edge that is not a name).
        var argumentEdges = false
        /// The names given as arguments (or defaults) that no `let` binds: views, or mistakes.
        var unboundArguments: [BindingUses.NameUse] = []
        // Two arrays of Int, not one of `Range<Int>`: that would look up `Int: Comparable` at run time (on every start-up).
        var spanStarts = [Int](repeating: 0, count: bindings.count), spanEnds = spanStarts
        /// The binding walked last, and its number (`-1`: none yet).
        var last = NumberedName(name: "", id: -1)
        for visit in 0..<(visitedIDs?.count ?? bindings.count) {
            let id = visitedIDs?[visit] ?? visit
            let item = visitedIDs == nil ? bindings.position(of: visit) : visitedItems[visit]
            guard case .binding(let binding) = program.items[item] else { continue }
            // (Most bindings name one binding, or none: emptied by `removeLast`, not the general `removeAll`, which does more.)
            if uses.names.count == 1 { uses.names.removeLast() } else if !uses.names.isEmpty { uses.names.removeAll(keepingCapacity: true) }
            if !uses.argumentUses.isEmpty { uses.argumentUses.removeAll(keepingCapacity: true) }
            uses.add(binding)
            let start = edgeTargets.count
            for use in uses.names {
                let name = use.name
                // The binding walked before this one, most often (`let c5 = c4 ; …`): not looked up by
                // name, which in a table of many names is a miss in the cache.
                if last.id >= 0, name == last.name {
                    edgeTargets.append(last.id)
                    continue
                }
                if let target = bindings.numbers[name] {
                    edgeTargets.append(target)
                    continue
                }
                broken[id] = true
                if brokenNames.contains(name) { continue }
                unknown.append((name, use.range))
            }
            for argument in uses.argumentUses {
                if let target = bindings.numbers[argument.name] {
                    edgeTargets.append(target)
                    argumentEdges = true
                } else if argument.argumentOf != nil {
                    unboundArguments.append(argument)
                }
            }
            spanStarts[id] = start
            spanEnds[id] = edgeTargets.count
            last = NumberedName(name: binding.name, id: id)
        }
        let mentionsAllViews = !uses.allViews.isEmpty
        // Only the first ones can be shown (`run` keeps the first
        // `maxParseDiagnostics` of the file), and each "did you mean" compares
        // the name with every binding: report those in source order.
        if !unknown.isEmpty {
            unknown.sort { $0.1.start < $1.1.start }
            let candidates = bindings.keys.sorted()   // sorted: ties give the same hint on every run
            for (name, range) in unknown.prefix(maxParseDiagnostics) {
                let match = closestMatch(to: name, in: candidates)
                var hint = match.map(didYouMean)
                    ?? (TweenSyntax.Verb(rawValue: name) != nil ? "`\(name)` starts a tween only when a view follows it" : nil)
                if name == "emit", hint == nil { hint = "to fire an event, write `emit NAME`, such as `emit landed`" }
                report(.unknownName(name), at: range, hint: hint, fixes: match.map { [.replacing(range, with: $0)] } ?? [])
            }
        }
        let tweenCount = uses.tweens
        warnOfBareDurations(uses.durations)
        uses.durations = BindingUses.DurationSummary()
        let order = orderBindings(targets: edgeTargets, starts: spanStarts, ends: spanEnds, broken: &broken)
        let kinds = anyParameters ? inferParameterKinds(order: order.map { bindings.name($0) }) : [:]
        // Views, now that the arguments that are views are known.
        for use in uses.viewUses where BindingUses.isView(use.argumentOf, kinds: kinds) && targeted.insert(use.name).inserted {
            mentionedViews.append(use.name)
            mentionedAt.append(use.range.start)
        }
        warnOfUndrawnProperties(uses.mentions)
        warnOfNamesNamedOnce(BindingUses.withViewArguments(uses.mentions, uses.viewUses, kinds: kinds))
        reportUnknownAnimationArguments(unboundArguments, kinds: kinds)
        uses = BindingUses()
        var firstMention: [String: Int] = [:]
        for (view, position) in zip(mentionedViews, mentionedAt) where position < firstMention[view, default: Int.max] {
            firstMention[view] = position
        }
        views.formUnion(targeted)
        // The keys sorted (not the (key, value) pairs: their tuple's metadata is built at run time, on every start-up).
        let mentionOrder = firstMention.keys.sorted { (firstMention[$0, default: 0], $0) < (firstMention[$1, default: 0], $1) }
        var resolved = ResolvedProgram(program: program, bindings: bindings, orderNumbers: order, views: views.sorted(),
                                       mentionOrder: mentionOrder, initial: initial, initialRanges: initialRanges, diagnostics: diagnostics,
                                       mentionsAllViews: mentionsAllViews, parameterKinds: kinds)
        resolved.placements = placements
        resolved.tweenCount = tweenCount
        // Only the stray-views warning reads them, and only then are they the names alone.
        if mentionsAllViews, !argumentEdges, visitedIDs == nil {
            (resolved.namedTargets, resolved.namedStarts, resolved.namedEnds) = (edgeTargets, spanStarts, spanEnds)
        }
        return resolved
    }

    /// The kind of each parameter, from its uses in the body: each use says
    /// a kind, or (a whole argument of a call) takes the callee's parameter's
    /// kind, so callees come first (`order`). Two uses that do not agree are
    /// an error; the `let` then has no kinds, and calls of it are not expanded.
    private mutating func inferParameterKinds(order: [String]) -> [String: [ParameterKind?]] {
        var kinds: [String: [ParameterKind?]] = [:]
        var done: Set<String> = []
        for name in order + program.bindings.map(\.name) where done.insert(name).inserted {
            guard let binding = bindings[name], let parameters = binding.parameters else { continue }
            var result: [ParameterKind?] = []
            var conflict = false
            for parameter in parameters {
                var kind: ParameterKind?
                var first: (kind: ParameterKind, range: SourceRange)?
                for use in parameter.uses {
                    let used: ParameterKind?
                    switch use.role {
                    case .kind(let written): used = written
                    case .argument(let callee, let index): used = kinds[callee].flatMap { index < $0.count ? $0[index] : nil }
                    }
                    guard let used else { continue }
                    guard let current = kind, let earlier = first else {
                        kind = used
                        first = (used, use.range)
                        continue
                    }
                    guard let unified = current.unified(with: used) else {
                        report(.parameterKinds(parameter: parameter.name, first: earlier.kind.article, second: used.article), at: use.range,
                               hint: "a parameter stands for one kind of thing; to pass two, give `\(name)` two parameters",
                               notes: [.init(.firstUsedAs(earlier.kind.article), at: earlier.range)])
                        conflict = true
                        break
                    }
                    kind = unified
                }
                result.append(kind)
            }
            if !conflict { kinds[name] = result }
        }
        return kinds
    }

    /// A view, or a view's property, named in one place only while a close
    /// name is well established (`crad.y` beside `card`, declared or named
    /// twice or more; `card.opactiy` beside `opacity`, a property animc
    /// draws, or one named twice or more) is likely misspelt: a warning with
    /// "did you mean". Names shorter than 3 letters are left alone (`x` and
    /// `y` are not typos of each other), and so are names that are each
    /// used once (`talk-in` beside `talk-out`). A file naming more than
    /// ``namedOnceViewLimit`` views is not checked for misspelt views (each
    /// would be compared with every other: generated files, not typing).
    private mutating func warnOfNamesNamedOnce(_ mentions: [BindingUses.Mention]) {
        // Only a property written out (`propertyRange`), of 3 letters or more and not drawn, can
        // be flagged: when no mention names one, the properties are not counted at all.
        let propertiesMayWarn = mentions.contains { mention in
            mention.propertyRange != nil && mention.property.utf8.count >= 3 && !Drawing.properties.contains(mention.property)
        }
        var viewCounts: [String: Int] = [:]
        var propertyCounts: [Property: Int] = [:]
        for view in programViews {
            viewCounts[view.name, default: 0] += 1
            guard propertiesMayWarn else { continue }
            for value in view.initials { propertyCounts[Property(view: view.name, name: value.property), default: 0] += 1 }
        }
        // Counted a run at a time: consecutive tweens mostly name the same view and property.
        for mention in mentions {
            viewCounts[mention.view, default: 0] += mention.count
            if propertiesMayWarn { propertyCounts[Property(view: mention.view, name: mention.property), default: 0] += mention.count }
        }
        // A mention naming what the one before it names is not the only one: skipped unread.
        // (The established views listed only when some view is named once and another twice or more.)
        if viewCounts.count <= Resolver.namedOnceViewLimit, viewCounts.values.contains(1), viewCounts.values.contains(where: { $0 >= 2 }) {
            let views = viewCounts.filter { $0.value >= 2 }.keys.sorted()
            for (index, mention) in mentions.enumerated() where mention.view.utf8.count >= 3
                && (index == 0 || mentions[index - 1].view != mention.view) && viewCounts[mention.view] == 1 {
                if let match = views.first(where: { isOneEditAway($0, mention.view) }) {
                    // Or the view is meant: declared, it is no longer named only once.
                    var start = 0
                    switch program.items.first {
                    case .binding(let binding)?: start = binding.range.start
                    case .view(let view)?: start = view.range.start
                    case nil: break
                    }
                    report(.namedOnce("view `\(mention.view)`"), at: mention.viewRange, hint: didYouMean(match),
                           fixes: [.replacing(mention.viewRange, with: match),
                                   Diagnostic.FixIt(SourceRange(start, start), "view \(mention.view)\n", title: "Declare the view `\(mention.view)`")])
                    return
                }
            }
        }
        guard propertiesMayWarn, propertyCounts.values.contains(1) else { return }
        // Each view's properties named twice or more.
        var established: [String: Set<String>] = [:]
        for (property, count) in propertyCounts where count >= 2 { established[property.view, default: []].insert(property.name) }
        for (index, mention) in mentions.enumerated() where mention.property.utf8.count >= 3
            && (index == 0 || mentions[index - 1].view != mention.view || mentions[index - 1].property != mention.property)
            && !Drawing.properties.contains(mention.property) && propertyCounts[Property(view: mention.view, name: mention.property)] == 1 {
            guard let written = mention.propertyRange else { continue }
            // The first, in sorted order, of the drawn properties and the view's
            // established ones one edit away (a name is not one edit from itself).
            let length = mention.property.unicodeScalars.count
            var match: String?
            for candidates in [Drawing.properties, established[mention.view] ?? []] {
                for candidate in candidates where match.map({ candidate < $0 }) ?? true
                    && abs(candidate.unicodeScalars.count - length) <= 1 && isOneEditAway(candidate, mention.property) {
                    match = candidate
                }
            }
            if let match {
                report(.namedOnce("property `\(mention.view).\(mention.property)`"), at: written, hint: didYouMean(match),
                       fixes: [.replacing(written, with: match)])
                return
            }
        }
    }

    /// A duration with no unit of 10 or more in a file whose other durations
    /// are all under a second (`in 300` beside `in 0.2s`) was surely meant in
    /// milliseconds: a warning. A file of bare durations, or one with longer
    /// ones, is taken as written.
    ///
    /// A name that a `let` binds to a number with no unit (`let fast = 200`,
    /// then `in fast`) is such a duration too, counted once however often
    /// it is used, and warned of at its first use; the fix gives the `let`
    /// its unit. A named duration (`let gap = 80ms`) counts as its length;
    /// any other name (a parameter) as a long one, since its length is not
    /// known here.
    private mutating func warnOfBareDurations(_ durations: BindingUses.DurationSummary) {
        var summary = durations
        var named: [(use: BindingUses.NameUse, binding: Binding, number: Number)] = []
        var seen: Set<String> = []
        for use in durations.named where seen.insert(use.name).inserted {
            summary.count += 1
            guard let binding = bindings[use.name], binding.parameters == nil else { summary.long += 1; continue }
            switch binding.value.kind {
            case .value(.plain(.number(let number))) where number.formula == nil && number.value.isFinite:
                if number.value >= 1 { summary.long += 1 }
                if number.value >= 10 { named.append((use, binding, number)) }
            case .value(.duration(let duration)):
                if !(duration.approximateSeconds < 1) { summary.long += 1 }
            default:
                summary.long += 1
            }
        }
        // A candidate is itself a second or more: the others are all under one
        // exactly when it is the only such duration (and there are others).
        guard summary.count >= 2, summary.long == 1 else { return }
        for (value, range) in durations.bare {
            let written = formatNumber(value)
            report(.bareDuration(written), at: range, hint: didYouMean("\(written)ms"), fixes: [.replacing(range, with: "\(written)ms")])
        }
        for (use, binding, number) in named {
            let written = formatNumber(number.value)
            report(.bareNamedDuration(name: use.name, written: written), at: use.range, hint: didYouMean("let \(use.name) = \(written)ms"),
                   notes: [.init(.boundHere(use.name), at: binding.value.range)],
                   fixes: [.replacing(number.range, with: "\(written)ms")])
        }
    }

    /// A property written out (`animate card.rotate-y`) whose name reads as
    /// one animc draws but is not (``Drawing/lookalikes``) runs, and moves
    /// nothing on the stage: a warning at its first place, naming the drawn
    /// property meant when there is one (and the fix to it).
    private mutating func warnOfUndrawnProperties(_ mentions: [BindingUses.Mention]) {
        var warned: Set<String> = []
        for mention in mentions where mention.property.utf8.count >= 3 {
            guard let written = mention.propertyRange, let meant = Drawing.lookalikes[mention.property],
                  warned.insert(mention.property).inserted else { continue }
            let property = "\(mention.view).\(mention.property)"
            if let meant {
                report(.undrawnProperty(property), at: written, hint: didYouMean(meant), fixes: [.replacing(written, with: meant)])
            } else {
                report(.undrawnProperty(property), at: written,
                       hint: "animc draws x, y, radius, width, height, size, scale, scale-x, scale-y, rotation, opacity and color;"
                           + " `\(mention.property)` is shown beside the stage and exported as a custom property only")
            }
        }
    }

    /// A name given for a parameter that is an animation (`twice(ghost)`,
    /// or a default: `let twice(a = ghost)`) must name a `let`, as a name
    /// written in a body must. (Names given for values are checked where
    /// the call is expanded, views need no declaration.)
    private mutating func reportUnknownAnimationArguments(_ uses: [BindingUses.NameUse], kinds: [String: [ParameterKind?]]) {
        guard !kinds.isEmpty else { return }
        var candidates: [String]?
        for use in uses {
            guard let of = use.argumentOf, let kind = kinds[of.callee], of.index < kind.count, kind[of.index] == .animation,
                  !brokenNames.contains(use.name) else { continue }
            if candidates == nil { candidates = bindings.keys.sorted() }   // sorted: ties give the same hint on every run
            let match = closestMatch(to: use.name, in: candidates ?? [])
            report(.unknownName(use.name), at: use.range, hint: match.map(didYouMean), fixes: match.map { [.replacing(use.range, with: $0)] } ?? [])
        }
    }

    /// Whether `a` and `b` differ by exactly one edit: a letter inserted,
    /// removed or changed, or two neighbours swapped (`crad`, `opactiy`): a
    /// name used once that close to an established one is surely a typo,
    /// where a looser match (`shade` and `scale`) may well be meant.
    private func isOneEditAway(_ a: String, _ b: String) -> Bool {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard x != y, abs(x.count - y.count) <= 1 else { return false }
        var i = 0
        while i < min(x.count, y.count), x[i] == y[i] { i += 1 }
        if x.count == y.count {
            if x[(i + 1)...] == y[(i + 1)...] { return true }   // one changed
            return i + 1 < x.count && x[i] == y[i + 1] && x[i + 1] == y[i] && x[(i + 2)...] == y[(i + 2)...]   // two swapped
        }
        // One inserted into the shorter.
        return x.count > y.count ? x[(i + 1)...] == y[i...] : x[i...] == y[(i + 1)...]
    }

    /// Above this many views, misspelt views are not looked for.
    static let namedOnceViewLimit = 1000

    private mutating func collectViewDeclarations() {
        var declared: [String: SourceRange] = [:]
        for view in programViews {
            views.insert(view.name)
            mentionedViews.append(view.name)
            mentionedAt.append(view.nameRange.start)
            if let first = declared[view.name] {
                report(.duplicateView(view.name), at: view.nameRange, hint: "put all of its initial values in one declaration",
                       notes: [.init(.firstDeclared, at: first)])
                continue
            }
            declared[view.name] = view.nameRange
            if let placement = placement(of: view) { placements[view.name] = placement }
            var seen: [String: SourceRange] = [:]
            for item in view.initials {
                if let first = seen[item.property] {
                    report(.duplicateProperty(view: view.name, property: item.property), at: item.range,
                           notes: [.init(.firstGiven, at: first)])
                    continue
                }
                seen[item.property] = item.range
                let property = Property(view: view.name, name: item.property)
                switch item.value {
                case .number(let number): initial[property] = .number(number.value)
                case .color(let color): initial[property] = .color(color.color)
                case .point(let x, let y, _) where !Drawing.properties.contains(item.property):
                    initial[property] = .point(Point(x: x.value, y: y.value))
                case .point:
                    report(.valueKind(verb: "view", expected: "a number or a colour", found: "a point"), at: item.value.range,
                           hint: "give `x` and `y` their own values: `view \(view.name) x 0 y 0`")
                    continue
                }
                initialRanges[property] = item.value.range
            }
        }
    }

    /// `at` and `origin` as a ``Placement``; `nil` when the view has neither.
    private mutating func placement(of view: ViewDeclaration) -> Placement? {
        guard view.home != nil || view.origin != nil else { return nil }
        var placement = Placement()
        func point(_ value: ValueSyntax, verb: String, example: String) -> (x: Double, y: Double)? {
            guard case .point(let x, let y, _) = value, x.value.isFinite, y.value.isFinite else {
                report(.valueKind(verb: verb, expected: "a point", found: value.isColor ? "a colour" : "a number"), at: value.range,
                       hint: "write `view \(view.name) \(verb) \(example)`")
                return nil
            }
            return (x.value, y.value)
        }
        if let home = view.home { placement.home = point(home, verb: "at", example: "(120, 80)") }
        switch view.origin {
        case .word(let word, let range)?:
            if let known = Placement.originWords.first(where: { $0.word == word }) {
                placement.origin = (known.x, known.y)
            } else {
                report(.unknownOrigin(word), at: range,
                       hint: "an origin is " + Placement.originWords.map { "`\($0.word)`" }.joined(separator: ", ")
                           + " or `(FX, FY)`, fractions of the shape's box: `origin (0, 0.5)` is the middle of its left edge")
            }
        case .value(let value)?:
            if let fractions = point(value, verb: "origin", example: "(0, 0.5)") { placement.origin = fractions }
        case nil:
            break
        }
        return placement
    }

    private mutating func collectBindings() {
        bindings = BindingTable(items: program.items)
        for item in program.items.indices {
            guard case .binding(let binding) = program.items[item] else { continue }
            if binding.parameters != nil { anyParameters = true }
            // The name's number, numbered here when it is new (one look-up: most names are).
            let next = bindings.count
            if let id = Resolver.number(&bindings.numbers[binding.name, default: -1], next: next),
               let first = bindings[number: id] {   // always: a number is given with its binding
                report(.duplicateLet(binding.name), at: binding.nameRange, hint: "rename one of the two bindings",
                       notes: [.init(.firstDefined, at: first.nameRange)])
                if first.range == binding.range {
                    if visitedIDs == nil {
                        visitedIDs = Array(0..<next)
                        visitedItems = (0..<next).map { bindings.position(of: $0) }
                    }
                    visitedIDs?.append(id)
                    visitedItems.append(item)
                }
                continue
            }
            if visitedIDs != nil {
                visitedIDs?.append(next)
                visitedItems.append(item)
            }
            parameterised.append(binding.parameters != nil)
            bindings.append(at: item)
        }
    }

    /// The number in `slot` (`-1`: none yet, and `next` is put there): `nil` when it is new.
    private static func number(_ slot: inout Int, next: Int) -> Int? {
        guard slot == -1 else { return slot }
        slot = next
        return nil
    }

    private mutating func report(_ kind: DiagnosticKind, at range: SourceRange, hint: String? = nil,
                                 notes: [Diagnostic.Note] = [], fixes: [Diagnostic.FixIt] = []) {
        diagnostics.append(Diagnostic(kind, at: range, hint: hint, notes: notes, fixes: fixes))
    }

    /// Where binding `id`'s edge number `offset` (of those ``run()`` lists
    /// for it: the bindings it names, then the arguments naming bindings)
    /// is written: its uses walked again, for the one edge a cycle report shows.
    private func edgeRange(_ id: Int, offset: Int) -> SourceRange {
        // The binding whose walk gave `id` its edges: the last one visited with that number.
        let item = visitedIDs.flatMap { ids in ids.lastIndex(of: id).map { visitedItems[$0] } } ?? bindings.position(of: id)
        guard case .binding(let binding) = program.items[item] else { return .none }
        let uses = BindingUses(of: binding, warnings: false)
        var remaining = offset
        for use in uses.names where bindings.numbers[use.name] != nil {
            if remaining == 0 { return use.range }
            remaining -= 1
        }
        for use in uses.argumentUses where bindings.numbers[use.name] != nil {
            if remaining == 0 { return use.range }
            remaining -= 1
        }
        return .none
    }

    /// A topological order of the bindings (each after what it uses), reporting
    /// each cycle once, at the binding where it closes. `targets[starts[id]..<ends[id]]`:
    /// the bindings binding `id` uses, by number (where it names them: ``edgeRange(_:offset:)``).
    private mutating func orderBindings(targets: [Int], starts: [Int], ends: [Int], broken: inout [Bool]) -> [Int] {
        // 0: not reached, 1: being explored, 2: done.
        var marks = [UInt8](repeating: 0, count: bindings.count)
        var order: [Int] = []
        order.reserveCapacity(bindings.count)
        // Iterative depth-first search; `path` is the chain being explored, with `next` the next edge of each.
        var path: [Int] = [], next: [Int] = []
        for root in 0..<bindings.count where marks[root] == 0 {
            path.append(root)
            next.append(starts[root])
            marks[root] = 1
            while let top = path.last, let edge = next.last {
                if edge < ends[top] {
                    next[next.count - 1] += 1
                    let target = targets[edge]
                    switch marks[target] {
                    case 1:
                        let cycle = path.drop { $0 != target }
                        for id in cycle { broken[id] = true }
                        let names = cycle.map { bindings.name($0) }
                        let range = edgeRange(top, offset: edge - starts[top])
                        if cycle.contains(where: { parameterised[$0] }) {
                            report(.recursion(names[0], through: Array(names.dropFirst())), at: range,
                                   hint: "a call means its body written out, so a `let` cannot call itself; repeat with `^ N` or `repeated forever`")
                        } else {
                            report(.cycle(names[0], through: Array(names.dropFirst())), at: range,
                                   hint: "an animation cannot contain itself; build it from other bindings")
                        }
                    case 2:
                        if broken[target] { broken[top] = true }
                    default:
                        marks[target] = 1
                        path.append(target)
                        next.append(starts[target])
                    }
                } else {
                    marks[top] = 2
                    path.removeLast()
                    next.removeLast()
                    if let parent = path.last, broken[top] { broken[parent] = true }
                    if !broken[top] { order.append(top) }
                }
            }
        }
        return order
    }
}
