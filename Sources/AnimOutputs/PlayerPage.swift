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

/// Where each view sits and how big the stage is (``Stage``), with the views it draws.
struct StageLayout {
    /// A view, where the stage puts it, and its palette colour.
    struct Placed {
        let view: WebExport.View
        let spot: Stage.Spot
        let color: String

        var home: (x: Double, y: Double) { spot.home }
        var isCircle: Bool { spot.isCircle }
        var labelled: Bool { spot.labelled }
        var label: (x: Double, y: Double) { spot.label }
    }

    let placed: [Placed]
    let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    let stacked: Bool

    init(_ export: WebExport) {
        let stage = Stage(export.views.map { view in
            var numbers: Set<String> = [], extents: [String: ClosedRange<Double>] = [:]
            for channel in view.channels where channel.kind == .number && !numbers.contains(channel.property.name) {
                numbers.insert(channel.property.name)
                extents[channel.property.name] = channel.extent
            }
            return StageView(name: view.name, placement: view.placement, numbers: numbers, extents: extents)
        })
        placed = zip(export.views, stage.spots).enumerated().map { index, item in
            Placed(view: item.0, spot: item.1, color: Drawing.hex(Drawing.paletteColor(index)))
        }
        bounds = stage.bounds
        stacked = stage.stacked
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
        for item in placed {
            out += "<g class=\"home\" transform=\"translate(\(px(item.home.x)) \(px(item.home.y)))\"><path d=\"M -6 0 H 6 M 0 -6 V 6\"/></g>\n"
            if stacked, item.view.placement.home == nil {
                out += "<text class=\"label lane\" x=\"\(px(item.home.x + item.label.x))\" y=\"\(px(item.home.y))\">\(markupEscaped(item.view.name))</text>\n"
            }
        }
        for item in placed {
            let name = markupEscaped(item.view.name)
            out += "<g class=\"view\" data-view=\"\(name)\">"
            out += "<g class=\"body\">" + (item.isCircle ? "<circle class=\"shape\" cx=\"0\" cy=\"0\"/>" : "<rect class=\"shape\"/>") + "</g>"
            if item.labelled, !stacked || item.view.placement.home != nil { out += "<text class=\"label\" x=\"0\" y=\"\(px(item.label.y))\">\(name)</text>" }
            out += "</g>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// The drawing rules: each view reads only the properties it has.
    var css: String {
        var out = ""
        for item in placed {
            func number(_ name: String) -> String? {
                item.view.channels.first { $0.property.name == name && $0.kind == .number }?.variable
            }
            let sel = WebNames.standard.selector(of: item.view.name)
            let x = number("x").map { "calc((\(px(item.home.x)) + var(\($0))) * 1px)" } ?? "\(px(item.home.x))px"
            let y = number("y").map { "calc((\(px(item.home.y)) + var(\($0))) * 1px)" } ?? "\(px(item.home.y))px"
            out += "\(sel) { transform: translate(\(x), \(y)); }\n"
            var inherited: [String] = []
            var body: [String] = []
            var transforms: [String] = []
            if let rotation = number("rotation") {
                inherited.append(rotation)
                transforms.append("rotate(calc(var(\(rotation)) * 1deg))")
            }
            let scales = [number("scale"), number("scale-x"), number("scale-y")]
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
            let origin = item.view.placement.origin
            if origin != (0.5, 0.5) {
                // The shape's own box, so that fractions of it are the origin whatever its size.
                body.append("transform-box: fill-box")
                body.append("transform-origin: \(px(origin.x * 100))% \(px(origin.y * 100))%")
            }
            if let opacity = number("opacity") {
                inherited.append(opacity)
                body.append("opacity: clamp(0, var(\(opacity)), 1)")
            }
            out += "\(sel) > .body { " + (inherited.map { "\($0): inherit; " } + body.map { $0 + "; " }).joined() + "}\n"
            var shape: [String] = []
            var shapeInherited: [String] = []
            let fill = item.view.channels.first { ($0.property.name == "color" || $0.property.name == "fill") && $0.kind == .color }
            if let fill {
                shapeInherited.append(fill.variable)
                shape.append("fill: var(\(fill.variable))")
            } else {
                shape.append("fill: \(item.color)")
            }
            if item.isCircle, let radius = number("radius") {
                shapeInherited.append(radius)
                shape.append("r: calc(max(0, var(\(radius))) * 1px)")
            } else {
                let size = number("size")
                func side(_ name: String) -> String {
                    if let own = number(name) {
                        shapeInherited.append(own)
                        return "var(\(own))"
                    }
                    if let size { return "var(\(size))" }
                    return px(Drawing.defaultSide)
                }
                if let size { shapeInherited.append(size) }
                let width = side("width"), height = side("height")
                shape.append("width: calc(max(0, \(width)) * 1px)")
                shape.append("height: calc(max(0, \(height)) * 1px)")
                shape.append("x: calc(\(width) * -0.5px)")
                shape.append("y: calc(\(height) * -0.5px)")
                shape.append("rx: 4px")
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
        var keys: [String] = []
        for item in placed {
            for channel in item.view.channels where Drawing.properties.contains(channel.property.name) {
                if (channel.property.name == "color" || channel.property.name == "fill") && channel.kind != .color { continue }
                keys.append(jsonString(channel.property.description) + ": true")
            }
        }
        return "{" + keys.joined(separator: ", ") + "}"
    }
}

private func px(_ value: Double) -> String {
    formatNumber((value * 100).rounded() / 100)
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

private let controls = """
<footer class="controls">
<button id="play" type="button" title="Play or pause (space)" aria-label="Play"><svg viewBox="0 0 16 16" aria-hidden="true"><path class="when-paused" d="M4 2.5v11l9.5-5.5z"/><path class="when-playing" d="M3.5 2.5h3.2v11H3.5zM9.3 2.5h3.2v11H9.3z"/></svg></button>
<button id="back" type="button" title="One frame back (←)" aria-label="One frame back"><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3 3h2v10H3zM13.5 3v10L6 8z"/></svg></button>
<button id="forward" type="button" title="One frame forward (→)" aria-label="One frame forward"><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M11 3h2v10h-2zM2.5 3v10L10 8z"/></svg></button>
<input id="scrubber" type="range" min="0" max="1" step="any" value="0" aria-label="Time">
<output id="time" class="time">0.000 s</output>
<label class="speed">speed <select id="speed"><option value="0.25">0.25×</option><option value="0.5">0.5×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option></select></label>
<label class="loop"><input id="loop" type="checkbox" checked> loop</label>
</footer>

"""

private let pageStyle = """
:root { color-scheme: light; --ink: #1d2330; --muted: #667085; --line: #e4e7ec; --panel: #f8f9fb; --accent: #3a64d8; }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; }
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #fff; display: flex; flex-direction: column; }
header { display: flex; align-items: baseline; gap: 16px; padding: 10px 18px; border-bottom: 1px solid var(--line); }
h1 { font-size: 16px; font-weight: 600; margin: 0; }
h1 code { font: 600 15px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.meta { margin: 0; color: var(--muted); }
main { flex: 1; display: flex; min-height: 0; }
.stage-panel { flex: 1; overflow: auto; display: flex; padding: 16px; background: #fcfcfd; min-width: 0; }
#stage { display: block; margin: auto; background: #fff; border: 1px solid var(--line); border-radius: 8px; box-shadow: 0 1px 2px rgba(16, 24, 40, 0.06); flex: none; }
.grid { fill: none; stroke: #eef0f4; stroke-width: 1; }
.home path { stroke: #c7ccd6; stroke-width: 1; fill: none; }
.shape { stroke: rgba(0, 0, 0, 0.25); stroke-width: 1; }
.label { font: calc(12px / var(--zoom, 1)) ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; fill: #344054; text-anchor: middle; dominant-baseline: hanging; paint-order: stroke; stroke: #fff; stroke-width: calc(3px / var(--zoom, 1)); }
.label.lane { text-anchor: end; dominant-baseline: middle; }
aside { width: 320px; border-left: 1px solid var(--line); background: var(--panel); overflow: auto; padding: 6px 14px 14px; }
h2 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 12px 0 6px; }
.readout { width: 100%; border-collapse: collapse; font: 12.5px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.readout td { padding: 3px 4px; border-bottom: 1px solid var(--line); white-space: nowrap; }
.readout td.value { text-align: right; font-variant-numeric: tabular-nums; }
.readout tr.other td.name::after { content: " ·"; color: var(--muted); }
.readout .view-row td { color: var(--muted); font-family: system-ui, sans-serif; font-size: 11px; padding-top: 8px; border-bottom: none; }
.swatch { display: inline-block; width: 11px; height: 11px; border-radius: 3px; border: 1px solid rgba(0,0,0,0.2); vertical-align: -1px; margin-right: 6px; }
.log { list-style: none; margin: 0; padding: 0; font: 12.5px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; max-height: 30vh; overflow: auto; }
.log li { padding: 2px 0; border-bottom: 1px solid var(--line); }
.log li.none { color: var(--muted); font-family: system-ui, sans-serif; }
.log .at { color: var(--muted); display: inline-block; min-width: 72px; }
.controls { display: flex; align-items: center; gap: 10px; padding: 10px 18px; border-top: 1px solid var(--line); background: #fff; }
.controls button { width: 36px; height: 32px; padding: 0; border: 1px solid var(--line); border-radius: 6px; background: #fff; cursor: pointer; display: inline-flex; align-items: center; justify-content: center; }
.controls button svg { width: 16px; height: 16px; fill: #344054; }
.controls button#play { background: var(--accent); border-color: var(--accent); }
.controls button#play svg { fill: #fff; }
#play .when-playing, #play.playing .when-paused { display: none; }
#play.playing .when-playing { display: inline; }
#scrubber { flex: 1; accent-color: var(--accent); }
.time { font: 13px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; min-width: 150px; text-align: right; font-variant-numeric: tabular-nums; }
.speed, .loop { color: var(--muted); white-space: nowrap; }
.cancelled { color: var(--muted); font-size: 15px; }

"""

/// The player's script. `live` (``LivePreview``) makes it a function,
/// `animcPlayer(EXPORT, DRAWN, LIVE)`, that can be started again on new
/// data: `LIVE.signal` (an `AbortSignal`) stops it (its listeners, its
/// frames and its animations), and it starts at `LIVE.time` (playing when
/// `LIVE.playing`) unless that is `null`; `window.animc` also tells
/// `time()` and `playing()`. Without `live` it is the exported page's
/// script, byte for byte.
private func playerScript(live: Bool) -> String {
    // What the live function adds, each at one place.
    let on = live ? ", LIVE" : ""
    let whileLive = live ? "if (!LIVE.signal.aborted) " : ""
    return """
"use strict";
\(live ? "function animcPlayer(EXPORT, DRAWN, LIVE) {" : "(() => {")
  // An animation that repeats forever lasts Infinity; its scrubber shows a window of it.
  const D = EXPORT.duration === "Infinity" ? Infinity : EXPORT.duration;
  const W = Number.isFinite(D) ? D : EXPORT.window;
  const stage = document.getElementById("stage");
  const animations = [];
  const columns = [];
  for (const element of EXPORT.elements) {
    const el = document.querySelector(element.selector);
    for (const channel of element.channels) el.style.setProperty(channel.variable, channel.start);
    for (const call of element.animations) {
      const options = Object.assign({}, call.options);
      if (options.iterations === "Infinity") options.iterations = Infinity;
      const animation = el.animate(call.keyframes, options);
      animation.pause();
      animations.push(animation);
    }
  }
  for (const element of EXPORT.elements) {
    const el = document.querySelector(element.selector);
    for (const channel of element.channels) {
      columns.push({ key: channel.property, view: element.view, el, variable: channel.variable, color: channel.kind === "color", point: channel.kind === "point" });
    }
  }
  // The columns animc eval prints: every property, sorted by view.property (code points).
  const byCode = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = columns.slice().sort((a, b) => byCode(a.key, b.key));

  const read = (column) => getComputedStyle(column.el).getPropertyValue(column.variable).trim();
  // A point is its numbers, space-separated (`4 8`), as its custom property holds them.
  const numbersOf = (text) => text.trim().split(/[ ,]+/).filter((word) => word !== "").map(parseFloat);
  function values() {
    const out = {};
    for (const column of sorted) {
      const text = read(column);
      out[column.key] = column.color ? text : column.point ? numbersOf(text) : parseFloat(text);
    }
    return out;
  }

  // The readout: one row per property, grouped by view in stage order.
  const readout = document.getElementById("readout");
  const cells = [];
  let lastView = null;
  for (const column of columns) {
    if (column.view !== lastView) {
      const header = readout.insertRow();
      header.className = "view-row";
      const cell = header.insertCell();
      cell.colSpan = 2;
      cell.textContent = column.view;
      lastView = column.view;
    }
    const row = readout.insertRow();
    if (!DRAWN[column.key]) { row.className = "other"; row.title = "not drawn: shown here only"; }
    row.insertCell().textContent = column.key.slice(column.view.length + 1);
    row.cells[0].className = "name";
    const cell = row.insertCell();
    cell.className = "value";
    cells.push({ column, cell });
  }
  function formatNumber(x) {
    if (!isFinite(x)) return String(x);
    const a = Math.abs(x);
    return a !== 0 && (a >= 1e6 || a < 1e-3) ? x.toExponential(3) : x.toFixed(3);
  }
  function updateReadout() {
    for (const { column, cell } of cells) {
      const text = read(column);
      if (column.color) {
        cell.innerHTML = "";
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = text;
        cell.append(swatch, text);
      } else if (column.point) {
        cell.textContent = "(" + numbersOf(text).map(formatNumber).join(", ") + ")";
      } else {
        cell.textContent = formatNumber(parseFloat(text));
      }
    }
  }

  // Events fire as the playhead passes them: (previous, now], or [0, now] at first.
  const log = document.getElementById("log");
  let passed = -Infinity;
  function fire(name, time) {
    stage.dispatchEvent(new CustomEvent("animc-event", { bubbles: true, detail: { name, time } }));
    const none = log.querySelector(".none");
    if (none) none.remove();
    const item = document.createElement("li");
    item.innerHTML = '<span class="at"></span>';
    item.firstChild.textContent = time.toFixed(3) + " s";
    item.append(name);
    log.prepend(item);
    while (log.childElementCount > 200) log.lastElementChild.remove();
  }
\(passingEvents)
  // The clock: every animation shares the document timeline; the first
  // (or a silent one, when nothing moves) tells the time.
  const clock = document.body.animate([{ opacity: 1 }, { opacity: 1 }],
                                      { duration: W * 1000, fill: "both", iterations: Number.isFinite(D) ? 1 : Infinity });
  clock.pause();
  const all = [clock, ...animations];
\(live ? "  LIVE.signal.addEventListener(\"abort\", () => { for (const animation of all) animation.cancel(); });\n" : "")  const play = document.getElementById("play"), scrubber = document.getElementById("scrubber");
  const time = document.getElementById("time"), speed = document.getElementById("speed"), loop = document.getElementById("loop");
  scrubber.max = String(W);
  if (!Number.isFinite(D)) {
    // Nothing to loop: it never ends.
    loop.checked = false;
    loop.disabled = true;
    loop.parentElement.title = "it repeats forever";
  }
  let playing = false;

  function now() { return Math.min(D, Math.max(0, (clock.currentTime || 0) / 1000)); }
  function show(t) {
    scrubber.value = String(Math.min(t, W));
    time.value = t.toFixed(3) + " / " + (Number.isFinite(D) ? D.toFixed(3) : "∞") + " s";
    updateReadout();
  }
  function setTime(t) {
    for (const animation of all) animation.currentTime = t * 1000;
  }
  function seek(t) {
    t = Math.min(D, Math.max(0, Number(t) || 0));
    setTime(t);
    if (t >= passed) pass(passed, t);
    passed = t;
    show(t);
  }
  function pause() {
    for (const animation of all) animation.pause();
    playing = false;
    play.classList.remove("playing");
    play.setAttribute("aria-label", "Play");
  }
  function start() {
    if (D <= 0) return;
    if (now() >= D) { passed = -Infinity; setTime(0); }
    for (const animation of all) { animation.playbackRate = Number(speed.value); animation.play(); }
    playing = true;
    play.classList.add("playing");
    play.setAttribute("aria-label", "Pause");
  }
  function frame() {
    if (playing) {
      let t = now();
      if (t >= D) {
        pass(passed, D);
        if (loop.checked) { passed = -Infinity; setTime(0); t = 0; } else { pause(); t = D; }
      }
      pass(passed, t);
      passed = t;
      show(t);
    }
    \(whileLive)requestAnimationFrame(frame);
  }

  play.addEventListener("click", () => (playing ? pause() : start()));
  const step = (frames) => { pause(); seek(now() + frames / 60); };
  document.getElementById("back").addEventListener("click", () => step(-1));
  document.getElementById("forward").addEventListener("click", () => step(1));
  scrubber.addEventListener("input", () => { pause(); seek(Number(scrubber.value)); });
  speed.addEventListener("change", () => { for (const animation of all) animation.playbackRate = Number(speed.value); });
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || (event.target instanceof HTMLInputElement && event.target.type !== "range" && event.target.type !== "checkbox")) return;
    if (event.key === " ") { event.preventDefault(); playing ? pause() : start(); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
    else if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
  }\(on));

  // Fit the stage to its panel (scrolling below the smallest zoom); labels keep their size on screen.
  function fit() {
    const panel = stage.parentElement;
    const width = Number(stage.dataset.width), height = Number(stage.dataset.height);
    const room = Math.min((panel.clientWidth - 32) / width, (panel.clientHeight - 32) / height);
    const zoom = Math.max(Number(stage.dataset.minimumZoom), Math.min(1.6, room));
    stage.style.width = width * zoom + "px";
    stage.style.height = height * zoom + "px";
    stage.style.setProperty("--zoom", String(zoom));
  }
  addEventListener("resize", fit\(on));
  fit();

  function fromAddress() {
    const match = /(?:^|[#&])t=([0-9]*\\.?[0-9]+(?:e[-+]?[0-9]+)?)/i.exec(location.hash);
    if (match) { pause(); seek(parseFloat(match[1])); return true; }
    return false;
  }
  addEventListener("hashchange", fromAddress\(on));

  window.animc = { duration: D, window: W, cancelled: EXPORT.cancelled, seek(t) { pause(); seek(t); }, values\(live ? ", time: now, playing: () => playing" : "") };
  if (EXPORT.cancelled) {
    document.querySelector(".stage-panel").innerHTML = '<p class="cancelled">This animation is cancelled: it has nothing to play.</p>';
  }
\(live ? "  if (LIVE.time !== null) { seek(LIVE.time); if (LIVE.playing) start(); } else " : "  ")if (!fromAddress()) { seek(0); start(); }
  requestAnimationFrame(frame);
\(live ? "}" : "})();")

"""
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
private let liveElements = """
<style>
.stage-panel { position: relative; }
#animc-live { position: absolute; top: 12px; left: 12px; right: 12px; max-height: calc(100% - 24px); z-index: 10; overflow: auto; padding: 14px 18px; background: rgba(255, 255, 255, 0.93); border: 2px solid #d92d20; border-radius: 8px; box-shadow: 0 4px 16px rgba(16, 24, 40, 0.15); }
body > #animc-live { position: static; margin: 16px; }
#animc-live[hidden], #animc-status[hidden] { display: none; }
#animc-live h2 { margin: 0 0 10px; font-size: 14px; text-transform: none; letter-spacing: 0; color: #b42318; }
#animc-live pre { margin: 0; font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; color: var(--ink); white-space: pre; }
#animc-status { position: fixed; left: 18px; bottom: 60px; z-index: 20; margin: 0; padding: 6px 10px; border-radius: 6px; background: #1d2330; color: #fff; }
</style>
<div id="animc-live" role="alert" hidden><h2></h2><pre></pre></div>
<p id="animc-status" role="status" hidden>animc serve does not answer: trying again…</p>

"""

/// Follows the file: long-polls `/update` and swaps in what changed (see ``LivePreview``).
private let liveScript = """
(() => {
  const overlay = document.getElementById("animc-live"), status = document.getElementById("animc-status");
  let version = STATE.version, pageVersion = STATE.pageVersion, controller = null;
  function start(data, drawn, time, playing) {
    if (controller) controller.abort();
    controller = new AbortController();
    animcPlayer(data, drawn, { signal: controller.signal, time, playing });
    (document.querySelector(".stage-panel") || document.body).append(overlay);
  }
  function swap(page) {
    const time = window.animc ? window.animc.time() : null, playing = window.animc ? window.animc.playing() : true;
    document.body.append(overlay);
    for (const old of document.querySelectorAll("body > header, body > main, body > footer")) old.remove();
    document.head.querySelector("style").textContent = page.style;
    document.title = page.title;
    document.body.insertAdjacentHTML("afterbegin", page.body);
    start(page.data, page.drawn, time, playing);
  }
  function show(state) {
    if (state.page && state.pageVersion !== pageVersion) swap(state.page);
    version = state.version;
    pageVersion = state.pageVersion;
    overlay.hidden = !state.problem;
    overlay.querySelector("h2").textContent = state.problem || "";
    overlay.querySelector("pre").textContent = state.diagnostics;
  }
  // A hidden page lets its request go (a browser opens only six connections to a server) and asks again when seen.
  let request = null;
  document.addEventListener("visibilitychange", () => { if (document.hidden && request) request.abort(); });
  const seen = () => new Promise((resolve) => {
    const check = () => { if (!document.hidden) { document.removeEventListener("visibilitychange", check); resolve(); } };
    document.addEventListener("visibilitychange", check);
    check();
  });
  async function follow() {
    for (;;) {
      await seen();
      request = new AbortController();
      try {
        const response = await fetch("/update?since=" + version, { cache: "no-store", signal: request.signal });
        if (!response.ok) throw new Error("HTTP " + response.status);
        show(await response.json());
        status.hidden = true;
      } catch (error) {
        if (request.signal.aborted) continue;
        status.hidden = false;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }
  if (STATE.pageVersion) start(EXPORT, DRAWN, null, true);
  show(STATE);
  follow();
})();

"""

/// The events that playback passes from `from` to `to` (seconds), fired in
/// order by `fire(name, time)`: those of `EXPORT.events` in `(from, to]`,
/// and every firing of `EXPORT.repeatingEvents`. The player page and the
/// module of `--to js` (``webModule(_:)``) both say it with this text.
let passingEvents = """
  // Repeating events (forever): each at its time in (from, from + period], and every period after it.
  const REPEATING = EXPORT.repeatingEvents || null;
  const FIRINGS = 10000, SLACK = 1e-9;
  function pass(from, to) {
    const fired = [];
    for (const event of EXPORT.events) {
      if (event.time > from && event.time <= to) fired.push([event.time, event.name]);
    }
    if (REPEATING && REPEATING.period > 0) {
      const P = REPEATING.period;
      // A firing at t counts in (from, to] when from + SLACK < t ≤ to + SLACK: rounding of t never fires it twice.
      // Bounded loops: far out, k·P stops telling neighbouring k apart.
      for (const event of REPEATING.events) {
        const last = Math.floor((to + SLACK - event.time) / P);
        let k = Math.max(0, Math.floor((from - event.time) / P) - 1, last - FIRINGS + 1);
        for (let n = 0; n < FIRINGS + 2 && k <= last; n += 1, k += 1) {
          const t = event.time + k * P;
          if (t > from + SLACK && t <= to + SLACK) fired.push([t, event.name]);
        }
      }
      fired.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    }
    for (const [time, name] of fired) fire(name, time);
  }

"""
