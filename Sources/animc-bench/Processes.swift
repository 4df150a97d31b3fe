// Clocks, child processes and their resource usage: everything the bench
// needs from the operating system, on Glibc alone.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Nanoseconds on the monotonic clock.
func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Nanoseconds of CPU time this process has used (user + system).
func cpuNow() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Milliseconds between two `now()` (or `cpuNow()`) readings.
func milliseconds(from start: UInt64, to end: UInt64) -> Double {
    Double(end - start) / 1_000_000
}

/// The peak resident set of this process so far (`VmHWM`), in KiB; 0 if unreadable.
func peakResidentKiB() -> Int {
    guard let status = readWholeFile("/proc/self/status") else { return 0 }
    for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.dropFirst(6).filter(\.isNumber)) ?? 0
    }
    return 0
}

/// The bytes of a file, or `nil`.
func readWholeFile(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return readAll(descriptor)
}

/// Reads a descriptor to its end.
func readAll(_ descriptor: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[0..<count])
    }
    return bytes
}

/// Writes all of `bytes` to `path` (created or truncated). Returns false on failure.
@discardableResult
func writeWholeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return writeAll(descriptor, bytes[...])
}

/// Writes all of `bytes` to a descriptor.
@discardableResult
func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
        let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0, errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
    }
    return true
}

/// This executable's path (for re-invoking itself per workload).
func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Whether `path` names an executable file.
func isExecutable(_ path: String) -> Bool {
    access(path, X_OK) == 0
}

/// The first executable called `name` on `PATH`.
func which(_ name: String) -> String? {
    guard let path = getenv("PATH") else { return nil }
    for directory in String(cString: path).split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if isExecutable(candidate) { return candidate }
    }
    return nil
}

/// How a child process ended and what it used.
struct ChildResult {
    /// Exit status, or 128 + signal when killed.
    var status: Int32
    /// Standard output, when captured.
    var output: [UInt8]
    /// Standard error, when captured.
    var errors: [UInt8]
    /// From spawn to reaped, in milliseconds.
    var wallMilliseconds: Double
    /// `ru_maxrss` from `wait4`: the child's own peak resident set, in KiB.
    var maxResidentKiB: Int
    /// User + system CPU time, in milliseconds.
    var cpuMilliseconds: Double

    var succeeded: Bool { status == 0 }
    var outputText: String { String(decoding: output, as: UTF8.self) }
    var errorText: String { String(decoding: errors, as: UTF8.self) }
}

/// Where a child's output goes.
enum Sink {
    case capture
    case devNull
    case inherit
}

/// Runs `path` with `arguments` and waits for it; stdin is /dev/null.
/// Peak memory comes from `wait4`, so it is this child's alone.
func runChild(_ path: String, _ arguments: [String], stdout: Sink = .capture, stderr: Sink = .capture) -> ChildResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

    var pipes: [Int32: (read: Int32, write: Int32)] = [:]
    for (descriptor, sink) in [(Int32(1), stdout), (Int32(2), stderr)] {
        switch sink {
        case .capture:
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { fatalError("pipe failed: \(errno)") }
            pipes[descriptor] = (ends[0], ends[1])
            posix_spawn_file_actions_adddup2(&actions, ends[1], descriptor)
            posix_spawn_file_actions_addclose(&actions, ends[0])
            posix_spawn_file_actions_addclose(&actions, ends[1])
        case .devNull:
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
        case .inherit:
            break
        }
    }

    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = now()
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    for ends in pipes.values { close(ends.write) }
    guard spawned == 0 else {
        for ends in pipes.values { close(ends.read) }
        return ChildResult(status: 127, output: [], errors: Array("cannot run \(path): error \(spawned)\n".utf8),
                           wallMilliseconds: 0, maxResidentKiB: 0, cpuMilliseconds: 0)
    }
    // Drain stderr after stdout: the children here write little to stderr, so
    // it cannot fill its pipe while we read stdout.
    let output = pipes[1].map { readAll($0.read) } ?? []
    let errors = pipes[2].map { readAll($0.read) } ?? []
    for ends in pipes.values { close(ends.read) }

    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let end = now()
    let signal = status & 0x7f
    let exitStatus = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    return ChildResult(status: exitStatus, output: output, errors: errors,
                       wallMilliseconds: milliseconds(from: start, to: end),
                       maxResidentKiB: usage.ru_maxrss, cpuMilliseconds: cpu)
}

/// A fresh private directory under `$TMPDIR` (or /tmp).
func temporaryDirectory() -> String {
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/animc-bench.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed: \(errno)") }
    return String(cString: made)
}
