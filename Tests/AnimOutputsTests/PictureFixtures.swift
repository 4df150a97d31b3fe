import Foundation
import Testing
@testable import AnimOutputs

/// With `ANIMC_PICTURE_FIXTURES=DIR`, writes GIFs and APNGs of known frames,
/// their first and last frames as PNGs and a manifest (`manifest.json`:
/// name, file, format, fps, plays, frames, first, last) for
/// `checks/decode.sh`, where Pillow decodes them. Without it, nothing.
struct PictureFixtures {
    @Test func writeFixtures() throws {
        guard let directory = ProcessInfo.processInfo.environment["ANIMC_PICTURE_FIXTURES"] else { return }
        var manifest: [[String: Any]] = []
        func write(_ bytes: [UInt8], _ name: String) throws {
            try Data(bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
        }
        // (name, fps, plays, frame count, colours, transparent)
        let cases: [(String, Int, Int, Int, Int, Bool)] = [
            ("bands-30fps", 30, 0, 12, 5, false), ("bands-24fps-twice", 24, 2, 7, 40, false),
            ("holes-10fps-once", 10, 1, 5, 9, true), ("gradient-60fps", 60, 0, 4, 300, false),
        ]
        for (name, fps, plays, count, colours, transparent) in cases {
            let frames = (0..<count).map { PictureEncoderTests.picture(width: 48, height: 30, frame: $0, colours: colours, holes: transparent) }
            var gif = try GIFEncoder(width: 48, height: 30, fps: fps, loopCount: plays, transparent: transparent, sink: ByteBuffer())
            var apng = try APNGEncoder(width: 48, height: 30, fps: fps, loopCount: plays, frameCount: count, sink: ByteBuffer())
            for frame in frames {
                try gif.add(frame)
                try apng.add(frame)
            }
            try gif.finish()
            try apng.finish()
            try write(gif.sink.bytes, name + ".gif")
            try write(apng.sink.bytes, name + ".png")
            // The GIF shows opaque pixels opaque, and (with transparency) the others cleared.
            for (suffix, frame) in [("first", frames[0]), ("last", frames[count - 1])] {
                try write(PNG.encode(frame), "\(name)-\(suffix).png")
            }
            for format in ["gif", "png"] {
                manifest.append(["name": "\(name).\(format)", "file": "\(name).\(format)", "format": format == "gif" ? "gif" : "apng",
                                 "fps": fps, "plays": plays, "frames": count, "first": "\(name)-first.png", "last": "\(name)-last.png"])
            }
        }
        try write(Array(try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])), "manifest.json")
    }
}
