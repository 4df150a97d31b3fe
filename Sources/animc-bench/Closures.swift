// The baseline of issue 23: the talk's own representation of an animation,
// with `;` and `||` composed as closures the way the slides write them
// ("We use the algebra of datatypes and parametricity"): an enum whose
// runnable case is a duration and a function of *progress* (0…1), `*`
// splitting progress at the ratio of the durations and `+` rescaling each
// side to the longer duration. The chain is built as the talk builds it,
// left-nested (`chain = chain * next`), and sampled at 10 fps; every sample
// walks the closures down the left spine, dividing by a ratio at each level,
// so N samples cost O(N²) calls in all.
//
// An earlier bench measured a variant that takes absolute time instead of
// progress (a compare and a subtraction per level, no division). It is kept
// as `chain-closures-time`, reported beside the slides' form but not a
// target: it is not what the slides write.

import Animations

/// The slides' `Progress`: how far through an animation, 0…1.
typealias Progress = Double

/// The slides' `CommutativeSemigroup`: what `+` needs of the values.
protocol CommutativeSemigroup {
    static func <> (lhs: Self, rhs: Self) -> Self
}

infix operator <> : AdditionPrecedence

/// The slides' `CGFloatAverage`: values that meet in parallel are averaged.
struct Average: CommutativeSemigroup {
    var sum: Double
    var count: Double
    init(_ value: Double) { sum = value; count = 1 }
    init(sum: Double, count: Double) { self.sum = sum; self.count = count }
    var value: Double { sum / count }
    static func <> (lhs: Average, rhs: Average) -> Average {
        Average(sum: lhs.sum + rhs.sum, count: lhs.count + rhs.count)
    }
}

/// An animation as the slides define it: cancelled (`zero`), trivial
/// (`one`), or runnable for a duration with a value at each progress.
enum SlideAnimation<A> {
    case cancelled
    case trivial
    case runnable(duration: Double, value: (Progress) -> A)

    /// The duration, 0 for `one` and `zero`.
    var duration: Double {
        if case .runnable(let duration, _) = self { return duration }
        return 0
    }

    /// The value at `time` seconds from the start, as a driver (a display
    /// link, a frame renderer) asks for it: progress is time over duration.
    func value(at time: Double) -> A? {
        guard case .runnable(let duration, let value) = self else { return nil }
        return value(min(max(time / duration, 0), 1))
    }

    /// `*`, sequence, as the slides write it.
    static func * (lhs: SlideAnimation, rhs: SlideAnimation) -> SlideAnimation {
        switch (lhs, rhs) {
        case (.cancelled, _), (_, .cancelled):
            return .cancelled
        case (.trivial, let x), (let x, .trivial):
            return x
        case (.runnable(let duration1, let value1), .runnable(let duration2, let value2)):
            let sum = duration1 + duration2
            let ratio = duration1 / sum
            return .runnable(duration: sum) { t in
                t <= ratio ? value1(t / ratio) : value2((t - ratio) / (1 - ratio))
            }
        }
    }
}

extension SlideAnimation where A: CommutativeSemigroup {
    /// `+`, parallel, as the slides write it.
    static func + (lhs: SlideAnimation, rhs: SlideAnimation) -> SlideAnimation {
        switch (lhs, rhs) {
        case (.cancelled, .trivial), (.trivial, .cancelled), (.trivial, .trivial):
            return .trivial
        case (.cancelled, .cancelled):
            return .cancelled
        case (.runnable(let duration1, let value1), .runnable(let duration2, let value2)):
            let newDuration = max(duration1, duration2)
            return .runnable(duration: newDuration) { t in
                let a1 = value1(min(1, t * newDuration / duration1))
                let a2 = value2(min(1, t * newDuration / duration2))
                return a1 <> a2
            }
        case (_, .runnable(let d, let v)), (.runnable(let d, let v), _):
            return .runnable(duration: d, value: v)
        }
    }
}

/// The slides' `linear(from:to:in:)`.
func slideLinear(from a: Double, to b: Double, in duration: Double) -> SlideAnimation<Average> {
    .runnable(duration: duration) { p in Average(a + (b - a) * p) }
}

/// The earlier variant: a duration and a function of absolute time.
struct ClosureAnimation<A> {
    let duration: Double
    let run: (Double) -> A
}

