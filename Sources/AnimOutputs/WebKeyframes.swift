import AnimLang
import Animations

/// How a property's spans become keyframes (see ``WebExport``: instants and windows).
extension WebExportBuilder {
    /// The keyframes of `spans` laid end to end, `values[j]` being the value at
    /// the j-th boundary (`offsets[j]`): spans meet where the timeline is
    /// continuous; where it jumps, the boundary's value is held over a window
    /// on the side (or sides) that differ.
    /// `seconds` is the animation's length: a window is at most
    /// ``WebExport/windowSeconds`` long, so a long animation's jump does not
    /// squeeze the curves beside it by a visible time.
    func assemble(_ spans: [WebSpan], values: [Value], offsets: [Double], seconds: Double) -> [WebExport.Keyframe] {
        let n = spans.count
        guard n > 0 else { return [] }
        var lengths: [Double] = []
        for index in 0..<n { lengths.append(max(0, offsets[index + 1] - offsets[index])) }
        let leads = (0..<n).map { spans[$0].leads ? min(WebExport.stepLead * lengths[$0], lengths[$0] / 8) : 0 }
        // Where each span's curve starts and ends, and what each boundary holds.
        var curveStart = [Double](repeating: 0, count: n), curveEnd = [Double](repeating: 0, count: n)
        var plateaus: [(Double, Double, Value)?] = Array(repeating: nil, count: n + 1)
        for j in 0...n {
            let o = offsets[j]
            let value = values[j]
            var low = j > 0 ? o - leads[j - 1] : o
            var high = j < n ? o - leads[j] : o
            let neighbours = [j > 0 ? lengths[j - 1] : Double.infinity, j < n ? lengths[j] : Double.infinity]
            let window = min(WebExport.window, WebExport.windowSeconds / max(seconds, .leastNormalMagnitude), (neighbours.min() ?? 0) / 4)
            let jumpsBefore = j > 0 && !nearlyEqual(spans[j - 1].endLimit, value)
            let jumpsAfter = j < n && !nearlyEqual(spans[j].startValue, value)
            if jumpsBefore { low = min(low, o - window) }
            if jumpsAfter { high = max(high, o + window) }
            if high < low {
                // Continuous, or the next curve starts early: the previous one ends there too.
                low = high
            }
            low = min(max(low, 0), 1)
            high = min(max(high, 0), 1)
            if jumpsBefore || jumpsAfter || high > low { plateaus[j] = (low, high, value) }
            if j > 0 { curveEnd[j - 1] = low }
            if j < n { curveStart[j] = high }
        }
        var keyframes: [WebExport.Keyframe] = []
        func add(_ keyframe: WebExport.Keyframe) {
            if let last = keyframes.last, last.offset == keyframe.offset, nearlyEqual(last.value, keyframe.value) {
                keyframes[keyframes.count - 1] = keyframe
                return
            }
            // A hold continued by the same value needs no keyframe in between.
            if keyframes.count >= 2, let last = keyframes.last, last.easing == nil, nearlyEqual(last.value, keyframe.value),
               keyframes[keyframes.count - 2].easing == nil, nearlyEqual(keyframes[keyframes.count - 2].value, keyframe.value) {
                keyframes[keyframes.count - 1] = keyframe
                return
            }
            keyframes.append(keyframe)
        }
        for j in 0...n {
            if let (low, high, value) = plateaus[j] {
                add(.init(offset: low, value: value, easing: nil))
                add(.init(offset: high, value: value, easing: nil))
            }
            if j < n {
                var own = spans[j].keyframes(from: curveStart[j], to: curveEnd[j])
                // Ends that differ from the boundaries' values by rounding only take those values.
                if let first = own.first, nearlyEqual(first.value, values[j]) { own[0].value = values[j] }
                if let last = own.last, nearlyEqual(last.value, values[j + 1]) { own[own.count - 1].value = values[j + 1] }
                for keyframe in own { add(keyframe) }
            }
        }
        return written(keyframes, seconds: seconds)
    }

