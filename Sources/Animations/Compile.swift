/// A scene flattened for sampling: one timeline per property, each holding its
/// segments sorted by start with an index that answers "which segments are
/// active at t, and which of them started last" in O(log n), plus the
/// symbolic repetition blocks that fall on that property.
///
/// Build one with ``Scene/compile()``; sampling cost then depends on the
/// number of segments on a property (logarithmically), never on how deeply
/// the scene's expression was nested.
public final class CompiledScene: @unchecked Sendable {
    /// The scene's exact duration; for one that repeats forever
    /// (``isInfinite``), the time its last finite part ends or its first
    /// endless repetition starts, whichever is later.
    public let duration: Time
    /// Whether the scene repeats forever.
    public let isInfinite: Bool
    /// Every property some segment animates, sorted by `view.property`.
    public let properties: [Property]
    let tracks: [Track]
    /// Repetitions kept symbolic (too many copies to list, or endless), in no particular order.
    public let blocks: [RepetitionBlock]
    /// The listed events (those outside symbolic repetitions), sorted by time,
    /// then name; one per name and instant (Σ is a set).
    public let events: [PlacedEvent]
    /// The term this scene was compiled from (for ``unrolled(through:)``),
    /// and the limit it was compiled with; `nil` for a repetition's body.
    let source: (term: Term, materializeLimit: Int, initial: [Property: Value])?

    init(duration: Time, isInfinite: Bool = false, properties: [Property], tracks: [Track], blocks: [RepetitionBlock],
         events: [PlacedEvent] = [], source: (term: Term, materializeLimit: Int, initial: [Property: Value])? = nil) {
        self.duration = duration
        self.isInfinite = isInfinite
        self.properties = properties
        self.tracks = tracks
        self.blocks = blocks
        self.events = events
        self.source = source
    }

    /// The listed segments, sorted by start, then property. Segments inside
    /// symbolic ``blocks`` are not listed.
    public var segments: [Segment] {
        var all: [Segment] = []
        for track in tracks { all.append(contentsOf: track.segments) }
        all.sort { lhs, rhs in
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.property != rhs.property { return lhs.property < rhs.property }
            return lhs.end < rhs.end
        }
        return all
    }

    /// The number of listed segments.
    public var segmentCount: Int {
        tracks.reduce(0) { $0 + $1.count }
    }
}

/// `count` copies of a compiled body, `period` apart, placed in the scene by
/// an increasing map (reversals are pushed into the body).
public final class RepetitionBlock: @unchecked Sendable {
    let path: Path
    /// The length of one copy, in the block's own time.
    public let period: Time
    /// How many copies (`Int.max` for an endless one).
    public let count: Int
    /// Whether the copies go on forever (`x repeated forever`).
    public let isEndless: Bool
    /// For a warp that makes time jump (`with steps(3)` on a composite),
    /// kept as one copy sampled through its definition: the warp's easing.
    public var warp: Easing? { count == 1 && !isEndless ? path.stages.last?.easing : nil }
    /// One copy, compiled in its own time `[0, period]`.
    public let body: CompiledScene
    /// Where the block starts and ends in the scene (the end is infinite for an endless block).
    public let start: Instant
    public let end: Instant
    /// The leaves of one copy, and where the ranks of the events at the start
    /// of a copy after the first begin (``Path/FiringOrder``).
    let leaves: Int
    let copyRank: Int

    init(path: Path, period: Time, count: Int, isEndless: Bool = false, body: CompiledScene, term: Term? = nil) throws(AnimationError) {
        self.path = path
        leaves = term?.leafCount ?? 0
        copyRank = term.map { path.firing.after($0).rank } ?? 0
        self.period = period
        self.count = isEndless ? Int.max : count
        self.isEndless = isEndless
        self.body = body
        start = path.backward(Instant(.zero), upper: false)
        end = isEndless ? Instant(approximately: .infinity)
            : path.backward(Instant(try period.multiplied(by: Int64(count))), upper: true)
    }

    /// The length of one copy in the scene's time, exactly; `nil` when a
    /// warp shapes the block's clock (or squeezes it to an instant).
    public var scenePeriod: Time? {
        guard path.stages.isEmpty, path.collapse == nil else { return nil }
        let scale = path.affine.scale
        guard let magnitude = scale.isNegative ? try? scale.negated() : scale else { return nil }
        return try? period.divided(by: magnitude)
    }
}

