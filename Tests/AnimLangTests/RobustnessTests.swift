import Testing
@testable import AnimLang
@testable import AnimOutputs
import Animations
#if canImport(Glibc)
import Glibc
#endif

/// Inputs built to break animc: very deep, very long, very wrong, or at the
/// limits of exact time. Each gives a result or clear, located errors,
/// without exhausting the stack (here or when the values are freed), and
/// without the blow-up a quadratic step would cause: `limit` is a guard
/// against that (such a step takes minutes on these inputs), not a
/// measurement; speed is measured by `bench/run.sh` in instructions.
@Suite(.serialized)
struct RobustnessTests {
    static let limit = Swift.Duration.seconds(20)

    /// What `animc eval` does with a file: run it, compile the value, sample a few instants.
    struct EndToEnd {
        var outcome: Outcome
        var compiled: CompiledScene?
        var compileError: AnimationError?
        var rows: [[Double]] = []
    }

    static func endToEnd(_ text: String, binding: String? = nil, at times: [Time] = []) -> EndToEnd {
        let file = SourceFile(name: "deep.anim", text: text)
        var result = EndToEnd(outcome: run(file, binding: binding))
        guard let scene = result.outcome.scene else { return result }
        do {
            result.compiled = try scene.compile()
        } catch {
            result.compileError = error
        }
        if let compiled = result.compiled {
            let sampler = compiled.sampler(initial: result.outcome.initial)
            var row: [Value] = []
            for t in times {
                sampler.sample(at: t, into: &row)
                result.rows.append(row.map { $0.number ?? .nan })
            }
        }
        return result
    }

    /// Runs `body` and returns the processor time this thread spent on it.
    /// (Processor time, not wall-clock time: tests run in parallel, and other
    /// work on the machine must not make these fail. Times are for debug builds.)
    static func timed<T>(_ body: () -> T) -> (T, Swift.Duration) {
        func now() -> Swift.Duration {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
        }
        let start = now()
        let value = body()
        return (value, now() - start)
    }

    static func time(_ text: String) -> Time {
        Time(decimal: text) ?? .zero
    }

    // MARK: Depth and length

