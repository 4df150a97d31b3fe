import Animations

/// How the `.anim` language names easings: the one place for every easing's
/// spelling, its parameters' defaults, and the names `with` accepts. The
/// parser reads names through ``easing(named:)`` and ``parameterizedCurves``;
/// the printer, the timeline and every message spell easings through
/// ``spelling(of:)``; both agree because both are here.
///
/// ```swift
/// easing(named: "ease-in-out-back")          // Easing.penner(.back, .inOut)
/// spelling(of: try Easing.easeOut(1.5))      // "ease-out(1.5)"
/// spelling(of: Easing.cssEaseIn)             // "css-ease-in"
/// spelling(of: try Easing.spring(bounce: 0.3))   // "bouncy spring" (ζ = 0.7)
/// ```
public enum EasingNames {
    /// The talk's curves, which take an optional parameter `(c)` or `high`.
    public static let parameterizedCurves: Set<String> = ["ease-in", "ease-out", "ease-in-out"]

    /// The parameter `high` stands for (`a high ease-out` is `ease-out(1.5)`).
    public static let highParameter = 1.5

    /// The talk's curve `name` with parameter `c` (its default when `nil`).
    public static func talkCurve(_ name: String, parameter c: Double?) throws(AnimationError) -> Easing {
        switch name {
        case "ease-in": return try Easing.easeIn(c ?? defaultParameter(of: name))
        case "ease-out": return try Easing.easeOut(c ?? defaultParameter(of: name))
        default: return try Easing.easeInOut(c ?? defaultParameter(of: name))
        }
    }

    /// The default parameter of a talk curve: 2 for `ease-in` and `ease-out`, 1 for `ease-in-out`.
    public static func defaultParameter(of name: String) -> Double {
        name == "ease-in-out" ? 1 : 2
    }

    /// The CSS keywords, spelled so they do not collide with the talk's curves.
    static let cssKeywords: [(String, Easing)] = [
        ("ease", .ease), ("css-ease-in", .cssEaseIn), ("css-ease-out", .cssEaseOut), ("css-ease-in-out", .cssEaseInOut),
    ]

    /// The functional forms (`cubic-bezier(…)`, `steps(…)`, `compose(…)`, `spring(…)`), for hints.
    public static let functionalForms = ["cubic-bezier", "steps", "compose", "mirror", "spring"]

    // MARK: Springs

    /// The words that name a spring by its damping ratio (`a bouncy spring`),
    /// with `ω = 1` and `v = 0`. They are not reserved: only `with` reads them,
    /// and only before `spring`.
    public static let springAdjectives: [(word: String, dampingRatio: Double)] = [
        ("smooth", 1), ("snappy", 0.85), ("bouncy", 0.7),
    ]

    /// The parameters of the physical form `spring(stiffness K, damping C, mass M, velocity V)`
    /// with their defaults, in the order the printer writes them.
    public static let springPhysicalParameters: [(name: String, defaultValue: Double)] = [
        ("stiffness", 100), ("damping", 10), ("mass", 1), ("velocity", 0),
    ]

    /// The parameter of `spring(bounce B)`, which stands alone.
    public static let springBounceParameter = "bounce"

    /// Every name `spring(…)` takes, for "did you mean" hints.
    public static let springParameterNames: [String] = springPhysicalParameters.map(\.name) + [springBounceParameter]

    /// `spring`, `smooth spring`, `snappy spring` or `bouncy spring`: the spring
    /// an adjective (or none) names; `nil` for another word.
    public static func spring(adjective: String?) -> Easing? {
        guard let adjective else { return try? Easing.spring(dampingRatio: 1) }
        guard let entry = springAdjectives.first(where: { $0.word == adjective }) else { return nil }
        return try? Easing.spring(dampingRatio: entry.dampingRatio)
    }

    /// The physical form with the parameters given (by name, as
    /// ``springPhysicalParameters`` spells them) and the others at their defaults.
    public static func spring(physical given: [String: Double]) throws(AnimationError) -> Easing {
        func value(_ name: String) -> Double {
            given[name] ?? springPhysicalParameters.first(where: { $0.name == name })?.defaultValue ?? 0
        }
        return try Easing.spring(stiffness: value("stiffness"), damping: value("damping"), mass: value("mass"),
                                 velocity: value("velocity"))
    }

