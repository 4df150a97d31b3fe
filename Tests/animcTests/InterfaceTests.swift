import Foundation
import Testing
@testable import animc
import AnimLang
import AnimOutputs

/// The declarative command-line table, in process: the commands that come
/// next (`export FILE --to … -o OUT`, `play FILE --speed X --loop`) are a few
/// lines each.
struct InterfaceTests {
    enum Target: String, CaseIterable, Sendable {
        case html, css, waapi, lottie
    }

    static let to = Option<Target>.choice("--to", help: "What to export to.")
    static let output = Option.text("--output", short: "o", value: "OUT", help: "Write to OUT instead of standard output.")
    static let tag = Option.text("--tag", value: "TAG", help: "Tag the export.", repeatable: true)
    static let loop = Flag("--loop", help: "Play forever.")

    static let demo = Interface(
        overview: "demo",
        commands: [
            Command(name: "export", arguments: [ArgumentSpec(name: "FILE", help: "The script.")], summary: "Export.",
                    discussion: "Export FILE.", options: [to.spec, Options.binding.spec, Options.fps.spec, output.spec, tag.spec],
                    examples: [], run: { _ throws(animc.ExitStatus) in }),
            Command(name: "play", arguments: [ArgumentSpec(name: "FILE", help: "The script.")], summary: "Play.",
                    discussion: "Play FILE.", options: [loop.spec], examples: [], run: { _ throws(animc.ExitStatus) in }),
        ],
        notes: [], exitStatuses: [(0, "success")], examples: [], epilogue: "", version: "demo 1")

    func parsed(_ arguments: [String]) -> ParsedArguments? {
        if case .run(let parsed) = Self.demo.parse(arguments) { return parsed }
        return nil
    }

    func usageError(_ arguments: [String]) -> Diagnostic? {
        if case .usageError(let diagnostic, _) = Self.demo.parse(arguments) { return diagnostic }
        return nil
    }

    @Test func shortOptionsEnumsAndRepeats() throws {
        let arguments = try #require(parsed(["export", "a.anim", "--to", "css", "-o", "out.css", "--tag=x", "--tag", "y", "--fps=30"]))
        #expect(arguments.positionals == ["a.anim"])
        #expect(arguments.value(Self.to) == .css)
        #expect(arguments.value(Self.output) == "out.css")
        #expect(arguments.values(Self.tag) == ["x", "y"])
        #expect(arguments.value(Options.fps) == 30)
        #expect(arguments.value(Options.binding) == nil)
        #expect(parsed(["export", "a.anim", "-oout.css"])?.value(Self.output) == "out.css")
        #expect(parsed(["export", "a.anim", "--output=-"])?.value(Self.output) == "-")
        #expect(parsed(["export", "--", "-weird.anim"])?.positionals == ["-weird.anim"])
        #expect(parsed(["play", "a.anim", "--loop"])?.isSet(Self.loop) == true)
        #expect(parsed(["play", "a.anim"])?.isSet(Self.loop) == false)
    }

    @Test func usageErrorsComeFromTheTable() {
        #expect(usageError(["export", "a.anim", "--to", "gif"])?.message == "--to takes html, css, waapi or lottie, not `gif`")
        #expect(usageError(["play", "a.anim", "-o", "x"])?.message == "play does not take -o")
        #expect(usageError(["play", "a.anim", "-o", "x"])?.hint == "-o is an option of export")
        #expect(usageError(["play", "a.anim", "--loop=yes"])?.message == "--loop takes no value")
        #expect(usageError(["export", "a.anim", "--outptu", "x"])?.hint == "did you mean `--output`?")
        #expect(usageError(["export", "a.anim", "-o"])?.message == "-o needs a value")
    }

    @Test func helpIsGeneratedFromTheTable() {
        guard case .help(let text) = Self.demo.parse(["export", "--help"]) else {
            Issue.record("no help")
            return
        }
        #expect(text.hasPrefix("usage: animc export FILE [--to html|css|waapi|lottie] [--binding NAME] [--fps N]\n       [-o OUT] [--tag TAG]...\n"))
        #expect(text.contains("  -o, --output OUT  "))
        #expect(text.contains("Tag the export. May be repeated."))
    }

    /// The README shows each command's usage as the table makes it.
    @Test func readmeShowsTheUsageLines() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for command in interface.commands {
            #expect(text.contains("\n" + command.usage + "\n"), "README lacks `\(command.usage)`")
            #expect(text.contains("  \(command.label)  ") && text.contains(command.summary), "README lacks \(command.name)'s summary")
        }
    }

    @Test func theRealTableIsConsistent() {
        var names: Set<String> = []
        for command in interface.commands {
            #expect(names.insert(command.name).inserted, "\(command.name) twice")
            var spellings: Set<String> = []
            for option in command.options {
                for spelling in option.spellings {
                    #expect(spellings.insert(spelling).inserted, "\(command.name): \(spelling) twice")
                }
                #expect(option.long.hasPrefix("--") && option.help.hasSuffix("."))
            }
            #expect(!command.summary.isEmpty && !command.discussion.isEmpty)
        }
        // One declaration per option: the same spelling means the same option everywhere, but for the
        // spellings docs/exports.md §8 gives `render` another meaning (`--to T`, a time, where export's `--to` is a
        // format; `--loop N`, a count, where play's is a flag) and `-o OUT`, which render requires.
        let all = interface.commands.flatMap { command in
            command.options.filter { !(command.name == "render" && ["--to", "--loop", "--output"].contains($0.long)) }
        }
        for option in all {
            #expect(all.filter { $0.long == option.long }.allSatisfy { $0.help == option.help && $0.valueName == option.valueName })
        }
    }
}
