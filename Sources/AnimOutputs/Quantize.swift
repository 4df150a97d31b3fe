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
        // The region read once, as runs of one colour (a frame holds few: fills and background, edges between).
        var runs: [(key: UInt32, count: UInt32)] = []
        Self.runs(image, left: left, top: top, width: width, height: height, transparent: transparent) { key, count in
            // A run is at most the region, at most 8192 × 8192 pixels.
            runs.append((key, UInt32(truncatingIfNeeded: count)))
        }
        var table = ColorTable()
        for run in runs { table.counts[table.slot(run.key)] += Int(run.count) }
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
        var indices = [UInt8](repeating: 0, count: width * height)
        indices.withUnsafeMutableBufferPointer { indices in
            var position = 0
            for run in runs {
                let index = UInt8(truncatingIfNeeded: table.counts[table.slot(run.key)])
                let end = position + Int(run.count)
                for offset in position..<end { indices[offset] = index }
                position = end
            }
        }
        self.indices = indices
    }

    /// Calls `body` with each run of pixels of one key in the region (rows
    /// top to bottom, a run going on from one row to the next) and its
    /// length.
    private static func runs(_ image: RGBAImage, left: Int, top: Int, width: Int, height: Int, transparent: Bool,
                             _ body: (_ key: UInt32, _ count: Int) -> Void) {
        guard width > 0, height > 0 else { return }
        image.bytes.withUnsafeBytes { bytes in
            // A run goes on while the pixel's four bytes are the same; its key is made once.
            var runPixel = bytes.loadUnaligned(fromByteOffset: (top * image.width + left) * 4, as: UInt32.self)
            var runKey = Self.key(bytes, (top * image.width + left) * 4, transparent: transparent)
            var count = 0
            for row in top..<(top + height) {
                var offset = (row * image.width + left) * 4
                for _ in 0..<width {
                    let pixel = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    if pixel == runPixel {
                        count += 1
                    } else {
                        let key = Self.key(bytes, offset, transparent: transparent)
                        if key != runKey {
                            body(runKey, count)
                            runKey = key
                            count = 0
                        }
                        runPixel = pixel
                        count += 1
                    }
                    offset += 4
                }
            }
            body(runKey, count)
        }
    }

    /// The key of the pixel at byte `offset`.
    private static func key(_ bytes: UnsafeRawBufferPointer, _ offset: Int, transparent: Bool) -> UInt32 {
        if transparent, bytes[offset + 3] < 128 { return transparentKey }
        return UInt32(bytes[offset]) << 16 | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2])
    }

    /// Splits `colours` (reordered in place) into at most `boxes` ranges.
    private static func medianCut(_ colours: inout [(key: UInt32, count: Int)], boxes: Int) -> [Range<Int>] {
        func channel(_ key: UInt32, _ shift: UInt32) -> Int { Int(key >> shift & 0xFF) }
        return colours.withUnsafeMutableBufferPointer { colours in
            // Each box: its colours, and its widest channel (the first of red, green and blue) and that spread.
            func box(_ range: Range<Int>) -> (range: Range<Int>, shift: UInt32, spread: Int) {
                var low = (255, 255, 255), high = (0, 0, 0)
                for colour in colours[range] {
                    let red = channel(colour.key, 16), green = channel(colour.key, 8), blue = channel(colour.key, 0)
                    low = (min(low.0, red), min(low.1, green), min(low.2, blue))
                    high = (max(high.0, red), max(high.1, green), max(high.2, blue))
                }
                var widest: (UInt32, Int) = (16, high.0 - low.0)
                if high.1 - low.1 > widest.1 { widest = (8, high.1 - low.1) }
                if high.2 - low.2 > widest.1 { widest = (0, high.2 - low.2) }
                return (range, widest.0, widest.1)
            }
            var cut = [box(0..<colours.count)]
            // Per box, the spread by which the next box to split is chosen (the widest, the first of equals);
            // -1 for a box of one colour.
            func spread(_ box: (range: Range<Int>, shift: UInt32, spread: Int)) -> Int { box.range.count > 1 ? box.spread : -1 }
            var spreads = [spread(cut[0])]
            while cut.count < boxes {
                var chosen = -1, widest = 0
                for (index, spread) in spreads.enumerated() where spread > widest {
                    chosen = index
                    widest = spread
                }
                guard chosen >= 0 else { break }
                let (range, shift, _) = cut[chosen]
                var part = UnsafeMutableBufferPointer(rebasing: colours[range])
                part.sort { channel($0.key, shift) < channel($1.key, shift) }
                var total = 0
                for colour in colours[range] { total += colour.count }
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
                cut[chosen] = box(range.lowerBound..<split)
                cut.append(box(split..<range.upperBound))
                spreads[chosen] = spread(cut[chosen])
                spreads.append(spread(cut[cut.count - 1]))
            }
            return cut.map(\.range)
        }
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
