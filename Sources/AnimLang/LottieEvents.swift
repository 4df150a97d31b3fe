import Animations

// ADAPTER (events): `CompiledScene` does not list events yet; the language's
// `emit NAME` (semantics note §6.5) arrives on another branch, which may add
// such a list. Until then the Lottie exporter finds a scene's events itself,
// by walking the scene's term with the placement rules of §6.5: `;` shifts
// them, `reversed` maps t to D − t, `in` scales, `^ n` copies, and a warp
// `with E` over a span D moves an event at t to the least t′ with
// D·E(t′/D) ≥ t. When `CompiledScene` lists events, replace
// `sceneEvents(_:limit:)` by that list; nothing else in the exporter changes.

/// An event as the exporter places it: a name and the time it fires.
struct PlacedEvent: Equatable {
    let name: String
    let seconds: Double
}

/// More events than the export may mark.
struct TooManyEvents: Error {}

/// The events of `scene` in the order they fire (ties by name), each name
/// once per instant; throws when there are more than `limit`.
func sceneEvents(_ scene: Scene, limit: Int) throws(TooManyEvents) -> [PlacedEvent] {
    guard let root = scene.term else { return [] }
    var hasEvents: [ObjectIdentifier: Bool] = [:]
    var found: [PlacedEvent] = []
    var stack: [(Term, [TimeMap])] = [(root, [])]
    while let (term, maps) = stack.popLast() {
        guard containsEvent(term, memo: &hasEvents) else { continue }
        switch term.kind {
        case .event(let name):
            found.append(PlacedEvent(name: name, seconds: place(0, through: maps)))
            if found.count > limit { throw TooManyEvents() }
        case .sequence(let parts):
            var offset = 0.0
            for part in parts {
                stack.append((part, maps + [.shift(offset)]))
                offset += part.duration?.seconds ?? 0
            }
        case .parallel(let parts):
            for part in parts { stack.append((part, maps)) }
        case .power(let body, let count):
            let period = body.duration?.seconds ?? 0
            // Each copy holds at least one event: stop as soon as the limit is passed.
            for copy in 0..<count {
                if stack.count + found.count > limit { throw TooManyEvents() }
                stack.append((body, maps + [.shift(period * Double(copy))]))
            }
        case .reversed(let body):
            stack.append((body, maps + [.mirror(body.duration?.seconds ?? 0)]))
        case .retimed(let body, let target):
            let span = body.duration?.seconds ?? 0
            stack.append((body, maps + [.scale(span == 0 ? 0 : target.seconds / span)]))
        case .eased(let body, let easing):
            stack.append((body, maps + [.warp(easing, body.duration?.seconds ?? 0)]))
        case .zero, .one, .wait, .tween:
            break
        }
    }
    found.sort { $0.seconds != $1.seconds ? $0.seconds < $1.seconds : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    var unique: [PlacedEvent] = []
    for event in found where unique.last != event { unique.append(event) }
    return unique
}

/// One step from a node's own time to its parent's.
private enum TimeMap {
    /// `u + offset`.
    case shift(Double)
    /// `span − u`.
    case mirror(Double)
    /// `u · factor`.
    case scale(Double)
    /// The least `t` in [0, span] with `span·E(t/span) ≥ u`.
    case warp(Easing, Double)
}

/// The scene time of a node's own time `u`, through the maps from the root down.
private func place(_ u: Double, through maps: [TimeMap]) -> Double {
    var t = u
    for map in maps.reversed() {
        switch map {
        case .shift(let offset): t += offset
        case .mirror(let span): t = span - t
        case .scale(let factor): t *= factor
        case .warp(let easing, let span):
            guard span > 0 else { continue }
            let target = t / span
            if easing(0) >= target { t = 0; continue }
            if easing(1) < target { t = span; continue }
            var low = 0.0, high = 1.0   // easing(low) < target <= easing(high)
            for _ in 0..<80 {
                let middle = (low + high) / 2
                if easing(middle) >= target { high = middle } else { low = middle }
            }
            t = span * high
        }
    }
    return t
}

/// Whether an event lies inside (memoized by identity: terms are shared).
private func containsEvent(_ term: Term, memo: inout [ObjectIdentifier: Bool]) -> Bool {
    if let known = memo[ObjectIdentifier(term)] { return known }
    guard term.hasLeaves else { return false }
    // Depth-first with an explicit stack: terms may be deep.
    var pending: [(Term, Bool)] = [(term, false)]
    while let (node, expanded) = pending.popLast() {
        let key = ObjectIdentifier(node)
        if memo[key] != nil { continue }
        let children = node.childTerms
        if expanded || children.isEmpty {
            if case .event = node.kind {
                memo[key] = true
            } else {
                memo[key] = node.hasLeaves && children.contains { memo[ObjectIdentifier($0)] == true }
            }
            continue
        }
        pending.append((node, true))
        for child in children where memo[ObjectIdentifier(child)] == nil { pending.append((child, false)) }
    }
    return memo[ObjectIdentifier(term)] ?? false
}

private extension Term {
    var childTerms: [Term] {
        switch kind {
        case .sequence(let parts), .parallel(let parts): return parts
        case .power(let body, _), .reversed(let body), .retimed(let body, _), .eased(let body, _): return [body]
        case .zero, .one, .wait, .tween, .event: return []
        }
    }
}
