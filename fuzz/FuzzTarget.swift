// libFuzzer target for the whole animc pipeline. Not part of Package.swift:
// `fuzz/run.sh` builds it with swiftc (coverage + AddressSanitizer) and runs it.
//
// For every input it lexes, parses, resolves and evaluates the bytes as a
// `.anim` file, renders the diagnostics, compiles and samples every binding
// that evaluated, writes a few rows in every table format, and prints the
// parsed program back as source and parses that again. Besides crashes,
// leaks and hangs, it stops on broken invariants (`check` below): diagnostics
// out of range, out of order or uncapped, and a failed print/parse round trip.

import AnimLang
import AnimOutputs
import Animations

#if canImport(Glibc)
import Glibc
#endif

/// Stops the run with a message, so libFuzzer saves the input.
func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fputs("fuzz invariant broken: \(message())\n", stderr)
        abort()
    }
}

func checkDiagnostics(_ diagnostics: [Diagnostic], in file: SourceFile, stage: String) {
    check(diagnostics.count <= 3 * maxParseDiagnostics + 2, "\(stage): \(diagnostics.count) diagnostics")
    var previous = 0
    for diagnostic in diagnostics {
        let range = diagnostic.range
        check(range.start >= 0 && range.start <= range.end && range.end <= file.bytes.count,
              "\(stage): range \(range.start)..<\(range.end) outside a file of \(file.bytes.count) bytes")
        check(range.start >= previous, "\(stage): diagnostics out of source order")
        previous = range.start
        check(!diagnostic.message.isEmpty && !diagnostic.id.isEmpty, "\(stage): empty message or id")
    }
    // Rendered, each starts `FILE:LINE:COL: severity: ` and shows a caret.
    for diagnostic in diagnostics {
        let text = render(diagnostic, in: file)
        let location = file.location(of: diagnostic.range.start)
        check(text.hasPrefix("\(file.name):\(location.line):\(location.column): \(diagnostic.severity.rawValue): "),
              "\(stage): rendering lost a location")
        check(text.contains("^"), "\(stage): rendering has no caret")
    }
}

/// A few instants around and inside `[0, duration]`.
func instants(_ duration: Time) -> [Time] {
    var times: [Time] = [.zero, duration]
    if let third = try? duration.divided(by: Time(3)) { times.append(third) }
    if let half = try? duration.divided(by: Time(2)) { times.append(half) }
    if let after = try? duration.adding(Time(numerator: 1, denominator: 7) ?? .one) { times.append(after) }
    // Far out, where only symbolic repetition keeps sampling immediate.
    times.append(Time(1_000_000_000))
    if let tiny = Time(numerator: 1, denominator: 1_000_003) { times.append(tiny) }
    times.append(Time(-1))
    return times
}

func exercise(_ scene: Scene, initial: [Property: Value]) {
    let compiled: CompiledScene?
    do {
        compiled = try scene.compile()
    } catch {
        _ = error.description
        return
    }
    guard let compiled else { return }
    check(compiled.isInfinite == scene.isInfinite, "compiled infinity differs")
    check(compiled.isInfinite || compiled.duration == scene.duration, "compiled duration differs")
    _ = timelineText(compiled, width: 40)
    _ = compiled.allEvents(limit: 64)
    let times = instants(compiled.duration)
    for property in compiled.properties {
        for t in times { _ = compiled.value(of: property, at: t) }
    }
    for format in TableFormat.allCases {
        var bytes: [UInt8] = []
        tabulate(compiled, initial: initial, at: times, format: format) { chunk in
            bytes.append(contentsOf: chunk)
            chunk.removeAll(keepingCapacity: true)
        }
    }
    let frames = FrameTimes(duration: compiled.duration, fps: 10)
    if !compiled.isInfinite, let count = frames.count, count <= 64 {
        var rows = 0
        var bytes: [UInt8] = []
        tabulate(compiled, initial: initial, at: frames, format: .csv) { chunk in
            bytes.append(contentsOf: chunk)
            chunk.removeAll(keepingCapacity: true)
        }
        for byte in bytes where byte == UInt8(ascii: "\n") { rows += 1 }
        check(rows == count + 1, "FrameTimes.count \(count) but \(rows - 1) rows")
    }
}

/// Whether every `view` comes before every `let` (the printer puts views first).
func viewsComeFirst(_ program: Program) -> Bool {
    var seenBinding = false
    for item in program.items {
        switch item {
        case .binding: seenBinding = true
        case .view: if seenBinding { return false }
        }
    }
    return true
}

