import Animations

/// The syntax tree of a `.anim` file: the free semiring over tween leaves
/// (`||` and `;` over tweens, `wait`, `zero` and `one`), plus the unary
/// modifiers (`reversed`, `looped`, `repeated`, `^`, `delayed by`, `in`, `with`).
///
/// Every node carries the source range it was parsed from. Equality ignores
/// ranges, so `parse(print(ast)) == ast` states the round trip directly.
public struct Program: Equatable, Sendable {
    public var items: [Item]
    public init(items: [Item]) {
        self.items = items
    }

    /// The `let` bindings, in source order.
    public var bindings: [Binding] {
        items.compactMap { if case .binding(let binding) = $0 { return binding } else { return nil } }
    }

    /// The `view` declarations, in source order.
    public var views: [ViewDeclaration] {
        items.compactMap { if case .view(let view) = $0 { return view } else { return nil } }
    }
}

/// A top-level item.
public enum Item: Equatable, Sendable {
    case binding(Binding)
    /// Boxed: a view declaration is about twice a binding's size, and
    /// inline it would size every item (a long script holds one per `let`).
    indirect case view(ViewDeclaration)
}

/// `let NAME = EXPR`, `let NAME = VALUE` (a named number, duration, point,
/// colour or easing: `value` is an ``Expr/Kind/value(_:)``, or a name), or
/// `let NAME(P1, P2 = DEFAULT, …) = BODY` (a parameterised animation).
public struct Binding: Equatable, Sendable {
    public var name: String
    public var nameRange: SourceRange
    public var value: Expr
    public var range: SourceRange
    /// The parameters of a parameterised `let`; `nil` for a plain one.
    public var parameters: [Parameter]?

    public init(name: String, nameRange: SourceRange = .none, parameters: [Parameter]? = nil, value: Expr,
                range: SourceRange = .none) {
        self.name = name
        self.nameRange = nameRange
        self.parameters = parameters
        self.value = value
        self.range = range
    }

    public static func == (lhs: Binding, rhs: Binding) -> Bool {
        lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.value == rhs.value
    }
}

/// A parameter of a parameterised `let`, with its default (an argument read
/// in the file's top-level scope) and every place BODY uses it: how the
/// parser read each use decides the parameter's kind (``ParameterKind``).
public struct Parameter: Equatable, Sendable {
    public var name: String
    public var range: SourceRange
    public var defaultValue: Expr?
    /// Each use in BODY, in source order (not compared).
    public var uses: [ParameterUse]

    public init(name: String, range: SourceRange = .none, defaultValue: Expr? = nil, uses: [ParameterUse] = []) {
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.uses = uses
    }

    public static func == (lhs: Parameter, rhs: Parameter) -> Bool {
        lhs.name == rhs.name && lhs.defaultValue == rhs.defaultValue
    }
}

/// How BODY uses a parameter at one place.
public struct ParameterUse: Equatable, Sendable {
    public enum Role: Equatable, Sendable {
        /// What the use itself says (a target, a number, an animation, …).
        case kind(ParameterKind)
        /// A whole argument of a call: the callee's parameter decides.
        case argument(callee: String, index: Int)
    }
    public var role: Role
    public var range: SourceRange
    public init(_ role: Role, at range: SourceRange) {
        self.role = role
        self.range = range
    }
}

/// The kind of a named value, a parameter or an argument.
public enum ParameterKind: Hashable, Sendable {
    /// A view name (or `all views`) after a verb.
    case target
    case animation
    case number
    /// A duration; a number is one too (in seconds).
    case duration
    case color
    case point
    case easing
    /// A tween's value whose kind the verb leaves open (`animate`): a number, a colour or a point.
    case value

    /// "a target", "a number", ….
    public var article: String {
        switch self {
        case .target: return "a view"
        case .animation: return "an animation"
        case .number: return "a number"
        case .duration: return "a duration"
        case .color: return "a colour"
        case .point: return "a point"
        case .easing: return "an easing"
        case .value: return "a value"
        }
    }

    /// The one kind two uses agree on, or `nil` when they conflict: a
    /// number is a duration too, and a value is a number, a colour or a point.
    public func unified(with other: ParameterKind) -> ParameterKind? {
        if self == other { return self }
        switch (self, other) {
        case (.number, .duration), (.duration, .number): return .number
        case (.value, .number), (.value, .color), (.value, .point): return other
        case (.number, .value), (.color, .value), (.point, .value): return self
        case (.target, _), (.animation, _), (.number, _), (.duration, _), (.color, _), (.point, _), (.easing, _), (.value, _):
            return nil
        }
    }

    /// Whether a value of kind `found` may stand where this kind is expected.
    public func accepts(_ found: ParameterKind) -> Bool {
        if self == found { return true }
        switch (self, found) {
        case (.duration, .number): return true
        case (.value, .number), (.value, .color), (.value, .point): return true
        case (.target, _), (.animation, _), (.number, _), (.duration, _), (.color, _), (.point, _), (.easing, _), (.value, _):
            return false
        }
    }
}

/// A value written as a `let`'s right-hand side or as an argument.
public enum ValueExpr: Equatable, Sendable {
    /// A number, a colour or a point (a number may be arithmetic over names).
    case plain(ValueSyntax)
    /// A number with a unit (`300ms`).
    case duration(Duration)
    /// An easing written out (`cubic-bezier(0.2, 0, 0, 1)`, `snappy spring`).
    case easing(Easing, SourceRange)
    /// `all views` as an argument.
    case allViews(SourceRange)

    public var range: SourceRange {
        switch self {
        case .plain(let value): return value.range
        case .duration(let duration): return duration.range
        case .easing(_, let range), .allViews(let range): return range
        }
    }

    /// Equal when they denote the same value; ranges are ignored.
    public static func == (lhs: ValueExpr, rhs: ValueExpr) -> Bool {
        switch (lhs, rhs) {
        case (.plain(let a), .plain(let b)): return a == b
        case (.duration(let a), .duration(let b)): return a == b
        case (.easing(let a, _), .easing(let b, _)): return a == b
        case (.allViews, .allViews): return true
        case (.plain, _), (.duration, _), (.easing, _), (.allViews, _): return false
        }
    }
}

