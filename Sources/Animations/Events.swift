/// What a table row reports of the events that fired since the row before:
/// a name, how many times it fired in the interval, and when it first did.
public struct EventFiring: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// How many times (at distinct instants) it fired in the interval (saturating).
    public let count: Int
    /// Its first firing in the interval.
    public let first: Instant

    /// `tick×3` (or `land` for one firing).
    public var description: String { count >= 2 ? "\(name)×\(count)" : name }
}

extension CompiledScene {
    /// The events that fire in `(after, through]` (`after == nil`: at or
    /// before `through`), each name once with how many times it fired there,
    /// in the order of its first firing in the interval (ties by name).
    /// Repetitions kept symbolic are counted by arithmetic, so an interval
    /// spanning a billion copies costs no more than one spanning two. (Events
    /// of a symbolic repetition nested inside another one's copy are not
    /// counted: a repetition of repetitions of events that large.)
    ///
    /// ```swift
    /// compiled.events(after: Instant(Time(1)), through: Instant(Time(2)))   // [tick×3, land]
    /// ```
    public func events(after: Instant?, through: Instant) -> [EventFiring] {
        var tally = EventTally()
        collectEvents(after: after, through: through, into: &tally)
        return tally.firings
    }

    func collectEvents(after: Instant?, through: Instant, into tally: inout EventTally) {
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
            tally.add(events[index].name, count: 1, at: events[index].time)
            index += 1
        }
        for block in blocks where !block.body.events.isEmpty {
            block.collectEvents(after: after, through: through, into: &tally)
        }
    }
}

/// Firings gathered for one interval.
struct EventTally {
    private var byName: [String: (count: Int, first: Instant)] = [:]

    mutating func add(_ name: String, count: Int, at time: Instant) {
        guard count > 0 else { return }
        if let known = byName[name] {
            byName[name] = (known.count.addingSaturating(count), min(known.first, time))
        } else {
            byName[name] = (count, time)
        }
    }

    var firings: [EventFiring] {
        byName.map { EventFiring(name: $0.key, count: $0.value.count, first: $0.value.first) }
            .sorted { $0.first != $1.first ? $0.first < $1.first : $0.name < $1.name }
    }
}

extension RepetitionBlock {
    /// Counts the copies' events in `(after, through]`. A body event at
    /// offset `o` fires in copy `k` at the scene time the block's map gives
    /// `k·P + o`; copies whose instants coincide (an event at the end of one
    /// copy and at the start of the next) are one event, as Σ is a set.
    func collectEvents(after: Instant?, through: Instant, into tally: inout EventTally) {
        guard period.isPositive else { return }
        if let after, !(after < end) { return }
        if through < start { return }
        // The interval in the block's own time; the map is increasing.
        let lower: Instant? = after.map { $0 < start ? nil : path.forward($0) } ?? nil
        let upper = through < end ? path.forward(through) : nil
        // Each (name, offset mod P) is one arithmetic progression of copies.
        var progressions: [Progression: (low: Int, high: Int)] = [:]
        for event in body.events {
            var offset = event.time, shift = 0
            if let exact = offset.exact, exact == period {
                offset = Instant(.zero)
                shift = 1
            }
            let key = Progression(name: event.name, offset: offset)
            let range = (low: shift, high: isEndless ? Int.max : count - 1 + shift)
            if let known = progressions[key] {
                progressions[key] = (min(known.low, range.low), max(known.high, range.high))
            } else {
                progressions[key] = range
            }
        }
        for (key, range) in progressions {
            // Copies k with lower < k·P + o ≤ upper, within the range.
            var first = range.low, last = range.high
            if let lower { first = max(first, copiesAtOrBelow(lower, offset: key.offset)) }
            if let upper { last = min(last, copiesAtOrBelow(upper, offset: key.offset) - 1) }
            guard first <= last, first < Int.max else { continue }
            let count = last == Int.max ? Int.max : last - first + 1
            let local = localTime(copy: first, offset: key.offset)
            tally.add(key.name, count: count, at: path.backward(local, upper: false))
        }
    }

    private struct Progression: Hashable {
        let name: String
        let offset: Instant
    }

    /// The number of copies `k ≥ 0` with `k·P + offset ≤ u`, that is
    /// ⌊(u − offset) / P⌋ + 1 (0 when none), saturating.
    private func copiesAtOrBelow(_ u: Instant, offset: Instant) -> Int {
        if let exact = u.exact, let o = offset.exact, let difference = try? exact.subtracting(o) {
            if difference.isNegative { return 0 }
            let quotient = difference.floorQuotient(dividingBy: period)
            return quotient >= Int128(Int.max - 1) ? Int.max : Int(quotient) + 1
        }
        let quotient = ((u.seconds - offset.seconds) / period.seconds).rounded(.down)
        guard quotient >= 0 else { return 0 }
        return quotient < 9e18 ? Int(quotient) + 1 : Int.max
    }

    private func localTime(copy: Int, offset: Instant) -> Instant {
        if let o = offset.exact, let shift = try? period.multiplied(by: Int64(copy)), let sum = try? shift.adding(o) {
            return Instant(sum)
        }
        return Instant(approximately: period.seconds * Double(copy) + offset.seconds)
    }
}
