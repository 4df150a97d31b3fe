import AnimJSON
import Animations

// Repetition in Lottie (docs/exports.md §7). Lottie has no iteration count
// per property, but a precomposition layer may remap time (`tm`): the
// layer shows its asset at the time `tm` gives. So a view whose properties
// repeat (`x ^ n`, `repeated n times`, `looped n times` kept as one symbolic
// block, ``CompiledScene/repetitions(of:initial:)``) is drawn in an asset
// that holds its timeline with every repetition cut to two copies (the
// first copy may differ from the rest: before its first segment it shows
// what came before), and a precomposition layer whose `tm` runs through the
// second copy once for every copy after the first: two keyframes a copy
// instead of the copies' keyframes.

/// One view's timeline with its repetitions cut to two copies each: the
/// asset's clock (`τ`), and how the scene's clock maps onto it.
struct LottieCompression {
    /// A repetition kept: where it starts in the scene, its period and copies,
    /// and the shift (scene time − asset time) before it.
    struct Window {
        let start: Time
        let period: Time
        let count: Int
        /// How many copies the asset holds: one when the first copy does what
        /// every later one does, else two.
        let kept: Int
        let shift: Time
        /// Copy 0's and copy 1's pieces per property (scene time).
        let first: [Property: [Piece]]
        let later: [Property: [Piece]]
        /// The window's end in the scene.
        var end: Time { (try? start.adding((try? period.multiplied(by: Int64(count))) ?? .zero)) ?? start }
        /// The copies kept end here in the scene.
        var keptEnd: Time { (try? start.adding((try? period.multiplied(by: Int64(kept))) ?? .zero)) ?? start }
        /// The shift after the window: `count − kept` more periods.
        var shiftAfter: Time { (try? shift.adding((try? period.multiplied(by: Int64(count - kept))) ?? .zero)) ?? shift }
    }

    /// The scene whose repetitions are symbolic (every value is read there).
    let scene: CompiledScene
    let windows: [Window]
    /// The asset's duration: the scene's, less the copies cut.
    let duration: Time

    /// The scene time an asset time shows: before a window's kept end, its
    /// shift; at that end and after it, the next (the end of the kept copies
    /// shows the end of the last copy).
    func sceneTime(_ tau: Instant) -> Instant {
        var current = Time.zero
        for window in windows {
            let keptEnd = (try? window.keptEnd.subtracting(window.shift)) ?? .zero
            if tau < Instant(keptEnd) { return tau.shifted(by: window.shift) ?? tau }
            current = window.shiftAfter
        }
        return tau.shifted(by: current) ?? tau
    }

    /// The pieces of `property` on the asset's clock: the scene's between
    /// windows, each window's two copies, all shifted back.
    func pieces(of property: Property, initial: Value?) -> [Piece] {
        guard !scene.pieces(of: property, initial: initial).isEmpty else { return [] }
        var result: [Piece] = []
        var cursor = Time.zero
        var shift = Time.zero
        func back(_ pieces: [Piece], by shift: Time) {
            let negated = (try? shift.negated()) ?? .zero
            for piece in pieces {
                if let moved = piece.shifted(by: negated) { result.append(moved) }
            }
        }
        for window in windows {
            if cursor < window.start {
                back(scene.pieces(of: property, initial: initial, from: Instant(cursor), to: Instant(window.start)), by: shift)
            }
            shift = window.shift
            if let first = window.first[property], let later = window.later[property] {
                back(window.kept == 1 ? first : first + later, by: shift)
            } else {
                // Held across the window: its two copies' worth.
                back(scene.pieces(of: property, initial: initial, from: Instant(window.start), to: Instant(window.keptEnd)), by: shift)
            }
            cursor = window.end
            shift = window.shiftAfter
        }
        if cursor < scene.duration {
            back(scene.pieces(of: property, initial: initial, from: Instant(cursor), to: Instant(scene.duration)), by: shift)
        }
        return result
    }