/// A number written with names (`lift * 2`), folded once the names have
/// values: in a `let`'s right-hand side, or where a call expands.
public indirect enum Formula: Equatable, Sendable {
    case literal(Number)
    case name(String, SourceRange)
    case negated(Formula, SourceRange)
    case binary(ArithmeticOperator, Formula, Formula, SourceRange)
    /// `250ms`, `(1 + 2)s`, `lift ms` inside duration arithmetic
    /// (docs/semantics.md §8.4): a unit belongs to the literal, the parenthesised number or the
    /// name just before it, which must be a number; the result is a duration.
    case unit(Formula, Duration.Unit, SourceRange)

    /// What a number written with units is: a plain number, or a duration
    /// (in seconds). A bare number where a duration is expected means seconds.
    public enum Measure: Equatable, Sendable {
        case number, duration
    }

    public var range: SourceRange {
        switch self {
        case .literal(let number): return number.range
        case .name(_, let range), .negated(_, let range), .binary(_, _, _, let range), .unit(_, _, let range): return range
        }
    }

    /// Whether a unit is written anywhere in it.
    public var hasUnit: Bool {
        switch self {
        case .literal, .name: return false
        case .negated(let inner, _): return inner.hasUnit
        case .binary(_, let left, let right, _): return left.hasUnit || right.hasUnit
        case .unit: return true
        }
    }

    /// Every name it mentions, with where, in source order.
    public var names: [(String, SourceRange)] {
        switch self {
        case .literal: return []
        case .name(let name, let range): return [(name, range)]
        case .negated(let inner, _), .unit(let inner, _, _): return inner.names
        case .binary(_, let left, let right, _): return left.names + right.names
        }
    }

    public static func == (lhs: Formula, rhs: Formula) -> Bool {
        switch (lhs, rhs) {
        case (.literal(let a), .literal(let b)): return a == b
        case (.name(let a, _), .name(let b, _)): return a == b
        case (.negated(let a, _), .negated(let b, _)): return a == b
        case (.binary(let o, let a, let b, _), .binary(let p, let c, let d, _)): return o == p && a == c && b == d
        case (.unit(let a, let u, _), .unit(let b, let v, _)): return u == v && a == b
        case (.literal, _), (.name, _), (.negated, _), (.binary, _), (.unit, _): return false
        }
    }
}

extension Formula {
    /// The number it stands for, exactly while it can be: `value` gives each
    /// name's number (`nil` stops the fold, having said why), and a division
    /// by zero or a result too large goes to `failed`, located.
    func folded<Context>(_ context: inout Context, value: (inout Context, String, SourceRange) -> Number?,
                         failed: (inout Context, Diagnostic) -> Void) -> Number? {
        measured(&context, value: { context, name, range in value(&context, name, range).map { ($0, .number) } },
                 failed: failed)?.number
    }

    /// ``folded(_:value:failed:)`` with each part's measure (docs/semantics.md §8.4):
    /// `value` gives each name's number and whether it is a duration (in
    /// seconds). Duration ± duration, duration × or ÷ number and number ×
    /// duration are durations, a bare number in a sum with a duration is
    /// seconds, duration ÷ duration is a number (a ratio); a duration times a
    /// duration, a number divided by a duration and a unit on a duration go
    /// to `failed`, located.
    func measured<Context>(_ context: inout Context, value: (inout Context, String, SourceRange) -> (Number, Measure)?,
                           failed: (inout Context, Diagnostic) -> Void) -> (number: Number, measure: Measure)? {
        switch self {
        case .literal(let literal):
            return (literal, .number)
        case .name(let name, let range):
            return value(&context, name, range).map { (number: $0.0, measure: $0.1) }
        case .negated(let inner, let range):
            return inner.measured(&context, value: value, failed: failed).map { (negatedNumber($0.number, range: range), $0.measure) }
        case .unit(let inner, let unit, let range):
            guard let (number, measure) = inner.measured(&context, value: value, failed: failed) else { return nil }
            guard measure == .number else {
                let name = inner.names.first?.0
                failed(&context, Diagnostic(.unitOnDuration(name), at: range,
                                            hint: name == nil ? "write the unit once" : "a named duration carries its unit: leave out `\(unit.rawValue)`"))
                return nil
            }
            switch unit {
            case .implicit, .seconds:
                return (Number(exact: number.exact, value: number.value, mentionsPi: number.mentionsPi, range: range), .duration)
            case .milliseconds:
                guard case .number(let seconds) = combineNumbers(number, .divided, Number(Time(1000)), range: range) else {
                    failed(&context, Diagnostic(.notFiniteNumber(formatNumber(number.value) + "ms"), at: range))
                    return nil
                }
                return (seconds, .duration)
            }
        case .binary(let op, let left, let right, let range):
            guard let (a, am) = left.measured(&context, value: value, failed: failed),
                  let (b, bm) = right.measured(&context, value: value, failed: failed) else { return nil }
            let written = "\(formatNumber(a.value))\(am == .duration ? "s" : "") \(op.rawValue) \(formatNumber(b.value))\(bm == .duration ? "s" : "")"
            guard let measure = Formula.measure(am, op, bm) else {
                failed(&context, Diagnostic(.durationArithmetic(written, divides: op == .divided), at: range,
                                            hint: op == .divided ? "a unit belongs to the number just before it: write `(1/4)s` for a fraction of a second, or divide a duration by a number, `gap / 2`"
                                                : "multiply a duration by a number: `gap * 2`"))
                return nil
            }
            switch combineNumbers(a, op, b, range: range) {
            case .number(let result): return (result, measure)
            case .divisionByZero: failed(&context, Diagnostic(.divisionByZero(written), at: range))
            case .notFinite, .quietlyNotFinite:
                failed(&context, Diagnostic(.notFiniteNumber(written), at: range))
            }
            return nil
        }
    }

    /// The measure of `left op right`, `nil` when it has none (a duration
    /// times a duration, a number divided by a duration).
    static func measure(_ left: Measure, _ op: ArithmeticOperator, _ right: Measure) -> Measure? {
        switch (left, op, right) {
        case (.number, _, .number): return .number
        case (.duration, .plus, _), (.duration, .minus, _), (_, .plus, .duration), (_, .minus, .duration): return .duration
        case (.duration, .times, .number), (.number, .times, .duration), (.duration, .divided, .number): return .duration
        case (.duration, .divided, .duration): return .number
        case (.duration, .times, .duration), (.number, .divided, .duration): return nil
        }
    }
}

/// `+ - * /` of numbers.
public enum ArithmeticOperator: String, Equatable, Sendable {
    case plus = "+", minus = "-", times = "*", divided = "/"
}

/// `view NAME (PROP NUMBER)*`: declares a view and the initial values of some
/// of its properties (used before any segment on them starts).
public struct ViewDeclaration: Equatable, Sendable {
    public struct Initial: Equatable, Sendable {
        public var property: String
        public var value: ValueSyntax
        public var range: SourceRange
        public init(property: String, value: ValueSyntax, range: SourceRange = .none) {
            self.property = property
            self.value = value
            self.range = range
        }
        public static func == (lhs: Initial, rhs: Initial) -> Bool {
            lhs.property == rhs.property && lhs.value == rhs.value
        }
    }

