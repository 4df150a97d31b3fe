#!/usr/bin/env python3
"""Web exports in a real page (exports.md section 6), checked in headless Chromium.

* Two exports share a page: each example's bindings exported with their own
  `--prefix` and `--selector`, both stylesheets on one page, both on one
  element where they animate one view; seeking every CSS animation to each
  row time of `animc eval`, each export's custom properties show its own
  table's values.
* The module of `--to js`, imported by a page: `play(root, {onEvent})` plays
  in real time (the one place the checks play rather than seek); the events
  it heard (names and times, in order, repeats included) and those
  dispatched on `root` as `animc:NAME` are `animc eval`'s events column
  (`--fps 1000`: each time in its row); `finished` is kept at the end of a
  finite one; then `seek(t)` at every row of the example's table shows its
  values and fires nothing; resumed from a seek with `play()`, it passes
  the next event once.
* The player page under a `--prefix` shows `animc eval`'s values.
* Relative at play time (exports.md section 7): the class-toggle recipe of README.md and docs/exports.md
  is the one the shared toast page runs (its exit, `--after show`, starts where its entrance ended); two
  modules of one file, `enter.play(root)` paused at its end or half-way at T, then `exit.play(root)` on
  the same elements: the exit's values at five instants are `animc eval`'s of `enter ; exit` and of
  `(enter played to T) ; exit`; `cancel()` of both returns the elements to their declared values.
* One runtime for many modules (exports.md section 6): modules of the toast's `show` and `hide` (relative `by` and `to`
  tweens), of button-press and of landing-events (events), exported with `--runtime ./animc-runtime.js` beside
  the file `animc runtime` writes, play exactly as their self-contained modules on twin elements: the same
  computed values at six instants and after `cancel()`, `hide` after `show` (ended and interrupted half-way) the
  same, the same events heard and dispatched playing in real time side by side, the same `duration`; the page
  fetches the runtime once.
* The stylesheet's header comment, pasted as written into a page with the
  stylesheet: at three instants the computed `transform`, `opacity` and
  `background-color` are what `animc eval`'s values make of them
  (translate, rotate, scale, per-axis scale).
* Where views stand (`at`, `origin`, `scale-x`/`scale-y`): on the player
  page of each placed example, at three instants, the matrix from a shape's
  own coordinates to the stage's and its body's computed `transform-origin`
  are what the home, the origin and `animc eval`'s values make of them; in
  the pasted wiring, each element's computed `left`, `top`, `transform` and
  `transform-origin`.

Prints one line per failure and `N passed, M failed`; exits 1 on any failure.
"""

import argparse
import functools
import http.server
import json
import math
import os
import re
import shlex
import sys
import tempfile
import threading

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from anim_programs import placements  # noqa: E402
from web_check import (Browser, Tab, Tally, compare_rows, eval_arguments, find_chromium, parse_color,  # noqa: E402
                       read_table, run_animc)

# (example, binding or None, prefix, selector template, --after NAME or None), the example left out when it is
# the page's. The toast's pair is the class-toggle recipe of docs/exports.md section 6, as written there
# (check_recipe_as_documented).
SHARED_PAGES = [
    ("toast", [("show", "toast-in", ".{view}.is-entering"), ("hide", "toast-out", ".{view}.is-leaving", "show")]),
    ("mixed", [("talk", None, "a", ".{view}.first", None), ("choreography", None, "b", "[data-second=\"{view}\"]", None)]),
]

# Examples the module plays: (example, how long to play in seconds, or None: to its end).
# Then it resumes from a seek just before an event and plays 0.3 s.
# A cancelled animation has nothing to play: `finished` is kept at once.
MODULE_PLAYS = [("spinner", 3.4, 1.4), ("landing-events", None, 0.8), ("cancelled", None, None)]

# A script with every drawn property, for the pasted wiring.
WIRING_SCRIPT = """view card x 0 y 0 rotation 0 scale 1 scale-x 1 scale-y 1 opacity 0 color #3a64d8
let final = animate card.x from 0 to 120 in 2s with ease-in-out
         || animate card.y from 0 to -40 in 2s
         || animate card.rotation from 0 to 90 in 2s with ease-out
         || animate card.scale from 1 to 1.5 in 2s
         || animate card.scale-x from 1 to 0.5 in 2s
         || animate card.scale-y from 1 to 2 in 2s
         || animate card.opacity from 0 to 1 in 1s
         || animate card.color from #3a64d8 to #f28e2b in 2s
"""
WIRING_TIMES = ["0.25", "1", "1.75"]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """A file server on 127.0.0.1 (module scripts need http, not file://)."""
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def export(animc, path, fmt, binding=None, prefix=None, selector=None, after=None):
    args = ["export", path, "--to", fmt]
    if binding:
        args += ["--binding", binding]
    if after:
        args += ["--after", after]
    if prefix:
        args += ["--prefix", prefix]
    if selector:
        args += ["--selector", selector]
    code, out, err = run_animc(animc, args, cwd=ROOT)
    if code != 0:
        raise RuntimeError(f"animc {' '.join(args)} failed: {err}")
    return out


def table(animc, path, binding=None, extra=None, after=None):
    args = ["eval", path, "--format", "csv"] + (extra if extra is not None else eval_arguments(os.path.join(ROOT, path)))
    if binding:
        args += ["--binding", binding]
    if after:
        args += ["--after", after]
    code, out, err = run_animc(animc, args, cwd=ROOT)
    if code != 0:
        raise RuntimeError(f"animc {' '.join(args)} failed: {err}")
    return read_table(out)


