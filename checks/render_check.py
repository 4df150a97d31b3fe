#!/usr/bin/env python3
"""`animc render` draws what the player page shows (exports.md section 8).

Every example and generated programs (checks/anim_programs.py), each at 10
instants spread over what the page shows (its duration, or the window of one
that repeats forever): one PNG frame drawn by `animc render --from T`, and
headless Chromium's screenshot of the player page in its clean view
(`#clean`, the stage alone, no grid or labels) seeked to T, at the same size.
A pair passes when at most 1 % of the pixels differ by more than 8/255 in
any channel. Prints each failure, then `N passed, M failed`; exits 1 on any
failure.

    python3 checks/render_check.py --animc .build/debug/animc [--generated 100] [--seed 1] [--keep DIR]

With --keep DIR the pairs are kept (`NAME-T-animc.png`, `NAME-T-chromium.png`)
for a person to look at side by side.
"""
import argparse
import functools
import base64
import os
import shutil
import subprocess
import sys
import tempfile

print = functools.partial(print, flush=True)  # noqa: A001 (each failure shows as it happens)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from anim_programs import programs  # noqa: E402
from PIL import Image, ImageChops  # noqa: E402 (Pillow, in checks/.venv: render.sh installs it)
from web_check import Browser, Tab, find_chromium  # noqa: E402

INSTANTS = 10
TOLERANCE = 8
MOST_DIFFERENT = 0.01


def pixels(path):
    """The picture at `path` as RGB, over white."""
    with Image.open(path) as image:
        image = image.convert("RGBA")
        white = Image.new("RGBA", image.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, image).convert("RGB")


def compare(a, b):
    """The share of pixels whose channels differ by more than TOLERANCE anywhere (1.0 when the sizes differ)."""
    if a.size != b.size:
        return 1.0, f"(sizes {a.size[0]}x{a.size[1]} and {b.size[0]}x{b.size[1]})"
    red, green, blue = ImageChops.difference(a, b).split()
    largest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    different = sum(largest.histogram()[TOLERANCE + 1:])
    return different / max(1, a.size[0] * a.size[1]), ""


def decimal(t):
    """A time as animc reads it exactly: a decimal with enough digits."""
    return f"{t:.9f}".rstrip("0").rstrip(".") or "0"


def check(name, source, animc, tab, workdir, keep, tally):
    script = os.path.join(workdir, "program.anim")
    with open(script, "w") as handle:
        handle.write(source)
    # A page of its own name: a navigation to the same address but for its hash would not load it again.
    page = os.path.join(workdir, f"{name}.html")
    exported = subprocess.run([animc, "export", script, "--to", "html", "-o", page], capture_output=True, text=True)
    if exported.returncode != 0:
        return  # what the page cannot show (a cancelled binding, an export refused) is not drawn either
    tab.open("file://" + page + "#clean")
    if tab.evaluate("window.animc.cancelled"):
        return  # nothing drawn (render refuses it)
    info = tab.evaluate("({duration: window.animc.duration, window: window.animc.window,"
                        " width: Number(document.getElementById('stage').dataset.width),"
                        " height: Number(document.getElementById('stage').dataset.height)})")
    width, height = max(1, round(info["width"])), max(1, round(info["height"]))
    tab.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    length = info["window"] or 0
    instants = [decimal(length * index / (INSTANTS - 1)) for index in range(INSTANTS)]
    # animc draws its frames while Chromium takes its screenshots.
    renders = [subprocess.Popen([animc, "render", script, "--from", at, "--to", decimal(float(at) + 0.001), "--fps", "1000",
                                 "--size", f"{width}x{height}", "-o", os.path.join(workdir, f"frame-{index}-%d.png")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
               for index, at in enumerate(instants)]
    shots = []
    for index, at in enumerate(instants):
        # The same time for both, as written for animc: a jump at 19/30 s must not fall between them.
        tab.evaluate(f"window.animc.seek({at}); new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        shots.append(base64.b64decode(tab.send("Page.captureScreenshot", {"format": "png"})["data"]))
    for index, at in enumerate(instants):
        ours = os.path.join(workdir, f"animc-{index}.png")
        theirs = os.path.join(workdir, f"chromium-{index}.png")
        rendered = renders[index]
        rendered.stderr_text = rendered.communicate()[1]
        if rendered.returncode != 0:
            tally["failed"] += 1
            print(f"FAIL {name} at {at}: animc render exited {rendered.returncode}: {rendered.stderr_text.strip()[:300]}")
            continue
        os.replace(os.path.join(workdir, f"frame-{index}-0.png"), ours)
        with open(theirs, "wb") as handle:
            handle.write(shots[index])
        share, why = compare(pixels(ours), pixels(theirs))
        if share > MOST_DIFFERENT:
            # An instant within 1e-9 s of a jump (steps, a window's end) that a warp or easing maps is a
            # double on the page, so it may fall on either side there (docs/semantics.md §2; the Lottie check
            # reads eval the same way): animc's frames 1e-9 s before and after count too.
            for nearby in [float(at) - 1e-9, float(at) + 1e-9]:
                if nearby < 0:
                    continue
                near = os.path.join(workdir, f"near-{index}-%d.png")
                if subprocess.run([animc, "render", script, "--from", decimal(nearby), "--to", decimal(nearby + 0.001),
                                   "--fps", "1000", "--size", f"{width}x{height}", "-o", near],
                                  capture_output=True).returncode == 0:
                    share = min(share, compare(pixels(near.replace("%d", "0")), pixels(theirs))[0])
        if share <= MOST_DIFFERENT:
            tally["passed"] += 1
        else:
            tally["failed"] += 1
            print(f"FAIL {name} at {at}: {share * 100:.2f} % of pixels differ by more than {TOLERANCE}/255 {why}")
        if keep:
            stem = os.path.join(keep, f"{name}-{at}")
            shutil.copy(ours, stem + "-animc.png")
            shutil.copy(theirs, stem + "-chromium.png")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build/debug/animc"))
    parser.add_argument("--generated", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--examples", default=os.path.join(ROOT, "examples"))
    parser.add_argument("--only", help="only sources whose name contains this")
    parser.add_argument("--keep", help="keep every pair of pictures here")
    arguments = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium: run checks/install_chromium.sh")
    animc = os.path.abspath(arguments.animc)
    if arguments.keep:
        os.makedirs(arguments.keep, exist_ok=True)
    sources = []
    for entry in sorted(os.listdir(arguments.examples)):
        if entry.endswith(".anim"):
            with open(os.path.join(arguments.examples, entry)) as handle:
                sources.append((entry[:-5], handle.read()))
    for index, text in enumerate(programs(arguments.generated, arguments.seed, colors=True)):
        sources.append((f"generated-{index}", text))
    if arguments.only:
        sources = [(name, text) for name, text in sources if arguments.only in name]
    tally = {"passed": 0, "failed": 0}
    browser = Browser(chromium)
    workdir = tempfile.mkdtemp(prefix="animc-render-")
    try:
        tab = Tab(browser)
        for name, text in sources:
            try:
                check(name, text, animc, tab, workdir, arguments.keep, tally)
            except Exception as error:  # a page that does not load or answer is a failure, not the end of the run
                tally["failed"] += 1
                print(f"FAIL {name}: {error}")
    finally:
        browser.close()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"render: {tally['passed']} passed, {tally['failed']} failed")
    sys.exit(1 if tally["failed"] else 0)


if __name__ == "__main__":
    main()
