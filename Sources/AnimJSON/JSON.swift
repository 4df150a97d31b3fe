import Animations

/// A JSON value with its object keys kept in the order they were written:
/// what the exports build (Lottie, the page's data) and ``write(pretty:into:)`` serializes.
/// (Lottie players do not care about key order; people reading a file, and
/// golden tests, do.)
///
/// ```swift
/// let value = JSON.object([("v", .string("5.7.4")), ("fr", .number(60))])
/// var out: [UInt8] = []
/// value.write(into: &out)          // {"v":"5.7.4","fr":60}
/// ```
public indirect enum JSON: Equatable, Sendable {
    case number(Double)
    case string(String)
    case bool(Bool)
    case array([JSON])
    case object([(String, JSON)])
    /// `null` (the language server's protocol needs it; the exports never write one).
    case null

    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.null, .null): return true
        case (.number, _), (.string, _), (.bool, _), (.array, _), (.object, _), (.null, _): return false
        }
    }

    /// An array of numbers.
    package static func numbers(_ values: [Double]) -> JSON {
        .array(values.map { .number($0) })
    }

    /// The member `key` of an object (`nil` for other values or a missing key).
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Appends the JSON text. Compact by default; `pretty` puts each member
    /// of an object and each element of an array of objects on its own
    /// line (arrays of numbers stay on one line). Numbers are written in
    /// shortest round-trip form; the exporter only builds finite ones (a
    /// non-finite number would be written as `0`).
    public func write(pretty: Bool = false, into out: inout [UInt8]) {
        write(pretty: pretty, indent: 0, into: &out)
    }

    /// The JSON text as a string, with a final newline.
    public func text(pretty: Bool = false) -> String {
        var out: [UInt8] = []
        write(pretty: pretty, into: &out)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    private func write(pretty: Bool, indent: Int, into out: inout [UInt8]) {
        switch self {
        case .number(let value):
            writeShortest(value.isFinite ? value + 0 : 0, into: &out)
        case .string(let text):
            JSON.writeString(text, into: &out)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null:
            out.append(contentsOf: "null".utf8)
        case .array(let elements):
            let expand = pretty && elements.contains { if case .object = $0 { return true } else { return false } }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if expand { JSON.newline(indent + 1, into: &out) }
                element.write(pretty: pretty, indent: indent + 1, into: &out)
            }
            if expand { JSON.newline(indent, into: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            // Small objects of scalars (a keyframe's handles) stay on one line.
            let expand = pretty && !members.allSatisfy { member in
                switch member.1 {
                case .number, .string, .bool, .null: return true
                case .array(let elements): return elements.count <= 4 && elements.allSatisfy { if case .number = $0 { return true } else { return false } }
                case .object: return false
                }
            }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if expand { JSON.newline(indent + 1, into: &out) }
                JSON.writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                value.write(pretty: pretty, indent: indent + 1, into: &out)
            }
            if expand { JSON.newline(indent, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ indent: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    package static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
