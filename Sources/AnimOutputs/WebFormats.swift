import AnimJSON
import AnimLang
import Animations

// The web export written out: Web Animations JSON (`--to waapi`) and a CSS
// stylesheet (`--to css`). The player page (`--to html`) embeds the JSON.

/// `--to waapi`: JSON with, per element, one `element.animate(keyframes,
/// options)` call per property (and one more per repetition layered on it),
/// keyframe values as CSS text; a keyframe names its `easing` only when it is
/// not `linear` (the Web Animations default, as it is for the options):
///
/// ```json
/// {
///   "format":"animc-waapi 1","source":"talk.anim","binding":"final","duration":3,"cancelled":false,
///   "properties":[{"name":"--animc-radius","syntax":"<number>","initialValue":"0"}, …],
///   "elements":[{"view":"circle","selector":"[data-view=\"circle\"]",
///     "channels":[{"property":"circle.radius","variable":"--animc-radius","kind":"number","start":"100"}],
///     "animations":[{"property":"circle.radius","options":{"duration":3000,"fill":"both"},
///       "keyframes":[{"offset":0,"--animc-radius":"100"}, …]}]}],
///   "events":[{"name":"land","time":1.5}]
/// }
/// ```
///
/// Written as `JSON.stringify` would (no space after `:` or `,`), one
/// keyframe a line, and the options without the Web Animations defaults
/// (`delay` 0, `iterations` 1, `fill` none): the size follows the
/// structure (docs/exports.md §7.1).
///
/// Register the properties first (`CSS.registerProperty`, or the `@property`
/// rules of ``stylesheet(_:)``), set each channel's `start` (its value at
/// time 0) on the element, then animate. Times are milliseconds, as `animate` takes them.
///
/// An animation that repeats forever (``WebExport/endless``) has
/// `"duration": "Infinity"`, and the periods of its properties have
/// `"iterations": "Infinity"`: JSON has no infinity, and the string is what
/// JavaScript's `Number("Infinity")` reads as one (Web Animations converts
/// it so itself; a reader in another language compares the string). Three
/// more keys say how it settles: `"settled"` (seconds after which every
/// property and the events repeat), `"period"` (the longest period) and
/// `"window"` (`settled` + 2 × `period`, what a player shows on its
/// scrubber); `"events"` lists those that fire once, and
/// `"repeatingEvents": {"from": F, "period": P, "events": [{"name", "time"}, …]}`
/// those that fire at their `time` in `(F, F + P]` and every `P` after it.
/// A finite animation whose events are one block fired again and again
/// (``repeatedBlock(_:)``) writes them the same way with `"count": N`:
/// each fires at `time + k·P` for `k` from 0 to N − 1.
///
/// Relative at play time (docs/exports.md §7.3): a channel's `"declared"`
/// is the view declaration's value (else, for a channel with relative
/// keyframes, the neutral one), written where it is not its `"start"`; a keyframe with `"relative": W` (a binding's `to`
/// and `by` tweens that start from it) plays `value + W × (s − declared)`
/// for an element whose value is `s` when it starts playing (for a colour or
/// a point, `W` is 1 and it plays `s`). The values as written play from the
/// declared values.
public func waapiJSON(_ export: WebExport) -> String {
    var out = "{\n"
    out += "  \"format\":\"animc-waapi 1\",\n"
    out += "  \"source\":\(jsonString(export.source)),\n"
    out += "  \"binding\":\(jsonString(export.binding)),\n"
    if let endless = export.endless {
        out += "  \"duration\":\"Infinity\",\n"
        out += "  \"settled\":\(jsonNumber(endless.settled.seconds)),\n"
        out += "  \"period\":\(jsonNumber(endless.period.seconds)),\n"
        out += "  \"window\":\(jsonNumber(export.duration.seconds)),\n"
    } else {
        out += "  \"duration\":\(jsonNumber(export.duration.seconds)),\n"
    }
    out += "  \"cancelled\":\(export.isCancelled),\n"
    out += "  \"properties\":["
    out += registrations(export).map { registration in
        "\n    {\"name\":\(jsonString(registration.name)),\"syntax\":\(jsonString(registration.syntax)),"
            + "\"initialValue\":\(jsonString(registration.initial))}"
    }.joined(separator: ",")
    out += export.views.isEmpty ? "],\n" : "\n  ],\n"
    out += "  \"elements\":["
    out += export.views.map { view in
        var element = "\n    {\"view\":\(jsonString(view.name)),\"selector\":\(jsonString(export.names.selector(of: view.name))),\n"
        element += "     \"channels\":[" + view.channels.map { channel in
            "\n      {\"property\":\(jsonString(channel.property.description)),\"variable\":\(jsonString(channel.variable)),"
                + "\"kind\":\"\(channel.kind.jsonName)\",\"start\":\(jsonString(cssValue(channel.start)))"
                + declaredField(channel) + "}"
        }.joined(separator: ",") + "],\n"
        element += "     \"animations\":["
        element += view.channels.flatMap { channel in
            channel.animations.map { animation in
                // The options without the Web Animations defaults (delay 0, one iteration, fill none).
                var options = ["\"duration\":\(jsonNumber(animation.duration * 1000))"]
                if animation.delay != 0 { options.append("\"delay\":\(jsonNumber(animation.delay * 1000))") }
                if animation.isEndless {
                    options.append("\"iterations\":\"Infinity\"")
                } else if animation.iterations != 1 {
                    options.append("\"iterations\":\(animation.iterations)")
                }
                if animation.fillsBoth { options.append("\"fill\":\"both\"") }
                var call = "\n      {\"property\":\(jsonString(channel.property.description)),"
                call += "\"options\":{" + options.joined(separator: ",") + "},\"keyframes\":["
                call += animation.keyframes.map { keyframe in
                    "\n        {\"offset\":\(jsonNumber(keyframe.offset)),\(jsonString(channel.variable)):"
                        + "\(jsonString(cssValue(keyframe.value)))" + (keyframe.easing.map { ",\"easing\":\(jsonString($0))" } ?? "")
                        + (keyframe.relative == 0 ? "}" : ",\"relative\":\(jsonNumber(keyframe.relative))}")
                }.joined(separator: ",")
                return call + "]}"
            }
        }.joined(separator: ",")
        element += "]}"
        return element
    }.joined(separator: ",")
    out += export.views.isEmpty ? "],\n" : "\n  ],\n"
    out += "  \"events\":["
    // A finite animation whose events are one block repeated lists the block once, with a count.
    let block = export.endless == nil ? repeatedBlock(export.events) : nil
    func eventJSON(_ event: WebExport.Event) -> String {
        "{\"name\":\(jsonString(event.name)),\"time\":\(jsonNumber(event.time.seconds))}"
    }
    out += (block == nil ? export.events : []).map(eventJSON).joined(separator: ",")
    if let repeating = export.endless?.repeating ?? block?.events {
        out += "],\n  \"repeatingEvents\":{\"from\":\(jsonNumber(repeating.from.seconds)),"
        out += "\"period\":\(jsonNumber(repeating.period.seconds)),"
        if let count = block?.count { out += "\"count\":\(count)," }
        out += "\"events\":["
        out += repeating.events.map(eventJSON).joined(separator: ",")
        out += "]}\n}\n"
        return out
    }
    out += "]\n}\n"
    return out
}

