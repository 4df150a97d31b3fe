import Foundation
import Testing

/// The command line's shape, through the built binary: usage errors (exit
/// 2, `animc: error: …`, a hint, then the usage line), help for every
/// command, and the options' spellings.
struct UsageTests {
    typealias Result = MalformedCLITests.Result

    func animc(_ arguments: [String], input: String? = nil) throws -> Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    struct UsageCase: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        /// The message after `animc: error: `.
        let message: String
        /// A piece of the hint, when there must be one.
        let hint: String?
        /// How the usage line after it starts.
        let usage: String
        var testDescription: String { "animc " + arguments.joined(separator: " ") }

        init(_ arguments: [String], _ message: String, hint: String? = nil, usage: String = "usage: animc ") {
            self.arguments = arguments
            self.message = message
            self.hint = hint
            self.usage = usage
        }
    }

    static let usageErrors: [UsageCase] = [
        // Commands.
        .init([], "missing command", hint: "the commands are eval, check, normalize, timeline, equal, fmt, export, runtime, plot, render, play, serve and lsp"),
        .init(["frobnicate"], "unknown command `frobnicate`", hint: "the commands are"),
        .init(["evl", "x.anim"], "unknown command `evl`", hint: "did you mean `eval`?"),
        .init(["--fps", "3"], "unknown option `--fps`", hint: "the command comes first"),
        .init(["help", "nope"], "unknown command `nope`"),
        // Arguments.
        .init(["eval"], "eval needs FILE", usage: "usage: animc eval FILE [--binding NAME]"),
        .init(["eval", "a.anim", "b.anim"], "unexpected argument `b.anim` for eval", hint: "eval takes one FILE"),
        .init(["equal", "examples/talk.anim"], "equal needs FILE2", usage: "usage: animc equal FILE1 FILE2"),
        .init(["equal", "-", "-"], "standard input (`-`) can be read only once", usage: "usage: animc equal FILE1 FILE2"),
        // Options a command does not take: named with the commands that do.
        .init(["eval", "x.anim", "--width", "30"], "eval does not take --width", hint: "--width is an option of timeline",
              usage: "usage: animc eval FILE"),
        .init(["check", "x.anim", "--width=30"], "check does not take --width", hint: "--width is an option of timeline"),
        .init(["normalize", "x.anim", "--width", "30"], "normalize does not take --width"),
        .init(["check", "x.anim", "--fps", "3"], "check does not take --fps", hint: "--fps is an option of eval",
              usage: "usage: animc check FILE\n"),
        .init(["check", "x.anim", "--binding", "a"], "check does not take --binding",
              hint: "--binding is an option of eval, normalize, timeline, equal, export, plot, render, play and serve"),
        .init(["timeline", "x.anim", "--tree"], "timeline does not take --tree", hint: "--tree is an option of normalize"),
        .init(["eval", "x.anim", "--speed", "2"], "eval does not take --speed", hint: "--speed is an option of play"),
        // Unknown options: a did-you-mean, or the options there are.
        .init(["eval", "x.anim", "--fsp", "3"], "unknown option `--fsp` for eval", hint: "did you mean `--fps`?"),
        .init(["eval", "x.anim", "--bogus"], "unknown option `--bogus` for eval", hint: "eval takes --binding, --after, --fps, --at, --until and --format"),
        .init(["check", "x.anim", "-q"], "unknown option `-q` for check", hint: "check takes no options"),
        // Values.
        .init(["eval", "x.anim", "--fps"], "--fps needs a value", hint: "write `--fps N`"),
        .init(["eval", "x.anim", "--fps", "--format", "csv"], "--fps needs a value"),
        .init(["eval", "x.anim", "--fps", "0"], "--fps takes a whole number from 1 to 1000000, not `0`"),
        // A repeated option is refused, never dropped in silence (issue 37: `--at 0.5 --at 1` kept 1).
        .init(["eval", "x.anim", "--at", "0.5", "--at", "1"], "--at is given more than once", hint: "list the times in one --at: `--at 0.5,1`"),
        .init(["eval", "x.anim", "--fps", "4", "--fps=5"], "--fps is given more than once", hint: "give --fps once"),
        .init(["play", "x.anim", "--loop", "--loop"], "--loop is given more than once", hint: "give --loop once"),
        .init(["export", "x.anim", "-o", "a.html", "--output", "b.html"], "--output is given more than once", hint: "give --output once"),
        .init(["eval", "x.anim", "--fps=2.5"], "--fps takes a whole number from 1 to 1000000, not `2.5`"),
        .init(["eval", "x.anim", "--format", "xml"], "--format takes table, csv or json, not `xml`"),
        .init(["eval", "x.anim", "--at", "soon"], "--at takes times in seconds separated by commas, not `soon`"),
        .init(["eval", "x.anim", "--at", "0.5,1/0"], "--at takes times in seconds separated by commas, not `1/0`"),
        .init(["timeline", "x.anim", "--width", "5"], "--width takes a whole number from 10 to 1000, not `5`"),
        .init(["eval", "x.anim", "--until", "-1"], "--until takes a time of 0 or more, not `-1`"),
        .init(["eval", "x.anim", "--until", "1e400"], "--until takes a time in seconds, not `1e400`"),
        .init(["eval", "x.anim", "--at", "0,-1"], "--at takes times of 0 or more, not `-1`"),
        .init(["eval", "x.anim", "--until", "1,2"], "--until takes one time in seconds, not `1,2`"),
        .init(["normalize", "x.anim", "--tree=yes"], "--tree takes no value"),
        .init(["play", "x.anim", "--speed", "0"], "--speed takes a decimal from 0.1 to 10, not `0`"),
        .init(["play", "x.anim", "--speed", "0.05"], "--speed takes a decimal from 0.1 to 10, not `0.05`"),
        .init(["play", "x.anim", "--speed=10.5"], "--speed takes a decimal from 0.1 to 10, not `10.5`"),
        .init(["play", "x.anim", "--speed", "fast"], "--speed takes a decimal from 0.1 to 10, not `fast`"),
        .init(["play", "x.anim", "--speed", "-1"], "--speed takes a decimal from 0.1 to 10, not `-1`"),
        .init(["play", "x.anim", "--loop=yes"], "--loop takes no value"),
        // Web export names: a prefix is a CSS identifier, a selector a template with `{view}` and no other braces.
        .init(["export", "x.anim", "--prefix", "9lives"],
              "--prefix takes a CSS identifier: a letter or `_`, then letters, digits, `-` or `_`, not `9lives`"),
        .init(["export", "x.anim", "--prefix", "a.b"],
              "--prefix takes a CSS identifier: a letter or `_`, then letters, digits, `-` or `_`, not `a.b`"),
        .init(["export", "x.anim", "--prefix="],
              "--prefix takes a CSS identifier: a letter or `_`, then letters, digits, `-` or `_`, not ``"),
        .init(["export", "x.anim", "--selector", ".toast"],
              "--selector takes a selector with `{view}` for the view's name and no other `{` or `}`, not `.toast`"),
        .init(["export", "x.anim", "--selector", ".{view} { color: red }"],
              "--selector takes a selector with `{view}` for the view's name and no other `{` or `}`, not `.{view} { color: red }`"),
        .init(["export", "examples/talk.anim", "--selector", ".{view}"], "export --to html does not take --selector",
              hint: "the player page draws its own stage", usage: "usage: animc export FILE"),
        .init(["export", "examples/talk.anim", "--to", "lottie", "--prefix", "a"], "export --to lottie does not take --prefix",
              usage: "usage: animc export FILE"),
        // play draws on a terminal: with standard output elsewhere (as here), a usage error, before the file is read.
        .init(["play", "examples/talk.anim"], "play draws on a terminal, and standard output is not one",
              hint: "run it in a terminal; `animc eval` prints the same values as a table", usage: "usage: animc play FILE"),
        .init(["play", "no/such/file.anim", "--speed", "2", "--loop"], "play draws on a terminal, and standard output is not one"),
        // A binding the file does not have is a usage error, not a script error at 1:1.
        .init(["eval", "examples/laws.anim", "--binding", "nope"], "no binding named `nope` in examples/laws.anim",
              hint: "the file defines `grow`, `red`, `fade`, `left-nested`, `right-nested`, `distributed`, `factored`",
              usage: "usage: animc eval FILE"),
        .init(["normalize", "examples/laws.anim", "--binding=distribted"], "no binding named `distribted` in examples/laws.anim",
              hint: "did you mean `distributed`?", usage: "usage: animc normalize FILE"),
        .init(["equal", "examples/laws.anim", "examples/jumps.anim", "--binding", "fade"],
              "no binding named `fade` in examples/jumps.anim", usage: "usage: animc equal FILE1 FILE2"),
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExitTwo(_ testCase: UsageCase) throws {
        let result = try animc(testCase.arguments)
        #expect(result.status == 2, "\(result.errors)")
        #expect(result.output.isEmpty)
        // Only warnings of the script may come before the error.
        var lines = result.errors.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .drop { !$0.hasPrefix("animc: error: ") }
        #expect(lines.popFirst() == "animc: error: " + testCase.message, "\(result.errors)")
        if let hint = testCase.hint {
            #expect(lines.first.map { $0.hasPrefix("  hint: ") && $0.contains(hint) } == true, "\(result.errors)")
        }
        if lines.first?.hasPrefix("  hint: ") == true { lines.removeFirst() }
        let usage = lines.joined(separator: "\n")
        #expect(usage.hasPrefix(testCase.usage), "\(result.errors)")
        #expect(!result.errors.contains(":1:1:"), "\(result.errors)")
    }

    // MARK: Help

    @Test(arguments: [
        ("eval", ["--binding NAME", "--fps N", "--at T1,T2,...", "--until T", "--format table|csv|json", "(default: 10)",
                  "At most 1000000 rows"]),
        ("check", []),
        ("normalize", ["--binding NAME", "--tree"]),
        ("timeline", ["--binding NAME", "--width N", "(default: 60)"]),
        ("equal", ["FILE1", "FILE2", "--binding NAME"]),
        ("export", ["--to lottie", "--fps N", "(default: 60)", "--binding NAME", "-o, --output OUT"]),
        ("play", ["--binding NAME", "--speed X", "(default: 1)", "--loop", "space pauses and resumes", "seek 0.1 s",
                  "q or Ctrl-C quits", "Standard output must be a terminal"]),
    ])
    func everyCommandHasHelp(_ command: String, _ expected: [String]) throws {
        let help = try animc([command, "--help"])
        #expect(help.status == 0)
        #expect(help.errors.isEmpty)
        #expect(help.output.hasPrefix("usage: animc \(command) "))
        #expect(help.output.contains("Options:\n"))
        #expect(help.output.contains("-h, --help"))
        let flowing = help.output.replacingOccurrences(of: "\n", with: " ")
        for piece in expected {
            #expect(flowing.contains(piece), "\(command) --help lacks \(piece):\n\(help.output)")
        }
        // Only its own options.
        for option in ["--binding", "--fps", "--at", "--until", "--format", "--tree", "--width"] where !expected.contains(where: { $0.hasPrefix(option) }) {
            #expect(!help.output.contains(option + " "), "\(command) --help shows \(option)")
        }
        #expect(try animc(["help", command]).output == help.output)
        #expect(try animc([command, "-h"]).output == help.output)
        #expect(try animc([command, "x.anim", "--bogus", "--help"]).output == help.output)
    }

    @Test func mainHelpListsCommandsStatusesAndExamples() throws {
        let help = try animc(["--help"])
        #expect(help.status == 0)
        for line in ["  eval FILE ", "  check FILE ", "  normalize FILE ", "  timeline FILE ", "  equal FILE1 FILE2 ", "  export FILE ", "  play FILE ", "  serve FILE ", "  lsp ",
                     "  0  success", "  1  errors in the script, or the file could not be read", "  2  bad command-line usage",
                     "Examples:\n  animc eval examples/talk.anim\n"] {
            #expect(help.output.contains(line), "\(line)")
        }
        #expect(try animc(["help"]).output == help.output)
        #expect(try animc(["-h"]).output == help.output)
        // No setting is read before it is set (once `--help` said "at most 0 rows").
        let eval = try animc(["eval", "--help"])
        #expect(eval.output.replacingOccurrences(of: "\n", with: " ").contains("At most 1000000 rows"))
        #expect(!(help.output + eval.output).contains(" 0 rows"))
        let version = try animc(["--version"])
        #expect(version.status == 0)
        #expect(version.output == "animc 0.1.0\n")
    }

    // MARK: Options

    @Test func optionsTakeEqualsOrSpace() throws {
        let spaced = try animc(["eval", "examples/laws.anim", "--binding", "fade", "--at", "0.5,1", "--format", "csv"])
        let equals = try animc(["eval", "examples/laws.anim", "--binding=fade", "--at=0.5,1", "--format=csv"])
        #expect(spaced.status == 0)
        #expect(spaced.output == "time,ball.opacity\n0.5,0.5\n1,0\n")
        #expect(equals.output == spaced.output)
        let json = try animc(["eval", "examples/jumps.anim", "--at=0.25", "--format=json"])
        #expect(json.output == "{\"time\":0.25,\"light.level\":1}\n")
    }

    @Test func atTakesTheFractionsNormalizePrints() throws {
        let script = "let a = animate v.x from 0 to 3 in 3s\n"
        let result = try animc(["eval", "-", "--at", "1/3,0.5,250ms,2/3s,1e0"], input: script)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output == "time,v.x\n0.3333333333333333,0.3333333333333333\n0.5,0.5\n0.25,0.25\n0.6666666666666666,0.6666666666666666\n1,1\n")
        let table = try animc(["eval", "-", "--at", "1/3", "--format", "table"], input: script)
        #expect(table.output.split(separator: "\n").last?.hasPrefix("0.333 ") == true, "\(table.output)")
        // What normalize prints reads back: a third of a second.
        let normal = try animc(["normalize", "-"], input: "let a = (wait 1 ; animate v.x from 0 to 1) in 2/3\n")
        #expect(normal.output.contains("(1/3)s"), "\(normal.output)")
        let third = try animc(["eval", "-", "--at", "1/3s,2/3s"], input: normal.output)
        #expect(third.status == 0)
        #expect(third.output == "time,v.x\n0.3333333333333333,0\n0.6666666666666666,1\n")
    }

    @Test func standardInputIsADash() throws {
        let result = try animc(["check", "-"], input: "let a = fadeIn v\n")
        #expect(result.status == 0)
        let equal = try animc(["equal", "-", "examples/laws.anim", "--binding", "fade"], input: "let fade = animate ball.opacity from 1 to 0\n")
        #expect(equal.status == 0, "\(equal.errors)")
        #expect(equal.output == "equal: <stdin> and examples/laws.anim are the same animation\n")
    }

    @Test func unreadableFilesExitOne() throws {
        let result = try animc(["check", "no/such/file.anim"])
        #expect(result.status == 1)
        #expect(result.errors == "animc: error: cannot read no/such/file.anim: No such file or directory\n")
        let directory = try animc(["eval", "examples"])
        #expect(directory.status == 1)
        #expect(directory.errors.hasPrefix("animc: error: cannot read examples: "))
    }

    #if os(Linux)
    /// The binary links no Foundation (start-up time, size).
    @Test func binaryLinksNoFoundation() throws {
        let ldd = URL(fileURLWithPath: "/usr/bin/ldd")
        guard FileManager.default.isExecutableFile(atPath: ldd.path) else { return }
        let process = Process()
        let pipe = Pipe()
        process.executableURL = ldd
        process.arguments = [MalformedCLITests.binary.path]
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(!output.lowercased().contains("foundation"), "\(output)")
    }
    #endif

    /// `export --help` names the custom property as it is written (`--animc-p`),
    /// says --fps is Lottie's alone, and that the talk's ease-in/ease-out/ease-in-out
    /// are not CSS's keywords (issue 37).
    @Test func exportHelpSaysWhatTheWebGets() throws {
        let help = try animc(["export", "--help"])
        #expect(help.status == 0)
        let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("custom property `--animc-p`"))
        #expect(!text.contains("`--p`"))
        #expect(text.contains("--fps is Lottie's alone"))
        #expect(text.contains("css-ease-out"))
    }
}