    /// The canonical spelling of a spring, the one spelling of its `(ζ, ω, v)`:
    /// with `ω = 1` and `v = 0`, `spring` (ζ = 1), `snappy spring`,
    /// `bouncy spring`, else `spring(bounce B)`; otherwise (or when no bounce
    /// gives exactly this ζ) `spring(stiffness K, damping C)` with mass 1 and
    /// `, velocity V` when `v ≠ 0`, or with the shortest other mass
    /// (`, mass M`) when no mass of 1 reproduces ζ exactly
    /// (``Animations/Easing/Spring/physicalParameters``). Each number is the
    /// shortest decimal that reads back as exactly the same spring.
    static func springSpelling(_ spring: Easing.Spring) -> String {
        if spring.angularFrequency == 1, spring.velocity == 0 {
            if spring.dampingRatio == 1 { return "spring" }
            if let entry = springAdjectives.first(where: { $0.dampingRatio == spring.dampingRatio }) {
                return "\(entry.word) spring"
            }
            if let bounce = spring.bounce { return "spring(bounce \(formatNumber(bounce)))" }
        }
        let p = spring.physicalParameters
        var out = "spring(stiffness \(formatNumber(p.stiffness)), damping \(formatNumber(p.damping))"
        if p.mass != 1 { out += ", mass \(formatNumber(p.mass))" }
        if p.velocity != 0 { out += ", velocity \(formatNumber(p.velocity))" }
        return out + ")"
    }

    /// `linear(0 0%, 0.25 75%, 1 100%)`: every point with its input, as CSS
    /// writes a `linear()` it has computed (the same text the CSS export uses).
    public static func linearSpelling(_ points: [Easing.LinearPoint]) -> String {
        "linear(" + points.map { "\(formatNumber($0.output)) \(formatNumber($0.input * 100))%" }.joined(separator: ", ") + ")"
    }

    /// Every bare easing name, sorted, for "did you mean" hints and documentation.
    public static let allNames: [String] = bareNames.map(\.0.description)

    /// What a bare name stands for (the easing is built when asked for).
    enum BareName {
        case linear, talkEaseIn, talkEaseOut, talkEaseInOut, spring, stepStart, stepEnd, ease, cssEaseIn, cssEaseOut, cssEaseInOut
        case penner(Easing.PennerCurve, Easing.PennerMode)
    }

    /// Every bare name with what it stands for, sorted by name (``easing(named:)``
    /// searches it by halves; a test checks the order and each Penner name). Written
    /// out rather than a dictionary built on first use: a tiny script then pays no
    /// table at start-up.
    static let bareNames: [(StaticString, BareName)] = [
        ("css-ease", .ease), ("css-ease-in", .cssEaseIn), ("css-ease-in-out", .cssEaseInOut),
        ("css-ease-out", .cssEaseOut), ("ease", .ease), ("ease-in", .talkEaseIn),
        ("ease-in-back", .penner(.back, .`in`)), ("ease-in-bounce", .penner(.bounce, .`in`)),
        ("ease-in-circ", .penner(.circ, .`in`)), ("ease-in-cubic", .penner(.cubic, .`in`)),
        ("ease-in-elastic", .penner(.elastic, .`in`)), ("ease-in-expo", .penner(.expo, .`in`)),
        ("ease-in-out", .talkEaseInOut), ("ease-in-out-back", .penner(.back, .inOut)),
        ("ease-in-out-bounce", .penner(.bounce, .inOut)), ("ease-in-out-circ", .penner(.circ, .inOut)),
        ("ease-in-out-cubic", .penner(.cubic, .inOut)), ("ease-in-out-elastic", .penner(.elastic, .inOut)),
        ("ease-in-out-expo", .penner(.expo, .inOut)), ("ease-in-out-quad", .penner(.quad, .inOut)),
        ("ease-in-out-quart", .penner(.quart, .inOut)), ("ease-in-out-quint", .penner(.quint, .inOut)),
        ("ease-in-out-sine", .penner(.sine, .inOut)), ("ease-in-quad", .penner(.quad, .`in`)),
        ("ease-in-quart", .penner(.quart, .`in`)), ("ease-in-quint", .penner(.quint, .`in`)),
        ("ease-in-sine", .penner(.sine, .`in`)), ("ease-out", .talkEaseOut), ("ease-out-back", .penner(.back, .out)),
        ("ease-out-bounce", .penner(.bounce, .out)), ("ease-out-circ", .penner(.circ, .out)),
        ("ease-out-cubic", .penner(.cubic, .out)), ("ease-out-elastic", .penner(.elastic, .out)),
        ("ease-out-expo", .penner(.expo, .out)), ("ease-out-quad", .penner(.quad, .out)),
        ("ease-out-quart", .penner(.quart, .out)), ("ease-out-quint", .penner(.quint, .out)),
        ("ease-out-sine", .penner(.sine, .out)), ("linear", .linear), ("spring", .spring), ("step-end", .stepEnd),
        ("step-start", .stepStart),
    ]

