import Animations

/// Rewrites a binding into the normal form the semiring's laws allow, with
/// `let`s inlined and `all views` expanded, so that two animations that the
/// exact laws make equal print identically:
///
/// ```swift
/// let outcome = run(SourceFile(name: "laws.anim", text: source), binding: "left-nested")
/// let normal = try normalize(outcome)
/// print(format(normal.program))
/// // let left-nested =
/// //   animate ball.radius from 10 to 20 ; animate ball.red from 0 to 1 ; animate ball.opacity from 1 to 0
/// ```
///
/// Only sound rewrites are applied (semantics note §5), each a small named
/// rule below with the law it relies on: flattening, identities,
/// annihilation, canonical order and deduplication of `||`, factoring common
/// prefixes out of `||`, common suffixes only when the prefixes last equally
/// long, pushing `in` to the leaves and `reversed` as far as mirrored easings
/// absorb it, merging waits and dropping waits a longer sibling covers, and
/// keeping powers symbolic while folding repeated runs of a sequence into one.
///
/// Contract (checked by property tests on generated programs):
/// `eval(normalize(p)) == eval(p)`, `normalize(normalize(p)) == normalize(p)`,
/// `parse(format(normalize(p))) == normalize(p)`.
public func normalize(_ outcome: Outcome) throws(NormalizationError) -> NormalForm {
    guard !outcome.hasErrors, let target = outcome.target else { throw .programHasErrors }
    var normalizer = Normalizer(resolved: outcome.resolved)
    let term = try normalizer.term(forBinding: target.name)
    let expr = normalizer.expression(term)
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

/// Why a program could not be normalized.
public enum NormalizationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The program has errors; report its diagnostics instead.
    case programHasErrors
    /// The expression nests more deeply than the normalizer handles.
    case tooDeep(Int)
    /// Exact time overflowed while rewriting.
    case overflow

    public var description: String {
        switch self {
        case .programHasErrors: return "the program has errors"
        case .tooDeep(let depth): return "the animation nests more than \(depth) levels deep after inlining; normalize a smaller part with --binding"
        case .overflow: return "exact time overflowed while normalizing"
        }
    }
}

// MARK: - Terms

/// A tween leaf of a normal form: `animate V.P from A to B in D with E`,
/// playing forwards.
struct Leaf: Hashable {
    let property: Property
    let from: Double
    let to: Double
    let easing: Easing
    let duration: Time

    static func == (lhs: Leaf, rhs: Leaf) -> Bool {
        lhs.property == rhs.property && lhs.from.bitPattern == rhs.from.bitPattern
            && lhs.to.bitPattern == rhs.to.bitPattern && lhs.easing == rhs.easing && lhs.duration == rhs.duration
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(property)
        hasher.combine(from.bitPattern)
        hasher.combine(to.bitPattern)
        hasher.combine(duration)
    }
}

/// A hash-consed term: equal terms are the same object, so comparing and
/// hashing children is by identity.
final class Term {
    enum Kind {
        case zero
        case one
        case wait(Time)
        case tween(Leaf)
        case sequence([Term])
        case parallel([Term])
        case power(Term, Int)
        /// Only where no rule absorbs it (a tween or warp whose easing has no named mirror).
        case reversed(Term)
        /// `x with E` on a composite.
        case warp(Term, Easing)
        case dismantled
    }

    private(set) var kind: Kind
    /// `nil` for `zero`.
    let duration: Time?
    /// Height of the tree, bounded by ``Normalizer/maximumDepth``.
    let depth: Int
    /// Whether any tween lies inside (otherwise the term is a wait, `one` or `zero`).
    let hasSegments: Bool
    /// A canonical text (long: it spells out the whole term). Only used to
    /// order two operands of `||` whose ``fingerprint``s collide.
    private(set) lazy var key: String = makeKey()
    /// The first property the term animates (empty for none), so that the
    /// operands of `||` come out roughly by name.
    private(set) lazy var firstProperty: String = makeFirstProperty()
    /// A hash of the term's content (FNV-1a over its fields and its
    /// children's fingerprints), the same in every run: the order of `||`
    /// operands must not depend on addresses or on Swift's seeded hashing.
    private(set) lazy var fingerprint: UInt64 = makeFingerprint()

    init(_ kind: Kind, duration: Time?, depth: Int) {
        self.kind = kind
        self.duration = duration
        self.depth = depth
        switch kind {
        case .zero, .one, .wait, .dismantled: hasSegments = false
        case .tween: hasSegments = true
        case .sequence(let items), .parallel(let items): hasSegments = items.contains { $0.hasSegments }
        case .power(let body, _), .reversed(let body), .warp(let body, _): hasSegments = body.hasSegments
        }
    }

    var isZero: Bool { if case .zero = kind { return true } else { return false } }
    var isOne: Bool { if case .one = kind { return true } else { return false } }

    /// The operands of a sequence (the term itself otherwise).
    var items: [Term] {
        if case .sequence(let items) = kind { return items }
        return [self]
    }

    /// Whether `self` sorts before `other` among the operands of `||`.
    func precedes(_ other: Term) -> Bool {
        if self === other { return false }
        if firstProperty != other.firstProperty { return firstProperty < other.firstProperty }
        if fingerprint != other.fingerprint { return fingerprint < other.fingerprint }
        return key < other.key
    }

