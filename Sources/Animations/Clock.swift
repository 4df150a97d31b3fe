// The playhead: animation time as a function of a wall clock, with pause,
// seek, restart and looping. `animc play`, the embedding API's `Player` and
// anything else that plays a compiled animation in real time share it.

// MARK: - The clock

/// Whether the playhead moves.
public enum PlaybackState: Sendable, Equatable {
    case playing, paused
    /// A finite animation that does not loop, held on its last frame.
    case ended
}


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
        // A seek that overflows exact time stays where it is: the clock never jumps to a wrong time.
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
public func remainder(_ value: Time, dividingBy period: Time) -> Time {
    divide(value, by: period).remainder
}

/// `value div period` (saturating) and `value mod period` (see
/// ``remainder(_:dividingBy:)``) for a non-negative `value` and a positive `period`.
public func divide(_ value: Time, by period: Time) -> (quotient: Int64, remainder: Time) {
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
