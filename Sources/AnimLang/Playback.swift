import Animations

/// An animation prepared for `animc play`: what a live player needs besides
/// the clock. Values come from the same ``RowSampler`` `animc eval` prints
/// its table with, and events from ``CompiledScene/events(after:through:)``,
/// so a frame at time `t` shows the row `eval --at t` prints. Each number
/// column also knows its range over the whole animation (sampled once, here),
/// which the frame's bars are drawn against.
///
/// ```swift
/// let outcome = run(SourceFile(name: "card.anim", text: source))
/// guard let playback = try Playback.prepare(outcome) else { return }   // nil: cancelled
/// let frame = renderPlayerFrame(playback, at: Time(1), header: header, columns: 80, rows: 24)
/// ```
public struct Playback: Sendable {
    /// The binding played.
    public let binding: String
    public let compiled: CompiledScene
    /// The table's columns (every animated or declared `view.property`, sorted).
    public let columns: [Property]
    /// The range of each number column over the animation (`nil` for colours
    /// and for columns with no finite value).
    public let ranges: [ClosedRange<Double>?]
    /// Every event name, sorted.
    public let eventNames: [String]
    /// Every firing with its time, sorted; `nil` when the animation repeats
    /// forever or fires more than ``eventListLimit`` times (the log then asks
    /// the scene for a recent window instead).
    public let firings: [PlacedEvent]?
    /// For an animation that repeats forever, the time its ranges were
    /// sampled up to (the finite part and two periods of the longest endless
    /// repetition); the time bar repeats its last stretch after it.
    public let span: Time
    let sampler: RowSampler

    public var duration: Time { compiled.duration }
    public var isInfinite: Bool { compiled.isInfinite }
    public var hasEvents: Bool { !eventNames.isEmpty }

    /// The most firings listed one by one.
    public static let eventListLimit = 100_000

    /// The played binding of `outcome` compiled and measured; `nil` when it is
    /// cancelled. Throws the located error when it cannot be sampled (as
    /// `eval` reports it). Precondition: `outcome` has no errors.
    public static func prepare(_ outcome: Outcome) throws(Diagnostic) -> Playback? {
        guard let target = outcome.target, outcome.scene != nil else { return nil }
        let compiled: CompiledScene?
        do {
            compiled = try outcome.compiledScene()
        } catch {
            throw samplingError(error, binding: target)
        }
        return compiled.map { Playback($0, initial: outcome.initial, binding: target.name) }
    }

    /// Prepares a compiled scene; `initial` holds declared initial values.
    public init(_ compiled: CompiledScene, initial: [Property: Value] = [:], binding: String) {
        self.binding = binding
        self.compiled = compiled
        sampler = compiled.sampler(initial: initial)
        columns = sampler.columns
        let longestEndless = compiled.blocks.filter(\.isEndless).map(\.period).max() ?? .zero
        span = compiled.isInfinite
            ? ((try? longestEndless.multiplied(by: 2)).flatMap { try? compiled.duration.adding($0) } ?? compiled.duration)
            : compiled.duration
        ranges = Playback.sampledRanges(compiled, sampler: sampler, over: span)
        firings = compiled.hasEvents ? compiled.allEvents(limit: Playback.eventListLimit) : []
        eventNames = firings.map { Array(Set($0.map(\.name))).sorted() } ?? Array(Playback.names(in: compiled)).sorted()
    }

    /// Every column's value at `t`, as `animc eval` samples it.
    public func values(at t: Time) -> [Value] {
        var row: [Value] = []
        sampler.sample(at: t, into: &row)
        return row
    }

    /// The events that fired in `(t − window, t]`, each name once with its count.
    public func events(before t: Time, within window: Time) -> [EventFiring] {
        guard hasEvents else { return [] }
        let after = (try? t.subtracting(window)).map(Instant.init) ?? Instant(approximately: t.seconds - window.seconds)
        return compiled.events(after: after, through: Instant(t))
    }

