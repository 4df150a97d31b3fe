// The workloads, as run inside a child process (`animc-bench --workload NAME --n N`):
// each generates its input, times the work phase by phase, checks the
// results against hand-derived values, and reports one line to the parent.

import AnimLang
import AnimOutputs
import Animations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What one run of a workload measured.
struct Measurement {
    /// Phases in order: wall and CPU time in milliseconds, and the peak
    /// resident set (VmHWM, KiB) once each has finished.
    var phases: [(name: String, milliseconds: Double, cpuMilliseconds: Double, peakKiB: Int)] = []
    var rows = 0
    var outputBytes = 0
    /// Workload-specific facts worth printing (columns, segments, input size).
    var notes: [String] = []
    /// The peak resident set before the first phase (the generated input included).
    let startKiB = peakResidentKiB()

    var totalMilliseconds: Double { phases.reduce(0) { $0 + $1.milliseconds } }
    var totalCPUMilliseconds: Double { phases.reduce(0) { $0 + $1.cpuMilliseconds } }

    /// Runs `body` as the phase `name`.
    mutating func phase<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        let start = now(), cpuStart = cpuNow()
        let result = try body()
        let elapsed = milliseconds(from: start, to: now()), cpu = milliseconds(from: cpuStart, to: cpuNow())
        phases.append((name, elapsed, cpu, peakResidentKiB()))
        return result
    }

    /// The line the parent parses:
    /// `result total=… cpu=… rows=… bytes=… start=… hwm=… phases=a:ms:KiB,… notes=…`.
    var line: String {
        let phaseList = phases.map { "\($0.name):\($0.milliseconds):\($0.peakKiB)" }.joined(separator: ",")
        let noteList = notes.joined(separator: ";").replacingSpaces()
        return "result total=\(totalMilliseconds) cpu=\(totalCPUMilliseconds) rows=\(rows) bytes=\(outputBytes) "
            + "start=\(startKiB) hwm=\(peakResidentKiB()) phases=\(phaseList) notes=\(noteList)"
    }
}

extension String {
    func replacingSpaces() -> String { String(map { $0 == " " ? "_" : $0 }) }
}

/// Stops the workload with a loud message and exit status 3.
func fail(_ message: String) -> Never {
    let text = "animc-bench: FAILED: \(message)\n"
    writeAll(2, Array(text.utf8)[...])
    exit(3)
}

/// The CSV sink: every chunk `tabulate` flushes goes to /dev/null, counted.
final class DevNull {
    let descriptor: Int32
    private(set) var bytes = 0

    init() {
        descriptor = open("/dev/null", O_WRONLY)
        if descriptor < 0 { fail("cannot open /dev/null") }
    }

    func flush(_ chunk: inout [UInt8]) {
        writeAll(descriptor, chunk[...])
        bytes += chunk.count
        chunk.removeAll(keepingCapacity: true)
    }
}

/// Every workload the child can run, by name.
let workloads: [String: @Sendable (Int) -> Measurement] = [
    "chain-script": workloadChainScript,
    "chain-lets": workloadChainLets,
    "chain-by-script": workloadChainByScript,
    "repeat-by-script": workloadRepetitionBy,
    "chain-api": workloadChainAPI,
    "chain-closures": workloadChainClosures,
    "chain-closures-time": workloadChainClosuresTime,
    "parallel-script": workloadParallelScript,
    "parallel-api": workloadParallelAPI,
    "repeat-script": workloadRepetition,
    "script-1mb": workloadScript,
    "stagger-script": workloadStagger,
    "overlap-script": workloadOverlap,
]

// MARK: - The script pipeline, as `animc eval` runs it

