import Foundation
import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// What the feature suites of the language (colours, keyframes, stagger,
/// springs, events, forever, relative tweens) check scripts with: evaluate,
/// compile, read values, list diagnostics, compare animations. A suite
/// adopts ``ScriptChecking`` and calls these as `Self.eval(…)`; elsewhere
/// ``ScriptCheck`` names them.
protocol ScriptChecking {}

/// The checks, for a suite that does not adopt ``ScriptChecking``.
enum ScriptCheck: ScriptChecking {}

struct ScriptCheckFailure: Error, CustomStringConvertible {
    let text: String
    var description: String { text }
}

extension ScriptChecking {
    static func file(_ source: String) -> SourceFile { SourceFile(name: "script.anim", text: source) }

    /// What `animc eval` prints (CSV unless asked), or the rendered errors.
    static func eval(_ source: String, fps: Int64 = 10, at times: [String]? = nil, until: String? = nil,
                     format: TableFormat = .csv) -> String {
        let result = evaluateToText(file(source), fps: fps, at: times.map { $0.map(time) }, until: until.map(time), format: format)
        return result.succeeded ? result.output : "error:\n" + result.diagnostics
    }

    /// `"1/3"` or `"0.25"` as exact time.
    static func time(_ text: String) -> Time {
        let parts = text.split(separator: "/")
        if parts.count == 2, let n = Int64(parts[0]), let d = Int64(parts[1]), let t = Time(numerator: n, denominator: d) { return t }
        return Time(decimal: text) ?? .zero
    }

    /// The compiled scene of the last binding, and the declared initial values.
    static func compiled(_ source: String) throws -> (CompiledScene, [Property: Value]) {
        let outcome = run(file(source))
        guard !outcome.hasErrors, let scene = outcome.scene else {
            throw ScriptCheckFailure(text: render(outcome.diagnostics, in: file(source)))
        }
        _ = scene
        guard let compiled = try outcome.compiledScene() else { throw ScriptCheckFailure(text: "cancelled: \(source)") }
        return (compiled, outcome.initial)
    }

    /// The number `property` holds at each `time` of `expectations`, within 1e-9.
    static func expectNumbers(_ source: String, _ expectations: [(String, String, Double)],
                              sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (scene, initial) = try compiled(source)
        for (time, property, expected) in expectations {
            let parts = property.split(separator: ".")
            let key = Property(view: String(parts[0]), name: String(parts[1]))
            let value = scene.value(of: key, at: Self.time(time), initial: initial[key])?.number
            #expect(value.map { abs($0 - expected) <= 1e-9 * max(1, abs(expected)) } == true,
                    "\(property) at \(time) is \(value.map { "\($0)" } ?? "nil"), expected \(expected)\n\(source)",
                    sourceLocation: sourceLocation)
        }
    }

    /// The errors and warnings of `source`, as `LINE:COL id`.
    static func diagnostics(_ source: String, severity: Diagnostic.Severity = .error) -> [String] {
        let file = file(source)
        return run(file).diagnostics.filter { $0.severity == severity }.map { "\(file.location(of: $0.range.start)) \($0.id)" }
    }

    static func scene(_ source: String, _ binding: String? = nil) throws -> Scene {
        let outcome = run(file(source), binding: binding)
        guard !outcome.hasErrors, let scene = outcome.scene else {
            throw ScriptCheckFailure(text: render(outcome.diagnostics, in: file(source)))
        }
        return scene
    }


    static func expectSame(_ source: String, _ lhs: String, _ rhs: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let left = try scene(source, lhs), right = try scene(source, rhs)
        #expect(try Scene.sameAnimation(left, right) == .same, "\(lhs) and \(rhs) differ:\n\(source)", sourceLocation: sourceLocation)
    }
}