extension Scene {
    /// How many segments a repetition may list (copies times segments per copy)
    /// before it is kept symbolic instead.
    public static let materializeLimit = 10_000
    /// The most segments one compiled scene may list.
    public static let segmentLimit = 4_000_000

    /// Flattens the scene for sampling; `nil` when it is cancelled.
    ///
    /// Relative tweens (`to B`, `by Δ`) are resolved here (docs/semantics.md §7.1):
    /// each starts at its property's value where it lands, read over what
    /// comes before it; with nothing before it, at `initial[property]` (the
    /// view's declared value), else the neutral value (1 for opacity and
    /// the scales, 0 for other numbers).
    ///
    /// ```swift
    /// let x = Property(view: "card", name: "x")
    /// let step = Scene.tween(try Tween(property: x, by: .number(10)))
    /// let compiled = try step.then(step).compile()
    /// compiled?.value(of: x, at: Time(2))    // .number(20)
    /// ```
    ///
    /// Throws ``AnimationError/overflow(_:)`` when placing a segment overflows
    /// exact time, ``AnimationError/mixedKinds(_:_:_:)`` when a property gets
    /// both numbers and colours, ``AnimationError/invalidSampling(_:)`` when
    /// the scene would list more than ``segmentLimit`` segments,
    /// ``AnimationError/reversedRelative(_:)`` for a `to` tween played
    /// backwards and ``AnimationError/noCurrentValue(_:)`` for a colour `to`
    /// tween with nothing to start from.
    public func compile(materializeLimit: Int = Scene.materializeLimit,
                        initial: [Property: Value] = [:]) throws(AnimationError) -> CompiledScene? {
        guard let root else { return nil }
        var compiler = Compiler(materializeLimit: materializeLimit, initial: initial)
        let compiled = try compiler.compile(root, duration: root.duration)
        return CompiledScene(duration: compiled.duration, isInfinite: compiled.isInfinite, properties: compiled.properties,
                             tracks: compiled.tracks, blocks: compiled.blocks, events: compiled.events,
                             source: (root, materializeLimit, initial))
    }
}

extension CompiledScene {
    /// This scene over `[0, horizon]` as a finite one, for exporters of a
    /// scene that repeats forever: every endless repetition (`x repeated
    /// forever`) becomes as many copies as reach past `horizon` (kept as
    /// `x repeated n times` is: listed when few, else one symbolic block), so
    /// its copies' segments can be cut into ``Piece``s and its events listed.
    /// It equals this scene at every instant of `[0, horizon]` (values and
    /// events); its ``duration`` is `horizon` and it is not infinite.
    ///
    /// ```swift
    /// let spin = try Scene.tween(rotation, from: 0, to: 360, duration: Time(2)).repeatedForever()
    /// let window = try spin.compile()?.unrolled(through: Time(5))   // three copies listed, and a fourth past 5 s
    /// ```
    ///
    /// A finite scene comes back with its duration set to `horizon` (past
    /// its end every property holds). A repetition's body, which keeps no
    /// term, comes back as it is.
    public func unrolled(through horizon: Time) throws(AnimationError) -> CompiledScene {
        guard let source, !horizon.isNegative else { return self }
        var compiler = Compiler(materializeLimit: source.materializeLimit, initial: source.initial, unrollingThrough: horizon)
        let compiled = try compiler.compile(source.term, duration: horizon)
        return CompiledScene(duration: horizon, properties: compiled.properties, tracks: compiled.tracks, blocks: compiled.blocks,
                             events: compiled.events, source: source)
    }
}

extension CompiledScene {
    /// This scene compiled again from its term with another
    /// ``Scene/materializeLimit``: with a small one, every repetition of
    /// more than a few segments stays one symbolic block, so an exporter
    /// sees what repeats (``repetitions(of:initial:)``) instead of a list
    /// of copies. It equals this scene at every instant. A repetition's body,
    /// which keeps no term, comes back as it is.
    public func recompiled(materializeLimit: Int) throws(AnimationError) -> CompiledScene {
        guard let source, source.materializeLimit != materializeLimit else { return self }
        var compiler = Compiler(materializeLimit: materializeLimit, initial: source.initial)
        let compiled = try compiler.compile(source.term, duration: source.term.duration)
        return CompiledScene(duration: compiled.duration, isInfinite: compiled.isInfinite, properties: compiled.properties,
                             tracks: compiled.tracks, blocks: compiled.blocks, events: compiled.events,
                             source: (source.term, materializeLimit, source.initial))
    }
}