    /// The last `count` firings at or before `t`, oldest first, each a name
    /// and its time. When the firings are not listed (an animation that
    /// repeats forever), they are found by bisection on the scene's windows,
    /// looking back at most ``logWindow`` seconds.
    public func recentFirings(at t: Time, count: Int) -> [PlacedEvent] {
        guard hasEvents, count > 0 else { return [] }
        let now = Instant(t)
        if let firings {
            var low = 0, high = firings.count
            while low < high {
                let mid = (low + high) / 2
                if firings[mid].time <= now { low = mid + 1 } else { high = mid }
            }
            return Array(firings[max(0, low - count)..<low])
        }
        var found: [PlacedEvent] = []
        let earliest = max(0, t.seconds - Playback.logWindow.seconds).nextDown
        var through = now
        while found.count < count, through.seconds > earliest, let (time, names) = latestFiring(through: through, after: earliest) {
            for name in names.reversed() where found.count < count {
                found.append(PlacedEvent(name: name, time: time))
            }
            through = Instant(approximately: time.seconds.nextDown)
        }
        return found.reversed()
    }

    /// How far back the log looks when the firings are not listed.
    public static let logWindow = Time(10)

    /// The last instant in `(after, through]` at which events fire, and
    /// their names (sorted); `nil` when none fire there.
    private func latestFiring(through: Instant, after: Double) -> (Instant, [String])? {
        var low = after
        var high = through.seconds
        guard !compiled.events(after: Instant(approximately: low), through: through).isEmpty else { return nil }
        // (low, through] holds a firing and (high, through] none.
        for _ in 0..<80 {
            let mid = low + (high - low) / 2
            guard mid > low, mid < high else { break }
            if compiled.events(after: Instant(approximately: mid), through: through).isEmpty { high = mid } else { low = mid }
        }
        let firings = compiled.events(after: Instant(approximately: low), through: through)
        guard let latest = firings.map(\.first).max() else { return nil }
        return (latest, firings.filter { $0.first == latest }.map(\.name).sorted())
    }

    /// Every event name in a compiled scene, its repetitions included.
    private static func names(in scene: CompiledScene) -> Set<String> {
        var names = Set(scene.events.map(\.name))
        for block in scene.blocks where block.body.hasEvents {
            names.formUnion(Playback.names(in: block.body))
        }
        return names
    }

    /// The smallest and largest finite value of each number column, sampled
    /// over `[0, span]`: evenly (at most ``evenSamples`` times), at the ends
    /// and inside every listed segment (when there are few enough) so that
    /// short segments and overshooting curves count, and over the first copy
    /// of every symbolic repetition.
    private static func sampledRanges(_ scene: CompiledScene, sampler: RowSampler, over span: Time) -> [ClosedRange<Double>?] {
        var lowest = [Double](repeating: .infinity, count: sampler.columns.count)
        var highest = [Double](repeating: -.infinity, count: sampler.columns.count)
        var row: [Value] = []
        func include(_ t: Instant) {
            sampler.sample(at: t, into: &row)
            for (index, value) in row.enumerated() where index < lowest.count {
                guard case .number(let number) = value, number.isFinite else { continue }
                lowest[index] = min(lowest[index], number)
                highest[index] = max(highest[index], number)
            }
        }
        let frames = FrameTimes(duration: span, fps: 120)
        if let count = frames.count, count <= evenSamples {
            for t in frames { include(Instant(t)) }
        } else {
            for step in 0...evenSamples {
                include(Instant(approximately: span.seconds * Double(step) / Double(evenSamples)))
            }
            include(Instant(span))
        }
        if scene.segmentCount <= segmentSampleLimit {
            for segment in scene.segments {
                for step in 0...8 {
                    let fraction = Double(step) / 8
                    let seconds = segment.start.seconds + (segment.end.seconds - segment.start.seconds) * fraction
                    include(step == 0 ? segment.start : step == 8 ? segment.end : Instant(approximately: seconds))
                }
            }
        }
        for block in scene.blocks {
            for step in 0...64 {
                include(Instant(approximately: block.start.seconds + block.period.seconds * Double(step) / 64))
            }
        }
        return zip(lowest, highest).map { low, high in low <= high ? low...high : nil }
    }

    /// The most evenly spaced times the ranges are sampled at.
    static let evenSamples = 4000
    /// The most listed segments sampled one by one.
    static let segmentSampleLimit = 2000
}

// MARK: - The clock

