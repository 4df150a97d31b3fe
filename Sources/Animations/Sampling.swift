/// Reading a property at time `t` (docs/semantics.md §4):
///
/// 1. among the segments **active** at `t` (`start ≤ t ≤ end`), those with the
///    latest start win, showing `from + (to − from)·E(progress)`;
/// 2. otherwise, among the **finished** ones (`end < t`), those with the latest
///    end (then the latest start) win, holding their end value;
/// 3. otherwise the declared initial value, or else the segments with the
///    earliest start, holding their start value.
///
/// Several winners show the mean of their distinct values (summed in sorted
/// order, so the result does not depend on the order of `||` operands).
extension CompiledScene {
    /// The value of the `index`-th property (of ``properties``) at `t`;
    /// `initial` is its declared initial value, if any.
    public func value(ofPropertyAt index: Int, at t: Time, initial: Value? = nil) -> Value? {
        guard tracks.indices.contains(index) else { return initial }
        return tracks[index].value(at: Instant(t), initial: initial)
    }

    /// The value of `property` at `t`, or `initial` when no segment animates it.
    public func value(of property: Property, at t: Time, initial: Value? = nil) -> Value? {
        value(of: property, at: Instant(t), initial: initial)
    }

    /// The value of `property` at an inexact time (for driving a display in seconds).
    public func value(of property: Property, atSeconds seconds: Double, initial: Value? = nil) -> Value? {
        value(of: property, at: Instant(approximately: seconds), initial: initial)
    }

    /// The value of `property` at an instant, exact or not.
    public func value(of property: Property, at t: Instant, initial: Value? = nil) -> Value? {
        guard let track = track(for: property) else { return initial }
        return track.value(at: t, initial: initial)
    }
}

/// The segments of one property, indexed for the sampling rule.
final class Track: @unchecked Sendable {
    /// How many segments (sorted by start, then end; exact duplicates
    /// removed, since Σ is a set).
    let count: Int
    /// `start` and `end` of each segment, for the searches: read in place
    /// from the segments (no second copy of every window).
    var starts: WindowColumn { WindowColumn(base: storage, count: count, ends: false) }
    var ends: WindowColumn { WindowColumn(base: storage, count: count, ends: true) }
    /// The segments, in memory of our own: reading an array element of a
    /// struct with references copies it (and counts references); reading
    /// through a pointer does not. `list.base`, kept by `list`.
    let storage: UnsafeMutablePointer<Segment>
    private let list: SegmentList

