import Foundation
import Animations

/// Options an example asks for in a `# eval: ...` line (`--at`, `--fps`,
/// `--binding`, `--until`; times in seconds, `--until` with an optional `s`).
public struct EvalOptions {
    public var arguments = ""
    public var binding: String?
    public var fps: Int64 = 10
    public var times: [Time]?
    /// `--until T` (seconds, with an optional `s`): an animation that repeats forever needs it.
    public var until: Time?

    public init(directiveIn text: String) {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("# eval:") }) else { return }
        arguments = line.dropFirst("# eval:".count).trimmingCharacters(in: .whitespaces)
        var words = arguments.split(separator: " ")[...]
        while let word = words.popFirst() {
            switch word {
            case "--at":
                times = words.popFirst()?.split(separator: ",").compactMap { Time(decimal: $0) }
            case "--fps":
                fps = words.popFirst().flatMap { Int64($0) } ?? 10
            case "--until":
                until = words.popFirst().flatMap { Time(decimal: $0.hasSuffix("s") ? $0.dropLast() : $0) }
            case "--binding":
                binding = words.popFirst().map(String.init)
            default:
                break
            }
        }
    }
}
