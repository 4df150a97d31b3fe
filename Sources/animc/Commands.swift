// The table of animc's commands and options, and what each command does.
// A new command is a `Command` value in `interface.commands` and a function
// here; a new option is one `Options` member, listed by the commands that take it.

import AnimLang
import AnimOutputs
import Animations

let programName = "animc"

/// The most rows `eval` prints; beyond this, narrow the table with --at or --fps.
let maximumRows = TableRequest.defaultMaximumRows

// MARK: - Options

/// The times `--at` asks for, and how many decimals the time column shows.
struct SampleTimes: Sendable {
    let times: [Time]
    let decimals: Int
}

enum Options {
    static let defaultFPS = 10
    static let defaultWidth = 60

    static let binding = Option.text("--binding", value: "NAME",
                                     help: "Use `let NAME` instead of the last `let` of the file.")
    static let after = Option.text("--after", value: "NAME",
                                   help: "Show the binding as it plays after `let NAME` has played: exactly "
                                       + "`(NAME ; BINDING) played from |NAME|`, so its `to`/`by` tweens start where NAME left "
                                       + "every property. NAME must end.")
    static let fps = Option.integer("--fps", value: "N", in: 1...1_000_000, help: fpsHelp, default: defaultFPS)
    /// One help for `--fps` everywhere (the same spelling is the same option): eval's rows are frames too.
    static let fpsHelp = "Frames per second, a whole number from 1 to 1000000 (export: --to lottie only)."
    static let at = Option("--at", value: "T1,T2,...",
                           help: "Sample exactly these times instead: seconds as decimals or fractions, each with an "
                               + "optional `s` or `ms`, as `normalize` prints them: 0,1/3,0.5,1500ms.",
                           read: { text throws(InvalidValue) in try readTimes(text) })
    static let until = Option("--until", value: "T",
                              help: "Go up to time T instead of the end (eval: frame rows; plot: the time axis); an "
                                  + "animation that repeats forever needs it (or eval's --at). Seconds as a decimal or "
                                  + "fraction, with an optional `s` or `ms`: 5, 2.5s, 1500ms.",
                              read: readTime)
    static let format = Option<TableFormat>.choice(
        "--format",
        help: "table (aligned, the default on a terminal), csv (lossless, the default otherwise) or json (one object per line).")
    static let tree = Flag("--tree", help: "Print the normal form as an indented tree.")
    static let check = Flag("--check", help: "Change no file: name each file that would change, and exit 1 if any would.")
    static let width = Option.integer("--width", value: "N", in: 10...1000,
                                      help: "Width of the bar chart, in characters.", default: defaultWidth)
    /// `--to`: a target of ``ExportTarget/all``, the one table of export targets.
    static let to = Option<ExportTarget>("--to", value: ExportTarget.all.map(\.name).joined(separator: "|"),
                                         help: ExportTarget.help, default: "html") { text throws(InvalidValue) in
        guard let target = ExportTarget.named(text) else { throw InvalidValue(expected: listed(ExportTarget.all.map(\.name), or: true)) }
        return target
    }
    static let prefix = Option("--prefix", value: "NAME",
                               help: "Name what a web export defines `@keyframes NAME-VIEW-PROPERTY` and `--NAME-PROPERTY` "
                                   + "(default: `animc`), so that two exports share a page. "
                                   + "A CSS identifier: a letter or `_`, then letters, digits, `-` or `_`.",
                               read: readPrefix)
    static let selector = Option("--selector", value: "TEMPLATE",
                                 help: "The elements a css, waapi or js export animates, `{view}` standing for the view's "
                                     + "name: `.{view}.is-entering`.",
                                 default: WebNames.defaultSelector, read: readSelector)
    /// `--fps` with the default of exports (Lottie keys frames).
    static let exportFPS = Option.integer("--fps", value: "N", in: 1...1_000_000, help: fpsHelp, default: LottieExport.defaultFPS)
    static let runtime = Option("--runtime", value: "PATH",
                                help: "--to js only: import the player from PATH (a URL as `import` takes it, such as "
                                    + "./animc-runtime.js) instead of holding it, so many modules share one copy; "
                                    + "`animc runtime` writes that file.",
                                read: readRuntime)
    static let output = Option.text("--output", short: "o", value: "OUT",
                                    help: "Write to the file OUT instead of standard output.")
    static let speed = Option("--speed", value: "X", help: "Play X seconds of the animation per second, a decimal from 0.1 "
                                  + "to 10: 0.5 is half speed.", default: "1", read: readSpeed)
    static let defaultPort = 8000
    static let port = Option.integer("--port", value: "N", in: 1...65535,
                                     help: "Listen on port N of 127.0.0.1, the loopback address.", default: defaultPort)
    static let loop = Flag("--loop", help: "Start again from the beginning at the end (an animation that repeats "
                               + "forever never ends anyway).")

