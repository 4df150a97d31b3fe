import AnimLang
import AnimOutputs
import Animations

/// Random well-formed programs covering every construct of the language:
/// every tween form, every modifier, `wait`/`zero`/`one`, names (including
/// contextual keywords such as `fade`, `once` and `s`), nested `||` and `;`,
/// every easing family, exact and inexact numbers, negative numbers.
///
/// Every program it makes parses without diagnostics once printed: counts are
/// whole and ≥ 0, durations ≥ 0, easings valid, names not reserved, and views
/// come before bindings (the order ``format(_:)-(Program)`` prints them in).
public struct ProgramGenerator {
    /// SplitMix64 (Steele, Lea and Flood 2014): a tiny seeded generator, so a
    /// failing round trip can be replayed from its seed.
    public struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64

        public init(seed: UInt64) {
            state = seed
        }

        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private var random: SplitMix64
    /// Decides where named values and calls go, apart from `random`, so
    /// that a program without them is the one the seed always made.
    private var named: SplitMix64
    /// Decides where parts (`played`, fractional counts) go, apart from
    /// `random`, for the same reason.
    private var parts: SplitMix64

    public init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        named = SplitMix64(seed: seed ^ 0x7A11_5EED)
        parts = SplitMix64(seed: seed ^ 0x9A27_5EED)
    }

    public static let bindingNames = ["left", "right", "pulse", "final", "grow", "fade", "fadeIn", "rotate", "animate", "once",
                               "views", "a", "high", "s", "ms", "degrees", "by_", "times", "out", "ease-in_", "x_1", "my-anim"]
    /// Value `let`s every program binds (so their names read as values
    /// wherever a number, a duration or an easing is written), and the
    /// parameterised `let`s it may call.
    public static let valueNames = (number: "lift", duration: "quick", easing: "snap", color: "brand", point: "home")
    public static let viewNames = ["circle", "square", "ball", "v1", "my-view", "views", "once", "out", "s", "grow", "fade"]
    public static let properties = ["radius", "opacity", "x", "corner-radius", "scale", "scale-x", "scale-y", "width", "s", "once"]

    public mutating func program() -> Program {
        var items: [Item] = []
        for _ in 0..<int(0...2) {
            var initials: [ViewDeclaration.Initial] = []
            for _ in 0..<int(0...3) {
                if int(0...3) == 0 {
                    initials.append(ViewDeclaration.Initial(property: pick(["color", "fill"]), value: .color(color())))
                } else {
                    initials.append(ViewDeclaration.Initial(property: pick(Self.properties), value: .number(number())))
                }
            }
            // Placement (docs/exports.md §6): a home, an origin by word or by fractions of the box.
            var home: ValueSyntax?
            var origin: ViewDeclaration.OriginSyntax?
            if int(0...2) == 0 { home = .point(x: number(), y: number(), range: .none) }
            switch int(0...5) {
            case 0: origin = .word(pick(Placement.originWords.map(\.word)), range: .none)
            case 1:
                let quarters = (0...4).compactMap { Time(numerator: Int64($0), denominator: 4) }.map { Number($0) }
                origin = .value(.point(x: pick(quarters), y: pick(quarters), range: .none))
            default: break
            }
            items.append(.view(ViewDeclaration(name: pick(Self.viewNames), initials: initials, home: home, origin: origin)))
        }
        if named.next() % 3 == 0 {
            // Named values of every kind, and parameterised `let`s with a target, a number with a default, an animation.
            let names = Self.valueNames
            withValues = true
            items.append(.binding(Binding(name: names.number, value: Expr(.value(.plain(.number(number())))))))
            items.append(.binding(Binding(name: names.duration, value: Expr(.value(.duration(Duration(number: Number(Time(Int64(int(1...900)))), unit: .milliseconds)))))))
            items.append(.binding(Binding(name: names.easing, value: Expr(.value(.easing(easing(depth: 1), .none))))))
            items.append(.binding(Binding(name: names.color, value: Expr(.value(.plain(.color(color())))))))
            items.append(.binding(Binding(name: names.point, value: Expr(.value(.plain(.point(x: number(), y: number(), range: .none)))))))
            let bump = TweenSyntax(verb: .grow, target: .view("v", .none), from: .number(Number(formula: .name("amount", .none))),
                                   to: .number(Number(formula: .binary(.times, .name("amount", .none), .literal(Number(Time(2))), .none))))
            items.append(.binding(Binding(name: "bump", parameters: [Parameter(name: "v"), Parameter(name: "amount", defaultValue: Expr(.name(names.number)))],
                                          value: Expr(.retimed(Expr(.tween(bump)), Duration(number: Number(formula: .name(names.duration, .none)), unit: .implicit))))))
            items.append(.binding(Binding(name: "twice", parameters: [Parameter(name: "a")],
                                          value: Expr(.sequence([Expr(.name("a")), Expr(.reversed(Expr(.name("a"))))])))))
        }
        for _ in 0..<int(1...4) {
            items.append(.binding(Binding(name: pick(Self.bindingNames), value: expr(depth: int(0...5)))))
        }
        withValues = false
        return Program(items: items)
    }

    /// Whether the program being made binds the value `let`s and the parameterised ones.
    private var withValues = false

    /// A call of `bump` or `twice`, or a use of a named value.
    public mutating func namedLeaf(depth: Int) -> Expr {
        let names = Self.valueNames
        switch int(0...5) {
        case 0:
            var arguments = [Expr(.name(pick(Self.viewNames)))]
            if bool() { arguments.append(bool() ? Expr(.value(.plain(.number(number())))) : Expr(.name(names.number))) }
            return Expr(.call("bump", arguments))
        case 1:
            return Expr(.call("twice", [expr(depth: depth - 1)]))
        case 2:
            // A named duration alone, or in arithmetic with units (docs/semantics.md §8.4: `gap * 2`, `gap + 50ms`).
            let gap = Formula.name(names.duration, .none)
            let formula: Formula
            switch int(0...2) {
            case 0: formula = gap
            case 1: formula = .binary(.times, gap, .literal(Number(Time(Int64(int(1...3))))), .none)
            default: formula = .binary(.plus, gap, .unit(.literal(Number(Time(Int64(int(1...90))))), .milliseconds, .none), .none)
            }
            return Expr(.wait(Duration(number: Number(formula: formula), unit: .implicit)))
        case 3:
            return Expr(.easedByName(Expr(.tween(tween())), names.easing, .none))
        case 4:
            let lift = Formula.name(names.number, .none)
            let formula: Formula = bool() ? .binary(.minus, lift, .literal(number()), .none) : .negated(lift, .none)
            return Expr(.tween(TweenSyntax(verb: .animate, target: .view(pick(Self.viewNames), .none), property: "x",
                                           from: .number(Number(formula: lift)), to: .number(Number(formula: formula)))))
        default:
            let verb: TweenSyntax.Verb = bool() ? .color : .move
            let name = verb == .color ? names.color : names.point
            let other: ValueSyntax = verb == .color ? .color(color()) : .point(x: number(), y: number(), range: .none)
            return Expr(.tween(TweenSyntax(verb: verb, target: .view(pick(Self.viewNames), .none),
                                           from: .number(Number(formula: .name(name, .none))), to: other)))
        }
    }

    public mutating func expr(depth: Int) -> Expr {
        if depth <= 0 || int(0...9) < 2 { return leaf() }
        let operand = { (generator: inout ProgramGenerator) in generator.expr(depth: depth - 1) }
        switch parts.next() % 16 {
        case 0:
            return played(operand(&self))
        case 1:
            // A count that is not whole (docs/semantics.md §8.5): `^ 2.5`, `repeated 1.5 times`.
            let count = Count(number: Number(Time(numerator: Int64(1 + 2 * int(0...3)), denominator: pick([2, 4, 5] as [Int64])) ?? .one))
            return bool() ? Expr(.power(operand(&self), count)) : Expr(.repeated(operand(&self), count))
        default:
            break
        }
        switch int(0...13) {
        case 12:
            return Expr(.staggered(operand(&self), duration(), stagger()))
        case 13:
            return Expr(.forever(operand(&self), looped: bool()))
        case 0, 1:
            return Expr(.parallel((0..<int(2...4)).map { _ in operand(&self) }))
        case 2, 3:
            // Some parts after the first overlap the parts before them (docs/semantics.md §8.1).
            return Expr(.sequence((0..<int(2...4)).map { index in
                let part = operand(&self)
                return index > 0 && int(0...3) == 0 ? Expr(.overlapping(part, duration())) : part
            }))
        case 4:
            return Expr(.power(operand(&self), count()))
        case 5:
            return Expr(.reversed(operand(&self)))
        case 6:
            return Expr(.looped(operand(&self), count()))
        case 7:
            return Expr(.repeated(operand(&self), count()))
        case 8:
            return Expr(.delayed(operand(&self), duration()))
        case 9:
            return Expr(.retimed(operand(&self), duration()))
        default:
            return Expr(.eased(operand(&self), easing(depth: 2), .none))
        }
    }

    public mutating func leaf() -> Expr {
        if withValues, named.next() % 4 == 0 { return namedLeaf(depth: 2) }
        switch int(0...9) {
        case 0, 1: return Expr(.name(pick(Self.bindingNames)))
        case 2: return Expr(.zero)
        case 3: return Expr(.one)
        case 4: return Expr(.wait(duration()))
        case 5 where int(0...2) == 0: return Expr(.emit(pick(["tick", "land", "done", "views", "once"])))
        default: return Expr(.tween(tween()))
        }
    }

    public mutating func tween() -> TweenSyntax {
        let verb = pick(TweenSyntax.Verb.allCases)
        let target: Target = verb != .animate && int(0...4) == 0 ? .allViews(.none) : .view(pick(Self.viewNames), .none)
        switch verb {
        case .fadeIn, .fadeOut:
            return TweenSyntax(verb: verb, target: target)
        case .fade:
            return values(TweenSyntax(verb: verb, target: target), { .number($0.number()) })
        case .shrink, .grow, .scale:
            let property = bool() ? pick(Self.properties) : nil
            return values(TweenSyntax(verb: verb, target: target, property: property), { .number($0.number()) })
        case .rotate:
            let unit: TweenSyntax.AngleUnit? = bool() ? nil : pick([.degrees, .radians, .turns])
            return values(TweenSyntax(verb: verb, target: target, angleUnit: unit), { .number($0.number()) })
        case .animate:
            if int(0...3) == 0 {
                return values(TweenSyntax(verb: verb, target: target, property: pick(["color", "fill"])), { .color($0.color()) })
            }
            return values(TweenSyntax(verb: verb, target: target, property: pick(Self.properties)), { .number($0.number()) })
        case .color:
            return values(TweenSyntax(verb: verb, target: target), { .color($0.color()) })
        case .move:
            return values(TweenSyntax(verb: verb, target: target), { .point(x: $0.number(), y: $0.number(), range: .none) })
        }
    }

    /// `from A to B` (most of the time) or `through` keyframes, some with
    /// offsets (non-decreasing, none on the ends).
    private mutating func values(_ tween: TweenSyntax, _ value: (inout ProgramGenerator) -> ValueSyntax) -> TweenSyntax {
        var tween = tween
        // From where it is (docs/semantics.md §7.1): `to B`, or `by Δ` (colours only take `to`; a `by` on one is the lowering's error).
        if int(0...5) == 0 {
            if bool() { tween.to = value(&self) } else { tween.by = value(&self) }
            return tween
        }
        if int(0...3) > 0 {
            tween.from = value(&self)
            tween.to = value(&self)
            return tween
        }
        let count = int(2...5)
        var offset = 0
        tween.keyframes = (0..<count).map { index in
            var keyframe = Keyframe(value: value(&self))
            if index > 0, index < count - 1, bool() {
                offset = int(offset...100)
                keyframe.offset = Number(Time(Int64(offset)))
            }
            // An easing on the piece leaving it (docs/semantics.md §8.2; any easing: it eases a tween).
            if index < count - 1, int(0...3) == 0 {
                // Or named, when the program binds an easing.
                if withValues, bool() { keyframe.easingName = Self.valueNames.easing } else { keyframe.easing = easing(depth: 1) }
            }
            return keyframe
        }
        return tween
    }

    /// Named colours, exact hex colours, and channels that need `rgb(…)`
    /// (fractions of 255, alpha below 1).
    public mutating func color() -> ColorSyntax {
        switch int(0...3) {
        case 0:
            return ColorSyntax(ColorNames.color(named: pick(["red", "rebeccapurple", "transparent", "tan", "aqua"])) ?? Color(red: 0, green: 0, blue: 0))
        case 1:
            return ColorSyntax(Color(red: Double(int(0...255)), green: Double(int(0...255)), blue: Double(int(0...255))))
        case 2:
            return ColorSyntax(Color(red: Double(int(0...255)), green: Double(int(0...255)), blue: Double(int(0...255)),
                                     alpha: Double(int(0...255)) / 255))
        default:
            return ColorSyntax(Color(red: Double(int(0...2550)) / 10, green: Double(int(0...255)) / 7, blue: 255,
                                     alpha: Double(int(0...100)) / 100))
        }
    }

    /// Exact decimals, exact fractions, inexact values (multiples of π, very
    /// large and very small), about half of them negative.
    public mutating func number() -> Number {
        let sign: Int64 = bool() ? -1 : 1
        switch int(0...9) {
        case 0...3:
            let power = pick([1, 10, 100, 1000] as [Int64])
            return Number(Time(numerator: sign * Int64(int(0...5000)), denominator: power) ?? .zero)
        case 4, 5:
            let denominator = pick([3, 7, 9, 12, 6, 11] as [Int64])
            return Number(Time(numerator: sign * Int64(int(1...100)), denominator: denominator) ?? .zero)
        case 6, 7:
            return Number(exact: nil, value: Double(sign) * Double(int(1...12)) * Double.pi / Double(int(1...8)), mentionsPi: true)
        case 8:
            if bool() {
                // Literals whose exact value needs more than 53 bits, as the parser reads them.
                let literal = (sign < 0 ? "-" : "") + pick(["123456789012345.678", "9007199254740993", "0.1234567890123456789", "4611686018427387904.5"])
                return Number(exact: Time(decimal: literal), value: Double(literal) ?? 0)
            }
            return Number(exact: nil, value: Double(sign) * pick([1.5e30, 2e19, 1e300, 7.25e22]))
        default:
            return Number(exact: nil, value: Double(sign) * pick([1e-300, 2.5e-20, Double.leastNonzeroMagnitude, 1.0000000000000002]))
        }
    }

    /// `x played from T1 to T2`, `from T1`, `to T2`: durations or percentages, `T1 ≤ T2`.
    mutating func played(_ operand: Expr) -> Expr {
        var times: [PartTime]
        if bool() {
            let a = int(0...100), b = int(0...100)
            times = [min(a, b), max(a, b)].map { PartTime(.percent(Number(Time(Int64($0))))) }
        } else {
            let a = Time(numerator: Int64(int(0...12)), denominator: 4) ?? .zero, b = Time(numerator: Int64(int(0...12)), denominator: 4) ?? .zero
            times = [min(a, b), max(a, b)].map { PartTime(.duration(Duration(number: Number($0), unit: pick([.implicit, .seconds])))) }
        }
        switch int(0...3) {
        case 0: return Expr(.played(operand, from: times[0], to: nil))
        case 1: return Expr(.played(operand, from: nil, to: times[1]))
        default: return Expr(.played(operand, from: times[0], to: times[1]))
        }
    }

    /// A whole count ≥ 0.
    /// How `staggered` spreads (docs/semantics.md §8.3): by or over, from any origin
    /// (`backwards` too), spaced by an easing or not.
    mutating func stagger() -> StaggerSyntax {
        if int(0...2) == 0 { return .by(backwards: bool()) }
        var how = StaggerSyntax(over: bool(), origin: pick(Stagger.Origin.allCases))
        if bool() { how.spacing = pick([Easing.linear, .penner(.quad, .in), .penner(.cubic, .inOut)]) }
        return how
    }

    public mutating func count() -> Count {
        Count(Int64(int(0...5)))
    }

    /// A duration ≥ 0: exact or inexact (a multiple of π), in any unit.
    public mutating func duration() -> Duration {
        switch int(0...5) {
        case 0...3:
            let exact = Time(numerator: Int64(int(0...4000)), denominator: pick([1, 2, 4, 10, 3, 1000] as [Int64])) ?? .zero
            return Duration(number: Number(exact), unit: pick([.implicit, .seconds, .milliseconds]))
        default:
            let value = Double(int(1...6)) * Double.pi / Double(int(1...4))
            return Duration(number: Number(exact: nil, value: value, mentionsPi: true), unit: pick([.implicit, .seconds, .milliseconds]))
        }
    }

    /// Every family: linear, named, the talk's curves with parameters,
    /// cubic-bezier, steps in every position, springs in every spelling,
    /// compositions.
    public mutating func easing(depth: Int) -> Easing {
        do {
            switch int(0...(depth > 0 ? 7 : 6)) {
            case 0:
                return .linear
            case 1:
                return EasingNames.easing(named: pick(EasingNames.allNames)) ?? .linear
            case 2:
                let parameter = pick([0.5, 1.5, 2, 3, 0.25, 1, 7.125])
                switch int(0...2) {
                case 0: return try .easeIn(parameter)
                case 1: return try .easeOut(parameter)
                default: return try .easeInOut(parameter)
                }
            case 3:
                return try .cubicBezier(Double(int(0...100)) / 100, Double(int(-100...200)) / 100,
                                        Double(int(0...100)) / 100, Double(int(-100...200)) / 100)
            case 4:
                let position = pick(Easing.StepPosition.allCases)
                return try .steps(int(position == .jumpNone ? 2...12 : 1...12), position)
            case 5:
                return EasingNames.easing(named: pick(["ease", "css-ease-in", "step-start", "ease-in-out-elastic", "ease-out-back"])) ?? .linear
            case 6:
                return try spring()
            default:
                return easing(depth: depth - 1).composed(after: easing(depth: depth - 1))
            }
        } catch {
            return .linear
        }
    }

    /// A spring: named, by bounce (under-, critically and over-damped), or
    /// physical with some of its parameters (decimals and inexact values,
    /// masses other than 1, velocities of either sign).
    public mutating func spring() throws(AnimationError) -> Easing {
        switch int(0...3) {
        case 0:
            return EasingNames.spring(adjective: pick([nil, "smooth", "snappy", "bouncy"])) ?? .linear
        case 1:
            return try .spring(bounce: pick([0, 0.3, 0.5, 0.9, 0.99, -0.25, -0.5, -0.9, 0.123456789, -1.0 / 3]))
        default:
            var given: [String: Double] = [:]
            for (name, _) in EasingNames.springPhysicalParameters where bool() {
                switch name {
                case "stiffness", "mass":
                    given[name] = pick([1, 0.5, 2, 100, 170, 300, 1e-3, 12.34, Double.pi, 1e6])
                case "damping":
                    given[name] = pick([1, 10, 12, 20, 26, 0.5, 100, 2 * Double.pi / 3])
                default:
                    given[name] = pick([0, 5, -5, 0.25, -100, 1.0 / 7])
                }
            }
            return try EasingNames.spring(physical: given)
        }
    }

    // MARK: Choices

    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    public mutating func bool() -> Bool {
        Bool.random(using: &random)
    }

    public mutating func pick<T>(_ choices: [T]) -> T {
        choices[int(0...(choices.count - 1))]
    }
}