def markup(selector, view):
    """An element that the template matches for `view` (class and attribute templates)."""
    classes = re.findall(r"\.([\w{}-]+)", selector)
    attributes = re.findall(r"\[([\w-]+)=\"([^\"]*)\"\]", selector)
    return ([c.replace("{view}", view) for c in classes], [(a, v.replace("{view}", view)) for a, v in attributes])


# Seeking every animation on a page: the list is taken once, when the page loads (a script at the end of
# its body), as a page that scrubs would keep it. `document.getAnimations()` lists only the animations
# that are current or in effect, and an iteration layer (fill none, exports.md section 7) that has played
# is neither; asked again after a seek past its end, it would be missing and never seeked back.
CAPTURE_ANIMATIONS = "<script>window.animcAll = document.getAnimations(); for (const a of window.animcAll) a.pause();</script>"
# After a class toggle: the toggled element's new animations join, its cancelled ones leave.
REFRESH_ANIMATIONS = ("window.animcAll = window.animcAll.filter((a) => a.playState !== 'idle')"
                      ".concat(document.getAnimations().filter((a) => !window.animcAll.includes(a)));")
SEEK_ALL = "for (const a of window.animcAll) { a.pause(); a.currentTime = t * 1000; }"


# Read every channel of a waapi model from the page: custom properties on the element its selector finds.
READ_VALUES = """
(model) => {
  const out = {};
  for (const element of model.elements) {
    const el = document.querySelector(element.selector);
    for (const channel of element.channels) {
      const text = getComputedStyle(el).getPropertyValue(channel.variable).trim();
      out[channel.property] = channel.kind === "color" ? text : parseFloat(text);
    }
  }
  return out;
}
"""


def check_shared_page(name, exports, animc, tab, workdir, base, tally):
    """Both exports' stylesheets on one page, each on its own elements; each export's values at its own table's times.
    Where both animate one view, one more element toggles from the first export's selector to the second's."""
    styles, models, tables, body, afters = [], [], [], [], []
    selectors = []
    for item in exports:
        example, binding, prefix, selector, after = item if len(item) == 5 else (name,) + tuple(item) + (None,) * (4 - len(item))
        afters.append(after)
        path = f"examples/{example}.anim"
        styles.append(export(animc, path, "css", binding, prefix, selector, after))
        model = json.loads(export(animc, path, "waapi", binding, prefix, selector, after))
        models.append(model)
        selectors.append(selector)
        tables.append((f"{example}" + (f" --binding {binding}" if binding else "") + (f" --after {after}" if after else "")
                       + f" --prefix {prefix}", table(animc, path, binding, after=after)))
        for element in model["elements"]:
            classes, attributes = markup(selector, element["view"])
            body.append(f"<div class=\"{' '.join(classes)}\" " + " ".join(f"{a}=\"{v}\"" for a, v in attributes) + "></div>")
    views = [{e["view"] for e in m["elements"]} for m in models]
    common = sorted(views[0] & views[1])
    if common:
        body.insert(0, f"<div id=\"toggled\" class=\"{common[0]}\"></div>")
    page = f"<!doctype html><meta charset=utf-8><style>\n{''.join(styles)}</style>\n<body>\n" + "\n".join(body) + f"\n{CAPTURE_ANIMATIONS}</body>\n"
    with open(os.path.join(workdir, f"shared-{name}.html"), "w", encoding="utf-8") as handle:
        handle.write(page)
    tab.open(f"{base}/shared-{name}.html")
    for (label, expected), model in zip(tables, models):
        rows = tab.evaluate(f"""(() => {{
          const read = {READ_VALUES};
          const model = {json.dumps(model)};
          const rows = [];
          for (const t of {json.dumps(expected["times"])}) {{ {SEEK_ALL} rows.push(read(model)); }}
          return rows;
        }})()""")
        compare_rows(f"shared page {name}: {label}", "css", expected, rows, tally)
    if not common:
        return
    # One element, entering then leaving: swap its classes and the second export plays on it. With `--after`
    # (the recipe) the exit leaves from where the entrance ended: its first row is the entrance's last.
    view = common[0]
    read_rows = []
    for (label, expected), model, selector in zip(tables, models, selectors):
        classes, attributes = markup(selector, view)
        element = next(e for e in model["elements"] if e["view"] == view)
        rows = tab.evaluate(f"""(() => {{
          const el = document.getElementById("toggled");
          el.className = {json.dumps(" ".join(classes))};
          getComputedStyle(el).opacity;
          {REFRESH_ANIMATIONS}
          const rows = [];
          for (const t of {json.dumps(expected["times"])}) {{
            {SEEK_ALL}
            const row = {{}};
            for (const channel of {json.dumps(element["channels"])}) {{
              const text = getComputedStyle(el).getPropertyValue(channel.variable).trim();
              row[channel.property] = channel.kind === "color" ? text : parseFloat(text);
            }}
            rows.push(row);
          }}
          return rows;
        }})()""")
        only = dict(expected)
        keep = [i for i, c in enumerate(expected["columns"]) if c.startswith(view + ".") or c == "events"]
        only["columns"] = [expected["columns"][i] for i in keep]
        only["rows"] = [[row[i] for i in keep] for row in expected["rows"]]
        compare_rows(f"shared page {name}: toggled to {' '.join(classes)}: {label}", "css", only, rows, tally)
        read_rows.append(rows)
    if afters[1] is not None:
        ended, left = read_rows[0][-1], read_rows[1][0]
        tally.check(all(abs(float(ended[k]) - float(left[k])) <= 1e-6 for k in ended if k in left),
                    f"shared page {name}: the exit starts at {left}, where the entrance ended {ended}")


