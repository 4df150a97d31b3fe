"""A seeded generator of `.anim` programs for the export checks.

Programs animate x, y, scale, scale-x, scale-y, rotation, opacity and radius
(and color, when the language has colour literals) of one to three views,
some placed (`at`, `origin`), with waits, `;`,
`||`, `reversed`, `^ n`, `in` and `with` easings of every family, some tweens
written `by` (from where the property is); `with` on
a composite gets a monotone easing (others are compile errors there). Each
program lasts at most a few seconds, so that every frame can be checked.
"""

import random
import re

PROPERTIES = {
    "x": (-120, 120),
    "y": (-80, 80),
    "scale": (0.2, 2.0),
    "rotation": (-360, 360),
    "opacity": (-0.2, 1.2),   # past [0, 1] on purpose: Lottie must clamp as animc does
    "radius": (4, 50),
    "scale-x": (0.0, 2.0),   # per axis, times `scale` (exports.md section 6): 0 draws nothing
    "scale-y": (0.0, 2.0),
}

ORIGIN_WORDS = {"center": (0.5, 0.5), "left": (0, 0.5), "right": (1, 0.5), "top": (0.5, 0), "bottom": (0.5, 1),
                "top-left": (0, 0), "top-right": (1, 0), "bottom-left": (0, 1), "bottom-right": (1, 1)}

MONOTONE_EASINGS = [
    "linear", "ease-in", "ease-out", "ease-in-out", "ease-out(3)", "ease-in(0.5)", "ease-in-out(2)", "high ease-out",
    "ease", "css-ease-in", "css-ease-out", "css-ease-in-out", "cubic-bezier(0.1, 0.7, 1, 0.1)",
    "cubic-bezier(0.25, 0, 0.75, 1)", "steps(3)", "steps(4, jump-start)", "steps(2, jump-none)", "steps(3, jump-both)",
    "step-start", "step-end",
] + [f"ease-{mode}-{curve}" for curve in ["quad", "cubic", "quart", "quint", "sine", "expo", "circ"]
     for mode in ["in", "out", "in-out"]]

OVERSHOOTING_EASINGS = [f"ease-{mode}-{curve}" for curve in ["back", "elastic", "bounce"] for mode in ["in", "out", "in-out"]] + [
    "cubic-bezier(0.3, -0.4, 0.6, 1.5)",
]


def easing(rng, monotone, inside=False):
    choices = MONOTONE_EASINGS if monotone else MONOTONE_EASINGS + OVERSHOOTING_EASINGS
    if rng.random() < 0.1:
        return f"compose({easing(rng, True, True)}, {easing(rng, monotone, True)})"
    name = rng.choice(choices)
    # `high` belongs to `with`; inside compose(…) the curve is written with its parameter.
    return "ease-out(1.5)" if inside and name == "high ease-out" else name


def number(rng, low, high):
    value = rng.uniform(low, high)
    return f"{value:.3g}" if abs(value) >= 1e-3 else "0"


def duration(rng):
    # (A unit belongs to the number just before it, semantics 8.4: a fraction of a second is `(1/3)s`.)
    return rng.choice(["0.25s", "0.5s", "300ms", "0.4s", "1s", "0.75s", "200ms", "(1/3)s", "0.25s + 0.25s", "2 * 150ms"])


