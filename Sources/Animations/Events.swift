/// What a table row reports of the events that fired since the row before:
/// a name, how many times it fired in the interval, and when it first did.
public struct EventFiring: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// How many times (at distinct instants) it fired in the interval (saturating).
    public let count: Int
    /// Its first firing in the interval.
    public let first: Instant
    /// The first firing's place among the events of its instant (``PlacedEvent/rank``).
    var rank = 0

    /// `name` fired `count` times in an interval, first at `first` (a player
    /// that sums the firings of several intervals makes them).
    public init(name: String, count: Int, first: Instant) {
        self.init(name: name, count: count, first: first, rank: 0)
    }

    init(name: String, count: Int, first: Instant, rank: Int) {
        self.name = name
        self.count = count
        self.first = first
        self.rank = rank
    }

    /// `tick×3` (or `land` for one firing).
    public var description: String { count >= 2 ? "\(name)×\(count)" : name }
}

extension CompiledScene {
    /// The events that fire in `(after, through]` (`after == nil`: at or
    /// before `through`), each name once with how many times it fired there,
    /// in the order of its first firing in the interval (at one instant, in
    /// the order they fire: sequence order, ties by name).
    /// Repetitions kept symbolic are counted by arithmetic, so an interval
    /// spanning a billion copies costs no more than one spanning two. (Events
    /// of a symbolic repetition nested inside another one's copy are not
    /// counted: a repetition of repetitions of events that large.)
    ///
    /// ```swift
    /// compiled.events(after: Instant(Time(1)), through: Instant(Time(2)))   // [tick×3, land]
    /// ```
    public func events(after: Instant?, through: Instant) -> [EventFiring] {
        guard hasEvents else { return [] }
        var tally = EventTally()
        collectEvents(after: after, through: through, into: &tally) { $0 }
        return tally.firings
    }

    /// Whether any event lies in the scene (listed, or in a symbolic repetition).
    public var hasEvents: Bool {
        !events.isEmpty || blocks.contains { $0.body.hasEvents }
    }

    /// Adds the firings in `(after, through]` (times in this scene's own
    /// clock) to `tally`, each first firing mapped by `toScene` to the
    /// outermost scene's clock.
    ///
    /// `rankBase` is where the ranks of the events at this scene's start
    /// begin in the outer scene (a block's copy starts after what precedes it).
    func collectEvents(after: Instant?, through: Instant, into tally: inout EventTally, rankBase: Int = 0,
                       toScene: @escaping (Instant) -> Instant) {
        guard hasEvents else { return }
        // Listed events: (after, through] by binary search on the sorted list.
        var low = 0, high = events.count
        if let after {
            while low < high {
                let mid = (low + high) / 2
                if events[mid].time <= after { low = mid + 1 } else { high = mid }
            }
        }
        var index = low
        while index < events.count, events[index].time <= through {
            let event = events[index]
            tally.add(event.name, at: toScene(event.time), rank: (event.time == Instant(.zero)) ? rankBase.addingSaturating(event.rank) : event.rank)
            index += 1
        }
        for block in blocks where block.body.hasEvents {
            block.collectEvents(after: after, through: through, into: &tally, rankBase: block.start == Instant(.zero) ? rankBase : 0,
                                toScene: toScene)
        }
    }

    /// The names of the events that fire exactly at `t` (this scene's clock).
    func names(firingAt t: Instant) -> Set<String> {
        var names = Set<String>()
        for event in events where event.time == t { names.insert(event.name) }
        for block in blocks where block.body.hasEvents && !(t < block.start) && !(block.end < t) {
            let local = block.path.forward(t)
            for (copy, offset) in block.copies(at: local) {
                _ = copy
                names.formUnion(block.body.names(firingAt: offset))
            }
        }
        return names
    }
}

/// Firings gathered for one interval: the instants visited one by one (a
/// set, so two sources firing one name at one instant make one event, as
/// Σ is a set), plus the firings of whole copies counted by arithmetic.
struct EventTally {
    private var byName: [String: (instants: Set<Instant>, counted: Int, first: Instant, rank: Int)] = [:]

    /// One firing of `name` at `time`, `rank` among its instant's events.
    mutating func add(_ name: String, at time: Instant, rank: Int) {
        if var known = byName[name] {
            known.instants.insert(time)
            (known.first, known.rank) = EventTally.placing(time, rank, known.first, known.rank)
            byName[name] = known
        } else {
            byName[name] = ([time], 0, time, rank)
        }
    }

