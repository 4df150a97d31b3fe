// The bench's inputs, generated: `.anim` script text and the equivalent
// scenes built through the Scene API. Deterministic, so every run measures
// the same work.

import AnimLang
import AnimOutputs
import Animations

/// Appends a non-negative whole number in decimal.
private func appendInteger(_ value: Int, to text: inout [UInt8]) {
    writeInteger(Int64(value), into: &text)
}

/// A tenth of a second, exactly.
let tenth = Time(numerator: 1, denominator: 10)!

// MARK: - Workload 1: a chain of tweens on one property

/// `let final = animate box.x from 0 to 1 in 0.1s ; animate box.x from 1 to 0 in 0.1s ; …`:
/// one flat `;` chain of `n` tweens on `box.x`, 0.1 s each, alternating 0 → 1 and 1 → 0.
/// (The parser turns a chain of one operator into one n-ary node; nesting
/// it with parentheses is capped at ``maxExpressionNesting`` = 256 levels.)
func chainScript(_ n: Int) -> [UInt8] {
    chainScript(n, tweens: ("animate box.x from 0 to 1 in 0.1s", "animate box.x from 1 to 0 in 0.1s"))
}

/// The same chain written from where it is (semantics §7.1): `by 1`, `by -1`,
/// … from 0 goes through the very values of ``chainScript(_:)``.
func chainByScript(_ n: Int) -> [UInt8] {
    chainScript(n, tweens: ("animate box.x by 1 in 0.1s", "animate box.x by -1 in 0.1s"))
}

private func chainScript(_ n: Int, tweens: (even: String, odd: String)) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(40 * n + 64)
    text.append(contentsOf: "# a chain of \(n) tweens on box.x, 0.1s each\nlet final =\n    ".utf8)
    for index in 0..<n {
        if index > 0 { text.append(contentsOf: "\n  ; ".utf8) }
        text.append(contentsOf: (index % 2 == 0 ? tweens.even : tweens.odd).utf8)
    }
    text.append(UInt8(ascii: "\n"))
    return text
}

/// `animate box.x from 0 to 1 in 0.2s ; animate box.x from 1 to 0 in 0.2s
/// overlapping by 0.1s ; …`: a `;` chain of `n` parts of 0.2 s on `box.x`,
/// each after the first starting 0.1 s before the chain so far ends
/// (semantics §8.1), so part j covers [j/10, j/10 + 0.2].
func overlapScript(_ n: Int) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(60 * n + 64)
    text.append(contentsOf: "# a chain of \(n) parts on box.x, 0.2s each, each overlapping the chain by 0.1s\nlet final =\n    ".utf8)
    for index in 0..<n {
        if index > 0 { text.append(contentsOf: "\n  ; ".utf8) }
        text.append(contentsOf: (index % 2 == 0 ? "animate box.x from 0 to 1 in 0.2s" : "animate box.x from 1 to 0 in 0.2s").utf8)
        if index > 0 { text.append(contentsOf: " overlapping by 0.1s".utf8) }
    }
    text.append(UInt8(ascii: "\n"))
    return text
}

/// The same chain left-nested through bindings, the talk's loop
/// `x = x ; next` written as a script: `let c1 = c0 ; animate …`.
func chainLetsScript(_ n: Int) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(56 * n + 64)
    text.append(contentsOf: "let c0 = animate box.x from 0 to 1 in 0.1s\n".utf8)
    for index in 1..<max(1, n) {
        text.append(contentsOf: "let c".utf8)
        appendInteger(index, to: &text)
        text.append(contentsOf: " = c".utf8)
        appendInteger(index - 1, to: &text)
        text.append(contentsOf: (index % 2 == 0 ? " ; animate box.x from 0 to 1 in 0.1s\n" : " ; animate box.x from 1 to 0 in 0.1s\n").utf8)
    }
    return text
}

/// The chain through the Scene API, in the talk's style: a Swift loop that
/// keeps sequencing onto what it has, so the tree is left-nested `n` deep.
func chainScene(_ n: Int) throws(AnimationError) -> Scene {
    let box = Property(view: "box", name: "x")
    let up = try Scene.tween(box, from: 0, to: 1, duration: tenth)
    let down = try Scene.tween(box, from: 1, to: 0, duration: tenth)
    var scene = up
    for index in 1..<max(1, n) {
        scene = try scene.then(index % 2 == 0 ? up : down)
    }
    return scene
}

// MARK: - Workload 2: a balanced parallel tree over 1,000 properties

/// How many properties the parallel workload spreads its tweens over.
let parallelProperties = 1_000

/// Tween `index` of the parallel workload: view `p{index % 1000}`, property
/// `x`; the `k`-th tween on a view (`k = index / 1000`) lasts
/// `0.1·(1 + (k + view) % 10)` s and goes from `k` to `k + 100 + view % 10`,
/// so the tweens sharing a property overlap and end at different times, and
/// for every N ≥ 1000 some tween lasts 1 s: the table always has 1,001 rows.
struct ParallelTween {
    let view: Int
    let tenths: Int
    let from: Int
    let to: Int

