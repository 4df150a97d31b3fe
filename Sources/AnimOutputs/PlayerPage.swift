import AnimJSON
import AnimLang
import Animations

/// `--to html`: one self-contained page that plays the animation
/// (docs/exports.md §1 and §3). No network and no files besides itself, so it works from
/// `file://`.
///
/// The stage is SVG: a shape per view, in first-mention order, sitting in a
/// line, evenly spaced: side by side, or one above the other when the views
/// travel further sideways than up and down (so that their paths do not
/// cross); a view with `at (X, Y)` stands there instead (labelled only when
/// no other view shares that home). A view is a circle when it has a
/// `radius`, else a square (`width`, `height`, `size`, default 60); `x` and
/// `y` move it from its home, `scale` (times `scale-x`, `scale-y` per axis)
/// and `rotation` (degrees) act about its `origin` (its centre unless it
/// says; `transform-box: fill-box`), `opacity` is clamped
/// to [0, 1], `color` (or `fill`) fills it; a view that sets no colour gets
/// one of ten distinct ones. The stage holds every position reached, with a
/// margin. Every other property is a number in the readout beside the stage.
///
/// The Web Animations API plays the exported keyframes (``waapiJSON(_:)``,
/// embedded): the page never computes a value itself. It reads them back
/// from the elements' computed custom properties, for its readout and for
/// tests: `window.animc = { duration, cancelled, seek(t), values() }`, where
/// `seek(t)` pauses at `t` seconds and `values()` maps `"view.property"` to a
/// number or a CSS colour string. Events are `animc-event` DOM events
/// (`detail.name`, `detail.time`), fired on the stage (they bubble to the
/// document) as the playhead passes them, playing or seeking forwards.
///
/// Controls: play/pause (space), a scrubber with the time, speed 0.25×–4×,
/// loop, ←/→ to step one frame (1/60 s); `#t=1.5` in the address seeks there
/// and pauses.
///
/// An animation that repeats forever has `window.animc.duration` =
/// `Infinity` and `window.animc.window` = the stretch the scrubber shows
/// (where everything has settled, and two of the longest period); time
/// keeps running past it (the scrubber then rests at its end, the clock
/// counts on), there is nothing to loop, and `seek(t)` works for any
/// `t ≥ 0`: the browser's own infinite iterations play the periods. Repeating
/// events fire at every period they pass (seeking far ahead at once, each
/// fires for its latest 10,000 periods only).
public func playerPage(_ export: WebExport) -> String {
    let parts = PlayerParts(export)
    return pageHead(title: parts.title, style: parts.style, generator: "animc export --to html") + parts.body
        + "<script>\nconst EXPORT = " + scriptSafe(parts.data) + ";\nconst DRAWN = " + parts.drawn + ";\n"
        + playerScript(live: false) + "</script>\n</body>\n</html>\n"
}

/// The player page of one animation, in the parts that `animc serve` swaps
/// when the file changes (``LivePreview``): the page's title, its
/// stylesheet, the body (header, stage, readout and controls), the Web
/// Animations JSON and which properties the stage draws.
struct PlayerParts: Sendable {
    let title: String
    let style: String
    let body: String
    let data: String
    let drawn: String

    init(_ export: WebExport) {
        // The page draws its own stage: it finds its shapes by `data-view`, whatever selector the export was given.
        let export = export.names.selectorTemplate == WebNames.defaultSelector
            ? export : export.named(WebNames(prefix: export.names.prefix) ?? .standard)
        let stage = StageLayout(export)
        title = export.binding + " — animc"
        var style = ""
        for registration in registrations(export) {
            style += "@property \(registration.name) { syntax: '\(registration.syntax)'; inherits: false; initial-value: \(registration.initial); }\n"
        }
        self.style = style + pageStyle + stage.css
        var html = pageHeader(export)
        html += "<main>\n<section class=\"stage-panel\">\n"
        html += stage.svg
        html += "</section>\n<aside>\n<h2>Values</h2>\n<table class=\"readout\"><tbody id=\"readout\"></tbody></table>\n"
        html += "<h2>Events</h2>\n<ol id=\"log\" class=\"log\"><li class=\"none\">" + (export.events.isEmpty && (export.endless?.repeating?.events.isEmpty ?? true) ? "none in this animation" : "none yet") + "</li></ol>\n"
        html += "</aside>\n</main>\n"
        html += controls
        body = html
        data = waapiJSON(export)
        drawn = stage.drawnJSON
    }
}

