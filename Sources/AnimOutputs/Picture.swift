/// One frame of a moving picture, as `animc render` draws it and its encoders
/// (GIF, PNG and APNG, raw frames for `ffmpeg`) write it: `width × height`
/// pixels, rows from top to bottom, four bytes a pixel — red, green, blue
/// (sRGB) and alpha, straight (not premultiplied).
public struct RGBAImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width · height · 4` bytes.
    public var bytes: [UInt8]

    /// An image of one colour (straight RGBA bytes); transparent black by default.
    public init(width: Int, height: Int, red: UInt8 = 0, green: UInt8 = 0, blue: UInt8 = 0, alpha: UInt8 = 0) {
        self.width = max(0, width)
        self.height = max(0, height)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(self.width * self.height * 4)
        for _ in 0..<(self.width * self.height) { bytes.append(contentsOf: [red, green, blue, alpha]) }
        self.bytes = bytes
    }

    /// The image these bytes are, or `nil` when there are not `width · height · 4` of them.
    public init?(width: Int, height: Int, bytes: [UInt8]) {
        guard width >= 0, height >= 0, bytes.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.bytes = bytes
    }
}

/// Where an encoder writes its bytes as it makes them (a file, a pipe, memory),
/// so that a long render streams: nothing keeps every frame.
public protocol ByteSink {
    mutating func write(_ bytes: [UInt8]) throws
}

/// Memory as a sink (tests, small outputs).
public struct ByteBuffer: ByteSink, Sendable {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public mutating func write(_ bytes: [UInt8]) throws { self.bytes.append(contentsOf: bytes) }
}

/// A moving-picture format that takes frames one at a time: all of one size,
/// each shown for the frame time the encoder was made with.
public protocol PictureEncoder {
    /// Encodes the next frame and writes what it can of it.
    mutating func add(_ frame: RGBAImage) throws
    /// Writes what the format puts after the last frame.
    mutating func finish() throws
}
