/// The properties the outputs draw (docs/exports.md §1): the language checks
/// spellings and value kinds against them, and every output reads them here.
package enum Drawing {
    package static let properties: Set<String> = ["x", "y", "radius", "width", "height", "size", "scale", "scale-x", "scale-y",
                                                  "rotation", "opacity", "color", "fill"]
    /// The drawn properties that are colours; the others are numbers.
    package static let colors: Set<String> = ["color", "fill"]
    /// Names that read as drawn properties and are not (CSS's, mostly), each
    /// with the drawn property it most likely means, or `nil` when animc
    /// draws nothing like it (3-D rotation, skew, blur): a script animating
    /// one gets a warning, where a property of its own (`light.level`) is
    /// taken as meant.
    package static let lookalikes: [String: String?] = [
        "rotate": "rotation", "rotate-z": "rotation", "rotation-z": "rotation", "angle": "rotation",
        "alpha": "opacity", "translate-x": "x", "translate-y": "y", "left": "x", "top": "y",
        "background": "color", "background-color": "color", "fill-color": "color", "colour": "color",
        "rotate-x": nil, "rotate-y": nil, "rotation-x": nil, "rotation-y": nil, "scale-z": nil,
        "skew": nil, "skew-x": nil, "skew-y": nil, "blur": nil, "z-index": nil,
    ]
}