extension Term {
    /// Up to `limit` distinct segments of this term (in its own time), for
    /// deciding whether a scene is a single tween; `nil` when that takes more
    /// than `budget` nodes, or (with `plainOnly`) at the first segment whose
    /// clock goes through a warp. Breadth first, so a long chain of `let`s,
    /// each adding a segment to the last, shows two segments near the top.
    func distinctSegments(limit: Int, visiting budget: Int = .max, plainOnly: Bool = false) throws(AnimationError) -> [Segment]? {
        var found: [Segment] = []
        var queue: [(Term, Path)] = [(self, .identity)]
        var next = 0
        while next < queue.count {
            guard next < budget else { return nil }
            let (term, path) = queue[next]
            next += 1
            switch term.kind {
            case .tween(let tween):
                // A warped clock (placing it inverts the warp, which is costly) is not plain.
                if plainOnly, path.collapse == nil, !path.stages.isEmpty { return nil }
                let segment = path.place(term, tween)
                if !found.contains(segment) {
                    found.append(segment)
                    if found.count >= limit { return found }
                }
            case .power(let body, let count):
                // Two copies are enough to tell one segment from several.
                let period = body.duration ?? .zero
                for copy in 0..<min(count, path.collapse == nil ? 2 : 1) {
                    queue.append((body, try path.shifted(by: try period.multiplied(by: Int64(copy)))))
                }
            case .forever(let body):
                let period = body.duration ?? .zero
                for copy in 0..<(path.collapse == nil ? 2 : 1) {
                    queue.append((body, try path.shifted(by: try period.multiplied(by: Int64(copy)))))
                }
            case .sequence(let parts):
                // Enqueue no more than the budget can visit (a queue longer than the budget ends the search).
                var offset = Time.zero
                for part in parts.prefix(Swift.max(0, budget - queue.count + 1)) {
                    queue.append((part, offset.isZero ? path : try path.shifted(by: offset)))
                    offset = try offset.adding(part.duration ?? .zero)
                }
            case .parallel(let parts):
                for part in parts.prefix(Swift.max(0, budget - queue.count + 1)) { queue.append((part, path)) }
            case .played:
                return nil
            case .zero, .one, .wait, .event, .reversed, .retimed, .eased:
                var enqueued: [(Term, Path)] = []
                try descend(term, path, into: &enqueued)
                queue.append(contentsOf: enqueued.reversed())
            }
        }
        return found
    }
}

/// The parts of a `;` or `||` node, each with its path, one at a time: a
/// part of a sequence starts where the parts before it end, and fires after
/// them (``Path/FiringOrder``); the parts of `||` share the node's path. The
/// compiler keeps one of these per open node instead of a pending entry per
/// part, so a long `;` takes no work list.
struct PartCursor {
    let parts: [Term]
    let path: Path
    let isSequence: Bool
    /// Whether the parts' firing orders are needed: the node has events.
    private let tracksOrder: Bool
    /// Whether the parts' durations add up without overflow (the node has
    /// a duration): no need to check the total after the last part.
    private let totalFits: Bool
    private(set) var index = 0
    private var offset = Time.zero
    private var order: Path.FiringOrder

    init(sequence node: Term, _ parts: [Term], at path: Path) {
        self.parts = parts
        self.path = path
        isSequence = true
        tracksOrder = node.hasEvents
        totalFits = node.duration != nil
        order = path.firing
    }

    init(parallel node: Term, _ parts: [Term], at path: Path) {
        self.parts = parts
        self.path = path
        isSequence = false
        tracksOrder = false
        totalFits = true
        order = path.firing
    }

    var isDone: Bool { index >= parts.count }

    /// The next part and its path; `nil` after the last.
    mutating func next() throws(AnimationError) -> (Term, Path)? {
        guard index < parts.count else { return nil }
        let part = parts[index]
        index += 1
        guard isSequence else { return (part, path) }
        var child = offset.isZero ? path : try path.shifted(by: offset)
        // (Without events below, no rank is read: the order stays the node's.)
        child.firing = order
        let duration = part.duration ?? .zero
        let isLast = index == parts.count
        if !(isLast && totalFits) {
            offset = try offset.adding(duration)   // also after the last part: a total that overflows throws
        }
        // Squeezed to an instant (`in 0s`), every part fires at that instant, in turn
        // (no order after the last part: nothing reads it).
        if !isLast, tracksOrder {
            order = duration.isZero || path.collapse != nil ? order.advanced(by: part.leafCount) : order.after(part)
        }
        return (part, child)
    }
}