/// Events that are one block fired again and again, every `period`
/// (`button-press ^ 1000` fires `tapped` once a copy): the block, as
/// repeating events from just before its first firing, and how many times
/// it fires (docs/exports.md §7.1: size follows the structure). `nil`
/// unless `events` (sorted by time) is at least two whole blocks, each the
/// first moved by a whole number of periods, exactly.
func repeatedBlock(_ events: [WebExport.Event]) -> (events: WebExport.RepeatingEvents, count: Int)? {
    let n = events.count
    guard n >= 2 else { return nil }
    for size in 1...(n / 2) where n % size == 0 {
        guard let period = try? events[size].time.subtracting(events[0].time), period.isPositive,
              let span = try? events[size - 1].time.subtracting(events[0].time), span < period,
              let from = try? events[size - 1].time.subtracting(period) else { continue }
        var alike = true
        for index in 0..<(n - size) {
            guard events[index + size].name == events[index].name, let moved = try? events[index].time.adding(period),
                  moved == events[index + size].time else {
                alike = false
                break
            }
        }
        if alike { return (WebExport.RepeatingEvents(from: from, period: period, events: Array(events[0..<size])), n / size) }
    }
    return nil
}

/// A channel's `"declared"` member, for the module's `cancel()` and its
/// relative keyframes: the view's declared value, else where its relative
/// tweens start (``WebExport/Channel/relativeStart``) when it has some;
/// written only where it is not `"start"`, which the module reads in its place.
private func declaredField(_ channel: WebExport.Channel) -> String {
    let follows = channel.animations.contains { $0.keyframes.contains { $0.relative != 0 } }
    guard let declared = follows ? channel.relativeStart : channel.declared else { return "" }
    let text = cssValue(declared)
    return text == cssValue(channel.start) ? "" : ",\"declared\":\(jsonString(text))"
}

