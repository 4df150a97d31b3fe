/// The properties the outputs draw (docs/exports.md §1): the language checks
/// spellings and value kinds against them, and every output reads them here.
package enum Drawing {
    package static let properties: Set<String> = ["x", "y", "radius", "width", "height", "size", "scale", "scale-x", "scale-y",
                                                  "rotation", "opacity", "color", "fill"]
    /// The drawn properties that are colours; the others are numbers.
    package static let colors: Set<String> = ["color", "fill"]
}
