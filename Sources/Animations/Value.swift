/// The value of one property at one moment: a number, a colour or a point.
///
/// A tween moves a property between two values of one kind; the sampler
/// interpolates them with the eased progress (``interpolate(from:to:progress:)``),
/// ties average their distinct values (``mean(of:)``), and tables print them
/// (``write(_:into:)``). A property never mixes kinds: ``Scene/compile(materializeLimit:)``
/// refuses a scene that does, and the `.anim` language reports it where it is written.
///
/// ```swift
/// Value.interpolate(from: .number(0), to: .number(10), progress: 0.25)   // .number(2.5)
/// Value.mean(of: [.number(1), .number(2), .number(2)])                    // .number(1.5): distinct values
/// ```
///
/// Adding a kind of value means a case here and its maths in a type of its
/// own (as ``Color`` has); the sampler, tables, normalizer and printer only
/// go through these functions.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case number(Double)
    case color(Color)
    /// Two numbers animated as one value (`animate card.shadow from (0, 0) to (4, 8)`),
    /// for properties the exports do not draw; `move` still animates `x` and `y` as numbers.
    case point(Point)

    /// What kind of value this is, for checking that a property keeps to
    /// one. Kinds order as declared (the normal form's canonical order puts
    /// numbers before colours, colours before points).
    public enum Kind: String, Hashable, Sendable, CaseIterable, Comparable {
        case number, color, point

        public static func < (lhs: Kind, rhs: Kind) -> Bool {
            lhs.rank < rhs.rank
        }

        private var rank: Int {
            switch self {
            case .number: return 0
            case .color: return 1
            case .point: return 2
            }
        }

        /// How a message names one: "a number", "a colour".
        public var article: String {
            switch self {
            case .number: return "a number"
            case .color: return "a colour"
            case .point: return "a point"
            }
        }
    }

    public var kind: Kind {
        switch self {
        case .number: return .number
        case .color: return .color
        case .point: return .point
        }
    }

    /// The one spelling of equal values: `-0` is `0` (a tween from `-0` is
    /// the tween from `0`, and a mean of opposites is `0`).
    @inline(__always)
    public var canonical: Value {
        switch self {
        case .number(let value): return .number(value + 0)
        case .color: return self
        case .point(let point): return .point(Point(x: point.x + 0, y: point.y + 0))
        }
    }

    /// How large the value is as a column of numbers: `|x|` for a number,
    /// the larger `|x|` or `|y|` for a point; 0 for a colour, whose written form has one width.
    public var magnitude: Double {
        switch self {
        case .number(let value): return abs(value)
        case .color: return 0
        case .point(let point): return max(abs(point.x), abs(point.y))
        }
    }

    /// The value's numbers in a fixed order (a number; a colour's red,
    /// green, blue and alpha; a point's x and y): what closeness, the canonical
    /// order and fingerprints read, component by component.
    public var components: [Double] {
        switch self {
        case .number(let value): return [value]
        case .color(let color): return [color.red, color.green, color.blue, color.alpha]
        case .point(let point): return [point.x, point.y]
        }
    }

    /// Equal up to rounding: the same kind, and each component `x` within
    /// `tolerance·max(1, |x|, |y|)` of the other's `y` (or both NaN).
    public func isClose(to other: Value, tolerance: Double = 1e-9) -> Bool {
        guard kind == other.kind else { return false }
        return zip(components, other.components).allSatisfy { x, y in
            x == y || abs(x - y) <= tolerance * max(1, abs(x), abs(y)) || (x.isNaN && y.isNaN)
        }
    }

    /// The canonical order of values (for ordering `||` operands in the
    /// normal form): by kind, then component by component; `nil` when
    /// neither comes first.
    public func precedes(_ other: Value) -> Bool? {
        if kind != other.kind { return kind < other.kind }
        for (x, y) in zip(components, other.components) where x != y { return x < y }
        return nil
    }

    /// The words a structural fingerprint mixes for this value: the
    /// components' bit patterns, after a tag for kinds other than numbers.
    public var fingerprint: [UInt64] {
        switch self {
        case .number(let value): return [value.bitPattern]
        case .color: return [12] + components.map(\.bitPattern)
        case .point: return [13] + components.map(\.bitPattern)
        }
    }

    /// The number, when this is one.
    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// Whether every component is finite.
    public var isFinite: Bool {
        switch self {
        case .number(let value): return value.isFinite
        case .color(let color): return color.isFinite
        case .point(let point): return point.x.isFinite && point.y.isFinite
        }
    }

    /// `from + (to − from)·progress`, the way this kind of value mixes:
    /// numbers linearly, colours premultiplied (see ``Color/interpolate(from:to:progress:)``),
    /// points component by component.
    /// `progress` is the eased progress and may leave [0, 1] (overshooting
    /// curves). Ends of different kinds (which no scene holds) give `to` from
    /// progress ½ on and `from` before.
    @inline(__always)
    public static func interpolate(from: Value, to: Value, progress: Double) -> Value {
        switch (from, to) {
        case (.number(let a), .number(let b)):
            return .number(interpolateNumber(a, b, progress))
        case (.color(let a), .color(let b)):
            return .color(Color.interpolate(from: a, to: b, progress: progress))
        case (.point(let a), .point(let b)):
            return .point(Point.interpolate(from: a, to: b, progress: progress))
        case (.number, _), (.color, _), (.point, _):
            return progress < 0.5 ? from : to
        }
    }

    /// The mean of the *distinct* values among `values` (the sampling rule's
    /// tie-break), independent of their order, so `x || x = x` and `x || y = y || x`.
    /// Numbers average exactly as summed in ascending order; colours average
    /// premultiplied (``Color/mean(of:)``), points component by component
    /// (``Point/blend(_:)``). With mixed kinds (which no scene
    /// holds) the numbers win; `nil` for no values.
    public static func mean(of values: [Value]) -> Value? {
        guard let head = values.first else { return nil }
        var distinct = DistinctValues(head)
        for value in values.dropFirst() { distinct.insert(value) }
        return distinct.mean
    }

    /// The mean of distinct values (`head` and `rest`), kind by kind; with
    /// mixed kinds (which no track holds) the numbers win, then the colours.
    static func mean(ofDistinct head: Value, _ rest: [Value]) -> Value {
        var numbers: [Double] = []
        var colors: [Color] = []
        var points: [Point] = []
        for value in CollectionOfOne(head) + rest {
            switch value {
            case .number(let number): numbers.append(number)
            case .color(let color): colors.append(color)
            case .point(let point): points.append(point)
            }
        }
        if !numbers.isEmpty { return .number(meanOfDistinctNumbers(numbers)) }
        // No numbers: colours, else points (`head` among them).
        return colors.isEmpty ? Value.point(Point.blend(points)).canonical : .color(Color.mean(of: colors))
    }

    /// How a table writes a value.
    public enum Style: Sendable {
        /// For people (aligned tables): numbers to 4 decimals, colours as `#rrggbb` or `#rrggbbaa`,
        /// points as `(4.0000, 8.0000)`.
        case display
        /// Lossless (CSV): numbers in shortest round-trip form, colours as `rgb(R G B)` or `rgb(R G B / A)`,
        /// points as `(4 8)` (no comma, so a CSV field needs no quotes).
        case lossless
        /// JSON: numbers as JSON numbers (`null` when not finite), colours as lossless strings,
        /// points as arrays of two numbers (`[4,8]`, compact like the rows).
        case json
    }

    /// Appends this value in `style`.
    public func write(_ style: Style, into out: inout [UInt8]) {
        switch self {
        case .number(let value):
            switch style {
            case .display: writeFixed(value, decimals: 4, into: &out)
            case .lossless: writeShortest(value, into: &out)
            case .json:
                if value.isFinite { writeShortest(value, into: &out) } else { out.append(contentsOf: "null".utf8) }
            }
        case .color(let color):
            switch style {
            case .display: color.writeHex(into: &out)
            case .lossless: color.writeCSS(into: &out)
            case .json:
                out.append(UInt8(ascii: "\""))
                color.writeCSS(into: &out)
                out.append(UInt8(ascii: "\""))
            }
        case .point(let point):
            let separator: String
            switch style {
            case .display, .lossless: out.append(UInt8(ascii: "("))
            case .json: out.append(UInt8(ascii: "["))
            }
            switch style {
            case .display: separator = ", "
            case .lossless: separator = " "
            case .json: separator = ","
            }
            Value.number(point.x).write(style, into: &out)
            out.append(contentsOf: separator.utf8)
            Value.number(point.y).write(style, into: &out)
            out.append(UInt8(ascii: style == .json ? "]" : ")"))
        }
    }

    /// The lossless form (`0.5`, `rgb(255 0 0)`, `(4 8)`).
    public var description: String {
        var out: [UInt8] = []
        write(.lossless, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// `a + (b − a)·p`; ends more than 1.8e308 apart (`from -1e308 to 1e308`)
/// overflow the span, but not the weighted mean.
@inline(__always)
func interpolateNumber(_ a: Double, _ b: Double, _ p: Double) -> Double {
    let span = b - a
    return span.isFinite ? a + span * p : a * (1 - p) + b * p
}

/// A small set of values (usually one, never none) whose mean is taken over
/// distinct values: the sampler's tie groups.
struct DistinctValues {
    private var first: Value
    /// The values after the first: numbers as they came (repeats removed
    /// when the mean sorts them, so inserting K of them costs O(K), not
    /// O(K²)); other values once each.
    private var more: [Value] = []

    init(_ value: Value) {
        first = value
    }

    mutating func insert(_ value: Value) {
        if case .number = value, case .number = first {
            // (`0 == -0`: one value; a NaN equals none, and is kept each time, as before.)
            if value == first { return }
        } else if value == first || more.contains(value) {
            return
        }
        if more.isEmpty { more.reserveCapacity(7) }
        more.append(value)
    }

    mutating func formUnion(_ other: DistinctValues) {
        insert(other.first)
        for value in other.more { insert(value) }
    }

    /// Whether the values disagree by more than rounding (a relative 1e-9),
    /// so that their mean is none of them: what makes a tie worth a warning.
    var disagree: Bool {
        more.contains { !$0.isClose(to: first) }
    }

    /// The mean of the distinct values, independent of insertion order.
    var mean: Value {
        if more.isEmpty { return first.canonical }
        if case .number(let head) = first {
            // The common case, without allocating: numbers sorted in a stack
            // buffer, then each distinct one summed once, in ascending order.
            let count = more.count + 1
            let mean = withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { (buffer: UnsafeMutableBufferPointer<Double>) -> Double? in
                var buffer = buffer
                buffer[0] = head
                for index in more.indices {
                    guard case .number(let value) = more[index] else { return nil }
                    buffer[index + 1] = value
                }
                buffer.sort()
                var sum = 0.0
                var distinct = 0
                for index in buffer.indices where index == 0 || buffer[index] != buffer[index - 1] {
                    // (Equal values lie together once sorted; with a NaN the sum is NaN whatever the count.)
                    sum += buffer[index]
                    distinct += 1
                }
                return sum / Double(distinct)
            }
            if let mean { return Value.number(mean).canonical }
        }
        // Colours, points (or kinds mixed, which no track holds): each value once.
        var distinct: [Value] = []
        for value in more where value != first && !distinct.contains(value) { distinct.append(value) }
        return Value.mean(ofDistinct: first, distinct)
    }
}

/// The mean of distinct numbers, summed in ascending order so it does not
/// depend on the order they came in (`-0` is written `0`).
func meanOfDistinctNumbers(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    var sum = 0.0
    for value in sorted { sum += value }
    let mean = sum / Double(sorted.count)
    return mean == 0 ? 0 : mean
}

/// A type whose values an ``Animation`` can carry: it says how a value is
/// stored in a scene (as one or more *channels*, each a property holding a
/// ``Value``) and how parallel reads combine (the talk's `<>`).
///
/// `Double`, `Float`, ``Color`` and ``Point`` conform. Any other
/// `BinaryFloatingPoint` type conforms with one line, using the default
/// implementations: `extension CGFloat: Animatable {}`.
///
/// ```swift
/// let center = linear(from: Point(x: 0, y: 0), to: Point(x: 120, y: 40), in: 0.5)
/// center.value(0.5)   // Point(x: 60, y: 20)
/// ```
public protocol Animatable {
    /// The names of the channels a value occupies: `["value"]` for a number,
    /// `["x", "y"]` for a point. A bound animation names its properties
    /// `KEYPATH` (one channel) or `KEYPATH.CHANNEL`.
    static var channels: [String] { get }
    /// The value as scene values, one per channel.
    var channelValues: [Value] { get }
    /// The value made of `channelValues` (`nil` when one has the wrong kind).
    init?(channelValues: [Value])
    /// How the reads of `x + y` combine: order-independent, and `x` for `[x, x]`.
    static func blend(_ values: [Self]) -> Self
}

extension Animatable where Self: BinaryFloatingPoint {
    public static var channels: [String] { ["value"] }

    public var channelValues: [Value] { [.number(Double(self))] }

    public init?(channelValues: [Value]) {
        guard channelValues.count == 1, case .number(let value) = channelValues[0] else { return nil }
        self.init(value)
    }

    /// The mean of the distinct values (the sampling rule's tie-break, so
    /// `+` on reads matches `||` on scenes).
    public static func blend(_ values: [Self]) -> Self {
        var distinct: [Double] = []
        for value in values where !distinct.contains(Double(value)) { distinct.append(Double(value)) }
        return distinct.isEmpty ? 0 : Self(meanOfDistinctNumbers(distinct))
    }
}

extension Double: Animatable {}
extension Float: Animatable {}

/// A point in the plane, animated as two number channels `x` and `y` (the
/// `.anim` language's `move V from (X1, Y1) to (X2, Y2)` animates `V.x` and `V.y`).
public struct Point: Hashable, Sendable, Animatable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static var channels: [String] { ["x", "y"] }

    public var channelValues: [Value] { [.number(x), .number(y)] }

    public init?(channelValues: [Value]) {
        guard channelValues.count == 2, case .number(let x) = channelValues[0], case .number(let y) = channelValues[1] else { return nil }
        self.init(x: x, y: y)
    }

    /// `from + (to − from)·progress`, component by component (a point value's tween).
    @inline(__always)
    public static func interpolate(from: Point, to: Point, progress: Double) -> Point {
        Point(x: interpolateNumber(from.x, to.x, progress), y: interpolateNumber(from.y, to.y, progress))
    }

    /// The mean of the distinct points, component by component.
    public static func blend(_ values: [Point]) -> Point {
        var distinct: [Point] = []
        for value in values where !distinct.contains(value) { distinct.append(value) }
        guard !distinct.isEmpty else { return Point(x: 0, y: 0) }
        return Point(x: meanOfAll(distinct.map(\.x)), y: meanOfAll(distinct.map(\.y)))
    }

    public var description: String { "(\(formatNumber(x)), \(formatNumber(y)))" }
}

/// The mean of all `values` (not only the distinct ones), summed in ascending order.
func meanOfAll(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    var sum = 0.0
    for value in sorted { sum += value }
    let mean = sum / Double(max(1, sorted.count))
    return mean == 0 ? 0 : mean
}

/// The two ends of a tween or segment, stored compactly: two numbers (most
/// tweens) in place, 17 bytes instead of two 33-byte ``Value``s; other
/// values (colours, points) in a shared box.
enum Ends: Hashable, Sendable {
    case numbers(Double, Double)
    case values(ValuePair)

    @inline(__always)
    init(_ from: Value, _ to: Value) {
        if case .number(let a) = from, case .number(let b) = to {
            self = .numbers(a, b)
        } else {
            self = .values(ValuePair(from: from, to: to))
        }
    }

    var from: Value {
        @inline(__always) get {
            switch self {
            case .numbers(let a, _): return .number(a)
            case .values(let pair): return pair.from
            }
        }
    }

    var to: Value {
        @inline(__always) get {
            switch self {
            case .numbers(_, let b): return .number(b)
            case .values(let pair): return pair.to
            }
        }
    }
}

/// Two values that are not both numbers (see ``Ends``).
final class ValuePair: Hashable, Sendable {
    let from: Value
    let to: Value

    init(from: Value, to: Value) {
        self.from = from
        self.to = to
    }

    static func == (lhs: ValuePair, rhs: ValuePair) -> Bool {
        lhs === rhs || (lhs.from == rhs.from && lhs.to == rhs.to)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(from)
        hasher.combine(to)
    }
}