    /// `--prefix`: a CSS identifier (``WebNames/isIdentifier(_:)``).
    @Sendable static func readPrefix(_ text: String) throws(InvalidValue) -> String {
        guard WebNames.isIdentifier(text) else {
            throw InvalidValue(expected: "a CSS identifier: a letter or `_`, then letters, digits, `-` or `_`")
        }
        return text
    }

    /// `--selector`: a template with `{view}` (``WebNames/isSelectorTemplate(_:)``).
    @Sendable static func readSelector(_ text: String) throws(InvalidValue) -> String {
        guard WebNames.isSelectorTemplate(text) else {
            throw InvalidValue(expected: "a selector with `{view}` for the view's name and no other `{` or `}`")
        }
        return text
    }

    /// `--runtime`: any text but none (it is written as a JavaScript string).
    @Sendable static func readRuntime(_ text: String) throws(InvalidValue) -> String {
        guard !text.isEmpty else { throw InvalidValue(expected: "the path or URL of the runtime, such as ./animc-runtime.js") }
        return text
    }

    /// `--speed`: a decimal from 0.1 to 10.
    @Sendable static func readSpeed(_ text: String) throws(InvalidValue) -> Double {
        guard let speed = Time(decimal: text), let slowest = Time(numerator: 1, denominator: 10),
              !(speed < slowest), !(Time(10) < speed) else {
            throw InvalidValue(expected: "a decimal from 0.1 to 10")
        }
        return speed.seconds
    }

    /// `--until`: one time, written as for `--at`, not before 0 (the rows run from 0 to it).
    @Sendable static func readTime(_ text: String) throws(InvalidValue) -> SampleTimes {
        let read = try readTimes(text, one: true)
        guard read.times.count == 1 else { throw InvalidValue(expected: "one time in seconds", culprit: text) }
        return read
    }

    /// `--at`: times in seconds separated by commas; each a decimal
    /// (`0.25`, `1e-3`) or a fraction (`1/3`), with an optional `s` or `ms`,
    /// not before 0 (as `--until`: an animation starts at 0). The time column
    /// shows as many decimals as the most precise time written needs (at
    /// least 3, at most 9). `one`: for `--until`, which takes one time.
    @Sendable static func readTimes(_ text: String, one: Bool = false) throws(InvalidValue) -> SampleTimes {
        var times: [Time] = []
        var decimals = 3
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            var number = piece.drop { $0 == " " }
            var divisor: Int64 = 1
            if number.hasSuffix("ms") {
                number = number.dropLast(2)
                divisor = 1000
            } else if number.hasSuffix("s") {
                number = number.dropLast()
            }
            let value: Time?
            if let slash = number.firstIndex(of: "/") {
                let numerator = Time(decimal: number[..<slash])
                let denominator = Time(decimal: number[number.index(after: slash)...])
                value = denominator.flatMap { d in d.isZero ? nil : numerator.flatMap { try? $0.divided(by: d) } }
            } else {
                value = Time(decimal: number)
                if let point = number.firstIndex(of: ".") {
                    let written = number[number.index(after: point)...].prefix { $0.isNumber }.count + (divisor == 1000 ? 3 : 0)
                    decimals = max(decimals, min(written, 9))
                }
            }
            guard let time = value.flatMap({ try? $0.divided(by: Time(divisor)) }) else {
                throw InvalidValue(expected: one ? "a time in seconds" : "times in seconds separated by commas", culprit: String(piece))
            }
            guard !time.isNegative else {
                throw InvalidValue(expected: one ? "a time of 0 or more" : "times of 0 or more", culprit: String(piece))
            }
            times.append(time)
        }
        return SampleTimes(times: times, decimals: decimals)
    }
}

// MARK: - Commands