    /// `origin WORD` or `origin (FX, FY)` as written.
    public enum OriginSyntax: Equatable, Sendable {
        case word(String, range: SourceRange)
        case value(ValueSyntax)

        public var range: SourceRange {
            switch self {
            case .word(_, let range): return range
            case .value(let value): return value.range
            }
        }

        public static func == (lhs: OriginSyntax, rhs: OriginSyntax) -> Bool {
            switch (lhs, rhs) {
            case (.word(let a, _), .word(let b, _)): return a == b
            case (.value(let a), .value(let b)): return a == b
            case (.word, _), (.value, _): return false
            }
        }
    }

    public var name: String
    public var nameRange: SourceRange
    public var initials: [Initial]
    /// `at (X, Y)`: the view's home on the stage (the resolver checks it is a point).
    public var home: ValueSyntax?
    /// `origin O`: the point scale and rotation turn about.
    public var origin: OriginSyntax?
    public var range: SourceRange

    public init(name: String, nameRange: SourceRange = .none, initials: [Initial], home: ValueSyntax? = nil,
                origin: OriginSyntax? = nil, range: SourceRange = .none) {
        self.name = name
        self.nameRange = nameRange
        self.initials = initials
        self.home = home
        self.origin = origin
        self.range = range
    }

    public static func == (lhs: ViewDeclaration, rhs: ViewDeclaration) -> Bool {
        lhs.name == rhs.name && lhs.initials == rhs.initials && lhs.home == rhs.home && lhs.origin == rhs.origin
    }
}

/// Where a view stands (docs/exports.md §6): its home on the stage, if given
/// (`view V at (X, Y)`, px, y down), and the point that `scale`, `scale-x`,
/// `scale-y` and `rotation` turn about, as fractions of the shape's box
/// (`origin`, default the centre). Every output reads it.
public struct Placement: Equatable, Sendable {
    public var home: (x: Double, y: Double)?
    /// (0, 0) is the box's top-left corner, (1, 1) its bottom-right.
    public var origin: (x: Double, y: Double)

    public init(home: (x: Double, y: Double)? = nil, origin: (x: Double, y: Double) = (0.5, 0.5)) {
        self.home = home
        self.origin = origin
    }

    public static let standard = Placement()

    /// The origin words and their fractions of the box.
    public static let originWords: [(word: String, x: Double, y: Double)] = [
        ("center", 0.5, 0.5), ("left", 0, 0.5), ("right", 1, 0.5), ("top", 0.5, 0), ("bottom", 0.5, 1),
        ("top-left", 0, 0), ("top-right", 1, 0), ("bottom-left", 0, 1), ("bottom-right", 1, 1),
    ]

    public static func == (lhs: Placement, rhs: Placement) -> Bool {
        lhs.home?.x == rhs.home?.x && lhs.home?.y == rhs.home?.y && lhs.origin == rhs.origin
    }
}

/// A number expression, folded by the parser (`2*pi` is one `Number`).
///
/// `exact` is the exact rational value when the expression used only decimal
/// literals and `+ - * /` without overflow; durations and counts need it.
/// `value` is the nearest `Double`. `mentionsPi` records whether `pi` or `tau`
/// appeared (for the `2*pi degrees` warning).
public struct Number: Equatable, Sendable {
    // Stored in 16 bytes (a tween holds several numbers, and a smaller
    // number makes ``ValueSyntax``, ``Duration`` and the tween's fields
    // smaller): the range as 32-bit offsets (``PackedRange``), and the
    // common case — an exact value whose numerator fits in 32 bits and
    // denominator in 24, whose `value` is that fraction's correctly rounded
    // `Double` bit for bit, with no formula and no `pi` — inline; every
    // other number (inexact, written with names or `pi`, large, `-0.0`, a
    // hand-built `value` that is not the fraction's) in a shared immutable box.
    private var packedRange: PackedRange
    private var storage: Storage

    private enum Storage: Sendable {
        /// `numerator / (low + high << 16)`, in lowest terms, the denominator ≥ 1.
        /// (Three parts, not a `UInt32`, so the case leaves a spare byte and the
        /// enum stays 8 bytes.)
        case small(numerator: Int32, low: UInt16, high: UInt8)
        case general(General)
    }

    private final class General: Sendable {
        let exact: Time?
        let value: Double
        let formula: Formula?
        let mentionsPi: Bool
        init(exact: Time?, value: Double, formula: Formula?, mentionsPi: Bool) {
            self.exact = exact
            self.value = value
            self.formula = formula
            self.mentionsPi = mentionsPi
        }
    }

    /// The one place a number's parts are stored: inline when they are the
    /// common case (see above), boxed otherwise.
    private static func storage(exact: Time?, value: Double, formula: Formula?, mentionsPi: Bool) -> Storage {
        if case .none = formula, !mentionsPi, let exact, let numerator = Int32(exactly: exact.numerator),
           exact.denominator >= 1, exact.denominator < 1 << 24,
           (Double(numerator) / Double(exact.denominator)).bitPattern == value.bitPattern {
            let denominator = UInt32(truncatingIfNeeded: exact.denominator)
            return .small(numerator: numerator, low: UInt16(truncatingIfNeeded: denominator),
                          high: UInt8(truncatingIfNeeded: denominator >> 16))
        }
        return .general(General(exact: exact, value: value, formula: formula, mentionsPi: mentionsPi))
    }

    /// Whether it is stored inline (for the tests of the representation).
    var isCompact: Bool {
        if case .small = storage { return true }
        return false
    }

    /// The exact rational value, when the number has one.
    public var exact: Time? {
        get {
            switch storage {
            case .small(let numerator, let low, let high):
                return Time(unchecked: Int64(numerator), Int64(low) | Int64(high) << 16)
            case .general(let general): return general.exact
            }
        }
        set { storage = Number.storage(exact: newValue, value: value, formula: formula, mentionsPi: mentionsPi) }
    }

    /// The nearest `Double` (NaN while a formula is not folded).
    public var value: Double {
        get {
            switch storage {
            case .small(let numerator, let low, let high):
                return Double(numerator) / Double(UInt32(low) | UInt32(high) << 16)
            case .general(let general): return general.value
            }
        }
        set { storage = Number.storage(exact: exact, value: newValue, formula: formula, mentionsPi: mentionsPi) }
    }

    /// When the number is written with names (`lift * 2`, a parameter): its
    /// formula, folded where the names have values. `value` is NaN until then.
    public var formula: Formula? {
        get {
            if case .general(let general) = storage { return general.formula }
            return nil
        }
        set { storage = Number.storage(exact: exact, value: value, formula: newValue, mentionsPi: mentionsPi) }
    }