    @Test func hundredThousandNestedParenthesesAreOneError() {
        let depth = 100_000
        let source = "let x = fadeIn v\nlet a = " + String(repeating: "(", count: depth) + "x" + String(repeating: ")", count: depth) + "\n"
        let (ids, elapsed) = Self.timed { Self.endToEnd(source).outcome.diagnostics.map(\.id) }
        #expect(ids == ["nesting-too-deep"])
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    @Test func hundredThousandStepChainOfANameEvaluates() {
        let source = "let x = fadeIn v\nlet a = x\nlet b = a" + String(repeating: " ; a", count: 99_999) + "\n"
        let (result, elapsed) = Self.timed {
            Self.endToEnd(source, at: [.zero, Self.time("0.5"), Self.time("99999.25"), Time(100_000)])
        }
        #expect(result.outcome.diagnostics.isEmpty)
        #expect(result.compiled?.duration == Time(100_000))
        #expect(result.rows == [[0], [0.5], [0.25], [1]])
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    @Test func hundredThousandFadeInsEvaluate() {
        let source = "let b = fadeIn v" + String(repeating: " ; fadeIn v", count: 99_999) + "\n"
        let (result, elapsed) = Self.timed {
            Self.endToEnd(source, at: [Self.time("0.5"), Self.time("50000.75"), Time(100_000), Time(100_001)])
        }
        #expect(result.outcome.diagnostics.isEmpty)
        #expect(result.rows == [[0.5], [0.75], [1], [1]])
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    /// `let a1 = a0 ; x`, `let a2 = a1 ; x`, …: a scene 50,000 levels deep,
    /// resolved, evaluated, compiled, sampled and freed without recursion.
    @Test func fiftyThousandDeepLetChainEvaluatesAndFrees() {
        var source = "let x = fadeIn v\nlet a0 = x\n"
        for i in 1...50_000 { source += "let a\(i) = a\(i - 1) ; x\n" }
        let (result, elapsed) = Self.timed {
            Self.endToEnd(source, at: [Self.time("0.5"), Self.time("25000.5"), Time(50_001)])
        }
        #expect(result.outcome.diagnostics.isEmpty)
        #expect(result.outcome.resolved.order.count == 50_002)
        #expect(result.compiled?.duration == Time(50_001))
        #expect(result.rows == [[0.5], [0.5], [1]])
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    /// Chains that modify the previous binding: those that stay cheap give a
    /// result, those that would make every sample walk the chain (easing the
    /// easing again and again, warps within warps) stop with one error.
    @Test(arguments: [
        ("let a0 = fadeIn v", "let a$ = a# reversed in 2s", nil as String?),
        ("let a0 = fadeIn v ; fadeOut w", "let a$ = a# reversed in 2s with linear", nil),
        ("let a0 = fadeIn v", "let a$ = a# with ease-in", "1026:24 easings compose more than 1024 deep"),
        ("let a0 = fadeIn v ; fadeOut w", "let a$ = a# with ease-in-out", "1026:24 easings compose more than 1024 deep"),
        ("let a0 = fadeIn v ; fadeOut w", "let a$ = (a# ; fadeIn v) with ease-in", "258:35 easings on composite animations nest more than 256 deep"),
        ("let a0 = fadeIn v ; fadeOut w", "let a$ = (a# reversed in 2s) with steps(2)", "258:39 easings on composite animations nest more than 256 deep"),
    ])
    func fiftyThousandDeepModifierChains(first: String, step: String, error: String?) {
        var source = first + "\n"
        for i in 1...50_000 {
            source += step.replacingOccurrences(of: "$", with: String(i)).replacingOccurrences(of: "#", with: String(i - 1)) + "\n"
        }
        let (result, elapsed) = Self.timed { Self.endToEnd(source, at: [.zero, Self.time("0.5"), Time(1)]) }
        let file = SourceFile(name: "deep.anim", text: source)
        let errors = result.outcome.diagnostics.map { "\(file.location(of: $0.range.start)) \($0.message)" }
        if let error {
            #expect(errors == [error])
        } else {
            #expect(errors.isEmpty)
            #expect(result.rows.count == 3)
        }
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    /// Warps by easings that jump are compiled as nested blocks, one level of
    /// compilation each: the nesting limit keeps that recursion shallow.
    @Test func deepestNestingOfJumpingWarpsCompiles() {
        var source = "let a0 = fadeIn v ; fadeOut w\n"
        for i in 1...Scene.maxWarpNesting { source += "let a\(i) = (a\(i - 1) ; fadeIn v) with compose(steps(2), ease-in-expo)\n" }
        let (result, elapsed) = Self.timed { Self.endToEnd(source, at: [.zero, Self.time("0.3"), Time(100), Time(258)]) }
        #expect(result.outcome.diagnostics.isEmpty)
        #expect(result.compileError == nil)
        #expect(result.rows.count == 4)
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    // MARK: Many errors

    @Test(arguments: [
        "let a$ = nosuch$\n",                       // unknown names, each with a "did you mean" search
        "let a$ = b$ c$\n",                         // syntax errors
        "let a$ = wait -$\n",                       // evaluation errors
        "let a$ = x$ ^ 2.5 ; wait 1/0 ; y @ z\n",   // several per line
    ])
    func tenThousandErrorsAreCappedAndFast(line: String) {
        var source = ""
        for i in 1...10_000 { source += line.replacingOccurrences(of: "$", with: String(i)) }
        let (outcome, elapsed) = Self.timed { run(SourceFile(name: "errors.anim", text: source)) }
        #expect(outcome.diagnostics.count == maxParseDiagnostics)
        #expect(outcome.diagnostics.map(\.range.start) == outcome.diagnostics.map(\.range.start).sorted())
        #expect(outcome.diagnostics.first?.range.start ?? 0 < 40)   // the first ones are kept
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    /// Warnings do not stop the parse: only errors count toward the cap (a generated script
    /// with a warning in each of its groups lost every binding after the hundredth warning).
    @Test func aHundredAndFiftyWarningsKeepEveryBinding() {
        var source = "view v rotation 0\n"
        for i in 1...150 { source += "let a\(i) = rotate v from -90 to 1 radians\n" }
        source += "let final = a1 ; a150\n"
        let result = parse(SourceFile(name: "warnings.anim", text: source))
        #expect(result.program.bindings.count == 151)
        #expect(result.program.bindings.last?.name == "final")
        #expect(result.diagnostics.count == maxParseDiagnostics)
        #expect(result.diagnostics.allSatisfy { $0.severity == .warning })
    }

    /// An error after a hundred warnings is reported: the warnings past the cap go first.
    @Test func anErrorAfterAHundredAndFiftyWarningsIsReported() {
        var source = "view v rotation 0\n"
        for i in 1...150 { source += "let a\(i) = rotate v from -90 to 1 radians\n" }
        source += "let broken = a1 ;\n"
        let result = parse(SourceFile(name: "warnings.anim", text: source))
        #expect(result.diagnostics.count == maxParseDiagnostics)
        #expect(result.diagnostics.filter { $0.severity == .error }.count == 1)
        #expect(result.diagnostics.map(\.range.start) == result.diagnostics.map(\.range.start).sorted())
    }

    @Test func thousandsOfBindingsStillGetAHint() {
        var source = ""
        for i in 1...10_000 { source += "let anim\(i) = fadeIn v\n" }
        source += "let last = anim1234x\n"
        let outcome = run(SourceFile(name: "hint.anim", text: source))
        #expect(outcome.diagnostics.map(\.hint) == ["did you mean `anim1234`?"])
    }

    // MARK: Bytes

    /// A deterministic stream of random bytes (SplitMix64).
    static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        while bytes.count < count {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            for shift in stride(from: 0, to: 64, by: 8) where bytes.count < count {
                bytes.append(UInt8(truncatingIfNeeded: z >> UInt64(shift)))
            }
        }
        return bytes
    }

    /// (A 10 MB file takes about 3 s in a release build; one of 1 MB is enough here.)
    @Test(arguments: [1 as UInt64, 2, 3])
    func randomBytesGiveLocatedErrors(seed: UInt64) {
        let file = SourceFile(name: "random.anim", bytes: Self.randomBytes(count: 1 << 20, seed: seed))
        let (outcome, elapsed) = Self.timed { run(file) }
        #expect(outcome.hasErrors)
        #expect(outcome.diagnostics.count <= maxParseDiagnostics)
        let rendered = render(outcome.diagnostics, in: file)
        #expect(rendered.hasPrefix("random.anim:"))
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    @Test func randomBytesWithLetsSprinkledIn() {
        var bytes: [UInt8] = []
        let noise = Self.randomBytes(count: 200_000, seed: 7)
        for (index, byte) in noise.enumerated() {
            bytes.append(byte)
            if index % 97 == 0 { bytes.append(contentsOf: Array("\nlet a\(index) = fadeIn v ; ".utf8)) }
        }
        let file = SourceFile(name: "mixed.anim", bytes: bytes)
        let (outcome, elapsed) = Self.timed { run(file) }
        #expect(outcome.hasErrors)
        #expect(outcome.diagnostics.count <= maxParseDiagnostics)
        #expect(elapsed < Self.limit, "\(elapsed)")
    }

    @Test func oneLineOfOneMegabyte() {
        let count = (1 << 20) / 11
        let source = "let a = fadeIn v" + String(repeating: " ; fadeIn v", count: count)
        let (result, elapsed) = Self.timed { Self.endToEnd(source, at: [Self.time("0.5"), Time(Int64(count) + 1)]) }
        #expect(result.outcome.diagnostics.isEmpty)
        #expect(result.rows == [[0.5], [1]])
        #expect(elapsed < Self.limit, "\(elapsed)")

        let name = String(repeating: "x", count: 1 << 20)
        let (outcome, nameElapsed) = Self.timed { run(SourceFile(name: "long.anim", text: "let a = fadeIn v ; \(name)\n")) }
        #expect(outcome.diagnostics.map(\.id) == ["unknown-name"])
        #expect(outcome.diagnostics.first.map { $0.message.count < 80 } == true)   // the name is shortened in the message
        #expect(nameElapsed < Self.limit, "\(nameElapsed)")
    }

    // MARK: Numbers at the limits

    @Test func hugePowersStaySymbolicOrOverflowCleanly() throws {
        let max = "9223372036854775807"
        let symbolic = Self.endToEnd("let a = fadeIn x ^ \(max)\n", at: [Self.time("0.5"), Time(Int64.max)])
        #expect(symbolic.outcome.diagnostics.isEmpty)
        #expect(symbolic.compiled?.duration == Time(Int64.max))
        #expect(symbolic.rows == [[0.5], [1]])

        for source in ["let a = (wait 2 ; fadeIn x) ^ \(max)\n", "let a = fadeIn x looped \(max) times\n",
                       "let a = fadeIn x repeated \(max) times ; wait 1\n", "let a = (fadeIn x in 2s) ^ \(max)\n"] {
            let outcome = run(SourceFile(name: "pow.anim", text: source))
            #expect(outcome.diagnostics.map(\.id) == ["overflow"], "\(source)")
            #expect(outcome.diagnostics.first?.range.start == 8)
        }
        let tooBig = run(SourceFile(name: "pow.anim", text: "let a = fadeIn x ^ 99999999999999999999\n"))
        #expect(tooBig.diagnostics.map(\.message) == ["count 1e+20 is too large"])
    }

    @Test func durationsTooSmallForExactTime() {
        let outcome = run(SourceFile(name: "tiny.anim", text: "let a = wait 1e-300\nlet b = wait 1e-18 ; fadeIn v\n"))
        #expect(outcome.diagnostics.map(\.message) == ["duration 1e-300s is too small to represent exactly"])
        let fine = Self.endToEnd("let b = wait 1e-18 ; fadeIn v\n", at: [Time(1)])
        #expect(fine.outcome.diagnostics.isEmpty)
        #expect(fine.compiled?.duration == Time(decimal: "1.000000000000000001"))
    }

    /// `(1/3)s` within `in (1/7)s` within `in (1/11)s` …: exact fractions grow until
    /// they overflow, which is a located error, or they fit, and it samples.
    @Test(arguments: [2, 5, 20, 100, 250])
    func fractionsNestedInRetimes(depth: Int) {
        let primes = [3, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97]
        var expr = "fadeIn v"
        for level in 0..<depth {
            let p = primes[level % primes.count], q = primes[(level + 5) % primes.count]
            expr = "((\(expr) ; wait (1/\(p))s) in (1/\(q))s)"
        }
        let result = Self.endToEnd("let a = \(expr)\n", at: [.zero, Time(numerator: 1, denominator: 1000) ?? .zero])
        if result.outcome.hasErrors {
            #expect(Set(result.outcome.diagnostics.map(\.id)).isSubset(of: ["overflow", "nesting-too-deep"]))
        } else {
            #expect(result.compileError == nil || result.compileError.map { if case .overflow = $0 { true } else { false } } == true)
        }
    }

    @Test func twoHundredRetimesToAThird() {
        let nestedIn = (0..<200).reduce("fadeIn v") { inner, _ in "(\(inner) in (1/3)s)" }
        let thirds = Self.endToEnd("let a = \(nestedIn)\n", at: [Time(numerator: 1, denominator: 6) ?? .zero])
        #expect(thirds.outcome.diagnostics.isEmpty)
        #expect(thirds.rows == [[0.5]])
    }

    @Test func endsTooFarApartStillInterpolate() throws {
        let result = Self.endToEnd("let a = animate v.x from -1e308 to 1e308\n", at: [.zero, Self.time("0.5"), Time(1)])
        #expect(result.rows == [[-1e308], [0], [1e308]])
        // An easing composed to overshoot past 1.8e308 gives NaN, which JSON writes as null.
        var bytes: [UInt8] = []
        TableWriter(format: .json, columns: [Property(view: "v", name: "x")]).writeRow(time: .zero, values: [.number(.nan)], into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "{\"time\":0,\"v.x\":null}\n")
    }

    @Test func samplingErrorsAreLocated() throws {
        // What `evaluateToText` (and `animc eval`) print when compile() throws:
        // located at the binding, with a hint.
        let file = SourceFile(name: "big.anim", text: "let x = fadeIn v\nlet big = x ^ 5000\n")
        let binding = try #require(parse(file).program.bindings.last)
        let diagnostic = samplingError(.invalidSampling("the animation has more than 4000000 segments"), binding: binding)
        #expect(render(diagnostic, in: file).hasPrefix("""
            big.anim:2:5: error: cannot sample `big`: the animation has more than 4000000 segments
              2 | let big = x ^ 5000
                |     ^~~
            """))
        #expect(diagnostic.hint != nil)
    }
}
