/// The normal forms of terms: the sound laws of docs/semantics.md §5,
/// applied as rewrites, each a small named rule below that states the law it
/// relies on. Two terms that the exact laws make equal have the same normal
/// form; a normal form means what the term means.
///
/// ```swift
/// let normal = try term.normalized()   // `(x ; y) ; z` and `x ; (y ; z)` give one term
/// ```
///
/// The rules: flattening of `;` and `||`, identities, annihilation,
/// canonical order and deduplication of `||`, factoring common prefixes out
/// of `||`, common suffixes only when the prefixes last equally long, pushing
/// `in` to the leaves and `reversed` as far as mirrored easings absorb it,
/// merging waits and dropping waits a longer sibling covers, and keeping
/// powers symbolic while folding repeated runs of a sequence into one.
///
/// Contract (checked by property tests on generated programs):
/// `eval(normalize(p)) == eval(p)`, `normalize(normalize(p)) == normalize(p)`,
/// and both sides of every exact law normalize to the same term.
extension Term {
    /// The normal form of this term (see above). Throws when rewriting
    /// overflows exact time, or when the result nests more than
    /// ``NormalizationError/tooDeep(_:)`` allows.
    public func normalized() throws(NormalizationError) -> Term {
        var normalizer = Normalizer()
        return try normalizer.normalize(self)
    }
}

/// Why a term could not be normalized.
public enum NormalizationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The term is not a valid animation (its program has errors).
    case programHasErrors
    /// The normal form nests more deeply than the normalizer handles.
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

/// The identity of a term's shape, for hash-consing: equal normal terms are
/// the same object, so comparing and hashing children is by identity.
private enum Shape: Hashable {
    case zero, one
    case wait(Time)
    /// (Boxed: a shape is then a few words, cheap to copy while probing the table.)
    indirect case tween(Tween)
    case event(String)
    case sequence([ObjectIdentifier])
    case parallel([ObjectIdentifier])
    case power(ObjectIdentifier, Int)
    case forever(ObjectIdentifier)
    case reversed(ObjectIdentifier)
    case eased(ObjectIdentifier, Easing)
    case played(ObjectIdentifier, Time, Time)
    case retimed(ObjectIdentifier, Time)
}

/// A shape with its hash computed once: probing the table, inserting and
/// growing it then hash one word, not the shape's tween or operand list again.
private struct ShapeKey: Hashable {
    let shape: Shape
    let hash: Int

    init(_ shape: Shape) {
        self.shape = shape
        hash = shape.hashValue
    }

    static func == (a: ShapeKey, b: ShapeKey) -> Bool { a.hash == b.hash && a.shape == b.shape }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

struct Normalizer {
    /// Terms deeper than this are refused (the rewrites recurse on depth).
    static let maximumDepth = 2_000
    /// A power whose unrolled length is at most this is unrolled before the
    /// runs of its sequence are folded again, so `x ^ 3` and `x ; x ; x` meet.
    static let unrollLimit = 256
    /// Sequences up to this long are searched for runs by scanning, longer
    /// ones through an index of where each item occurs.
    static let scannedRunLength = 32

    private var table: [ShapeKey: Term] = [:]
    /// Per normal term: the first property it animates, when it starts and
    /// its first tween, the keys that order the operands of `||`.
    private var orderKeys: [ObjectIdentifier: OrderKey] = [:]
    /// Per normal term: its content hash (``fingerprint(of:)``), so that
    /// hashing a term visits each of its subterms once in a normalization.
    private var fingerprints: [ObjectIdentifier: UInt64] = [:]
    /// Terms already seen through `reversed`, keyed by identity.
    private var reversedMemo = IdentityTable<Term>()

    private(set) lazy var zero: Term = intern(.zero, Term.zero)
    private(set) lazy var one: Term = intern(.one, Term.one)

    /// The normal term of this shape: the one already built, or `term`.
    private mutating func intern(_ shape: Shape, _ term: Term) -> Term {
        let key = ShapeKey(shape)
        if let existing = table[key] { return existing }
        table[key] = term
        return term
    }

    /// The normal term of this shape, built by `build` the first time.
    private mutating func make(_ shape: Shape, _ build: () throws(AnimationError) -> Term) throws(NormalizationError) -> Term {
        let key = ShapeKey(shape)
        if let existing = table[key] { return existing }
        let term: Term
        do { term = try build() } catch { throw .overflow }
        guard term.height <= Normalizer.maximumDepth else { throw .tooDeep(Normalizer.maximumDepth) }
        // `build` interns nothing, so the shape is still absent: one insertion, no second lookup.
        table[key] = term
        return term
    }

    // MARK: Building from a term

    /// The normal form of `root`, bottom up without recursion. A chain of
    /// `;` (or `||`) whose operands are chains of the same kind used nowhere
    /// else (`let a2 = a1 ; x`, `let a3 = a2 ; y`, …) is flattened into one
    /// operand list before it is normalized, instead of normalized at every
    /// step (which would cost O(n²) for n steps); shared operands are
    /// normalized once.
    mutating func normalize(_ root: Term) throws(NormalizationError) -> Term {
        let parents = Normalizer.parentCounts(root)
        let normal = try root.bottomUp(operands: { Normalizer.operands(of: $0, parents: parents) }) {
            (term: Term, operands: [Term]) throws(NormalizationError) -> Term in
            try rewrite(term, normalOperands: operands)
        }
        guard let normal else { throw .programHasErrors }
        return normal
    }