    /// Whether `pi` or `tau` appeared (for the `2*pi degrees` warning).
    public var mentionsPi: Bool {
        get {
            if case .general(let general) = storage { return general.mentionsPi }
            return false
        }
        set { storage = Number.storage(exact: exact, value: value, formula: formula, mentionsPi: newValue) }
    }

    public var range: SourceRange {
        get { packedRange.range }
        set { packedRange = PackedRange(newValue) }
    }

    public init(exact: Time?, value: Double, mentionsPi: Bool = false, range: SourceRange = .none) {
        packedRange = PackedRange(range)
        storage = Number.storage(exact: exact, value: value, formula: nil, mentionsPi: mentionsPi)
    }

    /// A number written with names.
    public init(formula: Formula) {
        packedRange = PackedRange(formula.range)
        storage = Number.storage(exact: nil, value: .nan, formula: formula, mentionsPi: false)
    }

    /// The name, when the number is a name alone (which may stand for any kind of value).
    public var bareName: (String, SourceRange)? {
        if case .name(let name, let range)? = formula { return (name, range) }
        return nil
    }

    /// An exact number.
    public init(_ exact: Time, range: SourceRange = .none) {
        self.init(exact: exact, value: exact.seconds, range: range)
    }

    /// An inexact number (printed in shortest round-trip form).
    public init(_ value: Double, range: SourceRange = .none) {
        self.init(exact: Time(seconds: value).flatMap { $0.seconds == value ? $0 : nil }, value: value, range: range)
    }

    /// Equal when the `Double` values are identical and, where both are
    /// known, the exact values agree. (`2*pi` has no exact value; printed and
    /// read back it becomes the decimal `6.283185307179586`, which has one.)
    public static func == (lhs: Number, rhs: Number) -> Bool {
        // Two inline numbers are equal when their parts are (lowest terms, and `value` follows from them).
        if case .small(let a, let b, let c) = lhs.storage, case .small(let d, let e, let f) = rhs.storage {
            return a == d && b == e && c == f
        }
        if lhs.formula != nil || rhs.formula != nil { return lhs.formula == rhs.formula }
        guard lhs.value.bitPattern == rhs.value.bitPattern else { return false }
        if let a = lhs.exact, let b = rhs.exact { return a == b }
        return true
    }
}

/// A duration: a number with an optional unit (`2`, `2s`, `1.5 sec`, `250ms`).
public struct Duration: Equatable, Sendable {
    public enum Unit: String, Equatable, Sendable {
        /// No unit written: seconds.
        case implicit = ""
        case seconds = "s"
        case milliseconds = "ms"
    }

    public var number: Number
    public var unit: Unit
    private var packedRange: PackedRange
    public var range: SourceRange {
        get { packedRange.range }
        set { packedRange = PackedRange(newValue) }
    }

    public init(number: Number, unit: Unit = .seconds, range: SourceRange = .none) {
        self.number = number
        self.unit = unit
        packedRange = PackedRange(range)
    }

    /// Equal when they denote the same length of time (`500ms == 0.5s`).
    public static func == (lhs: Duration, rhs: Duration) -> Bool {
        if lhs.number.formula != nil || rhs.number.formula != nil { return lhs.number == rhs.number && lhs.unit == rhs.unit }
        if let a = lhs.exactSeconds, let b = rhs.exactSeconds { return a == b }
        // Without both exact values, compare the lengths in seconds as Doubles:
        // `wait pi`, `wait 3.141592653589793s` and `wait (1000*pi)ms` are the same duration.
        return lhs.approximateSeconds.bitPattern == rhs.approximateSeconds.bitPattern
    }

    /// The length in seconds as the nearest `Double`.
    var approximateSeconds: Double {
        unit == .milliseconds ? number.value / 1000 : number.value
    }

    /// The length as exact time: the exact value when the number is exact,
    /// else (it used `pi` or `tau`) the shortest decimal that reads back as
    /// it; `nil` when even that does not fit.
    public var time: Time? {
        exactSeconds ?? Time(seconds: approximateSeconds)
    }

    /// The exact length in seconds, when the number is exact.
    public var exactSeconds: Time? {
        guard let exact = number.exact else { return nil }
        switch unit {
        case .implicit, .seconds: return exact
        case .milliseconds: return try? exact.divided(by: Time(1000))
        }
    }
}

/// A time in `played from T1 to T2`: a duration, or a percentage of the
/// animation's length (`40%`). Equality ignores ranges.
public struct PartTime: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case duration(Duration)
        /// `N%` of `|x|`: N as written.
        case percent(Number)
    }

    public var kind: Kind
    public var range: SourceRange

    public init(_ kind: Kind, range: SourceRange = .none) {
        self.kind = kind
        self.range = range
    }

    public static func == (lhs: PartTime, rhs: PartTime) -> Bool {
        lhs.kind == rhs.kind
    }
}

/// A repetition count (`3` in `repeated 3 times`; `once` is 1, `twice` is 2).
public struct Count: Equatable, Sendable {
    public var number: Number {
        didSet { value = Count.whole(number) }
    }
    public var range: SourceRange
    /// The count, when `number` is a valid one: exactly a whole number ≥ 0
    /// that fits in an `Int`. `nil` otherwise, and then the parser has
    /// reported why; later stages read this and report nothing.
    public private(set) var value: Int?

    public init(number: Number, range: SourceRange = .none) {
        self.number = number
        self.range = range
        value = Count.whole(number)
    }

    static func whole(_ number: Number) -> Int? {
        guard let exact = number.exact, exact.denominator == 1, exact.numerator >= 0 else { return nil }
        return Int(exactly: exact.numerator)
    }

    /// The count, when it is exact, positive and not whole (`^ 2.5`,
    /// `repeated 2.5 times`: docs/semantics.md §8.5); `nil` otherwise.
    public var fraction: Time? {
        guard let exact = number.exact, exact.denominator != 1, exact.isPositive else { return nil }
        return exact
    }
    public init(_ value: Int64, range: SourceRange = .none) {
        self.init(number: Number(Time(value), range: range), range: range)
    }
    public static func == (lhs: Count, rhs: Count) -> Bool {
        lhs.number == rhs.number
    }
}

/// What a tween animates: one view, or every view named in the file.
public enum Target: Equatable, Sendable {
    case view(String, SourceRange)
    /// `all views` / `all`.
    case allViews(SourceRange)

    public var range: SourceRange {
        switch self {
        case .view(_, let range), .allViews(let range): return range
        }
    }

