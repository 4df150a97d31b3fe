import AnimLang
import Animations

/// An animation prepared for `animc play`: what a live player needs besides
/// the clock. Values come from the same ``RowSampler`` `animc eval` prints
/// its table with, and events from ``CompiledScene/events(after:through:)``,
/// so a frame at time `t` shows the row `eval --at t` prints. Each number
/// column also knows its range over the whole animation (the one measure,
/// ``ExportModel/extents(of:initial:)``),
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

    /// Where each placed view stands (`at`, `origin`): its rows say what they are drawn from (``Drawing``).
    public var placements: [String: Placement] = [:]

    public var duration: Time { compiled.duration }
    public var isInfinite: Bool { compiled.isInfinite }
    public var hasEvents: Bool { !eventNames.isEmpty }

    /// The most firings listed one by one.
    public static let eventListLimit = 100_000

    /// The played binding of `outcome` compiled and measured; `nil` when it is
    /// cancelled. Throws the located error when it cannot be sampled (as
    /// `eval` reports it). Precondition: `outcome` has no errors.
    public static func prepare(_ outcome: Outcome) throws(Diagnostic) -> Playback? {
        switch exportSubject(outcome) {
        case nil, .cancelled?: return nil
        case .failed(let error)?: throw error
        case .model(let model)?:
            var playback = Playback(model.scene, initial: model.initial, binding: model.binding)
            playback.placements = model.placements
            return playback
        }
    }

    /// Prepares a compiled scene; `initial` holds declared initial values.
    public init(_ compiled: CompiledScene, initial: [Property: Value] = [:], binding: String) {
        self.binding = binding
        self.compiled = compiled
        sampler = compiled.sampler(initial: initial)
        columns = sampler.columns
        span = compiled.shownWindow
        let extents = ExportModel.extents(of: compiled, initial: initial)
        ranges = columns.map { extents[$0] }
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
        // Past exact time's range, the double's instant is the nearest there is.
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
