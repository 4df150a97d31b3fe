#!/usr/bin/env python3
"""The browser agrees with `animc eval` (exports.md section 5).

For every example and for generated programs, exports the player page
(`animc export --to html`) and the stylesheet (`--to css`), opens them in one
headless Chromium driven over the DevTools protocol (a pipe, so nothing but
the standard library is needed), and at every row time of `animc eval`'s CSV
seeks (never plays: virtual time does not play animations) and compares what
the browser computed with the table:

* numbers within 1e-3 of the property's range over the table, or the six
  significant digits the browser prints, whichever is larger, plus 1e-6;
* colours within 1/255 per channel (alpha too);
* events: the `animc-event`s fired while seeking forwards through the rows
  are the table's `events` column, row by row.

An animation that repeats forever (its Web Animations JSON says `"duration":
"Infinity"`) is also checked past its example's rows: at every frame of
`animc eval --until T` with T three of its longest periods past the time
everything has settled (`settled` + 3 × `period`, events too), and at a few
instants a thousand and a million periods on (`animc eval --at`, values
only, clear of the instants where a value may jump), where only the
browser's infinite iterations can take it; the page must say
`animc.duration === Infinity`.

Prints one line per failure and `N passed, M failed`; exits 1 on any failure.
With --screenshots DIR it also saves PNGs of the player (Chromium's own
`--screenshot`, with the page's `#t=`) for a person to look at.
"""

import argparse
import base64
import csv
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from web_programs import generate_programs  # noqa: E402

CHROMIUM_CANDIDATES = [
    "/usr/lib/chromium/chromium-headless-shell",
    "chromium-headless-shell",
    "/usr/lib/chromium/chromium",
    "chromium",
]


def find_chromium():
    for candidate in CHROMIUM_CANDIDATES:
        path = candidate if os.path.isabs(candidate) else shutil.which(candidate)
        if path and os.path.exists(path):
            return path
    return None


