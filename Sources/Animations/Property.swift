/// One animatable property of one view, such as `circle.radius`.
///
/// Properties order by their full name `view.property`, which is the order of
/// the columns in a sampled table.
public struct Property: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let view: String
    public let name: String

    public init(view: String, name: String) {
        self.view = view
        self.name = name
    }

    /// `view.name`.
    public var description: String { "\(view).\(name)" }

    public static func < (lhs: Property, rhs: Property) -> Bool {
        if lhs.view == rhs.view { return lhs.name.utf8.lexicographicallyPrecedes(rhs.name.utf8) }
        return lhs.description.utf8.lexicographicallyPrecedes(rhs.description.utf8)
    }
}

/// A point in time that is exact, except where an easing warp has mapped it
/// (then it carries only the nearest `Double`).
public struct Instant: Sendable, Comparable, Hashable, CustomStringConvertible {
    /// The exact value, when no easing warp touched this instant.
    public let exact: Time?
    /// The value in seconds (exact when `exact` is, up to rounding).
    public let seconds: Double

    @inline(__always)
    public init(_ time: Time) {
        exact = time
        seconds = time.seconds
    }

    @inline(__always)
    public init(approximately seconds: Double) {
        exact = nil
        self.seconds = seconds
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        if let a = lhs.exact, let b = rhs.exact { return a < b }
        return lhs.seconds < rhs.seconds
    }

    public static func == (lhs: Instant, rhs: Instant) -> Bool {
        if let a = lhs.exact, let b = rhs.exact { return a == b }
        return lhs.seconds == rhs.seconds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
    }

    public var description: String {
        exact.map { $0.description } ?? formatNumber(seconds)
    }
}