/// `run` → `compile` → `tabulate` (CSV to /dev/null), phase by phase.
/// `run` compiles the scene itself (its warnings read the compiled scene),
/// so the `compile` phase only takes it from the outcome, as `animc eval` does.
/// Returns the compiled scene for checking afterwards (not timed).
private func evaluateScript(_ text: [UInt8], fps: Int64? = nil, at times: [Time]? = nil,
                            into measurement: inout Measurement) -> CompiledScene {
    let outcome = measurement.phase("run") { () -> Outcome in
        let file = SourceFile(name: "bench.anim", bytes: text)
        return run(file, keepingSyntax: false)   // as `animc eval`: the syntax freed before compiling
    }
    if outcome.hasErrors {
        let file = SourceFile(name: "bench.anim", bytes: text)
        fail("the generated script has errors:\n" + render(outcome.diagnostics, in: file))
    }
    guard outcome.scene != nil else { fail("the generated script has no scene") }
    let compiled = measurement.phase("compile") { () -> CompiledScene? in
        do { return try outcome.compiledScene() } catch { fail("compile: \(error)") }
    }
    guard let compiled else { fail("the generated scene is cancelled") }
    tabulateToDevNull(compiled, initial: outcome.initial, fps: fps, at: times, into: &measurement)
    return compiled
}

/// `tabulate` as CSV into /dev/null, the rows counted.
private func tabulateToDevNull(_ compiled: CompiledScene, initial: [Property: Value] = [:], fps: Int64? = nil,
                               at times: [Time]? = nil, into measurement: inout Measurement) {
    let sink = DevNull()
    measurement.phase("tabulate") {
        if let times {
            tabulate(compiled, initial: initial, at: times, format: .csv, flush: sink.flush)
        } else {
            tabulate(compiled, initial: initial, at: FrameTimes(duration: compiled.duration, fps: fps ?? 10),
                     format: .csv, flush: sink.flush)
        }
    }
    measurement.rows = times?.count ?? FrameTimes(duration: compiled.duration, fps: fps ?? 10).count ?? 0
    measurement.outputBytes = sink.bytes
    measurement.notes.append("\(compiled.properties.count) columns, \(compiled.segmentCount) segments")
}

/// Fails unless `actual` is `expected` (to 1e-9 relative, for sums of means).
private func expect(_ value: Value?, _ expected: Double, _ what: @autoclosure () -> String) {
    let actual = value?.number
    guard let actual, abs(actual - expected) <= 1e-9 * max(1, abs(expected)) else {
        fail("\(what()): expected \(expected), got \(actual.map { "\($0)" } ?? "nothing")")
    }
}

// MARK: - Workload 1: a chain of N tweens on one property, ~N frames

/// At 10 fps every frame falls on a tween boundary (0.1 s each): N + 1 rows.
private let chainFPS: Int64 = 10

private func workloadChainScript(_ n: Int) -> Measurement {
    workloadChain(chainScript(n), n)
}

/// The chain from where it is (`by 1`, `by -1`, …): the same values, so the same check.
private func workloadChainByScript(_ n: Int) -> Measurement {
    workloadChain(chainByScript(n), n)
}

private func workloadChainLets(_ n: Int) -> Measurement {
    workloadChain(chainLetsScript(n), n)
}

/// A chain of `n` tweens as script `text`, evaluated and checked.
private func workloadChain(_ text: [UInt8], _ n: Int) -> Measurement {
    var measurement = Measurement()
    measurement.notes.append("\(text.count) bytes of script")
    let compiled = evaluateScript(text, fps: chainFPS, into: &measurement)
    checkChain(compiled, n)
    return measurement
}

private func workloadChainAPI(_ n: Int) -> Measurement {
    var measurement = Measurement()
    let scene = measurement.phase("build") { () -> Scene in
        do { return try chainScene(n) } catch { fail("build: \(error)") }
    }
    let compiled = measurement.phase("compile") { () -> CompiledScene? in
        do { return try scene.compile() } catch { fail("compile: \(error)") }
    }
    guard let compiled else { fail("the chain is cancelled") }
    tabulateToDevNull(compiled, fps: chainFPS, into: &measurement)
    checkChain(compiled, n)
    return measurement
}