    public static func == (lhs: Target, rhs: Target) -> Bool {
        switch (lhs, rhs) {
        case (.view(let a, _), .view(let b, _)): return a == b
        case (.allViews, .allViews): return true
        case (.view, _), (.allViews, _): return false
        }
    }
}

/// A tween leaf. Every tween lasts 1 s (use `in` to change it) and is linear
/// (use `with` to ease it).
public struct TweenSyntax: Equatable, Sendable {
    public enum Verb: String, Equatable, Sendable, CaseIterable {
        case shrink, grow, scale, rotate, fadeIn, fadeOut, fade, animate, color, move
    }

    /// The unit of a `rotate` tween's numbers. Rotation is always reported in degrees.
    public enum AngleUnit: String, Equatable, Sendable {
        case degrees, radians, turns
    }

    // Stored compactly (one per tween of a script): `from` and `by` share a
    // slot, since a tween written `by Δ` has no `from`; a `by` beside a
    // `from` (only built by hand) goes in a box, with the keyframes (one
    // reference for both). The ranges are 32-bit offsets; the target is
    // stored as its parts (``target``). The one-byte fields sit in the
    // padding after ``fromOrBy``: 96 bytes (16-byte values), not 128.
    // The fields live in one object shared by copies (copy-on-write): a
    // copy of a tween (matching `.tween(let tween)`, passing it on) is one
    // retain, not a copy of 152 bytes and its references, and the object
    // is the node itself (``Expr/Kind/tween(_:)`` is the one case not boxed).
    private struct Stored {
        /// The target view's name ("" for all views).
        var targetName: String
        var property: String?
        var fromOrBy: ValueSyntax?
        var verb: Verb
        var angleUnit: AngleUnit?
        /// Whether ``fromOrBy`` holds `by`.
        var byInSlot: Bool
        var targetIsAllViews: Bool
        var to: ValueSyntax?
        var packedRange: PackedRange
        var packedTargetRange: PackedRange
        /// `by` beside `from`, and the keyframes: rare, so out of line (`nil` when neither is written).
        var rare: Rare?
    }

    private final class Fields: @unchecked Sendable {
        // `@unchecked`: written only through ``TweenSyntax/writable``, when
        // uniquely referenced, so never while another value (or thread) can read it;
        // for the same reason no access overlaps another, which is why the
        // runtime's exclusivity checks (two calls per read) are left out.
        @exclusivity(unchecked) var stored: Stored
        init(_ stored: Stored) { self.stored = stored }
    }

    private var fields: Fields

