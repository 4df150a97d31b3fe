// `animc play`'s loop: the terminal taken over and given back, keys read
// between frames. Frames are rendered by AnimOutputs (`renderPlayerFrame`) and
// the clock is Animations' `PlayerClock`; what is left here is the order of
// the calls.

import AnimLang
import AnimOutputs
import Animations

/// The time between frames: about 30 a second.
private let frameMilliseconds: Int32 = 33

/// Plays `playback` on the terminal until q (or a termination signal);
/// returns the exit status: 0, or 128 + the signal's number.
func play(_ playback: Playback, file: String, speed: Double, loops: Bool) -> Int32 {
    let keyboard = System.openKeyboard()
    let mode = keyboard.flatMap(System.enterRawMode)
    System.catchTerminationSignals()
    // The alternate screen, the cursor hidden and the screen cleared.
    System.writeAll(System.standardOutput, Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J".utf8))
    defer {
        System.writeAll(System.standardOutput, Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8))
        if let keyboard, let mode { System.restore(keyboard, mode) }
    }
    var clock = PlayerClock(duration: playback.duration, isInfinite: playback.isInfinite, speed: speed, loops: loops,
                            startingAt: System.monotonicNanoseconds())
    var previous: (time: Time, state: PlaybackState, columns: Int, rows: Int)?
    while System.caughtSignal == 0 {
        let now = System.monotonicNanoseconds()
        let size = System.terminalSize(System.standardOutput) ?? (columns: 80, rows: 24)
        let time = clock.time(at: now), state = clock.state(at: now)
        let inputs = (time: time, state: state, columns: size.columns, rows: size.rows)
        // A frame only when something changed (a paused player draws nothing).
        if previous.map({ $0 != inputs }) ?? true {
            let header = PlayerHeader(file: file, speed: speed, state: state, loops: loops)
            let frame = renderPlayerFrame(playback, at: time, header: header, columns: size.columns, rows: size.rows)
            // After a resize, clear everything: the terminal may have reflowed the old frame.
            let resized = previous.map { $0.columns != size.columns || $0.rows != size.rows } ?? false
            System.writeAll(System.standardOutput, (resized ? Array("\u{1B}[2J".utf8) : []) + frame.terminalBytes())
            previous = inputs
        }
        // Without a keyboard nothing can stop a finished animation: it ends there.
        if keyboard == nil, clock.hasEnded(at: now) { return 0 }
        for key in decodePlayerKeys(System.readAvailable(keyboard ?? -1, waitingUpTo: frameMilliseconds)) {
            let now = System.monotonicNanoseconds()
            switch key {
            case .quit: return 0
            case .togglePause: clock.togglePause(at: now)
            case .forward: clock.seek(by: PlayerClock.seekStep, at: now)
            case .backward: clock.seek(by: (try? PlayerClock.seekStep.negated()) ?? .zero, at: now)   // a small constant: negates exactly
            case .start: clock.restart(at: now)
            }
        }
    }
    return 128 + System.caughtSignal
}
