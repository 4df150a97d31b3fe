#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Relative tweens (docs/semantics.md §7.1): `to B` and `by Δ` start from the
// property's *current value*, read where the segment lands in Σ by the
// sampling rule of §4 over the segments that come before it. They are
// resolved when a scene is compiled, property by property, in order of
// start (jumps before the others at one instant); segments that start
// together do not see each other.
//
// A repetition kept symbolic (`x ^ 1_000_000_000`, `x repeated forever`)
// is compiled once, as one copy whose relative segments depend on the value
// the property has when the copy starts (its *input*). For numbers every
// value in a copy is affine in that input (lerps, holds and tie means are),
// so a segment carries the slopes of its ends (``Drift``) and one copy's
// effect is the affine map `c ↦ a·c + b`; copy k starts at the map applied
// k times to the value before the block, in closed form (``BlockInput``).
// Colours and points only go `to` a value, so after the first copy the input
// is the value the copy ends on, whatever it started from.

/// How a segment's ends depend on the input of its copy `c`: for numbers,
/// `from + fromSlope·c` and `to + toSlope·c`; for a colour or a point, `fromSlope == 1`
/// means it starts at `c`.
struct Drift: Hashable, Sendable {
    var fromSlope: Double
    var toSlope: Double

    func ends(from: Value, to: Value, current: Value) -> (from: Value, to: Value) {
        switch (from, to, current) {
        case (.number(let a), .number(let b), .number(let c)):
            return (.number(fromSlope == 0 ? a : a + fromSlope * c), .number(toSlope == 0 ? b : b + toSlope * c))
        case (.color, .color, .color), (.point, .point, .point):
            return (fromSlope == 0 ? from : current, to)
        case (.number, _, _), (.color, _, _), (.point, _, _):
            return (from, to)
        }
    }
}

/// What a track's values are read for.
enum TrackInput {
    /// The values as stored (a scene's tracks, and bodies that depend on no input).
    case none
    /// The values of a copy whose property started at this value.
    case value(Value)
    /// How much each value moves per unit of the input: the slopes of
    /// ``Drift`` (0 for segments without one), as numbers.
    case slopes

    var isSlopes: Bool {
        if case .slopes = self { return true }
        return false
    }
}

/// The input of each copy of a block on one property: the value before the
/// block for the first copy, then one copy's map applied `k` times.
struct BlockInput: Sendable {
    /// The value the property has when the block starts.
    let start: Value
    /// One copy's map for numbers, `c ↦ slope·c + offset`.
    let slope: Double
    let offset: Double
    /// For a colour or a point: the value one copy ends on (the input of every later copy).
    let settled: Value?

    /// The value the property has when copy `copy` starts: O(1) whatever the copy.
    func value(ofCopy copy: Int) -> Value {
        if copy <= 0 { return start }
        switch start {
        case .color, .point:
            return settled ?? start
        case .number(let c0):
            let k = Double(copy)
            if slope == 1 { return .number(c0 + k * offset) }
            if slope == 0 { return .number(offset) }
            let power = pow(slope, k)
            return .number(power * c0 + offset * (1 - power) / (1 - slope))
        }
    }
}

/// One copy's effect on a number input, `c ↦ slope·c + offset`, read off
/// a body's track by the sampling rule (`read` reads it for an input);
/// `nil` when nothing speaks there.
private func affineMap(_ read: (TrackInput) -> Value?) -> (slope: Double, offset: Double)? {
    guard let slope = read(.slopes)?.number, let offset = read(.value(.number(0)))?.number else { return nil }
    return (slope, offset)
}

/// The property's neutral value, where nothing before a relative tween and
/// no declaration gives one: 1 for the multiplying ones, 0 for other numbers,
/// (0, 0) for a point; none for a colour. (The web export's module returns
/// an element to it on `cancel()` where no declaration gives one.)
public func neutralValue(of property: Property, kind: Value.Kind) -> Value? {
    switch kind {
    case .color: return nil
    case .point: return .point(Point(x: 0, y: 0))
    case .number:
        switch property.name {
        case "opacity", "scale", "scale-x", "scale-y": return .number(1)
        default: return .number(0)
        }
    }
}

/// Resolves the relative segments of one property of a scene or a body.
struct RelativeResolver {
    enum Mode {
        /// A whole scene: with nothing before it, a relative segment starts at
        /// the declared initial value, else the neutral value.
        case scene(initial: Value?)
        /// A repetition's body, `period` long: with nothing before it, at the copy's input.
        case body(period: Time)
    }

    let property: Property
    let mode: Mode

