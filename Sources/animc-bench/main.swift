// animc-bench: how animc scales (issue 5). Generates its own inputs, runs
// every workload in a child process of its own (so peak memory is that
// workload's alone, read from `wait4`), prints a table and exits non-zero
// when a target is missed.
//
//   swift run -c release --scratch-path .build-bench animc-bench [options]
//   bash bench/run.sh            # builds, runs, writes bench/results.txt
//
// Options:
//   --repeat R        runs per workload (default 3; the fastest counts)
//   --sizes A,B,...   N for workloads 1 and 2 (default 10000,20000,40000,80000)
//   --only W1,W2      only workloads whose name contains one of these
//   --animc PATH      the animc binary (default: next to this executable)
//   --hello PATH      a hello world built with `swiftc -O` (default: built
//                     from bench/hello/main.swift into a temporary directory)
//   --callgrind-dir D keep the callgrind output files in D
//   --no-callgrind    skip instruction counts
//   --instructions    also count instructions (callgrind) for workloads 1 and 2
//                     at two small sizes each: a growth factor that does not
//                     depend on the load on the machine (a few minutes)
//   --startup-runs K  runs of the start-up comparison (default 20; the median counts)
//   --workload W --n N   (internal) run one workload in this process
//
// Workloads: chain-script, chain-lets, chain-api, chain-animc, chain-closures, chain-closures-time (1);
// parallel-script, parallel-api (2); repeat-script, repeat-animc (3);
// script-1mb (4); startup (5); stagger-script (6); overlap-script (7). Targets are listed at the end of the report.

import AnimLang
import AnimOutputs
import Animations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Child mode

let arguments = Array(CommandLine.arguments.dropFirst())

if let index = arguments.firstIndex(of: "--workload"), index + 1 < arguments.count {
    let name = arguments[index + 1]
    let n = arguments.firstIndex(of: "--n").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil } ?? 10_000
    guard let workload = workloads[name] else { fail("unknown workload \(name)") }
    let measurement = workload(n)
    writeAll(1, Array((measurement.line + "\n").utf8)[...])
    // Like animc, exit without tearing the data structures down.
    exit(0)
}

// MARK: - Script mode

// `animc-bench --write-script KIND N`: the generated script of a workload on
// standard output (chain, chain-by, chain-lets, parallel, stagger, large, and
// startup, the talk's three lines, whatever N), so that `bench/same-outputs.sh`,
// `bench/instructions.sh` and `scripts/startup-order.sh` run `animc` on exactly
// what the bench measures.
if let index = arguments.firstIndex(of: "--write-script"), index + 2 < arguments.count,
   let n = Int(arguments[index + 2]) {
    let generators: [String: (Int) -> [UInt8]] = [
        "chain": chainScript, "chain-by": chainByScript, "chain-lets": chainLetsScript,
        "parallel": parallelScript, "stagger": staggerScript, "large": { largeScript(bytes: $0) }, "overlap": overlapScript,
        "startup": { _ in Array(startupScript.utf8) },
    ]
    guard let generate = generators[arguments[index + 1]] else { fail("unknown script \(arguments[index + 1])") }
    let text = generate(n)
    _ = writeAll(1, text[...])
    exit(0)
}

// MARK: - Options

struct Options {
    var repeatCount = 3
    var sizes = [10_000, 20_000, 40_000, 80_000]
    var only: [String] = []
    var animc: String?
    var hello: String?
    var callgrindDirectory: String?
    var callgrind = true
    var instructions = false
    var startupRuns = 20

    init(_ list: [String]) {
        var rest = list[...]
        func value(_ option: String) -> String {
            guard let next = rest.popFirst() else { usage("\(option) needs a value") }
            return next
        }
        while let option = rest.popFirst() {
            switch option {
            case "--repeat": repeatCount = max(1, Int(value(option)) ?? 3)
            case "--sizes": sizes = value(option).split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
            case "--only": only = value(option).split(separator: ",").map(String.init)
            case "--animc": animc = value(option)
            case "--hello": hello = value(option)
            case "--callgrind-dir": callgrindDirectory = value(option)
            case "--no-callgrind": callgrind = false
            case "--instructions": instructions = true
            case "--startup-runs": startupRuns = max(1, Int(value(option)) ?? 20)
            case "--help", "-h":
                print("""
                    usage: animc-bench [--repeat R] [--sizes A,B,...] [--only W1,W2] [--animc PATH] [--hello PATH]
                                       [--callgrind-dir D] [--no-callgrind] [--instructions] [--startup-runs K]
                    workloads: chain-script chain-by-script chain-lets chain-api chain-animc chain-closures chain-closures-time
                               parallel-script parallel-api
                               repeat-script repeat-animc script-1mb stagger-script overlap-script startup
                    """)
                exit(0)
            default: usage("unknown option \(option)")
            }
        }
        if sizes.isEmpty { usage("--sizes needs at least one size") }
    }