/// Pushes the children of a structural term with their paths (the last
/// child on top, so that a stack visits them in order).
func descend(_ term: Term, _ path: Path, into stack: inout [(Term, Path)]) throws(AnimationError) {
    switch term.kind {
    case .parallel(let parts):
        for part in parts.reversed() { stack.append((part, path)) }
    case .sequence(let parts):
        // Pushed first to last, then that run of the stack reversed in place.
        let bottom = stack.count
        var cursor = PartCursor(sequence: term, parts, at: path)
        while let child = try cursor.next() { stack.append(child) }
        var low = bottom, high = stack.count - 1
        while low < high {
            stack.swapAt(low, high)
            low += 1
            high -= 1
        }
    case .reversed(let body):
        var child = try path.reversed(in: body.duration ?? .zero)
        child.firing = path.firing.reversed(body)
        stack.append((body, child))
    case .retimed(let body, let target):
        guard let span = body.duration, !span.isZero else {
            stack.append((body, path))   // `x in 0s` of an instant changes nothing
            return
        }
        stack.append((body, try path.scaled(by: try target.divided(by: span))))
    case .eased(let body, let easing):
        stack.append((body, try path.warped(by: easing, span: body.duration ?? .zero)))
    case .power(let body, let count):
        // Squeezed to an instant, every copy is the same set of jumps.
        let copies = path.collapse == nil ? count : 1
        let period = body.duration ?? .zero
        for copy in (0..<copies).reversed() {
            var child = try path.shifted(by: try period.multiplied(by: Int64(copy)))
            // As in a sequence: after the copy before, at once or once it took time.
            if copy > 0 {
                child.firing = period.isZero || path.collapse != nil
                    ? path.firing.advanced(by: body.leafCount.multipliedSaturating(copy)) : path.firing.after(body)
            }
            stack.append((body, child))
        }
    case .forever(let body):
        // Endless repetition is never listed: only its first copy is visited.
        stack.append((body, path))
    case .zero, .one, .wait, .tween, .event, .played:
        // (A part, `played`, is cut from its compiled operand, not descended into.)
        break
    }
}

/// The compiler's work: nodes to visit at their paths, and the open `;`/`||`
/// nodes, each a cursor over its parts (advanced in place). Each carries the
/// place, in the term, of its first leaf (the leaves before it in a walk in
/// order, every copy counted). A cursor yields its next part once every
/// node pushed after it is done.
private struct WorkList {
    var nodes: [(Term, Path, Int)] = []
    /// A cursor, the number of its next part's first leaf, and how many
    /// nodes were pending when it opened.
    private var cursors: [(cursor: PartCursor, key: Int, base: Int)] = []

    /// The next node to visit; `nil` when all is done.
    mutating func next() throws(AnimationError) -> (Term, Path, Int)? {
        while let base = cursors.last?.base, nodes.count == base {
            let top = cursors.count - 1
            guard let (part, path) = try cursors[top].cursor.next() else {
                cursors.removeLast()
                continue
            }
            let key = cursors[top].key
            if cursors[top].cursor.isDone {
                cursors.removeLast()
            } else {
                cursors[top].key = key.addingSaturating(part.leafCount)
            }
            return (part, path, key)
        }
        return nodes.popLast()
    }

    /// Opens a `;`/`||` node whose first leaf is number `key`: a cursor over
    /// its parts, unless the first part is deeper than every other, which
    /// is then visited after them (pending below the cursor). Returns
    /// whether it did so.
    mutating func open(_ cursor: consuming PartCursor, key: Int, mayDefer: Bool) throws(AnimationError) -> Bool {
        var cursor = cursor
        let parts = cursor.parts
        var deferred = false
        var next = key
        if mayDefer, parts.count > 1, parts.dropFirst().allSatisfy({ $0.height < parts[0].height }),
           let (first, at) = try cursor.next() {
            nodes.append((first, at, key))
            next = key.addingSaturating(first.leafCount)
            deferred = true
        }
        if !cursor.isDone { cursors.append((cursor, next, nodes.count)) }
        return deferred
    }
}

/// Whether the tween leaves placed so far all animate one property, noted
/// one by one as each is placed (``Term/placeTween(at:into:)`` has just read
/// the leaf, so it is in cache; a long chain's leaves read again afterwards
/// are not). A leaf placed some other way must be noted too, or it is not
/// known (``property`` is then wrong): the compiler places them only there.
struct SoleProperty {
    /// The property of the first leaf noted.
    private var first: Property?
    /// Whether some leaf animates another.
    private var mixed = false

