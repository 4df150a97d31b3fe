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
/// `é` is one column, and so is each stretch of invalid UTF-8 that the
/// rendered source line shows as one `�`.
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
        var index = 0
        while index < bytes.count {   // a plain loop: fast even in debug builds, for 10 MB inputs
            if bytes[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
            index += 1
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
        let start = lineStarts[low]
        var column = 1
        var ascii = true
        for index in start..<clamped where bytes[index] >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            column += clamped - start
        } else {
            // Count the scalars the rendered line shows (see `excerpt`), where
            // each maximal invalid UTF-8 sequence becomes one U+FFFD.
            column += String(decoding: bytes[start..<clamped], as: UTF8.self).unicodeScalars.count
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
/// be a likely typo (for "did you mean" hints); the first of the closest.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    let limit = max(1, min(3, (target.count + 2) / 3))
    var best: (String, Int)?
    // A file may have thousands of bindings: candidates are compared without
    // allocating, and each comparison stops as soon as it cannot win.
    var scalars: [Unicode.Scalar] = []
    var rows = EditDistanceRows()
    for candidate in candidates {
        // Only a distance within the limit, and below the best so far, matters.
        let bound = min(limit, best.map { $0.1 - 1 } ?? limit)
        if bound < 0 { break }   // an exact match: nothing can beat it
        scalars.removeAll(keepingCapacity: true)
        if candidate.utf8.allSatisfy({ $0 < 0x80 }) {
            // The distance is at least the difference in length.
            if abs(candidate.utf8.count - target.count) > bound { continue }
            for byte in candidate.utf8 {
                let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                scalars.append(Unicode.Scalar(lower))
            }
        } else {
            scalars.append(contentsOf: candidate.lowercased().unicodeScalars)
            if abs(scalars.count - target.count) > bound { continue }
        }
        let distance = editDistance(target, scalars, bound: bound, rows: &rows)
        if distance > bound { continue }
        best = (candidate, distance)
    }
    return best?.0
}

/// A name in backquotes for a message, shortened when it is long (the
/// source line under the message shows it whole).
func quoted(_ name: String) -> String {
    name.unicodeScalars.count > 32 ? "`\(String(name.unicodeScalars.prefix(32)))…`" : "`\(name)`"
}

/// Reusable rows for ``editDistance(_:_:bound:rows:)``.
private struct EditDistanceRows {
    var beforePrevious: [Int] = []
    var previous: [Int] = []
    var current: [Int] = []
}

/// The optimal string alignment distance (insertions, deletions,
/// substitutions and adjacent transpositions each cost one), or some value
/// above `bound` as soon as it is sure to exceed `bound`.
private func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], bound: Int, rows: inout EditDistanceRows) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    let width = b.count + 1
    if rows.current.count < width {
        rows.beforePrevious = [Int](repeating: 0, count: width)
        rows.previous = [Int](repeating: 0, count: width)
        rows.current = [Int](repeating: 0, count: width)
    }
    var j = 0
    while j < width {
        rows.previous[j] = j
        j += 1
    }
    // A row's cells come from the row before (and, by transposition, the one
    // before that plus one), so once both are past the bound, so is the rest.
    var previousMinimum = 0, beforePreviousMinimum = Int.max - 1
    var i = 1
    while i <= a.count {
        rows.current[0] = i
        var minimum = i
        j = 1
        while j < width {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            var best = min(rows.previous[j] + 1, rows.current[j - 1] + 1, rows.previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                best = min(best, rows.beforePrevious[j - 2] + 1)
            }
            rows.current[j] = best
            minimum = min(minimum, best)
            j += 1
        }
        swap(&rows.beforePrevious, &rows.previous)
        swap(&rows.previous, &rows.current)
        beforePreviousMinimum = previousMinimum
        previousMinimum = minimum
        if min(previousMinimum, beforePreviousMinimum + 1) > bound { return bound + 1 }
        i += 1
    }
    return rows.previous[b.count]
}
