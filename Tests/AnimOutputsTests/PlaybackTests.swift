import Foundation
import Testing
import AnimTestSupport
import Animations
@testable import AnimLang
@testable import AnimOutputs

/// `animc play` without a terminal: the frame renderer (a pure function of
/// the prepared animation, the time and the terminal's size), the clock and
/// the keys. Expected bars, values and escapes are worked out by hand from
/// the definitions in `renderPlayerFrame`'s documentation.
struct PlaybackTests {
    func playback(_ source: String, binding: String? = nil) throws -> Playback {
        let outcome = run(SourceFile(name: "t.anim", text: source), binding: binding)
        #expect(!outcome.hasErrors, "\(outcome.diagnostics)")
        return try #require(try Playback.prepare(outcome))
    }

    func frame(_ playback: Playback, at seconds: String, columns: Int = 80, rows: Int = 24, speed: Double = 1) throws -> PlayerFrame {
        let t = try #require(Time(decimal: seconds))
        return renderPlayerFrame(playback, at: t, header: PlayerHeader(file: "t.anim", speed: speed), columns: columns, rows: rows)
    }

    func line(_ frame: PlayerFrame, startingWith prefix: String) -> FrameLine? {
        frame.lines.first { $0.text.hasPrefix(prefix) }
    }

    // MARK: Bars and values

