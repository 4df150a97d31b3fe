// The embedding API: an app loads a `.anim` file at run time, takes one of
// its bindings and plays it from whatever clock it drives (a `CADisplayLink`
// on iOS, a test's manual clock on Linux). Everything here is a thin layer
// over what `animc` itself runs: `run(_:binding:)` for the file, the row
// sampler `animc eval` prints its table with, `CompiledScene.events` for its
// events column, and `PlayerClock`, the clock of `animc play`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Animations

/// A `.anim` source loaded at run time, with its diagnostics as values.
///
/// Loading never fails and never traps: a file that cannot be read, or has
/// mistakes, is a document whose ``diagnostics`` say so (``hasErrors``),
/// rendered in ``renderedDiagnostics`` exactly as `animc check` prints them.
/// A document without errors hands out its bindings as ``Animation``s.
///
/// ```swift
/// import AnimLang
/// import Animations   // Time, Value, EventFiring
///
/// let document = Document(source: """
///     view ball y 0
///     let fall = animate ball.y from 0 to 300 in 500ms with ease-in-quad ; emit landed
///     """, name: "fall.anim")
/// let fall = try document.animation()          // the last `let`
/// fall.values(at: Time(numerator: 1, denominator: 4)!)   // ["ball.y": .number(75)]
/// fall.events(after: nil, through: Time(1))    // [landed]
/// ```
public struct Document: Sendable {
    /// The source, named as diagnostics name it.
    public let file: SourceFile
    /// Every error and warning of the file (those of its last `let`, as
    /// `animc check` gives them), in source order.
    public let diagnostics: [Diagnostic]
    /// The names of the file's bindings, in source order.
    public let bindingNames: [String]
    /// The run of the last `let`, kept for ``animation(named:)`` (`nil`: the file could not be read).
    private let outcome: Outcome?

    /// Loads `source`; `name` is the file name diagnostics show.
    ///
    /// ```swift
    /// let document = Document(source: "let a = fadeIn x with ease-inout\n", name: "a.anim")
    /// document.hasErrors            // true
    /// document.renderedDiagnostics  // "a.anim:1:23: error: unknown easing `ease-inout`\n…"
    /// ```
    public init(source: String, name: String = "<source>") {
        self.init(file: SourceFile(name: name, text: source))
    }

    /// Loads the file at `path` (read with the platform's own calls, as
    /// `animc` reads it; no Foundation). A file that cannot be read is a
    /// document with one error, `cannot read PATH: REASON`.
    ///
    /// ```swift
    /// let document = Document(contentsOf: "examples/landing-events.anim")
    /// guard !document.hasErrors else { print(document.renderedDiagnostics, terminator: ""); return }
    /// ```
    public init(contentsOf path: String) {
        switch readAll(path) {
        case .success(let bytes):
            self.init(file: SourceFile(name: path, bytes: bytes))
        case .failure(let failure):
            self.init(file: SourceFile(name: path, bytes: []), outcome: nil,
                      diagnostics: [Diagnostic(.unreadableFile(path: path, reason: failure.reason), at: .none)])
        }
    }

    /// Loads an already named source.
    public init(file: SourceFile) {
        let outcome = run(file)
        self.init(file: file, outcome: outcome, diagnostics: outcome.diagnostics)
    }

    private init(file: SourceFile, outcome: Outcome?, diagnostics: [Diagnostic]) {
        self.file = file
        self.outcome = outcome
        self.diagnostics = diagnostics
        bindingNames = outcome?.program.bindings.map(\.name) ?? []
    }

    /// Whether any diagnostic is an error (then no binding can be played).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The diagnostics as `animc` prints them: `FILE:LINE:COL: error: message`,
    /// the source line, a caret and the hint (one without a place in the
    /// file, such as an unreadable file, as `FILE: error: message`).
    public var renderedDiagnostics: String { Document.render(diagnostics, in: file) }