    /// Notes a tween leaf placed. (Not inlined: inlined into the compiler's
    /// loop, it copies the leaf's kind out for every leaf.)
    @inline(never)
    mutating func note(_ leaf: Term) {
        guard !mixed else { return }
        if let first {
            if !leaf.isTween(of: first) { mixed = true }
        } else {
            first = leaf.leafProperty
        }
    }

    /// The property every leaf noted animates; `nil` when none was noted or they differ.
    var property: Property? { mixed ? nil : first }
}

private struct Compiler {
    private struct BodyKey: Hashable {
        let term: ObjectIdentifier
        let reversed: Bool
    }

    let materializeLimit: Int
    /// Declared initial values, where relative tweens start when nothing comes before them.
    let initial: [Property: Value]
    /// Set for ``CompiledScene/unrolled(through:)``: endless repetitions
    /// become enough copies to reach past this time.
    let unrollingThrough: Time?

    init(materializeLimit: Int, initial: [Property: Value] = [:], unrollingThrough: Time? = nil) {
        self.materializeLimit = materializeLimit
        self.initial = initial
        self.unrollingThrough = unrollingThrough
    }

    /// Bodies of symbolic repetitions, compiled once each (the same `let` may
    /// recur); the term is kept so its identity stays valid.
    private var bodies: [BodyKey: (Term, CompiledScene)] = [:]
    /// Parts (`played` nodes), each cut once however often it recurs; the node is kept as above.
    private var parts: [ObjectIdentifier: (Term, PlayedPart)] = [:]

    /// The part a `played` node contributes in its own frame (see `Played.swift`):
    /// its operand compiled on its own (closed), then cut.
    private mutating func playedPart(_ node: Term, _ body: Term, from start: Time, to end: Time) throws(AnimationError) -> PlayedPart {
        if let known = parts[ObjectIdentifier(node)] { return known.1 }
        var closed = Compiler(materializeLimit: materializeLimit, initial: initial)
        let scene = try closed.compile(body, duration: body.duration)
        let part = try PlayedPart(scene, from: start, to: end, materializeLimit: materializeLimit)
        parts[ObjectIdentifier(node)] = (node, part)
        return part
    }

