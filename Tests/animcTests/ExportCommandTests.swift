import Foundation
import Testing

/// `animc export FILE --to lottie`: where it writes, what it warns about,
/// and its usage errors.
struct ExportCommandTests {
    typealias Result = MalformedCLITests.Result

    func animc(_ arguments: [String], input: String? = nil) throws -> Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    @Test func writesJSONToStandardOutputOrAFile() throws {
        let piped = try animc(["export", "-", "--to", "lottie", "--fps", "30"], input: "let a = animate v.x from 0 to 10\n")
        #expect(piped.status == 0, "\(piped.errors)")
        #expect(piped.errors.isEmpty)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(piped.output.utf8)) as? [String: Any])
        #expect(document["fr"] as? Double == 30)
        #expect(document["op"] as? Double == 31)
        #expect((document["layers"] as? [[String: Any]])?.first?["nm"] as? String == "v")

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("animc-export-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try animc(["export", "examples/talk.anim", "--to=lottie", "-o", path])
        #expect(written.status == 0)
        #expect(written.output.isEmpty)
        #expect(written.errors.contains("warning: `2*pi` degrees"))
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        let talk = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        #expect(talk["fr"] as? Double == 60)
        #expect((talk["layers"] as? [[String: Any]])?.compactMap { $0["nm"] as? String } == ["circle", "square"])
    }

    @Test func propertiesLottieCannotCarryAreAWarningNotAnError() throws {
        let result = try animc(["export", "examples/jumps.anim", "--to", "lottie"])
        #expect(result.status == 0)
        // At the tween that animates the property (line 4), not at the name of the binding exported (issue 37).
        #expect(result.errors.contains("examples/jumps.anim:4:13: warning: `light.level` has no place in a Lottie file and is left out"),
                "\(result.errors)")
        #expect(!result.output.isEmpty)
    }

    @Test func animationsTooLongToExportExitOne() throws {
        let result = try animc(["export", "examples/forever.anim", "--to", "lottie"])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("error: `final` lasts 1000000001s: at 60 fps that is more than 1000000 frames"))
        #expect(result.errors.contains("hint: export at a lower --fps"))
    }

    /// Forever (the bug this answers: `--to css` wrote a 0 s animation holding 0, exit 0).
    @Test func animationsThatRepeatForeverExportWithInfiniteIterationsOrALoopingRound() throws {
        let spin = "let spin = rotate s from 0 to 360 in 1.5s repeated forever\n"
        let css = try animc(["export", "-", "--to", "css"], input: spin)
        #expect(css.status == 0 && css.errors.isEmpty, "\(css.errors)")
        #expect(css.output.contains("animc-s-rotation 1500ms linear infinite;"))
        let lottie = try animc(["export", "-", "--to", "lottie"], input: spin)
        #expect(lottie.status == 0)
        #expect(lottie.errors.contains("note: `spin` repeats forever: the file holds one period, 1.5s, which players loop"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(lottie.output.utf8)) as? [String: Any])
        #expect(document["op"] as? Double == 90)
        let prefixed = try animc(["export", "-", "--to", "lottie"], input: "let a = fadeIn s in 0.5s ; " + spin.dropFirst(11))
        #expect(prefixed.status == 1 && prefixed.output.isEmpty)
        #expect(prefixed.errors.contains("<stdin>:1:5: error: `a` never ends, and does not repeat from its start"), "\(prefixed.errors)")
        #expect(prefixed.errors.contains("hint: `s.opacity` plays once, before the rest repeats. Lottie loops the whole file"))
    }

    @Test func usageErrors() throws {
        let webFPS = try animc(["export", "examples/talk.anim", "--fps", "30"])
        #expect(webFPS.status == 2)
        #expect(webFPS.errors.hasPrefix("animc: error: export --to html does not take --fps\n  hint: a web export plays"))
        let unknown = try animc(["export", "examples/talk.anim", "--to", "gif"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.hasPrefix("animc: error: --to takes html, css, waapi, js, lottie or svg, not `gif`"))
        let fps = try animc(["export", "examples/talk.anim", "--to", "lottie", "--fps", "0"])
        #expect(fps.status == 2)
        #expect(fps.errors.hasPrefix("animc: error: --fps takes a whole number from 1 to 1000000, not `0`"))
        let unwritable = try animc(["export", "examples/talk.anim", "--to", "lottie", "-o", "no/such/dir/out.json"])
        #expect(unwritable.status == 1)
        #expect(unwritable.errors.hasSuffix("animc: error: cannot write no/such/dir/out.json: No such file or directory\n"))
        let binding = try animc(["export", "examples/laws.anim", "--to", "lottie", "--binding", "nope"])
        #expect(binding.status == 2)
        #expect(binding.errors.contains("no binding named `nope`"))
    }
}

