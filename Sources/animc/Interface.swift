// The shape of the command line, declared once: each command names its
// arguments, its help and the options it takes; each option its spellings,
// its value (how it is read and checked), its help and its default. Parsing,
// validation, usage lines, `--help` and usage errors are all derived from
// these declarations (in the spirit of swift-argument-parser, which the
// project does not take as a dependency).

import AnimLang
import AnimOutputs

// MARK: - Declarations

/// A value an option does not take.
struct InvalidValue: Error {
    /// What the option takes, as it reads after "--fps takes": "a whole number from 1 to 1000000".
    let expected: String
    /// The part of the value at fault when not all of it (one item of a list).
    var culprit: String?
}

/// How an option is spelt and what it takes: the untyped declaration that
/// parsing, validation, usage lines and help are generated from. A class (as
/// ``ArgumentSpec`` and ``Command``): an array of class instances shares the
/// storage type of `[AnyObject]`, where an array of structs would build its
/// generic metadata at run time, on every start-up.
final class OptionSpec: Sendable {
    /// `--binding`.
    let long: String
    /// `o` for `-o`.
    let short: Character?
    /// What the value is called in help (`NAME`, `table|csv|json`); `nil` for a flag.
    /// Spelt only for help and errors: a choice's words are joined from its cases.
    var valueName: String? { valueNameText?() }
    private let valueNameText: (@Sendable () -> String)?
    let help: String
    /// The default, as help shows it.
    let defaultValue: String?
    /// Whether it may be given more than once, every value kept (otherwise the last one counts).
    let repeatable: Bool
    /// Checks a value (`nil` for a flag).
    let check: (@Sendable (String) -> InvalidValue?)?

    init(long: String, short: Character?, valueName: (@Sendable () -> String)?, help: String, defaultValue: String?,
         repeatable: Bool, check: (@Sendable (String) -> InvalidValue?)?) {
        self.long = long
        self.short = short
        valueNameText = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.repeatable = repeatable
        self.check = check
    }

    var takesValue: Bool { valueNameText != nil }

    /// Every way to write it: `--output`, `-o`.
    var spellings: [String] {
        [long] + (short.map { ["-\($0)"] } ?? [])
    }

    /// Whether `name` is one of its ``spellings`` (without building them).
    func isSpelt(_ name: String) -> Bool {
        name == long || short.map { name == "-\($0)" } ?? false
    }

    /// `--binding NAME`, `--tree`, `-o OUT`: as it appears in usage lines.
    var synopsis: String {
        let name = short.map { "-\($0)" } ?? long
        return valueName.map { "\(name) \($0)" } ?? name
    }

    /// `-o, --output OUT`: as it appears in help.
    var helpLabel: String {
        let names = (short.map { "-\($0), " } ?? "") + long
        return valueName.map { "\(names) \($0)" } ?? names
    }
}

/// An option with a value of type `Value`: its declaration and how the value reads.
struct Option<Value>: Sendable {
    let spec: OptionSpec
    let read: @Sendable (String) throws(InvalidValue) -> Value

    init(_ long: String, short: Character? = nil, value name: @autoclosure @escaping @Sendable () -> String, help: String,
         default defaultValue: String? = nil, repeatable: Bool = false,
         read: @escaping @Sendable (String) throws(InvalidValue) -> Value) {
        self.read = read
        spec = OptionSpec(long: long, short: short, valueName: name, help: help, defaultValue: defaultValue,
                          repeatable: repeatable, check: { text in
                              do throws(InvalidValue) {
                                  _ = try read(text)
                                  return nil
                              } catch {
                                  return error
                              }
                          })
    }
}