    /// ``fields``, copied first when shared: what every setter writes.
    private var writable: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&fields) { fields = Fields(fields.stored) }
            return fields
        }
    }

    /// The target view's name ("" for all views).
    private var targetName: String { fields.stored.targetName }
    /// The property: explicit for `animate V.P` and `shrink V from PROP …`;
    /// `nil` means the verb's default (`scale`, `rotation`, `opacity`, `color`;
    /// `x` and `y` for `move`).
    public var property: String? {
        get { fields.stored.property }
        set { writable.stored.property = newValue }
    }
    public var verb: Verb {
        get { fields.stored.verb }
        set { writable.stored.verb = newValue }
    }
    /// Only for `rotate`; `nil` means no unit was written (degrees).
    public var angleUnit: AngleUnit? {
        get { fields.stored.angleUnit }
        set { writable.stored.angleUnit = newValue }
    }
    private var targetIsAllViews: Bool { fields.stored.targetIsAllViews }
    public var to: ValueSyntax? {
        get { fields.stored.to }
        set { writable.stored.to = newValue }
    }
    private var packedTargetRange: PackedRange { fields.stored.packedTargetRange }
    /// `through v0, v1 at N%, …, vk`: the keyframes (k ≥ 1), when written so.
    public var keyframes: [Keyframe]? {
        get { fields.stored.rare?.keyframes }
        set { writable.stored.rare = TweenSyntax.rare(by: fields.stored.rare?.by, keyframes: newValue) }
    }

    public var target: Target {
        get { targetIsAllViews ? .allViews(packedTargetRange.range) : .view(targetName, packedTargetRange.range) }
        set {
            let fields = writable
            (fields.stored.targetName, fields.stored.targetIsAllViews, fields.stored.packedTargetRange) = TweenSyntax.parts(of: newValue)
        }
    }

    /// How ``target`` is stored.
    private static func parts(of target: Target) -> (String, Bool, PackedRange) {
        switch target {
        case .view(let name, let range): return (name, false, PackedRange(range))
        case .allViews(let range): return ("", true, PackedRange(range))
        }
    }

    /// An immutable box for the rare values stored out of line: a `by`
    /// beside a `from` (only built by hand) and the keyframes.
    private final class Rare: Sendable {
        let by: ValueSyntax?
        let keyframes: [Keyframe]?
        init(by: ValueSyntax?, keyframes: [Keyframe]?) {
            self.by = by
            self.keyframes = keyframes
        }
    }

    /// The box of `by` (beside `from`) and `keyframes`; `nil` when neither is given.
    private static func rare(by: ValueSyntax?, keyframes: [Keyframe]?) -> Rare? {
        if case .none = by, case .none = keyframes { return nil }
        return Rare(by: by, keyframes: keyframes)
    }

    /// `from A to B`; `nil` for `fadeIn`/`fadeOut` (0 → 1, 1 → 0) and for keyframes.
    /// `to B` alone (``from`` `nil`) starts from the property's current value (docs/semantics.md §7.1).
    public var from: ValueSyntax? {
        get { fields.stored.byInSlot ? nil : fields.stored.fromOrBy }
        set {
            if fields.stored.byInSlot {
                guard case .some = newValue else { return }
                writable.stored.rare = TweenSyntax.rare(by: fields.stored.fromOrBy, keyframes: fields.stored.rare?.keyframes)
                writable.stored.byInSlot = false
            }
            writable.stored.fromOrBy = newValue
        }
    }

    /// `by Δ`: from the current value to itself plus Δ (``from`` and ``to`` are `nil`).
    public var by: ValueSyntax? {
        get { fields.stored.byInSlot ? fields.stored.fromOrBy : fields.stored.rare?.by }
        set {
            if fields.stored.byInSlot {
                writable.stored.fromOrBy = newValue
                if case .none = newValue { writable.stored.byInSlot = false }
            } else if case .none = fields.stored.fromOrBy, case .some = newValue {
                writable.stored.fromOrBy = newValue
                writable.stored.byInSlot = true
                writable.stored.rare = TweenSyntax.rare(by: nil, keyframes: fields.stored.rare?.keyframes)
            } else {
                writable.stored.rare = TweenSyntax.rare(by: newValue, keyframes: fields.stored.rare?.keyframes)
            }
        }
    }

    public var range: SourceRange {
        get { fields.stored.packedRange.range }
        set { writable.stored.packedRange = PackedRange(newValue) }
    }

    public init(verb: Verb, target: Target, property: String? = nil, from: ValueSyntax? = nil, to: ValueSyntax? = nil,
                by: ValueSyntax? = nil, keyframes: [Keyframe]? = nil, angleUnit: AngleUnit? = nil, range: SourceRange = .none) {
        let (name, allViews, targetRange) = TweenSyntax.parts(of: target)
        let byAlone: Bool
        if case .none = from, case .some = by { byAlone = true } else { byAlone = false }
        fields = Fields(Stored(targetName: name, property: property, fromOrBy: byAlone ? by : from, verb: verb, angleUnit: angleUnit,
                               byInSlot: byAlone, targetIsAllViews: allViews, to: to, packedRange: PackedRange(range),
                               packedTargetRange: targetRange, rare: TweenSyntax.rare(by: byAlone ? nil : by, keyframes: keyframes)))
    }

    /// A tween between two numbers (the common case when building trees by hand).
    public init(verb: Verb, target: Target, property: String? = nil, from: Number?, to: Number?,
                angleUnit: AngleUnit? = nil, range: SourceRange = .none) {
        self.init(verb: verb, target: target, property: property, from: from.map(ValueSyntax.number),
                  to: to.map(ValueSyntax.number), angleUnit: angleUnit, range: range)
    }

    public static func == (lhs: TweenSyntax, rhs: TweenSyntax) -> Bool {
        lhs.verb == rhs.verb && lhs.target == rhs.target && lhs.property == rhs.property
            && lhs.from == rhs.from && lhs.to == rhs.to && lhs.by == rhs.by && lhs.keyframes == rhs.keyframes
            && lhs.angleUnit == rhs.angleUnit
    }

    /// The same tween with each value written in it (`from`, `to`, `by`, the
    /// keyframes) replaced by `transform`'s; `nil` when `transform` gives
    /// `nil` for one. (The one place that lists where a tween holds values.)
    public func mappingValues(_ transform: (ValueSyntax) -> ValueSyntax?) -> TweenSyntax? {
        var result = self
        if let from {
            guard let value = transform(from) else { return nil }
            result.from = value
        }
        if let to {
            guard let value = transform(to) else { return nil }
            result.to = value
        }
        if let by {
            guard let value = transform(by) else { return nil }
            result.by = value
        }
        if let keyframes {
            var list: [Keyframe] = []
            list.reserveCapacity(keyframes.count)
            for keyframe in keyframes {
                guard let value = transform(keyframe.value) else { return nil }
                list.append(Keyframe(value: value, offset: keyframe.offset, range: keyframe.range))
            }
            result.keyframes = list
        }
        return result
    }

    /// Whether a value written in it satisfies `predicate`.
    public func containsValue(where predicate: (ValueSyntax) -> Bool) -> Bool {
        if case .some(let value) = fields.stored.fromOrBy, predicate(value) { return true }
        if case .some(let value) = to, predicate(value) { return true }
        if case .some(let value) = fields.stored.rare?.by, predicate(value) { return true }
        return keyframes?.contains { predicate($0.value) } ?? false
    }

    /// How its start is given: written, or the current value (`to B` alone, `by Δ`).
    public var relative: Tween.Relative {
        // (Cases matched in place: `by != nil` copies the optional value first, which costs.)
        if case .some = by { return .by }
        if case .none = from, case .some = to, case .none = keyframes, verb != .fadeIn, verb != .fadeOut { return .to }
        return .absolute
    }

    /// The keyframes it moves through: `from A to B` is `through A, B`;
    /// `fadeIn` is `0, 1` and `fadeOut` `1, 0`. `nil` only for a hand-built
    /// tween missing its values.
    public var stops: [Keyframe]? {
        stopCount.map { count in (0..<count).map(stop) }
    }

    /// How many stops: 2 for `from A to B` and the fades, the keyframes'
    /// count for `through`; `nil` for a hand-built tween missing its values.
    public var stopCount: Int? {
        switch verb {
        case .fadeIn, .fadeOut: return 2
        case .shrink, .grow, .scale, .rotate, .fade, .animate, .color, .move:
            if case .some(let keyframes) = keyframes { return keyframes.count }
            if relative != .absolute { return 1 }
            if case .some = from, case .some = to { return 2 }
            return nil
        }
    }

    /// The stop at `index` (below ``stopCount``), read without building ``stops``.
    public func stop(_ index: Int) -> Keyframe {
        if case .some(let keyframes) = keyframes, verb != .fadeIn, verb != .fadeOut { return keyframes[index] }
        return Keyframe(value: stopValue(index))
    }

    /// The value of the stop at `index` (below ``stopCount``): ``stop(_:)``'s
    /// value, without making the keyframe.
    public func stopValue(_ index: Int) -> ValueSyntax {
        switch verb {
        case .fadeIn: return .number(Number(Time(index == 0 ? 0 : 1)))
        case .fadeOut: return .number(Number(Time(index == 0 ? 1 : 0)))
        case .shrink, .grow, .scale, .rotate, .fade, .animate, .color, .move:
            if case .some(let keyframes) = keyframes { return keyframes[index].value }
            if case .some(let by) = by { return by }
            if case .none = from, case .some(let to) = to { return to }
            if index == 0 {
                if case .some(let from) = from { return from }
            } else if case .some(let to) = to {
                return to
            }
            return .number(Number(Time(0)))
        }
    }

    /// A number as reported: rotation in degrees whatever unit was written.
    public func reported(_ value: Double) -> Double {
        verb == .rotate ? TweenSyntax.degrees(value, unit: angleUnit) : value
    }

    /// An angle written in `unit` (degrees when `nil`), in degrees.
    public static func degrees(_ value: Double, unit: AngleUnit?) -> Double {
        switch unit {
        case nil, .degrees?: return value
        case .radians?: return value * 180 / Double.pi
        case .turns?: return value * 360
        }
    }

    /// The property this tween animates on each target view (`x` for `move`,
    /// which also animates `y`).
    public var resolvedProperty: String {
        if let property { return property }
        switch verb {
        case .shrink, .grow, .scale: return "scale"
        case .rotate: return "rotation"
        case .fadeIn, .fadeOut, .fade: return "opacity"
        case .animate: return "value"
        case .color: return "color"
        case .move: return "x"
        }
    }
}

/// A value written in a tween or a `view` declaration: a number, a colour
/// or a point `(x, y)`. Equality ignores ranges and spellings.
public enum ValueSyntax: Equatable, Sendable {
    case number(Number)
    case color(ColorSyntax)
    indirect case point(x: Number, y: Number, range: SourceRange)

