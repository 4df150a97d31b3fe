import Animations

/// How the `.anim` language writes colours, as CSS writes legacy sRGB ones:
/// the 148 named colours and `transparent`, `#rgb`, `#rgba`, `#rrggbb`,
/// `#rrggbbaa`, `rgb(…)`/`rgba(…)` and `hsl(…)`/`hsla(…)` (read by the
/// parser), and the one canonical spelling the printer writes
/// (``spelling(of:)``): the name when a named colour is exactly it, else
/// `#rrggbb` or `#rrggbbaa` when that is exact, else `rgb(R G B / A)`.
///
/// ```swift
/// ColorNames.color(named: "rebeccapurple")   // Color(red: 102, green: 51, blue: 153)
/// ColorNames.spelling(of: Color(red: 255, green: 128, blue: 0))   // "#ff8000"
/// ```
public enum ColorNames {
    /// Every name, sorted, for "did you mean" hints.
    public static let allNames: [String] = (named.map(\.0.description) + ["transparent"]).sorted()

    /// The colour a name denotes (CSS Color 4 §6.1, named colours, and
    /// `transparent`), `nil` for any other word: ``named`` searched by halves
    /// (``lookUp(_:in:)``), no dictionary built on first use (which every
    /// start-up would pay for, however short the script).
    public static func color(named name: String) -> Color? {
        lookUp(name, in: named).map(color(rgb:)) ?? lookUp(name, in: transparent)
    }

    private static let transparent: [(StaticString, Color)] = [("transparent", Color(red: 0, green: 0, blue: 0, alpha: 0))]

    private static func color(rgb: Int) -> Color {
        Color(red: Double(rgb >> 16), green: Double((rgb >> 8) & 0xff), blue: Double(rgb & 0xff))
    }

    /// The canonical `.anim` spelling of a colour (see above); it reads back
    /// as exactly the same colour.
    public static func spelling(of color: Color) -> String {
        if let name = names[color] { return name }
        let channels = [color.red, color.green, color.blue]
        let bytes = channels.map { $0.rounded() }
        let alphaByte = (color.alpha * 255).rounded()
        if zip(channels, bytes).allSatisfy({ $0 == $1 }), bytes.allSatisfy({ (0...255).contains($0) }),
           color.alpha == 1 || alphaByte / 255 == color.alpha {
            var out: [UInt8] = []
            color.writeHex(into: &out)
            return String(decoding: out, as: UTF8.self)
        }
        var out = "rgb(\(formatNumber(color.red)) \(formatNumber(color.green)) \(formatNumber(color.blue))"
        if color.alpha != 1 { out += " / \(formatNumber(color.alpha))" }
        return out + ")"
    }

    /// A colour from 3, 4, 6 or 8 hex digits (without the `#`); `nil` for anything else.
    public static func color(hex digits: Substring) -> Color? {
        color(hex: digits.utf8)
    }