    func wants(_ workload: String) -> Bool {
        only.isEmpty || only.contains { workload.contains($0) }
    }
}

func usage(_ message: String) -> Never {
    writeAll(2, Array("animc-bench: \(message)\n".utf8)[...])
    exit(2)
}

let options = Options(arguments)
let bench = executablePath()
let binDirectory = String(bench[..<(bench.lastIndex(of: "/") ?? bench.endIndex)])
let animc = options.animc ?? binDirectory + "/animc"
let scratch = temporaryDirectory()

// MARK: - Rows

/// One line of the table: the best of the runs of one workload at one size.
struct Row {
    let workload: String
    let n: Int
    var rows = 0
    /// The work itself, measured inside the child (for `*-animc`, the whole process).
    var wall = Double.infinity
    /// The CPU time of the same work (immune to waiting for a busy CPU).
    var cpu = Double.infinity
    /// The child from spawn to exit, start-up included.
    var process = Double.infinity
    var peakKiB = 0
    /// Bytes of CSV written and the fastest tabulate phase (ms), when the workload reports them.
    var outputBytes = 0
    var tabulateMilliseconds = Double.infinity
    var runs = 0
    var phases = ""
    var notes = ""
    var growth: Double?
    var failure: String?

    var peakMB: Double { Double(peakKiB) / 1024 }
    /// The highest 1-minute load average seen when a run started (above the
    /// number of cores, the machine was busy with other work too).
    var load = 0.0

    var finished: Bool { failure != nil || runs >= options.repeatCount }
}

var table: [Row] = []

/// The 1-minute load average.
func loadAverage() -> Double {
    guard let text = readWholeFile("/proc/loadavg") else { return 0 }
    return String(decoding: text, as: UTF8.self).split(separator: " ").first.flatMap { Double($0) } ?? 0
}

/// One more run of `row`'s workload in a child process of its own.
func runInChild(_ row: inout Row) {
    row.load = max(row.load, loadAverage())
    let child = runChild(bench, ["--workload", row.workload, "--n", "\(row.n)"])
    guard child.succeeded, let line = child.outputText.split(separator: "\n").first(where: { $0.hasPrefix("result ") }) else {
        row.failure = "exit \(child.status): \(child.errorText.prefix(2000).trimmingTrailingNewlines())"
        return
    }
    var fields: [Substring: Substring] = [:]
    for field in line.split(separator: " ").dropFirst() {
        guard let equals = field.firstIndex(of: "=") else { continue }
        fields[field[..<equals]] = field[field.index(after: equals)...]
    }
    let wall = fields["total"].flatMap { Double($0) } ?? .infinity
    if wall < row.wall {
        row.wall = wall
        // "name:ms:KiB" per phase → "name 12.3 (40 MB)": time, and the peak so far.
        let start = fields["start"].flatMap { Int($0) } ?? 0
        row.phases = "input \(start / 1024) MB; " + (fields["phases"] ?? "").split(separator: ",").map { phase -> String in
            let parts = phase.split(separator: ":")
            guard parts.count == 3 else { return String(phase) }
            return "\(parts[0]) \(fixed(Double(parts[1]) ?? 0, 1)) (\((Int(parts[2]) ?? 0) / 1024) MB)"
        }.joined(separator: ", ")
        row.notes = String(fields["notes"] ?? "").replacingOccurrencesOfUnderscores()
    }
    row.cpu = min(row.cpu, fields["cpu"].flatMap { Double($0) } ?? .infinity)
    row.outputBytes = fields["bytes"].flatMap { Int($0) } ?? 0
    for phase in (fields["phases"] ?? "").split(separator: ",") where phase.hasPrefix("tabulate:") {
        let parts = phase.split(separator: ":")
        if parts.count == 3, let ms = Double(parts[1]) { row.tabulateMilliseconds = min(row.tabulateMilliseconds, ms) }
    }
    row.rows = fields["rows"].flatMap { Int($0) } ?? 0
    row.process = min(row.process, child.wallMilliseconds)
    row.peakKiB = max(row.peakKiB, child.maxResidentKiB)
    row.runs += 1
}

