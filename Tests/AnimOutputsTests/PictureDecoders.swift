// Small decoders written for the tests, independent of the encoders' code:
// inflate (stored, fixed and dynamic blocks), PNG/APNG chunks with their
// CRCs, GIF with its LZW. They follow the specifications (RFC 1950/1951,
// PNG and APNG, GIF89a), not the encoders, so a wrong encoder fails them.

struct DecodeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads bits least significant first.
struct BitReader {
    let bytes: [UInt8]
    var position = 0  // in bits

    mutating func bits(_ count: Int) throws -> Int {
        var value = 0
        for bit in 0..<count {
            let byte = position >> 3
            guard byte < bytes.count else { throw DecodeError("out of data") }
            value |= Int(bytes[byte] >> UInt8(position & 7) & 1) << bit
            position += 1
        }
        return value
    }
}

/// A canonical Huffman decoder, one bit at a time (slow, plain).
struct HuffmanDecoder {
    var counts: [Int]
    var symbols: [Int]

    init(_ lengths: [Int]) {
        counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var offsets = [Int](repeating: 0, count: 16)
        for length in 2..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    func decode(_ reader: inout BitReader) throws -> Int {
        var code = 0
        var first = 0
        var index = 0
        for length in 1..<16 {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw DecodeError("bad Huffman code")
    }
}

enum Inflate {
    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// What kinds of block the stream had: 0 stored, 1 fixed, 2 dynamic.
    static func zlib(_ bytes: [UInt8]) throws -> (data: [UInt8], blockTypes: [Int]) {
        guard bytes.count >= 6, bytes[0] & 0x0F == 8, (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0 else { throw DecodeError("bad zlib header") }
        var reader = BitReader(bytes: Array(bytes[2...]))
        var out: [UInt8] = []
        var types: [Int] = []
        var final = 0
        repeat {
            final = try reader.bits(1)
            let type = try reader.bits(2)
            types.append(type)
            switch type {
            case 0:
                reader.position = (reader.position + 7) & ~7
                let length = try reader.bits(16)
                let complement = try reader.bits(16)
                guard length == ~complement & 0xFFFF else { throw DecodeError("bad stored length") }
                for _ in 0..<length { out.append(UInt8(try reader.bits(8))) }
            case 1:
                let literal = HuffmanDecoder((0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
                let distance = HuffmanDecoder([Int](repeating: 5, count: 30))
                try codes(&reader, literal, distance, into: &out)
            case 2:
                let literalCount = try reader.bits(5) + 257
                let distanceCount = try reader.bits(5) + 1
                let codeLengthCount = try reader.bits(4) + 4
                let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
                var codeLengths = [Int](repeating: 0, count: 19)
                for index in 0..<codeLengthCount { codeLengths[order[index]] = try reader.bits(3) }
                let codeLengthDecoder = HuffmanDecoder(codeLengths)
                var lengths: [Int] = []
                while lengths.count < literalCount + distanceCount {
                    let symbol = try codeLengthDecoder.decode(&reader)
                    switch symbol {
                    case 0..<16: lengths.append(symbol)
                    case 16:
                        guard let last = lengths.last else { throw DecodeError("repeat with nothing before") }
                        lengths += repeatElement(last, count: 3 + (try reader.bits(2)))
                    case 17: lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
                    default: lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
                    }
                }
                guard lengths.count == literalCount + distanceCount else { throw DecodeError("lengths overrun") }
                try codes(&reader, HuffmanDecoder(Array(lengths[0..<literalCount])), HuffmanDecoder(Array(lengths[literalCount...])), into: &out)
            default:
                throw DecodeError("reserved block type")
            }
        } while final == 0
        let trailerStart = 2 + (reader.position + 7) / 8
        guard trailerStart + 4 == bytes.count else { throw DecodeError("trailer at \(trailerStart) of \(bytes.count)") }
        let stored = bytes[trailerStart..<(trailerStart + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in out {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        guard stored == b << 16 | a else { throw DecodeError("Adler-32 mismatch") }
        return (out, types)
    }

    private static func codes(_ reader: inout BitReader, _ literal: HuffmanDecoder, _ distance: HuffmanDecoder, into out: inout [UInt8]) throws {
        while true {
            let symbol = try literal.decode(&reader)
            if symbol < 256 {
                out.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < 29 else { throw DecodeError("bad length symbol") }
                let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
                let distanceSymbol = try distance.decode(&reader)
                guard distanceSymbol < 30 else { throw DecodeError("bad distance symbol") }
                let back = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
                guard back <= out.count else { throw DecodeError("distance too far") }
                for _ in 0..<length { out.append(out[out.count - back]) }
            }
        }
    }
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

/// A decoded PNG or APNG: its frames as whole RGBA images.
struct DecodedPNG {
    var width = 0
    var height = 0
    var frameCount: Int?
    var plays: Int?
    var frames: [[UInt8]] = []
    /// (numerator, denominator) per frame.
    var delays: [(Int, Int)] = []
    var sequenceNumbers: [Int] = []
    var chunkTypes: [String] = []
    var blockTypes: Set<Int> = []

    init(_ file: [UInt8]) throws {
        guard file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw DecodeError("no PNG signature") }
        var offset = 8
        var pendingData: [UInt8] = []
        func be(_ bytes: ArraySlice<UInt8>) -> Int { bytes.reduce(0) { $0 << 8 | Int($1) } }
        while offset < file.count {
            guard offset + 12 <= file.count else { throw DecodeError("truncated chunk") }
            let length = be(file[offset..<(offset + 4)])
            let type = String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + length <= file.count else { throw DecodeError("truncated \(type)") }
            let data = Array(file[(offset + 8)..<(offset + 8 + length)])
            guard crc32(Array(file[(offset + 4)..<(offset + 8 + length)])) == UInt32(be(file[(offset + 8 + length)..<(offset + 12 + length)])) else {
                throw DecodeError("CRC mismatch in \(type)")
            }
            chunkTypes.append(type)
            offset += 12 + length
            switch type {
            case "IHDR":
                width = be(data[0..<4])
                height = be(data[4..<8])
                guard Array(data[8...]) == [8, 6, 0, 0, 0] else { throw DecodeError("not RGBA8") }
            case "acTL":
                frameCount = be(data[0..<4])
                plays = be(data[4..<8])
            case "fcTL":
                try flush(&pendingData)
                sequenceNumbers.append(be(data[0..<4]))
                guard be(data[4..<8]) == width, be(data[8..<12]) == height, be(data[12..<20]) == 0 else { throw DecodeError("partial frame") }
                delays.append((be(data[20..<22]), be(data[22..<24])))
                guard data[24] == 0, data[25] == 0 else { throw DecodeError("unexpected dispose/blend") }
            case "IDAT":
                pendingData += data
            case "fdAT":
                sequenceNumbers.append(be(data[0..<4]))
                pendingData += data[4...]
            case "IEND":
                try flush(&pendingData)
            default:
                throw DecodeError("unexpected chunk \(type)")
            }
        }
        guard chunkTypes.last == "IEND" else { throw DecodeError("no IEND") }
    }

    private mutating func flush(_ data: inout [UInt8]) throws {
        guard !data.isEmpty else { return }
        let (raw, types) = try Inflate.zlib(data)
        blockTypes.formUnion(types)
        data = []
        let stride = width * 4
        guard raw.count == (stride + 1) * height else { throw DecodeError("wrong data size") }
        var pixels = [UInt8](repeating: 0, count: stride * height)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            for index in 0..<stride {
                let x = raw[row * (stride + 1) + 1 + index]
                let a = index >= 4 ? Int(pixels[row * stride + index - 4]) : 0
                let b = row > 0 ? Int(pixels[(row - 1) * stride + index]) : 0
                let c = row > 0 && index >= 4 ? Int(pixels[(row - 1) * stride + index - 4]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw DecodeError("bad filter \(filter)")
                }
                pixels[row * stride + index] = x &+ UInt8(predictor & 0xFF)
            }
        }
        frames.append(pixels)
    }
}

/// A decoded GIF: the canvas after each frame (RGBA, transparent pixels 0).
struct DecodedGIF {
    var width = 0
    var height = 0
    /// The NETSCAPE2.0 repetition count, `nil` without the extension.
    var repetitions: Int?
    var delays: [Int] = []
    var frames: [[UInt8]] = []
    var regions: [(Int, Int, Int, Int)] = []
    var paletteSizes: [Int] = []

    init(_ file: [UInt8]) throws {
        guard file.starts(with: Array("GIF89a".utf8)), file.count >= 13 else { throw DecodeError("no GIF89a header") }
        func le(_ offset: Int) -> Int { Int(file[offset]) | Int(file[offset + 1]) << 8 }
        width = le(6)
        height = le(8)
        guard file[10] & 0x80 == 0 else { throw DecodeError("unexpected global table") }
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var offset = 13
        var disposal = 0
        var delay = 0
        var transparentIndex: Int?
        func subBlocks() throws -> [UInt8] {
            var data: [UInt8] = []
            while true {
                guard offset < file.count else { throw DecodeError("truncated sub-blocks") }
                let size = Int(file[offset])
                offset += 1
                if size == 0 { return data }
                guard offset + size <= file.count else { throw DecodeError("truncated sub-block") }
                data += file[offset..<(offset + size)]
                offset += size
            }
        }
        while true {
            guard offset < file.count else { throw DecodeError("no trailer") }
            let introducer = file[offset]
            offset += 1
            if introducer == 0x3B { break }
            if introducer == 0x21 {
                let label = file[offset]
                offset += 1
                let data = try subBlocks()
                if label == 0xF9 {
                    disposal = Int(data[0] >> 2 & 7)
                    delay = Int(data[1]) | Int(data[2]) << 8
                    transparentIndex = data[0] & 1 == 1 ? Int(data[3]) : nil
                } else if label == 0xFF {
                    guard data.starts(with: Array("NETSCAPE2.0".utf8)), data.count == 14, data[11] == 1 else { throw DecodeError("bad application extension") }
                    repetitions = Int(data[12]) | Int(data[13]) << 8
                }
                continue
            }
            guard introducer == 0x2C else { throw DecodeError("unexpected byte \(introducer)") }
            let (left, top, w, h) = (le(offset), le(offset + 2), le(offset + 4), le(offset + 6))
            let packed = file[offset + 8]
            offset += 9
            guard packed & 0x80 != 0, packed & 0x40 == 0 else { throw DecodeError("no local table or interlaced") }
            let tableSize = 1 << (Int(packed & 7) + 1)
            let table = Array(file[offset..<(offset + 3 * tableSize)])
            offset += 3 * tableSize
            let minimumCodeSize = Int(file[offset])
            offset += 1
            let indices = try lzwDecode(try subBlocks(), minimumCodeSize: minimumCodeSize)
            guard indices.count == w * h, left + w <= width, top + h <= height else { throw DecodeError("frame size mismatch") }
            for row in 0..<h {
                for column in 0..<w {
                    let index = Int(indices[row * w + column])
                    if index == transparentIndex { continue }
                    guard index < tableSize else { throw DecodeError("index beyond table") }
                    let pixel = ((top + row) * width + left + column) * 4
                    canvas[pixel] = table[3 * index]
                    canvas[pixel + 1] = table[3 * index + 1]
                    canvas[pixel + 2] = table[3 * index + 2]
                    canvas[pixel + 3] = 255
                }
            }
            frames.append(canvas)
            delays.append(delay)
            regions.append((left, top, w, h))
            paletteSizes.append(tableSize)
            if disposal == 2 {
                for row in top..<(top + h) {
                    for column in left..<(left + w) { for channel in 0..<4 { canvas[(row * width + column) * 4 + channel] = 0 } }
                }
            }
        }
    }
}

/// GIF's LZW, decoded as the format describes it (an entry is added per
/// code after the first since a clear; widths grow when the table reaches
/// the next power of two; at most 12 bits).
func lzwDecode(_ data: [UInt8], minimumCodeSize: Int) throws -> [UInt8] {
    var reader = BitReader(bytes: data)
    let clear = 1 << minimumCodeSize
    let end = clear + 1
    var table: [[UInt8]] = (0..<clear).map { [UInt8($0)] } + [[], []]
    var size = minimumCodeSize + 1
    var previous: [UInt8]?
    var out: [UInt8] = []
    while true {
        let code = try reader.bits(size)
        if code == clear {
            table = Array(table[0..<(clear + 2)])
            size = minimumCodeSize + 1
            previous = nil
            continue
        }
        if code == end { return out }
        let entry: [UInt8]
        if code < table.count {
            entry = table[code]
        } else if code == table.count, let previous {
            entry = previous + [previous[0]]
        } else {
            throw DecodeError("code \(code) beyond table \(table.count)")
        }
        out += entry
        if let previous, table.count < 4096 {
            table.append(previous + [entry[0]])
            if table.count == 1 << size, size < 12 { size += 1 }
        }
        previous = entry
    }
}