    /// `count` firings of `name` counted by arithmetic, the first at `time`.
    mutating func add(_ name: String, count: Int, from time: Instant, rank: Int) {
        guard count > 0 else { return }
        if var known = byName[name] {
            known.counted = known.counted.addingSaturating(count)
            (known.first, known.rank) = EventTally.placing(time, rank, known.first, known.rank)
            byName[name] = known
        } else {
            byName[name] = ([], count, time, rank)
        }
    }

    /// Where a name that fires at `(time, rank)` and at `(known, knownRank)` is
    /// listed: at its earliest instant; at one instant, where it is one event
    /// (Σ is a set) that several parts fire, after everything that fires before
    /// it in any of them, so its latest rank there. (The earliest rank would
    /// break right distributivity: `(one || emit tick) ; emit land` is
    /// `tick land`, and so must `(one ; emit land) || (emit tick ; emit land)` be.)
    static func placing(_ time: Instant, _ rank: Int, _ known: Instant, _ knownRank: Int) -> (Instant, Int) {
        if time != known { return time < known ? (time, rank) : (known, knownRank) }
        return (time, max(rank, knownRank))
    }

    /// Takes back firings counted twice by arithmetic (where one copy ends
    /// and the next starts).
    mutating func remove(_ name: String, count: Int) {
        guard count > 0, var known = byName[name], known.counted != Int.max else { return }
        known.counted = max(0, known.counted - count)
        byName[name] = known
    }

    var firings: [EventFiring] {
        byName.map {
            EventFiring(name: $0.key, count: $0.value.counted.addingSaturating($0.value.instants.count), first: $0.value.first,
                        rank: $0.value.rank)
        }
        .sorted { ($0.first, $0.rank) != ($1.first, $1.rank) ? ($0.first, $0.rank) < ($1.first, $1.rank) : $0.name < $1.name }
    }
}

extension RepetitionBlock {
    /// How many firings of whole copies one interval visits one by one;
    /// beyond this they are counted by arithmetic. (Counted firings are not
    /// compared with those of other repetitions: two repetitions of one
    /// name that meet at an instant, in an interval spanning more than this
    /// many firings, count that instant twice.)
    static let eventVisitLimit = 4096

    /// Counts the copies' events in `(after, through]` (the parent's clock):
    /// the copies the interval cuts are visited (at most two: the first and
    /// the last), and the whole copies between them are counted by
    /// arithmetic from one copy's totals, so an interval spanning a billion
    /// copies, or copies of copies, costs no more than one spanning two.
    /// Copies meet at instants (one's end is the next one's start): an event
    /// firing at both is one event there, as Σ is a set.
    func collectEvents(after: Instant?, through: Instant, into tally: inout EventTally, rankBase: Int,
                       toScene: @escaping (Instant) -> Instant) {
        if let after, !(after < end) { return }
        if through < start { return }
        let parent = { (local: Instant) in toScene(self.path.backward(local, upper: false)) }
        // The interval in the block's own time; the map is increasing.
        let lower: Instant? = after.flatMap { $0 < start ? nil : path.forward($0) }
        let whole = isEndless ? nil : (try? period.multiplied(by: Int64(count))).map { Instant($0) }
        let upper: Instant? = through < end ? path.forward(through) : whole
        guard period.isPositive else {
            // Every copy in one instant: one copy's events.
            body.collectEvents(after: lower, through: upper ?? Instant(.zero), into: &tally, rankBase: rank(ofCopy: 0, rankBase),
                               toScene: parent)
            return
        }
        guard let upper else { return }
        let lastCopy = isEndless ? Int.max - 1 : count - 1
        let first = lower.map { copy(containing: $0) ?? lastCopy } ?? 0
        let last = copy(containing: upper) ?? lastCopy
        guard first <= last else { return }
        let end = Instant(period)
        func shifted(_ copy: Int) -> (Instant) -> Instant {
            { local in parent(self.shift(local, byCopies: copy)) }
        }
        if first == last {
            body.collectEvents(after: lower.map { shift($0, byCopies: -first) }, through: min(shift(upper, byCopies: -last), end),
                               into: &tally, rankBase: rank(ofCopy: first, rankBase), toScene: shifted(first))
            return
        }
        body.collectEvents(after: lower.map { shift($0, byCopies: -first) }, through: end, into: &tally,
                           rankBase: rank(ofCopy: first, rankBase), toScene: shifted(first))
        let between = last - first - 1
        let totals = between > 0 ? copyTotals : []
        if between > 0, totals.reduce(0, { $0.addingSaturating($1.count) }).multipliedSaturating(between) <= RepetitionBlock.eventVisitLimit {
            // Few enough to visit: every instant goes into the set.
            for copy in (first + 1)..<last {
                body.collectEvents(after: nil, through: end, into: &tally, rankBase: rank(ofCopy: copy, rankBase), toScene: shifted(copy))
            }
        } else if between > 0 {
            for firing in totals {
                tally.add(firing.name, count: firing.count.multipliedSaturating(between), from: shifted(first + 1)(firing.first),
                          rank: firing.first == Instant(.zero) ? rank(ofCopy: first + 1, rankBase).addingSaturating(firing.rank) : firing.rank)
            }
            for name in boundaryNames {
                tally.remove(name, count: last - first)
            }
        }
        body.collectEvents(after: nil, through: min(shift(upper, byCopies: -last), end), into: &tally,
                           rankBase: rank(ofCopy: last, rankBase), toScene: shifted(last))
    }

