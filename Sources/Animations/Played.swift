// `x played from T1 to T2` (docs/semantics.md §8.5), as the compiler places it.
//
// The operand is compiled on its own (closed: its relative tweens resolve
// within it, from its declared or neutral values), then cut, once per
// `played` node, into the part's own frame `[0, T2 − T1]`:
//
// * each segment that runs inside `(T1, T2)` is kept, its window clipped to
//   `[T1, T2]` and its clock left whole (``Segment/Clip``), so it plays the
//   matching stretch of its eased progress and keeps as its rank the start
//   it had; jumps in `[T1, T2]` are kept; a positive segment that starts at
//   `T2` is not (nothing of it runs inside);
// * a symbolic repetition is cut by copies: the copies at either end of the
//   part are listed (and cut), the whole copies between them stay one
//   symbolic block, so `x repeated forever played to T2` costs as little as
//   `x ^ n` does, whatever `T2`;
// * a property that no kept segment shows at 0 as `x` shows it at `T1`, but
//   that `x` animates by `T1`, gets a jump at 0 to the value `x` shows there
//   (a tie's mean included). (Besides the case the note names, where no kept
//   segment runs at 0, this is also where the winner at `T1` is a segment
//   that ends exactly there, or ties with one: the part's first instant then
//   shows `x`'s value at `T1`, as the note's first rule says.)
// * events in `[T1, T2]` move by `−T1`.
//
// The part is then placed where the node lies, through its path, like any
// segment: a segment's clock is composed with the path (``Path/followed(by:)``),
// and so are the ranks, windows and blocks. Under a reversal the rank of a
// cut segment is the mirrored whole window's start (``Segment/Clip/rankEnd``
// mapped): `(x played from a to b) reversed = (x reversed) played from
// |x| − b to |x| − a`, rank for rank. `;`, `||`, `in` and `delayed by` map
// ranks as they map starts. Through a warp (`with E` on a composite), a rank
// that lies outside the warp's span keeps its distance from the span's end
// nearest it (the warp read as the identity there), so it still ranks before
// (after) whatever starts in the window, as in the state the warp reads.

extension Affine {
    /// `self` followed by `next`: `u ↦ next(self(u))`.
    func followed(by next: Affine) throws(AnimationError) -> Affine {
        Affine(scale: try next.scale.multiplied(by: scale),
               offset: try (try next.scale.multiplied(by: offset)).adding(next.offset))
    }
}

extension Path {
    /// The map from the scene into `inner`'s node through this path's node:
    /// `inner.forward(self.forward(t))`. A reversal met before a warp stage
    /// of `inner` is pushed inside it, as ``warped(by:span:)`` does.
    func followed(by inner: Path) throws(AnimationError) -> Path {
        if collapse != nil { return self }
        var result = Path()
        result.firing = firing
        var stages = self.stages
        var pending = affine
        for stage in inner.stages {
            let composite = try pending.followed(by: stage.entry)
            if composite.isIncreasing {
                stages.append(WarpStage(entry: composite, easing: stage.easing, span: stage.span))
                pending = .identity
            } else {
                stages.append(WarpStage(entry: try composite.mirrored(in: stage.span), easing: stage.easing.mirrored, span: stage.span))
                pending = try Affine.identity.mirrored(in: stage.span)
            }
        }
        result.stages = stages
        result.affine = try pending.followed(by: inner.affine)
        if let inner = inner.collapse {
            // Squeezed to an instant inside: that instant, seen from here.
            let point = placeInstant(at: inner.point)
            result.collapse = Collapse(point: point, forward: inner.forward == affine.isIncreasing)
        }
        return result
    }

    /// Where the node time `u` falls in the scene (an event's instant: through a
    /// warp, the least time the warp maps to it or past it).
    func placeInstant(at u: Instant) -> Instant {
        if let collapse { return collapse.point }
        let inner = affine.invert(u)
        return hasNoStages ? inner : backwardThroughStages(inner, upper: false, event: true)
    }

    /// Where the rank (a compared start) `u` of a cut segment falls in the
    /// scene: as an instant of a window, except that through a warp a rank
    /// outside the warp's span keeps its distance from it (see
    /// ``backwardThroughStages(_:upper:event:rank:)``).
    func rank(_ u: Instant) -> Instant {
        if let collapse { return collapse.point }
        let inner = affine.invert(u)
        return hasNoStages ? inner : backwardThroughStages(inner, upper: false, rank: true)
    }

