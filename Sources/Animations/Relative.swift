#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Relative tweens (semantics §7.1): `to B` and `by Δ` start from the
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
// Colours only go `to` a colour, so after the first copy the input is the
// colour the copy ends on, whatever it started from.

/// How a segment's ends depend on the input of its copy `c`: for numbers,
/// `from + fromSlope·c` and `to + toSlope·c`; for a colour, `fromSlope == 1`
/// means it starts at `c`.
struct Drift: Hashable, Sendable {
    var fromSlope: Double
    var toSlope: Double

    func ends(from: Value, to: Value, current: Value) -> (from: Value, to: Value) {
        switch (from, to, current) {
        case (.number(let a), .number(let b), .number(let c)):
            return (.number(fromSlope == 0 ? a : a + fromSlope * c), .number(toSlope == 0 ? b : b + toSlope * c))
        case (.color, .color, .color):
            return (fromSlope == 0 ? from : current, to)
        case (.number, _, _), (.color, _, _):
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
    /// For a colour: the colour one copy ends on (the input of every later copy).
    let settled: Value?

    /// The value the property has when copy `copy` starts: O(1) whatever the copy.
    func value(ofCopy copy: Int) -> Value {
        if copy <= 0 { return start }
        switch start {
        case .color:
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

/// The property's neutral value, where nothing before a relative tween and
/// no declaration gives one: 1 for the multiplying ones, 0 for other numbers.
func neutralValue(of property: Property, kind: Value.Kind) -> Value? {
    switch kind {
    case .color: return nil
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
        /// (Bodies, colours) the copy's input itself.
        case input
    }

    /// Replaces every relative segment's ends by the values they resolve to,
    /// and gives each block whose body depends on its input that input.
    /// Does nothing (and costs one pass) when nothing on the property is relative.
    func resolve(_ segments: inout [Segment], _ references: inout [BlockReference]) throws(AnimationError) {
        let openBlocks = references.contains { $0.track.hasDrift }
        guard openBlocks || segments.contains(where: { $0.relative != .absolute }) else { return }
        if case .body = mode, openBlocks {
            throw .relativeUnsupported("a relative tween of \(property) inside two nested repetitions that are too long to list "
                                           + "(more than \(Scene.materializeLimit) segments)")
        }
        segments.sort { lhs, rhs in
            if lhs.start != rhs.start { return lhs.start < rhs.start }
            if lhs.isJump != rhs.isJump { return lhs.isJump }
            return lhs.end < rhs.end
        }
        let blockOrder = references.indices.sorted { references[$0].block.start < references[$1].block.start }
        var predecessors = Predecessors()
        var processedBlocks: [BlockReference] = []
        var next = 0, nextBlock = 0
        while next < segments.count || nextBlock < blockOrder.count {
            // The next group: listed segments with one (start, jump) key, and blocks starting there with the non-jumps.
            let start: Instant, jumps: Bool
            if next < segments.count,
               nextBlock >= blockOrder.count || segments[next].start < references[blockOrder[nextBlock]].block.start
                   || (segments[next].start == references[blockOrder[nextBlock]].block.start && segments[next].isJump) {
                start = segments[next].start
                jumps = segments[next].isJump
            } else {
                start = references[blockOrder[nextBlock]].block.start
                jumps = false
            }
            var end = next
            while end < segments.count, segments[end].start == start, segments[end].isJump == jumps { end += 1 }
            var blocksHere: [Int] = []
            if !jumps {
                while nextBlock < blockOrder.count, references[blockOrder[nextBlock]].block.start == start {
                    blocksHere.append(blockOrder[nextBlock])
                    nextBlock += 1
                }
            }
            // At a copy's start the copy before may end with jumps at that very instant, which a
            // relative tween there would tie with (as a jump: not see); one copy compiled alone cannot tell.
            if case .body(let period) = mode, start == Instant(.zero), (jumps || !predecessors.isEmpty),
               segments[next..<end].contains(where: { $0.relative != .absolute }),
               segments.contains(where: { $0.isJump && $0.start == Instant(period) }) {
                throw .relativeUnsupported("a relative tween of \(property) at the start of a repetition whose copies end "
                                               + "with a jump, in a repetition too long to list")
            }
            // Every member reads the predecessors before the group.
            var current: Current?
            for index in next..<end where segments[index].relative != .absolute {
                if current == nil { current = try self.current(at: start, predecessors, processedBlocks, kind: kindOf(segments[index])) }
                if let current { segments[index] = try resolved(segments[index], from: current) }
            }
            for index in blocksHere where references[index].track.hasDrift {
                let kind = references[index].track.kind ?? .number
                let before = try self.current(at: start, predecessors, processedBlocks, kind: kind)
                guard case .value(let value) = before else {
                    throw .relativeUnsupported("a relative tween of \(property) in a repetition inside a repetition")
                }
                references[index] = try withInput(references[index], startingAt: value)
            }
            for index in next..<end { predecessors.append(segments[index]) }
            for index in blocksHere { processedBlocks.append(references[index]) }
            next = end
        }
    }

    /// The kind of value a relative segment goes to (`by` is numbers only).
    private func kindOf(_ segment: Segment) -> Value.Kind {
        segment.relative == .by ? .number : segment.to.kind
    }

    /// The value of the property at `start` by §4, over what came before.
    private func current(at start: Instant, _ predecessors: Predecessors, _ blocks: [BlockReference],
                         kind: Value.Kind) throws(AnimationError) -> Current {
        func read(_ input: TrackInput) -> Value? {
            var resolution = Resolution()
            predecessors.offer(at: start, into: &resolution, input: input)
            for block in blocks { block.resolve(at: start, into: &resolution, outer: input) }
            return resolution.value(initial: nil)
        }
        switch mode {
        case .scene(let initial):
            if let value = read(.none) { return .value(value) }
            if let initial { return .value(initial) }
            if let neutral = neutralValue(of: property, kind: kind) { return .value(neutral) }
            throw .noCurrentValue(property)
        case .body:
            guard let slope = read(.slopes)?.number else { return kind == .color ? .input : .affine(offset: 0, slope: 1) }
            switch kind {
            case .number:
                let offset = read(.value(.number(0)))?.number ?? 0
                return .affine(offset: offset, slope: slope)
            case .color:
                if slope == 0, let value = read(.none) { return .value(value) }
                if slope == 1 { return .input }
                throw .relativeUnsupported("a colour tween of \(property) that starts while another one from the current colour "
                                               + "is under way, inside a repetition too long to list")
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
            let delta = segment.to.number ?? 0
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

    /// The block reference with the input of each of its copies.
    private func withInput(_ reference: BlockReference, startingAt start: Value) throws(AnimationError) -> BlockReference {
        let end = Instant(reference.block.period)
        func read(_ input: TrackInput) -> Value? {
            var resolution = Resolution()
            reference.track.resolve(at: end, into: &resolution, input: input)
            return resolution.value(initial: nil)
        }
        let input: BlockInput
        switch start {
        case .number:
            let slope = read(.slopes)?.number ?? 1
            let offset = read(.value(.number(0)))?.number ?? 0
            input = BlockInput(start: start, slope: slope, offset: offset, settled: nil)
        case .color:
            input = BlockInput(start: start, slope: 0, offset: 0, settled: read(.value(start)))
        }
        return BlockReference(block: reference.block, track: reference.track, input: input)
    }
}

/// The resolved segments so far, in order of start, answering "which of
/// them win at `t`" (§4) for a `t` no earlier than any of their starts.
private struct Predecessors {
    private var segments: [Segment] = []
    var isEmpty: Bool { segments.isEmpty }
    private var latestEnd: Instant?
    /// The finished winners when none is active: the latest end, then the latest start.
    private var lastEnding: [Int] = []

    mutating func append(_ segment: Segment) {
        segments.append(segment)
        let index = segments.count - 1
        if let latest = latestEnd, !(latest < segment.end) {
            if latest == segment.end, let first = lastEnding.first {
                let start = segments[first].start
                if start < segment.start { lastEnding = [index] } else if start == segment.start { lastEnding.append(index) }
            }
        } else {
            latestEnd = segment.end
            lastEnding = [index]
        }
    }

    func offer(at t: Instant, into resolution: inout Resolution, input: TrackInput) {
        guard let latestEnd else { return }
        if !(latestEnd < t) {
            // Active ones: the latest start among those not ended before t (most often the last one).
            var index = segments.count - 1
            while index >= 0, segments[index].end < t { index -= 1 }
            guard index >= 0 else { return }
            let key = segments[index].start
            while index >= 0, segments[index].start == key {
                if !(segments[index].end < t) {
                    resolution.offerActive(start: key, value: segments[index].activeValue(at: t, input: input))
                }
                index -= 1
            }
            return
        }
        for index in lastEnding {
            let segment = segments[index]
            resolution.offerFinished(end: segment.end, start: segment.start, value: segment.endValue(input))
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
