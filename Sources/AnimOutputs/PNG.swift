/// PNG (ISO/IEC 15948) of straight RGBA8 pixels: one file per picture.
public enum PNG {
    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A whole PNG file of `image` (colour type 6, 8 bits a channel).
    public static func encode(_ image: RGBAImage) -> [UInt8] {
        var file = signature
        file += header(width: image.width, height: image.height)
        file += chunk("IDAT", Deflate.zlib(filtered(image)))
        file += chunk("IEND", [])
        return file
    }

    static func header(width: Int, height: Int) -> [UInt8] {
        chunk("IHDR", bigEndian(UInt32(clamping: width)) + bigEndian(UInt32(clamping: height)) + [8, 6, 0, 0, 0])
    }

    /// Length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let crc = Checksums.crc32(data, continuing: Checksums.crc32(typeBytes))
        return bigEndian(UInt32(clamping: data.count)) + typeBytes + data + bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    static func bigEndian16(_ value: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    /// The rows of `image`, each behind the filter byte that makes it
    /// smallest by the usual heuristic (the least sum of the filtered bytes
    /// read as signed): flat colour favours Sub or Up, gradients Paeth.
    static func filtered(_ image: RGBAImage) -> [UInt8] {
        let stride = image.width * 4
        var out: [UInt8] = []
        out.reserveCapacity((stride + 1) * image.height)
        var candidate = [UInt8](repeating: 0, count: stride)
        var best = [UInt8](repeating: 0, count: stride)
        let zeroRow = [UInt8](repeating: 0, count: stride)
        image.bytes.withUnsafeBufferPointer { pixels in
            zeroRow.withUnsafeBufferPointer { zeros in
                for row in 0..<image.height {
                    let current = UnsafeBufferPointer(rebasing: pixels[(row * stride)..<((row + 1) * stride)])
                    let above = row == 0 ? zeros : UnsafeBufferPointer(rebasing: pixels[((row - 1) * stride)..<(row * stride)])
                    var bestFilter = 0
                    var bestScore = Int.max
                    for filter in 0..<5 {
                        let score = apply(filter, current, above, into: &candidate)
                        if score < bestScore {
                            bestScore = score
                            bestFilter = filter
                            swap(&candidate, &best)
                        }
                    }
                    out.append(UInt8(bestFilter))
                    out += best
                }
            }
        }
        return out
    }

    /// Writes row `current` filtered by `filter` (0 None, 1 Sub, 2 Up,
    /// 3 Average, 4 Paeth) into `out`; returns the heuristic's score.
    private static func apply(_ filter: Int, _ current: UnsafeBufferPointer<UInt8>, _ above: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Int {
        var score = 0
        out.withUnsafeMutableBufferPointer { out in
            for index in 0..<current.count {
                let x = current[index]
                let left = index >= 4 ? current[index - 4] : 0
                let up = above[index]
                let upLeft = index >= 4 ? above[index - 4] : 0
                let predicted: UInt8
                switch filter {
                case 1: predicted = left
                case 2: predicted = up
                case 3: predicted = UInt8((Int(left) + Int(up)) / 2)
                case 4: predicted = paeth(left, up, upLeft)
                default: predicted = 0
                }
                let value = x &- predicted
                out[index] = value
                score += value < 128 ? Int(value) : 256 - Int(value)
            }
        }
        return score
    }

    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let estimate = Int(a) + Int(b) - Int(c)
        let distanceA = abs(estimate - Int(a))
        let distanceB = abs(estimate - Int(b))
        let distanceC = abs(estimate - Int(c))
        if distanceA <= distanceB, distanceA <= distanceC { return a }
        return distanceB <= distanceC ? b : c
    }
}

/// Animated PNG (the APNG extension, in every browser): the first frame is
/// the default image, so a viewer without APNG shows it still. Frame `k`
/// is shown for `1/fps` s (delay `1/fps` exactly); each frame replaces the
/// whole canvas (no disposal, source blending), so frames are independent.
/// The frame count is announced first (`acTL`), hence given at creation.
public struct APNGEncoder<Sink: ByteSink>: PictureEncoder {
    public private(set) var sink: Sink
    private let width: Int
    private let height: Int
    private let fps: Int
    private let frameCount: Int
    private var framesAdded = 0
    private var sequence: UInt32 = 0
    private var finished = false

    /// Writes the signature, `IHDR` and `acTL`. `loopCount` is how many
    /// times the animation plays, 0 for forever.
    public init(width: Int, height: Int, fps: Int, loopCount: Int, frameCount: Int, sink: Sink) throws {
        let side = Int(Int32.max)
        guard (1...side).contains(width), (1...side).contains(height) else {
            throw PictureError.size(format: "APNG", width: width, height: height, limit: side)
        }
        guard (1...65535).contains(fps) else { throw PictureError.frameRate(format: "APNG", fps: fps, limit: 65535) }
        guard (0...side).contains(loopCount) else { throw PictureError.loopCount(format: "APNG", count: loopCount, limit: side) }
        guard (1...side).contains(frameCount) else { throw PictureError.frameCount(format: "APNG", count: frameCount, limit: side) }
        self.width = width
        self.height = height
        self.fps = fps
        self.frameCount = frameCount
        self.sink = sink
        try self.sink.write(PNG.signature + PNG.header(width: width, height: height)
            + PNG.chunk("acTL", PNG.bigEndian(UInt32(frameCount)) + PNG.bigEndian(UInt32(loopCount))))
    }

    public mutating func add(_ frame: RGBAImage) throws {
        guard !finished else { throw PictureError.finished(format: "APNG") }
        guard frame.width == width, frame.height == height else {
            throw PictureError.frameSize(width: frame.width, height: frame.height, expectedWidth: width, expectedHeight: height)
        }
        guard framesAdded < frameCount else {
            throw PictureError.framesAnnounced(format: "APNG", announced: frameCount, given: framesAdded + 1)
        }
        let control = PNG.bigEndian(sequence) + PNG.bigEndian(UInt32(width)) + PNG.bigEndian(UInt32(height))
            + PNG.bigEndian(0) + PNG.bigEndian(0) + PNG.bigEndian16(1) + PNG.bigEndian16(fps) + [0, 0]
        var bytes = PNG.chunk("fcTL", control)
        let data = Deflate.zlib(PNG.filtered(frame))
        if framesAdded == 0 {
            bytes += PNG.chunk("IDAT", data)
            sequence += 1
        } else {
            bytes += PNG.chunk("fdAT", PNG.bigEndian(sequence + 1) + data)
            sequence += 2
        }
        framesAdded += 1
        try sink.write(bytes)
    }

    /// Writes `IEND`; throws when fewer frames came than announced.
    public mutating func finish() throws {
        guard !finished else { throw PictureError.finished(format: "APNG") }
        guard framesAdded == frameCount else {
            throw PictureError.framesAnnounced(format: "APNG", announced: frameCount, given: framesAdded)
        }
        finished = true
        try sink.write(PNG.chunk("IEND", []))
    }
}
