import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// What `animc timeline` says about warps and reversals, against what
/// `eval` does (issue 9: a timeline must not hide a warp, and its windows
/// are the ones sampling uses).
struct TimelineTests {
    func compiled(_ source: String) throws -> CompiledScene {
        let outcome = run(SourceFile(name: "t.anim", text: source))
        #expect(!outcome.hasErrors, "\(render(outcome.diagnostics, in: SourceFile(name: "t.anim", text: source)))")
        let scene = try #require(outcome.scene)
        return try #require(try scene.compile())
    }

    /// The rows of the segment list, split into columns.
    func rows(_ text: String) -> [[String]] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.isEmpty }
            .dropFirst()
            .map { line in line.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    /// A time found through a warp that lands on a whole second prints as
    /// `1`, as the exact `2` beside it does, not `1.0`.
    @Test func wholeTimesPrintAlike() throws {
        let rows = rows(timelineText(try compiled("let a = (fadeIn v ; fadeOut v) with css-ease-in-out")))
        #expect(rows.map { Array($0.prefix(3)) } == [["v.opacity", "0", "1"], ["v.opacity", "1", "2"]])
    }

    /// A repetition wide enough to see draws its copies' segments (two
    /// periods of one that repeats forever: 4 s over 60 cells, 15 a
    /// segment), not `~` throughout; one too dense to draw keeps `~`.
    @Test func repetitionsDrawTheirCopies() throws {
        let endless = timelineText(try compiled("let a = (fadeIn v ; fadeOut v) repeated forever"))
        let bar = String(repeating: String(repeating: "=", count: 15) + String(repeating: "#", count: 15), count: 2)
        #expect(endless.contains("v.opacity  |" + bar + "|"), "\(endless)")
        let dense = timelineText(try compiled("let a = (fadeIn v in 0.5s ; fadeOut v in 0.5s) ^ 1000000000"))
        #expect(dense.contains("v.opacity  |" + String(repeating: "~", count: 60) + "|"), "\(dense)")
    }

    @Test func warpedSegmentsShareTheirEndsAndNameTheWarp() throws {
        let scene = try compiled(
            "let b = (animate box.x from 0 to 100 ; animate box.y from 0 to 100 ; animate box.z from 0 to 1) in 1s with ease-in-out")
        let rows = rows(timelineText(scene))
        try #require(rows.count == 3)
        // One window's end is printed exactly as the next one's start.
        #expect(rows[0][2] == rows[1][1])
        #expect(rows[1][2] == rows[2][1])
        for row in rows { #expect(row.last == "linear, warped by ease-in-out") }
        // Where box.x ends it is exactly done: the warp's inverse placed the
        // end, so sampling there must not land a rounding error short of 100.
        let end = try #require(scene.segments.first { $0.property.description == "box.x" }).end
        let property = Property(view: "box", name: "x")
        var resolution = try #require(scene.value(of: property, atSeconds: end.seconds))
        #expect(resolution == .number(100))
        // The symmetric ease-in-out maps the middle third's window symmetrically about 0.5.
        let y = try #require(scene.segments.first { $0.property.description == "box.y" })
        #expect(abs(y.start.seconds + y.end.seconds - 1) < 1e-12)
        resolution = try #require(scene.value(of: Property(view: "box", name: "y"), atSeconds: 0.5))
        #expect(abs((resolution.number ?? .nan) - 50) < 1e-9)
    }

    @Test func aReversedTweenShowsAnEasingTheLanguageReads() throws {
        let scene = try compiled("let c = rotate sq from 0 to 90 with a high ease-out reversed")
        let row = try #require(rows(timelineText(scene)).first)
        #expect(row == ["sq.rotation", "0", "1", "90", "0", "mirror(ease-out(1.5))"])
        // Written out, that row is the same animation, with the same normal form.
        let written = run(SourceFile(name: "m.anim", text: "let c = animate sq.rotation from 90 to 0 with mirror(ease-out(1.5))"))
        let original = run(SourceFile(name: "o.anim", text: "let c = rotate sq from 0 to 90 with a high ease-out reversed"))
        let lhs = try #require(written.scene), rhs = try #require(original.scene)
        #expect(try Scene.sameAnimation(lhs, rhs) == .same)
        #expect(format(try normalize(written).program) == format(try normalize(original).program))
        // mirror(E)(p) = 1 − E(1 − p): ease-out(1.5) is 1 − (1 − p)^1.5, so the mirror is p^1.5.
        let mirrored = try #require(try lhs.compile())
        let value = try #require(mirrored.value(of: Property(view: "sq", name: "rotation"), atSeconds: 0.25))
        // from 90 to 0 with p^1.5 at p = 0.25: 90 − 90·0.125 = 78.75.
        #expect(abs((value.number ?? .nan) - 78.75) < 1e-9)
    }

    @Test func mirrorOfAFamilyCurveIsItsMirror() throws {
        let a = run(SourceFile(name: "a.anim", text: "let a = animate v.x from 0 to 1 with mirror(ease-in-quad)"))
        let b = run(SourceFile(name: "b.anim", text: "let a = animate v.x from 0 to 1 with ease-out-quad"))
        #expect(try Scene.sameAnimation(try #require(a.scene), try #require(b.scene)) == .same)
    }

    @Test func consecutiveSegmentsAreTellableApartInTheBars() throws {
        let scene = try compiled("let d = animate v.x from 0 to 1 ; animate v.x from 1 to 2 ; wait 1 ; animate v.x from 2 to 0")
        let bar = try #require(timelineText(scene, width: 40).split(separator: "\n").first { $0.hasPrefix("v.x  |") })
        #expect(bar == "v.x  |==========##########          ==========|")
    }

    @Test func aJumpingWarpIsListedAsAWarp() throws {
        let scene = try compiled("let e = (animate v.x from 0 to 1 ; animate v.y from 0 to 1) with steps(3)")
        let text = timelineText(scene)
        #expect(text.contains("with steps(3), from 0s to 2s"))
        #expect(!text.contains("repeated 1 times"))
    }
}
