extension CompiledScene {
    /// Every instant in `[0, end]` where a segment of `property` starts or
    /// ends, sorted and distinct: the listed segments' ends, and inside each
    /// symbolic repetition every copy's own (so `spin repeated forever` has
    /// one at each turn). `nil` when there are more than `limit` (a billion
    /// copies); a plot then samples them instead of listing them.
    ///
    /// ```swift
    /// compiled.breakpoints(of: Property(view: "wheel", name: "rotation"), through: Instant(Time(3)))
    /// // [0, 1, 2, 3] for a one-second turn repeated forever
    /// ```
    public func breakpoints(of property: Property, through end: Instant, limit: Int = 100_000) -> [Instant]? {
        guard let track = track(for: property) else { return [] }
        var found: [Instant] = []
        let zero = Instant(.zero)
        func add(_ point: Instant) -> Bool {
            guard !(point < zero), !(end < point) else { return true }
            found.append(point)
            return found.count <= limit
        }
        for index in 0..<track.count {
            guard add(track.starts[index]), add(track.ends[index]) else { return nil }
        }
        for reference in track.blocks {
            let block = reference.block
            guard add(block.start) else { return nil }
            if !block.isEndless, !add(block.end) { return nil }
            // One copy's breakpoints in its own time, the copy's ends included.
            guard var copy = block.body.breakpoints(of: property, through: Instant(block.period), limit: limit) else { return nil }
            copy.append(Instant(.zero))
            copy.append(Instant(block.period))
            let copies = block.period.isPositive ? block.count : 1
            var index = 0
            while index < copies {
                let copyStart = block.path.backward(block.shift(Instant(.zero), byCopies: index), upper: false)
                if end < copyStart { break }
                for point in copy {
                    guard add(block.path.backward(block.shift(point, byCopies: index), upper: false)) else { return nil }
                }
                index += 1
            }
        }
        found.sort()
        var distinct: [Instant] = []
        for point in found where distinct.last != point { distinct.append(point) }
        return distinct
    }
}
