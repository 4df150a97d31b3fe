#!/usr/bin/env python3
"""The Lottie players agree with `animc eval`.

For every example in examples/, for generated programs (checks/anim_programs.py)
and for the colour-and-event fixtures the test suite writes (the language has
no colour literals or `emit` yet, so those scenes are built with the library),
this script exports Lottie with `animc export --to lottie`, checks the file's
structure (the Lottie schema's required fields), then plays it:

1. lottie-web 5.7.4 (`lottie-player.js` from the wagtail-lottie wheel) in
   headless Chromium: `lottie.loadAnimation({renderer: 'svg', autoplay: false,
   animationData})`, `goToAndStop(frame, true)`, and each layer's transform
   properties (`finalTransform.mProp`: px, py, r, s, o) and its fill and shape;
2. ThorVG (thorvg-python): `set_frame(frame)`, then each layer's paint (found
   by its name's id) for its matrix and opacity, and its shape for the fill
   colour and the path's size;

at every frame k of the file and at the fractional frames k + 0.2 and
k + 0.5, and compares with `animc eval --at` at t = frame / fps:

* numbers within 1e-3 of the property's range over the animation, + 1e-6
  (+ float32 rounding where a player keeps single precision: lottie-web's
  scale and shape sizes, ThorVG's matrices; + 1e-5 of the property's units
  in lottie-web, which keeps a value until it changes by more than that);
* opacity within 2/255 in ThorVG (it reports a byte), as a number in lottie-web;
* colours within 1/255 per channel (ThorVG: its bytes, so within 1 + 1/2);
* positions relative to each view's home; the homes of views without `at`
  lie on whole pixels in one row (or one column, when the views travel
  sideways: the player page's layout), in first-mention order, inside a
  stage that holds every position reached.

ThorVG does not update the transform of a layer whose opacity is 0, nor the
colour of a fill whose opacity is 0 (nothing is drawn), so those are compared
only where they are visible; and it reports opacity 0 for a layer scaled to
nothing along an axis (`scale-x` 0), whose opacity is then not compared.
Views with `at` (exports.md section 6) stand at their home (the layer's
position less its anchor `a`, the origin's offset from the shape's centre in
its box at that frame), all shifted alike and only to keep them on the stage;
the matrix turns and scales (per axis) about the anchor.
An animation that repeats forever exports one round (op = L·fps frames) for
players to loop: it is checked at every frame of the round and between them
(k + 0.2 and k + 0.5 up to op), at frames one, two and seven rounds on played
as their frame modulo op (against `animc eval` at the later time), and by
lottie-web's own looping: `loop: true`, `play()`, `advanceTime(ms)` past op,
which must land on that frame and show what `animc eval` says then. Its
markers must be the events `animc eval` lists in the rows of the round.

Prints `N passed, M failed, K skipped` (one per program) and exits non-zero
on any failure. Never plays in real time: every frame is sought.
"""

import argparse
import ctypes
import glob
import html
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from anim_programs import long_programs, placements, programs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
F32 = 2.0 ** -23
STEP = 1e-5   # lottie-web's update threshold, in a property's own units


# ---------------------------------------------------------------- cases

class Case:
    def __init__(self, name, source, doc, fps, expected, times, markers=None, program=None):
        self.name = name
        self.source = source          # path of the .anim (None for fixtures)
        self.doc = doc
        self.fps = fps
        self.expected = expected      # list of {column: value}, one per time
        self.times = times            # list of frames (float), sorted
        self.markers = markers        # expected [(name, frame)] or None
        self.program = program        # generated text, for first-mention order
        self.loop_times = []          # a looping file: [(milliseconds past op, expected row)] for lottie-web to play
        self.failures = []
        self.comparisons = 0
        self.neighbours = []          # the rows 1e-9 s before and after each time (see export_case)

    def agrees_somewhere(self, index, compare):
        """Runs `compare(row)` on the row at time `index`, then, if it failed, on that time's
        neighbours 1e-9 s away; keeps the first row's failures only when every row fails."""
        kept = self.failures
        rows = [self.expected[index]] + [rows[index] for rows in self.neighbours]
        first = None
        for row in rows:
            self.failures = []
            compare(row)
            if not self.failures:
                self.failures = kept
                return
            if first is None:
                first = self.failures
        self.failures = kept + first

    def fail(self, message):
        self.failures.append(message)


