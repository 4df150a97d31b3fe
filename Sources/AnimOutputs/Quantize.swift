/// The colours of a GIF frame: at most 256, one of them kept for
/// transparency when asked. A frame with few enough colours keeps them
/// exactly; one with more gets a palette by median cut (Heckbert): the
/// colour box with the widest channel is split at its pixel-weighted
/// median until there are enough boxes, and each box's colours become
/// their weighted mean.
struct Quantized {
    /// `0xRRGGBB` per palette index.
    var palette: [UInt32]
    /// One palette index per pixel of the region, rows top to bottom.
    var indices: [UInt8]
    /// The index of pixels with alpha under 128, when transparency was asked.
    var transparentIndex: Int?

    /// The key of a transparent pixel: no `0xRRGGBB` is this.
    private static let transparentKey: UInt32 = 0xFF00_0000

    /// Quantizes the `width × height` region at (`left`, `top`) of `image`.
    /// Without `transparent`, alpha is ignored (the picture is opaque).
    init(_ image: RGBAImage, left: Int, top: Int, width: Int, height: Int, transparent: Bool) {
        var keys: [UInt32] = []
        keys.reserveCapacity(width * height)
        image.bytes.withUnsafeBufferPointer { bytes in
            for row in top..<(top + height) {
                var offset = (row * image.width + left) * 4
                for _ in 0..<width {
                    if transparent, bytes[offset + 3] < 128 {
                        keys.append(Self.transparentKey)
                    } else {
                        keys.append(UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]))
                    }
                    offset += 4
                }
            }
        }
        var table = ColorTable()
        var previousKey = UInt32.max
        var previousSlot = 0
        for key in keys {
            if key != previousKey {
                previousSlot = table.slot(key)
                previousKey = key
            }
            table.counts[previousSlot] += 1
        }
        var colours: [(key: UInt32, count: Int)] = []
        var sawTransparent = false
        for slot in table.keys.indices where table.keys[slot] != ColorTable.empty {
            if table.keys[slot] == Self.transparentKey { sawTransparent = true } else { colours.append((table.keys[slot], table.counts[slot])) }
        }
        // A fixed order (by colour) keeps a frame's palette independent of hashing.
        colours.sort { $0.key < $1.key }
        let room = sawTransparent ? 255 : 256
        var palette: [UInt32] = []
        if colours.count <= room {
            for (index, colour) in colours.enumerated() {
                palette.append(colour.key)
                table.counts[table.slot(colour.key)] = index
            }
        } else {
            for (index, box) in Self.medianCut(&colours, boxes: room).enumerated() {
                var sums = (0, 0, 0, 0)
                for colour in colours[box] {
                    sums.0 += Int(colour.key >> 16) * colour.count
                    sums.1 += Int(colour.key >> 8 & 0xFF) * colour.count
                    sums.2 += Int(colour.key & 0xFF) * colour.count
                    sums.3 += colour.count
                    table.counts[table.slot(colour.key)] = index
                }
                let half = sums.3 / 2
                palette.append(UInt32((sums.0 + half) / sums.3) << 16 | UInt32((sums.1 + half) / sums.3) << 8 | UInt32((sums.2 + half) / sums.3))
            }
        }
        if sawTransparent {
            transparentIndex = palette.count
            table.counts[table.slot(Self.transparentKey)] = palette.count
            palette.append(0)
        } else {
            transparentIndex = nil
        }
        self.palette = palette
        var indices = [UInt8](repeating: 0, count: keys.count)
        previousKey = UInt32.max
        var previousIndex: UInt8 = 0
        for (position, key) in keys.enumerated() {
            if key != previousKey {
                previousIndex = UInt8(truncatingIfNeeded: table.counts[table.slot(key)])
                previousKey = key
            }
            indices[position] = previousIndex
        }
        self.indices = indices
    }

    /// Splits `colours` (reordered in place) into at most `boxes` ranges.
    private static func medianCut(_ colours: inout [(key: UInt32, count: Int)], boxes: Int) -> [Range<Int>] {
        var ranges = [0..<colours.count]
        func channel(_ key: UInt32, _ shift: UInt32) -> Int { Int(key >> shift & 0xFF) }
        func widest(_ range: Range<Int>) -> (shift: UInt32, spread: Int) {
            var best: (UInt32, Int) = (16, -1)
            for shift: UInt32 in [16, 8, 0] {
                var low = 255
                var high = 0
                for colour in colours[range] {
                    low = min(low, channel(colour.key, shift))
                    high = max(high, channel(colour.key, shift))
                }
                if high - low > best.1 { best = (shift, high - low) }
            }
            return best
        }
        var spreads = [widest(ranges[0])]
        while ranges.count < boxes {
            var chosen = -1
            for index in ranges.indices where ranges[index].count > 1 && spreads[index].spread > (chosen < 0 ? 0 : spreads[chosen].spread) {
                chosen = index
            }
            guard chosen >= 0 else { break }
            let range = ranges[chosen]
            let shift = spreads[chosen].shift
            colours[range].sort { channel($0.key, shift) < channel($1.key, shift) }
            let total = colours[range].reduce(0) { $0 + $1.count }
            var running = 0
            var split = range.lowerBound + 1
            for index in range {
                running += colours[index].count
                if running * 2 >= total {
                    split = index + 1
                    break
                }
            }
            split = min(max(split, range.lowerBound + 1), range.upperBound - 1)
            ranges[chosen] = range.lowerBound..<split
            ranges.append(split..<range.upperBound)
            spreads[chosen] = widest(ranges[chosen])
            spreads.append(widest(ranges[ranges.count - 1]))
        }
        return ranges
    }
}

/// An open-addressing table from colour keys to a count or an index,
/// grown at half full; much faster per pixel than a `Dictionary`.
struct ColorTable {
    static let empty = UInt32.max - 1
    private(set) var keys = [UInt32](repeating: ColorTable.empty, count: 1024)
    var counts = [Int](repeating: 0, count: 1024)
    private var used = 0

    /// The slot of `key`, inserted (with count 0) if absent.
    mutating func slot(_ key: UInt32) -> Int {
        var mask = keys.count - 1
        var index = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while keys[index] != key {
            if keys[index] == Self.empty {
                if (used + 1) * 2 > keys.count {
                    grow()
                    mask = keys.count - 1
                    index = Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
                    continue
                }
                keys[index] = key
                used += 1
                return index
            }
            index = (index + 1) & mask
        }
        return index
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldCounts = counts
        keys = [UInt32](repeating: Self.empty, count: oldKeys.count * 2)
        counts = [Int](repeating: 0, count: oldKeys.count * 2)
        used = 0
        for (index, key) in oldKeys.enumerated() where key != Self.empty { counts[slot(key)] = oldCounts[index] }
    }
}