    private func makeFirstProperty() -> String {
        switch kind {
        case .tween(let leaf): return leaf.property.description
        case .sequence(let items), .parallel(let items):
            for item in items where item.hasSegments { return item.firstProperty }
            return ""
        case .power(let body, _), .reversed(let body), .warp(let body, _): return body.firstProperty
        case .zero, .one, .wait, .dismantled: return ""
        }
    }

    private func makeFingerprint() -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ value: UInt64) {
            var v = value
            for _ in 0..<8 {
                hash = (hash ^ (v & 0xff)) &* 0x0000_0100_0000_01b3
                v >>= 8
            }
        }
        func mix(_ text: String) {
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            mix(UInt64(text.utf8.count))
        }
        func mix(_ time: Time) {
            mix(UInt64(bitPattern: time.numerator))
            mix(UInt64(bitPattern: time.denominator))
        }
        switch kind {
        case .zero: mix(1)
        case .one: mix(2)
        case .wait(let d):
            mix(3)
            mix(d)
        case .tween(let leaf):
            mix(4)
            mix(leaf.property.description)
            mix(leaf.from.bitPattern)
            mix(leaf.to.bitPattern)
            mix(leaf.duration)
            mix(leaf.easing.description)
        case .sequence(let items):
            mix(5)
            for item in items { mix(item.fingerprint) }
        case .parallel(let items):
            mix(6)
            for item in items { mix(item.fingerprint) }
        case .power(let body, let n):
            mix(7)
            mix(UInt64(bitPattern: Int64(n)))
            mix(body.fingerprint)
        case .reversed(let body):
            mix(8)
            mix(body.fingerprint)
        case .warp(let body, let easing):
            mix(9)
            mix(easing.description)
            mix(body.fingerprint)
        case .dismantled: mix(10)
        }
        return hash
    }

    private func makeKey() -> String {
        switch kind {
        case .zero: return "0"
        case .one: return "1"
        case .wait(let d): return "W\(d)"
        case .tween(let leaf):
            return "T\(leaf.property) \(leaf.from) \(leaf.to) \(leaf.duration) \(leaf.easing)"
        case .sequence(let items): return "S(" + items.map(\.key).joined(separator: ",") + ")"
        case .parallel(let items): return "P(" + items.map(\.key).joined(separator: ",") + ")"
        case .power(let body, let n): return "X\(n)(\(body.key))"
        case .reversed(let body): return "R(\(body.key))"
        case .warp(let body, let easing): return "E\(easing)(\(body.key))"
        case .dismantled: return ""
        }
    }

    deinit {
        // Release long chains of uniquely owned children without recursion.
        var stack: [Term] = []
        takeChildren(into: &stack)
        while var term = stack.popLast() {
            if isKnownUniquelyReferenced(&term) { term.takeChildren(into: &stack) }
        }
    }

    private func takeChildren(into stack: inout [Term]) {
        switch kind {
        case .zero, .one, .wait, .tween, .dismantled: return
        case .sequence(let items), .parallel(let items): stack.append(contentsOf: items)
        case .power(let body, _), .reversed(let body), .warp(let body, _): stack.append(body)
        }
        kind = .dismantled
    }
}

/// The identity of a term's shape, for hash-consing.
private enum Shape: Hashable {
    case zero, one
    case wait(Time)
    case tween(Leaf)
    case sequence([ObjectIdentifier])
    case parallel([ObjectIdentifier])
    case power(ObjectIdentifier, Int)
    case reversed(ObjectIdentifier)
    case warp(ObjectIdentifier, Easing)
}

// MARK: - The rewriting

struct Normalizer {
    /// Terms deeper than this are refused (the rewrites recurse on depth).
    static let maximumDepth = 2_000
    /// A power whose unrolled length is at most this is unrolled before the
    /// runs of its sequence are folded again, so `x ^ 3` and `x ; x ; x` meet.
    static let unrollLimit = 256

    let resolved: ResolvedProgram
    private var table: [Shape: Term] = [:]
    private var bindings: [String: Term] = [:]
    /// Bindings flattened into their only user (see ``term(forBinding:)``).
    private var inlined: Set<String> = []
    /// Terms already seen through `reversed`, `scaled`, keyed by identity.
    private var reversedMemo: [ObjectIdentifier: Term] = [:]

    init(resolved: ResolvedProgram) {
        self.resolved = resolved
    }

    lazy var zero = make(.zero, .zero, duration: nil, depth: 1)
    lazy var one = make(.one, .one, duration: .zero, depth: 1)

    private mutating func make(_ shape: Shape, _ kind: Term.Kind, duration: Time?, depth: Int) -> Term {
        if let existing = table[shape] { return existing }
        let term = Term(kind, duration: duration, depth: depth)
        table[shape] = term
        return term
    }

    // MARK: Building from the syntax tree