def chromium_flags():
    flags = ["--headless", "--disable-gpu", "--hide-scrollbars", "--mute-audio", "--no-first-run",
             "--disable-dev-shm-usage", "--allow-file-access-from-files"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")
    return flags


class Browser:
    """One Chromium, driven through --remote-debugging-pipe (fds 3 and 4, NUL-separated JSON)."""

    def __init__(self, binary):
        to_chrome_read, to_chrome_write = os.pipe()
        from_chrome_read, from_chrome_write = os.pipe()

        def child_fds():
            # Move the ends clear of 3 and 4 first, then onto them, inheritable.
            a, b = os.dup(to_chrome_read), os.dup(from_chrome_write)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)

        self.profile = tempfile.mkdtemp(prefix="animc-chromium-")
        args = [binary] + chromium_flags() + ["--remote-debugging-pipe", "--user-data-dir=" + self.profile, "about:blank"]
        self.process = subprocess.Popen(args, preexec_fn=child_fds, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_read)
        os.close(from_chrome_write)
        self.writer = os.fdopen(to_chrome_write, "wb", buffering=0)
        self.reader = os.fdopen(from_chrome_read, "rb", buffering=0)
        self.buffer = b""
        self.next_id = 0
        self.pending = []

    def _read(self):
        while b"\0" not in self.buffer:
            chunk = self.reader.read(1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buffer += chunk
        message, _, self.buffer = self.buffer.partition(b"\0")
        return json.loads(message)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self.writer.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.pending.append(reply)

    def wait_for(self, method, session, timeout=30):
        deadline = time.time() + timeout
        while True:
            for index, event in enumerate(self.pending):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.pending.pop(index)
            if time.time() > deadline:
                raise RuntimeError(f"timed out waiting for {method}")
            self.pending.append(self._read())

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


class Tab:
    def __init__(self, browser, width=1280, height=800):
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        # Record events from the very first script on (the page fires those at ≤ t when it loads at #t=).
        self.send("Page.addScriptToEvaluateOnNewDocument", {"source":
            "window.__animcEvents = []; document.addEventListener('animc-event', e => window.__animcEvents.push(e.detail.name));"})

    def send(self, method, params=None):
        return self.browser.send(method, params, self.session)

    def open(self, url):
        self.browser.pending = [e for e in self.browser.pending if e.get("sessionId") != self.session]
        self.send("Page.navigate", {"url": url})
        self.browser.wait_for("Page.loadEventFired", self.session)

    def evaluate(self, expression):
        reply = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise RuntimeError(f"page script failed: {text}")
        return reply["result"].get("value")


# --- What animc says -------------------------------------------------------

def run_animc(animc, args, stdin=None, cwd=None):
    result = subprocess.run([animc] + args, capture_output=True, text=True, input=stdin, cwd=cwd)
    return result.returncode, result.stdout, result.stderr


def eval_arguments(path):
    """The `# eval: …` line of an example (the rows it asks for)."""
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("# eval:"):
                return line[len("# eval:"):].split()
    return []


def read_table(text):
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return None
    if len(rows) == 1:
        # A cancelled animation: a header and no rows (README, "eval").
        return {"cancelled": True}
    header, body = rows[0], rows[1:]
    return {"cancelled": False, "columns": header[1:], "times": [float(row[0]) for row in body],
            "time_text": [row[0] for row in body], "rows": [row[1:] for row in body]}


COLOR = re.compile(r"rgba?\(\s*([-\d.e+]+)[ ,]+([-\d.e+]+)[ ,]+([-\d.e+]+)(?:\s*[,/]\s*([-\d.e+]+))?\s*\)")


def parse_color(text):
    match = COLOR.fullmatch(text.strip())
    if not match:
        return None
    r, g, b = (float(match.group(i)) for i in (1, 2, 3))
    a = float(match.group(4)) if match.group(4) is not None else 1.0
    return (r, g, b, a * 255)


def parse_point(text):
    """A point as eval's CSV writes it, `(4 8)`: its numbers, else None."""
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return None
    numbers = [parse_number(word) for word in text[1:-1].replace(",", " ").split()]
    return numbers if numbers and all(n is not None for n in numbers) else None


def parse_number(text):
    try:
        return float(text)
    except ValueError:
        return None


def expand_events(cell):
    names = []
    for word in cell.split():
        name, _, count = word.partition("\u00d7")
        names.extend([name] * (int(count) if count else 1))
    return sorted(names)


# --- Comparing --------------------------------------------------------------

class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.messages = []

    def check(self, ok, message):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            self.messages.append(message)
            print("FAIL " + message, flush=True)


def spread(numbers):
    numbers = [n for n in numbers if n is not None and math.isfinite(n)]
    return max(numbers) - min(numbers) if numbers else 0.0


def column_ranges(table):
    """Each column's spread: a number for numbers, a list (one per component) for points."""
    ranges = []
    for index, _ in enumerate(table["columns"]):
        points = [parse_point(row[index]) for row in table["rows"]]
        points = [p for p in points if p is not None]
        if points:
            ranges.append([spread([p[k] for p in points if k < len(p)]) for k in range(max(map(len, points)))])
        else:
            ranges.append(spread([parse_number(row[index]) for row in table["rows"]]))
    return ranges


def number_tolerance(expected, spread):
    digits = 5e-6 * abs(expected) * 1.0001  # six significant digits, rounded
    return max(1e-3 * spread, digits) + 1e-6


def compare_rows(name, what, table, got_rows, tally, detail_limit=3):
    """One check per row: every column of the row agrees."""
    columns = [c for c in table["columns"] if c != "events"]
    ranges = column_ranges(table.get("spread_from", table))
    shown = 0
    for row_index, (t_text, row) in enumerate(zip(table["time_text"], table["rows"])):
        got = got_rows[row_index]
        problems = []
        for index, column in enumerate(columns):
            expected_text = row[index]
            actual = got.get(column)
            if actual is None:
                problems.append(f"{column}: missing")
                continue
            expected_color = parse_color(expected_text)
            if expected_color is not None:
                actual_color = parse_color(str(actual))
                if actual_color is not None and len(actual_color) > 3 and len(expected_color) > 3 \
                        and expected_color[3] < 0.5 and actual_color[3] < 0.5:
                    continue  # transparent is transparent, whatever the channels under it
                if actual_color is None or any(abs(a - b) > 1 + 1e-6 for a, b in zip(expected_color, actual_color)):
                    problems.append(f"{column}: {actual} != {expected_text}")
                continue
            expected_point = parse_point(expected_text)
            if expected_point is not None:
                spreads = ranges[index] if isinstance(ranges[index], list) else [0.0] * len(expected_point)
                spreads = spreads + [0.0] * (len(expected_point) - len(spreads))
                if not isinstance(actual, list) or len(actual) != len(expected_point) or any(
                        not isinstance(a, (int, float)) or not abs(a - e) <= number_tolerance(e, spreads[k])
                        for k, (a, e) in enumerate(zip(actual, expected_point)) if math.isfinite(e)):
                    problems.append(f"{column}: {actual} != {expected_text}")
                continue
            expected = parse_number(expected_text)
            if expected is None or not math.isfinite(expected):
                continue  # the browser has no infinities; nothing to compare
            if column.endswith(".rotation") and isinstance(actual, (int, float)) and math.isfinite(actual):
                # exports.md section 7: a whole-turn rotation that repeats forever plays one turn again
                # and again; 360 degrees look like 0, so a rotation agrees modulo whole turns.
                actual = expected + math.remainder(actual - expected, 360.0)
            if not isinstance(actual, (int, float)) or not abs(actual - expected) <= number_tolerance(expected, ranges[index]):
                problems.append(f"{column}: {actual} != {expected_text}")
        ok = not problems
        if not ok and shown >= detail_limit:
            tally.check(False, f"{name} [{what}] t={t_text}: (more)")
            continue
        if not ok:
            shown += 1
        tally.check(ok, f"{name} [{what}] t={t_text}: " + "; ".join(problems[:4]))


PAGE_ROWS = """
(() => {
  const times = %s;
  const rows = [], events = [];
  // Events fired while the page loaded at #t=0 belong to the first row.
  let carried = window.__animcEvents.slice();
  for (const t of times) {
    window.__animcEvents.length = 0;
    animc.seek(t);
    rows.push(animc.values());
    events.push(carried.concat(window.__animcEvents));
    carried = [];
  }
  return { rows, events, duration: animc.duration, cancelled: animc.cancelled };
})()
"""

CSS_PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>
%s
</style></head><body>
%s
<script>
const CHANNELS = %s;
const all = document.getAnimations();
for (const a of all) a.pause();
window.cssCheck = {
  count: all.length,
  seek(t) { for (const a of all) a.currentTime = t * 1000; },
  values() {
    const out = {};
    for (const c of CHANNELS) {
      const text = getComputedStyle(document.querySelector(c.selector)).getPropertyValue(c.variable).trim();
      out[c.property] = c.kind === "color" ? text
        : c.kind === "point" ? text.split(/[ ,]+/).filter((w) => w !== "").map(parseFloat) : parseFloat(text);
    }
    return out;
  },
};
</script></body></html>
"""

CSS_ROWS = """
(() => {
  const times = %s;
  return times.map((t) => { cssCheck.seek(t); return cssCheck.values(); });
})()
"""


def frames_per_second(args):
    """The --fps of an example's eval arguments (eval's default is 10)."""
    for index, word in enumerate(args):
        if word == "--fps" and index + 1 < len(args):
            return args[index + 1]
        if word.startswith("--fps="):
            return word[len("--fps="):]
    return "10"


def forever_tables(name, path, animc, model, args, tally):
    """Rows past an endless animation's example rows: every frame up to three
    periods past where it settles, then instants far ahead (values only)."""
    # (Times as short fractions: `settled` may be a third written as a decimal.)
    settled = Fraction(str(model["settled"])).limit_denominator(10**6)
    period = Fraction(str(model["period"])).limit_denominator(10**6)
    horizon = settled + 3 * period
    code, out, err = run_animc(animc, ["eval", path, "--format", "csv", "--fps", frames_per_second(args),
                                       "--until", f"{horizon.numerator}/{horizon.denominator}"])
    tables = []
    if code != 0:
        tally.check(False, f"{name}: animc eval --until failed: {err.strip()[:300]}")
    else:
        tables.append(("forever", read_table(out), True))
    # Far out, a browser's time (milliseconds in a double) cannot tell the sides of a jump apart, so
    # these instants stay clear of the fractions of a period a script writes; on a microsecond grid.
    far = [settled + k * period + q * period for k in (1000, 1000000) for q in (Fraction(3141, 10000), Fraction(7071, 10000))]
    far = [Fraction(round(t * 10**6), 10**6) for t in far]
    code, out, err = run_animc(animc, ["eval", path, "--format", "csv", "--at",
                                       ",".join(f"{t.numerator}/{t.denominator}" for t in far)])
    if code != 0:
        tally.check(False, f"{name}: animc eval --at failed: {err.strip()[:300]}")
    else:
        far_table = read_table(out)
        # Its few rows do not span the property's range: the bound (1e-4 of the range) is read off
        # the rows of the first periods instead.
        if tables:
            far_table["spread_from"] = tables[0][1]
        tables.append(("far", far_table, False))
    return tables


def expects_refusal(path, animc):
    """A `# export: refused` line, or `# export: may refuse` and the export refuses it: the web
    exports must all refuse it, located (exports.md section 7: never exit 0 with a different animation)."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    if "# export: refused" in lines:
        return True
    return "# export: may refuse" in lines and run_animc(animc, ["export", path, "--to", "waapi"])[0] != 0


