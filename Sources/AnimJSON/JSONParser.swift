/// Why a text is not JSON, with the byte offset where it stopped making sense.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var description: String { "\(message) at byte \(offset)" }
}

/// Parses JSON text (RFC 8259) into a ``JSON`` value: objects keep their
/// members in the order written, numbers are `Double`s, strings are
/// decoded (`\uD83D\uDE00` pairs joined; a lone surrogate becomes U+FFFD).
/// Never traps: nesting deeper than `maxDepth` is an error, not a stack
/// overflow; anything after the value but white space is an error.
public func parseJSON(_ bytes: some Collection<UInt8>, maxDepth: Int = 256) throws(JSONSyntaxError) -> JSON {
    var parser = JSONReader(bytes: Array(bytes), maxDepth: maxDepth)
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == parser.bytes.count else { throw parser.error("unexpected text after the value") }
    return value
}

private struct JSONReader {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, offset: index) }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    mutating func expect(_ word: String) throws(JSONSyntaxError) {
        for byte in word.utf8 {
            guard peek == byte else { throw error("expected `\(word)`") }
            index += 1
        }
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSON {
        guard depth < maxDepth else { throw error("nested more than \(maxDepth) deep") }
        guard let byte = peek else { throw error("expected a value") }
        switch byte {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(String, JSON)] = []
            skipSpace()
            if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let key = try string()
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw error("expected `:`") }
                index += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                if peek == UInt8(ascii: ",") { index += 1; continue }
                if peek == UInt8(ascii: "}") { index += 1; return .object(members) }
                throw error("expected `,` or `}`")
            }
        case UInt8(ascii: "["):
            index += 1
            var elements: [JSON] = []
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return .array(elements) }
            while true {
                skipSpace()
                elements.append(try value(depth: depth + 1))
                skipSpace()
                if peek == UInt8(ascii: ",") { index += 1; continue }
                if peek == UInt8(ascii: "]") { index += 1; return .array(elements) }
                throw error("expected `,` or `]`")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try number())
        default:
            throw error("expected a value")
        }
    }

    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            var count = 0
            while let byte = reader.peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { reader.index += 1; count += 1 }
            return count
        }
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw error("expected a digit")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw error("expected a digit after `.`") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw error("expected a digit in the exponent") }
        }
        guard let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw JSONSyntaxError(message: "not a number", offset: start)
        }
        return value
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek else { throw error("expected four hexadecimal digits") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("expected four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1   // the opening quote
        var out: [UInt8] = []
        var runStart = index
        while true {
            guard let byte = peek else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<index])
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if byte < 0x20 { throw error("control character in a string") }
            if byte != UInt8(ascii: "\\") { index += 1; continue }
            out.append(contentsOf: bytes[runStart..<index])
            index += 1
            guard let escape = peek else { throw error("unterminated string") }
            index += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if code >= 0xD800, code < 0xDC00, index + 1 < bytes.count,
                   bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let save = index
                    index += 2
                    let low = try hex4()
                    if low >= 0xDC00, low < 0xE000 {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save
                    }
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                out.append(contentsOf: String(Character(scalar)).utf8)
            default:
                throw error("unknown escape")
            }
            runStart = index
        }
    }
}