    /// The normal form of `let name`, inlining the bindings it uses (built in
    /// dependency order, so a long chain of lets costs no recursion).
    mutating func term(forBinding name: String) throws(NormalizationError) -> Term {
        // Which bindings the target needs, how often each is used, and whether
        // its one use is as an operand of a chain of its own kind.
        var needed: Set<String> = [name]
        var uses: [String: Int] = [:]
        var sameKindUses: [String: Int] = [:]
        var stack = [name]
        while let next = stack.popLast() {
            guard let binding = resolved.bindings[next] else { continue }
            for (used, parentIsSameKind) in references(in: binding.value) {
                uses[used, default: 0] += 1
                if parentIsSameKind { sameKindUses[used, default: 0] += 1 }
                if needed.insert(used).inserted { stack.append(used) }
            }
        }
        // A chain `let a2 = a1 ; x`, `let a3 = a2 ; y`, … is flattened into its
        // single user instead of normalized at every step (which would cost
        // O(n²) for n steps).
        inlined = Set(needed.filter { uses[$0] == 1 && sameKindUses[$0] == 1 && $0 != name })
        for bindingName in resolved.order where needed.contains(bindingName) && !inlined.contains(bindingName) {
            guard let binding = resolved.bindings[bindingName] else { continue }
            bindings[bindingName] = try term(binding.value)
        }
        guard let result = bindings[name] else { throw .programHasErrors }
        return result
    }

    /// Each name `expr` refers to, with whether it is a direct operand of a
    /// `;` (or `||`) chain while its binding is itself such a chain.
    private func references(in expr: Expr) -> [(String, Bool)] {
        var found: [(String, Bool)] = []
        var stack: [(Expr, parentSequence: Bool?)] = [(expr, nil)]
        while let (node, parent) = stack.popLast() {
            switch node.kind {
            case .name(let name):
                var sameKind = false
                if let parent, let bound = resolved.bindings[name] {
                    switch bound.value.kind {
                    case .sequence: sameKind = parent
                    case .parallel: sameKind = !parent
                    default: sameKind = false
                    }
                }
                found.append((name, sameKind))
            case .zero, .one, .wait, .tween: break
            case .parallel(let parts): stack.append(contentsOf: parts.map { ($0, false) })
            case .sequence(let parts): stack.append(contentsOf: parts.map { ($0, true) })
            case .power(let inner, _), .reversed(let inner), .looped(let inner, _), .repeated(let inner, _),
                 .delayed(let inner, _), .retimed(let inner, _), .eased(let inner, _, _):
                stack.append((inner, nil))
            }
        }
        return found
    }

    /// The operands of a chain of `;` (or `||`), flattening nested chains of
    /// the same kind and inlined bindings, without recursion.
    private mutating func chainOperands(_ parts: [Expr], sequence: Bool) throws(NormalizationError) -> [Term] {
        var terms: [Term] = []
        var stack = Array(parts.reversed())
        while let part = stack.popLast() {
            switch part.kind {
            case .sequence(let inner) where sequence:
                stack.append(contentsOf: inner.reversed())
                continue
            case .parallel(let inner) where !sequence:
                stack.append(contentsOf: inner.reversed())
                continue
            case .name(let name) where inlined.contains(name):
                if let bound = resolved.bindings[name] {
                    stack.append(bound.value)
                    continue
                }
            default:
                break
            }
            terms.append(try term(part))
        }
        return terms
    }

    private mutating func term(_ expr: Expr) throws(NormalizationError) -> Term {
        switch expr.kind {
        case .name(let name):
            guard let bound = bindings[name] else { throw .programHasErrors }
            return bound
        case .zero: return zero
        case .one: return one
        case .wait(let duration): return try wait(try seconds(duration))
        case .tween(let tween): return try tweens(tween)
        case .parallel(let parts):
            return try parallel(try chainOperands(parts, sequence: false))
        case .sequence(let parts):
            return try sequence(try chainOperands(parts, sequence: true))
        case .power(let inner, let count), .repeated(let inner, let count):
            return try power(try term(inner), try whole(count))
        case .looped(let inner, let count):
            let body = try term(inner)
            return try power(try sequence([body, try reversed(body)]), try whole(count))
        case .reversed(let inner):
            return try reversed(try term(inner))
        case .delayed(let inner, let duration):
            return try sequence([try wait(try seconds(duration)), try term(inner)])
        case .retimed(let inner, let duration):
            return try retimed(try term(inner), to: try seconds(duration))
        case .eased(let inner, let easing, _):
            return try eased(try term(inner), easing)
        }
    }

    private mutating func tweens(_ tween: Tween) throws(NormalizationError) -> Term {
        let views: [String]
        switch tween.target {
        case .view(let name, _): views = [name]
        case .allViews: views = resolved.views
        }
        guard let (from, to) = tween.values else { throw .programHasErrors }
        var leaves: [Term] = []
        for view in views {
            let leaf = Leaf(property: Property(view: view, name: tween.resolvedProperty), from: from + 0, to: to + 0,
                            easing: .linear, duration: .one)
            leaves.append(make(.tween(leaf), .tween(leaf), duration: .one, depth: 1))
        }
        return try parallel(leaves)
    }

    private func seconds(_ duration: Duration) throws(NormalizationError) -> Time {
        guard let time = duration.time else { throw .overflow }
        return time
    }

    private func whole(_ count: Count) throws(NormalizationError) -> Int {
        guard let exact = count.number.exact, exact.denominator == 1, let n = Int(exactly: exact.numerator), n >= 0 else {
            throw .programHasErrors
        }
        return n
    }

    // MARK: Leaves

    private mutating func wait(_ duration: Time) throws(NormalizationError) -> Term {
        // Identity: `wait 0` is `one`.
        if duration.isZero { return one }
        return make(.wait(duration), .wait(duration), duration: duration, depth: 1)
    }

    private mutating func leaf(_ leaf: Leaf) -> Term {
        make(.tween(leaf), .tween(leaf), duration: leaf.duration, depth: 1)
    }

