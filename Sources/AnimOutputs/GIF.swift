/// Animated GIF (GIF89a). Each frame carries its own palette (exact when it
/// has at most 256 colours, median cut otherwise) and is compressed by LZW.
/// Without transparency, a frame after the first is only the rectangle
/// that changed, drawn over the one before (disposal "none"); with it,
/// every frame is whole and cleared after its time (disposal "background"),
/// so a pixel that turns transparent does not keep the previous colour.
///
/// Delays are in centiseconds: frame `k` (from 0) lasts
/// `⌊100(k+1)/fps⌋ − ⌊100k/fps⌋`, so the delays up to any frame add up to
/// its exact time rounded down (30 fps: 3, 3, 4, 3, 3, 4, …). Hence `fps`
/// goes up to 100, where a frame lasts one centisecond.
public struct GIFEncoder<Sink: ByteSink>: PictureEncoder {
    public private(set) var sink: Sink
    private let width: Int
    private let height: Int
    private let fps: Int
    private let transparent: Bool
    private var frameIndex = 0
    /// The frame before, which a changed rectangle is measured against.
    private var previous: RGBAImage?
    private var finished = false
    private var lzw = LZW()

    /// Writes the header, the screen and the loop extension. `loopCount` is
    /// how many times the animation plays, 0 for forever (the file stores one
    /// less, the number of repetitions; a single play stores no extension).
    /// With `transparent`, pixels with alpha under 128 are transparent and
    /// the others opaque; without, alpha is ignored.
    public init(width: Int, height: Int, fps: Int, loopCount: Int, transparent: Bool, sink: Sink) throws {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw PictureError.size(format: "GIF", width: width, height: height, limit: 65535)
        }
        guard (1...100).contains(fps) else { throw PictureError.frameRate(format: "GIF", fps: fps, limit: 100) }
        guard (0...65536).contains(loopCount) else { throw PictureError.loopCount(format: "GIF", count: loopCount, limit: 65536) }
        self.width = width
        self.height = height
        self.fps = fps
        self.transparent = transparent
        self.sink = sink
        var header = Array("GIF89a".utf8) + Self.littleEndian(width) + Self.littleEndian(height) + [0, 0, 0]
        if loopCount != 1 {
            header += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + Self.littleEndian(max(0, loopCount - 1)) + [0]
        }
        try self.sink.write(header)
    }

    /// The delay of frame `index` in centiseconds.
    static func delay(frame index: Int, fps: Int) -> Int {
        100 * (index + 1) / fps - 100 * index / fps
    }

    public mutating func add(_ frame: RGBAImage) throws {
        try add(frame, changed: nil)
    }

    /// With `changed`, an opaque frame after the first is that rectangle
    /// (one pixel when it is empty), and the encoder keeps no copy of the
    /// frame to compare the next one with.
    public mutating func add(_ frame: RGBAImage, changed: PixelRect) throws {
        try add(frame, changed: Optional(changed))
    }

    private mutating func add(_ frame: RGBAImage, changed: PixelRect?) throws {
        guard !finished else { throw PictureError.finished(format: "GIF") }
        guard frame.width == width, frame.height == height else {
            throw PictureError.frameSize(width: frame.width, height: frame.height, expectedWidth: width, expectedHeight: height)
        }
        var region = (left: 0, top: 0, width: width, height: height)
        if !transparent, frameIndex > 0, let changed {
            let within = changed.intersection(PixelRect(left: 0, top: 0, width: width, height: height))
            region = within.isEmpty ? (0, 0, 1, 1) : (within.left, within.top, within.width, within.height)
        } else if !transparent, let previous {
            region = Self.changedRegion(previous, frame)
        }
        let quantized = Quantized(frame, left: region.left, top: region.top, width: region.width, height: region.height, transparent: transparent)
        var bits = 1
        while 1 << bits < quantized.palette.count { bits += 1 }
        let disposal = transparent ? 2 : 1
        var bytes: [UInt8] = [0x21, 0xF9, 4, UInt8(disposal << 2 | (quantized.transparentIndex == nil ? 0 : 1))]
        bytes += Self.littleEndian(Self.delay(frame: frameIndex, fps: fps))
        bytes += [UInt8(truncatingIfNeeded: quantized.transparentIndex ?? 0), 0]
        bytes += [0x2C] + Self.littleEndian(region.left) + Self.littleEndian(region.top)
        bytes += Self.littleEndian(region.width) + Self.littleEndian(region.height) + [UInt8(0x80 | (bits - 1))]
        for index in 0..<(1 << bits) {
            let colour = index < quantized.palette.count ? quantized.palette[index] : 0
            bytes += [UInt8(truncatingIfNeeded: colour >> 16), UInt8(truncatingIfNeeded: colour >> 8), UInt8(truncatingIfNeeded: colour)]
        }
        let minimumCodeSize = max(2, bits)
        bytes.append(UInt8(minimumCodeSize))
        let data = lzw.encode(quantized.indices, minimumCodeSize: minimumCodeSize)
        var start = 0
        while start < data.count {
            let end = min(data.count, start + 255)
            bytes.append(UInt8(end - start))
            bytes += data[start..<end]
            start = end
        }
        bytes.append(0)
        frameIndex += 1
        previous = transparent || changed != nil ? nil : frame
        try sink.write(bytes)
    }

    /// Writes the trailer.
    public mutating func finish() throws {
        guard !finished else { throw PictureError.finished(format: "GIF") }
        finished = true
        previous = nil
        try sink.write([0x3B])
    }

    /// The smallest rectangle holding every pixel whose colour changed
    /// (alpha aside); one pixel when none did, since every frame is written.
    static func changedRegion(_ before: RGBAImage, _ after: RGBAImage) -> (left: Int, top: Int, width: Int, height: Int) {
        var left = after.width
        var right = -1
        var top = after.height
        var bottom = -1
        before.bytes.withUnsafeBufferPointer { old in
            after.bytes.withUnsafeBufferPointer { new in
                for row in 0..<after.height {
                    var offset = row * after.width * 4
                    for column in 0..<after.width {
                        if old[offset] != new[offset] || old[offset + 1] != new[offset + 1] || old[offset + 2] != new[offset + 2] {
                            left = min(left, column)
                            right = max(right, column)
                            top = min(top, row)
                            bottom = max(bottom, row)
                        }
                        offset += 4
                    }
                }
            }
        }
        guard right >= 0 else { return (0, 0, 1, 1) }
        return (left, top, right - left + 1, bottom - top + 1)
    }

    static func littleEndian(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }
}