def recipe_commands(document):
    """The `animc export` commands of the class-toggle recipe in `document` (the code block after
    "toggled by a class"), as argument lists."""
    with open(os.path.join(ROOT, document), encoding="utf-8") as handle:
        text = handle.read()
    parts = text.split("toggled by a class", 1)
    block = parts[1].split("```", 2)[1] if len(parts) == 2 and parts[1].count("```") >= 2 else ""
    return [shlex.split(line)[1:] for line in block.splitlines() if line.startswith("animc export ")]


def check_recipe_as_documented(tally):
    """The shared toast page runs the recipe README.md and docs/exports.md show, word for word."""
    ran = []
    for binding, prefix, selector, *after in SHARED_PAGES[0][1]:
        args = ["export", "examples/toast.anim", "--binding", binding] + (["--after", after[0]] if after and after[0] else [])
        ran.append(args + ["--to", "css", "--prefix", prefix, "--selector", selector])
    for document in ("README.md", "docs/exports.md"):
        documented = recipe_commands(document)
        tally.check(documented == ran, f"{document}'s class-toggle recipe {documented} is not the one checked {ran}")


# Relative at play time (exports.md section 7): (example, enter, exit). The enter's module plays on a
# fresh element, is paused at its end or half-way, and the exit's module plays on the same element.
RELATIVE_PLAYS = [("toast", "show", "hide"), ("dial", "quarter", "final")]

RELATIVE_PAGE = """<!doctype html><meta charset=utf-8>
<style>%s</style>
<body><div id="root">%s</div>
<script type="module">
import * as enter from "./%s";
import * as exit from "./%s";
window.enter = enter;
window.exit = exit;
window.moduleReady = true;
</script>
</body>
"""

RELATIVE_RUN = """(async () => {
  while (!window.moduleReady) await new Promise((r) => setTimeout(r, 20));
  const root = document.getElementById("root");
  const read = %s;
  const model = %s;
  const out = [];
  for (const at of %s) {
    const entering = window.enter.play(root);
    entering.pause();
    entering.seek(at);
    const leaving = window.exit.play(root);
    leaving.pause();
    const rows = [];
    for (const t of %s) { leaving.seek(t); rows.push(read(model)); }
    leaving.cancel();
    entering.cancel();
    out.push({ rows, cancelled: read(model) });
  }
  return out;
})()"""


def only_columns(expected, columns):
    """The table with only `columns` (and its events)."""
    keep = [i for i, c in enumerate(expected["columns"]) if c in columns or c == "events"]
    out = dict(expected)
    out["columns"] = [expected["columns"][i] for i in keep]
    out["rows"] = [[row[i] for i in keep] for row in expected["rows"]]
    return out


def check_relative_module(example, enter, exit_, animc, tab, workdir, base, tally):
    """`enter.play(el)` then `exit.play(el)`, after the end and interrupted half-way at T: the exit leaves from
    the element's values, as `animc eval` of `enter ; exit` and `(enter played to T) ; exit` say at several
    instants; `cancel()` returns the element to its declared values."""
    path = f"examples/{example}.anim"
    files = []
    for binding in (enter, exit_):
        name = f"relative-{example}-{binding}.js"
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as handle:
            handle.write(export(animc, path, "js", binding))
        files.append(name)
    enter_model = json.loads(export(animc, path, "waapi", enter))
    model = json.loads(export(animc, path, "waapi", exit_))
    rules = wiring(export(animc, path, "css", exit_))
    views = "".join(f"<div data-view=\"{e['view']}\"></div>" for e in model["elements"])
    page = f"relative-{example}.html"
    with open(os.path.join(workdir, page), "w", encoding="utf-8") as handle:
        handle.write(RELATIVE_PAGE % (rules, views, files[0], files[1]))
    end, length = float(enter_model["duration"]), float(model["duration"])
    half = end / 2
    # Five instants of the exit, its ends included; the script names both ways it follows the enter.
    times = [round(length * k / 4, 9) for k in range(5)]
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        source = handle.read()
    script = os.path.join(workdir, f"relative-{example}.anim")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(source + f"\nlet animc-ended = {enter} ; {exit_}\nlet animc-cut = ({enter} played to {half!r}s) ; {exit_}\n"
                     + "let animc-declared = wait 1s\n")
    columns = {c["property"] for e in model["elements"] for c in e["channels"]}
    # The declared values: eval lists every declared property, and a wait changes none of them.
    declared = only_columns(table(animc, script, "animc-declared", extra=["--at", "0"]), columns)
    tab.open(f"{base}/{page}")
    results = tab.evaluate(RELATIVE_RUN % (READ_VALUES, json.dumps(model), json.dumps([end, half]), json.dumps(times)))
    for (label, binding, at), result in zip([("after the end", "animc-ended", end), (f"interrupted at {half!r} s", "animc-cut", half)],
                                            results):
        expected = only_columns(table(animc, script, binding, extra=["--at", ",".join(f"{at + t:.9g}" for t in times)]), columns)
        expected["spread_from"] = only_columns(table(animc, script, binding, extra=["--fps", "20"]), columns)
        compare_rows(f"module {example}: {enter}.play then {exit_}.play, {label}", "js", expected, result["rows"], tally)
        declared["spread_from"] = expected["spread_from"]
        compare_rows(f"module {example} {label}: cancel() returns to the declared values", "js", declared, [result["cancelled"]], tally)