    /// How many times each subterm of `root` is used as an operand.
    private static func parentCounts(_ root: Term) -> [ObjectIdentifier: Int] {
        var counts: [ObjectIdentifier: Int] = [:]
        var stack = [root]
        var visited = Set<ObjectIdentifier>()
        while let term = stack.popLast() {
            guard visited.insert(ObjectIdentifier(term)).inserted else { continue }
            for child in term.children {
                counts[ObjectIdentifier(child), default: 0] += 1
                stack.append(child)
            }
        }
        return counts
    }

    /// The operands whose normal forms `term`'s rewrite needs: for a chain,
    /// its parts with single-use chains of the same kind flattened in.
    private static func operands(of term: Term, parents: [ObjectIdentifier: Int]) -> [Term] {
        switch term.kind {
        case .sequence(let parts), .parallel(let parts):
            let sequence: Bool
            if case .sequence = term.kind { sequence = true } else { sequence = false }
            var result: [Term] = []
            var pending = Array(parts.reversed())
            while let part = pending.popLast() {
                if parents[ObjectIdentifier(part), default: 0] == 1 {
                    switch part.kind {
                    case .sequence(let inner) where sequence:
                        pending.append(contentsOf: inner.reversed())
                        continue
                    case .parallel(let inner) where !sequence:
                        pending.append(contentsOf: inner.reversed())
                        continue
                    default:
                        break
                    }
                }
                result.append(part)
            }
            return result
        case .zero, .one, .wait, .tween, .event, .power, .forever, .reversed, .retimed, .eased, .played:
            return term.children
        }
    }

    /// The normal form of `term`, given the normal forms of its operands.
    private mutating func rewrite(_ term: Term, normalOperands operands: [Term]) throws(NormalizationError) -> Term {
        switch term.kind {
        case .zero: return zero
        case .one: return one
        case .wait(let d): return try wait(d)
        case .tween(let tween): return try leaf(tween)
        case .event(let name): return try event(name)
        case .sequence: return try sequence(operands)
        case .parallel: return try parallel(operands)
        case .power(_, let count): return try power(operands[0], count)
        case .forever: return try forever(operands[0])
        case .reversed: return try reversed(operands[0])
        case .retimed(_, let target): return try retimed(operands[0], to: target)
        case .eased(_, let easing): return try eased(operands[0], easing)
        case .played(_, let start, let end): return try played(operands[0], from: start, to: end)
        }
    }

    // MARK: Canonical order of `||`

    /// What orders the operands of `||`, computed once per normal term.
    struct OrderKey {
        /// The first property the term animates (empty for none).
        var firstProperty: String
        /// When its first leaf starts (the waits before it).
        var firstStart: Time
        /// Its first tween, for its values and length.
        var firstTween: Tween?
    }

    /// Operands of `||` in canonical order, chosen to read well: by the first
    /// property they animate, then by when they start, then by the first
    /// tween's values and length, then by a content hash, then (on a
    /// collision) by a canonical text of the whole term. None of it depends
    /// on addresses or on Swift's seeded hashing, so the order is the same
    /// in every run.
    private mutating func sortedCanonically(_ children: [Term]) -> [Term] {
        let keyed = children.map { child in (child, orderKey(child)) }
        return keyed.sorted { a, b in
            if a.0 === b.0 { return false }
            if let order = Normalizer.compare(a.1, b.1) { return order }
            // The content hash, only for operands that tie on the rest (computed when first needed).
            let x = fingerprint(of: a.0), y = fingerprint(of: b.0)
            if x != y { return x < y }
            return a.0.description < b.0.description
        }.map(\.0)
    }

    /// `true` when `a` sorts first, `false` when `b` does, `nil` on a tie.
    private static func compare(_ a: OrderKey, _ b: OrderKey) -> Bool? {
        if a.firstProperty != b.firstProperty { return a.firstProperty < b.firstProperty }
        if a.firstStart != b.firstStart { return a.firstStart < b.firstStart }
        if let x = a.firstTween, let y = b.firstTween {
            if x.relative != y.relative { return x.relative.rank < y.relative.rank }
            if let order = x.from.precedes(y.from) { return order }
            if let order = x.to.precedes(y.to) { return order }
            if x.duration != y.duration { return x.duration < y.duration }
        }
        return nil
    }

    private mutating func orderKey(_ term: Term) -> OrderKey {
        if let known = orderKeys[ObjectIdentifier(term)] { return known }
        let key = makeOrderKey(term)
        orderKeys[ObjectIdentifier(term)] = key
        return key
    }

    private mutating func makeOrderKey(_ term: Term) -> OrderKey {
        var key = OrderKey(firstProperty: "", firstStart: .zero, firstTween: nil)
        switch term.kind {
        case .tween(let tween):
            key.firstProperty = tween.property.description
            key.firstTween = tween
        case .sequence(let items):
            var start = Time.zero
            for item in items {
                if item.hasLeaves {
                    let inner = orderKey(item)
                    key.firstProperty = inner.firstProperty
                    key.firstTween = inner.firstTween
                    // The key only orders parts: past exact time's range, the start before is as good an order.
                    key.firstStart = (try? start.adding(inner.firstStart)) ?? start
                    break
                }
                start = (try? start.adding(item.duration ?? .zero)) ?? start
            }
        case .parallel(let items):
            if let first = items.first(where: \.hasLeaves) {
                let inner = orderKey(first)
                key.firstProperty = inner.firstProperty
                key.firstTween = inner.firstTween
                key.firstStart = inner.firstStart
            }
        case .power(let body, _), .forever(let body), .reversed(let body), .retimed(let body, _), .eased(let body, _),
             .played(let body, _, _):
            let inner = orderKey(body)
            key.firstProperty = inner.firstProperty
            key.firstTween = inner.firstTween
        case .zero, .one, .wait, .event:
            break
        }
        return key
    }

