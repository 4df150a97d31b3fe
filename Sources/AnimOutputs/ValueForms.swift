import AnimLang
import Animations

// Each value kind's written forms in the outputs, in one place: a new kind is
// a case in each switch here (the compiler lists them), not a search through
// every writer.

/// How the plot draws a property of a kind.
enum PlotRole {
    /// Its value over time, scaled to the least and greatest it takes.
    case curve
    /// A strip: a gradient through the values sampled.
    case strip
}

extension Value.Kind {
    /// The kind's name in the WAAPI JSON's `kind` field.
    var jsonName: String {
        switch self {
        case .number: return "number"
        case .color: return "color"
        }
    }

    /// The `@property` registration of a custom property holding the kind: its syntax and initial value.
    var cssRegistration: (syntax: String, initial: String) {
        switch self {
        case .number: return ("<number>", "0")
        case .color: return ("<color>", "rgb(0 0 0 / 0)")
        }
    }

    var plotRole: PlotRole {
        switch self {
        case .number: return .curve
        case .color: return .strip
        }
    }

    /// What a column of the kind holds where nothing gives it a value (no
    /// column reaches it: its segments or its declaration cover every instant).
    var restValue: Value {
        switch self {
        case .number: return .number(0)
        case .color: return .color(Color(red: 0, green: 0, blue: 0, alpha: 0))
        }
    }
}

/// A value as CSS writes it: a number, or `rgb(R G B / A)`.
func cssValue(_ value: Value) -> String {
    switch value {
    case .number(let number): return cssNumber(number)
    case .color(let color): return color.clamped.description
    }
}

/// A colour as a Lottie fill's `c`: red, green, blue in 0–1, and alpha 1 (the fill's opacity carries alpha).
func lottieFillChannels(_ color: Color) -> [Double] {
    [color.red / 255, color.green / 255, color.blue / 255, 1]
}

extension CompiledScene {
    /// The value of a column (a property the scene animates, or `initial`
    /// declares) at `t`, as `animc eval` samples it.
    func columnValue(of property: Property, at t: Instant, initial: Value?) -> Value {
        value(of: property, at: t, initial: initial) ?? (kind(of: property) ?? initial?.kind ?? .number).restValue
    }

    /// The same at a time in seconds (a warped clock's inexact instants).
    func columnValue(of property: Property, atSeconds t: Double, initial: Value?) -> Value {
        value(of: property, atSeconds: t, initial: initial) ?? (kind(of: property) ?? initial?.kind ?? .number).restValue
    }
}
