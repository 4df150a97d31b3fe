// The few operating-system calls animc makes, behind one portable shim: the
// rest of the tool has no platform conditionals and links no Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Why a file could not be read or written.
    struct ReadFailure: Error {
        /// "No such file or directory".
        let reason: String
    }

    /// Writes `bytes` to the file at `path`, created or truncated (mode
    /// 0644); on failure, why (as `strerror` says it).
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
                let code = errno
                _ = close(descriptor)
                return .failure(ReadFailure(reason: describeError(code)))
            }
            offset += written
        }
        guard close(descriptor) == 0 else { return .failure(ReadFailure(reason: describeError(errno))) }
        return .success(())
    }

    /// Whether `descriptor` is a terminal.
    static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) != 0
    }

    /// Ends the process with `status` (the caller flushes its output first).
    static func terminate(_ status: Int32) -> Never {
        exit(status)
    }

    private static func describeError(_ code: Int32) -> String {
        guard let message = strerror(code) else { return "error \(code)" }
        return String(cString: message)
    }
}
