import AnimJSON

// One escaper per target language the outputs write text into.

/// Text as HTML or XML character data or a quoted attribute value: `&`, `<`,
/// `>` and `"` as entities; tabs and line breaks as spaces, and the other
/// characters XML 1.0 has no place for left out (a page's and a plot's labels).
func markupEscaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "\t", "\n": out += " "
        default: if scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF { out.unicodeScalars.append(scalar) }
        }
    }
    return out
}

/// A JSON string literal (``JSON/writeString(_:into:)``), also a valid
/// JavaScript one: U+2028 and U+2029, raw in JSON, were not allowed in
/// JavaScript strings before ES2019.
func jsonString(_ text: String) -> String {
    var out: [UInt8] = []
    JSON.writeString(text, into: &out)
    return String(decoding: out, as: UTF8.self).replacingAll("\u{2028}", with: "\\u2028").replacingAll("\u{2029}", with: "\\u2029")
}

/// Text for inside `<script>`: `</` could end the element and `<!--` open a
/// comment; `<\/` and `<\!--` mean the same in a JavaScript string.
func scriptSafe(_ text: String) -> String {
    text.replacingAll("</", with: "<\\/").replacingAll("<!--", with: "<\\!--")
}

/// Text for inside a CSS or HTML comment: no `*/` and no `--`.
func commentSafe(_ text: String) -> String {
    text.replacingAll("*/", with: "* /").replacingAll("--", with: "- -")
}
