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
