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
    /// The same, told that outside `changed` the frame is the one before
    /// (as ``Rasterizer`` knows), so it need not compare them to find out.
    mutating func add(_ frame: RGBAImage, changed: PixelRect) throws
    /// Writes what the format puts after the last frame.
    mutating func finish() throws
}

extension PictureEncoder {
    /// A format that writes every frame whole has no use for what changed.
    public mutating func add(_ frame: RGBAImage, changed: PixelRect) throws {
        try add(frame)
    }
}

/// A rectangle of whole pixels: columns `left..<left + width`, rows `top..<top + height`.
public struct PixelRect: Sendable, Equatable {
    public var left: Int
    public var top: Int
    public var width: Int
    public var height: Int

    public init(left: Int, top: Int, width: Int, height: Int) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
    }

    public static let empty = PixelRect(left: 0, top: 0, width: 0, height: 0)

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The smallest rectangle holding both.
    public func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let left = min(self.left, other.left), top = min(self.top, other.top)
        return PixelRect(left: left, top: top, width: max(self.left + width, other.left + other.width) - left,
                         height: max(self.top + height, other.top + other.height) - top)
    }

    /// The pixels in both (``empty`` when none).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let left = max(self.left, other.left), top = max(self.top, other.top)
        let right = min(self.left + width, other.left + other.width), bottom = min(self.top + height, other.top + other.height)
        guard left < right, top < bottom else { return .empty }
        return PixelRect(left: left, top: top, width: right - left, height: bottom - top)
    }
}