    // MARK: Sequence

    /// `x ; y ; …`.
    ///
    /// Rules: **flatten** (`;` is associative); **annihilate** (`zero` in a
    /// sequence makes it `zero`); **identity** (drop `one`); **merge waits**
    /// (`wait a ; wait b = wait (a + b)`); **fold runs** (`x ; x ; x = x ^ 3`,
    /// associativity again), after unrolling small powers so that every
    /// spelling of a repetition meets the same normal form.
    mutating func sequence(_ parts: [Term]) throws(NormalizationError) -> Term {
        var items: [Term] = []
        for part in parts {
            if part.isZero { return zero }
            try append(part, to: &items)
        }
        items = try mergeWaits(items)
        items = try foldRuns(items)
        return try sequenceOfNormalItems(items)
    }

    /// Appends the operands of `part`, unrolling small powers.
    private mutating func append(_ part: Term, to items: inout [Term]) throws(NormalizationError) {
        switch part.kind {
        case .one: return
        case .sequence(let inner): for item in inner { try append(item, to: &items) }
        case .power(let body, let count) where count <= Normalizer.unrollLimit / body.items.count:
            for _ in 0..<count { items.append(contentsOf: body.items) }
        case .zero, .wait, .tween, .parallel, .power, .reversed, .warp, .dismantled:
            items.append(part)
        }
    }

    private mutating func mergeWaits(_ items: [Term]) throws(NormalizationError) -> [Term] {
        var merged: [Term] = []
        for item in items {
            if case .wait(let b) = item.kind, let last = merged.last, case .wait(let a) = last.kind {
                guard let sum = a.adding(b) else { throw .overflow }
                merged[merged.count - 1] = try wait(sum)
            } else {
                merged.append(item)
            }
        }
        return merged
    }

    /// Replaces repeated runs `B ; B ; … ; B` by `B ^ k`, scanning left to
    /// right and taking at each position the run that covers the most items
    /// (the shortest block on ties); then merges a power with copies of its
    /// body beside it, and consecutive powers of one body.
    private mutating func foldRuns(_ items: [Term]) throws(NormalizationError) -> [Term] {
        guard items.count > 1 else { return items }
        let ids = items.map(ObjectIdentifier.init)
        // Where each item occurs, so that only periods at which the item
        // recurs are tried (a list without repeats costs O(n)).
        var occurrences: [ObjectIdentifier: [Int]] = [:]
        for (index, id) in ids.enumerated() { occurrences[id, default: []].append(index) }
        var cursor: [ObjectIdentifier: Int] = [:]
        var result: [Term] = []
        var index = 0
        while index < items.count {
            var best = (period: 1, copies: 1)
            let maximumPeriod = min(Normalizer.unrollLimit, (items.count - index) / 2)
            let positions = occurrences[ids[index]] ?? []
            var next = cursor[ids[index], default: 0]
            while next < positions.count, positions[next] <= index { next += 1 }
            cursor[ids[index]] = next
            while next < positions.count, positions[next] - index <= maximumPeriod {
                let period = positions[next] - index
                next += 1
                var matched = 0
                while index + period + matched < items.count, ids[index + matched] == ids[index + period + matched] {
                    matched += 1
                }
                let copies = 1 + matched / period
                if copies >= 2, copies * period > best.copies * best.period {
                    best = (period, copies)
                }
            }
            if best.copies >= 2 {
                let body = try sequence(Array(items[index..<(index + best.period)]))
                // Copies of something that lasts 0 collapse to one, which may be a sequence.
                result.append(contentsOf: try powerOfNormalBody(body, best.copies).items)
                index += best.period * best.copies
            } else {
                result.append(items[index])
                index += 1
            }
        }
        return try absorbIntoPowers(result)
    }

    /// `B ; B ^ n = B ^ (n + 1)`, `B ^ n ; B = B ^ (n + 1)`, `B ^ m ; B ^ n = B ^ (m + n)`.
    private mutating func absorbIntoPowers(_ items: [Term]) throws(NormalizationError) -> [Term] {
        var result = items
        var changed = true
        while changed {
            changed = false
            var index = 0
            while index < result.count {
                guard case .power(let body, let count) = result[index].kind else {
                    index += 1
                    continue
                }
                let pattern = body.items
                let width = pattern.count
                // Copies of the body just before.
                if index >= width, zip(result[(index - width)..<index], pattern).allSatisfy({ $0 === $1 }) {
                    result.replaceSubrange((index - width)...index, with: [try powerOfNormalBody(body, count + 1)])
                    changed = true
                    index -= width
                    continue
                }
                // Copies of the body just after.
                if index + width < result.count, zip(result[(index + 1)...(index + width)], pattern).allSatisfy({ $0 === $1 }) {
                    result.replaceSubrange(index...(index + width), with: [try powerOfNormalBody(body, count + 1)])
                    changed = true
                    continue
                }
                // Another power of the same body.
                if index + 1 < result.count, case .power(let next, let more) = result[index + 1].kind, next === body {
                    let (sum, overflow) = count.addingReportingOverflow(more)
                    if !overflow {
                        result.replaceSubrange(index...(index + 1), with: [try powerOfNormalBody(body, sum)])
                        changed = true
                        continue
                    }
                }
                index += 1
            }
        }
        return result
    }

