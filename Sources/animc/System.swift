// The few operating-system calls animc makes, behind one portable shim: the
// rest of the tool has no platform conditionals and links no Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import AnimLang
import AnimOutputs

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

    /// Reads what `descriptor` has, up to `buffer.count` bytes, retrying
    /// after interruptions: the count read, 0 at the end, -1 on an error.
    static func readSome(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// The whole contents of `path`, or of standard input when `path` is
    /// `nil` (reading stops once past `limit` bytes); on failure, why (as
    /// `strerror` says it). AnimLang's reader, which `Document` loads files with.
    static func readAll(_ path: String?, limit: Int = .max) -> Result<[UInt8], ReadFailure> {
        AnimLang.readAll(path, limit: limit)
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

    /// Why a call failed: "No such file or directory".
    typealias ReadFailure = AnimLang.ReadFailure

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

    /// Whether `descriptor` has input (or its end) to read right now.
    static func hasInput(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
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

    // MARK: Files and sockets (for `serve`)

    /// What identifies a version of a file: a save, even by renaming a new
    /// file over it, changes at least one of these.
    struct FileStamp: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64
    }

    /// The stamp of the file at `path`; on failure, why.
    static func fileStamp(_ path: String) -> Result<FileStamp, ReadFailure> {
        var status = stat()
        guard stat(path, &status) == 0 else { return .failure(ReadFailure(reason: describeError(errno))) }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        return .success(FileStamp(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino),
                                  size: Int64(status.st_size), seconds: Int64(modified.tv_sec), nanoseconds: Int64(modified.tv_nsec)))
    }

    /// A listening TCP socket on 127.0.0.1:`port` (non-blocking); on failure, why.
    static func listenOnLoopback(port: Int) -> Result<Int32, ReadFailure> {
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
        guard descriptor >= 0 else { return .failure(ReadFailure(reason: describeError(errno))) }
        var yes: Int32 = 1
        // Lets a restarted server take its port back from connections still in TIME_WAIT (not from another listener).
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(truncatingIfNeeded: port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 512) == 0, setNonBlocking(descriptor) else {
            let reason = describeError(errno)
            _ = close(descriptor)
            return .failure(ReadFailure(reason: reason))
        }
        return .success(descriptor)
    }

    /// A connection waiting on `listener` (non-blocking), or `nil` when there is none.
    static func acceptConnection(_ listener: Int32) -> Int32? {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return nil
            }
            #if canImport(Darwin)
            var yes: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            guard setNonBlocking(descriptor) else {
                _ = close(descriptor)
                continue
            }
            return descriptor
        }
    }

    private static func setNonBlocking(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        return flags >= 0 && fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// What a non-blocking read or write did.
    enum Transfer: Equatable {
        /// This many bytes (a read of 0 is the end: the peer closed its side).
        case done(Int)
        /// Nothing now: try again when poll says so.
        case later
        /// The connection failed (reset, closed).
        case failed
    }

    /// Reads what has arrived on `descriptor`, up to `limit` bytes, onto the end of `buffer`.
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8], limit: Int) -> Transfer {
        var count = 0, code: Int32 = 0
        let chunk = [UInt8](unsafeUninitializedCapacity: max(1, limit)) { storage, initialized in
            count = read(descriptor, storage.baseAddress, max(1, limit))
            code = errno
            initialized = max(0, count)
        }
        buffer.append(contentsOf: chunk)
        if count >= 0 { return .done(count) }
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .later : .failed
    }

    /// Sends as much of `bytes[offset...]` as the socket takes now (never raising SIGPIPE).
    static func transmit(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int) -> Transfer {
        guard offset < bytes.count else { return .done(0) }
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress.map { $0 + offset }, bytes.count - offset, flags) }
        let code = errno
        if count >= 0 { return .done(count) }
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .later : .failed
    }

    /// Says the server will send no more on `descriptor` (the peer reads the end after the response).
    static func finishSending(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// What to wait for on a descriptor, and what happened.
    struct Waiting {
        let descriptor: Int32
        let reading: Bool
        let writing: Bool
        /// Set by ``wait(_:milliseconds:)``.
        var readable = false, writable = false, failed = false
    }

    /// Waits up to `milliseconds` (or until a signal) for any of `waits` to be ready, and marks which are.
    static func wait(_ waits: inout [Waiting], milliseconds: Int32) {
        var requests = waits.map { item in
            pollfd(fd: item.descriptor, events: Int16(item.reading ? POLLIN : 0) | Int16(item.writing ? POLLOUT : 0), revents: 0)
        }
        guard poll(&requests, nfds_t(requests.count), milliseconds) > 0 else { return }
        for index in waits.indices {
            let events = requests[index].revents
            waits[index].readable = events & Int16(POLLIN) != 0
            waits[index].writable = events & Int16(POLLOUT) != 0
            waits[index].failed = events & Int16(POLLERR | POLLNVAL) != 0 || (events & Int16(POLLHUP) != 0 && events & Int16(POLLIN) == 0)
        }
    }

    /// Ends the process with `status` (the caller flushes its output first).
    static func terminate(_ status: Int32) -> Never {
        exit(status)
    }

    private static func describeError(_ code: Int32) -> String {
        describeSystemError(code)
    }
}
