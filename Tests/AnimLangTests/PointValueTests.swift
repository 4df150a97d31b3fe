import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Points as one value (`Value.point`): `animate V.P from (X1, Y1) to (X2, Y2)`
/// on a property the exports do not draw (docs/exports.md §1). Expected values are
/// worked out by hand from docs/semantics.md §4 and §5: each component is
/// `from + (to − from)·E(p)` with the eased progress; a tie takes the mean of
/// the distinct points, component by component. The talk's `ease-out` is
/// `E(p) = 1 − (1 − p)²`: E(¼) = 7/16 = 0.4375, E(½) = 0.75, E(¾) = 15/16 = 0.9375.
/// `move` is unchanged: it still animates `x` and `y` as numbers.
struct PointValueTests: ScriptChecking {
    static let shadow = "view card\nlet a = animate card.shadow from (0, 0) to (4, 8) in 1s with ease-out\n"

    /// (0, 0) → (4, 8) with ease-out at p = ¼, ½, ¾: 4·E and 8·E, i.e.
    /// (1.75, 3.5), (3, 6), (3.75, 7.5). CSV writes a point losslessly and
    /// without a comma, `(1.75 3.5)`; the table to 4 decimals, `(1.7500, 3.5000)`;
    /// JSON as an array of numbers.
    @Test func anEasedPointTweenMovesBothComponentsByTheEasedProgress() {
        #expect(Self.eval(Self.shadow, fps: 4) == """
            time,card.shadow
            0,(0 0)
            0.25,(1.75 3.5)
            0.5,(3 6)
            0.75,(3.75 7.5)
            1,(4 8)

            """)
        let table = Self.eval(Self.shadow, at: ["0.25"], format: .table)
        #expect(table.contains("(1.7500, 3.5000)"), "\(table)")
        #expect(Self.eval(Self.shadow, at: ["0.5"], format: .json) == "{\"time\":0.5,\"card.shadow\":[3,6]}\n")
    }

    /// A tie means the distinct points component by component (docs/semantics.md §4):
    /// a = (0, 0) → (4, 8) and b = (2, 2) held. At 0: mean of (0, 0) and (2, 2)
    /// = (1, 1); at ½: (2, 4) and (2, 2) → (2, 3); at 1: (4, 8) and (2, 2) → (3, 5).
    /// `a || a || b` is the same: a point counted twice is counted once.
    @Test func tiedPointsTakeTheMeanOfTheDistinctPointsComponentByComponent() {
        let source = """
            view card
            let a = animate card.shadow from (0, 0) to (4, 8) in 1s
            let b = animate card.shadow from (2, 2) to (2, 2) in 1s
            let tie = a || b
            let twice = a || a || b

            """
        let expected = "time,card.shadow\n0,(1 1)\n0.5,(2 3)\n1,(3 5)\n"
        #expect(Self.eval(source + "let final = tie\n", fps: 2) == expected)
        #expect(Self.eval(source + "let final = twice\n", fps: 2) == expected)
    }

    /// Repeated twice (2 s): each copy goes (0, 0) → (4, 8) linearly; at 1 the
    /// second copy has started (the latest start wins) and shows (0, 0).
    @Test func aRepeatedPointTweenStartsEachCopyAgain() {
        #expect(Self.eval("view card\nlet a = animate card.shadow from (0, 0) to (4, 8) in 1s repeated twice\n",
                          at: ["0.5", "1", "1.5", "2"]) == "time,card.shadow\n0.5,(2 4)\n1,(0 0)\n1.5,(2 4)\n2,(4 8)\n")
    }

    /// Reversed, the value at t is the forward value at 1 − t: at ¼ the
    /// forward ¾, (3.75, 7.5); at ½, (3, 6); at ¾ the forward ¼, (1.75, 3.5).
    @Test func aReversedPointTweenPlaysTheEasedPointsBackwards() {
        #expect(Self.eval("view card\nlet a = (animate card.shadow from (0, 0) to (4, 8) in 1s with ease-out) reversed\n", fps: 4) == """
            time,card.shadow
            0,(4 8)
            0.25,(3.75 7.5)
            0.5,(3 6)
            0.75,(1.75 3.5)
            1,(0 0)

            """)
    }

    /// `to` starts from the current point (docs/semantics.md §7.1): a declared (1, 1) → (5, 9)
    /// is (3, 5) halfway; with nothing declared it starts at (0, 0), the
    /// neutral point, and is (2.5, 4.5) halfway. `by` a point is refused.
    @Test func aPointGoesToAPointFromWhereItIs() {
        #expect(Self.eval("view card shadow (1, 1)\nlet a = animate card.shadow to (5, 9) in 1s\n", at: ["0.5"])
                == "time,card.shadow\n0.5,(3 5)\n")
        #expect(Self.eval("view card\nlet a = animate card.shadow to (5, 9) in 1s\n", at: ["0.5"])
                == "time,card.shadow\n0.5,(2.5 4.5)\n")
        #expect(Self.diagnostics("view card\nlet a = animate card.shadow by (1, 2)\n") == ["2:32 wrong-value-kind"])
    }

    /// Points keep to their properties: a tween that mixes kinds, a point on a
    /// drawn property, a property that is a point in one place and a number
    /// in another, all located errors; `move` still splits into `x` and `y`.
    @Test func pointsAreRefusedWhereTheyDoNotBelong() {
        #expect(Self.diagnostics("let a = animate card.shadow from (0, 0) to 3\n") == ["1:44 wrong-value-kind"])
        #expect(Self.diagnostics("let a = animate card.width from (0, 0) to (1, 1)\n") == ["1:33 wrong-value-kind"])
        #expect(Self.diagnostics("let a = animate card.shadow from (0, 0) to (1, 1) ; animate card.shadow from 0 to 1\n")
                == ["1:78 mixed-kinds"])
        #expect(Self.eval("let a = move card from (0, 0) to (4, 8) in 1s\n", at: ["0.5"]) == "time,card.x,card.y\n0.5,2,4\n")
    }

    /// The normal form prints a point as written, and `equal` tells points apart.
    @Test func normalFormsAndEqualityReadPoints() throws {
        let source = "view card\nlet a = animate card.shadow from (0, 0) to (4, 8) in 1s\nlet b = animate card.shadow from (0, 0) to (4, 9) in 1s\n"
        #expect(Value.point(Point(x: 0, y: 0)).precedes(.point(Point(x: 0, y: 1))) == true)
        #expect(Value.number(9).precedes(.point(Point(x: 0, y: 0))) == true)
        #expect(Value.point(Point(x: -0.0, y: 1)).canonical.fingerprint == Value.point(Point(x: 0, y: 1)).fingerprint)
        let a = try Self.scene(source, "a"), b = try Self.scene(source, "b")
        #expect(try Scene.sameAnimation(a, b) != .same)
        try Self.expectSame(source + "let c = a ; a\nlet d = a ^ 2\n", "c", "d")
    }

    /// The outputs: CSS registers `<number>+` and writes the two numbers
    /// space-separated (as it writes other properties it does not draw);
    /// WAAPI names the kind `point`; Lottie leaves it out with a warning, as
    /// it does any property it does not draw; the plot gives it a labelled band.
    @Test func theOutputsWriteAPointAsTheyWriteOtherPropertiesTheyDoNotDraw() throws {
        let file = SourceFile(name: "shadow.anim", text: "view card\nlet a = animate card.shadow from (0, 0) to (4, 8) in 1s\n")
        let outcome = run(file)
        let export = try #require(webExport(outcome, source: file.name).0)
        let css = stylesheet(export)
        #expect(css.contains("@property --animc-shadow { syntax: '<number>+'; inherits: false; initial-value: 0 0; }"), "\(css)")
        #expect(css.contains("0% { --animc-shadow: 0 0; }") && css.contains("100% { --animc-shadow: 4 8; }"), "\(css)")
        #expect(waapiJSON(export).contains("\"kind\":\"point\",\"start\":\"0 0\""))
        let lottie = exportLottie(outcome)
        #expect(lottie.document != nil)
        #expect(lottie.diagnostics.contains { $0.message.contains("`card.shadow` has no place in a Lottie file") })
        let (plot, diagnostics) = makePlot(outcome, source: file.name)
        #expect(diagnostics.isEmpty)
        let svg = try #require(plot).svg()
        #expect(svg.contains(">(0.0000, 0.0000)<"), "\(svg)")
    }
}