    /// The segments, sorted by start (a copy, for listing).
    var segments: [Segment] {
        Array(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Whether the segments' own order is also their order by (end, start)
    /// (windows that follow one another: a chain). Then ``byEnd(_:)`` is
    /// the identity and the ends never decrease, so no permutation and no
    /// max-tree is kept (a long chain's would be as large as its segments' list).
    private let endsInOrder: Bool
    /// Indices into `segments`, sorted by (end, start); empty when `endsInOrder`.
    private let byEndOrder: [Int32]
    /// A max-tree over `segments[i].end`, for "the last segment started by t
    /// that has not ended before t": its inner nodes `1..<leaves` (node `n`
    /// covers `2n` and `2n + 1`; leaf `leaves + i` is segment `i`'s end,
    /// read from the segment: ``maxEnd(_:)``). Empty when `endsInOrder`.
    private let innerMaxEnd: [Instant]
    private let leaves: Int
    private(set) var blocks: [BlockReference]
    /// The earliest-starting listed segments (key: start; values: start values).
    private var firstListed: Group?
    /// The earliest-starting segments, blocks included.
    private(set) var first: Group?
    /// The latest-ending segments (keys: end, start; values: end values).
    private(set) var last: Group?

    /// Whether the property holds numbers or colours.
    let kind: Value.Kind?
    /// Whether some segment's ends depend on the input of its copy (a
    /// repetition's body with relative tweens; see ``Drift``).
    private(set) var hasDrift: Bool
    /// Whether reading it needs the input: a segment drifts, or a block's copies have inputs.
    private var readsInput: Bool
    /// Whether a segment cut by `played` is listed (its rank, the start that
    /// docs/semantics.md §4 compares, comes before its window): the rule is then read by a scan
    /// of the segments, not through the index, which orders windows.
    let ranked: Bool

    /// Adopts `list` (no copy): sorts it in place by start, then end, and
    /// removes exact duplicates.
    init(segments list: SegmentList, blocks: [BlockReference]) {
        list.sortByWindowRemovingDuplicates()
        let storage = list.base, kept = list.count
        kind = kept > 0 ? storage[0].from.kind : blocks.first?.track.kind
        self.list = list
        self.storage = storage
        count = kept
        self.blocks = blocks
        hasDrift = (0..<kept).contains { storage[$0].drift != nil }
        readsInput = hasDrift || blocks.contains { $0.input != nil }
        ranked = (0..<kept).contains { storage[$0].clip != nil }
        let ends = WindowColumn(base: storage, count: kept, ends: true)
        let starts = WindowColumn(base: storage, count: kept, ends: false)
        let endOrder = { (a: Int32, b: Int32) -> Bool in
            let x = Int(a), y = Int(b)
            return ends[x] != ends[y] ? ends[x] < ends[y] : starts[x] < starts[y]
        }
        // Windows that follow one another (a chain) already end in order:
        // the stable sort would change nothing, and neither it nor the tree is made.
        endsInOrder = !(1..<max(1, kept)).contains(where: { endOrder(Int32(truncatingIfNeeded: $0), Int32(truncatingIfNeeded: $0 - 1)) })
        if endsInOrder {
            self.byEndOrder = []
            innerMaxEnd = []
            leaves = 0
            firstListed = computeFirstListed(.none)
            first = computeFirst(.none)
            last = computeLast(.none)
            return
        }
        var byEnd = Array(0..<Int32(truncatingIfNeeded: count))
        byEnd.sort(by: endOrder)
        self.byEndOrder = byEnd
        var size = 1
        while size < count { size *= 2 }
        leaves = size
        let none = Instant(approximately: -Double.infinity)
        var tree = [Instant](repeating: none, count: size)
        var node = size - 1
        while node >= 1 {
            let left = 2 * node, right = 2 * node + 1
            if left >= size {
                let a = left - size, b = right - size
                tree[node] = max(a < kept ? ends[a] : none, b < kept ? ends[b] : none)
            } else {
                tree[node] = max(tree[left], tree[right])
            }
            node -= 1
        }
        innerMaxEnd = tree
        firstListed = computeFirstListed(.none)
        first = computeFirst(.none)
        last = computeLast(.none)
    }

    /// The earliest-starting segments, blocks included, for `input`.
    func first(_ input: TrackInput) -> Group? {
        if case .none = input { return first }
        return readsInput || input.isSlopes ? computeFirst(input) : first
    }

    /// The latest-ending segments, blocks included, for `input`.
    func last(_ input: TrackInput) -> Group? {
        if case .none = input { return last }
        return readsInput || input.isSlopes ? computeLast(input) : last
    }

    /// Offers this property's candidates at `t` to `resolution` (for a
    /// repetition's body, read with its copy's `input`).
    func resolve(at t: Instant, into resolution: inout Resolution, input: TrackInput = .none) {
        resolveListed(at: t, into: &resolution, input: input)
        for reference in blocks {
            reference.resolve(at: t, into: &resolution, outer: input)
        }
    }

    /// The value at `t` read over the segments before `limit` and the first
    /// `admitted` blocks, by the sampling rule's active and finished winners
    /// (nothing upcoming): what a relative tween starting at `t` starts from
    /// (docs/semantics.md §7.1). `nil` when none of them has started by `t`.
    func value(at t: Instant, before limit: Int, blocks admitted: Int, input: TrackInput) -> Value? {
        var resolution = Resolution()
        resolveListed(at: t, into: &resolution, input: input, limit: limit)
        for reference in blocks.prefix(admitted) {
            reference.resolve(at: t, into: &resolution, outer: input)
        }
        resolution.upcoming = nil
        return resolution.value(initial: nil)
    }

    /// The value at `t` by the sampling rule, `before` when nothing has
    /// started (a table's cell; `hint` as for ``winners(at:before:hint:)``):
    /// ``resolve(at:into:input:)`` then
    /// ``Resolution/value(before:)``, without building the resolution when
    /// the track has no blocks and one segment wins (the mean of one value
    /// is that value, canonical).
    @inline(__always)
    func value(at t: Instant, before: Value, hint: inout Int) -> Value {
        if blocks.isEmpty, !ranked, let winners = winners(at: t, hint: &hint) {
            switch winners.category {
            case .upcoming:
                return before
            case .active:
                let last = winners.last
                if last == 0 || starts[last - 1] != starts[last] {
                    return Segment.activeValue(of: storage + last, at: t).canonical
                }
            case .finished:
                let position = winners.last, winner = byEnd(position)
                if position == 0 || ends[byEnd(position - 1)] != ends[winner] || starts[byEnd(position - 1)] != starts[winner] {
                    return storage[winner].endValue.canonical
                }
            }
        }
        var resolution = Resolution()
        resolve(at: t, into: &resolution)
        return resolution.value(before: before)
    }

    /// The value at `t` by the sampling rule; `initial` is the declared initial value.
    func value(at t: Instant, initial: Value?) -> Value? {
        var resolution = Resolution()
        resolve(at: t, into: &resolution)
        return resolution.value(initial: initial)
    }

    /// Replaces the segment at `index` by the one it resolved to (same window).
    func resolve(_ index: Int, to segment: Segment) {
        storage[index] = segment
    }

    /// Gives block `index` the input of each of its copies.
    func setInput(_ input: BlockInput, ofBlock index: Int) {
        blocks[index].input = input
    }

    /// Recomputes what depends on the values, once relative segments are resolved.
    func valuesChanged() {
        hasDrift = (0..<count).contains { storage[$0].drift != nil }
        readsInput = hasDrift || blocks.contains { $0.input != nil }
        firstListed = computeFirstListed(.none)
        first = computeFirst(.none)
        last = computeLast(.none)
    }

    /// The listed segments that win at `t` by the sampling rule
    /// (docs/semantics.md §4), the one query behind resolution, pieces and ties: among those
    /// active at `t`, the latest start; else among those finished, the
    /// latest end, then the latest start; else (none started) the earliest
    /// start. `limit`: only the segments before this index count (which
    /// have started by `t`); `nil` when the track has no segment.
    func winners(at t: Instant, before limit: Int? = nil) -> Winners? {
        var hint = 0
        return winners(at: t, before: limit, hint: &hint)
    }

    /// ``winners(at:before:)``, starting the search for the segments
    /// started by `t` at `hint`: how many had started at an earlier time
    /// read before (a table reads its rows in order), set to how many have
    /// started by `t`. Any `hint` gives the same winners; an earlier time's
    /// makes the search short.
    @inline(__always)
    func winners(at t: Instant, before limit: Int? = nil, hint: inout Int) -> Winners? {
        let count = starts.count
        guard count > 0 else { return nil }
        // Segments [0, started) have start <= t. (Windows are read from their
        // own arrays: copying a whole segment costs reference counting.)
        var low = 0, high = count
        if hint > 0, hint <= count, starts[hint - 1] <= t {
            // [0, hint) have started: look a few ahead, then search what is left.
            // Invariant: [0, low) have started; none of [high, count) has.
            low = hint
            var step = 1
            while low < high {
                guard starts[low] <= t else {
                    high = low
                    break
                }
                low += 1
                let probe = low + step - 1
                guard probe < count else { break }
                guard starts[probe] <= t else {
                    high = probe
                    break
                }
                low = probe + 1
                step *= 2
            }
        }
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= t { low = mid + 1 } else { high = mid }
        }
        hint = low
        let started = limit.map { min($0, low) } ?? low
        if started == 0 { return Winners(category: .upcoming, t: t, last: 0) }
        if let latest = rightmostEnding(atOrAfter: t, before: started) {
            return Winners(category: .active, t: t, last: latest)
        }
        // Nothing active: every started segment has finished. The latest end wins.
        low = 0
        high = count
        while low < high {
            let mid = (low + high) / 2
            if ends[byEnd(mid)] < t { low = mid + 1 } else { high = mid }
        }
        // (A limit leaves out only segments that start at `t` or later: none has finished.)
        guard low > 0 else { return nil }
        return Winners(category: .finished, t: t, last: low - 1)
    }

    /// Calls `body` with the index of each of `winners`, the last first.
    @inline(__always)
    func forEach(_ winners: Winners, _ body: (Int) -> Void) {
        switch winners.category {
        case .upcoming:
            let key = starts[0]
            var index = 0
            while index < count, starts[index] == key {
                body(index)
                index += 1
            }
        case .active:
            let key = starts[winners.last]
            var index = winners.last
            while index >= 0, starts[index] == key {
                if !(ends[index] < winners.t) { body(index) }
                index -= 1
            }
        case .finished:
            let winner = byEnd(winners.last)
            let end = ends[winner], start = starts[winner]
            var position = winners.last
            while position >= 0 {
                let candidate = byEnd(position)
                guard ends[candidate] == end, starts[candidate] == start else { break }
                body(candidate)
                position -= 1
            }
        }
    }

    /// The winning segments themselves, in the order the track keeps them.
    func segments(_ winners: Winners) -> [Segment] {
        var indices: [Int] = []
        forEach(winners) { indices.append($0) }
        return indices.sorted().map { storage[$0] }
    }

    /// `limit`: read only the segments before this index (see ``winners(at:before:)``).
    private func resolveListed(at t: Instant, into resolution: inout Resolution, input: TrackInput, limit: Int? = nil) {
        if ranked {
            resolveByScan(at: t, into: &resolution, input: input, limit: limit)
            return
        }
        guard let winners = winners(at: t, before: limit) else { return }
        switch winners.category {
        case .upcoming:
            if readsInput || input.isSlopes {
                if let group = computeFirstListed(input) { resolution.offerUpcoming(group) }
            } else if let firstListed {
                resolution.offerUpcoming(firstListed)
            }
        case .active:
            let key = starts[winners.last]
            forEach(winners) { index in
                resolution.offerActive(start: key, value: Segment.activeValue(of: storage + index, at: t, input: input))
            }
        case .finished:
            forEach(winners) { index in
                resolution.offerFinished(end: ends[index], start: starts[index], value: storage[index].endValue(input))
            }
        }
    }

    /// ``resolveListed(at:into:input:limit:)`` for a ranked track: every
    /// started segment offered, by its rank.
    private func resolveByScan(at t: Instant, into resolution: inout Resolution, input: TrackInput, limit: Int?) {
        var started = false
        for index in 0..<min(count, limit ?? count) where !(t < starts[index]) {
            started = true
            let segment = storage + index
            if segment.pointee.end < t {
                resolution.offerFinished(end: segment.pointee.end, start: segment.pointee.rank, value: segment.pointee.endValue(input))
            } else {
                resolution.offerActive(start: segment.pointee.rank, value: Segment.activeValue(of: segment, at: t, input: input))
            }
        }
        if !started, let group = computeFirstListed(input) { resolution.offerUpcoming(group) }
    }

    /// The largest index below `limit` whose segment ends at or after `t`.
    func rightmostEnding(atOrAfter t: Instant, before limit: Int) -> Int? {
        guard limit > 0 else { return nil }
        // Most often the segment that started last is still running (a chain).
        if !(ends[limit - 1] < t) { return limit - 1 }
        // Ends in order: none before it ends later.
        if endsInOrder { return nil }
        return search(node: 1, low: 0, high: leaves, limit: limit - 1, t: t)
    }

    private func search(node: Int, low: Int, high: Int, limit: Int, t: Instant) -> Int? {
        if low >= limit || maxEnd(node) < t { return nil }
        if high - low == 1 { return low }
        let mid = (low + high) / 2
        return search(node: 2 * node + 1, low: mid, high: high, limit: limit, t: t)
            ?? search(node: 2 * node, low: low, high: mid, limit: limit, t: t)
    }

    /// The index of the segment at `position` in the order by (end, start).
    @inline(__always)
    private func byEnd(_ position: Int) -> Int {
        endsInOrder ? position : Int(byEndOrder[position])
    }

    /// Node `node` of the max-tree over the ends (see ``innerMaxEnd``).
    @inline(__always)
    private func maxEnd(_ node: Int) -> Instant {
        if node < leaves { return innerMaxEnd[node] }
        let index = node - leaves
        return index < count ? ends[index] : Instant(approximately: -Double.infinity)
    }

    private func computeFirstListed(_ input: TrackInput) -> Group? {
        var group: Group?
        if ranked {
            for index in 0..<count {
                let segment = storage[index]
                Group.merge(&group, Group(segment.rank, segment.rank, segment.startValue(input)), keepLatest: false)
            }
            return group
        }
        if count > 0 {
            let head = storage[0]
            for index in 0..<count {
                let segment = storage[index]
                guard segment.start == head.start else { break }
                Group.merge(&group, Group(head.start, head.start, segment.startValue(input)), keepLatest: false)
            }
        }
        return group
    }

    private func computeFirst(_ input: TrackInput) -> Group? {
        var group = computeFirstListed(input)
        for reference in blocks {
            if let candidate = reference.firstGroup(outer: input) {
                Group.merge(&group, candidate, keepLatest: false)
            }
        }
        return group
    }

    private func computeLast(_ input: TrackInput) -> Group? {
        var group: Group?
        if ranked {
            for index in 0..<count {
                let segment = storage[index]
                Group.merge(&group, Group(segment.end, segment.rank, segment.endValue(input), keyIsEnd: true), keepLatest: true)
            }
        } else if count > 0 {
            let tail = storage[byEnd(count - 1)]
            for position in stride(from: count - 1, through: 0, by: -1) {
                let segment = storage[byEnd(position)]
                guard segment.end == tail.end, segment.start == tail.start else { break }
                Group.merge(&group, Group(tail.end, tail.start, segment.endValue(input), keyIsEnd: true), keepLatest: true)
            }
        }
        for reference in blocks {
            if let candidate = reference.lastGroup(outer: input) {
                Group.merge(&group, candidate, keepLatest: true)
            }
        }
        return group
    }
}

/// The starts or the ends of a track's segments, read in place.
/// Valid while the track that made it lives (it reads the track's storage).
struct WindowColumn: RandomAccessCollection {
    let base: UnsafeMutablePointer<Segment>
    let count: Int
    let ends: Bool

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    @inline(__always)
    subscript(index: Int) -> Instant {
        precondition(index >= 0 && index < count, "index out of range")
        return ends ? base[index].end : base[index].start   // base[0..<count] is initialized
    }
}

/// The listed segments of a track that win at an instant (``Track/winners(at:before:)``).
struct Winners {
    enum Category {
        /// Playing at `t`, with the latest start.
        case active
        /// Ended before `t`, with the latest end, then start: they hold their end values.
        case finished
        /// None has started by `t`: those with the earliest start, holding their start values.
        case upcoming
    }