    /// The scene's window of the node window `[a, b]` (`a ≤ b`), in order.
    func window(_ a: Instant, _ b: Instant) -> (Instant, Instant) {
        if let collapse { return (collapse.point, collapse.point) }
        var start = affine.invert(a), end = affine.invert(b)
        if !affine.isIncreasing { swap(&start, &end) }
        if !hasNoStages {
            start = backwardThroughStages(start, upper: false)
            end = backwardThroughStages(end, upper: true)
            if end < start { end = start }
        }
        return (start, end)
    }
}

extension Segment {
    /// The value while active of a segment cut by `played`: its whole clock's
    /// progress, eased; at its window's end, the value it holds there.
    func clippedValue(_ clip: Clip, at t: Instant) -> Value {
        if t == end { return clip.heldEnd }
        guard let warp else { return clip.heldStart }
        let progress = clockProgress(warp, at: t)
        let eased = isLinear ? clampUnit(progress) : easing(clampUnit(progress))
        return Value.interpolate(from: from, to: to, progress: eased)
    }

    /// The progress of `clock` at `t`: exact, rounded once, when the clock is an exact affine map.
    func clockProgress(_ clock: Clock, at t: Instant) -> Double {
        if clock.path.hasNoStages, clock.path.collapse == nil, !clock.length.isZero, let exact = t.exact,
           let u = try? clock.path.affine.scale.multiplied(by: exact), let local = try? u.adding(clock.path.affine.offset),
           let quotient = try? local.divided(by: clock.length) {
            return quotient.seconds
        }
        return clock.progress(at: t)
    }

    /// The map from this segment's frame into its tween's own time, and
    /// that time's length: its warp's clock, or the affine map of its plain
    /// window onto `[0, 1]`. `nil` for a jump, or a window not known exactly.
    private func ownClock() -> (Path, Time)? {
        if let warp { return (warp.path, warp.length) }
        guard start != end, let s = start.exact, let e = end.exact, let span = try? e.subtracting(s),
              let scale = try? Time.one.divided(by: span) else { return nil }
        var path = Path()
        if isForward {
            guard let offset = try? (try? s.multiplied(by: scale))?.negated() else { return nil }
            path.affine = Affine(scale: scale, offset: offset)
        } else {
            guard let negative = try? scale.negated(), let offset = try? e.multiplied(by: scale) else { return nil }
            path.affine = Affine(scale: negative, offset: offset)
        }
        return (path, .one)
    }

    /// This segment (in a node's frame) placed in the scene through `path`
    /// (the scene to that frame), cut to `clip` (in the node's frame) when
    /// given: `nil` when the cut keeps nothing of it (docs/semantics.md §8.5: a
    /// segment that runs inside the clip's interior, or a jump within it).
    func placed(through path: Path, clip: (Instant, Instant)? = nil) throws(AnimationError) -> Segment? {
        let isJump = start == end
        var (low, high) = (start, end)
        var cutStart = false, cutEnd = false
        if let (lower, upper) = clip {
            if isJump {
                guard !(start < lower), !(upper < start) else { return nil }
            } else {
                // (A part that lasts no time has no interior: no segment of positive length runs in it.)
                guard lower < upper, start < upper, lower < end else { return nil }
                if start < lower { low = lower; cutStart = true }
                if upper < end { high = upper; cutEnd = true }
            }
        }
        let increasing = path.collapse?.forward ?? path.affine.isIncreasing
        let forward = isForward == increasing
        // The values at the cut's ends, as the segment shows them there.
        let valueAtLow = cutStart ? activeValue(at: low) : startValue
        let valueAtHigh = cutEnd ? activeValue(at: high) : endValue
        if path.collapse != nil || isJump {
            // An instant: a jump from the value before to the value after, in the direction it plays.
            let (point, _) = path.window(low, high)
            let before = increasing ? valueAtLow : valueAtHigh, after = increasing ? valueAtHigh : valueAtLow
            let ends = forward ? Ends(before, after) : Ends(after, before)
            return Segment(source: source, ends: storedEnds, isLinear: isLinear, start: point, end: point, isForward: forward, warp: nil,
                           relative: .absolute)
        }
        let (windowStart, windowEnd) = path.window(low, high)
        let wasCut = cutStart || cutEnd || self.clip != nil
        if !wasCut, warp == nil, path.hasNoStages {
            return Segment(source: source, ends: storedEnds, isLinear: isLinear, start: windowStart, end: windowEnd, isForward: forward,
                           warp: nil, relative: .absolute)
        }
        guard let (own, length) = ownClock() else { return nil }
        let clock = Clock(path: try path.followed(by: own), length: length)
        guard wasCut else {
            return Segment(source: source, ends: storedEnds, isLinear: isLinear, start: windowStart, end: windowEnd, isForward: forward,
                           warp: clock, relative: .absolute)
        }
        let (wholeStart, wholeEnd) = (self.clip?.rank ?? start, self.clip?.rankEnd ?? end)
        let (rankLow, rankHigh) = (path.rank(wholeStart), path.rank(wholeEnd))
        let cut = Clip(rank: increasing ? rankLow : rankHigh, rankEnd: increasing ? rankHigh : rankLow,
                       heldStart: increasing ? valueAtLow : valueAtHigh, heldEnd: increasing ? valueAtHigh : valueAtLow)
        return Segment(source: source, ends: storedEnds, isLinear: isLinear, start: windowStart, end: windowEnd, isForward: forward,
                       warp: clock, relative: .absolute, clip: cut)
    }
}