/// One more run of the real `animc` binary: `animc eval SCRIPT arguments`.
/// `check` sees its standard output and returns a problem, if any.
func runAnimc(_ row: inout Row, script path: String, _ arguments: [String], check: ((String) -> String?)? = nil) {
    row.load = max(row.load, loadAverage())
    let child = runChild(animc, ["eval", path] + arguments, stdout: check == nil ? .devNull : .capture)
    guard child.succeeded else {
        row.failure = "animc exit \(child.status): \(child.errorText.prefix(2000).trimmingTrailingNewlines())"
        return
    }
    if let check, let problem = check(child.outputText) {
        row.failure = problem
        return
    }
    row.wall = min(row.wall, child.wallMilliseconds)
    row.cpu = min(row.cpu, child.cpuMilliseconds)
    row.process = row.wall
    row.peakKiB = max(row.peakKiB, child.maxResidentKiB)
    row.runs += 1
}

/// Runs every row until it has its runs, round-robin: one run of each size,
/// then the next round, so a burst of load elsewhere on the machine lands on
/// one run of several sizes rather than on every run of one size.
func measure(_ rows: [Row], _ runOnce: (inout Row) -> Void) -> [Row] {
    var rows = rows
    while let _ = rows.first(where: { !$0.finished }) {
        for index in rows.indices where !rows[index].finished {
            progress("\(rows[index].workload) N=\(rows[index].n), run \(rows[index].runs + 1)")
            runOnce(&rows[index])
        }
    }
    return rows
}

extension Substring {
    func trimmingTrailingNewlines() -> Substring {
        var text = self
        while text.last == "\n" { text = text.dropLast() }
        return text
    }
}

extension String {
    func replacingOccurrencesOfUnderscores() -> String { String(map { $0 == "_" ? " " : $0 }) }
}

