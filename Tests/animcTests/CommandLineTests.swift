import Foundation
import Testing

/// The `animc` executable, run as a user runs it.
struct CommandLineTests {
    typealias Result = MalformedCLITests.Result

    /// Runs the built binary (through the malformed-corpus tests' runner,
    /// which keeps large outputs in files rather than pipes).
    func animc(_ arguments: [String], input: String? = nil) throws -> Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    @Test func evalPrintsCSVWhenPiped() throws {
        let result = try animc(["eval", "examples/talk.anim", "--at", "1.25"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n")
        #expect(lines.first == "time,circle.opacity,circle.radius,square.opacity,square.rotation")
        let row = lines.dropFirst().first?.split(separator: ",").compactMap { Double($0) } ?? []
        #expect(row.count == 5)
        #expect(abs(row[2] - 94.1528) < 0.00005)   // the talk's numbers, at progress 0.25 of the loop
        #expect(abs(row[4] - 2.2021) < 0.00005)
        #expect(result.errors.contains("warning: `2*pi` degrees"))
    }

    @Test func formatsAndFrameRate() throws {
        let table = try animc(["eval", "examples/jumps.anim", "--fps", "4", "--format", "table"])
        #expect(table.status == 0)
        #expect(table.output.split(separator: "\n").count == 1 + 5)    // header + 0, 0.25, …, 1
        let json = try animc(["eval", "examples/jumps.anim", "--at", "0.25", "--format", "json"])
        #expect(json.output == "{\"time\":0.25,\"light.level\":1}\n")
        let binding = try animc(["eval", "examples/laws.anim", "--binding", "fade", "--at", "0.5,1"])
        #expect(binding.output == "time,ball.opacity\n0.5,0.5\n1,0\n")
    }

    @Test func readsStandardInput() throws {
        let result = try animc(["eval", "-", "--at", "0.5"], input: "let f = animate a.x from 0 to 10\n")
        #expect(result.status == 0)
        #expect(result.output == "time,a.x\n0.5,5\n")
    }

    /// A file that starts with a UTF-8 byte-order mark (editors on Windows write
    /// one) is read as its text (issue 37: it was "unexpected character
    /// U+FEFF"); columns count from the text, as without the mark.
    @Test func aByteOrderMarkIsSkipped() throws {
        let bom = try MalformedCLITests.animc(["eval", "-", "--at", "0.5"], input: Data([0xEF, 0xBB, 0xBF] + Array("let f = animate a.x from 0 to 10\n".utf8)))
        #expect(bom.status == 0 && bom.errors.isEmpty, "\(bom.errors)")
        #expect(bom.output == "time,a.x\n0.5,5\n")
        let mistake = try MalformedCLITests.animc(["check", "-"], input: Data([0xEF, 0xBB, 0xBF] + Array("let a = fadeIn x with ease-inout\n".utf8)))
        #expect(mistake.status == 1)
        #expect(mistake.errors.hasPrefix("<stdin>:1:23: error: unknown easing `ease-inout`\n  1 | let a = fadeIn x with ease-inout\n"))
        // Only a mark at the very start is skipped: one later is still a character the language does not have.
        let inside = try animc(["check", "-"], input: "let a = fadeIn x\u{FEFF}\n")
        #expect(inside.status == 1 && inside.errors.contains("U+FEFF"))
    }

    @Test func cancelledAnimationsSaySo() throws {
        // As data, a table with no rows; for people, a sentence.
        let csv = try animc(["eval", "examples/cancelled.anim"])
        #expect(csv.status == 0)
        #expect(csv.output == "time\n")
        let json = try animc(["eval", "examples/cancelled.anim", "--format", "json"])
        #expect(json.status == 0)
        #expect(json.output == "")
        let table = try animc(["eval", "examples/cancelled.anim", "--format", "table"])
        #expect(table.output.contains("is cancelled: it has no frames"))
    }

    @Test func scriptErrorsExitOne() throws {
        let result = try animc(["eval", "-"], input: "let a = fadeIn x with ease-inout\nlet b = c\n")
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("<stdin>:1:23: error: unknown easing `ease-inout`"))
        #expect(result.errors.contains("<stdin>:2:9: error: no animation named `c`"))
        let check = try animc(["check", "-"], input: "let a = wait -1\n")
        #expect(check.status == 1)
        let unreadable = try animc(["eval", "no/such/file.anim"])
        #expect(unreadable.status == 1)
        #expect(unreadable.errors.contains("cannot read no/such/file.anim"))
    }

    @Test func exportWritesEachFormat() throws {
        let page = try animc(["export", "examples/talk.anim"])
        #expect(page.status == 0)
        #expect(page.output.hasPrefix("<!doctype html>") && page.output.contains("window.animc"))
        let css = try animc(["export", "-", "--to", "css"], input: "let f = animate a.x from 0 to 10\n")
        #expect(css.status == 0)
        #expect(css.output.contains("@property --animc-x { syntax: '<number>'; inherits: false; initial-value: 0; }"))
        #expect(css.output.contains("animation:\n    animc-a-x 1000ms linear both;"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("animc-export-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try animc(["export", "examples/jumps.anim", "--to=waapi", "-o", path])
        #expect(written.status == 0 && written.output.isEmpty)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect(json?["duration"] as? Double == 1)
    }

    @Test func exportMistakes() throws {
        let format = try animc(["export", "examples/talk.anim", "--to", "pdf"])
        #expect(format.status == 2)
        #expect(format.errors.contains("animc: error: --to takes html, css, waapi, js, lottie or svg, not `pdf`"))
        let unwritable = try animc(["export", "examples/talk.anim", "-o", "no/such/dir/talk.html"])
        #expect(unwritable.status == 1)
        #expect(unwritable.errors.contains("animc: error: cannot write no/such/dir/talk.html: No such file or directory"))
        let script = try animc(["export", "-"], input: "let a = fadeIn x with ease-inout\n")
        #expect(script.status == 1 && script.output.isEmpty)
    }

    @Test func tooManyRowsIsRefusedWithAHint() throws {
        let result = try animc(["eval", "examples/forever.anim"])
        #expect(result.status == 1)
        #expect(result.errors.contains("--at"))
    }

    @Test(arguments: [["frobnicate"], [], ["eval"], ["eval", "a.anim", "b.anim"], ["eval", "x.anim", "--fps", "0"],
                      ["eval", "x.anim", "--format", "xml"], ["eval", "x.anim", "--at", "soon"], ["eval", "x.anim", "--bogus"],
                      ["check", "x.anim", "--fps", "3"]])
    func badUsageExitsTwo(_ arguments: [String]) throws {
        let result = try animc(arguments)
        #expect(result.status == 2)
        #expect(result.errors.contains("usage: animc"))
    }

    @Test func helpAndVersion() throws {
        let help = try animc(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("Exit status:"))
        #expect(help.output.contains("2  bad command-line usage"))
        let version = try animc(["--version"])
        #expect(version.output.hasPrefix("animc "))
    }
}

/// `normalize`, `timeline` and `equal` from the command line.
struct NormalizeTimelineEqualTests {
    let cli = CommandLineTests()