/// What a `played` node contributes, in its own frame `[0, T2 − T1]` (see
/// the top of this file), before it is placed where the node lies.
final class PlayedPart {
    var segments: [Segment] = []
    var blocks: [RepetitionBlock] = []
    var events: [PlacedEvent] = []

    /// Cuts the compiled operand `scene` to `[start, end]`; `initial`: declared values.
    init(_ scene: CompiledScene, from start: Time, to end: Time, materializeLimit: Int) throws(AnimationError) {
        let shift = try Path.identity.shifted(by: try start.negated())
        try cut(scene, through: shift, clip: (Instant(start), Instant(end)), inputs: { _ in .none },
                materializeLimit: materializeLimit)
        try addJumps(scene, at: Instant(start), end: Instant(end))
        segments.sort { $0.start != $1.start ? $0.start < $1.start : $0.end < $1.end }
    }

    /// Lists what of `scene` (whose frame `path` maps the part's frame into)
    /// lies in `clip` (in the scene's frame), reading each property's
    /// drifting segments with `inputs`.
    private func cut(_ scene: CompiledScene, through path: Path, clip: (Instant, Instant)?,
                     inputs: (Property) -> TrackInput, materializeLimit: Int) throws(AnimationError) {
        for (index, property) in scene.properties.enumerated() {
            let track = scene.tracks[index]
            let input = inputs(property)
            for position in 0..<track.count {
                var segment = track.storage[position]
                if segment.drift != nil {
                    let (from, to) = segment.ends(input)
                    segment = segment.resolved(from: from, to: to, drift: nil)
                }
                if let placed = try segment.placed(through: path, clip: clip) { segments.append(placed) }
            }
        }
        for event in scene.events where clip.map({ !(event.time < $0.0) && !($0.1 < event.time) }) ?? true {
            events.append(PlacedEvent(name: event.name, time: path.placeInstant(at: event.time), rank: event.rank))
        }
        for block in scene.blocks {
            try cut(block, of: scene, through: path, clip: clip, materializeLimit: materializeLimit)
        }
    }

    /// Cuts a symbolic repetition: the copies at the ends listed, the whole ones between kept as a block.
    private func cut(_ block: RepetitionBlock, of scene: CompiledScene, through path: Path, clip: (Instant, Instant)?,
                     materializeLimit: Int) throws(AnimationError) {
        guard block.count > 0 else { return }
        guard let clip else {
            // Placed whole (squeezed to an instant: one copy's jumps stand for all).
            if path.collapse != nil {
                try cut(block.body, through: try path.followed(by: block.path), clip: nil, inputs: { _ in .none },
                        materializeLimit: materializeLimit)
            } else {
                blocks.append(try RepetitionBlock(path: try path.followed(by: block.path), period: block.period, count: block.count,
                                                  isEndless: block.isEndless, body: block.body))
            }
            return
        }
        guard !(block.end < clip.0), !(clip.1 < block.start) else { return }
        let low = block.path.forward(clip.0), high = block.path.forward(clip.1)
        let first = min(max(block.copy(containing: low, earlier: true) ?? 0, 0), block.count - 1)
        let last = min(max(block.copy(containing: high) ?? (block.count - 1), first), block.count - 1)
        // Each copy's input, per property (a body whose relative tweens read where their copy starts).
        var references: [Property: BlockInput] = [:]
        for (index, property) in scene.properties.enumerated() {
            for reference in scene.tracks[index].blocks where reference.block === block {
                if let input = reference.input { references[property] = input }
            }
        }
        func listCopy(_ copy: Int) throws(AnimationError) {
            let shift = try block.period.multiplied(by: Int64(copy))
            let copyPath = try block.path.shifted(by: shift)
            let inner = try path.followed(by: copyPath)
            try cut(block.body, through: inner, clip: (copyPath.forward(clip.0), copyPath.forward(clip.1)),
                    inputs: { property in references[property].map { .value($0.value(ofCopy: copy)) } ?? .none },
                    materializeLimit: materializeLimit)
        }
        let leaves = max(1, block.leaves, block.body.segmentCount)
        let total = last - first + 1
        if total <= 4 || total.multipliedSaturating(leaves) <= materializeLimit {
            for copy in first...last { try listCopy(copy) }
            return
        }
        // The first two and the last two copies may reach past the clip (a copy boundary at T1 or T2).
        for copy in [first, first + 1, last - 1, last] { try listCopy(copy) }
        let middle = (first + 2, last - 2)
        let shift = try block.period.multiplied(by: Int64(middle.0))
        let blockPath = try path.followed(by: try block.path.shifted(by: shift))
        blocks.append(try RepetitionBlock(path: blockPath, period: block.period, count: middle.1 - middle.0 + 1, body: block.body))
    }