/// `value` with `decimals` places.
func fixed(_ value: Double, _ decimals: Int) -> String {
    var bytes: [UInt8] = []
    writeFixed(value, decimals: decimals, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

/// `value` with thousands separators.
func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    var out = ""
    for (index, digit) in digits.enumerated() {
        if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
        out.append(digit)
    }
    return out
}

func progress(_ text: String) {
    writeAll(2, Array("  … \(text)\n".utf8)[...])
}

// MARK: - Run the workloads

/// Rows that need the animc binary run only when there is one.
let haveAnimc = isExecutable(animc)
if !haveAnimc {
    progress("no animc binary at \(animc): skipping chain-animc, repeat-animc and start-up "
        + "(build it with `swift build -c release`, or pass --animc PATH)")
}

for name in ["chain-script", "chain-by-script", "chain-lets", "chain-api", "chain-animc", "chain-closures", "chain-closures-time", "parallel-script", "parallel-api"]
where options.wants(name) && (haveAnimc || name != "chain-animc") {
    // The talk's closures cost O(N²) and recurse N deep: measured up to 20k only.
    let rows = options.sizes.filter { !name.hasPrefix("chain-closures") || $0 <= 20_000 }.map { Row(workload: name, n: $0) }
    if name == "chain-animc" {
        // End to end through the real binary: `animc eval chain.anim --fps 10 --format csv > /dev/null`.
        var scripts: [Int: String] = [:]
        for n in options.sizes {
            scripts[n] = "\(scratch)/chain-\(n).anim"
            writeWholeFile(scripts[n]!, chainScript(n))
        }
        table += measure(rows) { row in
            runAnimc(&row, script: scripts[row.n]!, ["--fps", "10", "--format", "csv"])
            row.rows = row.n + 1
            row.notes = "the animc binary"
        }
    } else {
        table += measure(rows, runInChild)
    }
}
if options.wants("repeat") {
    table += measure([Row(workload: "repeat-script", n: 1000), Row(workload: "repeat-script", n: 3),
                      Row(workload: "repeat-by-script", n: 1000)], runInChild)
}
if options.wants("repeat") && haveAnimc {
    // End to end through the real binary: `animc eval FILE --at t1,t2,t3`, values checked.
    let samples = repetitionSamples(3)
    let path = "\(scratch)/repeat.anim"
    writeWholeFile(path, Array(repetitionScript.utf8))
    let at = samples.map { "\($0.time)" }.joined(separator: ",")
    table += measure([Row(workload: "repeat-animc", n: 3)]) { row in
        runAnimc(&row, script: path, ["--at", at, "--format", "csv"]) { output in
            let lines = output.split(separator: "\n").dropFirst()
            guard lines.count == samples.count else { return "animc printed \(lines.count) rows for \(samples.count) instants" }
            for (line, sample) in zip(lines, samples) {
                let value = line.split(separator: ",").last.flatMap { Double($0) }
                guard value == sample.value else {
                    return "(x ; y) ^ 1e9 through animc: ball.x at \(sample.time) is \(line), expected \(sample.value)"
                }
            }
            return nil
        }
        row.rows = samples.count
        row.notes = "the animc binary, --at \(at)"
    }
}
if options.wants("stagger") {
    table += measure([Row(workload: "stagger-script", n: 1000)], runInChild)
}
if options.wants("script-1mb") {
    table += measure([Row(workload: "script-1mb", n: 1 << 20)], runInChild)
}
if options.wants("overlap") {
    table += measure([Row(workload: "overlap-script", n: 20_000)], runInChild)
}

// Growth between successive sizes, per doubling, in CPU time: on a shared
// machine wall time also counts the time spent waiting for a core.
for index in table.indices where index > 0 {
    let previous = table[index - 1]
    guard previous.workload == table[index].workload, previous.n < table[index].n,
          previous.cpu.isFinite, table[index].cpu.isFinite, previous.cpu > 0 else { continue }
    let doublings = log2(Double(table[index].n) / Double(previous.n))
    table[index].growth = pow(table[index].cpu / previous.cpu, 1 / doublings)
}

// MARK: - Start-up

struct Startup {
    var animcMedian = 0.0
    var helloMedian: Double?
    var animcInstructions: Int?
    var helloInstructions: Int?
    var animcPeakKiB = 0
    var notes: [String] = []

    var ratio: Double? {
        guard let animc = animcInstructions, let hello = helloInstructions, hello > 0 else { return nil }
        return Double(animc) / Double(hello)
    }
}

/// The median wall time of `runs` runs.
func medianWall(_ path: String, _ arguments: [String], runs: Int) -> (Double, Int)? {
    var times: [Double] = []
    var peak = 0
    for _ in 0..<runs {
        let child = runChild(path, arguments, stdout: .devNull)
        guard child.succeeded else { return nil }
        times.append(child.wallMilliseconds)
        peak = max(peak, child.maxResidentKiB)
    }
    times.sort()
    let middle = times.count / 2
    return (times.count % 2 == 1 ? times[middle] : (times[middle - 1] + times[middle]) / 2, peak)
}

/// Instructions executed by `path arguments`, counted by callgrind (`Collected : N`).
func instructions(_ path: String, _ arguments: [String], label: String) -> Int? {
    guard let valgrind = which("valgrind") else { return nil }
    let output = options.callgrindDirectory.map { "\($0)/callgrind.out.\(label)" } ?? "\(scratch)/callgrind.out.\(label)"
    let child = runChild(valgrind, ["--tool=callgrind", "--callgrind-out-file=\(output)", path] + arguments, stdout: .devNull)
    guard child.succeeded else { return nil }
    for line in child.errorText.split(separator: "\n") {
        if let range = line.firstRange(of: "Collected : ") {
            return Int(line[range.upperBound...].filter(\.isNumber))
        }
    }
    return nil
}

/// The hello world to compare with: `--hello`, or bench/hello/main.swift built with `swiftc -O`.
func helloWorld() -> String? {
    if let hello = options.hello { return isExecutable(hello) ? hello : nil }
    guard access("bench/hello/main.swift", R_OK) == 0, let swiftc = which("swiftc") else { return nil }
    let binary = "\(scratch)/hello"
    let build = runChild(swiftc, ["-O", "bench/hello/main.swift", "-o", binary], stdout: .devNull)
    return build.succeeded ? binary : nil
}

var startup: Startup?
if options.wants("startup") && haveAnimc {
    progress("start-up: animc eval on a 3-line script, \(options.startupRuns) runs")
    var result = Startup()
    let script = "\(scratch)/three-lines.anim"
    writeWholeFile(script, Array(startupScript.utf8))
    let animcArguments = ["eval", script, "--format", "csv"]
    if let (median, peak) = medianWall(animc, animcArguments, runs: options.startupRuns) {
        result.animcMedian = median
        result.animcPeakKiB = peak
    } else {
        result.notes.append("animc failed on the 3-line script")
    }
    let hello = helloWorld()
    if let hello {
        result.helloMedian = medianWall(hello, [], runs: options.startupRuns)?.0
    } else {
        result.notes.append("no hello world (pass --hello PATH, or run from the package root with swiftc on PATH)")
    }
    if options.callgrind {
        if which("valgrind") == nil {
            result.notes.append("valgrind not found: no instruction counts")
        } else {
            progress("start-up: callgrind")
            result.animcInstructions = instructions(animc, animcArguments, label: "animc")
            if let hello { result.helloInstructions = instructions(hello, [], label: "hello") }
        }
    }
    startup = result
}

// MARK: - Instruction counts

/// Instructions of one workload run under callgrind, at two sizes.
struct InstructionGrowth {
    let workload: String
    let sizes: (Int, Int)
    var counts: (Int, Int)?

    var growth: Double? {
        guard let (small, large) = counts, small > 0 else { return nil }
        return pow(Double(large) / Double(small), 1 / log2(Double(sizes.1) / Double(sizes.0)))
    }
}

var instructionGrowth: [InstructionGrowth] = []
if options.instructions, which("valgrind") != nil {
    // Small sizes: callgrind runs about 50 times slower than the bare binary.
    for (name, sizes) in [("chain-script", (10_000, 20_000)), ("chain-by-script", (10_000, 20_000)), ("chain-api", (10_000, 20_000)),
                          ("parallel-api", (2_000, 4_000))] where options.wants(name) {
        progress("instructions: \(name) N=\(sizes.0), \(sizes.1)")
        var entry = InstructionGrowth(workload: name, sizes: sizes)
        let arguments = { (n: Int) in ["--workload", name, "--n", "\(n)"] }
        if let small = instructions(bench, arguments(sizes.0), label: "\(name)-\(sizes.0)"),
           let large = instructions(bench, arguments(sizes.1), label: "\(name)-\(sizes.1)") {
            entry.counts = (small, large)
        }
        instructionGrowth.append(entry)
    }
}

// MARK: - Report

func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
    let count = text.count
    guard count < width else { return text }
    let spaces = String(repeating: " ", count: width - count)
    return right ? spaces + text : text + spaces
}