    /// `keyframes` with the offsets a person would write (``Digits``): each
    /// the shortest decimal within ``WebExport/offsetSeconds`` of its time and
    /// a quarter of the way to its neighbours (so no two swap or meet, and a
    /// jump's window still holds its instant). The offsets that place a jump
    /// to the instant stay as they are: a jump at one offset (two keyframes
    /// there), and the ends of a `steps()` interval, whose jumps fall at
    /// fractions of it and are placed ``WebExport/stepLead`` early. (Values
    /// are shortened once the export is whole: ``WebExport/Animation/shortened``.)
    func written(_ keyframes: [WebExport.Keyframe], seconds: Double) -> [WebExport.Keyframe] {
        guard seconds > 0, seconds.isFinite else { return keyframes }
        var out = keyframes
        var start = 0
        while start < keyframes.count {
            // A run of keyframes at one offset (a jump) moves as one.
            var end = start
            while end + 1 < keyframes.count, keyframes[end + 1].offset == keyframes[start].offset { end += 1 }
            let offset = keyframes[start].offset
            var tolerance = WebExport.offsetSeconds / seconds
            if start > 0 { tolerance = min(tolerance, (offset - keyframes[start - 1].offset) / 4) }
            if end + 1 < keyframes.count { tolerance = min(tolerance, (keyframes[end + 1].offset - offset) / 4) }
            let steps = keyframes[start].easing?.hasPrefix("steps(") == true
                || (start > 0 && keyframes[start - 1].easing?.hasPrefix("steps(") == true)
            let short = end > start || steps ? offset : Digits.shortest(offset, within: tolerance)
            for index in start...end { out[index].offset = short }
            start = end + 1
        }
        return out
    }
}

extension WebExport.Animation {
    /// The animation with each number the shortest within 1e-8 of the
    /// property's range here (``Digits``); colours as they are. Done last,
    /// after the marks of ``relativeAtPlayTime(_:model:outcome:source:)``,
    /// which compare the values of two builds and would read the rounding
    /// as a difference.
    var shortened: WebExport.Animation {
        let digits = Digits(keyframes.compactMap { keyframe -> [Double]? in
            if case .color = keyframe.value { return nil }
            return keyframe.value.components
        })
        var copy = self
        for index in copy.keyframes.indices {
            copy.keyframes[index].value = copy.keyframes[index].value.rounded(digits)
            copy.keyframes[index].shown = copy.keyframes[index].shown?.rounded(digits)
        }
        return copy
    }
}

extension WebExport.Animation {
    /// Holds without curves (docs/exports.md §7): in a run of keyframes that
    /// play one value (the same value and the same
    /// ``WebExport/Keyframe/relative``, so also at play time), only the run's
    /// ends stay, and the first has no easing: whatever the curve, the
    /// browser draws that value between them. The last keeps its easing,
    /// which shapes what comes after.
    var plainHolds: WebExport.Animation {
        var kept: [WebExport.Keyframe] = []
        for keyframe in keyframes {
            let count = kept.count
            if count >= 1, kept[count - 1].playsLike(keyframe) {
                kept[count - 1].easing = nil
                if count >= 2, kept[count - 2].playsLike(keyframe) {
                    // The middle of a run says nothing.
                    kept[count - 1] = keyframe
                    continue
                }
            }
            kept.append(keyframe)
        }
        var copy = self
        copy.keyframes = kept
        return copy
    }

    /// Whether every keyframe plays one value, `value` but for rounding, whatever the element's start.
    func holdsOnly(_ value: Value) -> Bool {
        guard let first = keyframes.first else { return true }
        return nearlyEqual(first.value, value) && keyframes.allSatisfy { $0.relative == 0 && $0.value == first.value && ($0.shown ?? $0.value) == first.value }
    }
}

extension WebExport.Keyframe {
    /// Whether the browser draws a constant from this keyframe to `next`.
    fileprivate func playsLike(_ next: WebExport.Keyframe) -> Bool {
        value == next.value && relative == next.relative && (shown ?? value) == value && (next.shown ?? next.value) == next.value
    }
}

