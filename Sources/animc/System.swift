// The few operating-system calls animc makes, behind one portable shim: the
// rest of the tool has no platform conditionals and links no Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by the signal handler (a plain store of a word, safe in a handler).
nonisolated(unsafe) private var receivedSignal: Int32 = 0

enum System {
    static let standardInput: Int32 = 0
    static let standardOutput: Int32 = 1
    static let standardError: Int32 = 2

    /// Writes all of `bytes` to `descriptor`, retrying after interruptions;
    /// stops quietly when the descriptor refuses more (a closed pipe).
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// The whole contents of `path`, or of standard input when `path` is
    /// `nil`; on failure, why (as `strerror` says it).
    static func readAll(_ path: String?) -> Result<[UInt8], ReadFailure> {
        let descriptor: Int32
        if let path {
            descriptor = open(path, O_RDONLY)
            guard descriptor >= 0 else { return .failure(ReadFailure(reason: describeError(errno))) }
        } else {
            descriptor = standardInput
        }
        defer { if descriptor != standardInput { _ = close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                return .failure(ReadFailure(reason: describeError(code)))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success(bytes)
    }

    /// Writes `bytes` to the file at `path` (created or truncated, mode 0644);
    /// on failure, why.
    static func writeFile(_ path: String, _ bytes: [UInt8]) -> Result<Void, ReadFailure> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { return .failure(ReadFailure(reason: describeError(errno))) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 {
                let reason = describeError(errno)
                _ = close(descriptor)
                return .failure(ReadFailure(reason: reason))
            }
            offset += written
        }
        guard close(descriptor) == 0 else { return .failure(ReadFailure(reason: describeError(errno))) }
        return .success(())
    }

    struct ReadFailure: Error {
        /// "No such file or directory".
        let reason: String
    }

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) != 0
    }

    // MARK: Terminals (for `play`)

    /// The size of the terminal `descriptor` is, in columns and rows; `nil`
    /// when it is not a terminal or does not say.
    static func terminalSize(_ descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        #if canImport(Darwin)
        let request = UInt(0x4008_7468)   // TIOCGWINSZ, a macro Swift does not import there
        #else
        let request = UInt(TIOCGWINSZ)
        #endif
        guard ioctl(descriptor, request, &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The terminal to read keys from: `/dev/tty` (so keys work when
    /// standard input is the script), else standard input when it is a
    /// terminal; `nil` when there is none.
    static func openKeyboard() -> Int32? {
        let descriptor = open("/dev/tty", O_RDONLY | O_NOCTTY)
        if descriptor >= 0 { return descriptor }
        return isTerminal(standardInput) ? standardInput : nil
    }

    /// A terminal's settings, as they were before ``enterRawMode(_:)``.
    struct TerminalMode {
        fileprivate let saved: termios
    }

    /// Puts the terminal in raw mode: keys arrive one by one as typed,
    /// unechoed, Ctrl-C as a byte rather than a signal, reads never wait.
    /// Returns the settings to restore, or `nil` when they cannot be read.
    static func enterRawMode(_ descriptor: Int32) -> TerminalMode? {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        let saved = TerminalMode(saved: settings)
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &settings.c_cc) { characters in
            characters[Int(VMIN)] = 0
            characters[Int(VTIME)] = 0
        }
        _ = tcsetattr(descriptor, TCSANOW, &settings)
        return saved
    }

    /// Gives the terminal back the settings ``enterRawMode(_:)`` found.
    static func restore(_ descriptor: Int32, _ mode: TerminalMode) {
        var settings = mode.saved
        _ = tcsetattr(descriptor, TCSANOW, &settings)
    }

    /// Waits up to `milliseconds` for input on `descriptor` and returns what
    /// arrived (nothing on timeout, or when a signal interrupted the wait).
    static func readAvailable(_ descriptor: Int32, waitingUpTo milliseconds: Int32) -> [UInt8] {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&request, 1, milliseconds) > 0, request.revents & Int16(POLLIN) != 0 else {
            if milliseconds > 0, request.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // Nothing will come: wait as a frame would, instead of spinning.
                _ = poll(nil, 0, milliseconds)
            }
            return []
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { _ = poll(nil, 0, milliseconds) }   // the end of input: nothing more will come
        return count > 0 ? Array(buffer[0..<count]) : []
    }

    /// Nanoseconds on a clock that never jumps (from an arbitrary origin).
    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec).multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ Int64(now.tv_nsec)
    }

    /// The termination signals ``catchTerminationSignals()`` watches.
    static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// From now on, SIGINT, SIGTERM, SIGHUP and SIGQUIT do not end the
    /// process but are noted in ``caughtSignal`` (and cut short a wait for
    /// input), so the caller can restore the terminal before it exits.
    static func catchTerminationSignals() {
        for number in terminationSignals {
            _ = signal(number) { caught in receivedSignal = caught }
        }
    }

    /// The last termination signal caught, or 0.
    static var caughtSignal: Int32 { receivedSignal }

    /// Ends the process with `status` (the caller flushes its output first).
    static func terminate(_ status: Int32) -> Never {
        exit(status)
    }

    private static func describeError(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}