    let category: Category
    let t: Instant
    /// For `active`, the index of the last winner in the track; for
    /// `finished`, its position in the track's order by end.
    let last: Int
}

/// A block seen from one property: the block, the body's track for it, and
/// (when the body's relative tweens depend on it) the input of each copy.
struct BlockReference {
    let block: RepetitionBlock
    let track: Track
    var input: BlockInput? = nil

    /// How copy `copy` is read when the enclosing track is read for `outer`.
    private func copyInput(_ copy: Int, outer: TrackInput) -> TrackInput {
        if outer.isSlopes { return .slopes }
        guard let input else { return .none }
        return .value(input.value(ofCopy: copy))
    }

    /// Offers the candidates of the copies around `t` (copy `k` containing
    /// `t`, and copy `k − 1`, which is active at a copy boundary and otherwise
    /// holds the latest end). Earlier copies can never win.
    func resolve(at t: Instant, into resolution: inout Resolution, outer: TrackInput) {
        // Decide before/after on the block's own window: a warp clamps times
        // outside its span, so mapping `t` first could not tell.
        if t < block.start {
            if let first = firstGroup(outer: outer) { resolution.offerUpcoming(first) }
            return
        }
        if block.end < t {
            if let last = lastGroup(outer: outer) { resolution.offerFinished(last) }
            return
        }
        let u = block.path.forward(t)
        guard let copy = block.copy(containing: u) else {
            if let last = lastGroup(outer: outer) { resolution.offerFinished(last) }
            return
        }
        let local = block.shift(u, byCopies: -copy)
        var inner = Resolution()
        track.resolve(at: local, into: &inner, input: copyInput(copy, outer: outer))
        block.merge(inner, fromCopy: copy, into: &resolution)
        guard copy >= 1 else { return }
        if local == Instant(.zero) {
            var boundary = Resolution()
            track.resolve(at: Instant(block.period), into: &boundary, input: copyInput(copy - 1, outer: outer))
            boundary.upcoming = nil
            block.merge(boundary, fromCopy: copy - 1, into: &resolution)
        } else if let last = track.last(copyInput(copy - 1, outer: outer)) {
            resolution.offerFinished(block.map(last, fromCopy: copy - 1))
        }
    }