    /// What a relative segment starts from.
    private enum Current {
        case value(Value)
        /// (Bodies, numbers) `offset + slope·c`.
        case affine(offset: Double, slope: Double)
        /// (Bodies, colours and points) the copy's input itself.
        case input
    }

    /// The property's track with every relative segment's ends replaced by
    /// the values they resolve to, and each block whose body depends on its
    /// input given that input. A track as usual when nothing on the property is relative.
    func track(_ segments: SegmentList, _ references: consuming [BlockReference]) throws(AnimationError) -> Track {
        let openBlocks = references.contains { $0.track.hasDrift }
        guard openBlocks || segments.contains(where: { $0.pointee.relative != .absolute }) else {
            return Track(segments: segments, blocks: references)
        }
        if case .body = mode, openBlocks {
            throw .relativeUnsupported("a relative tween of \(property) inside two nested repetitions that are too long to list "
                                           + "(more than \(Scene.materializeLimit) segments)")
        }
        // Blocks in order of start, so that the ones already resolved are a prefix.
        references.sort { $0.block.start < $1.block.start }
        let track = Track(segments: segments, blocks: references)
        // The track lists segments by start, then end: at one instant, jumps first.
        var next = 0, nextBlock = 0
        while next < track.count || nextBlock < track.blocks.count {
            // The next group: listed segments with one (start, jump) key, and blocks starting there with the non-jumps.
            let start: Instant, jumps: Bool
            if next < track.count, nextBlock >= track.blocks.count || track.starts[next] < track.blocks[nextBlock].block.start
                || (track.starts[next] == track.blocks[nextBlock].block.start && track.ends[next] == track.starts[next]) {
                start = track.starts[next]
                jumps = track.ends[next] == start
            } else {
                start = track.blocks[nextBlock].block.start
                jumps = false
            }
            var end = next
            while end < track.count, track.starts[end] == start, (track.ends[end] == start) == jumps { end += 1 }
            var blocksEnd = nextBlock
            if !jumps {
                while blocksEnd < track.blocks.count, track.blocks[blocksEnd].block.start == start { blocksEnd += 1 }
            }
            // At a copy's start the copy before may end with jumps at that very instant, which a
            // relative tween there would tie with (as a jump: not see); one copy compiled alone cannot tell.
            let relativeHere = (next..<end).contains { track.storage[$0].relative != .absolute }
            if case .body(let period) = mode, relativeHere, start == Instant(.zero), jumps || next > 0,
               (0..<track.count).contains(where: { track.starts[$0] == Instant(period) && track.ends[$0] == Instant(period) }) {
                throw .relativeUnsupported("a relative tween of \(property) at the start of a repetition whose copies end "
                                               + "with a jump, in a repetition too long to list")
            }
            // Every member reads what comes before the group: segments before `next`, blocks before `nextBlock`.
            var current: Current?
            for index in next..<end where track.storage[index].relative != .absolute {
                let segment = track.storage[index]
                if current == nil {
                    current = try self.current(at: start, in: track, before: next, blocks: nextBlock, kind: kindOf(segment))
                }
                if let current { track.resolve(index, to: try resolved(segment, from: current)) }
            }
            for index in nextBlock..<blocksEnd where track.blocks[index].track.hasDrift {
                // A body with drift has segments, so a kind.
                guard let kind = track.blocks[index].track.kind else { continue }
                let before = try self.current(at: start, in: track, before: next, blocks: nextBlock, kind: kind)
                guard case .value(let value) = before else {
                    throw .relativeUnsupported("a relative tween of \(property) in a repetition inside a repetition")
                }
                track.setInput(input(of: track.blocks[index], startingAt: value), ofBlock: index)
            }
            next = end
            nextBlock = blocksEnd
        }
        track.valuesChanged()
        return track
    }

    /// The kind of value a relative segment goes to (`by` is numbers only).
    private func kindOf(_ segment: Segment) -> Value.Kind {
        segment.relative == .by ? .number : segment.to.kind
    }

    /// The value of the property at `start` by docs/semantics.md §4, over what came before it:
    /// the track's first `limit` segments and first `blocks` blocks.
    private func current(at start: Instant, in track: Track, before limit: Int, blocks: Int,
                         kind: Value.Kind) throws(AnimationError) -> Current {
        func read(_ input: TrackInput) -> Value? {
            track.value(at: start, before: limit, blocks: blocks, input: input)
        }
        switch mode {
        case .scene(let initial):
            if let value = read(.none) { return .value(value) }
            if let initial { return .value(initial) }
            if let neutral = neutralValue(of: property, kind: kind) { return .value(neutral) }
            throw .noCurrentValue(property)
        case .body:
            // With nothing before it in the body, a tween starts from the copy's input.
            switch kind {
            case .number:
                guard let map = affineMap(read) else { return .affine(offset: 0, slope: 1) }
                return .affine(offset: map.offset, slope: map.slope)
            case .color, .point:
                guard let slope = read(.slopes)?.number else { return .input }
                if slope == 0, let value = read(.none) { return .value(value) }
                if slope == 1 { return .input }
                throw .relativeUnsupported("a \(kind == .color ? "colour" : "point") tween of \(property) that starts while another one "
                                               + "from the current \(kind == .color ? "colour" : "point") is under way, inside a repetition too long to list")
            }
        }
    }

