// MP4 and WebM through `ffmpeg`, the only program animc ever starts: raw
// RGBA frames go down a pipe to its standard input as they are drawn.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AnimLang
import AnimOutputs

/// A video written by `ffmpeg` from raw frames on its standard input:
/// H.264 in MP4 (`yuv420p`, which players expect and which needs even
/// sides), or VP9 in WebM (keeps transparency). Its errors are
/// ``Diagnostic``s that name the output file.
struct FFmpegEncoder: PictureEncoder {
    enum Container: String {
        case mp4, webm
    }

    private let width: Int
    private let height: Int
    private let output: String
    private let process: pid_t
    /// The write end of the pipe to ffmpeg's standard input (-1 once closed).
    private var input: Int32

    /// Finds `ffmpeg` on `PATH` and starts it writing `output`.
    init(width: Int, height: Int, fps: Int, container: Container, output: String, environment: [String: String] = currentEnvironment()) throws {
        guard let program = Self.find("ffmpeg", path: environment["PATH"] ?? "") else {
            throw Diagnostic(.error, id: "missing-program", "cannot write \(output) as \(container.rawValue): `ffmpeg` is not on PATH",
                             at: .none, hint: "install ffmpeg (`apt install ffmpeg`, `brew install ffmpeg`, or https://ffmpeg.org/download.html), or render to .gif, .png or .svg")
        }
        if container == .mp4, width % 2 != 0 || height % 2 != 0 {
            throw Diagnostic(.error, id: "odd-video-size", "MP4 needs even sides, not \(width)×\(height)", at: .none,
                             hint: "choose an even --size, such as \(width + width % 2)x\(height + height % 2)")
        }
        let codec: [String] = container == .mp4
            ? ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"]
            : ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "32"]
        let arguments = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                         "-s", "\(width)x\(height)", "-r", "\(fps)", "-i", "-", "-an"] + codec + ["-f", container.rawValue, output]
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw Diagnostic(.error, id: "program-failed", "cannot start ffmpeg: \(describeSystemError(errno))", at: .none)
        }
        // A write to a pipe ffmpeg has closed must fail with EPIPE, not end animc.
        _ = signal(SIGPIPE, SIG_IGN)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        var child = pid_t()
        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for entry in cEnvironment { free(entry) } }
        let status = posix_spawn(&child, program, &actions, nil, cArguments, cEnvironment)
        _ = close(ends[0])
        guard status == 0 else {
            _ = close(ends[1])
            throw Diagnostic(.error, id: "program-failed", "cannot start \(program): \(describeSystemError(status))", at: .none)
        }
        self.width = width
        self.height = height
        self.output = output
        process = child
        input = ends[1]
    }

    /// The environment of this process, as `posix_spawn` passes it on.
    static func currentEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            entry += 1
        }
        return result
    }

    /// The first executable `name` in the directories of `path` (colon-separated).
    static func find(_ name: String, path: String) -> String? {
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory.hasSuffix("/") ? "\(directory)\(name)" : "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    mutating func add(_ frame: RGBAImage) throws {
        guard input >= 0 else { throw PictureError.finished(format: "ffmpeg") }
        guard frame.width == width, frame.height == height else {
            throw PictureError.frameSize(width: frame.width, height: frame.height, expectedWidth: width, expectedHeight: height)
        }
        var offset = 0
        while offset < frame.bytes.count {
            let written = frame.bytes.withUnsafeBytes { buffer in
                write(input, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 {
                // ffmpeg stopped reading: its exit status says why.
                try finish()
                throw Diagnostic(.error, id: "program-failed", "ffmpeg stopped reading frames for \(output)", at: .none)
            }
            offset += written
        }
    }

    /// Closes ffmpeg's input and waits for it; an error unless it exits 0.
    mutating func finish() throws {
        guard input >= 0 else { return }
        _ = close(input)
        input = -1
        var status: Int32 = 0
        while waitpid(process, &status, 0) < 0 {
            guard errno == EINTR else {
                throw Diagnostic(.error, id: "program-failed", "cannot wait for ffmpeg: \(describeSystemError(errno))", at: .none)
            }
        }
        let exited = status & 0x7F == 0
        let code = exited ? (status >> 8) & 0xFF : status & 0x7F
        guard !(exited && code == 0) else { return }
        let how = exited ? "exited with status \(code)" : "was ended by signal \(code)"
        throw Diagnostic(.error, id: "program-failed", "ffmpeg \(how) while writing \(output)", at: .none,
                         hint: "ffmpeg's own message is above; `ffmpeg -encoders` lists the encoders it has (libx264, libvpx-vp9)")
    }
}