    /// The easing a bare name denotes, with default parameters; `nil` for an unknown name.
    public static func easing(named name: String) -> Easing? {
        lookUp(name, in: bareNames).flatMap(easing)
    }

    private static func easing(_ bare: BareName) -> Easing? {
        switch bare {
        case .linear: return .linear
        case .talkEaseIn: return .talkEaseIn
        case .talkEaseOut: return .talkEaseOut
        case .talkEaseInOut: return .talkEaseInOut
        case .spring: return spring(adjective: nil)
        case .stepStart: return try? Easing.steps(1, .jumpStart)
        case .stepEnd: return try? Easing.steps(1, .jumpEnd)
        case .ease: return .ease
        case .cssEaseIn: return .cssEaseIn
        case .cssEaseOut: return .cssEaseOut
        case .cssEaseInOut: return .cssEaseInOut
        case .penner(let curve, let mode): return .penner(curve, mode)
        }
    }

    /// The `.anim` spelling of an easing: `linear`, `ease-out(1.5)`,
    /// `cubic-bezier(0.1, 0.7, 1, 0.1)`, `steps(4, jump-start)`,
    /// `ease-in-out-bounce`, `snappy spring`, `spring(stiffness 200, damping 12)`,
    /// `compose(ease-in, steps(3))`, `mirror(ease-in)`. It reads back as the same easing.
    public static func spelling(of easing: Easing) -> String {
        var out = ""
        write(easing, into: &out)
        return out
    }

    private static func write(_ easing: Easing, into out: inout String) {
        switch easing.kind {
        case .linear:
            out += "linear"
        case .easeIn(let c):
            out += c == defaultParameter(of: "ease-in") ? "ease-in" : "ease-in(\(formatNumber(c)))"
        case .easeOut(let c):
            out += c == defaultParameter(of: "ease-out") ? "ease-out" : "ease-out(\(formatNumber(c)))"
        case .easeInOut(let c):
            out += c == defaultParameter(of: "ease-in-out") ? "ease-in-out" : "ease-in-out(\(formatNumber(c)))"
        case .cubicBezier(let x1, let y1, let x2, let y2):
            if let keyword = cssKeywords.first(where: { $0.1 == easing }) {
                out += keyword.0
            } else {
                out += "cubic-bezier(\(formatNumber(x1)), \(formatNumber(y1)), \(formatNumber(x2)), \(formatNumber(y2)))"
            }
        case .steps(let count, let position):
            out += position == .jumpEnd ? "steps(\(count))" : "steps(\(count), \(position.rawValue))"
        case .penner(let curve, let mode):
            out += "ease-\(mode.rawValue)-\(curve.rawValue)"
        case .spring(let spring):
            out += springSpelling(spring)
        case .composed(let outer, let inner):
            out += "compose("
            write(outer, into: &out)
            out += ", "
            write(inner, into: &out)
            out += ")"
        case .mirror(let inner):
            out += "mirror("
            write(inner, into: &out)
            out += ")"
        case .piecewise(let points):
            out += linearSpelling(points)
        }
    }
}
