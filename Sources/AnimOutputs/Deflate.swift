/// Bits packed least significant first, as deflate (RFC 1951) and GIF's LZW
/// both pack them.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingCount = 0

    /// Appends the low `count` bits of `value` (`count` at most 32).
    mutating func write(_ value: Int, bits count: Int) {
        pending |= (UInt64(truncatingIfNeeded: value) & ((1 << UInt64(count)) &- 1)) << UInt64(pendingCount)
        pendingCount += count
        while pendingCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingCount -= 8
        }
    }

    /// Pads the last byte with zero bits.
    mutating func alignToByte() {
        if pendingCount > 0 { write(0, bits: 8 - pendingCount) }
    }

    /// The whole bytes written so far, handed over (a partial byte stays).
    mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}

/// Deflate (RFC 1951) inside a zlib stream (RFC 1950), as PNG stores its
/// pixels: LZ77 matches found along hash chains over a 32 KB window, then
/// each block written as whichever of stored, fixed Huffman or dynamic
/// Huffman codes is shortest for it.
public enum Deflate {
    /// The zlib stream of `data`: header, deflate blocks, Adler-32.
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        var bits = BitWriter()
        bits.write(0x78, bits: 8)
        bits.write(0x9C, bits: 8)
        compress(data, into: &bits)
        bits.alignToByte()
        let adler = Checksums.adler32(data)
        for shift in stride(from: 24, through: 0, by: -8) { bits.write(Int(adler >> UInt32(shift) & 0xFF), bits: 8) }
        return bits.bytes
    }

    /// A match is `1 << 31 | length << 16 | distance`; a literal is its byte.
    private static let matchFlag: UInt32 = 1 << 31
    private static let windowSize = 32768
    private static let hashBits = 15
    private static let maxChain = 96
    private static let maxMatch = 258
    private static let blockTokens = 1 << 15

    /// Deflate blocks of `data`, the last one marked final.
    static func compress(_ data: [UInt8], into bits: inout BitWriter) {
        var head = [Int32](repeating: -1, count: 1 << hashBits)
        var previous = [Int32](repeating: -1, count: windowSize)
        var tokens: [UInt32] = []
        tokens.reserveCapacity(blockTokens)
        var position = 0
        repeat {
            let blockStart = position
            tokens.removeAll(keepingCapacity: true)
            while position < data.count, tokens.count < blockTokens {
                let (length, distance) = longestMatch(data, at: position, head: head, previous: previous)
                let step = length >= 3 ? length : 1
                tokens.append(length >= 3 ? matchFlag | UInt32(length) << 16 | UInt32(distance) : UInt32(data[position]))
                for inserted in position..<(position + step) where inserted + 3 <= data.count {
                    let key = hash(data, inserted)
                    previous[inserted & (windowSize - 1)] = head[key]
                    head[key] = Int32(inserted)
                }
                position += step
            }
            writeBlock(tokens, raw: data[blockStart..<position], final: position >= data.count, into: &bits)
        } while position < data.count
    }

    private static func hash(_ data: [UInt8], _ index: Int) -> Int {
        let key = UInt32(data[index]) << 16 | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2])
        return Int((key &* 2_654_435_761) >> UInt32(32 - hashBits))
    }

    /// The longest earlier occurrence (within the window) of the bytes at
    /// `position`: its length (0 when under 3) and distance back.
    private static func longestMatch(_ data: [UInt8], at position: Int, head: [Int32], previous: [Int32]) -> (Int, Int) {
        guard position + 3 <= data.count else { return (0, 0) }
        let limit = min(maxMatch, data.count - position)
        var best = 0
        var bestDistance = 0
        var candidate = Int(head[hash(data, position)])
        var chain = maxChain
        data.withUnsafeBufferPointer { bytes in
            while candidate >= 0, position - candidate <= windowSize, chain > 0 {
                if bytes[candidate + best] == bytes[position + best] {
                    var length = 0
                    while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
                    if length > best {
                        best = length
                        bestDistance = position - candidate
                        if length == limit { break }
                    }
                }
                candidate = Int(previous[candidate & (windowSize - 1)])
                chain -= 1
            }
        }
        return best >= 3 ? (best, bestDistance) : (0, 0)
    }

    // MARK: Blocks

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order code-length code lengths are written in (RFC 1951 §3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Index into `lengthBase` of each match length 0...258 (only 3... used).
    private static let lengthCode: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 259)
        for code in 0..<29 {
            for length in lengthBase[code]..<min(259, lengthBase[code] + (1 << lengthExtra[code])) { table[length] = UInt8(code) }
        }
        table[258] = 28
        return table
    }()

    /// Index into `distanceBase` of distance `d`: at `d - 1` up to 256, at
    /// `256 + (d - 1) >> 7` beyond.
    private static let distanceCodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        for code in 0..<30 {
            for distance in distanceBase[code]..<(distanceBase[code] + (1 << distanceExtra[code])) {
                table[distance <= 256 ? distance - 1 : 256 + ((distance - 1) >> 7)] = UInt8(code)
            }
        }
        return table
    }()

    private static func distanceCode(_ distance: Int) -> Int {
        Int(distanceCodeTable[distance <= 256 ? distance - 1 : 256 + ((distance - 1) >> 7)])
    }

    static let fixedLiteralLengths: [Int] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let fixedDistanceLengths = [Int](repeating: 5, count: 30)

    private static func writeBlock(_ tokens: [UInt32], raw: ArraySlice<UInt8>, final: Bool, into bits: inout BitWriter) {
        var literalCounts = [Int](repeating: 0, count: 286)
        var distanceCounts = [Int](repeating: 0, count: 30)
        var extraBits = 0
        for token in tokens {
            if token & matchFlag == 0 {
                literalCounts[Int(token)] += 1
            } else {
                let lengthIndex = Int(lengthCode[Int(token >> 16 & 0x1FF)])
                let distanceIndex = distanceCode(Int(token & 0xFFFF))
                literalCounts[257 + lengthIndex] += 1
                distanceCounts[distanceIndex] += 1
                extraBits += lengthExtra[lengthIndex] + distanceExtra[distanceIndex]
            }
        }
        literalCounts[256] = 1
        let dynamic = DynamicHeader(literalCounts: literalCounts, distanceCounts: distanceCounts)
        func cost(_ literal: [Int], _ distance: [Int]) -> Int {
            zip(literalCounts, literal).reduce(0) { $0 + $1.0 * $1.1 } + zip(distanceCounts, distance).reduce(0) { $0 + $1.0 * $1.1 } + extraBits
        }
        let fixedCost = 3 + cost(fixedLiteralLengths, fixedDistanceLengths)
        let dynamicCost = 3 + dynamic.headerBits + cost(dynamic.literalLengths, dynamic.distanceLengths)
        let storedCost = (raw.count / 65535 + 1) * 40 + raw.count * 8 + 7
        let finalBit = final ? 1 : 0
        if storedCost <= min(fixedCost, dynamicCost) {
            var start = raw.startIndex
            repeat {
                let end = min(raw.endIndex, start + 65535)
                bits.write(end == raw.endIndex ? finalBit : 0, bits: 1)
                bits.write(0, bits: 2)
                bits.alignToByte()
                let count = end - start
                bits.write(count, bits: 16)
                bits.write(~count & 0xFFFF, bits: 16)
                for byte in raw[start..<end] { bits.write(Int(byte), bits: 8) }
                start = end
            } while start < raw.endIndex
            return
        }
        bits.write(finalBit, bits: 1)
        let literalLengths: [Int]
        let distanceLengths: [Int]
        if fixedCost <= dynamicCost {
            bits.write(1, bits: 2)
            literalLengths = fixedLiteralLengths
            distanceLengths = fixedDistanceLengths
        } else {
            bits.write(2, bits: 2)
            dynamic.write(into: &bits)
            literalLengths = dynamic.literalLengths
            distanceLengths = dynamic.distanceLengths
        }
        let literalCodes = Huffman.canonicalCodes(literalLengths)
        let distanceCodes = Huffman.canonicalCodes(distanceLengths)
        for token in tokens {
            if token & matchFlag == 0 {
                bits.write(literalCodes[Int(token)], bits: literalLengths[Int(token)])
                continue
            }
            let length = Int(token >> 16 & 0x1FF)
            let distance = Int(token & 0xFFFF)
            let lengthIndex = Int(lengthCode[length])
            bits.write(literalCodes[257 + lengthIndex], bits: literalLengths[257 + lengthIndex])
            bits.write(length - lengthBase[lengthIndex], bits: lengthExtra[lengthIndex])
            let distanceIndex = distanceCode(distance)
            bits.write(distanceCodes[distanceIndex], bits: distanceLengths[distanceIndex])
            bits.write(distance - distanceBase[distanceIndex], bits: distanceExtra[distanceIndex])
        }
        bits.write(literalCodes[256], bits: literalLengths[256])
    }
}