    /// The compiled animation of the binding `name` (the last `let` when
    /// `nil`), as `animc eval --binding NAME` samples it. The last `let` was
    /// compiled when the document was loaded; another binding costs one more
    /// run of the file.
    ///
    /// Throws a ``Failure`` holding the diagnostics when the file has errors,
    /// has no binding of that name (`no binding named `NAME` in FILE`, with a
    /// suggestion when one is close), or the binding cannot be sampled (too
    /// many segments, say). A cancelled binding (`zero`) is an animation with
    /// no columns and no frames to speak of (``Animation/isCancelled``).
    ///
    /// ```swift
    /// let spin = try document.animation(named: "spin")
    /// ```
    public func animation(named name: String? = nil) throws(Failure) -> Animation {
        guard let loaded = self.outcome else {
            throw Failure(diagnostics: diagnostics, rendered: renderedDiagnostics)
        }
        let outcome = name == nil || name == loaded.target?.name ? loaded : run(file, binding: name)
        var diagnostics = outcome.diagnostics
        if let name, outcome.target == nil,
           let index = diagnostics.firstIndex(where: { $0.id == DiagnosticKind.unknownBinding(name).id }) {
            // As `animc eval --binding` says it: the name is not a place in the file.
            let unknown = diagnostics.remove(at: index)
            diagnostics.append(Diagnostic(.noSuchBinding(name, file: file.name), at: .none, hint: unknown.hint))
        }
        guard !outcome.hasErrors, let target = outcome.target, outcome.scene != nil else {
            throw Failure(diagnostics: diagnostics, rendered: Document.render(diagnostics, in: file))
        }
        let compiled: CompiledScene?
        do {
            compiled = try outcome.compiledScene()
        } catch {
            let located = [samplingError(error, binding: target)]
            throw Failure(diagnostics: located, rendered: Document.render(located, in: file))
        }
        return Animation(binding: target.name, compiled: compiled, initial: outcome.initial, warnings: diagnostics)
    }

    /// Why ``Document/animation(named:)`` has no animation to give: the
    /// diagnostics, and the text `animc` prints for them.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let diagnostics: [Diagnostic]
        /// The diagnostics rendered as `animc` prints them.
        public let rendered: String
        public var description: String { rendered }
    }

    /// Each diagnostic with its place in `file`, or (without one) with the file's name.
    private static func render(_ diagnostics: [Diagnostic], in file: SourceFile) -> String {
        diagnostics.map { $0.range == .none ? AnimLang.render($0, origin: file.name) : AnimLang.render($0, in: file) }.joined()
    }
}

extension Document {
    /// One binding of a ``Document``, compiled: its values at any time and
    /// the events it fires, exactly as `animc eval` prints them (the same
    /// sampler and the same events column), so `values(at: t)` is `eval --at
    /// t`'s row bit for bit.
    ///
    /// ```swift
    /// let card = try Document(contentsOf: "examples/choreography.anim").animation()
    /// card.duration                        // 2.1 (seconds, exact)
    /// card.values(at: Time(1))["card.scale"]?.number
    /// card.events(after: Time(1), through: Time(2))   // what eval's row at 2 lists after a row at 1
    /// ```
    public struct Animation: Sendable {
        /// The binding's name.
        public let binding: String
        /// The compiled scene (`nil` when cancelled): for exports and anything
        /// else the `Animations` library does with it.
        public let compiled: CompiledScene?
        /// Its warnings (a tie, say); an animation with errors is never made.
        public let warnings: [Diagnostic]
        /// `eval`'s columns, `view.property`, in its order.
        public let columns: [String]
        private let sampler: RowSampler?

        init(binding: String, compiled: CompiledScene?, initial: [Property: Value], warnings: [Diagnostic]) {
            self.binding = binding
            self.compiled = compiled
            self.warnings = warnings
            sampler = compiled?.sampler(initial: initial)
            columns = sampler?.columns.map(\.description) ?? []
        }

        /// When it ends; for one that repeats forever, where its finite part ends.
        public var duration: Time { compiled?.duration ?? .zero }
        /// Whether it repeats forever (then a ``Player`` needs an end to finish).
        public var isInfinite: Bool { compiled?.isInfinite ?? false }
        /// Whether it is `zero`: no frames, no values, no events.
        public var isCancelled: Bool { compiled == nil }
        /// Whether it fires any event.
        public var hasEvents: Bool { compiled?.hasEvents ?? false }