class Generator:
    def __init__(self, seed, colors=False):
        self.rng = random.Random(seed)
        # Parts (`played`, fractional counts; semantics 8.5) on a stream of their
        # own, so a program without them is the one the seed always made.
        self.parts = random.Random(seed ^ 0x5EED)
        self.colors = colors
        count = self.rng.randint(1, 3)
        self.views = self.rng.sample(["ball", "box", "dot", "card", "sun"], count)

    def tween(self):
        rng = self.rng
        view = rng.choice(self.views)
        prop = rng.choice(list(PROPERTIES) + (["color"] if self.colors else []))
        if prop == "color":
            palette = ["red", "navy", "gold", "#36c", "rgb(20 200 120)", "rgb(255 0 128 / 0.4)", "transparent",
                       "hsl(200 80% 40%)", "#ffcc0080"]
            text = f"color {view} from {rng.choice(palette)} to {rng.choice(palette)}"
        else:
            low, high = PROPERTIES[prop]
            a, b = number(rng, low, high), number(rng, low, high)
            form = rng.random()
            if form < 0.15:
                # From where it is (semantics 7.1): `by` starts at the property's current value.
                # (Not `to`: a `to` tween cannot be reversed, and these programs reverse freely.)
                change = number(rng, (low - high) / 4, (high - low) / 4)
                text = f"rotate {view} by {change}" if prop == "rotation" else f"animate {view}.{prop} by {change}"
            elif prop == "rotation" and form < 0.5:
                text = f"rotate {view} from {a} to {b}"
            elif prop == "opacity" and form < 0.3:
                text = rng.choice([f"fadeIn {view}", f"fadeOut {view}", f"fade {view} from {a} to {b}"])
            elif prop == "scale" and form < 0.5:
                text = f"scale {view} from {a} to {b}"
            elif prop == "radius" and form < 0.5:
                text = f"grow {view} from radius {a} to {b}"
            elif form > 0.9:
                # Keyframes eased one by one (semantics 8.2): an easing on a keyframe, `with each` for the rest.
                c = number(rng, low, high)
                text = (f"animate {view}.{prop} through {a} with {easing(rng, False)}, {b} at 40%, {c}"
                        f" with each {easing(rng, False)}")
            else:
                text = f"animate {view}.{prop} from {a} to {b}"
        if rng.random() < 0.5:
            text += f" in {duration(rng)}"
        if rng.random() < 0.7:
            # Over several keyframes, the whole tween's easing warps time: it must be monotone.
            text += f" with {easing(rng, ' through ' in text)}"
        return text

    def expr(self, depth):
        rng = self.rng
        roll = rng.random()
        if depth <= 0 or roll < 0.3:
            if rng.random() < 0.12:
                return f"wait {duration(rng)}"
            return self.tween()
        if roll < 0.55:
            return f"({self.expr(depth - 1)} ; {self.expr(depth - 1)})"
        if roll < 0.78:
            return f"({self.expr(depth - 1)} || {self.expr(depth - 1)})"
        part = self.parts.random()
        if part < 0.04:
            inner = self.expr(depth - 1)
            low, high = sorted(self.parts.choice([0, 10, 25, 40, 50, 75, 100]) for _ in range(2))
            return self.parts.choice([f"({inner} played from {low}% to {high}%)", f"({inner} played from {low}%)",
                                      f"({inner} played to {high}%)"])
        if part < 0.06:
            inner = self.expr(depth - 1)
            count = self.parts.choice(["0.5", "1.5", "2.5", "1.25"])
            return self.parts.choice([f"(({inner}) ^ {count})", f"({inner} repeated {count} times)"])
        inner = self.expr(depth - 1)
        modifier = rng.choice(["reversed", "^2", "^3", "in", "with", "looped", "delayed", "overlap", "stagger"])
        if modifier == "overlap":
            # Semantics 8.1: after a 1 s wait the chain so far lasts at least the overlap.
            later = self.expr(depth - 1)
            return f"(wait 1s ; {inner} ; {later} overlapping by {rng.choice(['0.25s', '0.5s', '0.2s + 0.3s', '1s'])})"
        if modifier == "stagger":
            # Semantics 8.3: by a step or over a total, from any origin, perhaps spaced by an easing.
            spread = rng.choice(["by 100ms", "by 50ms * 2", "over 0.5s"])
            origin = rng.choice(["", " from end", " from center", " from edges", " backwards"])
            spaced = rng.choice(["", "", " spaced ease-in-quad", " spaced ease-out-cubic"])
            return f"({inner} staggered {spread}{origin}{spaced})"
        if modifier == "reversed":
            return f"({inner} reversed)"
        if modifier in ("^2", "^3"):
            return f"(({inner}) ^ {modifier[1]})"
        if modifier == "in":
            return f"({inner} in {rng.choice(['0.5s', '1s', '1.5s', '(2/3)s'])})"
        if modifier == "looped":
            return f"({inner} looped)"
        if modifier == "delayed":
            return f"({inner} delayed by {duration(rng)})"
        return f"({inner} with {easing(rng, True)})"

    def program(self):
        rng = self.rng
        lines = ["# generated by checks/anim_programs.py"]
        for view in self.views:
            declaration = ""
            if rng.random() < 0.3:
                prop = rng.choice(["opacity", "x", "scale", "radius"])
                low, high = PROPERTIES[prop]
                declaration += f" {prop} {number(rng, low, high)}"
            # Placement (exports.md section 6): a home (views may share one), an origin by word or by fractions.
            if rng.random() < 0.3:
                declaration = f" at ({rng.choice([0, 40, 120, 200])}, {rng.choice([0, 60, 100])})" + declaration
            roll = rng.random()
            if roll < 0.2:
                declaration = f" origin {rng.choice(sorted(ORIGIN_WORDS))}" + declaration
            elif roll < 0.3:
                declaration = f" origin ({rng.choice([0, 0.25, 1])}, {rng.choice([0, 0.5, 0.75])})" + declaration
            if declaration:
                lines.append(f"view {view}{declaration}")
        lines.append(f"let final = {self.expr(3)}")
        return "\n".join(lines) + "\n"