    /// A sequence of items that are already normal and mutually compatible.
    private mutating func sequenceOfNormalItems(_ items: [Term]) throws(NormalizationError) -> Term {
        switch items.count {
        case 0: return one
        case 1: return items[0]
        default:
            var duration = Time.zero
            var depth = 0
            for item in items {
                guard let d = item.duration, let sum = duration.adding(d) else { throw .overflow }
                duration = sum
                depth = max(depth, item.depth)
            }
            return try checked(make(.sequence(items.map(ObjectIdentifier.init)), .sequence(items), duration: duration, depth: depth + 1))
        }
    }

    // MARK: Parallel

    /// `x || y || …`.
    ///
    /// Rules: **flatten** (`||` is associative); **identity** (drop `zero`);
    /// **idempotence** (drop duplicates, `x || x = x`); **covered waits** (a
    /// `wait` or `one` no longer than a sibling adds nothing); **common
    /// prefixes** (`(x ; y) || (x ; z) = x ; (y || z)`, left distributivity);
    /// **common suffixes** (`(y ; x) || (z ; x) = (y || z) ; x`, right
    /// distributivity, only when `y` and `z` last equally long); **order**
    /// (operands sorted canonically, `||` is commutative).
    mutating func parallel(_ parts: [Term]) throws(NormalizationError) -> Term {
        var children: [Term] = []
        var seen = Set<ObjectIdentifier>()
        for part in parts {
            let operands: [Term]
            switch part.kind {
            case .parallel(let inner): operands = inner
            case .zero: operands = []
            case .one, .wait, .tween, .sequence, .power, .reversed, .warp, .dismantled: operands = [part]
            }
            for operand in operands where seen.insert(ObjectIdentifier(operand)).inserted {
                children.append(operand)
            }
        }
        if children.isEmpty { return zero }
        if let hoisted = try hoistTrailingWaits(children) { return hoisted }
        children = dropAbsorbed(children)
        if let factored = try factorLeadingWaits(children) { return factored }
        if let factored = try factorPrefixes(children) { return factored }
        if let factored = try factorSuffixes(children) { return factored }
        if children.count == 1 { return children[0] }
        children.sort { $0.precedes($1) }
        var duration = Time.zero
        var depth = 0
        for child in children {
            if let d = child.duration { duration = max(duration, d) }
            depth = max(depth, child.depth)
        }
        return try checked(make(.parallel(children.map(ObjectIdentifier.init)), .parallel(children), duration: duration, depth: depth + 1))
    }

    /// `(x ; wait a) || y = (x || y) ; wait (D − D')`, where `D` is the
    /// duration of the whole and `D'` that of `x || y`: a trailing wait adds
    /// no segment, only length, so every operand sheds its trailing waits and
    /// the length they gave comes back as one wait after the `||`. (This
    /// includes dropping a wait that a longer operand covers, `wait d || x = x`
    /// when `Dx ≥ d`.) `nil` when no operand ends with a wait.
    private mutating func hoistTrailingWaits(_ children: [Term]) throws(NormalizationError) -> Term? {
        var stripped: [Term] = []
        var changed = false
        var total = Time.zero
        for child in children {
            if let d = child.duration { total = max(total, d) }
            var items: [Term] = []
            try append(child, to: &items)
            if child.isOne { changed = true }
            while let last = items.last, last.isWaitLike {
                items.removeLast()
                changed = true
            }
            stripped.append(try sequence(items))
        }
        guard changed else { return nil }
        let segments = stripped.filter { !$0.isOne }
        let inner = segments.isEmpty ? one : try parallel(segments)
        guard let covered = inner.duration, let rest = total.subtracting(covered) else { throw .overflow }
        return try sequence([inner, try wait(rest)])
    }

    /// `x || (x ; y) = x ; y`, and more generally an operand is dropped when
    /// another one starts with it: `p || ((p || q) ; y) = (p || q) ; y`. Both
    /// have the operand's segments at the same times, and the longer one
    /// already sets the duration (left distributivity with `one`, and
    /// idempotence of `||`).
    private func dropAbsorbed(_ children: [Term]) -> [Term] {
        guard children.count > 1 else { return children }
        var covered = Set<ObjectIdentifier>()
        for child in children {
            var stack = leadingParts(of: child)
            while let part = stack.popLast() {
                guard covered.insert(ObjectIdentifier(part)).inserted else { continue }
                stack.append(contentsOf: leadingParts(of: part))
            }
        }
        let kept = children.filter { !covered.contains(ObjectIdentifier($0)) }
        return kept.isEmpty ? children : kept
    }

    /// The terms a term starts with, at time 0, with all of their segments:
    /// the first item of a sequence, the body of a power, every operand of a `||`.
    private func leadingParts(of term: Term) -> [Term] {
        switch term.kind {
        case .sequence(let items): return items.first.map { [$0] } ?? []
        case .power(let body, _): return [body]
        case .parallel(let items): return items
        case .zero, .one, .wait, .tween, .reversed, .warp, .dismantled: return []
        }
    }