MODULE_PAGE = """<!doctype html><meta charset=utf-8>
<style>%s</style>
<body><div id="root">%s</div>
<script type="module">
import * as animation from "./%s";
window.module = animation;
window.moduleReady = true;
</script>
</body>
"""

MODULE_RUN = """(async () => {
  while (!window.moduleReady) await new Promise((r) => setTimeout(r, 20));
  const m = window.module, root = document.getElementById("root");
  const heard = [], dispatched = [];
  for (const name of %s) root.addEventListener("animc:" + name, (e) => dispatched.push([name, e.detail.time]));
  const read = %s;
  const model = %s;
  const c = m.play(root, { onEvent: (name, time) => heard.push([name, time]) });
  const playFor = %s;
  let finished = null;
  if (playFor === null) {
    finished = await Promise.race([c.finished.then((x) => x === c), new Promise((r) => setTimeout(() => r("timeout"), 30000))]);
  } else {
    await new Promise((r) => setTimeout(r, playFor * 1000));
  }
  c.pause();
  const stoppedAt = c.currentTime;
  const before = heard.length, dispatchedBefore = dispatched.length;
  const rows = [];
  for (const t of %s) { c.seek(t); rows.push(read(model)); }
  const afterSeeks = [heard.length - before, dispatched.length - dispatchedBefore];
  // Resume from a seek: playback passes what follows it, and only that.
  c.seek(%s);
  const mark = heard.length;
  c.play();
  await new Promise((r) => setTimeout(r, 300));
  c.pause();
  const resumed = { from: %s, to: c.currentTime, heard: heard.slice(mark) };
  c.cancel();
  let rejected = false;
  try { await c.finished; } catch (e) { rejected = e.name === "AbortError"; }
  return { heard: heard.slice(0, before), dispatched: dispatched.slice(0, dispatchedBefore), stoppedAt, rows, afterSeeks, resumed,
           finished, duration: String(m.duration),
           rejected: playFor === null ? true : rejected };
})()"""


# One runtime, many modules: (module name, example, binding or None).
SHARED_MODULES = [("toast-show", "toast", "show"), ("toast-hide", "toast", "hide"),
                  ("button-press", "button-press", None), ("landing-events", "landing-events", None)]
# Played side by side in real time, their events compared.
SHARED_EVENTS = ["button-press", "landing-events"]

SHARED_PAGE = """<!doctype html><meta charset=utf-8>
<style>%s</style>
<body>
<script type="module">
%s
window.modules = { %s };
window.moduleReady = true;
</script>
</body>
"""

SHARED_RUN = """(async () => {
  while (!window.moduleReady) await new Promise((r) => setTimeout(r, 20));
  const M = window.modules, models = %s, seeks = %s, relative = %s, playing = %s;
  const forms = ["whole", "shared"];
  // A fresh root per play, holding an element per view: twin elements for the two forms.
  const fresh = (model) => {
    const root = document.createElement("div");
    for (const e of model.elements) { const el = document.createElement("div"); el.dataset.view = e.view; root.append(el); }
    document.body.append(root);
    return root;
  };
  const read = (root, model) => {
    const out = {};
    for (const e of model.elements) {
      const el = root.querySelector(e.selector);
      for (const c of e.channels) out[c.property] = el ? getComputedStyle(el).getPropertyValue(c.variable).trim() : null;
    }
    return out;
  };
  const out = { seeks: {}, relative: {}, events: {} };
  for (const [name, times] of Object.entries(seeks)) {
    out.seeks[name] = {};
    for (const form of forms) {
      const root = fresh(models[name]), c = M[name][form].play(root);
      c.pause();
      const rows = [];
      for (const t of times) { c.seek(t); rows.push(read(root, models[name])); }
      c.cancel();
      rows.push(read(root, models[name]));
      out.seeks[name][form] = { duration: String(M[name][form].duration), rows };
    }
  }
  // The exit on the entrance's elements, the entrance paused at each instant of `ats`.
  const [enter, exit, ats, times] = relative;
  for (const form of forms) {
    out.relative[form] = [];
    for (const at of ats) {
      const root = fresh(models[exit]);
      const entering = M[enter][form].play(root);
      entering.pause();
      entering.seek(at);
      const leaving = M[exit][form].play(root);
      leaving.pause();
      const rows = [];
      for (const t of times) { leaving.seek(t); rows.push(read(root, models[exit])); }
      leaving.cancel();
      entering.cancel();
      rows.push(read(root, models[exit]));
      out.relative[form].push(rows);
    }
  }
  // Both forms at once, in real time, to their ends.
  for (const name of playing) {
    const runs = forms.map((form) => {
      const root = fresh(models[name]), heard = [], dispatched = [];
      for (const n of new Set(models[name].events.map((e) => e.name))) root.addEventListener("animc:" + n, (ev) => dispatched.push([n, ev.detail.time]));
      const c = M[name][form].play(root, { onEvent: (n, t) => heard.push([n, t]) });
      return { c, heard, dispatched };
    });
    const kept = await Promise.race([Promise.all(runs.map((r) => r.c.finished.then((x) => x === r.c))),
                                     new Promise((r) => setTimeout(() => r("timeout"), 30000))]);
    out.events[name] = { kept, whole: [runs[0].heard, runs[0].dispatched], shared: [runs[1].heard, runs[1].dispatched] };
  }
  out.runtimeFetches = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/animc-runtime.js")).length;
  return out;
})()"""