    /// A colour from the bytes of 3, 4, 6 or 8 ASCII hex digits (without the `#`); `nil` for anything else.
    /// (Read into one integer: no array, no `Character`, for the lexer's colour tokens.)
    public static func color<Digits: Sequence<UInt8>>(hex digits: Digits) -> Color? {
        var packed = 0
        var count = 0
        for byte in digits {
            let value: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = Int(byte &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = Int(byte &- UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = Int(byte &- UInt8(ascii: "A")) + 10
            default: return nil
            }
            guard count < 8 else { return nil }
            packed = packed << 4 | value
            count += 1
        }
        // The channels, first digit first: one digit each (times 17) for 3 or 4 digits, two for 6 or 8.
        switch count {
        case 3, 4:
            let top = 4 * (count - 1)   // the first digit's shift
            func expanded(_ shift: Int) -> Double { Double(((packed >> shift) & 0xF) * 17) }
            return Color(red: expanded(top), green: expanded(top - 4), blue: expanded(top - 8),
                         alpha: count == 4 ? expanded(0) / 255 : 1)
        case 6, 8:
            let top = 4 * (count - 2)   // the first pair's shift
            func byte(_ shift: Int) -> Double { Double((packed >> shift) & 0xFF) }
            return Color(red: byte(top), green: byte(top - 8), blue: byte(top - 16), alpha: count == 8 ? byte(0) / 255 : 1)
        default:
            return nil
        }
    }

    /// The first name of each colour in alphabetical order (`aqua` before `cyan`, `gray` before `grey`).
    private static let names: [Color: String] = {
        var names: [Color: String] = [:]
        for name in allNames {
            if let color = color(named: name), names[color] == nil { names[color] = name }
        }
        return names
    }()

    /// CSS Color 4's named colours with their sRGB values, sorted by name (``color(named:)`` searches it).
    static let named: [(StaticString, Int)] = [
        ("aliceblue", 0xf0f8ff), ("antiquewhite", 0xfaebd7), ("aqua", 0x00ffff), ("aquamarine", 0x7fffd4),
        ("azure", 0xf0ffff), ("beige", 0xf5f5dc), ("bisque", 0xffe4c4), ("black", 0x000000),
        ("blanchedalmond", 0xffebcd), ("blue", 0x0000ff), ("blueviolet", 0x8a2be2), ("brown", 0xa52a2a),
        ("burlywood", 0xdeb887), ("cadetblue", 0x5f9ea0), ("chartreuse", 0x7fff00), ("chocolate", 0xd2691e),
        ("coral", 0xff7f50), ("cornflowerblue", 0x6495ed), ("cornsilk", 0xfff8dc), ("crimson", 0xdc143c),
        ("cyan", 0x00ffff), ("darkblue", 0x00008b), ("darkcyan", 0x008b8b), ("darkgoldenrod", 0xb8860b),
        ("darkgray", 0xa9a9a9), ("darkgreen", 0x006400), ("darkgrey", 0xa9a9a9), ("darkkhaki", 0xbdb76b),
        ("darkmagenta", 0x8b008b), ("darkolivegreen", 0x556b2f), ("darkorange", 0xff8c00), ("darkorchid", 0x9932cc),
        ("darkred", 0x8b0000), ("darksalmon", 0xe9967a), ("darkseagreen", 0x8fbc8f), ("darkslateblue", 0x483d8b),
        ("darkslategray", 0x2f4f4f), ("darkslategrey", 0x2f4f4f), ("darkturquoise", 0x00ced1),
        ("darkviolet", 0x9400d3), ("deeppink", 0xff1493), ("deepskyblue", 0x00bfff), ("dimgray", 0x696969),
        ("dimgrey", 0x696969), ("dodgerblue", 0x1e90ff), ("firebrick", 0xb22222), ("floralwhite", 0xfffaf0),
        ("forestgreen", 0x228b22), ("fuchsia", 0xff00ff), ("gainsboro", 0xdcdcdc), ("ghostwhite", 0xf8f8ff),
        ("gold", 0xffd700), ("goldenrod", 0xdaa520), ("gray", 0x808080), ("green", 0x008000),
        ("greenyellow", 0xadff2f), ("grey", 0x808080), ("honeydew", 0xf0fff0), ("hotpink", 0xff69b4),
        ("indianred", 0xcd5c5c), ("indigo", 0x4b0082), ("ivory", 0xfffff0), ("khaki", 0xf0e68c),
        ("lavender", 0xe6e6fa), ("lavenderblush", 0xfff0f5), ("lawngreen", 0x7cfc00), ("lemonchiffon", 0xfffacd),
        ("lightblue", 0xadd8e6), ("lightcoral", 0xf08080), ("lightcyan", 0xe0ffff),
        ("lightgoldenrodyellow", 0xfafad2), ("lightgray", 0xd3d3d3), ("lightgreen", 0x90ee90),
        ("lightgrey", 0xd3d3d3), ("lightpink", 0xffb6c1), ("lightsalmon", 0xffa07a), ("lightseagreen", 0x20b2aa),
        ("lightskyblue", 0x87cefa), ("lightslategray", 0x778899), ("lightslategrey", 0x778899),
        ("lightsteelblue", 0xb0c4de), ("lightyellow", 0xffffe0), ("lime", 0x00ff00), ("limegreen", 0x32cd32),
        ("linen", 0xfaf0e6), ("magenta", 0xff00ff), ("maroon", 0x800000), ("mediumaquamarine", 0x66cdaa),
        ("mediumblue", 0x0000cd), ("mediumorchid", 0xba55d3), ("mediumpurple", 0x9370db),
        ("mediumseagreen", 0x3cb371), ("mediumslateblue", 0x7b68ee), ("mediumspringgreen", 0x00fa9a),
        ("mediumturquoise", 0x48d1cc), ("mediumvioletred", 0xc71585), ("midnightblue", 0x191970),
        ("mintcream", 0xf5fffa), ("mistyrose", 0xffe4e1), ("moccasin", 0xffe4b5), ("navajowhite", 0xffdead),
        ("navy", 0x000080), ("oldlace", 0xfdf5e6), ("olive", 0x808000), ("olivedrab", 0x6b8e23),
        ("orange", 0xffa500), ("orangered", 0xff4500), ("orchid", 0xda70d6), ("palegoldenrod", 0xeee8aa),
        ("palegreen", 0x98fb98), ("paleturquoise", 0xafeeee), ("palevioletred", 0xdb7093), ("papayawhip", 0xffefd5),
        ("peachpuff", 0xffdab9), ("peru", 0xcd853f), ("pink", 0xffc0cb), ("plum", 0xdda0dd),
        ("powderblue", 0xb0e0e6), ("purple", 0x800080), ("rebeccapurple", 0x663399), ("red", 0xff0000),
        ("rosybrown", 0xbc8f8f), ("royalblue", 0x4169e1), ("saddlebrown", 0x8b4513), ("salmon", 0xfa8072),
        ("sandybrown", 0xf4a460), ("seagreen", 0x2e8b57), ("seashell", 0xfff5ee), ("sienna", 0xa0522d),
        ("silver", 0xc0c0c0), ("skyblue", 0x87ceeb), ("slateblue", 0x6a5acd), ("slategray", 0x708090),
        ("slategrey", 0x708090), ("snow", 0xfffafa), ("springgreen", 0x00ff7f), ("steelblue", 0x4682b4),
        ("tan", 0xd2b48c), ("teal", 0x008080), ("thistle", 0xd8bfd8), ("tomato", 0xff6347), ("turquoise", 0x40e0d0),
        ("violet", 0xee82ee), ("wheat", 0xf5deb3), ("white", 0xffffff), ("whitesmoke", 0xf5f5f5),
        ("yellow", 0xffff00), ("yellowgreen", 0x9acd32)
    ]
}