/// Where the playhead is: animation time as a function of the wall clock
/// (in nanoseconds from any fixed origin), with pause, seek and restart.
/// Time advances in whole milliseconds of animation time, so the times
/// shown are exact and seeks land on exact tenths (`eval --at 0.3`'s row).
/// A finite animation stops at its end, or with `loops` starts again; one
/// that repeats forever never ends.
///
/// ```swift
/// var clock = PlayerClock(duration: Time(2), speed: 1, startingAt: 0)
/// clock.time(at: 500_000_000)                          // 0.5
/// clock.togglePause(at: 500_000_000)                   // holds 0.5
/// clock.seek(by: PlayerClock.seekStep, at: 900_000_000)   // 0.6, still paused
/// ```
public struct PlayerClock: Sendable {
    public let duration: Time
    public let isInfinite: Bool
    /// How many seconds of animation one second of wall time plays.
    public let speed: Double
    public let loops: Bool
    public private(set) var isPaused = false
    /// The animation time at `anchorWall` (where pausing or seeking left it).
    private var anchor = Time.zero
    private var anchorWall: Int64

    /// What ←/→ seek by: a tenth of a second (one row of `eval`'s default 10 fps).
    public static let seekStep = Time(numerator: 1, denominator: 10) ?? .one

    public init(duration: Time, isInfinite: Bool = false, speed: Double, loops: Bool = false, startingAt wall: Int64) {
        self.duration = duration
        self.isInfinite = isInfinite
        self.speed = speed.isFinite && speed > 0 ? speed : 1
        self.loops = loops
        anchorWall = wall
    }

    /// The animation time at wall time `now`.
    public func time(at now: Int64) -> Time {
        position(at: now).time
    }

    /// The animation time at wall time `now`, with how many times a looping
    /// animation has started again since the playhead was last placed (by
    /// pausing, seeking or restarting; always 0 when it does not loop): a
    /// player listing the events passed between two frames needs to know it
    /// went round. The end itself belongs to the pass that ends there (at
    /// `duration`, `laps` is 0); just after it the next pass begins (`laps` 1).
    public func position(at now: Int64) -> (time: Time, laps: Int64) {
        guard !isPaused else { return (anchor, 0) }
        let elapsed = now.subtractingReportingOverflow(anchorWall)
        let nanoseconds = elapsed.overflow ? 0 : max(0, elapsed.partialValue)
        let milliseconds = (Double(nanoseconds) / 1e6 * speed).rounded(.down)
        guard milliseconds < 9e15, let advance = Time(numerator: Int64(milliseconds), denominator: 1000),
              let raw = try? anchor.adding(advance) else {
            return (isInfinite ? anchor : duration, 0)
        }
        return placed(raw)
    }

    /// What the player shows at `now`.
    public func state(at now: Int64) -> PlaybackState {
        if isPaused { return .paused }
        return hasEnded(at: now) ? .ended : .playing
    }

    /// Whether a finite animation that does not loop has reached its end.
    public func hasEnded(at now: Int64) -> Bool {
        !isInfinite && !loops && !(time(at: now) < duration)
    }

    /// Space: pauses, or resumes (at the end, plays again from the start).
    public mutating func togglePause(at now: Int64) {
        if isPaused {
            isPaused = false
            anchorWall = now
        } else if hasEnded(at: now) {
            restart(at: now)
        } else {
            anchor = time(at: now)
            isPaused = true
        }
    }

    /// ←/→: moves the playhead by `delta` (within `[0, duration]` for a finite
    /// animation), keeping it paused or playing: to the next multiple of
    /// `delta` after it (or, back, the one before it), so seeks by a tenth
    /// land on tenths (1.101 → 1.2, not 1.201).
    public mutating func seek(by delta: Time, at now: Int64) {
        let current = time(at: now)
        let step = delta.isNegative ? ((try? delta.negated()) ?? delta) : delta
        var target = (try? current.adding(delta)) ?? current
        if step.isPositive, !current.isNegative, let units = try? current.divided(by: step) {
            let whole = units.numerator / units.denominator   // floor, for a non-negative quotient
            let onMultiple = whole * units.denominator == units.numerator
            let next = whole.addingReportingOverflow(1)
            let multiple = delta.isNegative ? (onMultiple ? whole - 1 : whole) : next.partialValue
            if !(next.overflow && !delta.isNegative), let landed = try? step.multiplied(by: multiple) { target = landed }
        }
        seek(to: target, at: now)
    }

    /// To exactly `target` (clamped to the animation), keeping it paused or playing.
    public mutating func seek(to target: Time, at now: Int64) {
        var target = target
        if target.isNegative { target = .zero }
        if !isInfinite, duration < target { target = duration }
        anchor = target
        anchorWall = now
    }