    func firstGroup(outer: TrackInput = .none) -> Group? {
        track.first(copyInput(0, outer: outer)).map { block.map($0, fromCopy: 0) }
    }

    func lastGroup(outer: TrackInput = .none) -> Group? {
        track.last(copyInput(block.count - 1, outer: outer)).map { block.map($0, fromCopy: block.count - 1) }
    }
}

extension RepetitionBlock {
    /// The copy whose window `[k·P, (k+1)·P]` holds block time `u`: `⌊u / P⌋`
    /// (where two copies meet, the later one; with `earlier`, the one that
    /// ends there), 0 before the first; `nil` past the end. Every reading of
    /// a repetition (sampling, events, breakpoints) finds its copy here.
    func copy(containing u: Instant, earlier: Bool = false) -> Int? {
        u.copy(ofPeriod: period, count: count, earlier: earlier)
    }

    /// Block time `u` moved by `copies` periods, exactly when possible.
    func shift(_ u: Instant, byCopies copies: Int) -> Instant {
        u.shifted(by: period, times: copies)
    }

    /// Where the body time `local` of copy `copy` falls in the scene (for an
    /// end, `upper`: the latest time that maps there).
    public func toScene(_ local: Instant, fromCopy copy: Int, upper: Bool) -> Instant {
        path.backward(shift(local, byCopies: copy), upper: upper)
    }

