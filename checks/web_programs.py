"""Seeded `.anim` programs for the web check: tweens over the properties the
player draws (and one it does not), with waits, `;`, `||`, `reversed`,
`^ n`, `looped`, `repeated`, `in`, `delayed by` and `with` easings of every
family; and one more for every ten that repeats forever. Forms the language gains later (colours, `emit`, springs, points) are used
when `animc check` accepts a probe of them, so the check grows with it.
"""

import json
import os
import random
from fractions import Fraction
import subprocess
import tempfile

VIEWS = ["ball", "box", "card", "dot", "tile"]

# property: (low, high) of the values written
RANGES = {
    "x": (-160, 160), "y": (-120, 120), "opacity": (0, 1), "scale": (0.2, 2), "rotation": (-180, 360),
    "radius": (5, 50), "width": (10, 120), "size": (20, 90), "level": (-5, 5),
}

PENNER = [f"ease-{mode}-{curve}" for curve in ["quad", "cubic", "quart", "quint", "sine", "expo", "circ", "back", "elastic", "bounce"]
          for mode in ["in", "out", "in-out"]]
MONOTONE = ["linear", "ease-in", "ease-out", "ease-in-out", "ease-out(3)", "high ease-out", "ease-in-out(2)", "ease",
            "css-ease-in", "css-ease-out", "css-ease-in-out", "cubic-bezier(0.1, 0.7, 1, 0.1)", "cubic-bezier(0.3, 0, 0.2, 1)",
            "steps(4)", "steps(3, jump-start)", "steps(5, jump-none)", "steps(2, jump-both)", "step-start", "step-end",
            "compose(ease-in-quad, ease-out-sine)", "compose(steps(3), ease-in-cubic)"] + \
           [e for e in PENNER if not any(k in e for k in ("back", "elastic", "bounce"))]
ANY = MONOTONE + [e for e in PENNER if any(k in e for k in ("back", "elastic", "bounce"))] + \
      ["cubic-bezier(0.3, -0.4, 0.6, 1.5)", "compose(ease-out-back, ease-in-quad)", "compose(ease-in-quad, steps(2))"]
DURATIONS = ["0.1s", "0.2s", "250ms", "0.3s", "0.5s", "0.7s", "1s", "1.5s", "1/3 s"]
COLORS = ["red", "#36c", "rgb(20 200 120)", "rgba(255, 200, 0, 0.5)", "transparent", "hsl(280 60% 50%)", "#0008", "white"]


def number(rng, low, high):
    value = rng.uniform(low, high)
    return str(round(value, rng.choice([0, 1, 2])))