    /// `(wait a ; x) || (wait b ; y) = wait a ; (x || (wait (b − a) ; y))` for
    /// `a ≤ b`: left distributivity, with `wait b = wait a ; wait (b − a)`.
    private mutating func factorLeadingWaits(_ children: [Term]) throws(NormalizationError) -> Term? {
        var members: [(index: Int, wait: Time, rest: [Term])] = []
        for (index, child) in children.enumerated() {
            var items: [Term] = []
            try append(child, to: &items)
            if let first = items.first, case .wait(let d) = first.kind {
                members.append((index, d, Array(items.dropFirst())))
            }
        }
        guard members.count > 1, let shortest = members.map(\.wait).min() else { return nil }
        var rests: [Term] = []
        for member in members {
            guard let remaining = member.wait.subtracting(shortest) else { throw .overflow }
            rests.append(try sequence([try wait(remaining)] + member.rest))
        }
        let factored = try sequence([try wait(shortest), try parallel(rests)])
        let others = children.indices.filter { index in !members.contains { $0.index == index } }.map { children[$0] }
        return try parallel(others + [factored])
    }

    /// `(x ; y) || (x ; z) || w = (x ; (y || z)) || w`, for the first group of
    /// operands that share a first item; `nil` when no two do.
    private mutating func factorPrefixes(_ children: [Term]) throws(NormalizationError) -> Term? {
        guard children.count > 1 else { return nil }
        let unrolled = try children.map { child throws(NormalizationError) -> [Term] in
            var items: [Term] = []
            try append(child, to: &items)
            return items.isEmpty ? [child] : items
        }
        var groups: [ObjectIdentifier: [Int]] = [:]
        var order: [ObjectIdentifier] = []
        for (index, items) in unrolled.enumerated() {
            let head = ObjectIdentifier(items[0])
            if groups[head] == nil { order.append(head) }
            groups[head, default: []].append(index)
        }
        guard let head = order.first(where: { (groups[$0]?.count ?? 0) > 1 }), let members = groups[head] else { return nil }
        let first = unrolled[members[0]][0]
        var rests: [Term] = []
        for index in members {
            rests.append(try sequence(Array(unrolled[index].dropFirst())))
        }
        let factored = try sequence([first, try parallel(rests)])
        let others = children.indices.filter { !members.contains($0) }.map { children[$0] }
        return try parallel(others + [factored])
    }

    /// `(y ; x) || (z ; x) || w = ((y || z) ; x) || w` when `y` and `z` last
    /// equally long (otherwise the two copies of `x` start at different
    /// times): right distributivity. Operands qualify when they end with the
    /// same item and last equally long; the longest common suffix is taken
    /// out, splitting a wait where two differ (`wait 1 ; x` and `wait 3 ; x`
    /// share `wait 1 ; x`). `nil` when no two operands qualify.
    private mutating func factorSuffixes(_ children: [Term]) throws(NormalizationError) -> Term? {
        guard children.count > 1 else { return nil }
        struct Tail: Hashable {
            let last: ObjectIdentifier
            let duration: Time
        }
        var unrolled: [[Term]] = []
        var groups: [Tail: [Int]] = [:]
        var order: [Tail] = []
        for (index, child) in children.enumerated() {
            var items: [Term] = []
            try append(child, to: &items)
            if items.isEmpty { items = [child] }
            unrolled.append(items)
            guard let last = items.last, let total = child.duration else { continue }
            let tail = Tail(last: ObjectIdentifier(last), duration: total)
            if groups[tail] == nil { order.append(tail) }
            groups[tail, default: []].append(index)
        }
        guard let tail = order.first(where: { (groups[$0]?.count ?? 0) > 1 }), let members = groups[tail] else { return nil }
        var lists = members.map { unrolled[$0] }
        var suffix: [Term] = []
        while true {
            guard let candidate = lists[0].last, lists.allSatisfy({ !$0.isEmpty }) else { break }
            if lists.allSatisfy({ $0.last === candidate }) {
                suffix.insert(candidate, at: 0)
                for index in lists.indices { lists[index].removeLast() }
                continue
            }
            // All end with waits of different lengths: share the shortest.
            var lengths: [Time] = []
            for list in lists {
                guard let last = list.last, case .wait(let d) = last.kind else { break }
                lengths.append(d)
            }
            guard lengths.count == lists.count, let shortest = lengths.min() else { break }
            suffix.insert(try wait(shortest), at: 0)
            for index in lists.indices {
                guard let remaining = lengths[index].subtracting(shortest) else { throw .overflow }
                lists[index].removeLast()
                if !remaining.isZero { lists[index].append(try wait(remaining)) }
            }
            break
        }
        var prefixes: [Term] = []
        for list in lists { prefixes.append(try sequence(list)) }
        let factored = try sequence([try parallel(prefixes)] + suffix)
        let others = children.indices.filter { !members.contains($0) }.map { children[$0] }
        return try parallel(others + [factored])
    }

    // MARK: Power

    /// `x ^ n`.
    ///
    /// Rules: `x ^ 0 = one`; `x ^ 1 = x`; `zero ^ n = zero` and `one ^ n = one`
    /// for `n ≥ 1`; `(wait d) ^ n = wait (n·d)`; `(x ^ m) ^ n = x ^ (m·n)`;
    /// `x ^ n = x` when `x` lasts 0 (the copies coincide and Σ is a set).
    /// Small powers are unrolled and folded again by ``sequence(_:)``, so every
    /// spelling meets one normal form; large ones stay symbolic.
    mutating func power(_ body: Term, _ count: Int) throws(NormalizationError) -> Term {
        if count == 0 { return one }
        if count == 1 || body.isZero || body.isOne { return body }
        if body.duration == .zero { return body }
        if case .power(let inner, let m) = body.kind {
            let (product, overflow) = m.multipliedReportingOverflow(by: count)
            guard !overflow else { throw .overflow }
            return try power(inner, product)
        }
        if case .wait(let d) = body.kind {
            guard let total = d.multiplied(by: Int64(count)) else { throw .overflow }
            return try wait(total)
        }
        let (unrolled, overflow) = count.multipliedReportingOverflow(by: body.items.count)
        if !overflow, unrolled <= Normalizer.unrollLimit {
            return try sequence(Array(repeating: body, count: count))
        }
        return try powerOfNormalBody(body, count)
    }