def first_difference(a, b):
    """Where two lists of rows first differ, for the message."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"row {i}: {x} != {y}"
    return f"{len(a)} rows != {len(b)} rows"


def check_shared_runtime(animc, tab, workdir, base, tally):
    """Modules exported with `--runtime ./animc-runtime.js` beside the file `animc runtime` writes play exactly as
    the self-contained modules of the same bindings (the same script on the same JSON: equal, not merely close)."""
    directory = os.path.join(workdir, "shared-runtime")
    os.makedirs(directory, exist_ok=True)
    code, _, err = run_animc(animc, ["runtime", "-o", os.path.join(directory, "animc-runtime.js")], cwd=ROOT)
    tally.check(code == 0, f"animc runtime failed: {err}")
    models, seeks, rules, imports, entries = {}, {}, [], [], []
    for index, (name, example, binding) in enumerate(SHARED_MODULES):
        path = f"examples/{example}.anim"
        whole = export(animc, path, "js", binding)
        args = ["export", path, "--to", "js", "--runtime", "./animc-runtime.js"] + (["--binding", binding] if binding else [])
        code, shared, err = run_animc(animc, args, cwd=ROOT)
        tally.check(code == 0 and "\nimport { animcModule } from \"./animc-runtime.js\";\n" in shared and "function play(" not in shared
                    and len(shared) < len(whole), f"shared module {name}: {err or shared[:200]}")
        for form, text in (("whole", whole), ("shared", shared)):
            with open(os.path.join(directory, f"{name}-{form}.js"), "w", encoding="utf-8") as handle:
                handle.write(text)
            imports.append(f"import * as m{index}{form} from \"./{name}-{form}.js\";")
        entries.append(f"{json.dumps(name)}: {{ whole: m{index}whole, shared: m{index}shared }}")
        model = json.loads(export(animc, path, "waapi", binding))
        models[name] = model
        end = float(model["duration"])
        seeks[name] = [round(end * k, 9) for k in (0, 0.13, 0.37, 0.5, 0.81, 1)]
        rules.append(wiring(export(animc, path, "css", binding)))
    end = float(models["toast-show"]["duration"])
    length = float(models["toast-hide"]["duration"])
    relative = ["toast-show", "toast-hide", [end, end / 2], [round(length * k / 4, 9) for k in range(5)]]
    with open(os.path.join(directory, "page.html"), "w", encoding="utf-8") as handle:
        handle.write(SHARED_PAGE % ("".join(rules), "\n".join(imports), ", ".join(entries)))
    tab.open(f"{base}/shared-runtime/page.html")
    result = tab.evaluate(SHARED_RUN % (json.dumps(models), json.dumps(seeks), json.dumps(relative), json.dumps(SHARED_EVENTS)))
    for name, forms in result["seeks"].items():
        whole, shared = forms["whole"], forms["shared"]
        label = f"shared runtime {name}"
        tally.check(whole["duration"] == shared["duration"], f"{label}: duration {shared['duration']} != {whole['duration']}")
        tally.check(whole["rows"] == shared["rows"], f"{label}: seeks (then cancel()) {first_difference(whole['rows'], shared['rows'])}")
        # Not equal for want of values: every value read, and the rows move.
        values = [v for row in whole["rows"] for v in row.values()]
        tally.check(values and all(isinstance(v, str) and v for v in values) and len({json.dumps(r) for r in whole["rows"]}) > 2,
                    f"{label}: the self-contained module showed {whole['rows']}")
    for at, whole, shared in zip(relative[2], result["relative"]["whole"], result["relative"]["shared"]):
        tally.check(whole == shared, f"shared runtime toast-hide after toast-show paused at {at}: {first_difference(whole, shared)}")
    # The exit leaves from where the entrance left the element: not from the declared y 40 when interrupted half-way.
    starts = [rows[0].get("toast.y") for rows in result["relative"]["shared"]]
    tally.check(len(starts) == 2 and starts[0] != starts[1], f"shared runtime toast-hide: it starts at {starts} however far show played")
    for name, run in result["events"].items():
        label = f"shared runtime {name} played in real time"
        tally.check(run["kept"] == [True, True], f"{label}: finished {run['kept']}")
        tally.check(run["whole"] == run["shared"], f"{label}: heard and dispatched {run['shared']}, the self-contained module {run['whole']}")
        # Every event of the JSON, once; heard as dispatched.
        want = sorted([e["name"], e["time"]] for e in models[name]["events"])
        tally.check(run["whole"][0] == run["whole"][1] and sorted(run["whole"][0]) == want and want,
                    f"{label}: events {run['whole']}, the JSON's {want}")
    tally.check(result["runtimeFetches"] == 1, f"shared runtime: the page fetched animc-runtime.js {result['runtimeFetches']} times")


def event_rows(expected):
    """[(name, row time text)] of a table's events column, in order (names within a row sorted)."""
    index = expected["columns"].index("events") if "events" in expected.get("columns", []) else None
    out = []
    if index is None:
        return out
    for t_text, row in zip(expected["time_text"], expected["rows"]):
        for word in sorted(row[index].split()):
            name, _, count = word.partition("\u00d7")
            out.extend([(name, float(t_text))] * (int(count) if count else 1))
    return out