    /// The time-remapping keyframes (`tm`, asset seconds against the scene's
    /// frames) that play the asset as the scene: slope 1, jumping back one
    /// period at every copy after the second. A jump goes a few
    /// single-precision steps early when the value jumps there (as other
    /// jumps do, ``KeyframeBuilder/jumpLead(at:)``), and both its keyframes
    /// say the asset's time at that earlier frame, so the clock keeps slope 1
    /// through every copy: the lead grows with the frame (four steps at frame
    /// 60,000 are a sixty-fourth of a frame), and a copy that started that
    /// much ahead showed a steep curve visibly early. The value's own jump
    /// then falls inside the asset, at the copy's start, where its frames are
    /// small and exact.
    func remap(fps: Int64, frames: Int, jumps: Bool) -> JSON {
        var keys: [JSON] = []
        let fpsValue = Double(fps)
        func linear(_ frame: Double, _ tau: Double) -> JSON {
            .object([("t", .number(frame)), ("s", .numbers([tau])), ("o", .object([("x", .number(0)), ("y", .number(0))])),
                     ("i", .object([("x", .number(1)), ("y", .number(1))]))])
        }
        keys.append(linear(0, 0))
        for window in windows {
            let period = window.period.seconds
            // The asset's clock where the kept copies end, and where the last of them starts (exact where it can be).
            let keptEndTime = try? window.keptEnd.subtracting(window.shift)
            let keptEnd = keptEndTime?.seconds ?? window.keptEnd.seconds - window.shift.seconds
            let lastStart = (keptEndTime.flatMap { try? $0.subtracting(window.period) })?.seconds ?? keptEnd - period
            for copy in window.kept..<window.count {
                // On the frame clock exactly where it can be (no 144.00000000000003).
                let exact = (try? window.start.adding(try window.period.multiplied(by: Int64(copy))).multiplied(by: fps))?.seconds
                let at = exact ?? (window.start.seconds + period * Double(copy)) * fpsValue
                // The lead in seconds rounded up to a power of ten, so that the frame and both times
                // stay short decimals (a copy's two keyframes stay under 100 bytes); to one significant
                // digit (at most twice the lead) where that would be over a tenth of a frame (0.6
                // frames at frame 179,820 of a 60 fps file showed the next copy half a frame early).
                let lead = KeyframeBuilder.jumpLead(at: at) / fpsValue
                let tenUp = Digits.powerOfTenUp(lead)
                let early = jumps ? (tenUp * fpsValue <= 0.1 ? tenUp : Digits.oneDigitUp(lead)) : 0
                let frame = Digits.shortest(at - early * fpsValue, within: 4 * at.ulp)
                keys.append(.object([("t", .number(frame)), ("s", .numbers([Digits.shortest(keptEnd - early, within: 4 * keptEnd.ulp)])),
                                     ("h", .number(1))]))
                keys.append(linear(frame, Digits.shortest(lastStart - early, within: 4 * max(lastStart.ulp, early.ulp))))
            }
        }
        let last = window(after: scene.duration)
        keys.append(.object([("t", .number(scene.duration.seconds * fpsValue)), ("s", .numbers([last]))]))
        return .object([("a", .number(1)), ("k", .array(keys))])
    }

    private func window(after time: Time) -> Double {
        time.seconds - (windows.last?.shiftAfter.seconds ?? 0)
    }
}

extension LottieCompression {
    /// The repetitions that can draw `properties` (one view's) from two
    /// copies: each symbolic repetition of three or more copies that every
    /// property either plays alone over its window (the same window, period
    /// and count) or holds through; `nil` when there is none.
    static func make(_ scene: CompiledScene, properties: [Property], initial: [Property: Value]) -> LottieCompression? {
        var candidates: [Repetition] = []
        var byProperty: [Property: [Repetition]] = [:]
        for property in properties {
            let found = scene.repetitions(of: property, initial: initial[property]).filter { $0.count >= 2 }
            byProperty[property] = found
            for repetition in found where !candidates.contains(where: { same($0, repetition) }) { candidates.append(repetition) }
        }
        candidates.sort { $0.start < $1.start }
        var windows: [Window] = []
        var shift = Time.zero
        var lastEnd = Instant(.zero)
        for candidate in candidates {
            guard !(candidate.start < lastEnd), let start = candidate.start.exact, candidate.end.exact != nil else { continue }
            var first: [Property: [Piece]] = [:], later: [Property: [Piece]] = [:]
            var fits = true
            for property in properties {
                if let own = byProperty[property]?.first(where: { same($0, candidate) }) {
                    first[property] = own.first
                    later[property] = own.later
                    continue
                }
                let pieces = scene.pieces(of: property, initial: initial[property], from: candidate.start, to: candidate.end)
                let holds = pieces.allSatisfy { piece in
                    if case .hold = piece.rule { return true }
                    return false
                }
                if !holds { fits = false; break }
            }
            guard fits else { continue }
            let kept = oneCopy(scene, properties: properties, initial: initial, first: first, later: later, start: start,
                               period: candidate.period) ? 1 : 2
            guard candidate.count > kept else { continue }
            let window = Window(start: start, period: candidate.period, count: candidate.count, kept: kept, shift: shift,
                                first: first, later: later)
            windows.append(window)
            shift = window.shiftAfter
            lastEnd = candidate.end
        }
        guard !windows.isEmpty, let duration = try? scene.duration.subtracting(shift) else { return nil }
        return LottieCompression(scene: scene, windows: windows, duration: duration)
    }