private let file = ArgumentSpec(name: "FILE", help: "The script; `-` reads standard input.")

let interface = Interface(
    overview: "animc — Brandon Kase's \"Algebraic Animations\", run from the command line.",
    commands: [
        Command(name: "eval", arguments: [file],
                summary: "Print the value of every property over time, as a table.",
                discussion: "Evaluate the last `let` of FILE (or the one --binding names) and print the value of every "
                    + "property over time: a row at 0, 1/fps, 2/fps, … and always a last row at exactly the end, one "
                    + "column per `view.property`, sorted. When the animation has events, a last column `events` "
                    + "lists those that fired since the row before (`tick×3 land`). A cancelled animation says so "
                    + "instead (as data: a table with no rows). An animation that repeats forever needs --until or "
                    + "--at. At most \(maximumRows) rows are printed; for more, use --at or a lower --fps.",
                options: [Options.binding.spec, Options.after.spec, Options.fps.spec, Options.at.spec, Options.until.spec, Options.format.spec],
                examples: ["animc eval examples/talk.anim", "animc eval examples/talk.anim --fps 4 --format table",
                           "animc eval examples/talk.anim --at 1/3,0.5,1500ms",
                           "animc eval examples/spinner.anim --until 3s --fps 4"],
                run: evalCommand),
        Command(name: "check", arguments: [file],
                summary: "Report every error and warning in FILE; print nothing else.",
                discussion: "Parse, resolve and evaluate FILE, and report every error and warning in it; print nothing "
                    + "else. Exit 0 when there are no errors (warnings allowed), 1 otherwise.",
                options: [], examples: ["animc check examples/talk.anim"],
                run: checkCommand),
        Command(name: "normalize", arguments: [file],
                summary: "Print the normal form the laws allow, as a program.",
                discussion: "Print the normal form of the last `let` of FILE (or the one --binding names) as a complete "
                    + "program: the `view` declarations, then one `let` with every other binding inlined and `all "
                    + "views` expanded. Two animations that the exact laws make equal print identically.",
                options: [Options.binding.spec, Options.tree.spec],
                examples: ["animc normalize examples/laws.anim --binding distributed"],
                run: normalizeCommand),
        Command(name: "timeline", arguments: [file],
                summary: "List every segment, then draw a bar per property.",
                discussion: "List every segment of the last `let` of FILE (or the one --binding names): property, start, "
                    + "end, from, to and easing, sorted by start; then draw a bar per property over the whole duration.",
                options: [Options.binding.spec, Options.after.spec, Options.width.spec],
                examples: ["animc timeline examples/talk-semiring.anim --width 30"],
                run: timelineCommand),
        Command(name: "equal",
                arguments: [ArgumentSpec(name: "FILE1", help: "The first script; `-` reads standard input."),
                            ArgumentSpec(name: "FILE2", help: "The second script.")],
                summary: "Say whether two files' animations are the same.",
                discussion: "Say whether the last bindings of FILE1 and FILE2 (or the ones --binding names) are the "
                    + "same animation: the same duration and the same set of segments. Exit 0 if they are; 1 if not, "
                    + "saying where they first differ.",
                options: [Options.binding.spec],
                examples: ["animc equal examples/laws.anim examples/laws.anim --binding distributed"],
                run: equalCommand),
        Command(name: "fmt",
                arguments: [ArgumentSpec(name: "FILE...", help: "The scripts, formatted in place; `-` reads standard input "
                                            + "and writes the formatted script to standard output.", repeats: true)],
                summary: "Lay out each FILE the one canonical way, comments kept.",
                discussion: "Rewrite each FILE in the canonical layout: items one per line from column 0, one space "
                    + "around `;` `||` `*` `+` `^` and `=`, none inside parentheses, a chain broken one operand per line "
                    + "(operators leading, operands aligned) where it was broken or passes 100 columns, consecutive "
                    + "`view` lines aligned, every comment kept where it was. Only the blanks between tokens change, and "
                    + "the result is checked to be the same program before it is written. A file with syntax errors is "
                    + "left as it is, its errors reported. Exit 0 when every file was formatted (with --check: when none "
                    + "would change); 1 otherwise.",
                options: [Options.check.spec],
                examples: ["animc fmt examples/talk.anim", "animc fmt --check examples/*.anim", "animc fmt - < a.anim"],
                run: fmtCommand),
        Command(name: "export", arguments: [file],
                summary: "Write a page, CSS, Web Animations or Lottie JSON that plays it.",
                discussion: "Export the last `let` of FILE (or the one --binding names) for a player. For browsers, every "
                    + "property `view.p` becomes a registered custom property `--animc-p` (`--NAME-p` with --prefix NAME) "
                    + "on the view's element, animated by its own keyframes: --to html writes one self-contained page that plays it (controls, a readout of every "
                    + "property, `#t=1.5` to seek), css a stylesheet, waapi JSON for `element.animate`; easings CSS has "
                    + "stay exact, others become `linear()` within 1e-4 of their range. The talk's ease-in, ease-out and "
                    + "ease-in-out are the talk's own curves, not CSS's keywords: CSS's are css-ease-in, css-ease-out and "
                    + "css-ease-in-out (and ease). --to lottie writes Lottie JSON at "
                    + "--fps frames a second (--fps is Lottie's alone): one shape layer per view, its transform carrying x, y, rotation, scale and "
                    + "opacity, its fill the colour; exact keyframe handles where a curve has them, others baked a "
                    + "keyframe per frame; events as markers. --to svg writes one SVG that plays itself as an image (the page's stage, animated by the stylesheet). "
                    + "--to js writes an ES module that plays it; with --runtime PATH it imports its player from PATH "
                    + "(`animc runtime` writes it), one copy for many modules. Properties a format cannot carry are named in a warning. "
                    + "An animation that repeats forever plays, in a browser, each property's prefix and then its period "
                    + "with infinite iterations; in Lottie it is one round that players loop (an error when it has a prefix).",
                options: [Options.binding.spec, Options.after.spec, Options.to.spec, Options.prefix.spec, Options.selector.spec,
                          Options.exportFPS.spec, Options.runtime.spec, Options.output.spec],
                examples: ["animc export examples/talk.anim -o talk.html", "animc export examples/talk.anim --to css",
                           "animc export examples/toast.anim --to js --prefix toast-in --selector '.{view}.is-entering'",
                           "animc export examples/toast.anim --to js --runtime ./animc-runtime.js -o toast.js",
                           "animc export examples/choreography.anim --to lottie --fps 30 -o choreography.json"],
                run: exportCommand),
        Command(name: "runtime", arguments: [],
                summary: "Write the player that `--to js --runtime` modules share.",
                discussion: "Write the player that the modules of `animc export FILE --to js --runtime PATH` import, an ES "
                    + "module exporting `animcModule(EXPORT)` (which makes a module's `duration` and `play` of its JSON). "
                    + "Serve it at PATH beside the modules: a page loads it once for all of them. Each module plays as "
                    + "the self-contained `--to js` one does; write the runtime and the modules with the same animc.",
                options: [Options.output.spec],
                examples: ["animc runtime -o animc-runtime.js"],
                run: runtimeCommand),
        Command(name: "plot", arguments: [file],
                summary: "Draw every property over time as an SVG picture.",
                discussion: "Plot the last `let` of FILE (or the one --binding names) as a standalone SVG: one panel per "
                    + "property, in eval's column order, over one time axis in seconds. A number is a curve scaled to "
                    + "its least and greatest value (written on the left), a colour a strip of its colours; a point is "
                    + "its two numbers `x` and `y`. Dashed lines mark where the property's segments start and end, "
                    + "orange lines the events, labelled with their names. The values are eval's, sampled densely and "
                    + "exactly at every boundary and jump, so a jump is a vertical line. A cancelled animation is a "
                    + "picture that says so. An animation that repeats forever needs --until.",
                options: [Options.binding.spec, Options.after.spec, Options.until.spec, Options.output.spec],
                examples: ["animc plot examples/choreography.anim -o choreography.svg",
                           "animc plot examples/laws.anim --binding distributed --until 0.5 -o part.svg"],
                run: plotCommand),
        Command(name: "render", arguments: [file],
                summary: "Draw it frame by frame: a GIF, APNG, PNG frames or a video.",
                discussion: "Draw the last `let` of FILE (or the one --binding names) frame by frame, as the player "
                    + "page's stage shows it in its clean view (no grid, no labels), anti-aliased, and write it to OUT: "
                    + "a .gif (looping; --background transparent for a transparent one), a .png (APNG), a directory or "
                    + "a pattern such as frame-%04d.png (one PNG per frame), or .mp4 and .webm through ffmpeg when it "
                    + "is installed. -o - writes a GIF to standard output. Frame k shows the time --from + k/fps, for "
                    + "every such time before the end (--to, --until, else the animation's end; one that repeats "
                    + "forever needs one of them). At most \(Options.mostFrames) frames, each side at most "
                    + "\(Options.largestSide) pixels. The picture is written beside OUT under a temporary name and "
                    + "renamed when complete, so a render that fails leaves nothing that looks finished.",
                options: [Options.binding.spec, Options.after.spec, Options.renderOutput.spec, Options.renderFPS.spec, Options.size.spec,
                          Options.scale.spec, Options.background.spec, Options.from.spec, Options.renderTo.spec,
                          Options.until.spec, Options.loopCount.spec],
                examples: ["animc render examples/choreography.anim -o choreography.gif",
                           "animc render examples/spinner.anim --to 2s --size 320x180 -o spinner.png",
                           "animc render examples/talk.anim --scale 2 --background transparent -o talk.gif",
                           "animc render examples/talk.anim -o frames/"],
                run: renderCommand),
        Command(name: "play", arguments: [file],
                summary: "Play it live in the terminal: bars, values, events.",
                discussion: "Play the last `let` of FILE (or the one --binding names) in the terminal, about 30 frames "
                    + "a second: the time over the duration, then a row per property, sorted as eval's columns, with a "
                    + "bar placing its value within its range over the whole animation and the value as eval prints "
                    + "it (colours as a swatch and their hex); events that just fired are highlighted, and a log "
                    + "keeps the last ones. Keys: space pauses and resumes (at the end, plays again); ← and → (or h "
                    + "and l, or , and .) seek 0.1 s of animation time, one row of eval's default 10 fps; 0 or Home "
                    + "goes back to the start; q or Ctrl-C quits. A finite animation stops on its last frame until "
                    + "q (or starts again with --loop); one that repeats forever plays until q. A cancelled "
                    + "animation has nothing to play: play says so and exits 0. Standard output must be a terminal "
                    + "(exit 2 otherwise): `animc eval` prints the same values as a table.",
                options: [Options.binding.spec, Options.after.spec, Options.speed.spec, Options.loop.spec],
                examples: ["animc play examples/choreography.anim", "animc play examples/talk.anim --speed 0.5 --loop"],
                run: playCommand),
        Command(name: "serve", arguments: [ArgumentSpec(name: "FILE", help: "The script to follow (a file: not `-`).")],
                summary: "Serve its player page on 127.0.0.1 and follow every save.",
                discussion: "Serve the player page of the last `let` of FILE (or the one --binding names) at "
                    + "http://127.0.0.1:N/ and follow FILE: within half a second of a save, every open page shows the "
                    + "new animation at the same time position, without a reload. While FILE has errors (or cannot be "
                    + "read) the page keeps the last good animation and shows the diagnostics over the stage, as the "
                    + "terminal prints them, until it is fixed. The terminal says the address, each reload and each "
                    + "diagnostic. It listens on the loopback address only and answers / and /update only (anything "
                    + "else is 404). Ctrl-C (or SIGTERM) stops it.",
                options: [Options.binding.spec, Options.after.spec, Options.port.spec],
                examples: ["animc serve examples/talk.anim", "animc serve examples/choreography.anim --port 8080"],
                run: serveCommand),
        Command(name: "lsp", arguments: [],
                summary: "Speak the language to an editor (LSP on stdin/stdout).",
                discussion: "Speak the Language Server Protocol (3.17, JSON-RPC with Content-Length headers) on standard "
                    + "input and output, for an editor to start: diagnostics as you type (every error and warning "
                    + "`check` reports), hover (a let's kind, duration and properties; an easing's curve; a view's "
                    + "initial values), completion, go to definition, references and the outline of lets and views. "
                    + "It writes nothing but protocol messages to standard output, and exits when the editor says "
                    + "`exit` or closes standard input. See editors/ for VS Code and Neovim.",
                options: [], examples: ["animc lsp"],
                run: lspCommand),
    ],
    notes: ["FILE may be `-` for standard input. An option's value follows it (`--fps 4`) or is joined to it "
        + "by `=` (`--fps=4`).", "`animc COMMAND --help` (or `animc help COMMAND`) describes a command and its options."],
    exitStatuses: [
        (0, "success (warnings may have been printed)"),
        (1, "errors in the script, or the file could not be read (equal: they differ)"),
        (2, "bad command-line usage"),
    ],
    examples: [
        "animc eval examples/talk.anim",
        "animc eval examples/talk.anim --fps 4 --format csv",
        "animc eval examples/talk.anim --at 1/3,0.5,1500ms",
        "animc check examples/talk.anim",
        "animc normalize examples/laws.anim --binding distributed",
        "animc timeline examples/talk-semiring.anim --width 30",
        "animc export examples/talk.anim -o talk.html",
        "animc export examples/talk.anim --to lottie -o talk.json",
        "animc plot examples/choreography.anim -o choreography.svg",
        "animc play examples/choreography.anim",
        "animc serve examples/talk.anim",
        "animc eval --help",
    ],
    epilogue: "The language is described in grammar.md.",
    version: "animc 0.1.0")

