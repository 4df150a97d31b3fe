#!/usr/bin/env python3
"""The animated SVG plays what `animc eval` says (exports.md section 8).

For every example, `animc render EXAMPLE -o EXAMPLE.svg` is opened by itself
in headless Chromium (as a document, so that the DevTools protocol can drive
it; the file has no script of its own). Its CSS animations are paused and
seeked (`document.getAnimations()`, `currentTime`) to every row time of
`animc eval --format csv` with the example's `# eval:` arguments, and at
each row:

* every view's custom properties (`--animc-P`, the values the SVG's
  keyframes animate) agree with the row as in checks/web_check.py: numbers
  within 1e-3 of the property's range over the table or the six digits the
  browser prints, whichever is larger; colours within 1/255 per channel;
* what the SVG draws from them agrees with the row too: the view's
  translation less its home is (`x`, `y`); the body's computed `transform`
  is `rotate(rotation) scale(scale * scale-x, scale * scale-y)`; its
  computed `opacity` is `opacity` clamped to [0, 1]; the shape's computed
  `r` (a circle) or `width` and `height` (a rectangle) are the sizes
  clamped at 0, and its `fill` is `color` (or `fill`). The bound of each
  drawn number follows from its properties' bounds.

Examples the web exports refuse (`# export: refused`) must be refused with a
located error; a cancelled animation has nothing to seek. Prints each
failure, then `N passed, M failed`; exits 1 on any failure.

    python3 checks/svg_check.py --animc .build/debug/animc [--only NAME]
"""
import argparse
import functools
import json
import math
import os
import re
import shutil
import sys
import tempfile

print = functools.partial(print, flush=True)  # noqa: A001 (each failure shows as it happens)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from web_check import (Browser, Tab, Tally, column_ranges, compare_rows, eval_arguments, expects_refusal,  # noqa: E402
                       find_chromium, number_tolerance, parse_color, parse_number, read_table, run_animc)

# Pauses the SVG's animations once, then for each time seeks them all and reads,
# per view, its custom properties and what it draws.
SVG_ROWS = """
(() => {
  const times = %s, channels = %s;
  const all = document.getAnimations();
  for (const a of all) a.pause();
  const rows = [];
  for (const t of times) {
    for (const a of all) a.currentTime = t * 1000;
    const values = {}, drawn = {};
    for (const c of channels) {
      const text = getComputedStyle(document.querySelector(c.selector)).getPropertyValue(c.variable).trim();
      values[c.property] = c.kind === "color" ? text
        : c.kind === "point" ? text.split(/[ ,]+/).filter((w) => w !== "").map(parseFloat) : parseFloat(text);
    }
    for (const view of document.querySelectorAll("g.view")) {
      const body = view.querySelector(".body"), shape = view.querySelector(".shape");
      const outer = new DOMMatrix(getComputedStyle(view).transform === "none" ? undefined : getComputedStyle(view).transform);
      const inner = new DOMMatrix(getComputedStyle(body).transform === "none" ? undefined : getComputedStyle(body).transform);
      const s = getComputedStyle(shape);
      drawn[view.dataset.view] = {
        translate: [outer.e, outer.f],
        body: [inner.a, inner.b, inner.c, inner.d, inner.e, inner.f],
        opacity: parseFloat(getComputedStyle(body).opacity),
        circle: shape.tagName === "circle",
        r: parseFloat(s.r), width: parseFloat(s.width), height: parseFloat(s.height),
        fill: s.fill,
      };
    }
    rows.push({ values, drawn });
  }
  return { count: all.length, rows };
})()
"""