    /// `0`/Home: back to the start, keeping it paused or playing.
    public mutating func restart(at now: Int64) {
        anchor = .zero
        anchorWall = now
    }

    /// `raw` where the animation is: itself, or the end, or (looping) its
    /// remainder by the duration, with how many whole durations were taken off.
    private func placed(_ raw: Time) -> (time: Time, laps: Int64) {
        if raw.isNegative { return (.zero, 0) }
        if isInfinite || !(duration < raw) { return (raw, 0) }
        guard loops, duration.isPositive else { return (duration, 0) }
        let (laps, rest) = divide(raw, by: duration)
        return (rest, laps)
    }
}

/// `value mod period` for a non-negative `value` and a positive `period`,
/// exactly when it fits (else the nearest exact decimal of the double).
func remainder(_ value: Time, dividingBy period: Time) -> Time {
    divide(value, by: period).remainder
}

/// `value div period` (saturating) and `value mod period` (see
/// ``remainder(_:dividingBy:)``) for a non-negative `value` and a positive `period`.
func divide(_ value: Time, by period: Time) -> (quotient: Int64, remainder: Time) {
    let numerator = Int128(value.numerator) * Int128(period.denominator)
    let modulus = Int128(value.denominator) * Int128(period.numerator)
    guard modulus > 0, numerator >= 0 else { return (0, .zero) }
    let quotient = Int64(clamping: numerator / modulus)
    var rest = numerator % modulus
    var denominator = Int128(value.denominator) * Int128(period.denominator)
    var a = rest, b = denominator
    while b != 0 { (a, b) = (b, a % b) }
    if a > 1 {
        rest /= a
        denominator /= a
    }
    if let n = Int64(exactly: rest), let d = Int64(exactly: denominator), let exact = Time(numerator: n, denominator: d) {
        return (quotient, exact)
    }
    return (quotient, Time(seconds: Double(rest) / Double(denominator)) ?? .zero)
}

/// Whether the playhead moves.
public enum PlaybackState: Sendable, Equatable {
    case playing, paused
    /// A finite animation that does not loop, held on its last frame.
    case ended
}

// MARK: - Keys

/// What a key asks the player to do.
public enum PlayerKey: Sendable, Equatable {
    /// Space.
    case togglePause
    /// → , `l` or `.`: one ``PlayerClock/seekStep`` later.
    case forward
    /// ← , `h` or `,`: one step earlier.
    case backward
    /// `0` or Home.
    case start
    /// `q`, `Q`, Ctrl-C or Ctrl-D.
    case quit
}

/// The keys in bytes read from a terminal in raw mode. Arrow keys and Home
/// arrive as escape sequences (`ESC [ C`, `ESC O C`, `ESC [ H`, `ESC [ 1 ~`,
/// …); other sequences and bytes are skipped whole.
///
/// ```swift
/// decodePlayerKeys(Array(" \u{1B}[Cq".utf8))   // [.togglePause, .forward, .quit]
/// ```
public func decodePlayerKeys(_ bytes: [UInt8]) -> [PlayerKey] {
    var keys: [PlayerKey] = []
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: " "): keys.append(.togglePause)
        case UInt8(ascii: "l"), UInt8(ascii: "."): keys.append(.forward)
        case UInt8(ascii: "h"), UInt8(ascii: ","): keys.append(.backward)
        case UInt8(ascii: "0"): keys.append(.start)
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 0x03, 0x04: keys.append(.quit)
        case 0x1B:
            guard index < bytes.count else { continue }
            let introducer = bytes[index]
            guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { continue }
            index += 1
            // Parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E).
            var parameters: [UInt8] = []
            while index < bytes.count, (0x20...0x3F).contains(bytes[index]) {
                parameters.append(bytes[index])
                index += 1
            }
            guard index < bytes.count else { continue }
            let final = bytes[index]
            index += 1
            switch final {
            case UInt8(ascii: "C"): keys.append(.forward)
            case UInt8(ascii: "D"): keys.append(.backward)
            case UInt8(ascii: "H"): keys.append(.start)
            case UInt8(ascii: "~") where parameters == [UInt8(ascii: "1")] || parameters == [UInt8(ascii: "7")]:
                keys.append(.start)
            default: break
            }
        default: break
        }
    }
    return keys
}
