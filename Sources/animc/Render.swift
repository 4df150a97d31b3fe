// `animc render FILE -o OUT`: the animation drawn frame by frame by animc's
// own rasterizer (docs/exports.md §8) and written as a moving picture. Frames
// stream: one is drawn, encoded and let go before the next.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AnimLang
import AnimOutputs
import Animations

extension Options {
    static let renderFPS = Option.integer("--fps", value: "N", in: 1...1_000_000, help: fpsHelp, default: defaultRenderFPS)
    static let defaultRenderFPS = 30
    /// The largest side of a picture, and the most frames of one render.
    static let largestSide = 8192
    static let mostFrames = 100_000
    static let size = Option("--size", value: "WxH",
                             help: "The picture's width and height in pixels, each from 1 to \(largestSide): 640x360. "
                                 + "The stage is fitted in and centred (default: the stage's own size, times --scale).",
                             read: readSize)
    static let scale = Option("--scale", value: "X",
                              help: "Draw the stage X times its size, a decimal above 0 (default 1): 2 for a sharp "
                                  + "picture on a high-density screen.",
                              read: readScale)
    static let background = Option("--background", value: "COLOR|transparent",
                                   help: "The background: a colour as the language writes it (`white`, `#1d2330`) or "
                                       + "`transparent` (default: the stage's white).",
                                   read: readBackground)
    static let from = Option("--from", value: "T", help: "Start at time T (default 0): seconds, as --until takes them.",
                             read: readTime)
    static let renderTo = Option("--to", value: "T",
                                 help: "Stop at time T instead of the end (the same as --until): an animation that "
                                     + "repeats forever needs one of them.", read: readTime)
    static let loopCount = Option.integer("--loop", value: "N", in: 0...65535,
                                          help: "Play a GIF or APNG N times (default 0: forever).", default: 0)
    static let renderOutput = Option.text("--output", short: "o", value: "OUT",
                                          help: "Where to write: the file's ending chooses the format.")

    /// `--size WxH`.
    @Sendable static func readSize(_ text: String) throws(InvalidValue) -> (width: Int, height: Int) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...largestSide).contains(width), (1...largestSide).contains(height) else {
            throw InvalidValue(expected: "WxH, each side a whole number of pixels from 1 to \(largestSide)")
        }
        return (width, height)
    }

    /// `--scale X`: a decimal above 0 (the picture's size is checked against the limit once the stage is known).
    @Sendable static func readScale(_ text: String) throws(InvalidValue) -> Double {
        guard let scale = Time(decimal: text), scale.isPositive, !(Time(Int64(largestSide)) < scale) else {
            throw InvalidValue(expected: "a decimal above 0, at most \(largestSide)")
        }
        return scale.seconds
    }

    /// `--background COLOR|transparent` (`nil`: transparent).
    @Sendable static func readBackground(_ text: String) throws(InvalidValue) -> Color? {
        if text == "transparent" { return nil }
        if text.hasPrefix("#"), let color = ColorNames.color(hex: text.dropFirst()) { return color }
        if let color = ColorNames.color(named: text) { return color }
        throw InvalidValue(expected: "a colour name, #rgb, #rrggbb or `transparent`")
    }
}

/// Where a render writes, chosen by OUT.
enum RenderTarget {
    case gif, apng
    /// One SVG that plays itself (``animatedSVG(_:background:)``): no frames.
    case svg
    /// One PNG per frame: `pattern` with the frame's number for `%0Nd`.
    case frames(pattern: String)
    case video(String)

    init?(_ path: String) {
        let lower = path.lowercased()
        if path.contains("%") {
            guard RenderTarget.numbered(path, 0) != nil else { return nil }
            self = .frames(pattern: path)
        } else if lower.hasSuffix(".gif") {
            self = .gif
        } else if lower.hasSuffix(".png") || lower.hasSuffix(".apng") {
            self = .apng
        } else if lower.hasSuffix(".svg") {
            self = .svg
        } else if lower.hasSuffix(".mp4") {
            self = .video("mp4")
        } else if lower.hasSuffix(".webm") {
            self = .video("webm")
        } else if path.hasSuffix("/") || RenderTarget.isDirectory(path) {
            self = .frames(pattern: (path.hasSuffix("/") ? path : path + "/") + "frame-%04d.png")
        } else {
            return nil
        }
    }