/// The stage of the page: the render model's views (``RenderModel``) with the custom property of each channel.
struct StageLayout {
    let model: RenderModel
    /// Per view, in order: its channels' custom properties by property name.
    let variables: [[String: String]]

    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) { model.bounds }
    var stacked: Bool { model.stacked }

    init(_ export: WebExport) {
        model = RenderModel(export)
        variables = export.views.map { view in
            var variables: [String: String] = [:]
            for channel in view.channels where variables[channel.property.name] == nil {
                variables[channel.property.name] = channel.variable
            }
            return variables
        }
    }

    /// `<svg>` with a group per view (the element its properties animate).
    var svg: String {
        let width = bounds.maxX - bounds.minX, height = bounds.maxY - bounds.minY
        var out = "<svg id=\"stage\" class=\"\(stacked ? "stacked" : "row")\" xmlns=\"http://www.w3.org/2000/svg\" "
        out += "viewBox=\"\(px(bounds.minX)) \(px(bounds.minY)) \(px(width)) \(px(height))\" "
        out += "data-width=\"\(px(width))\" data-height=\"\(px(height))\" data-minimum-zoom=\"\(px(Stage.minimumZoom))\" "
        out += "role=\"img\" aria-label=\"the stage\">\n"
        out += "<defs><pattern id=\"grid\" width=\"20\" height=\"20\" patternUnits=\"userSpaceOnUse\"><path d=\"M 20 0 L 0 0 0 20\" class=\"grid\"/></pattern></defs>\n"
        out += "<rect class=\"backdrop\" x=\"\(px(bounds.minX))\" y=\"\(px(bounds.minY))\" width=\"\(px(width))\" height=\"\(px(height))\" fill=\"url(#grid)\"/>\n"
        for view in model.views {
            out += "<g class=\"home\" transform=\"translate(\(px(view.home.x)) \(px(view.home.y)))\"><path d=\"M -6 0 H 6 M 0 -6 V 6\"/></g>\n"
            if case .lane(let x)? = view.label {
                out += "<text class=\"label lane\" x=\"\(px(view.home.x + x))\" y=\"\(px(view.home.y))\">\(markupEscaped(view.name))</text>\n"
            }
        }
        for view in model.views {
            let name = markupEscaped(view.name)
            out += "<g class=\"view\" data-view=\"\(name)\">"
            switch view.shape {
            case .circle: out += "<g class=\"body\"><circle class=\"shape\" cx=\"0\" cy=\"0\"/></g>"
            case .rectangle: out += "<g class=\"body\"><rect class=\"shape\"/></g>"
            }
            if case .below(let y)? = view.label { out += "<text class=\"label\" x=\"0\" y=\"\(px(y))\">\(name)</text>" }
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// The drawing rules: each view reads only the properties it has.
    var css: String {
        var out = ""
        for (view, variables) in zip(model.views, variables) {
            func variable(_ property: Property?) -> String? { property.flatMap { variables[$0.name] } }
            let sel = WebNames.standard.selector(of: view.name)
            let x = variable(view.x).map { "calc((\(px(view.home.x)) + var(\($0))) * 1px)" } ?? "\(px(view.home.x))px"
            let y = variable(view.y).map { "calc((\(px(view.home.y)) + var(\($0))) * 1px)" } ?? "\(px(view.home.y))px"
            out += "\(sel) { transform: translate(\(x), \(y)); }\n"
            var inherited: [String] = []
            var body: [String] = []
            var transforms: [String] = []
            if let rotation = variable(view.rotation) {
                inherited.append(rotation)
                transforms.append("rotate(calc(var(\(rotation)) * 1deg))")
            }
            let scales = [variable(view.scale), variable(view.scaleX), variable(view.scaleY)]
            inherited += scales.compactMap { $0 }
            if scales[1] == nil, scales[2] == nil, let scale = scales[0] {
                transforms.append("scale(var(\(scale)))")
            } else if scales[1] != nil || scales[2] != nil {
                // `scale-x` and `scale-y` multiply `scale` along their axis.
                func axis(_ own: String?) -> String {
                    let factors = [scales[0], own].compactMap { $0 }.map { "var(\($0))" }
                    if factors.count < 2 { return factors.first ?? "1" }
                    return "calc(" + factors.joined(separator: " * ") + ")"
                }
                transforms.append("scale(\(axis(scales[1])), \(axis(scales[2])))")
            }
            if !transforms.isEmpty { body.append("transform: " + transforms.joined(separator: " ")) }
            let origin = view.placement.origin
            if origin != (0.5, 0.5) {
                // The shape's own box, so that fractions of it are the origin whatever its size.
                body.append("transform-box: fill-box")
                body.append("transform-origin: \(px(origin.x * 100))% \(px(origin.y * 100))%")
            }
            if let opacity = variable(view.opacity) {
                inherited.append(opacity)
                body.append("opacity: clamp(0, var(\(opacity)), 1)")
            }
            out += "\(sel) > .body { " + (inherited.map { "\($0): inherit; " } + body.map { $0 + "; " }).joined() + "}\n"
            var shape: [String] = []
            var shapeInherited: [String] = []
            switch view.fill {
            case .property(let property):
                let fill = variable(property) ?? ""
                shapeInherited.append(fill)
                shape.append("fill: var(\(fill))")
            case .palette(let color):
                shape.append("fill: \(Drawing.hex(color))")
            }
            switch view.shape {
            case .circle(let radius):
                let radius = variable(radius) ?? ""
                shapeInherited.append(radius)
                shape.append("r: calc(max(0, var(\(radius))) * 1px)")
            case .rectangle(let widthSide, let heightSide):
                func side(_ side: RenderModel.Side) -> String {
                    switch side {
                    case .property(let property):
                        let own = variable(property) ?? ""
                        shapeInherited.append(own)
                        return "var(\(own))"
                    case .fixed(let length):
                        return px(length)
                    }
                }
                let width = side(widthSide), height = side(heightSide)
                shape.append("width: calc(max(0, \(width)) * 1px)")
                shape.append("height: calc(max(0, \(height)) * 1px)")
                shape.append("x: calc(\(width) * -0.5px)")
                shape.append("y: calc(\(height) * -0.5px)")
                shape.append("rx: \(px(RenderModel.cornerRadius))px")
            }
            // The shape is inside the body, two levels below the view's element.
            let twice = Array(Set(shapeInherited)).sorted()
            if !twice.isEmpty {
                out += "\(sel) > .body { " + twice.map { "\($0): inherit; " }.joined() + "}\n"
            }
            out += "\(sel) .shape { " + (twice.map { "\($0): inherit; " } + shape.map { $0 + "; " }).joined() + "}\n"
        }
        return out
    }

    /// `{"view.property": true}` for each property the drawing shows.
    var drawnJSON: String {
        "{" + model.views.flatMap(\.drawn).map { jsonString($0.description) + ": true" }.joined(separator: ", ") + "}"
    }
}

private func px(_ value: Double) -> String {
    formatNumber(RenderModel.onPage(value))
}


/// The page up to `<body>`: its title and stylesheet.
private func pageHead(title: String, style: String, generator: String) -> String {
    var out = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    out += "<meta name=\"generator\" content=\"\(generator)\">\n"
    out += "<title>\(markupEscaped(title))</title>\n<style>\n" + style + "</style>\n</head>\n<body>\n"
    return out
}

/// The page's header: the binding, the file, how long it lasts.
private func pageHeader(_ export: WebExport) -> String {
    let title = "`\(export.binding)`" + (export.source.isEmpty ? "" : " of \(export.source)")
    var out = "<header><h1>\(markupEscaped(title).replacingBackticks)</h1>"
    let length = export.endless.map { endless in
        "repeats forever (every property in its period from \(formatNumber(endless.settled.seconds)) s on)"
    } ?? "\(formatNumber(export.duration.seconds)) s"
    out += "<p class=\"meta\">" + (export.isCancelled ? "cancelled: nothing plays" : "\(length) · "
        + "\(export.views.count) view\(export.views.count == 1 ? "" : "s") · "
        + "\(export.columns.count) propert\(export.columns.count == 1 ? "y" : "ies")") + "</p></header>\n"
    return out
}

private extension String {
    /// `` `name` `` as `<code>name</code>`.
    var replacingBackticks: String {
        var out = ""
        var open = false
        for character in self {
            if character == "`" {
                out += open ? "</code>" : "<code>"
                open.toggle()
            } else {
                out.append(character)
            }
        }
        return out + (open ? "</code>" : "")
    }
}

private let controls = WebFiles.controlsHTML

private let pageStyle = WebFiles.pageCSS

/// The player's script. `live` (``LivePreview``) makes it a function,
/// `animcPlayer(EXPORT, DRAWN, LIVE)`, that can be started again on new
/// data: `LIVE.signal` (an `AbortSignal`) stops it (its listeners, its
/// frames and its animations), and it starts at `LIVE.time` (playing when
/// `LIVE.playing`) unless that is `null`; `window.animc` also tells
/// `time()` and `playing()`. Without `live` it is the exported page's
/// script, byte for byte.
private func playerScript(live: Bool) -> String {
    WebFiles.playerJS(live: live)
}

// MARK: - Live preview (`animc serve`)

/// What `animc serve` shows (docs/exports.md §6, "Live preview"): the player
/// page of the file's last good animation, followed live, with what is wrong
/// with the file now over the stage.
///
/// ``page`` is the page the server sends first: the player page (its script
/// made restartable, ``playerScript(live:)``), a box for the diagnostics and a
/// script that long-polls ``update``, `GET /update?since=VERSION`, which the
/// server answers when ``version`` is no longer `VERSION`: JSON
/// `{"version", "pageVersion", "problem", "diagnostics", "page"}`, where `page`
/// (`title`, `style`, `body`, `data`, `drawn`) is the last good animation,
/// made at `pageVersion`. When that is new to the page, the page swaps it in
/// (stylesheet, header, stage, readout, controls) and starts the player at the
/// time it showed, playing if it was; `problem` (a line, or `null`) and
/// `diagnostics` (as the terminal prints them) fill the box over the stage.
public struct LivePreview: Sendable {
    /// Goes up by one at every change.
    public private(set) var version = 1
    private var parts: PlayerParts?
    private var partsVersion = 0
    private var problem: String?
    private var diagnostics = ""

    /// Nothing to show yet (`problem` says why).
    public init(problem: String, diagnostics: String = "") {
        self.problem = problem
        self.diagnostics = diagnostics
    }

    /// Whether there is an animation to show (the file was good once).
    public var hasAnimation: Bool { parts != nil }

    /// The file is good: shows `export` from now on.
    public mutating func show(_ export: WebExport) {
        version += 1
        parts = PlayerParts(export)
        partsVersion = version
        problem = nil
        diagnostics = ""
    }

    /// The file is not good: the last good animation stays, under `problem`
    /// (one line) and `diagnostics` (as the terminal prints them).
    public mutating func report(_ problem: String, diagnostics: String) {
        version += 1
        self.problem = problem
        self.diagnostics = diagnostics
    }

    /// The page `GET /` answers.
    public var page: String {
        var html = pageHead(title: parts?.title ?? "animc serve", style: parts?.style ?? pageStyle, generator: "animc serve")
        html += parts?.body ?? ""
        html += liveElements
        html += "<script>\n"
        if let parts {
            html += "const EXPORT = " + scriptSafe(parts.data) + ";\nconst DRAWN = " + parts.drawn + ";\n"
        }
        html += playerScript(live: true)
        html += "const STATE = " + scriptSafe(state(withPage: false)) + ";\n" + liveScript + "</script>\n</body>\n</html>\n"
        return html
    }

    /// The JSON `GET /update` answers.
    public var update: String { state(withPage: true) }

    private func state(withPage: Bool) -> String {
        var out = "{\"version\": \(version), \"pageVersion\": \(partsVersion), "
        out += "\"problem\": " + (problem.map(jsonString) ?? "null") + ", \"diagnostics\": " + jsonString(diagnostics)
        if withPage, let parts {
            out += ",\n\"page\": {\"title\": \(jsonString(parts.title)), \"style\": \(jsonString(parts.style)), "
            out += "\"body\": \(jsonString(parts.body)),\n\"data\": \(parts.data),\n\"drawn\": \(parts.drawn)}"
        }
        return out + "}\n"
    }
}

/// The box for the diagnostics, the line saying the server is gone, and their style.
private let liveElements = WebFiles.liveElementsHTML

/// Follows the file: long-polls `/update` and swaps in what changed (see ``LivePreview``).
private let liveScript = WebFiles.liveJS

/// The events that playback passes from `from` to `to` (seconds), fired in
/// order by `fire(name, time)`: those of `EXPORT.events` in `(from, to]`,
/// and every firing of `EXPORT.repeatingEvents`. The player page and the
/// module of `--to js` (``webModule(_:)``) both say it with this text.
let passingEvents = WebFiles.passingEventsJS