/// `--to css`: `@property` registrations, one `@keyframes` per animation and
/// an `animation` list per view's element (selected by `data-view`), with
/// the markup the rules expect in the opening comment. CSS merges keyframes
/// at one offset, where the Web Animations API keeps a jump: see
/// ``cssKeyframes(_:)``. The period of an animation that repeats forever
/// plays `infinite` times, after its prefix (its delay); events have no
/// place in CSS.
public func stylesheet(_ export: WebExport) -> String {
    var out = "/* animc export --to css: `\(export.binding)`"
    if !export.source.isEmpty { out += " of \(commentSafe(export.source))" }
    if let endless = export.endless {
        out += ", which repeats forever: from \(formatNumber(endless.settled.seconds)) s on (or sooner), every property "
        out += "plays its period (\(formatNumber(endless.period.seconds)) s at the longest) again and again.\n"
    } else {
        out += export.isCancelled ? ", which is cancelled: nothing moves.\n" : ", \(formatNumber(export.duration.seconds)) s.\n"
    }
    out += " * Each property is a custom property (\(export.names.variable("x")), …) on its view's element. Markup:\n"
    for view in export.views {
        if export.names.selectorTemplate == WebNames.defaultSelector {
            out += " *   <div data-view=\"\(commentSafe(view.name))\"></div>\n"
        } else {
            out += " *   an element that matches \(commentSafe(export.names.selector(of: view.name)))\n"
        }
    }
    let wiring = drawingRules(export)
    if !wiring.isEmpty {
        out += " * Drawn as the player page draws them (paste as it is):\n"
        out += wiring.map { " *   " + $0.replacingAll("*/", with: "* /") + "\n" }.joined()
    }
    out += " */\n\n"
    for registration in registrations(export) {
        out += "@property \(registration.name) { syntax: '\(registration.syntax)'; inherits: false; initial-value: \(registration.initial); }\n"
    }
    for view in export.views {
        var names: [String] = []
        for channel in view.channels {
            for (index, animation) in channel.animations.enumerated() {
                let name = export.names.keyframes(view: view.name, property: channel.property.name, index: index)
                out += "\n@keyframes \(name) {\n"
                for keyframe in cssKeyframes(animation.keyframes) {
                    out += "  \(cssPercent(keyframe.offset))% { \(channel.variable): \(cssValue(keyframe.value));"
                    if let easing = keyframe.easing { out += " animation-timing-function: \(easing);" }
                    out += " }\n"
                }
                out += "}\n"
                // The shorthand without its defaults (no delay, one iteration, direction normal, fill none).
                var parts = [name, "\(cssNumber(animation.duration * 1000))ms", "linear"]
                if animation.delay != 0 { parts.append("\(cssNumber(animation.delay * 1000))ms") }
                if animation.isEndless { parts.append("infinite") } else if animation.iterations != 1 { parts.append(String(animation.iterations)) }
                if animation.fillsBoth { parts.append("both") }
                names.append(parts.joined(separator: " "))
            }
        }
        out += "\n\(export.names.selector(of: view.name)) {\n"
        for channel in view.channels {
            out += "  \(channel.variable): \(cssValue(channel.start));\n"
        }
        if !names.isEmpty {
            out += "  animation:\n    " + names.joined(separator: ",\n    ") + ";\n"
        }
        out += "}\n"
    }
    return out
}