    init(_ index: Int) {
        view = index % parallelProperties
        let k = index / parallelProperties
        tenths = 1 + (k + view) % 10
        from = k
        to = k + 100 + view % 10
    }
}

/// `((t0 || t1) || (t2 || t3)) || …`: a balanced tree of `n` tweens, fully
/// parenthesised (depth ⌈log2 n⌉, within the parser's nesting limit).
func parallelScript(_ n: Int) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(48 * n + 64)
    text.append(contentsOf: "# a balanced parallel tree of \(n) tweens over \(parallelProperties) properties\nlet final = ".utf8)
    // Iterative, with an explicit stack: a range of tweens to print, or a
    // piece of punctuation to emit once the range before it is done.
    enum Step { case tweens(Int, Int), text(String) }
    var stack: [Step] = [.tweens(0, n)]
    while let step = stack.popLast() {
        switch step {
        case .text(let piece):
            text.append(contentsOf: piece.utf8)
        case .tweens(let low, let high) where high - low == 1:
            let tween = ParallelTween(low)
            text.append(contentsOf: "animate p".utf8)
            appendInteger(tween.view, to: &text)
            text.append(contentsOf: ".x from ".utf8)
            appendInteger(tween.from, to: &text)
            text.append(contentsOf: " to ".utf8)
            appendInteger(tween.to, to: &text)
            text.append(contentsOf: (tween.tenths == 10 ? " in 1s" : " in 0.\(tween.tenths)s").utf8)
        case .tweens(let low, let high):
            let middle = (low + high) / 2
            text.append(UInt8(ascii: "("))
            stack.append(.text(")"))
            stack.append(.tweens(middle, high))
            stack.append(.text(" || "))
            stack.append(.tweens(low, middle))
        }
    }
    text.append(UInt8(ascii: "\n"))
    return text
}

/// The same tree through the Scene API: `Scene.parallel` of pairs, recursively.
func parallelScene(_ n: Int) throws(AnimationError) -> Scene {
    var level: [Scene] = []
    level.reserveCapacity(n)
    for index in 0..<n {
        let tween = ParallelTween(index)
        level.append(try Scene.tween(Property(view: "p\(tween.view)", name: "x"), from: Double(tween.from), to: Double(tween.to),
                                     duration: Time(numerator: Int64(tween.tenths), denominator: 10)!))
    }
    // Pair up adjacent scenes, level by level, the same split as the script's
    // halves when n is a power of two.
    while level.count > 1 {
        var next: [Scene] = []
        next.reserveCapacity((level.count + 1) / 2)
        var index = 0
        while index + 1 < level.count {
            next.append(Scene.parallel([level[index], level[index + 1]]))
            index += 2
        }
        if index < level.count { next.append(level[index]) }
        level = next
    }
    return level.first ?? .zero
}

// MARK: - Workload 3: a billion repetitions

/// `(x ; y) ^ 1000000000` with `x` = `ball.x` 0 → 100 over 1 s and `y` =
/// 100 → 0 over 0.5 s: one copy lasts 1.5 s, the whole 1.5e9 s.
let repetitionScript = """
    let x = animate ball.x from 0 to 100
    let y = animate ball.x from 100 to 0 in 0.5s
    let final = (x ; y) ^ 1000000000

    """

/// ``repetitionScript`` from where it is: `by 100 ; by -100`, from 0, takes
/// ball.x through the same values in every copy (each copy starts where the
/// last one left it, 0).
let repetitionByScript = """
    let x = animate ball.x by 100
    let y = animate ball.x by -100 in 0.5s
    let final = (x ; y) ^ 1000000000

    """

let repetitions: Int64 = 1_000_000_000

/// An instant into copy `copy` (0-based), `phaseTwentieths`/20 s after the
/// copy starts, and the value `ball.x` must show there, derived by hand:
///
/// * phase 0: `x` of this copy starts (latest start wins over the previous
///   copy's `y` ending): 0.
/// * 0.25 and 0.5: `x` at progress 0.25, 0.5: 25, 50.
/// * 1: `x` ends and `y` starts; `y` started later: 100.
/// * 1.25: `y` at progress 0.5: 50. 1.4: progress 0.8: 20.
/// * the very end, 1.5e9 s: `y` of the last copy has ended: 0.
struct ExpectedSample {
    let time: Time
    let value: Double
}

private let phases: [(twentieths: Int64, value: Double)] = [(0, 0), (5, 25), (10, 50), (20, 100), (25, 50), (28, 20)]

/// `count` instants spread over the billion copies, with their hand-derived values.
func repetitionSamples(_ count: Int) -> [ExpectedSample] {
    var samples: [ExpectedSample] = []
    for index in 0..<count {
        // The last instant is the very end; the others spread over all copies.
        if index == count - 1, count > 1 {
            samples.append(ExpectedSample(time: Time(repetitions * 3 / 2), value: 0))
            continue
        }
        let copy = Int64(index) * (repetitions / Int64(max(count, 2))) + Int64(index) * 7
        let phase = phases[index % phases.count]
        // (copy · 1.5 + phase/20) s = (copy · 30 + phase) / 20.
        samples.append(ExpectedSample(time: Time(numerator: copy * 30 + phase.twentieths, denominator: 20)!, value: phase.value))
    }
    return samples
}