/// Hand-derived: tween k covers [k/10, (k+1)/10] and goes 0 → 1 for even k,
/// 1 → 0 for odd k. At a boundary k/10 the later tween wins (progress 0: its
/// start value); halfway through any tween the value is 0.5; at the end,
/// the last tween's end value.
private func checkChain(_ compiled: CompiledScene, _ n: Int) {
    let box = Property(view: "box", name: "x")
    guard compiled.duration == Time(numerator: Int64(n), denominator: 10) else {
        fail("chain of \(n): duration \(compiled.duration), expected \(n)/10")
    }
    for k in [0, 1, 2, n / 2, n / 2 + 1, n - 1] where k >= 0 && k < n {
        let start = Time(numerator: Int64(k), denominator: 10)!
        expect(compiled.value(of: box, at: start), k % 2 == 0 ? 0 : 1, "chain of \(n), box.x at \(start)")
        let middle = Time(numerator: Int64(2 * k + 1), denominator: 20)!
        expect(compiled.value(of: box, at: middle), 0.5, "chain of \(n), box.x at \(middle)")
    }
    expect(compiled.value(of: box, at: compiled.duration), (n - 1) % 2 == 0 ? 1 : 0, "chain of \(n), box.x at the end")
}

// MARK: - Workload 2: a balanced parallel tree of N tweens over 1,000 properties

/// The longest tween lasts 1 s: at 1000 fps, 1001 rows.
private let parallelFPS: Int64 = 1000

private func workloadParallelScript(_ n: Int) -> Measurement {
    let text = parallelScript(n)
    var measurement = Measurement()
    measurement.notes.append("\(text.count) bytes of script")
    let compiled = evaluateScript(text, fps: parallelFPS, into: &measurement)
    checkParallel(compiled, n)
    return measurement
}

private func workloadParallelAPI(_ n: Int) -> Measurement {
    var measurement = Measurement()
    let scene = measurement.phase("build") { () -> Scene in
        do { return try parallelScene(n) } catch { fail("build: \(error)") }
    }
    let compiled = measurement.phase("compile") { () -> CompiledScene? in
        do { return try scene.compile() } catch { fail("compile: \(error)") }
    }
    guard let compiled else { fail("the tree is cancelled") }
    tabulateToDevNull(compiled, fps: parallelFPS, into: &measurement)
    checkParallel(compiled, n)
    return measurement
}

/// Hand-derived: all K = n/1000 tweens of view v start at 0, so at 0 they
/// tie (progress 0) and show the mean of their start values 0…K−1, (K−1)/2.
/// At 1 s only the 1-second tweens ((k + v) % 10 = 9) are still active, at
/// their end values k + 100 + v % 10; they tie, so the mean of those.
private func checkParallel(_ compiled: CompiledScene, _ n: Int) {
    let perView = n / parallelProperties
    guard compiled.properties.count == min(n, parallelProperties) else {
        fail("parallel tree of \(n): \(compiled.properties.count) properties, expected \(min(n, parallelProperties))")
    }
    guard perView >= 1, n % parallelProperties == 0 else { return }
    guard compiled.duration == .one else { fail("parallel tree of \(n) lasts \(compiled.duration), expected 1") }
    for view in [0, 1, 499, 998, 999] {
        let property = Property(view: "p\(view)", name: "x")
        expect(compiled.value(of: property, at: .zero), Double(perView - 1) / 2, "parallel tree of \(n), \(property) at 0")
        let ends = (0..<perView).filter { ($0 + view) % 10 == 9 }.map { Double($0 + 100 + view % 10) }
        guard !ends.isEmpty else { continue }
        expect(compiled.value(of: property, at: .one), ends.reduce(0, +) / Double(ends.count),
               "parallel tree of \(n), \(property) at 1")
    }
}

// MARK: - Workload 3: (x ; y) ^ 1_000_000_000 at N instants