extension WebExport.Channel {
    /// The channel as the writers write it (docs/exports.md §7): numbers
    /// shortened (``WebExport/Animation/shortened``), holds plain
    /// (``WebExport/Animation/plainHolds``), and a base animation that only
    /// holds its start left out: the element's own value (``start``) says
    /// it, under the layers that repeat (a channel that never changes has
    /// no animation at all).
    var compacted: WebExport.Channel {
        var animations = self.animations.map(\.shortened.plainHolds)
        if let base = animations.first, base.holdsOnly(start) { animations.removeFirst() }
        if animations.allSatisfy({ $0.holdsOnly(start) }) { animations = [] }
        return WebExport.Channel(property: property, variable: variable, kind: kind, start: start, animations: animations,
                                 extent: extent, declared: declared)
    }
}

extension Value {
    /// A number's or point's components rounded by `digits`; a colour as it is.
    func rounded(_ digits: Digits) -> Value {
        switch self {
        case .number(let x): return .number(digits.value(x))
        case .point(let p): return .point(Point(x: digits.value(p.x), y: digits.value(p.y)))
        case .color: return self
        }
    }
}

// MARK: - Helpers

/// `(t − a) / (b − a)`: exact when all three are, then rounded once.
func fraction(_ t: Instant, of a: Instant, _ b: Instant) -> Double {
    if let x = t.exact, let s = a.exact, let e = b.exact, let part = try? x.subtracting(s), let whole = try? e.subtracting(s),
       !whole.isZero, let quotient = try? part.divided(by: whole) {
        return quotient.seconds
    }
    let width = b.seconds - a.seconds
    return width > 0 ? (t.seconds - a.seconds) / width : 0
}

/// The simplest exact time within `tolerance` of `seconds` (a continued
/// fraction's convergent, denominators up to 10⁶), or `nil`. With a
/// tolerance of a few rounding errors, only a time that is such a fraction
/// (as the times a script writes are) passes.
func nearbyTime(_ seconds: Double, within tolerance: Double) -> Time? {
    guard seconds.isFinite, abs(seconds) < 1e9 else { return nil }
    var x = seconds
    // Convergents p/q of the continued fraction.
    var (p0, q0, p1, q1): (Double, Double, Double, Double) = (0, 1, 1, 0)
    for _ in 0..<40 {
        let whole = x.rounded(.down)
        let (p2, q2) = (whole * p1 + p0, whole * q1 + q0)
        guard q2 <= 1e6, abs(p2) < 9e15 else { return nil }
        if abs(p2 / q2 - seconds) <= tolerance {
            return Time(numerator: Int64(p2), denominator: Int64(q2))
        }
        (p0, q0, p1, q1) = (p1, q1, p2, q2)
        let fraction = x - whole
        guard fraction > 1e-15 else { return nil }
        x = 1 / fraction
    }
    return nil
}

/// How many steps a piecewise-constant easing has (`steps` innermost, through
/// compositions and mirrors), or `nil` when it is not piecewise constant.
func stepCount(_ easing: Easing) -> Int? {
    var current = easing
    while true {
        if case .steps(let count, _) = current.kind { return count }
        if case .composed(_, let inner) = current.kind {
            current = inner
            continue
        }
        if case .mirror(let inner) = current.kind {
            current = inner
            continue
        }
        return nil
    }
}

/// Whether a colour tween's alpha leaves [0, 1] along `progress` (q in [0, 1]).
func colorAlphaEscapes(from: Value, to: Value, progress: (Double) -> Double) -> Bool {
    guard case .color(let a) = from, case .color(let b) = to, a.alpha != b.alpha else { return false }
    for index in 0...256 {
        let p = progress(Double(index) / 256)
        let alpha = a.alpha + (b.alpha - a.alpha) * p
        if alpha < 0 || alpha > 1 { return true }
    }
    return false
}

func clampUnit(_ p: Double) -> Double {
    p < 0 ? 0 : (p > 1 ? 1 : p)
}

