import Foundation
import Testing

/// `animc render FILE -o OUT` through the built binary: what it writes
/// (headers and frame counts read here, not by animc's own code), its usage
/// errors, and that a failed render leaves nothing that looks finished.
struct RenderCommandTests {
    typealias Result = MalformedCLITests.Result

    func animc(_ arguments: [String], input: String? = nil) throws -> Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("animc-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A GIF's logical screen size and its number of images, walking its blocks (GIF89a's grammar).
    static func gifFrames(_ bytes: [UInt8]) -> (width: Int, height: Int, frames: Int)? {
        guard bytes.count >= 13, Array(bytes[0..<6]) == Array("GIF89a".utf8) else { return nil }
        let width = Int(bytes[6]) | Int(bytes[7]) << 8, height = Int(bytes[8]) | Int(bytes[9]) << 8
        var index = 13
        if bytes[10] & 0x80 != 0 { index += 3 << (Int(bytes[10] & 7) + 1) }
        var frames = 0
        func skipSubBlocks() {
            while index < bytes.count, bytes[index] != 0 { index += Int(bytes[index]) + 1 }
            index += 1
        }
        while index < bytes.count {
            switch bytes[index] {
            case 0x21:
                index += 2
                skipSubBlocks()
            case 0x2C:
                guard index + 10 <= bytes.count else { return nil }
                let flags = bytes[index + 9]
                index += 10
                if flags & 0x80 != 0 { index += 3 << (Int(flags & 7) + 1) }
                index += 1
                skipSubBlocks()
                frames += 1
            case 0x3B:
                return (width, height, frames)
            default:
                return nil
            }
        }
        return nil
    }

    /// A PNG's chunks, by type, in order (length and CRC not checked: the encoder's tests do).
    static func pngChunks(_ bytes: [UInt8]) -> [(type: String, data: [UInt8])]? {
        guard bytes.count >= 8, Array(bytes[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else { return nil }
        var chunks: [(String, [UInt8])] = []
        var index = 8
        while index + 12 <= bytes.count {
            let length = bytes[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[index + 4..<index + 8], as: UTF8.self)
            guard index + 12 + length <= bytes.count else { return nil }
            chunks.append((type, Array(bytes[index + 8..<index + 8 + length])))
            index += 12 + length
        }
        return chunks
    }

    @Test func aGIFHasAFrameForEveryFrameTime() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("slide.gif").path
        // 1 s at 10 fps: frames at 0, 0.1, …, 0.9 — ten of them.
        let result = try animc(["render", "-", "--fps", "10", "--size", "64x32", "-o", path],
                               input: "let slide = animate dot.x from 0 to 100 in 1s\n")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.isEmpty)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let gif = try #require(Self.gifFrames(bytes))
        #expect(gif.width == 64 && gif.height == 32)
        #expect(gif.frames == 10)
        // Nothing else is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["slide.gif"])
    }

    @Test func aPNGIsAnAPNGWithItsFrameCountAndLoops() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("grow.png").path
        // 0.5 s at 8 fps: ⌈4⌉ = 4 frames, played twice.
        let result = try animc(["render", "-", "--fps", "8", "--loop", "2", "-o", path],
                               input: "let grow = animate box.size from 20 to 60 in 0.5s\n")
        #expect(result.status == 0, "\(result.errors)")
        let chunks = try #require(Self.pngChunks([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        #expect(chunks.first?.type == "IHDR" && chunks.last?.type == "IEND")
        let control = try #require(chunks.first { $0.type == "acTL" }?.data)
        #expect(control == [0, 0, 0, 4, 0, 0, 0, 2])
        #expect(chunks.filter { $0.type == "fcTL" }.count == 4)
    }

