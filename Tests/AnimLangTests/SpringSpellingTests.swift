import Foundation
import Testing
import AnimTestSupport
@testable import AnimLang
@testable import AnimOutputs
import Animations

/// How the language spells springs (docs/semantics.md §6.4's table), checked
/// against the golden file of the library's tests, whose script computes
/// each spelling's (ζ, ω, v) on its own, and the canonical printing.
@Suite struct SpringSpellingTests {
    /// `SPELLING | ZETA | OMEGA | V` of every spring in AnimationsTests/Golden/springs.golden.
    static let goldenSprings: [(spelling: String, zeta: Double, omega: Double, v: Double)] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AnimationsTests/Golden/springs.golden")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var result: [(String, Double, Double, Double)] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 6, fields[4] == "T", let zeta = Double(fields[1]), let omega = Double(fields[2]),
                  let v = Double(fields[3]) else { continue }
            result.append((fields[0], zeta, omega, v))
        }
        return result
    }()

    /// The easing of `x with SPELLING`.
    static func easing(_ spelling: String) -> Easing? {
        let result = parse(SourceFile(name: "s.anim", text: "let x = fadeIn v with " + spelling))
        guard !result.hasErrors, case .eased(_, let easing, _)? = result.program.bindings.first?.value.kind else { return nil }
        return easing
    }

    @Test func everyGoldenSpellingReadsAsItsParameters() throws {
        #expect(Self.goldenSprings.count >= 20)
        for (spelling, zeta, omega, v) in Self.goldenSprings {
            let expected = try Easing.spring(dampingRatio: zeta, angularFrequency: omega, velocity: v)
            #expect(Self.easing(spelling) == expected, "\(spelling)")
            // …and prints as something that reads back as the same spring.
            let printed = EasingNames.spelling(of: expected)
            #expect(Self.easing(printed) == expected, "\(spelling) prints as \(printed)")
        }
    }

    @Test func theTableOfTheNote() throws {
        // written → (ζ, ω, v), from docs/semantics.md §6.4.
        let table: [(String, Double, Double, Double)] = [
            ("spring", 1, 1, 0), ("smooth spring", 1, 1, 0), ("snappy spring", 0.85, 1, 0), ("bouncy spring", 0.7, 1, 0),
            ("spring(bounce 0.25)", 0.75, 1, 0), ("spring(bounce -0.2)", 1 / 0.8, 1, 0), ("spring(bounce 0)", 1, 1, 0),
            // Defaults 100, 10, 1, 0: ζ = 10/(2√100) = 0.5, ω = 10.
            ("spring(stiffness 100)", 0.5, 10, 0), ("spring(velocity 3)", 0.5, 10, 3), ("spring(mass 4)", 10.0 / (2 * 20), 5, 0),
            ("spring(damping 20)", 1, 10, 0), ("spring(damping 30, velocity -1)", 1.5, 10, -1),
            ("spring(velocity 2, mass 0.25, damping 1, stiffness 1)", 1, 2, 2),
        ]
        for (written, zeta, omega, v) in table {
            let spring = try #require(Self.easing(written)?.spring, "\(written)")
            #expect(spring.dampingRatio == zeta && spring.angularFrequency == omega && spring.velocity == v,
                    "\(written): ζ \(spring.dampingRatio), ω \(spring.angularFrequency), v \(spring.velocity)")
        }
        // `a`/`an` are decoration, as for every easing.
        #expect(Self.easing("a bouncy spring") == Self.easing("bouncy spring"))
        #expect(Self.easing("an spring(bounce 0.5)") == Self.easing("spring(bounce 0.5)"))
    }

    /// Not reserved: they name views, and the parameter words name `let`s;
    /// but a `let` may not take an easing's name (docs/semantics.md §7.2), so `with snappy`
    /// keeps meaning the spring.
    @Test func theAdjectivesAreNotReserved() {
        for word in ["smooth", "snappy", "bouncy", "spring", "bounce", "stiffness", "damping", "mass", "velocity"] {
            #expect(!reservedWords.contains(word))
            let easing = ["smooth", "snappy", "bouncy", "spring"].contains(word)
            let name = easing ? word + "_" : word
            let source = "view \(word) x 1\nlet \(name) = fadeIn \(word) with \(word == "spring" ? "spring" : "bouncy spring")\nlet b = \(name) ; \(name)"
            let outcome = run(SourceFile(name: "w.anim", text: source))
            #expect(!outcome.hasErrors, "\(word): \(outcome.diagnostics.map(\.message))")
            if easing {
                let named = run(SourceFile(name: "w.anim", text: "let \(word) = fadeIn v"))
                #expect(named.diagnostics.map(\.id) == ["easing-name"], "\(word)")
            }
        }
    }

    /// Decimal springs as scripts write them, in every form: each prints in
    /// one spelling and reads back as exactly the same spring.
    @Test func printedSpringsReadBackExactly() throws {
        var random = ProgramGenerator.SplitMix64(seed: 0x5_9_8_1_9_6)
        func decimal() -> String {
            let digits = 1 + Int(random.next() % 9999)
            return "\(digits)e\(Int(random.next() % 7) - 3)"
        }
        var forms = Set<String>()
        for _ in 0..<3000 {
            var parameters: [String] = []
            if random.next() % 5 == 0 {
                parameters = ["bounce \(Double(Int(random.next() % 1999) - 999) / 1000)"]
            } else {
                for name in ["stiffness", "damping", "mass", "velocity"] where random.next() % 2 == 0 {
                    parameters.append("\(name) \(name == "velocity" && random.next() % 2 == 0 ? "-" : "")\(decimal())")
                }
                if parameters.isEmpty { parameters = ["mass \(decimal())"] }
            }
            let written = "spring(\(parameters.joined(separator: ", ")))"
            guard let easing = Self.easing(written) else { continue }   // damping 0 and the like
            let printed = EasingNames.spelling(of: easing)
            #expect(Self.easing(printed) == easing, "\(written) prints as \(printed)")
            #expect(EasingNames.spelling(of: Self.easing(printed) ?? .linear) == printed)
            forms.insert(printed.hasPrefix("spring(stiffness") ? (printed.contains("mass") ? "mass" : "physical")
                         : printed.hasPrefix("spring(bounce") ? "bounce" : printed)
        }
        // Every canonical form turns up: named, bounce, physical with mass 1, and with another mass.
        #expect(forms.isSuperset(of: ["bounce", "physical", "mass"]), "\(forms)")
    }

    @Test func equalSpringsAreEqualAnimations() throws {
        func scene(_ easing: String) throws -> Scene {
            try #require(run(SourceFile(name: "s.anim", text: "let x = animate v.x from 0 to 1 with \(easing)")).scene)
        }
        #expect(try Scene.sameAnimation(scene("spring(bounce 0.3)"), scene("a bouncy spring")) == .same)
        #expect(try Scene.sameAnimation(scene("spring(stiffness 200, mass 2)"), scene("spring(damping 5)")) == .same)
        #expect(try Scene.sameAnimation(scene("spring(bounce 0.3)"), scene("spring(bounce 0.31)")) != .same)
    }
}

