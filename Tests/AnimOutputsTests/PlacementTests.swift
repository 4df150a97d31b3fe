import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Where a view stands (docs/exports.md §6): `view V at (X, Y)` and
/// `view V origin O`, read into one ``Placement`` per view that every
/// output draws from, and printed back (its mistakes are rows of
/// ``MistakeTests``).
struct PlacementTests {
    static func resolved(_ source: String) -> (SourceFile, Outcome) {
        let file = SourceFile(name: "place.anim", text: source)
        return (file, run(file))
    }

    @Test func homeAndOriginWordsAreRead() {
        let (_, outcome) = Self.resolved("""
            view bar at (100, 40) origin left width 200 height 20
            view piece at (100, 40)
            view card origin (0.25, 1) color red
            view plain x 3
            let a = grow bar from scale-x 0 to 1 || fadeIn piece || fadeIn card || fadeIn plain
            """)
        #expect(!outcome.hasErrors)
        let placements = outcome.resolved.placements
        #expect(placements["bar"] == Placement(home: (100, 40), origin: (0, 0.5)))
        // Two views may share a home; the origin stays the centre.
        #expect(placements["piece"] == Placement(home: (100, 40), origin: (0.5, 0.5)))
        #expect(placements["card"] == Placement(home: nil, origin: (0.25, 1)))
        #expect(placements["plain"] == nil)
        // Initial values on the same line are kept.
        #expect(outcome.initial[Property(view: "bar", name: "width")] == .number(200))
        #expect(outcome.initial[Property(view: "plain", name: "x")] == .number(3))
    }

    @Test(arguments: [
        ("center", 0.5, 0.5), ("left", 0.0, 0.5), ("right", 1.0, 0.5), ("top", 0.5, 0.0), ("bottom", 0.5, 1.0),
        ("top-left", 0.0, 0.0), ("top-right", 1.0, 0.0), ("bottom-left", 0.0, 1.0), ("bottom-right", 1.0, 1.0),
    ])
    func everyOriginWordIsAFractionOfTheBox(word: String, x: Double, y: Double) {
        let (_, outcome) = Self.resolved("view v origin \(word)\nlet a = fadeIn v")
        #expect(outcome.resolved.placements["v"] == Placement(origin: (x, y)))
    }

    @Test(arguments: [
        "view bar at (100, 40) origin left width 200 height 20",
        "view card origin (0.25, 1) color red",
        "view piece at (-10.5, 0) opacity 0",
        "view dot origin bottom-right",
    ])
    func placementsPrintBackAsWritten(line: String) {
        let parsed = parse(SourceFile(name: "p.anim", text: line + "\nlet a = fadeIn v"))
        #expect(!parsed.hasErrors)
        #expect(format(parsed.program).hasPrefix(line + "\n"))
        let again = parse(SourceFile(name: "p.anim", text: format(parsed.program)))
        #expect(again.program == parsed.program)
    }

    @Test func normalFormKeepsThePlacement() throws {
        let (_, outcome) = Self.resolved("view bar at (1/2, 40) origin (0, 1/4)\nlet a = grow bar from scale-x 0 to 1")
        let normal = try normalize(outcome)
        #expect(format(normal.program).hasPrefix("view bar at (0.5, 40) origin (0, 0.25)\n"))
    }
}

/// Lottie reads the placement: the layer's position is the home plus the
/// origin's offset, its anchor `a` that offset (a fraction of the box), and
/// `s` is per axis.
struct LottiePlacementTests {
    static func player(_ name: String) throws -> LottieReferencePlayer {
        let (_, export) = LottieExportTests.export(try LottieExportTests.example(name))
        return try #require(export.bytes.flatMap { LottieReferencePlayer(json: $0) })
    }

