/// The base protocol's framing: each message is a header (`Content-Length:
/// N`, optionally `Content-Type`, each line ended by `\r\n`), an empty line,
/// then N bytes of JSON. Bytes arrive in whatever pieces the pipe gives;
/// ``append(_:)`` takes them and ``next()`` hands out whole messages, so a
/// message split across reads and several messages in one read are alike.
public struct FrameReader: Sendable {
    /// What ``next()`` finds.
    public enum Frame: Equatable, Sendable {
        /// The content of one message.
        case message([UInt8])
        /// A header without a usable `Content-Length` (skipped: reading goes
        /// on after its empty line).
        case badHeader(String)
    }

    /// The largest header accepted, and the largest message (a 1 GB document is not a document).
    public static let maxHeader = 8192
    public static let maxContent = 1 << 30

    private var buffer: [UInt8] = []
    private var start = 0
    /// A message whose content is being skipped (too large), bytes still to drop.
    private var skipping = 0

    public init() {}

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
        if skipping > 0 {
            let dropped = min(skipping, buffer.count - start)
            start += dropped
            skipping -= dropped
        }
    }

    /// Bytes received but not yet handed out.
    public var pending: Int { buffer.count - start }

    /// The next whole frame, or `nil` until more bytes arrive.
    public mutating func next() -> Frame? {
        guard skipping == 0 else { return nil }
        // The end of the header: the first "\r\n\r\n".
        var end = start
        var headerEnd: Int?
        while end + 3 < buffer.count {
            if buffer[end] == 13, buffer[end + 1] == 10, buffer[end + 2] == 13, buffer[end + 3] == 10 {
                headerEnd = end
                break
            }
            if end - start > FrameReader.maxHeader { break }
            end += 1
        }
        guard let headerEnd else {
            if buffer.count - start > FrameReader.maxHeader {
                // No header ends here: drop what came so far and say so.
                start = buffer.count
                return .badHeader("a header longer than \(FrameReader.maxHeader) bytes")
            }
            return nil
        }
        var length: Int?
        var problem: String?
        for line in buffer[start..<headerEnd].split(separator: 10, omittingEmptySubsequences: true) {
            let text = String(decoding: line, as: UTF8.self)
            let trimmed = text.hasSuffix("\r") ? String(text.dropLast()) : text
            guard let colon = trimmed.firstIndex(of: ":") else {
                problem = "a header line without `:`"
                continue
            }
            let name = trimmed[..<colon].lowercased()
            let value = trimmed[trimmed.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            if name == "content-length" {
                guard let count = Int(value.trimmingSuffixSpaces), count >= 0 else {
                    problem = "Content-Length `\(value)` is not a byte count"
                    continue
                }
                length = count
            }
        }
        let contentStart = headerEnd + 4
        guard let length, problem == nil || length >= 0 else {
            start = contentStart
            return .badHeader(problem ?? "no Content-Length")
        }
        if length > FrameReader.maxContent {
            start = contentStart
            skipping = length
            let dropped = min(skipping, buffer.count - start)
            start += dropped
            skipping -= dropped
            return .badHeader("a message of \(length) bytes (at most \(FrameReader.maxContent))")
        }
        guard buffer.count - contentStart >= length else { return nil }
        let content = Array(buffer[contentStart..<contentStart + length])
        start = contentStart + length
        return .message(content)
    }
}

extension Substring {
    fileprivate var trimmingSuffixSpaces: Substring {
        var text = self
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}

/// Frames `content` for the wire: `Content-Length: N\r\n\r\n` and the bytes.
public func frame(_ content: [UInt8]) -> [UInt8] {
    Array("Content-Length: \(content.count)\r\n\r\n".utf8) + content
}