// MARK: - What they do

@Sendable func evalCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    if arguments.value(Options.at) != nil, arguments.value(Options.until) != nil {
        throw reportUsage(Diagnostic(.conflictingOptions("--at", "--until"), at: .none,
                                     hint: "--at prints exactly the times it lists; --until prints frames up to a time"),
                          usage: "usage: " + arguments.command.usage)
    }
    let file = try readSource(arguments.positional(0))
    // Sampling needs no syntax tree: it is freed before the scene is compiled.
    let (outcome, _, _) = try evaluated(file, arguments, keepingSyntax: false)
    let format = arguments.value(Options.format) ?? (System.isTerminal(System.standardOutput) ? .table : .csv)
    let at = arguments.value(Options.at)
    let until = arguments.value(Options.until)
    let request = TableRequest(format: format, fps: Int64(arguments.value(Options.fps) ?? Options.defaultFPS),
                               times: at?.times, until: until?.times.first,
                               timeDecimals: max(at?.decimals ?? 3, until?.decimals ?? 3), maximumRows: maximumRows)
    let errors = writeTable(outcome, request) { chunk in
        // Straight to the descriptor: a chunk is 64 KiB or more (a long table's half), no copy into the buffer.
        standardOutput.flush()
        System.writeAll(System.standardOutput, chunk)
        chunk.removeAll(keepingCapacity: true)
    }
    if !errors.isEmpty {
        report(errors, in: file)
        throw .failure
    }
}

