import AnimJSON
import AnimLang
import Animations

// `--to js`: the web export as one ES module that a page's script imports
// (docs/exports.md §6, "A module for scripts").

/// `--to js`: one ES module with no imports. It embeds the Web Animations
/// JSON of ``waapiJSON(_:)`` (the same keyframes, written once) and exports
///
/// * `duration`: seconds, `Infinity` for an animation that repeats forever;
/// * `play(root, options)`: registers the custom properties (unless they are
///   already), finds each view's elements under `root` (and `root` itself)
///   by its selector (``WebNames``), sets their values at time 0 and animates
///   them with `element.animate`, playing at once. It returns a controller
///   `{finished, pause(), play(), seek(t), cancel(), currentTime}` (seconds):
///   `finished` is a promise of the controller, kept when a finite animation
///   reaches its end, rejected (`AbortError`) by `cancel()`, which returns
///   the elements to their declared values; `play()` after
///   the end starts again from 0. As playback passes an `emit NAME`, at
///   every period for one that repeats, it dispatches
///   `new CustomEvent("animc:NAME", {detail: {time}})` on `root` and calls
///   `options.onEvent(name, time)`; `seek(t)` fires nothing. The
///   keyframes marked `"relative"` (``WebExport/Keyframe/relative``: `to` and
///   `by` tweens) start from where each element is when `play` is called
///   (docs/exports.md §7.3).
///
/// ```js
/// import { duration, play } from "./toast.js";
/// const toast = play(document.querySelector("#toasts"), { onEvent: (name, time) => console.log(name, time) });
/// await toast.finished;
/// ```
///
/// The elements draw with the custom properties: the opening comment
/// carries the same rules as the stylesheet's (``stylesheet(_:)``).
public func webModule(_ export: WebExport) -> String {
    var out = moduleHeader(export)
    out += exportConstant(export)
    out += moduleScript
    // The script that moves keyframes to the element's start, only where some keyframe follows it
    // (else module-absolute.js, keyframes as written).
    let follows = export.views.contains { $0.channels.contains { $0.animations.contains { $0.keyframes.contains { $0.relative != 0 } } } }
    out += follows ? WebFiles.moduleRelativeJS : WebFiles.moduleAbsoluteJS
    return out
}

/// `--to js --runtime PATH`: the module of ``webModule(_:)`` with its player
/// imported rather than written in, so that a page of many animations loads
/// the player once. It imports `animcModule` from PATH, written as given (a
/// URL the importing page resolves, as every `import`), and exports the
/// same `duration` and `play(root, options)`, which ``webRuntime`` makes of
/// the same JSON:
///
/// ```js
/// import { animcModule } from "./animc-runtime.js";
/// const EXPORT = { … };
/// export const { duration, play } = animcModule(EXPORT);
/// ```
public func webModule(_ export: WebExport, runtime path: String) -> String {
    var out = moduleHeader(export, usage: "//\n// Its player is the module it imports (`animc runtime` writes it), one copy for every module of a page;\n"
                                + "// its opening comment says how to play this one (`duration`, `play(root, options)`).\n//\n")
    out += "\nimport { animcModule } from " + jsonString(path) + ";\n"
    out += exportConstant(export)
    out += "export const { duration, play } = animcModule(EXPORT);\n"
    return out
}

/// `animc runtime`: the player of every `--to js --runtime PATH` module, an
/// ES module that exports `animcModule(EXPORT)`, which returns `{duration,
/// play}` for the JSON of one export (``waapiJSON(_:)``). Its body is the
/// script ``webModule(_:)`` writes after its JSON (module.js, its two
/// `export`s made local to the function, indented), so the two forms play
/// alike; and it always has the relative path (module-relative.js), which
/// plays a module whose keyframes have no `"relative"` as written.
public let webRuntime: String = {
    var out = "// animc runtime: the player that `animc export --to js --runtime PATH` modules import\n"
    out += "// (docs/exports.md §6, \"A module for scripts\"): one copy serves every module of a page. Write it with\n"
    out += "// the animc that writes the modules: their JSON (as `--to waapi` writes it) is what it reads. Play a module so:\n"
    out += moduleUsage
    out += "// A module holds `export const { duration, play } = animcModule(EXPORT);`, EXPORT its JSON.\n\n"
    out += "export function animcModule(EXPORT) {\n"
    for line in WebFiles.moduleJS.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        let local = line.hasPrefix("export ") ? line.dropFirst("export ".count) : line
        out += (local.isEmpty ? "" : "  ") + local + "\n"
    }
    out += "  return { duration, play };\n}\n"
    return out + WebFiles.moduleRelativeJS
}()

/// The module's data, in both forms: the `--to waapi` JSON, verbatim.
private func exportConstant(_ export: WebExport) -> String {
    "\nconst EXPORT = " + waapiJSON(export).dropLast() + ";\n\n"
}

/// The opening comment of both forms of the module.
/// `usage`: the lines that say how to play the module (the shared form
/// leaves them to the runtime's opening comment, written once).
private func moduleHeader(_ export: WebExport, usage: String = moduleUsage) -> String {
    var out = "// animc export --to js: `\(export.binding)`"
    if !export.source.isEmpty { out += " of \(export.source.replacingAll("\n", with: " "))" }
    if let endless = export.endless {
        out += ", which repeats forever (settled by \(formatNumber(endless.settled.seconds)) s, then every "
            + "\(formatNumber(endless.period.seconds)) s at the longest).\n"
    } else {
        out += export.isCancelled ? ", which is cancelled: nothing moves.\n" : ", \(formatNumber(export.duration.seconds)) s.\n"
    }
    out += usage
    let wiring = drawingRules(export)
    if !wiring.isEmpty {
        out += "// The elements draw with the custom properties as the player page draws them (the stylesheet's rules):\n//\n"
        out += wiring.map { "//   " + $0 + "\n" }.joined()
    }
    return out
}

/// How to play a module, in its opening comment (or, once for all the
/// modules that import it, in the runtime's).
private let moduleUsage = "//\n//   import { duration, play } from \"./this-module.js\";\n"
    + "//   const animation = play(document, { onEvent: (name, time) => console.log(name, time) });\n"
    + "//   animation.finished.then(() => …);  // also pause(), play(), seek(t), cancel(), currentTime (s)\n"
    + "//\n// Each `emit NAME` is dispatched on root as CustomEvent(\"animc:NAME\", {detail: {time}}) as playback passes it.\n//\n"

private let moduleScript = WebFiles.moduleJS