def check_module(example, play_for, resume_from, animc, tab, workdir, base, tally):
    path = f"examples/{example}.anim"
    module = export(animc, path, "js")
    with open(os.path.join(workdir, f"{example}.js"), "w", encoding="utf-8") as handle:
        handle.write(module)
    model = json.loads(export(animc, path, "waapi"))
    css = export(animc, path, "css")
    # The page draws with the stylesheet's rules only (its own animations are not loaded: the module plays).
    rules = wiring(css)
    views = "".join(f"<div data-view=\"{e['view']}\"></div>" for e in model["elements"])
    with open(os.path.join(workdir, f"module-{example}.html"), "w", encoding="utf-8") as handle:
        handle.write(MODULE_PAGE % (rules, views, f"{example}.js"))
    rows_table = table(animc, path)
    names = sorted({e["name"] for e in model["events"]} | {e["name"] for e in (model.get("repeatingEvents") or {}).get("events", [])})
    tab.open(f"{base}/module-{example}.html")
    result = tab.evaluate(MODULE_RUN % (json.dumps(names), READ_VALUES, json.dumps(model),
                                        "null" if play_for is None else json.dumps(play_for), json.dumps(rows_table.get("times", [])),
                                        json.dumps(resume_from), json.dumps(resume_from)))
    label = f"module {example}"
    duration = model["duration"]
    tally.check(result["duration"] == ("Infinity" if duration == "Infinity" else str(json.loads(json.dumps(duration)))) or
                float(result["duration"]) == float(duration), f"{label}: duration {result['duration']} != {duration}")
    if play_for is None:
        tally.check(result["finished"] is True, f"{label}: finished was not kept with the controller ({result['finished']})")
    stopped = result["stoppedAt"]
    tally.check(play_for is None or stopped >= play_for * 0.9, f"{label}: played only to {stopped}")
    # eval's events at 1 ms rows up to where playback stopped.
    until = f"{math.floor(stopped * 1000) / 1000:.3f}"
    fine = table(animc, path, extra=["--until", until, "--fps", "1000"])
    expected = event_rows(fine)
    for what, got in (("onEvent", result["heard"]), ("animc:NAME", result["dispatched"])):
        placed = [(name, math.ceil(round(t * 1000, 6)) / 1000) for name, t in got]
        tally.check(placed == expected, f"{label} [{what}]: heard {got}, eval says {expected}")
        tally.check(all(a[1] <= b[1] for a, b in zip(got, got[1:])), f"{label} [{what}]: out of order {got}")
    resumed = result["resumed"]
    want = [(name, t) for name, t in expected if resumed["from"] < t <= resumed["to"]]
    got = [(name, math.ceil(round(t * 1000, 6)) / 1000) for name, t in resumed["heard"]]
    tally.check(resume_from is None or (resumed["to"] > resumed["from"] and got == want and want),
                f"{label}: resumed from {resumed['from']} to {resumed['to']}: heard {resumed['heard']}, eval says {want}")
    repeats = len(expected) - len({name for name, _ in expected})
    if example == "spinner":
        tally.check(repeats >= 2, f"{label}: expected repeats of an endless event, heard {expected}")
    if not rows_table["cancelled"]:
        compare_rows(label, "seek", rows_table, result["rows"], tally)
    tally.check(result["afterSeeks"] == [0, 0], f"{label}: seeking fired {result['afterSeeks']} events")
    tally.check(result["rejected"] is True, f"{label}: cancel() did not reject finished with AbortError")


def wiring(css):
    """The rules of the stylesheet's header comment, as written (its `*   ` margin removed)."""
    header = css.split("*/", 1)[0]
    lines = header.splitlines()
    start = next((i for i, line in enumerate(lines) if "paste as it is" in line), None)
    if start is None:
        return ""  # nothing drawn (a cancelled animation has no views)
    rules = [line[len(" *   "):] for line in lines[start + 1:] if line.startswith(" *   ")]
    return "\n".join(rules) + "\n"


def expected_style(values, view):
    get = lambda name, default: values.get(f"{view}.{name}", default)
    x, y = float(get("x", 0)), float(get("y", 0))
    angle = math.radians(float(get("rotation", 0)))
    s = float(get("scale", 1))
    sx, sy = s * float(get("scale-x", 1)), s * float(get("scale-y", 1))
    matrix = [math.cos(angle) * sx, math.sin(angle) * sx, -math.sin(angle) * sy, math.cos(angle) * sy, x, y]
    opacity = min(1.0, max(0.0, float(get("opacity", 1))))
    return matrix, opacity, get("color", None)


