import Foundation
import Testing

/// `animc fmt`: in place, `--check`, standard input, and files with errors left byte for byte.
struct FmtCommandTests {
    typealias Result = MalformedCLITests.Result

    func animc(_ arguments: [String], input: String? = nil) throws -> Result {
        try MalformedCLITests.animc(arguments, input: input.map { Data($0.utf8) })
    }

    func scratch(_ name: String, _ text: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("animc-fmt-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func standardInputToStandardOutput() throws {
        let result = try animc(["fmt", "-"], input: "let a=wait 1s;wait 2s # why\n")
        #expect(result.status == 0)
        #expect(result.output == "let a = wait 1s ; wait 2s # why\n")
    }

    @Test func inPlaceAndCheck() throws {
        let messy = try scratch("messy.anim", "let a=wait 1s\n")
        let tidy = try scratch("tidy.anim", "let a = wait 1s\n")
        let check = try animc(["fmt", "--check", messy.path, tidy.path])
        #expect(check.status == 1)
        #expect(check.output == "\(messy.path) would be reformatted\n")
        #expect(try String(contentsOf: messy, encoding: .utf8) == "let a=wait 1s\n")   // --check writes nothing
        let format = try animc(["fmt", messy.path, tidy.path])
        #expect(format.status == 0)
        #expect(try String(contentsOf: messy, encoding: .utf8) == "let a = wait 1s\n")
        #expect(try animc(["fmt", "--check", messy.path, tidy.path]).status == 0)
    }

    @Test func aFileWithErrorsIsLeftByteForByte() throws {
        let text = "let a  =  grow c from 1 to\n# note\nlet b=a\n"
        let broken = try scratch("broken.anim", text)
        let result = try animc(["fmt", broken.path])
        #expect(result.status == 1)
        #expect(result.errors.contains("error: expected"))
        #expect(result.errors.contains("broken.anim is left as it is"))
        #expect(try Data(contentsOf: broken) == Data(text.utf8))
        // From standard input, the text comes back unchanged.
        let piped = try animc(["fmt", "-"], input: text)
        #expect(piped.status == 1)
        #expect(piped.output == text)
    }

    @Test func everyMalformedCorpusFileIsLeftAlone() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AnimLangTests/Golden/malformed")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".anim") }.sorted()
        #expect(names.count > 20)
        for name in names.prefix(40) {
            let original = try Data(contentsOf: directory.appendingPathComponent(name))
            let copy = try scratch(name, "")
            try original.write(to: copy)
            let result = try animc(["fmt", copy.path])
            #expect(try Data(contentsOf: copy) == original || result.status == 0, "\(name)")
            if result.status != 0 { #expect(result.errors.contains("is left as it is"), "\(name)") }
        }
    }
}