private func workloadRepetition(_ n: Int) -> Measurement {
    workloadRepetition(n, script: repetitionScript)
}

/// `(by 100 ; by -100) ^ 1e9`: each copy's start read through one copy's map; the same values.
private func workloadRepetitionBy(_ n: Int) -> Measurement {
    workloadRepetition(n, script: repetitionByScript)
}

private func workloadRepetition(_ n: Int, script: String) -> Measurement {
    let samples = repetitionSamples(n)
    var measurement = Measurement()
    let compiled = evaluateScript(Array(script.utf8), at: samples.map(\.time), into: &measurement)
    let ball = Property(view: "ball", name: "x")
    guard compiled.duration == Time(repetitions * 3 / 2) else {
        fail("(x ; y) ^ 1e9 lasts \(compiled.duration), expected 1500000000")
    }
    for sample in samples {
        expect(compiled.value(of: ball, at: sample.time), sample.value, "(x ; y) ^ 1e9, ball.x at \(sample.time)")
    }
    measurement.notes.append("\(samples.count) values checked")
    return measurement
}

// MARK: - Workload 4: parse (+ normalize) a generated 1 MB script

/// Parse, resolve, evaluate, normalize and print a generated script of `n`
/// bytes: what `animc normalize large.anim` does.
func workloadScript(_ n: Int) -> Measurement {
    let text = largeScript(bytes: n)
    var measurement = Measurement()
    let file = measurement.phase("lines") { SourceFile(name: "large.anim", bytes: text) }
    let parsed = measurement.phase("parse") { parse(file) }
    let resolved = measurement.phase("resolve") { resolve(parsed.program, broken: parsed.brokenBindings) }
    let lowering = measurement.phase("lower") { lower(resolved) }
    let evaluation = measurement.phase("evaluate") { evaluate(lowering) }
    let errors = (parsed.diagnostics + resolved.diagnostics + lowering.diagnostics + evaluation.diagnostics).filter { $0.severity == .error }
    if !errors.isEmpty {
        fail("the generated script has errors:\n" + render(Array(errors.prefix(5)), in: file))
    }
    let outcome = Outcome(program: parsed.program, resolved: resolved, target: parsed.program.bindings.last,
                          term: parsed.program.bindings.last.flatMap { lowering.terms[$0.name] },
                          scene: parsed.program.bindings.last.flatMap { evaluation.scenes[$0.name] },
                          initial: resolved.initial, diagnostics: [])
    let normal = measurement.phase("normalize") { () -> NormalForm in
        do { return try normalize(outcome) } catch { fail("normalize: \(error)") }
    }
    let printed = measurement.phase("format") { format(normal.program) }
    guard printed.utf8.count > n / 4, evaluation.scenes.count == resolved.bindings.count else {
        fail("large script: printed \(printed.utf8.count) bytes, evaluated \(evaluation.scenes.count) of \(resolved.bindings.count) bindings")
    }
    measurement.outputBytes = printed.utf8.count
    measurement.notes.append("\(text.count) bytes, \(parsed.program.items.count) items, \(evaluation.scenes.count) scenes")
    return measurement
}

// MARK: - Workload 7: a chain of N parts, each overlapping the chain before it

private func workloadOverlap(_ n: Int) -> Measurement {
    let text = overlapScript(n)
    var measurement = Measurement()
    measurement.notes.append("\(text.count) bytes of script")
    let compiled = evaluateScript(text, fps: chainFPS, into: &measurement)
    checkOverlap(compiled, n)
    return measurement
}

