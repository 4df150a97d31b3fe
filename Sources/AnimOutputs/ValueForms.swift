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
    /// A band with the piece boundaries and the first value written out (points).
    case label
}

extension Value.Kind {
    /// The kind's name in the WAAPI JSON's `kind` field.
    var jsonName: String {
        switch self {
        case .number: return "number"
        case .color: return "color"
        case .point: return "point"
        }
    }

    /// The `@property` registration of a custom property holding the kind: its syntax and initial value.
    var cssRegistration: (syntax: String, initial: String) {
        switch self {
        case .number: return ("<number>", "0")
        case .color: return ("<color>", "rgb(0 0 0 / 0)")
        case .point: return ("<number>+", "0 0")
        }
    }

    var plotRole: PlotRole {
        switch self {
        case .number: return .curve
        case .color: return .strip
        case .point: return .label
        }
    }

    /// What a column of the kind holds where nothing gives it a value (no
    /// column reaches it: its segments or its declaration cover every instant).
    var restValue: Value {
        switch self {
        case .number: return .number(0)
        case .color: return .color(Color(red: 0, green: 0, blue: 0, alpha: 0))
        case .point: return .point(Point(x: 0, y: 0))
        }
    }
}

/// A value as CSS writes it: a number, `rgb(R G B / A)`, or a point's two numbers space-separated (`4 8`).
func cssValue(_ value: Value) -> String {
    switch value {
    case .number(let number): return cssNumber(number)
    case .color(let color): return color.clamped.description
    case .point(let point): return cssNumber(point.x) + " " + cssNumber(point.y)
    }
}

extension Value {
    /// The value as the browser holds it: colours clamped to the gamut; others as they are.
    var browserValue: Value {
        switch self {
        case .number, .point: return self
        case .color(let color): return .color(color.clamped)
        }
    }

    /// The numbers the browser interpolates linearly between keyframes (a
    /// colour premultiplied: alpha·255, then red, green, blue times alpha).
    var browserComponents: [Double] {
        switch browserValue {
        case .number, .point: return components
        case .color(let c): return [c.alpha * 255, c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha]
        }
    }

    /// Whether the plot can tell two values apart: numbers and point
    /// components by more than `tolerance` (about half a pixel), colours by
    /// more than 3/255 in a channel; never across kinds.
    func visiblyDiffers(from other: Value, tolerance: Double) -> Bool {
        switch (self, other) {
        case (.number, .number), (.point, .point):
            return zip(components, other.components).contains { x, y in x.isFinite && y.isFinite && abs(x - y) > tolerance }
        case (.color(let x), .color(let y)):
            let p = x.clamped, q = y.clamped
            return abs(p.red - q.red) > 3 || abs(p.green - q.green) > 3 || abs(p.blue - q.blue) > 3
                || abs(p.alpha - q.alpha) > 3.0 / 255
        case (.number, _), (.color, _), (.point, _):
            return false
        }
    }
}

/// Equal but for rounding (1e-9 relative, or absolute below 1): two values the browser cannot tell apart.
func nearlyEqual(_ a: Value, _ b: Value) -> Bool {
    guard a.kind == b.kind else { return false }
    return zip(a.browserValue.components, b.browserValue.components).allSatisfy { x, y in
        x == y || abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
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