extension Option where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
    /// An option whose value is one of a fixed set of words (`--format table|csv|json`).
    static func choice(_ long: String, short: Character? = nil, help: String, default defaultValue: Value? = nil,
                       repeatable: Bool = false) -> Option {
        // The cases are listed only for help and errors (`allCases` builds an
        // array type's metadata at run time): a value reads by its raw value.
        @Sendable func names() -> [String] { Value.allCases.map(\.rawValue) }
        return Option(long, short: short, value: names().joined(separator: "|"), help: help, default: defaultValue?.rawValue,
                      repeatable: repeatable) { text throws(InvalidValue) in
            guard let value = Value(rawValue: text) else { throw InvalidValue(expected: listed(names(), or: true)) }
            return value
        }
    }
}

extension Option where Value == String {
    /// An option whose value is any text (a name, a path).
    static func text(_ long: String, short: Character? = nil, value name: String, help: String, repeatable: Bool = false) -> Option {
        Option(long, short: short, value: name, help: help, repeatable: repeatable) { text throws(InvalidValue) in text }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    static func integer(_ long: String, value name: String, in range: ClosedRange<Int>, help: String, default defaultValue: Int) -> Option {
        Option(long, value: name, help: help, default: String(defaultValue)) { text throws(InvalidValue) in
            guard let value = Int(text), range.contains(value) else {
                throw InvalidValue(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
    }
}

/// An option without a value (`--tree`).
struct Flag: Sendable {
    let spec: OptionSpec

    init(_ long: String, short: Character? = nil, help: String) {
        spec = OptionSpec(long: long, short: short, valueName: nil, help: help, defaultValue: nil, repeatable: false, check: nil)
    }
}

/// A positional argument (`FILE`). A class, as ``OptionSpec``.
final class ArgumentSpec: Sendable {
    let name: String
    let help: String
    /// Whether it takes any number of values, one or more (the last argument only: `FILE...`).
    let repeats: Bool

    init(name: String, help: String, repeats: Bool = false) {
        self.name = name
        self.help = help
        self.repeats = repeats
    }
}

/// A subcommand: what it is called, what it takes and what it does. A class:
/// passed around by reference, an optional one needs no generic metadata built at run time.
final class Command: Sendable {
    let name: String
    let arguments: [ArgumentSpec]
    /// One line, for the list of commands.
    let summary: String
    /// A paragraph, for `animc COMMAND --help`.
    var discussion: String { discussionText() }
    /// Joined only when help is shown: the paragraphs are concatenations, and
    /// every run would pay for them at start-up.
    private let discussionText: @Sendable () -> String
    let options: [OptionSpec]
    let examples: [String]
    let run: @Sendable (ParsedArguments) throws(ExitStatus) -> Void

    init(name: String, arguments: [ArgumentSpec], summary: String, discussion: @autoclosure @escaping @Sendable () -> String,
         options: [OptionSpec], examples: [String], run: @escaping @Sendable (ParsedArguments) throws(ExitStatus) -> Void) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        discussionText = discussion
        self.options = options
        self.examples = examples
        self.run = run
    }

    /// `animc eval FILE [--binding NAME] …`.
    var usage: String {
        var parts = ["animc", name] + arguments.map(\.name)
        for option in options {
            parts.append("[\(option.synopsis)]" + (option.repeatable ? "..." : ""))
        }
        return parts.joined(separator: " ")
    }

    /// `eval FILE`, as the list of commands shows it.
    var label: String {
        ([name] + arguments.map(\.name)).joined(separator: " ")
    }
}

/// The whole command line: the program's commands and its general help.
struct Interface: Sendable {
    let overview: String
    let commands: [Command]
    /// Paragraphs shown after the list of commands.
    let notes: [String]
    /// `(status, meaning)`, built only for help (an array of tuples builds its type at run time).
    var exitStatuses: [(Int32, String)] { exitStatusesText() }
    private let exitStatusesText: @Sendable () -> [(Int32, String)]
    let examples: [String]
    let epilogue: String
    let version: String

    init(overview: String, commands: [Command], notes: [String],
         exitStatuses: @autoclosure @escaping @Sendable () -> [(Int32, String)], examples: [String], epilogue: String,
         version: String) {
        self.overview = overview
        self.commands = commands
        self.notes = notes
        exitStatusesText = exitStatuses
        self.examples = examples
        self.epilogue = epilogue
        self.version = version
    }

    func command(named name: String) -> Command? {
        commands.first { $0.name == name }
    }
}

// MARK: - Parsing

/// What the command line asks for.
enum Invocation {
    /// Print this help, exit 0.
    case help(String)
    case version
    case run(ParsedArguments)
    /// Print the error and the usage it broke, exit 2.
    case usageError(Diagnostic, usage: String)
}

/// A command's arguments, read and checked against its declaration.
struct ParsedArguments {
    let command: Command
    /// In order; as many as the command declares.
    let positionals: [String]
    /// The options given, by long name, in order, and the value of each
    /// (empty for a flag): two arrays searched from the end, not a
    /// dictionary — a handful of entries, and no dictionary type to build
    /// (and conformance to look up) at start-up.
    let givenNames: [String]
    let givenValues: [String]

    /// The option's value (given at most once: parsing refuses a second), or `nil` when it was not given.
    func value<Value>(_ option: Option<Value>) -> Value? {
        guard let index = givenNames.lastIndex(of: option.spec.long) else { return nil }
        return try? option.read(givenValues[index])   // checked when parsed: this cannot fail
    }

    /// Every value given for a repeatable option, in order.
    func values<Value>(_ option: Option<Value>) -> [Value] {
        givenNames.indices.compactMap { index in
            givenNames[index] == option.spec.long ? try? option.read(givenValues[index]) : nil
        }
    }

    func isSet(_ flag: Flag) -> Bool {
        givenNames.contains(flag.spec.long)
    }
}

extension Interface {
    /// Reads the command line (without the program name).
    func parse(_ arguments: [String]) -> Invocation {
        guard let first = arguments.first else {
            return .usageError(Diagnostic(.missingCommand, at: .none, hint: commandListHint), usage: generalUsage)
        }
        switch first {
        case "--help", "-h":
            return .help(help)
        case "--version":
            return .version
        case "help":
            let rest = arguments.dropFirst()
            guard let name = rest.first else { return .help(help) }
            guard let command = command(named: name) else { return unknownCommand(name) }
            if rest.count > 1 {
                return .usageError(Diagnostic(.extraArgument(command: "help", argument: rest[rest.startIndex + 1]), at: .none),
                                   usage: "usage: animc help COMMAND")
            }
            return .help(help(for: command))
        default:
            break
        }
        guard let command = command(named: first) else {
            if first.hasPrefix("-"), first != "-" {
                return .usageError(Diagnostic(.unknownOption(first, command: nil), at: .none,
                                              hint: "the command comes first: animc COMMAND ARGUMENTS [OPTIONS]"),
                                   usage: generalUsage)
            }
            return unknownCommand(first)
        }
        return parse(Array(arguments.dropFirst()), for: command)
    }

    /// Reads a command's arguments and options.
    func parse(_ arguments: [String], for command: Command) -> Invocation {
        // Built only for an error: `Command.usage` joins strings, a conformance looked up at run
        // time, which would be most of a correct command line's parsing.
        func usage() -> String { "usage: " + command.usage }
        func failure(_ kind: DiagnosticKind, hint: String? = nil) -> Invocation {
            .usageError(Diagnostic(kind, at: .none, hint: hint), usage: usage())
        }
        // `--help` anywhere (before `--`) asks for help, whatever else is there.
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
            return .help(help(for: command))
        }
        var positionals: [String] = []
        var givenNames: [String] = [], givenValues: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !isOption(argument) {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            // `--name=value`, `--name value`, `-o value`, `-ovalue`.
            var name = argument
            var attached: String?
            if argument.hasPrefix("--") {
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    attached = String(argument[argument.index(after: equals)...])
                }
            } else if argument.count > 2, command.options.contains(where: { $0.isSpelt(String(argument.prefix(2))) }) {
                name = String(argument.prefix(2))
                let rest = argument.dropFirst(2)
                attached = String(rest.first == "=" ? rest.dropFirst() : rest)
            }
            guard let option = command.options.first(where: { $0.isSpelt(name) }) else {
                return .usageError(optionProblem(name, command: command), usage: usage())
            }
            // An option that takes one value, given again, is refused rather than
            // letting one of the two win unseen (`--at 0.5 --at 1`).
            if !option.repeatable, givenNames.contains(option.long) {
                let hint = option.long == "--at" ? "list the times in one --at: `--at 0.5,1`" : "give \(option.long) once"
                return failure(.repeatedOption(option.long), hint: hint)
            }
            guard option.takesValue else {
                if attached != nil { return failure(.unexpectedValue(option: name)) }
                givenNames.append(option.long)
                givenValues.append("")
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else if index < arguments.count, !isOption(arguments[index]) {
                value = arguments[index]
                index += 1
            } else {
                return failure(.missingValue(option: name),
                               hint: option.valueName.map { "write `\(name) \($0)`" })
            }
            if let problem = option.check?(value) {
                return failure(.invalidValue(option: name, value: problem.culprit ?? value, expected: problem.expected))
            }
            givenNames.append(option.long)
            givenValues.append(value)
        }
        if positionals.count < command.arguments.count {
            return failure(.missingArgument(command: command.name, argument: command.arguments[positionals.count].name))
        }
        if positionals.count > command.arguments.count, command.arguments.last?.repeats != true {
            let extra = positionals[command.arguments.count]
            let hint = command.arguments.count == 1 ? "\(command.name) takes one \(command.arguments[0].name)" : nil
            return failure(.extraArgument(command: command.name, argument: extra), hint: hint)
        }
        if positionals.filter({ $0 == "-" }).count > 1 {
            return failure(.standardInputTwice, hint: "save all but one of the scripts to files, and name those")
        }
        return .run(ParsedArguments(command: command, positionals: positionals, givenNames: givenNames, givenValues: givenValues))
    }

    /// An option the command does not take: one that other commands take, or a typo.
    private func optionProblem(_ name: String, command: Command) -> Diagnostic {
        let takers = commands.filter { $0.options.contains { $0.isSpelt(name) } }.map(\.name)
        if !takers.isEmpty {
            return Diagnostic(.optionNotAccepted(name, command: command.name), at: .none,
                              hint: "\(name) is an option of \(listed(takers))")
        }
        let spellings = command.options.map(\.long)
        if let match = closestMatch(to: name, in: spellings + ["--help"]) {
            return Diagnostic(.unknownOption(name, command: command.name), at: .none, hint: didYouMean(match))
        }
        let hint = spellings.isEmpty ? "\(command.name) takes no options" : "\(command.name) takes \(listed(spellings))"
        return Diagnostic(.unknownOption(name, command: command.name), at: .none, hint: hint)
    }

    private func unknownCommand(_ name: String) -> Invocation {
        let hint = closestMatch(to: name, in: commands.map(\.name) + ["help"]).map(didYouMean) ?? commandListHint
        return .usageError(Diagnostic(.unknownCommand(name), at: .none, hint: hint), usage: generalUsage)
    }

    private var commandListHint: String {
        "the commands are " + listed(commands.map(\.name))
    }

    /// Whether an argument is an option (or `--`) rather than a value: `-`
    /// is standard input and `-1` a number.
    private func isOption(_ argument: String) -> Bool {
        guard argument.hasPrefix("-"), argument != "-" else { return false }
        let second = argument.dropFirst().first
        return !(second.map { $0.isNumber || $0 == "." } ?? false)
    }
}

/// `a`, `a and b`, `a, b and c` (or `a, b or c`).
func listed(_ items: [String], or: Bool = false) -> String {
    guard let last = items.last else { return "" }
    return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + last
}

// MARK: - Help

extension Interface {
    /// Every command's usage line, as shown after a usage error that is not about one command.
    var generalUsage: String {
        let lines = ["COMMAND ARGUMENTS [OPTIONS]", "COMMAND --help", "--help | --version"]
        return "usage: " + lines.map { "animc " + $0 }.joined(separator: "\n       ")
    }

    /// `animc --help`.
    var help: String {
        var out = overview + "\n\n" + generalUsage + "\n\nCommands:\n"
        out += table(commands.map { ($0.label, $0.summary) })
        for note in notes {
            out += "\n" + wrap(note, indent: 0) + "\n"
        }
        out += "\nExit status:\n"
        for (status, meaning) in exitStatuses {
            out += "  \(status)  \(meaning)\n"
        }
        out += "\nExamples:\n" + examples.map { "  " + $0 + "\n" }.joined()
        out += "\n" + wrap(epilogue, indent: 0) + "\n"
        return out
    }

    /// `animc COMMAND --help`.
    func help(for command: Command) -> String {
        var out = "usage: " + wrap(command.usage, indent: 7, hanging: true) + "\n\n"
        out += wrap(command.discussion, indent: 0) + "\n"
        if !command.arguments.isEmpty {
            out += "\nArguments:\n" + table(command.arguments.map { ($0.name, $0.help) })
        }
        let helpOption = ("-h, --help", "Show this help.")
        out += "\nOptions:\n" + table(command.options.map { option in
            var text = option.help
            if let value = option.defaultValue {
                let sentence = text.hasSuffix(".") ? String(text.dropLast()) : text
                text = sentence + " (default: \(value))."
            }
            if option.repeatable { text += " May be repeated." }
            return (option.helpLabel, text)
        } + [helpOption])
        if !command.examples.isEmpty {
            out += "\nExamples:\n" + command.examples.map { "  " + $0 + "\n" }.joined()
        }
        return out
    }

    /// Two columns: labels, and text wrapped beside them.
    private func table(_ rows: [(String, String)]) -> String {
        let width = min(24, rows.map(\.0.count).max() ?? 0)
        var out = ""
        for (label, text) in rows {
            let column = 2 + width + 2
            if label.count > width {
                out += "  " + label + "\n" + String(repeating: " ", count: column) + wrap(text, indent: column) + "\n"
            } else {
                out += "  " + label + String(repeating: " ", count: width - label.count + 2) + wrap(text, indent: column) + "\n"
            }
        }
        return out
    }
}

/// Wraps `text` at 80 columns; lines after the first start with `indent`
/// spaces (the first line's start is the caller's). With `hanging`, breaks
/// fall only before ` [` (between the parts of a usage line).
func wrap(_ text: String, indent: Int, hanging: Bool = false) -> String {
    let limit = 80
    let words: [Substring] = hanging ? splitUsage(text) : text.split(separator: " ")
    var lines: [String] = []
    var line = ""
    var column = indent
    for word in words {
        if !line.isEmpty, column + 1 + word.count > limit {
            lines.append(line)
            line = ""
            column = indent
        }
        if !line.isEmpty {
            line += " "
            column += 1
        }
        line += word
        column += word.count
    }
    lines.append(line)
    return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
}

/// A usage line's parts: the words before the first `[`, then each `[…]`.
private func splitUsage(_ text: String) -> [Substring] {
    var parts: [Substring] = []
    var start = text.startIndex
    var index = text.startIndex
    var depth = 0
    while index < text.endIndex {
        let character = text[index]
        if character == "[" { depth += 1 }
        if character == "]" { depth -= 1 }
        if character == " ", depth == 0 {
            if start < index { parts.append(text[start..<index]) }
            start = text.index(after: index)
        }
        index = text.index(after: index)
    }
    if start < text.endIndex { parts.append(text[start...]) }
    return parts
}
