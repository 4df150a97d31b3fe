/// Two or more segments on one property that win together by the sampling
/// rule (docs/semantics.md §4: the same latest start while they play, the same end
/// and start once they hold) with values that disagree, so the property
/// shows their mean. The rule is what keeps `||` idempotent (`a || a` ties
/// with itself and shows `a`), but distinct tweens tying is rarely what a
/// writer meant: `animate a.x from 0 to 100 || animate a.x from 0 to -100`
/// holds 0 throughout.
///
/// ```swift
/// for tie in try scene.compile()?.ties() ?? [] {
///     print("\(tie.property) averages \(tie.segments.count) tweens from \(tie.start) to \(tie.end)")
/// }
/// ```
public struct Tie: Sendable {
    public let property: Property
    /// The first stretch of time where the tie shows, in scene time: an open
    /// interval between breakpoints, joined with the ones after it that tie too.
    public let start: Instant
    public let end: Instant
    /// An instant inside the stretch where ``segments`` win together.
    public let at: Instant
    /// Whether the tied segments play there (else they hold their ends,
    /// as jumps at one instant do).
    public let isPlaying: Bool
    /// The tied segments, in the order the track keeps them, as the scene
    /// lists them (for a tie inside a symbolic repetition, as its body lists
    /// them, in the body's time); empty when they cannot be told apart (a
    /// listed segment ties with a copy of a repetition).
    public let segments: [Segment]
}

extension CompiledScene {
    /// The first tie on each property that has one, in property order.
    ///
    /// A tie is sought in every stretch between breakpoints (each segment's
    /// start and end, each repetition's window), sampled at a quarter, half
    /// and three quarters of it; inside a symbolic repetition, in its body
    /// (placed as its first copy). Ties among values that only differ by
    /// rounding, and ties before anything starts (a declared initial value
    /// may hide them, and they always show again once the segments play),
    /// are left out. Costs `O(n log n)` per property of `n` segments.
    public func ties() -> [Tie] {
        var ties: [Tie] = []
        for (property, track) in zip(properties, tracks) {
            if let tie = track.firstTie(from: Instant(.zero), to: Instant(duration), property: property) { ties.append(tie) }
        }
        return ties
    }
}

extension Track {
    /// The earliest tie in `(lower, upper)`, or in a repetition's body.
    func firstTie(from lower: Instant, to upper: Instant, property: Property) -> Tie? {
        // (A track with segments cut by `played` ranks them by earlier starts: no tie is looked for there.)
        var best = ranked ? nil : listedTie(from: lower, to: upper, property: property)
        for reference in blocks {
            let body = reference.block.body.duration
            guard let inner = reference.track.firstTie(from: Instant(.zero), to: Instant(body), property: property) else { continue }
            let start = reference.block.toScene(inner.start, fromCopy: 0, upper: false)
            // A stretch of the listed timeline that ties inside the block's
            // window starts with the window: the body says where, exactly.
            if let found = best, found.start < start || (found.start == start && !found.segments.isEmpty) { continue }
            best = Tie(property: property, start: start, end: reference.block.toScene(inner.end, fromCopy: 0, upper: true),
                       at: reference.block.toScene(inner.at, fromCopy: 0, upper: false), isPlaying: inner.isPlaying,
                       segments: inner.segments)
        }
        return best
    }

    private func listedTie(from lower: Instant, to upper: Instant, property: Property) -> Tie? {
        // Winners share a start (and an end, once finished): with no two
        // listed segments starting together and no repetition, none tie.
        // (Index loops rather than `zip(xs, xs.dropFirst())`: that generic type is instantiated at
        // run time on first use, in every `animc eval`'s start-up.)
        var startsTogether = false
        for index in 1..<max(starts.count, 1) where starts[index - 1] == starts[index] {
            startsTogether = true
            break
        }
        guard !blocks.isEmpty || startsTogether else { return nil }
        var breakpoints: [Instant] = [lower, upper]
        for index in 0..<count {
            breakpoints.append(starts[index])
            breakpoints.append(ends[index])
        }
        for reference in blocks {
            breakpoints.append(reference.block.start)
            breakpoints.append(reference.block.end)
        }
        breakpoints.sort()
        var unique: [Instant] = []
        for point in breakpoints where lower <= point && point <= upper && point.seconds.isFinite {
            if let last = unique.last, last == point { continue }
            unique.append(point)
        }
        // Where a listed jump lies: there a tween starting at its instant ties
        // with it at that instant only (just after it the jump is over).
        var jumps = Set<Instant>()
        for index in 0..<count where starts[index] == ends[index] { jumps.insert(starts[index]) }
        var found: (start: Instant, end: Instant, playing: Bool, at: Instant)?
        for index in 1..<max(unique.count, 1) {
            let start = unique[index - 1], end = unique[index]
            let tie = tieInside(start, end)
            if var current = found {
                // Join the stretches after the first that tie the same way.
                guard let tie, tie.playing == current.playing else { break }
                current.end = end
                found = current
            } else if let tie {
                found = (start, end, tie.playing, tie.at)
            } else if jumps.contains(start), let playing = tieAt(start) {
                found = (start, start, playing, start)
                break
            }
        }
        guard let found else { return nil }
        return Tie(property: property, start: found.start, end: found.end, at: found.at, isPlaying: found.playing,
                   segments: winners(at: found.at, playing: found.playing))
    }

    /// Where a stretch is probed for a tie: a quarter, half and three quarters of the way.
    static let tieProbes = [(1, 4), (1, 2), (3, 4)].compactMap { Time(numerator: $0, denominator: $1) }

    /// Whether the rule ties inside `(start, end)`, and where it was seen.
    private func tieInside(_ start: Instant, _ end: Instant) -> (playing: Bool, at: Instant)? {
        for fraction in Track.tieProbes {
            let t = start.toward(end, fraction)
            if let playing = tieAt(t) { return (playing, t) }
        }
        return nil
    }

    /// Whether the rule ties at `t` (the winners' values disagree): `true`
    /// when the tied segments play there, `false` when they hold their ends.
    private func tieAt(_ t: Instant) -> Bool? {
        var resolution = Resolution()
        resolve(at: t, into: &resolution)
        if let active = resolution.active {
            return active.values.disagree ? true : nil
        }
        if let finished = resolution.finished, finished.values.disagree { return false }
        return nil
    }

    /// The listed segments that win at `t` by the rule, playing or holding
    /// their ends as the tie found them; empty when the listed winners
    /// are not the tie's (a copy of a repetition takes part).
    private func winners(at t: Instant, playing: Bool) -> [Segment] {
        guard let winners = winners(at: t), winners.category == (playing ? .active : .finished) else { return [] }
        let chosen = segments(winners)
        return chosen.count > 1 ? chosen : []
    }
}