    /// `segment` with the ends it resolves to from `current`.
    private func resolved(_ segment: Segment, from current: Current) throws(AnimationError) -> Segment {
        switch segment.relative {
        case .absolute:
            return segment
        case .to:
            // A reversed `to` tween would end where it started from: it has no start to return to.
            guard segment.isForward else { throw .reversedRelative(property) }
            switch current {
            case .value(let value):
                guard value.kind == segment.to.kind else { throw .mixedKinds(property, value.kind, segment.to.kind) }
                return segment.resolved(from: value, to: segment.to, drift: nil)
            case .affine(let offset, let slope):
                guard case .number = segment.to else { throw .mixedKinds(property, .number, segment.to.kind) }
                return segment.resolved(from: .number(offset), to: segment.to,
                                        drift: slope == 0 ? nil : Drift(fromSlope: slope, toSlope: 0))
            case .input:
                return segment.resolved(from: segment.to, to: segment.to, drift: Drift(fromSlope: 1, toSlope: 0))
            }
        case .by:
            guard case .number(let delta) = segment.to else { throw .relativeColor(property) }
            // Played backwards, `by Δ with E` is `by −Δ with mirror(E)`: it starts at c and ends at c − Δ.
            func ends(_ c: Double) -> (from: Double, to: Double) {
                segment.isForward ? (c, c + delta) : (c - delta, c)
            }
            switch current {
            case .value(let value):
                guard case .number(let c) = value else { throw .relativeColor(property) }
                let (a, b) = ends(c)
                return segment.resolved(from: .number(a), to: .number(b), drift: nil)
            case .affine(let offset, let slope):
                let (a, b) = ends(offset)
                return segment.resolved(from: .number(a), to: .number(b),
                                        drift: slope == 0 ? nil : Drift(fromSlope: slope, toSlope: slope))
            case .input:
                throw .relativeColor(property)
            }
        }
    }

    /// The input of each copy of a block on this property, the first starting at `start`.
    private func input(of reference: BlockReference, startingAt start: Value) -> BlockInput {
        let end = Instant(reference.block.period)
        func read(_ input: TrackInput) -> Value? {
            var resolution = Resolution()
            reference.track.resolve(at: end, into: &resolution, input: input)
            return resolution.value(initial: nil)
        }
        switch start {
        case .number:
            // A body that says nothing where a copy ends passes its input on.
            let map = affineMap(read) ?? (slope: 1, offset: 0)
            return BlockInput(start: start, slope: map.slope, offset: map.offset, settled: nil)
        case .color, .point:
            return BlockInput(start: start, slope: 0, offset: 0, settled: read(.value(start)))
        }
    }
}

extension Segment {
    /// For a segment inside a repetition whose ends depend on the value `c`
    /// the property has when its copy starts, its ends as written in terms of
    /// `c` (`c`, `c+10`, `0.5·c+3`), in the order it plays them; `nil` otherwise.
    public var driftingEnds: (start: String, end: String)? {
        guard let drift else { return nil }
        func text(_ value: Value, _ slope: Double) -> String {
            guard case .number(let offset) = value else { return slope == 0 ? value.description : "c" }
            if slope == 0 { return value.description }
            let scaled = slope == 1 ? "c" : "\(Value.number(slope))·c"
            if offset == 0 { return scaled }
            return offset < 0 ? "\(scaled)\(Value.number(offset))" : "\(scaled)+\(Value.number(offset))"
        }
        let from = text(self.from, drift.fromSlope), to = text(self.to, drift.toSlope)
        return isForward ? (from, to) : (to, from)
    }
}

extension CompiledScene {
    /// Whether a repetition kept symbolic holds relative tweens (`by`, `to`):
    /// its copies then start where the one before left the property, and an
    /// endless one need not settle into a cycle.
    public var repeatsRelativeTweens: Bool {
        blocks.contains { block in block.body.segments.contains { $0.relative != .absolute } || block.body.repeatsRelativeTweens }
    }
}