/// `animc export --prefix NAME --selector TEMPLATE`, `--to js`.
struct WebOptionsCommandTests {
    func animc(_ arguments: [String], input: String? = nil) throws -> MalformedCLITests.Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    @Test func prefixAndSelectorNameWhatEachWebFormatWrites() throws {
        let script = "let a = animate t.opacity from 0 to 1\n"
        for format in ["css", "waapi", "js"] {
            let result = try animc(["export", "-", "--to", format, "--prefix", "t-in", "--selector", ".{view}.is-entering"], input: script)
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("--t-in-opacity") && result.output.contains(".t.is-entering"), "\(format)")
        }
        let page = try animc(["export", "-", "--prefix", "t-in"], input: script)
        #expect(page.status == 0 && page.output.contains("@property --t-in-opacity"))
        let module = try animc(["export", "examples/spinner.anim", "--to", "js"])
        #expect(module.output.contains("\"variable\":\"--animc-rotation\""))
        #expect(module.status == 0 && module.output.hasPrefix("// animc export --to js: `final` of examples/spinner.anim"))
    }

    /// docs/exports.md §6: the default prefix is `animc`, so giving it changes no byte.
    @Test(arguments: ["html", "css", "waapi", "js"])
    func theDefaultPrefixIsAnimc(_ format: String) throws {
        let plain = try animc(["export", "examples/choreography.anim", "--to", format])
        let named = try animc(["export", "examples/choreography.anim", "--to", format, "--prefix", "animc"])
        #expect(plain.status == 0 && named.status == 0 && plain.errors == named.errors)
        #expect(!plain.output.isEmpty && plain.output == named.output)
        #expect(plain.output.contains("--animc-y") && !plain.output.contains("(--y)") && !plain.output.contains("\"--y\""))
    }

    @Test func aNameClashExitsOneWithTheLocatedPair() throws {
        let result = try animc(["export", "-", "--to", "css"],
                               input: "view lamp tint red\nview dial tint 0 tint-color 1\nlet a = animate dial.tint to 5 in 1s\n")
        #expect(result.status == 1 && result.output.isEmpty)
        #expect(result.errors.hasPrefix("<stdin>:1:16: error: `dial.tint-color` and `lamp.tint` would both be named `--animc-tint-color` in the export"),
                "\(result.errors)")
    }

    /// `--to svg`, a target registered in the one table: the animated SVG, and the options it refuses.
    @Test func svgTarget() throws {
        let svg = try animc(["export", "examples/talk.anim", "--to", "svg"])
        #expect(svg.status == 0 && svg.output.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\"") && svg.output.contains("@keyframes"))
        let fps = try animc(["export", "examples/talk.anim", "--to", "svg", "--fps", "30"])
        #expect(fps.status == 2 && fps.errors.hasPrefix("animc: error: export --to svg does not take --fps\n"))
    }

    /// `--to js --runtime PATH` imports the player `animc runtime` writes (docs/exports.md §6).
    @Test func aModuleWithASharedRuntime() throws {
        let module = try animc(["export", "examples/toast.anim", "--to", "js", "--runtime", "./animc-runtime.js"])
        #expect(module.status == 0 && module.errors.isEmpty, "\(module.errors)")
        #expect(module.output.hasPrefix("// animc export --to js: `final` of examples/toast.anim"))
        #expect(module.output.contains("\nimport { animcModule } from \"./animc-runtime.js\";\n"))
        #expect(module.output.hasSuffix("\nexport const { duration, play } = animcModule(EXPORT);\n"))
        #expect(!module.output.contains("function play(") && !module.output.contains("keyframesOf"))
        let whole = try animc(["export", "examples/toast.anim", "--to", "js"])
        #expect(whole.output.contains("export function play(root, options = {}) {") && !whole.output.contains("\nimport "))

        let runtime = try animc(["runtime"])
        #expect(runtime.status == 0 && runtime.errors.isEmpty)
        #expect(runtime.output.hasPrefix("// animc runtime: ") && runtime.output.contains("\nexport function animcModule(EXPORT) {\n"))
        #expect(runtime.output.contains("  function play(root, options = {}) {") && runtime.output.contains("function keyframesOf("))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("animc-runtime-\(UUID().uuidString).js").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let written = try animc(["runtime", "-o", path])
        #expect(written.status == 0 && written.output.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == runtime.output)
    }

    /// `--runtime` belongs to `--to js`: with any other target (html by default) it is a usage error, exit 2,
    /// as every option a target refuses; an empty PATH is refused where it is read; `runtime` takes no FILE.
    @Test func runtimeUsageErrors() throws {
        for (target, arguments) in [("html", [String]()), ("css", ["--to", "css"]), ("lottie", ["--to", "lottie"])] {
            let result = try animc(["export", "examples/toast.anim"] + arguments + ["--runtime", "./animc-runtime.js"])
            #expect(result.status == 2 && result.output.isEmpty)
            #expect(result.errors.hasPrefix("animc: error: export --to \(target) does not take --runtime\n"
                                            + "  hint: --runtime names the player a --to js module imports instead of holding it\n"
                                            + "usage: animc export FILE "), "\(result.errors)")
        }
        let empty = try animc(["export", "examples/toast.anim", "--to", "js", "--runtime", ""])
        #expect(empty.status == 2 && empty.errors.hasPrefix("animc: error: --runtime takes the path or URL of the runtime"), "\(empty.errors)")
        let file = try animc(["runtime", "examples/toast.anim"])
        #expect(file.status == 2 && file.errors.hasPrefix("animc: error: "), "\(file.errors)")
    }
}