    /// `pattern` with its one `%d` or `%0Nd` replaced by `number`; `nil` when it has another `%` or none.
    static func numbered(_ pattern: String, _ number: Int) -> String? {
        guard let percent = pattern.firstIndex(of: "%") else { return nil }
        var rest = pattern[pattern.index(after: percent)...]
        var width = 0
        if rest.first == "0" {
            rest = rest.dropFirst()
            let digits = rest.prefix { $0.isNumber }
            guard let given = Int(digits), given <= 9 else { return nil }
            width = given
            rest = rest.dropFirst(digits.count)
        }
        guard rest.first == "d", !rest.dropFirst().contains("%") else { return nil }
        let digits = String(number)
        return String(pattern[..<percent]) + String(repeating: "0", count: max(0, width - digits.count)) + digits + rest.dropFirst()
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}

/// A file (or standard output) written through a buffer; a write that fails
/// (a full disk, a closed pipe) throws, naming what was being written.
final class FileSink: ByteSink {
    let descriptor: Int32
    let name: String
    private var buffer: [UInt8] = []

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                writeDescriptor(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 {
                let reason = written < 0 ? describeSystemError(errno) : "nothing written"
                buffer.removeAll()
                throw Diagnostic(.error, id: "unwritable-output", "cannot write \(name): \(reason)", at: .none)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// `write(2)`, by a name a sink's own `write` does not hide.
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// A file written under a temporary name beside it, renamed to its own name
/// once complete (``commit()``), removed otherwise (``abandon()``): a render
/// that fails never leaves a file that looks finished.
struct PendingFile {
    let path: String
    let temporary: String
    let sink: FileSink

    init(_ path: String) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporary = directory + "." + name + ".partial-\(getpid())"
        self.path = path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw Diagnostic(.unwritableFile(path: path, reason: describeSystemError(errno)), at: .none)
        }
        sink = FileSink(descriptor: descriptor, name: path)
    }

    func commit() throws {
        do {
            try sink.flush()
        } catch {
            abandon()
            throw error
        }
        let closed = close(sink.descriptor) == 0 ? nil : describeSystemError(errno)
        if let closed {
            _ = unlink(temporary)
            throw Diagnostic(.unwritableFile(path: path, reason: closed), at: .none)
        }
        guard rename(temporary, path) == 0 else {
            let reason = describeSystemError(errno)
            _ = unlink(temporary)
            throw Diagnostic(.unwritableFile(path: path, reason: reason), at: .none)
        }
    }

    func abandon() {
        _ = close(sink.descriptor)
        _ = unlink(temporary)
    }
}

/// The frames a render draws: `count` of them, frame `k` at `from + k/fps`.
struct FramePlan {
    let from: Time
    let fps: Int
    let count: Int