    @Test func normalizePrintsAProgramThatReadsBack() throws {
        let result = try cli.animc(["normalize", "examples/laws.anim", "--binding", "left-nested"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("let left-nested =\n"))
        let tree = try cli.animc(["normalize", "examples/laws.anim", "--binding", "left-nested", "--tree"])
        #expect(tree.status == 0)
        #expect(tree.output.hasPrefix("sequence"))
        let again = try cli.animc(["normalize", "-"], input: result.output)
        #expect(again.output == result.output)
    }

    @Test func timelineListsSegmentsAndBars() throws {
        let result = try cli.animc(["timeline", "examples/talk-semiring.anim", "--width", "30"])
        #expect(result.status == 0)
        #expect(result.output.contains("v1.radius    1      2    10    100                ease-in-out"))
        #expect(result.output.contains("v1.opacity   |===============               |"))
        #expect(result.output.contains("v1.radius    |               ===============|"))
    }

    @Test func equalSaysSameOrWhere() throws {
        let same = try cli.animc(["equal", "examples/laws.anim", "examples/laws.anim", "--binding", "distributed"])
        #expect(same.status == 0)
        #expect(same.output.hasPrefix("equal:"))
        let different = try cli.animc(["equal", "examples/talk.anim", "examples/talk-semiring.anim"])
        #expect(different.status == 1)
        #expect(different.output.hasPrefix("different: "))
        let usage = try cli.animc(["equal", "examples/talk.anim"])
        #expect(usage.status == 2)
    }
}
