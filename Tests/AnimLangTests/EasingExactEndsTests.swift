import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// Every easing the language names is exact at its ends: 0 at 0 and 1 at 1,
/// not 2.2e-16 or 0.9999999999999998 (what the closed forms round to), and
/// exactly ½ at ½ where the curve is point-symmetric about (½, ½). So a tween
/// reads exactly its end value at its end, as it does just after.
struct EasingExactEndsTests {
    /// Every bare name `with` accepts, from the catalogue itself.
    static let names = EasingNames.allNames

    @Test func theCatalogueIsWhole() {
        // 4 talk/linear names, spring, 2 step keywords, 5 CSS keywords, 10 Penner curves × 3 modes.
        #expect(Self.names.count == 4 + 1 + 2 + 5 + 30)
    }

    @Test(arguments: names)
    func exactAtZeroAndOne(name: String) throws {
        let easing = try #require(EasingNames.easing(named: name))
        // CSS: `step-start` (steps(1, jump-start)) is already at its top at 0.
        #expect(easing(0) == (name == "step-start" ? 1 : 0), "\(name)(0) = \(easing(0))")
        #expect(easing(1) == 1, "\(name)(1) = \(easing(1))")
        // So is its reflection `1 − E(1 − p)`, which a reversed tween plays.
        let mirrored = easing.mirrored
        #expect(mirrored(0) == 0, "mirrored \(name)(0) = \(mirrored(0))")
        #expect(mirrored(1) == (name == "step-start" ? 0 : 1), "mirrored \(name)(1) = \(mirrored(1))")
    }

    /// The curves symmetric about (½, ½), `E(1 − p) = 1 − E(p)`: every
    /// in-out (Penner's by construction from its in and out halves, the
    /// talk's `g(p) / (g(p) + g(1 − p))`), linear, and CSS's symmetric Bézier.
    static let symmetric = names.filter { $0.hasPrefix("ease-in-out") } + ["linear", "css-ease-in-out"]

    @Test(arguments: symmetric)
    func exactAtTheMiddle(name: String) throws {
        let easing = try #require(EasingNames.easing(named: name))
        #expect(easing(0.5) == 0.5, "\(name)(0.5) = \(easing(0.5))")
    }

    /// The cases, one by one.
    @Test func theReportedValues() {
        func value(_ name: String, _ p: Double) -> Double? { EasingNames.easing(named: name).map { $0(p) } }
        #expect(value("ease-in-back", 1) == 1)          // was 0.9999999999999998
        #expect(value("ease-out-back", 0) == 0)         // was 2.2e-16
        #expect(value("ease-in-sine", 1) == 1)          // was 0.9999999999999999
        #expect(value("ease-in-out-sine", 0.5) == 0.5)  // was 0.49999999999999994
    }

    /// `animate v.x from 0 to 100 with ease-in-back` reads exactly 100 at its
    /// end (it read 99.99999999999997, and 100 just after); every named easing
    /// does, and starts exactly at 0.
    @Test(arguments: names)
    func aTweenReadsItsEndValueAtItsEnd(name: String) throws {
        let source = "view v\nlet final = animate v.x from 0 to 100 with \(name)\n"
        let file = SourceFile(name: "ends.anim", text: source)
        let outcome = run(file)
        let scene = try #require(try outcome.scene?.compile(), "\(render(outcome.diagnostics, in: file))")
        let x = Property(view: "v", name: "x")
        #expect(scene.value(of: x, at: Time(1), initial: nil)?.number == 100, "\(name)")
        if name != "step-start" {
            #expect(scene.value(of: x, at: .zero, initial: nil)?.number == 0, "\(name)")
        }
    }
}