@Sendable func checkCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let file = try readSource(arguments.positional(0))
    let outcome = run(file)
    keepUntilExit(outcome)
    report(outcome.diagnostics, in: file)
    if outcome.hasErrors { throw .failure }
    // What `eval` would say of a scene it cannot sample.
    do {
        _ = try outcome.compiledScene()
    } catch {
        if let target = outcome.target { report([samplingError(error, binding: target)], in: file) }
        throw .failure
    }
}

@Sendable func normalizeCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let file = try readSource(arguments.positional(0))
    let (outcome, _, _) = try evaluated(file, arguments)
    do {
        let normal = try normalize(outcome)
        standardOutput.write(arguments.isSet(Options.tree) ? formatTree(normal.expr) : format(normal.program))
    } catch {
        report(Diagnostic(.cannotNormalize("\(error)"), at: .none), origin: file.name)
        throw .failure
    }
}

@Sendable func timelineCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let file = try readSource(arguments.positional(0))
    let (outcome, target, _) = try evaluated(file, arguments)
    do {
        guard let compiled = try outcome.compiledScene() else {
            standardOutput.write("`\(target.name)` is cancelled: it has no segments\n")
            return
        }
        standardOutput.write(timelineText(compiled, width: arguments.value(Options.width) ?? Options.defaultWidth))
    } catch {
        report([samplingError(error, binding: target)], in: file)
        throw .failure
    }
}