def check_program(name, path, animc, tab, workdir, tally):
    args = eval_arguments(path)
    if expects_refusal(path, animc):
        for target in ["css", "waapi", "js", "html"]:
            code, _, err = run_animc(animc, ["export", path, "--to", target])
            located = re.search(r"^[^:\n]+:\d+:\d+: error: ", err, re.M)
            tally.check(code != 0 and located is not None,
                        f"{name}: --to {target} must be refused with a located error, got status {code}: {err.strip()[:200]}")
        return
    code, out, err = run_animc(animc, ["eval", path, "--format", "csv"] + args)
    if code != 0:
        tally.check(False, f"{name}: animc eval failed: {err.strip()[:300]}")
        return
    table = read_table(out)
    base = os.path.join(workdir, re.sub(r"[^A-Za-z0-9_.-]", "_", name))
    code, _, err = run_animc(animc, ["export", path, "--to", "html", "-o", base + ".html"])
    if code != 0:
        tally.check(False, f"{name}: animc export --to html failed: {err.strip()[:300]}")
        return
    if table is None or table.get("cancelled"):
        tab.open("file://" + base + ".html#t=0")
        state = tab.evaluate("({ cancelled: animc.cancelled, values: animc.values() })")
        tally.check(bool(state["cancelled"]) and state["values"] == {}, f"{name}: a cancelled animation's page says so")
        return
    code, css, err = run_animc(animc, ["export", path, "--to", "css"])
    code2, waapi, err2 = run_animc(animc, ["export", path, "--to", "waapi"])
    if code != 0 or code2 != 0:
        tally.check(False, f"{name}: animc export --to css/waapi failed: {(err + err2).strip()[:300]}")
        return
    model = json.loads(waapi)
    tables = [("", table, True)]
    if model["duration"] == "Infinity":
        tables += forever_tables(name, path, animc, model, args, tally)
    channels = [dict(c, selector=e["selector"]) for e in model["elements"] for c in e["channels"]]
    # exports.md section 6: with no --prefix, the prefix is `animc`: custom properties --animc-P.
    named = [c["variable"] for c in channels if not c["variable"].startswith("--animc-")]
    tally.check(not named, f"{name}: custom properties are named --animc-…, not {named[:3]}")
    markup = "\n".join(line.strip()[2:].strip() for line in css.split("*/")[0].splitlines() if "<div data-view=" in line)
    with open(base + ".css.html", "w", encoding="utf-8") as handle:
        handle.write(CSS_PAGE % (css, markup, json.dumps(channels)))
    for label, rows_table, with_events in tables:
        suffix = " " + label if label else ""
        times = rows_table["times"]
        tab.open("file://" + base + ".html#t=0")
        if label == "forever":
            endless = tab.evaluate("animc.duration === Infinity && animc.window === %s" % json.dumps(model["window"]))
            tally.check(endless, f"{name}: the page says it lasts Infinity, its scrubber showing {model['window']} s")
        result = tab.evaluate(PAGE_ROWS % json.dumps(times))
        compare_rows(name, "html" + suffix, rows_table, result["rows"], tally)
        if with_events:
            compare_events(name, rows_table, result["events"], tally)
        # The stylesheet, on plain elements.
        tab.open("file://" + base + ".css.html")
        rows = tab.evaluate(CSS_ROWS % json.dumps(times))
        compare_rows(name, "css" + suffix, rows_table, rows, tally)