/// The code lengths of a dynamic Huffman block and how they are written.
private struct DynamicHeader {
    var literalLengths: [Int]
    var distanceLengths: [Int]
    /// The lengths of both alphabets run-length coded: (symbol 0...18, extra value).
    var runs: [(Int, Int)] = []
    var codeLengthLengths: [Int]
    var headerBits: Int

    init(literalCounts: [Int], distanceCounts: [Int]) {
        // Two used distance codes at least: a complete code every inflater takes.
        var distanceCounts = distanceCounts
        for index in 0..<2 where distanceCounts.filter({ $0 > 0 }).count < 2 && distanceCounts[index] == 0 { distanceCounts[index] = 1 }
        var literalCounts = literalCounts
        if literalCounts.filter({ $0 > 0 }).count < 2 { literalCounts[0] = max(literalCounts[0], 1) }
        literalLengths = Huffman.lengths(literalCounts, limit: 15)
        distanceLengths = Huffman.lengths(distanceCounts, limit: 15)
        let literalUsed = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let distanceUsed = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        let all = Array(literalLengths[0..<literalUsed]) + Array(distanceLengths[0..<distanceUsed])
        var runs: [(Int, Int)] = []
        var index = 0
        while index < all.count {
            let value = all[index]
            var run = 1
            while index + run < all.count, all[index + run] == value { run += 1 }
            index += run
            if value == 0 {
                while run >= 11 { let taken = min(run, 138); runs.append((18, taken - 11)); run -= taken }
                if run >= 3 { runs.append((17, run - 3)); run = 0 }
            } else {
                runs.append((value, 0))
                run -= 1
                while run >= 3 { let taken = min(run, 6); runs.append((16, taken - 3)); run -= taken }
            }
            runs.append(contentsOf: repeatElement((value, 0), count: run))
        }
        var counts = [Int](repeating: 0, count: 19)
        for (symbol, _) in runs { counts[symbol] += 1 }
        let codeLengthLengths = Huffman.lengths(counts, limit: 7)
        let written = max(4, (Deflate.codeLengthOrder.lastIndex { codeLengthLengths[$0] > 0 } ?? 0) + 1)
        var bits = 14 + 3 * written
        for (symbol, _) in runs { bits += codeLengthLengths[symbol] + [16: 2, 17: 3, 18: 7][symbol, default: 0] }
        self.codeLengthLengths = codeLengthLengths
        self.runs = runs
        headerBits = bits
        literalLengths = Array(literalLengths[0..<literalUsed])
        distanceLengths = Array(distanceLengths[0..<distanceUsed])
    }

