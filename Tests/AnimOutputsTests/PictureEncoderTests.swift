import Testing
@testable import AnimOutputs

/// The GIF, PNG and APNG encoders, read back by the small decoders of
/// `PictureDecoders.swift`: pixels exactly (≤ 256 colours), frame counts,
/// delays and loop counts, CRCs and Adler-32, and each kind of deflate block.
struct PictureEncoderTests {
    /// A deterministic test picture: `colours` distinct colours in bands
    /// that move with `frame`, some pixels transparent when asked.
    static func picture(width: Int, height: Int, frame: Int, colours: Int, holes: Bool = false) -> RGBAImage {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let band = (x + 2 * y + 3 * frame) % colours
                let alpha: UInt8 = holes && (x + y + frame) % 5 == 0 ? 0 : 255
                bytes += [UInt8(band * 37 % 256), UInt8(band * 91 % 256), UInt8(band * 13 % 256 ^ band >> 8), alpha]
            }
        }
        return RGBAImage(width: width, height: height, bytes: bytes) ?? RGBAImage(width: 0, height: 0)
    }

    /// Random bytes from a fixed seed (a linear congruential generator).
    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    // MARK: Checksums and deflate

    @Test func checksumsMatchKnownValues() {
        // Published check values: CRC-32 of "123456789" is 0xCBF43926,
        // Adler-32 of "Wikipedia" is 0x11E60398.
        #expect(Checksums.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Checksums.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Checksums.crc32(Array("123456789".utf8)) == crc32(Array("123456789".utf8)))
    }

    @Test func deflateRoundTripsAndUsesEachBlockKind() throws {
        // Random bytes do not compress: stored blocks. A short repetitive text
        // is cheapest with fixed codes; a long skewed text with dynamic codes.
        let random = Self.noise(count: 70_000, seed: 7)
        let short = Array("abcabcabcabc hello hello hello".utf8)
        let skewed = (0..<20_000).map { index in UInt8(ascii: index % 7 == 0 ? "x" : index % 3 == 0 ? "y" : "z") } + Self.noise(count: 3000, seed: 3).map { $0 % 4 + 97 }
        for (data, kind) in [(random, 0), (short, 1), (skewed, 2)] {
            let (decoded, types) = try Inflate.zlib(Deflate.zlib(data))
            #expect(decoded == data)
            #expect(types.contains(kind))
        }
        #expect(try Inflate.zlib(Deflate.zlib([])).data == [])
        let long = [UInt8](repeating: 9, count: 300_000) + Self.noise(count: 40_000, seed: 1) + [UInt8](repeating: 4, count: 100_000)
        let compressed = Deflate.zlib(long)
        #expect(try Inflate.zlib(compressed).data == long)
        #expect(compressed.count < 42_000)
    }

    @Test func huffmanLengthsRespectTheirLimit() {
        // Fibonacci counts make the deepest possible Huffman tree.
        var counts = [1, 1]
        while counts.count < 30 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        #expect(Huffman.lengths(counts, limit: 40).max() == 29)
        let lengths = Huffman.lengths(counts, limit: 15)
        #expect((lengths.max() ?? 0) <= 15)
        // Kraft: a complete prefix code has Σ 2^-length = 1.
        #expect(lengths.reduce(0) { $0 + (1 << (15 - $1)) } == 1 << 15)
    }

    // MARK: PNG and APNG

    @Test func pngHoldsTheImageExactly() throws {
        for (width, height, colours) in [(1, 1, 1), (7, 5, 40), (64, 33, 300)] {
            let image = Self.picture(width: width, height: height, frame: 1, colours: colours, holes: true)
            let decoded = try DecodedPNG(PNG.encode(image))
            #expect(decoded.width == width && decoded.height == height)
            #expect(decoded.frames == [image.bytes])
            #expect(decoded.chunkTypes == ["IHDR", "IDAT", "IEND"])
        }
        let random = RGBAImage(width: 40, height: 30, bytes: Self.noise(count: 40 * 30 * 4, seed: 11))
        #expect(try DecodedPNG(PNG.encode(try #require(random))).frames == [random?.bytes ?? []])
    }

    @Test func apngFramesDelaysAndPlays() throws {
        let frames = (0..<4).map { Self.picture(width: 9, height: 6, frame: $0, colours: 12, holes: $0 == 2) }
        var encoder = try APNGEncoder(width: 9, height: 6, fps: 24, loopCount: 3, frameCount: 4, sink: ByteBuffer())
        for frame in frames { try encoder.add(frame) }
        try encoder.finish()
        let decoded = try DecodedPNG(encoder.sink.bytes)
        #expect(decoded.frameCount == 4 && decoded.plays == 3)
        #expect(decoded.frames == frames.map(\.bytes))
        #expect(decoded.delays.map { [$0.0, $0.1] } == Array(repeating: [1, 24], count: 4))
        // fcTL 0, IDAT, fcTL 1, fdAT 2, fcTL 3, fdAT 4, …: one sequence without gaps.
        #expect(decoded.sequenceNumbers == Array(0..<7))
        #expect(decoded.chunkTypes == ["IHDR", "acTL", "fcTL", "IDAT", "fcTL", "fdAT", "fcTL", "fdAT", "fcTL", "fdAT", "IEND"])
    }

    @Test func apngRefusesWhatItCannotHold() throws {
        #expect(throws: PictureError.frameCount(format: "APNG", count: 0, limit: Int(Int32.max))) {
            try APNGEncoder(width: 2, height: 2, fps: 30, loopCount: 0, frameCount: 0, sink: ByteBuffer())
        }
        #expect(throws: PictureError.size(format: "APNG", width: 0, height: 2, limit: Int(Int32.max))) {
            try APNGEncoder(width: 0, height: 2, fps: 30, loopCount: 0, frameCount: 1, sink: ByteBuffer())
        }
        var encoder = try APNGEncoder(width: 2, height: 2, fps: 30, loopCount: 0, frameCount: 1, sink: ByteBuffer())
        #expect(throws: PictureError.frameSize(width: 3, height: 2, expectedWidth: 2, expectedHeight: 2)) {
            try encoder.add(RGBAImage(width: 3, height: 2))
        }
        #expect(throws: PictureError.framesAnnounced(format: "APNG", announced: 1, given: 0)) { try encoder.finish() }
        try encoder.add(RGBAImage(width: 2, height: 2))
        #expect(throws: PictureError.framesAnnounced(format: "APNG", announced: 1, given: 2)) { try encoder.add(RGBAImage(width: 2, height: 2)) }
        try encoder.finish()
        #expect(throws: PictureError.finished(format: "APNG")) { try encoder.add(RGBAImage(width: 2, height: 2)) }
    }

    // MARK: GIF

    static func gif(_ frames: [RGBAImage], fps: Int, loopCount: Int, transparent: Bool) throws -> DecodedGIF {
        var encoder = try GIFEncoder(width: frames[0].width, height: frames[0].height, fps: fps, loopCount: loopCount, transparent: transparent, sink: ByteBuffer())
        for frame in frames { try encoder.add(frame) }
        try encoder.finish()
        return try DecodedGIF(encoder.sink.bytes)
    }

    /// The RGBA a GIF shows for `image`: alpha 255, or transparent black.
    static func shown(_ image: RGBAImage, transparent: Bool) -> [UInt8] {
        var bytes = image.bytes
        for pixel in 0..<(image.width * image.height) {
            if transparent, bytes[pixel * 4 + 3] < 128 {
                for channel in 0..<4 { bytes[pixel * 4 + channel] = 0 }
            } else {
                bytes[pixel * 4 + 3] = 255
            }
        }
        return bytes
    }

    @Test func gifFramesAreExactWithFewColours() throws {
        for transparent in [false, true] {
            for colours in [1, 2, 5, 200, 255] {
                let frames = (0..<5).map { Self.picture(width: 23, height: 11, frame: $0 / 2, colours: colours, holes: transparent) }
                let decoded = try Self.gif(frames, fps: 30, loopCount: 0, transparent: transparent)
                #expect(decoded.width == 23 && decoded.height == 11)
                #expect(decoded.frames == frames.map { Self.shown($0, transparent: transparent) }, "colours \(colours), transparent \(transparent)")
                #expect(decoded.repetitions == 0)
            }
        }
    }

    @Test func gifOpaqueFramesAfterTheFirstAreTheChangedRectangle() throws {
        var second = Self.picture(width: 20, height: 10, frame: 0, colours: 3)
        for (x, y) in [(4, 2), (9, 6)] { second.bytes[(y * 20 + x) * 4] ^= 0xFF }
        let first = Self.picture(width: 20, height: 10, frame: 0, colours: 3)
        let decoded = try Self.gif([first, second, second], fps: 10, loopCount: 0, transparent: false)
        #expect(decoded.regions.map { [$0.0, $0.1, $0.2, $0.3] } == [[0, 0, 20, 10], [4, 2, 6, 5], [0, 0, 1, 1]])
        #expect(decoded.frames == [first, second, second].map { Self.shown($0, transparent: false) })
    }

    @Test func gifFramesAreTheChangedRectangleTheyAreGiven() throws {
        // The rasterizer says where a frame changed: the encoder writes that rectangle without comparing
        // (the first frame whole, an empty one as one pixel), and the frames decode as they were.
        let first = Self.picture(width: 20, height: 10, frame: 0, colours: 3)
        var second = first
        for (x, y) in [(4, 2), (9, 6)] { second.bytes[(y * 20 + x) * 4] ^= 0xFF }
        var encoder = try GIFEncoder(width: 20, height: 10, fps: 10, loopCount: 0, transparent: false, sink: ByteBuffer())
        try encoder.add(first, changed: PixelRect(left: 2, top: 2, width: 3, height: 3))
        try encoder.add(second, changed: PixelRect(left: 3, top: 1, width: 8, height: 7))
        try encoder.add(second, changed: .empty)
        try encoder.finish()
        let decoded = try DecodedGIF(encoder.sink.bytes)
        #expect(decoded.regions.map { [$0.0, $0.1, $0.2, $0.3] } == [[0, 0, 20, 10], [3, 1, 8, 7], [0, 0, 1, 1]])
        #expect(decoded.frames == [first, second, second].map { Self.shown($0, transparent: false) })
    }

    @Test func gifManyColoursAreCloseAndWithinOnePalette() throws {
        // 4096 colours from a smooth gradient: median cut keeps each pixel near its colour.
        var bytes: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { bytes += [UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2), 255] } }
        let image = try #require(RGBAImage(width: 64, height: 64, bytes: bytes))
        let decoded = try Self.gif([image], fps: 30, loopCount: 0, transparent: false)
        #expect(decoded.paletteSizes == [256])
        let worst = zip(decoded.frames[0], image.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 24)
        // A large noisy frame: many LZW clear codes, still decodes to its palette's colours.
        let noise = try #require(RGBAImage(width: 200, height: 150, bytes: Self.noise(count: 200 * 150 * 4, seed: 5)))
        let noisy = try Self.gif([noise], fps: 30, loopCount: 0, transparent: true)
        #expect(noisy.frames.count == 1)
    }

    @Test func gifDelaysTrackExactTime() throws {
        // 30 fps: frame k ends at ⌊100(k+1)/30⌋ cs: 3, 6, 10, 13, 16, 20 → 3, 3, 4, 3, 3, 4.
        #expect((0..<6).map { GIFEncoder<ByteBuffer>.delay(frame: $0, fps: 30) } == [3, 3, 4, 3, 3, 4])
        // 24 fps: ends 4, 8, 12, 16, 20, 25 → 4, 4, 4, 4, 4, 5.
        #expect((0..<6).map { GIFEncoder<ByteBuffer>.delay(frame: $0, fps: 24) } == [4, 4, 4, 4, 4, 5])
        for fps in 1...100 {
            let total = (0..<(3 * fps)).reduce(0) { $0 + GIFEncoder<ByteBuffer>.delay(frame: $1, fps: fps) }
            #expect(total == 300, "fps \(fps)")
        }
        let frames = (0..<6).map { Self.picture(width: 3, height: 3, frame: $0, colours: 4) }
        #expect(try Self.gif(frames, fps: 30, loopCount: 0, transparent: false).delays == [3, 3, 4, 3, 3, 4])
    }

    @Test func gifLoopCountIsPlays() throws {
        // Plays: 0 forever (stored 0), 1 once (no extension), 3 (stored 2 repetitions).
        let frames = [Self.picture(width: 2, height: 2, frame: 0, colours: 2)]
        #expect(try Self.gif(frames, fps: 30, loopCount: 0, transparent: false).repetitions == 0)
        #expect(try Self.gif(frames, fps: 30, loopCount: 1, transparent: false).repetitions == nil)
        #expect(try Self.gif(frames, fps: 30, loopCount: 3, transparent: false).repetitions == 2)
        #expect(throws: PictureError.frameRate(format: "GIF", fps: 101, limit: 100)) {
            try GIFEncoder(width: 2, height: 2, fps: 101, loopCount: 0, transparent: false, sink: ByteBuffer())
        }
    }

    @Test func lzwGrowsCodesAndClearsTheTable() throws {
        // Long varied input passes every code width and several clears.
        for minimumCodeSize in [2, 5, 8] {
            let indices = Self.noise(count: 60_000, seed: UInt64(minimumCodeSize)).map { $0 % UInt8(1 << min(minimumCodeSize, 7)) }
            #expect(try lzwDecode(LZW.encode(indices, minimumCodeSize: minimumCodeSize), minimumCodeSize: minimumCodeSize) == indices)
            let runs = [UInt8](repeating: 1, count: 100_000)
            #expect(try lzwDecode(LZW.encode(runs, minimumCodeSize: minimumCodeSize), minimumCodeSize: minimumCodeSize) == runs)
        }
        #expect(try lzwDecode(LZW.encode([], minimumCodeSize: 2), minimumCodeSize: 2) == [])
        // One encoder for many frames (as a GIF's is) leaves its table empty after each.
        var lzw = LZW()
        let noise = Self.noise(count: 30_000, seed: 3)
        let first = lzw.encode(noise, minimumCodeSize: 8)
        _ = lzw.encode(Self.noise(count: 9_000, seed: 4), minimumCodeSize: 8)
        #expect(lzw.encode(noise, minimumCodeSize: 8) == first)
        #expect(first == LZW.encode(noise, minimumCodeSize: 8))
    }
}
