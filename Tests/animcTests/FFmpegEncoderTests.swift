import Foundation
import Testing
@testable import animc
import AnimLang
import AnimOutputs

/// `FFmpegEncoder` against stand-ins for `ffmpeg` (shell scripts on a
/// private PATH), so the pipe, the arguments and the exit statuses are
/// tested where ffmpeg is not installed; the checks (`checks/decode.sh`)
/// run the real one when it is.
@Suite(.serialized) struct FFmpegEncoderTests {
    /// A directory holding an executable `ffmpeg` made of `script`.
    static func fakeFFmpeg(_ script: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("animc-ffmpeg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let program = directory + "/ffmpeg"
        try ("#!/bin/sh\n" + script).write(toFile: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        return directory
    }

    /// Starts the encoder, again while the script is still "busy": a
    /// process started by another test at the moment it was written can hold
    /// it open for writing a little while (ETXTBSY).
    static func start(_ directory: String, width: Int = 4, height: Int = 2, fps: Int = 30, container: FFmpegEncoder.Container, output: String) throws -> FFmpegEncoder {
        for _ in 0..<50 {
            do {
                return try FFmpegEncoder(width: width, height: height, fps: fps, container: container, output: output, environment: ["PATH": directory + ":/usr/bin:/bin"])
            } catch let diagnostic as Diagnostic where diagnostic.message.hasSuffix("Text file busy") {
                usleep(20_000)
            }
        }
        return try FFmpegEncoder(width: width, height: height, fps: fps, container: container, output: output, environment: ["PATH": directory + ":/usr/bin:/bin"])
    }

    static func frame(_ shade: UInt8) -> RGBAImage {
        RGBAImage(width: 4, height: 2, red: shade, green: 2, blue: 3, alpha: 255)
    }

    @Test func missingFFmpegIsAClearError() throws {
        #expect(FFmpegEncoder.find("ffmpeg", path: "/nonexistent:/also/not") == nil)
        do {
            _ = try FFmpegEncoder(width: 4, height: 2, fps: 30, container: .mp4, output: "out.mp4", environment: ["PATH": "/nonexistent"])
            Issue.record("expected an error")
        } catch let diagnostic as Diagnostic {
            #expect(diagnostic.id == "missing-program")
            #expect(diagnostic.message == "cannot write out.mp4 as mp4: `ffmpeg` is not on PATH")
            #expect(diagnostic.hint?.contains("apt install ffmpeg") == true)
        }
    }

    @Test func framesGoToFFmpegsStandardInput() throws {
        // The stand-in copies its input to the output path (its last argument) and its arguments beside it.
        let directory = try Self.fakeFFmpeg("for last; do :; done\nprintf '%s\\n' \"$@\" > \"$last.args\"\ncat > \"$last\"\n")
        let output = directory + "/out.webm"
        var encoder = try Self.start(directory, width: 4, height: 2, fps: 24, container: .webm, output: output)
        for shade: UInt8 in [10, 20, 30] { try encoder.add(Self.frame(shade)) }
        try encoder.finish()
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(written == [10, 20, 30].flatMap { Self.frame($0).bytes })
        let arguments = try String(contentsOfFile: output + ".args", encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments.starts(with: ["-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "4x2", "-r", "24", "-i", "-"]))
        #expect(arguments.contains("libvpx-vp9") && arguments.last == output)
    }

    @Test func ffmpegsExitStatusIsReported() throws {
        let directory = try Self.fakeFFmpeg("cat > /dev/null\nexit 3\n")
        var encoder = try Self.start(directory, width: 4, height: 2, fps: 30, container: .mp4, output: "x.mp4")
        try encoder.add(Self.frame(1))
        #expect(throws: Diagnostic.self) { try encoder.finish() }
        var again = try Self.start(directory, width: 4, height: 2, fps: 30, container: .mp4, output: "x.mp4")
        do {
            try again.finish()
        } catch let diagnostic as Diagnostic {
            #expect(diagnostic.message == "ffmpeg exited with status 3 while writing x.mp4")
        }
    }

    @Test func ffmpegThatStopsReadingIsAnErrorNotACrash() throws {
        // Exits at once: writing frames meets a closed pipe (EPIPE, SIGPIPE ignored).
        let directory = try Self.fakeFFmpeg("exit 1\n")
        var encoder = try Self.start(directory, width: 512, height: 512, fps: 30, container: .mp4, output: "y.mp4")
        let big = RGBAImage(width: 512, height: 512, red: 9, alpha: 255)
        #expect(throws: Diagnostic.self) {
            for _ in 0..<20 { try encoder.add(big) }
        }
    }

    @Test func mp4NeedsEvenSides() {
        #expect(throws: Diagnostic.self) {
            _ = try FFmpegEncoder(width: 5, height: 2, fps: 30, container: .mp4, output: "z.mp4", environment: ["PATH": "/bin:/usr/bin"])
        }
    }
}