@Sendable func equalCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let first = try readSource(arguments.positional(0))
    let (leftOutcome, _, left) = try evaluated(first, arguments)
    let second = try readSource(arguments.positional(1))
    let (rightOutcome, _, right) = try evaluated(second, arguments)
    let comparison: Scene.Comparison
    do {
        comparison = try Scene.sameAnimation(left, right, initial: (leftOutcome.initial, rightOutcome.initial))
    } catch {
        report(Diagnostic(.animation(error), at: .none))
        throw .failure
    }
    switch comparison {
    case .same:
        standardOutput.write("equal: \(first.name) and \(second.name) are the same animation\n")
    case .different(let why):
        standardOutput.write("different: \(why)\n")
        throw .failure
    }
}

@Sendable func fmtCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let checking = arguments.isSet(Options.check)
    var failed = false
    for path in arguments.positionals {
        let source: SourceFile
        do throws(ExitStatus) {
            source = try readSource(path)
        } catch {
            failed = true
            continue
        }
        switch formatSource(source) {
        case .refused(let diagnostics):
            report(diagnostics, in: source)
            report(Diagnostic(.notFormatted(file: source.name), at: .none,
                              hint: diagnostics.contains { $0.id == "format-would-change-meaning" } ? nil : "fix its errors first"))
            failed = true
            if path == "-", !checking {
                standardOutput.buffer.append(contentsOf: source.bytes)
                standardOutput.flush()
            }
        case .formatted(let formatted):
            if checking {
                if formatted.changesFile {
                    standardOutput.write("\(source.name) would be reformatted\n")
                    failed = true
                }
            } else if path == "-" {
                standardOutput.buffer.append(contentsOf: formatted.bytes)
                standardOutput.flush()
            } else if formatted.changesFile, case .failure(let failure) = System.writeFile(path, formatted.bytes) {
                report(Diagnostic(.unwritableFile(path: path, reason: failure.reason), at: .none))
                failed = true
            }
        }
    }
    standardOutput.flush()
    if failed { throw .failure }
}