        /// Every column's value at `t`, in ``columns`` order: `eval --at t`'s row.
        public func row(at t: Time) -> [Value] {
            var row: [Value] = []
            sampler?.sample(at: t, into: &row)
            return row
        }

        /// Every property's value at `t`, keyed `"view.property"`: `eval --at t`'s row.
        ///
        /// ```swift
        /// fall.values(at: Time(numerator: 1, denominator: 4)!)["ball.y"]   // .number(75)
        /// ```
        public func values(at t: Time) -> [String: Value] {
            Dictionary(uniqueKeysWithValues: zip(columns, row(at: t)))
        }

        /// The values at `seconds` (nearest exact decimal; `nil` for NaN or infinity).
        public func values(atSeconds seconds: Double) -> [String: Value]? {
            Time(seconds: seconds).map(values(at:))
        }

        /// The events that fire in `(after, through]` (`after == nil`: at or
        /// before `through`), each name once with how many times it fired: the
        /// `events` column of the row of `eval` at `through` when the row
        /// before is at `after` (`tick×3 land` is `[tick×3, land]`). Repeats of
        /// an endless animation are counted, however many.
        ///
        /// ```swift
        /// fall.events(after: nil, through: Time(1)).map(\.description)   // ["landed"]
        /// ```
        public func events(after: Time?, through: Time) -> [EventFiring] {
            compiled?.events(after: after.map(Instant.init), through: Instant(through)) ?? []
        }
    }
}

// MARK: - Playing from any clock

/// Plays a ``Document/Animation`` from a clock the app drives: each
/// ``advance(by:)`` moves the playhead by that much wall time (times
/// ``speed``) and calls ``onFrame`` with the frame there: every property's
/// value and the events passed since the frame before (each name once with
/// its count, as `eval`'s events column lists them; repeats of an endless
/// animation included). ``seek(to:)`` moves the playhead and fires nothing.
///
/// The playhead is `animc play`'s ``PlayerClock``: it moves in whole
/// milliseconds of animation time, so frame times are exact decimals and a
/// frame at `t` shows `eval --at t`'s row. A finite animation stops at its
/// end (``isFinished``), or with ``loops`` starts again (the events at its
/// end and at its start fire on each pass); one that repeats forever plays
/// on, unless given an end (like `eval --until`).
///
/// On iOS, from a `CADisplayLink` (see the README, "In a Swift app"):
///
/// ```swift
/// var player = Player(animation) { frame in
///     ball.center.y = 100 + (frame.values["ball.y"]?.number ?? 0)
///     if frame.events.contains(where: { $0.name == "landed" }) { thud.play() }
/// }
/// // in the display link's callback: the seconds since its last call (0 the first time)
/// player.advance(bySeconds: link.timestamp - (lastTimestamp ?? link.timestamp))
/// ```
///
/// On Linux, from a manual clock:
///
/// ```swift
/// var player = Player(spinner, until: Time(3))
/// while !player.isFinished {
///     let frame = player.advance(by: Time(numerator: 1, denominator: 10)!)
///     print(frame.time, frame.events)   // 0.1 [], …, 1.5 [lap], …, 3 [lap]
/// }
/// ```
public struct Player {
    /// What one frame shows.
    public struct Frame: Sendable {
        /// The playhead (within one pass when looping).
        public let time: Time
        /// Every property's value at ``time``, keyed `"view.property"`.
        public let values: [String: Value]
        /// The events passed since the frame before, each name once with how
        /// many times it fired (in the order of their first firing); none
        /// after a seek. When a looping player went round, the end of the
        /// pass, any whole passes and the start of the next are counted
        /// together, and ``EventFiring/first`` is where the first of them
        /// fired within its pass.
        public let events: [EventFiring]
    }

    /// What is played.
    public let animation: Document.Animation
    /// Where playback ends: the animation's end, or the `until` it was given;
    /// `nil` when it repeats forever and was given none.
    public let end: Time?
    /// Called with every frame ``advance(by:)`` and ``seek(to:)`` make.
    public var onFrame: ((Frame) -> Void)?

    private var clock: PlayerClock
    /// Wall time since the clock was made, exact (see ``wallNanoseconds``).
    private var wall = Time.zero
    /// The time of the last frame, and the clock's laps then; `nil`: no frame
    /// yet, so the next one fires the events at or before its time.
    private var previous: (time: Time, laps: Int64)?

