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
}