extension SpringSpellingTests {
    /// Springs with extreme parameters print too, and read back as the same
    /// spring (or, past the limit the printer documents, as one of the same curve).
    @Test func extremeSpringsPrintAndReadBack() throws {
        let magnitudes = ["1e-300", "1e-150", "1e-20", "0.001", "1", "1000", "1e20", "1e150", "1e300"]
        var exact = 0, sameCurve: [String] = []
        for k in magnitudes {
            for c in magnitudes {
                for m in ["1e-300", "1", "1e300"] {
                    for v in ["0", "-1e300", "3"] {
                        let written = "spring(stiffness \(k), damping \(c), mass \(m), velocity \(v))"
                        guard let easing = Self.easing(written), let spring = easing.spring else { continue }
                        let printed = EasingNames.spelling(of: easing)
                        let again = try #require(Self.easing(printed)?.spring, "\(written) prints as \(printed), which does not read")
                        if again == spring {
                            exact += 1
                        } else {
                            sameCurve.append(written)
                            #expect(abs(again.dampingRatio / spring.dampingRatio - 1) < 1e-15, "\(written) → \(printed)")
                        }
                    }
                }
            }
        }
        #expect(exact > 300)
        #expect(sameCurve.isEmpty, "not exact: \(sameCurve)")
    }
}
