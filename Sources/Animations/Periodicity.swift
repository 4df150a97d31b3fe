/// How a property of a scene that repeats forever goes on: from ``start`` on,
/// what it does over `[start, start + period]` it does again every ``period``.
///
/// ```swift
/// // fadeIn s in 0.5s ; rotate s from 0 to 360 in 1.5s repeated forever
/// state.cycles[rotation]   // Cycle(start: 0.5, period: 1.5)
/// ```
public struct Cycle: Hashable, Sendable {
    public let start: Time
    public let period: Time

    public init(start: Time, period: Time) {
        self.start = start
        self.period = period
    }
}

/// A scene that repeats forever, as an exporter plays it: a finite prefix,
/// then, for each property an endless repetition drives, one period again and
/// again (a CSS animation with `infinite` iterations, a looping Lottie file).
/// Built by ``CompiledScene/steadyState(initial:)``.
public struct SteadyState: Sendable {
    /// The scene over `[0, horizon]` with its endless repetitions unrolled
    /// (``CompiledScene/unrolled(through:)``): cut pieces, sample and list
    /// events here. Its duration reaches past every cycle's second period.
    public let unrolled: CompiledScene
    /// Every property that an endless repetition drives, and where and how
    /// it repeats. The other properties change only before ``settled``.
    public let cycles: [Property: Cycle]
    /// How the events repeat, when an endless repetition has some: those
    /// after `start` are the ones in `(start, start + period]`, again every
    /// `period`; those at or before `start` fire once.
    public let eventCycle: Cycle?
    /// Where every property and the events have settled into their cycles
    /// (and every finite part has ended).
    public let settled: Time
    /// The longest period of a property or of the events (`nil` for a finite scene).
    public let longestPeriod: Time?
}

/// Why a scene that repeats forever has no ``SteadyState``.
public enum SteadyStateProblem: Error, Hashable, Sendable {
    /// Endless repetitions of different periods drive one property.
    case mixedPeriods(Property, [Time])
    /// Endless repetitions with events have periods whose common multiple
    /// does not fit in exact time.
    case eventPeriods([Time])
    /// The property (or, for `nil`, the scene's exact time) does not settle
    /// into one period: a warp shapes its repetition's clock, exact time
    /// overflows, or ties between copies never resolve.
    case unsettled(Property?)
}

