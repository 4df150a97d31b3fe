// The baseline of issue 23: the talk's own representation of an animation,
// a function of time, with `;` and `||` composed as closures the way the
// slides write them. The chain is built as the talk builds it, left-nested
// (`chain = chain ; next`), and sampled at 10 fps; every sample walks the
// closures down the left spine, so N samples cost O(N²) calls in all.

import Animations

/// An animation as the talk defines it: a duration and a function of time.
struct ClosureAnimation<A> {
    let duration: Double
    let run: (Double) -> A
}

/// `a ; b`: `a`, then `b` shifted by `a`'s duration.
func sequence<A>(_ a: ClosureAnimation<A>, _ b: ClosureAnimation<A>) -> ClosureAnimation<A> {
    ClosureAnimation(duration: a.duration + b.duration) { t in
        t < a.duration ? a.run(t) : b.run(t - a.duration)
    }
}

/// `a || b`: both at once, each held at its end once it is over.
func parallel<A, B>(_ a: ClosureAnimation<A>, _ b: ClosureAnimation<B>) -> ClosureAnimation<(A, B)> {
    ClosureAnimation(duration: max(a.duration, b.duration)) { t in
        (a.run(min(t, a.duration)), b.run(min(t, b.duration)))
    }
}

/// A linear tween from `from` to `to` over `duration` seconds.
func closureTween(from: Double, to: Double, duration: Double) -> ClosureAnimation<Double> {
    ClosureAnimation(duration: duration) { t in from + (to - from) * min(max(t / duration, 0), 1) }
}

/// Workload 1 in the talk's representation: N tweens of 0.1 s, 0 → 1 and
/// 1 → 0 alternately, left-nested with `;`, sampled at 10 fps into CSV rows
/// (`t,value`, written by the same formatter as animc's tables) to /dev/null.
func workloadChainClosures(_ n: Int) -> Measurement {
    var measurement = Measurement()
    let chain = measurement.phase("build") { () -> ClosureAnimation<Double> in
        let up = closureTween(from: 0, to: 1, duration: 0.1)
        let down = closureTween(from: 1, to: 0, duration: 0.1)
        var chain = up
        for index in 1..<max(1, n) { chain = sequence(chain, index % 2 == 0 ? up : down) }
        return chain
    }
    // `||` as the slides compose it, checked once (not part of the chain).
    let pair = parallel(closureTween(from: 0, to: 1, duration: 1), closureTween(from: 2, to: 4, duration: 2))
    guard pair.duration == 2, pair.run(1.5) == (1, 3.5) else { fail("closures: `||` broke") }

    let sink = DevNull()
    let frames = n + 1
    var samples: [Double] = []
    measurement.phase("tabulate") {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        out.append(contentsOf: "time,box.x\n".utf8)
        for frame in 0..<frames {
            let t = Double(frame) / 10
            let value = chain.run(min(t, chain.duration))
            if frame == 1 || frame == frames / 2 { samples.append(value) }
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
    measurement.notes.append("the talk's closures, left-nested \(n) deep")
    // Sanity: somewhere inside the chain, the values are those of tween ends.
    guard samples.allSatisfy({ $0 >= 0 && $0 <= 1 }) else { fail("closures: values out of range") }
    return measurement
}