    /// FNV-1a over the term's fields and its children's fingerprints,
    /// computed once per term (``fingerprints``).
    private mutating func fingerprint(of term: Term) -> UInt64 {
        if let known = fingerprints[ObjectIdentifier(term)] { return known }
        var hash = Fingerprint()
        switch term.kind {
        case .zero: hash.mix(1)
        case .one: hash.mix(2)
        case .wait(let d):
            hash.mix(3)
            hash.mix(d)
        case .tween(let tween):
            hash.mix(4)
            hash.mix(tween.property.description)
            hash.mix(tween.from)
            hash.mix(tween.to)
            if tween.isRelative { hash.mix(UInt64(tween.relative.rank) + 40) }
            hash.mix(tween.duration)
            hash.mix(tween.easing)
        case .event(let name):
            hash.mix(11)
            hash.mix(name)
        case .sequence(let items), .parallel(let items):
            if case .sequence = term.kind { hash.mix(5) } else { hash.mix(6) }
            for item in items { hash.mix(fingerprint(of: item)) }
        case .power(let body, let n):
            hash.mix(7)
            hash.mix(UInt64(bitPattern: Int64(n)))
            hash.mix(fingerprint(of: body))
        case .forever(let body):
            hash.mix(13)
            hash.mix(fingerprint(of: body))
        case .reversed(let body):
            hash.mix(8)
            hash.mix(fingerprint(of: body))
        case .retimed(let body, let d):
            hash.mix(10)
            hash.mix(d)
            hash.mix(fingerprint(of: body))
        case .eased(let body, let easing):
            hash.mix(9)
            hash.mix(easing)
            hash.mix(fingerprint(of: body))
        case .played(let body, let start, let end):
            hash.mix(14)
            hash.mix(start)
            hash.mix(end)
            hash.mix(fingerprint(of: body))
        }
        fingerprints[ObjectIdentifier(term)] = hash.value
        return hash.value
    }


    // MARK: Leaves

    private mutating func wait(_ duration: Time) throws(NormalizationError) -> Term {
        // Identity: `wait 0` is `one`.
        if duration.isZero { return one }
        return try make(.wait(duration)) { () throws(AnimationError) in try Term.wait(duration) }
    }

    /// A tween. One whose easing is `mirror(E)` (no curve of E's family) is
    /// the tween the other way with `E`, reversed — the pointwise same
    /// values, `from + (to − from)·E(1 − p)` — which is how a reversal that a
    /// tween cannot absorb is written (``reversed(_:)``): one form for both.
    private mutating func leaf(_ tween: Tween) throws(NormalizationError) -> Term {
        // A relative tween's start is read where it lands: it stays `by −Δ with mirror(E)`.
        if !tween.isRelative, case .mirror(let inner) = tween.easing.kind {
            let forward = try leaf(tween.with(from: tween.to, to: tween.from, easing: inner))
            return try make(.reversed(ObjectIdentifier(forward))) { () throws(AnimationError) in Term.reversed(forward) }
        }
        return try make(.tween(tween)) { () throws(AnimationError) in Term.tween(tween) }
    }

    private mutating func event(_ name: String) throws(NormalizationError) -> Term {
        try make(.event(name)) { () throws(AnimationError) in Term.event(name) }
    }

    // MARK: Sequence

    /// `x ; y ; …`.
    ///
    /// Rules: **flatten** (`;` is associative); **annihilate** (`zero` in a
    /// sequence makes it `zero`); **identity** (drop `one`); **merge waits**
    /// (`wait a ; wait b = wait (a + b)`); **delays go inside** (`wait a ;
    /// (x || y) = (wait a ; x) || (wait a ; y)`, left distributivity, after
    /// which `||` factors a delay back out only when operands share it, so
    /// delays never nest needlessly); **fold runs** (`x ; x ; x = x ^ 3`,
    /// associativity again), after unrolling small powers so that every
    /// spelling of a repetition meets the same normal form.
    mutating func sequence(_ parts: [Term]) throws(NormalizationError) -> Term {
        var items: [Term] = []
        var ended = false
        for part in parts {
            if part.isZero { return zero }
            // What follows an endless part never starts: `(x forever) ; y = x forever`.
            if ended { continue }
            try append(part, to: &items)
            ended = part.isInfinite
        }
        if let endless = items.firstIndex(where: \.isInfinite) { items.removeSubrange((endless + 1)...) }
        items = try mergeWaits(items)
        items = try distributeDelays(items)
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
        case .zero, .wait, .tween, .event, .parallel, .power, .forever, .reversed, .retimed, .eased, .played:
            items.append(part)
        }
    }

    /// `wait a ; (x || y || …) = (wait a ; x) || (wait a ; y) || …`, when an
    /// operand starts with a wait of its own: its delays then differ from the
    /// others', and the parallel's rules factor `wait a` back out only for
    /// operands that still share it. When no operand starts with a wait the
    /// pair is already the shared delay factored out, and stays.
    private mutating func distributeDelays(_ items: [Term]) throws(NormalizationError) -> [Term] {
        var items = items
        var index = 0
        while index + 1 < items.count {
            guard case .wait = items[index].kind, case .parallel(let operands) = items[index + 1].kind,
                  operands.contains(where: { if case .wait = firstItem($0).kind { return true } else { return false } }) else {
                index += 1
                continue
            }
            let delay = items[index]
            var delayed: [Term] = []
            for operand in operands { delayed.append(try sequence([delay, operand])) }
            items.replaceSubrange(index...(index + 1), with: try parallel(delayed).items)
            items = try mergeWaits(items)
        }
        return items
    }

    /// The first item of `term` as a sequence lists it, small powers unrolled
    /// (``append(_:to:)``).
    private func firstItem(_ term: Term) -> Term {
        switch term.kind {
        case .sequence(let items): return items.first.map(firstItem) ?? term
        case .power(let body, let count) where count <= Normalizer.unrollLimit / body.items.count: return firstItem(body)
        default: return term
        }
    }