    func map(_ group: Group, fromCopy copy: Int) -> Group {
        var mapped = group
        mapped.key = toScene(group.key, fromCopy: copy, upper: group.keyIsEnd)
        mapped.secondKey = toScene(group.secondKey, fromCopy: copy, upper: false)
        return mapped
    }

    func merge(_ inner: Resolution, fromCopy copy: Int, into resolution: inout Resolution) {
        if let active = inner.active { resolution.offerActive(map(active, fromCopy: copy)) }
        if let finished = inner.finished { resolution.offerFinished(map(finished, fromCopy: copy)) }
        if let upcoming = inner.upcoming { resolution.offerUpcoming(map(upcoming, fromCopy: copy)) }
    }
}

/// Winners so far of one category, with their distinct values.
struct Group {
    /// Start (active, upcoming) or end (finished).
    var key: Instant
    /// The start, for finished groups (ties on the end go to the latest start).
    var secondKey: Instant
    var keyIsEnd: Bool
    var values: DistinctValues

    init(_ key: Instant, _ secondKey: Instant, _ value: Value, keyIsEnd: Bool = false) {
        self.key = key
        self.secondKey = secondKey
        self.keyIsEnd = keyIsEnd
        values = DistinctValues(value)
    }

    /// Keeps the better of two groups (latest or earliest keys), uniting ties.
    static func merge(_ group: inout Group?, _ candidate: Group, keepLatest: Bool) {
        guard let current = group else {
            group = candidate
            return
        }
        let order = compare(candidate, current)
        if order == 0 {
            group?.values.formUnion(candidate.values)
        } else if (order > 0) == keepLatest {
            group = candidate
        }
    }

