"""Decoders that are not animc's read what `animc render` writes (issue 36):
Pillow decodes the GIF and the APNG of every example (frame count, each
frame's delay = 1/fps to the format's resolution, loop count, first and last
frames against the PNG frames), and, when ffmpeg is installed, ffprobe counts
the frames and the duration of the MP4 and the WebM.

  python render_decode.py --animc PATH [--examples DIR] [--fps N] [--keep DIR]
  python render_decode.py --fixtures DIR   # files the test suite wrote (no render needed)

Prints `N passed, M failed`; exits 1 on any failure.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

from PIL import Image, ImageChops

passed = 0
failed = 0
tally = threading.Lock()

# Examples render refuses, and the words its error says: a check of its own.
REFUSED = {"cancelled": "is cancelled"}
# How far to render examples that repeat (nearly) forever and give no `--until` on their `# eval:` line.
UNTIL = {"forever": "3"}


def check(condition, what):
    global passed, failed
    with tally:
        if condition:
            passed += 1
        else:
            failed += 1
            print("FAIL", what, flush=True)


def gif_delays(fps, count):
    """Centiseconds of frame k: floor(100(k+1)/fps) - floor(100k/fps), so the running total is k/fps rounded down."""
    return [100 * (k + 1) // fps - 100 * k // fps for k in range(count)]


def frames(path):
    """Every frame of an animated picture, composited, as RGBA, with its duration in ms."""
    out = []
    with Image.open(path) as image:
        info = dict(image.info)
        for index in range(getattr(image, "n_frames", 1)):
            image.seek(index)
            out.append((image.convert("RGBA").copy(), image.info.get("duration")))
    return out, info


def close(a, b, tolerance, share=0.99):
    """At least `share` of the pixels within `tolerance` in every channel (GIF quantizes beyond 256 colours),
    pixels transparent in both (alpha below 128) aside."""
    if a.size != b.size:
        return False
    channels = ImageChops.difference(a, b).split()
    largest = channels[0]
    for channel in channels[1:]:
        largest = ImageChops.lighter(largest, channel)
    # Both transparent: 255 where both alphas are below 128, then the difference there counted as none.
    both = ImageChops.multiply(a.getchannel("A").point(lambda v: 255 if v < 128 else 0),
                               b.getchannel("A").point(lambda v: 255 if v < 128 else 0))
    largest = ImageChops.subtract(largest, both)
    bad = sum(largest.histogram()[tolerance + 1:])
    return bad <= (1 - share) * (a.size[0] * a.size[1])


def check_gif(name, path, fps, plays, expected_count, first, last):
    decoded, info = frames(path)
    check(len(decoded) == expected_count, f"{name}: GIF has {len(decoded)} frames, expected {expected_count}")
    delays = [d for _, d in decoded]
    expected = [10 * cs for cs in gif_delays(fps, len(decoded))]
    check(delays == expected, f"{name}: GIF delays {delays[:8]}… expected {expected[:8]}…")
    # Pillow reports the NETSCAPE repetition count; animc stores plays - 1 (none for a single play).
    loop = info.get("loop")
    check(loop == (0 if plays == 0 else None if plays == 1 else plays - 1), f"{name}: GIF loop {loop} for {plays} plays")
    if first is not None and decoded:
        check(close(decoded[0][0], first, 24), f"{name}: GIF first frame differs from the PNG frame")
        check(close(decoded[-1][0], last, 24), f"{name}: GIF last frame differs from the PNG frame")


def check_apng(name, path, fps, plays, expected_count, first, last):
    decoded, info = frames(path)
    check(len(decoded) == expected_count, f"{name}: APNG has {len(decoded)} frames, expected {expected_count}")
    check(all(abs(d - 1000 / fps) < 1e-6 for _, d in decoded), f"{name}: APNG delays {[d for _, d in decoded][:4]} not 1000/{fps} ms")
    check(info.get("loop") == plays, f"{name}: APNG loop {info.get('loop')} for {plays} plays")
    if first is not None and decoded:
        check(decoded[0][0].tobytes() == first.tobytes(), f"{name}: APNG first frame differs from the PNG frame")
        check(decoded[-1][0].tobytes() == last.tobytes(), f"{name}: APNG last frame differs from the PNG frame")


def probe(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                          "-show_entries", "stream=nb_read_frames:format=duration", "-of", "json", path],
                         capture_output=True, text=True)
    data = json.loads(out.stdout or "{}")
    streams = data.get("streams") or [{}]
    return int(streams[0].get("nb_read_frames", -1)), float(data.get("format", {}).get("duration", -1))


def until_of(text):
    for line in text.splitlines():
        if line.startswith("# eval:"):
            words = line.split()
            if "--until" in words:
                return words[words.index("--until") + 1].rstrip("s")
    return None


def run_fixtures(directory):
    with open(os.path.join(directory, "manifest.json")) as file:
        manifest = json.load(file)
    for item in manifest:
        first = Image.open(os.path.join(directory, item["first"])).convert("RGBA")
        last = Image.open(os.path.join(directory, item["last"])).convert("RGBA")
        if item["format"] == "gif":
            check_gif(item["name"], os.path.join(directory, item["file"]), item["fps"], item["plays"], item["frames"], first, last)
        else:
            check_apng(item["name"], os.path.join(directory, item["file"]), item["fps"], item["plays"], item["frames"], first, last)


def run_example(animc, source, work, fps, scale, have_ffmpeg):
    """Every check of one example (run side by side with the others')."""
    name = os.path.basename(source)[:-5]
    with open(source) as file:
        text = file.read()
    base = os.path.join(work, name)
    if name in REFUSED:
        result = subprocess.run([animc, "render", source, "-o", base + ".gif"], capture_output=True, text=True)
        check(result.returncode == 1 and REFUSED[name] in result.stderr and not os.path.exists(base + ".gif"),
              f"{name}: animc render should refuse it ({REFUSED[name]!r}), exited {result.returncode}: {result.stderr.strip()[:300]}")
        return
    until = until_of(text) or UNTIL.get(name)
    extra = ["--until", until] if until else []

    def render(out, *more):
        result = subprocess.run([animc, "render", source, "-o", out, "--fps", str(fps), "--scale", str(scale), *extra, *more],
                                capture_output=True, text=True)
        check(result.returncode == 0, f"{name}: animc render -o {os.path.basename(out)} exited {result.returncode}: {result.stderr.strip()[:300]}")
        return result.returncode == 0

    os.makedirs(base + "-frames", exist_ok=True)
    if not render(base + "-frames/%04d.png"):
        return
    pngs = sorted(glob.glob(base + "-frames/*.png"))
    check(len(pngs) > 0, f"{name}: no PNG frames")
    if not pngs:
        return
    first = Image.open(pngs[0]).convert("RGBA")
    last = Image.open(pngs[-1]).convert("RGBA")
    if render(base + ".gif"):
        check_gif(name, base + ".gif", fps, 0, len(pngs), first, last)
    if render(base + ".png"):
        check_apng(name, base + ".png", fps, 0, len(pngs), first, last)
    if render(base + "-twice.gif", "--loop", "2"):
        check_gif(name + " --loop 2", base + "-twice.gif", fps, 2, len(pngs), None, None)
    if have_ffmpeg:
        for container in ["mp4", "webm"]:
            if render(f"{base}.{container}"):
                count, duration = probe(f"{base}.{container}")
                check(count == len(pngs), f"{name}: {container} has {count} frames, expected {len(pngs)}")
                check(abs(duration - len(pngs) / fps) <= 1.5 / fps, f"{name}: {container} lasts {duration}s, expected {len(pngs) / fps}s")


def run_examples(animc, examples, fps, scale, keep, jobs):
    work = keep or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    have_ffmpeg = shutil.which("ffmpeg") and shutil.which("ffprobe")
    sources = sorted(glob.glob(os.path.join(examples, "*.anim")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for future in [pool.submit(run_example, animc, source, work, fps, scale, have_ffmpeg) for source in sources]:
            future.result()
    if not keep:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--animc")
    parser.add_argument("--examples", default="examples")
    # Few frames, small pictures, two at a time: what is checked (counts, delays, loops, first and last
    # frames) does not need more, and CI runs it on every push.
    parser.add_argument("--fps", type=int, default=10)
    parser.add_argument("--scale", type=float, default=0.5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--fixtures")
    parser.add_argument("--keep")
    args = parser.parse_args()
    if args.fixtures:
        run_fixtures(args.fixtures)
    if args.animc:
        run_examples(args.animc, args.examples, args.fps, args.scale, args.keep, args.jobs)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