class Generator:
    def __init__(self, rng, features):
        self.rng = rng
        self.features = features
        self.views = rng.sample(VIEWS, rng.randint(1, 3))

    def easing(self, monotone):
        families = list(MONOTONE if monotone else ANY)
        if "spring" in self.features and not monotone:
            families += ["spring", "bouncy spring", "spring(bounce 0.3)", "spring(stiffness 200, damping 12)"]
        return self.rng.choice(families)

    def tween(self):
        rng = self.rng
        view = rng.choice(self.views)
        kind = rng.random()
        if "color" in self.features and kind < 0.12:
            text = f"color {view} from {rng.choice(COLORS)} to {rng.choice(COLORS)}"
        elif "point" in self.features and kind > 0.95:
            # A point on a property the page does not draw: its readout and values() carry both numbers.
            text = (f"animate {view}.shadow from ({number(rng, -8, 8)}, {number(rng, -8, 8)}) "
                    f"to ({number(rng, -8, 8)}, {number(rng, -8, 8)})")
        elif kind < 0.2:
            text = rng.choice([f"fadeIn {view}", f"fadeOut {view}", f"fade {view} from {number(rng, 0, 1)} to {number(rng, 0, 1)}"])
        elif kind < 0.3:
            text = f"rotate {view} from {number(rng, -90, 90)} to {number(rng, 0, 360)}"
        elif kind < 0.4:
            prop = rng.choice(["", "radius ", "size "])
            low, high = RANGES[prop.strip() or "scale"]
            text = f"{rng.choice(['grow', 'shrink', 'scale'])} {view} from {prop}{number(rng, low, high)} to {number(rng, low, high)}"
        else:
            prop = rng.choice(["x", "x", "y", "y", "opacity", "scale", "rotation", "width", "level"])
            low, high = RANGES[prop]
            text = f"animate {view}.{prop} from {number(rng, low, high)} to {number(rng, low, high)}"
        if rng.random() < 0.5:
            text += " in " + rng.choice(DURATIONS + (["0s"] if rng.random() < 0.15 else []))
        if rng.random() < 0.6:
            text += " with " + self.easing(monotone=False)
        return text

    def expr(self, depth):
        rng = self.rng
        roll = rng.random()
        if depth <= 0 or roll < 0.3:
            if rng.random() < 0.1:
                return "wait " + rng.choice(DURATIONS)
            if "emit" in self.features and rng.random() < 0.08:
                return "emit " + rng.choice(["tick", "land", "go"])
            return self.tween()
        if roll < 0.55:
            parts = [self.expr(depth - 1) for _ in range(rng.randint(2, 3))]
            return "(" + " ; ".join(parts) + ")"
        if roll < 0.75:
            parts = [self.expr(depth - 1) for _ in range(rng.randint(2, 3))]
            return "(" + " || ".join(parts) + ")"
        inner = "(" + self.expr(depth - 1) + ")"
        modifier = rng.choice(["reversed", "^", "looped", "repeated twice", "in", "delayed", "with", "with"])
        if modifier == "^":
            return f"{inner} ^ {rng.randint(0, 3)}"
        if modifier == "in":
            return f"{inner} in {rng.choice(DURATIONS)}"
        if modifier == "delayed":
            return f"{inner} delayed by {rng.choice(DURATIONS)}"
        if modifier == "with":
            return f"{inner} with {self.easing(monotone=True)}"
        return f"{inner} {modifier}"

    def repetition(self, index):
        """A repetition too long to list (kept symbolic, exported with an iteration count), then a tail."""
        rng = self.rng
        count = rng.choice([12000, 30000, 1000000])
        # More than 100,000 events, or copies only sampling could follow, are refused (located).
        lines = ["# export: may refuse", f"# generated program {index} (checks/web_programs.py)",
                 f"let final = ({self.expr(2)}) ^ {count} ; {self.expr(1)}"]
        return "\n".join(lines) + "\n"

    def billion(self, index):
        """Issue 35: a part repeated up to 10^9 times (relative `by` copies, steps under a warp, ties
        beside it), then maybe a tail: the web exports play it with an iteration count or refuse it, located."""
        rng = self.rng
        count = rng.choice([3, 10, 1000, 100000, 10**9])
        view = rng.choice(self.views)
        body = rng.choice([
            self.expr(2),
            f"animate {view}.x by {number(rng, -50, 50)} in {rng.choice(DURATIONS)} with {self.easing(monotone=False)}",
            f"(animate {view}.x from 0 to 100 in {rng.choice(DURATIONS)} with steps({rng.randint(2, 5)}, start)) "
            f"with {self.easing(monotone=True)}",
            f"rotate {view} by 1 turns in {rng.choice(DURATIONS)}",
        ])
        part = f"({body}) ^ {count}"
        shape = rng.random()
        if shape < 0.5:
            text = part
        elif shape < 0.75:
            text = f"{part} ; {self.expr(1)}"
        else:
            text = f"{part} || {self.expr(1)}"
        return f"# export: may refuse\n# generated program {index} (checks/web_programs.py)\nlet final = {text}\n"

    def endless(self, index):
        """A part that repeats forever: alone, after a prefix, beside a finite part, or delayed."""
        rng = self.rng
        part = f"({self.expr(2)}) {rng.choice(['repeated forever', 'looped forever'])}"
        shape = rng.random()
        if shape < 0.3:
            body = part
        elif shape < 0.6:
            body = f"{self.expr(1)} ; {part}"
        elif shape < 0.85:
            body = f"{self.expr(1)} || {part}"
        else:
            body = f"{part} delayed by {rng.choice(DURATIONS)}"
        lines = [f"# eval: --until 4 --fps {rng.choice([4, 10, 20])}", f"# generated program {index} (checks/web_programs.py)",
                 "let final = " + body]
        return "\n".join(lines) + "\n"

    def pointed(self, index):
        """A program with a point-valued property (one the page does not draw) beside other tweens."""
        rng = self.rng
        view = rng.choice(self.views)

        def point():
            return f"({number(rng, -8, 8)}, {number(rng, -8, 8)})"
        shadow = (f"animate {view}.shadow from {point()} to {point()} in {rng.choice(DURATIONS)} "
                  f"with {self.easing(monotone=False)}")
        return (f"# generated program {index}, with a point (checks/web_programs.py)\n"
                f"let final = ({self.expr(rng.randint(1, 3))}) || {shadow}\n")

    def program(self, index):
        rng = self.rng
        lines = [f"# generated program {index} (checks/web_programs.py)"]
        if rng.random() < 0.3:
            lines.insert(0, "# eval: --fps " + str(rng.choice([4, 20, 30])))
        if rng.random() < 0.3:
            view = rng.choice(self.views)
            prop = rng.choice(["opacity", "x", "scale", "level"])
            lines.append(f"view {view} {prop} {number(rng, *RANGES[prop])}")
        lines.append("let final = " + self.expr(rng.randint(1, 4)))
        return "\n".join(lines) + "\n"


