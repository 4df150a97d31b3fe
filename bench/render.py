#!/usr/bin/env python3
"""`animc render` against a headless browser, side by side (exports.md section 8).

For three examples: a 10 s, 640x360, 30 fps GIF by `animc render`, and the
same 300 frames screenshotted from the player page in headless Chromium
(seek, then a PNG screenshot, frame by frame: the browser's half of making
a GIF, before any encoding). Then the peak memory (maximum resident set size)
of a 1 s and a 60 s render at 1920x1080: it streams, so the second stays
within 2x of the first.

    python3 bench/render.py --animc .build/release/animc [--out bench/render-results.txt]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "checks"))

from web_check import Browser, Tab, find_chromium  # noqa: E402

EXAMPLES = ["choreography", "confetti", "spinner"]
SECONDS, WIDTH, HEIGHT, FPS = 10, 640, 360, 30


def peak_memory(arguments):
    """Seconds and maximum resident set size (KiB) of one run, from wait4."""
    started = time.perf_counter()
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(arguments)}: {process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build/release/animc"))
    parser.add_argument("--out", default=os.path.join(HERE, "render-results.txt"))
    arguments = parser.parse_args()
    animc = os.path.abspath(arguments.animc)
    chromium = find_chromium()
    if chromium is None:
        sys.exit("no Chromium: run checks/install_chromium.sh")
    work = tempfile.mkdtemp(prefix="animc-render-bench-")
    load_at_start = os.getloadavg()
    lines = [f"animc render against headless Chromium screenshots: {SECONDS} s, {WIDTH}x{HEIGHT}, {FPS} fps "
             f"({SECONDS * FPS} frames), one run each, on {os.cpu_count()} cores; animc: {os.path.relpath(animc, ROOT)}",
             "", f"{'example':<14}{'animc render (GIF)':>20}{'Chromium (PNGs)':>18}{'ratio':>9}"]
    browser = Browser(chromium)
    tab = Tab(browser, WIDTH, HEIGHT)
    ratios = []
    try:
        for name in EXAMPLES:
            source = os.path.join(ROOT, "examples", name + ".anim")
            gif = os.path.join(work, name + ".gif")
            ours, _ = peak_memory([animc, "render", source, "--to", str(SECONDS), "--size", f"{WIDTH}x{HEIGHT}",
                                   "--fps", str(FPS), "-o", gif])
            page = os.path.join(work, name + ".html")
            subprocess.run([animc, "export", source, "--to", "html", "-o", page], check=True, capture_output=True)
            tab.open("file://" + page + "#clean")
            started = time.perf_counter()
            for frame in range(SECONDS * FPS):
                tab.evaluate(f"window.animc.seek({frame / FPS}); new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                tab.send("Page.captureScreenshot", {"format": "png"})
            theirs = time.perf_counter() - started
            ratios.append(theirs / ours)
            lines.append(f"{name:<14}{ours:>18.2f} s{theirs:>16.2f} s{theirs / ours:>8.1f}x")
    finally:
        browser.close()
    lines.append(f"{'least':<14}{'':>20}{'':>18}{min(ratios):>8.1f}x  (target: at least 20x)")
    lines.append("")
    lines.append("peak memory (maximum resident set), examples/spinner.anim at 1920x1080, 30 fps:")
    memory = {}
    for seconds in [1, 60]:
        elapsed, kib = peak_memory([animc, "render", os.path.join(ROOT, "examples/spinner.anim"), "--to", str(seconds),
                                    "--size", "1920x1080", "--fps", "30", "-o", os.path.join(work, f"long-{seconds}.gif")])
        memory[seconds] = kib
        lines.append(f"  {seconds:>3} s ({seconds * 30:>5} frames): {kib / 1024:8.1f} MiB, {elapsed:7.2f} s")
    lines.append(f"  ratio 60 s / 1 s: {memory[60] / memory[1]:.2f}  (target: at most 2)")
    lines.append("")
    # Wall-clock times on a shared machine depend on its load: say what it was.
    lines.append("load average (1, 5, 15 min) at the start: {:.2f}, {:.2f}, {:.2f}; at the end: {:.2f}, {:.2f}, {:.2f}"
                 .format(*load_at_start, *os.getloadavg()))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    with open(arguments.out, "w") as handle:
        handle.write(text)


if __name__ == "__main__":
    main()