// MARK: - Workload 4: a large, varied script

/// A script of at least `bytes` bytes built from groups of bindings that use
/// every kind of form: views with initial values, each verb, easings (named,
/// parameterised, `cubic-bezier`, `steps`, `compose`), every modifier,
/// `||`/`+`, `;`/`*`, `^`, arithmetic in numbers, comments, and references to
/// earlier bindings of the same group. The last binding runs every group in
/// parallel.
func largeScript(bytes target: Int) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(target + 4096)
    text.append(contentsOf: "# generated by animc-bench: a large script of independent groups\n\n".utf8)
    var group = 0
    var finals: [String] = []
    while text.count < target {
        let g = "g\(group)"
        let v = "v\(group)"
        let lines = [
            "# group \(group)",
            "view \(v) opacity 0 radius \(10 + group % 7) rotation -90",
            "let \(g)a = fadeIn \(v) in 300ms with ease-out",
            "let \(g)b = grow \(v) from radius \(10 + group % 7) to \(20 + group % 13) with an ease-in-out",
            "let \(g)c = rotate \(v) from -90 to 2*pi radians with a high ease-out",
            "let \(g)d = (\(g)a || \(g)b) ; \(g)c reversed",
            "let \(g)e = \(g)d looped twice delayed by 0.25s",
            "let \(g)f = animate \(v).y from 0 to -\(group % 50 + 1) in 0.4s with cubic-bezier(0.1, 0.7, 1, 0.1)",
            "let \(g)g = (\(g)f ; wait 100ms) ^ 3 || scale \(v) from 1 to 1.1 in 150ms with steps(4, jump-start)",
            "let \(g)h = fade \(v) from 1 to 0.25 with ease-out-back ; \(g)e repeated 2 times",
            "let \(g)i = (\(g)h + \(g)g) * fadeOut \(v) in 200ms  // both, then out",
            "let \(g)j = animate \(v).x from (1 + 2) * 3 to 4 / 8 with compose(ease-in-quad, steps(2)) ; wait 1.5s",
            "let \(g)k = (\(g)i ; \(g)j) in 2s with ease-in-out",
            "",
        ]
        for line in lines {
            text.append(contentsOf: line.utf8)
            text.append(UInt8(ascii: "\n"))
        }
        finals.append("\(g)k")
        group += 1
    }
    text.append(contentsOf: "let final =\n     ".utf8)
    text.append(contentsOf: finals.joined(separator: "\n  || ").utf8)
    text.append(UInt8(ascii: "\n"))
    return text
}

// MARK: - Workload 5: start-up

/// The 3-line script `animc eval` runs for the start-up measurement.
let startupScript = """
    let left = shrink circle from radius 100 to 10 with an ease-in-out
    let right = rotate square from 0 to 2*pi radians with a high ease-out
    let final = fadeIn all views * ((left + right) looped once)

    """

// MARK: - Workload 6: N views × 20 colour and move tweens, staggered

/// Tweens per view in the stagger workload: colour on even k, move on odd k.
let staggerTweensPerView = 20
/// Each tween lasts 100 ms; view i starts `i × 10 ms` later.
let staggerStepMilliseconds = 10

/// `let vI = color vI from red to blue in 100ms ; move vI from (0, 0) to (100, 50) in 100ms ; …`
/// for I < n, then `let final = (v0 || v1 || …) staggered by 10ms`.
func staggerScript(_ n: Int) -> [UInt8] {
    var text: [UInt8] = []
    text.reserveCapacity(n * (staggerTweensPerView * 50 + 32) + 64)
    text.append(contentsOf: "# \(n) views × \(staggerTweensPerView) colour and move tweens, staggered\n".utf8)
    for view in 0..<n {
        text.append(contentsOf: "let v".utf8)
        appendInteger(view, to: &text)
        text.append(contentsOf: " =".utf8)
        for k in 0..<staggerTweensPerView {
            if k > 0 { text.append(contentsOf: " ;".utf8) }
            text.append(contentsOf: (k % 2 == 0 ? " color v" : " move v").utf8)
            appendInteger(view, to: &text)
            text.append(contentsOf: (k % 2 == 0 ? " from #ff0000 to #0000ff in 100ms" : " from (0, 0) to (100, 50) in 100ms").utf8)
        }
        text.append(UInt8(ascii: "\n"))
    }
    text.append(contentsOf: "let final = (".utf8)
    for view in 0..<n {
        if view > 0 { text.append(contentsOf: " || ".utf8) }
        text.append(UInt8(ascii: "v"))
        appendInteger(view, to: &text)
    }
    text.append(contentsOf: ") staggered by \(staggerStepMilliseconds)ms\n".utf8)
    return text
}