    /// The first (or with `last`, the last) item of `term` as a sequence
    /// lists it (``append(_:to:)``): `one`s dropped, small powers unrolled;
    /// `nil` when it lists none. Found without listing the items.
    private func endItem(_ term: Term, last: Bool = false) -> Term? {
        switch term.kind {
        case .one: return nil
        case .sequence(let items):
            for offset in items.indices {
                if let end = endItem(items[last ? items.count - 1 - offset : offset], last: last) { return end }
            }
            return nil
        case .power(let body, let count) where count <= Normalizer.unrollLimit / body.items.count:
            return count == 0 ? nil : last ? body.items.last : body.items.first
        case .zero, .wait, .tween, .event, .parallel, .power, .forever, .reversed, .retimed, .eased, .played:
            return term
        }
    }

    /// Whether some element occurs twice.
    private static func hasRepeats<Element: Hashable>(_ elements: [Element]) -> Bool {
        if elements.count <= 16 {
            for i in elements.indices {
                for j in elements.indices where j > i && elements[i] == elements[j] { return true }
            }
            return false
        }
        var seen = Set<Element>()
        seen.reserveCapacity(elements.count)
        return !elements.allSatisfy { seen.insert($0).inserted }
    }

    private mutating func mergeWaits(_ items: [Term]) throws(NormalizationError) -> [Term] {
        // Most often no two waits are adjacent: the list as it is.
        guard zip(items, items.dropFirst()).contains(where: { first, second in
            if case .wait = first.kind, case .wait = second.kind { return true }
            return false
        }) else { return items }
        var merged: [Term] = []
        merged.reserveCapacity(items.count)
        for item in items {
            if case .wait(let b) = item.kind, let last = merged.last, case .wait(let a) = last.kind {
                guard let sum = try? a.adding(b) else { throw .overflow }
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
        // Most often no item occurs twice and none is a power: nothing to fold or absorb.
        if items.count <= Normalizer.scannedRunLength, !items.contains(where: { if case .power = $0.kind { return true } else { return false } }),
           !items.indices.contains(where: { i in items[(i + 1)...].contains { $0 === items[i] } }) {
            return items
        }
        let ids = items.map(ObjectIdentifier.init)
        // A short list is scanned for the next occurrences of each item; a
        // long one looks them up where each item occurs, so that only periods
        // at which the item recurs are tried (a list without repeats costs O(n)).
        let indexed = items.count > Normalizer.scannedRunLength
        var occurrences: [ObjectIdentifier: [Int]] = [:]
        if indexed {
            for (index, id) in ids.enumerated() { occurrences[id, default: []].append(index) }
        }
        var cursor: [ObjectIdentifier: Int] = [:]
        var result: [Term] = []
        var index = 0
        while index < items.count {
            var best = (period: 1, copies: 1)
            let maximumPeriod = min(Normalizer.unrollLimit, (items.count - index) / 2)
            /// Tries the run of period `period` (the item recurs there).
            func tryPeriod(_ period: Int) {
                var matched = 0
                while index + period + matched < items.count, ids[index + matched] == ids[index + period + matched] {
                    matched += 1
                }
                let copies = 1 + matched / period
                if copies >= 2, copies * period > best.copies * best.period {
                    best = (period, copies)
                }
            }
            if indexed {
                let positions = occurrences[ids[index]] ?? []
                var next = cursor[ids[index], default: 0]
                while next < positions.count, positions[next] <= index { next += 1 }
                cursor[ids[index]] = next
                while next < positions.count, positions[next] - index <= maximumPeriod {
                    tryPeriod(positions[next] - index)
                    next += 1
                }
            } else if maximumPeriod > 0 {
                for period in 1...maximumPeriod where ids[index + period] == ids[index] { tryPeriod(period) }
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
            return try make(.sequence(items.map(ObjectIdentifier.init))) { () throws(AnimationError) in try Term.sequence(items) }
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
            case .one, .wait, .tween, .event, .sequence, .power, .forever, .reversed, .retimed, .eased, .played: operands = [part]
            }
            for operand in operands where seen.insert(ObjectIdentifier(operand)).inserted {
                children.append(operand)
            }
        }
        if children.isEmpty { return zero }
        if let hoisted = try hoistTrailingWaits(children) { return hoisted }
        children = dropAbsorbed(children)
        if let absorbed = try absorbDelayedSuffixes(children) { return try parallel(absorbed) }
        if let factored = try factorPrefixes(children) { return factored }
        if let factored = try factorSuffixes(children) { return factored }
        if children.count == 1 { return children[0] }
        children = sortedCanonically(children)
        let operands = children
        return try make(.parallel(children.map(ObjectIdentifier.init))) { () throws(AnimationError) in Term.parallel(operands) }
    }

    /// `(x ; wait a) || y = (x || y) ; wait (D − D')`, where `D` is the
    /// duration of the whole and `D'` that of `x || y`: a trailing wait adds
    /// no segment, only length, so every operand sheds its trailing waits and
    /// the length they gave comes back as one wait after the `||`. (This
    /// includes dropping a wait that a longer operand covers, `wait d || x = x`
    /// when `Dx ≥ d`.) `nil` when no operand ends with a wait.
    private mutating func hoistTrailingWaits(_ children: [Term]) throws(NormalizationError) -> Term? {
        // Most often no operand ends with a wait: found without rebuilding any.
        guard children.contains(where: { $0.isOne || (endItem($0, last: true)?.isWaitLike ?? false) }) else { return nil }
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
        // Beside an endless operand every wait is covered.
        if children.contains(where: \.isInfinite) { return inner }
        guard let covered = inner.duration, let rest = try? total.subtracting(covered) else { throw .overflow }
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

    /// `m` and `P'` when `term` is a parallel `P` all of whose operands start
    /// with a wait (`m` the shortest): `P = wait m ; P'` (left distributivity
    /// read backwards). `nil` otherwise.
    private mutating func commonDelay(of term: Term) throws(NormalizationError) -> (Time, Term)? {
        guard case .parallel(let operands) = term.kind else { return nil }
        var delays: [Time] = []
        for operand in operands {
            guard case .wait(let d) = firstItem(operand).kind else { return nil }
            delays.append(d)
        }
        guard let shortest = delays.min(), shortest.isPositive else { return nil }
        var rests: [Term] = []
        for (operand, delay) in zip(operands, delays) {
            var items: [Term] = []
            try append(operand, to: &items)
            items.removeFirst()
            guard let remaining = try? delay.subtracting(shortest) else { throw .overflow }
            rests.append(try sequence([try wait(remaining)] + items))
        }
        return (shortest, try parallel(rests))
    }

    /// `(p ; x) || (wait t ; x) = p ; x` when `p` lasts `t`: right
    /// distributivity (the prefixes last equally long) and a covered wait.
    /// ``factorSuffixes(_:)`` finds it where `wait t ; x` is a sequence; this
    /// finds it where `x` starts with a parallel and the delay went inside it
    /// (``distributeDelays(_:)``), so `wait t ; x` is spread over several of
    /// our operands. `nil` when no operand absorbs others so.
    private mutating func absorbDelayedSuffixes(_ children: [Term]) throws(NormalizationError) -> [Term]? {
        guard children.count > 1 else { return nil }
        let present = Set(children.map(ObjectIdentifier.init))
        for child in children {
            guard case .sequence(let items) = child.kind else { continue }
            var offset = Time.zero
            for index in items.indices {
                if index > 0, case .parallel(let operands) = items[index].kind,
                   operands.contains(where: { if case .wait = firstItem($0).kind { return true } else { return false } }) {
                    let delayed = try sequence([try wait(offset), try sequence(Array(items[index...]))])
                    let parts: [Term]
                    if case .parallel(let spread) = delayed.kind { parts = spread } else { parts = [delayed] }
                    let ids = Set(parts.map(ObjectIdentifier.init))
                    if !ids.contains(ObjectIdentifier(child)), ids.isSubset(of: present) {
                        return children.filter { !ids.contains(ObjectIdentifier($0)) }
                    }
                }
                guard let d = items[index].duration else { break }   // an endless item: nothing follows it
                guard let next = try? offset.adding(d) else { throw .overflow }
                offset = next
            }
        }
        return nil
    }

    /// The terms a term starts with, at time 0, with all of their segments:
    /// the first item of a sequence, the body of a power, every operand of a `||`.
    private func leadingParts(of term: Term) -> [Term] {
        switch term.kind {
        case .sequence(let items): return items.first.map { [$0] } ?? []
        case .power(let body, _), .forever(let body): return [body]
        case .parallel(let items): return items
        case .zero, .one, .wait, .tween, .event, .reversed, .retimed, .eased, .played: return []
        }
    }

    /// `(x ; y) || (x ; z) || w = (x ; (y || z)) || w`, for the first group of
    /// operands that share a first item; `nil` when no two do.
    private mutating func factorPrefixes(_ children: [Term]) throws(NormalizationError) -> Term? {
        guard children.count > 1 else { return nil }
        // Most often no two operands start alike: found without listing their items.
        guard Normalizer.hasRepeats(children.map { ObjectIdentifier(endItem($0) ?? $0) }) else { return nil }
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
        // Only operands that last equally long qualify: most often no two do.
        guard Normalizer.hasRepeats(children.compactMap(\.duration)) else { return nil }
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
            // A delay that went inside a trailing parallel comes back out, so
            // `y ; x` and `z ; wait c ; x` show the same last item `x`.
            if let last = items.last, let (delay, core) = try commonDelay(of: last) {
                items.removeLast()
                if let previous = items.last, case .wait(let d) = previous.kind {
                    guard let merged = try? d.adding(delay) else { throw .overflow }
                    items.removeLast()
                    items.append(try wait(merged))
                } else {
                    items.append(try wait(delay))
                }
                items.append(core)
            }
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
                guard let remaining = try? lengths[index].subtracting(shortest) else { throw .overflow }
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
        if count == 1 || body.isZero || body.isOne || body.isInfinite { return body }
        if body.duration == .zero { return body }
        if case .power(let inner, let m) = body.kind {
            let (product, overflow) = m.multipliedReportingOverflow(by: count)
            guard !overflow else { throw .overflow }
            return try power(inner, product)
        }
        if case .wait(let d) = body.kind {
            guard let total = try? d.multiplied(by: Int64(count)) else { throw .overflow }
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
        return try make(.power(ObjectIdentifier(body), count)) { () throws(AnimationError) in try Term.power(body, count) }
    }

    /// `x repeated forever`.
    ///
    /// Rules: `zero forever = zero`; `(x forever) forever = x forever`;
    /// `(x ^ n) forever = x forever` (copies of copies of `x` are copies of
    /// `x`). The body must last more than an instant (the meaning refuses
    /// the rest).
    mutating func forever(_ body: Term) throws(NormalizationError) -> Term {
        if body.isZero || body.isInfinite { return body }
        if case .power(let inner, _) = body.kind { return try forever(inner) }
        guard let d = body.duration, d.isPositive else { throw .programHasErrors }
        return try make(.forever(ObjectIdentifier(body))) { () throws(AnimationError) in Term.forever(body) }
    }

    // MARK: Reversal

    /// `x reversed`, pushed down as far as it goes.
    ///
    /// Rules: `(x ; y) reversed = y reversed ; x reversed`;
    /// `(x || y) reversed = (wait (D − Dx) ; x reversed) || …` (each operand
    /// keeps its place from the end); `(x ^ n) reversed = (x reversed) ^ n`;
    /// `(x reversed) reversed = x`; waits, events, `one` and `zero` are their
    /// own reversal; a tween reversed is the tween with its ends swapped and
    /// its easing mirrored (`ease-in-quad` ↔ `ease-out-quad`), and
    /// `(x with E) reversed = (x reversed) with E.mirrored` — where the
    /// easing's mirror is no curve of its family, `reversed` stays.
    mutating func reversed(_ term: Term) throws(NormalizationError) -> Term {
        // The memo is kept across calls; taken out while the walk fills it
        // (rewrites inside may reverse again, and see it then without this walk's entries).
        var memo = reversedMemo
        reversedMemo = IdentityTable()
        defer {
            // Back together, the smaller merged into the larger (the memo grows over a whole normalization).
            if reversedMemo.count < memo.count { swap(&reversedMemo, &memo) }
            reversedMemo.merge(memo)
        }
        let result = try term.bottomUp(memo: &memo, operands: Normalizer.reversalOperands) {
            (part: Term, reversed: [Term]) throws(NormalizationError) -> Term in
            try self.reversed(part, reversedOperands: reversed)
        }
        guard let result else { throw .programHasErrors }
        return result
    }

    /// The parts whose reversals `reversed` builds on, in the order it uses them.
    private static func reversalOperands(_ term: Term) -> [Term] {
        switch term.kind {
        case .zero, .one, .wait, .event, .tween, .forever, .reversed, .played: return []
        case .sequence(let items): return items.reversed()
        case .parallel(let items): return term.duration == nil ? [] : items
        case .power(let body, _), .retimed(let body, _): return [body]
        case .eased(let body, let easing): return easing.hasFamilyMirror ? [body] : []
        }
    }

    /// `term` reversed, given ``reversalOperands(_:)`` reversed.
    private mutating func reversed(_ term: Term, reversedOperands reversed: [Term]) throws(NormalizationError) -> Term {
        switch term.kind {
        case .zero, .one, .wait, .event:
            return term
        case .tween(let tween) where tween.isRelative:
            // `(… by Δ with E) reversed = … by −Δ with mirror(E)` (docs/semantics.md §7.1); a `to` tween
            // has no start to return to (the language refuses to reverse it).
            guard tween.relative == .by, case .number(let delta) = tween.to else { throw .programHasErrors }
            if tween.easing.hasFamilyMirror {
                return try leaf(tween.with(to: .number(-delta), easing: tween.easing.mirrored))
            }
            return try make(.reversed(ObjectIdentifier(term))) { () throws(AnimationError) in Term.reversed(term) }
        case .tween(let tween):
            if tween.easing.hasFamilyMirror {
                return try leaf(tween.with(from: tween.to, to: tween.from, easing: tween.easing.mirrored))
            }
            return try make(.reversed(ObjectIdentifier(term))) { () throws(AnimationError) in Term.reversed(term) }
        case .sequence:
            return try sequence(reversed)
        case .parallel(let items):
            guard let total = term.duration else { return term }
            var parts: [Term] = []
            for (item, itemReversed) in zip(items, reversed) {
                guard let d = item.duration, let gap = try? total.subtracting(d) else { throw .overflow }
                parts.append(try sequence([try wait(gap), itemReversed]))
            }
            return try parallel(parts)
        case .power(_, let count):
            return try power(reversed[0], count)
        case .forever:
            throw .programHasErrors   // an endless animation has no end to reverse from
        case .reversed(let inner):
            return inner
        case .played:
            // A part stays reversed (its end may pass its operand's, so no mirrored part need exist).
            return try make(.reversed(ObjectIdentifier(term))) { () throws(AnimationError) in Term.reversed(term) }
        case .retimed(_, let target):
            return try retimed(reversed[0], to: target)
        case .eased(let body, let easing):
            // Where the body keeps its reversal (`x played …`), the reversal stays outside the warp:
            // `eased` moves an unabsorbed reversal outward through a mirrored warp, so pushing it in
            // here would hand it back, for ever.
            if easing.hasFamilyMirror, !reversed[0].isReversal(of: body) {
                return try eased(reversed[0], easing.mirrored)
            }
            return try make(.reversed(ObjectIdentifier(term))) { () throws(AnimationError) in Term.reversed(term) }
        }
    }

    // MARK: Retiming

    /// `x in d`: scales every time by `d / D`, pushed down to the leaves
    /// (`(x ; y) in d` scales both; `(x ^ n) in d = (x in d/n) ^ n`;
    /// `(x with E) in d = (x in d) with E`; a tween's or wait's own length is scaled).
    mutating func retimed(_ term: Term, to target: Time) throws(NormalizationError) -> Term {
        guard let duration = term.duration else { return term }
        if duration == target { return term }
        guard !duration.isZero else { throw .programHasErrors }
        guard let factor = try? target.divided(by: duration) else { throw .overflow }
        if factor.isPositive, let scaled = scaledNodeByNode(term, by: factor) {
            // The shortcut must give what the rules give: checked wherever assertions run (the tests).
            assert(scaled === (try? scaledByRules(term, by: factor)), "retiming node by node differs from the rules")
            return scaled
        }
        return try scaledByRules(term, by: factor)
    }

    /// `term` (normal) with every time scaled by `factor` > 0, node by node,
    /// without the rules: they compare durations only for equality and
    /// order and add or subtract them, so a uniform positive scaling of time
    /// commutes with every rule, and each scaled node of a normal term is
    /// the normal form of its scaled operands — except the order of `||`
    /// operands, whose content hashes change with the times. `nil` (the
    /// caller then rewrites by the rules) when some `||` would sort its
    /// scaled operands differently, or on anything unusual: an endless or
    /// retimed part, overflow, a term too deep.
    private mutating func scaledNodeByNode(_ term: Term, by factor: Time) -> Term? {
        var failed = false
        let scaled = term.bottomUp { (part: Term, scaled: [Term]) -> Term in
            if failed { return part }
            do throws(NormalizationError) {
                switch part.kind {
                case .zero, .one, .event:
                    return part
                case .wait(let d):
                    guard let scaled = try? d.multiplied(by: factor) else { break }
                    return try wait(scaled)
                case .tween(let tween):
                    guard let scaled = try? tween.duration.multiplied(by: factor) else { break }
                    return try leaf(tween.with(duration: scaled))
                case .sequence:
                    return try make(.sequence(scaled.map(ObjectIdentifier.init))) { () throws(AnimationError) in try Term.sequence(scaled) }
                case .parallel:
                    guard sortedCanonically(scaled).elementsEqual(scaled, by: ===) else { break }
                    return try make(.parallel(scaled.map(ObjectIdentifier.init))) { () throws(AnimationError) in Term.parallel(scaled) }
                case .power(_, let count):
                    return try make(.power(ObjectIdentifier(scaled[0]), count)) { () throws(AnimationError) in try Term.power(scaled[0], count) }
                case .reversed:
                    return try make(.reversed(ObjectIdentifier(scaled[0]))) { () throws(AnimationError) in Term.reversed(scaled[0]) }
                case .eased(_, let easing):
                    return try make(.eased(ObjectIdentifier(scaled[0]), easing)) { () throws(AnimationError) in Term.eased(scaled[0], easing) }
                case .played:
                    // (Its operand may be endless: by the rules.)
                    break
                case .forever, .retimed:
                    break
                }
            } catch {}
            failed = true
            return part
        }
        return failed ? nil : scaled
    }

    /// ``retimed(_:to:)`` by the rules: each part rewritten from its scaled operands.
    private mutating func scaledByRules(_ term: Term, by factor: Time) throws(NormalizationError) -> Term {
        let scaled = try term.bottomUp(operands: { part in
            // A retiming is scaled from its own body; an endless part has nothing to scale.
            switch part.kind {
            case .retimed, .forever: return []
            case .played(let body, _, _) where body.isInfinite: return []
            default: return part.children
            }
        }) { (part: Term, scaled: [Term]) throws(NormalizationError) -> Term in
            try self.scaled(part, by: factor, scaledOperands: scaled)
        }
        guard let scaled else { throw .programHasErrors }
        return scaled
    }

    /// `part` with every time scaled by `factor`, given its operands scaled.
    private mutating func scaled(_ term: Term, by factor: Time, scaledOperands scaled: [Term]) throws(NormalizationError) -> Term {
        switch term.kind {
        case .zero, .one, .event:
            return term
        case .wait(let d):
            guard let scaled = try? d.multiplied(by: factor) else { throw .overflow }
            return try wait(scaled)
        case .tween(let tween):
            guard let scaled = try? tween.duration.multiplied(by: factor) else { throw .overflow }
            return try leaf(tween.with(duration: scaled))
        case .sequence:
            return try sequence(scaled)
        case .parallel:
            return try parallel(scaled)
        case .power(_, let count):
            return try power(scaled[0], count)
        case .forever:
            throw .programHasErrors   // an endless animation cannot be retimed
        case .reversed:
            return try reversed(scaled[0])
        case .retimed(let body, let target):
            guard let scaledTarget = try? target.multiplied(by: factor) else { throw .overflow }
            return try retimed(body, to: scaledTarget)
        case .eased(_, let easing):
            return try eased(scaled[0], easing)
        case .played(let body, let start, let end):
            // `(x played from a to b) in d = (x in f·|x|) played from f·a to f·b`, f = d / (b − a).
            guard let from = try? start.multiplied(by: factor), let to = try? end.multiplied(by: factor) else { throw .overflow }
            if body.isInfinite {
                // An endless operand is not retimed: the part keeps its `in`.
                guard let length = try? to.subtracting(from) else { throw .overflow }
                return try make(.retimed(ObjectIdentifier(term), length)) { () throws(AnimationError) in try Term.retimed(term, to: length) }
            }
            return try played(scaled[0], from: from, to: to)
        }
    }

    // MARK: Parts

    /// `x played from start to end` (docs/semantics.md §8.5), kept symbolic. Rules:
    /// `zero played … = zero`; a part of what has no segments is a wait;
    /// `x played from 0 to |x| = x` for `x` without relative tweens;
    /// `(x played from a to b) played from c to d = x played from a + c to a + d`
    /// when `d ≤ b − a`.
    mutating func played(_ body: Term, from start: Time, to end: Time) throws(NormalizationError) -> Term {
        if body.duration == nil, !body.isInfinite { return zero }
        guard let length = try? end.subtracting(start) else { throw .overflow }
        if !body.hasLeaves { return try wait(length) }
        if start.isZero, end == body.duration, !body.hasRelativeTweens { return body }
        if case .played(let inner, let a, let b) = body.kind, let limit = try? b.subtracting(a), !(limit < end) {
            guard let from = try? a.adding(start), let to = try? a.adding(end) else { throw .overflow }
            return try played(inner, from: from, to: to)
        }
        return try make(.played(ObjectIdentifier(body), start, end)) { () throws(AnimationError) in
            try Term.played(body, from: start, to: end)
        }
    }

    // MARK: Easing

    /// `x with E`.
    ///
    /// Rules: on a single tween, `E` is composed into the tween's own easing
    /// (`tween with E1 with E2` = `tween with compose(E1, E2)`), and so on
    /// each tween of a parallel of tweens that all last as long; on a composite,
    /// `(x with E1) with E2 = x with compose(E1, E2)`; a reversal that could not
    /// be absorbed moves outside, `(x reversed) with E = (x with E.mirrored) reversed`;
    /// `with linear`, and a warp of something that lasts 0 or has no segments,
    /// change nothing; `zero with E = zero`.
    mutating func eased(_ term: Term, _ easing: Easing) throws(NormalizationError) -> Term {
        switch term.kind {
        case .zero:
            return term
        case .tween(let tween):
            return try leaf(tween.eased(easing))
        case .eased(let body, let previous):
            return try eased(body, previous.composed(after: easing))
        case .parallel(let parts) where term.duration?.isPositive == true && parts.allSatisfy({ part in
            if case .tween(let tween) = part.kind { return tween.duration == term.duration }
            return false
        }):
            // Tweens over one window: `E` is composed into each (``Scene/eased(_:)``).
            var eased: [Term] = []
            for part in parts {
                guard case .tween(let tween) = part.kind else { continue }
                eased.append(try leaf(tween.eased(easing)))
            }
            return try parallel(eased)
        case .reversed(let inner) where term.hasLeaves && easing.hasWarpFactors && easing.factors[0].hasFamilyMirror:
            // (x reversed) with E = (x with E.mirrored) reversed: an unabsorbed
            // reversal moves outward through every warp factor next to it that
            // has a mirror, so it has one place whatever the spelling.
            let factors = easing.factors
            let mirrored = factors.prefix { $0.hasFamilyMirror }.map(\.mirrored)
            let rest = factors.dropFirst(mirrored.count)
            let pushed = try reversed(try eased(inner, composition(Array(mirrored))))
            return rest.isEmpty ? pushed : try eased(pushed, composition(Array(rest)))
        case .forever:
            throw .programHasErrors   // an endless animation cannot be warped
        case .one, .wait, .event, .sequence, .parallel, .power, .reversed, .retimed, .played:
            if case .linear = easing.kind { return term }
            // Warping time changes nothing where nothing happens.
            if term.duration == .zero || !term.hasLeaves { return term }
            return try make(.eased(ObjectIdentifier(term), easing)) { () throws(AnimationError) in Term.eased(term, easing) }
        }
    }

    /// `compose(f1, compose(f2, …))`; `linear` for none.
    func composition(_ factors: [Easing]) -> Easing {
        guard var result = factors.last else { return .linear }
        for factor in factors.dropLast().reversed() {
            result = factor.composed(after: result)
        }
        return result
    }
}

/// FNV-1a, 64 bits: a content hash that is the same in every run.
private struct Fingerprint {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func mix(_ word: UInt64) {
        var v = word
        for _ in 0..<8 {
            value = (value ^ (v & 0xff)) &* 0x0000_0100_0000_01b3
            v >>= 8
        }
    }

    mutating func mix(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        mix(UInt64(text.utf8.count))
    }

    mutating func mix(_ time: Time) {
        mix(UInt64(bitPattern: time.numerator))
        mix(UInt64(bitPattern: time.denominator))
    }

    mutating func mixNumber(_ double: Double) {
        mix(double.bitPattern)
    }

    mutating func mix(_ value: Value) {
        for word in value.fingerprint { mix(word) }
    }

    /// An easing by its structure: the family, then its parameters.
    mutating func mix(_ easing: Easing) {
        switch easing.kind {
        case .linear: mix(20)
        case .easeIn(let c): mix(21); mixNumber(c)
        case .easeOut(let c): mix(22); mixNumber(c)
        case .easeInOut(let c): mix(23); mixNumber(c)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            mix(24)
            for parameter in [x1, y1, x2, y2] { mixNumber(parameter) }
        case .steps(let count, let position):
            mix(25)
            mix(UInt64(bitPattern: Int64(count)))
            mix(position.rawValue)
        case .penner(let curve, let mode):
            mix(26)
            mix(curve.rawValue)
            mix(mode.rawValue)
        case .spring(let spring):
            mix(29)
            for parameter in [spring.dampingRatio, spring.angularFrequency, spring.velocity] { mixNumber(parameter) }
        case .composed(let outer, let inner):
            mix(27)
            mix(outer)
            mix(inner)
        case .mirror(let inner):
            mix(28)
            mix(inner)
        case .piecewise(let points):
            mix(30)
            mix(UInt64(points.count))
            for point in points {
                mixNumber(point.input)
                mixNumber(point.output)
            }
        }
    }
}

extension Term {
    var isZero: Bool { if case .zero = kind { return true } else { return false } }
    var isOne: Bool { if case .one = kind { return true } else { return false } }

    /// The operands of a sequence (the term itself otherwise).
    var items: [Term] {
        if case .sequence(let items) = kind { return items }
        return [self]
    }

    /// `one` or a wait: length without segments.
    var isWaitLike: Bool {
        switch kind {
        case .one, .wait: return true
        case .zero, .tween, .event, .sequence, .parallel, .power, .forever, .reversed, .retimed, .eased, .played: return false
        }
    }
}

extension Easing {
    /// Whether the composition has any factor other than `linear`.
    var hasWarpFactors: Bool {
        if case .linear = kind { return false }
        return true
    }
}

private extension Term {
    /// Whether this is `body reversed`, the reversal left as it was written.
    func isReversal(of body: Term) -> Bool {
        if case .reversed(let inner) = kind { return inner === body }
        return false
    }
}