def homes(svg):
    """Each view's home, from the SVG's drawing rules: `translate(HOME, …)` or `translate(calc((HOME + var(…)) * 1px), …)`."""
    found = {}
    number = r"(-?[\d.]+(?:e[-+]?\d+)?)"
    axis = r"(?:calc\(\(" + number + r" \+ var\([^)]*\)\) \* 1px\)|" + number + r"px)"
    for match in re.finditer(r'\[data-view="((?:[^"\\]|\\.)*)"\] \{ transform: translate\(' + axis + ", " + axis + r"\); \}", svg):
        name = json.loads('"' + match.group(1) + '"')
        x = match.group(2) if match.group(2) is not None else match.group(3)
        y = match.group(4) if match.group(4) is not None else match.group(5)
        found[name] = (float(x), float(y))
    return found


def close(actual, expected, bound):
    return isinstance(actual, (int, float)) and math.isfinite(actual) and abs(actual - expected) <= bound


def check_drawn(name, table, drawn_rows, home_of, tally, detail_limit=3):
    """One check per row: every view draws what its row's properties say."""
    columns = table["columns"]
    ranges = column_ranges(table)
    shown = 0
    for row_index, (t_text, row) in enumerate(zip(table["time_text"], table["rows"])):
        problems = []
        drawn = drawn_rows[row_index]

        def number(view, prop, default):
            """The row's number for `view.prop` and its bound (default when it has none)."""
            column = f"{view}.{prop}"
            if column not in columns:
                return default, 0.0
            value = parse_number(row[columns.index(column)])
            if value is None or not math.isfinite(value):
                return None, 0.0
            spread = ranges[columns.index(column)]
            return value, number_tolerance(value, spread if isinstance(spread, float) else 0.0)

        def color(view):
            for prop in ("color", "fill"):
                column = f"{view}.{prop}"
                if column in columns:
                    parsed = parse_color(row[columns.index(column)])
                    if parsed is not None:
                        return parsed
            return None

        for view, got in drawn.items():
            home = home_of.get(view)
            if home is None:
                problems.append(f"{view}: no home in the drawing rules")
                continue
            x, x_bound = number(view, "x", 0.0)
            y, y_bound = number(view, "y", 0.0)
            if x is not None and not close(got["translate"][0] - home[0], x, x_bound + 1e-4):
                problems.append(f"{view}: x drawn at {got['translate'][0] - home[0]} != {x}")
            if y is not None and not close(got["translate"][1] - home[1], y, y_bound + 1e-4):
                problems.append(f"{view}: y drawn at {got['translate'][1] - home[1]} != {y}")
            rotation, r_bound = number(view, "rotation", 0.0)
            scale, s_bound = number(view, "scale", 1.0)
            scale_x, sx_bound = number(view, "scale-x", 1.0)
            scale_y, sy_bound = number(view, "scale-y", 1.0)
            if None not in (rotation, scale, scale_x, scale_y):
                radians = math.radians(rotation)
                sx, sy = scale * scale_x, scale * scale_y
                want = [math.cos(radians) * sx, math.sin(radians) * sx, -math.sin(radians) * sy, math.cos(radians) * sy, 0, 0]
                # A matrix entry moves by at most |scale| times the angle's bound plus the scale's bound.
                bound = max(abs(sx), abs(sy)) * math.radians(r_bound) + abs(scale) * max(sx_bound, sy_bound) \
                    + max(abs(scale_x), abs(scale_y)) * s_bound + 1e-5 * max(1.0, abs(sx), abs(sy))
                if not all(close(a, e, bound) for a, e in zip(got["body"], want)):
                    problems.append(f"{view}: body transform {[round(v, 6) for v in got['body']]} != {[round(v, 6) for v in want]}")
            opacity, o_bound = number(view, "opacity", 1.0)
            if opacity is not None and not close(got["opacity"], min(max(opacity, 0.0), 1.0), o_bound + 1e-6):
                problems.append(f"{view}: opacity {got['opacity']} != {opacity} clamped")
            if got["circle"]:
                radius, bound = number(view, "radius", None)
                if radius is not None and not close(got["r"], max(0.0, radius), bound + 1e-3):
                    problems.append(f"{view}: r {got['r']} != {radius}")
            else:
                size, size_bound = number(view, "size", 60.0)
                for side in ("width", "height"):
                    value, bound = number(view, side, None)
                    if value is None and f"{view}.{side}" not in columns:
                        value, bound = size, size_bound
                    if value is not None and not close(got[side], max(0.0, value), bound + 1e-3):
                        problems.append(f"{view}: {side} {got[side]} != {value}")
            expected_color = color(view)
            if expected_color is not None and expected_color[3] >= 0.5:
                actual = parse_color(str(got["fill"]))
                if actual is None or any(abs(a - b) > 1 + 1e-6 for a, b in zip(expected_color, actual)):
                    problems.append(f"{view}: fill {got['fill']} != {expected_color}")
        ok = not problems
        if not ok and shown >= detail_limit:
            tally.check(False, f"{name} [svg drawn] t={t_text}: (more)")
            continue
        if not ok:
            shown += 1
        tally.check(ok, f"{name} [svg drawn] t={t_text}: " + "; ".join(problems[:4]))