    @Test func aProgressBarTurnsAboutItsLeftEdge() throws {
        let player = try Self.player("progress-bar")
        let track = try #require(player.shown("track", at: 0)), bar = try #require(player.shown("bar", at: 0))
        // Both at (160, 40): the bar's origin is its left edge, 240 / 2 left of its centre.
        #expect(track.anchor == [0, 0] && bar.anchor == [-120, 0])
        #expect(bar.x == track.x - 120 && bar.y == track.y)
        // scale-x 0 → 1 with ease-in-out over 2 s: at 1 s (frame 60) half way, y unscaled.
        #expect(bar.scale == [0, 1])
        let middle = try #require(player.shown("bar", at: 60))
        #expect(abs(middle.scale[0] - 0.5) < 1e-3 && middle.scale[1] == 1)
    }

    @Test func anOriginFollowsTheBoxWhenItGrows() throws {
        let file = SourceFile(name: "grow.anim", text: """
            view bar at (120, 60) origin left width 100 height 20
            let final = animate bar.width from 100 to 200 in 1s with ease-in-out
            """)
        let (_, export) = LottieExportTests.export(file)
        let player = try #require(export.bytes.flatMap { LottieReferencePlayer(json: $0) })
        // The anchor is half the width left of the centre; the position less it stays at the home
        // (the stage's shift moves it alike at every frame).
        let start = try #require(player.shown("bar", at: 0))
        for (frame, width) in [(0.0, 100.0), (30, 150), (60, 200)] {
            let shown = try #require(player.shown("bar", at: frame))
            #expect(abs(shown.anchor[0] + width / 2) < 1e-6 && shown.anchor[1] == 0, "frame \(frame): \(shown.anchor)")
            #expect(abs((shown.x - shown.anchor[0]) - (start.x - start.anchor[0])) < 1e-6 && shown.y == start.y,
                    "frame \(frame): \(shown.x), \(shown.y)")
        }
        #expect(start.x - start.anchor[0] >= 120 && start.y >= 60)
    }

    @Test func confettiShareOneHome() throws {
        let player = try Self.player("confetti")
        let names = ["red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"]
        let homes = names.compactMap { player.shown($0, at: 0) }.map { [$0.x, $0.y] }
        #expect(homes.count == 8 && Set(homes).count == 1)
    }

    @Test func aCardFlipScalesOneAxis() throws {
        let player = try Self.player("card-flip")
        // Frame 18 is 0.3 s: the edge, where scale-x is 0.
        #expect(player.shown("card", at: 18)?.scale == [0, 1])
        #expect(player.shown("card", at: 0)?.scale == [1, 1])
    }
}

/// The plot's labels and the terminal player's rows say what the stage draws
/// a placed view's properties from (docs/exports.md §6): `x`, `y` from its `at`
/// home, `scale`, `scale-x`, `scale-y`, `rotation` about its origin.
struct PlacementLabelTests {
    static let source = """
        view bar at (100, 40) origin left width 200
        view dot origin (0.25, 1)
        let final = animate bar.x from 0 to 10 || scale bar from 1 to 2 || rotate dot by 90 || animate dot.y from 0 to 5
        """

    static let expected = ["bar.scale (about left)", "bar.width", "bar.x (at 100)", "dot.rotation (about 0.25, 1)", "dot.y"]

    @Test func plotPanelsAreLabelledWithTheirPlacement() throws {
        let outcome = run(SourceFile(name: "placed.anim", text: Self.source))
        #expect(!outcome.hasErrors, "\(outcome.diagnostics)")
        let plot = try #require(makePlot(outcome, source: "placed.anim").0)
        #expect(plot.panels.map(\.label) == Self.expected)
        let svg = plot.svg()
        #expect(svg.contains(">bar.x (at 100)</text>") && svg.contains(">dot.rotation (about 0.25, 1)</text>"), "\(svg)")
    }

    @Test func terminalRowsAreLabelledWithTheirPlacement() throws {
        let outcome = run(SourceFile(name: "placed.anim", text: Self.source))
        let playback = try #require(try Playback.prepare(outcome))
        let frame = renderPlayerFrame(playback, at: .zero, header: PlayerHeader(file: "placed.anim"), columns: 120, rows: 24)
        for label in Self.expected {
            #expect(frame.lines.contains { $0.text.hasPrefix(label + " ") }, "\(label): \(frame.lines.map(\.text))")
        }
    }
}