let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
var report = ""
report += """
    animc-bench — best of \(options.repeatCount) runs per row, each in a child process of its own.
      wall/cpu    the work in-process: script text → run (parse, resolve, evaluate, compile, warnings) → compile (taken from run) → tabulate CSV to /dev/null
                  (chain-api/parallel-api: build the Scene → compile → tabulate; script-1mb: see its phases);
                  for *-animc rows, the whole `animc eval` process
      process     the child process from spawn to exit (start-up and input generation included)
      peak        the child's max RSS (wait4 ru_maxrss)
      growth      cpu time ratio per doubling of N (cpu, not wall: on a shared machine wall time also counts
                  waiting for a core); the 80k/20k ≤ 4.8× check is on cpu time too, absolute targets on wall
      load        the highest 1-minute load average when a run started (\(cores) cores; this bench counts 1: above \(cores), other work competed)
    workload 1 (chain-*): N tweens of 0.1 s on box.x, 10 fps → N + 1 rows (chain-closures: the talk's representation as
      the slides write it, a duration and a function of progress with * and + as closures, the chain left-nested;
      chain-closures-time: the same on absolute time, not a target; both up to 20k)
    workload 2 (parallel-*): N tweens over 1,000 properties, 0.1–1 s each, 1000 fps → 1,001 rows × 1,000 columns
    workload 3 (repeat-*): (x ; y) ^ 1_000_000_000 at N instants (repeat-by-script: x and y written `by`, from where it is);
    workload 4 (script-1mb): a generated 1 MiB script
    workload 6 (stagger-script): N views × 20 colour and move tweens of 100 ms, staggered by 10 ms, 60 fps


    """
report += pad("workload", 20, right: false) + pad("N", 9) + pad("rows", 9) + pad("wall ms", 10) + pad("cpu ms", 10)
    + pad("process ms", 12) + pad("peak MB", 9) + pad("growth", 8) + pad("load", 6) + "\n"