    var isColor: Bool {
        if case .color = self { return true }
        return false
    }

    public var range: SourceRange {
        switch self {
        case .number(let number): return number.range
        case .color(let color): return color.range
        case .point(_, _, let range): return range
        }
    }

    public static func == (lhs: ValueSyntax, rhs: ValueSyntax) -> Bool {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a == b
        case (.color(let a), .color(let b)): return a == b
        case (.point(let ax, let ay, _), .point(let bx, let by, _)): return ax == bx && ay == by
        case (.number, _), (.color, _), (.point, _): return false
        }
    }
}

/// A colour literal: `red`, `#ff8000`, `rgb(255 128 0 / 0.5)`, `hsl(30, 100%, 50%)`.
public struct ColorSyntax: Equatable, Sendable {
    // Stored in 16 bytes, so ``ValueSyntax`` is a ``Number``'s size: the
    // common colour — opaque, each channel a whole number 0–255 (a name, a
    // `#rrggbb`) — as three bytes inline; any other in a shared immutable box.
    private var packedRange: PackedRange
    private var storage: Storage

    private enum Storage: Sendable {
        case opaque(red: UInt8, green: UInt8, blue: UInt8)
        case general(General)
    }

    private final class General: Sendable {
        let color: Color
        init(_ color: Color) { self.color = color }
    }

    /// The one place a colour is stored: inline when every channel reads back bit for bit.
    private static func storage(_ color: Color) -> Storage {
        if color.alpha.bitPattern == Double(1).bitPattern, let red = UInt8(exactly: color.red),
           let green = UInt8(exactly: color.green), let blue = UInt8(exactly: color.blue),
           Double(red).bitPattern == color.red.bitPattern, Double(green).bitPattern == color.green.bitPattern,
           Double(blue).bitPattern == color.blue.bitPattern {
            return .opaque(red: red, green: green, blue: blue)
        }
        return .general(General(color))
    }

    /// Whether it is stored inline (for the tests of the representation).
    var isCompact: Bool {
        if case .opaque = storage { return true }
        return false
    }

    public var color: Color {
        get {
            switch storage {
            case .opaque(let red, let green, let blue): return Color(red: Double(red), green: Double(green), blue: Double(blue))
            case .general(let general): return general.color
            }
        }
        set { storage = ColorSyntax.storage(newValue) }
    }
    /// How it was written, when it was (the printer prefers a name it knows).
    public var range: SourceRange {
        get { packedRange.range }
        set { packedRange = PackedRange(newValue) }
    }

    /// Every colour with no alpha is one colour, `transparent`: what it
    /// mixes is `(0, r·0, g·0, b·0)` whatever its channels.
    public init(_ color: Color, range: SourceRange = .none) {
        storage = ColorSyntax.storage(color.alpha == 0 ? Color(red: 0, green: 0, blue: 0, alpha: 0) : color)
        packedRange = PackedRange(range)
    }

    public static func == (lhs: ColorSyntax, rhs: ColorSyntax) -> Bool {
        let a = lhs.color, b = rhs.color
        return a.red.bitPattern == b.red.bitPattern && a.green.bitPattern == b.green.bitPattern
            && a.blue.bitPattern == b.blue.bitPattern && a.alpha.bitPattern == b.alpha.bitPattern
    }
}

/// How `staggered` spreads the views, as written after its duration
/// (docs/semantics.md §8.3): `by` a step or `over` a total, `from` which end
/// (`backwards` is `from end`), `spaced` by which easing.
public struct StaggerSyntax: Equatable, Sendable {
    /// `over TOTAL` rather than `by DUR`.
    public var over: Bool
    public var origin: Stagger.Origin
    /// `backwards` as written (it means `from end`; printed back as written).
    public var backwards: Bool
    /// `spaced E` with the easing written out, or named by a `let` or a parameter.
    public var spacing: Easing?
    public var spacingName: String?
    /// Where `spaced E` is written.
    public var spacingRange: SourceRange

    public init(over: Bool = false, origin: Stagger.Origin = .start, backwards: Bool = false, spacing: Easing? = nil,
                spacingName: String? = nil, spacingRange: SourceRange = .none) {
        self.over = over
        self.origin = origin
        self.backwards = backwards
        self.spacing = spacing
        self.spacingName = spacingName
        self.spacingRange = spacingRange
    }

    /// `by DUR`, from the start, not spaced (`staggered by DUR`), or `from end` (`backwards`).
    public static func by(backwards: Bool = false) -> StaggerSyntax {
        StaggerSyntax(origin: backwards ? .end : .start, backwards: backwards)
    }

    public static func == (lhs: StaggerSyntax, rhs: StaggerSyntax) -> Bool {
        lhs.over == rhs.over && lhs.origin == rhs.origin && lhs.spacing == rhs.spacing && lhs.spacingName == rhs.spacingName
    }
}

/// One value of `through`, with its offset `at N%` when written.
public struct Keyframe: Equatable, Sendable {
    public var value: ValueSyntax
    /// The percentage written after `at` (0 to 100).
    public var offset: Number?
    /// `with E` after it (docs/semantics.md §8.2): the easing of the piece from it
    /// to the next keyframe (the last keyframe has none; `with each E`
    /// gives it to every piece without one).
    public var easing: Easing?
    /// `with NAME` after it: a `let` (or parameter) that names its easing,
    /// read when the tween is lowered; and where that name is written.
    public var easingName: String?
    public var easingNameRange: SourceRange = .none
    public var range: SourceRange

    public init(value: ValueSyntax, offset: Number? = nil, easing: Easing? = nil, range: SourceRange = .none) {
        self.value = value
        self.offset = offset
        self.easing = easing
        self.range = range
    }

    /// Whether the piece leaving it has an easing of its own, written out or named.
    public var isEased: Bool { easing != nil || easingName != nil }

    public static func == (lhs: Keyframe, rhs: Keyframe) -> Bool {
        lhs.value == rhs.value && lhs.offset == rhs.offset && lhs.easing == rhs.easing && lhs.easingName == rhs.easingName
    }
}