def check_wiring(animc, tab, workdir, base, tally):
    """The pasted drawing rules compose the element's custom properties as the player draws them.
    Two checks per view and instant: the custom properties agree with `animc eval` within the export's
    stated bound (exports.md: a curve the format lacks is approximated within 1e-4 of the interval's
    range, and numbers agree within 1e-3 of the property's range), and the computed transform, opacity
    and colour are the ones the browser's own custom properties make, composed as the player composes
    them (tight: this is the wiring, not the curves)."""
    script = os.path.join(workdir, "wiring.anim")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(WIRING_SCRIPT)
    cases = [(script, "wiring.anim"), (os.path.join(ROOT, "examples/choreography.anim"), "choreography")]
    for path, label in cases:
        css = export(animc, path, "css")
        rules = wiring(css)
        model = json.loads(export(animc, path, "waapi"))
        views = "".join(f"<div data-view=\"{e['view']}\"></div>" for e in model["elements"])
        name = f"wiring-{os.path.basename(path)}.html"
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as handle:
            handle.write(f"<!doctype html><meta charset=utf-8><style>\n{css}\n{rules}</style><body>{views}{CAPTURE_ANIMATIONS}</body>\n")
        times = WIRING_TIMES
        expected = table(animc, path, extra=["--at", ",".join(times)])
        expected["spread_from"] = table(animc, path)
        tab.open(f"{base}/{name}")
        got = tab.evaluate(f"""(() => {{
          const read = {READ_VALUES};
          const model = {json.dumps(model)};
          const out = [];
          for (const t of {json.dumps([float(t) for t in times])}) {{
            {SEEK_ALL}
            const row = {{}};
            for (const el of document.querySelectorAll("[data-view]")) {{
              const style = getComputedStyle(el);
              row[el.dataset.view] = [style.transform, style.opacity, style.backgroundColor];
            }}
            out.push({{ drawn: row, values: read(model) }});
          }}
          return out;
        }})()""")
        compare_rows(f"wiring {label}: custom properties", "css", expected, [g["values"] for g in got], tally)
        for t_text, seen in zip(expected["time_text"], got):
            values = {k: str(v) for k, v in seen["values"].items()}
            for view, (transform, opacity, background) in seen["drawn"].items():
                matrix, want_opacity, color = expected_style(values, view)
                numbers = [float(v) for v in re.findall(r"[-\d.e+]+", transform)] if transform != "none" else [1, 0, 0, 1, 0, 0]
                ok = len(numbers) == 6 and all(abs(a - b) <= 1e-4 * max(1, abs(b)) + 1e-6 for a, b in zip(numbers, matrix))
                tally.check(ok, f"wiring {label} t={t_text} {view}: transform {transform} != matrix{tuple(round(m, 6) for m in matrix)}")
                tally.check(abs(float(opacity) - want_opacity) <= 1e-5 + 1e-6,
                            f"wiring {label} t={t_text} {view}: opacity {opacity} != {want_opacity}")
                if color is not None:
                    a, b = parse_color(background), parse_color(color)
                    tally.check(a is not None and b is not None and all(abs(p - q) <= 1 + 1e-6 for p, q in zip(a, b)),
                                f"wiring {label} t={t_text} {view}: background-color {background} != {color}")


# Placed examples (and a script with fractions, rotation and scale), each at three instants.
PLACED = [("examples/progress-bar.anim", ["0.5", "1", "1.5"]), ("examples/card-flip.anim", ["0.15", "0.3", "0.45"]),
          ("examples/confetti.anim", ["0", "0.3", "0.7"]), (None, ["0.25", "1", "1.75"])]
PLACED_SCRIPT = """view dial at (90, 70) origin (0.25, 1) width 80 height 40 color #4e79a7
view pin at (200, 70) origin bottom-right size 30 scale 1 color #e15759
let final = animate dial.rotation from 0 to 120 in 2s with ease-in-out
         || animate dial.scale-y from 1 to 1.5 in 2s
         || animate pin.scale from 1 to 2 in 2s || animate pin.scale-x from 1 to 0.5 in 2s || rotate pin from 0 to -45 in 2s
"""
def placed_matrix(values, view, box, origin, translate):
    """The matrix from a shape's own coordinates (centred) to where it is drawn: the translation `translate`
    plus the origin's offset, then rotation and per-axis scale about the origin."""
    get = lambda name, default: float(values.get(f"{view}.{name}", default))
    angle = math.radians(get("rotation", 0))
    s = get("scale", 1)
    sx, sy = s * get("scale-x", 1), s * get("scale-y", 1)
    a, b, c, d = math.cos(angle) * sx, math.sin(angle) * sx, -math.sin(angle) * sy, math.cos(angle) * sy
    ox, oy = (origin[0] - 0.5) * box[0], (origin[1] - 0.5) * box[1]
    e = translate[0] + ox - (a * ox + c * oy)
    f = translate[1] + oy - (b * ox + d * oy)
    return [a, b, c, d, e, f]


def box_of(values, view):
    get = lambda name: values.get(f"{view}.{name}")
    if get("radius") is not None:
        return (2 * float(get("radius")),) * 2
    side = float(get("size") or 60)
    return (float(get("width") or side), float(get("height") or side))


def close(got, want, scale=1.0):
    return len(got) == len(want) and all(abs(a - b) <= 1e-3 * max(scale, abs(b)) + 1e-6 for a, b in zip(got, want))