def programs(count, seed, colors=False):
    """`count` programs; the i-th comes from the seed `seed * 100003 + i`."""
    return [Generator(seed * 100003 + index, colors).program() for index in range(count)]


if __name__ == "__main__":
    import sys
    for text in programs(int(sys.argv[1]) if len(sys.argv) > 1 else 3, int(sys.argv[2]) if len(sys.argv) > 2 else 1):
        print(text)


def placements(source):
    """{view: (home or None, origin fractions)} from the `view` lines of a script (exports.md section 6)."""
    out = {}
    for line in source.splitlines():
        match = re.match(r"view\s+([\w-]+)(.*)", line)
        if not match:
            continue
        rest = match.group(2)
        home = re.search(r"\bat\s*\(\s*([-\d.]+)\s*,\s*([-\d.]+)\s*\)", rest)
        word = re.search(r"\borigin\s+([a-z-]+)", rest)
        pair = re.search(r"\borigin\s*\(\s*([-\d.]+)\s*,\s*([-\d.]+)\s*\)", rest)
        origin = ORIGIN_WORDS[word.group(1)] if word else (float(pair.group(1)), float(pair.group(2))) if pair else (0.5, 0.5)
        out[match.group(1)] = ((float(home.group(1)), float(home.group(2))) if home else None, origin)
    return out


def long_programs(count, seed, colors=False):
    """`count` programs that stress what the exports must carry or refuse with a
    located message (exports.md section 7): a generated body repeated many times
    (`^ n` and `repeated n times`, n up to 10^9), `repeated forever` and `looped
    forever` (with and without a prefix), `steps` inside warps (a composite
    `with steps(…)`, an eased composite holding a stepped tween) and ties (two
    tweens of one property at once). The i-th comes from `seed * 100019 + i`."""
    out = []
    for index in range(count):
        generator = Generator(seed * 100019 + index, colors)
        rng = random.Random(seed * 100019 + index + 7)
        body = generator.expr(2)
        view = generator.views[0]
        shape = rng.choice(["power", "forever", "steps", "tie"])
        if shape == "power":
            n = rng.choice([3, 10, 40, 1000, 10**6, 10**9])
            text = rng.choice([f"({body}) ^ {n}", f"{body} repeated {n} times"])
        elif shape == "forever":
            spin = f"rotate {view} by {rng.choice([1, 2, -1])} turns in {duration(rng)}"
            text = rng.choice([f"({body}) repeated forever", f"({body}) looped forever", f"({spin}) repeated forever",
                               f"fadeIn {view} in 0.25s ; ({body}) repeated forever"])
        elif shape == "steps":
            stepped = f"animate {view}.x from 0 to {rng.choice([30, 90])} in {duration(rng)} with {rng.choice(['steps(3)', 'steps(4, jump-start)', 'step-end'])}"
            text = rng.choice([f"({body} ; {stepped}) with {rng.choice(['steps(3)', 'steps(2, jump-both)'])}",
                               f"({stepped} ; {body}) with {rng.choice(['ease-in-out', 'ease-in-out-sine', 'css-ease-in'])}",
                               f"(({stepped}) with ease-out-cubic) ^ {rng.choice([2, 5, 50])}"])
        else:
            prop = rng.choice(["x", "rotation", "opacity"])
            low, high = PROPERTIES[prop]
            tie = (f"(animate {view}.{prop} from {number(rng, low, high)} to {number(rng, low, high)} in 1s || "
                   f"animate {view}.{prop} from {number(rng, low, high)} to {number(rng, low, high)} in 1s with ease-in)")
            text = rng.choice([tie, f"({tie} ; {body})", f"({tie}) ^ {rng.choice([4, 1000])}"])
        out.append(f"# generated by checks/anim_programs.py (long_programs)\nlet final = {text}\n")
    return out