/// `a ; b` on absolute time: `a`, then `b` shifted by `a`'s duration.
func sequence<A>(_ a: ClosureAnimation<A>, _ b: ClosureAnimation<A>) -> ClosureAnimation<A> {
    ClosureAnimation(duration: a.duration + b.duration) { t in
        t < a.duration ? a.run(t) : b.run(t - a.duration)
    }
}

/// A linear tween on absolute time.
func closureTween(from: Double, to: Double, duration: Double) -> ClosureAnimation<Double> {
    ClosureAnimation(duration: duration) { t in from + (to - from) * min(max(t / duration, 0), 1) }
}

/// Workload 1 in the talk's representation, as the slides write it: N
/// tweens of 0.1 s, 0 → 1 and 1 → 0 alternately, left-nested with `*`,
/// sampled at 10 fps into CSV rows (`t,value`, written by the same formatter
/// as animc's tables) to /dev/null.
func workloadChainClosures(_ n: Int) -> Measurement {
    var measurement = Measurement()
    let chain = measurement.phase("build") { () -> SlideAnimation<Average> in
        let up = slideLinear(from: 0, to: 1, in: 0.1)
        let down = slideLinear(from: 1, to: 0, in: 0.1)
        var chain = SlideAnimation<Average>.trivial * up
        for index in 1..<max(1, n) { chain = chain * (index % 2 == 0 ? up : down) }
        return chain
    }
    // `+` as the slides compose it, checked once (not part of the chain): at
    // 1.5 s the 1 s tween has ended at 1 and the 2 s one is at 3.5.
    let pair = slideLinear(from: 0, to: 1, in: 1) + slideLinear(from: 2, to: 4, in: 2)
    guard pair.duration == 2, pair.value(at: 1.5)?.value == 2.25 else { fail("closures: `+` broke") }
    let duration = chain.duration
    tabulateClosureChain(n, into: &measurement, note: "the talk's closures as the slides write them, left-nested \(n) deep") { t in
        chain.value(at: t)?.value ?? .nan
    }
    guard abs(duration - Double(n) / 10) < 1e-6 else { fail("closures: the chain's duration is \(duration)") }
    return measurement
}

/// The earlier baseline, not a target: the same chain as functions of
/// absolute time (`t < a.duration ? a.run(t) : b.run(t - a.duration)`).
func workloadChainClosuresTime(_ n: Int) -> Measurement {
    var measurement = Measurement()
    let chain = measurement.phase("build") { () -> ClosureAnimation<Double> in
        let up = closureTween(from: 0, to: 1, duration: 0.1)
        let down = closureTween(from: 1, to: 0, duration: 0.1)
        var chain = up
        for index in 1..<max(1, n) { chain = sequence(chain, index % 2 == 0 ? up : down) }
        return chain
    }
    tabulateClosureChain(n, into: &measurement, note: "closures on absolute time, left-nested \(n) deep") { t in
        chain.run(min(t, chain.duration))
    }
    return measurement
}

/// Samples a chain of N tweens at 10 fps (N + 1 rows) into CSV to /dev/null,
/// and checks a few values against the chain's definition: at frame k the
/// k-th tween has just ended, at 1 after an up tween (k odd) and 0 after a
/// down one.
private func tabulateClosureChain(_ n: Int, into measurement: inout Measurement, note: String,
                                  sample: (Double) -> Double) {
    let sink = DevNull()
    let frames = n + 1
    var checked: [(frame: Int, value: Double)] = []
    measurement.phase("tabulate") {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        out.append(contentsOf: "time,box.x\n".utf8)
        for frame in 0..<frames {
            let t = Double(frame) / 10
            let value = sample(t)
            if frame == 1 || frame == frames / 2 || frame == frames - 1 { checked.append((frame, value)) }
            writeFixed(t, decimals: 1, into: &out)
            out.append(UInt8(ascii: ","))
            writeFixed(value, decimals: 6, into: &out)
            out.append(UInt8(ascii: "\n"))
            if out.count >= 1 << 16 { sink.flush(&out) }
        }
        sink.flush(&out)
    }
    measurement.rows = frames
    measurement.outputBytes = sink.bytes
    measurement.notes.append(note)
    for (frame, value) in checked where frame > 0 {
        let expected: Double = frame % 2 == 1 ? 1 : 0
        guard abs(value - expected) < 1e-6 else { fail("closures: frame \(frame) is \(value), not \(expected)") }
    }
}