def check_placement(animc, tab, workdir, base, tally):
    script = os.path.join(workdir, "placed.anim")
    with open(script, "w", encoding="utf-8") as handle:
        handle.write(PLACED_SCRIPT)
    for path, times in PLACED:
        path = path or script
        label = os.path.basename(path)
        with open(path if os.path.isabs(path) else os.path.join(ROOT, path), encoding="utf-8") as handle:
            placed = placements(handle.read())
        expected = table(animc, path, extra=["--at", ",".join(times)])
        # The player page: the shape's matrix into the stage, and the body's transform-origin (px into the shape's box).
        name = f"placed-{label}.html"
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as handle:
            handle.write(export(animc, path, "html"))
        tab.open(f"{base}/{name}")
        seen = tab.evaluate(f"""(() => {json.dumps([float(t) for t in times])}.map((t) => {{
          animc.seek(t);
          const stage = document.getElementById("stage"), row = {{}};
          for (const el of stage.querySelectorAll("[data-view]")) {{
            const shape = el.querySelector(".shape");
            const m = stage.getScreenCTM().inverse().multiply(shape.getScreenCTM());
            row[el.dataset.view] = [[m.a, m.b, m.c, m.d, m.e, m.f], getComputedStyle(el.querySelector(".body")).transformOrigin];
          }}
          return row;
        }}))()""")
        for t_text, row, got in zip(expected["time_text"], expected["rows"], seen):
            values = dict(zip(expected["columns"], row))
            for view, (home, origin) in placed.items():
                if home is None:
                    continue
                box = box_of(values, view)
                get = lambda name: float(values.get(f"{view}.{name}", 0))
                want = placed_matrix(values, view, box, origin, (home[0] + get("x"), home[1] + get("y")))
                matrix, transform_origin = got.get(view, [[], ""])
                tally.check(close(matrix, want, 100), f"placed {label} t={t_text} {view}: page matrix {matrix} != {want}")
                if origin != (0.5, 0.5):
                    px = [float(v) for v in re.findall(r"[-\d.e+]+", transform_origin)]
                    tally.check(close(px, [origin[0] * box[0], origin[1] * box[1]]),
                                f"placed {label} t={t_text} {view}: page transform-origin {transform_origin}")
        # The pasted wiring: the element's centre at its home, turned about its origin.
        css = export(animc, path, "css")
        views = "".join(f"<div data-view=\"{view}\"></div>" for view in placed)
        name = f"placed-wiring-{label}.html"
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as handle:
            handle.write(f"<!doctype html><meta charset=utf-8><style>\n{css}\n{wiring(css)}body {{ margin: 0; position: relative; }}</style>"
                         f"<body>{views}{CAPTURE_ANIMATIONS}</body>\n")
        tab.open(f"{base}/{name}")
        seen = tab.evaluate(f"""(() => {json.dumps([float(t) for t in times])}.map((t) => {{
          {SEEK_ALL}
          const row = {{}};
          for (const el of document.querySelectorAll("[data-view]")) {{
            const s = getComputedStyle(el);
            row[el.dataset.view] = [s.left, s.top, s.transform, s.transformOrigin];
          }}
          return row;
        }}))()""")
        for t_text, row, got in zip(expected["time_text"], expected["rows"], seen):
            values = dict(zip(expected["columns"], row))
            for view, (home, origin) in placed.items():
                if home is None:
                    continue
                box = box_of(values, view)
                left, top, transform, transform_origin = got.get(view, ["", "", "none", ""])
                tally.check(left == f"{home[0]:g}px" and top == f"{home[1]:g}px",
                            f"placed wiring {label} t={t_text} {view}: left/top {left} {top} != {home}")
                get = lambda name: float(values.get(f"{view}.{name}", 0))
                # translate(-50%, -50%) then x, y; rotation and scale about the origin (transform-origin, in the box).
                want = placed_matrix(values, view, box, (0.5, 0.5), (get("x") - box[0] / 2, get("y") - box[1] / 2))
                numbers = [float(v) for v in re.findall(r"[-\d.e+]+", transform)] if transform != "none" else [1, 0, 0, 1, 0, 0]
                tally.check(close(numbers, want, 100), f"placed wiring {label} t={t_text} {view}: transform {transform} != {want}")
                px = [float(v) for v in re.findall(r"[-\d.e+]+", transform_origin)]
                tally.check(close(px, [origin[0] * box[0], origin[1] * box[1]]),
                            f"placed wiring {label} t={t_text} {view}: transform-origin {transform_origin}")


def check_prefixed_player(animc, tab, workdir, base, tally):
    """The player page under a prefix shows what `animc eval` says, through `window.animc`;
    the default prefix is `animc` (every web format is the `--prefix animc` one, byte for byte)."""
    for example in ("talk", "spinner"):
        path = f"examples/{example}.anim"
        for fmt in ("html", "css", "waapi", "js"):
            plain = export(animc, path, fmt)
            tally.check(plain == export(animc, path, fmt, prefix="animc") and "--animc-" in plain,
                        f"{example} --to {fmt}: the default is --prefix animc, byte for byte")
        name = f"player-{example}.html"
        page = export(animc, path, "html", prefix="pp")
        tally.check("@property --pp-" in page, f"player {example} --prefix pp: the page registers --pp-… properties")
        with open(os.path.join(workdir, name), "w", encoding="utf-8") as handle:
            handle.write(page)
        expected = table(animc, path)
        tab.open(f"{base}/{name}")
        rows = tab.evaluate(f"(() => {json.dumps(expected['times'])}.map((t) => {{ animc.seek(t); return animc.values(); }}))()")
        compare_rows(f"player {example} --prefix pp", "html", expected, rows, tally)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build", "debug", "animc"))
    parser.add_argument("--keep", help="keep the pages in this directory")
    arguments = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("no Chromium found (checks/install_chromium.sh installs it)")
        return 1
    animc = os.path.abspath(arguments.animc)
    workdir = arguments.keep or tempfile.mkdtemp(prefix="animc-web-options-")
    os.makedirs(workdir, exist_ok=True)
    server = serve(workdir)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    tally = Tally()
    browser = Browser(chromium)
    try:
        tab = Tab(browser)
        for name, exports in SHARED_PAGES:
            check_shared_page(name, exports, animc, tab, workdir, base, tally)
        check_recipe_as_documented(tally)
        for example, enter, exit_ in RELATIVE_PLAYS:
            check_relative_module(example, enter, exit_, animc, tab, workdir, base, tally)
        for example, play_for, resume_from in MODULE_PLAYS:
            check_module(example, play_for, resume_from, animc, tab, workdir, base, tally)
        check_shared_runtime(animc, tab, workdir, base, tally)
        check_wiring(animc, tab, workdir, base, tally)
        check_placement(animc, tab, workdir, base, tally)
        check_prefixed_player(animc, tab, workdir, base, tally)
    finally:
        browser.close()
        server.shutdown()
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 0 if tally.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