for row in table {
    if let failure = row.failure {
        report += pad(row.workload, 20, right: false) + pad(String(row.n), 9) + "  FAILED: \(failure)\n"
        continue
    }
    report += pad(row.workload, 20, right: false) + pad(String(row.n), 9) + pad(String(row.rows), 9)
        + pad(fixed(row.wall, 1), 10) + pad(fixed(row.cpu, 1), 10) + pad(fixed(row.process, 1), 12)
        + pad(fixed(row.peakMB, 1), 9) + pad(row.growth.map { fixed($0, 2) + "×" } ?? "", 8)
        + pad(fixed(row.load, 1), 6) + "\n"
}
report += "\nphases of the fastest run: wall ms (peak RSS so far)\n"
for row in table where row.failure == nil {
    report += pad(row.workload, 20, right: false) + pad(String(row.n), 9) + "  "
        + [row.phases, row.notes].filter { !$0.isEmpty }.joined(separator: " — ") + "\n"
}

if !instructionGrowth.isEmpty {
    report += "\ninstruction counts (callgrind; repeatable to 0.01 %, whatever the load), whole child process:\n"
    for entry in instructionGrowth {
        guard let (small, large) = entry.counts, let growth = entry.growth else {
            report += pad(entry.workload, 20, right: false) + "  FAILED under callgrind\n"
            continue
        }
        report += pad(entry.workload, 20, right: false) + "  N=\(entry.sizes.0): \(grouped(small)), N=\(entry.sizes.1): \(grouped(large))"
            + " → \(fixed(growth, 2))× per doubling; \(grouped(large / entry.sizes.1)) per tween\n"
    }
}

if let startup {
    report += "\nstart-up (workload 5): `animc eval three-lines.anim --format csv`, median of \(options.startupRuns) runs: "
        + "\(fixed(startup.animcMedian, 2)) ms, peak \(fixed(Double(startup.animcPeakKiB) / 1024, 1)) MB"
    if let hello = startup.helloMedian { report += "; hello world (swiftc -O): \(fixed(hello, 2)) ms" }
    report += "\n"
    if let animc = startup.animcInstructions {
        report += "callgrind instructions: animc \(grouped(animc))"
        if let hello = startup.helloInstructions, let ratio = startup.ratio {
            report += ", hello world \(grouped(hello)): ratio \(fixed(ratio, 2))× (target ≤ 1.5×)"
        }
        report += "\n"
    }
    for note in startup.notes { report += "note: \(note)\n" }
}

// MARK: - Targets

var missed: [String] = []
var met: [String] = []

@MainActor func target(_ ok: Bool, _ description: String) {
    if ok { met.append(description) } else { missed.append(description) }
}

@MainActor func row(_ workload: String, _ n: Int) -> Row? {
    table.first { $0.workload == workload && $0.n == n && $0.failure == nil }
}