/// GIF's variable-length LZW: codes grow from `minimumCodeSize + 1` bits to
/// 12 as the table fills; when it is full (4096 codes), a clear code starts
/// it again. The code width changes exactly when a decoder, which adds each
/// entry one code later than the encoder, needs it to.
///
/// The table is dense, one slot per (prefix code, byte): a lookup a pixel is
/// one load. It is made once per encoder and emptied slot by slot, by the
/// entries it holds.
struct LZW {
    /// The code of the string `prefix` then `byte` at `prefix << 8 | byte`; 0 for none
    /// (no entry has code 0: entries start after the clear and end codes).
    private var table = [UInt16](repeating: 0, count: 4096 << 8)
    /// The slots filled since the table was last emptied.
    private var filled: [Int] = []

    static func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        var lzw = LZW()
        return lzw.encode(indices, minimumCodeSize: minimumCodeSize)
    }

    /// `indices`, each under `1 << minimumCodeSize`, compressed.
    mutating func encode(_ indices: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var bits = BitWriter()
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        bits.write(clear, bits: codeSize)
        guard let first = indices.first else {
            bits.write(end, bits: codeSize)
            bits.alignToByte()
            return bits.bytes
        }
        var prefix = Int(first)
        filled.reserveCapacity(4096)
        // Unchecked access in the loop that runs once a pixel: a prefix is a code (under 4096), a byte under 256.
        table.withUnsafeMutableBufferPointer { table in
            indices.withUnsafeBufferPointer { indices in
                for position in 1..<indices.count {
                    let byte = Int(indices[position])
                    let slot = prefix << 8 | byte
                    let code = table[slot]
                    if code != 0 {
                        prefix = Int(code)
                        continue
                    }
                    bits.write(prefix, bits: codeSize)
                    table[slot] = UInt16(next)
                    filled.append(slot)
                    next += 1
                    if next > 1 << codeSize, codeSize < 12 { codeSize += 1 }
                    if next == 4096 {
                        bits.write(clear, bits: codeSize)
                        for slot in filled { table[slot] = 0 }
                        filled.removeAll(keepingCapacity: true)
                        codeSize = minimumCodeSize + 1
                        next = clear + 2
                    }
                    prefix = byte
                }
                for slot in filled { table[slot] = 0 }
                filled.removeAll(keepingCapacity: true)
            }
        }
        bits.write(prefix, bits: codeSize)
        next += 1
        if next > 1 << codeSize, codeSize < 12 { codeSize += 1 }
        bits.write(end, bits: codeSize)
        bits.alignToByte()
        return bits.bytes
    }
}