    func write(into bits: inout BitWriter) {
        let written = max(4, (Deflate.codeLengthOrder.lastIndex { codeLengthLengths[$0] > 0 } ?? 0) + 1)
        bits.write(literalLengths.count - 257, bits: 5)
        bits.write(distanceLengths.count - 1, bits: 5)
        bits.write(written - 4, bits: 4)
        for symbol in Deflate.codeLengthOrder[0..<written] { bits.write(codeLengthLengths[symbol], bits: 3) }
        let codes = Huffman.canonicalCodes(codeLengthLengths)
        for (symbol, extra) in runs {
            bits.write(codes[symbol], bits: codeLengthLengths[symbol])
            switch symbol {
            case 16: bits.write(extra, bits: 2)
            case 17: bits.write(extra, bits: 3)
            case 18: bits.write(extra, bits: 7)
            default: break
            }
        }
    }
}

/// Huffman code lengths and canonical codes, as deflate defines them.
enum Huffman {
    /// Code lengths for symbols of these counts, none longer than `limit`
    /// (0 for an unused symbol). Over the limit, the counts are halved (a
    /// used symbol keeps at least 1) until the tree fits: all counts equal
    /// give a balanced tree, which fits any alphabet deflate has.
    static func lengths(_ counts: [Int], limit: Int) -> [Int] {
        var weights = counts
        while true {
            let lengths = unlimitedLengths(weights)
            if (lengths.max() ?? 0) <= limit { return lengths }
            weights = weights.map { $0 == 0 ? 0 : max(1, $0 >> 1) }
        }
    }

    /// Huffman's construction by two queues over the leaves in increasing weight.
    private static func unlimitedLengths(_ counts: [Int]) -> [Int] {
        let leaves = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $0) < (counts[$1], $1) }
        var lengths = [Int](repeating: 0, count: counts.count)
        if leaves.count == 1 { lengths[leaves[0]] = 1 }
        guard leaves.count > 1 else { return lengths }
        // Nodes 0..<leaves.count are the leaves; internal nodes follow in the order made.
        var weight = leaves.map { counts[$0] }
        var parent = [Int](repeating: -1, count: 2 * leaves.count - 1)
        var nextLeaf = 0
        var nextInternal = leaves.count
        func takeLightest() -> Int {
            if nextLeaf < leaves.count, nextInternal >= weight.count || weight[nextLeaf] <= weight[nextInternal] {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextInternal += 1
            return nextInternal - 1
        }
        for _ in 0..<(leaves.count - 1) {
            let first = takeLightest()
            let second = takeLightest()
            parent[first] = weight.count
            parent[second] = weight.count
            weight.append(weight[first] + weight[second])
        }
        var depth = [Int](repeating: 0, count: weight.count)
        for node in stride(from: weight.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
        for (node, symbol) in leaves.enumerated() { lengths[symbol] = depth[node] }
        return lengths
    }

    /// The canonical codes of these lengths, bit-reversed to be written
    /// least significant bit first.
    static func canonicalCodes(_ lengths: [Int]) -> [Int] {
        let longest = lengths.max() ?? 0
        var lengthCounts = [Int](repeating: 0, count: longest + 1)
        for length in lengths where length > 0 { lengthCounts[length] += 1 }
        var next = [Int](repeating: 0, count: longest + 2)
        var code = 0
        if longest >= 1 {
            for bits in 1...longest {
                code = (code + lengthCounts[bits - 1]) << 1
                next[bits] = code
            }
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[length]
            next[length] += 1
            var reversed = 0
            for bit in 0..<length where value >> bit & 1 == 1 { reversed |= 1 << (length - 1 - bit) }
            return reversed
        }
    }
}