    /// A player at time 0. `until` ends it there (needed for an animation
    /// that repeats forever to finish; past a finite animation's end every
    /// property holds). `speed` is how many seconds of animation one second
    /// of the clock plays (one that is not positive and finite counts as 1);
    /// `loops` plays it again from the start after its end (or `until`).
    public init(_ animation: Document.Animation, speed: Double = 1, loops: Bool = false, until: Time? = nil,
                onFrame: ((Frame) -> Void)? = nil) {
        self.animation = animation
        let end = until.map { max($0, .zero) } ?? (animation.isInfinite ? nil : animation.duration)
        self.end = end
        self.onFrame = onFrame
        clock = PlayerClock(duration: end ?? animation.duration, isInfinite: end == nil, speed: speed, loops: loops, startingAt: 0)
    }

    /// The playhead.
    public var time: Time { clock.time(at: wallNanoseconds) }

    /// How many seconds of animation one second of the clock plays.
    public var speed: Double {
        get { clock.speed }
        set { replaceClock(speed: newValue, loops: clock.loops) }
    }

    /// Whether it starts again after its end.
    public var loops: Bool {
        get { clock.loops }
        set { replaceClock(speed: clock.speed, loops: newValue) }
    }

    /// A paused player holds its frame: ``advance(by:)`` moves nothing (and
    /// fires nothing) until it is resumed.
    public var isPaused = false

    /// Whether it has reached its end and does not loop.
    public var isFinished: Bool { clock.hasEnded(at: wallNanoseconds) }

    /// The frame at the playhead, firing nothing (to draw the first frame, say).
    public var currentFrame: Frame {
        let now = time
        return Frame(time: now, values: animation.values(at: now), events: [])
    }

    /// Moves the playhead by `elapsed` of the app's clock (times ``speed``;
    /// nothing while paused, nothing for a negative `elapsed`), calls
    /// ``onFrame`` and returns the frame. The first frame also fires the
    /// events at time 0, as `eval`'s first row lists them.
    @discardableResult
    public mutating func advance(by elapsed: Time) -> Frame {
        if !isPaused, elapsed.isPositive {
            wall = (try? wall.adding(elapsed))
                ?? Player.nanosecondGrid(wall.seconds + elapsed.seconds)   // denominators too large: to the nanosecond
        }
        let (now, laps) = clock.position(at: wallNanoseconds)
        let events = passedEvents(until: now, laps: laps)
        previous = (now, laps)
        return show(Frame(time: now, values: animation.values(at: now), events: events))
    }

    /// ``advance(by:)`` for a clock in seconds (a `CADisplayLink`'s
    /// timestamps), to the nanosecond; NaN and infinities move nothing.
    @discardableResult
    public mutating func advance(bySeconds elapsed: Double) -> Frame {
        advance(by: elapsed.isFinite ? Player.nanosecondGrid(elapsed) : .zero)
    }

    /// Moves the playhead to `t` (within `[0, end]`), keeping it paused or
    /// playing; fires nothing, not even the events at `t` (the next frame
    /// fires those after it). Calls ``onFrame`` with the frame there.
    @discardableResult
    public mutating func seek(to t: Time) -> Frame {
        let target = end.map { min(max(t, .zero), $0) } ?? max(t, .zero)
        clock.seek(to: target, at: wallNanoseconds)
        let (placed, laps) = clock.position(at: wallNanoseconds)
        previous = (placed, laps)
        return show(Frame(time: placed, values: animation.values(at: placed), events: []))
    }

    /// Back to time 0 as when new: the next frame fires the events at 0 again.
    public mutating func restart() {
        clock.restart(at: wallNanoseconds)
        previous = nil
    }

    private mutating func show(_ frame: Frame) -> Frame {
        onFrame?(frame)
        return frame
    }

    /// The events from the last frame (at `previous`) to `now`, `laps` passes later.
    private func passedEvents(until now: Time, laps: Int64) -> [EventFiring] {
        let wraps = laps - (previous?.laps ?? 0)
        guard wraps > 0, let end else { return animation.events(after: previous?.time, through: now) }
        // Went round: the rest of the pass, the whole passes between, and the start of this one.
        let rest = animation.events(after: previous?.time, through: end)
        let whole = wraps > 1 ? animation.events(after: nil, through: end) : []
        let start = animation.events(after: nil, through: now)
        return Player.merge([(rest, 1), (whole, wraps - 1), (start, 1)])
    }

