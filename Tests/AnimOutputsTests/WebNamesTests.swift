import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// What a web export names on a page (`--prefix`, `--selector`;
/// docs/exports.md §6), the clashes it refuses, and the drawing rules it writes.
struct WebNamesTests {
    static func web(_ text: String, names: WebNames = .standard, name: String = "names.anim") -> (WebExport?, [Diagnostic]) {
        webExport(run(SourceFile(name: name, text: text)), source: name, names: names)
    }

    // MARK: Names

    @Test func theDefaultPrefixIsAnimc() {
        // docs/exports.md §6: `--prefix NAME` (default `animc`) names `@keyframes NAME-V-P` and `--NAME-P`.
        let names = WebNames.standard
        #expect(names.prefix == "animc")
        #expect(names.variable("opacity") == "--animc-opacity")
        #expect(names.variable("x") == "--animc-x" && names.variable("color") == "--animc-color")
        #expect(names.keyframes(view: "toast", property: "opacity") == "animc-toast-opacity")
        #expect(names.keyframes(view: "toast", property: "opacity", index: 1) == "animc-toast-opacity-2")
        #expect(names.selector(of: "toast") == "[data-view=\"toast\"]")
        #expect(WebNames() == .standard && names.isStandard)
        #expect(WebNames(prefix: "animc") == .standard && WebNames(prefix: "animc")?.isStandard == true)
    }

    /// With no option the export is, byte for byte, the one of `--prefix animc`, in every web format.
    @Test(arguments: ["examples/talk.anim", "examples/spinner.anim", "examples/choreography.anim"])
    func theDefaultExportIsThePrefixAnimcExport(_ path: String) throws {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
        let names = try #require(WebNames(prefix: "animc"))
        let plain = try #require(Self.web(text, name: path).0)
        let animc = try #require(Self.web(text, names: names, name: path).0)
        for format in WebFormat.allCases {
            #expect(format.text(plain) == format.text(animc), "\(format)")
        }
        #expect(stylesheet(plain).contains("var(--animc-"))
        // Renaming the default export to `animc` changes nothing either.
        #expect(waapiJSON(plain.named(names)) == waapiJSON(plain))
    }

    @Test func aPrefixAndATemplateNameEverything() throws {
        let names = try #require(WebNames(prefix: "toast-in", selector: ".{view}.is-entering"))
        #expect(!names.isStandard)
        #expect(names.variable("opacity") == "--toast-in-opacity")
        #expect(names.keyframes(view: "toast", property: "y") == "toast-in-toast-y")
        #expect(names.keyframes(view: "toast", property: "y", index: 2) == "toast-in-toast-y-3")
        #expect(names.selector(of: "toast") == ".toast.is-entering")
        #expect(WebNames(selector: "#{view}, .{view} > .shape")?.selector(of: "a") == "#a, .a > .shape")
    }

    @Test(arguments: [("animc", true), ("_x", true), ("toast-in", true), ("a1_b-2", true), ("A", true),
                      ("", false), ("9lives", false), ("-a", false), ("a b", false), ("a.b", false), ("té", false), ("a{", false)])
    func prefixesAreCSSIdentifiers(_ text: String, _ valid: Bool) {
        #expect(WebNames.isIdentifier(text) == valid)
        #expect((WebNames(prefix: text) != nil) == valid)
    }

    @Test(arguments: [("[data-view=\"{view}\"]", true), (".{view}.is-entering", true), ("#{view}", true), (".{view}, .{view}-b", true),
                      (".toast", false), ("", false), ("{views}", false), (".{view} { color: red }", false), ("{{view}}", false),
                      (".{view}}", false), (".{view}\n.x", false)])
    func selectorsAreTemplatesOfTheView(_ text: String, _ valid: Bool) {
        #expect(WebNames.isSelectorTemplate(text) == valid)
        #expect((WebNames(selector: text) != nil) == valid)
    }