    /// Whether copy 0 does what copy 1 does, a period earlier: the same
    /// pieces (holds of one value, tweens of one rule, sampled stretches
    /// alike at a few points) and the same value where each starts.
    private static func oneCopy(_ scene: CompiledScene, properties: [Property], initial: [Property: Value], first: [Property: [Piece]],
                                later: [Property: [Piece]], start: Time, period: Time) -> Bool {
        guard let next = try? start.adding(period) else { return false }
        for property in properties {
            let value = { (t: Instant) in scene.value(of: property, at: t, initial: initial[property]) }
            guard value(Instant(start)) == value(Instant(next)) else { return false }
            guard let a = first[property], let b = later[property] else { continue }
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) {
                guard x.start.shifted(by: period) == y.start, x.end.shifted(by: period) == y.end else { return false }
                switch (x.rule, y.rule) {
                case (.hold(let u), .hold(let v)):
                    guard u == v else { return false }
                case (.tween(let f1, let t1, let e1, let p1, let q1), .tween(let f2, let t2, let e2, let p2, let q2)):
                    guard f1 == f2, t1 == t2, e1 == e2, p1 == p2, q1 == q2 else { return false }
                case (.sampled, .sampled):
                    for step in 1..<8 {
                        let t = x.start.toward(x.end, Time(numerator: Int64(step), denominator: 8) ?? .zero)
                        guard value(t) == value(t.shifted(by: period, times: 1)) else { return false }
                    }
                case (.hold, _), (.tween, _), (.sampled, _):
                    return false
                }
            }
        }
        return true
    }

    private static func same(_ a: Repetition, _ b: Repetition) -> Bool {
        a.start == b.start && a.end == b.end && a.period == b.period && a.count == b.count
    }
}

extension LottieExporter {
    /// The layer that draws views through a time remap: a precomposition
    /// of the asset holding their shape layers (each named after its view),
    /// the stage's size, no transform of its own, and `tm` from
    /// ``LottieCompression/remap(fps:frames:jumps:)``. It ends a frame after
    /// the file (lottie-web shows the frame before a remapped time that
    /// equals the layer's `op`).
    func remapLayer(_ views: [View], index: Int, asset: String, compression: LottieCompression, frames: Int,
                    stage: (width: Double, height: Double)) -> JSON {
        let jumps = compression.jumps(views.flatMap { $0.used.sorted() }, initial: initial)
        // `ks` empty: both players take the identity transform for what it lacks.
        return .object([
            ("ind", .number(Double(index + 1))), ("ty", .number(0)),
            ("nm", .string(views.map(\.name).joined(separator: " ") + " repeats")),
            ("refId", .string(asset)), ("ks", .object([])),
            ("tm", compression.remap(fps: fps, frames: frames, jumps: jumps)),
            ("w", .number(stage.width)), ("h", .number(stage.height)),
            ("ip", .number(0)), ("op", .number(Double(frames + 1))), ("st", .number(0)),
        ])
    }

    /// The views in drawing order, in runs: neighbours whose repetitions
    /// are the same (window, period, copies, copies kept) share one asset
    /// and one remap (two keyframes a copy however many views repeat); a
    /// view without a repetition to draw from is a run of its own without one.
    func remapGroups(_ views: [View]) -> [(views: [View], compression: LottieCompression?)] {
        var groups: [(views: [View], compression: LottieCompression?)] = []
        for view in views {
            let own = repeating.flatMap { LottieCompression.make($0, properties: view.used.sorted(), initial: initial) }
            if let own, let repeating, let last = groups.last, let shared = last.compression, shared.sameWindows(own) {
                let properties = (last.views + [view]).flatMap { $0.used.sorted() }
                if let merged = LottieCompression.make(repeating, properties: properties, initial: initial), merged.sameWindows(own) {
                    groups[groups.count - 1] = (last.views + [view], merged)
                    continue
                }
            }
            groups.append(([view], own))
        }
        return groups
    }
}

extension LottieCompression {
    /// Whether both cut the same repetitions alike.
    func sameWindows(_ other: LottieCompression) -> Bool {
        windows.count == other.windows.count && zip(windows, other.windows).allSatisfy { a, b in
            a.start == b.start && a.period == b.period && a.count == b.count && a.kept == b.kept
        }
    }

    /// Whether some property's value jumps where one copy ends and the next
    /// begins (then the remap's jumps go early, as other jumps do).
    func jumps(_ properties: [Property], initial: [Property: Value]) -> Bool {
        for window in windows {
            guard let boundary = try? window.start.adding(window.period) else { return true }
            let before = window.keptEnd.seconds
            let leftOfEnd = Instant(approximately: before - max(1e-9, abs(before) * 1e-12))
            for property in properties {
                let a = scene.value(of: property, at: Instant(boundary), initial: initial[property])
                let b = scene.value(of: property, at: leftOfEnd, initial: initial[property])
                guard let a, let b else { continue }
                let x = a.lottieNumbers, y = b.lottieNumbers
                for (u, v) in zip(x, y) where !(abs(u - v) <= 1e-6 * max(1, abs(u))) { return true }
            }
        }
        return false
    }
}

extension Value {
    /// Its numbers (a colour's channels), for comparing values.
    fileprivate var lottieNumbers: [Double] {
        switch self {
        case .number(let number): return [number]
        case .color(let color): return [color.red, color.green, color.blue, color.alpha]
        case .point(let point): return [point.x, point.y]
        }
    }
}