/// Keyframes CSS keeps apart: a run of keyframes at one offset `o` (a jump)
/// becomes its first at `o − ν` and its last at `o`, `ν` = ``cssJump`` of the
/// duration (less where the keyframe before is nearer), so CSS shows at `o`
/// what the Web Animations API shows there. A last keyframe whose curve does
/// not start at its value gets that value at `o` and moves to `o + ν`.
func cssKeyframes(_ keyframes: [WebExport.Keyframe]) -> [WebExport.Keyframe] {
    var out: [WebExport.Keyframe] = []
    var index = 0
    while index < keyframes.count {
        var end = index
        // A run: one offset, or offsets a few rounding errors apart (a stylesheet prints them alike, and CSS merges them).
        while end + 1 < keyframes.count, keyframes[end + 1].offset - keyframes[index].offset <= cssCoincident { end += 1 }
        let offset = keyframes[index].offset
        guard end > index else {
            out.append(keyframes[index])
            index += 1
            continue
        }
        let previous = out.last?.offset ?? -Double.infinity
        let next = end + 1 < keyframes.count ? keyframes[end + 1].offset : Double.infinity
        let before = min(cssJump, (offset - previous) / 2), after = min(cssJump, (next - offset) / 2)
        if offset - before >= 0, before > 0 {
            var first = keyframes[index]
            first.offset = offset - before
            out.append(first)
        }
        var last = keyframes[end]
        if let shown = last.shown, after > 0, offset + after <= 1 {
            out.append(WebExport.Keyframe(offset: offset, value: shown))
            last.offset = offset + after
        }
        out.append(last)
        index = end + 1
    }
    return out
}

/// An offset as a percentage, in the digits it was written with
/// (``WebExportBuilder/written(_:seconds:)``): multiplying by 100 leaves a
/// rounding error in the last place (`36.449796000000006`) that the shortest
/// decimal within two units in the last place removes. No more than that: an
/// offset kept exact (a jump's instant) must not move later, where a browser
/// seeking to the instant would still show the value before the jump.
func cssPercent(_ offset: Double) -> String {
    let percent = offset * 100
    return formatNumber(Digits.shortest(percent, within: 2 * percent.ulp))
}

/// How far apart ``cssKeyframes(_:)`` sets the two sides of a jump, as a
/// fraction of the duration: a hundredth of ``WebExport/window``, and ten
/// thousand times a double's rounding at 1.
let cssJump = 1e-12

/// Offsets closer than this are one offset to ``cssKeyframes(_:)``: a
/// hundredth of ``cssJump``, far above the rounding of offsets computed two
/// ways (0.08333333333333331 and …333 print alike once multiplied by 100).
let cssCoincident = 1e-14

// MARK: - Shared pieces

/// A custom property to register: its name, `<number>` or `<color>`, and its initial value.
struct Registration {
    let name: String
    let syntax: String
    let initial: String
}

/// One registration per custom property name, in order of first use.
func registrations(_ export: WebExport) -> [Registration] {
    var seen: Set<String> = []
    var result: [Registration] = []
    for view in export.views {
        for channel in view.channels where seen.insert(channel.variable).inserted {
            let form = channel.kind.cssRegistration
            result.append(Registration(name: channel.variable, syntax: form.syntax, initial: form.initial))
        }
    }
    return result
}