    private mutating func powerOfNormalBody(_ body: Term, _ count: Int) throws(NormalizationError) -> Term {
        // Copies of something that lasts 0 coincide, and Σ is a set.
        if count == 1 || body.duration == .zero { return body }
        // (x ^ m) ^ n = x ^ (m·n).
        if case .power(let inner, let m) = body.kind {
            let (product, overflow) = m.multipliedReportingOverflow(by: count)
            guard !overflow else { throw .overflow }
            return try powerOfNormalBody(inner, product)
        }
        guard let d = body.duration, let total = d.multiplied(by: Int64(count)) else { throw .overflow }
        return try checked(make(.power(ObjectIdentifier(body), count), .power(body, count), duration: total, depth: body.depth + 1))
    }

    // MARK: Reversal

    /// `x reversed`, pushed down as far as it goes.
    ///
    /// Rules: `(x ; y) reversed = y reversed ; x reversed`;
    /// `(x || y) reversed = (wait (D − Dx) ; x reversed) || …` (each operand
    /// keeps its place from the end); `(x ^ n) reversed = (x reversed) ^ n`;
    /// `(x reversed) reversed = x`; waits, `one` and `zero` are their own
    /// reversal; a tween reversed is the tween with its ends swapped and its
    /// easing mirrored (`ease-in-quad` ↔ `ease-out-quad`), and
    /// `(x with E) reversed = (x reversed) with E.mirror` — where the easing
    /// has no named mirror, `reversed` stays.
    mutating func reversed(_ term: Term) throws(NormalizationError) -> Term {
        if let memo = reversedMemo[ObjectIdentifier(term)] { return memo }
        let result: Term
        switch term.kind {
        case .zero, .one, .wait, .dismantled:
            result = term
        case .tween(let leaf):
            if let mirror = leaf.easing.mirror {
                result = self.leaf(Leaf(property: leaf.property, from: leaf.to, to: leaf.from,
                                        easing: canonical(mirror), duration: leaf.duration))
            } else {
                result = try checked(make(.reversed(ObjectIdentifier(term)), .reversed(term), duration: term.duration, depth: term.depth + 1))
            }
        case .sequence(let items):
            var parts: [Term] = []
            for item in items.reversed() { parts.append(try reversed(item)) }
            result = try sequence(parts)
        case .parallel(let items):
            guard let total = term.duration else { return term }
            var parts: [Term] = []
            for item in items {
                guard let d = item.duration, let gap = total.subtracting(d) else { throw .overflow }
                parts.append(try sequence([try wait(gap), try reversed(item)]))
            }
            result = try parallel(parts)
        case .power(let body, let count):
            result = try power(try reversed(body), count)
        case .reversed(let inner):
            result = inner
        case .warp(let body, let easing):
            if let mirror = easing.mirror {
                result = try eased(try reversed(body), mirror)
            } else {
                result = try checked(make(.reversed(ObjectIdentifier(term)), .reversed(term), duration: term.duration, depth: term.depth + 1))
            }
        }
        reversedMemo[ObjectIdentifier(term)] = result
        return result
    }

    // MARK: Retiming

    /// `x in d`: scales every time by `d / D`, pushed down to the leaves
    /// (`(x ; y) in d` scales both; `(x ^ n) in d = (x in d/n) ^ n`;
    /// `(x with E) in d = (x in d) with E`; a tween's or wait's own length is scaled).
    mutating func retimed(_ term: Term, to target: Time) throws(NormalizationError) -> Term {
        guard let duration = term.duration else { return term }
        if duration == target { return term }
        guard !duration.isZero else { throw .programHasErrors }
        guard let factor = target.divided(by: duration) else { throw .overflow }
        var memo: [ObjectIdentifier: Term] = [:]
        return try scaled(term, by: factor, memo: &memo)
    }

    private mutating func scaled(_ term: Term, by factor: Time, memo: inout [ObjectIdentifier: Term]) throws(NormalizationError) -> Term {
        if let known = memo[ObjectIdentifier(term)] { return known }
        let result: Term
        switch term.kind {
        case .zero, .one, .dismantled:
            result = term
        case .wait(let d):
            guard let scaled = d.multiplied(by: factor) else { throw .overflow }
            result = try wait(scaled)
        case .tween(let leaf):
            guard let scaled = leaf.duration.multiplied(by: factor) else { throw .overflow }
            result = self.leaf(Leaf(property: leaf.property, from: leaf.from, to: leaf.to, easing: leaf.easing, duration: scaled))
        case .sequence(let items):
            var parts: [Term] = []
            for item in items { parts.append(try scaled(item, by: factor, memo: &memo)) }
            result = try sequence(parts)
        case .parallel(let items):
            var parts: [Term] = []
            for item in items { parts.append(try scaled(item, by: factor, memo: &memo)) }
            result = try parallel(parts)
        case .power(let body, let count):
            result = try power(try scaled(body, by: factor, memo: &memo), count)
        case .reversed(let inner):
            result = try reversed(try scaled(inner, by: factor, memo: &memo))
        case .warp(let body, let easing):
            result = try eased(try scaled(body, by: factor, memo: &memo), easing)
        }
        memo[ObjectIdentifier(term)] = result
        return result
    }