    /// Where the ranks of the events at the start of copy `copy` begin: the
    /// block's own place for the first copy (after `rankBase` when the block
    /// starts with its scene), after the copy before for the others, as the
    /// listed copies of ``descend(_:_:into:)`` rank them.
    func rank(ofCopy copy: Int, _ rankBase: Int) -> Int {
        guard copy > 0 else { return start == Instant(.zero) ? rankBase.addingSaturating(path.firing.rank) : path.firing.rank }
        return period.isZero ? path.firing.rank.addingSaturating(leaves.multipliedSaturating(copy)) : copyRank
    }

    /// One copy's firings over `[0, period]`.
    var copyTotals: [EventFiring] {
        var tally = EventTally()
        body.collectEvents(after: nil, through: Instant(period), into: &tally) { $0 }
        return tally.firings
    }

    /// The names that fire both where a copy starts and where it ends: where
    /// two copies meet, one event, not two.
    var boundaryNames: Set<String> {
        body.names(firingAt: Instant(.zero)).intersection(body.names(firingAt: Instant(period)))
    }

    /// The copies that hold block time `local` and the offset into each: one,
    /// or two where one copy ends and the next starts.
    func copies(at local: Instant) -> [(Int, Instant)] {
        guard period.isPositive else { return [(0, local)] }
        let lastCopy = isEndless ? Int.max - 1 : count - 1
        let copy = self.copy(containing: local) ?? lastCopy
        var result = [(copy, shift(local, byCopies: -copy))]
        let offset = result[0].1
        if copy > 0, offset.exact == .zero || (offset.exact == nil && offset.seconds == 0) {
            result.append((copy - 1, Instant(period)))
        }
        return result
    }
}

extension CompiledScene {
    /// Every firing, listed one by one (repetitions expanded), in firing
    /// order (time, then ``PlacedEvent/rank``, then name), one per name and instant; `nil` when there are more
    /// than `limit` or the scene repeats forever. For exporters, which
    /// write each event down.
    public func allEvents(limit: Int = 100_000) -> [PlacedEvent]? {
        var found: [PlacedEvent] = []
        guard collectAll(into: &found, limit: limit, toScene: { $0 }) else { return nil }
        return PlacedEvent.inFiringOrder(found)
    }

    private func collectAll(into found: inout [PlacedEvent], limit: Int, toScene: (Instant) -> Instant) -> Bool {
        for event in events {
            found.append(PlacedEvent(name: event.name, time: toScene(event.time), rank: event.rank))
            if found.count > limit { return false }
        }
        for block in blocks where block.body.hasEvents {
            guard !block.isEndless else { return false }
            let copies = block.period.isPositive ? block.count : 1
            for copy in 0..<copies {
                let placed = block.body.collectAll(into: &found, limit: limit) { local in
                    toScene(block.path.backward(block.shift(local, byCopies: copy), upper: false))
                }
                guard placed else { return false }
            }
        }
        return true
    }
}