    private static func compare(_ a: Group, _ b: Group) -> Int {
        if a.key < b.key { return -1 }
        if b.key < a.key { return 1 }
        if a.secondKey < b.secondKey { return -1 }
        if b.secondKey < a.secondKey { return 1 }
        return 0
    }
}

/// The three categories of candidates for one property at one time.
struct Resolution {
    var active: Group?
    var finished: Group?
    var upcoming: Group?

    @inline(__always)
    mutating func offerActive(start: Instant, value: Value) {
        if let key = active?.key {
            if key == start {
                // Mutate in place: a copy of the group would copy its values too.
                active?.values.insert(value)
                return
            }
            if start < key { return }
        }
        active = Group(start, start, value)
    }

    mutating func offerActive(_ group: Group) {
        Group.merge(&active, group, keepLatest: true)
    }

    mutating func offerFinished(end: Instant, start: Instant, value: Value) {
        Group.merge(&finished, Group(end, start, value, keyIsEnd: true), keepLatest: true)
    }

    mutating func offerFinished(_ group: Group) {
        Group.merge(&finished, group, keepLatest: true)
    }

    mutating func offerUpcoming(_ group: Group) {
        Group.merge(&upcoming, group, keepLatest: false)
    }

    /// The property's value by the rule, where `before` is what it shows
    /// before anything starts (its declared initial value, else the start
    /// value of its earliest segments: rule 3).
    func value(before: Value) -> Value {
        active?.values.mean ?? finished?.values.mean ?? before
    }

    /// The property's value by the rule, or `nil` when nothing speaks for it.
    func value(initial: Value?) -> Value? {
        if let active { return active.values.mean }
        if let finished { return finished.values.mean }
        if let initial { return initial }
        return upcoming?.values.mean
    }
}

extension CompiledScene {
    /// The largest magnitude among the numbers `property`'s segments go
    /// between (symbolic repetitions included): the scale of its column. 0
    /// for a colour property or one no segment animates. (An overshooting
    /// easing may pass it a little.)
    public func magnitude(of property: Property) -> Double {
        track(for: property)?.magnitude ?? 0
    }
}

extension Track {
    var magnitude: Double {
        var largest = 0.0
        for index in 0..<count {
            let segment = storage[index]
            largest = max(largest, segment.from.magnitude, segment.to.magnitude)
        }
        for reference in blocks { largest = max(largest, reference.track.magnitude) }
        return largest
    }
}
