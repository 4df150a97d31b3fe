import Testing
@testable import Animations

/// ``RowSampler/sample(columnsAt:into:)`` (a block of rows, column by column)
/// gives, cell for cell, what sampling each row alone gives.
struct SamplerTests {
    @Test(arguments: LawTests.seeds)
    func aBlockOfRowsIsTheRowsOneByOne(seed: UInt64) throws {
        var generator = TermGenerator(seed: seed)
        var compared = 0
        for _ in 0..<30 {
            guard let compiled = try? generator.term().scene().compile(), compiled.properties.count > 1 else { continue }
            let sampler = compiled.sampler(initial: [Property(view: "a", name: "x"): .number(7)])
            var times: [Instant] = []
            for step in 0..<7 { times.append(Instant(Time(numerator: Int64(step) * 5, denominator: 4) ?? .zero)) }
            times.append(Instant(compiled.duration))
            var block: [Value] = []
            sampler.sample(columnsAt: times, into: &block)
            #expect(block.count == times.count * sampler.columns.count)
            var row: [Value] = []
            for (offset, t) in times.enumerated() {
                sampler.sample(at: t, into: &row)
                let fromBlock = sampler.columns.indices.map { block[$0 * times.count + offset] }
                #expect(row == fromBlock, "at \(t)")
                compared += 1
            }
        }
        #expect(compared > 0)
    }

    /// A table's cell (``Track/value(at:before:hint:)``: one winner read
    /// directly, the search started from the row before) is what the full
    /// resolution gives, for times in any order (a hint from a later time
    /// is ignored) and with any hint.
    @Test(arguments: LawTests.seeds)
    func aCellIsTheResolutionWhateverTheHint(seed: UInt64) throws {
        var generator = TermGenerator(seed: seed)
        var compared = 0
        for _ in 0..<30 {
            guard let compiled = try? generator.term().scene().compile() else { continue }
            var times: [Instant] = []
            for step in [5, 0, 3, 3, 9, 1, 12, 2, 40, 7] { times.append(Instant(Time(numerator: Int64(step), denominator: 4) ?? .zero)) }
            times.append(Instant(compiled.duration))
            times.append(Instant(approximately: 0.3))
            for property in compiled.properties {
                guard let track = compiled.track(for: property) else { continue }
                let before = Value.number(-1)
                var hint = 0
                for (index, t) in times.enumerated() {
                    var resolution = Resolution()
                    track.resolve(at: t, into: &resolution)
                    let expected = resolution.value(before: before)
                    #expect(track.value(at: t, before: before, hint: &hint) == expected, "\(property) at \(t)")
                    var wild = index * 7 - 3
                    #expect(track.value(at: t, before: before, hint: &wild) == expected, "\(property) at \(t), hint \(index * 7 - 3)")
                    compared += 1
                }
            }
        }
        #expect(compared > 0)
    }
}
