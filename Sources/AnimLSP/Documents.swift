import AnimJSON
import AnimLang

/// An open document: its text as the client last sent it, its version, and
/// what the language makes of it (computed when first asked for, once per
/// version).
public final class OpenDocument {
    public let uri: String
    public private(set) var version: Int
    public private(set) var file: SourceFile
    private var cachedAnalysis: Analysis?

    init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        file = SourceFile(name: OpenDocument.displayName(uri), text: text)
    }

    func replace(text: String, version: Int) {
        self.version = version
        file = SourceFile(name: file.name, text: text)
        cachedAnalysis = nil
    }

    /// The analysis of the current text.
    public var analysis: Analysis {
        if let cachedAnalysis { return cachedAnalysis }
        let made = Analysis(file)
        cachedAnalysis = made
        return made
    }

    /// The file name diagnostics show: the last part of a `file:` URI.
    static func displayName(_ uri: String) -> String {
        uri.split(separator: "/").last.map(String.init) ?? uri
    }

    // MARK: Positions

    /// The byte offset of an LSP position (a 0-based line and a column in
    /// UTF-16 code units), clamped into the line: past its end is its end,
    /// past the last line is the end of the file, and a column inside a
    /// character's surrogate pair is that character's start.
    public func offset(line: Int, character: Int) -> Int {
        guard line >= 0 else { return 0 }
        guard line < file.lineCount else { return file.bytes.count }
        let lineStart = file.lineStart(line)
        let lineEnd = line + 1 < file.lineCount ? file.lineStart(line + 1) - 1 : file.bytes.count
        var index = lineStart
        var units = 0
        while index < lineEnd, units < character {
            let (length, width) = OpenDocument.scalar(at: index, in: file.bytes, end: lineEnd)
            if units + width > character { break }
            units += width
            index += length
        }
        return index
    }

    /// The LSP position (0-based line, UTF-16 column) of a byte offset.
    public func position(of offset: Int) -> (line: Int, character: Int) {
        let clamped = min(max(offset, 0), file.bytes.count)
        let (low, start) = file.line(containing: clamped)
        var index = start
        var units = 0
        while index < clamped {
            let (length, width) = OpenDocument.scalar(at: index, in: file.bytes, end: clamped)
            units += width
            index += length
        }
        return (low, units)
    }

    /// The length in bytes of the UTF-8 sequence at `index` (a byte that
    /// starts none is one byte, shown as U+FFFD) and its width in UTF-16 units.
    static func scalar(at index: Int, in bytes: [UInt8], end: Int) -> (length: Int, width: Int) {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0..<0x80: return (1, 1)
        case 0xC2..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF5: length = 4
        default: return (1, 1)
        }
        guard index + length <= end else { return (1, 1) }
        for next in index + 1..<index + length where bytes[next] & 0xC0 != 0x80 { return (1, 1) }
        return (length, length == 4 ? 2 : 1)
    }

    /// An LSP range of a source range.
    func range(_ range: SourceRange) -> JSON {
        let start = position(of: range.start)
        let end = position(of: range.end)
        return .object([("start", position(start)), ("end", position(end))])
    }

    func position(_ position: (line: Int, character: Int)) -> JSON {
        .object([("line", .number(Double(position.line))), ("character", .number(Double(position.character)))])
    }

    /// The byte offset of an LSP `Position` object (`nil` when it is not one).
    func offset(of position: JSON?) -> Int? {
        guard case .number(let line)? = position?["line"], case .number(let character)? = position?["character"],
              let lineNumber = Int(exactly: line.rounded(.down)), let column = Int(exactly: character.rounded(.down)) else { return nil }
        return offset(line: lineNumber, character: column)
    }
}

/// The open documents by URI.
public struct DocumentStore {
    private var documents: [String: OpenDocument] = [:]

    public init() {}

    public subscript(uri: String) -> OpenDocument? { documents[uri] }

    @discardableResult
    mutating func open(uri: String, version: Int, text: String) -> OpenDocument {
        let document = OpenDocument(uri: uri, version: version, text: text)
        documents[uri] = document
        return document
    }

    mutating func close(uri: String) {
        documents[uri] = nil
    }
}