    // MARK: Easing

    /// `x with E`.
    ///
    /// Rules: on a single tween, `E` is composed into the tween's own easing
    /// (`tween with E1 with E2` = `tween with compose(E1, E2)`); on a composite,
    /// `(x with E1) with E2 = x with compose(E1, E2)`; a reversal that could not
    /// be absorbed moves outside, `(x reversed) with E = (x with E.mirror) reversed`;
    /// `with linear`, and a warp of something that lasts 0 or has no segments,
    /// change nothing; `zero with E = zero`.
    mutating func eased(_ term: Term, _ easing: Easing) throws(NormalizationError) -> Term {
        let easing = canonical(easing)
        switch term.kind {
        case .zero:
            return term
        case .tween(let leaf):
            return self.leaf(Leaf(property: leaf.property, from: leaf.from, to: leaf.to,
                                  easing: canonical(leaf.easing.composed(after: easing)), duration: leaf.duration))
        case .warp(let body, let previous):
            return try eased(body, canonical(previous.composed(after: easing)))
        case .reversed(let inner) where term.hasSegments && compositionFactors(easing).first?.mirror != nil:
            // (x reversed) with E = (x with E.mirror) reversed: an unabsorbed
            // reversal moves outward through every warp factor next to it that
            // has a mirror, so it has one place whatever the spelling.
            let factors = compositionFactors(easing)
            let mirrored = factors.prefix { $0.mirror != nil }.compactMap(\.mirror)
            let rest = factors.dropFirst(mirrored.count)
            let pushed = try reversed(try eased(inner, composition(Array(mirrored))))
            return rest.isEmpty ? pushed : try eased(pushed, composition(Array(rest)))
        case .one, .wait, .sequence, .parallel, .power, .reversed, .dismantled:
            if case .linear = easing.kind { return term }
            // Warping time changes nothing where nothing happens.
            if term.duration == .zero || !term.hasSegments { return term }
            return try checked(make(.warp(ObjectIdentifier(term), easing), .warp(term, easing), duration: term.duration, depth: term.depth + 1))
        }
    }

    /// The factors of a composition, outermost function first (`compose(a,
    /// compose(b, c))` is `[a, b, c]`; as warps, `a` acts next to the operand).
    func compositionFactors(_ easing: Easing) -> [Easing] {
        var parts: [Easing] = []
        var stack = [easing]
        while let next = stack.popLast() {
            switch next.kind {
            case .composed(let outer, let inner):
                stack.append(inner)
                stack.append(outer)
            case .linear:
                continue
            case .easeIn, .easeOut, .easeInOut, .cubicBezier, .steps, .penner, .mirrored:
                parts.append(next)
            }
        }
        return parts
    }

    /// `compose(f1, compose(f2, …))`; `linear` for none.
    func composition(_ factors: [Easing]) -> Easing {
        guard var result = factors.last else { return .linear }
        for factor in factors.dropLast().reversed() {
            result = factor.composed(after: result)
        }
        return result
    }

    /// Compositions flattened and re-nested to the right, `linear` dropped:
    /// `compose(compose(a, b), c)` and `compose(a, compose(b, c))` are one easing.
    func canonical(_ easing: Easing) -> Easing {
        composition(compositionFactors(easing))
    }

    private func checked(_ term: Term) throws(NormalizationError) -> Term {
        guard term.depth <= Normalizer.maximumDepth else { throw .tooDeep(Normalizer.maximumDepth) }
        return term
    }

    // MARK: Back to syntax

    /// The syntax tree of a normal term, in the canonical spellings.
    func expression(_ term: Term) -> Expr {
        switch term.kind {
        case .zero, .dismantled: return Expr(.zero)
        case .one: return Expr(.one)
        case .wait(let d): return Expr(.wait(Duration(number: Number(d))))
        case .tween(let leaf):
            let tween = Tween(verb: .animate, target: .view(leaf.property.view, .none), property: leaf.property.name,
                              from: Number(leaf.from), to: Number(leaf.to))
            var expr = Expr(.tween(tween))
            if leaf.duration != .one { expr = Expr(.retimed(expr, Duration(number: Number(leaf.duration)))) }
            if case .linear = leaf.easing.kind {} else { expr = Expr(.eased(expr, leaf.easing, .none)) }
            return expr
        case .sequence(let items): return Expr(.sequence(items.map(expression)))
        case .parallel(let items): return Expr(.parallel(items.map(expression)))
        case .power(let body, let n): return Expr(.power(expression(body), Count(Int64(n))))
        case .reversed(let inner): return Expr(.reversed(expression(inner)))
        case .warp(let body, let easing): return Expr(.eased(expression(body), easing, .none))
        }
    }
}

private extension Term {
    var isWaitLike: Bool {
        switch kind {
        case .one, .wait: return true
        case .zero, .tween, .sequence, .parallel, .power, .reversed, .warp, .dismantled: return false
        }
    }
}