@Sendable func exportCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let target = arguments.value(Options.to) ?? ExportTarget.html
    let usage = "usage: " + arguments.command.usage
    let prefix = arguments.value(Options.prefix), selector = arguments.value(Options.selector)
    let fps = arguments.value(Options.exportFPS), runtime = arguments.value(Options.runtime)
    for option in ExportOption.allCases {
        let given: Bool
        switch option {
        case .fps: given = fps != nil
        case .prefix: given = prefix != nil
        case .selector: given = selector != nil
        case .runtime: given = runtime != nil
        }
        if given, let hint = target.refusal(of: option) {
            throw reportUsage(Diagnostic(.optionNotAccepted(option.rawValue, command: "export --to \(target.name)"), at: .none, hint: hint),
                              usage: usage)
        }
    }
    // Both were checked as they were read.
    let names = WebNames(prefix: prefix ?? WebNames.defaultPrefix, selector: selector ?? WebNames.defaultSelector) ?? .standard
    let file = try readSource(arguments.positional(0))
    let (outcome, _, _) = try evaluated(file, arguments)
    let (bytes, diagnostics) = target.write(ExportRequest(outcome: outcome, source: file.name, names: names, fps: fps, runtime: runtime))
    report(diagnostics, in: file)
    guard let bytes else { throw .failure }
    try writeOutput(bytes, arguments)
}

@Sendable func runtimeCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    try writeOutput(Array(webRuntime.utf8), arguments)
}

@Sendable func plotCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    // A negative --until is refused where the option is read.
    let until = arguments.value(Options.until)?.times.first
    let file = try readSource(arguments.positional(0))
    let (outcome, _, _) = try evaluated(file, arguments)
    let (plot, diagnostics) = makePlot(outcome, source: file.name, until: until)
    report(diagnostics, in: file)
    guard let plot else { throw .failure }
    try writeOutput(Array(plot.svg().utf8), arguments)
}

@Sendable func playCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    guard System.isTerminal(System.standardOutput) else {
        throw reportUsage(Diagnostic(.notATerminal(command: "play"), at: .none,
                                     hint: "run it in a terminal; `animc eval` prints the same values as a table"),
                          usage: "usage: " + arguments.command.usage)
    }
    let file = try readSource(arguments.positional(0))
    let (outcome, target, _) = try evaluated(file, arguments)
    let playback: Playback
    do {
        guard let prepared = try Playback.prepare(outcome) else {
            standardOutput.write("`\(target.name)` is cancelled: it has no frames to play\n")
            return
        }
        playback = prepared
    } catch {
        report([error], in: file)
        throw .failure
    }
    let status = play(playback, file: file.name, speed: arguments.value(Options.speed) ?? 1,
                      loops: arguments.isSet(Options.loop))
    if status != 0 { throw ExitStatus(code: status) }
}