    func time(_ index: Int) -> Time {
        // index < count, so from + index/fps is within the window, which is exact time.
        (Time(numerator: Int64(index), denominator: Int64(fps)).flatMap { try? from.adding($0) }) ?? from
    }
}

@Sendable func renderCommand(_ arguments: ParsedArguments) throws(ExitStatus) {
    let usage = "usage: " + arguments.command.usage
    func usageError(_ message: String, hint: String) -> ExitStatus {
        reportUsage(Diagnostic(.error, id: "render-usage", message, at: .none, hint: hint), usage: usage)
    }
    guard let output = arguments.value(Options.renderOutput) else {
        throw usageError("render needs -o OUT", hint: "name the picture to write: -o talk.gif (.gif, .png, a directory "
                         + "or frame-%04d.png, .mp4, .webm; - for a GIF on standard output)")
    }
    let target: RenderTarget
    if output == "-" {
        target = .gif
    } else if let chosen = RenderTarget(output) {
        target = chosen
    } else {
        throw usageError("cannot tell what to write from -o \(output)",
                         hint: "end it with .gif, .png (APNG), .mp4 or .webm, or name a directory or a pattern such as frame-%04d.png")
    }
    if arguments.value(Options.size) != nil, arguments.value(Options.scale) != nil {
        throw reportUsage(Diagnostic(.conflictingOptions("--size", "--scale"), at: .none,
                                     hint: "--size gives the picture's pixels; --scale multiplies the stage's own size"),
                          usage: usage)
    }
    if arguments.value(Options.renderTo) != nil, arguments.value(Options.until) != nil {
        throw reportUsage(Diagnostic(.conflictingOptions("--to", "--until"), at: .none, hint: "they say the same: give one"),
                          usage: usage)
    }
    if case .svg = target {
        // An animated SVG plays the whole animation in its viewer's own time: no frames to choose.
        for (given, name) in [(arguments.value(Options.renderFPS) != nil, "--fps"), (arguments.value(Options.size) != nil, "--size"),
                              (arguments.value(Options.scale) != nil, "--scale"), (arguments.value(Options.from) != nil, "--from"),
                              (arguments.value(Options.renderTo) != nil, "--to"), (arguments.value(Options.until) != nil, "--until"),
                              (arguments.value(Options.loopCount) != nil, "--loop")] where given {
            throw reportUsage(Diagnostic(.optionNotAccepted(name, command: "render -o FILE.svg"), at: .none,
                                         hint: "an animated SVG plays the whole animation by itself, at its stage's size"),
                              usage: usage)
        }
        let file = try readSource(arguments.positional(0))
        let (outcome, _, _) = try evaluated(file, arguments)
        try renderSVG(outcome, file: file, output: output,
                      background: arguments.value(Options.background) ?? RenderModel.background)
        return
    }
    let fps = arguments.value(Options.renderFPS) ?? Options.defaultRenderFPS
    let file = try readSource(arguments.positional(0))
    let (outcome, _, _) = try evaluated(file, arguments)
    let sampler: FrameSampler, duration: Time, isInfinite: Bool
    switch renderSubject(outcome) {
    case nil: throw .failure
    case .failed(let error)?:
        report([error], in: file)
        throw .failure
    case .cancelled(let binding)?:
        report(Diagnostic(.error, id: "render-cancelled", "`\(binding)` is cancelled: it has no frames to render", at: .none,
                          hint: "render a binding that plays (--binding NAME)"))
        throw .failure
    case .frames(let frames, let length, let endless)?:
        (sampler, duration, isInfinite) = (frames, length, endless)
    }
    // The stretch drawn.
    let from = arguments.value(Options.from)?.times.first ?? .zero
    let end: Time
    if let given = (arguments.value(Options.renderTo) ?? arguments.value(Options.until))?.times.first {
        end = given
    } else if isInfinite {
        throw usageError("`\(outcome.target?.name ?? "it")` repeats forever: render needs --to T (or --until T)",
                         hint: "say where the picture stops: --to 5s")
    } else {
        end = duration
    }
    guard from < end || (from == end && end.isZero) else {
        throw usageError("--from \(formatNumber(from.seconds)) is not before the end, \(formatNumber(end.seconds)) s",
                         hint: "--from starts the picture within the animation; --to (or --until) ends it")
    }
    // ⌈(end − from) · fps⌉ frames (at least one): frame k shows from + k/fps, each for 1/fps.
    // Both are instants of the animation, so their difference is exact time; 0 gives the one frame.
    let length = (try? end.subtracting(from)) ?? .zero
    let frameCount: Int
    if let exact = try? length.multiplied(by: Int64(fps)) {
        let whole = exact.seconds.rounded(.up)
        frameCount = whole.isFinite && whole < 1e12 ? max(1, Int(whole)) : Int.max
    } else {
        frameCount = Int.max
    }
    guard frameCount <= Options.mostFrames else {
        throw usageError("\(formatNumber(length.seconds)) s at --fps \(fps) is more than \(Options.mostFrames) frames",
                         hint: "render a shorter stretch (--from, --to) or at a lower --fps")
    }
    // The picture's size: given, or the stage's times --scale.
    let viewBox = sampler.model.viewBox
    var width: Int, height: Int
    if let size = arguments.value(Options.size) {
        (width, height) = size
    } else {
        let scale = arguments.value(Options.scale) ?? 1
        let scaled = (viewBox.width * scale, viewBox.height * scale)
        guard scaled.0.rounded() <= Double(Options.largestSide), scaled.1.rounded() <= Double(Options.largestSide) else {
            throw usageError("--scale \(formatNumber(scale)) makes a picture of \(formatNumber(scaled.0.rounded()))×"
                             + "\(formatNumber(scaled.1.rounded())), larger than \(Options.largestSide) on a side",
                             hint: "choose a smaller --scale, or --size WxH")
        }
        (width, height) = (max(1, Int(scaled.0.rounded())), max(1, Int(scaled.1.rounded())))
        // H.264 in yuv420p needs even sides.
        if case .video("mp4") = target { (width, height) = (width + width % 2, height + height % 2) }
    }
    let background = arguments.value(Options.background) ?? RenderModel.background
    let plan = FramePlan(from: from, fps: fps, count: frameCount)
    let loops = arguments.value(Options.loopCount) ?? 0
    // A closed pipe or a stopped ffmpeg must be an error, not the end of the process.
    _ = signal(SIGPIPE, SIG_IGN)
    System.catchTerminationSignals()
    var progress = Progress(total: frameCount)
    do {
        var drawing = FrameDrawing(sampler: sampler, width: width, height: height, background: background)
        switch target {
        case .frames(let pattern):
            // A directory named with a final `/` is made when it is missing (its parent must exist).
            if output.hasSuffix("/"), !RenderTarget.isDirectory(output), mkdir(output, 0o755) != 0 {
                throw Diagnostic(.unwritableFile(path: output, reason: describeSystemError(errno)), at: .none)
            }
            for index in 0..<frameCount {
                let frame = try drawing.frame(plan.time(index))
                let path = RenderTarget.numbered(pattern, index) ?? pattern
                let pending = try PendingFile(path)
                do {
                    try pending.sink.write(PNG.encode(frame))
                    try pending.commit()
                } catch {
                    pending.abandon()
                    throw error
                }
                try progress.step()
            }
        case .svg:
            break
        case .gif, .apng, .video:
            try renderStream(target: target, output: output, plan: plan, drawing: &drawing, loops: loops,
                             transparent: background.map { $0.alpha < 1 } ?? true, progress: &progress)
        }
        progress.done()
    } catch let error as Diagnostic {
        progress.done()
        report(error)
        throw .failure
    } catch let error as PictureError {
        progress.done()
        report(Diagnostic(.error, id: "render-format", error.message, at: .none))
        throw .failure
    } catch is Interrupted {
        progress.done()
        report(Diagnostic(.error, id: "render-interrupted", "interrupted: \(output) was not written", at: .none))
        throw ExitStatus(code: 130)
    } catch {
        progress.done()
        report(Diagnostic(.error, id: "render-failed", "cannot render \(output): \(error)", at: .none))
        throw .failure
    }
}

/// One picture file (or standard output) for every frame.
private func renderStream(target: RenderTarget, output: String, plan: FramePlan, drawing: inout FrameDrawing, loops: Int,
                          transparent: Bool, progress: inout Progress) throws {
    let pending = output == "-" ? nil : try PendingFile(output)
    let sink = pending?.sink ?? FileSink(descriptor: System.standardOutput, name: "standard output")
    do {
        var encoder: any PictureEncoder
        switch target {
        case .gif:
            encoder = try GIFEncoder(width: drawing.width, height: drawing.height, fps: plan.fps, loopCount: loops,
                                     transparent: transparent, sink: sink)
        case .apng:
            encoder = try APNGEncoder(width: drawing.width, height: drawing.height, fps: plan.fps, loopCount: loops,
                                      frameCount: plan.count, sink: sink)
        case .video(let container):
            encoder = try videoEncoder(width: drawing.width, height: drawing.height, fps: plan.fps, container: container,
                                       output: pending?.temporary ?? output, shownAs: output)
        case .frames, .svg:
            return
        }
        for index in 0..<plan.count {
            let frame = try drawing.frame(plan.time(index))
            try encoder.add(frame, changed: drawing.raster.changed)
            try progress.step()
        }
        try encoder.finish()
        if let pending {
            try pending.commit()
        } else {
            try sink.flush()
        }
    } catch var error as Diagnostic {
        pending?.abandon()
        // ffmpeg writes the temporary file, and its errors name it: the user asked for OUT.
        if let pending { error.message = error.message.replacingOccurrences(of: pending.temporary, with: output) }
        throw error
    } catch {
        pending?.abandon()
        throw error
    }
}

/// Ctrl-C (or another termination signal) during a render.
struct Interrupted: Error {}

/// Draws frames into one image, reused.
struct FrameDrawing {
    var sampler: FrameSampler
    var raster: Rasterizer
    var width: Int { raster.width }
    var height: Int { raster.height }