for failed in table where failed.failure != nil {
    missed.append("\(failed.workload) N=\(failed.n) failed")
}
// Issue 23's targets.
for name in ["chain-script", "chain-animc"] {
    if let small = row(name, 20_000) {
        target(small.wall <= 25, "\(name) 20k: \(fixed(small.wall, 1)) ms wall ≤ 25 ms")
    }
}
if let animc = row("chain-animc", 20_000), let closures = row("chain-closures", 20_000) {
    let ratio = closures.wall / animc.wall
    target(ratio >= 30, "chain 20k: the talk's closures \(fixed(closures.wall, 1)) ms / animc eval \(fixed(animc.wall, 1)) ms = \(fixed(ratio, 1))× ≥ 30×")
}
for name in ["chain-script", "chain-animc"] {
    if let large = row(name, 80_000) {
        target(large.peakMB <= 40, "\(name) 80k: peak \(fixed(large.peakMB, 1)) MB ≤ 40 MB")
    }
}
for growing in table where growing.growth != nil && growing.workload.hasPrefix("chain") && !growing.workload.hasPrefix("chain-closures") {
    target(growing.growth! <= 2.1, "\(growing.workload) N=\(growing.n): cost per doubling \(fixed(growing.growth!, 2))× ≤ 2.1×")
}
if let stagger = row("stagger-script", 1000) {
    target(stagger.wall <= 500, "stagger-script: \(fixed(stagger.wall, 1)) ms ≤ 500 ms")
    if stagger.outputBytes > 0, stagger.tabulateMilliseconds.isFinite {
        let rate = Double(stagger.outputBytes) / 1e6 / (stagger.tabulateMilliseconds / 1000)
        target(rate >= 100, "stagger-script CSV: \(stagger.outputBytes) bytes in \(fixed(stagger.tabulateMilliseconds, 1)) ms = \(fixed(rate, 1)) MB/s ≥ 100 MB/s")
    }
}
// Ratios in CPU time, like the growth column (wall time on a shared machine
// also counts waiting for a core). The 4.8× target is workload 1's: the
// script form (in-process and through animc) and the Scene API form.
// chain-lets, the script nested through 80,000 `let`s, is reported beside them.
var notes: [String] = []
if let animc = row("chain-animc", 20_000), let closures = row("chain-closures-time", 20_000) {
    notes.append("chain 20k: closures on absolute time \(fixed(closures.wall, 1)) ms / animc eval \(fixed(animc.wall, 1)) ms = "
        + "\(fixed(closures.wall / animc.wall, 1))×; not a target (the slides' closures take progress)")
}
for name in ["chain-script", "chain-animc", "chain-api", "chain-lets"] {
    if let small = row(name, 20_000), let large = row(name, 80_000) {
        let text = "\(name) 80k: \(fixed(large.cpu, 1)) ms cpu, \(fixed(large.cpu / small.cpu, 2))× 20k"
            + " (wall \(fixed(large.wall / small.wall, 2))×)"
        if name == "chain-lets" {
            notes.append(text + "; not a target")
        } else {
            target(large.cpu < 4.8 * small.cpu, text + " < 4.8×")
        }
    }
}
for growing in table where growing.growth != nil && (growing.workload.hasPrefix("chain") || growing.workload.hasPrefix("parallel"))
    && !growing.workload.hasPrefix("chain-closures") {
    target(growing.growth! <= 2.4, "\(growing.workload) N=\(growing.n): growth \(fixed(growing.growth!, 2))× ≤ 2.4× per doubling")
}
for name in ["repeat-script", "repeat-animc"] {
    if let few = row(name, 3) {
        target(few.process < 50, "\(name) at 3 instants: \(fixed(few.process, 1)) ms end to end (process) < 50 ms")
    }
}
for entry in instructionGrowth {
    guard let growth = entry.growth else {
        missed.append("\(entry.workload): instruction count failed")
        continue
    }
    target(growth <= 2.4, "\(entry.workload) N=\(entry.sizes.0)→\(entry.sizes.1): instructions grow \(fixed(growth, 2))× ≤ 2.4× per doubling")
}
if let script = row("script-1mb", 1 << 20) {
    target(script.wall <= 300, "script-1mb parse + resolve + evaluate + normalize + format: \(fixed(script.wall, 1)) ms ≤ 300 ms")
}
for measured in table where measured.failure == nil {
    target(measured.peakMB < 200, "\(measured.workload) N=\(measured.n): peak \(fixed(measured.peakMB, 1)) MB < 200 MB")
}
if let startup {
    if let ratio = startup.ratio {
        target(ratio <= 1.5, "start-up: animc/hello instructions \(fixed(ratio, 2))× ≤ 1.5×")
    }
    if let hello = startup.helloMedian, hello > 0 {
        let ratio = startup.animcMedian / hello
        target(ratio <= 1.5, "start-up: animc/hello wall \(fixed(ratio, 2))× ≤ 1.5×")
    }
    if startup.animcPeakKiB > 0 {
        let peak = Double(startup.animcPeakKiB) / 1024
        target(peak < 200, "start-up: peak \(fixed(peak, 1)) MB < 200 MB")
    }
}

report += "\ntargets: \(met.count) met, \(missed.count) missed\n"
for line in missed { report += "  MISSED  \(line)\n" }
for line in met where !line.contains("peak") { report += "  ok      \(line)\n" }
let peakChecks = met.filter { $0.contains("peak") }.count
if peakChecks > 0 { report += "  ok      peak memory < 200 MB in all \(peakChecks) measured workloads\n" }
for line in notes { report += "  info    \(line)\n" }

writeAll(1, Array(report.utf8)[...])
_ = runChild("/bin/rm", ["-rf", scratch])
exit(missed.isEmpty ? 0 : 1)