/// CSS rules that draw each view's element from its custom properties, as
/// the player page draws its shapes (docs/exports.md §1): `opacity`, a
/// `transform` of `x`, `y` (px), `rotation` (degrees), `scale`, `scale-x`
/// and `scale-y` about the view's `origin` (its centre unless it says), the
/// element's centre at its `at` home when it has one, the size (`radius`, `width`,
/// `height`, `size`: px) and `color` (or `fill`) as the background. One
/// line each; views with nothing drawn have no rule, and views drawn alike share one.
func drawingRules(_ export: WebExport) -> [String] {
    var rules: [(selectors: [String], declarations: [String])] = []
    for (view, exported) in zip(RenderModel(export).views, export.views) {
        var variables: [String: String] = [:]
        for channel in exported.channels where variables[channel.property.name] == nil {
            variables[channel.property.name] = "var(\(channel.variable))"
        }
        func variable(_ property: Property?) -> String? { property.flatMap { variables[$0.name] } }
        var declarations: [String] = []
        if let opacity = variable(view.opacity) { declarations.append("opacity: \(opacity)") }
        var transforms: [String] = []
        if let home = view.placement.home {
            // `at (X, Y)`: the element's centre stands there, in its positioned container.
            declarations += ["position: absolute", "left: \(cssNumber(home.x))px", "top: \(cssNumber(home.y))px"]
            transforms.append("translate(-50%, -50%)")
        }
        if variable(view.x) != nil || variable(view.y) != nil {
            let x = variable(view.x).map { "calc(\($0) * 1px)" } ?? "0px", y = variable(view.y).map { "calc(\($0) * 1px)" } ?? "0px"
            transforms.append("translate(\(x), \(y))")
        }
        if let rotation = variable(view.rotation) { transforms.append("rotate(calc(\(rotation) * 1deg))") }
        if let scale = variable(view.scale) { transforms.append("scale(\(scale))") }
        if variable(view.scaleX) != nil || variable(view.scaleY) != nil {
            transforms.append("scale(\(variable(view.scaleX) ?? "1"), \(variable(view.scaleY) ?? "1"))")
        }
        if !transforms.isEmpty {
            declarations.append("transform: " + transforms.joined(separator: " "))
            let origin = view.placement.origin
            declarations.append("transform-origin: " + (origin == (0.5, 0.5) ? "center" : "\(cssNumber(origin.x * 100))% \(cssNumber(origin.y * 100))%"))
        }
        switch view.shape {
        case .circle(let radius):
            if let radius = variable(radius) {
                declarations.append("width: calc(max(0, \(radius)) * 2px)")
                declarations.append("height: calc(max(0, \(radius)) * 2px)")
                declarations.append("border-radius: 50%")
            }
        case .rectangle(let width, let height):
            // A fixed side is the element's own size (the page's 60 px is its drawing, not the element's).
            if case .property(let property) = width, let width = variable(property) {
                declarations.append("width: calc(max(0, \(width)) * 1px)")
            }
            if case .property(let property) = height, let height = variable(property) {
                declarations.append("height: calc(max(0, \(height)) * 1px)")
            }
        }
        if case .property(let property) = view.fill, let fill = variable(property) {
            declarations.append("background-color: \(fill)")
        }
        guard !declarations.isEmpty else { continue }
        // Views drawn alike share one rule (confetti's eight pieces), in the order they come.
        if let index = rules.firstIndex(where: { $0.declarations == declarations }) {
            rules[index].selectors.append(export.names.selector(of: view.name))
        } else {
            rules.append((selectors: [export.names.selector(of: view.name)], declarations: declarations))
        }
    }
    return rules.flatMap { rule in
        rule.selectors.dropLast().map { $0 + "," } + ["\(rule.selectors.last ?? "") {"] + rule.declarations.map { "  \($0);" } + ["}"]
    }
}

func jsonNumber(_ value: Double) -> String {
    value.isFinite ? formatNumber(value) : "null"
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (AnimLang links no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        out += rest
        return out
    }
}

/// What `animc export --to` writes.
public enum WebFormat: String, Sendable, CaseIterable {
    /// The player page (``playerPage(_:)``).
    case html
    /// A stylesheet (``stylesheet(_:)``).
    case css
    /// Web Animations JSON (``waapiJSON(_:)``).
    case waapi
    /// An ES module that plays it (``webModule(_:)``).
    case js

    /// `export` written in this format.
    public func text(_ export: WebExport) -> String {
        switch self {
        case .html: return playerPage(export)
        case .css: return stylesheet(export)
        case .waapi: return waapiJSON(export)
        case .js: return webModule(export)
        }
    }
}