    /// The firings of several intervals as one: each name once, counts added
    /// (`times` copies of a list count `times` over; saturating), in order
    /// of first appearance.
    static func merge(_ lists: [(firings: [EventFiring], times: Int64)]) -> [EventFiring] {
        var order: [String] = []
        var tally: [String: (count: Int, first: Instant)] = [:]
        for (firings, times) in lists where times > 0 {
            for firing in firings {
                let added = Int(clamping: times).multipliedSaturating(firing.count)
                if let seen = tally[firing.name] {
                    tally[firing.name] = (seen.count.addingSaturating(added), seen.first)
                } else {
                    order.append(firing.name)
                    tally[firing.name] = (added, firing.first)
                }
            }
        }
        return order.compactMap { name in tally[name].map { EventFiring(name: name, count: $0.count, first: $0.first) } }
    }

    /// The clock made again with another speed or looping, at the same time.
    private mutating func replaceClock(speed: Double, loops: Bool) {
        let now = time
        clock = PlayerClock(duration: end ?? animation.duration, isInfinite: end == nil, speed: speed, loops: loops, startingAt: 0)
        wall = .zero
        clock.seek(by: now, at: 0)
        if previous != nil { previous = (now, 0) }
    }

    /// ``wall`` in whole nanoseconds, as ``PlayerClock`` counts (saturating).
    private var wallNanoseconds: Int64 {
        let nanoseconds = Int128(wall.numerator) * 1_000_000_000 / Int128(wall.denominator)
        return Int64(clamping: nanoseconds)
    }

    /// `seconds` to the nearest nanosecond, as an exact time (0 when not
    /// finite or negative; the largest time for what does not fit).
    private static func nanosecondGrid(_ seconds: Double) -> Time {
        guard seconds.isFinite, seconds > 0 else { return .zero }
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds < 9e18 else { return Time(Int64.max / 1_000_000_000) }
        return Time(numerator: Int64(nanoseconds), denominator: 1_000_000_000) ?? .zero
    }
}

// MARK: - Reading files

/// Why a file could not be read, as the system says it (`strerror`): "No
/// such file or directory".
package struct ReadFailure: Error, Sendable {
    package let reason: String
    package init(reason: String) { self.reason = reason }
}

/// The whole contents of `path`, or of standard input when `path` is `nil`
/// (reading stops once past `limit` bytes); on failure, why. With the
/// platform's own calls (`open`, `read`): the library links no Foundation.
package func readAll(_ path: String?, limit: Int = .max) -> Result<[UInt8], ReadFailure> {
    let standardInput: Int32 = 0
    let descriptor: Int32
    if let path {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .failure(ReadFailure(reason: describeSystemError(errno))) }
    } else {
        descriptor = standardInput
    }
    defer { if descriptor != standardInput { _ = close(descriptor) } }
    var bytes: [UInt8] = []
    // A file's size, when it says: its bytes then land in one buffer of that
    // size (no copy to a buffer twice as large each time one fills up, and
    // a third less memory held for a large script).
    var status = stat()
    if fstat(descriptor, &status) == 0, status.st_size > 0, status.st_size < min(Int64(limit), 1 << 40) {
        bytes.reserveCapacity(Int(status.st_size) + 1)
    }
    // 4 KB first, then 64 KB once a read fills it: a short script does not pay
    // for zeroing 64 KB.
    var chunk = [UInt8](repeating: 0, count: 1 << 12)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 {
            let code = errno
            if code == EINTR { continue }
            return .failure(ReadFailure(reason: describeSystemError(code)))
        }
        if count == 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
        if bytes.count > limit { break }
        if count == chunk.count, chunk.count < 1 << 16 { chunk = [UInt8](repeating: 0, count: 1 << 16) }
    }
    return .success(bytes)
}

/// The system's words for an `errno` value.
package func describeSystemError(_ code: Int32) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    return String(cString: message)
}