extension CompiledScene {
    /// How this scene settles into repetition (see ``SteadyState``); a finite
    /// scene is all prefix (no cycles, itself as ``SteadyState/unrolled``).
    ///
    /// A property `p` driven by endless repetitions of one period `P`
    /// repeats from the first copy boundary at or after the end of its last
    /// finite segment (after it, only copies move `p`) or from the boundary
    /// after that one (where the previous copy's value, rather than a finite
    /// segment's, is what shows between copies), whichever the unrolled
    /// timeline confirms (``repeatsOnce(_:initial:from:period:)`` on that
    /// period and the next); then from each period earlier that it also
    /// confirms. Events of endless repetitions repeat with the least common
    /// multiple of their periods, once every finite event has fired and
    /// every such repetition has started.
    ///
    /// `modulo` lists properties whose numbers look alike a whole multiple
    /// apart (an exporter's rotation, 360°): each copy of `rotate s by 1
    /// turns` repeats the one before it there, so it settles too.
    public func steadyState(initial: [Property: Value] = [:], modulo: [Property: Double] = [:]) throws(SteadyStateProblem) -> SteadyState {
        guard isInfinite else {
            return SteadyState(unrolled: self, cycles: [:], eventCycle: nil, settled: duration, longestPeriod: nil)
        }
        // Candidates from the endless blocks and the finite parts.
        var candidates: [(property: Property, start: Time, period: Time)] = []
        for (index, property) in properties.enumerated() {
            let track = tracks[index]
            let endless = track.blocks.filter(\.block.isEndless)
            guard !endless.isEmpty else { continue }
            var periods: [Time] = []
            var latestStart = Time.zero
            for reference in endless {
                guard let period = reference.block.scenePeriod, period.isPositive,
                      let start = reference.block.start.exact else { throw .unsettled(property) }
                if !periods.contains(period) { periods.append(period) }
                latestStart = max(latestStart, start)
            }
            guard periods.count == 1, let period = periods.first else { throw .mixedPeriods(property, periods.sorted()) }
            var finiteEnd: Instant?
            for end in track.ends where finiteEnd.map({ $0 < end }) ?? true { finiteEnd = end }
            for reference in track.blocks where !reference.block.isEndless && finiteEnd.map({ $0 < reference.block.end }) ?? true {
                finiteEnd = reference.block.end
            }
            var start = latestStart
            if let finiteEnd, Instant(latestStart) < finiteEnd {
                guard let end = timeAtOrAfter(finiteEnd), let span = try? end.subtracting(latestStart) else { throw .unsettled(property) }
                // ⌈span / period⌉ periods after the latest endless start.
                guard let whole = Int64(exactly: span.floorQuotient(dividingBy: period)), whole < Int64.max,
                      let covered = try? period.multiplied(by: whole),
                      let offset = covered == span ? covered : try? period.multiplied(by: whole + 1),
                      let moved = try? latestStart.adding(offset) else { throw .unsettled(property) }
                start = moved
            }
            candidates.append((property, start, period))
        }
        // The events: once every finite one has fired and every endless repetition of them has started.
        var eventCycle: Cycle?
        let eventBlocks = blocks.filter { $0.isEndless && $0.body.hasEvents }
        if !eventBlocks.isEmpty {
            var periods: [Time] = []
            var start = Time.zero
            for block in eventBlocks {
                guard let period = block.scenePeriod, period.isPositive, let blockStart = block.start.exact else { throw .unsettled(nil) }
                if !periods.contains(period) { periods.append(period) }
                start = max(start, blockStart)
            }
            var finite: [Instant] = events.map(\.time)
            for block in blocks where !block.isEndless && block.body.hasEvents { finite.append(block.end) }
            for instant in finite {
                guard let time = timeAtOrAfter(instant) else { throw .unsettled(nil) }
                start = max(start, time)
            }
            guard let common = Time.commonMultiple(of: periods) else { throw .eventPeriods(periods.sorted()) }
            eventCycle = Cycle(start: start, period: common)
        }
        // Unroll far enough to confirm each candidate on two periods, or the next one on two more.
        var horizon = duration
        var longest: Time?
        do {
            for candidate in candidates {
                let reach = try candidate.start.adding(try candidate.period.multiplied(by: 4))
                horizon = max(horizon, reach)
                longest = max(longest ?? candidate.period, candidate.period)
            }
            if let eventCycle {
                horizon = max(horizon, try eventCycle.start.adding(eventCycle.period))
                longest = max(longest ?? eventCycle.period, eventCycle.period)
            }
            horizon = try horizon.adding(longest ?? .zero)
        } catch {
            throw .unsettled(nil)
        }
        let unrolled: CompiledScene
        do {
            unrolled = try self.unrolled(through: horizon)
        } catch {
            throw .unsettled(nil)
        }
        var cycles: [Property: Cycle] = [:]
        var settled = max(duration, eventCycle?.start ?? .zero)
        for candidate in candidates {
            let (property, first, period) = candidate
            let start = initial[property]
            func confirmed(_ t: Time) -> Bool {
                unrolled.repeatsOnce(property, initial: start, from: t, period: period, modulo: modulo[property])
            }
            guard let second = try? first.adding(period), let third = try? second.adding(period) else { throw .unsettled(property) }
            var from: Time
            if confirmed(first) && confirmed(second) {
                from = first
            } else if confirmed(second) && confirmed(third) {
                from = second
            } else {
                throw .unsettled(property)
            }
            // Earlier periods that do the same (a finite segment that a copy repeats exactly).
            for _ in 0..<8 {
                guard let earlier = try? from.subtracting(period), !earlier.isNegative, confirmed(earlier) else { break }
                from = earlier
            }
            cycles[property] = Cycle(start: from, period: period)
            settled = max(settled, from)
        }
        return SteadyState(unrolled: unrolled, cycles: cycles, eventCycle: eventCycle, settled: settled, longestPeriod: longest)
    }

