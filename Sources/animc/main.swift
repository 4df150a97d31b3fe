// animc: the command-line interpreter for `.anim` scripts. Thin on purpose:
// arguments in, AnimLang and Animations calls, text out.

import AnimLang
import Animations

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let version = "animc 0.1.0"

let usage = """
    usage: animc eval FILE [--binding NAME] [--fps N] [--at T1,T2,...] [--format table|csv|json]
           animc check FILE
           animc normalize FILE [--binding NAME] [--tree]
           animc timeline FILE [--binding NAME] [--width N]
           animc equal FILE1 FILE2 [--binding NAME]
           animc --help | --version
    """

let help = """
    animc — Brandon Kase's "Algebraic Animations", run from the command line.

    \(usage)

    Commands:
      eval FILE        Evaluate the last `let` of FILE (or --binding NAME) and print
                       the value of every property over time: a row at 0, 1/fps,
                       2/fps, … and always a last row at exactly the end.
      check FILE       Report every error and warning in FILE; print nothing else.
      normalize FILE   Print the normal form the laws allow, as a complete program:
                       the `view` declarations, then `let NAME = …` with lets
                       inlined and `all views` expanded. Two animations that the
                       exact laws make equal print identically.
      timeline FILE    List every segment (property, start, end, from, to, easing)
                       sorted by start, then a bar chart of each property over time.
      equal F1 F2      Say whether the last bindings of two files are the same
                       animation (same duration, same segments); exit 0 if they
                       are, 1 if not, saying where they differ.

    FILE may be `-` for standard input.

    Options for eval:
      --binding NAME   Evaluate `let NAME` instead of the last binding.
      --fps N          Rows per second (a whole number ≥ 1; default 10).
      --at T1,T2,...   Sample exactly these times instead (seconds; `ms` and `s`
                       suffixes allowed, e.g. --at 0,0.25,1500ms).
      --format F       table (aligned, the default on a terminal), csv (lossless,
                       the default otherwise) or json (one JSON object per line).
                       A table has at most \(maximumRows) rows; use --at or a lower --fps.

    Options for normalize, timeline and equal:
      --binding NAME   Use `let NAME` instead of the last binding (of both files, for equal).
      --tree           (normalize) Print the normal form as an indented tree.
      --width N        (timeline) Width of the bar chart in characters (default 60).

    Exit status:
      0  success (warnings may have been printed)
      1  errors in the script, or the file could not be read
      2  bad command-line usage

    Examples:
      animc eval examples/talk.anim
      animc eval examples/talk.anim --fps 4 --format csv
      animc check examples/talk.anim

    The language is described in grammar.md.
    """

/// The most rows `eval` prints; beyond this, narrow the table with --at or --fps.
let maximumRows = 1_000_000

// MARK: - Output

