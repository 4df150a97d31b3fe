import Foundation
import Testing

/// `--after NAME` (docs/semantics.md §8.6): the binding as it plays after NAME, exactly
/// `(NAME ; BINDING) played from |NAME|`.
struct AfterOptionTests {
    typealias Result = MalformedCLITests.Result

    func animc(_ arguments: [String], input: String? = nil) throws -> Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    /// examples/toast.anim: `show` rises by (0, −24) from the declared y 40 to 16 and
    /// fades to 1 from 0; after it, `hide` (rise reversed: by +24 with ease-in-cubic,
    /// the mirror of ease-out-cubic; fade to 0) goes 16 → 40 and 1 → 0. At 0.1 s:
    /// opacity 1 − 1/3, y = 16 + 24·(1/3)³ = 16.888…; on its own it would fade 0 → 0
    /// and move 40 → 64.
    @Test func toastHideAfterShow() throws {
        let after = try animc(["eval", "examples/toast.anim", "--binding", "hide", "--after", "show", "--fps", "10", "--format", "csv"])
        #expect(after.status == 0, "\(after.errors)")
        #expect(after.output == """
            time,toast.opacity,toast.x,toast.y
            0,1,0,16
            0.1,0.6666666666666667,0,16.88888888888889
            0.2,0.33333333333333337,0,23.11111111111111
            0.3,0,0,40

            """)
        // The export leaves from where `show` put the toast.
        let export = try animc(["export", "examples/toast.anim", "--binding", "hide", "--after", "show", "--to", "waapi"])
        #expect(export.status == 0, "\(export.errors)")
        #expect(export.output.contains(#""property":"toast.y","variable":"--animc-y","kind":"number","start":"16""#))
        #expect(export.output.contains(#""property":"toast.opacity","variable":"--animc-opacity","kind":"number","start":"1""#))
        // timeline and plot take it too.
        #expect(try animc(["timeline", "examples/toast.anim", "--binding", "hide", "--after", "show"]).status == 0)
        #expect(try animc(["plot", "examples/toast.anim", "--binding", "hide", "--after", "show"]).status == 0)
    }

    /// An unknown NAME and an endless one are usage errors naming the option (exit 2).
    @Test func usageErrors() throws {
        let unknown = try animc(["eval", "examples/toast.anim", "--after", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("--after nope: the file has no `let nope`"))
        let endless = try animc(["eval", "-", "--after", "spin"], input: "let spin = fadeIn a repeated forever\nlet b = fadeOut a\n")
        #expect(endless.status == 2)
        #expect(endless.errors.contains("--after spin: `spin` repeats forever"))
        let help = try animc(["eval", "--help"])
        #expect(help.output.contains("--after NAME"))
    }
}