def check_example(name, path, animc, tab, workdir, tally):
    svg_path = os.path.join(workdir, name + ".svg")
    if expects_refusal(path, animc):
        code, _, err = run_animc(animc, ["render", path, "-o", svg_path])
        located = re.search(r"^[^:\n]+:\d+:\d+: error: ", err, re.M)
        tally.check(code != 0 and located is not None,
                    f"{name}: render to .svg must be refused with a located error, got status {code}: {err.strip()[:200]}")
        return
    code, out, err = run_animc(animc, ["eval", path, "--format", "csv"] + eval_arguments(path))
    if code != 0:
        tally.check(False, f"{name}: animc eval failed: {err.strip()[:300]}")
        return
    table = read_table(out)
    if table is None or table.get("cancelled"):
        return  # nothing plays: nothing to seek
    code, _, err = run_animc(animc, ["render", path, "-o", svg_path])
    code2, waapi, err2 = run_animc(animc, ["export", path, "--to", "waapi"])
    if code != 0 or code2 != 0:
        tally.check(False, f"{name}: animc render -o .svg / export --to waapi failed: {(err + err2).strip()[:300]}")
        return
    with open(svg_path, encoding="utf-8") as handle:
        svg = handle.read()
    model = json.loads(waapi)
    channels = [dict(c, selector=e["selector"]) for e in model["elements"] for c in e["channels"]]
    tab.open("file://" + svg_path)
    result = tab.evaluate(SVG_ROWS % (json.dumps(table["times"]), json.dumps(channels)))
    tally.check(result["count"] > 0, f"{name}: the SVG has no animations to seek")
    compare_rows(name, "svg", table, [r["values"] for r in result["rows"]], tally)
    check_drawn(name, table, [r["drawn"] for r in result["rows"]], homes(svg), tally)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build/debug/animc"))
    parser.add_argument("--examples", default=os.path.join(ROOT, "examples"))
    parser.add_argument("--only", help="only examples whose name contains this")
    arguments = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium: run checks/install_chromium.sh")
    animc = os.path.abspath(arguments.animc)
    names = sorted(entry[:-5] for entry in os.listdir(arguments.examples) if entry.endswith(".anim"))
    if arguments.only:
        names = [name for name in names if arguments.only in name]
    tally = Tally()
    browser = Browser(chromium)
    workdir = tempfile.mkdtemp(prefix="animc-svg-")
    try:
        tab = Tab(browser)
        for name in names:
            try:
                check_example(name, os.path.join(arguments.examples, name + ".anim"), animc, tab, workdir, tally)
            except Exception as error:  # a file that does not load or answer is a failure, not the end of the run
                tally.check(False, f"{name}: {error}")
    finally:
        browser.close()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"svg: {tally.passed} passed, {tally.failed} failed")
    sys.exit(1 if tally.failed else 0)


if __name__ == "__main__":
    main()