    /// `body`: a repetition's body, whose relative tweens with nothing
    /// before them start at their copy's input (see ``RelativeResolver``).
    mutating func compile(_ root: Term?, duration: Time?, body: Bool = false) throws(AnimationError) -> CompiledScene {
        // Placed in one list reserved at its size (at most the term's leaves,
        // which a plain chain lists all of) instead of growing by doubling,
        // when a block would list more than it: then grown as needed. Split
        // by property afterwards (adopted as it is, by the track, when there
        // is one property).
        var placed = SegmentList(capacity: root.map { $0.leafCount <= Scene.segmentLimit ? $0.leafCount : 0 } ?? 0)
        var blocks: [RepetitionBlock] = []
        var events: [PlacedEvent] = []
        var listed = 0
        // The work list. A node whose first part is deeper than the rest (a
        // chain built by `x = x ; y`, nested to the left) has its later parts
        // visited first, so the list stays short however deep the chain; the
        // segments and blocks placed out of order carry their leaf's place
        // in the term (``WorkList``) and are put back in order afterwards, so
        // everything downstream sees them as a walk in order would. (Not
        // when the term has too many leaves to number: then in order.)
        let mayDefer = root.map { $0.leafCount < Int.max } ?? false
        // Until a node is first deferred, segments are placed in walk order,
        // and every one placed later comes after them in it: only the
        // segments from `firstDeferred` on carry their key, and only they
        // are put back in order (a flat chain defers nothing: no keys).
        var firstDeferred: Int?
        var keys: [Int] = []
        var blockKeys: [Int] = []
        var stack = WorkList()
        // Whether every tween placed animates one property, noted as each is
        // placed (its leaf just read): the split by property then reads no leaf again.
        var sole = SoleProperty()
        if let root { stack.nodes.append((root, .identity, 0)) }
        while let (term, path, key) = try stack.next() {
            // A tween (most nodes of a chain) is placed without a copy of its kind.
            if term.isTween {
                listed += 1
                guard listed <= Scene.segmentLimit else {
                    throw .invalidSampling("the animation has more than \(Scene.segmentLimit) segments")
                }
                if term.placeTween(at: path, into: placed) {
                    if firstDeferred != nil { keys.append(key) }
                    sole.note(term)
                }
                continue
            }
            switch term.kind {
            case .tween:
                break   // placed above
            case .event(let name):
                listed += 1
                guard listed <= Scene.segmentLimit else {
                    throw .invalidSampling("the animation has more than \(Scene.segmentLimit) segments")
                }
                // (Events need no order: they are sorted by time, rank and name, all their content.)
                events.append(PlacedEvent(name: name, time: path.placeInstant(), rank: path.firing.rank))
            case .sequence(let parts):
                if try stack.open(PartCursor(sequence: term, parts, at: path), key: key, mayDefer: mayDefer), firstDeferred == nil {
                    firstDeferred = placed.count
                }
            case .parallel(let parts):
                if try stack.open(PartCursor(parallel: term, parts, at: path), key: key, mayDefer: mayDefer), firstDeferred == nil {
                    firstDeferred = placed.count
                }
            case .forever(let body) where path.collapse == nil:
                let period = body.duration ?? .zero
                if let horizon = unrollingThrough, let count = copies(of: period, at: path, reaching: horizon) {
                    // As `body ^ count`: listed when few, else one symbolic block.
                    if count.multipliedSaturating(body.leafCount) > materializeLimit {
                        blocks.append(try symbolicBlock(body, period: period, count: count, path: path))
                        if mayDefer { blockKeys.append(key) }
                    } else {
                        for copy in (0..<count).reversed() {
                            stack.nodes.append((body, try path.shifted(by: try period.multiplied(by: Int64(copy))),
                                                key.addingSaturating(body.leafCount.multipliedSaturating(copy))))
                        }
                    }
                } else {
                    blocks.append(try symbolicBlock(body, period: period, count: 0, endless: true, path: path))
                    if mayDefer { blockKeys.append(key) }
                }
            case .power(let body, let count)
                where path.collapse == nil && count.multipliedSaturating(body.leafCount) > materializeLimit:
                blocks.append(try symbolicBlock(body, period: body.duration ?? .zero, count: count, path: path))
                if mayDefer { blockKeys.append(key) }
            case .eased(let body, let easing) where path.collapse == nil && !easing.isContinuous && !body.hasEventsOnly:
                // A warp that jumps (steps, expo's ends) cannot be undone window by
                // window; sample it as defined, the state of x at D·E(t/D).
                let span = body.duration ?? .zero
                blocks.append(try symbolicBlock(body, period: span, count: 1, path: try path.warped(by: easing, span: span)))
                if mayDefer { blockKeys.append(key) }
            case .played(let body, let start, let end):
                // Cut once from the operand compiled on its own, then placed here.
                let part = try playedPart(term, body, from: start, to: end)
                var list: [Segment] = []
                var partEvents: [PlacedEvent] = []
                let before = blocks.count
                try part.place(through: path, segments: &list, blocks: &blocks, events: &partEvents)
                listed += list.count + partEvents.count
                guard listed <= Scene.segmentLimit else {
                    throw .invalidSampling("the animation has more than \(Scene.segmentLimit) segments")
                }
                for segment in list {
                    placed.append(segment)
                    if firstDeferred != nil { keys.append(key) }
                    sole.note(segment.source)
                }
                events.append(contentsOf: partEvents)
                if mayDefer { for _ in before..<blocks.count { blockKeys.append(key) } }
            case .power(let body, _):
                // The copies, numbered by the leaves before each (copy c: c·leaves).
                var children: [(Term, Path)] = []
                try descend(term, path, into: &children)
                for (index, child) in children.enumerated() {
                    let copy = children.count - 1 - index
                    stack.nodes.append((child.0, child.1, key.addingSaturating(body.leafCount.multipliedSaturating(copy))))
                }
            case .zero, .one, .wait, .forever, .reversed, .retimed, .eased:
                var children: [(Term, Path)] = []
                try descend(term, path, into: &children)
                for child in children { stack.nodes.append((child.0, child.1, key)) }
            }
        }
        // The work list is empty now, but keeps its capacity.
        stack = WorkList()
        if let firstDeferred {
            placed.permute(from: firstDeferred, byAscending: keys)
            if blocks.count > 1 {
                blocks = blocks.indices.sorted { blockKeys[$0] < blockKeys[$1] }.map { blocks[$0] }
            }
        }
        keys = []
        var segments = Compiler.byProperty(placed, sole: sole.property)
        placed = SegmentList()
        let unique = PlacedEvent.inFiringOrder(events)
        var byProperty: [Property: [RepetitionBlock]] = [:]
        for block in blocks {
            for property in block.body.properties { byProperty[property, default: []].append(block) }
        }
        let properties = Set(segments.keys).union(byProperty.keys).sorted()
        var tracks: [Track] = []
        tracks.reserveCapacity(properties.count)
        for property in properties {
            // Moved out of the dictionary, so the track sorts it without a copy.
            let listedSegments = segments.removeValue(forKey: property) ?? SegmentList()
            let references = (byProperty[property] ?? []).compactMap { block in
                block.body.track(for: property).map { BlockReference(block: block, track: $0) }
            }
            // The first segment (or repetition) names the property's kind; the others keep to it.
            let listedKind = listedSegments.count > 0 ? listedSegments.base.pointee.from.kind : nil
            if let kind = listedKind ?? references.first?.track.kind {
                for index in 0..<listedSegments.count where listedSegments.base[index].from.kind != kind {
                    throw .mixedKinds(property, kind, listedSegments.base[index].from.kind)
                }
                for reference in references {
                    if let other = reference.track.kind, other != kind { throw .mixedKinds(property, kind, other) }
                }
            }
            // Relative tweens (`to`, `by`) take their start values here.
            let resolver = RelativeResolver(property: property,
                                            mode: body ? .body(period: duration ?? .zero) : .scene(initial: initial[property]))
            tracks.append(try resolver.track(listedSegments, references))
        }
        let horizon = duration ?? CompiledScene.horizon(tracks: tracks, blocks: blocks, events: unique)
        return CompiledScene(duration: horizon, isInfinite: duration == nil, properties: properties, tracks: tracks,
                             blocks: blocks, events: unique)
    }

