// A Linux program that embeds animc the way an app does (README, "In a Swift
// app"): it loads a `.anim` file at run time, takes its last binding and
// plays it from a manual clock, four frames a second, printing each frame's
// values and the events that fired since the frame before. An animation that
// repeats forever is played for its first 3 seconds. The tests run it
// (`EmbedExampleTests`) and check what it prints.
//
//     swift run animc-embed-example examples/landing-events.anim

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AnimLang
import Animations

let path = CommandLine.arguments.dropFirst().first ?? "examples/landing-events.anim"
let document = Document(contentsOf: path)
let animation: Document.Animation
do {
    animation = try document.animation()
} catch {
    // The diagnostics as animc prints them: `FILE:LINE:COL: error: …`, the line, a caret, a hint.
    var text = error.rendered
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(1)
}

// The clock: a quarter of a second per frame, driven by hand (an app would
// pass a display link's elapsed seconds to `advance(bySeconds:)`).
let step = Time(numerator: 1, denominator: 4) ?? .one
var player = Player(animation, until: animation.isInfinite ? Time(3) : nil) { frame in
    var line = "\(frame.time)s"
    for column in animation.columns {
        line += "  \(column)=\(frame.values[column]?.description ?? "-")"
    }
    if !frame.events.isEmpty { line += "  events: " + frame.events.map(\.description).joined(separator: " ") }
    print(line)
}
print("playing `\(animation.binding)` of \(path) for \(player.end.map { "\($0)s" } ?? "ever")")
player.advance(by: .zero)
while !player.isFinished { player.advance(by: step) }