    init(sampler: FrameSampler, width: Int, height: Int, background: Color?) {
        self.sampler = sampler
        raster = Rasterizer(viewBox: sampler.model.viewBox, width: width, height: height, background: background)
    }

    /// The picture at `t`; ``Rasterizer/changed`` says where it differs from the one before.
    mutating func frame(_ t: Time) throws -> RGBAImage {
        if System.caughtSignal != 0 { throw Interrupted() }
        raster.draw(sampler.views(at: t))
        return raster.image
    }
}

/// The progress line on standard error, when it is a terminal and the render has taken a second.
struct Progress {
    let total: Int
    private var drawn = 0
    private let started = System.monotonicNanoseconds()
    private var shown: Int64 = 0
    private let terminal = System.isTerminal(System.standardError)

    init(total: Int) {
        self.total = total
    }

    mutating func step() throws {
        drawn += 1
        guard terminal else { return }
        let now = System.monotonicNanoseconds()
        guard now - started > 1_000_000_000, now - shown > 100_000_000 else { return }
        shown = now
        standardError.write("\rrendering frame \(drawn) of \(total) (\(drawn * 100 / max(1, total))%)\u{1B}[K")
        standardError.flush()
    }

    func done() {
        guard terminal, shown > 0 else { return }
        standardError.write("\r\u{1B}[K")
        standardError.flush()
    }
}

/// MP4 or WebM through `ffmpeg` (``FFmpegEncoder``), written to `output` (the temporary file).
private func videoEncoder(width: Int, height: Int, fps: Int, container: String, output: String, shownAs: String) throws -> any PictureEncoder {
    do {
        return try FFmpegEncoder(width: width, height: height, fps: fps, container: container == "webm" ? .webm : .mp4,
                                 output: output)
    } catch var error as Diagnostic {
        // It names the file it writes, the temporary one: the user asked for `shownAs`.
        error.message = error.message.replacingOccurrences(of: output, with: shownAs)
        throw error
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = "", rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}

/// `-o OUT.svg`: the animated SVG of the binding, written beside OUT and renamed.
private func renderSVG(_ outcome: Outcome, file: SourceFile, output: String, background: Color?) throws(ExitStatus) {
    let (export, diagnostics) = webExport(outcome, source: file.name)
    report(diagnostics, in: file)
    guard let export else { throw .failure }
    let css = background.map { color in
        color.alpha >= 1 ? Drawing.hex(color)
            : "rgba(\(Int(color.red.rounded())), \(Int(color.green.rounded())), \(Int(color.blue.rounded())), \(formatNumber(color.alpha)))"
    }
    let text = animatedSVG(export, background: css)
    do {
        if output == "-" {
            let sink = FileSink(descriptor: System.standardOutput, name: "standard output")
            try sink.write(Array(text.utf8))
            try sink.flush()
        } else {
            let pending = try PendingFile(output)
            do {
                try pending.sink.write(Array(text.utf8))
                try pending.commit()
            } catch {
                pending.abandon()
                throw error
            }
        }
    } catch let error as Diagnostic {
        report(error)
        throw .failure
    } catch {
        report(Diagnostic(.error, id: "render-failed", "cannot write \(output): \(error)", at: .none))
        throw .failure
    }
}
