import Testing
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// A table of at least ``RowWriter`` `parallelCells` cells, wide or long, is
/// written on two threads, a chunk of rows each: its bytes must be those of the table
/// built one row at a time through the public pieces (``RowSampler`` and
/// ``TableWriter``), in every format, events included, for frame times and
/// for explicit times, whatever the number of rows (a part of a chunk, an
/// odd number of chunks, many).
struct WideTableTests {
    /// `columns` views, each with one tween whose length and values depend
    /// on the view, staggered so rows differ; events every so often.
    static func script(columns: Int) -> String {
        var text = ""
        for index in 0..<columns { text += "view v\(index)\n" }
        let parts = (0..<columns).map { index in
            "(wait \(index % 7)00ms ; animate v\(index).x from \(index) to \(index * 3 + 1) in \(1 + index % 5)00ms with ease-in-out"
                + (index % 50 == 0 ? " ; emit e\(index % 3))" : ")")
        }
        text += "let final = " + parts.joined(separator: "\n  || ") + "\n"
        return text
    }

    /// The table one row at a time: header, then each row sampled alone.
    static func rowByRow(_ scene: CompiledScene, _ times: [Time], format: TableFormat, latest: Time) -> [UInt8] {
        let sampler = scene.sampler()
        let magnitudes = format == .table ? sampler.columns.map { scene.magnitude(of: $0) } : []
        let writer = TableWriter(format: format, columns: sampler.columns, latest: latest, hasEvents: scene.hasEvents,
                                 magnitudes: magnitudes)
        var out: [UInt8] = []
        writer.writeHeader(into: &out)
        var previous: Instant?
        var row: [Value] = []
        for t in times {
            sampler.sample(at: t, into: &row)
            let now = Instant(t)
            writer.writeRow(time: t, values: row, events: scene.hasEvents ? scene.events(after: previous, through: now) : [],
                            into: &out)
            previous = now
        }
        return out
    }

    @Test(arguments: [(200, 10), (200, 400), (64, 1000), (70, 7)])
    func wideTableIsWrittenAsRowByRow(columns: Int, fps: Int64) throws {
        let file = SourceFile(name: "wide.anim", text: Self.script(columns: columns))
        let outcome = run(file)
        #expect(!outcome.hasErrors, "\(render(outcome.diagnostics, in: file))")
        let scene = try #require(try outcome.compiledScene())
        #expect(scene.properties.count == columns && scene.hasEvents)
        let frames = FrameTimes(duration: scene.duration, fps: fps)
        let explicit = [Time(3), Time(numerator: 1, denominator: 3)!, .zero, Time(numerator: 7, denominator: 20)!]
        for format in TableFormat.allCases {
            var written: [UInt8] = []
            tabulate(scene, initial: [:], at: frames, format: format) { chunk in
                written += chunk
                chunk.removeAll(keepingCapacity: true)
            }
            let expected = Self.rowByRow(scene, Array(frames), format: format, latest: scene.duration)
            #expect(written == expected, "\(format), \(columns) columns at \(fps) fps")
            var atTimes: [UInt8] = []
            tabulate(scene, initial: [:], at: explicit, format: format) { chunk in
                atTimes += chunk
                chunk.removeAll(keepingCapacity: true)
            }
            #expect(atTimes == Self.rowByRow(scene, explicit, format: format, latest: Time(3)), "\(format), explicit times")
        }
    }

    /// A chain of `tweens` tweens on each of `columns` properties, of
    /// lengths that do not divide the frame period (so rows fall inside
    /// segments, not only on their ends), with an event now and then.
    static func longScript(columns: Int, tweens: Int) -> String {
        var text = ""
        for index in 0..<columns { text += "view v\(index)\n" }
        let chains = (0..<columns).map { column in
            (0..<tweens).map { index in
                "animate v\(column).x from \(index % 9) to \(index % 5 + column) in \(30 + (index * 7 + column) % 90)ms"
                    + (index % 3 == 0 ? " with ease-in-out" : "") + (index % 400 == 0 ? " ; emit e\(index % 3)" : "")
            }.joined(separator: " ; ")
        }
        text += "let final = (" + chains.joined(separator: ") || (") + ")\n"
        return text
    }

    /// Long tables of few columns: split in two halves (or chunks) on two
    /// threads from `parallelCells` cells, on one below; the bytes are those
    /// of the table written row by row either way, in every format (three
    /// columns at 400 fps: several rounds of two chunks, and a tail). The
    /// time column of frame rows is written from ``FrameDecimals``, which
    /// must give the bytes of the time itself: at frame rates whose frames
    /// are short decimals (8, 10, 100, 250, 400 fps) and not (60 fps).
    @Test(arguments: [(1, 2_000, 60), (1, 300, 10), (2, 1_000, 100), (3, 1_000, 400), (2, 500, 8), (1, 400, 250)])
    func longTableIsWrittenAsRowByRow(columns: Int, tweens: Int, fps: Int64) throws {
        let file = SourceFile(name: "long.anim", text: Self.longScript(columns: columns, tweens: tweens))
        let outcome = run(file)
        #expect(!outcome.hasErrors, "\(render(outcome.diagnostics, in: file))")
        let scene = try #require(try outcome.compiledScene())
        #expect(scene.properties.count == columns && scene.hasEvents)
        let frames = FrameTimes(duration: scene.duration, fps: fps)
        let all = Array(frames)
        // Explicit times out of order and repeated, past the end too.
        let explicit: [Time] = Array(all.reversed()) + Array(all.prefix(5_000)) + [Time(1_000_000)]
        for format in TableFormat.allCases {
            var written: [UInt8] = []
            tabulate(scene, initial: [:], at: frames, format: format) { chunk in
                written += chunk
                chunk.removeAll(keepingCapacity: true)
            }
            #expect(written == Self.rowByRow(scene, all, format: format, latest: scene.duration),
                    "\(format), \(columns) columns, \(all.count) rows")
            var atTimes: [UInt8] = []
            tabulate(scene, initial: [:], at: explicit, format: format) { chunk in
                atTimes += chunk
                chunk.removeAll(keepingCapacity: true)
            }
            #expect(atTimes == Self.rowByRow(scene, explicit, format: format, latest: Time(1_000_000)),
                    "\(format), \(explicit.count) explicit times")
        }
    }

    /// The frame times ``FrameDecimals`` gives without a gcd are `k / fps`
    /// in lowest terms, at every frame rate it takes and far out.
    @Test func frameTimesFromResiduesAreTheReducedFractions() throws {
        for fps: Int64 in [2, 3, 6, 8, 10, 12, 24, 25, 30, 48, 60, 97, 100, 120, 240, 250, 360, 400, 997, 1_000] {
            let decimals = try #require(FrameDecimals(fps: fps, rows: 10 * Int(fps)))
            let far: [Int64] = [Int64.max / 3, Int64.max - 1, Int64.max]
            for frame in Array(0..<(3 * fps + 1)) + [12_345_678, 999_999_999_999] + far {
                let time = decimals.time(ofFrame: frame)
                let expected = try #require(Time(numerator: frame, denominator: fps))
                #expect((time.numerator, time.denominator) == (expected.numerator, expected.denominator), "\(frame) / \(fps)")
            }
        }
    }
}