func roundTrip(_ parsed: ParseResult) {
    let printed = format(parsed.program)
    let again = parse(SourceFile(name: "printed.anim", text: printed))
    for binding in parsed.program.bindings {
        _ = formatTree(binding.value)
    }
    // The printer's promise (Printer.swift): for a program that parsed without
    // errors, with its views first, printing and parsing give back the same tree,
    // and printing that gives the same text.
    guard !parsed.hasErrors, viewsComeFirst(parsed.program) else { return }
    check(!again.hasErrors, "printed program does not parse:\n\(printed)\n\(render(again.diagnostics, in: SourceFile(name: "printed.anim", text: printed)))")
    check(again.program == parsed.program, "round trip changed the program:\n\(printed)")
    check(format(again.program) == printed, "printing is not idempotent:\n\(printed)\n---\n\(format(again.program))")
}

/// Inputs of the form `#repeat N\nBODY#end\nTAIL` stand for BODY written N
/// times (at most 1500, and 96 KB in all), with `$i` replaced by the copy's
/// number and `$p` by the one before it, then TAIL: a few bytes can describe
/// a chain of thousands of `let`s (`#repeat 2000\nlet a$i = a$p with ease-in\n`),
/// which is where depth and quadratic-time bugs live. Other inputs are used as they are.
func expand(_ bytes: [UInt8]) -> [UInt8] {
    let header = Array("#repeat ".utf8)
    guard bytes.starts(with: header) else { return bytes }
    var index = header.count
    var count = 0
    while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), count < 100_000 {
        count = count * 10 + Int(bytes[index] - UInt8(ascii: "0"))
        index += 1
    }
    count = min(count, 1500)
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { return bytes }
    let rest = bytes[(index + 1)...]
    let end = Array("#end\n".utf8)
    var bodyEnd = rest.endIndex, tailStart = rest.endIndex
    var scan = rest.startIndex
    while scan + end.count <= rest.endIndex {
        if rest[scan..<(scan + end.count)].elementsEqual(end) {
            bodyEnd = scan
            tailStart = scan + end.count
            break
        }
        scan += 1
    }
    let body = rest[rest.startIndex..<bodyEnd]
    var out: [UInt8] = []
    for copy in 1...max(1, count) {
        var position = body.startIndex
        while position < body.endIndex {
            let byte = body[position]
            if byte == UInt8(ascii: "$"), position + 1 < body.endIndex,
               body[position + 1] == UInt8(ascii: "i") || body[position + 1] == UInt8(ascii: "p") {
                out.append(contentsOf: String(body[position + 1] == UInt8(ascii: "i") ? copy : copy - 1).utf8)
                position += 2
            } else {
                out.append(byte)
                position += 1
            }
        }
        if out.count > 96 << 10 { break }
    }
    out.append(contentsOf: rest[tailStart...])
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = expand(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    let file = SourceFile(name: "fuzz.anim", bytes: bytes)

    let parsed = parse(file)
    checkDiagnostics(parsed.diagnostics, in: file, stage: "parse")
    check(parsed.diagnostics.count <= maxParseDiagnostics, "parse: more than \(maxParseDiagnostics) diagnostics")

    let resolved = resolve(parsed.program, broken: parsed.brokenBindings)
    let evaluation = evaluate(lower(resolved))

    let outcome = run(file)
    checkDiagnostics(outcome.diagnostics, in: file, stage: "run")
    if outcome.hasErrors {
        check(outcome.scene == nil, "a scene despite errors")
        check(outcome.diagnostics.contains { $0.severity == .error }, "errors without an error diagnostic")
    } else {
        check(outcome.scene != nil, "no errors and no scene")
    }
    if bytes.count < 8192, let first = parsed.program.bindings.first {
        _ = run(file, binding: first.name)
    }

    // Every binding that evaluated, not only the last (a few, to keep inputs fast).
    for name in resolved.order.prefix(6) {
        if let scene = evaluation.scenes[name] { exercise(scene, initial: resolved.initial) }
    }

    // What the other commands do with the file: the normal form (a program
    // that parses, and normalizes to itself), and the exports of short ones.
    if !outcome.hasErrors, let scene = outcome.scene, bytes.count < 8192 {
        if let normal = try? normalize(outcome) {
            let printed = format(normal.program)
            let again = run(SourceFile(name: "normal.anim", text: printed))
            check(!again.hasErrors, "the normal form does not evaluate:\n\(printed)")
            if let twice = try? normalize(again) {
                check(format(twice.program) == printed, "normalizing is not idempotent:\n\(printed)\n---\n\(format(twice.program))")
            }
        }
        if let duration = scene.duration, duration <= Time(30), !scene.isInfinite {
            _ = webExport(outcome, source: "fuzz.anim")
            _ = exportLottie(outcome, fps: 10)
        }
    }

    roundTrip(parsed)
    return 0
}