    /// The placed segments of each property, in the order placed: `placed`
    /// itself when there is one property, else moved out of it (left empty)
    /// into a list per property. `sole`: the property every segment is known
    /// to animate, if it is known (``SoleProperty``); else each leaf is read.
    private static func byProperty(_ placed: SegmentList, sole: Property?) -> [Property: SegmentList] {
        guard placed.count > 0 else { return [:] }
        if let sole { return [sole: placed] }
        let first = placed.base.pointee.property
        if !placed.contains(where: { !$0.pointee.animates(first) }) { return [first: placed] }
        // One hash per segment: each property's number, then the count of each.
        var numbers: [Property: Int32] = [:]
        var owners: [Int32] = []
        owners.reserveCapacity(placed.count)
        var counts: [Int] = []
        for index in 0..<placed.count {
            let property = placed.base[index].property
            let number: Int32
            if let known = numbers[property] {
                number = known
            } else {
                number = Int32(truncatingIfNeeded: counts.count)
                numbers[property] = number
                counts.append(0)
            }
            owners.append(number)
            counts[Int(number)] += 1
        }
        let lists = counts.map { SegmentList(capacity: $0) }
        for index in 0..<placed.count { lists[Int(owners[index])].append(movingFrom: placed.base + index) }
        placed.forgetMovedElements()
        // (Not `reserveCapacity`, which the standard library does not inline: a generic
        // call, building two dictionary types' metadata at run time on every start-up.)
        var split = [Property: SegmentList](minimumCapacity: lists.count)
        for (property, number) in numbers { split[property] = lists[Int(number)] }
        return split
    }

    /// How many copies of an endless repetition with this period, placed by
    /// `path`, reach past `horizon`: those that start by it, and one more (at
    /// a copy boundary the next copy is the one that shows). `nil` when its
    /// clock is warped or exact time overflows (it stays endless then).
    private func copies(of period: Time, at path: Path, reaching horizon: Time) -> Int? {
        guard path.stages.isEmpty, path.affine.isIncreasing, period.isPositive,
              let start = path.backward(Instant(.zero), upper: false).exact,
              let next = path.backward(Instant(period), upper: false).exact,
              let length = try? next.subtracting(start), length.isPositive,
              let span = try? horizon.subtracting(start) else { return nil }
        if !span.isPositive { return 1 }
        let whole = span.floorQuotient(dividingBy: length)
        guard whole < Int128(Int32.max) else { return nil }
        return Int(whole) + 2
    }

    private mutating func symbolicBlock(_ body: Term, period: Time, count: Int, endless: Bool = false,
                                        path: Path) throws(AnimationError) -> RepetitionBlock {
        var blockPath = path
        var reversed = false
        if !endless, !path.affine.isIncreasing {
            // (x ^ n) reversed = (x reversed) ^ n: keep the block's own map increasing.
            blockPath.affine = try path.affine.mirrored(in: try period.multiplied(by: Int64(count)))
            reversed = true
        }
        let key = BodyKey(term: ObjectIdentifier(body), reversed: reversed)
        let compiled: CompiledScene
        if let cached = bodies[key] {
            compiled = cached.1
        } else {
            let term = reversed ? Term.reversed(body) : body
            compiled = try compile(term, duration: period, body: true)
            bodies[key] = (body, compiled)
        }
        return try RepetitionBlock(path: blockPath, period: period, count: count, isEndless: endless, body: compiled,
                                   term: reversed ? Term.reversed(body) : body)
    }
}