def check_times(op, loops=False):
    """Frames k = 0 … op − 1, and k + 0.2, k + 0.5 below the last one (below op when the file loops: the round
    goes on to op, the next round's frame 0), as exact fractions of a frame. A long file (a body repeated
    many times) is checked at its first and last 300 frames and 300 spread between them."""
    frames = set()
    chosen = range(op)
    if op > 900:
        chosen = sorted(set(range(300)) | set(range(op - 300, op)) | {300 + (op - 600) * i // 300 for i in range(300)})
    for k in chosen:
        frames.add(Fraction(k))
        if k + 1 < op or loops:
            frames.add(Fraction(5 * k + 1, 5))
            frames.add(Fraction(2 * k + 1, 2))
    return sorted(frames)


def later_rounds(op):
    """Frames past a looping file's op: (frame played, frame of the animation), one, two and seven rounds on."""
    pairs = []
    for rounds in (1, 2, 7):
        for k in (Fraction(0), Fraction(1, 2), Fraction(op, 3), Fraction(2 * op - 1, 2)):
            pairs.append((k, rounds * op + k))
    return pairs


def parse_value(text):
    text = text.strip()
    match = re.fullmatch(r"rgb\(([^ ]+) ([^ ]+) ([^ /)]+)(?: / ([^)]+))?\)", text)
    if match:
        r, g, b = (float(match.group(i)) for i in (1, 2, 3))
        a = float(match.group(4)) if match.group(4) else 1.0
        return ("color", r, g, b, a)
    return float(text)


def parse_csv(text):
    """Rows of `animc eval --format csv`; the `events` cell stays text."""
    lines = [line for line in text.splitlines() if line]
    header = lines[0].split(",")
    rows = []
    for line in lines[1:]:
        cells = line.split(",")
        rows.append({name: (cell if name == "events" else parse_value(cell)) for name, cell in zip(header[1:], cells[1:])})
    return rows


def expand_events(cell):
    """`tick×3 land` as sorted names, one per firing."""
    names = []
    for word in (cell or "").split():
        name, _, count = word.partition("\u00d7")
        names.extend([name] * (int(count) if count else 1))
    return sorted(names)


def check_markers(case, frames, rows):
    """Markers are the events `animc eval` lists: those in each row's (previous, this] frames."""
    markers = [(m.get("cm"), m.get("tm")) for m in case.doc.get("markers", [])]
    previous = None
    for frame, row in zip(frames, rows):
        want = expand_events(row.get("events"))
        got = sorted(name for name, tm in markers if tm <= frame and (previous is None or tm > previous))
        if got != want:
            case.fail(f"markers in frames ({previous}, {frame}] are {got}, but `animc eval` fires {want}")
            return
        previous = frame
    late = [(name, tm) for name, tm in markers if frames and tm > frames[-1]]
    if late:
        case.fail(f"markers after the last frame: {late}")


def run(command, **options):
    return subprocess.run(command, capture_output=True, text=True, **options)


def export_case(animc, name, path, fps, work, program=None):
    out = os.path.join(work, name + ".json")
    result = run([animc, "export", path, "--to", "lottie", "--fps", str(fps), "-o", out])
    if result.returncode != 0:
        return None, result.stderr
    with open(out) as handle:
        doc = json.load(handle)
    op = int(doc["op"])
    # `op` is one past the last frame: as many frames as `animc eval --fps` prints rows. An animation
    # that repeats forever (eval needs --until) loops one round: frame op is the next round's frame 0.
    rows = run([animc, "eval", path, "--format", "csv", "--fps", str(fps)])
    loops = rows.returncode != 0 and "repeats forever" in rows.stderr
    frames = check_times(op, loops)
    played = [(frame, frame) for frame in frames] + (later_rounds(op) if loops else [])
    at = ",".join(f"{(frame / fps).numerator}/{(frame / fps).denominator}" for _, frame in played)
    evaluated = run([animc, "eval", path, "--format", "csv", "--at", at])
    if evaluated.returncode != 0:
        return None, evaluated.stderr
    # A window end that an easing warp maps is a double (docs/semantics.md §2): at an instant within
    # 1e-9 s of one, either side's value is the animation's, to that rounding. Those neighbours are
    # what a frame may show when it does not show the row at its own instant.
    def shifted(sign):
        times = ",".join(f"{(frame / fps + sign * Fraction(1, 10**9)).numerator}/{(frame / fps + sign * Fraction(1, 10**9)).denominator}"
                         for _, frame in played)
        result = run([animc, "eval", path, "--format", "csv", "--at", times])
        return parse_csv(result.stdout) if result.returncode == 0 and result.stdout.strip() not in ("cancelled", "time") else []
    neighbours = [shifted(-1), shifted(1)]
    cancelled = evaluated.stdout.strip() in ("cancelled", "time")   # a cancelled animation is a table with no rows
    if cancelled:
        # A cancelled animation exports as one still frame of the views at rest.
        expected = [{} for _ in played]
        if op != 1:
            result.stderr += f"a cancelled animation should export one frame, not {op}\n"
    else:
        expected = parse_csv(evaluated.stdout)
    case = Case(name, path, doc, fps, expected, [float(f) for f, _ in played], markers=[], program=program)
    case.neighbours = [rows_ for rows_ in neighbours if len(rows_) == len(expected)] if not cancelled else []
    if rows.returncode == 0 and not cancelled:
        count = len([line for line in rows.stdout.splitlines() if line]) - 1
        if count != op:
            case.fail(f"op is {op}, but `animc eval --fps {fps}` prints {count} rows")
    if len(case.expected) != len(case.times):
        case.fail(f"eval printed {len(case.expected)} rows for {len(case.times)} times")
        return case, result.stderr
    if any("events" in row for row in expected):
        check_markers(case, [float(f) for f in frames], expected[:len(frames)])
        case.markers = [(m["cm"], m["tm"]) for m in doc.get("markers", [])]   # what ThorVG must read back
    if loops:
        if rows.returncode == 0:
            case.fail("the file loops, but the animation ends")
        # lottie-web's own loop: played on from frame 0 by the milliseconds of the later frames.
        for (frame, later), row in zip(played[len(frames):], expected[len(frames):]):
            case.loop_times.append((float(later / fps * 1000), float(frame), row))
    return case, result.stderr


def fixture_cases(directory):
    cases = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        base = path[:-5]
        with open(path) as handle:
            doc = json.load(handle)
        with open(base + ".csv") as handle:
            expected = parse_csv(handle.read())
        with open(base + ".markers") as handle:
            markers = [(line.split(" ")[0], float(line.split(" ")[1])) for line in handle.read().splitlines() if line]
        frames = check_times(int(doc["op"]))
        cases.append(Case("fixture:" + os.path.basename(base), None, doc, int(doc["fr"]), expected,
                          [float(f) for f in frames], markers=markers))
    return cases


# ---------------------------------------------------------------- structure

def validate(case):
    """The fields the Lottie schema requires, and the conventions animc promises."""
    doc = case.doc
    problems = []

    def need(obj, key, kind, where):
        if not isinstance(obj, dict) or key not in obj:
            problems.append(f"{where}: missing `{key}`")
            return None
        if kind is not None and not isinstance(obj[key], kind):
            problems.append(f"{where}.{key}: expected {kind}")
            return None
        return obj[key]

    def prop(obj, where, dims=None):
        if not isinstance(obj, dict):
            problems.append(f"{where}: not an object")
            return
        animated = need(obj, "a", (int, float), where)
        value = need(obj, "k", None, where)
        if animated == 0:
            return
        if animated != 1 or not isinstance(value, list) or not value:
            problems.append(f"{where}: `a` 1 needs a list of keyframes")
            return
        last = -math.inf
        for index, key in enumerate(value):
            t = need(key, "t", (int, float), f"{where}.k[{index}]")
            s = need(key, "s", list, f"{where}.k[{index}]")
            if t is not None and t < last:
                problems.append(f"{where}.k[{index}]: keyframes out of order")
            last = t if t is not None else last
            if s is not None and dims and len(s) != dims:
                problems.append(f"{where}.k[{index}].s: {len(s)} values, expected {dims}")
            if index + 1 < len(value) and key.get("h") != 1:
                for handle in ("o", "i"):
                    h = need(key, handle, dict, f"{where}.k[{index}]")
                    if h is not None:
                        # One number for every dimension, or one per dimension.
                        need(h, "x", (list, int, float), f"{where}.k[{index}].{handle}")
                        need(h, "y", (list, int, float), f"{where}.k[{index}].{handle}")

    need(doc, "v", str, "document")
    fr = need(doc, "fr", (int, float), "document")
    ip = need(doc, "ip", (int, float), "document")
    op = need(doc, "op", (int, float), "document")
    need(doc, "w", (int, float), "document")
    need(doc, "h", (int, float), "document")
    layers = need(doc, "layers", list, "document") or []
    markers = need(doc, "markers", list, "document") or []
    if fr is not None and fr != case.fps:
        problems.append(f"fr is {fr}, expected {case.fps}")
    if ip != 0:
        problems.append("ip is not 0")
    if op is not None and ip is not None and not op > ip:
        problems.append("op is not after ip")
    def check_shape_layer(layer, where, document_op):
        """A view's shape layer; `document_op` is None inside a precomposition (its own clock)."""
        if need(layer, "ty", (int, float), where) != 4:
            problems.append(f"{where}: not a shape layer")
        need(layer, "nm", str, where)
        need(layer, "ind", (int, float), where)
        need(layer, "st", (int, float), where)
        if document_op is not None and (need(layer, "ip", (int, float), where) != 0
                                        or need(layer, "op", (int, float), where) != document_op):
            problems.append(f"{where}: ip/op differ from the document's")
        ks = need(layer, "ks", dict, where) or {}
        for key in ("o", "r", "a", "s"):
            if need(ks, key, dict, where + ".ks") is not None:
                prop(ks[key], f"{where}.ks.{key}")
        position = need(ks, "p", dict, where + ".ks") or {}
        if position.get("s") is True:
            prop(position.get("x"), where + ".ks.p.x", 1)
            prop(position.get("y"), where + ".ks.p.y", 1)
        else:
            prop(position, where + ".ks.p")
        shapes = need(layer, "shapes", list, where) or []
        if len(shapes) != 1 or shapes[0].get("ty") != "gr":
            problems.append(f"{where}: expected one shape group")
            return
        items = need(shapes[0], "it", list, where + ".shapes[0]") or []
        kinds = [item.get("ty") for item in items]
        if len(kinds) != 3 or kinds[0] not in ("el", "rc") or kinds[1:] != ["fl", "tr"]:
            problems.append(f"{where}: shape group holds {kinds}, expected el|rc, fl, tr")
            return
        prop(items[0].get("s"), where + ".shape.s", 2)
        prop(items[1].get("c"), where + ".fill.c", 4)
        prop(items[1].get("o"), where + ".fill.o", 1)

    assets = {asset.get("id"): asset for asset in doc.get("assets", [])}
    for index, outer in enumerate(layers):
        where = f"layers[{index}]"
        if outer.get("ty") != 0:
            check_shape_layer(outer, where, op)
            continue
        # Views drawn through a time remap: a precomposition of their shape layers, a frame longer than the file.
        inner = (assets.get(outer.get("refId")) or {}).get("layers") or []
        if not inner:
            problems.append(f"{where}: precomposition `{outer.get('refId')}` holds no layer")
            continue
        prop(need(outer, "tm", dict, where), where + ".tm", 1)
        if need(outer, "ip", (int, float), where) != 0 or need(outer, "op", (int, float), where) != op + 1:
            problems.append(f"{where}: a remapped layer's ip/op are not 0 and the document's op + 1")
        for number, layer in enumerate(inner):
            check_shape_layer(layer, f"{where} (asset {outer.get('refId')} layer {number})", None)
    for index, marker in enumerate(markers):
        for key, kind in (("tm", (int, float)), ("cm", str), ("dr", (int, float))):
            need(marker, key, kind, f"markers[{index}]")
    for problem in problems[:10]:
        case.fail("structure: " + problem)
    # Layers in first-mention order (generated programs name each view first where it appears first).
    if case.program is not None:
        names = view_names(doc)
        order = sorted(set(names), key=lambda view: re.search(r"\b" + re.escape(view) + r"\b", case.program).start())
        if names != order:
            case.fail(f"layers {names} are not in first-mention order {order}")


def view_names(doc):
    """The views the layers draw, in order (a remapped layer draws its asset's one layer)."""
    assets = {asset.get("id"): asset for asset in doc.get("assets", [])}
    names = []
    for layer in doc.get("layers", []):
        if layer.get("ty") == 0:
            names.extend(inner.get("nm") for inner in (assets.get(layer.get("refId")) or {}).get("layers") or [])
        else:
            names.append(layer.get("nm"))
    return names


# ---------------------------------------------------------------- expectations

def expected_layer(row, view):
    def get(key, default):
        value = row.get(f"{view}.{key}", default)
        return value if isinstance(value, float) else default
    color = None
    for key in ("color", "fill"):
        value = row.get(f"{view}.{key}")
        if isinstance(value, tuple):
            color = value[1:]
            break
    radius = row.get(f"{view}.radius")
    if isinstance(radius, float):
        size = (2 * radius, 2 * radius)
    else:
        side = get("size", 60.0)
        size = (get("width", side), get("height", side))
    return {
        "x": get("x", 0.0), "y": get("y", 0.0), "rotation": get("rotation", 0.0), "scale": get("scale", 1.0),
        "sx": get("scale", 1.0) * get("scale-x", 1.0), "sy": get("scale", 1.0) * get("scale-y", 1.0),
        "opacity": min(max(get("opacity", 1.0), 0.0), 1.0), "color": color, "w": size[0], "h": size[1],
    }


def ranges(case, views):
    result = {}
    for view in views:
        values = [expected_layer(row, view) for row in case.expected]
        for key in ("x", "y", "rotation", "scale", "sx", "sy", "opacity", "w", "h"):
            series = [v[key] for v in values if math.isfinite(v[key])]
            result[(view, key)] = (max(series) - min(series)) if series else 0.0
    return result


def placement_of(case, view, row=None):
    """The view's `at` home (or None) and the anchor `a` its origin makes: the offset from the shape's centre
    in its box (at `row`, else at the start; exports.md section 6)."""
    if not hasattr(case, "placements"):
        text = case.program
        if text is None and case.source:
            with open(case.source, encoding="utf-8") as handle:
                text = handle.read()
        case.placements = placements(text or "")
    home, origin = case.placements.get(view, (None, (0.5, 0.5)))
    row = row if row is not None else case.expected[0] if case.expected else None
    box = expected_layer(row, view) if row is not None else {"w": 60.0, "h": 60.0}
    return home, ((origin[0] - 0.5) * box["w"], (origin[1] - 0.5) * box["h"])


def tolerance(span, value=0.0, single=False):
    return 1e-3 * span + 1e-6 + (8 * F32 * max(1.0, abs(value)) if single else 0.0)


# ---------------------------------------------------------------- lottie-web

PAGE = """<!doctype html><html><body><div id="stage"></div><pre id="out"></pre>
<script src="%(player)s"></script>
<script src="%(data)s"></script>
<script>
var results = [];
CASES.forEach(function (c) {
  var record = {name: c.name, frames: []};
  try {
    var box = document.createElement('div');
    document.getElementById('stage').appendChild(box);
    var anim = lottie.loadAnimation({container: box, renderer: 'svg', loop: false, autoplay: false, animationData: c.doc});
    var read = function () {
      // Views drawn through a time remap: the precomposition's layers.
      var shown = [];
      anim.renderer.elements.forEach(function (outer) {
        if (outer.elements) { outer.elements.forEach(function (inner) { shown.push(inner); }); } else { shown.push(outer); }
      });
      return shown.map(function (el) {
        var m = el.finalTransform.mProp, group = el.itemsData[0].it;
        return {nm: el.data.nm, x: m.px.v, y: m.py.v, r: m.r.v * 180 / Math.PI, s: [m.s.v[0], m.s.v[1]], a: [m.a.v[0], m.a.v[1]], o: m.o.v,
                c: Array.prototype.slice.call(group[1].c.v, 0, 3), fo: group[1].o.v,
                size: Array.prototype.slice.call(group[0].sh.s.v, 0, 2)};
      });
    };
    c.times.forEach(function (frame) {
      anim.goToAndStop(frame, true);
      record.frames.push({frame: anim.currentFrame, layers: read()});
    });
    // A looping file, played by the player's own loop: from frame 0, on by so many milliseconds.
    record.loops = [];
    (c.loop || []).forEach(function (ms) {
      anim.goToAndStop(0, true);
      anim.loop = true;
      anim.play();
      anim.advanceTime(ms);
      record.loops.push({frame: anim.currentFrame, layers: read()});
      anim.pause();
    });
    anim.destroy();
    box.remove();
  } catch (e) { record.error = String(e) + ' ' + e.stack; }
  results.push(record);
});
document.getElementById('out').textContent = JSON.stringify(results);
</script></body></html>
"""


def play_lottie_web(cases, player, chromium, work):
    data = os.path.join(work, "cases.js")
    with open(data, "w") as handle:
        handle.write("var CASES = ")
        json.dump([{"name": c.name, "doc": c.doc, "times": c.times, "loop": [ms for ms, _, _ in c.loop_times]} for c in cases],
                  handle)
        handle.write(";\n")
    page = os.path.join(work, "page.html")
    with open(page, "w") as handle:
        handle.write(PAGE % {"player": "file://" + player, "data": "file://" + data})
    command = [chromium, "--headless", "--disable-gpu", "--allow-file-access-from-files", "--virtual-time-budget=600000",
               "--dump-dom", "file://" + page]
    if os.geteuid() == 0:
        command.insert(1, "--no-sandbox")
    result = run(command, timeout=900)
    match = re.search(r'<pre id="out">(.*)</pre>', result.stdout, re.S)
    if not match:
        raise RuntimeError("lottie-web page produced no results: " + result.stderr[-2000:])
    return {record["name"]: record for record in json.loads(html.unescape(match.group(1)))}


def compare_lottie_web(case, record, views, spans):
    if record is None or "error" in record:
        case.fail("lottie-web: " + (record or {}).get("error", "no result"))
        return
    homes = {}
    for index, (frame, row, played) in enumerate(zip(case.times, case.expected, record["frames"])):
        if abs(played["frame"] - frame) > 1e-9:
            case.fail(f"lottie-web: asked for frame {frame}, showed {played['frame']}")
            return
        case.agrees_somewhere(index, lambda row: compare_web_layers(case, frame, row, played["layers"], spans, homes))
    check_layout(case, homes, "lottie-web")
    for (ms, frame, row), played in zip(case.loop_times, record.get("loops", [])):
        if abs(played["frame"] - frame) > 1e-6:
            case.fail(f"lottie-web looping: {ms:g} ms from frame 0 landed on frame {played['frame']}, not {frame}")
            return
        compare_web_layers(case, frame, row, played["layers"], spans, homes, f"looping {ms:g} ms: ")
    if len(record.get("loops", [])) != len(case.loop_times):
        case.fail(f"lottie-web looping: {len(record.get('loops', []))} results for {len(case.loop_times)} times")


def compare_web_layers(case, frame, row, layers, spans, homes, label=""):
    """lottie-web's layers at one frame against `animc eval`'s row."""
    for layer in layers:
        view = layer["nm"]
        want = expected_layer(row, view)
        anchor = placement_of(case, view, row)[1]
        home = homes.setdefault(view, (layer["x"] - want["x"] - anchor[0], layer["y"] - want["y"] - anchor[1]))
        # The position carries the anchor too (exports.md section 6): its curve follows both within the bound of both spans.
        origin = case.placements.get(view, (None, (0.5, 0.5)))[1]
        carried = (abs(origin[0] - 0.5) * spans[(view, "w")], abs(origin[1] - 0.5) * spans[(view, "h")])
        # lottie-web keeps a property's value until it changes by more than 1e-5 of its
        # own units (px, radians, factors, 0–1 opacity): STEP is that hysteresis.
        checks = [
            ("x", layer["x"] - anchor[0] - home[0], want["x"], tolerance(spans[(view, "x")] + carried[0]) + STEP),
            ("y", layer["y"] - anchor[1] - home[1], want["y"], tolerance(spans[(view, "y")] + carried[1]) + STEP),
            # Modulo 360 degrees (a turn looks like none: a spin `by 1 turns` repeated forever loops from 0, exports.md section 7).
            ("rotation", want["rotation"] + ((layer["r"] - want["rotation"] + 180) % 360 - 180), want["rotation"],
             tolerance(spans[(view, "rotation")]) + math.degrees(STEP)),
            ("scale x", layer["s"][0], want["sx"], tolerance(spans[(view, "sx")], want["sx"], True) + STEP),
            ("scale y", layer["s"][1], want["sy"], tolerance(spans[(view, "sy")], want["sy"], True) + STEP),
            ("anchor x", layer["a"][0], anchor[0], tolerance(spans[(view, "w")], want["w"], True) + STEP),
            ("anchor y", layer["a"][1], anchor[1], tolerance(spans[(view, "h")], want["h"], True) + STEP),
            ("opacity", layer["o"], want["opacity"], tolerance(spans[(view, "opacity")]) + STEP),
            ("width", abs(layer["size"][0]), abs(want["w"]), tolerance(spans[(view, "w")], want["w"], True) + STEP),
            ("height", abs(layer["size"][1]), abs(want["h"]), tolerance(spans[(view, "h")], want["h"], True) + STEP),
        ]
        if want["color"] is not None:
            r, g, b, a = want["color"]
            for index, channel in enumerate((r, g, b)):
                checks.append(("rgb"[index], layer["c"][index], channel, 1.0))
            checks.append(("fill alpha", layer["fo"], a, 1 / 255 + STEP))
        for what, got, expected, allowed in checks:
            case.comparisons += 1
            if not (abs(got - expected) <= allowed):
                case.fail(f"lottie-web {label}frame {frame:g} (t = {frame / case.fps:.6g}s) {view} {what}: {got:.9g}, "
                          f"animc says {expected:.9g} (allowed {allowed:.3g})")


def check_layout(case, homes, player, slack=1e-6):
    """Homes in one row or one column, in order, on whole pixels; the stage holds every position reached."""
    names = view_names(case.doc)
    if any(name not in homes for name in names):
        return   # a layer never visible (ThorVG) has no home to check
    # Views with `at` stand at their own home (plus the origin's offset): the row is the others'.
    placed = {name: placement_of(case, name) for name in names}
    shifts = [tuple(got - want for got, want in zip(homes[name], placed[name][0])) for name in names if placed[name][0] is not None]
    if shifts and (any(min(shift) < -max(slack, 1e-6) for shift in shifts)
                   or any(abs(p - q) > max(slack, 1e-6) for shift in shifts for p, q in zip(shift, shifts[0]))):
        case.fail(f"{player}: views with `at` are not at their homes, shifted alike: {shifts}")
    row_names = [name for name in names if placed[name][0] is None]
    points = [homes[name] for name in row_names]
    if not points:
        return
    row = all(abs(p[1] - points[0][1]) <= slack for p in points)
    column = all(abs(p[0] - points[0][0]) <= slack for p in points)
    if not row and not column:
        case.fail(f"{player}: homes are not in one row or one column: {points}")
    if any(abs(p[0] - round(p[0])) > slack or abs(p[1] - round(p[1])) > slack for p in points):
        case.fail(f"{player}: homes are not on whole pixels: {points}")
    # In first-mention order, each clear of the one before: the least position each reaches along the row grows.
    axis, key = (0, "x") if row else (1, "y")
    least = [points[index][axis] + min((expected_layer(r, name)[key] for r in case.expected
                                         if math.isfinite(expected_layer(r, name)[key])), default=0.0)
             for index, name in enumerate(row_names)]
    if any(b <= a for a, b in zip(least, least[1:])):
        case.fail(f"{player}: views are not in first-mention order along the row: {points}, least {least}")
    width, height = case.doc["w"], case.doc["h"]
    for frame, row in zip(case.times, case.expected):
        slack = 0.5 if frame == int(frame) else 20
        for name in names:
            home = homes[name]
            want = expected_layer(row, name)
            anchor = placement_of(case, name, row)[1]
            turned = "radius" not in row_keys(row, name) or any(anchor)
            if turned and want["rotation"] % 360 != 0:
                # Turned about the anchor (the centre moved by it): the box's farthest corner from it, scaled, either way.
                ox, oy = abs(anchor[0]), abs(anchor[1])
                reach = math.hypot(abs(want["w"]) / 2 + ox, abs(want["h"]) / 2 + oy) * max(abs(want["sx"]), abs(want["sy"]))
                reach_x, reach_y = ox + reach, oy + reach
            else:
                # Upright: the box about the anchor, scaled per axis.
                ox, oy = abs(anchor[0]), abs(anchor[1])
                reach_x = (abs(want["w"]) / 2 + ox) * abs(want["sx"]) + ox
                reach_y = (abs(want["h"]) / 2 + oy) * abs(want["sy"]) + oy
            x, y = home[0] + want["x"], home[1] + want["y"]
            if not all(map(math.isfinite, (x, y, reach_x, reach_y))):
                continue
            if x - reach_x < -slack or y - reach_y < -slack or x + reach_x > width + slack or y + reach_y > height + slack:
                case.fail(f"{player}: {name} leaves the {width}x{height} stage at frame {frame:g}")
                return


def row_keys(row, view):
    return {key.split(".", 1)[1] for key in row if key.startswith(view + ".")}


# ---------------------------------------------------------------- ThorVG

class ThorVG:
    def __init__(self):
        import thorvg_python as tvg
        from thorvg_python.paint.shape import Shape
        self.tvg = tvg
        self.Shape = Shape
        self.engine = tvg.Engine()
        self.engine.init(0)
        self.accessor = tvg.Accessor(self.engine, None)

    def open(self, path, width, height):
        tvg = self.tvg
        canvas = tvg.SwCanvas(self.engine)
        canvas.set_target(max(1, int(width)), max(1, int(height)))
        animation = tvg.LottieAnimation(self.engine)
        picture = animation.get_picture()
        if picture.load(path) != tvg.Result.SUCCESS:
            raise RuntimeError("ThorVG could not load " + path)
        canvas.add(picture)
        canvas.update()
        return canvas, animation, picture

    def shape_of(self, layer):
        found = []

        def visit(pointer, _data):
            paint = self.tvg.Paint(self.engine, pointer)
            if paint.get_type()[1] == self.tvg.TvgType.SHAPE:
                found.append(self.Shape(self.engine, pointer))
                return False
            return True
        self.accessor.set(layer, visit, b"\0")
        return found[0] if found else None

    def markers(self, animation):
        lib = animation.thorvg_lib
        count = animation.get_markers_cnt()[1]
        out = []
        for index in range(count):
            name = ctypes.c_char_p()
            begin, end = ctypes.c_float(), ctypes.c_float()
            lib.tvg_lottie_animation_get_marker_info.argtypes = [
                ctypes.c_void_p, ctypes.c_uint32, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_float),
                ctypes.POINTER(ctypes.c_float)]
            lib.tvg_lottie_animation_get_marker_info(animation._animation, index, ctypes.byref(name), ctypes.byref(begin),
                                                     ctypes.byref(end))
            out.append((name.value.decode() if name.value else None, begin.value))
        return out


def compare_thorvg(case, thorvg, path, views, spans):
    canvas, animation, picture = thorvg.open(path, case.doc["w"], case.doc["h"])
    ids = {view: thorvg.accessor.accessor_generate_id(view) for view in views}
    homes = {}
    if case.markers is not None:
        got = thorvg.markers(animation)
        want = case.markers
        if len(got) != len(want) or any(g[0] != w[0] or abs(g[1] - w[1]) > 1e-3 * max(1, abs(w[1])) for g, w in zip(got, want)):
            case.fail(f"ThorVG markers {got}, expected {want}")
    for index, frame in enumerate(case.times):
        animation.set_frame(frame)
        canvas.update()

        def compare_row(row):
            for view in views:
                want = expected_layer(row, view)
                layer = picture.get_paint(ids[view])
                if layer is None:
                    case.fail(f"ThorVG: no layer `{view}`")
                    return
                opacity = layer.get_opacity()[1]
                # A layer scaled to nothing along an axis (a card flip on its edge) draws nothing: ThorVG reports opacity 0.
                flat = abs(want["sx"] * want["sy"]) < 1e-9
                checks = [] if flat and opacity == 0 else [("opacity", opacity, 255 * want["opacity"], 2.0)]
                if opacity > 0:
                    m = layer.get_transform()[1]
                    # The matrix turns about the anchor: the layer's position is where the anchor goes.
                    ax, ay = placement_of(case, view, row)[1]
                    px, py = m.e13 + m.e11 * ax + m.e12 * ay - ax, m.e23 + m.e21 * ax + m.e22 * ay - ay
                    home = homes.setdefault(view, (px - want["x"], py - want["y"]))
                    sx, sy, r = want["sx"], want["sy"], math.radians(want["rotation"])
                    s = max(abs(sx), abs(sy))
                    allowed_s = max(tolerance(spans[(view, "sx")], sx, True), tolerance(spans[(view, "sy")], sy, True))
                    allowed_r = s * math.radians(tolerance(spans[(view, "rotation")])) + 8 * F32 * max(1.0, s)
                    allowed = allowed_s + allowed_r
                    reach = 8 * F32 * max(1.0, s) * (abs(ax) + abs(ay))
                    checks += [
                        ("x", px - home[0], want["x"], tolerance(spans[(view, "x")], m.e13, True) + reach),
                        ("y", py - home[1], want["y"], tolerance(spans[(view, "y")], m.e23, True) + reach),
                        ("matrix e11 (scale-x·cos rotation)", m.e11, sx * math.cos(r), allowed),
                        ("matrix e21 (scale-x·sin rotation)", m.e21, sx * math.sin(r), allowed),
                        ("matrix e12", m.e12, -sy * math.sin(r), allowed),
                        ("matrix e22", m.e22, sy * math.cos(r), allowed),
                    ]
                    shape = thorvg.shape_of(layer)
                    if shape is not None:
                        fill = shape.get_fill_color()
                        if want["color"] is not None:
                            rr, gg, bb, aa = want["color"]
                            checks.append(("fill alpha", fill[4], 255 * aa, 2.0))
                            if fill[4] > 0:   # (nor does it update the colour of a fill it does not draw)
                                checks += [("red", fill[1], rr, 1.5), ("green", fill[2], gg, 1.5), ("blue", fill[3], bb, 1.5)]
                        points = shape.get_path()[2]
                        if points:
                            xs = [p.x for p in points]
                            ys = [p.y for p in points]
                            checks += [("width", max(xs) - min(xs), abs(want["w"]), tolerance(spans[(view, "w")], want["w"], True)),
                                       ("height", max(ys) - min(ys), abs(want["h"]), tolerance(spans[(view, "h")], want["h"], True))]
                for what, got, expected, allowed in checks:
                    case.comparisons += 1
                    if not (abs(got - expected) <= allowed):
                        case.fail(f"ThorVG frame {frame:g} (t = {frame / case.fps:.6g}s) {view} {what}: {got:.9g}, "
                                  f"animc says {expected:.9g} (allowed {allowed:.3g})")

        case.agrees_somewhere(index, compare_row)
    # ThorVG's matrices are single precision.
    check_layout(case, homes, "ThorVG", slack=8 * F32 * max([1.0] + [abs(v) for h in homes.values() for v in h]))


# ---------------------------------------------------------------- pictures

def write_png(path, width, height, rgba_rows):
    raw = b"".join(b"\0" + row for row in rgba_rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def render_strip(thorvg, json_path, frames, out_path, scale=1.0):
    """ThorVG's rendering of `frames`, side by side on white, with a grey rule between them."""
    with open(json_path) as handle:
        doc = json.load(handle)
    width, height = int(doc["w"] * scale), int(doc["h"] * scale)
    canvas, animation, picture = thorvg.open(json_path, width, height)
    picture.set_size(width, height)
    canvas.update()
    canvas.draw(True)   # ThorVG's first drawing after loading comes out empty: draw one to warm up
    canvas.sync()
    strips = []
    for frame in frames:
        animation.set_frame(frame)
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        buffer = bytes(canvas.buffer_arr)
        rows = []
        for y in range(height):
            row = bytearray(buffer[4 * width * y: 4 * width * (y + 1)])
            for x in range(width):
                a = row[4 * x + 3]
                for c in range(3):   # premultiplied over white
                    row[4 * x + c] = min(255, row[4 * x + c] + 255 - a)
                row[4 * x + 3] = 255
            rows.append(bytes(row))
        strips.append(rows)
    gap = bytes([200, 200, 200, 255]) * 2
    joined = [gap.join(strip[y] for strip in strips) for y in range(height)]
    write_png(out_path, len(joined[0]) // 4, height, joined)


# ---------------------------------------------------------------- main

def language_has_colors(animc, work):
    probe = os.path.join(work, "probe.anim")
    with open(probe, "w") as handle:
        handle.write("let a = color v from red to blue\n")
    return run([animc, "check", probe]).returncode == 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build/debug/animc"))
    parser.add_argument("--player", required=True, help="lottie-player.js (lottie-web 5.7.4)")
    parser.add_argument("--chromium", default="chromium-headless-shell")
    parser.add_argument("--programs", type=int, default=120)
    parser.add_argument("--long-programs", type=int, default=40,
                        help="generated programs with long repetitions, forever, steps inside warps and ties")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--fixtures", help="a directory of fixtures written by the test suite")
    parser.add_argument("--pictures", help="write PNG frames of two examples here")
    parser.add_argument("--keep", help="keep the exported files in this directory")
    parser.add_argument("--examples", default=os.path.join(ROOT, "examples", "*.anim"),
                        help="the scripts checked as examples (a glob; default examples/*.anim)")
    args = parser.parse_args()

    started = time.time()
    work = args.keep or tempfile.mkdtemp(prefix="animc-lottie-")
    os.makedirs(work, exist_ok=True)
    cases, skipped = [], []

    for path in sorted(glob.glob(args.examples)):
        name = "example:" + os.path.basename(path)[:-5]
        case, stderr = export_case(args.animc, name.replace(":", "-"), path, 60, work)
        if case is None:
            if re.search(r"error: .*(more than \d+ frames|more than \d+ keyframes)", stderr):
                skipped.append(f"{name}: refused, as documented: {stderr.splitlines()[0]}")
                continue
            print(f"FAIL {name}: export failed:\n{stderr}")
            cases.append(Case(name, path, {}, 60, [], []))
            cases[-1].fail("export failed")
            continue
        case.name = name
        cases.append(case)

    colors = language_has_colors(args.animc, work)
    for index, text in enumerate(programs(args.programs, args.seed, colors)):
        name = f"generated-{index:03d}"
        path = os.path.join(work, name + ".anim")
        with open(path, "w") as handle:
            handle.write(text)
        fps = (24, 30, 60)[index % 3]
        case, stderr = export_case(args.animc, name, path, fps, work, program=text)
        if case is None:
            failed = Case(name, path, {}, fps, [], [])
            failed.fail("export or eval failed:\n" + stderr + text)
            cases.append(failed)
            continue
        cases.append(case)

    # Long repetitions (up to 10^9 copies), forever, steps inside warps, ties: exported and agreeing, or refused
    # with a located error (FILE:LINE:COL: error:) -- never a different animation with exit 0.
    for index, text in enumerate(long_programs(args.long_programs, args.seed, colors)):
        name = f"long-{index:03d}"
        path = os.path.join(work, name + ".anim")
        with open(path, "w") as handle:
            handle.write(text)
        fps = (24, 30, 60)[index % 3]
        case, stderr = export_case(args.animc, name, path, fps, work, program=text)
        if case is None:
            if re.search(r"^" + re.escape(path) + r":\d+:\d+: error: ", stderr, re.M):
                skipped.append(f"{name}: refused with a located error: {stderr.splitlines()[0][len(path):]}")
                continue
            failed = Case(name, path, {}, fps, [], [])
            failed.fail("export or eval failed without a located error:\n" + stderr + text)
            cases.append(failed)
            continue
        cases.append(case)

    if args.fixtures:
        fixtures = fixture_cases(args.fixtures)
        if not fixtures:
            print(f"FAIL: no fixtures in {args.fixtures}")
            return 1
        cases.extend(fixtures)

    playable = [case for case in cases if case.doc]
    for case in playable:
        validate(case)
    exported = time.time()

    web = play_lottie_web(playable, os.path.abspath(args.player), args.chromium, work)
    played = time.time()

    thorvg = ThorVG()
    for case in playable:
        views = view_names(case.doc)
        spans = ranges(case, views)
        compare_lottie_web(case, web.get(case.name), views, spans)
        path = os.path.join(work, case.name.replace(":", "-") + ".json")
        if not os.path.exists(path):
            with open(path, "w") as handle:
                json.dump(case.doc, handle)
        compare_thorvg(case, thorvg, path, views, spans)
    finished = time.time()

    if args.pictures:
        os.makedirs(args.pictures, exist_ok=True)
        # talk: fading in (0.5 s), then the circle shrinks as the square turns, and back.
        # choreography: the card flips in, settles, pulses (peaks at 0.95 s and 1.25 s) and leaves.
        for example, frames in (("talk", [30, 60, 75, 90, 105, 120, 150, 180]),
                                ("choreography", [4, 9, 18, 36, 57, 75, 110, 118])):
            render_strip(thorvg, os.path.join(work, f"example-{example}.json"), frames,
                         os.path.join(args.pictures, f"lottie-{example}.png"))

    passed = [case for case in cases if not case.failures]
    failed = [case for case in cases if case.failures]
    for case in failed:
        print(f"FAIL {case.name} ({len(case.failures)} problems)")
        for line in case.failures[:6]:
            print("    " + line)
        if case.program:
            print("    program:\n" + "\n".join("      " + line for line in case.program.splitlines()))
    for line in skipped:
        print("SKIP " + line)
    comparisons = sum(case.comparisons for case in cases)
    print(f"checked {comparisons} values in {len(playable)} files: {len(cases) - len([c for c in cases if c.name.startswith('generated')]) - len([c for c in cases if c.name.startswith('fixture')])} examples, "
          f"{len([c for c in cases if c.name.startswith('generated')])} generated programs (colours: {'yes' if colors else 'not in the language yet'}), "
          f"{len([c for c in cases if c.name.startswith('fixture')])} library fixtures; "
          f"export {exported - started:.1f}s, lottie-web {played - exported:.1f}s, ThorVG {finished - played:.1f}s")
    print(f"{len(passed)} passed, {len(failed)} failed, {len(skipped)} skipped")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
