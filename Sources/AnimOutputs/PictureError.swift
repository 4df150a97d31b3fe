/// Why an encoder refuses its settings or a frame. `animc render` checks
/// its options before it makes an encoder, so a user sees these only for
/// what a format itself cannot hold (the message names the format's limit).
public enum PictureError: Error, Equatable, Sendable {
    /// A picture size the format cannot hold (each side from 1 to `limit`).
    case size(format: String, width: Int, height: Int, limit: Int)
    /// A frame rate the format's delays cannot express (from 1 to `limit`).
    case frameRate(format: String, fps: Int, limit: Int)
    /// A loop count out of the format's range (0, forever, to `limit`).
    case loopCount(format: String, count: Int, limit: Int)
    /// A frame count the format cannot announce (from 1 to `limit`).
    case frameCount(format: String, count: Int, limit: Int)
    /// A frame of another size than the encoder's.
    case frameSize(width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)
    /// More or fewer frames than announced (APNG announces its count first).
    case framesAnnounced(format: String, announced: Int, given: Int)
    /// A frame added, or `finish()` called, after `finish()`.
    case finished(format: String)

    /// The sentence a user reads.
    public var message: String {
        switch self {
        case let .size(format, width, height, limit):
            return "\(format) cannot hold a picture of \(width)×\(height): each side must be from 1 to \(limit)"
        case let .frameRate(format, fps, limit):
            return "\(format) cannot show \(fps) frames per second: it takes 1 to \(limit)"
        case let .loopCount(format, count, limit):
            return "\(format) cannot play \(count) times: it takes 0 (forever) to \(limit)"
        case let .frameCount(format, count, limit):
            return "\(format) cannot hold \(count) frames: it takes 1 to \(limit)"
        case let .frameSize(width, height, expectedWidth, expectedHeight):
            return "a frame of \(width)×\(height) given to an encoder of \(expectedWidth)×\(expectedHeight)"
        case let .framesAnnounced(format, announced, given):
            return "\(format) announced \(announced) frames but was given \(given)"
        case let .finished(format):
            return "\(format) is already finished"
        }
    }
}