extension CompiledScene {
    func track(for property: Property) -> Track? {
        var low = 0, high = properties.count
        while low < high {
            let mid = (low + high) / 2
            if properties[mid] < property { low = mid + 1 } else { high = mid }
        }
        return low < properties.count && properties[low] == property ? tracks[low] : nil
    }

    /// The kind of values `property` holds, as compiling checked it (every
    /// segment and repetition on it agrees); `nil` when nothing animates it.
    public func kind(of property: Property) -> Value.Kind? {
        guard let track = track(for: property) else { return nil }
        return track.kind ?? .number
    }
}

extension Easing {
    /// Whether the curve is continuous on [0, 1]. A warp by a continuous,
    /// monotone curve maps each window to one window; steps and the ends of
    /// expo jump, so warps by them are sampled through their definition instead.
    var isContinuous: Bool {
        switch kind {
        case .steps: return false
        case .penner(let curve, _): return curve != .expo
        // A spring's end step, from x(T) to E(1) = 1, is within ε = 0.001 and
        // never warps time anyway (springs count as non-monotone).
        case .linear, .easeIn, .easeOut, .easeInOut, .cubicBezier, .spring: return true
        case .composed(let outer, let inner): return outer.isContinuous && inner.isContinuous
        case .mirror(let inner): return inner.isContinuous
        case .piecewise(let points): return !zip(points, points.dropFirst()).contains { $0.input == $1.input && $0.output != $1.output }
        }
    }
}

/// An event placed in a compiled scene: its name and when it fires.
public struct PlacedEvent: Hashable, Comparable, Sendable {
    public let name: String
    public let time: Instant
    /// Its place among the events of its instant, in the order they fire
    /// (docs/semantics.md §6.5: a sequence's parts in turn; equal ranks, the first
    /// events of `||` branches, go by name). Not part of its identity: one
    /// name fires once at an instant.
    public let rank: Int

    public init(name: String, time: Instant, rank: Int = 0) {
        self.name = name
        self.time = time
        self.rank = rank
    }

    public static func == (lhs: PlacedEvent, rhs: PlacedEvent) -> Bool {
        lhs.name == rhs.name && lhs.time == rhs.time
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(time)
    }

    /// In firing order: by time, then rank, then name.
    public static func < (lhs: PlacedEvent, rhs: PlacedEvent) -> Bool {
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        return lhs.rank != rhs.rank ? lhs.rank < rhs.rank : lhs.name < rhs.name
    }

    /// `events` in firing order, each name once per instant (at its latest rank there, as
    /// ``EventTally/placing(_:_:_:_:)`` lists it).
    static func inFiringOrder(_ events: [PlacedEvent]) -> [PlacedEvent] {
        var seen = Set<PlacedEvent>()
        return events.sorted().reversed().filter { seen.insert($0).inserted }.reversed()
    }
}

extension CompiledScene {
    /// Where the finite part of an endless scene ends: the latest exact end of
    /// a listed segment, event or finite block, or start of an endless block.
    static func horizon(tracks: [Track], blocks: [RepetitionBlock], events: [PlacedEvent]) -> Time {
        var latest = Time.zero
        for track in tracks {
            for end in track.ends { if let exact = end.exact, latest < exact { latest = exact } }
        }
        for event in events { if let exact = event.time.exact, latest < exact { latest = exact } }
        for block in blocks {
            let edge = block.isEndless ? block.start : block.end
            if let exact = edge.exact, latest < exact { latest = exact }
        }
        return latest
    }
}

extension Term {
    /// Whether every leaf inside is an event (no tweens): a warp of such a
    /// term only moves instants, whatever the easing.
    var hasEventsOnly: Bool { hasLeaves && views.isEmpty }
}

extension Path {
    /// Where the node's own time 0 falls in the scene: an event's instant
    /// (through a warp, the least time the warp maps to it or past it).
    func placeInstant() -> Instant {
        if let collapse { return collapse.point }
        let inner = affine.invert(Instant(.zero))
        return stages.isEmpty ? inner : backwardThroughStages(inner, upper: false, event: true)
    }
}
