#!/usr/bin/env python3
"""`animc serve` in headless Chromium (exports.md section 6, "Live preview").

Starts `animc serve` on a free loopback port with a file of its own, opens
the page twice in one headless Chromium (the DevTools driver of
web_check.py), and edits the file as an editor would:

* a page paused at 40 s and a page playing both show the new animation
  within 1 s of a save, read through `window.animc`, the paused one still at
  40 s and paused, the playing one still playing from where it was;
* a file with errors keeps the last good animation, and the box over the
  stage shows the heading and the diagnostics exactly as the terminal
  printed them (place, source line, caret, hint); fixing it hides the box;
* a deleted file is said on the page, and a save by renaming a new file over
  it is followed; binary and huge files give diagnostics, the server lives;
* the page says so when the server stops (SIGTERM stops it at once).

With --screenshot PNG it saves the page with its box of diagnostics.
Prints one line per failure and `N passed, M failed`; exits 1 on any failure.
"""

import argparse
import base64
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from web_check import Browser, Tab, Tally, find_chromium  # noqa: E402

GOOD = "# a box that slides\nlet slide = animate box.x from 0 to {to} in 100s\n"
BROKEN = "# a box that slides\nlet slide = animate box.x from 0 to 300 in 100s with ease-inout\n"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`animc serve FILE --port N`, its output collected line by line."""

    def __init__(self, animc, name, cwd, port):
        self.port = port
        self.out, self.err = [], []
        self.process = subprocess.Popen([animc, "serve", name, "--port", str(port)], cwd=cwd,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=lambda s=stream, l=lines: [l.append(x) for x in s], daemon=True).start()
        self.wait_for(lambda: any("http://127.0.0.1:" in line for line in self.out), 10)

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/"

    def wait_for(self, condition, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if condition():
                return True
            if self.process.poll() is not None:
                return condition()
            time.sleep(0.02)
        return condition()

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


def save(path, text, by_rename=False):
    """Writes the file as editors do: in place, or a new file renamed over it."""
    if by_rename:
        temporary = path + ".tmp"
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    else:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)


def until(tab, expression, seconds):
    """Polls a page expression until it is true; returns the seconds it took, or None."""
    started = time.time()
    while time.time() - started < seconds:
        if tab.evaluate(expression):
            return time.time() - started
        time.sleep(0.02)
    return None


OVERLAY = "(() => { const o = document.getElementById('animc-live'); " \
          "return o && !o.hidden ? o.querySelector('h2').textContent + '\\n' + o.querySelector('pre').textContent : null; })()"


# The box's custom properties --animc-x and --x, and its horizontal shift in px (drawn with var(--animc-x)).
BOX_NAMES = "(() => { const s = getComputedStyle(document.querySelector('[data-view=\"box\"]')); " \
            "return [s.getPropertyValue('--animc-x').trim(), s.getPropertyValue('--x').trim()]; })()"
BOX_SHIFT = "new DOMMatrix(getComputedStyle(document.querySelector('[data-view=\"box\"]')).transform).e"


# Hides or shows the page as a browser does for a tab in the background.
VISIBILITY = "Object.defineProperty(document, 'hidden', { value: %s, configurable: true }); " \
             "document.dispatchEvent(new Event('visibilitychange'))"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--animc", default=os.path.join(ROOT, ".build", "debug", "animc"))
    parser.add_argument("--screenshot", help="save the page with its box of diagnostics to this PNG")
    arguments = parser.parse_args()
    animc, chromium = os.path.abspath(arguments.animc), find_chromium()
    if chromium is None:
        sys.exit("serve check: no Chromium found (apt-get install -y chromium-headless-shell)")
    tally = Tally()
    workdir = tempfile.mkdtemp(prefix="animc-serve-")
    path = os.path.join(workdir, "slide.anim")
    save(path, GOOD.format(to=100))
    server = Server(animc, "slide.anim", workdir, free_port())
    browser = Browser(chromium)
    try:
        check_pages(server, path, browser, tally)
        if arguments.screenshot:
            take_screenshot(animc, workdir, browser, arguments.screenshot, tally)
    except Exception as error:  # a broken page is a failure, not a crash of the check
        tally.check(False, f"serve check stopped: {error}")
    finally:
        browser.close()
        server.stop()
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


def check_pages(server, path, browser, tally):
    """The page follows `path` (served as its name in its folder)."""
    name = os.path.basename(path)
    tally.check(server.out[0].strip() == f"animc serve: http://127.0.0.1:{server.port}/ follows {name} (Ctrl-C stops)",
                f"the terminal says the address: {server.out[:1]}")
    paused, playing = Tab(browser), Tab(browser)
    for tab in (paused, playing):
        tab.open(server.url)
    paused.evaluate("window.animc.seek(40)")
    tally.check(paused.evaluate("window.animc.values()['box.x']") == 40, "the first page shows box.x = 40 at 40 s")
    # Named as exports.md section 6 says with no --prefix (`animc`), and drawn from it: box.x moves the shape.
    tally.check(paused.evaluate(BOX_NAMES) == ["40", ""], f"the box carries --animc-x = 40 (and no --x): {paused.evaluate(BOX_NAMES)}")
    paused.evaluate("window.animc.seek(0)")
    home = paused.evaluate(BOX_SHIFT)
    paused.evaluate("window.animc.seek(40)")
    shifted = paused.evaluate(BOX_SHIFT)
    tally.check(abs(shifted - home - 40) < 1e-6, f"the shape is drawn 40 px right at 40 s ({home} → {shifted})")
    tally.check(playing.evaluate("window.animc.playing()"), "the second page plays")
    before = playing.evaluate("window.animc.time()")

    # A save: both pages follow within a second, at the same time position.
    save(path, GOOD.format(to=200))
    took = until(paused, "window.animc.values()['box.x'] === 80", 1.0)
    tally.check(took is not None, "a save shows on the paused page within 1 s (box.x 40 → 80 at 40 s)")
    if took is not None:
        print(f"the paused page followed the save in {took * 1000:.0f} ms")
    tally.check(paused.evaluate(BOX_NAMES) == ["80", ""], f"the new page's box carries --animc-x = 80: {paused.evaluate(BOX_NAMES)}")
    tally.check(paused.evaluate("window.animc.time()") == 40 and not paused.evaluate("window.animc.playing()"),
                "the paused page is still paused at 40 s")
    took = until(playing, "Math.abs(window.animc.values()['box.x'] - 2 * window.animc.time()) < 0.5 "
                          "&& window.animc.values()['box.x'] > 0.5", 1.0)
    tally.check(took is not None, "a save shows on the playing page within 1 s (box.x = 2 × time)")
    after = playing.evaluate("window.animc.time()")
    tally.check(playing.evaluate("window.animc.playing()") and before <= after < before + 3,
                f"the playing page plays on from where it was ({before:.2f} s, then {after:.2f} s)")
    tally.check(server.wait_for(lambda: any("reloaded `slide`" in line for line in server.out), 1),
                "the terminal says the reload")
    tally.check(paused.evaluate(OVERLAY) is None, "no box over the stage while the file is good")

    # A hidden page lets its request go, and catches up when it is seen again.
    paused.evaluate(VISIBILITY % "true")
    save(path, GOOD.format(to=250))
    time.sleep(0.6)
    tally.check(paused.evaluate("window.animc.values()['box.x']") == 80 and until(playing, "window.animc.values()['box.x'] > 0 "
                "&& Math.abs(window.animc.values()['box.x'] - 2.5 * window.animc.time()) < 0.5", 1.0) is not None,
                "a hidden page does not follow, the other one does")
    paused.evaluate(VISIBILITY % "false")
    tally.check(until(paused, "window.animc.values()['box.x'] === 100", 1.0) is not None,
                "seen again, it catches up within 1 s (box.x = 100 at 40 s)")

    # A file with errors: the last good animation stays, the diagnostics show as the terminal prints them.
    errors_before = len(server.err)
    save(path, BROKEN)
    shown = until(paused, OVERLAY + " !== null", 1.0)
    tally.check(shown is not None, "a broken save shows the box over the stage within 1 s")
    server.wait_for(lambda: len(server.err) >= errors_before + 4, 1)
    printed = "".join(server.err[errors_before:])
    expected = (f"{name}:2:54: error: unknown easing `ease-inout`\n"
                "  2 | let slide = animate box.x from 0 to 300 in 100s with ease-inout\n"
                "    |                                                      ^~~~~~~~~~\n"
                "  hint: did you mean `ease-in-out`?\n")
    tally.check(printed == expected, f"the terminal prints the diagnostic: {printed!r}")
    text = paused.evaluate(OVERLAY)
    tally.check(text == f"{name} has errors: the page shows the last good animation\n" + expected,
                f"the box says what the terminal says: {text!r}")
    tally.check(playing.evaluate(OVERLAY) == text, "the second page shows the same box")
    tally.check(paused.evaluate("window.animc.values()['box.x']") == 100, "the last good animation stays")
    tally.check(paused.evaluate("document.querySelector('.stage-panel #animc-live') !== null"), "the box is over the stage")

    # Fixed: the box goes, the new animation shows, still at 40 s.
    save(path, GOOD.format(to=300), by_rename=True)
    took = until(paused, OVERLAY + " === null && window.animc.values()['box.x'] === 120", 1.0)
    tally.check(took is not None, "fixed (saved by renaming over the file): the box goes and box.x = 120 within 1 s")
    tally.check(until(playing, OVERLAY + " === null", 1.0) is not None, "the second page's box goes too")

    # Deleted, then written again.
    os.remove(path)
    tally.check(until(paused, "(" + OVERLAY + " || '').includes('cannot read') ", 1.0) is not None,
                "a deleted file is said on the page")
    text = paused.evaluate(OVERLAY) or ""
    tally.check(text.startswith(f"{name} cannot be read") and "No such file or directory" in text, f"it says why: {text!r}")
    save(path, GOOD.format(to=100))
    tally.check(until(paused, OVERLAY + " === null && window.animc.values()['box.x'] === 40", 1.0) is not None,
                "written again: followed")

    # Binary and huge files: diagnostics, and the server lives on.
    with open(path, "wb") as handle:
        handle.write(bytes(range(256)) * 64)
    tally.check(until(paused, "(" + OVERLAY + " || '').includes('error:')", 2.0) is not None,
                "a binary file gives diagnostics on the page")
    with open(path, "wb") as handle:
        handle.write(b"let a = animate b.x from 0 to 1 in 1s\n" * 250_000)
    tally.check(until(paused, "(" + OVERLAY + " || '').includes('serve reads')", 2.0) is not None,
                "a file over 8 MB gives a diagnostic on the page")
    save(path, GOOD.format(to=100))
    tally.check(until(paused, OVERLAY + " === null", 2.0) is not None and server.process.poll() is None,
                "the server lives on, and follows the file again")

    # SIGTERM stops it at once; the page says it is gone.
    started = time.time()
    status = server.stop(signal.SIGTERM)
    took = time.time() - started
    tally.check(status == 128 + signal.SIGTERM and took < 1, f"SIGTERM stops it at once (exit {status} in {took:.2f} s)")
    tally.check(until(paused, "!document.getElementById('animc-status').hidden", 3.0) is not None,
                "the page says the server does not answer")
    tally.check(paused.evaluate("window.animc.values()['box.x']") == 40, "and keeps showing the animation")


def take_screenshot(animc, workdir, browser, png, tally):
    """examples/talk.anim served at 1.5 s, then a typo saved: the page with its box, for the README."""
    path = os.path.join(workdir, "talk.anim")
    with open(os.path.join(ROOT, "examples", "talk.anim"), encoding="utf-8") as handle:
        source = handle.read()
    save(path, source)
    server = Server(animc, "talk.anim", workdir, free_port())
    try:
        tab = Tab(browser, width=1280, height=720)
        tab.open(server.url + "#t=1.5")
        save(path, source.replace("with an ease-in-out", "with an ease-inout"))
        tally.check(until(tab, OVERLAY + " !== null", 2.0) is not None, "talk.anim with a typo: the box shows")
        data = tab.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(png, "wb") as handle:
            handle.write(base64.b64decode(data))
        print("screenshot: " + os.path.relpath(png, ROOT))
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
