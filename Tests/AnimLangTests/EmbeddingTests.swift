import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// The Swift embedding API (`Document`, `Document.Animation`, `Player`): an
/// app's view of a `.anim` file. Every frame a player shows is compared with
/// the row `animc eval` prints at that time (its CSV, lossless), and the
/// events it hands out with eval's events column.
struct EmbeddingTests {
    /// The examples played frame by frame: events, colours, staggers, ties of
    /// loops, holds, springs, steps.
    static let played = ["landing-events.anim", "choreography.anim", "staggered-list.anim", "color-pulse.anim", "talk.anim",
                         "toast.anim", "button-press.anim", "jumps.anim", "holds-and-fills.anim", "bouncing-card.anim"]

    static func path(_ name: String) -> String { packageRoot.appendingPathComponent("examples/" + name).path }

    static func time(_ numerator: Int64, _ denominator: Int64) -> Time {
        Time(numerator: numerator, denominator: denominator) ?? .zero
    }

    /// eval's CSV as rows of (time, cells by column name, events cell).
    static func evalRows(_ file: SourceFile, binding: String? = nil, fps: Int64, until: Time? = nil)
        -> [(time: String, cells: [String: String], events: String)] {
        let result = evaluateToText(file, binding: binding, fps: fps, until: until, format: .csv)
        #expect(result.succeeded, "\(result.diagnostics)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        guard let header = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
        let hasEvents = header.last == "events"
        let columns = Array(header.dropFirst().dropLast(hasEvents ? 1 : 0))
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let values = Dictionary(uniqueKeysWithValues: zip(columns, cells.dropFirst()))
            return (cells[0], values, hasEvents ? cells.last ?? "" : "")
        }
    }

    /// A value as eval's CSV writes it (lossless: shortest round trip, so equal text is equal bits).
    static func csv(_ value: Value) -> String {
        var bytes: [UInt8] = []
        value.write(.lossless, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A time as eval's CSV writes it (exact decimal).
    static func csv(_ time: Time) -> String {
        time.denominator == 1 ? String(time.numerator) : time.decimalDescription ?? "\(time.seconds)"
    }

    /// Plays `animation` through a manual clock at `fps` frames a second and
    /// checks every frame (time, every value, the events) against eval's row.
    static func expectFramesMatchEval(_ file: SourceFile, binding: String? = nil, fps: Int64, until: Time? = nil,
                                      speed: Double = 1) throws {
        let rows = evalRows(file, binding: binding, fps: fps, until: until)
        let animation = try Document(file: file).animation(named: binding)
        var heard: [Player.Frame] = []
        var player = Player(animation, speed: speed, until: until) { heard.append($0) }
        // The wall step: one eval row per frame at this speed.
        let step = Time(seconds: 1 / (Double(fps) * speed)) ?? .one
        var frames = [player.advance(by: .zero)]
        while !player.isFinished, frames.count <= rows.count { frames.append(player.advance(by: step)) }
        #expect(heard.map(\.time) == frames.map(\.time), "onFrame is called with each frame")
        #expect(frames.count == rows.count, "\(file.name): \(frames.count) frames, \(rows.count) rows")
        for (frame, row) in zip(frames, rows) {
            #expect(csv(frame.time) == row.time, "\(file.name)")
            #expect(Set(frame.values.keys) == Set(row.cells.keys))
            for (column, cell) in row.cells {
                #expect(frame.values[column].map { Self.csv($0) } == cell, "\(file.name) \(column) at \(row.time)")
            }
            #expect(frame.events.map(\.description).joined(separator: " ") == row.events, "\(file.name) at \(row.time)")
        }
    }

    @Test(arguments: played)
    func everyFrameIsEvalsRow(_ name: String) throws {
        let document = Document(contentsOf: Self.path(name))
        #expect(!document.hasErrors, "\(document.renderedDiagnostics)")
        try Self.expectFramesMatchEval(document.file, fps: 20)
    }

    @Test func aFasterPlayerShowsEvalsRowsAtItsTimes() throws {
        // At speed 2, a wall step of 1/20 s plays 1/10 s: eval's rows at 10 fps.
        try Self.expectFramesMatchEval(Document(contentsOf: Self.path("landing-events.anim")).file, fps: 10, speed: 2)
    }

    @Test func valuesAndEventsAreEvalsAtAnyTime() throws {
        let fall = try Document(source: """
            view ball y 0
            let fall = animate ball.y from 0 to 300 in 500ms with ease-in-quad ; emit landed
            """, name: "fall.anim").animation()
        // 300 · (1/2)² at a quarter second; the event at the end.
        #expect(fall.values(at: Self.time(1, 4)) == ["ball.y": .number(75)])
        #expect(fall.values(atSeconds: 0.5) == ["ball.y": .number(300)])
        #expect(fall.values(atSeconds: .nan) == nil)
        #expect(fall.columns == ["ball.y"])
        #expect(fall.duration == Self.time(1, 2))
        #expect(fall.events(after: nil, through: Time(1)).map(\.description) == ["landed"])
        #expect(fall.events(after: Self.time(1, 2), through: Time(1)).isEmpty)
        // Chosen instants, as `eval --at` prints them.
        let file = Document(contentsOf: Self.path("talk.anim")).file
        let times = [Self.time(0, 1), Self.time(5, 4), Self.time(7, 3), Time(3)]
        let text = evaluateToText(file, at: times, format: .csv).output.split(separator: "\n").map(String.init)
        let talk = try Document(file: file).animation()
        for (t, line) in zip(times, text.dropFirst()) {
            #expect(([Self.csv(t)] + talk.row(at: t).map(Self.csv)).joined(separator: ",") == line)
        }
    }

    @Test func diagnosticsAreValues() {
        let source = "let a = fadeIn x with ease-inout\nlet b = c\n"
        let document = Document(source: source, name: "broken.anim")
        #expect(document.hasErrors)
        #expect(document.diagnostics.map(\.id) == ["unknown-easing", "unknown-name"])
        #expect(document.diagnostics.map { document.file.location(of: $0.range.start) }.map { "\($0.line):\($0.column)" }
                == ["1:23", "2:9"])
        // Rendered as animc prints them.
        let printed = evaluateToText(SourceFile(name: "broken.anim", text: source)).diagnostics
        #expect(document.renderedDiagnostics == printed)
        #expect(document.renderedDiagnostics.hasPrefix("broken.anim:1:23: error: unknown easing `ease-inout`\n"))
        #expect(document.bindingNames == ["a", "b"])
        do {
            _ = try document.animation()
            Issue.record("a file with errors gives no animation")
        } catch {
            #expect(error.diagnostics == document.diagnostics)
            #expect(error.rendered == printed)
        }
        // A warning is no error: the animation comes with it.
        let warned = Document(source: "let a = rotate square from 0 to 2*pi degrees\n", name: "w.anim")
        #expect(!warned.hasErrors)
        #expect(warned.renderedDiagnostics.contains("w.anim:1:33: warning: `2*pi` degrees is 6.283 degrees"))
        #expect((try? warned.animation())?.warnings.count == 1)
    }

    @Test func anUnreadableFileIsADiagnostic() {
        let document = Document(contentsOf: "no/such/file.anim")
        #expect(document.hasErrors)
        #expect(document.diagnostics.map(\.id) == ["unreadable-file"])
        #expect(document.renderedDiagnostics == "no/such/file.anim: error: cannot read no/such/file.anim: No such file or directory\n")
        #expect(throws: Document.Failure.self) { try document.animation() }
    }

    @Test func bindingsByName() throws {
        let document = Document(contentsOf: Self.path("laws.anim"))
        #expect(document.bindingNames.first == "grow")
        // As `animc eval examples/laws.anim --binding fade --at 0.5,1` prints it: 0.5, then 0.
        let fade = try document.animation(named: "fade")
        #expect(fade.binding == "fade")
        #expect(fade.values(at: Self.time(1, 2)) == ["ball.opacity": .number(0.5)])
        #expect(fade.values(at: Time(1)) == ["ball.opacity": .number(0)])
        #expect(try document.animation().binding == document.bindingNames.last)
        try Self.expectFramesMatchEval(document.file, binding: "distributed", fps: 20)
        do {
            _ = try document.animation(named: "fdae")
            Issue.record("no binding `fdae`")
        } catch {
            #expect(error.diagnostics.map(\.id) == ["unknown-binding"])
            #expect(error.rendered.hasPrefix("\(document.file.name): error: no binding named `fdae` in \(document.file.name)\n"))
            #expect(error.diagnostics.first?.hint?.contains("`fade`") == true)
        }
    }

    @Test func aCancelledAnimationHasNothingToPlay() throws {
        let cancelled = try Document(contentsOf: Self.path("cancelled.anim")).animation()
        #expect(cancelled.isCancelled)
        #expect(cancelled.columns.isEmpty && cancelled.values(at: Time(1)).isEmpty)
        var player = Player(cancelled)
        #expect(player.advance(by: Time(1)).values.isEmpty)
        #expect(player.isFinished)
    }

    /// The spinner repeats forever; its `lap` fires at 0, 1.5, 3, … .
    @Test func anEndlessAnimationFiresEveryPeriod() throws {
        let file = Document(contentsOf: Self.path("spinner.anim")).file
        let spinner = try Document(file: file).animation()
        #expect(spinner.isInfinite)
        // With an end, as `eval --until 3s`: every frame is eval's row, and it finishes.
        try Self.expectFramesMatchEval(file, fps: 20, until: Time(3))
        var fired: [Time] = []
        var player = Player(spinner, until: Time(3)) { frame in
            if frame.events.contains(where: { $0.name == "lap" }) { fired.append(frame.time) }
        }
        player.advance(by: .zero)
        while !player.isFinished { player.advance(by: Self.time(1, 10)) }
        #expect(fired == [.zero, Self.time(3, 2), Time(3)])
        #expect(player.time == Time(3))
        // Without an end it never finishes; one long frame counts every lap it passed:
        // (0, 999.9] holds the laps at 1.5, 3, …, 999 (666 of them).
        var endless = Player(spinner)
        #expect(endless.end == nil)
        #expect(endless.advance(by: .zero).events.map(\.description) == ["lap"])
        let long = endless.advance(by: Self.time(9999, 10))
        #expect(long.time == Self.time(9999, 10))
        #expect(long.events.map(\.description) == ["lap×666"])
        #expect(!endless.isFinished)
        // A display link's seconds: 1.6 s later, the lap at 1000.5.
        #expect(endless.advance(bySeconds: 1.6).events.map(\.description) == ["lap"])
        #expect(endless.time == Self.time(10015, 10))
    }

    /// landing-events: `landed` at 0.5, 0.9 and 1.3, `settled` at 1.3 (the end).
    @Test func seekingFiresNothing() throws {
        let animation = try Document(contentsOf: Self.path("landing-events.anim")).animation()
        var heard: [(Time, String)] = []
        var player = Player(animation) { frame in
            heard.append((frame.time, frame.events.map(\.description).joined(separator: " ")))
        }
        player.advance(by: Self.time(1, 4))
        let seek = player.seek(to: Time(1))                     // over both early landings
        #expect(seek.time == Time(1) && seek.events.isEmpty)
        #expect(seek.values == animation.values(at: Time(1)))
        player.advance(by: Self.time(1, 4))                      // 1.25: nothing passed since 1
        player.advance(by: Self.time(1, 4))                      // the end, 1.3
        #expect(player.isFinished)
        player.seek(to: Self.time(9, 10))                        // onto a landing: still nothing
        player.advance(by: Self.time(1, 10))                     // 1.0
        player.seek(to: Self.time(-1, 1))                        // before the start: 0
        player.seek(to: Time(5))                                 // after the end: 1.3
        #expect(heard.map(\.0) == [Self.time(1, 4), Time(1), Self.time(5, 4), Self.time(13, 10), Self.time(9, 10), Time(1), .zero,
                                    Self.time(13, 10)])
        #expect(heard.map(\.1) == ["", "", "", "landed settled", "", "", "", ""])
        // Restarting is as new: the first frame fires what lies at 0 (nothing here), then the landings again.
        player.restart()
        #expect(player.advance(by: Self.time(1, 2)).events.map(\.description) == ["landed"])
    }

    @Test func loopingFiresEachPass() throws {
        let animation = try Document(contentsOf: Self.path("landing-events.anim")).animation()
        var player = Player(animation, loops: true)
        var events: [String] = []
        var times: [Time] = []
        for _ in 0..<9 {
            let frame = player.advance(by: Self.time(1, 4))
            times.append(frame.time)
            events.append(frame.events.map(\.description).joined(separator: " "))
        }
        // Wall 0.25 … 2.25; past 1.3 the pass starts again (1.5 → 0.2).
        #expect(times == [Self.time(1, 4), Self.time(1, 2), Self.time(3, 4), Time(1), Self.time(5, 4), Self.time(1, 5),
                          Self.time(9, 20), Self.time(7, 10), Self.time(19, 20)])
        #expect(events == ["", "landed", "", "landed", "", "landed settled", "", "landed", "landed"])
        #expect(!player.isFinished)
        // Ten whole passes in one frame (13 s from 0.95): the rest of this pass (landed at 1.3, settled),
        // nine whole ones (3 landings and settled each) and the start of the next up to 0.95 (landed at 0.5, 0.9).
        let long = player.advance(by: Time(13))
        #expect(long.time == Self.time(19, 20))
        #expect(long.events.map(\.description) == ["landed×30", "settled×10"])
        // Paused, the clock moves nothing.
        player.isPaused = true
        #expect(player.advance(by: Time(1)).time == Self.time(19, 20))
        player.isPaused = false
        player.loops = false
        player.speed = 2
        #expect(player.advance(by: Self.time(1, 10)).time == Self.time(23, 20))
        #expect(player.speed == 2 && !player.loops)
        #expect(player.advance(by: Time(1)).events.map(\.description) == ["landed", "settled"])
        #expect(player.isFinished)
    }

    @Test func playersNeverTrap() throws {
        let animation = try Document(contentsOf: Self.path("landing-events.anim")).animation()
        var player = Player(animation, speed: .nan, loops: true)
        #expect(player.speed == 1)
        for seconds in [Double.nan, .infinity, -1, 1e300, 0.1] { player.advance(bySeconds: seconds) }
        for step in [Time(Int64.max), Time(numerator: 1, denominator: Int64.max) ?? .one, Time(numerator: 1, denominator: 7919) ?? .one] {
            player.advance(by: step)
        }
        player.seek(to: Time(Int64.min))
        #expect(player.time == .zero)
    }
}