PROBES = {
    "color": "let a = color ball from red to blue\n",
    "emit": "let a = fadeIn ball ; emit tick\n",
    "spring": "let a = fadeIn ball with spring\n",
    "point": "let a = animate ball.shadow from (0, 0) to (4, 8)\n",
}


def accepted(animc, source):
    with tempfile.NamedTemporaryFile("w", suffix=".anim", delete=False) as handle:
        handle.write(source)
        path = handle.name
    try:
        result = subprocess.run([animc, "eval", path, "--format", "csv"] + eval_line(source), capture_output=True, text=True)
        rows = result.stdout.count("\n")
        return result.returncode == 0 and rows <= 400
    finally:
        os.unlink(path)


def eval_line(source):
    for line in source.splitlines():
        if line.startswith("# eval:"):
            return line[len("# eval:"):].split()
    return []


def with_times(animc, source):
    """`source` with a `# eval: --at` line: 41 instants spread over its duration (exact fractions of it)."""
    with tempfile.NamedTemporaryFile("w", suffix=".anim", delete=False) as handle:
        handle.write(source)
        path = handle.name
    try:
        result = subprocess.run([animc, "export", path, "--to", "waapi"], capture_output=True, text=True)
        if result.returncode != 0:
            return None
        duration = Fraction(str(json.loads(result.stdout)["duration"])).limit_denominator(10**6)
    finally:
        os.unlink(path)
    # Inside the first copies too, where a window of the whole once squeezed them (issue 35).
    times = sorted({duration * k / 40 for k in range(41)} | {Fraction(1, 4), duration - Fraction(1, 8)}
                   | {Fraction(k, 100) for k in (3, 30, 47, 97, 150)})
    times = [t for t in times if 0 <= t <= duration]
    return "# eval: --at " + ",".join(f"{t.numerator}/{t.denominator}" for t in times) + "\n" + source


def exports(animc, source):
    """Whether `animc export --to waapi` takes it (a part repeating forever with two periods on one property is refused)."""
    with tempfile.NamedTemporaryFile("w", suffix=".anim", delete=False) as handle:
        handle.write(source)
        path = handle.name
    try:
        return subprocess.run([animc, "export", path, "--to", "waapi"], capture_output=True, text=True).returncode == 0
    finally:
        os.unlink(path)


def generate_programs(count, seed, animc):
    """`count` programs that `animc eval` accepts (at most 400 rows each), the same for the same seed;
    one in twenty repeats a part too many times to list, sampled at chosen instants; then `count // 10`
    that repeat forever (from a generator of their own, so the others stay as they were)."""
    features = {name for name, probe in PROBES.items() if accepted(animc, probe)}
    rng = random.Random(seed)
    programs = []
    attempts = 0
    while len(programs) < count and attempts < count * 20:
        attempts += 1
        generator = Generator(rng, features - {"point"})
        if len(programs) % 20 == 19:
            source = with_times(animc, generator.repetition(len(programs)))
        else:
            source = generator.program(len(programs))
        if source and accepted(animc, source):
            programs.append(source)
    endless_rng = random.Random(seed * 7919 + 1)
    wanted = len(programs) + count // 10
    attempts = 0
    while len(programs) < wanted and attempts < count * 2:
        attempts += 1
        source = Generator(endless_rng, features - {"point"}).endless(len(programs))
        if accepted(animc, source) and exports(animc, source):
            programs.append(source)
    # Then `count // 10` repeated up to a billion times (issue 35), from a generator of their own:
    # sampled at chosen instants when exported, else only checked to be refused with a located error.
    billion_rng = random.Random(seed * 6151 + 5)
    wanted = len(programs) + count // 10
    attempts = 0
    while len(programs) < wanted and attempts < count * 2:
        attempts += 1
        source = Generator(billion_rng, features - {"point"}).billion(len(programs))
        timed = with_times(animc, source)
        if timed is not None and accepted(animc, timed):
            programs.append(timed)
        elif timed is None and accepted(animc, "# eval: --at 0,1/4\n" + source):
            programs.append("# eval: --at 0,1/4\n" + source)
    # Then `count // 20` (at least one) beside a point-valued property, from a generator of their own too.
    if "point" in features:
        point_rng = random.Random(seed * 104729 + 3)
        wanted = len(programs) + max(1, count // 20)
        attempts = 0
        while len(programs) < wanted and attempts < count * 2:
            attempts += 1
            source = Generator(point_rng, features).pointed(len(programs))
            if accepted(animc, source):
                programs.append(source)
    return programs