/// Hand-derived (semantics §8.1, §4): part j covers [j/10, j/10 + 0.2] and goes
/// 0 → 1 for even j, 1 → 0 for odd j; the chain lasts (n + 1)/10. At j/10
/// parts j and j − 1 are active and the later start, j, wins with its start
/// value; at j/10 + 1/20 part j is a quarter through: 0.25 (even j) or 0.75.
private func checkOverlap(_ compiled: CompiledScene, _ n: Int) {
    let box = Property(view: "box", name: "x")
    guard compiled.duration == Time(numerator: Int64(n + 1), denominator: 10) else {
        fail("overlap chain of \(n): duration \(compiled.duration), expected \(n + 1)/10")
    }
    for j in [0, 1, 2, n / 2, n / 2 + 1, n - 1] where j >= 0 && j < n {
        let start = Time(numerator: Int64(j), denominator: 10)!
        expect(compiled.value(of: box, at: start), j % 2 == 0 ? 0 : 1, "overlap chain of \(n), box.x at \(start)")
        let quarter = Time(numerator: Int64(2 * j + 1), denominator: 20)!
        expect(compiled.value(of: box, at: quarter), j % 2 == 0 ? 0.25 : 0.75, "overlap chain of \(n), box.x at \(quarter)")
    }
    expect(compiled.value(of: box, at: compiled.duration), (n - 1) % 2 == 0 ? 1 : 0, "overlap chain of \(n), box.x at the end")
}

// MARK: - Workload 6: N views × 20 colour and move tweens, staggered, at 60 fps

/// The frame rate of the stagger workload: what a display shows.
private let staggerFPS: Int64 = 60

private func workloadStagger(_ n: Int) -> Measurement {
    let text = staggerScript(n)
    var measurement = Measurement()
    measurement.notes.append("\(text.count) bytes of script")
    let compiled = evaluateScript(text, fps: staggerFPS, into: &measurement)
    checkStagger(compiled, n)
    return measurement
}

/// Hand-derived: view i's tween k covers `[i/100 + k/10, i/100 + (k+1)/10]`
/// (stagger by first mention, and `let vI` mentions vI first, in order).
/// Halfway through a colour tween (even k), red and blue (both opaque) meet
/// at rgb(127.5 0 127.5); halfway through a move (odd k), (50, 25); at the end,
/// blue and (100, 50). The whole lasts 2 s + (n − 1) × 10 ms.
private func checkStagger(_ compiled: CompiledScene, _ n: Int) {
    let steps = Int64(staggerTweensPerView) * 10 + Int64(n - 1)
    guard compiled.duration == Time(numerator: steps, denominator: 100) else {
        fail("stagger of \(n): duration \(compiled.duration), expected \(steps)/100")
    }
    guard compiled.properties.count == 3 * n else {
        fail("stagger of \(n): \(compiled.properties.count) properties, expected \(3 * n)")
    }
    // (Colour channels are kept on the 0–255 scale.)
    let purple = Value.color(Color(red: 127.5, green: 0, blue: 127.5))
    let blue = Value.color(Color(red: 0, green: 0, blue: 255))
    for view in Set([0, 1, n / 2, n - 1]) {
        let color = Property(view: "v\(view)", name: "color")
        let x = Property(view: "v\(view)", name: "x"), y = Property(view: "v\(view)", name: "y")
        for k in [0, 1, 10, 11, staggerTweensPerView - 1] {
            // i/100 + k/10 + 1/20 = (i + 10k + 5) / 100
            let middle = Time(numerator: Int64(view + 10 * k + 5), denominator: 100)!
            if k % 2 == 0 {
                guard compiled.value(of: color, at: middle) == purple else {
                    fail("stagger of \(n): \(color) at \(middle) is \(compiled.value(of: color, at: middle).map { "\($0)" } ?? "nothing")")
                }
            } else {
                expect(compiled.value(of: x, at: middle), 50, "stagger of \(n), \(x) at \(middle)")
                expect(compiled.value(of: y, at: middle), 25, "stagger of \(n), \(y) at \(middle)")
            }
        }
        guard compiled.value(of: color, at: compiled.duration) == blue else { fail("stagger of \(n): \(color) does not end blue") }
        expect(compiled.value(of: x, at: compiled.duration), 100, "stagger of \(n), \(x) at the end")
    }
}