    @Test func aDirectoryGetsOnePNGPerFrame() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let frames = directory.appendingPathComponent("frames").path + "/"
        let result = try animc(["render", "-", "--fps", "4", "-o", frames], input: "let a = animate v.y from 0 to 10 in 1s\n")
        #expect(result.status == 0, "\(result.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        #expect(names == ["frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png"])
        let pattern = directory.appendingPathComponent("shot-%02d.png").path
        let patterned = try animc(["render", "-", "--fps", "2", "-o", pattern], input: "let a = animate v.y from 0 to 10 in 1s\n")
        #expect(patterned.status == 0, "\(patterned.errors)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("shot-01.png").path))
    }

    @Test func standardOutputTakesAGIF() throws {
        let result = try animc(["render", "-", "--fps", "5", "-o", "-"], input: "let a = animate v.x from 0 to 10 in 1s\n")
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("GIF89a"))
    }

    @Test func aClosedPipeIsAnErrorNotACrash() throws {
        let process = Process()
        process.executableURL = MalformedCLITests.binary
        process.arguments = ["render", "examples/choreography.anim", "--scale", "4", "-o", "-"]
        process.currentDirectoryURL = MalformedCLITests.root
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        // Nobody reads standard output: the first write that fills the pipe finds it closed.
        try output.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1)
        #expect(said.contains("error: cannot write standard output"), "\(said)")
    }

    @Test func usageErrorsNameTheirOption() throws {
        let slide = "let slide = animate dot.x from 0 to 100 in 1s\n"
        let missing = try animc(["render", "-"], input: slide)
        #expect(missing.status == 2)
        #expect(missing.errors.contains("render needs -o OUT"))
        let large = try animc(["render", "-", "--size", "9000x10", "-o", "x.gif"], input: slide)
        #expect(large.status == 2)
        #expect(large.errors.contains("--size"), "\(large.errors)")
        let many = try animc(["render", "-", "--fps", "200000", "-o", "x.gif"], input: slide)
        #expect(many.status == 2)
        #expect(many.errors.contains("more than 100000 frames") && many.errors.contains("--fps"), "\(many.errors)")
        let scaled = try animc(["render", "-", "--scale", "500", "-o", "x.gif"], input: slide)
        #expect(scaled.status == 2)
        #expect(scaled.errors.contains("--scale 500 makes a picture of"), "\(scaled.errors)")
        let unknown = try animc(["render", "-", "-o", "x.bmp"], input: slide)
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("cannot tell what to write from -o x.bmp"))
        let forever = try animc(["render", "-", "-o", "x.gif"], input: "let spin = rotate s from 0 to 360 in 1s repeated forever\n")
        #expect(forever.status == 2)
        #expect(forever.errors.contains("repeats forever: render needs --to T"), "\(forever.errors)")
        let both = try animc(["render", "-", "--size", "10x10", "--scale", "2", "-o", "x.gif"], input: slide)
        #expect(both.status == 2)
    }

    @Test func anEndlessAnimationRendersUpToTo() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("spin.gif").path
        let result = try animc(["render", "-", "--to", "0.5", "--fps", "10", "-o", path],
                               input: "let spin = rotate s from 0 to 360 in 1s repeated forever\n")
        #expect(result.status == 0, "\(result.errors)")
        let gif = try #require(Self.gifFrames([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        #expect(gif.frames == 5)
    }

    @Test func aFailedRenderLeavesNoFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A script with an error: nothing is written at all.
        let path = directory.appendingPathComponent("broken.gif").path
        let broken = try animc(["render", "-", "-o", path], input: "let a = animate v.x from 0 to\n")
        #expect(broken.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        // A directory that does not exist: an error naming the file.
        let nowhere = directory.appendingPathComponent("no/such/place.gif").path
        let failed = try animc(["render", "-", "-o", nowhere], input: "let a = animate v.x from 0 to 10 in 1s\n")
        #expect(failed.status == 1)
        #expect(failed.errors.contains(nowhere), "\(failed.errors)")
    }

    @Test func anSVGPlaysItselfAndTakesNoFrameOptions() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("card.svg").path
        let result = try animc(["render", "examples/choreography.anim", "-o", path])
        #expect(result.status == 0, "\(result.errors)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(text.contains("@keyframes"))
        let refused = try animc(["render", "examples/choreography.anim", "--fps", "10", "-o", path])
        #expect(refused.status == 2)
        #expect(refused.errors.contains("--fps"), "\(refused.errors)")
    }

    @Test func aVideoWithoutFFmpegSaysSoAndLeavesNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("card.mp4").path
        let process = Process()
        process.executableURL = MalformedCLITests.binary
        process.arguments = ["render", "examples/choreography.anim", "-o", path]
        process.currentDirectoryURL = MalformedCLITests.root
        // A PATH with nothing on it: no ffmpeg, whatever this machine has.
        process.environment = ["PATH": directory.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(said.contains("cannot write \(path) as mp4: `ffmpeg` is not on PATH"), "\(said)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
