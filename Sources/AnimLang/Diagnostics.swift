/// One diagnostic type for the whole front end: lexer, parser, resolver and
/// evaluator all report through it, and ``render(_:in:)`` renders it once:
///
/// ```
/// talk.anim:2:49: error: unknown easing `ease-inout`
///   2 | let left = shrink circle from radius 100 to 10 with an ease-inout
///     |                                                 ^~~~~~~~~~
///   hint: did you mean `ease-in-out`?
/// ```
///
/// Diagnostics are data (severity, stable id, message, range, hint, notes), kept
/// apart from rendering. Messages are lowercase with no trailing period.
public struct Diagnostic: Error, Hashable, Sendable {
    public enum Severity: String, Hashable, Sendable {
        case error, warning, note
    }

    /// A secondary location ("first defined here").
    public struct Note: Hashable, Sendable {
        public var message: String
        public var range: SourceRange
        public init(_ message: String, at range: SourceRange) {
            self.message = message
            self.range = range
        }
    }

    public var severity: Severity
    /// A stable identifier (`unknown-name`, `expected-expression`, …) for tests and tools.
    public var id: String
    public var message: String
    public var range: SourceRange
    public var hint: String?
    public var notes: [Note]

    public init(_ severity: Severity = .error, id: String, _ message: String, at range: SourceRange, hint: String? = nil, notes: [Note] = []) {
        self.severity = severity
        self.id = id
        self.message = message
        self.range = range
        self.hint = hint
        self.notes = notes
    }

    public static func error(_ id: String, _ message: String, at range: SourceRange, hint: String? = nil, notes: [Note] = []) -> Diagnostic {
        Diagnostic(.error, id: id, message, at: range, hint: hint, notes: notes)
    }

    public static func warning(_ id: String, _ message: String, at range: SourceRange, hint: String? = nil) -> Diagnostic {
        Diagnostic(.warning, id: id, message, at: range, hint: hint)
    }
}

/// A half-open range of UTF-8 byte offsets into a ``SourceFile``.
public struct SourceRange: Hashable, Sendable {
    public var start: Int
    public var end: Int
    public init(_ start: Int, _ end: Int) {
        self.start = start
        self.end = max(start, end)
    }
    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(min(start, other.start), max(end, other.end))
    }
    public static let none = SourceRange(0, 0)
}

/// A 1-based line and column. Columns count Unicode scalars, so a tab or an
/// `é` is one column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var description: String { "\(line):\(column)" }
}

/// The text of one `.anim` file with its name, as UTF-8 bytes plus a line table.
public struct SourceFile: Sendable {
    public let name: String
    public let bytes: [UInt8]
    /// Byte offset at which each line starts.
    let lineStarts: [Int]

    /// Decodes nothing: the lexer works on bytes and reports invalid UTF-8 itself.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(index + 1)
        }
        lineStarts = starts
    }

    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// Line and column of a byte offset.
    public func location(of offset: Int) -> SourceLocation {
        let clamped = min(max(offset, 0), bytes.count)
        // Last line start <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= clamped { low = mid } else { high = mid - 1 }
        }
        var column = 1
        var index = lineStarts[low]
        while index < clamped {
            // Count lead bytes only: continuation bytes (10xxxxxx) belong to the previous scalar.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(line: low + 1, column: column)
    }

    /// The bytes of line `line` (1-based) without its terminator (`\n` or `\r\n`).
    func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 1, line <= lineStarts.count else { return [] }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return bytes[start..<max(start, end)]
    }

    /// The source text of a range.
    public func text(_ range: SourceRange) -> String {
        let start = min(max(range.start, 0), bytes.count)
        let end = min(max(range.end, start), bytes.count)
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// Renders diagnostics as `FILE:LINE:COL: severity: message`, the numbered
/// source line, a caret under the range, then the hint and notes.
public func render(_ diagnostics: [Diagnostic], in file: SourceFile) -> String {
    var out = ""
    for diagnostic in diagnostics {
        out += render(diagnostic, in: file)
    }
    return out
}

/// Renders one diagnostic; see ``render(_:in:)-(_,SourceFile)``.
public func render(_ diagnostic: Diagnostic, in file: SourceFile) -> String {
    var out = ""
    let location = file.location(of: diagnostic.range.start)
    out += "\(file.name):\(location.line):\(location.column): \(diagnostic.severity.rawValue): \(diagnostic.message)\n"
    out += excerpt(diagnostic.range, in: file)
    if let hint = diagnostic.hint {
        out += "  hint: \(hint)\n"
    }
    for note in diagnostic.notes {
        let noteLocation = file.location(of: note.range.start)
        out += "\(file.name):\(noteLocation.line):\(noteLocation.column): note: \(note.message)\n"
        out += excerpt(note.range, in: file)
    }
    return out
}

/// The numbered source line of `range.start` with a caret line under it. Tabs
/// in the source are repeated in the caret line so the caret stays aligned.
private func excerpt(_ range: SourceRange, in file: SourceFile) -> String {
    let location = file.location(of: range.start)
    let lineBytes = file.lineBytes(location.line)
    let lineText = String(decoding: lineBytes, as: UTF8.self)
    let number = String(location.line)
    let gutter = String(repeating: " ", count: number.count)
    var caret = ""
    var scalarIndex = 1
    for scalar in lineText.unicodeScalars {
        if scalarIndex >= location.column { break }
        caret.append(scalar == "\t" ? "\t" : " ")
        scalarIndex += 1
    }
    // Underline the rest of the range on this line (at least one caret).
    let endLocation = file.location(of: range.end)
    let width: Int
    if endLocation.line == location.line {
        width = max(1, endLocation.column - location.column)
    } else {
        width = max(1, lineText.unicodeScalars.count - location.column + 1)
    }
    caret += "^" + String(repeating: "~", count: width - 1)
    return "  \(number) | \(lineText)\n  \(gutter) | \(caret)\n"
}

/// The candidate closest to `word` by edit distance, if it is close enough to
/// be a likely typo (for "did you mean" hints).
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    var best: (String, Int)?
    for candidate in candidates {
        let distance = editDistance(target, Array(candidate.lowercased().unicodeScalars))
        if let current = best, current.1 <= distance { continue }
        best = (candidate, distance)
    }
    guard let (candidate, distance) = best else { return nil }
    let limit = max(1, min(3, (target.count + 2) / 3))
    return distance <= limit ? candidate : nil
}

private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    // Optimal string alignment distance: insertions, deletions, substitutions
    // and adjacent transpositions each cost one.
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                best = min(best, beforePrevious[j - 2] + 1)
            }
            current[j] = best
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
}
