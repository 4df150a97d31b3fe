import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Tables derived by hand from the semantics note, one behaviour per case.
/// Each expectation is `time: property = value`, worked out in the comment
/// above it from the rules (active: latest start wins; otherwise finished:
/// latest end; otherwise declared initial value or earliest start value; ties
/// average distinct values; zero-length windows are jumps).
struct SamplingRuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let source: String
        let duration: String?
        let expectations: [(String, String, Double)]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Holds in a sequence: the first tween ends at 1 (value 10) and holds
        // through the wait; the second starts at 2.
        Case(name: "holds in a sequence",
             source: "let f = animate a.x from 0 to 10 ; wait 1 ; animate a.x from 20 to 30",
             duration: "3",
             expectations: [("0", "a.x", 0), ("0.5", "a.x", 5), ("1", "a.x", 10), ("1.5", "a.x", 10),
                            ("2", "a.x", 20), ("2.5", "a.x", 25), ("3", "a.x", 30)]),
        // Fill backwards: before the only segment starts (at 1), its start value.
        Case(name: "fill backwards",
             source: "let f = wait 1 ; animate a.x from 3 to 10",
             duration: "2",
             expectations: [("0", "a.x", 3), ("0.5", "a.x", 3), ("1", "a.x", 3), ("1.5", "a.x", 6.5), ("2", "a.x", 10)]),
        // A declared initial value replaces the fill-backwards value; a declared
        // property nothing animates is a constant column.
        Case(name: "declared initial values",
             source: "view a x 7 y 2\nlet f = wait 1 ; animate a.x from 3 to 10",
             duration: "2",
             expectations: [("0", "a.x", 7), ("0.5", "a.x", 7), ("1", "a.x", 3), ("2", "a.x", 10),
                            ("0", "a.y", 2), ("2", "a.y", 2)]),
        // Parallel of unequal lengths: max duration; the short one holds.
        Case(name: "parallel of unequal lengths",
             source: "let f = animate a.x from 0 to 10 in 2s || animate a.y from 0 to 1",
             duration: "2",
             expectations: [("0", "a.x", 0), ("1", "a.x", 5), ("1.5", "a.x", 7.5), ("2", "a.x", 10),
                            ("0.5", "a.y", 0.5), ("1", "a.y", 1), ("1.5", "a.y", 1), ("2", "a.y", 1)]),
        // Two tweens on one property: the one that started last wins while
        // active; at t = 2 both are active (both end at 2), the later start wins.
        Case(name: "latest start wins",
             source: "let f = animate a.x from 0 to 10 in 2s || (wait 1 ; animate a.x from 100 to 200)",
             duration: "2",
             expectations: [("0.5", "a.x", 2.5), ("1", "a.x", 100), ("1.5", "a.x", 150), ("2", "a.x", 200)]),
        // Equal starts tie: the mean of the distinct values (5 and 20, then 10 and 30).
        Case(name: "ties average",
             source: "let f = animate a.x from 0 to 10 || animate a.x from 10 to 30",
             duration: "1",
             expectations: [("0", "a.x", 5), ("0.5", "a.x", 12.5), ("1", "a.x", 20)]),
        // x || x: the same value twice counts once.
        Case(name: "ties count distinct values once",
             source: "let x = animate a.x from 0 to 10\nlet f = x || x || animate a.x from 0 to 20",
             duration: "1",
             expectations: [("0.5", "a.x", 7.5), ("1", "a.x", 15)]),
        // Reversed composite (D = 3): y's segment moves to [0, 2] playing 4 → 0,
        // x's to [2, 3] playing 10 → 0. Before x's window: its start value as
        // played, 10.
        Case(name: "reversed composite",
             source: "let f = (animate a.x from 0 to 10 ; animate a.y from 0 to 4 in 2s) reversed",
             duration: "3",
             expectations: [("0", "a.y", 4), ("1", "a.y", 2), ("2", "a.y", 0), ("3", "a.y", 0),
                            ("0", "a.x", 10), ("2", "a.x", 10), ("2.5", "a.x", 5), ("3", "a.x", 0)]),
        // Looped twice: (x ; x reversed) ^ 2 over [0, 4]. At 1 the reversed
        // copy starts (latest start): 10. At 2 the next copy starts: 0.
        Case(name: "looped N times",
             source: "let f = animate a.x from 0 to 10 looped 2 times",
             duration: "4",
             expectations: [("0", "a.x", 0), ("0.5", "a.x", 5), ("1", "a.x", 10), ("1.5", "a.x", 5),
                            ("2", "a.x", 0), ("2.5", "a.x", 5), ("3.25", "a.x", 7.5), ("4", "a.x", 0)]),
        // Powers: three copies of (tween ; wait 1), each holding through its wait.
        Case(name: "powers",
             source: "let f = (animate a.x from 0 to 10 ; wait 1) ^ 3",
             duration: "6",
             expectations: [("1.5", "a.x", 10), ("2", "a.x", 0), ("2.5", "a.x", 5), ("4.25", "a.x", 2.5),
                            ("5", "a.x", 10), ("6", "a.x", 10)]),
        // Delay: wait 0.5 ; x. Before it starts, its start value.
        Case(name: "delays",
             source: "let f = animate a.x from 0 to 10 delayed by 500ms",
             duration: "1.5",
             expectations: [("0", "a.x", 0), ("0.5", "a.x", 0), ("1", "a.x", 5), ("1.5", "a.x", 10)]),
        // Retiming a composite of 2 s to 1 s: every time halves.
        Case(name: "retiming a composite",
             source: "let f = (animate a.x from 0 to 10 ; animate a.x from 10 to 0) in 1s",
             duration: "1",
             expectations: [("0.25", "a.x", 5), ("0.5", "a.x", 10), ("0.75", "a.x", 5), ("1", "a.x", 0)]),
        // Warp on a composite (D = 2) by E(p) = p²: the state at t is the state
        // of the composite at 2·(t/2)². t = 1 → 0.5: x = 5, y not started (0).
        // t = 1.5 → 1.125: x done (10), y at 0.125 → 1.25. t = 2 → 2: y = 10.
        Case(name: "easing warp on a composite",
             source: "let f = (animate a.x from 0 to 10 ; animate a.y from 0 to 10) with ease-in-quad",
             duration: "2",
             expectations: [("1", "a.x", 5), ("1", "a.y", 0), ("1.5", "a.x", 10), ("1.5", "a.y", 1.25),
                            ("2", "a.y", 10), ("2", "a.x", 10)]),
        // On a single tween `with` composes into the tween: back overshoots.
        // ease-out-back(0.5) = 1 + 2.70158·(−0.5)³ + 1.70158·(−0.5)² = 1.0876975.
        Case(name: "easing a single tween keeps the overshoot",
             source: "let f = animate a.x from 0 to 100 with ease-out-back",
             duration: "1",
             expectations: [("0.5", "a.x", 108.76975)]),
        // A zero-length tween is a jump: start value before, end value at and after.
        Case(name: "zero-length tweens",
             source: "let f = wait 1 ; animate a.x from 0 to 5 in 0s ; wait 1",
             duration: "2",
             expectations: [("0", "a.x", 0), ("0.5", "a.x", 0), ("1", "a.x", 5), ("2", "a.x", 5)]),
        // A reversed jump lands on its start value.
        Case(name: "reversed jump",
             source: "let f = wait 1 ; (animate a.x from 0 to 5 in 0s) reversed ; wait 1",
             duration: "2",
             expectations: [("0", "a.x", 5), ("1", "a.x", 0), ("2", "a.x", 0)]),
        // `all views`: every view named in the file, in parallel.
        Case(name: "all views",
             source: "view p\nlet f = fadeIn all views ; fadeOut q",
             duration: "2",
             expectations: [("0.5", "p.opacity", 0.5), ("0.5", "q.opacity", 0.5), ("1.5", "q.opacity", 0.5),
                            ("1.5", "p.opacity", 1)]),
        // Units and number expressions: 250ms + a tween of 0.5 s from 6 to 10.
        Case(name: "units and number expressions",
             source: "let f = wait 250ms ; animate a.x from 2*3 to 12 - 2*1 in 0.25 + 0.25 s",
             duration: "0.75",
             expectations: [("0.25", "a.x", 6), ("0.5", "a.x", 8), ("0.75", "a.x", 10)]),
        // Rotation is reported in degrees whatever unit it is written in.
        Case(name: "angle units",
             source: "let f = rotate a from 0 to 0.5 turns ; rotate b from 0 to pi radians ; rotate c from 0 to 90 deg",
             duration: "3",
             expectations: [("1", "a.rotation", 180), ("2", "b.rotation", 180), ("3", "c.rotation", 90)]),
        // Springs (docs/semantics.md §6.4): E(p) = x(p·T), the whole settling fitted into the window.
        // `bouncy spring`: ζ = 0.7, ω = 1, v = 0, T = ln(√(1 + 0.7²/0.51)/0.001)/0.7 = 10.349182.
        // At t = 0.5: τ = T/2 = 5.1745911, e^(−0.7τ) = 0.0267235, ω_d τ = √0.51·τ = 3.6953972,
        // cos = −0.8505298, sin = −0.5259269, (ζω − v)/ω_d = 0.9801961, so
        // x = 1 − 0.0267235·(−0.8505298 − 0.9801961·0.5259269) = 1.0365053: 103.65053.
        // The other values are make_spring_golden.py's (AnimationsTests/Golden): 100·E(t).
        Case(name: "a bouncy spring",
             source: "let f = animate v.x from 0 to 100 with a bouncy spring",
             duration: "1",
             expectations: [("0", "v.x", 0), ("0.1", "v.x", 32.187939577962765), ("0.2", "v.x", 74.908258128602967),
                            ("0.3", "v.x", 97.950792422407562), ("0.4", "v.x", 104.42445830084934),
                            ("0.5", "v.x", 103.65053367312986), ("0.6", "v.x", 101.5759353513497),
                            ("0.7", "v.x", 100.27160758224534), ("0.8", "v.x", 99.824477283649504),
                            ("0.9", "v.x", 99.810487990639507), ("1", "v.x", 100)]),
        // `spring(stiffness 200, damping 10)` in 2 s: ζ = 10/(2√200) = 0.3535534, ω = √200 = 14.142136,
        // ω_d = ω√(1 − ζ²) = 13.228757, T = ln(√(1 + (ζω/ω_d)²)/0.001)/(ζω) = 1.3949042 s of spring
        // fitted into the 2 s window, so t = 0.5 is p = 0.25, spring time T/4 = 0.3487260:
        // e^(−5·0.3487260) = 0.1748844, ω_d·0.3487260 = 4.6132120, cos = −0.0990145,
        // sin = −0.9950860, ζω/ω_d = 0.3779645: x = 1 − 0.1748844·(−0.0990145 − 0.3779645·0.9950860)
        // = 1.0830913. The rest from the golden script, at p = t/2.
        Case(name: "a physical spring fitted into its window",
             source: "let f = animate v.x from 0 to 100 in 2s with spring(stiffness 200, damping 10)",
             duration: "2",
             expectations: [("0", "v.x", 0), ("0.2", "v.x", 95.381903927183309), ("0.4", "v.x", 126.03205715729136),
                            ("0.5", "v.x", 108.30913478458906), ("0.6", "v.x", 94.118828350106132),
                            ("1", "v.x", 102.77069107540402), ("1.5", "v.x", 99.64991386163039),
                            ("1.8", "v.x", 100.17246402991566), ("2", "v.x", 100)]),
        // Reversing a spring tween plays it backwards: at t the value the tween had at 1 − t,
        // 100·E(1 − t) (the spring has no mirror of its own; the tween keeps the wrapper).
        Case(name: "a spring tween reversed",
             source: "let t = animate v.x from 0 to 100 with bouncy spring\nlet f = t reversed",
             duration: "1",
             expectations: [("0", "v.x", 100), ("0.5", "v.x", 103.65053367312986), ("0.8", "v.x", 74.908258128602967),
                            ("1", "v.x", 0)]),
        // zero annihilates sequences; `x ^ 0` is one.
        Case(name: "cancelled",
             source: "let f = fadeIn a ; zero",
             duration: nil,
             expectations: []),
        Case(name: "power zero",
             source: "let f = (fadeIn a ; zero) ^ 0 ; wait 2",
             duration: "2",
             expectations: []),
        // Exact time: ten tenths make exactly one second, so the tween below
        // starts exactly at 1 and is active there (its start value).
        Case(name: "exact time",
             source: "let f = wait 0.1 ; wait 0.2 ; wait 0.7 ; animate a.x from 1 to 2",
             duration: "2",
             expectations: [("1", "a.x", 1), ("1.5", "a.x", 1.5)]),
    ]

    @Test(arguments: cases)
    func tableMatchesTheHandDerivation(_ testCase: Case) throws {
        let outcome = run(SourceFile(name: "case.anim", text: testCase.source))
        #expect(!outcome.hasErrors, "\(render(outcome.diagnostics, in: SourceFile(name: "case.anim", text: testCase.source)))")
        let scene = try #require(outcome.scene)
        #expect(scene.duration == testCase.duration.flatMap { Time(decimal: $0) })
        guard testCase.duration != nil, let compiled = try scene.compile() else {
            #expect(scene.isCancelled)
            return
        }
        for (time, property, expected) in testCase.expectations {
            let parts = property.split(separator: ".")
            let key = Property(view: String(parts[0]), name: String(parts[1]))
            let t = try #require(Time(decimal: time))
            let value = compiled.value(of: key, at: t, initial: outcome.initial[key])?.number
            #expect(value.map { abs($0 - expected) < 1e-9 } == true,
                    "\(testCase.name): \(property) at \(time) is \(value.map(String.init(describing:)) ?? "nil"), expected \(expected)")
        }
    }
}