def compare_events(name, table, fired_rows, tally):
    """One check per row of a table with an `events` column."""
    if "events" not in table["columns"]:
        return
    index = table["columns"].index("events")
    for row_index, (t_text, row) in enumerate(zip(table["time_text"], table["rows"])):
        fired = sorted(fired_rows[row_index])
        tally.check(fired == expand_events(row[index]), f"{name} [events] t={t_text}: {fired} != {row[index]!r}")


def screenshots(animc, chromium, directory, shots, workdir):
    os.makedirs(directory, exist_ok=True)
    saved = []
    for example, times in shots:
        page = os.path.join(workdir, example + ".player.html")
        code, _, err = run_animc(animc, ["export", "examples/" + example + ".anim", "-o", page], cwd=ROOT)
        if code != 0:
            raise RuntimeError(f"export of {example} failed: {err}")
        for t in times:
            png = os.path.join(directory, f"{example}-{t}s.png")
            args = [chromium] + chromium_flags() + ["--window-size=1280,720", "--virtual-time-budget=2000",
                                                     "--screenshot=" + png, f"file://{page}#t={t}"]
            subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, check=True)
            saved.append(png)
    return saved


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build", "debug", "animc"))
    parser.add_argument("--generated", type=int, default=170, help="how many generated programs (default 170; a tenth more of each long kind follow)")
    parser.add_argument("--seed", type=int, default=12, help="the generator's seed")
    parser.add_argument("--only", help="check only programs whose name contains this")
    parser.add_argument("--keep", help="keep the exported files in this directory")
    parser.add_argument("--screenshots", help="save player screenshots here")
    arguments = parser.parse_args()

    chromium = find_chromium()
    if chromium is None:
        print("web check: no Chromium found (apt-get install -y chromium-headless-shell)", file=sys.stderr)
        return 2
    workdir = arguments.keep or tempfile.mkdtemp(prefix="animc-web-")
    os.makedirs(workdir, exist_ok=True)
    animc = os.path.abspath(arguments.animc)
    started = time.time()

    programs = []
    for name in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        if name.endswith(".anim"):
            programs.append((name[:-5], os.path.join(ROOT, "examples", name)))
    # Programs an export once got silently wrong (issue 35), each with the rows it asks for.
    regressions = os.path.join(HERE, "web_regressions")
    for name in sorted(os.listdir(regressions)):
        if name.endswith(".anim"):
            programs.append(("regression:" + name[:-5], os.path.join(regressions, name)))
    generated_dir = os.path.join(workdir, "generated")
    os.makedirs(generated_dir, exist_ok=True)
    for index, source in enumerate(generate_programs(arguments.generated, arguments.seed, animc)):
        path = os.path.join(generated_dir, f"gen-{index:03d}.anim")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source)
        programs.append((f"gen-{index:03d}", path))
    # Golden exports the unit tests write (colours and events, which the language may not spell yet).
    fixtures = os.path.join(ROOT, "Tests", "AnimLangTests", "Golden", "web", "fixtures")
    if os.path.isdir(fixtures):
        for name in sorted(os.listdir(fixtures)):
            if name.endswith(".html"):
                programs.append(("fixture:" + name[:-5], os.path.join(fixtures, name)))
    if arguments.only:
        programs = [p for p in programs if arguments.only in p[0]]

    tally = Tally()
    browser = Browser(chromium)
    try:
        tab = Tab(browser)
        for name, path in programs:
            try:
                if name.startswith("fixture:"):
                    check_fixture(name, path, tab, tally)
                else:
                    check_program(name, path, animc, tab, workdir, tally)
            except Exception as error:  # a broken page is a failure, not a crash of the check
                tally.check(False, f"{name}: {error}")
    finally:
        browser.close()

    if arguments.screenshots:
        saved = screenshots(animc, chromium, arguments.screenshots,
                            [("talk", ["0.5", "1.5", "2.25"]), ("choreography", ["0.35", "1.2", "1.95"]),
                             ("confetti", ["0", "0.3", "0.7"]), ("progress-bar", ["0.5", "1", "1.5"]),
                             ("card-flip", ["0.15", "0.3", "0.45"])], workdir)
        print("screenshots: " + ", ".join(os.path.relpath(p, ROOT) for p in saved))

    elapsed = time.time() - started
    print(f"web check: {len(programs)} programs in {elapsed:.0f} s")
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


def check_fixture(name, path, tab, tally):
    """A golden page with its expected table beside it (NAME.csv)."""
    with open(path[:-5] + ".csv", encoding="utf-8") as handle:
        table = read_table(handle.read())
    tab.open("file://" + path + "#t=0")
    result = tab.evaluate(PAGE_ROWS % json.dumps(table["times"]))
    compare_rows(name, "html", table, result["rows"], tally)
    compare_events(name, table, result["events"], tally)


if __name__ == "__main__":
    sys.exit(main())