    /// At 66 columns, `box.x` (5 columns) leaves a 40-column bar: 66 − 5 − 2
    /// − 8 (the widest value, `100.0000`) − 2, less the range column `0 … 100`
    /// (7) and its gap (2). At t = 0.5 of a 2 s tween from 0 to 100 the value
    /// is 25, a quarter of the range: 10 full cells of 40.
    @Test func aTweenAQuarterOfTheWayFillsAQuarterOfItsBar() throws {
        let box = try playback("let a = animate box.x from 0 to 100 in 2s\n")
        let quarter = try frame(box, at: "0.5", columns: 66)
        let bar = String(repeating: "█", count: 10) + String(repeating: "░", count: 30)
        #expect(line(quarter, startingWith: "box.x")?.text == "box.x  " + bar + "   25.0000  0 … 100")
        // The time bar lies under the property bars: 0.5 of 2 s is a quarter too.
        #expect(quarter.lines[1].text == "time   " + bar + "  0.500 / 2.000 s")

        let half = try frame(box, at: "1", columns: 66)
        let halfBar = String(repeating: "█", count: 20) + String(repeating: "░", count: 20)
        #expect(line(half, startingWith: "box.x")?.text == "box.x  " + halfBar + "   50.0000  0 … 100")
        #expect(line(try frame(box, at: "0", columns: 66), startingWith: "box.x")?.text
                == "box.x  " + String(repeating: "░", count: 40) + "    0.0000  0 … 100")
        #expect(line(try frame(box, at: "2", columns: 66), startingWith: "box.x")?.text
                == "box.x  " + String(repeating: "█", count: 40) + "  100.0000  0 … 100")
    }

    /// Fractions of a cell are drawn in eighths: 1/3 of 40 cells is 13⅓
    /// cells, 106.67 eighths, rounded to 107: 13 full cells and a ⅜ block.
    @Test func partialCellsAreEighths() throws {
        let box = try playback("let a = animate box.x from 0 to 3 in 3s\n")
        // Values up to `3.0000` (7 columns, the minimum) and the range `0 … 3`
        // (5): 60 − 5 − 2 − 7 − 2 − 5 − 2 = 37 … so ask for 63 columns for 40.
        let third = try frame(box, at: "1", columns: 63)
        let bar = String(repeating: "█", count: 13) + "▍" + String(repeating: "░", count: 26)
        #expect(line(third, startingWith: "box.x")?.text == "box.x  " + bar + "   1.0000  0 … 3")
    }

    @Test func aColourShowsASwatchOfItselfAndItsHex() throws {
        let button = try playback("view btn color grey\nlet a = color btn from grey to #3366ff in 1s\n")
        let end = try frame(button, at: "1")
        #expect(line(end, startingWith: "btn.color")?.text.hasSuffix("#3366ff") == true)
        #expect(line(end, startingWith: "btn.color")?.spans.contains { $0.style == .swatch(red: 0x33, green: 0x66, blue: 0xFF) } == true)
        #expect(String(decoding: end.terminalBytes(), as: UTF8.self).contains("\u{1B}[48;2;51;102;255m"))
        // Halfway from grey (128, 128, 128): 89.5, 115, 191.5, rounded half away from zero.
        let half = try frame(button, at: "0.5")
        #expect(String(decoding: half.terminalBytes(), as: UTF8.self).contains("\u{1B}[48;2;90;115;192m"))
        #expect(line(half, startingWith: "btn.color")?.text.hasSuffix("#5a73c0") == true)
    }

    @Test func aTranslucentColourIsShownOverBlack() throws {
        let fade = try playback("let a = color v from rgb(200 100 50 / 0) to rgb(200 100 50 / 1) in 1s\n")
        let half = try frame(fade, at: "0.5")
        #expect(line(half, startingWith: "v.color")?.spans.contains { $0.style == .swatch(red: 100, green: 50, blue: 25) } == true)
    }

    /// An event fires at 1 s; it is highlighted while it fired within the
    /// last half second of wall time (`0.5 × speed` of animation time), and
    /// stays in the log after.
    @Test func eventsFlashThenStayInTheLog() throws {
        let landing = try playback("let a = animate v.y from 0 to 1 in 1s ; emit land ; wait 2s\n")
        func highlighted(_ frame: PlayerFrame) -> Bool {
            line(frame, startingWith: "events")?.spans.contains { $0.style == .highlight && $0.text.contains("land") } ?? false
        }
        func logged(_ frame: PlayerFrame) -> String? {
            line(frame, startingWith: "log")?.text
        }
        #expect(!highlighted(try frame(landing, at: "0.9")))
        #expect(logged(try frame(landing, at: "0.9")) == "log     —")
        #expect(highlighted(try frame(landing, at: "1")))
        #expect(highlighted(try frame(landing, at: "1.4")))
        #expect(!highlighted(try frame(landing, at: "1.5")))
        #expect(logged(try frame(landing, at: "1.5")) == "log     1.000 land")
        #expect(line(try frame(landing, at: "1.5"), startingWith: "events")?.text.contains("land") == true)
        // At twice the speed, half a second of wall time is a second of the animation.
        #expect(highlighted(try frame(landing, at: "1.9", speed: 2)))
        #expect(!highlighted(try frame(landing, at: "2", speed: 2)))
    }

    @Test func theLogKeepsTheLastFiringsOldestFirst() throws {
        let ticks = try playback("let a = (wait 1s ; emit tick) ^ 5 ; emit done\n")
        #expect(ticks.recentFirings(at: Time(3), count: 2).map { "\($0.name)@\($0.time)" } == ["tick@2", "tick@3"])
        #expect(ticks.recentFirings(at: Time(5), count: 3).map { "\($0.name)@\($0.time)" } == ["tick@4", "tick@5", "done@5"])   // the last tick, then `; emit done`
        #expect(ticks.recentFirings(at: Time(numerator: 1, denominator: 2) ?? .zero, count: 3).isEmpty)
    }

    /// A repetition without end lists no firings: the log finds them by
    /// bisection. The spin starts at 0.5 s and ticks at the end of each 1 s turn.
    @Test func theLogOfAnEndlessRepetition() throws {
        let spin = try playback("let s = (rotate dial from 0 to 360 in 1s ; emit tick) repeated forever\nlet a = fadeIn dial in 0.5s ; s\n")
        #expect(spin.isInfinite && spin.firings == nil)
        let recent = spin.recentFirings(at: try #require(Time(decimal: "5.2")), count: 3)
        #expect(recent.map(\.name) == ["tick", "tick", "tick"])
        let times = recent.map(\.time.seconds)
        #expect(times.count == 3 && zip(times, [2.5, 3.5, 4.5]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
        #expect(line(try frame(spin, at: "5.2"), startingWith: "log")?.text == "log     1.500 tick · 2.500 tick · 3.500 tick · 4.500 tick")
        #expect(try frame(spin, at: "5.2").lines[1].text.hasSuffix("  5.200 s / forever"))
    }

    // MARK: The same values as `animc eval`

    @Test(arguments: ["choreography.anim", "talk.anim", "jumps.anim", "holds-and-fills.anim"])
    func valuesAreEvalsValues(_ example: String) throws {
        let url = packageRoot.appendingPathComponent("examples").appendingPathComponent(example)
        let file = SourceFile(name: example, bytes: Array(try Data(contentsOf: url)))
        let outcome = run(file)
        let played = try #require(try Playback.prepare(outcome))
        let times = ["0", "0.3", "0.75", "1", "1.25", "2.1"].compactMap { Time(decimal: $0) }
        let table = evaluateToText(file, at: times, format: .table).output.split(separator: "\n").map { $0.split(separator: " ") }
        let header = try #require(table.first)
        for (row, t) in zip(table.dropFirst(), times) {
            // A frame wide enough for every name and value, tall enough for every row.
            let frame = renderPlayerFrame(played, at: t, header: PlayerHeader(file: example), columns: 200, rows: 60)
            for (name, cell) in zip(header.dropFirst(), row.dropFirst()) where name != "events" {
                let shown = line(frame, startingWith: String(name) + " ")
                let value = shown?.text.split(separator: " ").first { $0 == cell }
                #expect(value != nil, "\(example) at \(t): \(name) should show \(cell): \(shown?.text ?? "no row")")
            }
        }
    }

    // MARK: Layout

    static let crowded = """
        view averyveryverylongviewnamethatgoesonandon x 0
        let a = animate averyveryverylongviewnamethatgoesonandon.x from -1000000 to 1000000 in 2s
             || color btn from grey to #3366ff in 1s || fadeIn card in 1s ; emit land ; emit a-rather-long-event-name
        """

    @Test(arguments: [1, 5, 10, 20, 40, 80, 200])
    func noLineIsWiderThanTheTerminal(_ columns: Int) throws {
        let crowded = try playback(Self.crowded)
        for rows in [1, 3, 6, 12, 30] {
            for t in ["0", "0.5", "1", "2"] {
                let shown = try frame(crowded, at: t, columns: columns, rows: rows)
                #expect(shown.lines.count <= rows)
                for line in shown.lines {
                    #expect(line.text.count <= columns, "\(columns)×\(rows) at \(t): \(line.text)")
                    #expect(line.length == line.text.count)
                    #expect(!line.text.contains("\n"))
                }
            }
        }
    }

    @Test func longNamesAreCutNotWrapped() throws {
        let crowded = try playback(Self.crowded)
        for columns in [20, 40, 80] {
            let shown = try frame(crowded, at: "1", columns: columns, rows: 24)
            // At 20 columns the name keeps 5 (20 − 13 for `-1000000.0000` − 2).
            let long = try #require(shown.lines.first { $0.text.hasPrefix("aver") }, "\(columns): \(shown.text)")
            #expect(long.text.contains("…"))
            #expect(!long.text.contains("goesonandon.x"))
            // One row per property: the name did not spill into a second line.
            #expect(shown.lines.filter { $0.text.hasPrefix("aver") }.count == 1)
            #expect(long.text.hasSuffix("0.0000") || long.text.contains("0.0000 "))
        }
        // Where there is room, the whole name.
        let wide = try frame(crowded, at: "1", columns: 200, rows: 24)
        #expect(wide.lines.contains { $0.text.hasPrefix("averyveryverylongviewnamethatgoesonandon.x ") })
    }

    /// Without room for bars, a colour keeps a small swatch before its hex:
    /// at 20 columns, values take 8 (`100.0000`), the swatch 2 and a space,
    /// the gap 2, which leaves 7 for names.
    @Test func narrowTerminalsKeepValuesAndSwatches() throws {
        let button = try playback("view btn color grey\nlet a = color btn from grey to #3366ff in 1s || animate btn.x from 0 to 100 in 1s\n")
        let narrow = try frame(button, at: "1", columns: 20, rows: 8)
        #expect(line(narrow, startingWith: "btn.co")?.text == "btn.co…" + "  " + "  " + " " + " #3366ff")
        #expect(line(narrow, startingWith: "btn.co")?.spans.contains { $0.style == .swatch(red: 0x33, green: 0x66, blue: 0xFF) } == true)
        #expect(line(narrow, startingWith: "btn.x")?.text == "btn.x  " + "  " + "   " + "100.0000")
    }

    @Test func aShortTerminalHidesRowsAndSaysHowMany() throws {
        let many = try playback((1...10).map { "let p\($0) = animate v.p\($0) from 0 to 1" }.joined(separator: "\n")
                                + "\nlet a = " + (1...10).map { "p\($0)" }.joined(separator: " || ") + "\n")
        let short = try frame(many, at: "0.5", rows: 8)
        #expect(short.lines.count <= 8)
        // Header, time, five properties, and the line that counts the rest.
        #expect(short.lines.filter { $0.text.hasPrefix("v.p") }.count == 5)
        #expect(short.lines.last?.text.hasPrefix("… 5 more") == true)
        let tall = try frame(many, at: "0.5", rows: 40)
        #expect(tall.lines.filter { $0.text.hasPrefix("v.p") }.count == 10)
        #expect(tall.lines.count == 40)
        #expect(tall.lines.last?.text.contains("q quit") == true)
    }

    @Test func theHeaderSaysWhatPlays() throws {
        let box = try playback("let final = animate box.x from 0 to 100 in 2s\n")
        let t = Time(1)
        let playing = renderPlayerFrame(box, at: t, header: PlayerHeader(file: "box.anim", speed: 0.5), columns: 80, rows: 10)
        #expect(playing.lines[0].text == "▶ playing  box.anim · final · speed 0.5×")
        let paused = renderPlayerFrame(box, at: t, header: PlayerHeader(file: "box.anim", state: .paused, loops: true),
                                       columns: 80, rows: 10)
        #expect(paused.lines[0].text == "‖ paused  box.anim · final · speed 1× · loop")
        // A file name is shown, never obeyed: control characters become `?`.
        let hostile = renderPlayerFrame(box, at: t, header: PlayerHeader(file: "a\u{1B}[2Jb.anim"), columns: 80, rows: 10)
        #expect(hostile.lines[0].text.hasPrefix("▶ playing  a?[2Jb.anim"))
        #expect(!String(decoding: hostile.terminalBytes(), as: UTF8.self).contains("\u{1B}[2J"))
    }

    @Test func terminalBytesPlaceEveryLine() throws {
        let box = try playback("let a = animate box.x from 0 to 100 in 2s\n")
        let shown = try frame(box, at: "1", columns: 40, rows: 6)
        let bytes = String(decoding: shown.terminalBytes(), as: UTF8.self)
        for row in 1...shown.lines.count {
            #expect(bytes.contains("\u{1B}[\(row);1H"))
        }
        #expect(!bytes.contains("\n"))
    }

    @Test func aCancelledAnimationHasNothingToPlay() throws {
        let outcome = run(SourceFile(name: "t.anim", text: "let a = animate v.x from 0 to 1 ; zero\n"))
        #expect(try Playback.prepare(outcome) == nil)
    }

    // MARK: The clock

    static let second: Int64 = 1_000_000_000

    @Test func theClockPlaysAtItsSpeed() {
        let clock = PlayerClock(duration: Time(2), speed: 0.5, startingAt: 7 * Self.second)
        #expect(clock.time(at: 7 * Self.second) == .zero)
        #expect(clock.time(at: 8 * Self.second) == Time(numerator: 1, denominator: 2))
        // Whole milliseconds of animation time: 3.456789 ms at half speed is 1.73 ms, so 1 ms.
        #expect(clock.time(at: 7 * Self.second + 3_456_789) == Time(numerator: 1, denominator: 1000))
        // A finite animation stops at its end.
        #expect(clock.time(at: 20 * Self.second) == Time(2))
        #expect(clock.state(at: 20 * Self.second) == .ended)
        #expect(clock.state(at: 8 * Self.second) == .playing)
    }

    @Test func pauseHoldsAndSeeksLandOnTenths() {
        var clock = PlayerClock(duration: Time(2), speed: 1, startingAt: 0)
        clock.togglePause(at: Self.second / 2)
        #expect(clock.time(at: 5 * Self.second) == Time(numerator: 1, denominator: 2))
        #expect(clock.state(at: 5 * Self.second) == .paused)
        clock.seek(by: PlayerClock.seekStep, at: 5 * Self.second)
        clock.seek(by: PlayerClock.seekStep, at: 5 * Self.second)
        #expect(clock.time(at: 6 * Self.second) == Time(numerator: 7, denominator: 10))
        clock.togglePause(at: 6 * Self.second)
        #expect(clock.time(at: 6 * Self.second + Self.second / 10) == Time(numerator: 8, denominator: 10))
        // Seeks stay within the animation.
        for _ in 0..<30 { clock.seek(by: PlayerClock.seekStep, at: 7 * Self.second) }
        #expect(clock.time(at: 7 * Self.second) == Time(2))
        for _ in 0..<30 { clock.seek(by: Time(numerator: -1, denominator: 10) ?? .zero, at: 7 * Self.second) }
        #expect(clock.time(at: 7 * Self.second) == .zero)
        clock.seek(by: Time(1), at: 7 * Self.second)
        clock.restart(at: 8 * Self.second)
        #expect(clock.time(at: 8 * Self.second) == .zero)
    }

    /// From a time between tenths (1.101 s, 1101 ms after the start), a seek
    /// lands on the next tenth (1.2), not a tenth later (1.201); back, on the
    /// tenth before (1.1), and from a tenth, on the one before that.
    @Test func seeksFromBetweenTenthsLandOnTenths() {
        var clock = PlayerClock(duration: Time(3), speed: 1, startingAt: 0)
        let now = 1_101_000_000 as Int64
        #expect(clock.time(at: now) == Time(numerator: 1101, denominator: 1000))
        clock.seek(by: PlayerClock.seekStep, at: now)
        #expect(clock.time(at: now) == Time(numerator: 12, denominator: 10))
        var back = PlayerClock(duration: Time(3), speed: 1, startingAt: 0)
        back.seek(by: Time(numerator: -1, denominator: 10) ?? .zero, at: now)
        #expect(back.time(at: now) == Time(numerator: 11, denominator: 10))
        back.seek(by: Time(numerator: -1, denominator: 10) ?? .zero, at: now)
        #expect(back.time(at: now) == Time(1))
    }

    @Test func spaceAtTheEndPlaysAgain() {
        var clock = PlayerClock(duration: Time(1), speed: 1, startingAt: 0)
        #expect(clock.state(at: 3 * Self.second) == .ended)
        clock.togglePause(at: 3 * Self.second)
        #expect(clock.state(at: 3 * Self.second) == .playing)
        #expect(clock.time(at: 3 * Self.second + Self.second / 4) == Time(numerator: 1, denominator: 4))
    }

    @Test func loopingStartsAgainAndEndlessNeverEnds() {
        let looping = PlayerClock(duration: Time(numerator: 3, denominator: 2) ?? .one, speed: 1, loops: true, startingAt: 0)
        #expect(looping.time(at: 2 * Self.second) == Time(numerator: 1, denominator: 2))
        #expect(looping.time(at: 3 * Self.second + Self.second / 10) == Time(numerator: 1, denominator: 10))
        #expect(looping.state(at: 100 * Self.second) == .playing)
        let endless = PlayerClock(duration: Time(1), isInfinite: true, speed: 2, startingAt: 0)
        #expect(endless.time(at: 50 * Self.second) == Time(100))
        #expect(endless.state(at: 50 * Self.second) == .playing)
        // An instant animation that loops stays at its only frame.
        let instant = PlayerClock(duration: .zero, speed: 1, loops: true, startingAt: 0)
        #expect(instant.time(at: 5 * Self.second) == .zero)
    }

    @Test func remaindersAreExact() {
        let third = Time(numerator: 1, denominator: 3) ?? .one
        #expect(remainder(Time(numerator: 7, denominator: 6) ?? .one, dividingBy: third) == Time(numerator: 1, denominator: 6))
        #expect(remainder(Time(5), dividingBy: Time(numerator: 5, denominator: 2) ?? .one) == .zero)
        #expect(remainder(Time(numerator: Int64.max, denominator: 1) ?? .one, dividingBy: Time(numerator: 1, denominator: Int64.max) ?? .one)
                == .zero)
    }

    // MARK: Keys

    @Test func keysAreDecoded() {
        #expect(decodePlayerKeys(Array(" \u{1B}[Cq".utf8)) == [.togglePause, .forward, .quit])
        #expect(decodePlayerKeys(Array("\u{1B}[D\u{1B}OC\u{1B}OD".utf8)) == [.backward, .forward, .backward])
        #expect(decodePlayerKeys(Array("hl,.0".utf8)) == [.backward, .forward, .backward, .forward, .start])
        #expect(decodePlayerKeys(Array("\u{1B}[H\u{1B}OH\u{1B}[1~\u{1B}[7~".utf8)) == [.start, .start, .start, .start])
        #expect(decodePlayerKeys([0x03]) == [.quit])
        // Other sequences are skipped whole (F5, a lone Escape); a modified arrow (Shift-→) is still an arrow.
        #expect(decodePlayerKeys(Array("\u{1B}[15~\u{1B}[1;2Cx\u{1B}".utf8)) == [.forward])
    }
}