/// Buffered output to a file descriptor, written in large chunks.
struct Output {
    let descriptor: Int32
    var buffer: [UInt8] = []

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flushIfFull() {
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                Glibc.write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written <= 0 { break }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

nonisolated(unsafe) var standardOutput = Output(1)
nonisolated(unsafe) var standardError = Output(2)

func exit(_ status: Int32) -> Never {
    standardOutput.flush()
    standardError.flush()
    Glibc.exit(status)
}

func usageError(_ message: String) -> Never {
    standardError.write("animc: \(message)\n\(usage)\n")
    exit(2)
}

// MARK: - Input

/// The bytes of `path` (`-` is standard input), or `nil` with an error printed.
func readSource(_ path: String) -> SourceFile? {
    let descriptor: Int32 = path == "-" ? 0 : open(path, O_RDONLY)
    guard descriptor >= 0 else {
        standardError.write("animc: cannot read \(path): \(String(cString: strerror(errno)))\n")
        return nil
    }
    defer { if descriptor != 0 { close(descriptor) } }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR { continue }
            standardError.write("animc: cannot read \(path): \(String(cString: strerror(errno)))\n")
            return nil
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return SourceFile(name: path == "-" ? "<stdin>" : path, bytes: bytes)
}

// MARK: - Arguments

struct Arguments {
    var command = ""
    var files: [String] = []
    var binding: String?
    var fps: Int64 = 10
    var fpsGiven = false
    var at: [Time]?
    var atDecimals = 3
    var format: TableFormat?
    var tree = false
    var width = 60

    init(_ list: [String]) {
        var rest = list[...]
        guard let first = rest.popFirst() else { usageError("missing command") }
        switch first {
        case "--help", "-h", "help":
            standardOutput.write(help + "\n")
            exit(0)
        case "--version":
            standardOutput.write(version + "\n")
            exit(0)
        case "eval", "check", "normalize", "timeline", "equal":
            command = first
        default:
            if first.hasPrefix("-") { usageError("unknown option \(first)") }
            usageError("unknown command `\(first)`")
        }
        while let argument = rest.popFirst() {
            func value() -> String {
                guard let next = rest.popFirst() else { usageError("\(argument) needs a value") }
                return next
            }
            switch argument {
            case "--help", "-h":
                standardOutput.write(help + "\n")
                exit(0)
            case "--binding":
                binding = value()
            case "--tree":
                tree = true
            case "--width":
                let text = value()
                guard let width = Int(text), width >= 10, width <= 1000 else {
                    usageError("--width takes a whole number from 10 to 1000, not `\(text)`")
                }
                self.width = width
            case "--fps":
                let text = value()
                guard let fps = Int64(text), fps >= 1, fps <= 1_000_000 else {
                    usageError("--fps takes a whole number from 1 to 1000000, not `\(text)`")
                }
                self.fps = fps
                fpsGiven = true
            case "--at":
                parseTimes(value())
            case "--format":
                let text = value()
                guard let format = TableFormat(rawValue: text) else {
                    usageError("--format takes table, csv or json, not `\(text)`")
                }
                self.format = format
            default:
                if argument.hasPrefix("--") || (argument.hasPrefix("-") && argument != "-") {
                    usageError("unknown option \(argument)")
                }
                files.append(argument)
            }
        }
        let wanted = command == "equal" ? 2 : 1
        guard files.count == wanted else {
            if command == "equal" { usageError("equal needs two files, got \(files.count)") }
            usageError(files.isEmpty ? "\(command) needs a FILE" : "\(command) takes one FILE, got \(files.count)")
        }
        let evalOptions = at != nil || format != nil || fpsGiven
        if command == "check", binding != nil || evalOptions || tree {
            usageError("check takes no options")
        }
        if command != "eval", evalOptions {
            usageError("--at, --fps and --format are options of eval")
        }
        if tree, command != "normalize" { usageError("--tree is an option of normalize") }
    }

    mutating func parseTimes(_ text: String) {
        var times: [Time] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            var number = piece.drop { $0 == " " }
            var divisor: Int64 = 1
            if number.hasSuffix("ms") {
                number = number.dropLast(2)
                divisor = 1000
            } else if number.hasSuffix("s") {
                number = number.dropLast()
            }
            guard let value = Time(decimal: number), let time = value.divided(by: Time(divisor)) else {
                usageError("--at takes times in seconds separated by commas, not `\(piece)`")
            }
            if let point = number.firstIndex(of: ".") {
                let decimals = number[number.index(after: point)...].prefix { $0.isNumber }.count + (divisor == 1000 ? 3 : 0)
                atDecimals = max(atDecimals, min(decimals, 9))
            }
            times.append(time)
        }
        at = times
    }
}

// MARK: - Commands

func report(_ outcome: Outcome, file: SourceFile) {
    if !outcome.diagnostics.isEmpty {
        standardError.write(render(outcome.diagnostics, in: file))
        standardError.flush()
    }
}

func evalCommand(_ arguments: Arguments) -> Never {
    guard let file = readSource(arguments.files[0]) else { exit(1) }
    let outcome = run(file, binding: arguments.binding)
    report(outcome, file: file)
    if outcome.hasErrors { exit(1) }
    guard let target = outcome.target, let scene = outcome.scene else { exit(1) }
    let format = arguments.format ?? (isatty(1) != 0 ? .table : .csv)
    let compiled: CompiledScene?
    do {
        compiled = try scene.compile()
    } catch {
        standardError.write(render(samplingError(error, binding: target), in: file))
        exit(1)
    }
    guard let compiled else {
        TableWriter(format: format, columns: []).writeCancelled(binding: target.name, into: &standardOutput.buffer)
        exit(0)
    }
    let flush: (inout [UInt8]) -> Void = { chunk in
        standardOutput.buffer.append(contentsOf: chunk)
        chunk.removeAll(keepingCapacity: true)
        standardOutput.flush()
    }
    if let times = arguments.at {
        tabulate(compiled, initial: outcome.initial, at: times, format: format, timeDecimals: arguments.atDecimals, flush: flush)
    } else {
        let frames = FrameTimes(duration: compiled.duration, fps: arguments.fps)
        guard let count = frames.count, count <= maximumRows else {
            let range = target.nameRange == .none ? target.range : target.nameRange
            let tooLong = Diagnostic(.tooManyRows(binding: target.name, duration: compiled.duration, fps: arguments.fps, limit: maximumRows),
                                     at: range, hint: "sample fewer rows with a lower --fps, or exactly the times you need with --at")
            standardError.write(render(tooLong, in: file))
            exit(1)
        }
        tabulate(compiled, initial: outcome.initial, at: frames, format: format, timeDecimals: arguments.atDecimals, flush: flush)
    }
    exit(0)
}

func checkCommand(_ arguments: Arguments) -> Never {
    guard let file = readSource(arguments.files[0]) else { exit(1) }
    let outcome = run(file)
    report(outcome, file: file)
    exit(outcome.hasErrors ? 1 : 0)
}

/// Reads, evaluates and reports one file; exits 1 on errors.
func evaluatedFile(_ path: String, binding: String?) -> (SourceFile, Outcome, Scene) {
    guard let file = readSource(path) else { exit(1) }
    let outcome = run(file, binding: binding)
    report(outcome, file: file)
    guard !outcome.hasErrors, let scene = outcome.scene else { exit(1) }
    return (file, outcome, scene)
}

func normalizeCommand(_ arguments: Arguments) -> Never {
    let (file, outcome, _) = evaluatedFile(arguments.files[0], binding: arguments.binding)
    do {
        let normal = try normalize(outcome)
        standardOutput.write(arguments.tree ? formatTree(normal.expr) : format(normal.program))
        exit(0)
    } catch {
        standardError.write("\(file.name): error: cannot normalize: \(error)\n")
        exit(1)
    }
}

func timelineCommand(_ arguments: Arguments) -> Never {
    let (file, outcome, scene) = evaluatedFile(arguments.files[0], binding: arguments.binding)
    do {
        guard let compiled = try scene.compile() else {
            standardOutput.write("`\(outcome.target?.name ?? "")` is cancelled: it has no segments\n")
            exit(0)
        }
        standardOutput.write(timelineText(compiled, width: arguments.width))
        exit(0)
    } catch {
        standardError.write("\(file.name): error: \(error)\n")
        exit(1)
    }
}

func equalCommand(_ arguments: Arguments) -> Never {
    let (first, _, left) = evaluatedFile(arguments.files[0], binding: arguments.binding)
    let (second, _, right) = evaluatedFile(arguments.files[1], binding: arguments.binding)
    do {
        switch try Scene.sameAnimation(left, right) {
        case .same:
            standardOutput.write("equal: \(first.name) and \(second.name) are the same animation\n")
            exit(0)
        case .different(let why):
            standardOutput.write("different: \(why)\n")
            exit(1)
        }
    } catch {
        standardError.write("animc: error: \(error)\n")
        exit(1)
    }
}

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
switch arguments.command {
case "eval": evalCommand(arguments)
case "check": checkCommand(arguments)
case "normalize": normalizeCommand(arguments)
case "timeline": timelineCommand(arguments)
case "equal": equalCommand(arguments)
default: usageError("unknown command `\(arguments.command)`")
}