    /// Whether `property` does over `[start + period, start + 2·period]` what
    /// it does over `[start, start + period]`: the same pieces, shifted
    /// (holds of one value, one segment's rule; pieces only sampling
    /// describes are compared at 15 points inside), and the same value at
    /// every breakpoint, both window ends included. Values agree to 1e-9
    /// relative (they come from the same segments, shifted). With `modulo`,
    /// numbers agree when they differ by a whole multiple of it (and a
    /// tween's two copies travel alike).
    public func repeatsOnce(_ property: Property, initial: Value? = nil, from start: Time, period: Time, modulo: Double? = nil) -> Bool {
        guard period.isPositive, let middle = try? start.adding(period), let end = try? middle.adding(period) else { return false }
        let first = pieces(of: property, initial: initial, from: Instant(start), to: Instant(middle))
        let second = pieces(of: property, initial: initial, from: Instant(middle), to: Instant(end))
        guard first.count == second.count else { return false }
        func later(_ t: Instant) -> Instant { t.shifted(by: period, times: 1) }
        func same(_ a: Instant, _ b: Instant) -> Bool {
            if a.exact != nil && b.exact != nil { return a == b }
            return abs(a.seconds - b.seconds) <= 1e-9 * max(1, abs(a.seconds))
        }
        func valueAt(_ t: Instant) -> Value? { value(of: property, at: t, initial: initial) }
        func alike(_ x: Value?, _ y: Value?) -> Bool {
            guard let modulo, modulo > 0, case .number(let u)? = x, case .number(let v)? = y else { return closeValues(x, y) }
            let turns = (v - u) / modulo
            return abs(turns - turns.rounded()) <= 1e-9 * max(1, abs(turns))
        }
        for (a, b) in zip(first, second) {
            guard same(later(a.start), b.start), same(later(a.end), b.end),
                  alike(valueAt(a.start), valueAt(b.start)) else { return false }
            switch (a.rule, b.rule) {
            case (.hold(let x), .hold(let y)):
                guard alike(x, y) else { return false }
            case (.tween(let from1, let to1, let easing1, let p01, let p11), .tween(let from2, let to2, let easing2, let p02, let p12)):
                guard alike(from1, from2), alike(to1, to2), easing1 == easing2,
                      abs(p01 - p02) <= 1e-12, abs(p11 - p12) <= 1e-12 else { return false }
                if modulo != nil, case .number(let f1) = from1, case .number(let t1) = to1, case .number(let f2) = from2,
                   case .number(let t2) = to2, !closeValues(.number(t1 - f1), .number(t2 - f2)) { return false }
            case (.sampled, .sampled):
                for step in 1..<16 {
                    let t = a.start.toward(a.end, Time(numerator: Int64(step), denominator: 16) ?? .zero)
                    guard alike(valueAt(t), valueAt(later(t))) else { return false }
                }
            case (.hold, _), (.tween, _), (.sampled, _):
                return false
            }
        }
        return alike(valueAt(Instant(middle)), valueAt(Instant(end)))
    }
}

/// An exact time at or after `instant`: the instant itself when exact, else
/// the next thousandth of a second past it.
private func timeAtOrAfter(_ instant: Instant) -> Time? {
    if let exact = instant.exact { return exact }
    let thousandths = (instant.seconds * 1000).rounded(.up) + 1
    guard thousandths.isFinite, abs(thousandths) < 9e15 else { return nil }
    return Time(numerator: Int64(thousandths), denominator: 1000)
}

/// Equal but for rounding (``Value/isClose(to:tolerance:)``), or both missing.
private func closeValues(_ a: Value?, _ b: Value?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return a.isClose(to: b)
}

extension Time {
    /// The least positive time that is a whole multiple of every one of
    /// `times` (all positive): `commonMultiple(of: [1.5, 1]) == 3`. `nil`
    /// for an empty list, a time that is not positive, or when it does not
    /// fit in exact time.
    public static func commonMultiple(of times: [Time]) -> Time? {
        guard var result = times.first, result.isPositive else { return nil }
        for time in times.dropFirst() {
            guard time.isPositive else { return nil }
            // For fractions in lowest terms: lcm(a/b, c/d) = lcm(a, c) / gcd(b, d).
            let a = UInt128(result.numerator), c = UInt128(time.numerator)
            let numerator = a / gcd(a, c) * c
            let denominator = gcd(UInt128(result.denominator), UInt128(time.denominator))
            guard numerator <= UInt128(Int64.max), let next = Time.reduced(Int128(numerator), Int128(denominator)) else { return nil }
            result = next
        }
        return result
    }
}