/// An animation expression.
public struct Expr: Equatable, Sendable {
    // Every case with a payload is boxed but `tween`, whose payload is one
    // reference already (``TweenSyntax``'s fields): the kind stays 8 bytes.
    public enum Kind: Equatable, Sendable {
        /// A reference to a `let`.
        indirect case name(String)
        /// `zero` / `cancelled`: the cancelled animation.
        case zero
        /// `one` / `empty`: the trivial animation of length 0.
        case one
        /// `wait DUR`.
        indirect case wait(Duration)
        case tween(TweenSyntax)
        /// `a || b || …` (also `+`): two or more operands of one chain.
        indirect case parallel([Expr])
        /// `a ; b ; …` (also `*`): two or more operands of one chain.
        indirect case sequence([Expr])
        /// `x ^ N`.
        indirect case power(Expr, Count)
        /// `x reversed`.
        indirect case reversed(Expr)
        /// `x looped` (count 1), `x looped once`, `x looped N times`: `(x ; x reversed) ^ N`.
        indirect case looped(Expr, Count)
        /// `x repeated N times` / `once` / `twice`: `x ^ N`.
        indirect case repeated(Expr, Count)
        /// `x delayed by DUR`: `wait DUR ; x`.
        indirect case delayed(Expr, Duration)
        /// `x in DUR`: retimed to last DUR.
        indirect case retimed(Expr, Duration)
        /// `x with [a|an] [high] EASING`.
        indirect case eased(Expr, Easing, SourceRange)
        /// `emit NAME`: an instant event.
        indirect case emit(String)
        /// `x staggered by DUR | over TOTAL [from ORIGIN | backwards] [spaced E]`.
        indirect case staggered(Expr, Duration, StaggerSyntax)
        /// `x repeated forever` (`looped: false`) and `x looped forever`.
        indirect case forever(Expr, looped: Bool)
        /// `NAME(A1, A2, …)`: a call of a parameterised `let`.
        indirect case call(String, [Expr])
        /// `x with NAME`: an easing named by a `let` or a parameter.
        indirect case easedByName(Expr, String, SourceRange)
        /// A value (a `let`'s right-hand side, or an argument), not an animation.
        indirect case value(ValueExpr)
        /// `pk overlapping by D`: a part of a `;` chain after the first,
        /// starting D before the end of the parts before it (docs/semantics.md §8.1);
        /// only meaningful as such an operand of ``sequence(_:)``.
        indirect case overlapping(Expr, Duration)
        /// `x played from T1 to T2`, `x played from T1`, `x played to T2`
        /// (docs/semantics.md §8.5): at least one of the two is written.
        indirect case played(Expr, from: PartTime?, to: PartTime?)

        public static func == (lhs: Kind, rhs: Kind) -> Bool {
            switch lhs {
            case .name(let a): if case .name(let b) = rhs { return a == b }
            case .zero: if case .zero = rhs { return true }
            case .one: if case .one = rhs { return true }
            case .wait(let a): if case .wait(let b) = rhs { return a == b }
            case .tween(let a): if case .tween(let b) = rhs { return a == b }
            case .parallel(let a): if case .parallel(let b) = rhs { return a == b }
            case .sequence(let a): if case .sequence(let b) = rhs { return a == b }
            case .power(let x, let n): if case .power(let y, let m) = rhs { return n == m && x == y }
            case .reversed(let x): if case .reversed(let y) = rhs { return x == y }
            case .looped(let x, let n): if case .looped(let y, let m) = rhs { return n == m && x == y }
            case .repeated(let x, let n): if case .repeated(let y, let m) = rhs { return n == m && x == y }
            case .delayed(let x, let d): if case .delayed(let y, let e) = rhs { return d == e && x == y }
            case .retimed(let x, let d): if case .retimed(let y, let e) = rhs { return d == e && x == y }
            case .eased(let x, let e, _): if case .eased(let y, let f, _) = rhs { return e == f && x == y }
            case .emit(let a): if case .emit(let b) = rhs { return a == b }
            case .staggered(let x, let d, let how):
                if case .staggered(let y, let e, let other) = rhs { return d == e && how == other && x == y }
            case .forever(let x, let looped): if case .forever(let y, let other) = rhs { return looped == other && x == y }
            case .call(let f, let a): if case .call(let g, let b) = rhs { return f == g && a == b }
            case .easedByName(let x, let e, _): if case .easedByName(let y, let f, _) = rhs { return e == f && x == y }
            case .value(let a): if case .value(let b) = rhs { return a == b }
            case .overlapping(let x, let d): if case .overlapping(let y, let e) = rhs { return d == e && x == y }
            case .played(let x, let a, let b): if case .played(let y, let c, let d) = rhs { return a == c && b == d && x == y }
            }
            return false
        }
    }

    /// The node's kind, its operands and payload: a `retimed` node over a
    /// tween is two nodes like any other modifier over its operand (the
    /// lowering recognises `tween in DUR` and builds the leaf at its length).
    public var kind: Kind
    private var packedRange: PackedRange
    private var packedModifier: PackedRange

    /// The expressions directly inside this one, in source order: a chain's
    /// operands, a modifier's operand, a call's arguments. The one place that
    /// knows which kinds have children, so a walk of the tree need not.
    public var subexpressions: [Expr] {
        switch kind {
        case .name, .zero, .one, .wait, .tween, .emit, .value: return []
        case .parallel(let operands), .sequence(let operands): return operands
        case .power(let x, _), .reversed(let x), .looped(let x, _), .repeated(let x, _), .delayed(let x, _),
             .retimed(let x, _), .eased(let x, _, _), .staggered(let x, _, _), .forever(let x, _),
             .easedByName(let x, _, _), .played(let x, _, _), .overlapping(let x, _):
            return [x]
        case .call(_, let arguments): return arguments
        }
    }

    public var range: SourceRange {
        get { packedRange.range }
        set { packedRange = PackedRange(newValue) }
    }
    /// For a modifier (`reversed`, `looped forever`, `in 2s`, `^ 3`, …): the
    /// modifier's own words, where its mistakes are shown.
    public var modifier: SourceRange {
        get { packedModifier.range }
        set { packedModifier = PackedRange(newValue) }
    }

    public init(_ kind: Kind, range: SourceRange = .none, modifier: SourceRange = .none) {
        self.kind = kind
        packedRange = PackedRange(range)
        packedModifier = PackedRange(modifier)
    }

    /// Structural equality; source ranges are ignored.
    public static func == (lhs: Expr, rhs: Expr) -> Bool {
        lhs.kind == rhs.kind
    }
}

/// A ``SourceRange`` in 8 bytes instead of 16, for the syntax tree's nodes
/// (a script holds a few per tween). Offsets past 4 GiB, which no file
/// that fits in memory with its tokens reaches, are clamped rather than trapped.
struct PackedRange: Equatable, Sendable {
    var start: UInt32
    var end: UInt32

    @inline(__always)
    init(_ range: SourceRange) {
        start = UInt32(clamping: range.start)
        end = UInt32(clamping: range.end)
    }

    @inline(__always)
    var range: SourceRange {
        SourceRange(Int(start), Int(end))
    }
}