@Sendable func serveCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let path = arguments.positional(0)
    let usage = "usage: " + arguments.command.usage
    guard path != "-" else {
        throw reportUsage(Diagnostic(.standardInputNotFollowed(command: "serve"), at: .none,
                                     hint: "save the script to a file and name it"), usage: usage)
    }
    let port = arguments.value(Options.port) ?? Options.defaultPort
    let listener: Int32
    switch System.listenOnLoopback(port: port) {
    case .success(let descriptor): listener = descriptor
    case .failure(let failure):
        throw reportUsage(Diagnostic(.portUnavailable(port: port, reason: failure.reason), at: .none,
                                     hint: "another program may be using it: choose another with --port N"), usage: usage)
    }
    System.catchTerminationSignals()
    standardOutput.write("animc serve: http://127.0.0.1:\(port)/ follows \(path) (Ctrl-C stops)\n")
    standardOutput.flush()
    let status = serve(listener, port: port, watcher: Watcher(path: path, binding: arguments.value(Options.binding),
                                                                      after: arguments.value(Options.after)))
    standardOutput.write("animc serve: stopped\n")
    throw ExitStatus(code: status)
}

// MARK: - Shared steps

/// Writes `bytes` to `-o OUT`, or to standard output without it (or with `-o -`);
/// a file that cannot be written is exit 1.
func writeOutput(_ bytes: [UInt8], _ arguments: ParsedArguments) throws(ExitStatus) {
    guard let path = arguments.value(Options.output), path != "-" else {
        standardOutput.buffer.append(contentsOf: bytes)
        standardOutput.flush()
        return
    }
    if case .failure(let failure) = System.writeFile(path, bytes) {
        report(Diagnostic(.unwritableFile(path: path, reason: failure.reason), at: .none))
        throw .failure
    }
}

extension ParsedArguments {
    /// The positional argument at `index` (the parser checked how many there are).
    func positional(_ index: Int) -> String {
        positionals.indices.contains(index) ? positionals[index] : "-"
    }
}

/// The script at `path` (`-` is standard input); when it cannot be read,
/// says why and exits 1.
func readSource(_ path: String) throws(ExitStatus) -> SourceFile {
    switch System.readAll(path == "-" ? nil : path) {
    case .success(let bytes):
        return SourceFile(name: path == "-" ? "<stdin>" : path, bytes: bytes)
    case .failure(let failure):
        report(Diagnostic(.unreadableFile(path: path, reason: failure.reason), at: .none))
        throw .failure
    }
}

/// Runs the script and reports its diagnostics; exits 1 when it has errors,
/// and 2 when `--binding` names a binding the file does not have (a usage
/// error, not a mistake in the script).
func evaluated(_ file: SourceFile, _ arguments: ParsedArguments, keepingSyntax: Bool = true) throws(ExitStatus) -> (Outcome, Binding, Scene) {
    let name = arguments.value(Options.binding)
    let after = arguments.command.options.contains { $0 === Options.after.spec } ? arguments.value(Options.after) : nil
    let outcome = run(file, binding: name, after: after, keepingSyntax: keepingSyntax)
    keepUntilExit(outcome)
    var diagnostics = outcome.diagnostics
    // `--after NAME` that names nothing that ends: a usage error of the option.
    if let index = diagnostics.firstIndex(where: { $0.id == "invalid-after" }) {
        let wrong = diagnostics.remove(at: index)
        report(diagnostics, in: file)
        throw reportUsage(wrong, usage: "usage: " + arguments.command.usage)
    }
    if let name, outcome.target == nil,
       let index = diagnostics.firstIndex(where: { $0.id == DiagnosticKind.unknownBinding(name).id }) {
        let unknown = diagnostics.remove(at: index)
        report(diagnostics, in: file)
        throw reportUsage(Diagnostic(.noSuchBinding(name, file: file.name), at: .none, hint: unknown.hint),
                          usage: "usage: " + arguments.command.usage)
    }
    report(diagnostics, in: file)
    guard !outcome.hasErrors, let target = outcome.target, let scene = outcome.scene else { throw .failure }
    return (outcome, target, scene)
}