    @Test func aNamedExportIsTheSameModelUnderOtherNames() throws {
        let plain = try WebExportTests.export("examples/talk.anim")
        let names = try #require(WebNames(prefix: "enter", selector: ".{view}.in"))
        let text = try String(contentsOf: packageRoot.appendingPathComponent("examples/talk.anim"), encoding: .utf8)
        let (named, diagnostics) = Self.web(text, names: names, name: "examples/talk.anim")
        #expect(!diagnostics.contains { $0.severity == .error })
        let export = try #require(named)
        #expect(export.names == names)
        #expect(export.columns.map(\.variable) == ["--enter-opacity", "--enter-radius", "--enter-opacity", "--enter-rotation"])
        // Web Animations JSON: only the names differ.
        let json = waapiJSON(export)
        #expect(json.contains("\"selector\":\".circle.in\"") && json.contains("\"variable\":\"--enter-radius\""))
        #expect(json.replacingAll("\"--enter-", with: "\"--animc-").replacingAll("\".circle.in\"", with: "\"[data-view=\\\"circle\\\"]\"")
            .replacingAll("\".square.in\"", with: "\"[data-view=\\\"square\\\"]\"") == waapiJSON(plain))
        // CSS: registrations, keyframes and rules under the prefix and the selector; nothing left unprefixed.
        let css = stylesheet(export)
        #expect(css.contains("@property --enter-opacity { syntax: '<number>'; inherits: false; initial-value: 0; }"))
        #expect(css.contains("\n@keyframes enter-circle-radius {\n  0% { --enter-radius: 100; }"))
        #expect(css.contains("\n.circle.in {\n  --enter-opacity: 0;\n  --enter-radius: 100;\n  animation:\n    enter-circle-opacity 3000ms"))
        #expect(css.contains(" *   an element that matches .circle.in\n"))
        #expect(!css.contains("animc-") && !css.contains("data-view") && !css.contains("(--opacity") && !css.contains(" --opacity:"))
        #expect(!stylesheet(plain).contains("(--opacity") && stylesheet(plain).contains("var(--animc-opacity)"))
        // The player page keeps the prefix and finds its own shapes by data-view.
        let page = playerPage(export)
        #expect(page.contains("@property --enter-opacity") && page.contains("[data-view=\\\"circle\\\"]") && !page.contains(".circle.in"))
    }

    // MARK: Clashes

    @Test func aColourAndANumberThatMeetOnOneCustomPropertyAreALocatedError() throws {
        let text = "view lamp tint red\nview dial tint 0 tint-color 1\nlet a = animate dial.tint to 5 in 1s\n"
        let (export, diagnostics) = Self.web(text, name: "clash.anim")
        #expect(export == nil)
        let error = try #require(diagnostics.first)
        #expect(diagnostics.count == 1 && error.id == "export-name-clash" && error.severity == .error)
        // At `red`, the value of lamp.tint, the second. Columns in order: dial.tint (--animc-tint), dial.tint-color (--animc-tint-color),
        // lamp.tint (a colour where dial.tint is a number: --animc-tint-color too).
        #expect(error.message == "`dial.tint-color` and `lamp.tint` would both be named `--animc-tint-color` in the export")
        #expect(error.hint != nil)
        #expect(render([error], in: SourceFile(name: "clash.anim", text: text)).hasPrefix("clash.anim:1:16: error: "))
        // Under a prefix they still meet.
        let prefixed = Self.web(text, names: WebNames(prefix: "p") ?? .standard).1.first?.message
        #expect(prefixed == "`dial.tint-color` and `lamp.tint` would both be named `--p-tint-color` in the export")
    }

    @Test func twoPropertiesThatMeetOnOneKeyframesNameAreAnError() throws {
        let text = "view a-b c 0\nview a b-c 0\nlet z = animate a-b.c, a.b-c to 1 in 1s\n"
        let (export, diagnostics) = Self.web(text)
        #expect(export == nil)
        #expect(diagnostics.map(\.message) == ["`a-b.c` and `a.b-c` would both be named `animc-a-b-c` in the export"])
        // At `0`, the declared value of a.b-c (line 2, column 12).
        #expect(render(diagnostics, in: SourceFile(name: "names.anim", text: text)).hasPrefix("names.anim:2:12: error: "))
        let prefixed = Self.web(text, names: WebNames(prefix: "p") ?? .standard).1.map(\.message)
        #expect(prefixed == ["`a-b.c` and `a.b-c` would both be named `p-a-b-c` in the export"])
    }

    @Test func onePropertyNameOnManyViewsSharesItsCustomProperty() throws {
        let export = try WebExportTests.export("examples/talk.anim")
        #expect(export.nameClash == nil)
        #expect(export.columns.filter { $0.property.name == "opacity" }.map(\.variable) == ["--animc-opacity", "--animc-opacity"])
        #expect(registrations(export).map(\.name) == ["--animc-opacity", "--animc-radius", "--animc-rotation"])
    }

    // MARK: Drawing rules

    static let drawn = """
        view card x 0 y 0 rotation 0 scale 1 scale-x 1 opacity 0 color red level 3
        view dot radius 5
        let final = animate card.x to 10 || animate dot.radius to 8
        """

    @Test func theRulesDrawEveryDrawnPropertyAsThePlayerPageDoes() throws {
        let export = try #require(Self.web(Self.drawn).0)
        // By hand from docs/exports.md §1: translate by x, y px, then rotate (deg) and scale about the centre; a
        // circle of radius r is 2r px wide; the colour fills it; `level` is not drawn.
        #expect(drawingRules(export) == [
            "[data-view=\"card\"] {",
            "  opacity: var(--animc-opacity);",
            "  transform: translate(calc(var(--animc-x) * 1px), calc(var(--animc-y) * 1px)) rotate(calc(var(--animc-rotation) * 1deg)) "
                + "scale(var(--animc-scale)) scale(var(--animc-scale-x), 1);",
            "  transform-origin: center;",
            "  background-color: var(--animc-color);",
            "}",
            "[data-view=\"dot\"] {",
            "  width: calc(max(0, var(--animc-radius)) * 2px);",
            "  height: calc(max(0, var(--animc-radius)) * 2px);",
            "  border-radius: 50%;",
            "}",
        ])
        let named = try #require(Self.web(Self.drawn, names: WebNames(prefix: "k", selector: ".{view}") ?? .standard).0)
        let rules = drawingRules(named)
        #expect(rules.first == ".card {" && rules[1] == "  opacity: var(--k-opacity);" && rules[4] == "  background-color: var(--k-color);")
        // The stylesheet's header and the module's opening comment carry them as written.
        let css = stylesheet(named), module = webModule(named)
        #expect(css.contains(" * Drawn as the player page draws them (paste as it is):\n"
                             + rules.map { " *   " + $0 + "\n" }.joined() + " */\n"))
        #expect(module.contains(rules.map { "//   " + $0 + "\n" }.joined()))
    }

    // MARK: The module

    @Test func theModuleEmbedsTheWebAnimationsJSONAndImportsNothing() throws {
        for (path, duration) in [("examples/spinner.anim", "Infinity"), ("examples/landing-events.anim", "1.3")] {
            let export = try WebExportTests.export(path)
            let module = webModule(export)
            // One JSON writer: the module is the `--to waapi` text, verbatim.
            #expect(module.contains("\nconst EXPORT = " + waapiJSON(export).dropLast() + ";\n"))
            #expect(module.contains("  \"duration\":" + (duration == "Infinity" ? "\"Infinity\"" : duration) + ",\n"))
            #expect(module.contains("\nexport const duration = EXPORT.duration === \"Infinity\" ? Infinity : EXPORT.duration;\n"))
            #expect(module.contains("\nexport function play(root, options = {}) {\n"))
            #expect(!module.split(separator: "\n").contains { $0.hasPrefix("import") || $0.contains("require(") })
            // Events: one way of passing them, shared with the player page; dispatched as animc:NAME on root.
            #expect(module.contains(passingEvents) && playerPage(export).contains(passingEvents))
            #expect(module.contains("root.dispatchEvent(new CustomEvent(\"animc:\" + name, { detail: { time } }));"))
            #expect(WebFormat.js.text(export) == module)
        }
        let named = try #require(Self.web("let a = animate t.y to 1\n", names: WebNames(prefix: "p", selector: ".{view}") ?? .standard).0)
        #expect(webModule(named).contains("\"selector\":\".t\"") && webModule(named).contains("\"variable\":\"--p-y\""))
    }
}
