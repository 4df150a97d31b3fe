import Foundation
import Testing

/// A dependency-free snapshot helper: the expected text lives in a file under
/// the `Golden/` folder beside the calling test file (`Tests/AnimLangTests/Golden/`,
/// `Tests/AnimOutputsTests/Golden/`); set `ANIMC_RECORD=1` to (re)write it from
/// the actual output. A mismatch reports the first differing lines.
public func expectMatchesGolden(_ actual: String, _ name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden").appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["ANIMC_RECORD"] != nil {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            try actual.write(to: url, atomically: true, encoding: .utf8)
        } catch {
            Issue.record("could not record \(name): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("missing golden file \(name); run `ANIMC_RECORD=1 swift test` to record it", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        Issue.record("\(name) differs from its golden file:\n\(lineDiff(expected: expected, actual: actual))",
                     sourceLocation: sourceLocation)
    }
}

/// Every file in `examples/`, by name (`talk.anim`), sorted.
public let exampleFiles: [String] = {
    let directory = packageRoot.appendingPathComponent("examples")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".anim") }.sorted()
}()

/// The package's folder (examples, sources, checks are read from it).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The first few differing lines, `-` expected and `+` actual, with line numbers.
public func lineDiff(expected: String, actual: String, limit: Int = 8) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    for index in 0..<max(old.count, new.count) where out.count < limit * 2 {
        let a = index < old.count ? String(old[index]) : nil
        let b = index < new.count ? String(new[index]) : nil
        if a != b {
            if let a { out.append("\(index + 1) - \(a)") }
            if let b { out.append("\(index + 1) + \(b)") }
        }
    }
    return out.joined(separator: "\n")
}