    /// The jump at 0 of each property that the kept segments do not show at
    /// 0 as `scene` shows it at `start`, but that `scene` animates by then.
    private func addJumps(_ scene: CompiledScene, at start: Instant, end: Instant) throws(AnimationError) {
        let zero = Instant(.zero)
        for (index, property) in scene.properties.enumerated() {
            let track = scene.tracks[index]
            guard let first = track.first, !(start < first.key) else { continue }
            // What `scene` shows at `start` (when the part lasts no time, leaving out what starts at its end).
            guard var shown = track.value(at: start, initial: nil) else { continue }
            if start == end, let before = track.valueLeavingOutStarts(at: start) { shown = before }
            // What the kept segments show at 0.
            var kept = Resolution()
            for segment in segments where segment.animates(property) && segment.start == zero {
                kept.offerActive(start: segment.rank, value: segment.activeValue(at: zero))
            }
            if let value = kept.active?.values.mean, value == shown { continue }
            let leaf = Term.tween(Tween(unchecked: property, from: shown, to: shown, easing: .linear, duration: .zero))
            segments.append(Segment(source: leaf, ends: Ends(shown, shown), isLinear: true, start: zero, end: zero, isForward: true,
                                    warp: nil, relative: .absolute))
        }
    }

    /// The part placed in the scene through `path` (the scene into the part's frame).
    func place(through path: Path, segments list: inout [Segment], blocks: inout [RepetitionBlock],
               events: inout [PlacedEvent]) throws(AnimationError) {
        for segment in segments {
            if let placed = try segment.placed(through: path) { list.append(placed) }
        }
        // (The part's events rank among themselves as in its operand; placed, in the order the path plays them.)
        for event in self.events {
            events.append(PlacedEvent(name: event.name, time: path.placeInstant(at: event.time),
                                      rank: path.firing.rank.addingSaturating(path.firing.step.multipliedSaturating(event.rank))))
        }
        if !self.blocks.isEmpty {
            let whole = PlayedPart()
            for block in self.blocks {
                try whole.cut(block, of: CompiledScene.empty, through: path, clip: nil, materializeLimit: 0)
            }
            list.append(contentsOf: whole.segments)
            blocks.append(contentsOf: whole.blocks)
            events.append(contentsOf: whole.events)
        }
    }

    private init() {}
}

extension CompiledScene {
    /// A scene with nothing in it (what a block placed whole is cut from).
    static let empty = CompiledScene(duration: .zero, properties: [], tracks: [], blocks: [])
}

extension Track {
    /// The value at `t` by the sampling rule, leaving out the segments of
    /// positive length that start at `t` (what a part that ends at `t` shows there).
    func valueLeavingOutStarts(at t: Instant) -> Value? {
        var resolution = Resolution()
        for reference in blocks {
            // Where one copy ends and the next starts, the next is left out: the copy before, at its end.
            let block = reference.block
            let u = block.path.forward(t)
            if block.start < t, !(block.end < t), let copy = block.copy(containing: u), copy >= 1,
               block.shift(u, byCopies: -copy) == Instant(.zero) {
                var boundary = Resolution()
                reference.track.resolve(at: Instant(block.period), into: &boundary)
                boundary.upcoming = nil
                block.merge(boundary, fromCopy: copy - 1, into: &resolution)
            } else {
                reference.resolve(at: t, into: &resolution, outer: .none)
            }
        }
        for index in 0..<count where !(t < starts[index]) {
            let segment = storage[index]
            if segment.start == t, segment.start != segment.end { continue }
            if segment.end < t {
                resolution.offerFinished(end: segment.end, start: segment.rank, value: segment.endValue)
            } else {
                resolution.offerActive(start: segment.rank, value: Segment.activeValue(of: storage + index, at: t))
            }
        }
        return resolution.value(initial: nil)
    }
}
