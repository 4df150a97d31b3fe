import AnimLang
import Animations

// What a web export names on the page: its custom properties and keyframes
// (`--prefix`) and the elements it animates (`--selector`), so that two
// exports share a page (docs/exports.md §6, "Web export in a real site").

/// The names a web export gives what it defines, and the elements it animates.
///
/// ```swift
/// let names = WebNames(prefix: "toast-in", selector: ".{view}.is-entering")
/// names?.variable("opacity")                           // "--toast-in-opacity"
/// names?.keyframes(view: "toast", property: "opacity")  // "toast-in-toast-opacity"
/// names?.selector(of: "toast")                         // ".toast.is-entering"
/// ```
///
/// A prefix `NAME` names the keyframes `NAME-V-P` and the custom properties
/// `--NAME-P`; with none given it is `animc` (``standard``), so the default
/// export is the one of `--prefix animc`.
public struct WebNames: Sendable, Equatable {
    /// The prefix when none is given.
    public static let defaultPrefix = "animc"
    /// The selector template when none is given: `[data-view="{view}"]`.
    public static let defaultSelector = "[data-view=\"{view}\"]"
    /// What a template writes in place of the view's name.
    public static let viewPlaceholder = "{view}"
    /// The default prefix and selector.
    public static let standard = WebNames(checkedPrefix: defaultPrefix, selector: defaultSelector)

    /// What starts every name the export defines.
    public let prefix: String
    /// The selector template, `{view}` standing for the view's name.
    public let selectorTemplate: String

    /// `nil` when `prefix` is not a CSS identifier (``isIdentifier(_:)``) or
    /// `selector` is not a template (``isSelectorTemplate(_:)``).
    public init?(prefix: String = WebNames.defaultPrefix, selector: String = WebNames.defaultSelector) {
        guard WebNames.isIdentifier(prefix), WebNames.isSelectorTemplate(selector) else { return nil }
        self.init(checkedPrefix: prefix, selector: selector)
    }

    private init(checkedPrefix: String, selector: String) {
        prefix = checkedPrefix
        selectorTemplate = selector
    }

    /// Whether the options are the defaults (the export is written as without them).
    public var isStandard: Bool { self == .standard }

    /// A prefix: a letter or `_`, then letters, digits, `-` or `_` (ASCII): a
    /// CSS identifier that stays one in `--NAME-P` and `NAME-V-P`.
    public static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    /// A selector template: `{view}` at least once, and no other `{` or `}` (nor a line break).
    public static func isSelectorTemplate(_ text: String) -> Bool {
        guard text.contains(viewPlaceholder) else { return false }
        let rest = text.replacingAll(viewPlaceholder, with: "")
        return !rest.contains("{") && !rest.contains("}") && !rest.contains("\n")
    }

    /// The custom property of a property named `name`: `--PREFIX-name`.
    public func variable(_ name: String) -> String {
        "--\(prefix)-\(name)"
    }

    /// The `@keyframes` of `view.property`'s animation number `index` (0: the base one): `PREFIX-view-property[-N]`.
    public func keyframes(view: String, property: String, index: Int = 0) -> String {
        "\(prefix)-\(view)-\(property)" + (index == 0 ? "" : "-\(index + 1)")
    }

    /// The elements of `view`: the template with `{view}` replaced.
    public func selector(of view: String) -> String {
        selectorTemplate.replacingAll(WebNames.viewPlaceholder, with: view)
    }
}

private extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

/// Two properties an export would give one name (docs/exports.md §6: it refuses, never overwrites).
public struct WebNameClash: Sendable, Equatable {
    public let first: Property
    public let second: Property
    /// The name both would get: `--animc-tint-color`, or a `@keyframes` name.
    public let name: String
}

extension WebExport {
    /// The export with its custom properties and selectors named by `names`.
    public func named(_ names: WebNames) -> WebExport {
        let own = self.names.variable("").count
        var export = mappingChannels { channel in
            WebExport.Channel(property: channel.property, variable: names.variable(String(channel.variable.dropFirst(own))),
                              kind: channel.kind, start: channel.start, animations: channel.animations, extent: channel.extent,
                              declared: channel.declared)
        }
        export.names = names
        return export
    }

    /// The first two properties (in column order) that would share a custom
    /// property or a `@keyframes` name, or `nil`. Properties of one name on
    /// different views share their custom property by design (one registration).
    public var nameClash: WebNameClash? {
        var variables: [String: Property] = [:]
        var keyframes: [String: Property] = [:]
        for channel in columns {
            let property = channel.property
            if let other = variables[channel.variable], other.name != property.name {
                return WebNameClash(first: other, second: property, name: channel.variable)
            }
            variables[channel.variable] = variables[channel.variable] ?? property
            for index in channel.animations.indices {
                let name = names.keyframes(view: property.view, property: property.name, index: index)
                if let other = keyframes[name], other != property {
                    return WebNameClash(first: other, second: property, name: name)
                }
                keyframes[name] = property
            }
        }
        return nil
    }
}
